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

use chat_rows::evidence::EntryKind;
use chat_rows::store::paths::components;
use chat_rows::{Claim, Evidence, FileContext, Row, RowSink, Store, TurnType, Walked};

pub use decode::Error;
pub use events::{Counts, EventReader, Options, read_event_lines, read_events};
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
        if let Some((l, folder)) = locate::locate_companion(path) {
            // listed by the session's log, or a backup by its snapshot index: claimed
            // alone only where neither was walked (a deleted session's folder)
            let listed = |p: PathBuf| walked.under(&p).next().is_some();
            let backup = up(path, 1) != folder;
            let lister = listed(folder.join("events.jsonl"))
                || (backup && listed(up(path, 2).join("index.json")));
            return (!lister).then(|| claim_of(l.kind).marker());
        }
        self.claim(path).or_else(|| {
            let (l, _) = locate::locate_beside_sessions(path, |home| {
                // once per home: thousands of its files ask the same
                let key = format!("copilot-events: sessions beside {}", home.display());
                walked.remember(&key, || {
                    walked.under(&home.join("session-state")).any(|f| {
                        locate::in_session_folder(home, f) || locate::is_session_log(home, f)
                    })
                })
            })
            .or_else(|| {
                locate::locate_beside_store(path, |home| {
                    let store = home.join("session-store.db");
                    walked.under(&store).next().is_some()
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
/// `session-state/` holds a folder named by a UUID, or one of any name holding an
/// `events.jsonl`.
fn beside_sessions(path: &Path, evidence: &Evidence) -> Option<(Location, PathBuf)> {
    locate::locate_beside_sessions(path, |home| {
        evidence
            .read_dir(&home.join("session-state"))
            .is_ok_and(|entries| {
                entries.iter().any(|e| {
                    let log = e.join("events.jsonl");
                    evidence.status(e, true) == Some(EntryKind::Folder)
                        && (locate::in_session_folder(home, &log) || evidence.check(&log).is_ok())
                })
            })
    })
}

/// [`locate::locate_beside_store`] asked of the folder itself: the home holds a
/// `session-store.db`.
fn beside_store(path: &Path, evidence: &Evidence) -> Option<(Location, PathBuf)> {
    locate::locate_beside_store(path, |home| {
        evidence.check(&home.join("session-store.db")).is_ok()
    })
}

/// The CLI home of a file inside one: by its name or structure
/// ([`locate::cli_home`]), a home-level file beside session folders, or a session's
/// log beside the home's `session-store.db`.
fn home_of(path: &Path, evidence: &Evidence) -> Option<PathBuf> {
    locate::cli_home(path)
        .or_else(|| beside_sessions(path, evidence).map(|(_, h)| h))
        .or_else(|| beside_store(path, evidence).map(|(_, h)| h))
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

/// The `parser:` row of a file that could not be read; `shown` is the file as the evidence
/// reader names it ([`Evidence::shown`]: a compressed store file's member form).
fn io_row(agent: &str, shown: String, e: &std::io::Error) -> Row {
    Row::system(
        agent,
        chat_rows::system::parser(Error::Io {
            path: shown,
            offset: 0,
            reason: e.to_string(),
        }),
    )
    .locator("whole file")
}

/// The `parser:` row of a read that failed at `offset`, after the rows of the lines
/// before it.
fn failed_midway(agent: &str, shown: String, e: &std::io::Error, offset: u64) -> Row {
    Row::system(
        agent,
        chat_rows::system::parser(Error::Io {
            path: shown,
            offset,
            reason: e.to_string(),
        }),
    )
    .locator(format!("byte {offset}"))
}

/// Reads an event log a chunk at a time; a read that fails midway is a `parser:` row at
/// the byte it failed at, after the rows of the lines before it.
fn stream_events(
    path: &Path,
    evidence: &Evidence,
    lines: &mut chat_rows::lines::LineReader<'_>,
    opts: &Options<'_>,
    sink: &mut dyn RowSink,
) {
    if let (_, Err(e)) = events::read_event_lines(lines, opts, sink) {
        let row = failed_midway(opts.agent, evidence.shown(path), &e, lines.bytes_read());
        sink.push(row.session(opts.fallback_session));
    }
}

/// Reads one Copilot file into rows, handed to `sink` as they are made (an event log's
/// rows mostly lent, see [`read_events`]). A path [`locate()`] does not recognise is read
/// as a CLI event log.
pub fn read_file(path: &Path, agent: &str, evidence: &Evidence, sink: &mut dyn RowSink) {
    let loc = locate(path)
        .or_else(|| locate::locate_companion(path).map(|(l, _)| l))
        .or_else(|| beside_sessions(path, evidence).map(|(l, _)| l))
        .or_else(|| beside_store(path, evidence).map(|(l, _)| l))
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
            let twins = store_twins(path, loc.kind, agent, evidence);
            // a store in a folder all accounts share (`/tmp`): a session some home's logs
            // hold is that account's
            let owned = twins.has_owners();
            let sink = &mut |mut r: Row| {
                if owned
                    && r.user.is_empty()
                    && let Some(owner) = twins.owner_of(&r.session_id)
                {
                    r.user = owner.to_string();
                }
                sink.push(r)
            };
            let file_name = name_of(path);
            let Some(db) = stores::open(path, evidence, agent, &file_name, sink) else {
                return;
            };
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
        FileKind::SessionCompanion => {
            if let Some((_, folder)) = locate::locate_companion(path)
                && let Some(row) =
                    localdb::companion_row(path, &folder, &loc.session_id, agent, evidence)
            {
                sink.push(row);
            }
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
    match evidence.read_lines(path) {
        Ok(mut lines) => {
            let (cwd, branch) = workspace_yaml_columns(&up(path, 1), evidence);
            let opts = Options {
                agent,
                fallback_session: &loc.session_id,
                project: &cwd,
                branch: &branch,
                secondary: false,
            };
            stream_events(path, evidence, &mut lines, &opts, sink);
        }
        Err(e) => {
            sink.push(io_row(agent, evidence.shown(path), &e).session(loc.session_id.clone()))
        }
    }
    // the session folder's lock files and index-less backups, never opened (listed
    // even when the log cannot be read: the scanner leaves them to the log)
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
    let mut lines = match evidence.read_lines(path) {
        Ok(l) => l,
        Err(e) => {
            return sink
                .push(io_row(agent, evidence.shown(path), &e).session(loc.session_id.clone()));
        }
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
        None => stream_events(path, evidence, &mut lines, &opts, sink),
        Some(log) => {
            // the chat log is richer and primary: prove each row's twin in it
            let ctx = FileContext {
                product: Some(agent.to_string()),
                ..FileContext::default()
            };
            let primary = vscode_chat_log::ChatLogStore.read(&log, &ctx, evidence);
            let mut twins = Twins::new();
            twins.add_file(&primary);
            let mut proving = FnSink(|mut r: Row| {
                if r.secondary {
                    twins.prove(&mut r);
                }
                sink.push(r)
            });
            stream_events(path, evidence, &mut lines, &opts, &mut proving);
        }
    }
}

/// Collects the turn rows of primary logs (for twins), within [`TWIN_BUDGET`].
fn load_twins(logs: &[(PathBuf, String)], agent: &str, evidence: &Evidence) -> Twins {
    load_primaries(
        &[Primaries {
            logs: logs.to_vec(),
            ..Primaries::default()
        }],
        agent,
        evidence,
    )
}

/// Primary files twins are proven against: event logs (with the session a log without
/// ids falls back to) and VS Code `chatSessions` logs, and the account they belong to
/// when the secondary file's own path does not say (empty otherwise).
#[derive(Clone, Debug, Default)]
struct Primaries {
    logs: Vec<(PathBuf, String)>,
    chat_logs: Vec<PathBuf>,
    owner: String,
}

/// Collects the turn rows of primary event logs and of VS Code `chatSessions` logs
/// (read by `vscode-chat-log`, as a transcript's twins are), within [`TWIN_BUDGET`]
/// in all.
fn load_primaries(sets: &[Primaries], agent: &str, evidence: &Evidence) -> Twins {
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
    let ctx = FileContext {
        product: Some(agent.to_string()),
        ..FileContext::default()
    };
    for set in sets {
        for (log, fallback) in &set.logs {
            if !within(log) {
                continue;
            }
            let Ok(mut lines) = evidence.read_lines(log) else {
                continue;
            };
            let opts = Options {
                agent,
                fallback_session: fallback,
                ..Options::default()
            };
            let mut rows = TurnRows(Vec::new());
            // a failed read's rows are the twins of the lines read (its row is the
            // log's own reader's)
            let _ = events::read_event_lines(&mut lines, &opts, &mut rows);
            twins.add_file_of(&rows.0, &set.owner);
        }
        for log in &set.chat_logs {
            if !within(log) {
                continue;
            }
            let mut rows = TurnRows(Vec::new());
            vscode_chat_log::ChatLogStore.read_into(log, &ctx, evidence, &mut rows);
            twins.add_file_of(&rows.0, &set.owner);
        }
    }
    twins
}

/// The CLI homes a user's home may hold: `~/.copilot` and the XDG leftovers
/// `~/.local/state/.copilot` and `~/.config/.copilot` (see [`mod@locate`]).
fn cli_homes_of(home: &Path) -> Vec<PathBuf> {
    vec![
        home.join(".copilot"),
        home.join(".local").join("state").join(".copilot"),
        home.join(".config").join(".copilot"),
    ]
}

/// The event logs of every CLI home under a user's home.
fn cli_logs_of_home(home: &Path, evidence: &Evidence) -> Vec<(PathBuf, String)> {
    cli_homes_of(home)
        .iter()
        .flat_map(|h| cli_logs(h, evidence))
        .collect()
}

/// The user's home above a VS Code user data folder, from the OS layouts:
/// `<home>/.config/<product>`, `<home>/Library/Application Support/<product>`,
/// `<home>/AppData/Roaming/<product>`, `<home>/.vscode-server/data` (any server folder: [`is_server_dir`]).
/// `None` for a folder elsewhere (a `--user-data-dir`, a portable install).
fn home_of_user_data(user_data: &Path) -> Option<PathBuf> {
    let name = |p: &Path| name_of(p);
    let parent = user_data.parent()?;
    let grand = parent.parent()?;
    match name(parent).as_str() {
        ".config" => Some(grand.to_path_buf()),
        "Application Support" if name(grand) == "Library" => grand.parent().map(Path::to_path_buf),
        n if n.eq_ignore_ascii_case("Roaming") && name(grand).eq_ignore_ascii_case("AppData") => {
            grand.parent().map(Path::to_path_buf)
        }
        n if name(user_data) == "data" && is_server_dir(n) => Some(grand.to_path_buf()),
        _ => None,
    }
}

/// A remote server's data folder under a home: `.<product>-server` and its
/// `-insiders` and `-oss` builds (`.vscode-server-insiders`, `.vscode-server-oss`,
/// `.vscodium-server-insiders`), and `.vscode-remote` (Codespaces, dev containers).
fn is_server_dir(n: &str) -> bool {
    n.starts_with('.')
        && (n.ends_with("-server")
            || n.ends_with("-server-insiders")
            || n.ends_with("-server-oss")
            || n == ".vscode-remote")
}

/// Every editor `User` folder under a home, whatever the product (VS Code, its
/// Insiders build, its forks): `<config folder>/<product>/User` for the three OS
/// layouts' config folders, and `~/.<x>-server/data/User` of the remote servers ([`is_server_dir`]).
fn editor_users_of_home(home: &Path, evidence: &Evidence) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for parent in [
        home.join(".config"),
        home.join("Library").join("Application Support"),
        home.join("AppData").join("Roaming"),
    ] {
        for product in evidence.read_dir(&parent).unwrap_or_default() {
            let user = product.join("User");
            if evidence.read_dir(&user).is_ok() {
                out.push(user);
            }
        }
    }
    for d in evidence.read_dir(home).unwrap_or_default() {
        let n = name_of(&d);
        if is_server_dir(&n) {
            let user = d.join("data").join("User");
            if evidence.read_dir(&user).is_ok() {
                out.push(user);
            }
        }
    }
    out
}

/// The primary files of one user's home: the transcripts and `chatSessions` logs of
/// every editor under it, and the event logs of its CLI homes.
fn primaries_of_home(home: &Path, owner: &str, evidence: &Evidence) -> Primaries {
    let mut set = Primaries {
        owner: owner.to_string(),
        ..Primaries::default()
    };
    for user in editor_users_of_home(home, evidence) {
        set.logs.extend(transcripts_under(&user, evidence));
        set.chat_logs.extend(chat_logs_under(&user, evidence));
    }
    set.logs.extend(cli_logs_of_home(home, evidence));
    set
}

/// The homes a `copilot-session-store.db` in the OS temporary folder may belong to (the
/// extension writes it there when it has no global storage), and whether the path
/// names the account:
///
/// * Windows `<home>/AppData/Local/Temp/`: that home, whose account the path names;
/// * Linux `<root>/tmp/`, `<root>/var/tmp/`, macOS `<root>/private/var/folders/../T/`
///   (or without `private`): a folder every account shares or one the path does not
///   tie to an account, so every home of the machine (`<root>/home/*`, `<root>/root`,
///   `<root>/Users/*`).
///
/// `None` elsewhere.
fn temp_store_homes(path: &Path, evidence: &Evidence) -> Option<(Vec<PathBuf>, bool)> {
    let c = components(path);
    let n = c.len();
    let ancestor = |i: usize| path.ancestors().nth(n - 1 - i).map(Path::to_path_buf);
    // <home>/AppData/Local/Temp/<file>
    if n >= 5
        && c[n - 2].eq_ignore_ascii_case("Temp")
        && c[n - 3].eq_ignore_ascii_case("Local")
        && c[n - 4].eq_ignore_ascii_case("AppData")
    {
        return Some((vec![ancestor(n - 5)?], true));
    }
    // <root>/tmp/<file>, <root>/var/tmp/<file>, <root>/[private/]var/folders/<a>/<b>/T/<file>
    let marker = if n >= 2 && c[n - 2] == "tmp" {
        if n >= 3 && c[n - 3] == "var" {
            n - 3
        } else {
            n - 2
        }
    } else if n >= 6 && c[n - 2] == "T" && c[n - 5] == "folders" && c[n - 6] == "var" {
        n - 6
    } else {
        return None;
    };
    let marker = if marker >= 1 && c[marker - 1] == "private" {
        marker - 1
    } else {
        marker
    };
    let root = if marker == 0 {
        path.ancestors().nth(n)?.to_path_buf()
    } else {
        ancestor(marker - 1)?
    };
    let mut homes: Vec<PathBuf> = Vec::new();
    for folder in ["home", "Users"] {
        homes.extend(
            evidence
                .read_dir(&root.join(folder))
                .unwrap_or_default()
                .into_iter()
                .filter(|h| evidence.read_dir(h).is_ok()),
        );
    }
    let su = root.join("root");
    if evidence.read_dir(&su).is_ok() {
        homes.push(su);
    }
    Some((homes, false))
}

/// The twins of a `copilot-session-store.db` in the OS temporary folder
/// ([`temp_store_homes`]), read once per folder of homes and scan. When the folder
/// does not name the account, each primary file is added with its home's name as owner,
/// so the store's rows of a session some home's logs hold are that account's rows.
fn temp_store_twins(
    path: &Path,
    agent: &str,
    evidence: &Evidence,
) -> Option<std::sync::Arc<Twins>> {
    let (homes, named) = temp_store_homes(path, evidence)?;
    let key = format!(
        "copilot-events: twins of the homes {} for {agent}",
        homes
            .iter()
            .map(|h| h.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Some(evidence.remember(&key, || {
        let sets: Vec<Primaries> = homes
            .iter()
            .map(|h| {
                let owner = if named { String::new() } else { name_of(h) };
                primaries_of_home(h, &owner, evidence)
            })
            .collect();
        std::sync::Arc::new(load_primaries(&sets, agent, evidence))
    }))
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
                // the agent host and the extension's background agents run Copilot CLI
                // sessions, logged in the user's CLI home: those logs count too
                let mut logs = transcripts_under(&user, evidence);
                if let Some(home) = user.parent().and_then(home_of_user_data) {
                    logs.extend(cli_logs_of_home(&home, evidence));
                }
                let set = Primaries {
                    logs,
                    chat_logs: chat_logs_under(&user, evidence),
                    owner: String::new(),
                };
                std::sync::Arc::new(load_primaries(&[set], agent, evidence))
            })
        }
        (None, None) => temp_store_twins(path, agent, evidence)
            .unwrap_or_else(|| std::sync::Arc::new(Twins::new())),
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

/// The primary rows a debug log's copies are proven against: its session's transcript;
/// when the transcript is itself secondary (its workspace holds the session's
/// `chatSessions` log), the chat log's rows and then the transcript's rows as the scan
/// gives them, each proven against the chat log first. A copy then takes the text and
/// time of the row that survives the merge, and merges away with it (proven against the
/// transcript alone, it took the transcript's time, which the chat log's twin does not
/// share). Read once per transcript and scan.
fn debug_log_twins(
    transcript: PathBuf,
    session: &str,
    agent: &str,
    evidence: &Evidence,
) -> std::sync::Arc<Twins> {
    let chat_log = workspace_dir(&transcript).and_then(|ws| chat_log_of(&ws, session, evidence));
    let Some(chat_log) = chat_log else {
        return twins_of_log(transcript, session, agent, evidence);
    };
    let key = format!(
        "copilot-events: debug-log twins of {} ({session}) for {agent}",
        transcript.display()
    );
    evidence.remember(&key, || {
        let chat = load_primaries(
            &[Primaries {
                chat_logs: vec![chat_log.clone()],
                ..Primaries::default()
            }],
            agent,
            evidence,
        );
        let mut twins = chat.clone();
        let size = evidence.check(&transcript).map_or(u64::MAX, |c| c.size);
        if size <= TWIN_BUDGET
            && let Ok(mut lines) = evidence.read_lines(&transcript)
        {
            let opts = Options {
                agent,
                fallback_session: session,
                ..Options::default()
            };
            let mut rows = TurnRows(Vec::new());
            // the twins of the lines read; a failed read is the transcript's own row
            let _ = read_event_lines(&mut lines, &opts, &mut rows);
            for r in &mut rows.0 {
                chat.prove(r);
            }
            twins.add_file(&rows.0);
        }
        std::sync::Arc::new(twins)
    })
}

/// A debug log (`debug-logs/<sid>/x.jsonl`), read a chunk at a time: its twins are the
/// transcript of the same session.
fn read_debug_log(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn FnMut(Row),
) {
    let mut lines = match evidence.read_lines(path) {
        Ok(l) => l,
        Err(e) => {
            return sink(io_row(agent, evidence.shown(path), &e).session(loc.session_id.clone()));
        }
    };
    let file_name = name_of(path);
    let side = side::Side {
        agent,
        session: &loc.session_id,
        mtime: evidence.modified(path),
        file_name: &file_name,
    };
    let t = up(path, 3)
        .join("transcripts")
        .join(format!("{}.jsonl", loc.session_id));
    let twins = debug_log_twins(t, &loc.session_id, agent, evidence);
    let read = side::debug_log(&mut lines, &side, &mut |mut r| {
        if r.secondary {
            twins.prove(&mut r);
        }
        sink(r)
    });
    if let Err(e) = read {
        let row = failed_midway(agent, evidence.shown(path), &e, lines.bytes_read());
        sink(row.session(loc.session_id.clone()));
    }
}

fn read_side(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn FnMut(Row),
) {
    if loc.kind == FileKind::DebugLog {
        return read_debug_log(path, loc, agent, evidence, sink);
    }
    let bytes = match evidence.read(path) {
        Ok(b) => b,
        Err(e) => {
            return sink(io_row(agent, evidence.shown(path), &e).session(loc.session_id.clone()));
        }
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
        // read a chunk at a time above
        FileKind::DebugLog => {}
        FileKind::Memory => {
            let c = components(path);
            let rel = c
                .iter()
                .rposition(|x| x == "memories")
                .map(|i| c[i + 1..].join("/"))
                .unwrap_or(file_name.clone());
            side::memory(&bytes, &rel, &side, sink)
        }
        FileKind::SessionFile => {
            // its path under the session folder: files/<...> or research/<...> (a
            // folder of either name inside is part of it)
            let c = components(path);
            let rel = c
                .windows(2)
                .position(|w| w[0] == "session-state" && w[1] == loc.session_id)
                .map(|i| c[i + 2..].join("/"))
                .unwrap_or(file_name.clone());
            side::session_file(&bytes, &rel, &side, sink)
        }
        FileKind::LegacySession => side::legacy_session(&bytes, &side, sink),
        FileKind::ToolResource => {
            // <workspace>/GitHub.copilot-chat/chat-session-resources/<sid>/<call>/<file>
            let call = path.parent().map(name_of).unwrap_or_default();
            let ws = up(path, 5);
            let project = if name_of(up(path, 6).as_path()) == "workspaceStorage" {
                workspace_folder(&ws, evidence)
            } else {
                String::new()
            };
            side::spilled_tool_result(&bytes, &call, &project, &side, sink)
        }
        FileKind::CliEvents
        | FileKind::Transcript
        | FileKind::SessionStore
        | FileKind::AgentTraces
        | FileKind::SessionDb
        | FileKind::AppDb
        | FileKind::SessionCompanion => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_home_above_a_user_data_folder() {
        for (user_data, home) in [
            ("/e/h/home/u/.config/Code", Some("/e/h/home/u")),
            (
                "/e/h/Users/u/Library/Application Support/Code - Insiders",
                Some("/e/h/Users/u"),
            ),
            (
                "/e/h/C/Users/u/AppData/Roaming/Cursor",
                Some("/e/h/C/Users/u"),
            ),
            ("/e/h/home/u/.vscode-server/data", Some("/e/h/home/u")),
            (
                "/e/h/home/u/.vscode-server-insiders/data",
                Some("/e/h/home/u"),
            ),
            ("/e/h/home/u/.vscode-server-oss/data", Some("/e/h/home/u")),
            (
                "/e/h/home/u/.vscodium-server-insiders/data",
                Some("/e/h/home/u"),
            ),
            (
                "/e/h/home/codespace/.vscode-remote/data",
                Some("/e/h/home/codespace"),
            ),
            ("/e/h/home/u/.vscode-remote-x/data", None),
            ("/e/h/opt/portable/data", None),
            ("/e/h/srv/vscode-data", None),
        ] {
            assert_eq!(
                home_of_user_data(Path::new(user_data)),
                home.map(PathBuf::from),
                "{user_data}"
            );
        }
    }

    #[test]
    fn the_homes_of_a_temp_folder_store() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("h");
        for d in [
            "home/a",
            "home/b",
            "root/.copilot",
            "Users/c",
            "C/Users/d/AppData/Local/Temp",
            "tmp",
            "var/tmp",
            "private/var/folders/x1/y2/T",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        let ev = Evidence::new();
        let machine: Vec<PathBuf> = ["home/a", "home/b", "Users/c", "root"]
            .iter()
            .map(|h| root.join(h))
            .collect();
        for temp in ["tmp", "var/tmp", "private/var/folders/x1/y2/T"] {
            let p = root.join(temp).join("copilot-session-store.db");
            assert_eq!(
                temp_store_homes(&p, &ev),
                Some((machine.clone(), false)),
                "{temp}"
            );
        }
        let p = root.join("C/Users/d/AppData/Local/Temp/copilot-session-store.db");
        assert_eq!(
            temp_store_homes(&p, &ev),
            Some((vec![root.join("C/Users/d")], true))
        );
        let p = root.join("home/a/copilot-session-store.db");
        assert_eq!(temp_store_homes(&p, &ev), None);
    }
}
