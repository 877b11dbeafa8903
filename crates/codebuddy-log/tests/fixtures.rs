//! The rows of the project's CodeBuddy and WorkBuddy fixtures, pinned.
mod common;

use common::*;

#[test]
fn linux_session_rows() {
    let rows = read(&lin_session());
    assert_rows(
        &rows,
        &[
            r#"||system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||whole file|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.meta.json|"session meta: permissionMode=default tags=\"[\\\"checkout\\\"]\"""#,
            r#"21|2026-05-28T20:29:20.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 5927|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"session title: Checkout discount fix (from custom-title)""#,
            r#"1|2026-05-28T20:26:40.000000Z|user|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 0|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Fix the failing checkout test""#,
            r#"1|2026-05-28T20:26:40.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 0|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden system reminder (opens with <system-reminder>): <system-reminder>\nThe user opened src/cart.ts in the editor.\n</system-reminder>""#,
            r#"2|2026-05-28T20:26:41.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 395|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"file history: file=src/cart.ts backup=9f2c1b7a4e3d8c60@v1 version=1 backup_time=2026-05-28T20:26:41.000Z message=u1 update=false""#,
            r#"3|2026-05-28T20:26:42.000000Z|thinking|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 678|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"The test expects the 10% discount to apply before tax.""#,
            r#"4|2026-05-28T20:26:43.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_1|byte 929|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"command\":\"npm test -- checkout\"}""#,
            r#"5|2026-05-28T20:26:49.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_1|byte 1224|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Command: npm test -- checkout\nStdout: FAIL test/checkout.test.ts\n  expected 90, received 99\nStderr: \nExit Code: 1\nSignal: (none)""#,
            r#"5|2026-05-28T20:26:49.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_1|byte 1224|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"tool exit code: 1""#,
            r#"6|2026-05-28T20:26:50.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Read|call_read_1|byte 1650|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"file_path\":\"/home/alice/src/shop/src/cart.ts\"}""#,
            r#"7|2026-05-28T20:26:51.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Read|call_read_1|byte 1914, output from 3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10/tool-results/call_read_1.txt|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"     1\texport function total(items) {\n     2\t  const sum = items.reduce((a, i) => a + i.price, 0);\n     3\t  return sum * TAX;\n     4\t}\n""#,
            r#"8|2026-05-28T20:27:00.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Edit|call_edit_1|byte 2424|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"file_path\":\"/home/alice/src/shop/src/cart.ts\",\"old_string\":\"return sum * TAX;\",\"new_string\":\"return applyDiscount(sum) * TAX;\"}""#,
            r#"8|2026-05-28T20:27:00.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Edit|call_edit_1|byte 2424|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"link: tool call call_edit_1 has its result on unreadable line 9""#,
            r#"9||system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 2777|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"parser: unparseable line (EOF while parsing a string at line 1 column 120): {\"id\":\"fr3\",\"parentId\":\"fc3\",\"timestamp\":1780000021000,\"type\":\"function_call_result\",\"callId\":\"call_edit_1\",\"name\":\"Edit""#,
            r#"10|2026-05-28T20:27:02.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Agent|call_agent_1|byte 2898|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"description\":\"Review the fix\",\"prompt\":\"Review the discount change in src/cart.ts\",\"subagent_type\":\"code-reviewer\"}""#,
            r#"10|2026-05-28T20:27:02.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 2898|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"link: parentId fr3 is on unreadable line 9""#,
            r#"11|2026-05-28T20:27:40.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Agent|call_agent_1|byte 3241|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"The change is correct; add a test for a zero discount.""#,
            r#"12|2026-05-28T20:27:41.000000Z|assistant|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 3536|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Fixed: the discount now applies before tax, and the checkout test passes.""#,
            r#"12|2026-05-28T20:27:41.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 3536|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"link: parentId fr3 is on unreadable line 9""#,
            r#"13|2026-05-28T20:27:42.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 3826|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"session summary (periodic): Fixing the checkout discount test""#,
            r#"14|2026-05-28T20:27:43.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 3954|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"ai title: Fix checkout discount test""#,
            r#"15|2026-05-28T20:28:20.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 4119|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden local command (skipRun): <command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>""#,
            r#"16|2026-05-28T20:28:21.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 4435|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden compaction prompt (agent=compact): Your task is to create a detailed summary of the conversation so far.""#,
            r#"17|2026-05-28T20:28:50.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 4697|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden compaction summary (isCompacted isSummary isCompactInternal compactType=user-command): <cb_summary>\nThe user asked to fix the checkout test; the discount now applies before tax.\n</cb_summary>""#,
            r#"18|2026-05-28T20:28:51.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 5105|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden local command output (skipRun): <local-command-stdout>Compacted. ctrl+o to see full summary</local-command-stdout>""#,
            r#"19|2026-05-28T20:29:00.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 5391|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden meta message (isMeta): PostToolUse hook: eslint passed with 0 warnings.""#,
            r#"20|2026-05-28T20:29:10.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 5642|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"hidden teammate message (opens with <teammate-message>): <teammate-message from=\"reviewer\">Please also cover the zero-discount case.</teammate-message>""#,
            r#"21|2026-05-28T20:29:20.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 5927|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"custom title: Checkout discount fix""#,
            r#"22|2026-05-28T20:29:21.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 6106|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"topic: checkout tests""#,
            r#"23|2026-05-28T20:29:30.000000Z|user|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 6174|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Now run the full suite""#,
            r#"23|2026-05-28T20:29:30.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 6174|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"link: parentId u-gone not found in this file""#,
            r#"24|2026-05-28T20:29:31.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_2|byte 6414|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"command\":\"npm test\"}""#,
            r#"25|2026-05-28T20:30:30.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_2|byte 6651|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Command: npm test\nStdout: \nStderr: \nExit Code: (none)\nSignal: SIGINT""#,
            r#"25|2026-05-28T20:30:30.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_2|byte 6651|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"tool status: incomplete""#,
            r#"25|2026-05-28T20:30:30.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_2|byte 6651|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"tool exit code: none signal=SIGINT""#,
            r#"26|2026-05-28T20:30:40.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 6963|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"resend fork notice: parent=u8 edited=u8""#,
            r#"27|2026-05-28T20:30:41.000000Z|user|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 7155|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Now run the full suite with coverage""#,
            r#"28|2026-05-28T20:30:42.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_3|byte 7406|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"command\":\"npm test -- --coverage\"}""#,
            r#"29|2026-05-28T20:31:40.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_3|byte 7657|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"Command: npm test -- --coverage\nStdout: 42 passed, coverage 91%\nStderr: \nExit Code: 0\nSignal: (none)""#,
            r#"29|2026-05-28T20:31:40.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Bash|call_bash_3|byte 7657|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"tool exit code: 0""#,
            r#"30|2026-05-28T20:31:41.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8000|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"goal progress: completed=2 note=\"2 of 3 suites pass\" total=3""#,
            r#"31|2026-05-28T20:31:42.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8132|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"goal result: ok=true reason=\"all suites pass\" condition=\"npm test exits 0\" durationMs=61000 turnCount=3 tokenDelta=15231""#,
            r#"32|2026-05-28T20:31:43.000000Z|assistant|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8330|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"All 42 tests pass with 91% coverage.""#,
            r#"33|2026-05-28T20:31:44.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8583|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"file history: file=src/cart.ts backup=9f2c1b7a4e3d8c60@v2 version=2 backup_time=2026-05-28T20:31:44.000Z message=u9 update=true""#,
            r#"33|2026-05-28T20:31:44.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8583|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"file history: file=test/checkout.test.ts version=1 backup_time=2026-05-28T20:31:44.000Z message=u9 update=true""#,
            r#"34|2026-05-28T20:33:20.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 8965|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"session cleared (/clear)""#,
            r#"35|2026-05-28T20:33:30.000000Z|user|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 9137|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"What does cart.ts export?""#,
            r#"36|2026-05-28T20:33:31.000000Z|tool_use|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Grep|call_grep_1|byte 9377|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"{\"pattern\":\"^export\",\"path\":\"src/cart.ts\"}""#,
            r#"37|2026-05-28T20:33:32.000000Z|tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Grep|call_grep_1|byte 9639|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"src/cart.ts:1:export function total(items) {\nsrc/cart.ts:9:export function applyDiscount(sum) {""#,
            r#"38|2026-05-28T20:33:33.000000Z|assistant|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 9916|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"It exports total and applyDiscount.""#,
            r#"39|2026-05-28T20:33:34.000000Z|system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||||byte 10168|live|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl|"unknown record type turn-metrics: {\"timestamp\":1780000414000,\"type\":\"turn-metrics\",\"durationMs\":3100,\"inputTokens\":812,\"outputTokens\":40,\"cwd\":\"/home/alice/src/shop\"}""#,
            r#"||tool_result|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Edit|call_edit_1|whole file|live|call_edit_1.txt|"The file src/cart.ts has been updated. Here's the result of running `cat -n` on a snippet:\n     3\t  return applyDiscount(sum) * TAX;\n""#,
            r#"||system|3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10|/home/alice/src/shop||Edit|call_edit_1|path|live|call_edit_1.txt|"persisted output 3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10/tool-results/call_edit_1.txt is not pointed to by any readable line of the session file""#,
        ],
    );
}

#[test]
fn linux_subagent_rows() {
    let rows = read(&lin_subagent());
    assert_rows(
        &rows,
        &[
            r#"|2026-05-28T20:27:03.000000Z|system|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||||whole file|live|agent-5e1f0c2a.meta.json|"session start: parent=3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10 task=task_7 agent=code-reviewer task_name=\"Review the fix\" root_request=req_1 parent_conversation=conv_1 agent_file=agent-5e1f0c2a""#,
            r#"1|2026-05-28T20:27:03.000000Z|system|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||||byte 0|live|agent-5e1f0c2a.jsonl|"session title: Review the discount change in src/cart.ts (from first prompt)""#,
            // the parent's model wrote it: the sub-agent's task, not the person's words
            r#"1|2026-05-28T20:27:03.000000Z|system|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||||byte 0|live|agent-5e1f0c2a.jsonl|"subagent task: Review the discount change in src/cart.ts""#,
            r#"2|2026-05-28T20:27:03.000000Z|system|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||||byte 314|live|agent-5e1f0c2a.jsonl|"hidden local command (skipRun isMeta): <command-name>/review-skill</command-name>\nLoaded skill: code review checklist""#,
            r#"3|2026-05-28T20:27:05.000000Z|tool_use|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||Read|call_sub_read|byte 712|live|agent-5e1f0c2a.jsonl|"{\"file_path\":\"/home/alice/src/shop/src/cart.ts\"}""#,
            r#"4|2026-05-28T20:27:06.000000Z|tool_result|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||Read|call_sub_read|byte 1077|live|agent-5e1f0c2a.jsonl|"     3\t  return applyDiscount(sum) * TAX;""#,
            r#"5|2026-05-28T20:27:38.000000Z|assistant|5e1f0c2a-7d3b-4c8e-a1f6-0b9d2e4c7a35|/home/alice/src/shop||||byte 1459|live|agent-5e1f0c2a.jsonl|"The change is correct; add a test for a zero discount.""#,
        ],
    );
}

#[test]
fn workbuddy_session_rows() {
    let rows = read(MAC_SESSION);
    assert_rows(
        &rows,
        &[
            r#"1|2026-06-09T10:13:20.000000Z|system|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||||byte 0|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"session title: Summarise sales.csv by region (from first prompt)""#,
            r#"1|2026-06-09T10:13:20.000000Z|user|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||||byte 0|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"Summarise sales.csv by region""#,
            r#"2|2026-06-09T10:13:22.000000Z|tool_use|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||Bash|call_w_1|byte 288|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"{\"command\":\"python3 summarise.py sales.csv\"}""#,
            r#"3|2026-06-09T10:13:25.000000Z|tool_result|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||Bash|call_w_1|byte 553|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"Command: python3 summarise.py sales.csv\nStdout: EMEA 1200\nAPAC 950\nStderr: \nExit Code: 0\nSignal: (none)""#,
            r#"3|2026-06-09T10:13:25.000000Z|system|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||Bash|call_w_1|byte 553|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"tool exit code: 0""#,
            r#"4|2026-06-09T10:13:26.000000Z|assistant|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||||byte 905|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"EMEA leads with 1200, then APAC with 950.""#,
            r#"5|2026-06-09T10:13:27.000000Z|system|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||||byte 1172|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"unknown record type session-meta: {\"timestamp\":1781000007000,\"type\":\"session-meta\",\"model\":\"deepseek-v3.1\",\"source\":\"workbuddy\",\"cwd\":\"/Users/bob/Documents/q3-report\"}""#,
            r#"6||system|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f|/Users/bob/Documents/q3-report||||byte 1306|live|8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl|"parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 147): {\"id\":\"w5\",\"parentId\":\"w4\",\"timestamp\":1781000008000,\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"<user_query>Now plot it""#,
        ],
    );
}

#[test]
fn windows_session_rows() {
    let rows = read(WIN_SESSION);
    assert_rows(
        &rows,
        &[
            r#"1|2026-06-21T00:00:00.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||||byte 0|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"session title: List the services that are stopped (from first prompt)""#,
            r#"1|2026-06-21T00:00:00.000000Z|user|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||||byte 0|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"List the services that are stopped""#,
            r#"2|2026-06-21T00:00:01.000000Z|tool_use|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_1|byte 289|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"{\"command\":\"Get-Service | Where-Object Status -eq Stopped\"}""#,
            r#"3|2026-06-21T00:00:03.000000Z|tool_result|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_1|byte 572|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"Status   Name      DisplayName\n------   ----      -----------\nStopped  Spooler   Print Spooler""#,
            r#"3|2026-06-21T00:00:03.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_1|byte 572|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"tool exit code: 0 (implied: PowerShell prints no Exit Code line on success)""#,
            r#"4|2026-06-21T00:00:04.000000Z|tool_use|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_2|byte 915|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"{\"command\":\"Start-Service Spooler\"}""#,
            r#"5|2026-06-21T00:00:06.000000Z|tool_result|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_2|byte 1174|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"Start-Service : Service 'Print Spooler (Spooler)' cannot be started.\nExit Code: 1 (Access is denied)""#,
            r#"5|2026-06-21T00:00:06.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_2|byte 1174|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"tool exit code: 1 (Access is denied)""#,
            r#"6|2026-06-21T00:00:07.000000Z|tool_use|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_3|byte 1522|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"{\"command\":\"Get-EventLog -LogName System -Newest 5000\"}""#,
            r#"7|2026-06-21T00:00:09.000000Z|tool_result|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_3|byte 1801|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"<persisted-output>\nOutput too large (1.2MB). Full output saved to: C:\\Users\\carol\\.codebuddy\\projects\\c-Users-carol-src-app\\c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f\\tool-results\\call_ps_3.txt\n\nPreview (first 2KB):\n   Index Time          EntryType   Source\n</persisted-output>""#,
            r#"7|2026-06-21T00:00:09.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||PowerShell|call_ps_3|byte 1801|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"persisted output c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f/tool-results/call_ps_3.txt not read (not in the evidence); the result keeps the pointer""#,
            r#"8|2026-06-21T00:00:10.000000Z|assistant|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||||byte 2332|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"The Print Spooler is stopped and could not be started: access is denied.""#,
            r#"9|2026-06-21T00:00:20.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||||byte 2626|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"hidden teammate message (teammateMessage): Can you restart it as administrator instead?""#,
            r#"10|2026-06-21T00:00:30.000000Z|system|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f|c:\Users\carol\src\app||||byte 2903|live|c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl|"hidden task notification (isMeta): <task-notification>\nBackground task bash_2 finished with exit code 0\n</task-notification>""#,
        ],
    );
}
