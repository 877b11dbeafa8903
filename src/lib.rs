//! # ai-chat-forensics
//!
//! The facade of a workspace of forensic parsers for the local stores of AI coding
//! assistants. It re-exports the store crates, discovers their files under evidence
//! roots (one home, a folder of homes, or a KAPE/Velociraptor collection of hosts),
//! reads them in parallel without changing a byte, and returns one timeline of
//! [`Row`]s with the file and place each row came from.
//!
//! The facade knows *where* stores live ([`locations`], [`layout`]); the store crates
//! know *formats*. Each store crate implements [`chat_rows::Store`] and is listed in
//! [`stores::all`].
//!
//! ```no_run
//! use ai_chat_forensics::Scanner;
//!
//! let result = Scanner::new().root("/cases/2026-117/collection").threads(2).run()?;
//! for row in &result.rows {
//!     println!("{} {} {} {}", row.timestamp.map(|t| t.to_string()).unwrap_or_default(), row.agent, row.turn_type, row.text);
//! }
//! # Ok::<(), ai_chat_forensics::ScanError>(())
//! ```
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use chat_rows;
pub use chat_rows::{RecordState, Row, TurnType};
pub use claude_code_log;
pub use codebuddy_log;
pub use cody_history;
pub use copilot_events;
pub use copilot_nitrite;
pub use cursor_state;
pub use sqlite_evidence;
pub use state_vscdb;
pub use tabby_db;
pub use vscode_chat_log;

pub mod guard;
mod held;
pub mod layout;
pub mod locations;
mod scan;
pub mod sort;
pub mod stores;

pub use scan::{
    ArchivesMet, CHUNKS_IN_FLIGHT, FILES_AHEAD_PER_WORKER, FileReport, FoundFile, HOLD_BUDGET,
    MAX_THREADS_PER_CORE, PENDING_BUDGET, SCANNER_AGENT, ScanError, ScanReport, ScanResult,
    Scanner, Summary, cores, effective_threads, host_file_name, is_archive_root,
};
