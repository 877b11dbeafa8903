//! The texts of this store's own system-row families, built in one place.
//!
//! The families every store shares (`parser:`, `model:`, `permission ...:`, `session
//! start:`, `session index:`, `usage:`) come from [`chat_rows::system`]; the ones only
//! Copilot's event logs define (`link:`, `tool exit code:`, `transcript replay:`,
//! `model family inferred:` ...) are here, so no mapping formats them by hand.

use std::fmt::Display;

use chat_rows::Timestamp;

use crate::decode::cut;

/// The most characters of an event's data quoted in a `session event:` row.
pub const MAX_DATA: usize = 400;

/// `session event: <type> <data as compact JSON, cut to 400>`.
pub fn session_event(kind: &str, data: &str) -> String {
    let cut_data = cut(data, MAX_DATA);
    if cut_data.len() < data.len() {
        format!(
            "session event: {kind} {cut_data}… [{} bytes in all]",
            data.len()
        )
    } else {
        format!("session event: {kind} {data}")
    }
}

/// `hidden autopilot continuation (isAutopilotContinuation): <content>`.
pub fn autopilot_continuation(content: &str) -> String {
    format!("hidden autopilot continuation (isAutopilotContinuation): {content}")
}

/// `[encrypted reasoning, <n> bytes]`.
pub fn encrypted_reasoning(bytes: usize) -> String {
    format!("[encrypted reasoning, {bytes} bytes]")
}

/// `link: tool call <id> was requested but never started in this file`.
pub fn link_never_started(id: &str) -> String {
    format!("link: tool call {id} was requested but never started in this file")
}

/// `link: tool call <id> has no result in this file`.
pub fn link_no_result(id: &str) -> String {
    format!("link: tool call {id} has no result in this file")
}

/// `link: tool result <id> has no tool call in this file`.
pub fn link_no_call(id: &str) -> String {
    format!("link: tool result {id} has no tool call in this file")
}

/// `tool requested by user: <toolName>`.
pub fn tool_requested_by_user(name: &str) -> String {
    format!("tool requested by user: {name}")
}

/// `tool exit code: <n>`.
pub fn tool_exit_code(code: i64) -> String {
    format!("tool exit code: {code}")
}

/// `tool status: failed code=<code>` (`tool status: failed` without a code).
pub fn tool_failed(code: &str) -> String {
    if code.is_empty() {
        "tool status: failed".to_string()
    } else {
        format!("tool status: failed code={code}")
    }
}

/// `transcript replay: <n> lines rewritten at <time> with their original times`.
pub fn transcript_replay(n: u64, at: Timestamp) -> String {
    format!("transcript replay: {n} lines rewritten at {at} with their original times")
}

/// `model family inferred: <family> (tool-call id prefix <prefix>; not recorded by the store)`.
pub fn model_family_inferred(family: &str, prefix: &str) -> String {
    format!(
        "model family inferred: {family} (tool-call id prefix {prefix}; not recorded by the store)"
    )
}

/// `session title: <title> (from workspace.yaml)`.
pub fn session_title(title: &str) -> String {
    format!("session title: {title} (from workspace.yaml)")
}

/// `checkpoint: <n> <title>`, then the sections, one per paragraph.
pub fn checkpoint(n: impl Display, title: &str, sections: &[(&str, String)]) -> String {
    let mut t = format!("checkpoint: {n} {title}");
    for (k, v) in sections {
        if !v.is_empty() {
            t.push_str(&format!("\n\n{k}: {v}"));
        }
    }
    t
}

/// `file touched: <path> tool=<t> turn=<n>`.
pub fn file_touched(path: &str, tool: &str, turn: &str) -> String {
    let mut t = format!("file touched: {path}");
    let kv = chat_rows::system::key_values(&[("tool", tool), ("turn", turn)]);
    if !kv.is_empty() {
        t.push(' ');
        t.push_str(&kv);
    }
    t
}

/// `session ref: <ref_type> <ref_value> turn=<n>`.
pub fn session_ref(kind: &str, value: &str, turn: &str) -> String {
    let mut t = format!("session ref: {kind} {value}");
    if !turn.is_empty() {
        t.push_str(&format!(" turn={turn}"));
    }
    t
}

/// `turn error: status=error message="<status_message>"`.
pub fn turn_error(message: &str) -> String {
    format!(
        "turn error: status=error message={}",
        serde_json::to_string(message).unwrap_or_default()
    )
}

/// `memory note: <path>: <content>`.
pub fn memory_note(path: &str, content: &str) -> String {
    format!("memory note: {path}: {content}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(
            model_family_inferred("Anthropic", "toolu_vrtx_"),
            "model family inferred: Anthropic (tool-call id prefix toolu_vrtx_; not recorded by the store)"
        );
        assert_eq!(tool_failed(""), "tool status: failed");
        let long = "x".repeat(500);
        assert!(session_event("a", &long).ends_with("… [500 bytes in all]"));
        assert_eq!(
            file_touched("src/a.rs", "edit", "2"),
            "file touched: src/a.rs tool=edit turn=2"
        );
    }
}
