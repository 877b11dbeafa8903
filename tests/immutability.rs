//! A scan leaves the evidence exactly as it was found: every byte, every file name,
//! and no new file (no `-shm`, no `-journal`, no lock file, no output).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

#[derive(Debug, PartialEq, Eq)]
enum Entry {
    Dir,
    File {
        len: u64,
        sha256: Vec<u8>,
        mtime: Option<std::time::SystemTime>,
    },
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(root).sort_by_file_name() {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
        if e.file_type().is_dir() {
            out.insert(rel, Entry::Dir);
        } else {
            let bytes = std::fs::read(e.path()).unwrap();
            let sha256 = Sha256::digest(&bytes).to_vec();
            let mtime = e.metadata().unwrap().modified().ok();
            out.insert(
                rel,
                Entry::File {
                    len: bytes.len() as u64,
                    sha256,
                    mtime,
                },
            );
        }
    }
    out
}

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

#[test]
fn a_scan_changes_no_byte_and_creates_no_file() {
    let root = evidence();
    let before = snapshot(&root);
    assert!(before.len() > 1, "the fixture tree is empty");

    // through the library, with several threads
    let result = ai_chat_forensics::Scanner::new()
        .root(&root)
        .threads(2)
        .run()
        .unwrap();
    assert_eq!(
        snapshot(&root),
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
    assert_eq!(snapshot(&root), before, "the CLI scan changed the evidence");

    // every SQLite database in the tree was read without a -shm or -journal appearing
    for path in before.keys() {
        let name = path.to_string_lossy();
        assert!(
            !name.ends_with("-shm") && !name.ends_with("-journal"),
            "{name} is in the fixtures"
        );
    }
    // and every file the scan read is in the manifest with its real size
    for m in &result.manifest {
        let rel = Path::new(&m.path)
            .strip_prefix(&root)
            .unwrap()
            .to_path_buf();
        match before.get(&rel) {
            Some(Entry::File { len, .. }) => assert_eq!(*len, m.size, "{}", m.path),
            other => panic!("{} read but not a fixture file: {other:?}", m.path),
        }
    }
}
