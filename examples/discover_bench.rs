//! The discovery benchmark: how fast does the scanner find the store files in a home
//! full of files no store reads?
//!
//! ```text
//! cargo run --release --example discover_bench -- [--files 300000] [--shape checkout|deep|lookalike] [--tree DIR]
//! ```
//!
//! Discovery offers every regular file under the roots to every store, so its cost is
//! the number of files times the stores' claims, whatever the files hold. The bench
//! generates, in a temporary folder (removed afterwards), one host's home holding the
//! `lin-ws01` fixture host's stores and `--files` empty files elsewhere, then times
//! `Scanner::discover` (best of three) and prints files per second with the load
//! average. Shapes:
//!
//! * `checkout`: source trees (`src/projN/moduleM/fileK.rs`), the common case;
//! * `deep`: the same files 24 folders down, names that make each path long;
//! * `lookalike`: the worst: files named as stores name theirs (`*.jsonl`, `state.vscdb`,
//!   `events.jsonl`, `settings.json`, `history.jsonl`) in folders no store reads, so
//!   every claim looks further than the name.
//!
//! `--tree DIR` generates the tree in `DIR` and keeps it (a `DIR` that exists is
//! timed as it is), to profile the CLI on it (`ai-chat-forensics DIR --list`).

#[path = "bench_util/mod.rs"]
mod bench_util;

use std::path::Path;
use std::time::Instant;

use ai_chat_forensics::Scanner;
use bench_util::{copy_tree, loadavg};

fn main() {
    let mut files = 300_000usize;
    let mut shape = "checkout".to_string();
    let mut keep: Option<std::path::PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--files" => files = args.next().and_then(|v| v.parse().ok()).unwrap_or(files),
            "--shape" => shape = args.next().unwrap_or(shape),
            "--tree" => keep = args.next().map(Into::into),
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let lookalike = [
        "a.jsonl",
        "state.vscdb",
        "events.jsonl",
        "settings.json",
        "history.jsonl",
    ];
    let temp = tempfile::tempdir().expect("temp dir");
    let root = keep.clone().unwrap_or_else(|| temp.path().to_path_buf());
    if keep.is_some() && root.exists() {
        return time(&root, files, &shape);
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence/lin-ws01");
    let host = root.join("lin-ws01");
    copy_tree(&fixture, &host);
    let home = host.join("home/alice");
    let t = Instant::now();
    let per_dir = 50;
    for i in 0..files {
        let d = i / per_dir;
        let mut folder = home.join(format!("src/proj{}/module{}", d / 100, d % 100));
        if shape == "deep" {
            for level in 0..24 {
                folder.push(format!("level-{level}-of-a-long-package-path"));
            }
        }
        let name = if shape == "lookalike" {
            // the exact names, each in a folder of its own
            folder.push(format!("f{}", i % per_dir));
            std::fs::create_dir_all(&folder).unwrap();
            lookalike[i % lookalike.len()].to_string()
        } else {
            if i % per_dir == 0 {
                std::fs::create_dir_all(&folder).unwrap();
            }
            format!("file{}.rs", i % per_dir)
        };
        std::fs::write(folder.join(name), b"").unwrap();
    }
    eprintln!(
        "generated {files} files ({shape}) in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    time(&root, files, &shape);
}

fn time(root: &Path, files: usize, shape: &str) {
    let mut best = f64::MAX;
    let mut claimed = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let found = Scanner::new().root(root).discover().expect("discover");
        best = best.min(t.elapsed().as_secs_f64());
        claimed = found.len();
    }
    println!(
        "discovery, {shape}, {files} files no store reads + the fixture host: {best:.2} s ({:.0} files/s), {claimed} claimed (load {})",
        files as f64 / best,
        loadavg()
    );
}
