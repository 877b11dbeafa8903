//! A scan leaves the evidence exactly as it was found: every byte, every modification
//! time, every file name, and no new file (no `-shm`, no `-journal`, no lock file, no
//! output).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use ai_chat_forensics::chat_rows::evidence::{EntryState, snapshot_tree};

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

/// Runs the CLI on `root` once per output format, each with a manifest, into `out`.
fn scan_in_every_format(root: &Path, out: &Path) {
    for format in ["jsonl", "csv", "timesketch"] {
        let status = Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
            .arg(root)
            .args(["--format", format, "--no-progress", "-o"])
            .arg(out.join(format!("rows.{format}")))
            .arg("--manifest")
            .arg(out.join("manifest.json"))
            .status()
            .unwrap();
        assert!(status.success());
    }
}

#[test]
fn a_scan_changes_no_byte_and_creates_no_file() {
    let root = evidence();
    let before = snapshot_tree(&root).unwrap();
    assert!(before.len() > 1, "the fixture tree is empty");

    // through the library, with several threads
    let result = ai_chat_forensics::Scanner::new()
        .root(&root)
        .threads(2)
        .run()
        .unwrap();
    assert_eq!(
        snapshot_tree(&root).unwrap(),
        before,
        "the library scan changed the evidence"
    );

    // through the CLI, with every output format and a manifest, written elsewhere
    let out = tempfile::tempdir().unwrap();
    scan_in_every_format(&root, out.path());
    assert_eq!(
        snapshot_tree(&root).unwrap(),
        before,
        "the CLI scan changed the evidence"
    );

    // the SQLite databases in the tree were read without a -shm or -journal appearing
    assert!(before.keys().any(|p| p.to_string_lossy().ends_with("-wal")));
    for path in before.keys() {
        let name = path.to_string_lossy();
        assert!(
            !name.ends_with("-shm") && !name.ends_with("-journal"),
            "{name} is in the fixtures"
        );
    }
    // and every file the scan read is in the manifest with its real size
    assert!(result.manifest.len() > 50);
    for m in &result.manifest {
        let rel = Path::new(&m.path)
            .strip_prefix(&root)
            .unwrap()
            .to_path_buf();
        match before.get(&rel) {
            Some(EntryState::File { len, .. }) => assert_eq!(*len, m.size, "{}", m.path),
            other => panic!("{} read but not a fixture file: {other:?}", m.path),
        }
    }
}

/// Every entry below `root` (and `root`), listed with `std::fs::read_dir`, which sets
/// the folders' access times: call it before they are set back.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn tree_paths(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if std::fs::symlink_metadata(&path).unwrap().is_dir() {
                todo.push(path.clone());
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The access time of each path, from its status alone (asking a status sets none).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn access_times(paths: &[PathBuf]) -> Vec<(PathBuf, std::time::SystemTime)> {
    paths
        .iter()
        .map(|p| {
            let m = std::fs::symlink_metadata(p).unwrap();
            (p.clone(), m.accessed().unwrap())
        })
        .collect()
}

/// Sets the access time of each path to `when`, older than their modification times,
/// so that a read on a `relatime` mount sets it (opening sets none).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn age_access_times(paths: &[PathBuf], when: std::time::SystemTime) {
    let times = std::fs::FileTimes::new().set_accessed(when);
    for path in paths {
        std::fs::File::open(path).unwrap().set_times(times).unwrap();
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn a_scan_sets_no_access_time() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("evidence");
    common::copy_tree(&evidence(), &root);
    let control = tmp.path().join("control");
    std::fs::create_dir_all(control.join("folder")).unwrap();
    std::fs::write(control.join("folder/file.json"), b"{}").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3 * 86_400);
    let paths = tree_paths(&root);
    let control_paths = vec![control.join("folder"), control.join("folder/file.json")];
    age_access_times(&paths, old);
    age_access_times(&control_paths, old);

    // does this file system set access times on reads at all? (not on a noatime or
    // read-only mount, where there is nothing to prove)
    std::fs::read(control.join("folder/file.json")).unwrap();
    std::fs::read_dir(control.join("folder")).unwrap().count();
    let after = access_times(&control_paths);
    if after.iter().any(|(_, t)| *t == old) {
        eprintln!(
            "skipped a_scan_sets_no_access_time: this file system sets no access time on a read ({after:?})"
        );
        return;
    }

    let before = access_times(&paths);
    assert!(before.len() > 300, "{}", before.len());
    assert!(before.iter().all(|(_, t)| *t == old));
    // discovery alone, then a scan that hashes, then the CLI with every format
    let scanner = ai_chat_forensics::Scanner::new()
        .root(&root)
        .threads(2)
        .hash_files(true);
    assert!(scanner.discover().unwrap().len() > 50);
    let result = scanner.run().unwrap();
    let out = tempfile::tempdir().unwrap();
    scan_in_every_format(&root, out.path());
    let changed: Vec<&PathBuf> = access_times(&paths)
        .iter()
        .zip(&before)
        .filter(|(now, was)| now != was)
        .map(|(_, (p, _))| p)
        .collect();
    assert!(changed.is_empty(), "access times set: {changed:?}");

    // the scan owns the copy: every file and folder was read with O_NOATIME, and says so
    assert!(result.manifest.len() > 50);
    assert!(result.manifest.iter().all(|m| m.access_time_kept));
    assert_eq!(result.report.files_access_time_not_kept(), 0);
    assert_eq!(result.report.folders_access_time_not_kept, 0);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("manifest.json")).unwrap()).unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), result.manifest.len());
    assert!(files.iter().all(|f| f["access_time_kept"] == true));
}

/// A scan by a user who owns neither the files nor the folders (the kernel refuses
/// `O_NOATIME`) reads everything all the same, gives the same rows, and says which
/// access times may have changed: every manifest entry, and a summary line. Runs the
/// CLI as `nobody` through `setpriv`, so only where the tests run as root.
#[cfg(target_os = "linux")]
#[test]
fn a_scan_by_another_user_says_which_access_times_may_have_changed() {
    use std::os::unix::fs::PermissionsExt;
    let as_nobody = |args: &[&std::ffi::OsStr]| {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .args(args)
            .output()
    };
    let bin = std::ffi::OsStr::new(env!("CARGO_BIN_EXE_ai-chat-forensics"));
    match as_nobody(&[bin, std::ffi::OsStr::new("--version")]) {
        Ok(o) if o.status.success() => {}
        other => {
            eprintln!(
                "skipped a_scan_by_another_user_says_which_access_times_may_have_changed: cannot run the CLI as nobody through setpriv (not root, no setpriv, or the binary's folders closed to others): {other:?}"
            );
            return;
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let open = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(tmp.path(), open.clone()).unwrap();
    let root = tmp.path().join("evidence");
    common::copy_tree(&evidence(), &root);
    for p in tree_paths(&root) {
        let mode = if p.is_dir() { 0o755 } else { 0o644 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();

    let theirs = as_nobody(&[
        bin,
        root.as_os_str(),
        "--no-progress".as_ref(),
        "-o".as_ref(),
        out.join("nobody.jsonl").as_os_str(),
        "--manifest".as_ref(),
        out.join("nobody.json").as_os_str(),
    ])
    .unwrap();
    assert!(theirs.status.success(), "{theirs:?}");
    let ours = Command::new(bin)
        .arg(&root)
        .args(["--no-progress", "-o"])
        .arg(out.join("root.jsonl"))
        .arg("--manifest")
        .arg(out.join("root.json"))
        .output()
        .unwrap();
    assert!(ours.status.success());

    let lines = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| l.contains("access times"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lines(&theirs),
        [
            "  access times may have changed: 129 of the manifest's 129 file(s) and 194 folder(s) were read without O_NOATIME (the kernel allows O_NOATIME only to a file's owner and to root; none changes on a read-only or noatime mount; the manifest says which files)"
        ]
    );
    // every folder of the tree, each once (the walk and the stores list some twice)
    assert_eq!(tree_paths(&root).iter().filter(|p| p.is_dir()).count(), 194);
    assert!(lines(&ours).is_empty(), "{:?}", lines(&ours));
    assert_eq!(
        std::fs::read(out.join("nobody.jsonl")).unwrap(),
        std::fs::read(out.join("root.jsonl")).unwrap()
    );
    let kept = |name: &str| -> Vec<bool> {
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(name)).unwrap()).unwrap();
        m["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["access_time_kept"].as_bool().unwrap())
            .collect()
    };
    assert_eq!(kept("nobody.json"), vec![false; 129]);
    assert_eq!(kept("root.json"), vec![true; 129]);
}

/// An output is never written into the evidence by another name (2026-12-05): a link
/// already in the `--output-dir` folder at a host's file name, a hard link to an
/// evidence file given as `-o` or `--manifest`, and, through the library, an output
/// folder or temporary folder inside the root. Each is refused with the guard's reason
/// and every evidence byte stays as it was.
#[cfg(unix)]
#[test]
fn an_output_by_another_name_of_the_evidence_is_refused() {
    use ai_chat_forensics::chat_rows::write::Format;
    use ai_chat_forensics::{ScanError, Scanner};
    let d = tempfile::tempdir().unwrap();
    let ev = d.path().join("ev");
    std::fs::create_dir_all(&ev).unwrap();
    assert!(
        Command::new("cp")
            .arg("-a")
            .arg(evidence().join("lin-ws01"))
            .arg(&ev)
            .status()
            .unwrap()
            .success()
    );
    let history = ev.join("lin-ws01/home/alice/.claude/history.jsonl");
    let settings = ev.join("lin-ws01/home/alice/.claude/settings.json");
    let before = (
        std::fs::read(&history).unwrap(),
        std::fs::read(&settings).unwrap(),
    );
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
            .arg(&ev)
            .arg("--no-progress")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // a link at the host's file name in the output folder
    let outdir = d.path().join("out");
    std::fs::create_dir_all(&outdir).unwrap();
    std::os::unix::fs::symlink(&history, outdir.join("lin-ws01.jsonl")).unwrap();
    let (code, err) = run(&["--output-dir".as_ref(), outdir.as_os_str()]);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("is inside an evidence root"), "{err}");
    // a hard link to evidence as -o and as --manifest
    let hard = d.path().join("hard.jsonl");
    std::fs::hard_link(&settings, &hard).unwrap();
    let want = format!(
        "{} has 2 hard links; another of its names may be evidence: remove it or write elsewhere",
        hard.display()
    );
    let (code, err) = run(&["-o".as_ref(), hard.as_os_str()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&want), "{err}");
    let (code, err) = run(&[
        "-o".as_ref(),
        d.path().join("rows.jsonl").as_os_str(),
        "--manifest".as_ref(),
        hard.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&want), "{err}");
    // the library refuses an output folder or temporary folder inside the root
    let inside = ev.join("lin-ws01/out");
    match Scanner::new()
        .root(&ev)
        .write_per_host(Format::Jsonl, &inside, |_| {})
    {
        Err(ScanError::OutputRefused { path, why }) => {
            assert_eq!(path, inside);
            assert!(why.ends_with("is inside an evidence root; write output elsewhere so the evidence stays unchanged"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    match Scanner::new().root(&ev).temp_dir(&inside).run() {
        Err(ScanError::OutputRefused { why, .. }) => {
            assert!(
                why.ends_with("is inside an evidence root; give one elsewhere"),
                "{why}"
            )
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // through the library too, a link in the output folder is never written through
    match Scanner::new()
        .root(&ev)
        .write_per_host(Format::Jsonl, &outdir, |_| {})
    {
        Err(ScanError::Output(e)) => {
            assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{e}")
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(!inside.exists());
    assert_eq!(
        (
            std::fs::read(&history).unwrap(),
            std::fs::read(&settings).unwrap()
        ),
        before
    );
}
