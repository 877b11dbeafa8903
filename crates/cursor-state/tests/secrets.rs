//! The secrets the spec names, planted in the fixtures, never reach any output format.

mod common;

use chat_rows::write::{Format, to_bytes};
use common::*;

const PLANTED: &[&str] = &[
    "SECRET-CURSOR-ACCESS-alice",
    "SECRET-CURSOR-REFRESH-alice",
    "SECRET-CURSOR-REFRESH-carol",
    "SECRET-BLOB-KEY-bob",
    "SECRET-CLI-AUTH-bob",
    "SECRET-IN-REQUEST-CONTEXT",
];

#[test]
fn planted_secrets_stay_out() {
    let mut rows = Vec::new();
    for rel in ALL {
        // each secret is in the evidence the test reads
        rows.extend(read(rel));
    }
    let mut planted = std::collections::BTreeSet::new();
    for rel in ALL {
        let bytes = std::fs::read(evidence_root().join(rel)).unwrap();
        for s in PLANTED {
            if bytes.windows(s.len()).any(|w| w == s.as_bytes()) {
                planted.insert(*s);
            }
        }
    }
    // the blob key is also in meta.json, read with store.db
    let meta = std::fs::read_to_string(evidence_root().join(BOB_STORE).with_file_name("meta.json"))
        .unwrap();
    assert!(meta.contains("SECRET-BLOB-KEY-bob"));
    assert_eq!(planted.len(), PLANTED.len() - 1, "{planted:?}");
    assert!(rows.len() > 100);
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
