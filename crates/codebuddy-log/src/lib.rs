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
//! * [`locate`]: which paths are CodeBuddy files (sessions, sub-agents, meta side
//!   files), from the path alone;
//! * [`decode`]: the line format ([`SessionLog`], [`Item`], [`Error`]), the sub-agent
//!   meta file, exit codes and `<persisted-output>` pointers;
//! * [`rows`]: the mapping of items to [`chat_rows::Row`]s.
//!
//! [`CodeBuddyStore`] plugs it into the scanner, and [`read_file`] does the same work
//! for a caller with a path: it reads the session through the [`Evidence`] gateway,
//! with its side files (meta, sub-agent meta, persisted tool outputs), and never
//! fails as a whole.
//!
//! Sub-agents: a sub-agent's rows carry its own session id (the `sessionId` its items
//! write), and the link to its parent is a first row `session start: parent=<parent
//! session id> task=<task id> ...` from its `agent-<id>.meta.json`. The parent's id is
//! also in every row's `source_file` (`<parent>/subagents/agent-<id>.jsonl`). Sub-agent
//! files are read on every scan; there is no opt-in.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::path::{Path, PathBuf};

use chat_rows::system::{self, key_values};
use chat_rows::{Claim, Evidence, FileContext, Row, Store, TurnType};
use serde_json::{Map, Value};

pub use decode::{Entry, Error, ExitStatus, Item, PersistedPointer, SessionLog, SubagentMeta};
pub use locate::{FileKind, Location, locate, mangle};
pub use rows::{AGENT, LogIndex, MapOptions, Persisted, session_rows, session_rows_with};

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
        for row in self.read_rows(path, ctx, evidence) {
            sink.push(row);
        }
    }
}

impl CodeBuddyStore {
    /// Every row of a claimed file (the collected form of the store's `read_into`).
    pub(crate) fn read_rows(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
    ) -> Vec<Row> {
        let display = if ctx.display_path.is_empty() {
            path.display().to_string()
        } else {
            ctx.display_path.clone()
        };
        read_file(path, &display, evidence)
    }
}

/// Reads one CodeBuddy file (a session, a sub-agent, or a meta file or persisted
/// output whose session is gone) into rows, with `display` as its `source_file`. A path that [`locate`] does
/// not recognise is read as a main session named by its file stem.
pub fn read_file(path: &Path, display: &str, evidence: &Evidence) -> Vec<Row> {
    let loc = locate(path).unwrap_or_else(|| Location {
        kind: FileKind::Session,
        home: String::new(),
        project_dir: String::new(),
        session_id: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        agent_id: None,
    });
    match loc.kind {
        FileKind::Session | FileKind::Subagent => read_session(path, &loc, display, evidence),
        FileKind::ToolResult => read_orphan_tool_result(path, &loc, display, evidence),
        FileKind::SessionMeta | FileKind::SubagentMeta => {
            read_orphan_meta(path, &loc, display, evidence)
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The project folder (`projects/<mangled-cwd>`) of a session or sub-agent file.
fn project_folder(path: &Path, kind: FileKind) -> PathBuf {
    let up = match kind {
        FileKind::Session | FileKind::SessionMeta => 1,
        FileKind::Subagent | FileKind::SubagentMeta | FileKind::ToolResult => 3,
    };
    let mut p = path;
    for _ in 0..up {
        p = p.parent().unwrap_or(p);
    }
    p.to_path_buf()
}

fn read_session(path: &Path, loc: &Location, display: &str, evidence: &Evidence) -> Vec<Row> {
    let log = match SessionLog::from_path(path, evidence) {
        Ok(log) => log,
        Err(e) => {
            // say the path as the responder sees it
            let e = match e {
                Error::Io { reason, .. } => Error::Io {
                    path: PathBuf::from(display),
                    reason,
                },
                other => other,
            };
            return vec![
                Row::system(AGENT, system::parser(&e))
                    .session(loc.session_id.clone())
                    .file(display),
            ];
        }
    };
    let subagent = loc.kind == FileKind::Subagent;
    let fallback = loc
        .agent_id
        .clone()
        .unwrap_or_else(|| loc.session_id.clone());
    let index = LogIndex::build(&log);
    let session_id = index.session_id(&fallback, subagent);
    let first_time = index.first_time();
    let first_cwd = index.first_cwd().to_string();
    let mut out = Vec::new();

    // the meta side file: the sub-agent's link to its parent, or the session's meta
    let meta_name = match &loc.agent_id {
        Some(agent) => format!("{agent}.meta.json"),
        None => format!("{}.meta.json", loc.session_id),
    };
    let meta_path = locate::sibling(path, &meta_name);
    let meta_display = locate::sibling_display(display, &meta_name);
    let header = |text: String, file: &str| {
        Row::system(AGENT, text)
            .at(first_time)
            .session(session_id.clone())
            .project(first_cwd.clone())
            .file(file)
    };
    let meta = read_meta(&meta_path, &meta_display, evidence);
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
                header(
                    system::session_start(&[
                        ("parent", &loc.session_id),
                        ("agent_file", agent),
                        ("parent_from", "path"),
                    ]),
                    display,
                )
                .locator("path"),
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

    let folder = project_folder(path, loc.kind);
    let resolved = std::cell::RefCell::new(std::collections::HashSet::new());
    let lookup = |p: &PersistedPointer| {
        resolved.borrow_mut().insert(p.relative.clone());
        let file = p
            .relative
            .split('/')
            .fold(folder.clone(), |acc, c| acc.join(c));
        match evidence.read_optional(&file) {
            Ok(Some(bytes)) => Persisted::Found {
                text: String::from_utf8_lossy(&bytes).into_owned(),
            },
            Ok(None) => Persisted::Missing {
                reason: "not in the evidence".to_string(),
            },
            Err(e) => Persisted::Missing {
                reason: e.to_string(),
            },
        }
    };
    let opts = MapOptions {
        source_file: display,
        session_id: &fallback,
        subagent,
        folder_session_id: &loc.session_id,
        persisted: &lookup,
    };
    out.extend(session_rows_with(&log, &index, &opts));
    if !subagent {
        // persisted outputs no readable line points to: a damaged pointer line, or a
        // sub-agent's output (read again here, since only its own file points to it)
        let dir = folder.join(&loc.session_id).join("tool-results");
        let resolved = resolved.into_inner();
        for name in list_files(&dir) {
            let rel = format!("{}/tool-results/{name}", loc.session_id);
            if resolved.contains(&rel) {
                continue;
            }
            let file_display = locate::sibling_display(display, &rel);
            let call_id = name.split('.').next().unwrap_or("");
            let tool = index.tool_name(call_id);
            let mut rows = tool_result_rows(
                &dir.join(&name),
                &name,
                &file_display,
                evidence,
                &session_id,
                &first_cwd,
                tool,
            );
            rows.push(
                Row::system(
                    AGENT,
                    format!("persisted output {rel} is not pointed to by any readable line of the session file"),
                )
                .tool(tool.unwrap_or(""), call_id)
                .session(session_id.clone())
                .project(first_cwd.clone())
                .file(&file_display)
                .locator("path"),
            );
            out.extend(rows);
        }
    }
    out
}

/// The names of the plain files in `dir`, sorted (none when it does not exist).
fn list_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A persisted output read on its own: one `tool_result` row (the call id is the file's
/// stem, as CodeBuddy names them), or a `parser:` row when it cannot be read.
fn tool_result_rows(
    path: &Path,
    name: &str,
    display: &str,
    evidence: &Evidence,
    session_id: &str,
    cwd: &str,
    tool: Option<&str>,
) -> Vec<Row> {
    let call_id = name.split('.').next().unwrap_or(name);
    match evidence.read(path) {
        Ok(bytes) => vec![
            Row::new(
                AGENT,
                TurnType::ToolResult,
                String::from_utf8_lossy(&bytes).into_owned(),
            )
            .tool(tool.unwrap_or(""), call_id)
            .session(session_id)
            .project(cwd)
            .file(display)
            .locator("whole file"),
        ],
        Err(e) => vec![
            Row::system(
                AGENT,
                system::parser(Error::Io {
                    path: PathBuf::from(display),
                    reason: e.to_string(),
                }),
            )
            .session(session_id)
            .project(cwd)
            .file(display),
        ],
    }
}

/// A persisted output is read with its session; alone (its session file gone) it is read here.
fn read_orphan_tool_result(
    path: &Path,
    loc: &Location,
    display: &str,
    evidence: &Evidence,
) -> Vec<Row> {
    let session_file = format!("{}.jsonl", loc.session_id);
    let folder = project_folder(path, loc.kind);
    if folder.join(&session_file).exists() {
        return Vec::new();
    }
    let name = file_name(path);
    let mut out = tool_result_rows(path, &name, display, evidence, &loc.session_id, "", None);
    out.push(
        Row::system(
            AGENT,
            format!("session file missing: {session_file} (only its persisted tool output {name} remains)"),
        )
        .session(loc.session_id.clone())
        .file(display)
        .locator("path"),
    );
    out
}

/// Reads a meta side file: `None` when absent, `Err(row)` for a `parser:` row.
fn read_meta(
    path: &Path,
    display: &str,
    evidence: &Evidence,
) -> Option<Result<Map<String, Value>, Row>> {
    match evidence.read_optional(path) {
        Ok(None) => None,
        Ok(Some(bytes)) => Some(decode::meta_object(&bytes, path).map_err(|e| {
            let reason = match e {
                Error::Sidecar { reason, .. } => reason,
                other => other.to_string(),
            };
            Row::system(
                AGENT,
                system::not_json_object_because(file_name(path), reason),
            )
            .file(display)
            .locator("whole file")
        })),
        Err(e) => Some(Err(Row::system(
            AGENT,
            system::parser(Error::Io {
                path: PathBuf::from(display),
                reason: e.to_string(),
            }),
        )
        .file(display))),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A meta object's top-level fields as `key=value` pairs, sorted by key.
fn flatten(map: &Map<String, Value>) -> String {
    let pairs: Vec<(String, String)> = map.iter().map(|(k, v)| (k.clone(), scalar(v))).collect();
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    key_values(&refs)
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

/// A meta file is read with its session; alone (its session file gone) it is read here.
fn read_orphan_meta(path: &Path, loc: &Location, display: &str, evidence: &Evidence) -> Vec<Row> {
    let stem = loc
        .agent_id
        .clone()
        .unwrap_or_else(|| loc.session_id.clone());
    let session_file = format!("{stem}.jsonl");
    if locate::sibling(path, &session_file).exists() {
        return Vec::new();
    }
    let mut out = Vec::new();
    match read_meta(path, display, evidence) {
        None => {}
        Some(Err(row)) => out.push(row.session(stem.clone())),
        Some(Ok(map)) => {
            let text = match loc.kind {
                FileKind::SubagentMeta => subagent_start(&map, &loc.session_id, &stem),
                _ => format!("session meta: {}", flatten(&map)),
            };
            out.push(
                Row::system(AGENT, text)
                    .session(stem.clone())
                    .file(display)
                    .locator("whole file"),
            );
        }
    }
    out.push(
        Row::new(
            AGENT,
            TurnType::System,
            format!("session file missing: {session_file} (only its meta file remains)"),
        )
        .session(stem)
        .file(display)
        .locator("path"),
    );
    out
}
