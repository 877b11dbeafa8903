//! `file-history-snapshot` records: the pre-edit backups an agent keeps per session.
//!
//! Before a turn edits a file, both products copy it to `file-history/<session>/` and
//! write a snapshot record naming each tracked file's backup, version and time. Each
//! tracked file becomes one row, so a responder can find the backup of any file an
//! agent changed.

use chat_rows::system::key_values;
use serde_json::{Map, Value};

use crate::log::scalar;

/// The rows of one snapshot (`snapshot` is the record's `snapshot` object):
/// `file history: file=<path> backup=<name> version=<v> backup_time=<t> message=<id>
/// update=<bool>` per tracked file, or `file history: no tracked files message=<id>
/// update=<bool>`; `update` is the record's `isSnapshotUpdate`, `false` when unset.
pub fn file_history_texts(snapshot: Option<&Map<String, Value>>, update: bool) -> Vec<String> {
    let message = snapshot
        .and_then(|s| s.get("messageId"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let update = if update { "true" } else { "false" };
    let files = snapshot
        .and_then(|s| s.get("trackedFileBackups"))
        .and_then(Value::as_object);
    match files {
        Some(files) if !files.is_empty() => files
            .iter()
            .map(|(path, backup)| {
                let get = |k: &str| backup.get(k).map(scalar).unwrap_or_default();
                let (name, version, time) =
                    (get("backupFileName"), get("version"), get("backupTime"));
                format!(
                    "file history: {}",
                    key_values(&[
                        ("file", path),
                        ("backup", &name),
                        ("version", &version),
                        ("backup_time", &time),
                        ("message", message),
                        ("update", update),
                    ])
                )
            })
            .collect(),
        _ => vec![
            format!(
                "file history: no tracked files {}",
                key_values(&[("message", message), ("update", update)])
            )
            .trim_end()
            .to_string(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        let snap: Value = serde_json::json!({"messageId":"m1","trackedFileBackups":{
            "a.rs":{"backupFileName":"h@v1","version":1,"backupTime":"2026-01-01T00:00:00Z"},
            "b.rs":{"backupFileName":null,"version":2}}});
        assert_eq!(
            file_history_texts(snap.as_object(), true),
            vec![
                "file history: file=a.rs backup=h@v1 version=1 backup_time=2026-01-01T00:00:00Z message=m1 update=true",
                "file history: file=b.rs version=2 message=m1 update=true",
            ]
        );
        assert_eq!(
            file_history_texts(snap.as_object(), false)[0],
            "file history: file=a.rs backup=h@v1 version=1 backup_time=2026-01-01T00:00:00Z message=m1 update=false"
        );
        assert_eq!(
            file_history_texts(None, false),
            vec!["file history: no tracked files update=false"]
        );
    }
}
