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
    /// True when the file may give secondary rows (copies of rows that another file
    /// holds as primary). The scanner indexes a unit's primary rows for the merge only
    /// when one of its files says so, so the merge costs nothing elsewhere.
    pub copies: bool,
    /// True for a marker file, whose presence is the evidence (Cursor's
    /// `.workspace-trusted` is written empty): the scanner hands it to the store even
    /// when it is empty, instead of reporting an empty file with nothing to read.
    pub marker: bool,
}

impl Claim {
    /// A claim of a file that gives primary rows only.
    pub const fn new(kind: &'static str) -> Claim {
        Claim {
            kind,
            copies: false,
            marker: false,
        }
    }

    /// The same claim, for a file that may give secondary rows.
    pub const fn with_copies(mut self) -> Claim {
        self.copies = true;
        self
    }

    /// The same claim, for a marker file that is read even when empty.
    pub const fn marker(mut self) -> Claim {
        self.marker = true;
        self
    }
}

/// What the scanner knows about a file from where it was found.
///
/// The per-file fields of a row (`host`, `user`, `source_file`) live here once per
/// file: a store may leave them empty in its rows, and every writer and the collected
/// form fill them from the context ([`FileContext::fill`]).
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
    /// The path to show in `source_file`: the file's path as found under the root,
    /// shown with [`crate::evidence::display_path`].
    pub display_path: String,
    /// When the evidence was collected (UTC), when known: the responder's
    /// `--collected-at`, or the scan's own time for live triage. Stores whose rows
    /// depend on it (a retention period counted back from the collection) give no such
    /// row without it.
    pub collected_at: Option<crate::when::Timestamp>,
}

impl FileContext {
    /// The row's host, or the file's when the row names none.
    pub fn host_of<'a>(&'a self, row: &'a Row) -> &'a str {
        if row.host.is_empty() {
            &self.host
        } else {
            &row.host
        }
    }

    /// The row's user, or the file's when the row names none.
    pub fn user_of<'a>(&'a self, row: &'a Row) -> &'a str {
        if row.user.is_empty() {
            &self.user
        } else {
            &row.user
        }
    }

    /// The `source_file` of the rows of the file at `path`: the scanner's display path
    /// ([`FileContext::display_path`]), else the file as `evidence` names it (a store
    /// read on its own, with no scanner around it).
    pub fn source_file(&self, path: &Path, evidence: &Evidence) -> String {
        if self.display_path.is_empty() {
            evidence.shown(path)
        } else {
            self.display_path.clone()
        }
    }

    /// The row's source file, or the file's path when the row names none.
    pub fn source_of<'a>(&'a self, row: &'a Row) -> &'a str {
        if row.source_file.is_empty() {
            &self.display_path
        } else {
            &row.source_file
        }
    }

    /// Fills the row's empty per-file fields from the context (for the collected form).
    pub fn fill(&self, row: &mut Row) {
        if row.host.is_empty() {
            row.host.clone_from(&self.host);
        }
        if row.user.is_empty() {
            row.user.clone_from(&self.user);
        }
        if row.source_file.is_empty() {
            row.source_file.clone_from(&self.display_path);
        }
    }
}

/// Where a store hands its rows, one at a time, as it makes them.
///
/// A store that builds owned rows calls [`RowSink::push`]; a store that lends a row
/// whose buffers it reuses for the next (VS Code's `for_each_row`) calls
/// [`RowSink::lend`], and the sink copies only what it keeps. `Vec<Row>` is a sink.
pub trait RowSink {
    /// Takes a row the store gives away.
    fn push(&mut self, row: Row);

    /// Takes a borrowed row; the default copies it into [`RowSink::push`].
    fn lend(&mut self, row: &Row) {
        self.push(row.clone());
    }
}

impl RowSink for Vec<Row> {
    fn push(&mut self, row: Row) {
        Vec::push(self, row);
    }
}

/// A store crate's reader, registered with the scanner.
pub trait Store: Send + Sync {
    /// The store's name: `vscode-chat-log`, `state-vscdb`, `cody-history` ...
    fn name(&self) -> &'static str;

    /// Claims a file by its path, or returns `None`. Must not read the file.
    fn claim(&self, path: &Path) -> Option<Claim>;

    /// Claims a file by its path and the files found beside it, for a store whose
    /// files are named too commonly to be claimed by path alone except where their
    /// neighbours say whose they are (a Copilot CLI home of any name holds
    /// `session-store.db` beside `session-state/<uuid>/`). The scanner's discovery calls
    /// this; the default is [`Store::claim`]. Must not read any file.
    fn claim_in(&self, path: &Path, walked: &Walked<'_>) -> Option<Claim> {
        let _ = walked;
        self.claim(path)
    }

    /// Reads a claimed file, handing each row to `sink` as it is made. Never panics
    /// and never fails as a whole: damage becomes `parser:` rows. All reads go through
    /// `evidence`. Rows may leave `host`, `user` and `source_file` empty: they are the
    /// file's, from `ctx`.
    fn read_into(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
    );

    /// The agent of the rows this store gives for a file: what the scanner names in a
    /// row it makes for the file itself (an empty file, a panic). The default is the
    /// product the location names, or the store's name.
    fn agent(&self, ctx: &FileContext) -> String {
        ctx.product
            .clone()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| self.name().to_string())
    }

    /// The collected form of [`Store::read_into`]: every row of the file, in order.
    fn read(&self, path: &Path, ctx: &FileContext, evidence: &Evidence) -> Vec<Row> {
        let mut rows = Vec::new();
        self.read_into(path, ctx, evidence, &mut rows);
        rows
    }
}

/// The files a discovery walk found under one root, for [`Store::claim_in`]: a sorted
/// list of paths, so the files under a folder are one contiguous run.
/// It borrows the walk's own paths: a collection of millions of files is not copied.
#[derive(Debug, Default)]
pub struct Walked<'p> {
    files: Vec<&'p Path>,
    answers: std::sync::Mutex<std::collections::HashMap<String, bool>>,
}

impl<'p> Walked<'p> {
    /// The walk's files (sorted here).
    pub fn new(mut files: Vec<&'p Path>) -> Walked<'p> {
        files.sort();
        Walked {
            files,
            answers: Default::default(),
        }
    }

    /// A yes-or-no fact about the walked tree, worked out once per key: what a claim
    /// asks of many files' shared folder (does this home hold session folders?) costs
    /// one look at the folder, not one per file. Keys are namespaced by the caller.
    pub fn remember(&self, key: &str, compute: impl FnOnce() -> bool) -> bool {
        if let Some(v) = self
            .answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
        {
            return *v;
        }
        let v = compute();
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.to_string(), v);
        v
    }

    /// The files found under `dir`, at any depth, in order.
    pub fn under<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = &'p Path> + 'a {
        let from = self.files.partition_point(|f| *f < dir);
        self.files[from..]
            .iter()
            .copied()
            .take_while(move |f| f.starts_with(dir))
    }
}

/// Path helpers for [`Store::claim`] implementations: matching on components, so the
/// same rule works for `/`- and `\`-separated evidence.
pub mod paths {
    use std::borrow::Cow;
    use std::path::Path;

    /// The path's components as strings (lossy), in order.
    ///
    /// Borrowed from the path where it is UTF-8: discovery offers every file under the
    /// roots to every store, and a component copied each time was most of its cost.
    pub fn components(path: &Path) -> Vec<Cow<'_, str>> {
        path.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect()
    }

    /// True when the path's last components match `pattern` (from the end), where `*`
    /// matches any one component and `*.ext` any name ending in `.ext`.
    ///
    /// Discovery asks every store about every file under the roots, so this walks the
    /// components from the end and allocates nothing for a UTF-8 path.
    pub fn ends_with(path: &Path, pattern: &[&str]) -> bool {
        let mut comps = path.components().rev();
        pattern.iter().rev().all(|p| {
            comps
                .next()
                .is_some_and(|c| component_matches(&c.as_os_str().to_string_lossy(), p))
        })
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

#[cfg(test)]
mod walked_tests {
    use super::Walked;
    use std::path::{Path, PathBuf};

    #[test]
    fn the_files_under_a_folder_are_one_run() {
        let paths: Vec<PathBuf> = ["a/b.c/x", "a/b/y/z", "a/ba", "a/b/x", "a/a", "b"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let walked = Walked::new(paths.iter().map(PathBuf::as_path).collect());
        let under: Vec<&Path> = walked.under(Path::new("a/b")).collect();
        assert_eq!(under, [Path::new("a/b/x"), Path::new("a/b/y/z")]);
        assert_eq!(walked.under(Path::new("a/c")).count(), 0);
        assert_eq!(walked.under(Path::new("a")).count(), 5);
        // a fact is worked out once per key
        let mut runs = 0;
        for _ in 0..3 {
            assert!(walked.remember("x: a/b", || {
                runs += 1;
                walked.under(Path::new("a/b")).count() == 2
            }));
        }
        assert!(!walked.remember("x: a/c", || walked.under(Path::new("a/c")).count() > 0));
        assert_eq!(runs, 1);
    }
}

#[cfg(test)]
mod context_tests {
    use super::FileContext;
    use crate::evidence::Evidence;
    use std::path::Path;

    #[test]
    fn a_file_is_named_by_the_scanner_else_by_the_evidence_reader() {
        let evidence = Evidence::new();
        let path = Path::new("/ev/home/alice/.claude/history.jsonl");
        let alone = FileContext::default();
        assert_eq!(
            alone.source_file(path, &evidence),
            "/ev/home/alice/.claude/history.jsonl"
        );
        let scanned = FileContext {
            display_path: "WS7.zip/home/alice/.claude/history.jsonl".into(),
            ..FileContext::default()
        };
        assert_eq!(
            scanned.source_file(path, &evidence),
            "WS7.zip/home/alice/.claude/history.jsonl"
        );
    }
}
