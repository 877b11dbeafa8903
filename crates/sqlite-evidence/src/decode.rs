//! The SQLite file format, decoded by hand where SQLite itself must not be asked.
//!
//! SQLite's own code is used for everything live (queries run on the in-memory image).
//! This module covers what SQLite cannot be asked without touching the files: the
//! 100-byte database header, the write-ahead log (its header, its frames, their salts
//! and cumulative checksums), and, for recovery, b-tree pages and the record format.
//!
//! Every function takes a byte slice and checks every length it reads against the bytes
//! that remain before using it, so a damaged or hostile file gives an error or a
//! partial answer, never a panic or an unbounded allocation.

/// The 16 bytes every SQLite 3 database starts with.
pub const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Size of the database header.
pub const HEADER_SIZE: usize = 100;

/// Size of the WAL header.
pub const WAL_HEADER_SIZE: usize = 32;

/// Size of a WAL frame header.
pub const FRAME_HEADER_SIZE: usize = 24;

pub(crate) fn be16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(s) => u16::from_be_bytes([s[0], s[1]]),
        None => 0,
    }
}

pub(crate) fn be32(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 4) {
        Some(s) => u32::from_be_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

/// Decodes the page size field (1 means 65536); `None` for an invalid size.
pub fn page_size_from_field(field: u32) -> Option<usize> {
    let size = if field == 1 { 65536 } else { field };
    if (512..=65536).contains(&size) && size.is_power_of_two() {
        Some(size as usize)
    } else {
        None
    }
}

/// The fields of the 100-byte database header that a reader needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DbHeader {
    /// Page size in bytes.
    pub page_size: usize,
    /// Bytes reserved at the end of each page.
    pub reserved: u8,
    /// File change counter (offset 24).
    pub change_counter: u32,
    /// Database size in pages (offset 28), trustworthy only when [`DbHeader::size_valid`].
    pub page_count: u32,
    /// First freelist trunk page (offset 32), 0 when none.
    pub freelist_trunk: u32,
    /// Number of freelist pages (offset 36).
    pub freelist_count: u32,
    /// Text encoding: 1 UTF-8, 2 UTF-16le, 3 UTF-16be (offset 56).
    pub text_encoding: u32,
    /// `PRAGMA user_version` (offset 60).
    pub user_version: i32,
    /// True when the in-header size is valid (version-valid-for equals the change counter).
    pub size_valid: bool,
}

impl DbHeader {
    /// Parses the header; `None` when the magic or the page size is wrong.
    pub fn parse(bytes: &[u8]) -> Option<DbHeader> {
        if bytes.len() < HEADER_SIZE || &bytes[..16] != MAGIC {
            return None;
        }
        let page_size = page_size_from_field(be16(bytes, 16) as u32)?;
        let change_counter = be32(bytes, 24);
        let page_count = be32(bytes, 28);
        let valid_for = be32(bytes, 92);
        Some(DbHeader {
            page_size,
            reserved: bytes[20],
            change_counter,
            page_count,
            freelist_trunk: be32(bytes, 32),
            freelist_count: be32(bytes, 36),
            text_encoding: be32(bytes, 56),
            user_version: be32(bytes, 60) as i32,
            size_valid: page_count != 0 && valid_for == change_counter,
        })
    }

    /// The usable size of a page (page size minus the reserved bytes).
    pub fn usable_size(&self) -> usize {
        self.page_size.saturating_sub(self.reserved as usize)
    }
}

/// The WAL header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalHeader {
    /// True when checksums are computed on big-endian words (magic 0x377f0683).
    pub big_endian: bool,
    /// Page size in bytes.
    pub page_size: usize,
    /// Checkpoint sequence number.
    pub checkpoint_seq: u32,
    /// Salt-1.
    pub salt1: u32,
    /// Salt-2.
    pub salt2: u32,
    /// The header's own checksum, the seed of the first frame's.
    pub checksum: (u32, u32),
}

/// What is wrong with a WAL header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalHeaderError {
    /// Fewer than 32 bytes.
    Torn(usize),
    /// Not the WAL magic.
    BadMagic(u32),
    /// The page size field is not a power of two between 512 and 65536.
    BadPageSize(u32),
    /// The header checksum does not match its first 24 bytes.
    BadChecksum,
}

impl std::fmt::Display for WalHeaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalHeaderError::Torn(n) => write!(f, "wal header torn ({n} of 32 bytes)"),
            WalHeaderError::BadMagic(m) => write!(f, "wal header has bad magic 0x{m:08x}"),
            WalHeaderError::BadPageSize(p) => write!(f, "wal header has invalid page size {p}"),
            WalHeaderError::BadChecksum => f.write_str("wal header checksum mismatch"),
        }
    }
}

/// SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `seed`.
pub fn wal_checksum(big_endian: bool, data: &[u8], seed: (u32, u32)) -> (u32, u32) {
    let (mut s0, mut s1) = seed;
    for pair in data.chunks_exact(8) {
        let (x0, x1) = if big_endian {
            (
                u32::from_be_bytes([pair[0], pair[1], pair[2], pair[3]]),
                u32::from_be_bytes([pair[4], pair[5], pair[6], pair[7]]),
            )
        } else {
            (
                u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]),
                u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]),
            )
        };
        s0 = s0.wrapping_add(x0).wrapping_add(s1);
        s1 = s1.wrapping_add(x1).wrapping_add(s0);
    }
    (s0, s1)
}

impl WalHeader {
    /// Parses and checks the 32-byte WAL header.
    pub fn parse(wal: &[u8]) -> Result<WalHeader, WalHeaderError> {
        if wal.len() < WAL_HEADER_SIZE {
            return Err(WalHeaderError::Torn(wal.len()));
        }
        let magic = be32(wal, 0);
        let big_endian = match magic {
            0x377f_0682 => false,
            0x377f_0683 => true,
            m => return Err(WalHeaderError::BadMagic(m)),
        };
        let raw_size = be32(wal, 8);
        let page_size =
            page_size_from_field(raw_size).ok_or(WalHeaderError::BadPageSize(raw_size))?;
        let checksum = (be32(wal, 24), be32(wal, 28));
        if wal_checksum(big_endian, &wal[..24], (0, 0)) != checksum {
            return Err(WalHeaderError::BadChecksum);
        }
        Ok(WalHeader {
            big_endian,
            page_size,
            checkpoint_seq: be32(wal, 12),
            salt1: be32(wal, 16),
            salt2: be32(wal, 20),
            checksum,
        })
    }
}

/// The kind of damage a [`Problem`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The WAL header is torn, has a bad magic, page size or checksum: the WAL is ignored.
    WalHeader,
    /// The WAL's first frame carries salts other than the header's: the whole WAL is stale.
    StaleWal,
    /// A frame whose checksum does not match: the WAL is read up to the commit before it.
    CorruptFrame,
    /// The WAL ends inside a frame.
    TornFrame,
    /// Valid frames after the last commit frame (a transaction never committed).
    UncommittedFrames,
    /// The main file is shorter than its header says: missing pages read as zeros.
    TruncatedMain,
    /// SQLite could not read the schema of the image.
    Schema,
    /// The `-wal` beside the database could not be read (not a regular file, a link
    /// out of the evidence root, too large, unreadable): the main file is read alone.
    WalUnreadable,
    /// The freelist is not what SQLite writes (a trunk past the end or met twice, a
    /// trunk claiming more leaves than a page holds, a leaf past the end or listed
    /// twice, a header count the chain does not match): a damaged or forged file. The
    /// freed pages the list does not reach are still carved, as pages nothing names.
    Freelist,
}

/// Damage found while reading a database: where, and what. Callers turn each into a
/// `parser:` row ([`crate::rows::problem_rows`]); reading goes on around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What kind of damage.
    pub kind: ProblemKind,
    /// Where: `wal header`, `wal frame 12 (offset 49464)`, `main file offset 8192` ...
    pub location: String,
    /// What, in a sentence that can follow `parser: `.
    pub message: String,
}

impl Problem {
    /// `main file truncated: ...`: the main file holds `len` bytes where its header
    /// says `needed` (both modes say it in the same words).
    pub(crate) fn truncated_main(len: u64, needed: u64, page_size: u64) -> Problem {
        Problem::new(
            ProblemKind::TruncatedMain,
            format!("main file offset {len}"),
            format!(
                "main file truncated: {len} bytes, the header says {} pages of {page_size} bytes ({needed} bytes); missing bytes read as zeros",
                needed / page_size.max(1)
            ),
        )
    }

    /// `<missing> of the database's <pages> pages are in neither ...`: pages past the
    /// main file's end that no committed WAL frame supplies.
    pub(crate) fn missing_pages(missing: u64, pages: u64, main_len: u64) -> Problem {
        Problem::new(
            ProblemKind::TruncatedMain,
            format!("main file offset {main_len}"),
            format!(
                "{missing} of the database's {pages} pages are in neither the main file ({main_len} bytes) nor the wal; read as zeros"
            ),
        )
    }

    /// A problem of the given kind, location and message.
    pub fn new(
        kind: ProblemKind,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            kind,
            location: location.into(),
            message: message.into(),
        }
    }
}

/// What is wrong with an image's freelist, in the words of SQLite's own
/// `PRAGMA integrity_check` where it has them: the trunk chain from `header` is
/// walked once (each trunk page read once, a bit per page for the pages met), so the
/// check is linear in the pages of the chain whatever the list claims. `page(n)` gives
/// page `n` of the image (1-based), `pages` how many the image has. One problem per
/// kind of fault and trunk, naming the first page at fault and how many there are, so
/// that a forged list of millions of entries gives a few rows; the header's count is
/// compared with the chain only when the chain itself is sound and `complete` (no page
/// of the image is missing: a truncated file's lost trunks are already reported).
pub(crate) fn freelist_problems<P: AsRef<[u8]>>(
    header: &DbHeader,
    pages: u32,
    complete: bool,
    mut page: impl FnMut(u32) -> Option<P>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let usable = header.usable_size();
    let max_leaves = (usable / 4).saturating_sub(2);
    let mut seen = vec![0u64; (pages as usize).div_ceil(64) + 1];
    // true when `p` was met before; marks it met
    let mut again = |p: u32| {
        let (w, b) = ((p / 64) as usize, p % 64);
        let was = seen[w] >> b & 1 == 1;
        seen[w] |= 1 << b;
        was
    };
    let problem = |trunk: u32, message: String| {
        Problem::new(ProblemKind::Freelist, format!("page {trunk}"), message)
    };
    let (mut trunk, mut listed, mut previous) = (header.freelist_trunk, 0u64, 0u32);
    while trunk != 0 {
        let named_by = if previous == 0 {
            "the header".to_string()
        } else {
            format!("freelist trunk page {previous}")
        };
        if trunk > pages {
            out.push(problem(
                previous.max(1),
                format!(
                    "freelist trunk page {trunk}, named by {named_by}, is past the database's end ({pages} pages): the freelist is read up to it"
                ),
            ));
            break;
        }
        if again(trunk) {
            out.push(problem(
                previous.max(1),
                format!(
                    "freelist trunk page {trunk}, named by {named_by}, was met before in the freelist (a loop): the freelist is read once"
                ),
            ));
            break;
        }
        let Some(bytes) = page(trunk) else { break };
        let b = bytes.as_ref();
        if b.len() < 8 {
            break;
        }
        listed += 1;
        let claimed = be32(b, 4) as usize;
        let count = claimed.min(max_leaves);
        if claimed > max_leaves {
            out.push(problem(
                trunk,
                format!(
                    "freelist trunk page {trunk} claims {claimed} leaves, more than a page of {usable} usable bytes lists ({max_leaves}): its first {max_leaves} are read"
                ),
            ));
        }
        let (mut past, mut twice) = ((0u64, None), (0u64, None));
        for k in 0..count {
            let leaf = be32(b, 8 + 4 * k);
            listed += 1;
            let fault = if leaf == 0 || leaf > pages {
                &mut past
            } else if again(leaf) {
                &mut twice
            } else {
                continue;
            };
            fault.0 += 1;
            fault.1.get_or_insert(leaf);
        }
        if let (n, Some(first)) = past {
            out.push(problem(
                trunk,
                format!(
                    "freelist trunk page {trunk} lists {n} page number{} outside the database's {pages} pages, the first {first}",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        if let (n, Some(first)) = twice {
            out.push(problem(
                trunk,
                format!(
                    "freelist trunk page {trunk} lists {n} page{} met before in the freelist, the first {first}",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        previous = trunk;
        trunk = be32(b, 0);
    }
    if out.is_empty() && complete && listed != u64::from(header.freelist_count) {
        out.push(problem(
            1,
            format!(
                "the header says the freelist holds {} pages, its trunk chain lists {listed}",
                header.freelist_count
            ),
        ));
    }
    out
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.location)
    }
}

/// The state of one WAL frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameStatus {
    /// Part of a committed transaction: applied to the image.
    Committed,
    /// Valid, but after the last commit frame: a transaction that never committed.
    Uncommitted,
    /// Salts match but the checksum does not: corrupt or torn.
    Corrupt,
    /// Salts differ from the header: left over from an earlier WAL generation.
    OtherGeneration,
    /// After a corrupt frame: the checksum chain is broken, so it cannot be checked.
    Unchecked,
}

/// One full frame of a WAL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// 1-based frame number, as in `wal frame N`.
    pub number: usize,
    /// Byte offset of the frame header in the WAL.
    pub offset: usize,
    /// The database page this frame holds.
    pub page: u32,
    /// For a commit frame, the database size in pages after the commit; else 0.
    pub db_size: u32,
    /// Whether it was applied, and if not why.
    pub status: FrameStatus,
}

impl Frame {
    /// Byte range of the page data inside the WAL.
    pub fn data_range(&self, page_size: usize) -> std::ops::Range<usize> {
        let start = self.offset + FRAME_HEADER_SIZE;
        start..start + page_size
    }
}

/// A decoded WAL: its header, every full frame with its status, and what was wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WalScan {
    /// The header, when it is valid.
    pub header: Option<WalHeader>,
    /// Every full frame, in file order.
    pub frames: Vec<Frame>,
    /// Database size in pages after the last valid commit, if any commit.
    pub committed_db_size: Option<u32>,
    /// Damage found.
    pub problems: Vec<Problem>,
}

/// Decodes a WAL. `expected_page_size` is the main file's page size, when known.
pub fn scan_wal(wal: &[u8], expected_page_size: Option<usize>) -> WalScan {
    scan_wal_with(
        wal.len(),
        |at, buf| {
            let n = buf.len().min(wal.len().saturating_sub(at));
            buf[..n].copy_from_slice(&wal[at..at + n]);
            n
        },
        expected_page_size,
    )
}

/// [`scan_wal`] on a WAL of `len` bytes read by ranges: `read(offset, buf)` fills
/// `buf` from `offset` and returns how many bytes it read. One frame is held at a
/// time, so a WAL of any size is scanned in bounded memory.
pub fn scan_wal_with(
    len: usize,
    mut read: impl FnMut(usize, &mut [u8]) -> usize,
    expected_page_size: Option<usize>,
) -> WalScan {
    let mut scan = WalScan::default();
    if len == 0 {
        return scan;
    }
    let mut head = vec![0u8; WAL_HEADER_SIZE.min(len)];
    let got = read(0, &mut head);
    head.truncate(got);
    let header = match WalHeader::parse(&head) {
        Ok(h) => h,
        Err(e) => {
            scan.problems.push(Problem::new(
                ProblemKind::WalHeader,
                "wal header",
                format!("{e}; wal ignored"),
            ));
            return scan;
        }
    };
    if let Some(expected) = expected_page_size.filter(|&e| e != header.page_size) {
        scan.problems.push(Problem::new(
            ProblemKind::WalHeader,
            "wal header",
            format!(
                "wal page size {} differs from the database page size {expected}; wal ignored",
                header.page_size
            ),
        ));
        return scan;
    }
    scan.header = Some(header);
    let page_size = header.page_size;
    let frame_size = FRAME_HEADER_SIZE + page_size;
    let body = len - WAL_HEADER_SIZE;
    let full = body / frame_size;
    let rest = body % frame_size;
    let mut seed = header.checksum;
    let mut chain_ok = true;
    let mut last_commit: Option<usize> = None;
    let mut first_bad: Option<(usize, FrameStatus)> = None;
    let mut frame = vec![0u8; frame_size];
    for i in 0..full {
        let offset = WAL_HEADER_SIZE + i * frame_size;
        if read(offset, &mut frame) < frame_size {
            frame.fill(0);
        }
        let fh = &frame[..FRAME_HEADER_SIZE];
        let page = be32(fh, 0);
        let db_size = be32(fh, 4);
        let salts_match = be32(fh, 8) == header.salt1 && be32(fh, 12) == header.salt2;
        let status = if !chain_ok {
            if salts_match {
                FrameStatus::Unchecked
            } else {
                FrameStatus::OtherGeneration
            }
        } else if !salts_match {
            chain_ok = false;
            first_bad.get_or_insert((i, FrameStatus::OtherGeneration));
            FrameStatus::OtherGeneration
        } else {
            let sum = wal_checksum(header.big_endian, &fh[..8], seed);
            let sum = wal_checksum(header.big_endian, &frame[FRAME_HEADER_SIZE..], sum);
            if sum != (be32(fh, 16), be32(fh, 20)) || page == 0 {
                chain_ok = false;
                first_bad.get_or_insert((i, FrameStatus::Corrupt));
                FrameStatus::Corrupt
            } else {
                seed = sum;
                if db_size != 0 {
                    last_commit = Some(i);
                }
                FrameStatus::Committed
            }
        };
        scan.frames.push(Frame {
            number: i + 1,
            offset,
            page,
            db_size,
            status,
        });
    }
    // Valid frames after the last commit never committed.
    let valid_end = first_bad.map(|(i, _)| i).unwrap_or(full);
    let committed_end = last_commit.map(|i| i + 1).unwrap_or(0);
    for f in &mut scan.frames[committed_end..valid_end] {
        f.status = FrameStatus::Uncommitted;
    }
    if let Some(i) = last_commit {
        scan.committed_db_size = Some(scan.frames[i].db_size);
    }
    match first_bad {
        Some((0, FrameStatus::OtherGeneration)) => scan.problems.push(Problem::new(
            ProblemKind::StaleWal,
            "wal frame 1",
            format!(
                "stale wal: the salt of frame 1 does not match the wal header; {full} frame(s) ignored"
            ),
        )),
        Some((i, FrameStatus::Corrupt)) => {
            let what = if i + 1 == full && rest == 0 { "corrupt last frame" } else { "corrupt frame" };
            scan.problems.push(Problem::new(
                ProblemKind::CorruptFrame,
                format!("wal frame {} (offset {})", i + 1, WAL_HEADER_SIZE + i * frame_size),
                format!(
                    "{what}: checksum mismatch; wal read up to the commit before it, {} frame(s) from here ignored",
                    full - i
                ),
            ));
        }
        _ => {}
    }
    if committed_end < valid_end {
        scan.problems.push(Problem::new(
            ProblemKind::UncommittedFrames,
            format!("wal frame {}", committed_end + 1),
            format!(
                "{} valid frame(s) after the last commit belong to a transaction that never committed; not applied",
                valid_end - committed_end
            ),
        ));
    }
    if rest != 0 && first_bad.is_none() {
        let offset = WAL_HEADER_SIZE + full * frame_size;
        scan.problems.push(Problem::new(
            ProblemKind::TornFrame,
            format!("wal frame {} (offset {offset})", full + 1),
            format!("torn last frame: {rest} of {frame_size} bytes; not applied"),
        ));
    }
    scan
}

/// Rewrites the salts of a WAL's current generation to `salts` and recomputes every
/// checksum of that generation; the frames of an older generation after it get fixed
/// salts of their own. SQLite draws salts at random; fixture builders use this so that a
/// database built twice gives the same bytes. Never used on evidence.
pub fn reseal_wal(wal: &mut [u8], salts: (u32, u32)) {
    let Ok(h) = WalHeader::parse(wal) else { return };
    wal[16..20].copy_from_slice(&salts.0.to_be_bytes());
    wal[20..24].copy_from_slice(&salts.1.to_be_bytes());
    let mut seed = wal_checksum(h.big_endian, &wal[..24], (0, 0));
    wal[24..28].copy_from_slice(&seed.0.to_be_bytes());
    wal[28..32].copy_from_slice(&seed.1.to_be_bytes());
    let frame = FRAME_HEADER_SIZE + h.page_size;
    // Seals the frame at `off` with `salts`, chaining its checksum from `seed`.
    let seal = |wal: &mut [u8], off: usize, salts: (u32, u32), seed: (u32, u32)| {
        wal[off + 8..off + 12].copy_from_slice(&salts.0.to_be_bytes());
        wal[off + 12..off + 16].copy_from_slice(&salts.1.to_be_bytes());
        let seed = wal_checksum(h.big_endian, &wal[off..off + 8], seed);
        let seed = wal_checksum(
            h.big_endian,
            &wal[off + FRAME_HEADER_SIZE..off + frame],
            seed,
        );
        wal[off + 16..off + 20].copy_from_slice(&seed.0.to_be_bytes());
        wal[off + 20..off + 24].copy_from_slice(&seed.1.to_be_bytes());
        seed
    };
    let mut off = WAL_HEADER_SIZE;
    while off + frame <= wal.len()
        && (be32(wal, off + 8), be32(wal, off + 12)) == (h.salt1, h.salt2)
    {
        seed = seal(wal, off, salts, seed);
        off += frame;
    }
    // Frames of an older generation: fixed salts of their own, and a checksum chain of
    // their own (nothing can verify them: their header was overwritten).
    let old = (salts.0.wrapping_sub(1), !salts.1);
    let mut seed = (0, 0);
    while off + frame <= wal.len() {
        seed = seal(wal, off, old, seed);
        off += frame;
    }
}

/// Reads a SQLite varint at `at`; returns the value and its length, or `None` past the end.
pub fn varint(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    for i in 0..9 {
        let byte = *b.get(at + i)?;
        if i == 8 {
            v = (v << 8) | byte as u64;
            return Some((v, 9));
        }
        v = (v << 7) | (byte & 0x7f) as u64;
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints() {
        assert_eq!(varint(&[0x05], 0), Some((5, 1)));
        assert_eq!(varint(&[0x81, 0x00], 0), Some((128, 2)));
        assert_eq!(varint(&[0xff; 9], 0), Some((u64::MAX, 9)));
        assert_eq!(varint(&[0x81], 0), None);
    }

    #[test]
    fn page_sizes() {
        assert_eq!(page_size_from_field(1), Some(65536));
        assert_eq!(page_size_from_field(4096), Some(4096));
        assert_eq!(page_size_from_field(4000), None);
        assert_eq!(page_size_from_field(256), None);
    }

    #[test]
    fn wal_header_errors() {
        assert_eq!(WalHeader::parse(&[0; 10]), Err(WalHeaderError::Torn(10)));
        assert_eq!(WalHeader::parse(&[0; 32]), Err(WalHeaderError::BadMagic(0)));
        let mut h = [0u8; 32];
        h[..4].copy_from_slice(&0x377f_0682u32.to_be_bytes());
        h[8..12].copy_from_slice(&4096u32.to_be_bytes());
        assert_eq!(WalHeader::parse(&h), Err(WalHeaderError::BadChecksum));
        let (a, b) = wal_checksum(false, &h[..24], (0, 0));
        h[24..28].copy_from_slice(&a.to_be_bytes());
        h[28..32].copy_from_slice(&b.to_be_bytes());
        assert_eq!(WalHeader::parse(&h).map(|h| h.page_size), Ok(4096));
    }
}
