//! Budgets on content work. Content is untrusted: one push or one save must
//! not be able to make marque spend unbounded time or memory. Every limit
//! here is far above what a real brand needs, and going past one is a
//! diagnostic with file and line, never a crash or a stall.

/// Largest single file of a brand folder (brand.json, tokens.json, an asset).
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Largest brand folder, all files together.
pub const MAX_BRAND_BYTES: usize = 32 * 1024 * 1024;
/// Most files in a brand folder.
pub const MAX_ASSETS: usize = 2_000;
/// Deepest folder nesting under assets/.
pub const MAX_ASSET_DEPTH: usize = 16;
/// Most JSON values in brand.json or tokens.json (counted before parsing,
/// so a file of millions of tiny values is refused before it costs memory).
pub const MAX_JSON_VALUES: usize = 300_000;
/// Deepest nesting of objects and arrays in brand.json and tokens.json.
pub const MAX_JSON_DEPTH: usize = 64;
/// Longest object key, in characters.
pub const MAX_KEY_CHARS: usize = 256;
/// Most tokens in tokens.json, after `$extends` and `$ref` are resolved.
pub const MAX_TOKENS: usize = 10_000;
/// Most JSON values that `$extends` and `$ref` may add to tokens.json.
pub const MAX_EXPANDED_VALUES: usize = 200_000;
/// Longest alias chain (`{a}` → `{b}` → …), and deepest `$extends`/`$ref` nesting.
pub const MAX_ALIAS_DEPTH: usize = 64;
/// Most diagnostics reported per file; the rest are counted in one more.
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 200;

/// `5 MiB`, `32 MiB`, `512 KiB`.
pub fn describe_bytes(n: usize) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}
