//! Speed and memory of the VS Code mutation-log replay, on logs of the two shapes real
//! files have (see `vscode-mutation-log.md` §8): one huge kind-0 line followed by ~1k
//! deltas (a compacted session), and ~20k medium lines of streaming re-sends through
//! Push with `i` (a long session between compactions); and a third, the hardest for a
//! replay: thousands of re-sends of whole responses in escape-dense text (see
//! `bench_logs`).
//!
//! `cargo run --release --example replay_bench [-- FILE]`
//! (`-- --generate DIR` only writes the three generated logs to `DIR`)
//!
//! For each file it prints, single-threaded, MB/s of: merely validating every line
//! with serde_json (`IgnoredAny`), the replay alone, the replay plus the rows handed
//! over one at a time (`rows::for_each_row`, as a writer uses them) and, for reference,
//! the replay plus the rows collected (`rows::into_rows`, as the store returns them);
//! and the peak RSS of each. Every measurement runs in a child process of its own, so
//! each peak (`VmHWM`) belongs to one phase; it includes the file's bytes, read whole.
//! Each child runs its phase twice: the first ("cold") run pays for first touching
//! every page it allocates, the second ("warm") reuses them, as a tool does from its
//! second file on. Times exclude reading the file and freeing the results; `into_rows`
//! consumes the replay, so freeing the tree as the rows are made is timed there. The
//! phases take turns for five rounds and each keeps its fastest time.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[path = "bench_logs/mod.rs"]
mod bench_logs;

use bench_logs::{huge_first_line, resend, streaming};

const RUNS: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--phase") {
        phase(&args[1], Path::new(&args[2]));
        return;
    }
    if args.first().map(String::as_str) == Some("--generate") {
        // `--generate DIR`: writes the three logs there and stops, to measure them again
        // and again with the FILE form
        let dir = PathBuf::from(args.get(1).map_or(".", String::as_str));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(
            dir.join("huge-first-line.jsonl"),
            huge_first_line(100 << 20),
        )
        .expect("write");
        std::fs::write(dir.join("streaming.jsonl"), streaming(100 << 20)).expect("write");
        std::fs::write(dir.join("resend.jsonl"), resend(100 << 20)).expect("write");
        return;
    }
    let files: Vec<PathBuf> = if let Some(f) = args.first() {
        vec![PathBuf::from(f)]
    } else {
        let dir = std::env::temp_dir().join(format!("replay-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let a = dir.join("huge-first-line.jsonl");
        let b = dir.join("streaming.jsonl");
        let c = dir.join("resend.jsonl");
        eprintln!(
            "generating {}, {} and {} ...",
            a.display(),
            b.display(),
            c.display()
        );
        std::fs::write(&a, huge_first_line(100 << 20)).expect("write");
        std::fs::write(&b, streaming(100 << 20)).expect("write");
        std::fs::write(&c, resend(100 << 20)).expect("write");
        vec![a, b, c]
    };
    for f in &files {
        let size = std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
        let lines = std::fs::read(f).map(|b| memchr_count(&b)).unwrap_or(0);
        println!(
            "{}: {:.1} MB, {} lines",
            f.display(),
            size as f64 / 1e6,
            lines
        );
        // the phases take turns, round after round, and each keeps its fastest cold and
        // fastest warm run: a burst of load on the machine then slows one round of every
        // phase, not all the runs of one
        let names = ["validate", "replay", "rows", "collect"];
        let mut cold = vec![f64::INFINITY; names.len()];
        let mut warm = vec![f64::INFINITY; names.len()];
        let mut peak = vec![0u64; names.len()];
        let mut detail = vec![String::new(); names.len()];
        for _ in 0..RUNS {
            for (k, name) in names.iter().enumerate() {
                let (c, w, p, d) = run_phase(name, f);
                if c < cold[k] {
                    cold[k] = c;
                    detail[k] = d;
                }
                warm[k] = warm[k].min(w);
                peak[k] = peak[k].max(p);
            }
        }
        let mbs = |secs: f64| size as f64 / 1e6 / secs;
        println!(
            "  {:<38} {:>15} {:>15}  {:>24}",
            "", "cold (1st run)", "warm (2nd run)", "peak RSS (worst)"
        );
        for k in 0..names.len() {
            println!(
                "  {:<38} {:>9.1} MB/s {:>9.1} MB/s  {:>7.1} MB ({:.2}x file)  {}",
                match names[k] {
                    "validate" => "serde_json IgnoredAny validation",
                    "replay" => "replay alone",
                    "rows" => "replay + rows",
                    _ => "replay + rows collected (into_rows)",
                },
                mbs(cold[k]),
                mbs(warm[k]),
                peak[k] as f64 / 1e6,
                peak[k] as f64 / size.max(1) as f64,
                detail[k]
            );
        }
        println!(
            "  ratio (replay + rows) / validation: {:.2} cold, {:.2} warm",
            cold[0] / cold[2],
            warm[0] / warm[2]
        );
    }
    if args.is_empty() {
        // the generated logs are 300 MB: not left behind
        for f in &files {
            let _ = std::fs::remove_file(f);
        }
        if let Some(dir) = files.first().and_then(|f| f.parent()) {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn memchr_count(b: &[u8]) -> usize {
    b.iter().filter(|c| **c == b'\n').count()
}

/// Runs a phase in a child process: its cold and warm times, its peak RSS and what it
/// found.
fn run_phase(name: &str, file: &Path) -> (f64, f64, u64, String) {
    let exe = std::env::current_exe().expect("exe");
    let out = Command::new(&exe)
        .arg("--phase")
        .arg(name)
        .arg(file)
        .output()
        .expect("child");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let cold: f64 = it.next().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN);
    let warm: f64 = it.next().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN);
    let peak: u64 = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (cold, warm, peak, it.collect::<Vec<_>>().join(" "))
}

/// One measurement, in a child: the phase runs twice on the same bytes, the first
/// result freed before the second run. Prints `cold_seconds warm_seconds peak_bytes
/// detail`: the first run, in a fresh process, pays for first touching every page of
/// memory it allocates; the second reuses them, as a tool does from its second file on.
fn phase(name: &str, file: &Path) {
    let bytes = std::fs::read(file).expect("read");
    let (cold, detail) = once(name, &bytes, file);
    let (warm, _) = once(name, &bytes, file);
    let peak = chat_rows::dirty::peak_rss_bytes().unwrap_or(0);
    println!("{cold} {warm} {peak} {detail}");
}

/// Runs a phase once: its time (results are freed after the clock stops) and what it
/// found.
fn once(name: &str, bytes: &[u8], file: &Path) -> (f64, String) {
    let start = Instant::now();
    match name {
        "validate" => {
            let mut bad = 0usize;
            // lines found with memchr, as the replay finds them (until 2026-12-01 this
            // split a byte at a time, which made the validation 30-40% slower)
            for line in chat_rows::lines::lines(bytes) {
                if serde_json::from_slice::<serde::de::IgnoredAny>(line.bytes).is_err() {
                    bad += 1;
                }
            }
            (start.elapsed().as_secs_f64(), format!("bad={bad}"))
        }
        "replay" => {
            let r = vscode_chat_log::Replay::from_bytes(bytes);
            let secs = start.elapsed().as_secs_f64();
            let detail = format!(
                "errors={} recovered={}",
                r.errors().len(),
                r.recovered().len()
            );
            (secs, detail)
        }
        "rows" => {
            let r = vscode_chat_log::Replay::from_bytes(bytes);
            let replayed = start.elapsed().as_secs_f64();
            let ctx = vscode_chat_log::SessionContext::new("vscode", file.display().to_string());
            // the streaming form, as a writer uses it: every row is made, handed over
            // and done with before the next
            let (mut n, mut text) = (0usize, 0usize);
            vscode_chat_log::rows::for_each_row(&r, &ctx, |row| {
                n += 1;
                text += row.text.len();
            });
            let secs = start.elapsed().as_secs_f64();
            let detail = format!(
                "rows={n} ({:.1} MB of text; {:.3} s replay, {:.3} s rows)",
                text as f64 / 1e6,
                replayed,
                secs - replayed
            );
            (secs, detail)
        }
        _ => {
            let r = vscode_chat_log::Replay::from_bytes(bytes);
            let replayed = start.elapsed().as_secs_f64();
            let ctx = vscode_chat_log::SessionContext::new("vscode", file.display().to_string());
            // the consuming form, as the store uses it: each request's subtree is freed
            // once its rows are made
            let rows = vscode_chat_log::rows::into_rows(r, &ctx);
            let secs = start.elapsed().as_secs_f64();
            let text: usize = rows.iter().map(|r| r.text.len()).sum();
            let detail = format!(
                "rows={} ({:.1} MB of text; {:.3} s replay, {:.3} s rows)",
                rows.len(),
                text as f64 / 1e6,
                replayed,
                secs - replayed
            );
            (secs, detail)
        }
    }
}
