//! VS Code's chat sessions, replayed forensically: every prompt, reply, thinking block,
//! tool call, permission decision and model change that VS Code (or a fork: Cursor,
//! VSCodium, Windsurf, Positron, Kiro, Trae, Insiders, a remote server) keeps for Copilot
//! Chat and every other chat participant.
//!
//! # Why a replay engine
//! Since 1.109 a session is a mutation log (`chatSessions/<id>.jsonl`): one kind-0 line
//! with the whole session, then Set/Push/Delete lines. The session a user saw is the
//! result of applying them with JavaScript's exact semantics, so that is what
//! [`decode::Replay`] does. VS Code drops the whole chat on the first line it cannot
//! apply; a responder cannot afford that, so the replay applies what it can, reports
//! the rest line by line, and says whether VS Code would have hidden the chat.
//!
//! # Why recovery
//! The log is append-only between compactions: a regenerated answer or a removed
//! request is overwritten in the state but its line is still in the file.
//! [`decode::Replay::recovered`] keeps those values, and their rows are marked
//! `recovered` with the line that wrote them.
//!
//! # Layers
//! * [`locate`]: which files are VS Code chat evidence, by path alone;
//! * [`decode`]: the mutation log and its replay, over a JSON tree that borrows from
//!   the input ([`decode::node`]);
//! * [`rows`]: the Parser plan's rows, for a replayed log, a flat `.json` session, the
//!   legacy `state.vscdb` blob ([`rows::rows_from_session`]), and the editing state,
//!   sync markers, settings and `workspace.json` files;
//! * [`ChatLogStore`]: the [`chat_rows::Store`] the scanner calls.
//!
//! # Example
//! ```
//! use vscode_chat_log::{Replay, rows::{rows_from_replay, SessionContext}};
//! let log = br#"{"kind":0,"v":{"sessionId":"s","requests":[]}}
//! {"kind":2,"k":["requests"],"v":[{"requestId":"r1","message":{"text":"hi"},"response":[{"value":"hello"}]}]}
//! "#;
//! let replay = Replay::from_bytes(log);
//! assert!(replay.refusal().is_none());
//! let rows = rows_from_replay(&replay, &SessionContext::new("vscode", "s.jsonl"));
//! assert_eq!(rows.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(), ["session start: ", "hi", "hello"]);
//! assert_eq!(rows[2].source_line, Some(2));
//!
//! // the same rows, lent one at a time (a writer's form: no memory for all of them)
//! let mut texts = Vec::new();
//! vscode_chat_log::rows::for_each_row(&replay, &SessionContext::new("vscode", "s.jsonl"), |row| {
//!     texts.push(row.text.clone())
//! });
//! assert_eq!(texts, ["session start: ", "hi", "hello"]);
//! ```
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;
mod store;

use std::path::{Path, PathBuf};

pub use decode::{Node, Recovered, Refusal, Replay, Slot};
pub use rows::{SessionContext, rows_from_session};
pub use store::ChatLogStore;

/// Everything that can go wrong reading VS Code chat files, with where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A log line is not JSON.
    #[error("line {line} (byte {offset}): {reason}")]
    Json {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// serde_json's message (it says the column).
        reason: String,
    },
    /// A log line holds only whitespace (VS Code does not skip it).
    #[error("line {line} (byte {offset}): the line holds only whitespace")]
    Blank {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
    },
    /// A log line's `kind` is not 0, 1, 2 or 3 (VS Code: `Error: Unreachable`).
    #[error("line {line} (byte {offset}): kind {kind} is not 0, 1, 2 or 3")]
    Kind {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// The kind found, as JSON, or `missing`.
        kind: String,
    },
    /// A mutation came before any kind-0 line; it was applied to an empty session.
    #[error("line {line} (byte {offset}): log file is missing an initial entry")]
    MissingInitial {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
    },
    /// A line held arrays or objects nested deeper than [`decode::json::MAX_DEPTH`]
    /// levels: the rest of the line was read and applied, those values were validated
    /// and skipped ([`Node::TooDeep`]). VS Code's reader has no such limit and would
    /// read them, so this is never a refusal.
    #[error("line {line} (byte {offset}): {}", too_deep_text(*.at, *.count))]
    TooDeep {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// Byte offset (in the file) of the first value skipped.
        at: u64,
        /// How many values were skipped.
        count: usize,
    },
    /// A mutation could not be applied.
    #[error("line {line} (byte {offset}): mutation not applied: {why}")]
    NotApplied {
        /// 1-based line.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// Why, in the words of the JavaScript error VS Code would throw where it would.
        why: String,
    },
}

impl Error {
    /// The reason, as VS Code's reader would report it where it would throw.
    pub fn reason(&self) -> String {
        match self {
            Error::Io { source, .. } => source.to_string(),
            Error::Json { reason, .. } => format!("SyntaxError: {reason}"),
            Error::Blank { .. } => "SyntaxError: Unexpected end of JSON input".into(),
            Error::Kind { .. } => "Error: Unreachable".into(),
            Error::MissingInitial { .. } => "Error: Log file is missing an initial entry".into(),
            Error::NotApplied { why, .. } => why.clone(),
            Error::TooDeep { at, count, .. } => too_deep_text(*at, *count),
        }
    }

    /// The text of the `parser:` row for this error on `line`.
    pub fn row_text(&self, line: &[u8]) -> String {
        use chat_rows::system;
        match self {
            Error::Io { path, source } => {
                system::parser(format!("{} not read ({source})", path.display()))
            }
            Error::Json { reason, .. } => system::unparseable_line_bytes(reason, line),
            Error::Blank { .. } => {
                system::unparseable_line_bytes("the line holds only whitespace", line)
            }
            Error::Kind { kind, .. } => {
                system::mutation_not_applied_bytes(format!("kind {kind} is not 0, 1, 2 or 3"), line)
            }
            Error::MissingInitial { line: n, .. } => system::parser(format!(
                "log file is missing an initial entry: line {n} and later are applied to an empty session"
            )),
            Error::NotApplied { why, .. } => system::mutation_not_applied_bytes(why, line),
            Error::TooDeep { at, count, .. } => system::parser(too_deep_text(*at, *count)),
        }
    }
}

/// What a `parser:` row says of values skipped for being nested too deep: ours is the
/// limit, not VS Code's (`JSON.parse` reads any depth).
pub(crate) fn too_deep_text(at: u64, count: usize) -> String {
    let more = match count {
        0 | 1 => String::new(),
        2 => " and 1 more place".to_string(),
        n => format!(" and {} more places", n - 1),
    };
    format!(
        "nested deeper than {} levels at byte {at}{more}: not read (VS Code would load it)",
        decode::json::MAX_DEPTH
    )
}

/// A session log read into memory, ready to replay. The replay borrows from it.
#[derive(Clone, Debug)]
pub struct SessionLog {
    bytes: Vec<u8>,
}

impl SessionLog {
    /// Reads a log file (read-only) through the evidence reader: a regular file only, no
    /// link followed out of its folder, under the size cap.
    pub fn from_path(path: impl AsRef<Path>) -> Result<SessionLog, Error> {
        let path = path.as_ref();
        chat_rows::Evidence::new()
            .read(path)
            .map(SessionLog::from_buffer)
            .map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })
    }

    /// Takes a log already in memory.
    pub fn from_buffer(bytes: Vec<u8>) -> SessionLog {
        SessionLog { bytes }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Replays the log (see [`Replay`]).
    pub fn replay(&self) -> Replay<'_> {
        Replay::from_bytes(&self.bytes)
    }
}

/// Replays a log held in memory (the same as [`Replay::from_bytes`]).
pub fn from_bytes(bytes: &[u8]) -> Replay<'_> {
    Replay::from_bytes(bytes)
}

/// Reads a log file (the same as [`SessionLog::from_path`]).
pub fn from_path(path: impl AsRef<Path>) -> Result<SessionLog, Error> {
    SessionLog::from_path(path)
}
