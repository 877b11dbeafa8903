//! Recovery of deleted records: what the file still holds and SQLite no longer shows.
//!
//! # Where deleted records survive
//!
//! * **Older page versions.** A WAL holds every version of a page written since the
//!   last checkpoint, and the main file holds the version from before the WAL. A row
//!   deleted (or rewritten) by a later commit is intact in the earlier versions. For
//!   every snapshot the files describe (the main file alone, then the state after each
//!   commit) the table's b-tree is walked from its root page, so each page version is
//!   known to belong to the table: its cells are whole records with their rowids.
//! * **Frames outside the committed chain** (uncommitted, torn-off, an older WAL
//!   generation): decoded like pages of unknown owner (see below).
//! * **Freelist pages** of the current image: a freed table leaf keeps its cells unless
//!   `secure_delete` zeroed it; a trunk page keeps what lies after its page list.
//! * **Freeblocks and unallocated space** inside the table's pages: a deleted cell
//!   stays in place, with only its first four bytes overwritten by the freeblock link.
//!
//! # Deciding what a record is
//!
//! Cells of a page known to be the table's are decoded as SQLite would. Anything else
//! (pages of unknown owner, carved space) must match the table's schema strictly: the
//! exact column count, a serial type each column's affinity can hold, NOT NULL columns
//! not NULL, the rowid alias stored as NULL, text that is valid in the database
//! encoding, and a body that ends inside the free region. A record identical (in every
//! column but the rowid alias) to a live row, or to one already recovered, is dropped.
//! Nothing is invented: zeroed space (`secure_delete`) and a `VACUUM`ed file yield none.

use std::collections::{HashMap, HashSet};

use rusqlite::types::Value;

use crate::Database;
use crate::decode::{DbHeader, FrameStatus, be16, be32, varint};

/// A record recovered from free space or an older page version.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveredRecord {
    /// The table's rowid, when it survived (always, for whole cells).
    pub rowid: Option<i64>,
    /// The column values, in the table's column order. The rowid alias column (an
    /// `INTEGER PRIMARY KEY`) holds the rowid when known, else NULL. Columns a shorter
    /// record lacks (added later by `ALTER TABLE`) are NULL.
    pub values: Vec<Value>,
    /// Where it was found: `wal frame 12 (page 3) cell 4`, `main file page 3 cell 2`,
    /// `freelist page 7 cell 0`, `freeblock at page 3 offset 1200`,
    /// `unallocated space at page 3 offset 900`.
    pub location: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Affinity {
    Integer,
    Text,
    Blob,
    Real,
    Numeric,
}

fn affinity(decl: &str) -> Affinity {
    let d = decl.to_ascii_uppercase();
    if d.contains("INT") {
        Affinity::Integer
    } else if d.contains("CHAR") || d.contains("CLOB") || d.contains("TEXT") {
        Affinity::Text
    } else if d.contains("BLOB") || d.is_empty() {
        Affinity::Blob
    } else if d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB") {
        Affinity::Real
    } else {
        Affinity::Numeric
    }
}

/// What recovery needs of a table's schema.
#[derive(Clone, Debug)]
pub(crate) struct TableShape {
    root: u32,
    affinities: Vec<Affinity>,
    not_null: Vec<bool>,
    /// Index of the `INTEGER PRIMARY KEY` column, stored as NULL in the record.
    alias: Option<usize>,
}

impl TableShape {
    pub(crate) fn load(db: &Database, table: &str) -> Option<TableShape> {
        let conn = db.connection();
        let (root, sql): (i64, String) = conn
            .query_row(
                "SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
                [table],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                    ))
                },
            )
            .ok()?;
        if sql.to_ascii_uppercase().contains("WITHOUT ROWID") || root <= 0 {
            return None;
        }
        let mut stmt = conn
            .prepare("SELECT type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid")
            .ok()?;
        let cols: Vec<(String, bool, i64)> = stmt
            .query_map([table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .ok()?
            .filter_map(Result::ok)
            .collect();
        if cols.is_empty() {
            return None;
        }
        let pks: Vec<usize> = cols
            .iter()
            .enumerate()
            .filter(|(_, c)| c.2 > 0)
            .map(|(i, _)| i)
            .collect();
        let alias = match pks.as_slice() {
            [i] if cols[*i].0.eq_ignore_ascii_case("INTEGER") => Some(*i),
            _ => None,
        };
        Some(TableShape {
            root: root as u32,
            affinities: cols.iter().map(|c| affinity(&c.0)).collect(),
            not_null: cols.iter().map(|c| c.1).collect(),
            alias,
        })
    }
}

/// A version of a page: the main file's or a WAL frame's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Version {
    Main(u32),
    Frame(usize),
}

struct Pages<'a> {
    db: &'a Database,
    page_size: usize,
    usable: usize,
    encoding: u32,
}

impl<'a> Pages<'a> {
    fn bytes(&self, v: Version) -> Option<&'a [u8]> {
        match v {
            Version::Main(p) => {
                let start = (p as usize).checked_sub(1)? * self.page_size;
                self.db.main.get(start..start + self.page_size)
            }
            Version::Frame(i) => {
                let f = self.db.wal_scan.frames.get(i)?;
                self.db.wal.get(f.data_range(self.page_size))
            }
        }
    }

    fn page_of(&self, v: Version) -> u32 {
        match v {
            Version::Main(p) => p,
            Version::Frame(i) => self.db.wal_scan.frames.get(i).map(|f| f.page).unwrap_or(0),
        }
    }

    fn name(&self, v: Version) -> String {
        match v {
            Version::Main(p) => format!("main file page {p}"),
            Version::Frame(i) => format!("wal frame {} (page {})", i + 1, self.page_of(v)),
        }
    }
}

/// A snapshot: which version of each page it sees (pages it does not list are Main).
type Snapshot = HashMap<u32, Version>;

fn resolve(snap: &Snapshot, p: u32) -> Version {
    snap.get(&p).copied().unwrap_or(Version::Main(p))
}

/// Walks a table b-tree in a snapshot, collecting the versions of its leaf pages.
fn walk(
    pages: &Pages<'_>,
    snap: &Snapshot,
    root: u32,
    leaves: &mut Vec<Version>,
    interiors: &mut Vec<Version>,
    seen: &mut HashSet<Version>,
) {
    let mut stack = vec![root];
    let mut visited = HashSet::new();
    while let Some(p) = stack.pop() {
        if p == 0 || !visited.insert(p) || visited.len() > 1_000_000 {
            continue;
        }
        let v = resolve(snap, p);
        let Some(b) = pages.bytes(v) else { continue };
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(0x0d) if seen.insert(v) => leaves.push(v),
            Some(0x05) => {
                if seen.insert(v) {
                    interiors.push(v);
                }
                let n = be16(b, h + 3) as usize;
                // Right-most child first on the stack, so leaves come out left to right.
                stack.push(be32(b, h + 8));
                for c in (0..n).rev() {
                    let ptr = be16(b, h + 12 + 2 * c) as usize;
                    stack.push(be32(b, ptr));
                }
            }
            _ => {}
        }
    }
}

/// Serial type → content size, or `None` for the reserved types 10 and 11.
fn serial_size(t: u64) -> Option<usize> {
    Some(match t {
        0 | 8 | 9 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 4,
        5 => 6,
        6 | 7 => 8,
        10 | 11 => return None,
        n if n % 2 == 0 => ((n - 12) / 2) as usize,
        n => ((n - 13) / 2) as usize,
    })
}

fn int_be(b: &[u8]) -> i64 {
    let mut v: i64 = if b.first().is_some_and(|x| x & 0x80 != 0) {
        -1
    } else {
        0
    };
    for &x in b {
        v = (v << 8) | x as i64;
    }
    v
}

/// How strictly a record must match the table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strict {
    /// A cell of a page known to be the table's.
    Known,
    /// Anything else.
    Carved,
}

fn text_of(bytes: &[u8], encoding: u32, strict: bool) -> Option<String> {
    match encoding {
        2 | 3 => {
            if bytes.len() % 2 != 0 && strict {
                return None;
            }
            let units = bytes.chunks_exact(2).map(|c| {
                if encoding == 3 {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            });
            let mut s = String::new();
            for r in char::decode_utf16(units) {
                match r {
                    Ok(c) => s.push(c),
                    Err(_) if strict => return None,
                    Err(_) => s.push(char::REPLACEMENT_CHARACTER),
                }
            }
            Some(s)
        }
        _ => match std::str::from_utf8(bytes) {
            Ok(s) => Some(s.to_string()),
            Err(_) if strict => None,
            Err(_) => Some(String::from_utf8_lossy(bytes).into_owned()),
        },
    }
}

fn type_fits(aff: Affinity, t: u64) -> bool {
    let is_num = matches!(t, 1..=9);
    let is_text = t >= 13 && t % 2 == 1;
    let is_blob = t >= 12 && t % 2 == 0;
    match aff {
        Affinity::Integer | Affinity::Real => t == 0 || is_num,
        // A blob in a TEXT column is legal but rare; carving refuses it for precision.
        Affinity::Text => t == 0 || is_text,
        Affinity::Numeric => t == 0 || is_num || is_text || is_blob,
        Affinity::Blob => true,
    }
}

/// Decodes the record at `payload[at..end]` (header then body); returns the values and
/// the record's length.
fn parse_record(
    shape: &TableShape,
    payload: &[u8],
    at: usize,
    end: usize,
    encoding: u32,
    strict: Strict,
) -> Option<(Vec<Value>, usize)> {
    let end = end.min(payload.len());
    let (hlen, n) = varint(payload, at)?;
    let hlen = usize::try_from(hlen).ok()?;
    let ncols = shape.affinities.len();
    if hlen < 2 || hlen > 1 + 9 * ncols || at + hlen > end {
        return None;
    }
    let mut types = Vec::with_capacity(ncols);
    let mut pos = at + n;
    while pos < at + hlen {
        let (t, k) = varint(payload, pos)?;
        pos += k;
        types.push(t);
        if types.len() > ncols {
            return None;
        }
    }
    if pos != at + hlen || types.is_empty() {
        return None;
    }
    if strict == Strict::Carved && types.len() != ncols {
        return None;
    }
    decode_body(shape, &types, payload, at + hlen, end, encoding, strict)
        .map(|(v, body)| (v, hlen + body))
}

fn decode_body(
    shape: &TableShape,
    types: &[u64],
    payload: &[u8],
    body_at: usize,
    end: usize,
    encoding: u32,
    strict: Strict,
) -> Option<(Vec<Value>, usize)> {
    let carved = strict == Strict::Carved;
    let mut values = Vec::with_capacity(shape.affinities.len());
    let mut pos = body_at;
    for (i, &t) in types.iter().enumerate() {
        let size = serial_size(t)?;
        if pos.checked_add(size)? > end {
            return None;
        }
        if carved {
            if Some(i) == shape.alias && t != 0 {
                return None;
            }
            if Some(i) != shape.alias && !type_fits(shape.affinities[i], t) {
                return None;
            }
            if t == 0 && shape.not_null[i] && Some(i) != shape.alias {
                return None;
            }
        }
        let b = &payload[pos..pos + size];
        let v = match t {
            0 => Value::Null,
            1..=6 => Value::Integer(int_be(b)),
            7 => Value::Real(f64::from_bits(u64::from_be_bytes(b.try_into().ok()?))),
            8 => Value::Integer(0),
            9 => Value::Integer(1),
            t if t % 2 == 0 => Value::Blob(b.to_vec()),
            _ => {
                let text = text_of(b, encoding, carved)?;
                if carved
                    && text
                        .chars()
                        .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r' | '\x1b'))
                {
                    return None;
                }
                Value::Text(text)
            }
        };
        if let (true, Value::Real(f)) = (carved, &v) {
            if !f.is_finite() {
                return None;
            }
        }
        values.push(v);
        pos += size;
    }
    // A carved record must say something: zeroed or stray bytes decode as NULLs, empty
    // or blank text, or a lone number. It needs one non-blank text or blob, or two numbers.
    if carved {
        let mut numbers = 0;
        let mut content = false;
        for (i, v) in values.iter().enumerate() {
            if Some(i) == shape.alias {
                continue;
            }
            match v {
                Value::Integer(_) | Value::Real(_) => numbers += 1,
                Value::Text(t) if !t.trim().is_empty() => content = true,
                Value::Blob(b) if !b.is_empty() => content = true,
                _ => {}
            }
        }
        if !content && numbers < 2 {
            return None;
        }
    }
    while values.len() < shape.affinities.len() {
        values.push(Value::Null);
    }
    Some((values, pos - body_at))
}

/// The local payload size of a table leaf cell (SQLite's formula).
fn local_size(payload: usize, usable: usize) -> usize {
    let x = usable - 35;
    if payload <= x {
        return payload;
    }
    let m = ((usable - 12) * 32 / 255) - 23;
    let k = m + ((payload - m) % (usable - 4));
    if k <= x { k } else { m }
}

/// The kind of free space being carved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    /// A freeblock: its first four bytes are the freeblock link.
    Freeblock,
    /// The unallocated gap of a b-tree page, where absorbed freeblocks leave links.
    Gap,
    /// Any other bytes (a freelist page that is not a b-tree page): whole records only.
    Raw,
}

/// One recovered candidate before de-duplication.
struct Found {
    rowid: Option<i64>,
    values: Vec<Value>,
    location: String,
}

struct Recoverer<'a> {
    pages: Pages<'a>,
    shape: TableShape,
    found: Vec<Found>,
    /// The image's version of each page the WAL supplies (others are the main file's).
    current: Snapshot,
    /// The snapshot whose pages are being carved, for following overflow chains as they
    /// were then; `None` carves against the image.
    carve_snap: Option<Snapshot>,
}

impl Recoverer<'_> {
    fn set_alias(&self, values: &mut [Value], rowid: Option<i64>) {
        if let (Some(i), Some(r)) = (self.shape.alias, rowid) {
            if values[i] == Value::Null {
                values[i] = Value::Integer(r);
            }
        }
    }

    /// Decodes every cell of a table leaf page version.
    fn cells(&mut self, b: &[u8], page: u32, name: &str, strict: Strict, snap: Option<&Snapshot>) {
        let h = if page == 1 { 100 } else { 0 };
        if b.get(h) != Some(&0x0d) {
            return;
        }
        let n = be16(b, h + 3) as usize;
        let usable = self.pages.usable.min(b.len());
        for c in 0..n.min(usable / 2) {
            let ptr = be16(b, h + 8 + 2 * c) as usize;
            if ptr < h + 8 || ptr >= usable {
                continue;
            }
            let Some((plen, a)) = varint(b, ptr) else {
                continue;
            };
            let Some((rowid, r)) = varint(b, ptr + a) else {
                continue;
            };
            let Ok(plen) = usize::try_from(plen) else {
                continue;
            };
            if plen > 1 << 30 {
                continue;
            }
            let start = ptr + a + r;
            let local = local_size(plen, self.pages.usable);
            let payload: std::borrow::Cow<'_, [u8]> = if local == plen {
                match b.get(start..start + plen) {
                    Some(s) => s.into(),
                    None => continue,
                }
            } else {
                match self.overflow(b, start, local, plen, snap) {
                    Some(v) => v.into(),
                    None => continue,
                }
            };
            if let Some((mut values, _)) = parse_record(
                &self.shape,
                &payload,
                0,
                payload.len(),
                self.pages.encoding,
                strict,
            ) {
                let rowid = Some(rowid as i64);
                self.set_alias(&mut values, rowid);
                self.found.push(Found {
                    rowid,
                    values,
                    location: format!("{name} cell {c}"),
                });
            }
        }
    }

    /// Reads a payload that spills onto overflow pages (of the snapshot, else the image).
    fn overflow(
        &self,
        b: &[u8],
        start: usize,
        local: usize,
        total: usize,
        snap: Option<&Snapshot>,
    ) -> Option<Vec<u8>> {
        // A chain longer than the database has pages is a cycle or garbage: the payload
        // cannot be larger than the pages that could hold it.
        let db = self.pages.db;
        let pages = (db.image_pages as usize)
            .max(db.main.len() / self.pages.page_size)
            .max(
                db.wal_scan
                    .frames
                    .iter()
                    .map(|f| f.page as usize)
                    .max()
                    .unwrap_or(0),
            );
        if total > pages.saturating_mul(self.pages.usable) {
            return None;
        }
        let mut out = Vec::with_capacity(total.min(1 << 24));
        out.extend_from_slice(b.get(start..start + local)?);
        let mut next = be32(b, start + local);
        let mut hops = 0usize;
        while out.len() < total {
            hops += 1;
            if next == 0 || next as usize > pages || hops > pages {
                return None;
            }
            let v = match snap {
                Some(s) => resolve(s, next),
                None => self.current(next),
            };
            let page = self.pages.bytes(v)?;
            let take = (self.pages.usable - 4).min(total - out.len());
            out.extend_from_slice(page.get(4..4 + take)?);
            next = be32(page, 0);
        }
        Some(out)
    }

    fn current(&self, p: u32) -> Version {
        resolve(&self.current, p)
    }

    /// Carves records from the free regions (freeblocks, unallocated gap) of a leaf page.
    fn carve_page(&mut self, b: &[u8], page: u32, name: &str) {
        // Bounded work per page.
        let h = if page == 1 { 100 } else { 0 };
        let Some(&kind) = b.get(h) else { return };
        if !matches!(kind, 0x0d | 0x05 | 0x0a | 0x02) {
            return;
        }
        let usable = self.pages.usable.min(b.len());
        let hdr = if matches!(kind, 0x05 | 0x02) { 12 } else { 8 };
        let n = be16(b, h + 3) as usize;
        let gap_start = h + hdr + 2 * n;
        let content = match be16(b, h + 5) as usize {
            0 => 65536,
            c => c,
        };
        if gap_start < content && content <= usable {
            self.carve(
                b,
                gap_start,
                content,
                Region::Gap,
                &format!("unallocated space at {name}"),
            );
        }
        // Freeblock chain.
        let mut fb = be16(b, h + 1) as usize;
        let mut hops = 0;
        while fb != 0 && fb + 4 <= usable && hops < 10_000 {
            hops += 1;
            let size = be16(b, fb + 2) as usize;
            // A link that leaves the page is stale (an older page state): stop there.
            if size < 4 || fb + size > usable {
                break;
            }
            let end = fb + size;
            self.carve(
                b,
                fb,
                end,
                Region::Freeblock,
                &format!("freeblock at {name}"),
            );
            let next = be16(b, fb) as usize;
            if next != 0 && next <= fb {
                break;
            }
            fb = next;
        }
    }

    /// Scans `b[start..end]` for records.
    ///
    /// A freeblock (`clobbered`) lost its first four bytes to the freeblock link: the
    /// cell at its start is rebuilt first ([`Recoverer::rebuild_clobbered`]), then whole
    /// records are looked for in the rest. In unallocated space, whole records are
    /// looked for first; then, where none was found, cells damaged the same way (a
    /// freeblock absorbed into the gap keeps its link bytes).
    fn carve(&mut self, b: &[u8], start: usize, end: usize, region: Region, name: &str) {
        let clobbered = region == Region::Freeblock;
        let enc = self.pages.encoding;
        let end = end.min(b.len());
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut floor = start;
        if clobbered {
            floor = start + 4;
            let size = be16(b, start + 2) as usize;
            let rebuilt = self
                .rebuild_clobbered(b, start, end, Some(size))
                .or_else(|| self.rebuild_spilled(b, start, end));
            // A cell whose length and rowid varints took four bytes or more kept its
            // header: when such a reading fills the freeblock exactly and the rebuilt
            // one does not, the header was not lost.
            let intact_exact = (start + 4..=start + 6).any(|h| {
                let len = parse_record(&self.shape, b, h, end, enc, Strict::Carved)
                    .map(|(_, l)| l)
                    .or_else(|| self.spilled(b, h, end, &[]).map(|(_, l, _)| l));
                len.is_some_and(|l| h - start + l == size)
            });
            let rebuilt_exact = rebuilt.as_ref().is_some_and(|(_, l)| *l == size);
            let rebuilt = if intact_exact && !rebuilt_exact {
                None
            } else {
                rebuilt
            };
            if let Some((values, len)) = rebuilt {
                self.found.push(Found {
                    rowid: None,
                    values,
                    location: format!("{name} offset {start}"),
                });
                floor = start + len;
            }
        }
        let mut s = floor;
        while s + 2 <= end {
            if b[s] != 0 {
                if let Some((mut values, len)) =
                    parse_record(&self.shape, b, s, end, enc, Strict::Carved)
                        .filter(|(_, len)| self.cell_start_ok(b, s, floor, *len, region))
                {
                    let before = self.rowid_before(b, s, floor, len);
                    let rowid = before.map(|x| x.0);
                    self.set_alias(&mut values, rowid);
                    self.found.push(Found {
                        rowid,
                        values,
                        location: format!("{name} offset {s}"),
                    });
                    // The cell began before its record, with its length and rowid varints.
                    let prefix = before.map(|x| x.1).unwrap_or(2);
                    spans.push((s.saturating_sub(prefix).max(floor), s + len));
                    s += len;
                    continue;
                }
                if let Some((values, len, _)) = self
                    .spilled(b, s, end, &[])
                    .filter(|(_, _, total)| self.cell_start_ok(b, s, floor, *total, region))
                {
                    self.found.push(Found {
                        rowid: None,
                        values,
                        location: format!("{name} offset {s}"),
                    });
                    spans.push((s, s + len));
                    s += len;
                    continue;
                }
                // A header that reads as this table's, whose body did not survive:
                // step over it, so that its bytes are not read as another header.
                if let Some(hlen) = self.header_len(b, s, end) {
                    s += hlen;
                    continue;
                }
            }
            s += 1;
        }
        if region != Region::Gap {
            return;
        }
        let overlaps = |a: usize, z: usize, spans: &[(usize, usize)]| {
            spans.iter().any(|&(x, y)| a < y && x < z)
        };
        let mut s = start;
        while s + 6 <= end {
            // The four bytes must read as the freeblock link they once were: the next
            // freeblock after this one (or none), and a size that fits the page.
            if !self.link_ok(b, s) || overlaps(s, s + 6, &spans) {
                s += 1;
                continue;
            }
            let rebuilt = self
                .rebuild_clobbered(b, s, end, None)
                .or_else(|| self.rebuild_spilled(b, s, end));
            // The freeblock the link describes must have covered the whole cell.
            let size = be16(b, s + 2) as usize;
            match rebuilt {
                Some((values, len)) if len <= size && !overlaps(s, s + len, &spans) => {
                    self.found.push(Found {
                        rowid: None,
                        values,
                        location: format!("{name} offset {s}"),
                    });
                    spans.push((s, s + len));
                    s += len;
                }
                _ => s += 1,
            }
        }
    }

    /// The length of a record header at `s` that matches the table strictly (column
    /// count and serial types the affinities allow), whatever follows it.
    fn header_len(&self, b: &[u8], s: usize, end: usize) -> Option<usize> {
        let (hlen, n) = varint(b, s)?;
        let hlen = usize::try_from(hlen).ok()?;
        let ncols = self.shape.affinities.len();
        if hlen < 2 || hlen > 1 + 9 * ncols || s + hlen > end {
            return None;
        }
        let mut pos = s + n;
        let mut i = 0;
        while pos < s + hlen {
            let (t, k) = varint(b, pos)?;
            pos += k;
            serial_size(t)?;
            let fits = if Some(i) == self.shape.alias {
                t == 0
            } else {
                type_fits(*self.shape.affinities.get(i)?, t)
            };
            if !fits {
                return None;
            }
            i += 1;
        }
        (pos == s + hlen && i == ncols).then_some(hlen)
    }

    /// True when the four bytes at `s` read as a freeblock link: the next freeblock
    /// after this one (or none), and a size that fits the page.
    fn link_ok(&self, b: &[u8], s: usize) -> bool {
        let usable = self.pages.usable;
        if s + 4 > b.len() {
            return false;
        }
        let next = be16(b, s) as usize;
        let size = be16(b, s + 2) as usize;
        (next == 0 || (next > s + 3 && next < usable)) && size >= 4 && s + size <= usable
    }

    /// Whether a whole record found at `s` (of payload length `payload`) starts a cell:
    /// in a freeblock, always (the region is known free); elsewhere its length and
    /// rowid varints must precede it, or the freeblock link that overwrote them. Stray
    /// text (old overflow pages, stale content) otherwise decodes as records.
    fn cell_start_ok(
        &self,
        b: &[u8],
        s: usize,
        floor: usize,
        payload: usize,
        region: Region,
    ) -> bool {
        match region {
            Region::Freeblock => true,
            Region::Gap => {
                // A link counts only if the freeblock it describes covered the record.
                let local = local_size(payload, self.pages.usable).min(payload);
                self.rowid_before(b, s, floor, payload).is_some()
                    || (4..=6).any(|k| {
                        s >= floor + k
                            && self.link_ok(b, s - k)
                            && s - k + be16(b, s - k + 2) as usize >= s + local
                    })
            }
            Region::Raw => self.rowid_before(b, s, floor, payload).is_some(),
        }
    }

    /// The rowid of a carved record, when the cell's payload-length and rowid varints
    /// survive just before it.
    fn rowid_before(&self, b: &[u8], s: usize, floor: usize, len: usize) -> Option<(i64, usize)> {
        for r in 1..=9usize {
            for p in 1..=3usize {
                let Some(at) = s.checked_sub(r + p) else {
                    continue;
                };
                if at < floor {
                    continue;
                }
                if varint(b, at) == Some((len as u64, p))
                    && varint(b, at + p).map(|x| x.1) == Some(r)
                {
                    return varint(b, at + p).map(|x| (x.0 as i64, r + p));
                }
            }
        }
        None
    }

    /// A record whose payload spilled onto overflow pages: its header and local part
    /// lie at `hstart` (the first `patch.len()` bytes replaced by `patch`, for a header
    /// whose first bytes a freeblock link overwrote), the rest on the overflow chain
    /// named right after the local part. Freed overflow pages keep their content
    /// unless `secure_delete` zeroed them. Returns the values and the local length.
    fn spilled(
        &self,
        b: &[u8],
        hstart: usize,
        end: usize,
        patch: &[u8],
    ) -> Option<(Vec<Value>, usize, usize)> {
        let usable = self.pages.usable;
        let end = end.min(b.len());
        let mut local_buf = b.get(hstart..end.min(hstart + usable))?.to_vec();
        if local_buf.len() < patch.len() + 4 {
            return None;
        }
        local_buf[..patch.len()].copy_from_slice(patch);
        let (hlen, n) = varint(&local_buf, 0)?;
        let hlen = usize::try_from(hlen).ok()?;
        let ncols = self.shape.affinities.len();
        if hlen < 2 || hlen > 1 + 9 * ncols || hlen > local_buf.len() {
            return None;
        }
        let mut pos = n;
        let mut total = hlen;
        let mut count = 0;
        while pos < hlen {
            let (t, k) = varint(&local_buf, pos)?;
            pos += k;
            count += 1;
            total = total.checked_add(serial_size(t)?)?;
        }
        if pos != hlen || count != ncols || total <= usable - 35 || total > 1 << 30 {
            return None;
        }
        let local = local_size(total, usable);
        if local + 4 > local_buf.len() {
            return None;
        }
        let payload = self.overflow(&local_buf, 0, local, total, self.carve_snap.as_ref())?;
        let (values, _) = parse_record(
            &self.shape,
            &payload,
            0,
            payload.len(),
            self.pages.encoding,
            Strict::Carved,
        )?;
        Some((values, local + 4, total))
    }

    /// [`Recoverer::spilled`] for a cell at a freeblock start (see
    /// [`Recoverer::rebuild_clobbered`]): the header length byte, and for a table whose
    /// first column is the rowid alias its NULL type, are put back.
    fn rebuild_spilled(&self, b: &[u8], fb: usize, end: usize) -> Option<(Vec<Value>, usize)> {
        let ncols = self.shape.affinities.len();
        for (hstart, lost) in [(fb + 3, 0usize), (fb + 2, 1)] {
            if lost == 1 && self.shape.alias != Some(0) {
                continue;
            }
            let mut pos = fb + 4;
            for _ in lost..ncols {
                let (_, k) = varint(b, pos)?;
                pos += k;
            }
            let hlen = pos - hstart;
            if hlen > 127 {
                continue;
            }
            let patch: &[u8] = if lost == 1 {
                &[hlen as u8, 0]
            } else {
                &[hlen as u8]
            };
            if let Some((values, len, _)) = self.spilled(b, hstart, end, patch) {
                return Some((values, hstart - fb + len));
            }
        }
        None
    }

    /// A deleted cell at a freeblock start lost its first four bytes: the payload length
    /// and rowid varints and, for small cells, the record header's length byte and its
    /// first serial type. Rebuild it when the rest of the header survives: the header
    /// length follows from the serial types, a lost rowid-alias type is NULL, and a lost
    /// text or blob type follows from the freeblock size.
    fn rebuild_clobbered(
        &self,
        b: &[u8],
        fb: usize,
        end: usize,
        size: Option<usize>,
    ) -> Option<(Vec<Value>, usize)> {
        let ncols = self.shape.affinities.len();
        let enc = self.pages.encoding;
        // Header starts at fb+2 (1-byte length and rowid) or fb+3: both need the serial
        // types from fb+4 on to be intact.
        for hstart in [fb + 3, fb + 2] {
            let lost_types = (fb + 4) - (hstart + 1); // serial types inside the clobbered bytes
            if lost_types > 1 || ncols < lost_types + 1 {
                continue;
            }
            let mut types = Vec::with_capacity(ncols);
            let mut pos = fb + 4;
            for _ in lost_types..ncols {
                let (t, k) = varint(b, pos)?;
                types.push(t);
                pos += k;
            }
            let hlen = pos - hstart;
            if hlen > 127 {
                continue;
            }
            if lost_types == 1 {
                let first = if self.shape.alias == Some(0) {
                    0
                } else {
                    // Column 0 fills what the freeblock's size leaves.
                    let size = match size {
                        Some(n) => n,
                        None => continue,
                    };
                    let known: usize = types
                        .iter()
                        .map(|&t| serial_size(t).unwrap_or(usize::MAX / 4))
                        .sum();
                    let body = (fb + size).checked_sub(pos)?;
                    let n = body.checked_sub(known)?;
                    match self.shape.affinities[0] {
                        Affinity::Text => 13 + 2 * n as u64,
                        Affinity::Blob => 12 + 2 * n as u64,
                        _ => continue,
                    }
                };
                types.insert(0, first);
            }
            if let Some((values, body)) =
                decode_body(&self.shape, &types, b, pos, end, enc, Strict::Carved)
            {
                let inferred_ok = lost_types == 0
                    || match &values[0] {
                        Value::Text(t) => !t
                            .chars()
                            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')),
                        _ => true,
                    };
                if inferred_ok {
                    return Some((values, pos + body - fb));
                }
            }
        }
        None
    }
}

/// Recovers the deleted records of `table` (see the module docs).
pub(crate) fn deleted_records(db: &Database, table: &str) -> Vec<RecoveredRecord> {
    let Some(shape) = TableShape::load(db, table) else {
        return Vec::new();
    };
    let header: DbHeader = db.header;
    let pages = Pages {
        db,
        page_size: header.page_size,
        usable: header.usable_size(),
        encoding: header.text_encoding,
    };
    let frames = &db.wal_scan.frames;
    // The image's version of each page: the last committed frame that wrote it.
    let mut current = Snapshot::new();
    for (i, f) in frames.iter().enumerate() {
        if f.status == FrameStatus::Committed {
            current.insert(f.page, Version::Frame(i));
        }
    }
    let mut rec = Recoverer {
        pages,
        shape,
        found: Vec::new(),
        current,
        carve_snap: None,
    };

    // 1. Every snapshot: the main file alone, then the state after each commit. Each
    //    page version is decoded once, in the first snapshot whose tree reaches it.
    let mut seen = HashSet::new();
    let mut table_pages = HashSet::new();
    let mut visit = |rec: &mut Recoverer<'_>, snap: &Snapshot| {
        let (mut leaves, mut interiors) = (Vec::new(), Vec::new());
        walk(
            &rec.pages,
            snap,
            rec.shape.root,
            &mut leaves,
            &mut interiors,
            &mut seen,
        );
        if leaves.is_empty() && interiors.is_empty() {
            return;
        }
        rec.carve_snap = Some(snap.clone());
        for v in leaves {
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let page = rec.pages.page_of(v);
            table_pages.insert(page);
            let name = rec.pages.name(v);
            rec.cells(b, page, &name, Strict::Known, Some(snap));
            let cname = match v {
                Version::Main(p) if rec.current(p) == v => format!("page {p}"),
                _ => name,
            };
            rec.carve_page(b, page, &cname);
        }
        // Interior pages keep stale leaf content in their gap when a root leaf was split.
        for v in interiors {
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let page = rec.pages.page_of(v);
            let name = match v {
                Version::Main(p) if rec.current(p) == v => format!("page {p}"),
                _ => rec.pages.name(v),
            };
            rec.carve_page(b, page, &name);
        }
        rec.carve_snap = None;
    };
    if !db.main.is_empty() {
        visit(&mut rec, &Snapshot::new());
    }
    let mut snap = Snapshot::new();
    for (i, f) in frames.iter().enumerate() {
        if f.status != FrameStatus::Committed {
            break;
        }
        snap.insert(f.page, Version::Frame(i));
        if f.db_size != 0 {
            visit(&mut rec, &snap);
        }
    }

    // 2. Frames outside the committed chain.
    for (i, f) in frames.iter().enumerate() {
        if f.status == FrameStatus::Committed {
            continue;
        }
        let v = Version::Frame(i);
        let Some(b) = rec.pages.bytes(v) else {
            continue;
        };
        let strict = if table_pages.contains(&f.page) {
            Strict::Known
        } else {
            Strict::Carved
        };
        let name = format!(
            "wal frame {} (page {}, {})",
            i + 1,
            f.page,
            status_name(f.status)
        );
        rec.cells(b, f.page, &name, strict, None);
        rec.carve_page(b, f.page, &name);
    }

    // 3. Freelist pages of the current image.
    let mut trunk = header.freelist_trunk;
    let mut hops = 0u32;
    let limit = db.image_pages;
    while trunk != 0 && trunk <= limit && hops < limit {
        hops += 1;
        let v = rec.current(trunk);
        let Some(b) = rec.pages.bytes(v) else { break };
        let count = (be32(b, 4) as usize).min((rec.pages.usable.saturating_sub(8)) / 4);
        let after = 8 + 4 * count;
        let tname = format!("freelist trunk page {trunk}");
        rec.carve(b, after, rec.pages.usable.min(b.len()), Region::Gap, &tname);
        for k in 0..count {
            let leaf = be32(b, 8 + 4 * k);
            if leaf == 0 || leaf > limit {
                continue;
            }
            let lv = rec.current(leaf);
            let Some(lb) = rec.pages.bytes(lv) else {
                continue;
            };
            let name = format!("freelist page {leaf}");
            if lb.first() == Some(&0x0d) {
                rec.cells(lb, leaf, &name, Strict::Carved, None);
                rec.carve_page(lb, leaf, &name);
            } else {
                rec.carve(lb, 0, rec.pages.usable.min(lb.len()), Region::Raw, &name);
            }
        }
        trunk = be32(b, 0);
    }

    // 4. Drop what is live, and repeats.
    let live = live_keys(db, table, rec.shape.alias, rec.shape.affinities.len());
    let mut kept: HashSet<u64> = HashSet::new();
    let mut out = Vec::new();
    for f in rec.found {
        let k = key(&f.values, rec.shape.alias);
        if live.contains(&k) || !kept.insert(k) {
            continue;
        }
        out.push(RecoveredRecord {
            rowid: f.rowid,
            values: f.values,
            location: f.location,
        });
    }
    out
}

fn status_name(s: FrameStatus) -> &'static str {
    match s {
        FrameStatus::Committed => "committed",
        FrameStatus::Uncommitted => "uncommitted",
        FrameStatus::Corrupt => "corrupt",
        FrameStatus::OtherGeneration => "older wal generation",
        FrameStatus::Unchecked => "after a corrupt frame",
    }
}

/// A 64-bit fingerprint of a record's values (the rowid alias left out), for dropping
/// records identical to a live row or to one already recovered. Hashing the values in
/// place avoids copying every live row; two different records colliding in 64 bits is
/// negligible next to the counts involved (about 2^-64 per pair).
fn key(values: &[Value], alias: Option<usize>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for (i, v) in values.iter().enumerate() {
        if Some(i) == alias {
            continue;
        }
        match v {
            Value::Null => 0u8.hash(&mut h),
            Value::Integer(n) => (1u8, n).hash(&mut h),
            Value::Real(f) => (2u8, f.to_bits()).hash(&mut h),
            Value::Text(t) => (3u8, t).hash(&mut h),
            Value::Blob(b) => (4u8, b).hash(&mut h),
        }
    }
    h.finish()
}

fn live_keys(db: &Database, table: &str, alias: Option<usize>, ncols: usize) -> HashSet<u64> {
    let mut set = HashSet::new();
    let sql = format!("SELECT * FROM \"{}\"", table.replace('"', "\"\""));
    let Ok(mut stmt) = db.connection().prepare(&sql) else {
        return set;
    };
    let Ok(mut rows) = stmt.query([]) else {
        return set;
    };
    while let Ok(Some(r)) = rows.next() {
        let values: Vec<Value> = (0..ncols)
            .map(|i| r.get::<_, Value>(i).unwrap_or(Value::Null))
            .collect();
        set.insert(key(&values, alias));
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_sizes_and_ints() {
        assert_eq!(serial_size(13), Some(0));
        assert_eq!(serial_size(19), Some(3));
        assert_eq!(serial_size(18), Some(3));
        assert_eq!(serial_size(10), None);
        assert_eq!(int_be(&[0xff]), -1);
        assert_eq!(int_be(&[0x01, 0x00]), 256);
        assert_eq!(local_size(100, 4096), 100);
        assert_eq!(local_size(5000, 4096), 908);
    }
}
