//! Keeping secrets out of rows that print a side file's fields.
//!
//! A meta side file is listed key by key (its keys are not known from the source), so
//! whatever a build or a user puts there would reach a row: an API key, a token, an
//! MCP server's `env` or `headers`. A key that names a secret keeps its name, so the
//! responder knows it was there, and its value is [`WITHHELD`], at any depth; a text
//! that starts like a token is withheld whatever its key.

use serde_json::{Map, Value};

pub use chat_rows::secrets::{WITHHELD, looks_like_token, names_secret};

/// A key as a row may print it: [`WITHHELD`] when the key itself looks like a token.
pub fn shown_key(key: &str) -> &str {
    if looks_like_token(key) { WITHHELD } else { key }
}

/// True when the value under `key` must not be printed.
pub fn withholds(key: &str) -> bool {
    names_secret(key) || looks_like_token(key)
}

/// `value` with every secret taken out, at any depth: the value of a key that names a
/// secret (an object under `env` or `headers` included) and every text that starts like
/// a token become [`WITHHELD`]; a text holding a JSON object or array is read and
/// withheld the same way (printed re-written only when something was withheld).
/// Linear in the value; serde_json bounds its depth.
pub fn withhold(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(withhold_map(map)),
        Value::Array(items) => Value::Array(items.iter().map(withhold).collect()),
        Value::String(s) if looks_like_token(s) => Value::String(WITHHELD.into()),
        Value::String(s) => {
            let t = s.trim_start();
            if t.starts_with('{') || t.starts_with('[') {
                if let Ok(inner) = serde_json::from_str::<Value>(s) {
                    let cleaned = withhold(&inner);
                    if cleaned != inner {
                        return Value::String(cleaned.to_string());
                    }
                }
            }
            value.clone()
        }
        other => other.clone(),
    }
}

fn withhold_map(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .map(|(k, v)| {
            let value = if withholds(k) {
                Value::String(WITHHELD.into())
            } else {
                withhold(v)
            };
            (shown_key(k).to_string(), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_names() {
        for k in [
            "apiKey",
            "API_KEY",
            "x-api-key",
            "authToken",
            "refresh_token",
            "Authorization",
            "oauthState",
            "clientSecret",
            "password",
            "passwd",
            "credentials",
            "Cookie",
            "private_key",
            "sshPrivateKey",
            "env",
            "ENV",
            "headers",
            // the shared rule (chat_rows::secrets) also takes these words
            "header",
            "key",
            "environment",
        ] {
            assert!(names_secret(k), "{k}");
        }
        for k in ["permissionMode", "tags", "model", "author"] {
            assert!(!names_secret(k), "{k}");
        }
    }

    #[test]
    fn withholds_at_any_depth() {
        let v = json!({
            "mcp": {"env": {"X": "planted-1"}, "headers": ["planted-2"], "name": "srv"},
            "list": [{"token": "planted-3"}, "sk-planted-4", 7],
            "ghp_planted5": "v",
            "note": "{\"apiKey\":\"planted-6\",\"ok\":1}",
            "plain": "{\"ok\":1}",
        });
        assert_eq!(
            withhold(&v),
            json!({
                "mcp": {"env": "[withheld]", "headers": "[withheld]", "name": "srv"},
                "list": [{"token": "[withheld]"}, "[withheld]", 7],
                "[withheld]": "[withheld]",
                "note": "{\"apiKey\":\"[withheld]\",\"ok\":1}",
                "plain": "{\"ok\":1}",
            })
        );
    }
}
