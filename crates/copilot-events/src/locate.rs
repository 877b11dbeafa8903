//! Which paths are Copilot event-log files, stores and side files, from the path alone.
//!
//! Why by path only: the scanner offers every file of a collection to every store, so
//! a claim must be cheap and must not read evidence. Copilot's files are recognised by
//! the folders the CLI and the extension write them in: a CLI home is a folder named
//! `.copilot` (`~/.copilot`, the XDG leftovers `~/.local/state/.copilot` and
//! `~/.config/.copilot`), the extension's files sit under
//! `User/workspaceStorage/<h>/GitHub.copilot-chat/` and
//! `User/globalStorage/github.copilot-chat/` of VS Code or any fork, and the Agent Host
//! keeps its trace twin under `<userData>/agent-host/otel/`. A `$COPILOT_HOME` with
//! another name is not recognised (give it as a root named `.copilot`).

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
    /// `.copilot/session-state/<id>/vscode.metadata.json`.
    VscodeMetadata,
    /// `rewind-file-snapshots/index.json` or the older `rewind-snapshots/index.json`.
    RewindIndex,
    /// `.copilot/session-state/<id>/checkpoints/*.md`.
    Checkpoint,
    /// `.copilot/session-state/<id>/plan.md`.
    Plan,
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
    /// `.copilot/settings.json` or `github-copilot/managed-settings.json`.
    Settings,
    /// `GitHub.copilot-chat/debug-logs/<sessionId>/*.jsonl`.
    DebugLog,
    /// A file under `memory-tool/memories/`.
    Memory,
    /// `.copilot/history-session-state/<id>.json`: the legacy session JSON.
    LegacySession,
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
            FileKind::SessionStore => "copilot session store",
            FileKind::AgentTraces => "copilot otel trace store",
            FileKind::CommandHistory => "copilot cli command history",
            FileKind::PermissionsConfig => "copilot standing grants",
            FileKind::Config => "copilot cli config (trusted folders)",
            FileKind::Settings => "copilot settings",
            FileKind::DebugLog => "copilot chat debug log",
            FileKind::Memory => "copilot memory note",
            FileKind::LegacySession => "copilot cli legacy session",
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
    let name = c.last()?.as_str();
    let at = |i: usize| -> &str { c.get(i).map(String::as_str).unwrap_or("") };
    if name.ends_with("-wal") || name.ends_with("-shm") || name.ends_with("-journal") {
        return None;
    }
    // a CLI home: `.copilot/...`
    if let Some(h) = c.iter().rposition(|x| x == ".copilot") {
        let rest: Vec<&str> = c[h + 1..].iter().map(String::as_str).collect();
        match rest.as_slice() {
            ["session-store.db"] => return loc(FileKind::SessionStore, ""),
            ["command-history-state.json"] | ["command-history-state", _] => {
                return loc(FileKind::CommandHistory, "");
            }
            ["permissions-config.json"] | ["permissions-config"] => {
                return loc(FileKind::PermissionsConfig, "");
            }
            ["config.json"] => return loc(FileKind::Config, ""),
            ["settings.json"] => return loc(FileKind::Settings, ""),
            ["history-session-state", f] if component_matches(f, "*.json") => {
                return loc(
                    FileKind::LegacySession,
                    f.strip_suffix(".json").unwrap_or(f),
                );
            }
            ["session-state", id, "events.jsonl"] => return loc(FileKind::CliEvents, id),
            ["session-state", id, "workspace.yaml"] => return loc(FileKind::WorkspaceYaml, id),
            ["session-state", id, "vscode.metadata.json"] => {
                return loc(FileKind::VscodeMetadata, id);
            }
            [
                "session-state",
                id,
                "rewind-file-snapshots" | "rewind-snapshots",
                "index.json",
            ] => {
                return loc(FileKind::RewindIndex, id);
            }
            ["session-state", id, "checkpoints", f] if component_matches(f, "*.md") => {
                return loc(FileKind::Checkpoint, id);
            }
            ["session-state", id, "plan.md"] => return loc(FileKind::Plan, id),
            _ => {}
        }
    }
    if name == "managed-settings.json" && n >= 2 && at(n - 2) == "github-copilot" {
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
    let rest: Vec<&str> = c[ext + 1..].iter().map(String::as_str).collect();
    let under_user = c[..ext].iter().any(|x| x == "User");
    match rest.as_slice() {
        ["session-store.db"] => loc(FileKind::SessionStore, ""),
        ["agent-traces.db"] => loc(FileKind::AgentTraces, ""),
        ["transcripts", f] if under_user && component_matches(f, "*.jsonl") => {
            loc(FileKind::Transcript, f.strip_suffix(".jsonl").unwrap_or(f))
        }
        ["debug-logs", sid, f] if component_matches(f, "*.jsonl") => loc(FileKind::DebugLog, sid),
        ["memory-tool", "memories", ..] if rest.len() >= 3 => {
            // `memories/<sessionId>/x.md` names a session, `memories/repo/` does not
            let sid = if rest.len() >= 4 && rest[2] != "repo" {
                rest[2]
            } else {
                ""
            };
            loc(FileKind::Memory, sid)
        }
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
            kind("h/etc/github-copilot/managed-settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(kind("h/home/a/notes/events.jsonl"), None);
        assert_eq!(
            kind("h/x/User/workspaceStorage/w/GitHub.copilot-chat/debug-logs/s/models.json"),
            None
        );
    }
}
