//! Virtual disks read as folders: KAPE's `.vhdx` and `.vhd` triage images, and the
//! disk images of a case (an EWF `.E01`, module [`crate::ewf`], or a raw `.dd`).
//!
//! KAPE can write what it collects into a virtual disk instead of a zip (`--vhdx`,
//! `--vhd`): a disk holding one NTFS volume with the collected tree (`C/Users/...`).
//! Mounting one needs Windows (or a loop device and root) and writes to it: Windows
//! replays the VHDX log and stamps the headers on mount. Read here, it is opened like
//! any other archive and nothing is written: the disk's blocks are mapped from the
//! file (the VHDX block allocation table, a dynamic VHD's), the NTFS volume found on
//! it (a volume at its first sector, or the partitions of its MBR or GPT), and the
//! volume's directory tree walked once with the `ntfs` crate (read-only, no unsafe
//! code); each file then stands at the image's path joined with its path on the
//! volume, and is read through its data runs when asked for.
//!
//! A VHDX whose log holds writes not yet applied (a copy of a mounted disk) is read
//! through its log replayed in memory ([`crate::vhdx_log`]). What is not read is named,
//! never passed over: a differencing disk (its parent is another file), a VHDX log
//! that cannot be replayed (its blocks are read as they stand), a partition that
//! holds no NTFS volume, an
//! extended MBR partition, a file EFS-encrypted (an error when read). An
//! NTFS-compressed file is read as its contents: decoded from LZNT1 a compression unit
//! at a time, where its runs lie ([`lznt1`]), since Explorer's "compress contents"
//! setting on a profile folder would otherwise leave every log under it unread. A
//! file's data stream spread over an attribute list (more runs than its record holds:
//! any large file on a fragmented disk) is gathered here from each of its attributes
//! ([`unnamed_stream`]): the `ntfs` crate's view of such a stream starts at its second
//! attribute, of length 0, and would read the file as empty. A folder whose index is so
//! spread is listed here from its index root, records and bitmap
//! ([`index_entries_of`]), since the crate lists it in part. A `$MFT` in more than one
//! run is shown to the crate whole and end to end ([`whole_mft`]): the crate finds a
//! record through the `$MFT`'s first part only and reads it from where its first byte
//! lies, so a record past that part, or one across two runs (512-byte clusters), would
//! be an error or another record's bytes.
//! Every length read from the image is checked against the image before anything is
//! allocated for it, and the walk is bounded by the volume's size, so that a hostile
//! index that points back at itself ends.

use std::collections::HashSet;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

use crate::evidence::RangedFile;

/// A VHDX block size is 1 MiB to 256 MiB; a VHD's is at most this too (2 MiB usual).
const MAX_BLOCK: u64 = 256 << 20;

/// The largest virtual disk read: 64 TiB, a VHDX's own limit.
pub(crate) const MAX_DISK: u64 = 64 << 40;

/// A disk's bytes where they lie in the image.
#[derive(Debug)]
enum Map {
    /// A fixed VHD: the disk is the image's first `size` bytes.
    Flat,
    /// A dynamic VHDX or VHD: block `i` of `block` bytes is at `table[i]` in the
    /// image, or reads as zeros when that is `None`.
    Blocks { block: u64, table: Vec<Option<u64>> },
    /// An EWF image (`.E01`): chunks of the disk compressed in its segment files.
    Chunks(Box<crate::ewf::Ewf>),
    /// A raw image split in parts (`.001`, `.002`, ...): each part where the disk's
    /// bytes go on, by where it starts on the disk.
    Parts(Vec<(u64, Arc<RangedFile>)>),
}

/// A virtual disk: its size and where each of its bytes is in the image.
#[derive(Debug)]
pub(crate) struct Disk {
    file: Arc<RangedFile>,
    size: u64,
    map: Map,
    /// The sector size partition tables count in.
    pub(crate) sector: u64,
}

/// What went wrong reading a disk image, in words.
fn bad(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]))
}
fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}
fn be_u32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]))
}
fn be_u64(b: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}

/// `len` bytes of the image at `at`, or an error when the image is shorter.
fn read_exact(file: &RangedFile, at: u64, len: u64, what: &str) -> io::Result<Vec<u8>> {
    read_exact_of(file, "the image", at, len, what)
}

/// `len` bytes of `file` (named `whole` in the error) at `at`, or an error when it is
/// shorter; nothing is allocated for bytes the file does not hold.
pub(crate) fn read_exact_of(
    file: &RangedFile,
    whole: &str,
    at: u64,
    len: u64,
    what: &str,
) -> io::Result<Vec<u8>> {
    let end = at.checked_add(len).filter(|e| *e <= file.len());
    if end.is_none() {
        return Err(bad(format!(
            "{what} of {len} bytes at byte {at} runs past the end of {whole} ({} bytes)",
            file.len()
        )));
    }
    let mut buf = vec![0u8; len as usize];
    let mut done = 0;
    while done < buf.len() {
        let n = file.read_at(at + done as u64, &mut buf[done..])?;
        if n == 0 {
            return Err(bad(format!("{what} at byte {at} cut short")));
        }
        done += n;
    }
    Ok(buf)
}

/// A GUID as a VHDX stores it (the first three fields little-endian).
const fn guid(a: u32, b: u16, c: u16, d: [u8; 8]) -> [u8; 16] {
    let a = a.to_le_bytes();
    let b = b.to_le_bytes();
    let c = c.to_le_bytes();
    [
        a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], d[0], d[1], d[2], d[3], d[4], d[5], d[6],
        d[7],
    ]
}

const BAT_REGION: [u8; 16] = guid(
    0x2DC2_7766,
    0xF623,
    0x4200,
    [0x9D, 0x64, 0x11, 0x5E, 0x9B, 0xFD, 0x4A, 0x08],
);
const METADATA_REGION: [u8; 16] = guid(
    0x8B7C_A206,
    0x4790,
    0x4B9A,
    [0xB8, 0xFE, 0x57, 0x5F, 0x05, 0x0F, 0x88, 0x6E],
);
const FILE_PARAMETERS: [u8; 16] = guid(
    0xCAA1_6737,
    0xFA36,
    0x4D43,
    [0xB3, 0xB6, 0x33, 0xF0, 0xAA, 0x44, 0xE7, 0x6B],
);
const DISK_SIZE: [u8; 16] = guid(
    0x2FA5_4224,
    0xCD1B,
    0x4876,
    [0xB2, 0x11, 0x5D, 0xBE, 0xD8, 0x3B, 0xF4, 0xB8],
);
const LOGICAL_SECTOR: [u8; 16] = guid(
    0x8141_BF1D,
    0xA96F,
    0x4709,
    [0xBA, 0x47, 0xF2, 0x33, 0xA8, 0xFA, 0xAB, 0x5F],
);

/// CRC-32C (Castagnoli), as VHDX checksums its headers and region tables.
pub(crate) fn crc32c(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0x82F6_3B78 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// True when the 4-byte checksum at `at` of `block` is the CRC-32C of the block with
/// that field zeroed.
fn checksum_holds(block: &[u8], at: usize) -> bool {
    let mut copy = block.to_vec();
    let want = le_u32(&copy, at);
    copy[at..at + 4].fill(0);
    crc32c(&copy) == want
}

impl Disk {
    /// The disk of a `.vhdx` image; `problems` takes what is read with a caveat.
    pub(crate) fn vhdx(file: Arc<RangedFile>, problems: &mut Vec<String>) -> io::Result<Disk> {
        let id = read_exact(&file, 0, 8, "the file type identifier")?;
        if id != b"vhdxfile" {
            return Err(bad("not a VHDX image (no \"vhdxfile\" signature)"));
        }
        // the current header: the valid one of the two with the larger sequence number
        let mut current: Option<Vec<u8>> = None;
        for at in [64u64 << 10, 128 << 10] {
            let Ok(h) = read_exact(&file, at, 4096, "a VHDX header") else {
                continue;
            };
            if &h[..4] != b"head" || !checksum_holds(&h, 4) {
                continue;
            }
            if current
                .as_ref()
                .is_none_or(|c| le_u64(&h, 8) > le_u64(c, 8))
            {
                current = Some(h);
            }
        }
        let header =
            current.ok_or_else(|| bad("no valid VHDX header (both fail their checksum)"))?;
        // writes its log holds and the file does not yet (a copy of a mounted image)
        let file = crate::vhdx_log::replay(file, &header, problems);
        // the region table: where the BAT and the metadata are
        let mut regions = None;
        for at in [192u64 << 10, 256 << 10] {
            let Ok(r) = read_exact(&file, at, 64 << 10, "a VHDX region table") else {
                continue;
            };
            if &r[..4] == b"regi" && checksum_holds(&r, 4) {
                regions = Some(r);
                break;
            }
        }
        let regions =
            regions.ok_or_else(|| bad("no valid VHDX region table (both fail their checksum)"))?;
        let count = (le_u32(&regions, 8) as usize).min((regions.len() - 16) / 32);
        let (mut bat, mut meta) = (None, None);
        for i in 0..count {
            let e = &regions[16 + i * 32..16 + (i + 1) * 32];
            let place = (le_u64(e, 16), u64::from(le_u32(e, 24)));
            if e[..16] == BAT_REGION {
                bat = Some(place);
            } else if e[..16] == METADATA_REGION {
                meta = Some(place);
            }
        }
        let (Some((bat_at, bat_len)), Some((meta_at, meta_len))) = (bat, meta) else {
            return Err(bad(
                "the VHDX region table names no BAT or no metadata region",
            ));
        };
        let meta = read_exact(&file, meta_at, meta_len, "the VHDX metadata region")?;
        if meta.len() < 32 || &meta[..8] != b"metadata" {
            return Err(bad(
                "the VHDX metadata region has no \"metadata\" signature",
            ));
        }
        let items = (le_u16(&meta, 10) as usize).min((meta.len() - 32) / 32);
        let item = |id: &[u8; 16], len: usize| -> Option<&[u8]> {
            (0..items).find_map(|i| {
                let e = &meta[32 + i * 32..32 + (i + 1) * 32];
                if &e[..16] != id {
                    return None;
                }
                let at = le_u32(e, 16) as usize;
                meta.get(at..at.checked_add(len)?)
            })
        };
        let params = item(&FILE_PARAMETERS, 8)
            .ok_or_else(|| bad("the VHDX metadata has no file parameters"))?;
        let block = u64::from(le_u32(params, 0));
        if le_u32(params, 4) & 2 != 0 {
            return Err(bad(
                "a differencing VHDX: its blocks are read through a parent disk, another file, which is not read",
            ));
        }
        let size = item(&DISK_SIZE, 8)
            .map(|b| le_u64(b, 0))
            .ok_or_else(|| bad("the VHDX metadata has no virtual disk size"))?;
        let sector = item(&LOGICAL_SECTOR, 4)
            .map(|b| u64::from(le_u32(b, 0)))
            .unwrap_or(512);
        if !(1 << 20..=MAX_BLOCK).contains(&block) || !block.is_power_of_two() {
            return Err(bad(format!("a VHDX block size of {block} bytes")));
        }
        if sector != 512 && sector != 4096 {
            return Err(bad(format!("a VHDX logical sector size of {sector} bytes")));
        }
        if size == 0 || size > MAX_DISK {
            return Err(bad(format!("a VHDX virtual disk of {size} bytes")));
        }
        // a sector bitmap entry follows every `chunk` payload entries
        let chunk = ((1u64 << 23) * sector) / block;
        let blocks = size.div_ceil(block);
        let entries = blocks + (blocks.saturating_sub(1)) / chunk;
        if entries.saturating_mul(8) > bat_len {
            return Err(bad(format!(
                "the VHDX BAT of {bat_len} bytes is too short for {blocks} blocks"
            )));
        }
        let raw = read_exact(&file, bat_at, entries * 8, "the VHDX BAT")?;
        let mut table = Vec::with_capacity(blocks as usize);
        for i in 0..blocks {
            let e = le_u64(&raw, ((i + i / chunk) * 8) as usize);
            table.push(match e & 7 {
                // fully present (a partially present block is a differencing disk's)
                6 | 7 => Some((e >> 20) << 20),
                // not present, undefined, zero, unmapped: zeros
                _ => None,
            });
        }
        Ok(Disk {
            file,
            size,
            map: Map::Blocks { block, table },
            sector,
        })
    }

    /// The disk of a `.vhd` image (fixed or dynamic).
    pub(crate) fn vhd(file: Arc<RangedFile>) -> io::Result<Disk> {
        let len = file.len();
        if len < 512 {
            return Err(bad("not a VHD image (shorter than its footer)"));
        }
        // the footer is the last 512 bytes (511 in images of Virtual PC before 2004)
        let mut footer = read_exact(&file, len - 512, 512, "the VHD footer")?;
        if &footer[..8] != b"conectix" {
            footer = read_exact(&file, 0, 512, "the VHD footer copy")?;
            if &footer[..8] != b"conectix" {
                return Err(bad("not a VHD image (no \"conectix\" footer)"));
            }
        }
        let size = be_u64(&footer, 48);
        if size == 0 || size > MAX_DISK {
            return Err(bad(format!("a VHD virtual disk of {size} bytes")));
        }
        match be_u32(&footer, 60) {
            2 => {
                if size > len {
                    return Err(bad(format!(
                        "a fixed VHD of {size} bytes in an image of {len} bytes"
                    )));
                }
                Ok(Disk {
                    file,
                    size,
                    map: Map::Flat,
                    sector: 512,
                })
            }
            3 => {
                let at = be_u64(&footer, 16);
                let dynamic = read_exact(&file, at, 1024, "the VHD dynamic header")?;
                if &dynamic[..8] != b"cxsparse" {
                    return Err(bad("the VHD dynamic header has no \"cxsparse\" cookie"));
                }
                let table_at = be_u64(&dynamic, 16);
                let entries = u64::from(be_u32(&dynamic, 28));
                let block = u64::from(be_u32(&dynamic, 32));
                if !(512..=MAX_BLOCK).contains(&block) || !block.is_power_of_two() {
                    return Err(bad(format!("a VHD block size of {block} bytes")));
                }
                let blocks = size.div_ceil(block);
                if entries < blocks {
                    return Err(bad(format!(
                        "the VHD BAT of {entries} entries is too short for {blocks} blocks"
                    )));
                }
                let raw = read_exact(&file, table_at, blocks * 4, "the VHD BAT")?;
                // each block starts with its sector bitmap, padded to whole sectors
                let bitmap = (block / 512).div_ceil(8).div_ceil(512) * 512;
                let table = (0..blocks as usize)
                    .map(|i| match be_u32(&raw, i * 4) {
                        u32::MAX => None,
                        s => Some(u64::from(s) * 512 + bitmap),
                    })
                    .collect();
                Ok(Disk {
                    file,
                    size,
                    map: Map::Blocks { block, table },
                    sector: 512,
                })
            }
            4 => Err(bad(
                "a differencing VHD: its blocks are read through a parent disk, another file, which is not read",
            )),
            t => Err(bad(format!("a VHD of disk type {t}"))),
        }
    }

    /// The disk of an EWF image: its segment files in order, the `.E01` first.
    pub(crate) fn ewf(
        segments: Vec<Arc<RangedFile>>,
        names: &[String],
        problems: &mut Vec<String>,
    ) -> io::Result<Disk> {
        let file = segments
            .first()
            .cloned()
            .ok_or_else(|| bad("no segment file"))?;
        let ewf = crate::ewf::Ewf::open(segments, names, problems)?;
        Ok(Disk {
            file,
            size: ewf.size,
            sector: ewf.sector,
            map: Map::Chunks(Box::new(ewf)),
        })
    }

    /// The disk of a raw image (`.dd`, `.raw`, `.img`): the file is the disk, byte
    /// for byte, in 512-byte sectors.
    /// A raw image split in parts (`.001`, `.002`, ... as FTK Imager writes it) is the
    /// parts one after another.
    pub(crate) fn raw(parts: Vec<Arc<RangedFile>>) -> io::Result<Disk> {
        let file = parts
            .first()
            .cloned()
            .ok_or_else(|| bad("no raw image file"))?;
        let mut at = 0u64;
        let mut map = Vec::with_capacity(parts.len());
        for part in parts {
            let len = part.len();
            map.push((at, part));
            at = at.saturating_add(len);
        }
        let size = at;
        if size < 512 {
            return Err(bad(format!(
                "a raw image of {size} bytes holds no disk sector"
            )));
        }
        Ok(Disk {
            file,
            size,
            map: if map.len() == 1 {
                Map::Flat
            } else {
                Map::Parts(map)
            },
            sector: 512,
        })
    }

    /// The bytes the image stores the disk in (an EWF image's, all its segments'),
    /// which bounds the walk of its volumes.
    fn stored(&self) -> u64 {
        match &self.map {
            // zlib packs an index of NTFS file names well; never more than 16 to 1 in
            // what it is given to bound
            Map::Chunks(ewf) => ewf.stored().saturating_mul(16),
            Map::Parts(_) => self.size,
            _ => self.file.len(),
        }
    }

    /// Reads disk bytes from `at` into `buf`; 0 at the disk's end. A block the image
    /// does not hold reads as zeros; one that runs past the image's end is an error.
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<usize> {
        if at >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.size - at) as usize;
        match &self.map {
            Map::Flat => self.file.read_at(at, &mut buf[..want]),
            Map::Parts(parts) => {
                let i = parts.partition_point(|p| p.0 <= at) - 1;
                let (start, part) = &parts[i];
                let n = (want as u64).min(part.len() - (at - start)) as usize;
                part.read_at(at - start, &mut buf[..n])
            }
            Map::Chunks(ewf) => ewf.read_at(at, &mut buf[..want]),
            Map::Blocks { block, table } => {
                let i = (at / block) as usize;
                let within = at % block;
                let n = (want as u64).min(block - within) as usize;
                match table.get(i).copied().flatten() {
                    None => {
                        buf[..n].fill(0);
                        Ok(n)
                    }
                    Some(start) => {
                        let from = start.saturating_add(within);
                        if from.saturating_add(n as u64) > self.file.len() {
                            return Err(bad(format!(
                                "block {i} of the virtual disk at byte {start} runs past the end of the image ({} bytes)",
                                self.file.len()
                            )));
                        }
                        self.file.read_at(from, &mut buf[..n])
                    }
                }
            }
        }
    }

    /// `len` bytes of the disk at `at`, zeros past its end.
    fn bytes(&self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        let mut done = 0;
        while done < len {
            let n = self.read_at(at + done as u64, &mut buf[done..])?;
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(buf)
    }

    /// The NTFS volumes of the disk, each by its place and length on it and its name
    /// (`None` for a volume at the disk's start, else `partition-<n>` by its number in
    /// the table); what else the tables name goes to `problems`.
    pub(crate) fn volumes(&self, problems: &mut Vec<String>) -> io::Result<Vec<Volume>> {
        let first = self.bytes(0, 512)?;
        if is_ntfs(&first) {
            return Ok(vec![Volume {
                start: 0,
                len: self.size,
                name: None,
            }]);
        }
        if first[510..512] != [0x55, 0xAA] {
            return Err(bad(
                "no NTFS volume on the virtual disk (neither at its start nor in a partition table)",
            ));
        }
        let mut parts = Vec::new();
        let mbr: Vec<(u8, u64, u64)> = (0..4)
            .map(|i| {
                let e = &first[446 + i * 16..446 + (i + 1) * 16];
                (e[4], u64::from(le_u32(e, 8)), u64::from(le_u32(e, 12)))
            })
            .collect();
        if mbr.iter().any(|p| p.0 == 0xEE) {
            // a GPT, in the disk's logical sectors
            let s = self.sector;
            let head = self.bytes(s, 512)?;
            if &head[..8] != b"EFI PART" {
                return Err(bad("a protective MBR and no GPT header at sector 1"));
            }
            // the backup header is the disk's last sector: past the image's end, the
            // image is cut short or a part of it is missing
            let backup = le_u64(&head, 32);
            if backup.saturating_add(1).saturating_mul(s) > self.size {
                problems.push(format!(
                    "the GPT's backup header is at byte {}, past the end of the virtual disk ({} bytes): the image is cut short or a part of it is missing",
                    backup.saturating_mul(s),
                    self.size
                ));
            }
            let table = le_u64(&head, 72);
            let count = u64::from(le_u32(&head, 80));
            let size = u64::from(le_u32(&head, 84));
            // (128 entries of 128 bytes as written; at most 1 MiB of them read)
            if !(128..=4096).contains(&size) || count * size > 1 << 20 {
                return Err(bad(format!(
                    "a GPT of {count} entries of {size} bytes each"
                )));
            }
            let raw = self.bytes(table.saturating_mul(s), (count * size) as usize)?;
            for i in 0..count as usize {
                let e = &raw[i * size as usize..(i + 1) * size as usize];
                if e[..16].iter().all(|&b| b == 0) {
                    continue;
                }
                let (lo, hi) = (le_u64(e, 32), le_u64(e, 40));
                if hi >= lo {
                    let sectors = (hi - lo).saturating_add(1);
                    parts.push((i + 1, lo.saturating_mul(s), sectors.saturating_mul(s)));
                }
            }
        } else {
            for (i, &(kind, lba, sectors)) in mbr.iter().enumerate() {
                match kind {
                    0 => {}
                    0x05 | 0x0F | 0x85 => problems.push(format!(
                        "partition {} of the virtual disk not read: an extended partition",
                        i + 1
                    )),
                    _ => parts.push((i + 1, lba * self.sector, sectors * self.sector)),
                }
            }
        }
        let mut out = Vec::new();
        for (n, start, len) in parts {
            if start >= self.size {
                problems.push(format!(
                    "partition {n} of the virtual disk not read: it starts at byte {start}, past the disk's end ({} bytes)",
                    self.size
                ));
                continue;
            }
            if len > self.size - start {
                problems.push(format!(
                    "partition {n} of the virtual disk runs past its end: {len} bytes from byte {start}, of which the image holds {}",
                    self.size - start
                ));
            }
            if is_ntfs(&self.bytes(start, 512)?) {
                out.push(Volume {
                    start,
                    len: len.min(self.size - start),
                    name: Some(format!("partition-{n}")),
                });
            } else {
                problems.push(format!(
                    "partition {n} of the virtual disk not read: it holds no NTFS volume"
                ));
            }
        }
        if out.is_empty() {
            return Err(bad("no NTFS volume in the virtual disk's partitions"));
        }
        // one volume stands at the image's top, as KAPE's does
        if out.len() == 1 {
            out[0].name = None;
        }
        Ok(out)
    }
}

/// True for an NTFS boot sector.
fn is_ntfs(sector: &[u8]) -> bool {
    sector.get(3..11) == Some(b"NTFS    ")
}

/// An NTFS volume on a disk.
#[derive(Debug)]
pub(crate) struct Volume {
    pub(crate) start: u64,
    pub(crate) len: u64,
    /// The folder its tree stands in below the image, when the disk has several.
    pub(crate) name: Option<String>,
}

/// A volume's bytes as the `ntfs` crate reads them: `Read` and `Seek` over the disk.
#[derive(Clone, Debug)]
pub(crate) struct VolumeCursor {
    pub(crate) disk: Arc<Disk>,
    pub(crate) start: u64,
    pub(crate) len: u64,
    pub(crate) pos: u64,
    /// For a volume whose `$MFT` is spread over an attribute list: the whole `$MFT` as
    /// the `ntfs` crate is shown it ([`whole_mft`]).
    pub(crate) mft: Option<Arc<MftView>>,
}

/// Where the boot sector keeps the first cluster of the `$MFT`.
const MFT_LCN_AT: usize = 0x30;

/// A fragmented `$MFT`, as the `ntfs` crate is shown it. The crate finds a file record
/// through the `$DATA` attribute of the record the boot sector points at, and reads the
/// record's bytes from where its first byte lies: a record that straddles two runs
/// (clusters smaller than records, 512 bytes, and a run that ends half way into one)
/// is read from the wrong bytes, and a record past the `$MFT`'s first part (a `$MFT`
/// spread over an attribute list) is not found. So the cursor shows, past the volume's
/// end where no run of the volume points, a record 0 of one `$DATA` run (written here)
/// followed by the whole `$MFT` laid end to end (its runs read where they lie), and a
/// boot sector whose `$MFT` cluster points at that record. Every other byte of the
/// volume reads as it is: the files' runs, the index records and the `$MFT`'s own
/// clusters.
#[derive(Debug)]
pub(crate) struct MftView {
    /// The boot sector's `$MFT` cluster as the crate is shown it.
    lcn: u64,
    /// Where the written record 0 stands (past the volume's end, on a cluster).
    at: u64,
    /// The written record 0.
    record: Vec<u8>,
    /// Where the whole `$MFT` stands, after the written record.
    base: u64,
    /// The `$MFT`'s runs: where each starts in it, its length and where it lies on the
    /// volume (`None`: sparse, read as zeros).
    runs: Vec<(u64, u64, Option<u64>)>,
    /// The `$MFT`'s length in bytes.
    len: u64,
}

impl MftView {
    /// Bytes of the view at `pos` (at or past `at`) into `buf`: how many.
    fn read(&self, disk: &Disk, start: u64, pos: u64, buf: &mut [u8]) -> io::Result<usize> {
        if pos < self.base {
            let from = (pos - self.at) as usize;
            let n = buf.len().min((self.base - pos) as usize);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = self.record.get(from + i).copied().unwrap_or(0);
            }
            return Ok(n);
        }
        let off = pos - self.base;
        if off >= self.len {
            return Ok(0);
        }
        let i = self.runs.partition_point(|&(s, _, _)| s <= off);
        let Some(&(s, l, lies)) = i.checked_sub(1).and_then(|i| self.runs.get(i)) else {
            return Ok(0);
        };
        let into = off - s;
        if into >= l {
            return Ok(0);
        }
        let n = (buf.len() as u64).min(l - into).min(self.len - off) as usize;
        match lies {
            Some(p) => disk.read_at(start.saturating_add(p).saturating_add(into), &mut buf[..n]),
            None => {
                buf[..n].fill(0);
                Ok(n)
            }
        }
    }
}

impl Read for VolumeCursor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(m) = &self.mft {
            if self.pos >= m.at {
                let n = m.read(&self.disk, self.start, self.pos, buf)?;
                self.pos += n as u64;
                return Ok(n);
            }
        }
        if self.pos >= self.len {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.len - self.pos) as usize;
        let n = self.disk.read_at(self.start + self.pos, &mut buf[..want])?;
        if let Some(m) = self
            .mft
            .as_ref()
            .filter(|_| self.pos < MFT_LCN_AT as u64 + 8)
        {
            // the boot sector's `$MFT` cluster, as the view shows it
            let lcn = m.lcn.to_le_bytes();
            for (i, b) in buf[..n].iter_mut().enumerate().take(MFT_LCN_AT + 8) {
                let at = self.pos + i as u64;
                if (MFT_LCN_AT as u64..MFT_LCN_AT as u64 + 8).contains(&at) {
                    *b = lcn[(at - MFT_LCN_AT as u64) as usize];
                }
            }
        }
        self.pos += n as u64;
        Ok(n)
    }
}

/// A file record holding one non-resident unnamed `$DATA` attribute of one run:
/// `clusters` clusters from cluster `lcn`, `len` bytes long; `size` bytes, its update
/// sequence in place so that it reads as NTFS writes it.
fn one_run_record(size: usize, lcn: u64, clusters: u64, cluster: u64, len: u64) -> Vec<u8> {
    let mut r = vec![0u8; size];
    let sectors = size / 512;
    r[..4].copy_from_slice(b"FILE");
    r[4..6].copy_from_slice(&0x30u16.to_le_bytes());
    r[6..8].copy_from_slice(&(sectors as u16 + 1).to_le_bytes());
    r[0x10..0x12].copy_from_slice(&1u16.to_le_bytes());
    r[0x12..0x14].copy_from_slice(&1u16.to_le_bytes());
    let first = (0x30 + 2 * (sectors + 1)).next_multiple_of(8);
    r[0x14..0x16].copy_from_slice(&(first as u16).to_le_bytes());
    r[0x16..0x18].copy_from_slice(&1u16.to_le_bytes());
    r[0x1C..0x20].copy_from_slice(&(size as u32).to_le_bytes());
    // the attribute: header, then its one run (the length's and the cluster's bytes)
    let mut run = Vec::new();
    let bytes = |v: u64| (8 - (v.leading_zeros() / 8) as usize).max(1);
    let (nl, nc) = (bytes(clusters), bytes(lcn) + 1);
    run.push((nc << 4 | nl) as u8);
    run.extend_from_slice(&clusters.to_le_bytes()[..nl]);
    run.extend_from_slice(&lcn.to_le_bytes()[..nc]);
    run.push(0);
    let length = (0x40 + run.len()).next_multiple_of(8);
    let a = &mut r[first..first + length];
    a[..4].copy_from_slice(&0x80u32.to_le_bytes());
    a[4..8].copy_from_slice(&(length as u32).to_le_bytes());
    a[8] = 1;
    a[0x0A..0x0C].copy_from_slice(&0x40u16.to_le_bytes());
    a[0x18..0x20].copy_from_slice(&clusters.saturating_sub(1).to_le_bytes());
    a[0x20..0x22].copy_from_slice(&0x40u16.to_le_bytes());
    a[0x28..0x30].copy_from_slice(&(clusters * cluster).to_le_bytes());
    a[0x30..0x38].copy_from_slice(&len.to_le_bytes());
    a[0x38..0x40].copy_from_slice(&len.to_le_bytes());
    a[0x40..0x40 + run.len()].copy_from_slice(&run);
    let end = first + length;
    r[end..end + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    r[0x18..0x1C].copy_from_slice(&((end + 8) as u32).to_le_bytes());
    // the update sequence: number 1 at each sector's end, the bytes it stands for (0)
    // in the array
    r[0x30..0x32].copy_from_slice(&1u16.to_le_bytes());
    for s in 1..=sectors {
        r[s * 512 - 2..s * 512].copy_from_slice(&1u16.to_le_bytes());
    }
    r
}

/// The volume as the `ntfs` crate should read it when its `$MFT` lies in more than one
/// run: each record read from its own bytes, a record across two runs and one past the
/// first part of a `$MFT` spread over an attribute list (a `$MFT` in more fragments
/// than its record holds: a large volume long in use) included ([`MftView`]). The
/// parts are gathered by [`attribute_stream`]. A volume whose `$MFT` is one run is given
/// back as it is, and so is one whose runs cannot be followed (a problem says so, and
/// the records the crate cannot read are errors where they are read).
pub(crate) fn whole_mft(
    ntfs: ntfs::Ntfs,
    fs: VolumeCursor,
    problems: &mut Vec<String>,
) -> (ntfs::Ntfs, VolumeCursor) {
    let mut cursor = VolumeCursor {
        pos: 0,
        ..fs.clone()
    };
    let (listed, gathered) = {
        let Ok(file) = ntfs.file(&mut cursor, 0) else {
            return (ntfs, fs);
        };
        let listed = file
            .attributes_raw()
            .take(MAX_ATTRIBUTES)
            .any(|a| a.is_ok_and(|a| a.ty().ok() == Some(ntfs::NtfsAttributeType::AttributeList)));
        (listed, unnamed_stream(&ntfs, &mut cursor, &file, true))
    };
    if !listed && matches!(&gathered, Ok(Some(Stream { runs: Some(r), .. })) if r.len() < 2) {
        return (ntfs, fs);
    }
    let stream = match gathered {
        Ok(Some(Stream {
            runs: Some(runs),
            len,
            ..
        })) if !runs.is_empty() => Ok((runs, len)),
        Ok(_) => Err(bad("its $DATA attribute has no runs")),
        Err(e) => Err(e),
    }
    .and_then(|(runs, len)| {
        let cluster = u64::from(ntfs.cluster_size()).max(1);
        let size = ntfs.file_record_size() as usize;
        // (1 KiB or 4 KiB as NTFS writes them; the crate takes a record of up to
        // 127 clusters from a hostile boot sector)
        if !(1024..=65536).contains(&size) || size % 512 != 0 {
            return Err(bad(format!(
                "its file records of {size} bytes are no size NTFS writes"
            )));
        }
        let allocated = runs.last().map_or(0, |&(s, l, _)| s.saturating_add(l));
        if len > allocated || allocated % cluster != 0 {
            return Err(bad(format!(
                "its parts hold {allocated} bytes, for a length of {len}"
            )));
        }
        let at = fs
            .len
            .checked_next_multiple_of(cluster)
            .ok_or_else(|| bad("the volume's length"))?;
        let base = at
            .checked_add((size as u64).next_multiple_of(cluster))
            .filter(|b| b.checked_add(allocated).is_some())
            .ok_or_else(|| bad("the volume's length"))?;
        let record = one_run_record(size, base / cluster, allocated / cluster, cluster, len);
        Ok(MftView {
            lcn: at / cluster,
            at,
            record,
            base,
            runs,
            len,
        })
    });
    let view = match stream {
        Ok(v) => v,
        Err(e) => {
            let why = e.to_string();
            let why = why.trim_start_matches("archive member not read: ");
            problems.push(if listed {
                format!(
                    "the volume's $MFT is spread over an attribute list that cannot be followed ({why}): the file records past its first part are not read"
                )
            } else {
                format!(
                    "the volume's $MFT runs cannot be followed ({why}): a file record across two of them is not read"
                )
            });
            return (ntfs, fs);
        }
    };
    let shown = VolumeCursor {
        mft: Some(Arc::new(view)),
        pos: 0,
        ..fs.clone()
    };
    let reopened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let n = ntfs::Ntfs::new(&mut shown.clone())?;
        n.file(&mut shown.clone(), 0)?;
        Ok::<_, ntfs::NtfsError>(n)
    }));
    match reopened {
        Ok(Ok(n)) => (n, shown),
        Ok(Err(e)) => {
            problems.push(format!(
                "the volume's $MFT is in several runs, and its whole was not read: {}",
                words(&e)
            ));
            (ntfs, fs)
        }
        Err(_) => {
            problems.push(
                "the volume's $MFT is in several runs, and its whole was not read: the NTFS reader stopped with an internal error".to_string(),
            );
            (ntfs, fs)
        }
    }
}

impl Seek for VolumeCursor {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the volume's start",
            )
        })?;
        Ok(self.pos)
    }
}

/// A folder's path on the volume as the problems name it: `/` for the root.
fn shown(prefix: &str) -> String {
    format!("/{prefix}")
}

/// An NTFS error in words (a read of the image that failed, in its own words).
fn words(e: &ntfs::NtfsError) -> String {
    match e {
        ntfs::NtfsError::Io(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// An NTFS error as an I/O error that says what was not read.
pub(crate) fn ntfs_error(what: &str, e: ntfs::NtfsError) -> io::Error {
    match e {
        ntfs::NtfsError::Io(e) => io::Error::new(e.kind(), format!("{what}: {e}")),
        other => bad(format!("{what}: {other}")),
    }
}

/// A file found on a volume by the walk.
#[derive(Debug)]
pub(crate) struct Found {
    /// Its path on the volume, `/`-separated.
    pub(crate) name: String,
    /// Its file record number.
    pub(crate) record: u64,
    /// `None` for a folder.
    pub(crate) file: Option<FoundFile>,
}

/// What the walk knows of a file.
#[derive(Debug)]
pub(crate) struct FoundFile {
    /// Its unnamed data stream's length.
    pub(crate) size: u64,
    /// A reparse point (a symbolic link or junction): never followed.
    pub(crate) link: bool,
    /// Its `$STANDARD_INFORMATION` modification time, 100 ns since 1601 (UTC).
    pub(crate) modified: Option<u64>,
    /// Why its data cannot be read as it stands (EFS-encrypted).
    pub(crate) unreadable: Option<&'static str>,
}

/// The volume's files and folders, its directory tree walked from the root (the
/// root's `$` metadata files left out, DOS 8.3 names taken as the long names they
/// shadow). A folder reached twice is walked once; the walk stops, with a problem,
/// after as many index entries as the image file could hold at 64 bytes each (the
/// image, not the disk: a disk's blocks may all be one block of the file).
pub(crate) fn walk(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    problems: &mut Vec<String>,
) -> io::Result<Vec<Found>> {
    let budget = (fs.disk.stored() / 64).clamp(1 << 10, 1 << 24);
    let mut spent = 0u64;
    let mut out = Vec::new();
    let root = ntfs
        .root_directory(fs)
        .map_err(|e| ntfs_error("the NTFS root folder not read", e))?
        .file_record_number();
    let mut seen = HashSet::from([root]);
    let mut pending: Vec<(u64, String)> = vec![(root, String::new())];
    while let Some((record, prefix)) = pending.pop() {
        // the NTFS reader is a dependency that slices some lengths it reads unchecked:
        // should it panic on a hostile index, that folder is named and the walk goes on
        let listed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            list_folder(ntfs, fs, record, &prefix, budget, &mut spent, problems)
        }));
        let children = match listed {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(out),
            Err(_) => {
                problems.push(format!(
                    "NTFS folder {:?} not listed: the NTFS reader stopped with an internal error",
                    shown(&prefix)
                ));
                continue;
            }
        };
        for (name, child, is_dir, reparse) in children {
            let path = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            if is_dir && !reparse {
                if seen.insert(child) {
                    pending.push((child, path.clone()));
                    out.push(Found {
                        name: path,
                        record: child,
                        file: None,
                    });
                } else {
                    problems.push(format!(
                        "NTFS folder {:?} not walked: its record {child} was reached before",
                        shown(&path)
                    ));
                }
                continue;
            }
            let file = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                describe(ntfs, fs, child, reparse)
            }))
            .unwrap_or(FoundFile {
                size: 0,
                link: reparse,
                modified: None,
                unreadable: Some("the NTFS reader stopped with an internal error on its record"),
            });
            out.push(Found {
                record: child,
                file: Some(file),
                name: path,
            });
        }
    }
    Ok(out)
}

/// The entries of folder `record` (at `prefix` on the volume): name, record number,
/// whether a folder, whether a reparse point. `None` when the walk's budget of index
/// entries is spent (a problem says so).
fn list_folder(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    record: u64,
    prefix: &str,
    budget: u64,
    spent: &mut u64,
    problems: &mut Vec<String>,
) -> Option<Vec<(String, u64, bool, bool)>> {
    use ntfs::structured_values::{NtfsFileAttributeFlags, NtfsFileNamespace};
    let mut children = Vec::new();
    let dir = match ntfs.file(fs, record) {
        Ok(d) => d,
        Err(e) => {
            problems.push(format!(
                "NTFS folder {:?} not read: {}",
                shown(prefix),
                words(&e)
            ));
            return Some(children);
        }
    };
    // one entry: the filters of a listing, then the entry as the walk takes it
    let take = |name: String,
                record: u64,
                folder: bool,
                reparse: bool,
                problems: &mut Vec<String>,
                children: &mut Vec<(String, u64, bool, bool)>| {
        if name == "." || (prefix.is_empty() && name.starts_with('$')) {
            return;
        }
        // no NTFS name holds a `/`: one that does would stand as several folders
        if name.contains('/') || name.is_empty() {
            problems.push(format!(
                "NTFS entry {:?} of folder {:?} not read: no file can be named so",
                name,
                shown(prefix)
            ));
            return;
        }
        children.push((name, record, folder, reparse));
    };
    // a folder whose index is spread over an attribute list is read here: the `ntfs`
    // crate reads such an index from its second part on, and stops
    if dir
        .attributes_raw()
        .take(MAX_ATTRIBUTES)
        .any(|a| a.is_ok_and(|a| a.ty().ok() == Some(ntfs::NtfsAttributeType::AttributeList)))
    {
        match index_entries_of(ntfs, fs, &dir) {
            Ok(entries) => {
                for (name, entry_record, folder, reparse, namespace) in entries {
                    *spent += 1;
                    if *spent > budget {
                        problems.push(format!(
                            "NTFS volume walk stopped after {budget} index entries (more than the image can hold); what was not reached is not read"
                        ));
                        return None;
                    }
                    if namespace == NtfsFileNamespace::Dos as u8 {
                        continue;
                    }
                    take(name, entry_record, folder, reparse, problems, &mut children);
                }
            }
            Err(e) => problems.push(format!("NTFS folder {:?} not listed: {e}", shown(prefix))),
        }
        return Some(children);
    }
    let index = match dir.directory_index(fs) {
        Ok(i) => i,
        Err(e) => {
            problems.push(format!(
                "NTFS folder {:?} not listed: {}",
                shown(prefix),
                words(&e)
            ));
            return Some(children);
        }
    };
    let mut entries = index.entries();
    while let Some(entry) = entries.next(fs) {
        *spent += 1;
        if *spent > budget {
            problems.push(format!(
                "NTFS volume walk stopped after {budget} index entries (more than the image can hold); what was not reached is not read"
            ));
            return None;
        }
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.push(format!(
                    "NTFS folder {:?} listed in part: {}",
                    shown(prefix),
                    words(&e)
                ));
                break;
            }
        };
        let Some(Ok(key)) = entry.key() else {
            continue;
        };
        if key.namespace() == NtfsFileNamespace::Dos {
            continue;
        }
        let reparse = key
            .file_attributes()
            .contains(NtfsFileAttributeFlags::REPARSE_POINT);
        take(
            key.name().to_string_lossy(),
            entry.file_reference().file_record_number(),
            key.is_directory(),
            reparse,
            problems,
            &mut children,
        );
    }
    Some(children)
}

/// One entry of a folder's index: name, file record, whether a folder, whether a
/// reparse point, and the name's namespace (POSIX 0, Win32 1, DOS 2, both 3).
type IndexEntry = (String, u64, bool, bool, u8);

/// The entries of an index node held in `buf[start..end]`: each a file reference, its
/// length, its key's length and flags, then the key (a `$FILE_NAME`: the file's
/// attributes at 0x38, its name's length and namespace at 0x40, the name at 0x42); the
/// last entry of a node holds no key.
fn node_entries(
    buf: &[u8],
    start: usize,
    end: usize,
    out: &mut Vec<IndexEntry>,
) -> Result<(), String> {
    let end = end.min(buf.len());
    let mut at = start;
    while at + 16 <= end {
        let len = usize::from(le_u16(buf, at + 8));
        let key_len = usize::from(le_u16(buf, at + 10));
        if le_u32(buf, at + 12) & 2 != 0 {
            return Ok(());
        }
        if len < 16 || at + len > end {
            return Err(format!(
                "an index entry at byte {at} of its node runs past it"
            ));
        }
        let key = &buf[at + 16..(at + 16 + key_len).min(at + len)];
        if key.len() >= 0x42 {
            let name_end = 0x42 + 2 * usize::from(key[0x40]);
            let Some(name) = key.get(0x42..name_end) else {
                return Err(format!(
                    "the name of an index entry at byte {at} of its node runs past it"
                ));
            };
            let units: Vec<u16> = name
                .chunks_exact(2)
                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                .collect();
            let mut reference = [0u8; 8];
            reference[..6].copy_from_slice(&buf[at..at + 6]);
            let attributes = le_u32(key, 0x38);
            out.push((
                String::from_utf16_lossy(&units),
                u64::from_le_bytes(reference),
                attributes & 0x1000_0000 != 0,
                attributes & 0x400 != 0,
                key[0x41],
            ));
        }
        at += len;
    }
    Ok(())
}

/// An index record (`INDX`) with its update sequence applied: the last two bytes of
/// each 512-byte stride were replaced on disk by the sequence number, their bytes kept
/// in the array the header points at. A stride whose bytes do not hold the number was
/// torn in the writing.
fn index_record(block: &mut [u8]) -> Result<(), String> {
    if block.get(..4) != Some(b"INDX") {
        return Err("not an index record (no INDX signature)".into());
    }
    let (offset, count) = (usize::from(le_u16(block, 4)), usize::from(le_u16(block, 6)));
    if count < 2 || offset + 2 * count > block.len() || (count - 1) * 512 != block.len() {
        return Err("its update sequence does not fit it".into());
    }
    let number = [block[offset], block[offset + 1]];
    for i in 1..count {
        let end = i * 512;
        if block[end - 2..end] != number {
            return Err(format!(
                "torn: its sector {} does not hold its update sequence number",
                i - 1
            ));
        }
        let saved = [block[offset + 2 * i], block[offset + 2 * i + 1]];
        block[end - 2..end].copy_from_slice(&saved);
    }
    Ok(())
}

/// Every entry of folder `dir`'s `$I30` index, read from its attributes wherever the
/// attribute list puts them: the root's entries, then those of each index record its
/// `$BITMAP` marks in use (a record not in use may still hold entries of files gone
/// or moved, not the folder's). Used for a folder whose index is spread over an
/// attribute list, which the `ntfs` crate reads from its second part on.
fn index_entries_of(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    dir: &ntfs::NtfsFile<'_>,
) -> Result<Vec<IndexEntry>, String> {
    use ntfs::NtfsAttributeType as T;
    let gather = |fs: &mut VolumeCursor, ty| {
        attribute_stream(ntfs, fs, dir, ty, "$I30", true).map_err(|e| e.to_string())
    };
    let whole = |stream: &Stream, fs: &VolumeCursor, cap: u64| -> Result<Vec<u8>, String> {
        if let Some(bytes) = &stream.resident {
            return Ok(bytes.clone());
        }
        if stream.len > cap.min(fs.len) {
            return Err(format!(
                "its index attribute of {} bytes is larger than it can be",
                stream.len
            ));
        }
        let extents = Extents {
            volume: VolumeCursor {
                pos: 0,
                ..fs.clone()
            },
            runs: stream.runs.clone().unwrap_or_default(),
            len: stream.len,
            compressed: None,
        };
        let mut out = vec![0u8; stream.len as usize];
        let got = extents.fill(0, &mut out).map_err(|e| e.to_string())?;
        if got < out.len() {
            return Err(format!(
                "its index attribute holds {got} of its {} bytes",
                stream.len
            ));
        }
        Ok(out)
    };
    // the entries of the node whose header is at `header` in `b`: its offsets to its
    // first entry and to its end are the header's first two fields
    let node_at = |b: &[u8], header: usize, out: &mut Vec<IndexEntry>| {
        node_entries(
            b,
            header + le_u32(b, header) as usize,
            header + le_u32(b, header + 4) as usize,
            out,
        )
    };
    let root = gather(fs, T::IndexRoot)?.ok_or("it has no index root")?;
    let root = whole(&root, fs, 1 << 16)?;
    if root.len() < 0x20 {
        return Err("its index root is cut short".into());
    }
    let block = le_u32(&root, 8) as usize;
    let mut out = Vec::new();
    node_at(&root, 0x10, &mut out).map_err(|e| format!("its index root: {e}"))?;
    let Some(allocation) = gather(fs, T::IndexAllocation)? else {
        return Ok(out);
    };
    if !(512..=65536).contains(&block) || !block.is_power_of_two() {
        return Err(format!(
            "its index records of {block} bytes are no size NTFS writes"
        ));
    }
    let bitmap = gather(fs, T::Bitmap)?.ok_or("it has no index bitmap")?;
    let bitmap = whole(&bitmap, fs, 1 << 20)?;
    let extents = Extents {
        volume: VolumeCursor {
            pos: 0,
            ..fs.clone()
        },
        runs: allocation.runs.unwrap_or_default(),
        len: allocation.len,
        compressed: None,
    };
    let mut buf = vec![0u8; block];
    // no record past the bitmap's bits is in use (and none is read)
    let records = (allocation.len / block as u64).min(bitmap.len() as u64 * 8);
    for i in 0..records {
        let in_use = bitmap
            .get((i / 8) as usize)
            .is_some_and(|b| b & (1 << (i % 8)) != 0);
        if !in_use {
            continue;
        }
        if extents
            .fill(i * block as u64, &mut buf)
            .map_err(|e| e.to_string())?
            < block
        {
            return Err(format!("its index record {i} is cut short"));
        }
        index_record(&mut buf).map_err(|e| format!("its index record {i}: {e}"))?;
        node_at(&buf, 0x18, &mut out).map_err(|e| format!("its index record {i}: {e}"))?;
    }
    out.sort();
    Ok(out)
}

/// What a file's record says of its data: its length, time, and whether it reads.
fn describe(ntfs: &ntfs::Ntfs, fs: &mut VolumeCursor, record: u64, link: bool) -> FoundFile {
    let mut found = FoundFile {
        size: 0,
        link,
        modified: None,
        unreadable: None,
    };
    let Ok(file) = ntfs.file(fs, record) else {
        found.unreadable = Some("its file record cannot be read");
        return found;
    };
    found.modified = file
        .info()
        .ok()
        .map(|i| i.modification_time().nt_timestamp())
        .filter(|t| *t != 0);
    match unnamed_stream(ntfs, fs, &file, false) {
        Ok(None) => {}
        Err(_) => found.unreadable = Some("its data stream cannot be read"),
        Ok(Some(stream)) => {
            found.size = stream.len;
            // an NTFS-compressed file is decoded as it is read (`Extents`)
            if stream.flags.contains(ntfs::NtfsAttributeFlags::ENCRYPTED) {
                found.unreadable = Some("encrypted (EFS)");
            }
        }
    }
    found
}

/// True when file `record`'s attributes include an `$ATTRIBUTE_LIST` (its attributes
/// spread over other records).
#[cfg(test)]
pub(crate) fn has_attribute_list(ntfs: &ntfs::Ntfs, fs: &VolumeCursor, record: u64) -> bool {
    let mut cursor = fs.clone();
    cursor.pos = 0;
    ntfs.file(&mut cursor, record).is_ok_and(|file| {
        file.attributes_raw()
            .take(MAX_ATTRIBUTES)
            .any(|a| a.is_ok_and(|a| a.ty().ok() == Some(ntfs::NtfsAttributeType::AttributeList)))
    })
}

/// The most attributes read from one file record: a record is at most 4 KiB and an
/// attribute's header at least 16 bytes. The `ntfs` crate's raw iterator does not end
/// on a hostile record (an attribute of length 0 is given again and again).
const MAX_ATTRIBUTES: usize = 4096 / 16;

/// A file's unnamed data stream as its attributes describe it: its length and flags
/// (from its first attribute), and for a non-resident one its runs, each where it starts
/// in the file, its length and where it lies on the volume (`None`: sparse).
struct Stream {
    len: u64,
    flags: ntfs::NtfsAttributeFlags,
    /// The runs, `None` for a stream resident in its record (or when not asked for).
    runs: Option<Vec<(u64, u64, Option<u64>)>>,
    /// The value of a resident one (when asked for its runs).
    resident: Option<Vec<u8>>,
    /// Where its first attribute lies on the volume.
    position: Option<u64>,
}

/// The unnamed data stream of `file` ([`attribute_stream`]).
fn unnamed_stream(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    file: &ntfs::NtfsFile<'_>,
    with_runs: bool,
) -> io::Result<Option<Stream>> {
    attribute_stream(ntfs, fs, file, ntfs::NtfsAttributeType::Data, "", with_runs)
}

/// The attribute of type `ty` named `name` of `file` (the unnamed data stream, a
/// folder's `$I30` index). One whose runs do not fit in its record is spread over
/// several attributes, in other records, that its `$ATTRIBUTE_LIST` names with the
/// first cluster (VCN) each maps: they are gathered here in VCN order, the length and
/// flags taken from the first. (The `ntfs` crate's own view of such an attribute,
/// `NtfsFile::data` or a folder's index, begins at its second attribute, whose length
/// field is 0, so a fragmented file of any size would read as empty and a large folder
/// in part.) Without `with_runs`, only the length and flags are read (the walk's view
/// of each file), and `runs` is `None`.
fn attribute_stream(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    file: &ntfs::NtfsFile<'_>,
    ty: ntfs::NtfsAttributeType,
    name: &str,
    with_runs: bool,
) -> io::Result<Option<Stream>> {
    use ntfs::NtfsAttributeType as T;
    let what = "archive member not read";
    let runs_of = |attribute: &ntfs::NtfsAttribute<'_, '_>,
                   fs: &mut VolumeCursor,
                   at: &mut u64,
                   runs: &mut Vec<(u64, u64, Option<u64>)>|
     -> io::Result<()> {
        let value = attribute.value(fs).map_err(|e| ntfs_error(what, e))?;
        let ntfs::attribute_value::NtfsAttributeValue::NonResident(value) = value else {
            return Err(bad(format!(
                "{what}: a part of its data stream is not where its attribute list says"
            )));
        };
        for run in value.data_runs() {
            let run = run.map_err(|e| ntfs_error(what, e))?;
            let size = run.allocated_size();
            runs.push((*at, size, run.data_position().value().map(|p| p.get())));
            *at = at.saturating_add(size);
        }
        Ok(())
    };
    let first =
        |attribute: &ntfs::NtfsAttribute<'_, '_>, fs: &mut VolumeCursor| -> io::Result<Stream> {
            let mut stream = Stream {
                len: attribute.value_length(),
                flags: attribute.flags(),
                runs: None,
                resident: None,
                position: attribute.position().value().map(|p| p.get()),
            };
            if with_runs && attribute.is_resident() {
                if let ntfs::attribute_value::NtfsAttributeValue::Resident(v) =
                    attribute.value(fs).map_err(|e| ntfs_error(what, e))?
                {
                    stream.resident = Some(v.data().to_vec());
                }
            }
            Ok(stream)
        };
    let named = |n: Option<String>| n.as_deref().unwrap_or("\u{FFFD}") == name;
    let mut list = None;
    let mut base = None;
    for attribute in file.attributes_raw().take(MAX_ATTRIBUTES) {
        let attribute = attribute.map_err(|e| ntfs_error(what, e))?;
        match attribute.ty() {
            Ok(T::AttributeList) => list = Some(attribute),
            Ok(t)
                if t == ty
                    && base.is_none()
                    && named(attribute.name().ok().map(|n| n.to_string_lossy())) =>
            {
                base = Some(attribute)
            }
            _ => {}
        }
    }
    let Some(list) = list else {
        let Some(attribute) = base else {
            return Ok(None);
        };
        let mut stream = first(&attribute, fs)?;
        if with_runs && !attribute.is_resident() {
            let mut runs = Vec::new();
            runs_of(&attribute, fs, &mut 0, &mut runs)?;
            stream.runs = Some(runs);
        }
        return Ok(Some(stream));
    };
    // the parts of the attribute the list names, in VCN order
    let list = list
        .structured_value::<_, ntfs::structured_values::NtfsAttributeList>(fs)
        .map_err(|e| ntfs_error(what, e))?;
    let mut entries = list.entries();
    let mut parts = Vec::new();
    let mut seen = 0usize;
    while let Some(entry) = entries.next(fs) {
        // an entry is at least 26 bytes, and a list at most 256 KiB (NTFS's own bound)
        seen += 1;
        if seen > (256 << 10) / 26 {
            return Err(bad(format!(
                "{what}: its attribute list names more attributes than a list can hold"
            )));
        }
        let entry = entry.map_err(|e| ntfs_error(what, e))?;
        if entry.ty().ok() == Some(ty) && named(Some(entry.name().to_string_lossy())) {
            parts.push(entry);
        }
    }
    parts.sort_by_key(|e| e.lowest_vcn().value());
    let cluster = u64::from(ntfs.cluster_size());
    let mut stream: Option<Stream> = None;
    let mut at = 0u64;
    let mut runs = Vec::new();
    for entry in &parts {
        let record = entry.to_file(ntfs, fs).map_err(|e| ntfs_error(what, e))?;
        let attribute = entry
            .to_attribute(&record)
            .map_err(|e| ntfs_error(what, e))?;
        if stream.is_none() {
            if entry.lowest_vcn().value() != 0 {
                return Err(bad(format!(
                    "{what}: its attribute list names no first part of its data stream"
                )));
            }
            let head = first(&attribute, fs)?;
            if attribute.is_resident() || !with_runs {
                return Ok(Some(head));
            }
            runs_of(&attribute, fs, &mut at, &mut runs)?;
            stream = Some(head);
            continue;
        }
        let vcn = u64::try_from(entry.lowest_vcn().value()).unwrap_or(u64::MAX);
        if vcn.checked_mul(cluster) != Some(at) {
            return Err(bad(format!(
                "{what}: its data stream's part at cluster {vcn} does not follow the {at} bytes before it"
            )));
        }
        runs_of(&attribute, fs, &mut at, &mut runs)?;
    }
    Ok(stream.map(|mut s| {
        s.runs = Some(runs);
        s
    }))
}

/// The folder below an image where the deleted files of a volume stand, each at its
/// path on the volume (`$Deleted/Users/carol/.claude/history.jsonl`; a second deleted
/// file of the same path in `$Deleted-<record>/`): a name the walk never gives (the
/// root's `$` names are NTFS's own, left out), and one the scanner's layout passes over
/// when it reads host and user off a path.
pub(crate) const DELETED: &str = "$Deleted";

/// The file records below this are NTFS's own (`$MFT` ... and the reserved ones).
const FIRST_USER_RECORD: u64 = 24;

/// What a file record says of itself: its long name, its parent folder's record, and
/// whether it is in use and a folder. `None` for a record that holds no file.
fn record_name(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    record: u64,
) -> Option<(String, u64, bool, bool)> {
    let file = ntfs.file(fs, record).ok()?;
    let in_use = file.flags().contains(ntfs::NtfsFileFlags::IN_USE);
    let name = [
        ntfs::structured_values::NtfsFileNamespace::Win32AndDos,
        ntfs::structured_values::NtfsFileNamespace::Win32,
        ntfs::structured_values::NtfsFileNamespace::Posix,
    ]
    .into_iter()
    .find_map(|ns| file.name(fs, Some(ns), None)?.ok())?;
    Some((
        name.name().to_string_lossy(),
        name.parent_directory_reference().file_record_number(),
        in_use,
        file.is_directory(),
    ))
}

/// The files of the volume whose records are no longer in use but still name them:
/// deleted files, whose data runs may still hold their bytes (or another file's, when
/// the clusters were taken again: what is read then says so itself). Each stands at
/// `$Deleted/<its path>`, its path built from its parent folders' records: a folder the
/// walk found gives its path, a deleted one its own name and parent in turn; a file
/// whose folders cannot be followed to the root stands at `$Deleted/$Orphan/<record>
/// <name>`, and a second one of a path already taken (an older version, deleted when an
/// editor saved by rename) at `$Deleted-<record>/<its path>`. The records are read in order, at most as many as the walk's budget; one
/// the NTFS reader panics on is passed over with a problem.
pub(crate) fn deleted(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    found: &[Found],
    problems: &mut Vec<String>,
) -> Vec<Found> {
    let record_size = u64::from(ntfs.file_record_size()).max(1);
    // (its length from its first part: a `$MFT` spread over an attribute list has its
    // length there, and the `ntfs` crate's `data` would give its second part's 0)
    let mft_len = ntfs
        .file(fs, 0)
        .ok()
        .and_then(|mft| Some(unnamed_stream(ntfs, fs, &mft, false).ok()??.len))
        .unwrap_or(0);
    let budget = (fs.disk.stored() / 64).clamp(1 << 10, 1 << 24);
    let count = (mft_len / record_size).min(fs.len / record_size);
    if count > budget {
        problems.push(format!(
            "deleted files looked for in the first {budget} of the volume's {count} file records only"
        ));
    }
    let folders: std::collections::HashMap<u64, &str> = found
        .iter()
        .filter(|f| f.file.is_none())
        .map(|f| (f.record, f.name.as_str()))
        .chain([(5, "")])
        .collect();
    let mut out = Vec::new();
    let mut taken = HashSet::new();
    // deleted folders by record: their path, or none when it cannot be followed
    let mut resolved: std::collections::HashMap<u64, Option<String>> =
        std::collections::HashMap::new();
    for record in FIRST_USER_RECORD..count.min(budget) {
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let (name, parent, in_use, dir) = record_name(ntfs, fs, record)?;
            if in_use || dir || name.contains('/') {
                return None;
            }
            // up the parent folders until one the walk found or one resolved before
            // (each deleted folder is followed once, so a deep tree of them costs its
            // size, not its size times its depth), 64 deep at most
            let mut chain: Vec<(u64, String)> = Vec::new();
            let mut at = parent;
            let mut path: Option<String> = None;
            for _ in 0..64 {
                if let Some(p) = folders.get(&at) {
                    path = Some((*p).to_string());
                    break;
                }
                if let Some(known) = resolved.get(&at) {
                    path = known.clone();
                    break;
                }
                match record_name(ntfs, fs, at) {
                    Some((n, up, false, true)) if !n.contains('/') && up != at => {
                        chain.push((at, n));
                        at = up;
                    }
                    _ => break,
                }
            }
            // the folders on the way, from the top down, each with its path or none
            for (folder, n) in chain.into_iter().rev() {
                path = path.map(|p| if p.is_empty() { n } else { format!("{p}/{n}") });
                resolved.insert(folder, path.clone());
            }
            let name = match path.as_deref() {
                Some("") => name,
                Some(p) => format!("{p}/{name}"),
                None => format!("$Orphan/{record} {name}"),
            };
            Some(Found {
                name,
                record,
                file: Some(describe(ntfs, fs, record, false)),
            })
        }));
        match read {
            Ok(Some(mut f)) => {
                // an earlier version of a file (an editor's save by rename deletes the
                // old record under the same name) stands in a folder of its record's
                f.name = if taken.insert(f.name.clone()) {
                    format!("{DELETED}/{}", f.name)
                } else {
                    format!("{DELETED}-{record}/{}", f.name)
                };
                out.push(f);
            }
            Ok(None) => {}
            Err(_) => problems.push(format!(
                "file record {record} not read for a deleted file: the NTFS reader stopped with an internal error"
            )),
        }
    }
    out
}

/// A file's unnamed data stream, copied to `out` (at most `cap` bytes; more is an
/// error of kind `FileTooLarge`).
pub(crate) fn copy_data(
    ntfs: &ntfs::Ntfs,
    fs: &mut VolumeCursor,
    record: u64,
    cap: u64,
    out: &mut dyn io::Write,
) -> io::Result<u64> {
    let what = "archive member not read";
    let too_large = |len: u64| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            crate::evidence::Refusal::TooLarge { size: len, cap },
        )
    };
    // a non-resident stream (in one attribute or spread over several, stored or
    // NTFS-compressed) is read through its runs
    if let Some(extents) = extents(ntfs, fs, record)? {
        let len = extents.len();
        if len > cap {
            return Err(too_large(len));
        }
        let mut buf = vec![0u8; (64 << 10).min(len as usize)];
        let mut at = 0u64;
        while at < len {
            let n = extents.read_at(at, &mut buf).map_err(|e| {
                io::Error::new(e.kind(), format!("archive member not read whole: {e}"))
            })?;
            if n == 0 {
                break;
            }
            out.write_all(&buf[..n])?;
            at += n as u64;
        }
        if at != len {
            return Err(bad(format!(
                "archive member not read whole: {at} of its {len} bytes"
            )));
        }
        return Ok(at);
    }
    // a resident one, from its record
    let file = ntfs.file(fs, record).map_err(|e| ntfs_error(what, e))?;
    let Some(item) = file.data(fs, "") else {
        return Ok(0);
    };
    let item = item.map_err(|e| ntfs_error(what, e))?;
    let attribute = item.to_attribute().map_err(|e| ntfs_error(what, e))?;
    let len = attribute.value_length();
    if len > cap {
        return Err(too_large(len));
    }
    let value = attribute.value(fs).map_err(|e| ntfs_error(what, e))?;
    let mut reader = value.attach(fs);
    let n = io::copy(&mut (&mut reader).take(cap), out)
        .map_err(|e| io::Error::new(e.kind(), format!("archive member not read whole: {e}")))?;
    if n != len {
        return Err(bad(format!(
            "archive member not read whole: {n} of its {len} bytes"
        )));
    }
    Ok(n)
}

/// A file's data where it lies on the volume, run by run: read by ranges in place, as
/// a tar member is, so that a database of any size in an image is read page by page
/// rather than copied out first.
#[derive(Debug)]
pub(crate) struct Extents {
    volume: VolumeCursor,
    /// Each run: where it starts in the file, its length, and where it lies on the
    /// volume (`None` for a sparse run, which reads as zeros).
    runs: Vec<(u64, u64, Option<u64>)>,
    len: u64,
    /// For an NTFS-compressed file: its compression unit, and the last unit decoded.
    compressed: Option<Compressed>,
}

/// An NTFS-compressed file's compression unit (16 clusters: 64 KiB on a volume of 4 KiB
/// clusters) and the last unit read, decoded. Each unit of the file is stored as it is
/// (its runs cover it whole), not at all (sparse: zeros), or LZNT1-compressed in the
/// clusters at its start with the rest of it sparse.
#[derive(Debug)]
struct Compressed {
    unit: u64,
    last: std::sync::Mutex<Option<(u64, Vec<u8>)>>,
}

/// The largest compression unit decoded: 16 clusters of 4 KiB, the largest cluster
/// NTFS compresses.
const MAX_COMPRESSION_UNIT: u64 = 64 << 10;

/// An LZNT1 stream (an NTFS compression unit's stored bytes) decoded into `out`, at
/// most `max` bytes of it: a sequence of chunks, each a 16-bit header (its length less
/// 3 in the low 12 bits, bit 15 set when compressed; 0 ends the stream) and either 4,096
/// bytes as they are or groups of a flag byte and eight literal bytes or
/// back-references, whose split between offset and length bits depends on how far into
/// its 4,096 bytes the chunk's output is. A compressed chunk that decodes to fewer than
/// 4,096 bytes is padded with zeros, as Windows reads it. Linear in `input` and `max`.
pub(crate) fn lznt1(input: &[u8], max: usize, out: &mut Vec<u8>) -> Result<(), String> {
    const CHUNK: usize = 4096;
    out.clear();
    let mut i = 0usize;
    while i + 2 <= input.len() && out.len() < max {
        let header = u16::from_le_bytes([input[i], input[i + 1]]);
        if header == 0 {
            break;
        }
        let start = i + 2;
        let end = start + usize::from(header & 0x0FFF) + 1;
        let Some(chunk) = input.get(start..end) else {
            return Err(format!(
                "an LZNT1 chunk at byte {i} of the compression unit runs past its end"
            ));
        };
        let base = out.len();
        if header & 0x8000 == 0 {
            out.extend_from_slice(&chunk[..chunk.len().min(max - base)]);
            i = end;
            continue;
        }
        let mut j = 0usize;
        'chunk: while j < chunk.len() {
            let flags = chunk[j];
            j += 1;
            for bit in 0..8 {
                if j >= chunk.len() {
                    break 'chunk;
                }
                let pos = out.len() - base;
                if flags & (1 << bit) == 0 {
                    if pos >= CHUNK {
                        return Err(format!(
                            "an LZNT1 chunk at byte {i} of the compression unit decodes past 4096 bytes"
                        ));
                    }
                    out.push(chunk[j]);
                    j += 1;
                    continue;
                }
                let Some(token) = chunk.get(j..j + 2) else {
                    return Err(format!(
                        "an LZNT1 back-reference at byte {} of the compression unit is cut short",
                        start + j
                    ));
                };
                let token = u16::from_le_bytes([token[0], token[1]]);
                j += 2;
                // the offset takes 4 bits, and one more for each doubling of the
                // output past 16 bytes
                let mut shift = 0u32;
                let mut k = pos.saturating_sub(1);
                while k >= 0x10 {
                    shift += 1;
                    k >>= 1;
                }
                let back = usize::from(token >> (12 - shift)) + 1;
                let len = usize::from(token & (0x0FFF >> shift)) + 3;
                if back > pos || pos + len > CHUNK {
                    return Err(format!(
                        "an LZNT1 back-reference at byte {} of the compression unit points outside its chunk",
                        start + j - 2
                    ));
                }
                for _ in 0..len {
                    out.push(out[out.len() - back]);
                }
            }
        }
        // a short chunk reads as padded with zeros
        let full = (base + CHUNK).min(max);
        if out.len() < full {
            out.resize(full, 0);
        }
        i = end;
    }
    out.truncate(max);
    Ok(())
}

impl Extents {
    /// True for an NTFS-compressed file, decoded unit by unit.
    #[cfg(test)]
    pub(crate) fn is_compressed(&self) -> bool {
        self.compressed.is_some()
    }

    /// The file's length.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Reads file bytes from `at` until `buf` is full or the file ends: how many.
    fn fill(&self, at: u64, buf: &mut [u8]) -> io::Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            match self.read_at(at + got as u64, &mut buf[got..])? {
                0 => break,
                n => got += n,
            }
        }
        Ok(got)
    }

    /// Reads file bytes from `at` into `buf`; 0 at the file's end.
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<usize> {
        if at >= self.len || buf.is_empty() {
            return Ok(0);
        }
        if let Some(c) = &self.compressed {
            let u = at / c.unit;
            let mut last = c
                .last
                .lock()
                .map_err(|_| bad("a compression unit's reader failed"))?;
            let bytes = match &mut *last {
                Some((k, bytes)) if *k == u => bytes,
                slot => {
                    let bytes = self.unit(u, c.unit)?;
                    &mut slot.insert((u, bytes)).1
                }
            };
            let within = (at - u * c.unit) as usize;
            let n = buf
                .len()
                .min(bytes.len().saturating_sub(within))
                .min(usize::try_from(self.len - at).unwrap_or(usize::MAX));
            buf[..n].copy_from_slice(&bytes[within..within + n]);
            return Ok(n);
        }
        let i = self.runs.partition_point(|r| r.0 + r.1 <= at);
        let Some(&(start, len, place)) = self.runs.get(i) else {
            return Err(bad(format!(
                "byte {at} of the file lies past its data runs"
            )));
        };
        let within = at - start;
        let n = (buf.len() as u64).min(len - within).min(self.len - at) as usize;
        match place {
            None => {
                buf[..n].fill(0);
                Ok(n)
            }
            Some(p) => {
                let from = p.saturating_add(within);
                if from.saturating_add(n as u64) > self.volume.len {
                    return Err(bad(format!(
                        "a data run of the file at byte {p} of the volume runs past the volume's end"
                    )));
                }
                self.volume
                    .disk
                    .read_at(self.volume.start + from, &mut buf[..n])
            }
        }
    }
}

impl Extents {
    /// Compression unit `u` of an NTFS-compressed file, decoded: `unit` bytes.
    fn unit(&self, u: u64, unit: u64) -> io::Result<Vec<u8>> {
        let from = u * unit;
        let to = from + unit;
        let mut stored = Vec::new();
        let mut sparse = false;
        let mut i = self.runs.partition_point(|r| r.0 + r.1 <= from);
        while let Some(&(start, len, place)) = self.runs.get(i) {
            if start >= to {
                break;
            }
            let (a, b) = (start.max(from), (start + len).min(to));
            match place {
                None => sparse = true,
                Some(_) if sparse => {
                    return Err(bad(format!(
                        "compression unit {u} of the file has data after its sparse part"
                    )));
                }
                Some(p) => {
                    let on = p.saturating_add(a - start);
                    if on.saturating_add(b - a) > self.volume.len {
                        return Err(bad(format!(
                            "a data run of the file at byte {p} of the volume runs past the volume's end"
                        )));
                    }
                    let k = stored.len();
                    stored.resize(k + (b - a) as usize, 0);
                    let mut done = k;
                    while done < stored.len() {
                        let n = self.volume.disk.read_at(
                            self.volume.start + on + (done - k) as u64,
                            &mut stored[done..],
                        )?;
                        if n == 0 {
                            return Err(bad(format!(
                                "a data run of the file at byte {p} of the volume runs past the image's end"
                            )));
                        }
                        done += n;
                    }
                }
            }
            i += 1;
        }
        let unit = unit as usize;
        if stored.len() == unit {
            return Ok(stored);
        }
        let mut out = Vec::with_capacity(unit);
        if !stored.is_empty() {
            lznt1(&stored, unit, &mut out)
                .map_err(|e| bad(format!("compression unit {u} of the file not decoded: {e}")))?;
        }
        out.resize(unit, 0);
        Ok(out)
    }
}

/// The runs of file `record`'s unnamed data stream, when it is one non-resident
/// attribute; `None` when it is resident (a few hundred bytes in its record) or spread
/// over an attribute list, which are read whole instead.
pub(crate) fn extents(
    ntfs: &ntfs::Ntfs,
    fs: &VolumeCursor,
    record: u64,
) -> io::Result<Option<Extents>> {
    let what = "archive member not read";
    let mut cursor = fs.clone();
    cursor.pos = 0;
    let file = ntfs
        .file(&mut cursor, record)
        .map_err(|e| ntfs_error(what, e))?;
    let Some(stream) = unnamed_stream(ntfs, &mut cursor, &file, true)? else {
        return Ok(None);
    };
    let Some(mut runs) = stream.runs else {
        return Ok(None);
    };
    let len = stream.len;
    let compressed = if stream.flags.contains(ntfs::NtfsAttributeFlags::COMPRESSED) {
        let unit = compression_unit(ntfs, fs, stream.position)?;
        if unit == 0 || unit > MAX_COMPRESSION_UNIT {
            return Err(bad(format!(
                "{what}: NTFS-compressed in units of {unit} bytes, which this reader does not decode"
            )));
        }
        Some(Compressed {
            unit,
            last: std::sync::Mutex::new(None),
        })
    } else {
        None
    };
    // the runs past the stream's length are not part of it
    let held = runs.partition_point(|r| r.0 < len);
    runs.truncate(held);
    let at = runs.last().map_or(0, |r| r.0.saturating_add(r.1));
    if at < len {
        return Err(bad(format!(
            "{what}: its data runs hold {at} of its {len} bytes"
        )));
    }
    Ok(Some(Extents {
        volume: cursor,
        runs,
        len,
        compressed,
    }))
}

/// The compression unit of a non-resident attribute, in bytes: its cluster size times
/// two to the exponent its header keeps at byte 0x22 (read from the volume, since the
/// NTFS reader does not give it; 4, the one exponent Windows writes, when the byte is
/// one a file record's update sequence replaces on disk, the last two of a sector).
fn compression_unit(ntfs: &ntfs::Ntfs, fs: &VolumeCursor, at: Option<u64>) -> io::Result<u64> {
    let cluster = u64::from(ntfs.cluster_size());
    let exponent = match at.and_then(|a| a.checked_add(0x22)) {
        Some(p) if p % 512 < 510 && p < fs.len => {
            let mut b = [0u8; 1];
            if fs.disk.read_at(fs.start + p, &mut b)? == 1 {
                u32::from(b[0])
            } else {
                4
            }
        }
        _ => 4,
    };
    Ok(if exponent == 0 || exponent > 16 {
        0
    } else {
        cluster << exponent
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_is_castagnoli() {
        // the check value of CRC-32C
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn guids_are_stored_mixed_endian() {
        assert_eq!(
            BAT_REGION,
            [
                0x66, 0x77, 0xC2, 0x2D, 0x23, 0xF6, 0x00, 0x42, 0x9D, 0x64, 0x11, 0x5E, 0x9B, 0xFD,
                0x4A, 0x08
            ]
        );
    }

    /// LZNT1 as NTFS writes it: literals, a back-reference that overlaps its own
    /// output, a chunk stored as it is, a short chunk padded with zeros to 4,096 bytes,
    /// the stream's end; and what cannot be decoded said, never a panic.
    #[test]
    fn lznt1_decodes_as_ntfs_reads_it() {
        let mut out = Vec::new();
        // "abc", then 9 bytes from 3 back: a flag byte 0b1000, the token (2 << 12) | 6
        let abc = [0x05, 0xB0, 0x08, b'a', b'b', b'c', 0x06, 0x20];
        lznt1(&abc, 12, &mut out).unwrap();
        assert_eq!(out, b"abcabcabcabc");
        // the chunk is padded to 4,096 bytes, then a stored chunk follows
        let mut two = abc.to_vec();
        two.extend_from_slice(&[0xFF, 0x3F]);
        two.extend((0..4096u32).map(|i| (i % 251) as u8));
        two.extend_from_slice(&[0, 0, 0xAA]);
        lznt1(&two, 16 << 10, &mut out).unwrap();
        assert_eq!(out.len(), 8192);
        assert_eq!(&out[..12], b"abcabcabcabc");
        assert!(out[12..4096].iter().all(|b| *b == 0));
        assert!(
            out[4096..]
                .iter()
                .enumerate()
                .all(|(i, b)| *b == (i % 251) as u8)
        );
        // past 16 bytes of output the offset takes a fifth bit: 17 literals, then 4
        // bytes from 17 back (token (16 << 11) | 1)
        let mut data = vec![0x00];
        data.extend_from_slice(b"abcdefgh");
        data.push(0x00);
        data.extend_from_slice(b"ijklmnop");
        data.extend_from_slice(&[0x02, b'q']);
        data.extend_from_slice(&((16u16 << 11) | 1).to_le_bytes());
        let mut long = (0xB000 | (data.len() as u16 - 1)).to_le_bytes().to_vec();
        long.extend_from_slice(&data);
        lznt1(&long, 21, &mut out).unwrap();
        assert_eq!(out, b"abcdefghijklmnopqabcd");
        // errors
        assert_eq!(
            lznt1(&[0x05, 0xB0, 0x08, b'a'], 100, &mut out),
            Err("an LZNT1 chunk at byte 0 of the compression unit runs past its end".into())
        );
        assert_eq!(
            lznt1(&[0x02, 0xB0, 0x01, 0x06, 0x20], 100, &mut out),
            Err("an LZNT1 back-reference at byte 3 of the compression unit points outside its chunk".into())
        );
        assert_eq!(
            lznt1(&[0x01, 0xB0, 0x01, 0x06], 100, &mut out),
            Err("an LZNT1 back-reference at byte 3 of the compression unit is cut short".into())
        );
        // any bytes: an error or at most `max` bytes, never a panic
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..20_000 {
            let len = (round % 300) + 2;
            let mut input: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            // a plausible header half the time
            if round % 2 == 0 {
                input[1] = 0xB0 | (input[1] & 0x0F);
            }
            if lznt1(&input, 8192, &mut out).is_ok() {
                assert!(out.len() <= 8192);
            }
        }
    }

    /// A compressed file's units as NTFS lays them out: one stored whole (its runs
    /// cover it), one sparse (zeros), one LZNT1-compressed in a cluster with the rest
    /// sparse, read across their boundaries; a unit that does not decode, and one with
    /// data after its sparse part, are errors that name the unit.
    #[test]
    fn a_compressed_files_units_read_as_stored_sparse_or_decoded() {
        const CLUSTER: u64 = 512;
        const UNIT: u64 = 16 * CLUSTER;
        // the volume: 16 clusters of a stored unit, then one of a compressed unit, then
        // one of a unit that does not decode
        let stored: Vec<u8> = (0..UNIT).map(|i| (i % 199) as u8).collect();
        let mut volume = stored.clone();
        let mut packed = vec![0x05, 0xB0, 0x08, b'a', b'b', b'c', 0x06, 0x20];
        packed.resize(CLUSTER as usize, 0);
        volume.extend_from_slice(&packed);
        let mut broken = vec![0x02, 0xB0, 0x01, 0x06, 0x20];
        broken.resize(CLUSTER as usize, 0);
        volume.extend_from_slice(&broken);
        let on_volume = volume.len() as u64;
        let disk =
            Arc::new(Disk::raw(vec![Arc::new(RangedFile::in_memory(Arc::from(volume)))]).unwrap());
        let extents = |runs: Vec<(u64, u64, Option<u64>)>, len: u64| Extents {
            volume: VolumeCursor {
                disk: disk.clone(),
                start: 0,
                len: on_volume,
                pos: 0,
                mft: None,
            },
            runs,
            len,
            compressed: Some(Compressed {
                unit: UNIT,
                last: std::sync::Mutex::new(None),
            }),
        };
        let file = extents(
            vec![
                (0, UNIT, Some(0)),
                (UNIT, UNIT, None),
                (2 * UNIT, CLUSTER, Some(UNIT)),
                (2 * UNIT + CLUSTER, UNIT - CLUSTER, None),
                (3 * UNIT, CLUSTER, Some(UNIT + CLUSTER)),
                (3 * UNIT + CLUSTER, UNIT - CLUSTER, None),
            ],
            3 * UNIT + 100,
        );
        let mut all = vec![0u8; (3 * UNIT) as usize];
        let mut at = 0;
        while at < all.len() {
            // pieces of 1,000 bytes, across the units' boundaries
            let end = (at + 1000).min(all.len());
            let n = file.read_at(at as u64, &mut all[at..end]).unwrap();
            assert!(n > 0);
            at += n;
        }
        assert!(all[..UNIT as usize] == stored[..]);
        assert!(
            all[UNIT as usize..2 * UNIT as usize]
                .iter()
                .all(|b| *b == 0)
        );
        assert_eq!(
            &all[2 * UNIT as usize..2 * UNIT as usize + 12],
            b"abcabcabcabc"
        );
        assert!(all[2 * UNIT as usize + 12..].iter().all(|b| *b == 0));
        let mut buf = [0u8; 10];
        assert_eq!(
            file.read_at(3 * UNIT, &mut buf).unwrap_err().to_string(),
            "compression unit 3 of the file not decoded: an LZNT1 back-reference at byte 3 of the compression unit points outside its chunk"
        );
        // data after the sparse part of a unit
        let odd = extents(
            vec![(0, CLUSTER, None), (CLUSTER, UNIT - CLUSTER, Some(0))],
            UNIT,
        );
        assert_eq!(
            odd.read_at(0, &mut buf).unwrap_err().to_string(),
            "compression unit 0 of the file has data after its sparse part"
        );
    }

    /// An index record's update sequence is applied (each stride's last two bytes put
    /// back), a torn one or one without its signature refused; an index node's entries
    /// are read with their names, records, folder and reparse flags and namespaces, to
    /// the entry that ends it, and one that runs past the node is an error.
    #[test]
    fn index_records_and_their_entries_read_as_ntfs_writes_them() {
        // an entry: reference, length, key length, flags, then a $FILE_NAME key
        let entry = |record: u64, name: &str, attributes: u32, namespace: u8| {
            let units: Vec<u16> = name.encode_utf16().collect();
            let key_len = 0x42 + 2 * units.len();
            let len = (16 + key_len).div_ceil(8) * 8;
            let mut e = vec![0u8; len];
            e[..8].copy_from_slice(&(record | (1 << 48)).to_le_bytes());
            e[8..10].copy_from_slice(&(len as u16).to_le_bytes());
            e[10..12].copy_from_slice(&(key_len as u16).to_le_bytes());
            e[16 + 0x38..16 + 0x3C].copy_from_slice(&attributes.to_le_bytes());
            e[16 + 0x40] = units.len() as u8;
            e[16 + 0x41] = namespace;
            for (i, u) in units.iter().enumerate() {
                e[16 + 0x42 + 2 * i..16 + 0x44 + 2 * i].copy_from_slice(&u.to_le_bytes());
            }
            e
        };
        let mut node = Vec::new();
        node.extend(entry(70, "history.jsonl", 0x20, 3));
        node.extend(entry(71, "projects", 0x1000_0010, 1));
        node.extend(entry(71, "PROJEC~1", 0x1000_0010, 2));
        node.extend(entry(72, "junction", 0x400, 1));
        let mut last = vec![0u8; 16];
        last[8] = 16;
        last[12] = 2;
        node.extend(&last);
        // a record of 1,024 bytes: header, update sequence at 0x28, node header at 0x18
        let mut block = vec![0u8; 1024];
        block[..4].copy_from_slice(b"INDX");
        block[4..6].copy_from_slice(&0x28u16.to_le_bytes());
        block[6..8].copy_from_slice(&3u16.to_le_bytes());
        block[0x28..0x2E].copy_from_slice(&[7, 0, 0xAB, 0xCD, 0xEF, 0x01]);
        block[0x18..0x1C].copy_from_slice(&0x28u32.to_le_bytes());
        block[0x1C..0x20].copy_from_slice(&(0x28 + node.len() as u32).to_le_bytes());
        block[0x40..0x40 + node.len()].copy_from_slice(&node);
        block[510..512].copy_from_slice(&[7, 0]);
        block[1022..1024].copy_from_slice(&[7, 0]);
        let mut read = block.clone();
        index_record(&mut read).unwrap();
        assert_eq!(
            (&read[510..512], &read[1022..1024]),
            (&[0xAB, 0xCD][..], &[0xEF, 0x01][..])
        );
        let mut out = Vec::new();
        node_entries(&read, 0x18 + 0x28, 0x18 + 0x28 + node.len(), &mut out).unwrap();
        assert_eq!(
            out,
            [
                ("history.jsonl".to_string(), 70, false, false, 3),
                ("projects".to_string(), 71, true, false, 1),
                ("PROJEC~1".to_string(), 71, true, false, 2),
                ("junction".to_string(), 72, false, true, 1),
            ]
        );
        // torn, no signature, an update sequence that does not fit
        let mut torn = block.clone();
        torn[1022] = 8;
        assert_eq!(
            index_record(&mut torn),
            Err("torn: its sector 1 does not hold its update sequence number".into())
        );
        let mut other = block.clone();
        other[0] = b'F';
        assert_eq!(
            index_record(&mut other),
            Err("not an index record (no INDX signature)".into())
        );
        let mut short = block.clone();
        short[6..8].copy_from_slice(&2u16.to_le_bytes());
        assert_eq!(
            index_record(&mut short),
            Err("its update sequence does not fit it".into())
        );
        // an entry longer than its node
        let mut out = Vec::new();
        assert_eq!(
            node_entries(&node, 0, 100, &mut out),
            Err("an index entry at byte 0 of its node runs past it".into())
        );
    }

    /// A fixture image's volume, copied into memory (so that a test may turn its
    /// bytes).
    fn fixture_volume(image: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/disks")
            .join(image);
        let bytes = std::fs::read(&path).unwrap();
        let file = Arc::new(RangedFile::in_memory(Arc::from(bytes)));
        let mut problems = Vec::new();
        let disk = Disk::ewf(vec![file], &[image.into()], &mut problems).unwrap();
        let volume = disk.volumes(&mut problems).unwrap().remove(0);
        assert_eq!(problems, Vec::<String>::new());
        let mut copy = vec![0u8; volume.len as usize];
        let mut at = 0;
        while at < copy.len() {
            let n = disk
                .read_at(volume.start + at as u64, &mut copy[at..])
                .unwrap();
            assert!(n > 0);
            at += n;
        }
        copy
    }

    fn cursor_of(bytes: &[u8]) -> VolumeCursor {
        let disk = Disk::raw(vec![Arc::new(RangedFile::in_memory(Arc::from(bytes)))]).unwrap();
        VolumeCursor {
            disk: Arc::new(disk),
            start: 0,
            len: bytes.len() as u64,
            pos: 0,
            mft: None,
        }
    }

    /// Each file record of the `$MFT` as the `ntfs` crate reads it: its flags and first
    /// name, or `None` when it cannot.
    fn records(ntfs: &ntfs::Ntfs, fs: &mut VolumeCursor, count: u64) -> Vec<Option<(u16, String)>> {
        (0..count)
            .map(|r| {
                let f = ntfs.file(fs, r).ok()?;
                let name = f.name(fs, None, None).and_then(|n| n.ok());
                Some((
                    f.flags().bits(),
                    name.map(|n| n.name().to_string_lossy()).unwrap_or_default(),
                ))
            })
            .collect()
    }

    /// A volume's `$MFT` runs (where each starts in it and its length, in bytes), the
    /// crate's records before and after [`whole_mft`], the problems.
    #[allow(clippy::type_complexity)]
    fn before_and_after(
        bytes: &[u8],
    ) -> (
        Vec<(u64, u64)>,
        Vec<Option<(u16, String)>>,
        Vec<Option<(u16, String)>>,
        Vec<String>,
    ) {
        let mut fs = cursor_of(bytes);
        let ntfs = ntfs::Ntfs::new(&mut fs.clone()).unwrap();
        let size = u64::from(ntfs.file_record_size());
        let file = ntfs.file(&mut fs, 0).unwrap();
        let stream = unnamed_stream(&ntfs, &mut fs, &file, true)
            .unwrap()
            .unwrap();
        drop(file);
        let runs = stream
            .runs
            .unwrap()
            .iter()
            .map(|&(start, len, _)| (start, len))
            .collect();
        let count = stream.len / size;
        let before = records(&ntfs, &mut fs, count);
        let mut problems = Vec::new();
        let (whole, mut shown) = whole_mft(ntfs, fs.clone(), &mut problems);
        let after = records(&whole, &mut shown, count);
        // the volume reads as it is, but for the boot sector's `$MFT` cluster
        if shown.mft.is_some() {
            let mut plain = vec![0u8; 1 << 20];
            let mut through = vec![0u8; 1 << 20];
            fs.seek(SeekFrom::Start(0)).unwrap();
            fs.read_exact(&mut plain).unwrap();
            shown.seek(SeekFrom::Start(0)).unwrap();
            shown.read_exact(&mut through).unwrap();
            assert_eq!(plain[..0x30], through[..0x30]);
            assert_eq!(plain[0x38..], through[0x38..]);
            assert_ne!(plain[0x30..0x38], through[0x30..0x38]);
        }
        (runs, before, after, problems)
    }

    /// The records the crate read before, as they were; the numbers of those it did not.
    fn unread_then(
        before: &[Option<(u16, String)>],
        after: &[Option<(u16, String)>],
    ) -> Vec<usize> {
        for (r, (b, a)) in before.iter().zip(after).enumerate() {
            if b.is_some() {
                assert_eq!(b, a, "record {r}");
            }
        }
        (0..before.len()).filter(|&r| before[r].is_none()).collect()
    }

    /// A `$MFT` in several runs of 512-byte clusters: the `ntfs` crate reads a record
    /// from where its first byte lies, so a record across two runs was read from the
    /// wrong bytes (an error); shown the whole `$MFT` ([`whole_mft`]), it reads every
    /// record, and those it read before as they were.
    #[test]
    fn a_record_across_two_runs_of_the_mft_is_read_from_its_bytes() {
        let bytes = fixture_volume("fragmented/WS-FRAG01.E01");
        let (runs, before, after, problems) = before_and_after(&bytes);
        assert_eq!((runs.len(), before.len()), (166, 5_787));
        // the runs that begin half way into a record (1,024 bytes in 512-byte clusters)
        let straddling: Vec<u64> = runs
            .iter()
            .filter(|&&(start, _)| start % 1024 != 0)
            .map(|&(start, _)| start / 1024)
            .collect();
        assert_eq!(straddling, [2047, 3840, 5514, 5583]);
        assert_eq!(unread_then(&before, &after), [2047, 3840, 5514, 5583]);
        assert_eq!(after.iter().flatten().count(), 5_787);
        assert_eq!(after[5].as_ref().unwrap().1, ".");
        assert_eq!(problems, Vec::<String>::new());
    }

    /// A `$MFT` whose `$DATA` is spread over an attribute list (its second part in
    /// record 15): the `ntfs` crate finds records through the first part only, and the
    /// records past it were errors; shown the whole `$MFT` it reads them all. One whose
    /// list cannot be followed is named, and the volume read as before.
    #[test]
    fn a_mft_spread_over_an_attribute_list_is_read_whole() {
        let bytes = fixture_volume("mft-spread/WS-MFT01.E01");
        let (runs, before, after, problems) = before_and_after(&bytes);
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!((runs.len(), before.len()), (248, 10_077));
        // where the first part, in record 0, ends: the records from there on were not
        // read, every one after
        let first_part = {
            let mut fs = cursor_of(&bytes);
            let ntfs = ntfs::Ntfs::new(&mut fs.clone()).unwrap();
            let file = ntfs.file(&mut fs, 0).unwrap();
            let data = file
                .attributes_raw()
                .find_map(|a| {
                    let a = a.ok()?;
                    (a.ty().ok()? == ntfs::NtfsAttributeType::Data).then_some(a)
                })
                .unwrap();
            let ntfs::attribute_value::NtfsAttributeValue::NonResident(v) =
                data.value(&mut fs).unwrap()
            else {
                panic!("a resident $MFT")
            };
            v.data_runs()
                .map(|r| r.unwrap().allocated_size())
                .sum::<u64>()
                / 1024
        };
        assert_eq!(first_part, 8_988);
        let unread = unread_then(&before, &after);
        assert_eq!(unread, (8_988..10_077).collect::<Vec<usize>>());
        assert_eq!(after.iter().flatten().count(), 10_077);

        // record 15, which holds the `$MFT`'s second part, its signature turned: the
        // list cannot be followed, the problem says why, and the volume is read as
        // before
        let at = {
            let mut fs = cursor_of(&bytes);
            let ntfs = ntfs::Ntfs::new(&mut fs.clone()).unwrap();
            ntfs.file(&mut fs, 15)
                .unwrap()
                .position()
                .value()
                .unwrap()
                .get()
        };
        let mut turned = bytes.clone();
        turned[at as usize] = b'X';
        let fs = cursor_of(&turned);
        let ntfs = ntfs::Ntfs::new(&mut fs.clone()).unwrap();
        let mut problems = Vec::new();
        let (_, kept) = whole_mft(ntfs, fs, &mut problems);
        assert!(kept.mft.is_none());
        assert_eq!(
            problems,
            [format!(
                "the volume's $MFT is spread over an attribute list that cannot be followed (The NTFS File Record at byte position {at:#x} should have signature [70, 73, 76, 69], but it has signature [88, 73, 76, 69]): the file records past its first part are not read"
            )]
        );
    }

    /// A VHDX copied while mounted holds writes in its log that its blocks do not: the
    /// log is replayed in memory (the allocation of the block holding the volume's
    /// boot sector, in the fixture), and a log that cannot be replayed is named, the
    /// blocks read as they stand. (That the file is not written is checked where the
    /// image is scanned, `tests/virtual_disks.rs`.)
    #[test]
    fn a_vhdx_log_is_replayed_in_memory_or_named() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/disks/log/WIN-DESK03.vhdx");
        let bytes = std::fs::read(&path).unwrap();
        let open = |bytes: &[u8]| {
            let mut problems = Vec::new();
            let disk = Disk::vhdx(
                Arc::new(RangedFile::in_memory(Arc::from(bytes))),
                &mut problems,
            )
            .unwrap();
            let mut boot = [0u8; 512];
            assert_eq!(disk.read_at(1 << 20, &mut boot).unwrap(), 512);
            (boot, problems)
        };
        let (boot, problems) = open(&bytes);
        assert_eq!(&boot[3..11], b"NTFS    ");
        assert_eq!(problems, Vec::<String>::new());

        // the current header (the larger sequence number), to turn its fields
        let header = [64usize << 10, 128 << 10]
            .into_iter()
            .max_by_key(|&at| le_u64(&bytes, at + 8))
            .unwrap();
        let (log_len, log_at) = (le_u32(&bytes, header + 68), le_u64(&bytes, header + 72));
        assert_eq!((log_len, log_at), (1 << 20, 1 << 20));
        let with_header = |f: &dyn Fn(&mut [u8])| {
            let mut b = bytes.clone();
            f(&mut b[header..header + 4096]);
            b[header + 4..header + 8].fill(0);
            let crc = crc32c(&b[header..header + 4096]);
            b[header + 4..header + 8].copy_from_slice(&crc.to_le_bytes());
            b
        };
        let not = |why: &str| {
            vec![format!(
                "the VHDX log not replayed: {why}; the blocks are read as they stand, and may miss writes the log holds"
            )]
        };
        // a log past the file's end
        let past = with_header(&|h| h[72..80].copy_from_slice(&(1u64 << 40).to_le_bytes()));
        let (boot, problems) = open(&past);
        assert_eq!(boot, [0u8; 512]);
        assert_eq!(
            problems,
            not(&format!(
                "its header puts a log of 1048576 bytes at byte 1099511627776 of a file of {}",
                bytes.len()
            ))
        );
        // a log of another version
        let (_, problems) = open(&with_header(&|h| h[64] = 1));
        assert_eq!(problems, not("a log of version 1"));
        // the entry torn (a byte of its data sector turned): no valid entry
        let mut torn = bytes.clone();
        torn[log_at as usize + 4096 + 100] ^= 0xFF;
        let (boot, problems) = open(&torn);
        assert_eq!(boot, [0u8; 512]);
        assert_eq!(
            problems,
            not("its header names a log, and the log holds no valid entry (torn or damaged)")
        );
        // no log named: the blocks as they stand, and nothing to say
        let (boot, problems) = open(&with_header(&|h| h[48..64].fill(0)));
        assert_eq!((boot, problems), ([0u8; 512], Vec::<String>::new()));
        // a copy cut short: the entry says the file was longer
        let short = &bytes[..bytes.len() - (1 << 20)];
        let (_, problems) = open(short);
        assert_eq!(
            problems,
            [format!(
                "the VHDX log's last entry (sequence 42) was written when the file was {} bytes long; it is {}: the copy is cut short",
                bytes.len(),
                short.len()
            )]
        );
    }
}
