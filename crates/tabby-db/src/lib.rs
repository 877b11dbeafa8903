//! The Tabby server's chats, completions, pages, integrations, backups, event log,
//! configured models and editor command histories, as evidence rows.
//!
//! Tabby is self-hosted: one server serves a team, and every chat lives on the
//! server, not on the developers' machines. A responder collecting a Tabby host needs
//! four overlapping records of the same activity, and this crate reads them all and
//! merges them into one timeline attributed to the person who typed each prompt:
//!
//! * the live database `<root>/ee/db.sqlite` (or `dev-db.sqlite`), read through
//!   `sqlite-evidence` so that rows still only in the `-wal` are seen and rows deleted
//!   since are recovered (`record_state = deleted`). It is the **primary** source;
//! * its pre-migration backups `ee/db.backup-YYYYMMDD.sqlite`, plain copies taken
//!   before each schema upgrade, which outlive deletes and the 7-day purge of
//!   unshared threads. They are **secondary**: a backup's copies of live rows are
//!   dropped, what only the backup holds is kept;
//! * the daily event log `events/YYYY-MM-DD.json`, a second copy of every
//!   completion with its full prompt, **secondary** to `user_events` (which the
//!   server prunes after three months); its `user` is a Hashids id that is decoded
//!   back to the account's email when the database is there;
//! * `config.toml`'s configured models, and the two editor clients' inline-edit
//!   command histories (IntelliJ's XML, VS Code's `state.vscdb` row).
//!
//! The layers are those of every store crate: [`locate`] (which paths are Tabby's),
//! [`decode`] (the formats, with typed records that carry where each came from) and
//! [`rows`] (the row texts). [`TabbyStore`] plugs the crate into the scanner; it reads
//! one file at a time, and a backup or an event log learns the root's users from the
//! live database beside it. The crate drops no copy: every row of a backup or an event
//! log is given, marked `secondary`, with the same session, turn type and text as its
//! live twin, and the merge is left to one place, the scanner (or
//! [`chat_rows::merge::merge_secondary`] for a caller of this crate alone), so that
//! `--keep-copies` shows every copy and the summary counts every one it merged away.
//! [`read_root`] reads a whole root at once.
//!
//! Secrets (`users.auth_token`, password hashes, `integrations.access_token`,
//! `config.toml`'s `api_key`, the VS Code row's endpoint tokens) are never selected or
//! copied into any value this crate returns.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use sqlite_evidence::any::Opening;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use chat_rows::lines::LineReader;
use chat_rows::{Claim, Evidence, FileContext, Row, Store, system};

pub use decode::config::{ConfiguredModel, models_from_toml};
pub use decode::db::ServerDb;
pub use decode::event::{Event, EventLog, LogEntry};
pub use decode::hashid::HashIds;
pub use decode::history::{
    Command, IntellijHistory, intellij_history, read_intellij_history, vscode_history,
};
pub use locate::FileKind;
use rows::Source;

/// The `agent` of every row.
pub const AGENT: &str = "tabby";

/// Why a Tabby file could not be read at all. Per-record damage is never an error:
/// it is kept in the decoded value and becomes a `parser:` row.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The database (or `state.vscdb`) could not be opened.
    #[error("{0}")]
    Sqlite(#[from] sqlite_evidence::Error),
    /// `config.toml` is not valid TOML.
    #[error("{reason} at byte {offset}")]
    Toml {
        /// Byte offset of the error.
        offset: usize,
        /// The parser's message (never the file's text).
        reason: String,
    },
    /// The IntelliJ history is not a readable XML document.
    #[error("{reason} at byte {offset}")]
    Xml {
        /// Byte offset of the error.
        offset: u64,
        /// The parser's message.
        reason: String,
    },
}

/// The file name of a path, lossy.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What a root's live database and backups tell the secondary sources.
#[derive(Debug, Default)]
struct RootIndex {
    /// Users, from the live database, completed from the backups.
    users: BTreeMap<i64, decode::db::User>,
    /// The rows of each backup, decoded once (for its users) and given when the
    /// backup itself is read.
    backups: Mutex<HashMap<PathBuf, Vec<Row>>>,
    /// The live database read for the index, and its rows, so it is decoded once;
    /// taken when the store reads that file.
    live: Mutex<Option<(PathBuf, Vec<Row>)>>,
}

fn live_db_path(root: &Path, prefer_dev: bool, evidence: &Evidence) -> Option<PathBuf> {
    locate::live_db_of(root, prefer_dev)
        .into_iter()
        .find(|p| evidence.status(p, true) == Some(chat_rows::evidence::EntryKind::File))
}

fn backups_of(root: &Path, evidence: &Evidence) -> Vec<PathBuf> {
    // listed through the evidence reader: a linked `ee` out of the root is not listed
    evidence
        .read_dir(&root.join("ee"))
        .map(|d| {
            d.into_iter()
                .filter(|p| locate::is_backup_name(&file_name(p)))
                .collect()
        })
        .unwrap_or_default()
}

/// The rows of a database file: `parser:` rows when it cannot be opened at all.
fn db_rows(
    path: &Path,
    evidence: &Evidence,
    src: &Source<'_>,
    backup: bool,
    opening: Opening,
) -> (Vec<Row>, Option<ServerDb>) {
    match ServerDb::from_path_with(path, evidence, opening) {
        Ok(db) => {
            let mut rows = Vec::new();
            if backup {
                rows.push(rows::backup_row(&file_name(path), &db, src));
            }
            rows.extend(rows::database_rows(&db, src));
            (rows, Some(db))
        }
        Err(e) => (
            vec![
                Row::system(
                    AGENT,
                    system::parser(format!("not a readable SQLite database ({e})")),
                )
                .file(src.file)
                .secondary(src.secondary),
            ],
            None,
        ),
    }
}

fn build_index(root: &Path, evidence: &Evidence, opening: Opening) -> RootIndex {
    let mut index = RootIndex::default();
    if let Some(live) = live_db_path(root, false, evidence) {
        let file = live.display().to_string();
        let (rows, db) = db_rows(
            &live,
            evidence,
            &Source {
                file: &file,
                secondary: false,
            },
            false,
            opening,
        );
        if let Some(db) = db {
            index.users = db.users;
        }
        index.live = Mutex::new(Some((live, rows)));
    }
    for b in backups_of(root, evidence) {
        let file = b.display().to_string();
        let (rows, db) = db_rows(
            &b,
            evidence,
            &Source {
                file: &file,
                secondary: true,
            },
            true,
            opening,
        );
        if let Some(db) = db {
            for (id, u) in db.users {
                index.users.entry(id).or_insert(u);
            }
        }
        if let Ok(map) = index.backups.get_mut() {
            map.insert(b, rows);
        }
    }
    index
}

/// Reads Tabby's files: a [`chat_rows::Store`] for the scanner.
///
/// It claims the server root's files (live database, backups, event logs,
/// `config.toml`, in `~/.tabby`, any `TABBY_ROOT`, or a Docker volume's `_data`), the
/// IntelliJ command history and every profile's global `state.vscdb`
/// (`User/globalStorage/`, `User/profiles/[builtin/]<id>/globalStorage/`; whose
/// `TabbyML.vscode-tabby` row it reads; a database without it gives no rows). A
/// backup's and an event log's rows are all given, `secondary`, for the scanner to
/// merge with their live twins; an event log's users are resolved through the live
/// database and the backups beside it. The store keeps what it learnt about each root,
/// so a root's database is read once however many backups and logs it has.
///
/// Databases (the server's and `state.vscdb`) larger than
/// [`sqlite_evidence::any::PAGED_FROM_BYTES`] are read page by page
/// ([`TabbyStore::with_opening`] sets the size).
#[derive(Default)]
pub struct TabbyStore {
    roots: Mutex<HashMap<PathBuf, Arc<OnceLock<Arc<RootIndex>>>>>,
    opening: Opening,
}

impl std::fmt::Debug for TabbyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TabbyStore").finish_non_exhaustive()
    }
}

impl TabbyStore {
    /// The root's index, built once: concurrent readers of the same root wait for the
    /// first one instead of decoding the database again.
    fn index(&self, root: &Path, evidence: &Evidence) -> Arc<RootIndex> {
        let cell = match self.roots.lock() {
            Ok(mut map) => map.entry(root.to_path_buf()).or_default().clone(),
            Err(_) => Arc::new(OnceLock::new()),
        };
        let index = cell.get_or_init(|| Arc::new(build_index(root, evidence, self.opening)));
        index.clone()
    }

    /// A store that reads databases page by page from the size `opening` gives
    /// ([`Opening::paged`] forces the paged mode, for tests).
    pub fn with_opening(opening: Opening) -> TabbyStore {
        TabbyStore {
            opening,
            ..TabbyStore::default()
        }
    }
}

impl Store for TabbyStore {
    fn agent(&self, _ctx: &chat_rows::FileContext) -> String {
        "tabby".into()
    }

    fn name(&self) -> &'static str {
        "tabby-db"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        locate::classify(path).map(|k| Claim::new(k.describe()).with_copies())
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
        sink: &mut dyn chat_rows::RowSink,
    ) {
        let kind = locate::classify(path);
        if matches!(kind, Some(FileKind::EventLog)) {
            // a log's rows are handed on as its lines are read, a chunk at a time
            let display = ctx.source_file(path, evidence);
            let root = kind.as_ref().and_then(|k| locate::root_of(path, k));
            let index = root.map(|r| self.index(&r, evidence)).unwrap_or_default();
            return read_event_log(path, &display, evidence, &index.users, sink);
        }
        for row in self.read_rows(path, ctx, evidence) {
            sink.push(row);
        }
    }
}

/// An event log's rows (secondary), read a chunk at a time and handed to `sink` a line
/// at a time. A log that fails midway gives the rows of the lines before it, then one
/// `parser: cannot read file (<reason>)` row at the byte it failed at.
fn read_event_log(
    path: &Path,
    display: &str,
    evidence: &Evidence,
    users: &std::collections::BTreeMap<i64, decode::db::User>,
    sink: &mut dyn chat_rows::RowSink,
) {
    match evidence.read_lines(path) {
        Ok(mut lines) => event_log_rows(&mut lines, display, users, sink),
        Err(e) => sink.push(io_row(display, &e, true)),
    }
}

/// [`read_event_log`] from the log's lines.
fn event_log_rows(
    lines: &mut LineReader<'_>,
    display: &str,
    users: &std::collections::BTreeMap<i64, decode::db::User>,
    sink: &mut dyn chat_rows::RowSink,
) {
    let src = Source {
        file: display,
        secondary: true,
    };
    let ids = HashIds::new();
    let read = EventLog::each_entry(lines, |entry| {
        rows::entry_rows(&entry, users, &ids, &src, sink);
    });
    if let Err(e) = read {
        let at = format!("byte {}", lines.bytes_read());
        sink.push(io_row(display, &e, true).locator(at));
    }
}

impl TabbyStore {
    /// Every row of a claimed file (the collected form of the store's `read_into`).
    pub(crate) fn read_rows(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
    ) -> Vec<Row> {
        let display = ctx.source_file(path, evidence);
        let Some(kind) = locate::classify(path) else {
            return Vec::new();
        };
        read_file(path, &kind, &display, evidence, self.opening, &|root| {
            self.index(root, evidence)
        })
    }
}

fn read_file(
    path: &Path,
    kind: &FileKind,
    display: &str,
    evidence: &Evidence,
    opening: Opening,
    index: &dyn Fn(&Path) -> Arc<RootIndex>,
) -> Vec<Row> {
    let root = locate::root_of(path, kind);
    match kind {
        FileKind::Database => {
            // The root's index decodes its live database once for the backups and logs;
            // its rows are reused. Another database file (a `dev-db.sqlite` beside a
            // `db.sqlite`) is read on its own.
            let idx = root.map(|r| index(&r));
            let taken = idx.as_ref().and_then(|i| {
                let mut live = i.live.lock().ok()?;
                match live.as_ref() {
                    Some((p, _)) if p == path => live.take().map(|(_, rows)| rows),
                    _ => None,
                }
            });
            if let Some(mut rows) = taken {
                for r in &mut rows {
                    r.source_file = display.to_string();
                }
                return rows;
            }
            db_rows(
                path,
                evidence,
                &Source {
                    file: display,
                    secondary: false,
                },
                false,
                opening,
            )
            .0
        }
        FileKind::Backup => {
            let Some(root) = root else { return Vec::new() };
            let idx = index(&root);
            // Cloned, not taken: a second read must give the same rows, and the
            // fallback below could not (the index already holds this backup's rows).
            let kept = idx.backups.lock().ok().and_then(|m| m.get(path).cloned());
            let mut rows = match kept {
                Some(rows) => rows,
                // Not found in the listing (a single file handed over): read on its own.
                None => {
                    db_rows(
                        path,
                        evidence,
                        &Source {
                            file: display,
                            secondary: true,
                        },
                        true,
                        opening,
                    )
                    .0
                }
            };
            for r in &mut rows {
                r.source_file = display.to_string();
            }
            rows
        }
        FileKind::EventLog => {
            let idx = root.map(|r| index(&r)).unwrap_or_default();
            let mut rows = Vec::new();
            read_event_log(path, display, evidence, &idx.users, &mut rows);
            rows
        }
        FileKind::Config => {
            let bytes = match evidence.read(path) {
                Ok(b) => b,
                Err(e) => return vec![io_row(display, &e, false)],
            };
            let src = Source {
                file: display,
                secondary: false,
            };
            match models_from_toml(&bytes) {
                Ok(models) => {
                    rows::config_rows(&models, evidence.modified(path), &file_name(path), &src)
                }
                Err(e) => vec![
                    Row::system(AGENT, system::not_valid_toml("config.toml", &e)).file(display),
                ],
            }
        }
        FileKind::IntellijHistory => {
            let session = rows::history_session(rows::HistoryClient::Intellij, display);
            let bytes = match evidence.read(path) {
                Ok(b) => b,
                Err(e) => return vec![io_row(display, &e, true).session(session)],
            };
            let src = Source {
                file: display,
                secondary: true,
            };
            // the commands read before any damage are kept (a cut file keeps its
            // complete entries), then the damage's one parser row at its byte
            let h = read_intellij_history(&bytes);
            let mut out = Vec::new();
            if h.damage.is_none() || !h.commands.is_empty() {
                out = rows::history_rows(
                    &h.commands,
                    rows::HistoryClient::Intellij,
                    &file_name(path),
                    &|c| c.offset.map(|o| format!("byte {o}")).unwrap_or_default(),
                    &src,
                );
                // the leading row counts the file's commands
                if let Some(first) = out.first_mut() {
                    first.source_locator = "whole file".into();
                }
            }
            if let Some(e) = &h.damage {
                let mut r = Row::system(AGENT, system::not_readable_xml(e))
                    .file(display)
                    .secondary(true)
                    .session(session);
                if let Error::Xml { offset, .. } = e {
                    r = r.locator(format!("byte {offset}"));
                }
                out.push(r);
            }
            out
        }
        FileKind::StateVscdb => vscdb_rows(path, display, evidence, opening),
    }
}

fn io_row(display: &str, e: &std::io::Error, secondary: bool) -> Row {
    Row::system(AGENT, system::parser(format!("cannot read file ({e})")))
        .file(display)
        .secondary(secondary)
}

/// The VS Code extension's history from a `state.vscdb`: nothing unless the database
/// has a `TabbyML.vscode-tabby` row. Only its `edit.recentlyCommand` key is read.
fn vscdb_rows(path: &Path, display: &str, evidence: &Evidence, opening: Opening) -> Vec<Row> {
    use decode::history::{VSCODE_HISTORY_KEY, VSCODE_ITEM_KEY};
    // A database that cannot be opened is reported by the VS Code store, which claims
    // every state.vscdb; whether it held Tabby's row cannot be told.
    let Ok(state) = state_vscdb::StateDb::open_with(path, evidence, opening) else {
        return Vec::new();
    };
    let Some(item) = state.item(VSCODE_ITEM_KEY) else {
        return Vec::new();
    };
    // read as VS Code reads it (`JSON.parse`, no depth limit): a part deeper than
    // serde_json reads is `null`, one row says where, and the commands are still read
    let (parsed, cut_row) = match item.json_capped() {
        Ok((v, cut)) => {
            let cut_row = cut.map(|cut| {
                state_vscdb::too_deep_row(AGENT, display, item, cut)
                    .secondary(true)
                    .session(rows::history_session(rows::HistoryClient::Vscode, display))
            });
            (v, cut_row)
        }
        Err(e) => {
            return vec![
                state_vscdb::not_json_row(AGENT, display, item, &e)
                    .secondary(true)
                    .session(rows::history_session(rows::HistoryClient::Vscode, display)),
            ];
        }
    };
    let Some(history) = parsed.get(VSCODE_HISTORY_KEY) else {
        return cut_row.into_iter().collect();
    };
    let cmds = vscode_history(history);
    let base = item.locator();
    let from = format!("state.vscdb {VSCODE_ITEM_KEY} {VSCODE_HISTORY_KEY}");
    let src = Source {
        file: display,
        secondary: true,
    };
    let mut rows = rows::history_rows(
        &cmds,
        rows::HistoryClient::Vscode,
        &from,
        &|c| format!("{base} {VSCODE_HISTORY_KEY}[{}]", c.position - 1),
        &src,
    );
    if let Some(first) = rows.first_mut() {
        first.source_locator = base.clone();
    }
    rows.splice(0..0, cut_row);
    rows
}

/// Reads every Tabby file of a server root (`~/.tabby`, a `TABBY_ROOT` or a volume's
/// `_data`): the live database, its backups, the event logs and `config.toml`.
/// `source_file` is each file's path. The copies are all there (`secondary`); pass the
/// rows through [`chat_rows::merge::merge_secondary`] to drop those with a live twin,
/// as the scanner does.
pub fn read_root(root: &Path, evidence: &Evidence) -> Vec<Row> {
    read_root_with(root, evidence, Opening::default())
}

/// [`read_root`] with the size from which databases are read page by page given.
pub fn read_root_with(root: &Path, evidence: &Evidence, opening: Opening) -> Vec<Row> {
    let mut index = build_index(root, evidence, opening);
    // The live database's and the backups' rows were made for the index: move them out.
    let mut out: Vec<Row> = index
        .live
        .get_mut()
        .ok()
        .and_then(Option::take)
        .map(|(_, rows)| rows)
        .unwrap_or_default();
    let mut backups: Vec<(PathBuf, Vec<Row>)> = index
        .backups
        .get_mut()
        .map(|m| m.drain().collect())
        .unwrap_or_default();
    backups.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, rows) in backups {
        out.extend(rows);
    }
    let index = Arc::new(index);
    let mut files: Vec<PathBuf> = Vec::new();
    if let Ok(d) = evidence.read_dir(&root.join("events")) {
        files.extend(
            d.into_iter()
                .filter(|p| locate::is_event_file_name(&file_name(p))),
        );
    }
    let config = root.join("config.toml");
    for f in files {
        let display = f.display().to_string();
        out.extend(read_file(
            &f,
            &FileKind::EventLog,
            &display,
            evidence,
            opening,
            &|_| index.clone(),
        ));
    }
    if evidence.status(&config, true) == Some(chat_rows::evidence::EntryKind::File) {
        let display = config.display().to_string();
        out.extend(read_file(
            &config,
            &FileKind::Config,
            &display,
            evidence,
            opening,
            &|_| index.clone(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event log is read a chunk at a time: its rows are those of the log decoded
    /// whole, and one that fails midway (here: grown past the size cap once opened)
    /// gives the rows of the lines before it, then one `parser:` row at the byte it
    /// failed at.
    #[test]
    fn an_event_log_read_a_chunk_at_a_time_gives_the_rows_of_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("events").join("2025-10-01.json");
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        let text: String = (0..60)
            .map(|n| {
                format!(
                    "{{\"user\":null,\"ts\":17593128{n:05},\"event\":{{\"select\":{{\"completion_id\":\"cmpl-{n:02}\",\"choice_index\":0,\"view_id\":\"view-1\",\"elapsed\":13}}}}}}\n"
                )
            })
            .collect();
        std::fs::write(&f, &text).unwrap();
        let users = std::collections::BTreeMap::new();
        let src = Source {
            file: "events/2025-10-01.json",
            secondary: true,
        };
        let whole = rows::log_rows(&EventLog::from_bytes(text.as_bytes()), &users, &src);
        assert_eq!(whole.len(), 60);
        let ev = Evidence::new().roots([dir.path()]);
        let mut got = Vec::new();
        read_event_log(&f, src.file, &ev, &users, &mut got);
        assert_eq!(got, whole);

        let ev = Evidence::new()
            .roots([dir.path()])
            .max_size(text.len() as u64);
        let mut lines = ev.read_lines(&f).unwrap();
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(&f).unwrap(),
            b"\n",
        )
        .unwrap();
        let mut cut = Vec::new();
        event_log_rows(&mut lines, src.file, &users, &mut cut);
        // 129-byte lines: 31 whole ones in the first 4 KiB read
        assert_eq!((text.len() / 60, cut.len()), (129, 32));
        assert_eq!(cut[..31], whole[..31]);
        assert_eq!(
            (
                cut[31].text.as_str(),
                cut[31].source_locator.as_str(),
                cut[31].source_file.as_str(),
                cut[31].secondary
            ),
            (
                format!(
                    "parser: cannot read file ({} bytes, over the {}-byte cap of one evidence file)",
                    text.len() + 1,
                    text.len()
                )
                .as_str(),
                "byte 4096",
                "events/2025-10-01.json",
                true
            )
        );
        drop(lines);

        // the file now over the cap: refused at the open
        let mut got = Vec::new();
        read_event_log(&f, src.file, &ev, &users, &mut got);
        assert_eq!(
            got.iter()
                .map(|r| (r.text.as_str(), r.source_locator.as_str()))
                .collect::<Vec<_>>(),
            [(
                format!(
                    "parser: cannot read file ({} bytes, over the {}-byte cap of one evidence file)",
                    text.len() + 1,
                    text.len()
                )
                .as_str(),
                ""
            )]
        );
    }
}
