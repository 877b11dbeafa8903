//! The fields of turn and session documents beyond prompt and reply (`h2-mvstore.md`
//! §9): tool approvals, deletion times of a turn and of its parts, sidecar records
//! (`SubTurn`, `References`, `FixedContextPanel`, `Hide`, unknown types), working-set
//! items, rating, agent and chat mode, and a session's draft input. Each test builds the
//! documents the decoder yields (the generator's shapes, `fixtures/generators/copilot-
//! nitrite`) and pins every row exactly: turn type, state, time, locator and text.

use chat_rows::Row;
use copilot_nitrite::decode::{Document, NitriteFile, Place};
use copilot_nitrite::rows;
use serde_json::{Value, json};

const AGENT: &str = "com.github.copilot.agent.session.persistence.nitrite.entity.";
/// 2026-01-01T10:00:00Z, the generator's T0.
const T0: i64 = 1_767_261_600_000;
const SID: &str = "aaaaaaaa-0000-4000-8000-000000000001";

/// A JSON string literal, as the generator's `q`.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn rec(kind: &str, data: &str) -> String {
    format!("{{\"type\":{},\"data\":{}}}", q(kind), q(data))
}

fn value(rec: &str) -> String {
    format!("{{\"type\":\"Value\",\"value\":{}}}", q(rec))
}

/// The `contents` JSON string of records, keyed by made-up UUIDs.
fn entries(values: &[String]) -> String {
    let parts: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("\"{:08x}-0000-4000-8000-{:012x}\":{v}", i + 1, i + 1))
        .collect();
    format!("{{{}}}", parts.join(","))
}

fn markdown(text: &str) -> String {
    value(&rec(
        "Markdown",
        &json!({"text": text, "annotations": []}).to_string(),
    ))
}

fn round(id: i64, reply: &str) -> String {
    value(&rec(
        "AgentRound",
        &json!({"roundId": id, "reply": reply}).to_string(),
    ))
}

/// The generator's `message`: one part of a turn.
fn message(kind: &str, prompt: &str, contents: &str, model: Option<&str>, created: i64) -> Value {
    json!({
        "user": if kind == "query" { "alice-gh" } else { "GitHub Copilot" },
        "type": kind, "status": "ok", "stringContent": prompt, "contents": contents,
        "agent": null, "confirmationRequest": null, "confirmationResponse": null,
        "notifications": [], "modelType": null, "model": null, "modelProviderName": null,
        "modelInformation": model.map(|m| json!({"modelName": m, "modelProviderName": null,
            "modelBillingMultiplier": "1"})),
        "chatMode": "Agent", "customChatModeId": "Agent", "createdAt": created, "deletedAt": null
    })
}

/// The generator's `turn`, created at `T0 + at`, the reply 2.5 s later.
fn turn(id: &str, at: i64, prompt: &str, response: &str) -> Value {
    let created = T0 + at;
    json!({
        "id": id, "sessionId": SID, "createdAt": created, "deletedAt": null, "rating": 0,
        "request": message("query", prompt, &entries(&[markdown(prompt)]), None, created),
        "response": message("response", "", response, Some("gpt-4.1"), created + 2500),
        "_id": format!("20021251087508152{}", &id[id.len() - 2..]), "_revision": 1,
        "_modified": created + 3000
    })
}

fn doc(entity: &str, value: Value, chunk: u32, entry: usize) -> Document {
    Document {
        map: format!("{AGENT}{entity}"),
        map_id: 7,
        key: value["_id"].clone(),
        value,
        place: Place::Page {
            chunk,
            page: 0x0100_0000_2a9e,
            entry,
        },
        version: chunk as u64,
        live: true,
    }
}

fn session() -> Document {
    doc(
        "NtAgentSession",
        json!({"id": SID, "name": {"value": "Audit session", "source": "copilot"},
            "user": "alice-gh", "createdAt": T0, "activeAt": T0, "modifiedAt": T0,
            "input": null, "turns": [], "workingSet": [], "welcomeMessageSetting": "default",
            "conversationId": SID, "schemaVersion": 2, "_id": "2002125108750815232",
            "_revision": 1, "_modified": T0}),
        2,
        0,
    )
}

fn file_of(docs: Vec<Document>) -> Vec<Row> {
    let file = NitriteFile {
        documents: docs,
        ..NitriteFile::default()
    };
    rows::file_rows(&file, "agent.db", "chat-agent-sessions", "")
}

/// (turn type, state, time, locator, text, session) of each row.
fn pinned(rows: &[Row]) -> Vec<(&'static str, &'static str, String, String, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r.turn_type.as_str(),
                r.record_state.as_str(),
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.source_locator.clone(),
                r.text.clone(),
                r.session_id.clone(),
            )
        })
        .collect()
}

type Pin = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// The rows expected, all of session [`SID`].
fn expect(rows: &[Pin]) -> Vec<(&'static str, &'static str, String, String, String, String)> {
    rows.iter()
        .map(|(tt, st, at, loc, text)| {
            (
                *tt,
                *st,
                at.to_string(),
                loc.to_string(),
                text.to_string(),
                SID.to_string(),
            )
        })
        .collect()
}

const START: Pin = (
    "system",
    "live",
    "2026-01-01T10:00:00.000000Z",
    "chunk 2 page 0x10000002a9e entry 0",
    "session start: title=\"Audit session\" title_source=copilot kind=chat-agent-sessions user=alice-gh",
);
const LOC: &str = "chunk 4 page 0x10000002a9e entry 0";

#[test]
fn a_tool_approval_request_and_its_answer_are_permission_decision_rows() {
    // the audit's cp3 shape: the request as a JSON string on the response, the answer
    // as a nested document on the request (with a secret-named field that never shows)
    let mut t = turn(
        "turn-01",
        60_000,
        "Delete the build dir",
        &entries(&[round(1, "Deleted.")]),
    );
    t["response"]["confirmationRequest"] =
        json!("{\"title\":\"Run command?\",\"message\":\"rm -rf build\",\"authToken\":\"ghu_x\"}");
    t["request"]["confirmationResponse"] = json!({"accepted": false, "apiKey": "sk-x"});
    let rows = file_of(vec![session(), doc("NtAgentTurn", t, 4, 0)]);
    assert_eq!(
        pinned(&rows),
        expect(&[
            START,
            (
                "system",
                "live",
                "2026-01-01T10:01:00.000000Z",
                LOC,
                "chat mode: Agent"
            ),
            (
                "user",
                "live",
                "2026-01-01T10:01:00.000000Z",
                LOC,
                "Delete the build dir"
            ),
            (
                "system",
                "live",
                "2026-01-01T10:01:02.500000Z",
                LOC,
                "model: gpt-4.1"
            ),
            (
                "assistant",
                "live",
                "2026-01-01T10:01:02.500000Z",
                LOC,
                "Deleted."
            ),
            (
                "system",
                "live",
                "2026-01-01T10:01:02.500000Z",
                LOC,
                "permission decision: confirmation title=\"Run command?\" message=\"rm -rf build\""
            ),
            (
                "system",
                "live",
                "2026-01-01T10:01:00.000000Z",
                LOC,
                "permission decision: accepted=false"
            ),
        ])
    );
    assert!(
        rows.iter()
            .all(|r| !r.text.contains("ghu_x") && !r.text.contains("sk-x"))
    );
}

#[test]
fn deletion_times_of_a_turn_and_of_its_parts_are_rows_and_mark_what_they_deleted() {
    // the audit's cp6 shape (`response.deletedAt`), and the same for the request and
    // for the whole turn
    let mut resp = turn(
        "turn-01",
        1_000,
        "PROMPT KEPT",
        &entries(&[round(1, "RESPONSE DELETED")]),
    );
    resp["response"]["deletedAt"] = json!(T0 + 5_000);
    let mut req = turn(
        "turn-02",
        10_000,
        "PROMPT DELETED",
        &entries(&[round(1, "REPLY KEPT")]),
    );
    req["request"]["deletedAt"] = json!(T0 + 15_000);
    let mut whole = turn(
        "turn-03",
        20_000,
        "TURN DELETED",
        &entries(&[round(1, "ITS REPLY")]),
    );
    whole["deletedAt"] = json!(T0 + 25_000);
    let rows = file_of(vec![
        session(),
        doc("NtAgentTurn", resp, 4, 0),
        doc("NtAgentTurn", req, 4, 1),
        doc("NtAgentTurn", whole, 4, 2),
    ]);
    let l1 = "chunk 4 page 0x10000002a9e entry 1";
    let l2 = "chunk 4 page 0x10000002a9e entry 2";
    assert_eq!(
        pinned(&rows),
        expect(&[
            START,
            (
                "system",
                "live",
                "2026-01-01T10:00:01.000000Z",
                LOC,
                "chat mode: Agent"
            ),
            (
                "user",
                "live",
                "2026-01-01T10:00:01.000000Z",
                LOC,
                "PROMPT KEPT"
            ),
            (
                "system",
                "deleted",
                "2026-01-01T10:00:03.500000Z",
                LOC,
                "model: gpt-4.1"
            ),
            (
                "assistant",
                "deleted",
                "2026-01-01T10:00:03.500000Z",
                LOC,
                "RESPONSE DELETED"
            ),
            (
                "system",
                "deleted",
                "2026-01-01T10:00:05.000000Z",
                LOC,
                "response deleted: at=2026-01-01T10:00:05.000000Z"
            ),
            (
                "user",
                "deleted",
                "2026-01-01T10:00:10.000000Z",
                l1,
                "PROMPT DELETED"
            ),
            (
                "assistant",
                "live",
                "2026-01-01T10:00:12.500000Z",
                l1,
                "REPLY KEPT"
            ),
            (
                "system",
                "deleted",
                "2026-01-01T10:00:15.000000Z",
                l1,
                "request deleted: at=2026-01-01T10:00:15.000000Z"
            ),
            (
                "user",
                "deleted",
                "2026-01-01T10:00:20.000000Z",
                l2,
                "TURN DELETED"
            ),
            (
                "assistant",
                "deleted",
                "2026-01-01T10:00:22.500000Z",
                l2,
                "ITS REPLY"
            ),
            (
                "system",
                "deleted",
                "2026-01-01T10:00:25.000000Z",
                l2,
                "turn deleted: at=2026-01-01T10:00:25.000000Z"
            ),
        ])
    );
}

#[test]
fn a_deletion_time_that_is_no_epoch_is_shown_as_written_without_a_time() {
    let mut t = turn("turn-01", 1_000, "P", &entries(&[round(1, "R")]));
    t["deletedAt"] = json!("yesterday");
    let rows = file_of(vec![doc("NtAgentTurn", t, 4, 0)]);
    let last = rows.last().unwrap();
    assert_eq!(
        (
            last.turn_type.as_str(),
            last.record_state.as_str(),
            last.timestamp,
            last.text.as_str()
        ),
        ("system", "deleted", None, "turn deleted: at=yesterday")
    );
}

#[test]
fn a_sub_turn_gives_its_prompt_and_its_reply() {
    // the audit's cp3 turn-2
    let t = turn(
        "turn-01",
        120_000,
        "Use a sub agent",
        &entries(&[
            round(1, "Sub agent done."),
            value(&rec(
                "SubTurn",
                "{\"reply\":\"SUBTURN REPLY TEXT\",\"prompt\":\"SUBTURN PROMPT\"}",
            )),
            value(&rec(
                "SubTurn",
                "{\"prompt\":\"SECOND\",\"agent\":\"explore\",\"token\":\"ghu_x\"}",
            )),
        ]),
    );
    let rows = file_of(vec![session(), doc("NtAgentTurn", t, 4, 0)]);
    let at = "2026-01-01T10:02:02.500000Z";
    assert_eq!(
        pinned(&rows),
        expect(&[
            START,
            (
                "system",
                "live",
                "2026-01-01T10:02:00.000000Z",
                LOC,
                "chat mode: Agent"
            ),
            (
                "user",
                "live",
                "2026-01-01T10:02:00.000000Z",
                LOC,
                "Use a sub agent"
            ),
            ("system", "live", at, LOC, "model: gpt-4.1"),
            ("assistant", "live", at, LOC, "Sub agent done."),
            ("system", "live", at, LOC, "sub-turn prompt: SUBTURN PROMPT"),
            (
                "assistant",
                "live",
                at,
                LOC,
                "sub-turn reply: SUBTURN REPLY TEXT"
            ),
            ("system", "live", at, LOC, "sub-turn prompt: SECOND"),
            (
                "system",
                "live",
                at,
                LOC,
                "sub-turn: {\"agent\":\"explore\"}"
            ),
        ])
    );
}

#[test]
fn referenced_files_are_rows_and_no_record_type_is_dropped() {
    // the reference store's request (`Markdown`, `FixedContextPanel`, a hidden
    // `References`) and response (`References` in a subgraph), plus an unknown type
    let uri = "file:///Users/redacted-user/_projects/Terraform/readme.md";
    let reference = json!({"type": "file", "reference": {"uri": uri}}).to_string();
    let panel = json!({"references": [reference], "currentFileUri": uri}).to_string();
    let hidden = rec("References", &json!([reference]).to_string());
    let mut t = turn(
        "turn-01",
        60_000,
        "test",
        &entries(&[
            value(&rec(
                "References",
                &json!([json!({"type": "file", "reference": {"uri": "file:///C:/src/My%20App/main.rs"}}).to_string()]).to_string(),
            )),
            round(1, "Hey!"),
            value(&rec("FileRead", "{\"text\":\"fn main() {}\"}")),
        ]),
    );
    t["request"]["contents"] = json!(entries(&[
        markdown("test"),
        value(&rec("FixedContextPanel", &panel)),
        value(&rec("Hide", &hidden)),
        value(&rec(
            "FixedContextPanel",
            &json!({"references": [], "currentFileUri": "file:///home/u/other.rs"}).to_string()
        )),
    ]));
    let rows = file_of(vec![session(), doc("NtAgentTurn", t, 4, 0)]);
    let (tq, tr) = ("2026-01-01T10:01:00.000000Z", "2026-01-01T10:01:02.500000Z");
    assert_eq!(
        pinned(&rows),
        expect(&[
            START,
            ("system", "live", tq, LOC, "chat mode: Agent"),
            ("user", "live", tq, LOC, "test"),
            ("system", "live", tr, LOC, "model: gpt-4.1"),
            (
                "system",
                "live",
                tq,
                LOC,
                "file referenced: /Users/redacted-user/_projects/Terraform/readme.md"
            ),
            (
                "system",
                "live",
                tq,
                LOC,
                "file referenced: /home/u/other.rs (current file)"
            ),
            (
                "system",
                "live",
                tr,
                LOC,
                "file referenced: C:\\src\\My App\\main.rs"
            ),
            ("assistant", "live", tr, LOC, "Hey!"),
            (
                "system",
                "live",
                tr,
                LOC,
                "unknown record type FileRead: {\"text\":\"fn main() {}\"}"
            ),
        ])
    );
}

#[test]
fn a_working_set_item_has_its_session_and_its_nested_fields() {
    // the audit's cp3 working-set item
    let item = json!({"id": "ws-1", "sessionId": SID, "fileUrl": "file:///home/u/repo/src/main.rs",
        "createdAt": T0 + 61_000, "status": {"state": "accepted"}, "tags": ["a", "b"],
        "authToken": "ghu_x", "note": null,
        "_id": "2002125108750815299", "_revision": 1, "_modified": T0 + 61_000});
    let rows = file_of(vec![doc("NtAgentWorkingSetItem", item, 5, 0)]);
    assert_eq!(
        pinned(&rows),
        expect(&[(
            "system",
            "live",
            "2026-01-01T10:01:01.000000Z",
            "chunk 5 page 0x10000002a9e entry 0",
            "NtAgentWorkingSetItem: createdAt=1767261661000 fileUrl=file:///home/u/repo/src/main.rs id=ws-1 sessionId=aaaaaaaa-0000-4000-8000-000000000001 status.state=accepted tags=\"[\\\"a\\\",\\\"b\\\"]\""
        )])
    );
}

#[test]
fn chat_mode_changes_agent_and_rating_are_rows() {
    // the audit's cp3 turn-1 (rating 1, agent "workspace", chatMode "Ask"), then two
    // turns back in "Agent" mode: one `chat mode:` row per change, like `model:` rows;
    // the third turn's rating 0 (the plugin's "not rated") and null agent give no row
    let mut ask = turn(
        "turn-01",
        60_000,
        "Explain it",
        &entries(&[markdown("It is.")]),
    );
    ask["rating"] = json!(1);
    ask["request"]["agent"] = json!("workspace");
    ask["request"]["chatMode"] = json!("Ask");
    let mut agent = turn(
        "turn-02",
        120_000,
        "Fix it",
        &entries(&[round(1, "Fixed.")]),
    );
    agent["rating"] = json!(-1);
    agent["request"]["agent"] = json!({"id": "github.copilot.editsAgent", "apiKey": "sk-x"});
    let same = turn("turn-03", 180_000, "Again", &entries(&[round(1, "Done.")]));
    let rows = file_of(vec![
        session(),
        doc("NtAgentTurn", ask, 4, 0),
        doc("NtAgentTurn", agent, 4, 1),
        doc("NtAgentTurn", same, 4, 2),
    ]);
    let (l1, l2) = (
        "chunk 4 page 0x10000002a9e entry 1",
        "chunk 4 page 0x10000002a9e entry 2",
    );
    let (t0, r0) = ("2026-01-01T10:01:00.000000Z", "2026-01-01T10:01:02.500000Z");
    let (t1, r1) = ("2026-01-01T10:02:00.000000Z", "2026-01-01T10:02:02.500000Z");
    let (t2, r2) = ("2026-01-01T10:03:00.000000Z", "2026-01-01T10:03:02.500000Z");
    assert_eq!(
        pinned(&rows),
        expect(&[
            START,
            ("system", "live", t0, LOC, "chat mode: Ask"),
            ("user", "live", t0, LOC, "Explain it"),
            ("system", "live", r0, LOC, "model: gpt-4.1"),
            ("assistant", "live", r0, LOC, "It is."),
            ("system", "live", t0, LOC, "turn: agent=workspace rating=1"),
            ("system", "live", t1, l1, "chat mode: Ask -> Agent"),
            ("user", "live", t1, l1, "Fix it"),
            ("assistant", "live", r1, l1, "Fixed."),
            (
                "system",
                "live",
                t1,
                l1,
                "turn: agent.id=github.copilot.editsAgent rating=-1"
            ),
            ("user", "live", t2, l2, "Again"),
            ("assistant", "live", r2, l2, "Done."),
        ])
    );
    assert!(rows.iter().all(|r| !r.text.contains("sk-x")));
}

#[test]
fn a_sessions_draft_inline_turns_and_working_set_are_rows() {
    // the audit's cp4 NtChatSession: a draft never sent, one inline turn and one
    // working-set file; plus entries of other shapes, and an older (carved) revision
    // whose draft differed and which held the same inline turn
    let chat = "com.github.copilot.chat.session.persistence.nitrite.entity.NtChatSession";
    let sid = "bbbbbbbb-0000-4000-8000-000000000002";
    let mut inline = turn(
        "inline-01",
        1_000,
        "INLINE PROMPT",
        &entries(&[markdown("INLINE REPLY")]),
    );
    inline["sessionId"] = json!(sid);
    let session = |input: &str, revision: i64, live: bool, chunk: u32| Document {
        map: chat.into(),
        map_id: 5,
        key: json!("2002125108750815232"),
        value: json!({"id": sid, "name": {"value": "Inline turns", "source": "user"},
            "user": "alice-gh", "createdAt": T0, "activeAt": T0, "modifiedAt": T0,
            "input": input, "turns": [inline, "NOT A TURN", {"note": "x", "authToken": "ghu_x"}],
            "workingSet": ["file:///home/u/repo/a.rs",
                {"fileUrl": "file:///C:/src/My%20App/b.rs", "state": "accepted"}, null],
            "conversationId": sid, "schemaVersion": 2, "_id": "2002125108750815232",
            "_revision": revision, "_modified": T0 + revision}),
        place: Place::Page {
            chunk,
            page: 0x0100_0000_2a9e,
            entry: 0,
        },
        version: chunk as u64,
        live,
    };
    let file = NitriteFile {
        documents: vec![session("DRAFT NOT SENT", 2, true, 3)],
        carved: vec![session("OLDER DRAFT", 1, false, 2)],
        ..NitriteFile::default()
    };
    let rows = rows::file_rows(&file, "chat.db", "chat-sessions", "");
    let (t0, tq, tr) = (
        "2026-01-01T10:00:00.000000Z",
        "2026-01-01T10:00:01.000000Z",
        "2026-01-01T10:00:03.500000Z",
    );
    let (l3, l2) = (
        "chunk 3 page 0x10000002a9e entry 0",
        "chunk 2 page 0x10000002a9e entry 0",
    );
    let want: Vec<(&str, &str, &str, &str, &str)> = vec![
        (
            "system",
            "live",
            t0,
            l3,
            "session start: title=\"Inline turns\" title_source=user kind=chat-sessions user=alice-gh",
        ),
        (
            "system",
            "live",
            t0,
            l3,
            "draft input (never sent): DRAFT NOT SENT",
        ),
        ("system", "live", t0, l3, "working set: /home/u/repo/a.rs"),
        (
            "system",
            "live",
            t0,
            l3,
            "working set: C:\\src\\My App\\b.rs state=accepted",
        ),
        ("system", "live", t0, l3, "unknown inline turn: NOT A TURN"),
        (
            "system",
            "live",
            t0,
            l3,
            "unknown inline turn: {\"note\":\"x\"}",
        ),
        (
            "system",
            "recovered",
            t0,
            l2,
            "draft input (never sent): OLDER DRAFT",
        ),
        ("system", "live", tq, l3, "chat mode: Agent"),
        ("user", "live", tq, l3, "INLINE PROMPT"),
        ("system", "live", tr, l3, "model: gpt-4.1"),
        ("assistant", "live", tr, l3, "INLINE REPLY"),
    ];
    let want: Vec<_> = want
        .into_iter()
        .map(|(tt, st, at, loc, text)| {
            (
                tt,
                st,
                at.to_string(),
                loc.to_string(),
                text.to_string(),
                sid.to_string(),
            )
        })
        .collect();
    assert_eq!(pinned(&rows), want);
    assert!(rows.iter().all(|r| !r.text.contains("ghu_x")));
}

/// (turn type, state, tool name, tool use id, text) of each row.
fn tools(rows: &[Row]) -> Vec<(&'static str, &'static str, &str, &str, &str)> {
    rows.iter()
        .map(|r| {
            (
                r.turn_type.as_str(),
                r.record_state.as_str(),
                r.tool_name.as_str(),
                r.tool_use_id.as_str(),
                r.text.as_str(),
            )
        })
        .collect()
}

fn round_with_calls(id: i64, reply: &str, calls: Value) -> String {
    value(&rec(
        "AgentRound",
        &json!({"roundId": id, "reply": reply, "toolCalls": calls}).to_string(),
    ))
}

#[test]
fn tool_calls_with_the_same_text_are_each_kept() {
    // the audit's repro: two different tools, the same arguments and the same result;
    // then the same command run twice (two call ids), and a call without an id run twice
    let calls = json!([
        {"name": "get_errors", "id": "call_1", "arguments": "{}", "result": "No errors"},
        {"name": "list_dir", "id": "call_2", "arguments": "{}", "result": "No errors"},
        {"name": "run_in_terminal", "id": "call_3", "arguments": "{\"command\":\"make\"}",
            "result": "ok"},
        {"name": "run_in_terminal", "id": "call_4", "arguments": "{\"command\":\"make\"}",
            "result": "ok"},
        {"name": "run_in_terminal", "arguments": "{\"command\":\"ls\"}", "result": "a"},
        {"name": "run_in_terminal", "arguments": "{\"command\":\"ls\"}", "result": "a"},
    ]);
    let t = turn(
        "turn-01",
        60_000,
        "Check it",
        &entries(&[round_with_calls(1, "Done.", calls)]),
    );
    // an older revision of the turn holds byte-copies of the first two calls: collapsed
    let mut old = t.clone();
    old["_revision"] = json!(0);
    old["response"]["contents"] = json!(entries(&[round_with_calls(
        1,
        "Done.",
        json!([
            {"name": "get_errors", "id": "call_1", "arguments": "{}", "result": "No errors"},
            {"name": "list_dir", "id": "call_2", "arguments": "{}", "result": "No errors"},
        ])
    )]));
    let mut old = doc("NtAgentTurn", old, 3, 0);
    old.live = false;
    let file = NitriteFile {
        documents: vec![session(), doc("NtAgentTurn", t, 4, 0)],
        carved: vec![old],
        ..NitriteFile::default()
    };
    let rows = rows::file_rows(&file, "agent.db", "chat-agent-sessions", "");
    let cmd = "{\"command\":\"make\"}";
    let ls = "{\"command\":\"ls\"}";
    assert_eq!(
        tools(&rows),
        [
            ("system", "live", "", "", START.4),
            ("system", "live", "", "", "chat mode: Agent"),
            ("user", "live", "", "", "Check it"),
            ("system", "live", "", "", "model: gpt-4.1"),
            ("assistant", "live", "", "", "Done."),
            ("tool_use", "live", "get_errors", "call_1", "{}"),
            ("tool_result", "live", "get_errors", "call_1", "No errors"),
            ("tool_use", "live", "list_dir", "call_2", "{}"),
            ("tool_result", "live", "list_dir", "call_2", "No errors"),
            ("tool_use", "live", "run_in_terminal", "call_3", cmd),
            ("tool_result", "live", "run_in_terminal", "call_3", "ok"),
            ("tool_use", "live", "run_in_terminal", "call_4", cmd),
            ("tool_result", "live", "run_in_terminal", "call_4", "ok"),
            ("tool_use", "live", "run_in_terminal", "", ls),
            ("tool_result", "live", "run_in_terminal", "", "a"),
            ("tool_use", "live", "run_in_terminal", "", ls),
            ("tool_result", "live", "run_in_terminal", "", "a"),
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.source_locator == LOC || r.text == START.4)
    );
}

#[test]
fn the_older_titles_of_a_removed_session_are_deleted_like_its_other_rows() {
    // the session document is in no live document (removed from the store), carved in
    // two revisions: its older title is deleted too; a live session's older title stays
    // recovered
    let mut s = session();
    s.value["_revision"] = json!(2);
    s.live = false;
    s.place = Place::Page {
        chunk: 5,
        page: 0x0100_0000_2a9e,
        entry: 0,
    };
    s.version = 5;
    let mut old = s.clone();
    old.value["name"] = json!({"value": "New Agent Session", "source": "default"});
    old.value["_revision"] = json!(1);
    old.place = Place::Page {
        chunk: 3,
        page: 0x0100_0000_2a9e,
        entry: 0,
    };
    old.version = 3;
    let mut t = doc("NtAgentTurn", turn("turn-01", 60_000, "Hi", ""), 4, 0);
    t.live = false;
    let file = NitriteFile {
        snapshot: Some((13, 13)),
        carved: vec![s.clone(), t, old.clone()],
        ..NitriteFile::default()
    };
    let rows = rows::file_rows(&file, "agent.db", "chat-agent-sessions", "");
    let l5 = "chunk 5 page 0x10000002a9e entry 0";
    let l3 = "chunk 3 page 0x10000002a9e entry 0";
    assert_eq!(
        pinned(&rows),
        expect(&[
            ("system", "deleted", START.2, l5, START.4),
            (
                "system",
                "deleted",
                START.2,
                l3,
                "session title: title=\"New Agent Session\" title_source=default revision=1"
            ),
            ("user", "deleted", "2026-01-01T10:01:00.000000Z", LOC, "Hi"),
        ])
    );
    // the same revisions with the newer one live: the older title is recovered
    s.live = true;
    let file = NitriteFile {
        snapshot: Some((13, 13)),
        documents: vec![s],
        carved: vec![old],
        ..NitriteFile::default()
    };
    let rows = rows::file_rows(&file, "agent.db", "chat-agent-sessions", "");
    assert_eq!(
        pinned(&rows),
        expect(&[
            ("system", "live", START.2, l5, START.4),
            (
                "system",
                "recovered",
                START.2,
                l3,
                "session title: title=\"New Agent Session\" title_source=default revision=1"
            ),
        ])
    );
}
