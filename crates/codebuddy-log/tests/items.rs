//! Exact rows of single item shapes, read through the store from a scratch home.
mod common;

use chat_rows::{Evidence, FileContext, Row, Store};
use codebuddy_log::CodeBuddyStore;
use common::assert_rows;

const SESSION: &str = ".codebuddy/projects/home-u-p4/s4.jsonl";

/// The rows of a session file holding `lines`, read as the scanner reads it.
fn rows_of(lines: &[&str]) -> Vec<Row> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SESSION);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let ctx = FileContext {
        display_path: SESSION.to_string(),
        ..FileContext::default()
    };
    CodeBuddyStore.read(&path, &ctx, &Evidence::new())
}

#[test]
fn a_tool_results_ui_content_and_title_are_kept_beside_its_output() {
    let rows = rows_of(&[
        r#"{"id":"c1","timestamp":1780000005000,"type":"function_call","callId":"call_e","name":"Edit","status":"completed","arguments":"{\"file_path\":\"a.py\"}","cwd":"/home/u/p4"}"#,
        r#"{"id":"r1","timestamp":1780000006000,"type":"function_call_result","callId":"call_e","name":"Edit","status":"completed","output":{"type":"text","text":"Edited a.py"},"providerData":{"toolResult":{"content":"--- a.py\n+++ a.py\n-old\n+new","title":"Edit a.py"}},"cwd":"/home/u/p4"}"#,
        // content and title already in the output: nothing more
        r#"{"id":"c2","timestamp":1780000007000,"type":"function_call","callId":"call_b","name":"Bash","status":"completed","arguments":"{}","cwd":"/home/u/p4"}"#,
        r#"{"id":"r2","timestamp":1780000008000,"type":"function_call_result","callId":"call_b","name":"Bash","status":"completed","output":{"type":"text","text":"Command: ls\nStdout: a.py\nExit Code: 0"},"providerData":{"toolResult":{"content":"Stdout: a.py","title":"ls"}},"cwd":"/home/u/p4"}"#,
        // no output: the content is the result, the title a note
        r#"{"id":"c3","timestamp":1780000009000,"type":"function_call","callId":"call_w","name":"Write","status":"completed","arguments":"{}","cwd":"/home/u/p4"}"#,
        r#"{"id":"r3","timestamp":1780000010000,"type":"function_call_result","callId":"call_w","name":"Write","status":"completed","providerData":{"toolResult":{"content":[{"type":"text","text":"wrote b.py"}],"title":"Write b.py"}},"cwd":"/home/u/p4"}"#,
    ]);
    assert_rows(
        &rows,
        &[
            r#"1|2026-05-28T20:26:45.000000Z|tool_use|s4|/home/u/p4||Edit|call_e|byte 0|live|s4.jsonl|"{\"file_path\":\"a.py\"}""#,
            r#"2|2026-05-28T20:26:46.000000Z|tool_result|s4|/home/u/p4||Edit|call_e|byte 172|live|s4.jsonl|"Edited a.py""#,
            r#"2|2026-05-28T20:26:46.000000Z|tool_result|s4|/home/u/p4||Edit|call_e|byte 172, providerData.toolResult.content|live|s4.jsonl|"--- a.py\n+++ a.py\n-old\n+new""#,
            r#"2|2026-05-28T20:26:46.000000Z|system|s4|/home/u/p4||Edit|call_e|byte 172|live|s4.jsonl|"tool result title: Edit a.py""#,
            r#"3|2026-05-28T20:26:47.000000Z|tool_use|s4|/home/u/p4||Bash|call_b|byte 453|live|s4.jsonl|"{}""#,
            r#"4|2026-05-28T20:26:48.000000Z|tool_result|s4|/home/u/p4||Bash|call_b|byte 603|live|s4.jsonl|"Command: ls\nStdout: a.py\nExit Code: 0""#,
            r#"4|2026-05-28T20:26:48.000000Z|system|s4|/home/u/p4||Bash|call_b|byte 603|live|s4.jsonl|"tool exit code: 0""#,
            r#"5|2026-05-28T20:26:49.000000Z|tool_use|s4|/home/u/p4||Write|call_w|byte 887|live|s4.jsonl|"{}""#,
            r#"6|2026-05-28T20:26:50.000000Z|tool_result|s4|/home/u/p4||Write|call_w|byte 1038|live|s4.jsonl|"wrote b.py""#,
            r#"6|2026-05-28T20:26:50.000000Z|system|s4|/home/u/p4||Write|call_w|byte 1038|live|s4.jsonl|"tool result title: Write b.py""#,
        ],
    );
}

#[test]
fn an_interrupted_answer_call_or_reasoning_is_flagged() {
    let rows = rows_of(&[
        r#"{"id":"a1","timestamp":1780000001000,"type":"message","role":"assistant","status":"incomplete","content":[{"type":"output_text","text":"partial answ"}],"cwd":"/home/u/p4"}"#,
        r#"{"id":"c1","timestamp":1780000002000,"type":"function_call","callId":"call_e","name":"Edit","status":"incomplete","arguments":"{\"file_path\":","cwd":"/home/u/p4"}"#,
        r#"{"id":"t1","timestamp":1780000003000,"type":"reasoning","status":"in_progress","content":[],"rawContent":[{"type":"reasoning_text","text":"hmm"}],"cwd":"/home/u/p4"}"#,
        // completed or without a status: nothing more
        r#"{"id":"a2","timestamp":1780000004000,"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done"}],"cwd":"/home/u/p4"}"#,
        r#"{"id":"c2","timestamp":1780000005000,"type":"function_call","callId":"call_r","name":"Read","arguments":"{}","cwd":"/home/u/p4"}"#,
        r#"{"id":"r2","timestamp":1780000006000,"type":"function_call_result","callId":"call_r","name":"Read","status":"completed","output":"x","cwd":"/home/u/p4"}"#,
    ]);
    assert_rows(
        &rows,
        &[
            r#"1|2026-05-28T20:26:41.000000Z|assistant|s4|/home/u/p4||||byte 0|live|s4.jsonl|"partial answ""#,
            r#"1|2026-05-28T20:26:41.000000Z|system|s4|/home/u/p4||||byte 0|live|s4.jsonl|"assistant status: incomplete""#,
            r#"2|2026-05-28T20:26:42.000000Z|tool_use|s4|/home/u/p4||Edit|call_e|byte 172|live|s4.jsonl|"{\"file_path\":""#,
            r#"2|2026-05-28T20:26:42.000000Z|system|s4|/home/u/p4||Edit|call_e|byte 172|live|s4.jsonl|"tool call status: incomplete""#,
            r#"2|2026-05-28T20:26:42.000000Z|system|s4|/home/u/p4||Edit|call_e|byte 172|live|s4.jsonl|"link: tool call call_e has no result in this file""#,
            r#"3|2026-05-28T20:26:43.000000Z|thinking|s4|/home/u/p4||||byte 336|live|s4.jsonl|"hmm""#,
            r#"3|2026-05-28T20:26:43.000000Z|system|s4|/home/u/p4||||byte 336|live|s4.jsonl|"thinking status: in_progress""#,
            r#"4|2026-05-28T20:26:44.000000Z|assistant|s4|/home/u/p4||||byte 502|live|s4.jsonl|"done""#,
            r#"5|2026-05-28T20:26:45.000000Z|tool_use|s4|/home/u/p4||Read|call_r|byte 665|live|s4.jsonl|"{}""#,
            r#"6|2026-05-28T20:26:46.000000Z|tool_result|s4|/home/u/p4||Read|call_r|byte 794|live|s4.jsonl|"x""#,
        ],
    );
}

#[test]
fn an_interrupted_answer_keeps_its_model_and_a_hidden_one_is_flagged_too() {
    let rows = rows_of(&[
        r#"{"id":"a1","timestamp":1780000001000,"type":"message","role":"assistant","status":"incomplete","content":[{"type":"output_text","text":"partial"}],"providerData":{"model":"m1"},"cwd":"/home/u/p4"}"#,
        r#"{"id":"a2","timestamp":1780000002000,"type":"message","role":"assistant","status":"incomplete","content":[{"type":"output_text","text":"<summary>cut"}],"providerData":{"isCompacted":true},"cwd":"/home/u/p4"}"#,
    ]);
    assert_rows(
        &rows,
        &[
            r#"1|2026-05-28T20:26:41.000000Z|system|s4|/home/u/p4||||byte 0|live|s4.jsonl|"model: m1""#,
            r#"1|2026-05-28T20:26:41.000000Z|assistant|s4|/home/u/p4|m1|||byte 0|live|s4.jsonl|"partial""#,
            r#"1|2026-05-28T20:26:41.000000Z|system|s4|/home/u/p4||||byte 0|live|s4.jsonl|"assistant status: incomplete""#,
            r#"2|2026-05-28T20:26:42.000000Z|system|s4|/home/u/p4||||byte 197|live|s4.jsonl|"hidden compaction summary (role=assistant isCompacted): <summary>cut""#,
            r#"2|2026-05-28T20:26:42.000000Z|system|s4|/home/u/p4||||byte 197|live|s4.jsonl|"assistant status: incomplete""#,
        ],
    );
}

#[test]
fn text_after_the_closing_user_query_tag_is_kept_without_the_tag() {
    let rows = rows_of(&[
        r#"{"id":"u1","timestamp":1780000007000,"type":"message","role":"user","content":[{"type":"input_text","text":"<user_query>do x</user_query>\n<attached>file.txt</attached>"}],"cwd":"/home/u/p4"}"#,
        r#"{"id":"u2","timestamp":1780000008000,"type":"message","role":"user","content":[{"type":"input_text","text":"<user_query>\nwhy is </user_query> in my text?\n</user_query>\n"}],"cwd":"/home/u/p4"}"#,
    ]);
    assert_rows(
        &rows,
        &[
            r#"1|2026-05-28T20:26:47.000000Z|system|s4|/home/u/p4||||byte 0|live|s4.jsonl|"session title: do x (from first prompt)""#,
            r#"1|2026-05-28T20:26:47.000000Z|user|s4|/home/u/p4||||byte 0|live|s4.jsonl|"do x\n<attached>file.txt</attached>""#,
            r#"2|2026-05-28T20:26:48.000000Z|user|s4|/home/u/p4||||byte 192|live|s4.jsonl|"why is </user_query> in my text?""#,
        ],
    );
}
