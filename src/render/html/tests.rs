use super::icon_link;

#[test]
fn the_favicon_takes_a_hex_colour_and_nothing_else() {
    assert!(icon_link(Some("#1f6f8b")).contains("fill='%231f6f8b'"));
    assert!(icon_link(Some("#1f6f8bcc")).contains("fill='%231f6f8bcc'"));
    for hostile in ["#1f6f8b\"><script>", "red", "#12345", "#1f6f8b'/%3E"] {
        let link = icon_link(Some(hostile));
        assert!(link.contains("fill='%231b1f24'"), "{hostile}: {link}");
    }
    assert!(icon_link(None).contains("fill='%231b1f24'"));
}
