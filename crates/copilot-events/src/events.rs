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
//!   arrives, and only requests never started come out, with a `link:` row: when their
//!   `tool.execution_complete` comes (a call completed without a start), else at the end;
//! * a start waits for its `tool.execution_complete` by `toolCallId` (only the call's
//!   tool name and where its line is are held), and calls that never complete get a
//!   `link:` row at the end, at the start's time and place;
//! * the model, permission mode and permission level are trackers;
//! * a resumed session re-emits old turns with their original times after its
//!   `session.start`; such lines are recognised by a time earlier than the start's,
//!   their rows are marked secondary (the scanner merges them with the original turns
//!   when those are still in the file, keeps them when they are not), and the run is
//!   announced by one `transcript replay:` row when it ends;
//! * tool-call id prefixes are remembered by family, for the `model family inferred:`
//!   rows of a log that names no model at all.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use chat_rows::lines::{BadLine, Line, LineReader, lines};
use chat_rows::system::{self, ChangeTracker, ModelSpec, Usage, push_u64};
use chat_rows::{RecordState, Row, RowSink, Timestamp, TurnType};
use serde_json::Value;

use crate::decode::{self, Data, Event, Str, compact_json_into, raw_text, scalar};
use crate::texts;

mod detail;
pub(crate) use detail::BOOKKEEPING;

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

/// A tool call requested in an assistant message and not started yet: what its
/// `tool_use` and `link:` rows need, made into rows only if it is never started (most
/// are started on a later line, and then nothing of it is kept).
struct PendingRequest {
    name: String,
    text: String,
    /// The model of the reply that asked for it (its own, else its turn's), for the
    /// call's `tool_use` row: the model that ran the command.
    model: String,
    /// The session, project and branch of its line ([`EventReader::places`]).
    place: usize,
    at: Option<Timestamp>,
    number: u64,
    offset: u64,
    replayed: bool,
}

/// Where a tool call stands.
enum Call {
    /// Requested in an assistant message, not started yet (boxed: every completed id
    /// stays in the map, and an entry is as large as its largest state).
    Requested(Box<PendingRequest>),
    /// Started, no result yet.
    Started(Started),
    /// Completed (its result read): the [`shown`] mark of its last `tool_use` row (a
    /// start's, or the request's when it completed never started).
    Completed(u64),
    /// A result read before any start or request of its id: its `link: tool result ...
    /// has no tool call` row is given at the end, unless a start or request of the id
    /// comes after it (a log written out of order), which is then the call's.
    Orphan(Orphan),
}

/// What a request's id is when the request is read.
enum Seen {
    New,
    Requested,
    Orphan,
    /// Started (or completed): the [`shown`] mark of its last `tool_use` row.
    Started(u64),
}

/// A result with no call yet: where its line is, for its `link:` row at the end.
struct Orphan {
    /// The session, project and branch of its line ([`EventReader::places`]).
    place: u32,
    /// Where its line is ([`EventReader::starts`]).
    start: u32,
}

/// What a start's `tool_use` row showed, as a mark (never 0): a start of the same id
/// written again with the same tool and text is the same call written twice, and gives
/// no row; one that shows another tool or text gives its own.
fn shown(tool: &str, text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    tool.hash(&mut h);
    text.hash(&mut h);
    h.finish() | 1
}

struct Started {
    tool: String,
    /// The session, project and branch of its line ([`EventReader::places`]).
    place: u32,
    /// Where its line is ([`EventReader::starts`]), for its `link: ... has no result`
    /// row (kept apart, and its slot reused once the call completes: every completed id
    /// stays in the map, and an entry is as large as its largest state).
    start: u32,
}

/// Where a started call's line is: the time, line number, offset and replay state its
/// `link: ... has no result` row takes.
#[derive(Clone, Copy)]
struct StartAt {
    /// [`shown`] of the call's last `tool_use` row (kept here, not in [`Started`]: every
    /// completed id stays in the map, and an entry is as large as its largest state).
    shown: u64,
    at: Option<Timestamp>,
    number: u64,
    offset: u64,
    replayed: bool,
}

/// Maps keyed by tool-call ids, with foldhash (seeded per process: the ids come from
/// the evidence) instead of SipHash.
type Ids<V> = HashMap<String, V, foldhash::fast::RandomState>;

/// Where the rows of the line being read come from.
#[derive(Clone, Copy)]
struct Cx {
    at: Option<Timestamp>,
    number: u64,
    offset: u64,
    secondary: bool,
}

/// The one row the reader lends to its sink, its buffers reused row after row: a row
/// costs copies of its texts, not allocations.
struct Out {
    row: Row,
    locator_of: Option<u64>,
}

/// `a == b`, with no call to libc's `memcmp` when both are empty. An empty `String`'s
/// pointer is the dangling address 1, and `==` still hands it to `memcmp` with a length
/// of 0; on this project's bench machine glibc's AVX-512 `memcmp` then took 135-140 ns
/// a call (its masked load at an unmapped address is suppressed in microcode), which
/// made a log with no project and no branch (every row compares both) read at a third
/// of its speed (`COPILOT_EVENTS_BENCH_ONLY=abort`: 331 → 1049 MB/s).
#[inline]
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.is_empty() || a == b)
}

fn set(buf: &mut String, v: &str) {
    buf.clear();
    buf.push_str(v);
}

impl Out {
    /// Fills the reused row with a line's fields and hands it back, to be lent to the
    /// sink (after whatever else the caller sets).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fill(
        &mut self,
        project: &str,
        branch: &str,
        session: &str,
        cx: &Cx,
        turn: TurnType,
        text: &str,
        model: &str,
        tool: &str,
        id: &str,
    ) -> &mut Row {
        let r = &mut self.row;
        r.timestamp = cx.at;
        // the session, project and branch rarely change from one row to the next
        if !same(&r.session_id, session) {
            set(&mut r.session_id, session);
        }
        if !same(&r.project_path, project) {
            set(&mut r.project_path, project);
        }
        if !same(&r.git_branch, branch) {
            set(&mut r.git_branch, branch);
        }
        r.turn_type = turn;
        set(&mut r.model, model);
        set(&mut r.tool_name, tool);
        set(&mut r.tool_use_id, id);
        set(&mut r.text, text);
        r.source_line = Some(cx.number);
        if self.locator_of != Some(cx.offset) {
            r.source_locator.clear();
            r.source_locator.push_str("byte ");
            push_u64(&mut r.source_locator, cx.offset);
            self.locator_of = Some(cx.offset);
        }
        if cx.secondary {
            r.record_state = RecordState::Secondary;
            r.secondary = true;
        } else {
            r.record_state = RecordState::Live;
            r.secondary = false;
        }
        r
    }
}

/// A `turn_start` line that named a model no row of its turn has shown yet (the model
/// column of a reply, a reasoning text, an abort or an error of the turn). A turn that
/// ends with none of those (or whose replies name another model) would otherwise leave
/// its model unread: the line gets its own `session event:` row when its turn ends,
/// another turn starts, or the file ends.
#[derive(Default)]
struct HeldTurn {
    /// Where the line is; `None` when no line is held.
    cx: Option<Cx>,
    session: String,
    project: String,
    branch: String,
    /// The model the line named.
    model: String,
    /// The line's `data`, compact.
    data: String,
}

/// One agent's turn: its `turn_start` model, that line while no row has shown the
/// model, and the reasoning texts given in the turn (each once).
#[derive(Default)]
struct Turn {
    model: String,
    held: HeldTurn,
    reasoning: HashSet<u64>,
    /// The agent's last line so far.
    seen: u64,
}

/// How many other agents' turns are kept at least: when twice as many are parked, all
/// but the ones whose lines came last are forgotten, their held starts given their rows
/// then. A real session has a few sub-agents; a log of a new agent a line would
/// otherwise keep a turn for each to its end (2.5 times the file in memory).
const PARKED_KEPT: usize = 1024;

impl Turn {
    fn is_empty(&self) -> bool {
        self.model.is_empty() && self.held.cx.is_none() && self.reasoning.is_empty()
    }
}

/// The reader's state over one file. Feed it lines with [`EventReader::line`] and end
/// with [`EventReader::finish`]; [`read_events`] does both.
pub struct EventReader<'o> {
    opts: &'o Options<'o>,
    session: String,
    project: String,
    branch: String,
    /// The turn of the agent whose line is being read.
    turn: Box<Turn>,
    /// That agent (empty for the main agent's lines).
    turn_agent: String,
    /// The turns of the other agents, while lines of another agent are read: a
    /// sub-agent's lines come between its parent's (with the envelope's `agentId`),
    /// and its turn is not its parent's.
    parked: Ids<Box<Turn>>,
    /// The model auto mode last chose (`session.auto_mode_resolved`'s `chosenModel`),
    /// until the next model change: the model of the replies after it that name none.
    auto_model: String,
    model_tracker: ChangeTracker<ModelSpec>,
    mode: ChangeTracker<String>,
    level: ChangeTracker<String>,
    any_model: bool,
    families: Vec<(&'static str, &'static str, Option<Timestamp>, u64, u64)>,
    /// Every tool-call id seen, with where its call stands: one map (one hash of the id
    /// per event, mostly) rather than a map each of requests, started calls and
    /// completed ids (an id is in one state at a time).
    calls: Ids<Call>,
    subagents: HashSet<String, foldhash::fast::RandomState>,
    /// The (session, project, branch) of the lines that gave held requests and calls,
    /// each kept once while it does not change (the last is the current one), so that a
    /// held call costs no copies of them.
    places: Vec<(String, String, String)>,
    /// Where the lines of the calls started and not completed are, by slot; the slots
    /// of completed calls are in `free_starts`, for the next start.
    starts: Vec<StartAt>,
    free_starts: Vec<u32>,
    start_time: Option<Timestamp>,
    replay: Option<(Timestamp, u64, u64, u64)>,
    /// The session of the line being read (`<session>:<agentId>` for a sub-agent's).
    line_session: String,
    /// The row lent to the sink.
    out: Out,
    /// Scratch text for rows built in pieces.
    text: String,
    /// Where the trackers write the texts of values recorded without a row.
    scratch: String,
    /// A mode or level change's printed fields when the line's own previous value or
    /// second name for the new one is not what its row shows: the rest goes to its
    /// detail row (set by the line's mapping, taken by its detail step).
    shown_only: Option<&'static [&'static [&'static str]]>,
    /// Fields the type prints but the line's row did not: a count the line names in
    /// two ways with two values (the row prints the first), for its detail row.
    not_shown: Vec<Path>,
    /// The tool of the line's call, for its detail row.
    tool_col: String,
    /// The day of the last event time read.
    day: decode::DayCache,
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

/// Reads a whole log, handing each row to `sink` as it is made (most are lent with
/// [`RowSink::lend`]: one row whose buffers are reused).
pub fn read_events(bytes: &[u8], opts: &Options<'_>, sink: &mut dyn RowSink) -> Counts {
    let mut reader = EventReader::new(opts);
    // one UTF-8 check of the whole log (a log is text, but one bad byte sends every
    // line back to a check of its own)
    let whole = simdutf8::basic::from_utf8(bytes).ok();
    for line in lines(bytes) {
        reader.line_of(&line, whole, sink);
    }
    reader.finish(sink);
    reader.counts
}

/// Reads a log a chunk at a time ([`LineReader`]: never held whole) as [`read_events`]
/// reads bytes at hand. A source that fails ends the read after the rows of the lines
/// before it (and the rows of what they left open); the failure is returned with the
/// counts, for the caller's `parser:` row.
pub fn read_event_lines(
    lines: &mut LineReader<'_>,
    opts: &Options<'_>,
    sink: &mut dyn RowSink,
) -> (Counts, std::io::Result<()>) {
    let mut reader = EventReader::new(opts);
    let mut failed = Ok(());
    while let Some(line) = lines.next_line() {
        match line {
            Ok(line) => reader.line_of(&line, None, sink),
            Err(e) => {
                failed = Err(e);
                break;
            }
        }
    }
    reader.finish(sink);
    (reader.counts, failed)
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

fn s<'c>(c: &'c Option<Str<'_>>) -> &'c str {
    c.as_deref().unwrap_or("")
}

/// A model's name, not the route `auto` or nothing.
fn named_model(m: &str) -> bool {
    !m.is_empty() && m != "auto"
}

/// The model of the turn being read, for a row of its own (an abort, an error): none
/// between turns.
fn open_turn_model<'c>(turn: &'c str, resolved: &'c str) -> &'c str {
    if turn.is_empty() {
        ""
    } else {
        response_model(&None, turn, resolved)
    }
}

impl HeldTurn {
    /// Gives the line its row, if no row of its turn showed its model.
    #[inline(never)]
    fn release(&mut self, text: &mut String, out: &mut Out, sink: &mut dyn RowSink) {
        if let Some(cx) = self.cx.take() {
            texts::session_event_into(text, "assistant.turn_start", &self.data);
            sink.lend(out.fill(
                &self.project,
                &self.branch,
                &self.session,
                &cx,
                TurnType::System,
                text,
                &self.model,
                "",
                "",
            ));
        }
    }

    /// A row of the turn shows `model`: the line needs no row of its own if it named it.
    #[inline]
    fn shown(&mut self, model: &str) {
        if self.cx.is_some() && self.model == model {
            self.cx = None;
        }
    }
}

/// The `model` column of an assistant message's rows: the message's model, else its
/// turn's, else the model auto mode last chose (`resolved`), never the route `auto`
/// (empty when `auto` is the only model known).
fn response_model<'c>(own: &'c Option<Str<'_>>, turn: &'c str, resolved: &'c str) -> &'c str {
    let named = |m: &&str| named_model(m);
    own.as_deref()
        .filter(named)
        .or(Some(turn).filter(named))
        .unwrap_or(resolved)
}

/// The model auto mode chose, from a `session.auto_mode_resolved` event's `data`
/// (`chosenModel`; none when it is missing or not a text).
fn chosen_model(data: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Resolved {
        #[serde(rename = "chosenModel")]
        chosen_model: Option<Value>,
    }
    match serde_json::from_str::<Resolved>(data).ok()?.chosen_model? {
        Value::String(m) if !m.is_empty() && m != "auto" => Some(m),
        _ => None,
    }
}

/// Appends `v` as a JSON string, as `serde_json::to_string` writes it (without its
/// allocation: `kv` quotes a value on most permission and hook rows).
fn push_quoted(out: &mut String, v: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in v.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        // `i` is an ASCII byte: a character boundary
        out.push_str(&v[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&v[start..]);
    out.push('"');
}

/// Appends ` key=value` when `value` is not empty (`quote`: always JSON-quoted).
fn kv(out: &mut String, key: &str, value: &str, quote: bool) {
    if value.is_empty() {
        return;
    }
    out.push(' ');
    out.push_str(key);
    out.push('=');
    // bytes, not a pattern of chars (a search per character of the value)
    if quote
        || value
            .bytes()
            .any(|b| matches!(b, b' ' | b'=' | b'"' | b'\n' | b'\t'))
    {
        push_quoted(out, value);
    } else {
        out.push_str(value);
    }
}

/// Appends ` key=<n>` when `n` is known: `kv(out, key, &num(n), false)` without the
/// allocation (a number is never quoted).
fn kv_count(out: &mut String, key: &str, n: Option<i64>) {
    if n.is_some() {
        out.push(' ');
        out.push_str(key);
        out.push('=');
        push_count(out, n);
    }
}

/// Appends `n` in decimal, or `-` when it is unknown (as `n.to_string()` or `"-"`).
fn push_count(out: &mut String, n: Option<i64>) {
    match n {
        Some(n) => {
            if n < 0 {
                out.push('-');
            }
            push_u64(out, n.unsigned_abs());
        }
        None => out.push('-'),
    }
}

/// A `repository` as a `k=v` value: a text as it is, anything else as `scalar` writes
/// it.
fn repository(v: Option<&Value>) -> std::borrow::Cow<'_, str> {
    match v {
        Some(Value::String(r)) => r.as_str().into(),
        Some(v) => scalar(v).into(),
        None => "".into(),
    }
}

/// A [`decode::Text`] field's text, or empty.
fn text<'c>(t: &'c Option<decode::Text<'_>>) -> &'c str {
    t.as_ref().map(|t| t.0.as_ref()).unwrap_or("")
}

fn num(v: Option<i64>) -> String {
    v.map(|n| n.to_string()).unwrap_or_default()
}

/// The message of an `error` value: an object's `message`, else the value itself.
fn error_message(e: &decode::Raw<'_>) -> String {
    decode::error_parts(*e).message
}

impl<'o> EventReader<'o> {
    /// A reader with the file's options.
    pub fn new(opts: &'o Options<'o>) -> EventReader<'o> {
        EventReader {
            opts,
            session: opts.fallback_session.to_string(),
            project: opts.project.to_string(),
            branch: opts.branch.to_string(),
            turn: Box::default(),
            turn_agent: String::new(),
            parked: Ids::default(),
            auto_model: String::new(),
            model_tracker: ChangeTracker::model(),
            mode: system::permission_mode_tracker(),
            level: system::permission_level_tracker(),
            any_model: false,
            families: Vec::new(),
            calls: Ids::default(),
            places: Vec::new(),
            starts: Vec::new(),
            free_starts: Vec::new(),
            subagents: HashSet::default(),
            start_time: None,
            replay: None,
            line_session: String::new(),
            out: Out {
                row: Row::new(opts.agent, TurnType::System, ""),
                locator_of: None,
            },
            text: String::new(),
            scratch: String::new(),
            shown_only: None,
            not_shown: Vec::new(),
            tool_col: String::new(),
            day: decode::DayCache::default(),
            counts: Counts::default(),
        }
    }

    /// An owned row (for the rows held until later, and the rare rows of bad lines).
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
    pub fn line(&mut self, line: &Line<'_>, sink: &mut dyn RowSink) {
        self.line_of(line, None, sink);
    }

    /// Reads one line, which is part of `whole` when the caller checked the whole log
    /// as UTF-8.
    fn line_of(&mut self, line: &Line<'_>, whole: Option<&str>, sink: &mut dyn RowSink) {
        self.counts.lines += 1;
        let text = match whole {
            Some(w) => {
                // the line's place in the log, from the addresses of the two slices
                let at = (line.bytes.as_ptr() as usize).wrapping_sub(w.as_ptr() as usize);
                at.checked_add(line.bytes.len())
                    .and_then(|end| w.get(at..end))
                    .filter(|t| t.as_ptr() == line.bytes.as_ptr())
            }
            None => simdutf8::basic::from_utf8(line.bytes).ok(),
        };
        if let Some(text) = text {
            let read = decode::scan::with(text, |ev, data, unread| {
                let unread = match (data, unread) {
                    (Some(d), true) => Unread::In(d),
                    (d, _) => Unread::No(d),
                };
                self.event(ev, line, unread, sink)
            });
            if read.is_some() {
                return;
            }
        }
        match decode::serde_event(line.bytes) {
            // (serde_json says nothing of keys it skipped: any may have been)
            Ok(ev) => self.event(&ev, line, Unread::Maybe, sink),
            Err(e) => {
                let repaired = chat_rows::json::repair_lone_surrogates(line.bytes);
                if let std::borrow::Cow::Owned(fixed) = &repaired {
                    if let Ok(ev) = decode::event(fixed) {
                        self.event(&ev, line, Unread::Maybe, sink);
                        return;
                    }
                }
                self.bad(line, &e, sink);
            }
        }
    }

    fn bad(&mut self, line: &Line<'_>, e: &serde_json::Error, sink: &mut dyn RowSink) {
        // valid JSON of another shape: say what did not fit, and keep the data
        if e.classify() == serde_json::error::Category::Data {
            // the three fields the row prints, never the line as a tree
            let loose = chat_rows::json::with_repaired(line.bytes, |b| {
                serde_json::from_slice::<decode::Loose<'_>>(b)
                    .ok()
                    .map(|l| {
                        let kind = l.kind();
                        // never the bytes of a binary asset
                        let data = l.data(&kind);
                        let quoted = kind == "session.binary_asset" && l.data_is_string();
                        (kind, data, l.time(), quoted)
                    })
            });
            if let Some((kind, data, at, quoted)) = loose {
                let session = self.session.clone();
                self.counts.bad_lines += 1;
                sink.push(self.row(
                    &session,
                    TurnType::System,
                    texts::session_event(&kind, &data),
                    at,
                    line,
                    false,
                ));
                let err = crate::Error::Shape {
                    event_type: kind,
                    offset: line.offset,
                    // serde quotes a `data` string that is no object: the asset's bytes
                    reason: if quoted {
                        decode::asset_line::leave_out_of_reason(&e.to_string())
                    } else {
                        e.to_string()
                    },
                };
                sink.push(self.row(
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
        let mut bad = match line.text() {
            Err(u) => BadLine::from_utf8_error(line, &u),
            Ok(_) => {
                let mut b = BadLine::from_json_error(line, e);
                if e.classify() == serde_json::error::Category::Data {
                    b.reason = format!("not an event object: {e}");
                }
                b
            }
        };
        // the row quotes the line: never the bytes of a binary asset, however broken;
        // a cut still says the length of the line as written (the whole line is read
        // for it, and copied only when something is left out)
        if let Some(mut left) = asset_left_out(line, known) {
            match left.char_indices().nth(chat_rows::system::MAX_QUOTED) {
                // short enough to quote whole: as it reads with the asset left out
                None => bad.len = left.len(),
                Some((cut, _)) => {
                    // the cut said with the whole line's length, even when the line
                    // is shorter than its quote (the asset's short data replaced by a
                    // longer note): `quote_cut` says a cut only of a longer line
                    left.truncate(cut);
                    left = chat_rows::system::cut_quote(&left, bad.len);
                    bad.len = left.len();
                }
            }
            bad.text = left;
        }
        let mut row = bad.row(self.opts.agent, "");
        row.session_id.clone_from(&self.session);
        row.project_path.clone_from(&self.project);
        sink.push(row);
    }

    /// The index in [`EventReader::places`] of this line's session, project and branch
    /// (one of the last few when it is the same).
    fn place(&mut self) -> usize {
        let n = self.places.len();
        for (i, (s, p, b)) in self.places.iter().enumerate().rev().take(8) {
            if same(s, &self.line_session) && same(p, &self.project) && same(b, &self.branch) {
                return i;
            }
        }
        self.places.push((
            self.line_session.clone(),
            self.project.clone(),
            self.branch.clone(),
        ));
        n
    }

    /// Keeps where a call's (or a result's) line is, for a `link:` row at the end; its
    /// index in [`EventReader::starts`] (a freed slot reused).
    fn keep_start(&mut self, at: StartAt) -> u32 {
        match self.free_starts.pop() {
            Some(i) => {
                self.starts[i as usize] = at;
                i
            }
            None => {
                self.starts.push(at);
                (self.starts.len() - 1) as u32
            }
        }
    }

    /// Lends the `link:` row in [`EventReader::text`] at the time and place of the line
    /// kept at `start` ([`EventReader::starts`]), in the session, project and branch kept
    /// at `place`, with the call's tool columns.
    fn lend_link(&mut self, sink: &mut dyn RowSink, start: u32, place: u32, tool: &str, id: &str) {
        let start = self.starts[start as usize];
        let cx = Cx {
            at: start.at,
            number: start.number,
            offset: start.offset,
            secondary: self.opts.secondary || start.replayed,
        };
        let (session, project, branch) = &self.places[place as usize];
        sink.lend(self.out.fill(
            project,
            branch,
            session,
            &cx,
            TurnType::System,
            &self.text,
            "",
            tool,
            id,
        ));
    }

    /// Lends a held request's `tool_use` row and its `link: ... never started` row (a
    /// request is lent only when it was never started: when its result comes, or at the
    /// end): their session, project, branch, time and line are the request's.
    fn lend_request(&mut self, sink: &mut dyn RowSink, id: &str, p: &PendingRequest) {
        let cx = Cx {
            at: p.at,
            number: p.number,
            offset: p.offset,
            secondary: self.opts.secondary || p.replayed,
        };
        let (session, project, branch) = &self.places[p.place];
        let out = &mut self.out;
        sink.lend(out.fill(
            project,
            branch,
            session,
            &cx,
            TurnType::ToolUse,
            &p.text,
            &p.model,
            &p.name,
            id,
        ));
        texts::link_never_started_into(&mut self.text, id);
        sink.lend(out.fill(
            project,
            branch,
            session,
            &cx,
            TurnType::System,
            &self.text,
            "",
            &p.name,
            id,
        ));
    }

    fn note_family(&mut self, id: &str, at: Option<Timestamp>, line: &Line<'_>) {
        if let Some((family, prefix)) = family_of(id) {
            if !self.families.iter().any(|f| f.0 == family) {
                self.families
                    .push((family, prefix, at, line.number, line.offset));
            }
        }
    }

    fn end_replay(&mut self, sink: &mut dyn RowSink) {
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
            sink.push(r);
        }
    }

    fn event(
        &mut self,
        ev: &Event<'_>,
        line: &Line<'_>,
        unread: Unread<'_>,
        sink: &mut dyn RowSink,
    ) {
        self.shown_only = None;
        self.not_shown.clear();
        let at = ev
            .timestamp
            .as_deref()
            .and_then(|t| decode::time_text_cached(t, &mut self.day));
        let kind = ev.kind.as_ref();
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
        let cx = Cx {
            at,
            number: line.number,
            offset: line.offset,
            secondary: self.opts.secondary || replayed,
        };
        self.line_session.clear();
        self.line_session.push_str(&self.session);
        let agent_id = ev.agent_id.as_deref().filter(|a| !a.is_empty());
        if let Some(a) = agent_id {
            self.line_session.push(':');
            self.line_session.push_str(a);
        }
        let who = agent_id.unwrap_or("");
        if !same(&self.turn_agent, who) {
            self.switch_turn(who);
            if self.parked.len() >= 2 * PARKED_KEPT {
                self.forget_turns(sink);
            }
        }
        self.turn.seen = line.number;
        // a row of this line, lent to the sink: (session, turn, text[, model, tool, id])
        macro_rules! emit {
            ($session:expr, $turn:expr, $text:expr) => {
                emit!($session, $turn, $text, "", "", "")
            };
            ($session:expr, $turn:expr, $text:expr, $model:expr, $tool:expr, $id:expr) => {
                sink.lend(self.out.fill(
                    &self.project,
                    &self.branch,
                    $session,
                    &cx,
                    $turn,
                    $text,
                    $model,
                    $tool,
                    $id,
                ))
            };
        }
        if let Some(a) = agent_id {
            if !self.subagents.contains(a) && self.subagents.insert(a.to_string()) {
                system::session_start_into(
                    &mut self.text,
                    &[("parent", &self.session), ("agent_id", a)],
                );
                emit!(&self.line_session, TurnType::System, &self.text);
            }
        }
        // a tool call's line that repeats one already given (no rows, no detail row)
        let mut repeat = false;
        // a line whose whole `data` its row printed (no detail row)
        let mut whole = false;
        self.tool_col.clear();
        match &ev.data {
            Data::Start(d) => {
                // into the buffers they had (a resumed log starts again and again)
                if let Some(sid) = d.session_id.as_deref().filter(|x| !x.is_empty()) {
                    set(&mut self.session, sid);
                }
                if let Some(c) = &d.context {
                    if let Some(cwd) = c.cwd.as_deref().filter(|x| !x.is_empty()) {
                        set(&mut self.project, cwd);
                    }
                    if let Some(b) = c.branch.as_deref().filter(|x| !x.is_empty()) {
                        set(&mut self.branch, b);
                    }
                }
                self.start_time = at;
                let c = d.context.as_ref();
                let repo = repository(c.and_then(|c| c.repository.as_ref()));
                system::session_start_into(
                    &mut self.text,
                    &[
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
                        // the SDK's fields the spec's text leaves out, after it
                        ("producer", s(&d.producer)),
                        ("host_type", c.map(|c| s(&c.host_type)).unwrap_or("")),
                        ("head_commit", c.map(|c| s(&c.head_commit)).unwrap_or("")),
                        ("base_commit", c.map(|c| s(&c.base_commit)).unwrap_or("")),
                        ("reasoning_effort", s(&d.reasoning_effort)),
                        ("already_in_use", text(&d.already_in_use)),
                        ("remote_steerable", text(&d.remote_steerable)),
                        ("events_version", text(&d.version)),
                    ],
                );
                emit!(&self.session, TurnType::System, &self.text);
                if self.selected_model(d.selected_model.as_deref()) {
                    emit!(&self.session, TurnType::System, &self.text);
                }
            }
            Data::Resume(d) => {
                self.start_time = at;
                let c = d.context.as_ref();
                // the folder and branch it resumed in hold from here on
                if let Some(cwd) = c.and_then(|c| c.cwd.as_deref()).filter(|x| !x.is_empty()) {
                    set(&mut self.project, cwd);
                }
                if let Some(b) = c
                    .and_then(|c| c.branch.as_deref())
                    .filter(|x| !x.is_empty())
                {
                    set(&mut self.branch, b);
                }
                let n = num(d.event_count);
                let repo = repository(c.and_then(|c| c.repository.as_ref()));
                // the spec's `resumed=true events=<n>`, then what the SDK's resume names
                let t = system::session_start(&[
                    ("resumed", "true"),
                    ("events", &n),
                    ("resumed_at", text(&d.resume_time)),
                    ("cwd", c.map(|c| s(&c.cwd)).unwrap_or("")),
                    ("git_root", c.map(|c| s(&c.git_root)).unwrap_or("")),
                    ("repository", &repo),
                    ("host_type", c.map(|c| s(&c.host_type)).unwrap_or("")),
                    ("branch", c.map(|c| s(&c.branch)).unwrap_or("")),
                    ("head_commit", c.map(|c| s(&c.head_commit)).unwrap_or("")),
                    ("base_commit", c.map(|c| s(&c.base_commit)).unwrap_or("")),
                    ("selected_model", s(&d.selected_model)),
                    ("reasoning_effort", s(&d.reasoning_effort)),
                    ("already_in_use", text(&d.already_in_use)),
                    ("remote_steerable", text(&d.remote_steerable)),
                ]);
                emit!(&self.line_session, TurnType::System, &t);
                // the model in force at resume: a `model:` row when it is another
                if self.selected_model(d.selected_model.as_deref()) {
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::User(d) => {
                self.turn.reasoning.clear();
                if let Some(m) = d
                    .agent_mode
                    .as_deref()
                    .filter(|m| !m.is_empty() && self.mode.last().map(String::as_str) != Some(m))
                {
                    self.text.clear();
                    if self.mode.observe_into(m.to_string(), &mut self.text) {
                        emit!(&self.line_session, TurnType::System, &self.text);
                    }
                }
                let content = s(&d.content);
                let text: &str = match &d.attachments {
                    Some(list) if !list.is_empty() => {
                        self.text.clear();
                        self.text.push_str(content);
                        for a in list {
                            let path = a
                                .path
                                .as_deref()
                                .or(a.file_path.as_deref())
                                .or(a.display_name.as_deref())
                                .unwrap_or("");
                            if !self.text.is_empty() {
                                self.text.push('\n');
                            }
                            let _ = write!(self.text, "[attachment {} {path}]", s(&a.kind));
                        }
                        &self.text
                    }
                    _ => content,
                };
                // a message the app injected (a skill's, the SDK's `source` other than
                // the user's) is not the person's words either
                let injected = d
                    .source
                    .as_deref()
                    .filter(|x| !x.is_empty() && *x != "user");
                if d.is_autopilot_continuation == Some(true) {
                    // (`text` may be the text buffer)
                    texts::autopilot_continuation_into(&mut self.scratch, text);
                    emit!(&self.line_session, TurnType::System, &self.scratch);
                } else if let Some(source) = injected {
                    texts::hidden_message_into(&mut self.scratch, source, text);
                    emit!(&self.line_session, TurnType::System, &self.scratch);
                } else {
                    emit!(&self.line_session, TurnType::User, text);
                }
            }
            Data::TurnStart(d) => {
                // the turn before, if it never showed its model (no turn_end came)
                self.release_turn(sink);
                self.turn.reasoning.clear();
                set(&mut self.turn.model, s(&d.model));
                self.any_model |= named_model(&self.turn.model);
                if named_model(&self.turn.model) {
                    self.hold_turn(cx, line);
                }
            }
            Data::TurnEnd(d) => {
                self.release_turn(sink);
                let own = s(&d.model);
                if named_model(own) && own != self.turn.model {
                    // the end names a model its start did not: the line's own row
                    self.end_names_model(&cx, line, own, sink);
                    whole = true;
                }
                // a reply after the end is of no turn
                self.turn.model.clear();
            }
            Data::Reasoning(d) => {
                if let Some(c) = d.content.as_deref().filter(|c| !c.is_empty()) {
                    if self.new_reasoning(c) {
                        // the turn's model, as a reply's reasoning text has it
                        let model = response_model(&None, &self.turn.model, &self.auto_model);
                        self.turn.held.shown(model);
                        emit!(&self.line_session, TurnType::Thinking, c, model, "", "");
                    }
                }
            }
            Data::Message(d) => {
                if d.model.as_deref().is_some_and(named_model) || named_model(&self.turn.model) {
                    self.any_model = true;
                }
                match d.reasoning_text.as_deref().filter(|r| !r.is_empty()) {
                    Some(r) => {
                        if self.new_reasoning(r) {
                            let model =
                                response_model(&d.model, &self.turn.model, &self.auto_model);
                            self.turn.held.shown(model);
                            emit!(&self.line_session, TurnType::Thinking, r, model, "", "");
                        }
                    }
                    None => {
                        // encrypted only: not when the turn has a reasoning text already
                        if let Some(enc) = d
                            .encrypted_content
                            .as_deref()
                            .filter(|e| !e.is_empty() && self.turn.reasoning.is_empty())
                        {
                            let model =
                                response_model(&d.model, &self.turn.model, &self.auto_model);
                            self.turn.held.shown(model);
                            texts::encrypted_reasoning_into(&mut self.text, enc.len());
                            emit!(
                                &self.line_session,
                                TurnType::Thinking,
                                &self.text,
                                model,
                                "",
                                ""
                            );
                        }
                    }
                }
                let model = response_model(&d.model, &self.turn.model, &self.auto_model);
                if let Some(c) = d.content.as_deref().filter(|c| !c.is_empty()) {
                    self.turn.held.shown(model);
                    emit!(&self.line_session, TurnType::Assistant, c, model, "", "");
                }
                // the model that asks for its calls (kept with each call until it starts)
                let model = match &d.tool_requests {
                    Some(t) if !t.is_empty() => model.to_string(),
                    _ => String::new(),
                };
                for tr in d.tool_requests.iter().flatten() {
                    let id = s(&tr.tool_call_id);
                    self.note_family(id, at, line);
                    // what the id is so far: nothing (the request is held until it
                    // starts), requested before, a result read before any call of it
                    // (the request is the call), or started (its start is the call)
                    let seen = match self.calls.get(id).filter(|_| !id.is_empty()) {
                        None => Seen::New,
                        Some(Call::Requested(_)) => Seen::Requested,
                        Some(Call::Orphan(_)) => Seen::Orphan,
                        Some(Call::Started(st)) => {
                            Seen::Started(self.starts[st.start as usize].shown)
                        }
                        Some(Call::Completed(m)) => Seen::Started(*m),
                    };
                    if id.is_empty() {
                        let text = tr.arguments.map(raw_text).unwrap_or_default();
                        self.turn.held.shown(&model);
                        emit!(
                            &self.line_session,
                            TurnType::ToolUse,
                            &text,
                            &model,
                            s(&tr.name),
                            ""
                        );
                        continue;
                    }
                    let text = tr.arguments.map(raw_text).unwrap_or_default();
                    let name = s(&tr.name);
                    match seen {
                        // asked for after its start (a log written out of order): its
                        // start's row is the call, unless the request shows another
                        // tool or text, which is given its own `tool_use` row (since
                        // 2026-12-05; before, dropped)
                        Seen::Started(mark) => {
                            if shown(name, &text) != mark {
                                self.turn.held.shown(&model);
                                emit!(
                                    &self.line_session,
                                    TurnType::ToolUse,
                                    &text,
                                    &model,
                                    name,
                                    id
                                );
                            }
                        }
                        Seen::Requested => {
                            // requested again: nothing when it asks the same, else its
                            // own `tool_use` row (since 2026-12-05; before, dropped)
                            let same = matches!(self.calls.get(id),
                                Some(Call::Requested(r)) if r.name == name && r.text == text);
                            if !same {
                                self.turn.held.shown(&model);
                                emit!(
                                    &self.line_session,
                                    TurnType::ToolUse,
                                    &text,
                                    &model,
                                    name,
                                    id
                                );
                            }
                        }
                        Seen::Orphan => {
                            // its result came first: the request is the call, never
                            // started (the result's `no tool call` link is not given)
                            let mark = shown(name, &text);
                            if let Some(Call::Orphan(o)) =
                                self.calls.insert(id.to_string(), Call::Completed(mark))
                            {
                                self.free_starts.push(o.start);
                            }
                            let req = PendingRequest {
                                name: name.to_string(),
                                text,
                                model: model.clone(),
                                place: self.place(),
                                at,
                                number: line.number,
                                offset: line.offset,
                                replayed,
                            };
                            self.turn.held.shown(&model);
                            self.lend_request(sink, id, &req);
                        }
                        _ => {
                            let place = self.place();
                            self.calls.insert(
                                id.to_string(),
                                Call::Requested(Box::new(PendingRequest {
                                    name: name.to_string(),
                                    text,
                                    model: model.clone(),
                                    place,
                                    at,
                                    number: line.number,
                                    offset: line.offset,
                                    replayed,
                                })),
                            );
                        }
                    }
                }
            }
            Data::ToolStart(d) => {
                let id = s(&d.tool_call_id);
                self.note_family(id, at, line);
                // the id's entry, taken out (its key is reused when the call is held)
                let entry = if id.is_empty() {
                    None
                } else {
                    self.calls.remove_entry(id)
                };
                // (its key, its request, its state when started, completed or its
                // result read before)
                let (key, mut requested, again) = match entry {
                    Some((k, Call::Requested(r))) => (Some(k), Some(r), None),
                    Some((k, other)) => (Some(k), None, Some(other)),
                    None => (None, None, None),
                };
                // the model that asked for the call: the requesting reply's
                let asked = requested
                    .as_mut()
                    .map(|r| std::mem::take(&mut r.model))
                    .unwrap_or_default();
                let name = match (d.mcp_server_name.as_deref(), d.mcp_tool_name.as_deref()) {
                    (Some(srv), Some(t)) if !srv.is_empty() => format!("{srv}/{t}"),
                    _ => d
                        .tool_name
                        .as_deref()
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                        .or_else(|| requested.map(|r| r.name))
                        .unwrap_or_default(),
                };
                self.tool_col.push_str(&name);
                let args;
                let text: &str = match d
                    .shell_tool_info
                    .as_ref()
                    .and_then(|i| i.display_command.as_deref())
                    .filter(|c| !c.is_empty())
                {
                    Some(c) => c,
                    None => {
                        args = d.arguments.map(raw_text).unwrap_or_default();
                        &args
                    }
                };
                // started before with the same tool and text: the same call written
                // again, which appears once (its state is kept); a start that shows
                // another tool or text gives its own rows (since 2026-12-05; before,
                // every start of an id seen before was dropped)
                let mark = match again {
                    Some(Call::Started(_) | Call::Completed(_)) => shown(&name, text),
                    _ => 0,
                };
                let same = match &again {
                    Some(Call::Started(st)) => self.starts[st.start as usize].shown == mark,
                    Some(Call::Completed(m)) => *m == mark,
                    _ => false,
                };
                if same {
                    if let Some(call) = again {
                        self.calls
                            .insert(key.unwrap_or_else(|| id.to_string()), call);
                    }
                    repeat = true;
                } else {
                    // its own, else the requesting reply's, else its turn's; never the
                    // route `auto`
                    let own = s(&d.model);
                    let model = if named_model(own) {
                        own
                    } else if !asked.is_empty() {
                        &asked
                    } else {
                        response_model(&None, &self.turn.model, &self.auto_model)
                    };
                    // (`note_model`, on the fields it reads: `model` borrows the turn's)
                    self.any_model |= named_model(model);
                    self.turn.held.shown(model);
                    emit!(
                        &self.line_session,
                        TurnType::ToolUse,
                        text,
                        model,
                        &name,
                        id
                    );
                    if kind == "tool.user_requested" {
                        let t = texts::tool_requested_by_user(&name);
                        emit!(&self.line_session, TurnType::System, &t, "", &name, id);
                    }
                    if !id.is_empty() {
                        let mark = if mark == 0 { shown(&name, text) } else { mark };
                        let key = key.unwrap_or_else(|| id.to_string());
                        let call = match again {
                            // still open: its first start's place for its `no result`
                            // link
                            Some(Call::Started(st)) => {
                                self.starts[st.start as usize].shown = mark;
                                Call::Started(st)
                            }
                            Some(Call::Completed(_)) => Call::Completed(mark),
                            // its result came first (a log written out of order): this
                            // is its call, and no `no tool call` link is given
                            Some(Call::Orphan(o)) => {
                                self.free_starts.push(o.start);
                                Call::Completed(mark)
                            }
                            Some(Call::Requested(_)) | None => {
                                let place = self.place();
                                let start = self.keep_start(StartAt {
                                    shown: mark,
                                    at,
                                    number: line.number,
                                    offset: line.offset,
                                    replayed,
                                });
                                Call::Started(Started {
                                    tool: name,
                                    place: place as u32,
                                    start,
                                })
                            }
                        };
                        self.calls.insert(key, call);
                    }
                }
            }
            Data::ToolComplete(d) => {
                let id = s(&d.tool_call_id);
                // the call's state becomes completed: the tool it started (or was
                // requested) with, and whether its id was known
                let (tool, known) = match self.calls.get_mut(id).filter(|_| !id.is_empty()) {
                    Some(state) => match std::mem::replace(state, Call::Completed(0)) {
                        Call::Started(st) => {
                            *state = Call::Completed(self.starts[st.start as usize].shown);
                            self.free_starts.push(st.start);
                            (Some(st.tool), true)
                        }
                        // requested, never started, but completed: the request is the
                        // call, and it was never started all the same
                        Call::Requested(req) => {
                            *state = Call::Completed(shown(&req.name, &req.text));
                            self.lend_request(sink, id, &req);
                            (Some(req.name), true)
                        }
                        // completed before, or its result read with no call: kept
                        other => {
                            *state = other;
                            (None, true)
                        }
                    },
                    None => (None, false),
                };
                let fresh = !id.is_empty() && !known;
                repeat = !(id.is_empty() || fresh || tool.is_some());
                if !repeat {
                    let name = tool.as_deref().unwrap_or("");
                    self.tool_col.push_str(name);
                    let result = d.result.as_ref();
                    let content = result
                        .and_then(|r| r.content.as_ref())
                        .map(|c| c.0.as_ref())
                        .filter(|c| !c.is_empty());
                    // the error read once, for the text and the failed call's code
                    let parts = d.error.map(decode::error_parts);
                    let err;
                    let text: &str = match (content, &parts) {
                        (Some(c), _) => c,
                        (None, Some(e)) => {
                            err = format!("[error] {}", e.message);
                            &err
                        }
                        (None, None) => "",
                    };
                    // never the route `auto` in the model column
                    let model = Some(s(&d.model)).filter(|m| named_model(m)).unwrap_or("");
                    self.note_model(model);
                    emit!(
                        &self.line_session,
                        TurnType::ToolResult,
                        text,
                        model,
                        name,
                        id
                    );
                    if let (Some(code), _) = exit_code(d) {
                        texts::tool_exit_code_into(&mut self.text, code);
                        emit!(
                            &self.line_session,
                            TurnType::System,
                            &self.text,
                            "",
                            name,
                            id
                        );
                    }
                    if d.success == Some(false) {
                        let code = parts.and_then(|e| e.code);
                        texts::tool_failed_into(&mut self.text, code.as_deref().unwrap_or(""));
                        emit!(
                            &self.line_session,
                            TurnType::System,
                            &self.text,
                            "",
                            name,
                            id
                        );
                    }
                    if let Some(detail) = result
                        .and_then(|r| r.detailed_content.as_deref())
                        .filter(|x| !x.is_empty())
                    {
                        if content != Some(detail) {
                            self.text.clear();
                            self.text.push_str("tool detail: ");
                            self.text.push_str(detail);
                            emit!(
                                &self.line_session,
                                TurnType::System,
                                &self.text,
                                "",
                                name,
                                id
                            );
                        }
                    }
                    if fresh {
                        // no call of it so far: its `link: tool result ... has no tool
                        // call` row at the end, unless a start or request of the id
                        // comes after it (since 2026-12-05; before, given here, and
                        // wrong when the log wrote the result before its call)
                        let place = self.place() as u32;
                        let start = self.keep_start(StartAt {
                            shown: 0,
                            at,
                            number: line.number,
                            offset: line.offset,
                            replayed,
                        });
                        self.calls
                            .insert(id.to_string(), Call::Orphan(Orphan { place, start }));
                    }
                }
            }
            Data::ModelChange(d) => {
                let new = s(&d.new_model);
                let mut opts = Vec::new();
                if let Some(e) = d.reasoning_effort.as_deref().filter(|e| !e.is_empty()) {
                    opts.push(("reasoning_effort".to_string(), e.to_string()));
                }
                if let Some(src) = d.source.as_ref().filter(|x| !x.0.is_empty()) {
                    opts.push(("source".to_string(), src.0.to_string()));
                }
                let spec = ModelSpec::with_options(new, opts);
                // a model named, old or new (the route `auto` is none)
                self.any_model |=
                    named_model(new) || d.previous_model.as_deref().is_some_and(named_model);
                self.auto_model.clear();
                // system::model_change's (or system::model's) text, written in place: the
                // old model as the event names it, else the tracker's last
                let old = d
                    .previous_model
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .or_else(|| self.model_tracker.last().map(|m| m.id.as_str()));
                let t = &mut self.text;
                t.clear();
                t.push_str("model: ");
                let at = t.len();
                t.push_str(&spec.id);
                for (k, v) in &spec.options {
                    t.push(' ');
                    t.push_str(k);
                    t.push('=');
                    t.push_str(v);
                }
                // never `<m> -> <m>`: a first value (or an old model the same as the
                // new) is the model alone
                if let Some(old) = old.filter(|o| *o != &t[at..]) {
                    t.insert_str(at, " -> ");
                    t.insert_str(at, old);
                }
                // a row only when the tracker sees a change (or its first value): a
                // change to the model already in force is none
                let mut unused = std::mem::take(&mut self.scratch);
                unused.clear();
                let changed = self.model_tracker.observe_into(spec, &mut unused);
                self.scratch = unused;
                if changed {
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::ModeChanged(d) => {
                let new = s(&d.new_mode);
                let changed = observe_change(
                    &mut self.mode,
                    &mut self.scratch,
                    &mut self.text,
                    d.previous_mode.as_deref(),
                    (new, d.mode.as_deref()),
                );
                if changed.aside {
                    self.shown_only = Some(&[&["newMode"]]);
                }
                if changed.row {
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::PermissionsChanged(d) => {
                // the row shows `mode`, else `newMode`, as the new value
                let (new, second) = match d.mode.as_deref() {
                    Some(m) => (m, d.new_mode.as_deref()),
                    None => (s(&d.new_mode), None),
                };
                let changed = observe_change(
                    &mut self.level,
                    &mut self.scratch,
                    &mut self.text,
                    d.previous_mode.as_deref(),
                    (new, second),
                );
                if changed.aside {
                    self.shown_only = Some(match d.mode.is_some() {
                        true => &[&["mode"]],
                        false => &[&["newMode"]],
                    });
                }
                if changed.row {
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::PermissionRequested(d) => {
                let pr = d.permission_request.as_ref();
                let empty = decode::PermissionRequest::default();
                let p = pr.unwrap_or(&empty);
                // system::permission_decision's text, written in place
                let text = &mut self.text;
                text.clear();
                text.push_str("permission decision: requested");
                kv(text, "kind", s(&p.kind), false);
                kv(text, "request", s(&d.request_id), false);
                kv(text, "intention", s(&p.intention), true);
                kv(text, "command", s(&p.full_command_text), true);
                kv(text, "file", s(&p.file_name), false);
                kv(text, "path", s(&p.path), false);
                kv(text, "url", s(&p.url), false);
                kv(text, "server", s(&p.server_name), false);
                kv(text, "tool", s(&p.tool_name), false);
                let call = pr
                    .and_then(|p| p.tool_call_id.as_deref())
                    .or(d.tool_call_id.as_deref())
                    .unwrap_or("");
                emit!(
                    &self.line_session,
                    TurnType::System,
                    &self.text,
                    "",
                    "",
                    call
                );
            }
            Data::PermissionCompleted(d) => {
                let r = d.result.as_ref();
                // system::permission_decision's text, written in place
                let text = &mut self.text;
                text.clear();
                text.push_str("permission decision: ");
                let start = text.len();
                text.push_str(r.map(|r| s(&r.kind)).unwrap_or(""));
                kv(text, "request", s(&d.request_id), false);
                if let Some(r) = r {
                    kv(text, "location", s(&r.location_key), false);
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
                    kv(text, "rules", &rules.join(","), false);
                    kv(text, "feedback", s(&r.feedback), true);
                }
                // the detail without its leading blanks (an empty kind)
                let blanks = text[start..].len() - text[start..].trim_start().len();
                text.drain(start..start + blanks);
                emit!(
                    &self.line_session,
                    TurnType::System,
                    &self.text,
                    "",
                    "",
                    s(&d.tool_call_id)
                );
            }
            Data::Info(d) => {
                let it = s(&d.info_type);
                let text = &mut self.text;
                text.clear();
                if it == "folder_trust" {
                    // system::permission_decision's text
                    text.push_str("permission decision: folder trust: ");
                } else {
                    text.push_str("session info: ");
                    text.push_str(it);
                    text.push_str(": ");
                }
                text.push_str(s(&d.message));
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::Warning(d) => {
                self.text.clear();
                let _ = write!(
                    self.text,
                    "session warning: {}: {}",
                    s(&d.warning_type),
                    s(&d.message)
                );
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::Error(d) => {
                let t = &mut self.text;
                t.clear();
                t.push_str("session error: ");
                t.push_str(s(&d.error_type));
                if let Some(n) = d.status_code {
                    let _ = write!(t, " status={n}");
                }
                t.push_str(": ");
                t.push_str(s(&d.message));
                self.turn_row(&cx, sink);
            }
            Data::Abort(d) => {
                self.text.clear();
                self.text.push_str("turn aborted: ");
                self.text.push_str(s(&d.reason));
                self.turn_row(&cx, sink);
            }
            Data::Compaction(d) => {
                let phase = &kind["session.compaction_".len()..];
                let t = &mut self.text;
                t.clear();
                t.push_str("compaction: ");
                t.push_str(phase);
                if let Some(b) = d.success {
                    kv(t, "success", if b { "true" } else { "false" }, false);
                }
                kv(
                    t,
                    "checkpoint",
                    d.checkpoint_number
                        .as_ref()
                        .map(|c| c.0.as_ref())
                        .unwrap_or(""),
                    false,
                );
                kv(t, "trigger", s(&d.trigger), false);
                emit!(&self.line_session, TurnType::System, &self.text);
                if let Some(sum) = d.summary_content.as_deref().filter(|x| !x.is_empty()) {
                    self.text.clear();
                    self.text.push_str("compaction summary: ");
                    self.text.push_str(sum);
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::Truncation(d) => {
                let t = &mut self.text;
                t.clear();
                let ns = &mut self.not_shown;
                let messages = [
                    d.removed_messages,
                    d.messages_removed_during_truncation,
                    d.messages_removed,
                ];
                let tokens = [
                    d.removed_tokens,
                    d.tokens_removed_during_truncation,
                    d.tokens_removed,
                ];
                t.push_str("context truncation: removed_messages=");
                push_count(t, first_count(&messages, TRUNCATED_MESSAGES, ns));
                t.push_str(" removed_tokens=");
                push_count(t, first_count(&tokens, TRUNCATED_TOKENS, ns));
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::ContextChanged(d) => {
                let cwd = d
                    .cwd
                    .as_deref()
                    .or(d.context.as_ref().and_then(|c| c.cwd.as_deref()))
                    .unwrap_or("");
                let branch = d
                    .branch
                    .as_deref()
                    .or(d.context.as_ref().and_then(|c| c.branch.as_deref()))
                    .unwrap_or("");
                if !cwd.is_empty() {
                    set(&mut self.project, cwd);
                }
                if !branch.is_empty() {
                    set(&mut self.branch, branch);
                }
                // the rest of the SDK's fields, each at the top or in `context`
                let c = d.context.as_ref();
                let either = |top: &Option<Str<'_>>, inner: Option<&Option<Str<'_>>>| {
                    top.as_deref()
                        .or(inner.and_then(|i| i.as_deref()))
                        .unwrap_or("")
                        .to_string()
                };
                let repo = repository(
                    d.repository
                        .as_ref()
                        .or(c.and_then(|c| c.repository.as_ref())),
                )
                .into_owned();
                let rest = [
                    ("git_root", either(&d.git_root, c.map(|c| &c.git_root))),
                    ("repository", repo),
                    ("host_type", either(&d.host_type, c.map(|c| &c.host_type))),
                    (
                        "head_commit",
                        either(&d.head_commit, c.map(|c| &c.head_commit)),
                    ),
                    (
                        "base_commit",
                        either(&d.base_commit, c.map(|c| &c.base_commit)),
                    ),
                ];
                let t = &mut self.text;
                t.clear();
                t.push_str("cwd changed: ");
                t.push_str(cwd);
                kv(t, "branch", branch, false);
                for (k, v) in &rest {
                    kv(t, k, v, false);
                }
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::ContextCleared(d) => {
                let t = &mut self.text;
                t.clear();
                t.push_str("session cleared: messages=");
                let counts = [d.message_count, d.messages_cleared];
                push_count(t, first_count(&counts, CLEARED, &mut self.not_shown));
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::Handoff(d) => {
                let mut t = format!("session origin: handoff from {}", s(&d.source_type));
                kv(&mut t, "remote_session", s(&d.remote_session_id), false);
                let repo = d.repository.as_ref().map(scalar).unwrap_or_default();
                kv(&mut t, "repository", &repo, false);
                emit!(&self.line_session, TurnType::System, &t);
            }
            Data::Subagent(d) => {
                let phase = &kind["subagent.".len()..];
                let t = &mut self.text;
                t.clear();
                if matches!(phase, "started" | "completed" | "failed") {
                    t.push_str("subagent ");
                    t.push_str(phase);
                    t.push(':');
                    kv(t, "agent", s(&d.agent_name), false);
                }
                match phase {
                    "started" => {
                        self.any_model |= named_model(s(&d.model));
                        kv(t, "tool_call", s(&d.tool_call_id), false);
                        kv(t, "model", s(&d.model), false);
                    }
                    "completed" => {
                        kv_count(t, "duration_ms", d.duration_ms);
                        kv_count(t, "tokens", d.total_tokens);
                    }
                    "failed" => {
                        let e = d.error.as_ref().map(error_message);
                        kv(t, "error", e.as_deref().unwrap_or(""), true);
                    }
                    _ => {}
                }
                if self.text.is_empty() {
                    raw_data_into(&mut self.scratch, line);
                    texts::session_event_into(&mut self.text, kind, &self.scratch);
                    emit!(&self.line_session, TurnType::System, &self.text);
                } else {
                    // the call that ran the sub-agent joins its phases (a completion's and
                    // a failure's text do not name it)
                    let call = s(&d.tool_call_id);
                    emit!(
                        &self.line_session,
                        TurnType::System,
                        &self.text,
                        "",
                        "",
                        call
                    );
                }
            }
            Data::HookEnd(d) => {
                let t = &mut self.text;
                t.clear();
                t.push_str("hook: ");
                t.push_str(s(&d.hook_type));
                kv(t, "id", s(&d.hook_invocation_id), false);
                if let Some(b) = d.success {
                    kv(t, "success", if b { "true" } else { "false" }, false);
                }
                let e = d.error.as_ref().map(error_message);
                kv(t, "error", e.as_deref().unwrap_or(""), true);
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::Skill(d) => {
                let t = &mut self.text;
                t.clear();
                t.push_str("skill invoked: ");
                t.push_str(s(&d.name));
                kv(t, "path", s(&d.path), false);
                let src = d.source.as_ref().map(|x| x.0.as_ref()).unwrap_or("");
                kv(t, "source", src, false);
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::SystemMessage(d) => {
                self.text.clear();
                let _ = write!(
                    self.text,
                    "system message: {}: {}",
                    s(&d.role),
                    s(&d.content)
                );
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::SystemNotification(d) => {
                self.text.clear();
                let _ = write!(
                    self.text,
                    "system notification: {}: {}",
                    d.kind.as_ref().map(|k| k.0.as_ref()).unwrap_or(""),
                    s(&d.content)
                );
                emit!(&self.line_session, TurnType::System, &self.text);
            }
            Data::Shutdown(d) => {
                // a model named here is a model field like any other: no inferred family
                if named_model(s(&d.current_model))
                    || d.model_metrics
                        .iter()
                        .flatten()
                        .any(|(m, _)| named_model(m))
                {
                    self.any_model = true;
                }
                let t = &mut self.text;
                t.clear();
                t.push_str("session end:");
                kv(t, "type", s(&d.shutdown_type), false);
                kv(t, "error", s(&d.error_reason), true);
                kv(t, "current_model", s(&d.current_model), false);
                if let Some(cc) = &d.code_changes {
                    let files = match &cc.files_modified {
                        Some(Value::Array(a)) => a.len().to_string(),
                        Some(v) => scalar(v),
                        None => String::new(),
                    };
                    kv(t, "files_modified", &files, false);
                    kv_count(t, "lines_added", cc.lines_added);
                    kv_count(t, "lines_removed", cc.lines_removed);
                }
                emit!(&self.line_session, TurnType::System, &self.text);
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
                    self.text.clear();
                    system::write_usage(&mut self.text, &u);
                    emit!(
                        &self.line_session,
                        TurnType::System,
                        &self.text,
                        model,
                        "",
                        ""
                    );
                }
                if texts::session_totals_into(&mut self.text, d) {
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
            Data::Usage(d) => {
                let model = s(&d.model);
                self.note_model(model);
                let u = Usage {
                    model,
                    input: d.input_tokens,
                    output: d.output_tokens,
                    cache_read: d.cache_read_tokens,
                    cache_write: first_count(
                        &[d.cache_creation_input_tokens, d.cache_write_tokens],
                        CACHE_WRITE,
                        &mut self.not_shown,
                    ),
                    reasoning: d.reasoning_tokens,
                    nano_aiu: first_count(
                        &[
                            d.copilot_usage_nano_aiu,
                            d.copilot_usage.as_ref().and_then(|u| u.total_nano_aiu),
                        ],
                        NANO_AIU,
                        &mut self.not_shown,
                    ),
                    scope: "call",
                    ..Usage::default()
                };
                self.text.clear();
                system::write_usage(&mut self.text, &u);
                emit!(
                    &self.line_session,
                    TurnType::System,
                    &self.text,
                    model,
                    "",
                    s(&d.parent_tool_call_id)
                );
            }
            Data::BinaryAsset(d) => {
                let n = match (d.size, d.data) {
                    (Some(n), _) => n.to_string(),
                    (None, Some(raw)) => {
                        // base64 text: 3 bytes per 4 characters, less the padding
                        let b = raw.0.trim_matches('"');
                        let pad = b.bytes().rev().take_while(|c| *c == b'=').count();
                        ((b.len() / 4) * 3).saturating_sub(pad).to_string()
                    }
                    (None, None) => "-".to_string(),
                };
                let t = format!("binary asset: {}, {n} bytes", s(&d.mime_type));
                emit!(&self.line_session, TurnType::System, &t);
            }
            Data::Other => {
                if known(kind) {
                    raw_data_into(&mut self.scratch, line);
                    if kind == "session.auto_mode_resolved"
                        && let Some(m) = chosen_model(&self.scratch)
                    {
                        self.any_model = true;
                        self.auto_model = m;
                    }
                    texts::session_event_into(&mut self.text, kind, &self.scratch);
                    emit!(&self.line_session, TurnType::System, &self.text);
                } else {
                    texts::unknown_record_into(&mut self.text, kind, line.bytes);
                    emit!(&self.line_session, TurnType::System, &self.text);
                }
            }
        }
        // what a type holds beyond what its rows print: one more row, only when the
        // line held a key its type does not read (a tool call's joins its call)
        let look = match unread {
            Unread::No(_) => reads_unprinted(&ev.data, kind),
            Unread::In(_) | Unread::Maybe => true,
        };
        let shown_only = self.shown_only.take();
        let some_not_shown = !self.not_shown.is_empty();
        if (look || shown_only.is_some() || some_not_shown) && !repeat && !whole {
            let mut printed = match shown_only {
                Some(only) => Some(Cow::Borrowed(only)),
                None => printed_fields(&ev.data, kind),
            };
            if let (Some(p), true) = (&mut printed, some_not_shown) {
                p.to_mut().retain(|f| !self.not_shown.contains(f));
            }
            if let Some(printed) = printed {
                let (id, same) = match &ev.data {
                    Data::ToolStart(d) => (s(&d.tool_call_id), None),
                    Data::ToolComplete(d) => {
                        let r = d.result.as_ref();
                        let content = r.and_then(|r| r.content.as_ref()).map(|c| c.0.as_ref());
                        let detail = r.and_then(|r| r.detailed_content.as_deref());
                        (s(&d.tool_call_id), Some([content, detail]))
                    }
                    _ => ("", None),
                };
                let same: Vec<&str> = same.into_iter().flatten().flatten().collect();
                let same = detail::Same {
                    path: SAME_TEXT,
                    texts: &same,
                };
                let rest = unprinted(line, unread, &printed, same);
                if !rest.is_empty() {
                    texts::event_detail_into(&mut self.text, kind, &rest);
                    emit!(
                        &self.line_session,
                        TurnType::System,
                        &self.text,
                        "",
                        &self.tool_col,
                        id
                    );
                }
            }
        }
    }

    /// A start's or resume's `selectedModel`: counts as a model named, and writes the
    /// `model:` row's text into `self.text` when the tracker sees another model (true:
    /// the caller gives the row); the route `auto` gives none.
    fn selected_model(&mut self, model: Option<&str>) -> bool {
        let Some(m) = model.filter(|m| !m.is_empty()) else {
            return false;
        };
        // the route `auto` names no model: the calls' ids may still tell its family
        if m == "auto" {
            return false;
        }
        self.any_model = true;
        self.text.clear();
        self.model_tracker
            .observe_into(ModelSpec::new(m), &mut self.text)
    }

    /// A model named on the line (an empty one, or the route `auto`, is none): the log
    /// names a model, so no family is inferred from its calls' ids.
    fn note_model(&mut self, model: &str) {
        self.any_model |= named_model(model);
    }

    /// Gives the held `turn_start` line its row, if no row of its turn showed its model.
    #[inline]
    fn release_turn(&mut self, sink: &mut dyn RowSink) {
        if self.turn.held.cx.is_some() {
            self.turn.held.release(&mut self.text, &mut self.out, sink);
        }
    }

    /// The line's system row in `self.text`, of the turn being read: with its model
    /// (an abort's, an error's).
    fn turn_row(&mut self, cx: &Cx, sink: &mut dyn RowSink) {
        let model = open_turn_model(&self.turn.model, &self.auto_model);
        self.turn.held.shown(model);
        sink.lend(self.out.fill(
            &self.project,
            &self.branch,
            &self.line_session,
            cx,
            TurnType::System,
            &self.text,
            model,
            "",
            "",
        ));
    }

    /// The row of a `turn_end` line that names another model than its turn's start.
    #[cold]
    #[inline(never)]
    fn end_names_model(&mut self, cx: &Cx, line: &Line<'_>, model: &str, sink: &mut dyn RowSink) {
        raw_data_into(&mut self.scratch, line);
        texts::session_event_into(&mut self.text, "assistant.turn_end", &self.scratch);
        sink.lend(self.out.fill(
            &self.project,
            &self.branch,
            &self.line_session,
            cx,
            TurnType::System,
            &self.text,
            model,
            "",
            "",
        ));
    }

    /// Holds a `turn_start` line that names a model until a row of its turn shows it.
    #[inline(never)]
    fn hold_turn(&mut self, cx: Cx, line: &Line<'_>) {
        let h = &mut self.turn.held;
        h.cx = Some(cx);
        set(&mut h.session, &self.line_session);
        set(&mut h.project, &self.project);
        set(&mut h.branch, &self.branch);
        set(&mut h.model, &self.turn.model);
        raw_data_into(&mut h.data, line);
    }

    /// Keeps the [`PARKED_KEPT`] parked turns whose agents' lines came last; the others'
    /// held starts get their rows now, in the order of their lines, and the turns are
    /// forgotten (a later line of such an agent starts it a new turn: a reply of it
    /// before its next `turn_start` has no turn model, which its start's row gave).
    #[cold]
    #[inline(never)]
    fn forget_turns(&mut self, sink: &mut dyn RowSink) {
        let mut all: Vec<(String, Box<Turn>)> = self.parked.drain().collect();
        all.sort_unstable_by_key(|(_, t)| std::cmp::Reverse(t.seen));
        let mut gone = all.split_off(PARKED_KEPT.min(all.len()));
        self.parked.extend(all);
        gone.retain(|(_, t)| t.held.cx.is_some());
        gone.sort_unstable_by_key(|(_, t)| t.held.cx.map(|c| c.number));
        for (_, mut t) in gone {
            t.held.release(&mut self.text, &mut self.out, sink);
        }
    }

    /// Parks the turn read so far and takes out `who`'s (a new one for an agent not met
    /// yet); a turn with nothing in it is not kept.
    #[inline(never)]
    fn switch_turn(&mut self, who: &str) {
        // (boxed: a switch moves pointers, and so does the map when it grows)
        let mine = match self.parked.remove(who) {
            Some(theirs) => Some(std::mem::replace(&mut self.turn, theirs)),
            // an empty turn serves the agent met first as it is
            None if self.turn.is_empty() => None,
            None => Some(std::mem::take(&mut self.turn)),
        };
        match mine.filter(|t| !t.is_empty()) {
            Some(mine) => {
                let me = std::mem::replace(&mut self.turn_agent, who.to_string());
                self.parked.insert(me, mine);
            }
            None => set(&mut self.turn_agent, who),
        }
    }

    fn new_reasoning(&mut self, text: &str) -> bool {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        self.turn.reasoning.insert(h.finish())
    }

    /// Ends the file: requests never started, calls without a result, the last replay
    /// run, and the inferred model families of a log that names no model.
    pub fn finish(&mut self, sink: &mut dyn RowSink) {
        // every agent's turn still held, in the order of their lines
        let mut held: Vec<Box<Turn>> = std::mem::take(&mut self.parked)
            .into_values()
            .chain([std::mem::take(&mut self.turn)])
            .filter(|t| t.held.cx.is_some())
            .collect();
        held.sort_by_key(|t| t.held.cx.map(|c| c.number));
        for mut t in held {
            t.held.release(&mut self.text, &mut self.out, sink);
        }
        self.end_replay(sink);
        let mut pending: Vec<(String, PendingRequest)> = Vec::new();
        let mut open: Vec<(String, Started)> = Vec::new();
        let mut orphans: Vec<(String, Orphan)> = Vec::new();
        for (id, call) in self.calls.drain() {
            match call {
                Call::Requested(p) => pending.push((id, *p)),
                Call::Started(st) => open.push((id, st)),
                Call::Orphan(o) => orphans.push((id, o)),
                Call::Completed(_) => {}
            }
        }
        // by (line, id), without copying an id per comparison; lent like a line's rows
        pending.sort_by(|a, b| (a.1.number, &a.0).cmp(&(b.1.number, &b.0)));
        for (id, p) in pending {
            self.lend_request(sink, &id, &p);
        }
        open.sort_by(|a, b| a.0.cmp(&b.0));
        // at the start's time and place, as a request never started is at its own
        for (id, st) in open {
            texts::link_no_result_into(&mut self.text, &id);
            self.lend_link(sink, st.start, st.place, &st.tool, &id);
        }
        // results no call of which came: at the result's time and place, in file order
        orphans.sort_by(|a, b| {
            let (x, y) = (
                &self.starts[a.1.start as usize],
                &self.starts[b.1.start as usize],
            );
            (x.number, &a.0).cmp(&(y.number, &b.0))
        });
        for (id, o) in orphans {
            texts::link_no_call_into(&mut self.text, &id);
            self.lend_link(sink, o.start, o.place, "", &id);
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
                sink.push(r);
            }
        }
    }
}

/// A broken line with its binary asset data left out, or `None` when it holds none
/// ([`decode::asset_line::leave_out`]), the line copied only when something is. A line
/// that is not UTF-8 is first read with each invalid sequence as `?`, as long as the
/// line, rather than as the U+FFFD of its quote, three times as long: both are one
/// character that is no part of JSON, so what is left out of the one is left out of the
/// other, and only a line with something left out is read again with U+FFFD (a 1 GiB
/// line of invalid bytes cost a 3 GiB copy).
fn asset_left_out(line: &Line<'_>, known: fn(&str) -> bool) -> Option<String> {
    let owned = |c: Cow<'_, str>| match c {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    if let Ok(text) = std::str::from_utf8(line.bytes) {
        return owned(decode::asset_line::leave_out(text, known));
    }
    let mut probe = String::with_capacity(line.bytes.len());
    for chunk in line.bytes.utf8_chunks() {
        probe.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            probe.push('?');
        }
    }
    owned(decode::asset_line::leave_out(&probe, known))?;
    drop(probe);
    owned(decode::asset_line::leave_out(&line.text_lossy(), known))
}

/// Whether a tool result's rows print its `error`'s message (when the result has no
/// content) and its code (when the call failed and the error is an object: one that is
/// not is its message alone).
fn error_printed(d: &decode::ToolCompleteData<'_>) -> (bool, bool) {
    let content = d
        .result
        .as_ref()
        .and_then(|r| r.content.as_ref())
        .is_some_and(|c| !c.0.is_empty());
    let code =
        d.success == Some(false) && d.error.is_some_and(|e| e.0.trim_start().starts_with('{'));
    (!content, code)
}

/// What a mode or level change did: whether it wrote a row's text, and whether the
/// line holds a value its row does not show (for the detail row).
struct Change {
    row: bool,
    aside: bool,
}

/// A mode or level change observed by its tracker (the line's own previous value seeds
/// a tracker that has none), its `<tracker>: <old> -> <new>` text written into `text`
/// when the tracker sees a change. The row shows the tracker's value before as the old
/// one and `new` (the name it prints, with the line's second name for it beside): the
/// line's previous value when it is another, and a second name that says another
/// value, are set aside for the detail row.
fn observe_change(
    tracker: &mut ChangeTracker<String>,
    scratch: &mut String,
    text: &mut String,
    previous: Option<&str>,
    (new, second): (&str, Option<&str>),
) -> Change {
    let before = tracker.last().map(String::as_str).or(previous);
    let aside = previous.is_some_and(|p| Some(p) != before) || second.is_some_and(|m| m != new);
    if tracker.last().is_none() {
        if let Some(p) = previous.filter(|p| !p.is_empty()) {
            scratch.clear();
            tracker.observe_into(p.to_string(), scratch);
        }
    }
    text.clear();
    let row = tracker.observe_into(new.to_string(), text);
    Change { row, aside }
}

/// A permission request's printed fields, the event's `toolCallId` first (see
/// [`request_call_differs`]).
const PERMISSION_REQUESTED: &[&[&str]] = &[
    &["toolCallId"],
    &["requestId"],
    &["permissionRequest", "kind"],
    &["permissionRequest", "toolCallId"],
    &["permissionRequest", "intention"],
    &["permissionRequest", "fullCommandText"],
    &["permissionRequest", "fileName"],
    &["permissionRequest", "path"],
    &["permissionRequest", "url"],
    &["permissionRequest", "serverName"],
    &["permissionRequest", "toolName"],
];

/// True when a permission request names its call twice, differently: the row's
/// column is the request's (`permissionRequest.toolCallId`), the event's is not
/// printed.
fn request_call_differs(d: &decode::PermissionRequestedData<'_>) -> bool {
    let inner = d
        .permission_request
        .as_ref()
        .and_then(|p| p.tool_call_id.as_deref());
    matches!((inner, d.tool_call_id.as_deref()), (Some(a), Some(b)) if a != b)
}

/// A tool call's printed fields, its `toolName` first (see [`mcp_renamed`]).
const TOOL_START: &[&[&str]] = &[
    &["toolName"],
    &["toolCallId"],
    &["arguments"],
    &["mcpServerName"],
    &["mcpToolName"],
    &["shellToolInfo", "displayCommand"],
    &["model"],
];

/// True when a tool call's tool column is `<mcpServerName>/<mcpToolName>` (the spec's
/// name of an MCP call) and its `toolName` says something else than the CLI's
/// `<mcpServerName>-<mcpToolName>` (which the column says in other words): the
/// `toolName` is then the detail row's.
fn mcp_renamed(d: &decode::ToolStartData<'_>) -> bool {
    let (Some(srv), Some(tool)) = (d.mcp_server_name.as_deref(), d.mcp_tool_name.as_deref()) else {
        return false;
    };
    let said = d.tool_name.as_deref().unwrap_or("");
    let dashed = said.len() == srv.len() + 1 + tool.len()
        && said.starts_with(srv)
        && said.ends_with(tool)
        && said.as_bytes().get(srv.len()) == Some(&b'-');
    !srv.is_empty() && d.tool_name.is_some() && !dashed
}

/// A key path of `data` (`[]`: every item of an array, `*`: every key of a map).
type Path = &'static [&'static str];

/// The names of a count some writers give under more than one name, in the order the
/// row prefers them.
const TRUNCATED_MESSAGES: &[Path] = &[
    &["removedMessages"],
    &["messagesRemovedDuringTruncation"],
    &["messagesRemoved"],
];
const TRUNCATED_TOKENS: &[Path] = &[
    &["removedTokens"],
    &["tokensRemovedDuringTruncation"],
    &["tokensRemoved"],
];
const CLEARED: &[Path] = &[&["messageCount"], &["messagesCleared"]];
const CACHE_WRITE: &[Path] = &[&["cacheCreationInputTokens"], &["cacheWriteTokens"]];
const NANO_AIU: &[Path] = &[&["copilotUsageNanoAiu"], &["copilotUsage", "totalNanoAiu"]];

/// A count a line may name in more than one way (`values[i]` under `names[i]`): the
/// first one named, which the row prints. A name that holds another value is pushed to
/// `not_shown`, so that the detail row prints it (the same count twice is printed once).
fn first_count(values: &[Option<i64>], names: &[Path], not_shown: &mut Vec<Path>) -> Option<i64> {
    let first = values.iter().flatten().next().copied();
    for (v, name) in values.iter().zip(names) {
        if v.is_some() && *v != first {
            not_shown.push(name);
        }
    }
    first
}

/// A tool result's printed fields ([`TOOL_COMPLETE`], sliced by [`error_printed`]);
/// without the exit codes when it holds more than its row prints ([`exit_code`]), and
/// without the `contents[]` items' `type` when an item is of another kind than
/// `terminal` or `shell_exit` (the kinds whose exit code the row prints), so that the
/// detail row gives them all, as found. A `contents[]` item's `text` equal to the
/// content is left out too (see `unprinted`'s `same`).
fn tool_complete_printed(d: &decode::ToolCompleteData<'_>) -> Cow<'static, [Path]> {
    let all = TOOL_COMPLETE.len();
    let list = match error_printed(d) {
        (true, true) => TOOL_COMPLETE,
        (true, false) => &TOOL_COMPLETE[1..],
        (false, true) => &TOOL_COMPLETE[..all - 1],
        (false, false) => &TOOL_COMPLETE[1..all - 1],
    };
    let exits = !exit_code(d).1;
    let kinds = !other_kinds(d);
    if exits && kinds {
        return Cow::Borrowed(list);
    }
    Cow::Owned(
        list.iter()
            .copied()
            .filter(|p| match *p {
                [.., "exitCode"] => exits,
                ["result", "contents", "[]", "type"] => kinds,
                _ => true,
            })
            .collect(),
    )
}

/// True when a tool result's `contents[]` holds an item of another kind than
/// `terminal` or `shell_exit` (`text`, `image` ...): its `type` is the detail row's.
fn other_kinds(d: &decode::ToolCompleteData<'_>) -> bool {
    let items = d.result.as_ref().and_then(|r| r.contents.as_deref());
    items.unwrap_or(&[]).iter().any(|c| {
        c.kind
            .as_deref()
            .is_some_and(|k| !matches!(k, "terminal" | "shell_exit"))
    })
}

/// A tool result's exit code, the first found of: a `terminal` or `shell_exit` item's
/// (`result.contents[]`), the result's `shellExecution`'s, the event's
/// `shellExecution`'s (by CLI version); and whether the result holds another exit code
/// (a second item's, an item's of another kind, a second place's), so that the detail
/// row gives every exit code as found ([`tool_complete_printed`]).
fn exit_code(d: &decode::ToolCompleteData<'_>) -> (Option<i64>, bool) {
    let result = d.result.as_ref();
    let items = result.and_then(|r| r.contents.as_deref()).unwrap_or(&[]);
    let of = |x: Option<&decode::ShellExecution>| x.and_then(|x| x.exit_code);
    let places = [
        of(result.and_then(|r| r.shell_execution.as_ref())),
        of(d.shell_execution.as_ref()),
    ];
    let code = items
        .iter()
        .find_map(|c| {
            matches!(c.kind.as_deref(), Some("terminal" | "shell_exit"))
                .then_some(c.exit_code)
                .flatten()
        })
        .or(places[0])
        .or(places[1]);
    let found =
        items.iter().filter(|c| c.exit_code.is_some()).count() + places.iter().flatten().count();
    (code, found > usize::from(code.is_some()))
}

/// A tool result's printed fields, between its `error`'s code (first: printed when the
/// call failed) and message (last: printed when the result has no content), so that
/// each of the four cases is a slice (see [`printed_fields`]).
const TOOL_COMPLETE: &[&[&str]] = &[
    &["error", "code"],
    &["toolCallId"],
    &["success"],
    &["result", "content"],
    &["result", "detailedContent"],
    &["result", "contents", "[]", "type"],
    &["result", "contents", "[]", "exitCode"],
    &["result", "shellExecution", "exitCode"],
    &["shellExecution", "exitCode"],
    &["model"],
    &["error", "message"],
];

/// A start's printed fields (the first 6 its own), then those it shares with a resume,
/// then a resume's own (the last 2).
const START_RESUME: &[&[&str]] = &[
    &["version"],
    &["sessionId"],
    &["copilotVersion"],
    &["vscodeVersion"],
    &["startTime"],
    &["producer"],
    &["selectedModel"],
    &["reasoningEffort"],
    &["alreadyInUse"],
    &["remoteSteerable"],
    &["context", "cwd"],
    &["context", "gitRoot"],
    &["context", "branch"],
    &["context", "repository"],
    &["context", "hostType"],
    &["context", "headCommit"],
    &["context", "baseCommit"],
    &["eventCount"],
    &["resumeTime"],
];

/// A shutdown's printed fields (`*`: every key of the object, a model's name); the
/// first is `codeChanges.filesModified`, printed as a count.
const SHUTDOWN: &[&[&str]] = &[
    &["codeChanges", "filesModified"],
    &["codeChanges", "linesAdded"],
    &["codeChanges", "linesRemoved"],
    &["shutdownType"],
    &["errorReason"],
    &["currentModel"],
    &["modelMetrics", "*", "usage", "inputTokens"],
    &["modelMetrics", "*", "usage", "outputTokens"],
    &["modelMetrics", "*", "usage", "cacheReadTokens"],
    &["modelMetrics", "*", "usage", "cacheWriteTokens"],
    &["modelMetrics", "*", "usage", "reasoningTokens"],
    &["modelMetrics", "*", "requests", "count"],
    &["modelMetrics", "*", "totalNanoAiu"],
    &["totalPremiumRequests"],
    &["totalNanoAiu"],
    &["totalApiDurationMs"],
    &["sessionStartTime"],
    &["currentTokens"],
    &["systemTokens"],
    &["conversationTokens"],
    &["toolDefinitionsTokens"],
    &["eventsFileSizeBytes"],
    &["tokenDetails"],
];

/// True when the event's decoded fields hold a value its rows do not print (a key the
/// type reads for another type or prints only in part), so that the detail row is
/// looked for though the scanner skipped no key: a tool result's or a decision's
/// fields of the other's shape, an `error`'s other fields, a list of the files a
/// session changed (printed as a count), an attachment's second name, a notice's
/// fields of another notice's type, a system message's kind.
fn reads_unprinted(data: &Data<'_>, kind: &str) -> bool {
    // an `error` object with a key besides the message and code the rows print
    let object = |e: &Option<decode::Raw<'_>>| {
        e.is_some_and(|e| detail::has_key_but(e.0, &["message", "code"]))
    };
    match data {
        Data::ToolComplete(d) => {
            let (message, code) = error_printed(d);
            let named: &[&str] = match (message, code) {
                (true, true) => &["message", "code"],
                (true, false) => &["message"],
                (false, true) => &["code"],
                (false, false) => &[],
            };
            d.error
                .is_some_and(|e| match e.0.trim_start().starts_with('{') {
                    true => detail::has_key_but(e.0, named),
                    // a string or other value: its message, printed when the result has none
                    false => !message,
                })
                || exit_code(d).1
                || other_kinds(d)
                || d.result.as_ref().is_some_and(|r| {
                    r.kind.is_some()
                        || r.location_key.is_some()
                        || r.rules.is_some()
                        || r.feedback.is_some()
                })
        }
        Data::PermissionCompleted(d) => d.result.as_ref().is_some_and(|r| {
            r.content.is_some()
                || r.detailed_content.is_some()
                || r.contents.is_some()
                || r.shell_execution.is_some()
                || r.rules.iter().flatten().any(|rule| {
                    matches!(rule, Value::Object(m)
                        if m.keys().any(|k| k != "kind" && k != "argument"))
                })
        }),
        Data::PermissionRequested(d) => request_call_differs(d),
        // a phase's fields that its row does not name (a completion's model ...)
        Data::Subagent(d) => match kind {
            "subagent.started" => {
                d.duration_ms.is_some() || d.total_tokens.is_some() || d.error.is_some()
            }
            "subagent.completed" => d.model.is_some() || d.error.is_some(),
            "subagent.failed" => {
                d.model.is_some()
                    || d.duration_ms.is_some()
                    || d.total_tokens.is_some()
                    || object(&d.error)
            }
            _ => false,
        },
        Data::HookEnd(d) => object(&d.error),
        Data::ToolStart(d) => mcp_renamed(d),
        // a requested call's kind (`function`, `custom`), which no row prints
        Data::Message(d) => d.tool_requests.iter().flatten().any(|t| t.kind.is_some()),
        Data::Shutdown(d) => d
            .code_changes
            .as_ref()
            .is_some_and(|c| matches!(&c.files_modified, Some(Value::Array(a)) if !a.is_empty())),
        Data::User(d) => d.attachments.iter().flatten().any(|a| {
            let names = [
                a.path.is_some(),
                a.file_path.is_some(),
                a.display_name.is_some(),
            ];
            names.iter().filter(|n| **n).count() > 1
        }),
        Data::Info(d) => {
            d.warning_type.is_some() || d.error_type.is_some() || d.status_code.is_some()
        }
        Data::Warning(d) => {
            d.info_type.is_some() || d.error_type.is_some() || d.status_code.is_some()
        }
        Data::Error(d) => d.info_type.is_some() || d.warning_type.is_some(),
        Data::SystemMessage(d) => d.kind.is_some(),
        Data::SystemNotification(d) => d.role.is_some(),
        _ => false,
    }
}

/// A tool result's `contents[]` text, left out of its detail row when it repeats the
/// result's content or detailed content.
const SAME_TEXT: &[&str] = &["result", "contents", "[]", "text"];

/// The `data` fields (key paths; `[]` goes into every item of an array) that the rows
/// of a type print, for [`unprinted`]: system rows' and turns' (a prompt, a reply, a
/// tool call or result) alike; `None` for the types printed whole or not at all
/// (`session event:`, the binary asset's).
fn printed_fields(data: &Data<'_>, kind: &str) -> Option<Cow<'static, [Path]>> {
    const TR: &str = "toolRequests";
    if let Data::ToolComplete(d) = data {
        return Some(tool_complete_printed(d));
    }
    Some(Cow::Borrowed(match data {
        // a prompt prints its content and attachments (the first of an attachment's
        // path, file path and display name: a display name is the detail row's, though
        // printed when alone); the mode tracker its agentMode
        Data::User(_) => &[
            &["content"],
            &["attachments", "[]", "type"],
            &["attachments", "[]", "path"],
            &["attachments", "[]", "filePath"],
            &["agentMode"],
            &["isAutopilotContinuation"],
            &["source"],
        ],
        Data::TurnStart(_) | Data::TurnEnd(_) => &[&["model"]],
        Data::Reasoning(_) => &[&["content"]],
        // a request's call is printed by its start, else by the request's own rows;
        // its `type` (the SDK's `function` or `custom` kind of call) is the detail row's
        Data::Message(_) => &[
            &["content"],
            &["model"],
            &["reasoningText"],
            &["encryptedContent"],
            &[TR, "[]", "toolCallId"],
            &[TR, "[]", "name"],
            &[TR, "[]", "arguments"],
        ],
        // an MCP call's tool column is `<mcpServerName>/<mcpToolName>`: its `toolName`
        // (first) is the detail row's when it is not `<mcpServerName>-<mcpToolName>`
        Data::ToolStart(d) => match mcp_renamed(d) {
            true => &TOOL_START[1..],
            false => TOOL_START,
        },
        Data::Start(_) => &START_RESUME[..START_RESUME.len() - 2],
        Data::Resume(_) => &START_RESUME[6..],
        // a list of the files changed is printed as its count: the files are the
        // detail row's (`reads_unprinted`)
        Data::Shutdown(d) => {
            let listed = d.code_changes.as_ref().is_some_and(
                |c| matches!(&c.files_modified, Some(Value::Array(a)) if !a.is_empty()),
            );
            match listed {
                true => &SHUTDOWN[1..],
                false => SHUTDOWN,
            }
        }
        // the call's column is the request's `toolCallId`, else the event's: the
        // event's (first) is the detail row's when they differ
        Data::PermissionRequested(d) => match request_call_differs(d) {
            true => &PERMISSION_REQUESTED[1..],
            false => PERMISSION_REQUESTED,
        },
        // a standing rule prints as `kind(argument)`: its other fields are the detail
        // row's (and a rule that is no object, printed whole, is there again with them)
        Data::PermissionCompleted(_) => &[
            &["toolCallId"],
            &["requestId"],
            &["result", "kind"],
            &["result", "locationKey"],
            &["result", "rules", "[]", "kind"],
            &["result", "rules", "[]", "argument"],
            &["result", "feedback"],
        ],
        Data::ModelChange(_) => &[
            &["previousModel"],
            &["newModel"],
            &["reasoningEffort"],
            &["source"],
        ],
        Data::ModeChanged(_) | Data::PermissionsChanged(_) => {
            &[&["newMode"], &["previousMode"], &["mode"]]
        }
        Data::Info(_) => &[&["infoType"], &["message"]],
        Data::Warning(_) => &[&["warningType"], &["message"]],
        Data::Error(_) => &[&["errorType"], &["statusCode"], &["message"]],
        Data::Abort(_) => &[&["reason"]],
        Data::Compaction(_) => &[
            &["success"],
            &["summaryContent"],
            &["checkpointNumber"],
            &["trigger"],
        ],
        Data::Truncation(_) => &[
            &["removedMessages"],
            &["messagesRemovedDuringTruncation"],
            &["messagesRemoved"],
            &["removedTokens"],
            &["tokensRemovedDuringTruncation"],
            &["tokensRemoved"],
        ],
        Data::ContextChanged(_) => &[
            &["cwd"],
            &["branch"],
            &["context", "cwd"],
            &["context", "branch"],
            &["context", "gitRoot"],
            &["context", "repository"],
            &["context", "hostType"],
            &["context", "headCommit"],
            &["context", "baseCommit"],
            &["gitRoot"],
            &["repository"],
            &["hostType"],
            &["headCommit"],
            &["baseCommit"],
        ],
        Data::ContextCleared(_) => &[&["messageCount"], &["messagesCleared"]],
        Data::Handoff(_) => &[&["sourceType"], &["remoteSessionId"], &["repository"]],
        // each phase's row names its own fields (the call's id joins the phases); a
        // sub-agent event of another phase is printed whole
        Data::Subagent(_) => match kind {
            "subagent.started" => &[&["agentName"], &["toolCallId"], &["model"]],
            "subagent.completed" => &[
                &["agentName"],
                &["toolCallId"],
                &["durationMs"],
                &["totalTokens"],
            ],
            "subagent.failed" => &[&["agentName"], &["toolCallId"], &["error", "message"]],
            _ => return None,
        },
        Data::HookEnd(_) => &[
            &["hookType"],
            &["hookInvocationId"],
            &["success"],
            &["error", "message"],
        ],
        Data::Skill(_) => &[&["name"], &["path"], &["source"]],
        Data::SystemMessage(_) => &[&["role"], &["content"]],
        Data::SystemNotification(_) => &[&["kind", "type"], &["content"]],
        Data::Usage(_) => &[
            &["model"],
            &["inputTokens"],
            &["outputTokens"],
            &["cacheReadTokens"],
            &["cacheCreationInputTokens"],
            &["cacheWriteTokens"],
            &["copilotUsageNanoAiu"],
            &["parentToolCallId"],
            &["reasoningTokens"],
            &["copilotUsage", "totalNanoAiu"],
            // the VS Code writer's `inputTokens + outputTokens`, left out of the text
            &["totalTokens"],
        ],
        _ => return None,
    }))
}

/// True when the detail row's walk over a line's `data` gives the same with the long
/// strings the line's first read passed jumped over as with them passed again (for
/// the fuzz target, through `decode::scanner_agrees`).
pub(crate) fn detail_jumps_agree(line: &str) -> bool {
    decode::scan::with(line, |ev, data, _| {
        let Some(d) = data else {
            return true;
        };
        let printed = printed_fields(&ev.data, &ev.kind).unwrap_or_default();
        let plain = decode::scan::Found::plain(d.text);
        detail::unprinted(d, &printed, detail::Same::NONE)
            == detail::unprinted(plain, &printed, detail::Same::NONE)
    })
    .unwrap_or(true)
}

/// What a line's first read says of the keys its type does not read.
#[derive(Clone, Copy)]
enum Unread<'a> {
    /// None: the scanner read every key but its bookkeeping ids (and found this `data`).
    No(Option<decode::scan::Found<'a>>),
    /// Some, in this `data` (as written, from the scanner).
    In(decode::scan::Found<'a>),
    /// Perhaps: serde_json read the line and says nothing of the keys it skipped.
    Maybe,
}

/// The fields of a line's `data` that its rows did not print, as compact JSON (see
/// [`detail::unprinted`]), or empty when there are none.
fn unprinted(
    line: &Line<'_>,
    unread: Unread<'_>,
    printed: &[&[&str]],
    same: detail::Same<'_>,
) -> String {
    if let Unread::In(data) | Unread::No(Some(data)) = unread {
        return detail::unprinted(data, printed, same);
    }
    #[derive(serde::Deserialize)]
    struct Only<'a> {
        #[serde(borrow)]
        data: Option<&'a serde_json::value::RawValue>,
    }
    let from_serde;
    let data = match simdutf8::basic::from_utf8(line.bytes)
        .ok()
        .and_then(decode::scan::data_raw)
    {
        // the scanner finds it (serde_json reads the whole line again)
        Some(d) => d,
        None => {
            from_serde = serde_json::from_slice::<Only<'_>>(line.bytes).ok();
            from_serde.as_ref().and_then(|o| o.data).map(|r| r.get())
        }
    };
    match data {
        Some(d) => detail::unprinted(decode::scan::Found::plain(d), printed, same),
        None => String::new(),
    }
}

/// The `data` of a line in file order, compact, written into `out` (cleared first; for
/// a generic `session event:` row).
fn raw_data_into(out: &mut String, line: &Line<'_>) {
    #[derive(serde::Deserialize)]
    struct Only<'a> {
        #[serde(borrow)]
        data: Option<&'a serde_json::value::RawValue>,
    }
    out.clear();
    // the scanner finds it (serde_json read the whole line again)
    if let Some(data) = simdutf8::basic::from_utf8(line.bytes)
        .ok()
        .and_then(decode::scan::data_raw)
    {
        if let Some(data) = data {
            compact_json_into(out, data);
        }
        return;
    }
    if let Ok(Only { data: Some(raw) }) = serde_json::from_slice::<Only<'_>>(line.bytes) {
        compact_json_into(out, raw.get());
    }
}

#[cfg(test)]
mod tests {
    /// A line that is not UTF-8 has left out what the whole line with U+FFFD has left
    /// out, though it is first read with `?`: asset lines torn or broken with invalid
    /// bytes in their data, in a key, in the type, before any structure, and lines of
    /// other types.
    #[test]
    fn a_line_that_is_not_utf8_leaves_out_what_its_quote_would() {
        let lines: [&[u8]; 9] = [
            b"{\"type\":\"session.binary_asset\",\"data\":{\"data\":\"QUJD\xffREVG",
            b"{\"type\":\"session.binary_asset\",\"data\":{\"data\":\"QUJD\xffREVG\"},\"id\":1,\xff",
            b"{\"type\":\"session.bin\xffary_asset\",\"data\":{\"data\":\"QUJDREVG",
            b"{\"ty\xffpe\":\"session.binary_asset\",\"data\":{\"data\":\"QUJDREVG\"}}x",
            b"{\"data\":{\"d\xc3ta\":\"QUJDREVG",
            b"\xff\xfe{\"type\":\"session.binary_asset\"}",
            b"{\"type\":\"user.message\",\"data\":{\"content\":\"a\xffb\"}",
            b"\xf0\x9f\x98{\"data\":\"QUJD",
            b"{\"type\":\"session.binary_asset\",\"data\":\xff\"QUJDREVG\"}",
        ];
        let known = super::known;
        let mut left = Vec::new();
        for bytes in lines {
            let f = [bytes, b"\n"].concat();
            let line = chat_rows::lines::lines(&f).next().unwrap();
            let whole = match super::decode::asset_line::leave_out(&line.text_lossy(), known) {
                std::borrow::Cow::Owned(s) => Some(s),
                std::borrow::Cow::Borrowed(_) => None,
            };
            assert_eq!(super::asset_left_out(&line, known), whole, "{bytes:?}");
            left.push(whole.is_some());
        }
        let (y, n) = (true, false);
        assert_eq!(left, [y, y, y, y, n, n, n, n, y]);
    }

    /// In auto mode (`--model auto`) the model named is the route `auto`; the model it
    /// chose is in `session.auto_mode_resolved` (`chosenModel`), the shape Copilot CLI
    /// 1.0.77 wrote as other readers captured it. The replies after it that name no
    /// model take that one, until the next model change; its own row stays the generic
    /// `session event:` row, and no model family is inferred.
    #[test]
    fn a_reply_in_auto_mode_takes_the_model_auto_mode_chose() {
        let log = concat!(
            r#"{"type":"session.start","timestamp":"2026-08-02T17:20:00.000Z","data":{"sessionId":"s1","copilotVersion":"1.0.77","context":{"cwd":"/p"}}}"#,
            "\n",
            r#"{"type":"session.model_change","timestamp":"2026-08-02T17:20:00.100Z","data":{"newModel":"auto"}}"#,
            "\n",
            r#"{"type":"assistant.message","timestamp":"2026-08-02T17:20:00.150Z","data":{"content":"before"}}"#,
            "\n",
            r#"{"type":"session.auto_mode_resolved","timestamp":"2026-08-02T17:20:00.200Z","data":{"chosenModel":"claude-haiku-4.5","candidateModels":["gpt-5-mini","claude-haiku-4.5"]}}"#,
            "\n",
            r#"{"type":"assistant.turn_start","timestamp":"2026-08-02T17:20:01.100Z","data":{"turnId":"0","model":"auto"}}"#,
            "\n",
            r#"{"type":"assistant.message","timestamp":"2026-08-02T17:20:08.000Z","data":{"content":"one","reasoningText":"why","toolRequests":[{"toolCallId":"toolu_vrtx_01","name":"bash","arguments":{"command":"ls"}}]}}"#,
            "\n",
            r#"{"type":"assistant.message","timestamp":"2026-08-02T17:20:09.000Z","data":{"content":"two","model":"gpt-5-mini"}}"#,
            "\n",
            r#"{"type":"session.auto_mode_resolved","timestamp":"2026-08-02T17:20:09.500Z","data":{"chosenModel":7}}"#,
            "\n",
            r#"{"type":"assistant.message","timestamp":"2026-08-02T17:20:10.000Z","data":{"content":"three"}}"#,
            "\n",
            r#"{"type":"session.model_change","timestamp":"2026-08-02T17:20:11.000Z","data":{"newModel":"auto"}}"#,
            "\n",
            r#"{"type":"assistant.message","timestamp":"2026-08-02T17:20:12.000Z","data":{"content":"four"}}"#,
            "\n",
        );
        let opts = super::Options {
            agent: "copilot",
            fallback_session: "f",
            ..super::Options::default()
        };
        let mut rows: Vec<chat_rows::Row> = Vec::new();
        super::read_events(log.as_bytes(), &opts, &mut rows);
        let got: Vec<(String, &str, &str)> = rows
            .iter()
            .map(|r| (r.turn_type.to_string(), r.model.as_str(), r.text.as_str()))
            .collect();
        let row = |t: &str, m: &'static str, x: &'static str| (t.to_string(), m, x);
        assert_eq!(
            got,
            [
                row("system", "", "session start: copilot=1.0.77 cwd=/p"),
                row("system", "", "model: auto"),
                row("assistant", "", "before"),
                row(
                    "system",
                    "",
                    r#"session event: session.auto_mode_resolved {"chosenModel":"claude-haiku-4.5","candidateModels":["gpt-5-mini","claude-haiku-4.5"]}"#
                ),
                row("thinking", "claude-haiku-4.5", "why"),
                row("assistant", "claude-haiku-4.5", "one"),
                row("assistant", "gpt-5-mini", "two"),
                row(
                    "system",
                    "",
                    r#"session event: session.auto_mode_resolved {"chosenModel":7}"#
                ),
                row("assistant", "claude-haiku-4.5", "three"),
                row("assistant", "", "four"),
                // a request never started: at the end
                row("tool_use", "claude-haiku-4.5", r#"{"command":"ls"}"#),
                row(
                    "system",
                    "",
                    "link: tool call toolu_vrtx_01 was requested but never started in this file"
                ),
            ]
        );
        // the chosen model is a model named: no family is inferred from the call's id
        // (one is, without the resolution)
        let inferred = |log: &str| {
            let mut rows: Vec<chat_rows::Row> = Vec::new();
            super::read_events(log.as_bytes(), &opts, &mut rows);
            rows.iter()
                .filter(|r| r.text.starts_with("model family inferred:"))
                .count()
        };
        let lines: Vec<&str> = log.lines().collect();
        let request = lines[5];
        assert_eq!(inferred(&format!("{}\n{request}\n", lines[3])), 0);
        assert_eq!(inferred(&format!("{request}\n")), 1);
    }

    /// A call's state stays as small as a started call's tool name and two indexes:
    /// every completed id stays in the map.
    #[test]
    fn call_state_is_small() {
        assert!(std::mem::size_of::<super::Call>() <= 32);
    }

    /// `same` is `==`, for empty, equal, unequal and same-length texts.
    #[test]
    fn same_is_eq() {
        let texts = [
            "",
            "a",
            "b",
            "bench",
            "bencH",
            "0f3a9c1e-5b2d-4c7e",
            "caf\u{e9}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(super::same(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    /// `push_quoted` writes what serde_json writes, for every ASCII byte and others.
    #[test]
    fn quoted_is_serde_json() {
        let mut all: String = (0u8..128).map(char::from).collect();
        all.push_str("caf\u{e9} \u{1f600} \u{2028}\"\\");
        for v in [all.as_str(), "", "plain", "\"", "a\u{1}b\u{1f}\u{7f}"] {
            let mut out = String::new();
            super::push_quoted(&mut out, v);
            assert_eq!(out, serde_json::to_string(v).unwrap());
        }
    }
}
