//! Reads a generated Cursor global database and prints rows/s, MB/s and peak RSS.
//!
//! `cargo run --release -p cursor-state --example cursor_bench -- [BUBBLES] [BUBBLE_BYTES] [MODE] [BATCH_MIB] [MAX_WALKS]`
//!
//! The database (`composerData` per 50 bubbles, `bubbleId` values of about
//! BUBBLE_BYTES with a tool call every fourth, then one bubble in fifty (`b7` of each composer) deleted so
//! that the carving has records to find) is generated at run time in a private
//! temporary directory (the system's, outside the repository), read once through the
//! store, and removed. MODE is `auto` (the store's threshold: page by page above 512
//! MiB), `paged` (always page by page, batches of BATCH_MIB, default 128, grown when
//! they would be more than MAX_WALKS, default none) or `memory` (never: the whole file
//! in memory, about 3x its size).

use std::time::Instant;

use chat_rows::{Evidence, FileContext, Row, RowSink};
use rusqlite::{Connection, params};
use serde_json::json;

struct Count(usize);

impl RowSink for Count {
    fn push(&mut self, _row: Row) {
        self.0 += 1;
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let bubbles: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let size: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mode = args.next().unwrap_or_else(|| "auto".into());
    let batch_mib: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(128);
    let max_walks: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(u64::MAX);
    let paging = match mode.as_str() {
        "paged" => cursor_state::Paging {
            max_walks,
            ..cursor_state::Paging::always(batch_mib << 20)
        },
        "memory" => cursor_state::Paging {
            from_bytes: u64::MAX,
            ..Default::default()
        },
        _ => cursor_state::Paging::default(),
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Cursor/User/globalStorage/state.vscdb");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let t0 = Instant::now();
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); BEGIN;",
    )
    .unwrap();
    let filler = "x".repeat(size);
    let per = 50;
    for c in 0..bubbles.div_ceil(per) {
        let cid = format!("c{c:08}");
        let n = per.min(bubbles - c * per);
        let headers: Vec<_> = (0..n)
            .map(|b| json!({"bubbleId": format!("b{b}"), "type": 1 + b % 2}))
            .collect();
        let composer = json!({"_v": 13, "composerId": cid, "name": "bench", "createdAt": 1_790_000_000_000u64,
            "fullConversationHeadersOnly": headers});
        conn.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            params![format!("composerData:{cid}"), composer.to_string()],
        )
        .unwrap();
        for b in 0..n {
            let mut v = json!({"bubbleId": format!("b{b}"), "type": 1 + b % 2, "text": filler,
                "createdAt": 1_790_000_000_000u64 + b as u64 * 1000});
            if b % 4 == 3 {
                v["toolFormerData"] = json!({"name": "read_file", "toolCallId": format!("t{c}-{b}"),
                    "rawArgs": "{}", "status": "completed", "result": "ok"});
            }
            conn.execute(
                "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
                params![format!("bubbleId:{cid}:b{b}"), v.to_string()],
            )
            .unwrap();
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    let deleted = conn
        .execute(
            "DELETE FROM cursorDiskKV WHERE key LIKE 'bubbleId:%:b7'",
            [],
        )
        .unwrap();
    drop(conn);
    let bytes = std::fs::metadata(&path).unwrap().len();
    eprintln!(
        "generated {bubbles} bubbles ({deleted} deleted), {:.1} MB in {:.1}s; peak RSS so far {:.0} MB",
        bytes as f64 / 1e6,
        t0.elapsed().as_secs_f64(),
        chat_rows::dirty::peak_rss_bytes().unwrap_or(0) as f64 / 1e6
    );
    let t = Instant::now();
    let mut sink = Count(0);
    cursor_state::CursorStore.read_with(
        &path,
        &FileContext::default(),
        &Evidence::new().hashing(false),
        &mut sink,
        paging,
    );
    let s = t.elapsed().as_secs_f64();
    println!(
        "cursor_bench ({mode}, batch {batch_mib} MiB, max walks {}): {bubbles} bubbles, {:.1} MB, {} rows in {s:.2}s: {:.0} rows/s, {:.1} MB/s, peak RSS {:.0} MB",
        match paging.max_walks {
            u64::MAX => "none".to_string(),
            n => n.to_string(),
        },
        bytes as f64 / 1e6,
        sink.0,
        sink.0 as f64 / s,
        bytes as f64 / 1e6 / s,
        chat_rows::dirty::peak_rss_bytes().unwrap_or(0) as f64 / 1e6
    );
}
