#![no_main]
//! An archive given as evidence (a zip, a tar, a tar compressed with gzip, bzip2, xz
//! or zstd, a 7z, a RAR or a two-volume RAR set (in either naming), a VHDX or VHD virtual disk, or an EWF
//! or raw disk image, some under a compression of their own, or a store file
//! compressed on its own, chosen by the
//! first byte, read with a password or not) must never panic
//! or hang, whatever its bytes: the archive opens or is an error, every folder of it
//! lists, and every member reads whole, by ranges and by lines or is an error, under
//! the size cap (a member read whole is read by lines to the same lines, with no error);
//! a member named as an archive opens in its turn.
use std::path::PathBuf;

use chat_rows::Evidence;
use libfuzzer_sys::fuzz_target;

/// The NTFS reader of virtual disks (the `ntfs` crate) slices some lengths it reads
/// unchecked; the archive layer catches its panics and names the folder or the volume
/// not read (README, "KAPE virtual disks"). libFuzzer's hook aborts on any panic, caught
/// or not: this one lets that crate's pass, so that a panic anywhere else, or one of
/// that crate's that escapes (the fuzz target's own catch then aborts), is still found.
fn tolerate_caught_ntfs_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.location().is_some_and(|l| l.file().contains("/ntfs-")) {
                return;
            }
            abort(info);
        }));
    });
}

/// A compressed file opens or is an error; the file it holds reads whole, by ranges
/// and by lines to the same bytes, under the cap, and stands in its folder's listing in
/// the compressed file's place.
fn single(data: &[u8], ext: &str) {
    let file = PathBuf::from(format!("/case/h/history.jsonl{ext}"));
    let ev = Evidence::in_memory([(file.clone(), data.to_vec(), None)]).max_size(1 << 20);
    let Ok((at, _ended)) = ev.open_compressed(&file) else {
        return;
    };
    assert_eq!(at, PathBuf::from("/case/h/history.jsonl"));
    assert_eq!(
        ev.read_dir(&PathBuf::from("/case/h")).ok(),
        Some(vec![at.clone()])
    );
    let Ok(bytes) = ev.read(&at) else {
        return;
    };
    assert!(bytes.len() as u64 <= 1 << 20);
    let r = ev.open_ranged(&at).expect("read whole, so read by ranges");
    let mut buf = vec![0u8; bytes.len() + 1];
    assert_eq!(r.read_at(0, &mut buf).ok(), Some(bytes.len()));
    assert_eq!(&buf[..bytes.len()], &bytes[..]);
    let mut reader = ev.read_lines(&at).expect("read whole, so read by lines");
    let mut got = Vec::new();
    while let Some(line) = reader.next_line() {
        let l = line.expect("read whole, so every line");
        got.push((l.offset, l.bytes.to_vec()));
    }
    let want: Vec<(u64, Vec<u8>)> = chat_rows::lines::lines(&bytes)
        .map(|l| (l.offset, l.bytes.to_vec()))
        .collect();
    assert!(got == want);
}

fuzz_target!(|data: &[u8]| {
    tolerate_caught_ntfs_panics();
    let Some((&which, data)) = data.split_first() else {
        return;
    };
    // a store file compressed on its own, read as the file it holds
    let kind = usize::from((which & 0x7f) % 21);
    if (11..15).contains(&kind) {
        single(data, [".gz", ".bz2", ".xz", ".zst"][kind - 11]);
        return;
    }
    let zip = PathBuf::from(match kind {
        0 => "/case/c.zip",
        1 => "/case/c.tar",
        2 => "/case/c.tgz",
        3 => "/case/c.tar.bz2",
        4 => "/case/c.tar.xz",
        5 => "/case/c.tar.zst",
        6 => "/case/c.7z",
        7 => "/case/c.vhdx",
        8 => "/case/c.vhd",
        9 => "/case/c.E01",
        10 => "/case/c.dd",
        // an archive or image under a compression of its own, decompressed first
        15 => "/case/c.zip.gz",
        16 => "/case/c.dd.xz",
        17 => "/case/c.vhd.zst",
        18 => "/case/c.7z.bz2",
        19 => "/case/c.rar",
        // a multi-volume RAR: the next two bytes say where the first volume ends, and
        // (their top bit) whether the volumes are named `c.part1.rar`, `c.part2.rar`
        // or in the older naming, `c.rar`, `c.r00`
        _ => match data.get(1) {
            Some(b) if b & 0x80 != 0 => "/case/c.rar",
            _ => "/case/c.part1.rar",
        },
    });
    let mut files = vec![(zip.clone(), data.to_vec(), None)];
    if kind == 20 {
        let Some((cut, rest)) = data.split_first_chunk::<2>() else {
            return;
        };
        let cut = u16::from_le_bytes(*cut);
        let second = if cut & 0x8000 != 0 {
            "c.r00"
        } else {
            "c.part2.rar"
        };
        let cut = usize::from(cut & 0x7fff).min(rest.len());
        files = vec![
            (zip.clone(), rest[..cut].to_vec(), None),
            (zip.with_file_name(second), rest[cut..].to_vec(), None),
        ];
    }
    let mut ev = Evidence::in_memory(files).max_size(1 << 20);
    // half the runs read encrypted zip members with passwords (ZipCrypto, AES), a
    // wrong one tried before the right one
    if which & 0x80 != 0 {
        ev = ev.archive_password(chat_rows::ArchivePassword::any_of(["not it", "infected"]));
    }
    let Ok(_problems) = ev.open_archive(&zip) else {
        return;
    };
    let mut pending = vec![zip.clone()];
    let mut seen = 0usize;
    let mut nested = 0usize;
    while let Some(dir) = pending.pop() {
        let Ok(listing) = ev.list(&dir, false) else {
            continue;
        };
        for (p, kind) in listing.entries {
            seen += 1;
            assert!(p.starts_with(&zip));
            assert_eq!(ev.status(&p, false), Some(kind));
            if kind == chat_rows::evidence::EntryKind::Folder {
                pending.push(p);
                continue;
            }
            // a member named as an archive opens in its turn, four deep at most
            if p.file_name()
                .and_then(chat_rows::ArchiveKind::of_name)
                .is_some()
                && ev.open_archive(&p).is_ok()
            {
                assert!(ev.is_archived(&p));
                nested += 1;
                pending.push(p.clone());
            }
            let _ = ev.modified(&p);
            let whole = ev.read(&p);
            if let Ok(bytes) = &whole {
                assert!(bytes.len() as u64 <= 1 << 20);
                if let Ok(r) = ev.open_ranged(&p) {
                    let mut buf = vec![0u8; bytes.len() + 1];
                    assert_eq!(r.read_at(0, &mut buf).ok(), Some(bytes.len()));
                    assert_eq!(&buf[..bytes.len()], &bytes[..]);
                }
            }
            // by lines (a member read a chunk at a time, decoded as it is read)
            if let Ok(mut reader) = ev.read_lines(&p) {
                let mut got = Vec::new();
                let mut failed = None;
                while let Some(line) = reader.next_line() {
                    match line {
                        Ok(l) => got.push((l.offset, l.bytes.to_vec())),
                        Err(e) => {
                            failed = Some(e.to_string());
                            break;
                        }
                    }
                }
                if let Ok(bytes) = &whole {
                    assert_eq!(failed, None);
                    let want: Vec<(u64, Vec<u8>)> = chat_rows::lines::lines(bytes)
                        .map(|l| (l.offset, l.bytes.to_vec()))
                        .collect();
                    assert!(got == want);
                }
            }
        }
    }
    // a compressed tar or a 7z decodes to at most the 1 MiB cap: 2,048 headers of 512 bytes; an archive
    // inside it names at most its own bytes (under the cap) and as many headers
    // (an archive under a compression of its own holds at most the cap's bytes)
    let held = if kind >= 15 { 1 << 20 } else { data.len() };
    assert!(seen <= held + 2048 + nested * ((1 << 20) + 2048));
    let _ = ev.read(&zip.join("../c.zip"));
});
