//! The headline benchmark: `examples/replay` (replay a VS Code chat session log, then
//! print the final state as JSON) against VS Code's own reader followed by
//! `JSON.stringify` of the same state, in Node (`benches/node/replay.mjs`, a stand-in
//! with the same semantics as `objectMutationLog.ts`).
//!
//! ```text
//! cargo build --release --example replay --example replay_vs_node
//! target/release/examples/replay_vs_node [--runs N] [FILE ...]
//! ```
//!
//! Without FILE it generates the three shapes of `bench_logs` (a huge first line, a
//! streaming log, thousands of whole-response re-sends in escape-dense text), about
//! 100 MB each, into a temporary folder outside the project that it deletes afterwards.
//! For each log it first runs both once with their output to a file and checks that the
//! two states are equal (byte for byte; or, where the log holds lone surrogates, after
//! Node's `\udxxx` escapes are read as U+FFFD, as this crate reads them; or as parsed
//! values). Then both run `--runs` times in turn (default 5), output to `/dev/null`,
//! each keeping its fastest run, and it prints per program: the wall time of the whole
//! process and MB/s of the log, the time inside (reading, replaying and writing, as each
//! program reports it on stderr: no process start or exit), and the peak RSS of the
//! process (`/usr/bin/time`'s maximum resident set, or `VmHWM` polled from `/proc`
//! where there is no `/usr/bin/time`) as a multiple of the file's size; then the
//! ratios. `NODE` names the node binary (default `node`).

#[path = "bench_logs/mod.rs"]
mod bench_logs;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Writes a log of about the given size.
type Generator = fn(usize) -> Vec<u8>;

/// One run of one program: wall seconds, seconds inside (its own report), peak RSS.
#[derive(Clone, Copy, Debug)]
struct Run {
    wall: f64,
    inside: f64,
    peak: u64,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 5usize;
    if let Some(p) = args.iter().position(|a| a == "--runs") {
        runs = args
            .get(p + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(runs)
            .max(1);
        args.drain(p..(p + 2).min(args.len()));
    }
    let exe = std::env::current_exe().expect("exe");
    let replay = exe.with_file_name(format!("replay{}", std::env::consts::EXE_SUFFIX));
    if !replay.exists() {
        eprintln!(
            "{} is missing: cargo build --release --example replay",
            replay.display()
        );
        std::process::exit(2);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/node/replay.mjs");
    let node = std::env::var("NODE").unwrap_or_else(|_| "node".to_string());
    match Command::new(&node).arg("--version").output() {
        Ok(o) if o.status.success() => {
            println!(
                "node {} ({}), {}",
                String::from_utf8_lossy(&o.stdout).trim(),
                script.display(),
                replay.display()
            );
        }
        _ => {
            eprintln!("`{node} --version` failed: set NODE to a node binary");
            std::process::exit(2);
        }
    }
    let generated = args.is_empty();
    let dir = std::env::temp_dir().join(format!("replay-vs-node-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let files: Vec<PathBuf> = if generated {
        let shapes: [(&str, Generator); 3] = [
            ("huge-first-line", bench_logs::huge_first_line),
            ("streaming", bench_logs::streaming),
            ("resend", bench_logs::resend),
        ];
        shapes
            .iter()
            .map(|(name, make)| {
                let p = dir.join(format!("{name}.jsonl"));
                eprintln!("generating {} ...", p.display());
                std::fs::write(&p, make(100 << 20)).expect("write");
                p
            })
            .collect()
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    println!("load average at start: {}", load_average());
    let mut summary = Vec::new();
    for f in &files {
        summary.push(one_log(f, &replay, &node, &script, &dir, runs));
    }
    println!("load average at end: {}", load_average());
    println!(
        "\n{:<24} {:>12} {:>12} {:>10} {:>10} {:>12} {:>12}",
        "log", "rust MB/s", "node MB/s", "ratio", "inside", "rust RSS", "node RSS"
    );
    for line in &summary {
        println!("{line}");
    }
    if generated {
        for f in &files {
            let _ = std::fs::remove_file(f);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Checks, then measures, one log; returns its summary line.
fn one_log(
    file: &Path,
    replay: &Path,
    node: &str,
    script: &Path,
    dir: &Path,
    runs: usize,
) -> String {
    let bytes = std::fs::read(file).expect("read log");
    let size = bytes.len() as f64;
    let lines = bytes.iter().filter(|c| **c == b'\n').count();
    drop(bytes);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!("\n{}: {:.1} MB, {lines} lines", file.display(), size / 1e6);

    // the check: both outputs to files, compared
    let rust_out = dir.join("rust.json");
    let node_out = dir.join("node.json");
    let rust_cmd = || {
        let mut c = Command::new(replay);
        c.arg("--timings").arg(file);
        c
    };
    let node_cmd = || {
        let mut c = Command::new(node);
        c.arg(script).arg(file);
        c
    };
    let r = run(rust_cmd(), Some(&rust_out), "rust:");
    let n = run(node_cmd(), Some(&node_out), "node:");
    let verdict = compare(&rust_out, &node_out);
    let state = std::fs::metadata(&rust_out).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&rust_out);
    let _ = std::fs::remove_file(&node_out);
    println!(
        "  state: {:.1} MB of JSON; outputs {verdict}; output to a file: rust {:.3} s, node {:.3} s",
        state as f64 / 1e6,
        r.wall,
        n.wall
    );

    // the measurement: output to /dev/null, in turns, the fastest of each kept
    let mut best = [None::<Run>; 2];
    let mut peak = [0u64; 2];
    for _ in 0..runs {
        for (k, cmd) in [rust_cmd(), node_cmd()].into_iter().enumerate() {
            let prefix = if k == 0 { "rust:" } else { "node:" };
            let this = run(cmd, None, prefix);
            peak[k] = peak[k].max(this.peak);
            if best[k].is_none_or(|b| this.wall < b.wall) {
                best[k] = Some(this);
            }
        }
    }
    let [Some(rb), Some(nb)] = best else {
        return format!("{name:<24} (no run)");
    };
    let mbs = |secs: f64| size / 1e6 / secs;
    println!(
        "  {:<34} {:>9} {:>10} {:>10} {:>10}  {:>22}",
        "", "wall", "MB/s", "inside", "MB/s", "peak RSS (worst)"
    );
    for (label, b, p) in [
        ("rust examples/replay", rb, peak[0]),
        ("node reader + JSON.stringify", nb, peak[1]),
    ] {
        println!(
            "  {label:<34} {:>7.3} s {:>10.1} {:>8.3} s {:>10.1}  {:>8.1} MB ({:.2}x file)",
            b.wall,
            mbs(b.wall),
            b.inside,
            mbs(b.inside),
            p as f64 / 1e6,
            p as f64 / size
        );
    }
    let wall_ratio = nb.wall / rb.wall;
    let inside_ratio = nb.inside / rb.inside;
    println!(
        "  ratio node / rust: {wall_ratio:.2}x wall, {inside_ratio:.2}x inside; load average {}",
        load_average()
    );
    format!(
        "{name:<24} {:>12.1} {:>12.1} {:>9.2}x {:>9.2}x {:>10.2}x {:>11.2}x",
        mbs(rb.wall),
        mbs(nb.wall),
        wall_ratio,
        inside_ratio,
        peak[0] as f64 / size,
        peak[1] as f64 / size
    )
}

/// Runs a program with its stdout to `out` (or `/dev/null`): its wall time, the time
/// inside it reports on the stderr line starting with `prefix` (the sum of the seconds
/// there), and its peak RSS.
fn run(cmd: Command, out: Option<&Path>, prefix: &str) -> Run {
    let stdout = match out {
        Some(p) => Stdio::from(std::fs::File::create(p).expect("output file")),
        None => Stdio::null(),
    };
    let time = Path::new("/usr/bin/time");
    let stats = std::env::temp_dir().join(format!("replay-vs-node-{}.time", std::process::id()));
    let mut cmd = if time.exists() {
        let mut t = Command::new(time);
        t.arg("-f").arg("%M").arg("-o").arg(&stats);
        t.arg(cmd.get_program()).args(cmd.get_args());
        t
    } else {
        cmd
    };
    let start = Instant::now();
    let mut child = cmd
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut peak = 0u64;
    let proc_status = format!("/proc/{}/status", child.id());
    // without /usr/bin/time, the child's own high-water mark, read while it runs
    let polling = !time.exists();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if polling {
            peak = peak.max(vm_hwm(&proc_status).unwrap_or(0));
            std::thread::sleep(Duration::from_micros(500));
        } else {
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    if !status.success() {
        eprintln!("{:?} failed: {status}\n{err}", cmd.get_program());
    }
    if time.exists() {
        peak = std::fs::read_to_string(&stats)
            .ok()
            .and_then(|s| s.lines().last().and_then(|l| l.trim().parse::<u64>().ok()))
            .map_or(0, |kb| kb * 1024);
        let _ = std::fs::remove_file(&stats);
    }
    // "rust: read 0.050 s, replay 0.030 s, write 0.015 s"
    let inside = err
        .lines()
        .find(|l| l.starts_with(prefix))
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.trim_end_matches(',').parse::<f64>().ok())
                .sum::<f64>()
        })
        .unwrap_or(f64::NAN);
    Run { wall, inside, peak }
}

fn vm_hwm(status: &str) -> Option<u64> {
    let s = std::fs::read_to_string(status).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Whether the two outputs hold the same state, and how they were found equal.
fn compare(rust: &Path, node: &Path) -> String {
    let (Ok(a), Ok(b)) = (std::fs::read(rust), std::fs::read(node)) else {
        return "NOT COMPARED (an output is missing)".into();
    };
    if a == b {
        return "identical (byte for byte)".into();
    }
    let (b, lone) = lone_surrogates_as_replacement(&b);
    if a == b {
        return format!(
            "identical once Node's {lone} lone surrogate escape(s) are read as U+FFFD, as this crate reads them"
        );
    }
    match (
        serde_json::from_slice::<serde_json::Value>(&a),
        serde_json::from_slice::<serde_json::Value>(&b),
    ) {
        (Ok(x), Ok(y)) if x == y => format!(
            "equal as parsed values (key order differs){}",
            if lone > 0 {
                format!("; {lone} lone surrogate escape(s) of Node's read as U+FFFD")
            } else {
                String::new()
            }
        ),
        (Ok(_), Ok(_)) => "DIFFERENT".into(),
        (x, y) => format!("NOT COMPARED (rust {:?}, node {:?})", x.err(), y.err()),
    }
}

/// Node's JSON with each `\udxxx` escape (a lone surrogate: `JSON.stringify` writes a
/// pair as its character) replaced by U+FFFD; and how many there were.
fn lone_surrogates_as_replacement(json: &[u8]) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(json.len());
    let mut n = 0;
    let mut i = 0;
    while i < json.len() {
        if json[i] == b'\\' {
            let esc = json.get(i..i + 6);
            let lone = esc.is_some_and(|e| {
                e[1] == b'u'
                    && (e[2] | 0x20) == b'd'
                    && matches!(e[3] | 0x20, b'8'..=b'9' | b'a'..=b'f')
            });
            if lone {
                out.extend_from_slice("\u{fffd}".as_bytes());
                n += 1;
                i += 6;
            } else {
                // any other escape is copied whole, so that `\\` is never read as the
                // start of one
                let len = if json.get(i + 1) == Some(&b'u') { 6 } else { 2 };
                out.extend_from_slice(&json[i..(i + len).min(json.len())]);
                i += len;
            }
        } else {
            out.push(json[i]);
            i += 1;
        }
    }
    (out, n)
}
