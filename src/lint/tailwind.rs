//! PURE. Tailwind CSS v4's utilities that take theme values, and the
//! namespaces they read: what makes `bg-fjord-900` the colour token
//! `--color-fjord-900` and `rounded-card` the radius `--radius-card`.

use crate::render::namespaces::Namespace;
use std::collections::HashMap;
use std::sync::OnceLock;

const COLOR: &[Namespace] = &[Namespace::Color];
const SPACING: &[Namespace] = &[Namespace::Spacing];
const RADIUS: &[Namespace] = &[Namespace::Radius];

/// Tailwind's utilities that take theme values, with the namespaces they
/// read (its "Theme variable namespaces" table), longest first where one
/// is a prefix of another.
pub const UTILITIES: &[(&str, &[Namespace])] = &[
    ("text", &[Namespace::Color, Namespace::Text]),
    ("bg", COLOR),
    ("border-t", COLOR),
    ("border-r", COLOR),
    ("border-b", COLOR),
    ("border-l", COLOR),
    ("border-x", COLOR),
    ("border-y", COLOR),
    ("border", COLOR),
    ("outline", COLOR),
    ("ring-offset", COLOR),
    ("ring", COLOR),
    ("fill", COLOR),
    ("stroke", COLOR),
    ("from", COLOR),
    ("via", COLOR),
    ("to", COLOR),
    ("divide", COLOR),
    ("accent", COLOR),
    ("caret", COLOR),
    ("decoration", COLOR),
    ("placeholder", COLOR),
    ("shadow", &[Namespace::Shadow, Namespace::Color]),
    ("font", &[Namespace::Font, Namespace::FontWeight]),
    ("tracking", &[Namespace::Tracking]),
    ("leading", &[Namespace::Leading]),
    ("ease", &[Namespace::Ease]),
    ("rounded-tl", RADIUS),
    ("rounded-tr", RADIUS),
    ("rounded-bl", RADIUS),
    ("rounded-br", RADIUS),
    ("rounded-t", RADIUS),
    ("rounded-r", RADIUS),
    ("rounded-b", RADIUS),
    ("rounded-l", RADIUS),
    ("rounded-s", RADIUS),
    ("rounded-e", RADIUS),
    ("rounded", RADIUS),
    ("space-x", SPACING),
    ("space-y", SPACING),
    ("gap-x", SPACING),
    ("gap-y", SPACING),
    ("gap", SPACING),
    ("px", SPACING),
    ("py", SPACING),
    ("pt", SPACING),
    ("pr", SPACING),
    ("pb", SPACING),
    ("pl", SPACING),
    ("ps", SPACING),
    ("pe", SPACING),
    ("p", SPACING),
    ("mx", SPACING),
    ("my", SPACING),
    ("mt", SPACING),
    ("mr", SPACING),
    ("mb", SPACING),
    ("ml", SPACING),
    ("ms", SPACING),
    ("me", SPACING),
    ("m", SPACING),
    ("inset", SPACING),
    ("size", SPACING),
    ("w", SPACING),
    ("h", SPACING),
];

/// True when Tailwind's `utility` (`bg`, `rounded-t`) takes values of `ns`.
pub fn utility_takes(utility: &str, ns: Namespace) -> bool {
    UTILITIES
        .iter()
        .any(|(u, spaces)| *u == utility && spaces.contains(&ns))
}

/// The first of [`UTILITIES`] named `name`: its index.
pub fn utility(name: &str) -> Option<usize> {
    static BY_NAME: OnceLock<HashMap<&'static str, usize>> = OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| {
        let mut m = HashMap::new();
        for (k, (u, _)) in UTILITIES.iter().enumerate() {
            m.entry(*u).or_insert(k);
        }
        m
    });
    by_name.get(name).copied()
}

/// The utility a class is of (`bg` of `bg-fjord-900`, `border-t` of
/// `border-t-fjord-900`): the first of [`UTILITIES`] that the class
/// starts with and a `-` follows, by its index, with the class after that
/// `-`. One lookup per `-` in the class, not a comparison per utility.
pub fn utility_of(class: &str) -> Option<(usize, &str)> {
    let first = memchr::memchr_iter(b'-', class.as_bytes())
        .filter_map(|p| utility(&class[..p]))
        .min()?;
    Some((first, &class[UTILITIES[first].0.len() + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_of_the_first_utility_it_starts_with() {
        // The loop the lookup stands for.
        fn plain(u: &str) -> Option<(usize, &str)> {
            UTILITIES.iter().enumerate().find_map(|(k, (utility, _))| {
                let value = u.strip_prefix(utility)?.strip_prefix('-')?;
                Some((k, value))
            })
        }
        for class in [
            "bg-fjord-900",
            "border-t-fjord-900",
            "border-fjord",
            "border-",
            "rounded-tl-card",
            "ring-offset-2",
            "ring-2",
            "p-4",
            "px-4",
            "text",
            "text-",
            "-m-4",
            "m--4",
            "bgx-red",
            "",
            "-",
            "gap-x-é",
        ] {
            assert_eq!(utility_of(class), plain(class), "{class:?}");
        }
    }
}
