//! Which files are VS Code state databases, and what scope each one is.
//!
//! The scope matters to a responder: a grant in a workspace database applies to that
//! folder only (its `workspace.json` says which), one in a profile's global database to
//! every window of that profile, and the Agents window keeps a profile of its own. The
//! same layout holds under every fork's user data directory (`Code`, `Cursor`,
//! `VSCodium`, `Windsurf`, `.vscode-server/data` ...), so the rules match on the path's
//! last components only.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::{components, ends_with};

/// The scope of a state database, from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `User/globalStorage/state.vscdb`: the default profile (and application scope).
    Global,
    /// `User/profiles/<id>/globalStorage/state.vscdb`: a named profile.
    Profile(String),
    /// `User/profiles/builtin/agents/globalStorage/state.vscdb`: the Agents window.
    AgentsWindow,
    /// `User/profiles/builtin/<id>/globalStorage/state.vscdb`: another built-in profile
    /// (the spec's `profiles/[builtin/]<id>`; `agents` is the only one seen so far).
    BuiltinProfile(String),
    /// `User/workspaceStorage/<hash>/state.vscdb`: one workspace.
    Workspace(String),
}

/// The scope of a state database path, or `None` when the path is not one.
pub fn scope(path: &Path) -> Option<Scope> {
    let comps = components(path);
    let n = comps.len();
    if ends_with(
        path,
        &[
            "User",
            "profiles",
            "builtin",
            "*",
            "globalStorage",
            "state.vscdb",
        ],
    ) {
        match &*comps[n - 3] {
            "agents" => Some(Scope::AgentsWindow),
            id => Some(Scope::BuiltinProfile(id.to_string())),
        }
    } else if ends_with(
        path,
        &["User", "profiles", "*", "globalStorage", "state.vscdb"],
    ) {
        Some(Scope::Profile(comps[n - 3].to_string()))
    } else if ends_with(path, &["User", "globalStorage", "state.vscdb"]) {
        Some(Scope::Global)
    } else if ends_with(path, &["User", "workspaceStorage", "*", "state.vscdb"]) {
        Some(Scope::Workspace(comps[n - 2].to_string()))
    } else {
        None
    }
}

/// The path from the last `User` component on, `/`-joined:
/// `User/globalStorage/state.vscdb`, as the `(from User/<path>, ...)` suffixes print it.
pub fn user_relative(path: &Path) -> String {
    let comps = components(path);
    match comps.iter().rposition(|c| c == "User") {
        Some(i) => comps[i..].join("/"),
        None => comps.last().map(|c| c.to_string()).unwrap_or_default(),
    }
}

/// The `workspace.json` beside a workspace database.
pub fn workspace_json(db: &Path) -> PathBuf {
    db.with_file_name("workspace.json")
}

/// The path a `workspace.json` names: its `folder` URI, else its `workspace` (a
/// `.code-workspace` file) URI, as a path. `None` when it names neither.
///
/// This is the Cursor plan's rule (`cursor.md`: the `folder`/`workspace` URI), kept for
/// `cursor-state`. This crate's own rows follow `vscode.txt`, which takes the `folder`
/// only and never the workspace file: see [`vscode_chat_log::rows::files::workspace`].
pub fn project_from_workspace_json(bytes: &[u8]) -> Option<String> {
    let v: serde_json::Value = chat_rows::json::from_slice(bytes).ok()?;
    ["folder", "workspace"]
        .iter()
        .find_map(|k| v.get(*k).and_then(chat_rows::uri::value_to_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes() {
        let s = |p: &str| scope(Path::new(p));
        assert_eq!(
            s("/h/.config/Code/User/globalStorage/state.vscdb"),
            Some(Scope::Global)
        );
        assert_eq!(
            s("/h/.config/Code/User/profiles/-5f2a/globalStorage/state.vscdb"),
            Some(Scope::Profile("-5f2a".into()))
        );
        assert_eq!(
            s("/h/.config/Code/User/profiles/builtin/agents/globalStorage/state.vscdb"),
            Some(Scope::AgentsWindow)
        );
        assert_eq!(
            s("/h/.config/Code/User/profiles/builtin/review/globalStorage/state.vscdb"),
            Some(Scope::BuiltinProfile("review".into()))
        );
        assert_eq!(
            s("C:/Users/c/AppData/Roaming/Code/User/workspaceStorage/abc123/state.vscdb"),
            Some(Scope::Workspace("abc123".into()))
        );
        assert_eq!(
            s("/h/.config/Code/User/globalStorage/state.vscdb.backup"),
            None
        );
        assert_eq!(s("/h/.config/Code/User/workspaceStorage/state.vscdb"), None);
        assert_eq!(s("/h/db/state.vscdb"), None);
        assert_eq!(
            user_relative(Path::new(
                "/h/.config/Code/User/workspaceStorage/abc/state.vscdb"
            )),
            "User/workspaceStorage/abc/state.vscdb"
        );
    }

    #[test]
    fn workspace_json_folder() {
        assert_eq!(
            project_from_workspace_json(br#"{"folder":"file:///home/alice/src/api"}"#).as_deref(),
            Some("/home/alice/src/api")
        );
        assert_eq!(
            project_from_workspace_json(
                br#"{"workspace":"file:///c%3A/Users/carol/w.code-workspace"}"#
            )
            .as_deref(),
            Some("c:\\Users\\carol\\w.code-workspace")
        );
        assert_eq!(project_from_workspace_json(b"{}"), None);
        assert_eq!(project_from_workspace_json(b"nope"), None);
    }
}
