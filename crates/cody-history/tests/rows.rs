//! Row rules on small inputs: process steps against tool calls and models, and legacy
//! XML messages without text or without a HUMAN/ASSISTANT speaker.

mod common;

use chat_rows::FileContext;
use cody_history::{FileKind, file_rows, history_rows_from_bytes};
use common::render_all;

/// One chat of the JetBrains store holding `interactions` (a JSON array).
fn history(interactions: &str) -> Vec<u8> {
    format!(
        r#"{{"https://sourcegraph.com/-alice":{{"chat":{{"Fri, 03 Oct 2026 10:00:00 GMT":{{"id":"Fri, 03 Oct 2026 10:00:00 GMT","interactions":{interactions}}}}}}}}}"#
    )
    .into_bytes()
}

fn rows_of(interactions: &str) -> Vec<String> {
    render_all(&history_rows_from_bytes(
        &history(interactions),
        "f",
        &FileContext::default(),
    ))
    .into_iter()
    // time|zone|session are the same on every row
    .map(|l| l.splitn(4, '|').nth(3).unwrap().to_string())
    .collect()
}

/// The plan's own example: the reply's `processes[]` tool step repeats its `tool_call`
/// part (same id), so the call is one tool_use row, not two.
#[test]
fn a_reply_s_tool_step_that_repeats_its_tool_call_is_that_call() {
    let m = "anthropic::2024-10-22::claude-sonnet-4-latest";
    let rows = rows_of(&format!(
        r#"[{{"humanMessage":{{"speaker":"human","text":"run the tests","intent":"agentic"}},"assistantMessage":{{"speaker":"assistant","model":"{m}","text":"Running tests.","content":[{{"type":"text","text":"Running tests."}},{{"type":"tool_call","tool_call":{{"id":"toolu_01","name":"run_terminal_command","arguments":"{{\"command\":\"pytest -q\"}}"}}}}],"processes":[{{"type":"tool","id":"toolu_01","title":"run_terminal_command","content":"pytest -q","state":"success"}},{{"type":"tool","id":"TOOLSEARCH-2","title":"Code Search","content":"flaky","state":"success"}}]}}}}]"#
    ));
    assert_eq!(
        rows,
        [
            "|system||||session start: account=https://sourcegraph.com/-alice endpoint=https://sourcegraph.com/ username=alice|1|byte 75|live".to_string(),
            format!("|user|{m}|||run the tests|1|byte 129|live"),
            format!("|system|{m}|||model: {m}|1|byte 129|live"),
            format!("|assistant|{m}|||Running tests.|1|byte 129|live"),
            format!("|tool_use|{m}|run_terminal_command|toolu_01|{{\"command\":\"pytest -q\"}}|1|byte 129|live"),
            // a step of another id is still its own tool_use
            format!("|tool_use|{m}|Code Search|TOOLSEARCH-2|flaky|1|byte 129|live"),
        ]
    );
}

/// The prompt's steps (confirmations, tool steps) belong to the interaction and carry
/// its model, `assistantMessage.model`, as its other rows do.
#[test]
fn the_prompt_s_steps_carry_the_reply_s_model() {
    let rows = rows_of(
        r#"[{"humanMessage":{"speaker":"human","text":"deep","processes":[{"type":"confirmation","id":"c1","title":"Terminal","content":"rm y","state":"error","error":{"name":"Error","message":"Command rejected"}},{"type":"tool","id":"t1","title":"Code Search","content":"auth","state":"success"}]},"assistantMessage":{"speaker":"assistant","text":"done","model":"m1"}}]"#,
    );
    assert_eq!(
        rows[1..],
        [
            "|user|m1|||deep|1|byte 129|live",
            "|system|m1||c1|permission decision: rejected confirmation state=error error=Command rejected title=Terminal\\nrm y|1|byte 129|live",
            "|tool_use|m1|Code Search|t1|auth|1|byte 129|live",
            "|system|m1|||model: m1|1|byte 129|live",
            "|assistant|m1|||done|1|byte 129|live",
        ]
    );
}

/// Legacy XML: a user or assistant row per HUMAN or ASSISTANT message with text; a
/// message without text gives none; one with text and another speaker or none is kept
/// as a system row that says so.
#[test]
fn legacy_messages_without_text_or_speaker() {
    let xml = r#"<project version="4">
  <component name="ChatHistory">
    <accountData><list><AccountData>
      <accountId value="ACC1" />
      <chats><list><chat>
        <internalId value="id-1" />
        <llm><llm><model value="anthropic/claude-3-opus" /></llm></llm>
        <messages><list>
          <message><speaker value="HUMAN" /></message>
          <message><speaker value="ASSISTANT" /><text value="" /></message>
          <message><speaker value="ASSISTANT" /><text value="reply" /></message>
          <message><text value="nospeaker" /></message>
          <message><speaker value="SYSTEM" /><text value="other" /></message>
        </list></messages>
        <updatedAt value="2024-01-31T01:06:18.524621" />
      </chat></list></chats>
    </AccountData></list></accountData>
  </component>
</project>
"#;
    let rows = file_rows(
        FileKind::LegacyXml,
        xml.as_bytes(),
        "/home/alice/p1/.idea/cody_history.xml",
        &FileContext::default(),
        None,
    );
    // none of these messages is in a complete pair (null, "", reply, null, null by
    // position), so the migration copied none: only `chat:` and `model:` are copies
    assert_eq!(
        rows.iter().map(|r| r.secondary).collect::<Vec<_>>(),
        [true, true, false, false, false]
    );
    let got: Vec<String> = render_all(&rows)
        .into_iter()
        .map(|l| l.splitn(4, '|').nth(3).unwrap().to_string())
        .collect();
    let m = "anthropic/claude-3-opus";
    assert_eq!(
        got,
        [
            "/home/alice/p1|system||||chat: id-1 | account=ACC1 | messages=5 (legacy JetBrains history)|5|byte 144|secondary".to_string(),
            format!("/home/alice/p1|system|{m}|||model: {m}|11|byte 425|secondary"),
            format!("/home/alice/p1|assistant|{m}|||reply|11|byte 425|live"),
            format!("/home/alice/p1|system|{m}|||message without a speaker (legacy JetBrains history): nospeaker|12|byte 506|live"),
            format!("/home/alice/p1|system|{m}|||message with speaker SYSTEM (legacy JetBrains history): other|13|byte 562|live"),
        ]
    );
}

/// The old rule, step by step: a sub-message's step is kept unless a process already
/// kept has its (non-empty) id. The decoder now asks a set; the answers must be these.
fn steps_by_the_old_rule(message: &serde_json::Value) -> Vec<cody_history::decode::Process> {
    use cody_history::decode::Message;
    let one = |p: &serde_json::Value| {
        Message::from_value(&serde_json::json!({ "processes": [p] }))
            .processes
            .remove(0)
    };
    let mut kept: Vec<_> = message["processes"]
        .as_array()
        .map(|a| a.iter().filter(|p| p.is_object()).map(one).collect())
        .unwrap_or_default();
    for sub in message["subMessages"].as_array().into_iter().flatten() {
        let Some(step) = sub.get("step").filter(|s| s.is_object()) else {
            continue;
        };
        let step = one(step);
        if !kept.iter().any(|p| !p.id.is_empty() && p.id == step.id) {
            kept.push(step);
        }
    }
    kept
}

/// Sub-message steps repeating a listed process, an earlier step, or nothing, with empty
/// and missing ids, and repeats inside `processes[]` itself (kept, as before): 400
/// generated messages give the processes the old step-by-step comparison gave.
#[test]
fn sub_message_steps_are_kept_as_the_old_comparison_kept_them() {
    use cody_history::decode::Message;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let mut repeats = 0;
    for _ in 0..400 {
        let step = |next: &mut dyn FnMut(u64) -> u64| match next(5) {
            0 => serde_json::json!({ "type": "tool", "title": "no id" }),
            1 => serde_json::json!({ "type": "tool", "id": "", "title": "empty" }),
            _ => {
                serde_json::json!({ "type": "tool", "id": format!("s{}", next(6)), "title": format!("t{}", next(3)) })
            }
        };
        let processes: Vec<_> = (0..next(4)).map(|_| step(&mut next)).collect();
        let subs: Vec<_> = (0..next(9))
            .map(|_| match next(6) {
                0 => serde_json::json!({ "text": "words" }),
                1 => serde_json::json!({ "step": "not an object" }),
                _ => serde_json::json!({ "step": step(&mut next) }),
            })
            .collect();
        let message = serde_json::json!({ "processes": processes, "subMessages": subs });
        let old = steps_by_the_old_rule(&message);
        let new = Message::from_value(&message).processes;
        repeats += processes.len() + subs.len() - new.len();
        assert_eq!(new, old, "{message}");
    }
    // the generator does produce repeats for the rule to drop
    assert!(repeats > 200, "{repeats}");
}

/// The audit's shape at a modest size: one reply of 3,000 tool steps in
/// `subMessages[]`, each listed twice: 3,000 tool_use rows, in order, each once.
#[test]
fn a_reply_of_thousands_of_sub_message_steps_gives_each_once() {
    let subs: Vec<String> = (0..6000)
        .map(|i| {
            format!(
                r#"{{"step":{{"type":"tool","id":"s{}","title":"Code Search","content":"q{}"}}}}"#,
                i % 3000,
                i % 3000
            )
        })
        .collect();
    let rows = rows_of(&format!(
        r#"[{{"humanMessage":{{"speaker":"human","text":"go"}},"assistantMessage":{{"speaker":"assistant","model":"m1","text":"ok","subMessages":[{}]}}}}]"#,
        subs.join(",")
    ));
    let mut want = vec![
        "|system||||session start: account=https://sourcegraph.com/-alice endpoint=https://sourcegraph.com/ username=alice|1|byte 75|live".to_string(),
        "|user|m1|||go|1|byte 129|live".to_string(),
        "|system|m1|||model: m1|1|byte 129|live".to_string(),
        "|assistant|m1|||ok|1|byte 129|live".to_string(),
    ];
    want.extend((0..3000).map(|i| format!("|tool_use|m1|Code Search|s{i}|q{i}|1|byte 129|live")));
    assert_eq!(rows, want);
}

/// A row as `session|time|zone|project|turn|model|text|line|locator|state|secondary`.
fn flagged(r: &chat_rows::Row) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
        r.session_id,
        r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
        r.zone().map(|z| z.as_str()).unwrap_or(""),
        r.project_path,
        r.turn_type,
        r.model,
        r.text,
        r.source_line.map(|l| l.to_string()).unwrap_or_default(),
        r.source_locator,
        r.record_state,
        if r.secondary { "secondary" } else { "primary" },
    )
}

/// The audit's c4: the agent store holds the migrated pair ("continue", "ok"); the
/// legacy XML holds the pair and an unpaired "continue" the migration skipped. Every
/// row of a Cody chat has the chat's time, so while the unpaired message was a
/// secondary copy the merge took it as a twin of the agent store's "continue" and
/// dropped it. Only the migration's complete pairs are copies now: the unpaired
/// message is a primary row, and the merge keeps it.
#[test]
fn an_unpaired_legacy_message_repeating_an_earlier_prompt_is_kept_by_the_merge() {
    let store = br#"{"https://sourcegraph.com/-alice":{"chat":{"2024-01-31T01:06:18.524621":{"id":"2024-01-31T01:06:18.524621","lastInteractionTimestamp":"2024-01-31T01:06:18.524621","interactions":[{"humanMessage":{"speaker":"human","text":"continue","model":"anthropic/claude-2"},"assistantMessage":{"speaker":"assistant","text":"ok","model":"anthropic/claude-2"}}]}}}}
"#;
    let xml = r#"<project version="4">
  <component name="ChatHistory">
    <accountData><list><AccountData>
      <accountId value="VXNlkjoxEFU3NjE=" />
      <chats><list><chat>
        <internalId value="0f8b7034-9fa8-488a-a13e-09c52677008a" />
        <llm><llm><model value="anthropic/claude-2" /></llm></llm>
        <messages><list>
          <message><speaker value="HUMAN" /><text value="continue" /></message>
          <message><speaker value="ASSISTANT" /><text value="ok" /></message>
          <message><speaker value="HUMAN" /><text value="continue" /></message>
        </list></messages>
        <updatedAt value="2024-01-31T01:06:18.524621" />
      </chat></list></chats>
    </AccountData></list></accountData>
  </component>
</project>
"#;
    let ctx = FileContext::default();
    let mut rows = history_rows_from_bytes(store, "store", &ctx);
    let legacy = file_rows(
        FileKind::LegacyXml,
        xml.as_bytes(),
        "/home/u/proj/.idea/cody_history.xml",
        &ctx,
        None,
    );
    let s = "2024-01-31T01:06:18.524621|2024-01-31T01:06:18.524621|unknown";
    let m = "anthropic/claude-2";
    assert_eq!(
        legacy.iter().map(flagged).collect::<Vec<_>>(),
        [
            format!(
                "{s}|/home/u/proj|system||chat: 0f8b7034-9fa8-488a-a13e-09c52677008a | account=VXNlkjoxEFU3NjE= | messages=3 (legacy JetBrains history)|5|byte 156|secondary|secondary"
            ),
            format!("{s}|/home/u/proj|user|{m}|continue|9|byte 333|secondary|secondary"),
            format!("{s}|/home/u/proj|system|{m}|model: {m}|10|byte 413|secondary|secondary"),
            format!("{s}|/home/u/proj|assistant|{m}|ok|10|byte 413|secondary|secondary"),
            format!("{s}|/home/u/proj|user|{m}|continue|11|byte 491|live|primary"),
        ]
    );
    rows.extend(legacy);
    let (kept, dropped) = cody_history::merge(rows);
    assert_eq!(dropped, 3);
    assert_eq!(
        kept.iter().map(flagged).collect::<Vec<_>>(),
        [
            format!(
                "{s}||system||session start: account=https://sourcegraph.com/-alice endpoint=https://sourcegraph.com/ username=alice|1|byte 72|live|primary"
            ),
            format!("{s}||user|{m}|continue|1|byte 179|live|primary"),
            format!("{s}||system|{m}|model: {m}|1|byte 179|live|primary"),
            format!("{s}||assistant|{m}|ok|1|byte 179|live|primary"),
            format!(
                "{s}|/home/u/proj|system||chat: 0f8b7034-9fa8-488a-a13e-09c52677008a | account=VXNlkjoxEFU3NjE= | messages=3 (legacy JetBrains history)|5|byte 156|secondary|secondary"
            ),
            format!("{s}|/home/u/proj|user|{m}|continue|11|byte 491|live|primary"),
        ]
    );
}

/// The migration's pairing, by position: a pair is copied only when it is exactly a
/// human then an assistant message, each with text and speaker; a chat without
/// `updatedAt` is not copied at all.
#[test]
fn only_the_migrations_complete_pairs_are_copies() {
    let msg = |speaker: Option<&str>, text: Option<&str>| cody_history::LegacyMessage {
        speaker: speaker.map(str::to_string),
        text: text.map(str::to_string),
        offset: 0,
        line: 1,
    };
    let chat =
        |messages: Vec<cody_history::LegacyMessage>, updated: bool| cody_history::LegacyChat {
            updated_at: updated.then(|| "2024-01-31T01:06:18.524621".to_string()),
            messages,
            ..Default::default()
        };
    let (h, a) = (Some("HUMAN"), Some("ASSISTANT"));
    let messages = vec![
        msg(h, Some("q1")),
        msg(a, Some("a1")),
        // out of step: (assistant, human) is no pair
        msg(a, Some("stray")),
        msg(h, Some("q2")),
        // a prompt without text is null: its reply is skipped with it
        msg(h, None),
        msg(a, Some("a3")),
        // an empty text is still a text
        msg(h, Some("")),
        msg(a, Some("")),
        // a message without a speaker is null
        msg(None, Some("nospeaker")),
        msg(a, Some("a4")),
        msg(h, Some("q5")),
        msg(a, Some("a5")),
        // the unpaired trailing prompt
        msg(h, Some("last")),
    ];
    assert_eq!(
        cody_history::rows::migrated_messages(&chat(messages.clone(), true)),
        [
            true, true, false, false, false, false, true, true, false, false, true, true, false
        ]
    );
    assert_eq!(
        cody_history::rows::migrated_messages(&chat(messages, false)),
        [false; 13]
    );
}

/// The chat's project is the common parent of its local context files only: a
/// tool-state item's `cody:/tools/...` URI and a remote search result's `https:` URI name
/// no folder of the project (before 2026-12-05 their paths made the project `/`).
#[test]
fn only_local_context_files_give_the_project() {
    let rows = history_rows_from_bytes(
        &history(
            r#"[{"humanMessage":{"speaker":"human","text":"fix the login test","contextFiles":[{"type":"file","uri":{"$mid":1,"fsPath":"/home/alice/proj/tests/test_login.py","path":"/home/alice/proj/tests/test_login.py","scheme":"file"}},{"type":"file","uri":"file:///home/alice/proj/tests/conftest.py"},{"type":"file","uri":{"$mid":1,"path":"/github.com/acme/lib/-/blob/clock.py","scheme":"https","authority":"sourcegraph.com"}}]},"assistantMessage":{"speaker":"assistant","text":"Running it."}},{"humanMessage":{"speaker":"human","text":"","contextFiles":[{"type":"tool-state","uri":{"$mid":1,"path":"/tools/shell/shell-1759570200000","scheme":"cody"}}]},"assistantMessage":{"speaker":"assistant","text":"Fixed."}}]"#,
        ),
        "f",
        &FileContext::default(),
    );
    assert!(rows.len() >= 3, "{rows:#?}");
    assert!(
        rows.iter()
            .all(|r| r.project_path == "/home/alice/proj/tests"),
        "{:#?}",
        rows.iter()
            .map(|r| (&r.project_path, &r.text))
            .collect::<Vec<_>>()
    );
}
