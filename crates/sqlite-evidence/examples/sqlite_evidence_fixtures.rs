//! Builds the test databases of `tests/data/` deterministically.
//!
//! `cargo run -p sqlite-evidence --example sqlite_evidence_fixtures`
//!
//! Each database is written with rusqlite in a scratch directory. For a live WAL, the
//! main file and its `-wal` are copied while the writer connection is still open (with
//! `wal_autocheckpoint = 0`), which is what a responder collecting from a running
//! editor gets. SQLite draws the WAL salts at random; the builder rewrites them to
//! fixed values and recomputes the frame checksums, so every build gives the same bytes.
//! The ground truth of each recovery database (which rows were deleted) is written
//! beside it as `<name>.deleted.txt`, one `id` per line.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use sqlite_evidence::decode::reseal_wal;

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Copies `<scratch>/<name>` and its `-wal` (if any) to the output directory.
fn snapshot(scratch: &Path, name: &str) {
    let out = out_dir();
    std::fs::copy(scratch.join(name), out.join(name)).unwrap();
    let wal = scratch.join(format!("{name}-wal"));
    let wal_out = out.join(format!("{name}-wal"));
    match std::fs::read(&wal) {
        Ok(mut bytes) if !bytes.is_empty() => {
            reseal_wal(&mut bytes, (0x5a17_0001, 0x5a17_0002));
            std::fs::write(&wal_out, bytes).unwrap();
        }
        _ => {
            let _ = std::fs::remove_file(&wal_out);
        }
    }
}

fn note(i: i64) -> (String, String, i64) {
    let title = format!("note {i}");
    let body = format!(
        "body of note {i}: {}",
        "lorem ipsum ".repeat((i % 9) as usize + 1)
    );
    (title, body, 1_790_000_000_000 + i * 60_000)
}

/// An ItemTable key like VS Code's.
fn item_key(i: i64) -> String {
    format!("ext.publisher-{i}/state")
}

/// An ItemTable value: JSON of varying size, version `v`.
fn item_value(i: i64, v: i64) -> String {
    format!(
        "{{\"v\":{v},\"items\":[{}]}}",
        (0..(i % 13))
            .map(|k| format!("\"entry {i}.{k}\""))
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// A value of 3 to 12 KB: a chat history as an extension keeps it.
fn large_value(i: i64) -> String {
    let turns: Vec<String> = (0..(30 + i * 2))
        .map(|k| format!("{{\"turn\":{k},\"text\":\"message {k} of chat {i} with some words\"}}"))
        .collect();
    format!("{{\"chat\":{i},\"turns\":[{}]}}", turns.join(","))
}

fn create_notes(conn: &Connection, n: i64) {
    conn.execute_batch(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER);
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for i in 1..=n {
        let (t, b, c) = note(i);
        tx.execute(
            "INSERT INTO notes VALUES (?1, ?2, ?3, ?4)",
            params![i, t, b, c],
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

/// The ids deleted from every recovery database: scattered rows and one whole run.
fn doomed() -> Vec<i64> {
    let mut ids: Vec<i64> = (1..=300).filter(|i| i % 7 == 3).collect();
    ids.extend(200..=260);
    ids.sort();
    ids.dedup();
    ids
}

fn delete_doomed(conn: &Connection) {
    let tx = conn.unchecked_transaction().unwrap();
    for id in doomed() {
        tx.execute("DELETE FROM notes WHERE id = ?1", [id]).unwrap();
    }
    tx.commit().unwrap();
}

fn write_truth(name: &str) {
    let text: String = doomed().iter().map(|i| format!("{i}\n")).collect();
    std::fs::write(out_dir().join(format!("{name}.deleted.txt")), text).unwrap();
}

fn fresh(scratch: &Path, name: &str) -> Connection {
    let p = scratch.join(name);
    for s in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{s}", p.display()));
    }
    Connection::open(p).unwrap()
}

fn main() {
    let scratch = tempfile::tempdir().unwrap();
    let scratch = scratch.path();
    std::fs::create_dir_all(out_dir()).unwrap();

    // 1. A live WAL: 3 items checkpointed into the main file, then in the WAL only: two
    //    inserts, one update and one delete, in three commits.
    {
        let conn = fresh(scratch, "live.db");
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
             CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
             INSERT INTO ItemTable VALUES ('a', 'alpha'), ('b', 'bravo'), ('c', 'charlie');
             PRAGMA wal_checkpoint(TRUNCATE);
             INSERT INTO ItemTable VALUES ('d', 'delta');
             INSERT INTO ItemTable VALUES ('e', X'6563686f');
             UPDATE ItemTable SET value = 'bravo2' WHERE key = 'b';
             DELETE FROM ItemTable WHERE key = 'c';",
        )
        .unwrap();
        snapshot(scratch, "live.db");
    }

    // 2. Deleted rows, plain delete (secure_delete off), rollback journal.
    {
        let conn = fresh(scratch, "deleted_plain.db");
        conn.execute_batch("PRAGMA secure_delete = OFF;").unwrap();
        create_notes(&conn, 300);
        delete_doomed(&conn);
        drop(conn);
        snapshot(scratch, "deleted_plain.db");
        write_truth("deleted_plain.db");
    }

    // 3. The same with secure_delete on: the freed bytes are zeroed.
    {
        let conn = fresh(scratch, "deleted_secure.db");
        conn.execute_batch("PRAGMA secure_delete = ON;").unwrap();
        create_notes(&conn, 300);
        delete_doomed(&conn);
        drop(conn);
        snapshot(scratch, "deleted_secure.db");
        write_truth("deleted_secure.db");
    }

    // 4. The same, then VACUUM: the file is rebuilt without the freed space.
    {
        let conn = fresh(scratch, "deleted_vacuum.db");
        conn.execute_batch("PRAGMA secure_delete = OFF;").unwrap();
        create_notes(&conn, 300);
        delete_doomed(&conn);
        conn.execute_batch("VACUUM;").unwrap();
        drop(conn);
        snapshot(scratch, "deleted_vacuum.db");
        write_truth("deleted_vacuum.db");
    }

    // 5. WAL mode: the rows are checkpointed into the main file, then deleted in the
    //    WAL, which is left uncheckpointed.
    {
        let conn = fresh(scratch, "deleted_wal.db");
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = OFF;",
        )
        .unwrap();
        create_notes(&conn, 300);
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        delete_doomed(&conn);
        snapshot(scratch, "deleted_wal.db");
        write_truth("deleted_wal.db");
        drop(conn);
    }
    // 6. An ItemTable (VS Code's shape: no rowid alias): keys deleted and values
    //    rewritten (INSERT OR REPLACE deletes the old row), secure_delete off.
    {
        let conn = fresh(scratch, "items_plain.db");
        conn.execute_batch("PRAGMA secure_delete = OFF;").unwrap();
        conn.execute_batch(
            "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        )
        .unwrap();
        let mut truth = String::new();
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..200 {
            tx.execute(
                "INSERT INTO ItemTable VALUES (?1, ?2)",
                params![item_key(i), item_value(i, 0)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        for i in (0..200).filter(|i| i % 5 == 1) {
            conn.execute("DELETE FROM ItemTable WHERE key = ?1", [item_key(i)])
                .unwrap();
            truth.push_str(&format!("{}\t{}\n", item_key(i), item_value(i, 0)));
        }
        for i in (0..200).filter(|i| i % 5 == 3) {
            conn.execute(
                "INSERT INTO ItemTable VALUES (?1, ?2)",
                params![item_key(i), item_value(i, 1)],
            )
            .unwrap();
            truth.push_str(&format!("{}\t{}\n", item_key(i), item_value(i, 0)));
        }
        drop(conn);
        snapshot(scratch, "items_plain.db");
        std::fs::write(out_dir().join("items_plain.db.deleted.txt"), truth).unwrap();
    }
    // 7. An ItemTable with large values that spill onto overflow pages (as extension
    //    state and chat histories do): 10 keys deleted, secure_delete off.
    {
        let conn = fresh(scratch, "items_large.db");
        conn.execute_batch(
            "PRAGMA secure_delete = OFF;
             CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        )
        .unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..40 {
            tx.execute(
                "INSERT INTO ItemTable VALUES (?1, ?2)",
                params![item_key(i), large_value(i)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let mut truth = String::new();
        for i in (0..40).filter(|i| i % 4 == 1) {
            conn.execute("DELETE FROM ItemTable WHERE key = ?1", [item_key(i)])
                .unwrap();
            truth.push_str(&format!("{}\t{}\n", item_key(i), large_value(i)));
        }
        drop(conn);
        snapshot(scratch, "items_large.db");
        std::fs::write(out_dir().join("items_large.db.deleted.txt"), truth).unwrap();
    }
    // 8. Two WAL generations: a row inserted and deleted (secure_delete on, so the
    //    checkpointed page holds zeros) before a checkpoint; the next write restarts the
    //    WAL with new salts and overwrites only its first frames, so the frame that
    //    held the row survives as an older generation.
    {
        let conn = fresh(scratch, "generations.db");
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = ON;",
        )
        .unwrap();
        create_notes(&conn, 40);
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        for i in 41..=50 {
            let (t, b, c) = note(i);
            conn.execute(
                "INSERT INTO notes VALUES (?1, ?2, ?3, ?4)",
                params![i, t, b, c],
            )
            .unwrap();
        }
        let (t, b, c) = note(61);
        conn.execute(
            "INSERT INTO notes VALUES (?1, ?2, ?3, ?4)",
            params![61, t, b, c],
        )
        .unwrap();
        conn.execute("DELETE FROM notes WHERE id = 61", []).unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE);")
            .unwrap();
        conn.execute("UPDATE notes SET title = 'note 1 renamed' WHERE id = 1", [])
            .unwrap();
        snapshot(scratch, "generations.db");
        // Ground truth: note 1 before its rename (an older version), and note 61.
        std::fs::write(out_dir().join("generations.db.deleted.txt"), "1\n61\n").unwrap();
        drop(conn);
    }
    println!("fixtures written to {}", out_dir().display());
}
