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
