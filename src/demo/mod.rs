//! The prompt demo: run a named prompt of a brand's prompt kit against a
//! language model. This module holds what the endpoint checks and builds,
//! without HTTP: the request's shape, the variables against the prompt, the
//! messages sent to the model, and one error type whose variants map to
//! the endpoint's refusals ([`Refusal`], the one table of its statuses).
//! [`Demo::prepare`] and [`Demo::permit`] are the use case both adapters
//! call: the HTTP handler (`http::demo`) and MCP's `run_prompt` tool. The
//! limiter and the model clients are [`limit`] and [`llm`].

pub mod limit;
pub mod llm;

use crate::paths::Refusal;
use crate::snapshot::DemoBrand;
use crate::spec::diag::clipped;
use crate::spec::model::Prompt;
use limit::DemoLimiter;
use llm::LlmClient;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Largest request body, in bytes.
pub const MAX_BODY: usize = crate::paths::DEMO_MAX_BODY;

/// How long a call waits for a model slot when every slot is busy.
pub const PERMIT_WAIT: Duration = Duration::from_secs(1);

/// A call checked against its brand: the request for the model, and what
/// the answer says it answers.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub request: llm::ChatRequest,
    pub brand: String,
    pub spec_version: String,
    pub prompt_id: String,
}

/// The endpoint's settings and shared state.
pub struct Demo {
    pub limiter: DemoLimiter,
    pub client: LlmClient,
    /// Upstream calls in flight at once.
    pub permits: Arc<Semaphore>,
    /// Cap on a prompt's `maxTokens`.
    pub max_tokens: u32,
    /// With `--redis-url`: the fleet's shared limit, which `limiter` stands
    /// in for while Redis cannot answer.
    pub shared: Option<limit::redis::SharedLimiter>,
    /// Requests decided by Redis and by this replica's own limiter.
    pub decided: Decided,
}

/// Demo requests by the limiter that decided them (for /status and /metrics).
#[derive(Debug, Default)]
pub struct Decided {
    shared: std::sync::atomic::AtomicU64,
    local: std::sync::atomic::AtomicU64,
}

impl Decided {
    /// Decided by Redis, and by this replica alone.
    pub fn counts(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.shared.load(Relaxed), self.local.load(Relaxed))
    }
}

impl Demo {
    /// Counts one request from `ip` against the demo's limit: the fleet's
    /// when there is one and Redis answers, else this replica's.
    /// Counts one request from the client keyed `ip` (its address, an IPv6
    /// client by its /64, as the HTTP layer finds it).
    pub async fn check(&self, ip: std::net::IpAddr) -> limit::Decision {
        use std::sync::atomic::Ordering::Relaxed;
        if let Some(shared) = &self.shared {
            if let Some(decision) = shared.check(ip, &self.limiter).await {
                self.decided.shared.fetch_add(1, Relaxed);
                return decision;
            }
        }
        self.decided.local.fetch_add(1, Relaxed);
        self.limiter.check(ip)
    }

    /// Checks `call` against `brand` (the prompt, its variables, its
    /// template with these values) and makes the model's request, its
    /// `max_tokens` the prompt's within the server's cap. The HTTP endpoint
    /// and the MCP tool both call this.
    pub fn prepare(&self, brand: &DemoBrand, call: Call) -> Result<Prepared, DemoError> {
        let prompt = find_prompt(brand, &call.prompt_id)?;
        let vars = bind(prompt, call.variables)?;
        let (system, user) = messages(brand, prompt, &vars)?;
        let max_tokens = prompt
            .max_tokens
            .unwrap_or(self.max_tokens)
            .min(self.max_tokens);
        Ok(Prepared {
            request: llm::ChatRequest {
                system,
                user,
                max_tokens,
                temperature: prompt.temperature,
            },
            brand: brand.slug.clone(),
            spec_version: brand.version.clone(),
            prompt_id: prompt.id.clone(),
        })
    }

    /// A slot for one call to the model, waiting up to [`PERMIT_WAIT`] for
    /// one; `None` when every slot stayed busy ([`Refusal::Busy`]). Held
    /// until the answer (or its stream) ends.
    pub async fn permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let waiting = self.permits.clone().acquire_owned();
        match tokio::time::timeout(PERMIT_WAIT, waiting).await {
            Ok(Ok(permit)) => Some(permit),
            _ => None,
        }
    }

    /// Which limiter decides now, for /status and /metrics.
    pub fn limiter_mode(&self) -> &'static str {
        match &self.shared {
            Some(f) if f.is_shared() => "shared",
            Some(_) => "local-fallback",
            None => "local",
        }
    }

    /// Purges idle rate-limit keys every `every`, so memory stays bounded
    /// however many addresses call.
    pub fn spawn_purger(self: &Arc<Self>, every: Duration) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                match weak.upgrade() {
                    Some(demo) => demo.limiter.purge(),
                    None => return,
                }
            }
        });
    }
}

/// What is wrong with a demo request, as the caller can fix it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DemoError {
    /// 400: the body is not JSON.
    #[error("the body is not valid JSON: {0}")]
    Malformed(String),
    /// 422: the body is JSON of the wrong shape; each error names a pointer.
    #[error("the request does not have the expected shape")]
    Shape(Vec<FieldError>),
    /// 404: no such brand is published.
    #[error("no brand named \"{0}\" is published here")]
    UnknownBrand(String),
    /// 404: the brand has no such prompt; `valid` lists those it has.
    #[error("brand \"{slug}\" has no prompt \"{prompt}\"")]
    UnknownPrompt {
        slug: String,
        prompt: String,
        valid: Vec<String>,
    },
    /// 422: variables missing, unknown or too long.
    #[error("the variables do not fit prompt \"{prompt}\" ({})", summary(.missing, .unknown, .too_long))]
    Variables {
        prompt: String,
        missing: Vec<String>,
        unknown: Vec<String>,
        too_long: Vec<TooLong>,
    },
    /// 422: the template fails with these values; `culprits` are the variables to blame.
    #[error("prompt \"{prompt}\" cannot be rendered with {}: {detail}", blame(.culprits))]
    Render {
        prompt: String,
        culprits: Vec<String>,
        detail: String,
    },
}

impl DemoError {
    /// Which of the endpoint's refusals each error is.
    pub fn refusal(&self) -> Refusal {
        match self {
            DemoError::Malformed(_) => Refusal::Malformed,
            DemoError::UnknownBrand(_) | DemoError::UnknownPrompt { .. } => Refusal::Unknown,
            DemoError::Shape(_) | DemoError::Variables { .. } | DemoError::Render { .. } => {
                Refusal::Unfit
            }
        }
    }

    /// The HTTP status of each error.
    pub fn status(&self) -> u16 {
        self.refusal().status()
    }

    /// Members the problem body carries besides `detail`.
    pub fn members(&self) -> Vec<(&'static str, Value)> {
        match self {
            DemoError::Shape(errors) => vec![("errors", json!(errors))],
            DemoError::UnknownPrompt { valid, .. } => vec![("promptIds", json!(valid))],
            DemoError::Variables {
                missing,
                unknown,
                too_long,
                ..
            } => vec![
                ("missing", json!(missing)),
                ("unknown", json!(unknown)),
                ("tooLong", json!(too_long)),
            ],
            DemoError::Render { culprits, .. } => vec![("invalid", json!(culprits))],
            _ => Vec::new(),
        }
    }
}

fn summary(missing: &[String], unknown: &[String], too_long: &[TooLong]) -> String {
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing: {}", missing.join(", ")));
    }
    if !unknown.is_empty() {
        parts.push(format!("unknown: {}", clipped(&unknown.join(", "))));
    }
    if !too_long.is_empty() {
        let names: Vec<&str> = too_long.iter().map(|t| t.name.as_str()).collect();
        parts.push(format!("too long: {}", names.join(", ")));
    }
    parts.join("; ")
}

fn blame(culprits: &[String]) -> String {
    if culprits.is_empty() {
        "these values".to_string()
    } else {
        format!("the value of {}", culprits.join(", "))
    }
}

/// One problem with the request's shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldError {
    pub pointer: String,
    pub message: String,
}

/// A variable whose value is longer than the prompt allows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TooLong {
    pub name: String,
    pub max_length: u32,
    pub length: usize,
}

/// The validated request: which prompt, with which values.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub prompt_id: String,
    pub variables: BTreeMap<String, String>,
}

/// Reads the body `{"promptId": "…", "variables": {…}}`, reporting every
/// shape problem at once.
pub fn parse_call(body: &[u8]) -> Result<Call, DemoError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| DemoError::Malformed(e.to_string()))?;
    let mut errors = Vec::new();
    let mut fail = |pointer: String, message: String| errors.push(FieldError { pointer, message });
    let obj = value.as_object();
    if obj.is_none() {
        fail(
            String::new(),
            "the body must be a JSON object {\"promptId\": \"…\", \"variables\": {…}}".into(),
        );
    }
    let prompt_id = match obj.and_then(|o| o.get("promptId")) {
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            fail("/promptId".into(), "promptId must be a string".into());
            String::new()
        }
        None => {
            if obj.is_some() {
                fail("/promptId".into(), "promptId is required".into());
            }
            String::new()
        }
    };
    let mut variables = BTreeMap::new();
    match obj.and_then(|o| o.get("variables")) {
        None | Some(Value::Null) => {}
        Some(Value::Object(vars)) => {
            for (k, v) in vars {
                match v {
                    Value::String(s) => {
                        variables.insert(k.clone(), s.clone());
                    }
                    _ => fail(
                        crate::spec::json::join("/variables", k),
                        "every variable value must be a string".into(),
                    ),
                }
            }
        }
        Some(_) => fail(
            "/variables".into(),
            "variables must be an object of strings".into(),
        ),
    }
    if let Some(o) = obj {
        for k in o.keys().filter(|k| *k != "promptId" && *k != "variables") {
            fail(
                crate::spec::json::join("", k),
                format!("unknown member `{k}`"),
            );
        }
    }
    if !errors.is_empty() {
        return Err(DemoError::Shape(errors));
    }
    Ok(Call {
        prompt_id,
        variables,
    })
}

/// The prompt a call names, in a brand's kit.
pub fn find_prompt<'b>(brand: &'b DemoBrand, prompt_id: &str) -> Result<&'b Prompt, DemoError> {
    brand
        .prompts
        .iter()
        .find(|p| p.id == prompt_id)
        .ok_or_else(|| DemoError::UnknownPrompt {
            slug: brand.slug.clone(),
            prompt: clipped(prompt_id).into_owned(),
            valid: brand.prompts.iter().map(|p| p.id.clone()).collect(),
        })
}

/// Checks the values against the prompt's variables and fills optional ones with "".
pub fn bind(
    prompt: &Prompt,
    mut given: BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, DemoError> {
    let unknown: Vec<String> = given
        .keys()
        .filter(|k| !prompt.variables.iter().any(|v| &v.name == *k))
        .cloned()
        .collect();
    let missing: Vec<String> = prompt
        .variables
        .iter()
        .filter(|v| {
            v.required
                && given
                    .get(&v.name)
                    .is_none_or(|s| crate::prompt::is_blank(s))
        })
        .map(|v| v.name.clone())
        .collect();
    let too_long: Vec<TooLong> = prompt
        .variables
        .iter()
        .filter_map(|v| {
            let length = given.get(&v.name)?.chars().count();
            (length > v.max_length as usize).then(|| TooLong {
                name: v.name.clone(),
                max_length: v.max_length,
                length,
            })
        })
        .collect();
    if !unknown.is_empty() || !missing.is_empty() || !too_long.is_empty() {
        return Err(DemoError::Variables {
            prompt: prompt.id.clone(),
            missing,
            unknown,
            too_long,
        });
    }
    for v in &prompt.variables {
        given.entry(v.name.clone()).or_default();
    }
    Ok(given)
}

/// The messages for a prompt: system = spec.md then the prompt's own
/// instructions; user = the rendered template. A template that fails with
/// these values names the variables to blame.
pub fn messages(
    brand: &DemoBrand,
    prompt: &Prompt,
    vars: &BTreeMap<String, String>,
) -> Result<(String, String), DemoError> {
    let mut system = String::from_utf8_lossy(&brand.spec_md.body()).into_owned();
    if let Some(extra) = &prompt.system {
        system.push_str("\n\n");
        system.push_str(extra);
    }
    let user = crate::prompt::render_template(&prompt.template, vars).map_err(|detail| {
        DemoError::Render {
            prompt: prompt.id.clone(),
            culprits: culprits(prompt, vars),
            detail,
        }
    })?;
    Ok((system, user))
}

/// The variables whose values make a template fail: those that, replaced by
/// their example (or plain text), let it render.
fn culprits(prompt: &Prompt, vars: &BTreeMap<String, String>) -> Vec<String> {
    prompt
        .variables
        .iter()
        .filter(|v| {
            let mut trial = vars.clone();
            let plain = v.example.clone().unwrap_or_else(|| "text".into());
            trial.insert(v.name.clone(), plain);
            crate::prompt::render_template(&prompt.template, &trial).is_ok()
        })
        .map(|v| v.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::model::PromptVariable;

    fn prompt(template: &str, vars: &[(&str, bool, u32)]) -> Prompt {
        Prompt {
            id: "p".into(),
            template: template.into(),
            variables: vars
                .iter()
                .map(|(n, required, max)| PromptVariable {
                    name: n.to_string(),
                    description: None,
                    required: *required,
                    max_length: *max,
                    example: None,
                    ext: Default::default(),
                })
                .collect(),
            ..Prompt::default()
        }
    }

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn shape_errors_are_all_reported_with_pointers() {
        let err =
            parse_call(br#"{"promptId": 3, "variables": {"a": 1}, "extra": true}"#).unwrap_err();
        assert_eq!(err.status(), 422);
        let DemoError::Shape(errors) = err else {
            panic!()
        };
        let pointers: Vec<&str> = errors.iter().map(|e| e.pointer.as_str()).collect();
        assert_eq!(pointers, ["/promptId", "/variables/a", "/extra"]);
        assert_eq!(parse_call(b"{").unwrap_err().status(), 400);
    }

    #[test]
    fn variables_are_checked_against_the_prompt() {
        let p = prompt("{{ a }} {{ b }}", &[("a", true, 3), ("b", false, 10)]);
        let err = bind(&p, vars(&[("a", "toolong"), ("c", "x")])).unwrap_err();
        assert_eq!(err.status(), 422);
        assert_eq!(
            err.to_string(),
            "the variables do not fit prompt \"p\" (unknown: c; too long: a)"
        );
        let ok = bind(&p, vars(&[("a", "ok")])).unwrap();
        assert_eq!(ok["b"], "", "optional variables default to empty");
        let err = bind(&p, vars(&[("b", "x")])).unwrap_err();
        assert!(matches!(err, DemoError::Variables { ref missing, .. } if missing == &["a"]));
    }

    #[test]
    fn a_render_failure_names_the_variable_to_blame() {
        let p = prompt(
            "{{ n|int + 1 }} {{ t }}",
            &[("n", true, 10), ("t", true, 10)],
        );
        let brand = DemoBrand {
            slug: "b".into(),
            version: "1.0.0".into(),
            spec_md: std::sync::Arc::new(crate::snapshot::Resource::new(
                "text/markdown",
                "",
                crate::snapshot::CachePolicy::NoStore,
            )),
            prompts: vec![],
        };
        // "text" does not parse as a number either, so nothing renders: no single culprit.
        let err = messages(&brand, &p, &vars(&[("n", "four"), ("t", "x")])).unwrap_err();
        assert_eq!(err.status(), 422);
        let mut p2 = p.clone();
        p2.variables[0].example = Some("4".into());
        let err = messages(&brand, &p2, &vars(&[("n", "four"), ("t", "x")])).unwrap_err();
        assert!(
            matches!(&err, DemoError::Render { culprits, .. } if culprits == &["n"]),
            "{err:?}"
        );
        assert!(err
            .to_string()
            .contains("cannot be rendered with the value of n"));
    }
}
