//! Forensic reader of CodeBuddy Code and WorkBuddy sessions.
//!
//! CodeBuddy Code (Tencent's `@tencent-ai/codebuddy-code`) writes one JSONL file per
//! session, one OpenAI Responses-style item per line, under a folder per working
//! directory. WorkBuddy, a desktop app, runs the same agent with its home set to
//! `~/.workbuddy` or `~/.workbuddy-ai`, so the same reader serves both; its rows carry
//! the same agent id, `codebuddy`, and the home shows in `source_file`.
//!
//! Why a reader of its own rather than "JSON lines to rows": the app itself reads a
//! session backwards, keeps only its tail, skips lines it cannot parse, and hides a
//! good part of what the file holds (slash-command echoes, hook feedback, reminders,
//! compaction digests, teammate messages) behind flags on `user` messages. A responder
//! needs the opposite on every point: every line, the damage said and located, and the
//! hidden records shown for what they are rather than dropped or mistaken for prompts.
//!
//! The crate has three layers, as every store crate here does:
//!
//! * [`mod@locate`]: which paths are CodeBuddy files (sessions, sub-agents, meta side
//!   files), from the path alone;
//! * [`decode`]: the line format ([`SessionLog`], [`Item`], [`Error`]), the sub-agent
//!   meta file, exit codes and `<persisted-output>` pointers;
//! * [`rows`]: the mapping of items to [`chat_rows::Row`]s.
//!
//! [`CodeBuddyStore`] plugs it into the scanner ([`read_file_into`], rows handed on as
//! they are made), and [`read_file`] does the same work
//! for a caller with a path: it reads the session through the [`Evidence`] gateway,
//! with its side files (meta, sub-agent meta, persisted tool outputs), and never
//! fails as a whole.
//!
//! Sub-agents: a sub-agent's rows carry its own session id (the `sessionId` its items
//! write), and the link to its parent is a first row `session start: parent=<parent
//! session id> task=<task id> ...` from its `agent-<id>.meta.json`. The parent's id is
//! also in every row's `source_file` (`<parent>/subagents/agent-<id>.jsonl`). Sub-agent
//! files are read on every scan; there is no opt-in.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::path::Path;

use chat_rows::system;
use chat_rows::{Claim, Evidence, Row, RowSink, Store};
use serde_json::{Map, Value};
use session_tree::tree::{SessionFiles, flatten, subagent_start_from_path};

pub use decode::{Entry, Error, ExitStatus, Item, PersistedPointer, SessionLog, SubagentMeta};
pub use locate::{FileKind, Location, locate, mangle};
pub use rows::{
    AGENT, LogIndex, MapOptions, Persisted, session_rows, session_rows_into, session_rows_with,
};

/// The scanner's entry point for CodeBuddy and WorkBuddy homes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CodeBuddyStore;

impl Store for CodeBuddyStore {
    fn agent(&self, _ctx: &chat_rows::FileContext) -> String {
        "codebuddy".into()
    }

    fn name(&self) -> &'static str {
        "codebuddy-log"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        let kind = match locate(path)?.kind {
            FileKind::Session => "codebuddy session",
            FileKind::SessionMeta => "codebuddy session meta",
            FileKind::Subagent => "codebuddy sub-agent session",
            FileKind::SubagentMeta => "codebuddy sub-agent meta",
            FileKind::ToolResult => "codebuddy persisted tool output",
        };
        Some(Claim::new(kind))
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
        sink: &mut dyn chat_rows::RowSink,
    ) {
        let display = ctx.source_file(path, evidence);
        read_file_into(path, &display, evidence, sink);
    }
}

/// Reads one CodeBuddy file (a session, a sub-agent, or a meta file or persisted
/// output whose session is gone) into rows, with `display` as its `source_file`. A path that [`locate()`] does
/// not recognise is read as a main session named by its file stem.
pub fn read_file(path: &Path, display: &str, evidence: &Evidence) -> Vec<Row> {
    let mut rows = Vec::new();
    read_file_into(path, display, evidence, &mut rows);
    rows
}

/// [`read_file`], each row handed to `sink` as it is made: a session's rows are never
/// held together, and its file is read a chunk at a time (the scanner's path).
pub fn read_file_into(path: &Path, display: &str, evidence: &Evidence, sink: &mut dyn RowSink) {
    let files = SessionFiles::new(path, locate(path), display, evidence, AGENT);
    let rows = match files.kind() {
        FileKind::Session | FileKind::Subagent => return read_session(&files, sink),
        FileKind::ToolResult => files.orphan_tool_result(),
        FileKind::SessionMeta => {
            files.orphan_meta(&|map| format!("session meta: {}", flatten(map)))
        }
        FileKind::SubagentMeta => {
            let stem = files.loc.stem().to_string();
            files.orphan_meta(&|map| subagent_start(map, &files.loc.session_id, &stem))
        }
    };
    for row in rows {
        sink.push(row);
    }
}

/// A session file that cannot be opened: its `parser:` row (the session its name gives,
/// as when its records name none), then what its side files hold all the same (since
/// 2026-12-05; before, only the `parser:` row): a sub-agent's meta header or a
/// session's meta, and a session's persisted outputs, none of which a readable line
/// points to.
fn unreadable_session(
    files: &SessionFiles<'_>,
    e: session_tree::Error,
    session_id: &str,
    subagent: bool,
    out: &mut dyn RowSink,
) {
    let loc = &files.loc;
    out.push(files.unreadable(e, session_id));
    let meta_display = files.meta_display();
    match files.session_meta() {
        Some(Err(row)) => out.push(row.session(session_id)),
        Some(Ok(map)) => {
            let text = if subagent {
                subagent_start(&map, &loc.session_id, loc.agent_id.as_deref().unwrap_or(""))
            } else {
                format!("session meta: {}", flatten(&map))
            };
            out.push(
                Row::system(AGENT, text)
                    .session(session_id)
                    .file(&meta_display)
                    .locator("whole file"),
            );
        }
        None => {}
    }
    if !subagent {
        let resolver = files.resolver();
        files.unreferenced_outputs(&resolver, session_id, "", &|_| None, &mut |r| out.push(r));
    }
}

fn read_session(files: &SessionFiles<'_>, out: &mut dyn RowSink) {
    let loc = &files.loc;
    let display = files.display;
    let subagent = loc.kind == FileKind::Subagent;
    let fallback = loc.stem().to_string();
    let log = match SessionLog::from_path(files.path, files.evidence) {
        Ok(log) => log,
        Err(e) => return unreadable_session(files, e, &fallback, subagent, out),
    };
    let index = LogIndex::build(&log);
    let session_id = index.session_id(&fallback, subagent);
    let first_time = index.first_time();
    let first_cwd = index.first_cwd().to_string();

    // the meta side file: the sub-agent's link to its parent, or the session's meta
    let meta_display = files.meta_display();
    let header = |text: String, file: &str| {
        Row::system(AGENT, text)
            .at(first_time)
            .session(session_id.clone())
            .project(first_cwd.clone())
            .file(file)
    };
    let meta = files.session_meta();
    if let Some(Err(row)) = &meta {
        out.push(
            row.clone()
                .session(session_id.clone())
                .project(first_cwd.clone()),
        );
    }
    let meta = meta.and_then(Result::ok);
    if subagent {
        let agent = loc.agent_id.as_deref().unwrap_or("");
        match &meta {
            Some(map) => out.push(
                header(subagent_start(map, &loc.session_id, agent), &meta_display)
                    .locator("whole file"),
            ),
            None => out.push(
                header(subagent_start_from_path(&loc.session_id, agent), display).locator("path"),
            ),
        }
    } else if let Some(map) = &meta {
        out.push(
            Row::system(AGENT, format!("session meta: {}", flatten(map)))
                .session(session_id.clone())
                .project(first_cwd.clone())
                .file(&meta_display)
                .locator("whole file"),
        );
    }

    let resolver = files.resolver();
    let lookup = |p: &PersistedPointer| resolver.lookup(p);
    let opts = MapOptions {
        source_file: display,
        session_id: &fallback,
        subagent,
        folder_session_id: &loc.session_id,
        persisted: &lookup,
    };
    session_rows_into(&log, &index, &opts, out);
    if !subagent {
        // persisted outputs no readable line points to: a damaged pointer line, or a
        // sub-agent's output (read again here, since only its own file points to it)
        let tool = |call: &str| index.tool_name(call).map(str::to_string);
        files.unreferenced_outputs(&resolver, &session_id, &first_cwd, &tool, &mut |r| {
            out.push(r)
        });
    }
}

/// `session start: parent=... task=... agent=... task_name=... root_request=...
/// parent_conversation=... agent_file=...` from a sub-agent meta object.
fn subagent_start(map: &Map<String, Value>, folder_session: &str, agent_file: &str) -> String {
    let meta = SubagentMeta::from_map(map.clone());
    let parent = meta.parent_session_id.as_deref().unwrap_or(folder_session);
    let from = if meta.parent_session_id.is_some() {
        ""
    } else {
        "path"
    };
    system::session_start(&[
        ("parent", parent),
        ("task", meta.task_id.as_deref().unwrap_or("")),
        ("agent", meta.agent_name.as_deref().unwrap_or("")),
        ("task_name", meta.task_name.as_deref().unwrap_or("")),
        (
            "root_request",
            meta.root_request_id.as_deref().unwrap_or(""),
        ),
        (
            "parent_conversation",
            meta.parent_conversation_id.as_deref().unwrap_or(""),
        ),
        ("agent_file", agent_file),
        ("parent_from", from),
    ])
}
