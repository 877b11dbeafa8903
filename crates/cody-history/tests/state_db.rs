//! Cody's rows of a `state.vscdb`: the live value, older versions, and the evidence untouched.

mod common;

use chat_rows::{Evidence, FileContext, RecordState, Store};
use cody_history::{ChatHistory, ExtensionState, Origin, rows};
use common::{fixture, read, render_all};

const DB: &str = "lin-ws01/home/alice/.config/VSCodium/User/globalStorage/state.vscdb";

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn history(name: &str) -> ChatHistory {
    ExtensionState::from_bytes(&data(name)).history.unwrap()
}

#[test]
fn live_value_with_the_wal_applied_then_the_older_versions() {
    let expected = vec![
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev title=\"Where is the session token refreshed?\"|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 206|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|user|anthropic::2024-10-22::claude-sonnet-4-latest|||find where the session token is refreshed|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|tool_use|anthropic::2024-10-22::claude-sonnet-4-latest|Code Search|TOOLSEARCH|session token refresh|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|system|anthropic::2024-10-22::claude-sonnet-4-latest||TOOLCLI-1b2c3d4e-0000-4000-8000-000000000001|permission decision: rejected confirmation state=error error=Command rejected title=Terminal\\nCody wants to run a terminal command\\nrm -rf build/ && npm run build|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|system|anthropic::2024-10-22::claude-sonnet-4-latest||TOOLCLI-1b2c3d4e-0000-4000-8000-000000000002|permission decision: approved or unanswered confirmation state=pending title=Terminal\\ngit log -5 --oneline -- src/auth|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|tool_use|anthropic::2024-10-22::claude-sonnet-4-latest|Terminal|TOOLCLI|git log -5 --oneline -- src/auth|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-06T14:00:00.000000Z|utc|Mon, 06 Oct 2026 14:00:00 GMT|/home/alice/src/webapp/src/auth|assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||The token is refreshed in src/auth/refresh.ts, in refreshSession().|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 312|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1689|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-latest|||how do I bump the node version?|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1743|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1743|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||Edit .nvmrc and the engines field.|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1743|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||user|anthropic::2024-10-22::claude-3-5-haiku-latest|||and in the GitHub Actions workflow?|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1996|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||system|anthropic::2024-10-22::claude-3-5-haiku-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest -> anthropic::2024-10-22::claude-3-5-haiku-latest|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1996|live",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||assistant|anthropic::2024-10-22::claude-3-5-haiku-latest|||Set node-version in actions/setup-node.|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 byte 1996|live",
    ];
    let rows = read(DB);
    let (deleted, rows): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|r| r.record_state == RecordState::Deleted);
    let mtime = Evidence::new().modified(&fixture(DB));
    let (chats, prefs): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|r| !r.text.starts_with("model setting:"));
    assert_eq!(render_all(&chats), expected);
    assert!(
        chats
            .iter()
            .all(|r| r.agent == "cody" && r.source_file == DB)
    );
    let expected_prefs = vec![
        "utc|||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model setting: selected.chat=anthropic::2024-10-22::claude-sonnet-4-latest endpoint=https://sourcegraph.com/ (from globalStorage/state.vscdb cody-model-preferences, file mtime)|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 endpoint https://sourcegraph.com/ selected.chat|live",
        "utc|||system|fireworks::v1::deepseek-coder-v2-lite-base|||model setting: defaults.autocomplete=fireworks::v1::deepseek-coder-v2-lite-base endpoint=https://sourcegraph.com/ (from globalStorage/state.vscdb cody-model-preferences, file mtime)|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 endpoint https://sourcegraph.com/ defaults.autocomplete|live",
        "utc|||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model setting: defaults.chat=anthropic::2024-10-22::claude-sonnet-4-latest endpoint=https://sourcegraph.com/ (from globalStorage/state.vscdb cody-model-preferences, file mtime)|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 endpoint https://sourcegraph.com/ defaults.chat|live",
        "utc|||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model setting: defaults.edit=anthropic::2024-10-22::claude-sonnet-4-latest endpoint=https://sourcegraph.com/ (from globalStorage/state.vscdb cody-model-preferences, file mtime)|1|ItemTable key=sourcegraph.cody-ai, wal frame 5 (page 2) cell 4 endpoint https://sourcegraph.com/ defaults.edit|live",
    ];
    assert!(prefs.iter().all(|r| r.timestamp == mtime));
    let prefs: Vec<String> = render_all(&prefs)
        .into_iter()
        .map(|l| l.split_once('|').unwrap().1.to_string())
        .collect();
    assert_eq!(prefs, expected_prefs);
    // the older versions: version 0 in the main file, version 1 in the WAL
    let expected_deleted = vec![
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev title=\"Rotate deploy key\"|1|ItemTable key=sourcegraph.cody-ai, main file page 2 cell 3 byte 206|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-latest|||how do I rotate the deploy key on the staging box?|1|ItemTable key=sourcegraph.cody-ai, main file page 2 cell 3 byte 292|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|ItemTable key=sourcegraph.cody-ai, main file page 2 cell 3 byte 292|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||Generate a new key with ssh-keygen, add it to the repo's deploy keys, then remove the old one.|1|ItemTable key=sourcegraph.cody-ai, main file page 2 cell 3 byte 292|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||user|anthropic::2024-10-22::claude-3-5-haiku-latest|||and in the CI image?|1|ItemTable key=sourcegraph.cody-ai, wal frame 1 (page 2) cell 3 byte 2507|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||system|anthropic::2024-10-22::claude-3-5-haiku-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest -> anthropic::2024-10-22::claude-3-5-haiku-latest|1|ItemTable key=sourcegraph.cody-ai, wal frame 1 (page 2) cell 3 byte 2507|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||assistant|anthropic::2024-10-22::claude-3-5-haiku-latest|||Change the FROM line of ci/Dockerfile.|1|ItemTable key=sourcegraph.cody-ai, wal frame 1 (page 2) cell 3 byte 2507|deleted",
    ];
    assert_eq!(render_all(&deleted), expected_deleted);
}

#[test]
fn older_versions_give_deleted_chats_and_replaced_interactions_once() {
    let live = history("sourcegraph.cody-ai.json");
    let origin = |loc: &str| Origin {
        source_file: String::new(),
        locator: loc.to_string(),
        line: None,
        state: RecordState::Deleted,
        host_offset: None,
    };
    let older = vec![
        (
            history("sourcegraph.cody-ai.v1.json"),
            origin("ItemTable key=sourcegraph.cody-ai, wal frame 2"),
        ),
        (
            history("sourcegraph.cody-ai.v0.json"),
            origin("ItemTable key=sourcegraph.cody-ai, page 2"),
        ),
    ];
    let expected = vec![
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev title=\"Rotate deploy key\"||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 1689|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-latest|||how do I rotate the deploy key on the staging box?||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 1775|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 1775|deleted",
        "2026-10-05T16:20:00.000000Z|utc|Sun, 05 Oct 2026 16:20:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||Generate a new key with ssh-keygen, add it to the repo's deploy keys, then remove the old one.||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 1775|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||user|anthropic::2024-10-22::claude-3-5-haiku-latest|||and in the CI image?||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 2507|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||system|anthropic::2024-10-22::claude-3-5-haiku-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest -> anthropic::2024-10-22::claude-3-5-haiku-latest||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 2507|deleted",
        "2026-10-07T08:00:00.000000Z|utc|Tue, 07 Oct 2026 08:00:00 GMT||assistant|anthropic::2024-10-22::claude-3-5-haiku-latest|||Change the FROM line of ci/Dockerfile.||ItemTable key=sourcegraph.cody-ai, wal frame 2 byte 2507|deleted",
    ];
    let rows = rows::deleted_rows(Some(&live), &older);
    assert_eq!(render_all(&rows), expected);
    // without the live value every chat of the older versions comes back, once
    let all = rows::deleted_rows(None, &older);
    let starts = all
        .iter()
        .filter(|r| r.text.starts_with("session start:"))
        .count();
    assert_eq!(starts, 3);
    assert!(all.iter().all(|r| r.record_state == RecordState::Deleted));
}

#[test]
fn a_damaged_older_version_costs_only_its_damage() {
    let v1 = data("sourcegraph.cody-ai.v1.json");
    let at = v1
        .windows(20)
        .position(|w| w == b"and in the CI image?")
        .unwrap();
    let cut = &v1[..at + 10];
    let older = vec![(
        ExtensionState::from_bytes(cut).history.unwrap(),
        Origin {
            locator: "ItemTable key=sourcegraph.cody-ai, freelist page 4".into(),
            state: RecordState::Deleted,
            ..Origin::default()
        },
    )];
    let rows = rows::deleted_rows(None, &older);
    let parser: Vec<&str> = rows
        .iter()
        .filter(|r| r.is_parser())
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        parser,
        vec![format!(
            "parser: older cody-local-chatHistory-v2 is damaged; read 3 chat(s), 1 of them partly (interaction 1 at byte 2507: input ends at byte {} inside an interaction)",
            cut.len()
        )]
    );
    assert!(
        rows.iter()
            .any(|r| r.text == "how do I rotate the deploy key on the staging box?")
    );
}

#[test]
fn reading_never_changes_the_evidence() {
    let dir = fixture(DB).parent().unwrap().to_path_buf();
    let listing = || {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.display().to_string(), std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = listing();
    let rows = read(DB);
    assert_eq!(rows.len(), 26);
    assert_eq!(listing(), before);
}

#[test]
fn a_database_without_cody_gives_no_row() {
    let dir = std::env::temp_dir().join(format!("cody-nokey-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("state.vscdb");
    let _ = std::fs::remove_file(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); INSERT INTO ItemTable VALUES ('workbench.sideBar.position', '0');").unwrap();
    drop(conn);
    let store = cody_history::CodyStore;
    assert!(store.claim(&db).is_some());
    assert_eq!(
        store.read(&db, &FileContext::default(), &Evidence::new()),
        vec![]
    );
    // nor does a file that is not SQLite at all (the editor's store reports it)
    std::fs::write(&db, b"not a database").unwrap();
    assert_eq!(
        store.read(&db, &FileContext::default(), &Evidence::new()),
        vec![]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn earlier_states_of_an_interaction_are_not_deleted_ones() {
    let v = |chats: &str| {
        ChatHistory::from_bytes(format!(r#"{{"e/-u":{{"chat":{{{chats}}}}}}}"#).as_bytes())
    };
    let q = |h: &str, a: Option<&str>| match a {
        Some(a) => {
            format!(r#"{{"humanMessage":{{"text":"{h}"}},"assistantMessage":{{"text":"{a}"}}}}"#)
        }
        None => format!(r#"{{"humanMessage":{{"text":"{h}"}},"assistantMessage":null}}"#),
    };
    let chat = |id: &str, items: Vec<String>| {
        format!(r#""{id}":{{"interactions":[{}]}}"#, items.join(","))
    };
    let live = v(&chat(
        "Fri, 03 Oct 2026 10:00:00 GMT",
        vec![q("kept", Some("full reply"))],
    ));
    let older = |chats: String, loc: &str| {
        (
            v(&chats),
            Origin {
                locator: loc.into(),
                state: RecordState::Deleted,
                ..Origin::default()
            },
        )
    };
    let versions = vec![
        // saved when the prompt was sent, then mid-way: earlier states of the live reply
        older(
            chat("Fri, 03 Oct 2026 10:00:00 GMT", vec![q("kept", None)]),
            "wal frame 1",
        ),
        older(
            chat(
                "Fri, 03 Oct 2026 10:00:00 GMT",
                vec![q("kept", Some("full"))],
            ),
            "wal frame 2",
        ),
        // a chat deleted later, seen first unanswered and then answered
        older(
            chat("Sat, 04 Oct 2026 10:00:00 GMT", vec![q("gone", None)]),
            "wal frame 3",
        ),
        older(
            chat(
                "Sat, 04 Oct 2026 10:00:00 GMT",
                vec![q("gone", Some("answer"))],
            ),
            "wal frame 4",
        ),
        older(
            chat(
                "Sat, 04 Oct 2026 10:00:00 GMT",
                vec![q("gone", Some("answer"))],
            ),
            "freelist page 9",
        ),
    ];
    let rows = rows::deleted_rows(Some(&live), &versions);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.text.as_str(), r.source_locator.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "session start: account=e/-u endpoint=e/ username=u",
                "wal frame 4 byte 49"
            ),
            ("gone", "wal frame 4 byte 66"),
            ("answer", "wal frame 4 byte 66"),
        ]
    );
}

#[test]
fn a_removed_key_still_gives_its_chats_as_deleted() {
    let dir = std::env::temp_dir().join(format!("cody-removed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let build = dir.join("build.vscdb");
    let conn = rusqlite::Connection::open(&build).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let value = String::from_utf8(data("sourcegraph.cody-ai.v0.json")).unwrap();
    conn.execute(
        "INSERT INTO ItemTable VALUES ('sourcegraph.cody-ai', ?1)",
        [&value],
    )
    .unwrap();
    conn.execute(
        "DELETE FROM ItemTable WHERE key = 'sourcegraph.cody-ai'",
        [],
    )
    .unwrap();
    // copy the files while the connection is open, so the WAL keeps both commits
    let evidence_dir = dir.join("User/globalStorage");
    std::fs::create_dir_all(&evidence_dir).unwrap();
    std::fs::copy(&build, evidence_dir.join("state.vscdb")).unwrap();
    std::fs::copy(
        dir.join("build.vscdb-wal"),
        evidence_dir.join("state.vscdb-wal"),
    )
    .unwrap();
    drop(conn);
    let db = evidence_dir.join("state.vscdb");
    let rows = cody_history::CodyStore.read(&db, &FileContext::default(), &Evidence::new());
    let texts: Vec<(&str, RecordState)> = rows
        .iter()
        .map(|r| (r.text.as_str(), r.record_state))
        .collect();
    assert_eq!(
        texts,
        vec![
            (
                "session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev title=\"Rotate deploy key\"",
                RecordState::Deleted
            ),
            (
                "how do I rotate the deploy key on the staging box?",
                RecordState::Deleted
            ),
            (
                "model: anthropic::2024-10-22::claude-sonnet-4-latest",
                RecordState::Deleted
            ),
            (
                "Generate a new key with ssh-keygen, add it to the repo's deploy keys, then remove the old one.",
                RecordState::Deleted
            ),
        ]
    );
    assert!(
        rows[0]
            .source_locator
            .starts_with("ItemTable key=sourcegraph.cody-ai, wal frame "),
        "{}",
        rows[0].source_locator
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The audit's two shapes at a modest size. One older chat of 2,000 interactions whose
/// live copy holds every other one, and each prompt also answered at more length in a
/// later version, so the prefix rule is asked 2,000 times; then 2,000 chat records under
/// one duplicated JSON key, each pair twice. Every row is pinned by its text.
#[test]
fn large_older_versions_give_each_lost_interaction_once() {
    let value = |chats: &[String]| {
        ChatHistory::from_bytes(
            format!(
                r#"{{"https://sourcegraph.com/-u":{{"chat":{{{}}}}}}}"#,
                chats.join(",")
            )
            .as_bytes(),
        )
    };
    let interaction = |p: &str, r: &str| {
        format!(
            r#"{{"humanMessage":{{"speaker":"human","text":"{p}"}},"assistantMessage":{{"speaker":"assistant","text":"{r}"}}}}"#
        )
    };
    let chat =
        |id: &str, its: &[String]| format!(r#""{id}":{{"interactions":[{}]}}"#, its.join(","));
    let deleted = |v: &str| Origin {
        locator: v.to_string(),
        state: RecordState::Deleted,
        ..Origin::default()
    };
    let n = 2000;
    // live: the even prompts with their full reply
    let live = value(&[chat(
        "c1",
        &(0..n)
            .filter(|i| i % 2 == 0)
            .map(|i| interaction(&format!("prompt {i}"), &format!("reply {i} in full")))
            .collect::<Vec<_>>(),
    )]);
    // older: every prompt with a short reply, then a version where the prompts
    // divisible by 3 have the full reply (so their short replies are earlier states)
    let short = chat(
        "c1",
        &(0..n)
            .map(|i| interaction(&format!("prompt {i}"), &format!("reply {i}")))
            .collect::<Vec<_>>(),
    );
    let full = chat(
        "c1",
        &(0..n)
            .filter(|i| i % 3 == 0)
            .map(|i| interaction(&format!("prompt {i}"), &format!("reply {i} in full")))
            .collect::<Vec<_>>(),
    );
    let older = vec![
        (value(&[short]), deleted("v1")),
        (value(&[full]), deleted("v2")),
    ];
    let texts: Vec<String> = rows::deleted_rows(Some(&live), &older)
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}",
                r.turn_type,
                r.text,
                r.source_locator.split(' ').next().unwrap()
            )
        })
        .collect();
    // lost: the odd prompts not divisible by 3 (short reply, from v1), and the odd
    // prompts divisible by 3 (full reply, from v2); the even ones are live
    let mut want = Vec::new();
    for i in (0..n).filter(|i| i % 2 == 1 && i % 3 != 0) {
        want.push(format!("user|prompt {i}|v1"));
        want.push(format!("assistant|reply {i}|v1"));
    }
    for i in (0..n).filter(|i| i % 2 == 1 && i % 3 == 0) {
        want.push(format!("user|prompt {i}|v2"));
        want.push(format!("assistant|reply {i} in full|v2"));
    }
    assert_eq!(texts, want);

    // 2,000 records of one chat id, under one key, each pair twice (records i and
    // i + 1000 hold the same pair): the first record of each pair gives it, the session
    // start comes once
    let records: Vec<String> = (0..n)
        .map(|i| {
            chat(
                "c1",
                &[interaction(
                    &format!("prompt {}", i % 1000),
                    &format!("reply {}", i % 1000),
                )],
            )
        })
        .collect();
    let older = vec![(value(&records), deleted("v1"))];
    let rows = rows::deleted_rows(None, &older);
    let texts: Vec<String> = rows
        .iter()
        .map(|r| format!("{}|{}", r.turn_type, r.text))
        .collect();
    let mut want = vec!["system|session start: account=https://sourcegraph.com/-u endpoint=https://sourcegraph.com/ username=u".to_string()];
    for i in 0..1000 {
        want.push(format!("user|prompt {i}"));
        want.push(format!("assistant|reply {i}"));
    }
    assert_eq!(texts, want);
    assert!(rows.iter().all(|r| r.record_state == RecordState::Deleted));
}

/// The plan's `source_line` is 1 for the value: in a `state.vscdb` too (the item's value
/// is one JSON value), on the chat rows, on a `cody-model-preferences` that is not an
/// object and on the value's own damage (all were `null`).
#[test]
fn rows_of_the_database_value_are_on_line_1() {
    let dir = std::env::temp_dir().join(format!("cody-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("state.vscdb");
    let _ = std::fs::remove_file(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
        .unwrap();
    let value = r#"{"cody-local-chatHistory-v2":{"https://sourcegraph.com/-bob":{"chat":{"Sat, 04 Oct 2026 09:30:00 GMT":{"id":"Sat, 04 Oct 2026 09:30:00 GMT","interactions":[{"humanMessage":{"speaker":"human","text":"q1"},"assistantMessage":{"speaker":"assistant","text":"a1","model":"m1"}}]}}}},"cody-model-preferences":[1],"other":tru"#;
    conn.execute(
        "INSERT INTO ItemTable (key, value) VALUES ('sourcegraph.cody-ai', ?1)",
        [value],
    )
    .unwrap();
    drop(conn);
    let rows = cody_history::CodyStore.read(&db, &FileContext::default(), &Evidence::new());
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}",
                // a row without a session has the file's mtime (it varies)
                r.timestamp
                    .filter(|_| r.session_id.is_empty())
                    .map(|_| "mtime".to_string())
                    .or(r.timestamp.map(|t| t.to_string()))
                    .unwrap_or_default(),
                r.session_id,
                r.turn_type,
                r.text,
                r.source_line.map(|l| l.to_string()).unwrap_or_default(),
                r.source_locator,
                r.record_state,
                r.secondary,
            )
        })
        .collect();
    let (t, s) = (
        "2026-10-04T09:30:00.000000Z",
        "Sat, 04 Oct 2026 09:30:00 GMT",
    );
    assert_eq!(
        got,
        [
            format!("{t}|{s}|system|session start: account=https://sourcegraph.com/-bob endpoint=https://sourcegraph.com/ username=bob|1|ItemTable key=sourcegraph.cody-ai byte 102|live|false"),
            format!("{t}|{s}|user|q1|1|ItemTable key=sourcegraph.cody-ai byte 156|live|false"),
            format!("{t}|{s}|system|model: m1|1|ItemTable key=sourcegraph.cody-ai byte 156|live|false"),
            format!("{t}|{s}|assistant|a1|1|ItemTable key=sourcegraph.cody-ai byte 156|live|false"),
            "mtime||system|parser: cody-model-preferences is not a JSON object|1|ItemTable key=sourcegraph.cody-ai|live|false".to_string(),
            "||system|parser: ItemTable value for sourcegraph.cody-ai is not valid JSON (input ends at byte 318 inside ',' or '}' after a key)|1|ItemTable key=sourcegraph.cody-ai|live|false".to_string(),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
