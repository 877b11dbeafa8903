//! Mapping Cody's records to rows, per the plan's column table.
//!
//! Every row of a chat carries the chat's time (its id, parsed as RFC 1123; a
//! JetBrains-migrated id is zone-less host-local time and keeps `timestamp_zone =
//! unknown` unless the responder gave the host's offset; a UUID id has no time), the
//! chat id as session (prefixed with the account key when the same id exists under two
//! accounts), and the common parent of the chat's context files as project.
//!
//! Rows of one chat, in order: `session start: account=<key> endpoint=<url> username=<name> [title=<title>]` (this
//! crate's addition, since the account key is attribution evidence that no column
//! holds), then per interaction: the user prompt (not for a human message that only
//! carries tool results), its `tool_result` parts, its `processes[]` (tool steps as
//! tool_use rows, confirmations as `permission decision:` rows), its error; then
//! `model:` when the assistant's model is first set or changes, the reply, its
//! `tool_call` parts as tool_use rows and its error. A reply that holds nothing but an
//! error (a rate limit, an expired token) is the assistant's turn all the same: one
//! assistant row whose text is the error.

use std::collections::{HashMap, HashSet};

use chat_rows::system::{self, ChangeTracker};
use chat_rows::{RecordState, Row, Timestamp, TurnType};
use time::UtcOffset;

use crate::decode::xml::{LegacyChat, LegacyHistory, LegacyMessage};
use crate::decode::{
    self, Chat, ChatError, ChatHistory, Interaction, Message, ModelPreferences, Part, Process,
    split_account_key,
};

/// The agent of every Cody row (even those read from an editor's `state.vscdb`).
pub const AGENT: &str = "cody";

/// Where rows come from: the file, the place inside it, and how to read time.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// `source_file` of every row.
    pub source_file: String,
    /// The place of the value inside the file (`table ItemTable rowid 3 key=sourcegraph.cody-ai`),
    /// empty for a file that is the value; byte offsets inside the value are appended.
    pub locator: String,
    /// `source_line` (1 for a file that holds one JSON value).
    pub line: Option<u64>,
    /// Live, deleted ...
    pub state: RecordState,
    /// The host's UTC offset, for zone-less times.
    pub host_offset: Option<UtcOffset>,
}

impl Origin {
    /// The locator of a place `offset` bytes into the value.
    pub fn at(&self, offset: usize) -> String {
        if self.locator.is_empty() {
            format!("byte {offset}")
        } else {
            format!("{} byte {offset}", self.locator)
        }
    }

    fn row(&self, turn: TurnType, text: impl Into<String>, offset: usize) -> Row {
        let mut r = Row::new(AGENT, turn, text)
            .file(self.source_file.clone())
            .locator(self.at(offset))
            .state(self.state);
        r.source_line = self.line;
        r
    }
}

/// The time of a chat: its id as RFC 1123, else as zone-less ISO 8601 (unknown zone
/// unless `host` is given), else the same for `lastInteractionTimestamp`; a UUID gives none.
pub fn chat_time(
    id: &str,
    last_interaction: Option<&str>,
    host: Option<UtcOffset>,
) -> Option<Timestamp> {
    let parse = |s: &str| {
        chat_rows::when::parse_rfc1123(s).or_else(|| chat_rows::when::parse_iso8601(s, host))
    };
    parse(id).or_else(|| last_interaction.and_then(parse))
}

/// The chat ids that occur under more than one account.
pub fn colliding_ids<'a>(chats: impl IntoIterator<Item = &'a Chat>) -> HashSet<String> {
    let mut accounts: HashMap<&str, HashSet<&str>> = HashMap::new();
    for c in chats {
        accounts
            .entry(c.id.as_str())
            .or_default()
            .insert(c.account.as_str());
    }
    accounts
        .into_iter()
        .filter(|(_, a)| a.len() > 1)
        .map(|(id, _)| id.to_string())
        .collect()
}

/// The session id of a chat: the chat id, or `<account key>/<chat id>` when the id collides.
pub fn session_of(chat: &Chat, colliding: &HashSet<String>) -> String {
    if colliding.contains(&chat.id) {
        format!("{}/{}", chat.account, chat.id)
    } else {
        chat.id.clone()
    }
}

/// The rows of a whole history value.
pub fn history_rows(history: &ChatHistory, origin: &Origin) -> Vec<Row> {
    let colliding = colliding_ids(&history.chats);
    let mut rows = Vec::new();
    for chat in &history.chats {
        rows.extend(chat_rows(
            chat,
            &session_of(chat, &colliding),
            origin,
            true,
            None,
        ));
    }
    if let Some(e) = &history.damage {
        rows.push(origin.row(
            TurnType::System,
            system::parser(format!(
                "{} is damaged; read {} chat(s) ({e})",
                decode::HISTORY_KEY,
                history.chats.len()
            )),
            damage_offset(e),
        ));
    }
    rows
}

fn damage_offset(e: &decode::Error) -> usize {
    match e {
        decode::Error::Cut { offset, .. }
        | decode::Error::Unexpected { offset, .. }
        | decode::Error::Json { offset, .. }
        | decode::Error::Interaction { offset, .. }
        | decode::Error::NotObject { offset, .. } => *offset,
        decode::Error::Xml { offset, .. }
        | decode::Error::XmlCut { offset, .. }
        | decode::Error::XmlNoRoot { offset, .. } => *offset as usize,
        decode::Error::Jsonc(_) | decode::Error::Io { .. } => 0,
    }
}

/// The rows of one chat. `header` adds the chat-level `session start:` row; with `only`,
/// just the interactions it accepts are mapped (used for the interactions an older
/// version of the value holds beyond the live chat).
pub fn chat_rows(
    chat: &Chat,
    session: &str,
    origin: &Origin,
    header: bool,
    only: Option<&dyn Fn(&Interaction) -> bool>,
) -> Vec<Row> {
    let ts = chat_time(
        &chat.id,
        chat.last_interaction.as_deref(),
        origin.host_offset,
    );
    let project = chat_rows::uri::common_parent(
        chat.interactions
            .iter()
            .flat_map(|i| i.human.iter().chain(i.assistant.iter()))
            .flat_map(|m| m.context_paths.iter().map(String::as_str)),
    );
    let tool_names: HashMap<&str, &str> = chat
        .interactions
        .iter()
        .flat_map(|i| i.assistant.iter().chain(i.human.iter()))
        .flat_map(|m| m.content.iter())
        .filter_map(|p| match p {
            Part::ToolCall { id, name, .. } => Some((id.as_str(), name.as_str())),
            _ => None,
        })
        .collect();
    let mut rows = Vec::new();
    let mut push = |r: Row| rows.push(r.at(ts).session(session).project(project.clone()));

    if header {
        let (endpoint, username) = split_account_key(&chat.account);
        let title = chat.title.as_deref().unwrap_or("");
        push(origin.row(
            TurnType::System,
            system::session_start(&[
                ("account", &chat.account),
                ("endpoint", endpoint),
                ("username", username),
                ("title", title),
            ]),
            chat.offset,
        ));
    }
    // the damage rows: one per interaction that did not decode, in place among the
    // interactions read (the reading goes on past an interaction damaged only inside
    // its strings); any other damage stopped the reading and comes last
    let damage_row = |d: &decode::ChatDamage| {
        origin.row(
            TurnType::System,
            system::unparseable_record(chat.number, &d.error, &d.record),
            damage_offset(&d.error),
        )
    };
    let mut in_place = chat
        .damage
        .iter()
        .chain(&chat.more_damage)
        .filter(|d| matches!(d.error, decode::Error::Interaction { .. }))
        .peekable();
    let mut models: ChangeTracker<String> = ChangeTracker::model();
    for it in &chat.interactions {
        while let Some(d) = in_place.next_if(|d| damage_offset(&d.error) < it.offset) {
            push(damage_row(d));
        }
        let model = it
            .assistant
            .as_ref()
            .and_then(|a| a.model.clone())
            .or_else(|| it.human.as_ref().and_then(|h| h.model.clone()))
            .unwrap_or_default();
        // the tracker sees every interaction, so a change is reported against the
        // model before it even when only some interactions are mapped
        let model_row = it
            .assistant
            .as_ref()
            .and_then(|a| a.model.clone())
            .and_then(|m| models.observe(m));
        if only.is_some_and(|f| !f(it)) {
            continue;
        }
        let calls_here: HashSet<&str> = it
            .assistant
            .iter()
            .flat_map(|a| a.content.iter())
            .filter_map(|p| match p {
                Part::ToolCall { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let at = it.offset;
        if let Some(h) = &it.human {
            let has_results = h
                .content
                .iter()
                .any(|p| matches!(p, Part::ToolResult { .. }));
            let text = h.display_text().unwrap_or_default();
            if !text.is_empty() || !has_results {
                push(
                    origin
                        .row(speaker_turn(h, TurnType::User), text, at)
                        .model(model.clone()),
                );
            }
            for p in &h.content {
                if let Part::ToolResult { id, content } = p {
                    let name = tool_names.get(id.as_str()).copied().unwrap_or("");
                    push(
                        origin
                            .row(TurnType::ToolResult, content.clone(), at)
                            .tool(name, id.clone())
                            .model(model.clone()),
                    );
                }
            }
            // the steps are part of this interaction: the assistant's model, like the
            // prompt and the tool results above (the plan's model column)
            for r in process_rows(&h.processes, &calls_here, origin, at) {
                push(r.model(model.clone()));
            }
            if let Some(e) = &h.error {
                push(
                    origin
                        .row(TurnType::System, error_text(e), at)
                        .model(model.clone()),
                );
            }
        }
        if let Some(a) = &it.assistant {
            if let Some(text) = model_row {
                let m = a.model.clone().unwrap_or_default();
                push(origin.row(TurnType::System, text, at).model(m));
            }
            let text = a.display_text().unwrap_or_default();
            let has_calls = a.content.iter().any(|p| matches!(p, Part::ToolCall { .. }));
            // a reply that holds only an error (a rate limit, an expired token) is still
            // the assistant's turn: the plan maps the speaker to the turn type, so the
            // error is the assistant row's text, not a system row of its own
            let error_only = text.is_empty() && !has_calls && a.error.is_some();
            if error_only {
                let e = a.error.as_ref().map(error_text).unwrap_or_default();
                push(
                    origin
                        .row(speaker_turn(a, TurnType::Assistant), e, at)
                        .model(model.clone()),
                );
            } else if !text.is_empty() || !has_calls {
                push(
                    origin
                        .row(speaker_turn(a, TurnType::Assistant), text, at)
                        .model(model.clone()),
                );
            }
            for p in &a.content {
                if let Part::ToolCall {
                    id,
                    name,
                    arguments,
                } = p
                {
                    push(
                        origin
                            .row(TurnType::ToolUse, arguments.clone(), at)
                            .tool(name.clone(), id.clone())
                            .model(model.clone()),
                    );
                }
            }
            // a tool step of the reply that repeats one of its tool_call parts is that
            // call, already given above: the same rule as for the prompt's steps
            for r in process_rows(&a.processes, &calls_here, origin, at) {
                push(r.model(model.clone()));
            }
            if let Some(e) = a.error.as_ref().filter(|_| !error_only) {
                push(
                    origin
                        .row(TurnType::System, error_text(e), at)
                        .model(model.clone()),
                );
            }
        }
    }
    for d in in_place {
        push(damage_row(d));
    }
    for d in chat
        .damage
        .iter()
        .chain(&chat.more_damage)
        .filter(|d| !matches!(d.error, decode::Error::Interaction { .. }))
    {
        push(damage_row(d));
    }
    rows
}

/// A message's turn: its speaker when it says `system`, else the position's.
fn speaker_turn(m: &Message, default: TurnType) -> TurnType {
    match m.speaker.as_deref() {
        Some("system") => TurnType::System,
        _ => default,
    }
}

/// `error: <name>: <message>` (this crate's text for a message's ChatError: a system row
/// beside a message that has text or tool calls, since it is not text the model wrote;
/// the assistant row's own text when the reply holds only the error).
pub fn error_text(e: &ChatError) -> String {
    match (&e.name, &e.message) {
        (Some(n), Some(m)) => format!("error: {n}: {m}"),
        (None, Some(m)) => format!("error: {m}"),
        (Some(n), None) => format!("error: {n}"),
        (None, None) => "error:".to_string(),
    }
}

/// The text of a Deep Cody confirmation step, exactly per the plan.
pub fn confirmation_text(p: &Process) -> String {
    let state = p.state.as_deref().unwrap_or("");
    let message = p.error.as_ref().and_then(|e| e.message.as_deref());
    let decision = match (state, message) {
        ("error", Some("Command rejected")) => Some("rejected"),
        ("pending", _) => Some("approved or unanswered"),
        _ => None,
    };
    let mut s = match decision {
        Some(d) => format!("{d} confirmation state={state}"),
        None => format!("confirmation state={state}"),
    };
    if let Some(m) = message {
        s.push_str(&format!(" error={m}"));
    }
    if let Some(t) = &p.title {
        s.push_str(&format!(" title={t}"));
    }
    for extra in [&p.description, &p.content].into_iter().flatten() {
        s.push('\n');
        s.push_str(extra);
    }
    system::permission_decision(s)
}

fn process_rows(
    processes: &[Process],
    calls_here: &HashSet<&str>,
    origin: &Origin,
    at: usize,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for p in processes {
        match p.kind.as_deref() {
            Some("confirmation") => {
                rows.push(
                    origin
                        .row(TurnType::System, confirmation_text(p), at)
                        .tool("", p.id.clone()),
                );
            }
            // a tool step that repeats a tool_call part of the same reply is that call
            Some("tool") if !calls_here.contains(p.id.as_str()) => {
                let name = p.title.clone().unwrap_or_default();
                let text = p.content.clone().unwrap_or_default();
                rows.push(
                    origin
                        .row(TurnType::ToolUse, text, at)
                        .tool(name, p.id.clone()),
                );
            }
            _ => {}
        }
    }
    rows
}

/// The rows that older versions of the history value hold and the live one does not:
/// whole chats that were deleted, and interactions of live chats that were replaced
/// (an edited and resent prompt drops the interactions after it). Each row keeps the
/// place its version was found (`origin`, with [`RecordState::Deleted`]).
///
/// Interactions are compared by their prompt and reply text. Cody saves a chat when the
/// prompt is sent (reply `null`) and again when the reply is complete, so an older
/// interaction whose prompt matches a newer one and whose reply is empty or a prefix of
/// the newer reply is an earlier state of it, not a deleted one, and is not yielded.
/// A chat or interaction found in several older versions is yielded once, from the first
/// version that holds it; nothing the live value holds is repeated.
///
/// Damage inside an older version (a fragment cut by page reuse) costs only what it
/// covers: one `parser:` row per damaged version, in that version's state.
pub fn deleted_rows(live: Option<&ChatHistory>, older: &[(ChatHistory, Origin)]) -> Vec<Row> {
    type Key = (String, String);
    let texts = |it: &Interaction| {
        let t = |m: &Option<Message>| {
            m.as_ref()
                .and_then(Message::display_text)
                .unwrap_or_default()
        };
        (t(&it.human), t(&it.assistant))
    };
    // every (prompt, reply) the live value holds, per chat
    let mut live_pairs: HashMap<Key, HashSet<(String, String)>> = HashMap::new();
    for c in live.iter().flat_map(|h| h.chats.iter()) {
        live_pairs
            .entry((c.account.clone(), c.id.clone()))
            .or_default()
            .extend(c.interactions.iter().map(texts));
    }
    // every reply known per chat and prompt (live and older), sorted: the replies that
    // start with a reply `r` and are longer are the ones right after `r` in that order
    let mut known: HashMap<Key, HashMap<String, Vec<String>>> = HashMap::new();
    for c in live
        .iter()
        .flat_map(|h| h.chats.iter())
        .chain(older.iter().flat_map(|(h, _)| h.chats.iter()))
    {
        let prompts = known.entry((c.account.clone(), c.id.clone())).or_default();
        for (h, a) in c.interactions.iter().map(texts) {
            prompts.entry(h).or_default().push(a);
        }
    }
    for replies in known.values_mut().flat_map(|p| p.values_mut()) {
        replies.sort_unstable();
        replies.dedup();
    }
    // an older pair is wanted when the live chat lacks it and no known pair with the
    // same prompt carries a longer reply that starts with its reply
    let wanted = |key: &Key, pair: &(String, String)| {
        if live_pairs.get(key).is_some_and(|l| l.contains(pair)) {
            return false;
        }
        let longer = known
            .get(key)
            .and_then(|p| p.get(&pair.0))
            .and_then(|r| r.get(r.partition_point(|a| a.as_str() <= pair.1.as_str())));
        !longer.is_some_and(|a| a.starts_with(&pair.1))
    };
    let colliding = colliding_ids(
        live.into_iter()
            .flat_map(|h| h.chats.iter())
            .chain(older.iter().flat_map(|(h, _)| h.chats.iter())),
    );
    let mut emitted: HashMap<Key, HashSet<(String, String)>> = HashMap::new();
    let mut headers: HashSet<Key> = HashSet::new();
    let mut rows = Vec::new();
    for (h, origin) in older {
        for chat in &h.chats {
            let key = (chat.account.clone(), chat.id.clone());
            let done = emitted.get(&key);
            let fresh: HashSet<(String, String)> = chat
                .interactions
                .iter()
                .map(texts)
                .filter(|p| wanted(&key, p) && !done.is_some_and(|d| d.contains(p)))
                .collect();
            let header = !live_pairs.contains_key(&key) && !headers.contains(&key);
            if fresh.is_empty() {
                continue;
            }
            if header {
                headers.insert(key.clone());
            }
            let keep = |i: &Interaction| fresh.contains(&texts(i));
            rows.extend(
                chat_rows(
                    chat,
                    &session_of(chat, &colliding),
                    origin,
                    header,
                    Some(&keep),
                )
                .into_iter()
                .filter(|r| !r.is_parser()),
            );
            emitted.entry(key).or_default().extend(fresh);
        }
        let damaged = h.chats.iter().filter(|c| c.damage.is_some()).count();
        if let Some(e) = h.damage.as_ref().or_else(|| {
            h.chats
                .iter()
                .find_map(|c| c.damage.as_ref().map(|d| &d.error))
        }) {
            let text = system::parser(format!(
                "older {} is damaged; read {} chat(s), {damaged} of them partly ({e})",
                decode::HISTORY_KEY,
                h.chats.len()
            ));
            rows.push(origin.row(TurnType::System, text, damage_offset(e)));
        }
    }
    rows
}

/// The `model setting:` rows of the model preferences, the user's `selected` before
/// the server's `defaults`, at `time` (the file's modification time). `label` is the
/// file named in `(from <label>, file mtime)`.
pub fn model_preference_rows(
    prefs: &ModelPreferences,
    origin: &Origin,
    label: &str,
    time: Option<Timestamp>,
) -> Vec<Row> {
    let from = system::from(label, "file mtime");
    let mut rows = Vec::new();
    for ep in &prefs.endpoints {
        for (which, list) in [("selected", &ep.selected), ("defaults", &ep.defaults)] {
            for (usage, id) in list {
                let detail = format!("{which}.{usage}={id} endpoint={}", ep.endpoint);
                let mut r = Row::new(
                    AGENT,
                    TurnType::System,
                    system::model_setting(detail, &from),
                )
                .file(origin.source_file.clone())
                .locator(if origin.locator.is_empty() {
                    format!("endpoint {} {which}.{usage}", ep.endpoint)
                } else {
                    format!(
                        "{} endpoint {} {which}.{usage}",
                        origin.locator, ep.endpoint
                    )
                })
                .model(id.clone())
                .at(time)
                .state(origin.state);
                r.source_line = origin.line;
                rows.push(r);
            }
        }
    }
    rows
}

/// The rows of a `cody-model-preferences` file: its settings, or one
/// `parser: cody-model-preferences is not a JSON object` row.
pub fn model_preferences_file_rows(
    bytes: &[u8],
    origin: &Origin,
    label: &str,
    time: Option<Timestamp>,
) -> Vec<Row> {
    match ModelPreferences::from_bytes(bytes) {
        Ok(p) => model_preference_rows(&p, origin, label, time),
        Err(e) => {
            let text = match e {
                decode::Error::NotObject { .. } => {
                    system::not_json_object(decode::MODEL_PREFERENCES_KEY)
                }
                other => system::not_json_object_because(decode::MODEL_PREFERENCES_KEY, other),
            };
            vec![origin.row(TurnType::System, text, 0).at(time)]
        }
    }
}

/// The `permission setting:` rows of a `settings.json`, at `time` (its modification
/// time). A file that does not decode gives its `parser:` row only when its text names
/// a `cody.` key; the parser row never quotes the file, which may hold MCP credentials.
pub fn settings_rows(
    bytes: &[u8],
    origin: &Origin,
    label: &str,
    time: Option<Timestamp>,
) -> Vec<Row> {
    let from = system::from(label, "file mtime");
    let row = |text: String| {
        Row::new(AGENT, TurnType::System, text)
            .file(origin.source_file.clone())
            .at(time)
            .state(origin.state)
    };
    match decode::permission_settings(bytes) {
        Ok(settings) => settings
            .into_iter()
            .map(|s| {
                let mut r = row(system::permission_setting(&s.key, &s.value, &from))
                    .locator(format!("key {}", s.key));
                r.source_line = line_of_key(bytes, &s.top_key);
                r
            })
            .collect(),
        Err(e) => {
            if memchr::memmem::find(bytes, b"cody.").is_none() {
                return Vec::new();
            }
            let text = match e {
                decode::Error::NotObject { .. } => system::not_json_object("settings.json"),
                other => system::not_json_object_because("settings.json", other),
            };
            vec![row(text)]
        }
    }
}

/// The 1-based line on which `"<key>"` first appears.
fn line_of_key(bytes: &[u8], key: &str) -> Option<u64> {
    let needle = format!("\"{key}\"");
    let at = memchr::memmem::find(bytes, needle.as_bytes())?;
    Some(1 + memchr::memchr_iter(b'\n', &bytes[..at]).count() as u64)
}

/// Which messages of a legacy chat the migration (`ChatHistoryMigration`) copied into
/// the agent store, by index: it converts only a chat with an `updatedAt`, turns a
/// message without text or without a `HUMAN`/`ASSISTANT` speaker into null, cuts the
/// list into pairs by position and keeps a pair only when it is exactly a human then an
/// assistant message. Every other message (an unpaired trailing prompt, a reply after a
/// null, a message without a speaker) was skipped: the XML is its only record.
pub fn migrated_messages(c: &LegacyChat) -> Vec<bool> {
    let mut out = vec![false; c.messages.len()];
    if c.updated_at.is_none() {
        return out;
    }
    fn speaker(m: &LegacyMessage) -> Option<&str> {
        m.text.as_ref().and(m.speaker.as_deref())
    }
    for (i, pair) in c.messages.chunks(2).enumerate() {
        if let [h, a] = pair
            && speaker(h) == Some("HUMAN")
            && speaker(a) == Some("ASSISTANT")
        {
            out[2 * i] = true;
            out[2 * i + 1] = true;
        }
    }
    out
}

/// The rows of a legacy `cody_history.xml`, with `project` (the folder the file sits
/// in) as project path: per chat `chat:`, `model:` before the first assistant message,
/// and a user or assistant row per `HUMAN` or `ASSISTANT` message with text (a message
/// with text and any other speaker or none is a system row, see [`legacy_unspoken`];
/// one without text gives no row); then, if the file is cut or damaged,
/// `parser: cody_history.xml did not parse; read <n> chat(s) (<error>)`.
///
/// The messages of the migration's complete pairs ([`migrated_messages`]) are
/// secondary: the agent store holds them, and a merge drops them against its rows.
/// A message the migration skipped is a primary row (`secondary` false, live): all rows
/// of a chat share one time, so as a copy it would merge away against any earlier
/// message of the same text. The `chat:`, `model:` and `parser:` rows stay secondary.
pub fn legacy_rows(
    h: &LegacyHistory,
    source_file: &str,
    project: &str,
    host: Option<UtcOffset>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let row = |turn: TurnType, text: String, line: u64, offset: u64, secondary: bool| {
        Row::new(AGENT, turn, text)
            .file(source_file)
            .line(line)
            .locator(format!("byte {offset}"))
            .project(project)
            .secondary(secondary)
    };
    let base =
        |turn: TurnType, text: String, line: u64, offset: u64| row(turn, text, line, offset, true);
    for c in &h.chats {
        let session = c
            .updated_at
            .clone()
            .or_else(|| c.internal_id.clone())
            .unwrap_or_default();
        let ts = c
            .updated_at
            .as_deref()
            .and_then(|u| chat_rows::when::parse_iso8601(u, host));
        let text = system::legacy_chat(
            c.internal_id.as_deref().unwrap_or(""),
            c.account_id.as_deref().unwrap_or(""),
            c.messages.len(),
        );
        rows.push(
            base(TurnType::System, text, c.line, c.offset)
                .session(session.clone())
                .at(ts),
        );
        let mut model_done = false;
        let migrated = migrated_messages(c);
        for (m, &copied) in c.messages.iter().zip(&migrated) {
            // a message without text has nothing to show (the plan's rows are per
            // message "with text"; the `chat:` row's count still includes it)
            let Some(text) = m.text.as_deref().filter(|t| !t.is_empty()) else {
                continue;
            };
            let (turn, text) = match m.speaker.as_deref().filter(|s| !s.is_empty()) {
                Some("HUMAN") => (TurnType::User, text.to_string()),
                Some("ASSISTANT") => (TurnType::Assistant, text.to_string()),
                // the plugin writes no other speaker, and the migration drops such a
                // message: it is kept, as a system row that says what it is
                other => (TurnType::System, legacy_unspoken(other, text)),
            };
            if turn == TurnType::Assistant && !model_done {
                model_done = true;
                if let Some(model) = c.model() {
                    rows.push(
                        base(TurnType::System, system::model(model), m.line, m.offset)
                            .session(session.clone())
                            .at(ts)
                            .model(model),
                    );
                }
            }
            rows.push(
                row(turn, text, m.line, m.offset, copied)
                    .session(session.clone())
                    .at(ts)
                    .model(c.model().unwrap_or("")),
            );
        }
    }
    if let Some(e) = &h.damage {
        let (offset, line) = match e {
            decode::Error::Xml { offset, line, .. }
            | decode::Error::XmlCut { offset, line, .. }
            | decode::Error::XmlNoRoot { offset, line } => (*offset, *line),
            _ => (0, 1),
        };
        rows.push(base(
            TurnType::System,
            system::did_not_parse("cody_history.xml", h.chats.len(), e),
            line,
            offset,
        ));
    }
    rows
}

/// The system row of a legacy message with text but no `HUMAN` or `ASSISTANT` speaker:
/// `message without a speaker (legacy JetBrains history): <text>`, or
/// `message with speaker <speaker> (legacy JetBrains history): <text>`.
pub fn legacy_unspoken(speaker: Option<&str>, text: &str) -> String {
    match speaker {
        Some(s) => format!("message with speaker {s} (legacy JetBrains history): {text}"),
        None => format!("message without a speaker (legacy JetBrains history): {text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(state: Option<&str>, message: Option<&str>) -> Process {
        Process {
            kind: Some("confirmation".into()),
            id: "TOOLCLI-1".into(),
            title: Some("Terminal".into()),
            description: None,
            content: Some("ls -la".into()),
            state: state.map(str::to_string),
            error: message.map(|m| ChatError {
                name: Some("Error".into()),
                message: Some(m.into()),
            }),
        }
    }

    #[test]
    fn confirmation_decisions_exactly_per_plan() {
        assert_eq!(
            confirmation_text(&step(Some("error"), Some("Command rejected"))),
            "permission decision: rejected confirmation state=error error=Command rejected title=Terminal\nls -la"
        );
        assert_eq!(
            confirmation_text(&step(Some("pending"), None)),
            "permission decision: approved or unanswered confirmation state=pending title=Terminal\nls -la"
        );
        // any other state is printed as recorded, not interpreted
        assert_eq!(
            confirmation_text(&step(Some("success"), None)),
            "permission decision: confirmation state=success title=Terminal\nls -la"
        );
        assert_eq!(
            confirmation_text(&step(Some("error"), Some("spawn ENOENT"))),
            "permission decision: confirmation state=error error=spawn ENOENT title=Terminal\nls -la"
        );
        let mut p = step(None, None);
        p.title = None;
        p.description = Some("Cody wants to run".into());
        assert_eq!(
            confirmation_text(&p),
            "permission decision: confirmation state=\nCody wants to run\nls -la"
        );
    }

    #[test]
    fn chat_times() {
        let utc = chat_time("Fri, 03 Oct 2026 10:00:00 GMT", None, None).unwrap();
        assert_eq!(
            (utc.to_string(), utc.zone()),
            ("2026-10-03T10:00:00.000000Z".into(), chat_rows::Zone::Utc)
        );
        let local = chat_time("2024-01-31T01:06:18.524621", None, None).unwrap();
        assert_eq!(
            (local.to_string(), local.zone()),
            (
                "2024-01-31T01:06:18.524621".into(),
                chat_rows::Zone::Unknown
            )
        );
        let host = chat_rows::when::parse_offset("+01:00");
        let shifted = chat_time("2024-01-31T01:06:18.524621", None, host).unwrap();
        assert_eq!(shifted.to_string(), "2024-01-31T00:06:18.524621Z");
        assert_eq!(
            chat_time(
                "6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f",
                Some("6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f"),
                None
            ),
            None
        );
        assert_eq!(
            chat_time(
                "6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f",
                Some("Fri, 03 Oct 2026 10:00:00 GMT"),
                None
            ),
            Some(utc)
        );
    }

    /// `deleted_rows` as it was before the index: each older pair compared with every
    /// known pair of its chat, the emitted set cloned per chat record. The reference the
    /// index must answer as.
    fn deleted_rows_by_scan(
        live: Option<&ChatHistory>,
        older: &[(ChatHistory, Origin)],
    ) -> Vec<Row> {
        type Key = (String, String);
        let texts = |it: &Interaction| {
            let t = |m: &Option<Message>| {
                m.as_ref()
                    .and_then(Message::display_text)
                    .unwrap_or_default()
            };
            (t(&it.human), t(&it.assistant))
        };
        let mut live_pairs: HashMap<Key, HashSet<(String, String)>> = HashMap::new();
        for c in live.iter().flat_map(|h| h.chats.iter()) {
            live_pairs
                .entry((c.account.clone(), c.id.clone()))
                .or_default()
                .extend(c.interactions.iter().map(texts));
        }
        let mut all_pairs = live_pairs.clone();
        for c in older.iter().flat_map(|(h, _)| h.chats.iter()) {
            all_pairs
                .entry((c.account.clone(), c.id.clone()))
                .or_default()
                .extend(c.interactions.iter().map(texts));
        }
        let wanted = |key: &Key, pair: &(String, String)| {
            if live_pairs.get(key).is_some_and(|l| l.contains(pair)) {
                return false;
            }
            !all_pairs.get(key).is_some_and(|known| {
                known
                    .iter()
                    .any(|(h, a)| *h == pair.0 && a.len() > pair.1.len() && a.starts_with(&pair.1))
            })
        };
        let colliding = colliding_ids(
            live.into_iter()
                .flat_map(|h| h.chats.iter())
                .chain(older.iter().flat_map(|(h, _)| h.chats.iter())),
        );
        let mut emitted: HashMap<Key, HashSet<(String, String)>> = HashMap::new();
        let mut headers: HashSet<Key> = HashSet::new();
        let mut rows = Vec::new();
        for (h, origin) in older {
            for chat in &h.chats {
                let key = (chat.account.clone(), chat.id.clone());
                let done = emitted.get(&key).cloned().unwrap_or_default();
                let fresh: HashSet<(String, String)> = chat
                    .interactions
                    .iter()
                    .map(texts)
                    .filter(|p| wanted(&key, p) && !done.contains(p))
                    .collect();
                let header = !live_pairs.contains_key(&key) && !headers.contains(&key);
                if fresh.is_empty() {
                    continue;
                }
                if header {
                    headers.insert(key.clone());
                }
                let keep = |i: &Interaction| fresh.contains(&texts(i));
                rows.extend(
                    chat_rows(
                        chat,
                        &session_of(chat, &colliding),
                        origin,
                        header,
                        Some(&keep),
                    )
                    .into_iter()
                    .filter(|r| !r.is_parser()),
                );
                emitted.entry(key).or_default().extend(fresh);
            }
            let damaged = h.chats.iter().filter(|c| c.damage.is_some()).count();
            if let Some(e) = h.damage.as_ref().or_else(|| {
                h.chats
                    .iter()
                    .find_map(|c| c.damage.as_ref().map(|d| &d.error))
            }) {
                let text = system::parser(format!(
                    "older {} is damaged; read {} chat(s), {damaged} of them partly ({e})",
                    decode::HISTORY_KEY,
                    h.chats.len()
                ));
                rows.push(origin.row(TurnType::System, text, damage_offset(e)));
            }
        }
        rows
    }

    /// A generated history value: 1-3 chat records (ids from a small set, so some
    /// repeat under one JSON key, and two accounts, so some collide), each of 0-5
    /// interactions whose prompts and replies come from small sets where replies are
    /// prefixes of one another ("", "a", "ab", "abc", "b", "ba", "b\u00e9", null).
    fn generated_history(next: &mut impl FnMut(u64) -> u64) -> ChatHistory {
        const REPLIES: [&str; 8] = ["", "a", "ab", "abc", "b", "ba", r"b\u00e9", "é"];
        let mut accounts = Vec::new();
        for account in ["https://sourcegraph.com/-u", "https://sg.example.com/-v"] {
            if next(3) == 0 {
                continue;
            }
            let mut chats = Vec::new();
            for _ in 0..1 + next(3) {
                let interactions: Vec<String> = (0..next(6))
                    .map(|_| {
                        let prompt = format!("p{}", next(3));
                        let reply = match next(9) as usize {
                            8 => "null".to_string(),
                            r => format!(r#"{{"speaker":"assistant","text":"{}"}}"#, REPLIES[r]),
                        };
                        format!(
                            r#"{{"humanMessage":{{"speaker":"human","text":"{prompt}"}},"assistantMessage":{reply}}}"#
                        )
                    })
                    .collect();
                chats.push(format!(
                    r#""c{}":{{"interactions":[{}]}}"#,
                    next(3),
                    interactions.join(",")
                ));
            }
            accounts.push(format!(r#""{account}":{{"chat":{{{}}}}}"#, chats.join(",")));
        }
        ChatHistory::from_bytes(format!("{{{}}}", accounts.join(",")).as_bytes())
    }

    /// 3,000 generated cases (a live value or none, one to three older versions) give
    /// the rows, in order, that comparing with every known pair gave.
    #[test]
    fn the_reply_index_answers_as_the_scan_of_every_known_pair() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let (mut cases_with_rows, mut prefix_drops) = (0, 0);
        for case in 0..3000 {
            let live = (next(3) > 0).then(|| generated_history(&mut next));
            let older: Vec<(ChatHistory, Origin)> = (0..1 + next(3))
                .map(|v| {
                    let origin = Origin {
                        locator: format!("version {v}"),
                        state: RecordState::Deleted,
                        ..Origin::default()
                    };
                    (generated_history(&mut next), origin)
                })
                .collect();
            let old = deleted_rows_by_scan(live.as_ref(), &older);
            let new = deleted_rows(live.as_ref(), &older);
            assert_eq!(new, old, "case {case}");
            cases_with_rows += usize::from(!new.is_empty());
            // an older reply that is a proper prefix of another reply to its prompt
            let replies: Vec<(&str, String, String)> = live
                .iter()
                .chain(older.iter().map(|(h, _)| h))
                .flat_map(|h| &h.chats)
                .flat_map(|c| {
                    c.interactions.iter().map(|i| {
                        let t = |m: &Option<Message>| {
                            m.as_ref()
                                .and_then(Message::display_text)
                                .unwrap_or_default()
                        };
                        (c.id.as_str(), t(&i.human), t(&i.assistant))
                    })
                })
                .collect();
            prefix_drops += usize::from(replies.iter().any(|(c, h, a)| {
                replies
                    .iter()
                    .any(|(d, g, b)| c == d && h == g && b.len() > a.len() && b.starts_with(a))
            }));
        }
        // the generator reaches both outcomes
        assert!((1000..3000).contains(&cases_with_rows), "{cases_with_rows}");
        assert!(prefix_drops > 500, "{prefix_drops}");
    }

    #[test]
    fn error_texts() {
        let e = |n: Option<&str>, m: Option<&str>| ChatError {
            name: n.map(str::to_string),
            message: m.map(str::to_string),
        };
        assert_eq!(
            error_text(&e(Some("RateLimitError"), Some("limit"))),
            "error: RateLimitError: limit"
        );
        assert_eq!(error_text(&e(None, Some("boom"))), "error: boom");
        assert_eq!(
            error_text(&e(Some("AbortError"), None)),
            "error: AbortError"
        );
    }
}
