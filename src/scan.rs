//! The scanner: walk evidence roots, offer each file to the store crates, read the
//! claimed files in parallel, and return rows in a deterministic order.
//!
//! Determinism matters in forensics: two runs over the same evidence must give the
//! same output, whatever the thread count, so a diff between runs means the evidence
//! changed. Files are sorted by path, each claimed file is read independently on the
//! rayon pool, and the results are put back in file order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store, Timestamp, TurnType};
use rayon::prelude::*;
use time::UtcOffset;

use crate::layout::{self, Attribution};
use crate::locations;

/// What went wrong before any file could be read.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// A root does not exist or cannot be listed.
    #[error("cannot read evidence root {path}: {source}")]
    Root {
        /// The root.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// Requested threads.
        threads: usize,
        /// Why.
        message: String,
    },
}

/// A file that a store claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFile {
    /// The file's path.
    pub path: PathBuf,
    /// The root it was found under.
    pub root: PathBuf,
    /// The claiming store's name.
    pub store: &'static str,
    /// The kind of file, as the store names it.
    pub kind: &'static str,
    /// Host and user read off the path.
    pub attribution: Attribution,
    /// The editor product whose user data directory holds the file, if any.
    pub product: Option<&'static str>,
}

/// What reading one file gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// The store that read it.
    pub store: &'static str,
    /// The kind of file.
    pub kind: &'static str,
    /// Rows it gave (before the agent and time filters).
    pub rows: usize,
    /// `parser:` rows among them.
    pub parser_rows: usize,
}

/// The result of a scan.
#[derive(Debug, Default)]
pub struct ScanResult {
    /// The rows, in deterministic order (by file, then store, then the store's order).
    pub rows: Vec<Row>,
    /// One report per (file, store) read.
    pub files: Vec<FileReport>,
    /// Rows left out by the `--since`/`--until` range, and of those, rows without a time.
    pub filtered_by_time: usize,
    /// Of `filtered_by_time`, rows without a time (a range cannot place them).
    pub untimed_filtered: usize,
    /// Rows left out by the agent filter.
    pub filtered_by_agent: usize,
    /// Secondary rows dropped because a primary row of the same host, user, session,
    /// turn type and text exists within 2 s (see [`chat_rows::merge`]); 0 with
    /// [`Scanner::keep_copies`].
    pub merged_copies: usize,
    /// Every evidence file read, for the chain-of-custody manifest.
    pub manifest: Vec<chat_rows::ManifestEntry>,
}

/// Directory names never descended into: caches, VCS data, package trees, and the
/// bulky Tabby folders the spec excludes (model weights, index, clones).
const PRUNE: &[&str] = &[
    "node_modules",
    ".git",
    ".hg",
    ".svn",
    "target",
    "__pycache__",
    ".venv",
];

fn pruned(path: &Path, name: &str) -> bool {
    if PRUNE.contains(&name) {
        return true;
    }
    // ~/.tabby/{models,index,repositories}
    matches!(name, "models" | "index" | "repositories")
        && path
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|p| p == ".tabby" || p == "_data")
}

/// Builder and runner of scans. See the crate docs for an example.
pub struct Scanner {
    roots: Vec<PathBuf>,
    agents: Vec<String>,
    since: Option<Timestamp>,
    until: Option<Timestamp>,
    threads: usize,
    host_offset: Option<UtcOffset>,
    keep_copies: bool,
    default_host: String,
    stores: Vec<Box<dyn Store>>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner::new()
    }
}

impl Scanner {
    /// A scanner with every registered store, no roots yet, all agents, no time range.
    pub fn new() -> Scanner {
        Scanner {
            roots: Vec::new(),
            agents: Vec::new(),
            since: None,
            until: None,
            threads: 0,
            host_offset: None,
            keep_copies: false,
            default_host: String::new(),
            stores: crate::stores::all(),
        }
    }

    /// Adds an evidence root: a home, a folder of homes, or a collection tree.
    pub fn root(mut self, root: impl Into<PathBuf>) -> Scanner {
        self.roots.push(root.into());
        self
    }

    /// Keeps only rows of this agent (`vscode`, `cursor`, `cody`, `tabby`, `copilot`,
    /// `codebuddy` ...). May be given several times.
    pub fn agent(mut self, agent: impl Into<String>) -> Scanner {
        self.agents.push(agent.into());
        self
    }

    /// Keeps only rows at or after this time (rows without a time are left out, and counted).
    pub fn since(mut self, t: Timestamp) -> Scanner {
        self.since = Some(t);
        self
    }

    /// Keeps only rows at or before this time (rows without a time are left out, and counted).
    pub fn until(mut self, t: Timestamp) -> Scanner {
        self.until = Some(t);
        self
    }

    /// Worker threads (0: one per core).
    pub fn threads(mut self, n: usize) -> Scanner {
        self.threads = n;
        self
    }

    /// The evidence host's UTC offset, for stores that record zone-less local times.
    pub fn host_offset(mut self, offset: UtcOffset) -> Scanner {
        self.host_offset = Some(offset);
        self
    }

    /// Keeps secondary copies of primary rows (a legacy history's copy of a chat the
    /// agent store still holds, a backup's copy of a live row) instead of merging them
    /// away. Secondary rows without a primary twin are always kept.
    pub fn keep_copies(mut self, keep: bool) -> Scanner {
        self.keep_copies = keep;
        self
    }

    /// The host to name when the layout names none (live triage of this machine's home).
    pub fn default_host(mut self, host: impl Into<String>) -> Scanner {
        self.default_host = host.into();
        self
    }

    /// Replaces the registered stores (for tests and for embedding a subset).
    pub fn stores(mut self, stores: Vec<Box<dyn Store>>) -> Scanner {
        self.stores = stores;
        self
    }

    /// Lists every file a store claims under the roots, sorted by path, then store order.
    /// Reads no file content.
    pub fn discover(&self) -> Result<Vec<FoundFile>, ScanError> {
        let mut found = Vec::new();
        for root in &self.roots {
            let meta = std::fs::metadata(root).map_err(|source| ScanError::Root {
                path: root.clone(),
                source,
            })?;
            if meta.is_dir() {
                std::fs::read_dir(root).map_err(|source| ScanError::Root {
                    path: root.clone(),
                    source,
                })?;
            }
            let mut paths: Vec<PathBuf> = walkdir::WalkDir::new(root)
                .follow_links(false)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|e| {
                    !(e.file_type().is_dir()
                        && e.depth() > 0
                        && pruned(e.path(), &e.file_name().to_string_lossy()))
                })
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(|e| e.into_path())
                .collect();
            paths.sort();
            for path in paths {
                for store in &self.stores {
                    if let Some(claim) = store.claim(&path) {
                        found.push(FoundFile {
                            attribution: layout::attribute_file(root, &path),
                            product: locations::editor_product(&path),
                            path: path.clone(),
                            root: root.clone(),
                            store: store.name(),
                            kind: claim.kind,
                        });
                    }
                }
            }
        }
        Ok(found)
    }

    fn context(&self, f: &FoundFile) -> FileContext {
        FileContext {
            host: if f.attribution.host.is_empty() {
                self.default_host.clone()
            } else {
                f.attribution.host.clone()
            },
            user: f.attribution.user.clone(),
            product: f.product.map(str::to_string),
            host_offset: self.host_offset,
            display_path: f.path.display().to_string(),
        }
    }

    /// Reads every claimed file, with `progress` called after each file (for a progress bar).
    pub fn run_with_progress(
        &self,
        progress: impl Fn(&FoundFile) + Sync,
    ) -> Result<ScanResult, ScanError> {
        let found = self.discover()?;
        let evidence = Evidence::new();
        let store_of = |name: &str| self.stores.iter().find(|s| s.name() == name);
        let read = |f: &FoundFile| -> (FileReport, Vec<Row>) {
            let ctx = self.context(f);
            let mut rows = match store_of(f.store) {
                Some(store) => store.read(&f.path, &ctx, &evidence),
                None => Vec::new(),
            };
            for r in &mut rows {
                if r.host.is_empty() {
                    r.host.clone_from(&ctx.host);
                }
                if r.user.is_empty() {
                    r.user.clone_from(&ctx.user);
                }
                if r.source_file.is_empty() {
                    r.source_file.clone_from(&ctx.display_path);
                }
            }
            progress(f);
            let report = FileReport {
                path: f.path.clone(),
                store: f.store,
                kind: f.kind,
                rows: rows.len(),
                parser_rows: rows.iter().filter(|r| r.is_parser()).count(),
            };
            (report, rows)
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| ScanError::Threads {
                threads: self.threads,
                message: e.to_string(),
            })?;
        let per_file: Vec<(FileReport, Vec<Row>)> =
            pool.install(|| found.par_iter().map(read).collect());
        let mut result = ScanResult::default();
        for (report, rows) in per_file {
            result.files.push(report);
            for row in rows {
                if !self.agents.is_empty() && !self.agents.contains(&row.agent) {
                    result.filtered_by_agent += 1;
                    continue;
                }
                if self.since.is_some() || self.until.is_some() {
                    let keep = match row.timestamp {
                        None => {
                            result.untimed_filtered += 1;
                            false
                        }
                        Some(t) => {
                            self.since
                                .is_none_or(|s| t.unix_micros() >= s.unix_micros())
                                && self
                                    .until
                                    .is_none_or(|u| t.unix_micros() <= u.unix_micros())
                        }
                    };
                    if !keep {
                        result.filtered_by_time += 1;
                        continue;
                    }
                }
                result.rows.push(row);
            }
        }
        if !self.keep_copies {
            let rows = std::mem::take(&mut result.rows);
            let (rows, dropped) =
                chat_rows::merge::merge_secondary(rows, chat_rows::merge::DEFAULT_WINDOW_MICROS);
            result.rows = rows;
            result.merged_copies = dropped;
        }
        result.manifest = evidence.manifest();
        Ok(result)
    }

    /// Reads every claimed file. See [`Scanner::run_with_progress`].
    pub fn run(&self) -> Result<ScanResult, ScanError> {
        self.run_with_progress(|_| {})
    }
}

/// Counts for the end-of-scan summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files read per store.
    pub files_per_store: BTreeMap<&'static str, usize>,
    /// Rows per turn type.
    pub rows_per_turn_type: BTreeMap<&'static str, usize>,
    /// `parser:` rows.
    pub parser_rows: usize,
    /// Rows without a time.
    pub untimed_rows: usize,
    /// Rows in all.
    pub rows: usize,
}

impl ScanResult {
    /// The summary the CLI prints.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for f in &self.files {
            *s.files_per_store.entry(f.store).or_default() += 1;
        }
        for t in TurnType::ALL {
            s.rows_per_turn_type.insert(t.as_str(), 0);
        }
        for r in &self.rows {
            *s.rows_per_turn_type
                .entry(r.turn_type.as_str())
                .or_default() += 1;
            s.parser_rows += usize::from(r.is_parser());
            s.untimed_rows += usize::from(r.timestamp.is_none());
        }
        s.rows = self.rows.len();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chat_rows::{Claim, store::paths};

    #[derive(Default)]
    struct Probe;
    impl Store for Probe {
        fn name(&self) -> &'static str {
            "probe"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["*.probe"]).then_some(Claim { kind: "probe file" })
        }
        fn read(&self, path: &Path, _ctx: &FileContext, evidence: &Evidence) -> Vec<Row> {
            let bytes = evidence.read(path).unwrap_or_default();
            chat_rows::lines::lines(&bytes)
                .map(|l| {
                    let text = l.text_lossy().into_owned();
                    let ts = text
                        .split_once(' ')
                        .and_then(|(ms, _)| ms.parse().ok())
                        .and_then(Timestamp::from_epoch_millis);
                    Row::new("probe", TurnType::User, text)
                        .at(ts)
                        .line(l.number)
                })
                .collect()
        }
    }

    fn tree() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(home.join("node_modules")).unwrap();
        std::fs::write(home.join("b.probe"), "1700000000000 b1\nno time\n").unwrap();
        std::fs::write(home.join("a.probe"), "1600000000000 a1\n").unwrap();
        std::fs::write(home.join("node_modules/x.probe"), "1 pruned\n").unwrap();
        std::fs::write(home.join("c.other"), "ignored\n").unwrap();
        d
    }

    #[test]
    fn deterministic_order_independent_of_threads() {
        let d = tree();
        let run = |threads| {
            Scanner::new()
                .stores(vec![Box::new(Probe)])
                .root(d.path())
                .threads(threads)
                .run()
                .unwrap()
        };
        let one = run(1);
        let four = run(4);
        assert_eq!(one.rows, four.rows);
        let texts: Vec<_> = one.rows.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["1600000000000 a1", "1700000000000 b1", "no time"]);
        assert_eq!(one.rows[0].host, "h1");
        assert_eq!(one.rows[0].user, "zed");
        assert!(one.rows[0].source_file.ends_with("a.probe"));
        assert_eq!(one.files.len(), 2);
        assert_eq!(one.manifest.len(), 2);
        let s = one.summary();
        assert_eq!(s.untimed_rows, 1);
        assert_eq!(s.rows_per_turn_type["user"], 3);
    }

    #[test]
    fn time_and_agent_filters_count_what_they_leave_out() {
        let d = tree();
        let r = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .since(Timestamp::from_epoch_millis(1_650_000_000_000).unwrap())
            .run()
            .unwrap();
        assert_eq!(r.rows.len(), 1);
        assert_eq!((r.filtered_by_time, r.untimed_filtered), (2, 1));
        let r = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .agent("cody")
            .run()
            .unwrap();
        assert_eq!((r.rows.len(), r.filtered_by_agent), (0, 3));
    }

    #[derive(Default)]
    struct Copies;
    impl Store for Copies {
        fn name(&self) -> &'static str {
            "copies"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["*.probe"]).then_some(Claim { kind: "copy" })
        }
        fn read(&self, path: &Path, ctx: &FileContext, evidence: &Evidence) -> Vec<Row> {
            Probe
                .read(path, ctx, evidence)
                .into_iter()
                .map(|r| r.secondary(true))
                .collect()
        }
    }

    #[test]
    fn secondary_copies_are_merged_across_files_unless_kept() {
        let d = tree();
        let stores = || -> Vec<Box<dyn Store>> { vec![Box::new(Probe), Box::new(Copies)] };
        let merged = Scanner::new()
            .stores(stores())
            .root(d.path())
            .run()
            .unwrap();
        assert_eq!(merged.rows.len(), 3);
        assert_eq!(merged.merged_copies, 3);
        assert!(merged.rows.iter().all(|r| !r.secondary));
        let kept = Scanner::new()
            .stores(stores())
            .root(d.path())
            .keep_copies(true)
            .run()
            .unwrap();
        assert_eq!((kept.rows.len(), kept.merged_copies), (6, 0));
    }

    #[test]
    fn the_default_host_names_rows_the_layout_does_not() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("x.probe"), "1700000000000 x\n").unwrap();
        let r = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .default_host("triage-box")
            .run()
            .unwrap();
        assert_eq!(r.rows[0].host, "triage-box");
        let r = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(tree().path())
            .default_host("triage-box")
            .run()
            .unwrap();
        assert_eq!(r.rows[0].host, "h1");
    }

    #[test]
    fn missing_root_is_an_error() {
        let e = Scanner::new()
            .root("/definitely/not/here")
            .discover()
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot read evidence root /definitely/not/here:")
        );
    }
}
