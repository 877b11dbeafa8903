//! The VS Code files beside the sessions: `workspace.json`, the chat editing state,
//! Copilot Chat's sync markers and the chat settings.
//!
//! They are small JSON (or JSONC) files read whole. Their rows are system rows timed by
//! the file's modification time, which is the only time they carry.

use chat_rows::jsonc::Node;
use chat_rows::system;
use chat_rows::{Row, Timestamp};
use serde_json::Value;

/// What the rows of a whole file share.
#[derive(Clone, Debug, Default)]
pub struct FileRows {
    /// The `agent` of every row.
    pub agent: String,
    /// The `source_file` of every row.
    pub source_file: String,
    /// The file's modification time.
    pub mtime: Option<Timestamp>,
}

impl FileRows {
    fn row(&self, text: impl Into<String>) -> Row {
        Row::system(self.agent.clone(), text)
            .file(self.source_file.clone())
            .at(self.mtime)
    }
}

/// What `workspace.json` says: the folder (a path) and the workspace file (a path).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workspace {
    /// `folder`, as a path: the project.
    pub folder: String,
    /// `workspace`, as a path: a `.code-workspace` file, never a project.
    pub workspace: String,
}

/// Decodes `workspace.json`; the error is the text of its `parser:` row.
pub fn workspace(bytes: &[u8]) -> Result<Workspace, String> {
    let v: Value = chat_rows::json::from_slice(strip_bom(bytes))
        .map_err(|e| system::parser(format!("workspace.json not read ({e})")))?;
    let Value::Object(o) = v else {
        return Err(system::not_json_object("workspace.json"));
    };
    let path = |k: &str| {
        o.get(k)
            .and_then(chat_rows::uri::value_to_path)
            .unwrap_or_default()
    };
    Ok(Workspace {
        folder: path("folder"),
        workspace: path("workspace"),
    })
}

/// The rows of `workspace.json` itself: none when it decodes, else its `parser:` row.
pub fn workspace_rows(bytes: &[u8], f: &FileRows) -> Vec<Row> {
    match workspace(bytes) {
        Ok(_) => Vec::new(),
        Err(text) => vec![f.row(text).at(None).locator("byte 0")],
    }
}

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `edit state:` rows of `chatEditingSessions/<key>/state.json` (versions 1 and 2),
/// secondary, with `key` as session id and `project` as project path.
pub fn editing_state_rows(bytes: &[u8], key: &str, project: &str, f: &FileRows) -> Vec<Row> {
    let base = |text: String| f.row(text).session(key).project(project).secondary(true);
    let v: Value = match chat_rows::json::from_slice(strip_bom(bytes)) {
        Ok(v) => v,
        Err(e) => return vec![base(system::file_not_json(e)).at(None).locator("byte 0")],
    };
    if !v.is_object() {
        return vec![
            base(system::not_json_object("state.json"))
                .at(None)
                .locator("byte 0"),
        ];
    }
    let from = system::from("chatEditingSessions state.json", "file mtime");
    let snapshot = &v["recentSnapshot"];
    // version 1 kept the request id on the snapshot
    let snapshot_request = snapshot["requestId"].as_str();
    let Some(entries) = snapshot["entries"].as_array() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let state = match e["state"].as_u64() {
            Some(0) => "Modified".to_string(),
            Some(1) => "Accepted".to_string(),
            Some(2) => "Rejected".to_string(),
            // the plan prints `-` for an absent value
            _ if e["state"].is_null() => "-".to_string(),
            _ => format!("state={}", plain(&e["state"])),
        };
        let path = e
            .get("resource")
            .and_then(chat_rows::uri::value_to_path)
            .unwrap_or_else(|| "-".to_string());
        let info = &e["telemetryInfo"];
        let request = info["requestId"].as_str().or(snapshot_request);
        let model = info["modelId"].as_str();
        let deleted = e["isDeleted"].as_bool().unwrap_or(false);
        let text = system::edit_state(&state, &path, request, model, deleted, &from);
        out.push(
            base(text)
                .model(model.unwrap_or(""))
                .locator(format!("recentSnapshot.entries[{i}]")),
        );
    }
    out
}

/// `session synced:` rows of Copilot Chat's `cloudSessions.json` in the default
/// profile (`User/globalStorage/github.copilot-chat/cloudSessions.json`).
pub fn cloud_sessions_rows(bytes: &[u8], f: &FileRows) -> Vec<Row> {
    cloud_sessions_rows_at(
        bytes,
        "User/globalStorage/github.copilot-chat/cloudSessions.json",
        f,
    )
}

/// `session synced:` rows of a `cloudSessions.json`; `user_path` is the file's path
/// from `User`, named in each row: `User/globalStorage/…` for the default profile,
/// `User/profiles/<id>/globalStorage/…` for another (an extension's global storage is
/// the profile's).
pub fn cloud_sessions_rows_at(bytes: &[u8], user_path: &str, f: &FileRows) -> Vec<Row> {
    let v: Value = match chat_rows::json::from_slice(strip_bom(bytes)) {
        Ok(v) => v,
        Err(e) => return vec![f.row(system::file_not_json(e)).at(None).locator("byte 0")],
    };
    let Value::Object(o) = v else {
        return vec![
            f.row(system::not_json_object("cloudSessions.json"))
                .at(None)
                .locator("byte 0"),
        ];
    };
    let from = system::from(user_path, "file mtime");
    o.iter()
        .map(|(key, e)| {
            let s = |k: &str| {
                e.get(k)
                    .map(plain)
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "-".into())
            };
            let detail = format!(
                "remote session {} task {}",
                s("cloudSessionId"),
                s("cloudTaskId")
            );
            f.row(system::session_synced(detail, &from))
                .session(key.clone())
                .locator(format!("key {key}"))
        })
        .collect()
}

/// True for the settings the plan reads as permission settings.
fn is_permission_setting(key: &str) -> bool {
    key == "chat.permissions.default"
        || (key.starts_with("chat.tools.") && key.to_ascii_lowercase().contains("autoapprov"))
}

/// `permission setting:` and `model setting:` rows of a `settings.json` (JSONC);
/// `user_path` is the file's path from `User` (`User/profiles/1a/settings.json`).
/// Only the chat keys the plan names are read, so no other setting (and no secret an
/// extension keeps in its settings) reaches a row.
///
/// The rows follow the file: keys and entries in the order written (each name once, at
/// its first place with its last value, as VS Code's parser reads it), each value as
/// written (compact, keys in order, escapes kept).
pub fn settings_rows(bytes: &[u8], user_path: &str, f: &FileRows) -> Vec<Row> {
    let tree = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(v) => v,
        Err(e) => {
            return vec![
                f.row(system::not_json_object_because(user_path, e))
                    .at(None)
                    .locator("byte 0"),
            ];
        }
    };
    let o = match tree {
        Some(o) if o.is_object() => o,
        // an empty file (or a bare null): no settings
        None
        | Some(Node::Scalar {
            value: Value::Null, ..
        }) => return Vec::new(),
        Some(other) => {
            let what = match other.to_value() {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            };
            return vec![
                f.row(system::not_json_object_because(
                    user_path,
                    format!("it is {what}"),
                ))
                .at(None)
                .locator("byte 0"),
            ];
        }
    };
    // a string as is, anything else as compact JSON as written
    let as_written = |v: &Node<'_>| {
        v.as_str()
            .map_or_else(|| v.compact(|_| false), str::to_string)
    };
    let from = system::from(user_path, "file mtime");
    let mut out = Vec::new();
    for (key, value) in o.members() {
        if is_permission_setting(key) {
            let entries = value.members();
            if entries.is_empty() {
                out.push(
                    f.row(system::permission_setting(key, as_written(value), &from))
                        .locator(format!("key {key}")),
                );
            }
            for (entry, v) in entries {
                out.push(
                    f.row(system::permission_setting(
                        format!("{key}.{entry}"),
                        as_written(v),
                        &from,
                    ))
                    .locator(format!("key {key}")),
                );
            }
        } else if key == "chat.defaultModel" {
            out.push(
                f.row(system::model_setting(
                    format!("{key}={}", as_written(value)),
                    &from,
                ))
                .model(value.as_str().unwrap_or(""))
                .locator(format!("key {key}")),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, locator, session, time set) of each row.
    fn damage(rows: Vec<Row>) -> Vec<(String, String, String, bool)> {
        rows.into_iter()
            .map(|r| {
                (
                    r.text,
                    r.source_locator,
                    r.session_id,
                    r.timestamp.is_some(),
                )
            })
            .collect()
    }

    fn timed() -> FileRows {
        FileRows {
            agent: "vscode".into(),
            source_file: "f".into(),
            mtime: chat_rows::Timestamp::from_epoch_millis(1_759_400_000_000),
        }
    }

    fn one(text: &str, session: &str) -> Vec<(String, String, String, bool)> {
        vec![(text.into(), "byte 0".into(), session.into(), false)]
    }

    #[test]
    fn a_workspace_json_that_is_not_an_object() {
        for bytes in [&b"[1]"[..], b"\"/home/u/proj\"", b"null", b"\xEF\xBB\xBF7"] {
            assert_eq!(
                damage(workspace_rows(bytes, &timed())),
                one("parser: workspace.json is not a JSON object", ""),
                "{bytes:?}"
            );
        }
        assert_eq!(
            workspace(b"[1]"),
            Err("parser: workspace.json is not a JSON object".to_string())
        );
    }

    #[test]
    fn an_editing_state_that_is_not_an_object() {
        for bytes in [&b"[1,2]"[..], b"\"x\"", b"null", b"3"] {
            assert_eq!(
                damage(editing_state_rows(bytes, "k2", "/p", &timed())),
                one("parser: state.json is not a JSON object", "k2"),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn a_settings_file_that_is_not_an_object() {
        let rows = |bytes: &[u8]| {
            damage(settings_rows(
                bytes,
                "User/profiles/p1/settings.json",
                &timed(),
            ))
        };
        for (bytes, what) in [
            (&b"[1]"[..], "an array"),
            (b"// c\n\"x\"", "a string"),
            (b"7", "a number"),
            (b"true", "a boolean"),
        ] {
            assert_eq!(
                rows(bytes),
                one(
                    &format!(
                        "parser: User/profiles/p1/settings.json is not a JSON object (it is {what})"
                    ),
                    ""
                )
            );
        }
        assert_eq!(
            rows(b"{\"a\": "),
            one(
                "parser: User/profiles/p1/settings.json is not a JSON object (Expected value after colon in object property on line 1 column 7)",
                ""
            )
        );
        // an empty file (or only comments) is no settings, not damage
        assert!(rows(b"").is_empty());
        assert!(rows(b"// nothing\n").is_empty());
    }

    #[test]
    fn edit_state_prints_a_dash_for_an_absent_state_and_names_an_unknown_one() {
        let f = FileRows {
            agent: "vscode".into(),
            source_file: "state.json".into(),
            mtime: None,
        };
        let json = br#"{"recentSnapshot": {"entries": [
            {"resource": "file:///p/a.py", "telemetryInfo": {"requestId": "r1"}},
            {"resource": "file:///p/b.py", "state": null},
            {"resource": "file:///p/c.py", "state": 7}]}}"#;
        let texts: Vec<String> = editing_state_rows(json, "k", "/p", &f)
            .into_iter()
            .map(|r| r.text)
            .collect();
        assert_eq!(
            texts,
            [
                "edit state: - /p/a.py request=r1 model=- (from chatEditingSessions state.json, file mtime)",
                "edit state: - /p/b.py request=- model=- (from chatEditingSessions state.json, file mtime)",
                "edit state: state=7 /p/c.py request=- model=- (from chatEditingSessions state.json, file mtime)",
            ]
        );
    }
}
