//! marque's integration tests: one binary, so the library links once.

mod authoring;
mod browser;
mod cli;
mod demo;
mod git;
mod helpers;
mod hostile;
mod hostile_input;
mod http_rules;
mod llm_mock;
mod reference;
mod reload;
mod surfaces;
mod validation;
