//! The sign-in form (DESIGN.md §20): a browser trades an access token for
//! a session cookie here once. The API page's look, a labelled field, an
//! error announced to screen readers and tied to the field, and a form
//! that posts only to this server.

use super::{foot, head, Page, CSP};
use crate::paths;
use crate::render::escape::html;
use crate::render::Context;
use std::fmt::Write;

/// What the form says above the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice<'a> {
    /// The form as a first visit finds it.
    None,
    /// The token sent is not valid (said as no more than that).
    Wrong,
    /// Too many wrong tokens from this client: try again in so many seconds.
    Wait(u64),
    /// Signed in as the token `name`.
    SignedIn(&'a str),
}

/// The page of the form; `next` is where a sign-in goes on to (a path of
/// this server, checked by the caller).
pub fn render(ctx: &Context, notice: Notice<'_>, next: &str) -> Page {
    let mut o = String::new();
    head(
        &mut o,
        ctx,
        "Sign in · marque",
        "Sign in with an access token to read private brands and unreleased versions.",
        None,
        &[],
        "",
    );
    o.push_str("<style>form.signin{max-width:32rem;display:grid;gap:12px;margin-top:24px}form.signin label{font-weight:600}form.signin input{font:inherit;padding:8px 10px;border:1px solid var(--muted);border-radius:6px;background:var(--panel);color:var(--fg)}form.signin input[aria-invalid=true]{border-color:#b3261e;border-width:2px}form.signin button{font-size:1rem;padding:8px 16px;justify-self:start}.notice{padding:12px 16px;border-radius:6px;border:1px solid var(--line);background:var(--panel)}.notice.error{border-color:#b3261e}</style>\n");
    o.push_str("<header><div class=\"inner\"><h1>Sign in</h1><p>An access token opens the private brands and unreleased versions it is for. Your browser keeps a session for 12 hours; the token itself is not stored.</p></div></header>\n<main>\n");
    let invalid = matches!(notice, Notice::Wrong | Notice::Wait(_));
    match notice {
        Notice::None => {}
        Notice::Wrong => o.push_str("<p id=\"signin-error\" class=\"notice error\" role=\"alert\">That token is not valid here. Check that you copied all of it.</p>\n"),
        Notice::Wait(secs) => {
            let _ = writeln!(o, "<p id=\"signin-error\" class=\"notice error\" role=\"alert\">Too many tokens that are not valid were sent from your address. Try again in {secs} seconds.</p>");
        }
        Notice::SignedIn(name) => {
            let _ = writeln!(
                o,
                "<p class=\"notice\" role=\"status\">Signed in with the token <code>{}</code>. <a href=\"{}\">All brands</a></p>",
                html(name),
                html(&ctx.url(paths::INDEX))
            );
        }
    }
    let described = match invalid {
        true => " aria-invalid=\"true\" aria-describedby=\"signin-hint signin-error\"",
        false => " aria-describedby=\"signin-hint\"",
    };
    let _ = write!(
        o,
        "<form class=\"signin\" method=\"post\" action=\"{}\">\n<label for=\"token\">Access token</label>\n<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\" required spellcheck=\"false\"{described}>\n<p id=\"signin-hint\">The token your marque operator gave you (it starts with <code>mq_</code>).</p>\n<input type=\"hidden\" name=\"next\" value=\"{}\">\n<button type=\"submit\">Sign in</button>\n</form>\n<form class=\"signin\" method=\"post\" action=\"{}\"><button type=\"submit\">Sign out</button></form>\n</main>\n",
        html(&ctx.url(paths::SIGN_IN)),
        html(next),
        html(&ctx.url(paths::SIGN_OUT)),
    );
    foot(&mut o, ctx);
    Page {
        body: o,
        // The one page with a form: it posts to this server only.
        csp: CSP.replace("form-action 'none'", "form-action 'self'"),
    }
}
