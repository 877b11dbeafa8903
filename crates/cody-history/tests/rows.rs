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
    assert!(rows.iter().all(|r| r.secondary));
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
            format!("/home/alice/p1|assistant|{m}|||reply|11|byte 425|secondary"),
            format!("/home/alice/p1|system|{m}|||message without a speaker (legacy JetBrains history): nospeaker|12|byte 506|secondary"),
            format!("/home/alice/p1|system|{m}|||message with speaker SYSTEM (legacy JetBrains history): other|13|byte 562|secondary"),
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
