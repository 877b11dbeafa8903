//! Issue 15 rewrote the event reader for speed (one pass per line into the type's own
//! small `data` struct, rows lent with reused buffers). `tests/legacy/` holds the reader
//! as it was before (commit 16eda55: one superset `Data` struct per line, owned rows);
//! this test runs both on every event-log fixture, on the dirty-input harness's damaged
//! copies of each, and on hand-written edge lines, and requires the same rows.
//!
//! The one intended difference: a field the event's type does not read is no longer
//! decoded, so a wrong type there is not an error any more (before, a `parser:` row);
//! [`damaged_copies`] tells those lines apart and checks that the new reader maps them
//! like the same line without the offending field.
//!
//! A second one (2026-12-02): the `session event:` row of a line of another shape than
//! its type's prints its `data` as written, keys in the file's order, as the row of a
//! well-formed line always did (the old reader decoded it and printed it key-sorted);
//! [`same`] compares such texts as JSON values, so only the key order may differ.
//!
//! The second audit's fixes (2026-12-02) are made to the legacy rows by [`intended`],
//! each from what those rows (or the line a row's locator names) say, before any
//! comparison; [`intended_differences`] checks that each changes the rows it names:
//!
//! 1. a model named only by `session.shutdown` (`currentModel`, a `modelMetrics` key) or
//!    by `subagent.started` counts as a model field: no `model family inferred:` rows.
//! 2. `unknown record type <type>: <line>` cuts the line to 400 characters and says the
//!    cut as `session event:` does (`… [<n> bytes in all]`, the whole line's length);
//!    the old row quoted about 408 characters, a longer line's marker broken.
//! 3. a call requested (`toolRequests`) and completed but never started gets its `link:
//!    tool call <id> was requested but never started in this file` row, as one never
//!    completed did: right after the request's `tool_use` row, with its time and place.
//! 4. `permission decision: requested kind=<kind>` leaves an empty kind out and quotes
//!    one that needs it, as every other `k=v` pair (the old row printed `kind=` as is).
//! 5. `subagent <started|completed|failed>: agent=<name>` likewise (the old row printed
//!    `agent=my agent`, and `agent=` for none).
//! 6. `session.model_change` gives its `model:` row only when the model tracker sees a
//!    change (or its first value): none for a change to the model already in force, and
//!    `model: <new>` rather than `model: <m> -> <m>` when the old model named is the new.
//! 7. `link: tool call <id> has no result in this file` is at its start's time, line,
//!    `byte <offset>`, project, branch and record state (the call's `tool_use` row),
//!    where the old row had no time and `end of file`.
//!
//! The third audit's (2026-12-02), likewise (and one of 2026-12-05, numbered 9):
//!
//! 8. a `session.binary_asset` line that is not JSON is quoted by its `parser:` row
//!    with its `data.data` string replaced by `[binary asset data left out, <n>
//!    characters]` (as far as the line goes when it is cut inside it); a cut of the
//!    quote still says the whole line's length.
//!
//! 9. every `subagent <started|completed|failed>:` row carries the call that ran the
//!    sub-agent (`toolCallId`) as its `tool_use_id` (before, none did).
//! 10. an `assistant.reasoning` line's `thinking` row has its turn's model, as a
//!     reply's reasoning text's row always had (before, none).
//! 11. (2026-12-05) the turn's model is the model of its `turn aborted:` and `session
//!     error:` rows, from its `turn_start` to its `turn_end` (before, none); and a
//!     turn ends at its `turn_end`: a reply after it and before the next `turn_start`
//!     has its own model, else the one auto mode chose, else none (before, the ended
//!     turn's). Each agent has its own turn (a line's envelope `agentId`): a
//!     sub-agent's `turn_start` between its parent's lines does not change the
//!     parent's turn (before, one turn for all).
//! 12. (2026-12-05) a `session.context_cleared` line that names its count both ways
//!     (`messageCount` and `messagesCleared`) gives `session cleared: messages=<the
//!     messageCount>` (before, the `session event:` and `parser:` rows of a line of
//!     another shape, for the duplicate field). A truncation's and a usage line's
//!     counts named two ways are read too (`audit.rs`,
//!     `a_count_named_in_two_ways_is_read`).
//! 13. (2026-12-05) a call's `tool_use` row has its start line's own `model` (the old
//!     reader read none), else the model of the reply that asked for it (`toolRequests`: that reply's own model,
//!     else its turn's, else the one auto mode chose), else its start line's turn's
//!     (before, none): the model that ran the command.
//! 14. (2026-12-05) a call id seen before is no reason to drop a call: a `link: tool
//!     result <id> has no tool call` row is given at the end (after the `no result`
//!     links), and not at all when a start or request of the id follows the result;
//!     a start or request that shows another tool or text than the call's row, or
//!     that comes after the call's result, gives its own rows ([`new_compared`] leaves
//!     those out: the old reader gave at most one `tool_use` row per id).
//!
//! And one addition (2026-12-05): a `session.shutdown` that holds the session's totals
//! (`totalPremiumRequests`, `totalNanoAiu`, `sessionStartTime` ...) gives a `session
//! totals:` row after its `usage:` rows, where the old reader dropped them.
//! So does `session event detail: <type> <JSON>` (2026-12-05), the fields of a
//! system row's event that its rows do not print, where the old reader dropped them,
//! and (2026-12-05) the `session event: assistant.turn_start <JSON>` row of a turn whose
//! start names a model no row of the turn shows (and `session event:
//! assistant.turn_end <JSON>` for an end that names another model than its start),
//! where the old reader dropped the model; these rows alone among `session event:`
//! rows have a model.
//! [`new_compared`] leaves those rows out of the new reader's rows; `audit.rs`
//! (`a_shutdown_gives_the_sessions_totals`) and `fixtures.rs` (`cli_session_rows`) pin
//! them. Likewise `session start:` texts gain the SDK's fields the spec's text leaves
//! out (`producer`, `hostType`, `headCommit`, `baseCommit`, `reasoningEffort`,
//! `alreadyInUse`, `remoteSteerable`; a resume's time, context and model), after the
//! spec's pairs, and `cwd changed:` its `gitRoot`, `repository`, `hostType`,
//! `headCommit` and `baseCommit`; [`new_compared`] cuts them off, and `audit.rs`
//! (`a_start_and_a_resume_keep_what_the_sdk_names`) pins them.
use std::path::{Path, PathBuf};

use chat_rows::dirty::Harness;
use chat_rows::{Row, TurnType};
use copilot_events::{Options, read_events};

#[allow(dead_code, clippy::all)]
#[path = "legacy/decode.rs"]
mod decode;
#[allow(dead_code, clippy::all)]
#[path = "legacy/events.rs"]
mod events;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

const LOGS: [&str; 6] = [
    "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/events.jsonl",
    "lin-ws01/home/alice/.copilot/session-state/1b2c3d4e-0000-4a00-8b00-00000000000b/events.jsonl",
    "lin-ws01/home/alice/.copilot/session-state/2c3d4e5f-0000-4c00-8c00-00000000000c/events.jsonl",
    "lin-ws01/home/alice/.config/Code/User/workspaceStorage/7e137a01/GitHub.copilot-chat/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl",
    "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b0b7c0de/GitHub.copilot-chat/transcripts/b0b0b0b0-2222-4000-9000-000000000002.jsonl",
    "WIN-DESK03/C/Users/carol/.copilot/session-state/9e8d7c6b-0000-4e00-8e00-00000000000e/events.jsonl",
];

fn options(secondary: bool) -> Vec<Options<'static>> {
    vec![
        Options {
            agent: "copilot",
            fallback_session: "s",
            secondary,
            ..Options::default()
        },
        Options {
            agent: "vscode",
            fallback_session: "fallback",
            project: "/home/alice/src/x",
            branch: "dev",
            secondary,
        },
    ]
}

fn old(bytes: &[u8], opts: &Options<'_>) -> Vec<Row> {
    let o = events::Options {
        agent: opts.agent,
        fallback_session: opts.fallback_session,
        project: opts.project,
        branch: opts.branch,
        secondary: opts.secondary,
    };
    let mut rows = Vec::new();
    events::read_events(bytes, &o, &mut |r| rows.push(r));
    rows
}

fn new(bytes: &[u8], opts: &Options<'_>) -> Vec<Row> {
    let mut rows = Vec::new();
    read_events(bytes, opts, &mut rows);
    rows
}

/// The new reader's rows without its `session totals:` rows, which the old reader had
/// no counterpart for, and its `session start:` texts without the pairs it adds after
/// the spec's (see the module docs).
fn new_compared(bytes: &[u8], opts: &Options<'_>) -> Vec<Row> {
    const ADDED: [&str; 8] = [
        " producer=",
        " events_version=",
        " host_type=",
        " head_commit=",
        " base_commit=",
        " reasoning_effort=",
        " already_in_use=",
        " remote_steerable=",
    ];
    let mut rows = new(bytes, opts);
    rows.retain(|r| {
        !r.text.starts_with("session totals: ")
            && !r.text.starts_with("session event detail: ")
            && (r.model.is_empty() || !r.text.starts_with("session event: assistant.turn_"))
    });
    // 14. (2026-12-05) a start or request of an id seen before that shows another tool
    // or text, or that comes after the call's result, gives its own `tool_use` row (and
    // its `tool requested by user:` or `link: ... never started` row), where the old
    // reader gave at most one `tool_use` row per id, never one after its result
    let mut first_result: std::collections::HashMap<String, u64> = Default::default();
    for r in rows.iter().filter(|r| r.turn_type == TurnType::ToolResult) {
        let n = r.source_line.unwrap_or(0);
        let e = first_result.entry(r.tool_use_id.clone()).or_insert(n);
        *e = (*e).min(n);
    }
    let mut used = std::collections::HashSet::new();
    let mut dropped: Option<(String, Option<u64>)> = None;
    rows.retain(|r| {
        if r.turn_type == TurnType::ToolUse && !r.tool_use_id.is_empty() {
            let line = r.source_line.unwrap_or(0);
            let late = first_result.get(&r.tool_use_id).is_some_and(|&n| n < line);
            if late || !used.insert(r.tool_use_id.clone()) {
                dropped = Some((r.tool_use_id.clone(), r.source_line));
                return false;
            }
            dropped = None;
            return true;
        }
        let follows = dropped.as_ref().is_some_and(|(id, line)| {
            *id == r.tool_use_id
                && *line == r.source_line
                && (r.text.starts_with("tool requested by user: ")
                    || r.text
                        .ends_with(" was requested but never started in this file"))
        });
        if !follows {
            dropped = None;
        }
        !follows
    });
    for r in &mut rows {
        if r.text.starts_with("session start: resumed=true ") {
            // the spec's `resumed=true events=<n>`: the two pairs
            let end = r.text.match_indices(' ').nth(3).map(|(i, _)| i);
            if let Some(end) = end {
                r.text.truncate(end);
            }
        } else if r.text.starts_with("session start: ") {
            if let Some(end) = ADDED.iter().filter_map(|k| r.text.find(k)).min() {
                r.text.truncate(end);
            }
        } else if r.text.starts_with("cwd changed: ") {
            let added = [
                " git_root=",
                " repository=",
                " host_type=",
                " head_commit=",
                " base_commit=",
            ];
            if let Some(end) = added.iter().filter_map(|k| r.text.find(k)).min() {
                r.text.truncate(end);
            }
        }
    }
    rows
}

/// A `session event: <type> <JSON>` text with its JSON key-sorted (as the old reader
/// printed it); any other text as it is.
fn key_sorted(mut row: Row) -> Row {
    if let Some(rest) = row.text.strip_prefix("session event: ") {
        if let Some((kind, json)) = rest.split_once(' ') {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
                row.text = format!("session event: {kind} {v}");
            }
        }
    }
    row
}

/// The legacy reader's rows of `bytes` with the second audit's fixes made (see the
/// module docs), each from what the rows themselves say, or the line a row's locator
/// names.
fn intended(mut rows: Vec<Row>, bytes: &[u8]) -> Vec<Row> {
    // 1. a model named at shutdown or by a sub-agent's start: no inferred families
    let named = rows.iter().any(|r| {
        (r.text.starts_with("session end:") && r.text.contains(" current_model="))
            || (r.text.starts_with("usage: ")
                && r.text.ends_with(" scope=session")
                && !r.model.is_empty())
            || (r.text.starts_with("subagent started:") && r.text.contains(" model="))
    });
    if named {
        rows.retain(|r| !r.text.starts_with("model family inferred: "));
    }
    // 2. an unknown record's line cut to 400 characters, the cut said whole
    for r in &mut rows {
        if !r.text.starts_with("unknown record type ") {
            continue;
        }
        let Some(line) = line_at(bytes, &r.source_locator) else {
            continue;
        };
        let line_text = String::from_utf8_lossy(line);
        let head: String = line_text.chars().take(400).collect();
        // the quoted line follows the first `: ` after the type that it starts at
        let Some(at) = r
            .text
            .match_indices(": ")
            .map(|(i, _)| i + 2)
            .find(|&i| r.text[i..].starts_with(&head))
        else {
            continue;
        };
        r.text.truncate(at);
        r.text.push_str(&head);
        if head.len() < line_text.len() {
            r.text.push_str(&format!("… [{} bytes in all]", line.len()));
        }
    }
    // 3. every request lent (a `tool_use` row of an id at an `assistant.message` line)
    //    is followed by its `never started` link
    let mut i = 0;
    while i < rows.len() {
        let r = &rows[i];
        let link = format!(
            "link: tool call {} was requested but never started in this file",
            r.tool_use_id
        );
        if r.turn_type == TurnType::ToolUse
            && !r.tool_use_id.is_empty()
            && rows.get(i + 1).is_none_or(|n| n.text != link)
            && line_at(bytes, &r.source_locator)
                .and_then(line_type)
                .as_deref()
                == Some("assistant.message")
        {
            let mut l = r.clone();
            l.turn_type = TurnType::System;
            l.text = link;
            rows.insert(i + 1, l);
            i += 1;
        }
        i += 1;
    }
    // 4. the requested permission's kind as a `k=v` pair: left out when empty, quoted
    //    when it needs it
    for r in &mut rows {
        let Some(rest) = r.text.strip_prefix("permission decision: requested kind=") else {
            continue;
        };
        let Some(kind) = line_at(bytes, &r.source_locator)
            .and_then(|l| string_at(l, "/data/permissionRequest/kind"))
        else {
            continue;
        };
        let Some(after) = rest.strip_prefix(kind.as_str()) else {
            continue;
        };
        r.text = format!(
            "permission decision: requested{}{after}",
            pair("kind", &kind)
        );
    }
    // 5. the sub-agent's name as a `k=v` pair
    for r in &mut rows {
        let Some((phase, rest)) = r
            .text
            .strip_prefix("subagent ")
            .and_then(|t| t.split_once(": agent="))
        else {
            continue;
        };
        if !matches!(phase, "started" | "completed" | "failed") {
            continue;
        }
        let Some(name) =
            line_at(bytes, &r.source_locator).and_then(|l| string_at(l, "/data/agentName"))
        else {
            continue;
        };
        let Some(after) = rest.strip_prefix(name.as_str()) else {
            continue;
        };
        r.text = format!("subagent {phase}:{}{after}", pair("agent", &name));
    }
    // 10. a reasoning line's `thinking` row has its turn's model (the last
    //     `assistant.turn_start` before it that names one, as the reader keeps it)
    for r in &mut rows {
        if r.turn_type != TurnType::Thinking || !r.model.is_empty() {
            continue;
        }
        let Some(at) = r
            .source_locator
            .strip_prefix("byte ")
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        if line_at(bytes, &r.source_locator)
            .and_then(line_type)
            .as_deref()
            != Some("assistant.reasoning")
        {
            continue;
        }
        let turn = chat_rows::lines::lines(bytes)
            .take_while(|l| l.offset < at)
            .filter(|l| line_type(l.bytes).as_deref() == Some("assistant.turn_start"))
            .last()
            .and_then(|l| string_at(l.bytes, "/data/model"));
        if let Some(m) = turn.filter(|m| !m.is_empty() && m != "auto") {
            r.model = m;
        }
    }
    // 9. every sub-agent phase's row carries the call that ran it
    for r in &mut rows {
        let phase = r
            .text
            .strip_prefix("subagent ")
            .and_then(|t| t.split_once(':'));
        if !phase.is_some_and(|(p, _)| matches!(p, "started" | "completed" | "failed")) {
            continue;
        }
        if let Some(call) =
            line_at(bytes, &r.source_locator).and_then(|l| string_at(l, "/data/toolCallId"))
        {
            r.tool_use_id = call;
        }
    }
    // 6. model changes as the tracker sees them: (id, printed spec) of the last model
    let mut last: Option<(String, String)> = None;
    let mut keep = Vec::with_capacity(rows.len());
    for mut r in rows {
        let Some(rest) = r.text.strip_prefix("model: ") else {
            keep.push(r);
            continue;
        };
        let line = line_at(bytes, &r.source_locator).unwrap_or_default();
        match line_type(line).as_deref() {
            Some("session.start") => {
                let m = string_at(line, "/data/selectedModel").unwrap_or_default();
                last = Some((m.clone(), m));
            }
            Some("session.model_change") => {
                let id = string_at(line, "/data/newModel").unwrap_or_default();
                let previous = string_at(line, "/data/previousModel").unwrap_or_default();
                let old = match (&previous, &last) {
                    (p, _) if !p.is_empty() => Some(p.clone()),
                    (_, Some((last_id, _))) => Some(last_id.clone()),
                    _ => None,
                };
                // the spec as printed: the text after the old model's arrow
                let spec = match &old {
                    Some(o) => rest
                        .strip_prefix(o.as_str())
                        .and_then(|t| t.strip_prefix(" -> "))
                        .unwrap_or(rest),
                    None => rest,
                }
                .to_string();
                let unchanged = last.as_ref().is_some_and(|(_, s)| *s == spec);
                last = Some((id, spec.clone()));
                if unchanged {
                    continue;
                }
                if old.as_deref() == Some(spec.as_str()) {
                    r.text = format!("model: {spec}");
                }
            }
            _ => {}
        }
        keep.push(r);
    }
    // 7. a call with no result: its link where its start is
    let mut rows = keep;
    for i in 0..rows.len() {
        let r = &rows[i];
        if r.source_locator != "end of file" || !r.text.ends_with(" has no result in this file") {
            continue;
        }
        let Some(start) = rows
            .iter()
            .find(|s| s.turn_type == TurnType::ToolUse && s.tool_use_id == r.tool_use_id)
            .cloned()
        else {
            continue;
        };
        let r = &mut rows[i];
        r.timestamp = start.timestamp;
        r.source_line = start.source_line;
        r.source_locator = start.source_locator;
        r.project_path = start.project_path;
        r.git_branch = start.git_branch;
        r.record_state = start.record_state;
        r.secondary = start.secondary;
    }
    // 11. the turn's model on its abort and error rows; no turn after its end
    let state = turn_states(bytes);
    for r in &mut rows {
        let Some(st) = state_at(&state, &r.source_locator) else {
            continue;
        };
        let open = match st.turn.as_str() {
            "" => "",
            "auto" => st.auto.as_str(),
            m => m,
        };
        let own_text = |p: &str| r.text.starts_with(p);
        if (st.kind == "abort" && own_text("turn aborted: "))
            || (st.kind == "session.error" && own_text("session error: "))
        {
            r.model = open.to_string();
        } else if matches!(r.turn_type, TurnType::Assistant | TurnType::Thinking) && !st.own_named {
            // the model of the line's own agent's turn, else the one auto mode chose
            r.model = st.turn_model().to_string();
        }
    }
    // 13. a call's `tool_use` row with no model of its own line has the model of the
    //     reply that asked for it, else its line's turn's (as that reply's rows have)
    let asked = request_models(bytes, &state);
    for r in &mut rows {
        if r.turn_type != TurnType::ToolUse || !r.model.is_empty() {
            continue;
        }
        let Some(st) = state_at(&state, &r.source_locator) else {
            continue;
        };
        let of_turn = st.turn_model();
        r.model = match st.kind.as_str() {
            // a call requested and never started, or with no id: the reply's own row
            "assistant.message" => {
                match line_at(bytes, &r.source_locator).and_then(|l| string_at(l, "/data/model")) {
                    Some(m) if st.own_named => m,
                    _ => of_turn.to_string(),
                }
            }
            // a start: its own model, else its request's, else its turn's
            _ => match line_at(bytes, &r.source_locator)
                .and_then(|l| string_at(l, "/data/model"))
                .filter(|m| !m.is_empty())
            {
                Some(own) => own,
                None => asked
                    .get(&r.tool_use_id)
                    .filter(|m| !m.is_empty())
                    .map_or_else(|| of_turn.to_string(), String::clone),
            },
        };
    }
    // 12. a count named both ways: read
    let mut i = 0;
    while i < rows.len() {
        let both = line_at(bytes, &rows[i].source_locator).and_then(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).ok()?;
            let d = v.get("data")?;
            let n = d.get("messageCount")?.as_i64()?;
            d.get("messagesCleared")?.as_i64()?;
            (v.get("type")?.as_str()? == "session.context_cleared").then_some(n)
        });
        match both {
            Some(n) if rows[i].text.starts_with("session event: ") => {
                rows[i].text = format!("session cleared: messages={n}");
                i += 1;
            }
            Some(_) if rows[i].text.starts_with("parser: ") => {
                rows.remove(i);
            }
            _ => i += 1,
        }
    }
    // 8. a broken binary asset line quoted with its `data.data` string left out
    for r in &mut rows {
        let Some(rest) = r.text.strip_prefix("parser: unparseable line (") else {
            continue;
        };
        let Some(line) = line_at(bytes, &r.source_locator) else {
            continue;
        };
        let line = String::from_utf8_lossy(line);
        if !line.contains("\"session.binary_asset\"") {
            continue;
        }
        let Some(left) = asset_left_out(&line) else {
            continue;
        };
        let Some(at) = rest.find("): ") else {
            continue;
        };
        let head = &r.text[..r.text.len() - rest.len() + at + 3];
        let quoted = match left.char_indices().nth(400) {
            None => left.clone(),
            Some((cut, _)) => format!("{}… [{} bytes in all]", &left[..cut], line.len()),
        };
        r.text = format!("{head}{quoted}");
    }
    // 14. a result with no call so far: its `no tool call` link at the end (before the
    // inferred families), and none when a start or request of its id follows it
    let calls = call_lines(bytes);
    let mut moved = Vec::new();
    rows.retain(|r| {
        let Some(id) = r
            .text
            .strip_prefix("link: tool result ")
            .and_then(|t| t.strip_suffix(" has no tool call in this file"))
        else {
            return true;
        };
        let line = r.source_line.unwrap_or(0);
        if !calls.get(id).is_some_and(|v| v.iter().any(|&n| n > line)) {
            moved.push(r.clone());
        }
        false
    });
    let at = rows
        .iter()
        .rposition(|r| !r.text.starts_with("model family inferred: "))
        .map_or(0, |i| i + 1);
    rows.splice(at..at, moved);
    rows
}

/// For difference 14: the lines (numbers) that start or request each call id.
fn call_lines(bytes: &[u8]) -> std::collections::HashMap<String, Vec<u64>> {
    let mut out: std::collections::HashMap<String, Vec<u64>> = Default::default();
    for line in chat_rows::lines::lines(bytes) {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(line.bytes) else {
            continue;
        };
        let data = &v["data"];
        match v["type"].as_str() {
            Some("tool.execution_start" | "tool.user_requested") => {
                if let Some(id) = data["toolCallId"].as_str() {
                    out.entry(id.to_string()).or_default().push(line.number);
                }
            }
            Some("assistant.message") => {
                for tr in data["toolRequests"].as_array().into_iter().flatten() {
                    if let Some(id) = tr["toolCallId"].as_str() {
                        out.entry(id.to_string()).or_default().push(line.number);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The turn a line is read in, for difference 11.
struct TurnState {
    /// The line's type.
    kind: String,
    /// The open turn's `turn_start` model (empty between turns).
    turn: String,
    /// The model auto mode chose, in force.
    auto: String,
    /// The line's own `data.model` is a model's name.
    own_named: bool,
}

impl TurnState {
    /// The model of the line's own agent's turn, else the one auto mode chose.
    fn turn_model(&self) -> &str {
        match self.turn.as_str() {
            "" | "auto" => self.auto.as_str(),
            m => m,
        }
    }
}

/// The [`TurnState`] of the line a `byte <offset>` locator names.
fn state_at<'a>(
    state: &'a std::collections::HashMap<u64, TurnState>,
    locator: &str,
) -> Option<&'a TurnState> {
    let offset = locator.strip_prefix("byte ")?.parse::<u64>().ok()?;
    state.get(&offset)
}

/// Each line's [`TurnState`], by offset: what the reader knows of the turn when it
/// reads the line (a `turn_start` or `turn_end` whose `data` is of another shape is
/// not read as one).
fn turn_states(bytes: &[u8]) -> std::collections::HashMap<u64, TurnState> {
    use serde_json::Value;
    let named = |m: &str| !m.is_empty() && m != "auto";
    // each agent's turn model, by `agentId` (the main agent's under "")
    let mut turns: std::collections::HashMap<String, String> = Default::default();
    let mut auto = String::new();
    let mut out = std::collections::HashMap::new();
    for l in chat_rows::lines::lines(bytes) {
        let v: Option<Value> =
            chat_rows::json::with_repaired(l.bytes, |b| serde_json::from_slice(b).ok());
        let Some(v) = v else { continue };
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let data = v.get("data");
        let model = data.and_then(|d| d.get("model"));
        let own = model.and_then(Value::as_str).unwrap_or("");
        let read = matches!(data, None | Some(Value::Null | Value::Object(_)))
            && matches!(model, None | Some(Value::Null | Value::String(_)));
        let agent = v.get("agentId").and_then(Value::as_str).unwrap_or("");
        let turn = turns.entry(agent.to_string()).or_default();
        out.insert(
            l.offset,
            TurnState {
                kind: kind.clone(),
                turn: turn.clone(),
                auto: auto.clone(),
                own_named: named(own),
            },
        );
        match kind.as_str() {
            "assistant.turn_start" if read => *turn = own.to_string(),
            "assistant.turn_end" if read => turn.clear(),
            "session.model_change" if matches!(data, Some(Value::Object(_))) => auto.clear(),
            "session.auto_mode_resolved" => {
                if let Some(m) = data
                    .and_then(|d| d.get("chosenModel"))
                    .and_then(Value::as_str)
                    .filter(|m| named(m))
                {
                    auto = m.to_string();
                }
            }
            _ => {}
        }
    }
    out
}

/// For difference 13: each tool-call id whose first line is an `assistant.message`
/// asking for it (`toolRequests`), the model of that reply's rows (its own `model`, else
/// its turn's, else the one auto mode chose).
fn request_models(
    bytes: &[u8],
    state: &std::collections::HashMap<u64, TurnState>,
) -> std::collections::HashMap<String, String> {
    use serde_json::Value;
    let mut seen = std::collections::HashSet::new();
    let mut out = std::collections::HashMap::new();
    for l in chat_rows::lines::lines(bytes) {
        let v: Option<Value> =
            chat_rows::json::with_repaired(l.bytes, |b| serde_json::from_slice(b).ok());
        let Some(v) = v else { continue };
        let data = v.get("data");
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "assistant.message" {
            if let Some(id) = data
                .and_then(|d| d.get("toolCallId"))
                .and_then(Value::as_str)
            {
                seen.insert(id.to_string());
            }
            continue;
        }
        let Some(st) = state.get(&l.offset) else {
            continue;
        };
        let model = match data.and_then(|d| d.get("model")).and_then(Value::as_str) {
            Some(m) if st.own_named => m.to_string(),
            _ => st.turn_model().to_string(),
        };
        let requests = data.and_then(|d| d.get("toolRequests"));
        for id in requests.and_then(Value::as_array).into_iter().flatten() {
            if let Some(id) = id.get("toolCallId").and_then(Value::as_str) {
                if seen.insert(id.to_string()) {
                    out.insert(id.to_string(), model.clone());
                }
            }
        }
    }
    out
}

/// A binary asset line with the string after its envelope's `"data":` object's own
/// `"data":` replaced by the reader's note (to the line's end when it is cut there).
fn asset_left_out(line: &str) -> Option<String> {
    let outer = line.find("\"data\":")? + 7;
    let inner = outer + line[outer..].find("\"data\":")? + 7;
    let open = inner + line[inner..].find('"')?;
    if !line[inner..open].trim().is_empty() {
        return None;
    }
    let body = open + 1;
    let end = line[body..].find('"').map(|i| body + i);
    let n = line[body..end.unwrap_or(line.len())].chars().count();
    let note = format!("[binary asset data left out, {n} characters]");
    Some(match end {
        Some(e) => format!("{}{note}{}", &line[..body], &line[e..]),
        None => format!("{}{note}", &line[..body]),
    })
}

/// ` key=value` as the reader's `k=v` pairs print it: nothing for an empty value, the
/// value JSON-quoted when it holds a blank, `=` or a quote.
fn pair(key: &str, value: &str) -> String {
    match value {
        "" => String::new(),
        v if v.contains([' ', '=', '"', '\n', '\t']) => {
            format!(" {key}={}", serde_json::to_string(v).unwrap())
        }
        v => format!(" {key}={v}"),
    }
}

/// The text at a JSON pointer of a JSON line (empty when absent or null; none when not
/// a text).
fn string_at(line: &[u8], pointer: &str) -> Option<String> {
    chat_rows::json::with_repaired(line, |b| {
        let v: serde_json::Value = serde_json::from_slice(b).ok()?;
        match v.pointer(pointer) {
            Some(serde_json::Value::String(k)) => Some(k.clone()),
            Some(serde_json::Value::Null) | None => Some(String::new()),
            Some(_) => None,
        }
    })
}

/// The `type` of a JSON line, as a tree reads it (the last of duplicates).
fn line_type(line: &[u8]) -> Option<String> {
    chat_rows::json::with_repaired(line, |b| {
        let v: serde_json::Value = serde_json::from_slice(b).ok()?;
        v.get("type")?.as_str().map(str::to_string)
    })
}

/// The line a row's `byte <offset>` locator names.
fn line_at<'a>(bytes: &'a [u8], locator: &str) -> Option<&'a [u8]> {
    let offset: u64 = locator.strip_prefix("byte ")?.parse().ok()?;
    chat_rows::lines::lines(bytes)
        .find(|l| l.offset == offset)
        .map(|l| l.bytes)
}

/// The legacy reader's rows with the intended differences made.
fn old_intended(bytes: &[u8], opts: &Options<'_>) -> Vec<Row> {
    intended(old(bytes, opts), bytes)
}

fn same(what: &str, bytes: &[u8], opts: &Options<'_>) {
    let a: Vec<Row> = old_intended(bytes, opts)
        .into_iter()
        .map(key_sorted)
        .collect();
    let b: Vec<Row> = new_compared(bytes, opts)
        .into_iter()
        .map(key_sorted)
        .collect();
    if a != b {
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                panic!("{what}: row {i} differs\nold: {x:?}\nnew: {y:?}");
            }
        }
        panic!("{what}: {} rows before, {} now", a.len(), b.len());
    }
}

#[test]
fn fixtures_give_the_same_rows() {
    for rel in LOGS {
        let bytes = std::fs::read(root().join(rel)).unwrap();
        for secondary in [false, true] {
            for opts in options(secondary) {
                same(rel, &bytes, &opts);
            }
        }
    }
}

#[test]
fn edge_lines_give_the_same_rows() {
    let lines: &[&str] = &[
        // data before type, escapes in every read field, lone surrogates
        r#"{"data":{"content":"a\"b\\c\n\u00e9"},"type":"user.message","timestamp":"2026-10-05T09:00:00.000Z"}"#,
        r#"{"type":"assistant.message","data":{"content":"x\ud800y","model":"m\u0031"},"timestamp":"2026-10-05T09:00:01Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"a\"b","result":{"content":12345678901234567890}},"timestamp":"2026-10-05T09:00:02Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"c","result":{"content":-1.5e3,"detailedContent":"d"}},"timestamp":"2026-10-05T09:00:02Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"d","result":{"content":true},"success":false,"error":{"code":"E1","message":"no"}}}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"e","result":{"content":[1,2]}}}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"f","result":{"content":{"a":1}}}}"#,
        r#"{"type":"session.compaction_complete","data":{"checkpointNumber":3,"success":true}}"#,
        r#"{"type":"skill.invoked","data":{"name":"n","source":null}}"#,
        // wrong type in a field the type reads: the same parser rows
        r#"{"type":"user.message","data":{"content":5}}"#,
        r#"{"type":"assistant.turn_start","data":{"model":["x"]}}"#,
        r#"{"type":"user.message","data":{"content":"a","content":"b"}}"#,
        r#"{"type":"user.message","type":"user.message","data":{}}"#,
        r#"{"type":5,"data":{}}"#,
        r#"{"type":"session.idle","data":null}"#,
        r#"{"type":"user.message","data":"text"}"#,
        r#"{"type":"user.message","data":{"attachments":[{"type":"file","path":"/p"},{"displayName":"d"}]}}"#,
        r#"{"type":"session.idle"}"#,
        r#"{"type":"session.idle","data":{"a":[1,{"b":"c"}]},"agentId":"sub1"}"#,
        r#"{"type":"brand.new","data":{"x":1}}"#,
        r#"{"type":"user.message","data":{},"timestamp":7}"#,
        r#"{"type":"user.message","data":{},"ephemeral":"yes"}"#,
        r#"{"type":"user.message","data":{},"id":null,"agentId":""}"#,
        r#"[1,2]"#,
        r#""just a string""#,
        r#"{"type":"user.message","data":{"content":"tail"}} trailing"#,
        r#"{"type":"user.message","data":{"content":"torn"#,
        // audit fixes made in both readers: a notification's kind as an object, a
        // binary asset's data never printed, other hook types, the `auto` route,
        // encrypted reasoning only for a turn with no reasoning text
        r#"{"type":"system.notification","data":{"content":"done","kind":{"type":"agent_completed","agentId":"x"}}}"#,
        r#"{"type":"system.notification","data":{"kind":"plain","content":"c"}}"#,
        r#"{"type":"session.binary_asset","data":{"mimeType":"image/png","size":"16","data":"U0VDUkVU"}}"#,
        r#"{"type":"hook.progress","data":{"n":1}}"#,
        r#"{"type":"assistant.turn_start","data":{"model":"auto"}}"#,
        r#"{"type":"assistant.reasoning","data":{"content":"r"}}"#,
        r#"{"type":"assistant.message","data":{"content":"a","encryptedContent":"ZZ"}}"#,
        r#"{"type":"assistant.message","data":{"content":"b","model":"auto","reasoningText":"q"}}"#,
    ];
    let mut all = String::new();
    for l in lines {
        same(l, l.as_bytes(), &options(false)[0]);
        all.push_str(l);
        all.push('\n');
    }
    same("all edge lines", all.as_bytes(), &options(false)[1]);
    // invalid UTF-8 inside a string the type reads, and inside one it skips
    let mut bad = br#"{"type":"user.message","data":{"content":"a"#.to_vec();
    bad.extend_from_slice(b"\xff\"}}");
    same("invalid UTF-8 in content", &bad, &options(false)[0]);
}

/// A damaged copy may legitimately differ in two ways: a line whose first decoding error
/// lies in a field its type does not read (only the old reader reports it, `unexpected
/// shape` or invalid UTF-8), and a line whose `data` became an array (both read it by
/// position, into different structs, so both report a `parser:` row, worded differently).
fn lenient_difference(a: &[Row], b: &[Row]) -> bool {
    let skipped_field = a
        .iter()
        .any(|r| r.text.contains("unexpected shape") || r.text.contains("invalid utf-8"));
    let worded = a.len() == b.len()
        && a.iter()
            .zip(b)
            .filter(|(x, y)| x != y)
            .all(|(x, y)| x.is_parser() && y.is_parser() && x.text.contains("\"data\":["));
    skipped_field || worded
}

#[test]
fn damaged_copies() {
    let opts = &options(false)[0];
    let (mut compared, mut lenient) = (0usize, 0usize);
    for rel in LOGS {
        let bytes = std::fs::read(root().join(rel)).unwrap();
        for m in Harness::new().mutations(bytes.len()) {
            let input = m.apply(&bytes);
            let (a, b) = (old_intended(&input, opts), new_compared(&input, opts));
            compared += 1;
            if a == b {
                continue;
            }
            if !lenient_difference(&a, &b) {
                let i = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                panic!(
                    "{rel} {m:?}: rows differ from row {i} ({} before, {} now)\nold: {:?}\nnew: {:?}",
                    a.len(),
                    b.len(),
                    a.get(i),
                    b.get(i)
                );
            }
            lenient += 1;
        }
    }
    println!("{compared} damaged copies compared, {lenient} differ only by leniency");
    assert!(compared > 100);
}

/// The fixture logs with every line made long (an unread field of 1.2 KB first, and
/// each `content` given an escape-dense prefix): long, escape-dense lines through the
/// one-pass scanner (`decode::scan`), which once went to a separate long-line path.
fn long_lines(bytes: &[u8]) -> Vec<u8> {
    let pad = format!(
        r#"{{"pad":"{}","#,
        r#"a\"b\\c\n\t\u00e9 \ud83d\ude00 x"#.repeat(40)
    );
    let dense = r#"line\nC:\\Users\\carol \"q\" caf\u00e9 😀\r\n"#.repeat(30);
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|c| *c == b'\n') {
        let text = String::from_utf8_lossy(line);
        let text = text.replace(r#""content":""#, &format!(r#""content":"{dense}"#));
        match text.strip_prefix('{') {
            Some(rest) if rest.trim_start().starts_with('"') => {
                out.extend_from_slice(pad.as_bytes());
                out.extend_from_slice(rest.as_bytes());
            }
            _ => out.extend_from_slice(text.as_bytes()),
        }
    }
    out
}

#[test]
fn long_lines_give_the_same_rows() {
    let mut long = 0usize;
    for rel in LOGS {
        let bytes = long_lines(&std::fs::read(root().join(rel)).unwrap());
        long += bytes
            .split(|c| *c == b'\n')
            .filter(|l| l.len() >= 1024)
            .count();
        for secondary in [false, true] {
            for opts in options(secondary) {
                same(rel, &bytes, &opts);
            }
        }
        let opts = &options(false)[0];
        for m in Harness::new().mutations(bytes.len()) {
            let input = m.apply(&bytes);
            let (a, b) = (old_intended(&input, opts), new_compared(&input, opts));
            if a != b && !lenient_difference(&a, &b) {
                let i = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                panic!(
                    "{rel} long {m:?}: rows differ from row {i}\nold: {:?}\nnew: {:?}",
                    a.get(i),
                    b.get(i)
                );
            }
        }
    }
    assert!(long > 50, "{long} long lines");
}

/// Tool calls in every order of their request, start (twice), completion (twice) and a
/// user-requested start, for a call that goes through all of them and one that skips
/// the request: the reader keeps one state per call id (requested, started, completed)
/// where the old one kept three maps, and gives the same rows in every order.
#[test]
fn tool_call_orders_give_the_same_rows() {
    let lines = [
        r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"a","name":"bash","arguments":{"command":"ls"}},{"toolCallId":"b","name":"edit","arguments":"x"}]},"timestamp":"2026-10-05T09:00:01Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"a","toolName":"bash","arguments":{"command":"ls"}},"timestamp":"2026-10-05T09:00:02Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"a","arguments":{"command":"ls -l"}},"timestamp":"2026-10-05T09:00:03Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"a","success":true,"result":{"content":"out","contents":[{"type":"terminal","exitCode":2}]}},"timestamp":"2026-10-05T09:00:04Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"b","success":false,"error":{"code":"denied","message":"no"}},"timestamp":"2026-10-05T09:00:05Z"}"#,
        r#"{"type":"tool.user_requested","data":{"toolCallId":"c","toolName":"view"},"timestamp":"2026-10-05T09:00:06Z"}"#,
    ];
    // every order of the six lines (Heap's algorithm), each line then repeated once
    let mut order: Vec<usize> = (0..lines.len()).collect();
    let mut c = vec![0usize; lines.len()];
    let mut orders = vec![order.clone()];
    let mut i = 0;
    while i < lines.len() {
        if c[i] < i {
            let j = if i % 2 == 0 { 0 } else { c[i] };
            order.swap(j, i);
            orders.push(order.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    assert_eq!(orders.len(), 720);
    for order in &orders {
        let mut log = String::new();
        for &n in order {
            log.push_str(lines[n]);
            log.push('\n');
        }
        same(&log, log.as_bytes(), &options(false)[0]);
        let doubled: String = log.lines().flat_map(|l| [l, "\n", l, "\n"]).collect();
        same(&doubled, doubled.as_bytes(), &options(true)[1]);
    }
}

/// Each of the second audit's fixes on a log that shows it: the legacy rows differ
/// from the new ones, and [`intended`] makes exactly that difference.
#[test]
fn intended_differences() {
    let long = format!(
        r#"{{"type":"brand.new","data":{{"x":"{}"}}}}"#,
        "caf\u{e9} ".repeat(80)
    );
    let huge = format!(
        r#"{{"type":"brand.new","data":{{"x":"{}"}}}}"#,
        "y".repeat(9000)
    );
    let cases: &[(&str, &[&str])] = &[
        (
            "1. a model named at shutdown or by a sub-agent",
            &[
                r#"{"type":"tool.execution_start","data":{"toolCallId":"toolu_01","toolName":"bash"},"timestamp":"2026-10-04T10:00:01Z"}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"call_02","toolName":"bash"},"timestamp":"2026-10-04T10:00:02Z"}"#,
                r#"{"type":"session.shutdown","data":{"currentModel":"m","modelMetrics":{"m":{"usage":{}}}}}"#,
                r#"{"type":"subagent.started","data":{"agentName":"a","model":"m2"}}"#,
            ],
        ),
        ("2. an unknown record's line cut", &[&long, &huge]),
        (
            "3. requested and completed, never started",
            &[
                r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"R1","name":"bash","arguments":{"c":1}},{"toolCallId":"R2","name":"view"}]},"timestamp":"2026-10-04T10:00:02Z"}"#,
                r#"{"type":"tool.execution_complete","data":{"toolCallId":"R1","result":{"content":"res"}},"timestamp":"2026-10-04T10:00:03Z"}"#,
            ],
        ),
        (
            "4. a requested permission's kind as a pair",
            &[
                r#"{"type":"permission.requested","data":{"requestId":"r9","permissionRequest":{"toolCallId":"x1"}}}"#,
                r#"{"type":"permission.requested","data":{"requestId":"r8","permissionRequest":{"kind":"","toolCallId":"x2"}}}"#,
                r#"{"type":"permission.requested","data":{"requestId":"r7","permissionRequest":{"kind":"custom tool"}}}"#,
                r#"{"type":"permission.requested","data":{"requestId":"r6","permissionRequest":{"kind":"shell"}}}"#,
            ],
        ),
        (
            "5. a sub-agent's name as a pair",
            &[
                r#"{"type":"subagent.started","data":{"agentName":"my agent","toolCallId":"tc"}}"#,
                r#"{"type":"subagent.completed","data":{"agentName":"a=b","durationMs":3}}"#,
                r#"{"type":"subagent.failed","data":{"error":"x y"}}"#,
                r#"{"type":"subagent.started","data":{"agentName":"explore","model":"m"}}"#,
            ],
        ),
        (
            "10. a reasoning line's turn model",
            &[
                r#"{"type":"assistant.turn_start","data":{"model":"m10","turnId":"0"}}"#,
                r#"{"type":"assistant.reasoning","data":{"content":"hmm"}}"#,
            ],
        ),
        (
            "11. the turn's model on its abort and error; none after its end",
            &[
                r#"{"type":"assistant.turn_start","data":{"model":"m11","turnId":"0"}}"#,
                r#"{"type":"session.error","data":{"errorType":"model_call","message":"x"}}"#,
                r#"{"type":"abort","data":{"reason":"user"}}"#,
                r#"{"type":"assistant.turn_end","data":{"turnId":"0"}}"#,
                r#"{"type":"abort","data":{"reason":"late"}}"#,
                r#"{"type":"assistant.message","data":{"content":"after"}}"#,
            ],
        ),
        (
            "11. a sub-agent's turn is not its parent's",
            &[
                r#"{"type":"assistant.turn_start","data":{"model":"root","turnId":"0"}}"#,
                r#"{"type":"assistant.turn_start","data":{"model":"sub","turnId":"0"},"agentId":"a1"}"#,
                r#"{"type":"assistant.message","data":{"content":"from sub"},"agentId":"a1"}"#,
                r#"{"type":"assistant.message","data":{"content":"from root"}}"#,
            ],
        ),
        (
            "12. a count named both ways",
            &[
                r#"{"type":"session.context_cleared","data":{"messageCount":3,"messagesCleared":3}}"#,
                r#"{"type":"session.context_cleared","data":{"messagesCleared":5,"messageCount":4}}"#,
            ],
        ),
        (
            "13. a call's model: its request's, else its turn's",
            &[
                r#"{"type":"assistant.turn_start","data":{"model":"t13","turnId":"0"}}"#,
                r#"{"type":"assistant.message","data":{"content":"","model":"m13","toolRequests":[{"toolCallId":"A","name":"bash"},{"toolCallId":"B","name":"view"},{"toolCallId":"","name":"grep"}]}}"#,
                r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"C","name":"bash"}]}}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"A","toolName":"bash"}}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"C","toolName":"bash","model":"own"}}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"D","toolName":"bash"}}"#,
                r#"{"type":"assistant.turn_start","data":{"model":"s13","turnId":"0"},"agentId":"a1"}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"E","toolName":"bash"},"agentId":"a1"}"#,
                r#"{"type":"assistant.message","data":{"content":"","model":"late","toolRequests":[{"toolCallId":"D","name":"bash"}]}}"#,
                r#"{"type":"assistant.turn_end","data":{"turnId":"0"}}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"F","toolName":"bash"}}"#,
            ],
        ),
        (
            "9. the call that ran a sub-agent, in every phase's row",
            &[
                r#"{"type":"subagent.started","data":{"agentName":"a","toolCallId":"tc9"}}"#,
                r#"{"type":"subagent.completed","data":{"agentName":"a","toolCallId":"tc9","durationMs":3}}"#,
            ],
        ),
        (
            "6. a change to the model in force",
            &[
                r#"{"type":"session.start","data":{"sessionId":"S3","selectedModel":"gpt-5"}}"#,
                r#"{"type":"session.model_change","data":{"newModel":"gpt-5"}}"#,
                r#"{"type":"session.model_change","data":{"previousModel":"gpt-5","newModel":"gpt-5","reasoningEffort":"high"}}"#,
                r#"{"type":"session.model_change","data":{"previousModel":"gpt-5","newModel":"gpt-5","reasoningEffort":"high"}}"#,
                r#"{"type":"session.model_change","data":{"previousModel":"claude","newModel":"claude"}}"#,
                r#"{"type":"session.model_change","data":{"newModel":"o3","source":"user"}}"#,
            ],
        ),
        (
            "7. a call with no result, where it started",
            &[
                r#"{"type":"session.start","data":{"sessionId":"S","context":{"cwd":"/a","branch":"b1"}},"timestamp":"2026-10-04T10:00:10Z"}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"c2","toolName":"view"},"timestamp":"2026-10-04T10:00:11Z"}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash"},"timestamp":"2026-10-04T10:00:05Z"}"#,
                r#"{"type":"session.context_changed","data":{"cwd":"/b","branch":"b2"},"timestamp":"2026-10-04T10:00:12Z"}"#,
                r#"{"type":"tool.execution_start","data":{"toolCallId":"c3","toolName":"grep"},"agentId":"sub","timestamp":"2026-10-04T10:00:13Z"}"#,
            ],
        ),
        (
            "8. a broken binary asset line without its data",
            &[
                r#"{"type":"session.binary_asset","data":{"mimeType":"image/png","data":"U0VDUkVU"},"parentId":nuXX"#,
                r#"{"type": "session.binary_asset", "data": {"mimeType": "image/png", "data": "U0VDUkVUU0"#,
            ],
        ),
    ];
    for (what, lines) in cases {
        let log: String = lines.iter().flat_map(|l| [*l, "\n"]).collect();
        for opts in options(false) {
            assert_ne!(
                old(log.as_bytes(), &opts),
                new(log.as_bytes(), &opts),
                "{what}: no difference to make"
            );
            same(what, log.as_bytes(), &opts);
        }
        for l in *lines {
            same(what, l.as_bytes(), &options(false)[0]);
        }
    }
    // each line that names a model, alone with the calls
    let calls = cases[0].1;
    for l in &calls[2..] {
        let log = format!("{}\n{}\n{l}\n", calls[0], calls[1]);
        same(cases[0].0, log.as_bytes(), &options(false)[0]);
    }
}
