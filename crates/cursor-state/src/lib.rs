//! Cursor's chats and agents: the IDE's `cursorDiskKV` and the `cursor-agent` CLI.
//!
//! # Why
//!
//! Cursor is a VS Code fork whose chats are invisible to VS Code's stores: the IDE
//! keeps every conversation of every project in one SQLite file,
//! `User/globalStorage/state.vscdb`, as JSON values in its own key-value table
//! `cursorDiskKV` (one `composerData:<composerId>` per chat, one
//! `bubbleId:<composerId>:<bubbleId>` per message), and the CLI keeps each chat in a
//! content-addressed `~/.cursor/chats/<hash>/<agentId>/store.db`. The global database is
//! never vacuumed, so deleted chats stay in its free pages: this crate recovers them
//! through [`sqlite_evidence`], as `deleted` rows with the place they were found.
//!
//! Cursor is closed source: every field read here comes from other readers' reports
//! (see `cursor.md`), and the variants they describe are all read: the pre-3.0 chat
//! index in workspace databases and the 3.0+ `composer.composerHeaders`, bubbles with
//! and without `createdAt` (ISO text or epoch milliseconds), bubbles inside a legacy
//! `conversationMap`, `timingInfo` values that are relative counters (never read as
//! times).
//!
//! # Layers
//!
//! * [`locate`]: which paths are Cursor's and what each is;
//! * [`decode`]: the CLI's protobuf root blobs and hex `meta`, bubble times, Lexical text;
//! * [`rows`]: the rows of the parser plan.
//!
//! The `cursorDiskKV` table is read through [`state_vscdb::KvTable`], the key-value view
//! of `state-vscdb` generalised to any two-column table, one composer at a time.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chat_rows::{Claim, Evidence, FileContext, RowSink, Store};

use locate::Kind;
use rows::Out;
pub use rows::ide::{PAGED_BATCH_BYTES, PAGED_FROM_BYTES, PAGED_MAX_WALKS, Paging};

/// Why a value could not be decoded; each variant says at which byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A protobuf blob that cannot be read.
    #[error("protobuf at byte {offset}: {reason}")]
    Protobuf {
        /// Byte offset of the bad field.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// Hex text that cannot be decoded.
    #[error("hex at byte {offset}: {reason}")]
    Hex {
        /// Byte offset in the text.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// JSON that cannot be decoded.
    #[error("{reason}")]
    Json {
        /// The column serde_json reports (the byte, for one-line values).
        offset: usize,
        /// serde_json's reason, with line and column.
        reason: String,
    },
}

/// The [`chat_rows::Store`] of Cursor: claims the IDE's global database (and its
/// `.backup`, as a secondary copy), its workspace databases, the CLI's files under
/// `.cursor`, and its `cli-config.json` under `.config/cursor` (the config root under
/// `$XDG_CONFIG_HOME`).
#[derive(Debug, Default)]
pub struct CursorStore;

impl Store for CursorStore {
    fn name(&self) -> &'static str {
        "cursor-state"
    }

    fn agent(&self, _ctx: &FileContext) -> String {
        rows::AGENT.to_string()
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        Some(match locate::kind(path)? {
            Kind::GlobalDb => Claim::new("cursor chat database").with_copies(),
            Kind::GlobalBackup => Claim::new("cursor chat database backup").with_copies(),
            Kind::WorkspaceDb => Claim::new("cursor workspace database").with_copies(),
            Kind::AgentStore => Claim::new("cursor agent chat store"),
            Kind::AgentMeta => Claim::new("cursor agent chat meta"),
            Kind::PromptHistory => Claim::new("cursor agent prompt history").with_copies(),
            Kind::Transcript => Claim::new("cursor agent transcript").with_copies(),
            Kind::Permissions => Claim::new("cursor permissions"),
            Kind::CliConfig => Claim::new("cursor cli config"),
            Kind::McpApprovals => Claim::new("cursor mcp approvals"),
            Kind::WorkspaceTrusted => Claim::new("cursor workspace trust marker").marker(),
        })
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
    ) {
        self.read_with(path, ctx, evidence, sink, Paging::default());
    }
}

impl CursorStore {
    /// [`Store::read_into`] with the size from which the global database (and its
    /// `.backup`) is read page by page, and that path's batch size, given: the store
    /// uses [`Paging::default`] (above 512 MiB); tests and the bench force the paged path
    /// on small files with [`Paging::always`].
    pub fn read_with(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
        paging: Paging,
    ) {
        let source = ctx.source_file(path, evidence);
        let mut out = Out::new(source, sink);
        let Some(kind) = locate::kind(path) else {
            return;
        };
        let unreadable = |e: &std::io::Error| {
            rows::sys(chat_rows::system::parser(format!(
                "{} unreadable: {e}",
                path.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            )))
        };
        let read = |out: &mut Out<'_>| -> Option<Vec<u8>> {
            evidence
                .read(path)
                .map_err(|e| out.push(unreadable(&e)))
                .ok()
        };
        let mtime = evidence.modified(path);
        match kind {
            Kind::GlobalDb => rows::ide::read_global_with(path, evidence, &mut out, paging),
            Kind::GlobalBackup => {
                out.secondary = true;
                rows::ide::read_global_with(path, evidence, &mut out, paging);
            }
            Kind::WorkspaceDb => rows::ide::read_workspace(path, evidence, &mut out),
            Kind::AgentStore => rows::cli::read_store(path, evidence, &mut out),
            Kind::AgentMeta => {
                if let Some(b) = read(&mut out) {
                    rows::cli::read_meta_json(path, &b, evidence, &mut out);
                }
            }
            Kind::PromptHistory => {
                if let Some(b) = read(&mut out) {
                    rows::cli::read_prompt_history(&b, &mut out);
                }
            }
            Kind::Transcript => {
                // read a chunk at a time, never held whole
                let mut lines = match evidence.read_lines(path) {
                    Ok(l) => l,
                    Err(e) => return out.push(unreadable(&e)),
                };
                let session = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let (secondary, project) = transcript_owner(path, &session, evidence);
                let read =
                    rows::cli::read_transcript(&mut lines, &session, &project, secondary, &mut out);
                if let Err(e) = read {
                    let at = format!("byte {}", lines.bytes_read());
                    out.push(unreadable(&e).session(session).locator(at));
                }
            }
            Kind::Permissions | Kind::CliConfig => {
                let Some(b) = read(&mut out) else { return };
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // the file from its root folder: `.cursor/cli-config.json`, or
                // `.config/cursor/cli-config.json` for the CLI's config root under XDG
                let xdg = locate::is_xdg_config(path);
                let root = if xdg { ".config/cursor" } else { ".cursor" };
                let from = chat_rows::system::from(format!("{root}/{name}"), "file mtime");
                let project = if xdg || locate::is_home_dot_cursor(path) {
                    String::new()
                } else {
                    locate::project_of_dot_cursor(path)
                        .map(|p| locate::as_on_host(&p))
                        .unwrap_or_default()
                };
                if kind == Kind::Permissions {
                    rows::settings::permissions(&b, &from, &project, mtime, &mut out);
                } else {
                    rows::settings::cli_config(&b, &from, &project, mtime, &mut out);
                }
            }
            Kind::McpApprovals | Kind::WorkspaceTrusted => {
                let Some(b) = read(&mut out) else { return };
                let from = chat_rows::system::from(locate::short_path(path), "file mtime");
                let location = path
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if kind == Kind::McpApprovals {
                    rows::settings::mcp_approvals(&b, &from, &location, mtime, &mut out);
                } else {
                    rows::settings::workspace_trusted(&from, &location, mtime, &mut out);
                }
            }
        }
    }
}

/// Whether a transcript's agent also has a `store.db` (then the transcript is a
/// secondary copy), and the project: the `cwd` of a matching `meta.json` (the one beside
/// that `store.db`, else the first by hash name, with or without a `store.db`), else the
/// `projects/<p>` folder name as written.
fn transcript_owner(path: &Path, session: &str, evidence: &Evidence) -> (bool, String) {
    let folder = path
        .ancestors()
        .find(|p| {
            p.parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "projects")
        })
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(dot) = locate::dot_cursor(path) else {
        return (false, folder);
    };
    let agents = agent_dirs(&dot, evidence);
    let Some(agent) = agents.get(OsStr::new(session)) else {
        return (false, folder);
    };
    let cwd_in = |dir: &Path| {
        evidence
            .read_optional(&dir.join("meta.json"))
            .ok()
            .flatten()
            .and_then(|b| chat_rows::json::from_slice::<serde_json::Value>(&b).ok())
            .map(|m| rows::str_of(&m, "cwd"))
            .filter(|c| !c.is_empty())
    };
    let cwd = agent.store.as_deref().and_then(cwd_in).or_else(|| {
        agent
            .meta
            .as_deref()
            .filter(|m| Some(*m) != agent.store.as_deref())
            .and_then(cwd_in)
    });
    (agent.store.is_some(), cwd.unwrap_or(folder))
}

/// The folders of one agent id under `chats/<hash>/`: the first (by hash name) holding
/// a `store.db`, and the first holding a `meta.json`.
#[derive(Debug, Default)]
struct Agent {
    store: Option<PathBuf>,
    meta: Option<PathBuf>,
}

/// The agent folders of a `.cursor` that hold a `store.db` or a `meta.json`, by agent
/// id (the folder's name): `chats/<hash>/<agentId>`, the first hash in name order for
/// each file when an id is in several. Listed once per `.cursor` and reader
/// ([`Evidence::remember`]), so each transcript costs one look-up, not a listing of
/// every hash folder.
fn agent_dirs(dot: &Path, evidence: &Evidence) -> Arc<HashMap<OsString, Agent>> {
    let chats = dot.join("chats");
    let key = format!(
        "cursor-state: agent stores and metas under {}",
        chat_rows::display_path(&chats)
    );
    evidence.remember(&key, || {
        let mut agents: HashMap<OsString, Agent> = HashMap::new();
        for hash in evidence.read_dir(&chats).unwrap_or_default() {
            for dir in evidence.read_dir(&hash).unwrap_or_default() {
                let Some(id) = dir.file_name().map(OsStr::to_os_string) else {
                    continue;
                };
                let known = agents.get(&id);
                let want_store = known.is_none_or(|a| a.store.is_none());
                let want_meta = known.is_none_or(|a| a.meta.is_none());
                let store = want_store && evidence.check(&dir.join("store.db")).is_ok();
                let meta = want_meta && evidence.check(&dir.join("meta.json")).is_ok();
                if !store && !meta {
                    continue;
                }
                let agent = agents.entry(id).or_default();
                if store {
                    agent.store = Some(dir.clone());
                }
                if meta {
                    agent.meta = Some(dir);
                }
            }
        }
        Arc::new(agents)
    })
}
