//! `marque token`: a new access token and its line for the tokens file
//! (DESIGN.md §20). The token is printed once and kept nowhere: the file
//! holds only its SHA-256.
//!
//! The plaintext goes to a terminal only. `marque token >> tokens.txt`
//! would otherwise leave it in the very file that should hold only its
//! hash, so when standard output is a pipe or a file the hash line is
//! written alone, and standard error says how to get the token
//! (`--plaintext-to-stdout`).

use crate::access::{line_for, new_token};
use crate::config::TokenArgs;
use anyhow::{Context as _, Result};
use std::io::Write;

/// Prints the file's line, and the token when `out` is a terminal or the
/// user asked for it; exit code 0. `to_terminal` says whether `out` is
/// one; `err` is where a withheld token is explained.
pub fn run(
    args: &TokenArgs,
    to_terminal: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<i32> {
    let mut random = [0u8; 32];
    getrandom::fill(&mut random)
        .map_err(|e| anyhow::anyhow!("the operating system gave no random bytes: {e}"))?;
    let token = new_token(random);
    let line = line_for(&args.name, &token, &args.brands).map_err(anyhow::Error::msg)?;
    let scope = match args.brands.is_empty() {
        true => "every private brand".to_string(),
        false => args.brands.join(", "),
    };
    if to_terminal || args.plaintext_to_stdout {
        writeln!(
            out,
            "# Add this line to the access tokens file (--access-tokens); it opens {scope}:\n{line}\n\
             # The token, shown only now: send it as `Authorization: Bearer <token>`, or sign in at /signin.\n{token}"
        )
        .context("cannot write the token")?;
    } else {
        writeln!(out, "{line}").context("cannot write the token's line")?;
        writeln!(
            err,
            "marque token: standard output is not a terminal, so only the line for the access \
             tokens file was written (it opens {scope}); the token itself was withheld and is now \
             lost. Run `marque token` in a terminal to see it, or add --plaintext-to-stdout to \
             write it to a pipe or file."
        )
        .context("cannot write the note")?;
    }
    Ok(0)
}
