//! What the CLI tests share: one run of the binary and its rows.

use std::path::Path;
use std::process::Command;

/// One run of the CLI on `root`: the rows (JSON objects) and the summary's merge count.
#[allow(dead_code)] // not every test file that shares this module runs the CLI
pub struct Run {
    /// The rows, one JSON object each.
    pub rows: Vec<serde_json::Value>,
    /// The summary's count of secondary copies merged away.
    pub merged: usize,
}

#[allow(dead_code)] // not every test file that shares this module runs the CLI
pub fn run(root: &Path, extra: &[&str], keep: bool) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"));
    cmd.arg(root).arg("--no-progress").args(extra);
    if keep {
        cmd.arg("--keep-copies");
    }
    let out = cmd.output().expect("run the CLI");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let merged = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("secondary copies merged away: "))
        .map_or(0, |rest| {
            rest.split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a count")
        });
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSONL row"))
        .collect();
    Run { rows, merged }
}

/// Asserts that `got` holds the rows of `want`, in order, naming the first that
/// differs (with `what`, the case compared, in the message).
#[allow(dead_code)] // the archive and disk tests'
pub fn same_rows(want: &[String], got: &[String], what: &str) {
    let first_difference = want.iter().zip(got).position(|(a, b)| a != b);
    assert_eq!(
        first_difference,
        None,
        "{what}: {:?}",
        first_difference.map(|i| (&want[i], &got[i]))
    );
    assert_eq!(got.len(), want.len(), "{what}");
}

/// An archive root's manifest next to its tree's: the archive's entries after its own
/// (the first), and the tree's with `from` replaced by `to` in their paths, each as
/// JSON. Equal when every member was read as its file of the tree.
#[allow(dead_code)] // the archive tests'
pub fn members_and_files<E: serde::Serialize>(
    archive: &[E],
    tree: &[E],
    from: &str,
    to: &str,
) -> (Vec<String>, Vec<String>) {
    let json = |e: &E| serde_json::to_string(e).unwrap();
    (
        archive.iter().skip(1).map(json).collect(),
        tree.iter().map(|e| json(e).replace(from, to)).collect(),
    )
}

// the bench examples' copy of a tree (one definition for benches and tests)
#[path = "../../examples/bench_util/mod.rs"]
#[allow(dead_code)] // the load average is the benches'
mod bench_util;
#[allow(unused_imports)] // not every test file that shares this module copies a tree
pub use bench_util::{copy_tree, files_under, mtime_secs, zip_tree};
