//! The session tree that Claude Code, CodeBuddy Code and WorkBuddy share.
//!
//! CodeBuddy Code is built in Claude Code's container: the same `projects/<key>/`
//! tree, one JSONL file per session, sub-agent files with a `.meta.json` beside them,
//! large tool outputs moved to `tool-results/` behind `<persisted-output>` stubs,
//! titles, summaries and file-history snapshots. Only the record protocol inside a
//! line differs (OpenAI Agents items against Anthropic Messages content blocks). This
//! crate is the part they share, so that each product's crate is its record decoder
//! and mapping only, and a third product of the family needs nothing more:
//!
//! * [`locate`]: which paths are files of the tree, with the home and project-key
//!   rules as a [`Family`]'s parameters;
//! * [`log`]: a session file split into lines and decoded on demand into the product's
//!   [`Record`], bad lines kept in place as [`Error`]s;
//! * [`persisted`]: `<persisted-output>` stubs and the files they point to;
//! * [`tree`]: meta side files, persisted outputs no line points to, and the rows of
//!   side files whose session is gone;
//! * [`titles`], [`file_history`], [`hidden`], [`links`]: the title choice, the
//!   file-history rows, the hidden-record labels and the link checks, with their
//!   row texts;
//! * [`place`]: the columns a file's rows share;
//! * [`secret`]: the keys and texts that never reach a row (a withheld value prints
//!   `[withheld]`).
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod file_history;
pub mod hidden;
pub mod light;
pub mod links;
pub mod locate;
pub mod log;
pub mod persisted;
pub mod place;
pub mod secret;
pub mod titles;
pub mod tree;

pub use locate::{Family, FileKind, Location, sibling, sibling_display};
pub use log::{Entry, Error, Record, SessionLog};
pub use persisted::{Persisted, PersistedPointer, Resolver, persisted_pointer};
pub use place::Place;
pub use titles::{TitlePick, Titles};
pub use tree::SessionFiles;
