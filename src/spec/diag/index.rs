//! The manual's index of codes (docs/reference/diagnostics.md), made from the table of codes.

use super::{Code, Family};

/// The manual's index of codes: a section per family, a row per code
/// with its anchor. A test keeps the manual's copy equal to it.
pub fn readme_index() -> String {
    let mut out = String::new();
    for family in Family::ALL {
        out.push_str(&format!(
            "\n### MQ{}xx: {}\n\n| Code | Name | Severity | What it means | How to fix it |\n|---|---|---|---|---|\n",
            family.number(),
            family.title()
        ));
        for code in Code::ALL.iter().filter(|c| c.family() == family) {
            out.push_str(&format!(
                "| <a id=\"{}\"></a>`{}` | `{}` | {} | {} | {} |\n",
                code.anchor(),
                code.as_str(),
                code.name(),
                code.severity().as_str(),
                code.means().replace('|', "\\|"),
                code.fix().replace('|', "\\|"),
            ));
        }
    }
    out
}
