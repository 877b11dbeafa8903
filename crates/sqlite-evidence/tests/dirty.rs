//! The dirty-input harness on the fixture databases: damaged main files and WALs never
//! panic, stay within memory, and every certain damage is reported.

use std::path::Path;

use chat_rows::dirty::{Harness, Mutation};
use chat_rows::{Row, system};
use sqlite_evidence::Database;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

/// Opens, queries every table, recovers every table: rows for problems and for what
/// was read, so the harness sees both.
fn parse(main: &[u8], wal: Option<&[u8]>) -> Vec<Row> {
    let db = match Database::from_bytes(main, wal) {
        Ok(db) => db,
        Err(e) => return vec![Row::system("test", system::parser(e))],
    };
    let mut rows = sqlite_evidence::rows::problem_rows(db.problems(), "test", "db", "");
    for table in ["ItemTable", "notes"] {
        if let Ok(mut stmt) = db.connection().prepare(&format!("SELECT * FROM {table}")) {
            let n = stmt.column_count();
            if let Ok(mut q) = stmt.query([]) {
                while let Ok(Some(r)) = q.next() {
                    let text: Vec<String> =
                        (0..n).map(|i| format!("{:?}", r.get_ref(i).ok())).collect();
                    rows.push(Row::system("test", text.join("|")));
                }
            }
        }
        for rec in db.deleted_records(table) {
            rows.push(Row::system("test", format!("{:?}", rec.values)).locator(rec.location));
        }
        for d in db.dropped_tables() {
            rows.push(
                Row::system("test", format!("dropped {}", d.name)).locator(d.location.clone()),
            );
        }
    }
    // the paged mode on the same bytes: its records, as rows of their own
    if let Ok(paged) = sqlite_evidence::paged::PagedDatabase::from_readers(
        Box::new(main.to_vec()),
        wal.map(|w| Box::new(w.to_vec()) as Box<dyn sqlite_evidence::paged::ReadAt>),
    ) {
        for table in ["ItemTable", "notes"] {
            paged.live_records(table, &mut |id, v| {
                rows.push(Row::system("test", format!("paged live {id} {v:?}")));
            });
            paged.deleted_records(table, &mut |r| {
                rows.push(Row::system("test", format!("paged {:?}", r.values)).locator(r.location));
            });
        }
    }
    rows
}

#[test]
fn damaged_wal() {
    let main = data("live.db");
    let wal = data("live.db-wal");
    let report = Harness::new()
        .truncations(48)
        .flips(48)
        .splices(8)
        .run(&wal, |w| parse(&main, Some(w)));
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    // Every flip breaks the header checksum, a salt or a frame checksum; every cut
    // inside the WAL (not at a frame boundary, not to nothing) tears a frame or the header.
    let frame = 24 + 4096;
    report.assert_damage_reported(|m| match m {
        Mutation::Flip { .. } => true,
        Mutation::Truncate(n) => *n > 0 && *n < wal.len() && (*n < 32 || (*n - 32) % frame != 0),
        _ => false,
    });
}

#[test]
fn damaged_main_file() {
    let main = data("deleted_plain.db");
    let report = Harness::new()
        .truncations(32)
        .flips(32)
        .splices(8)
        .run(&main, |m| parse(m, None));
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    // Every cut: a truncated main file (or, inside the header, an error).
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
}

#[test]
fn damaged_main_file_under_a_wal() {
    let main = data("deleted_wal.db");
    let wal = data("deleted_wal.db-wal");
    let report = Harness::new()
        .truncations(24)
        .flips(24)
        .splices(8)
        .run(&main, |m| parse(m, Some(&wal)));
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
}
