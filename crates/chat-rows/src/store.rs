//! How a store crate plugs into the scanner.
//!
//! The facade walks evidence roots and knows *where* stores live (the user data
//! directories of VS Code and its forks, `~/.tabby`, `github-copilot`, ...); it never
//! knows *formats*. Each store crate implements [`Store`]: it says which files it
//! claims ([`Store::claim`]) and turns a claimed file into rows ([`Store::read`]).
//! This keeps store crates independent of the facade: they depend on this crate only.

use std::path::Path;

use time::UtcOffset;

use crate::evidence::Evidence;
use crate::row::Row;

/// What a store says about a file it claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// A short name of the file's kind, for `--list`: `chat session log`, `state database` ...
    pub kind: &'static str,
}

/// What the scanner knows about a file from where it was found.
#[derive(Clone, Debug, Default)]
pub struct FileContext {
    /// The evidence host, from the collection layout (empty when unknown).
    pub host: String,
    /// The user whose home holds the file (empty when unknown).
    pub user: String,
    /// The product the location names, when the location tells: `vscode`, `cursor`,
    /// `vscodium`, `windsurf` ... Stores use it for the `agent` of editor-hosted rows.
    pub product: Option<String>,
    /// The host's UTC offset, when the responder supplied it (for zone-less times).
    pub host_offset: Option<UtcOffset>,
    /// The path to show in `source_file`: the file's path as found under the root.
    pub display_path: String,
}

/// A store crate's reader, registered with the scanner.
pub trait Store: Send + Sync {
    /// The store's name: `vscode-chat-log`, `state-vscdb`, `cody-history` ...
    fn name(&self) -> &'static str;

    /// Claims a file by its path, or returns `None`. Must not read the file.
    fn claim(&self, path: &Path) -> Option<Claim>;

    /// Reads a claimed file into rows. Never panics and never fails as a whole: damage
    /// becomes `parser:` rows. All reads go through `evidence`.
    fn read(&self, path: &Path, ctx: &FileContext, evidence: &Evidence) -> Vec<Row>;
}

/// Path helpers for [`Store::claim`] implementations: matching on components, so the
/// same rule works for `/`- and `\`-separated evidence.
pub mod paths {
    use std::path::Path;

    /// The path's components as strings (lossy), in order.
    pub fn components(path: &Path) -> Vec<String> {
        path.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    }

    /// True when the path's last components match `pattern` (from the end), where `*`
    /// matches any one component and `*.ext` any name ending in `.ext`.
    pub fn ends_with(path: &Path, pattern: &[&str]) -> bool {
        let comps = components(path);
        if comps.len() < pattern.len() {
            return false;
        }
        comps[comps.len() - pattern.len()..]
            .iter()
            .zip(pattern)
            .all(|(c, p)| component_matches(c, p))
    }

    /// Matches one component against `*`, `*.ext`, `prefix*` or a literal.
    pub fn component_matches(c: &str, p: &str) -> bool {
        if p == "*" {
            true
        } else if let Some(suffix) = p.strip_prefix('*') {
            c.ends_with(suffix) && c.len() > suffix.len()
        } else if let Some(prefix) = p.strip_suffix('*') {
            c.starts_with(prefix)
        } else {
            c == p
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn matches_from_the_end() {
            let p = Path::new(
                "/ev/h/home/u/.config/Code/User/workspaceStorage/abc/chatSessions/1.jsonl",
            );
            assert!(ends_with(
                p,
                &["User", "workspaceStorage", "*", "chatSessions", "*.jsonl"]
            ));
            assert!(!ends_with(
                p,
                &["User", "globalStorage", "*", "chatSessions", "*.jsonl"]
            ));
            assert!(!ends_with(
                Path::new("a.jsonl"),
                &["chatSessions", "*.jsonl"]
            ));
            assert!(component_matches("db.backup-2024.sqlite", "db.backup-*"));
            assert!(!component_matches(".jsonl", "*.jsonl"));
        }
    }
}
