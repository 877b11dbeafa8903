//! Which paths are Claude Code's, decided from the path alone.
//!
//! The config home is `$CLAUDE_CONFIG_DIR`, else `~/.claude` on every OS; extra homes
//! such as `~/.claude-work` are common practice. A scanner cannot see the variable, so
//! a home is any folder named `.claude` or `.claude-<name>`, and its `projects/`
//! folders must be names Claude Code's key rule makes: every character outside
//! `[A-Za-z0-9]` becomes `-`, one for one, so a key starts with `-` (`/home/u` →
//! `-home-u`, `\\srv\share` → `--srv-share`) or with a drive (`C:\Users` →
//! `C--Users`). That rule is also what keeps CodeBuddy's look-alike tree (no leading
//! dash) apart. The tree itself (sessions, sub-agents, persisted outputs) is
//! [`session_tree`]'s; the files around it are listed in [`ClaudeFile`].

use std::path::{Path, PathBuf};

use chat_rows::Walked;
use chat_rows::store::paths::components;
use session_tree::locate::Family;
pub use session_tree::locate::{FileKind, Location};

/// True for a folder name that can be a Claude Code home: `.claude` or `.claude-*`.
pub fn is_home(name: &str) -> bool {
    name == ".claude" || name.strip_prefix(".claude-").is_some_and(|r| !r.is_empty())
}

/// Claude Code's project key of a working directory: every character outside
/// `[A-Za-z0-9]` becomes `-`, one for one; a key longer than 200 characters is cut
/// at 200 and given `-` and a hash (which this reader cannot recompute, so the cut key
/// is returned with a trailing `-`).
pub fn mangle(cwd: &str) -> String {
    let key: String = cwd
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if key.chars().count() > 200 {
        let cut: String = key.chars().take(200).collect();
        format!("{cut}-")
    } else {
        key
    }
}

/// True when `name` is a key [`mangle`] can make: `[A-Za-z0-9-]` only, starting with
/// `-` or a drive letter and `--`.
pub fn is_project_key(name: &str) -> bool {
    let b = name.as_bytes();
    let charset = b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-');
    let start = b.first() == Some(&b'-')
        || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b'-' && b[2] == b'-');
    charset && start && name.len() <= 260
}

/// Claude Code's tree: its homes, its key rule, and folders under `subagents/`.
pub const FAMILY: Family = Family {
    is_home,
    is_project_key,
    nested_subagents: true,
};

/// Whose settings a settings file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsScope {
    /// `~/.claude/settings.json` or `settings.local.json`.
    User,
    /// `<project>/.claude/settings.json` or `settings.local.json`.
    Project,
    /// `managed-settings.json` (or a file of `managed-settings.d/`) of a managed install.
    Managed,
}

/// A Claude Code file and what its path says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaudeFile {
    /// A file of the session tree (transcript, sub-agent, meta, persisted output).
    Tree(Location),
    /// `<home>/history.jsonl`: every prompt typed, a secondary source.
    History,
    /// `<home>/sessions/<pid>.json`: the live session register.
    SessionRegister,
    /// `<home>/jobs/<id>/parent-transcript.jsonl`: a copy of a transcript.
    JobTranscript,
    /// A settings file.
    Settings(SettingsScope),
    /// `~/.claude.json`: global state (folder trust, MCP servers, legacy history).
    GlobalState,
    /// A copy of `~/.claude.json` Claude Code keeps: `~/.claude.json.backup`, and
    /// `<home>/backups/.claude.json.backup.<ts>` or `.claude.json.corrupted.<ts>`. Read
    /// as the global state, every row secondary.
    GlobalStateCopy,
    /// MCP servers: `<project>/.mcp.json` ([`SettingsScope::Project`]) or
    /// `managed-mcp.json` of a managed install ([`SettingsScope::Managed`]).
    McpServers(SettingsScope),
    /// `<home>/file-history/<sessionId>/<name>`: a pre-edit backup of a file the
    /// session edited, named by the transcript's `file-history-snapshot` records;
    /// listed, never opened. It outlives a deleted transcript.
    FileHistoryBackup,
    /// `<home>/projects/<key>/memory/<name>.md`: a project memory note.
    MemoryNote,
    /// `<home>/projects/<key>/sessions-index.json`: the index of a project's sessions
    /// older versions keep (peer: other readers list sessions from it).
    SessionsIndex,
    /// `<home>/projects/<key>/<sessionId>/remote-agents/*.meta.json` or
    /// `mcp-tasks/*.meta.json`: a session's sidecar (shape unverified).
    SessionSidecar,
    /// Claude Desktop's register of the sessions it ran,
    /// `claude-code-sessions/<uuid>/<uuid>/local_*.json` (shape unverified).
    DesktopRegister,
}

/// Recognises a Claude Code file by its path. Never touches the file system.
pub fn locate(path: &Path) -> Option<ClaudeFile> {
    if let Some(loc) = FAMILY.locate(path) {
        return Some(ClaudeFile::Tree(loc));
    }
    let comps = components(path);
    let n = comps.len();
    let name = &**comps.last()?;
    let parent = |i: usize| n.checked_sub(i + 1).map(|j| &*comps[j]);
    let home_at = |i: usize| parent(i).is_some_and(is_home);
    match name {
        "history.jsonl" if home_at(1) => Some(ClaudeFile::History),
        "parent-transcript.jsonl" if parent(2) == Some("jobs") && home_at(3) => {
            Some(ClaudeFile::JobTranscript)
        }
        ".claude.json" if n >= 2 => Some(ClaudeFile::GlobalState),
        ".claude.json.backup" if n >= 2 => Some(ClaudeFile::GlobalStateCopy),
        // wherever it lies, as `.claude.json`: in `~/.claude/backups/`, and, as Claude
        // Code 2.0.x wrote them (anthropics/claude-code#10866), beside `.claude.json` in
        // the home itself, or in a `backups/` folder there (since 2026-12-05)
        _ if n >= 2 && is_state_copy_name(name) => Some(ClaudeFile::GlobalStateCopy),
        ".mcp.json" if n >= 2 => Some(ClaudeFile::McpServers(SettingsScope::Project)),
        "managed-mcp.json" if is_managed_dir(&comps[..n - 1]) => {
            Some(ClaudeFile::McpServers(SettingsScope::Managed))
        }
        "settings.json" | "settings.local.json" if parent(1) == Some(".claude") => {
            Some(ClaudeFile::Settings(if is_user_home(&comps[..n - 2]) {
                SettingsScope::User
            } else {
                SettingsScope::Project
            }))
        }
        "settings.json" | "settings.local.json" if home_at(1) => {
            Some(ClaudeFile::Settings(SettingsScope::User))
        }
        "managed-settings.json" if is_managed_dir(&comps[..n - 1]) => {
            Some(ClaudeFile::Settings(SettingsScope::Managed))
        }
        _ if name.ends_with(".json")
            && parent(1) == Some("managed-settings.d")
            && is_managed_dir(&comps[..n - 2]) =>
        {
            Some(ClaudeFile::Settings(SettingsScope::Managed))
        }
        _ if parent(1) == Some("sessions") && home_at(2) && is_register_name(name) => {
            Some(ClaudeFile::SessionRegister)
        }
        _ if parent(2) == Some("file-history") && home_at(3) => Some(ClaudeFile::FileHistoryBackup),
        _ if name.ends_with(".md")
            && parent(1) == Some("memory")
            && parent(3) == Some("projects")
            && home_at(4) =>
        {
            Some(ClaudeFile::MemoryNote)
        }
        "sessions-index.json" if parent(2) == Some("projects") && home_at(3) => {
            Some(ClaudeFile::SessionsIndex)
        }
        _ if name.ends_with(".meta.json")
            && matches!(parent(1), Some("remote-agents" | "mcp-tasks"))
            && parent(4) == Some("projects")
            && home_at(5) =>
        {
            Some(ClaudeFile::SessionSidecar)
        }
        _ if name.starts_with("local_")
            && name.ends_with(".json")
            && parent(3) == Some("claude-code-sessions") =>
        {
            Some(ClaudeFile::DesktopRegister)
        }
        _ => None,
    }
}

/// `.claude.json.backup.<ts>` or `.claude.json.corrupted.<ts>`: a copy of the global
/// state (in `<claude home>/backups/`, or in the home beside `.claude.json`).
fn is_state_copy_name(name: &str) -> bool {
    [".claude.json.backup.", ".claude.json.corrupted."]
        .iter()
        .any(|p| name.strip_prefix(p).is_some_and(|ts| !ts.is_empty()))
}

/// `<pid>.json`: a live session register's name.
fn is_register_name(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// [`locate`], and where it finds nothing, the same files in a home of **any name**
/// (`$CLAUDE_CONFIG_DIR=~/.config/claude`, a folder an administrator chose): the tree
/// under `projects/` by the layout and the key rule alone, `history.jsonl`,
/// `settings.json`, `settings.local.json`, `sessions/<pid>.json` and
/// `jobs/<id>/parent-transcript.jsonl` by their place under the folder taken for the
/// home ([`home_of`]). Only for paths whose home something else vouches for: the
/// discovery's claim asks [`holds_home`] of the files beside them; a path handed to
/// [`crate::read_file`] is the caller's word.
pub fn locate_in_any_home(path: &Path) -> Option<ClaudeFile> {
    locate(path).or_else(|| locate_in_other_home(path))
}

/// [`locate_in_any_home`] for a path [`locate`] does not recognise. Most paths of a
/// collection are nothing of Claude Code's: one look at the file name and the folder
/// names (no allocation) turns them away before the path is split.
pub fn locate_in_other_home(path: &Path) -> Option<ClaudeFile> {
    let name = path.file_name()?.to_str()?;
    let home_level = matches!(
        name,
        "history.jsonl" | "settings.json" | "settings.local.json" | "parent-transcript.jsonl"
    ) || name.ends_with(".json");
    if !home_level && !path.iter().any(|c| c == "projects") {
        return None;
    }
    if let Some(loc) = FAMILY.locate_in_any_home(path) {
        return Some(ClaudeFile::Tree(loc));
    }
    let comps = components(path);
    let n = comps.len();
    let name = &**comps.last()?;
    let parent = |i: usize| n.checked_sub(i + 1).map(|j| &*comps[j]);
    match name {
        "history.jsonl" if n >= 2 => Some(ClaudeFile::History),
        "settings.json" | "settings.local.json" if n >= 2 => {
            Some(ClaudeFile::Settings(SettingsScope::User))
        }
        "parent-transcript.jsonl" if parent(2) == Some("jobs") && n >= 4 => {
            Some(ClaudeFile::JobTranscript)
        }
        _ if parent(1) == Some("sessions") && n >= 3 && is_register_name(name) => {
            Some(ClaudeFile::SessionRegister)
        }
        _ => None,
    }
}

/// The home folder of a file [`locate_in_any_home`] recognised; `None` for the global
/// state and managed or project settings, which belong to no one home.
pub fn home_of(path: &Path, file: &ClaudeFile) -> Option<PathBuf> {
    let up = match file {
        ClaudeFile::Tree(loc) => {
            return loc
                .project_folder(path)
                .parent()?
                .parent()
                .map(Path::to_path_buf);
        }
        ClaudeFile::History | ClaudeFile::Settings(SettingsScope::User) => 1,
        ClaudeFile::SessionRegister => 2,
        ClaudeFile::JobTranscript => 3,
        _ => return None,
    };
    path.ancestors().nth(up).map(Path::to_path_buf)
}

/// True when the walk found under `home` both a session transcript
/// `projects/<key>/<uuid>.jsonl` (the key by the key rule) **and** one of the files Claude
/// Code writes beside `projects/` from its first start (`history.jsonl`, `settings.json`,
/// `.claude.json`, `.credentials.json`, which is never read, or a file under `todos/`,
/// `statsig/`, `shell-snapshots/`, `session-env/` or `file-history/`): then it is a
/// Claude Code home whatever its name. Either alone is too common a shape to claim a
/// folder by. Looks only at those names and at the files under `projects/`, not at the
/// rest of the folder (a user's VS Code `User/` folder, beside its `settings.json`,
/// holds thousands of files).
pub fn holds_home(home: &Path, walked: &Walked<'_>) -> bool {
    let found = |rel: &str| walked.under(&home.join(rel)).next().is_some();
    let beside = [
        "history.jsonl",
        "settings.json",
        ".claude.json",
        ".credentials.json",
        "todos",
        "statsig",
        "shell-snapshots",
        "session-env",
        "file-history",
    ]
    .into_iter()
    .any(found);
    beside
        && walked.under(&home.join("projects")).any(|f| {
            let rel = f.strip_prefix(home).map(components).unwrap_or_default();
            matches!(rel.as_slice(), [_, key, file]
                if is_project_key(key) && file.strip_suffix(".jsonl").is_some_and(is_uuid))
        })
}

/// A UUID in its 36-character text form (Claude Code's session ids).
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// True when the folders end in a user's home (`home/<u>`, `Users/<u>`, `root`).
fn is_user_home(dirs: &[std::borrow::Cow<'_, str>]) -> bool {
    let n = dirs.len();
    (n >= 2 && matches!(&*dirs[n - 2], "home" | "Users" | "users"))
        || dirs.last().is_some_and(|d| d == "root")
}

/// True for the managed-settings folders of the three OS layouts.
fn is_managed_dir(dirs: &[std::borrow::Cow<'_, str>]) -> bool {
    let n = dirs.len();
    let last = |k: usize| n.checked_sub(k + 1).map(|i| &*dirs[i]);
    (last(0) == Some("claude-code") && last(1) == Some("etc"))
        || (last(0) == Some("ClaudeCode")
            && matches!(
                last(1),
                Some("Application Support" | "Program Files" | "ProgramData")
            ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        let key = mangle("/home/u/my.app");
        assert_eq!(key, "-home-u-my-app");
        assert_eq!(mangle(r"C:\Users\x\app"), "C--Users-x-app");
        assert!(is_project_key("-home-u-my-app"));
        assert!(is_project_key("C--Users-x-app"));
        assert!(!is_project_key("home-u-proj"));
        assert!(!is_project_key("-home-u.x"));
        assert!(!is_project_key(""));
        assert_eq!(mangle(&"a".repeat(250)).len(), 201);
    }

    #[test]
    fn a_home_of_any_name() {
        let any = |p: &str| locate_in_any_home(Path::new(p));
        let t =
            "/e/home/a/.config/claude/projects/-home-a/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70.jsonl";
        assert_eq!(locate(Path::new(t)), None);
        let tree = any(t).unwrap();
        assert!(
            matches!(&tree, ClaudeFile::Tree(l) if l.kind == FileKind::Session && l.home == "claude")
        );
        let home = Path::new("/e/home/a/.config/claude");
        assert_eq!(home_of(Path::new(t), &tree).as_deref(), Some(home));
        let sub = "/e/x/cfg/projects/-x/s1/subagents/w/agent-1.jsonl";
        assert_eq!(
            home_of(Path::new(sub), &any(sub).unwrap()).as_deref(),
            Some(Path::new("/e/x/cfg"))
        );
        for (p, file, up) in [
            ("/e/x/cfg/history.jsonl", ClaudeFile::History, "/e/x/cfg"),
            (
                "/e/x/cfg/settings.local.json",
                ClaudeFile::Settings(SettingsScope::User),
                "/e/x/cfg",
            ),
            (
                "/e/x/cfg/sessions/4821.json",
                ClaudeFile::SessionRegister,
                "/e/x/cfg",
            ),
            (
                "/e/x/cfg/jobs/j1/parent-transcript.jsonl",
                ClaudeFile::JobTranscript,
                "/e/x/cfg",
            ),
        ] {
            assert_eq!(any(p), Some(file.clone()), "{p}");
            assert_eq!(
                home_of(Path::new(p), &file).as_deref(),
                Some(Path::new(up)),
                "{p}"
            );
        }
        // the key rule still holds; a register is named by a pid
        assert_eq!(any("/e/x/cfg/projects/home-a/s.jsonl"), None);
        assert_eq!(any("/e/x/cfg/sessions/a1.json"), None);
        // a transcript named by a UUID and a file Claude Code writes beside `projects/`
        let holds = |names: &[&str]| {
            let files: Vec<PathBuf> = names.iter().map(|n| home.join(n)).collect();
            holds_home(
                home,
                &Walked::new(files.iter().map(PathBuf::as_path).collect()),
            )
        };
        let uuid = "projects/-home-a/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70.jsonl";
        assert!(holds(&[uuid, "statsig/x"]));
        assert!(holds(&[".claude.json", uuid]));
        assert!(!holds(&[uuid]));
        assert!(!holds(&["history.jsonl", "projects/-home-a/notes.jsonl"]));
        assert!(!holds(&[
            "history.jsonl",
            "projects/home-a/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70.jsonl"
        ]));
        assert!(!holds(&[
            "history.jsonl",
            "projects/-home-a/x/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70.jsonl"
        ]));
    }

    #[test]
    fn mcp_server_files() {
        let t = |p: &str| locate_in_any_home(Path::new(p));
        let project = ClaudeFile::McpServers(SettingsScope::Project);
        let managed = ClaudeFile::McpServers(SettingsScope::Managed);
        assert_eq!(t("/e/home/a/src/api/.mcp.json"), Some(project.clone()));
        assert_eq!(
            home_of(Path::new("/e/home/a/src/api/.mcp.json"), &project),
            None
        );
        for dir in [
            "/e/etc/claude-code",
            "/e/Library/Application Support/ClaudeCode",
            "/e/C/Program Files/ClaudeCode",
            "/e/C/ProgramData/ClaudeCode",
        ] {
            assert_eq!(
                t(&format!("{dir}/managed-mcp.json")),
                Some(managed.clone()),
                "{dir}"
            );
        }
        for p in [
            "/e/home/a/src/api/.vscode/mcp.json",
            "/e/home/a/src/api/.cursor/mcp.json",
            "/e/home/a/.cursor/mcp.json",
            "/e/home/a/src/api/mcp.json",
            "/e/home/a/managed-mcp.json",
            "/e/etc/claude-code/managed-settings.d/managed-mcp.json",
        ] {
            assert_ne!(t(p), Some(project.clone()), "{p}");
            assert_ne!(t(p), Some(managed.clone()), "{p}");
        }
    }

    #[test]
    fn files() {
        let t = |p: &str| locate(Path::new(p));
        assert!(matches!(
            t("/e/home/a/.claude/projects/-home-a/s.jsonl"),
            Some(ClaudeFile::Tree(l)) if l.kind == FileKind::Session
        ));
        assert!(matches!(
            t("/e/home/a/.claude/projects/-home-a/s/subagents/workflows/agent-1.jsonl"),
            Some(ClaudeFile::Tree(l)) if l.kind == FileKind::Subagent && l.subfolder.as_deref() == Some("workflows")
        ));
        assert_eq!(
            t("/e/home/a/.claude/history.jsonl"),
            Some(ClaudeFile::History)
        );
        assert_eq!(
            t("/e/home/a/.claude-work/history.jsonl"),
            Some(ClaudeFile::History)
        );
        assert_eq!(t("/e/home/a/.claude.json"), Some(ClaudeFile::GlobalState));
        for copy in [
            "/e/home/a/.claude.json.backup",
            "/e/home/a/.claude/backups/.claude.json.backup.1780000000000",
            "/e/home/a/.claude/backups/.claude.json.corrupted.1780000000000",
            // in the home itself, as Claude Code 2.0.31 wrote 44 of them (since
            // 2026-12-05), and in a `backups/` folder there
            "/e/home/a/.claude.json.corrupted.1760600454420",
            "/e/home/a/.claude.json.backup.1772086898114",
            "/e/home/a/backups/.claude.json.corrupted.1760600454420",
            "/e/C/Users/a/.claude.json.corrupted.1760600454420",
        ] {
            assert_eq!(t(copy), Some(ClaudeFile::GlobalStateCopy), "{copy}");
        }
        assert_eq!(
            t("/e/home/a/.claude/settings.json"),
            Some(ClaudeFile::Settings(SettingsScope::User))
        );
        assert_eq!(
            t("/e/C/Users/c/.claude/settings.local.json"),
            Some(ClaudeFile::Settings(SettingsScope::User))
        );
        assert_eq!(
            t("/e/home/a/src/api/.claude/settings.local.json"),
            Some(ClaudeFile::Settings(SettingsScope::Project))
        );
        assert_eq!(
            t("/e/etc/claude-code/managed-settings.json"),
            Some(ClaudeFile::Settings(SettingsScope::Managed))
        );
        assert_eq!(
            t("/e/C/Program Files/ClaudeCode/managed-settings.d/10-a.json"),
            Some(ClaudeFile::Settings(SettingsScope::Managed))
        );
        // the older Windows folder, which the retention period already read
        assert_eq!(
            t("/e/C/ProgramData/ClaudeCode/managed-settings.json"),
            Some(ClaudeFile::Settings(SettingsScope::Managed))
        );
        assert_eq!(
            t("/e/home/a/.claude/sessions/4242.json"),
            Some(ClaudeFile::SessionRegister)
        );
        assert_eq!(
            t("/e/home/a/.claude/jobs/j1/parent-transcript.jsonl"),
            Some(ClaudeFile::JobTranscript)
        );
        for p in [
            "/e/home/a/.codebuddy/projects/home-a/s.jsonl",
            "/e/home/a/.claude/projects/home-a/s.jsonl",
            "/e/home/a/.claude/sessions/x.json",
            "/e/home/a/.claude/todos/a.json",
            "/e/home/a/.claudette/history.jsonl",
            "/e/home/a/.codebuddy/settings.json",
            "/e/home/a/.claude/backups/.claude.json.backup.",
            "/e/home/a/.claude/backups/notes.json",
        ] {
            assert_eq!(t(p), None, "{p}");
        }
    }
}
