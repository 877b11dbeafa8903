//! Secrets in a meta side file never reach a row: their keys are listed with
//! `[withheld]`, at any depth, in every output format.
mod common;

use std::path::Path;

use chat_rows::write::{Format, to_bytes};
use chat_rows::{Evidence, FileContext, Row, Store};
use codebuddy_log::CodeBuddyStore;
use common::assert_rows;

const PLANTED: &[&str] = &[
    "sk-live-SECRET123",
    "ghp_SECRETTOKEN",
    "planted-DoNotEmit",
    "planted-header-DoNotEmit",
    "planted-pw-DoNotEmit",
    "sk-planted-note",
    "planted-cookie-DoNotEmit",
];

const META: &str = r#"{
  "permissionMode": "default",
  "apiKey": "sk-live-SECRET123",
  "authToken": "ghp_SECRETTOKEN",
  "mcp": {"env": {"X": "planted-DoNotEmit"}, "headers": {"Authorization": "planted-header-DoNotEmit"}, "name": "srv"},
  "servers": [{"password": "planted-pw-DoNotEmit", "url": "http://h"}],
  "note": "sk-planted-note",
  "config": "{\"Cookie\":\"planted-cookie-DoNotEmit\",\"on\":true}"
}"#;

const SHOWN: &str = r#"session meta: apiKey=[withheld] authToken=[withheld] config="{\"Cookie\":\"[withheld]\",\"on\":true}" mcp="{\"env\":\"[withheld]\",\"headers\":\"[withheld]\",\"name\":\"srv\"}" note=[withheld] permissionMode=default servers="[{\"password\":\"[withheld]\",\"url\":\"http://h\"}]""#;

fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn read(dir: &Path, rel: &str) -> Vec<Row> {
    let ctx = FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    CodeBuddyStore.read(&dir.join(rel), &ctx, &Evidence::new())
}

fn assert_no_planted(rows: &[Row]) {
    for row in rows {
        // every field, through its Debug form
        let all = format!("{row:?}");
        for s in PLANTED {
            assert!(!all.contains(s), "{s} in {all}");
        }
    }
    for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
        let (bytes, _) = to_bytes(format, rows).unwrap();
        for s in PLANTED {
            assert!(
                !bytes.windows(s.len()).any(|w| w == s.as_bytes()),
                "{s} in {format:?}"
            );
        }
    }
}

#[test]
fn planted_meta_secrets_reach_no_field_and_no_output_format() {
    for s in PLANTED {
        assert!(META.contains(s), "{s} is not planted");
    }
    let dir = scratch(&[
        // a meta file beside its session
        (".codebuddy/projects/srv-app/s1.meta.json", META),
        (
            ".codebuddy/projects/srv-app/s1.jsonl",
            "{\"type\":\"topic\",\"topic\":\"x\",\"timestamp\":1780000000000,\"cwd\":\"/srv/app\"}\n",
        ),
        // a meta file whose session is gone
        (".codebuddy/projects/srv-app/s2.meta.json", META),
        // a sub-agent meta file with the same keys besides its link fields
        (
            ".codebuddy/projects/srv-app/s1/subagents/agent-0a1b2c3d.meta.json",
            &META.replacen('{', "{\"parentSessionId\":\"s1\",\"taskId\":\"t9\",", 1),
        ),
    ]);
    let p = dir.path();

    let with_session = read(p, ".codebuddy/projects/srv-app/s1.jsonl");
    assert_rows(
        &with_session,
        &[
            &format!("||system|s1|/srv/app||||whole file|live|s1.meta.json|{SHOWN:?}"),
            r#"1|2026-05-28T20:26:40.000000Z|system|s1|/srv/app||||byte 0|live|s1.jsonl|"session title: x (from topic)""#,
            r#"1|2026-05-28T20:26:40.000000Z|system|s1|/srv/app||||byte 0|live|s1.jsonl|"topic: x""#,
        ],
    );

    let orphan = read(p, ".codebuddy/projects/srv-app/s2.meta.json");
    assert_rows(
        &orphan,
        &[
            &format!("||system|s2|||||whole file|live|s2.meta.json|{SHOWN:?}"),
            r#"||system|s2|||||path|live|s2.meta.json|"session file missing: s2.jsonl (only its meta file remains)""#,
        ],
    );

    // the sub-agent's link row reads only its named fields
    let subagent = read(
        p,
        ".codebuddy/projects/srv-app/s1/subagents/agent-0a1b2c3d.meta.json",
    );
    assert_rows(
        &subagent,
        &[
            r#"||system|agent-0a1b2c3d|||||whole file|live|agent-0a1b2c3d.meta.json|"session start: parent=s1 task=t9 agent_file=agent-0a1b2c3d""#,
            r#"||system|agent-0a1b2c3d|||||path|live|agent-0a1b2c3d.meta.json|"session file missing: agent-0a1b2c3d.jsonl (only its meta file remains)""#,
        ],
    );

    let all: Vec<Row> = [with_session, orphan, subagent].concat();
    assert_no_planted(&all);
}
