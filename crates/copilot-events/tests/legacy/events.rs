//! The one streaming reader of Copilot event logs: CLI `events.jsonl` and VS Code
//! transcripts.
//!
//! Why streaming with a little state: a CLI log can reach hundreds of megabytes, and a
//! responder's scan must not hold it as rows. Each line becomes its rows as it is read
//! and they go straight to the caller's sink. What cannot be decided on the line itself
//! is kept small and settled later:
//!
//! * a tool call is written twice, once in the assistant message's `toolRequests` and
//!   once as `tool.execution_start`; the request is held (not emitted) until its start
//!   arrives, and only requests never started come out at the end, with a `link:` row;
//! * a start waits for its `tool.execution_complete` by `toolCallId` (only the call's
//!   tool name is held), and calls that never complete get a `link:` row at the end;
//! * the model, permission mode and permission level are trackers;
//! * a resumed session re-emits old turns with their original times after its
//!   `session.start`; such lines are recognised by a time earlier than the start's,
//!   their rows are marked secondary (the scanner merges them with the original turns
//!   when those are still in the file, keeps them when they are not), and the run is
//!   announced by one `transcript replay:` row when it ends;
//! * tool-call id prefixes are remembered by family, for the `model family inferred:`
//!   rows of a log that names no model at all.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use chat_rows::lines::{BadLine, Line, lines};
use chat_rows::system::{self, ChangeTracker, ModelSpec, Usage};
use chat_rows::{RecordState, Row, Timestamp, TurnType};
use serde_json::Value;

use super::decode::{self, Event, compact_json, cut, raw_text, scalar};

/// The crate's texts as this reader called them, as owned strings (the crate now
/// writes some of them only into a buffer).
mod texts {
    pub use copilot_events::texts::*;

    fn owned(write: impl FnOnce(&mut String)) -> String {
        let mut out = String::new();
        write(&mut out);
        out
    }

    pub fn autopilot_continuation(content: &str) -> String {
        owned(|o| autopilot_continuation_into(o, content))
    }

    pub fn encrypted_reasoning(bytes: usize) -> String {
        owned(|o| encrypted_reasoning_into(o, bytes))
    }

    pub fn link_never_started(id: &str) -> String {
        owned(|o| link_never_started_into(o, id))
    }

    pub fn link_no_result(id: &str) -> String {
        owned(|o| link_no_result_into(o, id))
    }

    pub fn link_no_call(id: &str) -> String {
        owned(|o| link_no_call_into(o, id))
    }

    pub fn tool_exit_code(code: i64) -> String {
        owned(|o| tool_exit_code_into(o, code))
    }

    pub fn tool_failed(code: &str) -> String {
        owned(|o| tool_failed_into(o, code))
    }
}

/// How a log is read: what the path and side files say.
#[derive(Clone, Debug, Default)]
pub struct Options<'a> {
    /// The agent of every row: `copilot` for the CLI, the editor's product for transcripts.
    pub agent: &'a str,
    /// The session id when the log does not name one (the folder or file name).
    pub fallback_session: &'a str,
    /// The project path when the log does not name one (`workspace.yaml` `cwd`, or the
    /// workspace's `workspace.json` folder).
    pub project: &'a str,
    /// The git branch when the log does not name one (`workspace.yaml`).
    pub branch: &'a str,
    /// True when every row of the file is secondary (a transcript whose workspace holds
    /// the same session's `chatSessions` log).
    pub secondary: bool,
}

/// Every event type the Parser plan names; others are `unknown record type` rows.
const KNOWN: &[&str] = &[
    "session.start",
    "session.resume",
    "session.info",
    "session.warning",
    "session.error",
    "session.model_change",
    "session.mode_changed",
    "session.permissions_changed",
    "session.context_changed",
    "session.handoff",
    "session.truncation",
    "session.context_cleared",
    "session.usage_checkpoint",
    "session.shutdown",
    "session.binary_asset",
    "session.idle",
    "session.title_changed",
    "session.usage_info",
    "session.snapshot_rewind",
    "session.autopilot_objective_changed",
    "session.session_limits_changed",
    "session.plan_changed",
    "session.workspace_file_changed",
    "session.task_complete",
    "session.remote_steerable_changed",
    "session.auto_mode_resolved",
    "session.canvas.recorded",
    "session.canvas.removed",
    "user.message",
    "assistant.turn_start",
    "assistant.turn_end",
    "assistant.message",
    "assistant.reasoning",
    "assistant.usage",
    "abort",
    "system.message",
    "system.notification",
    "tool.user_requested",
    "tool.execution_start",
    "tool.execution_complete",
    "tool.execution_partial_result",
    "tool.execution_progress",
    "tool_search.activated",
    "skill.invoked",
    "hook.start",
    "hook.end",
    "permission.requested",
    "permission.completed",
    "model.call_failure",
];

fn known(kind: &str) -> bool {
    KNOWN.contains(&kind)
        || [
            "session.compaction_",
            "session.schedule_",
            "subagent.",
            "hook.",
            "external_tool.",
            "user_input.",
            "elicitation.",
            "mcp.oauth_",
        ]
        .iter()
        .any(|p| kind.starts_with(p))
        || kind.ends_with("_delta")
}

struct PendingRequest {
    row: Row,
    link: Row,
}

struct Started {
    tool: String,
    session: String,
}

/// The reader's state over one file. Feed it lines with [`EventReader::line`] and end
/// with [`EventReader::finish`]; [`read_events`] does both.
pub struct EventReader<'o> {
    opts: &'o Options<'o>,
    session: String,
    project: String,
    branch: String,
    turn_model: String,
    model_tracker: ChangeTracker<ModelSpec>,
    mode: ChangeTracker<String>,
    level: ChangeTracker<String>,
    any_model: bool,
    families: Vec<(&'static str, &'static str, Option<Timestamp>, u64, u64)>,
    requests: HashMap<String, PendingRequest>,
    started: HashMap<String, Started>,
    completed: HashSet<String>,
    reasoning: HashSet<u64>,
    subagents: HashSet<String>,
    start_time: Option<Timestamp>,
    replay: Option<(Timestamp, u64, u64, u64)>,
    /// Lines read, bad lines, rows given.
    pub counts: Counts,
}

/// What a read saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Non-blank lines.
    pub lines: u64,
    /// Lines that became a `parser:` row.
    pub bad_lines: u64,
    /// Lines recognised as a resumed session's replay.
    pub replayed: u64,
}

/// Reads a whole log, handing each row to `sink` as it is made.
pub fn read_events(bytes: &[u8], opts: &Options<'_>, sink: &mut dyn FnMut(Row)) -> Counts {
    let mut reader = EventReader::new(opts);
    for line in lines(bytes) {
        reader.line(&line, sink);
    }
    reader.finish(sink);
    reader.counts
}

/// The model family a tool-call id prefix names, with the prefix.
pub fn family_of(id: &str) -> Option<(&'static str, &'static str)> {
    for p in ["toolu_vrtx_", "toolu_bdrk_", "tooluse_", "toolu_"] {
        if id.starts_with(p) {
            return Some(("Anthropic", p));
        }
    }
    id.starts_with("call_").then_some(("OpenAI", "call_"))
}

fn s<'c>(c: &'c Option<std::borrow::Cow<'_, str>>) -> &'c str {
    c.as_deref().unwrap_or("")
}

fn quoted(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Appends ` key=value` when `value` is not empty (`quote`: always JSON-quoted).
fn kv(out: &mut String, key: &str, value: &str, quote: bool) {
    if value.is_empty() {
        return;
    }
    out.push(' ');
    out.push_str(key);
    out.push('=');
    if quote || value.contains([' ', '=', '"', '\n', '\t']) {
        out.push_str(&quoted(value));
    } else {
        out.push_str(value);
    }
}

fn num(v: Option<i64>) -> String {
    v.map(|n| n.to_string()).unwrap_or_default()
}

impl<'o> EventReader<'o> {
    /// A reader with the file's options.
    pub fn new(opts: &'o Options<'o>) -> EventReader<'o> {
        EventReader {
            opts,
            session: opts.fallback_session.to_string(),
            project: opts.project.to_string(),
            branch: opts.branch.to_string(),
            turn_model: String::new(),
            model_tracker: ChangeTracker::model(),
            mode: system::permission_mode_tracker(),
            level: system::permission_level_tracker(),
            any_model: false,
            families: Vec::new(),
            requests: HashMap::new(),
            started: HashMap::new(),
            completed: HashSet::new(),
            reasoning: HashSet::new(),
            subagents: HashSet::new(),
            start_time: None,
            replay: None,
            counts: Counts::default(),
        }
    }

    fn row(
        &self,
        session: &str,
        turn: TurnType,
        text: String,
        at: Option<Timestamp>,
        line: &Line<'_>,
        replayed: bool,
    ) -> Row {
        let mut r = Row::new(self.opts.agent, turn, text)
            .at(at)
            .session(session)
            .project(self.project.clone())
            .branch(self.branch.clone())
            .line(line.number)
            .locator(line.locator());
        if self.opts.secondary || replayed {
            r = r.state(RecordState::Secondary);
        }
        r
    }

    /// Reads one line.
    pub fn line(&mut self, line: &Line<'_>, sink: &mut dyn FnMut(Row)) {
        self.counts.lines += 1;
        match decode::event(line.bytes) {
            Ok(ev) => self.event(&ev, line, sink),
            Err(e) => {
                let repaired = chat_rows::json::repair_lone_surrogates(line.bytes);
                if let std::borrow::Cow::Owned(fixed) = &repaired {
                    if let Ok(ev) = decode::event(fixed) {
                        self.event(&ev, line, sink);
                        return;
                    }
                }
                self.bad(line, &e, sink);
            }
        }
    }

    fn bad(&mut self, line: &Line<'_>, e: &serde_json::Error, sink: &mut dyn FnMut(Row)) {
        // valid JSON of another shape: say what did not fit, and keep the data
        if e.classify() == serde_json::error::Category::Data {
            if let Ok(Value::Object(map)) = chat_rows::json::from_slice::<Value>(line.bytes) {
                let kind = map.get("type").map(scalar).unwrap_or_default();
                let data = map
                    .get("data")
                    .map(|d| {
                        // never the bytes of a binary asset
                        let mut d = d.clone();
                        copilot_events::decode::leave_out_asset_data(&kind, &mut d);
                        d.to_string()
                    })
                    .unwrap_or_default();
                let at = map.get("timestamp").and_then(decode::time_of);
                let session = self.session.clone();
                self.counts.bad_lines += 1;
                sink(self.row(
                    &session,
                    TurnType::System,
                    texts::session_event(&kind, &data),
                    at,
                    line,
                    false,
                ));
                let err = super::decode::Error::Shape {
                    event_type: kind,
                    offset: line.offset,
                    reason: e.to_string(),
                };
                sink(self.row(
                    &session,
                    TurnType::System,
                    system::parser(err),
                    at,
                    line,
                    false,
                ));
                return;
            }
        }
        self.counts.bad_lines += 1;
        let bad = match line.text() {
            Err(u) => BadLine::from_utf8_error(line, &u),
            Ok(_) => {
                let mut b = BadLine::from_json_error(line, e);
                if e.classify() == serde_json::error::Category::Data {
                    b.reason = format!("not an event object: {e}");
                }
                b
            }
        };
        let mut row = bad.row(self.opts.agent, "");
        row.session_id.clone_from(&self.session);
        row.project_path.clone_from(&self.project);
        sink(row);
    }

    fn note_family(&mut self, id: &str, at: Option<Timestamp>, line: &Line<'_>) {
        if let Some((family, prefix)) = family_of(id) {
            if !self.families.iter().any(|f| f.0 == family) {
                self.families
                    .push((family, prefix, at, line.number, line.offset));
            }
        }
    }

    fn end_replay(&mut self, sink: &mut dyn FnMut(Row)) {
        if let Some((at, n, number, offset)) = self.replay.take() {
            let mut r = Row::system(self.opts.agent, texts::transcript_replay(n, at))
                .at(Some(at))
                .session(self.session.clone())
                .project(self.project.clone())
                .branch(self.branch.clone())
                .line(number)
                .locator(format!("byte {offset}"));
            if self.opts.secondary {
                r = r.state(RecordState::Secondary);
            }
            sink(r);
        }
    }

    fn event(&mut self, ev: &Event<'_>, line: &Line<'_>, sink: &mut dyn FnMut(Row)) {
        let at = ev.timestamp.as_deref().and_then(decode::time_text);
        let kind = ev.kind.as_ref();
        let d = &ev.data;
        // a resumed session's replay: lines after a start with an earlier time
        let mut replayed = false;
        if kind != "session.start" && kind != "session.resume" {
            if let (Some(start), Some(t)) = (self.start_time, at) {
                if t < start {
                    replayed = true;
                    self.counts.replayed += 1;
                    match &mut self.replay {
                        Some(r) => r.1 += 1,
                        None => self.replay = Some((start, 1, line.number, line.offset)),
                    }
                }
            }
        }
        if !replayed {
            self.end_replay(sink);
        }
        let session = match ev.agent_id.as_deref() {
            Some(a) if !a.is_empty() => format!("{}:{a}", self.session),
            _ => self.session.clone(),
        };
        let mut out: Vec<Row> = Vec::new();
        let mut push = |me: &Self, turn: TurnType, text: String| {
            out.push(me.row(&session, turn, text, at, line, replayed));
        };
        if let Some(a) = ev.agent_id.as_deref().filter(|a| !a.is_empty()) {
            if self.subagents.insert(a.to_string()) {
                push(
                    self,
                    TurnType::System,
                    system::session_start(&[("parent", &self.session), ("agent_id", a)]),
                );
            }
        }
        match kind {
            "session.start" => {
                if let Some(sid) = d.session_id.as_deref().filter(|x| !x.is_empty()) {
                    self.session = sid.to_string();
                }
                if let Some(c) = &d.context {
                    if let Some(cwd) = c.cwd.as_deref().filter(|x| !x.is_empty()) {
                        self.project = cwd.to_string();
                    }
                    if let Some(b) = c.branch.as_deref().filter(|x| !x.is_empty()) {
                        self.branch = b.to_string();
                    }
                }
                self.start_time = at;
                let c = d.context.as_ref();
                let repo = c
                    .and_then(|c| c.repository.as_ref())
                    .map(scalar)
                    .unwrap_or_default();
                let text = system::session_start(&[
                    ("copilot", s(&d.copilot_version)),
                    ("vscode", s(&d.vscode_version)),
                    ("cwd", c.map(|c| s(&c.cwd)).unwrap_or("")),
                    ("git_root", c.map(|c| s(&c.git_root)).unwrap_or("")),
                    ("repository", &repo),
                    ("branch", c.map(|c| s(&c.branch)).unwrap_or("")),
                    ("selected_model", s(&d.selected_model)),
                    (
                        "started",
                        d.start_time.as_ref().map(|t| t.0.as_ref()).unwrap_or(""),
                    ),
                ]);
                let session = self.session.clone();
                out.push(self.row(&session, TurnType::System, text, at, line, false));
                if let Some(m) = d.selected_model.as_deref().filter(|m| !m.is_empty()) {
                    self.any_model = true;
                    if m != "auto" {
                        if let Some(t) = self.model_tracker.observe(ModelSpec::new(m)) {
                            out.push(self.row(&session, TurnType::System, t, at, line, false));
                        }
                    }
                }
            }
            "session.resume" => {
                self.start_time = at;
                let n = num(d.event_count);
                push(
                    self,
                    TurnType::System,
                    system::session_start(&[("resumed", "true"), ("events", &n)]),
                );
            }
            "user.message" => {
                self.reasoning.clear();
                if let Some(m) = d.agent_mode.as_deref().filter(|m| !m.is_empty()) {
                    if let Some(t) = self.mode.observe(m.to_string()) {
                        push(self, TurnType::System, t);
                    }
                }
                let mut text = s(&d.content).to_string();
                for a in d.attachments.iter().flatten() {
                    let path = a
                        .path
                        .as_deref()
                        .or(a.file_path.as_deref())
                        .or(a.display_name.as_deref())
                        .unwrap_or("");
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&format!("[attachment {} {path}]", s(&a.kind)));
                }
                if d.is_autopilot_continuation == Some(true) {
                    push(self, TurnType::System, texts::autopilot_continuation(&text));
                } else {
                    push(self, TurnType::User, text);
                }
            }
            "assistant.turn_start" => {
                self.reasoning.clear();
                self.turn_model = s(&d.model).to_string();
                if !self.turn_model.is_empty() {
                    self.any_model = true;
                }
            }
            "assistant.turn_end" => {}
            "assistant.reasoning" => {
                if let Some(c) = d.content.as_deref().filter(|c| !c.is_empty()) {
                    if self.new_reasoning(c) {
                        push(self, TurnType::Thinking, c.to_string());
                    }
                }
            }
            "assistant.message" => {
                let model = d
                    .model
                    .as_deref()
                    .filter(|m| !m.is_empty())
                    .unwrap_or(&self.turn_model)
                    .to_string();
                if !model.is_empty() {
                    self.any_model = true;
                }
                // the model column is never the route `auto` (audit item 6, as the new
                // reader): the message's model, else the turn's, else empty
                let model = match d.model.as_deref().filter(|m| !m.is_empty() && *m != "auto") {
                    Some(m) => m.to_string(),
                    None if self.turn_model != "auto" => self.turn_model.clone(),
                    None => String::new(),
                };
                match d.reasoning_text.as_deref().filter(|r| !r.is_empty()) {
                    Some(r) => {
                        if self.new_reasoning(r) {
                            let mut row = self.row(
                                &session,
                                TurnType::Thinking,
                                r.to_string(),
                                at,
                                line,
                                replayed,
                            );
                            row.model.clone_from(&model);
                            out.push(row);
                        }
                    }
                    None => {
                        // encrypted only per turn (audit item 8, as the new reader)
                        if let Some(enc) = d
                            .encrypted_content
                            .as_deref()
                            .filter(|e| !e.is_empty() && self.reasoning.is_empty())
                        {
                            let mut row = self.row(
                                &session,
                                TurnType::Thinking,
                                texts::encrypted_reasoning(enc.len()),
                                at,
                                line,
                                replayed,
                            );
                            row.model.clone_from(&model);
                            out.push(row);
                        }
                    }
                }
                if let Some(c) = d.content.as_deref().filter(|c| !c.is_empty()) {
                    let mut row = self.row(
                        &session,
                        TurnType::Assistant,
                        c.to_string(),
                        at,
                        line,
                        replayed,
                    );
                    row.model = model;
                    out.push(row);
                }
                for tr in d.tool_requests.iter().flatten() {
                    let id = tr.tool_call_id.as_deref().unwrap_or("").to_string();
                    self.note_family(&id, at, line);
                    if id.is_empty()
                        || self.started.contains_key(&id)
                        || self.completed.contains(&id)
                    {
                        if id.is_empty() {
                            let text = tr.arguments.map(raw_text).unwrap_or_default();
                            out.push(
                                self.row(&session, TurnType::ToolUse, text, at, line, replayed)
                                    .tool(s(&tr.name), ""),
                            );
                        }
                        continue;
                    }
                    let text = tr.arguments.map(raw_text).unwrap_or_default();
                    let row = self
                        .row(&session, TurnType::ToolUse, text, at, line, replayed)
                        .tool(s(&tr.name), id.clone());
                    let link = self
                        .row(
                            &session,
                            TurnType::System,
                            texts::link_never_started(&id),
                            at,
                            line,
                            replayed,
                        )
                        .tool(s(&tr.name), id.clone());
                    self.requests
                        .entry(id)
                        .or_insert(PendingRequest { row, link });
                }
            }
            "tool.execution_start" | "tool.user_requested" => {
                let id = s(&d.tool_call_id).to_string();
                self.note_family(&id, at, line);
                let requested = if id.is_empty() {
                    None
                } else {
                    self.requests.remove(&id)
                };
                let name = match (d.mcp_server_name.as_deref(), d.mcp_tool_name.as_deref()) {
                    (Some(srv), Some(t)) if !srv.is_empty() => format!("{srv}/{t}"),
                    _ => d
                        .tool_name
                        .as_deref()
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                        .or_else(|| requested.as_ref().map(|r| r.row.tool_name.clone()))
                        .unwrap_or_default(),
                };
                if !id.is_empty()
                    && (self.started.contains_key(&id) || self.completed.contains(&id))
                {
                    // the same call written again: it appears once
                } else {
                    let text = d
                        .shell_tool_info
                        .as_ref()
                        .and_then(|i| i.display_command.as_deref())
                        .filter(|c| !c.is_empty())
                        .map(str::to_string)
                        .or_else(|| d.arguments.map(raw_text))
                        .unwrap_or_default();
                    out.push(
                        self.row(&session, TurnType::ToolUse, text, at, line, replayed)
                            .tool(name.clone(), id.clone()),
                    );
                    if kind == "tool.user_requested" {
                        out.push(
                            self.row(
                                &session,
                                TurnType::System,
                                texts::tool_requested_by_user(&name),
                                at,
                                line,
                                replayed,
                            )
                            .tool(name.clone(), id.clone()),
                        );
                    }
                    if !id.is_empty() {
                        self.started.insert(
                            id,
                            Started {
                                tool: name,
                                session: session.clone(),
                            },
                        );
                    }
                }
            }
            "tool.execution_complete" => {
                let id = s(&d.tool_call_id).to_string();
                let tool = match self.started.remove(&id) {
                    Some(st) => Some(st.tool),
                    None => match self.requests.remove(&id) {
                        // requested, never started, but completed: the request is the call
                        Some(req) => {
                            let t = req.row.tool_name.clone();
                            out.push(req.row);
                            Some(t)
                        }
                        None => None,
                    },
                };
                let fresh = !id.is_empty() && self.completed.insert(id.clone());
                if id.is_empty() || fresh || tool.is_some() {
                    let name = tool.clone().unwrap_or_default();
                    let result = d.result.as_ref();
                    let content = result
                        .and_then(|r| r.content.as_ref())
                        .map(|c| c.0.to_string())
                        .filter(|c| !c.is_empty());
                    let err_msg = d.error.as_ref().map(|e| match e {
                        Value::Object(m) => m.get("message").map(scalar).unwrap_or_default(),
                        other => scalar(other),
                    });
                    let text = match (&content, &err_msg) {
                        (Some(c), _) => c.clone(),
                        (None, Some(m)) => format!("[error] {m}"),
                        (None, None) => String::new(),
                    };
                    out.push(
                        self.row(&session, TurnType::ToolResult, text, at, line, replayed)
                            .tool(name.clone(), id.clone()),
                    );
                    let exit = result
                        .and_then(|r| {
                            r.contents.iter().flatten().find_map(|c| {
                                matches!(c.kind.as_deref(), Some("terminal" | "shell_exit"))
                                    .then_some(c.exit_code)
                                    .flatten()
                            })
                        })
                        .or_else(|| {
                            result
                                .and_then(|r| r.shell_execution.as_ref())
                                .and_then(|x| x.exit_code)
                        })
                        .or_else(|| d.shell_execution.as_ref().and_then(|x| x.exit_code));
                    if let Some(code) = exit {
                        out.push(
                            self.row(
                                &session,
                                TurnType::System,
                                texts::tool_exit_code(code),
                                at,
                                line,
                                replayed,
                            )
                            .tool(name.clone(), id.clone()),
                        );
                    }
                    if d.success == Some(false) {
                        let code = match &d.error {
                            Some(Value::Object(m)) => m.get("code").map(scalar).unwrap_or_default(),
                            _ => String::new(),
                        };
                        out.push(
                            self.row(
                                &session,
                                TurnType::System,
                                texts::tool_failed(&code),
                                at,
                                line,
                                replayed,
                            )
                            .tool(name.clone(), id.clone()),
                        );
                    }
                    if let Some(detail) = result
                        .and_then(|r| r.detailed_content.as_deref())
                        .filter(|x| !x.is_empty())
                    {
                        if content.as_deref() != Some(detail) {
                            out.push(
                                self.row(
                                    &session,
                                    TurnType::System,
                                    format!("tool detail: {detail}"),
                                    at,
                                    line,
                                    replayed,
                                )
                                .tool(name.clone(), id.clone()),
                            );
                        }
                    }
                    if tool.is_none() && !id.is_empty() {
                        out.push(
                            self.row(
                                &session,
                                TurnType::System,
                                texts::link_no_call(&id),
                                at,
                                line,
                                replayed,
                            )
                            .tool("", id.clone()),
                        );
                    }
                }
            }
            "session.model_change" => {
                let new = s(&d.new_model);
                let mut opts = Vec::new();
                if let Some(e) = d.reasoning_effort.as_deref().filter(|e| !e.is_empty()) {
                    opts.push(("reasoning_effort".to_string(), e.to_string()));
                }
                if let Some(src) = d.source.as_ref().filter(|x| !x.0.is_empty()) {
                    opts.push(("source".to_string(), src.0.to_string()));
                }
                let spec = ModelSpec::with_options(new, opts);
                let old = d
                    .previous_model
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .or_else(|| self.model_tracker.last().map(|m| m.id.clone()));
                self.any_model = true;
                let text = match old {
                    Some(old) => system::model_change(old, &spec),
                    None => system::model(&spec),
                };
                self.model_tracker.observe(spec);
                push(self, TurnType::System, text);
            }
            "session.mode_changed" => {
                if self.mode.last().is_none() {
                    if let Some(p) = d.previous_mode.as_deref().filter(|p| !p.is_empty()) {
                        self.mode.observe(p.to_string());
                    }
                }
                if let Some(t) = self.mode.observe(s(&d.new_mode).to_string()) {
                    push(self, TurnType::System, t);
                }
            }
            "session.permissions_changed" => {
                if self.level.last().is_none() {
                    if let Some(p) = d.previous_mode.as_deref().filter(|p| !p.is_empty()) {
                        self.level.observe(p.to_string());
                    }
                }
                let new = d.mode.as_deref().or(d.new_mode.as_deref()).unwrap_or("");
                if let Some(t) = self.level.observe(new.to_string()) {
                    push(self, TurnType::System, t);
                }
            }
            "permission.requested" => {
                let pr = d.permission_request.as_ref();
                let empty = decode::PermissionRequest::default();
                let p = pr.unwrap_or(&empty);
                let mut text = format!("requested kind={}", s(&p.kind));
                kv(&mut text, "request", s(&d.request_id), false);
                kv(&mut text, "intention", s(&p.intention), true);
                kv(&mut text, "command", s(&p.full_command_text), true);
                kv(&mut text, "file", s(&p.file_name), false);
                kv(&mut text, "path", s(&p.path), false);
                kv(&mut text, "url", s(&p.url), false);
                kv(&mut text, "server", s(&p.server_name), false);
                kv(&mut text, "tool", s(&p.tool_name), false);
                let call = pr
                    .and_then(|p| p.tool_call_id.as_deref())
                    .or(d.tool_call_id.as_deref())
                    .unwrap_or("");
                out.push(
                    self.row(
                        &session,
                        TurnType::System,
                        system::permission_decision(text),
                        at,
                        line,
                        replayed,
                    )
                    .tool("", call),
                );
            }
            "permission.completed" => {
                let r = d.result.as_ref();
                let mut text = r.map(|r| s(&r.kind)).unwrap_or("").to_string();
                kv(&mut text, "request", s(&d.request_id), false);
                if let Some(r) = r {
                    kv(&mut text, "location", s(&r.location_key), false);
                    let rules: Vec<String> = r
                        .rules
                        .iter()
                        .flatten()
                        .map(|rule| match rule {
                            Value::Object(m) => {
                                let k = m.get("kind").map(scalar).unwrap_or_default();
                                match m.get("argument").map(scalar).filter(|a| !a.is_empty()) {
                                    Some(a) => format!("{k}({a})"),
                                    None => k,
                                }
                            }
                            other => scalar(other),
                        })
                        .collect();
                    kv(&mut text, "rules", &rules.join(","), false);
                    kv(&mut text, "feedback", s(&r.feedback), true);
                }
                let text = text.trim_start().to_string();
                out.push(
                    self.row(
                        &session,
                        TurnType::System,
                        system::permission_decision(text),
                        at,
                        line,
                        replayed,
                    )
                    .tool("", s(&d.tool_call_id)),
                );
            }
            "session.info" => {
                let it = s(&d.info_type);
                let text = if it == "folder_trust" {
                    system::permission_decision(format!("folder trust: {}", s(&d.message)))
                } else {
                    format!("session info: {it}: {}", s(&d.message))
                };
                push(self, TurnType::System, text);
            }
            "session.warning" => push(
                self,
                TurnType::System,
                format!("session warning: {}: {}", s(&d.warning_type), s(&d.message)),
            ),
            "session.error" => {
                let mut t = format!("session error: {}", s(&d.error_type));
                if let Some(n) = d.status_code {
                    t.push_str(&format!(" status={n}"));
                }
                t.push_str(&format!(": {}", s(&d.message)));
                push(self, TurnType::System, t);
            }
            "abort" => push(
                self,
                TurnType::System,
                format!("turn aborted: {}", s(&d.reason)),
            ),
            k if k.starts_with("session.compaction_") => {
                let phase = &k["session.compaction_".len()..];
                let mut t = format!("compaction: {phase}");
                if let Some(b) = d.success {
                    kv(&mut t, "success", &b.to_string(), false);
                }
                kv(
                    &mut t,
                    "checkpoint",
                    d.checkpoint_number
                        .as_ref()
                        .map(|c| c.0.as_ref())
                        .unwrap_or(""),
                    false,
                );
                kv(&mut t, "trigger", s(&d.trigger), false);
                push(self, TurnType::System, t);
                if let Some(sum) = d.summary_content.as_deref().filter(|x| !x.is_empty()) {
                    push(self, TurnType::System, format!("compaction summary: {sum}"));
                }
            }
            "session.truncation" => push(
                self,
                TurnType::System,
                format!(
                    "context truncation: removed_messages={} removed_tokens={}",
                    d.removed_messages
                        .map(|n| n.to_string())
                        .unwrap_or("-".into()),
                    d.removed_tokens
                        .map(|n| n.to_string())
                        .unwrap_or("-".into())
                ),
            ),
            "session.context_changed" => {
                let cwd = d
                    .cwd
                    .as_deref()
                    .or(d.context.as_ref().and_then(|c| c.cwd.as_deref()))
                    .unwrap_or("")
                    .to_string();
                let branch = d
                    .branch
                    .as_deref()
                    .or(d.context.as_ref().and_then(|c| c.branch.as_deref()))
                    .unwrap_or("")
                    .to_string();
                if !cwd.is_empty() {
                    self.project.clone_from(&cwd);
                }
                if !branch.is_empty() {
                    self.branch.clone_from(&branch);
                }
                let mut t = format!("cwd changed: {cwd}");
                kv(&mut t, "branch", &branch, false);
                let session = session.clone();
                out.push(self.row(&session, TurnType::System, t, at, line, replayed));
            }
            "session.context_cleared" => push(
                self,
                TurnType::System,
                format!(
                    "session cleared: messages={}",
                    d.message_count.map(|n| n.to_string()).unwrap_or("-".into())
                ),
            ),
            "session.handoff" => {
                let mut t = format!("session origin: handoff from {}", s(&d.source_type));
                kv(&mut t, "remote_session", s(&d.remote_session_id), false);
                let repo = d.repository.as_ref().map(scalar).unwrap_or_default();
                kv(&mut t, "repository", &repo, false);
                push(self, TurnType::System, t);
            }
            k if k.starts_with("subagent.") => {
                let phase = &k["subagent.".len()..];
                let mut t = match phase {
                    "started" | "completed" | "failed" => {
                        format!("subagent {phase}: agent={}", s(&d.agent_name))
                    }
                    _ => String::new(),
                };
                match phase {
                    "started" => {
                        kv(&mut t, "tool_call", s(&d.tool_call_id), false);
                        kv(&mut t, "model", s(&d.model), false);
                    }
                    "completed" => {
                        kv(&mut t, "duration_ms", &num(d.duration_ms), false);
                        kv(&mut t, "tokens", &num(d.total_tokens), false);
                    }
                    "failed" => {
                        let e = d.error.as_ref().map(|e| match e {
                            Value::Object(m) => m.get("message").map(scalar).unwrap_or_default(),
                            other => scalar(other),
                        });
                        kv(&mut t, "error", e.as_deref().unwrap_or(""), true);
                    }
                    _ => {}
                }
                if t.is_empty() {
                    let data = self.raw_data(line);
                    push(self, TurnType::System, texts::session_event(kind, &data));
                } else {
                    push(self, TurnType::System, t);
                }
            }
            "hook.end" => {
                let mut t = format!("hook: {}", s(&d.hook_type));
                kv(&mut t, "id", s(&d.hook_invocation_id), false);
                if let Some(b) = d.success {
                    kv(&mut t, "success", &b.to_string(), false);
                }
                let e = d.error.as_ref().map(|e| match e {
                    Value::Object(m) => m.get("message").map(scalar).unwrap_or_default(),
                    other => scalar(other),
                });
                kv(&mut t, "error", e.as_deref().unwrap_or(""), true);
                push(self, TurnType::System, t);
            }
            "skill.invoked" => {
                let mut t = format!("skill invoked: {}", s(&d.name));
                kv(&mut t, "path", s(&d.path), false);
                let src = d.source.as_ref().map(|x| x.0.as_ref()).unwrap_or("");
                kv(&mut t, "source", src, false);
                push(self, TurnType::System, t);
            }
            "system.message" => push(
                self,
                TurnType::System,
                format!("system message: {}: {}", s(&d.role), s(&d.content)),
            ),
            "system.notification" => push(
                self,
                TurnType::System,
                format!(
                    "system notification: {}: {}",
                    d.kind.as_ref().map(|k| k.0.as_ref()).unwrap_or(""),
                    s(&d.content)
                ),
            ),
            "session.shutdown" => {
                let mut t = "session end:".to_string();
                kv(&mut t, "type", s(&d.shutdown_type), false);
                kv(&mut t, "error", s(&d.error_reason), true);
                kv(&mut t, "current_model", s(&d.current_model), false);
                if let Some(cc) = &d.code_changes {
                    let files = match &cc.files_modified {
                        Some(Value::Array(a)) => a.len().to_string(),
                        Some(v) => scalar(v),
                        None => String::new(),
                    };
                    kv(&mut t, "files_modified", &files, false);
                    kv(&mut t, "lines_added", &num(cc.lines_added), false);
                    kv(&mut t, "lines_removed", &num(cc.lines_removed), false);
                }
                push(self, TurnType::System, t);
                for (model, m) in d.model_metrics.iter().flatten() {
                    let u = Usage {
                        model,
                        input: m.usage.input_tokens,
                        output: m.usage.output_tokens,
                        cache_read: m.usage.cache_read_tokens,
                        cache_write: m.usage.cache_write_tokens,
                        reasoning: m.usage.reasoning_tokens,
                        nano_aiu: m.total_nano_aiu,
                        requests: m.requests.as_ref().and_then(|r| r.count),
                        scope: "session",
                        ..Usage::default()
                    };
                    let mut row = self.row(
                        &session,
                        TurnType::System,
                        system::usage(&u),
                        at,
                        line,
                        replayed,
                    );
                    row.model = model.clone();
                    out.push(row);
                }
            }
            "assistant.usage" => {
                let model = s(&d.model).to_string();
                if !model.is_empty() {
                    self.any_model = true;
                }
                let u = Usage {
                    model: &model,
                    input: d.input_tokens,
                    output: d.output_tokens,
                    cache_read: d.cache_read_tokens,
                    cache_write: d.cache_creation_input_tokens,
                    nano_aiu: d.copilot_usage_nano_aiu,
                    scope: "call",
                    ..Usage::default()
                };
                let mut row = self
                    .row(
                        &session,
                        TurnType::System,
                        system::usage(&u),
                        at,
                        line,
                        replayed,
                    )
                    .tool("", s(&d.parent_tool_call_id));
                row.model = model;
                out.push(row);
            }
            "session.binary_asset" => {
                let n = match (d.size, d.data) {
                    (Some(n), _) => n.to_string(),
                    (None, Some(raw)) => {
                        // base64 text: 3 bytes per 4 characters, less the padding
                        let b = raw.get().trim_matches('"');
                        let pad = b.bytes().rev().take_while(|c| *c == b'=').count();
                        ((b.len() / 4) * 3).saturating_sub(pad).to_string()
                    }
                    (None, None) => "-".to_string(),
                };
                push(
                    self,
                    TurnType::System,
                    format!("binary asset: {}, {n} bytes", s(&d.mime_type)),
                );
            }
            k if known(k) => {
                let data = self.raw_data(line);
                push(self, TurnType::System, texts::session_event(k, &data));
            }
            k => {
                let text = format!(
                    "unknown record type {k}: {}",
                    system::quote_bytes(&line.bytes[..line.bytes.len().min(4096)])
                );
                let text = cut(&text, 400 + 30 + k.len()).to_string();
                push(self, TurnType::System, text);
            }
        }
        for r in out {
            sink(r);
        }
    }

    fn raw_data(&self, line: &Line<'_>) -> String {
        #[derive(serde::Deserialize)]
        struct Only<'a> {
            #[serde(borrow)]
            data: Option<&'a serde_json::value::RawValue>,
        }
        match serde_json::from_slice::<Only<'_>>(line.bytes) {
            Ok(Only { data: Some(raw) }) => compact_json(raw.get()),
            _ => String::new(),
        }
    }

    fn new_reasoning(&mut self, text: &str) -> bool {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        self.reasoning.insert(h.finish())
    }

    /// Ends the file: requests never started, calls without a result, the last replay
    /// run, and the inferred model families of a log that names no model.
    pub fn finish(&mut self, sink: &mut dyn FnMut(Row)) {
        self.end_replay(sink);
        let mut pending: Vec<PendingRequest> = self.requests.drain().map(|(_, p)| p).collect();
        pending.sort_by_key(|p| (p.row.source_line, p.row.tool_use_id.clone()));
        for p in pending {
            sink(p.row);
            sink(p.link);
        }
        let mut open: Vec<(String, Started)> = self.started.drain().collect();
        open.sort_by(|a, b| a.0.cmp(&b.0));
        for (id, st) in open {
            let mut r = Row::system(self.opts.agent, texts::link_no_result(&id))
                .session(st.session)
                .project(self.project.clone())
                .branch(self.branch.clone())
                .tool(st.tool, id)
                .locator("end of file");
            if self.opts.secondary {
                r = r.state(RecordState::Secondary);
            }
            sink(r);
        }
        if !self.any_model {
            for (family, prefix, at, number, offset) in std::mem::take(&mut self.families) {
                let mut r = Row::system(
                    self.opts.agent,
                    texts::model_family_inferred(family, prefix),
                )
                .at(at)
                .session(self.session.clone())
                .project(self.project.clone())
                .branch(self.branch.clone())
                .line(number)
                .locator(format!("byte {offset}"));
                if self.opts.secondary {
                    r = r.state(RecordState::Secondary);
                }
                sink(r);
            }
        }
    }
}
