//! The matrix's columns as data: which outputs of the registry
//! (`marque::render::outputs`) each consumer judges, the outputs judged
//! in a module of their own, and the cells known to fail, with why.

use marque::render::outputs::{
    Output, ANDROID_NIGHT, ANDROID_NOTNIGHT, ANDROID_VALUES, CHANGELOG_JSON, CHANGELOG_MD,
};

/// A column of the table: the consumer that judges it, and the outputs of
/// the registry (`marque::render::outputs`) it judges.
pub(super) struct Column {
    pub name: &'static str,
    pub outputs: &'static [&'static str],
}

impl Column {
    pub fn judges(&self, out: &Output) -> bool {
        self.outputs.contains(&out.file)
    }
}

/// The columns, in the table's order. Every output of the registry is
/// judged by one (`outputs.rs` fails otherwise) or named in [`ELSEWHERE`].
pub(super) const COLUMNS: [Column; 14] = [
    Column {
        name: "tokens.css",
        outputs: &["tokens.css"],
    },
    Column {
        name: "tailwind",
        outputs: &["tailwind.css"],
    },
    Column {
        name: "terrazzo",
        outputs: &["tokens.json", "tokens.resolver.json"],
    },
    Column {
        name: "style-dict",
        outputs: &["tokens.json"],
    },
    Column {
        name: "figma",
        outputs: &["tokens.figma.json"],
    },
    Column {
        name: "figma.zip",
        outputs: &["figma.zip"],
    },
    Column {
        name: "android.zip",
        outputs: &[
            "android.zip",
            ANDROID_VALUES,
            ANDROID_NIGHT,
            ANDROID_NOTNIGHT,
        ],
    },
    Column {
        name: "ios.zip",
        outputs: &["ios.zip"],
    },
    Column {
        name: "tokens.js",
        outputs: &["tokens.js"],
    },
    Column {
        name: "tokens.d.ts",
        outputs: &["tokens.d.ts"],
    },
    Column {
        name: "package.tgz",
        outputs: &["package.tgz"],
    },
    Column {
        name: "llms.txt",
        outputs: &["llms.txt"],
    },
    Column {
        name: "DESIGN.md",
        outputs: &["DESIGN.md"],
    },
    // An agent's documents: the SDK lists and reads every output, and
    // these have no other consumer than an agent that reads them.
    Column {
        name: "mcp",
        outputs: &[
            "spec.json",
            "spec.md",
            "family.json",
            CHANGELOG_MD,
            CHANGELOG_JSON,
        ],
    },
];

/// Outputs judged by a consumer's tool in a module of their own, with the
/// module: too slow for every system, or needing more than a build. None
/// now: figma.zip, once here, has its column (`figma_zip.rs`).
pub(super) const ELSEWHERE: [(&str, &str); 0] = [];

/// Cells that fail for a reason this change does not fix: `(system,
/// column, how the failure starts, why)`. The table shows them `known`;
/// one that passes fails the test, so the list cannot go stale.
pub(super) const KNOWN: &[(&str, &str, &str, &str)] = &[
    (
        "hostile/evil",
        "style-dict",
        "Style Dictionary throws Reference Errors: Some token references (2) could not be found.",
        "Style Dictionary reads `{…}` in any string of a token as a reference: color.ink's `$description` and color.paper's `$extensions` hold `{ background: red }`, valid DTCG with no escape, which tokens.json keeps as written",
    ),
];
