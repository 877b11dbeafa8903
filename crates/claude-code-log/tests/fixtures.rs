//! The rows of the project's Claude Code fixtures, pinned: the row types of the
//! spec's Parser plan that the fixtures hold, with their exact texts. The texts the
//! fixtures lack are pinned on inputs built by the tests themselves: `queue enqueue:`,
//! the `summary` and `ai-title` title sources and `hidden system reminder (opens with
//! ...)` in `src/rows/mod.rs`; `parser: <name>.meta.json is not a JSON object`,
//! `parser: settings.json is not a JSON object` and refused persisted outputs in
//! `tests/tree.rs`.
mod common;

use common::*;

#[test]
fn linux_session_rows() {
    assert_rows(
        &lin_session(),
        &[
            r#"38||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 20631|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session title: Login rate limiting (from custom-title)""#,
            r#"1|2026-06-02T09:00:00.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 0|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"permission mode: default""#,
            r#"1|2026-06-02T09:00:00.000000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 0|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"Add rate limiting to the login endpoint""#,
            r#"2||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 437|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"file history: no tracked files message=7b1e4c2a-0000-4000-8000-000000000001 update=false""#,
            r#"3|2026-06-02T09:00:03.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 673|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"model: claude-sonnet-4-5-20250929""#,
            r#"3|2026-06-02T09:00:03.000000Z|thinking|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 673|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"The login route is in src/auth.js; first see the failing test.""#,
            r#"5|2026-06-02T09:00:05.000000Z|assistant|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 2079|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"I'll run the auth tests first.""#,
            r#"6|2026-06-02T09:00:06.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|Bash|toolu_01|byte 2752|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"cd /home/alice/src/api && npm test -- auth""#,
            r#"6|2026-06-02T09:00:06.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 2752|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-sonnet-4-5-20250929 input=1200 output=120 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"7|2026-06-02T09:00:14.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Bash|toolu_01|byte 3622|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"Exit code 1\nFAIL test/auth.test.js\n  login is not rate limited""#,
            r#"7|2026-06-02T09:00:14.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Bash|toolu_01|byte 3622|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"tool status: error""#,
            r#"8|2026-06-02T09:00:16.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|Read|toolu_02|byte 4257|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"{\"file_path\":\"/home/alice/src/api/src/auth.js\"}""#,
            r#"8|2026-06-02T09:00:16.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 4257|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-sonnet-4-5-20250929 input=1200 output=30 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"9|2026-06-02T09:00:17.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Read|toolu_02|byte 4986, output from 7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e/tool-results/toolu_02.txt|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"     1\tconst express = require('express');\n     2\tconst router = express.Router();\n    40\trouter.post('/login', login);\n""#,
            r#"10|2026-06-02T09:00:20.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|Edit|toolu_03|byte 5783|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"{\"file_path\":\"/home/alice/src/api/src/auth.js\",\"old_string\":\"router.post('/login', login);\",\"new_string\":\"router.post('/login', limiter, login);\"}""#,
            r#"10|2026-06-02T09:00:20.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 5783|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-sonnet-4-5-20250929 input=1200 output=90 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"11|2026-06-02T09:00:31.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Edit|toolu_03|byte 6611|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nUse express-rate-limit instead of a hand-written limiter""#,
            r#"11|2026-06-02T09:00:31.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Edit|toolu_03|byte 6611|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"permission decision: toolDenialKind=user-rejected tool=Edit feedback=\"Use express-rate-limit instead of a hand-written limiter\"""#,
            r#"12|2026-06-02T09:00:40.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 7490|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden system reminder (isMeta): <local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.</local-command-caveat>""#,
            r#"13|2026-06-02T09:00:40.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 8032|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden local command (opens with <command-name>): <command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>""#,
            r#"14|2026-06-02T09:00:41.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 8510|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden local command output (opens with <local-command-stdout>): <local-command-stdout>Set model to claude-opus-4-1</local-command-stdout>""#,
            r#"15||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 8949|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"permission mode: default -> acceptEdits""#,
            r#"16|2026-06-02T09:00:50.000000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 9058|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"Use express-rate-limit with this config: windowMs: 60000\nmax: 5\nstandardHeaders: true""#,
            r#"17|2026-06-02T09:00:53.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 9581|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"model: claude-sonnet-4-5-20250929 -> claude-opus-4-1-20250805""#,
            r#"17|2026-06-02T09:00:53.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|Edit|toolu_04|byte 9581|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"{\"file_path\":\"/home/alice/src/api/src/auth.js\",\"old_string\":\"router.post('/login', login);\",\"new_string\":\"router.post('/login', loginLimiter, login);\"}""#,
            r#"17|2026-06-02T09:00:53.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|||byte 9581|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=150 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"18|2026-06-02T09:00:54.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Edit|toolu_04|byte 10413|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"The file /home/alice/src/api/src/auth.js has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    40\trouter.post('/login', loginLimiter, login);""#,
            r#"18|2026-06-02T09:00:54.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Edit|toolu_04|byte 10413|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"file edit: /home/alice/src/api/src/auth.js hunks=1 user_modified=false""#,
            r#"19|2026-06-02T09:00:56.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|Agent|toolu_05|byte 11490|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"{\"description\":\"Review the limiter\",\"prompt\":\"Review the rate limiter in src/auth.js\",\"subagent_type\":\"code-reviewer\"}""#,
            r#"19|2026-06-02T09:00:56.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|||byte 11490|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=70 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"20|2026-06-02T09:01:35.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Agent|toolu_05|byte 12289|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"The limiter is correct; add a test for the 6th attempt.""#,
            r#"21|2026-06-02T09:01:37.000000Z|assistant|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|||byte 12923|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"Done: login is limited to 5 attempts per minute.""#,
            r#"21|2026-06-02T09:01:37.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|||byte 12923|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=25 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"22|2026-06-02T09:01:40.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 13618|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"api error: retry 1/10 in 2000 ms: overloaded_error""#,
            r#"23|2026-06-02T09:01:44.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 14062|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"api error: 529 overloaded: API Error: 529 Overloaded""#,
            r#"24|2026-06-02T09:02:00.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 14667|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"compaction: trigger=manual pre_tokens=48213""#,
            r#"25|2026-06-02T09:02:01.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 15142|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden compaction summary (isCompactSummary): This session is being continued from a previous conversation that ran out of context. Summary: rate limiting was added to /login.""#,
            r#"26|2026-06-02T09:02:10.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 15661|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden task notification (origin task-notification): <task-notification>\nBackground command \"npm run watch\" finished with exit code 0\n</task-notification>""#,
            r#"27|2026-06-02T09:02:20.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|Bash|toolu_06|byte 16170|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"npm run load-test""#,
            r#"27|2026-06-02T09:02:20.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit|claude-opus-4-1-20250805|||byte 16170|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=40 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"28|2026-06-02T09:02:40.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Bash|toolu_06|byte 16917|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"[Request interrupted by user for tool use]""#,
            r#"28|2026-06-02T09:02:40.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Bash|toolu_06|byte 16917|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"tool status: error""#,
            r#"28|2026-06-02T09:02:40.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||Bash|toolu_06|byte 16917|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"tool status: interrupted""#,
            r#"29|2026-06-02T09:02:41.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 17478|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hidden interruption (interruptedMessageId=msg_07): [Request interrupted by user for tool use]""#,
            r#"30|2026-06-02T09:02:42.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 17943|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"prompt queued: delivered at line 31""#,
            r#"31|2026-06-02T09:02:50.000000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 18130|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"also add a test for the 6th attempt""#,
            r#"32|2026-06-02T09:02:51.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 18575|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"queue remove: and update the changelog""#,
            r#"33|2026-06-02T09:02:55.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 18750|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"hook: PostToolUse:Edit PostToolUse: eslint: 0 problems""#,
            r#"34|2026-06-02T09:02:56.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 19214|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"edited file: /home/alice/src/api/src/auth.js""#,
            r#"36|2026-06-02T09:03:00.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 20038|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"turn duration: 84000 ms, 31 messages""#,
            r#"37|2026-06-02T09:03:05.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 20430|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session ref: pr https://github.com/example/api/pull/42""#,
            r#"41||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 20974|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session meta: mode=normal""#,
            r#"42||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21057|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session synced: bridge session bridge_01 account=acct-7f3e""#,
            r#"44||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21304|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"file history: file=src/auth.js backup=5e2a9c1b0d7f4e36@v1 version=1 backup_time=2026-06-02T09:00:53.000Z message=p2-msg update=true""#,
            r#"46||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21786|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session meta: worktree=none""#,
            r#"47|2026-06-02T09:03:20.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21883|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"permission mode: acceptEdits -> plan""#,
            r#"47|2026-06-02T09:03:20.000000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21883|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"thanks""#,
            r#"47|2026-06-02T09:03:20.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|feature/rate-limit||||byte 21883|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"link: parentUuid 5b1e4c2a-0000-4000-8000-000000000999 not found in this file""#,
            r#"48||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 22279|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"cwd changed: /home/alice/src/api-v2""#,
            r#"49||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 22391|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session continued in: d1e2f3a4-0000-4000-8000-000000000001""#,
            r#"50||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 22528|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"file attribution: file=/home/alice/src/api/src/auth.js claude_chars=412 content_hash=9f2c41d07be3a5e8""#,
            r#"50||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 22528|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"attribution counts: prompts=2 prompts_at_last_commit=0 permission_prompts=1 permission_prompts_at_last_commit=0 escapes=0 escapes_at_last_commit=0 surface=cli""#,
            r#"51|2026-06-02T09:03:21.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 22907|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"task summary: Adding a login rate limiter to src/auth.js""#,
            r#"52||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit|claude-opus-4-1-20250805|||byte 23076|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=150 cache_read=18000 cache_write=0 reasoning=40 scope=session""#,
            r#"52||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit|claude-sonnet-4-5-20250929|||byte 23076|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"usage: model=claude-sonnet-4-5-20250929 input=3600 output=240 cache_read=54000 cache_write=0 reasoning=- scope=session""#,
            r#"52||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api-v2|feature/rate-limit||||byte 23076|live|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl|"session totals: cost_usd=0.1832 duration_ms=202000 api_duration_ms=41200 tool_duration_ms=23800 lines_added=6 lines_removed=1 started=2026-06-02T09:00:00.000000Z unknown_model_cost=false""#,
            r#"||tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api||||toolu_s1|whole file|live|toolu_s1.txt|"     1\tconst express = require('express');\n    40\trouter.post('/login', loginLimiter, login);\n""#,
            r#"||system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api||||toolu_s1|path|live|toolu_s1.txt|"persisted output 7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e/tool-results/toolu_s1.txt is not pointed to by any readable line of the session file""#,
        ],
    );
}

#[test]
fn linux_subagent_rows() {
    assert_rows(
        &lin_subagent(),
        &[
            r#"|2026-06-02T09:00:57.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit||||whole file|live|agent-a1b2c3d4.meta.json|"session start: parent=7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e agent=code-reviewer description=\"Review the limiter\" tool_use=toolu_05 model=claude-haiku-4-5-20251001 depth=1 fork=false agent_file=agent-a1b2c3d4""#,
            r#"1|2026-06-02T09:00:57.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit||||byte 0|live|agent-a1b2c3d4.jsonl|"session title: Review the rate limiter in src/auth.js (from first prompt)""#,
            r#"1|2026-06-02T09:00:57.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit||||byte 0|live|agent-a1b2c3d4.jsonl|"subagent task: Review the rate limiter in src/auth.js""#,
            r#"2|2026-06-02T09:01:00.000000Z|tool_use|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit|claude-haiku-4-5-20251001|Read|toolu_s1|byte 390|live|agent-a1b2c3d4.jsonl|"{\"file_path\":\"/home/alice/src/api/src/auth.js\"}""#,
            r#"2|2026-06-02T09:01:00.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit|claude-haiku-4-5-20251001|||byte 390|live|agent-a1b2c3d4.jsonl|"usage: model=claude-haiku-4-5-20251001 input=1200 output=20 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"3|2026-06-02T09:01:01.000000Z|tool_result|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit||Read|toolu_s1|byte 1138, output from 7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e/tool-results/toolu_s1.txt|live|agent-a1b2c3d4.jsonl|"     1\tconst express = require('express');\n    40\trouter.post('/login', loginLimiter, login);\n""#,
            r#"4|2026-06-02T09:01:33.000000Z|assistant|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit|claude-haiku-4-5-20251001|||byte 1854|live|agent-a1b2c3d4.jsonl|"The limiter is correct; add a test for the 6th attempt.""#,
            r#"4|2026-06-02T09:01:33.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e:agent-a1b2c3d4|/home/alice/src/api|feature/rate-limit|claude-haiku-4-5-20251001|||byte 1854|live|agent-a1b2c3d4.jsonl|"usage: model=claude-haiku-4-5-20251001 input=1200 output=18 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
        ],
    );
}

#[test]
fn subagent_of_a_deleted_session() {
    assert_rows(
        &orphan_subagent(),
        &[
            r#"|2026-04-23T10:00:00.000000Z|system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main||||path|live|agent-c0ffee00.jsonl|"session start: parent=c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f agent_file=agent-c0ffee00 parent_from=path""#,
            r#"||system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|||||path|live|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f.jsonl|"session file missing: c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f.jsonl (only its sub-agent files remain)""#,
            r#"1|2026-04-23T10:00:00.000000Z|system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main||||byte 0|live|agent-c0ffee00.jsonl|"session title: List every place the staging password is read (from first prompt)""#,
            r#"1|2026-04-23T10:00:00.000000Z|system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main||||byte 0|live|agent-c0ffee00.jsonl|"subagent task: List every place the staging password is read""#,
            r#"2|2026-04-23T10:00:04.000000Z|system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main||||byte 383|live|agent-c0ffee00.jsonl|"model: claude-haiku-4-5-20251001""#,
            r#"2|2026-04-23T10:00:04.000000Z|assistant|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main|claude-haiku-4-5-20251001|||byte 383|live|agent-c0ffee00.jsonl|"It is read in config/staging.js and scripts/migrate.sh.""#,
            r#"2|2026-04-23T10:00:04.000000Z|system|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f:agent-c0ffee00|/home/alice/src/api|main|claude-haiku-4-5-20251001|||byte 383|live|agent-c0ffee00.jsonl|"usage: model=claude-haiku-4-5-20251001 input=1200 output=22 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
        ],
    );
}

#[test]
fn windows_session_rows() {
    assert_rows(
        WIN_SESSION,
        &[
            r#"1|2026-06-21T14:00:00.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 0|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"session title: List the services that are stopped among these: Spooler (from first prompt)""#,
            r#"1|2026-06-21T14:00:00.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 0|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"permission mode: plan""#,
            r#"1|2026-06-21T14:00:00.000000Z|user|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 0|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"List the services that are stopped among these: Spooler\nBITS\nwuauserv""#,
            r#"2|2026-06-21T14:00:02.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 436|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"model: claude-sonnet-4-5-20250929""#,
            r#"2|2026-06-21T14:00:02.000000Z|tool_use|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-sonnet-4-5-20250929|PowerShell|toolu_w1|byte 436|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"{\"command\":\"Get-Service | Where-Object Status -eq Stopped\"}""#,
            r#"2|2026-06-21T14:00:02.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-sonnet-4-5-20250929|||byte 436|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"usage: model=claude-sonnet-4-5-20250929 input=1200 output=30 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"3|2026-06-21T14:00:05.000000Z|tool_result|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||PowerShell|toolu_w1|byte 1176|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"<persisted-output>\nOutput too large (1.2MB). Full output saved to: C:\\Users\\carol\\.claude\\projects\\C--Users-carol-src-app\\e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b\\tool-results\\toolu_w1.txt\n\nPreview (first 2KB):\nStatus   Name      DisplayName\n</persisted-output>""#,
            r#"3|2026-06-21T14:00:05.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||PowerShell|toolu_w1|byte 1176|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"persisted output e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b/tool-results/toolu_w1.txt not read (not in the evidence); the result keeps the pointer""#,
            r#"4||system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 1865|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"permission mode: plan -> bypassPermissions""#,
            r#"5|2026-06-21T14:00:20.000000Z|user|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 1980|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"Start the Spooler service\n[image image/png, 70 bytes]""#,
            r#"6|2026-06-21T14:00:22.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 2617|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"model: claude-sonnet-4-5-20250929 -> claude-opus-4-1-20250805""#,
            r#"6|2026-06-21T14:00:22.000000Z|tool_use|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-opus-4-1-20250805|PowerShell|toolu_w2|byte 2617|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"{\"command\":\"Start-Service Spooler\"}""#,
            r#"6|2026-06-21T14:00:22.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-opus-4-1-20250805|||byte 2617|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=25 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"7|2026-06-21T14:00:24.000000Z|tool_result|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||PowerShell|toolu_w2|byte 3331|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"Start-Service : Service 'Print Spooler (Spooler)' cannot be started. Access is denied.""#,
            r#"7|2026-06-21T14:00:24.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||PowerShell|toolu_w2|byte 3331|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"tool status: error""#,
            r#"8|2026-06-21T14:00:26.000000Z|thinking|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-opus-4-1-20250805|||byte 3895|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"[redacted thinking]""#,
            r#"9|2026-06-21T14:00:27.000000Z|assistant|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-opus-4-1-20250805|||byte 4553|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"The Print Spooler could not be started: access is denied.""#,
            r#"9|2026-06-21T14:00:27.000000Z|system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main|claude-opus-4-1-20250805|||byte 4553|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"usage: model=claude-opus-4-1-20250805 input=1200 output=30 cache_read=18000 cache_write=0 reasoning=- scope=call""#,
            r#"10||system|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|main||||byte 5250|live|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl|"parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 90): {\"parentUuid\":\"e4f5a6b7-0000-4000-8000-000000000008\",\"isSidechain\":false,\"type\":\"user\",\"me""#,
        ],
    );
}

#[test]
fn history_rows() {
    assert_rows(
        &format!("{LIN_HOME}/history.jsonl"),
        &[
            r#"1|2026-04-23T09:59:30.000000Z|user|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f|/home/alice/src/api|||||byte 0|secondary|history.jsonl|"Rotate the staging database password""#,
            r#"2|2026-04-23T09:59:59.000000Z|user|c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f|/home/alice/src/api|||||byte 180|secondary|history.jsonl|"Now find where it is read [Pasted text #1 +2 lines]\n[pasted text #1 in paste-cache/9f86d081884c7d65, not read]""#,
            r#"3|2026-06-02T09:00:00.150000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||byte 434|secondary|history.jsonl|"Add rate limiting to the login endpoint""#,
            r#"4|2026-06-02T09:00:40.000000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||byte 617|secondary|history.jsonl|"/model opus""#,
            r#"5|2026-06-02T09:00:50.210000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||byte 772|secondary|history.jsonl|"Use express-rate-limit with this config: windowMs: 60000\nmax: 5\nstandardHeaders: true""#,
            r#"6|2026-06-02T09:02:42.300000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||byte 1067|secondary|history.jsonl|"also add a test for the 6th attempt""#,
            r#"7||system|||||||byte 1246|live|history.jsonl|"parser: unparseable line (EOF while parsing an object at line 1 column 39): {\"display\":\"half a line\",\"timestamp\":17""#,
            r#"8|2026-06-02T09:03:19.800000Z|user|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||byte 1286|secondary|history.jsonl|"thanks""#,
        ],
    );
    assert_rows(
        &format!("{WIN_HOME}/history.jsonl"),
        &[
            r#"1|2026-06-21T14:00:00.090000Z|user|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|||||byte 0|secondary|history.jsonl|"List the services that are stopped among these: Spooler\nBITS\nwuauserv""#,
            r#"2|2026-06-21T14:00:20.100000Z|user|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|||||byte 283|secondary|history.jsonl|"Start the Spooler service\n[image image/png, 70 bytes]""#,
            r#"3|2026-06-21T14:00:40.000000Z|user|e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b|C:\Users\carol\src\app|||||byte 497|secondary|history.jsonl|"Run it as admin""#,
        ],
    );
}

#[test]
fn settings_rows() {
    assert_rows(
        &format!("{LIN_HOME}/settings.json"),
        &[
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.allow=Bash(npm run test:*) (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.allow=Read(~/src/**) (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.deny=Bash(curl:*) (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.deny=Read(./.env) (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.defaultMode=default (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"model setting: model=claude-opus-4-1 (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"retention setting: cleanupPeriodDays=30 (from lin-ws01/home/alice/.claude/settings.json, file mtime)""#,
        ],
    );
    assert_rows(
        &format!("{LIN_HOME}/settings.local.json"),
        &[
            r#"|mtime|system|||||||whole file|live|settings.local.json|"permission setting: permissions.allow=Bash(git push:*) (from lin-ws01/home/alice/.claude/settings.local.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.local.json|"permission setting: permissions.ask=Bash(rm:*) (from lin-ws01/home/alice/.claude/settings.local.json, file mtime)""#,
        ],
    );
    assert_rows(
        "lin-ws01/home/alice/src/api/.claude/settings.local.json",
        &[
            r#"|mtime|system||lin-ws01/home/alice/src/api|||||whole file|live|settings.local.json|"permission setting: permissions.allow=Edit(src/**) (from lin-ws01/home/alice/src/api/.claude/settings.local.json, file mtime)""#,
            r#"|mtime|system||lin-ws01/home/alice/src/api|||||whole file|live|settings.local.json|"permission setting: permissions.allow=Bash(npm install:*) (from lin-ws01/home/alice/src/api/.claude/settings.local.json, file mtime)""#,
            r#"|mtime|system||lin-ws01/home/alice/src/api|||||whole file|live|settings.local.json|"permission setting: permissions.additionalDirectories=../shared-config (from lin-ws01/home/alice/src/api/.claude/settings.local.json, file mtime)""#,
        ],
    );
    assert_rows(
        "lin-ws01/etc/claude-code/managed-settings.json",
        &[
            r#"|mtime|system|||||||whole file|live|managed-settings.json|"permission setting: permissions.deny=Bash(sudo:*) (from lin-ws01/etc/claude-code/managed-settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|managed-settings.json|"permission setting: permissions.disableBypassPermissionsMode=disable (from lin-ws01/etc/claude-code/managed-settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|managed-settings.json|"retention setting: cleanupPeriodDays=14 (from lin-ws01/etc/claude-code/managed-settings.json, file mtime)""#,
        ],
    );
    assert_rows(
        &format!("{WIN_HOME}/settings.json"),
        &[
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.allow=PowerShell(Get-Service:*) (from WIN-DESK03/C/Users/carol/.claude/settings.json, file mtime)""#,
            r#"|mtime|system|||||||whole file|live|settings.json|"permission setting: permissions.defaultMode=plan (from WIN-DESK03/C/Users/carol/.claude/settings.json, file mtime)""#,
        ],
    );
}

#[test]
fn global_state_and_register_rows() {
    assert_rows(
        "lin-ws01/home/alice/.claude.json",
        &[
            r#"|mtime|system|||||||whole file|live|.claude.json|"mcp server configured: github scope=user (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"permission setting: hasTrustDialogAccepted=true location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"permission setting: hasTrustDialogHooksAccepted=false location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"permission setting: allowedTools=Bash(npm test) location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"permission setting: enabledMcpjsonServers=sentry location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"permission setting: disabledMcpjsonServers=legacy-db location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"|mtime|system||/home/alice/src/api|||||whole file|live|.claude.json|"mcp server configured: sentry location=/home/alice/src/api (from .claude.json, file mtime)""#,
            r#"||user||/home/alice/src/api|||||projects["/home/alice/src/api"].history[0]|secondary|.claude.json|"Add rate limiting to the login endpoint""#,
            r#"||user||/home/alice/src/api|||||projects["/home/alice/src/api"].history[1]|secondary|.claude.json|"Explain the auth middleware""#,
            r#"|mtime|system||/tmp/scratch|||||whole file|live|.claude.json|"permission setting: hasTrustDialogAccepted=false location=/tmp/scratch (from .claude.json, file mtime)""#,
        ],
    );
    assert_rows(
        &format!("{LIN_HOME}/sessions/48213.json"),
        &[
            r#"|2026-06-02T08:59:55.000000Z|system|7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e|/home/alice/src/api|||||whole file|secondary|48213.json|"session index: pid=48213 kind=interactive entrypoint=cli version=2.1.289 name=\"api rate limit\" status=idle""#,
        ],
    );
}

#[test]
fn side_files_beside_their_session_give_no_rows_of_their_own() {
    for rel in [
        format!("{LIN_PROJECT}/{SID_A}/subagents/agent-a1b2c3d4.meta.json"),
        format!("{LIN_PROJECT}/{SID_A}/tool-results/toolu_02.txt"),
        format!("{LIN_PROJECT}/{SID_A}/tool-results/toolu_s1.txt"),
    ] {
        assert_eq!(read(&rel), Vec::new(), "{rel}");
    }
}
