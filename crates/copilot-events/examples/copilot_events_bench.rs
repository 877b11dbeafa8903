//! Throughput and peak memory of the event reader on a generated ~100 MB `events.jsonl`,
//! next to serde_json validating the same lines (split the same way) with `IgnoredAny`:
//! `cargo run --release -p copilot-events --example copilot_events_bench -- [MB] [SHAPE]`.
//!
//! Shapes (default `fixture`):
//!
//! * `fixture`: the project's CLI fixture session with its ids made unique per copy,
//!   repeated to the size asked for (default 100 MB): short lines (225 bytes on
//!   average) of every event type, the reader's worst shape;
//! * `transcript`: the project's VS Code 1.137 transcript fixture repeated the same way
//!   (a transcript names a folder and no branch, so every row has an empty column);
//! * `escapes`: a worst case for the reader, sessions whose tool outputs, detailed
//!   outputs and assistant messages are long (4-8 KB) and escape-dense (`\n`, `\"`,
//!   `\\`, `\t`, `\r\n` every few characters, with raw `é` and `😀` between), so that
//!   every text the reader keeps must be unescaped;
//! * `sdk`: the `escapes` sessions with what a real CLI writes beside the spec's
//!   fields: a prompt's `transformedContent` (the prompt again, with the time), a
//!   tool result's `toolTelemetry`, its terminal item's copy of the output and `cwd`,
//!   and the ids that join lines (`interactionId`): every prompt and result gives a
//!   `session event detail:` row, whose fields are looked for in a second read of the
//!   line's `data` (the output read twice, the cost of those rows);
//! * `arrays`: a hostile shape, lines of another shape than their type's (a `message`
//!   that is an array of 25 million zeros, 50 MB a line) whose rows print their
//!   `data`: peak RSS shows that such a line is not read as a tree (a 50 MB line took
//!   836 MB before 2026-12-01);
//! * `errors`: hostile too, failed tool calls whose `error` holds a 50 MB `stack` of
//!   zeros: peak RSS shows that an `error` is not read as a tree (909 MiB for 150 MB
//!   before 2026-12-02, 431 MiB after).
//! * `agents`: hostile for the reader's turns, each sub-agent's line a `turn_start`
//!   of an agent of its own naming a model that no row shows, between replies of the
//!   main agent: every agent's turn is kept (parked) and its start held to the end of
//!   the file (2026-12-05), so the child's peak RSS grows with the file, as a log of
//!   tool calls never started does.
//!
//! The log is generated at run time into a private temporary folder (removed
//! afterwards), never committed. `COPILOT_EVENTS_BENCH_PHASE=reader` runs the reader
//! only and `COPILOT_EVENTS_BENCH_RUNS=N` times it N times (default 3; the best run is
//! printed), for `perf record`; `COPILOT_EVENTS_BENCH_PHASE=decode` times the decoding
//! of every line to its event alone (no rows) next to the validation, to split the
//! reader's time between reading lines and mapping them. `COPILOT_EVENTS_BENCH_ONLY=<event type>` keeps only the
//! fixture's lines of that type in the `fixture` shape, to find the type that costs
//! (a log of tool requests alone is slower than any real one: none of its calls is
//! started, so each is held to the end and given as a `tool_use` and a `link:` row).
//! `COPILOT_EVENTS_BENCH_PER_TYPE=1` reads the log once a line at a time, timing the
//! reader and the validation of each line, and prints both per event type (each figure
//! includes two clock reads, about 40 ns: compare the columns, not the sums with the
//! whole-file figures).
//!
//! The figures above read a log held in memory, as the validation does. After them a
//! child process reads the file as the scanner does, a chunk at a time
//! (`Evidence::read_lines`, `read_event_lines`), and prints its own MB/s and peak RSS:
//! what reading the log costs when it is not held whole (the child's peak does not
//! count the generated copy).
use std::time::Instant;

use chat_rows::{Row, RowSink};
use copilot_events::{Options, read_event_lines, read_events};
use serde::de::IgnoredAny;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/evidence/lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/events.jsonl"
);

const TRANSCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/evidence/lin-ws01/home/alice/.config/Code/User/workspaceStorage/7e137a01/GitHub.copilot-chat/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl"
);

/// Counts what it is given, the way a writer would look at every row.
#[derive(Default)]
struct Count {
    rows: u64,
    text_bytes: usize,
}

impl RowSink for Count {
    fn push(&mut self, row: Row) {
        self.lend(&row);
    }

    fn lend(&mut self, row: &Row) {
        self.rows += 1;
        self.text_bytes += row.text.len() + row.session_id.len() + row.source_locator.len();
    }
}

fn fixture_log(path: &str, mb: usize) -> Result<String, String> {
    let mut template =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if let Ok(only) = std::env::var("COPILOT_EVENTS_BENCH_ONLY") {
        let head = format!("{{\"type\":\"{only}\"");
        template = template
            .lines()
            .filter(|l| l.starts_with(&head))
            .map(|l| format!("{l}\n"))
            .collect();
        if template.is_empty() {
            return Err(format!("the fixture has no {only} line"));
        }
    }
    // whole lines only (the fixture's torn last line is left out of the copies)
    let body: String = template
        .lines()
        .filter(|l| l.ends_with('}'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = String::with_capacity(mb << 20);
    let mut copy = 0u64;
    while out.len() < mb << 20 {
        let k = format!("{copy}-");
        out.push_str(
            &body
                .replace("\"toolCallId\":\"", &format!("\"toolCallId\":\"{k}"))
                .replace("\"id\":\"", &format!("\"id\":\"{k}")),
        );
        copy += 1;
    }
    Ok(out)
}

/// Deterministic escape-dense text of about `len` characters.
fn dense(seed: u64, len: usize) -> String {
    const PIECES: [&str; 8] = [
        "line\n",
        "\"quoted\" ",
        "C:\\Users\\carol\\src ",
        "\tcol ",
        "caf\u{e9} ",
        "\u{1f600} ",
        "ok ",
        "\r\n",
    ];
    let mut s = String::with_capacity(len + 16);
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    while s.len() < len {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s.push_str(PIECES[(x >> 61) as usize]);
    }
    s
}

fn escapes_log(mb: usize, sdk: bool) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = String::with_capacity((mb << 20) + (64 << 10));
    let mut n = 0u64;
    let mut session = 0u64;
    while out.len() < mb << 20 {
        let sid = format!("00000000-0000-4000-8000-{session:012}");
        out.push_str(&format!(
            "{{\"type\":\"session.start\",\"data\":{{\"sessionId\":\"{sid}\",\"copilotVersion\":\"1.0.91\",\"selectedModel\":\"claude-sonnet-4.5\",\"context\":{{\"cwd\":\"/home/alice/src/api\",\"branch\":\"main\"}}}},\"id\":\"s{session}\",\"timestamp\":\"2026-10-05T09:00:00.000Z\"}}\n"
        ));
        for turn in 0..20u64 {
            n += 1;
            let ts = format!(
                "2026-10-05T09:{:02}:{:02}.{:03}Z",
                turn % 60,
                n % 60,
                n % 1000
            );
            let id = format!("toolu_vrtx_{session}_{turn}");
            let prompt = dense(n, 300);
            let output = dense(n + 1, 8000);
            let detail = dense(n + 2, 4000);
            let answer = dense(n + 3, 4000);
            if sdk {
                // what a real CLI writes beside: the prompt as sent, ids, telemetry
                out.push_str(&format!(
                    "{{\"type\":\"user.message\",\"data\":{{\"content\":{},\"transformedContent\":{},\"attachments\":[],\"supportedNativeDocumentMimeTypes\":[],\"interactionId\":\"i{n}\",\"agentMode\":\"interactive\"}},\"id\":\"u{n}\",\"timestamp\":\"{ts}\"}}\n",
                    q(&prompt),
                    q(&format!("<current_datetime>{ts}</current_datetime>\n\n{prompt}"))
                ));
            } else {
                out.push_str(&format!(
                    "{{\"type\":\"user.message\",\"data\":{{\"content\":{},\"agentMode\":\"interactive\"}},\"id\":\"u{n}\",\"timestamp\":\"{ts}\"}}\n",
                    q(&prompt)
                ));
            }
            out.push_str(&format!(
                "{{\"type\":\"assistant.turn_start\",\"data\":{{\"model\":\"claude-sonnet-4.5\",\"turnId\":\"{turn}\"}},\"id\":\"t{n}\",\"timestamp\":\"{ts}\"}}\n"
            ));
            out.push_str(&format!(
                "{{\"type\":\"tool.execution_start\",\"data\":{{\"toolCallId\":\"{id}\",\"toolName\":\"bash\",\"arguments\":{{\"command\":{}}}}},\"id\":\"a{n}\",\"timestamp\":\"{ts}\"}}\n",
                q(&prompt)
            ));
            if sdk {
                out.push_str(&format!(
                    "{{\"type\":\"tool.execution_complete\",\"data\":{{\"toolCallId\":\"{id}\",\"model\":\"claude-sonnet-4.5\",\"interactionId\":\"i{n}\",\"success\":true,\"result\":{{\"content\":{},\"detailedContent\":{},\"contents\":[{{\"type\":\"terminal\",\"text\":{},\"exitCode\":0,\"cwd\":\"/home/alice/src/api\"}}]}},\"toolTelemetry\":{{\"properties\":{{\"command\":\"bash\"}},\"metrics\":{{\"resultLength\":{}}}}}}},\"id\":\"c{n}\",\"timestamp\":\"{ts}\"}}\n",
                    q(&output),
                    q(&detail),
                    q(&output),
                    output.len()
                ));
            } else {
                out.push_str(&format!(
                    "{{\"type\":\"tool.execution_complete\",\"data\":{{\"toolCallId\":\"{id}\",\"success\":true,\"result\":{{\"content\":{},\"detailedContent\":{},\"contents\":[{{\"type\":\"terminal\",\"exitCode\":0}}]}}}},\"id\":\"c{n}\",\"timestamp\":\"{ts}\"}}\n",
                    q(&output),
                    q(&detail)
                ));
            }
            out.push_str(&format!(
                "{{\"type\":\"assistant.message\",\"data\":{{\"content\":{},\"model\":\"claude-sonnet-4.5\"}},\"id\":\"m{n}\",\"timestamp\":\"{ts}\"}}\n",
                q(&answer)
            ));
        }
        session += 1;
    }
    out
}

fn errors_log(mb: usize) -> String {
    let stack = vec!["0"; 25_000_000].join(",");
    let mut out = String::with_capacity((mb << 20) + (51 << 20));
    let mut n = 0u64;
    while out.len() < mb << 20 {
        n += 1;
        out.push_str(&format!(
            "{{\"type\":\"tool.execution_start\",\"data\":{{\"toolCallId\":\"t{n}\",\"toolName\":\"bash\",\"arguments\":{{\"command\":\"make\"}}}},\"id\":\"s{n}\",\"timestamp\":\"2026-10-05T09:00:00.000Z\"}}\n"
        ));
        out.push_str(&format!(
            "{{\"type\":\"tool.execution_complete\",\"data\":{{\"toolCallId\":\"t{n}\",\"success\":false,\"error\":{{\"code\":\"E{n}\",\"message\":\"failed\",\"stack\":[{stack}]}}}},\"id\":\"c{n}\",\"timestamp\":\"2026-10-05T09:00:01.000Z\"}}\n"
        ));
    }
    out
}

fn agents_log(mb: usize) -> String {
    let mut out = String::with_capacity((mb << 20) + 4096);
    let mut n = 0u64;
    while out.len() < mb << 20 {
        n += 1;
        out.push_str(&format!(
            "{{\"type\":\"assistant.turn_start\",\"data\":{{\"turnId\":\"0\",\"model\":\"model-{n}\"}},\"agentId\":\"agent-{n}\",\"id\":\"a{n}\",\"timestamp\":\"2026-10-05T09:00:00.000Z\"}}\n"
        ));
        out.push_str(&format!(
            "{{\"type\":\"assistant.message\",\"data\":{{\"content\":\"reply {n}\"}},\"id\":\"m{n}\",\"timestamp\":\"2026-10-05T09:00:01.000Z\"}}\n"
        ));
    }
    out
}

fn arrays_log(mb: usize) -> String {
    let zeros = vec!["0"; 25_000_000].join(",");
    let mut out = String::with_capacity((mb << 20) + (51 << 20));
    let mut n = 0u64;
    while out.len() < mb << 20 {
        n += 1;
        out.push_str(&format!(
            "{{\"type\":\"session.error\",\"data\":{{\"errorType\":\"x\",\"message\":[{zeros}]}},\"id\":\"e{n}\",\"timestamp\":\"2026-10-05T09:00:00.000Z\"}}\n"
        ));
    }
    out
}

/// The child's part: reads the log at `path` a chunk at a time and prints the figures,
/// without and with the manifest's SHA-256 (the evidence reader's cost, not the event
/// reader's: a scan pays it on every file).
fn streamed(path: &std::path::Path) {
    for hashing in [false, true] {
        let evidence = chat_rows::Evidence::new().hashing(hashing);
        let mut best = f64::MAX;
        let mut rows_seen = 0u64;
        let mut size = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let mut lines = evidence.read_lines(path).expect("open");
            let opts = Options {
                agent: "copilot",
                fallback_session: "bench",
                ..Options::default()
            };
            let mut sink = Count::default();
            read_event_lines(&mut lines, &opts, &mut sink)
                .1
                .expect("read");
            best = best.min(t.elapsed().as_secs_f64());
            rows_seen = sink.rows;
            size = lines.bytes_read();
            std::hint::black_box(sink.text_bytes);
        }
        let hash = if hashing { "with" } else { "without" };
        println!(
            "event reader a chunk at a time, {hash} the manifest's SHA-256 (child process): {best:.3} s ({:.0} MB/s), {rows_seen} rows",
            size as f64 / 1e6 / best,
        );
    }
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!(
            "peak RSS of the child: {:.0} MiB",
            peak as f64 / (1 << 20) as f64
        );
    }
}

fn main() {
    if let Some(path) = std::env::var_os("COPILOT_EVENTS_BENCH_STREAM_CHILD") {
        return streamed(std::path::Path::new(&path));
    }
    let mut args = std::env::args().skip(1);
    let mb: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let shape = args.next().unwrap_or_else(|| "fixture".to_string());
    let reader_only = std::env::var("COPILOT_EVENTS_BENCH_PHASE").as_deref() == Ok("reader");
    let log = match shape.as_str() {
        "fixture" | "transcript" => {
            let path = if shape == "fixture" {
                FIXTURE
            } else {
                TRANSCRIPT
            };
            match fixture_log(path, mb) {
                Ok(l) => l,
                Err(e) => return eprintln!("{e}"),
            }
        }
        "escapes" => escapes_log(mb, false),
        "sdk" => escapes_log(mb, true),
        "arrays" => arrays_log(mb),
        "errors" => errors_log(mb),
        "agents" => agents_log(mb),
        other => {
            return eprintln!(
                "unknown shape {other} (fixture, transcript, escapes, sdk, arrays, errors, agents)"
            );
        }
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("events.jsonl");
    std::fs::write(&path, &log).expect("write the generated log");
    drop(log);
    let evidence = chat_rows::Evidence::new();
    let bytes = evidence.read(&path).expect("read");
    let size = bytes.len();
    if std::env::var_os("COPILOT_EVENTS_BENCH_PER_TYPE").is_some() {
        return per_type(&bytes);
    }
    if std::env::var("COPILOT_EVENTS_BENCH_PHASE").as_deref() == Ok("decode") {
        return decode_only(&bytes);
    }
    let mut best = (f64::MAX, f64::MAX);
    let mut rows_seen = 0u64;
    let runs: usize = std::env::var("COPILOT_EVENTS_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    for _ in 0..runs {
        if !reader_only {
            let t = Instant::now();
            let mut n = 0u64;
            // the lines split as the reader splits them (`chat_rows::lines`, memchr):
            // until 2026-12-01 this loop split with `<[u8]>::split`, a byte at a time,
            // which made the validation about 30% slower than it is
            for line in chat_rows::lines::lines(&bytes) {
                if serde_json::from_slice::<IgnoredAny>(line.bytes).is_ok() {
                    n += 1;
                }
            }
            best.0 = best.0.min(t.elapsed().as_secs_f64());
            std::hint::black_box(n);
        }
        let t = Instant::now();
        let opts = Options {
            agent: "copilot",
            fallback_session: "bench",
            ..Options::default()
        };
        let mut sink = Count::default();
        read_events(&bytes, &opts, &mut sink);
        best.1 = best.1.min(t.elapsed().as_secs_f64());
        rows_seen = sink.rows;
        std::hint::black_box(sink.text_bytes);
    }
    let mbs = |s: f64| size as f64 / 1e6 / s;
    println!(
        "generated events.jsonl ({shape}): {:.1} MB",
        size as f64 / 1e6
    );
    if !reader_only {
        println!(
            "serde_json IgnoredAny validation: {:.3} s ({:.0} MB/s)",
            best.0,
            mbs(best.0)
        );
    }
    println!(
        "event reader (rows to a sink): {:.3} s ({:.0} MB/s), {rows_seen} rows, ratio {:.2}",
        best.1,
        mbs(best.1),
        best.0 / best.1
    );
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!(
            "peak RSS: {:.0} MiB ({:.2}x the file)",
            peak as f64 / (1 << 20) as f64,
            peak as f64 / size as f64
        );
    }
    if !reader_only {
        drop(bytes);
        let child = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .env("COPILOT_EVENTS_BENCH_STREAM_CHILD", &path)
                .status()
        });
        if let Err(e) = child {
            eprintln!("the chunked read's child process: {e}");
        }
    }
}

/// The validation's time next to the decoding's alone (every line to its event, no
/// rows): how the reader's time splits between reading a line and mapping it.
fn decode_only(bytes: &[u8]) {
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let t = Instant::now();
        let mut valid = 0u64;
        for line in chat_rows::lines::lines(bytes) {
            if serde_json::from_slice::<IgnoredAny>(line.bytes).is_ok() {
                valid += 1;
            }
        }
        best.0 = best.0.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut decoded = 0u64;
        for line in chat_rows::lines::lines(bytes) {
            if copilot_events::decode::event(line.bytes).is_ok() {
                decoded += 1;
            }
        }
        best.1 = best.1.min(t.elapsed().as_secs_f64());
        std::hint::black_box((valid, decoded));
    }
    let mbs = |s: f64| bytes.len() as f64 / 1e6 / s;
    println!(
        "serde_json IgnoredAny validation: {:.3} s ({:.0} MB/s)",
        best.0,
        mbs(best.0)
    );
    println!(
        "decoding alone (each line to its event, no rows): {:.3} s ({:.0} MB/s), ratio {:.2}",
        best.1,
        mbs(best.1),
        best.0 / best.1
    );
}

/// The reader's and the validation's time per line, by event type, in one pass.
fn per_type(bytes: &[u8]) {
    let opts = Options {
        agent: "copilot",
        fallback_session: "bench",
        ..Options::default()
    };
    let mut reader = copilot_events::EventReader::new(&opts);
    let mut sink = Count::default();
    // type: (lines, reader ns, validation ns, rows)
    let mut per: std::collections::BTreeMap<String, (u64, u128, u128, u64)> = Default::default();
    for line in chat_rows::lines::lines(bytes) {
        let head = line
            .bytes
            .get(9..line.bytes.len().min(80))
            .unwrap_or_default();
        let kind = String::from_utf8_lossy(head);
        let kind = kind.split('"').next().unwrap_or_default().to_string();
        let rows = sink.rows;
        let t = Instant::now();
        reader.line(&line, &mut sink);
        let read = t.elapsed().as_nanos();
        let t = Instant::now();
        let ok = serde_json::from_slice::<IgnoredAny>(line.bytes).is_ok();
        let valid = t.elapsed().as_nanos();
        std::hint::black_box(ok);
        let e = per.entry(kind).or_default();
        e.0 += 1;
        e.1 += read;
        e.2 += valid;
        e.3 += sink.rows - rows;
    }
    reader.finish(&mut sink);
    let mut by_cost: Vec<_> = per.into_iter().collect();
    by_cost.sort_by_key(|(_, e)| std::cmp::Reverse(e.1.saturating_sub(e.2)));
    println!(
        "event type                       lines  reader ns/line  validation ns/line  excess ms  rows/line"
    );
    for (kind, (n, read, valid, rows)) in by_cost {
        println!(
            "{kind:32} {n:6} {:15} {:19} {:10.1} {:10.2}",
            read / u128::from(n),
            valid / u128::from(n),
            read.saturating_sub(valid) as f64 / 1e6,
            rows as f64 / n as f64
        );
    }
}
