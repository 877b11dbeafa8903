//! The server's `config.toml`: which models it was configured to use.
//!
//! `[model.completion]`, `[model.chat]` and `[model.embedding]` each hold one
//! `http` table (a remote API: `kind`, `model_name`, `api_endpoint`, `api_key`,
//! `supported_models`) or one `local` table (`model_id`). The decoder copies out the
//! fields the row names and nothing else: `api_key` is never read into any value it
//! returns, and a parse error reports the TOML message and byte offset but never the
//! file's text, since the offending line may be the key itself.

use crate::Error;

/// One configured model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfiguredModel {
    /// `completion`, `chat` or `embedding` (or any other group the file names).
    pub group: String,
    /// `http` or `local`.
    pub backend: String,
    /// `model_name` (http) or `model_id` (local).
    pub name: Option<String>,
    /// `kind` (http), e.g. `openai/chat`.
    pub kind: Option<String>,
    /// `api_endpoint` (http).
    pub endpoint: Option<String>,
    /// `supported_models` (http).
    pub supported_models: Vec<String>,
}

/// Decodes the `[model.*]` tables of a `config.toml`.
pub fn models_from_toml(bytes: &[u8]) -> Result<Vec<ConfiguredModel>, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error::Toml {
        offset: e.valid_up_to(),
        reason: "invalid UTF-8".into(),
    })?;
    let table: toml::Table = toml::from_str(text).map_err(|e| Error::Toml {
        offset: e.span().map(|s| s.start).unwrap_or(0),
        reason: e.message().trim().to_string(),
    })?;
    let mut out = Vec::new();
    let Some(models) = table.get("model").and_then(toml::Value::as_table) else {
        return Ok(out);
    };
    for (group, backends) in models {
        let Some(backends) = backends.as_table() else {
            continue;
        };
        for (backend, cfg) in backends {
            let Some(cfg) = cfg.as_table() else { continue };
            let s = |k: &str| cfg.get(k).and_then(toml::Value::as_str).map(str::to_string);
            let name = if backend == "local" {
                s("model_id")
            } else {
                s("model_name").or_else(|| s("model_id"))
            };
            let supported_models = cfg
                .get("supported_models")
                .and_then(toml::Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            out.push(ConfiguredModel {
                group: group.clone(),
                backend: backend.clone(),
                name,
                kind: s("kind"),
                endpoint: s("api_endpoint"),
                supported_models,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_config() {
        let t = b"[model.chat.http]\nkind = \"openai/chat\"\nmodel_name = \"gpt-4o\"\napi_endpoint = \"https://api.openai.com/v1\"\napi_key = \"sk-REDACT\"\nsupported_models = [\"gpt-4o\", \"gpt-4o-mini\"]\n\n[model.completion.local]\nmodel_id = \"StarCoder-1B\"\n";
        let m = models_from_toml(t).unwrap();
        assert_eq!(
            m,
            vec![
                ConfiguredModel {
                    group: "chat".into(),
                    backend: "http".into(),
                    name: Some("gpt-4o".into()),
                    kind: Some("openai/chat".into()),
                    endpoint: Some("https://api.openai.com/v1".into()),
                    supported_models: vec!["gpt-4o".into(), "gpt-4o-mini".into()],
                },
                ConfiguredModel {
                    group: "completion".into(),
                    backend: "local".into(),
                    name: Some("StarCoder-1B".into()),
                    ..Default::default()
                }
            ]
        );
        assert!(!format!("{m:?}").contains("sk-REDACT"));
    }

    #[test]
    fn bad_toml_does_not_quote_the_file() {
        let err = models_from_toml(b"[model.chat.http]\napi_key = \"sk-SECRET\nmodel_name = 1\n")
            .unwrap_err();
        let msg = err.to_string();
        assert!(!msg.contains("sk-SECRET"), "{msg}");
        assert!(matches!(err, Error::Toml { offset: 38, .. }), "{err:?}");
        assert_eq!(models_from_toml(b"").unwrap(), vec![]);
        assert!(matches!(
            models_from_toml(b"a = \"\xff\"").unwrap_err(),
            Error::Toml { offset: 5, .. }
        ));
    }
}
