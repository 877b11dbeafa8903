//! Which names and texts are secrets, for every store that prints fields it does not
//! know in advance.
//!
//! Why one place: several stores list a side file's or a document's fields as they
//! find them (Copilot's settings and SQLite tables, Nitrite documents, a CodeBuddy or
//! Claude Code session's meta file). Each once carried its own list of secret names,
//! and the lists drifted apart (one withheld `private_key`, another `auth`, a third
//! neither). A store now asks [`names_secret`] of every key it would print and
//! [`looks_like_token`] of every text whose key says nothing, and prints [`WITHHELD`]
//! (or leaves the member out) where they say yes. Stores whose secrets sit under keys
//! the specs name (`secret://` rows, Tabby's credential columns) keep their exact rules.

/// What a withheld value prints as: the key stays, so the responder knows a secret was
/// there.
pub const WITHHELD: &str = "[withheld]";

/// True when a table, column or key name names a secret (case-insensitive): it
/// contains `token`, `secret`, `passw`, `oauth`, `cookie`, `credential`, `apikey`,
/// `api_key`, `api-key`, `authoriz`, `private_key`, `privatekey` or `private-key`, or
/// one of its words (split at `_`, `-`, `.`, spaces and lower-to-upper case changes)
/// is `key`, `keys` or `pwd`, or begins with `env` (`environment`, `envVars`),
/// `header` or `auth` (not `author`).
pub fn names_secret(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if [
        "token",
        "secret",
        "passw",
        "oauth",
        "cookie",
        "credential",
        "apikey",
        "api_key",
        "api-key",
        "authoriz",
        "private_key",
        "privatekey",
        "private-key",
    ]
    .iter()
    .any(|s| lower.contains(s))
    {
        return true;
    }
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_lowercase() || ch.is_numeric();
        cur.extend(ch.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "key" | "keys" | "auth" | "env" | "headers" | "header" | "pwd"
        ) || w.starts_with("env")
            || w.starts_with("header")
            || (w.starts_with("auth") && !w.starts_with("author"))
    })
}

/// True for a text that starts like a GitHub or API token (`ghp_`, `gho_`, `ghu_`,
/// `ghs_`, `ghr_`, `github_pat_`, `sk-`, `xoxb-`, `xoxp-`, `glpat-`), after an optional
/// `Bearer ` or `token `.
pub fn looks_like_token(text: &str) -> bool {
    let t = text.trim();
    let t = t
        .strip_prefix("Bearer ")
        .or_else(|| t.strip_prefix("bearer "))
        .or_else(|| t.strip_prefix("token "))
        .unwrap_or(t);
    [
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "sk-",
        "xoxb-",
        "xoxp-",
        "glpat-",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for n in [
            "authToken",
            "github_oauth_token",
            "copilot.authToken",
            "proxy.password",
            "apiKey",
            "api-key",
            "privateKey",
            "private_key",
            "env",
            "terminal.integrated.env.linux",
            "envFile",
            "environment",
            "environmentVariables",
            "customHeaders",
            "headers",
            "Authorization",
            "auth",
            "authInfo",
            "sessionKey",
            "pwd",
            "oauth_credential",
        ] {
            assert!(names_secret(n), "{n}");
        }
        for n in [
            "author",
            "authorName",
            "permissionMode",
            "model",
            "keyboard",
            "monkey",
            "tags",
            "title",
        ] {
            assert!(!names_secret(n), "{n}");
        }
    }

    #[test]
    fn token_texts() {
        for t in [
            "ghp_abc",
            " gho_x",
            "Bearer ghu_1",
            "token github_pat_1",
            "sk-live-1",
            "glpat-x",
        ] {
            assert!(looks_like_token(t), "{t}");
        }
        for t in ["ghost", "skip", "Bearer of news", "github"] {
            assert!(!looks_like_token(t), "{t}");
        }
    }
}
