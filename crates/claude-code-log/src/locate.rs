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

use std::path::Path;

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
}

/// Recognises a Claude Code file by its path. Never touches the file system.
pub fn locate(path: &Path) -> Option<ClaudeFile> {
    if let Some(loc) = FAMILY.locate(path) {
        return Some(ClaudeFile::Tree(loc));
    }
    let comps = components(path);
    let n = comps.len();
    let name = comps.last()?.as_str();
    let parent = |i: usize| n.checked_sub(i + 1).map(|j| comps[j].as_str());
    let home_at = |i: usize| parent(i).is_some_and(is_home);
    match name {
        "history.jsonl" if home_at(1) => Some(ClaudeFile::History),
        "parent-transcript.jsonl" if parent(2) == Some("jobs") && home_at(3) => {
            Some(ClaudeFile::JobTranscript)
        }
        ".claude.json" if n >= 2 => Some(ClaudeFile::GlobalState),
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
        _ if name.ends_with(".json")
            && parent(1) == Some("sessions")
            && home_at(2)
            && name[..name.len() - 5].bytes().all(|b| b.is_ascii_digit())
            && name.len() > 5 =>
        {
            Some(ClaudeFile::SessionRegister)
        }
        _ => None,
    }
}

/// True when the folders end in a user's home (`home/<u>`, `Users/<u>`, `root`).
fn is_user_home(dirs: &[String]) -> bool {
    let n = dirs.len();
    (n >= 2 && matches!(dirs[n - 2].as_str(), "home" | "Users" | "users"))
        || dirs.last().is_some_and(|d| d == "root")
}

/// True for the managed-settings folders of the three OS layouts.
fn is_managed_dir(dirs: &[String]) -> bool {
    let n = dirs.len();
    let last = |k: usize| n.checked_sub(k + 1).map(|i| dirs[i].as_str());
    (last(0) == Some("claude-code") && last(1) == Some("etc"))
        || (last(0) == Some("ClaudeCode")
            && (last(1) == Some("Application Support") || last(1) == Some("Program Files")))
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
        ] {
            assert_eq!(t(p), None, "{p}");
        }
    }
}
