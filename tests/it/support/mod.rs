//! What the tests share, none of it a test: the server on a port of its
//! own with a raw HTTP/1.1 client, a local server that speaks the LLM
//! providers' wire formats, spec.json's tokens as the consumers' tests
//! read them, the consumers' tools run in batches, and the Python MCP
//! client.

pub mod helpers;
pub mod llm_mock;
pub mod spec_tokens;
pub mod tools;
