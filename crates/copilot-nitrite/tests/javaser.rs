//! The Java serialization decoder on streams written by Java itself (see
//! `fixtures/generators/copilot-nitrite/src/JavaStreams.java`).

use copilot_nitrite::javaser::{self, JavaError};
use serde_json::json;

fn stream(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/java-streams/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn fields_enums_arrays_references_and_a_cycle() {
    let b = stream("holder.ser");
    let (c, used) = javaser::parse(&b).unwrap();
    assert_eq!(used, b.len());
    let v = javaser::content_json(&c, 0);
    assert_eq!(
        v,
        json!({
            "@class": "JavaStreams$Holder",
            "big": -2, "count": 3, "flag": true, "letter": 233, "small": -7, "tiny": 9,
            "f": 1.25, "ratio": 0.5,
            "ints": [1, -2, 3],
            "names": ["a", "b", "a"],
            "mode": "AGENT",
            "self": null,
            "when": 1767261600000i64,
            "id": "01234567-89ab-cdef-fedc-ba9876543210"
        })
    );
}

#[test]
fn collections_and_modified_utf8() {
    let v = javaser::to_json(&stream("collections.ser")).unwrap();
    assert_eq!(
        v,
        json!({
            "chm": {"k": 1},
            "cow": ["x", 2],
            "set": ["only"],
            "list": [null, "nul\u{0}and 😀", true]
        })
    );
}

#[test]
fn long_block_data_and_reset() {
    let (c, used) = javaser::parse(&stream("blob.ser")).unwrap();
    assert_eq!(used, 2074);
    let v = javaser::content_json(&c, 0);
    assert_eq!(v["@class"], "JavaStreams$Blob");
    // int length + 2000 bytes + writeUTF in one block stream (a TC_BLOCKDATALONG record)
    let block = v["@annotations"][0].as_str().unwrap();
    assert_eq!(block.len(), (4 + 2000 + 2 + 20) * 2);
    assert!(block.starts_with("000007d0"));
    assert_eq!(
        javaser::to_json(&stream("reset.ser")).unwrap(),
        json!(["after", "reset"])
    );
}

#[test]
fn every_truncation_is_an_error_with_its_offset() {
    let b = stream("collections.ser");
    for n in 4..b.len() {
        match javaser::parse(&b[..n]) {
            Err(JavaError::Eof { at, .. } | JavaError::BadLength { at, .. }) => {
                assert!(at <= n, "{n}: {at}")
            }
            other => panic!("{n}: {other:?}"),
        }
    }
}
