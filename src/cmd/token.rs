//! `marque token`: a new access token and its line for the tokens file
//! (DESIGN.md §20). The token is printed once and kept nowhere: the file
//! holds only its SHA-256.

use crate::access::{line_for, new_token};
use crate::config::TokenArgs;
use anyhow::{Context as _, Result};
use std::io::Write;

/// Prints the file's line and the token; exit code 0.
pub fn run(args: &TokenArgs, out: &mut impl Write) -> Result<i32> {
    let mut random = [0u8; 32];
    getrandom::fill(&mut random)
        .map_err(|e| anyhow::anyhow!("the operating system gave no random bytes: {e}"))?;
    let token = new_token(random);
    let line = line_for(&args.name, &token, &args.brands).map_err(anyhow::Error::msg)?;
    let scope = match args.brands.is_empty() {
        true => "every private brand".to_string(),
        false => args.brands.join(", "),
    };
    writeln!(
        out,
        "# Add this line to the access tokens file (--access-tokens); it opens {scope}:\n{line}\n\
         # The token, shown only now: send it as `Authorization: Bearer <token>`, or sign in at /signin.\n{token}"
    )
    .context("cannot write the token")?;
    Ok(0)
}
