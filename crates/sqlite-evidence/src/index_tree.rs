//! `WITHOUT ROWID` tables: their records live in an index b-tree.
//!
//! # Why they need their own rules
//!
//! A `WITHOUT ROWID` table has no table b-tree: SQLite stores each row as a record in
//! an index b-tree (leaf pages of type 0x0A, interior pages 0x02) keyed by the PRIMARY
//! KEY. Three things change for recovery:
//!
//! * **the record's column order**: the PRIMARY KEY columns first, in key order, then
//!   the other columns in table order (SQLite's file format, "Representation of WITHOUT
//!   ROWID tables"). Recovery decodes in record order and puts the values back in table
//!   order before they leave the crate ([`TableShape::order`]);
//! * **the cell**: a payload-length varint and the record, no rowid (an interior cell
//!   begins with its 4-byte child page number); an index b-tree is a B-tree, not a
//!   B+tree, so its interior pages hold live records too; a payload spills sooner
//!   (max local `(usable - 12) * 64 / 255 - 23`);
//! * **what a freed cell loses**: the freeblock link overwrites the cell's first four
//!   bytes, which here are the payload length, the header length and the first one or
//!   two serial types (a rowid table's cell loses its rowid there instead). For a table
//!   of two short columns every serial type is lost: what survives is the body and the
//!   freeblock's size.
//!
//! # Rebuilding a freed cell without guessing
//!
//! Every way the four bytes can have been laid out is tried (a one- or two-byte payload
//! length, a one- or two-byte header length, then none, one or two serial types lost,
//! a two-byte type whose second byte survives). A lost type's size follows from what
//! the freeblock's size leaves after the surviving columns; when two types were lost
//! only their sum is known, and every split that decodes strictly is a candidate.
//! Where several candidates remain, the table's live records decide, and only when the
//! evidence is unambiguous: first the classes of value each column holds (as for rowid
//! tables), then, for an inferred text column, a fixed layout shared by every live
//! value (the same byte length, and at each byte the same classes of character:
//! `key.0001`, `user-0042`, hashes, UUIDs, fixed-format times). Candidates still left
//! that differ only in inferred columns give a partial record (those columns missing)
//! when a surviving column says something; otherwise nothing is returned.

use std::collections::{BTreeSet, HashSet};

use rusqlite::types::Value;

use super::{
    Affinity, Cut, Found, Rebuilt, Recoverer, TableShape, affinity, decode_body, serial_size,
    type_fits, varint,
};

/// Whether a `CREATE TABLE` text makes a `WITHOUT ROWID` table: the table options
/// after the column list's closing parenthesis name it.
pub(super) fn without_rowid(sql: &str) -> bool {
    let Some(close) = sql.rfind(')') else {
        return false;
    };
    let opts = sql[close + 1..].to_ascii_uppercase();
    let words: Vec<&str> = opts
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| w == ["WITHOUT", "ROWID"])
}

/// The shape of a `WITHOUT ROWID` table from `pragma_table_info` rows (declared type,
/// NOT NULL, position in the PRIMARY KEY): record order is the key columns by their
/// position in the key, then the others in table order. Key columns are NOT NULL (a
/// `WITHOUT ROWID` table enforces it).
pub(super) fn shape(cols: &[(String, bool, i64)], root: u32) -> Option<TableShape> {
    let mut key: Vec<(i64, usize)> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| c.2 > 0)
        .map(|(i, c)| (c.2, i))
        .collect();
    if key.is_empty() {
        return None;
    }
    key.sort_unstable();
    let mut order: Vec<usize> = key.iter().map(|k| k.1).collect();
    order.extend((0..cols.len()).filter(|i| cols[*i].2 == 0));
    Some(TableShape {
        root,
        affinities: order.iter().map(|&i| affinity(&cols[i].0)).collect(),
        not_null: order.iter().map(|&i| cols[i].1 || cols[i].2 > 0).collect(),
        alias: None,
        key_cols: key.len(),
        order: Some(order),
        defaults: Vec::new(),
    })
}

/// The local payload size of an index b-tree cell (SQLite's formula for index pages:
/// a payload spills beyond `(usable - 12) * 64 / 255 - 23` bytes).
pub(super) fn local_size(payload: usize, usable: usize) -> usize {
    let x = (usable - 12) * 64 / 255 - 23;
    if payload <= x {
        return payload;
    }
    let m = ((usable - 12) * 32 / 255) - 23;
    let k = m + ((payload - m) % (usable - 4));
    if k <= x { k } else { m }
}

/// A text column's fixed layout, as every live value of it shows: one byte length and,
/// at each byte, the classes of character seen there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Template {
    classes: Vec<u8>,
    rows: usize,
}

fn char_class(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => 1,
        b'a'..=b'z' => 2,
        b'A'..=b'Z' => 4,
        b' ' => 8,
        0x80.. => 32,
        _ => 16,
    }
}

/// Fewer live values than this say nothing about a column's layout.
const TEMPLATE_MIN_ROWS: usize = 8;

/// Builds each column's [`Template`] from live records (in record order).
#[derive(Default)]
pub(crate) struct Templates {
    cols: Vec<Option<Template>>,
    broken: Vec<bool>,
    edges: Vec<Edges>,
}

/// The bytes a column's live text and blob values begin and end with (each a set of
/// 256 bits), as [`Templates`] sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Edges {
    first: [u64; 4],
    last: [u64; 4],
    /// The classes ([`char_class`]) of the bytes in `last`.
    last_classes: u8,
}

impl Edges {
    fn add(set: &mut [u64; 4], c: u8) {
        set[usize::from(c >> 6)] |= 1 << (c & 63);
    }

    fn has(set: &[u64; 4], c: u8) -> bool {
        set[usize::from(c >> 6)] >> (c & 63) & 1 == 1
    }

    /// Whether `v` is a text or blob of at least one byte that begins with a byte some
    /// live value of the column begins with (`first`) and ends with one some live
    /// value ends with (`last`).
    pub(crate) fn fits(&self, v: &Value, first: bool, last: bool) -> bool {
        let bytes: &[u8] = match v {
            Value::Text(t) => t.as_bytes(),
            Value::Blob(b) => b,
            _ => return false,
        };
        let (Some(&a), Some(&z)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        (!first || Self::has(&self.first, a)) && (!last || Self::has(&self.last, z))
    }

    /// Whether `v` is a text or blob of at least one byte whose last byte is of a class
    /// ([`char_class`]: digit, lower case, upper case, space, other ASCII, non-ASCII)
    /// some live value of the column ends with.
    pub(crate) fn ends_like(&self, v: &Value) -> bool {
        let bytes: &[u8] = match v {
            Value::Text(t) => t.as_bytes(),
            Value::Blob(b) => b,
            _ => return false,
        };
        bytes
            .last()
            .is_some_and(|&z| char_class(z) & self.last_classes != 0)
    }
}

impl Template {
    /// The byte length every live value of the column has.
    pub(crate) fn len(&self) -> usize {
        self.classes.len()
    }
}

impl Templates {
    /// Takes one live record's values (record order).
    pub(crate) fn observe(&mut self, values: &[Value]) {
        if self.cols.len() < values.len() {
            self.cols.resize(values.len(), None);
            self.broken.resize(values.len(), false);
            self.edges.resize(values.len(), Edges::default());
        }
        for (i, v) in values.iter().enumerate() {
            let bytes: &[u8] = match v {
                Value::Text(t) => t.as_bytes(),
                Value::Blob(b) => b,
                _ => &[],
            };
            if let (Some(&a), Some(&z)) = (bytes.first(), bytes.last()) {
                Edges::add(&mut self.edges[i].first, a);
                Edges::add(&mut self.edges[i].last, z);
                self.edges[i].last_classes |= char_class(z);
            }
            if self.broken[i] {
                continue;
            }
            let Value::Text(t) = v else {
                // NULLs and other classes: no fixed text layout
                self.broken[i] = true;
                self.cols[i] = None;
                continue;
            };
            let bytes = t.as_bytes();
            match &mut self.cols[i] {
                None => {
                    self.cols[i] = Some(Template {
                        classes: bytes.iter().map(|&c| char_class(c)).collect(),
                        rows: 1,
                    })
                }
                Some(tpl) if tpl.classes.len() == bytes.len() => {
                    for (m, &c) in tpl.classes.iter_mut().zip(bytes) {
                        *m |= char_class(c);
                    }
                    tpl.rows += 1;
                }
                Some(_) => {
                    self.broken[i] = true;
                    self.cols[i] = None;
                }
            }
        }
    }

    /// Each column's [`Edges`].
    pub(crate) fn edges(&self) -> Vec<Edges> {
        self.edges.clone()
    }

    /// The templates of the columns every live value of which shares one layout.
    pub(crate) fn finish(self) -> Vec<Option<Template>> {
        self.cols
            .into_iter()
            .map(|t| t.filter(|t| t.rows >= TEMPLATE_MIN_ROWS && !t.classes.is_empty()))
            .collect()
    }
}

/// What the live records of a `WITHOUT ROWID` table tell its recovery: each text
/// column's fixed layout, if every live value shares one, and the fingerprints of the
/// live rows' keys.
#[derive(Default)]
pub(crate) struct Live {
    /// Per record column, its [`Template`].
    pub(crate) templates: Vec<Option<Template>>,
    /// Per column, the bytes its live text and blob values begin and end with (a rowid
    /// table's; a `WITHOUT ROWID` table's are not gathered).
    pub(crate) edges: Vec<Edges>,
    /// Fingerprints of the live rows' PRIMARY KEY values.
    pub(crate) keys: HashSet<u64>,
    /// Fingerprints of the live rows' key columns as stored (their body bytes), and
    /// the lengths these have: a freed cell whose body begins with one is a stale copy
    /// of that row, however its lost lengths are read.
    key_bytes: HashSet<u64>,
    key_lens: BTreeSet<usize>,
}

/// Gathers [`Live`] from live records (record order).
#[derive(Default)]
pub(crate) struct LiveBuilder {
    templates: Templates,
    keys: HashSet<u64>,
    key_bytes: HashSet<u64>,
    key_lens: BTreeSet<usize>,
    rows: usize,
}

impl LiveBuilder {
    /// Takes one live record (record order), its first `key_cols` columns its key.
    pub(crate) fn observe(&mut self, values: &[Value], key_cols: usize, encoding: u32) {
        if self.rows < 10_000 {
            self.templates.observe(values);
        }
        self.rows += 1;
        let key = &values[..key_cols.min(values.len())];
        self.keys.insert(super::key(key, None));
        let stored = stored_body(key, encoding);
        if !stored.is_empty() {
            self.key_lens.insert(stored.len());
            self.key_bytes.insert(super::hash_bytes(&stored));
        }
    }

    /// The gathered [`Live`].
    pub(crate) fn finish(self) -> Live {
        Live {
            edges: Vec::new(),
            templates: self.templates.finish(),
            keys: self.keys,
            key_bytes: self.key_bytes,
            key_lens: self.key_lens,
        }
    }
}

/// The body bytes SQLite stores for `values` (integers in their smallest size, 0 and
/// 1 in none, reals in 8 bytes, text in the database encoding).
fn stored_body(values: &[Value], encoding: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        match v {
            Value::Null => {}
            Value::Integer(n) => {
                let size = match *n {
                    0 | 1 => 0,
                    -128..=127 => 1,
                    -32_768..=32_767 => 2,
                    -8_388_608..=8_388_607 => 3,
                    -2_147_483_648..=2_147_483_647 => 4,
                    -140_737_488_355_328..=140_737_488_355_327 => 6,
                    _ => 8,
                };
                out.extend_from_slice(&n.to_be_bytes()[8 - size..]);
            }
            Value::Real(f) => out.extend_from_slice(&f.to_bits().to_be_bytes()),
            other => out.extend(super::stored_bytes(std::slice::from_ref(other), encoding)),
        }
    }
    out
}

/// Whether `v` is an integer of two bytes or more whose every byte (big-endian, from
/// its first non-zero one) is an ASCII letter or a space: the bytes of words, read as a
/// number.
fn word_bytes_as_integer(v: &Value) -> bool {
    let Value::Integer(n) = *v else {
        return false;
    };
    if n < 0x2020 {
        return false;
    }
    let bytes = n.to_be_bytes();
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    bytes[first..]
        .iter()
        .all(|&b| b.is_ascii_alphabetic() || b == b' ')
}

/// Whether `v` has the layout of `tpl`.
pub(crate) fn fits_template(tpl: &Template, v: &Value) -> bool {
    match v {
        Value::Text(t) => {
            t.len() == tpl.classes.len()
                && t.bytes()
                    .zip(&tpl.classes)
                    .all(|(c, &m)| m & char_class(c) != 0)
        }
        _ => false,
    }
}

/// A serial type lost with the freeblock link: how many of its bytes were lost.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lost {
    /// A one-byte type (below 128).
    One,
    /// A two-byte type (128 to 16383), both bytes lost.
    Two,
    /// A two-byte type whose second byte (its low 7 bits) survives.
    Low(u8),
}

impl Recoverer<'_> {
    /// Whether an inferred reading's key is a live row's: a PRIMARY KEY is unique, so
    /// the bytes are a stale copy of that row (moved by a page split or rebalance, part
    /// of it since overwritten), not a deleted record whose lengths can be inferred.
    fn live_key(&self, values: &[Value]) -> bool {
        let k = self.shape.key_cols.min(values.len());
        k > 0 && self.live.keys.contains(&super::key(&values[..k], None))
    }

    /// Whether a record carved from free space (record order) has a live row's key:
    /// a PRIMARY KEY is unique, so it is a stale copy of that row that SQLite moved
    /// (a page split or rebalance), often with its tail overwritten by a later cell
    /// (a blob column then reads the other cell's bytes). Such records are dropped, so
    /// an older version of a row freed in place by an UPDATE is not recovered from free
    /// space (it is from older page versions, whose cells are decoded as the table's).
    pub(super) fn stale_copy(&self, f: &Found) -> bool {
        f.carved && self.live_key(&f.values)
    }

    /// Whether the body at `at` (up to `end`) begins with a live row's key columns as
    /// stored: a stale copy of that row (see [`Recoverer::stale_copy`]).
    fn begins_with_live_key(&self, b: &[u8], at: usize, end: usize) -> bool {
        let live = &self.live;
        let max = end.min(b.len()).saturating_sub(at);
        if max == 0 {
            return false;
        }
        live.key_lens
            .range(1..=max)
            .any(|&n| live.key_bytes.contains(&super::hash_bytes(&b[at..at + n])))
    }

    /// The serial types column `i` can have when its content is `n` bytes long, as its
    /// affinity allows, of the stored size `lost` says.
    fn types_of_len(&self, i: usize, n: usize, lost: Lost) -> Vec<u64> {
        let aff = self.shape.affinities[i];
        let mut out = Vec::new();
        let number: &[u64] = match n {
            0 => &[8, 9],
            1 => &[1],
            2 => &[2],
            3 => &[3],
            4 => &[4],
            6 => &[5],
            8 => match aff {
                Affinity::Real => &[7],
                Affinity::Integer => &[6],
                _ => &[6, 7],
            },
            _ => &[],
        };
        if n == 0 && !self.shape.not_null[i] {
            out.push(0);
        }
        out.extend(number);
        out.extend([13 + 2 * n as u64, 12 + 2 * n as u64]);
        out.retain(|&t| {
            type_fits(aff, t)
                && match lost {
                    Lost::One => t < 128,
                    Lost::Two => (128..16384).contains(&t),
                    Lost::Low(lo) => (128..16384).contains(&t) && (t & 0x7f) as u8 == lo,
                }
        });
        out
    }

    /// A freed cell of a `WITHOUT ROWID` table that spilled onto overflow pages, at a
    /// freeblock start (`fb`, `size` bytes), whose payload length, header length and
    /// (for a two-byte payload length) first serial type the link took. The cell fills
    /// its freeblock: its local part is `size` less the payload length and the 4-byte
    /// overflow page number, and the index b-tree's spill rule gives one payload length
    /// per local size (within a page's span), so the lost first type's size is what that
    /// length leaves after the surviving types (a lost type whose size is known is a
    /// one-byte varint: a text or blob of at most 57 bytes, a number). The record is
    /// then read through its overflow chain with the chain check of
    /// [`Recoverer::spilled`] (every page of it a freelist leaf, the last ending it);
    /// without its chain, its local columns come back partial. A local part of exactly
    /// the minimum local size (489 bytes on a 4,096-byte page) fits every payload whose
    /// remainder fills whole overflow pages: the lost length is then not known, and
    /// the readings are chosen as for any freed index cell (`choose_index`: the live
    /// rows' layout of the key column, else nothing).
    pub(super) fn rebuild_index_spilled(
        &self,
        b: &[u8],
        fb: usize,
        size: usize,
    ) -> Option<Rebuilt> {
        let end = fb + size;
        if end > b.len() || size < 12 || b.first() != Some(&0x0a) {
            return None;
        }
        let ncols = self.shape.affinities.len();
        let mut cands: Vec<(Rebuilt, Vec<usize>)> = Vec::new();
        for plen_bytes in [2usize, 3] {
            let local = size.checked_sub(plen_bytes + 4)?;
            let lost_types = 3 - plen_bytes; // after the header length byte
            if ncols < lost_types + 1 {
                continue;
            }
            let mut pos = fb + 4;
            let mut rest = Vec::with_capacity(ncols);
            for _ in lost_types..ncols {
                let (t, k) = varint(b, pos)?;
                rest.push(t);
                pos += k;
            }
            let hlen = pos - (fb + plen_bytes);
            if hlen > 127 {
                continue;
            }
            let known = super::body_size(&rest)?;
            let firsts: Vec<Option<u64>> = if lost_types == 0 {
                vec![None]
            } else {
                (0..128u64)
                    .filter(|&t| super::serial_size(t).is_some() && !(10..=11).contains(&t))
                    .map(Some)
                    .collect()
            };
            for t0 in firsts {
                let Some(total) = t0
                    .map_or(Some(0), super::serial_size)
                    .and_then(|n| hlen.checked_add(known)?.checked_add(n))
                else {
                    continue;
                };
                if super::varint_len(total as u64) != plen_bytes || self.local(total) != local {
                    continue;
                }
                let mut patch = vec![hlen as u8];
                patch.extend(t0.map(|t| t as u8));
                if let Some((values, len, _, missing, cut)) =
                    self.spilled(b, fb + plen_bytes, end, &patch, true)
                {
                    if plen_bytes + len == size && !self.live_key(&values) {
                        let inferred = if t0.is_some() { vec![0] } else { Vec::new() };
                        cands.push(((values, size, t0.is_some(), missing, cut), inferred));
                    }
                }
            }
        }
        self.choose_index(cands)
    }

    /// A freed cell of a `WITHOUT ROWID` table at a freeblock start (`fb`, `size`
    /// bytes): see the module docs. On an interior page (0x02) the link took the
    /// cell's child page number only; the cell's length and record survive.
    pub(super) fn rebuild_index(&self, b: &[u8], fb: usize, size: usize) -> Option<Rebuilt> {
        let end = fb + size;
        if end > b.len() || size < 5 {
            return None;
        }
        let ncols = self.shape.affinities.len();
        let enc = self.pages.encoding;
        if b.first() == Some(&0x02) {
            let (plen, k) = varint(b, fb + 4)?;
            let at = fb + 4 + k;
            let (values, len) =
                super::parse_record(&self.shape, b, at, end, enc, super::Strict::Carved)?;
            if plen != len as u64 || !self.tiles(b, at + len, end) {
                return None;
            }
            return Some((values, at + len - fb, false, Vec::new(), Cut::default()));
        }
        // (payload-length bytes, header-length bytes)
        let mut cands: Vec<(Rebuilt, Vec<usize>)> = Vec::new();
        let mut tiled: Vec<(Rebuilt, Vec<usize>)> = Vec::new();
        for (p, hb) in [(1usize, 1usize), (2, 1), (1, 2), (2, 2)] {
            let hs = fb + p;
            let lost_bytes = 4 - p - hb;
            let shapes: &[&[Lost]] = match lost_bytes {
                0 => &[&[]],
                1 => &[&[Lost::One], &[Lost::Low(0)]],
                _ => &[
                    &[Lost::One, Lost::One],
                    &[Lost::Two],
                    &[Lost::One, Lost::Low(0)],
                ],
            };
            for &lost in shapes {
                let mut lost = lost.to_vec();
                let mut pos = fb + 4;
                if let Some(Lost::Low(_)) = lost.last() {
                    let lo = *b.get(pos)?;
                    if lo & 0x80 != 0 {
                        continue;
                    }
                    *lost.last_mut()? = Lost::Low(lo);
                    pos += 1;
                }
                if lost.len() > ncols || (lost.is_empty() && ncols == 0) {
                    continue;
                }
                let mut types = Vec::with_capacity(ncols);
                let mut ok = true;
                for _ in lost.len()..ncols {
                    match varint(b, pos) {
                        Some((t, k)) if pos + k <= end && serial_size(t).is_some() => {
                            types.push(t);
                            pos += k;
                        }
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                // the header: its length varint, the lost types (which fill the
                // overwritten bytes after it), the surviving types
                let hlen = pos - hs;
                let hlen_ok = match hb {
                    1 => hlen <= 127,
                    _ => (128..16384).contains(&hlen),
                };
                if !hlen_ok {
                    continue;
                }
                let body_at = pos;
                if self.begins_with_live_key(b, body_at, end) {
                    continue;
                }
                if lost.is_empty() {
                    if let Some((values, body)) = decode_body(
                        &self.shape,
                        &types,
                        b,
                        body_at,
                        end,
                        enc,
                        super::Strict::Carved,
                    ) {
                        if self.tiles(b, body_at + body, end) && self.prefix_ok(p, hlen + body) {
                            let len = body_at + body - fb;
                            match self.embedded_cell(b, body_at, body_at + body) {
                                None => cands.push((
                                    (values, len, false, Vec::new(), Cut::default()),
                                    Vec::new(),
                                )),
                                Some(q) => {
                                    if let Some(r) =
                                        self.cut_before(values, &types, body_at, q, len)
                                    {
                                        cands.push((r, Vec::new()));
                                    }
                                }
                            }
                        }
                    }
                    continue;
                }
                // (sizes added with overflow checks: a damaged type may declare near
                // 2^63 bytes)
                let Some(known) = types
                    .iter()
                    .try_fold(0usize, |a, &t| a.checked_add(serial_size(t)?))
                else {
                    continue;
                };
                let inferred: Vec<usize> = (0..lost.len()).collect();
                // The cell fills its freeblock, or ends where other freed cells (stale
                // freeblock links of cells freed before the blocks merged, or whole
                // cells) tile the rest of it: each such end is a candidate, the exact
                // fill first.
                let cap: usize = lost
                    .iter()
                    .map(|l| if *l == Lost::One { 57 } else { 8185 })
                    .sum();
                // (Only where one-byte types were lost, at most 114 bytes of content:
                // over the 8,000 ends a two-byte type allows, stray bytes would read
                // as a link landing on the freeblock's end too often.)
                let Some(first) = body_at.checked_add(known) else {
                    continue;
                };
                let mut ends = vec![end];
                // A freed cell merged with the next freeblock absorbs a fragment of up
                // to three bytes between them: a cell may end up to three bytes before
                // where the tiling starts, and each such end is a reading too.
                if lost.iter().all(|l| *l == Lost::One) {
                    let tiled: Vec<usize> = (first..end.min(first + cap + 1))
                        .filter(|&e| self.tiles_strict(b, e, end))
                        .collect();
                    for e in tiled {
                        for f in (e.saturating_sub(3)..=e).filter(|&f| f >= first) {
                            if !ends.contains(&f) {
                                ends.push(f);
                            }
                        }
                    }
                }
                for (k, &cell_end) in ends.iter().enumerate() {
                    let Some(rem) = cell_end.checked_sub(first) else {
                        continue;
                    };
                    if !self.prefix_ok(p, hlen + (cell_end - body_at)) {
                        continue;
                    }
                    for lead in self.lost_types(&lost, rem) {
                        let mut all = lead;
                        all.extend_from_slice(&types);
                        if let Some((values, body)) = decode_body(
                            &self.shape,
                            &all,
                            b,
                            body_at,
                            cell_end,
                            enc,
                            super::Strict::Carved,
                        ) {
                            if body_at + body == cell_end
                                && !self.live_key(&values)
                                && self.embedded_cell(b, body_at, cell_end).is_none()
                            {
                                let c = (
                                    (values, cell_end - fb, true, Vec::new(), Cut::default()),
                                    inferred.clone(),
                                );
                                if k == 0 { cands.push(c) } else { tiled.push(c) }
                            }
                        }
                    }
                }
            }
        }
        if cands.is_empty() {
            cands = tiled;
        }
        self.choose_index(cands)
    }

    /// The start of a whole cell of this table lying inside `b[from..to]` (the body of
    /// a record read from a freeblock): a later cell SQLite wrote there (and freed), so
    /// the record's bytes from there on are another record's. Such a cell has a payload
    /// length equal to its record's, a header of every column, and a body that decodes
    /// strictly; a blob column would otherwise read its bytes as its own.
    pub(super) fn embedded_cell(&self, b: &[u8], from: usize, to: usize) -> Option<usize> {
        (from + 1..to.saturating_sub(3)).find(|&q| {
            let Some((plen, k)) = varint(b, q) else {
                return false;
            };
            let Ok(plen) = usize::try_from(plen) else {
                return false;
            };
            // (the later cell may run past the record's end)
            let limit = b.len().min(self.pages.usable);
            if plen < 3
                || (q + k).checked_add(plen).is_none_or(|z| z > limit)
                || !self.header_fits(b, q + k)
            {
                return false;
            }
            super::parse_record(
                &self.shape,
                b,
                q + k,
                q + k + plen,
                self.pages.encoding,
                super::Strict::Carved,
            )
            .is_some_and(|(_, len)| len == plen)
        })
    }

    /// Whether `b[at..end]` is other freed cells, each a freeblock link (a cell freed
    /// before the blocks merged) or a cell whose record decodes strictly, landing
    /// exactly on `end`: [`Recoverer::tiles`] with whole cells checked, since an index
    /// cell's size reads from any byte (it has no rowid varint to check).
    fn tiles_strict(&self, b: &[u8], mut at: usize, end: usize) -> bool {
        for _ in 0..64 {
            if at == end {
                return true;
            }
            if at + 4 > end {
                return false;
            }
            let (next, link) = (super::be16(b, at) as usize, super::be16(b, at + 2) as usize);
            if link >= 4 && at + link <= end && (next == 0 || next > at) {
                at += link;
                continue;
            }
            let Some((plen, k)) = varint(b, at) else {
                return false;
            };
            let plen = usize::try_from(plen).unwrap_or(usize::MAX);
            let ok = plen >= 3
                && (at + k).checked_add(plen).is_some_and(|z| z <= end)
                && super::parse_record(
                    &self.shape,
                    b,
                    at + k,
                    at + k + plen,
                    self.pages.encoding,
                    super::Strict::Carved,
                )
                .is_some_and(|(_, len)| len == plen);
            if !ok {
                return false;
            }
            at += k + plen;
        }
        false
    }

    /// A record whose bytes from `q` on are another cell's: the columns wholly before
    /// `q`, the others missing (`None` when none survives, or only NULLs).
    fn cut_before(
        &self,
        mut values: Vec<Value>,
        types: &[u64],
        body_at: usize,
        q: usize,
        len: usize,
    ) -> Option<Rebuilt> {
        let mut at = body_at;
        let mut keep = 0;
        for &t in types {
            let sz = serial_size(t)?;
            if at + sz > q {
                break;
            }
            at += sz;
            keep += 1;
        }
        let missing: Vec<usize> = (keep..types.len())
            .filter(|&i| serial_size(types[i]).is_some_and(|s| s > 0))
            .collect();
        if keep == 0 || missing.is_empty() {
            return None;
        }
        for &i in &missing {
            values[i] = Value::Null;
        }
        let says = values[..keep].iter().any(|v| match v {
            Value::Text(t) => !t.trim().is_empty(),
            Value::Blob(b) => b.iter().any(|&x| x != 0),
            _ => false,
        });
        let declared = serial_size(types[keep])? as u64;
        says.then_some((
            values,
            len,
            false,
            missing,
            Cut {
                truncated: None,
                declared_len: Some((keep, declared)),
            },
        ))
    }

    /// Every list of lost leading serial types (of the stored sizes `lost` says) whose
    /// contents add up to `rem` bytes.
    fn lost_types(&self, lost: &[Lost], rem: usize) -> Vec<Vec<u64>> {
        match lost {
            [one] => self
                .types_of_len(0, rem, *one)
                .into_iter()
                .map(|t| vec![t])
                .collect(),
            [first, second] => {
                let mut out = Vec::new();
                // a one-byte type holds at most 57 bytes of text or blob, a two-byte
                // one at most 8185: bounded work
                let cap = if *first == Lost::One { 57 } else { 8185 };
                for n0 in 0..=rem.min(cap) {
                    let t0s = self.types_of_len(0, n0, *first);
                    if t0s.is_empty() {
                        continue;
                    }
                    let t1s = self.types_of_len(1, rem - n0, *second);
                    for &t0 in &t0s {
                        for &t1 in &t1s {
                            out.push(vec![t0, t1]);
                        }
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// Picks among the readings of one freed index cell: one reading, or the one the
    /// table's live records single out (value classes, then the fixed layouts of
    /// inferred text columns); readings that differ only in inferred columns give a
    /// partial record with those columns missing, when a surviving column has content.
    fn choose_index(&self, mut cands: Vec<(Rebuilt, Vec<usize>)>) -> Option<Rebuilt> {
        cands.dedup_by(|a, b| a.0.0 == b.0.0);
        // an inferred text column whose live values all share one layout: a reading
        // that does not fit it is a misreading
        cands.retain(|c| {
            c.1.iter().all(|&i| match self.live.templates.get(i) {
                Some(Some(tpl)) => fits_template(tpl, &c.0.0[i]),
                _ => true,
            })
        });
        // a text column whose length only the freeblock's size gave (no layout fixes it;
        // NULL is a text of none) is cut short when SQLite has since shrunk the
        // freeblock by allocating a cell from its end, and the columns after it are read
        // from its text: an integer there whose every byte is a letter or a space is
        // that text
        cands.retain(|c| {
            let values = &c.0.0;
            let free_text =
                c.1.iter()
                    .copied()
                    .filter(|&i| {
                        matches!(values[i], Value::Text(_) | Value::Null)
                            && !matches!(self.live.templates.get(i), Some(Some(_)))
                    })
                    .min();
            free_text.is_none_or(|i| !values[i + 1..].iter().any(word_bytes_as_integer))
        });
        if cands.len() <= 1 {
            return cands.pop().map(|c| c.0);
        }
        let score = |c: &Rebuilt| {
            c.0.iter()
                .enumerate()
                .filter(|(i, v)| {
                    self.seen
                        .get(*i)
                        .is_some_and(|s| s & super::class_of_value(v) != 0)
                })
                .count()
        };
        let best = cands.iter().map(|c| score(&c.0)).max()?;
        cands.retain(|c| score(&c.0) == best);
        if cands.len() == 1 {
            return cands.pop().map(|c| c.0);
        }
        let pool: Vec<&(Rebuilt, Vec<usize>)> = cands.iter().collect();
        // the readings differ in inferred columns only: those are returned missing
        let first = &pool[0].0;
        let ncols = first.0.len();
        let differ: Vec<usize> = (0..ncols)
            .filter(|&i| pool.iter().any(|c| c.0.0[i] != first.0[i]))
            .collect();
        let inferred = &pool[0].1;
        if pool.iter().any(|c| &c.1 != inferred) {
            return None;
        }
        if differ.is_empty() || !differ.iter().all(|i| inferred.contains(i)) {
            return None;
        }
        if pool.iter().any(|c| c.0.1 != first.1) {
            return None;
        }
        let mut values = first.0.clone();
        for &i in &differ {
            values[i] = Value::Null;
        }
        let says = values.iter().enumerate().any(|(i, v)| {
            !differ.contains(&i)
                && match v {
                    Value::Text(t) => !t.trim().is_empty(),
                    Value::Blob(b) => b.iter().any(|&x| x != 0),
                    _ => false,
                }
        });
        says.then(|| (values, first.1, false, differ, Cut::default()))
    }

    /// Puts a found record of a `WITHOUT ROWID` table back in table order (values,
    /// missing columns, the cut column); a no-op for a rowid table.
    pub(super) fn to_table_order(&self, f: &mut Found) {
        let Some(order) = &self.shape.order else {
            return;
        };
        let mut values = vec![Value::Null; order.len().max(f.values.len())];
        for (j, v) in std::mem::take(&mut f.values).into_iter().enumerate() {
            if let Some(&i) = order.get(j) {
                values[i] = v;
            }
        }
        values.truncate(order.len());
        f.values = values;
        let map = |j: usize| order.get(j).copied().unwrap_or(j);
        f.missing = f.missing.iter().map(|&j| map(j)).collect();
        f.missing.sort_unstable();
        if let Some((j, _)) = &mut f.truncated {
            *j = map(*j);
        }
        if let Some((j, _)) = &mut f.declared_len {
            *j = map(*j);
        }
    }

    /// Table-order values (a live row read through SQL) in record order.
    pub(super) fn to_record_order(&self, values: &[Value]) -> Vec<Value> {
        match &self.shape.order {
            Some(order) => order
                .iter()
                .map(|&i| values.get(i).cloned().unwrap_or(Value::Null))
                .collect(),
            None => values.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_rowid_is_read_from_the_table_options() {
        assert!(without_rowid(
            "CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID"
        ));
        assert!(without_rowid(
            "CREATE TABLE t (a, PRIMARY KEY(a)) without  rowid, STRICT"
        ));
        assert!(!without_rowid("CREATE TABLE t (a DEFAULT 'WITHOUT ROWID')"));
        assert!(!without_rowid("CREATE TABLE t (a)"));
    }

    #[test]
    fn index_local_sizes() {
        // 4096-byte pages: a payload up to 1002 bytes stays local
        assert_eq!(local_size(1002, 4096), 1002);
        assert!(local_size(1003, 4096) < 1003);
    }

    #[test]
    fn templates_need_one_layout() {
        let mut t = Templates::default();
        for i in 0..10 {
            t.observe(&[
                Value::Text(format!("key.{i:04}")),
                Value::Text("x".repeat(i)),
            ]);
        }
        let tpls = t.finish();
        let k = tpls[0].as_ref().unwrap();
        assert!(fits_template(k, &Value::Text("key.0042".into())));
        assert!(!fits_template(k, &Value::Text("key.004".into())));
        assert!(!fits_template(k, &Value::Text("kEy.0042".into())));
        assert!(tpls[1].is_none());
    }
}
