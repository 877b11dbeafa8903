//! Mapping Claude Code records to evidence rows.
//!
//! One row per content block, in file order, each with its line and byte offset. The
//! `user` role is shared between the person at the keyboard and the client's plumbing
//! (compaction summaries, task notifications, slash-command wrappers, reminders), so a
//! `user` row is made only for what a person typed; the rest become labelled
//! `hidden ...` system rows ([`session_tree::hidden`]). The permission trail is in the
//! transcript and is given its own rows: `permission mode:` (from prompts and
//! `permission-mode` records), and `permission decision:` for every refused tool call.
//!
//! Two passes: a light one ([`Index`]) learns which uuids, tool calls and results
//! exist, which record of each API message carries its final usage, the title
//! candidates and where a fork's copied context ends; the second decodes, maps and
//! drops one record at a time, handing each row to the sink as it is made.
//!
//! Rows are in the crate README's table; every text here is pinned by the tests.

pub mod history;
pub mod retention;
pub mod settings;

use std::collections::{HashMap, HashSet};

use chat_rows::json::Step;
use chat_rows::lines::Line;
use chat_rows::system::{self, ChangeTracker, quote};
use chat_rows::{RowSink, Timestamp, TurnType};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use session_tree::file_history::file_history_texts;
use session_tree::hidden::{hidden_text, opens_with, tag_label};
use session_tree::light::light_pass;
use session_tree::links::{Calls, Ids};
use session_tree::persisted::{
    Persisted, PersistedPointer, missing_text, persisted_pointer, resolved_locator,
};
use session_tree::titles::first_prompt_title;
use session_tree::{Place, TitlePick, Titles};

use crate::decode::{
    self, Entry, Error, Light, Record, Transcript, base64_size, compact, origin_kind, truthy,
};

/// The agent of every row.
pub const AGENT: &str = "claude-code";

/// What a fork's task prompt carries: rows before it are its copied context.
const FORK_BLOCK: &str = "<fork-boilerplate>";

/// Where the title candidates come from, in the order Claude Code prefers them.
const TITLE_SOURCES: &[&str] = &["custom-title", "ai-title", "summary", "first prompt"];

/// State records that give no row (their content is elsewhere or not evidence).
const SILENT: &[&str] = &[
    "last-prompt",
    "atis-latch",
    "content-replacement",
    "tag",
    "frame-link",
    "progress",
    "custom-title",
    "ai-title",
    "summary",
    "marble-origami-snapshot",
];

/// A field as a `key=value` value: the session tree's row text of it, nothing when
/// it is missing.
fn scalar(v: Option<&Value>) -> String {
    v.map(session_tree::log::scalar).unwrap_or_default()
}

/// The `session meta:` row of a `worktree-state` record (Claude Code 2.1, as other
/// readers captured it): the worktree the session works in (`worktreeSession`'s
/// `worktreePath`, `worktreeName`, `originalCwd`; the record's own when it has no
/// `worktreeSession` but a `worktreePath`), `worktree=none` when there is none (`null`:
/// the session left it), or another value as written.
fn worktree_text(raw: &Map<String, Value>) -> String {
    let of = |w: &Map<String, Value>| {
        let s = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or("");
        let fields = [
            ("worktree", s("worktreePath")),
            ("name", s("worktreeName")),
            ("original_cwd", s("originalCwd")),
        ];
        format!("session meta: {}", system::key_values(&fields))
            .trim_end()
            .to_string()
    };
    match raw.get("worktreeSession") {
        Some(Value::Object(w)) => of(w),
        None if raw.get("worktreePath").is_some_and(Value::is_string) => of(raw),
        None | Some(Value::Null) => "session meta: worktree=none".to_string(),
        Some(other) => format!("session meta: worktree={}", compact(other)),
    }
}

/// Envelope fields, left out of `system message:` JSON.
const ENVELOPE: &[&str] = &[
    "type",
    "subtype",
    "uuid",
    "parentUuid",
    "logicalParentUuid",
    "timestamp",
    "sessionId",
    "session_id",
    "cwd",
    "gitBranch",
    "version",
    "isSidechain",
    "userType",
    "entrypoint",
    "agentId",
    "slug",
];

/// What the mapping needs besides the transcript.
pub struct MapOptions<'a> {
    /// The `source_file` of every row.
    pub source_file: &'a str,
    /// The session id when no record names one (the file stem, or a sub-agent's folder).
    pub session_id: &'a str,
    /// `agent-<id>` for a sub-agent file: its rows' session is `<parent>:agent-<id>`.
    pub agent_file: Option<&'a str>,
    /// The session folder persisted outputs live under (a sub-agent's parent).
    pub folder_session_id: &'a str,
    /// True when every row is a secondary copy (a job's copy of its parent transcript).
    pub secondary: bool,
    /// The model a sub-agent's meta file names: it starts the model tracker.
    pub meta_model: Option<&'a str>,
    /// True for a sub-agent whose meta says `isFork`.
    pub fork: bool,
    /// Looks up a persisted tool output by its pointer.
    pub persisted: &'a dyn Fn(&PersistedPointer) -> Persisted,
}

impl<'a> MapOptions<'a> {
    /// Options for a main transcript: no sub-agent, no copy, no meta.
    pub fn new(
        source_file: &'a str,
        session_id: &'a str,
        persisted: &'a dyn Fn(&PersistedPointer) -> Persisted,
    ) -> MapOptions<'a> {
        MapOptions {
            source_file,
            session_id,
            agent_file: None,
            folder_session_id: session_id,
            secondary: false,
            meta_model: None,
            fork: false,
            persisted,
        }
    }
}

/// A lookup that finds no persisted output (`not in the evidence`): for a transcript
/// read from bytes, without its folder.
pub fn no_persisted_outputs(_: &PersistedPointer) -> Persisted {
    Persisted::Missing {
        reason: "not in the evidence".to_string(),
    }
}

/// What the first pass learns about a transcript.
#[derive(Clone, Debug, Default)]
pub struct Index {
    ids: Ids,
    calls: Calls,
    /// the line of each API message's usage row
    usage_lines: HashSet<u64>,
    titles: Titles,
    first_session_id: Option<String>,
    first_cwd: Option<String>,
    first_branch: Option<String>,
    first_time: Option<Timestamp>,
    /// the line of a fork's `<fork-boilerplate>` block
    fork_line: Option<u64>,
    /// the texts of user records and queued commands after the first `queue-operation`,
    /// and the lines that deliver them
    delivered: HashMap<String, Vec<u64>>,
}

impl Index {
    /// Indexes a transcript (one light pass; user records are decoded in full only
    /// until the first prompt is found, and after a queued prompt). `subagent` is true
    /// for a sub-agent file: only there does a prompt carrying a `<fork-boilerplate>`
    /// block end a fork's copied context.
    pub fn build(log: &Transcript<'_>, subagent: bool) -> Index {
        let mut ix = Index {
            titles: Titles::new(TITLE_SOURCES),
            ..Index::default()
        };
        // message id -> (line with a stop_reason, last line)
        let mut messages: HashMap<String, (Option<u64>, u64)> = HashMap::new();
        let mut queued = false;
        // the git branch in effect, as the mapper keeps it: the last one a record wrote
        let mut branch: Option<String> = None;
        // a read that fails midway is the mapping pass's to report, after its rows
        let _ = light_pass::<Light, Record>(log, |(line, read)| {
            let (mut light, full) = match read {
                Ok(read) => read,
                Err(err) => {
                    if let Some(id) = err.sniff("uuid") {
                        ix.ids.insert_broken(id, line.number);
                    }
                    if let Some(id) = err.sniff("tool_use_id") {
                        ix.calls.broken_result(id, line.number);
                    } else if let Some(id) = err.sniff("id").filter(|i| i.starts_with("toolu_")) {
                        ix.calls.broken_call(id, line.number);
                    }
                    return;
                }
            };
            let time = light.timestamp.as_ref().and_then(decode::parse_time);
            if ix.first_time.is_none() {
                ix.first_time = time;
            }
            if ix.first_cwd.is_none() {
                ix.first_cwd.clone_from(&light.cwd);
            }
            if ix.first_session_id.is_none() {
                ix.first_session_id.clone_from(&light.session_id);
            }
            if let Some(b) = light.git_branch.take() {
                if ix.first_branch.is_none() {
                    ix.first_branch = Some(b.clone());
                }
                branch = Some(b);
            }
            if let Some(id) = light.uuid.clone() {
                ix.ids.insert(id);
            }
            let kind = light.kind.as_deref().unwrap_or("");
            if let Some(m) = &light.message {
                for b in &m.content.0 {
                    match (b.kind.as_deref(), &b.id, &b.tool_use_id) {
                        (Some("tool_use" | "server_tool_use"), Some(id), _) => ix
                            .calls
                            .call(id.clone(), b.name.clone().unwrap_or_default()),
                        (Some("tool_result"), _, Some(id)) => ix.calls.result(id.clone()),
                        _ => {}
                    }
                }
                if kind == "assistant" {
                    if let Some(id) = &m.id {
                        let e = messages.entry(id.clone()).or_insert((None, line.number));
                        e.1 = line.number;
                        if m.stop_reason.is_some() {
                            e.0 = Some(line.number);
                        }
                    }
                }
            }
            let pick = |text: String| {
                TitlePick::at(&line, time, light.cwd.as_ref(), text).on_branch(branch.as_deref())
            };
            let title = match kind {
                "custom-title" => light.custom_title.take(),
                "ai-title" => light.ai_title.take(),
                "summary" => light.summary.take(),
                _ => None,
            };
            if let Some(t) = title {
                ix.titles.offer(kind, pick(t), false);
            }
            match kind {
                "queue-operation" => queued = true,
                "user" | "attachment" => {
                    // only a sub-agent (fork) file copies a context up to a block
                    let fork_candidate = subagent
                        && ix.fork_line.is_none()
                        && kind == "user"
                        && memchr::memmem::find(line.bytes, FORK_BLOCK.as_bytes()).is_some();
                    let first_prompt = kind == "user" && !ix.titles.has("first prompt");
                    if !(queued || fork_candidate || first_prompt) {
                        return;
                    }
                    let Some(rec) = full.or_else(|| decode::decode_record(&line).ok()) else {
                        return;
                    };
                    let prompt = prompt_text(&rec);
                    // the block must be in the prompt's own text, not in a tool result
                    let fork_block =
                        fork_candidate && prompt.as_deref().is_some_and(|p| p.contains(FORK_BLOCK));
                    if fork_block {
                        ix.fork_line = Some(line.number);
                    }
                    // a fork's title is its task, not the context it copied
                    if kind == "user" && (fork_block || first_prompt) {
                        if let Some(t) = prompt.as_deref().and_then(first_prompt_title) {
                            ix.titles.offer("first prompt", pick(t), !fork_block);
                        }
                    }
                    if queued {
                        for text in delivered_texts(&rec) {
                            ix.delivered.entry(text).or_default().push(line.number);
                        }
                    }
                }
                _ => {}
            }
        });
        ix.usage_lines = messages
            .into_values()
            .map(|(stop, last)| stop.unwrap_or(last))
            .collect();
        ix
    }

    /// The tool of a `tool_use` with this id, if the file has one.
    pub fn tool_name(&self, id: &str) -> Option<&str> {
        self.calls.tool(id)
    }

    /// The first `sessionId` a record writes.
    pub fn first_session_id(&self) -> Option<&str> {
        self.first_session_id.as_deref()
    }

    /// The first `cwd` a record writes (empty when none does).
    pub fn first_cwd(&self) -> &str {
        self.first_cwd.as_deref().unwrap_or("")
    }

    /// The first `gitBranch` a record writes (empty when none does).
    pub fn first_branch(&self) -> &str {
        self.first_branch.as_deref().unwrap_or("")
    }

    /// The first readable record's time.
    pub fn first_time(&self) -> Option<Timestamp> {
        self.first_time
    }
}

/// What a `user` text is: the person's words, or something the app hid.
enum Said {
    Prompt(String),
    Hidden(&'static str, String, String),
}

/// The label and reason of a whole user record the app hides, from its flags.
fn hidden_record(rec: &Record) -> Option<(&'static str, String)> {
    if rec.flag("isCompactSummary") {
        return Some(("compaction summary", "isCompactSummary".into()));
    }
    if let Some(kind) = rec.origin() {
        if let Some(label) = origin_label(kind) {
            return Some((label, format!("origin {kind}")));
        }
    }
    if let Some(id) = rec
        .raw
        .get("interruptedMessageId")
        .filter(|v| truthy(Some(v)))
    {
        return Some((
            "interruption",
            format!("interruptedMessageId={}", session_tree::log::scalar(id)),
        ));
    }
    None
}

/// The hidden label of a non-human prompt origin.
fn origin_label(kind: &str) -> Option<&'static str> {
    match kind {
        "task-notification" => Some("task notification"),
        "peer" => Some("peer message"),
        "coordinator" => Some("coordinator message"),
        "auto-continuation" => Some("auto-continuation"),
        _ => None,
    }
}

/// `[image <media_type>, <n> bytes]` for an image block.
fn image_text(block: &Map<String, Value>) -> String {
    let source = block.get("source").and_then(Value::as_object);
    let get = |k: &str| source.and_then(|s| s.get(k)).and_then(Value::as_str);
    let media = get("media_type").unwrap_or("unknown type");
    match get("data") {
        Some(d) => format!("[image {media}, {} bytes]", base64_size(d)),
        None => match get("url").or_else(|| get("file_id")) {
            Some(u) => format!("[image {media}, {}]", quote(u)),
            None => format!("[image {media}]"),
        },
    }
}

/// `[document <media_type> "<title>", <n> bytes]` for a document block of base64 data
/// (the data is never printed); a plain-text source (or one of content blocks) is what
/// the person gave the model: `[document <media_type> "<title>"] <text>`; a URL or file
/// id is named as an image's is.
fn document_text(block: &Map<String, Value>) -> String {
    let source = block.get("source").and_then(Value::as_object);
    let get = |k: &str| source.and_then(|s| s.get(k)).and_then(Value::as_str);
    let media = get("media_type").unwrap_or("unknown type");
    let title = match block.get("title").and_then(Value::as_str) {
        Some(t) if !t.is_empty() => format!(" {}", compact(&Value::String(t.to_string()))),
        _ => String::new(),
    };
    let head = format!("[document {media}{title}");
    match (get("type"), source.and_then(|s| s.get("data"))) {
        (Some("text"), Some(Value::String(d))) => format!("{head}] {d}"),
        (_, Some(Value::String(d))) => format!("{head}, {} bytes]", base64_size(d)),
        _ => match source.and_then(|s| s.get("content")) {
            Some(Value::String(t)) => format!("{head}] {t}"),
            Some(Value::Array(parts)) => {
                let texts: Vec<String> = parts.iter().map(part_text).collect();
                format!("{head}] {}", texts.join("\n"))
            }
            _ => match get("url").or_else(|| get("file_id")) {
                Some(u) => format!("{head}, {}]", quote(u)),
                None => format!("{head}]"),
            },
        },
    }
}

/// The text of one part of a tool result (or of a document's content): a text part's
/// text, a marker for an image or document, `[tool_reference <tool_name>]` for a tool
/// reference, and `[<type>]` for a part of another type without text.
fn part_text(p: &Value) -> String {
    let Some(p) = p.as_object() else {
        return match p {
            Value::String(s) => s.clone(),
            other => compact(other),
        };
    };
    let kind = p.get("type").and_then(Value::as_str);
    match kind {
        Some("image") => image_text(p),
        Some("document") => document_text(p),
        _ => match (p.get("text").and_then(Value::as_str), kind) {
            (Some(t), _) => t.to_string(),
            (None, Some("tool_reference")) => {
                let name = p.get("tool_name").and_then(Value::as_str).unwrap_or("");
                format!("[tool_reference {name}]")
            }
            (None, Some(k)) => format!("[{k}]"),
            (None, None) => "[part without a type]".to_string(),
        },
    }
}

/// The texts of a user record's content: what was said, by whom, in order. Tool
/// results are not included. Images and documents are what a person gave, as their
/// markers ([`image_text`], [`document_text`]); a block of another type gives its text,
/// else `[<type>]` ([`part_text`]), so that no block vanishes.
fn said(rec: &Record) -> Vec<Said> {
    let mut texts: Vec<String> = Vec::new();
    let mut images: Vec<String> = Vec::new();
    // how many text blocks come before the first image or document block
    let mut texts_before_image = 0;
    match rec.content() {
        Some(Value::String(s)) => texts.push(s.clone()),
        Some(Value::Array(blocks)) => {
            for block in blocks {
                let Some(b) = block.as_object() else {
                    // a bare string among the blocks is text; any other value its JSON
                    match block {
                        Value::String(s) => texts.push(s.clone()),
                        other => {
                            if images.is_empty() {
                                texts_before_image = texts.len();
                            }
                            images.push(part_text(other));
                        }
                    }
                    continue;
                };
                let marker = match b.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        texts.push(b.get("text").and_then(Value::as_str).unwrap_or("").into());
                        continue;
                    }
                    Some("image") => image_text(b),
                    Some("document") => document_text(b),
                    // the tool path's rows
                    Some("tool_result") => continue,
                    // any other block is still what the record holds: its text, else
                    // `[<type>]` (never its data), as a tool result's other parts
                    _ => part_text(block),
                };
                if images.is_empty() {
                    texts_before_image = texts.len();
                }
                images.push(marker);
            }
        }
        _ => {}
    }
    // an `isMeta` record is a system reminder whatever tag its text opens with
    let whole = hidden_record(rec).or_else(|| {
        rec.flag("isMeta")
            .then(|| ("system reminder", "isMeta".to_string()))
    });
    if let Some((label, why)) = whole {
        let mut all = texts;
        all.extend(images);
        return vec![Said::Hidden(label, why, all.join("\n"))];
    }
    let mut out = Vec::new();
    let mut prompt: Vec<String> = Vec::new();
    // the hidden parts before the first image
    let mut hidden_before_image = 0;
    for (i, t) in texts.into_iter().enumerate() {
        match tag_label(&t) {
            Some((tag, label)) => {
                if i < texts_before_image {
                    hidden_before_image += 1;
                }
                out.push(Said::Hidden(label, opens_with(tag), t));
            }
            None if t.trim().is_empty() => {}
            None => prompt.push(t),
        }
    }
    if !prompt.is_empty() {
        // the prompt first, its images after its text
        prompt.extend(images);
        out.insert(0, Said::Prompt(prompt.join("\n")));
    } else if !images.is_empty() {
        // images without typed text are still what a person gave: their own prompt, in
        // content order among the hidden parts
        out.insert(hidden_before_image, Said::Prompt(images.join("\n")));
    }
    out
}

/// The prompt a person typed in a `user` record or a queued command, if any.
pub fn prompt_text(rec: &Record) -> Option<String> {
    match rec.kind.as_str() {
        "user" => said(rec).into_iter().find_map(|s| match s {
            Said::Prompt(p) => Some(p),
            Said::Hidden(..) => None,
        }),
        "attachment" => {
            let a = rec.raw.get("attachment")?.as_object()?;
            let human = matches!(origin_kind(a.get("origin")), None | Some("human"));
            (a.get("type")?.as_str()? == "queued_command" && human)
                .then(|| attachment_prompt(a))
                .flatten()
        }
        _ => None,
    }
}

/// Every text a `user` record or a `queued_command` attachment delivers, whoever sent
/// it (a person, a task notification, a peer): what a queued `content` is matched
/// against. A user record gives its whole text and each of its parts.
fn delivered_texts(rec: &Record) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    match rec.kind.as_str() {
        "user" => {
            let parts: Vec<String> = said(rec)
                .into_iter()
                .map(|s| match s {
                    Said::Prompt(p) => p,
                    Said::Hidden(_, _, t) => t,
                })
                .collect();
            let whole = match rec.content() {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Array(blocks)) => {
                    let texts: Vec<&str> = blocks
                        .iter()
                        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .collect();
                    (!texts.is_empty()).then(|| texts.join("\n"))
                }
                _ => None,
            };
            out.extend(whole);
            out.extend(parts);
        }
        "attachment" => {
            let queued = rec
                .raw
                .get("attachment")
                .and_then(Value::as_object)
                .filter(|a| a.get("type").and_then(Value::as_str) == Some("queued_command"));
            out.extend(queued.and_then(attachment_prompt));
        }
        _ => {}
    }
    out.sort();
    out.dedup();
    out
}

/// A queued prompt's text: the string, or its blocks' texts with an image's or a
/// document's marker in its place (`[image image/png, 8 bytes]`, as in a prompt's
/// content; since 2026-12-05, before which they were dropped), joined by newlines.
fn attachment_prompt(a: &Map<String, Value>) -> Option<String> {
    match a.get("prompt")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => Some(
            blocks
                .iter()
                .filter_map(|b| {
                    let o = b.as_object()?;
                    match o.get("type").and_then(Value::as_str) {
                        Some("image") => Some(image_text(o)),
                        Some("document") => Some(document_text(o)),
                        _ => o.get("text").and_then(Value::as_str).map(str::to_string),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// The text of a tool result's `content`: the string, or its parts ([`part_text`]).
fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().map(part_text).collect::<Vec<_>>().join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => compact(other),
    }
}

fn num(v: Option<&Value>) -> Option<i64> {
    v.and_then(Value::as_i64)
}

/// The `usage:` text of one API message, through the one builder every store shares
/// ([`chat_rows::system::usage`]), so copies of the same usage merge across stores.
pub fn usage_text(model: &str, usage: &Map<String, Value>) -> String {
    chat_rows::system::usage(&chat_rows::system::Usage {
        model,
        input: num(usage.get("input_tokens")),
        output: num(usage.get("output_tokens")),
        cache_read: num(usage.get("cache_read_input_tokens")),
        cache_write: num(usage.get("cache_creation_input_tokens")),
        reasoning: None,
        nano_aiu: None,
        requests: None,
        duration_ms: None,
        finish: None,
        turn: None,
        scope: "call",
    })
}

/// Maps a transcript to rows, handing each to `sink` (see the module docs).
pub fn transcript_rows(log: &Transcript<'_>, opts: &MapOptions<'_>, sink: &mut dyn RowSink) {
    let index = Index::build(log, opts.agent_file.is_some());
    transcript_rows_with(log, &index, opts, sink)
}

/// [`transcript_rows`] with an index already built.
pub fn transcript_rows_with(
    log: &Transcript<'_>,
    index: &Index,
    opts: &MapOptions<'_>,
    sink: &mut dyn RowSink,
) {
    let mut m = Mapper::new(index, opts, sink);
    // a row is secondary when the line it comes from is: every line of a copy, and a
    // fork's copied context
    let secondary = |line: u64| opts.secondary || index.fork_line.is_some_and(|f| line < f);
    if let (Some((pick, _)), Some(text)) = (index.titles.best(), index.titles.row_text()) {
        m.place.secondary = secondary(pick.line);
        let cwd = pick.cwd.clone().unwrap_or_else(|| m.place.cwd.clone());
        let row = m
            .place
            .row(pick.line, pick.offset, pick.time, TurnType::System, text)
            .project(cwd)
            .branch(pick.branch.clone().unwrap_or_default());
        m.sink.push(row);
    }
    let end = log.each_entry(|line, entry| {
        m.place.secondary = secondary(line.number);
        match &entry.item {
            Ok(rec) => m.record(&entry, rec, &line),
            Err(err) => m.bad_line(&entry, err),
        }
    });
    if let Err(e) = end {
        let row = m.place.pass_failed(e);
        m.sink.push(row);
    }
}

/// A record's line read once, for the texts the spec has printed as written: compact
/// JSON with the keys in the writer's order and escapes and numbers untouched, where
/// printing the decoded `Value` would sort the keys. The blocks of `message.content` and
/// the entries of `wireToolInputs` are split out of the line in one pass each, so a
/// record of many blocks costs its length once, not once per block.
#[derive(Default)]
struct LineText<'l> {
    /// `message.content`'s blocks as written, in order (the one block when `content`
    /// is not an array).
    blocks: Vec<&'l RawValue>,
    /// `wireToolInputs` by call id (the last of an id written twice, as in a `Value`).
    wire: HashMap<String, &'l RawValue>,
}

impl<'l> LineText<'l> {
    /// `text` is the line with its lone surrogates repaired, as the record was decoded.
    fn new(text: &'l [u8], content_is_array: bool) -> LineText<'l> {
        use chat_rows::json::raw_at;
        let content = raw_at(text, &[Step::Key("message"), Step::Key("content")]);
        let blocks = match content {
            Some(c) if content_is_array => {
                serde_json::from_str::<Vec<&RawValue>>(c.get()).unwrap_or_default()
            }
            Some(c) => vec![c],
            None => Vec::new(),
        };
        let wire = raw_at(text, &[Step::Key("wireToolInputs")])
            .and_then(|w| chat_rows::json::object_entries(w.get()))
            .map(|entries| entries.into_iter().collect())
            .unwrap_or_default();
        LineText { blocks, wire }
    }
}

/// One block's place in its [`LineText`]. The decoded value is the fallback (never
/// needed for a line that decoded).
struct Written<'t, 'l> {
    text: &'t LineText<'l>,
    block: usize,
}

impl Written<'_, '_> {
    /// The value at `rest` in the block (the block itself for `[]`).
    fn block(&self, rest: &[Step<'_>]) -> Option<String> {
        let raw = self.text.blocks.get(self.block)?;
        chat_rows::json::compact_at(raw.get().as_bytes(), rest)
    }

    /// A tool call's `input` as written.
    fn input(&self, decoded: &Value) -> String {
        self.block(&[Step::Key("input")])
            .unwrap_or_else(|| compact(decoded))
    }

    /// `wireToolInputs[id]` as written.
    fn wire(&self, id: &str) -> Option<String> {
        let raw = self.text.wire.get(id)?;
        Some(chat_rows::json::compact(raw.get()))
    }
}

struct Mapper<'a, 's> {
    ix: &'a Index,
    opts: &'a MapOptions<'a>,
    sink: &'s mut dyn RowSink,
    place: Place<'a>,
    models: ChangeTracker<String>,
    modes: ChangeTracker<String>,
    seen: HashSet<String>,
    task_given: bool,
    /// The line whose `wireToolInputs` were last compared, and the call ids compared
    /// there: a record of many `tool_use` blocks with one id compares its input once.
    wired: (u64, HashSet<String>),
}

impl<'a, 's> Mapper<'a, 's> {
    fn new(ix: &'a Index, opts: &'a MapOptions<'a>, sink: &'s mut dyn RowSink) -> Self {
        let file_session = match opts.agent_file {
            Some(agent) => format!(
                "{}:{agent}",
                ix.first_session_id().unwrap_or(opts.session_id)
            ),
            None => ix.first_session_id().unwrap_or(opts.session_id).to_string(),
        };
        let mut models = ChangeTracker::model();
        if let Some(m) = opts.meta_model {
            let _ = models.observe(m.to_string());
        }
        Mapper {
            ix,
            opts,
            sink,
            place: Place {
                agent: AGENT,
                source_file: opts.source_file,
                session_id: file_session,
                cwd: ix.first_cwd().to_string(),
                ..Place::default()
            },
            models,
            modes: system::permission_mode_tracker(),
            seen: HashSet::new(),
            wired: (0, HashSet::new()),
            // a fork's task is its boilerplate block, not its first user record
            task_given: opts.agent_file.is_none() || opts.fork || ix.fork_line.is_some(),
        }
    }

    /// A system row of the record `rec` on the line of `e`.
    fn system(&mut self, e: &Entry, rec: &Record, text: impl Into<String>) {
        self.sink.push(
            self.place
                .row(e.line, e.offset, rec.timestamp, TurnType::System, text),
        );
    }

    fn tool_system(&mut self, e: &Entry, rec: &Record, tool: &str, id: &str, text: String) {
        let row = self
            .place
            .row(e.line, e.offset, rec.timestamp, TurnType::System, text)
            .tool(tool, id);
        self.sink.push(row);
    }

    fn bad_line(&mut self, e: &Entry, err: &Error) {
        let row = self
            .place
            .row(e.line, e.offset, None, TurnType::System, err.row_text());
        self.sink.push(row);
    }

    /// Once per distinct value of a key: true the first time.
    fn first_time(&mut self, key: String) -> bool {
        self.seen.insert(key)
    }

    fn record(&mut self, e: &Entry, rec: &Record, line: &Line<'_>) {
        if self.opts.agent_file.is_none() {
            if let Some(s) = rec.session_id() {
                s.clone_into(&mut self.place.session_id);
            }
        }
        if let Some(cwd) = rec.cwd() {
            cwd.clone_into(&mut self.place.cwd);
        }
        if let Some(b) = rec.git_branch() {
            b.clone_into(&mut self.place.branch);
        }
        match rec.kind.as_str() {
            "user" => self.user(e, rec),
            "assistant" => self.assistant(e, rec, line.bytes),
            "system" => self.system_record(e, rec, line.bytes),
            "attachment" => self.attachment(e, rec),
            "permission-mode" => {
                let mode = rec.str("permissionMode").unwrap_or("").to_string();
                self.mode(e, rec, mode);
            }
            "mode" | "agent-name" | "agent-setting" | "agent-color" | "isolation-latch" => {
                // (`agent-setting`, the agent a session runs as (`--agent`, a
                // teammate), `agent-color`, its `/color`, and `isolation-latch`, a
                // `side` whose meaning no reader has found: Claude Code 2.1, in the
                // shapes other readers captured; not in the spec)
                let (key, value) = match rec.kind.as_str() {
                    "mode" => ("mode", rec.str("mode")),
                    "agent-setting" => ("agentSetting", rec.str("agentSetting")),
                    "agent-color" => ("agentColor", rec.str("agentColor")),
                    "isolation-latch" => ("isolationLatch", rec.str("side")),
                    _ => (
                        "agentName",
                        rec.str("agentName").or_else(|| rec.str("name")),
                    ),
                };
                let value = value.unwrap_or("").to_string();
                if self.first_time(format!("{key}={value}")) {
                    let text = format!("session meta: {}", system::key_values(&[(key, &value)]));
                    self.system(e, rec, text);
                }
            }
            "pr-link" => {
                let url = rec.str("prUrl").unwrap_or("").to_string();
                if self.first_time(format!("pr {url}")) {
                    self.system(e, rec, format!("session ref: pr {url}"));
                }
            }
            "relocated" => {
                let cwd = rec.str("relocatedCwd").unwrap_or("").to_string();
                if !cwd.is_empty() {
                    self.place.cwd.clone_from(&cwd);
                }
                self.system(e, rec, format!("cwd changed: {cwd}"));
            }
            "bridge-session" => {
                let detail = format!(
                    "bridge session {} account={}",
                    rec.str("bridgeSessionId").unwrap_or(""),
                    rec.str("ownerAccountUuid").unwrap_or("")
                );
                let text = system::session_synced(detail, "").trim_end().to_string();
                self.system(e, rec, text);
            }
            "continued-in" => {
                let id = rec.str("continuedInSessionId").unwrap_or("");
                self.system(e, rec, format!("session continued in: {id}"));
            }
            "ended-by-model" => self.system(e, rec, "session end: ended by model"),
            "file-history-snapshot" | "file-history-delta" => {
                let snap = rec
                    .raw
                    .get("snapshot")
                    .or_else(|| rec.raw.get("delta"))
                    .and_then(Value::as_object)
                    .unwrap_or(&rec.raw);
                for text in file_history_texts(Some(snap), rec.flag("isSnapshotUpdate")) {
                    self.system(e, rec, text);
                }
            }
            "queue-operation" => self.queue(e, rec),
            "worktree-state" => {
                let text = worktree_text(&rec.raw);
                if self.first_time(text.clone()) {
                    self.system(e, rec, text);
                }
            }
            "marble-origami-commit" => {
                let id = rec.str("collapseId").unwrap_or("");
                if id.is_empty() || self.first_time(format!("collapse {id}")) {
                    let s = |k: &str| rec.str(k).unwrap_or("");
                    let fields = [
                        ("collapse_id", id),
                        ("first_archived", s("firstArchivedUuid")),
                        ("last_archived", s("lastArchivedUuid")),
                        ("summary_uuid", s("summaryUuid")),
                    ];
                    let text = format!(
                        "compaction: context collapse {}",
                        system::key_values(&fields)
                    );
                    self.system(e, rec, text.trim_end().to_string());
                    let summary = [s("summary"), s("summaryContent")]
                        .into_iter()
                        .find(|t| !t.is_empty());
                    if let Some(summary) = summary {
                        self.system(e, rec, format!("compaction summary: {summary}"));
                    }
                }
            }
            "marble-origami-reset" => {
                // a context collapse undone (`{sessionId, reason}`, the tombstone other
                // readers write and read; Claude Code 2.1, not in the spec)
                let reason = scalar(rec.raw.get("reason"));
                let text = format!(
                    "compaction: context collapse reset {}",
                    system::key_values(&[("reason", &reason)])
                );
                self.system(e, rec, text.trim_end().to_string());
            }
            "artifact-comment-monitor" | "artifact-autoreact-ledger" => self.artifacts(e, rec),
            "teleport-skipped-branch" => {
                // a branch `--teleport` could not check out (`{branch, failed}`, as
                // other tools write it beside Claude Code's own; not in the spec)
                let v = |k: &str| scalar(rec.raw.get(k));
                let fields = [("branch", v("branch")), ("failed", v("failed"))];
                let fields: Vec<(&str, &str)> =
                    fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let text = format!(
                    "session meta: teleport skipped branch {}",
                    system::key_values(&fields)
                );
                self.system(e, rec, text.trim_end().to_string());
            }
            "attribution-snapshot" => self.attribution(e, rec),
            "cost-state" => self.cost_state(e, rec),
            "task-summary" => {
                let summary = scalar(rec.raw.get("summary"));
                self.system(e, rec, format!("task summary: {summary}"));
            }
            "speculation-accept" => {
                let saved = scalar(rec.raw.get("timeSavedMs"));
                let text = format!(
                    "speculation accepted: {}",
                    system::key_values(&[("time_saved_ms", &saved)])
                );
                self.system(e, rec, text.trim_end().to_string());
            }
            "history-suppression" | "fork-context-ref" | "observer-ref" => {
                let v = |k: &str| scalar(rec.raw.get(k));
                let (head, fields) = match rec.kind.as_str() {
                    "history-suppression" => (
                        "session meta: history suppressed",
                        vec![
                            ("cause", v("cause")),
                            ("vetoed_account", v("vetoedAgainstAccountUuid")),
                        ],
                    ),
                    "fork-context-ref" => (
                        "session origin: fork",
                        vec![
                            ("parent_session", v("parentSessionId")),
                            ("parent_last", v("parentLastUuid")),
                            ("context_length", v("contextLength")),
                            ("agent", v("agentId")),
                        ],
                    ),
                    _ => (
                        "session meta: observer",
                        vec![
                            ("task", v("observerTaskId")),
                            ("agent_type", v("observerAgentType")),
                        ],
                    ),
                };
                let fields: Vec<(&str, &str)> =
                    fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let text = format!("{head} {}", system::key_values(&fields));
                let text = text.trim_end().to_string();
                if self.first_time(text.clone()) {
                    // (`history-suppression` is timed by `ts`, not `timestamp`)
                    let at = rec
                        .timestamp
                        .or_else(|| rec.raw.get("ts").and_then(decode::parse_time));
                    let row = self.place.row(e.line, e.offset, at, TurnType::System, text);
                    self.sink.push(row);
                }
            }
            k if SILENT.contains(&k) => {}
            other => {
                let name = if other.is_empty() { "(none)" } else { other };
                let text = format!("unknown record type {name}: {}", quote(&line.text_lossy()));
                self.system(e, rec, text);
            }
        }
        for (what, target) in [
            ("parentUuid", rec.parent_uuid()),
            ("logicalParentUuid", rec.logical_parent_uuid()),
        ] {
            if let Some(text) = target.and_then(|t| self.ix.ids.check(what, t)) {
                self.system(e, rec, text);
            }
        }
    }

    /// `artifact-comment-monitor` and `artifact-autoreact-ledger` (Claude Code 2.1's
    /// published Artifacts, in the shapes other readers captured: `{v, sessionId,
    /// artifacts: {<id>: {state, writtenAtMs, title}}}`, the ledger also with the
    /// `accountUuid` it acts for; not in the spec). One row per artifact and state
    /// (`session meta: artifact <id> monitor state=armed title=".." written=<UTC>`,
    /// an artifact of another shape as compact JSON), and for a ledger one
    /// `session meta: artifact autoreact ledger account=<uuid> artifacts=<n>` row;
    /// each once per text, since the records are rewritten as the session goes on.
    fn artifacts(&mut self, e: &Entry, rec: &Record) {
        let ledger = rec.kind == "artifact-autoreact-ledger";
        let role = if ledger { "autoreact" } else { "monitor" };
        let mut texts = Vec::new();
        let artifacts = rec.raw.get("artifacts");
        if let Some(Value::Object(all)) = artifacts {
            for (id, a) in all {
                let text = match a {
                    Value::Object(o) => {
                        let v = |k: &str| scalar(o.get(k));
                        let written = o
                            .get("writtenAtMs")
                            .and_then(decode::parse_time)
                            .map(|t| t.to_string())
                            .unwrap_or_else(|| v("writtenAtMs"));
                        let known = ["state", "title", "writtenAtMs"];
                        let rest: serde_json::Map<String, Value> = o
                            .iter()
                            .filter(|(k, _)| !known.contains(&k.as_str()))
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        let rest = if rest.is_empty() {
                            String::new()
                        } else {
                            compact(&Value::Object(rest))
                        };
                        let fields = [
                            ("state", v("state")),
                            ("title", v("title")),
                            ("written", written),
                            ("other", rest),
                        ];
                        let fields: Vec<(&str, &str)> =
                            fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                        format!(
                            "session meta: artifact {id} {role} {}",
                            system::key_values(&fields)
                        )
                    }
                    other => format!("session meta: artifact {id} {role} {}", compact(other)),
                };
                texts.push(text.trim_end().to_string());
            }
        } else if let Some(other) = artifacts {
            texts.push(format!("session meta: artifacts {role} {}", compact(other)));
        }
        if ledger {
            let n = match artifacts {
                Some(Value::Object(all)) => all.len().to_string(),
                _ => String::new(),
            };
            let account = scalar(rec.raw.get("accountUuid"));
            let text = format!(
                "session meta: artifact autoreact ledger {}",
                system::key_values(&[("account", &account), ("artifacts", &n)])
            );
            texts.insert(0, text.trim_end().to_string());
        }
        for text in texts {
            if self.first_time(text.clone()) {
                self.system(e, rec, text);
            }
        }
    }

    /// An `attribution-snapshot` (Claude Code's commit attribution, re-appended after
    /// every reply, in the shape other readers captured from Claude Code 2.1; not in the
    /// spec): a `file attribution:` row for each file of `fileStates` (in path order) whose share
    /// written by Claude (`claudeContribution`, characters) or content hash is new, and
    /// an `attribution counts:` row when the session's counters change. A file's
    /// `mtime` is left out: peers show it in seconds and in milliseconds.
    fn attribution(&mut self, e: &Entry, rec: &Record) {
        let mut texts = Vec::new();
        if let Some(Value::Object(files)) = rec.raw.get("fileStates") {
            for (path, state) in files {
                let text = match state {
                    Value::Object(st) => {
                        let chars = scalar(st.get("claudeContribution"));
                        let hash = scalar(st.get("contentHash"));
                        let fields = [
                            ("file", path.as_str()),
                            ("claude_chars", &chars),
                            ("content_hash", &hash),
                        ];
                        format!("file attribution: {}", system::key_values(&fields))
                    }
                    other => format!(
                        "file attribution: {} {}",
                        system::key_values(&[("file", path)]),
                        compact(other)
                    ),
                };
                texts.push(text.trim_end().to_string());
            }
        }
        let v = |k: &str| scalar(rec.raw.get(k));
        let counts = [
            ("prompts", v("promptCount")),
            ("prompts_at_last_commit", v("promptCountAtLastCommit")),
            ("permission_prompts", v("permissionPromptCount")),
            (
                "permission_prompts_at_last_commit",
                v("permissionPromptCountAtLastCommit"),
            ),
            ("escapes", v("escapeCount")),
            ("escapes_at_last_commit", v("escapeCountAtLastCommit")),
            ("surface", v("surface")),
        ];
        let fields: Vec<(&str, &str)> = counts.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let counts = system::key_values(&fields);
        if !counts.is_empty() {
            texts.push(format!("attribution counts: {counts}"));
        }
        for text in texts {
            let text = text.trim_end().to_string();
            if self.first_time(text.clone()) {
                self.system(e, rec, text);
            }
        }
    }

    /// A `cost-state`: the session's running totals, re-appended without a time at
    /// each flush (the spec leaves its shape open; real Claude Code 2.1 records that
    /// other readers printed show `modelUsage{<model>: {inputTokens, outputTokens,
    /// cacheReadInputTokens, cacheCreationInputTokens, thinkingTokens,
    /// webSearchRequests, costUSD}}`, `totalCostUSD`, `totalDuration`,
    /// `totalAPIDuration`, `totalToolDuration`, `totalLinesAdded`,
    /// `totalLinesRemoved`, `startTime` in epoch ms and `hasUnknownModelCost`). One
    /// `usage: ... scope=session` row per model (the spec's plan for it, the
    /// `model` column the usage model) and one `session totals:` row, each once per
    /// text: a flush that changed nothing gives nothing.
    fn cost_state(&mut self, e: &Entry, rec: &Record) {
        let mut rows = Vec::new();
        if let Some(Value::Object(models)) = rec.raw.get("modelUsage") {
            const KEYS: [&str; 5] = [
                "inputTokens",
                "outputTokens",
                "cacheReadInputTokens",
                "cacheCreationInputTokens",
                "thinkingTokens",
            ];
            for (model, usage) in models {
                let text = match usage {
                    Value::Object(u) if KEYS.iter().any(|k| u.contains_key(*k)) => {
                        chat_rows::system::usage(&chat_rows::system::Usage {
                            model,
                            input: num(u.get(KEYS[0])),
                            output: num(u.get(KEYS[1])),
                            cache_read: num(u.get(KEYS[2])),
                            cache_write: num(u.get(KEYS[3])),
                            reasoning: num(u.get(KEYS[4])),
                            nano_aiu: None,
                            requests: None,
                            duration_ms: None,
                            finish: None,
                            turn: None,
                            scope: "session",
                        })
                    }
                    // another shape: as written, never lost
                    other => format!(
                        "session totals: {} usage={}",
                        system::key_values(&[("model", model)]),
                        compact(other)
                    ),
                };
                rows.push((model.as_str(), text));
            }
        }
        let v = |k: &str| scalar(rec.raw.get(k));
        let started = rec
            .raw
            .get("startTime")
            .and_then(decode::parse_time)
            .map(|t| t.to_string())
            .unwrap_or_else(|| v("startTime"));
        let totals = [
            ("cost_usd", v("totalCostUSD")),
            ("duration_ms", v("totalDuration")),
            ("api_duration_ms", v("totalAPIDuration")),
            ("tool_duration_ms", v("totalToolDuration")),
            ("lines_added", v("totalLinesAdded")),
            ("lines_removed", v("totalLinesRemoved")),
            ("started", started),
            ("unknown_model_cost", v("hasUnknownModelCost")),
        ];
        let fields: Vec<(&str, &str)> = totals.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let totals = system::key_values(&fields);
        if !totals.is_empty() {
            rows.push(("", format!("session totals: {totals}")));
        }
        for (model, text) in rows {
            if self.first_time(text.clone()) {
                let row = self
                    .place
                    .row(e.line, e.offset, rec.timestamp, TurnType::System, text)
                    .model(model);
                self.sink.push(row);
            }
        }
    }

    /// `permission mode:` rows, on a change (a first mode is one), timed or not.
    fn mode(&mut self, e: &Entry, rec: &Record, mode: String) {
        if mode.is_empty() {
            return;
        }
        if let Some(text) = self.modes.observe(mode) {
            self.system(e, rec, text);
        }
    }

    fn user(&mut self, e: &Entry, rec: &Record) {
        if let Some(mode) = rec.str("permissionMode") {
            self.mode(e, rec, mode.to_string());
        }
        let fork_task = self.ix.fork_line == Some(e.line);
        for s in said(rec) {
            match s {
                Said::Prompt(p) if fork_task || !self.task_given => {
                    self.task_given = true;
                    self.system(e, rec, format!("subagent task: {p}"));
                }
                Said::Prompt(p) => {
                    let row = self
                        .place
                        .row(e.line, e.offset, rec.timestamp, TurnType::User, p);
                    self.sink.push(row);
                }
                Said::Hidden(label, why, text) => {
                    self.system(e, rec, hidden_text(label, &why, &text));
                }
            }
        }
        if let Some(Value::Array(blocks)) = rec.content() {
            let results: Vec<&Map<String, Value>> = blocks
                .iter()
                .filter_map(Value::as_object)
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
                .collect();
            let errors = results.iter().filter(|b| truthy(b.get("is_error"))).count();
            for b in results {
                let denial_target = errors == 0 || truthy(b.get("is_error"));
                self.tool_result(e, rec, b, denial_target);
            }
        }
    }

    fn tool_result(&mut self, e: &Entry, rec: &Record, b: &Map<String, Value>, denied: bool) {
        let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
        let tool = self.ix.calls.tool(id).unwrap_or("").to_string();
        let mut text = result_text(b.get("content"));
        let mut locator = format!("byte {}", e.offset);
        let mut notes: Vec<String> = Vec::new();
        if let Some(pointer) = persisted_pointer(&text, self.opts.folder_session_id) {
            // a path outside the session's own tool-results folder is never looked up
            let found = match &pointer.refused {
                Some(reason) => Persisted::Missing {
                    reason: reason.clone(),
                },
                None => (self.opts.persisted)(&pointer),
            };
            match found {
                Persisted::Found { text: full } => {
                    text = full;
                    locator = resolved_locator(e.offset, &pointer.relative);
                }
                Persisted::Missing { reason } => {
                    notes.push(missing_text(&pointer.relative, &reason));
                }
            }
        }
        let row = self
            .place
            .row(e.line, e.offset, rec.timestamp, TurnType::ToolResult, text)
            .tool(tool.clone(), id)
            .locator(locator);
        self.sink.push(row);
        let tur = rec.raw.get("toolUseResult");
        let denial = rec
            .str("toolDenialKind")
            .filter(|k| !k.is_empty() && denied);
        if let Some(kind) = denial {
            let mut detail = format!("toolDenialKind={kind} tool={tool}");
            if let Some(f) = rec.raw.get("userFeedback").filter(|f| truthy(Some(f))) {
                let f = session_tree::log::scalar(f);
                detail.push_str(&format!(" feedback={}", compact(&Value::String(f))));
            }
            notes.push(system::permission_decision(detail));
        } else if truthy(b.get("is_error")) {
            notes.push("tool status: error".into());
        }
        let obj = tur.and_then(Value::as_object);
        if obj.is_some_and(|o| truthy(o.get("interrupted"))) {
            notes.push("tool status: interrupted".into());
        }
        if let Some(o) = obj {
            let edit = ["structuredPatch", "oldString", "newString"]
                .iter()
                .any(|k| o.contains_key(*k));
            if let (Some(path), true) = (o.get("filePath").and_then(Value::as_str), edit) {
                let hunks = o
                    .get("structuredPatch")
                    .and_then(Value::as_array)
                    .map_or_else(|| "-".to_string(), |h| h.len().to_string());
                let modified = o
                    .get("userModified")
                    .map_or_else(|| "-".to_string(), session_tree::log::scalar);
                notes.push(format!(
                    "file edit: {path} hunks={hunks} user_modified={modified}"
                ));
            }
        }
        if let Some(text) = self.ix.calls.result_link(id) {
            notes.push(text);
        }
        for text in notes {
            self.tool_system(e, rec, &tool, id, text);
        }
    }

    fn assistant(&mut self, e: &Entry, rec: &Record, line: &[u8]) {
        let model = rec.message_str("model").unwrap_or("").to_string();
        let blocks: Vec<&Value> = match rec.content() {
            Some(Value::Array(b)) => b.iter().collect(),
            Some(other) => vec![other],
            None => Vec::new(),
        };
        if model == "<synthetic>" || rec.flag("isApiErrorMessage") {
            let text: Vec<String> = blocks.iter().map(|b| block_text(b)).collect();
            let head = [
                rec.raw
                    .get("apiErrorStatus")
                    .map(session_tree::log::scalar)
                    .unwrap_or_default(),
                rec.raw
                    .get("error")
                    .map(session_tree::log::scalar)
                    .unwrap_or_default(),
            ]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
            let text = format!("api error: {head}: {}", text.join("\n"));
            self.system(e, rec, text);
            return;
        }
        if !model.is_empty() {
            if let Some(text) = self.models.observe(model.clone()) {
                self.system(e, rec, text);
            }
        }
        // the line is read again, once, only for a record with a block printed as JSON
        let printed = |b: &&Value| {
            !b.is_string()
                && !matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("text" | "thinking" | "redacted_thinking")
                )
        };
        let repaired;
        let text = if blocks.iter().any(printed) {
            repaired = chat_rows::json::repair_lone_surrogates(line);
            LineText::new(&repaired, matches!(rec.content(), Some(Value::Array(_))))
        } else {
            LineText::default()
        };
        for (i, b) in blocks.into_iter().enumerate() {
            let w = Written {
                text: &text,
                block: i,
            };
            self.block(e, rec, b, &w, &model);
        }
        if self.ix.usage_lines.contains(&e.line) {
            if let Some(usage) = rec
                .message()
                .and_then(|m| m.get("usage"))
                .and_then(Value::as_object)
            {
                let row = self
                    .place
                    .row(
                        e.line,
                        e.offset,
                        rec.timestamp,
                        TurnType::System,
                        usage_text(&model, usage),
                    )
                    .model(model.clone());
                self.sink.push(row);
            }
        }
    }

    fn block(&mut self, e: &Entry, rec: &Record, b: &Value, w: &Written<'_, '_>, model: &str) {
        let kind = b.get("type").and_then(Value::as_str).unwrap_or("");
        let (turn, text) = match kind {
            "text" => (TurnType::Assistant, block_text(b)),
            "thinking" => {
                let t = b.get("thinking").and_then(Value::as_str).unwrap_or("");
                if t.trim().is_empty() {
                    return;
                }
                (TurnType::Thinking, t.to_string())
            }
            "redacted_thinking" => (TurnType::Thinking, "[redacted thinking]".to_string()),
            "tool_use" | "server_tool_use" => return self.tool_use(e, rec, b, w, model),
            _ if b.is_string() => (TurnType::Assistant, block_text(b)),
            other => {
                let json = w.block(&[]).unwrap_or_else(|| compact(b));
                let text = format!("content block {other}: {}", quote(&json));
                return self.system(e, rec, text);
            }
        };
        let row = self
            .place
            .row(e.line, e.offset, rec.timestamp, turn, text)
            .model(model);
        self.sink.push(row);
    }

    fn tool_use(&mut self, e: &Entry, rec: &Record, b: &Value, w: &Written<'_, '_>, model: &str) {
        let id = b.get("id").and_then(Value::as_str).unwrap_or("");
        let name = b.get("name").and_then(Value::as_str).unwrap_or("");
        let input = b.get("input").cloned().unwrap_or(Value::Null);
        if self.wired.0 != e.line {
            self.wired = (e.line, HashSet::new());
        }
        // the input as sent, compared once per call id of a record
        let wire = rec
            .raw
            .get("wireToolInputs")
            .and_then(|w| w.get(id))
            .filter(|_| self.wired.1.insert(id.to_string()));
        let command = |v: &Value| v.get("command").and_then(Value::as_str).map(str::to_string);
        let without_command = |v: &Value| {
            let mut v = v.clone();
            if let Some(o) = v.as_object_mut() {
                o.remove("command");
            }
            v
        };
        let (text, differs) = if name == "Bash" {
            let text = wire
                .and_then(command)
                .or_else(|| command(&input))
                .unwrap_or_else(|| w.input(&input));
            let differs = wire.is_some_and(|x| without_command(x) != without_command(&input));
            (text, differs)
        } else {
            let differs = wire.is_some_and(|x| *x != input);
            (w.input(&input), differs)
        };
        let row = self
            .place
            .row(e.line, e.offset, rec.timestamp, TurnType::ToolUse, text)
            .tool(name, id)
            .model(model);
        self.sink.push(row);
        if let (true, Some(sent)) = (differs, wire) {
            let sent = w.wire(id).unwrap_or_else(|| compact(sent));
            self.tool_system(e, rec, name, id, format!("tool input as sent: {sent}"));
        }
        if let Some(text) = self.ix.calls.call_link(id) {
            self.tool_system(e, rec, name, id, text);
        }
    }

    fn system_record(&mut self, e: &Entry, rec: &Record, line: &[u8]) {
        let subtype = rec.str("subtype").unwrap_or("");
        let get = |k: &str| {
            rec.raw
                .get(k)
                .map(session_tree::log::scalar)
                .unwrap_or_default()
        };
        let text = match subtype {
            "api_error" => {
                let error = match rec.raw.get("error") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => chat_rows::json::compact_at(line, &[Step::Key("error")])
                        .unwrap_or_else(|| compact(v)),
                    None => String::new(),
                };
                format!(
                    "api error: retry {}/{} in {} ms: {error}",
                    get("retryAttempt"),
                    get("maxRetries"),
                    get("retryInMs")
                )
            }
            "compact_boundary" => {
                let meta = rec.raw.get("compactMetadata");
                let m = |k: &str| {
                    meta.and_then(|m| m.get(k))
                        .map(session_tree::log::scalar)
                        .unwrap_or_default()
                };
                format!(
                    "compaction: trigger={} pre_tokens={}",
                    m("trigger"),
                    m("preTokens")
                )
            }
            "turn_duration" => format!(
                "turn duration: {} ms, {} messages",
                get("durationMs"),
                get("messageCount")
            ),
            _ => {
                let body = match rec.raw.get("content") {
                    Some(Value::String(s)) => s.clone(),
                    _ => chat_rows::json::compact_object_without(line, |k| ENVELOPE.contains(&k))
                        .unwrap_or_else(|| {
                            let rest: Map<String, Value> = rec
                                .raw
                                .iter()
                                .filter(|(k, _)| !ENVELOPE.contains(&k.as_str()))
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect();
                            compact(&Value::Object(rest))
                        }),
                };
                format!("system message: {subtype}: {body}")
            }
        };
        self.system(e, rec, text);
    }

    fn attachment(&mut self, e: &Entry, rec: &Record) {
        let Some(a) = rec.raw.get("attachment").and_then(Value::as_object) else {
            return;
        };
        let s = |k: &str| a.get(k).map(session_tree::log::scalar).unwrap_or_default();
        match a.get("type").and_then(Value::as_str).unwrap_or("") {
            "queued_command" => {
                let prompt = attachment_prompt(a).unwrap_or_default();
                match origin_kind(a.get("origin")).and_then(|k| origin_label(k).map(|l| (k, l))) {
                    Some((kind, label)) => {
                        let text = hidden_text(label, &format!("origin {kind}"), &prompt);
                        self.system(e, rec, text);
                    }
                    None => {
                        let row =
                            self.place
                                .row(e.line, e.offset, rec.timestamp, TurnType::User, prompt);
                        self.sink.push(row);
                    }
                }
            }
            "hook_system_message" => {
                let text = format!(
                    "hook: {} {}: {}",
                    s("hookName"),
                    s("hookEvent"),
                    s("content")
                );
                self.system(e, rec, text);
            }
            "edited_text_file" => {
                let text = format!("edited file: {}", s("filename"));
                self.system(e, rec, text);
            }
            _ => {}
        }
    }

    fn queue(&mut self, e: &Entry, rec: &Record) {
        let content = rec.str("content").unwrap_or("");
        match rec.str("operation").unwrap_or("") {
            "enqueue" => {
                // the delivery lines are in file order: the first after this one by
                // bisection (a scan per enqueue was quadratic in repeated prompts)
                let later = self
                    .ix
                    .delivered
                    .get(content)
                    .and_then(|lines| lines.get(lines.partition_point(|l| *l <= e.line)));
                let text = match later {
                    Some(l) => format!("prompt queued: delivered at line {l}"),
                    None => format!("queue enqueue: {content}"),
                };
                self.system(e, rec, text);
            }
            "remove" => self.system(e, rec, format!("queue remove: {content}")),
            _ => {}
        }
    }
}

/// The text of an assistant content block (a string block is its own text).
fn block_text(b: &Value) -> String {
    match b {
        Value::String(s) => s.clone(),
        _ => b
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transcript read a chunk at a time that fails midway (here: grown past the size
    /// cap once opened) gives the rows of the lines both passes read, then one `parser:`
    /// row at the byte it failed at, with the session and project in effect; the line
    /// the failure cut is not read as a torn line.
    #[test]
    fn a_transcript_that_fails_midway_gives_its_rows_then_where_it_failed() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.jsonl");
        let text: String = (0..60)
            .map(|n| {
                format!(
                    "{{\"type\":\"user\",\"uuid\":\"u{n:02}\",\"sessionId\":\"s\",\"cwd\":\"/w\",\"timestamp\":\"2026-01-01T00:00:{n:02}Z\",\"message\":{{\"role\":\"user\",\"content\":\"prompt {n:02}\"}}}}\n"
                )
            })
            .collect();
        std::fs::write(&f, &text).unwrap();
        let ev = chat_rows::Evidence::new()
            .roots([dir.path()])
            .max_size(text.len() as u64);
        let log = Transcript::from_path(&f, &ev).unwrap();
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(&f).unwrap(),
            b"{}\n",
        )
        .unwrap();
        let opts = MapOptions::new("p/s.jsonl", "s", &no_persisted_outputs);
        let mut rows: Vec<chat_rows::Row> = Vec::new();
        transcript_rows(&log, &opts, &mut rows);
        let got: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}|{}|{}|{}",
                    r.turn_type,
                    r.session_id,
                    r.project_path,
                    r.text,
                    r.source_file,
                    r.source_line.map(|l| l.to_string()).unwrap_or_default(),
                    r.source_locator
                )
            })
            .collect();
        let whole_lines = text.as_bytes()[..4096]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        assert_eq!((whole_lines, text.len() / 60), (29, 139));
        assert_eq!(got.len(), 1 + whole_lines + 1, "{got:#?}");
        assert_eq!(got[1], "user|s|/w|prompt 00|p/s.jsonl|1|byte 0");
        assert_eq!(got[29], "user|s|/w|prompt 28|p/s.jsonl|29|byte 3892");
        assert_eq!(
            got[30],
            format!(
                "system|s|/w|parser: p/s.jsonl: cannot read ({} bytes, over the {} -byte cap of one evidence file)|p/s.jsonl||byte 4096",
                text.len() + 1,
                text.len()
            )
            .replace(" -byte", "-byte")
        );
    }

    /// The rows of a transcript mapped with the default options.
    pub(super) fn rows_of(input: &str) -> Vec<chat_rows::Row> {
        let opts = MapOptions::new("s.jsonl", "s", &no_persisted_outputs);
        let mut rows: Vec<chat_rows::Row> = Vec::new();
        transcript_rows(&Transcript::from_bytes(input.as_bytes()), &opts, &mut rows);
        rows
    }

    fn map(input: &str, agent_file: Option<&str>, fork: bool) -> Vec<String> {
        let opts = MapOptions {
            agent_file,
            fork,
            meta_model: Some("m0"),
            ..MapOptions::new("s.jsonl", "s", &no_persisted_outputs)
        };
        let mut rows: Vec<chat_rows::Row> = Vec::new();
        transcript_rows(&Transcript::from_bytes(input.as_bytes()), &opts, &mut rows);
        rows.into_iter()
            .map(|r| {
                [
                    r.record_state.as_str(),
                    &r.session_id,
                    r.turn_type.as_str(),
                    &r.tool_name,
                    &r.text,
                ]
                .join("|")
            })
            .collect()
    }

    /// Tool inputs, the input as sent, other content blocks, an `api_error`'s error and
    /// an unknown system record's fields are printed as written: keys in the writer's
    /// order, escapes and numbers untouched (a decoded `Value` sorts the keys, rewrites
    /// `\u00e9` and rounds a number past `f64`).
    #[test]
    fn json_texts_are_printed_as_written() {
        let rows = map(
            concat!(
                r#"{"type":"assistant","uuid":"a1","sessionId":"s","wireToolInputs":{"t1":{"z":1,"file_path":"b"}},"message":{"id":"m","model":"m0","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"a","old_string":"caf\u00e9","new_string":"x","n":12345678901234567890123}},{"type":"zeta_block","z":[1, 2],"a":true}]}}"#,
                "\n",
                r#"{"type":"system","subtype":"api_error","uuid":"e1","sessionId":"s","error":{"type":"overloaded","status":529},"retryAttempt":1,"maxRetries":3,"retryInMs":500}"#,
                "\n",
                r#"{"type":"system","subtype":"future_note","uuid":"e2","sessionId":"s","zz":{"b":1,"a":"\u00e9"},"aa":[3, 1]}"#,
                "\n",
            ),
            None,
            false,
        );
        assert_eq!(
            rows,
            [
                r#"live|s|tool_use|Edit|{"file_path":"a","old_string":"caf\u00e9","new_string":"x","n":12345678901234567890123}"#,
                r#"live|s|system|Edit|tool input as sent: {"z":1,"file_path":"b"}"#,
                "live|s|system|Edit|link: tool call t1 has no result in this file",
                r#"live|s|system||content block zeta_block: {"type":"zeta_block","z":[1,2],"a":true}"#,
                r#"live|s|system||api error: retry 1/3 in 500 ms: {"type":"overloaded","status":529}"#,
                r#"live|s|system||system message: future_note: {"zz":{"b":1,"a":"\u00e9"},"aa":[3,1]}"#,
            ]
        );
    }

    #[test]
    fn a_fork_copies_its_context_before_the_boilerplate() {
        let rows = map(
            concat!(
                r#"{"type":"user","uuid":"c1","sessionId":"p","message":{"content":"copied prompt"}}"#,
                "\n",
                r#"{"type":"assistant","uuid":"c2","parentUuid":"c1","sessionId":"p","message":{"id":"m1","model":"m0","content":[{"type":"text","text":"copied reply"}]}}"#,
                "\n",
                r#"{"type":"user","uuid":"f1","parentUuid":"c2","sessionId":"p","message":{"content":[{"type":"text","text":"<fork-boilerplate>Do the second half</fork-boilerplate>"}]}}"#,
                "\n",
                r#"{"type":"assistant","uuid":"f2","parentUuid":"f1","sessionId":"p","message":{"id":"m2","model":"m1","content":[{"type":"thinking","thinking":"plan"},{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{"q":"x"}},{"type":"web_search_tool_result","tool_use_id":"srv_1","content":[]}]}}"#,
                "\n",
            ),
            Some("agent-f"),
            true,
        );
        assert_eq!(
            rows,
            vec![
                "live|p:agent-f|system||session title: <fork-boilerplate>Do the second half</fork-boilerplate> (from first prompt)",
                "secondary|p:agent-f|user||copied prompt",
                "secondary|p:agent-f|assistant||copied reply",
                "live|p:agent-f|system||subagent task: <fork-boilerplate>Do the second half</fork-boilerplate>",
                "live|p:agent-f|system||model: m0 -> m1",
                "live|p:agent-f|thinking||plan",
                r#"live|p:agent-f|tool_use|web_search|{"q":"x"}"#,
                "live|p:agent-f|system|web_search|link: tool call srv_1 has no result in this file",
                r#"live|p:agent-f|system||content block web_search_tool_result: {"type":"web_search_tool_result","tool_use_id":"srv_1","content":[]}"#,
            ]
        );
    }

    #[test]
    fn hidden_labels_of_is_meta_and_opening_tags() {
        let rows = map(
            concat!(
                r#"{"type":"user","uuid":"u1","sessionId":"s1","isMeta":true,"message":{"content":"<command-name>/foo</command-name>"}}"#,
                "\n",
                r#"{"type":"user","uuid":"u2","sessionId":"s1","isMeta":true,"message":{"content":[{"type":"text","text":"<local-command-stdout>ok</local-command-stdout>"}]}}"#,
                "\n",
                r#"{"type":"user","uuid":"u3","sessionId":"s1","isMeta":true,"message":{"content":"Continue from where you left off."}}"#,
                "\n",
                r#"{"type":"user","uuid":"u4","sessionId":"s1","message":{"content":"<system-reminder>The date is 2026-06-01.</system-reminder>"}}"#,
                "\n",
                r#"{"type":"user","uuid":"u5","sessionId":"s1","message":{"content":[{"type":"text","text":"<local-command-caveat>Caveat: local commands</local-command-caveat>"},{"type":"text","text":"run it"}]}}"#,
                "\n",
            ),
            None,
            false,
        );
        assert_eq!(
            rows,
            vec![
                "live|s1|system||session title: run it (from first prompt)",
                "live|s1|system||hidden system reminder (isMeta): <command-name>/foo</command-name>",
                "live|s1|system||hidden system reminder (isMeta): <local-command-stdout>ok</local-command-stdout>",
                "live|s1|system||hidden system reminder (isMeta): Continue from where you left off.",
                "live|s1|system||hidden system reminder (opens with <system-reminder>): <system-reminder>The date is 2026-06-01.</system-reminder>",
                "live|s1|user||run it",
                "live|s1|system||hidden system reminder (opens with <local-command-caveat>): <local-command-caveat>Caveat: local commands</local-command-caveat>",
            ]
        );
    }

    #[test]
    fn fork_boilerplate_counts_only_in_a_subagents_own_prompt() {
        // a main transcript: the marker in a tool result and in a typed prompt is text
        let main = concat!(
            r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"grep for fork markers"}}"#,
            "\n",
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","model":"m0","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"grep -r fork ."}}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.ts: '<fork-boilerplate>'"}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s1","message":{"content":"what does <fork-boilerplate> mean?"}}"#,
            "\n",
        );
        assert_eq!(
            map(main, None, false),
            vec![
                "live|s1|system||session title: grep for fork markers (from first prompt)",
                "live|s1|user||grep for fork markers",
                "live|s1|tool_use|Bash|grep -r fork .",
                "live|s1|tool_result|Bash|a.ts: '<fork-boilerplate>'",
                "live|s1|user||what does <fork-boilerplate> mean?",
            ]
        );
        // a sub-agent: a tool result that quotes the marker is still copied context;
        // the prompt that carries the block is the task
        let sub = concat!(
            r#"{"type":"user","uuid":"c1","sessionId":"p","message":{"content":"copied prompt"}}"#,
            "\n",
            r#"{"type":"assistant","uuid":"c2","parentUuid":"c1","sessionId":"p","message":{"id":"m1","model":"m0","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"grep -r fork ."}}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"c3","parentUuid":"c2","sessionId":"p","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.ts: '<fork-boilerplate>'"}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"f1","parentUuid":"c3","sessionId":"p","message":{"content":[{"type":"text","text":"<fork-boilerplate>Do the second half</fork-boilerplate>"}]}}"#,
            "\n",
        );
        assert_eq!(
            map(sub, Some("agent-f"), false),
            vec![
                "live|p:agent-f|system||session title: <fork-boilerplate>Do the second half</fork-boilerplate> (from first prompt)",
                "secondary|p:agent-f|user||copied prompt",
                "secondary|p:agent-f|tool_use|Bash|grep -r fork .",
                "secondary|p:agent-f|tool_result|Bash|a.ts: '<fork-boilerplate>'",
                "live|p:agent-f|system||subagent task: <fork-boilerplate>Do the second half</fork-boilerplate>",
            ]
        );
    }

    #[test]
    fn a_queued_text_is_delivered_by_any_later_record_that_carries_it() {
        let n = r#"<task-notification>job done</task-notification>"#;
        let rows = map(
            &[
                r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"hi"}}"#.to_string(),
                format!(r#"{{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:02Z","content":"{n}","sessionId":"s1"}}"#),
                format!(r#"{{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s1","origin":{{"kind":"task-notification"}},"message":{{"content":"{n}"}}}}"#),
                r#"{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:04Z","content":"peer says hi","sessionId":"s1"}"#.to_string(),
                r#"{"type":"attachment","uuid":"t1","parentUuid":"u2","sessionId":"s1","attachment":{"type":"queued_command","prompt":"peer says hi","origin":{"kind":"peer"}}}"#.to_string(),
                r#"{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:06Z","content":"never sent","sessionId":"s1"}"#.to_string(),
                r#"{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:07Z","content":"hi","sessionId":"s1"}"#.to_string(),
                r#"{"type":"queue-operation","operation":"remove","timestamp":"2026-06-01T10:00:08Z","content":"never sent","sessionId":"s1"}"#.to_string(),
            ]
            .join("\n"),
            None,
            false,
        );
        assert_eq!(
            rows,
            vec![
                "live|s1|system||session title: hi (from first prompt)",
                "live|s1|user||hi",
                "live|s1|system||prompt queued: delivered at line 3",
                "live|s1|system||hidden task notification (origin task-notification): <task-notification>job done</task-notification>",
                "live|s1|system||prompt queued: delivered at line 5",
                "live|s1|system||hidden peer message (origin peer): peer says hi",
                "live|s1|system||queue enqueue: never sent",
                // delivered only by an earlier line: not delivered
                "live|s1|system||queue enqueue: hi",
                "live|s1|system||queue remove: never sent",
            ]
        );
    }

    /// An image a person gave is never lost to the hidden text it rides with: with no
    /// typed text, its `[image …]` text is a `user` row of its own, among the hidden rows
    /// in content order; with typed text it follows the text in the one `user` row.
    #[test]
    fn an_image_beside_hidden_text_is_a_user_row() {
        let rec = |uuid: &str, blocks: &str| {
            format!(
                r#"{{"type":"user","uuid":"{uuid}","sessionId":"s1","timestamp":"2026-01-01T00:00:00Z","message":{{"content":[{blocks}]}}}}"#
            )
        };
        let img = |media: &str| {
            format!(
                r#"{{"type":"image","source":{{"type":"base64","media_type":"{media}","data":"AAAA"}}}}"#
            )
        };
        let text = |t: &str| format!(r#"{{"type":"text","text":"{t}"}}"#);
        let reminder = text("<system-reminder>be brief</system-reminder>");
        let command = text("<command-name>/paste</command-name>");
        let log = [
            rec("u1", &text("look at these")),
            rec("u2", &[reminder.clone(), img("image/png")].join(",")),
            rec("u3", &[img("image/png"), reminder.clone()].join(",")),
            rec(
                "u4",
                &[
                    reminder.clone(),
                    img("image/png"),
                    command,
                    img("image/gif"),
                ]
                .join(","),
            ),
            rec(
                "u5",
                &[reminder, text("and this"), img("image/jpeg")].join(","),
            ),
        ]
        .join("\n");
        let opts = MapOptions::new("s.jsonl", "s", &no_persisted_outputs);
        let mut rows: Vec<chat_rows::Row> = Vec::new();
        transcript_rows(&Transcript::from_bytes(log.as_bytes()), &opts, &mut rows);
        let got: Vec<String> = rows
            .into_iter()
            .map(|r| {
                let line = r.source_line.map_or_else(String::new, |l| l.to_string());
                [
                    line.as_str(),
                    &r.source_locator,
                    r.record_state.as_str(),
                    &r.session_id,
                    r.turn_type.as_str(),
                    &r.text,
                ]
                .join("|")
            })
            .collect();
        assert_eq!(
            got,
            [
                "1|byte 0|live|s1|system|session title: look at these (from first prompt)",
                "1|byte 0|live|s1|user|look at these",
                "2|byte 143|live|s1|system|hidden system reminder (opens with <system-reminder>): <system-reminder>be brief</system-reminder>",
                "2|byte 143|live|s1|user|[image image/png, 3 bytes]",
                "3|byte 399|live|s1|user|[image image/png, 3 bytes]",
                "3|byte 399|live|s1|system|hidden system reminder (opens with <system-reminder>): <system-reminder>be brief</system-reminder>",
                "4|byte 655|live|s1|system|hidden system reminder (opens with <system-reminder>): <system-reminder>be brief</system-reminder>",
                "4|byte 655|live|s1|user|[image image/png, 3 bytes]\n[image image/gif, 3 bytes]",
                "4|byte 655|live|s1|system|hidden local command (opens with <command-name>): <command-name>/paste</command-name>",
                "5|byte 1055|live|s1|user|and this\n[image image/jpeg, 3 bytes]",
                "5|byte 1055|live|s1|system|hidden system reminder (opens with <system-reminder>): <system-reminder>be brief</system-reminder>",
            ]
        );
    }

    #[test]
    fn title_sources_in_claude_codes_order() {
        let summary = r#"{"type":"summary","summary":"Rate limiting the login","leafUuid":"u1"}"#;
        let ai = r#"{"type":"ai-title","aiTitle":"Login limiter","sessionId":"s1"}"#;
        let prompt =
            r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"limit logins"}}"#;
        let title = |lines: &[&str]| map(&lines.join("\n"), None, false).remove(0);
        assert_eq!(
            title(&[prompt, summary]),
            "live|s1|system||session title: Rate limiting the login (from summary)"
        );
        assert_eq!(
            title(&[summary, prompt, ai]),
            "live|s1|system||session title: Login limiter (from ai-title)"
        );
    }

    /// A queued prompt's image and document blocks give their markers in the `user`
    /// row, as a prompt's content does (before, dropped: an image-only queued prompt
    /// gave an empty `user` row).
    #[test]
    fn a_queued_prompts_images_are_named() {
        let rows = map(
            concat!(
                r#"{"type":"attachment","uuid":"q1","sessionId":"s1","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"what is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}}"#,
                "\n",
                r#"{"type":"attachment","uuid":"q2","sessionId":"s1","attachment":{"type":"queued_command","prompt":[{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"AAAA"}}]}}"#,
            ),
            None,
            false,
        );
        assert_eq!(
            rows,
            [
                "live|s1|user||what is this?\n[image image/png, 8 bytes]",
                "live|s1|user||[image image/jpeg, 3 bytes]",
            ]
        );
    }

    #[test]
    fn wire_inputs_origins_and_session_state() {
        let rows = map(
            concat!(
                r#"{"type":"user","uuid":"u1","sessionId":"s1","origin":{"kind":"peer"},"message":{"content":"from a peer"}}"#,
                "\n",
                r#"{"type":"user","uuid":"u2","sessionId":"s1","origin":{"kind":"coordinator"},"message":{"content":"from the coordinator"}}"#,
                "\n",
                r#"{"type":"attachment","uuid":"u3","sessionId":"s1","attachment":{"type":"queued_command","prompt":"keep going","origin":{"kind":"auto-continuation"}}}"#,
                "\n",
                r#"{"type":"assistant","uuid":"a1","sessionId":"s1","wireToolInputs":{"t1":{"command":"cd /x && make","timeout":5000}},"message":{"id":"m","model":"m0","stop_reason":"tool_use","usage":{"input_tokens":0,"output_tokens":7},"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}}"#,
                "\n",
                r#"{"type":"assistant","uuid":"a2","sessionId":"s1","wireToolInputs":{"t2":{"file_path":"a","limit":9}},"message":{"id":"m3","model":"m0","content":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"a"}}]}}"#,
                "\n",
                r#"{"type":"agent-name","agentName":"builder","sessionId":"s1"}"#,
                "\n",
                r#"{"type":"agent-name","agentName":"builder","sessionId":"s1"}"#,
                "\n",
                r#"{"type":"ended-by-model","sessionId":"s1"}"#,
                "\n",
                r#"{"type":"system","subtype":"informational","uuid":"y1","sessionId":"s1","level":"info","retry":3}"#,
                "\n",
            ),
            None,
            false,
        );
        assert_eq!(
            rows,
            vec![
                "live|s1|system||hidden peer message (origin peer): from a peer",
                "live|s1|system||hidden coordinator message (origin coordinator): from the coordinator",
                "live|s1|system||hidden auto-continuation (origin auto-continuation): keep going",
                "live|s1|tool_use|Bash|cd /x && make",
                r#"live|s1|system|Bash|tool input as sent: {"command":"cd /x && make","timeout":5000}"#,
                "live|s1|system|Bash|link: tool call t1 has no result in this file",
                "live|s1|system||usage: model=m0 input=0 output=7 cache_read=- cache_write=- reasoning=- scope=call",
                r#"live|s1|tool_use|Read|{"file_path":"a"}"#,
                r#"live|s1|system|Read|tool input as sent: {"file_path":"a","limit":9}"#,
                "live|s1|system|Read|link: tool call t2 has no result in this file",
                "live|s1|system||session meta: agentName=builder",
                "live|s1|system||session end: ended by model",
                r#"live|s1|system||system message: informational: {"level":"info","retry":3}"#,
            ]
        );
    }

    /// Record types of Claude Code 2.1 the spec does not name, in the shapes other
    /// readers captured: `agent-setting` and `agent-color` (the agent a session runs as,
    /// its colour), `worktree-state` (the worktree the session entered, `null` when it
    /// left) and `marble-origami-commit` (a context collapse: the messages it archived
    /// and their summary), each written again at every flush or turn and given once;
    /// the collapse's snapshot, whose meaning is not known, stays an unknown record.
    #[test]
    fn worktrees_and_context_collapses() {
        let worktree = r#"{"type":"worktree-state","sessionId":"s1","worktreeSession":{"originalCwd":"/home/u/api","preEnterOriginalCwd":"/home/u","worktreePath":"/home/u/api/.claude/worktrees/fix login","worktreeName":"fix-login"}}"#;
        let commit = r#"{"type":"marble-origami-commit","sessionId":"s1","collapseId":"0000000000000001","summaryUuid":"sum1","summaryContent":"<collapsed id=\"1\">read the limiter</collapsed>","summary":"read the limiter","firstArchivedUuid":"u1","lastArchivedUuid":"a1"}"#;
        let snapshot = r#"{"type":"marble-origami-snapshot","sessionId":"s1","armed":true}"#;
        let rows = map(
            &[
                r#"{"type":"agent-setting","agentSetting":"code-reviewer","sessionId":"s1"}"#,
                r#"{"type":"agent-color","agentColor":"purple","sessionId":"s1"}"#,
                r#"{"type":"agent-color","agentColor":"purple","sessionId":"s1"}"#,
                worktree,
                worktree,
                r#"{"type":"worktree-state","sessionId":"s1","worktreeSession":null}"#,
                commit,
                snapshot,
                commit,
                r#"{"type":"marble-origami-commit","sessionId":"s1","collapseId":"2","summaryContent":"<collapsed id=\"2\">x</collapsed>"}"#,
            ]
            .join("\n"),
            None,
            false,
        );
        assert_eq!(
            rows,
            vec![
                "live|s1|system||session meta: agentSetting=code-reviewer",
                "live|s1|system||session meta: agentColor=purple",
                r#"live|s1|system||session meta: worktree="/home/u/api/.claude/worktrees/fix login" name=fix-login original_cwd=/home/u/api"#,
                "live|s1|system||session meta: worktree=none",
                "live|s1|system||compaction: context collapse collapse_id=0000000000000001 first_archived=u1 last_archived=a1 summary_uuid=sum1",
                "live|s1|system||compaction summary: read the limiter",
                "live|s1|system||compaction: context collapse collapse_id=2",
                r#"live|s1|system||compaction summary: <collapsed id="2">x</collapsed>"#,
            ]
        );
    }

    /// Claude Code 2.1's state records in the shapes other readers captured: commit
    /// attribution, task summaries, speculation, history suppression, a fork's context
    /// reference, an observer and the isolation latch (a `marble-origami-snapshot` is
    /// scheduler state and gives no row, above).
    #[test]
    fn claude_code_2_1_state_records() {
        let snap = |n: u32, chars: u32| {
            format!(
                r#"{{"type":"attribution-snapshot","messageId":"a{n}","surface":"cli","fileStates":{{"/home/u/api/src/auth.ts":{{"contentHash":"h{chars}","claudeContribution":{chars},"mtime":1775144056}},"/home/u/api/README.md":{{"contentHash":"r1","claudeContribution":0,"mtime":1775144000}}}},"promptCount":{n},"promptCountAtLastCommit":0,"permissionPromptCount":1,"permissionPromptCountAtLastCommit":0,"escapeCount":0,"escapeCountAtLastCommit":0}}"#
            )
        };
        let input = [
            r#"{"type":"fork-context-ref","agentId":"a4396","parentSessionId":"p0","parentLastUuid":"u9","contextLength":17}"#.to_string(),
            r#"{"type":"history-suppression","sessionId":"s1","cause":"restored_owner_mismatch","vetoedAgainstAccountUuid":"acct-9","ts":"2026-08-09T08:09:59.852Z"}"#.to_string(),
            r#"{"type":"history-suppression","sessionId":"s1","cause":"fork_inherit","ts":1}"#.to_string(),
            snap(1, 120),
            snap(1, 120),
            snap(2, 1842),
            r#"{"type":"attribution-snapshot","messageId":"a3","fileStates":{"/tmp/x":7}}"#.to_string(),
            r#"{"type":"task-summary","sessionId":"s1","summary":"running the auth tests","timestamp":"2026-04-11T09:00:00Z"}"#.to_string(),
            r#"{"type":"speculation-accept","timestamp":"2026-04-02T15:34:16.250Z","timeSavedMs":432.5}"#.to_string(),
            r#"{"type":"observer-ref","observerTaskId":"t-1","observerAgentType":"reviewer","timestamp":"2026-08-09T08:09:59.853Z"}"#.to_string(),
            r#"{"type":"isolation-latch","side":"worktree","sessionId":"s1"}"#.to_string(),
            r#"{"type":"isolation-latch","side":"worktree","sessionId":"s1"}"#.to_string(),
            r#"{"type":"marble-origami-snapshot","sessionId":"s1","staged":[],"armed":false,"lastSpawnTokens":0}"#.to_string(),
        ]
        .join("\n");
        assert_eq!(
            map(&input, None, false),
            vec![
                "live|s1|system||session origin: fork parent_session=p0 parent_last=u9 context_length=17 agent=a4396",
                "live|s1|system||session meta: history suppressed cause=restored_owner_mismatch vetoed_account=acct-9",
                "live|s1|system||session meta: history suppressed cause=fork_inherit",
                "live|s1|system||file attribution: file=/home/u/api/README.md claude_chars=0 content_hash=r1",
                "live|s1|system||file attribution: file=/home/u/api/src/auth.ts claude_chars=120 content_hash=h120",
                "live|s1|system||attribution counts: prompts=1 prompts_at_last_commit=0 permission_prompts=1 permission_prompts_at_last_commit=0 escapes=0 escapes_at_last_commit=0 surface=cli",
                "live|s1|system||file attribution: file=/home/u/api/src/auth.ts claude_chars=1842 content_hash=h1842",
                "live|s1|system||attribution counts: prompts=2 prompts_at_last_commit=0 permission_prompts=1 permission_prompts_at_last_commit=0 escapes=0 escapes_at_last_commit=0 surface=cli",
                "live|s1|system||file attribution: file=/tmp/x 7",
                "live|s1|system||task summary: running the auth tests",
                "live|s1|system||speculation accepted: time_saved_ms=432.5",
                "live|s1|system||session meta: observer task=t-1 agent_type=reviewer",
                "live|s1|system||session meta: isolationLatch=worktree",
            ]
        );
        // times: a record's `timestamp`, a suppression's `ts` (an ISO text; `1` is no
        // time), none for the state records
        let rows = rows_of(&input);
        let times: Vec<String> = rows
            .iter()
            .map(|r| r.timestamp.map(|t| t.to_string()).unwrap_or_default())
            .collect();
        assert_eq!(
            times,
            [
                "",
                "2026-08-09T08:09:59.852000Z",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "2026-04-11T09:00:00.000000Z",
                "2026-04-02T15:34:16.250000Z",
                "2026-08-09T08:09:59.853000Z",
                "",
            ]
        );
    }

    /// Claude Code 2.1's artifact records, a context collapse undone and a branch
    /// `--teleport` skipped, in the shapes other readers captured (not in the spec):
    /// each artifact and state once, the ledger's account and count once per text.
    #[test]
    fn artifacts_collapse_resets_and_skipped_branches() {
        let monitor = |state: &str| {
            format!(
                r#"{{"type":"artifact-comment-monitor","v":1,"sessionId":"s1","artifacts":{{"aaaa-1":{{"state":"{state}","writtenAtMs":1787376269019,"title":"Q3 Payroll Review"}}}}}}"#
            )
        };
        let input = [
            monitor("armed"),
            monitor("armed"),
            monitor("disarmed"),
            r#"{"type":"artifact-comment-monitor","v":1,"sessionId":"s1","artifacts":{"b-2":{"state":"armed","url":"https://claude.ai/a/b-2"},"c-3":7}}"#.to_string(),
            r#"{"type":"artifact-autoreact-ledger","v":1,"sessionId":"s1","accountUuid":"7594939e-0000-4000-8000-000000000000","artifacts":{}}"#.to_string(),
            r#"{"type":"artifact-autoreact-ledger","v":1,"sessionId":"s1","accountUuid":"7594939e-0000-4000-8000-000000000000","artifacts":{}}"#.to_string(),
            r#"{"type":"marble-origami-reset","sessionId":"s1","reason":"user cleared"}"#.to_string(),
            r#"{"type":"marble-origami-reset","sessionId":"s1"}"#.to_string(),
            r#"{"type":"teleport-skipped-branch","branch":"feat/x","failed":true,"timestamp":"2026-08-09T08:10:00.000Z"}"#.to_string(),
        ]
        .join("\n");
        assert_eq!(
            map(&input, None, false),
            vec![
                "live|s1|system||session meta: artifact aaaa-1 monitor state=armed title=\"Q3 Payroll Review\" written=2026-08-22T05:24:29.019000Z",
                "live|s1|system||session meta: artifact aaaa-1 monitor state=disarmed title=\"Q3 Payroll Review\" written=2026-08-22T05:24:29.019000Z",
                "live|s1|system||session meta: artifact b-2 monitor state=armed other=\"{\\\"url\\\":\\\"https://claude.ai/a/b-2\\\"}\"",
                "live|s1|system||session meta: artifact c-3 monitor 7",
                "live|s1|system||session meta: artifact autoreact ledger account=7594939e-0000-4000-8000-000000000000 artifacts=0",
                "live|s1|system||compaction: context collapse reset reason=\"user cleared\"",
                "live|s1|system||compaction: context collapse reset",
                "live|s1|system||session meta: teleport skipped branch branch=feat/x failed=true",
            ]
        );
    }

    /// `cost-state`, in the shape real Claude Code 2.1 records show: a session `usage:`
    /// row per model (the model column the usage model) and a `session totals:` row,
    /// each once per text, so a flush that only moved the durations gives one row.
    #[test]
    fn cost_state_gives_session_usage_and_totals() {
        let state = |duration: u32, haiku_out: u32| {
            format!(
                r#"{{"type":"cost-state","sessionId":"s1","totalCostUSD":0.0425,"totalAPIDuration":8100,"totalAPIDurationWithoutRetries":8000,"totalToolDuration":20000,"totalLinesAdded":12,"totalLinesRemoved":3,"totalDuration":{duration},"startTime":1789398960924,"modelUsage":{{"claude-haiku-4-5-20251001":{{"inputTokens":400,"outputTokens":{haiku_out},"thinkingTokens":120,"cacheReadInputTokens":100000,"cacheCreationInputTokens":9000,"webSearchRequests":0,"costUSD":0.03}},"claude-opus-4-1-20250805":{{"inputTokens":12,"outputTokens":0,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.0125}}}},"hasUnknownModelCost":false}}"#
            )
        };
        let input = [
            state(50000, 500),
            state(51000, 500),
            state(51000, 640),
            r#"{"type":"cost-state","sessionId":"s1","modelUsage":{"m9":7}}"#.to_string(),
            r#"{"type":"cost-state","sessionId":"s1"}"#.to_string(),
        ]
        .join("\n");
        let rows = rows_of(&input);
        let got: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}",
                    r.source_line.unwrap_or(0),
                    r.timestamp.is_some(),
                    r.model,
                    r.text
                )
            })
            .collect();
        let totals = |d: u32| {
            format!(
                "session totals: cost_usd=0.0425 duration_ms={d} api_duration_ms=8100 tool_duration_ms=20000 lines_added=12 lines_removed=3 started=2026-09-14T15:16:00.924000Z unknown_model_cost=false"
            )
        };
        assert_eq!(
            got,
            vec![
                "1|false|claude-haiku-4-5-20251001|usage: model=claude-haiku-4-5-20251001 input=400 output=500 cache_read=100000 cache_write=9000 reasoning=120 scope=session".to_string(),
                "1|false|claude-opus-4-1-20250805|usage: model=claude-opus-4-1-20250805 input=12 output=0 cache_read=0 cache_write=0 reasoning=- scope=session".to_string(),
                format!("1|false||{}", totals(50000)),
                format!("2|false||{}", totals(51000)),
                "3|false|claude-haiku-4-5-20251001|usage: model=claude-haiku-4-5-20251001 input=400 output=640 cache_read=100000 cache_write=9000 reasoning=120 scope=session".to_string(),
                "4|false|m9|session totals: model=m9 usage=7".to_string(),
            ]
        );
    }

    #[test]
    fn a_prompt_queued_again_and_again_finds_each_delivery() {
        // "go on" queued then delivered three times: each enqueue names the next
        // delivery after it (found by bisection of the delivery lines)
        let mut lines = vec![
            r#"{"type":"user","uuid":"u0","sessionId":"s1","message":{"content":"start"}}"#
                .to_string(),
        ];
        for i in 0..3 {
            lines.push(format!(r#"{{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:0{i}Z","content":"go on","sessionId":"s1"}}"#));
            lines.push(format!(r#"{{"type":"user","uuid":"u{}","sessionId":"s1","message":{{"content":"go on"}}}}"#, i + 1));
        }
        lines.push(r#"{"type":"queue-operation","operation":"enqueue","timestamp":"2026-06-01T10:00:09Z","content":"go on","sessionId":"s1"}"#.to_string());
        let rows = map(&lines.join("\n"), None, false);
        let queued: Vec<&str> = rows
            .iter()
            .filter(|r| r.contains("queue"))
            .map(String::as_str)
            .collect();
        assert_eq!(
            queued,
            [
                "live|s1|system||prompt queued: delivered at line 3",
                "live|s1|system||prompt queued: delivered at line 5",
                "live|s1|system||prompt queued: delivered at line 7",
                "live|s1|system||queue enqueue: go on",
            ]
        );
    }

    #[test]
    fn a_call_id_repeated_in_a_record_compares_its_wire_input_once() {
        let rows = map(
            r#"{"type":"assistant","uuid":"a1","sessionId":"s1","wireToolInputs":{"t1":{"command":"make all"}},"message":{"id":"m","model":"m0","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make","x":1}},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make","x":2}}]}}"#,
            None,
            false,
        );
        let tool_rows: Vec<&str> = rows
            .iter()
            .filter(|r| r.contains("|Bash|") && !r.contains("link:"))
            .map(String::as_str)
            .collect();
        assert_eq!(
            tool_rows,
            [
                "live|s1|tool_use|Bash|make all",
                r#"live|s1|system|Bash|tool input as sent: {"command":"make all"}"#,
                "live|s1|tool_use|Bash|make",
            ]
        );
    }
}

#[cfg(test)]
mod document_tests {
    use super::tests::rows_of;
    use super::*;

    fn rows(input: &str) -> Vec<String> {
        let rows = rows_of(input);
        rows.into_iter()
            .map(|r| {
                let line = r.source_line.map_or_else(String::new, |l| l.to_string());
                [
                    line.as_str(),
                    r.record_state.as_str(),
                    r.turn_type.as_str(),
                    &r.tool_name,
                    &r.text,
                ]
                .join("|")
            })
            .collect()
    }

    /// A document a person gave, and tool result parts that are neither text nor image,
    /// each give a marker (base64 data never printed; a plain-text document its text); a
    /// record whose only content is a document still gives its `user` row.
    #[test]
    fn documents_and_other_result_parts_give_markers() {
        let input = [
            r#"{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-06-01T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"read this pdf"},{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjQK"},"title":"contract.pdf"}]}}"#,
            r#"{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s","message":{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"SECRET PLAN"}}]}}"#,
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u2","sessionId":"s","message":{"id":"m1","model":"c","stop_reason":"tool_use","content":[{"type":"tool_use","id":"toolu_9","name":"Read","input":{"file_path":"/a.pdf"}}]}}"#,
            r#"{"type":"user","uuid":"u3","parentUuid":"a1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":[{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjQK"}},{"type":"tool_reference","tool_name":"mcp__x__y"},{"type":"search_result_x"},{"type":"text","text":"done"}]}]}}"#,
            r#"{"type":"user","uuid":"u4","parentUuid":"u3","sessionId":"s","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>r</system-reminder>"},{"type":"document","title":"notes","source":{"type":"content","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}},{"type":"document","source":{"type":"url","url":"https://x.test/a.pdf"}}]}}"#,
        ]
        .join("\n");
        assert_eq!(
            rows(&input),
            [
                "1|live|system||session title: read this pdf (from first prompt)",
                r#"1|live|user||read this pdf
[document application/pdf "contract.pdf", 9 bytes]"#,
                "2|live|user||[document text/plain] SECRET PLAN",
                "3|live|system||model: c",
                r#"3|live|tool_use|Read|{"file_path":"/a.pdf"}"#,
                "4|live|tool_result|Read|[document application/pdf, 9 bytes]\n[tool_reference mcp__x__y]\n[search_result_x]\ndone",
                "5|live|system||hidden system reminder (opens with <system-reminder>): <system-reminder>r</system-reminder>",
                "5|live|user||[document unknown type \"notes\"] a\nb\n[document unknown type, https://x.test/a.pdf]",
            ]
        );
    }

    /// A user block of a type the mapper does not know is not dropped: its text, else
    /// `[<type>]` (its data never printed), among the prompt's markers; a bare string
    /// among the blocks is text; a tool result stays the tool path's.
    #[test]
    fn user_blocks_of_other_types_give_markers() {
        let input = [
            r#"{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-06-01T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"container_upload","file_id":"file_1","data":"QUJD"},{"type":"search_result","text":"found it"},{"no":"type"},"and this",7]}}"#,
            r#"{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-06-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"container_upload","file_id":"file_2"}]}}"#,
        ]
        .join("\n");
        assert_eq!(
            rows(&input),
            [
                "1|live|system||session title: look (from first prompt)",
                "1|live|user||look\nand this\n[container_upload]\nfound it\n[part without a type]\n7",
                "2|live|user||[container_upload]",
            ]
        );
    }

    /// A snapshot's `update=<bool>` is printed when false too (an unset
    /// `isSnapshotUpdate` is false).
    #[test]
    fn a_file_history_snapshot_prints_update_false() {
        let input = [
            r#"{"type":"file-history-snapshot","messageId":"u1","isSnapshotUpdate":false,"snapshot":{"messageId":"u1","trackedFileBackups":{"src/a.js":{"backupFileName":"abc@v1","version":1,"backupTime":"2026-06-01T10:00:00.000Z"}}}}"#,
            r#"{"type":"file-history-snapshot","messageId":"u2","snapshot":{"messageId":"u2","trackedFileBackups":{}}}"#,
            r#"{"type":"file-history-snapshot","messageId":"u3","isSnapshotUpdate":true,"snapshot":{"messageId":"u3","trackedFileBackups":{"src/a.js":{"backupFileName":"abc@v2","version":2}}}}"#,
        ]
        .join("\n");
        assert_eq!(
            rows(&input),
            [
                "1|live|system||file history: file=src/a.js backup=abc@v1 version=1 backup_time=2026-06-01T10:00:00.000Z message=u1 update=false",
                "2|live|system||file history: no tracked files message=u2 update=false",
                "3|live|system||file history: file=src/a.js backup=abc@v2 version=2 message=u3 update=true",
            ]
        );
    }

    /// An untimed `permission-mode` record gives a row on a change, and a first mode is
    /// one: before any known mode too, at its line with no time; repeating the mode in
    /// force gives none.
    #[test]
    fn an_untimed_first_permission_mode_is_a_change() {
        let input = [
            r#"{"type":"user","uuid":"u1","timestamp":"2026-06-01T10:00:00.000Z","sessionId":"s","message":{"content":"x"}}"#,
            r#"{"type":"permission-mode","permissionMode":"acceptEdits","sessionId":"s"}"#,
            r#"{"type":"permission-mode","permissionMode":"acceptEdits","sessionId":"s"}"#,
            r#"{"type":"user","uuid":"u2","parentUuid":"u1","timestamp":"2026-06-01T10:00:05.000Z","sessionId":"s","permissionMode":"plan","message":{"content":"y"}}"#,
            r#"{"type":"permission-mode","permissionMode":"plan","sessionId":"s"}"#,
        ]
        .join("\n");
        let opts = MapOptions::new("s.jsonl", "s", &no_persisted_outputs);
        let mut got: Vec<chat_rows::Row> = Vec::new();
        transcript_rows(&Transcript::from_bytes(input.as_bytes()), &opts, &mut got);
        let got: Vec<String> = got
            .iter()
            .map(|r| {
                let time = r.timestamp.map_or_else(String::new, |t| t.to_string());
                format!("{}|{time}|{}", r.source_line.unwrap_or(0), r.text)
            })
            .collect();
        assert_eq!(
            got,
            [
                "1|2026-06-01T10:00:00.000000Z|session title: x (from first prompt)",
                "1|2026-06-01T10:00:00.000000Z|x",
                "2||permission mode: acceptEdits",
                "4|2026-06-01T10:00:05.000000Z|permission mode: acceptEdits -> plan",
                "4|2026-06-01T10:00:05.000000Z|y",
            ]
        );
    }
}
