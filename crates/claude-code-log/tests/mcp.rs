//! MCP server files: `<project>/.mcp.json` and a managed install's `managed-mcp.json`.
//! Each case is built in a temporary folder with the file's mtime set, and every row is
//! pinned with every column that matters (time, turn, session, project, locator, state,
//! file, text). The secrets planted in servers' `env`, `headers`, `args`, `url` and
//! `command` reach no field of any row and no output format.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chat_rows::dirty::Harness;
use chat_rows::write::{Format, to_bytes};
use chat_rows::{Evidence, FileContext, Row, Store, Timestamp, TurnType, Walked};
use claude_code_log::ClaudeCodeStore;

/// 2026-06-02T09:00:00Z.
const MTIME: u64 = 1_780_390_800;
/// 2026-06-03T10:30:00Z.
const MANAGED_MTIME: u64 = 1_780_482_600;

const PROJECT_MCP: &str = "lin-ws01/home/alice/src/api/.mcp.json";

/// Servers out of name order, each with a secret where Claude Code keeps one.
const SERVERS: &str = r#"{
  "mcpServers": {
    "sentry": {
      "type": "http",
      "url": "https://mcp.sentry.example/mcp?token=planted-url-DoNotEmit",
      "headers": {"Authorization": "Bearer planted-DoNotEmit"}
    },
    "github": {
      "command": "/opt/planted-command-DoNotEmit/github-mcp",
      "args": ["--token", "ghp_planted-args-DoNotEmit"],
      "env": {"API_KEY": "sk-planted-DoNotEmit"}
    },
    "postgres": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://u:planted-dsn-DoNotEmit@db/x"],
      "env": {"PGPASSWORD": "planted-pgpass-DoNotEmit"}
    }
  },
  "env": {"TOP_LEVEL": "planted-top-env-DoNotEmit"}
}"#;

/// Every secret [`SERVERS`] plants.
const PLANTED: &[&str] = &[
    "sk-planted-DoNotEmit",
    "Bearer planted-DoNotEmit",
    "planted-DoNotEmit",
    "ghp_planted-args-DoNotEmit",
    "planted-url-DoNotEmit",
    "planted-command-DoNotEmit",
    "planted-dsn-DoNotEmit",
    "planted-pgpass-DoNotEmit",
    "planted-top-env-DoNotEmit",
    "DoNotEmit",
];

/// The managed folders of the three OS layouts (and the older Windows one) under a host.
const MANAGED: &[&str] = &[
    "lin-ws01/etc/claude-code/managed-mcp.json",
    "mac-lt02/Library/Application Support/ClaudeCode/managed-mcp.json",
    "WIN-DESK03/C/Program Files/ClaudeCode/managed-mcp.json",
    "WIN-DESK03/C/ProgramData/ClaudeCode/managed-mcp.json",
];

/// A collected root in a temporary folder.
struct Root {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

/// Writes `files` (path under the root, text, mtime in seconds) into a fresh root.
fn root(files: &[(&str, &str, u64)]) -> Root {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    for (rel, text, mtime) in files {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        set_mtime(&path, *mtime);
    }
    Root { _dir: dir, root }
}

fn set_mtime(path: &Path, secs: u64) {
    let f = fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

fn at(secs: u64) -> Timestamp {
    Timestamp::from_epoch_seconds(secs as i64).unwrap()
}

impl Root {
    /// The rows the store reads from `rel`, which it must claim, with `rel` as the
    /// display path (the path under the collected root).
    fn read(&self, rel: &str) -> Vec<Row> {
        let path = self.root.join(rel);
        assert!(
            ClaudeCodeStore.claim(&path).is_some(),
            "{rel} is not claimed"
        );
        let ctx = FileContext {
            display_path: rel.to_string(),
            ..Default::default()
        };
        let evidence = Evidence::new().roots([&self.root]);
        ClaudeCodeStore.read(&path, &ctx, &evidence)
    }

    /// Checks every row of `rel` against its pinned lines
    /// (`time|turn|session|project|locator|state|file|text`).
    fn assert_rows(&self, rel: &str, expected: &[String]) {
        let got: Vec<String> = self.read(rel).iter().map(line).collect();
        let listing: String = got.iter().map(|g| format!("{g}\n")).collect();
        assert_eq!(got, expected, "{rel}, all rows:\n{listing}");
    }
}

fn line(r: &Row) -> String {
    [
        r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
        r.turn_type.to_string(),
        r.session_id.clone(),
        r.project_path.clone(),
        r.source_locator.clone(),
        r.record_state.to_string(),
        r.source_file.clone(),
        r.text.clone(),
    ]
    .join("|")
}

#[test]
fn a_projects_mcp_json_names_its_servers_at_the_file_mtime() {
    let r = root(&[(PROJECT_MCP, SERVERS, MTIME)]);
    let rows = r.read(PROJECT_MCP);
    let p = "lin-ws01/home/alice/src/api";
    let expected: Vec<String> = ["github", "postgres", "sentry"]
        .iter()
        .map(|name| {
            format!(
                "2026-06-02T09:00:00.000000Z|system||{p}|whole file|live|{PROJECT_MCP}|mcp server configured: {name} (from .mcp.json, file mtime)"
            )
        })
        .collect();
    r.assert_rows(PROJECT_MCP, &expected);
    for row in &rows {
        assert_eq!(row.turn_type, TurnType::System);
        assert_eq!(row.agent, "claude-code");
        assert_eq!(row.timestamp, Some(at(MTIME)));
        assert_eq!(row.session_id, "");
        assert_eq!(row.project_path, p);
        assert_eq!(row.source_line, None);
        assert_eq!(row.record_state.to_string(), "live");
    }
}

#[test]
fn managed_mcp_json_in_every_managed_folder_names_its_servers_without_a_project() {
    let files: Vec<(&str, &str, u64)> = MANAGED
        .iter()
        .map(|rel| (*rel, SERVERS, MANAGED_MTIME))
        .collect();
    let r = root(&files);
    for rel in MANAGED {
        let expected: Vec<String> = ["github", "postgres", "sentry"]
            .iter()
            .map(|name| {
                format!(
                    "2026-06-03T10:30:00.000000Z|system|||whole file|live|{rel}|mcp server configured: {name} (from {rel}, file mtime)"
                )
            })
            .collect();
        r.assert_rows(rel, &expected);
        for row in r.read(rel) {
            assert_eq!(row.turn_type, TurnType::System);
            assert_eq!(row.timestamp, Some(at(MANAGED_MTIME)));
            assert_eq!(row.project_path, "");
            assert_eq!(row.session_id, "");
        }
    }
}

#[test]
fn an_mcp_file_that_is_not_a_json_object_gives_one_parser_row() {
    let managed = "lin-ws01/etc/claude-code/managed-mcp.json";
    let torn = "home/u/src/torn/.mcp.json";
    let listed = "home/u/src/listed/.mcp.json";
    let r = root(&[
        ("home/u/src/arr/.mcp.json", "[1]", MTIME),
        (
            torn,
            r#"{"mcpServers": {"a": {"env": {"K": "sk-planted-DoNotEmit"}"#,
            MTIME,
        ),
        (managed, r#""x""#, MTIME),
        (listed, r#"{"mcpServers": [{"name": "a"}]}"#, MTIME),
    ]);
    r.assert_rows(
        "home/u/src/arr/.mcp.json",
        &["|system||home/u/src/arr|whole file|live|home/u/src/arr/.mcp.json|parser: .mcp.json is not a JSON object (found an array)".into()],
    );
    r.assert_rows(
        torn,
        &[format!("|system||home/u/src/torn|whole file|live|{torn}|parser: .mcp.json is not a JSON object (EOF while parsing an object at line 1 column 58)")],
    );
    r.assert_rows(
        managed,
        &[format!("|system|||whole file|live|{managed}|parser: managed-mcp.json is not a JSON object (found a string)")],
    );
    // a server list that is not an object is damage too, not "no servers"
    r.assert_rows(
        listed,
        &[format!("|system||home/u/src/listed|whole file|live|{listed}|parser: .mcp.json mcpServers is not a JSON object (found an array)")],
    );
    for rel in ["home/u/src/arr/.mcp.json", torn, managed, listed] {
        let rows = r.read(rel);
        assert!(rows.iter().all(Row::is_parser), "{rel}");
        assert!(!format!("{rows:?}").contains("DoNotEmit"), "{rel}");
    }
}

#[test]
fn no_servers_gives_no_row() {
    let files = [
        ("a/p1/.mcp.json", "{}"),
        ("a/p2/.mcp.json", r#"{"mcpServers": {}}"#),
        ("a/p3/.mcp.json", r#"{"mcpServers": null}"#),
        (
            "h/etc/claude-code/managed-mcp.json",
            r#"{"env": {"K": "sk-planted-DoNotEmit"}}"#,
        ),
    ];
    let r = root(&files.map(|(p, t)| (p, t, MTIME)));
    for (rel, _) in files {
        assert_eq!(r.read(rel), Vec::<Row>::new(), "{rel}");
    }
}

#[test]
fn planted_mcp_secrets_reach_no_field_and_no_output_format() {
    let mut files: Vec<(&str, &str, u64)> = vec![(PROJECT_MCP, SERVERS, MTIME)];
    files.extend(MANAGED.iter().map(|rel| (*rel, SERVERS, MANAGED_MTIME)));
    let r = root(&files);
    for s in PLANTED {
        assert!(SERVERS.contains(s), "{s} is not planted");
    }
    let rows: Vec<Row> = files.iter().flat_map(|(rel, _, _)| r.read(rel)).collect();
    assert_eq!(rows.len(), 15);
    for row in &rows {
        // every field, through its Debug form
        let all = format!("{row:?}");
        for s in PLANTED {
            assert!(!all.contains(s), "{s} in {all}");
        }
    }
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

#[test]
fn mcp_json_and_managed_mcp_json_are_claimed_other_mcp_json_are_not() {
    let claim = |p: &str| ClaudeCodeStore.claim(Path::new(p)).map(|c| c.kind);
    for p in [
        "/e/lin-ws01/home/alice/src/api/.mcp.json",
        "/e/lin-ws01/etc/claude-code/managed-mcp.json",
        "/e/mac/Library/Application Support/ClaudeCode/managed-mcp.json",
        "/e/WIN/C/Program Files/ClaudeCode/managed-mcp.json",
        "/e/WIN/C/ProgramData/ClaudeCode/managed-mcp.json",
    ] {
        assert_eq!(claim(p), Some("claude-code mcp servers"), "{p}");
    }
    // other tools' MCP files, and a managed-mcp.json outside a managed folder
    let others = [
        "/e/h/home/a/src/api/.vscode/mcp.json",
        "/e/h/home/a/src/api/.cursor/mcp.json",
        "/e/h/home/a/.cursor/mcp.json",
        "/e/h/home/a/src/api/mcp.json",
        "/e/h/home/a/.copilot/mcp-config.json",
        "/e/h/home/a/src/api/.mcp.json.bak",
        "/e/h/home/a/managed-mcp.json",
        "/e/h/etc/other/managed-mcp.json",
    ];
    for p in others {
        assert_eq!(claim(p), None, "{p}");
    }
    // nor by the claim of a home of any name
    let paths: Vec<PathBuf> = others.iter().map(PathBuf::from).collect();
    let walked = Walked::new(paths.iter().map(PathBuf::as_path).collect());
    for p in &paths {
        assert!(ClaudeCodeStore.claim_in(p, &walked).is_none(), "{p:?}");
    }
}

#[test]
fn dirty_input_harness_on_mcp_files() {
    let read = |p: &Path| ClaudeCodeStore.read(p, &FileContext::default(), &Evidence::new());
    for name in ["src/api/.mcp.json", "etc/claude-code/managed-mcp.json"] {
        let report = Harness::new()
            .truncations(24)
            .flips(24)
            .splices(8)
            .run_files(SERVERS.as_bytes(), name, &[], read);
        report.assert_no_panics();
        // a whole-file JSON cut short is never valid: it must be said
        report.assert_damage_reported(
            |m| matches!(m, chat_rows::dirty::Mutation::Truncate(n) if *n < SERVERS.len() - 1),
        );
    }
}
