//! The CLI on hostile evidence trees: output that would land in the evidence, FIFOs,
//! links out of the root, unusable WALs, unreadable folders, overlapping roots, and
//! the arguments an analyst types. Each tree is built in a temporary folder from a few
//! of the project's own fixture files.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ai_chat_forensics::chat_rows::snapshot_tree;

fn bin_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ai-chat-forensics"))
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/evidence/lin-ws01/home/alice/.config/Code/User")
        .join(rel)
}

/// `ev/host1/home/u/.config/Code/User/...`: the global state database with its WAL and
/// one workspace (state database, `workspace.json`, a chat log).
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let t = Tree { dir };
        for rel in [
            "globalStorage/state.vscdb",
            "globalStorage/state.vscdb-wal",
            "workspaceStorage/5f3c0a1e/state.vscdb",
            "workspaceStorage/5f3c0a1e/workspace.json",
            "workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl",
        ] {
            let to = t.user().join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(fixture(rel), &to).unwrap();
        }
        std::fs::create_dir_all(t.dir.path().join("out")).unwrap();
        t
    }
    fn ev(&self) -> PathBuf {
        self.dir.path().join("ev")
    }
    fn user(&self) -> PathBuf {
        self.ev().join("host1/home/u/.config/Code/User")
    }
    fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("out").join(name)
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the CLI with a deadline: a hang fails the test instead of stalling it.
fn run_in(cmd: &mut Command, args: &[&str]) -> Run {
    let mut child = cmd
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the CLI");
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let (out, err) = (read(Box::new(out)), read(Box::new(err)));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the CLI hung for 120 s on {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(&mut Command::new(bin_path()), args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn rows(jsonl: &str) -> Vec<serde_json::Value> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn parser_texts(rows: &[serde_json::Value]) -> Vec<String> {
    rows.iter()
        .filter_map(|r| r["text"].as_str())
        .filter(|t| t.starts_with("parser:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn output_into_the_evidence_is_refused_under_every_spelling() {
    let t = Tree::new();
    let ev = t.ev();
    let db = t.user().join("globalStorage/state.vscdb");
    symlink(&ev, t.dir.path().join("evlink")).unwrap();
    symlink(&db, t.dir.path().join("out/dangling-into-ev")).unwrap();
    let before = snapshot_tree(&ev).unwrap();
    let via_other = t
        .dir
        .path()
        .join("out/../ev/host1/home/u/.config/Code/User/globalStorage/state.vscdb");
    let via_link = t.dir.path().join("evlink/x.jsonl");
    let root_dotdot = ev.join("../ev");
    let root_link = t.dir.path().join("evlink");
    let dangling = t.out("dangling-into-ev");
    let cases: Vec<Vec<&str>> = vec![
        vec![s(&ev), "-o", s(&db)],
        vec![s(&ev), "-o", s(&via_other)],
        vec![s(&ev), "-o", s(&via_link)],
        vec![s(&root_dotdot), "-o", s(&via_link)],
        vec![s(&root_link), "-o", s(&via_other)],
        vec![s(&ev), "-o", s(&dangling)],
        vec![s(&ev), "-o", "/dev/null", "--manifest", s(&via_link)],
        vec![s(&ev), "--list", "-o", s(&via_other)],
    ];
    for args in &cases {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("is inside an evidence root; write output elsewhere"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
    }
    assert_eq!(snapshot_tree(&ev).unwrap(), before, "the evidence changed");
    assert!(!ev.join("x.jsonl").exists());
    // `-o -` is standard output
    let r = run(&[s(&ev), "-o", "-", "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(rows(&r.stdout).len() > 10);
}

#[test]
fn a_fifo_at_a_companion_path_is_not_opened() {
    let t = Tree::new();
    let ws = t.user().join("workspaceStorage/5f3c0a1e");
    std::fs::remove_file(ws.join("workspace.json")).unwrap();
    let wal = t.user().join("globalStorage/state.vscdb-wal");
    std::fs::remove_file(&wal).unwrap();
    for fifo in [ws.join("workspace.json"), wal.clone()] {
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
    }
    let r = run(&[s(&t.ev()), "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = rows(&r.stdout);
    let parser = parser_texts(&all);
    assert!(
        parser.iter().any(|p| p.contains(
            "state.vscdb-wal left out (not a regular file (a FIFO); left unread); the main file was read without it"
        )),
        "{parser:#?}"
    );
    // the main database's rows are still there
    assert!(all.iter().any(|r| {
        r["source_file"]
            .as_str()
            .unwrap()
            .ends_with("globalStorage/state.vscdb")
            && !r["text"].as_str().unwrap().starts_with("parser:")
    }));
}

/// A FIFO where a store file would be (a chat session log), and a FIFO given as a root,
/// are never opened (opening a FIFO blocks) and are each named as a path not read; the
/// rest of the tree is read.
#[test]
fn a_fifo_at_a_store_path_or_as_a_root_is_named_and_not_opened() {
    let t = Tree::new();
    let chats = t.user().join("workspaceStorage/5f3c0a1e/chatSessions");
    let fifo = chats.join("fifo.jsonl");
    let root_fifo = t.dir.path().join("root-fifo");
    for f in [&fifo, &root_fifo] {
        assert!(Command::new("mkfifo").arg(f).status().unwrap().success());
    }
    let r = run(&[s(&t.ev()), s(&root_fifo), "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = rows(&r.stdout);
    let scanner: Vec<(&str, &str)> = all
        .iter()
        .filter(|r| r["agent"] == "scanner")
        .map(|r| {
            (
                r["text"].as_str().unwrap(),
                r["source_file"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        scanner,
        [
            (
                "parser: store file not read: not a regular file (a FIFO)",
                s(&fifo)
            ),
            (
                "parser: root not read: not a regular file (a FIFO)",
                s(&root_fifo)
            ),
        ]
    );
    assert!(
        r.stderr
            .contains("  paths not read: 2 (each is a parser row)"),
        "{}",
        r.stderr
    );
    // the chat log beside the FIFO is read
    assert!(all.iter().any(|r| {
        r["source_file"]
            .as_str()
            .unwrap()
            .ends_with("chatSessions/9ab.jsonl")
            && !r["text"].as_str().unwrap().starts_with("parser:")
    }));
}

#[test]
fn a_link_out_of_the_root_is_neither_read_nor_in_the_manifest() {
    let t = Tree::new();
    let outside = t.dir.path().join("outside-secret.txt");
    std::fs::write(&outside, b"not evidence").unwrap();
    let wal = t.user().join("globalStorage/state.vscdb-wal");
    std::fs::remove_file(&wal).unwrap();
    symlink(&outside, &wal).unwrap();
    let ws_json = t.user().join("workspaceStorage/5f3c0a1e/workspace.json");
    std::fs::remove_file(&ws_json).unwrap();
    symlink("/dev/zero", &ws_json).unwrap();
    let manifest = t.out("manifest.json");
    let r = run(&[s(&t.ev()), "--no-progress", "--manifest", s(&manifest)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let m = std::fs::read_to_string(&manifest).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&m).unwrap();
    // the file outside is no entry of the manifest's files; the link to it is named
    // among the paths not read (since 2026-12-05), with the target it was not followed to
    assert!(!doc["files"].to_string().contains("outside-secret"), "{m}");
    assert_eq!(
        doc["not_read"][1]["why"],
        format!(
            "file not read (a symbolic link to {}, outside the evidence root; not followed)",
            std::fs::canonicalize(&outside).unwrap().display()
        )
    );
    assert_eq!(doc["not_read"].as_array().unwrap().len(), 2);
    let read: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(
        !read
            .iter()
            .any(|p| p.ends_with("-wal") || p.ends_with("workspace.json")),
        "{read:?}"
    );
    // the linked workspace.json is itself a store file, which discovery names
    assert_eq!(
        doc["not_read"][0]["why"],
        "store file not read: a symbolic link to /dev/zero; discovery follows no link (give the target as a root to read it)"
    );
    assert!(!r.stdout.contains("not evidence"));
    let parser = parser_texts(&rows(&r.stdout));
    let outside_canon = std::fs::canonicalize(&outside).unwrap();
    assert!(
        parser.iter().any(|p| p.contains(&format!(
            "state.vscdb-wal left out (a symbolic link to {}, outside the evidence root; not followed)",
            outside_canon.display()
        ))),
        "{parser:#?}"
    );
    // every manifest entry is a file under the root, hashed
    for f in doc["files"].as_array().unwrap() {
        assert!(f["path"].as_str().unwrap().starts_with(s(&t.ev())));
        assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
    }
}

#[test]
fn a_wal_that_is_a_directory_keeps_the_main_database() {
    let t = Tree::new();
    let reference = run(&[s(&t.ev()), "--no-progress"]);
    let wal = t.user().join("globalStorage/state.vscdb-wal");
    std::fs::remove_file(&wal).unwrap();
    std::fs::create_dir(&wal).unwrap();
    let r = run(&[s(&t.ev()), "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let global = |out: &str| {
        rows(out)
            .into_iter()
            .filter(|r| {
                r["source_file"]
                    .as_str()
                    .unwrap()
                    .ends_with("globalStorage/state.vscdb")
            })
            .filter(|r| !r["text"].as_str().unwrap().starts_with("parser:"))
            .count()
    };
    assert!(global(&r.stdout) > 0);
    assert!(global(&r.stdout) <= global(&reference.stdout));
    assert!(
        parser_texts(&rows(&r.stdout)).iter().any(|p| p
            .contains("state.vscdb-wal left out (not a regular file (a directory); left unread)")),
        "{}",
        r.stdout
    );
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(2) == Some("0"))
        })
        .unwrap_or(false)
}

#[test]
fn unreadable_folders_links_and_empty_files_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let t = Tree::new();
    // a folder nobody may enter, a linked folder, a linked store file, an empty store file
    let locked = t.user().join("workspaceStorage/locked");
    std::fs::create_dir_all(locked.join("chatSessions")).unwrap();
    std::fs::copy(
        fixture("workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl"),
        locked.join("chatSessions/x.jsonl"),
    )
    .unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let elsewhere = t.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    symlink(&elsewhere, t.user().join("workspaceStorage/linked-dir")).unwrap();
    let chats = t.user().join("workspaceStorage/5f3c0a1e/chatSessions");
    symlink(chats.join("9ab.jsonl"), chats.join("linked.jsonl")).unwrap();
    std::fs::write(chats.join("empty.jsonl"), b"").unwrap();
    // the tree must be walkable by an unprivileged user, who cannot enter `locked`
    std::fs::set_permissions(t.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let r = if is_root() {
        let bin = t.dir.path().join("aicf");
        std::fs::copy(bin_path(), &bin).unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&bin);
        run_in(&mut cmd, &[s(&t.ev()), "--no-progress"])
    } else {
        run(&[s(&t.ev()), "--no-progress"])
    };
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = rows(&r.stdout);
    let parser = parser_texts(&all);
    let has = |needle: &str| parser.iter().any(|p| p.contains(needle));
    assert!(
        has("parser: folder not read (Permission denied (os error 13))"),
        "{parser:#?}"
    );
    assert!(
        has(&format!(
            "parser: folder not read: a symbolic link to {}; discovery follows no link",
            elsewhere.display()
        )),
        "{parser:#?}"
    );
    assert!(
        has(&format!(
            "parser: store file not read: a symbolic link to {}; discovery follows no link",
            chats.join("9ab.jsonl").display()
        )),
        "{parser:#?}"
    );
    assert!(
        has("parser: chat session log is empty (0 bytes); nothing to read"),
        "{parser:#?}"
    );
    let scanner_rows: Vec<_> = all.iter().filter(|r| r["agent"] == "scanner").collect();
    assert_eq!(scanner_rows.len(), 3);
    assert!(
        r.stderr
            .contains("  paths not read: 3 (each is a parser row)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("workspaceStorage/locked: folder not read"),
        "{}",
        r.stderr
    );
}

#[test]
fn overlapping_roots_read_each_file_once() {
    let t = Tree::new();
    let once = run(&[s(&t.ev()), "--no-progress"]);
    let host = t.ev().join("host1");
    for args in [
        vec![s(&t.ev()), s(&t.ev())],
        vec![s(&t.ev()), s(&host)],
        vec![s(&host), s(&t.ev())],
    ] {
        let mut a = args.clone();
        a.push("--no-progress");
        let r = run(&a);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout, once.stdout, "{args:?}");
        assert!(
            r.stderr
                .contains("lies inside another root: its files were read once")
        );
    }
}

#[test]
fn thread_counts_are_capped_and_output_is_identical() {
    let t = Tree::new();
    let one = run(&[s(&t.ev()), "--no-progress", "--threads", "1"]);
    let many = run(&[s(&t.ev()), "--no-progress", "--threads", "100000"]);
    assert_eq!(many.code, 0, "{}", many.stderr);
    assert!(
        many.stderr.contains("--threads 100000 capped at "),
        "{}",
        many.stderr
    );
    assert_eq!(one.stdout, many.stdout);
}

#[test]
fn arguments_an_analyst_types() {
    let t = Tree::new();
    let ev = t.ev();
    // a negative offset without `=`
    let r = run(&[s(&ev), "--host-zone", "-05:00", "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for bad in ["+15:00", "-14:30"] {
        let r = run(&[s(&ev), "--host-zone", bad]);
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("is beyond ±14:00"), "{}", r.stderr);
    }
    let r = run(&[s(&ev), "--agent", "claud"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("--agent: unknown agent \"claud\"; known agents: ")
            && r.stderr.contains("codebuddy")
            && r.stderr.contains("cursor"),
        "{}",
        r.stderr
    );
    let r = run(&[s(&ev), "--list", "--manifest", s(&t.out("m.json"))]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--manifest cannot be used with --list"),
        "{}",
        r.stderr
    );
    assert!(!t.out("m.json").exists());
    // a bare date in --until is the end of that day: the same rows as the next
    // midnight minus a microsecond
    let timed = |args: &[&str]| {
        let mut a = vec![s(&ev), "--no-progress"];
        a.extend_from_slice(args);
        let r = run(&a);
        assert_eq!(r.code, 0, "{}", r.stderr);
        rows(&r.stdout)
    };
    let all = timed(&[]);
    let mut days: Vec<String> = all
        .iter()
        .filter_map(|r| r["timestamp_utc"].as_str())
        .filter(|t| t.len() >= 10)
        .map(|t| t[..10].to_string())
        .collect();
    days.sort();
    let day = days.first().expect("a timed row").clone();
    let until_date = timed(&["--until", &day]);
    let until_end = timed(&["--until", &format!("{day}T23:59:59.999999Z")]);
    assert_eq!(until_date, until_end);
    assert!(until_date.iter().any(|r| {
        r["timestamp_utc"]
            .as_str()
            .is_some_and(|t| t.starts_with(&day))
    }));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let t = Tree::new();
    let mut child = Command::new(bin_path())
        .args([s(&t.ev()), "--no-progress"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // close the reading end at once, as `| head -c0` would
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 141,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("error"));
}

#[test]
fn csv_cells_cannot_attack_the_analyst() {
    let t = Tree::new();
    // a chat log whose prompt is a spreadsheet formula
    let log = t
        .user()
        .join("workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(r#""text":"run tests""#));
    std::fs::write(
        &log,
        text.replacen(
            r#""text":"run tests""#,
            r#""text":"=HYPERLINK(\"http://evil\",\"x\")""#,
            1,
        ),
    )
    .unwrap();
    let r = run(&[s(&t.ev()), "--no-progress", "--format", "csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\","),
        "{}",
        r.stdout
    );
    let r = run(&[s(&t.ev()), "--no-progress"]);
    assert!(
        rows(&r.stdout)
            .iter()
            .any(|r| r["text"] == "=HYPERLINK(\"http://evil\",\"x\")")
    );
}

#[test]
fn non_utf8_paths_stay_distinct_and_recoverable() {
    use std::os::unix::ffi::OsStrExt;
    let t = Tree::new();
    let ws = t.user().join("workspaceStorage");
    let a = ws.join(std::ffi::OsStr::from_bytes(b"w\xff"));
    let b = ws.join(std::ffi::OsStr::from_bytes(b"w\xfe"));
    for d in [&a, &b] {
        std::fs::create_dir_all(d.join("chatSessions")).unwrap();
        std::fs::copy(
            fixture("workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl"),
            d.join("chatSessions/9ab.jsonl"),
        )
        .unwrap();
    }
    let manifest = t.out("m.json");
    let r = run(&[s(&t.ev()), "--no-progress", "--manifest", s(&manifest)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files: std::collections::BTreeSet<String> = rows(&r.stdout)
        .iter()
        .map(|r| r["source_file"].as_str().unwrap().to_string())
        .filter(|f| f.contains("/w%F"))
        .collect();
    let expect: std::collections::BTreeSet<String> = [
        format!("{}/w%FE/chatSessions/9ab.jsonl", ws.display()),
        format!("{}/w%FF/chatSessions/9ab.jsonl", ws.display()),
    ]
    .into();
    assert_eq!(files, expect);
    let m = std::fs::read_to_string(&manifest).unwrap();
    assert!(
        m.contains("/w%FF/chatSessions/9ab.jsonl") && m.contains("/w%FE/chatSessions/9ab.jsonl")
    );
}

#[test]
fn every_fuzz_finding_laid_out_as_a_store_is_read_without_a_panic() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fuzz-findings");
    if !shared.is_dir() {
        eprintln!("SKIPPED: {} is absent", shared.display());
        return;
    }
    let t = Tree::new();
    let base = t
        .ev()
        .join("host1/home/u/.config/github-copilot/intellij/chat-sessions");
    let mut n = 0;
    for folder in ["cli", "mvstore_page", "java_serialization"] {
        let Ok(entries) = std::fs::read_dir(shared.join(folder)) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for (i, e) in entries.iter().enumerate() {
            let dir = base.join(format!("{folder}-{i}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(e, dir.join("copilot-chat-nitrite.db")).unwrap();
            n += 1;
        }
    }
    assert!(n > 90, "{n} findings");
    let r = run(&[s(&t.ev()), "--no-progress", "--agent", "copilot"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stderr.contains("files on which a reader failed"),
        "{}",
        r.stderr
    );
    let all = rows(&r.stdout);
    let files: std::collections::BTreeSet<&str> = all
        .iter()
        .map(|r| r["source_file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), n, "every finding gives at least one row");
}

#[test]
fn sort_time_gives_one_timeline_and_spills_outside_the_evidence() {
    let t = Tree::new();
    let inside = t.ev().join("host1");
    let r = run(&[s(&t.ev()), "--sort", "time", "--temp-dir", s(&inside)]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--temp-dir") && r.stderr.contains("is inside an evidence root"),
        "{}",
        r.stderr
    );
    let before = snapshot_tree(&t.ev()).unwrap();
    let spill = t.dir.path().join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    let sorted = run(&[
        s(&t.ev()),
        "--no-progress",
        "--sort",
        "time",
        "--temp-dir",
        s(&spill),
    ]);
    assert_eq!(sorted.code, 0, "{}", sorted.stderr);
    assert_eq!(snapshot_tree(&t.ev()).unwrap(), before);
    assert_eq!(
        std::fs::read_dir(&spill).unwrap().count(),
        0,
        "the spill folder is removed"
    );
    let streamed = run(&[s(&t.ev()), "--no-progress"]);
    let (a, b) = (rows(&sorted.stdout), rows(&streamed.stdout));
    assert_eq!(a.len(), b.len());
    let times: Vec<&str> = a
        .iter()
        .map(|r| r["timestamp_utc"].as_str().unwrap())
        .collect();
    let timed: Vec<&str> = times.iter().copied().filter(|t| !t.is_empty()).collect();
    let mut expect = timed.clone();
    expect.sort();
    assert_eq!(timed, expect, "timed rows in time order");
    let first_untimed = times
        .iter()
        .position(|t| t.is_empty())
        .unwrap_or(times.len());
    assert!(
        times[first_untimed..].iter().all(|t| t.is_empty()),
        "untimed rows last"
    );
    let mut sa: Vec<String> = a.iter().map(|r| r.to_string()).collect();
    let mut sb: Vec<String> = b.iter().map(|r| r.to_string()).collect();
    sa.sort();
    sb.sort();
    assert_eq!(sa, sb, "the same rows");
}

/// A link to nothing in the evidence (dangling, or a loop) where a store's folder would
/// be is named in a row and in the summary (2026-12-05; before, only links to folders
/// and to store files were, and `.claude` linked to a disk not collected left no trace).
#[test]
fn links_to_nothing_are_named() {
    let t = Tree::new();
    let home = t.ev().join("host1/home/u");
    let gone = t.dir.path().join("not-collected/claude");
    symlink(&gone, home.join(".claude")).unwrap();
    symlink(".copilot", home.join(".copilot")).unwrap();
    let r = run(&[s(&t.ev()), "--no-progress"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = rows(&r.stdout);
    let mut parser: Vec<String> = all
        .iter()
        .filter(|r| r["agent"] == "scanner")
        .map(|r| {
            format!(
                "{} {}",
                r["source_file"].as_str().unwrap(),
                r["text"].as_str().unwrap()
            )
        })
        .collect();
    parser.sort();
    assert_eq!(
        parser,
        vec![
            format!(
                "{} parser: link not followed: a symbolic link to {}, which leads to nothing in the evidence",
                home.join(".claude").display(),
                gone.display()
            ),
            format!(
                "{} parser: link not followed: a symbolic link to .copilot, which leads to a loop of links",
                home.join(".copilot").display()
            ),
        ]
    );
    assert!(
        r.stderr
            .contains("  paths not read: 2 (each is a parser row)"),
        "{}",
        r.stderr
    );
}
