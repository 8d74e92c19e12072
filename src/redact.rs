//! What logs, `/status` and error messages may show of a URL that can
//! carry a credential (a git remote, a Redis URL): its host and path, never
//! its `user:password@`.

/// Removes `user:password@` from a URL, for logs and /status.
pub fn redact_url(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            if path.is_empty() && !rest.contains('/') {
                format!("{scheme}://{host}")
            } else {
                format!("{scheme}://{host}/{path}")
            }
        }
        // scp-like `git@host:org/repo.git`: the user is not a secret, keep it.
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_removed_from_urls() {
        assert_eq!(
            redact_url("https://x-access-token:ghp_secret@github.com/acme/brands.git"),
            "https://github.com/acme/brands.git"
        );
        assert_eq!(
            redact_url("https://github.com/acme/brands.git"),
            "https://github.com/acme/brands.git"
        );
        assert_eq!(redact_url("file:///srv/brands"), "file:///srv/brands");
        assert_eq!(
            redact_url("git@github.com:acme/brands.git"),
            "git@github.com:acme/brands.git"
        );
    }
}
