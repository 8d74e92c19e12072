//! Every kind of diagnostic marque gives, with a stable code: `MQ` and four
//! digits, the first two naming where the problem comes from (its family,
//! [`Family`]), the last two the problem. A code never changes meaning and
//! is never reused; a message's wording may change freely. Each code has a
//! short kebab-case name, a severity (a diagnostic's severity is its
//! code's), what it means and how to fix it: the manual's index of codes
//! is [`readme_index`], checked against this table by a test, and SARIF's
//! rules are made from it.
//!
//! The same words can be two codes: an error about one token of an export
//! in another format leaves that token out instead, a warning with a code
//! of the family "tokens left out" ([`Code::left_out`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

use super::Severity;

/// Where a problem comes from: the first two digits of its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    Source,
    Schema,
    Versions,
    Tokens,
    Readings,
    References,
    Resolver,
    LeftOut,
    CssNames,
    Contrast,
    Assets,
    Prompts,
    Formats,
    Surfaces,
    Limits,
    Lint,
}

impl Family {
    pub const ALL: [Family; 16] = [
        Family::Source,
        Family::Schema,
        Family::Versions,
        Family::Tokens,
        Family::Readings,
        Family::References,
        Family::Resolver,
        Family::LeftOut,
        Family::CssNames,
        Family::Contrast,
        Family::Assets,
        Family::Prompts,
        Family::Formats,
        Family::Surfaces,
        Family::Limits,
        Family::Lint,
    ];

    /// The two digits after `MQ` of every code of the family.
    pub fn number(self) -> &'static str {
        match self {
            Family::Source => "10",
            Family::Schema => "11",
            Family::Versions => "12",
            Family::Tokens => "13",
            Family::Readings => "14",
            Family::References => "15",
            Family::Resolver => "16",
            Family::LeftOut => "17",
            Family::CssNames => "18",
            Family::Contrast => "19",
            Family::Assets => "20",
            Family::Prompts => "21",
            Family::Formats => "22",
            Family::Surfaces => "23",
            Family::Limits => "24",
            Family::Lint => "25",
        }
    }

    /// The family's title, as the manual's index heads it.
    pub fn title(self) -> &'static str {
        match self {
            Family::Source => "The content folder and its files",
            Family::Schema => "The shape of brand.json",
            Family::Versions => "Versions, dates and releases",
            Family::Tokens => "Tokens and their values",
            Family::Readings => "Deviations read with a warning",
            Family::References => "References and aliases",
            Family::Resolver => "Resolver documents and modes",
            Family::LeftOut => "Tokens of an export left out",
            Family::CssNames => "CSS names and values",
            Family::Contrast => "Colour contrast",
            Family::Assets => "Logos and assets",
            Family::Prompts => "The prompt kit",
            Family::Formats => "The formats teams keep",
            Family::Surfaces => "What a surface leaves out",
            Family::Limits => "Budgets and limits",
            Family::Lint => "Tokens in code, found by marque lint",
        }
    }
}

/// Declares [`Code`] from one table: variant, number, name, severity, what
/// it means, how to fix it.
macro_rules! codes {
    ($($variant:ident = $num:literal, $name:literal, $severity:ident, $means:literal, $fix:literal;)*) => {
        /// A kind of diagnostic. See the module's documentation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            /// Every code, in the order of their numbers.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, such as `MQ1201`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => concat!("MQ", $num),)*
                }
            }

            /// The short name, such as `invalid-version`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// The severity of every diagnostic with this code.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// What a diagnostic with this code means, in one sentence.
            pub fn means(self) -> &'static str {
                match self {
                    $(Code::$variant => $means,)*
                }
            }

            /// How to fix it.
            pub fn fix(self) -> &'static str {
                match self {
                    $(Code::$variant => $fix,)*
                }
            }
        }
    };
}

codes! {
    // MQ10: the content folder and its files.
    NotUtf8 = "1001", "not-utf8", Error,
        "A file is not valid UTF-8.",
        "Save the file as UTF-8.";
    InvalidJson = "1002", "invalid-json", Error,
        "A data file (JSON, or JSONC, JSON5 or YAML by its name) does not parse; the line and column are where the parser stopped.",
        "Correct the syntax there (a missing comma, quote or bracket; in YAML, the indentation).";
    MissingFile = "1003", "missing-file", Error,
        "A file every brand needs is missing: brand.json, or its tokens (tokens.json, tokens.resolver.json, or what brand.json's `tokens` names).",
        "Add the file, or correct the path brand.json's `tokens` gives.";
    TwoTokenFiles = "1004", "two-token-files", Error,
        "The brand has both tokens.json and tokens.resolver.json.",
        "Keep one: tokens.json for one set of tokens, the resolver for modes.";
    InvalidSlug = "1005", "invalid-slug", Error,
        "A brand folder's name is not a slug.",
        "Rename the folder: lowercase letters and digits in words joined by single hyphens, at most 64 characters.";
    FileRefused = "1006", "file-refused", Error,
        "A brand file cannot be read as one: a link leading out of the folder or to nothing, not a regular file, a symbolic link in git, or unreadable.",
        "Replace it with a regular file inside the brand folder.";
    EntryNotPublished = "1007", "entry-not-published", Warning,
        "Something under assets/ is not published: not a regular file, or a link to a folder already published.",
        "Remove it, or replace it with a regular file.";
    NoBrandFolder = "1008", "no-brand-folder", Warning,
        "The content folder holds no brand folder (a folder at the top with brand.json).",
        "Add a brand folder, or serve the folder that holds them.";
    BrandFoldersElsewhere = "1009", "brand-folders-elsewhere", Error,
        "No brand folder is at the top of the content, but there are brand folders further down.",
        "Serve the folder that holds them (the message names it and the option to use).";
    YamlCommentValue = "1010", "yaml-comment-value", Warning,
        "A YAML value is empty because an unquoted `#` starts a comment there: `$value: #fff` is null in YAML.",
        "Quote the value: `$value: \"#fff\"`.";
    // MQ11: the shape of brand.json.
    UnknownKey = "1101", "unknown-key", Error,
        "brand.json has a key its schema does not know (a typo is never passed silently).",
        "Correct the key (the message suggests the closest one), or start an extension key with `x-`.";
    MissingKey = "1102", "missing-key", Error,
        "A key brand.json requires is missing.",
        "Add the key.";
    WrongType = "1103", "wrong-type", Error,
        "A value of brand.json has the wrong JSON type.",
        "Write a value of the type the message names.";
    NotOneOf = "1104", "not-one-of", Error,
        "A value of brand.json is not one of those its schema allows.",
        "Use one of the values the message lists.";
    OutOfBounds = "1105", "out-of-bounds", Error,
        "A value of brand.json is empty where it may not be, or a number is outside its bounds.",
        "Give a value within the bounds the message names.";
    UnexpectedShape = "1106", "unexpected-shape", Error,
        "brand.json cannot be read into its model.",
        "Correct the value the message names.";
    InvalidTokensSetting = "1107", "invalid-tokens-setting", Error,
        "brand.json's `tokens` is neither a path in the brand folder nor `{\"path\", \"format\"}`.",
        "Write `\"tokens\": \"<path>\"` or `{\"path\": \"<path>\", \"format\": \"<format>\"}`, the path relative and inside the folder.";
    InvalidId = "1108", "invalid-id", Error,
        "A logo variant's or prompt's id is not slug-shaped.",
        "Use lowercase words joined by hyphens.";
    DuplicateId = "1109", "duplicate-id", Error,
        "Two logo variants or two prompts share an id.",
        "Give each its own id.";
    DuplicateKey = "1110", "duplicate-key", Error,
        "An object of brand.json gives the same key twice (JSON readers disagree on which one counts; `visibility` given twice could publish a private brand).",
        "Keep one of the two.";
    SilencingIgnored = "1111", "silencing-ignored", Warning,
        "An entry of brand.json's `diagnostics` silences nothing: it names an error (errors cannot be silenced), a code marque does not have, or has a value other than \"off\".",
        "Name a warning's code with the value \"off\", or remove the entry.";
    InvalidPrefix = "1112", "invalid-prefix", Error,
        "brand.json's `naming.prefix` is not lowercase letters and digits in words joined by single hyphens, so it cannot start a CSS custom property name as a team's build writes one.",
        "Write the prefix the team's build uses, without `--` or the hyphen after it: `ds` for `--ds-color-brand`.";
    // MQ12: versions, dates and releases.
    InvalidVersion = "1201", "invalid-version", Error,
        "`version` is not a semantic version MAJOR.MINOR.PATCH with an optional pre-release (no `v`, no build metadata).",
        "Write it as the message shows, such as 2.4.0 or 3.0.0-beta.1.";
    InvalidDate = "1202", "invalid-date", Error,
        "`updated` is not a date written YYYY-MM-DD, or not one the calendar has.",
        "Write a real date as YYYY-MM-DD.";
    DateInFuture = "1203", "date-in-future", Error,
        "`updated` is after today.",
        "Write the date of the change, today at the latest.";
    TagSkipped = "1204", "tag-skipped", Warning,
        "A release tag is skipped: its version is not semantic, or brand.json at the tagged commit says another version (or cannot be read).",
        "Tag the commit whose brand.json has that version, and delete the wrong tag.";
    ReleaseNotServed = "1205", "release-not-served", Warning,
        "A tagged release does not validate with today's rules, so it is not served.",
        "Fix the brand in a new release; the old tag stays as it is.";
    VersionTooLow = "1206", "version-too-low", Error,
        "The version step is smaller than the changes since the latest release need (`--semver error`): the brand keeps its last good version.",
        "Raise `version` to what the message says the changes need.";
    VersionTooLowPublished = "1207", "version-too-low-published", Warning,
        "The version step is smaller than the changes since the latest release need; it is published, as `--semver warn` allows.",
        "Raise `version` before tagging, or consumers that trust semver break.";
    InvalidEmbargo = "1208", "invalid-embargo", Error,
        "`embargo` is not an RFC 3339 date-time with an offset.",
        "Write the moment with its offset, such as 2027-01-15T09:00:00+01:00 (or Z for UTC).";
    RemovedWithoutDeprecation = "1209", "removed-without-deprecation", Error,
        "A token is removed that the latest release did not deprecate, under `--require-deprecation`: the brand keeps its last good version.",
        "Deprecate the token first (`\"$deprecated\": \"Use {replacement}\"`), release that, then remove it in a major version.";
    ExtendsCycle = "1210", "extends-cycle", Error,
        "A brand's `extends` leads back to itself (a cycle): it cannot be built over its parents, and keeps its last good version.",
        "Make one brand of the cycle the core, extending nothing.";
    ParentMissing = "1211", "parent-missing", Error,
        "A brand's `extends` names a brand that is not in the content: the child keeps its last good version.",
        "Correct the slug, or add the parent's folder.";
    NoReleaseInRange = "1212", "no-release-in-range", Error,
        "A brand's `extends` names a range of its parent's releases (`core@^2`) that no release tag satisfies: the child keeps its last good version.",
        "Tag a parent release in the range (`git tag core@2.0.0`), or widen the range.";
    FamilyTooDeep = "1213", "family-too-deep", Error,
        "A brand's chain of parents is longer than 8: the child keeps its last good version.",
        "Extend a brand nearer the core.";
    ParentInvalid = "1214", "parent-invalid", Error,
        "A parent a brand extends does not validate where the child uses it (its tokens, or the version its brand.json says): the child keeps its last good version.",
        "Fix the parent; the diagnostics beside this one name its files.";
    InvalidParent = "1215", "invalid-parent", Error,
        "A brand's `extends` is not `<slug>` or `<slug>@<semver range>`.",
        "Write the parent's slug, or its slug and a range such as `core@^3.2`.";
    PrivateParent = "1216", "private-parent", Error,
        "A public brand extends a private one: its surfaces would publish the parent's tokens and name it. The child keeps its last good version.",
        "Make the child private too (`\"visibility\": \"private\"`), or the parent public.";
    // MQ13: tokens and their values.
    TokensNotObject = "1301", "tokens-not-object", Error,
        "A tokens file is not a JSON object of groups and tokens.",
        "Write the tokens as a JSON object.";
    InvalidName = "1302", "invalid-name", Error,
        "A token or group name is empty, starts with `$`, or holds `{`, `}` or `.`.",
        "Rename it.";
    UnknownProperty = "1303", "unknown-property", Error,
        "A token or a composite value has a property DTCG 2025.10 does not define.",
        "Remove it, or correct its spelling.";
    NotTokenOrGroup = "1304", "not-token-or-group", Error,
        "A member of a group is neither a token (an object with `$value`) nor a group.",
        "Make it a token or a group, or remove it.";
    MissingType = "1305", "missing-type", Error,
        "A token has no `$type`, on itself or an enclosing group, and its value does not tell it.",
        "Add `$type` to the token or its group.";
    UnknownType = "1306", "unknown-type", Error,
        "A `$type` is not a DTCG 2025.10 type.",
        "Use one of DTCG's types (the message suggests the closest).";
    InvalidValue = "1307", "invalid-value", Error,
        "A token's value is not one its type allows.",
        "Write the value in the form the message gives.";
    InvalidColor = "1308", "invalid-color", Error,
        "A colour value is not a colour: an unknown colour space, components or alpha out of range, or a hex that is not one.",
        "Write `{\"colorSpace\": \"srgb\", \"components\": [r, g, b]}` (alpha and hex optional) or a #rrggbb string.";
    HexMismatch = "1309", "hex-mismatch", Error,
        "A colour's `hex` and its components give two colours.",
        "Correct one of them so they agree.";
    InvalidDimension = "1310", "invalid-dimension", Error,
        "A dimension is not `{\"value\": number, \"unit\": \"px\" or \"rem\"}` (nor a length read with a warning).",
        "Write it as the message shows.";
    InvalidDuration = "1311", "invalid-duration", Error,
        "A duration is not `{\"value\": number, \"unit\": \"ms\" or \"s\"}`.",
        "Write it as the message shows.";
    InvalidComposite = "1312", "invalid-composite", Error,
        "A composite value (shadow, border, typography, gradient stop…) is not an object, or misses a part.",
        "Give the object every part its type needs.";
    InvalidTokenProperty = "1313", "invalid-token-property", Error,
        "A token property such as `$description` has the wrong type.",
        "Write it as a string.";
    InvalidExtends = "1314", "invalid-extends", Error,
        "`$extends` or a `$ref` inside tokens does not name a group or a token (or names it in a cycle).",
        "Name a group as {group.name}, or a token with a JSON Pointer `#/…`.";
    // MQ14: deviations read with a warning.
    LegacyStringForm = "1401", "legacy-string-form", Warning,
        "A colour, dimension or duration is written in the older string form; it is read and published in the 2025.10 object form.",
        "Write the object form the message shows (or leave it: the reading is safe).";
    ShortHex = "1402", "short-hex", Warning,
        "A colour's `hex` has 3, 4 or 8 digits; it is read as the 6 digits DTCG 2025.10 asks for (alpha split out).",
        "Write the 6-digit hex, and the alpha as `alpha`.";
    RelativeUnit = "1403", "relative-unit", Warning,
        "A dimension's unit is a CSS relative length (em, %, vw, vh); it is kept, but has no pixel value (Figma leaves the token out).",
        "Use px or rem where every consumer should read the token.";
    PlatformUnit = "1404", "platform-unit", Warning,
        "A dimension's unit is a platform unit (dp, pt); it is read as 1 px per unit.",
        "Write the value in px.";
    BareZero = "1405", "bare-zero", Warning,
        "A dimension is a bare 0, or 0 without a unit; it is read as 0 px.",
        "Write `{\"value\": 0, \"unit\": \"px\"}`.";
    InferredType = "1406", "inferred-type", Warning,
        "A token has no `$type`; its value reads as one type only, so it has that type.",
        "Add `$type`.";
    StringType = "1407", "string-type", Warning,
        "`$type` \"string\" is not a DTCG 2025.10 type; the token is read as a string.",
        "Leave it (strict exports leave such tokens out), or give it a DTCG type.";
    CssTextComposite = "1408", "css-text-composite", Warning,
        "A shadow, border, transition or gradient is written as CSS text, or a length as CSS that DTCG has no form for (`clamp()`, `calc()`, `60ch`); it is read as that text (tokens.json and Figma, which need the parts, leave it out).",
        "Write the object of its parts; a CSS-only length has no other form, and needs nothing.";
    FontList = "1409", "font-list", Warning,
        "A fontFamily is a CSS font list in one string; it is read as the names it lists.",
        "Write an array of names.";
    MissingPartRead = "1410", "missing-part-read", Warning,
        "A transition or typography leaves out a part that has one safe reading (no delay, no letter spacing, line height `normal`).",
        "Write the part.";
    LineHeightUnit = "1411", "line-height-unit", Warning,
        "A lineHeight is a length or `normal`, not the number DTCG 2025.10 asks for; it is kept as that CSS value.",
        "Write a number, a multiple of the font size.";
    UnknownPart = "1412", "unknown-part", Warning,
        "A composite value has a member its type does not have; it is kept in spec.json and left out of CSS.",
        "Remove it, or correct its spelling.";
    PositionClamped = "1413", "position-clamped", Warning,
        "A gradient stop's position lies outside 0 to 1; it is read as clamped, as DTCG says.",
        "Write a position from 0 to 1.";
    AlphaBesideValue = "1414", "alpha-beside-value", Warning,
        "A numeric `alpha` beside a colour's `$value` is read as that colour's alpha, as the exporting tool meant it.",
        "Write the alpha inside the colour value.";
    IgnoredMember = "1415", "ignored-member", Warning,
        "A member beside `$value` is not DTCG 2025.10 and is ignored.",
        "Remove it, or move it under `$extensions`.";
    BareLineHeight = "1416", "bare-line-height", Warning,
        "A Tokens Studio or Figma line height is a bare number: above 3 it is read as pixels (`24` is `24px`), 3 or below as a multiple of the font size. sd-transforms keeps every bare line height a multiple, so a 16 px body with `24` would get a 384 px line.",
        "Write the unit (`24px`), or a percentage or ratio (`150%`, `1.5`).";
    // MQ15: references and aliases.
    DanglingReference = "1501", "dangling-reference", Error,
        "A reference names no token.",
        "Correct the name, or add the token (a resolver brand's message says which set or context defines it).";
    ReferenceTypeMismatch = "1502", "reference-type-mismatch", Error,
        "A reference names a token of another type than the place needs.",
        "Refer to a token of the type the message names.";
    AliasCycle = "1503", "alias-cycle", Error,
        "An alias refers back to itself, or into a cycle.",
        "Point one alias of the cycle at a value.";
    AliasChainTooLong = "1504", "alias-chain-too-long", Error,
        "An alias chain is longer than marque follows.",
        "Point the alias closer to a value.";
    StringReferenceLoop = "1505", "string-reference-loop", Error,
        "The references inside a string lead to strings with references too deep, or back to itself.",
        "Break the loop, or refer to a value.";
    NotAReference = "1506", "not-a-reference", Error,
        "brand.json has text where a token reference belongs.",
        "Write it as {group.token}.";
    // MQ16: resolver documents and modes.
    InvalidResolver = "1601", "invalid-resolver", Error,
        "A resolver document is not shaped as the DTCG Resolver Module 2025.10 says.",
        "Correct the member the message names.";
    UnknownResolverReference = "1602", "unknown-resolver-reference", Error,
        "A `$ref` of a resolver names no set, modifier, file or object of tokens.",
        "Correct the reference.";
    InvalidModifier = "1603", "invalid-modifier", Error,
        "A modifier has no contexts, is listed twice, or its `default` names no context of it.",
        "Correct the modifier the message names.";
    SetLoop = "1604", "set-loop", Error,
        "Sets name each other in a loop.",
        "Remove one of the names so no set includes itself.";
    ResolverVersion = "1605", "resolver-version", Warning,
        "A resolver document has no `version`, or not \"2025.10\"; it is read as 2025.10.",
        "Write `\"version\": \"2025.10\"`.";
    NoResolutionOrder = "1606", "no-resolution-order", Warning,
        "A resolver document has no `resolutionOrder`: the sets, then the modifiers, merge in the order written.",
        "Write `resolutionOrder`.";
    NoDefaultContext = "1607", "no-default-context", Warning,
        "A modifier has no `default`; its first context is the default.",
        "Name the default context.";
    SetAdopted = "1608", "set-adopted", Warning,
        "A set is not in `resolutionOrder`, yet what is listed refers to its tokens; it is merged first.",
        "List the set in `resolutionOrder`.";
    InvalidModeName = "1609", "invalid-mode-name", Error,
        "A modifier or context has no name safe as an HTML attribute in kebab case, or two share one.",
        "Rename it.";
    // MQ17: tokens of an export left out.
    LeftOutInvalidValue = "1701", "left-out-invalid-value", Warning,
        "A token of an export in another format has no value that can be read; it is left out, and the rest publishes without it.",
        "Correct the value in the export, as the message says.";
    LeftOutBrokenReference = "1702", "left-out-broken-reference", Warning,
        "A token of an export refers to a token or variable that is not there (or of another type, or in a cycle); it is left out.",
        "Correct the reference, or add what it names to the export.";
    LeftOutUnknownType = "1703", "left-out-unknown-type", Warning,
        "A token of an export has a type DTCG 2025.10 has not, or none that can be told; it is left out.",
        "Give it a DTCG type, or leave it out of the export.";
    LeftOutCssNameClash = "1704", "left-out-css-name-clash", Warning,
        "A token of an export shares its CSS name with another token of another value; it is left out.",
        "Rename one of the two.";
    LeftOutMath = "1705", "left-out-math", Warning,
        "A Tokens Studio math expression does not evaluate; the token is left out.",
        "Correct the expression or what it refers to.";
    LeftOutNoDtcgForm = "1706", "left-out-no-dtcg-form", Warning,
        "A token of an export has no DTCG form (a Tokens Studio composition, a typography without font family or size, a colour modifier that cannot be applied, a Figma BOOLEAN); it is left out.",
        "Nothing to fix if it is not needed on the web; otherwise give it a form DTCG has.";
    LeftOutDependent = "1707", "left-out-dependent", Warning,
        "A token of an export refers to a token that is left out, or that has no value where it is needed; it is left out too.",
        "Fix the token it refers to.";
    LeftOutOther = "1708", "left-out-other", Warning,
        "A token of an export cannot be published for another reason the message gives; it is left out.",
        "Correct it in the export, as the message says.";
    // MQ18: CSS names and values.
    CssNameClash = "1801", "css-name-clash", Error,
        "Two tokens map to one CSS custom property, with different values.",
        "Rename one of them.";
    CssNameShared = "1802", "css-name-shared", Warning,
        "Two tokens map to one CSS custom property, and their values agree: one property serves both.",
        "Nothing to fix; rename one to give each its own property.";
    NoCssName = "1803", "no-css-name", Error,
        "A token's name has no letters or digits to make a CSS name from.",
        "Rename it.";
    QuotedInCss = "1804", "quoted-in-css", Warning,
        "A string value is no CSS value of its type; tokens.css publishes it as a quoted string.",
        "Write a value CSS reads, or give the token `$type` \"string\".";
    // MQ19: colour contrast.
    ContrastTooLow = "1901", "contrast-too-low", Error,
        "A colour pair's WCAG 2 contrast is below its level's minimum (in the default, or in a context the message names).",
        "Choose colours further apart, or a lower level if that is what the pair is for.";
    // MQ20: logos and assets.
    InvalidAssetPath = "2001", "invalid-asset-path", Error,
        "A logo's file is not a relative path inside the brand's assets/ folder.",
        "Write a path such as \"assets/logo.svg\".";
    MissingLogoFile = "2002", "missing-logo-file", Error,
        "A logo's file does not exist in the brand folder.",
        "Add the file, or correct the path.";
    LogoTextElement = "2003", "logo-text-element", Warning,
        "An SVG logo draws its lettering with <text>, which shows in a fallback font where the font is not installed.",
        "Convert the text to outlines (paths).";
    // MQ21: the prompt kit.
    InvalidVariableName = "2101", "invalid-variable-name", Error,
        "A prompt variable's name is not an identifier.",
        "Use letters, digits and _.";
    DuplicateVariable = "2102", "duplicate-variable", Error,
        "A prompt declares a variable twice.",
        "Declare it once.";
    ExampleTooLong = "2103", "example-too-long", Error,
        "A variable's example is longer than its maxLength, so the demo would refuse it.",
        "Shorten the example, or raise maxLength.";
    TemplateSyntax = "2104", "template-syntax", Error,
        "A prompt template does not parse as MiniJinja.",
        "Correct the template syntax.";
    UndeclaredVariable = "2105", "undeclared-variable", Error,
        "A template uses a variable that `variables` does not declare.",
        "Declare the variable, or correct its name in the template.";
    UnusedVariable = "2106", "unused-variable", Warning,
        "A prompt declares a variable its template never uses.",
        "Use it in the template, or remove it.";
    TemplateFails = "2107", "template-fails", Error,
        "A template fails when rendered with the variables' examples, or with ordinary text.",
        "Use filters that accept any text: variables are always strings.";
    // MQ22: the formats teams keep.
    UnknownFormat = "2201", "unknown-format", Error,
        "brand.json's `tokens` names a format marque does not read.",
        "Use one of the formats the message lists.";
    UndetectedFormat = "2202", "undetected-format", Error,
        "A tokens file's format cannot be told from its content: it is no JSON object, or two formats would read it differently.",
        "Name the format in brand.json: `\"tokens\": {\"path\", \"format\"}`.";
    InvalidSource = "2203", "invalid-source", Error,
        "A file in another format does not have that format's shape (a Style Dictionary source that is no object, a Theo file without `props`).",
        "Correct the file, or name its real format.";
    UntypedText = "2204", "untyped-text", Warning,
        "A Style Dictionary value has no type and is no colour, length, duration or number; it is read as text.",
        "Give the token a type.";
    DroppedType = "2205", "dropped-type", Warning,
        "A Style Dictionary type is not one of DTCG 2025.10's; it is dropped, and the value's form gives the type.",
        "Use a DTCG type, or leave it.";
    TokenWithChildren = "2206", "token-with-children", Warning,
        "A Style Dictionary token also has child tokens; it is published as its group's own token (`$root`).",
        "Nothing to fix; move the children to a group of their own to avoid `$root`.";
    NotAToken = "2207", "not-a-token", Warning,
        "A member of an export is neither a token nor a group of them; it is ignored.",
        "Remove it, or give it a value.";
    TheoImportMissing = "2208", "theo-import-missing", Warning,
        "A Theo `imports` entry names no Theo file of the brand folder; its aliases are not read.",
        "Correct the path.";
    UnusedLibraryVariables = "2209", "unused-library-variables", Warning,
        "Figma variables copied from libraries that nothing in the file refers to are not published.",
        "Nothing to fix.";
    SetInNoTheme = "2210", "set-in-no-theme", Warning,
        "A Tokens Studio set is in no theme of `$themes`, so no context publishes it.",
        "Add it to a theme, or make it a source set.";
    UnnamedTheme = "2211", "unnamed-theme", Warning,
        "A Tokens Studio theme has no `name`; it is left out.",
        "Name the theme.";
    MissingThemeSet = "2212", "missing-theme-set", Warning,
        "A Tokens Studio theme selects a set that is not there.",
        "Correct the set's name, or remove it from the theme.";
    SetOverrides = "2213", "set-overrides", Warning,
        "Without `$themes`, a Tokens Studio set overrides tokens of an earlier one; every set applies, the later winning.",
        "Add themes to publish them as modes.";
    ModesInferred = "2214", "modes-inferred", Warning,
        "Modes the tokens keep without a resolver are read as the contexts of one modifier, the default being `default`, `light` or `base`: Tokens Studio sets whose names differ only by a mode word (`semantic/light`, `semantic/dark`) and that do not refer to each other, or values that hold a value per mode (`\"$value\": {\"default\": …, \"dark\": …}`).",
        "Nothing, if that is the system; otherwise add `$themes` (Tokens Studio's themes), or a tokens.resolver.json, to say which apply together.";
    ModesUndecided = "2215", "modes-undecided", Error,
        "marque cannot tell how the tokens' modes apply: sibling sets define the same tokens but their names hold no mode word, or inferred contexts have no default (none is `light`, `default` or `base`, and nothing orders them). The message proposes a plan and asks the one question.",
        "Add Tokens Studio `$themes`, a `$metadata.tokenSetOrder`, or a tokens.resolver.json that says which sets apply together and which is the default.";
    SetNotRead = "2216", "set-not-read", Warning,
        "A set is not read: a build output copy (`dist/`, `build/`) of the sources, or another platform's copy (`ios/`, `android/`) of a `web` set.",
        "Nothing, if that is so; otherwise rename the folder.";
    TheoAliasGroupTaken = "2217", "theo-alias-group-taken", Warning,
        "A Theo prop is named `theo-alias`, the group Theo's aliases are published in; no alias is published, and each prop keeps its value as Theo built it, not a reference.",
        "Rename the prop.";
    // MQ23: what a surface leaves out.
    LeftOutOfFigma = "2301", "left-out-of-figma", Warning,
        "tokens.figma.json leaves a token out: Figma has no variable type for it, or a limit of Figma's is reached.",
        "Nothing to fix if the token is not needed in Figma.";
    LeftOutOfTokensJson = "2302", "left-out-of-tokens-json", Warning,
        "The strict tokens.json leaves a token out: DTCG 2025.10 has no form for what was read.",
        "Write the token in strict DTCG to have it there.";
    LeftOutOfResolverJson = "2303", "left-out-of-resolver-json", Warning,
        "The strict tokens.resolver.json leaves a token out: DTCG 2025.10 has no form for what was read.",
        "Write the token in strict DTCG to have it there.";
    AndroidNameClash = "2304", "android-name-clash", Warning,
        "Two tokens of one kind have the same Android resource name (their paths differ only in characters Android names cannot hold): the later one is left out of the Android resources.",
        "Rename one of the tokens.";
    FigmaPlan = "2305", "figma-plan", Warning,
        "figma.zip has a collection with more modes than some of Figma's plans import (Professional 10, Organization 20, Enterprise 40 per collection), or a token it cannot hold; the warning names the plans that import it.",
        "Nothing to fix if your team's plan is named; else split the modifier's contexts across modifiers.";
    // MQ24: budgets and limits.
    TooManyValues = "2401", "too-many-values", Error,
        "A JSON file, or what a permutation merges, holds more values than marque reads.",
        "Split the file or the brand.";
    NestedTooDeep = "2402", "nested-too-deep", Error,
        "Values are nested deeper than marque reads.",
        "Flatten the structure.";
    KeyTooLong = "2403", "key-too-long", Error,
        "A key is longer than marque reads.",
        "Shorten the key.";
    TooManyTokens = "2404", "too-many-tokens", Error,
        "A tokens file holds more tokens than a brand may have.",
        "Split the brand.";
    ExpansionTooLarge = "2405", "expansion-too-large", Error,
        "`$extends` or `$ref` copies would make the tokens larger than marque reads.",
        "Extend or copy smaller groups.";
    TooManyContexts = "2406", "too-many-contexts", Error,
        "A resolver's modifiers have more contexts, or more tokens to check across contexts, than the budget.",
        "Split the brand, or move tokens that do not vary out of what the contexts merge.";
    TooManySources = "2407", "too-many-sources", Error,
        "A resolver's sets name more sources, or nest deeper, than the budget.",
        "Name fewer sets, or fewer times.";
    FileTooLarge = "2408", "file-too-large", Error,
        "A file is larger than a brand file may be.",
        "Make the file smaller.";
    FolderTooLarge = "2409", "folder-too-large", Error,
        "The brand folder holds more bytes or files than a brand may, or its folders nest too deeply; what is past the limit is not read.",
        "Remove files from the brand folder.";
    SurfacesTooLarge = "2410", "surfaces-too-large", Error,
        "A brand's surfaces add up to more than a brand may publish; it keeps its last good version.",
        "Split the brand, or give it fewer tokens or contexts.";
    TimedOut = "2411", "timed-out", Error,
        "Checking and rendering the brand took longer than its budget; it keeps its last good version until its files change.",
        "Simplify its tokens or assets.";
    InternalError = "2412", "internal-error", Error,
        "marque failed while checking the brand: a bug.",
        "Please report it, with the message.";
    MoreErrorsNotListed = "2413", "more-errors-not-listed", Error,
        "A file has more diagnostics than are listed; among those not listed are errors.",
        "Fix the errors listed; the rest show when fewer are left.";
    MoreWarningsNotListed = "2414", "more-warnings-not-listed", Warning,
        "A file has more warnings than are listed.",
        "Nothing to fix; the rest show when fewer are left.";
    // MQ25: tokens in code, found by `marque lint` in a codebase, not in brand content.
    LiteralIsToken = "2501", "literal-is-token", Error,
        "Code writes a literal (a colour, dimension, duration or font weight) that is exactly a token's value in some context of the brand.",
        "Use the token's name the message gives for the file's language (`var(--…)`, a Tailwind class, `tokens.…`, `R.color.…`, `Color(\"…\")`); `marque lint --fix` does it in CSS, SCSS, Less and Tailwind classes where one token matches in every context.";
    LiteralNearToken = "2502", "literal-near-token", Warning,
        "Code writes a colour within the ΔE (OKLab) threshold of a token's colour but not equal to it: most often a token copied by eye or rounded.",
        "Use the token the message names if it was meant; if the colour is deliberate, keep it and add `marque-lint-ignore MQ2502` on the line or the line above.";
    UnknownTokenName = "2503", "unknown-token-name", Error,
        "Code uses a name in the brand's form (a custom property, Tailwind class, `tokens.…` path, Android resource or iOS colour) that no token of the brand publishes.",
        "Correct the name: the message gives the nearest one that exists.";
    DeprecatedTokenUse = "2504", "deprecated-token-use", Warning,
        "Code uses a token the brand has deprecated.",
        "Use its replacement, which the message names in the file's language.";
    UnusedToken = "2505", "unused-token", Warning,
        "A token of the brand is used by no file linted (`marque lint --unused`): by none of its published names.",
        "Remove the token from the brand in a major version after deprecating it, or lint the code that uses it too.";
    TokenNameSpelling = "2506", "token-name-spelling", Warning,
        "Code names a token's custom property in another spelling than marque publishes (`--button-bgColor` for `--button-bg-color`): the same words, in another case or with other separators, as a design system's own CSS writes them.",
        "Write the name the message gives where the code loads marque's tokens.css; where it loads the design system's own CSS, which declares this spelling, keep it (`marque-lint-ignore MQ2506`, or a baseline).";
}

impl Code {
    /// The family the code belongs to.
    pub fn family(self) -> Family {
        let number = &self.as_str()[2..4];
        Family::ALL
            .into_iter()
            .find(|f| f.number() == number)
            .expect("every code's number starts with a family's")
    }

    /// The code of the warning that an error about one token of an export
    /// becomes when that token is left out (DESIGN 17), by the kind of
    /// error. A warning keeps its code.
    pub fn left_out(self) -> Code {
        if self.severity() == Severity::Warning {
            return self;
        }
        match self {
            Code::MissingType | Code::UnknownType => Code::LeftOutUnknownType,
            Code::CssNameClash | Code::NoCssName => Code::LeftOutCssNameClash,
            c if c.family() == Family::References => Code::LeftOutBrokenReference,
            c if c.family() == Family::Tokens => Code::LeftOutInvalidValue,
            _ => Code::LeftOutOther,
        }
    }

    /// The code that `s` (`MQ1201`) is.
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == s)
    }

    /// The anchor in the manual's index for the code: `mq1201`.
    pub fn anchor(self) -> String {
        self.as_str().to_ascii_lowercase()
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let s = String::deserialize(d)?;
        Code::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown code {s}")))
    }
}

#[cfg(test)]
mod tests;
