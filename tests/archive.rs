//! A zipped (or tarred, or compressed-tar) collection reads as the tree it holds: every row, and every manifest entry
//! but the zip's own, the same as from the extracted tree (paths aside), with nothing
//! written beside the zip; and what a hostile zip holds that cannot stand in a tree is
//! named in rows, not passed over.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use ai_chat_forensics::Scanner;
use ai_chat_forensics::chat_rows::evidence::EntryKind;
use ai_chat_forensics::chat_rows::{Evidence, display_path, snapshot_tree};
use zip::write::SimpleFileOptions;

fn fixture_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

/// Copies the fixture tree to `tree`, every file's modification time cut to the whole
/// second (all a zip's extended timestamp keeps), or, with `dated`, every file dated
/// that Unix time (as the RAR fixtures' generator dates the tree before archiving it).
fn tree_in(tree: &Path, dated: Option<u64>) {
    common::copy_tree(&fixture_tree(), tree);
    for f in common::files_under(tree) {
        let secs = dated.unwrap_or_else(|| common::mtime_secs(&f));
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
            .unwrap();
    }
}

/// Tars `tree` to `path` (compressed as its extension says: `.gz`, `.bz2`, `.xz`,
/// `.zst`; or a 7z for `.7z`), each member with its modification time.
fn tar_tree(tree: &Path, path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut b = tar::Builder::new(Vec::new());
    for f in common::files_under(tree) {
        b.append_path_with_name(&f, f.strip_prefix(tree).unwrap())
            .unwrap();
    }
    let tar = b.into_inner().unwrap();
    let bytes = match path.extension().and_then(|e| e.to_str()) {
        Some("gz") => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(&tar).unwrap();
            w.finish().unwrap()
        }
        Some("bz2") => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            w.write_all(&tar).unwrap();
            w.finish().unwrap()
        }
        Some("xz") => {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6))
                    .unwrap();
            w.write_all(&tar).unwrap();
            w.finish().unwrap()
        }
        Some("7z") => {
            // the tree's files, solid, each with its modification time
            use sevenz_rust2::{ArchiveEntry, ArchiveWriter, SourceReader};
            let mut w = ArchiveWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
            let (entries, readers): (Vec<_>, Vec<_>) = common::files_under(tree)
                .into_iter()
                .map(|f| {
                    let name = f.strip_prefix(tree).unwrap().to_string_lossy().into_owned();
                    let entry = ArchiveEntry::from_path(&f, name);
                    (entry, SourceReader::from(std::fs::File::open(&f).unwrap()))
                })
                .unzip();
            w.push_archive_entries(entries, readers).unwrap();
            w.finish().unwrap().into_inner()
        }
        Some("zst") => {
            ruzstd::encoding::compress_to_vec(&tar[..], ruzstd::encoding::CompressionLevel::Fastest)
        }
        _ => tar,
    };
    std::fs::write(path, bytes).unwrap();
}

/// Each row as JSON, with `from` in its paths and texts replaced by `to`.
fn rows_of(rows: &[ai_chat_forensics::Row], from: &str, to: &str) -> Vec<String> {
    rows.iter()
        .map(|r| serde_json::to_string(r).unwrap().replace(from, to))
        .collect()
}

/// Which members a zip stores rather than deflates.
type Stored = fn(&Path) -> bool;

#[test]
fn a_zipped_collection_reads_as_the_tree_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    tree_in(&tree, None);
    let from_tree = Scanner::new().root(&tree).hash_files(true).run().unwrap();
    assert_eq!(from_tree.rows.len(), 862);
    // databases stored (read by ranges in place), or everything deflated
    let kinds: [(&str, Stored); 2] = [
        ("mixed", |p| {
            let name = p.file_name().unwrap().to_string_lossy();
            [".vscdb", ".db", "-wal", ".sqlite"]
                .iter()
                .any(|e| name.ends_with(e))
        }),
        ("deflated", |_| false),
    ];
    let archives = kinds
        .iter()
        .map(|(kind, _)| format!("{kind}/collection.zip"))
        .chain([
            "tar/collection.tar".into(),
            "tgz/collection.tar.gz".into(),
            "tbz/collection.tar.bz2".into(),
            "txz/collection.tar.xz".into(),
            "tzst/collection.tar.zst".into(),
            "7z/collection.7z".into(),
        ]);
    for (n, name) in archives.enumerate() {
        let zip = tmp.path().join(&name);
        let kind = name.as_str();
        match kinds.get(n) {
            Some((_, stored)) => common::zip_tree(&tree, &zip, stored),
            None => tar_tree(&tree, &zip),
        }
        reads_as_the_tree(&from_tree, &tree, &zip, kind);
    }
}

/// The archive at `zip` gives `from_tree`'s rows field for field (paths aside), its
/// problems, and its 129 manifest entries after its own, and writes nothing beside it.
fn reads_as_the_tree(
    from_tree: &ai_chat_forensics::ScanResult,
    tree: &Path,
    zip: &Path,
    kind: &str,
) {
    let cases = zip.parent().unwrap().to_path_buf();
    let before = snapshot_tree(&cases).unwrap();
    let from_zip = Scanner::new().root(zip).hash_files(true).run().unwrap();
    assert_eq!(snapshot_tree(&cases).unwrap(), before, "{kind}");
    let (t, z) = (display_path(tree), display_path(zip));
    let want = rows_of(&from_tree.rows, &t, &z);
    let got = rows_of(&from_zip.rows, "", "");
    common::same_rows(&want, &got, kind);
    assert_eq!(
        from_zip.report.problems, from_tree.report.problems,
        "{kind}"
    );
    // the manifest: the zip's own entry, then each member as its file from the tree
    let own = &from_zip.report.manifest[0];
    assert_eq!(own.path, z);
    assert_eq!(own.size, std::fs::metadata(zip).unwrap().len());
    assert_eq!(own.sha256.len(), 64);
    let (members, files_read) = common::members_and_files(
        &from_zip.report.manifest,
        &from_tree.report.manifest,
        &t,
        &z,
    );
    assert_eq!(members, files_read, "{kind}");
    assert_eq!(members.len(), 129, "{kind}");
}

/// The CLI reads a zipped root (a host folder zipped, named by the zip), lists it with
/// `--list`, and names in rows what a hostile zip holds that cannot stand in a tree:
/// a name that climbs out, a name given twice, a file named as a folder, a link, and a
/// member whose bytes fail their CRC (its lines, read a chunk at a time, then one
/// `parser:` row at its end; the rest is read).
#[test]
fn a_hostile_zip_is_read_and_what_cannot_be_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = tmp.path().join("lin-ws01.zip");
    let history =
        std::fs::read(fixture_tree().join("lin-ws01/home/alice/.claude/history.jsonl")).unwrap();
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated = SimpleFileOptions::default();
    let mut w = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
    w.start_file("home/alice/.claude/history.jsonl", deflated)
        .unwrap();
    w.write_all(&history).unwrap();
    w.start_file("home/bob/.claude/history.jsonl", stored)
        .unwrap();
    w.write_all(b"{\"display\":\"CORRUPTED BY TRANSIT\",\"timestamp\":1790000000000}\n")
        .unwrap();
    w.start_file("../../etc/cron.d/evil", stored).unwrap();
    w.write_all(b"x").unwrap();
    w.start_file("home//alice/./.claude/history.jsonl", stored)
        .unwrap();
    w.write_all(b"{}\n").unwrap();
    w.start_file("home/carol", stored).unwrap();
    w.write_all(b"a file").unwrap();
    w.add_symlink("home/carol/.claude/history.jsonl", "/etc/shadow", stored)
        .unwrap();
    w.finish().unwrap();
    let mut bytes = std::fs::read(&zip).unwrap();
    let at = memchr_find(&bytes, b"CORRUPTED");
    bytes[at] = b'c';
    std::fs::write(&zip, &bytes).unwrap();
    let before = snapshot_tree(tmp.path()).unwrap();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .arg(&zip)
        .arg("--list")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let z = display_path(&zip);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).replace(&z, "Z"),
        "scanner\tarchive entry 2 not read: its name climbs out of the archive (`..`): \"../../etc/cron.d/evil\"\tlin-ws01\t\t-\tZ\n\
         claude-code-log\tclaude-code prompt history\tlin-ws01\talice\t-\tZ/home/alice/.claude/history.jsonl\n\
         scanner\tarchive entry 3 not read: its name \"home//alice/./.claude/history.jsonl\" names the same path as entry 0, which is read\tlin-ws01\talice\t-\tZ/home/alice/.claude/history.jsonl\n\
         claude-code-log\tclaude-code prompt history\tlin-ws01\tbob\t-\tZ/home/bob/.claude/history.jsonl\n\
         scanner\tarchive entry 4 not read: a file of the archive whose name is also a folder's; the folder is read\tlin-ws01\tcarol\t-\tZ/home/carol\n\
         scanner\tstore file not read: a symbolic link member of the archive; discovery follows no link\tlin-ws01\tcarol\t-\tZ/home/carol/.claude/history.jsonl\n"
    );

    let run = common::run(&zip, &[], false);
    let shown: Vec<String> = run
        .rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["host"].as_str().unwrap(),
                r["user"].as_str().unwrap(),
                r["source_file"].as_str().unwrap().replace(&z, "Z"),
                r["text"].as_str().unwrap().replace(&z, "Z")
            )
        })
        .collect();
    let alice = history
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(shown.len(), alice + 6, "{shown:#?}");
    // the damaged member's line, as stored, before the row that says its CRC fails
    let bob: Vec<&String> = shown.iter().filter(|s| s.contains(" bob ")).collect();
    assert_eq!(
        bob,
        [
            "lin-ws01 bob Z/home/bob/.claude/history.jsonl parser: Z/home/bob/.claude/history.jsonl: cannot read (archive member not read whole: its CRC-32 0xbe017489 does not match its contents (0x540fca32))",
            "lin-ws01 bob Z/home/bob/.claude/history.jsonl cORRUPTED BY TRANSIT",
        ]
    );
    let problems: Vec<&String> = shown
        .iter()
        .filter(|s| !s.contains("Z/home/alice/.claude/history.jsonl") || s.contains("parser"))
        .collect();
    assert_eq!(
        problems,
        [
            "lin-ws01  Z parser: archive entry 2 not read: its name climbs out of the archive (`..`): \"../../etc/cron.d/evil\"",
            "lin-ws01 alice Z/home/alice/.claude/history.jsonl parser: unparseable line (EOF while parsing an object at line 1 column 39): {\"display\":\"half a line\",\"timestamp\":17",
            "lin-ws01 alice Z/home/alice/.claude/history.jsonl parser: archive entry 3 not read: its name \"home//alice/./.claude/history.jsonl\" names the same path as entry 0, which is read",
            "lin-ws01 bob Z/home/bob/.claude/history.jsonl parser: Z/home/bob/.claude/history.jsonl: cannot read (archive member not read whole: its CRC-32 0xbe017489 does not match its contents (0x540fca32))",
            "lin-ws01 carol Z/home/carol parser: archive entry 4 not read: a file of the archive whose name is also a folder's; the folder is read",
            "lin-ws01 carol Z/home/carol/.claude/history.jsonl parser: store file not read: a symbolic link member of the archive; discovery follows no link",
            "lin-ws01 bob Z/home/bob/.claude/history.jsonl cORRUPTED BY TRANSIT",
        ]
    );
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);

    // large members inflate in --temp-dir: never inside an evidence root
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let inside = home.join("spill");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .arg(&home)
        .arg(&zip)
        .arg("--temp-dir")
        .arg(&inside)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "ai-chat-forensics: error: --temp-dir {} is inside an evidence root; an archived root's members must inflate elsewhere\n",
            inside.display()
        )
    );
    assert!(!inside.exists());

    // a file named .zip that is none: one row, and the scan goes on
    let not = tmp.path().join("not.zip");
    std::fs::write(&not, b"PK\x03\x04 and then nothing").unwrap();
    let run = common::run(&not, &[], false);
    let texts: Vec<&str> = run
        .rows
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "parser: archive not read (not read as a zip archive: invalid Zip archive: Could not find EOCD)"
        ]
    );
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

/// A Velociraptor collection names its host in its own `client_info.json` (the
/// offline collector's zip and an extracted one alike): the rows take that host, and
/// the file is read through the evidence reader, so it has its manifest entry. Without
/// one, the collector's file name `Collection-<host>-<timestamp>` names it; a
/// `client_info.json` that names none is one row, and the folder names the host.
#[test]
fn a_velociraptor_collection_names_its_host() {
    let tmp = tempfile::tempdir().unwrap();
    let history =
        std::fs::read(fixture_tree().join("lin-ws01/home/alice/.claude/history.jsonl")).unwrap();
    let user_file = |user: &str| format!("uploads/auto/C%3A/Users/{user}/.claude/history.jsonl");
    let zip_of = |name: &str, members: &[(String, &[u8])]| {
        let path = tmp.path().join(name);
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        for (member, bytes) in members {
            w.start_file(member.as_str(), SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap();
        path
    };
    let named = zip_of(
        "Collection-ws7_corp_example-2026-12-01T10_00_00Z.zip",
        &[
            (
                "client_info.json".into(),
                br#"{"ClientId":"","Hostname":"WS7","Fqdn":"ws7.corp.example"}"#,
            ),
            ("collection_context.json".into(), b"{}"),
            (user_file("dave"), &history),
        ],
    );
    let unnamed = zip_of(
        "Collection-LAP-9-2026-12-01T10_05_00_5_10_00.zip",
        &[(user_file("erin"), &history)],
    );
    let folder = tmp.path().join("cases/HOST3");
    std::fs::create_dir_all(folder.join("uploads/auto/C%3A/Users/fay/.claude")).unwrap();
    std::fs::write(folder.join("client_info.json"), br#"{"Hostname":5}"#).unwrap();
    std::fs::write(folder.join(user_file("fay")), &history).unwrap();
    let manifest = tempfile::tempdir().unwrap();
    let manifest = manifest.path().join("m.json");
    let before = snapshot_tree(tmp.path()).unwrap();

    let run = common::run(
        &named,
        &[
            unnamed.to_str().unwrap(),
            tmp.path().join("cases").to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
        ],
        false,
    );
    let lines = history
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    let mut by_host: std::collections::BTreeMap<(String, String), usize> = Default::default();
    for r in &run.rows {
        *by_host
            .entry((
                r["host"].as_str().unwrap().to_string(),
                r["user"].as_str().unwrap().to_string(),
            ))
            .or_default() += 1;
    }
    // a row a line (the torn last line's a `parser:` row)
    let rows = lines;
    assert_eq!(
        by_host.into_iter().collect::<Vec<_>>(),
        [
            (("HOST3".to_string(), "".to_string()), 1),
            (("HOST3".to_string(), "fay".to_string()), rows),
            (("LAP-9".to_string(), "erin".to_string()), rows),
            (("WS7".to_string(), "dave".to_string()), rows),
        ]
    );
    let named_problem: Vec<&str> = run
        .rows
        .iter()
        .filter(|r| r["user"] == "")
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        named_problem,
        [
            "parser: the collection's client_info.json not read for its host (no JSON object with a Hostname or Fqdn); its folder names the host"
        ]
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let text = manifest.to_string();
    for read in [
        named.join("client_info.json"),
        folder.join("client_info.json"),
    ] {
        let shown = serde_json::to_string(&display_path(&read)).unwrap();
        assert!(text.contains(&shown), "{shown} in {text}");
    }
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
}

/// How many rows each (host, user) has.
type RowsPerHost = Vec<((String, String), usize)>;

/// Rows per (host, user) of a CLI run, and its standard error.
fn hosts_and_summary(roots: &[&Path]) -> (RowsPerHost, String) {
    hosts_and_summary_with(roots, &[])
}

/// [`hosts_and_summary`] with more arguments.
fn hosts_and_summary_with(roots: &[&Path], args: &[&str]) -> (RowsPerHost, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .args(roots)
        .args(args)
        .arg("--no-progress")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut by_host: std::collections::BTreeMap<(String, String), usize> = Default::default();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        *by_host
            .entry((
                r["host"].as_str().unwrap().to_string(),
                r["user"].as_str().unwrap().to_string(),
            ))
            .or_default() += 1;
    }
    (
        by_host.into_iter().collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The fixture's Claude Code prompt history, and its count of lines.
fn fixture_history() -> (Vec<u8>, usize) {
    let history =
        std::fs::read(fixture_tree().join("lin-ws01/home/alice/.claude/history.jsonl")).unwrap();
    let rows = history
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    (history, rows)
}

/// `root` scanned with `--open-archives all` gives rows of `hosts` and names no archive
/// not opened; with `none`, no row, and three archives not opened, `first` the first.
fn all_and_none(root: &Path, hosts: &[((String, String), usize)], first: &Path) {
    let (got, stderr) = hosts_and_summary_with(&[root], &["--open-archives", "all"]);
    assert_eq!(got, hosts);
    assert!(!stderr.contains("archives met"), "{stderr}");
    let (got, stderr) = hosts_and_summary_with(&[root], &["--open-archives", "none"]);
    assert_eq!(got, []);
    assert!(
        stderr.contains(&format!(
            "  archives met and not opened: 3 (--open-archives none: only an archive given as a root is read; give one as a root to read it), the first {}\n",
            display_path(first)
        )),
        "{stderr}"
    );
}

/// Collections arrive many to a folder, or a case archive of hosts' archives. The walk
/// opens an archive it meets when a collection tool named it (`Collection-...zip`,
/// `uac-...tar.gz`) or when it lies at the top of an archive opened before; any other archive
/// it meets is not read, and the summary names it.
#[test]
fn collections_in_a_folder_or_a_case_archive_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (history, rows) = fixture_history();
    let zip_bytes = |members: &[(&str, &[u8])]| {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, body) in members {
            w.start_file(*name, SimpleFileOptions::default()).unwrap();
            w.write_all(body).unwrap();
        }
        w.finish().unwrap().into_inner()
    };
    let ws7 = zip_bytes(&[
        ("client_info.json", br#"{"Hostname":"WS7"}"#),
        (
            "uploads/auto/C%3A/Users/dave/.claude/history.jsonl",
            &history,
        ),
    ]);
    let ws9 = zip_bytes(&[("C/Users/gil/.claude/history.jsonl", &history)]);
    let uac = {
        let tree = tmp.path().join("uac-tree");
        std::fs::create_dir_all(tree.join("[root]/home/alice/.claude")).unwrap();
        std::fs::write(
            tree.join("[root]/home/alice/.claude/history.jsonl"),
            &history,
        )
        .unwrap();
        let path = tmp.path().join("uac.tar.gz");
        tar_tree(&tree, &path);
        let zst = tmp.path().join("uac.tar.zst");
        tar_tree(&tree, &zst);
        std::fs::remove_dir_all(&tree).unwrap();
        (std::fs::read(&path).unwrap(), std::fs::read(&zst).unwrap())
    };
    let (uac, uac_zst) = uac;
    // a folder of collections as they arrived
    let cases = tmp.path().join("cases");
    std::fs::create_dir_all(cases.join("more")).unwrap();
    std::fs::write(cases.join("Collection-WS7-2026-12-01T10_00_00Z.zip"), &ws7).unwrap();
    // (compressed as a responder may recompress it: the walk knows every extension)
    std::fs::write(
        cases.join("more/uac-web01-linux-20261201120000.tar.zst"),
        &uac_zst,
    )
    .unwrap();
    std::fs::write(cases.join("WS9.zip"), &ws9).unwrap();
    let (hosts, stderr) = hosts_and_summary(&[&cases]);
    assert_eq!(
        hosts,
        [
            (("WS7".to_string(), "dave".to_string()), rows),
            (("web01".to_string(), "alice".to_string()), rows),
        ]
    );
    // `--list` names them too, after its count
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .arg(&cases)
        .arg("--list")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "2 file(s) claimed, 0 path(s) not read\narchives met and not opened: 1 (only an archive given as a root, named as UAC or Velociraptor name their output, at the top of an opened archive, or an EWF image (.E01) is read; --open-archives all opens every one; give one as a root to read it), the first {}\n",
            display_path(&cases.join("WS9.zip"))
        )
    );
    assert!(
        stderr.contains(&format!(
            "  archives met and not opened: 1 (only an archive given as a root, named as UAC or Velociraptor name their output, at the top of an opened archive, or an EWF image (.E01) is read; --open-archives all opens every one; give one as a root to read it), the first {}\n",
            display_path(&cases.join("WS9.zip"))
        )),
        "{stderr}"
    );
    // `--open-archives all` opens the renamed one too (CyLR names its zip by the host
    // alone); `none` opens none of them, and names all three
    let host = |h: &str, u: &str, n: usize| ((h.to_string(), u.to_string()), n);
    all_and_none(
        &cases,
        &[
            host("WS7", "dave", rows),
            host("WS9", "gil", rows),
            host("web01", "alice", rows),
        ],
        &cases.join("Collection-WS7-2026-12-01T10_00_00Z.zip"),
    );
    // a case archive: its top-level archives are hosts' whatever their names, and a
    // collector's archive deeper down is opened too (`Collection-LAP-9-...` holds WS7's
    // client_info.json, which names its host over the file name); an archive inside a
    // host's tree is not
    let case = tmp.path().join("case.zip");
    let inside = zip_bytes(&[
        ("C/Users/gil/.claude/history.jsonl", &history),
        ("C/Users/gil/Downloads/old.zip", &ws9),
    ]);
    std::fs::write(
        &case,
        zip_bytes(&[
            ("WS9.zip", &inside),
            ("hosts/Collection-LAP-9-2026-12-01T10_05_00Z.zip", &ws7),
            ("hosts/uac-web01-linux-20261201120000.tar.gz", &uac),
        ]),
    )
    .unwrap();
    let before = snapshot_tree(tmp.path()).unwrap();
    let (hosts, stderr) = hosts_and_summary(&[&case]);
    assert_eq!(
        hosts,
        [
            (("WS7".to_string(), "dave".to_string()), rows),
            (("WS9".to_string(), "gil".to_string()), rows),
            (("web01".to_string(), "alice".to_string()), rows),
        ]
    );
    assert!(
        stderr.contains(&format!(
            "  archives met and not opened: 1 (only an archive given as a root, named as UAC or Velociraptor name their output, at the top of an opened archive, or an EWF image (.E01) is read; --open-archives all opens every one; give one as a root to read it), the first {}\n",
            display_path(&case.join("WS9.zip/C/Users/gil/Downloads/old.zip"))
        )),
        "{stderr}"
    );
    // with `all`, the zip in gil's Downloads is opened as well: its files stand in
    // WS9's tree, under gil's home, so they are WS9's and gil's; the same prompts again
    // merge away as copies, and its torn last line is one more `parser:` row; with
    // `none`, only the root is read
    all_and_none(
        &case,
        &[
            host("WS7", "dave", rows),
            host("WS9", "gil", rows + 1),
            host("web01", "alice", rows),
        ],
        &case.join("WS9.zip"),
    );
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
}

/// A Velociraptor secured container, as Velociraptor's documentation describes it: the
/// collection is double-zipped, the outer `Collection-<host>-<timestamp>.zip` a
/// password-protected zip holding `data.zip` (the collection, encrypted) and
/// `metadata.json` (for the X.509 and PGP schemes, the password encrypted for a key).
/// `data.zip` lies at the top of an archive opened as a collection, so it is opened:
/// without the password it is one `parser:` row saying a password is required, under
/// the container's host; with it (the fixed-password scheme's, or the one
/// `velociraptor unzip --report_password` gives) the collection reads as an unsecured
/// one, its host its `client_info.json`'s. Two X.509 containers, a password each: one
/// password reads its own container, and both given read both.
#[test]
fn a_secured_velociraptor_container_reads_with_its_password() {
    let tmp = tempfile::tempdir().unwrap();
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let folder = tmp.path().join("cases");
    std::fs::create_dir_all(&folder).unwrap();
    // each X.509 container has its own random password
    let secured = |host: &str, fqdn: &str, password: &str| {
        let mut inner = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let info = format!(r#"{{"Hostname":"{fqdn}"}}"#);
        for (name, body) in [
            ("client_info.json", info.as_bytes()),
            (
                "uploads/auto/C%3A/Users/dave/.claude/history.jsonl",
                &b"{\"display\":\"x\",\"timestamp\":1790000000000}\n"[..],
            ),
        ] {
            inner.start_file(name, stored).unwrap();
            inner.write_all(body).unwrap();
        }
        let data = inner.finish().unwrap().into_inner();
        let container = folder.join(format!("Collection-{host}-2026-12-01T10_00_00Z.zip"));
        let mut w = zip::ZipWriter::new(std::fs::File::create(&container).unwrap());
        w.start_file(
            "data.zip",
            SimpleFileOptions::default().with_aes_encryption(zip::AesMode::Aes256, password),
        )
        .unwrap();
        w.write_all(&data).unwrap();
        w.start_file("metadata.json", stored).unwrap();
        w.write_all(br#"[{"Scheme":"X509","EncryptedPass":"SGVsbG8="}]"#)
            .unwrap();
        w.finish().unwrap();
        display_path(&container)
    };
    let (password, other) = (
        "c7889f8d2292f284c1f703b9fd367c86",
        "0d1e5b7a93c24f6e8a1b2c3d4e5f6a7b",
    );
    let c7 = secured("WS7", "ws7.corp.example", password);
    let c8 = secured("WS8", "ws8.corp.example", other);
    let before = snapshot_tree(tmp.path()).unwrap();

    let shown = |run: common::Run| -> Vec<String> {
        run.rows
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} @ {}",
                    r["host"].as_str().unwrap(),
                    r["user"].as_str().unwrap(),
                    r["text"].as_str().unwrap(),
                    r["source_file"]
                        .as_str()
                        .unwrap()
                        .replace(&c7, "C7")
                        .replace(&c8, "C8")
                )
            })
            .collect()
    };
    let not_read = |host: &str, why: &str, c: &str| {
        format!("{host}  parser: archive not read (archive member not read: {why}) @ {c}/data.zip")
    };
    let required = "unsupported Zip archive: Password required to decrypt file";
    assert_eq!(
        shown(common::run(&folder, &[], false)),
        [
            not_read("WS7", required, "C7"),
            not_read("WS8", required, "C8")
        ]
    );
    let read = |fqdn: &str, c: &str| {
        format!("{fqdn} dave x @ {c}/data.zip/uploads/auto/C%253A/Users/dave/.claude/history.jsonl")
    };
    assert_eq!(
        shown(common::run(
            &folder,
            &["--archive-password", password],
            false
        )),
        [
            read("ws7.corp.example", "C7"),
            not_read("WS8", "provided password is incorrect", "C8")
        ]
    );
    // one password each, tried in turn on each container
    assert_eq!(
        shown(common::run(
            &folder,
            &["--archive-password", other, "--archive-password", password],
            false
        )),
        [
            read("ws7.corp.example", "C7"),
            read("ws8.corp.example", "C8")
        ]
    );
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
}

/// A collection zipped with a password (AES-256 as 7-Zip writes it, ZipCrypto as `zip
/// -P` does) reads with `--archive-password` or its environment variable; without it
/// each encrypted file a store would read is one `parser:` row saying so, with a wrong
/// one another; the password reaches no output format, manifest, listing or summary.
#[test]
fn a_password_protected_collection_reads_with_its_password() {
    let tmp = tempfile::tempdir().unwrap();
    let (history, rows) = fixture_history();
    let secret = "inf3cted-7c41";
    let zip = tmp.path().join("WS5.zip");
    // the encryption headers are random, and a wrong password passes ZipCrypto's
    // one-byte check once in 256 (AES's two bytes, once in 65,536), when the member's
    // CRC-32 tells it instead (README): the zip is written again until the wrong
    // passwords below fail the check, so that the words asserted are always the same
    let rejected = |zip: &Path| {
        let mut a = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
        ["not it", "nor this"].iter().all(|wrong| {
            (0..a.len()).all(|i| {
                matches!(
                    a.by_index_decrypt(i, wrong.as_bytes()).map(|_| ()),
                    Err(zip::result::ZipError::InvalidPassword)
                )
            })
        })
    };
    loop {
        let mut w = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        let o = SimpleFileOptions::default();
        w.start_file(
            "C/Users/erin/.claude/history.jsonl",
            o.with_aes_encryption(zip::AesMode::Aes256, secret),
        )
        .unwrap();
        w.write_all(&history).unwrap();
        w.start_file(
            "C/Users/finn/.claude/history.jsonl",
            zip::unstable::write::FileOptionsExt::with_deprecated_encryption(o, secret.as_bytes())
                .unwrap(),
        )
        .unwrap();
        w.write_all(&history).unwrap();
        w.finish().unwrap();
        if rejected(&zip) {
            break;
        }
    }
    let before = snapshot_tree(tmp.path()).unwrap();
    let run = |args: &[&str], env: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"));
        c.arg(&zip).args(args).arg("--no-progress");
        c.env_remove("AI_CHAT_FORENSICS_ARCHIVE_PASSWORD");
        if let Some(p) = env {
            c.env("AI_CHAT_FORENSICS_ARCHIVE_PASSWORD", p);
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let texts = |jsonl: &str| -> Vec<String> {
        jsonl
            .lines()
            .map(|l| {
                let r: serde_json::Value = serde_json::from_str(l).unwrap();
                r["text"].as_str().unwrap().to_string()
            })
            .collect()
    };
    let not_read = |user: &str, why: &str| {
        let f = display_path(&zip.join(format!("C/Users/{user}/.claude/history.jsonl")));
        format!("parser: {f}: cannot read (archive member not read: {why})")
    };
    // no password: one row per encrypted file
    let (out, _) = run(&[], None);
    let required = "unsupported Zip archive: Password required to decrypt file";
    assert_eq!(
        texts(&out),
        [not_read("erin", required), not_read("finn", required)]
    );
    // a wrong one
    let (out, _) = run(&["--archive-password", "not it"], None);
    let wrong = "provided password is incorrect";
    assert_eq!(
        texts(&out),
        [not_read("erin", wrong), not_read("finn", wrong)]
    );
    // several, the right one among them: as the flag given twice, or one per line in
    // the environment; several wrong ones give the last one's words
    let (out, _) = run(
        &["--archive-password", "not it", "--archive-password", secret],
        None,
    );
    assert_eq!(texts(&out).len(), 2 * rows);
    let (out, _) = run(&[], Some(&format!("not it\n{secret}")));
    assert_eq!(texts(&out).len(), 2 * rows);
    // (a list written on Windows: each line's CR is no part of its password)
    let (out, _) = run(&[], Some(&format!("not it\r\n{secret}\r\n")));
    assert_eq!(texts(&out).len(), 2 * rows);
    let (out, _) = run(&[], Some("not it\nnor this"));
    assert_eq!(
        texts(&out),
        [not_read("erin", wrong), not_read("finn", wrong)]
    );
    // the right one, in the environment or as the flag: each user's rows, in every
    // format, and the password nowhere
    let manifest = tmp.path().join("out/custody.json");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    let m = manifest.to_str().unwrap();
    let (jsonl, stderr) = run(&["--manifest", m], Some(secret));
    assert_eq!(texts(&jsonl).len(), 2 * rows);
    let mut seen = vec![jsonl, stderr, std::fs::read_to_string(&manifest).unwrap()];
    // (a CSV header, and texts that hold line breaks; Timesketch holds no row without
    // a time: each history's torn last line)
    for (format, lines) in [("csv", 25), ("timesketch", 2 * (rows - 1))] {
        let (out, err) = run(&["--format", format, "--archive-password", secret], None);
        assert_eq!(out.lines().count(), lines, "{format}");
        seen.extend([out, err]);
    }
    let (list, err) = run(&["--list"], Some(secret));
    assert_eq!(list.lines().count(), 2);
    seen.extend([list, err]);
    for (i, s) in seen.iter().enumerate() {
        assert!(!s.contains(secret), "output {i} holds the password");
    }
    std::fs::remove_dir_all(tmp.path().join("out")).unwrap();
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
}

/// Compresses `file` as `<file>.<ext>` (`gz`, `bz2`, `xz`, `zst`), with its
/// modification time, and removes it, as `gzip` does.
fn compress_in_place(file: &Path, ext: &str) -> PathBuf {
    let bytes = std::fs::read(file).unwrap();
    let packed = match ext {
        "gz" => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(&bytes).unwrap();
            w.finish().unwrap()
        }
        "bz2" => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            w.write_all(&bytes).unwrap();
            w.finish().unwrap()
        }
        "xz" => {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6))
                    .unwrap();
            w.write_all(&bytes).unwrap();
            w.finish().unwrap()
        }
        _ => ruzstd::encoding::compress_to_vec(
            &bytes[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        ),
    };
    let mtime = std::fs::metadata(file).unwrap().modified().unwrap();
    let mut name = file.file_name().unwrap().to_os_string();
    name.push(format!(".{ext}"));
    let out = file.with_file_name(name);
    std::fs::write(&out, packed).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&out)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    std::fs::remove_file(file).unwrap();
    out
}

#[test]
fn store_files_compressed_one_by_one_read_as_the_files_they_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    let packed = tmp.path().join("packed");
    tree_in(&tree, None);
    common::copy_tree(&tree, &packed);
    for f in common::files_under(&tree) {
        let to = packed.join(f.strip_prefix(&tree).unwrap());
        let t = std::fs::metadata(&f).unwrap().modified().unwrap();
        std::fs::File::options()
            .write(true)
            .open(&to)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
    let from_tree = Scanner::new().root(&tree).hash_files(true).run().unwrap();
    assert_eq!(from_tree.rows.len(), 862);
    // every line store file a store claims, each with one of the four compressions
    let logs: Vec<PathBuf> = Scanner::new()
        .root(&packed)
        .discover()
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(logs.len(), 27);
    let mut shown = Vec::new();
    for (i, log) in logs.iter().enumerate() {
        let ext = ["gz", "bz2", "xz", "zst"][i % 4];
        let compressed = compress_in_place(log, ext);
        let name = log.file_name().unwrap();
        shown.push((
            display_path(&compressed.join(name)),
            display_path(&tree.join(log.strip_prefix(&packed).unwrap())),
        ));
    }
    let before = snapshot_tree(&packed).unwrap();
    let from_packed = Scanner::new().root(&packed).hash_files(true).run().unwrap();
    assert_eq!(snapshot_tree(&packed).unwrap(), before);
    // each row as the plain tree's, the compressed file's member named as the file
    let (t, p) = (display_path(&tree), display_path(&packed));
    let plain = |rows: &[ai_chat_forensics::Row], members: bool| -> Vec<String> {
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                if members {
                    if let Some((_, file)) = shown.iter().find(|(s, _)| *s == r.source_file) {
                        r.source_file = file.replace(&t, &p);
                    }
                }
                serde_json::to_string(&r).unwrap().replace(&t, &p)
            })
            .collect()
    };
    let (want, got) = (
        plain(&from_tree.rows, false),
        plain(&from_packed.rows, true),
    );
    common::same_rows(&want, &got, "compressed files");
    assert_eq!(got.len(), 862);
    // the rows of a compressed file name it: `.../<name>.<ext>/<name>`
    let named = from_packed
        .rows
        .iter()
        .filter(|r| shown.iter().any(|(s, _)| *s == r.source_file))
        .count();
    assert_eq!(named, 368);
    // the manifest: each compressed file as read, then the file it holds, whose bytes
    // are the plain file's
    let entries = |m: &[ai_chat_forensics::chat_rows::ManifestEntry]| -> std::collections::BTreeMap<String, (u64, String)> {
        m.iter()
            .map(|e| (e.path.clone(), (e.size, e.sha256.clone())))
            .collect()
    };
    let (tree_entries, packed_entries) =
        (entries(&from_tree.manifest), entries(&from_packed.manifest));
    assert_eq!((tree_entries.len(), packed_entries.len()), (129, 129 + 27));
    for (member, file) in &shown {
        let compressed = member.rsplit_once('/').unwrap().0;
        let packed_file = std::fs::read(compressed).unwrap();
        assert_eq!(
            packed_entries[compressed].0,
            packed_file.len() as u64,
            "{compressed}"
        );
        assert_eq!(packed_entries[member], tree_entries[file], "{member}");
    }
}

#[test]
fn a_compressed_store_file_in_a_zip_reads_as_the_file_it_holds() {
    // a KAPE-style zip whose history a responder gzipped before zipping the collection
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    let home = tree.join("C/Users/carol/.claude");
    std::fs::create_dir_all(&home).unwrap();
    let history = fixture_tree().join("WIN-DESK03/C/Users/carol/.claude/history.jsonl");
    std::fs::copy(&history, home.join("history.jsonl")).unwrap();
    let plain = Scanner::new().root(&tree).hash_files(true).run().unwrap();
    compress_in_place(&home.join("history.jsonl"), "gz");
    let zip = tmp.path().join("cases/WS5.zip");
    common::zip_tree(&tree, &zip, |_| false);
    let from_zip = Scanner::new().root(&zip).hash_files(true).run().unwrap();
    let member = format!(
        "{}/C/Users/carol/.claude/history.jsonl.gz/history.jsonl",
        display_path(&zip)
    );
    let (t, z) = (display_path(&tree), display_path(&zip));
    let want: Vec<String> = plain
        .rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.source_file = member.clone();
            r.host = "WS5".into();
            serde_json::to_string(&r).unwrap().replace(&t, &z)
        })
        .collect();
    assert_eq!(want.len(), 3);
    assert_eq!(rows_of(&from_zip.rows, "", ""), want);
    // the zip, its gzip member as read, and the file that holds
    let paths: Vec<String> = from_zip
        .report
        .manifest
        .iter()
        .map(|e| e.path.clone())
        .collect();
    assert_eq!(
        paths,
        [
            z.clone(),
            format!("{z}/C/Users/carol/.claude/history.jsonl.gz"),
            member.clone()
        ]
    );
    assert_eq!(
        from_zip.report.manifest[2].sha256,
        plain.report.manifest[0].sha256
    );
}

#[test]
fn a_compressed_store_file_claimed_by_its_neighbours_is_read() {
    // a Copilot CLI home of a name no rule knows (`$COPILOT_HOME=~/cfgdir`): its
    // `session-store.db` is claimed only because `session-state/<uuid>/` lies beside it
    let tmp = tempfile::tempdir().unwrap();
    let alice = fixture_tree().join("lin-ws01/home/alice");
    let home_in = |side: &str| {
        let home = tmp.path().join(side).join("WS1/home/alice/cfgdir");
        common::copy_tree(&alice.join("copilot-home"), &home);
        for name in ["session-store.db", "session-store.db-wal"] {
            std::fs::copy(alice.join(".copilot").join(name), home.join(name)).unwrap();
        }
        for f in common::files_under(&home) {
            std::fs::File::options()
                .write(true)
                .open(&f)
                .unwrap()
                .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_040_000))
                .unwrap();
        }
        home
    };
    home_in("plain");
    let packed = home_in("packed");
    let db = compress_in_place(&packed.join("session-store.db"), "zst");
    let from_plain = Scanner::new()
        .root(tmp.path().join("plain/WS1"))
        .run()
        .unwrap();
    let from_packed = Scanner::new()
        .root(tmp.path().join("packed/WS1"))
        .run()
        .unwrap();
    let member = display_path(&db.join("session-store.db"));
    let named = from_packed
        .rows
        .iter()
        .filter(|r| r.source_file == member)
        .count();
    assert_eq!(named, 21);
    let mapped: Vec<String> = from_packed
        .rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if r.source_file == member {
                r.source_file = display_path(&packed.join("session-store.db"));
            }
            serde_json::to_string(&r)
                .unwrap()
                .replace("/packed/", "/plain/")
        })
        .collect();
    assert_eq!(mapped, rows_of(&from_plain.rows, "", ""));
    // the file it holds replaces it among the files read
    assert!(from_packed.report.problems.is_empty());
}

#[test]
fn a_compressed_store_file_that_cannot_be_read_whole_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("ws1/home/dana/.claude");
    let project = home.join("projects/-home-dana-src");
    std::fs::create_dir_all(&project).unwrap();
    let source = fixture_tree().join("lin-ws01/home/alice/.claude");
    std::fs::copy(source.join("history.jsonl"), home.join("history.jsonl")).unwrap();
    // a copy of the history beside it, compressed
    std::fs::copy(source.join("history.jsonl"), home.join("old.jsonl")).unwrap();
    let copy = compress_in_place(&home.join("old.jsonl"), "gz");
    std::fs::rename(&copy, home.join("history.jsonl.gz")).unwrap();
    // a transcript whose gzip was cut in half, and one that is no xz stream
    let transcript =
        source.join("projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl");
    let cut = project.join("7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl");
    std::fs::copy(&transcript, &cut).unwrap();
    let cut = compress_in_place(&cut, "gz");
    let whole = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let bad = project.join("0badc0de-0000-4000-8000-000000000000.jsonl.xz");
    std::fs::write(&bad, b"\xfd7zXZ\0 and nothing").unwrap();
    // a compressed file no store would claim once decompressed
    std::fs::write(home.join("notes.txt.gz"), b"not read").unwrap();

    let report = Scanner::new().root(tmp.path()).run().unwrap();
    let problems: Vec<(String, String)> = report
        .problems
        .iter()
        .map(|(p, why)| (p.replace(&display_path(tmp.path()), ""), why.clone()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                "/ws1/home/dana/.claude/history.jsonl.gz".to_string(),
                format!(
                    "compressed store file not read (the file it holds would stand at {}, where a file stands: that one is read)",
                    display_path(&home.join("history.jsonl"))
                )
            ),
            (
                "/ws1/home/dana/.claude/projects/-home-dana-src/0badc0de-0000-4000-8000-000000000000.jsonl.xz".to_string(),
                "compressed store file not read (not decompressed as xz: xz: XZ stream header CRC32 mismatch)".to_string()
            ),
            (
                "/ws1/home/dana/.claude/projects/-home-dana-src/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl.gz".to_string(),
                "compressed store file read in part (decompressed as gzip only to byte 11194: incomplete deflate stream); the file it holds is read to there".to_string()
            ),
        ]
    );
    // the lines before the cut give their rows, the last one torn
    let member = display_path(&cut.join("7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl"));
    let rows: Vec<&ai_chat_forensics::Row> = report
        .rows
        .iter()
        .filter(|r| r.source_file == member)
        .collect();
    assert_eq!(rows.len(), 29);
    assert_eq!(
        rows.last()
            .map(|r| r.text.split(':').take(2).collect::<Vec<_>>().join(":")),
        Some("parser: unparseable line (torn last line".to_string())
    );
    // with no archive met opened, each is listed with them
    let quick = Scanner::new()
        .root(tmp.path())
        .open_archives(ai_chat_forensics::ArchivesMet::None)
        .run()
        .unwrap();
    assert_eq!(
        quick.archives_not_opened,
        [home.join("history.jsonl.gz"), bad.clone(), cut.clone()]
    );
    // given as a root, it is read whatever archives met are opened
    let root = Scanner::new()
        .root(&cut)
        .open_archives(ai_chat_forensics::ArchivesMet::None)
        .run()
        .unwrap();
    assert_eq!((root.rows.len(), root.archives_not_opened.len()), (30, 0));
}

/// The RAR fixtures, written by RARLAB's `rar` 7.01 (`fixtures/generators/rar_archives.sh`).
fn rar_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/archives/rar")
        .join(name)
}

/// 2026-11-30 12:00:00 UTC, the time the RAR fixtures' generator gives every file.
const RAR_FIXTURES_DATED: u64 = 1_796_040_000;

/// A RAR of the fixture tree as WinRAR's engine writes it, each file its own stream or
/// solid, reads as the tree: every row field for field, every member in the manifest
/// as its file, the RAR5 times (UTC) as the files', nothing written beside it.
#[test]
fn a_rar_collection_reads_as_the_tree_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    tree_in(&tree, Some(RAR_FIXTURES_DATED));
    let from_tree = Scanner::new().root(&tree).hash_files(true).run().unwrap();
    assert_eq!(from_tree.rows.len(), 862);
    for name in ["collection.rar", "solid/collection.rar"] {
        let rar = tmp.path().join(name);
        std::fs::create_dir_all(rar.parent().unwrap()).unwrap();
        std::fs::copy(rar_fixture(name), &rar).unwrap();
        reads_as_the_tree(&from_tree, &tree, &rar, name);
    }
}

/// The rows of a scan of `root` with `passwords` (none when empty): how many, and the
/// texts of its `parser:` rows.
fn rar_rows(root: &Path, passwords: &[&str]) -> (usize, Vec<String>) {
    let mut scanner = Scanner::new().root(root);
    if !passwords.is_empty() {
        scanner = scanner.archive_password(ai_chat_forensics::chat_rows::ArchivePassword::any_of(
            passwords,
        ));
    }
    let result = scanner.run().unwrap();
    let parser = result
        .rows
        .iter()
        .filter(|r| r.text.starts_with("parser:"))
        .map(|r| r.text.clone())
        .collect();
    (result.rows.len(), parser)
}

/// The names of the entries named each on a row of their own, not read for `why`,
/// sorted.
fn each_named(parser: &[String], why: &str) -> Vec<String> {
    let mut names: Vec<String> = parser
        .iter()
        .filter_map(|p| p.strip_prefix("parser: archive entry "))
        .filter_map(|p| p.split_once(&format!(" not read: {why}: ")))
        .map(|(_, name)| name.to_string())
        .collect();
    names.sort();
    names
}

/// The files under `.claude`, as an archive of the folder names them: quoted, sorted.
fn claude_names(claude: &Path) -> Vec<String> {
    let mut names: Vec<String> = common::files_under(claude)
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(claude)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            format!("\"home/alice/.claude/{rel}\"")
        })
        .collect();
    names.sort();
    names
}

/// What a RAR holds that cannot be read is named, one `parser:` row each, and the rest
/// is read: headers encrypted (`rar -hp`) without the password, a solid stream
/// encrypted (one row for it, then one for each entry), members encrypted with
/// two passwords of which one or none is given, files split across the volumes of a
/// multi-volume set, a member of a decompression bomb's shape (refused by its header,
/// before it is decoded; a 7z's too, as 7-Zip writes it), a member whose CRC does not
/// match (the others read), a solid stream damaged (the members before it read), a
/// multi-volume set damaged (the members each later volume holds whole read), and
/// an archive cut short (read as the tree of the files it holds whole).
#[test]
fn what_a_rar_holds_that_cannot_be_read_is_named() {
    let locked = rar_fixture("locked/lin-ws01.rar");
    assert_eq!(
        rar_rows(&locked, &[]),
        (
            1,
            vec!["parser: archive not read (not read as a RAR archive: its headers are encrypted, and no password was given)".to_string()]
        )
    );
    assert_eq!(
        rar_rows(&locked, &["not it"]),
        (
            1,
            vec!["parser: archive not read (not read as a RAR archive: its headers are encrypted, and none of the passwords given opens them)".to_string()]
        )
    );
    // the folder's 98 rows, the same as from the tree
    let alice = fixture_tree().join("lin-ws01/home/alice/.claude");
    let (from_tree, tree_parser) = rar_rows(&alice, &[]);
    assert_eq!(from_tree, 98);
    assert_eq!(
        rar_rows(&locked, &["not it", "hunter2"]),
        (98, tree_parser.clone())
    );

    // a solid stream encrypted: said once, each entry named, all of it read with the
    // password
    let solid = rar_fixture("locked/solid.rar");
    let (n, parser) = rar_rows(&solid, &[]);
    assert_eq!(n, 11);
    assert_eq!(
        parser[0],
        "parser: archive entries not read: the solid RAR is encrypted, and no password was given; 10 of its entries not read"
    );
    assert_eq!(
        each_named(&parser[1..], "encrypted, and no password was given"),
        claude_names(&alice)
    );
    assert_eq!(
        rar_rows(&solid, &["not it", "hunter2"]),
        (98, tree_parser.clone())
    );

    let mixed = rar_fixture("mixed/lin-ws01.rar");
    let history = "\"home/alice/.claude/history.jsonl\"";
    let transcript = "\"home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl\"";
    let (n, parser) = rar_rows(&mixed, &[]);
    assert_eq!(n, 32);
    assert_eq!(
        parser,
        vec![
            format!(
                "parser: archive entry 0 not read: encrypted, and no password was given: {history}"
            ),
            format!(
                "parser: archive entry 1 not read: encrypted, and no password was given: {transcript}"
            ),
        ]
    );
    // the history's torn last line is the tree's one `parser:` row
    assert_eq!(tree_parser.len(), 1);
    let (n, parser) = rar_rows(&mixed, &["alpha"]);
    assert_eq!(n, 39);
    assert_eq!(
        parser,
        vec![
            format!(
                "parser: archive entry 1 not read: encrypted, and none of the passwords given reads it: {transcript}"
            ),
            tree_parser[0].clone()
        ]
    );
    assert_eq!(
        rar_rows(&mixed, &["beta", "wrong", "alpha"]),
        (98, tree_parser.clone())
    );

    // a multi-volume set given by its first volume: read whole, the folder's rows, each
    // volume in the manifest; met in a walk, its later volumes are not read alone
    let part = |n: u32| rar_fixture(&format!("split/lin-ws01.part{n}.rar"));
    assert_eq!(rar_rows(&part(1), &[]), (98, tree_parser.clone()));
    let run = Scanner::new().root(part(1)).run().unwrap();
    let volumes: Vec<String> = run
        .report
        .manifest
        .iter()
        .map(|e| e.path.clone())
        .filter(|p| p.ends_with(".rar"))
        .collect();
    assert_eq!(
        volumes,
        (1..=4).map(|n| display_path(&part(n))).collect::<Vec<_>>()
    );
    let walked = Scanner::new()
        .root(rar_fixture("split"))
        .open_archives(ai_chat_forensics::ArchivesMet::All)
        .run()
        .unwrap();
    assert_eq!(walked.rows.len(), 98);
    // its later volumes are evidence given: no output goes to one
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("set");
    common::copy_tree(&rar_fixture("split"), &set);
    let before = snapshot_tree(&set).unwrap();
    let third = set.join("lin-ws01.part3.rar");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .arg(set.join("lin-ws01.part1.rar"))
        .args(["--no-progress", "-o"])
        .arg(&third)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!(
        "{} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
        third.display()
    )));
    assert_eq!(snapshot_tree(&set).unwrap(), before);
    // a set without its last volumes: what the first two hold, and the rest named
    let two = tmp.path().join("two");
    std::fs::create_dir_all(&two).unwrap();
    for n in [1, 2] {
        std::fs::copy(part(n), two.join(format!("lin-ws01.part{n}.rar"))).unwrap();
    }
    assert_eq!(
        rar_rows(&two.join("lin-ws01.part1.rar"), &[]),
        (
            4,
            vec![
                "parser: archive entries not read: the multi-volume RAR goes on past volume 2, and volume 3 is not there: the entries it and the volumes after it hold are not read".to_string(),
                format!("parser: archive entry 1 not read: it continues into volume 3 of the multi-volume RAR, which is not there: {transcript}"),
            ]
        )
    );
    // a later volume alone (its first not beside it): its whole members read (none
    // here: it holds a part of the transcript), what the others hold named
    let alone = tmp.path().join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::copy(part(2), alone.join("lin-ws01.part2.rar")).unwrap();
    assert_eq!(
        rar_rows(&alone.join("lin-ws01.part2.rar"), &[]),
        (
            2,
            vec![
                "parser: archive entries not read: the RAR is one volume of a multi-volume set, read alone: what its other volumes hold is not read".to_string(),
                format!("parser: archive entry 0 not read: it continues from another volume of a multi-volume RAR, not read with this one: {transcript}"),
            ]
        )
    );

    // a set damaged in its second volume (inside the transcript, which runs from the
    // first volume to the third): the entries the third and fourth volumes hold whole
    // are read from each alone, as the tree of the files the set still gives (field
    // for field); the transcript and the history split across the last two volumes
    // are named, each
    let damaged = tmp.path().join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    for n in 1..=4 {
        let mut bytes = std::fs::read(part(n)).unwrap();
        if n == 2 {
            bytes[5000] ^= 0xff;
        }
        std::fs::write(damaged.join(format!("lin-ws01.part{n}.rar")), bytes).unwrap();
    }
    let first = damaged.join("lin-ws01.part1.rar");
    let from_set = Scanner::new().root(&first).run().unwrap();
    let damage = [
        "parser: archive entries not read: the multi-volume RAR could not be decoded past entry 1, and the entries after it that run from one volume into the next cannot be read without it (those a volume holds whole were read from that volume alone); 1 of its entries not read".to_string(),
        format!("parser: archive entry 1 not read: while extracting: in volume 2: checksum mismatch: expected 0x35e6e8ee, got 0x1f3f5268: {transcript}"),
        "parser: archive entry 8 not read: it runs from one volume of the multi-volume RAR into the next, past entry 1, which could not be decoded: \"home/alice/.claude/history.jsonl\"".to_string(),
    ];
    let set_rows: Vec<String> = from_set
        .rows
        .iter()
        .filter(|r| !damage.contains(&r.text))
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    assert_eq!(rar_rows(&first, &[]), (33, damage.to_vec()));
    assert_eq!(set_rows.len(), 30);
    // (the host is the set's name, so the tree is under a folder of that name)
    let held = tmp.path().join("held").join("lin-ws01.part1");
    common::copy_tree(&alice, &held.join("home/alice/.claude"));
    for f in common::files_under(&held) {
        let name = f.to_string_lossy().replace('\\', "/");
        if name.ends_with("/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl")
            || name.ends_with("/.claude/history.jsonl")
        {
            std::fs::remove_file(&f).unwrap();
            continue;
        }
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(RAR_FIXTURES_DATED),
        )
        .unwrap();
    }
    assert_eq!(common::files_under(&held).len(), 8);
    let from_held = Scanner::new().root(&held).run().unwrap();
    common::same_rows(
        &rows_of(&from_held.rows, &display_path(&held), &display_path(&first)),
        &set_rows,
        "the damaged set",
    );

    // a decompression bomb's shape (100 MiB of zeros packed in 12 KB): refused by its
    // header's size, not decoded; of a solid stream, what follows it is named
    let zeros = "\"home/alice/.claude/projects/-home-alice-src-api/00000000-0000-4000-8000-000000000000.jsonl\"";
    let bomb = |len: u64| {
        format!(
            "it decompresses to 104857600 bytes or more, more than 1000 times the size of the archive that holds it ({len} bytes; past 67108864 bytes), a decompression bomb's shape"
        )
    };
    assert_eq!(
        rar_rows(&rar_fixture("bomb/lin-ws01.rar"), &[]),
        (
            99,
            vec![
                format!(
                    "parser: archive entry 1 not read: {}: {zeros}",
                    bomb(12_790)
                ),
                tree_parser[0].clone()
            ]
        )
    );
    // (of a solid stream, each entry after it is named too)
    let (n, parser) = rar_rows(&rar_fixture("bomb/solid.rar"), &[]);
    assert_eq!(n, 12);
    assert_eq!(
        parser[..2],
        [
            format!(
                "parser: archive entries not read: the RAR could not be decoded past entry 0 ({zeros}: {}); 11 of its entries not read",
                bomb(11_070)
            ),
            format!(
                "parser: archive entry 0 not read: {}: {zeros}",
                bomb(11_070)
            )
        ]
    );
    assert_eq!(
        each_named(
            &parser[2..],
            "it follows entry 0 in the RAR's stream, which could not be decoded"
        ),
        claude_names(&alice)
    );

    // the same shape as 7-Zip writes it (`fixtures/generators/seven_z_archives.sh`):
    // refused by its header's size, not decoded; of a solid block, what follows it (the
    // history before it read: its 8 rows)
    let seven_z = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/archives/7z")
            .join(name)
    };
    let (n, parser) = rar_rows(&seven_z("bomb/lin-ws01.7z"), &[]);
    assert_eq!(n, 94);
    assert_eq!(
        parser,
        vec![
            format!(
                "parser: archive entries not read: block 1 of the 7z could not be decoded past entry 12 ({}): {zeros}; 1 of its entries not read",
                bomb(21_848)
            ),
            format!(
                "parser: archive entry 12 not read: {} (block 1 of the 7z): {zeros}",
                bomb(21_848)
            ),
            tree_parser[0].clone()
        ]
    );
    let (n, parser) = rar_rows(&seven_z("bomb/solid.7z"), &[]);
    assert_eq!(n, 19);
    assert_eq!(
        [&parser[..2], &parser[parser.len() - 1..]].concat(),
        [
            format!(
                "parser: archive entries not read: block 0 of the 7z could not be decoded past entry 12 ({}): {zeros}; 10 of its entries not read",
                bomb(20_271)
            ),
            format!(
                "parser: archive entry 12 not read: {} (block 0 of the 7z): {zeros}",
                bomb(20_271)
            ),
            tree_parser[0].clone()
        ]
    );
    // the nine after it (the history, before it, read)
    assert_eq!(
        each_named(
            &parser[2..],
            "its block could not be decoded past entry 12 (block 0 of the 7z)"
        ),
        claude_names(&alice)
            .into_iter()
            .filter(|n| !n.ends_with("/history.jsonl\""))
            .collect::<Vec<_>>()
    );

    // damaged: a byte turned in the middle of each, and one cut short
    let tmp = tempfile::tempdir().unwrap();
    let turned = |name: &str| {
        let mut bytes = std::fs::read(rar_fixture(name)).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        let path = tmp.path().join(name.replace('/', "-"));
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let (n, parser) = rar_rows(&turned("collection.rar"), &[]);
    assert_eq!(n, 836);
    assert_eq!(parser.len(), 21);
    assert!(parser.contains(&"parser: archive entry 66 not read: while decoding: codec input is truncated: \"lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl\"".to_string()), "{parser:?}");
    let (n, parser) = rar_rows(&turned("solid/collection.rar"), &[]);
    // 441: the two usage detail rows, and a backup whose session's log is among the
    // entries not read, listed alone
    assert_eq!(n, 441);
    assert_eq!(
        parser
            .iter()
            .filter(|p| p.contains(
                " not read: it follows entry 85 in the RAR's stream, which could not be decoded: "
            ))
            .count(),
        52
    );
    assert!(parser.contains(&"parser: archive entries not read: the RAR could not be decoded past entry 85 (\"lin-ws01/home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl\": while decoding: codec input is truncated); 53 of its entries not read".to_string()), "{parser:?}");

    // cut short (a copy that stopped at 60,000 bytes), each file its own stream or
    // solid: the entries before the cut read as the tree of those files (field for
    // field), and the entry cut (its header whole) is named
    let state = "\"lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatEditingSessions/9ab/state.json\"";
    let cuts = [
        (
            "collection.rar",
            60_300,
            64,
            470,
            format!("inside entry 64 (its header at byte 59898): {state}"),
        ),
        (
            "solid/collection.rar",
            60_000,
            115,
            701,
            "inside entry 115 (its header at byte 59826): \"tabby-srv/var/lib/docker/volumes/tabby_data/_data/ee/db.sqlite\"".to_string(),
        ),
    ];
    for (name, at, files, rows, inside) in cuts {
        let cut = tmp.path().join("cut").join(name);
        std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
        std::fs::write(&cut, &std::fs::read(rar_fixture(name)).unwrap()[..at]).unwrap();
        let from_cut = Scanner::new().root(&cut).hash_files(true).run().unwrap();
        let c = display_path(&cut);
        // the tree of the files the cut archive holds whole, as the evidence reader
        // lists them
        let ev = Evidence::new().roots([&cut]);
        assert_eq!(
            ev.open_archive(&cut).unwrap(),
            [(
                cut.clone(),
                format!(
                    "archive entries not read: the RAR is cut short at byte {at}, {inside}; that entry and any after it are not in the file"
                )
            )]
        );
        let held: std::collections::HashSet<String> = members_of(&ev, &cut)
            .into_keys()
            .map(|p| p.replace('\\', "/"))
            .collect();
        assert_eq!(held.len(), files, "{name}: {held:?}");
        let tree = tmp.path().join("held").join(name);
        tree_in(&tree, Some(RAR_FIXTURES_DATED));
        for f in common::files_under(&tree) {
            let relative = f
                .strip_prefix(&tree)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if !held.contains(&relative) {
                std::fs::remove_file(&f).unwrap();
            }
        }
        let from_tree = Scanner::new().root(&tree).hash_files(true).run().unwrap();
        let t = display_path(&tree);
        let cut_row = format!(
            "parser: archive entries not read: the RAR is cut short at byte {at}, {inside}; that entry and any after it are not in the file"
        );
        let got: Vec<String> = from_cut
            .rows
            .iter()
            .filter(|r| r.text != cut_row)
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        assert_eq!(got.len() + 1, from_cut.rows.len(), "{name}: {cut_row}");
        assert_eq!(from_cut.rows.len(), rows, "{name}");
        common::same_rows(&rows_of(&from_tree.rows, &t, &c), &got, name);
        let (members, files_read) = common::members_and_files(
            &from_cut.report.manifest,
            &from_tree.report.manifest,
            &t,
            &c,
        );
        assert_eq!(members, files_read, "{name}");
    }

    // cut inside a header: named by where it starts
    let cut = tmp.path().join("cut-header.rar");
    std::fs::write(
        &cut,
        &std::fs::read(rar_fixture("collection.rar")).unwrap()[..59_910],
    )
    .unwrap();
    assert_eq!(
        rar_rows(&cut, &[]).1[0],
        "parser: archive entries not read: the RAR is cut short at byte 59910, inside a header at byte 59898; any entries from there on are not in the file"
    );
}

/// The `rars` crate's own test archives, where cargo unpacked the version this
/// workspace locks (`$CARGO_HOME/registry/src/*/rars-<version>/tests/fixtures/rar15_40`):
/// real RAR 1.5 to 4 sets, which no writer this project can run makes (rar 7 writes
/// RAR5 only). Read in place, never copied into the repository.
fn rars_fixtures() -> Option<PathBuf> {
    let lock =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).ok()?;
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"rars\"\n"))?
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))?
        .trim_end_matches('"')
        .to_string();
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .flatten()
        .map(|d| {
            d.path()
                .join(format!("rars-{version}/tests/fixtures/rar15_40"))
        })
        .find(|d| d.join("rar300/multivol_oldnaming_rar300.rar").is_file())
}

/// [`rars_fixtures`], or `None` after saying on standard error that `test` is skipped.
fn rars_fixtures_or_skip(test: &str) -> Option<PathBuf> {
    let found = rars_fixtures();
    if found.is_none() {
        eprintln!("SKIPPED {test}: the rars crate's test archives are not where cargo unpacks it");
    }
    found
}

/// RAR 1.3 to 4 multi-volume sets, as WinRAR 3.00, RAR 1.54 and RAR 1.402 wrote them,
/// in the older naming (`x.rar`, `x.r00`, `x.r01` ...) and the newer (`x.part01.rar` ...),
/// stored, compressed and encrypted, are read whole from their first volume, each
/// volume in the manifest; a set without its last volume, and a RAR that is no volume
/// with a file named as its next beside it, are named.
#[test]
fn old_rar_sets_are_read_whole() {
    let Some(fixtures) = rars_fixtures_or_skip("old_rar_sets_are_read_whole") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let bigtext = std::fs::read(fixtures.join("rar300/bigtext_64k.bin")).unwrap();
    assert_eq!(crc32fast::hash(&bigtext), 0xddc9_5682);
    // (first volume, later volumes, member, its length and CRC-32, password)
    type Set<'a> = (&'a str, &'a [&'a str], &'a str, usize, u32, Option<&'a str>);
    let sets: [Set; 9] = [
        (
            "rar300/multivol_oldnaming_rar300.rar",
            &["r00"],
            "bigtext_64k.bin",
            65_536,
            0xddc9_5682,
            None,
        ),
        (
            "rar300/stored_multivol_rar300.rar",
            &["r00", "r01", "r02"],
            "stored-volume.txt",
            3_360,
            0x4a83_2ebd,
            None,
        ),
        (
            "rar300/compressed_multivol_prng_rar300.rar",
            &["r00", "r01", "r02", "r03"],
            "cvolume.bin",
            4_096,
            0x96de_2bef,
            None,
        ),
        (
            "rar300/encrypted_multivol_rar300.rar",
            &["r00"],
            "bigtext_64k.bin",
            65_536,
            0xddc9_5682,
            Some("password"),
        ),
        (
            "rar300/multivol_newnaming_rar300.part01.rar",
            &["part02.rar"],
            "bigtext_64k.bin",
            65_536,
            0xddc9_5682,
            None,
        ),
        (
            "rar300/encrypted_newnaming_rar300.part01.rar",
            &["part02.rar"],
            "bigtext_64k.bin",
            65_536,
            0xddc9_5682,
            Some("password"),
        ),
        (
            "rar154/random.rar",
            &["r00", "r01"],
            "random.bin",
            2_097_152,
            0,
            None,
        ),
        // RAR 1.402's (the RAR 1.3 block layout), named in capitals
        (
            "../rar13/MULTIVOL.RAR",
            &["R00", "R01", "R02"],
            "RANDOM.BIN",
            65_536,
            0,
            None,
        ),
        (
            "../rar13/CMULTIV.RAR",
            &["R00", "R01", "R02", "R03", "R04", "R05", "R06"],
            "CMULTI.TXT",
            98_304,
            0,
            None,
        ),
    ];
    for (first, later, member, len, crc, password) in sets {
        let name = Path::new(first).file_name().unwrap().to_str().unwrap();
        let stem = name
            .strip_suffix(".part01.rar")
            .unwrap_or(&name[..name.len() - ".rar".len()]);
        let dir = tmp.path().join(stem);
        std::fs::create_dir_all(&dir).unwrap();
        let from = fixtures.join(first).parent().unwrap().to_path_buf();
        std::fs::copy(fixtures.join(first), dir.join(name)).unwrap();
        let mut volumes = vec![dir.join(name)];
        for ext in later {
            let volume = format!("{stem}.{ext}");
            std::fs::copy(from.join(&volume), dir.join(&volume)).unwrap();
            volumes.push(dir.join(volume));
        }
        let mut ev = Evidence::new().roots([&dir]);
        if let Some(p) = password {
            ev = ev.archive_password(ai_chat_forensics::chat_rows::ArchivePassword::any_of([p]));
        }
        let archive = dir.join(name);
        assert_eq!(ev.open_archive(&archive).unwrap(), Vec::new(), "{first}");
        let bytes = ev.read(&archive.join(member)).unwrap();
        assert_eq!(bytes.len(), len, "{first}");
        if member == "bigtext_64k.bin" {
            assert_eq!(bytes, bigtext, "{first}");
        }
        if member == "CMULTI.TXT" {
            let text = std::fs::read(fixtures.join("../rar13/CMULTI.TXT")).unwrap();
            assert_eq!(bytes, text, "{first}");
        }
        if crc != 0 {
            assert_eq!(crc32fast::hash(&bytes), crc, "{first}");
        }
        let manifest: Vec<String> = ev.manifest().into_iter().map(|e| e.path).collect();
        for v in &volumes {
            assert!(manifest.contains(&display_path(v)), "{first}: {manifest:?}");
        }
        // without its last volume: what is read is named, with the volume not there
        if later.len() > 1 {
            std::fs::remove_file(volumes.last().unwrap()).unwrap();
            let ev = Evidence::new().roots([&dir]);
            let n = volumes.len();
            assert_eq!(
                ev.open_archive(&archive).unwrap(),
                vec![
                    (
                        archive.clone(),
                        format!(
                            "archive entries not read: the multi-volume RAR goes on past volume {}, and volume {n} is not there: the entries it and the volumes after it hold are not read",
                            n - 1
                        )
                    ),
                    (
                        archive.clone(),
                        format!(
                            "archive entry 0 not read: it continues into volume {n} of the multi-volume RAR, which is not there: \"{member}\""
                        )
                    ),
                ],
                "{first}"
            );
        }
    }
    // a later volume without its first, given alone: its whole members read (none
    // here), what the others hold named
    let alone = tmp.path().join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    let r00 = alone.join("stored_multivol_rar300.r00");
    std::fs::copy(fixtures.join("rar300/stored_multivol_rar300.r00"), &r00).unwrap();
    assert_eq!(
        Evidence::new().roots([&alone]).open_archive(&r00).unwrap(),
        vec![
            (r00.clone(), "archive entries not read: the RAR is one volume of a multi-volume set, read alone: what its other volumes hold is not read".to_string()),
            (r00.clone(), "archive entry 0 not read: it continues from another volume of a multi-volume RAR, not read with this one: \"stored-volume.txt\"".to_string()),
        ]
    );
    // a RAR that is no volume, with a file named as its next volume beside it
    let lone = tmp.path().join("lone");
    std::fs::create_dir_all(&lone).unwrap();
    std::fs::copy(
        fixtures.join("rar300/compressed_text_rar300.rar"),
        lone.join("t.rar"),
    )
    .unwrap();
    std::fs::write(lone.join("t.r00"), b"not a volume").unwrap();
    let ev = Evidence::new().roots([&lone]);
    assert_eq!(
        ev.open_archive(&lone.join("t.rar")).unwrap(),
        vec![(lone.join("t.rar"), "the file beside it named as its next volume not read with it: the RAR is not a volume of a multi-volume set".to_string())]
    );
}

/// Every file an opened archive holds, by its path in it, with its bytes.
fn members_of(ev: &Evidence, archive: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut pending = vec![archive.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for (p, kind) in ev.list(&dir, false).unwrap().entries {
            match kind {
                EntryKind::Folder => pending.push(p),
                _ => {
                    let name = p
                        .strip_prefix(archive)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    out.insert(name, ev.read(&p).unwrap());
                }
            }
        }
    }
    out
}

/// Opens `cut`, a copy of the archive `whole` holds cut short at byte `at`, through
/// `ev`: it gives no problem (a cut at a block's end) or one naming the cut, and every
/// file read from it is the whole archive's, byte for byte. How many rows name the
/// entry the cut falls in (0 or 1), and how many files are read.
fn read_cut(
    ev: &Evidence,
    cut: &Path,
    at: usize,
    whole: &std::collections::BTreeMap<String, Vec<u8>>,
    name: &str,
) -> (usize, usize) {
    let problems = ev.open_archive(cut).unwrap();
    let prefix = format!("archive entries not read: the RAR is cut short at byte {at}, inside ");
    assert!(
        problems.is_empty() || problems.len() == 1 && problems[0].1.starts_with(&prefix),
        "{name} cut at {at}: {problems:?}"
    );
    let got = members_of(ev, cut);
    for (path, data) in &got {
        assert_eq!(Some(data), whole.get(path), "{name} cut at {at}: {path}");
    }
    let named = problems
        .iter()
        .filter(|p| p.1.contains("inside entry "))
        .count();
    (named, got.len())
}

/// A RAR 1.3 to 4 archive cut short (RAR 1.54's, 2.50's, WinRAR 3.00's solid, and
/// RAR 1.402's, from the `rars` crate's test files) is read as far as it is whole: cut anywhere past its
/// main header, it gives one row naming the cut (none when the cut falls between two
/// blocks) and every file before it, each the
/// whole archive's file byte for byte, more the later the cut.
#[test]
fn old_rars_cut_short_are_read_as_far_as_they_are_whole() {
    let Some(fixtures) =
        rars_fixtures_or_skip("old_rars_cut_short_are_read_as_far_as_they_are_whole")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for (name, files, stride) in [
        ("rar154/doc_154_best.rar", 17, 1_999),
        ("rar250/unpack20_keep_tables.rar", 2, 97),
        ("rar300/solid_rar300.rar", 3, 7),
        // RAR 1.3 (RAR 1.402's format, `RE~^`): no header CRC, no end block
        ("../rar13/SOLID.RAR", 3, 5),
        ("../rar13/MULTIFIL.RAR", 2, 1),
        ("../rar13/WITHDIR.RAR", 1, 1),
        ("../rar13/COMMENT.RAR", 1, 1),
    ] {
        let bytes = std::fs::read(fixtures.join(name)).unwrap();
        let whole_path = tmp.path().join("whole.rar");
        std::fs::write(&whole_path, &bytes).unwrap();
        let ev = Evidence::new().roots([tmp.path()]);
        assert_eq!(ev.open_archive(&whole_path).unwrap(), Vec::new(), "{name}");
        let whole = members_of(&ev, &whole_path);
        assert_eq!(whole.len(), files, "{name}");
        // from the end of the main header (its size at bytes 12 and 13 after the
        // marker; RAR 1.3's at bytes 4 and 5)
        let from = if bytes.starts_with(b"RE~^") {
            usize::from(u16::from_le_bytes([bytes[4], bytes[5]]))
        } else {
            7 + usize::from(u16::from_le_bytes([bytes[12], bytes[13]]))
        };
        let mut before = 0;
        let mut entries_named = 0;
        for at in (from..bytes.len()).step_by(stride) {
            let cut = tmp.path().join(format!("cut-{at}.rar"));
            std::fs::write(&cut, &bytes[..at]).unwrap();
            // (one cut at a block's start is an archive whole to there: RAR 1.5 and 2
            // wrote no end block to miss)
            let (named, got) = read_cut(&Evidence::new().roots([&cut]), &cut, at, &whole, name);
            entries_named += named;
            assert!(got >= before && got <= files, "{name} cut at {at}");
            before = got;
            std::fs::remove_file(&cut).unwrap();
        }
        // the last cut falls in the last file (or in the end block after it)
        assert!(before >= files - 1, "{name}");
        assert!(entries_named > 0, "{name}");
    }
    // the rows, pinned (the blocks as a walk of our own in Python finds them)
    for (name, at, files, inside) in [
        (
            "rar154/doc_154_best.rar",
            100_000,
            10,
            "inside entry 10 (its header at byte 92129): \"RAR1~FHU.MD\"; that entry and any after it are not in the file",
        ),
        (
            "rar250/unpack20_keep_tables.rar",
            25_140,
            1,
            "inside a header at byte 25134; any entries from there on are not in the file",
        ),
        (
            "rar300/solid_rar300.rar",
            5_000,
            2,
            "inside entry 2 (its header at byte 149): \"bigtext_64k.bin\"; that entry and any after it are not in the file",
        ),
        (
            "../rar13/SOLID.RAR",
            12_730,
            1,
            "inside entry 1 (its header at byte 12688): \"HELLO.TXT\"; that entry and any after it are not in the file",
        ),
        (
            "../rar13/SOLID.RAR",
            12_690,
            1,
            "inside a header at byte 12688; any entries from there on are not in the file",
        ),
        (
            "../rar13/WITHDIR.RAR",
            80,
            0,
            "inside entry 1 (its header at byte 34): \"SUBDIR\\\\INNER.TXT\"; that entry and any after it are not in the file",
        ),
    ] {
        let cut = tmp.path().join("cut.rar");
        std::fs::write(&cut, &std::fs::read(fixtures.join(name)).unwrap()[..at]).unwrap();
        let ev = Evidence::new().roots([&cut]);
        assert_eq!(
            ev.open_archive(&cut).unwrap(),
            vec![(
                cut.clone(),
                format!("archive entries not read: the RAR is cut short at byte {at}, {inside}")
            )],
            "{name}"
        );
        assert_eq!(members_of(&ev, &cut).len(), files, "{name}");
        std::fs::remove_file(&cut).unwrap();
    }
}

/// The entries under an archive (or folder) `archive`, by their paths below it, without
/// reading them (an encrypted member's content cannot be).
fn names_of(ev: &Evidence, archive: &Path) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut pending = vec![archive.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for (p, kind) in ev.list(&dir, false).unwrap().entries {
            if kind == EntryKind::Folder {
                pending.push(p.clone());
            }
            out.insert(
                p.strip_prefix(archive)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    out
}

/// A RAR 3 or 4 archive cut short inside a file whose name has a Unicode form names
/// that file by it, as the reader names it in the whole archive (`新建文本文档.txt`,
/// not its OEM form in GBK bytes): three real archives with Unicode names, from the
/// `rars` crate's test files (junrar's, SharpCompress's, and one WinRAR 4.20 wrote for
/// the crate), each cut at every stride inside its data.
#[test]
fn a_rar_cut_short_names_an_entry_by_its_unicode_name() {
    let Some(fixtures) =
        rars_fixtures_or_skip("a_rar_cut_short_names_an_entry_by_its_unicode_name")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for (name, stride, at, row) in [
        (
            "encrypted/rar4_junrar_file_content_encrypted_unicode.rar",
            1,
            104,
            "inside entry 0 (its header at byte 20): \"新建文本文档.txt\"",
        ),
        (
            "encrypted/rar4_mixed_visible_names_password.rar",
            1,
            141,
            "inside entry 1 (its header at byte 71): \"2中文.txt\"",
        ),
        (
            "encrypted/rar4_sharpcompress_files_only.rar",
            37,
            58_000,
            "inside entry 2 (its header at byte 57142): \"тест.txt\"",
        ),
    ] {
        let bytes = std::fs::read(fixtures.join(name)).unwrap();
        let whole_path = tmp.path().join("whole.rar");
        std::fs::write(&whole_path, &bytes).unwrap();
        let ev = Evidence::new().roots([tmp.path()]);
        // the names the reader gives: of the entries read, and of those named not read
        // (a file encrypted, no password given)
        let problems = ev.open_archive(&whole_path).unwrap();
        let mut names = names_of(&ev, &whole_path);
        for (_, why) in problems {
            let quoted = why.rsplit_once(": \"").unwrap().1;
            names.insert(quoted.strip_suffix('"').unwrap().to_string());
        }
        let mut named = std::collections::BTreeSet::new();
        for cut_at in (20..bytes.len()).step_by(stride) {
            let cut = tmp.path().join(format!("cut-{cut_at}.rar"));
            std::fs::write(&cut, &bytes[..cut_at]).unwrap();
            let ev = Evidence::new().roots([&cut]);
            for (_, why) in ev.open_archive(&cut).unwrap() {
                if let Some(entry) = why
                    .split_once("): \"")
                    .and_then(|(_, n)| n.split_once("\"; that entry"))
                {
                    assert!(
                        names.contains(entry.0),
                        "{name} cut at {cut_at}: {entry:?} is not among {names:?}"
                    );
                    named.insert(entry.0.to_string());
                }
            }
            std::fs::remove_file(&cut).unwrap();
        }
        assert!(named.iter().any(|n| !n.is_ascii()), "{name}: {named:?}");
        let cut = tmp.path().join("cut.rar");
        std::fs::write(&cut, &bytes[..at]).unwrap();
        let ev = Evidence::new().roots([&cut]);
        let cuts: Vec<_> = ev
            .open_archive(&cut)
            .unwrap()
            .into_iter()
            .filter(|(_, why)| why.contains(" is cut short "))
            .collect();
        assert_eq!(
            cuts,
            vec![(
                cut.clone(),
                format!(
                    "archive entries not read: the RAR is cut short at byte {at}, {row}; that entry and any after it are not in the file"
                )
            )],
            "{name}"
        );
    }
}

/// A RAR whose headers are encrypted (`rar -hp`), cut short, is read as far as it is
/// whole with the password (its headers decrypted and walked to the block the cut
/// falls in): one row naming the cut (none at a block's end), every file before it
/// the whole archive's byte for byte, more the later the cut. Without the password, or
/// with a wrong one, it is named not read, as before.
#[test]
fn a_rar_with_encrypted_headers_cut_short_is_read_as_far_as_it_is_whole() {
    use ai_chat_forensics::chat_rows::ArchivePassword;
    let bytes = std::fs::read(rar_fixture("locked/lin-ws01.rar")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let with = |path: &Path, passwords: &[&str]| {
        Evidence::new()
            .roots([path])
            .archive_password(ArchivePassword::any_of(passwords))
    };
    let whole_path = tmp.path().join("whole.rar");
    std::fs::write(&whole_path, &bytes).unwrap();
    let ev = with(&whole_path, &["not it", "hunter2"]);
    assert_eq!(ev.open_archive(&whole_path).unwrap(), Vec::new());
    let whole = members_of(&ev, &whole_path);
    assert_eq!(whole.len(), 10);
    let mut before = 0;
    let mut entries_named = 0;
    for at in (200..bytes.len()).step_by(131) {
        let cut = tmp.path().join(format!("cut-{at}.rar"));
        std::fs::write(&cut, &bytes[..at]).unwrap();
        let (named, got) = read_cut(&with(&cut, &["hunter2"]), &cut, at, &whole, "locked");
        entries_named += named;
        assert!(got >= before, "cut at {at}");
        before = got;
        std::fs::remove_file(&cut).unwrap();
    }
    assert!(before >= 9);
    assert_eq!(entries_named, 50);
    // one pinned, and the same cut without the password, and with a wrong one
    let cut = tmp.path().join("cut.rar");
    std::fs::write(&cut, &bytes[..7000]).unwrap();
    let ev = with(&cut, &["not it", "hunter2"]);
    assert_eq!(
        ev.open_archive(&cut).unwrap(),
        vec![(
            cut.clone(),
            "archive entries not read: the RAR is cut short at byte 7000, inside entry 7 (its header at byte 6862): \"home/alice/.claude/settings.json\"; that entry and any after it are not in the file".to_string()
        )]
    );
    assert_eq!(members_of(&ev, &cut).len(), 7);
    for (passwords, why) in [
        (&[][..], "no password was given"),
        (&["not it"][..], "none of the passwords given opens them"),
    ] {
        let ev = with(&cut, passwords);
        assert_eq!(
            ev.open_archive(&cut).unwrap_err().to_string(),
            format!("not read as a RAR archive: its headers are encrypted, and {why}")
        );
    }
}

/// RAR 3 and 4 archives whose headers are encrypted (`rar -hp`; WinRAR 3.00's, 4.20's
/// and junrar's, from the `rars` crate's test files, each one file), cut short, are read
/// as far as they are whole with the password: each cut gives one row (none at a
/// block's end), and the file, once its data is whole, is read as in the whole archive.
#[test]
fn old_rars_with_encrypted_headers_cut_short_are_read_as_far_as_they_are_whole() {
    use ai_chat_forensics::chat_rows::ArchivePassword;
    let Some(fixtures) = rars_fixtures_or_skip(
        "old_rars_with_encrypted_headers_cut_short_are_read_as_far_as_they_are_whole",
    ) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let with = |path: &Path, passwords: &[&str]| {
        Evidence::new()
            .roots([path])
            .archive_password(ArchivePassword::any_of(passwords))
    };
    let mut rows = Vec::new();
    for (name, password, file, crc) in [
        (
            "encrypted/header_rar300_password.rar",
            "password",
            "hello.txt",
            0xa538_535e,
        ),
        (
            "encrypted/header_rar420_password.rar",
            "password",
            "hello.txt",
            0xa538_535e,
        ),
        (
            "encrypted/rar4_junrar_header_encrypted.rar",
            "junrar",
            "file1.txt",
            0xe229_f704,
        ),
    ] {
        let bytes = std::fs::read(fixtures.join(name)).unwrap();
        let whole_path = tmp.path().join("whole.rar");
        std::fs::write(&whole_path, &bytes).unwrap();
        let ev = with(&whole_path, &["not it", password]);
        assert_eq!(ev.open_archive(&whole_path).unwrap(), Vec::new(), "{name}");
        let whole = members_of(&ev, &whole_path);
        assert_eq!(whole.keys().collect::<Vec<_>>(), [file], "{name}");
        assert_eq!(crc32fast::hash(&whole[file]), crc, "{name}");
        let mut read_from = None;
        let named_before = rows.len();
        for at in (20..bytes.len()).step_by(5) {
            let cut = tmp.path().join(format!("cut-{at}.rar"));
            std::fs::write(&cut, &bytes[..at]).unwrap();
            let ev = with(&cut, &["not it", password]);
            // a cut inside the first header: no header passed its CRC, so a wrong
            // password cannot be told from the right one (there is no password check
            // before RAR5): the archive is named not read, as it was before; it held
            // nothing whole
            let problems = match ev.open_archive(&cut) {
                Ok(problems) => problems,
                Err(e) => {
                    assert_eq!(
                        e.to_string(),
                        "not read as a RAR archive: its headers are encrypted, and none of the passwords given opens them"
                    );
                    assert!(rows.len() == named_before && at < 100, "{name} cut at {at}");
                    continue;
                }
            };
            let prefix =
                format!("archive entries not read: the RAR is cut short at byte {at}, inside ");
            assert!(
                problems.is_empty() || problems.len() == 1 && problems[0].1.starts_with(&prefix),
                "{name} cut at {at}: {problems:?}"
            );
            let got = members_of(&ev, &cut);
            rows.extend(problems.into_iter().map(|p| p.1));
            if got.is_empty() {
                assert!(read_from.is_none(), "{name} cut at {at}");
            } else {
                assert_eq!(got, whole, "{name} cut at {at}");
                read_from.get_or_insert(at);
            }
            std::fs::remove_file(&cut).unwrap();
        }
        // the file is read from a cut in the end block on
        assert!(
            read_from.is_some_and(|at| at + 32 >= bytes.len()),
            "{name}: {read_from:?}"
        );
    }
    // each cut's row without its byte: the file's data cut (its header whole, at byte
    // 20 after the clear main header), or the end block's header cut
    let mut kinds = std::collections::BTreeMap::new();
    for r in &rows {
        let (_, inside) = r.split_once(", inside ").unwrap();
        *kinds.entry(inside.split_once(';').unwrap().0).or_insert(0) += 1;
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            ("a header at byte 124", 5),
            ("a header at byte 140", 8),
            ("entry 0 (its header at byte 20): \"file1.txt\"", 6),
            ("entry 0 (its header at byte 20): \"hello.txt\"", 18),
        ]
    );
}
