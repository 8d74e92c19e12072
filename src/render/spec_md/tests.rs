use super::*;

#[test]
fn headings_move_down_but_code_blocks_stay() {
    let book = "# Title\n\nText\n\n```\n# not a heading\n```\n\n###### Deep\n\nSub\n---\n";
    assert_eq!(
        shift_headings(book, 1),
        "## Title\n\nText\n\n```\n# not a heading\n```\n\n###### Deep\n\n### Sub\n"
    );
    assert_eq!(top_heading_level(book), Some(1));
    assert_eq!(
        top_heading_level("Intro\n\n```\n# no\n```\n\n## Two\n"),
        Some(2)
    );
    assert_eq!(top_heading_level("no headings"), None);
}
