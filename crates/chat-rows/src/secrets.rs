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
    // it runs on every key a store prints that it does not know in advance (a Copilot
    // detail row's kept keys, every column of an unknown table): nothing is allocated
    // the secret parts by their first letter
    let b = name.as_bytes();
    for i in 0..b.len() {
        let parts: &[&[u8]] = match b[i].to_ascii_lowercase() {
            b't' => &[b"token"],
            b's' => &[b"secret"],
            b'p' => &[b"passw", b"private_key", b"privatekey", b"private-key"],
            b'o' => &[b"oauth"],
            b'c' => &[b"cookie", b"credential"],
            b'a' => &[b"apikey", b"api_key", b"api-key", b"authoriz"],
            _ => continue,
        };
        if parts.iter().any(|p| {
            b.get(i..i + p.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(p))
        }) {
            return true;
        }
    }
    // the words: split at every character that is not alphanumeric and where a
    // lowercase letter or a digit is followed by an uppercase letter
    let mut start: Option<usize> = None;
    let mut prev_lower = false;
    for (i, ch) in name.char_indices() {
        if !ch.is_alphanumeric() {
            if let Some(s) = start.take()
                && secret_word(&name[s..i])
            {
                return true;
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase()
            && prev_lower
            && let Some(s) = start.take()
            && secret_word(&name[s..i])
        {
            return true;
        }
        start.get_or_insert(i);
        prev_lower = ch.is_lowercase() || ch.is_numeric();
    }
    start.is_some_and(|s| secret_word(&name[s..]))
}

/// One word of a name, compared lowercased (`char::to_lowercase`, so that a Kelvin
/// sign's `K` is a `k`, as it was when the words were lowercased copies).
fn secret_word(word: &str) -> bool {
    if word.is_ascii() {
        // (an ASCII letter's lowercase is its ASCII lowercase)
        let w = word.as_bytes();
        let starts = |p: &[u8]| w.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
        return [&b"key"[..], b"keys", b"pwd"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
            || starts(b"env")
            || starts(b"header")
            || (starts(b"auth") && !starts(b"author"));
    }
    let starts = |prefix: &str| {
        let mut lower = word.chars().flat_map(char::to_lowercase);
        prefix.chars().all(|c| lower.next() == Some(c))
    };
    let is = |whole: &str| {
        let mut lower = word.chars().flat_map(char::to_lowercase);
        whole.chars().all(|c| lower.next() == Some(c)) && lower.next().is_none()
    };
    is("key")
        || is("keys")
        || is("pwd")
        || starts("env")
        || starts("header")
        || (starts("auth") && !starts("author"))
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

    /// The rule as it was written before it stopped allocating, kept as the oracle.
    fn names_secret_copying(name: &str) -> bool {
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

    #[test]
    fn secret_names_agree_with_the_copying_rule() {
        const PIECES: [&str; 22] = [
            "key",
            "Key",
            "KEYS",
            "env",
            "Env",
            "header",
            "auth",
            "Author",
            "pwd",
            "tok",
            "en",
            "Token",
            "pass",
            "w",
            "_",
            "-",
            ".",
            " ",
            "7",
            "\u{212a}ey",
            "\u{130}",
            "\u{e9}",
        ];
        let mut checked = 0;
        let mut secret = 0;
        for a in PIECES {
            for b in PIECES {
                for c in PIECES {
                    let name = format!("{a}{b}{c}");
                    assert_eq!(names_secret(&name), names_secret_copying(&name), "{name:?}");
                    checked += 1;
                    secret += usize::from(names_secret(&name));
                }
            }
        }
        assert_eq!(checked, 22 * 22 * 22);
        assert_eq!(secret, 6180);
        assert!(names_secret("\u{212a}ey") && !names_secret("\u{212a}eyboard"));
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
