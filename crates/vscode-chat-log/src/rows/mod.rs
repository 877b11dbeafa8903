//! Mapping sessions and the other VS Code files to rows, per the Parser plan of
//! `vscode.txt`.
//!
//! One mapping serves every source of a session: the replayed `.jsonl` log (where
//! each row knows the line that wrote it), a flat `.json` session (rows located by
//! JSON path), and the legacy `interactive.sessions` blob that `state-vscdb` reads
//! from SQLite ([`rows_from_session`]). Keeping one mapping is what makes a `.json`
//! copy's rows identical to the `.jsonl`'s, so the scanner's merge (the rule of
//! [`chat_rows::merge::merge_secondary`]) can drop the copies, and no copy is dropped
//! here.
//!
//! Why replies are assembled rather than mapped part by part: VS Code streams a reply
//! as many parts (markdown cut by inline references, code-block URIs, edit groups, undo
//! stops), and a row per part cut sentences where a file name stood and left rows that
//! were only a code fence. The rows follow VS Code's own rendering of a response
//! (`Response.toString` in `chatModel.ts`, see the crate README), so a row reads as the
//! user saw the reply, and an edit is one row naming the file and what changed.

use std::borrow::Cow;

use chat_rows::system::{self, ChangeTracker, ModelSpec};
use chat_rows::{RecordState, Row, Timestamp, TurnType};

use crate::decode::{LineInfo, Node, RecoveredKind, Replay, Slot};

/// What a session's rows need from outside the session itself.
#[derive(Clone, Debug, Default)]
pub struct SessionContext {
    /// The `agent` of every row: `vscode`, or the fork (`cursor`, `vscodium` ...).
    pub agent: String,
    /// The `source_file` of every row.
    pub source_file: String,
    /// The session id when the session has none (the file name's stem).
    pub session_id: String,
    /// The project when the session has no `workingDirectory` (the sibling
    /// `workspace.json` folder).
    pub project_path: String,
    /// The `.code-workspace` file the window had open, named in the session start row.
    pub workspace: String,
    /// For sessions without lines (flat `.json`, `state.vscdb`): the locator prefix,
    /// for example `ItemTable key=interactive.sessions [3]`; each row adds its JSON path.
    pub locator: String,
    /// True when the session is a secondary copy (a `.json` beside its `.jsonl`).
    pub secondary: bool,
}

impl SessionContext {
    /// A context for `agent` and `source_file`; everything else empty.
    pub fn new(agent: impl Into<String>, source_file: impl Into<String>) -> SessionContext {
        SessionContext {
            agent: agent.into(),
            source_file: source_file.into(),
            ..SessionContext::default()
        }
    }
}

/// The rows of one session given as a JSON value: a flat `.json` session, or one
/// element of the legacy `interactive.sessions` array of `state.vscdb`.
///
/// Every row has `ctx.agent`, `ctx.source_file` and the locator `ctx.locator` followed by
/// the JSON path of the value it came from (`requests[2].response[0]`); no
/// `source_line`. Rows are live, or secondary when `ctx.secondary` is set.
pub fn rows_from_session(session: &serde_json::Value, ctx: &SessionContext) -> Vec<Row> {
    let slot = Slot::new(0, Node::from_value(session, 0));
    let mut out = Vec::new();
    let mut m = Mapper::new(ctx, None, Out::Vec(&mut out));
    m.session(&slot);
    out
}

/// The rows of a parsed session node (flat `.json` files use this, borrowing the text
/// [`crate::decode::parse_document`] parsed).
pub fn rows_from_node(slot: &Slot<'_>, ctx: &SessionContext) -> Vec<Row> {
    let mut out = Vec::new();
    let mut m = Mapper::new(ctx, None, Out::Vec(&mut out));
    m.session(slot);
    out
}

/// Every row of a replayed log: the session, the recovered values, one `parser:` row
/// per bad line and, when VS Code would refuse the file, a row that says so.
pub fn rows_from_replay(replay: &Replay<'_>, ctx: &SessionContext) -> Vec<Row> {
    let mut out = Vec::new();
    let mut m = Mapper::new(ctx, Some(replay.lines()), Out::Vec(&mut out));
    if let Some(state) = replay.state() {
        m.session(state);
    }
    m.after_session(replay);
    out
}

/// The rows of [`rows_from_replay`], in the same order, handed to `each` one at a time
/// instead of collected.
///
/// This is the form for a tool that writes rows out as it goes (a JSONL or CSV
/// writer, a filter, a counter): only one row exists at a time, so a session's rows
/// never need memory of their own beside the file's bytes and the replayed tree, whose
/// texts are decoded only now, row by row. The row is lent, and its buffers are reused
/// for the next one; clone it to keep it.
pub fn for_each_row(replay: &Replay<'_>, ctx: &SessionContext, mut each: impl FnMut(&Row)) {
    let mut m = Mapper::new(
        ctx,
        Some(replay.lines()),
        Out::Each {
            each: &mut each,
            spare: None,
        },
    );
    if let Some(state) = replay.state() {
        m.session(state);
    }
    m.after_session(replay);
}

/// The same rows as [`rows_from_replay`], consuming the replay: each request's part of
/// the replayed tree is freed as soon as its rows are made, so a big session's tree
/// and its rows are never both whole in memory. Use it when the replay is not needed
/// afterwards (the store does).
pub fn into_rows(mut replay: Replay<'_>, ctx: &SessionContext) -> Vec<Row> {
    let state = replay.take_state();
    let mut out = Vec::new();
    let mut m = Mapper::new(ctx, Some(replay.lines()), Out::Vec(&mut out));
    if let Some(state) = state {
        m.session_owned(state);
    }
    m.after_session(&replay);
    out
}

/// Where the mapper's rows go: collected, or lent to a closure one at a time (the lent
/// row is then kept as `spare`, whose strings the next row reuses).
// one value per mapping, on the stack: its size does not matter, and boxing the spare
// row would cost an allocation per row, which it is there to save
#[allow(clippy::large_enum_variant)]
enum Out<'o> {
    Vec(&'o mut Vec<Row>),
    Each {
        each: &'o mut dyn FnMut(&Row),
        spare: Option<Row>,
    },
}

impl Out<'_> {
    #[inline]
    fn push(&mut self, row: Row) {
        match self {
            Out::Vec(v) => v.push(row),
            Out::Each { each, spare } => {
                each(&row);
                *spare = Some(row);
            }
        }
    }

    /// The last lent row, to be overwritten.
    fn spare(&mut self) -> Option<Row> {
        match self {
            Out::Vec(_) => None,
            Out::Each { spare, .. } => spare.take(),
        }
    }

    fn reserve(&mut self, n: usize) {
        if let Out::Vec(v) = self {
            v.reserve(n);
        }
    }
}

impl Mapper<'_, '_> {
    /// The rows after the session's: recovered values, bad lines, VS Code's refusal.
    fn after_session(mut self, replay: &Replay<'_>) {
        let ctx = self.ctx;
        let m = &mut self;
        for r in replay.recovered() {
            m.state = RecordState::Recovered;
            match &r.kind {
                RecoveredKind::Request => {
                    for v in &r.values {
                        let node = v.node.view(v.origin);
                        m.request(&node, v.origin, "", None);
                    }
                }
                RecoveredKind::Parts { request } => {
                    let ctx = RequestTimes::of(request, &m.model_of(request));
                    m.parts(&r.values, &ctx, "");
                }
                // an overwritten prompt: a user row as the request's own, at its time
                RecoveredKind::Prompt { request } => {
                    let model = m.model_of(request);
                    let times = RequestTimes::of(request, &model);
                    for v in &r.values {
                        let text = v.node.text().unwrap_or_default().into_owned();
                        let row = m
                            .row(TurnType::User, text, v.origin, "")
                            .at(times.request)
                            .model_of(&model);
                        m.out.push(row);
                    }
                }
            }
        }
        m.state = base_state(ctx);
        for e in replay.errors() {
            let text = e.error.row_text(replay.line_bytes(e.index));
            let row = m.row(TurnType::System, text, e.index, "");
            m.out.push(row);
        }
        if let Some(refusal) = replay.refusal() {
            let text = system::parser(format!("VS Code would not load this file ({refusal})"));
            let index = refusal
                .line
                .and_then(|n| replay.lines().iter().position(|l| l.number == n))
                .map(|i| i as u32);
            let mut row = match index {
                Some(i) => m.row(TurnType::System, text, i, ""),
                None => m.row(TurnType::System, text, u32::MAX, ""),
            };
            if index.is_none() {
                row.source_line = None;
                row.source_locator = "byte 0".into();
            }
            m.out.push(row);
        }
    }
}

/// Setting a row's strings from borrowed ones, reusing the row's buffers.
trait Reuse {
    /// Sets the model.
    fn model_of(self, model: &str) -> Row;
}

impl Reuse for Row {
    #[inline]
    fn model_of(mut self, model: &str) -> Row {
        self.model.clear();
        self.model.push_str(model);
        self
    }
}

fn base_state(ctx: &SessionContext) -> RecordState {
    if ctx.secondary {
        RecordState::Secondary
    } else {
        RecordState::Live
    }
}

/// A request's times and model, for the rows of its response.
struct RequestTimes {
    request: Option<Timestamp>,
    /// The reply's own time, else the request's (then `derived`).
    response: Option<Timestamp>,
    /// True when the reply recorded no time of its own and takes the request's: its
    /// rows' locators say so ([`DERIVED_TIME`]).
    derived: bool,
    /// The model that ran: `result.metadata.resolvedModel` when there is one, else the
    /// requested `modelId`.
    model: String,
    /// The resolved model when it differs from the requested one (`copilot/auto`), and
    /// the line (or part) that wrote `result`.
    resolved: Option<(String, u32)>,
}

/// Appended to the locator of a response row whose time is its request's: flat
/// sessions of VS Code 1.104/1.105 record no response time at all.
pub const DERIVED_TIME: &str = " (time of the request)";

fn millis(n: Option<&Slot<'_>>) -> Option<Timestamp> {
    let n = n?;
    match &n.node {
        Node::Num(x) if *x > 0.0 => Timestamp::from_epoch_millis_f64(*x),
        Node::Str(_) | Node::Esc(_) => n
            .node
            .text()
            .unwrap_or_default()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| *x > 0.0)
            .and_then(Timestamp::from_epoch_millis_f64),
        _ => None,
    }
}

impl RequestTimes {
    fn of(req: &Node<'_>, model: &str) -> RequestTimes {
        let request = millis(req.get("timestamp"));
        let resolved = resolved_model(req).filter(|(r, _)| r != model);
        // responseTimestamp; else 1.117's timeSpentWaiting, which its log schema fills
        // with the response's epoch time (flat files keep a duration there, which is
        // told apart by size); else the completion time of modelState
        let waiting = req
            .get("timeSpentWaiting")
            .and_then(|s| s.node.as_f64())
            .filter(|x| *x >= 1e12)
            .and_then(Timestamp::from_epoch_millis_f64);
        let completed = req
            .get("modelState")
            .and_then(|m| millis(m.node.get("completedAt")));
        let own = millis(req.get("responseTimestamp"))
            .or(waiting)
            .or(completed);
        RequestTimes {
            request,
            response: own.or(request),
            derived: own.is_none() && request.is_some(),
            model: resolved
                .as_ref()
                .map_or_else(|| model.to_string(), |(r, _)| r.clone()),
            resolved,
        }
    }
}

/// `result.metadata.resolvedModel`: the model that actually ran (Copilot names it when
/// the request asked for `copilot/auto`). `result` is the biggest subtree of a request
/// and is kept unparsed by the replay, so it is parsed only when its text holds the key.
pub(crate) fn resolved_model(req: &Node<'_>) -> Option<(String, u32)> {
    let result = req.get("result")?;
    let origin = result.origin;
    if let Node::Raw(r) = &result.node {
        memchr::memmem::find(r.as_bytes(), b"\"resolvedModel\"")?;
    } else if let Node::RawOwned(r) = &result.node {
        memchr::memmem::find(r.as_bytes(), b"\"resolvedModel\"")?;
    }
    let result = result.node.view(result.origin);
    let meta = result.get("metadata")?;
    let meta = meta.node.view(meta.origin);
    get_str(&meta, "resolvedModel")
        .map(Cow::into_owned)
        .filter(|m| !m.is_empty())
        .map(|m| (m, origin))
}

/// Text of a string or a markdown object `{value}`.
fn text_of(n: &Node<'_>) -> Option<String> {
    match n {
        Node::Obj(_) => n
            .get("value")
            .and_then(|v| v.node.text())
            .map(Cow::into_owned),
        other => other.text().map(Cow::into_owned),
    }
}

fn get_str<'n>(n: &'n Node<'_>, key: &str) -> Option<Cow<'n, str>> {
    let s = n.get(key)?;
    match &s.node {
        Node::Raw(_) | Node::RawOwned(_) => s
            .node
            .view(s.origin)
            .text()
            .map(|t| Cow::Owned(t.into_owned())),
        other => other.text(),
    }
}

/// A value for `key=value` texts: strings bare, anything else compact JSON.
fn plain(n: &Node<'_>) -> String {
    match n {
        Node::Str(_) | Node::Esc(_) => n.text().unwrap_or_default().into_owned(),
        other => other.to_json(),
    }
}

/// A tool invocation's confirmation kind names (`ToolConfirmKind`).
const CONFIRM_KINDS: [&str; 6] = [
    "Denied",
    "ConfirmationNotNeeded",
    "Setting",
    "LmServicePerTool",
    "UserAction",
    "Skipped",
];

struct Trackers {
    mode: ChangeTracker<String>,
    level: ChangeTracker<String>,
    model: ChangeTracker<ModelSpec>,
}

impl Trackers {
    fn new() -> Trackers {
        Trackers {
            mode: system::permission_mode_tracker(),
            level: system::permission_level_tracker(),
            model: ChangeTracker::model(),
        }
    }
}

struct Mapper<'c, 'o> {
    ctx: &'c SessionContext,
    lines: Option<&'c [LineInfo]>,
    session: String,
    project: String,
    state: RecordState,
    /// The last line's locator, and that line's index.
    locator: Option<(u32, String)>,
    out: Out<'o>,
}

impl<'c, 'o> Mapper<'c, 'o> {
    fn new(ctx: &'c SessionContext, lines: Option<&'c [LineInfo]>, out: Out<'o>) -> Mapper<'c, 'o> {
        Mapper {
            ctx,
            lines,
            session: ctx.session_id.clone(),
            project: ctx.project_path.clone(),
            state: base_state(ctx),
            locator: None,
            out,
        }
    }

    fn row(&mut self, tt: TurnType, text: impl Into<String>, origin: u32, path: &str) -> Row {
        let mut row = match self.out.spare() {
            // a lent row's strings keep their buffers: no allocation per field
            Some(mut r) => {
                // every field named, so that a new field of `Row` cannot be forgotten
                let Row {
                    timestamp,
                    host,
                    user,
                    agent,
                    session_id,
                    project_path,
                    git_branch,
                    turn_type,
                    model,
                    tool_name,
                    tool_use_id,
                    text: row_text,
                    source_file,
                    source_line,
                    source_locator,
                    record_state: _,
                    secondary,
                } = &mut r;
                *timestamp = None;
                host.clear();
                user.clear();
                agent.clone_from(&self.ctx.agent);
                session_id.clone_from(&self.session);
                project_path.clone_from(&self.project);
                git_branch.clear();
                *turn_type = tt;
                model.clear();
                tool_name.clear();
                tool_use_id.clear();
                *row_text = text.into();
                source_file.clone_from(&self.ctx.source_file);
                *source_line = None;
                source_locator.clear();
                *secondary = false;
                r.state(self.state)
            }
            None => Row::new(self.ctx.agent.clone(), tt, text)
                .session(self.session.clone())
                .project(self.project.clone())
                .file(self.ctx.source_file.clone())
                .state(self.state),
        };
        if self.ctx.secondary {
            row = row.secondary(true);
        }
        match self.lines {
            Some(lines) => {
                if let Some(l) = lines.get(origin as usize) {
                    // a line's rows come together (a whole session, from a kind-0
                    // line): its locator is formatted once
                    if !matches!(&self.locator, Some((o, _)) if *o == origin) {
                        self.locator = Some((origin, format!("byte {}", l.offset)));
                    }
                    if let Some((_, loc)) = &self.locator {
                        row.source_locator.clone_from(loc);
                    }
                    row.source_line = Some(l.number);
                }
            }
            None => {
                let loc = match (self.ctx.locator.is_empty(), path.is_empty()) {
                    (true, _) => path.to_string(),
                    (false, true) => self.ctx.locator.clone(),
                    (false, false) => format!("{} {}", self.ctx.locator, path),
                };
                row = row.locator(loc);
            }
        }
        row
    }

    fn model_of(&self, req: &Node<'_>) -> String {
        get_str(req, "modelId").unwrap_or_default().into_owned()
    }

    /// The session start row (or the row saying the session is no object, then false).
    fn session_start(&mut self, node: &Node<'_>, origin: u32) -> bool {
        if !matches!(node, Node::Obj(_)) {
            let text = system::parser(format!(
                "the session is {}, not a JSON object",
                node.type_name()
            ));
            let row = self.row(TurnType::System, text, origin, "$");
            self.out.push(row);
            return false;
        }
        if let Some(id) = get_str(node, "sessionId").filter(|s| !s.is_empty()) {
            self.session = id.to_string();
        }
        if let Some(wd) = node.get("workingDirectory") {
            let path = match &wd.node {
                Node::Str(_) | Node::Esc(_) => {
                    chat_rows::uri::to_path(&wd.node.text().unwrap_or_default())
                }
                other => chat_rows::uri::value_to_path(&other.view(wd.origin).to_value()),
            };
            if let Some(p) = path.filter(|p| !p.is_empty()) {
                self.project = p;
            }
        }
        // v3 customTitle; v2 computedTitle (VS Code's normalisation)
        let title = get_str(node, "customTitle")
            .or_else(|| get_str(node, "computedTitle"))
            .unwrap_or_default();
        let responder = get_str(node, "responderUsername").unwrap_or_default();
        let location = get_str(node, "initialLocation").unwrap_or_default();
        let text = system::session_start(&[
            ("title", &title),
            ("responder", &responder),
            ("location", &location),
            ("workspace", &self.ctx.workspace),
        ]);
        let created = millis(node.get("creationDate"));
        let row = self.row(TurnType::System, text, origin, "$").at(created);
        self.out.push(row);
        true
    }

    /// The rows of a session borrowed from a replay or a parsed file.
    fn session(&mut self, root: &Slot<'_>) {
        let node = root.node.view(root.origin);
        if !self.session_start(&node, root.origin) {
            return;
        }
        let Some(reqs) = node.get("requests") else {
            return;
        };
        let reqs_node = reqs.node.view(reqs.origin);
        let Node::Arr(items) = reqs_node.as_ref() else {
            return;
        };
        self.reserve_for(items);
        let mut trackers = Trackers::new();
        for (i, item) in items.iter().enumerate() {
            self.session_request(i, item, &mut trackers);
        }
    }

    /// Like [`Mapper::session`], consuming the tree: each request's subtree is freed as
    /// soon as its rows are made, so the tree and the rows are never both whole in
    /// memory (the freed blocks hold the next requests' row texts).
    fn session_owned(&mut self, root: Slot<'_>) {
        let origin = root.origin;
        let mut node = root.node;
        node.materialize(origin);
        if !self.session_start(&node, origin) {
            return;
        }
        let Some(mut fields) = node.into_fields() else {
            return;
        };
        // the last of equal keys, as `Node::get` finds it
        let Some(reqs) = fields.get_mut("requests") else {
            return;
        };
        reqs.node.materialize(reqs.origin);
        let Some(items) = reqs.node.take().into_items() else {
            return;
        };
        drop(fields);
        self.reserve_for(&items);
        let mut trackers = Trackers::new();
        for (i, item) in items.into_iter().enumerate() {
            self.session_request(i, &item, &mut trackers);
        }
    }

    /// Reserves the rows of `items` at once.
    fn reserve_for(&mut self, items: &[Slot<'_>]) {
        // reserve the rows at once: growing a vector of rows by doubling copies and
        // frees tens of MB on a big session. A part makes at most three rows (a tool
        // invocation), a request at most five of its own; the spare capacity of a big
        // reservation is never touched, so it costs address space, not memory
        let estimate: usize = items
            .iter()
            .map(|it| match it.node.get("response").map(|r| &r.node) {
                Some(Node::Arr(parts)) => parts.len() * 3 + 5,
                _ => 5,
            })
            .sum();
        self.out.reserve(estimate);
    }

    /// The rows of the `i`th element of a session's `requests`.
    fn session_request(&mut self, i: usize, item: &Slot<'_>, trackers: &mut Trackers) {
        let req = item.node.view(item.origin);
        if matches!(req.as_ref(), Node::Undefined | Node::Null) {
            return;
        }
        let path = if self.lines.is_some() {
            String::new()
        } else {
            format!("$.requests[{i}]")
        };
        self.request(&req, item.origin, &path, Some(trackers));
    }

    fn request(
        &mut self,
        req: &Node<'_>,
        origin: u32,
        path: &str,
        trackers: Option<&mut Trackers>,
    ) {
        let model = self.model_of(req);
        let times = RequestTimes::of(req, &model);
        let live = trackers.is_some();
        if let Some(t) = trackers {
            let mode_info = req.get("modeInfo").map(|m| m.node.view(m.origin));
            let mode = mode_info
                .as_deref()
                .and_then(|m| get_str(m, "telemetryModeId"))
                .map(Cow::into_owned);
            let level = mode_info
                .as_deref()
                .and_then(|m| get_str(m, "permissionLevel"))
                .map(Cow::into_owned);
            if let Some(text) = mode.and_then(|m| t.mode.observe(m)) {
                let row = self
                    .row(TurnType::System, text, origin, path)
                    .at(times.request)
                    .model_of(&model);
                self.out.push(row);
            }
            if let Some(text) = level.and_then(|l| t.level.observe(l)) {
                let row = self
                    .row(TurnType::System, text, origin, path)
                    .at(times.request)
                    .model_of(&model);
                self.out.push(row);
            }
            if !model.is_empty() {
                let mut options = Vec::new();
                if let Some(cfg) = req.get("modelConfiguration") {
                    if let Node::Obj(fields) = cfg.node.view(cfg.origin).as_ref() {
                        for (k, v) in fields.iter().filter(|(_, v)| !v.node.is_undefined()) {
                            options.push((k.to_string(), plain(&v.node.view(v.origin))));
                        }
                    }
                }
                if let Some(text) = t
                    .model
                    .observe(ModelSpec::with_options(model.clone(), options))
                {
                    let row = self
                        .row(TurnType::System, text, origin, path)
                        .at(times.request)
                        .model_of(&model);
                    self.out.push(row);
                }
            }
        }
        // the prompt: message.text, or the old string form
        let (text, morigin) = match req.get("message") {
            Some(m) => {
                let mn = m.node.view(m.origin);
                let t = match mn.as_ref() {
                    Node::Str(_) | Node::Esc(_) => mn.text().unwrap_or_default().into_owned(),
                    other => get_str(other, "text").unwrap_or_default().into_owned(),
                };
                (t, m.origin)
            }
            None => (String::new(), origin),
        };
        let row = self
            .row(TurnType::User, text, morigin, &join(path, "message"))
            .at(times.request)
            .model_of(&model);
        self.out.push(row);
        if let Some(label) = req
            .get("confirmation")
            .and_then(|c| c.node.text().map(|s| (s.into_owned(), c.origin)))
        {
            let text = system::permission_decision(format!("confirmation={}", label.0));
            let row = self
                .row(TurnType::System, text, label.1, &join(path, "confirmation"))
                .at(times.request)
                .model_of(&model);
            self.out.push(row);
        }
        // the model `copilot/auto` resolved to, before the reply it wrote (a row of the
        // live sequence, like the model rows above)
        if let (Some((resolved, at)), true) = (&times.resolved, live) {
            let text = system::model_change(&model, resolved);
            let row = self.reply(TurnType::System, text, *at, &join(path, "result"), &times);
            self.out.push(row);
        }
        if let Some(r) = req.get("response") {
            let rn = r.node.view(r.origin);
            match rn.as_ref() {
                Node::Arr(parts) => self.parts(parts, &times, &join(path, "response")),
                Node::Str(_) | Node::Esc(_) if rn.truthy() => {
                    let s = rn.text().unwrap_or_default();
                    let row = self.reply(
                        TurnType::Assistant,
                        s.to_string(),
                        r.origin,
                        &join(path, "response"),
                        &times,
                    );
                    self.out.push(row);
                }
                _ => {}
            }
        }
    }

    /// A row of a request's response: at the reply's time (its request's, marked in the
    /// locator, when it has none of its own), with the model that ran.
    fn reply(
        &mut self,
        tt: TurnType,
        text: impl Into<String>,
        origin: u32,
        path: &str,
        times: &RequestTimes,
    ) -> Row {
        let mut row = self
            .row(tt, text, origin, path)
            .at(times.response)
            .model_of(&times.model);
        if times.derived {
            row.source_locator.push_str(DERIVED_TIME);
        }
        row
    }

    /// The rows of a response's parts, assembled as VS Code's `Response.toString`
    /// (`chatModel.ts`) renders them: consecutive markdown, inline references and the
    /// parts it passes over (code-block URIs, edit groups, undo stops, progress
    /// messages ...) form one assistant text; an edit is one row naming the file and
    /// what changed; a part that is a row of its own (a tool call, a thinking block
    /// with visible text, a confirmation, a hand-off) or that VS Code renders as a block
    /// of its own (a command button) ends the text.
    fn parts(&mut self, parts: &[Slot<'_>], times: &RequestTimes, path: &str) {
        let mut run = Run::default();
        for (j, slot) in parts.iter().enumerate() {
            let part = slot.node.view(slot.origin);
            let ppath = if path.is_empty() {
                String::new()
            } else {
                format!("{path}[{j}]")
            };
            let kind = get_str(&part, "kind");
            let markdown = match (part.as_ref(), kind.as_deref()) {
                (Node::Str(_) | Node::Esc(_), _) => part.text().map(Cow::into_owned),
                (Node::Obj(_), None) => get_str(&part, "value").map(Cow::into_owned),
                (
                    Node::Obj(_),
                    Some(
                        "markdownContent"
                        | "markdownVuln"
                        | "warning"
                        | "progressTask"
                        | "progressTaskSerialized",
                    ),
                ) => part
                    .get("content")
                    .and_then(|c| text_of(&c.node.view(c.origin))),
                (Node::Obj(_), Some("inlineReference")) => Some(inline_reference_text(&part)),
                _ => None,
            };
            if let Some(t) = markdown {
                run.push(&t, slot.origin, &ppath);
                continue;
            }
            match kind.as_deref() {
                Some("codeblockUri") => {
                    run.code_block();
                    let is_edit = part
                        .get("isEdit")
                        .and_then(|b| b.node.as_bool())
                        .unwrap_or(false);
                    if is_edit {
                        let file = part_uri(&part, "uri");
                        run.edits.push(Edit {
                            file,
                            changes: None,
                            origin: slot.origin,
                            path: ppath,
                        });
                    }
                }
                Some("textEditGroup" | "notebookEditGroup") => {
                    let file = part_uri(&part, "uri");
                    let changes = edit_changes(&part);
                    match run.edits.last_mut() {
                        // the code block's URI and its edits are one edit
                        Some(e) if e.changes.is_none() && e.file == file => {
                            e.changes = Some(changes)
                        }
                        _ => run.edits.push(Edit {
                            file,
                            changes: Some(changes),
                            origin: slot.origin,
                            path: ppath,
                        }),
                    }
                }
                Some("multiDiffData") => {
                    if let Some(text) = multi_diff_text(&part) {
                        run.edits.push(Edit {
                            file: String::new(),
                            changes: Some(text),
                            origin: slot.origin,
                            path: ppath,
                        });
                    }
                }
                Some("thinking") => {
                    let text = match part.get("value").map(|v| &v.node) {
                        Some(n @ (Node::Str(_) | Node::Esc(_))) => {
                            n.text().unwrap_or_default().into_owned()
                        }
                        Some(Node::Arr(a)) => a.iter().filter_map(|s| s.node.text()).collect(),
                        _ => String::new(),
                    };
                    // a thinking part with no visible text (empty, or a single space
                    // that some models stream between blocks) is no row, and like
                    // every thinking part in VS Code's rendering it does not cut the reply
                    if text.trim().is_empty() {
                        continue;
                    }
                    self.flush_run(&mut run, times);
                    let row = self.reply(TurnType::Thinking, text, slot.origin, &ppath, times);
                    self.out.push(row);
                }
                Some("toolInvocationSerialized" | "toolInvocation") => {
                    self.flush_run(&mut run, times);
                    self.tool(&part, slot.origin, &ppath, times)
                }
                Some("confirmation") => {
                    self.flush_run(&mut run, times);
                    let is_used = part
                        .get("isUsed")
                        .and_then(|b| b.node.as_bool())
                        .unwrap_or(false);
                    let buttons = match part.get("buttons").map(|b| b.node.view(b.origin)) {
                        Some(b) => match b.as_ref() {
                            Node::Arr(items) => items
                                .iter()
                                .filter_map(|s| match &s.node {
                                    Node::Str(_) | Node::Esc(_) => {
                                        s.node.text().map(Cow::into_owned)
                                    }
                                    other => get_str(other, "label").map(Cow::into_owned),
                                })
                                .collect::<Vec<_>>()
                                .join(","),
                            _ => String::new(),
                        },
                        None => String::new(),
                    };
                    let title = part
                        .get("title")
                        .and_then(|t| text_of(&t.node))
                        .unwrap_or_default();
                    let message = part
                        .get("message")
                        .and_then(|t| text_of(&t.node))
                        .unwrap_or_default();
                    let mut detail =
                        format!("confirmation isUsed={is_used} buttons={buttons} title={title}");
                    if !message.is_empty() {
                        detail.push('\n');
                        detail.push_str(&message);
                    }
                    let row = self.reply(
                        TurnType::System,
                        system::permission_decision(detail),
                        slot.origin,
                        &ppath,
                        times,
                    );
                    self.out.push(row);
                }
                Some("pullRequest") => {
                    self.flush_run(&mut run, times);
                    let title = part
                        .get("title")
                        .and_then(|t| text_of(&t.node))
                        .unwrap_or_default();
                    let uri = match part.get("uri").map(|u| u.node.view(u.origin)) {
                        Some(u) => match u.as_ref() {
                            Node::Str(_) | Node::Esc(_) => {
                                u.text().unwrap_or_default().into_owned()
                            }
                            Node::Obj(_) => uri_text(&u),
                            _ => String::new(),
                        },
                        None => String::new(),
                    };
                    let detail = format!(
                        "cloud agent hand-off {}",
                        system::key_values(&[("title", &title), ("uri", &uri)])
                    );
                    let text = system::session_synced(
                        detail.trim_end(),
                        &system::from("chat session pullRequest part", "response time"),
                    );
                    let row = self.reply(TurnType::System, text, slot.origin, &ppath, times);
                    self.out.push(row);
                }
                // VS Code renders a command button as a block of its own
                Some("command") => self.flush_run(&mut run, times),
                // every other part (undo stops, progress messages, tree data, kinds
                // newer than this reader) is passed over, as VS Code's rendering does
                _ => {}
            }
        }
        self.flush_run(&mut run, times);
    }

    /// Ends the assistant text being assembled: its row (when it has visible text),
    /// then one row per edit it made.
    fn flush_run(&mut self, run: &mut Run, times: &RequestTimes) {
        let run = std::mem::take(run);
        if let Some((origin, path)) = run.at {
            if run.visible.is_some() {
                let row = self.reply(TurnType::Assistant, run.text, origin, &path, times);
                self.out.push(row);
            }
        }
        for e in run.edits {
            let text = e.text();
            let row = self.reply(TurnType::Assistant, text, e.origin, &e.path, times);
            self.out.push(row);
        }
    }

    fn tool(&mut self, part: &Node<'_>, origin: u32, path: &str, times: &RequestTimes) {
        let name = get_str(part, "toolId").unwrap_or_default().into_owned();
        let id = get_str(part, "toolCallId").unwrap_or_default().into_owned();
        let specific = part.get("toolSpecificData").map(|s| s.node.view(s.origin));
        let details = part.get("resultDetails").map(|s| s.node.view(s.origin));
        // the call: the terminal command, the raw input, the recorded input, else the message
        let mut call = None;
        // the command as the user edited it before it ran, when it is not the proposed one
        let mut edited = None;
        if let Some(sd) = specific.as_deref() {
            match get_str(sd, "kind").as_deref() {
                Some("terminal") => {
                    call = sd
                        .get("commandLine")
                        .and_then(|c| get_str(&c.node, "original").map(Cow::into_owned))
                        .or_else(|| get_str(sd, "command").map(Cow::into_owned));
                    edited = sd
                        .get("commandLine")
                        .and_then(|c| get_str(&c.node, "userEdited").map(Cow::into_owned))
                        .filter(|e| !e.is_empty() && Some(e) != call.as_ref());
                }
                Some("input") => call = sd.get("rawInput").map(|r| plain(&r.node.view(r.origin))),
                _ => {}
            }
        }
        if call.is_none() {
            call = details
                .as_deref()
                .and_then(|d| get_str(d, "input"))
                .map(Cow::into_owned);
        }
        if call.is_none() {
            call = part.get("invocationMessage").and_then(|m| text_of(&m.node));
        }
        let row = self
            .reply(
                TurnType::ToolUse,
                call.unwrap_or_default(),
                origin,
                path,
                times,
            )
            .tool(name.clone(), id.clone());
        self.out.push(row);
        // `commandLine.userEdited`: what ran when the user changed the proposed command
        // (since 2026-12-05; before, never printed)
        if let Some(e) = edited {
            let row = self
                .reply(
                    TurnType::System,
                    format!("tool command edited by the user: {e}"),
                    origin,
                    path,
                    times,
                )
                .tool(name.clone(), id.clone());
            self.out.push(row);
        }

        // the result: the output, the error, else the past-tense message
        let mut result = String::new();
        let mut is_error = false;
        if let Some(d) = details.as_deref() {
            match d {
                Node::Obj(_) => {
                    is_error = d
                        .get("isError")
                        .and_then(|b| b.node.as_bool())
                        .unwrap_or(false);
                    if let Some(out) = d.get("output") {
                        result = output_text(&out.node.view(out.origin));
                    }
                }
                Node::Arr(items) => {
                    result = items
                        .iter()
                        .map(|s| uri_text(&s.node.view(s.origin)))
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .join("\n");
                }
                _ => {}
            }
        }
        if let Some(err) = part.get("resultError") {
            let e = match err.node.text() {
                Some(t) => t.into_owned(),
                None => get_str(&err.node, "message")
                    .map(Cow::into_owned)
                    .unwrap_or_else(|| plain(&err.node)),
            };
            if !e.is_empty() {
                is_error = true;
                result = if result.is_empty() {
                    e
                } else {
                    format!("{result}\n{e}")
                };
            }
        }
        if result.is_empty() && !is_error {
            result = part
                .get("pastTenseMessage")
                .and_then(|m| text_of(&m.node))
                .unwrap_or_default();
        }
        if is_error {
            result = format!("error: {result}");
        }
        let row = self
            .reply(TurnType::ToolResult, result, origin, path, times)
            .tool(name.clone(), id.clone());
        self.out.push(row);

        // the decision
        let Some(conf) = part.get("isConfirmed") else {
            return;
        };
        let conf = conf.node.view(conf.origin);
        let mut detail = match conf.as_ref() {
            Node::Bool(b) => format!("confirmed={b}"),
            Node::Obj(fields) => {
                let kind = get_num(&conf, "type");
                let name = kind
                    .filter(|k| {
                        k.fract() == 0.0 && *k >= 0.0 && (*k as usize) < CONFIRM_KINDS.len()
                    })
                    .map(|k| format!("{}({})", CONFIRM_KINDS[k as usize], k as usize))
                    .unwrap_or_else(|| {
                        format!(
                            "unknown({})",
                            conf.get("type").map(|t| plain(&t.node)).unwrap_or_default()
                        )
                    });
                let mut others: Vec<(String, String)> = fields
                    .iter()
                    .filter(|(k, v)| k != "type" && k != "reason" && !v.node.is_undefined())
                    .map(|(k, v)| (k.to_string(), plain(&v.node.view(v.origin))))
                    .collect();
                others.sort();
                if let Some(r) = conf.get("reason") {
                    let r = text_of(&r.node.view(r.origin)).unwrap_or_else(|| plain(&r.node));
                    others.push(("reason".into(), r));
                }
                let kv: Vec<(&str, &str)> = others
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                let rest = system::key_values(&kv);
                if rest.is_empty() {
                    format!("confirmed={name}")
                } else {
                    format!("confirmed={name} {rest}")
                }
            }
            Node::Undefined | Node::Null => return,
            other => format!("confirmed={}", plain(other)),
        };
        if let Some(src) = part.get("source").map(|s| s.node.view(s.origin)) {
            if let Some(t) = get_str(&src, "type") {
                detail.push_str(&format!(" tool_source={t}"));
            }
        }
        let row = self
            .reply(
                TurnType::System,
                system::permission_decision(detail),
                origin,
                path,
                times,
            )
            .tool(name, id);
        self.out.push(row);
    }
}

/// An assistant text being assembled from consecutive response parts, and the edits
/// made along it.
#[derive(Default)]
struct Run {
    text: String,
    /// Where each line of `text` but the first starts (just past each `\n`), kept as
    /// the text grows and shrinks, so that the last line is found without searching the
    /// text: a reply of many code blocks searched its whole text for each one (80,000
    /// code blocks in a reply without a newline: 38 s).
    line_starts: Vec<usize>,
    /// Where the first visible (non-whitespace) character of `text` is, if it has one.
    visible: Option<usize>,
    /// The line (or part) and JSON path of the text's first part.
    at: Option<(u32, String)>,
    /// An opening code fence at the end of the text when a code block's URI came:
    /// where it starts, and the text's length then. VS Code shows such a block as the
    /// edit it holds, so when the next text closes the fence with nothing between, the
    /// pair is dropped (the edit is its own row).
    open_fence: Option<(usize, usize)>,
    edits: Vec<Edit>,
}

impl Run {
    /// Appends a part's text (markdown, a rendered reference ...).
    fn push(&mut self, t: &str, origin: u32, path: &str) {
        let mut t = t;
        if let Some((start, len)) = self.open_fence.take() {
            if self.text.len() == len {
                if let Some(rest) = after_closing_fence(t) {
                    self.truncate(start);
                    if self.visible.is_none() {
                        // the text was only the fence: it starts again here
                        self.truncate(0);
                        self.at = None;
                    }
                    t = rest;
                }
            }
        }
        if self.at.is_none() {
            self.at = Some((origin, path.to_string()));
        }
        self.append(t);
    }

    /// Adds `t` to the text, noting its line starts and first visible character (a
    /// pass over `t` only).
    fn append(&mut self, t: &str) {
        let base = self.text.len();
        self.line_starts
            .extend(memchr::memchr_iter(b'\n', t.as_bytes()).map(|i| base + i + 1));
        if self.visible.is_none() {
            self.visible = t
                .char_indices()
                .find(|(_, c)| !c.is_whitespace())
                .map(|(i, _)| base + i);
        }
        self.text.push_str(t);
    }

    /// Cuts the text to its first `n` bytes (`n` on a character boundary).
    fn truncate(&mut self, n: usize) {
        self.text.truncate(n);
        while self.line_starts.last().is_some_and(|s| *s > n) {
            self.line_starts.pop();
        }
        if self.visible.is_some_and(|v| v >= n) {
            self.visible = None;
        }
    }

    /// Where the last line of the text starts, a final newline (and a CR before it)
    /// not counted.
    fn last_line_start(&self) -> usize {
        let starts = match self.text.ends_with('\n') {
            true => &self.line_starts[..self.line_starts.len().saturating_sub(1)],
            false => &self.line_starts[..],
        };
        starts.last().copied().unwrap_or(0)
    }

    /// A code block's URI: note an opening fence that ends the text.
    fn code_block(&mut self) {
        self.open_fence =
            opening_fence_at(&self.text, self.last_line_start()).map(|at| (at, self.text.len()));
    }
}

/// `start` when the last line of `text`, which starts there, is an opening code fence
/// (three or more backticks and an info string without backticks, then an optional
/// newline).
fn opening_fence_at(text: &str, start: usize) -> Option<usize> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let body = body.strip_suffix('\r').unwrap_or(body);
    let line = body.get(start..)?.trim_start_matches([' ', '\t']);
    let ticks = line.bytes().take_while(|b| *b == b'`').count();
    (ticks >= 3 && !line[ticks..].contains('`')).then_some(start)
}

/// The rest of `t` after a closing code fence that begins it (after whitespace), or
/// None when it does not begin with one.
fn after_closing_fence(t: &str) -> Option<&str> {
    let lead = t.len() - t.trim_start().len();
    let rest = &t[lead..];
    let ticks = rest.bytes().take_while(|b| *b == b'`').count();
    if ticks < 3 {
        return None;
    }
    let rest = &rest[ticks..];
    let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
    rest[..line_end]
        .trim()
        .is_empty()
        .then_some(&rest[line_end..])
}

/// One edit of a response: a code block's URI, the edit group of a file, or a
/// multi-file diff.
struct Edit {
    /// The file (empty for a multi-file diff, whose text names its files).
    file: String,
    /// What changed, rendered; None while only the code block's URI is known.
    changes: Option<String>,
    origin: u32,
    path: String,
}

impl Edit {
    /// `edit: <file>` and what changed, one change per line.
    fn text(&self) -> String {
        match (&self.changes, self.file.is_empty()) {
            (Some(c), true) => format!("edit: {c}"),
            (Some(c), false) if c.is_empty() => format!("edit: {} (no change recorded)", self.file),
            (Some(c), false) => format!("edit: {}\n{c}", self.file),
            (None, _) => format!("edit: {} (no change recorded)", self.file),
        }
    }
}

/// A part's URI field as a path (or the URI as written when it is no file).
fn part_uri(part: &Node<'_>, key: &str) -> String {
    part.get(key)
        .map(|u| uri_text(&u.node.view(u.origin)))
        .unwrap_or_default()
}

/// The changes of a `textEditGroup` (`edits`: arrays of `{text, range}` with Monaco's
/// 1-based `startLineNumber`/`endLineNumber`): per edit, the lines it replaced,
/// deleted or inserted at, and the new text.
fn edit_changes(part: &Node<'_>) -> String {
    let mut out = String::new();
    let Some(groups) = part.get("edits").map(|e| e.node.view(e.origin)) else {
        return out;
    };
    let Node::Arr(groups) = groups.as_ref() else {
        return out;
    };
    for g in groups {
        let g = g.node.view(g.origin);
        let edits: Vec<Cow<'_, Node<'_>>> = match g.as_ref() {
            Node::Arr(items) => items.iter().map(|e| e.node.view(e.origin)).collect(),
            Node::Obj(_) => vec![g.clone()],
            _ => continue,
        };
        for e in edits {
            let text = get_str(&e, "text").unwrap_or_default();
            let range = e.get("range").map(|r| r.node.view(r.origin));
            let line = |k: &str| {
                range
                    .as_deref()
                    .and_then(|r| get_num(r, k))
                    .filter(|n| n.fract() == 0.0 && *n >= 0.0)
                    .map(|n| n as u64)
            };
            let (sl, el) = (line("startLineNumber"), line("endLineNumber"));
            let (sc, ec) = (line("startColumn"), line("endColumn"));
            let lines = match (sl, el) {
                (Some(a), Some(b)) if a == b => format!("line {a}"),
                (Some(a), Some(b)) => format!("lines {a}-{b}"),
                (Some(a), None) => format!("line {a}"),
                _ => "an unknown place".to_string(),
            };
            let empty_range = sl == el && sc == ec;
            if !out.is_empty() {
                out.push('\n');
            }
            match (empty_range, text.is_empty()) {
                (true, true) => continue,
                (true, false) => out.push_str(&format!("inserted at {lines}:\n{text}")),
                (false, true) => out.push_str(&format!("deleted {lines}")),
                (false, false) => out.push_str(&format!("replaced {lines} with:\n{text}")),
            }
        }
    }
    while out.ends_with('\n') {
        out.pop();
    }
    out
}

/// A `multiDiffData` part: its title and one line per file, `<path> +<added> -<removed>`.
fn multi_diff_text(part: &Node<'_>) -> Option<String> {
    let data = part.get("multiDiffData")?;
    let data = data.node.view(data.origin);
    let title = data
        .get("title")
        .and_then(|t| text_of(&t.node))
        .unwrap_or_default();
    let mut out = if title.is_empty() {
        "files changed".to_string()
    } else {
        title
    };
    if let Some(res) = data.get("resources").map(|r| r.node.view(r.origin)) {
        if let Node::Arr(items) = res.as_ref() {
            for r in items {
                let r = r.node.view(r.origin);
                let file = ["modifiedUri", "goToFileUri", "originalUri"]
                    .iter()
                    .map(|k| part_uri(&r, k))
                    .find(|p| !p.is_empty())
                    .unwrap_or_default();
                let count = |k: &str| get_num(&r, k).map(js_count).unwrap_or_default();
                out.push_str(&format!(
                    "\n{file} +{} -{}",
                    count("added"),
                    count("removed")
                ));
            }
        }
    }
    Some(out)
}

/// A count as JavaScript prints it.
fn js_count(n: f64) -> String {
    crate::decode::node::js_number(n)
}

/// An inline reference rendered as VS Code's `Response.toString` does: a location's or
/// a URI's file name (an `http(s)` URI in full), a symbol's name in backticks.
fn inline_reference_text(part: &Node<'_>) -> String {
    let Some(r) = part.get("inlineReference") else {
        return String::new();
    };
    let r = r.node.view(r.origin);
    if let Some(u) = r.get("uri") {
        return uri_repr(&u.node.view(u.origin));
    }
    if let Some(name) = get_str(&r, "name") {
        return format!("`{name}`");
    }
    uri_repr(&r)
}

/// A URI as VS Code's `uriToRepr`: in full for `http`/`https`, else its base name.
fn uri_repr(u: &Node<'_>) -> String {
    let (scheme, whole) = match u {
        Node::Str(_) | Node::Esc(_) => {
            let s = u.text().unwrap_or_default().into_owned();
            let scheme = s.split_once("://").map(|(a, _)| a.to_ascii_lowercase());
            (scheme.unwrap_or_default(), Some(s))
        }
        Node::Obj(_) => {
            let scheme = get_str(u, "scheme")
                .map(|s| s.to_ascii_lowercase())
                .unwrap_or_default();
            let whole = get_str(u, "external").map(Cow::into_owned).or_else(|| {
                // URI.toString's shape: `//` only before an authority (or for file)
                let authority = get_str(u, "authority").unwrap_or_default();
                let path = get_str(u, "path").unwrap_or_default();
                let mut s = format!("{scheme}:");
                if !authority.is_empty() || scheme == "file" {
                    s.push_str("//");
                    s.push_str(&authority);
                }
                s.push_str(&path);
                if let Some(q) = get_str(u, "query").filter(|q| !q.is_empty()) {
                    s.push('?');
                    s.push_str(&q);
                }
                if let Some(f) = get_str(u, "fragment").filter(|f| !f.is_empty()) {
                    s.push('#');
                    s.push_str(&f);
                }
                Some(s)
            });
            (scheme, whole)
        }
        _ => return String::new(),
    };
    if scheme == "http" || scheme == "https" {
        return whole.unwrap_or_default();
    }
    let path = match u {
        Node::Obj(_) => get_str(u, "path")
            .map(Cow::into_owned)
            .unwrap_or_else(|| uri_text(u)),
        _ => uri_text(u),
    };
    path.rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_string()
}

fn get_num(n: &Node<'_>, key: &str) -> Option<f64> {
    n.get(key).and_then(|s| s.node.as_f64())
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}.{key}")
    }
}

/// A URI, a `{uri, range}` location or a URI object, as a path or URI string.
fn uri_text(n: &Node<'_>) -> String {
    match n {
        Node::Str(_) | Node::Esc(_) => {
            let s = n.text().unwrap_or_default();
            chat_rows::uri::to_path(&s).unwrap_or_else(|| s.into_owned())
        }
        Node::Obj(_) => {
            if let Some(u) = n.get("uri") {
                return uri_text(&u.node.view(u.origin));
            }
            chat_rows::uri::value_to_path(&n.to_value()).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// The text of a tool's `resultDetails.output`: embedded values, data placeholders.
fn output_text(n: &Node<'_>) -> String {
    let one = |n: &Node<'_>| -> String {
        match n {
            Node::Str(_) | Node::Esc(_) => n.text().unwrap_or_default().into_owned(),
            Node::Obj(_) => {
                let mime = get_str(n, "mimeType").unwrap_or_default();
                let ty = get_str(n, "type").unwrap_or_default();
                // an `embed` part's value is base64 unless `isText` says it is text
                // (VS Code's `ToolInputOutputEmbedded`); one that is no base64 (a space,
                // say) is text all the same (since 2026-12-05; before, every embedded
                // value was printed, an image's base64 too)
                let embedded_base64 = ty == "embed"
                    && n.get("isText").and_then(|v| v.node.as_bool()) != Some(true)
                    && n.get("value").and_then(|v| v.node.text()).is_some_and(|t| {
                        !t.is_empty()
                            && t.bytes().all(|b| {
                                b.is_ascii_alphanumeric()
                                    || matches!(b, b'+' | b'/' | b'=' | b'\r' | b'\n')
                            })
                    });
                if ty == "data" || n.get("base64Data").is_some() || embedded_base64 {
                    let len = n
                        .get("base64Data")
                        .or_else(|| n.get("value"))
                        .and_then(|v| v.node.text())
                        .map_or(0, |t| t.len());
                    format!(
                        "[{} data, {len} bytes of base64]",
                        if mime.is_empty() { "binary" } else { &mime }
                    )
                } else if let Some(v) = n.get("value") {
                    plain(&v.node.view(v.origin))
                } else {
                    n.to_json()
                }
            }
            other => plain(other),
        }
    };
    match n {
        Node::Arr(items) => {
            // joined as it goes: the first text is kept as it is (usually the only one)
            let mut out = String::new();
            for s in items {
                let t = one(&s.node.view(s.origin));
                if t.is_empty() {
                    continue;
                }
                if out.is_empty() {
                    out = t;
                } else {
                    out.push('\n');
                    out.push_str(&t);
                }
            }
            out
        }
        other => one(other),
    }
}

pub mod files;

#[cfg(test)]
mod tests {
    use super::*;

    /// The search the run's line starts replace: the last line of the text, a final
    /// newline (and a CR before it) not counted.
    fn searched(text: &str) -> usize {
        let body = text.strip_suffix('\n').unwrap_or(text);
        let body = body.strip_suffix('\r').unwrap_or(body);
        body.rfind('\n').map_or(0, |i| i + 1)
    }

    #[test]
    fn a_runs_last_line_and_visibility_are_those_a_search_finds() {
        let pieces = [
            "", "\n", "\r\n", "```", "```py\n", " ```\n", "text", " ", "\t\n", "a\nb", "\u{a0}",
            "é\n", "``", "\n\n",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut fences = 0;
        for _ in 0..2000 {
            let mut run = Run::default();
            for _ in 0..12 {
                if next() % 4 == 0 && !run.text.is_empty() {
                    // cut at a character boundary (a fence's start, in `push`)
                    let mut n = (next() % (run.text.len() as u64 + 1)) as usize;
                    while !run.text.is_char_boundary(n) {
                        n -= 1;
                    }
                    run.truncate(n);
                } else {
                    run.append(pieces[(next() % pieces.len() as u64) as usize]);
                }
                assert_eq!(run.last_line_start(), searched(&run.text), "{:?}", run.text);
                assert_eq!(
                    run.visible.is_none(),
                    run.text.trim().is_empty(),
                    "{:?}",
                    run.text
                );
                fences += usize::from(opening_fence_at(&run.text, run.last_line_start()).is_some());
            }
        }
        assert!(fences > 1000, "{fences}");
    }
}
