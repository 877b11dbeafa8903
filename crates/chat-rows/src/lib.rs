//! The row model that every ai-chat-forensics store crate shares.
//!
//! Every store, whatever its format, ends as a list of [`Row`]s: one prompt, reply,
//! tool call, thinking block or system fact per row, with the file and the place in
//! it that the row came from. Keeping that model in one small crate is what lets an
//! incident responder merge VS Code, Cody, Tabby, Copilot and CodeBuddy evidence into
//! one timeline, and lets each store crate stay ignorant of the others.
//!
//! The crate also holds the pieces every parser needs and that must behave the same
//! everywhere, because a responder compares their output across stores:
//!
//! * [`system`]: the exact texts of the system rows the store specifications define
//!   (`parser:`, `model:`, `permission ...:`, `session ...:`, `source host:`,
//!   `edit state:`), built in one place so that no crate formats them by hand;
//! * [`lines`]: a line reader over bytes that never gives up on a file;
//! * [`json`]: JSON decoding that tolerates JavaScript's lone surrogates;
//! * [`jsonc`]: JSONC (`settings.json`) decoding;
//! * [`when`]: time decoding that never presents a zone-less time as UTC;
//! * [`uri`]: `file:` and `vscode-remote:` URI decoding;
//! * [`merge`]: primary/secondary de-duplication;
//! * [`mod@write`]: the JSONL, CSV and Timesketch writers;
//! * [`evidence`]: read-only access to evidence files, with a chain-of-custody manifest;
//! * [`store`]: the trait through which a store crate claims and reads files;
//! * [`dirty`]: the dirty-input harness that every store crate runs on its fixtures.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod archive;
pub mod dirty;
pub mod evidence;
mod ewf;
pub mod json;
pub mod jsonc;
pub mod lines;
pub mod merge;
mod row;
pub mod secrets;
pub mod store;
pub mod system;
pub mod uri;
mod vdisk;
mod vhdx_log;
pub mod when;
pub mod write;

pub use archive::{
    ArchiveKind, ArchivePassword, Compressed, RAR_BUFFERED_LIMIT, RAR_DICTIONARY_LIMIT,
    RAR_KEY_ROUNDS, SEVEN_Z_KEY_ROUNDS, SEVEN_Z_MEMORY_LIMIT, XZ_MEMORY_LIMIT, ZSTD_MAX_WINDOW,
};
pub use evidence::{Evidence, ManifestEntry, RangedFile, display_path, snapshot_tree};
pub use row::{RecordState, Row, TurnType, Zone};
pub use store::{Claim, FileContext, RowSink, Store, Walked};
pub use when::Timestamp;
