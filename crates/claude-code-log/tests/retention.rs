//! `retention:` rows: each case is built in a temporary folder (a fixture transcript
//! copied, its mtime set, a `settings.json` written), since the committed fixtures'
//! mtimes are whatever the checkout gave them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chat_rows::{Evidence, FileContext, Row, Store, Timestamp, TurnType};
use claude_code_log::ClaudeCodeStore;
use common::{SID_A, fixture_path, lin_session, lin_subagent};

const DAY: u64 = 86_400;
/// 2026-06-02T09:00:00Z, the fixture session's first prompt.
const MTIME: u64 = 1_780_390_800;
const PROJECT: &str = "projects/-home-alice-src-api";

/// A `.claude` home in a temporary folder with the fixture session copied in at
/// `mtime` (seconds), and `settings` as its `settings.json` when given.
struct Case {
    _dir: tempfile::TempDir,
    root: PathBuf,
    session: PathBuf,
}

fn case(settings: Option<&str>, mtime: u64) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let home = root.join("home/alice/.claude");
    let project = home.join(PROJECT);
    fs::create_dir_all(&project).unwrap();
    let session = project.join(format!("{SID_A}.jsonl"));
    fs::copy(fixture_path(&lin_session()), &session).unwrap();
    set_mtime(&session, mtime);
    if let Some(s) = settings {
        fs::write(home.join("settings.json"), s).unwrap();
    }
    Case {
        _dir: dir,
        root,
        session,
    }
}

fn set_mtime(path: &Path, secs: u64) {
    let f = fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

fn at(secs: u64) -> Timestamp {
    Timestamp::from_epoch_seconds(secs as i64).unwrap()
}

fn display(case: &Case, path: &Path) -> String {
    path.strip_prefix(&case.root)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Every row of `path` read through the store with `collected_at`.
fn read(case: &Case, path: &Path, collected_at: Option<Timestamp>) -> Vec<Row> {
    let ctx = FileContext {
        display_path: display(case, path),
        collected_at,
        ..Default::default()
    };
    let evidence = Evidence::new().roots([&case.root]);
    ClaudeCodeStore.read(path, &ctx, &evidence)
}

fn retention_rows(rows: &[Row]) -> Vec<&Row> {
    rows.iter()
        .filter(|r| r.text.starts_with("retention:"))
        .collect()
}

fn session_display() -> String {
    format!("home/alice/.claude/{PROJECT}/{SID_A}.jsonl")
}

/// The rows without retention rows are the same as a read without a collection time.
fn assert_rest_unchanged(case: &Case, rows: &[Row]) {
    let plain = read(case, &case.session, None);
    let rest: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.text.starts_with("retention:"))
        .collect();
    assert_eq!(rest, plain.iter().collect::<Vec<_>>());
}

#[test]
fn past_the_configured_period_gives_one_row_at_the_mtime() {
    let c = case(Some(r#"{"cleanupPeriodDays": 14, "model": "x"}"#), MTIME);
    let rows = read(&c, &c.session, Some(at(MTIME + 15 * DAY)));
    let last = rows.last().unwrap();
    assert_eq!(
        last.text,
        format!(
            "retention: {} is past cleanupPeriodDays=14 by mtime and is deleted at the next start",
            session_display()
        )
    );
    assert_eq!(last.turn_type, TurnType::System);
    assert_eq!(last.agent, "claude-code");
    assert_eq!(last.timestamp, Some(at(MTIME)));
    assert_eq!(
        last.timestamp.unwrap().to_string(),
        "2026-06-02T09:00:00.000000Z"
    );
    assert_eq!(last.session_id, SID_A);
    assert_eq!(last.project_path, "/home/alice/src/api");
    assert_eq!(last.source_file, session_display());
    assert_eq!(last.source_locator, "file mtime");
    assert_eq!(last.source_line, None);
    assert_eq!(last.record_state.to_string(), "live");
    assert_eq!(retention_rows(&rows).len(), 1);
    assert_rest_unchanged(&c, &rows);
}

#[test]
fn without_settings_the_period_is_30_days() {
    let c = case(None, MTIME);
    let rows = read(&c, &c.session, Some(at(MTIME + 31 * DAY)));
    let got: Vec<&str> = retention_rows(&rows)
        .iter()
        .map(|r| r.text.as_str())
        .collect();
    let want = format!(
        "retention: {} is past cleanupPeriodDays=30 by mtime and is deleted at the next start",
        session_display()
    );
    assert_eq!(got, [want.as_str()]);
    // a settings.json without the key: the same default
    let c = case(Some(r#"{"model": "claude-opus-4-1"}"#), MTIME);
    let rows = read(&c, &c.session, Some(at(MTIME + 31 * DAY)));
    assert_eq!(
        retention_rows(&rows)
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>(),
        [want.as_str()]
    );
}

#[test]
fn inside_the_period_gives_no_row() {
    // 29 days old against the default of 30
    let c = case(None, MTIME);
    assert!(retention_rows(&read(&c, &c.session, Some(at(MTIME + 29 * DAY)))).is_empty());
    // exactly at the limit is not older than it
    assert!(retention_rows(&read(&c, &c.session, Some(at(MTIME + 30 * DAY)))).is_empty());
    assert_eq!(
        retention_rows(&read(&c, &c.session, Some(at(MTIME + 30 * DAY + 1)))).len(),
        1
    );
    // 15 days old against a configured 60 (the default would not matter)
    let c = case(Some(r#"{"cleanupPeriodDays": 60}"#), MTIME);
    assert!(retention_rows(&read(&c, &c.session, Some(at(MTIME + 45 * DAY)))).is_empty());
    assert_eq!(
        retention_rows(&read(&c, &c.session, Some(at(MTIME + 61 * DAY))))[0].text,
        format!(
            "retention: {} is past cleanupPeriodDays=60 by mtime and is deleted at the next start",
            session_display()
        )
    );
}

#[test]
fn without_a_collection_time_there_is_no_row() {
    let c = case(Some(r#"{"cleanupPeriodDays": 1}"#), MTIME);
    let rows = read(&c, &c.session, None);
    assert!(!rows.is_empty());
    assert!(retention_rows(&rows).is_empty());
    // read_file has no collection time either
    let mut rows: Vec<Row> = Vec::new();
    claude_code_log::read_file(&c.session, "s.jsonl", &Evidence::new(), &mut rows);
    assert!(retention_rows(&rows).is_empty());
    // read_file_at takes one
    let mut rows: Vec<Row> = Vec::new();
    let t = Some(at(MTIME + 2 * DAY));
    claude_code_log::read_file_at(&c.session, "s.jsonl", &Evidence::new(), t, &mut rows);
    assert_eq!(
        retention_rows(&rows)[0].text,
        "retention: s.jsonl is past cleanupPeriodDays=1 by mtime and is deleted at the next start"
    );
}

#[test]
fn an_undetermined_period_gives_no_row() {
    for settings in [
        "{not json",
        "[30]",
        r#"{"cleanupPeriodDays": "7"}"#,
        r#"{"cleanupPeriodDays": -1}"#,
        r#"{"cleanupPeriodDays": 1.5}"#,
    ] {
        let c = case(Some(settings), MTIME);
        let rows = read(&c, &c.session, Some(at(MTIME + 400 * DAY)));
        assert!(retention_rows(&rows).is_empty(), "{settings}");
    }
    // 0 days is a period: anything older than the collection is past it
    let c = case(Some(r#"{"cleanupPeriodDays": 0}"#), MTIME);
    assert_eq!(
        retention_rows(&read(&c, &c.session, Some(at(MTIME + 1)))).len(),
        1
    );
}

#[test]
fn sub_agent_files_and_other_homes_files_give_no_row() {
    let c = case(None, MTIME);
    let sub = c
        .session
        .with_extension("")
        .join("subagents/agent-a1b2c3d4.jsonl");
    fs::create_dir_all(sub.parent().unwrap()).unwrap();
    fs::copy(fixture_path(&lin_subagent()), &sub).unwrap();
    set_mtime(&sub, MTIME);
    let rows = read(&c, &sub, Some(at(MTIME + 100 * DAY)));
    assert!(!rows.is_empty());
    assert!(retention_rows(&rows).is_empty());
    // a transcript outside `projects/<key>/` (read by its stem) gives none either
    let loose = c.root.join(format!("{SID_A}.jsonl"));
    fs::copy(&c.session, &loose).unwrap();
    set_mtime(&loose, MTIME);
    let rows = read(&c, &loose, Some(at(MTIME + 100 * DAY)));
    assert!(!rows.is_empty());
    assert!(retention_rows(&rows).is_empty());
}

/// The period a retention row names, or `None` for no row, with `managed` files
/// (path under the host root, content) beside a home whose `settings.json` says 60.
fn period_with_managed(managed: &[(&str, &str)]) -> Option<String> {
    let c = case(Some(r#"{"cleanupPeriodDays": 60}"#), MTIME);
    for (rel, text) in managed {
        let path = c.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let rows = read(&c, &c.session, Some(at(MTIME + 100 * DAY)));
    let found = retention_rows(&rows);
    assert!(found.len() <= 1);
    found.first().map(|r| {
        let rest = r.text.split("cleanupPeriodDays=").nth(1).unwrap();
        rest.split(' ').next().unwrap().to_string()
    })
}

#[test]
fn the_hosts_managed_settings_override_the_homes_period() {
    const LINUX: &str = "etc/claude-code/managed-settings.json";
    const MAC: &str = "Library/Application Support/ClaudeCode/managed-settings.json";
    const WINDOWS: &str = "ProgramData/ClaudeCode/managed-settings.json";
    const DROP_IN: &str = "etc/claude-code/managed-settings.d/50-retention.json";
    let p = |m: &[(&str, &str)]| period_with_managed(m);
    // the home's own period when no managed file sets one
    assert_eq!(p(&[]).as_deref(), Some("60"));
    assert_eq!(p(&[(LINUX, r#"{"model": "x"}"#)]).as_deref(), Some("60"));
    // a managed period wins, on each OS's path
    for path in [LINUX, MAC, WINDOWS] {
        assert_eq!(
            p(&[(path, r#"{"cleanupPeriodDays": 14}"#)]).as_deref(),
            Some("14"),
            "{path}"
        );
    }
    // a drop-in overrides the base file; one that does not set it does not
    assert_eq!(
        p(&[
            (LINUX, r#"{"cleanupPeriodDays": 14}"#),
            (DROP_IN, r#"{"cleanupPeriodDays": 7}"#),
            ("etc/claude-code/managed-settings.d/90-other.json", "{}"),
        ])
        .as_deref(),
        Some("7")
    );
    // a managed period of 200 days keeps this 100-day-old file: no row
    assert_eq!(p(&[(LINUX, r#"{"cleanupPeriodDays": 200}"#)]), None);
    // a managed file that cannot be read as settings leaves the period undetermined
    assert_eq!(p(&[(LINUX, "{torn")]), None);
}
