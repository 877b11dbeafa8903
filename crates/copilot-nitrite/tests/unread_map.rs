//! A map of the snapshot that cannot be walked (a bad child position, a bad page): its
//! live documents are not known, so none of its documents is known removed. Those the
//! carving finds are `recovered`, next to the map's `parser:` row, never `deleted`.
//! The stores are built here from the Java streams of the project's generated store
//! (and the real reference store is damaged in memory, skipped when absent).

mod common;

use std::path::Path;

use chat_rows::TurnType;
use common::{chunk_bytes, header_blocks, page, string_leaf, tagged};
use copilot_nitrite::mvstore::{MvStore, MvValue, Pos, length_code};
use copilot_nitrite::{NitriteFile, javaser, rows};

const EV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence");
const REF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/reference/copilot-nitrite"
);
const ENTITY: &str = "com.github.copilot.agent.session.persistence.nitrite.entity.";

fn lin_agent() -> Vec<u8> {
    std::fs::read(Path::new(EV).join(
        "lin-ws01/home/alice/.config/github-copilot/intellij/chat-agent-sessions/1b6e3a40-7c2d-4f1e-9d3b-5a6c7e8f9012/copilot-agent-sessions-nitrite.db",
    ))
    .unwrap()
}

/// The (key, value) Java streams of the live entry of map `entity` of the generated
/// store for which `pick` holds on the value's JSON.
fn entry(
    bytes: &[u8],
    entity: &str,
    pick: &dyn Fn(&serde_json::Value) -> bool,
) -> (Vec<u8>, Vec<u8>) {
    let mut mv = MvStore::from_bytes(bytes);
    let id = *mv
        .snapshot
        .as_ref()
        .unwrap()
        .maps()
        .iter()
        .find(|(_, n)| n.as_str() == format!("{ENTITY}{entity}"))
        .unwrap()
        .0;
    for e in mv.take_map(id).unwrap() {
        if let (MvValue::Java(k), MvValue::Java(v)) = (e.key, e.value) {
            if pick(&javaser::to_json(&v).unwrap()) {
                return (k, v);
            }
        }
    }
    panic!("no such {entity}");
}

/// (state, locator, text) of each row.
fn brief(rows: &[chat_rows::Row]) -> Vec<(&'static str, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r.record_state.as_str(),
                r.source_locator.clone(),
                r.text.clone(),
            )
        })
        .collect()
}

/// Chunk 1 holds a leaf of the turn map (7) with one turn; chunk 2 (the snapshot) a
/// leaf of the session map (6) with its session, a node of map 7 over chunk 1's leaf
/// and a child position that holds no page, the meta map and the layout. With
/// `bad_value`, map 7's root is instead a leaf of chunk 2 holding the same key with a
/// value whose Java stream does not decode.
fn store(bad_value: bool) -> Vec<u8> {
    let fixture = lin_agent();
    let (tk, tv) = entry(&fixture, "NtAgentTurn", &|v| {
        v["request"]["stringContent"] == "Run the whole suite"
    });
    let sid = javaser::to_json(&tv).unwrap()["sessionId"].clone();
    let (sk, sv) = entry(&fixture, "NtAgentSession", &|v| v["id"] == sid);
    let mut out = header_blocks();
    let mut leaf = 0;
    out.extend(chunk_bytes(1, 1, false, |first| {
        let (p, pos) = page(1, first, 0, 7, 1, &tagged(&tk), &[], &tagged(&tv));
        leaf = pos;
        (vec![p], 0)
    }));
    out.extend(chunk_bytes(2, 2, false, |first| {
        let mut off = first;
        let (sessions, sessions_pos) = page(2, off, 0, 6, 1, &tagged(&sk), &[], &tagged(&sv));
        // inside the session page: no page starts there
        let nowhere = Pos {
            chunk: 2,
            offset: first + 1,
            code: length_code(64),
            node: false,
        }
        .to_u64();
        off += sessions.len() as u32;
        let (node, node_pos) = if bad_value {
            let broken = [0xAC, 0xED, 0x00, 0x05, 0xFF];
            page(2, off, 1, 7, 1, &tagged(&tk), &[], &tagged(&broken))
        } else {
            page(2, off, 1, 7, 1, &tagged(&tk), &[leaf, nowhere], &[])
        };
        off += node.len() as u32;
        let (meta, meta_pos) = string_leaf(
            2,
            off,
            2,
            1,
            &[
                ("map.6", format!("name:{ENTITY}NtAgentSession")),
                ("map.7", format!("name:{ENTITY}NtAgentTurn")),
                (&format!("name.{ENTITY}NtAgentSession"), "6".to_string()),
                (&format!("name.{ENTITY}NtAgentTurn"), "7".to_string()),
            ],
        );
        off += meta.len() as u32;
        let (layout, layout_pos) = string_leaf(
            2,
            off,
            3,
            0,
            &[
                ("meta.id", "1".to_string()),
                ("root.1", format!("{meta_pos:x}")),
                ("root.6", format!("{sessions_pos:x}")),
                ("root.7", format!("{node_pos:x}")),
            ],
        );
        (vec![sessions, node, meta, layout], layout_pos)
    }));
    out
}

#[test]
fn documents_of_a_map_that_cannot_be_walked_are_recovered_not_deleted() {
    let f = NitriteFile::from_bytes(&store(false));
    assert_eq!(f.snapshot, Some((2, 2)));
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let turns = format!("{ENTITY}NtAgentTurn");
    let leaf = "chunk 1 page 0x400000321a entry 0";
    assert_eq!(
        brief(&rows),
        [
            (
                "live",
                "map 7".to_string(),
                format!(
                    "parser: map {turns} not fully readable: page at file offset 12489: page length 331269 outside 7..=3895"
                )
            ),
            (
                "live",
                "chunk 2 page 0x8000003216 entry 0".to_string(),
                "session start: title=\"Fix the flaky login test\" title_source=copilot kind=chat-agent-sessions user=alice-gh".to_string()
            ),
            // the turn of the unreadable map, carved from its (live) leaf: recovered
            // (before 2026-12-05, deleted)
            (
                "recovered",
                leaf.to_string(),
                "Run the whole suite".to_string()
            ),
            (
                "recovered",
                leaf.to_string(),
                "turn error: status=error message=\"Sorry, an error occurred while generating a response.\"".to_string()
            ),
        ]
    );
    assert_eq!(f.unread_maps, [7]);
}

/// The audit's recipe on the real store: one bit of map 6's page check value flipped
/// (chunk 1, file byte 20,933) and the layout's `root.7` `1000007a91e` made
/// `1000007a900` (no page starts there).
#[test]
fn real_store_whose_turn_map_cannot_be_walked_keeps_its_turn_recovered() {
    let p = Path::new(REF).join("budi-phase2-copilot-agent-sessions-nitrite.db");
    let Ok(mut bytes) = std::fs::read(&p) else {
        eprintln!("skipping: {} is absent", p.display());
        return;
    };
    bytes[20_933] ^= 0x40;
    // the layout's values: the only `1000007a91e` of the file, after its length
    let at = bytes
        .windows(12)
        .position(|w| w == b"\x0b1000007a91e")
        .unwrap();
    assert_eq!(at, 51_346);
    bytes[at + 10..at + 12].copy_from_slice(b"00");
    let f = NitriteFile::from_bytes(&bytes);
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    assert_eq!(f.snapshot, Some((4, 4)));
    assert_eq!(f.unread_maps, [6, 7]);
    // the thinking text and the reply, as the undamaged store gives them
    let whole = rows::file_rows(
        &NitriteFile::from_bytes(&std::fs::read(&p).unwrap()),
        "x",
        "chat-agent-sessions",
        "",
    );
    let text = |t: TurnType| {
        whole
            .iter()
            .find(|r| r.turn_type == t)
            .unwrap()
            .text
            .clone()
    };
    let sessions = format!("$nitrite_index_meta|{ENTITY}NtAgentSession");
    let bad6 = "page at file offset 20933: page length 1073742725 outside 7..=7739";
    let turn = "chunk 4 page 0x1000007a91e entry 0";
    let row = |st: &'static str, loc: &str, text: &str| (st, loc.to_string(), text.to_string());
    assert_eq!(
        brief(&rows),
        [
            row(
                "live",
                "map 6",
                &format!("parser: map {sessions} not fully readable: {bad6}")
            ),
            row(
                "live",
                "map 7",
                &format!(
                    "parser: map {ENTITY}NtAgentTurn not fully readable: page at file offset 44708: page length 5332 exceeds 32 of length code 0"
                )
            ),
            row(
                "live",
                "chunk 1",
                &format!("parser: page not readable: {bad6}")
            ),
            row(
                "live",
                "chunk 4 page 0x10000065a96 entry 0",
                "session start: title=\"Terraform Assistance Overview\" title_source=copilot kind=chat-agent-sessions user=redacted"
            ),
            row(
                "recovered",
                "chunk 3 page 0xc000002a96 entry 0",
                "session title: title=\"New Chat Session\" title_source=copilot revision=2"
            ),
            // the only turn, from the live leaf the layout no longer reaches: recovered
            // (before 2026-12-05, deleted)
            row("recovered", turn, "test"),
            row(
                "recovered",
                turn,
                "file referenced: /Users/redacted-user/_projects/Terraform/readme.md"
            ),
            row("recovered", turn, &text(TurnType::Thinking)),
            row("recovered", turn, &text(TurnType::Assistant)),
        ]
    );
}

/// A live entry whose value does not decode: the map's live `_id`s are not all known,
/// so the older revision of that turn (carved from chunk 1) is recovered, not deleted.
#[test]
fn an_older_revision_of_a_live_entry_that_does_not_decode_is_recovered() {
    let f = NitriteFile::from_bytes(&store(true));
    assert_eq!(f.snapshot, Some((2, 2)));
    assert_eq!(f.unread_maps, [7]);
    let rows = rows::file_rows(&f, "x", "chat-agent-sessions", "");
    let leaf = "chunk 1 page 0x400000321a entry 0";
    let row = |st: &'static str, loc: &str, text: &str| (st, loc.to_string(), text.to_string());
    assert_eq!(
        brief(&rows),
        [
            row(
                "live",
                "chunk 2 page 0x800001758a entry 0",
                &format!(
                    "parser: map {ENTITY}NtAgentTurn: Java stream: unexpected type code 0xff at byte 4"
                )
            ),
            row(
                "live",
                "chunk 2 page 0x8000003216 entry 0",
                "session start: title=\"Fix the flaky login test\" title_source=copilot kind=chat-agent-sessions user=alice-gh"
            ),
            // before 2026-12-05, deleted
            row("recovered", leaf, "Run the whole suite"),
            row(
                "recovered",
                leaf,
                "turn error: status=error message=\"Sorry, an error occurred while generating a response.\""
            ),
        ]
    );
}
