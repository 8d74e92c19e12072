//! The matrix's MCP column: marque serves each content folder the systems
//! come from, and the official MCP Python SDK (`support/mcp_matrix.py`)
//! lists its resources and reads every one. A system passes when every
//! output of the registry its build has is listed, with the registry's
//! media type, and each reads back with that media type and the size
//! listed.

use super::{Cell, System};
use crate::helpers::*;
use marque::render::outputs::OUTPUTS;
use serde_json::Value;
use std::path::Path;

/// The slug a system's build is served under.
fn slug_of(system: &System) -> String {
    system
        .brand
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// What the SDK lists and reads of the servers of `groups`' contents, by
/// URI; and each server's base URL. One client process for every server.
fn listed(
    groups: &[(&Path, Vec<&System>)],
) -> Result<(Vec<String>, serde_json::Map<String, Value>), String> {
    let apps: Vec<TestApp> = groups.iter().map(|(c, _)| spawn_app(c)).collect();
    // Under load, the largest export (primer-figma) can be published a
    // moment after the server reports no brand building: each system is
    // waited for, so the client lists what the build has.
    for (app, (_, systems)) in apps.iter().zip(groups) {
        for system in systems {
            let path = format!("/brand/{}/spec.json", slug_of(system));
            app.wait_until(|a| a.get(&path).status == 200, &format!("{path} is served"));
        }
    }
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/support/mcp_matrix.py"
        ))
        .args(apps.iter().map(|a| format!("{}/mcp", a.public_url)))
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    let report: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        format!(
            "the client fails ({e}): {}",
            super::first_line(stderr.lines().last().unwrap_or(""))
        )
    })?;
    let bases = apps.iter().map(|a| a.public_url.clone()).collect();
    Ok((bases, report.as_object().cloned().unwrap_or_default()))
}

/// One system's cell, from what the SDK saw of its server.
fn judge(base: &str, seen: &serde_json::Map<String, Value>, system: &System) -> Cell {
    let slug = slug_of(system);
    for out in &OUTPUTS {
        if !system.brand.join(out.file).is_file() {
            continue;
        }
        let uri = format!("{base}/brand/{slug}/{}", out.file);
        let Some(r) = seen.get(&uri) else {
            return Err(format!("{} is not listed", out.file));
        };
        if let Some(e) = r["error"].as_str() {
            return Err(format!(
                "{}: reading it raises {}",
                out.file,
                super::first_line(e)
            ));
        }
        if r["mimeType"] != out.mime() || r["read"]["mimeType"] != out.mime() {
            return Err(format!(
                "{}: listed as {}, read as {}, served as {}",
                out.file,
                r["mimeType"],
                r["read"]["mimeType"],
                out.mime()
            ));
        }
        if r["read"]["bytes"] != r["size"] {
            return Err(format!(
                "{}: listed with {} bytes, read {}",
                out.file, r["size"], r["read"]["bytes"]
            ));
        }
    }
    Ok(())
}

/// The MCP cell of each system: `groups` are each content folder and
/// the systems built from it.
pub(super) fn mcp_each(groups: &[(&Path, Vec<&System>)]) -> Vec<Vec<Cell>> {
    match listed(groups) {
        Ok((bases, seen)) => groups
            .iter()
            .zip(bases)
            .map(|((_, systems), base)| systems.iter().map(|s| judge(&base, &seen, s)).collect())
            .collect(),
        Err(e) => groups
            .iter()
            .map(|(_, systems)| systems.iter().map(|_| Err(e.clone())).collect())
            .collect(),
    }
}
