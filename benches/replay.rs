//! Criterion benchmark of the VS Code mutation-log replay, on small logs of the two
//! real shapes (a big kind-0 line plus deltas; many streaming re-sends). The full-size
//! figures (100 MB, peak RSS, the serde_json baseline) come from
//! `cargo run --release --example replay_bench`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;

fn part(i: usize, len: usize) -> String {
    let mut s = String::new();
    while s.len() < len {
        s.push_str(&format!("word{} `code` \"q\"\n", i % 97));
    }
    s
}

fn first_line_log(requests: usize) -> Vec<u8> {
    let reqs: Vec<_> = (0..requests)
        .map(|i| {
            json!({"requestId": format!("r{i}"), "timestamp": 1_759_400_000_000u64 + i as u64,
                "message": {"text": part(i, 200), "parts": []},
                "response": [{"kind": "thinking", "value": part(i, 300)}, {"value": part(i, 2000)},
                    {"kind": "toolInvocationSerialized", "toolCallId": format!("c{i}"), "toolId": "run_in_terminal",
                     "isConfirmed": {"type": 4}, "toolSpecificData": {"kind": "terminal", "commandLine": {"original": "ls"}},
                     "resultDetails": {"input": "ls", "output": [{"type": "embed", "value": part(i, 1000)}]}}],
                "result": {"metadata": {"rounds": part(i, 4000)}}, "modelId": "copilot/gpt-4.1"})
        })
        .collect();
    let mut out = serde_json::to_vec(
        &json!({"kind": 0, "v": {"version": 3, "sessionId": "b", "requests": reqs}}),
    )
    .unwrap();
    out.push(b'\n');
    for d in 0..100 {
        out.extend(
            serde_json::to_vec(
                &json!({"kind": 1, "k": ["requests", d % requests, "vote"], "v": 1}),
            )
            .unwrap(),
        );
        out.push(b'\n');
    }
    out
}

fn streaming_log(requests: usize) -> Vec<u8> {
    let mut out =
        b"{\"kind\":0,\"v\":{\"version\":3,\"sessionId\":\"b\",\"requests\":[]}}\n".to_vec();
    for i in 0..requests {
        out.extend(serde_json::to_vec(&json!({"kind": 2, "k": ["requests"], "v": [{"requestId": format!("r{i}"), "message": {"text": "q"}, "response": []}]})).unwrap());
        out.push(b'\n');
        for step in 1..=10 {
            out.extend(serde_json::to_vec(&json!({"kind": 2, "k": ["requests", i, "response"], "i": 0, "v": [{"value": part(i, step * 300)}]})).unwrap());
            out.push(b'\n');
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    for (name, log) in [
        ("first_line", first_line_log(200)),
        ("streaming", streaming_log(100)),
    ] {
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(log.len() as u64));
        g.sample_size(20);
        g.bench_function("validate_ignored_any", |b| {
            // lines found with memchr, as the replay finds them
            b.iter(|| {
                chat_rows::lines::lines(&log)
                    .filter(|l| serde_json::from_slice::<serde::de::IgnoredAny>(l.bytes).is_ok())
                    .count()
            })
        });
        g.bench_function("replay", |b| {
            b.iter(|| vscode_chat_log::Replay::from_bytes(&log).errors().len())
        });
        g.bench_function("replay_for_each_row", |b| {
            let ctx = vscode_chat_log::SessionContext::new("vscode", "bench.jsonl");
            b.iter(|| {
                let mut n = 0usize;
                vscode_chat_log::rows::for_each_row(
                    &vscode_chat_log::Replay::from_bytes(&log),
                    &ctx,
                    |row| n += row.text.len(),
                );
                n
            })
        });
        g.bench_function("replay_rows_collected", |b| {
            let ctx = vscode_chat_log::SessionContext::new("vscode", "bench.jsonl");
            b.iter(|| {
                vscode_chat_log::rows::rows_from_replay(
                    &vscode_chat_log::Replay::from_bytes(&log),
                    &ctx,
                )
                .len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
