//! The [`Store`] the scanner calls: claims by path, reads through [`Evidence`].

use std::path::Path;

use chat_rows::{Claim, Evidence, FileContext, Row, RowSink, Store, system};

use crate::decode::{Replay, parse_document_noting_depth};
use crate::locate::{self, FileKind};
use crate::rows::files::{self, FileRows, Workspace};
use crate::rows::{SessionContext, for_each_row, rows_from_node};

/// VS Code's chat store (and every fork's): sessions, editing state, sync markers,
/// chat settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChatLogStore;

impl Store for ChatLogStore {
    fn agent(&self, ctx: &chat_rows::FileContext) -> String {
        ctx.product
            .clone()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "vscode".into())
    }

    fn name(&self) -> &'static str {
        "vscode-chat-log"
    }

    fn claim(&self, path: &Path) -> Option<Claim> {
        locate::classify(path).map(|k| {
            let claim = Claim::new(k.name());
            // a flat session beside its log twin gives secondary rows
            if k == FileKind::SessionJson {
                claim.with_copies()
            } else {
                claim
            }
        })
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &FileContext,
        evidence: &Evidence,
        sink: &mut dyn RowSink,
    ) {
        let Some(kind) = locate::classify(path) else {
            return;
        };
        let agent = ctx
            .product
            .clone()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "vscode".into());
        let source_file = ctx.source_file(path, evidence);
        let bytes = match evidence.read(path) {
            Ok(b) => b,
            Err(e) => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                sink.push(
                    Row::system(agent, system::parser(format!("{name} not read ({e})")))
                        .file(source_file),
                );
                return;
            }
        };
        let f = FileRows {
            agent: agent.clone(),
            source_file: source_file.clone(),
            mtime: evidence.modified(path),
        };
        let rows = match kind {
            FileKind::SessionLog | FileKind::SessionJson => {
                let ws = workspace_of(path, evidence);
                let sctx = SessionContext {
                    agent,
                    source_file,
                    session_id: locate::stem(path),
                    project_path: ws.folder,
                    workspace: ws.workspace,
                    locator: String::new(),
                    secondary: false,
                };
                if kind == FileKind::SessionLog {
                    // streamed: each row is lent as it is made, none collected
                    let replay = Replay::from_bytes(&bytes);
                    for_each_row(&replay, &sctx, |row| sink.lend(row));
                    return;
                } else {
                    read_json_session(path, &bytes, sctx, evidence)
                }
            }
            FileKind::WorkspaceJson => files::workspace_rows(&bytes, &f),
            FileKind::EditingState => {
                let key = path
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let ws = workspace_of(path, evidence);
                files::editing_state_rows(&bytes, &key, &ws.folder, &f)
            }
            FileKind::CloudSessions => {
                files::cloud_sessions_rows_at(&bytes, &locate::user_relative(path), &f)
            }
            FileKind::Settings => files::settings_rows(&bytes, &locate::user_relative(path), &f),
        };
        for row in rows {
            sink.push(row);
        }
    }
}

/// The sibling `workspace.json`'s folder and workspace file (empty when there is none or
/// it is damaged: its own rows say so).
fn workspace_of(path: &Path, evidence: &Evidence) -> Workspace {
    locate::workspace_json_for(path)
        .and_then(|w| evidence.read_optional(&w).ok().flatten())
        .and_then(|b| files::workspace(&b).ok())
        .unwrap_or_default()
}

/// The rows of a flat session: alone, it is the primary source; beside its `.jsonl`
/// twin (or, at the old empty-window location, with a copy at the new one:
/// [`locate::newer_copies`]), every one of its rows is secondary, with the session id,
/// texts and times the log's rows have (one mapping serves both), and the scanner merges
/// away those the log repeats. The crate drops none itself, so `--keep-copies` shows them
/// all and the summary counts those merged. Whether a newer copy exists is checked
/// without reading it.
fn read_json_session(
    path: &Path,
    bytes: &[u8],
    mut ctx: SessionContext,
    evidence: &Evidence,
) -> Vec<Row> {
    ctx.secondary = locate::newer_copies(path)
        .iter()
        .any(|p| evidence.check(p).is_ok());
    json_session_rows(bytes, &ctx)
}

/// The rows of a flat `.json` session's bytes.
pub(crate) fn json_session_rows(bytes: &[u8], ctx: &SessionContext) -> Vec<Row> {
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let bytes = &bytes[bom..];
    // invalid UTF-8 is replaced, as VS Code's decoder does
    let text = String::from_utf8_lossy(bytes);
    match parse_document_noting_depth(&text) {
        Ok((slot, deep)) => {
            let mut rows = rows_from_node(&slot, ctx);
            // what was nested too deep to read: after the session's rows, as a log's
            // line rows come
            if let Some(d) = deep {
                let at = (bom + d.first) as u64;
                rows.push(error_row(
                    ctx,
                    system::parser(crate::too_deep_text(at, d.count)),
                ));
            }
            rows
        }
        Err(e) => vec![error_row(ctx, system::file_not_json(e))],
    }
}

fn error_row(ctx: &SessionContext, text: String) -> Row {
    Row::system(ctx.agent.clone(), text)
        .file(ctx.source_file.clone())
        .session(ctx.session_id.clone())
        .project(ctx.project_path.clone())
        .locator("byte 0")
        .secondary(ctx.secondary)
}
