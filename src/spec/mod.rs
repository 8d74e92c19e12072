//! PURE: parse and validate brand.json and tokens.json into typed values.
//! No file system, no clock, no network: files arrive as bytes and today's
//! date arrives as a value, so every rule is testable in isolation.

pub mod brand;
pub mod diag;
pub mod json;
pub mod model;
pub mod schema;
pub mod tokens;

pub use brand::{parse_brand, Brand, BrandFiles};
pub use diag::{Diagnostic, Severity};
