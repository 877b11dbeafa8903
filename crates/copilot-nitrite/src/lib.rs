//! Reads GitHub Copilot's JetBrains chat stores: Nitrite databases on H2 MVStore files
//! of Java-serialized documents, under `github-copilot/<ide>/<kind>/<storeId>/`.
//!
//! Why this crate exists: the tools that read these stores today scan the file as
//! latin1 text and guess where replies start. That misses compressed pages, cannot
//! tell one version of a document from another, and never sees what the user removed.
//! This crate decodes the file structurally, in three layers:
//!
//! * [`mvstore`]: the H2 MVStore format (2 and 3): header blocks, chunks, pages,
//!   compression and H2's own value coding. It distrusts the header (after an unclean
//!   shutdown it names no chunk) and falls back to older chunks when the newest is torn.
//! * [`javaser`]: Java Object Serialization, mapped to `serde_json::Value` with the
//!   `writeObject` quirks of `HashMap`, `NitriteDocument`, `NitriteId` and friends.
//! * [`decode`]: Nitrite on top: every map of the newest snapshot, plus **carving**:
//!   copy-on-write leaves older chunks in the file, so their dead pages still hold
//!   earlier revisions (`recovered` rows) and removed documents (`deleted` rows, unless
//!   the snapshot could not read their map whole: then `recovered`).
//!
//! [`rows`] maps sessions and turns to evidence rows (agent `copilot`), and
//! [`CopilotNitriteStore`] plugs the crate into the scanner. [`locate`] says which
//! paths are Copilot stores.
//!
//! The file is read once, read-only, through [`chat_rows::Evidence`]; H2's file lock is
//! never taken, and nothing is written beside the evidence.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod javaser;
pub mod locate;
pub mod mvstore;
pub mod rows;
pub mod textscan;

use std::path::Path;

use chat_rows::{Claim, Evidence, FileContext, Row, Store, system};

pub use decode::{Document, NitriteFile, Place, Problem};
pub use javaser::JavaError;
pub use mvstore::MvError;

/// The crate's error type: what made a file, page or value unreadable, with where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error's text.
        reason: String,
    },
    /// The store as a whole: header, chunks, snapshot (the MVStore error says where).
    #[error("{0}")]
    Mv(MvError),
    /// A map of the snapshot could not be walked to the end.
    #[error("map {map} not fully readable: {source}")]
    Map {
        /// The map's name.
        map: String,
        /// The page error.
        source: MvError,
    },
    /// A page of a chunk (found by its TOC or by walking the chunk) did not decode.
    #[error("page not readable: {0}")]
    Page(MvError),
    /// A Java-serialized key or value did not decode (the Java error gives the byte).
    #[error("map {map}: Java stream: {source}")]
    Java {
        /// The map's name (empty when unknown).
        map: String,
        /// The decoder's error.
        source: JavaError,
    },
}

/// Reads a store from a path (read-only, in one go; no lock is taken).
pub fn from_path(path: &Path) -> Result<NitriteFile, Error> {
    NitriteFile::from_path(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// Decodes a store from the bytes of the whole file.
pub fn from_bytes(data: &[u8]) -> NitriteFile {
    NitriteFile::from_bytes(data)
}

/// The scanner's entry point for Copilot's JetBrains stores.
#[derive(Debug, Default, Clone, Copy)]
pub struct CopilotNitriteStore;

impl Store for CopilotNitriteStore {
    fn agent(&self, _ctx: &chat_rows::FileContext) -> String {
        "copilot".into()
    }

    fn name(&self) -> &'static str {
        "copilot-nitrite"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        match locate::locate(path)? {
            locate::Located::Store { .. } => Some(Claim::new("Copilot JetBrains Nitrite store")),
            locate::Located::Xodus => Some(Claim::new("Copilot JetBrains Xodus log")),
        }
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
        sink: &mut dyn chat_rows::RowSink,
    ) {
        for row in self.read_rows(path, ctx, evidence) {
            sink.push(row);
        }
    }
}

impl CopilotNitriteStore {
    /// Every row of a claimed file (the collected form of the store's `read_into`).
    pub(crate) fn read_rows(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
    ) -> Vec<Row> {
        let shown = ctx.source_file(path, evidence);
        match locate::locate(path) {
            Some(locate::Located::Xodus) => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                vec![
                    Row::system(
                        rows::AGENT,
                        system::parser(format!("Xodus log {name} is present and not read")),
                    )
                    .file(shown)
                    .at(evidence.modified(path)),
                ]
            }
            Some(locate::Located::Store { kind, .. }) => match evidence.read(path) {
                Err(e) => vec![
                    Row::system(
                        rows::AGENT,
                        system::parser(format!("cannot read the file ({e})")),
                    )
                    .file(shown),
                ],
                Ok(bytes) => {
                    let file = NitriteFile::from_bytes(&bytes);
                    let mut project = rows::project_name(&file).unwrap_or_default();
                    if project.is_empty() {
                        for sib in locate::sibling_stores(path, evidence) {
                            if let Ok(b) = evidence.read(&sib) {
                                if let Some(p) = rows::project_name(&NitriteFile::from_bytes(&b)) {
                                    project = p;
                                    break;
                                }
                            }
                        }
                    }
                    rows::file_rows(&file, &shown, &kind, &project)
                }
            },
            None => Vec::new(),
        }
    }
}
