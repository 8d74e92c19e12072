//! `--status-comment`: a preview's pull request (GitLab: merge request)
//! gets one comment with the change table, made on the first verdict and
//! edited in place on the next push, never repeated. The forge is a real
//! local server that keeps comments as GitHub's and GitLab's APIs do.

use super::openapi;
use super::receiver::{Got, Receiver};
use crate::git::{push_hook, serve_git_with, Remote};
use crate::helpers::*;
use marque::outbound::commit_status::{Forge, StatusApi};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TOKEN: &str = "glpat_or_ghp_comment_token";
const BRANCH: &str = "preview/spring";

/// The comments on pull request 7, as the forge keeps them.
type Comments = Arc<Mutex<Vec<(u64, String)>>>;

/// A forge that knows one open pull request (number 7) of [`BRANCH`],
/// lists its comments (one from a reviewer first), makes and edits them.
fn forge(kind: Forge) -> (Receiver, Comments) {
    let comments: Comments = Arc::new(Mutex::new(vec![(1, "Looks good to me".into())]));
    let c = comments.clone();
    let (pulls, list, one) = match kind {
        Forge::Gitlab => (
            "/api/projects/acme%2Fbrands/merge_requests",
            "/api/projects/acme%2Fbrands/merge_requests/7/notes",
            "/api/projects/acme%2Fbrands/merge_requests/7/notes/",
        ),
        _ => (
            "/api/repos/acme/brands/pulls",
            "/api/repos/acme/brands/issues/7/comments",
            "/api/repos/acme/brands/issues/comments/",
        ),
    };
    let receiver = Receiver::with(
        &[],
        Arc::new(move |g: &Got| {
            let mut comments = c.lock().unwrap();
            let listed = |cs: &[(u64, String)]| -> Value {
                cs.iter()
                    .map(|(id, body)| json!({ "id": id, "body": body }))
                    .collect()
            };
            match (g.method.as_str(), g.path.as_str()) {
                ("GET", p) if p == pulls => Some((
                    200,
                    json!([{ "number": 7, "iid": 7, "head": { "ref": BRANCH }, "source_branch": BRANCH }]),
                )),
                ("GET", p) if p == list => Some((200, listed(&comments))),
                ("POST", p) if p == list => {
                    let id = 100 + comments.len() as u64;
                    comments.push((id, g.json()["body"].as_str().unwrap().into()));
                    Some((201, json!({ "id": id, "body": comments.last().unwrap().1 })))
                }
                ("PATCH" | "PUT", p) if p.starts_with(one) => {
                    let id: u64 = p[one.len()..].parse().unwrap();
                    let body = g.json()["body"].as_str().unwrap().to_string();
                    let c = comments.iter_mut().find(|(i, _)| *i == id)?;
                    c.1 = body.clone();
                    Some((200, json!({ "id": id, "body": body })))
                }
                ("POST", p) if p.contains("/statuses/") => Some((201, json!({ "id": 1 }))),
                _ => Some((404, json!({ "message": "Not Found" }))),
            }
        }),
    );
    (receiver, comments)
}

/// The requests of the comment's conversation (not the statuses).
fn conversation(got: &[Got]) -> Vec<String> {
    got.iter()
        .filter(|g| !g.path.contains("/statuses/"))
        .map(|g| format!("{} {}", g.method, g.path))
        .collect()
}

fn one_comment_edited_in_place(kind: Forge) {
    let (api, comments) = forge(kind);
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 0);
    let tokens = remote.path().join("northwind/tokens.json");
    let good = std::fs::read_to_string(&tokens).unwrap();
    std::fs::write(&tokens, "{ \"color\": ").unwrap();
    remote.commit_to(BRANCH, "Half a palette", 2);
    let base = api.url("/api");
    let g = serve_git_with(&remote.url(), None, |c| {
        c.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "preview/*".into(),
            limit: 20,
        });
        c.outbound.status = Some(StatusApi {
            forge: kind,
            base,
            repo: "acme/brands".into(),
            token: TOKEN.into(),
        });
        c.outbound.comment = true;
    });
    let app = &g.app;
    app.wait_until(
        |_| comments.lock().unwrap().len() == 2,
        "the comment is made",
    );
    let made = comments.lock().unwrap()[1].clone();
    println!("{kind:?} comment made:\n{}", made.1);
    assert!(made.1.starts_with("<!-- marque:preview-comment -->"));
    assert!(made.1.contains("| northwind | invalid |"), "{}", made.1);

    // The fix: valid tokens, Northwind's muted surface dropped.
    let mut t: Value = serde_json::from_str(&good).unwrap();
    t["color"]["surface"]
        .as_object_mut()
        .unwrap()
        .remove("muted");
    std::fs::write(&tokens, serde_json::to_string_pretty(&t).unwrap()).unwrap();
    remote.commit_to(BRANCH, "The whole palette", 3);
    push_hook(app);
    app.wait_until(
        |_| comments.lock().unwrap()[1].1 != made.1,
        "the comment is edited",
    );
    std::thread::sleep(Duration::from_millis(500));
    let now = comments.lock().unwrap().clone();
    println!("{kind:?} comment edited:\n{}", now[1].1);
    assert_eq!(now.len(), 2, "one comment, not a second: {now:?}");
    assert_eq!(now[0].1, "Looks good to me", "the reviewer's is untouched");
    assert!(now[1].1.contains("**major: "), "{}", now[1].1);
    assert!(
        now[1].1.contains(
            "/preview/preview-spring/brand/northwind/compare/2.4.0...current) | changed | major |"
        ),
        "{}",
        now[1].1
    );
    let got = api.got();
    let (edit, make) = match kind {
        Forge::Gitlab => (
            "PUT /api/projects/acme%2Fbrands/merge_requests/7/notes/101",
            "POST /api/projects/acme%2Fbrands/merge_requests/7/notes",
        ),
        _ => (
            "PATCH /api/repos/acme/brands/issues/comments/101",
            "POST /api/repos/acme/brands/issues/7/comments",
        ),
    };
    let steps = conversation(&got);
    println!("{kind:?} requests: {steps:#?}");
    assert_eq!(steps.iter().filter(|s| *s == make).count(), 1, "{steps:?}");
    assert_eq!(steps.iter().filter(|s| *s == edit).count(), 1, "{steps:?}");
    let pulls = got.iter().find(|g| g.method == "GET").unwrap();
    match kind {
        Forge::Gitlab => {
            assert!(pulls.query.contains("source_branch=preview%2Fspring"));
            assert_eq!(pulls.header("private-token"), TOKEN);
        }
        _ => {
            assert!(pulls.query.contains("head=acme%3Apreview%2Fspring"));
            assert_eq!(pulls.header("authorization"), format!("Bearer {TOKEN}"));
        }
    }
    // Every request is one the forge's published description has, with
    // a body its schema accepts (GitLab's excerpt has the commit status
    // only: see tests/fixtures/openapi/SOURCE.md).
    for g in got
        .iter()
        .filter(|g| kind != Forge::Gitlab || g.path.contains("/statuses/"))
    {
        openapi::conforms(kind, g);
    }
    let status = serde_json::to_string(&app.get("/status").json()).unwrap();
    assert!(!status.contains(TOKEN));
}

#[test]
fn a_github_pull_request_keeps_one_comment_with_the_change_table_edited_in_place() {
    one_comment_edited_in_place(Forge::Github);
}

#[test]
fn a_gitlab_merge_request_keeps_one_note_with_the_change_table_edited_in_place() {
    one_comment_edited_in_place(Forge::Gitlab);
}
