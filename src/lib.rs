//! marque publishes brand books as machine-readable surfaces, straight from git.
//!
//! Reading order:
//! - [`bodies`]: one shared copy of each body (file or resource), by its hash: a handle, no HTTP types; bodies inflated lately; deflating with a kept compressor.
//! - [`paths`]: PURE. every path and what answers it: a path parsed into its route (its methods, the demo's statuses), every path printed.
//! - [`spec`]: PURE. brand.json and tokens.json → validated [`spec::Brand`]s, or diagnostics with file, line and column.
//! - [`color`]: PURE. colour-space conversion and WCAG contrast.
//! - [`prompt`]: PURE. prompt-kit templates (MiniJinja), checked strictly.
//! - [`render`]: PURE. one module per surface: spec.json, spec.md, tokens.css, tokens.figma.json, tokens.json and tokens.resolver.json, llms.txt, DESIGN.md and tailwind.css (which name tokens alike through `render::namespaces`), pages, embed.
//! - [`lint`]: PURE. `marque lint`: literals in code that equal a token, token names that do not exist, deprecated and unused tokens, in web and app languages.
//! - [`access`]: who may read what is not public: access tokens (their hashes, compared in constant time), signed browser sessions, failed attempts counted per client. No IO: the file's text and the time come in.
//! - [`snapshot`]: the immutable, rendered, precompressed set of resources one request sees.
//! - [`build`]: content → catalog of brands (last good render kept per brand, each brand a contained job, a brand rebuilt when what it extends changed) → snapshot. No IO: what is remembered between builds is handed in.
//! - [`source`]: IO. read a content folder into memory.
//! - [`live`]: IO. keep the snapshot current: the reloader (content → snapshot value), the publisher (the one writer of what is served), the directory loop (file events, [`live::watch`]) and the git loop (a mirror, fetched; branch previews).
//! - [`outbound`]: what a publish tells the world outside: the paths a CDN purges, the signed release events, a preview's commit status and pull request comment (pure), and [`outbound::outbox`], the IO that delivers them off the publish path (a bounded queue, retries, idempotency keys), each delivery written down by [`outbound::journal`] until it is done so a restart neither loses nor repeats one.
//! - [`report`]: what a person reads in the terminal: rustc-style frames and one line per rebuild.
//! - [`redact`]: PURE. what logs and `/status` may show of a URL that can carry a credential.
//! - [`fleet`]: IO. the Redis connection a fleet of replicas shares, a dead one replaced; the demo's shared limit (`demo::limit::redis`) and the webhook fan-out (`live::fanout`) use it.
//! - [`demo`]: the prompt demo endpoint: request checks, rate limit per client, LLM clients.
//! - [`http`]: the router, handlers, problem+json errors, the connection loop, and MCP (its sessions bounded, its replies JSON where nothing streams).
//! - [`config`]: the command line, and [`config::ServeConfig`], what `marque serve` runs with: flags checked once, secrets read from the environment.
//! - [`cmd`]: the commands, one room each: `serve` (state built from the config, two loops started), `check`, `build`, `diff`, `changelog` and `import` (a brand folder from a design system's tokens); [`clock`]: today's date and the time, read at the edge.
//!
//! Invariants: the pure core and the builder do no IO; nothing is rendered
//! on the request path, but for two documented exceptions (the compare
//! endpoint renders a comparison on first request and memoizes it, MCP
//! parses a brand on first use); a text body held only as its gzip coding
//! is inflated for a client that takes no coding (the bodies inflated
//! lately are kept, [`bodies::Bodies::inflated`]); one brand's errors never
//! affect another brand.

pub mod access;
pub mod bodies;
pub mod build;
pub mod clock;
pub mod cmd;
pub mod color;
pub mod config;
pub mod demo;
pub mod fleet;
pub mod http;
pub mod lint;
pub mod live;
pub mod outbound;
pub mod paths;
pub mod prompt;
pub mod redact;
pub mod render;
pub mod report;
pub mod snapshot;
pub mod source;
pub mod spec;
