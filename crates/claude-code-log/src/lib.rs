//! Forensic reader of Claude Code's local store (`~/.claude`, `~/.claude.json`).
//!
//! Claude Code, Anthropic's terminal agent, runs with the user's shell and file
//! permissions, which is exactly what an incident responder must reconstruct. It
//! writes one append-only JSONL transcript per session, every prompt, reply, tool
//! call and result, with the permission trail inside: the mode each prompt ran in,
//! mode changes, and every tool call the user refused, with the kind of refusal and
//! the user's feedback. Sub-agents get their own files, large outputs move to
//! `tool-results/`, a global `history.jsonl` keeps every prompt, and settings files and
//! `~/.claude.json` hold standing grants and folder trust. Transcripts are hard-deleted
//! by file mtime after `cleanupPeriodDays` (30 by default); `history.jsonl` usually
//! outlives them, and is then the only record of the prompts.
//!
//! The file layer (the `projects/<key>/` tree, sub-agent linking, persisted outputs,
//! titles, file-history snapshots, hidden-record labels) is the one CodeBuddy shares,
//! and lives in [`session_tree`]; this crate is Claude Code's record protocol and the
//! files around the tree. Its layers, as in every store crate here:
//!
//! * [`mod@locate`]: which paths are Claude Code files ([`ClaudeFile`]);
//! * [`decode`]: the transcript record ([`Record`], [`Transcript`]);
//! * [`rows`]: records, history, settings and global state to [`chat_rows::Row`]s.
//!
//! [`ClaudeCodeStore`] plugs it into the scanner; [`read_file`] does the same work for
//! a caller with a path, handing rows to a sink as they are made.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chat_rows::system;
use chat_rows::{
    Claim, Evidence, FileContext, RecordState, Row, RowSink, Store, Timestamp, TurnType, Walked,
};
use serde_json::{Map, Value};
use session_tree::log::scalar;
use session_tree::tree::{SessionFiles, flatten, subagent_start_from_path};
use session_tree::{FileKind, PersistedPointer};

pub use decode::{Entry, Error, Record, Transcript};
pub use locate::{ClaudeFile, SettingsScope, locate, mangle};
pub use rows::{AGENT, Index, MapOptions, transcript_rows, transcript_rows_with};

/// The scanner's entry point for Claude Code homes.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClaudeCodeStore;

impl Store for ClaudeCodeStore {
    fn name(&self) -> &'static str {
        "claude-code-log"
    }

    fn agent(&self, _ctx: &FileContext) -> String {
        AGENT.into()
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        locate(path).map(|f| claim_of(&f))
    }

    fn claim_in(&self, path: &Path, walked: &Walked<'_>) -> Option<Claim> {
        self.claim(path).or_else(|| {
            let file = locate::locate_in_other_home(path)?;
            let home = locate::home_of(path, &file)?;
            // once per folder: thousands of its files ask the same
            let key = format!("claude-code: home of any name {}", home.display());
            walked
                .remember(&key, || locate::holds_home(&home, walked))
                .then(|| claim_of(&file))
        })
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
    ) {
        let display = ctx.source_file(path, evidence);
        read_file_at(path, &display, evidence, ctx.collected_at, sink);
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads one Claude Code file into rows handed to `sink`, with `display` as its
/// `source_file`. A path [`locate()`] does not recognise is read as a transcript named
/// by its file stem. Never fails as a whole: damage becomes `parser:` rows.
///
/// The collection time is not known here, so a transcript gives no `retention:` row;
/// [`read_file_at`] takes it.
pub fn read_file(path: &Path, display: &str, evidence: &Evidence, sink: &mut dyn RowSink) {
    read_file_at(path, display, evidence, None, sink);
}

/// [`read_file`] with the time the evidence was collected (UTC): a session transcript
/// whose mtime is older than the home's `cleanupPeriodDays` at that time also gives a
/// `retention:` row (see [`rows::retention`]). `None` gives no such row.
pub fn read_file_at(
    path: &Path,
    display: &str,
    evidence: &Evidence,
    collected_at: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let file = locate::locate_in_any_home(path);
    let whole =
        |sink: &mut dyn RowSink, f: &dyn Fn(&[u8], &mut dyn RowSink)| match evidence.read(path) {
            Ok(bytes) => f(&bytes, sink),
            Err(e) => sink.push(cannot_read(display, &e)),
        };
    match file {
        Some(ClaudeFile::History) => {
            let home = path.parent().unwrap_or(Path::new(""));
            let mut transcripts: Option<HashMap<String, PathBuf>> = None;
            let mut cache: HashMap<String, rows::history::Prompts> = HashMap::new();
            let mut prompts = |session: &str| {
                let transcripts = transcripts.get_or_insert_with(|| transcripts_of(home, evidence));
                cache
                    .entry(session.to_string())
                    .or_insert_with(|| session_prompts(transcripts.get(session), evidence))
                    .clone()
            };
            // read a chunk at a time: a history of hundreds of MB is never held whole
            match evidence.read_lines(path) {
                Ok(mut lines) => {
                    if let Err(e) =
                        rows::history::history_rows(&mut lines, display, &mut prompts, sink)
                    {
                        let at = format!("byte {}", lines.bytes_read());
                        sink.push(cannot_read(display, &e).locator(at));
                    }
                }
                Err(e) => sink.push(cannot_read(display, &e)),
            }
        }
        Some(ClaudeFile::SessionRegister) => whole(sink, &|b, s| {
            rows::settings::register_rows(b, &file_name(path), display, s)
        }),
        Some(ClaudeFile::Settings(scope)) => {
            let mtime = evidence.modified(path);
            whole(sink, &|b, s| {
                rows::settings::settings_rows(b, scope, &file_name(path), display, mtime, s)
            })
        }
        Some(ClaudeFile::GlobalState) => {
            let mtime = evidence.modified(path);
            whole(sink, &|b, s| {
                rows::settings::global_state_rows(b, display, mtime, s)
            })
        }
        Some(ClaudeFile::GlobalStateCopy) => {
            let mtime = evidence.modified(path);
            match evidence.read(path) {
                Ok(b) => rows::settings::global_state_copy_rows(
                    &b,
                    &file_name(path),
                    display,
                    mtime,
                    sink,
                ),
                Err(e) => sink.push(cannot_read(display, &e).secondary(true)),
            }
        }
        Some(ClaudeFile::McpServers(scope)) => {
            let mtime = evidence.modified(path);
            whole(sink, &|b, s| {
                rows::settings::mcp_rows(b, scope, &file_name(path), display, mtime, s)
            })
        }
        Some(ClaudeFile::FileHistoryBackup) => match evidence.check(path) {
            Ok(checked) => {
                let session = path.parent().map(file_name).unwrap_or_default();
                sink.push(
                    Row::system(
                        AGENT,
                        format!(
                            "file history backup: {}, {} bytes (contents not read, file mtime)",
                            file_name(path),
                            checked.size
                        ),
                    )
                    .at(checked.modified.and_then(Timestamp::from_system_time))
                    .session(session)
                    .file(display)
                    .locator("path"),
                )
            }
            Err(e) => sink.push(cannot_read(display, &e)),
        },
        Some(ClaudeFile::MemoryNote) => {
            let mtime = evidence.modified(path);
            whole(sink, &|b, s| {
                rows::settings::memory_note_rows(b, &memory_note_name(path), display, mtime, s)
            })
        }
        Some(ClaudeFile::SessionsIndex) => whole(sink, &|b, s| {
            rows::settings::sessions_index_rows(b, &file_name(path), display, s)
        }),
        Some(ClaudeFile::SessionSidecar) => {
            // `<sessionId>/<remote-agents|mcp-tasks>/<name>`
            let folder = path.parent().map(file_name).unwrap_or_default();
            let session = path
                .parent()
                .and_then(Path::parent)
                .map(file_name)
                .unwrap_or_default();
            let what = format!("{folder}/{}", file_name(path));
            whole(sink, &|b, s| {
                rows::settings::sidecar_rows(b, &what, &session, display, s)
            })
        }
        Some(ClaudeFile::DesktopRegister) => whole(sink, &|b, s| {
            rows::settings::desktop_register_rows(b, &file_name(path), display, s)
        }),
        Some(ClaudeFile::JobTranscript) => {
            let files = SessionFiles::new(path, None, display, evidence, AGENT);
            read_transcript(&files, true, None, sink);
        }
        Some(ClaudeFile::Tree(loc)) => {
            let files = SessionFiles::new(path, Some(loc), display, evidence, AGENT);
            match files.kind() {
                FileKind::Session | FileKind::Subagent => {
                    read_transcript(&files, false, collected_at, sink)
                }
                FileKind::ToolResult => files
                    .orphan_tool_result()
                    .into_iter()
                    .for_each(|r| sink.push(r)),
                FileKind::SessionMeta => files
                    .orphan_meta(&|m| format!("session meta: {}", flatten(m)))
                    .into_iter()
                    .for_each(|r| sink.push(r)),
                FileKind::SubagentMeta => {
                    // the session its sub-agent file's rows have: `<parent>:agent-<id>`,
                    // the parent named by the folder above `subagents/`
                    let (parent, agent) = (&files.loc.session_id, files.loc.stem());
                    files
                        .orphan_meta_of(&format!("{parent}:{agent}"), &|m| {
                            subagent_start(m, parent, agent)
                        })
                        .into_iter()
                        .for_each(|r| sink.push(r))
                }
            }
        }
        None => {
            let files = SessionFiles::new(path, None, display, evidence, AGENT);
            read_transcript(&files, false, None, sink);
        }
    }
}

/// `<key>/memory/<name>.md` of a memory note's path: the project key and the note.
fn memory_note_name(path: &Path) -> String {
    let key = path
        .parent()
        .and_then(Path::parent)
        .map(file_name)
        .unwrap_or_default();
    format!("{key}/memory/{}", file_name(path))
}

/// The claim of a recognised file.
fn claim_of(file: &ClaudeFile) -> Claim {
    match file {
        ClaudeFile::Tree(l) => Claim::new(match l.kind {
            FileKind::Session if is_flat_subagent(l) => "claude-code sub-agent transcript",
            FileKind::Session => "claude-code transcript",
            FileKind::SessionMeta => "claude-code session meta",
            FileKind::Subagent => "claude-code sub-agent transcript",
            FileKind::SubagentMeta => "claude-code sub-agent meta",
            FileKind::ToolResult => "claude-code persisted tool output",
        }),
        ClaudeFile::History => Claim::new("claude-code prompt history").with_copies(),
        ClaudeFile::JobTranscript => Claim::new("claude-code job transcript copy").with_copies(),
        ClaudeFile::SessionRegister => Claim::new("claude-code session register"),
        ClaudeFile::Settings(_) => Claim::new("claude-code settings"),
        ClaudeFile::GlobalState => Claim::new("claude-code global state").with_copies(),
        ClaudeFile::GlobalStateCopy => Claim::new("claude-code global state copy").with_copies(),
        ClaudeFile::McpServers(_) => Claim::new("claude-code mcp servers"),
        // read even when empty: its presence is the evidence
        ClaudeFile::FileHistoryBackup => Claim::new("claude-code file history backup").marker(),
        ClaudeFile::MemoryNote => Claim::new("claude-code memory note"),
        ClaudeFile::SessionsIndex => Claim::new("claude-code sessions index").with_copies(),
        ClaudeFile::SessionSidecar => Claim::new("claude-code session sidecar"),
        ClaudeFile::DesktopRegister => Claim::new("claude desktop session register"),
    }
}

/// The `parser:` row of a file that cannot be read.
fn cannot_read(display: &str, e: &std::io::Error) -> Row {
    Row::system(
        AGENT,
        system::parser(format!("{display}: cannot read ({e})")),
    )
    .file(display)
}

/// The session transcripts of a home by session id: `<home>/projects/<key>/<id>.jsonl`,
/// listed once (the key is not recomputed from a history row's `project`: long keys end
/// in a hash), so proving any number of history rows lists the folders once.
fn transcripts_of(home: &Path, evidence: &Evidence) -> HashMap<String, PathBuf> {
    let mut out = HashMap::new();
    for folder in evidence
        .read_dir(&home.join("projects"))
        .unwrap_or_default()
    {
        for file in evidence.read_dir(&folder).unwrap_or_default() {
            if file.extension().is_some_and(|e| e == "jsonl")
                && let Some(stem) = file.file_stem().and_then(|s| s.to_str())
            {
                out.entry(stem.to_string()).or_insert(file);
            }
        }
    }
    out
}

/// The `user` rows of a session transcript, sorted by time
/// ([`rows::history::Prompts`]); empty without a transcript or when it cannot be read
/// (its own read names the damage).
fn session_prompts(path: Option<&PathBuf>, evidence: &Evidence) -> rows::history::Prompts {
    let Some(path) = path else {
        return rows::history::Prompts::default();
    };
    let display = chat_rows::display_path(path);
    let mut rows: Vec<Row> = Vec::new();
    read_file_at(path, &display, evidence, None, &mut rows);
    let mut prompts: Vec<(i64, String)> = rows
        .into_iter()
        .filter(|r| r.turn_type == TurnType::User && r.record_state == RecordState::Live)
        .filter_map(|r| Some((r.timestamp?.unix_micros(), r.text)))
        .collect();
    prompts.sort_by_key(|(t, _)| *t);
    rows::history::Prompts::new(prompts)
}

/// `session start: parent=<id> agent=<agentType> description="<d>" tool_use=<toolUseId>
/// model=<m> depth=<spawnDepth> fork=<isFork> worktree=<worktreePath> agent_file=agent-<id>`.
fn subagent_start(meta: &Map<String, Value>, parent: &str, agent_file: &str) -> String {
    let s = |k: &str| meta.get(k).map(scalar).unwrap_or_default();
    system::session_start(&[
        ("parent", parent),
        ("agent", &s("agentType")),
        ("description", &s("description")),
        ("tool_use", &s("toolUseId")),
        ("model", &s("model")),
        ("depth", &s("spawnDepth")),
        ("fork", &s("isFork")),
        ("worktree", &s("worktreePath")),
        ("agent_file", agent_file),
    ])
}

/// The folders of a host's managed Claude Code settings (Linux, macOS, Windows; the
/// older Windows folder too), under the host root above a home.
const MANAGED_DIRS: &[&str] = &[
    "etc/claude-code",
    "Library/Application Support/ClaudeCode",
    "ProgramData/ClaudeCode",
    "Program Files/ClaudeCode",
];

/// The bytes of the managed settings files of the host whose user has the Claude home
/// `home` (`<host>/home/<user>/.claude`, `<host>/Users/<user>/.claude` or
/// `<host>/root/.claude`), in precedence order: each folder's `managed-settings.json`,
/// then its `managed-settings.d/*.json` by name. A file outside the evidence roots or
/// missing is not there; `None` when one is there but cannot be read (the period is
/// then undetermined).
fn managed_settings(home: &Path, evidence: &Evidence) -> Option<Vec<Vec<u8>>> {
    let user_home = home.parent()?;
    let above = user_home.parent()?;
    let host = match above.file_name().and_then(|n| n.to_str()) {
        Some("home" | "Users") => above.parent()?,
        _ if user_home.file_name().is_some_and(|n| n == "root") => above,
        _ => return Some(Vec::new()),
    };
    let mut out = Vec::new();
    let mut read = |path: &Path| -> Option<()> {
        match evidence.read_optional(path) {
            Ok(Some(bytes)) => out.push(bytes),
            Ok(None) => {}
            Err(e)
                if chat_rows::evidence::refusal(&e).is_some_and(|r| {
                    matches!(r, chat_rows::evidence::Refusal::OutsideRoot { .. })
                }) => {}
            Err(_) => return None,
        }
        Some(())
    };
    for dir in MANAGED_DIRS {
        let dir = host.join(dir);
        read(&dir.join("managed-settings.json"))?;
        if let Ok(entries) = evidence.read_dir(&dir.join("managed-settings.d")) {
            for p in entries {
                if p.extension().is_some_and(|e| e == "json") {
                    read(&p)?;
                }
            }
        }
    }
    Some(out)
}

/// The effective `cleanupPeriodDays` of a home ([`rows::retention`]): the host's
/// managed settings when they set it, else the home's `settings.json`, else 30; `None`
/// when it cannot be determined.
fn period_of_home(home: &Path, evidence: &Evidence) -> Option<u64> {
    let managed = managed_settings(home, evidence)?;
    match rows::retention::managed_period_days(managed.iter().map(Vec::as_slice)) {
        Some(decided) => decided,
        None => {
            let settings = evidence.read_optional(&home.join("settings.json")).ok()?;
            rows::retention::period_days(settings.as_deref())
        }
    }
}

/// The `retention:` row of a session transcript under `<home>/projects/<key>/`, when
/// the collection time is known and the file's mtime is past the home's period.
fn retention(
    files: &SessionFiles<'_>,
    collected_at: Option<Timestamp>,
    session_id: &str,
    project: &str,
) -> Option<Row> {
    let collected_at = collected_at?;
    if files.loc.kind != FileKind::Session
        || files.loc.home.is_empty()
        || is_flat_subagent(&files.loc)
    {
        return None;
    }
    let projects = files.path.parent()?.parent()?;
    if projects.file_name()? != "projects" {
        return None;
    }
    let mtime = files.evidence.modified(files.path)?;
    let home = projects.parent()?;
    // once per home and scan, not once per transcript (a home of 1,000 transcripts and
    // a 10 MB settings.json took 8 s; 1,000 managed drop-ins, 42 s)
    let key = format!("claude-code: retention period of {}", home.display());
    let days = files
        .evidence
        .remember(&key, || period_of_home(home, files.evidence))?;
    rows::retention::is_past(mtime, collected_at, days).then(|| {
        rows::retention::retention_row(files.display, days, mtime, session_id).project(project)
    })
}

/// True for a sub-agent file of the older layout, `projects/<key>/agent-<id>.jsonl`
/// beside the sessions (Claude Code's session files are named by a uuid, never
/// `agent-`): its records carry `agentId` and `isSidechain` and name the parent's
/// `sessionId`.
fn is_flat_subagent(loc: &session_tree::Location) -> bool {
    loc.kind == FileKind::Session
        && !loc.home.is_empty()
        && loc
            .session_id
            .strip_prefix("agent-")
            .is_some_and(|id| !id.is_empty())
}

/// `session start: parent=<sessionId> agent_file=agent-<id> parent_from=sessionId`: a
/// sub-agent file of the older layout, linked by the `sessionId` its records carry.
fn subagent_start_from_records(parent: &str, agent_file: &str) -> String {
    system::session_start(&[
        ("parent", parent),
        ("agent_file", agent_file),
        ("parent_from", "sessionId"),
    ])
}

/// A session file that cannot be opened: its `parser:` row, and what its side files
/// hold all the same (since 2026-12-05; before, only the `parser:` row): a sub-agent's
/// meta header (the session `<parent>:<agent file>` its path gives, as its records
/// would), whether its parent's file is missing, and a main session's persisted
/// outputs, none of which a readable line points to.
fn unreadable_transcript(
    files: &SessionFiles<'_>,
    e: session_tree::Error,
    secondary: bool,
    collected_at: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let loc = &files.loc;
    let flat = is_flat_subagent(loc);
    let subagent = loc.kind == FileKind::Subagent;
    let session_id = if subagent {
        format!("{}:{}", loc.session_id, loc.stem())
    } else {
        loc.session_id.clone()
    };
    sink.push(files.unreadable(e, &session_id).secondary(secondary));
    if subagent {
        match files.session_meta() {
            Some(Ok(m)) => sink.push(
                Row::system(AGENT, subagent_start(&m, &loc.session_id, loc.stem()))
                    .session(session_id.clone())
                    .file(files.meta_display())
                    .locator("whole file"),
            ),
            Some(Err(row)) => sink.push(row.session(session_id.clone())),
            None => {}
        }
        if !files.parent_session_exists() {
            sink.push(
                Row::system(
                    AGENT,
                    format!(
                        "session file missing: {}.jsonl (only its sub-agent files remain)",
                        loc.session_id
                    ),
                )
                .session(session_id.clone())
                .file(files.parent_display())
                .locator("path"),
            );
        }
    } else if !flat && !secondary {
        let resolver = files.resolver();
        files.unreferenced_outputs(&resolver, &session_id, "", &|_| None, &mut |r| sink.push(r));
    }
    if let Some(row) = retention(files, collected_at, &session_id, "") {
        sink.push(row);
    }
}

fn read_transcript(
    files: &SessionFiles<'_>,
    secondary: bool,
    collected_at: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let loc = &files.loc;
    let log: Transcript<'_> = match Transcript::from_path(files.path, files.evidence) {
        Ok(log) => log,
        Err(e) => return unreadable_transcript(files, e, secondary, collected_at, sink),
    };
    // the older layout's sub-agent file sits beside the sessions: its records name the
    // parent session, the file's name the agent
    let flat = is_flat_subagent(loc);
    let subagent = loc.kind == FileKind::Subagent || flat;
    let index = Index::build(&log, subagent);
    let parent = index
        .first_session_id()
        .unwrap_or(&loc.session_id)
        .to_string();
    let session_id = if subagent {
        format!("{parent}:{}", loc.stem())
    } else {
        parent.clone()
    };
    let cwd = index.first_cwd().to_string();
    let meta = if subagent { files.session_meta() } else { None };
    if let Some(Err(row)) = &meta {
        sink.push(row.clone().session(session_id.clone()).project(cwd.clone()));
    }
    let meta = meta.and_then(Result::ok);
    if subagent {
        let agent = loc.stem();
        let header = match &meta {
            Some(m) => Row::system(AGENT, subagent_start(m, &parent, agent))
                .file(files.meta_display())
                .locator("whole file"),
            None if flat => Row::system(AGENT, subagent_start_from_records(&parent, agent))
                .file(files.display)
                .locator("sessionId"),
            None => Row::system(AGENT, subagent_start_from_path(&loc.session_id, agent))
                .file(files.display)
                .locator("path"),
        };
        sink.push(
            header
                .at(index.first_time())
                .session(session_id.clone())
                .project(cwd.clone())
                .branch(index.first_branch()),
        );
        let (parent_exists, parent_display) = if flat {
            let name = format!("{parent}.jsonl");
            (
                files
                    .evidence
                    .status(&files.path.with_file_name(&name), true)
                    .is_some(),
                session_tree::sibling_display(files.display, &name),
            )
        } else {
            (files.parent_session_exists(), files.parent_display())
        };
        if !parent_exists {
            let named = if flat { &parent } else { &loc.session_id };
            sink.push(
                Row::system(
                    AGENT,
                    format!(
                        "session file missing: {named}.jsonl (only its sub-agent files remain)"
                    ),
                )
                .session(session_id.clone())
                .project(cwd.clone())
                .file(parent_display)
                .locator("path"),
            );
        }
    }
    let meta_str = |k: &str| {
        meta.as_ref()
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let meta_model = meta_str("model");
    let fork = meta
        .as_ref()
        .is_some_and(|m| session_tree::log::truthy(m.get("isFork")));
    // a copy outside the tree (a job's parent transcript) has no session folder of its
    // own: its stubs are checked against the session its records name
    let folder_session = if loc.home.is_empty() || flat {
        parent.as_str()
    } else {
        loc.session_id.as_str()
    };
    let resolver = files.resolver();
    let lookup = |p: &PersistedPointer| resolver.lookup(p);
    let opts = MapOptions {
        source_file: files.display,
        session_id: &loc.session_id,
        agent_file: subagent.then(|| loc.stem()),
        folder_session_id: folder_session,
        secondary,
        meta_model: meta_model.as_deref(),
        fork,
        persisted: &lookup,
    };
    transcript_rows_with(&log, &index, &opts, sink);
    if !subagent && !secondary {
        let tool = |call: &str| index.tool_name(call).map(str::to_string);
        files.unreferenced_outputs(&resolver, &session_id, &cwd, &tool, &mut |r| sink.push(r));
    }
    if let Some(row) = retention(files, collected_at, &session_id, &cwd) {
        sink.push(row);
    }
}
