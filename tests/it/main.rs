//! marque's integration tests: one binary, so the library links once.

mod cli;
mod helpers;
mod hostile;
mod http_rules;
mod reload;
mod surfaces;
mod validation;
