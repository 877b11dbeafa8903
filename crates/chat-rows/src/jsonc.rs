//! JSONC: the JSON with comments and trailing commas that VS Code's `settings.json` is.
//!
//! Decoded through jsonc-parser into a `serde_json::Value`, so the callers handle
//! settings exactly like any other JSON.

use serde_json::Value;

/// An error decoding JSONC, with the place it was found.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct JsoncError {
    message: String,
}

/// Decodes JSONC text. An empty document (or one that holds only comments) is `Value::Null`.
pub fn parse(text: &str) -> Result<Value, JsoncError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        ..Default::default()
    };
    match jsonc_parser::parse_to_serde_value::<Value>(text, &options) {
        Ok(v) => Ok(v),
        Err(e) => Err(JsoncError {
            message: e.to_string(),
        }),
    }
}

/// Decodes JSONC bytes; invalid UTF-8 is an error that says where.
pub fn parse_bytes(bytes: &[u8]) -> Result<Value, JsoncError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => Err(JsoncError {
            message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas() {
        let v = parse(
            "// user settings\n{\n  /* block */ \"chat.defaultModel\": \"gpt-5\", // trailing\n  \"a\": [1, 2,],\n}\n",
        )
        .unwrap();
        assert_eq!(v["chat.defaultModel"], "gpt-5");
        assert_eq!(v["a"], serde_json::json!([1, 2]));
    }

    #[test]
    fn errors_say_where() {
        let e = parse("{\n \"a\": }").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        assert!(
            parse_bytes(b"{\"a\": \"\xff\"}")
                .unwrap_err()
                .to_string()
                .contains("byte 7")
        );
        assert_eq!(parse("// nothing").unwrap(), Value::Null);
    }
}
