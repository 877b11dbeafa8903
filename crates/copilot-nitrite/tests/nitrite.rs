//! Pins the rows of the real reference stores (skipped when `../shared` is absent) and of
//! the project's own generated format-2 stores (plain, LZF, Deflate, unclean shutdown,
//! a 1 MiB page), plus carving, torn chunks and the Store plumbing.

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, RecordState, Row, Store, TurnType};
use copilot_nitrite::mvstore::{self, MvStore};
use copilot_nitrite::{CopilotNitriteStore, NitriteFile, rows};

const REF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/reference/copilot-nitrite"
);
const EV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
const STORE_ID: &str = "1b6e3a40-7c2d-4f1e-9d3b-5a6c7e8f9012";

fn lin_agent() -> PathBuf {
    Path::new(EV).join(format!(
        "lin-ws01/home/alice/.config/github-copilot/intellij/chat-agent-sessions/{STORE_ID}/copilot-agent-sessions-nitrite.db"
    ))
}

fn win_dir() -> PathBuf {
    Path::new(EV).join("WIN-DESK03/C/Users/carol/AppData/Local/github-copilot/iu/chat-agent-sessions/7d2f9c1e-3b4a-4c5d-8e6f-102030405060")
}

fn reference(name: &str) -> Option<Vec<u8>> {
    let p = Path::new(REF).join(name);
    match std::fs::read(&p) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipping: {} is absent", p.display());
            None
        }
    }
}

/// (turn type, state, model, locator, text) of each row, for exact pins.
fn brief(rows: &[Row]) -> Vec<(String, &'static str, String, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r.turn_type.as_str().to_string(),
                r.record_state.as_str(),
                r.model.clone(),
                r.source_locator.clone(),
                r.text.clone(),
            )
        })
        .collect()
}

fn texts(rows: &[Row]) -> Vec<(TurnType, RecordState, String)> {
    rows.iter()
        .map(|r| (r.turn_type, r.record_state, r.text.clone()))
        .collect()
}

#[test]
fn real_agent_store_decodes_structurally() {
    let Some(bytes) = reference("budi-phase2-copilot-agent-sessions-nitrite.db") else {
        return;
    };
    let f = NitriteFile::from_bytes(&bytes);
    assert_eq!(f.format, 3);
    assert_eq!(f.snapshot, Some((4, 4)));
    assert_eq!(
        f.chunks,
        vec![(1, 1, true), (2, 2, true), (3, 3, true), (4, 4, true)]
    );
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let e = "com.github.copilot.agent.session.persistence.nitrite.entity.";
    let maps: Vec<(u32, String, usize)> = f
        .maps
        .iter()
        .map(|m| (m.id, m.name.clone(), m.entries))
        .collect();
    assert_eq!(
        maps,
        vec![
            (2, "$nitrite_store_info".to_string(), 1),
            (3, "$nitrite_meta_map".to_string(), 9),
            (4, "$nitrite_catalog".to_string(), 1),
            (5, format!("{e}NtAgentSession"), 1),
            (6, format!("$nitrite_index_meta|{e}NtAgentSession"), 1),
            (7, format!("{e}NtAgentTurn"), 1),
            (8, format!("$nitrite_index_meta|{e}NtAgentTurn"), 1),
            (9, format!("{e}NtAgentWorkingSetItem"), 0),
            (
                10,
                format!("$nitrite_index_meta|{e}NtAgentWorkingSetItem"),
                2
            ),
            (11, format!("$nitrite_index|{e}NtAgentSession|id|Unique"), 1),
            (12, format!("$nitrite_index|{e}NtAgentTurn|id|Unique"), 1),
            (
                13,
                format!("$nitrite_index|{e}NtAgentWorkingSetItem|id|Unique"),
                0
            ),
            (
                14,
                format!("$nitrite_index|{e}NtAgentWorkingSetItem|sessionId|fileUrl|Unique"),
                0
            ),
        ]
    );
    assert_eq!(f.documents.len(), 19);
    let info = &f.documents[0].value;
    assert_eq!(info["storeVersion"], "MVStore/2.2.224");
    assert_eq!(info["createTime"], 1766178798254i64);
    let cat = f
        .documents
        .iter()
        .find(|d| d.map == "$nitrite_catalog")
        .unwrap();
    assert_eq!(cat.value["mapNames"].as_array().unwrap().len(), 3);
    let turn = f
        .documents
        .iter()
        .find(|d| d.entity() == "NtAgentTurn")
        .unwrap();
    assert_eq!(turn.key, "2052771685799784448");
    assert_eq!(turn.value["_revision"], 1);
    assert_eq!(turn.value["request"]["chatMode"], "Agent");
    assert_eq!(
        turn.value["response"]["modelInformation"]["modelName"],
        "Claude Haiku 4.5"
    );
    let idx = f.documents.iter().find(|d| d.map_id == 11).unwrap();
    assert_eq!(idx.key["value"], "00000000-0000-0000-0000-000000000000");
    assert_eq!(idx.value, serde_json::json!(["2002125108750815232"]));

    let rows = rows::file_rows(&f, "agent.db", "chat-agent-sessions", "");
    let b = brief(&rows);
    // 7: the request's FixedContextPanel (and its hidden References) name one file;
    // 8: the turn's chatMode "Agent" is the session's first mode, a `chat mode:` row
    assert_eq!(b.len(), 8, "{b:#?}");
    assert_eq!(
        b[0],
        (
            "system".into(),
            "live",
            "".into(),
            "chunk 4 page 0x10000065a96 entry 0".into(),
            "session start: title=\"Terraform Assistance Overview\" title_source=copilot kind=chat-agent-sessions user=redacted".into()
        )
    );
    assert_eq!(
        b[1],
        (
            "system".into(),
            "recovered",
            "".into(),
            "chunk 3 page 0xc000002a96 entry 0".into(),
            "session title: title=\"New Chat Session\" title_source=copilot revision=2".into()
        )
    );
    let turn_loc = "chunk 4 page 0x1000007a91e entry 0".to_string();
    assert_eq!(
        b[2],
        (
            "system".into(),
            "live",
            "claude-haiku-4-5".into(),
            turn_loc.clone(),
            "chat mode: Agent".into()
        )
    );
    assert_eq!(
        rows[2].timestamp.unwrap().to_string(),
        "2026-05-08T15:24:37.742000Z"
    );
    let b = &b[1..];
    assert_eq!(
        b[2],
        (
            "user".into(),
            "live",
            "claude-haiku-4-5".into(),
            turn_loc.clone(),
            "test".into()
        )
    );
    assert_eq!(
        b[3],
        (
            "system".into(),
            "live",
            "claude-haiku-4-5".into(),
            turn_loc.clone(),
            "model: claude-haiku-4-5".into()
        )
    );
    assert_eq!(
        b[4],
        (
            "system".into(),
            "live",
            "claude-haiku-4-5".into(),
            turn_loc.clone(),
            "file referenced: /Users/redacted-user/_projects/Terraform/readme.md".into()
        )
    );
    assert_eq!(
        rows[5].timestamp.unwrap().to_string(),
        "2026-05-08T15:24:37.742000Z"
    );
    assert_eq!(
        (b[5].0.as_str(), b[5].3.as_str()),
        ("thinking", turn_loc.as_str())
    );
    assert!(
        b[5].4
            .starts_with("The user has just typed \"test\" as their request."),
        "{}",
        b[5].4
    );
    assert_eq!(b[5].4.chars().count(), 696);
    assert_eq!(b[6].0, "assistant");
    assert!(
        b[6].4
            .starts_with("Hey! I'm ready to assist. I've reviewed the CLAUDE.md guidelines")
    );
    assert!(b[6].4.ends_with("What would you like to work on?"));
    assert_eq!(
        rows[3].timestamp.unwrap().to_string(),
        "2026-05-08T15:24:37.742000Z"
    );
    assert_eq!(rows[0].session_id, "00000000-0000-0000-0000-000000000000");
}

#[test]
fn real_empty_chat_store_has_two_maps_and_no_rows() {
    let Some(bytes) = reference("budi-empty-copilot-chat-nitrite.db") else {
        return;
    };
    let f = NitriteFile::from_bytes(&bytes);
    assert_eq!(f.snapshot, Some((1, 1)));
    let names: Vec<&str> = f.maps.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["$nitrite_store_info", "$nitrite_meta_map"]);
    assert_eq!(f.documents.len(), 2);
    assert!(f.carved.is_empty());
    assert!(rows::file_rows(&f, "x", "chat-sessions", "").is_empty());
}

/// The rows every variant of the generated agent store yields (texts and states).
fn expected_agent_rows() -> Vec<(TurnType, RecordState, String)> {
    use RecordState::*;
    use TurnType::*;
    let t = |a, b, c: &str| (a, b, c.to_string());
    vec![
        t(
            System,
            Live,
            "session start: title=\"Fix the flaky login test\" title_source=copilot kind=chat-agent-sessions user=alice-gh",
        ),
        t(
            System,
            Recovered,
            "session title: title=\"New Agent Session\" title_source=default revision=1",
        ),
        // every generated turn is sent in chatMode "Agent": the session's first mode
        t(System, Live, "chat mode: Agent"),
        t(
            User,
            Live,
            "Why does the login test fail on CI? Ünïcödé ✓ 🚀",
        ),
        t(System, Live, "model: claude-sonnet-4-5"),
        t(
            Thinking,
            Live,
            "The failure is timing related; read the test first.",
        ),
        t(ToolUse, Live, "{\"path\":\"src/login.test.ts\"}"),
        t(
            Assistant,
            Live,
            "The test races the token refresh; await it before asserting. ✅ 日本語もOK 🎉",
        ),
        t(User, Live, "Apply the fix"),
        t(System, Live, "model: claude-sonnet-4-5 -> gpt-4.1"),
        t(Assistant, Live, "Here is the change."),
        t(
            System,
            Live,
            "pending changes: {\"content\":\"--- a/src/login.test.ts\\n+++ b/src/login.test.ts\\n+await refresh();\"}",
        ),
        t(
            System,
            Live,
            "ask question: {\"question\":\"Apply to all tests?\"}",
        ),
        t(
            System,
            Live,
            "notification: {\"message\":\"1 file changed\"}",
        ),
        // removed from the store (its `_id` in no live document): deleted, since
        // 2026-12-05 (before, recovered like an older revision)
        t(User, Deleted, "Print the staging password"),
        t(Assistant, Deleted, "I can't help with credentials."),
        t(User, Live, "Run the whole suite"),
        t(
            System,
            Live,
            "turn error: status=error message=\"Sorry, an error occurred while generating a response.\"",
        ),
        t(User, Deleted, "Summarise the session"),
        t(Assistant, Deleted, "We fixed the login test."),
        // the turn's deletedAt, at its own time
        t(
            System,
            Deleted,
            "turn deleted: at=2026-01-01T10:06:00.000000Z",
        ),
        t(
            System,
            Deleted,
            "session start: title=\"Old experiment\" title_source=user kind=chat-agent-sessions user=alice-gh",
        ),
        t(User, Deleted, "What is MVStore?"),
        t(Assistant, Deleted, "MVStore is H2's storage engine."),
    ]
}

#[test]
fn generated_plain_store_through_the_store_trait() {
    let path = lin_agent();
    let store = CopilotNitriteStore;
    assert!(store.claim(&path).is_some());
    let before = std::fs::read(&path).unwrap();
    let listing = |p: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    let dir_before = listing(&path);
    let ev = Evidence::new();
    let ctx = FileContext {
        display_path: "lin-ws01/agent.db".into(),
        ..FileContext::default()
    };
    let rows = store.read(&path, &ctx, &ev);
    assert_eq!(texts(&rows), expected_agent_rows());
    // the project comes from the sibling chat-sessions store of the same store id
    assert!(
        rows.iter()
            .all(|r| r.project_path == "login-service" && r.source_file == "lin-ws01/agent.db")
    );
    assert!(rows.iter().all(|r| r.agent == "copilot"));
    let b = brief(&rows);
    assert_eq!(b[0].3, "chunk 13 page 0x34000002a96 entry 0");
    assert_eq!(b[1].3, "chunk 2 page 0x8000002a96 entry 0");
    // the chat mode row: turn A's, at its request's time
    assert_eq!(b[2].3, "chunk 10 page 0x28000004e60 entry 0");
    assert_eq!(
        rows[2].timestamp.unwrap().to_string(),
        "2026-01-01T10:01:00.000000Z"
    );
    let (b, rows) = (&b[1..], &rows[1..]);
    assert_eq!(b[6].2, "claude-sonnet-4-5");
    assert_eq!(b[6].3, "chunk 10 page 0x28000004e60 entry 0");
    assert_eq!(b[13].3, "chunk 7 page 0x1c000002aa2 entry 2");
    assert_eq!(b[19].3, "chunk 13 page 0x340000191de entry 1");
    assert_eq!(
        rows[19].timestamp.unwrap().to_string(),
        "2026-01-01T10:06:00.000000Z"
    );
    assert_eq!(b[21].3, "chunk 12 page 0x30000004e60 entry 2");
    assert_eq!(rows[5].tool_name, "read_file");
    assert_eq!(rows[5].tool_use_id, "toolu_01ABC");
    assert_eq!(
        rows[2].timestamp.unwrap().to_string(),
        "2026-01-01T10:01:00.000000Z"
    );
    assert_eq!(rows[0].session_id, "5f0c6a2e-1b7d-4c39-9a51-0e2d3c4b5a61");
    assert_eq!(rows[20].session_id, "9a8b7c6d-0000-4000-8000-00000000abcd");
    // both stores were read through the evidence gateway, and nothing changed
    assert_eq!(ev.manifest().len(), 2);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(listing(&path), dir_before);
}

#[test]
fn lzf_and_deflate_stores_decode_to_the_same_rows() {
    for path in [
        win_dir().join("copilot-agent-sessions-nitrite.db"),
        Path::new(DATA).join("agent-deflate.db"),
    ] {
        let bytes = std::fs::read(&path).unwrap();
        let f = NitriteFile::from_bytes(&bytes);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
        assert_eq!(texts(&rows), expected_agent_rows(), "{}", path.display());
        // the pages really are compressed
        let mv = MvStore::from_bytes(&bytes);
        let compressed: usize = mv
            .chunks
            .iter()
            .map(|c| {
                mv.chunk_pages(c, 1)
                    .0
                    .iter()
                    .filter(|(_, p)| p.compressed)
                    .count()
            })
            .sum();
        assert!(
            compressed >= 10,
            "{} has {compressed} compressed pages",
            path.display()
        );
    }
}

#[test]
fn unclean_shutdown_header_is_only_a_hint() {
    let bytes = std::fs::read(Path::new(DATA).join("agent-unclean.db")).unwrap();
    let f = NitriteFile::from_bytes(&bytes);
    assert!(
        !f.header.contains_key("block")
            && !f.header.contains_key("chunk")
            && !f.header.contains_key("version")
    );
    assert!(!f.header.contains_key("clean"));
    assert_eq!(f.format, 2);
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let parser: Vec<&str> = rows
        .iter()
        .filter(|r| r.is_parser())
        .map(|r| r.text.as_str())
        .collect();
    // the torn chunk's pages are walked from its header until one does not decode: that
    // page is a row too (nothing dropped silently)
    assert_eq!(
        parser,
        [
            "parser: chunk 10 at block 29 (version 12) has no valid footer: torn or overwritten",
            "parser: page not readable: page at file offset 119245: page length 942682160 outside 7..=3635"
        ]
    );
    let rest: Vec<_> = texts(&rows)
        .into_iter()
        .filter(|(_, _, t)| !t.starts_with("parser:"))
        .collect();
    assert_eq!(rest, expected_agent_rows());
}

#[test]
fn torn_last_chunk_falls_back_to_the_previous_version() {
    let bytes = std::fs::read(lin_agent()).unwrap();
    let mv = MvStore::from_bytes(&bytes);
    let last = mv.chunks.iter().max_by_key(|c| c.version).unwrap().clone();
    assert_eq!((last.id, last.version), (13, 13));
    // cut the file in the middle of the newest chunk: its footer is gone
    let cut = &bytes[..last.start() + 5000];
    let f = NitriteFile::from_bytes(cut);
    assert_eq!(f.snapshot, Some((12, 12)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let parser: Vec<&str> = rows
        .iter()
        .filter(|r| r.is_parser())
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        parser,
        [
            "parser: chunk 13 at block 27 (version 13) has no valid footer: torn or overwritten",
            "parser: store header names chunk 13 at block 27, which is missing or torn",
            "parser: page not readable: page at file offset 112199: page length 5075 outside 7..=3393"
        ]
    );
    // in version 12 the second session and its turn were still live
    let old = rows
        .iter()
        .find(|r| {
            r.text
                .starts_with("session start: title=\"Old experiment\"")
        })
        .unwrap();
    assert_eq!(old.record_state, RecordState::Live);
    let f_turn = rows.iter().find(|r| r.text == "What is MVStore?").unwrap();
    assert_eq!(f_turn.record_state, RecordState::Live);
}

#[test]
fn a_page_over_one_mib_and_a_long_string() {
    let bytes = std::fs::read(Path::new(DATA).join("long-reply.db")).unwrap();
    let mv = MvStore::from_bytes(&bytes);
    let big: Vec<_> = mv
        .chunks
        .iter()
        .flat_map(|c| mv.toc(c).unwrap_or_default())
        .filter(|p| p.code == 31)
        .collect();
    assert_eq!(big.len(), 1, "one page with length code 31");
    let f = NitriteFile::from_bytes(&bytes);
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let reply = rows
        .iter()
        .find(|r| r.turn_type == TurnType::Assistant)
        .unwrap();
    assert_eq!(reply.text.encode_utf16().count(), 1_100_000);
    assert!(
        reply
            .text
            .starts_with("version carve layout page chunk chunk carve version Nitrite")
    );
    assert!(reply.text.contains("🙂") && reply.text.contains("näive"));
    assert_eq!(reply.model, "claude-opus-4-5");
}

#[test]
fn xodus_log_beside_a_store_gets_one_row() {
    let path = win_dir().join("00000000000.xd");
    let store = CopilotNitriteStore;
    assert_eq!(
        store.claim(&path).unwrap().kind,
        "Copilot JetBrains Xodus log"
    );
    let rows = store.read(&path, &FileContext::default(), &Evidence::new());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].text,
        "parser: Xodus log 00000000000.xd is present and not read"
    );
}

#[test]
fn damaged_store_without_any_chunk_is_scanned_for_java_streams() {
    let bytes = std::fs::read(lin_agent()).unwrap();
    // wipe every chunk header and the store header: only the raw scan can find documents
    let mut wiped = bytes.clone();
    for b in (0..wiped.len()).step_by(mvstore::BLOCK_SIZE) {
        wiped[b] = b'X';
    }
    let f = NitriteFile::from_bytes(&wiped);
    assert_eq!(f.snapshot, None);
    assert!(f.documents.is_empty());
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    assert!(
        rows.iter()
            .any(|r| r.text == "parser: no valid store header in blocks 0 and 1")
    );
    assert!(
        rows.iter()
            .any(|r| r.text == "parser: no valid chunk found")
    );
    let recovered: Vec<&Row> = rows
        .iter()
        .filter(|r| r.record_state == RecordState::Recovered)
        .collect();
    assert!(
        recovered
            .iter()
            .all(|r| r.source_locator.starts_with("byte "))
    );
    for text in [
        "Run the whole suite",
        "What is MVStore?",
        "The test races the token refresh; await it before asserting. ✅ 日本語もOK 🎉",
    ] {
        assert!(
            recovered.iter().any(|r| r.text == text),
            "{text} not recovered"
        );
    }
}

#[test]
fn dirty_inputs_never_panic_and_report_damage() {
    let stores = [lin_agent(), Path::new(DATA).join("agent-deflate.db")];
    for path in stores.iter().map(PathBuf::as_path).chain(
        [Path::new(REF).join("budi-phase2-copilot-agent-sessions-nitrite.db")]
            .iter()
            .map(PathBuf::as_path)
            .filter(|p| p.exists())
            .collect::<Vec<_>>(),
    ) {
        let input = std::fs::read(path).unwrap();
        let report = chat_rows::dirty::Harness::new()
            .truncations(24)
            .flips(48)
            .splices(16)
            .run(&input, |b| {
                rows::file_rows(&NitriteFile::from_bytes(b), "x", "chat-agent-sessions", "")
            });
        report.assert_no_panics();
        report.assert_peak_memory_below(1 << 30);
        // every truncation loses the newest chunk's footer (or the header): always reported
        report.assert_damage_reported(
            |m| matches!(m, chat_rows::dirty::Mutation::Truncate(n) if *n < input.len()),
        );
    }
}

/// `h2-mvstore.md` §10 step 3: the snapshot is the newest chunk whose pages all decode.
/// A bad check value on a live page of chunk 13 makes version 12 the snapshot; the
/// rejection and the page are `parser:` rows.
#[test]
fn a_damaged_live_page_makes_the_previous_version_the_snapshot() {
    let mut bytes = std::fs::read(lin_agent()).unwrap();
    // the live leaf page of NtAgentTurn in chunk 13 (block 27) holds turns D and E
    let pos = mvstore::Pos::from_u64(0x340000191de);
    assert_eq!((pos.chunk, pos.node), (13, false));
    let at = 27 * mvstore::BLOCK_SIZE + pos.offset as usize;
    bytes[at + 4] ^= 0x40; // its check value
    let f = NitriteFile::from_bytes(&bytes);
    assert_eq!(f.snapshot, Some((12, 12)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let parser: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r.is_parser())
        .map(|r| (r.source_locator.as_str(), r.text.as_str()))
        .collect();
    let turns = "com.github.copilot.agent.session.persistence.nitrite.entity.NtAgentTurn";
    let check = "page at file offset 112199: check value 0x5599, expected 0x1599";
    assert_eq!(
        parser,
        [
            (
                "file",
                format!(
                    "parser: chunk 13 (version 13) is not used as the snapshot: map {turns} not fully readable: {check}"
                )
                .as_str()
            ),
            (
                "chunk 13",
                format!("parser: page not readable: {check}").as_str()
            )
        ]
    );
    // version 12 still held turns D and E, and the session that version 13 removed
    for (text, state, loc) in [
        (
            "Run the whole suite",
            RecordState::Live,
            "chunk 12 page 0x30000004e60 entry 0",
        ),
        (
            "What is MVStore?",
            RecordState::Live,
            "chunk 12 page 0x30000004e60 entry 2",
        ),
        (
            "session start: title=\"Old experiment\" title_source=user kind=chat-agent-sessions user=alice-gh",
            RecordState::Live,
            "chunk 11 page 0x2c000002a9a entry 1",
        ),
    ] {
        let d = rows.iter().find(|r| r.text == text).unwrap();
        assert_eq!(
            (d.record_state, d.source_locator.as_str()),
            (state, loc),
            "{text}"
        );
    }
}

/// Only the candidate's own pages count: a bad dead page (the turn page of chunk 12,
/// which version 13 replaced) leaves version 13 the snapshot, and is a `parser:` row.
#[test]
fn a_damaged_dead_page_keeps_the_newest_snapshot() {
    let mut bytes = std::fs::read(lin_agent()).unwrap();
    let block = MvStore::from_bytes(&bytes)
        .chunks
        .iter()
        .find(|c| c.id == 12)
        .unwrap()
        .block as usize;
    let pos = mvstore::Pos::from_u64(0x30000004e60);
    let at = block * mvstore::BLOCK_SIZE + pos.offset as usize;
    bytes[at + 4] ^= 0x40;
    let f = NitriteFile::from_bytes(&bytes);
    assert_eq!(f.snapshot, Some((13, 13)));
    let msgs: Vec<(String, String)> = f
        .problems
        .iter()
        .map(|p| (p.locator.clone(), p.message()))
        .collect();
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert_eq!(msgs[0].0, "chunk 12");
    assert!(
        msgs[0].1.starts_with(&format!(
            "page not readable: page at file offset {at}: check value"
        )),
        "{msgs:?}"
    );
}

/// The real store with one bit of the live session page's check value flipped (file
/// byte 43,374): version 4 does not decode completely, so version 3 is the snapshot and
/// the turn only in chunk 4 is recovered.
#[test]
fn real_store_with_a_bad_live_page_falls_back_to_version_3() {
    let Some(mut bytes) = reference("budi-phase2-copilot-agent-sessions-nitrite.db") else {
        return;
    };
    bytes[43_374] ^= 0x40;
    let f = NitriteFile::from_bytes(&bytes);
    assert_eq!(f.snapshot, Some((3, 3)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let session = "com.github.copilot.agent.session.persistence.nitrite.entity.NtAgentSession";
    let check = "page at file offset 43370: check value 0x5c54, expected 0x1c54";
    let b: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r.record_state.as_str(),
                r.source_locator.as_str(),
                r.text.as_str(),
            )
        })
        .collect();
    assert_eq!(
        &b[..3],
        [
            (
                "live",
                "file",
                format!("parser: chunk 4 (version 4) is not used as the snapshot: map {session} not fully readable: {check}").as_str()
            ),
            ("live", "chunk 4", format!("parser: page not readable: {check}").as_str()),
            (
                "live",
                "chunk 3 page 0xc000002a96 entry 0",
                "session start: title=\"New Chat Session\" title_source=copilot kind=chat-agent-sessions user=redacted"
            ),
        ]
    );
    assert!(
        b.contains(&("recovered", "chunk 4 page 0x1000007a91e entry 0", "test")),
        "{b:#?}"
    );
}

/// The final fallback (`h2-mvstore.md` §10, the latin1 text scanner of `copilot.txt`):
/// cut at 49,400 bytes, the turn's page in torn chunk 4 no longer decodes (a `parser:`
/// row with its place), but its bytes still hold the prompt, the thinking text and the
/// whole reply (ending at byte 49,164): they come back as recovered rows at their bytes.
#[test]
fn real_store_cut_inside_a_page_keeps_its_texts() {
    let Some(bytes) = reference("budi-phase2-copilot-agent-sessions-nitrite.db") else {
        return;
    };
    let full = rows::file_rows(
        &NitriteFile::from_bytes(&bytes),
        "x",
        "chat-agent-sessions",
        "",
    );
    let whole = |t: TurnType| full.iter().find(|r| r.turn_type == t).unwrap().text.clone();
    let f = NitriteFile::from_bytes(&bytes[..49_400]);
    assert_eq!(f.snapshot, Some((3, 3)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let sid = "00000000-0000-0000-0000-000000000000";
    let got: Vec<(String, &str, &str, &str, String)> = rows
        .iter()
        .map(|r| {
            (
                r.turn_type.as_str().to_string(),
                r.record_state.as_str(),
                r.session_id.as_str(),
                r.source_locator.as_str(),
                r.text.clone(),
            )
        })
        .collect();
    let want: Vec<(String, &str, &str, &str, String)> = vec![
        ("system".into(), "live", "", "file", "parser: chunk 4 at block 9 (version 4) has no valid footer: torn or overwritten".into()),
        ("system".into(), "live", "", "file", "parser: store header names chunk 4 at block 9, which is missing or torn".into()),
        ("system".into(), "live", "", "chunk 4", "parser: page not readable: page at file offset 44708: page length 5332 outside 7..=4692".into()),
        ("system".into(), "live", sid, "chunk 3 page 0xc000002a96 entry 0", "session start: title=\"New Chat Session\" title_source=copilot kind=chat-agent-sessions user=redacted".into()),
        ("system".into(), "recovered", sid, "chunk 4 page 0x10000065a96 entry 0", "session title: title=\"Terraform Assistance Overview\" title_source=copilot revision=3".into()),
        ("user".into(), "recovered", sid, "byte 45322", "test".into()),
        ("thinking".into(), "recovered", sid, "byte 47158", whole(TurnType::Thinking)),
        ("assistant".into(), "recovered", sid, "byte 48484", whole(TurnType::Assistant)),
    ];
    assert_eq!(got, want);
    assert!(whole(TurnType::Assistant).ends_with("What would you like to work on?"));
    // nothing is scanned twice: the intact store has no text-scan rows
    assert!(full.iter().all(|r| !r.source_locator.starts_with("byte ")));
}

#[test]
fn real_store_with_a_torn_last_chunk_falls_back_to_version_3() {
    let Some(bytes) = reference("budi-phase2-copilot-agent-sessions-nitrite.db") else {
        return;
    };
    // chunk 4 starts at block 9; cut it where its TOC starts (toc:38cc), so its pages can
    // only be found by walking them from the chunk header
    let cut = &bytes[..9 * mvstore::BLOCK_SIZE + 0x38cc];
    let f = NitriteFile::from_bytes(cut);
    assert_eq!(f.snapshot, Some((3, 3)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let b: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r.turn_type.as_str(),
                r.record_state.as_str(),
                r.text.as_str(),
            )
        })
        .collect();
    // version 3 held the session (revision 2, titled "New Chat Session": the live row
    // carries that title) but not yet the turn; the newer title and the turn's page in the
    // torn chunk are still carved, as recovered rows
    assert_eq!(
        &b[..3],
        [
            (
                "system",
                "live",
                "parser: chunk 4 at block 9 (version 4) has no valid footer: torn or overwritten"
            ),
            (
                "system",
                "live",
                "parser: store header names chunk 4 at block 9, which is missing or torn"
            ),
            (
                "system",
                "live",
                "session start: title=\"New Chat Session\" title_source=copilot kind=chat-agent-sessions user=redacted"
            ),
        ]
    );
    assert_eq!(
        b[3],
        (
            "system",
            "recovered",
            "session title: title=\"Terraform Assistance Overview\" title_source=copilot revision=3"
        )
    );
    assert_eq!(
        (
            rows[2].source_locator.as_str(),
            rows[3].source_locator.as_str()
        ),
        (
            "chunk 3 page 0xc000002a96 entry 0",
            "chunk 4 page 0x10000065a96 entry 0"
        )
    );
    // revision 1 had the same title as the live revision 2: no row of its own
    assert_eq!(
        b.iter()
            .filter(|r| r.2.starts_with("session title:"))
            .count(),
        1
    );
    assert!(b.contains(&("user", "recovered", "test")), "{b:#?}");
}

fn foreign_store_path() -> PathBuf {
    Path::new(EV).join("lin-ws01/home/alice/.config/github-copilot/pycharm/chat-sessions/5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c/copilot-chat-nitrite.db")
}

/// Another application's H2 database (an H2 SQL store written by H2 2.1.214, its row
/// deleted before the shutdown so its older chunk still holds it) where a Nitrite store
/// is expected: one `parser:` row naming what it holds, nothing else (it used to give
/// a dozen empty `0: `, `3: `, `6: ` rows, some `recovered`, and page errors).
#[test]
fn a_foreign_h2_store_is_one_row_naming_its_maps() {
    let ctx = FileContext {
        display_path: "copilot-chat-nitrite.db".into(),
        ..FileContext::default()
    };
    let rows = CopilotNitriteStore.read(&foreign_store_path(), &ctx, &Evidence::new());
    assert_eq!(
        brief(&rows),
        [(
            "system".to_string(),
            "live",
            String::new(),
            "file".to_string(),
            "parser: not a Nitrite store (H2 MVStore format 2, 11 map(s): _, openTransactions, undoLog.1, table.0, lobMap, tempLobMap, lobRef, lobData, undoLog.2, table.3, index.6; no $nitrite_ map)".to_string()
        )]
    );
    // the decoder itself still sees the maps, the entries and the dead pages
    let f = NitriteFile::from_bytes(&std::fs::read(foreign_store_path()).unwrap());
    assert!(f.documents.len() >= 8, "{}", f.documents.len());
    assert_eq!(
        rows::foreign_store(&f).as_deref(),
        Some(&rows[0].text["parser: ".len()..])
    );
}

/// Nitrite stores are never taken for foreign ones: the generated stores, the real
/// reference stores (the empty one has only `$nitrite_*` maps), and a store whose
/// snapshot cannot be read (damage, not a foreign format).
#[test]
fn nitrite_stores_are_not_foreign() {
    let mut stores = vec![
        std::fs::read(lin_agent()).unwrap(),
        std::fs::read(Path::new(DATA).join("agent-deflate.db")).unwrap(),
        std::fs::read(Path::new(DATA).join("agent-unclean.db")).unwrap(),
    ];
    for name in [
        "budi-empty-copilot-chat-nitrite.db",
        "budi-phase2-copilot-agent-sessions-nitrite.db",
    ] {
        stores.extend(reference(name));
    }
    for bytes in &stores {
        assert_eq!(rows::foreign_store(&NitriteFile::from_bytes(bytes)), None);
    }
    // the foreign store cut before its chunks: no snapshot, so no verdict
    let cut = std::fs::read(foreign_store_path()).unwrap();
    assert_eq!(
        rows::foreign_store(&NitriteFile::from_bytes(&cut[..4096])),
        None
    );
}

#[test]
fn dirty_foreign_store_never_panics() {
    let input = std::fs::read(foreign_store_path()).unwrap();
    let report = chat_rows::dirty::Harness::new()
        .truncations(24)
        .flips(48)
        .splices(16)
        .run(&input, |b| {
            rows::file_rows(&NitriteFile::from_bytes(b), "x", "chat-sessions", "")
        });
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
}
