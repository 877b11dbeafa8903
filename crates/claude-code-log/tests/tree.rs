//! Cases of the file tree built in a temporary folder: where persisted outputs may be
//! read from, sub-agents folders below `subagents/`, and side files that are not JSON
//! objects. Every row of each file read is pinned.

mod common;

use std::fs;
use std::path::PathBuf;

use chat_rows::{Evidence, FileContext, Row, Store};
use claude_code_log::ClaudeCodeStore;
use common::line_of;

const PROJECT: &str = "home/u/.claude/projects/-home-u-p";

/// A `.claude` home in a temporary folder holding `files` (path under the root, text).
struct Home {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn home(files: &[(&str, String)]) -> Home {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    for (rel, text) in files {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
    }
    Home { _dir: dir, root }
}

impl Home {
    /// Every row the store reads from `rel`, one line each (`common::line_of`, times
    /// equal to the file's mtime as `mtime`).
    fn rows(&self, rel: &str) -> Vec<String> {
        let mtime = Evidence::new().modified(&self.root.join(rel));
        self.read(rel).iter().map(|r| line_of(r, mtime)).collect()
    }

    /// The rows the store reads from `rel` (which it must claim).
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

    /// Checks every row of `rel` against its pinned lines.
    fn assert_rows(&self, rel: &str, expected: &[&str]) {
        let got = self.rows(rel);
        let listing: String = got.iter().map(|g| format!("r#\"{g}\"#,\n")).collect();
        assert_eq!(got, expected, "{rel}, all rows:\n{listing}");
    }
}

fn lines(records: &[&str]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

fn stub(path: &str) -> String {
    format!(
        r#"{{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","message":{{"content":[{{"type":"tool_result","tool_use_id":"toolu_1","content":"<persisted-output>\nOutput too large. Full output saved to: {path}\n</persisted-output>"}}]}}}}"#
    )
}

const CALL: &str = r#"{"type":"assistant","uuid":"a1","sessionId":"s1","message":{"id":"m1","model":"m0","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/x"}}]}}"#;

#[test]
fn a_stub_is_read_only_inside_its_own_sessions_tool_results() {
    let h = home(&[
        (
            &format!("{PROJECT}/s1.jsonl"),
            lines(&[
                CALL,
                &stub("/home/u/.claude/projects/-home-u-p/s2/tool-results/secret.txt"),
                &stub("/home/u/.claude/projects/-home-u-p/tool-results/x.txt"),
                &stub("/home/u/.claude/projects/-home-u-p/s1/tool-results/own.txt"),
            ]),
        ),
        (
            &format!("{PROJECT}/s2.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"v1","sessionId":"s2","message":{"content":"other"}}"#,
            ]),
        ),
        (
            &format!("{PROJECT}/s2/tool-results/secret.txt"),
            "S2 OUTPUT\n".into(),
        ),
        (
            &format!("{PROJECT}/tool-results/x.txt"),
            "PROJECT FILE\n".into(),
        ),
        (
            &format!("{PROJECT}/s1/tool-results/own.txt"),
            "OWN OUTPUT\n".into(),
        ),
    ]);
    h.assert_rows(
        &format!("{PROJECT}/s1.jsonl"),
        &[
            r#"1||system|s1||||||byte 0|live|s1.jsonl|"model: m0""#,
            r#"1||tool_use|s1|||m0|Read|toolu_1|byte 0|live|s1.jsonl|"{\"file_path\":\"/x\"}""#,
            r#"2||tool_result|s1||||Read|toolu_1|byte 173|live|s1.jsonl|"<persisted-output>\nOutput too large. Full output saved to: /home/u/.claude/projects/-home-u-p/s2/tool-results/secret.txt\n</persisted-output>""#,
            r#"2||system|s1||||Read|toolu_1|byte 173|live|s1.jsonl|"persisted output s2/tool-results/secret.txt not read (outside the session's folder s1/tool-results); the result keeps the pointer""#,
            r#"3||tool_result|s1||||Read|toolu_1|byte 462|live|s1.jsonl|"<persisted-output>\nOutput too large. Full output saved to: /home/u/.claude/projects/-home-u-p/tool-results/x.txt\n</persisted-output>""#,
            r#"3||system|s1||||Read|toolu_1|byte 462|live|s1.jsonl|"persisted output tool-results/x.txt not read (outside the session's folder s1/tool-results); the result keeps the pointer""#,
            r#"4||tool_result|s1||||Read|toolu_1|byte 743, output from s1/tool-results/own.txt|live|s1.jsonl|"OWN OUTPUT\n""#,
        ],
    );
    // s2's output is its own, and no line of s2 points to it
    h.assert_rows(
        &format!("{PROJECT}/s2.jsonl"),
        &[
            r#"1||system|s2||||||byte 0|live|s2.jsonl|"session title: other (from first prompt)""#,
            r#"1||user|s2||||||byte 0|live|s2.jsonl|"other""#,
            r#"||tool_result|s2|||||secret|whole file|live|secret.txt|"S2 OUTPUT\n""#,
            r#"||system|s2|||||secret|path|live|secret.txt|"persisted output s2/tool-results/secret.txt is not pointed to by any readable line of the session file""#,
        ],
    );
}

#[test]
fn a_subagent_several_folders_below_subagents_is_read_with_its_session() {
    let sub = format!("{PROJECT}/s1/subagents/workflows/run-1/step-2");
    let h = home(&[
        (
            &format!("{PROJECT}/s1.jsonl"),
            lines(&[r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"hi"}}"#]),
        ),
        (
            &format!("{sub}/agent-a1.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"x1","sessionId":"s1","agentId":"a1","message":{"content":"check it"}}"#,
                CALL,
                &stub("/home/u/.claude/projects/-home-u-p/s1/tool-results/toolu_1.txt"),
            ]),
        ),
        (
            &format!("{sub}/agent-a1.meta.json"),
            r#"{"agentType":"reviewer","description":"Review","toolUseId":"toolu_9","spawnDepth":3,"isFork":false}"#.into(),
        ),
        (
            &format!("{PROJECT}/s1/tool-results/toolu_1.txt"),
            "FULL\n".into(),
        ),
    ]);
    h.assert_rows(
        &format!("{sub}/agent-a1.jsonl"),
        &[
            r#"||system|s1:agent-a1||||||whole file|live|agent-a1.meta.json|"session start: parent=s1 agent=reviewer description=Review tool_use=toolu_9 depth=3 fork=false agent_file=agent-a1""#,
            r#"1||system|s1:agent-a1||||||byte 0|live|agent-a1.jsonl|"session title: check it (from first prompt)""#,
            r#"1||system|s1:agent-a1||||||byte 0|live|agent-a1.jsonl|"subagent task: check it""#,
            r#"2||system|s1:agent-a1||||||byte 93|live|agent-a1.jsonl|"model: m0""#,
            r#"2||tool_use|s1:agent-a1|||m0|Read|toolu_1|byte 93|live|agent-a1.jsonl|"{\"file_path\":\"/x\"}""#,
            r#"3||tool_result|s1:agent-a1||||Read|toolu_1|byte 266, output from s1/tool-results/toolu_1.txt|live|agent-a1.jsonl|"FULL\n""#,
        ],
    );
    // the meta file is read with its sub-agent
    h.assert_rows(&format!("{sub}/agent-a1.meta.json"), &[]);
}

#[test]
fn a_subagent_without_its_session_names_the_session_file_above_its_folders() {
    let sub = format!("{PROJECT}/s9/subagents/a/b");
    let h = home(&[(
        &format!("{sub}/agent-b2.jsonl"),
        lines(&[r#"{"type":"user","uuid":"x1","sessionId":"s9","message":{"content":"go"}}"#]),
    )]);
    h.assert_rows(
        &format!("{sub}/agent-b2.jsonl"),
        &[
            r#"||system|s9:agent-b2||||||path|live|agent-b2.jsonl|"session start: parent=s9 agent_file=agent-b2 parent_from=path""#,
            r#"||system|s9:agent-b2||||||path|live|s9.jsonl|"session file missing: s9.jsonl (only its sub-agent files remain)""#,
            r#"1||system|s9:agent-b2||||||byte 0|live|agent-b2.jsonl|"session title: go (from first prompt)""#,
            r#"1||system|s9:agent-b2||||||byte 0|live|agent-b2.jsonl|"subagent task: go""#,
        ],
    );
    // the missing session file is named where it would be, two folders further up
    assert_eq!(
        h.read(&format!("{sub}/agent-b2.jsonl"))[1].source_file,
        format!("{PROJECT}/s9.jsonl")
    );
}

#[test]
fn side_files_that_are_not_json_objects() {
    let h = home(&[
        (
            &format!("{PROJECT}/s1.jsonl"),
            lines(&[r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"hi"}}"#]),
        ),
        (
            &format!("{PROJECT}/s1/subagents/agent-a1.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"x1","sessionId":"s1","agentId":"a1","message":{"content":"task"}}"#,
            ]),
        ),
        (
            &format!("{PROJECT}/s1/subagents/agent-a1.meta.json"),
            "{bad".into(),
        ),
        ("home/u/.claude/settings.json", "[1]".into()),
        ("home/u/.claude/settings.local.json", "{bad".into()),
    ]);
    h.assert_rows(
        &format!("{PROJECT}/s1/subagents/agent-a1.jsonl"),
        &[
            r#"||system|s1:agent-a1||||||whole file|live|agent-a1.meta.json|"parser: agent-a1.meta.json is not a JSON object (key must be a string at line 1 column 2)""#,
            r#"||system|s1:agent-a1||||||path|live|agent-a1.jsonl|"session start: parent=s1 agent_file=agent-a1 parent_from=path""#,
            r#"1||system|s1:agent-a1||||||byte 0|live|agent-a1.jsonl|"session title: task (from first prompt)""#,
            r#"1||system|s1:agent-a1||||||byte 0|live|agent-a1.jsonl|"subagent task: task""#,
        ],
    );
    h.assert_rows(
        "home/u/.claude/settings.json",
        &[
            r#"||system|||||||whole file|live|settings.json|"parser: settings.json is not a JSON object (found an array)""#,
        ],
    );
    h.assert_rows(
        "home/u/.claude/settings.local.json",
        &[
            r#"||system|||||||whole file|live|settings.local.json|"parser: settings.local.json is not a JSON object (key must be a string at line 1 column 2)""#,
        ],
    );
}

#[test]
fn a_job_copys_stub_is_checked_against_the_session_its_records_name() {
    let rel = "home/u/.claude/jobs/j1/parent-transcript.jsonl";
    let h = home(&[(
        rel,
        lines(&[
            CALL,
            &stub("/home/u/.claude/projects/-home-u-p/s1/tool-results/toolu_1.txt"),
        ]),
    )]);
    h.assert_rows(
        rel,
        &[
            r#"1||system|s1||||||byte 0|secondary|parent-transcript.jsonl|"model: m0""#,
            r#"1||tool_use|s1|||m0|Read|toolu_1|byte 0|secondary|parent-transcript.jsonl|"{\"file_path\":\"/x\"}""#,
            r#"2||tool_result|s1||||Read|toolu_1|byte 173|secondary|parent-transcript.jsonl|"<persisted-output>\nOutput too large. Full output saved to: /home/u/.claude/projects/-home-u-p/s1/tool-results/toolu_1.txt\n</persisted-output>""#,
            // not `outside the session's folder parent-transcript/tool-results`
            r#"2||system|s1||||Read|toolu_1|byte 173|secondary|parent-transcript.jsonl|"persisted output s1/tool-results/toolu_1.txt not read (not in the evidence); the result keeps the pointer""#,
        ],
    );
}

#[test]
fn every_row_of_a_jobs_copy_is_secondary_its_title_too() {
    let rel = "home/u/.claude/jobs/j1/parent-transcript.jsonl";
    let broken = "home/u/.claude/jobs/j2/parent-transcript.jsonl";
    let h = home(&[(
        rel,
        lines(&[
            r#"{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/p","gitBranch":"main","timestamp":"2026-01-01T00:00:00.000Z","message":{"content":"fix it"}}"#,
            r#"{"type":"custom-title","customTitle":"Fixing","sessionId":"s1"}"#,
        ]),
    )]);
    h.assert_rows(
        rel,
        &[
            r#"2||system|s1|/p|main||||byte 145|secondary|parent-transcript.jsonl|"session title: Fixing (from custom-title)""#,
            r#"1|2026-01-01T00:00:00.000000Z|user|s1|/p|main||||byte 0|secondary|parent-transcript.jsonl|"fix it""#,
        ],
    );
    // a copy that cannot be read: its `parser:` row is the copy's too
    fs::create_dir_all(h.root.join(broken)).unwrap();
    h.assert_rows(
        broken,
        &[
            r#"||system|parent-transcript|||||||secondary|parent-transcript.jsonl|"parser: home/u/.claude/jobs/j2/parent-transcript.jsonl: cannot read (not a regular file (a directory); left unread)""#,
        ],
    );
}

#[test]
fn a_subagent_meta_without_its_file_has_the_subagents_session() {
    let sub = format!("{PROJECT}/s1/subagents");
    let h = home(&[
        (
            &format!("{sub}/agent-a1.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"x1","sessionId":"s1","agentId":"a1","message":{"content":"task"}}"#,
            ]),
        ),
        (
            &format!("{sub}/agent-a1.meta.json"),
            r#"{"agentType":"Explore","toolUseId":"toolu_1"}"#.into(),
        ),
        (
            &format!("{sub}/agent-d0.meta.json"),
            r#"{"agentType":"Plan","description":"gone","toolUseId":"toolu_7"}"#.into(),
        ),
        (&format!("{sub}/w/agent-e0.meta.json"), "{bad".into()),
    ]);
    // the sub-agent whose file is there: its rows' session is `<parent>:agent-<id>`
    assert!(
        h.read(&format!("{sub}/agent-a1.jsonl"))
            .iter()
            .all(|r| r.session_id == "s1:agent-a1")
    );
    h.assert_rows(
        &format!("{sub}/agent-d0.meta.json"),
        &[
            r#"||system|s1:agent-d0||||||whole file|live|agent-d0.meta.json|"session start: parent=s1 agent=Plan description=gone tool_use=toolu_7 agent_file=agent-d0""#,
            r#"||system|s1:agent-d0||||||path|live|agent-d0.meta.json|"session file missing: agent-d0.jsonl (only its meta file remains)""#,
        ],
    );
    h.assert_rows(
        &format!("{sub}/w/agent-e0.meta.json"),
        &[
            r#"||system|s1:agent-e0||||||whole file|live|agent-e0.meta.json|"parser: agent-e0.meta.json is not a JSON object (key must be a string at line 1 column 2)""#,
            r#"||system|s1:agent-e0||||||path|live|agent-e0.meta.json|"session file missing: agent-e0.jsonl (only its meta file remains)""#,
        ],
    );
}

#[test]
fn the_title_and_start_rows_have_the_branch_of_their_record() {
    let sub = format!("{PROJECT}/s1/subagents/agent-a1.jsonl");
    let h = home(&[
        (
            &format!("{PROJECT}/s1.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"hi"}}"#,
                r#"{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s1","gitBranch":"dev","message":{"content":"more"}}"#,
            ]),
        ),
        (
            &sub,
            lines(&[
                r#"{"type":"user","uuid":"x1","sessionId":"s1","gitBranch":"main","message":{"content":"task"}}"#,
                r#"{"type":"assistant","uuid":"x2","parentUuid":"x1","sessionId":"s1","gitBranch":"fix/x","message":{"id":"m1","content":[{"type":"text","text":"done"}]}}"#,
                r#"{"type":"custom-title","customTitle":"Named","sessionId":"s1"}"#,
            ]),
        ),
    ]);
    // the first prompt's record names no branch: neither does its title
    h.assert_rows(
        &format!("{PROJECT}/s1.jsonl"),
        &[
            r#"1||system|s1||||||byte 0|live|s1.jsonl|"session title: hi (from first prompt)""#,
            r#"1||user|s1||||||byte 0|live|s1.jsonl|"hi""#,
            r#"2||user|s1||dev||||byte 72|live|s1.jsonl|"more""#,
        ],
    );
    // the start row has the first record's branch, the title the one in effect on its
    // line (a custom-title record names none: the last one written)
    h.assert_rows(
        &sub,
        &[
            r#"||system|s1:agent-a1||main||||path|live|agent-a1.jsonl|"session start: parent=s1 agent_file=agent-a1 parent_from=path""#,
            r#"3||system|s1:agent-a1||fix/x||||byte 245|live|agent-a1.jsonl|"session title: Named (from custom-title)""#,
            r#"1||system|s1:agent-a1||main||||byte 0|live|agent-a1.jsonl|"subagent task: task""#,
            r#"2||assistant|s1:agent-a1||fix/x||||byte 93|live|agent-a1.jsonl|"done""#,
        ],
    );
}

/// The older layout's sub-agent file, `projects/<key>/agent-<id>.jsonl` beside the
/// sessions, is a sub-agent of the session its records name: its rows are in
/// `<sessionId>:agent-<id>` with its first prompt the `subagent task:`, never a person's
/// `user` row (nor a second title) in the parent session; its stubs are read from the
/// parent's `tool-results/`. Without the parent file, the file missing is named beside it.
#[test]
fn a_flat_agent_file_beside_the_sessions_is_a_subagent() {
    let agent = lines(&[
        r#"{"type":"user","uuid":"x1","parentUuid":null,"sessionId":"s1","agentId":"1a2b3c4d","isSidechain":true,"cwd":"/a","message":{"content":"Model-written task for the agent"}}"#,
        CALL,
        &stub("/home/u/.claude/projects/-home-u-p/s1/tool-results/toolu_1.txt"),
    ]);
    let h = home(&[
        (
            &format!("{PROJECT}/s1.jsonl"),
            lines(&[
                r#"{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/a","message":{"content":"human prompt"}}"#,
            ]),
        ),
        (&format!("{PROJECT}/agent-1a2b3c4d.jsonl"), agent.clone()),
        (
            &format!("{PROJECT}/s1/tool-results/toolu_1.txt"),
            "FULL\n".into(),
        ),
        (&format!("{PROJECT}-2/agent-1a2b3c4d.jsonl"), agent),
    ]);
    h.assert_rows(
        &format!("{PROJECT}/agent-1a2b3c4d.jsonl"),
        &[
            r#"||system|s1:agent-1a2b3c4d|/a|||||sessionId|live|agent-1a2b3c4d.jsonl|"session start: parent=s1 agent_file=agent-1a2b3c4d parent_from=sessionId""#,
            r#"1||system|s1:agent-1a2b3c4d|/a|||||byte 0|live|agent-1a2b3c4d.jsonl|"session title: Model-written task for the agent (from first prompt)""#,
            r#"1||system|s1:agent-1a2b3c4d|/a|||||byte 0|live|agent-1a2b3c4d.jsonl|"subagent task: Model-written task for the agent""#,
            r#"2||system|s1:agent-1a2b3c4d|/a|||||byte 171|live|agent-1a2b3c4d.jsonl|"model: m0""#,
            r#"2||tool_use|s1:agent-1a2b3c4d|/a||m0|Read|toolu_1|byte 171|live|agent-1a2b3c4d.jsonl|"{\"file_path\":\"/x\"}""#,
            r#"3||tool_result|s1:agent-1a2b3c4d|/a|||Read|toolu_1|byte 344, output from s1/tool-results/toolu_1.txt|live|agent-1a2b3c4d.jsonl|"FULL\n""#,
        ],
    );
    h.assert_rows(
        &format!("{PROJECT}/s1.jsonl"),
        &[
            r#"1||system|s1|/a|||||byte 0|live|s1.jsonl|"session title: human prompt (from first prompt)""#,
            r#"1||user|s1|/a|||||byte 0|live|s1.jsonl|"human prompt""#,
            // as for a sub-agent under `subagents/`: its output, in the session's folder,
            // is one no line of the session file points to
            r#"||tool_result|s1|/a||||toolu_1|whole file|live|toolu_1.txt|"FULL\n""#,
            r#"||system|s1|/a||||toolu_1|path|live|toolu_1.txt|"persisted output s1/tool-results/toolu_1.txt is not pointed to by any readable line of the session file""#,
        ],
    );
    // without its parent's file
    let rows = h.rows(&format!("{PROJECT}-2/agent-1a2b3c4d.jsonl"));
    assert_eq!(
        rows[1],
        r#"||system|s1:agent-1a2b3c4d|/a|||||path|live|s1.jsonl|"session file missing: s1.jsonl (only its sub-agent files remain)""#
    );
    assert_eq!(
        h.read(&format!("{PROJECT}-2/agent-1a2b3c4d.jsonl"))[1].source_file,
        format!("{PROJECT}-2/s1.jsonl")
    );
}

/// The copies of `~/.claude.json` Claude Code keeps (`.claude.json.backup`, and in
/// `backups/` `.claude.json.backup.<ts>` and `.claude.json.corrupted.<ts>`) are read as
/// the global state, every row secondary: a trust grant or legacy prompt only a copy
/// holds is kept. A damaged copy gives one secondary `parser:` row naming it.
#[test]
fn copies_of_the_global_state_are_read_as_secondary_rows() {
    let state = r#"{"projects":{"/a":{"hasTrustDialogAccepted":true,"history":[{"display":"old legacy","pastedContents":{}}]}}}"#;
    let h = home(&[
        ("home/u/.claude.json.backup", state.into()),
        (
            "home/u/.claude/backups/.claude.json.backup.1780000000000",
            state.into(),
        ),
        (
            "home/u/.claude/backups/.claude.json.corrupted.1780000000000",
            r#"{"projects":{"#.into(),
        ),
    ]);
    for rel in [
        "home/u/.claude.json.backup",
        "home/u/.claude/backups/.claude.json.backup.1780000000000",
    ] {
        let name = rel.rsplit('/').next().unwrap();
        h.assert_rows(
            rel,
            &[
                &format!(r#"|mtime|system||/a|||||whole file|secondary|{name}|"permission setting: hasTrustDialogAccepted=true location=/a (from .claude.json, file mtime)""#),
                &format!(r#"||user||/a|||||projects["/a"].history[0]|secondary|{name}|"old legacy""#),
            ],
        );
    }
    h.assert_rows(
        "home/u/.claude/backups/.claude.json.corrupted.1780000000000",
        &[
            r#"||system|||||||whole file|secondary|.claude.json.corrupted.1780000000000|"parser: .claude.json.corrupted.1780000000000 is not valid JSON (EOF while parsing an object at line 1 column 13)""#,
        ],
    );
}

/// A session file that cannot be opened (here: over the size cap) still has what its
/// side files hold read: a main session's persisted outputs (no readable line points
/// to them), a sub-agent's meta header with the session `<parent>:agent-<id>` (before,
/// one `parser:` row, the sub-agent's with the parent's session, and nothing else).
#[test]
fn an_unreadable_session_file_keeps_its_side_files() {
    let big = lines(&[&format!(
        r#"{{"type":"user","uuid":"u1","sessionId":"s1","message":{{"content":"{}"}}}}"#,
        "x".repeat(4000)
    )]);
    let sub = format!("{PROJECT}/s1/subagents");
    let h = home(&[
        (&format!("{PROJECT}/s1.jsonl"), big.clone()),
        (
            &format!("{PROJECT}/s1/tool-results/toolu_9.txt"),
            "saved output".into(),
        ),
        (&format!("{sub}/agent-abc.jsonl"), big),
        (
            &format!("{sub}/agent-abc.meta.json"),
            r#"{"agentType":"Explore","description":"look","toolUseId":"toolu_2","model":"m1"}"#
                .into(),
        ),
    ]);
    let read = |rel: &str| -> Vec<String> {
        let ctx = FileContext {
            display_path: rel.to_string(),
            ..Default::default()
        };
        let evidence = Evidence::new().roots([&h.root]).max_size(1024);
        ClaudeCodeStore
            .read(&h.root.join(rel), &ctx, &evidence)
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}|{}",
                    r.session_id, r.turn_type, r.tool_use_id, r.source_locator, r.text
                )
            })
            .collect()
    };
    let main = read(&format!("{PROJECT}/s1.jsonl"));
    assert_eq!(main.len(), 3, "{main:#?}");
    assert!(main[0].starts_with("s1|system|||parser: "), "{main:#?}");
    assert_eq!(
        main[1..],
        [
            "s1|tool_result|toolu_9|whole file|saved output",
            "s1|system|toolu_9|path|persisted output s1/tool-results/toolu_9.txt is not pointed to by any readable line of the session file",
        ]
    );
    let agent = read(&format!("{sub}/agent-abc.jsonl"));
    assert_eq!(agent.len(), 2, "{agent:#?}");
    assert!(
        agent[0].starts_with("s1:agent-abc|system|||parser: "),
        "{agent:#?}"
    );
    assert_eq!(
        agent[1],
        "s1:agent-abc|system||whole file|session start: parent=s1 agent=Explore description=look tool_use=toolu_2 model=m1 agent_file=agent-abc"
    );
}

/// What outlives a deleted transcript, each claimed and read: a `file-history/` backup
/// (listed, never opened, even empty), a project memory note (whole), and the sessions
/// index of older versions (an entry per session, with its first prompt; a
/// secret-named field withheld; an entry of another shape named).
#[test]
fn file_history_memory_notes_and_the_sessions_index_are_read() {
    let h = home(&[
        (
            "home/u/.claude/file-history/s9/3f2a9c01@v2",
            "password = hunter2\n".into(),
        ),
        ("home/u/.claude/file-history/s9/empty@v1", String::new()),
        (
            &format!("{PROJECT}/memory/deploy.md"),
            "# Deploy\nuse the staging key\n".into(),
        ),
        (
            &format!("{PROJECT}/sessions-index.json"),
            r#"{"version":1,"originalPath":"/home/u/p","entries":[
                {"sessionId":"s9","fullPath":"/home/u/.claude/projects/-home-u-p/s9.jsonl","fileMtime":1780000060000,"firstPrompt":"delete the audit log","summary":"Cleanup","messageCount":12,"created":"2026-05-28T20:26:40.000Z","modified":"2026-05-28T20:27:40.000Z","gitBranch":"main","projectPath":"/home/u/p","isSidechain":false,"apiKey":"sk-ant-PLANTED"},
                {"sessionId":"s8","created":"2026-05-27T10:00:00Z"},
                7
            ]}"#
            .into(),
        ),
    ]);
    h.assert_rows(
        "home/u/.claude/file-history/s9/3f2a9c01@v2",
        &[r#"|mtime|system|s9||||||path|live|3f2a9c01@v2|"file history backup: 3f2a9c01@v2, 19 bytes (contents not read, file mtime)""#],
    );
    h.assert_rows(
        "home/u/.claude/file-history/s9/empty@v1",
        &[r#"|mtime|system|s9||||||path|live|empty@v1|"file history backup: empty@v1, 0 bytes (contents not read, file mtime)""#],
    );
    h.assert_rows(
        &format!("{PROJECT}/memory/deploy.md"),
        &[r#"|mtime|system|||||||whole file|live|deploy.md|"memory note: -home-u-p/memory/deploy.md (29 bytes, file mtime): # Deploy\nuse the staging key\n""#],
    );
    h.assert_rows(
        &format!("{PROJECT}/sessions-index.json"),
        &[
            r#"|2026-05-28T20:26:40.000000Z|system|s9|/home/u/p|main||||entries[0]|secondary|sessions-index.json|"session index: title=Cleanup first_prompt=\"delete the audit log\" messages=12 created=2026-05-28T20:26:40.000Z modified=2026-05-28T20:27:40.000Z sidechain=false file_mtime=1780000060000 path=/home/u/.claude/projects/-home-u-p/s9.jsonl project=/home/u/p apiKey=[withheld]""#,
            r#"|2026-05-27T10:00:00.000000Z|system|s8|/home/u/p|||||entries[1]|secondary|sessions-index.json|"session index: created=2026-05-27T10:00:00Z""#,
            r#"||system|||||||entries[2]|live|sessions-index.json|"parser: sessions-index.json entries[2] is not a JSON object (found a number)""#,
        ],
    );
}

/// A session's sidecars and Claude Desktop's session register (shapes unverified): one
/// row of every field each, a secret-named field withheld, a file that is no JSON
/// object named.
#[test]
fn sidecars_and_the_desktop_register_are_read() {
    let h = home(&[
        (
            &format!("{PROJECT}/s1/remote-agents/r1.meta.json"),
            r#"{"agentId":"r1","status":"done","authToken":"PLANTED-TOKEN"}"#.into(),
        ),
        (&format!("{PROJECT}/s1/mcp-tasks/t1.meta.json"), "[1]".into()),
        (
            "home/u/Library/Application Support/Claude/claude-code-sessions/a1/b2/local_c3.json",
            r#"{"sessionId":"local_c3","cliSessionId":"s1","cwd":"/home/u/p","transcriptUnavailable":true}"#
                .into(),
        ),
    ]);
    h.assert_rows(
        &format!("{PROJECT}/s1/remote-agents/r1.meta.json"),
        &[r#"||system|s1||||||whole file|live|r1.meta.json|"session sidecar: remote-agents/r1.meta.json: agentId=r1 authToken=[withheld] status=done""#],
    );
    h.assert_rows(
        &format!("{PROJECT}/s1/mcp-tasks/t1.meta.json"),
        &[r#"||system|s1||||||whole file|live|t1.meta.json|"parser: mcp-tasks/t1.meta.json is not a JSON object (found an array)""#],
    );
    h.assert_rows(
        "home/u/Library/Application Support/Claude/claude-code-sessions/a1/b2/local_c3.json",
        &[r#"||system|local_c3|/home/u/p|||||whole file|secondary|local_c3.json|"desktop session: cliSessionId=s1 cwd=/home/u/p sessionId=local_c3 transcriptUnavailable=true""#],
    );
}
