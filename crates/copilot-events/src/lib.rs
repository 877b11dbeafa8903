//! Forensic reader of GitHub Copilot's event logs and the stores around them.
//!
//! GitHub Copilot keeps its agent history in one event-log family: the Copilot CLI's
//! `~/.copilot/session-state/<id>/events.jsonl` and VS Code Copilot Chat's
//! `workspaceStorage/<h>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl` share the
//! envelope `{type, data, id, timestamp, parentId}`, so one streaming reader
//! ([`events`]) serves both. Around them sit SQLite stores (`session-store.db` of the CLI
//! and of the extension, the OTel `agent-traces.db`), standing grants
//! (`permissions-config.json`, trusted folders in `config.json`), `workspace.yaml`,
//! rewind snapshot indexes and other side files.
//!
//! Why one crate for all of them: on VS Code 1.137 a workspace can hold transcripts and
//! no `chatSessions/`, so the transcript is the only conversation record, and the
//! stores repeat the logs cut down. The event logs are primary; the stores, debug
//! logs, command history and a transcript whose workspace also holds the same
//! session's `chatSessions` log are secondary. Their copies are cut to
//! version-dependent lengths, which the scanner's exact merge cannot match, so this
//! crate proves each twin itself against the primary log ([`twins`]) and hands the
//! scanner rows it can merge; what only a secondary source holds is kept. Token usage
//! mostly exists only in the stores.
//!
//! The crate has the layers every store crate here has:
//!
//! * [`mod@locate`]: which paths are Copilot files, from the path alone;
//! * [`decode`]: the formats (the event envelope, flat YAML, times) and [`Error`];
//! * the mapping to rows: [`events`] (the event logs), [`stores`] over [`db`] (the
//!   SQLite stores through `sqlite-evidence`), [`side`] (side files), [`localdb`]
//!   (`session.db`, the desktop app's `data.db`, lock files, lone rewind backups), with
//!   the store-specific texts in [`texts`].
//!
//! [`CopilotEventsStore`] plugs it into the scanner. Agent names: `copilot` for the
//! CLI home, the editor's product (`vscode`, `cursor` ...) for the extension's files.
//! Secrets never reach a row: `config.json` is read for its trust list only, MCP and
//! OAuth configuration are not read, settings keys naming secrets are skipped, and a
//! binary asset's data is counted, never printed.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod db;
pub mod decode;
pub mod events;
pub mod localdb;
pub mod locate;
pub mod side;
pub mod stores;
pub mod texts;
pub mod twins;

use std::path::{Path, PathBuf};

use chat_rows::store::paths::components;
use chat_rows::{Claim, Evidence, FileContext, Row, RowSink, Store, TurnType, Walked};

pub use decode::Error;
pub use events::{Counts, EventReader, Options, read_events};
pub use locate::{FileKind, Location, locate};
pub use twins::Twins;

/// The agent of the CLI's rows.
pub const AGENT: &str = "copilot";

/// Primary logs read to prove twins are read only up to this many bytes in all per
/// secondary file; beyond it the remaining copies are kept unmerged.
pub const TWIN_BUDGET: u64 = 256 << 20;

/// The scanner's entry point for Copilot's event logs, stores and side files.
#[derive(Clone, Copy, Debug, Default)]
pub struct CopilotEventsStore;

impl Store for CopilotEventsStore {
    fn name(&self) -> &'static str {
        "copilot-events"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        locate(path).map(|l| claim_of(l.kind))
    }

    fn claim_in(&self, path: &Path, walked: &Walked<'_>) -> Option<Claim> {
        self.claim(path).or_else(|| {
            let (l, _) = locate::locate_beside_sessions(path, |home| {
                // once per home: thousands of its files ask the same
                let key = format!("copilot-events: sessions beside {}", home.display());
                walked.remember(&key, || {
                    walked
                        .under(&home.join("session-state"))
                        .any(|f| locate::in_session_folder(home, f))
                })
            })?;
            Some(claim_of(l.kind))
        })
    }

    fn agent(&self, ctx: &FileContext) -> String {
        ctx.product
            .clone()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| AGENT.to_string())
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
    ) {
        let agent = self.agent(ctx);
        read_file(path, &agent, evidence, sink);
    }
}

fn claim_of(kind: FileKind) -> Claim {
    let c = Claim::new(kind.name());
    if kind.has_copies() {
        c.with_copies()
    } else {
        c
    }
}

/// [`locate::locate_beside_sessions`] asked of the folder itself: the home's
/// `session-state/` holds a folder named by a UUID.
fn beside_sessions(path: &Path, evidence: &Evidence) -> Option<(Location, PathBuf)> {
    locate::locate_beside_sessions(path, |home| {
        evidence
            .read_dir(&home.join("session-state"))
            .is_ok_and(|entries| {
                entries
                    .iter()
                    .any(|e| e.is_dir() && locate::in_session_folder(home, &e.join("events.jsonl")))
            })
    })
}

/// The CLI home of a file inside one: by its name or structure
/// ([`locate::cli_home`]), or a home-level file beside session folders.
fn home_of(path: &Path, evidence: &Evidence) -> Option<PathBuf> {
    locate::cli_home(path).or_else(|| beside_sessions(path, evidence).map(|(_, h)| h))
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn up(path: &Path, n: usize) -> PathBuf {
    let mut p = path;
    for _ in 0..n {
        p = p.parent().unwrap_or(p);
    }
    p.to_path_buf()
}

/// Keeps the turn rows (the rows twins are proven against), copying only those.
struct TurnRows(Vec<Row>);

impl RowSink for TurnRows {
    fn push(&mut self, row: Row) {
        if is_turn(&row) {
            self.0.push(row);
        }
    }

    fn lend(&mut self, row: &Row) {
        if is_turn(row) {
            self.0.push(row.clone());
        }
    }
}

fn is_turn(row: &Row) -> bool {
    matches!(
        row.turn_type,
        TurnType::User
            | TurnType::Assistant
            | TurnType::ToolUse
            | TurnType::ToolResult
            | TurnType::Thinking
    )
}

/// A closure as a [`RowSink`]: every row, lent or given, reaches it owned.
struct FnSink<F: FnMut(Row)>(F);

impl<F: FnMut(Row)> RowSink for FnSink<F> {
    fn push(&mut self, row: Row) {
        (self.0)(row)
    }
}

fn io_row(agent: &str, path: &Path, e: &std::io::Error) -> Row {
    Row::system(
        agent,
        chat_rows::system::parser(Error::Io {
            path: chat_rows::display_path(path),
            offset: 0,
            reason: e.to_string(),
        }),
    )
    .locator("whole file")
}

/// Reads one Copilot file into rows, handed to `sink` as they are made (an event log's
/// rows mostly lent, see [`read_events`]). A path [`locate()`] does not recognise is read
/// as a CLI event log.
pub fn read_file(path: &Path, agent: &str, evidence: &Evidence, sink: &mut dyn RowSink) {
    let loc = locate(path)
        .or_else(|| beside_sessions(path, evidence).map(|(l, _)| l))
        .unwrap_or(Location {
            kind: FileKind::CliEvents,
            session_id: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        });
    match loc.kind {
        FileKind::CliEvents => read_cli_log(path, &loc, agent, evidence, sink),
        FileKind::Transcript => read_transcript(path, &loc, agent, evidence, sink),
        FileKind::SessionStore | FileKind::AgentTraces => {
            let sink = &mut |r| sink.push(r);
            let file_name = name_of(path);
            let Some(db) = stores::open(path, evidence, agent, &file_name, sink) else {
                return;
            };
            let twins = store_twins(path, loc.kind, agent, evidence);
            let input = stores::StoreInput {
                agent,
                file_name: &file_name,
                twins: &twins,
            };
            if loc.kind == FileKind::SessionStore {
                stores::session_store_rows(&db, &input, sink);
            } else {
                stores::traces_rows(&db, &input, sink);
            }
        }
        FileKind::SessionDb | FileKind::AppDb => {
            localdb::read_file(path, &loc, agent, evidence, &mut |r| sink.push(r))
        }
        _ => read_side(path, &loc, agent, evidence, &mut |r| sink.push(r)),
    }
}

/// `workspace.yaml` beside a CLI log: (cwd, branch), empty when absent or unreadable.
fn workspace_yaml_columns(session_dir: &Path, evidence: &Evidence) -> (String, String) {
    match evidence.read_optional(&session_dir.join("workspace.yaml")) {
        Ok(Some(bytes)) => {
            let (entries, _) = decode::flat_yaml(&String::from_utf8_lossy(&bytes));
            let get = |k: &str| {
                entries
                    .iter()
                    .find(|e| e.key == k)
                    .map(|e| e.value.clone())
                    .unwrap_or_default()
            };
            (get("cwd"), get("branch"))
        }
        _ => (String::new(), String::new()),
    }
}

fn read_cli_log(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn RowSink,
) {
    let bytes = match evidence.read(path) {
        Ok(b) => b,
        Err(e) => return sink.push(io_row(agent, path, &e).session(loc.session_id.clone())),
    };
    let (cwd, branch) = workspace_yaml_columns(&up(path, 1), evidence);
    let opts = Options {
        agent,
        fallback_session: &loc.session_id,
        project: &cwd,
        branch: &branch,
        secondary: false,
    };
    read_events(&bytes, &opts, sink);
    // the session folder's lock files and index-less backups, never opened
    localdb::session_folder_rows(&up(path, 1), &loc.session_id, agent, evidence, &mut |r| {
        sink.push(r)
    });
}

/// The workspace folder of a transcript (`workspaceStorage/<h>`), when it has one.
fn workspace_dir(transcript: &Path) -> Option<PathBuf> {
    let ws = up(transcript, 3);
    let c = components(&ws);
    (c.len() >= 2 && c[c.len() - 2] == "workspaceStorage").then_some(ws)
}

fn workspace_folder(ws: &Path, evidence: &Evidence) -> String {
    match evidence.read_optional(&ws.join("workspace.json")) {
        Ok(Some(bytes)) => serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| {
                // the folder only: a multi-root workspace's `workspace` names its
                // `.code-workspace` file, never a project path (vscode.txt)
                v.get("folder")
                    .and_then(|f| f.as_str())
                    .map(|u| chat_rows::uri::to_path(u).unwrap_or_else(|| u.to_string()))
            })
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The same session's `chatSessions` log in the transcript's workspace, if any.
fn chat_log_of(ws: &Path, session: &str, evidence: &Evidence) -> Option<PathBuf> {
    ["jsonl", "json"]
        .iter()
        .map(|ext| ws.join("chatSessions").join(format!("{session}.{ext}")))
        .find(|p| evidence.check(p).is_ok())
}

fn read_transcript(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn RowSink,
) {
    let bytes = match evidence.read(path) {
        Ok(b) => b,
        Err(e) => return sink.push(io_row(agent, path, &e).session(loc.session_id.clone())),
    };
    let ws = workspace_dir(path);
    let folder = ws
        .as_deref()
        .map(|w| workspace_folder(w, evidence))
        .unwrap_or_default();
    let chat_log = ws
        .as_deref()
        .and_then(|w| chat_log_of(w, &loc.session_id, evidence));
    let opts = Options {
        agent,
        fallback_session: &loc.session_id,
        project: &folder,
        branch: "",
        secondary: chat_log.is_some(),
    };
    match chat_log {
        None => {
            read_events(&bytes, &opts, sink);
        }
        Some(log) => {
            // the chat log is richer and primary: prove each row's twin in it
            let ctx = FileContext {
                product: Some(agent.to_string()),
                ..FileContext::default()
            };
            let primary = vscode_chat_log::ChatLogStore.read(&log, &ctx, evidence);
            let mut twins = Twins::new();
            twins.add_file(&primary);
            read_events(
                &bytes,
                &opts,
                &mut FnSink(|mut r: Row| {
                    if r.secondary {
                        twins.prove(&mut r);
                    }
                    sink.push(r)
                }),
            );
        }
    }
}

/// Collects the turn rows of primary logs (for twins), within [`TWIN_BUDGET`].
fn load_twins(logs: &[(PathBuf, String)], agent: &str, evidence: &Evidence) -> Twins {
    load_twins_with(logs, &[], agent, evidence)
}

/// Collects the turn rows of primary event logs and of VS Code `chatSessions` logs
/// (read by `vscode-chat-log`, as a transcript's twins are), within [`TWIN_BUDGET`]
/// in all.
fn load_twins_with(
    logs: &[(PathBuf, String)],
    chat_logs: &[PathBuf],
    agent: &str,
    evidence: &Evidence,
) -> Twins {
    let mut twins = Twins::new();
    let mut spent = 0u64;
    let mut within = |p: &Path| -> bool {
        let Ok(checked) = evidence.check(p) else {
            return false;
        };
        if spent + checked.size > TWIN_BUDGET {
            return false;
        }
        spent += checked.size;
        true
    };
    for (log, fallback) in logs {
        if !within(log) {
            continue;
        }
        let Ok(bytes) = evidence.read(log) else {
            continue;
        };
        let opts = Options {
            agent,
            fallback_session: fallback,
            ..Options::default()
        };
        let mut rows = TurnRows(Vec::new());
        read_events(&bytes, &opts, &mut rows);
        twins.add_file(&rows.0);
    }
    let ctx = FileContext {
        product: Some(agent.to_string()),
        ..FileContext::default()
    };
    for log in chat_logs {
        if !within(log) {
            continue;
        }
        let mut rows = TurnRows(Vec::new());
        vscode_chat_log::ChatLogStore.read_into(log, &ctx, evidence, &mut rows);
        twins.add_file(&rows.0);
    }
    twins
}

/// The CLI logs under a home: `<home>/session-state/*/events.jsonl`.
fn cli_logs(home: &Path, evidence: &Evidence) -> Vec<(PathBuf, String)> {
    evidence
        .read_dir(&home.join("session-state"))
        .unwrap_or_default()
        .into_iter()
        .map(|d| (d.join("events.jsonl"), name_of(&d)))
        .filter(|(p, _)| evidence.check(p).is_ok())
        .collect()
}

/// The transcripts under a user data folder's `User/workspaceStorage`.
fn transcripts_under(user: &Path, evidence: &Evidence) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for ws in evidence
        .read_dir(&user.join("workspaceStorage"))
        .unwrap_or_default()
    {
        let dir = ws.join("GitHub.copilot-chat").join("transcripts");
        for t in evidence.read_dir(&dir).unwrap_or_default() {
            let n = name_of(&t);
            if let Some(stem) = n.strip_suffix(".jsonl") {
                out.push((t.clone(), stem.to_string()));
            }
        }
    }
    out
}

/// The `chatSessions` logs under a user data folder's `User`: every workspace's
/// `chatSessions/*.jsonl`/`.json` and the empty window's
/// `globalStorage/emptyWindowChatSessions/`.
fn chat_logs_under(user: &Path, evidence: &Evidence) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = evidence
        .read_dir(&user.join("workspaceStorage"))
        .unwrap_or_default()
        .into_iter()
        .map(|ws| ws.join("chatSessions"))
        .collect();
    dirs.push(user.join("globalStorage").join("emptyWindowChatSessions"));
    let mut out = Vec::new();
    for d in dirs {
        for f in evidence.read_dir(&d).unwrap_or_default() {
            let n = name_of(&f);
            if n.ends_with(".jsonl") || n.ends_with(".json") {
                out.push(f);
            }
        }
    }
    out
}

/// The primary logs a store's rows are checked against: a CLI home's event logs; for
/// the extension's stores, the transcripts and the `chatSessions` logs (VS Code's own
/// primary record of the same chats, read by `vscode-chat-log`) under the same `User`.
fn store_twins(
    path: &Path,
    kind: FileKind,
    agent: &str,
    evidence: &Evidence,
) -> std::sync::Arc<Twins> {
    let c = components(path);
    let home = home_of(path, evidence);
    let user = if home.is_some() {
        None
    } else if kind == FileKind::AgentTraces && c.iter().any(|x| x == "agent-host") {
        // <userData>/agent-host/otel/agent-host-traces.db
        Some(up(path, 3).join("User"))
    } else {
        c.iter().rposition(|x| x == "User").map(|i| {
            path.ancestors()
                .nth(c.len() - 1 - i)
                .map(Path::to_path_buf)
                .unwrap_or_default()
        })
    };
    match (home, user) {
        (Some(home), _) => twins_of_home(&home, agent, evidence),
        (None, Some(user)) => {
            let key = format!("copilot-events: twins of {} for {agent}", user.display());
            evidence.remember(&key, || {
                std::sync::Arc::new(load_twins_with(
                    &transcripts_under(&user, evidence),
                    &chat_logs_under(&user, evidence),
                    agent,
                    evidence,
                ))
            })
        }
        (None, None) => std::sync::Arc::new(Twins::new()),
    }
}

/// The primary rows of a CLI home's event logs, read and indexed once per home and scan
/// (`Evidence::remember`): each of its secondary files (stores, command histories) is
/// proven against the same index, instead of reading up to [`TWIN_BUDGET`] of logs
/// again for each (40 command-history files beside 20 MB of logs took 12.8 s).
fn twins_of_home(home: &Path, agent: &str, evidence: &Evidence) -> std::sync::Arc<Twins> {
    let key = format!("copilot-events: twins of {} for {agent}", home.display());
    evidence.remember(&key, || {
        std::sync::Arc::new(load_twins(&cli_logs(home, evidence), agent, evidence))
    })
}

/// The primary rows of one log, read and indexed once per log and scan (a session's
/// debug logs and rewind index share it).
fn twins_of_log(
    log: PathBuf,
    session: &str,
    agent: &str,
    evidence: &Evidence,
) -> std::sync::Arc<Twins> {
    let key = format!(
        "copilot-events: twins of {} ({session}) for {agent}",
        log.display()
    );
    evidence.remember(&key, || {
        std::sync::Arc::new(load_twins(
            &[(log.clone(), session.to_string())],
            agent,
            evidence,
        ))
    })
}

fn read_side(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn FnMut(Row),
) {
    let bytes = match evidence.read(path) {
        Ok(b) => b,
        Err(e) => return sink(io_row(agent, path, &e).session(loc.session_id.clone())),
    };
    let mut file_name = name_of(path);
    if loc.kind == FileKind::Settings && path.parent().map(name_of).as_deref() == Some("policy.d") {
        // a managed policy drop-in: named with its folder in `(from ...)`
        file_name = format!("policy.d/{file_name}");
    }
    let side = side::Side {
        agent,
        session: &loc.session_id,
        mtime: evidence.modified(path),
        file_name: &file_name,
    };
    match loc.kind {
        FileKind::WorkspaceYaml => side::workspace_yaml(&bytes, &side, sink),
        FileKind::VscodeMetadata => side::vscode_metadata(&bytes, &side, sink),
        FileKind::RewindIndex => {
            // its prompts are copies of the session log's: <session>/<folder>/index.json
            let log = up(path, 2).join("events.jsonl");
            let twins = twins_of_log(log, &loc.session_id, agent, evidence);
            let backups = side::Backups::list(&up(path, 1).join("backups"), evidence);
            side::rewind_index_with(&bytes, &side, Some(&backups), &mut |mut r| {
                if r.secondary {
                    twins.prove(&mut r);
                }
                sink(r)
            })
        }
        FileKind::Checkpoint => side::checkpoint_md(&bytes, &side, sink),
        FileKind::Plan => side::plan_md(&bytes, &side, sink),
        FileKind::CommandHistory => {
            let twins = match home_of(path, evidence) {
                Some(h) => twins_of_home(&h, agent, evidence),
                None => std::sync::Arc::new(Twins::new()),
            };
            side::command_history(&bytes, &side, &twins, sink)
        }
        FileKind::PermissionsConfig => side::permissions_config(&bytes, &side, sink),
        FileKind::Config => side::config_json(&bytes, &side, sink),
        FileKind::Settings => side::settings(&bytes, &side, sink),
        FileKind::DebugLog => {
            // debug-logs/<sid>/x.jsonl: its twins are the transcript of the same session
            let chat = up(path, 3);
            let t = chat
                .join("transcripts")
                .join(format!("{}.jsonl", loc.session_id));
            let twins = twins_of_log(t, &loc.session_id, agent, evidence);
            side::debug_log(&bytes, &side, &mut |mut r| {
                if r.secondary {
                    twins.prove(&mut r);
                }
                sink(r)
            });
        }
        FileKind::Memory => {
            let c = components(path);
            let rel = c
                .iter()
                .rposition(|x| x == "memories")
                .map(|i| c[i + 1..].join("/"))
                .unwrap_or(file_name.clone());
            side::memory(&bytes, &rel, &side, sink)
        }
        FileKind::LegacySession => side::legacy_session(&bytes, &side, sink),
        FileKind::CliEvents
        | FileKind::Transcript
        | FileKind::SessionStore
        | FileKind::AgentTraces
        | FileKind::SessionDb
        | FileKind::AppDb => {}
    }
}
