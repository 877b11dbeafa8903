//! The side files: `workspace.yaml`, VS Code metadata, rewind snapshot indexes,
//! checkpoints and plans, command history, standing grants, trusted folders,
//! settings, debug logs, memory notes and the legacy session JSON.
//!
//! Why each is small and separate: these files are written by different versions
//! with shapes the spec marks unverified, so each reader takes only the keys the
//! Parser plan names, says `parser:` when a file is not the JSON or YAML it should be,
//! and never prints anything else of the file: `config.json` may hold the user's
//! token, so only its trust list is read, and settings keys that name a password,
//! token, secret, API key or authorization are skipped.

use chat_rows::jsonc::Node;
use chat_rows::secrets::names_secret;
use chat_rows::system::{self, key_values};
use chat_rows::{RecordState, Row, Timestamp, TurnType};
use serde_json::{Map, Value};

use crate::decode::{self, compact_json, scalar};
use crate::texts;

/// The rows' common columns for a side file.
pub struct Side<'a> {
    /// The agent.
    pub agent: &'a str,
    /// The session the path names, or empty.
    pub session: &'a str,
    /// The file's modification time.
    pub mtime: Option<Timestamp>,
    /// The file's name, for `(from <file>, file mtime)`.
    pub file_name: &'a str,
}

#[allow(clippy::result_large_err)]
fn object(bytes: &[u8], what: &str, agent: &str) -> Result<Map<String, Value>, Row> {
    match chat_rows::jsonc::parse_bytes(bytes) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(Row::system(
            agent,
            system::parser(crate::Error::NotObject {
                what: what.to_string(),
                offset: 0,
                reason: "the top-level value is not an object".into(),
            }),
        )
        .locator("whole file")),
        Err(e) => Err(Row::system(
            agent,
            system::parser(crate::Error::NotObject {
                what: what.to_string(),
                offset: 0,
                reason: e.to_string(),
            }),
        )
        .locator("whole file")),
    }
}

/// Like [`object`], as a [`Node`]: the members in the file's order and each value as
/// written, for the files whose rows print what someone granted.
#[allow(clippy::result_large_err)] // as `object`: the error is the row, made once per file
fn tree<'b>(bytes: &'b [u8], what: &str, agent: &str) -> Result<Node<'b>, Row> {
    let reason = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(Some(n)) if n.is_object() => return Ok(n),
        Ok(_) => "the top-level value is not an object".to_string(),
        Err(e) => e.to_string(),
    };
    Err(Row::system(
        agent,
        system::parser(crate::Error::NotObject {
            what: what.to_string(),
            offset: 0,
            reason,
        }),
    )
    .locator("whole file"))
}

/// `workspace.yaml`: the session title, and a secondary `session index:` row.
pub fn workspace_yaml(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            sink(
                Row::system(
                    side.agent,
                    system::parser(format!(
                        "workspace.yaml is not readable (invalid UTF-8 at byte {})",
                        e.valid_up_to()
                    )),
                )
                .session(side.session)
                .locator(format!("byte {}", e.valid_up_to())),
            );
            return;
        }
    };
    let (entries, bad) = decode::flat_yaml(text);
    let get = |k: &str| {
        entries
            .iter()
            .find(|e| e.key == k)
            .map(|e| e.value.as_str())
            .unwrap_or("")
    };
    let sid = if get("id").is_empty() {
        side.session
    } else {
        get("id")
    };
    let created = decode::time_text(get("created_at"));
    let base = |turn, text: String| {
        Row::new(side.agent, turn, text)
            .at(created)
            .session(sid)
            .project(get("cwd"))
            .branch(get("branch"))
            .locator("whole file")
    };
    for (n, line) in bad {
        sink(
            Row::system(
                side.agent,
                system::parser(format!(
                    "workspace.yaml is not readable (line {n} is not `key: value`: {})",
                    system::quote(&line)
                )),
            )
            .session(sid)
            .line(n),
        );
    }
    let title = if get("name").is_empty() {
        get("summary")
    } else {
        get("name")
    };
    if !title.is_empty() {
        sink(base(TurnType::System, texts::session_title(title)));
    }
    // the summary when the title is the name, whether the user named it, and any key
    // the spec does not name (a secret-named one withheld): since 2026-12-05 (before,
    // these reached no row)
    let summary = if get("name").is_empty() {
        ""
    } else {
        get("summary")
    };
    let mut fields: Vec<(&str, &str)> = vec![
        ("client", get("client_name")),
        ("repository", get("repository")),
        ("git_root", get("git_root")),
        ("summary", summary),
        ("summary_count", get("summary_count")),
        ("user_named", get("user_named")),
        ("created", get("created_at")),
        ("updated", get("updated_at")),
    ];
    const NAMED: [&str; 12] = [
        "id",
        "cwd",
        "git_root",
        "repository",
        "branch",
        "summary",
        "summary_count",
        "created_at",
        "updated_at",
        "client_name",
        "name",
        "user_named",
    ];
    for e in &entries {
        if !NAMED.contains(&e.key.as_str()) {
            let value = if chat_rows::secrets::names_secret(&e.key)
                || chat_rows::secrets::looks_like_token(&e.value)
            {
                chat_rows::secrets::WITHHELD
            } else {
                e.value.as_str()
            };
            fields.push((e.key.as_str(), value));
        }
    }
    // nothing to index (a file of its id and place only): no empty `session index:` row
    if fields.iter().any(|(_, v)| !v.is_empty()) {
        let index = system::session_index(&fields);
        sink(base(TurnType::System, index).state(RecordState::Secondary));
    }
}

/// `vscode.metadata.json`: a secondary `session index:` row of its top-level keys.
pub fn vscode_metadata(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    match object(bytes, side.file_name, side.agent) {
        Err(r) => sink(r.session(side.session)),
        Ok(m) if m.is_empty() => {}
        Ok(m) => {
            let pairs: Vec<(String, String)> =
                m.iter().map(|(k, v)| (k.clone(), scalar(v))).collect();
            let refs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            sink(
                Row::system(side.agent, system::session_index(&refs))
                    .at(side.mtime)
                    .session(side.session)
                    .locator("whole file")
                    .state(RecordState::Secondary),
            );
        }
    }
}

/// The backups folder beside a rewind index (`<index folder>/backups/`), listed by
/// name, size and modification time; no backup is ever opened.
#[derive(Clone, Debug, Default)]
pub struct Backups {
    /// Each file: name, size in bytes, modification time.
    pub files: Vec<(String, u64, Option<Timestamp>)>,
}

impl Backups {
    /// Lists `dir` through the evidence rules (`read_dir`, `check`): names, sizes and
    /// times only. A missing or refused folder lists nothing.
    pub fn list(dir: &std::path::Path, evidence: &chat_rows::Evidence) -> Backups {
        let mut files = Vec::new();
        for p in evidence.read_dir(dir).unwrap_or_default() {
            let Ok(c) = evidence.check(&p) else {
                continue;
            };
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let at = c.modified.and_then(Timestamp::from_system_time);
            files.push((name, c.size, at));
        }
        Backups { files }
    }

    /// The sizes by name, for looking each named backup up once (a list scan per name
    /// was quadratic: 80,000 named backups took 64 s).
    fn sizes(&self) -> std::collections::HashMap<&str, u64> {
        let mut out = std::collections::HashMap::with_capacity(self.files.len());
        for (n, size, _) in &self.files {
            out.entry(n.as_str()).or_insert(*size);
        }
        out
    }
}

/// One file of a snapshot as the row lists it: `<path> (backup <h>: present, <n> bytes)`,
/// `(backup <h>: missing)`, `(backup <h>)` when the folder was not looked at, `(no
/// backup)` when the entry names none.
fn snapshot_file(
    path: &str,
    backup: &str,
    backups: Option<&std::collections::HashMap<&str, u64>>,
) -> String {
    let path = if path.is_empty() { "-" } else { path };
    match (backup.is_empty(), backups) {
        (true, _) => format!("{path} (no backup)"),
        (false, None) => format!("{path} (backup {backup})"),
        (false, Some(b)) => match b.get(backup).copied() {
            Some(n) => format!("{path} (backup {backup}: present, {n} bytes)"),
            None => format!("{path} (backup {backup}: missing)"),
        },
    }
}

/// `edit snapshot: snapshot=<id> event=<eventId> commit=<c> branch=<b> files=<n>:
/// <file>, <file> ...`, each file as `<path> (backup <h>: present, <n> bytes)`, `(backup
/// <h>: missing)`, `(backup <h>)` or `(no backup)`; `files=0` ends without the colon.
pub fn edit_snapshot_text(fields: &[(&str, &str)], files: &[String]) -> String {
    let n = files.len().to_string();
    let mut all: Vec<(&str, &str)> = fields.to_vec();
    all.push(("files", &n));
    let mut t = format!("edit snapshot: {}", key_values(&all));
    if !files.is_empty() {
        t.push_str(": ");
        t.push_str(&files.join(", "));
    }
    t
}

/// `edit snapshot backup: <name>, <n> bytes, named by no snapshot (contents not read)`.
pub fn orphan_backup_text(name: &str, size: u64) -> String {
    format!("edit snapshot backup: {name}, {size} bytes, named by no snapshot (contents not read)")
}

/// `edit snapshot backup: <name>, <n> bytes, no snapshot index beside it (contents not read)`.
pub fn lone_backup_text(name: &str, size: u64) -> String {
    format!(
        "edit snapshot backup: {name}, {size} bytes, no snapshot index beside it (contents not read)"
    )
}

fn backup_of(o: &Map<String, Value>) -> String {
    ["backupHash", "sha256", "backup", "hash"]
        .iter()
        .find_map(|k| o.get(*k).map(scalar))
        .unwrap_or_default()
}

/// The rewind snapshot index without looking at its backups: see [`rewind_index_with`].
pub fn rewind_index(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    rewind_index_with(bytes, side, None, sink)
}

/// The rewind snapshot index (`rewind-file-snapshots/index.json`, `"schema": 1`, or
/// the older `rewind-snapshots/index.json`, `"version": 1`): one `edit snapshot:` row
/// per snapshot listing every file it names (`files` as strings, objects or a map of
/// path to hash) with its backup's state in `backups` (never its contents), the
/// snapshot's `userMessage` as a secondary user row, then one `edit snapshot backup:`
/// row per backup file that no snapshot names, at the file's mtime.
pub fn rewind_index_with(
    bytes: &[u8],
    side: &Side<'_>,
    backups: Option<&Backups>,
    sink: &mut dyn FnMut(Row),
) {
    let m = match object(bytes, side.file_name, side.agent) {
        Ok(m) => m,
        Err(r) => return sink(r.session(side.session)),
    };
    let empty = Vec::new();
    let snaps = m
        .get("snapshots")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut named: std::collections::HashSet<String> = std::collections::HashSet::new();
    let sizes = backups.map(Backups::sizes);
    for (i, snap) in snaps.iter().enumerate() {
        let g = |k: &str| snap.get(k).map(scalar).unwrap_or_default();
        let at = snap.get("timestamp").and_then(decode::time_of);
        let loc = format!("snapshots[{i}]");
        let mut files: Vec<(String, String)> = Vec::new();
        match snap.get("files") {
            Some(Value::Array(a)) => {
                for f in a {
                    match f {
                        Value::String(p) => files.push((p.clone(), String::new())),
                        Value::Object(o) => {
                            let p = ["path", "filePath", "file"]
                                .iter()
                                .find_map(|k| o.get(*k).map(scalar))
                                .unwrap_or_default();
                            files.push((p, backup_of(o)));
                        }
                        _ => {}
                    }
                }
            }
            Some(Value::Object(o)) => {
                for (p, v) in o {
                    let b = match v {
                        Value::Object(x) => backup_of(x),
                        other => scalar(other),
                    };
                    files.push((p.clone(), b));
                }
            }
            _ => {}
        }
        let listed: Vec<String> = files
            .iter()
            .map(|(p, b)| snapshot_file(p, b, sizes.as_ref()))
            .collect();
        named.extend(files.into_iter().map(|(_, b)| b).filter(|b| !b.is_empty()));
        let text = edit_snapshot_text(
            &[
                ("snapshot", &g("snapshotId")),
                ("event", &g("eventId")),
                ("commit", &g("gitCommit")),
                ("branch", &g("gitBranch")),
            ],
            &listed,
        );
        sink(
            Row::system(side.agent, text)
                .at(at)
                .session(side.session)
                .branch(g("gitBranch"))
                .locator(loc.clone()),
        );
        let msg = g("userMessage");
        if !msg.is_empty() {
            sink(
                Row::new(side.agent, TurnType::User, msg)
                    .at(at)
                    .session(side.session)
                    .branch(g("gitBranch"))
                    .locator(loc.clone())
                    .state(RecordState::Secondary),
            );
        }
    }
    for (name, size, at) in backups.map(|b| b.files.as_slice()).unwrap_or(&[]) {
        if !named.contains(name) {
            sink(
                Row::system(side.agent, orphan_backup_text(name, *size))
                    .at(*at)
                    .session(side.session)
                    .locator(format!("backups/{name}")),
            );
        }
    }
}

/// A checkpoint Markdown file (`checkpoints/<n>-<title>.md`): a secondary `checkpoint:` row.
pub fn checkpoint_md(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let text = String::from_utf8_lossy(bytes);
    let stem = side.file_name.strip_suffix(".md").unwrap_or(side.file_name);
    let n: String = stem.chars().take_while(char::is_ascii_digit).collect();
    let title = text
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(str::to_string)
        .unwrap_or_else(|| {
            stem.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-')
                .to_string()
        });
    let body = text.trim().to_string();
    sink(
        Row::system(
            side.agent,
            texts::checkpoint(
                if n.is_empty() { "-".into() } else { n },
                &title,
                &[("content", body)],
            ),
        )
        .at(side.mtime)
        .session(side.session)
        .locator("whole file")
        .state(RecordState::Secondary),
    );
}

/// `plan.md`: a secondary `plan:` row.
pub fn plan_md(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    sink(
        Row::system(
            side.agent,
            format!("plan: {}", String::from_utf8_lossy(bytes).trim()),
        )
        .at(side.mtime)
        .session(side.session)
        .locator("whole file")
        .state(RecordState::Secondary),
    );
}

/// `command-history-state.json`: one secondary user row per command, no time; a
/// command that a primary log holds as a prompt takes that prompt's session and
/// time (so the scanner merges it).
pub fn command_history(
    bytes: &[u8],
    side: &Side<'_>,
    twins: &crate::twins::Twins,
    sink: &mut dyn FnMut(Row),
) {
    let list = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(m)) => m.get("commandHistory").and_then(Value::as_array).cloned(),
        Ok(Value::Array(a)) => Some(a),
        Ok(_) => None,
        Err(e) => {
            return sink(
                Row::system(
                    side.agent,
                    system::parser(crate::Error::NotObject {
                        what: side.file_name.to_string(),
                        offset: 0,
                        reason: e.to_string(),
                    }),
                )
                .locator("whole file"),
            );
        }
    };
    for (i, cmd) in list.unwrap_or_default().iter().enumerate() {
        let text = scalar(cmd);
        if text.is_empty() {
            continue;
        }
        let mut row = Row::new(side.agent, TurnType::User, text)
            .locator(format!("commandHistory[{i}]"))
            .state(RecordState::Secondary);
        if let Some((sid, at, full)) = twins.user_with_text(&row.text) {
            row.session_id.clone_from(sid);
            row.timestamp = *at;
            row.text.clone_from(full);
        }
        sink(row);
    }
}

/// `permissions-config.json`: one `permission setting:` row per saved approval.
///
/// Locations and approvals follow the file's order, and an approval of a kind the spec
/// does not name is printed as written (keys in the file's order), without its
/// secret-named keys.
pub fn permissions_config(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let m = match tree(bytes, side.file_name, side.agent) {
        Ok(m) => m,
        Err(r) => return sink(r),
    };
    let from = system::from(side.file_name, "file mtime");
    let Some(locations) = m.get("locations") else {
        return;
    };
    for (location, entry) in locations.members() {
        let approvals = entry
            .get("tool_approvals")
            .or_else(|| entry.get("toolApprovals"))
            .map(Node::items)
            .unwrap_or_default();
        for (i, a) in approvals.iter().enumerate() {
            let text = |k: &str| a.get(k).map(Node::text);
            let kind = text("kind").unwrap_or_default();
            let detail = match kind.as_str() {
                "commands" => a
                    .get("command_identifiers")
                    .or_else(|| a.get("commandIdentifiers"))
                    .map(|l| {
                        l.items()
                            .iter()
                            .map(Node::text)
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default(),
                "mcp" => {
                    let srv = text("serverName")
                        .or_else(|| text("server_name"))
                        .unwrap_or_default();
                    let tool = text("toolName")
                        .or_else(|| text("tool_name"))
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| "*".into());
                    format!("{srv}/{tool}")
                }
                "custom-tool" => text("toolName")
                    .or_else(|| text("tool_name"))
                    .unwrap_or_default(),
                "read" | "write" | "memory" => "true".into(),
                _ => a.compact(names_secret),
            };
            sink(
                Row::system(
                    side.agent,
                    system::permission_setting(
                        format!("tool_approvals.{kind}"),
                        format!("{detail} location={location}"),
                        &from,
                    ),
                )
                .at(side.mtime)
                .project(location)
                .locator(format!("locations.{location}.tool_approvals[{i}]")),
            );
        }
    }
}

/// `config.json`: only `trusted_folders` / `trustedFolders`, one row per folder.
pub fn config_json(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let m = match object(bytes, side.file_name, side.agent) {
        Ok(m) => m,
        Err(r) => return sink(r),
    };
    let from = system::from(side.file_name, "file mtime");
    for key in ["trusted_folders", "trustedFolders"] {
        for (i, f) in m
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let path = scalar(f);
            sink(
                Row::system(
                    side.agent,
                    system::permission_setting("trusted_folders", &path, &from),
                )
                .at(side.mtime)
                .project(path)
                .locator(format!("{key}[{i}]")),
            );
        }
    }
}

/// The leaves of a settings object in the file's order, each as its dotted key and its
/// text as written (a string without its quotes; an array is one leaf, printed without
/// the secret-named keys of its objects). The parser bounds the nesting (512 levels).
fn leaves(prefix: &str, v: &Node<'_>, out: &mut Vec<(String, String)>) {
    if v.is_object() {
        for (k, x) in v.members() {
            if names_secret(k) {
                continue;
            }
            leaves(&format!("{prefix}.{k}"), x, out);
        }
    } else {
        let text = v.compact(names_secret);
        // a string without its own two quotes only (one it ends with, escaped, stays)
        let text = match v.as_str() {
            Some(_) => text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .map_or_else(|| text.clone(), str::to_string),
            None => text,
        };
        out.push((prefix.to_string(), text));
    }
}

/// `settings.json` / `managed-settings.json`: each leaf under `permissions`, and `model`.
pub fn settings(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let m = match tree(bytes, side.file_name, side.agent) {
        Ok(m) => m,
        Err(r) => return sink(r),
    };
    let from = system::from(side.file_name, "file mtime");
    if let Some(p) = m.get("permissions") {
        let mut out = Vec::new();
        leaves("permissions", p, &mut out);
        for (k, v) in out {
            sink(
                Row::system(side.agent, system::permission_setting(&k, &v, &from))
                    .at(side.mtime)
                    .locator(k.clone()),
            );
        }
    }
    if let Some(model) = m.get("model").map(Node::text).filter(|x| !x.is_empty()) {
        sink(
            Row::system(
                side.agent,
                system::model_setting(format!("model={model}"), &from),
            )
            .at(side.mtime)
            .locator("model"),
        );
    }
}

/// A debug log (`debug-logs/<sessionId>/*.jsonl`): secondary user, assistant and
/// tool rows, `session start: parent=.. child=..` for child sessions.
///
/// Lines are read from `lines` until it ends or fails; a failure is returned, after the
/// rows of the lines before it.
pub fn debug_log(
    lines: &mut chat_rows::lines::LineReader<'_>,
    side: &Side<'_>,
    sink: &mut dyn FnMut(Row),
) -> std::io::Result<()> {
    while let Some(line) = lines.next_line() {
        let line = line?;
        let v: Value = match chat_rows::lines::decode_line(&line) {
            Ok(v) => v,
            Err(bad) => {
                sink(bad.row(side.agent, "").session(side.session));
                continue;
            }
        };
        let g = |k: &str| v.get(k).map(scalar).unwrap_or_default();
        let attrs = v.get("attrs").cloned().unwrap_or(Value::Null);
        let a = |k: &str| attrs.get(k).map(scalar).unwrap_or_default();
        let first = |ks: &[&str]| {
            ks.iter()
                .map(|k| a(k))
                .find(|x| !x.is_empty())
                .unwrap_or_default()
        };
        let at = v.get("ts").and_then(decode::time_of);
        let sid = if g("sid").is_empty() {
            side.session.to_string()
        } else {
            g("sid")
        };
        let base = |turn, text: String| {
            Row::new(side.agent, turn, text)
                .at(at)
                .session(sid.clone())
                .line(line.number)
                .locator(line.locator())
                .state(RecordState::Secondary)
        };
        let row = match g("type").as_str() {
            "user_message" => base(
                TurnType::User,
                first(&["content", "text", "message", "prompt"]),
            ),
            "agent_response" => {
                // the writer's `response` is the output messages as JSON (cut to 5,000
                // characters, so perhaps not JSON any more): their text parts, else as
                // written; its `reasoning` a thinking row (since 2026-12-05; before,
                // the JSON was the reply and the reasoning was read by nothing)
                let text = match first(&["content", "text"]) {
                    t if t.is_empty() => response_text(&a("response"))
                        .unwrap_or_else(|| first(&["response", "message"])),
                    t => t,
                };
                let reasoning = a("reasoning");
                if !reasoning.is_empty() {
                    sink(base(TurnType::Thinking, reasoning));
                }
                base(TurnType::Assistant, text)
            }
            "tool_call" => {
                let name = if g("name").is_empty() {
                    a("toolName")
                } else {
                    g("name")
                };
                let id = first(&["toolCallId", "callId"]);
                sink(
                    base(TurnType::ToolUse, first(&["arguments", "args", "input"]))
                        .tool(name.clone(), id.clone()),
                );
                // the writer's `result` and, for a failed call, `error` (the tool's
                // output: read by nothing before 2026-12-05)
                let error = a("error");
                if !error.is_empty() {
                    sink(
                        base(TurnType::System, format!("tool error: {error}"))
                            .tool(name.clone(), id.clone()),
                    );
                }
                let result = a("result");
                if result.is_empty() {
                    continue;
                }
                base(TurnType::ToolResult, result).tool(name, id)
            }
            "child_session_ref" => base(
                TurnType::System,
                system::session_start(&[
                    ("parent", &sid),
                    ("child", &first(&["childSessionId", "sessionId", "id"])),
                ]),
            ),
            other => base(
                TurnType::System,
                // as written (keys in the file's order); the decoded value only if
                // the line cannot be read that way
                texts::session_event(
                    other,
                    &chat_rows::json::compact_at(
                        line.bytes,
                        &[chat_rows::json::Step::Key("attrs")],
                    )
                    .unwrap_or_else(|| compact_json(&attrs.to_string())),
                ),
            ),
        };
        sink(row);
    }
    Ok(())
}

/// The text parts of a debug log's `agent_response` `response`, the output messages as
/// the writer puts them in its OTel span (`[{"role":"assistant","parts":[{"type":"text",
/// "content":"..."}]}]`), joined by a blank line; `None` when it is not that (cut short
/// by the writer's 5,000-character limit, or of another shape).
fn response_text(response: &str) -> Option<String> {
    let v: Value = serde_json::from_str(response).ok()?;
    let texts: Vec<&str> = v
        .as_array()?
        .iter()
        .filter_map(|m| m.get("parts")?.as_array())
        .flatten()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|p| p.get("content")?.as_str())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// A large tool result Copilot Chat wrote to disk instead of putting it in the prompt
/// (`chat-session-resources/<sessionId>/<toolCallId>/content.txt`, or `content.json`,
/// the result pretty-printed, when it was JSON; the writer's source, vscode-copilot-chat
/// `chatDiskSessionResources.ts` and the tool-result renderer: the model is told
/// `Large tool result (<n>KB) written to file. Use the read_file tool to access the
/// content at: <path>`, and the folder is deleted 8 hours after its last use). Often
/// the only whole copy of a terminal's output or a file read: a `tool_result` row with
/// the content (no time: the file says only when it was written, given on the next
/// row; the call id without its `__vscode-<n>`, as the transcripts name it), then
/// `spilled tool result: call=<folder> file=<name> bytes=<n>` at the file's
/// modification time. Neither is a copy to merge away.
pub fn spilled_tool_result(
    bytes: &[u8],
    call_dir: &str,
    project: &str,
    side: &Side<'_>,
    sink: &mut dyn FnMut(Row),
) {
    let call = crate::twins::strip_vscode_suffix(call_dir);
    sink(
        Row::new(
            side.agent,
            TurnType::ToolResult,
            String::from_utf8_lossy(bytes).into_owned(),
        )
        .tool("", call)
        .session(side.session)
        .project(project)
        .locator("whole file"),
    );
    let n = bytes.len().to_string();
    let fields = [("call", call_dir), ("file", side.file_name), ("bytes", &n)];
    sink(
        Row::system(
            side.agent,
            format!(
                "spilled tool result: {} (written by Copilot Chat for a result too large for the prompt; time: file mtime)",
                key_values(&fields)
            ),
        )
        .at(side.mtime)
        .tool("", call)
        .session(side.session)
        .project(project)
        .locator("whole file"),
    );
}

/// A memory note: `memory note: <path under memories/>: <content>`, no time.
pub fn memory(bytes: &[u8], rel: &str, side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    sink(
        Row::system(
            side.agent,
            texts::memory_note(rel, String::from_utf8_lossy(bytes).trim()),
        )
        .session(side.session)
        .locator("whole file")
        .state(RecordState::Secondary),
    );
}

/// A file the session kept under `files/` or `research/` (`rel`, its path from there):
/// one live `session file:` row at the file's mtime with its text, or its size when it
/// is not UTF-8 text (its bytes are never printed).
pub fn session_file(bytes: &[u8], rel: &str, side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    sink(
        Row::system(side.agent, texts::session_file(rel, bytes))
            .at(side.mtime)
            .session(side.session)
            .locator("whole file"),
    );
}

/// The legacy `history-session-state/<id>.json`: `chatMessages` as user and assistant
/// rows, `timeline` tool items as tool rows (shapes unverified).
pub fn legacy_session(bytes: &[u8], side: &Side<'_>, sink: &mut dyn FnMut(Row)) {
    let m = match object(bytes, side.file_name, side.agent) {
        Ok(m) => m,
        Err(r) => return sink(r.session(side.session)),
    };
    let sid = m
        .get("sessionId")
        .or_else(|| m.get("id"))
        .map(scalar)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| side.session.to_string());
    for (i, msg) in m
        .get("chatMessages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let role = msg.get("role").map(scalar).unwrap_or_default();
        let turn = match role.as_str() {
            "user" => TurnType::User,
            "assistant" => TurnType::Assistant,
            _ => TurnType::System,
        };
        let content = msg.get("content").map(scalar).unwrap_or_default();
        let text = if turn == TurnType::System {
            format!("system message: {role}: {content}")
        } else {
            content
        };
        sink(
            Row::new(side.agent, turn, text)
                .at(msg.get("timestamp").and_then(decode::time_of))
                .session(sid.clone())
                .locator(format!("chatMessages[{i}]")),
        );
    }
    for (i, item) in m
        .get("timeline")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let g = |k: &str| item.get(k).map(scalar).unwrap_or_default();
        let kind = g("type");
        let id = g("callId");
        let id = if id.is_empty() { g("toolCallId") } else { id };
        let at = item.get("timestamp").and_then(decode::time_of);
        let turn = if kind.contains("result") || kind.contains("complete") {
            TurnType::ToolResult
        } else if kind.contains("tool") {
            TurnType::ToolUse
        } else {
            TurnType::System
        };
        let text = if turn == TurnType::System {
            texts::session_event(&kind, &compact_json(&item.to_string()))
        } else {
            key_values(&[
                ("name", &g("name")),
                ("arguments", &g("arguments")),
                ("result", &g("result")),
            ])
        };
        sink(
            Row::new(side.agent, turn, text)
                .at(at)
                .session(sid.clone())
                .tool(g("name"), id)
                .locator(format!("timeline[{i}]")),
        );
    }
}
