//! Rows of the SQLite stores: `session-store.db` and `agent-traces.db`.
//!
//! Both repeat the event logs cut down, so their conversation rows are secondary and
//! are checked against the primary log of their session ([`crate::twins`]); what
//! only they hold (token usage per call, deleted sessions, purged spans) is kept.
//! `assistant_usage_events` is primary: no log line repeats it.

use std::collections::HashMap;
use std::path::Path;

use chat_rows::system::{self, Usage};
use chat_rows::{Evidence, RecordState, Row, TurnType};
use sqlite_evidence::Database;

use crate::db::{Rec, read_table};

/// The columns of `checkpoints` that are not sections: its keys and times.
const CHECKPOINT_KEYS: [&str; 6] = [
    "session_id",
    "checkpoint_number",
    "title",
    "created_at",
    "updated_at",
    "id",
];
use crate::texts;
use crate::twins::{CellTwins, Twins};

/// What a store read needs besides the database.
pub struct StoreInput<'a> {
    /// The agent of the rows.
    pub agent: &'a str,
    /// `session-store.db` or `agent-traces.db`, for `parser:` rows.
    pub file_name: &'a str,
    /// The primary rows to prove twins against.
    pub twins: &'a Twins,
}

fn base(input: &StoreInput<'_>, rec: &Rec, turn: TurnType, text: String, secondary: bool) -> Row {
    let mut r = Row::new(input.agent, turn, text).locator(rec.place.locator());
    let state = rec.place.state();
    if state != RecordState::Live {
        r = r.state(state);
    }
    if secondary {
        r = r.secondary(true);
    }
    r
}

fn emit(input: &StoreInput<'_>, mut row: Row, sink: &mut dyn FnMut(Row)) {
    if row.secondary {
        input.twins.prove(&mut row);
    }
    sink(row);
}

fn parser_rows(
    input: &StoreInput<'_>,
    db: &Database,
    errors: &[String],
    sink: &mut dyn FnMut(Row),
) {
    for p in db.problems() {
        sink(
            Row::system(
                input.agent,
                system::parser(format!("{} unreadable: {}", input.file_name, p.message)),
            )
            .locator(p.location.clone()),
        );
    }
    for e in errors {
        sink(Row::system(
            input.agent,
            system::parser(format!("{} unreadable: {e}", input.file_name)),
        ));
    }
}

/// Opens a store; an unopenable file is one `parser:` row.
pub fn open(
    path: &Path,
    evidence: &Evidence,
    agent: &str,
    file_name: &str,
    sink: &mut dyn FnMut(Row),
) -> Option<Database> {
    match Database::open(path, evidence) {
        Ok(db) => Some(db),
        Err(e) => {
            let err = crate::Error::Sqlite {
                file: file_name.to_string(),
                offset: 0,
                message: e.to_string(),
            };
            sink(Row::system(agent, system::parser(err)).locator("whole file"));
            None
        }
    }
}

/// The rows of a `session-store.db`.
pub fn session_store_rows(db: &Database, input: &StoreInput<'_>, sink: &mut dyn FnMut(Row)) {
    let mut errors = Vec::new();
    let mut cwd_of: HashMap<String, (String, String)> = HashMap::new();
    let (sessions, e) = read_table(
        db,
        "sessions",
        &[
            "id",
            "cwd",
            "repository",
            "host_type",
            "branch",
            "summary",
            "agent_name",
            "created_at",
            "updated_at",
        ],
    );
    errors.extend(e);
    for rec in &sessions {
        let id = rec.str("id");
        cwd_of
            .entry(id.clone())
            .or_insert((rec.str("cwd"), rec.str("branch")));
        let text = texts::store_session_index(
            &[
                ("id", &id),
                ("cwd", &rec.str("cwd")),
                ("repository", &rec.str("repository")),
                ("branch", &rec.str("branch")),
                ("host", &rec.str("host_type")),
                ("agent", &rec.str("agent_name")),
            ],
            &rec.str("summary"),
            &[
                ("created", &rec.str("created_at")),
                ("updated", &rec.str("updated_at")),
            ],
        );
        let row = base(input, rec, TurnType::System, text, true)
            .at(rec.time("created_at"))
            .session(id)
            .project(rec.str("cwd"))
            .branch(rec.str("branch"));
        emit(input, row, sink);
    }
    // a row of session `sid` at the record's `time` column, with the session's cwd and branch
    let place = |row: Row, rec: &Rec, sid: String, time: &str| -> Row {
        let (cwd, branch) = cwd_of.get(&sid).cloned().unwrap_or_default();
        row.at(rec.time(time))
            .session(sid)
            .project(cwd)
            .branch(branch)
    };
    let (turns, e) = read_table(
        db,
        "turns",
        &[
            "session_id",
            "turn_index",
            "user_message",
            "assistant_response",
            "timestamp",
        ],
    );
    errors.extend(e);
    // the texts the FTS index repeats: each turn's texts, and both joined by a newline
    // (what the writer indexes for a turn), then the checkpoints' sections, as the
    // prefix rule compares them (either side may be cut)
    let mut turn_texts = CellTwins::new();
    for rec in &turns {
        let sid = rec.str("session_id");
        turn_texts.add_turn(
            &sid,
            rec.text("user_message").as_deref(),
            rec.text("assistant_response").as_deref(),
        );
        for (col, turn) in [
            ("user_message", TurnType::User),
            ("assistant_response", TurnType::Assistant),
        ] {
            if let Some(text) = rec.text(col).filter(|t| !t.is_empty()) {
                let row = place(
                    base(input, rec, turn, text, true),
                    rec,
                    sid.clone(),
                    "timestamp",
                );
                emit(input, row, sink);
            }
        }
    }
    // the sections: the six the spec names, then any other column of the table (the
    // spec's schema has `...` among them), in the table's order; never a secret-named one
    let named = [
        "overview",
        "history",
        "work_done",
        "technical_details",
        "important_files",
        "next_steps",
    ];
    let others: Vec<String> = db
        .table_columns("checkpoints")
        .into_iter()
        .filter(|c| {
            !named.contains(&c.as_str())
                && !CHECKPOINT_KEYS.contains(&c.as_str())
                && !chat_rows::secrets::names_secret(c)
        })
        .collect();
    let section_cols: Vec<&str> = named
        .iter()
        .copied()
        .chain(others.iter().map(String::as_str))
        .collect();
    let wanted: Vec<&str> = CHECKPOINT_KEYS
        .iter()
        .copied()
        .chain(section_cols.iter().copied())
        .collect();
    let (checkpoints, e) = read_table(db, "checkpoints", &wanted);
    errors.extend(e);
    for rec in &checkpoints {
        let sid = rec.str("session_id");
        let sections: Vec<(&str, String)> = section_cols.iter().map(|k| (*k, rec.str(k))).collect();
        for (_, v) in &sections {
            turn_texts.add_text(&sid, v);
        }
        let text = texts::checkpoint(rec.str("checkpoint_number"), &rec.str("title"), &sections);
        let row = place(
            base(input, rec, TurnType::System, text, true),
            rec,
            sid,
            "created_at",
        );
        emit(input, row, sink);
    }
    let (files, e) = read_table(
        db,
        "session_files",
        &[
            "session_id",
            "file_path",
            "tool_name",
            "turn_index",
            "first_seen_at",
        ],
    );
    errors.extend(e);
    for rec in &files {
        let sid = rec.str("session_id");
        let text = texts::file_touched(
            &rec.str("file_path"),
            &rec.str("tool_name"),
            &rec.str("turn_index"),
        );
        let row = place(
            base(input, rec, TurnType::System, text, true),
            rec,
            sid,
            "first_seen_at",
        );
        emit(input, row, sink);
    }
    let (refs, e) = read_table(
        db,
        "session_refs",
        &[
            "session_id",
            "ref_type",
            "ref_value",
            "turn_index",
            "created_at",
        ],
    );
    errors.extend(e);
    for rec in &refs {
        let sid = rec.str("session_id");
        let text = texts::session_ref(
            &rec.str("ref_type"),
            &rec.str("ref_value"),
            &rec.str("turn_index"),
        );
        let row = place(
            base(input, rec, TurnType::System, text, true),
            rec,
            sid,
            "created_at",
        );
        emit(input, row, sink);
    }
    // the columns the `usage:` row prints (or, `model`, may print), then every other
    // the table has but secret-named ones, for the `usage detail:` row
    let printed = [
        "created_at",
        "session_id",
        "turn_index",
        "model",
        "copilot_usage_model",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "reasoning_tokens",
        "total_nano_aiu",
        "duration_ms",
        "finish_reason",
        "parent_tool_call_id",
    ];
    // the spec's other columns are counts and ids (`time_to_first_token_ms` and
    // `token_details_json` name tokens counted, not held); a column it does not name is
    // left out when its name names a secret
    let named = [
        "id",
        "time_to_first_token_ms",
        "agent_id",
        "token_details_json",
    ];
    let others: Vec<String> = db
        .table_columns("assistant_usage_events")
        .into_iter()
        .filter(|c| {
            !printed.contains(&c.as_str())
                && (named.contains(&c.as_str()) || !chat_rows::secrets::names_secret(c))
        })
        .collect();
    let wanted: Vec<&str> = printed
        .iter()
        .copied()
        .chain(others.iter().map(String::as_str))
        .collect();
    let (usage, e) = read_table(db, "assistant_usage_events", &wanted);
    errors.extend(e);
    for rec in &usage {
        let model = rec
            .text("copilot_usage_model")
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| rec.str("model"));
        let finish = rec.str("finish_reason");
        let u = Usage {
            model: &model,
            input: rec.int("input_tokens"),
            output: rec.int("output_tokens"),
            cache_read: rec.int("cache_read_tokens"),
            cache_write: rec.int("cache_write_tokens"),
            reasoning: rec.int("reasoning_tokens"),
            nano_aiu: rec.int("total_nano_aiu"),
            duration_ms: rec.int("duration_ms"),
            finish: Some(finish.as_str()),
            turn: rec.int("turn_index"),
            scope: "call",
            ..Usage::default()
        };
        let sid = rec.str("session_id");
        let usage = base(input, rec, TurnType::System, system::usage(&u), false);
        let row = place(usage, rec, sid.clone(), "created_at")
            .model(model.clone())
            .tool("", rec.str("parent_tool_call_id"));
        sink(row);
        // what the row leaves out: the requested model when the billed one was printed,
        // and every other column (the call's id, its agent, time to first token, token
        // details ...) as written, since 2026-12-05
        let requested = rec.str("model");
        let mut extra: Vec<(&str, String)> = Vec::new();
        if requested != model {
            extra.push(("model", requested));
        }
        for c in &others {
            let v = rec.str(c);
            if v != "{}" && v != "[]" {
                extra.push((c.as_str(), v));
            }
        }
        let fields: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let detail = system::key_values(&fields);
        if !detail.is_empty() {
            let text = format!("usage detail: {detail}");
            let row = place(
                base(input, rec, TurnType::System, text, false),
                rec,
                sid,
                "created_at",
            )
            .model(model.clone())
            .tool("", rec.str("parent_tool_call_id"));
            sink(row);
        }
    }
    // FTS content cells that no turn (or checkpoint) holds: the index outlives a
    // rewind's turns. Only the indexed text columns are read; the others (the session
    // id, source type and source id) are not text of the conversation.
    if db.has_table("search_index_content") {
        let cols = db.table_columns("search_index_content");
        let fts = search_index_columns(db);
        let texts: Vec<&str> = fts
            .texts
            .iter()
            .map(String::as_str)
            .filter(|c| cols.iter().any(|x| x == c))
            .collect();
        let mut wanted = texts.clone();
        if let Some(sc) = fts
            .session
            .as_deref()
            .filter(|c| cols.iter().any(|x| x == c))
        {
            wanted.push(sc);
        }
        let (cells, e) = read_table(db, "search_index_content", &wanted);
        errors.extend(e);
        for rec in &cells {
            let sid = fts
                .session
                .as_deref()
                .map(|c| rec.str(c))
                .unwrap_or_default();
            for c in &texts {
                let Some(v) = rec.text(c).filter(|v| !v.is_empty()) else {
                    continue;
                };
                if turn_texts.holds(&sid, &v) {
                    continue;
                }
                let (cwd, branch) = cwd_of.get(&sid).cloned().unwrap_or_default();
                let row = base(
                    input,
                    rec,
                    TurnType::System,
                    format!("search index: {v}"),
                    true,
                )
                .session(sid.clone())
                .project(cwd)
                .branch(branch);
                sink(row);
            }
        }
    }
    parser_rows(input, db, &errors, sink);
}

/// The columns of the FTS5 table `search_index` in its content table
/// (`search_index_content`, whose columns are `c0`, `c1` ... in declaration order).
#[derive(Debug, PartialEq, Eq)]
struct FtsColumns {
    /// The indexed columns: the text searched (`content`).
    texts: Vec<String>,
    /// The column named `session_id`, if any.
    session: Option<String>,
}

/// Reads the columns of `search_index` from its `CREATE VIRTUAL TABLE ... USING
/// fts5(...)` text; without it, the writers' layout (`content, session_id UNINDEXED,
/// source_type UNINDEXED, source_id UNINDEXED`, CHR).
fn search_index_columns(db: &Database) -> FtsColumns {
    let sql: Option<String> = db
        .connection()
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_index'",
            [],
            |r| r.get(0),
        )
        .ok();
    sql.as_deref()
        .and_then(fts5_columns)
        .unwrap_or_else(|| FtsColumns {
            texts: vec!["c0".to_string()],
            session: Some("c1".to_string()),
        })
}

/// The columns an FTS5 declaration names (`None` when it is not one): each argument
/// of `fts5(...)` without an `=` is a column, `UNINDEXED` after its name when it is
/// stored but not searched.
fn fts5_columns(sql: &str) -> Option<FtsColumns> {
    let lower = sql.to_ascii_lowercase();
    let open = lower.find("fts5")? + 4;
    let open = open + sql[open..].find('(')? + 1;
    // the arguments, split at top-level commas, quotes respected
    let mut args = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<char>, open);
    let mut end = None;
    for (i, ch) in sql[open..].char_indices() {
        let i = open + i;
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(ch),
            (None, '[') => quote = Some(']'),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => {
                args.push(&sql[start..i]);
                end = Some(i);
                break;
            }
            (None, ')') => depth -= 1,
            (None, ',') if depth == 0 => {
                args.push(&sql[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    end?;
    let mut out = FtsColumns {
        texts: Vec::new(),
        session: None,
    };
    let mut n = 0;
    for a in args {
        let a = a.trim();
        if a.is_empty() || a.contains('=') {
            continue; // an option: tokenize=..., prefix=..., content=...
        }
        let mut words = a.split_whitespace();
        let name = words
            .next()
            .unwrap_or("")
            .trim_matches(|c| matches!(c, '"' | '\'' | '`' | '[' | ']'));
        let unindexed = words.any(|w| w.eq_ignore_ascii_case("unindexed"));
        let col = format!("c{n}");
        n += 1;
        if name.eq_ignore_ascii_case("session_id") {
            out.session = Some(col.clone());
        }
        if !unindexed {
            out.texts.push(col);
        }
    }
    Some(out)
}

/// The rows of an `agent-traces.db`.
pub fn traces_rows(db: &Database, input: &StoreInput<'_>, sink: &mut dyn FnMut(Row)) {
    let mut errors = Vec::new();
    let (attrs, e) = read_table(db, "span_attributes", &["span_id", "key", "value"]);
    errors.extend(e);
    let mut attr: HashMap<(String, String), String> = HashMap::new();
    for rec in &attrs {
        attr.entry((rec.str("span_id"), rec.str("key")))
            .or_insert_with(|| rec.str("value"));
    }
    let get = |span: &str, key: &str| attr.get(&(span.to_string(), key.to_string())).cloned();
    let (spans, e) = read_table(
        db,
        "spans",
        &[
            "span_id",
            "name",
            "start_time_ms",
            "status_code",
            "status_message",
            "operation_name",
            "agent_name",
            "conversation_id",
            "chat_session_id",
            "request_model",
            "response_model",
            "input_tokens",
            "output_tokens",
            "cached_tokens",
            "reasoning_tokens",
            "tool_name",
            "tool_call_id",
            "turn_index",
        ],
    );
    errors.extend(e);
    for rec in &spans {
        let span = rec.str("span_id");
        let sid = rec
            .text("chat_session_id")
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| rec.str("conversation_id"));
        let at = rec.time("start_time_ms");
        let op = rec.str("operation_name");
        let model = rec
            .text("response_model")
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| rec.str("request_model"));
        match op.as_str() {
            "execute_tool" => {
                let text = get(&span, "gen_ai.tool.call.arguments")
                    .unwrap_or_else(|| "[arguments not captured]".to_string());
                let row = base(input, rec, TurnType::ToolUse, text, true)
                    .at(at)
                    .session(sid.clone())
                    .tool(rec.str("tool_name"), rec.str("tool_call_id"));
                emit(input, row, sink);
            }
            "chat" => {
                let u = Usage {
                    model: &model,
                    input: rec.int("input_tokens"),
                    output: rec.int("output_tokens"),
                    cache_read: rec.int("cached_tokens"),
                    reasoning: rec.int("reasoning_tokens"),
                    nano_aiu: get(&span, "copilot_chat.copilot_usage_nano_aiu")
                        .and_then(|v| v.trim().parse().ok()),
                    turn: rec.int("turn_index"),
                    scope: "call",
                    ..Usage::default()
                };
                let row = base(input, rec, TurnType::System, system::usage(&u), true)
                    .at(at)
                    .session(sid.clone())
                    .model(model.clone());
                emit(input, row, sink);
                for (key, turn) in [
                    ("gen_ai.input.messages", TurnType::User),
                    ("gen_ai.output.messages", TurnType::Assistant),
                ] {
                    if let Some(v) = get(&span, key) {
                        let text = message_text(&v, turn);
                        if text.is_empty() {
                            continue;
                        }
                        let mut row = base(input, rec, turn, text, true)
                            .at(at)
                            .session(sid.clone());
                        if turn == TurnType::Assistant {
                            row.model.clone_from(&model);
                        }
                        emit(input, row, sink);
                    }
                }
            }
            _ => {}
        }
        if rec.int("status_code") == Some(2) {
            let row = base(
                input,
                rec,
                TurnType::System,
                texts::turn_error(&rec.str("status_message")),
                true,
            )
            .at(at)
            .session(sid.clone());
            emit(input, row, sink);
        }
    }
    parser_rows(input, db, &errors, sink);
}

/// The text of captured OTel messages: for the input, the last user message's text
/// parts; for the output, the assistant's text parts. Not JSON: the value as it is.
fn message_text(value: &str, turn: TurnType) -> String {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(value) else {
        return value.to_string();
    };
    let Some(list) = v.as_array() else {
        return value.to_string();
    };
    let parts = |m: &serde_json::Value| -> String {
        m.get("parts")
            .and_then(|p| p.as_array())
            .map(|ps| {
                ps.iter()
                    .filter(|p| p.get("type").and_then(|t| t.as_str()) == Some("text"))
                    .filter_map(|p| p.get("content").and_then(|c| c.as_str()))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .or_else(|| {
                m.get("content")
                    .and_then(|c| c.as_str())
                    .map(str::to_string)
            })
            .unwrap_or_default()
    };
    let role = if turn == TurnType::User {
        "user"
    } else {
        "assistant"
    };
    let pick: Vec<&serde_json::Value> = list
        .iter()
        .filter(|m| m.get("role").and_then(|r| r.as_str()) == Some(role))
        .collect();
    match turn {
        TurnType::User => pick.last().map(|m| parts(m)).unwrap_or_default(),
        _ => pick.iter().map(|m| parts(m)).collect::<Vec<_>>().join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::{FtsColumns, fts5_columns};

    fn cols(texts: &[&str], session: Option<&str>) -> Option<FtsColumns> {
        Some(FtsColumns {
            texts: texts.iter().map(|c| c.to_string()).collect(),
            session: session.map(str::to_string),
        })
    }

    /// The indexed columns are the text; options are no columns; names may be quoted.
    #[test]
    fn fts5_declarations() {
        assert_eq!(
            fts5_columns(
                "CREATE VIRTUAL TABLE search_index USING fts5(\n\tcontent,\n\tsession_id UNINDEXED,\n\tsource_type UNINDEXED,\n\tsource_id UNINDEXED\n)"
            ),
            cols(&["c0"], Some("c1"))
        );
        assert_eq!(
            fts5_columns(
                "CREATE VIRTUAL TABLE x USING FTS5(\"title\", body, [session_id] unindexed, tokenize = 'porter unicode61, x', prefix='2,3')"
            ),
            cols(&["c0", "c1"], Some("c2"))
        );
        assert_eq!(fts5_columns("CREATE TABLE search_index(a, b)"), None);
        assert_eq!(fts5_columns("CREATE VIRTUAL TABLE s USING fts5(a, b"), None);
    }
}
