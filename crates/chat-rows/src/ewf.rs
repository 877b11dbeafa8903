//! EWF (`.E01`) disk images: the chunks of an acquired disk, where each lies in the
//! segment files.
//!
//! An `.E01` is how most cases hand over a disk: EnCase, FTK Imager, `ewfacquire`
//! and Guymager write one. Mounting it needs `ewfmount` and a loop device; read here,
//! it is one more disk under [`crate::vdisk`], and nothing is written. A segment file
//! (`.E01`, `.E02`, ... `.E99`, `.EAA`, ...) is a file header and a chain of
//! sections, each behind a 76-byte descriptor that names its type and the next
//! one's place. The `volume` (or `disk`) section gives the disk's size and its chunk
//! size (32 KiB by default); each `table` section lists where the chunks of the
//! `sectors` section before it lie, each zlib-compressed or stored with an Adler-32.
//!
//! Nothing here takes the image on trust: every descriptor and table header is
//! checked against its Adler-32 (a damaged table is read from its `table2` copy), a
//! stored chunk against its own, a compressed one by zlib's; every length is checked
//! against the segment file before it is read; the chain must move forward, so a
//! descriptor that points back ends its segment with a problem rather than a loop. A
//! chunk no table holds (a segment missing or cut short) is an error when read,
//! never zeros. Only the last few chunks inflated are kept.
//!
//! EWF2 (`.Ex01`, EnCase 7's second format) and logical evidence files (`.L01`) are
//! other formats, not read here.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::sync::{Arc, Mutex};

use crate::evidence::RangedFile;

/// The first bytes of every segment file of an EWF-E01 or SMART image.
const SIGNATURE: &[u8; 8] = b"EVF\x09\x0d\x0a\xff\x00";

/// A chunk is at most this large (32,768 sectors of 512 bytes is EnCase's largest).
const MAX_CHUNK: u64 = 16 << 20;

/// The inflated chunks kept, in bytes (at least one chunk is always kept): a database
/// read page by page touches its chunks again and again, and each miss inflates 32 KiB.
const CACHE_BYTES: usize = 8 << 20;

/// What went wrong reading an EWF image, in words.
fn bad(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]))
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}

/// `len` bytes of a segment file at `at`, or an error when the file is shorter.
fn read_exact(file: &RangedFile, at: u64, len: u64, what: &str) -> io::Result<Vec<u8>> {
    crate::vdisk::read_exact_of(file, "its segment file", at, len, what)
}

fn adler32(bytes: &[u8]) -> u32 {
    adler2::adler32_slice(bytes)
}

/// One chunk table: the chunks `first..first + count`, their entries in a segment.
#[derive(Debug)]
struct Table {
    first: u64,
    count: u64,
    segment: usize,
    /// Where its 4-byte entries start in the segment file.
    entries: u64,
    /// What each entry's offset counts from (0 before EnCase 6: the file's start).
    base: u64,
    /// Where the data of its last chunk ends at the latest.
    end: u64,
}

/// The disk an EWF image holds: its size, its chunk size and where each chunk is.
#[derive(Debug)]
pub(crate) struct Ewf {
    segments: Vec<Arc<RangedFile>>,
    /// The disk's size in bytes.
    pub(crate) size: u64,
    /// The bytes per sector the image was acquired in.
    pub(crate) sector: u64,
    chunk: u64,
    tables: Vec<Table>,
    /// The last chunks inflated.
    cache: Mutex<Cache>,
}

/// Chunks inflated, by number, the oldest dropped first past [`CACHE_BYTES`] or four
/// chunks, whichever is more (EnCase allows chunks of 16 MiB: a store's reads that go
/// back and forth between a few of them must not inflate one on every read).
#[derive(Debug, Default)]
struct Cache {
    chunks: HashMap<u64, Arc<Vec<u8>>>,
    order: VecDeque<u64>,
    bytes: usize,
}

impl Cache {
    fn get(&self, c: u64) -> Option<Arc<Vec<u8>>> {
        self.chunks.get(&c).cloned()
    }

    fn put(&mut self, c: u64, data: Arc<Vec<u8>>) {
        let room = CACHE_BYTES.max(data.len() * 4);
        while self.bytes + data.len() > room {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(d) = self.chunks.remove(&old) {
                self.bytes -= d.len();
            }
        }
        self.bytes += data.len();
        if let Some(d) = self.chunks.insert(c, data) {
            self.bytes -= d.len();
        } else {
            self.order.push_back(c);
        }
    }
}

/// What a segment's table header says.
struct Header {
    count: u64,
    base: u64,
}

/// A table (or table2) section's header and entries' place, when it checks.
fn table_header(file: &RangedFile, at: u64, size: u64) -> Option<Header> {
    let head = read_exact(file, at + 76, 24, "a table header").ok()?;
    if adler32(&head[..20]) != le_u32(&head, 20) {
        return None;
    }
    let count = u64::from(le_u32(&head, 0));
    let base = le_u64(&head, 8);
    let fits = (at + 100).checked_add(count * 4)? <= file.len();
    let within = size == 0 || 100 + count * 4 <= size;
    (count > 0 && fits && within).then_some(Header { count, base })
}

impl Ewf {
    /// Reads the sections of `segments` (the `.E01` first, then each later segment file
    /// found beside it, by `names`); what is read with a caveat goes to `problems`.
    pub(crate) fn open(
        segments: Vec<Arc<RangedFile>>,
        names: &[String],
        problems: &mut Vec<String>,
    ) -> io::Result<Ewf> {
        let Some(first) = segments.first() else {
            return Err(bad("no segment file"));
        };
        let head = read_exact(first, 0, 13, "the file header")?;
        if &head[..8] != SIGNATURE {
            return Err(bad("not an EWF image (no \"EVF\" signature)"));
        }
        // (sectors per chunk, bytes per sector, sectors) from the volume section
        let mut geometry: Option<(u64, u64, u64)> = None;
        let mut tables: Vec<Table> = Vec::new();
        let mut chunks = 0u64;
        let mut tables_broken = false;
        let mut done = false;
        let mut used = 0;
        // the last segment read ended in a `next` section: another should follow
        let mut wants_next = false;
        for (i, file) in segments.iter().enumerate() {
            let name = names.get(i).map(String::as_str).unwrap_or("?");
            // a later segment file too short for its header ends the image there (the
            // chunks of the segments before it still read)
            let head = match read_exact(file, 0, 13, "the file header") {
                Ok(h) => h,
                Err(e) if i > 0 => {
                    problems.push(format!("EWF segment file {name} not read: {e}"));
                    break;
                }
                Err(e) => return Err(e),
            };
            if &head[..8] != SIGNATURE
                || usize::from(u16::from_le_bytes([head[9], head[10]])) != i + 1
            {
                problems.push(format!(
                    "EWF segment file {name} not read: it is not segment {} of the image (its header says {})",
                    i + 1,
                    if &head[..8] == SIGNATURE {
                        format!("segment {}", u16::from_le_bytes([head[9], head[10]]))
                    } else {
                        "no EWF signature".to_string()
                    }
                ));
                break;
            }
            used = i + 1;
            wants_next = false;
            let mut at = 13u64;
            // the last sectors section's end, and whether a table read since
            let mut sectors_end: Option<u64> = None;
            let mut last_table_bad = false;
            let mut ended = false;
            loop {
                let d = match read_exact(file, at, 76, "a section descriptor") {
                    Ok(d) => d,
                    Err(e) => {
                        problems.push(format!("EWF segment file {name} read in part: {e}"));
                        break;
                    }
                };
                if adler32(&d[..72]) != le_u32(&d, 72) {
                    problems.push(format!(
                        "EWF segment file {name} read in part: the section descriptor at byte {at} fails its checksum"
                    ));
                    break;
                }
                let kind_end = d[..16].iter().position(|&b| b == 0).unwrap_or(16);
                let kind = &d[..kind_end];
                let next = le_u64(&d, 16);
                let size = le_u64(&d, 24);
                match kind {
                    b"volume" | b"disk" | b"data" if geometry.is_none() => {
                        let len = size.saturating_sub(76).min(1052);
                        let v = read_exact(file, at + 76, len.max(24), "the volume section")?;
                        let per_chunk = u64::from(le_u32(&v, 8));
                        let per_sector = u64::from(le_u32(&v, 12));
                        // EWF-E01 counts sectors in 64 bits, SMART's 94-byte section in 32
                        let sectors = if len >= 1052 {
                            le_u64(&v, 16)
                        } else {
                            u64::from(le_u32(&v, 16))
                        };
                        geometry = Some((per_chunk, per_sector, sectors));
                    }
                    b"sectors" => sectors_end = Some(at.saturating_add(size)),
                    b"table" | b"table2" if !tables_broken => {
                        let copy = kind == b"table2";
                        if copy && !last_table_bad {
                            // the mirror of a table read already
                        } else if let Some(h) = table_header(file, at, size) {
                            // chunks lie in the sectors section before the table
                            // (EnCase 2 on), else inside the table section (EnCase 1,
                            // SMART)
                            let end = match sectors_end {
                                Some(e) if e <= at => e,
                                _ if size > 0 => at.saturating_add(size),
                                _ => next,
                            }
                            .min(file.len());
                            tables.push(Table {
                                first: chunks,
                                count: h.count,
                                segment: i,
                                entries: at + 100,
                                base: h.base,
                                end,
                            });
                            chunks += h.count;
                            last_table_bad = false;
                        } else if copy {
                            problems.push(format!(
                                "EWF segment file {name}: a chunk table and its copy (at byte {at}) fail their checksums; the chunks from chunk {chunks} on are not read"
                            ));
                            tables_broken = true;
                        } else {
                            last_table_bad = true;
                        }
                    }
                    b"error2" => problems.push(format!(
                        "EWF segment file {name}: the image records sectors its acquisition could not read (an error2 section at byte {at}); they read as the acquiring tool wrote them"
                    )),
                    b"next" => {
                        ended = true;
                        wants_next = true;
                        break;
                    }
                    b"done" => {
                        ended = true;
                        done = true;
                        break;
                    }
                    _ => {}
                }
                if next <= at {
                    problems.push(format!(
                        "EWF segment file {name} read in part: the section at byte {at} names the next at byte {next}, not after it"
                    ));
                    break;
                }
                at = next;
            }
            if last_table_bad && !tables_broken {
                problems.push(format!(
                    "EWF segment file {name}: its last chunk table fails its checksum and has no copy; the chunks from chunk {chunks} on are not read"
                ));
                tables_broken = true;
            }
            if done || !ended {
                break;
            }
        }
        let (per_chunk, per_sector, sectors) =
            geometry.ok_or_else(|| bad("the EWF image has no volume section"))?;
        if ![512, 1024, 2048, 4096].contains(&per_sector) {
            return Err(bad(format!(
                "an EWF image of {per_sector} bytes per sector"
            )));
        }
        let chunk = per_chunk.saturating_mul(per_sector);
        if per_chunk == 0 || chunk > MAX_CHUNK {
            return Err(bad(format!(
                "an EWF image of {per_chunk} sectors per chunk"
            )));
        }
        let size = sectors.saturating_mul(per_sector);
        if size == 0 || size > crate::vdisk::MAX_DISK {
            return Err(bad(format!("an EWF image of a disk of {size} bytes")));
        }
        let needed = size.div_ceil(chunk);
        if chunks < needed && !tables_broken {
            let next = names
                .first()
                .and_then(|first| segment_name(first, u32::try_from(used).ok()? + 1))
                .unwrap_or_else(|| "the next segment file".to_string());
            problems.push(if !wants_next {
                format!("the EWF image's tables list {chunks} of its {needed} chunks; the others are not read")
            } else {
                format!(
                    "the EWF image's segment files hold {chunks} of its {needed} chunks: {next} is missing or not read; the others are not read"
                )
            });
        }
        Ok(Ewf {
            segments,
            size,
            sector: per_sector,
            chunk,
            tables,
            cache: Mutex::new(Cache::default()),
        })
    }

    /// The stored bytes of the image, all its segment files.
    pub(crate) fn stored(&self) -> u64 {
        self.segments.iter().map(|s| s.len()).sum()
    }

    /// Chunk `c`, inflated and checked.
    fn chunk(&self, c: u64) -> io::Result<Arc<Vec<u8>>> {
        if let Some(data) = self.cache.lock().ok().and_then(|cache| cache.get(c)) {
            return Ok(data);
        }
        let t = self.tables.partition_point(|t| t.first + t.count <= c);
        let Some(table) = self.tables.get(t).filter(|t| t.first <= c) else {
            return Err(bad(format!(
                "chunk {c} of the EWF image is in none of its tables (a segment file missing, cut short or damaged)"
            )));
        };
        let file = &self.segments[table.segment];
        let i = c - table.first;
        let last = i + 1 == table.count;
        let raw = read_exact(
            file,
            table.entries + i * 4,
            if last { 4 } else { 8 },
            "a chunk table entry",
        )?;
        let entry = le_u32(&raw, 0);
        let start = table.base.saturating_add(u64::from(entry & 0x7FFF_FFFF));
        let want = self.chunk.min(self.size - c * self.chunk);
        let mut data = Vec::with_capacity(want as usize);
        if entry >> 31 == 1 {
            let stop = if last {
                table.end
            } else {
                table
                    .base
                    .saturating_add(u64::from(le_u32(&raw, 4) & 0x7FFF_FFFF))
            };
            // a compressed chunk is never much larger than the chunk (it would be
            // stored as it is); zlib ends the stream itself
            let len = stop
                .saturating_sub(start)
                .min(self.chunk * 2 + 4096)
                .min(file.len().saturating_sub(start));
            let packed = read_exact(file, start, len, "a compressed chunk")?;
            // inflated straight into the chunk's buffer, never past it (zlib checks
            // the stream's Adler-32 at its end)
            let mut z = flate2::Decompress::new(true);
            let status = z
                .decompress_vec(&packed, &mut data, flate2::FlushDecompress::Finish)
                .map_err(|e| {
                    bad(format!(
                        "chunk {c} of the EWF image at byte {start} not inflated: {e}"
                    ))
                })?;
            if status != flate2::Status::StreamEnd {
                return Err(bad(format!(
                    "chunk {c} of the EWF image at byte {start} not inflated: {}",
                    if data.len() as u64 == want {
                        format!("it inflates to more than {want} bytes")
                    } else {
                        "its stream ends early".to_string()
                    }
                )));
            }
        } else {
            let stored = read_exact(file, start, want + 4, "a chunk")?;
            if adler32(&stored[..want as usize]) != le_u32(&stored, want as usize) {
                return Err(bad(format!(
                    "chunk {c} of the EWF image at byte {start} fails its checksum"
                )));
            }
            data.extend_from_slice(&stored[..want as usize]);
        }
        if data.len() as u64 != want {
            return Err(bad(format!(
                "chunk {c} of the EWF image at byte {start} inflates to {} bytes, not {want}",
                data.len()
            )));
        }
        let data = Arc::new(data);
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(c, data.clone());
        }
        Ok(data)
    }

    /// Reads disk bytes from `at` into `buf` (within one chunk); 0 at the disk's end.
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<usize> {
        if at >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let c = at / self.chunk;
        let within = (at % self.chunk) as usize;
        let data = self.chunk(c)?;
        let n = buf.len().min(data.len().saturating_sub(within));
        buf[..n].copy_from_slice(&data[within..within + n]);
        Ok(n)
    }
}

/// The name of segment file `n` (1 for the `.E01` itself) of the image `first`:
/// `.E02` ... `.E99`, then `.EAA` ... `.EZZ`, `.FAA` ... `.ZZZ`, in the case of the
/// first's extension; or part `n` of a split raw image (`.001`, `.002` ... `.999`).
/// `None` past `.ZZZ` (`.999`), or when `first` ends neither `.E01` nor `.001`.
/// A first part under a compression of its own (`disk.001.gz`, `disk.E01.zst`) names
/// its later parts under the same one, as written (`disk.002.gz`, `disk.E02.zst`): each
/// part compressed on its own, as `gzip disk.0*` leaves them.
pub(crate) fn segment_name(first: &str, n: u32) -> Option<String> {
    if let Some(stem) = crate::archive::ArchiveKind::without_compression(first.as_bytes()) {
        // a compression's extension is ASCII, so the cut is at a character boundary
        let (stem, ext) = first.split_at(stem.len());
        return Some(format!("{}{ext}", plain_segment_name(stem, n)?));
    }
    plain_segment_name(first, n)
}

fn plain_segment_name(first: &str, n: u32) -> Option<String> {
    let stem = first.get(..first.len().checked_sub(3)?)?;
    let ext = &first[first.len() - 3..];
    if ext == "001" && stem.ends_with('.') && (1..=999).contains(&n) {
        // a split raw image's parts: `.001` ... `.999`
        return Some(format!("{stem}{n:03}"));
    }
    if !ext.eq_ignore_ascii_case("e01") || n == 0 {
        return None;
    }
    let lower = ext.starts_with('e');
    let letters = |s: String| if lower { s.to_ascii_lowercase() } else { s };
    if n <= 99 {
        return Some(format!("{stem}{}{n:02}", &ext[..1]));
    }
    let k = n - 100;
    let (a, rest) = (k / (26 * 26), k % (26 * 26));
    let lead = b'E' + u8::try_from(a).ok()?;
    if lead > b'Z' {
        return None;
    }
    Some(format!(
        "{stem}{}",
        letters(format!(
            "{}{}{}",
            lead as char,
            (b'A' + (rest / 26) as u8) as char,
            (b'A' + (rest % 26) as u8) as char
        ))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_files_are_named_as_encase_names_them() {
        let names: Vec<_> = [1, 2, 99, 100, 101, 125, 126, 775, 776]
            .iter()
            .map(|&n| segment_name("case/disk.E01", n))
            .collect();
        assert_eq!(
            names,
            [
                Some("case/disk.E01".to_string()),
                Some("case/disk.E02".to_string()),
                Some("case/disk.E99".to_string()),
                Some("case/disk.EAA".to_string()),
                Some("case/disk.EAB".to_string()),
                Some("case/disk.EAZ".to_string()),
                Some("case/disk.EBA".to_string()),
                Some("case/disk.EZZ".to_string()),
                Some("case/disk.FAA".to_string()),
            ]
        );
        assert_eq!(segment_name("disk.e01", 100).as_deref(), Some("disk.eaa"));
        assert_eq!(
            segment_name("disk.E01", 100 + 21 * 676).as_deref(),
            Some("disk.ZAA")
        );
        assert_eq!(segment_name("disk.E01", 100 + 22 * 676), None);
        assert_eq!(segment_name("disk.vhd", 2), None);
        assert_eq!(segment_name("disk.001", 2).as_deref(), Some("disk.002"));
        assert_eq!(segment_name("disk.001", 999).as_deref(), Some("disk.999"));
        assert_eq!(segment_name("disk.001", 1000), None);
        assert_eq!(segment_name("disk1001", 2), None);
        // a first part under a compression of its own: its later parts under the same
        assert_eq!(
            segment_name("disk.001.gz", 2).as_deref(),
            Some("disk.002.gz")
        );
        assert_eq!(
            segment_name("disk.E01.ZST", 2).as_deref(),
            Some("disk.E02.ZST")
        );
        assert_eq!(
            segment_name("disk.e01.xz", 100).as_deref(),
            Some("disk.eaa.xz")
        );
        assert_eq!(segment_name("disk.dd.gz", 2), None);
        assert_eq!(segment_name("disk.001.gz.gz", 2), None);
    }
}
