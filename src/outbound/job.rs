//! One delivery as the outbox holds it, queues it and writes it down:
//! the target, the body as it will be sent, and an idempotency key. A job
//! holds no secret (the tokens and the signing secret are added to each
//! request from the configuration), so the journal on disk holds none.
//! PURE: making the jobs of a publish and their bodies.

use super::Event;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Paths in one purge request: Cloudflare's `purge_cache` takes at most
/// 30 `files` per call on most plans.
pub const PURGE_CHUNK: usize = 30;

/// The `event_type` of the `repository_dispatch` marque sends.
pub const DISPATCH_EVENT: &str = "marque-release";

/// One request to make (or, for a comment, one short conversation), and
/// what it is for. Bodies are JSON text, made before the job is queued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Job {
    /// A purge request: `body` is `None` for a template with `{path}` (one
    /// request per path, no body).
    Purge {
        url: String,
        body: Option<String>,
        key: String,
    },
    /// One event to one `--notify-url`, signed when it is sent.
    Event {
        url: String,
        /// `release.published`, …: the `X-Marque-Event` header.
        event_type: String,
        body: String,
        key: String,
    },
    /// One event as a GitHub `repository_dispatch` (`--dispatch-repo`).
    Dispatch {
        url: String,
        body: String,
        key: String,
    },
    /// A commit status (`--status-api`).
    Status {
        url: String,
        body: String,
        key: String,
    },
    /// The change table on the pull request of `branch`
    /// (`--status-comment`), made or edited in place.
    Comment {
        branch: String,
        body: String,
        key: String,
    },
}

impl Job {
    /// Where it goes: a URL, or for a comment the branch whose pull
    /// request gets it.
    pub fn url(&self) -> &str {
        match self {
            Job::Purge { url, .. }
            | Job::Event { url, .. }
            | Job::Dispatch { url, .. }
            | Job::Status { url, .. } => url,
            Job::Comment { branch, .. } => branch,
        }
    }

    pub fn what(&self) -> &str {
        match self {
            Job::Purge { .. } => "purge",
            Job::Event { event_type, .. } => event_type,
            Job::Dispatch { .. } => "repository_dispatch",
            Job::Status { .. } => "commit status",
            Job::Comment { .. } => "pull request comment",
        }
    }

    /// The idempotency key: the same for every try, and after a restart.
    pub fn key(&self) -> &str {
        match self {
            Job::Purge { key, .. }
            | Job::Event { key, .. }
            | Job::Dispatch { key, .. }
            | Job::Status { key, .. }
            | Job::Comment { key, .. } => key,
        }
    }

    pub fn body(&self) -> Option<&str> {
        match self {
            Job::Purge { body, .. } => body.as_deref(),
            Job::Event { body, .. }
            | Job::Dispatch { body, .. }
            | Job::Status { body, .. }
            | Job::Comment { body, .. } => Some(body),
        }
    }

    /// This delivery among all: its key and its target, so one event to
    /// two targets is two deliveries, each acknowledged on its own.
    pub fn id(&self) -> String {
        format!("{}:{}", self.key(), short_hash(&[self.url().as_bytes()]))
    }
}

/// 24 hex digits of SHA-256 over `parts`, each ended by a NUL.
pub fn short_hash(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for part in parts {
        h.update(part);
        h.update([0]);
    }
    let d = h.finalize();
    d[..12].iter().map(|b| format!("{b:02x}")).collect()
}

/// The purge requests of `paths` for one `--purge-url`: with `{path}` or
/// `{url}` in the template, one POST per path with no body; without, POSTs
/// of `{"paths": [...], "files": [...]}` ([`PURGE_CHUNK`] paths each,
/// `files` the absolute URLs, as Cloudflare's `purge_cache` reads them).
pub fn purges(template: &str, paths: &[String], public_url: &str, generation: u64) -> Vec<Job> {
    let per_path = template.contains("{path}") || template.contains("{url}");
    if per_path {
        return paths
            .iter()
            .map(|p| Job::Purge {
                url: template
                    .replace("{path}", p)
                    .replace("{url}", &format!("{public_url}{p}")),
                body: None,
                key: purge_key(generation, std::slice::from_ref(p)),
            })
            .collect();
    }
    paths
        .chunks(PURGE_CHUNK)
        .map(|chunk| {
            let files: Vec<String> = chunk.iter().map(|p| format!("{public_url}{p}")).collect();
            let body = serde_json::json!({ "paths": chunk, "files": files });
            Job::Purge {
                url: template.to_string(),
                body: Some(body.to_string()),
                key: purge_key(generation, chunk),
            }
        })
        .collect()
}

/// The idempotency key of a purge: the generation and its paths.
fn purge_key(generation: u64, paths: &[String]) -> String {
    let generation = generation.to_be_bytes();
    let mut parts: Vec<&[u8]> = vec![&generation];
    parts.extend(paths.iter().map(|p| p.as_bytes()));
    format!("purge_{}", short_hash(&parts))
}

/// The body of an event as sent: with its verdict, computed from the two
/// versions' brands (a diff: the outbox calls it off the publish path).
pub fn event_body(event: &Event) -> String {
    let mut e = event.clone();
    e.verdict = event.compared.as_ref().and_then(|(a, b)| {
        let (a, b) = (a.brand.brand()?, b.brand.brand()?);
        let diff = crate::spec::diff::diff(&a, &b);
        Some(diff.level().map_or("none", |l| l.as_str()).to_string())
    });
    serde_json::to_string(&e).expect("an event serializes")
}

/// A GitHub `repository_dispatch` of an event: `event_type`
/// `marque-release`, the event as `client_payload` (GitHub takes at most
/// ten top-level properties there; an event has nine).
pub fn dispatch_body(event: &str) -> String {
    let payload: serde_json::Value = serde_json::from_str(event).unwrap_or_default();
    serde_json::json!({ "event_type": DISPATCH_EVENT, "client_payload": payload }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_with_a_path_is_one_request_per_path_else_chunks() {
        let paths: Vec<String> = (0..31).map(|i| format!("/brand/b{i}")).collect();
        let one = purges(
            "https://api.fastly.com/purge/b.example{path}",
            &paths[..2],
            "https://b.example",
            3,
        );
        let urls: Vec<_> = one.iter().map(|j| j.url().to_string()).collect();
        assert_eq!(
            urls,
            [
                "https://api.fastly.com/purge/b.example/brand/b0",
                "https://api.fastly.com/purge/b.example/brand/b1"
            ]
        );
        let chunks = purges("https://cdn.example/purge", &paths, "https://b.example", 3);
        assert_eq!(chunks.len(), 2);
        let body: serde_json::Value = serde_json::from_str(chunks[1].body().unwrap()).unwrap();
        assert_eq!(body["paths"], serde_json::json!(["/brand/b30"]));
        assert_eq!(
            body["files"],
            serde_json::json!(["https://b.example/brand/b30"])
        );
    }

    #[test]
    fn a_job_reads_back_as_written_and_one_key_to_two_targets_is_two_deliveries() {
        let job = |url: &str| Job::Event {
            url: url.into(),
            event_type: "release.published".into(),
            body: "{\"id\":\"evt_1\"}".into(),
            key: "evt_1".into(),
        };
        let a = job("https://a.example/hook");
        let text = serde_json::to_string(&a).unwrap();
        assert!(text.contains("\"kind\":\"event\""), "{text}");
        assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), a);
        assert_ne!(a.id(), job("https://b.example/hook").id());
        assert_eq!(a.id(), job("https://a.example/hook").id());
        assert!(a.id().starts_with("evt_1:"));
    }
}
