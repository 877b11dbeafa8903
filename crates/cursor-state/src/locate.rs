//! Which files are Cursor's, and what each one is, from the path alone.
//!
//! The IDE keeps everything under its user data directory (`Cursor/User`, the same
//! layout as VS Code's on every OS: `~/Library/Application Support/Cursor/User`,
//! `%APPDATA%\Cursor\User`, `~/.config/Cursor/User`); the agent CLI under `~/.cursor`
//! (`%USERPROFILE%\.cursor` on Windows), its config file `cli-config.json` there or,
//! when `$XDG_CONFIG_HOME` is set (Linux), under `$XDG_CONFIG_HOME/cursor` (lower-case:
//! `~/.config/cursor`, not the IDE's `~/.config/Cursor`). The rules match the path's last
//! components, so they work on any collection layout and on `/`- or `\`-separated
//! evidence.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::{component_matches, components, ends_with};

/// What a Cursor file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `Cursor/User/globalStorage/state.vscdb`: every chat (`cursorDiskKV`).
    GlobalDb,
    /// `Cursor/User/globalStorage/state.vscdb.backup`: a stale full copy (secondary).
    GlobalBackup,
    /// `Cursor/User/workspaceStorage/<id>/state.vscdb`: a project's chat list and caches.
    WorkspaceDb,
    /// `.cursor/chats/<hash>/<agentId>/store.db` or `.cursor/acp-sessions/<id>/store.db`.
    AgentStore,
    /// `.cursor/chats/<hash>/<agentId>/meta.json` or `.cursor/acp-sessions/<id>/meta.json`:
    /// read on its own only when no `store.db` lies beside it (else the store's reader
    /// reads it); claimed by path alone, whichever the case.
    AgentMeta,
    /// `.cursor/chats/**/prompt_history.json` or `.cursor/acp-sessions/<id>/prompt_history.json`:
    /// raw prompts (secondary).
    PromptHistory,
    /// `.cursor/projects/<p>/agent-transcripts/**/*.jsonl`.
    Transcript,
    /// `.cursor/permissions.json` (the user's, or a project's).
    Permissions,
    /// `~/.cursor/cli-config.json`, `~/.config/cursor/cli-config.json` (the CLI's config
    /// root under `$XDG_CONFIG_HOME`), or a project's `.cursor/cli.json`.
    CliConfig,
    /// `.cursor/projects/<p>/mcp-approvals.json`.
    McpApprovals,
    /// `.cursor/projects/<p>/.workspace-trusted`.
    WorkspaceTrusted,
}

fn in_cursor_user(path: &Path) -> bool {
    let comps = components(path);
    comps
        .iter()
        .rposition(|c| c == "User")
        .and_then(|i| i.checked_sub(1))
        .is_some_and(|i| comps[i] == "Cursor")
}

/// The kind of a Cursor file, or `None`.
pub fn kind(path: &Path) -> Option<Kind> {
    let comps = components(path);
    if in_cursor_user(path) {
        if ends_with(path, &["User", "globalStorage", "state.vscdb"]) {
            return Some(Kind::GlobalDb);
        }
        if ends_with(path, &["User", "globalStorage", "state.vscdb.backup"]) {
            return Some(Kind::GlobalBackup);
        }
        if ends_with(path, &["User", "workspaceStorage", "*", "state.vscdb"]) {
            return Some(Kind::WorkspaceDb);
        }
        return None;
    }
    if is_xdg_config(path) {
        return Some(Kind::CliConfig);
    }
    if ends_with(path, &[".cursor", "chats", "*", "*", "store.db"])
        || ends_with(path, &[".cursor", "acp-sessions", "*", "store.db"])
    {
        return Some(Kind::AgentStore);
    }
    if ends_with(path, &[".cursor", "chats", "*", "*", "meta.json"])
        || ends_with(path, &[".cursor", "acp-sessions", "*", "meta.json"])
    {
        return Some(Kind::AgentMeta);
    }
    let dot = comps.iter().rposition(|c| c == ".cursor")?;
    let rest = &comps[dot + 1..];
    match rest {
        [f] if f == "permissions.json" => Some(Kind::Permissions),
        [f] if f == "cli-config.json" || f == "cli.json" => Some(Kind::CliConfig),
        [c, .., f] if c == "chats" && f == "prompt_history.json" => Some(Kind::PromptHistory),
        [c, _, f] if c == "acp-sessions" && f == "prompt_history.json" => Some(Kind::PromptHistory),
        [p, _, f] if p == "projects" && f == "mcp-approvals.json" => Some(Kind::McpApprovals),
        [p, _, f] if p == "projects" && f == ".workspace-trusted" => Some(Kind::WorkspaceTrusted),
        [p, _, t, .., f]
            if p == "projects" && t == "agent-transcripts" && component_matches(f, "*.jsonl") =>
        {
            Some(Kind::Transcript)
        }
        _ => None,
    }
}

/// The CLI's config files that live in its config root rather than its data root: only
/// `cli-config.json` (`permissions.json` is the data folder's, `~/.cursor`).
pub const CONFIG_ROOT_FILES: &[&str] = &["cli-config.json"];

/// True for a CLI config-root file under `.config/cursor` (`$XDG_CONFIG_HOME/cursor` with
/// `XDG_CONFIG_HOME` at its default, `~/.config`): `~/.config/cursor/cli-config.json`.
/// The folder name is matched as the CLI writes it, lower-case, so nothing under the
/// IDE's `~/.config/Cursor` is taken for it. Such a file is the user's, never a
/// project's.
pub fn is_xdg_config(path: &Path) -> bool {
    CONFIG_ROOT_FILES
        .iter()
        .any(|f| ends_with(path, &[".config", "cursor", f]))
}

/// True when a `.cursor` folder is a user's home one, not a project's: `home/<u>/.cursor`,
/// `Users/<u>/.cursor`, `C/Users/<u>/.cursor`, and the root user's, wherever they lie in
/// the evidence path: `root/.cursor` (Linux `/root`, macOS `/var/root`),
/// `systemprofile/.cursor` (Windows `...\System32\config\systemprofile`) and
/// `ServiceProfiles/<service>/.cursor` (Windows `LocalService`, `NetworkService`).
pub fn is_home_dot_cursor(path: &Path) -> bool {
    let comps = components(path);
    let Some(dot) = comps.iter().rposition(|c| c == ".cursor") else {
        return false;
    };
    let above = |n: usize| dot.checked_sub(n).map(|i| &*comps[i]);
    matches!(above(2), Some("home" | "Users"))
        || above(1) == Some("root")
        || above(1).is_some_and(|c| c.eq_ignore_ascii_case("systemprofile"))
        || above(2).is_some_and(|c| c.eq_ignore_ascii_case("ServiceProfiles"))
}

/// The folder that holds a project's `.cursor` (the project), as found.
pub fn project_of_dot_cursor(path: &Path) -> Option<PathBuf> {
    let mut p = path;
    while let Some(parent) = p.parent() {
        if p.file_name().is_some_and(|n| n == ".cursor") {
            return Some(parent.to_path_buf());
        }
        p = parent;
    }
    None
}

/// A folder as the user knew it: from the home's `home`/`Users` component on
/// (`/Users/bob/src/web`, `C:/Users/carol/src/shop`), or from the super-user's home
/// `root` (`/root/src/app`, since 2026-12-05: a server's projects often live there; a
/// `root` inside `home` is a user's folder), else the path as found.
pub fn as_on_host(path: &Path) -> String {
    let comps = components(path);
    let home = comps
        .iter()
        .position(|c| c == "home" || c == "Users")
        .or_else(|| {
            comps.iter().enumerate().position(|(i, c)| {
                c == "root" && (i == 0 || comps[i - 1] != "home") && i + 1 < comps.len()
            })
        });
    match home {
        Some(i) => {
            let drive = i
                .checked_sub(1)
                .map(|d| &*comps[d])
                .filter(|d| d.len() == 1 && d.chars().all(|c| c.is_ascii_alphabetic()));
            match drive {
                Some(d) => format!("{d}:/{}", comps[i..].join("/")),
                None => format!("/{}", comps[i..].join("/")),
            }
        }
        None => chat_rows::display_path(path),
    }
}

/// The `.cursor` folder above a path.
pub fn dot_cursor(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == ".cursor"))
        .map(Path::to_path_buf)
}

/// The `User` folder above a path.
pub fn user_dir(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "User"))
        .map(Path::to_path_buf)
}

/// The path from the last `.cursor` or `User` component on, `/`-joined, as the
/// `(from ...)` suffixes print it.
pub fn short_path(path: &Path) -> String {
    let comps = components(path);
    match comps.iter().rposition(|c| c == ".cursor" || c == "User") {
        Some(i) => comps[i..].join("/"),
        None => comps.last().map(|c| c.to_string()).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_as_on_its_host() {
        let on = |p: &str| as_on_host(Path::new(p));
        assert_eq!(on("cases/HOST1/home/alice/src/api"), "/home/alice/src/api");
        assert_eq!(
            on("cases/HOST1/C/Users/carol/src/shop"),
            "C:/Users/carol/src/shop"
        );
        // the super-user's home (before 2026-12-05: the path as found)
        assert_eq!(on("cases/HOST1/root/src/app"), "/root/src/app");
        assert_eq!(on("cases/HOST1/home/root/src/app"), "/home/root/src/app");
        // a project outside any home keeps the path as found
        assert_eq!(on("cases/HOST1/srv/app"), "cases/HOST1/srv/app");
    }

    #[test]
    fn kinds() {
        let k = |p: &str| kind(Path::new(p));
        assert_eq!(
            k("h/Users/b/Library/Application Support/Cursor/User/globalStorage/state.vscdb"),
            Some(Kind::GlobalDb)
        );
        assert_eq!(
            k("h/C/Users/c/AppData/Roaming/Cursor/User/globalStorage/state.vscdb.backup"),
            Some(Kind::GlobalBackup)
        );
        assert_eq!(
            k("h/home/a/.config/Cursor/User/workspaceStorage/abc/state.vscdb"),
            Some(Kind::WorkspaceDb)
        );
        assert_eq!(
            k("h/home/a/.config/Code/User/globalStorage/state.vscdb"),
            None
        );
        assert_eq!(
            k("h/home/a/.cursor/chats/0f1e/agent-1/store.db"),
            Some(Kind::AgentStore)
        );
        assert_eq!(
            k("h/home/a/.cursor/acp-sessions/s1/store.db"),
            Some(Kind::AgentStore)
        );
        assert_eq!(
            k("h/home/a/.cursor/chats/0f1e/agent-1/meta.json"),
            Some(Kind::AgentMeta)
        );
        assert_eq!(
            k("h/home/a/.cursor/acp-sessions/s1/meta.json"),
            Some(Kind::AgentMeta)
        );
        assert_eq!(
            k("h/home/a/.cursor/acp-sessions/s1/prompt_history.json"),
            Some(Kind::PromptHistory)
        );
        assert_eq!(
            k("h/home/a/.cursor/chats/0f1e/prompt_history.json"),
            Some(Kind::PromptHistory)
        );
        assert_eq!(k("h/home/a/.cursor/chats/0f1e/meta.json"), None);
        assert_eq!(k("h/home/a/.cursor/acp-sessions/s1/pasted_text.json"), None);
        assert_eq!(
            k("h/home/a/.cursor/projects/p/agent-transcripts/x/x.jsonl"),
            Some(Kind::Transcript)
        );
        assert_eq!(
            k("h/home/a/.cursor/projects/p/agent-transcripts/x.jsonl"),
            Some(Kind::Transcript)
        );
        assert_eq!(
            k("h/home/a/.cursor/permissions.json"),
            Some(Kind::Permissions)
        );
        assert_eq!(
            k("h/home/a/src/web/.cursor/cli.json"),
            Some(Kind::CliConfig)
        );
        assert_eq!(
            k("h/home/a/.cursor/projects/p/mcp-approvals.json"),
            Some(Kind::McpApprovals)
        );
        assert_eq!(
            k("h/home/a/.cursor/projects/p/.workspace-trusted"),
            Some(Kind::WorkspaceTrusted)
        );
        assert_eq!(k("h/home/a/.cursor/mcp.json"), None);
        assert_eq!(k("h/home/a/.cursor/projects/p/mcp-auth.json"), None);
        assert!(is_home_dot_cursor(Path::new(
            "h/home/a/.cursor/permissions.json"
        )));
        assert!(!is_home_dot_cursor(Path::new(
            "h/home/a/src/web/.cursor/permissions.json"
        )));
        for home in [
            "h/root/.cursor/permissions.json",
            "/cases/c1/h/root/.cursor/cli-config.json",
            "root/.cursor/permissions.json",
            "h/var/root/.cursor/permissions.json",
            "h/C/Windows/System32/config/systemprofile/.cursor/permissions.json",
            "h/C/WINDOWS/SysWOW64/config/SystemProfile/.cursor/permissions.json",
            "h/C/Windows/ServiceProfiles/LocalService/.cursor/permissions.json",
        ] {
            assert!(is_home_dot_cursor(Path::new(home)), "{home}");
        }
        for project in [
            "h/root/src/app/.cursor/permissions.json",
            "h/var/www/site/.cursor/cli.json",
            "h/C/Windows/System32/config/systemprofile/src/app/.cursor/cli.json",
            ".cursor/permissions.json",
        ] {
            assert!(!is_home_dot_cursor(Path::new(project)), "{project}");
        }
    }

    /// The CLI's config root under XDG, `~/.config/cursor` (lower-case), holds its
    /// `cli-config.json` and nothing else this crate reads; the IDE's `~/.config/Cursor`
    /// (capital C) is located as before.
    #[test]
    fn the_cli_config_root_under_xdg() {
        let k = |p: &str| kind(Path::new(p));
        assert_eq!(
            k("home/u/.config/cursor/cli-config.json"),
            Some(Kind::CliConfig)
        );
        assert_eq!(
            k("/cases/c1/h/root/.config/cursor/cli-config.json"),
            Some(Kind::CliConfig)
        );
        assert!(is_xdg_config(Path::new(
            "home/u/.config/cursor/cli-config.json"
        )));
        // the data root's files and a project's file are not the config root's
        for other in [
            "home/u/.config/cursor/permissions.json",
            "home/u/.config/cursor/cli.json",
            "home/u/.config/cursor/chats/h1/agent-1/store.db",
            "home/u/.config/cursor/chats/h1/agent-1/meta.json",
            "home/u/.config/cursor/chats/h1/prompt_history.json",
            "home/u/.config/cursor/projects/p/agent-transcripts/x.jsonl",
            "home/u/.config/cursor/projects/p/mcp-approvals.json",
            "home/u/.config/cursor/cli-config.json.bad",
            "home/u/.config/Cursor/cli-config.json",
            "home/u/cursor/cli-config.json",
        ] {
            assert_eq!(k(other), None, "{other}");
        }
        // the IDE's user data folder on Linux, as before
        assert_eq!(
            k("home/u/.config/Cursor/User/globalStorage/state.vscdb"),
            Some(Kind::GlobalDb)
        );
        assert_eq!(
            k("home/u/.config/Cursor/User/globalStorage/state.vscdb.backup"),
            Some(Kind::GlobalBackup)
        );
        assert_eq!(
            k("home/u/.config/Cursor/User/workspaceStorage/abc/state.vscdb"),
            Some(Kind::WorkspaceDb)
        );
        assert_eq!(
            k("home/u/.config/Cursor/User/globalStorage/cli-config.json"),
            None
        );
        assert!(!is_xdg_config(Path::new(
            "home/u/.config/Cursor/User/globalStorage/state.vscdb"
        )));
    }
}
