//! The scanner: walk evidence roots, offer each file to the store crates, read the
//! claimed files in parallel, and stream rows out in a deterministic order.
//!
//! # Why it streams
//!
//! A case can be hundreds of hosts and tens of gigabytes. The scanner never holds the
//! case: each store hands its rows to a sink as it makes them ([`Store::read_into`]),
//! worker threads read files while the caller's thread writes, and what is held at any
//! time is bounded by the number of workers, not by the size of the collection.
//!
//! # The order, and why it is the same for every thread count
//!
//! Two runs over the same evidence must give the same bytes, so a diff between runs
//! means the evidence changed. The order is:
//!
//! 1. **Units** (a host, or a root whose layout names no host), in the order of their
//!    first file by path.
//! 2. **Files** of a unit, by path, then in store registration order.
//! 3. **Rows** of a file grouped by session (sessions in the order the file first names
//!    them) and sorted by time within each session; a row without a time stays right
//!    after the row the store gave before it. A file whose rows pass
//!    [`HOLD_BUDGET`] bytes is written from then on in chunks, each sorted the same way.
//! 4. **Secondary rows** (copies of rows another source holds as primary) of a unit
//!    last, after the unit's primary rows, in file order; those whose primary twin
//!    exists are merged away (see [`chat_rows::merge`]). Only these are held until
//!    the unit ends, and only in a unit with a file that may hold copies
//!    ([`chat_rows::Claim::copies`]); elsewhere the merge costs nothing. Past a budget
//!    their bytes wait in the temporary folder, not in memory (see `held.rs`).
//!
//! Workers take files in this order, so the file being written is always being read
//! (or read already), and a worker that runs ahead waits once it has
//! [`CHUNKS_IN_FLIGHT`] chunks ready.
//!
//! # What cannot be read is still a row
//!
//! An unreadable folder, a link that discovery does not follow, an empty store file,
//! and a store that panics on a file each become one `parser:` row naming the path, are
//! counted in the report, and the scan goes on.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use chat_rows::evidence::EntryKind;
use chat_rows::merge::{DEFAULT_WINDOW_MICROS, TwinIndex, loose_key, twin_key};
use chat_rows::write::{Format, WriteStats, csv_header_into, format_row};
use chat_rows::{Evidence, FileContext, Row, RowSink, Store, Timestamp, TurnType, system};
use time::UtcOffset;

use crate::held::{HELD_BUDGET, HeldBytes, HeldReader};
use crate::layout::{self, Attribution};
use crate::locations;

/// Bytes of a file's rows held to sort them before the first chunk is written.
pub const HOLD_BUDGET: usize = 16 << 20;
/// Bytes of rows per chunk once a file streams.
const CHUNK_BYTES: usize = 1 << 20;
/// Chunks a worker may have ready before it waits for the writer.
pub const CHUNKS_IN_FLIGHT: usize = 4;
/// How many of a prompt's first lines are also indexed as its text, for copies that
/// kept only those lines.
const LOOSE_PREFIXES: usize = 8;
/// Files each worker may run ahead of the writer.
pub const FILES_AHEAD_PER_WORKER: usize = 64;
/// Bytes of rows made ahead of the writer, at most, before a worker waits to start a
/// new file (the file the writer needs next is always started). With
/// [`FILES_AHEAD_PER_WORKER`], the bound on what waits to be written: it depends on the
/// worker count, never on the size of the collection.
pub const PENDING_BUDGET: usize = 32 << 20;
/// Worker threads at most, per core.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The agent of the rows the scanner itself makes (unreadable folders, links).
pub const SCANNER_AGENT: &str = "scanner";

/// What went wrong before any file could be read, or while writing.
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
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// Requested threads.
        threads: usize,
        /// Why.
        message: String,
    },
    /// The sink (the output) failed; the scan stopped.
    #[error("writing output: {0}")]
    Output(#[source] std::io::Error),
    /// An output folder or file, or the temporary folder, would be written into an
    /// evidence root, through a link, or over a file with another name
    /// ([`crate::guard::refused`]); nothing was written there.
    #[error("{why}")]
    OutputRefused {
        /// The path refused.
        path: PathBuf,
        /// Why, as the guard says it.
        why: String,
    },
}

/// A file that a store claims, or a path the scanner could not walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFile {
    /// The file's path.
    pub path: PathBuf,
    /// The root it was found under.
    pub root: PathBuf,
    /// The claiming store's name ([`SCANNER_AGENT`] for a problem).
    pub store: &'static str,
    /// The kind of file, as the store names it.
    pub kind: &'static str,
    /// Host and user read off the path.
    pub attribution: Attribution,
    /// The editor product whose user data directory holds the file, if any.
    pub product: Option<&'static str>,
    /// True when the store says the file may hold secondary copies.
    pub copies: bool,
    /// For a path that could not be walked or a link not followed: why.
    pub problem: Option<String>,
    /// The file's size when discovery saw it (an empty store file is one `parser:` row
    /// without opening it); `None` for a marker file ([`chat_rows::Claim::marker`]),
    /// which the store reads even when empty.
    pub len: Option<u64>,
    /// For the file a single compressed file holds (`history.jsonl` of
    /// `history.jsonl.gz`, standing at `path` beside it): the compressed file.
    pub compressed: Option<PathBuf>,
}

impl FoundFile {
    /// The file's path as its rows and the manifest name it: [`FoundFile::path`],
    /// or, for the file a single compressed file holds, that file's path joined with
    /// its name (`.../history.jsonl.gz/history.jsonl`).
    pub fn shown(&self) -> String {
        chat_rows::display_path(&self.shown_path())
    }

    /// [`FoundFile::shown`] as a path (no file on disk for a compressed file's).
    pub fn shown_path(&self) -> PathBuf {
        match (&self.compressed, self.path.file_name()) {
            (Some(c), Some(name)) => c.join(name),
            _ => self.path.clone(),
        }
    }
}

/// What reading one file gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileReport {
    /// The file, as its rows name it ([`FoundFile::shown_path`]).
    pub path: PathBuf,
    /// The store that read it.
    pub store: &'static str,
    /// The kind of file.
    pub kind: &'static str,
    /// Rows it gave (before the agent and time filters).
    pub rows: usize,
    /// `parser:` rows among them.
    pub parser_rows: usize,
    /// True when the store panicked on the file (the rows before it are kept).
    pub panicked: bool,
}

/// Counts for the end-of-scan summary, of the rows written.
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

impl Summary {
    fn count(&mut self, turn: TurnType, parser: bool, untimed: bool) {
        *self.rows_per_turn_type.entry(turn.as_str()).or_default() += 1;
        self.parser_rows += usize::from(parser);
        self.untimed_rows += usize::from(untimed);
        self.rows += 1;
    }

    fn remove(&mut self, other: &Summary) {
        for (k, v) in &other.rows_per_turn_type {
            if let Some(n) = self.rows_per_turn_type.get_mut(k) {
                *n -= v;
            }
        }
        self.parser_rows -= other.parser_rows;
        self.untimed_rows -= other.untimed_rows;
        self.rows -= other.rows;
    }

    fn add(&mut self, other: &Summary) {
        for (k, v) in &other.rows_per_turn_type {
            *self.rows_per_turn_type.entry(k).or_default() += v;
        }
        self.parser_rows += other.parser_rows;
        self.untimed_rows += other.untimed_rows;
        self.rows += other.rows;
    }
}

/// Everything a scan tells besides its rows.
#[derive(Debug, Default)]
pub struct ScanReport {
    /// One report per (file, store) read, and one per problem path.
    pub files: Vec<FileReport>,
    /// Paths that could not be walked, and links that discovery does not follow, with why.
    pub problems: Vec<(String, String)>,
    /// Roots left out because another root holds them (each file is read once).
    pub overlapping_roots: Vec<PathBuf>,
    /// Rows left out by the `--since`/`--until` range.
    pub filtered_by_time: usize,
    /// Of `filtered_by_time`, rows without a time (a range cannot place them).
    pub untimed_filtered: usize,
    /// Rows left out by the agent filter.
    pub filtered_by_agent: usize,
    /// Secondary rows dropped because a primary row of the same host, user, session,
    /// turn type and text exists within 2 s (see [`chat_rows::merge`]); 0 with
    /// [`Scanner::keep_copies`].
    pub merged_copies: usize,
    /// Files on which a store panicked (each gave a `parser:` row).
    pub panics: usize,
    /// `parser:` rows left out because another store reading the same file gave the
    /// same row, field for field (Cursor's global `state.vscdb` is read by two stores:
    /// when it cannot be opened, both say so in the same words); each is written once.
    pub repeated_parser_rows: usize,
    /// Every evidence file read, for the chain-of-custody manifest.
    pub manifest: Vec<chat_rows::ManifestEntry>,
    /// Folders listed in a way that may have set their access time, each once: on Linux those
    /// whose owner the scan is not (without root's `CAP_FOWNER` the kernel refuses
    /// `O_NOATIME`), and every folder on systems without it. A file's own is in its
    /// manifest entry ([`ScanReport::files_access_time_not_kept`]).
    pub folders_access_time_not_kept: usize,
    /// Archives the walk met and did not open, in path order: by default only those
    /// given as roots, named as a collection tool names its output (UAC, Velociraptor),
    /// or at the top of an archive opened before (a root, or one so named) are read as
    /// folders ([`Scanner::open_archives`] changes which). None of them was read; the CLI
    /// names them in its summary so that a collection under another name is not
    /// passed over unseen (give it as a root).
    pub archives_not_opened: Vec<PathBuf>,
    /// Bytes of held secondary copies (see [`ScanReport::merged_copies`]) that went to
    /// unnamed files in the temporary folder ([`Scanner::temp_dir`]) rather than stay in
    /// memory until their unit ended.
    pub held_bytes_spilled: u64,
    /// Counts of the rows written.
    pub counts: Summary,
    /// What a writer wrote ([`Scanner::write_to`]); zero otherwise.
    pub write: WriteStats,
}

impl ScanReport {
    /// How many files were read in a way that may have set their access time (their
    /// [`chat_rows::ManifestEntry::access_time_kept`] is false).
    pub fn files_access_time_not_kept(&self) -> usize {
        self.manifest.iter().filter(|m| !m.access_time_kept).count()
    }

    /// The summary the CLI prints.
    pub fn summary(&self) -> Summary {
        let mut s = self.counts.clone();
        for t in TurnType::ALL {
            s.rows_per_turn_type.entry(t.as_str()).or_insert(0);
        }
        for f in self.files.iter().filter(|f| f.store != SCANNER_AGENT) {
            *s.files_per_store.entry(f.store).or_default() += 1;
        }
        s
    }
}

/// The collected result of a scan: every row, with its per-file fields filled in, and
/// the report (its fields are reachable directly: `result.manifest`).
#[derive(Debug, Default)]
pub struct ScanResult {
    /// The rows, in the scanner's order (see the module docs).
    pub rows: Vec<Row>,
    /// Everything else.
    pub report: ScanReport,
}

impl std::ops::Deref for ScanResult {
    type Target = ScanReport;
    fn deref(&self) -> &ScanReport {
        &self.report
    }
}

/// Directory names never descended into: caches, VCS data, package trees, and the
/// bulky Tabby folders the spec excludes (model weights, index, clones). No assistant
/// writes its store there, and a home can hold millions of their files.
const PRUNE: &[&str] = &[
    "node_modules",
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
];

fn pruned(path: &Path, name: &str) -> bool {
    if PRUNE.contains(&name) {
        return true;
    }
    // a Cargo build folder, known by the files Cargo writes in it; any other `target`
    // (a user, a case or a collection named so) is walked
    if name == "target" {
        return ["CACHEDIR.TAG", ".rustc_info.json"]
            .iter()
            .any(|f| std::fs::symlink_metadata(path.join(f)).is_ok_and(|m| m.is_file()));
    }
    // ~/.tabby/{models,index,repositories}
    matches!(name, "models" | "index" | "repositories")
        && path
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|p| p == ".tabby" || p == "_data")
}

/// Why a folder is the running system's kernel view rather than files, when it is:
/// `proc` or `sys` mounted on a device of its own (a live scan of `/`). Their links to
/// every process's root and working folder were 1,800 `parser:` rows of a scan of `/`,
/// and they hold no evidence; one row names each instead. A `proc` or `sys` folder of a
/// collection or a mounted image (on the device of its parent) is walked as any folder.
#[cfg(unix)]
fn kernel_filesystem(path: &Path, name: &str) -> Option<&'static str> {
    use std::os::unix::fs::MetadataExt;
    let what = match name {
        "proc" => "the running system's process filesystem (proc)",
        "sys" => "the running system's kernel filesystem (sysfs)",
        _ => return None,
    };
    let dev = std::fs::symlink_metadata(path).ok()?.dev();
    let parent = std::fs::symlink_metadata(path.parent()?).ok()?.dev();
    (dev != parent).then_some(what)
}

#[cfg(not(unix))]
fn kernel_filesystem(_path: &Path, _name: &str) -> Option<&'static str> {
    None
}

/// The folders a walk has entered, by device and inode: a folder shown again under
/// another path (a bind mount, a macOS firmlink such as `/System/Volumes/Data/Users`
/// for `/Users` in a live scan of `/`) is not entered again, so its files are read once
/// and a bind mount of a folder inside itself cannot make the walk endless. A copied
/// collection has no such folders. Nothing on other systems (Windows junctions are
/// links, which the walk does not follow).
///
/// The device and inode are compared with the rest of the folder's status (links,
/// owner, size, modification and change times to the nanosecond), and an inode 0 is
/// never taken as one: a network or FUSE file system that numbers inodes poorly must
/// not make two folders one.
#[derive(Default)]
struct SeenFolders {
    #[cfg(unix)]
    first: HashMap<FolderId, PathBuf>,
}

/// A folder's identity for [`SeenFolders`].
#[cfg(unix)]
type FolderId = (u64, u64, u32, u64, u32, u32, u64, i64, i64, i64, i64);

impl SeenFolders {
    /// The path the folder was first entered by, when it was; else notes it.
    #[cfg(unix)]
    fn seen(&mut self, path: &Path, m: Option<&std::fs::Metadata>) -> Option<PathBuf> {
        use std::os::unix::fs::MetadataExt;
        let m = m?;
        if m.ino() == 0 {
            return None;
        }
        let id = (
            m.dev(),
            m.ino(),
            m.mode(),
            m.nlink(),
            m.uid(),
            m.gid(),
            m.size(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
        );
        match self.first.entry(id) {
            std::collections::hash_map::Entry::Occupied(o) => Some(o.get().clone()),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(path.to_path_buf());
                None
            }
        }
    }

    #[cfg(not(unix))]
    fn seen(&mut self, _path: &Path, _m: Option<&std::fs::Metadata>) -> Option<PathBuf> {
        None
    }
}

/// What the walk met besides the folders it entered.
enum Met {
    /// A file, link, FIFO, socket or device (a folder is asked of `enter` instead).
    Entry {
        path: PathBuf,
        depth: usize,
        kind: EntryKind,
    },
    /// A folder that could not be listed.
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// The host a Velociraptor collection's `client_info.json` at `info` names
/// ([`layout::host_of_client_info`]), read through the evidence reader (so it has its
/// manifest entry). `None` when there is no such file (the collection's folder then
/// names the host); otherwise the host if it names one, and why not if it does not:
/// the folder names the host then, and the file is named in a row.
fn collection_host(evidence: &Evidence, info: &Path) -> Option<(Option<String>, Option<String>)> {
    /// Velociraptor writes a few hundred bytes; a larger file is not read whole.
    const CAP: u64 = 1 << 20;
    if evidence.status(info, false) != Some(EntryKind::File) {
        return None;
    }
    let why = |what: String| {
        Some(format!(
            "the collection's client_info.json not read for its host ({what}); its folder names the host"
        ))
    };
    let size = evidence.check(info).map(|c| c.size);
    Some(match size {
        Ok(size) if size > CAP => (
            None,
            why(format!(
                "{size} bytes, over the {CAP}-byte cap of this file"
            )),
        ),
        Ok(_) => match evidence.read(info) {
            Ok(bytes) => match layout::host_of_client_info(&bytes) {
                Some(host) => (Some(host), None),
                None => (
                    None,
                    why("no JSON object with a Hostname or Fqdn".to_string()),
                ),
            },
            Err(e) => (None, why(e.to_string())),
        },
        Err(e) => (None, why(e.to_string())),
    })
}

/// What discovery found under the roots.
struct Discovered {
    /// The files to read (and the paths not read), in the scanner's order.
    found: Vec<FoundFile>,
    /// The folders listed in a way that may have set their access time.
    folders_not_kept: std::collections::BTreeSet<PathBuf>,
    /// The archives met and not opened ([`ScanReport::archives_not_opened`]).
    archives_not_opened: Vec<PathBuf>,
}

/// How discovery lists a folder on disk: through the evidence reader, so a folder
/// met is still inside the roots once it is open (one above it swapped for a link out
/// of the root is refused, [`Evidence::list`]).
fn lister(
    evidence: &Evidence,
) -> impl FnMut(&Path, bool) -> std::io::Result<chat_rows::evidence::Listing> + '_ {
    |dir, follow| evidence.list(dir, follow)
}

/// Walks `root` depth first, each folder's entries in name order, following no link
/// below the root (not even a folder swapped for a link after its parent was listed:
/// it is opened with `O_NOFOLLOW` and met as unreadable). `enter` is asked of every
/// folder (the root too) whether to list it, by its path; `admit` whether to go into
/// it once it is listed, by the status of the folder actually listed (taken from its
/// open handle); everything else, and each folder that could not be listed, goes to
/// `met`; a file goes into the walk as a folder when `descend` says so (an archive
/// it opened). Folders are listed by `list` (discovery's is [`lister`]: the evidence
/// reader's [`chat_rows::Evidence::list`], which lists a folder on disk with
/// `O_NOATIME` where the kernel permits it, and a folder of an archive from its
/// directory), so a live walk does not set the access
/// time of every folder it passes (`walkdir`, used until 2026-12-02, lists through
/// `std::fs::read_dir`, which does). Returns the folders listed without it.
fn walk(
    root: &Path,
    root_kind: EntryKind,
    list: &mut dyn FnMut(&Path, bool) -> std::io::Result<chat_rows::evidence::Listing>,
    descend: &mut dyn FnMut(&Path, usize) -> bool,
    enter: &mut dyn FnMut(&Path, usize) -> bool,
    admit: &mut dyn FnMut(&Path, Option<&std::fs::Metadata>) -> bool,
    met: &mut dyn FnMut(Met),
) -> Vec<PathBuf> {
    let mut not_kept = Vec::new();
    // what is still to be met, the next on top: a folder's entries are pushed in
    // reverse name order, so they come off in name order, each folder's own entries
    // before its next sibling (the order `walkdir` gave)
    let mut pending = vec![(root.to_path_buf(), 0usize, root_kind)];
    while let Some((path, depth, kind)) = pending.pop() {
        // a file may be an archive the walk goes into as a folder
        let kind = if kind == EntryKind::File && descend(&path, depth) {
            EntryKind::Folder
        } else {
            kind
        };
        if kind != EntryKind::Folder {
            met(Met::Entry { path, depth, kind });
            continue;
        }
        if !enter(&path, depth) {
            continue;
        }
        // below the root, a folder is not followed if it became a link since it was listed
        match list(&path, depth == 0) {
            Ok(listing) => {
                if !listing.access_time_kept {
                    not_kept.push(path.clone());
                }
                if !admit(&path, listing.status.as_ref()) {
                    continue;
                }
                pending.extend(
                    listing
                        .entries
                        .into_iter()
                        .rev()
                        .map(|(p, k)| (p, depth + 1, k)),
                );
            }
            Err(error) => met(Met::Unreadable { path, error }),
        }
    }
    not_kept
}

/// True for a root read as an archive: a regular file (or a link to one) whose name
/// ends in `.zip`, `.7z`, `.rar`, `.tar`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tar.xz`, `.tar.zst`, `.vhdx`, `.vhd`, `.E01`, `.dd` ...
/// in any case ([`chat_rows::ArchiveKind::EXTENSIONS`]).
pub fn is_archive_root(path: &Path) -> bool {
    path.file_name()
        .and_then(chat_rows::ArchiveKind::of_name)
        .is_some()
        && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// The number of cores, at least 1.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The worker count a request gives: 0 means one per core; more than
/// [`MAX_THREADS_PER_CORE`] per core is capped (more only adds memory and switching).
pub fn effective_threads(requested: usize) -> usize {
    let cores = cores();
    match requested {
        0 => cores,
        n => n.min(cores * MAX_THREADS_PER_CORE),
    }
}

/// What the walk did with a single compressed store file
/// ([`Scanner::compressed_store_file`]).
enum Unpacked {
    /// Opened: the file it holds stands at this path; with why, when its stream
    /// ended early and the file is read to there.
    Opened(PathBuf, Option<String>),
    /// Not opened ([`ArchivesMet::None`]): listed with the archives not opened.
    NotOpened,
    /// Not read, with why.
    Unread(String),
}

/// The files of a walk's entries that were not named unread, for [`Store::claim_in`].
fn walked_of(entries: &[(PathBuf, Option<String>)]) -> chat_rows::Walked<'_> {
    chat_rows::Walked::new(
        entries
            .iter()
            .filter(|(_, problem)| problem.is_none())
            .map(|(path, _)| path.as_path())
            .collect(),
    )
}

/// Puts what the walk did with a file into its entries: the file itself (`None`: no
/// single compressed store file), the file it holds (with a row for a stream read in
/// part), why it was not read, or, not opened, into `not_opened`.
fn unpacked_entry(
    outcome: Option<Unpacked>,
    path: PathBuf,
    entries: &mut Vec<(PathBuf, Option<String>)>,
    compressed: &mut HashMap<PathBuf, PathBuf>,
    not_opened: &mut Vec<PathBuf>,
) {
    match outcome {
        None => entries.push((path, None)),
        Some(Unpacked::NotOpened) => not_opened.push(path),
        Some(Unpacked::Opened(at, ended)) => {
            if let Some(why) = ended {
                entries.push((
                    path.clone(),
                    Some(format!(
                        "compressed store file read in part ({why}); the file it holds is read to there"
                    )),
                ));
            }
            compressed.insert(at.clone(), path);
            entries.push((at, None));
        }
        Some(Unpacked::Unread(why)) => entries.push((
            path,
            Some(format!("compressed store file not read ({why})")),
        )),
    }
}

/// Which archives a walk opens when it meets them under a root ([`Scanner::open_archives`]).
/// Archives given as roots are always opened. A store file compressed on its own
/// (`history.jsonl.gz`, which a store would claim as `history.jsonl`) is opened as the
/// file it holds under [`ArchivesMet::Collections`] and [`ArchivesMet::All`], and
/// listed with the archives not opened under [`ArchivesMet::None`].
///
/// A home holds many archives that are no collection, and opening one costs a read of
/// it whole (a gzipped tar inflated, and with the manifest hashed), so by default only
/// archives that are collections by their name or place are opened. A case folder of
/// collections under other names (CyLR's `<host>.zip`, a KAPE zip a responder renamed)
/// needs [`ArchivesMet::All`]; a quick pass that reads no archive but the roots,
/// [`ArchivesMet::None`]. Whatever the choice, every archive met and not opened is
/// listed in [`ScanReport::archives_not_opened`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ArchivesMet {
    /// Open an archive named as a collection tool names its output
    /// ([`layout::is_collection_archive`]: UAC, Velociraptor) or lying at the top of an
    /// archive opened before (a case archive's hosts, a Velociraptor secured
    /// container's `data.zip`), and every EWF disk image (`.E01`: a case's evidence,
    /// never a user's own archive). The default.
    #[default]
    Collections,
    /// Open every archive met (four deep at most, as always), whatever its name: a
    /// user's own zips too.
    All,
    /// Open none: only the archives given as roots are read.
    None,
}

impl std::str::FromStr for ArchivesMet {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "collections" => Ok(ArchivesMet::Collections),
            "all" => Ok(ArchivesMet::All),
            "none" => Ok(ArchivesMet::None),
            other => Err(format!(
                "archives to open: {other:?} is none of collections, all, none"
            )),
        }
    }
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
    host: Option<String>,
    collected_at: Option<Timestamp>,
    hashing: bool,
    max_file_size: u64,
    temp_dir: Option<PathBuf>,
    archives_met: ArchivesMet,
    archive_password: Option<chat_rows::ArchivePassword>,
    /// Bytes of copies held in memory per file and per unit ([`HELD_BUDGET`]; tests
    /// set less).
    held_budget: usize,
    stores: Vec<Box<dyn Store>>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner::new()
    }
}

/// A unit of the merge: its files' indexes into the discovery list.
struct Unit {
    files: Vec<usize>,
    indexing: bool,
}

/// The copies of one key kept so far in a unit, for "is this copy one that another
/// file's kept copy already gives?". Held copies come file after file (each file's
/// together), so the copies of earlier files are one sorted set of times, and each
/// question is a range query: a history of 200,000 identical prompts took 7 s when
/// every copy was compared with every kept one.
struct KeptCopies {
    /// Times of the kept copies of the files before `file`.
    earlier: std::collections::BTreeSet<i64>,
    /// True when a file before `file` kept a copy without a time.
    earlier_untimed: bool,
    /// The file whose copies are being held.
    file: usize,
    /// Times of the copies `file` kept (not compared with its own copies).
    current: Vec<Option<i64>>,
}

impl Default for KeptCopies {
    fn default() -> KeptCopies {
        KeptCopies {
            earlier: Default::default(),
            earlier_untimed: false,
            file: usize::MAX,
            current: Vec::new(),
        }
    }
}

impl KeptCopies {
    /// True when another file kept a copy within the window of `time` (both untimed
    /// counts as within, as in [`chat_rows::merge::within_window`]).
    fn is_copy(&mut self, file: usize, time: Option<i64>) -> bool {
        if file != self.file {
            for t in self.current.drain(..) {
                match t {
                    Some(t) => {
                        self.earlier.insert(t);
                    }
                    None => self.earlier_untimed = true,
                }
            }
            self.file = file;
        }
        match time {
            Some(t) => {
                let w = DEFAULT_WINDOW_MICROS;
                self.earlier
                    .range(t.saturating_sub(w)..=t.saturating_add(w))
                    .next()
                    .is_some()
            }
            None => self.earlier_untimed,
        }
    }

    /// Records a kept copy of the current file.
    fn keep(&mut self, time: Option<i64>) {
        self.current.push(time);
    }
}

/// A secondary row held until its unit ends.
struct Held {
    file: usize,
    key: u128,
    /// For a copy with neither a session nor a time (a legacy prompt list): the key of
    /// its user, turn type and text alone.
    loose: Option<u128>,
    time: Option<i64>,
    turn: TurnType,
    parser: bool,
    /// Where its bytes are in its file's [`HeldBytes`]: the formatted row (writers),
    /// none when a Timesketch file leaves it out, or the row as JSON (collected and
    /// streamed forms).
    at: u64,
    len: u64,
    left_out: bool,
}

enum Payload {
    Rows(Vec<Row>),
    Bytes(Vec<u8>),
}

#[derive(Default)]
struct FileEnd {
    report: FileReport,
    counts: Summary,
    write: WriteStats,
    held: Vec<Held>,
    held_bytes: HeldBytes,
    index: Vec<(u128, Option<i64>)>,
    filtered_by_time: usize,
    untimed_filtered: usize,
    filtered_by_agent: usize,
}

/// The writer's progress: files written and bytes made but not yet written. Workers
/// wait on it before starting a file too far ahead.
struct Flow {
    state: std::sync::Mutex<FlowState>,
    moved: std::sync::Condvar,
}

#[derive(Default)]
struct FlowState {
    done: usize,
    pending: usize,
}

impl Flow {
    fn update(&self, f: impl FnOnce(&mut FlowState)) {
        if let Ok(mut s) = self.state.lock() {
            f(&mut s);
        }
        self.moved.notify_all();
    }
}

/// What every worker shares.
struct Job<'a> {
    /// How far the writer is, and the signal that it moved on.
    flow: Flow,
    /// How many files a worker may run ahead of the writer.
    ahead: usize,
    found: &'a [FoundFile],
    holding: &'a [bool],
    /// Files whose path another entry (another store) also reads.
    shared: &'a [bool],
    mode: Mode,
    evidence: &'a Evidence,
    abort: &'a AtomicBool,
}

/// A `parser:` row in a chunk of a file that several stores read: the consumer leaves
/// it out when another store gave the same row for the file.
struct Mark {
    /// Its bytes in [`Payload::Bytes`], or its index (`i..i + 1`) in [`Payload::Rows`].
    span: (usize, usize),
    row: Row,
    /// Whether it was written (false for a row a Timesketch file leaves out, with no
    /// bytes); `None` for rows (they are not written).
    written: Option<bool>,
}

enum Msg {
    /// Rows, their size for the flow's account, and the marked `parser:` rows.
    Chunk(Payload, usize, Vec<Mark>),
    End(Box<FileEnd>),
}

/// How the rows leave the workers: as rows, or already written in a format.
#[derive(Clone, Copy)]
enum Mode {
    Rows,
    Write(Format),
}

/// The per-file sink: filters, holds copies, sorts within sessions, and sends chunks.
struct FileSink<'a> {
    scanner: &'a Scanner,
    ctx: &'a FileContext,
    file: usize,
    mode: Mode,
    holding: bool,
    /// Another store reads this file too: its `parser:` rows are marked in the chunks,
    /// and the consumer leaves out those another store gave already.
    shared: bool,
    /// A deleted file of a disk image ([`chat_rows::Evidence::is_deleted_file`]): its
    /// live rows are deleted evidence.
    deleted: bool,
    tx: &'a mpsc::SyncSender<Msg>,
    flow: &'a Flow,
    abort: &'a AtomicBool,
    // the chunk being built
    rows: Vec<Row>,
    bytes: Vec<u8>,
    spans: Vec<(usize, usize)>,
    keys: Vec<(u32, i64)>,
    /// The chunk's `parser:` rows, in a file another store reads too: their index in
    /// the chunk, the row, and whether it was written (a Timesketch file leaves out a
    /// row without a time).
    marks: Vec<(usize, Row, Option<bool>)>,
    in_order: bool,
    size: usize,
    streaming: bool,
    sessions: HashMap<String, (u32, i64)>,
    /// The rows without a session id, kept out of `sessions`: a lookup of the empty key
    /// compares two empty `String`s, and `==` hands their dangling pointers to libc's
    /// `memcmp`, which took about 135 ns a call on the bench machine (see
    /// `crates/copilot-events/README.md`, fifth round).
    unnamed: Option<(u32, i64)>,
    // what the file gives the unit
    end: FileEnd,
}

impl FileSink<'_> {
    fn take(&mut self, mut row: std::borrow::Cow<'_, Row>) {
        if self.abort.load(Ordering::Relaxed) {
            return;
        }
        if self.deleted && row.record_state == chat_rows::RecordState::Live {
            row.to_mut().record_state = chat_rows::RecordState::Deleted;
        }
        self.end.report.rows += 1;
        self.end.report.parser_rows += usize::from(row.is_parser());
        let s = self.scanner;
        if !s.agents.is_empty() && !s.agents.iter().any(|a| *a == row.agent) {
            self.end.filtered_by_agent += 1;
            return;
        }
        let time = row.timestamp.map(|t| t.unix_micros());
        if s.since.is_some() || s.until.is_some() {
            let keep = match time {
                None => {
                    self.end.untimed_filtered += 1;
                    false
                }
                Some(t) => {
                    s.since.is_none_or(|x| t >= x.unix_micros())
                        && s.until.is_none_or(|x| t <= x.unix_micros())
                }
            };
            if !keep {
                self.end.filtered_by_time += 1;
                return;
            }
        }
        if self.holding {
            let key = twin_key(self.ctx.user_of(&row), &row);
            if row.secondary {
                let loose = (row.session_id.is_empty() && time.is_none()).then(|| {
                    loose_key(
                        self.ctx.user_of(&row),
                        &row.agent,
                        row.turn_type,
                        row.text.trim(),
                    )
                });
                let bytes = &mut self.end.held_bytes;
                let at = bytes.len();
                let left_out = match self.mode {
                    Mode::Write(f) => !format_row(f, self.ctx, &row, bytes.mem()),
                    Mode::Rows => {
                        // a `Row` always serializes (its fields are strings and numbers)
                        let _ = serde_json::to_writer(bytes.mem(), &*row);
                        false
                    }
                };
                self.end.held.push(Held {
                    file: self.file,
                    key,
                    loose,
                    time,
                    turn: row.turn_type,
                    parser: row.is_parser(),
                    at,
                    len: bytes.len() - at,
                    left_out,
                });
                bytes.spill_over(s.temp_dir.as_deref(), s.held_budget);
                return;
            }
            self.end.index.push((key, time));
            if row.turn_type == TurnType::User {
                // a prompt is also known by its text alone, for copies that kept neither
                // its session nor its time: the whole text, and each of its first lines
                // (a copy keeps the prompt without the context lines a store appends)
                let user = self.ctx.user_of(&row);
                let text = row.text.trim();
                let cuts = text
                    .match_indices('\n')
                    .map(|(i, _)| i)
                    .take(LOOSE_PREFIXES);
                for end in cuts.chain(std::iter::once(text.len())) {
                    let prefix = text[..end].trim_end();
                    if !prefix.is_empty() {
                        let loose = loose_key(user, &row.agent, row.turn_type, prefix);
                        self.end.index.push((loose, None));
                    }
                }
            }
        }
        self.end
            .counts
            .count(row.turn_type, row.is_parser(), time.is_none());
        // the sort key: the session's place in the file, then the time (an untimed row
        // takes the time of the row before it in its session)
        let unnamed = row.session_id.is_empty();
        let slot = if unnamed {
            self.unnamed.as_mut()
        } else {
            self.sessions.get_mut(row.session_id.as_str())
        };
        let key = match slot {
            Some(e) => {
                if let Some(t) = time {
                    e.1 = t;
                }
                *e
            }
            None => {
                let n = self.sessions.len() + usize::from(self.unnamed.is_some());
                let e = (n as u32, time.unwrap_or(i64::MIN));
                if unnamed {
                    self.unnamed = Some(e);
                } else {
                    self.sessions.insert(row.session_id.clone(), e);
                }
                e
            }
        };
        if let Some(last) = self.keys.last() {
            self.in_order &= *last <= key;
        }
        self.keys.push(key);
        match self.mode {
            Mode::Write(f) => {
                let start = self.bytes.len();
                let written = format_row(f, self.ctx, &row, &mut self.bytes);
                if written {
                    self.end.write.written += 1;
                } else {
                    self.end.write.untimed_left_out += 1;
                }
                self.spans.push((start, self.bytes.len()));
                self.size = self.bytes.len();
                if self.shared && row.is_parser() && !row.secondary {
                    self.marks
                        .push((self.keys.len() - 1, row.into_owned(), Some(written)));
                }
            }
            Mode::Rows => {
                self.size += 160 + row.text.len();
                if self.shared && row.is_parser() && !row.secondary {
                    self.marks.push((self.keys.len() - 1, (*row).clone(), None));
                }
                self.rows.push(row.into_owned());
            }
        }
        let limit = if self.streaming {
            CHUNK_BYTES
        } else {
            HOLD_BUDGET
        };
        if self.size >= limit {
            self.streaming = true;
            self.send_chunk();
        }
    }

    /// Sorts the chunk (a no-op when it is in order) and sends it.
    fn send_chunk(&mut self) {
        if self.keys.is_empty() {
            return;
        }
        let size = self.size;
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        if !self.in_order {
            order.sort_by_key(|&i| self.keys[i]);
        }
        // where each marked row ends up: its bytes (written) or its index (rows)
        let mut marks = Vec::with_capacity(self.marks.len());
        let mut placed = Vec::new();
        if !self.marks.is_empty() && !self.in_order {
            placed = vec![0usize; self.keys.len()];
        }
        let payload = match self.mode {
            Mode::Write(_) => {
                let bytes = if self.in_order {
                    std::mem::take(&mut self.bytes)
                } else {
                    let mut out = Vec::with_capacity(self.bytes.len());
                    for &i in &order {
                        let (a, b) = self.spans[i];
                        if let Some(p) = placed.get_mut(i) {
                            *p = out.len();
                        }
                        out.extend_from_slice(&self.bytes[a..b]);
                    }
                    self.bytes.clear();
                    out
                };
                for (i, row, written) in self.marks.drain(..) {
                    let (a, b) = self.spans[i];
                    let start = placed.get(i).copied().unwrap_or(a);
                    marks.push(Mark {
                        span: (start, start + (b - a)),
                        row,
                        written,
                    });
                }
                Payload::Bytes(bytes)
            }
            Mode::Rows => {
                let rows = if self.in_order {
                    std::mem::take(&mut self.rows)
                } else {
                    let mut slots: Vec<Option<Row>> = std::mem::take(&mut self.rows)
                        .into_iter()
                        .map(Some)
                        .collect();
                    order.iter().filter_map(|&i| slots[i].take()).collect()
                };
                if !placed.is_empty() {
                    for (at, &i) in order.iter().enumerate() {
                        placed[i] = at;
                    }
                }
                for (i, row, written) in self.marks.drain(..) {
                    let at = placed.get(i).copied().unwrap_or(i);
                    marks.push(Mark {
                        span: (at, at + 1),
                        row,
                        written,
                    });
                }
                Payload::Rows(rows)
            }
        };
        self.spans.clear();
        self.keys.clear();
        self.in_order = true;
        self.size = 0;
        self.flow.update(|s| s.pending += size);
        if self.tx.send(Msg::Chunk(payload, size, marks)).is_err() {
            self.abort.store(true, Ordering::Relaxed);
        }
    }
}

impl RowSink for FileSink<'_> {
    fn push(&mut self, row: Row) {
        self.take(std::borrow::Cow::Owned(row));
    }
    fn lend(&mut self, row: &Row) {
        self.take(std::borrow::Cow::Borrowed(row));
    }
}

/// The `parser:` rows written so far of one file that several stores read, by a hash
/// of their text, place and agent, each with the entry that gave it.
#[derive(Default)]
struct Said {
    path: Option<PathBuf>,
    rows: HashMap<u64, Vec<(usize, Row)>>,
}

impl Said {
    /// `payload` of entry `file` without the marked rows that another entry gave
    /// field for field (a store's own repeats are its own, and kept); what is left out
    /// is counted in `repeated`.
    fn leave_out_repeats(
        &mut self,
        file: usize,
        payload: Payload,
        marks: Vec<Mark>,
        repeated: &mut (Summary, WriteStats),
    ) -> Payload {
        use std::hash::{Hash, Hasher};
        let mut cut: Vec<(usize, usize)> = Vec::new();
        for m in marks {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            let r = &m.row;
            (&r.text, &r.source_file, &r.source_locator, &r.agent).hash(&mut h);
            r.source_line.hash(&mut h);
            let bucket = self.rows.entry(h.finish()).or_default();
            if bucket
                .iter()
                .any(|(j, other)| *j != file && *other == m.row)
            {
                repeated.0.count(r.turn_type, true, r.timestamp.is_none());
                match m.written {
                    Some(true) => repeated.1.written += 1,
                    Some(false) => repeated.1.untimed_left_out += 1,
                    None => {}
                }
                cut.push(m.span);
            } else {
                bucket.push((file, m.row));
            }
        }
        if cut.is_empty() {
            return payload;
        }
        cut.sort_unstable();
        match payload {
            Payload::Bytes(bytes) => {
                let mut out = Vec::with_capacity(bytes.len());
                let mut from = 0;
                for (a, b) in cut {
                    out.extend_from_slice(&bytes[from..a]);
                    from = b;
                }
                out.extend_from_slice(&bytes[from..]);
                Payload::Bytes(out)
            }
            Payload::Rows(rows) => {
                let mut cut = cut.into_iter().map(|(a, _)| a).peekable();
                let rows = rows
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| cut.next_if_eq(i).is_none())
                    .map(|(_, r)| r)
                    .collect();
                Payload::Rows(rows)
            }
        }
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// Where the rows of a scan go, on the caller's thread, in order.
trait Consumer {
    fn payload(&mut self, ctx: &FileContext, payload: Payload) -> io::Result<()>;
    /// A kept copy: `bytes` are its formatted row, or the row as JSON.
    fn held(&mut self, ctx: &FileContext, bytes: &[u8]) -> io::Result<()>;
}

struct WriteConsumer<'w> {
    out: &'w mut dyn Write,
}

impl Consumer for WriteConsumer<'_> {
    fn payload(&mut self, _ctx: &FileContext, payload: Payload) -> io::Result<()> {
        match payload {
            Payload::Bytes(b) => self.out.write_all(&b),
            Payload::Rows(_) => Ok(()),
        }
    }
    fn held(&mut self, _ctx: &FileContext, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }
}

/// `--output-dir`: one file per host, opened as the host's rows arrive.
struct PerHostConsumer<'d> {
    dir: &'d Path,
    /// The evidence roots: every file is created through [`crate::guard::create_output`].
    roots: &'d [PathBuf],
    format: Format,
    current: Option<(String, io::BufWriter<std::fs::File>)>,
    opened: std::collections::HashSet<String>,
    files: Vec<PathBuf>,
}

/// The file name of a host's output: the host with every byte but ASCII letters,
/// digits, `-` and `.` (and a leading `_`) percent-encoded; `_no-host` for rows whose
/// host is unknown. A name longer than 200 bytes keeps its first 183 and ends with `~`
/// and 16 hex digits of the host's FNV-1a hash.
pub fn host_file_name(host: &str, format: Format) -> String {
    let mut name = String::new();
    if host.is_empty() {
        name.push_str("_no-host");
    }
    for (i, b) in host.bytes().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'-' || (b == b'.' && i > 0) || (b == b'_' && i > 0) {
            name.push(b as char);
        } else {
            name.push_str(&format!("%{b:02X}"));
        }
    }
    if name.len() > MAX_HOST_FILE_STEM {
        // a file name may not pass 255 bytes (a 253-character FQDN, a name of `%XX`s):
        // the start, then `~` (which the encoding never writes) and a hash of the whole
        // host, so that two long hosts stay two files (before 2026-12-05 the scan
        // stopped with `File name too long`)
        let mut cut = MAX_HOST_FILE_STEM - 17;
        while name.as_bytes()[cut - 2..cut].contains(&b'%') {
            cut -= 1;
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in host.bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        name = format!("{}~{hash:016x}", &name[..cut]);
    }
    name.push_str(match format {
        Format::Jsonl => ".jsonl",
        Format::Csv => ".csv",
        Format::Timesketch => ".timesketch.jsonl",
    });
    name
}

/// The longest a host's file name is before its extension (a name may have 255 bytes).
const MAX_HOST_FILE_STEM: usize = 200;

impl PerHostConsumer<'_> {
    fn out(&mut self, host: &str) -> io::Result<&mut io::BufWriter<std::fs::File>> {
        if self.current.as_ref().is_none_or(|(h, _)| h != host) {
            if let Some((_, mut w)) = self.current.take() {
                w.flush()?;
            }
            let path = self.dir.join(host_file_name(host, self.format));
            let fresh = self.opened.insert(host.to_string());
            // never through a link or over a hard link already in the folder (one
            // there may name evidence: 2026-12-05)
            let file = crate::guard::create_output(&path, self.roots, !fresh)?;
            let mut w = io::BufWriter::with_capacity(1 << 16, file);
            if fresh {
                self.files.push(path);
                if self.format == Format::Csv {
                    let mut header = Vec::new();
                    csv_header_into(&mut header);
                    w.write_all(&header)?;
                }
            }
            self.current = Some((host.to_string(), w));
        }
        Ok(&mut self.current.as_mut().expect("just opened").1)
    }
}

impl Consumer for PerHostConsumer<'_> {
    fn payload(&mut self, ctx: &FileContext, payload: Payload) -> io::Result<()> {
        match payload {
            Payload::Bytes(b) if !b.is_empty() => self.out(&ctx.host)?.write_all(&b),
            _ => Ok(()),
        }
    }
    fn held(&mut self, ctx: &FileContext, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.out(&ctx.host)?.write_all(bytes)
    }
}

struct RowConsumer<'f> {
    each: &'f mut dyn FnMut(&FileContext, &Row),
}

impl Consumer for RowConsumer<'_> {
    fn payload(&mut self, ctx: &FileContext, payload: Payload) -> io::Result<()> {
        if let Payload::Rows(rows) = payload {
            for r in &rows {
                (self.each)(ctx, r);
            }
        }
        Ok(())
    }
    fn held(&mut self, ctx: &FileContext, bytes: &[u8]) -> io::Result<()> {
        let row: Row = serde_json::from_slice(bytes)?;
        (self.each)(ctx, &row);
        Ok(())
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
            host: None,
            collected_at: None,
            hashing: false,
            max_file_size: chat_rows::evidence::DEFAULT_MAX_SIZE,
            temp_dir: None,
            archives_met: ArchivesMet::Collections,
            archive_password: None,
            held_budget: HELD_BUDGET,
            stores: crate::stores::all(),
        }
    }

    /// Adds an evidence root: a home, a folder of homes, or a collection tree, on disk
    /// or archived (a root that is a file named `*.zip`, `*.7z`, `*.rar`, `*.tar`, `*.tar.gz`, `*.tgz`,
    /// `*.tar.bz2`, `*.tar.xz`, `*.tar.zst`, a KAPE `*.vhdx`, `*.vhd`, a disk image `*.E01`, `*.dd` ... is read as the folder of its members:
    /// see [`chat_rows::Evidence::open_archive`]).
    /// An archive the walk meets under a root is read the same way when a collection
    /// tool named it ([`layout::is_collection_archive`]) or when it lies at the top of
    /// an archive opened before (a case archive's hosts, a Velociraptor secured
    /// container's `data.zip`); any other is left unread and listed in
    /// [`ScanReport::archives_not_opened`]. [`Scanner::open_archives`] changes which.
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

    /// Worker threads (0: one per core; capped at [`MAX_THREADS_PER_CORE`] per core).
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

    /// Names the host of every file under the roots, whatever the layout says (a
    /// distributed job that hands one host's folder to each task).
    pub fn host(mut self, host: impl Into<String>) -> Scanner {
        self.host = Some(host.into());
        self
    }

    /// When the evidence was collected: stores that count a retention period back from
    /// the collection (Claude Code's `cleanupPeriodDays`) need it, and give no such row
    /// without it. The CLI sets it from `--collected-at`, or to now for live triage.
    pub fn collected_at(mut self, t: Timestamp) -> Scanner {
        self.collected_at = Some(t);
        self
    }

    /// Takes the SHA-256 of every file read, for the manifest (off by default: the
    /// hash costs a pass over every byte). The hash comes from the same read as the rows.
    pub fn hash_files(mut self, on: bool) -> Scanner {
        self.hashing = on;
        self
    }

    /// Where a compressed member of a zipped root larger than 256 MiB, and a whole
    /// gzipped tar, are inflated to be read by ranges (unnamed temporary files, gone
    /// when read; without it, in memory). Keep it out of the evidence roots: the CLI refuses one inside them.
    pub fn temp_dir(mut self, dir: impl Into<PathBuf>) -> Scanner {
        self.temp_dir = Some(dir.into());
        self
    }

    /// Which archives the walk opens when it meets them under a root (default
    /// [`ArchivesMet::Collections`]); the others are listed in
    /// [`ScanReport::archives_not_opened`]. Archives given as roots are always read.
    pub fn open_archives(mut self, which: ArchivesMet) -> Scanner {
        self.archives_met = which;
        self
    }

    /// The password of encrypted zip members, in the archives given as roots and those
    /// the walk opens (a collection zipped with `infected`, a Velociraptor collector's
    /// password), or several ([`chat_rows::ArchivePassword::any_of`]) tried in turn on
    /// each encrypted member. Without it, or with a wrong one, each encrypted member a
    /// store would read is one `parser:` row saying so
    /// ([`chat_rows::Evidence::archive_password`]). It reaches no row, manifest entry or
    /// report.
    pub fn archive_password(mut self, password: chat_rows::ArchivePassword) -> Scanner {
        self.archive_password = Some(password);
        self
    }

    /// The size cap of one evidence file (default 4 GiB): a larger file gives one
    /// `parser:` row saying so.
    pub fn max_file_size(mut self, bytes: u64) -> Scanner {
        self.max_file_size = bytes;
        self
    }

    /// Replaces the registered stores (for tests and for embedding a subset).
    pub fn stores(mut self, stores: Vec<Box<dyn Store>>) -> Scanner {
        self.stores = stores;
        self
    }

    /// The roots as the scan reads them: each existing root once, and a root that lies
    /// inside another root left out (its files are read once, under the outer root).
    /// Returns the roots kept and those left out.
    pub fn effective_roots(&self) -> Result<(Vec<PathBuf>, Vec<PathBuf>), ScanError> {
        let mut resolved: Vec<(PathBuf, PathBuf)> = Vec::new();
        for root in &self.roots {
            let canon = std::fs::canonicalize(root).map_err(|source| ScanError::Root {
                path: root.clone(),
                source,
            })?;
            resolved.push((root.clone(), canon));
        }
        let mut kept = Vec::new();
        let mut dropped = Vec::new();
        for (i, (root, canon)) in resolved.iter().enumerate() {
            // a zipped root inside a folder root is not read under it (the walk opens
            // no archive): only the same archive given twice is left out
            let archive = is_archive_root(root);
            let inside_other = resolved.iter().enumerate().any(|(j, (_, other))| {
                j != i
                    && canon.starts_with(other)
                    && (canon != other || j < i)
                    && (!archive || canon == other)
            });
            if inside_other {
                dropped.push(root.clone());
            } else {
                kept.push(root.clone());
            }
        }
        Ok((kept, dropped))
    }

    /// Lists every file a store claims under the roots, in the scan's order (see the
    /// module docs), and every path the walk could not read or did not follow. Reads
    /// no file content.
    pub fn discover(&self) -> Result<Vec<FoundFile>, ScanError> {
        Ok(self.discover_listing()?.0)
    }

    /// [`Scanner::discover`], with the archives the walk met and did not open
    /// ([`ScanReport::archives_not_opened`]), for a listing that names them.
    pub fn discover_listing(&self) -> Result<(Vec<FoundFile>, Vec<PathBuf>), ScanError> {
        let (roots, _) = self.effective_roots()?;
        let d = self.discover_in(&roots, &self.evidence(&roots, false))?;
        Ok((d.found, d.archives_not_opened))
    }

    /// The reader of a scan of `roots`.
    fn evidence(&self, roots: &[PathBuf], hashing: bool) -> Evidence {
        let mut evidence = Evidence::new()
            .roots(roots)
            .hashing(hashing)
            .max_size(self.max_file_size);
        if let Some(password) = &self.archive_password {
            evidence = evidence.archive_password(password.clone());
        }
        match &self.temp_dir {
            Some(dir) => evidence.spill_dir(dir),
            None => evidence,
        }
    }

    /// [`Scanner::discover`] under roots already made effective; with it, the folders
    /// listed in a way that may have set their access time.
    fn discover_in(&self, roots: &[PathBuf], evidence: &Evidence) -> Result<Discovered, ScanError> {
        let mut found = Vec::new();
        let mut folders_listed_atime_not_kept = std::collections::BTreeSet::new();
        let mut archives_not_opened = Vec::new();
        // the file each single compressed store file holds, by where it stands, with
        // the compressed file
        let mut compressed: HashMap<PathBuf, PathBuf> = HashMap::new();
        // the host each Velociraptor collection names in its `client_info.json`, read
        // once per collection (`None`: not there, or naming none)
        let mut collections: HashMap<PathBuf, Option<String>> = HashMap::new();
        let mut attribute = |root: &Path, path: &Path, found: &mut Vec<FoundFile>| {
            let mut a = layout::attribute_file(root, path);
            // a bare `Users/<user>` reads as macOS's; on a disk image's NTFS volume (an
            // image of a C: drive) it is Windows's
            if a.os == Some(layout::Os::MacOs) && evidence.in_disk_image(path) {
                a.os = Some(layout::Os::Windows);
            }
            if let Some((folder, info)) = layout::velociraptor_collection(root, path) {
                let host = collections.entry(folder).or_insert_with(|| {
                    let (host, problem) = collection_host(evidence, &info)?;
                    if let Some(problem) = problem {
                        // the host the folder names, which this file's path gives
                        found.push(FoundFile {
                            attribution: Attribution {
                                host: a.host.clone(),
                                user: String::new(),
                                os: a.os,
                            },
                            product: None,
                            path: info.clone(),
                            root: root.to_path_buf(),
                            store: SCANNER_AGENT,
                            kind: "path not read",
                            copies: false,
                            problem: Some(problem),
                            len: None,
                            compressed: None,
                        });
                    }
                    host
                });
                if let Some(host) = host {
                    a.host = host.clone();
                }
            }
            a
        };
        for root in roots {
            let first = found.len();
            let meta = std::fs::metadata(root).map_err(|source| ScanError::Root {
                path: root.clone(),
                source,
            })?;
            if meta.is_dir() {
                chat_rows::evidence::open_read_only(
                    root,
                    chat_rows::evidence::Opening::Folder { follow_link: true },
                )
                .map_err(|source| ScanError::Root {
                    path: root.clone(),
                    source,
                })?;
            }
            // each path walked, with why it was not read (a file's size is asked once a
            // store claims it: most files under a home are no store's)
            let mut entries: Vec<(PathBuf, Option<String>)> = Vec::new();
            // a zipped root is walked as the folder of its members
            let archive = is_archive_root(root);
            let mut archive_read = false;
            if archive {
                match evidence.open_archive(root) {
                    Ok(problems) => {
                        archive_read = true;
                        entries.extend(problems.into_iter().map(|(p, why)| (p, Some(why))));
                    }
                    Err(e) => entries.push((root.clone(), Some(format!("archive not read ({e})")))),
                }
            }
            // folders the walk does not enter, with why (pushed from its filter)
            let kernel = std::cell::RefCell::new(Vec::new());
            // single compressed store files not opened (`--open-archives none`), and those
            // to ask the stores of again with the files found beside them
            let compressed_not_opened = std::cell::RefCell::new(Vec::new());
            let compressed_later = std::cell::RefCell::new(Vec::new());
            let mut folders = SeenFolders::default();
            let root_kind = if archive {
                EntryKind::Folder
            } else {
                EntryKind::of(&meta.file_type())
            };
            let mut admit = |path: &Path, status: Option<&std::fs::Metadata>| {
                let Some(first) = folders.seen(path, status) else {
                    return true;
                };
                kernel.borrow_mut().push((
                    path.to_path_buf(),
                    Some(format!(
                        "folder not read: the same folder as {} (the same device and inode: a bind mount or a macOS firmlink shows it twice); its files are read there",
                        chat_rows::display_path(&first)
                    )),
                ));
                false
            };
            let mut enter = |path: &Path, depth: usize| {
                if depth == 0 {
                    return true;
                }
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default();
                if let Some(what) = kernel_filesystem(path, &name) {
                    kernel.borrow_mut().push((
                        path.to_path_buf(),
                        Some(format!(
                            "folder not read: {what}, mounted on a device of its own: the kernel's live view, not files on a disk (give it as a root to read it)"
                        )),
                    ));
                    return false;
                }
                !pruned(path, &name)
            };
            let mut met = |m: Met| match m {
                Met::Unreadable { path, error } => {
                    entries.push((path, Some(format!("folder not read ({error})"))));
                }
                Met::Entry { path, depth, kind } => match kind {
                    EntryKind::File => {
                        let claimed = |at: &Path| self.stores.iter().any(|s| s.claim(at).is_some());
                        match self.compressed_store_file(&path, depth == 0, evidence, claimed) {
                            // one no store claims by its path alone may be claimed by the
                            // files found beside it, once the walk is done
                            None if chat_rows::Compressed::of_name(
                                path.file_name().unwrap_or_default(),
                            )
                            .is_some() =>
                            {
                                compressed_later.borrow_mut().push(path.clone());
                                entries.push((path, None));
                            }
                            outcome => unpacked_entry(
                                outcome,
                                path,
                                &mut entries,
                                &mut compressed,
                                &mut compressed_not_opened.borrow_mut(),
                            ),
                        }
                    }
                    EntryKind::Link if archive || evidence.is_archived(&path) => {
                        if self.stores.iter().any(|s| s.claim(&path).is_some()) {
                            entries.push((
                                path,
                                Some("store file not read: a symbolic link member of the archive; discovery follows no link".to_string()),
                            ));
                        }
                    }
                    EntryKind::Link if depth > 0 => {
                        let target_meta = std::fs::metadata(&path);
                        let is_dir = target_meta.as_ref().is_ok_and(|m| m.is_dir());
                        let claimed = self.stores.iter().any(|s| s.claim(&path).is_some());
                        if let Err(e) = &target_meta
                            && !claimed
                        {
                            // a link to nothing here (dangling, or a loop): it may be where
                            // a store's folder was (`.claude` linked to a disk not in the
                            // evidence), so it is named, not passed over (before
                            // 2026-12-05 only links to folders and store files were)
                            let target = std::fs::read_link(&path)
                                .map(|t| chat_rows::display_path(&t))
                                .unwrap_or_default();
                            #[cfg(unix)]
                            let looped =
                                e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error());
                            #[cfg(not(unix))]
                            let looped = {
                                let _ = e;
                                false
                            };
                            let what = if looped {
                                "a loop of links"
                            } else {
                                "nothing in the evidence"
                            };
                            entries.push((
                                path,
                                Some(format!(
                                    "link not followed: a symbolic link to {target}, which leads to {what}"
                                )),
                            ));
                        } else if is_dir || claimed {
                            let target = std::fs::read_link(&path)
                                .map(|t| chat_rows::display_path(&t))
                                .unwrap_or_default();
                            let what = if is_dir { "folder" } else { "store file" };
                            let why = format!(
                                "{what} not read: a symbolic link to {target}; discovery follows no link (give the target as a root to read it)"
                            );
                            entries.push((path, Some(why)));
                        }
                    }
                    _ => {
                        // a FIFO, socket or device given as a root or at a store's path:
                        // never opened (a FIFO would block), but named, not passed over
                        let claimed = self.stores.iter().any(|s| s.claim(&path).is_some());
                        if depth == 0 || claimed {
                            let which = if claimed { "store file" } else { "root" };
                            let why =
                                format!("{which} not read: not a regular file ({})", kind.words());
                            entries.push((path, Some(why)));
                        }
                    }
                },
            };
            // an archive the walk meets is gone into as a folder when it is a
            // collection's (named as a collection tool names its output, or at the top
            // of an archive opened before); any other is counted, for the summary
            let mut descend = |path: &Path, _depth: usize| {
                let Some(name) = path.file_name() else {
                    return false;
                };
                // (the name's end compared in place with each extension: a walk of a
                // large home allocates nothing more per file)
                // (a later volume of a multi-volume RAR is read with its first)
                if chat_rows::ArchiveKind::of_name(name).is_none() || evidence.is_later_volume(path)
                {
                    return false;
                }
                // at the top of an archive opened as a collection: a case archive's
                // hosts, or a Velociraptor secured container's `data.zip`
                let open = match self.archives_met {
                    ArchivesMet::All => true,
                    ArchivesMet::None => false,
                    ArchivesMet::Collections => {
                        path.parent().is_some_and(|p| evidence.is_open_archive(p))
                            || layout::is_collection_archive(&name.to_string_lossy())
                            || chat_rows::ArchiveKind::of_name(name)
                                == Some(chat_rows::ArchiveKind::Ewf)
                    }
                };
                if !open {
                    archives_not_opened.push(path.to_path_buf());
                    return false;
                }
                match evidence.open_archive(path) {
                    Ok(problems) => {
                        kernel
                            .borrow_mut()
                            .extend(problems.into_iter().map(|(p, why)| (p, Some(why))));
                        true
                    }
                    Err(e) => {
                        kernel
                            .borrow_mut()
                            .push((path.to_path_buf(), Some(format!("archive not read ({e})"))));
                        false
                    }
                }
            };
            if !archive || archive_read {
                let mut list = lister(evidence);
                folders_listed_atime_not_kept.extend(walk(
                    root,
                    root_kind,
                    &mut list,
                    &mut descend,
                    &mut enter,
                    &mut admit,
                    &mut met,
                ));
            }
            entries.append(&mut kernel.into_inner());
            // a compressed file a store claims only by its neighbours (a Copilot CLI home
            // of any name's `session-store.db.gz`, a Claude Code home under
            // `$CLAUDE_CONFIG_DIR`): asked again with the files the walk found
            let later = compressed_later.into_inner();
            let mut not_opened = compressed_not_opened.into_inner();
            if !later.is_empty() {
                let outcomes: Vec<(PathBuf, Unpacked)> = {
                    let walked = walked_of(&entries);
                    let claimed = |at: &Path| {
                        self.stores
                            .iter()
                            .any(|s| s.claim_in(at, &walked).is_some())
                    };
                    later
                        .into_iter()
                        .filter_map(|path| {
                            let outcome = self.compressed_store_file(
                                &path,
                                path == *root,
                                evidence,
                                claimed,
                            )?;
                            Some((path, outcome))
                        })
                        .collect()
                };
                // each stands for itself no more: the file it holds does
                let held: std::collections::HashSet<&PathBuf> =
                    outcomes.iter().map(|(p, _)| p).collect();
                entries.retain(|(p, problem)| !(problem.is_none() && held.contains(p)));
                for (path, outcome) in outcomes {
                    unpacked_entry(
                        Some(outcome),
                        path,
                        &mut entries,
                        &mut compressed,
                        &mut not_opened,
                    );
                }
            }
            archives_not_opened.append(&mut not_opened);
            entries.sort();
            let walked = walked_of(&entries);
            for (path, problem) in &entries {
                let path = path.clone();
                if let Some(problem) = problem.clone() {
                    let attribution = attribute(root, &path, &mut found);
                    found.push(FoundFile {
                        attribution,
                        product: None,
                        path,
                        root: root.clone(),
                        store: SCANNER_AGENT,
                        kind: "path not read",
                        copies: false,
                        problem: Some(problem),
                        len: None,
                        compressed: None,
                    });
                    continue;
                }
                // the layout is read off the path of a file a store claims only: most
                // files under a home are no store's
                let mut attribution: Option<Attribution> = None;
                let mut len: Option<Option<u64>> = None;
                for store in &self.stores {
                    if let Some(claim) = store.claim_in(&path, &walked) {
                        if attribution.is_none() {
                            attribution = Some(attribute(root, &path, &mut found));
                        }
                        found.push(FoundFile {
                            attribution: attribution.clone().unwrap_or_default(),
                            product: locations::editor_product(&path),
                            path: path.clone(),
                            root: root.clone(),
                            store: store.name(),
                            kind: claim.kind,
                            copies: claim.copies,
                            problem: None,
                            // a marker is read even when empty: its presence is the evidence
                            len: len
                                .get_or_insert_with(|| {
                                    if archive || evidence.is_archived(&path) {
                                        evidence.check(&path).ok().map(|c| c.size)
                                    } else {
                                        std::fs::symlink_metadata(&path).ok().map(|m| m.len())
                                    }
                                })
                                .filter(|_| !claim.marker),
                            compressed: compressed.get(&path).cloned(),
                        });
                    }
                }
            }
            // what is wrong with an archive as a whole (a name that climbs out, a damaged
            // header, a partition not read) stands at the archive's own path, under no
            // host's folder: it is the host's whose files the archive holds, when they
            // are one host's, whether the archive is the root or was met in a walk
            let wholes: Vec<usize> = (first..found.len())
                .filter(|&i| {
                    let f = &found[i];
                    f.problem.is_some()
                        && f.attribution.host.is_empty()
                        && ((archive && f.path == *root) || evidence.is_open_archive(&f.path))
                })
                .collect();
            if !wholes.is_empty() {
                // the hosts of the files below each such archive, each file's folders
                // looked up once
                let mut hosts: HashMap<PathBuf, std::collections::BTreeSet<String>> = wholes
                    .iter()
                    .map(|&i| (found[i].path.clone(), Default::default()))
                    .collect();
                for f in &found[first..] {
                    if f.problem.is_some() || f.attribution.host.is_empty() {
                        continue;
                    }
                    for folder in f.path.ancestors().skip(1) {
                        if let Some(set) = hosts.get_mut(folder) {
                            set.insert(f.attribution.host.clone());
                        }
                    }
                }
                for i in wholes {
                    let set = &hosts[&found[i].path];
                    if let (1, Some(host)) = (set.len(), set.first()) {
                        found[i].attribution.host = host.clone();
                    }
                }
            }
        }
        // units in the order of their first file; files of a unit keep their order
        let mut unit_of: HashMap<(PathBuf, String), usize> = HashMap::new();
        let mut units: Vec<Vec<FoundFile>> = Vec::new();
        for f in found {
            let key = (f.root.clone(), f.attribution.host.clone());
            let next = units.len();
            let u = *unit_of.entry(key).or_insert(next);
            if u == units.len() {
                units.push(Vec::new());
            }
            units[u].push(f);
        }
        archives_not_opened.sort();
        Ok(Discovered {
            found: units.into_iter().flatten().collect(),
            folders_not_kept: folders_listed_atime_not_kept,
            archives_not_opened,
        })
    }

    /// What the walk does with a file that may be one store file compressed on its
    /// own (`history.jsonl.gz`): `None` when it is not (another name, or a file no
    /// store would claim once decompressed, passed over as any unclaimed file is);
    /// else it is opened as the file it holds ([`Evidence::open_compressed`]), unless
    /// no archive met is opened ([`ArchivesMet::None`]) and it is no root (a root is
    /// always read).
    fn compressed_store_file(
        &self,
        path: &Path,
        root: bool,
        evidence: &Evidence,
        claimed: impl Fn(&Path) -> bool,
    ) -> Option<Unpacked> {
        let (_, held) = chat_rows::Compressed::of_name(path.file_name()?)?;
        let at = path.with_file_name(held);
        if !claimed(&at) {
            return None;
        }
        if self.archives_met == ArchivesMet::None && !root {
            return Some(Unpacked::NotOpened);
        }
        Some(match evidence.open_compressed(path) {
            Ok((at, ended)) => Unpacked::Opened(at, ended.map(|e| e.to_string())),
            Err(e) => Unpacked::Unread(e.to_string()),
        })
    }

    fn context(&self, f: &FoundFile) -> FileContext {
        FileContext {
            host: if let Some(h) = &self.host {
                h.clone()
            } else if f.attribution.host.is_empty() {
                self.default_host.clone()
            } else {
                f.attribution.host.clone()
            },
            user: f.attribution.user.clone(),
            product: f.product.map(str::to_string),
            host_offset: self.host_offset,
            display_path: f.shown(),
            collected_at: self.collected_at,
        }
    }

    /// Streams every row, in the scanner's order (see the module docs), to `each`
    /// with its file's context: the row's `host`, `user` and `source_file` may be
    /// empty, and are the context's then ([`FileContext::host_of`] ...). Memory stays
    /// flat whatever the size of the collection.
    pub fn for_each_row(
        &self,
        each: impl FnMut(&FileContext, &Row),
    ) -> Result<ScanReport, ScanError> {
        self.for_each_row_with_progress(each, |_| {})
    }

    /// [`Scanner::for_each_row`], with `progress` called after each file's rows.
    pub fn for_each_row_with_progress(
        &self,
        mut each: impl FnMut(&FileContext, &Row),
        mut progress: impl FnMut(&FoundFile),
    ) -> Result<ScanReport, ScanError> {
        self.engine(
            Mode::Rows,
            &mut RowConsumer { each: &mut each },
            &mut progress,
        )
    }

    /// Writes every row in `format` to `out`, streaming: workers format the rows, this
    /// thread writes them in order. The report's `write` says what was written.
    pub fn write_to(&self, format: Format, out: &mut dyn Write) -> Result<ScanReport, ScanError> {
        self.write_to_with_progress(format, out, |_| {})
    }

    /// [`Scanner::write_to`], with `progress` called after each file is written.
    pub fn write_to_with_progress(
        &self,
        format: Format,
        out: &mut dyn Write,
        mut progress: impl FnMut(&FoundFile),
    ) -> Result<ScanReport, ScanError> {
        if format == Format::Csv {
            let mut header = Vec::new();
            csv_header_into(&mut header);
            out.write_all(&header).map_err(ScanError::Output)?;
        }
        let report = self.engine(
            Mode::Write(format),
            &mut WriteConsumer { out },
            &mut progress,
        )?;
        out.flush().map_err(ScanError::Output)?;
        Ok(report)
    }

    /// Writes every row in `format` into `dir`, one file per host
    /// ([`host_file_name`]), streaming as [`Scanner::write_to`] does. A file is
    /// routed by the host of the file it came from. Returns the report and the files
    /// written, in the order they were first opened. `dir` is created if missing.
    pub fn write_per_host(
        &self,
        format: Format,
        dir: &Path,
        mut progress: impl FnMut(&FoundFile),
    ) -> Result<(ScanReport, Vec<PathBuf>), ScanError> {
        if crate::guard::inside_any(dir, &self.roots) {
            return Err(ScanError::OutputRefused {
                path: dir.to_path_buf(),
                why: format!(
                    "output folder {} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
                    dir.display()
                ),
            });
        }
        std::fs::create_dir_all(dir).map_err(ScanError::Output)?;
        let mut consumer = PerHostConsumer {
            dir,
            roots: &self.roots,
            format,
            current: None,
            opened: std::collections::HashSet::new(),
            files: Vec::new(),
        };
        let report = self.engine(Mode::Write(format), &mut consumer, &mut progress)?;
        if let Some((_, mut w)) = consumer.current.take() {
            w.flush().map_err(ScanError::Output)?;
        }
        Ok((report, consumer.files))
    }

    /// Reads every claimed file and collects the rows (per-file fields filled in), with
    /// `progress` called after each file. Built on [`Scanner::for_each_row`]; prefer
    /// that (or [`Scanner::write_to`]) for large cases, since this holds every row.
    pub fn run_with_progress(
        &self,
        mut progress: impl FnMut(&FoundFile),
    ) -> Result<ScanResult, ScanError> {
        let mut rows = Vec::new();
        let mut each = |ctx: &FileContext, r: &Row| {
            let mut r = r.clone();
            ctx.fill(&mut r);
            rows.push(r);
        };
        let report = self.engine(
            Mode::Rows,
            &mut RowConsumer { each: &mut each },
            &mut progress,
        )?;
        Ok(ScanResult { rows, report })
    }

    /// Reads every claimed file and collects the rows. See [`Scanner::run_with_progress`].
    pub fn run(&self) -> Result<ScanResult, ScanError> {
        self.run_with_progress(|_| {})
    }

    /// Reads one file in a worker, sending its chunks and its end on `tx`.
    fn read_file(&self, job: &Job<'_>, i: usize, tx: &mpsc::SyncSender<Msg>) {
        let (found, holding, shared, mode, evidence, abort) = (
            job.found,
            job.holding[i],
            job.shared[i],
            job.mode,
            job.evidence,
            job.abort,
        );
        let f = &found[i];
        let ctx = self.context(f);
        let mut sink = FileSink {
            scanner: self,
            ctx: &ctx,
            file: i,
            mode,
            holding,
            shared,
            deleted: evidence.is_deleted_file(&f.path),
            tx,
            flow: &job.flow,
            abort,
            rows: Vec::new(),
            bytes: Vec::new(),
            spans: Vec::new(),
            keys: Vec::new(),
            marks: Vec::new(),
            in_order: true,
            size: 0,
            streaming: false,
            sessions: HashMap::new(),
            unnamed: None,
            end: FileEnd {
                report: FileReport {
                    path: f.shown_path(),
                    store: f.store,
                    kind: f.kind,
                    ..FileReport::default()
                },
                ..FileEnd::default()
            },
        };
        let store = self.stores.iter().find(|s| s.name() == f.store);
        if let Some(problem) = &f.problem {
            sink.push(
                Row::system(SCANNER_AGENT, system::parser(problem))
                    .file(&ctx.display_path)
                    .locator("path"),
            );
        } else if let Some(store) = store {
            if f.len == Some(0) {
                sink.push(
                    Row::system(
                        store.agent(&ctx),
                        system::parser(format!("{} is empty (0 bytes); nothing to read", f.kind)),
                    )
                    .file(&ctx.display_path)
                    .locator("whole file"),
                );
            } else {
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    store.read_into(&f.path, &ctx, evidence, &mut sink)
                }));
                if let Err(payload) = outcome {
                    sink.end.report.panicked = true;
                    sink.push(
                        Row::system(
                            store.agent(&ctx),
                            system::parser(format!(
                                "the {} reader stopped on this file with an internal error ({}); the rows before it are kept",
                                store.name(),
                                panic_message(payload.as_ref())
                            )),
                        )
                        .file(&ctx.display_path),
                    );
                }
            }
        }
        sink.send_chunk();
        let end = std::mem::take(&mut sink.end);
        let _ = tx.send(Msg::End(Box::new(end)));
    }

    fn engine(
        &self,
        mode: Mode,
        consumer: &mut dyn Consumer,
        progress: &mut dyn FnMut(&FoundFile),
    ) -> Result<ScanReport, ScanError> {
        let (roots, overlapping) = self.effective_roots()?;
        if let Some(dir) = &self.temp_dir
            && crate::guard::inside_any(dir, &self.roots)
        {
            return Err(ScanError::OutputRefused {
                path: dir.clone(),
                why: format!(
                    "temporary folder {} is inside an evidence root; give one elsewhere",
                    dir.display()
                ),
            });
        }
        let evidence = self.evidence(&roots, self.hashing);
        let Discovered {
            found,
            folders_not_kept: folders_listed_atime_not_kept,
            archives_not_opened,
        } = self.discover_in(&roots, &evidence)?;
        // units: consecutive files of one (root, host)
        let mut units: Vec<Unit> = Vec::new();
        let mut unit_of_file = vec![0usize; found.len()];
        for (i, f) in found.iter().enumerate() {
            let same = i > 0
                && found[i - 1].root == f.root
                && found[i - 1].attribution.host == f.attribution.host;
            if !same {
                units.push(Unit {
                    files: Vec::new(),
                    indexing: false,
                });
            }
            let u = units.len() - 1;
            units[u].files.push(i);
            units[u].indexing |= f.copies && !self.keep_copies;
            unit_of_file[i] = u;
        }
        let holding: Vec<bool> = unit_of_file.iter().map(|&u| units[u].indexing).collect();
        let mut readers: HashMap<&Path, usize> = HashMap::new();
        for f in found.iter().filter(|f| f.problem.is_none()) {
            *readers.entry(f.path.as_path()).or_default() += 1;
        }
        let shared: Vec<bool> = found
            .iter()
            .map(|f| f.problem.is_none() && readers.get(f.path.as_path()).is_some_and(|&n| n > 1))
            .collect();
        drop(readers);
        let threads = effective_threads(self.threads).min(found.len().max(1));

        let mut report = ScanReport {
            overlapping_roots: overlapping,
            ..ScanReport::default()
        };
        let next = AtomicUsize::new(0);
        let abort = AtomicBool::new(false);
        let job = Job {
            flow: Flow {
                state: std::sync::Mutex::new(FlowState::default()),
                moved: std::sync::Condvar::new(),
            },
            ahead: FILES_AHEAD_PER_WORKER * threads,
            found: &found,
            holding: &holding,
            shared: &shared,
            mode,
            evidence: &evidence,
            abort: &abort,
        };
        let (reg_tx, reg_rx) = mpsc::channel::<(usize, mpsc::Receiver<Msg>)>();
        let outcome: Result<(), ScanError> = std::thread::scope(|scope| {
            for w in 0..threads {
                let reg_tx = reg_tx.clone();
                let (found, next, abort, job) = (&found, &next, &abort, &job);
                let spawned = std::thread::Builder::new()
                    .name(format!("scan-worker-{w}"))
                    .spawn_scoped(scope, move || {
                        loop {
                            if abort.load(Ordering::Relaxed) {
                                break;
                            }
                            let i = next.fetch_add(1, Ordering::SeqCst);
                            if i >= found.len() {
                                break;
                            }
                            // a worker runs at most `ahead` files ahead of the writer, so
                            // what waits to be written is bounded by the worker count,
                            // not by the size of the collection
                            if let Ok(state) = job.flow.state.lock() {
                                let guard = job.flow.moved.wait_while(state, |s| {
                                    i != s.done
                                        && (i >= s.done + job.ahead || s.pending >= PENDING_BUDGET)
                                        && !abort.load(Ordering::Relaxed)
                                });
                                drop(guard);
                            }
                            let (tx, rx) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
                            if reg_tx.send((i, rx)).is_err() {
                                break;
                            }
                            self.read_file(job, i, &tx);
                        }
                    });
                if let Err(e) = spawned {
                    abort.store(true, Ordering::Relaxed);
                    return Err(ScanError::Threads {
                        threads,
                        message: e.to_string(),
                    });
                }
            }
            drop(reg_tx);
            let result = self.consume(&job, &units, consumer, progress, &reg_rx, &mut report);
            if result.is_err() {
                abort.store(true, Ordering::Relaxed);
            }
            job.flow.moved.notify_all();
            drop(reg_rx);
            result
        });
        outcome?;
        report.manifest = evidence.manifest();
        // a file a store could not read (refused or failed: permission denied, over the
        // cap) is named with the paths the walk could not read (before 2026-12-05 only
        // in the store's `parser:` row, so the summary counted it as read)
        let known: std::collections::HashSet<String> =
            report.problems.iter().map(|(p, _)| p.clone()).collect();
        for (path, why) in evidence.not_read() {
            let shown = evidence.shown(&path);
            if !known.contains(&shown) {
                report
                    .problems
                    .push((shown, format!("file not read ({why})")));
            }
        }
        // a folder both the walk and a store listed is one folder
        let mut folders = folders_listed_atime_not_kept;
        folders.extend(evidence.folders_access_time_not_kept());
        report.folders_access_time_not_kept = folders.len();
        report.archives_not_opened = archives_not_opened;
        Ok(report)
    }

    /// The writer's side: takes each file's chunks in order, and ends each unit with
    /// its surviving secondary rows.
    fn consume(
        &self,
        job: &Job<'_>,
        units: &[Unit],
        consumer: &mut dyn Consumer,
        progress: &mut dyn FnMut(&FoundFile),
        reg_rx: &mpsc::Receiver<(usize, mpsc::Receiver<Msg>)>,
        report: &mut ScanReport,
    ) -> Result<(), ScanError> {
        let (found, flow) = (job.found, &job.flow);
        let mut waiting: HashMap<usize, mpsc::Receiver<Msg>> = HashMap::new();
        for unit in units {
            let mut index = TwinIndex::default();
            let mut held: Vec<Held> = Vec::new();
            // the bytes of each file's held copies, in file order, and how many of them
            // the unit keeps in memory
            let mut held_bytes: Vec<(usize, HeldBytes)> = Vec::new();
            let mut held_in_memory = 0usize;
            // the `parser:` rows written so far of the file several stores read (its
            // readers are consecutive entries of one unit): what is held is one file's
            let mut said = Said::default();
            let mut repeated = (Summary::default(), WriteStats::default());
            for &i in &unit.files {
                let rx = loop {
                    if let Some(rx) = waiting.remove(&i) {
                        break rx;
                    }
                    match reg_rx.recv() {
                        Ok((j, rx)) => {
                            waiting.insert(j, rx);
                        }
                        Err(_) => {
                            return Err(ScanError::Threads {
                                threads: 0,
                                message: "a worker stopped before reading its file".into(),
                            });
                        }
                    }
                };
                let ctx = self.context(&found[i]);
                if said.path.as_deref() != Some(found[i].path.as_path()) {
                    said = Said {
                        path: job.shared[i].then(|| found[i].path.clone()),
                        ..Said::default()
                    };
                }
                loop {
                    match rx.recv() {
                        Ok(Msg::Chunk(p, size, marks)) => {
                            let p = if marks.is_empty() {
                                p
                            } else {
                                said.leave_out_repeats(i, p, marks, &mut repeated)
                            };
                            consumer.payload(&ctx, p).map_err(ScanError::Output)?;
                            flow.update(|s| s.pending = s.pending.saturating_sub(size));
                        }
                        Ok(Msg::End(end)) => {
                            let end = *end;
                            report.filtered_by_agent += end.filtered_by_agent;
                            report.filtered_by_time += end.filtered_by_time;
                            report.untimed_filtered += end.untimed_filtered;
                            report.counts.add(&end.counts);
                            // the repeated `parser:` rows left out of the file's chunks
                            let (left_out, stats) = std::mem::take(&mut repeated);
                            report.counts.remove(&left_out);
                            report.repeated_parser_rows += left_out.rows;
                            report.write.written += end.write.written - stats.written;
                            report.write.untimed_left_out +=
                                end.write.untimed_left_out - stats.untimed_left_out;
                            report.panics += usize::from(end.report.panicked);
                            if let Some(p) = &found[i].problem {
                                report.problems.push((found[i].shown(), p.clone()));
                            }
                            report.files.push(end.report);
                            for (k, t) in end.index {
                                index.insert(k, t);
                            }
                            if !end.held.is_empty() {
                                let mut bytes = end.held_bytes;
                                if held_in_memory + bytes.in_memory() > self.held_budget {
                                    bytes.spill_over(self.temp_dir.as_deref(), 0);
                                }
                                held_in_memory += bytes.in_memory();
                                report.held_bytes_spilled += bytes.spilled();
                                held_bytes.push((i, bytes));
                                if held.is_empty() {
                                    held = end.held;
                                } else {
                                    held.extend(end.held);
                                }
                            }
                            break;
                        }
                        Err(_) => {
                            return Err(ScanError::Threads {
                                threads: 0,
                                message: "a worker stopped in the middle of a file".into(),
                            });
                        }
                    }
                }
                progress(&found[i]);
                flow.update(|s| s.done = i + 1);
            }
            index.seal();
            let mut last_file = usize::MAX;
            let mut ctx = FileContext::default();
            // copies kept so far, by key: a copy that another file's kept copy already
            // gives (a pruned record in a backup and in the event log) is merged too,
            // so each event that only secondary sources hold is written once
            let mut kept: HashMap<u128, KeptCopies> = HashMap::new();
            // a unit whose copies are all one file's has no copy of another file to
            // compare with (a file's own copies are never compared with each other)
            let one_file = held_bytes.len() < 2;
            let mut readers = held_bytes.into_iter();
            let mut reader: Option<(usize, HeldReader)> = None;
            for h in held {
                // a copy without a time matches its session's twin at any time; one
                // without a session either, a prompt of its agent by text alone
                let untimed_in_session = h.time.is_none() && h.loose.is_none();
                if index.has_twin(h.key, h.time, DEFAULT_WINDOW_MICROS)
                    || (untimed_in_session && index.has_key(h.key))
                    || h.loose.is_some_and(|k| index.has_twin(k, None, 0))
                {
                    report.merged_copies += 1;
                    continue;
                }
                if !one_file {
                    let twins = kept.entry(h.key).or_default();
                    if twins.is_copy(h.file, h.time) {
                        report.merged_copies += 1;
                        continue;
                    }
                    twins.keep(h.time);
                }
                if h.file != last_file {
                    ctx = self.context(&found[h.file]);
                    last_file = h.file;
                }
                report.counts.count(h.turn, h.parser, h.time.is_none());
                if h.left_out {
                    report.write.untimed_left_out += 1;
                } else if matches!(job.mode, Mode::Write(_)) {
                    report.write.written += 1;
                }
                while reader.as_ref().is_none_or(|(f, _)| *f != h.file) {
                    let Some((f, bytes)) = readers.next() else {
                        return Err(ScanError::Threads {
                            threads: 0,
                            message: "a held copy's file was not seen".into(),
                        });
                    };
                    reader = Some((f, bytes.reader().map_err(ScanError::Output)?));
                }
                let (_, r) = reader.as_mut().expect("just set");
                let bytes = r.read(h.at, h.len).map_err(ScanError::Output)?;
                consumer.held(&ctx, bytes).map_err(ScanError::Output)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_copies_answer_as_comparing_with_every_kept_copy() {
        use chat_rows::merge::within_window;
        // copies of one key, file after file, times from a few seconds, some untimed;
        // a small generator, so the run is the same every time
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let mut copies = Vec::new();
            for file in 0..next(5) as usize + 1 {
                for _ in 0..next(6) {
                    let time = (next(5) != 0).then(|| next(8) as i64 * 700_000);
                    copies.push((file, time));
                }
            }
            let mut kept = KeptCopies::default();
            let mut all: Vec<(Option<i64>, usize)> = Vec::new();
            for (file, time) in copies {
                let slow = all
                    .iter()
                    .any(|(t, f)| *f != file && within_window(*t, time, DEFAULT_WINDOW_MICROS));
                assert_eq!(kept.is_copy(file, time), slow, "{file} {time:?} {all:?}");
                if !slow {
                    kept.keep(time);
                    all.push((time, file));
                }
            }
        }
    }
    use chat_rows::{Claim, store::paths};

    #[derive(Default)]
    struct Probe;
    impl Store for Probe {
        fn name(&self) -> &'static str {
            "probe"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["*.probe"]).then_some(Claim::new("probe file"))
        }
        fn read_into(
            &self,
            path: &Path,
            _ctx: &FileContext,
            evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            let bytes = evidence.read(path).unwrap_or_default();
            for row in chat_rows::lines::lines(&bytes).map(|l| {
                let text = l.text_lossy().into_owned();
                let ts = text
                    .split_once(' ')
                    .and_then(|(ms, _)| ms.parse().ok())
                    .and_then(Timestamp::from_epoch_millis);
                Row::new("probe", TurnType::User, text)
                    .at(ts)
                    .line(l.number)
            }) {
                sink.push(row);
            }
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

    /// A Cargo build folder (with the `CACHEDIR.TAG` Cargo writes) and `node_modules`
    /// are not descended into; a user's home named `target` is read.
    #[test]
    fn only_a_cargo_target_folder_is_left_out() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/target");
        for dir in ["target/debug", "node_modules/x", "src/target"] {
            std::fs::create_dir_all(home.join(dir)).unwrap();
        }
        std::fs::write(home.join("target/CACHEDIR.TAG"), "Signature: 8a477f59\n").unwrap();
        std::fs::write(home.join("target/debug/a.probe"), "1 cargo\n").unwrap();
        std::fs::write(home.join("node_modules/x/b.probe"), "2 package\n").unwrap();
        std::fs::write(home.join("src/target/c.probe"), "3 kept\n").unwrap();
        std::fs::write(home.join("d.probe"), "4 kept\n").unwrap();
        let r = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .run()
            .unwrap();
        let mut read: Vec<_> = r
            .rows
            .iter()
            .map(|r| (r.user.as_str(), r.text.as_str()))
            .collect();
        read.sort();
        assert_eq!(read, [("target", "3 kept"), ("target", "4 kept")]);
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
            paths::ends_with(path, &["*.probe"]).then_some(Claim::new("copy").with_copies())
        }
        fn read_into(
            &self,
            path: &Path,
            ctx: &FileContext,
            evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            for r in Probe.read(path, ctx, evidence) {
                sink.push(r.secondary(true));
            }
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

    struct Panicky;
    impl Store for Panicky {
        fn name(&self) -> &'static str {
            "panicky"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["*.probe"]).then_some(Claim::new("probe file"))
        }
        fn read_into(
            &self,
            path: &Path,
            ctx: &FileContext,
            evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            for r in Probe.read(path, ctx, evidence) {
                sink.push(r);
            }
            if path.ends_with("b.probe") {
                panic!("index out of bounds: the len is 0 but the index is 3");
            }
        }
    }

    #[test]
    fn a_panic_in_a_store_is_one_parser_row_and_the_scan_goes_on() {
        let d = tree();
        let r = Scanner::new()
            .stores(vec![Box::new(Panicky)])
            .root(d.path())
            .run()
            .unwrap();
        let texts: Vec<_> = r.rows.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "1600000000000 a1",
                "1700000000000 b1",
                "no time",
                "parser: the panicky reader stopped on this file with an internal error (index out of bounds: the len is 0 but the index is 3); the rows before it are kept"
            ]
        );
        assert_eq!(r.rows[3].agent, "panicky");
        assert!(r.rows[3].source_file.ends_with("b.probe"));
        assert_eq!(r.panics, 1);
        assert_eq!(r.files.iter().filter(|f| f.panicked).count(), 1);
    }

    struct Shuffled;
    impl Store for Shuffled {
        fn name(&self) -> &'static str {
            "shuffled"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["a.probe"]).then_some(Claim::new("probe file"))
        }
        fn read_into(
            &self,
            _path: &Path,
            _ctx: &FileContext,
            _evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            let at = |ms: i64| Timestamp::from_epoch_millis(1_700_000_000_000 + ms);
            for (session, ms, text) in [
                ("s1", Some(30), "s1 third"),
                ("s2", Some(5), "s2 first"),
                ("s1", None, "s1 untimed after third"),
                ("s1", Some(10), "s1 first"),
                ("s2", Some(1), "s2 zeroth"),
                ("s1", Some(20), "s1 second"),
            ] {
                sink.push(
                    Row::new("probe", TurnType::User, text)
                        .session(session)
                        .at(ms.and_then(at)),
                );
            }
        }
    }

    #[test]
    fn rows_are_grouped_by_session_and_sorted_by_time_within_it() {
        let d = tree();
        let run = |threads| {
            Scanner::new()
                .stores(vec![Box::new(Shuffled)])
                .root(d.path())
                .threads(threads)
                .run()
                .unwrap()
        };
        let r = run(1);
        let texts: Vec<_> = r.rows.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "s1 first",
                "s1 second",
                "s1 third",
                "s1 untimed after third",
                "s2 zeroth",
                "s2 first"
            ]
        );
        assert_eq!(run(2).rows, r.rows);
    }

    #[test]
    fn the_streamed_written_and_collected_forms_agree() {
        let d = tree();
        let scanner = || {
            Scanner::new()
                .stores(vec![Box::new(Probe), Box::new(Copies)])
                .root(d.path())
        };
        let collected = scanner().run().unwrap();
        let mut streamed = Vec::new();
        scanner()
            .for_each_row(|ctx, r| {
                let mut r = r.clone();
                ctx.fill(&mut r);
                streamed.push(r);
            })
            .unwrap();
        assert_eq!(streamed, collected.rows);
        for format in [
            chat_rows::write::Format::Jsonl,
            chat_rows::write::Format::Csv,
            chat_rows::write::Format::Timesketch,
        ] {
            let mut written = Vec::new();
            let report = scanner().write_to(format, &mut written).unwrap();
            let (expect, stats) = chat_rows::write::to_bytes(format, &collected.rows).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(expect).unwrap()
            );
            assert_eq!(report.write, stats);
            assert_eq!(report.merged_copies, 3);
        }
    }

    #[test]
    fn a_copy_only_secondary_sources_hold_is_written_once() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(&home).unwrap();
        // the same pruned record in a backup and in a log; the log also has its own
        std::fs::write(home.join("a.probe"), "1600000000000 pruned\n").unwrap();
        std::fs::write(
            home.join("b.probe"),
            "1600000001000 pruned\n1600000000000 own\n",
        )
        .unwrap();
        let run = |keep| {
            Scanner::new()
                .stores(vec![Box::new(Copies)])
                .root(d.path())
                .keep_copies(keep)
                .run()
                .unwrap()
        };
        let merged = run(false);
        let texts: Vec<_> = merged
            .rows
            .iter()
            .map(|r| (r.text.as_str(), r.source_file.ends_with("a.probe")))
            .collect();
        assert_eq!(
            texts,
            [
                ("1600000000000 pruned", true),
                ("1600000001000 pruned", false),
                ("1600000000000 own", false)
            ]
        );
        assert_eq!(merged.merged_copies, 0, "different texts are not twins");
        // same text within the window: the second copy is merged into the first
        std::fs::write(
            home.join("b.probe"),
            "1600000000000 pruned\n1600000000000 own\n",
        )
        .unwrap();
        let merged = run(false);
        assert_eq!(merged.rows.len(), 2);
        assert_eq!(merged.merged_copies, 1);
        assert!(merged.rows[0].source_file.ends_with("a.probe"));
        assert_eq!(run(true).rows.len(), 3);
    }

    /// Prompts with a session and a time (`*.probe`), and a legacy list of prompts with
    /// neither (`*.legacy`), which holds copies.
    struct Sessions;
    impl Store for Sessions {
        fn name(&self) -> &'static str {
            "sessions"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            if paths::ends_with(path, &["*.legacy"]) {
                Some(Claim::new("legacy").with_copies())
            } else {
                paths::ends_with(path, &["*.probe"]).then_some(Claim::new("log"))
            }
        }
        fn read_into(
            &self,
            path: &Path,
            _ctx: &FileContext,
            evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            let legacy = path.extension().is_some_and(|e| e == "legacy");
            let bytes = evidence.read(path).unwrap_or_default();
            for l in chat_rows::lines::lines(&bytes) {
                let text = l.text_lossy().replace('|', "\n");
                let row = Row::new("probe", TurnType::User, text);
                sink.push(if legacy {
                    row.secondary(true)
                } else {
                    row.session("s1")
                        .at(Timestamp::from_epoch_millis(1_700_000_000_000))
                });
            }
        }
    }

    #[test]
    fn a_copy_without_session_or_time_merges_into_a_prompt_of_the_same_text() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join("a.probe"),
            "fix the build\nrun tests\nadd a cart total|[context file cart.ts]\n",
        )
        .unwrap();
        std::fs::write(
            home.join("b.legacy"),
            "run tests\nan older prompt\nadd a cart total \nadd a cart\n",
        )
        .unwrap();
        let r = Scanner::new()
            .stores(vec![Box::new(Sessions)])
            .root(d.path())
            .run()
            .unwrap();
        let texts: Vec<_> = r
            .rows
            .iter()
            .map(|r| (r.text.as_str(), r.secondary))
            .collect();
        // "add a cart total " is the prompt without its context line (merged); "add a
        // cart" is not a whole line of it (kept)
        assert_eq!(
            texts,
            [
                ("fix the build", false),
                ("run tests", false),
                ("add a cart total\n[context file cart.ts]", false),
                ("an older prompt", true),
                ("add a cart", true)
            ]
        );
        assert_eq!(r.merged_copies, 2);
    }

    /// Rows spelled out one per line: `agent;session;epoch ms or -;p|s;text`.
    struct Spelled;
    impl Store for Spelled {
        fn name(&self) -> &'static str {
            "spelled"
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            paths::ends_with(path, &["*.rows"]).then_some(Claim::new("rows").with_copies())
        }
        fn read_into(
            &self,
            path: &Path,
            _ctx: &FileContext,
            evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            let bytes = evidence.read(path).unwrap_or_default();
            for l in chat_rows::lines::lines(&bytes) {
                let text = l.text_lossy();
                let f: Vec<&str> = text.splitn(5, ';').collect();
                sink.push(
                    Row::new(f[0], TurnType::User, f[4])
                        .session(f[1])
                        .at(f[2].parse().ok().and_then(Timestamp::from_epoch_millis))
                        .secondary(f[3] == "s"),
                );
            }
        }
    }

    /// Copies held past the budget go to unnamed files in the temporary folder and come
    /// back the same: rows, written bytes in every format and merge counts are those of
    /// a scan that holds them in memory, whether a file's copies pass the budget as it
    /// is read (budget 0) or a unit's files do together (budget 300); a temporary folder
    /// that cannot be written keeps them in memory.
    #[test]
    fn held_copies_spilled_to_the_temporary_folder_come_back_the_same() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(&home).unwrap();
        let (mut a, mut b) = (String::new(), String::new());
        for i in 0..40 {
            let ms = 1_700_000_000_000u64 + i * 10_000;
            let text = format!("prompt {i} {}", "é".repeat(i as usize % 9));
            if i % 2 == 0 {
                a.push_str(&format!("claude;s1;{ms};p;{text}\n"));
            }
            // a twin of a primary, or a copy only the copies hold
            a.push_str(&format!("claude;s1;{ms};s;{text}\n"));
            // the same copies again in another file (merged into a's), some untimed
            let time = if i % 5 == 0 {
                "-".to_string()
            } else {
                ms.to_string()
            };
            b.push_str(&format!("claude;s1;{time};s;{text}\n"));
        }
        std::fs::write(home.join("a.rows"), a).unwrap();
        std::fs::write(home.join("b.rows"), b).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let scanner = |budget: usize, temp: Option<&Path>| {
            let mut s = Scanner::new()
                .stores(vec![Box::new(Spelled)])
                .root(d.path());
            s.held_budget = budget;
            match temp {
                Some(t) => s.temp_dir(t),
                None => s,
            }
        };
        let in_memory = scanner(HELD_BUDGET, None).run().unwrap();
        assert_eq!((in_memory.rows.len(), in_memory.merged_copies), (44, 56));
        assert_eq!(in_memory.held_bytes_spilled, 0);
        // a held row comes back as the store gave it (kept copies hold nothing: each of
        // their rows is the store's own)
        let all = scanner(HELD_BUDGET, None).keep_copies(true).run().unwrap();
        assert_eq!(all.rows.len(), 100);
        for r in &in_memory.rows {
            assert!(all.rows.contains(r), "{r:?}");
        }
        let gone = tmp.path().join("not-there");
        for (budget, temp, spills) in [
            (0, Some(tmp.path()), true),
            (300, Some(tmp.path()), true),
            (0, Some(gone.as_path()), false),
            (HELD_BUDGET, Some(tmp.path()), false),
        ] {
            let r = scanner(budget, temp).run().unwrap();
            assert_eq!(r.rows, in_memory.rows, "{budget} {temp:?}");
            assert_eq!(r.merged_copies, 56);
            assert_eq!(r.held_bytes_spilled > 0, spills, "{budget} {temp:?}");
            for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
                let (mut held, mut spilled) = (Vec::new(), Vec::new());
                let expect = scanner(HELD_BUDGET, None)
                    .write_to(format, &mut held)
                    .unwrap();
                let report = scanner(budget, temp)
                    .write_to(format, &mut spilled)
                    .unwrap();
                assert_eq!(String::from_utf8(spilled), String::from_utf8(held));
                assert_eq!((report.write, report.merged_copies), (expect.write, 56));
                assert_eq!(report.held_bytes_spilled > 0, spills, "{budget} {format:?}");
            }
        }
        // the temporary files had no name: nothing is left behind
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }

    /// A copy that kept its session but no time matches its session's prompt of the
    /// same text at whatever time (the Copilot and Cursor specs compare times only when
    /// both rows have one); a copy with neither session nor time matches a prompt of its
    /// own agent only, never another assistant's prompt of the same text.
    #[test]
    fn untimed_copies_match_in_their_session_and_their_agent() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join("a.rows"),
            "cursor;c1;1700000000000;p;Add a cart total\n\
             claude;k1;1700000001000;p;refactor the payment module\n\
             cursor;c1;-;s;Add a cart total\n\
             cursor;c2;-;s;Add a cart total\n\
             cursor;;-;s;refactor the payment module\n\
             claude;;-;s;refactor the payment module\n",
        )
        .unwrap();
        let r = Scanner::new()
            .stores(vec![Box::new(Spelled)])
            .root(d.path())
            .run()
            .unwrap();
        let kept: Vec<_> = r
            .rows
            .iter()
            .map(|r| {
                (
                    r.agent.as_str(),
                    r.session_id.as_str(),
                    r.text.as_str(),
                    r.secondary,
                )
            })
            .collect();
        assert_eq!(
            kept,
            [
                ("cursor", "c1", "Add a cart total", false),
                ("claude", "k1", "refactor the payment module", false),
                // another session: not a copy
                ("cursor", "c2", "Add a cart total", true),
                // Cursor's prompt list holds a prompt Claude Code also had: kept
                ("cursor", "", "refactor the payment module", true),
            ]
        );
        assert_eq!(r.merged_copies, 2);
    }

    /// A store of `*.twin` files (and, for `twin-a`, `*.solo` too) that gives the
    /// parser row every reader of a damaged file would give, among its own rows.
    struct Twin(&'static str);
    impl Store for Twin {
        fn name(&self) -> &'static str {
            self.0
        }
        fn claim(&self, path: &Path) -> Option<Claim> {
            let solo = self.0 == "twin-a" && paths::ends_with(path, &["*.solo"]);
            (solo || paths::ends_with(path, &["*.twin"])).then_some(Claim::new("twin file"))
        }
        fn read_into(
            &self,
            path: &Path,
            ctx: &FileContext,
            _evidence: &Evidence,
            sink: &mut dyn RowSink,
        ) {
            let file = &ctx.display_path;
            let turn = |text: &str, ms: i64| {
                Row::new("twin", TurnType::User, text)
                    .session("s1")
                    .at(Timestamp::from_epoch_millis(ms))
                    .file(file)
            };
            let parser = |text: &str| Row::system("twin", system::parser(text)).file(file);
            if self.0 == "twin-a" {
                sink.push(parser("x.twin unreadable: damaged"));
                sink.push(turn("read by twin-a", 1_700_000_000_000));
            }
            if self.0 == "twin-b" || path.extension().is_some_and(|e| e == "solo") {
                // out of time order: the chunk is sorted, the parser rows stay where
                // they were among the rows without a session
                sink.push(turn("late", 1_700_000_020_000));
                sink.push(parser("x.twin unreadable: damaged"));
                sink.push(turn("early", 1_700_000_010_000));
                // a store's own repeated row is its own, and kept
                for _ in 0..2 {
                    sink.push(parser("only one store says this"));
                }
                // the same words in another place are another row
                sink.push(parser("x.twin unreadable: damaged").locator("page 2"));
            }
        }
    }

    #[test]
    fn a_parser_row_two_stores_give_for_one_file_is_written_once() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home/zed");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("x.twin"), "damaged").unwrap();
        std::fs::write(home.join("y.solo"), "damaged").unwrap();
        let scanner = || {
            Scanner::new()
                .stores(vec![Box::new(Twin("twin-a")), Box::new(Twin("twin-b"))])
                .root(d.path())
        };
        for threads in [1, 3] {
            let r = scanner().threads(threads).run().unwrap();
            let rows: Vec<(String, &str, &str)> = r
                .rows
                .iter()
                .map(|r| {
                    let file = r.source_file.rsplit('/').next().unwrap_or_default();
                    (file.to_string(), r.text.as_str(), r.source_locator.as_str())
                })
                .collect();
            let x = |t, l| ("x.twin".to_string(), t, l);
            let y = |t, l| ("y.solo".to_string(), t, l);
            assert_eq!(
                rows,
                [
                    // twin-a, then twin-b without the row twin-a gave
                    x("parser: x.twin unreadable: damaged", ""),
                    x("read by twin-a", ""),
                    x("early", ""),
                    x("late", ""),
                    x("parser: only one store says this", ""),
                    x("parser: only one store says this", ""),
                    x("parser: x.twin unreadable: damaged", "page 2"),
                    // a file one store reads is left as the store gave it
                    // (the rows without a session first: the file named them first)
                    y("parser: x.twin unreadable: damaged", ""),
                    y("parser: x.twin unreadable: damaged", ""),
                    y("parser: only one store says this", ""),
                    y("parser: only one store says this", ""),
                    y("parser: x.twin unreadable: damaged", "page 2"),
                    y("read by twin-a", ""),
                    y("early", ""),
                    y("late", ""),
                ]
            );
            assert_eq!(r.repeated_parser_rows, 1);
            // rows collected are not written: nothing to take back from the writer's count
            assert_eq!(r.write, WriteStats::default());
            assert_eq!(r.counts.rows, 15);
            assert_eq!(r.counts.parser_rows, 9);
            assert_eq!(r.counts.untimed_rows, 9);
            assert_eq!(r.counts.rows_per_turn_type.get("system"), Some(&9));
            // what the stores gave is still told per reading
            let given: Vec<_> = r
                .files
                .iter()
                .map(|f| (f.store, f.rows, f.parser_rows))
                .collect();
            assert_eq!(
                given,
                [("twin-a", 2, 1), ("twin-b", 6, 4), ("twin-a", 8, 5)]
            );
            // the written forms say the same, row for row
            for format in [
                chat_rows::write::Format::Jsonl,
                chat_rows::write::Format::Csv,
                chat_rows::write::Format::Timesketch,
            ] {
                let mut written = Vec::new();
                let report = scanner()
                    .threads(threads)
                    .write_to(format, &mut written)
                    .unwrap();
                let (expect, stats) = chat_rows::write::to_bytes(format, &r.rows).unwrap();
                assert_eq!(
                    String::from_utf8(written).unwrap(),
                    String::from_utf8(expect).unwrap()
                );
                assert_eq!(report.write, stats);
                assert_eq!(report.repeated_parser_rows, 1);
            }
        }
    }

    /// Walks `root` (a folder) with `list` and `enter`, going into no archive and
    /// admitting every folder: what it met, one line each, and the folders listed
    /// without keeping their access time.
    fn walk_told(
        root: &Path,
        list: &mut dyn FnMut(&Path, bool) -> std::io::Result<chat_rows::evidence::Listing>,
        enter: &mut dyn FnMut(&Path, usize) -> bool,
    ) -> (Vec<String>, Vec<PathBuf>) {
        let mut met = Vec::new();
        let not_kept = walk(
            root,
            EntryKind::Folder,
            list,
            &mut |_, _| false,
            enter,
            &mut |_, _| true,
            &mut |m| {
                met.push(match m {
                    Met::Entry { path, depth, kind } => {
                        format!("{} {depth} {kind:?}", path.display())
                    }
                    Met::Unreadable { path, error } => format!("{} {error}", path.display()),
                })
            },
        );
        (met, not_kept)
    }

    /// A folder the walk listed as a folder and that is swapped for a link to a folder
    /// outside the root before the walk enters it is not followed: it cannot be
    /// listed (`O_NOFOLLOW`), and nothing outside the root is met. The swap is made
    /// from `enter`, which is asked just before the listing.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_folder_swapped_for_a_link_before_it_is_entered_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
        std::fs::create_dir_all(root.join("home/.copilot")).unwrap();
        std::fs::write(root.join("home/a.json"), b"{}").unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret.json"), b"{}").unwrap();
        let swapped = root.join("home/.copilot");
        let mut enter = |path: &Path, _depth: usize| {
            if path == swapped {
                std::fs::remove_dir(path).unwrap();
                std::os::unix::fs::symlink(&outside, path).unwrap();
            }
            true
        };
        let (met, not_kept) = walk_told(&root, &mut chat_rows::evidence::list_folder, &mut enter);
        assert_eq!(
            met,
            [
                format!("{} Not a directory (os error 20)", swapped.display()),
                format!("{} 2 File", root.join("home/a.json").display()),
            ]
        );
        assert!(not_kept.is_empty());
    }

    /// A folder *above* the one the walk is about to list, swapped for a link out of
    /// the root: the listing opens its last name without following a link, but the
    /// link above leads the open out; the reader places the open folder and refuses it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_folder_swapped_above_the_next_listed_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
        std::fs::create_dir_all(root.join("home/x/deep")).unwrap();
        std::fs::write(root.join("home/x/deep/in.json"), b"{}").unwrap();
        std::fs::create_dir_all(outside.join("x/deep")).unwrap();
        std::fs::write(outside.join("x/deep/secret.json"), b"{}").unwrap();
        let evidence = Evidence::new().roots([&root]);
        let next = root.join("home/x/deep");
        let mut enter = |path: &Path, _depth: usize| {
            if path == next {
                std::fs::rename(root.join("home/x"), root.join("home/x-was")).unwrap();
                std::os::unix::fs::symlink(outside.join("x"), root.join("home/x")).unwrap();
            }
            true
        };
        let (met, _) = walk_told(&root, &mut lister(&evidence), &mut enter);
        let beyond = std::fs::canonicalize(outside.join("x/deep")).unwrap();
        assert_eq!(
            met,
            [format!(
                "{} resolves to {}, outside the evidence root; not followed",
                next.display(),
                beyond.display()
            )]
        );
    }

    #[test]
    #[cfg(unix)]
    fn the_running_systems_proc_and_sys_are_named_not_walked() {
        // a collection's folders of those names are walked as any folder
        let d = tempfile::tempdir().unwrap();
        for name in ["proc", "sys"] {
            let home = d.path().join(format!("h1/{name}/home/zed"));
            std::fs::create_dir_all(&home).unwrap();
            std::fs::write(home.join("a.probe"), "1600000000000 a1\n").unwrap();
            assert_eq!(
                kernel_filesystem(&d.path().join("h1").join(name), name),
                None
            );
        }
        let found = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .discover()
            .unwrap();
        let claimed: Vec<_> = found
            .iter()
            .map(|f| f.path.strip_prefix(d.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            claimed,
            [
                PathBuf::from("h1/proc/home/zed/a.probe"),
                PathBuf::from("h1/sys/home/zed/a.probe")
            ]
        );
        // this machine's own, where they are mounts (they are on Linux, containers too)
        use std::os::unix::fs::MetadataExt;
        let root_dev = std::fs::metadata("/").unwrap().dev();
        for (name, what) in [
            ("proc", "the running system's process filesystem (proc)"),
            ("sys", "the running system's kernel filesystem (sysfs)"),
        ] {
            let path = Path::new("/").join(name);
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.dev() != root_dev => {
                    assert_eq!(kernel_filesystem(&path, name), Some(what))
                }
                _ => eprintln!("skipped: /{name} is not a mount here"),
            }
        }
        assert_eq!(kernel_filesystem(Path::new("/usr"), "usr"), None);
    }

    /// Unmounts a bind mount when dropped (before the temporary folder under it).
    #[cfg(target_os = "linux")]
    struct BindMount(PathBuf);
    #[cfg(target_os = "linux")]
    impl Drop for BindMount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_folder_shown_twice_by_a_bind_mount_is_read_once() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h1/home");
        std::fs::create_dir_all(home.join("zed/mirror")).unwrap();
        std::fs::write(home.join("zed/a.probe"), "1600000000000 a1\n").unwrap();
        // `home` shown again inside itself: without the check, its files twice
        let mirror = home.join("zed/mirror");
        let mounted = std::process::Command::new("mount")
            .arg("--bind")
            .arg(&home)
            .arg(&mirror)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("skipped: mount --bind is not permitted here");
            return;
        }
        let _unmount = BindMount(mirror.clone());
        let found = Scanner::new()
            .stores(vec![Box::new(Probe)])
            .root(d.path())
            .discover()
            .unwrap();
        let got: Vec<_> = found
            .iter()
            .map(|f| {
                (
                    f.path.strip_prefix(d.path()).unwrap().to_path_buf(),
                    f.problem.clone().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (PathBuf::from("h1/home/zed/a.probe"), String::new()),
                (
                    PathBuf::from("h1/home/zed/mirror"),
                    format!(
                        "folder not read: the same folder as {} (the same device and inode: a bind mount or a macOS firmlink shows it twice); its files are read there",
                        chat_rows::display_path(&home)
                    )
                ),
            ]
        );
    }
}
