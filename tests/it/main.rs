//! marque's integration tests: one binary, so the library links once.
//! Each module starts the real server (or the real command) and checks
//! what a user, a browser or a client would see.

// Tests unwrap (a panic is how a test fails) and print what they measure.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

/// Shared helpers: `spawn_app`, the raw client, the LLM wire-format server.
mod support;
use support::{helpers, llm_mock, spec_tokens, tools};

/// Private brands, protected previews and embargoed releases: a crawl finds nothing withheld.
mod access;
/// `marque import --against`: the team's built CSS compared with tokens.css, per context.
mod against;
/// Apps: Android resources, an iOS asset catalogue, tokens.js and its npm package.
mod apps;
/// The pure core imports only downward and does no IO (an allowlist that tests itself).
mod architecture;
/// What every page shares, served once under hashed names; the pages' CSP; the static site.
mod assets;
/// The authoring loop in a git work tree: quiet when idle, every mistake shown.
mod authoring;
/// The page, the embed script and the Try-it form in headless Chromium.
mod browser;
/// A resolver's budgets, work that stops, no brand waiting on another (repro 2026-11-24).
mod budgets;
/// `marque check`, `build`, `diff`, `changelog` and their exit codes.
mod cli;
/// DESIGN.md through Google's linter, tailwind.css through Tailwind's compiler and Chromium.
mod consumers;
/// Schemathesis against `/openapi.json`, and the document validated.
mod contract;
/// The seven design systems of npm dtcg-examples through `marque check` and the server.
mod corpus;
/// CSS-only lengths, line heights and font lists as the team's own build makes them.
mod css_values;
/// The prompt demo against a local OpenAI- and Anthropic-speaking server.
mod demo;
/// The life of a token: deprecated on every surface, a shim in tokens.css, removal announced first.
mod deprecation;
/// Diagnostic codes: the manual's index, check's JSON and SARIF (valid against the official schema).
mod diagnostics;
/// The README and docs/: links resolve, configuration is the CLI's, console blocks run, the unit verifies.
mod docs;
/// Brand families: extends, ranges, what a parent's change rebuilds.
mod family;
/// Primer's translucent aliases, references inside strings and Fluent's font stack on every surface.
mod fidelity;
/// figma.zip, Figma's native variables import, read back; a native export's aliases kept; plan limits.
mod figma_bundle;
/// A fleet of replicas sharing one demo limit and webhooks through Redis.
mod fleet;
/// Style Dictionary sources and the other formats teams keep, named by brand.json.
mod formats;
/// Git mode: clone, fetch, webhooks, tags as releases.
mod git;
/// Hostile content renders inert on every surface.
mod hostile;
/// Regressions: every shape in the repro folders that once took marque down.
mod hostile_input;
/// HTTP rules every GET surface follows: codings, ETags, 304, HEAD, 405, CORS.
mod http_rules;
/// `marque import` reads only inside its input's folder and writes only inside --out.
mod import;
/// Modes a repository keeps without declaring them: parallel light/dark sets, never layers.
mod inferred_modes;
/// `marque lint`: a fixture per language, SARIF, the baseline, `--fix` in Chromium, `check_code` over MCP.
mod lint;
/// The consumer matrix: every design system with fixtures × each output for apps, judged by its consumer's tool.
mod matrix;
/// MCP over Streamable HTTP with the official Python client; session bounds.
mod mcp;
/// MCP's replies in a session are JSON: a document over 1 MiB reads whole.
mod mcp_sizes;
/// brand.json `naming.prefix`: every published custom property carries the team's prefix.
mod naming;
/// What a publish sends: CDN purges and signed release events, through failing and hanging receivers.
mod outbound;
/// The reading plan: `import --plan`, `check --explain`, a plan named by brand.json and corrected by hand.
mod plan;
/// Branch previews under `/preview/<name>/`.
mod preview;
/// A real repository with modes (NVE's) against its own built CSS: --against and Chromium.
mod real_modes;
/// Reading plans of real repositories (a brand × mode Tokens Studio folder, a Figma plugin export, a Style Dictionary config): plan, counts, the team's build.
mod real_plans;
/// Outputs checked by the tools that consume them (llms.txt parser, Chromium's CSS engine, …).
mod reference;
/// Hot reload over real files: every save served, a broken brand keeps its last good version.
mod reload;
/// Brands whose tokens are a DTCG resolver document: sets, modifiers, contexts.
mod resolver;
/// Work proportional to the change: a save renders one brand, a restart none.
mod scale;
/// `marque import <config.json>`: a Style Dictionary config read statically: include, source, buildPath, prefix.
mod sd_config;
/// Style Dictionary with sd-transforms on the Tokens Studio corpus, computed beside tokens.css.
mod sd_transforms;
/// Version steps checked against the semantic diff, per release.
mod semver;
/// SIGTERM under load: requests in flight answered, new connections refused, exit 0 in time.
mod shutdown;
/// brand.json's `diagnostics`: warnings silenced by code, counted, errors never.
mod silencing;
/// Style Dictionary 5.5.5 on its legacy sources, computed beside tokens.css.
mod style_dictionary;
/// Golden files of every surface of the example brands, and rules for any brand.
mod surfaces;
/// JSONC, JSON5, YAML and a byte-order mark, read wherever JSON is, positions kept.
mod syntaxes;
/// Terrazzo's CSS plugin on the strict exports, computed beside tokens.css.
mod terrazzo;
/// Tokens Studio theme groups and Material Theme Builder schemes as the system defines them, on real repositories.
mod theme_groups;
/// Tokens as real exports write them: each tolerated deviation, its warning and reading.
mod tolerant;
/// Validation diagnostics with file, line and column.
mod validation;
/// Who sees what, in the shapes the 2026-11-27 black-box run found: previews, changelogs, unreadable files, sessions, readiness.
mod who_sees;
