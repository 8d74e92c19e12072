//! marque's integration tests: one binary, so the library links once.

// Tests unwrap (a panic is how a test fails) and print what they measure.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

mod architecture;
mod authoring;
mod browser;
mod cli;
mod contract;
mod demo;
mod fleet;
mod git;
mod helpers;
mod hostile;
mod hostile_input;
mod http_rules;
mod llm_mock;
mod mcp;
mod preview;
mod reference;
mod reload;
mod scale;
mod semver;
mod surfaces;
mod validation;
