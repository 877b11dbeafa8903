//! Standing grants and state outside the transcripts: settings files, `~/.claude.json`,
//! MCP server files (`.mcp.json`, `managed-mcp.json`) and the live session register.
//!
//! A transcript shows the calls a user refused; what was allowed without a prompt is
//! in the settings (`permissions.allow`, `defaultMode`), and which folders were
//! trusted is in `~/.claude.json`. Those files carry no times of their own, so their
//! rows are placed at the file's modification time and say so (`file mtime`).
//!
//! Secrets stay out by construction: only the keys below are read. A settings file's
//! `env`, `apiKeyHelper` and `hooks`, and `.claude.json`'s `oauthAccount`, `userID`,
//! `primaryApiKey`, `customApiKeyResponses` and MCP servers' `env` and `headers` are
//! never looked at (MCP servers are named, nothing more). The same holds for
//! `<project>/.mcp.json` and a managed `managed-mcp.json`: only the keys of
//! `mcpServers` are read, never a server's `command`, `args`, `url`, `env` or `headers`.

use chat_rows::system::{self, key_values};
use chat_rows::{Row, RowSink, Timestamp, TurnType, when};
use serde_json::{Map, Value};
use session_tree::log::{json_type, scalar};

use super::AGENT;
use super::history::prompt_of;
use crate::locate::SettingsScope;

/// Decodes a whole-file JSON object, or gives the `parser:` row text.
fn object(bytes: &[u8], name: &str, invalid: bool) -> Result<Map<String, Value>, String> {
    match chat_rows::json::from_slice::<Value>(bytes) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(other) => Err(system::not_json_object_because(
            name,
            format!("found {}", json_type(&other)),
        )),
        Err(e) if invalid => Err(format!("parser: {name} is not valid JSON ({e})")),
        Err(e) => Err(system::not_json_object_because(name, e)),
    }
}

/// The project a project settings file belongs to: its display path without
/// `/.claude/<file>`.
fn project_of(display: &str) -> String {
    let mut p = chat_rows::evidence::plain_display(display);
    for _ in 0..2 {
        p = p.rfind(['/', '\\']).map_or("", |i| &p[..i]);
    }
    p.to_string()
}

/// The rows of a settings file (`settings.json`, `settings.local.json`, managed).
pub fn settings_rows(
    bytes: &[u8],
    scope: SettingsScope,
    name: &str,
    display: &str,
    mtime: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let project = match scope {
        SettingsScope::Project => project_of(display),
        SettingsScope::User | SettingsScope::Managed => String::new(),
    };
    let base = |text: String| {
        Row::system(AGENT, text)
            .at(mtime)
            .project(project.clone())
            .file(display)
            .locator("whole file")
    };
    let obj = match object(bytes, name, false) {
        Ok(o) => o,
        Err(text) => return sink.push(base(text).at(None)),
    };
    let from = system::from(display, "file mtime");
    if let Some(p) = obj.get("permissions").and_then(Value::as_object) {
        for key in ["allow", "deny", "ask"] {
            for rule in p.get(key).and_then(Value::as_array).into_iter().flatten() {
                let text =
                    system::permission_setting(format!("permissions.{key}"), scalar(rule), &from);
                sink.push(base(text));
            }
        }
        for key in [
            "defaultMode",
            "disableBypassPermissionsMode",
            "disableAutoMode",
        ] {
            if let Some(v) = p.get(key) {
                let text =
                    system::permission_setting(format!("permissions.{key}"), scalar(v), &from);
                sink.push(base(text));
            }
        }
        let dirs = p.get("additionalDirectories").and_then(Value::as_array);
        for dir in dirs.into_iter().flatten() {
            let text =
                system::permission_setting("permissions.additionalDirectories", scalar(dir), &from);
            sink.push(base(text));
        }
    }
    if let Some(m) = obj.get("model").and_then(Value::as_str) {
        sink.push(base(system::model_setting(format!("model={m}"), &from)));
    }
    if let Some(n) = obj.get("cleanupPeriodDays") {
        let text = format!("retention setting: cleanupPeriodDays={} {from}", scalar(n));
        sink.push(base(text));
    }
}

/// The names of an object's keys, sorted (a JSON object keeps its own order; a
/// sorted list keeps the rows stable).
fn names(v: Option<&Value>) -> Vec<&str> {
    let mut out: Vec<&str> = v
        .and_then(Value::as_object)
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    out.sort_unstable();
    out
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(scalar).collect())
        .unwrap_or_default()
}

/// The rows of `~/.claude.json`: folder trust and MCP state per project, MCP servers
/// by name, and the legacy per-project prompt history (secondary, without times).
pub fn global_state_rows(
    bytes: &[u8],
    display: &str,
    mtime: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    state_rows(bytes, ".claude.json", display, mtime, false, sink)
}

/// The rows of a copy of `~/.claude.json` Claude Code keeps (`.claude.json.backup`,
/// `backups/.claude.json.backup.<ts>`, `backups/.claude.json.corrupted.<ts>`, named
/// `name`): [`global_state_rows`]' rows and texts at the copy's mtime, every one
/// secondary, so that what only the copy holds (a trust grant since revoked, a prompt
/// of the legacy history) is kept and the rest merges with the live file's rows when
/// the times allow. A `parser:` row names the copy.
pub fn global_state_copy_rows(
    bytes: &[u8],
    name: &str,
    display: &str,
    mtime: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    state_rows(bytes, name, display, mtime, true, sink)
}

fn state_rows(
    bytes: &[u8],
    name: &str,
    display: &str,
    mtime: Option<Timestamp>,
    secondary: bool,
    sink: &mut dyn RowSink,
) {
    let row = |text: String, project: &str| {
        Row::system(AGENT, text)
            .at(mtime)
            .project(project)
            .file(display)
            .locator("whole file")
            .secondary(secondary)
    };
    let obj = match object(bytes, name, true) {
        Ok(o) => o,
        Err(text) => return sink.push(row(text, "").at(None)),
    };
    let from = system::from(".claude.json", "file mtime");
    for name in names(obj.get("mcpServers")) {
        let text = format!("mcp server configured: {name} scope=user {from}");
        sink.push(row(text, ""));
    }
    let Some(projects) = obj.get("projects").and_then(Value::as_object) else {
        return;
    };
    for (p, v) in projects {
        let at = key_values(&[("location", p)]);
        let setting = |key: &str, value: &str| {
            system::permission_setting(key, format!("{value} {at}"), &from)
        };
        for key in ["hasTrustDialogAccepted", "hasTrustDialogHooksAccepted"] {
            if let Some(b) = v.get(key) {
                sink.push(row(setting(key, &scalar(b)), p));
            }
        }
        for key in [
            "allowedTools",
            "enabledMcpjsonServers",
            "disabledMcpjsonServers",
        ] {
            for item in strings(v.get(key)) {
                sink.push(row(setting(key, &item), p));
            }
        }
        for name in names(v.get("mcpServers")) {
            let text = format!("mcp server configured: {name} {at} {from}");
            sink.push(row(text, p));
        }
        let history = v.get("history").and_then(Value::as_array);
        for (i, h) in history.into_iter().flatten().enumerate() {
            let (display_text, pasted) = match h {
                Value::String(s) => (s.as_str(), None),
                other => (
                    other.get("display").and_then(Value::as_str).unwrap_or(""),
                    other.get("pastedContents").and_then(Value::as_object),
                ),
            };
            sink.push(
                Row::new(AGENT, TurnType::User, prompt_of(display_text, pasted))
                    .project(p)
                    .file(display)
                    .locator(format!("projects[{}].history[{i}]", quote_key(p)))
                    .secondary(true),
            );
        }
    }
}

fn quote_key(k: &str) -> String {
    serde_json::to_string(k).unwrap_or_default()
}

/// The rows of an MCP server file: `<project>/.mcp.json` (scope
/// [`SettingsScope::Project`], `project_path` = the folder holding it, `(from .mcp.json,
/// file mtime)`) or a managed `managed-mcp.json` ([`SettingsScope::Managed`], no project,
/// `(from <display>, file mtime)`). One `mcp server configured: <name> (from …)` row per
/// key of `mcpServers`, sorted; nothing of a server's value is read (its `command`,
/// `args`, `url`, `env` and `headers` can hold secrets). No `mcpServers` (or `null`, or
/// an empty object): no row; a `mcpServers` that is not an object: one `parser:` row.
pub fn mcp_rows(
    bytes: &[u8],
    scope: SettingsScope,
    name: &str,
    display: &str,
    mtime: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let (project, source) = match scope {
        SettingsScope::Project => {
            let display = chat_rows::evidence::plain_display(display);
            let folder = display.rfind(['/', '\\']).map_or("", |i| &display[..i]);
            (folder, name)
        }
        SettingsScope::User | SettingsScope::Managed => ("", display),
    };
    let row = |text: String| {
        Row::system(AGENT, text)
            .at(mtime)
            .project(project)
            .file(display)
            .locator("whole file")
    };
    let obj = match object(bytes, name, false) {
        Ok(o) => o,
        Err(text) => return sink.push(row(text).at(None)),
    };
    let from = system::from(source, "file mtime");
    match obj.get("mcpServers") {
        None | Some(Value::Null) => {}
        Some(Value::Object(_)) => {
            for server in names(obj.get("mcpServers")) {
                sink.push(row(format!("mcp server configured: {server} {from}")));
            }
        }
        Some(other) => sink.push(
            row(system::not_json_object_because(
                format!("{name} mcpServers"),
                format!("found {}", json_type(other)),
            ))
            .at(None),
        ),
    }
}

/// The row of a live session register entry, `sessions/<pid>.json`.
pub fn register_rows(bytes: &[u8], name: &str, display: &str, sink: &mut dyn RowSink) {
    let obj = match object(bytes, name, false) {
        Ok(o) => o,
        Err(text) => {
            return sink.push(Row::system(AGENT, text).file(display).locator("whole file"));
        }
    };
    let s = |k: &str| obj.get(k).map(scalar).unwrap_or_default();
    let text = system::session_index(&[
        ("pid", &s("pid")),
        ("kind", &s("kind")),
        ("entrypoint", &s("entrypoint")),
        ("version", &s("version")),
        ("name", &s("name")),
        ("status", &s("status")),
    ]);
    sink.push(
        Row::system(AGENT, text)
            .at(obj.get("startedAt").and_then(when::from_json_millis))
            .session(s("sessionId"))
            .project(s("cwd"))
            .file(display)
            .locator("whole file")
            .secondary(true),
    );
}

/// A project memory note (`projects/<key>/memory/<name>.md`): `memory note: <key>/memory/<name>
/// (<n> bytes, file mtime): <text>` at the file's mtime, the text whole (`[not UTF-8 text]`
/// in place of one that is none, its bytes never printed). The key is lossy, so no
/// project is read from it.
pub fn memory_note_rows(
    bytes: &[u8],
    name: &str,
    display: &str,
    mtime: Option<Timestamp>,
    sink: &mut dyn RowSink,
) {
    let text = std::str::from_utf8(bytes).unwrap_or("[not UTF-8 text]");
    sink.push(
        Row::system(
            AGENT,
            format!(
                "memory note: {name} ({} bytes, file mtime): {text}",
                bytes.len()
            ),
        )
        .at(mtime)
        .file(display)
        .locator("whole file"),
    );
}

/// The fields of a `sessions-index.json` entry printed first, in this order, under
/// these names; any other field follows under its own name.
const INDEX_FIELDS: [(&str, &str); 9] = [
    ("title", "summary"),
    ("first_prompt", "firstPrompt"),
    ("messages", "messageCount"),
    ("created", "created"),
    ("modified", "modified"),
    ("sidechain", "isSidechain"),
    ("file_mtime", "fileMtime"),
    ("path", "fullPath"),
    ("project", "projectPath"),
];

/// `projects/<key>/sessions-index.json`, the index older versions keep of a project's
/// sessions (`{version, originalPath, entries: [{sessionId, fullPath, projectPath,
/// gitBranch, firstPrompt, summary, messageCount, isSidechain, created, modified,
/// fileMtime}]}`, peer): per entry, a secondary `session index: title=.. first_prompt=..
/// messages=.. created=.. modified=.. ...` row at `created`, its session `sessionId`, its
/// project `projectPath` (else the file's `originalPath`), its branch `gitBranch`,
/// located `entries[<i>]`; every other field of the entry after those, a secret-named one
/// withheld. An entry outlives its deleted transcript, with the session's first prompt.
pub fn sessions_index_rows(bytes: &[u8], name: &str, display: &str, sink: &mut dyn RowSink) {
    let obj = match object(bytes, name, false) {
        Ok(o) => o,
        Err(text) => {
            return sink.push(Row::system(AGENT, text).file(display).locator("whole file"));
        }
    };
    let original = obj.get("originalPath").map(scalar).unwrap_or_default();
    let Some(entries) = obj.get("entries").and_then(Value::as_array) else {
        let text = system::parser(format!("{name} has no entries list"));
        return sink.push(Row::system(AGENT, text).file(display).locator("whole file"));
    };
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("entries[{i}]");
        let Some(e) = entry.as_object() else {
            let text = system::parser(format!(
                "{name} {at} is not a JSON object (found {})",
                json_type(entry)
            ));
            sink.push(Row::system(AGENT, text).file(display).locator(at));
            continue;
        };
        let s = |k: &str| e.get(k).map(scalar).unwrap_or_default();
        let mut fields: Vec<(String, String)> = INDEX_FIELDS
            .iter()
            .map(|(shown, key)| (shown.to_string(), s(key)))
            .collect();
        let known = |k: &str| {
            k == "sessionId" || k == "gitBranch" || INDEX_FIELDS.iter().any(|(_, key)| *key == k)
        };
        for (k, v) in e.iter().filter(|(k, _)| !known(k)) {
            let value = if session_tree::secret::withholds(k) {
                session_tree::secret::WITHHELD.to_string()
            } else {
                scalar(&session_tree::secret::withhold(v))
            };
            fields.push((session_tree::secret::shown_key(k).to_string(), value));
        }
        let refs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let project = Some(s("projectPath"))
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| original.clone());
        sink.push(
            Row::system(AGENT, system::session_index(&refs))
                .at(e
                    .get("created")
                    .and_then(Value::as_str)
                    .and_then(|t| when::parse_iso8601(t, None)))
                .session(s("sessionId"))
                .project(project)
                .branch(s("gitBranch"))
                .file(display)
                .locator(at)
                .secondary(true),
        );
    }
}

/// A session's sidecar (`<sessionId>/remote-agents/<name>.meta.json`,
/// `mcp-tasks/<name>.meta.json`; shape unverified): `session sidecar: <folder>/<name>:
/// <key>=<value> ...` (every field, a secret-named one withheld), session the folder's,
/// no time.
pub fn sidecar_rows(
    bytes: &[u8],
    what: &str,
    session: &str,
    display: &str,
    sink: &mut dyn RowSink,
) {
    let text = match object(bytes, what, false) {
        Ok(o) => format!(
            "session sidecar: {what}: {}",
            session_tree::tree::flatten(&o)
        ),
        Err(text) => text,
    };
    sink.push(
        Row::system(AGENT, text)
            .session(session)
            .file(display)
            .locator("whole file"),
    );
}

/// Claude Desktop's register of a session it ran
/// (`claude-code-sessions/<uuid>/<uuid>/local_*.json`; shape unverified, a capture
/// shows `transcriptUnavailable: true` once the transcript is gone): one secondary
/// `desktop session: <key>=<value> ...` row of every field (a secret-named one
/// withheld), its session `sessionId` (else `cliSessionId`), its project `cwd`, no time.
pub fn desktop_register_rows(bytes: &[u8], name: &str, display: &str, sink: &mut dyn RowSink) {
    let row = match object(bytes, name, false) {
        Ok(o) => {
            let s = |k: &str| o.get(k).map(scalar).unwrap_or_default();
            let session = Some(s("sessionId"))
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| s("cliSessionId"));
            Row::system(
                AGENT,
                format!("desktop session: {}", session_tree::tree::flatten(&o)),
            )
            .session(session)
            .project(s("cwd"))
            .secondary(true)
        }
        Err(text) => Row::system(AGENT, text),
    };
    sink.push(row.file(display).locator("whole file"));
}
