//! Bad input costs only itself: exact parser rows, the dirty-input harness on every
//! fixture file, and the secrets the fixtures plant never reach a row.
mod common;

use std::path::Path;

use chat_rows::dirty::{Harness, cuts_inside_a_line};
use chat_rows::write::{Format, to_bytes};
use chat_rows::{Evidence, FileContext, Row, Store};
use claude_code_log::decode::Transcript;
use claude_code_log::rows::no_persisted_outputs;
use claude_code_log::{ClaudeCodeStore, MapOptions, transcript_rows};
use common::*;

fn rows_of(bytes: &[u8]) -> Vec<Row> {
    let opts = MapOptions::new("s.jsonl", "s", &no_persisted_outputs);
    let mut rows = Vec::new();
    transcript_rows(&Transcript::from_bytes(bytes), &opts, &mut rows);
    rows
}

/// A transcript with a line of each kind of damage: bad UTF-8, not an object, torn.
const DAMAGED: [&[u8]; 6] = [
        b"{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":\"2026-06-02T09:00:00.000Z\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n",
        b"{\"type\":\"assistant\",\"uuid\":\"a1\",\"content\":\"\xff\"}\n",
        b"[1,2]\n",
        b"{\"type\":\"assistant\",\"parentUuid\":\"a1\",\"uuid\":\"a2\",\"message\":{\"id\":\"m\",\"model\":\"x\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]}}\n",
        b"{\"type\":\"user\",\"parentUuid\":\"a2\",\"uuid\":\"u2\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_8\",\"content\":\"x\"}]}}\n",
        b"{\"type\":\"user\",\"uuid\":\"u3\",\"message\":{\"cont",
];

#[test]
fn each_bad_line_is_one_parser_row() {
    let input: Vec<u8> = DAMAGED.iter().flat_map(|l| l.iter().copied()).collect();
    let expected = [
        "1|byte 0|system|session title: hi (from first prompt)",
        "1|byte 0|user|hi",
        "2|byte 124|system|parser: unparseable line (invalid UTF-8 at byte 43 of the line): {\"type\":\"assistant\",\"uuid\":\"a1\",\"content\":\"\u{fffd}\"}",
        "3|byte 171|system|parser: unparseable line (not a JSON object): [1,2]",
        "4|byte 177|system|model: x",
        "4|byte 177|tool_use|ls",
        "4|byte 177|system|link: tool call toolu_9 has no result in this file",
        "4|byte 177|system|link: parentUuid a1 is on unreadable line 2",
        "5|byte 347|tool_result|x",
        "5|byte 347|system|link: tool result toolu_8 has no tool call in this file",
        "6|byte 478|system|parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 43): {\"type\":\"user\",\"uuid\":\"u3\",\"message\":{\"cont",
    ];
    let rendered: Vec<String> = rows_of(&input)
        .into_iter()
        .map(|r| {
            let line = r.source_line.unwrap_or(0);
            [
                line.to_string(),
                r.source_locator,
                r.turn_type.to_string(),
                r.text,
            ]
            .join("|")
        })
        .collect();
    assert_eq!(rendered, expected);
}

/// Runs the harness on a transcript; the number of damaged variants reported.
fn reported_damage(rel: &str) -> usize {
    let input = fixture(rel);
    let report = Harness::new().run(&input, rows_of);
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
    report.reported()
}

#[test]
fn dirty_input_harness_on_every_fixture_transcript() {
    let files = [
        lin_session(),
        lin_subagent(),
        orphan_subagent(),
        WIN_SESSION.to_string(),
    ];
    let reported: Vec<usize> = files.iter().map(|f| reported_damage(f)).collect();
    assert!(reported.iter().all(|n| *n > 30), "{reported:?}");
}

#[test]
fn dirty_input_harness_on_every_other_fixture_file() {
    let store = ClaudeCodeStore;
    let read = |p: &Path| store.read(p, &FileContext::default(), &Evidence::new());
    for (rel, name) in [
        (format!("{LIN_HOME}/history.jsonl"), ".claude/history.jsonl"),
        (format!("{LIN_HOME}/settings.json"), ".claude/settings.json"),
        (
            "lin-ws01/home/alice/.claude.json".to_string(),
            ".claude.json",
        ),
        (
            format!("{LIN_HOME}/sessions/48213.json"),
            ".claude/sessions/48213.json",
        ),
        (
            format!("{LIN_PROJECT}/{SID_A}/subagents/agent-a1b2c3d4.meta.json"),
            ".claude/projects/-u/s/subagents/agent-a1b2c3d4.meta.json",
        ),
    ] {
        let input = fixture(&rel);
        let sub = fixture(&lin_subagent());
        let siblings: &[(&str, &[u8])] = if name.ends_with("meta.json") {
            &[(".claude/projects/-u/s/subagents/agent-a1b2c3d4.jsonl", &sub)]
        } else {
            &[]
        };
        let report = Harness::new()
            .truncations(24)
            .flips(24)
            .splices(8)
            .run_files(&input, name, siblings, |p| {
                if name.ends_with("meta.json") {
                    read(&p.with_file_name("agent-a1b2c3d4.jsonl"))
                } else {
                    read(p)
                }
            });
        report.assert_no_panics();
        if !name.ends_with(".jsonl") {
            // a whole-file JSON cut short is never valid: it must be said
            report.assert_damage_reported(
                |m| matches!(m, chat_rows::dirty::Mutation::Truncate(n) if *n < input.len() - 1),
            );
        } else {
            report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
        }
    }
}

/// The secrets the fixture builder plants (settings env, apiKeyHelper, hooks;
/// `.claude.json` userID, oauthAccount, primaryApiKey, customApiKeyResponses, MCP
/// server env and headers).
const PLANTED: &[&str] = &[
    "sk-ant-api03-SECRET-settings-env-key",
    "SECRET-apikeyhelper-token",
    "SECRET-hook-token",
    "SECRET-userid-5f1c9e",
    "SECRET-oauth-account-alice",
    "sk-ant-api03-SECRET-primary-key",
    "SECRET-approved-key-suffix",
    "ghp_SECRET_claude_mcp_env",
    "SECRET-sentry-header-token",
];

#[test]
fn planted_secrets_reach_no_output_format() {
    let files = [
        format!("{LIN_HOME}/settings.json"),
        "lin-ws01/home/alice/.claude.json".to_string(),
    ];
    let mut rows = Vec::new();
    for rel in &files {
        rows.extend(read(rel));
    }
    let all: Vec<u8> = files.iter().flat_map(|r| fixture(r)).collect();
    for s in PLANTED {
        assert!(
            all.windows(s.len()).any(|w| w == s.as_bytes()),
            "{s} is not planted"
        );
    }
    assert!(rows.len() > 15);
    for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
        let (bytes, _) = to_bytes(format, &rows).unwrap();
        for s in PLANTED {
            assert!(
                !bytes.windows(s.len()).any(|w| w == s.as_bytes()),
                "{s} in {format:?}"
            );
        }
    }
}
