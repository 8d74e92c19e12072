//! PURE: parse and validate brand.json and tokens.json into typed values.
//! No file system, no clock, no network: files arrive as bytes and today's
//! date arrives as a value, so every rule is testable in isolation. Every
//! step runs within the budgets of [`limits`], whatever the content holds.

pub mod brand;
pub mod diag;
pub mod diff;
pub mod files;
pub mod formats;
pub mod json;
pub mod lazy;
pub mod limits;
pub mod lineage;
pub mod model;
pub mod moment;
pub mod release;
pub mod schema;
pub mod syntax;
pub mod tokens;
pub mod visibility;

pub use brand::{parse_brand, Brand};
pub use diag::{Diagnostic, Severity};
pub use files::{BrandFiles, Dependent, Lineage, Parent};
pub use lazy::LazyBrand;
pub use moment::Moment;
