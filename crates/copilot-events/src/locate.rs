//! Which paths are Copilot event-log files, stores and side files, from the path alone.
//!
//! Why by path only: the scanner offers every file of a collection to every store, so
//! a claim must be cheap and must not read evidence. Copilot's files are recognised by
//! the folders the CLI and the extension write them in: a CLI home is a folder named
//! `.copilot` (`~/.copilot`, the XDG leftovers `~/.local/state/.copilot` and
//! `~/.config/.copilot`), the extension's files sit under
//! `User/workspaceStorage/<h>/GitHub.copilot-chat/` and
//! `User/globalStorage/github.copilot-chat/` of VS Code or any fork, and the Agent Host
//! keeps its trace twin under `<userData>/agent-host/otel/`.
//!
//! A `$COPILOT_HOME` may have any name, so a CLI home is also recognised by its own
//! structure ([`cli_home_index`]): `<any>/session-state/<uuid>/...` (a session folder
//! named by a UUID under a folder named `session-state`: the event log and the
//! session's side files), and the home-level files (`session-store.db`,
//! `permissions-config.json`, `config.json`, `settings.json`, `data.db`, command
//! history, legacy sessions) only in a folder whose name contains `copilot` (not
//! `github-copilot`, the JetBrains plugin's folder, nor the extension's
//! `github.copilot*` storage folders), or in a folder of any name beside session
//! folders ([`locate_beside_sessions`], which the scanner asks with the files it
//! walked): those file names alone are too common to claim anywhere. A session folder
//! of any name counts there when it holds an `events.jsonl`, and such a log is claimed
//! beside a `session-store.db` ([`locate_beside_store`]), as the spec's glob says.

use std::path::Path;

use chat_rows::store::paths::{component_matches, components};

/// The kind of a Copilot file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// `.copilot/session-state/<id>/events.jsonl`: a CLI event log (primary).
    CliEvents,
    /// `User/workspaceStorage/<h>/GitHub.copilot-chat/transcripts/<id>.jsonl` (or the
    /// VS Code Server's `User/GitHub.copilot-chat/transcripts/`): a transcript.
    Transcript,
    /// `.copilot/session-state/<id>/workspace.yaml`.
    WorkspaceYaml,
    /// `.copilot/session-state/<id>/vscode.metadata.json` or
    /// `vscode.requests.metadata.json`.
    VscodeMetadata,
    /// `rewind-file-snapshots/index.json` or the older `rewind-snapshots/index.json`.
    RewindIndex,
    /// `.copilot/session-state/<id>/checkpoints/*.md`.
    Checkpoint,
    /// `.copilot/session-state/<id>/plan.md`.
    Plan,
    /// A file under `.copilot/session-state/<id>/files/` or `research/`: what the
    /// session kept beside its log (the CLI's `/session files`; research reports).
    SessionFile,
    /// `.copilot/session-store.db`, `github.copilot-chat/session-store.db`,
    /// `copilot-session-store.db`: the cross-session SQLite index.
    SessionStore,
    /// `github.copilot-chat/agent-traces.db`, `agent-host/otel/agent-host-traces.db`.
    AgentTraces,
    /// `.copilot/command-history-state.json` (or a file in `command-history-state/`).
    CommandHistory,
    /// `.copilot/permissions-config.json`: saved approvals per location.
    PermissionsConfig,
    /// `.copilot/config.json`: only its trusted folders are read.
    Config,
    /// `.copilot/settings.json`, `github-copilot/managed-settings.json` or a
    /// `github-copilot/policy.d/*.json` drop-in (read as managed settings).
    Settings,
    /// `GitHub.copilot-chat/debug-logs/<sessionId>/*.jsonl`.
    DebugLog,
    /// A file under `memory-tool/memories/`.
    Memory,
    /// `.copilot/history-session-state/<id>.json`: the legacy session JSON.
    LegacySession,
    /// `.copilot/session-state/<id>/session.db`: the per-session SQLite (todos).
    SessionDb,
    /// `.copilot/data.db`: the Copilot desktop app's SQLite (schema unverified).
    AppDb,
    /// `GitHub.copilot-chat/chat-session-resources/<sessionId>/<toolCallId>/content.txt`
    /// (or `content.json`): a large tool result the extension wrote to disk in place of
    /// the prompt's copy.
    ToolResource,
    /// A session folder's `inuse.<pid>.lock` or a file of a rewind folder's `backups/`,
    /// claimed alone ([`locate_companion`]) only when its folder has no `events.jsonl`
    /// (or, for a backup, no snapshot index) that would list it: listed, never opened.
    SessionCompanion,
}

impl FileKind {
    /// The kind's name, for `--list`.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::CliEvents => "copilot cli event log",
            FileKind::Transcript => "copilot chat transcript",
            FileKind::WorkspaceYaml => "copilot cli workspace.yaml",
            FileKind::VscodeMetadata => "copilot cli vscode metadata",
            FileKind::RewindIndex => "copilot rewind snapshot index",
            FileKind::Checkpoint => "copilot checkpoint",
            FileKind::Plan => "copilot plan",
            FileKind::SessionFile => "copilot cli session file",
            FileKind::SessionStore => "copilot session store",
            FileKind::AgentTraces => "copilot otel trace store",
            FileKind::CommandHistory => "copilot cli command history",
            FileKind::PermissionsConfig => "copilot standing grants",
            FileKind::Config => "copilot cli config (trusted folders)",
            FileKind::Settings => "copilot settings",
            FileKind::DebugLog => "copilot chat debug log",
            FileKind::Memory => "copilot memory note",
            FileKind::LegacySession => "copilot cli legacy session",
            FileKind::SessionDb => "copilot cli session db",
            FileKind::AppDb => "copilot app data db",
            FileKind::ToolResource => "copilot chat spilled tool result",
            FileKind::SessionCompanion => "copilot cli session lock or backup",
        }
    }

    /// True for files whose rows are (partly) secondary copies of an event log's.
    pub fn has_copies(self) -> bool {
        !matches!(
            self,
            FileKind::CliEvents
                | FileKind::PermissionsConfig
                | FileKind::Config
                | FileKind::Settings
                | FileKind::LegacySession
                | FileKind::SessionDb
                | FileKind::AppDb
                | FileKind::ToolResource
                | FileKind::SessionFile
                | FileKind::SessionCompanion
        )
    }
}

/// What a path says about a Copilot file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The kind.
    pub kind: FileKind,
    /// The session id the path names (the session folder, the transcript's or debug
    /// log's name), or empty.
    pub session_id: String,
}

fn loc(kind: FileKind, session_id: &str) -> Option<Location> {
    Some(Location {
        kind,
        session_id: session_id.to_string(),
    })
}

/// Recognises a Copilot file by its path. See the module docs.
pub fn locate(path: &Path) -> Option<Location> {
    let c = components(path);
    let n = c.len();
    let name = &**c.last()?;
    let at = |i: usize| -> &str { c.get(i).map(|s| &**s).unwrap_or("") };
    if name.ends_with("-wal") || name.ends_with("-shm") || name.ends_with("-journal") {
        return None;
    }
    // a CLI home: `.copilot/...`, or any folder by its structure
    if let Some(h) = cli_home_index(&c) {
        let rest: Vec<&str> = c[h + 1..].iter().map(|s| &**s).collect();
        if let Some(l) = in_home(&rest) {
            return Some(l);
        }
    }
    if name == "managed-settings.json" && n >= 2 && at(n - 2) == "github-copilot" {
        return loc(FileKind::Settings, "");
    }
    // the managed policy's drop-in folder: `/etc/github-copilot/policy.d/*.json`
    if n >= 3
        && at(n - 2) == "policy.d"
        && at(n - 3) == "github-copilot"
        && component_matches(name, "*.json")
    {
        return loc(FileKind::Settings, "");
    }
    if name == "copilot-session-store.db" {
        return loc(FileKind::SessionStore, "");
    }
    if name == "agent-host-traces.db" && n >= 3 && at(n - 2) == "otel" && at(n - 3) == "agent-host"
    {
        return loc(FileKind::AgentTraces, "");
    }
    // the extension's folders (its storage folders are named by the extension id,
    // `GitHub.copilot-chat` in workspace storage, lower-cased in global storage)
    let ext = c
        .iter()
        .rposition(|x| x.eq_ignore_ascii_case("github.copilot-chat"))?;
    let rest: Vec<&str> = c[ext + 1..].iter().map(|s| &**s).collect();
    let under_user = c[..ext].iter().any(|x| x == "User");
    match rest.as_slice() {
        ["session-store.db"] => loc(FileKind::SessionStore, ""),
        ["agent-traces.db"] => loc(FileKind::AgentTraces, ""),
        ["transcripts", f] if under_user && component_matches(f, "*.jsonl") => {
            loc(FileKind::Transcript, f.strip_suffix(".jsonl").unwrap_or(f))
        }
        ["debug-logs", sid, f] if component_matches(f, "*.jsonl") => loc(FileKind::DebugLog, sid),
        // (the writer's `schema.json` beside a `content.json` is derived from it)
        [
            "chat-session-resources",
            sid,
            _call,
            "content.txt" | "content.json",
        ] if under_user => loc(FileKind::ToolResource, sid),
        ["memory-tool", "memories", ..] if rest.len() >= 3 => {
            // a workspace's `memories/<sessionId>/x.md` names a session, its
            // `memories/repo/` does not, and nothing under global storage does (its
            // folders are the user's own)
            let in_workspace = c[..ext].iter().any(|x| x == "workspaceStorage");
            let sid = if in_workspace && rest.len() >= 4 && rest[2] != "repo" {
                rest[2]
            } else {
                ""
            };
            loc(FileKind::Memory, sid)
        }
        _ => None,
    }
}

/// A session folder's name: a UUID (`8-4-4-4-12` hex digits), as the CLI names them.
fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// A folder name that may be a `$COPILOT_HOME` under another name: it contains
/// `copilot`, but is not one of the other Copilot products' folders.
fn copilot_named(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("copilot") && n != "github-copilot" && !n.starts_with("github.copilot")
}

/// The file names a CLI home holds at its top level.
const HOME_FILES: &[&str] = &[
    "session-store.db",
    "command-history-state.json",
    "command-history-state",
    "permissions-config.json",
    "permissions-config",
    "config.json",
    "settings.json",
    "data.db",
    "history-session-state",
];

/// The index of the CLI home among a path's components, if the path is inside one:
/// the last `.copilot`; else the folder above `session-state/<uuid>/` (any name);
/// else a folder whose name contains `copilot` and that holds one of the CLI's
/// top-level file names. See the module docs.
pub fn cli_home_index(c: &[std::borrow::Cow<'_, str>]) -> Option<usize> {
    if let Some(h) = c.iter().rposition(|x| x == ".copilot") {
        return Some(h);
    }
    let n = c.len();
    // `<home>/session-state/<uuid>/<file...>`
    if let Some(s) = c.iter().rposition(|x| x == "session-state")
        && s >= 1
        && s + 2 < n
        && is_uuid(&c[s + 1])
    {
        return Some(s - 1);
    }
    // `<copilot-named home>/<top-level file>` (or one level down for the folders)
    [n.checked_sub(2), n.checked_sub(3)]
        .into_iter()
        .flatten()
        .find(|&h| copilot_named(&c[h]) && HOME_FILES.contains(&&*c[h + 1]))
}

/// A home-level file of a CLI home whose name says nothing (a `$COPILOT_HOME` of any
/// name, say `/srv/agent-state`): `<home>/<file>` (or `<home>/<folder>/<file>` for the
/// command-history and legacy folders) whose home holds session folders, as
/// `has_sessions(home)` says. The discovery walk answers `has_sessions` from the files
/// it found ([`in_session_folder`]), a reader from the folder itself. `None` for a
/// path [`locate`] already recognises. Gives the home too.
pub fn locate_beside_sessions(
    path: &Path,
    has_sessions: impl Fn(&Path) -> bool,
) -> Option<(Location, std::path::PathBuf)> {
    // cheap first: the scanner asks this of every file no store claimed by its path
    let named = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .is_some_and(|n| HOME_FILES.contains(&n))
    };
    if !named(Some(path)) && !named(path.parent()) {
        return None;
    }
    if locate(path).is_some() {
        return None;
    }
    let c = components(path);
    let n = c.len();
    for h in [n.checked_sub(2), n.checked_sub(3)].into_iter().flatten() {
        if !HOME_FILES.contains(&&*c[h + 1]) {
            continue;
        }
        let rest: Vec<&str> = c[h + 1..].iter().map(|s| &**s).collect();
        let Some(l) = in_home(&rest) else {
            continue;
        };
        let home = path.ancestors().nth(n - 1 - h)?;
        if has_sessions(home) {
            return Some((l, home.to_path_buf()));
        }
    }
    None
}

/// True when `file` is inside a session folder of `home`:
/// `<home>/session-state/<uuid>/...`.
pub fn in_session_folder(home: &Path, file: &Path) -> bool {
    let Ok(rest) = file.strip_prefix(home.join("session-state")) else {
        return false;
    };
    let mut parts = rest.components();
    let first = parts.next();
    parts.next().is_some() && first.is_some_and(|c| is_uuid(&c.as_os_str().to_string_lossy()))
}

/// True when `file` is a session's event log of `home` whatever its folder's name:
/// `<home>/session-state/<any>/events.jsonl`.
pub fn is_session_log(home: &Path, file: &Path) -> bool {
    let Ok(rest) = file.strip_prefix(home.join("session-state")) else {
        return false;
    };
    let mut parts = rest.components();
    parts.next().is_some()
        && parts
            .next()
            .is_some_and(|c| c.as_os_str() == "events.jsonl")
        && parts.next().is_none()
}

/// An event log in a session folder not named by a UUID, outside a `.copilot`:
/// `<home>/session-state/<any>/events.jsonl` whose home holds a `session-store.db`,
/// as `has_store(home)` says (the spec's glob: beside a `session-store.db` or under
/// `.copilot`). `None` for a path [`locate`] already recognises. Gives the home too.
pub fn locate_beside_store(
    path: &Path,
    has_store: impl Fn(&Path) -> bool,
) -> Option<(Location, std::path::PathBuf)> {
    // cheap first: the scanner asks this of every file no store claimed by its path
    if path.file_name().is_none_or(|n| n != "events.jsonl") {
        return None;
    }
    let c = components(path);
    let n = c.len();
    if n < 4 || c[n - 3] != "session-state" || locate(path).is_some() {
        return None;
    }
    let home = path.ancestors().nth(3)?;
    has_store(home).then(|| {
        (
            Location {
                kind: FileKind::CliEvents,
                session_id: c[n - 2].to_string(),
            },
            home.to_path_buf(),
        )
    })
}

/// The CLI home folder of a path inside one ([`cli_home_index`]).
pub fn cli_home(path: &Path) -> Option<std::path::PathBuf> {
    let c = components(path);
    let h = cli_home_index(&c)?;
    path.ancestors().nth(c.len() - 1 - h).map(Path::to_path_buf)
}

/// A session folder's lock file (`<home>/session-state/<id>/inuse.<pid>.lock`) or
/// rewind backup (`<home>/session-state/<id>/rewind-file-snapshots/backups/<name>`,
/// or under the older `rewind-snapshots/`), in a CLI home as [`cli_home_index`]
/// knows one. [`locate`] leaves these out: the session's `events.jsonl` lists them
/// when it is read, and a snapshot index its backups. A session folder whose log is
/// gone (a deleted session) keeps them, so the scanner claims them one by one
/// where nothing would list them. Gives the session folder too.
pub fn locate_companion(path: &Path) -> Option<(Location, std::path::PathBuf)> {
    // cheap first: the scanner asks this of every file it walks
    let name = path.file_name()?.to_str()?;
    let in_backups = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "backups");
    if !in_backups && lock_pid(name).is_none() {
        return None;
    }
    let c = components(path);
    let h = cli_home_index(&c)?;
    let rest: Vec<&str> = c[h + 1..].iter().map(|s| &**s).collect();
    let (id, depth) = match rest.as_slice() {
        ["session-state", id, lock] if lock_pid(lock).is_some() => (*id, 1),
        [
            "session-state",
            id,
            "rewind-file-snapshots" | "rewind-snapshots",
            "backups",
            _,
        ] => (*id, 3),
        _ => return None,
    };
    let folder = path.ancestors().nth(depth)?.to_path_buf();
    Some((loc(FileKind::SessionCompanion, id)?, folder))
}

/// The pid a lock file's name `inuse.<pid>.lock` gives (any non-empty text).
pub fn lock_pid(name: &str) -> Option<&str> {
    name.strip_prefix("inuse.")
        .and_then(|n| n.strip_suffix(".lock"))
        .filter(|n| !n.is_empty())
}

/// A file inside a CLI home, by its path under the home.
fn in_home(rest: &[&str]) -> Option<Location> {
    match rest {
        ["session-store.db"] => loc(FileKind::SessionStore, ""),
        ["data.db"] => loc(FileKind::AppDb, ""),
        ["command-history-state.json"] | ["command-history-state", _] => {
            loc(FileKind::CommandHistory, "")
        }
        ["permissions-config.json"] | ["permissions-config"] => {
            loc(FileKind::PermissionsConfig, "")
        }
        ["config.json"] => loc(FileKind::Config, ""),
        ["settings.json"] => loc(FileKind::Settings, ""),
        ["history-session-state", f] if component_matches(f, "*.json") => loc(
            FileKind::LegacySession,
            f.strip_suffix(".json").unwrap_or(f),
        ),
        ["session-state", id, "events.jsonl"] => loc(FileKind::CliEvents, id),
        ["session-state", id, "workspace.yaml"] => loc(FileKind::WorkspaceYaml, id),
        [
            "session-state",
            id,
            "vscode.metadata.json" | "vscode.requests.metadata.json",
        ] => loc(FileKind::VscodeMetadata, id),
        [
            "session-state",
            id,
            "rewind-file-snapshots" | "rewind-snapshots",
            "index.json",
        ] => loc(FileKind::RewindIndex, id),
        ["session-state", id, "checkpoints", f] if component_matches(f, "*.md") => {
            loc(FileKind::Checkpoint, id)
        }
        ["session-state", id, "plan.md"] => loc(FileKind::Plan, id),
        ["session-state", id, "files" | "research", _, ..] => loc(FileKind::SessionFile, id),
        ["session-state", id, "session.db"] => loc(FileKind::SessionDb, id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(p: &str) -> Option<FileKind> {
        locate(Path::new(p)).map(|l| l.kind)
    }

    #[test]
    fn recognises_every_kind() {
        let h = "h/home/a/.copilot";
        assert_eq!(
            locate(Path::new(&format!("{h}/session-state/s1/events.jsonl"))),
            Some(Location {
                kind: FileKind::CliEvents,
                session_id: "s1".into()
            })
        );
        assert_eq!(
            kind("h/home/a/.local/state/.copilot/session-store.db"),
            Some(FileKind::SessionStore)
        );
        assert_eq!(kind(&format!("{h}/session-store.db-wal")), None);
        assert_eq!(
            kind(&format!(
                "{h}/session-state/s1/rewind-file-snapshots/index.json"
            )),
            Some(FileKind::RewindIndex)
        );
        assert_eq!(
            kind(&format!("{h}/session-state/s1/checkpoints/001-x.md")),
            Some(FileKind::Checkpoint)
        );
        assert_eq!(
            kind(
                "h/home/a/.config/Code/User/workspaceStorage/w/GitHub.copilot-chat/transcripts/t.jsonl"
            ),
            Some(FileKind::Transcript)
        );
        assert_eq!(
            kind("h/home/a/.vscode-server/data/User/GitHub.copilot-chat/transcripts/t.jsonl"),
            Some(FileKind::Transcript)
        );
        assert_eq!(
            kind("h/home/a/.config/Code/User/globalStorage/github.copilot-chat/agent-traces.db"),
            Some(FileKind::AgentTraces)
        );
        assert_eq!(
            kind("h/home/a/.config/Code/agent-host/otel/agent-host-traces.db"),
            Some(FileKind::AgentTraces)
        );
        assert_eq!(
            kind(
                "h/home/a/.config/Code/User/workspaceStorage/w/GitHub.copilot-chat/debug-logs/s/main.jsonl"
            ),
            Some(FileKind::DebugLog)
        );
        assert_eq!(
            locate(Path::new(
                "h/x/User/workspaceStorage/w/GitHub.copilot-chat/memory-tool/memories/s9/n.md"
            )),
            Some(Location {
                kind: FileKind::Memory,
                session_id: "s9".into()
            })
        );
        assert_eq!(
            locate(Path::new(
                "h/x/User/globalStorage/github.copilot-chat/memory-tool/memories/topics/n.md"
            )),
            Some(Location {
                kind: FileKind::Memory,
                session_id: String::new()
            })
        );
        assert_eq!(
            kind("h/etc/github-copilot/managed-settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(
            kind("h/etc/github-copilot/policy.d/10-org.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(kind("h/etc/github-copilot/policy.d/README.md"), None);
        assert_eq!(kind("h/etc/other/policy.d/10-org.json"), None);
        assert_eq!(kind("h/home/a/notes/events.jsonl"), None);
        // backups and the lock are read with the session's log, not claimed
        assert_eq!(
            kind(&format!(
                "{h}/session-state/s1/rewind-file-snapshots/backups/ab12"
            )),
            None
        );
        assert_eq!(
            kind(&format!("{h}/session-state/s1/session.db")),
            Some(FileKind::SessionDb)
        );
        assert_eq!(kind(&format!("{h}/session-state/s1/session.db-wal")), None);
        assert_eq!(kind(&format!("{h}/session-state/s1/inuse.4242.lock")), None);
        // ... and claimed alone only where no log lists them: what such a path says
        let companion = |p: &str| {
            locate_companion(Path::new(p)).map(|(l, f)| (l.session_id, f.display().to_string()))
        };
        assert_eq!(
            companion(&format!("{h}/session-state/s1/inuse.4242.lock")),
            Some(("s1".into(), format!("{h}/session-state/s1")))
        );
        assert_eq!(
            companion(&format!(
                "{h}/session-state/s1/rewind-snapshots/backups/ab12"
            )),
            Some(("s1".into(), format!("{h}/session-state/s1")))
        );
        assert_eq!(
            companion(&format!("{h}/session-state/s1/inuse..lock")),
            None
        );
        assert_eq!(
            companion(&format!("{h}/session-state/s1/events.jsonl")),
            None
        );
        assert_eq!(
            companion(&format!(
                "{h}/session-state/s1/rewind-file-snapshots/index.json"
            )),
            None
        );
        assert_eq!(companion("h/home/a/notes/s1/inuse.1.lock"), None);
        assert_eq!(kind(&format!("{h}/data.db")), Some(FileKind::AppDb));
        assert_eq!(
            kind("h/x/User/workspaceStorage/w/GitHub.copilot-chat/debug-logs/s/models.json"),
            None
        );
    }

    #[test]
    fn a_cli_home_under_another_name() {
        let u = "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70";
        // any name, by the session folder's structure
        assert_eq!(
            locate(Path::new(&format!(
                "h/home/a/work/cp/session-state/{u}/events.jsonl"
            ))),
            Some(Location {
                kind: FileKind::CliEvents,
                session_id: u.into()
            })
        );
        assert_eq!(
            kind(&format!(
                "h/home/a/work/cp/session-state/{u}/workspace.yaml"
            )),
            Some(FileKind::WorkspaceYaml)
        );
        assert_eq!(
            cli_home(Path::new(&format!(
                "h/home/a/work/cp/session-state/{u}/events.jsonl"
            ))),
            Some(std::path::PathBuf::from("h/home/a/work/cp"))
        );
        // a session folder not named by a UUID, outside a `.copilot`: not claimed
        assert_eq!(kind("h/home/a/x/session-state/s1/events.jsonl"), None);
        assert_eq!(kind(&format!("h/home/a/x/session-state/{u}")), None);
        // top-level files only in a folder named like a Copilot home
        assert_eq!(
            kind("h/home/a/copilot-home/permissions-config.json"),
            Some(FileKind::PermissionsConfig)
        );
        assert_eq!(
            kind("h/home/a/copilot-home/session-store.db"),
            Some(FileKind::SessionStore)
        );
        assert_eq!(
            kind("h/home/a/copilot-home/history-session-state/s.json"),
            Some(FileKind::LegacySession)
        );
        assert_eq!(kind("h/home/a/src/app/config.json"), None);
        assert_eq!(kind("h/home/a/src/app/session-store.db"), None);
        assert_eq!(kind("h/home/a/.config/github-copilot/config.json"), None);
        assert_eq!(
            kind("h/x/User/globalStorage/github.copilot-chat/settings.json"),
            None
        );
        assert_eq!(kind("h/home/a/copilot-home/notes.json"), None);
    }
}
