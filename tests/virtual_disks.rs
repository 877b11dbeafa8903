//! A KAPE virtual disk (`.vhdx`, `.vhd`) reads as the tree its NTFS volume holds:
//! every row, problem and manifest entry but the image's own the same as from the
//! extracted tree (paths aside), nothing written beside the image; and an image that is
//! damaged, cut short or of a kind not read is named in a row, never passed over.
//!
//! The images are `fixtures/disks/WIN-DESK03.vhdx` (an MBR disk) and `.vhd` (a GPT
//! disk), written by `fixtures/generators/kape_disks.sh` from the `WIN-DESK03` fixture
//! host with every file dated 2026-11-30 12:00:00 UTC.

mod common;

use std::path::{Path, PathBuf};

use ai_chat_forensics::Scanner;
use ai_chat_forensics::chat_rows::evidence::EntryKind;
use ai_chat_forensics::chat_rows::{Evidence, display_path, snapshot_tree};

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
    for name in ["WIN-DESK03.vhdx", "WIN-DESK03.vhd"] {
        let image = disks.join(name);
        let from_image = Scanner::new().root(&image).hash_files(true).run().unwrap();
        let (t, i) = (display_path(&tree), display_path(&image));
        let want = rows_of(&from_tree.rows, &t, &i);
        let got = rows_of(&from_image.rows, "", "");
        let first_difference = want.iter().zip(&got).position(|(a, b)| a != b);
        assert_eq!(
            first_difference,
            None,
            "{name} (regenerate the images with fixtures/generators/kape_disks.sh when the WIN-DESK03 fixture changes): {:?}",
            first_difference.map(|n| (&want[n], &got[n]))
        );
        assert_eq!(got.len(), 134, "{name}");
        assert_eq!(
            from_image.report.problems, from_tree.report.problems,
            "{name}"
        );
        // the manifest: the image's own entry, then each file as read from the tree
        let own = &from_image.report.manifest[0];
        assert_eq!(own.path, i);
        assert_eq!(own.size, std::fs::metadata(&image).unwrap().len());
        assert_eq!(own.sha256.len(), 64);
        let (members, files_read) = common::members_and_files(
            &from_image.report.manifest,
            &from_tree.report.manifest,
            &t,
            &i,
        );
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
    for name in ["WIN-DESK03.vhdx", "WIN-DESK03.vhd"] {
        let path = repo().join("fixtures/disks").join(name);
        let image = PathBuf::from("/case").join(name);
        let ev = Evidence::in_memory([(image.clone(), std::fs::read(&path).unwrap(), None)]);
        assert_eq!(ev.open_archive(&image).unwrap(), Vec::new(), "{name}");
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
            let mut pieces = Vec::new();
            let mut buf = [0u8; 777];
            loop {
                let n = ranged.read_at(pieces.len() as u64, &mut buf).unwrap();
                if n == 0 {
                    break;
                }
                pieces.extend_from_slice(&buf[..n]);
            }
            assert!(pieces == want, "{name}: {file}");
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
/// partition table, NTFS boot sector, file records and indexes of the first blocks.
#[test]
fn an_image_changed_anywhere_opens_or_says_why() {
    for name in ["WIN-DESK03.vhdx", "WIN-DESK03.vhd"] {
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
                        e.to_string().starts_with("not read as a virtual disk: "),
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
