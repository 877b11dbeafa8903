//! Sourcegraph Cody's chat history, settings and model choices, as evidence rows.
//!
//! Cody keeps every chat of every account in one JSON value, `cody-local-chatHistory-v2`
//! (an AccountKeyedChatHistory: `{"<endpoint>-<username>": {"chat": {"<id>": transcript}}}`).
//! In VS Code that value sits inside the `sourcegraph.cody-ai` row of the editor's
//! `state.vscdb`; the JetBrains plugin's agent keeps it as a file of that name under
//! `Cody-nodejs/.../JetBrains-globalState/`. The pre-agent JetBrains plugin left
//! `.idea/cody_history.xml` in each project, which the migration copied and never
//! deleted.
//!
//! Why the crate is shaped the way it is:
//!
//! * **One value, many chats.** A single damaged byte must not cost every chat of every
//!   account, so [`decode`] scans the value's structure and decodes each chat (and in a
//!   damaged chat, each interaction) on its own. A chat that does not decode is one
//!   `parser: unparseable record <N> (<reason>): <record>` row per damaged interaction;
//!   everything else is read, the interactions after one damaged only inside its
//!   strings included.
//! * **Times that are not UTC stay flagged.** Chat ids are `Date.toUTCString()` (UTC),
//!   but chats migrated from the legacy plugin carry its zone-less, host-local
//!   `LocalDateTime` as id; they keep `timestamp_zone = unknown` unless the responder
//!   gives the host's offset. Pre-CODY-3538 UUID ids have no time at all.
//! * **The legacy XML is secondary.** The messages the migration copied (its complete
//!   human/assistant pairs, [`rows::migrated_messages`]) are yielded with
//!   `secondary = true` and the same session, text and time as the agent store's copy,
//!   so [`chat_rows::merge::merge_secondary`] (see [`merge`]) drops the copies and keeps
//!   the chats deleted from the agent store. A message the migration skipped is a
//!   primary row, which no merge takes even when its text repeats an earlier message.
//! * **A delete leaves the older value behind.** Cody writes no tombstone: it rewrites
//!   the whole value, so the WAL and the freed pages of `state.vscdb` keep earlier
//!   versions. [`state_db_rows`] decodes every distinct older version that
//!   `state-vscdb` recovers and yields what the live value no longer holds (deleted
//!   chats, interactions an edited prompt replaced) as `record_state = deleted`, once,
//!   never repeating a live chat ([`rows::deleted_rows`]).
//! * **Secrets never reach a row.** The history holds no token; in `settings.json` only
//!   the permission keys are read, and an MCP server's `headers`, `env`, `url`,
//!   `command` and `args` are never looked at.
//!
//! Entry points: [`CodyStore`] for the scanner; [`state_db_rows`] and [`file_rows`] for
//! one file; [`ChatHistory::from_bytes`] (and `from_path`),
//! [`ExtensionState::from_bytes`], [`ModelPreferences::from_bytes`],
//! [`LegacyHistory::from_bytes`] and [`decode::permission_settings`] for the formats;
//! [`rows`] to turn them into rows.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::path::Path;

use chat_rows::{Claim, Evidence, FileContext, RecordState, Row, Store};

pub use decode::xml::{LegacyChat, LegacyHistory, LegacyMessage};
pub use decode::{
    Chat, ChatHistory, Error, ExtensionState, Interaction, Message, ModelPreferences,
};
pub use locate::FileKind;
pub use rows::Origin;

/// The rows of a JetBrains `cody-local-chatHistory-v2` file (or any history value
/// given as bytes), with `source_line` 1 and byte offsets as locators.
pub fn history_rows_from_bytes(bytes: &[u8], source_file: &str, ctx: &FileContext) -> Vec<Row> {
    let origin = Origin {
        source_file: source_file.to_string(),
        locator: String::new(),
        line: Some(1),
        state: RecordState::Live,
        host_offset: ctx.host_offset,
    };
    rows::history_rows(&ChatHistory::from_bytes(bytes), &origin)
}

/// The rows of a `sourcegraph.cody-ai` value (VS Code's global state of the extension):
/// its chat history and its model preferences. `locator` names the value's place in
/// the database; `mtime` is the database file's modification time (the preferences
/// record no time of their own).
pub fn extension_state_rows(
    value: &[u8],
    origin: &Origin,
    mtime: Option<chat_rows::Timestamp>,
) -> Vec<Row> {
    extension_rows(&ExtensionState::from_bytes(value), origin, mtime)
}

/// The rows of a decoded `sourcegraph.cody-ai` value (see [`extension_state_rows`]).
pub fn extension_rows(
    st: &ExtensionState,
    origin: &Origin,
    mtime: Option<chat_rows::Timestamp>,
) -> Vec<Row> {
    let mut out = Vec::new();
    if let Some(h) = &st.history {
        out.extend(rows::history_rows(h, origin));
    }
    if let Some(p) = &st.model_preferences {
        let label = format!(
            "{} {}",
            locate::short_name(&origin.source_file),
            decode::MODEL_PREFERENCES_KEY
        );
        match p {
            Ok(p) => out.extend(rows::model_preference_rows(p, origin, &label, mtime)),
            Err(_) => {
                let mut r = Row::system(
                    rows::AGENT,
                    chat_rows::system::not_json_object(decode::MODEL_PREFERENCES_KEY),
                )
                .file(origin.source_file.clone())
                .locator(origin.locator.clone())
                .state(origin.state)
                .at(mtime);
                r.source_line = origin.line;
                out.push(r);
            }
        }
    }
    if let Some(e) = &st.damage {
        let mut r = Row::system(
            rows::AGENT,
            chat_rows::system::value_not_json("sourcegraph.cody-ai", e),
        )
        .file(origin.source_file.clone())
        .locator(origin.locator.clone())
        .state(origin.state);
        r.source_line = origin.line;
        out.push(r);
    }
    out
}

/// Drops the legacy XML's rows that repeat the agent store's (same session, turn type,
/// text and time), keeping everything else; returns the rows and how many were dropped.
/// The scanner does the same over all stores' rows; this is for callers of this crate alone.
pub fn merge(rows: Vec<Row>) -> (Vec<Row>, usize) {
    chat_rows::merge::merge_secondary(rows, chat_rows::merge::DEFAULT_WINDOW_MICROS)
}

/// The Cody store for the scanner: claims `state.vscdb`, the JetBrains globalState
/// files, `User/settings.json` and `.idea/cody_history.xml`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CodyStore;

fn unreadable(source: &str, e: &std::io::Error) -> Row {
    Row::system(
        rows::AGENT,
        chat_rows::system::parser(format!(
            "{} could not be read ({e})",
            locate::short_name(source)
        )),
    )
    .file(source)
}

impl Store for CodyStore {
    fn agent(&self, _ctx: &chat_rows::FileContext) -> String {
        "cody".into()
    }

    fn name(&self) -> &'static str {
        "cody-history"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        locate::kind(path).map(|k| Claim::new(k.describe()).with_copies())
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

impl CodyStore {
    /// Every row of a claimed file (the collected form of the store's `read_into`).
    pub(crate) fn read_rows(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
    ) -> Vec<Row> {
        self.read_with(path, ctx, evidence, state_vscdb::Opening::default())
    }

    /// The rows of a claimed file, a `state.vscdb` read page by page from the size
    /// `opening` gives ([`state_vscdb::Opening::paged`] forces it, for tests).
    pub fn read_with(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        opening: state_vscdb::Opening,
    ) -> Vec<Row> {
        let source = ctx.source_file(path, evidence);
        let Some(kind) = locate::kind(path) else {
            return Vec::new();
        };
        if kind == FileKind::StateDb {
            return state_db_rows_with(path, &source, ctx, evidence, opening);
        }
        let bytes = match evidence.read(path) {
            Ok(b) => b,
            Err(e) => return vec![unreadable(&source, &e)],
        };
        let mtime = evidence.modified(path);
        file_rows(kind, &bytes, &source, ctx, mtime)
    }
}

/// The rows of a Cody file given as bytes (any kind but [`FileKind::StateDb`], which
/// needs its WAL: see [`state_db_rows`]). `source` is the `source_file` of the rows,
/// `mtime` the file's modification time (the time of setting and preference rows).
pub fn file_rows(
    kind: FileKind,
    bytes: &[u8],
    source: &str,
    ctx: &FileContext,
    mtime: Option<chat_rows::Timestamp>,
) -> Vec<Row> {
    let file_origin = Origin {
        source_file: source.to_string(),
        locator: String::new(),
        line: Some(1),
        state: RecordState::Live,
        host_offset: ctx.host_offset,
    };
    match kind {
        FileKind::History => history_rows_from_bytes(bytes, source, ctx),
        FileKind::ModelPreferences => rows::model_preferences_file_rows(
            bytes,
            &file_origin,
            &locate::short_name(source),
            mtime,
        ),
        FileKind::Settings => {
            let origin = Origin {
                line: None,
                ..file_origin
            };
            rows::settings_rows(bytes, &origin, &locate::short_name(source), mtime)
        }
        FileKind::LegacyXml => {
            let project = locate::project_of(source, &ctx.host);
            rows::legacy_rows(
                &LegacyHistory::from_bytes(bytes),
                source,
                &project,
                ctx.host_offset,
            )
        }
        FileKind::StateDb => Vec::new(),
    }
}

/// The ItemTable key of Cody's global state in VS Code.
pub const EXTENSION_KEY: &str = "sourcegraph.cody-ai";

/// Cody's rows of a `state.vscdb`: the live `sourcegraph.cody-ai` value's chats and
/// model preferences, then (as `record_state = deleted`) the chats and interactions that
/// older versions of the value still hold in the WAL and free pages and the live value
/// does not (see [`rows::deleted_rows`]). A database without the key gives no row. A database that cannot
/// be opened gives no row either: it is the editor's file, and the editor's store
/// reports its damage once (`parser: state.vscdb unreadable: ...`).
pub fn state_db_rows(
    path: &Path,
    source: &str,
    ctx: &FileContext,
    evidence: &Evidence,
) -> Vec<Row> {
    state_db_rows_with(path, source, ctx, evidence, state_vscdb::Opening::default())
}

/// [`state_db_rows`] with the size from which the database is read page by page given
/// (above [`state_vscdb::PAGED_FROM_BYTES`] by default, main file and WAL together:
/// the same items, from a walk of the table and the paged carver).
pub fn state_db_rows_with(
    path: &Path,
    source: &str,
    ctx: &FileContext,
    evidence: &Evidence,
    opening: state_vscdb::Opening,
) -> Vec<Row> {
    let Ok(db) = state_vscdb::StateDb::open_with(path, evidence, opening) else {
        return Vec::new();
    };
    let mtime = evidence.modified(path);
    let origin = |item: &state_vscdb::Item| Origin {
        source_file: source.to_string(),
        locator: item.locator(),
        // the item's value is one JSON value, as a JetBrains history file is
        line: Some(1),
        state: item.state,
        host_offset: ctx.host_offset,
    };
    let mut out = Vec::new();
    let live = db.item(EXTENSION_KEY).map(|item| {
        let st = ExtensionState::from_bytes(item.value.as_bytes());
        out.extend(extension_rows(&st, &origin(item), mtime));
        st
    });
    // the same older version is often found in several places (a main-file page, a WAL
    // frame, a freeblock): decode each distinct value once, from its first place
    let fingerprint = |v: &str| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        v.hash(&mut h);
        (v.len(), h.finish())
    };
    let mut distinct = std::collections::HashSet::new();
    if let Some(item) = db.item(EXTENSION_KEY) {
        distinct.insert(fingerprint(&item.value));
    }
    let older: Vec<(ChatHistory, Origin)> = db
        .deleted()
        .iter()
        .filter(|item| item.key == EXTENSION_KEY && distinct.insert(fingerprint(&item.value)))
        .filter_map(|item| {
            ExtensionState::from_bytes(item.value.as_bytes())
                .history
                .map(|h| (h, origin(item)))
        })
        .collect();
    out.extend(rows::deleted_rows(
        live.as_ref().and_then(|st| st.history.as_ref()),
        &older,
    ));
    out
}
