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
