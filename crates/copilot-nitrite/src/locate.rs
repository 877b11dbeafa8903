//! Where Copilot's JetBrains stores live, and which files this crate claims.
//!
//! The plugin keeps one folder per store under the shared GitHub Copilot config root:
//! `github-copilot/<ide>/<kind>/<storeId>/copilot-*-nitrite.db`. The root is
//! `$XDG_CONFIG_HOME/github-copilot` or `~/.config/github-copilot` on Linux and macOS,
//! and `%LOCALAPPDATA%\github-copilot` on Windows. `<ide>` is a per-IDE folder (`iu`,
//! `intellij`, `PyCharm2025.2`, ...), so it is matched as any name. Claims go by path
//! components only, so `/` and `\` evidence paths both match, and nothing is read.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::{component_matches, components};

/// The store kinds (agent, ask and edit mode, and background agent metadata).
pub const KINDS: [&str; 4] = [
    "chat-agent-sessions",
    "chat-sessions",
    "chat-edit-sessions",
    "bg-agent-sessions",
];

/// What a claimed path is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// A Nitrite store: its kind folder and store id.
    Store {
        /// The kind folder (`chat-agent-sessions` ...).
        kind: String,
        /// The store id folder.
        store_id: String,
    },
    /// A Xodus log beside a store (older plugins): noted, not read.
    Xodus,
}

/// Classifies a path: `github-copilot/<ide>/<kind>/<storeId>/<file>`.
pub fn locate(path: &Path) -> Option<Located> {
    let c = components(path);
    let n = c.len();
    if n < 5 || c[n - 5] != "github-copilot" || !KINDS.contains(&&*c[n - 3]) {
        return None;
    }
    let file = &*c[n - 1];
    let kind = &*c[n - 3];
    if component_matches(file, "*.xd") {
        return Some(Located::Xodus);
    }
    let db = if kind == "bg-agent-sessions" {
        component_matches(file, "*.db")
    } else {
        component_matches(file, "copilot-*") && component_matches(file, "*-nitrite.db")
    };
    db.then(|| Located::Store {
        kind: kind.to_string(),
        store_id: c[n - 2].to_string(),
    })
}

/// The stores of the other kinds with the same store id (for the `projectName` join):
/// `<ide>/<other kind>/<storeId>/copilot-*-nitrite.db` paths that exist.
pub fn sibling_stores(path: &Path, evidence: &chat_rows::Evidence) -> Vec<PathBuf> {
    let Some(Located::Store { kind, store_id }) = locate(path) else {
        return Vec::new();
    };
    let Some(ide_dir) = path.parent().and_then(Path::parent).and_then(Path::parent) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for other in KINDS
        .iter()
        .filter(|k| **k != kind && **k != "bg-agent-sessions")
    {
        let dir = ide_dir.join(other).join(&store_id);
        // listed through the evidence reader: a linked folder out of the root is not
        let Ok(entries) = evidence.read_dir(&dir) else {
            continue;
        };
        out.extend(
            entries
                .into_iter()
                .filter(|p| matches!(locate(p), Some(Located::Store { .. }))),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_by_components() {
        let p = Path::new(
            "/e/lin/home/a/.config/github-copilot/intellij/chat-agent-sessions/abc/copilot-agent-sessions-nitrite.db",
        );
        assert_eq!(
            locate(p),
            Some(Located::Store {
                kind: "chat-agent-sessions".into(),
                store_id: "abc".into()
            })
        );
        let w = Path::new(
            r"C:\Users\c\AppData\Local\github-copilot\iu\chat-sessions\s1\copilot-chat-nitrite.db",
        );
        let w: PathBuf = w.to_string_lossy().split('\\').collect();
        assert!(matches!(locate(&w), Some(Located::Store { .. })));
        let x = Path::new("/h/.config/github-copilot/iu/chat-sessions/s1/00000000000.xd");
        assert_eq!(locate(x), Some(Located::Xodus));
        let bg = Path::new(
            "/h/.config/github-copilot/iu/bg-agent-sessions/s1/copilot-session-metadata.db",
        );
        assert!(matches!(locate(bg), Some(Located::Store { .. })));
        assert_eq!(
            locate(Path::new(
                "/h/.config/github-copilot/iu/other/s1/copilot-x-nitrite.db"
            )),
            None
        );
        assert_eq!(
            locate(Path::new(
                "/h/.config/github-copilot/iu/chat-sessions/s1/notes.db"
            )),
            None
        );
        assert_eq!(locate(Path::new("/h/github-copilot/apps.json")), None);
    }
}
