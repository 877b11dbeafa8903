//! The case-scale path: a host's folder as the root keeps its host, `--host` names it,
//! and `--output-dir` writes one file per host holding exactly that host's rows.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .args(args)
        .output()
        .expect("run the CLI");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn rows(jsonl: &str) -> Vec<serde_json::Value> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_host_folder_as_the_root_keeps_its_host() {
    let host = evidence().join("lin-ws01");
    let (code, out, err) = run(&[host.to_str().unwrap(), "--no-progress"]);
    assert_eq!(code, 0, "{err}");
    let all = rows(&out);
    assert!(all.len() > 50);
    assert!(
        all.iter().all(|r| r["host"] == "lin-ws01"),
        "every row names the host"
    );
    let (code, out, err) = run(&[
        host.to_str().unwrap(),
        "--no-progress",
        "--host",
        "case-7-ws",
    ]);
    assert_eq!(code, 0, "{err}");
    let named = rows(&out);
    assert_eq!(named.len(), all.len());
    assert!(named.iter().all(|r| r["host"] == "case-7-ws"));
}

#[test]
fn output_dir_writes_one_file_per_host_with_exactly_its_rows() {
    let ev = evidence();
    let dir = tempfile::tempdir().unwrap();
    let (code, single, err) = run(&[ev.to_str().unwrap(), "--no-progress"]);
    assert_eq!(code, 0, "{err}");
    let mut expect: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in rows(&single) {
        expect
            .entry(r["host"].as_str().unwrap().to_string())
            .or_default()
            .push(r.to_string());
    }
    let out_dir = dir.path().join("per-host");
    let (code, out, err) = run(&[
        ev.to_str().unwrap(),
        "--no-progress",
        "--output-dir",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains(&format!("wrote {} file(s) into", expect.len())),
        "{err}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expect_names: Vec<String> = expect.keys().map(|h| format!("{h}.jsonl")).collect();
    assert_eq!(names, expect_names);
    for (host, lines) in &expect {
        let text = std::fs::read_to_string(out_dir.join(format!("{host}.jsonl"))).unwrap();
        let got: Vec<String> = rows(&text).iter().map(|r| r.to_string()).collect();
        assert_eq!(&got, lines, "{host}");
    }
    // CSV: a header in every file
    let csv_dir = dir.path().join("csv");
    let (code, _, err) = run(&[
        ev.to_str().unwrap(),
        "--no-progress",
        "--format",
        "csv",
        "--output-dir",
        csv_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    for e in std::fs::read_dir(&csv_dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        assert!(text.starts_with("timestamp_utc,timestamp_zone,host,user,agent,"));
        assert_eq!(text.matches("timestamp_utc,timestamp_zone").count(), 1);
    }
    // inside the evidence: refused, nothing written
    let inside = ev.join("lin-ws01/out");
    let (code, _, err) = run(&[
        ev.to_str().unwrap(),
        "--output-dir",
        inside.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--output-dir") && err.contains("is inside an evidence root"),
        "{err}"
    );
    assert!(!inside.exists());
}

#[test]
fn host_file_names_are_safe_and_distinct() {
    use ai_chat_forensics::chat_rows::write::Format;
    use ai_chat_forensics::host_file_name;
    assert_eq!(
        host_file_name("WIN-DESK03", Format::Jsonl),
        "WIN-DESK03.jsonl"
    );
    assert_eq!(host_file_name("", Format::Csv), "_no-host.csv");
    assert_eq!(host_file_name("_no-host", Format::Csv), "%5Fno-host.csv");
    assert_eq!(
        host_file_name("../etc", Format::Timesketch),
        "%2E.%2Fetc.timesketch.jsonl"
    );
    assert_eq!(host_file_name("a b/c", Format::Jsonl), "a%20b%2Fc.jsonl");
    // a 253-character FQDN, and a name of bytes that are each `%XX`: cut to fit a file
    // name, two hosts sharing their start stay two files
    let fqdn = |last: char| {
        format!(
            "{}.{}.{}.{}{last}",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(60)
        )
    };
    let (one, two) = (fqdn('x'), fqdn('y'));
    assert_eq!(one.len(), 253);
    let (f1, f2) = (
        host_file_name(&one, Format::Timesketch),
        host_file_name(&two, Format::Timesketch),
    );
    assert_ne!(f1, f2);
    assert_eq!(f1.len(), 183 + 1 + 16 + ".timesketch.jsonl".len());
    assert!(f1.starts_with(&one[..183]), "{f1}");
    assert_eq!(f1.as_bytes()[183], b'~');
    let wide = host_file_name(&"\u{e9}".repeat(100), Format::Jsonl);
    assert!(wide.len() <= 255 && wide.contains('~'), "{wide}");
    // never cut inside a `%XX`
    assert!(wide.split('~').next().unwrap().len() % 3 == 0, "{wide}");
}
