//! A read-only H2 MVStore reader for formats 2 and 3 (`../shared/spec/h2-mvstore.md`).
//!
//! Why a reader of our own: no Rust crate reads MVStore files, and H2 itself both
//! locks the file and rewrites its header when it opens a store, which a forensic
//! reader must never do. This module works on the bytes of the whole file, already in
//! memory, and never touches the file.
//!
//! Why it distrusts the store header: H2 rewrites the header only now and then, and
//! after an unclean shutdown it names no chunk at all. So the reader scans every
//! 4096-byte block for a chunk header, validates each chunk by its footer checksum,
//! and takes the newest chunk (by `version`) whose layout map, meta map and pages all
//! decode, falling back to older chunks when the newest is torn. That is the same
//! rule H2 follows (`findLastChunkWithCompleteValidChunkSet`).
//!
//! Every chunk header found, valid or not, is kept in [`MvStore::chunks`], so the
//! carving layer can walk the table of contents of each one and read the dead pages
//! that hold older versions of documents.
//!
//! Every length read from the file is checked against the bytes that remain before
//! anything is allocated; damage gives an [`MvError`], never a panic.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::io::Read;

/// The size of a block: the unit of chunk placement.
pub const BLOCK_SIZE: usize = 4096;
/// How far H2 looks for the `\n` that ends a chunk header.
const MAX_HEADER_LENGTH: usize = 1024;
/// The footer's length: the last bytes of every chunk.
const FOOTER_LENGTH: usize = 128;
/// The largest decompressed page accepted (H2 pages are at most a few MiB).
const MAX_EXPANDED: usize = 256 << 20;
/// The deepest B-tree this reader walks (H2 trees are a handful of levels deep).
const MAX_DEPTH: usize = 64;
/// Page bytes (expanded, for compressed pages) one file may make the reader decode, on
/// top of [`WORK_PER_BYTE`] per byte of the file. A real store decodes each page a few
/// times at most; a hostile one can point a TOC or a node at the same or overlapping
/// pages many thousand times, or at one compression bomb again and again.
const WORK_BASE: usize = 256 << 20;
/// See [`WORK_BASE`].
const WORK_PER_BYTE: usize = 32;

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MvError {
    /// The file is shorter than the two header blocks.
    #[error("file of {len} bytes is too short for an MVStore header")]
    TooShort {
        /// The file length.
        len: usize,
    },
    /// Neither header block holds a valid store header.
    #[error("no valid store header in blocks 0 and 1")]
    NoHeader,
    /// The store's format is not 2 or 3.
    #[error("unsupported MVStore format {format}")]
    UnsupportedFormat {
        /// The `format` (or `formatRead`) of the header.
        format: u64,
    },
    /// No chunk with a valid footer was found.
    #[error("no valid chunk found")]
    NoChunk,
    /// A chunk header whose footer is missing, fails its checksum or disagrees: a torn
    /// or partly overwritten chunk.
    #[error(
        "chunk {chunk} at block {block} (version {version}) has no valid footer: torn or overwritten"
    )]
    TornChunk {
        /// The chunk id.
        chunk: u32,
        /// Where its header was found.
        block: u64,
        /// Its version.
        version: u64,
    },
    /// The store header names a chunk that is not where it says.
    #[error("store header names chunk {chunk} at block {block}, which is missing or torn")]
    HeaderChunkMissing {
        /// The chunk id the header names.
        chunk: u64,
        /// The block the header names.
        block: u64,
    },
    /// No chunk had a complete, decodable layout and meta map.
    #[error("no chunk holds a readable snapshot ({tried} tried)")]
    NoSnapshot {
        /// How many chunks were tried.
        tried: usize,
    },
    /// A page position names a chunk whose block is not known.
    #[error("page 0x{pos:x} is in chunk {chunk}, whose location is unknown")]
    UnknownChunk {
        /// The chunk id.
        chunk: u32,
        /// The page position.
        pos: u64,
    },
    /// A page lies (partly) outside the file or its chunk.
    #[error("page 0x{pos:x} at file offset {offset} is out of bounds")]
    PageOutOfBounds {
        /// The page position.
        pos: u64,
        /// The file offset of the page.
        offset: usize,
    },
    /// A page's check value does not match its place.
    #[error("page at file offset {offset}: check value 0x{found:04x}, expected 0x{expected:04x}")]
    BadCheck {
        /// The file offset of the page.
        offset: usize,
        /// The stored value.
        found: u16,
        /// The value its place calls for.
        expected: u16,
    },
    /// A page belongs to another map than the one being read.
    #[error("page at file offset {offset} belongs to map {found}, expected map {expected}")]
    WrongMap {
        /// The file offset of the page.
        offset: usize,
        /// The page's map id.
        found: u32,
        /// The expected map id.
        expected: u32,
    },
    /// A page's content could not be decoded.
    #[error("page at file offset {offset}: {reason}")]
    BadPage {
        /// The file offset of the page.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A value inside a page could not be decoded.
    #[error("value at byte {at} of page data: {reason}")]
    BadValue {
        /// The offset inside the (decompressed) page data.
        at: usize,
        /// What is wrong.
        reason: String,
    },
    /// A B-tree is deeper than any real one, or loops.
    #[error("B-tree of map {map} is too deep or cyclic at page 0x{pos:x}")]
    TreeTooDeep {
        /// The map id.
        map: u32,
        /// The page position.
        pos: u64,
    },
    /// The file's pages together decode to more than any real store: repeated or
    /// overlapping pages, or compression bombs. What was read until then is kept.
    #[error(
        "the file decodes to more than {limit} bytes (repeated or overlapping pages or streams); the rest is not read"
    )]
    WorkLimit {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A chunk whose layout and meta maps decode, but not every page of every map: it
    /// is not the snapshot (`h2-mvstore.md` §10 step 3), an older chunk is.
    #[error(
        "chunk {chunk} (version {version}) is not used as the snapshot: map {map} not fully readable: {reason}"
    )]
    IncompleteSnapshot {
        /// The chunk id.
        chunk: u32,
        /// Its version.
        version: u64,
        /// The map's name (its id in hex when the meta map names none).
        map: String,
        /// The page error.
        reason: Box<MvError>,
    },
    /// A required map entry is missing.
    #[error("{what} is missing")]
    Missing {
        /// What is missing.
        what: String,
    },
}

/// Parses H2's `key:value,key:value` syntax (DataUtils `parseMap`): quoted values, backslash escapes.
pub fn parse_map(s: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i] != ':' {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        let key: String = chars[start..i].iter().collect();
        i += 1;
        let mut value = String::new();
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            if c == ',' {
                break;
            } else if c == '"' {
                while i < chars.len() {
                    let c = chars[i];
                    i += 1;
                    if c == '\\' {
                        if i < chars.len() {
                            value.push(chars[i]);
                            i += 1;
                        }
                    } else if c == '"' {
                        break;
                    } else {
                        value.push(c);
                    }
                }
            } else {
                value.push(c);
            }
        }
        out.insert(key.trim().to_string(), value);
    }
    out
}

/// H2's Fletcher-32 over big-endian 16-bit words (DataUtils `getFletcher32`).
pub fn fletcher32(bytes: &[u8]) -> u32 {
    let mut s1: u32 = 0xFFFF;
    let mut s2: u32 = 0xFFFF;
    let mut i = 0;
    let even = bytes.len() & !1;
    while i < even {
        let end = (i + 360 * 2).min(even);
        while i < end {
            let x = ((bytes[i] as u32) << 8) | bytes[i + 1] as u32;
            s1 = s1.wrapping_add(x);
            s2 = s2.wrapping_add(s1);
            i += 2;
        }
        s1 = (s1 & 0xFFFF) + (s1 >> 16);
        s2 = (s2 & 0xFFFF) + (s2 >> 16);
    }
    if bytes.len() & 1 == 1 {
        let x = (bytes[bytes.len() - 1] as u32) << 8;
        s1 = s1.wrapping_add(x);
        s2 = s2.wrapping_add(s1);
    }
    s1 = (s1 & 0xFFFF) + (s1 >> 16);
    s2 = (s2 & 0xFFFF) + (s2 >> 16);
    (s2 << 16) | s1
}

/// Checks and parses a checksummed line (store header or chunk footer).
fn parse_checked(raw: &[u8]) -> Option<BTreeMap<String, String>> {
    // H2 trims every byte <= 0x20 and (signed) every byte >= 0x80 from both ends.
    let trim = |b: &u8| *b <= 0x20 || *b >= 0x80;
    let start = raw.iter().position(|b| !trim(b))?;
    let end = raw.iter().rposition(|b| !trim(b))? + 1;
    let line = raw.get(start..end)?;
    // the checksum covers the bytes before `,fletcher:`; find it in the bytes, since a
    // byte >= 0x80 is one char of the Latin-1 text but two bytes of its UTF-8 form
    const MARK: &[u8] = b",fletcher:";
    let cut = line.windows(MARK.len()).rposition(|w| w == MARK)?;
    let text: String = line.iter().map(|&b| b as char).collect();
    let map = parse_map(&text);
    let stored = u32::from_str_radix(map.get("fletcher")?, 16).ok()?;
    let check = fletcher32(&line[..cut]);
    (check == stored).then_some(map)
}

fn hex(map: &BTreeMap<String, String>, key: &str) -> Option<u64> {
    u64::from_str_radix(map.get(key)?, 16).ok()
}

/// The store header, from block 0 or 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreHeader {
    /// Every field, as written.
    pub fields: BTreeMap<String, String>,
    /// `formatRead`, else `format`.
    pub format: u64,
    /// The header's `version`, when present (absent after an unclean shutdown).
    pub version: Option<u64>,
    /// The header's `chunk`, when present.
    pub chunk: Option<u64>,
    /// The header's `block`, when present.
    pub block: Option<u64>,
    /// True when `clean:1` is present.
    pub clean: bool,
    /// `created`, ms since the epoch.
    pub created: Option<u64>,
}

/// One chunk header found in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The chunk id.
    pub id: u32,
    /// The block it starts at (where its header was found).
    pub block: u64,
    /// Its length in blocks.
    pub len: u64,
    /// The store version it commits.
    pub version: u64,
    /// The number of pages it holds.
    pub pages: u64,
    /// The position of the layout map's root page.
    pub root: u64,
    /// The offset of the table of contents, when present.
    pub toc: Option<u64>,
    /// The offset (inside the chunk) of the first page: just after the header's `\n`.
    pub first_page: usize,
    /// `time`: ms since the store's `created`.
    pub time: Option<u64>,
    /// True when the footer is present, its checksum valid and it agrees with the header.
    pub footer_ok: bool,
    /// 2 when the header carries `block` (format 2), else 3.
    pub format: u64,
}

impl Chunk {
    /// The chunk's first byte in the file.
    pub fn start(&self) -> usize {
        (self.block as usize).saturating_mul(BLOCK_SIZE)
    }
    /// The byte after the chunk's last byte, bounded by `file_len`.
    pub fn end(&self, file_len: usize) -> usize {
        (self.block.saturating_add(self.len) as usize)
            .saturating_mul(BLOCK_SIZE)
            .min(file_len)
    }
}

/// A decoded value of H2's ObjectDataType (or a StringDataType string).
#[derive(Clone, Debug, PartialEq)]
pub enum MvValue {
    /// null.
    Null,
    /// A Boolean.
    Bool(bool),
    /// Byte, Short, Integer, Long, Character (as its code), BigInteger that fits.
    Int(i64),
    /// Float, Double.
    Float(f64),
    /// A BigInteger or BigDecimal, as decimal text.
    Big(String),
    /// A String.
    Str(String),
    /// A UUID, as text.
    Uuid(String),
    /// A java.util.Date, ms since the epoch.
    Date(i64),
    /// A byte array.
    Bytes(Vec<u8>),
    /// Any other array.
    Array(Vec<MvValue>),
    /// A Java-serialized object (tag 19): the `ObjectOutputStream` bytes.
    Java(Vec<u8>),
}

/// How a map's keys and values are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataType {
    /// StringDataType: the layout and meta maps.
    String,
    /// ObjectDataType: every Nitrite map.
    Object,
}

/// A bounded cursor over page data.
pub struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Cursor<'a> {
        Cursor { buf, pos: 0 }
    }
    /// The current offset.
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }
    fn err(&self, reason: impl Into<String>) -> MvError {
        MvError::BadValue {
            at: self.pos,
            reason: reason.into(),
        }
    }
    /// Takes `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], MvError> {
        if n > self.remaining() {
            return Err(self.err(format!("{n} bytes wanted, {} left", self.remaining())));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], MvError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    /// A byte.
    pub fn u8(&mut self) -> Result<u8, MvError> {
        Ok(self.take(1)?[0])
    }
    /// A big-endian i16.
    pub fn i16(&mut self) -> Result<i16, MvError> {
        Ok(i16::from_be_bytes(self.array()?))
    }
    /// A big-endian i32.
    pub fn i32(&mut self) -> Result<i32, MvError> {
        Ok(i32::from_be_bytes(self.array()?))
    }
    /// A big-endian i64.
    pub fn i64(&mut self) -> Result<i64, MvError> {
        Ok(i64::from_be_bytes(self.array()?))
    }
    /// H2's varint (at most 5 bytes; the 5th is not masked).
    pub fn varint(&mut self) -> Result<i32, MvError> {
        let mut result: u32 = 0;
        for i in 0..5 {
            let b = self.u8()? as u32;
            if i == 4 {
                result |= b << 28;
                return Ok(result as i32);
            }
            result |= (b & 0x7F) << (7 * i);
            if b < 0x80 {
                return Ok(result as i32);
            }
        }
        Ok(result as i32)
    }
    /// H2's varlong (at most 10 bytes).
    pub fn varlong(&mut self) -> Result<i64, MvError> {
        let mut result: u64 = 0;
        for i in 0..10 {
            let b = self.u8()? as u64;
            result |= (b & 0x7F).checked_shl(7 * i).unwrap_or(0);
            if b < 0x80 {
                return Ok(result as i64);
            }
        }
        Err(self.err("varlong longer than 10 bytes"))
    }
    /// A non-negative varint used as a length, checked against what remains
    /// (`min_unit` bytes per element).
    pub fn length(&mut self, min_unit: usize) -> Result<usize, MvError> {
        let n = self.varint()?;
        if n < 0 {
            return Err(self.err(format!("negative length {n}")));
        }
        let n = n as usize;
        if n.saturating_mul(min_unit) > self.remaining() {
            return Err(self.err(format!(
                "length {n} exceeds the {} bytes left",
                self.remaining()
            )));
        }
        Ok(n)
    }
    /// H2's string data: `len` UTF-16 units, each 1-3 bytes, continuation bytes unmarked.
    pub fn string_data(&mut self, len: usize) -> Result<String, MvError> {
        if len > self.remaining() {
            return Err(self.err(format!(
                "string of {len} units exceeds the {} bytes left",
                self.remaining()
            )));
        }
        let mut units = Vec::with_capacity(len);
        for _ in 0..len {
            let x = self.u8()? as u32;
            let u = if x < 0x80 {
                x
            } else if x >= 0xE0 {
                ((x & 0xF) << 12) + ((self.u8()? as u32 & 0x3F) << 6) + (self.u8()? as u32 & 0x3F)
            } else {
                ((x & 0x1F) << 6) + (self.u8()? as u32 & 0x3F)
            };
            units.push(u as u16);
        }
        Ok(String::from_utf16_lossy(&units))
    }
    /// A StringDataType string: varint length, then string data.
    pub fn string(&mut self) -> Result<String, MvError> {
        let len = self.length(1)?;
        self.string_data(len)
    }
}

/// A UUID's canonical text from its two 64-bit halves, as both H2 (`UUID` values) and
/// Java serialization (`java.util.UUID`'s `mostSigBits`/`leastSigBits`) store it.
pub fn uuid_text(most: u64, least: u64) -> String {
    let h = format!("{most:016x}{least:016x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// Reads one ObjectDataType value (tag byte, then the payload).
pub fn read_object(c: &mut Cursor<'_>) -> Result<MvValue, MvError> {
    read_object_depth(c, 0)
}

fn read_object_depth(c: &mut Cursor<'_>, depth: usize) -> Result<MvValue, MvError> {
    if depth > MAX_DEPTH {
        return Err(c.err("arrays nested too deep"));
    }
    let at = c.pos();
    let tag = c.u8()?;
    Ok(match tag {
        0 => MvValue::Null,
        1 => MvValue::Bool(false),
        32 => MvValue::Bool(true),
        2 => MvValue::Int(c.u8()? as i8 as i64),
        3 => MvValue::Int(c.i16()? as i64),
        10 => MvValue::Int(u16::from_be_bytes(c.array()?) as i64),
        4 => MvValue::Int(c.varint()? as i64),
        33 => MvValue::Int(-(c.varint()? as i64)),
        34 => MvValue::Int(c.i32()? as i64),
        64..=79 => MvValue::Int((tag - 64) as i64),
        5 => MvValue::Int(c.varlong()?),
        35 => MvValue::Int(c.varlong()?.wrapping_neg()),
        36 => MvValue::Int(c.i64()?),
        80..=87 => MvValue::Int((tag - 80) as i64),
        7 => MvValue::Float(f32::from_bits((c.varint()? as u32).reverse_bits()) as f64),
        40 => MvValue::Float(0.0),
        41 => MvValue::Float(1.0),
        42 => MvValue::Float(f32::from_bits(c.i32()? as u32) as f64),
        8 => MvValue::Float(f64::from_bits((c.varlong()? as u64).reverse_bits())),
        43 => MvValue::Float(0.0),
        44 => MvValue::Float(1.0),
        45 => MvValue::Float(f64::from_bits(c.i64()? as u64)),
        6 => {
            let n = c.length(1)?;
            MvValue::Big(big_int_text(c.take(n)?))
        }
        37 => MvValue::Int(0),
        38 => MvValue::Int(1),
        39 => MvValue::Int(c.varlong()?),
        9 => {
            let scale = c.varint()?;
            let n = c.length(1)?;
            MvValue::Big(format!("{}E{}", big_int_text(c.take(n)?), -(scale as i64)))
        }
        46 => MvValue::Big("0".into()),
        47 => MvValue::Big("1".into()),
        48 => MvValue::Big(c.varlong()?.to_string()),
        49 => {
            let scale = c.varint()?;
            MvValue::Big(format!("{}E{}", c.varlong()?, -(scale as i64)))
        }
        11 => MvValue::Str(c.string()?),
        88..=103 => MvValue::Str(c.string_data((tag - 88) as usize)?),
        12 => {
            let hi = c.i64()? as u64;
            let lo = c.i64()? as u64;
            MvValue::Uuid(uuid_text(hi, lo))
        }
        13 => MvValue::Date(c.i64()?),
        104..=119 => MvValue::Bytes(c.take((tag - 104) as usize)?.to_vec()),
        14 => read_array(c, depth)?,
        19 => {
            let n = c.length(1)?;
            MvValue::Java(c.take(n)?.to_vec())
        }
        _ => {
            return Err(MvError::BadValue {
                at,
                reason: format!("unknown ObjectDataType tag {tag}"),
            });
        }
    })
}

fn read_array(c: &mut Cursor<'_>, depth: usize) -> Result<MvValue, MvError> {
    let ct = c.u8()? as i8;
    if ct == -1 {
        let _component = c.string()?;
    } else if !(0..=21).contains(&ct) {
        return Err(c.err(format!("unknown array class id {ct}")));
    }
    let unit = match ct {
        0 | 1 => 1,
        2 | 3 => 2,
        4 | 6 => 4,
        5 | 7 => 8,
        _ => 1,
    };
    let len = c.length(unit)?;
    Ok(match ct {
        0 => MvValue::Array(
            c.take(len)?
                .iter()
                .map(|b| MvValue::Bool(*b != 0))
                .collect(),
        ),
        1 => MvValue::Bytes(c.take(len)?.to_vec()),
        2 => MvValue::Array(
            (0..len)
                .map(|_| c.i16().map(|v| MvValue::Int(v as i64)))
                .collect::<Result<_, _>>()?,
        ),
        3 => MvValue::Array(
            (0..len)
                .map(|_| c.i16().map(|v| MvValue::Int(v as u16 as i64)))
                .collect::<Result<_, _>>()?,
        ),
        4 => MvValue::Array(
            (0..len)
                .map(|_| c.i32().map(|v| MvValue::Int(v as i64)))
                .collect::<Result<_, _>>()?,
        ),
        5 => MvValue::Array(
            (0..len)
                .map(|_| c.i64().map(MvValue::Int))
                .collect::<Result<_, _>>()?,
        ),
        6 => MvValue::Array(
            (0..len)
                .map(|_| {
                    c.i32()
                        .map(|v| MvValue::Float(f32::from_bits(v as u32) as f64))
                })
                .collect::<Result<_, _>>()?,
        ),
        7 => MvValue::Array(
            (0..len)
                .map(|_| c.i64().map(|v| MvValue::Float(f64::from_bits(v as u64))))
                .collect::<Result<_, _>>()?,
        ),
        _ => MvValue::Array(
            (0..len)
                .map(|_| read_object_depth(c, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// Two's-complement big-endian bytes as decimal text (exact up to 128 bits, else hex).
fn big_int_text(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "0".into();
    }
    if bytes.len() <= 16 {
        let neg = bytes[0] & 0x80 != 0;
        let mut v: i128 = if neg { -1 } else { 0 };
        for &b in bytes {
            v = (v << 8) | b as i128;
        }
        v.to_string()
    } else {
        let h: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("0x{h}")
    }
}

/// H2's LZF decoder (CompressLZF `expand`): literal runs and back-references.
pub fn lzf_expand(input: &[u8], out_len: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(out_len.min(input.len().saturating_mul(64)).min(1 << 28));
    let mut i = 0;
    while out.len() < out_len {
        let ctrl = *input.get(i).ok_or("LZF input ends early")? as usize;
        i += 1;
        if ctrl < 32 {
            let n = ctrl + 1;
            let lit = input
                .get(i..i + n)
                .ok_or("LZF literal runs past the input")?;
            out.extend_from_slice(lit);
            i += n;
        } else {
            let mut len = ctrl >> 5;
            if len == 7 {
                len += *input.get(i).ok_or("LZF input ends early")? as usize;
                i += 1;
            }
            len += 2;
            let lo = *input.get(i).ok_or("LZF input ends early")? as usize;
            i += 1;
            let back = ((ctrl & 0x1F) << 8) + lo + 1;
            if back > out.len() {
                return Err(format!("LZF back-reference {back} before the start"));
            }
            let from = out.len() - back;
            for k in 0..len {
                let b = out[from + k];
                out.push(b);
            }
        }
        if out.len() > out_len {
            return Err(format!(
                "LZF output of {} bytes exceeds {out_len}",
                out.len()
            ));
        }
    }
    Ok(out)
}

/// Decodes a zlib stream of exactly `out_len` bytes (CompressDeflate).
pub fn deflate_expand(input: &[u8], out_len: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(out_len.min(input.len().saturating_mul(1032)).min(1 << 28));
    flate2::read::ZlibDecoder::new(input)
        .take(out_len as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("Deflate: {e}"))?;
    if out.len() != out_len {
        return Err(format!(
            "Deflate gave {} bytes, expected {out_len}",
            out.len()
        ));
    }
    Ok(out)
}

/// The maximum length of a length code (`DataUtils.getPageMaxLength`); `None` for 31 (large).
pub fn max_length(code: u32) -> Option<usize> {
    if code >= 31 {
        None
    } else {
        Some((2 + (code as usize & 1)) << ((code as usize >> 1) + 4))
    }
}

/// The parts of a page position (or, with a map id instead of a chunk id, a TOC element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Chunk id (TOC element: map id).
    pub chunk: u32,
    /// Byte offset inside the chunk.
    pub offset: u32,
    /// Length code.
    pub code: u32,
    /// True for an internal node.
    pub node: bool,
}

impl Pos {
    /// Splits a 64-bit position.
    pub fn from_u64(p: u64) -> Pos {
        Pos {
            chunk: (p >> 38) as u32,
            offset: (p >> 6) as u32,
            code: ((p >> 1) & 31) as u32,
            node: p & 1 == 1,
        }
    }
    /// Joins the parts again.
    pub fn to_u64(self) -> u64 {
        ((self.chunk as u64) << 38)
            | ((self.offset as u64) << 6)
            | ((self.code as u64) << 1)
            | self.node as u64
    }
}

fn check_value(x: u32) -> u16 {
    ((x >> 16) ^ x) as u16
}

/// A decoded page.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The page's map id.
    pub map_id: u32,
    /// Its index in the chunk's TOC.
    pub page_no: u32,
    /// Its total length in bytes.
    pub length: usize,
    /// The keys.
    pub keys: Vec<MvValue>,
    /// Leaf pages: the values; nodes: empty.
    pub values: Vec<MvValue>,
    /// Nodes: the child positions; leaves: empty.
    pub children: Vec<u64>,
    /// True when the page was compressed (LZF or Deflate).
    pub compressed: bool,
}

/// Decodes one page from `buf`, which starts at the page's first byte and ends at the
/// chunk end. `chunk`/`offset` are used for the check value; `key`/`value` say how the
/// map codes its entries. This is the page decoder the fuzz target drives.
pub fn parse_page(
    buf: &[u8],
    chunk: u32,
    offset: u32,
    key: DataType,
    value: DataType,
    base: usize,
) -> Result<Page, MvError> {
    parse_page_sized(buf, chunk, offset, key, value, base).map(|(p, _)| p)
}

/// [`parse_page`], with the number of bytes decoded: the page's length, plus the
/// expanded length of a compressed page.
fn parse_page_sized(
    buf: &[u8],
    chunk: u32,
    offset: u32,
    key: DataType,
    value: DataType,
    base: usize,
) -> Result<(Page, usize), MvError> {
    let bad = |reason: String| MvError::BadPage {
        offset: base,
        reason,
    };
    let mut c = Cursor::new(buf);
    let length = c.i32().map_err(|e| bad(e.to_string()))?;
    if length < 7 || length as usize > buf.len() {
        return Err(bad(format!(
            "page length {length} outside 7..={}",
            buf.len()
        )));
    }
    let length = length as usize;
    let mut c = Cursor::new(&buf[..length]);
    c.pos = 4;
    let check = c.i16().map_err(|e| bad(e.to_string()))? as u16;
    let expected = check_value(chunk) ^ check_value(offset) ^ check_value(length as u32);
    if check != expected {
        return Err(MvError::BadCheck {
            offset: base,
            found: check,
            expected,
        });
    }
    let inner = |c: &mut Cursor<'_>| -> Result<(Page, usize), MvError> {
        let page_no = c.varint()? as u32;
        let map_id = c.varint()? as u32;
        let n = c.length(1)?;
        let ty = c.u8()?;
        let node = ty & 1 == 1;
        let mut children = Vec::new();
        if node {
            if (n + 1).saturating_mul(9) > c.remaining() {
                return Err(c.err(format!("{} children exceed the page", n + 1)));
            }
            for _ in 0..=n {
                children.push(c.i64()? as u64);
            }
            for _ in 0..=n {
                c.varlong()?;
            }
        }
        let compressed = ty & 2 != 0;
        let expanded;
        let mut expanded_len = 0;
        let mut body = if compressed {
            let len_add = c.varint()?;
            if len_add < 0 {
                return Err(c.err(format!("negative length addition {len_add}")));
            }
            let comp = c.take(c.remaining())?;
            let out_len = comp.len() + len_add as usize;
            // LZF expands at most ~132x and Deflate ~1032x; a larger claim is corruption,
            // and nothing this large was ever seen in a chat store
            if out_len > MAX_EXPANDED || out_len > comp.len().saturating_mul(1100).max(4096) {
                return Err(c.err(format!(
                    "expanded size {out_len} of {} compressed bytes is implausible",
                    comp.len()
                )));
            }
            expanded_len = out_len;
            expanded = if ty & 6 == 6 {
                deflate_expand(comp, out_len)
            } else {
                lzf_expand(comp, out_len)
            }
            .map_err(|e| c.err(e))?;
            Cursor::new(&expanded)
        } else {
            Cursor::new(&c.buf[c.pos..])
        };
        let read = |b: &mut Cursor<'_>, t: DataType| match t {
            DataType::String => b.string().map(MvValue::Str),
            DataType::Object => read_object(b),
        };
        let mut keys = Vec::with_capacity(n);
        for _ in 0..n {
            keys.push(read(&mut body, key)?);
        }
        let mut values = Vec::new();
        if !node {
            values.reserve(n);
            for _ in 0..n {
                values.push(read(&mut body, value)?);
            }
        }
        let page = Page {
            map_id,
            page_no,
            length,
            keys,
            values,
            children,
            compressed,
        };
        Ok((page, length.saturating_add(expanded_len)))
    };
    inner(&mut c).map_err(|e| match e {
        MvError::BadValue { at, reason } => bad(format!("at byte {at}: {reason}")),
        other => other,
    })
}

/// An entry of a map, with the page it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: MvValue,
    /// The value.
    pub value: MvValue,
    /// The chunk id of the leaf page.
    pub chunk: u32,
    /// The leaf page's position.
    pub page: u64,
    /// The entry's index in the page.
    pub index: usize,
}

/// The state of the store at one chunk: its layout and meta maps.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The chunk whose layout root this is.
    pub chunk: u32,
    /// The store version.
    pub version: u64,
    /// The layout map.
    pub layout: BTreeMap<String, String>,
    /// The meta map.
    pub meta: BTreeMap<String, String>,
    /// Chunk id → start block, as the layout (and the chunk itself) say.
    pub blocks: HashMap<u32, u64>,
    /// Every other map of the snapshot (meta map ids), read once while choosing it: its
    /// entries, or the error that stopped its walk.
    pub entries: BTreeMap<u32, Result<Vec<Entry>, MvError>>,
}

impl Snapshot {
    /// Every map: id → name, from the meta map's `map.<id>` and `name.<name>` entries.
    pub fn maps(&self) -> BTreeMap<u32, String> {
        let mut out = BTreeMap::new();
        for (k, v) in &self.meta {
            if let Some(name) = k.strip_prefix("name.") {
                if let Ok(id) = u32::from_str_radix(v, 16) {
                    out.insert(id, name.to_string());
                }
            } else if let Some(id) = k.strip_prefix("map.") {
                if let (Ok(id), Some(name)) =
                    (u32::from_str_radix(id, 16), parse_map(v).get("name"))
                {
                    out.entry(id).or_insert_with(|| name.clone());
                }
            }
        }
        out
    }

    /// The root position of a map; `None` when the map is empty.
    pub fn root(&self, map_id: u32) -> Option<u64> {
        let v = self.layout.get(&format!("root.{map_id:x}"))?;
        u64::from_str_radix(v, 16).ok().filter(|p| *p != 0)
    }
}

/// A whole MVStore file in memory.
#[derive(Debug)]
pub struct MvStore<'a> {
    data: &'a [u8],
    /// The newest valid header block, if any.
    pub header: Option<StoreHeader>,
    /// The store format (from the header, else guessed from the chunks).
    pub format: u64,
    /// Every chunk header found, in file order (valid or not: see [`Chunk::footer_ok`]).
    /// Page reads and [`MvStore::chunk_version`] go by an index of the chunks as found
    /// when opening: changing this list afterwards does not change them.
    pub chunks: Vec<Chunk>,
    /// The newest snapshot whose layout and meta maps decode.
    pub snapshot: Option<Snapshot>,
    /// What went wrong while opening: torn chunks, bad pages, a missing header.
    pub problems: Vec<MvError>,
    /// (chunk id, block) → index in [`MvStore::chunks`], built once when opening: every
    /// page read places its chunk through it (a scan of all chunks per page made a file
    /// of C one-block chunks quadratic).
    by_place: HashMap<(u32, u64), usize>,
    /// Chunk id → the newest version of a chunk of that id with a valid footer.
    newest_valid: HashMap<u32, u64>,
    /// Page bytes still allowed to be decoded (see [`WORK_BASE`]).
    work: Cell<usize>,
    /// The budget the file started with.
    limit: usize,
}

impl<'a> MvStore<'a> {
    /// Opens a store from the bytes of the whole file. Never fails: what cannot be read
    /// is listed in [`MvStore::problems`], and [`MvStore::snapshot`] is `None` when no
    /// chunk holds a readable state.
    pub fn from_bytes(data: &'a [u8]) -> MvStore<'a> {
        Self::with_work_limit(data, Self::work_limit(data.len()))
    }

    /// [`MvStore::from_bytes`] with a given budget of decoded page bytes.
    fn with_work_limit(data: &'a [u8], limit: usize) -> MvStore<'a> {
        let mut store = MvStore {
            data,
            header: None,
            format: 3,
            chunks: Vec::new(),
            snapshot: None,
            problems: Vec::new(),
            by_place: HashMap::new(),
            newest_valid: HashMap::new(),
            work: Cell::new(limit),
            limit,
        };
        if data.len() < 2 * BLOCK_SIZE {
            store.problems.push(MvError::TooShort { len: data.len() });
        }
        store.header = read_header(data);
        match &store.header {
            None => store.problems.push(MvError::NoHeader),
            Some(h) => {
                store.format = h.format;
                if !(2..=3).contains(&h.format) {
                    store
                        .problems
                        .push(MvError::UnsupportedFormat { format: h.format });
                }
            }
        }
        store.chunks = scan_chunks(data);
        for (i, c) in store.chunks.iter().enumerate() {
            store.by_place.entry((c.id, c.block)).or_insert(i);
            if c.footer_ok {
                let v = store.newest_valid.entry(c.id).or_insert(c.version);
                *v = (*v).max(c.version);
            }
        }
        for c in store.chunks.iter().filter(|c| !c.footer_ok) {
            store.problems.push(MvError::TornChunk {
                chunk: c.id,
                block: c.block,
                version: c.version,
            });
        }
        if let Some(StoreHeader {
            chunk: Some(chunk),
            block: Some(block),
            ..
        }) = &store.header
        {
            if !store
                .chunks
                .iter()
                .any(|c| c.footer_ok && c.id as u64 == *chunk && c.block == *block)
            {
                store.problems.push(MvError::HeaderChunkMissing {
                    chunk: *chunk,
                    block: *block,
                });
            }
        }
        if store.header.is_none() {
            // format-2 chunk headers carry `block`; guess from the first valid chunk
            if let Some(c) = store.chunks.iter().find(|c| c.footer_ok) {
                store.format = c.format;
            }
        }
        store.choose_snapshot();
        store
    }

    /// The file's bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The newest version among the chunks of id `chunk` with a valid footer, as found
    /// when the store was opened.
    pub fn chunk_version(&self, chunk: u32) -> Option<u64> {
        self.newest_valid.get(&chunk).copied()
    }

    /// The first chunk found with this id at this block.
    fn chunk_at(&self, id: u32, block: u64) -> Option<&Chunk> {
        let i = *self.by_place.get(&(id, block))?;
        self.chunks
            .get(i)
            .filter(|c| c.id == id && c.block == block)
    }

    fn work_limit(len: usize) -> usize {
        WORK_BASE.saturating_add(len.saturating_mul(WORK_PER_BYTE))
    }

    /// Decodes a page, charging its decoded bytes to the file's work budget; once the
    /// budget is spent, every further page is [`MvError::WorkLimit`].
    fn decode_page(
        &self,
        buf: &[u8],
        chunk: u32,
        offset: u32,
        ty: DataType,
        base: usize,
    ) -> Result<Page, MvError> {
        let left = self.work.get();
        if left == 0 {
            return Err(MvError::WorkLimit { limit: self.limit });
        }
        // a page that does not decode costs its header at least
        let (page, cost) =
            parse_page_sized(buf, chunk, offset, ty, ty, base).inspect_err(|_| {
                self.work.set(left.saturating_sub(16));
            })?;
        self.work.set(left.saturating_sub(cost));
        Ok(page)
    }

    /// `h2-mvstore.md` §10 step 3: the candidates newest first; the first whose layout,
    /// meta map and every page of every map decode is the snapshot. Each candidate's
    /// pages are decoded once: the chosen one keeps its entries ([`Snapshot::entries`]).
    /// When no candidate decodes completely, the newest whose layout and meta map decode
    /// is used, and its unreadable maps are reported by whoever reads them.
    fn choose_snapshot(&mut self) {
        let mut candidates: Vec<&Chunk> = self.chunks.iter().filter(|c| c.footer_ok).collect();
        if candidates.is_empty() {
            self.problems.push(MvError::NoChunk);
            return;
        }
        candidates.sort_by(|a, b| b.version.cmp(&a.version).then(a.block.cmp(&b.block)));
        let scanned: HashMap<u32, u64> = {
            let mut m = HashMap::new();
            for c in self.chunks.iter().filter(|c| c.footer_ok) {
                m.entry(c.id).or_insert(c.block);
            }
            m
        };
        let mut problems = Vec::new();
        // the newest candidate with a readable layout and meta map: the fallback, with
        // the number of problems said before it
        let mut fallback: Option<(Snapshot, usize)> = None;
        let tried = candidates.len();
        for cand in candidates {
            // once a fallback is known, a candidate stops at its first unreadable map
            match self.try_snapshot(cand, &scanned, fallback.is_some()) {
                Ok(s) => match s
                    .entries
                    .iter()
                    .find_map(|(id, r)| r.as_ref().err().map(|e| (*id, e)))
                {
                    None => {
                        self.snapshot = Some(with_scanned(s, &scanned));
                        self.problems.extend(problems);
                        return;
                    }
                    Some((id, e)) => {
                        let map = s
                            .maps()
                            .get(&id)
                            .cloned()
                            .unwrap_or_else(|| format!("{id:x}"));
                        let rejected = MvError::IncompleteSnapshot {
                            chunk: cand.id,
                            version: cand.version,
                            map,
                            reason: Box::new(e.clone()),
                        };
                        if fallback.is_none() {
                            fallback = Some((s, problems.len()));
                        }
                        problems.push(rejected);
                    }
                },
                Err(e) => problems.push(e),
            }
        }
        match fallback {
            Some((s, said)) => {
                // the fallback's own maps are reported as unreadable maps, not as a rejection
                problems.truncate(said);
                self.snapshot = Some(with_scanned(s, &scanned));
                self.problems.extend(problems);
            }
            None => {
                self.problems.extend(problems);
                self.problems.push(MvError::NoSnapshot { tried });
            }
        }
    }

    /// Reads the layout, meta map and maps of one candidate. Its chunks are placed by the
    /// candidate itself, then its layout's `chunk.*` entries, then the chunks the scan
    /// found (`scanned`, built once for all candidates): only the first two are the
    /// candidate's own, so a file of C chunks that all fail costs C small maps, not C
    /// copies of the scanned one (10,000 chunks without a meta root took 4.5 s). The
    /// snapshot returned holds only its own places; [`with_scanned`] adds the rest to the
    /// one chosen.
    fn try_snapshot(
        &self,
        cand: &Chunk,
        scanned: &HashMap<u32, u64>,
        stop_early: bool,
    ) -> Result<Snapshot, MvError> {
        let mut own = HashMap::new();
        own.insert(cand.id, cand.block);
        let layout_entries =
            self.read_map_in(0, cand.root, &Places::own(&own), DataType::String)?;
        let layout = string_map(&layout_entries);
        for (k, v) in &layout {
            if let Some(id) = k.strip_prefix("chunk.") {
                if let (Ok(id), Some(b)) =
                    (u32::from_str_radix(id, 16), hex(&parse_map(v), "block"))
                {
                    own.entry(id).or_insert(b);
                }
            }
        }
        let meta_id = layout
            .get("meta.id")
            .and_then(|v| u32::from_str_radix(v, 16).ok())
            .unwrap_or(1);
        let mut snap = Snapshot {
            chunk: cand.id,
            version: cand.version,
            layout,
            meta: BTreeMap::new(),
            blocks: HashMap::new(),
            entries: BTreeMap::new(),
        };
        let places = Places {
            own: &own,
            base: Some(scanned),
        };
        if let Some(root) = snap.root(meta_id) {
            let meta = self.read_map_in(meta_id, root, &places, DataType::String)?;
            snap.meta = string_map(&meta);
        } else {
            return Err(MvError::Missing {
                what: format!("root of the meta map {meta_id:x} in chunk {}", cand.id),
            });
        }
        for id in snap.maps().into_keys() {
            if id == 0 || id == meta_id {
                continue;
            }
            let read = match snap.root(id) {
                None => Ok(Vec::new()),
                Some(root) => self.read_map_in(id, root, &places, DataType::Object),
            };
            let failed = read.is_err();
            snap.entries.insert(id, read);
            if failed && stop_early {
                break;
            }
        }
        snap.blocks = own;
        Ok(snap)
    }

    /// Reads every entry of a map from its root position, using `blocks` to place chunks.
    pub fn read_map_at(
        &self,
        map_id: u32,
        root: u64,
        blocks: &HashMap<u32, u64>,
        ty: DataType,
    ) -> Result<Vec<Entry>, MvError> {
        self.read_map_in(map_id, root, &Places::own(blocks), ty)
    }

    fn read_map_in(
        &self,
        map_id: u32,
        root: u64,
        blocks: &Places<'_>,
        ty: DataType,
    ) -> Result<Vec<Entry>, MvError> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        self.walk(map_id, root, blocks, ty, 0, &mut seen, &mut out)?;
        Ok(out)
    }

    /// Reads every entry of a map of the chosen snapshot (ObjectDataType keys and values).
    pub fn read_map(&self, map_id: u32) -> Result<Vec<Entry>, MvError> {
        let Some(snap) = &self.snapshot else {
            return Err(MvError::Missing {
                what: "a readable snapshot".into(),
            });
        };
        match (snap.entries.get(&map_id), snap.root(map_id)) {
            (Some(read), _) => read.clone(),
            (None, None) => Ok(Vec::new()),
            (None, Some(root)) => self.read_map_at(map_id, root, &snap.blocks, DataType::Object),
        }
    }

    /// [`MvStore::read_map`], handing over the entries read while choosing the snapshot
    /// instead of copying them (a second call reads the map again).
    pub fn take_map(&mut self, map_id: u32) -> Result<Vec<Entry>, MvError> {
        match self
            .snapshot
            .as_mut()
            .and_then(|s| s.entries.remove(&map_id))
        {
            Some(read) => read,
            None => self.read_map(map_id),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        map_id: u32,
        pos: u64,
        blocks: &Places<'_>,
        ty: DataType,
        depth: usize,
        seen: &mut HashSet<u64>,
        out: &mut Vec<Entry>,
    ) -> Result<(), MvError> {
        if depth > MAX_DEPTH || !seen.insert(pos) {
            return Err(MvError::TreeTooDeep { map: map_id, pos });
        }
        let page = self.page_in(pos, blocks, ty)?;
        // the position's type bit and length code must fit the page (H2 checks both)
        let p = Pos::from_u64(pos);
        let offset = self.file_offset(pos, blocks).unwrap_or(0);
        let is_node = !page.children.is_empty();
        if p.node != is_node {
            return Err(MvError::BadPage {
                offset,
                reason: format!(
                    "position 0x{pos:x} names a {}, the page is a {}",
                    if p.node { "node" } else { "leaf" },
                    if p.node { "leaf" } else { "node" }
                ),
            });
        }
        if max_length(p.code).is_some_and(|max| page.length > max) {
            return Err(MvError::BadPage {
                offset,
                reason: format!(
                    "page length {} exceeds {} of length code {}",
                    page.length,
                    max_length(p.code).unwrap_or(0),
                    p.code
                ),
            });
        }
        if page.map_id != map_id {
            return Err(MvError::WrongMap {
                offset: self.file_offset(pos, blocks).unwrap_or(0),
                found: page.map_id,
                expected: map_id,
            });
        }
        if page.children.is_empty() {
            let chunk = Pos::from_u64(pos).chunk;
            for (index, (key, value)) in page.keys.into_iter().zip(page.values).enumerate() {
                out.push(Entry {
                    key,
                    value,
                    chunk,
                    page: pos,
                    index,
                });
            }
        } else {
            for child in page.children {
                if child != 0 {
                    self.walk(map_id, child, blocks, ty, depth + 1, seen, out)?;
                }
            }
        }
        Ok(())
    }

    fn file_offset(&self, pos: u64, blocks: &Places<'_>) -> Option<usize> {
        let p = Pos::from_u64(pos);
        let block = blocks.get(p.chunk)?;
        (block as usize)
            .checked_mul(BLOCK_SIZE)?
            .checked_add(p.offset as usize)
    }

    /// Decodes the page at a position.
    pub fn page_at(
        &self,
        pos: u64,
        blocks: &HashMap<u32, u64>,
        ty: DataType,
    ) -> Result<Page, MvError> {
        self.page_in(pos, &Places::own(blocks), ty)
    }

    fn page_in(&self, pos: u64, blocks: &Places<'_>, ty: DataType) -> Result<Page, MvError> {
        let p = Pos::from_u64(pos);
        let block = blocks.get(p.chunk).ok_or(MvError::UnknownChunk {
            chunk: p.chunk,
            pos,
        })?;
        let chunk_end = self
            .chunk_at(p.chunk, block)
            .map(|c| c.end(self.data.len()))
            .unwrap_or(self.data.len());
        let start = (block as usize)
            .checked_mul(BLOCK_SIZE)
            .and_then(|b| b.checked_add(p.offset as usize))
            .unwrap_or(usize::MAX);
        if start >= chunk_end {
            return Err(MvError::PageOutOfBounds { pos, offset: start });
        }
        self.decode_page(&self.data[start..chunk_end], p.chunk, p.offset, ty, start)
    }

    /// The TOC of a chunk: one element per page (map id in place of the chunk id).
    pub fn toc(&self, chunk: &Chunk) -> Option<Vec<Pos>> {
        let toc = chunk.toc? as usize;
        let start = chunk.start().checked_add(toc)?;
        let n = chunk.pages as usize;
        let end = start.checked_add(n.checked_mul(8)?)?;
        if end > chunk.end(self.data.len()) {
            return None;
        }
        Some(
            self.data[start..end]
                .chunks_exact(8)
                .map(|b| Pos::from_u64(u64::from_be_bytes(b.try_into().unwrap_or([0; 8]))))
                .collect(),
        )
    }

    /// Every page of a chunk that decodes, by its TOC, else by walking from the header:
    /// (position, page). The data type is chosen per map: String for the layout (0) and
    /// meta map (`meta_id`), Object for all others.
    pub fn chunk_pages(&self, chunk: &Chunk, meta_id: u32) -> (Vec<(u64, Page)>, Vec<MvError>) {
        let mut pages = Vec::new();
        let mut errors = Vec::new();
        let end = chunk.end(self.data.len());
        let ty = |map: u32| {
            if map == 0 || map == meta_id {
                DataType::String
            } else {
                DataType::Object
            }
        };
        let decode = |offset: u32, map: Option<u32>| -> Result<Page, MvError> {
            let start = chunk.start().saturating_add(offset as usize);
            if start >= end {
                return Err(MvError::PageOutOfBounds {
                    pos: offset as u64,
                    offset: start,
                });
            }
            let buf = &self.data[start..end];
            let map = match map {
                Some(m) => m,
                None => peek_map_id(buf).ok_or(MvError::BadPage {
                    offset: start,
                    reason: "no page header".into(),
                })?,
            };
            self.decode_page(buf, chunk.id, offset, ty(map), start)
        };
        if let Some(toc) = self.toc(chunk) {
            // a page listed twice is read once (a hostile TOC may list one page per entry)
            let mut listed = HashSet::new();
            for el in toc {
                if !listed.insert(el.offset) {
                    continue;
                }
                let pos = Pos {
                    chunk: chunk.id,
                    ..el
                }
                .to_u64();
                match decode(el.offset, Some(el.chunk)) {
                    Ok(p) => pages.push((pos, p)),
                    Err(e @ MvError::WorkLimit { .. }) => {
                        errors.push(e);
                        break;
                    }
                    Err(e) => errors.push(e),
                }
            }
        } else {
            let mut offset = chunk.first_page as u32;
            let limit = chunk
                .toc
                .map(|t| t as usize)
                .unwrap_or(end - chunk.start().min(end));
            while (offset as usize) < limit {
                match decode(offset, None) {
                    Ok(p) => {
                        let code = length_code(p.length);
                        let pos = Pos {
                            chunk: chunk.id,
                            offset,
                            code,
                            node: !p.children.is_empty(),
                        }
                        .to_u64();
                        let len = p.length as u32;
                        pages.push((pos, p));
                        offset = offset.saturating_add(len);
                    }
                    Err(e) => {
                        // a zero length means the padding before the TOC/footer: the run ends
                        let start = chunk.start().saturating_add(offset as usize);
                        if matches!(e, MvError::WorkLimit { .. })
                            || self
                                .data
                                .get(start..start.saturating_add(4))
                                .is_some_and(|b| b != [0, 0, 0, 0])
                        {
                            errors.push(e);
                        }
                        break;
                    }
                }
            }
        }
        (pages, errors)
    }
}

/// Where chunks start (chunk id → block): a candidate snapshot's own places, then the
/// places the chunk scan found, shared by every candidate.
struct Places<'m> {
    own: &'m HashMap<u32, u64>,
    base: Option<&'m HashMap<u32, u64>>,
}

impl<'m> Places<'m> {
    fn own(own: &'m HashMap<u32, u64>) -> Places<'m> {
        Places { own, base: None }
    }

    fn get(&self, chunk: u32) -> Option<u64> {
        self.own
            .get(&chunk)
            .or_else(|| self.base.and_then(|b| b.get(&chunk)))
            .copied()
    }
}

/// The chosen snapshot with the scanned chunks added to its places (its own first).
fn with_scanned(mut s: Snapshot, scanned: &HashMap<u32, u64>) -> Snapshot {
    for (id, b) in scanned {
        s.blocks.entry(*id).or_insert(*b);
    }
    s
}

/// The length code H2 would give a page of `len` bytes.
pub fn length_code(len: usize) -> u32 {
    (0..31)
        .find(|c| max_length(*c).is_some_and(|m| m >= len))
        .unwrap_or(31)
}

fn peek_map_id(buf: &[u8]) -> Option<u32> {
    let mut c = Cursor::new(buf);
    c.take(6).ok()?;
    c.varint().ok()?;
    Some(c.varint().ok()? as u32)
}

fn string_map(entries: &[Entry]) -> BTreeMap<String, String> {
    entries
        .iter()
        .filter_map(|e| match (&e.key, &e.value) {
            (MvValue::Str(k), MvValue::Str(v)) => Some((k.clone(), v.clone())),
            _ => None,
        })
        .collect()
}

fn read_header(data: &[u8]) -> Option<StoreHeader> {
    let mut best: Option<StoreHeader> = None;
    for b in 0..2 {
        let Some(block) = data.get(b * BLOCK_SIZE..((b + 1) * BLOCK_SIZE).min(data.len())) else {
            continue;
        };
        if !block.starts_with(b"H:2") {
            continue;
        }
        let Some(fields) = parse_checked(block) else {
            continue;
        };
        let format = hex(&fields, "formatRead")
            .or_else(|| hex(&fields, "format"))
            .unwrap_or(1);
        let h = StoreHeader {
            format,
            version: hex(&fields, "version"),
            chunk: hex(&fields, "chunk"),
            block: hex(&fields, "block"),
            clean: fields.contains_key("clean"),
            created: hex(&fields, "created"),
            fields,
        };
        if best
            .as_ref()
            .is_none_or(|o| h.version.unwrap_or(0) > o.version.unwrap_or(0))
        {
            best = Some(h);
        }
    }
    best
}

impl fmt::Display for Chunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "chunk {} (block {}, version {})",
            self.id, self.block, self.version
        )
    }
}

fn scan_chunks(data: &[u8]) -> Vec<Chunk> {
    let mut out = Vec::new();
    let blocks = data.len() / BLOCK_SIZE + usize::from(data.len() % BLOCK_SIZE != 0);
    let mut b = 2;
    while b < blocks {
        let start = b * BLOCK_SIZE;
        let area = &data[start..(start + MAX_HEADER_LENGTH).min(data.len())];
        if !area.starts_with(b"chunk:") {
            b += 1;
            continue;
        }
        let Some(nl) = area.iter().position(|x| *x == b'\n') else {
            b += 1;
            continue;
        };
        let text: String = area[..nl].iter().map(|&x| x as char).collect();
        let fields = parse_map(text.trim_end());
        let (Some(id), Some(len), Some(version), Some(root)) = (
            hex(&fields, "chunk"),
            hex(&fields, "len"),
            hex(&fields, "version"),
            hex(&fields, "root"),
        ) else {
            b += 1;
            continue;
        };
        let format_hint = if fields.contains_key("block") { 2 } else { 3 };
        let mut chunk = Chunk {
            id: id as u32,
            block: b as u64,
            len: len.max(1),
            version,
            pages: hex(&fields, "pages").unwrap_or(0),
            root,
            toc: hex(&fields, "toc"),
            first_page: nl + 1,
            time: hex(&fields, "time"),
            footer_ok: false,
            format: format_hint,
        };
        let end = (b as u64)
            .saturating_add(chunk.len)
            .saturating_mul(BLOCK_SIZE as u64);
        if end <= data.len() as u64 {
            let end = end as usize;
            if let Some(footer) = parse_checked(&data[end - FOOTER_LENGTH..end]) {
                let same_id = hex(&footer, "chunk") == Some(id);
                let placed = match (hex(&footer, "len"), hex(&footer, "block")) {
                    (Some(l), _) => l == chunk.len,
                    (None, Some(fb)) => fb == b as u64,
                    _ => false,
                };
                chunk.footer_ok = same_id && placed && hex(&footer, "version") == Some(version);
            }
        }
        out.push(chunk);
        // pages never start with `chunk:` at a block boundary in practice, but a damaged
        // chunk's length must not hide the next one: step one block at a time.
        b += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fletcher_of_real_header() {
        let line =
            b"H:2,block:2,blockSize:1000,chunk:1,clean:1,created:19b19df3deb,format:3,version:1";
        assert_eq!(fletcher32(line), 0xfdc27271);
    }

    #[test]
    fn positions_and_codes() {
        let p = Pos::from_u64(0x4000006344);
        assert_eq!((p.chunk, p.offset, p.code, p.node), (1, 0x18D, 2, false));
        assert_eq!(p.to_u64(), 0x4000006344);
        assert_eq!(max_length(0), Some(32));
        assert_eq!(max_length(1), Some(48));
        assert_eq!(max_length(30), Some(1 << 20));
        assert_eq!(max_length(31), None);
        assert_eq!(length_code(64), 2);
        assert_eq!(length_code(2 << 20), 31);
    }

    #[test]
    fn h2_strings_are_not_utf8() {
        // é as C3 29, then an emoji as two 3-byte surrogate units
        let mut c = Cursor::new(&[0x03, 0xC3, 0x29, 0xED, 0x20, 0x3D, 0xED, 0x38, 0x00]);
        assert_eq!(c.string().unwrap(), "é\u{1F600}");
    }

    #[test]
    fn varints_and_object_tags() {
        let mut c = Cursor::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
        assert_eq!(c.varint().unwrap(), -1);
        let mut c = Cursor::new(&[
            0x05, 0xAC, 0x02, 0x43, 0x52, 0x00, 0x01, 0x20, 0x5A, b'h', b'i',
        ]);
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Int(300));
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Int(3));
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Int(2));
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Null);
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Bool(false));
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Bool(true));
        assert_eq!(read_object(&mut c).unwrap(), MvValue::Str("hi".into()));
        let mut c = Cursor::new(&[0x13, 0x7F, 0x00]);
        assert_eq!(
            read_object(&mut c),
            Err(MvError::BadValue {
                at: 2,
                reason: "length 127 exceeds the 1 bytes left".into()
            })
        );
        let mut c = Cursor::new(&[15]);
        assert_eq!(
            read_object(&mut c),
            Err(MvError::BadValue {
                at: 0,
                reason: "unknown ObjectDataType tag 15".into()
            })
        );
    }

    #[test]
    fn lzf_literals_and_backrefs() {
        // "abcabcabc": literal "abc", then back-reference of 6 bytes at distance 3
        let input = [2, b'a', b'b', b'c', (4 << 5), 2];
        assert_eq!(lzf_expand(&input, 9).unwrap(), b"abcabcabc");
        assert!(lzf_expand(&[0x20, 5], 3).is_err());
        assert!(lzf_expand(&[5, b'a'], 6).is_err());
    }

    #[test]
    fn parse_map_quotes() {
        let m = parse_map(r#"a:1,b:"x,\"y",c:"#);
        assert_eq!(m["a"], "1");
        assert_eq!(m["b"], "x,\"y");
        assert_eq!(m["c"], "");
    }

    fn page(check: u16, ty: u8, tail: &[u8]) -> Vec<u8> {
        let mut b = vec![0, 0, 0, 0];
        b.extend_from_slice(&check.to_be_bytes());
        b.extend_from_slice(&[0, 0, 1, ty]);
        b.extend_from_slice(tail);
        let len = (b.len() as u32).to_be_bytes();
        b[..4].copy_from_slice(&len);
        b
    }

    #[test]
    fn checked_lines_count_bytes_not_chars() {
        // a Latin-1 byte before `,fletcher:` is one byte of the checksum (and one char)
        let mut line = b"H:2,block:2,chunk:1,format:2,x:\xe9".to_vec();
        let sum = fletcher32(&line);
        line.extend_from_slice(format!(",fletcher:{sum:08x}").as_bytes());
        let map = parse_checked(&line).unwrap();
        assert_eq!(map["x"], "\u{e9}");
        assert_eq!(map["format"], "2");
        // twenty high bytes make the text 20 bytes longer than the line: the cut taken
        // from the text ran past the line's end (the panic of the fuzz findings)
        let mut line = b"a".to_vec();
        line.extend_from_slice(&[0xFF; 20]);
        line.extend_from_slice(b",fletcher:1");
        assert_eq!(parse_checked(&line), None);
        assert_eq!(parse_checked(&[0xFF; 4]), None);
        assert_eq!(parse_checked(b",fletcher"), None);
    }

    /// A file with one chunk at block 2 holding `n` leaf pages of map 0 ("a" -> "b") from
    /// offset 0x100, and a TOC listing the pages in `toc` (indexes into those pages).
    fn chunk_of_pages(n: usize, toc: &[usize]) -> (Vec<u8>, Chunk) {
        let mut body = vec![0u8; 0x100];
        let mut offsets = Vec::new();
        for _ in 0..n {
            let off = body.len() as u32;
            body.extend(page(1 ^ (off as u16) ^ 14, 0, &[1, b'a', 1, b'b']));
            offsets.push(off);
        }
        let toc_at = body.len();
        for &i in toc {
            let pos = Pos {
                chunk: 0,
                offset: offsets[i],
                code: 0,
                node: false,
            };
            body.extend_from_slice(&pos.to_u64().to_be_bytes());
        }
        let blocks = body.len().div_ceil(BLOCK_SIZE);
        body.resize(blocks * BLOCK_SIZE, 0);
        let mut data = vec![0u8; 2 * BLOCK_SIZE];
        data.extend(body);
        let chunk = Chunk {
            id: 1,
            block: 2,
            len: blocks as u64,
            version: 1,
            pages: toc.len() as u64,
            root: 0,
            toc: Some(toc_at as u64),
            first_page: 0x100,
            time: None,
            footer_ok: true,
            format: 2,
        };
        (data, chunk)
    }

    #[test]
    fn a_page_listed_again_in_the_toc_is_read_once() {
        let toc: Vec<usize> = (0..1000).map(|i| i % 2).collect();
        let (data, chunk) = chunk_of_pages(2, &toc);
        let mv = MvStore::from_bytes(&data);
        let (pages, errors) = mv.chunk_pages(&chunk, 1);
        let offsets: Vec<u32> = pages
            .iter()
            .map(|(p, _)| Pos::from_u64(*p).offset)
            .collect();
        assert_eq!(offsets, [0x100, 0x10E]);
        assert_eq!(errors, []);
    }

    #[test]
    fn decoding_stops_at_the_work_limit() {
        let toc: Vec<usize> = (0..50).collect();
        let (data, chunk) = chunk_of_pages(50, &toc);
        // 14 bytes a page: 100 bytes of budget decode 8 pages (the last one overdrawn)
        let mv = MvStore::with_work_limit(&data, 100);
        let (pages, errors) = mv.chunk_pages(&chunk, 1);
        assert_eq!(pages.len(), 8);
        assert_eq!(errors, [MvError::WorkLimit { limit: 100 }]);
        // the default budget reads them all
        let mv = MvStore::from_bytes(&data);
        assert_eq!(mv.chunk_pages(&chunk, 1).0.len(), 50);
    }

    #[test]
    fn pages_decode_and_fail_with_their_place() {
        // a leaf of map 0 with "a" -> "b" at chunk 1, offset 0x100: length 14
        let ok = page(1 ^ 0x100 ^ 14, 0, &[1, b'a', 1, b'b']);
        let p = parse_page(&ok, 1, 0x100, DataType::String, DataType::String, 8448).unwrap();
        assert_eq!(p.keys, [MvValue::Str("a".into())]);
        assert_eq!(p.values, [MvValue::Str("b".into())]);
        assert!(!p.compressed && p.children.is_empty());
        assert_eq!(
            parse_page(&ok, 2, 0x100, DataType::String, DataType::String, 8448),
            Err(MvError::BadCheck {
                offset: 8448,
                found: 0x10F,
                expected: 0x10C
            })
        );
        // LZF-compressed, claiming 1 GiB from 2 bytes
        let bomb = page(1 ^ 0x100 ^ 16, 2, &[0x80, 0x80, 0x80, 0x80, 0x04, 0x00]);
        let err = parse_page(&bomb, 1, 0x100, DataType::Object, DataType::Object, 0).unwrap_err();
        assert_eq!(
            err,
            MvError::BadPage {
                offset: 0,
                reason: "at byte 16: expanded size 1073741825 of 1 compressed bytes is implausible"
                    .into()
            }
        );
        // a length beyond the buffer
        let mut long = ok.clone();
        long[3] = 200;
        assert_eq!(
            parse_page(&long, 1, 0x100, DataType::String, DataType::String, 0),
            Err(MvError::BadPage {
                offset: 0,
                reason: "page length 200 outside 7..=14".into()
            })
        );
    }
}
