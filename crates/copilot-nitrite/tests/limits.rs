//! Exact outcomes on the shapes that once made the reader super-linear (audit of the
//! damaged-input paths), at modest sizes; their speed is printed by the bench example
//! (`copilot_bench`), never timed here.

mod common;

use copilot_nitrite::NitriteFile;
use copilot_nitrite::decode::Place;
use copilot_nitrite::mvstore::MvStore;
use serde_json::Value;

/// A chunk holding only a layout leaf that names no meta-map root.
fn layout_only_chunk(id: u32, version: u64, torn: bool) -> Vec<u8> {
    common::chunk_bytes(id, version, torn, |first| {
        let (p, pos) = common::string_leaf(id, first, 0, 0, &[("meta.id", "1".to_string())]);
        (vec![p], pos)
    })
}

#[test]
fn many_one_block_chunks_give_each_document_its_chunks_version() {
    // 300 one-block chunks: every page read places its chunk, every live document asks
    // its chunk's version (both once scanned every chunk); then chunk ids found again:
    // 5 at an older version, 7 at a newer one, 9 at a newer one but torn
    let c = 300;
    let mut data = common::one_block_chunks(c, false);
    let block = |data: &Vec<u8>| (data.len() / mvstore_block()) as u64;
    let b5 = block(&data);
    data.extend(layout_only_chunk(5, 1, false));
    let b7 = block(&data);
    data.extend(layout_only_chunk(7, 1000, false));
    let b9 = block(&data);
    data.extend(layout_only_chunk(9, 1001, true));
    let f = NitriteFile::from_bytes(&data);
    assert_eq!(f.snapshot, Some((c, c as u64)));
    assert_eq!(f.chunks.len(), c as usize + 3);
    assert_eq!(
        f.chunks[c as usize..],
        [(5, 1, true), (7, 1000, true), (9, 1001, false)]
    );
    assert_eq!((b5, b7, b9), (c as u64 + 2, c as u64 + 3, c as u64 + 4));
    let problems: Vec<(String, String)> = f
        .problems
        .iter()
        .map(|p| (p.locator.clone(), p.message()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                "file".to_string(),
                format!(
                    "chunk 9 at block {b9} (version 1001) has no valid footer: torn or overwritten"
                )
            ),
            (
                "file".to_string(),
                "root of the meta map 1 in chunk 7 is missing".to_string()
            ),
        ]
    );
    let docs: Vec<(u32, u64, Value)> = f
        .documents
        .iter()
        .map(|d| match d.place {
            Place::Page { chunk, .. } => (chunk, d.version, d.value.clone()),
            Place::Byte(_) => panic!("a live document from a raw scan"),
        })
        .collect();
    let expect: Vec<(u32, u64, Value)> = (1..c)
        .map(|id| {
            let version = match id {
                7 => 1000,
                _ => id as u64,
            };
            (id, version, Value::from(format!("doc{id:05}")))
        })
        .collect();
    assert_eq!(docs, expect);
    // the version of a document's chunk: the newest valid chunk of its id, as a scan of
    // every chunk says
    for d in &f.documents {
        let Place::Page { chunk, .. } = d.place else {
            continue;
        };
        let scanned = f
            .chunks
            .iter()
            .filter(|c| c.0 == chunk && c.2)
            .map(|c| c.1)
            .max();
        assert_eq!(Some(d.version), scanned);
    }
    let mv = MvStore::from_bytes(&data);
    assert_eq!(
        [5, 7, 9, c, c + 1].map(|id| mv.chunk_version(id)),
        [Some(5), Some(1000), Some(9), Some(c as u64), None]
    );
    assert!(f.carved.is_empty() && f.texts.is_empty());
}

fn mvstore_block() -> usize {
    copilot_nitrite::mvstore::BLOCK_SIZE
}

#[test]
fn chunks_without_a_meta_root_are_each_tried_once() {
    // every chunk's layout names no meta-map root, so every chunk is a candidate that
    // fails (each once copied every scanned chunk into its own map)
    let c = 300;
    let data = common::one_block_chunks(c, true);
    let f = NitriteFile::from_bytes(&data);
    assert_eq!(f.snapshot, None);
    assert_eq!(f.chunks.len(), c as usize);
    let mut expect: Vec<String> = (1..=c)
        .rev()
        .map(|id| format!("root of the meta map 1 in chunk {id} is missing"))
        .collect();
    expect.push(format!("no chunk holds a readable snapshot ({c} tried)"));
    let problems: Vec<String> = f
        .problems
        .iter()
        .map(|p| {
            assert_eq!(p.locator, "file");
            p.message()
        })
        .collect();
    assert_eq!(problems, expect);
    assert!(f.documents.is_empty() && f.carved.is_empty() && f.texts.is_empty());
}

#[test]
fn the_chosen_snapshot_places_chunks_as_before() {
    // its own chunk, then its layout's `chunk.*` entries, then the first valid chunk of
    // each id the scan found: what every candidate's own full map once held
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = vec![
        format!("{root}/tests/data/agent-deflate.db"),
        format!("{root}/tests/data/agent-unclean.db"),
        format!(
            "{root}/../../fixtures/evidence/lin-ws01/home/alice/.config/github-copilot/intellij/chat-agent-sessions/1b6e3a40-7c2d-4f1e-9d3b-5a6c7e8f9012/copilot-agent-sessions-nitrite.db"
        ),
    ];
    let reference = format!(
        "{root}/../../../shared/reference/copilot-nitrite/budi-phase2-copilot-agent-sessions-nitrite.db"
    );
    if std::path::Path::new(&reference).exists() {
        files.push(reference);
    }
    let mut stores = Vec::new();
    for path in files {
        let data = std::fs::read(&path).expect("fixture");
        // and with the newest chunk cut, so an older candidate is chosen
        let cut = {
            let mv = MvStore::from_bytes(&data);
            let newest = mv.chunks.iter().max_by_key(|c| c.version).expect("chunks");
            data[..newest.start() + 64].to_vec()
        };
        stores.push((path.clone(), data));
        stores.push((path, cut));
    }
    // a layout that places no chunk: every place but its own comes from the scan
    stores.push(("generated".into(), common::one_block_chunks(20, false)));
    let mut layouts_placing = 0;
    let mut scan_placing = 0;
    for (path, data) in stores {
        let mv = MvStore::from_bytes(&data);
        let snap = mv.snapshot.as_ref().expect("a snapshot");
        let chosen = mv
            .chunks
            .iter()
            .find(|c| c.footer_ok && c.id == snap.chunk && c.version == snap.version)
            .expect("the chosen chunk");
        let mut expect = std::collections::HashMap::new();
        expect.insert(chosen.id, chosen.block);
        for (k, v) in &snap.layout {
            if let Some(id) = k.strip_prefix("chunk.") {
                let fields = copilot_nitrite::mvstore::parse_map(v);
                if let (Ok(id), Some(Ok(b))) = (
                    u32::from_str_radix(id, 16),
                    fields.get("block").map(|b| u64::from_str_radix(b, 16)),
                ) {
                    layouts_placing += 1;
                    expect.entry(id).or_insert(b);
                }
            }
        }
        for c in mv.chunks.iter().filter(|c| c.footer_ok) {
            if let std::collections::hash_map::Entry::Vacant(e) = expect.entry(c.id) {
                scan_placing += 1;
                e.insert(c.block);
            }
        }
        assert_eq!(snap.blocks, expect, "{path}");
    }
    assert!(layouts_placing > 10, "{layouts_placing}");
    assert!(scan_placing >= 19, "{scan_placing}");
}

/// The stored bytes of a Java stream holding only the string `hi`.
fn hi_stream() -> Vec<u8> {
    vec![0xAC, 0xED, 0x00, 0x05, 0x74, 0x00, 0x02, b'h', b'i']
}

#[test]
fn small_streams_of_references_share_the_files_budget() {
    // a damaged file (no header, no chunk) of 40 streams whose arrays reference the
    // previous one twice, 24 levels deep (2^24 leaves): the raw scan once expanded each
    // to two million values; now the streams of the file share one budget
    let record = common::tagged(&common::dag_stream(24, 8));
    assert_eq!(record.len(), 548);
    let data = record.repeat(40);
    let f = NitriteFile::from_bytes(&data);
    let budget = copilot_nitrite::javaser::FileBudget::for_file(data.len());
    let (values, text) = (budget.values_left(), budget.text_left());
    assert_eq!(
        (values, text),
        ((1 << 21) + 16 * 21_920, (64 << 20) + 64 * 21_920)
    );
    let problems: Vec<(String, String)> = f
        .problems
        .iter()
        .map(|p| (p.locator.clone(), p.message()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                "file".to_string(),
                "no valid store header in blocks 0 and 1".to_string()
            ),
            ("file".to_string(), "no valid chunk found".to_string()),
            // the first stream spends the limit of one stream, the second what is left
            (
                "byte 548".to_string(),
                format!(
                    "map : Java stream: the file's Java streams together expand to more than {values} JSON values or {text} bytes of text; this one is not decoded"
                )
            ),
        ]
    );
    assert!(f.documents.is_empty() && f.carved.is_empty() && f.texts.is_empty());
}

#[test]
fn a_stream_of_references_leaves_the_rest_of_the_file_its_budget() {
    // live documents in pages: chunk 1 holds a stream past the limit of one stream, so
    // it is a problem, and the nine small streams after it still decode; with a second
    // such stream (chunk 2) the file's budget is gone for the rest
    for second in [false, true] {
        let data = common::one_block_chunks_of(12, false, &|id| match id {
            1 => common::tagged(&common::dag_stream(24, 8)),
            2 if second => common::tagged(&common::dag_stream(24, 8)),
            _ => common::tagged(&hi_stream()),
        });
        let f = NitriteFile::from_bytes(&data);
        assert_eq!(f.snapshot, Some((12, 12)));
        let budget = copilot_nitrite::javaser::FileBudget::for_file(data.len());
        let (values, text) = (budget.values_left(), budget.text_left());
        let problems: Vec<(String, String)> = f
            .problems
            .iter()
            .map(|p| {
                let chunk = p.locator.split(' ').nth(1).unwrap_or("").to_string();
                (chunk, p.message())
            })
            .collect();
        let expansion = "map docs: Java stream: references expand to more than 2097152 JSON values or bytes of text".to_string();
        let over = format!(
            "map docs: Java stream: the file's Java streams together expand to more than {values} JSON values or {text} bytes of text; this one is not decoded"
        );
        let docs: Vec<u32> = f
            .documents
            .iter()
            .map(|d| match d.place {
                Place::Page { chunk, .. } => chunk,
                Place::Byte(_) => 0,
            })
            .collect();
        if second {
            let mut expect = vec![("1".to_string(), expansion)];
            expect.extend((2..12).map(|c| (c.to_string(), over.clone())));
            assert_eq!(problems, expect);
            assert_eq!(docs, Vec::<u32>::new());
        } else {
            assert_eq!(problems, [("1".to_string(), expansion)]);
            assert_eq!(docs, (2..12).collect::<Vec<u32>>());
            assert!(f.documents.iter().all(|d| d.value == "hi"));
        }
    }
}
