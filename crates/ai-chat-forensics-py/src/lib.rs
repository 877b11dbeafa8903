//! Python bindings of ai-chat-forensics: the scanner as a Python iterator of dicts.
//!
//! # Why it is built this way
//!
//! The DFIR world scripts in Python (Dissect, plaso, Timesketch notebooks, Jupyter), and
//! a case can be hundreds of hosts: a function that returned a list would hold the whole
//! case in the Python heap. So `scan()` returns at once an iterator, [`Rows`], and the
//! scan runs on a background thread of its own while Python consumes rows:
//!
//! * the scanner writes JSONL ([`Scanner::write_to`], the CLI's own writer, formatted by
//!   the worker threads) into a [`ChannelWriter`], which hands complete lines to a
//!   bounded channel in chunks of about 64 KiB: at most [`CHUNKS_IN_FLIGHT`] chunks wait
//!   for Python, so memory stays flat whatever the size of the case;
//! * each `__next__` decodes one line into a dict (keys in the column order of
//!   `Row::columns()`, values exactly those of the CLI's JSONL), so a dict is field for
//!   field the CLI's row, by construction;
//! * the GIL is released while waiting for the next chunk, and Ctrl-C is noticed within
//!   a tenth of a second;
//! * when the iterator is closed or dropped before its end, the channel closes, the
//!   writer fails, and the scan stops (the scanner stops on an output error) instead of
//!   reading the rest of the case for nobody.
//!
//! `read_file()` reads one file with the store that claims it (or the one named) the same
//! way, through [`chat_rows::Store::read_into`] on a background thread.
//!
//! The crate writes no `unsafe` code itself; pyo3's generated glue does, which is why
//! it does not carry `#![forbid(unsafe_code)]` like the others.
//!
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::Duration;

use ai_chat_forensics::chat_rows::write::{Format, format_row};
use ai_chat_forensics::chat_rows::{
    self, Evidence, FileContext, Row, RowSink, Store, Timestamp, TurnType, Zone, when,
};
use ai_chat_forensics::{FileReport, ScanReport, Scanner, Summary, layout, locations, stores};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Deserialize;

/// Bytes of complete lines sent to Python at a time.
pub const CHUNK_BYTES: usize = 64 << 10;
/// Chunks that may wait for Python before the scan waits.
pub const CHUNKS_IN_FLIGHT: usize = 8;

create_exception!(
    _native,
    ScanError,
    PyException,
    "A scan could not run: a root that does not exist or cannot be listed, worker threads that could not start, or a reader that failed as a whole."
);

/// A `Write` that hands complete JSONL lines to Python through a bounded channel.
///
/// Writes are cut after their last newline into chunks of about [`CHUNK_BYTES`];
/// `flush` sends the rest. When the Python side is gone, writes fail with
/// `BrokenPipe`, which stops the scan.
pub struct ChannelWriter {
    tx: SyncSender<Vec<u8>>,
    pending: Vec<u8>,
}

impl ChannelWriter {
    fn new(tx: SyncSender<Vec<u8>>) -> ChannelWriter {
        ChannelWriter {
            tx,
            pending: Vec::with_capacity(CHUNK_BYTES * 2),
        }
    }

    fn send(&mut self, all: bool) -> io::Result<()> {
        let cut = if all {
            self.pending.len()
        } else {
            match self.pending.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => return Ok(()),
            }
        };
        if cut == 0 {
            return Ok(());
        }
        let rest = self.pending.split_off(cut);
        let chunk = std::mem::replace(&mut self.pending, rest);
        self.tx.send(chunk).map_err(|_| {
            io::Error::new(io::ErrorKind::BrokenPipe, "the Python iterator was closed")
        })
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= CHUNK_BYTES {
            self.send(false)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send(true)
    }
}

/// One JSONL line of the CLI, borrowed from the chunk where no escape forces a copy.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    timestamp_utc: Cow<'a, str>,
    #[serde(borrow)]
    timestamp_zone: Cow<'a, str>,
    #[serde(borrow)]
    host: Cow<'a, str>,
    #[serde(borrow)]
    user: Cow<'a, str>,
    #[serde(borrow)]
    agent: Cow<'a, str>,
    #[serde(borrow)]
    session_id: Cow<'a, str>,
    #[serde(borrow)]
    project_path: Cow<'a, str>,
    #[serde(borrow)]
    git_branch: Cow<'a, str>,
    #[serde(borrow)]
    turn_type: Cow<'a, str>,
    #[serde(borrow)]
    model: Cow<'a, str>,
    #[serde(borrow)]
    tool_name: Cow<'a, str>,
    #[serde(borrow)]
    tool_use_id: Cow<'a, str>,
    #[serde(borrow)]
    text: Cow<'a, str>,
    #[serde(borrow)]
    source_file: Cow<'a, str>,
    source_line: Option<u64>,
    #[serde(borrow)]
    source_locator: Cow<'a, str>,
    #[serde(borrow)]
    record_state: Cow<'a, str>,
    secondary: bool,
}

impl Line<'_> {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("timestamp_utc", &*self.timestamp_utc)?;
        d.set_item("timestamp_zone", &*self.timestamp_zone)?;
        d.set_item("host", &*self.host)?;
        d.set_item("user", &*self.user)?;
        d.set_item("agent", &*self.agent)?;
        d.set_item("session_id", &*self.session_id)?;
        d.set_item("project_path", &*self.project_path)?;
        d.set_item("git_branch", &*self.git_branch)?;
        d.set_item("turn_type", &*self.turn_type)?;
        d.set_item("model", &*self.model)?;
        d.set_item("tool_name", &*self.tool_name)?;
        d.set_item("tool_use_id", &*self.tool_use_id)?;
        d.set_item("text", &*self.text)?;
        d.set_item("source_file", &*self.source_file)?;
        d.set_item("source_line", self.source_line)?;
        d.set_item("source_locator", &*self.source_locator)?;
        d.set_item("record_state", &*self.record_state)?;
        d.set_item("secondary", self.secondary)?;
        Ok(d)
    }
}

/// How the background thread ended.
type Outcome = Result<ScanReport, String>;

/// The rows of a scan or of one file, as they arrive; a Python iterator of dicts.
///
/// Once it is exhausted, `report`, `files` and `summary` tell what was read.
#[pyclass(module = "ai_chat_forensics")]
pub struct Rows {
    // a Mutex only to make the class Sync, as pyo3 requires; only one thread uses it
    rx: Option<Mutex<Receiver<Vec<u8>>>>,
    chunk: Vec<u8>,
    at: usize,
    handle: Option<JoinHandle<Outcome>>,
    report: Option<ScanReport>,
    error: Option<String>,
}

impl Rows {
    fn start(work: impl FnOnce(ChannelWriter) -> Outcome + Send + 'static) -> PyResult<Rows> {
        let (tx, rx) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
        let handle = std::thread::Builder::new()
            .name("ai-chat-forensics-scan".into())
            .spawn(move || work(ChannelWriter::new(tx)))
            .map_err(|e| ScanError::new_err(format!("cannot start the scan thread: {e}")))?;
        Ok(Rows {
            rx: Some(Mutex::new(rx)),
            chunk: Vec::new(),
            at: 0,
            handle: Some(handle),
            report: None,
            error: None,
        })
    }

    /// The next line of the current chunk, if any.
    fn next_line(&mut self) -> Option<(usize, usize)> {
        if self.at >= self.chunk.len() {
            return None;
        }
        let start = self.at;
        let end = self.chunk[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.chunk.len(), |i| start + i);
        self.at = end + 1;
        Some((start, end))
    }

    /// Joins the background thread (without the GIL) and keeps its outcome.
    fn finish(&mut self, py: Python<'_>) {
        self.rx = None;
        if let Some(handle) = self.handle.take() {
            match py.detach(move || handle.join()) {
                Ok(Ok(report)) => self.report = Some(report),
                Ok(Err(e)) => self.error = Some(e),
                Err(_) => self.error = Some("the scan thread panicked".into()),
            }
        }
    }

    fn report_dict<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(r) = &self.report else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        let files = PyList::empty(py);
        for f in &r.files {
            files.append(file_dict(py, f)?)?;
        }
        d.set_item("files", files)?;
        let problems = PyList::empty(py);
        for (path, why) in &r.problems {
            let p = PyDict::new(py);
            p.set_item("path", path)?;
            p.set_item("problem", why)?;
            problems.append(p)?;
        }
        d.set_item("problems", problems)?;
        let overlapping: Vec<String> = r
            .overlapping_roots
            .iter()
            .map(|p| chat_rows::display_path(p))
            .collect();
        d.set_item("overlapping_roots", overlapping)?;
        let not_opened: Vec<String> = r
            .archives_not_opened
            .iter()
            .map(|p| chat_rows::display_path(p))
            .collect();
        d.set_item("archives_not_opened", not_opened)?;
        d.set_item("filtered_by_time", r.filtered_by_time)?;
        d.set_item("untimed_filtered", r.untimed_filtered)?;
        d.set_item("filtered_by_agent", r.filtered_by_agent)?;
        d.set_item("merged_copies", r.merged_copies)?;
        d.set_item("held_bytes_spilled", r.held_bytes_spilled)?;
        d.set_item("panics", r.panics)?;
        d.set_item("repeated_parser_rows", r.repeated_parser_rows)?;
        let manifest = PyList::empty(py);
        for m in &r.manifest {
            let e = PyDict::new(py);
            e.set_item("path", &m.path)?;
            e.set_item("link_target", m.link_target.as_deref())?;
            e.set_item("size", m.size)?;
            e.set_item("mtime_utc", &m.mtime_utc)?;
            e.set_item("sha256", &m.sha256)?;
            e.set_item("access_time_kept", m.access_time_kept)?;
            manifest.append(e)?;
        }
        d.set_item("manifest", manifest)?;
        d.set_item("files_access_time_not_kept", r.files_access_time_not_kept())?;
        d.set_item(
            "folders_access_time_not_kept",
            r.folders_access_time_not_kept,
        )?;
        d.set_item("summary", summary_dict(py, &r.summary())?)?;
        Ok(Some(d))
    }
}

fn file_dict<'py>(py: Python<'py>, f: &FileReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("path", chat_rows::display_path(&f.path))?;
    d.set_item("store", f.store)?;
    d.set_item("kind", f.kind)?;
    d.set_item("rows", f.rows)?;
    d.set_item("parser_rows", f.parser_rows)?;
    d.set_item("panicked", f.panicked)?;
    Ok(d)
}

fn summary_dict<'py>(py: Python<'py>, s: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("rows", s.rows)?;
    d.set_item("parser_rows", s.parser_rows)?;
    d.set_item("untimed_rows", s.untimed_rows)?;
    let per_turn = PyDict::new(py);
    for (k, v) in &s.rows_per_turn_type {
        per_turn.set_item(*k, *v)?;
    }
    d.set_item("rows_per_turn_type", per_turn)?;
    let per_store = PyDict::new(py);
    for (k, v) in &s.files_per_store {
        per_store.set_item(*k, *v)?;
    }
    d.set_item("files_per_store", per_store)?;
    Ok(d)
}

#[pymethods]
impl Rows {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        loop {
            if let Some((start, end)) = self.next_line() {
                if start == end {
                    continue;
                }
                let line: Line<'_> =
                    serde_json::from_slice(&self.chunk[start..end]).map_err(|e| {
                        ScanError::new_err(format!("internal: a row did not decode: {e}"))
                    })?;
                return line.to_dict(py).map(Some);
            }
            let Some(rx) = self
                .rx
                .take()
                .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            else {
                if let Some(e) = self.error.take() {
                    return Err(ScanError::new_err(e));
                }
                return Ok(None);
            };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(Duration::from_millis(100));
                (rx, got)
            });
            match got {
                Ok(chunk) => {
                    self.rx = Some(Mutex::new(rx));
                    self.chunk = chunk;
                    self.at = 0;
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.rx = Some(Mutex::new(rx));
                    // Ctrl-C while waiting: the exception closes the iterator's channel
                    // when the iterator goes away, which stops the scan
                    py.check_signals()?;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    drop(rx);
                    self.finish(py);
                    if let Some(e) = self.error.take() {
                        return Err(ScanError::new_err(e));
                    }
                    return Ok(None);
                }
            }
        }
    }

    /// Stops the scan (if it still runs) and waits for its thread to end. Rows not yet
    /// read are lost, and `report` stays None unless the scan had already ended.
    fn close(&mut self, py: Python<'_>) {
        self.chunk.clear();
        self.at = 0;
        self.finish(py);
        // a scan stopped on purpose is not an error
        if self
            .error
            .as_deref()
            .is_some_and(|e| e.contains("the Python iterator was closed"))
        {
            self.error = None;
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        py: Python<'_>,
        _exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> bool {
        self.close(py);
        false
    }

    /// True once the scan has ended (the iterator is exhausted or closed).
    #[getter]
    fn done(&self) -> bool {
        self.handle.is_none()
    }

    /// Everything the scan told besides its rows (`files`, `problems`, `summary`,
    /// `manifest`, `merged_copies` ...), or None while it runs.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.report_dict(py)
    }

    /// One dict per file read (path, store, kind, rows, parser_rows, panicked), or None
    /// while the scan runs.
    #[getter]
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(r) = &self.report else {
            return Ok(None);
        };
        let files = PyList::empty(py);
        for f in &r.files {
            files.append(file_dict(py, f)?)?;
        }
        Ok(Some(files))
    }

    /// The counts the CLI prints at the end, or None while the scan runs.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.report {
            Some(r) => summary_dict(py, &r.summary()).map(Some),
            None => Ok(None),
        }
    }
}

/// One path, or a list of them.
fn paths(root: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = root.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    let v: Vec<PathBuf> = root.extract().map_err(|_| {
        PyValueError::new_err("root: a path (str or os.PathLike) or a list of paths")
    })?;
    if v.is_empty() {
        return Err(PyValueError::new_err("root: at least one path"));
    }
    Ok(v)
}

/// One name, or a list of them.
fn names(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Vec<String>> {
    let Some(v) = value else {
        return Ok(Vec::new());
    };
    if v.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(s) = v.extract::<String>() {
        return Ok(vec![s]);
    }
    v.extract()
        .map_err(|_| PyValueError::new_err(format!("{what}: a name or a list of names")))
}

/// A time argument: `datetime` (naive is read as UTC), `date`, epoch milliseconds
/// (int), or text in the CLI's forms (`2026-10-01`, `2026-10-01T12:00:00Z`, epoch ms).
/// A bare date is the start of the day for `since` and its end for `until`.
fn time_arg(
    value: Option<&Bound<'_, PyAny>>,
    what: &str,
    end_of_day: bool,
) -> PyResult<Option<Timestamp>> {
    let Some(v) = value else {
        return Ok(None);
    };
    if v.is_none() {
        return Ok(None);
    }
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyValueError::new_err(format!("{what}: a time, not a bool")));
    }
    let text: String = if let Ok(ms) = v.extract::<i64>() {
        return Timestamp::from_epoch_millis(ms)
            .map(Some)
            .ok_or_else(|| PyValueError::new_err(format!("{what}: time out of range: {ms}")));
    } else if let Ok(s) = v.extract::<String>() {
        s
    } else if v.hasattr("isoformat")? {
        // datetime.datetime and datetime.date
        v.call_method0("isoformat")?.extract()?
    } else {
        return Err(PyValueError::new_err(format!(
            "{what}: a datetime, a date, epoch milliseconds or text such as 2026-10-01T12:00:00Z"
        )));
    };
    let t = text.trim();
    let bare_date = t.len() == 10 && t.as_bytes().get(4) == Some(&b'-');
    let full = match (bare_date, end_of_day) {
        (true, false) => format!("{t}T00:00:00Z"),
        (true, true) => format!("{t}T23:59:59.999999Z"),
        _ => t.to_string(),
    };
    match when::parse_any(&full, None) {
        Some(ts) if ts.zone() == Zone::Utc => Ok(Some(ts)),
        // zone-less: read as UTC, as the CLI does
        Some(ts) => Timestamp::from_unix_micros(ts.unix_micros(), Zone::Utc)
            .map(Some)
            .ok_or_else(|| PyValueError::new_err(format!("{what}: time out of range: {text}"))),
        None => Err(PyValueError::new_err(format!(
            "{what}: cannot read {text:?} as a time (use 2026-10-01, 2026-10-01T12:00:00Z or epoch milliseconds)"
        ))),
    }
}

fn host_zone_arg(zone: Option<&str>) -> PyResult<Option<time::UtcOffset>> {
    let Some(z) = zone else {
        return Ok(None);
    };
    match when::parse_offset(z) {
        Some(off) if off.whole_minutes().unsigned_abs() <= 14 * 60 => Ok(Some(off)),
        Some(_) => Err(PyValueError::new_err(format!(
            "host_zone: {z:?} is beyond ±14:00, the widest offset in use"
        ))),
        None => Err(PyValueError::new_err(format!(
            "host_zone: cannot read {z:?} as a UTC offset (use +02:00)"
        ))),
    }
}

/// Scans evidence roots and yields one dict per row, in the CLI's order, as the rows
/// are read. See the module's type stubs for the arguments.
#[pyfunction]
#[pyo3(signature = (root, *, agents=None, since=None, until=None, keep_copies=false, host=None, host_zone=None, threads=0, hash_files=false, open_archives="collections", archive_password=None, max_file_size=None))]
#[allow(clippy::too_many_arguments)]
fn scan(
    root: &Bound<'_, PyAny>,
    agents: Option<&Bound<'_, PyAny>>,
    since: Option<&Bound<'_, PyAny>>,
    until: Option<&Bound<'_, PyAny>>,
    keep_copies: bool,
    host: Option<String>,
    host_zone: Option<String>,
    threads: usize,
    hash_files: bool,
    open_archives: &str,
    archive_password: Option<&Bound<'_, PyAny>>,
    max_file_size: Option<u64>,
) -> PyResult<Rows> {
    let roots = paths(root)?;
    let archives_met: ai_chat_forensics::ArchivesMet = open_archives
        .parse()
        .map_err(|e| PyValueError::new_err(format!("open_archives: {e}")))?;
    let agents = names(agents, "agents")?;
    let known = stores::known_agents();
    for a in &agents {
        if !known.contains(&a.as_str()) {
            return Err(PyValueError::new_err(format!(
                "agents: unknown agent {a:?}; known: {}",
                known.join(", ")
            )));
        }
    }
    let mut scanner = Scanner::new()
        .threads(ai_chat_forensics::effective_threads(threads))
        .keep_copies(keep_copies)
        .open_archives(archives_met)
        .hash_files(hash_files);
    match max_file_size {
        Some(0) => return Err(PyValueError::new_err("max_file_size: more than 0 bytes")),
        Some(n) => scanner = scanner.max_file_size(n),
        None => {}
    }
    if let Some(p) = archive_password {
        // text as UTF-8, or the bytes the archive's writer was given
        let one = |p: &Bound<'_, PyAny>| -> Option<Vec<u8>> {
            if let Ok(text) = p.extract::<String>() {
                Some(text.into_bytes())
            } else if p.is_instance_of::<pyo3::types::PyBytes>()
                || p.is_instance_of::<pyo3::types::PyByteArray>()
            {
                p.extract::<Vec<u8>>().ok()
            } else {
                None
            }
        };
        let several = || -> Option<Vec<Vec<u8>>> {
            if !(p.is_instance_of::<PyList>() || p.is_instance_of::<pyo3::types::PyTuple>()) {
                return None;
            }
            p.try_iter()
                .ok()?
                .map(|q| q.ok().and_then(|q| one(&q)))
                .collect()
        };
        let passwords = match one(p) {
            Some(bytes) => vec![bytes],
            None => several().ok_or_else(|| {
                PyTypeError::new_err(
                    "archive_password: a str or bytes, or a list of them (tried in turn)",
                )
            })?,
        };
        scanner = scanner.archive_password(ai_chat_forensics::chat_rows::ArchivePassword::any_of(
            passwords,
        ));
    }
    for r in &roots {
        scanner = scanner.root(r);
    }
    // an archived root's large compressed members, and a gzipped tar, inflate into
    // unnamed temporary files, never inside the evidence (there, in memory)
    let tmp = std::env::temp_dir();
    if !ai_chat_forensics::guard::inside_any(&tmp, &roots) {
        scanner = scanner.temp_dir(tmp);
    }
    for a in agents {
        scanner = scanner.agent(a);
    }
    if let Some(t) = time_arg(since, "since", false)? {
        scanner = scanner.since(t);
    }
    if let Some(t) = time_arg(until, "until", true)? {
        scanner = scanner.until(t);
    }
    if let Some(h) = host {
        scanner = scanner.host(h);
    }
    if let Some(off) = host_zone_arg(host_zone.as_deref())? {
        scanner = scanner.host_offset(off);
    }
    // a root that does not exist is an error now, not at the first row
    scanner
        .effective_roots()
        .map_err(|e| ScanError::new_err(e.to_string()))?;
    Rows::start(move |mut out| {
        scanner
            .write_to(Format::Jsonl, &mut out)
            .map_err(|e| e.to_string())
    })
}

/// Formats each row a store hands over as a JSONL line of the CLI, to the channel, and
/// counts them for the report.
struct LineSink<'a> {
    ctx: &'a FileContext,
    buf: Vec<u8>,
    out: ChannelWriter,
    report: FileReport,
    counts: Summary,
    failed: Option<io::Error>,
}

impl RowSink for LineSink<'_> {
    fn push(&mut self, row: Row) {
        self.lend(&row);
    }

    fn lend(&mut self, row: &Row) {
        if self.failed.is_some() {
            return;
        }
        self.buf.clear();
        format_row(Format::Jsonl, self.ctx, row, &mut self.buf);
        self.report.rows += 1;
        let parser = row.is_parser();
        self.report.parser_rows += usize::from(parser);
        *self
            .counts
            .rows_per_turn_type
            .entry(row.turn_type.as_str())
            .or_default() += 1;
        self.counts.parser_rows += usize::from(parser);
        self.counts.untimed_rows += usize::from(row.timestamp.is_none());
        self.counts.rows += 1;
        if let Err(e) = self.out.write_all(&self.buf) {
            self.failed = Some(e);
        }
    }
}

/// The whole content of a Python file object opened in binary mode (its `read()`),
/// or of a bytes-like object.
fn object_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    let data = if obj.hasattr("read")? {
        obj.call_method0("read")?
    } else {
        obj.clone()
    };
    if data.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} gave text: open it in binary mode ('rb'), evidence is read as bytes"
        )));
    }
    data.extract::<Vec<u8>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} is neither a path, a file object opened in binary mode, nor bytes"
        ))
    })
}

/// The modification time of a file object that is an open file (`os.fstat` of its
/// `fileno()`); None for anything else (a zip member, bytes).
fn object_mtime(obj: &Bound<'_, PyAny>) -> Option<std::time::SystemTime> {
    let fd = obj.call_method0("fileno").ok()?;
    let stat = obj
        .py()
        .import("os")
        .ok()?
        .call_method1("fstat", (fd,))
        .ok()?;
    let ns: i128 = stat.getattr("st_mtime_ns").ok()?.extract().ok()?;
    let ns = u64::try_from(ns).ok()?;
    Some(std::time::UNIX_EPOCH + std::time::Duration::from_nanos(ns))
}

/// Reads one file and yields its rows as dicts, like [`scan`] does for a tree.
///
/// `source` is a path, or a file object opened in binary mode (or bytes) with `name`,
/// the path the file stood at in the evidence (a file object's own `name` is taken when
/// it has one), and `companions`, the files a store reads beside it (`{"<name>-wal":
/// file}`), each read whole into memory ([`Evidence::in_memory`]).
#[pyfunction]
#[pyo3(signature = (source, *, name=None, companions=None, store=None, root=None, host=None, host_zone=None, hash_files=false))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
fn read_file(
    source: &Bound<'_, PyAny>,
    name: Option<PathBuf>,
    companions: Option<&Bound<'_, PyDict>>,
    store: Option<String>,
    root: Option<PathBuf>,
    host: Option<String>,
    host_zone: Option<String>,
    hash_files: bool,
) -> PyResult<Rows> {
    let (path, memory) = match source.extract::<PathBuf>() {
        Ok(path) => {
            if name.is_some() || companions.is_some() {
                return Err(PyValueError::new_err(
                    "name= and companions= go with a file object or bytes; a path names itself and its companions lie beside it",
                ));
            }
            let meta = std::fs::metadata(&path).map_err(|e| {
                ScanError::new_err(format!(
                    "cannot read {}: {e}",
                    chat_rows::display_path(&path)
                ))
            })?;
            if !meta.is_file() {
                return Err(PyValueError::new_err(format!(
                    "{} is not a file (use scan() for a folder)",
                    chat_rows::display_path(&path)
                )));
            }
            (path, None)
        }
        Err(_) => {
            let own_name =
                || -> Option<PathBuf> { source.getattr("name").ok()?.extract::<PathBuf>().ok() };
            let Some(path) = name.or_else(own_name) else {
                return Err(PyValueError::new_err(
                    "name=: the path the file stood at in the evidence (its store is known by it, and its rows name it)",
                ));
            };
            let mut files = vec![(
                path.clone(),
                object_bytes(source, "source")?,
                object_mtime(source),
            )];
            if let Some(more) = companions {
                for (k, v) in more.iter() {
                    let at: PathBuf = k.extract().map_err(|_| {
                        PyTypeError::new_err("companions: keys are paths (str or os.PathLike)")
                    })?;
                    let what = format!("companion {}", chat_rows::display_path(&at));
                    files.push((at, object_bytes(&v, &what)?, object_mtime(&v)));
                }
            }
            (path, Some(files))
        }
    };
    // the evidence root: given, or the file's folder (companions such as a -wal sit beside it)
    let root = match root {
        Some(r) => r,
        None => path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    };
    let evidence = match memory {
        Some(files) => Evidence::in_memory(files),
        None => Evidence::new(),
    }
    .roots([&root])
    .hashing(hash_files);
    let all = stores::all();
    // a store file compressed on its own (`history.jsonl.gz`) is read as the file it
    // holds, beside it, as a scan reads it
    let (compressed, path, ended) = match path
        .file_name()
        .and_then(chat_rows::Compressed::of_name)
        .map(|(_, held)| path.with_file_name(held))
    {
        Some(held)
            if !all.iter().any(|s| s.claim(&path).is_some())
                && (store.is_some() || all.iter().any(|s| s.claim(&held).is_some())) =>
        {
            let (at, ended) = evidence.open_compressed(&path).map_err(|e| {
                ScanError::new_err(format!(
                    "cannot read {}: compressed store file not read ({e})",
                    chat_rows::display_path(&path)
                ))
            })?;
            (Some(path), at, ended)
        }
        _ => (None, path, None),
    };
    let names: Vec<&'static str> = all.iter().map(|s| s.name()).collect();
    let chosen: Vec<Box<dyn Store>> = match &store {
        Some(name) => {
            let Some(s) = all.into_iter().find(|s| s.name() == name) else {
                return Err(PyValueError::new_err(format!(
                    "store: unknown store {name:?}; known: {}",
                    names.join(", ")
                )));
            };
            vec![s]
        }
        None => {
            let claiming: Vec<Box<dyn Store>> = all
                .into_iter()
                .filter(|s| s.claim(&path).is_some())
                .collect();
            if claiming.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "no store claims {} by its path; name one with store= ({})",
                    chat_rows::display_path(&path),
                    names.join(", ")
                )));
            }
            claiming
        }
    };
    let attribution = layout::attribute_file(&root, &path);
    let ctx = FileContext {
        host: host.unwrap_or(attribution.host),
        user: attribution.user,
        product: locations::editor_product(&path).map(str::to_string),
        host_offset: host_zone_arg(host_zone.as_deref())?,
        display_path: evidence.shown(&path),
        collected_at: None,
    };
    // the file as its rows name it (a compressed file's member: `x.jsonl.gz/x.jsonl`)
    let shown_path = match (&compressed, path.file_name()) {
        (Some(c), Some(name)) => c.join(name),
        _ => path.clone(),
    };
    Rows::start(move |out| {
        let mut report = ScanReport::default();
        let mut sink = LineSink {
            ctx: &ctx,
            buf: Vec::new(),
            out,
            report: FileReport {
                path: shown_path.clone(),
                store: "",
                kind: "",
                rows: 0,
                parser_rows: 0,
                panicked: false,
            },
            counts: Summary::default(),
            failed: None,
        };
        for s in &chosen {
            sink.report = FileReport {
                path: shown_path.clone(),
                store: s.name(),
                kind: s.claim(&path).map_or("named by store=", |c| c.kind),
                rows: 0,
                parser_rows: 0,
                panicked: false,
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                s.read_into(&path, &ctx, &evidence, &mut sink)
            }));
            if let Err(payload) = outcome {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".into());
                sink.report.panicked = true;
                report.panics += 1;
                let row = Row::system(
                    s.name(),
                    chat_rows::system::parser(format!(
                        "the {} reader stopped on this file with an internal error ({message}); the rows before it are kept",
                        s.name()
                    )),
                );
                sink.lend(&row);
            }
            report.files.push(sink.report.clone());
            if sink.failed.is_some() {
                break;
            }
        }
        // a damaged or cut stream was read to the damage: one row says so, at the
        // compressed file, as a scan gives it
        if let (Some(compressed), Some(e)) = (&compressed, &ended) {
            let mut row = Row::system(
                "scanner",
                chat_rows::system::parser(format!(
                    "compressed store file read in part ({e}); the file it holds is read to there"
                )),
            );
            row.source_file = chat_rows::display_path(compressed);
            sink.lend(&row);
        }
        if let Some(e) = sink.failed.take() {
            return Err(format!("writing rows: {e}"));
        }
        sink.out.flush().map_err(|e| format!("writing rows: {e}"))?;
        report.counts = sink.counts;
        report.manifest = evidence.manifest();
        report.folders_access_time_not_kept = evidence.folders_access_time_not_kept().len();
        Ok(report)
    })
}

/// The column names of every row, in order (`Row::columns()`).
#[pyfunction]
fn columns() -> Vec<&'static str> {
    Row::columns().to_vec()
}

/// Every agent name a row can carry (what `agents=` accepts).
#[pyfunction]
fn known_agents() -> Vec<&'static str> {
    stores::known_agents()
}

/// Every store's name (what `read_file(store=...)` accepts), in registration order.
#[pyfunction]
fn store_names() -> Vec<&'static str> {
    stores::all().iter().map(|s| s.name()).collect()
}

/// The turn types, in order.
#[pyfunction]
fn turn_types() -> Vec<&'static str> {
    TurnType::ALL.iter().map(|t| t.as_str()).collect()
}

/// The native module, `ai_chat_forensics._native`; the package re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScanError", m.py().get_type::<ScanError>())?;
    m.add_class::<Rows>()?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(read_file, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(known_agents, m)?)?;
    m.add_function(wrap_pyfunction!(store_names, m)?)?;
    m.add_function(wrap_pyfunction!(turn_types, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
