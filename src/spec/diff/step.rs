//! Which version number a change needs: semver's rules, with Cargo's
//! reading of `0.y.z` and pre-releases that promise nothing.

use super::Level;
use semver::Version;

/// Why a version is too small a step after the release it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooSmall {
    /// The level the changes need.
    pub needed: Level,
    /// The smallest version that would do.
    pub minimum: Version,
}

/// Checks that `to` is a large enough step after release `from` for
/// changes of `level` (`None`: nothing changed).
///
/// Semver's rules, with Cargo's reading of `0.y.z`: before 1.0.0 a breaking
/// change needs the minor number and an addition the patch number. A
/// pre-release promises nothing, so `3.0.0-beta.1` → `3.0.0-beta.2` or
/// → `3.0.0` may change anything; a pre-release of a later version needs
/// the step its changes need (`2.12.0-rc.1` cannot remove a token from 2.11.0).
pub fn check_step(from: &Version, to: &Version, level: Option<Level>) -> Result<(), TooSmall> {
    let Some(level) = level else { return Ok(()) };
    let effective = match (from.major, level) {
        (0, Level::Major) => Level::Minor,
        (0, _) => Level::Patch,
        (_, l) => l,
    };
    let base = |v: &Version| (v.major, v.minor, v.patch);
    let later = to.cmp_precedence(from) == std::cmp::Ordering::Greater;
    if later && !from.pre.is_empty() && base(to) == base(from) {
        return Ok(());
    }
    let step = if !later {
        None
    } else if to.major != from.major {
        Some(Level::Major)
    } else if to.minor != from.minor {
        Some(Level::Minor)
    } else {
        Some(Level::Patch)
    };
    if step.is_some_and(|s| s >= effective) {
        return Ok(());
    }
    Err(TooSmall {
        needed: level,
        minimum: minimum(from, effective),
    })
}

/// The smallest version after `from` that makes a step of `level`.
fn minimum(from: &Version, level: Level) -> Version {
    if !from.pre.is_empty() {
        // The release of the pre-release itself may change anything.
        return Version::new(from.major, from.minor, from.patch);
    }
    match level {
        Level::Major => Version::new(from.major + 1, 0, 0),
        Level::Minor => Version::new(from.major, from.minor + 1, 0),
        Level::Patch => Version::new(from.major, from.minor, from.patch + 1),
    }
}
