//! A KAPE virtual disk (`.vhdx`, `.vhd`) reads as the tree its NTFS volume holds:
//! every row, problem and manifest entry but the image's own the same as from the
//! extracted tree (paths aside), nothing written beside the image; and an image that is
//! damaged, cut short or of a kind not read is named in a row, never passed over.
//!
//! The same holds of a forensic disk image: an EWF image (`.E01`, in one segment file
//! or several) and a raw one (`.dd`).
//!
//! The images are `fixtures/disks/WIN-DESK03.vhdx` (an MBR disk) and `.vhd` (a GPT
//! disk), written by `fixtures/generators/kape_disks.sh`, and `WIN-DESK03.E01`,
//! `ewf/WIN-DESK03.E01` ... `.E07` (uncompressed, in 1 MiB segments), the older SMART
//! and EnCase 1 layouts (`smart/`, `encase1/`), `compressed/WIN-DESK03.E01` (its
//! `Users` folder NTFS-compressed), `fragmented/WS-FRAG01.E01` (another host's volume
//! whose one history lies in 373 runs, spread over an attribute list) and
//! `WIN-DESK03.dd` (the raw disk: a
//! 6 MiB GPT system disk, an empty EFI partition and the host's C: drive), written by
//! `fixtures/generators/disk_images.sh` with ewfacquire, all from the `WIN-DESK03`
//! fixture host with every file dated 2026-11-30 12:00:00 UTC.

mod common;

use std::path::{Path, PathBuf};

use ai_chat_forensics::Scanner;
use ai_chat_forensics::chat_rows::evidence::EntryKind;
use ai_chat_forensics::chat_rows::{Evidence, RecordState, display_path, snapshot_tree};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The time every file of the images carries.
const IMAGED_AT: u64 = 1_796_040_000; // 2026-11-30T12:00:00Z

/// The WIN-DESK03 fixture host copied to `tree`, every file dated as in the images.
fn host_in(tree: &Path) {
    common::copy_tree(&repo().join("fixtures/evidence/WIN-DESK03"), tree);
    for f in common::files_under(tree) {
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(IMAGED_AT))
            .unwrap();
    }
}

/// The images of the host, each with its number of segment files and the folder of
/// the host's tree its volume holds: KAPE's images hold the collection (`C/Users/...`),
/// the disk images a system disk whose NTFS partition is the C: drive (`Users/...`),
/// beside an EFI partition that is not read.
const IMAGES: [(&str, usize, &str); 9] = [
    ("WIN-DESK03.vhdx", 1, ""),
    // a copy taken while mounted: its second block's allocation in its log only
    ("log/WIN-DESK03.vhdx", 1, ""),
    ("WIN-DESK03.vhd", 1, ""),
    ("WIN-DESK03.E01", 1, "C"),
    ("ewf/WIN-DESK03.E01", 7, "C"),
    ("smart/WIN-DESK03.E01", 1, "C"),
    ("encase1/WIN-DESK03.E01", 1, "C"),
    // its `Users` folder NTFS-compressed: every file over a record's room LZNT1-compressed
    ("compressed/WIN-DESK03.E01", 1, "C"),
    ("WIN-DESK03.dd", 1, "C"),
];

/// A file read by ranges from its start to its end, in pieces of 777 bytes (no
/// cluster's or run's size).
fn by_pieces(ranged: &ai_chat_forensics::chat_rows::RangedFile) -> Vec<u8> {
    let mut pieces = Vec::new();
    let mut buf = [0u8; 777];
    loop {
        let n = ranged.read_at(pieces.len() as u64, &mut buf).unwrap();
        if n == 0 {
            return pieces;
        }
        pieces.extend_from_slice(&buf[..n]);
    }
}

/// The row a disk image's EFI partition gives.
const EFI: &str = "partition 1 of the virtual disk not read: it holds no NTFS volume";

/// The files of a manifest read beside an image whose display path is `image` (the
/// image's own entry and its later parts, not its members): path and size.
fn files_read_beside(
    manifest: &[ai_chat_forensics::chat_rows::ManifestEntry],
    image: &str,
) -> Vec<(String, u64)> {
    manifest
        .iter()
        .filter(|e| !e.path.starts_with(&format!("{image}/")))
        .map(|e| (e.path.clone(), e.size))
        .collect()
}

fn rows_of(rows: &[ai_chat_forensics::Row], from: &str, to: &str) -> Vec<String> {
    rows.iter()
        .map(|r| serde_json::to_string(r).unwrap().replace(from, to))
        .collect()
}

#[test]
fn a_kape_virtual_disk_reads_as_the_tree_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("WIN-DESK03");
    host_in(&tree);
    let from_tree = Scanner::new().root(&tree).hash_files(true).run().unwrap();
    assert_eq!(from_tree.rows.len(), 134);
    let disks = repo().join("fixtures/disks");
    let before = snapshot_tree(&disks).unwrap();
    for (name, segments, inner) in IMAGES {
        let image = disks.join(name);
        let from_image = Scanner::new().root(&image).hash_files(true).run().unwrap();
        let within = match inner {
            "" => tree.clone(),
            inner => tree.join(inner),
        };
        let (t, i) = (display_path(&within), display_path(&image));
        let want = rows_of(&from_tree.rows, &t, &i);
        let mut got = rows_of(&from_image.rows, "", "");
        let mut problems = from_image.report.problems.clone();
        if !inner.is_empty() {
            // the EFI partition: a row and a problem, first
            let efi = got.remove(0);
            assert!(efi.contains(&format!("\"parser: {EFI}\"")), "{name}: {efi}");
            assert_eq!(problems.remove(0), (i.clone(), EFI.to_string()), "{name}");
        }
        common::same_rows(
            &want,
            &got,
            &format!(
                "{name} (regenerate the images with fixtures/generators/kape_disks.sh when the WIN-DESK03 fixture changes)"
            ),
        );
        assert_eq!(got.len(), 134, "{name}");
        assert_eq!(problems, from_tree.report.problems, "{name}");
        // the manifest: the image's own entry (and its later segment files'), then
        // each file as read from the tree
        // (the manifest is in the order of paths: `.E02` ... after the `.E01`'s files)
        let stem = i.trim_end_matches("01");
        let paths: Vec<String> = (0..segments)
            .map(|n| match n {
                0 => i.clone(),
                n => format!("{stem}{:02}", n + 1),
            })
            .collect();
        let (own, manifest): (Vec<_>, Vec<_>) = from_image
            .report
            .manifest
            .iter()
            .cloned()
            .partition(|e| paths.contains(&e.path));
        assert_eq!(own.len(), segments, "{name}");
        for (own, path) in own.iter().zip(&paths) {
            assert_eq!(&own.path, path, "{name}");
            assert_eq!(own.size, std::fs::metadata(path).unwrap().len());
            assert_eq!(own.sha256.len(), 64);
        }
        let manifest: Vec<_> = own[..1].iter().chain(&manifest).cloned().collect();
        let (members, files_read) =
            common::members_and_files(&manifest, &from_tree.report.manifest, &t, &i);
        assert_eq!(members, files_read, "{name}");
        assert_eq!(members.len(), 18, "{name}");
    }
    assert_eq!(snapshot_tree(&disks).unwrap(), before);
}

/// Every file of an image as the evidence reader lists and reads it: path under the
/// image, and its length or the error.
fn listing(ev: &Evidence, image: &Path) -> Vec<(String, Result<usize, String>)> {
    let mut out = Vec::new();
    let mut pending = vec![image.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(listing) = ev.list(&dir, false) else {
            continue;
        };
        for (p, kind) in listing.entries {
            if kind == EntryKind::Folder {
                pending.push(p);
                continue;
            }
            let read = ev.read(&p).map(|b| b.len()).map_err(|e| e.to_string());
            let name = p
                .strip_prefix(image)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((name, read));
        }
    }
    out.sort();
    out
}

#[test]
fn the_files_of_an_image_read_as_the_files_of_the_tree() {
    let host = repo().join("fixtures/evidence/WIN-DESK03");
    for (name, segments, inner) in IMAGES {
        let host = match inner {
            "" => host.clone(),
            inner => host.join(inner),
        };
        let path = repo().join("fixtures/disks").join(name);
        let image = PathBuf::from("/case").join(name);
        let files = (0..segments).map(|n| {
            let (at, of) = match n {
                0 => (image.clone(), path.clone()),
                n => (
                    image.with_extension(format!("E{:02}", n + 1)),
                    path.with_extension(format!("E{:02}", n + 1)),
                ),
            };
            (at, std::fs::read(of).unwrap(), None)
        });
        let ev = Evidence::in_memory(files);
        let problems = match inner {
            "" => Vec::new(),
            _ => vec![(image.clone(), EFI.to_string())],
        };
        assert_eq!(ev.open_archive(&image).unwrap(), problems, "{name}");
        let files = listing(&ev, &image);
        assert_eq!(files.len(), 19, "{name}");
        for (file, read) in files {
            let want = std::fs::read(host.join(&file)).unwrap();
            let got = ev.read(&image.join(&file)).unwrap();
            assert_eq!(read, Ok(want.len()), "{name}: {file}");
            assert!(got == want, "{name}: {file}");
            // by ranges (a file of one non-resident attribute through its runs in
            // place, a small resident one copied), in pieces of 777 bytes
            let ranged = ev.open_ranged(&image.join(&file)).unwrap();
            assert_eq!(ranged.len(), want.len() as u64, "{name}: {file}");
            assert!(by_pieces(&ranged) == want, "{name}: {file}");
            assert_eq!(
                ev.modified(&image.join(&file)).map(|t| t.unix_micros()),
                Some(IMAGED_AT as i64 * 1_000_000),
                "{name}: {file}"
            );
        }
    }
}

/// A file of an image is read by ranges where its runs lie, as a file on disk is: the
/// size cap that bounds whole reads does not apply (a database of tens of GB in an
/// image is read page by page), while a whole read of it still meets the cap.
#[test]
fn a_file_of_an_image_is_read_in_place_whatever_the_cap() {
    let name = "WIN-DESK03.vhdx";
    let path = repo().join("fixtures/disks").join(name);
    let image = PathBuf::from("/case").join(name);
    let db = image.join("C/Users/carol/AppData/Roaming/Cursor/User/globalStorage/state.vscdb");
    let ev =
        Evidence::in_memory([(image.clone(), std::fs::read(&path).unwrap(), None)]).max_size(4096);
    // the image itself is over the cap: it is opened by ranges too
    ev.open_archive(&image).unwrap();
    assert_eq!(
        ev.read(&db).unwrap_err().to_string(),
        "28672 bytes, over the 4096-byte cap of one evidence file"
    );
    let ranged = ev.open_ranged(&db).unwrap();
    let mut bytes = vec![0u8; 28672];
    assert_eq!(ranged.read_at(0, &mut bytes).unwrap(), 28672);
    let want = std::fs::read(
        repo().join("fixtures/evidence/WIN-DESK03/C/Users/carol/AppData/Roaming/Cursor/User/globalStorage/state.vscdb"),
    )
    .unwrap();
    assert!(bytes == want);
}

/// What a scan of `image` written with `bytes` gives: each row's text.
fn texts(tmp: &Path, name: &str, bytes: &[u8]) -> Vec<String> {
    let image = tmp.join(name);
    std::fs::write(&image, bytes).unwrap();
    let run = common::run(&image, &[], false);
    let i = display_path(&image);
    run.rows
        .iter()
        .map(|r| r["text"].as_str().unwrap().replace(&i, "I"))
        .collect()
}

#[test]
fn a_damaged_image_is_named_not_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let vhdx = std::fs::read(repo().join("fixtures/disks/WIN-DESK03.vhdx")).unwrap();
    let vhd = std::fs::read(repo().join("fixtures/disks/WIN-DESK03.vhd")).unwrap();

    // too short for a signature, or another
    assert_eq!(
        texts(tmp.path(), "a.vhdx", b"vhd"),
        [
            "parser: archive not read (not read as a virtual disk: the file type identifier of 8 bytes at byte 0 runs past the end of the image (3 bytes))"
        ]
    );
    let mut other = vhdx.clone();
    other[..8].copy_from_slice(b"VHDXFILE");
    assert_eq!(
        texts(tmp.path(), "b.vhdx", &other),
        [
            "parser: archive not read (not read as a virtual disk: not a VHDX image (no \"vhdxfile\" signature))"
        ]
    );
    // both headers fail their checksum
    let mut headers = vhdx.clone();
    headers[(64 << 10) + 100] ^= 1;
    headers[(128 << 10) + 100] ^= 1;
    assert_eq!(
        texts(tmp.path(), "c.vhdx", &headers),
        [
            "parser: archive not read (not read as a virtual disk: no valid VHDX header (both fail their checksum))"
        ]
    );
    // one does: the other is read
    let mut one = vhdx.clone();
    one[(64 << 10) + 100] ^= 1;
    assert_eq!(texts(tmp.path(), "d.vhdx", &one).len(), 134);
    // a differencing disk (the HasParent flag of the file parameters)
    let mut child = vhdx.clone();
    let params = file_parameters(&vhdx);
    child[params + 4] |= 2;
    assert_eq!(
        texts(tmp.path(), "e.vhdx", &child),
        [
            "parser: archive not read (not read as a virtual disk: a differencing VHDX: its blocks are read through a parent disk, another file, which is not read)"
        ]
    );
    // a dynamic VHD whose footer is gone reads by the footer's copy at its start;
    // without either it is none
    assert_eq!(
        texts(tmp.path(), "f.vhd", &vhd[..vhd.len() - 512]).len(),
        134
    );
    let mut neither = vhd[..vhd.len() - 512].to_vec();
    neither[..8].copy_from_slice(b"CONECTIX");
    assert_eq!(
        texts(tmp.path(), "f2.vhd", &neither),
        [
            "parser: archive not read (not read as a virtual disk: not a VHD image (no \"conectix\" footer))"
        ]
    );
    let mut diff = vhd.clone();
    let footer = vhd.len() - 512;
    diff[footer + 63] = 4;
    assert_eq!(
        texts(tmp.path(), "g.vhd", &diff),
        [
            "parser: archive not read (not read as a virtual disk: a differencing VHD: its blocks are read through a parent disk, another file, which is not read)"
        ]
    );

    // a fixed VHD of a 100-byte disk whose first sector names NTFS: the volume's boot
    // sector cannot be read whole (the NTFS reader panicked on this, as the archive
    // fuzz target found)
    let mut tiny = vec![0u8; 1024];
    tiny[..11].copy_from_slice(b"\xEB\x52\x90NTFS    ");
    tiny[512..520].copy_from_slice(b"conectix");
    tiny[512 + 48..512 + 56].copy_from_slice(&100u64.to_be_bytes());
    tiny[512 + 60..512 + 64].copy_from_slice(&2u32.to_be_bytes());
    assert_eq!(
        texts(tmp.path(), "tiny.vhd", &tiny),
        [
            "parser: archive not read (not read as a virtual disk: none of its NTFS volumes could be read (the volume of the virtual disk not read as NTFS: its boot sector cannot be read (failed to fill whole buffer)))"
        ]
    );

    // cut short after 12 MiB: the files whose bytes lie past the cut are each one
    // row that says so; the rest is read
    let rows = texts(tmp.path(), "h.vhdx", &vhdx[..12 << 20]);
    let failed: Vec<&String> = rows
        .iter()
        .filter(|t| t.contains("runs past the end of the image"))
        .collect();
    assert_eq!((rows.len(), failed.len()), (35, 8), "{rows:#?}");
    assert_eq!(
        failed[0],
        "parser: I/C/Users/carol/.claude/history.jsonl: cannot read (archive member not read whole: block 10 of the virtual disk at byte 15728640 runs past the end of the image (12582912 bytes))"
    );
    // cut inside the volume's first blocks: what was listed is named where it failed
    assert_eq!(
        texts(tmp.path(), "i.vhdx", &vhdx[..10 << 20]),
        [
            "parser: NTFS folder \"/\" listed in part: block 2 of the virtual disk at byte 10485760 runs past the end of the image (10485760 bytes)"
        ]
    );
}

/// Where the VHDX file parameters item is, from the metadata table.
fn file_parameters(vhdx: &[u8]) -> usize {
    let le32 = |at: usize| u32::from_le_bytes(vhdx[at..at + 4].try_into().unwrap()) as usize;
    let le64 = |at: usize| u64::from_le_bytes(vhdx[at..at + 8].try_into().unwrap()) as usize;
    let regions = 192 << 10;
    let meta_guid = [
        0x06, 0xA2, 0x7C, 0x8B, 0x90, 0x47, 0x9A, 0x4B, 0xB8, 0xFE, 0x57, 0x5F, 0x05, 0x0F, 0x88,
        0x6E,
    ];
    let meta = (0..le32(regions + 8))
        .map(|n| regions + 16 + n * 32)
        .find(|&e| vhdx[e..e + 16] == meta_guid)
        .map(|e| le64(e + 16))
        .unwrap();
    let params_guid = [
        0x37, 0x67, 0xA1, 0xCA, 0x36, 0xFA, 0x43, 0x4D, 0xB3, 0xB6, 0x33, 0xF0, 0xAA, 0x44, 0xE7,
        0x6B,
    ];
    let count = u16::from_le_bytes([vhdx[meta + 10], vhdx[meta + 11]]) as usize;
    (0..count)
        .map(|n| meta + 32 + n * 32)
        .find(|&e| vhdx[e..e + 16] == params_guid)
        .map(|e| meta + le32(e + 16))
        .unwrap()
}

/// Bytes changed in an image's structures never stop the reader: it opens or is an
/// error, and every file it lists reads or is an error, whatever was changed. The
/// changes fall on the bytes that are not zeros in the image's first 2 MiB: the
/// VHDX headers, region tables, metadata and block table, or the VHD's table, and the
/// partition table, NTFS boot sector, file records and indexes of the first blocks;
/// in an EWF image, anywhere (its compressed chunks, tables and section descriptors).
#[test]
fn an_image_changed_anywhere_opens_or_says_why() {
    for (name, kind) in [
        ("WIN-DESK03.vhdx", "a virtual disk"),
        ("WIN-DESK03.vhd", "a virtual disk"),
        ("WIN-DESK03.E01", "a disk image"),
    ] {
        let bytes = std::fs::read(repo().join("fixtures/disks").join(name)).unwrap();
        let live: Vec<usize> = (0..bytes.len().min(2 << 20))
            .filter(|&i| bytes[i] != 0)
            .collect();
        let image = PathBuf::from("/case").join(name);
        let (mut opened, mut refused) = (0, 0);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..60 {
            let mut changed = bytes.clone();
            for _ in 0..8 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let at = live[(x >> 33) as usize % live.len()];
                changed[at] ^= (x >> 8) as u8 | 1;
            }
            let ev = Evidence::in_memory([(image.clone(), changed, None)])
                .max_size(1 << 20)
                .hashing(false);
            match ev.open_archive(&image) {
                Ok(_) => {
                    opened += 1;
                    let files = listing(&ev, &image);
                    assert!(files.len() <= 64, "{name}: {} files", files.len());
                }
                Err(e) => {
                    refused += 1;
                    assert!(
                        e.to_string().starts_with(&format!("not read as {kind}: ")),
                        "{name}: {e}"
                    );
                }
            }
        }
        assert!(
            opened > 0 && refused > 0,
            "{name}: {opened} opened, {refused} refused"
        );
    }
}

/// The sections of an EWF segment file: type, where its descriptor is, its size.
fn sections(segment: &[u8]) -> Vec<(String, usize, usize)> {
    let le64 = |at: usize| u64::from_le_bytes(segment[at..at + 8].try_into().unwrap()) as usize;
    let mut out = Vec::new();
    let mut at = 13;
    loop {
        let kind = String::from_utf8_lossy(&segment[at..at + 16])
            .trim_end_matches('\0')
            .to_string();
        out.push((kind.clone(), at, le64(at + 24)));
        if kind == "next" || kind == "done" {
            return out;
        }
        at = le64(at + 16);
    }
}

/// The place of the first section of type `kind` in an EWF segment file.
fn section(segment: &[u8], kind: &str) -> usize {
    sections(segment)
        .into_iter()
        .find(|s| s.0 == kind)
        .map(|s| s.1)
        .unwrap()
}

/// How many chunks an EWF segment file's first table lists.
fn chunks_in(segment: &[u8]) -> usize {
    let table = section(segment, "table");
    u32::from_le_bytes(segment[table + 76..table + 80].try_into().unwrap()) as usize
}

/// Where chunk `i` of an EWF segment file's first table lies in the file.
fn chunk_place(segment: &[u8], i: usize) -> usize {
    let table = section(segment, "table");
    let le32 = |at: usize| u32::from_le_bytes(segment[at..at + 4].try_into().unwrap()) as usize;
    let base = u64::from_le_bytes(segment[table + 84..table + 92].try_into().unwrap()) as usize;
    base + (le32(table + 100 + 4 * i) & 0x7FFF_FFFF)
}

/// What a scan of the EWF image `files[0]`, written with its segment files in `dir`,
/// gives: each row's text, the folder's path shown as `D`.
fn texts_of_set(dir: &Path, files: &[(&str, &[u8])]) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let run = common::run(&dir.join(files[0].0), &[], false);
    let d = display_path(dir);
    run.rows
        .iter()
        .map(|r| r["text"].as_str().unwrap().replace(&d, "D"))
        .collect()
}

#[test]
fn a_damaged_disk_image_is_named_not_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let disks = repo().join("fixtures/disks");
    let e01 = std::fs::read(disks.join("WIN-DESK03.E01")).unwrap();
    let set: Vec<Vec<u8>> = (1..=7)
        .map(|n| std::fs::read(disks.join(format!("ewf/WIN-DESK03.E{n:02}"))).unwrap())
        .collect();
    let named = |n: usize| format!("WIN-DESK03.E{n:02}");

    // too short, or no signature
    assert_eq!(
        texts(tmp.path(), "a.E01", b"EVF"),
        [
            "parser: archive not read (not read as a disk image: the file header of 13 bytes at byte 0 runs past the end of its segment file (3 bytes))"
        ]
    );
    let mut other = e01.clone();
    other[..3].copy_from_slice(b"LVF");
    assert_eq!(
        texts(tmp.path(), "b.E01", &other),
        [
            "parser: archive not read (not read as a disk image: not an EWF image (no \"EVF\" signature))"
        ]
    );
    assert_eq!(
        texts(tmp.path(), "c.dd", &[0u8; 100]),
        [
            "parser: archive not read (not read as a disk image: a raw image of 100 bytes holds no disk sector)"
        ]
    );
    assert_eq!(
        texts(tmp.path(), "d.dd", &[0u8; 4096]),
        [
            "parser: archive not read (not read as a disk image: no NTFS volume on the virtual disk (neither at its start nor in a partition table))"
        ]
    );

    // a table that fails its checksum is read from its copy; both failing, the chunks
    // from there on are named, not read as zeros
    let table = section(&e01, "table");
    let mut one = e01.clone();
    one[table + 76] ^= 1;
    assert_eq!(texts(tmp.path(), "e.E01", &one).len(), 135);
    let mut both = one.clone();
    both[section(&e01, "table2") + 76] ^= 1;
    // a section descriptor that fails its checksum, or points back, ends its segment
    let mut descriptor = e01.clone();
    descriptor[table + 40] ^= 1;
    let mut back = e01.clone();
    let sectors = section(&e01, "sectors");
    back[sectors + 16..sectors + 24].copy_from_slice(&13u64.to_le_bytes());
    let sum = adler2::adler32_slice(&back[sectors..sectors + 72]);
    back[sectors + 72..sectors + 76].copy_from_slice(&sum.to_le_bytes());
    let none = "chunk 0 of the EWF image is in none of its tables (a segment file missing, cut short or damaged)";
    assert_eq!(
        texts(tmp.path(), "f.E01", &both),
        [format!(
            "parser: archive not read (not read as a disk image: {none} (and: EWF segment file f.E01: a chunk table and its copy (at byte {}) fail their checksums; the chunks from chunk 0 on are not read))",
            section(&e01, "table2")
        )]
    );
    assert_eq!(
        texts(tmp.path(), "g.E01", &descriptor),
        [format!(
            "parser: archive not read (not read as a disk image: {none} (and: EWF segment file g.E01 read in part: the section descriptor at byte {table} fails its checksum; the EWF image's tables list 0 of its 192 chunks; the others are not read))"
        )]
    );
    assert_eq!(
        texts(tmp.path(), "h.E01", &back),
        [format!(
            "parser: archive not read (not read as a disk image: {none} (and: EWF segment file h.E01 read in part: the section at byte {sectors} names the next at byte 13, not after it; the EWF image's tables list 0 of its 192 chunks; the others are not read))"
        )]
    );
    // a chunk changed where the history's bytes lie: each file there is one row
    let dd = std::fs::read(disks.join("WIN-DESK03.dd")).unwrap();
    let needle = b"List the services that are stopped among these";
    let chunk = dd.windows(needle.len()).position(|w| w == needle).unwrap() / 32768;
    let mut packed = e01.clone();
    packed[chunk_place(&e01, chunk) + 40] ^= 0x55;
    let rows = texts(tmp.path(), "i.E01", &packed);
    let failed: Vec<&String> = rows.iter().filter(|t| t.contains("not inflated")).collect();
    assert_eq!((rows.len(), failed.len()), (73, 5), "{rows:#?}");
    assert_eq!(
        failed[0],
        &format!(
            "parser: I/Users/carol/.claude/history.jsonl: cannot read (archive member not read whole: chunk {chunk} of the EWF image at byte {} not inflated: deflate decompression error: invalid bit length repeat)",
            chunk_place(&e01, chunk)
        )
    );

    // a stored chunk changed: it fails its Adler-32
    let mut stored = set.clone();
    let (mut segment, mut within) = (0, chunk);
    while within >= chunks_in(&stored[segment]) {
        within -= chunks_in(&stored[segment]);
        segment += 1;
    }
    let at = chunk_place(&stored[segment], within);
    stored[segment][at + 40] ^= 1;
    let files: Vec<(String, &[u8])> = stored
        .iter()
        .enumerate()
        .map(|(n, b)| (named(n + 1), b.as_slice()))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let rows = texts_of_set(&tmp.path().join("stored"), &files);
    let failed: Vec<&String> = rows.iter().filter(|t| t.contains("checksum")).collect();
    assert_eq!((rows.len(), failed.len()), (73, 5), "{rows:#?}");
    assert_eq!(
        failed[0],
        &format!(
            "parser: D/WIN-DESK03.E01/Users/carol/.claude/history.jsonl: cannot read (archive member not read whole: chunk {chunk} of the EWF image at byte {at} fails its checksum)"
        )
    );

    // a segment file missing: the chunks past the last one there are named
    let files: Vec<(String, &[u8])> = [1, 2, 3, 4, 6, 7]
        .iter()
        .map(|&n| (named(n), set[n - 1].as_slice()))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let rows = texts_of_set(&tmp.path().join("missing"), &files);
    let failed = rows
        .iter()
        .filter(|t| t.contains("in none of its tables"))
        .count();
    assert_eq!((rows.len(), failed), (35, 9), "{rows:#?}");
    assert_eq!(
        rows[1],
        "parser: the EWF image's segment files hold 124 of its 192 chunks: WIN-DESK03.E05 is missing or not read; the others are not read"
    );
    // a segment file in another's place
    let files: Vec<(String, &[u8])> = [1, 3, 3, 4, 5, 6, 7]
        .iter()
        .enumerate()
        .map(|(i, &n)| (named(i + 1), set[n - 1].as_slice()))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    assert_eq!(
        texts_of_set(&tmp.path().join("swapped"), &files),
        [
            "parser: archive not read (not read as a disk image: chunk 32 of the EWF image is in none of its tables (a segment file missing, cut short or damaged) (and: EWF segment file WIN-DESK03.E02 not read: it is not segment 2 of the image (its header says segment 3); the EWF image's segment files hold 31 of its 192 chunks: WIN-DESK03.E02 is missing or not read; the others are not read))"
        ]
    );
    // a segment file too short for its header: the segments before it still read
    let files: Vec<(String, &[u8])> = (1..=7)
        .map(|n| {
            (
                named(n),
                if n == 5 {
                    &set[4][..5]
                } else {
                    set[n - 1].as_slice()
                },
            )
        })
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let rows = texts_of_set(&tmp.path().join("short"), &files);
    let failed = rows
        .iter()
        .filter(|t| t.contains("in none of its tables"))
        .count();
    assert_eq!((rows.len(), failed), (36, 9), "{rows:#?}");
    assert_eq!(
        rows[..3],
        [
            "parser: EWF segment file WIN-DESK03.E05 not read: the file header of 13 bytes at byte 0 runs past the end of its segment file (5 bytes)",
            &format!("parser: {EFI}"),
            "parser: the EWF image's segment files hold 124 of its 192 chunks: WIN-DESK03.E05 is missing or not read; the others are not read"
        ]
    );
}

/// A case folder of images: the walk opens an EWF image it meets (a case's evidence,
/// never a user's own archive) with its segment files beside it, while a raw image,
/// whose extensions name many other files, is opened only when given as a root or
/// with `--open-archives all`, and is named among the archives not opened.
#[test]
fn a_case_folder_of_images_reads_its_ewf_images() {
    let tmp = tempfile::tempdir().unwrap();
    let case = tmp.path().join("case-7");
    let disks = repo().join("fixtures/disks");
    common::copy_tree(&disks.join("ewf"), &case);
    std::fs::copy(disks.join("WIN-DESK03.dd"), case.join("SPARE.dd")).unwrap();
    let run = Scanner::new().root(&case).run().unwrap();
    assert_eq!(run.rows.len(), 135);
    let image = display_path(&case.join("WIN-DESK03.E01"));
    // every row, the image's own `parser:` row (a partition not read) among them: it is
    // the host's whose files the image holds, as when the image is the root
    assert_eq!(
        run.rows
            .iter()
            .filter(|r| r.host == "WIN-DESK03" && r.source_file.starts_with(&image))
            .count(),
        135
    );
    assert_eq!(run.report.archives_not_opened, [case.join("SPARE.dd")]);
    let all = Scanner::new()
        .root(&case)
        .open_archives(ai_chat_forensics::ArchivesMet::All)
        .run()
        .unwrap();
    assert_eq!(all.rows.len(), 270);
    assert_eq!(all.report.archives_not_opened, Vec::<PathBuf>::new());
}

/// A raw image split in parts (`.001`, `.002`, ... as FTK Imager writes one) reads as
/// the whole image, each part in the manifest; a part missing cuts the disk short.
#[test]
fn a_split_raw_image_reads_as_its_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dd = repo().join("fixtures/disks/WIN-DESK03.dd");
    let whole = Scanner::new().root(&dd).hash_files(true).run().unwrap();
    let bytes = std::fs::read(&dd).unwrap();
    let split = tmp.path().join("split");
    std::fs::create_dir(&split).unwrap();
    for (n, part) in bytes.chunks(5 << 19).enumerate() {
        std::fs::write(split.join(format!("WIN-DESK03.{:03}", n + 1)), part).unwrap();
    }
    let first = split.join("WIN-DESK03.001");
    let run = Scanner::new().root(&first).hash_files(true).run().unwrap();
    let (w, f) = (display_path(&dd), display_path(&first));
    assert_eq!(rows_of(&run.rows, "", ""), rows_of(&whole.rows, &w, &f),);
    assert_eq!(run.rows.len(), 135);
    let parts = files_read_beside(&run.report.manifest, &f);
    let part = |n: u32| display_path(&split.join(format!("WIN-DESK03.{n:03}")));
    assert_eq!(
        parts,
        [
            (part(1), 5 << 19),
            (part(2), 5 << 19),
            (part(3), (6 << 20) - 2 * (5 << 19))
        ]
    );
    // the last part gone: the files whose bytes lay there are each one row
    std::fs::remove_file(split.join("WIN-DESK03.003")).unwrap();
    // the last part gone: its megabyte held no file, and the GPT's backup header says
    // the disk is longer than the image
    let run = common::run(&first, &[], false);
    let texts: Vec<&str> = run
        .rows
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 136);
    assert_eq!(
        texts[..2],
        [
            format!("parser: {EFI}").as_str(),
            "parser: the GPT's backup header is at byte 6290944, past the end of the virtual disk (5242880 bytes): the image is cut short or a part of it is missing"
        ]
    );
    // the middle part gone: the disk ends inside the NTFS partition
    std::fs::remove_file(split.join("WIN-DESK03.002")).unwrap();
    let run = common::run(&first, &[], false);
    let texts: Vec<&str> = run
        .rows
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    let cut = texts
        .iter()
        .filter(|t| t.contains("archive member not read whole: "))
        .count();
    assert_eq!((texts.len(), cut), (36, 9), "{texts:#?}");
    // each read, whole, by ranges or a chunk at a time, fails where the file's bytes end
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("of the volume runs past the volume's end"))
            .count(),
        9
    );
    assert_eq!(
        texts[..3],
        [
            format!("parser: {EFI}").as_str(),
            "parser: partition 2 of the virtual disk runs past its end: 3145728 bytes from byte 2097152, of which the image holds 524288",
            "parser: the GPT's backup header is at byte 6290944, past the end of the virtual disk (2621440 bytes): the image is cut short or a part of it is missing"
        ]
    );
}

/// An output path that is one of an image's later segment files is refused as an
/// output inside the image itself is: they are part of the evidence given.
#[test]
fn no_output_goes_to_an_images_segment_file() {
    let tmp = tempfile::tempdir().unwrap();
    let case = tmp.path().join("case");
    common::copy_tree(&repo().join("fixtures/disks/ewf"), &case);
    let before = snapshot_tree(&case).unwrap();
    for (flag, path) in [
        ("-o", case.join("WIN-DESK03.E02")),
        ("--manifest", case.join("WIN-DESK03.E07")),
        ("-o", case.join("./sub/../WIN-DESK03.E03")),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
            .arg(case.join("WIN-DESK03.E01"))
            .arg(flag)
            .arg(&path)
            .arg("--no-progress")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "{} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
                path.display()
            )),
            "{stderr}"
        );
    }
    assert_eq!(snapshot_tree(&case).unwrap(), before);
}

/// The deleted files of an image's NTFS volume: a file whose record is no longer in use
/// still names itself and its data runs, and stands at `<image>/$Deleted/<its path>`,
/// its path built from its folders' records (a live folder, or deleted folders up to
/// one); what a store reads from it gives the rows it gave before the deletion, with
/// the same host and user, as deleted evidence. The image is the system disk after the
/// user deleted Claude Code's history and the project folder of its transcripts.
#[test]
fn the_deleted_files_of_an_image_give_their_rows_as_deleted() {
    let disks = repo().join("fixtures/disks");
    let (before, after) = (
        disks.join("WIN-DESK03.E01"),
        disks.join("deleted/WIN-DESK03.E01"),
    );
    let live = Scanner::new().root(&before).run().unwrap();
    let deleted = Scanner::new().root(&after).run().unwrap();
    let (b, a) = (display_path(&before), display_path(&after));
    let gone = [
        "/Users/carol/.claude/history.jsonl",
        "/Users/carol/.claude/projects/C--Users-carol-src-app/",
    ];
    // the rows of the files deleted, from `$Deleted`, as deleted
    let mut want: Vec<String> = live
        .rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(g) = gone
                .iter()
                .find(|g| r.source_file.starts_with(&format!("{b}{g}")))
            {
                r.source_file = r.source_file.replacen(g, &format!("/$Deleted{g}"), 1);
                if r.record_state == ai_chat_forensics::chat_rows::RecordState::Live {
                    r.record_state = ai_chat_forensics::chat_rows::RecordState::Deleted;
                }
            }
            serde_json::to_string(&r).unwrap().replace(&b, &a)
        })
        .collect();
    let mut got: Vec<String> = deleted
        .rows
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got.len(), 135);
    common::same_rows(&want, &got, "the deleted files' rows");
    let from_deleted = deleted
        .rows
        .iter()
        .filter(|r| r.source_file.starts_with(&format!("{a}/$Deleted/")))
        .count();
    assert_eq!(from_deleted, 20);
    // the evidence reader says which files are deleted
    let ev = Evidence::new().roots([&after]);
    ev.open_archive(&after).unwrap();
    assert!(ev.is_deleted_file(&after.join("$Deleted/Users/carol/.claude/history.jsonl")));
    assert!(!ev.is_deleted_file(&after.join("Users/carol/.claude/settings.json")));
}

/// The history `fixtures/generators/disk_images.sh` writes into `fragmented/WS-FRAG01.E01`
/// a piece at a time, each piece followed by another file's clusters.
fn fragmented_history() -> Vec<u8> {
    (0..3000u64)
        .flat_map(|i| {
            format!(
                "{{\"display\":\"fragmented prompt {i:04}\",\"pastedContents\":{{}},\"timestamp\":{},\"project\":\"C:\\\\Users\\\\erin\\\\src\\\\app\"}}\n",
                1_796_040_000_000 + i * 1000
            )
            .into_bytes()
        })
        .collect()
}

/// A file whose data lies in more runs than its file record holds is spread over an
/// attribute list (a log appended to for months on a busy disk): it reads as its whole
/// bytes, whole, by ranges and by lines, and gives every row (the binary before gave one
/// row, `claude-code prompt history is empty (0 bytes); nothing to read`). So is a
/// folder's index (2,500 transcripts in one project folder).
#[test]
fn a_file_spread_over_an_attribute_list_reads_whole() {
    use sha2::Digest;
    let image = repo().join("fixtures/disks/fragmented/WS-FRAG01.E01");
    let history = image.join("Users/erin/.claude/history.jsonl");
    let want = fragmented_history();
    let ev = Evidence::new().roots([&image]);
    assert_eq!(ev.open_archive(&image).unwrap(), []);
    assert!(ev.read(&history).unwrap() == want);
    let ranged = ev.open_ranged(&history).unwrap();
    assert_eq!(ranged.len(), 363_000);
    assert!(by_pieces(&ranged) == want);

    let run = Scanner::new().root(&image).hash_files(true).run().unwrap();
    let shown = display_path(&history);
    let texts: Vec<(String, Option<u64>)> = run
        .rows
        .iter()
        .filter(|r| r.source_file == shown)
        .map(|r| (r.text.clone(), r.source_line))
        .collect();
    let expected: Vec<(String, Option<u64>)> = (0..3000u64)
        .map(|i| (format!("fragmented prompt {i:04}"), Some(i + 1)))
        .collect();
    assert_eq!(texts, expected);
    assert!(
        run.rows
            .iter()
            .all(|r| r.host == "WS-FRAG01" && r.user == "erin")
    );
    let entry = run
        .report
        .manifest
        .iter()
        .find(|e| e.path == display_path(&history))
        .unwrap();
    assert_eq!(
        (entry.size, entry.sha256.clone()),
        (363_000, hex::encode(sha2::Sha256::digest(&want)))
    );

    // the project folder's index is spread over an attribute list too: its 2,500
    // transcripts are listed (the binary before listed it in part and claimed none of
    // them), and each gives its row, among them the one whose file record straddles
    // two runs of the `$MFT` (512-byte clusters; the `ntfs` crate read it from where
    // its first byte lies, and before, this transcript was `parser: ... cannot read
    // (archive member not read: its file record cannot be read)`)
    let project = image.join("Users/erin/.claude/projects/C--src-app");
    let listed = ev.list(&project, false).unwrap().entries;
    let names: Vec<String> = listed
        .iter()
        .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let expected: Vec<String> = (0..2500)
        .map(|i| format!("{i:04}0000-0000-4000-8000-000000000000.jsonl"))
        .collect();
    assert_eq!(names, expected);
    let sessions: Vec<(&str, &str)> = run
        .rows
        .iter()
        .filter(|r| r.source_file.starts_with(&display_path(&project)))
        .map(|r| (r.session_id.as_str(), r.text.as_str()))
        .collect();
    let expected: Vec<(String, String)> = (0..2500)
        .map(|i| {
            (
                format!("{i:04}0000-0000-4000-8000-000000000000"),
                format!("session title: session {i:04} (from summary)"),
            )
        })
        .collect();
    let mut got: Vec<(String, String)> = sessions
        .iter()
        .map(|&(s, t)| (s.to_string(), t.to_string()))
        .collect();
    got.sort();
    assert_eq!(got.len(), expected.len());
    let wrong = got.iter().zip(&expected).find(|(g, e)| g != e);
    assert!(wrong.is_none(), "{wrong:?}");
    assert!(run.report.problems.is_empty(), "{:?}", run.report.problems);
    assert_eq!(run.rows.len(), 5500);
}

/// A `$MFT` in more runs than its own record holds is spread over an attribute list (a
/// large volume long in use): its `$DATA` goes on in another record, and the `ntfs`
/// crate, which finds a file record through the `$MFT`'s first part only, could not
/// read the files whose records lie past it. Shown the whole `$MFT`, every file of the
/// volume is listed and read: the 4,995 transcripts of the project folder give their
/// rows, and the five deleted ones, whose records lie past the first part, theirs as
/// deleted (the binary before gave one row for the image: `parser: NTFS folder
/// "/Users/frank/.claude/projects/C--src-svc" not listed: archive member not read: The
/// requested NTFS File Record Number 9003 is invalid`; and it looked for deleted files
/// in none of the records, taking the `$MFT`'s length from its second part, 0).
#[test]
fn a_mft_spread_over_an_attribute_list_gives_every_file() {
    let image = repo().join("fixtures/disks/mft-spread/WS-MFT01.E01");
    let project = image.join("Users/frank/.claude/projects/C--src-svc");
    let deleted = image.join("$Deleted/Users/frank/.claude/projects/C--src-svc");
    let ev = Evidence::new().roots([&image]);
    assert_eq!(ev.open_archive(&image).unwrap(), []);
    let names = |folder: &Path| -> Vec<String> {
        ev.list(folder, false)
            .unwrap()
            .entries
            .iter()
            .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    let id = |i: usize| format!("{i:04}0000-0000-4000-8000-000000000000");
    let live: Vec<String> = (0..4995).map(|i| format!("{}.jsonl", id(i))).collect();
    let gone: Vec<String> = (4995..5000).map(|i| format!("{}.jsonl", id(i))).collect();
    assert_eq!(names(&project), live);
    assert_eq!(names(&deleted), gone);
    assert_eq!(
        ev.read(&deleted.join(&gone[4])).unwrap(),
        b"{\"type\":\"summary\",\"summary\":\"session 4999\",\"leafUuid\":\"x\"}\n"
    );

    let run = Scanner::new().root(&image).run().unwrap();
    assert!(run.report.problems.is_empty(), "{:?}", run.report.problems);
    assert_eq!(run.rows.len(), 5000);
    let mut got: Vec<(String, String, String, RecordState)> = run
        .rows
        .iter()
        .map(|r| {
            assert_eq!((r.host.as_str(), r.user.as_str()), ("WS-MFT01", "frank"));
            (
                r.session_id.clone(),
                r.text.clone(),
                r.source_file.clone(),
                r.record_state,
            )
        })
        .collect();
    got.sort();
    let expected: Vec<(String, String, String, RecordState)> = (0..5000)
        .map(|i| {
            let (folder, state) = if i < 4995 {
                (&project, RecordState::Live)
            } else {
                (&deleted, RecordState::Deleted)
            };
            (
                id(i),
                format!("session title: session {i:04} (from summary)"),
                display_path(&folder.join(format!("{}.jsonl", id(i)))),
                state,
            )
        })
        .collect();
    let wrong = got.iter().zip(&expected).find(|(g, e)| g != e);
    assert!(wrong.is_none(), "{wrong:?}");
}

/// `bytes` compressed as `ext` says (`gz`, `xz`, `zst`).
fn compressed(bytes: &[u8], ext: &str) -> Vec<u8> {
    use std::io::Write;
    match ext {
        "gz" => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        }
        "xz" => {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1))
                    .unwrap();
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        }
        _ => ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest),
    }
}

#[test]
fn a_compressed_disk_image_reads_as_the_image_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let disks = repo().join("fixtures/disks");
    for (name, ext) in [
        ("WIN-DESK03.dd", "gz"),
        ("WIN-DESK03.vhdx", "xz"),
        ("WIN-DESK03.E01", "zst"),
    ] {
        let image = disks.join(name);
        let packed = tmp.path().join(format!("{name}.{ext}"));
        std::fs::write(&packed, compressed(&std::fs::read(&image).unwrap(), ext)).unwrap();
        let before = snapshot_tree(tmp.path()).unwrap();
        let from_image = Scanner::new().root(&image).hash_files(true).run().unwrap();
        let from_packed = Scanner::new().root(&packed).hash_files(true).run().unwrap();
        assert_eq!(snapshot_tree(tmp.path()).unwrap(), before, "{name}");
        // the image's rows and files, below the compressed file's path
        let (i, p) = (display_path(&image), display_path(&packed));
        assert_eq!(
            rows_of(&from_image.rows, &i, &p),
            rows_of(&from_packed.rows, "", ""),
            "{name}"
        );
        assert!(from_packed.rows.len() >= 134, "{name}");
        let entries = |m: &[ai_chat_forensics::chat_rows::ManifestEntry], from: &str| {
            m.iter()
                .map(|e| (e.path.replace(from, &p), e.size, e.sha256.clone()))
                .collect::<Vec<_>>()
        };
        let (mut want, got) = (
            entries(&from_image.report.manifest, &i),
            entries(&from_packed.report.manifest, &p),
        );
        // the compressed file's own entry stands for the image's
        want[0] = got[0].clone();
        assert_eq!(
            (got[0].0.clone(), got[0].1),
            (p.clone(), std::fs::metadata(&packed).unwrap().len()),
            "{name}"
        );
        assert_eq!(want, got, "{name}");
    }
    // a stream cut short, and a cap under the image's size: the image is named, not read
    let dd = std::fs::read(disks.join("WIN-DESK03.dd")).unwrap();
    let whole = compressed(&dd, "gz");
    let cut = tmp.path().join("cut/WIN-DESK03.dd.gz");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let texts = |report: &ai_chat_forensics::ScanResult| -> Vec<String> {
        report.rows.iter().map(|r| r.text.clone()).collect()
    };
    let part = Scanner::new().root(&cut).run().unwrap();
    let parser: Vec<String> = texts(&part)
        .into_iter()
        .filter(|t| t.starts_with("parser:"))
        .collect();
    // the image is read as a cut one: what the stream held, then what lies past it named
    assert_eq!(
        parser[..4],
        [
            "parser: archive read in part: gzip: inflated only to byte 2863941 (incomplete deflate stream); what lies past it is not read",
            "parser: partition 1 of the virtual disk not read: it holds no NTFS volume",
            "parser: partition 2 of the virtual disk runs past its end: 3145728 bytes from byte 2097152, of which the image holds 766789",
            "parser: the GPT's backup header is at byte 6290944, past the end of the virtual disk (2863941 bytes): the image is cut short or a part of it is missing",
        ]
    );
    assert_eq!((parser.len(), part.rows.len()), (16, 37));
    let packed = tmp.path().join("WIN-DESK03.dd.gz");
    assert_eq!(
        texts(
            &Scanner::new()
                .root(&packed)
                .max_file_size(1 << 20)
                .run()
                .unwrap()
        ),
        [format!(
            "parser: archive not read (gzip: not read: it inflates to more than the 1048576-byte cap of one evidence file ({} bytes and more))",
            (1 << 20) + 1
        )]
    );
    // met in a walk, it is the archive it holds met: an EWF image is opened, the
    // others listed
    let met = Scanner::new().root(tmp.path()).run().unwrap();
    assert_eq!(met.rows.len(), 135);
    assert!(met.rows.iter().all(|r| {
        r.source_file
            .starts_with(&display_path(&tmp.path().join("WIN-DESK03.E01.zst")))
    }));
    assert_eq!(
        met.archives_not_opened,
        [
            tmp.path().join("WIN-DESK03.dd.gz"),
            tmp.path().join("WIN-DESK03.vhdx.xz"),
            cut.clone(),
        ]
    );
}

/// A split image whose parts were each compressed on their own (`gzip disk.0*`, `zstd
/// disk.E0*`) reads as the whole image: each part decompressed, in the manifest as
/// read; a part cut short ends the image there, and the parts after it are named.
#[test]
fn a_split_image_compressed_part_by_part_reads_as_its_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let disks = repo().join("fixtures/disks");
    let dd = disks.join("WIN-DESK03.dd");
    let whole = Scanner::new().root(&dd).run().unwrap();
    let bytes = std::fs::read(&dd).unwrap();
    let split = tmp.path().join("split");
    std::fs::create_dir(&split).unwrap();
    let part = |n: usize| split.join(format!("WIN-DESK03.{n:03}.gz"));
    let mut packed = Vec::new();
    for (n, chunk) in bytes.chunks(5 << 19).enumerate() {
        packed.push(compressed(chunk, "gz"));
        std::fs::write(part(n + 1), &packed[n]).unwrap();
    }
    let first = part(1);
    let before = snapshot_tree(tmp.path()).unwrap();
    let run = Scanner::new().root(&first).hash_files(true).run().unwrap();
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
    let (w, f) = (display_path(&dd), display_path(&first));
    assert_eq!(rows_of(&run.rows, "", ""), rows_of(&whole.rows, &w, &f));
    assert_eq!(run.rows.len(), 135);
    let parts = files_read_beside(&run.report.manifest, &f);
    let want: Vec<(String, u64)> = (1..=3)
        .map(|n| (display_path(&part(n)), packed[n - 1].len() as u64))
        .collect();
    assert_eq!(parts, want);
    // a later part is part of the evidence given: no output goes there
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
        .arg(&first)
        .arg("-o")
        .arg(part(3))
        .arg("--no-progress")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains(&format!(
        "{} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
        part(3).display()
    )));
    assert_eq!(snapshot_tree(tmp.path()).unwrap(), before);
    // an EWF image's segment files, each compressed with zstd
    let ewf = disks.join("ewf");
    let plain = ewf.join("WIN-DESK03.E01");
    let from_plain = Scanner::new().root(&plain).run().unwrap();
    let zst = tmp.path().join("ewf");
    std::fs::create_dir(&zst).unwrap();
    for n in 1..=7 {
        let name = format!("WIN-DESK03.E{n:02}");
        let b = std::fs::read(ewf.join(&name)).unwrap();
        std::fs::write(zst.join(format!("{name}.zst")), compressed(&b, "zst")).unwrap();
    }
    let z1 = zst.join("WIN-DESK03.E01.zst");
    let from_zst = Scanner::new().root(&z1).run().unwrap();
    assert_eq!(
        rows_of(&from_zst.rows, "", ""),
        rows_of(&from_plain.rows, &display_path(&plain), &display_path(&z1))
    );
    // met in a walk, the first segment is opened as an `.E01` is, with its parts, and
    // the later parts are no archives of their own
    let walked = Scanner::new().root(&zst).run().unwrap();
    let (w, z) = (
        rows_of(&walked.rows, "", ""),
        rows_of(&from_zst.rows, "", ""),
    );
    let differ = w.iter().zip(&z).find(|(a, b)| a != b);
    assert_eq!((w.len(), differ), (z.len(), None));
    assert!(walked.archives_not_opened.is_empty());
    // the parts decompressed are one image under the cap: the third passes it
    let capped = Scanner::new()
        .root(&first)
        .max_file_size(5 << 20)
        .run()
        .unwrap();
    let over: Vec<(String, String)> = capped
        .rows
        .iter()
        .filter(|r| r.text.contains("cap"))
        .map(|r| (r.source_file.clone(), r.text.clone()))
        .collect();
    assert_eq!(
        over,
        [(
            display_path(&part(3)),
            "parser: segment file not read (gzip: the image's parts decompress to more than the 5242880-byte cap of one evidence file)".to_string()
        )]
    );
    // the middle part cut short: the image ends where it ends, the last part named
    std::fs::write(part(2), &packed[1][..packed[1].len() / 2]).unwrap();
    let run = Scanner::new().root(&first).run().unwrap();
    let texts: Vec<String> = run.rows.iter().map(|r| r.text.clone()).collect();
    let named: Vec<(String, String)> = run
        .rows
        .iter()
        .filter(|r| r.text.contains("cut short") || r.text.contains("inflated only"))
        .map(|r| (r.source_file.clone(), r.text.clone()))
        .collect();
    let (f3, n) = (display_path(&part(3)), texts.len());
    assert_eq!(
        named,
        [
            (f.clone(), "parser: archive read in part: WIN-DESK03.002.gz: gzip: inflated only to byte 255106 (incomplete deflate stream); what lies past it is not read".to_string()),
            (f.clone(), "parser: the GPT's backup header is at byte 6290944, past the end of the virtual disk (2876546 bytes): the image is cut short or a part of it is missing".to_string()),
            (f3, "parser: segment file not read (a part before it is cut short, so where its bytes stand in the image is not known)".to_string()),
        ]
    );
    assert_eq!(n, 38, "{texts:#?}");
    // the first part cut short: nothing of the image is read, and all of it is said
    std::fs::write(part(1), &packed[0][..packed[0].len() / 2]).unwrap();
    let run = Scanner::new().root(&first).run().unwrap();
    let texts: Vec<String> = run.rows.iter().map(|r| r.text.clone()).collect();
    assert_eq!(
        texts,
        [
            "parser: archive not read (not read as a disk image: no NTFS volume in the virtual disk's partitions (and: the GPT's backup header is at byte 6290944, past the end of the virtual disk (1936974 bytes): the image is cut short or a part of it is missing; partition 1 of the virtual disk runs past its end: 1048576 bytes from byte 1048576, of which the image holds 888398; partition 1 of the virtual disk not read: it holds no NTFS volume; partition 2 of the virtual disk not read: it starts at byte 2097152, past the disk's end (1936974 bytes)); gzip: inflated only to byte 1936974 (incomplete deflate stream); what lies past it is not read; WIN-DESK03.002.gz: segment file not read (a part before it is cut short, so where its bytes stand in the image is not known))"
        ]
    );
}

#[test]
fn users_at_the_top_of_an_image_s_volume_are_windows_users() {
    use ai_chat_forensics::layout::Os;
    let disks = repo().join("fixtures/disks");
    let oses = |root: &Path| -> std::collections::BTreeSet<String> {
        Scanner::new()
            .root(root)
            .discover()
            .unwrap()
            .into_iter()
            .filter(|f| f.problem.is_none())
            .map(|f| format!("{} {:?}", f.attribution.user, f.attribution.os))
            .collect()
    };
    // a system disk's C: volume holds `Users/` at its top; KAPE's VHDX `C/Users/`
    for image in ["WIN-DESK03.E01", "WIN-DESK03.dd", "WIN-DESK03.vhdx"] {
        assert_eq!(
            oses(&disks.join(image)),
            [format!("carol {:?}", Some(Os::Windows))].into(),
            "{image}"
        );
    }
    // the same `Users/` in a folder is a Mac's
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("LAPTOP-7/Users/carol/.claude");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::copy(
        repo().join("fixtures/evidence/WIN-DESK03/C/Users/carol/.claude/history.jsonl"),
        home.join("history.jsonl"),
    )
    .unwrap();
    assert_eq!(
        oses(tmp.path()),
        [format!("carol {:?}", Some(Os::MacOs))].into()
    );
}
