//! The CLI end to end, on the project's own evidence tree.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
}

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = bin().args(args).output().expect("run the CLI");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let (code, _, err) = run(&["--format", "xml", "x"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid value 'xml' for '--format <FORMAT>'"),
        "{err}"
    );

    let ev = evidence();
    let (code, _, err) = run(&[ev.to_str().unwrap(), "--since", "yesterday"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--since: cannot read \"yesterday\" as a time"),
        "{err}"
    );

    let (code, _, err) = run(&[ev.to_str().unwrap(), "--host-zone", "Mars/Base"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--host-zone: cannot read \"Mars/Base\" as a UTC offset"),
        "{err}"
    );
}

#[test]
fn an_unreadable_root_exits_1() {
    let (code, out, err) = run(&["/no/such/evidence/root"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("error: cannot read evidence root /no/such/evidence/root:"),
        "{err}"
    );
}

#[test]
fn output_inside_the_evidence_is_refused() {
    let ev = evidence();
    let inside = ev.join("out.jsonl");
    let (code, _, err) = run(&[ev.to_str().unwrap(), "-o", inside.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is inside an evidence root"), "{err}");
    assert!(!inside.exists());
}

#[test]
fn every_format_writes_and_summarises() {
    let ev = evidence();
    let dir = tempfile::tempdir().unwrap();
    for format in ["jsonl", "csv", "timesketch"] {
        let out = dir.path().join(format!("rows.{format}"));
        let manifest = dir.path().join(format!("manifest-{format}.json"));
        let (code, stdout, err) = run(&[
            ev.to_str().unwrap(),
            "--format",
            format,
            "-o",
            out.to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
            "--no-progress",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(stdout.is_empty());
        assert!(err.contains("summary: "), "{err}");
        assert!(err.contains("  parser rows: "), "{err}");
        assert!(err.contains("  rows without a time: "), "{err}");
        let text = std::fs::read_to_string(&out).unwrap();
        if format == "csv" {
            assert!(text.starts_with("timestamp_utc,timestamp_zone,host,user,agent,"));
        }
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
        assert!(
            m["tool"]
                .as_str()
                .unwrap()
                .starts_with("ai-chat-forensics ")
        );
        for f in m["files"].as_array().unwrap() {
            assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
            let p = Path::new(f["path"].as_str().unwrap());
            assert_eq!(
                std::fs::metadata(p).unwrap().len(),
                f["size"].as_u64().unwrap()
            );
        }
    }
}

/// Cursor writes `.workspace-trusted` empty: the scanner hands the empty marker to the
/// store (a marker claim), which gives the trust row, instead of reporting an empty
/// file with nothing to read (as it does for an empty chat log).
#[test]
fn an_empty_trust_marker_gives_its_row_through_the_scanner() {
    let ev = evidence();
    let (code, out, err) = run(&[ev.to_str().unwrap(), "--no-progress", "--agent", "cursor"]);
    assert_eq!(code, 0, "{err}");
    let marker: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| {
            r["source_file"]
                .as_str()
                .unwrap()
                .ends_with("/.workspace-trusted")
        })
        .map(|r| format!("{} | {} | {}", r["host"], r["timestamp_zone"], r["text"]))
        .collect();
    assert_eq!(
        marker,
        [
            "\"mac-lt02\" | \"utc\" | \"permission setting: workspace_trusted=true location=Users-bob-src-web-1a2b3c4 (from .cursor/projects/Users-bob-src-web-1a2b3c4/.workspace-trusted, file mtime)\""
        ]
    );
}

#[test]
fn collected_at_gives_the_retention_rows_counted_back_from_it() {
    let ev = evidence();
    let retention = |extra: &[&str]| {
        let mut args = vec![
            ev.to_str().unwrap(),
            "--no-progress",
            "--agent",
            "claude-code",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|r| r["text"].as_str().unwrap().starts_with("retention: "))
            .map(|r| r["host"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // without a collection time a collection gives no retention row
    assert!(retention(&[]).is_empty());
    // long after the fixtures were written, both hosts' transcripts are past 30 days
    assert_eq!(
        retention(&["--collected-at", "2100-01-01"]),
        ["WIN-DESK03", "lin-ws01"]
    );
    let (code, _, err) = run(&[ev.to_str().unwrap(), "--collected-at", "soon"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--collected-at: cannot read \"soon\" as a time"),
        "{err}"
    );
}

#[test]
fn a_damaged_cursor_database_is_one_parser_row_in_every_format() {
    // Cursor's databases are read by state-vscdb and cursor-state (and the global one
    // by cody-history and tabby-db too, which are silent on a file that is not theirs):
    // each damaged file is one row, and one file in the summary
    let d = tempfile::tempdir().unwrap();
    let user = d.path().join("ws9/home/u/.config/Cursor/User");
    std::fs::create_dir_all(user.join("globalStorage")).unwrap();
    std::fs::create_dir_all(user.join("workspaceStorage/abc")).unwrap();
    std::fs::write(
        user.join("globalStorage/state.vscdb"),
        b"not a database at all",
    )
    .unwrap();
    std::fs::write(
        user.join("workspaceStorage/abc/state.vscdb"),
        b"SQLite format 3\0garbage",
    )
    .unwrap();
    let root = d.path().to_str().unwrap();
    let (code, out, err) = run(&[root, "--no-progress"]);
    assert_eq!(code, 0, "{err}");
    let texts: Vec<String> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!(
                "{} {}",
                v["agent"].as_str().unwrap(),
                v["text"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        texts,
        [
            "cursor parser: state.vscdb unreadable: not an SQLite database: the file starts with \"not a database a\"",
            "cursor parser: state.vscdb unreadable: file of 23 bytes ends inside the 100-byte SQLite header",
        ]
    );
    assert!(
        err.contains("summary: 2 file(s) read (7 readings by stores), 2 row(s) written"),
        "{err}"
    );
    assert!(
        err.contains("  parser rows another store gave for the same file, written once: 2\n"),
        "{err}"
    );
    let (_, csv, _) = run(&[root, "--no-progress", "--format", "csv"]);
    assert_eq!(
        csv.matches("parser: state.vscdb unreadable").count(),
        2,
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3, "{csv}");
}

/// `--max-file-size` sets the cap of one evidence file: a file over it is one `parser:`
/// row saying so (here the fixture's Claude Code transcript of 22,528 bytes under a
/// 2 KiB cap), and a size that cannot be read exits 2.
#[test]
fn the_size_cap_is_the_users_to_set() {
    let host = evidence().join("lin-ws01");
    let h = host.to_str().unwrap();
    for bad in ["0", "8X", "99999999T", "G"] {
        let (code, _, err) = run(&[h, "--max-file-size", bad]);
        assert_eq!(code, 2, "{bad}");
        assert_eq!(
            err,
            format!(
                "ai-chat-forensics: error: --max-file-size: cannot read {bad:?} as a size (use 8G, 500M or a number of bytes, more than 0)\n"
            )
        );
    }
    let over = |size: &str| -> Vec<String> {
        let (code, out, _) = run(&[h, "--max-file-size", size, "--no-progress"]);
        assert_eq!(code, 0);
        out.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|r| r["text"].as_str().unwrap().to_string())
            .filter(|t| t.contains("-byte cap of one evidence file"))
            .collect()
    };
    let capped = over("2K");
    assert_eq!(capped.len(), 16);
    let transcript = host.join(
        "home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl",
    );
    assert!(capped.contains(&format!(
        "parser: {}: cannot read (23744 bytes, over the 2048-byte cap of one evidence file)",
        ai_chat_forensics::chat_rows::display_path(&transcript)
    )));
    assert_eq!(over("4GiB"), Vec::<String>::new());
    // the cap is inclusive: a file of exactly the cap is read
    let names_transcript = |rows: &[String]| {
        rows.iter().any(|t| {
            t.contains("7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl: cannot read (23744 bytes")
        })
    };
    assert!(names_transcript(&over("23743")));
    assert!(!names_transcript(&over("23744")));
}

/// A file a store could not read (here: over the size cap) is named in the summary and
/// the manifest's `not_read`, not only in its `parser:` row, and is not counted as read
/// (2026-12-05; before, the summary said nothing of it).
#[test]
fn a_file_a_store_could_not_read_is_in_the_summary_and_the_manifest() {
    let host = evidence().join("lin-ws01");
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.json");
    let (code, _, err) = run(&[
        host.to_str().unwrap(),
        "--max-file-size",
        "23743",
        "--manifest",
        manifest.to_str().unwrap(),
        "-o",
        dir.path().join("rows.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let transcript = ai_chat_forensics::chat_rows::display_path(&host.join(
        "home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl",
    ));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let not_read: Vec<(String, String)> = doc["not_read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap().to_string(),
                e["why"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        not_read.contains(&(
            transcript.clone(),
            "file not read (23744 bytes, over the 23743-byte cap of one evidence file)".to_string()
        )),
        "{not_read:#?}"
    );
    assert!(
        !doc["files"].to_string().contains(&transcript),
        "a file not read is no entry of the files read"
    );
    let line = err
        .lines()
        .find(|l| l.starts_with("  paths not read: "))
        .unwrap_or_default();
    assert_eq!(
        line,
        format!(
            "  paths not read: {} (each is a parser row)",
            not_read.len()
        ),
        "{err}"
    );
    assert!(err.contains(&transcript), "{err}");
}
