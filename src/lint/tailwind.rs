//! PURE. Tailwind CSS v4's utilities that take theme values, and the
//! namespaces they read: what makes `bg-fjord-900` the colour token
//! `--color-fjord-900` and `rounded-card` the radius `--radius-card`.

use crate::render::namespaces::Namespace;

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
