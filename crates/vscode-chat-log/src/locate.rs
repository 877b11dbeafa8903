//! Where VS Code keeps chat evidence, decided by path alone (the scanner's claim
//! never reads a file).
//!
//! The layout under `User/` is the same on every OS, in every fork and on remote servers
//! (`~/.vscode-server/data/User`), so the rules match from the `User` component down and
//! ignore whatever is above it.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::{components, ends_with};

/// The kinds of file this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `chatSessions/<id>.jsonl` and `emptyWindowChatSessions/<id>.jsonl`: the mutation log.
    SessionLog,
    /// `<id>.json` in any session location: a flat session (before 1.109).
    SessionJson,
    /// `workspaceStorage/<id>/workspace.json`: the window's folder or workspace file.
    WorkspaceJson,
    /// `workspaceStorage/<id>/chatEditingSessions/<key>/state.json`.
    EditingState,
    /// `globalStorage/github.copilot-chat/cloudSessions.json`, in the default profile
    /// (`User/`) or another (`User/profiles/[builtin/]<id>/`): session sync markers.
    CloudSessions,
    /// `User/settings.json` and `User/profiles/[builtin/]<id>/settings.json`.
    Settings,
}

impl FileKind {
    /// The short name shown by `--list`.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::SessionLog => "chat session log",
            FileKind::SessionJson => "chat session",
            FileKind::WorkspaceJson => "workspace folder",
            FileKind::EditingState => "chat editing state",
            FileKind::CloudSessions => "chat session sync markers",
            FileKind::Settings => "settings",
        }
    }
}

/// The kind of a VS Code chat file, or `None`.
pub fn classify(path: &Path) -> Option<FileKind> {
    let p = |pat: &[&str]| ends_with(path, pat);
    if p(&["User", "workspaceStorage", "*", "chatSessions", "*.jsonl"])
        || p(&[
            "User",
            "globalStorage",
            "emptyWindowChatSessions",
            "*.jsonl",
        ])
    {
        return Some(FileKind::SessionLog);
    }
    if p(&["User", "workspaceStorage", "*", "chatSessions", "*.json"])
        || p(&["User", "globalStorage", "emptyWindowChatSessions", "*.json"])
        || p(&["User", "globalStorage", "transferredChatSessions", "*.json"])
    {
        return Some(FileKind::SessionJson);
    }
    if p(&["User", "workspaceStorage", "*", "workspace.json"]) {
        return Some(FileKind::WorkspaceJson);
    }
    if p(&[
        "User",
        "workspaceStorage",
        "*",
        "chatEditingSessions",
        "*",
        "state.json",
    ]) {
        return Some(FileKind::EditingState);
    }
    // an extension's global storage is its profile's: `User/globalStorage/` for the
    // default profile, `User/profiles/<id>/globalStorage/` for another and
    // `User/profiles/builtin/<id>/globalStorage/` for a built-in one (the Agents window's)
    let cloud = ["globalStorage", "github.copilot-chat", "cloudSessions.json"];
    let under = |prefix: &[&str]| p(&[prefix, &cloud[..]].concat());
    if under(&["User"])
        || under(&["User", "profiles", "*"])
        || under(&["User", "profiles", "builtin", "*"])
    {
        return Some(FileKind::CloudSessions);
    }
    if p(&["User", "settings.json"])
        || p(&["User", "profiles", "*", "settings.json"])
        || p(&["User", "profiles", "builtin", "*", "settings.json"])
    {
        return Some(FileKind::Settings);
    }
    None
}

/// The `workspace.json` that names the folder of a file under `workspaceStorage/<id>/`
/// (a session in `chatSessions/`, or an editing state), if the file is under one.
pub fn workspace_json_for(path: &Path) -> Option<PathBuf> {
    let mut cur = path.parent();
    while let Some(dir) = cur {
        if dir
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "workspaceStorage")
        {
            return Some(dir.join("workspace.json"));
        }
        cur = dir.parent();
    }
    None
}

/// The `.jsonl` twin of a flat `<id>.json` session.
pub fn log_twin(path: &Path) -> PathBuf {
    path.with_extension("jsonl")
}

/// The newer copies of a flat `<id>.json` session, any of which makes it the secondary
/// copy: its `.jsonl` twin in the same folder, and for a session at the old empty-window
/// location (`User/workspaceStorage/no-workspace/chatSessions/<id>.json`, which VS Code
/// reads only when the new location has nothing) the new location's
/// `User/globalStorage/emptyWindowChatSessions/<id>.jsonl` and `<id>.json`. A session
/// loaded from a `.json` is written back as a new `.jsonl` and the `.json` stays, so the
/// old copy is the older one.
pub fn newer_copies(path: &Path) -> Vec<PathBuf> {
    let mut out = vec![log_twin(path)];
    let old_location = ends_with(
        path,
        &[
            "User",
            "workspaceStorage",
            "no-workspace",
            "chatSessions",
            "*.json",
        ],
    );
    // `<User>/workspaceStorage/no-workspace/chatSessions/<id>.json`
    let user = path.ancestors().nth(4);
    if let (true, Some(user), Some(name)) = (old_location, user, path.file_name()) {
        let new = user
            .join("globalStorage")
            .join("emptyWindowChatSessions")
            .join(name);
        out.push(new.with_extension("jsonl"));
        out.push(new);
    }
    out
}

/// The path from the last `User` component on, `/`-separated: `User/settings.json`,
/// `User/profiles/1a2b/settings.json`.
pub fn user_relative(path: &Path) -> String {
    let comps = components(path);
    match comps.iter().rposition(|c| c == "User") {
        Some(i) => comps[i..].join("/"),
        None => comps.last().map(|c| c.to_string()).unwrap_or_default(),
    }
}

/// The file name without its extension: a session id, or an editing state's key.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_every_location() {
        let c = |s: &str| classify(Path::new(s));
        assert_eq!(
            c("/e/h/.config/Code/User/workspaceStorage/ab/chatSessions/9.jsonl"),
            Some(FileKind::SessionLog)
        );
        assert_eq!(
            c("/e/h/.config/Code/User/workspaceStorage/ab/chatSessions/9.json"),
            Some(FileKind::SessionJson)
        );
        assert_eq!(
            c("/e/Code/User/workspaceStorage/no-workspace/chatSessions/9.json"),
            Some(FileKind::SessionJson)
        );
        assert_eq!(
            c("/e/Code/User/globalStorage/emptyWindowChatSessions/9.jsonl"),
            Some(FileKind::SessionLog)
        );
        assert_eq!(
            c("/e/Code/User/globalStorage/transferredChatSessions/9.json"),
            Some(FileKind::SessionJson)
        );
        assert_eq!(
            c("/e/Code/User/globalStorage/transferredChatSessions/9.jsonl"),
            None
        );
        assert_eq!(
            c("/e/Code/User/workspaceStorage/ab/workspace.json"),
            Some(FileKind::WorkspaceJson)
        );
        assert_eq!(
            c("/e/Code/User/workspaceStorage/ab/chatEditingSessions/9/state.json"),
            Some(FileKind::EditingState)
        );
        assert_eq!(
            c("/e/Code/User/globalStorage/github.copilot-chat/cloudSessions.json"),
            Some(FileKind::CloudSessions)
        );
        assert_eq!(
            c("/e/Code/User/profiles/1a2b/globalStorage/github.copilot-chat/cloudSessions.json"),
            Some(FileKind::CloudSessions)
        );
        assert_eq!(
            c(
                "/e/Code/User/profiles/builtin/agents/globalStorage/github.copilot-chat/cloudSessions.json"
            ),
            Some(FileKind::CloudSessions)
        );
        assert_eq!(
            c(
                "/e/Code/User/profiles/1a2b/other/globalStorage/github.copilot-chat/cloudSessions.json"
            ),
            None
        );
        assert_eq!(
            c("/e/Code/User/workspaceStorage/ab/github.copilot-chat/cloudSessions.json"),
            None
        );
        assert_eq!(c("/e/Code/User/settings.json"), Some(FileKind::Settings));
        assert_eq!(
            c("/e/Code/User/profiles/1a/settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(
            c("/e/Code/User/profiles/builtin/agents/settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(c("/e/Code/User/workspaceStorage/ab/state.vscdb"), None);
        assert_eq!(c("/e/Code/User/keybindings.json"), None);
    }

    #[test]
    fn siblings() {
        let p = Path::new("/e/Code/User/workspaceStorage/ab/chatSessions/9.json");
        assert_eq!(
            workspace_json_for(p).unwrap(),
            Path::new("/e/Code/User/workspaceStorage/ab/workspace.json")
        );
        assert_eq!(
            log_twin(p),
            Path::new("/e/Code/User/workspaceStorage/ab/chatSessions/9.jsonl")
        );
        assert_eq!(
            newer_copies(p),
            [Path::new(
                "/e/Code/User/workspaceStorage/ab/chatSessions/9.jsonl"
            )]
        );
        assert_eq!(
            newer_copies(Path::new(
                "/e/Code/User/workspaceStorage/no-workspace/chatSessions/9.json"
            )),
            [
                Path::new("/e/Code/User/workspaceStorage/no-workspace/chatSessions/9.jsonl"),
                Path::new("/e/Code/User/globalStorage/emptyWindowChatSessions/9.jsonl"),
                Path::new("/e/Code/User/globalStorage/emptyWindowChatSessions/9.json"),
            ]
        );
        assert_eq!(
            workspace_json_for(Path::new(
                "/e/Code/User/globalStorage/emptyWindowChatSessions/9.json"
            )),
            None
        );
        assert_eq!(
            user_relative(Path::new("/x/Code/User/profiles/1a/settings.json")),
            "User/profiles/1a/settings.json"
        );
        assert_eq!(stem(p), "9");
    }
}
