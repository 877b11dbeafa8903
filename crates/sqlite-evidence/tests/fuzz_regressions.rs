//! The inputs on which the `sqlite_evidence` fuzz target once panicked (integer
//! overflows on huge varint lengths in the WITHOUT ROWID and unreachable-cell code and,
//! found 2026-12-02, in the spilled index-cell rebuild adding a header length to a
//! body its types declare near `usize::MAX`; a slice cut inside a character of a CREATE
//! text; found 2026-12-05, the sizes of a carved header whose tail was lost summed past
//! `usize::MAX` in the paged mode's carving), replayed through the target's own body:
//! each must now run to its end.

use std::path::Path;

#[test]
fn fuzz_findings_no_longer_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-findings");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 8, "{names:?}");
    for path in names {
        let data = std::fs::read(&path).unwrap();
        let run = std::panic::catch_unwind(|| sqlite_evidence::fuzzing::exercise(&data));
        assert!(run.is_ok(), "{} panicked", path.display());
    }
}
