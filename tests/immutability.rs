//! A scan leaves the evidence exactly as it was found: every byte, every modification
//! time, every file name, and no new file (no `-shm`, no `-journal`, no lock file, no
//! output).

use std::path::{Path, PathBuf};
use std::process::Command;

use ai_chat_forensics::chat_rows::evidence::{EntryState, snapshot_tree};

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

#[test]
fn a_scan_changes_no_byte_and_creates_no_file() {
    let root = evidence();
    let before = snapshot_tree(&root).unwrap();
    assert!(before.len() > 1, "the fixture tree is empty");

    // through the library, with several threads
    let result = ai_chat_forensics::Scanner::new()
        .root(&root)
        .threads(2)
        .run()
        .unwrap();
    assert_eq!(
        snapshot_tree(&root).unwrap(),
        before,
        "the library scan changed the evidence"
    );

    // through the CLI, with every output format and a manifest, written elsewhere
    let out = tempfile::tempdir().unwrap();
    for format in ["jsonl", "csv", "timesketch"] {
        let status = Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
            .arg(&root)
            .args(["--format", format, "--no-progress", "-o"])
            .arg(out.path().join(format!("rows.{format}")))
            .arg("--manifest")
            .arg(out.path().join("manifest.json"))
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert_eq!(
        snapshot_tree(&root).unwrap(),
        before,
        "the CLI scan changed the evidence"
    );

    // the SQLite databases in the tree were read without a -shm or -journal appearing
    assert!(before.keys().any(|p| p.to_string_lossy().ends_with("-wal")));
    for path in before.keys() {
        let name = path.to_string_lossy();
        assert!(
            !name.ends_with("-shm") && !name.ends_with("-journal"),
            "{name} is in the fixtures"
        );
    }
    // and every file the scan read is in the manifest with its real size
    assert!(result.manifest.len() > 50);
    for m in &result.manifest {
        let rel = Path::new(&m.path)
            .strip_prefix(&root)
            .unwrap()
            .to_path_buf();
        match before.get(&rel) {
            Some(EntryState::File { len, .. }) => assert_eq!(*len, m.size, "{}", m.path),
            other => panic!("{} read but not a fixture file: {other:?}", m.path),
        }
    }
}
