//! Throughput and peak memory of reading a large Claude Code transcript through the store,
//! printed as figures: `cargo run --release -p claude-code-log --example claude_code_bench -- [MB]`
//! (default 100).
//!
//! The transcript is generated at run time into a private temporary folder (never
//! committed): turns of a prompt, thinking, text, a Bash call and its result, an edit with
//! its structured patch, usage on every block record, ids unique per turn. It is read the
//! way the scanner reads it (`Store::read_into`), with a sink that counts rows and drops
//! them, so the figure is the reader's, not a collection's. The file is written a turn at
//! a time, so the peak RSS printed is the reader's own. `CLAUDE_CODE_BENCH_DIR=<folder>`
//! writes the evidence tree there and keeps it (to read it with the CLI as well).
use std::io::Write;
use std::time::Instant;

use chat_rows::{Evidence, FileContext, Row, RowSink, Store};
use claude_code_log::ClaudeCodeStore;

struct Count(usize);

impl RowSink for Count {
    fn push(&mut self, _row: Row) {
        self.0 += 1;
    }
}

fn turn(out: &mut Vec<u8>, n: usize) {
    let sid = "0b5e0000-0000-4000-8000-000000000000";
    let env = |uuid: String, parent: String, t: usize| {
        format!(
            r#""parentUuid":"{parent}","isSidechain":false,"userType":"external","cwd":"/home/u/src/app","sessionId":"{sid}","version":"2.1.289","gitBranch":"main","uuid":"{uuid}","timestamp":"2026-06-02T{:02}:{:02}:{:02}.000Z""#,
            (t / 3600) % 24,
            (t / 60) % 60,
            t % 60
        )
    };
    let u = |k: usize| format!("u{n}-{k}");
    let filler = "lorem ipsum dolor sit amet ".repeat(40);
    let lines = [
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"Turn {n}: refactor module {n} and keep the tests green. {filler}"}},"permissionMode":"acceptEdits",{}}}"#,
            env(u(0), u(99), n)
        ),
        format!(
            r#"{{"type":"assistant","message":{{"id":"msg_{n}","model":"claude-sonnet-4-5","role":"assistant","content":[{{"type":"thinking","thinking":"Plan for {n}: {filler}","signature":"c2ln"}}],"stop_reason":null,"usage":{{"input_tokens":1200,"output_tokens":10,"cache_read_input_tokens":9000,"cache_creation_input_tokens":0}}}},{}}}"#,
            env(u(1), u(0), n)
        ),
        format!(
            r#"{{"type":"assistant","message":{{"id":"msg_{n}","model":"claude-sonnet-4-5","role":"assistant","content":[{{"type":"tool_use","id":"toolu_{n}a","name":"Bash","input":{{"command":"npm test -- mod{n}","description":"Run tests"}}}}],"stop_reason":"tool_use","usage":{{"input_tokens":1200,"output_tokens":80,"cache_read_input_tokens":9000,"cache_creation_input_tokens":0}}}},"wireToolInputs":{{"toolu_{n}a":{{"command":"cd /home/u/src/app && npm test -- mod{n}","description":"Run tests"}}}},{}}}"#,
            env(u(2), u(1), n)
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{n}a","is_error":true,"content":"Exit code 1\nFAIL mod{n}.test.js {filler}"}}]}},"toolUseResult":{{"stdout":"FAIL","stderr":"","interrupted":false}},{}}}"#,
            env(u(3), u(2), n)
        ),
        format!(
            r#"{{"type":"assistant","message":{{"id":"msg_{n}b","model":"claude-sonnet-4-5","role":"assistant","content":[{{"type":"tool_use","id":"toolu_{n}b","name":"Edit","input":{{"file_path":"/home/u/src/app/mod{n}.js","old_string":"a","new_string":"b"}}}}],"stop_reason":"tool_use","usage":{{"input_tokens":1300,"output_tokens":60,"cache_read_input_tokens":9000,"cache_creation_input_tokens":0}}}},{}}}"#,
            env(u(4), u(3), n)
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{n}b","content":"The file has been updated."}}]}},"toolUseResult":{{"filePath":"/home/u/src/app/mod{n}.js","oldString":"a","newString":"b","originalFile":"{filler}","structuredPatch":[{{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-a","+b"]}}],"userModified":false}},{}}}"#,
            env(u(5), u(4), n)
        ),
        format!(
            r#"{{"type":"assistant","message":{{"id":"msg_{n}c","model":"claude-sonnet-4-5","role":"assistant","content":[{{"type":"text","text":"Module {n} is refactored. {filler}"}}],"stop_reason":"end_turn","usage":{{"input_tokens":1400,"output_tokens":50,"cache_read_input_tokens":9000,"cache_creation_input_tokens":0}}}},{}}}"#,
            env(u(6), u(5), n)
        ),
    ];
    for l in lines {
        out.extend_from_slice(l.as_bytes());
        out.push(b'\n');
    }
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => return eprintln!("cannot make a temporary folder: {e}"),
    };
    // CLAUDE_CODE_BENCH_DIR keeps the generated tree there, to read it with the CLI too
    let kept = std::env::var_os("CLAUDE_CODE_BENCH_DIR").map(std::path::PathBuf::from);
    let root = kept.as_deref().unwrap_or(dir.path());
    let folder = root.join("home/u/.claude/projects/-home-u-src-app");
    let path = folder.join("0b5e0000-0000-4000-8000-000000000000.jsonl");
    // written a turn at a time, so the peak below is the reader's, not the generator's
    let mut n = 0;
    let mut size = 0;
    let written = std::fs::create_dir_all(&folder)
        .and_then(|()| std::fs::File::create(&path))
        .and_then(|f| {
            let mut out = std::io::BufWriter::new(f);
            let mut turn_bytes = Vec::new();
            while size < mb * 1_000_000 {
                turn_bytes.clear();
                turn(&mut turn_bytes, n);
                out.write_all(&turn_bytes)?;
                size += turn_bytes.len();
                n += 1;
            }
            out.flush()
        });
    if let Err(e) = written {
        return eprintln!("cannot write the generated transcript: {e}");
    }
    let rss_before = chat_rows::dirty::peak_rss_bytes().unwrap_or(0);
    let ctx = FileContext {
        display_path: "bench.jsonl".into(),
        ..FileContext::default()
    };
    let mut sink = Count(0);
    let t = Instant::now();
    ClaudeCodeStore.read_into(&path, &ctx, &Evidence::new().hashing(false), &mut sink);
    let secs = t.elapsed().as_secs_f64();
    let mbs = size as f64 / 1e6;
    println!("input:    {mbs:.1} MB, {n} turns, {} lines", n * 7);
    println!(
        "read:     {secs:.3} s, {} rows ({:.1} MB/s, {:.0} rows/s)",
        sink.0,
        mbs / secs,
        sink.0 as f64 / secs
    );
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!(
            "peak RSS: {:.0} MB ({:.0} MB before reading; {:.2}x the file)",
            peak as f64 / 1e6,
            rss_before as f64 / 1e6,
            peak as f64 / size as f64
        );
    }
}
