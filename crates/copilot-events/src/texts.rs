//! The texts of this store's own system-row families, built in one place.
//!
//! The families every store shares (`parser:`, `model:`, `permission ...:`, `session
//! start:`, `session index:`, `usage:`) come from [`chat_rows::system`]; the ones only
//! Copilot's event logs define (`link:`, `tool exit code:`, `transcript replay:`,
//! `model family inferred:` ...) are here, so no mapping formats them by hand.

use std::fmt::Display;

use chat_rows::Timestamp;

use crate::decode::cut;

/// `session index: id=<id> cwd=<c> repository=<r> branch=<b> host=<h> agent=<a>
/// summary="<s>" created=<c> updated=<u>`, a `session-store.db` `sessions` record: the
/// `k=v` pairs of [`chat_rows::system::session_index`] (empty values left out, quoted
/// when they need it), the summary always quoted, as the spec writes it and as this
/// crate's other free texts (`intention=`, `command=`, `feedback=`, `error=`) are.
pub fn store_session_index(
    before: &[(&str, &str)],
    summary: &str,
    after: &[(&str, &str)],
) -> String {
    let mut out = chat_rows::system::session_index(before);
    let pair = |out: &mut String, text: &str| {
        if !out.ends_with(": ") {
            out.push(' ');
        }
        out.push_str(text);
    };
    if !summary.is_empty() {
        let quoted = serde_json::to_string(summary).unwrap_or_default();
        pair(&mut out, &format!("summary={quoted}"));
    }
    let rest = chat_rows::system::key_values(after);
    if !rest.is_empty() {
        pair(&mut out, &rest);
    }
    out
}

/// The most characters of an event's data quoted in a `session event:` row.
pub const MAX_DATA: usize = 400;

/// `session event: <type> <data as compact JSON, cut to 400>`, its secrets withheld
/// ([`chat_rows::secrets::withhold_raw`]).
pub fn session_event(kind: &str, data: &str) -> String {
    let mut out = String::new();
    session_event_into(&mut out, kind, data);
    out
}

/// [`session_event`]'s text written into `out` (cleared first), for a reader's reused
/// buffer.
pub fn session_event_into(out: &mut String, kind: &str, data: &str) {
    let cut_data = cut(data, MAX_DATA);
    out.clear();
    out.push_str("session event: ");
    out.push_str(kind);
    out.push(' ');
    // the data as written: its secrets withheld as in any raw quote (since 2026-12-05)
    out.push_str(&chat_rows::secrets::withhold_raw(cut_data));
    if cut_data.len() < data.len() {
        out.push_str("… [");
        chat_rows::system::push_u64(out, data.len() as u64);
        out.push_str(" bytes in all]");
    }
}

/// `unknown record type <type>: <line cut to 400>`, written into `out` (cleared first): the
/// line cut to [`MAX_DATA`] characters and the cut said as a `session event:` row says
/// it (`… [<n> bytes in all]`, the whole line's length). Only the line's first
/// `4 * MAX_DATA + 4` bytes are read (at most 4 bytes a character), so a huge line costs
/// what a short one does.
pub fn unknown_record_into(out: &mut String, kind: &str, line: &[u8]) {
    out.clear();
    out.push_str("unknown record type ");
    out.push_str(kind);
    out.push_str(": ");
    let head = &line[..line.len().min(MAX_DATA * 4 + 4)];
    let text: std::borrow::Cow<'_, str> = match std::str::from_utf8(head) {
        Ok(t) => t.into(),
        // a character cut by the head's end: after the first MAX_DATA characters
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&head[..e.valid_up_to()]),
        Err(_) => String::from_utf8_lossy(head),
    };
    let quoted = cut(&text, MAX_DATA);
    out.push_str(&chat_rows::secrets::withhold_raw(quoted));
    if quoted.len() < text.len() || head.len() < line.len() {
        out.push_str("… [");
        chat_rows::system::push_u64(out, line.len() as u64);
        out.push_str(" bytes in all]");
    }
}

/// `hidden message (source=<source>): <content>`, written into `out` (cleared first): a
/// `user.message` whose `source` is not the user's (the SDK: "origin of this message,
/// used for timeline filtering (e.g. `skill-pdf` for skill-injected messages that should
/// be hidden from the user)"), which the person did not type. The source is quoted when
/// it needs it, as a `k=v` value is.
pub fn hidden_message_into(out: &mut String, source: &str, content: &str) {
    out.clear();
    out.push_str("hidden message (");
    chat_rows::system::key_values_into(out, &[("source", source)]);
    out.push_str("): ");
    out.push_str(content);
}

/// `hidden autopilot continuation (isAutopilotContinuation): <content>`, written into `out`
/// (cleared first: a reader's reused buffer).
pub fn autopilot_continuation_into(out: &mut String, content: &str) {
    out.clear();
    out.push_str("hidden autopilot continuation (isAutopilotContinuation): ");
    out.push_str(content);
}

/// `[encrypted reasoning, <n> bytes]`, written into `out` (cleared first).
pub fn encrypted_reasoning_into(out: &mut String, bytes: usize) {
    out.clear();
    out.push_str("[encrypted reasoning, ");
    chat_rows::system::push_u64(out, bytes as u64);
    out.push_str(" bytes]");
}

/// `link: tool call <id> was requested but never started in this file`, written into `out`
/// (cleared first: a reader's reused buffer).
pub fn link_never_started_into(out: &mut String, id: &str) {
    link_into(
        out,
        "call ",
        id,
        " was requested but never started in this file",
    );
}

/// `link: tool call <id> has no result in this file`, written into `out`
/// (cleared first: a reader's reused buffer).
pub fn link_no_result_into(out: &mut String, id: &str) {
    link_into(out, "call ", id, " has no result in this file");
}

/// `link: tool result <id> has no tool call in this file`, written into `out`
/// (cleared first: a reader's reused buffer).
pub fn link_no_call_into(out: &mut String, id: &str) {
    link_into(out, "result ", id, " has no tool call in this file");
}

fn link_into(out: &mut String, what: &str, id: &str, rest: &str) {
    out.clear();
    out.push_str("link: tool ");
    out.push_str(what);
    out.push_str(id);
    out.push_str(rest);
}

/// `tool requested by user: <toolName>`.
pub fn tool_requested_by_user(name: &str) -> String {
    format!("tool requested by user: {name}")
}

/// `tool exit code: <n>`, written into `out` (cleared first).
pub fn tool_exit_code_into(out: &mut String, code: i64) {
    out.clear();
    out.push_str("tool exit code: ");
    if code < 0 {
        out.push('-');
    }
    chat_rows::system::push_u64(out, code.unsigned_abs());
}

/// `tool status: failed code=<code>` (`tool status: failed` without a code), written into `out`
/// (cleared first: a reader's reused buffer).
pub fn tool_failed_into(out: &mut String, code: &str) {
    out.clear();
    out.push_str("tool status: failed");
    if !code.is_empty() {
        out.push_str(" code=");
        out.push_str(code);
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

/// `session file: <path> (<n> bytes, file mtime): <text>` for a file the session kept
/// (`files/`, `research/`), its text trimmed; `[not UTF-8 text]` in place of a text
/// that is none.
pub fn session_file(path: &str, bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.trim(),
        Err(_) => "[not UTF-8 text]",
    };
    format!(
        "session file: {path} ({} bytes, file mtime): {text}",
        bytes.len()
    )
}

/// `session event detail: <type> <JSON>`: the `data` fields of an event that its rows
/// do not print (the SDK's fields beyond the spec's text: a permission request's
/// possible paths and the assisted approval's verdict, a completed permission's
/// standing approval, a model change's cause, a sub-agent's type; a prompt as the model
/// got it, the sub-agent call a reply or tool call belongs to, whether a call was
/// sandboxed, the folder a command ran in ...), as compact JSON whole (never cut: it is
/// the only place they are shown): the keys of `data`, and of an object a printed field
/// was taken from, sorted; every other value as written.
/// Written into `out` (cleared first).
pub fn event_detail_into(out: &mut String, kind: &str, rest: &str) {
    out.clear();
    out.push_str("session event detail: ");
    out.push_str(kind);
    out.push(' ');
    out.push_str(rest);
}

/// `session totals: premium_requests=<n> nano_aiu=<n> api_duration_ms=<n> started=<UTC>
/// current_tokens=<n> system_tokens=<n> conversation_tokens=<n>
/// tool_definitions_tokens=<n> events_file_bytes=<n> token_details=<kind>:<n>,...`, what
/// a `session.shutdown` says of the whole session beside its `session end:` and
/// per-model `usage:` rows (the SDK's `SessionShutdownEventData`: `totalPremiumRequests`,
/// `totalNanoAiu`, `totalApiDurationMs`, `sessionStartTime` in epoch ms, the context's
/// token counts at shutdown; `eventsFileSizeBytes` and the session-wide `tokenDetails`
/// of CLI 1.0.75, from a real capture). Values as written; a start that is no plausible
/// time in epoch ms is kept as written as `session_start_time=<v>`; `tokenDetails` of another shape than
/// `{<kind>: {"tokenCount": n}}` as compact JSON. Written into `out` (cleared first);
/// false, and nothing written, when the event holds none of them.
pub fn session_totals_into(out: &mut String, d: &crate::decode::ShutdownData<'_>) -> bool {
    use crate::decode::{Raw, raw_text};
    use std::borrow::Cow;
    // a number as written is its own text: borrowed (a value with a blank, or a
    // string, is compacted or decoded as before)
    fn text<'a>(r: &Option<Raw<'a>>) -> Cow<'a, str> {
        match *r {
            None => Cow::Borrowed(""),
            Some(Raw(v)) if !v.starts_with('"') && v.bytes().all(|b| b.is_ascii_graphic()) => {
                Cow::Borrowed(v)
            }
            Some(r) => Cow::Owned(raw_text(r)),
        }
    }
    // a start that is no plausible time (0, seconds, text) is kept under its own name
    let (started, start_raw) = match d.session_start_time {
        Some(r) => match r
            .0
            .parse::<f64>()
            .ok()
            .and_then(Timestamp::from_epoch_millis_f64)
        {
            Some(t) => (Cow::Owned(t.to_string()), Cow::Borrowed("")),
            None => (Cow::Borrowed(""), text(&Some(r))),
        },
        None => Default::default(),
    };
    let details = Cow::Owned(d.token_details.map(token_details).unwrap_or_default());
    let fields = [
        ("premium_requests", text(&d.total_premium_requests)),
        ("nano_aiu", text(&d.total_nano_aiu)),
        ("api_duration_ms", text(&d.total_api_duration_ms)),
        ("started", started),
        ("session_start_time", start_raw),
        ("current_tokens", text(&d.current_tokens)),
        ("system_tokens", text(&d.system_tokens)),
        ("conversation_tokens", text(&d.conversation_tokens)),
        ("tool_definitions_tokens", text(&d.tool_definitions_tokens)),
        ("events_file_bytes", text(&d.events_file_size_bytes)),
        ("token_details", details),
    ];
    out.clear();
    if fields.iter().all(|(_, v)| v.is_empty()) {
        return false;
    }
    out.push_str("session totals: ");
    chat_rows::system::key_values_into(out, &fields.each_ref().map(|(k, v)| (*k, v.as_ref())));
    true
}

/// `tokenDetails` `{"input": {"tokenCount": 2}, ...}` as `cache_read:0,...,input:2`
/// (keys sorted), or as compact JSON when it has another shape.
fn token_details(raw: crate::decode::Raw<'_>) -> String {
    use serde_json::Value;
    let parsed: Option<Vec<String>> = match serde_json::from_str::<Value>(raw.0) {
        Ok(Value::Object(kinds)) => kinds
            .iter()
            .map(|(kind, v)| match v {
                Value::Object(o) if o.len() == 1 => match o.get("tokenCount") {
                    Some(Value::Number(n)) => Some(format!("{kind}:{n}")),
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => None,
    };
    match parsed {
        Some(parts) if !parts.is_empty() => parts.join(","),
        _ => crate::decode::raw_text(raw),
    }
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
        // the texts written into a buffer, which they clear first
        let into = |write: &dyn Fn(&mut String)| {
            let mut out = "old text".to_string();
            write(&mut out);
            out
        };
        assert_eq!(into(&|o| tool_failed_into(o, "")), "tool status: failed");
        assert_eq!(
            into(&|o| tool_failed_into(o, "denied")),
            "tool status: failed code=denied"
        );
        let long = "x".repeat(500);
        assert_eq!(
            session_event("a", &long),
            format!("session event: a {}… [500 bytes in all]", &long[..400])
        );
        assert_eq!(session_event("a", "{}"), "session event: a {}");
        // an unknown record: the line cut like a session event's data, the cut said
        let line = format!("{{\"type\":\"x\",\"a\":\"{}\"}}", "é".repeat(5000));
        let want = format!(
            "unknown record type x: {}… [{} bytes in all]",
            line.chars().take(400).collect::<String>(),
            line.len()
        );
        assert_eq!(
            into(&|o| unknown_record_into(o, "x", line.as_bytes())),
            want
        );
        assert_eq!(
            into(&|o| unknown_record_into(o, "x", b"{\"type\":\"x\"}")),
            "unknown record type x: {\"type\":\"x\"}"
        );
        assert_eq!(
            into(&|o| session_event_into(o, "a", "{}")),
            "session event: a {}"
        );
        assert_eq!(
            into(&|o| link_never_started_into(o, "c1")),
            "link: tool call c1 was requested but never started in this file"
        );
        assert_eq!(
            into(&|o| link_no_result_into(o, "c1")),
            "link: tool call c1 has no result in this file"
        );
        assert_eq!(
            into(&|o| link_no_call_into(o, "c1")),
            "link: tool result c1 has no tool call in this file"
        );
        assert_eq!(
            into(&|o| autopilot_continuation_into(o, "go on")),
            "hidden autopilot continuation (isAutopilotContinuation): go on"
        );
        assert_eq!(
            into(&|o| encrypted_reasoning_into(o, 31)),
            "[encrypted reasoning, 31 bytes]"
        );
        assert_eq!(into(&|o| tool_exit_code_into(o, -2)), "tool exit code: -2");
        assert_eq!(into(&|o| tool_exit_code_into(o, 0)), "tool exit code: 0");
        assert_eq!(
            file_touched("src/a.rs", "edit", "2"),
            "file touched: src/a.rs tool=edit turn=2"
        );
    }
}
