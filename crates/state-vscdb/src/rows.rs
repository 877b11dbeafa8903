//! The VS Code rows of a state database, per the parser plan of `vscode.txt`.
//!
//! * **Standing grants**: one `permission setting:` row per entry of the five
//!   `chat/autoconfirm*` keys (object form and the older array form), then
//!   `chat.tools.global.autoApprove.optIn` and each folder of
//!   `chat.externalPath.workspaceAllowlist`, at the database's modification time.
//! * **GitHub account records**: `source host:` rows from `github-<login>-usages`,
//!   `github-<login>-mcpserver-usages` and the `github-enterprise-<label>-...` forms.
//! * **Copilot Chat's cloud agent** (the `GitHub.copilot-chat` item):
//!   `source host repository:` rows from `userSelectedRepositories`, and a
//!   `session synced:` plus a `session origin:` row per `ownedTasks` entry.
//! * **`chat.ChatSessionStore.index`**: one secondary `session index:` row per entry
//!   (title, times, folder): the only local record of external sessions' titles.
//! * **`interactive.sessions`**: the legacy sessions, through
//!   [`vscode_chat_log::rows_from_session`], the same mapping as the session files.
//! * **Values nested deeper than serde_json reads**: decoded with what begins deeper
//!   than 120 levels as `null` ([`crate::Item::json_capped`]), so the rest gives its
//!   rows, after one [`crate::too_deep_row`] saying where.
//! * **Deleted items**: the same rows from every deleted or older version of these keys
//!   (`record_state = deleted`, the locator saying where it was found), without those a
//!   live row already says; any other deleted key gives one `state item deleted:` row
//!   with its size (its value may be another extension's secrets, and the extension's
//!   own crate maps it).

use std::collections::HashSet;

use chat_rows::{RecordState, Row, Timestamp, system};
use serde_json::Value;

use crate::{Item, StateDb};

/// The five keys of the standing "always allow" grants, in the order rows are written.
pub const AUTOCONFIRM_KEYS: [&str; 5] = [
    "chat/autoconfirm",
    "chat/autoconfirm-post",
    "chat/servers/autoconfirm",
    "chat/servers/autoconfirm-post",
    "chat/autoconfirm-combination",
];

/// Global auto-approve opt-in.
pub const OPT_IN_KEY: &str = "chat.tools.global.autoApprove.optIn";
/// Folders outside the workspace the user allowed.
pub const ALLOWLIST_KEY: &str = "chat.externalPath.workspaceAllowlist";
/// The chat session index.
pub const INDEX_KEY: &str = "chat.ChatSessionStore.index";
/// The legacy sessions blob.
pub const LEGACY_KEY: &str = "interactive.sessions";
/// Copilot Chat's extension state.
pub const COPILOT_CHAT_KEY: &str = "GitHub.copilot-chat";

/// What the rows of one database need from outside it.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// `vscode` or the fork's id.
    pub agent: String,
    /// The `source_file` of every row.
    pub source_file: String,
    /// The database path from its `User` folder: `User/globalStorage/state.vscdb`.
    pub user_path: String,
    /// The workspace folder, for a workspace database (`workspace.json`'s `folder`).
    pub project_path: String,
    /// The `.code-workspace` file a workspace database's window had open
    /// (`workspace.json`'s `workspace`), named in the legacy sessions' start rows.
    pub workspace: String,
    /// The database file's modification time.
    pub mtime: Option<Timestamp>,
}

/// Every VS Code row of the database: problems, live rows, then deleted ones.
pub fn rows(db: &StateDb, ctx: &Context) -> Vec<Row> {
    let mut out = db.problem_rows(&ctx.agent, &ctx.source_file);
    // The grants first, in the plan's order, then everything else in table order.
    let mut items: Vec<&Item> = db.items().iter().collect();
    items.sort_by_key(|i| order(&i.key));
    let mut live = HashSet::new();
    for item in items {
        for r in item_rows(item, ctx) {
            live.insert(said(&item.key, &r));
            out.push(r);
        }
    }
    // Deleted and older versions: only what no live row already says, once. For the
    // session index, once per session (the index is rewritten on every message, so
    // its older versions differ only in times); what matters is a session that is no
    // longer listed.
    let mut seen = HashSet::new();
    let (deleted, cut) = db.deleted_and_cut();
    for item in deleted {
        let rows = if is_mapped(&item.key) {
            item_rows(&item, ctx)
        } else {
            vec![
                Row::system(
                    &ctx.agent,
                    format!(
                        "state item deleted: {} ({} bytes)",
                        item.key,
                        item.value.len()
                    ),
                )
                .file(&ctx.source_file)
                .project(&ctx.project_path)
                .locator(item.locator())
                .state(RecordState::Deleted),
            ]
        };
        for r in rows {
            let k = said(&item.key, &r);
            if !live.contains(&k) && seen.insert(k) {
                out.push(r);
            }
        }
    }
    // Deleted items whose value was cut (its overflow pages taken by later values): the
    // key and the size the record declared, never rows decoded from what survives.
    for (item, size) in cut {
        let Some(size) = size else {
            continue;
        };
        let r = Row::system(
            &ctx.agent,
            format!("state item deleted: {} ({size} bytes)", item.key),
        )
        .file(&ctx.source_file)
        .project(&ctx.project_path)
        .locator(item.locator())
        .state(RecordState::Deleted);
        if seen.insert(said(&item.key, &r)) {
            out.push(r);
        }
    }
    out
}

/// What a row says, for comparing a deleted version's rows with the live ones: the key,
/// session, turn type, text and place in its session (`$.requests[2].message` of a
/// legacy session's row: two turns of one session that say the same, `continue` twice,
/// are two rows, since 2026-12-05; before, the second was dropped as a repeat) (for the
/// session index: the key and session only).
fn said(key: &str, r: &Row) -> (String, String, chat_rows::TurnType, String, String) {
    if key == INDEX_KEY {
        return (
            key.to_string(),
            r.session_id.clone(),
            r.turn_type,
            String::new(),
            String::new(),
        );
    }
    // the path inside the session, the same in every version of the value (the
    // session's own index in the list may shift, its requests' do not)
    let within = r
        .source_locator
        .find(" $")
        .map(|i| r.source_locator[i..].to_string())
        .unwrap_or_default();
    (
        key.to_string(),
        r.session_id.clone(),
        r.turn_type,
        r.text.clone(),
        within,
    )
}

fn order(key: &str) -> usize {
    AUTOCONFIRM_KEYS
        .iter()
        .position(|k| *k == key)
        .or_else(|| {
            [OPT_IN_KEY, ALLOWLIST_KEY]
                .iter()
                .position(|k| *k == key)
                .map(|i| i + 5)
        })
        .unwrap_or(7)
}

fn is_mapped(key: &str) -> bool {
    AUTOCONFIRM_KEYS.contains(&key)
        || [OPT_IN_KEY, ALLOWLIST_KEY, INDEX_KEY, LEGACY_KEY].contains(&key)
        || key.eq_ignore_ascii_case(COPILOT_CHAT_KEY)
        || github_usage_key(key).is_some()
}

/// The rows of one item (live or deleted); empty for keys without rows.
pub fn item_rows(item: &Item, ctx: &Context) -> Vec<Row> {
    let key = item.key.as_str();
    let mut out = Vec::new();
    if !is_mapped(key) {
        return out;
    }
    let value = match item.json_capped() {
        Ok((v, cut)) => {
            // nested deeper than serde_json reads: the rest of the value gives its rows
            if let Some(cut) = cut {
                out.push(
                    crate::too_deep_row(&ctx.agent, &ctx.source_file, item, cut)
                        .project(&ctx.project_path),
                );
            }
            v
        }
        Err(e) => {
            out.push(
                crate::not_json_row(&ctx.agent, &ctx.source_file, item, &e)
                    .project(&ctx.project_path),
            );
            return out;
        }
    };
    let base = |text: String| {
        Row::system(&ctx.agent, text)
            .file(&ctx.source_file)
            .locator(item.locator())
            .state(item.state)
    };
    if AUTOCONFIRM_KEYS.contains(&key) {
        let from = system::from(&ctx.user_path, "file mtime");
        match &value {
            Value::Object(map) => {
                // in the file's order, each value as written: `{label, arguments}` stays
                // in that order (the decoded map would sort it); the map itself only
                // where the raw text does not read as one object (a repaired surrogate)
                let entries: Vec<(String, String)> =
                    match chat_rows::json::object_entries(&item.value) {
                        Some(raw) => raw
                            .into_iter()
                            .map(|(id, v)| {
                                let v = v.get();
                                let shown = match chat_rows::json::from_str::<String>(v) {
                                    Ok(s) => s,
                                    Err(_) => chat_rows::json::compact(v),
                                };
                                (id, shown)
                            })
                            .collect(),
                        None => map
                            .iter()
                            .map(|(id, v)| {
                                let shown = match v {
                                    Value::String(s) => s.clone(),
                                    other => other.to_string(),
                                };
                                (id.clone(), shown)
                            })
                            .collect(),
                    };
                for (id, shown) in entries {
                    out.push(grant(
                        base,
                        ctx,
                        system::permission_setting(format!("{key}.{id}"), shown, &from),
                    ));
                }
            }
            Value::Array(ids) => {
                for id in ids {
                    let id = match id {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    out.push(grant(
                        base,
                        ctx,
                        system::permission_setting(format!("{key}.{id}"), "true", &from),
                    ));
                }
            }
            _ => out.push(base(system::value_not_object_or_array(key)).project(&ctx.project_path)),
        }
    } else if key == OPT_IN_KEY {
        let from = system::from(&ctx.user_path, "file mtime");
        out.push(grant(
            base,
            ctx,
            system::permission_setting(key, value.to_string(), &from),
        ));
    } else if key == ALLOWLIST_KEY {
        let from = system::from(&ctx.user_path, "file mtime");
        match &value {
            Value::Array(list) => {
                for v in list {
                    let path = chat_rows::uri::value_to_path(v).unwrap_or_else(|| v.to_string());
                    out.push(grant(
                        base,
                        ctx,
                        system::permission_setting(key, path, &from),
                    ));
                }
            }
            _ => out.push(base(system::value_not_object_or_array(key)).project(&ctx.project_path)),
        }
    } else if let Some((host, mut login, mut mcp)) = github_usage_key(key) {
        // `-mcpserver-usages` names MCP servers' usages, unless its entries are
        // extensions' only: then the login itself ends in `-mcpserver` (since 2026-12-05)
        if mcp && extensions_only(&value) {
            login.push_str("-mcpserver");
            mcp = false;
        }
        out.extend(account_rows(&value, key, &host, &login, mcp, base));
    } else if key.eq_ignore_ascii_case(COPILOT_CHAT_KEY) {
        out.extend(copilot_chat_rows(&value, &item.key, base));
    } else if key == INDEX_KEY {
        out.extend(
            index_rows(&value, base)
                .into_iter()
                .map(|r| r.project_or(&ctx.project_path)),
        );
    } else if key == LEGACY_KEY {
        out.extend(legacy_rows(&value, item, ctx));
    }
    out
}

trait ProjectOr {
    fn project_or(self, p: &str) -> Row;
}

impl ProjectOr for Row {
    fn project_or(self, p: &str) -> Row {
        if self.project_path.is_empty() {
            self.project(p)
        } else {
            self
        }
    }
}

fn grant(base: impl Fn(String) -> Row, ctx: &Context, text: String) -> Row {
    base(text).at(ctx.mtime).project(&ctx.project_path)
}

/// `github-<login>-usages` → (`github.com`, login, false); `-mcpserver-usages` → true;
/// `github-enterprise-<login> - <host>-usages` → (host, login, ..). An Enterprise
/// account's label always names its host after ` - `: without one, `enterprise-<x>` is
/// a github.com login that starts so (since 2026-12-05; before, read as an Enterprise
/// account with no host and the login cut).
fn github_usage_key(key: &str) -> Option<(String, String, bool)> {
    let (rest, mcp) = if let Some(r) = key.strip_suffix("-mcpserver-usages") {
        (r, true)
    } else {
        (key.strip_suffix("-usages")?, false)
    };
    if let Some((login, host)) = rest
        .strip_prefix("github-enterprise-")
        .and_then(|label| label.split_once(" - "))
    {
        return Some((host.trim().to_string(), login.trim().to_string(), mcp));
    }
    let login = rest.strip_prefix("github-")?;
    if login.is_empty() {
        return None;
    }
    Some(("github.com".to_string(), login.to_string(), mcp))
}

/// True for a usages list whose entries name extensions and no MCP server.
fn extensions_only(value: &Value) -> bool {
    let list = value.as_array().map(Vec::as_slice).unwrap_or_default();
    !list.is_empty()
        && list
            .iter()
            .all(|u| u.get("extensionId").is_some() && u.get("mcpServerId").is_none())
}

fn str_of<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn account_rows(
    value: &Value,
    key: &str,
    host: &str,
    login: &str,
    mcp: bool,
    base: impl Fn(String) -> Row,
) -> Vec<Row> {
    let Some(list) = value.as_array() else {
        return vec![base(system::value_not_object_or_array(key))];
    };
    let from = system::from(format!("state.vscdb {key}"), "lastUsed");
    list.iter()
        .map(|u| {
            let scopes = match u.get("scopes").and_then(Value::as_array) {
                Some(s) => s
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(","),
                None => "-".to_string(),
            };
            let who = if mcp {
                format!("mcp_server={}", str_of(u, "mcpServerId").unwrap_or("-"))
            } else {
                format!("extension={}", str_of(u, "extensionId").unwrap_or("-"))
            };
            let when = u
                .get("lastUsed")
                .and_then(chat_rows::when::from_json_millis);
            base(system::source_host(
                format!("{host} account {login} {who} scopes={scopes}"),
                &from,
            ))
            .at(when)
        })
        .collect()
}

fn copilot_chat_rows(value: &Value, key: &str, base: impl Fn(String) -> Row) -> Vec<Row> {
    let mut out = Vec::new();
    if let Some(repos) = value
        .get("userSelectedRepositories")
        .and_then(Value::as_array)
    {
        let from = system::from(
            format!("state.vscdb {key} userSelectedRepositories"),
            "timestamp",
        );
        for r in repos {
            let Some(name) = str_of(r, "name") else {
                continue;
            };
            let when = r
                .get("timestamp")
                .and_then(chat_rows::when::from_json_millis);
            out.push(
                base(system::source_host_repository(
                    format!("{name} type=cloud agent selection"),
                    &from,
                ))
                .at(when),
            );
        }
    }
    let tasks_key = "github.copilot.cloudAgent.ownedTasks";
    if let Some(tasks) = value.get(tasks_key).and_then(Value::as_object) {
        let from = system::from(format!("state.vscdb {key} {tasks_key}"), "recordedAt");
        for (id, t) in tasks {
            let (when, app) = match t {
                Value::Number(_) => (chat_rows::when::from_json_millis(t), None),
                other => (
                    other
                        .get("recordedAt")
                        .and_then(chat_rows::when::from_json_millis),
                    str_of(other, "application"),
                ),
            };
            let session = format!("copilot-cloud-agent:/task/{id}");
            out.push(
                base(system::session_synced(
                    format!("cloud agent task {id} application={}", app.unwrap_or("-")),
                    &from,
                ))
                .at(when)
                .session(&session),
            );
            out.push(
                base(system::session_origin("remote GitHub cloud agent", &from))
                    .at(when)
                    .session(&session),
            );
        }
    }
    out
}

fn index_rows(value: &Value, base: impl Fn(String) -> Row) -> Vec<Row> {
    let Some(entries) = value.get("entries").and_then(Value::as_object) else {
        return vec![base(system::not_json_object(format!(
            "{INDEX_KEY} entries"
        )))];
    };
    let mut out = Vec::new();
    for (key, e) in entries {
        // an external session's entry is keyed by its resource URI
        // (`copilot-cloud-agent:/task/<id>`), which its other rows carry: its session
        // (since 2026-12-05; before, its `sessionId`, which no other row names), that
        // `sessionId` kept in the text
        let external = e.get("isExternal").and_then(Value::as_bool) == Some(true);
        let own = str_of(e, "sessionId");
        let id = if external {
            key.as_str()
        } else {
            own.unwrap_or(key)
        };
        let other_id = own.filter(|o| *o != id).unwrap_or("");
        let ms = |v: Option<&Value>| v.and_then(chat_rows::when::from_json_millis);
        let timing = e.get("timing");
        let created = ms(timing.and_then(|t| t.get("created")));
        let last = ms(e.get("lastMessageDate"));
        let started = ms(timing.and_then(|t| t.get("lastRequestStarted")));
        let ended = ms(timing.and_then(|t| t.get("lastRequestEnded")));
        let show = |t: Option<Timestamp>| t.map(|t| t.to_string()).unwrap_or_default();
        let flag = |k: &str| {
            if e.get(k).and_then(Value::as_bool) == Some(true) {
                "true"
            } else {
                ""
            }
        };
        let text = system::session_index(&[
            ("title", str_of(e, "title").unwrap_or("")),
            ("created", &show(created)),
            ("last_message", &show(last)),
            ("last_request_started", &show(started)),
            ("last_request_ended", &show(ended)),
            ("external", flag("isExternal")),
            ("empty", flag("isEmpty")),
            ("session_id", other_id),
        ]);
        let project = e
            .get("workingDirectory")
            .and_then(chat_rows::uri::value_to_path)
            .unwrap_or_default();
        out.push(
            base(text)
                .at(created.or(last))
                .session(id)
                .project(project)
                .secondary(true),
        );
    }
    out
}

fn legacy_rows(value: &Value, item: &Item, ctx: &Context) -> Vec<Row> {
    let Some(sessions) = value.as_array() else {
        return vec![
            Row::system(&ctx.agent, system::value_not_object_or_array(LEGACY_KEY))
                .file(&ctx.source_file)
                .locator(item.locator())
                .state(item.state),
        ];
    };
    let mut out = Vec::new();
    for (i, s) in sessions.iter().enumerate() {
        let mut sc = vscode_chat_log::SessionContext::new(&ctx.agent, &ctx.source_file);
        sc.project_path = ctx.project_path.clone();
        sc.workspace = ctx.workspace.clone();
        sc.locator = format!("{} [{i}]", item.locator());
        for r in vscode_chat_log::rows_from_session(s, &sc) {
            let r = if item.state == RecordState::Live {
                r
            } else {
                r.state(item.state)
            };
            out.push(r);
        }
    }
    out
}
