//! Where CodeBuddy Code and WorkBuddy keep their sessions, decided from a path alone.
//!
//! The agent's config home is `$CODEBUDDY_CONFIG_DIR`, else `~/.codebuddy`; WorkBuddy
//! runs the same agent with its home at `~/.workbuddy` (workbuddy.cn), `~/.workbuddy-ai`
//! (WorkBuddy AI) or `$WORKBUDDY_CONFIG_DIR`. Under a home the layout is always:
//!
//! ```text
//! <home>/projects/<mangled-cwd>/<session-id>.jsonl          the session
//! <home>/projects/<mangled-cwd>/<session-id>.meta.json      its meta side file
//! <home>/projects/<mangled-cwd>/<session-id>/subagents/agent-<8 hex>.jsonl
//! <home>/projects/<mangled-cwd>/<session-id>/subagents/agent-<8 hex>.meta.json
//! <home>/projects/<mangled-cwd>/<session-id>/tool-results/...   persisted outputs
//! ```
//!
//! A scanner sees only paths, and an environment-configured home can have any name, so
//! the rule is: the folder above `projects` is `.codebuddy`, `.workbuddy` or
//! `.workbuddy-ai`, or any folder whose name contains `codebuddy` or `workbuddy`
//! (case-insensitive); and the project folder must be a name the agent's mangling can
//! produce (no leading or trailing dash, no run of dashes). The second test is what
//! keeps Claude Code's look-alike store (`~/.claude/projects/-home-u-proj/...`, with its
//! leading dash) out even when a home is oddly named. The mangling is lossy, so it is
//! used only to recognise folders: a row's project comes from its record's `cwd`.

use std::path::Path;

use session_tree::locate::Family;
pub use session_tree::locate::{FileKind, Location, sibling, sibling_display};

/// The CodeBuddy and WorkBuddy tree: their homes, their project-key rule, sub-agent
/// files directly under `subagents/`.
pub const FAMILY: Family = Family {
    is_home,
    is_project_key: is_mangled,
    nested_subagents: false,
};

/// True for a folder name that can be a CodeBuddy or WorkBuddy home (see the module docs).
pub fn is_home(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        ".codebuddy" | ".workbuddy" | ".workbuddy-ai"
    ) || lower.contains("codebuddy")
        || lower.contains("workbuddy")
}

/// The agent's folder name for a working directory: each `/`, `\` and `:` becomes `-`,
/// leading and trailing dashes are stripped and runs of dashes collapsed.
/// `/home/u/proj` becomes `home-u-proj`, `c:\Users\carol\src\app` `c-Users-carol-src-app`.
pub fn mangle(cwd: &str) -> String {
    let replaced: String = cwd
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':') {
                '-'
            } else {
                c
            }
        })
        .collect();
    let mut out = String::with_capacity(replaced.len());
    for c in replaced.trim_matches('-').chars() {
        if c == '-' && out.ends_with('-') {
            continue;
        }
        out.push(c);
    }
    out
}

/// True when `name` is a folder name [`mangle`] can produce.
pub fn is_mangled(name: &str) -> bool {
    !name.is_empty() && mangle(name) == name
}

/// Recognises a CodeBuddy file by its path. Never touches the file system.
pub fn locate(path: &Path) -> Option<Location> {
    FAMILY.locate(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangling_matches_the_source_rule() {
        assert_eq!(mangle("/home/u/proj"), "home-u-proj");
        assert_eq!(mangle(r"c:\Users\carol\src\app"), "c-Users-carol-src-app");
        assert_eq!(mangle("/srv//a--b/"), "srv-a-b");
        assert_eq!(mangle("/home/u/my.proj_x"), "home-u-my.proj_x");
        assert!(is_mangled("home-u-proj"));
        assert!(!is_mangled("-home-u-proj"));
        assert!(!is_mangled("C--Users-x"));
        assert!(!is_mangled(""));
    }

    #[test]
    fn claims_sessions_subagents_and_metas() {
        let p = Path::new("/ev/h/home/alice/.codebuddy/projects/home-alice-src/3f6c.jsonl");
        let l = locate(p).unwrap();
        assert_eq!(l.kind, FileKind::Session);
        assert_eq!(l.home, ".codebuddy");
        assert_eq!(l.project_dir, "home-alice-src");
        assert_eq!(l.session_id, "3f6c");
        let p = Path::new("/u/.workbuddy-ai/projects/Users-bob/3f6c.meta.json");
        assert_eq!(locate(p).unwrap().kind, FileKind::SessionMeta);
        let p = Path::new("/u/.workbuddy/projects/Users-bob/3f6c/subagents/agent-1a2b3c4d.jsonl");
        let l = locate(p).unwrap();
        assert_eq!(l.kind, FileKind::Subagent);
        assert_eq!(l.session_id, "3f6c");
        assert_eq!(l.agent_id.as_deref(), Some("agent-1a2b3c4d"));
        let p =
            Path::new("/u/.workbuddy/projects/Users-bob/3f6c/subagents/agent-1a2b3c4d.meta.json");
        assert_eq!(locate(p).unwrap().kind, FileKind::SubagentMeta);
        // a configured home whose name says what it is
        let p = Path::new("/opt/MyCodeBuddyHome/projects/srv-app/s.jsonl");
        assert_eq!(locate(p).unwrap().home, "MyCodeBuddyHome");
    }

    #[test]
    fn refuses_look_alikes() {
        for p in [
            "/u/.claude/projects/-home-u-proj/s.jsonl",
            "/u/.codebuddy/projects/-home-u-proj/s.jsonl",
            "/u/.codebuddy/history.jsonl",
            "/u/.codebuddy/projects/home-u/s.json",
            "/u/.codebuddy/projects/home-u/.jsonl",
            "/u/.codebuddy/projects/-home-u/s/tool-results/out.txt",
            "/u/.claude/projects/home-u/s/tool-results/out.txt",
            "/u/.codebuddy/projects/home-u/s/subagents/notes.jsonl",
            "/u/.codebuddy/projects/home-u/s/subagents/agent-.jsonl",
            "/u/.other/projects/home-u/s.jsonl",
        ] {
            assert_eq!(locate(Path::new(p)), None, "{p}");
        }
    }

    #[test]
    fn sibling_display_keeps_the_separator() {
        assert_eq!(
            sibling_display("a/b/s.jsonl", "s.meta.json"),
            "a/b/s.meta.json"
        );
        assert_eq!(
            sibling_display(r"a\b\s.jsonl", "s/tool-results/x.txt"),
            r"a\b\s\tool-results\x.txt"
        );
        assert_eq!(sibling_display("s.jsonl", "s.meta.json"), "s.meta.json");
    }
}
