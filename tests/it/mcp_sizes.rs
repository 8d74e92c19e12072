//! /mcp answers a request in a session as one JSON body, not as a
//! server-sent event: a client that bounds one event (the MCP Python
//! SDK's takes at most 1 MiB) reads a document of any size.

use crate::helpers::*;
use serde_json::{json, Value};

/// Northwind with a brand book long enough that its spec.md (which holds
/// the book) is over 1 MiB.
fn long_northwind(root: &std::path::Path) {
    copy_dir(
        &example_content().join("northwind"),
        &root.join("northwind"),
    );
    let book = root.join("northwind/BRAND_BOOK.md");
    let mut text = std::fs::read_to_string(&book).unwrap();
    for i in 0..16_000 {
        text.push_str(&format!(
            "\n\nField note {i}: the seam tape held through a night of sleet at the ridge hut."
        ));
    }
    std::fs::write(&book, text).unwrap();
}

#[test]
fn a_document_over_a_mebibyte_is_read_whole_in_a_session() {
    let dir = tempfile::tempdir().unwrap();
    long_northwind(dir.path());
    let app = spawn_app(dir.path());
    let served = app.get("/brand/northwind/spec.md");
    assert_eq!(served.status, 200);
    assert!(served.body.len() > 1 << 20, "{} bytes", served.body.len());
    let uri = format!("{}/brand/northwind/spec.md", app.public_url);

    // In a session, the reply to resources/read is one JSON body.
    let sid = crate::mcp::session(&app, "127.0.0.1");
    let body =
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": uri}});
    let res = app.request(
        "POST",
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Mcp-Session-Id", &sid),
        ],
        Some(body.to_string().as_bytes()),
    );
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("application/json"));
    let reply: Value = serde_json::from_slice(&res.body).unwrap();
    assert_eq!(reply["id"], 3);
    assert_eq!(
        reply["result"]["contents"][0]["text"].as_str(),
        Some(served.text().as_str())
    );
    // The session goes on: its next request is answered in it.
    let list = crate::mcp::rpc(&app, &sid, "resources/list", json!({}));
    assert!(list["result"]["resources"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));

    // And the Python SDK, which refuses an event over 1 MiB, reads it.
    if !require(
        "the MCP Python SDK",
        python_can("import mcp.client.streamable_http"),
        "pip install 'mcp>=2.3,<3' (bash .ci/deps)",
    ) {
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/support/mcp_matrix.py"
        ))
        .arg(format!("{}/mcp", app.public_url))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let read = &report[&uri];
    assert!(read["error"].is_null(), "{read}");
    assert_eq!(read["read"]["bytes"], served.body.len(), "{read}");
}
