//! Android resources (DESIGN.md section 19): `res/values/tokens.xml` with
//! the default context, and `res/values-night/tokens.xml` with what the
//! colour scheme's dark context changes (`values-notnight/` holds the
//! light context when the brand's default is dark).
//!
//! The rule for names and units:
//! - A name is the token's path in lower case, each run of characters
//!   other than ASCII letters and digits one `_` (`color.teal.700` →
//!   `color_teal_700`), `t_` before one that starts with a digit. Two
//!   tokens of one resource type with one name: the later is left out,
//!   with a warning at it (`MQ2304`).
//! - Colours are `<color>` `#AARRGGBB` in sRGB (a wider colour clipped to
//!   sRGB, as tokens.css's fallback is).
//! - Dimensions are `<dimen>`: 1 px = 1 dp, 1 rem = 16 dp; in `sp` when a
//!   typography token uses the dimension as its `fontSize`, or a segment
//!   of its name is `font-size` or `text-size`. Lengths in other units
//!   are left out.
//! - Font weights are `<integer>`, durations `<integer>` milliseconds,
//!   numbers `<integer>` when whole, else a float `<item type="dimen">`;
//!   a font family is a `<string>` of its first name, a string token a
//!   `<string>`.
//! - Shadows, borders, transitions, typography, gradients, cubic Béziers,
//!   and stroke styles have no resource form and are left out, written as
//!   objects or as CSS text; so is a string token that is a CSS function
//!   (`calc()`, `var()`, `linear-gradient()`) or holds `{references}`, with
//!   a warning at it;
//!   so are the contexts Android has no resource qualifier for. The
//!   header comment of each file says what was left out and why.

use crate::spec::tokens::{DimUnit, Token, TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// One resource: its XML element and its line.
struct Res {
    kind: &'static str,
    line: String,
}

/// What the files hold and leave out.
pub struct Android {
    /// `(path under res/, file text)`.
    pub files: Vec<(String, String)>,
    /// Tokens left out for a name another token has: `(token, its name)`.
    pub clashes: Vec<(Token, String)>,
    /// String tokens left out as CSS a browser reads (a function, or
    /// `{references}`): `(token, why)`. Shadows, borders, transitions and
    /// gradients written as CSS text are warned of where they are read.
    pub css: Vec<(Token, &'static str)>,
}

/// A token's resource name (see the module's rule).
pub fn name(path: &[String]) -> String {
    let mut out = String::new();
    for c in path.join(".").chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    match out.chars().next() {
        // R.java names each resource: a Java keyword is no name there.
        Some(c) if c.is_ascii_alphabetic() && !JAVA_KEYWORDS.contains(&out.as_str()) => out,
        _ => format!("t_{out}"),
    }
}

/// Java's reserved words and literals: a resource named one of them makes
/// `R.java` fail to compile (`R.color.class`).
const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
];

/// The largest dimension written, in dp: past it aapt2 refuses the value
/// (a 1e308 px token is 309 digits), and no screen has a use for it.
const MAX_DP: f64 = 1e7;

/// Text as an Android string resource: XML-escaped, and Android's own
/// escapes for quotes, backslashes and a leading `@` or `?`.
fn string(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '\'' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '@' | '?' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A number as Android writes one: no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{:.4}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The dimensions a typography token uses as its font size.
fn font_sizes(set: &TokenSet) -> BTreeSet<String> {
    set.tokens
        .iter()
        .filter(|t| t.ty == TokenType::Typography)
        .filter_map(|t| match &t.value {
            TokenValue::Composite(c) => c.get("fontSize")?.alias_target().map(str::to_string),
            _ => None,
        })
        .collect()
}

/// The resource for token `t` resolved in `set`, or why there is none.
fn resource(t: &Token, set: &TokenSet, sp: &BTreeSet<String>) -> Result<Res, &'static str> {
    let n = name(&t.path);
    let value = set.resolve(&t.value).ok_or("its alias does not resolve")?;
    let line = |kind: &'static str, v: String| Res {
        kind,
        line: format!("<{kind} name=\"{n}\">{v}</{kind}>"),
    };
    Ok(match value.as_ref() {
        TokenValue::Color(c) => {
            let [r, g, b] = c.srgb().map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8);
            let a = (c.alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
            line("color", format!("#{a:02X}{r:02X}{g:02X}{b:02X}"))
        }
        TokenValue::Dimension(d) => {
            let dp = match d.unit {
                DimUnit::Px => d.value,
                DimUnit::Rem => d.value * 16.0,
                _ => return Err("a length in a unit Android has no form for (em, %, vw, vh)"),
            };
            let segment = |s: &str| {
                t.path
                    .iter()
                    .any(|p| crate::spec::tokens::css::kebab(p) == s)
            };
            let unit = match sp.contains(&t.name()) || segment("font-size") || segment("text-size")
            {
                true => "sp",
                false => "dp",
            };
            if !dp.is_finite() || dp.abs() > MAX_DP {
                return Err("a dimension too large for Android (over 10,000,000 dp)");
            }
            line("dimen", format!("{}{unit}", num(dp)))
        }
        TokenValue::FontWeight(w) => line("integer", num(w.round())),
        TokenValue::Duration(d) => line("integer", num(d.ms().round())),
        TokenValue::Number(v) if v.fract() == 0.0 && v.abs() < 2e9 => line("integer", num(*v)),
        TokenValue::Number(v) if !v.is_finite() || v.abs() > f64::from(f32::MAX) => {
            return Err("a number too large for Android's float")
        }
        TokenValue::Number(v) => Res {
            kind: "dimen",
            line: format!(
                "<item name=\"{n}\" type=\"dimen\" format=\"float\">{}</item>",
                num(*v)
            ),
        },
        // Not a format string: `%` is text (aapt2 refuses two `%s` otherwise).
        TokenValue::FontFamily(names) => text_line(
            &n,
            &string(names.first().map(String::as_str).unwrap_or_default()),
        ),
        // A shadow, border, transition or gradient written as CSS text.
        TokenValue::String(_) if t.ty != TokenType::String => return Err(CSS_TEXT),
        TokenValue::String(text) if css_function(text) => return Err(CSS_FUNCTION),
        TokenValue::String(text) if crate::spec::tokens::css::has_references(text) => {
            return Err(STRING_REFERENCES)
        }
        TokenValue::String(text) => text_line(&n, &string(text)),
        _ => return Err("Android resources have no form for this type"),
    })
}

/// Why a gradient, shadow, border or transition written as CSS text is
/// left out.
pub const CSS_TEXT: &str =
    "CSS text (a gradient, shadow, border or transition): Android resources have no form for it";

/// Why a string token that is a CSS function is left out.
pub const CSS_FUNCTION: &str =
    "a CSS function (a gradient, calc(), clamp(), var(), …): Android resources have no form for it";

/// Why a string token with `{references}` in it is left out.
pub const STRING_REFERENCES: &str =
    "a string with {references}: Android resources cannot resolve them";

/// The CSS functions whose call, as a whole value, is CSS for a browser,
/// not text for an app.
const CSS_FUNCTIONS: &[&str] = &[
    "calc",
    "clamp",
    "min",
    "max",
    "var",
    "env",
    "attr",
    "url",
    "image-set",
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "color",
    "color-mix",
    "light-dark",
    "cubic-bezier",
    "steps",
    "linear",
    "translate",
    "rotate",
    "scale",
    "matrix",
    "blur",
    "drop-shadow",
];

/// True when `text` is one CSS function call (`calc(100% - 8px)`,
/// `linear-gradient(…)`), which a browser reads and an app cannot.
pub fn css_function(text: &str) -> bool {
    let text = text.trim();
    let Some((name, _)) = text.split_once('(') else {
        return false;
    };
    let name = name.trim().to_ascii_lowercase();
    let is_ident = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
    is_ident
        && text.ends_with(')')
        && (name.ends_with("gradient") || CSS_FUNCTIONS.contains(&name.as_str()))
}

/// A `<string>` resource that is text, not a format string.
fn text_line(name: &str, text: &str) -> Res {
    Res {
        kind: "string",
        line: format!("<string name=\"{name}\" formatted=\"false\">{text}</string>"),
    }
}

/// An XML comment's text: never `--`, and no character XML 1.0 cannot
/// hold (a control character in a token's name: U+FFFD in its place).
fn comment(text: &str) -> String {
    let text: String = text
        .chars()
        .map(
            |c| match c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
                true => '\u{FFFD}',
                false => c,
            },
        )
        .collect();
    let mut t = text.replace("--", "- -");
    if t.ends_with('-') {
        t.push(' ');
    }
    t
}

/// One tokens.xml.
fn file(
    title: &str,
    resources: &[(String, Res)],
    left_out: &BTreeMap<String, Vec<String>>,
    notes: &[String],
) -> String {
    let mut o = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!--\n");
    let _ = writeln!(o, "  {}", comment(title));
    if !left_out.is_empty() || !notes.is_empty() {
        o.push_str("\n  Left out:\n");
        for (why, names) in left_out {
            let _ = writeln!(
                o,
                "  - {} token(s): {}: {}",
                names.len(),
                comment(why),
                comment(&names.join(", "))
            );
        }
        for n in notes {
            let _ = writeln!(o, "  - {}", comment(n));
        }
    }
    o.push_str("-->\n<resources>\n");
    for (_, r) in resources {
        let _ = writeln!(o, "    {}", r.line);
    }
    o.push_str("</resources>\n");
    o
}

/// Resources by token name, and what was left out (why → tokens).
type Resources = (Vec<(String, Res)>, BTreeMap<String, Vec<String>>);

/// Every resource of `set`, by token name, and what was left out (why →
/// tokens); clashes go to `clashes`.
fn resources_of(
    set: &TokenSet,
    only: Option<&BTreeSet<String>>,
    clashes: &mut Vec<(Token, String)>,
    css: &mut Vec<(Token, &'static str)>,
) -> Resources {
    let sp = font_sizes(set);
    let mut taken: BTreeMap<(&'static str, String), String> = BTreeMap::new();
    let mut out = Vec::new();
    let mut left_out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in &set.tokens {
        let token = t.name();
        if only.is_some_and(|o| !o.contains(&token)) {
            continue;
        }
        match resource(t, set, &sp) {
            Ok(r) => {
                let key = (
                    if r.kind == "dimen" { "dimen" } else { r.kind },
                    name(&t.path),
                );
                if taken.contains_key(&key) {
                    if only.is_none() {
                        clashes.push((t.clone(), key.1.clone()));
                    }
                    continue;
                }
                taken.insert(key, token.clone());
                out.push((token, r));
            }
            Err(why) => {
                if only.is_none() && [CSS_FUNCTION, STRING_REFERENCES].contains(&why) {
                    css.push((t.clone(), why));
                }
                left_out.entry(why.to_string()).or_default().push(token)
            }
        }
    }
    (out, left_out)
}

/// The folder of the colour scheme's other context, if the brand has one:
/// `values-night` (its dark context), or `values-notnight` (its light
/// context, when the default is dark).
pub fn night_folder(set: &TokenSet) -> Option<&'static str> {
    set.modes.iter().find_map(|modifier| {
        if !modifier.is_color_scheme() {
            return None;
        }
        let default = modifier.contexts[modifier.default].ident();
        let other = |name: &str| modifier.contexts.iter().any(|c| c.ident() == name);
        match default.as_str() {
            "dark" if other("light") => Some("values-notnight"),
            _ if other("dark") && default != "dark" => Some("values-night"),
            _ => None,
        }
    })
}

/// The brand's Android resources.
pub fn render(brand: &Brand) -> Android {
    let set = &brand.tokens;
    let (mut clashes, mut css) = (Vec::new(), Vec::new());
    let (default, left_out) = resources_of(set, None, &mut clashes, &mut css);
    let mut notes = Vec::new();
    let mut files = Vec::new();
    let mut night = None;
    // The brand's colour scheme is its first light/dark modifier, as
    // tokens.css and `night_folder` read it: a later one (Moon's button
    // variants `Light` and `Dark`) must not take values-night from it.
    let scheme = set.modes.iter().position(|m| m.is_color_scheme());
    for (m, modifier) in set.modes.iter().enumerate() {
        for (c, context) in modifier.contexts.iter().enumerate() {
            if c == modifier.default {
                continue;
            }
            let default_ident = modifier.contexts[modifier.default].ident();
            let folder = match (
                scheme == Some(m),
                context.ident().as_str(),
                default_ident.as_str(),
            ) {
                (true, "dark", _) => Some("values-night"),
                (true, "light", "dark") => Some("values-notnight"),
                _ => None,
            };
            match folder {
                Some(folder) => night = Some((folder, m, c)),
                None => notes.push(format!(
                    "context `{}` of modifier `{}`: Android has no resource qualifier for it",
                    context.name, modifier.name
                )),
            }
        }
    }
    let title = format!(
        "The design tokens of {} {} for Android (generated by marque): the default context.",
        brand.slug, brand.version
    );
    files.push((
        "values/tokens.xml".to_string(),
        file(&title, &default, &left_out, &notes),
    ));
    if let Some((folder, m, c)) = night {
        let here = set.context(m, c);
        let (all, _) = resources_of(here, None, &mut Vec::new(), &mut Vec::new());
        let before: BTreeMap<&str, &str> = default
            .iter()
            .map(|(n, r)| (n.as_str(), r.line.as_str()))
            .collect();
        let changed: Vec<(String, Res)> = all
            .into_iter()
            .filter(|(n, r)| before.get(n.as_str()).is_some_and(|b| *b != r.line))
            .collect();
        let modifier = &set.modes[m];
        let title = format!(
            "What context `{}` of modifier `{}` changes, for {} {} (generated by marque).",
            modifier.contexts[c].name, modifier.name, brand.slug, brand.version
        );
        files.push((
            format!("{folder}/tokens.xml"),
            file(&title, &changed, &BTreeMap::new(), &[]),
        ));
    }
    Android {
        files,
        clashes,
        css,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_androids_and_strings_are_escaped() {
        let path = |p: &str| p.split('.').map(String::from).collect::<Vec<_>>();
        assert_eq!(name(&path("color.teal.700")), "color_teal_700");
        assert_eq!(
            name(&path("Color.Brand Blue.$root")),
            "color_brand_blue_root"
        );
        assert_eq!(name(&path("2xl.space")), "t_2xl_space");
        assert_eq!(name(&path("class")), "t_class");
        assert_eq!(name(&path("new")), "t_new");
        assert_eq!(name(&path("class.name")), "class_name");
        assert_eq!(string("a\tb"), "a\\tb");
        assert_eq!(
            string("@font's \"x\" <y>"),
            "\\@font\\'s \\\"x\\\" &lt;y&gt;"
        );
        assert_eq!(comment("a -- b-"), "a - - b- ");
        assert_eq!(comment("nul\u{0}byte\u{7f}"), "nul\u{FFFD}byte\u{FFFD}");
    }

    /// Moon's real export has its colour scheme and then button variants
    /// named `Light` and `Dark`: values-night is the first modifier's dark
    /// context, as tokens.css's `prefers-color-scheme` is, never a later one's.
    #[test]
    fn values_night_is_the_first_colour_schemes_dark_context() {
        use crate::spec::{parse_brand, BrandFiles};
        let colour = |grey: f64| {
            format!(
                r#"{{"$type": "color", "$value": {{"colorSpace": "srgb", "components": [{grey}, {grey}, {grey}]}}}}"#
            )
        };
        let base = format!(
            r#"{{"color": {{"a": {}, "b": {}}}}}"#,
            colour(1.0),
            colour(1.0)
        );
        let dark = format!(r#"{{"color": {{"a": {}}}}}"#, colour(0.0));
        let variant = format!(r#"{{"color": {{"b": {}}}}}"#, colour(0.5));
        let resolver = r##"{"version": "2025.10",
            "sets": {"base": {"sources": [{"$ref": "base.json"}]}},
            "modifiers": {
                "theme": {"contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}, "default": "light"},
                "variant": {"contexts": {"light": [], "dark": [{"$ref": "variant.json"}]}, "default": "light"}},
            "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/variant"}]}"##;
        let brand_json = r#"{"name": "Acme", "version": "1.0.0", "updated": "2026-01-01"}"#;
        let files = BrandFiles::from_texts(
            "acme",
            [
                ("brand.json", brand_json.as_bytes()),
                ("tokens.resolver.json", resolver.as_bytes()),
                ("base.json", base.as_bytes()),
                ("dark.json", dark.as_bytes()),
                ("variant.json", variant.as_bytes()),
            ],
        );
        let (brand, diags) = parse_brand(&files, "2026-06-01".parse().unwrap());
        let brand = brand.unwrap_or_else(|| panic!("{diags:?}"));
        let android = render(&brand);
        let night = android
            .files
            .iter()
            .find(|(path, _)| path == "values-night/tokens.xml")
            .map(|(_, xml)| xml.as_str())
            .unwrap_or_default();
        assert!(
            night.contains("<color name=\"color_a\">#FF000000</color>"),
            "{night}"
        );
        assert!(!night.contains("color_b"), "{night}");
    }

    #[test]
    fn a_css_function_is_css_and_text_with_brackets_is_text() {
        assert!(css_function("linear-gradient(90deg, #fff 0%, #000 50%)"));
        assert!(css_function(" calc(100% - 8px) "));
        assert!(css_function("var(--x)"));
        assert!(!css_function("Hello (world)"));
        assert!(!css_function("call(me) maybe"));
        assert!(!css_function("50% off"));
    }
}
