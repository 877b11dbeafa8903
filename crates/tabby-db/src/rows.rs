//! Mapping Tabby's records to evidence rows.
//!
//! The row texts are the contract a responder greps, so each is built in one place
//! here. The shapes, per `tabby.txt`'s Parser plan:
//!
//! * a thread: `thread start | owner <email (name)>[ | ephemeral]` (system, at
//!   `threads.created_at`); for a shared thread `thread shared: visible to all users of
//!   this server (from db.sqlite, threads.updated_at <t> upper bound)` (`dev-db.sqlite`
//!   for a source build's database and its backups)
//!   (system, no time of its own); then one user or assistant row per message with the
//!   attachment summarised after a blank line; session = the thread id, project = the
//!   first `code[].git_url` of the message's attachment;
//! * a completion (session = its `completion_id`): `completion: user=...` (system),
//!   the prompt (user), one assistant row per choice; `view:`, `select:`,
//!   `dismiss:` (system); `chat_completion: user=...` (system);
//! * a page (session `page:<id>`): `page start | title ... | author ... | code_source ...`,
//!   the page content and each section in position order (assistant);
//! * `source host:` and `source host repository:` rows for integrations;
//! * `model configured:` rows for `config.toml`;
//! * `inline edit command history: <N> commands, newest first (...)` and one user row
//!   per remembered command (session `command-history:intellij:<IDE folder>` or
//!   `command-history:vscode:<product folder>`, so that no history row ever merges).
//!
//! The event's user is named by email whenever the account is known: in the database
//! by `user_id`, in the log by decoding the Hashids `user`. Both sources then give
//! identical texts, which is what lets the log's copies merge away.

use std::collections::{BTreeMap, HashMap};

use chat_rows::lines::BadLine;
use chat_rows::system::{self, key_values};
use chat_rows::when::{Timestamp, parse_sqlite};
use chat_rows::{Row, RowSink, TurnType};

use crate::AGENT;
use crate::decode::config::ConfiguredModel;
use crate::decode::db::{Integration, Place, RecordError, ServerDb, User};
use crate::decode::event::{Event, EventLog, Interaction, LogEntry};
use crate::decode::hashid::HashIds;
use crate::decode::history::Command;

/// Where rows come from: the `source_file`, and whether the file is a secondary source.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The `source_file` of every row.
    pub file: &'a str,
    /// True for backups, event logs and command histories.
    pub secondary: bool,
}

impl Source<'_> {
    fn row(&self, turn: TurnType, text: impl Into<String>) -> Row {
        Row::new(AGENT, turn, text)
            .file(self.file)
            .secondary(self.secondary)
    }

    fn placed(&self, turn: TurnType, text: impl Into<String>, place: &Place) -> Row {
        let row = self.row(turn, text).locator(place.locator());
        match place.state() {
            chat_rows::RecordState::Live => row,
            state => row.state(state).secondary(self.secondary),
        }
    }
}

/// How an event's user is printed: `user=<email>`, `user_id=<n>` when the account is
/// unknown, `user_hash=<id>` when a log's id does not decode, nothing when absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserRef {
    /// The account's email.
    Email(String),
    /// A row id with no users row to name it.
    Id(i64),
    /// A log `user` that is not a Tabby hash id.
    Hash(String),
    /// No user.
    None,
}

impl UserRef {
    /// From a row id and the users known.
    pub fn from_id(id: Option<i64>, users: &BTreeMap<i64, User>) -> UserRef {
        match id {
            Some(id) => match users.get(&id) {
                Some(u) => UserRef::Email(u.email.clone()),
                None => UserRef::Id(id),
            },
            None => UserRef::None,
        }
    }

    /// From an event log's `user` field.
    pub fn from_hash(hash: Option<&str>, users: &BTreeMap<i64, User>, ids: &HashIds) -> UserRef {
        match hash {
            None => UserRef::None,
            Some(h) => match ids.decode(h) {
                Some(id) => UserRef::from_id(Some(id), users),
                None => UserRef::Hash(h.to_string()),
            },
        }
    }

    fn field(&self) -> (&'static str, String) {
        match self {
            UserRef::Email(e) => ("user", e.clone()),
            UserRef::Id(i) => ("user_id", i.to_string()),
            UserRef::Hash(h) => ("user_hash", h.clone()),
            UserRef::None => ("user", String::new()),
        }
    }
}

fn owner_label(id: Option<i64>, users: &BTreeMap<i64, User>) -> String {
    match id {
        Some(id) => users
            .get(&id)
            .map(User::label)
            .unwrap_or_else(|| format!("user_id={id}")),
        None => "-".to_string(),
    }
}

/// Parses a stored `YYYY-MM-DD HH:MM:SS` (UTC); an unreadable non-empty value gives a
/// `parser:` row instead of a guessed time.
fn sqlite_time(
    raw: &Option<String>,
    what: &str,
    place: &Place,
    src: &Source<'_>,
    out: &mut Vec<Row>,
) -> Option<Timestamp> {
    let raw = raw.as_deref()?.trim();
    if raw.is_empty() {
        return None;
    }
    let t = parse_sqlite(raw);
    if t.is_none() {
        out.push(
            src.row(
                TurnType::System,
                system::parser(format!(
                    "{what} of {} is not a time: {}",
                    place.locator(),
                    system::quote(raw)
                )),
            )
            .locator(place.locator()),
        );
    }
    t
}

/// The rows of one event (from `user_events` or a log line), at `ts`.
pub fn event_rows(
    event: &Event,
    user: &UserRef,
    ts: Option<Timestamp>,
    src: &Source<'_>,
    place: RowPlace<'_>,
) -> Vec<Row> {
    let (ukey, uval) = user.field();
    let finish = |row: Row| place.apply(row.at(ts));
    let inter = |kind: &str, i: &Interaction| {
        let choice = i.choice_index.map(|c| c.to_string()).unwrap_or_default();
        let elapsed = i.elapsed.map(|c| c.to_string()).unwrap_or_default();
        let text = format!(
            "{kind}: {}",
            key_values(&[
                (ukey, &uval),
                ("choice_index", &choice),
                ("kind", i.kind.as_deref().unwrap_or("")),
                ("view_id", i.view_id.as_deref().unwrap_or("")),
                ("elapsed", &elapsed),
            ])
        );
        vec![finish(
            src.row(TurnType::System, text.trim_end())
                .session(&i.completion_id),
        )]
    };
    match event {
        Event::Completion(c) => {
            let project = c.git_url.clone().unwrap_or_default();
            let head = format!(
                "completion: {}",
                key_values(&[
                    (ukey, &uval),
                    ("language", c.language.as_deref().unwrap_or("")),
                    ("filepath", c.filepath.as_deref().unwrap_or("")),
                    ("user_agent", c.user_agent.as_deref().unwrap_or("")),
                ])
            );
            let mut rows = vec![
                finish(
                    src.row(TurnType::System, head.trim_end())
                        .session(&c.completion_id)
                        .project(&project),
                ),
                finish(
                    src.row(TurnType::User, &c.prompt)
                        .session(&c.completion_id)
                        .project(&project),
                ),
            ];
            for (idx, text) in &c.choices {
                let row = src
                    .row(TurnType::Assistant, text)
                    .session(&c.completion_id)
                    .project(&project);
                let mut row = finish(row);
                row.source_locator = format!("{} choice {idx}", row.source_locator);
                rows.push(row);
            }
            rows
        }
        Event::View(i) => inter("view", i),
        Event::Select(i) => inter("select", i),
        Event::Dismiss(i) => inter("dismiss", i),
        Event::ChatCompletion => {
            let text = format!("chat_completion: {}", key_values(&[(ukey, &uval)]));
            vec![finish(src.row(TurnType::System, text.trim_end()))]
        }
        Event::Other { kind, value } => {
            let fields = value.to_string();
            let text = format!(
                "{kind}: {}",
                key_values(&[(ukey, &uval), ("fields", &fields)])
            );
            vec![finish(src.row(TurnType::System, system::quote(&text)))]
        }
    }
}

/// Where an event's rows point: a database place, or a log line.
#[derive(Clone, Copy, Debug)]
pub enum RowPlace<'a> {
    /// A database record.
    Db(&'a Place),
    /// A log line: number and byte offset.
    Line(u64, u64),
}

impl RowPlace<'_> {
    fn apply(&self, row: Row) -> Row {
        match self {
            RowPlace::Db(p) => {
                let secondary = row.secondary;
                let row = row.locator(p.locator());
                match p.state() {
                    chat_rows::RecordState::Live => row,
                    state => row.state(state).secondary(secondary),
                }
            }
            RowPlace::Line(n, off) => row.line(*n).locator(format!("byte {off}")),
        }
    }
}

fn errors_rows(errors: &[RecordError], src: &Source<'_>) -> Vec<Row> {
    errors
        .iter()
        .map(|e| {
            src.row(TurnType::System, system::parser(&e.message))
                .locator(e.location.clone())
        })
        .collect()
}

/// Every row of a database file (live or backup). The backup's leading row is the
/// caller's (see [`backup_row`]).
pub fn database_rows(db: &ServerDb, src: &Source<'_>) -> Vec<Row> {
    let mut out = errors_rows(&db.errors, src);
    // Threads and their messages, thread by thread.
    let mut by_thread: BTreeMap<Option<i64>, Vec<&crate::decode::db::Message>> = BTreeMap::new();
    for m in &db.messages {
        by_thread.entry(m.thread_id).or_default().push(m);
    }
    for list in by_thread.values_mut() {
        list.sort_by_key(|m| (m.id, !m.place.is_live()));
    }
    let mut threads: Vec<_> = db.threads.iter().collect();
    threads.sort_by_key(|t| (t.id, !t.place.is_live()));
    let mut emitted_threads = std::collections::BTreeSet::new();
    for t in threads {
        let mut text = format!("thread start | owner {}", owner_label(t.user_id, &db.users));
        // The share is carried by omission (tabby.txt: the row "says ephemeral only for
        // an unshared thread"); the `thread shared:` row below makes it explicit.
        if t.is_ephemeral == Some(true) {
            text.push_str(" | ephemeral");
        }
        let ts = sqlite_time(&t.created_at, "created_at", &t.place, src, &mut out);
        let session = if t.id >= 0 {
            t.id.to_string()
        } else {
            String::new()
        };
        out.push(
            src.placed(TurnType::System, text, &t.place)
                .at(ts)
                .session(&session),
        );
        // The share has no time of its own: `updated_at` is set by the share and by
        // later rewrites of `relevant_questions`, so it is an upper bound, in the text.
        if t.is_ephemeral == Some(false) {
            let bound = t
                .updated_at
                .as_deref()
                .filter(|u| !u.is_empty())
                .unwrap_or("-");
            // The live database's name, also for a backup's copy, so the two pair.
            let name = src.file.rsplit(['/', '\\']).next().unwrap_or(src.file);
            let database = if name.starts_with("dev-db") {
                "dev-db.sqlite"
            } else {
                "db.sqlite"
            };
            let text = format!(
                "thread shared: visible to all users of this server (from {database}, threads.updated_at {bound} upper bound)"
            );
            out.push(
                src.placed(TurnType::System, text, &t.place)
                    .session(&session),
            );
        }
        if emitted_threads.insert(t.id) {
            if let Some(ms) = by_thread.remove(&Some(t.id)) {
                message_rows(&ms, src, &mut out);
            }
        }
    }
    for ms in by_thread.values() {
        message_rows(ms, src, &mut out);
    }
    // Events and completions.
    for e in &db.events {
        let ts = sqlite_time(&e.created_at, "created_at", &e.place, src, &mut out);
        let user = UserRef::from_id(e.user_id, &db.users);
        match chat_rows::json::from_str::<serde_json::Value>(&e.payload)
            .map_err(|err| err.to_string())
            .and_then(|v| Event::from_value(&v))
        {
            Ok(ev) => out.extend(event_rows(&ev, &user, ts, src, RowPlace::Db(&e.place))),
            Err(reason) => {
                out.push(
                    src.placed(
                        TurnType::System,
                        system::parser(format!(
                            "payload of {} is not a Tabby event ({reason}): {}",
                            e.place.locator(),
                            system::quote(&e.payload)
                        )),
                        &e.place,
                    )
                    .at(ts),
                );
            }
        }
    }
    for c in &db.completions {
        let ts = sqlite_time(&c.created_at, "created_at", &c.place, src, &mut out);
        let (k, v) = UserRef::from_id(c.user_id, &db.users).field();
        let (views, selects, dismisses) = (
            c.counts.0.to_string(),
            c.counts.1.to_string(),
            c.counts.2.to_string(),
        );
        let text = format!(
            "completion counters: {}",
            key_values(&[
                (k, &v),
                ("language", c.language.as_deref().unwrap_or("")),
                ("views", &views),
                ("selects", &selects),
                ("dismisses", &dismisses),
            ])
        );
        out.push(
            src.placed(TurnType::System, text, &c.place)
                .at(ts)
                .session(&c.completion_id),
        );
    }
    page_rows(db, src, &mut out);
    source_host_rows(db, src, &mut out);
    drop_recovered_repeats(out)
}

/// Drops recovered rows (deleted or older versions) that say exactly what a live row,
/// or an earlier recovered one, says: the same session, turn, text and time. An older
/// page version holds many unchanged rows beside the one that changed.
fn drop_recovered_repeats(rows: Vec<Row>) -> Vec<Row> {
    use chat_rows::RecordState::{Deleted, Recovered};
    type Key = (String, TurnType, String, Option<i64>);
    let key = |r: &Row| -> Key {
        (
            r.session_id.clone(),
            r.turn_type,
            r.text.clone(),
            r.timestamp.map(|t| t.unix_micros()),
        )
    };
    let mut seen: std::collections::HashSet<Key> = rows
        .iter()
        .filter(|r| !matches!(r.record_state, Deleted | Recovered))
        .map(key)
        .collect();
    rows.into_iter()
        .filter(|r| {
            !matches!(r.record_state, Deleted | Recovered) || r.is_parser() || seen.insert(key(r))
        })
        .collect()
}

fn message_rows(ms: &[&crate::decode::db::Message], src: &Source<'_>, out: &mut Vec<Row>) {
    for m in ms {
        let ts = sqlite_time(&m.created_at, "created_at", &m.place, src, out);
        let (turn, body) = match m.role.as_str() {
            "user" => (TurnType::User, m.content.clone()),
            "assistant" => (TurnType::Assistant, m.content.clone()),
            other => (
                TurnType::System,
                format!("message role {other}: {}", m.content),
            ),
        };
        let text = m.attachment.append_to(&body);
        let session = m.thread_id.map(|t| t.to_string()).unwrap_or_default();
        let project = m.attachment.git_url().unwrap_or("").to_string();
        out.push(
            src.placed(turn, text, &m.place)
                .at(ts)
                .session(session)
                .project(project),
        );
    }
}

fn page_rows(db: &ServerDb, src: &Source<'_>, out: &mut Vec<Row>) {
    let mut sections: BTreeMap<Option<i64>, Vec<&crate::decode::db::PageSection>> = BTreeMap::new();
    for s in &db.sections {
        sections.entry(s.page_id).or_default().push(s);
    }
    for list in sections.values_mut() {
        list.sort_by_key(|s| (s.position, s.id));
    }
    let project_of = |list: Option<&Vec<&crate::decode::db::PageSection>>| -> String {
        list.into_iter()
            .flatten()
            .find_map(|s| s.attachment.git_url())
            .unwrap_or("")
            .to_string()
    };
    for p in &db.pages {
        let session = format!("page:{}", p.id);
        let project = project_of(sections.get(&Some(p.id)));
        let ts = sqlite_time(&p.created_at, "created_at", &p.place, src, out);
        let text = system::page_start(
            p.title.as_deref().unwrap_or("-"),
            &owner_label(p.author_id, &db.users),
            p.code_source_id
                .as_deref()
                .filter(|s| !s.is_empty())
                .unwrap_or("-"),
        );
        out.push(
            src.placed(TurnType::System, text, &p.place)
                .at(ts)
                .session(&session)
                .project(&project),
        );
        if let Some(content) = &p.content {
            out.push(
                src.placed(TurnType::Assistant, content.clone(), &p.place)
                    .at(ts)
                    .session(&session)
                    .project(&project),
            );
        }
        if let Some(list) = sections.remove(&Some(p.id)) {
            section_rows(&list, &session, &project, src, out);
        }
    }
    for (page_id, list) in sections {
        let session = page_id.map(|id| format!("page:{id}")).unwrap_or_default();
        let project = project_of(Some(&list));
        section_rows(&list, &session, &project, src, out);
    }
}

fn section_rows(
    list: &[&crate::decode::db::PageSection],
    session: &str,
    project: &str,
    src: &Source<'_>,
    out: &mut Vec<Row>,
) {
    for s in list {
        let ts = sqlite_time(&s.created_at, "created_at", &s.place, src, out);
        let body = format!("{}\n\n{}", s.title, s.content.as_deref().unwrap_or(""));
        let text = s.attachment.append_to(body.trim_end());
        out.push(
            src.placed(TurnType::Assistant, text, &s.place)
                .at(ts)
                .session(session)
                .project(project),
        );
    }
}

/// The host an integration talks to: `github.com`, `gitlab.com`, or its `api_base`'s host.
pub fn integration_host(kind: &str, api_base: Option<&str>) -> String {
    match kind {
        "github" => "github.com".into(),
        "gitlab" => "gitlab.com".into(),
        _ => api_base
            .map(|b| {
                let rest = b.split_once("://").map_or(b, |(_, r)| r);
                rest.split(['/', '?', '#'])
                    .next()
                    .unwrap_or(rest)
                    .to_string()
            })
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "-".into()),
    }
}

fn source_host_rows(db: &ServerDb, src: &Source<'_>, out: &mut Vec<Row>) {
    for i in &db.integrations {
        let ts = sqlite_time(&i.created_at, "created_at", &i.place, src, out);
        let detail = format!(
            "{} integration {} kind={} api_base={}",
            integration_host(&i.kind, i.api_base.as_deref()),
            i.display_name,
            i.kind,
            i.api_base
                .as_deref()
                .filter(|s| !s.is_empty())
                .unwrap_or("-")
        );
        let text = system::source_host(
            detail,
            "(account not recorded; from integrations table, created_at)",
        );
        out.push(src.placed(TurnType::System, text, &i.place).at(ts));
    }
    // by id, the first of each (a lookup per repository, not a scan of every integration)
    let mut by_id: HashMap<i64, &Integration> = HashMap::new();
    for i in &db.integrations {
        by_id.entry(i.id).or_insert(i);
    }
    for r in &db.repositories {
        let ts = sqlite_time(&r.updated_at, "updated_at", &r.place, src, out);
        let integ = r.integration_id.and_then(|id| by_id.get(&id).copied());
        // `refs` (level 0050) is left out: a backup at an older level cannot have it, and
        // printing it would keep the backup's copy of every repository row apart.
        let detail = format!(
            "{} type={} name={} active={}",
            r.git_url,
            integ.map_or("-", |i| i.kind.as_str()),
            r.name,
            if r.active { "yes" } else { "no" }
        );
        let from = format!(
            "(integration {}; from provided_repositories table, updated_at)",
            integ.map_or("-", |i| i.display_name.as_str())
        );
        out.push(
            src.placed(
                TurnType::System,
                system::source_host_repository(detail, &from),
                &r.place,
            )
            .at(ts),
        );
    }
}

/// The leading row of a backup: `pre-migration backup: <file name> schema level <n>`.
pub fn backup_row(file_name: &str, db: &ServerDb, src: &Source<'_>) -> Row {
    let level = db
        .schema_level
        .map_or_else(|| "unknown".to_string(), |l| format!("{l:04}"));
    src.row(
        TurnType::System,
        format!("pre-migration backup: {file_name} schema level {level} (a copy of the live database taken before a migration)"),
    )
    .locator("whole file")
}

/// The rows of an event log: each entry's rows, and a `parser:` row per bad line.
pub fn log_rows(log: &EventLog, users: &BTreeMap<i64, User>, src: &Source<'_>) -> Vec<Row> {
    let ids = HashIds::new();
    let mut out = Vec::new();
    for e in &log.entries {
        entry_rows(e, users, &ids, src, &mut out);
    }
    out
}

/// The rows of one entry of an event log (or of its bad line), handed to `sink`:
/// [`log_rows`] a line at a time, for a log read a chunk at a time.
pub fn entry_rows(
    e: &Result<LogEntry, BadLine>,
    users: &BTreeMap<i64, User>,
    ids: &HashIds,
    src: &Source<'_>,
    sink: &mut dyn RowSink,
) {
    match e {
        Ok(entry) => {
            let user = UserRef::from_hash(entry.user.as_deref(), users, ids);
            for row in event_rows(
                &entry.event,
                &user,
                entry.ts,
                src,
                RowPlace::Line(entry.line, entry.offset),
            ) {
                sink.push(row);
            }
        }
        Err(bad) => sink.push(bad.row(AGENT, src.file).secondary(src.secondary)),
    }
}

/// `model configured:` rows, one per configured model, at the file's mtime.
pub fn config_rows(
    models: &[ConfiguredModel],
    mtime: Option<Timestamp>,
    file_name: &str,
    src: &Source<'_>,
) -> Vec<Row> {
    models
        .iter()
        .map(|m| {
            let mut detail = format!(
                "{} {} via {}",
                m.group,
                m.name.as_deref().unwrap_or("-"),
                m.backend
            );
            if let Some(k) = &m.kind {
                detail.push_str(&format!(" kind={k}"));
            }
            if let Some(e) = &m.endpoint {
                detail.push_str(&format!(" endpoint={e}"));
            }
            if !m.supported_models.is_empty() {
                detail.push_str(&format!(
                    " supported_models={}",
                    m.supported_models.join(",")
                ));
            }
            let from = format!(
                "(from {file_name} [model.{}.{}], file mtime)",
                m.group, m.backend
            );
            src.row(TurnType::System, system::model_configured(detail, &from))
                .at(mtime)
                .locator(format!("[model.{}.{}]", m.group, m.backend))
        })
        .collect()
}

/// The editor client whose inline-edit command history a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryClient {
    /// The IntelliJ plugin (`intellij-tabby-command-history.xml`).
    Intellij,
    /// The VS Code extension (`edit.recentlyCommand` of a `state.vscdb`).
    Vscode,
}

/// The session id of every row of one command history file: the client and the
/// installation that keeps it, `command-history:intellij:<IDE folder>` (the folder
/// above `options/`, e.g. `IntelliJIdea2024.2`) or `command-history:vscode:<product
/// folder>[/profiles/[builtin/]<id>]` (the folder above `User/`, e.g. `Code` or `VSCodium`;
/// `.vscode-server` for a server's `data/User`), or the file's path where neither is
/// found.
///
/// The plan gives these rows no session (they have neither a thread nor a time) and
/// says they "pair with nothing ... and are kept". Without a session and a time the
/// scanner would merge a command away against a thread prompt of the same text, and a
/// command (or a leading row) that two history files share would be written once; a
/// session of their own per installation keeps every row of every history (the user
/// is part of every merge key, so two accounts' histories never meet), while the rows
/// stay secondary as the plan's table says. The installation, not the path, names it,
/// so that the same evidence read under another mount point gives the same sessions.
pub fn history_session(client: HistoryClient, source_file: &str) -> String {
    let comps: Vec<&str> = source_file
        .split(['/', '\\'])
        .filter(|c| !c.is_empty())
        .collect();
    let place = match client {
        HistoryClient::Intellij => comps
            .iter()
            .rposition(|c| *c == "options")
            .and_then(|i| i.checked_sub(1))
            .map(|i| comps[i].to_string()),
        HistoryClient::Vscode => comps.iter().rposition(|c| *c == "User").and_then(|u| {
            let mut product = *comps.get(u.checked_sub(1)?)?;
            // <home>/.vscode-server/data/User
            if product == "data" {
                if let Some(server) = u.checked_sub(2).and_then(|i| comps.get(i)) {
                    product = server;
                }
            }
            let mut place = product.to_string();
            if comps.get(u + 1) == Some(&"profiles") {
                if let Some(id) = comps.get(u + 2) {
                    place.push_str("/profiles/");
                    place.push_str(id);
                    // User/profiles/builtin/<id>/globalStorage (the Agents window's)
                    if *id == "builtin"
                        && comps.get(u + 4) == Some(&"globalStorage")
                        && let Some(b) = comps.get(u + 3)
                    {
                        place.push('/');
                        place.push_str(b);
                    }
                }
            }
            Some(place)
        }),
    };
    let client = match client {
        HistoryClient::Intellij => "intellij",
        HistoryClient::Vscode => "vscode",
    };
    format!(
        "command-history:{client}:{}",
        place.unwrap_or_else(|| source_file.to_string())
    )
}

/// A command history: the leading row, then one user row per command, newest first,
/// all in the file's own session ([`history_session`]). `from` names the store
/// (`intellij-tabby-command-history.xml`, or
/// `state.vscdb TabbyML.vscode-tabby edit.recentlyCommand`).
pub fn history_rows(
    commands: &[Command],
    client: HistoryClient,
    from: &str,
    locator: &dyn Fn(&Command) -> String,
    src: &Source<'_>,
) -> Vec<Row> {
    let session = history_session(client, src.file);
    let mut out = vec![
        src.row(
            TurnType::System,
            system::command_history(commands.len(), from),
        )
        .session(session.clone()),
    ];
    for c in commands {
        let mut text = c.command.clone();
        if !c.context.is_empty() {
            text.push_str(&format!(" [context: {}]", c.context.join("; ")));
        }
        out.push(
            src.row(TurnType::User, text)
                .line(c.position)
                .locator(locator(c))
                .session(session.clone()),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_history_is_named_by_its_installation() {
        use HistoryClient::{Intellij, Vscode};
        let t = history_session;
        assert_eq!(
            t(
                Intellij,
                "/mnt/a/home/u/.config/JetBrains/PyCharm2024.1/options/intellij-tabby-command-history.xml"
            ),
            "command-history:intellij:PyCharm2024.1"
        );
        assert_eq!(
            t(
                Vscode,
                r"C:\Users\c\AppData\Roaming\Code\User\globalStorage\state.vscdb"
            ),
            "command-history:vscode:Code"
        );
        assert_eq!(
            t(
                Vscode,
                "h/home/u/.config/Cursor/User/profiles/5a1b/globalStorage/state.vscdb"
            ),
            "command-history:vscode:Cursor/profiles/5a1b"
        );
        assert_eq!(
            t(
                Vscode,
                "h/home/u/.config/Code/User/profiles/builtin/agents/globalStorage/state.vscdb"
            ),
            "command-history:vscode:Code/profiles/builtin/agents"
        );
        assert_eq!(
            t(
                Vscode,
                "h/home/u/.vscode-server/data/User/globalStorage/state.vscdb"
            ),
            "command-history:vscode:.vscode-server"
        );
        assert_eq!(
            t(Intellij, "loose/intellij-tabby-command-history.xml"),
            "command-history:intellij:loose/intellij-tabby-command-history.xml"
        );
    }

    use super::*;

    #[test]
    fn unknown_event_kinds_keep_their_fields() {
        let ev = Event::from_value(&serde_json::json!({"accept_all": {"completion_id": "c:  1"}}))
            .unwrap();
        let src = Source {
            file: "f",
            secondary: true,
        };
        let rows = event_rows(
            &ev,
            &UserRef::Hash("zz".into()),
            None,
            &src,
            RowPlace::Line(3, 40),
        );
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].text,
            "accept_all: user_hash=zz fields=\"{\\\"completion_id\\\":\\\"c:  1\\\"}\""
        );
        assert_eq!(
            (rows[0].source_line, rows[0].source_locator.as_str()),
            (Some(3), "byte 40")
        );
        let rows = event_rows(
            &Event::ChatCompletion,
            &UserRef::None,
            None,
            &src,
            RowPlace::Line(1, 0),
        );
        assert_eq!(rows[0].text, "chat_completion:");
    }

    #[test]
    fn integration_hosts() {
        assert_eq!(integration_host("github", None), "github.com");
        assert_eq!(
            integration_host("gitlab", Some("https://ignored")),
            "gitlab.com"
        );
        assert_eq!(
            integration_host("gitlab_self_hosted", Some("https://git.corp:8443/api/v4")),
            "git.corp:8443"
        );
        assert_eq!(integration_host("github_self_hosted", None), "-");
        assert_eq!(integration_host("github_self_hosted", Some("")), "-");
    }
}
