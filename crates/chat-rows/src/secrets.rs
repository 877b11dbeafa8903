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
    TOKEN_PREFIXES.iter().any(|p| t.starts_with(p))
}

/// The starts of the tokens [`looks_like_token`] knows; [`withhold_raw`] looks for them
/// (and for `Bearer `) where a word starts inside a text.
const TOKEN_PREFIXES: [&str; 10] = [
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
];

/// A raw record or line as a row may quote it (an unknown record type, a line that
/// does not decode): the value of every key that names a secret ([`names_secret`]),
/// written `"key": value` or, inside a JSON text held in a string, `\"key\": value`,
/// and every token ([`looks_like_token`]'s prefixes, where a word starts) become
/// [`WITHHELD`]. It works on the text as written, so a torn line or a quote cut at
/// 400 characters is cleaned as well as a whole record, and in one pass (every byte is
/// looked at a bounded number of times). Borrowed when nothing is withheld.
///
/// Why not the tree: such a text is quoted because it could not be read as the store's
/// record, and may not be JSON at all. Over-withholding is the safe error here: a word
/// of a prompt that starts like a token (`sk-learn`) is withheld in a raw quote, never
/// in the prompt's own row.
pub fn withhold_raw(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let mut out: Option<String> = None;
    // bytes of `text` before `done` are in `out` already
    let mut done = 0usize;
    let mut i = 0usize;
    let replace =
        |out: &mut Option<String>, done: &mut usize, from: usize, to: usize, with: &str| {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[*done..from]);
            o.push_str(with);
            *done = to;
        };
    while i < b.len() {
        // a key: `"name"` or `\"name\"`, then `:`
        let escaped = b[i] == b'\\' && b.get(i + 1) == Some(&b'"');
        if b[i] == b'"' || escaped {
            let open = if escaped { 2 } else { 1 };
            if let Some((name_end, close_end)) = quoted_run(b, i + open, escaped) {
                let mut j = close_end;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                let name = &text[i + open..name_end];
                if b.get(j) == Some(&b':') && (names_secret(name) || looks_like_token(name)) {
                    if looks_like_token(name) {
                        replace(&mut out, &mut done, i + open, name_end, WITHHELD);
                    }
                    j += 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let end = value_end(b, j, escaped);
                    if end > j && !(counts_tokens(name) && is_number(&b[j..end])) {
                        let with = if escaped {
                            "\\\"[withheld]\\\""
                        } else {
                            "\"[withheld]\""
                        };
                        replace(&mut out, &mut done, j, end, with);
                    }
                    i = end.max(j).max(i + 1);
                    continue;
                }
            }
            i += open;
            continue;
        }
        // a token where a word starts
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts_word
            && let Some(p) = TOKEN_PREFIXES
                .iter()
                .chain(&["Bearer ", "bearer "])
                .find(|p| b[i..].starts_with(p.as_bytes()))
        {
            let mut j = i + p.len();
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b"_-.=+/".contains(&b[j])) {
                j += 1;
            }
            if j > i + p.len() {
                // a bearer token's word stays: `Bearer [withheld]`
                let from = if p.ends_with(' ') { i + p.len() } else { i };
                replace(&mut out, &mut done, from, j, WITHHELD);
            }
            i = j;
            continue;
        }
        i += 1;
    }
    match out {
        None => std::borrow::Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(&text[done..]);
            std::borrow::Cow::Owned(o)
        }
    }
}

/// True for a name that counts tokens rather than holding one (`inputTokens`,
/// `max_tokens`, `tokenCount`, `time_to_first_token_ms`): its number is kept in a raw
/// quote (its text would still be withheld).
fn counts_tokens(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "tokens",
        "tokencount",
        "token_count",
        "first_token",
        "token_ms",
        "tokenlimit",
        "token_limit",
    ]
    .iter()
    .any(|c| lower.contains(c))
}

/// True for a JSON number as written (`812`, `-1.5e3`).
fn is_number(v: &[u8]) -> bool {
    !v.is_empty()
        && (v[0].is_ascii_digit() || v[0] == b'-')
        && v.iter().all(|c| c.is_ascii_digit() || b"-+.eE".contains(c))
}

/// From just inside a quote, the end of the quoted name and the end of its closing
/// quote (`"`, or `\"` for an escaped one); `None` when it is not closed. A plain
/// string skips its escapes; an escaped one ends at the next `\"`.
fn quoted_run(b: &[u8], from: usize, escaped: bool) -> Option<(usize, usize)> {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' if escaped => {
                if b.get(j + 1) == Some(&b'"') {
                    return Some((j, j + 2));
                }
                // `\\` inside an escaped string
                j += 2;
            }
            b'\\' => j += 2,
            b'"' if !escaped => return Some((j, j + 1)),
            _ => j += 1,
        }
    }
    None
}

/// The end of the value that starts at `at`: a string (plain or escaped), an object or
/// array (to its matching close, strings inside skipped; the text's end when torn), or
/// a scalar (to the next `,`, `}`, `]`, backslash or space).
fn value_end(b: &[u8], at: usize, escaped: bool) -> usize {
    let Some(&first) = b.get(at) else {
        return at;
    };
    if first == b'"' && !escaped {
        return quoted_run(b, at + 1, false).map_or(b.len(), |(_, e)| e);
    }
    if first == b'\\' && b.get(at + 1) == Some(&b'"') {
        return quoted_run(b, at + 2, true).map_or(b.len(), |(_, e)| e);
    }
    if first == b'{' || first == b'[' {
        let mut depth = 0usize;
        let mut j = at;
        while j < b.len() {
            match b[j] {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return j + 1;
                    }
                }
                b'"' if !escaped => {
                    j = quoted_run(b, j + 1, false).map_or(b.len(), |(_, e)| e);
                    continue;
                }
                b'\\' => j += 1,
                _ => {}
            }
            j += 1;
        }
        return b.len();
    }
    let mut j = at;
    while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b'\\') && !b[j].is_ascii_whitespace()
    {
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_texts_are_withheld() {
        let cases = [
            // a secret key's value, of every form; the key stays
            (
                r#"{"type":"x","apiKey":"sk-1","env":{"A":"b","C":[1,"}"]},"n":1}"#,
                r#"{"type":"x","apiKey":"[withheld]","env":"[withheld]","n":1}"#,
            ),
            (
                r#"{"password": 12345, "ok":true}"#,
                r#"{"password": "[withheld]", "ok":true}"#,
            ),
            // a count of tokens is not a token; a text under such a name still is
            (
                r#"{"inputTokens":812,"max_tokens":4e3,"tokenCount":"abc","authToken":9}"#,
                r#"{"inputTokens":812,"max_tokens":4e3,"tokenCount":"[withheld]","authToken":"[withheld]"}"#,
            ),
            // a token under any key, and in free text where a word starts
            (
                r#"{"note":"use ghp_abc123 now","u":"xghp_no"}"#,
                r#"{"note":"use [withheld] now","u":"xghp_no"}"#,
            ),
            (
                "Authorization: Bearer abc.def",
                "Authorization: Bearer [withheld]",
            ),
            // JSON held in a string
            (
                r#"{"arguments":"{\"token\":\"abc\",\"path\":\"a\"}"}"#,
                r#"{"arguments":"{\"token\":\"[withheld]\",\"path\":\"a\"}"}"#,
            ),
            // torn: the value runs to the end
            (
                r#"{"headers":{"Authorization":"Bea"#,
                r#"{"headers":"[withheld]""#,
            ),
            (r#"{"secret":"abc"#, r#"{"secret":"[withheld]""#),
            // a key that is a token
            (r#"{"ghp_abcdef":1}"#, r#"{"[withheld]":"[withheld]"}"#),
            // nothing to withhold: borrowed as written
            (
                r#"{"author":"sk","task-list":"risk-free"}"#,
                r#"{"author":"sk","task-list":"risk-free"}"#,
            ),
            ("", ""),
            ("\\\"", "\\\""),
        ];
        for (text, want) in cases {
            assert_eq!(withhold_raw(text), want, "{text}");
        }
        assert!(matches!(
            withhold_raw("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn hostile_raw_texts_are_read_in_one_pass() {
        // quotes, escaped quotes and brackets that never close, 200,000 times over:
        // each byte is looked at a bounded number of times (a scan from every quote to
        // the end would not finish)
        let n = 200_000;
        let open_quotes = "\"a".repeat(n);
        assert_eq!(withhold_raw(&open_quotes), open_quotes);
        let escaped = "\\\"a".repeat(n);
        assert_eq!(withhold_raw(&escaped), escaped);
        // the first secret key's value runs to the end of the torn text
        assert_eq!(
            withhold_raw(&"{\"token\":[".repeat(n)),
            "{\"token\":\"[withheld]\""
        );
        let keys = "\"k\":".repeat(n);
        assert_eq!(withhold_raw(&keys), keys);
    }

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
