//! A VHDX's log, replayed in memory.
//!
//! A VHDX changes its own metadata (the block allocation table, the metadata region)
//! through a log: each change is first written as an entry of the log, a circular
//! buffer in the file, and only then to its place. An image copied while it was
//! mounted, or left by a machine that stopped, may hold entries not yet applied: a
//! block its table does not yet name reads as zeros, though its bytes are in the file.
//! Windows and QEMU replay the log when they open such an image, and write the result
//! into the file; here the log is replayed into a map of the sectors it writes, and the
//! image is read through that map ([`Replayed`]): the file is never written.
//!
//! The format is MS-VHDX's (its "Log" section), read as QEMU's `block/vhdx-log.c`
//! reads it (a peer; QEMU replays only when it may write the file): an entry is a
//! 64-byte header (`loge`, a CRC-32C of the whole entry, its length, the tail, its
//! sequence number, how many descriptors, the log's GUID, the file's flushed and last
//! offsets), its 32-byte descriptors (`desc`: a 4 KiB sector written at a file offset,
//! its first 8 and last 4 bytes held in the descriptor; `zero`: a range of zeros), and
//! one 4 KiB data sector (`data`, the sequence number's halves around 4,084 bytes) for
//! each `desc`. The active sequence is the longest run of valid entries whose sequence
//! numbers follow one another, the one whose last entry has the highest number; it is
//! applied from the entry its last entry's tail names (all of it when the tail is not
//! one of its entries), in order.
//!
//! Every length is checked against the log before it is used, and the search stops,
//! with a problem, after checksumming four times the log's length, so that a hostile
//! log costs a bounded multiple of its size.

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;

use crate::evidence::RangedFile;

/// A log sector, and the unit of every write the log holds.
const SECTOR: u64 = 4096;

/// The largest log replayed (MS-VHDX allows up to 4 GiB; Hyper-V writes 1 MiB).
const MAX_LOG: u64 = 256 << 20;

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default())
}

/// One write of a log entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Write {
    /// A 4 KiB sector at this file offset.
    Sector(u64, Arc<[u8]>),
    /// `len` bytes of zeros at this file offset.
    Zeros(u64, u64),
}

/// A valid log entry.
#[derive(Debug)]
struct Entry {
    /// Where it starts in the log, in sectors.
    at: u64,
    /// Its length in sectors.
    sectors: u64,
    sequence: u64,
    /// Where the oldest entry not yet applied starts, in bytes into the log.
    tail: u64,
    /// How long the file was when the entry was written (its writes flushed to it).
    flushed_file_offset: u64,
    last_file_offset: u64,
    writes: Vec<Write>,
}

/// The entry at sector `at` of `log` when it is a valid one of this log (`guid`), and
/// how many bytes were checksummed to tell.
fn entry(log: &[u8], at: u64, guid: &[u8]) -> (Option<Entry>, u64) {
    let len = log.len() as u64;
    let count = len / SECTOR;
    let sector = |i: u64| -> &[u8] {
        let s = ((at + i) % count * SECTOR) as usize;
        &log[s..s + SECTOR as usize]
    };
    let head = sector(0);
    let entry_length = u64::from(le_u32(head, 8));
    let sequence = le_u64(head, 16);
    let descriptors = u64::from(le_u32(head, 24));
    if &head[..4] != b"loge"
        || entry_length == 0
        || entry_length % SECTOR != 0
        || entry_length > len
        || sequence == 0
        || head[32..48] != *guid
    {
        return (None, 0);
    }
    let sectors = entry_length / SECTOR;
    // the header and 126 descriptors in the first sector, 128 in each after it
    let descriptor_sectors = (descriptors + 2).div_ceil(128);
    if descriptor_sectors > sectors {
        return (None, 0);
    }
    let mut bytes = Vec::with_capacity(entry_length as usize);
    for i in 0..sectors {
        bytes.extend_from_slice(sector(i));
    }
    let stored = le_u32(&bytes, 4);
    bytes[4..8].fill(0);
    if crate::vdisk::crc32c(&bytes) != stored {
        return (None, entry_length);
    }
    let mut writes = Vec::new();
    let mut data = descriptor_sectors;
    for i in 0..descriptors as usize {
        let d = &bytes[64 + 32 * i..96 + 32 * i];
        let offset = le_u64(d, 16);
        if le_u64(d, 24) != sequence || offset % SECTOR != 0 {
            return (None, entry_length);
        }
        match &d[..4] {
            b"zero" => {
                let zeros = le_u64(d, 8);
                if zeros % SECTOR != 0 {
                    return (None, entry_length);
                }
                writes.push(Write::Zeros(offset, zeros));
            }
            b"desc" => {
                if data >= sectors {
                    return (None, entry_length);
                }
                let s = &bytes[(data * SECTOR) as usize..((data + 1) * SECTOR) as usize];
                let seq = (u64::from(le_u32(s, 4)) << 32) | u64::from(le_u32(s, 4092));
                if &s[..4] != b"data" || seq != sequence {
                    return (None, entry_length);
                }
                let mut sector = Vec::with_capacity(SECTOR as usize);
                sector.extend_from_slice(&d[8..16]);
                sector.extend_from_slice(&s[8..4092]);
                sector.extend_from_slice(&d[4..8]);
                writes.push(Write::Sector(offset, sector.into()));
                data += 1;
            }
            _ => return (None, entry_length),
        }
    }
    (
        Some(Entry {
            at,
            sectors,
            sequence,
            tail: u64::from(le_u32(head, 12)),
            flushed_file_offset: le_u64(head, 48),
            last_file_offset: le_u64(head, 56),
            writes,
        }),
        entry_length,
    )
}

/// A log's active sequence: its writes in the order they are applied, the file's
/// length once they are, and the length the file had when its last entry was written.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Active {
    pub(crate) writes: Vec<Write>,
    pub(crate) size: u64,
    pub(crate) flushed: u64,
    /// How many entries, and the last one's sequence number.
    pub(crate) entries: usize,
    pub(crate) sequence: u64,
}

/// The log's active sequence (`None`: no valid entry). `Err` names why the log was not
/// searched whole.
pub(crate) fn active(log: &[u8], guid: &[u8]) -> Result<Option<Active>, String> {
    let len = log.len() as u64;
    if len == 0 || len % SECTOR != 0 {
        return Err(format!("a log of {len} bytes"));
    }
    let count = len / SECTOR;
    let budget = len.saturating_mul(4);
    let mut spent = 0u64;
    let mut best: Option<Vec<Entry>> = None;
    let mut start = 0u64;
    while start < count {
        let mut chain: Vec<Entry> = Vec::new();
        let mut at = start;
        let mut used = 0u64;
        loop {
            let (found, cost) = entry(log, at % count, guid);
            spent += cost;
            if spent > budget {
                return Err(format!(
                    "its entries were checked for {spent} bytes, over four times its length"
                ));
            }
            let Some(e) = found else { break };
            let follows = chain.last().is_none_or(|p| e.sequence == p.sequence + 1);
            if !follows || used + e.sectors > count {
                break;
            }
            used += e.sectors;
            at += e.sectors;
            chain.push(e);
        }
        if chain.is_empty() {
            start += 1;
            continue;
        }
        start += used;
        let head = chain.last().map_or(0, |e| e.sequence);
        if best
            .as_ref()
            .and_then(|b| b.last())
            .is_none_or(|b| head > b.sequence)
        {
            best = Some(chain);
        }
    }
    let Some(chain) = best else {
        return Ok(None);
    };
    let tail = chain.last().map_or(0, |e| e.tail);
    let from = chain
        .iter()
        .position(|e| e.at * SECTOR == tail)
        .unwrap_or(0);
    let size = chain[from..]
        .iter()
        .map(|e| e.last_file_offset)
        .max()
        .unwrap_or(0);
    let (flushed, sequence) = chain
        .last()
        .map_or((0, 0), |e| (e.flushed_file_offset, e.sequence));
    let entries = chain.len() - from;
    let writes = chain
        .into_iter()
        .skip(from)
        .flat_map(|e| e.writes)
        .collect();
    Ok(Some(Active {
        writes,
        size,
        flushed,
        entries,
        sequence,
    }))
}

/// The image `file` as the log its `header` names leaves it: the file itself when the
/// header names no log or the log holds no valid entry, the file read through its
/// replayed log otherwise ([`Replayed`]). A log that cannot be replayed is read as
/// the file stands, and `problems` says why.
pub(crate) fn replay(
    file: Arc<RangedFile>,
    header: &[u8],
    problems: &mut Vec<String>,
) -> Arc<RangedFile> {
    let guid = &header[48..64];
    let (version, len, at) = (
        u16::from_le_bytes([header[64], header[65]]),
        u64::from(le_u32(header, 68)),
        le_u64(header, 72),
    );
    if guid.iter().all(|&b| b == 0) || len == 0 {
        return file;
    }
    let not = |why: String| {
        format!(
            "the VHDX log not replayed: {why}; the blocks are read as they stand, and may miss writes the log holds"
        )
    };
    if version != 0 {
        problems.push(not(format!("a log of version {version}")));
        return file;
    }
    if len % (1 << 20) != 0
        || at % (1 << 20) != 0
        || len > MAX_LOG
        || at.checked_add(len).is_none_or(|end| end > file.len())
    {
        problems.push(not(format!(
            "its header puts a log of {len} bytes at byte {at} of a file of {}",
            file.len()
        )));
        return file;
    }
    let mut log = vec![0u8; len as usize];
    match file.read_at(at, &mut log) {
        Ok(n) if n == log.len() => {}
        Ok(n) => {
            problems.push(not(format!("{n} of its {len} bytes read")));
            return file;
        }
        Err(e) => {
            problems.push(not(format!("it cannot be read ({e})")));
            return file;
        }
    }
    let active = match active(&log, guid) {
        Ok(Some(a)) => a,
        Ok(None) => {
            // a log replayed is emptied by its GUID's zeroing: one named and holding no
            // valid entry is a torn one
            problems.push(not(
                "its header names a log, and the log holds no valid entry (torn or damaged)"
                    .to_string(),
            ));
            return file;
        }
        Err(why) => {
            problems.push(not(why));
            return file;
        }
    };
    if active.flushed > file.len() {
        problems.push(format!(
            "the VHDX log's last entry (sequence {}) was written when the file was {} bytes long; it is {}: the copy is cut short",
            active.sequence,
            active.flushed,
            file.len()
        ));
    }
    let replayed = Replayed::new(file, active.writes, active.size);
    Arc::new(RangedFile::replayed(replayed))
}

/// An image file as its log leaves it: the sectors the log writes, the ranges it
/// zeroes, the rest read from the file (and zeros past its end, up to the length the
/// log gives it).
#[derive(Debug)]
pub(crate) struct Replayed {
    file: Arc<RangedFile>,
    /// The sectors written, by file offset (the last write of each).
    sectors: BTreeMap<u64, Arc<[u8]>>,
    /// The ranges zeroed, by start (apart); a sector written over one reads as written.
    zeros: BTreeMap<u64, u64>,
    size: u64,
}

impl Replayed {
    /// `file` with `writes` applied in order; `size`: its length after them. Each write
    /// costs a logarithm of the writes before it (a zero range merges with those it
    /// touches, and removes the sectors written before it once each).
    pub(crate) fn new(file: Arc<RangedFile>, writes: Vec<Write>, size: u64) -> Replayed {
        let mut sectors = BTreeMap::new();
        let mut zeros: BTreeMap<u64, u64> = BTreeMap::new();
        let mut end = file.len().max(size);
        for w in writes {
            match w {
                Write::Sector(at, bytes) => {
                    end = end.max(at.saturating_add(SECTOR));
                    sectors.insert(at, bytes);
                }
                Write::Zeros(at, len) => {
                    let (mut start, mut stop) = (at, at.saturating_add(len));
                    end = end.max(stop);
                    // a later zero range hides the sectors written before it
                    let hidden: Vec<u64> = sectors.range(start..stop).map(|(&k, _)| k).collect();
                    for k in hidden {
                        sectors.remove(&k);
                    }
                    // merged with the ranges it touches
                    let touching: Vec<(u64, u64)> = zeros
                        .range(..=stop)
                        .rev()
                        .take_while(|&(_, &e)| e >= start)
                        .map(|(&s, &e)| (s, e))
                        .collect();
                    for (s, e) in touching {
                        zeros.remove(&s);
                        start = start.min(s);
                        stop = stop.max(e);
                    }
                    zeros.insert(start, stop);
                }
            }
        }
        Replayed {
            file,
            sectors,
            zeros,
            size: end,
        }
    }

    /// The file's length with the log applied.
    pub(crate) fn len(&self) -> u64 {
        self.size
    }

    /// Reads bytes at `at` into `buf`: how many (0 at the end).
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<usize> {
        if at >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.size - at);
        let sector = at - at % SECTOR;
        if let Some(bytes) = self.sectors.get(&sector) {
            let from = (at - sector) as usize;
            let n = (want as usize).min(bytes.len() - from);
            buf[..n].copy_from_slice(&bytes[from..from + n]);
            return Ok(n);
        }
        // up to the next sector written
        let next = self
            .sectors
            .range(sector + SECTOR..)
            .next()
            .map_or(u64::MAX, |(&k, _)| k);
        let zero_here = self
            .zeros
            .range(..=at)
            .next_back()
            .and_then(|(_, &e)| (e > at).then_some(e));
        let zero_next = self
            .zeros
            .range(at + 1..)
            .next()
            .map_or(u64::MAX, |(&s, _)| s);
        let stop = next.min(zero_next).min(zero_here.unwrap_or(u64::MAX));
        let n = want.min(stop - at) as usize;
        if zero_here.is_some() || at >= self.file.len() {
            buf[..n].fill(0);
            return Ok(n);
        }
        let n = n.min((self.file.len() - at) as usize);
        self.file.read_at(at, &mut buf[..n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GUID: [u8; 16] = [7; 16];

    /// An entry as a writer lays it out: header, descriptors, data sectors, checksum.
    fn entry_bytes(sequence: u64, tail: u32, writes: &[Write], guid: &[u8; 16]) -> Vec<u8> {
        let count = writes.len() as u64;
        let descriptor_sectors = (count + 2).div_ceil(128);
        let data: Vec<&Arc<[u8]>> = writes
            .iter()
            .filter_map(|w| match w {
                Write::Sector(_, b) => Some(b),
                Write::Zeros(..) => None,
            })
            .collect();
        let sectors = descriptor_sectors + data.len() as u64;
        let mut e = vec![0u8; (sectors * SECTOR) as usize];
        e[..4].copy_from_slice(b"loge");
        e[8..12].copy_from_slice(&((sectors * SECTOR) as u32).to_le_bytes());
        e[12..16].copy_from_slice(&tail.to_le_bytes());
        e[16..24].copy_from_slice(&sequence.to_le_bytes());
        e[24..28].copy_from_slice(&(count as u32).to_le_bytes());
        e[32..48].copy_from_slice(guid);
        e[48..56].copy_from_slice(&(1u64 << 20).to_le_bytes());
        e[56..64].copy_from_slice(&(3u64 << 20).to_le_bytes());
        let mut k = 0;
        for (i, w) in writes.iter().enumerate() {
            let d = 64 + 32 * i;
            match w {
                Write::Sector(at, bytes) => {
                    e[d..d + 4].copy_from_slice(b"desc");
                    e[d + 4..d + 8].copy_from_slice(&bytes[4092..]);
                    e[d + 8..d + 16].copy_from_slice(&bytes[..8]);
                    e[d + 16..d + 24].copy_from_slice(&at.to_le_bytes());
                    let s = ((descriptor_sectors + k) * SECTOR) as usize;
                    e[s..s + 4].copy_from_slice(b"data");
                    e[s + 4..s + 8].copy_from_slice(&((sequence >> 32) as u32).to_le_bytes());
                    e[s + 8..s + 4092].copy_from_slice(&bytes[8..4092]);
                    e[s + 4092..s + 4096].copy_from_slice(&(sequence as u32).to_le_bytes());
                    k += 1;
                }
                Write::Zeros(at, len) => {
                    e[d..d + 4].copy_from_slice(b"zero");
                    e[d + 8..d + 16].copy_from_slice(&len.to_le_bytes());
                    e[d + 16..d + 24].copy_from_slice(&at.to_le_bytes());
                }
            }
            e[d + 24..d + 32].copy_from_slice(&sequence.to_le_bytes());
        }
        let crc = crate::vdisk::crc32c(&e);
        e[4..8].copy_from_slice(&crc.to_le_bytes());
        e
    }

    fn sector_of(b: u8) -> Arc<[u8]> {
        let mut s = vec![b; SECTOR as usize];
        // first and last bytes apart, so that a swap of the descriptor's halves shows
        s[0] = b.wrapping_add(1);
        s[4095] = b.wrapping_add(2);
        s.into()
    }

    /// A log of `sectors` sectors with `entries` laid at their sectors.
    fn log_with(sectors: u64, entries: &[(u64, Vec<u8>)]) -> Vec<u8> {
        let mut log = vec![0u8; (sectors * SECTOR) as usize];
        for (at, bytes) in entries {
            for (i, chunk) in bytes.chunks(SECTOR as usize).enumerate() {
                let s = ((at + i as u64) % sectors * SECTOR) as usize;
                log[s..s + SECTOR as usize].copy_from_slice(chunk);
            }
        }
        log
    }

    #[test]
    fn the_active_sequence_is_the_newest_run_of_entries_applied_from_its_tail() {
        let a = Write::Sector(8192, sector_of(0xA1));
        let b = Write::Sector(8192, sector_of(0xB2));
        let c = Write::Zeros(0, 2 * SECTOR);
        let d = Write::Sector(4096, sector_of(0xD4));
        // an old run (sequence 3), then a newer one (10, 11) whose tail is its first
        let old = entry_bytes(3, 0, std::slice::from_ref(&a), &GUID);
        let ten = entry_bytes(10, 4 * SECTOR as u32, std::slice::from_ref(&b), &GUID);
        let eleven = entry_bytes(11, 4 * SECTOR as u32, &[c.clone(), d.clone()], &GUID);
        let log = log_with(16, &[(0, old), (4, ten), (6, eleven)]);
        let a11 = active(&log, &GUID).unwrap().unwrap();
        assert_eq!(
            a11,
            Active {
                writes: vec![b.clone(), c.clone(), d.clone()],
                size: 3 << 20,
                flushed: 1 << 20,
                entries: 2,
                sequence: 11,
            }
        );

        // the tail names the second entry: the first is applied already
        let ten = entry_bytes(10, 4 * SECTOR as u32, std::slice::from_ref(&b), &GUID);
        let eleven = entry_bytes(11, 6 * SECTOR as u32, &[c.clone(), d.clone()], &GUID);
        let log = log_with(16, &[(4, ten), (6, eleven)]);
        assert_eq!(
            active(&log, &GUID).unwrap().unwrap().writes,
            [c.clone(), d.clone()]
        );

        // an entry that wraps past the log's end is read across it
        let wrapped = entry_bytes(5, 14 * SECTOR as u32, &[b.clone(), d.clone()], &GUID);
        assert_eq!(wrapped.len() as u64, 3 * SECTOR);
        let log = log_with(16, &[(14, wrapped)]);
        assert_eq!(
            active(&log, &GUID).unwrap().unwrap().writes,
            [b.clone(), d.clone()]
        );

        // entries of another log, with a wrong checksum, a data sector of another
        // sequence, or a sequence number that does not follow, are not applied
        let other = entry_bytes(20, 0, std::slice::from_ref(&a), &[9; 16]);
        let mut torn = entry_bytes(21, 0, std::slice::from_ref(&a), &GUID);
        torn[5000] ^= 1;
        let mut stale = entry_bytes(22, 0, std::slice::from_ref(&a), &GUID);
        stale[4096 + 4092] ^= 1;
        let crc = {
            stale[4..8].fill(0);
            crate::vdisk::crc32c(&stale)
        };
        stale[4..8].copy_from_slice(&crc.to_le_bytes());
        let log = log_with(16, &[(0, other), (2, torn), (4, stale)]);
        assert_eq!(active(&log, &GUID).unwrap(), None);
        let skip = entry_bytes(12, 0, std::slice::from_ref(&d), &GUID);
        let ten = entry_bytes(10, 0, std::slice::from_ref(&b), &GUID);
        let log = log_with(16, &[(0, ten), (2, skip)]);
        // two runs of one entry each: the newer, 12
        assert_eq!(
            active(&log, &GUID).unwrap().unwrap().writes,
            std::slice::from_ref(&d)
        );
        assert_eq!(
            active(&[0u8; 100], &GUID),
            Err("a log of 100 bytes".to_string())
        );
    }

    #[test]
    fn a_replayed_file_reads_the_log_s_sectors_its_zeros_and_the_rest_as_it_is() {
        let file: Arc<[u8]> = (0..6 * SECTOR).map(|i| (i % 251) as u8).collect();
        let base = Arc::new(RangedFile::in_memory(file.clone()));
        let writes = vec![
            Write::Sector(SECTOR, sector_of(0x11)),
            Write::Sector(3 * SECTOR, sector_of(0x33)),
            // zeros over sector 3 (written before: hidden) and 4
            Write::Zeros(3 * SECTOR, 2 * SECTOR),
            // a sector past the file's end: the file grows to hold it
            Write::Sector(7 * SECTOR, sector_of(0x77)),
        ];
        let r = Replayed::new(base, writes, 0);
        assert_eq!(r.len(), 8 * SECTOR);
        let mut got = vec![0u8; r.len() as usize];
        let mut at = 0;
        while at < got.len() {
            // odd pieces, across every boundary
            let end = (at + 777).min(got.len());
            let n = r.read_at(at as u64, &mut got[at..end]).unwrap();
            assert!(n > 0);
            at += n;
        }
        let mut want = file.to_vec();
        want.resize(8 * SECTOR as usize, 0);
        want[SECTOR as usize..2 * SECTOR as usize].copy_from_slice(&sector_of(0x11));
        want[3 * SECTOR as usize..5 * SECTOR as usize].fill(0);
        want[7 * SECTOR as usize..].copy_from_slice(&sector_of(0x77));
        assert!(got == want);
        assert_eq!(r.read_at(r.len(), &mut [0u8; 8]).unwrap(), 0);
    }

    /// Hostile logs (a valid one with bytes turned, lengths and counts among them,
    /// checksums made to hold again half the time) end without a panic, within the
    /// search's budget, and what they replay reads to its length.
    #[test]
    fn turned_logs_end_and_read() {
        let a = Write::Sector(8192, sector_of(0xA1));
        let z = Write::Zeros(4096, 3 * SECTOR);
        let ten = entry_bytes(10, 0, &[a.clone(), z.clone()], &GUID);
        let eleven = entry_bytes(11, 0, &[z, a], &GUID);
        let good = log_with(8, &[(0, ten), (2, eleven)]);
        assert_eq!(active(&good, &GUID).unwrap().unwrap().entries, 2);
        let file: Arc<[u8]> = vec![0x5A; 5 * SECTOR as usize].into();
        let base = Arc::new(RangedFile::in_memory(file));
        let mut next = crate::dirty::xorshift(0x9E37_79B9_7F4A_7C15);
        let (mut replayed, mut refused) = (0, 0);
        for round in 0..3000 {
            let mut log = good.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % log.len() as u64) as usize;
                // the header's and descriptors' fields most of the time
                let at = if next() % 2 == 0 {
                    at % 128 + (at / 4096) * 4096
                } else {
                    at
                };
                log[at] = next() as u8;
            }
            if round % 2 == 0 {
                // the checksums made to hold, so that the fields are read
                for start in [0usize, 2 * SECTOR as usize] {
                    let len = le_u32(&log, start + 8) as usize;
                    if len % SECTOR as usize == 0 && len > 0 && start + len <= log.len() {
                        log[start + 4..start + 8].fill(0);
                        let crc = crate::vdisk::crc32c(&log[start..start + len]);
                        log[start + 4..start + 8].copy_from_slice(&crc.to_le_bytes());
                    }
                }
            }
            match active(&log, &GUID) {
                Ok(Some(a)) => {
                    replayed += 1;
                    let r = Replayed::new(base.clone(), a.writes, a.size.min(1 << 20));
                    let mut buf = vec![0u8; 3000];
                    let mut at = 0;
                    while at < r.len().min(64 * SECTOR) {
                        let n = r.read_at(at, &mut buf).unwrap();
                        assert!(n > 0, "round {round}: no bytes at {at} of {}", r.len());
                        at += n as u64;
                    }
                }
                Ok(None) => refused += 1,
                Err(e) => panic!("round {round}: {e}"),
            }
        }
        assert!(replayed > 100 && refused > 100, "{replayed} {refused}");
    }
}
