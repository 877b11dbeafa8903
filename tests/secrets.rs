//! Secrets stay out: the whole output of a scan of the project's evidence tree, in every
//! format, holds none of the secrets the fixtures plant (tokens, API keys, password
//! hashes, MCP servers' env and args, `secret://` rows), although they are all in the files read.

use std::path::{Path, PathBuf};

use ai_chat_forensics::Scanner;
use ai_chat_forensics::chat_rows::write::{Format, to_bytes};

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

/// The secrets planted in `fixtures/evidence` by the store crates' builders.
const PLANTED: &[&str] = &[
    "ghp_fixtureArgsTokenDoNotEmit",
    "ghp_fixtureEnvTokenDoNotEmit",
    "sgp_fixture_secret_token_do_not_emit",
    "sk-SECRET-openai-key",
    "SECRET-llama-key",
    "auth_SECRET_",
    "SECRET-refresh-token",
    "SECRET-registration-token",
    "SECRETHASH",
    "ghu_SECRETSECRETSECRET",
    "ghp_SECRET_github_token",
    "glpat-SECRET-gitlab-token",
    // claude-code-log: settings env, apiKeyHelper and hooks; .claude.json userID,
    // oauthAccount, primaryApiKey, customApiKeyResponses, MCP server env and headers
    "sk-ant-api03-SECRET-settings-env-key",
    "SECRET-apikeyhelper-token",
    "SECRET-hook-token",
    "SECRET-userid-5f1c9e",
    "SECRET-oauth-account-alice",
    "sk-ant-api03-SECRET-primary-key",
    "SECRET-approved-key-suffix",
    "ghp_SECRET_claude_mcp_env",
    "SECRET-sentry-header-token",
    // copilot-events: the CLI config.json token, an MCP server env, a settings proxy password
    "gho_fixtureCopilotCliTokenDoNotEmit",
    "ghp_fixtureCopilotMcpEnvDoNotEmit",
    "CopilotProxyPasswordDoNotEmit",
    // copilot-events: session.db key-value token; data.db oauth_token column, secret
    // settings keys, a JSON value's env
    "gho_fixtureCopilotSessionDbTokenDoNotEmit",
    "gho_fixtureCopilotDataDbOauthDoNotEmit",
    "gho_fixtureCopilotDataDbSettingDoNotEmit",
    "ghp_fixtureCopilotDataDbEnvDoNotEmit",
    "CopilotDataDbProxyPasswordDoNotEmit",
    // cursor-state: cursorAuth/*, blobEncryptionKey, authInfo, mcp-auth.json, mcp.json env,
    // a messageRequestContext's file contents
    "SECRET-CURSOR-ACCESS-alice",
    "SECRET-CURSOR-REFRESH-carol",
    "SECRET-BLOB-KEY-bob",
    "SECRET-CLI-AUTH-bob",
    "SECRET-MCP-OAUTH-bob",
    "SECRET-MCP-ENV-bob",
    "SECRET-IN-REQUEST-CONTEXT",
];

#[test]
fn no_planted_secret_reaches_any_output_format() {
    let root = evidence();
    // every planted secret is really in the evidence the scan reads
    let mut in_evidence = std::collections::BTreeSet::new();
    for e in walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_map(Result::ok)
    {
        if e.file_type().is_file() {
            let bytes = std::fs::read(e.path()).unwrap();
            for s in PLANTED {
                if memfind(&bytes, s.as_bytes()) {
                    in_evidence.insert(*s);
                }
            }
        }
    }
    assert_eq!(in_evidence.len(), PLANTED.len(), "planted: {in_evidence:?}");

    let result = Scanner::new().root(&root).keep_copies(true).run().unwrap();
    assert!(result.rows.len() > 400);
    for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
        let (bytes, _) = to_bytes(format, &result.rows).unwrap();
        for s in PLANTED {
            assert!(!memfind(&bytes, s.as_bytes()), "{s} in {format:?} output");
        }
    }
}

fn memfind(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// A record quoted as written (a type no reader knows) and a line that does not decode
/// are printed raw: the quote withholds what a store's own field rules would have
/// (2026-12-05; before, `unknown record type` rows of Claude Code, CodeBuddy and the
/// Copilot CLI printed an `apiKey`, an `env` token and an `Authorization` header).
#[test]
fn raw_quotes_of_unknown_records_and_broken_lines_withhold_secrets() {
    const RAW: &[&str] = &[
        "sk-PLANTED-raw-api-key",
        "ghp_PLANTEDrawEnvToken",
        "PLANTED-raw-bearer",
        "PLANTED-raw-password",
        "PLANTED-raw-escaped",
    ];
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("case/home/zed");
    let lines = [
        r#"{"type":"future-thing","apiKey":"sk-PLANTED-raw-api-key","env":{"GITHUB_TOKEN":"ghp_PLANTEDrawEnvToken"},"inputTokens":812}"#,
        r#"{"type":"other-thing","headers":{"Authorization":"Bearer PLANTED-raw-bearer"},"args":"{\"password\":\"PLANTED-raw-escaped\"}"}"#,
        r#"{"type":"broken","password":"PLANTED-raw-password","#,
    ];
    let write = |path: std::path::PathBuf, head: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut text = format!("{head}\n");
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        std::fs::write(path, text).unwrap();
    };
    write(
        home.join(".claude/projects/-home-zed-x/22222222-2222-4333-8444-555555555555.jsonl"),
        r#"{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/zed/x"}"#,
    );
    write(
        home.join(".codebuddy/projects/home-zed-x/33333333-2222-4333-8444-555555555555.jsonl"),
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}],"timestamp":1780000000000,"cwd":"/home/zed/x","id":"u1"}"#,
    );
    write(
        home.join(".copilot/session-state/44444444-2222-4333-8444-555555555555/events.jsonl"),
        concat!(
            r#"{"type":"session.start","data":{"sessionId":"44444444-2222-4333-8444-555555555555","context":{"cwd":"/home/zed/x"}},"id":"a1","timestamp":"2026-01-01T00:00:00Z"}"#,
            "\n",
            r#"{"type":"hook.start","data":{"hookType":"preToolUse","input":{"apiKey":"sk-PLANTED-raw-api-key"}},"id":"a2","timestamp":"2026-01-01T00:00:01Z"}"#,
        ),
    );
    let result = Scanner::new()
        .root(dir.path().join("case"))
        .keep_copies(true)
        .run()
        .unwrap();
    // each store quoted the two unknown records and the broken line, secrets withheld
    for agent in ["claude-code", "codebuddy", "copilot"] {
        let quoted: Vec<&str> = result
            .rows
            .iter()
            .filter(|r| r.agent == agent)
            .filter(|r| {
                r.text.starts_with("unknown record type")
                    || r.text.starts_with("parser: unparseable line")
            })
            .map(|r| r.text.as_str())
            .collect();
        assert_eq!(quoted.len(), 3, "{agent}: {quoted:#?}");
        assert!(
            quoted[0].contains(r#""apiKey":"[withheld]","env":"[withheld]","inputTokens":812"#),
            "{agent}: {}",
            quoted[0]
        );
        assert!(
            quoted[1].contains(r#""headers":"[withheld]","args":"{\"password\":\"[withheld]\"}""#),
            "{agent}: {}",
            quoted[1]
        );
        assert!(
            quoted[2].contains(r#""password":"[withheld]","#),
            "{agent}: {}",
            quoted[2]
        );
    }
    // a known event printed as its data (`session event:`) is quoted the same way
    assert!(
        result.rows.iter().any(|r| r.text
            == r#"session event: hook.start {"hookType":"preToolUse","input":{"apiKey":"[withheld]"}}"#),
        "no hook.start row"
    );
    for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
        let (bytes, _) = to_bytes(format, &result.rows).unwrap();
        for s in RAW {
            assert!(!memfind(&bytes, s.as_bytes()), "{s} in {format:?} output");
        }
    }
}
