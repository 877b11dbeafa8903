//! Archived collections read in place, member by member.
//!
//! Collections arrive archived: KAPE's and Velociraptor's offline collectors write one
//! zip per host, UAC a gzipped tar, and a responder sends a home as `zip -r`.
//! Extracting one first costs the disk twice over and leaves the hashes of the copies,
//! not of what was received; reading the members where they lie keeps one chain of
//! custody (the archive's own hash and each member's) and writes nothing beside it.
//!
//! An archive given to [`crate::Evidence::open_archive`] is a folder to every reader
//! of the evidence: its members stand at the archive's path joined with their names
//! (`/cases/HOST1.zip/C/Users/alice/AppData/...`), so stores claim, name and read them
//! as they would the extracted tree. What cannot stand there is named, never passed
//! over ([`crate::Evidence::open_archive`] returns it): a name that climbs out of the
//! archive (`..`), two entries that name one path, a file whose name is also a folder's.
//!
//! A tar member and a stored zip member are read by ranges in place; a compressed zip
//! member is inflated, under the size cap, into memory or, when large and a spill
//! folder is set, into an unnamed temporary file there (never beside the evidence); a
//! compressed tar (gzip, bzip2, xz, zstd) has no random access and is decompressed
//! once, whole, the same way, through pure-Rust decoders whose memory is bounded
//! before they allocate ([`XZ_MEMORY_LIMIT`], [`ZSTD_MAX_WINDOW`]). A zip
//! member's CRC-32 is checked (by the inflating reader, or by one pass when a stored one
//! is opened); a member whose bytes do not match it is an error, not rows.
//!
//! One store file compressed on its own (`history.jsonl.gz`, as a responder sends a
//! log, or `gzip` left one) is read as the file it holds, standing beside it under its
//! own name (`history.jsonl`), so the stores claim and read it where they would the
//! plain file ([`crate::Evidence::open_compressed`]); it is decompressed once, whole,
//! as a compressed tar is, and named in rows and the manifest as a member of the
//! compressed file (`history.jsonl.gz/history.jsonl`).
//!
//! A line store's file is different: it is read from start to end, a chunk at a time
//! ([`Archive::stream`], under [`crate::Evidence::read_lines`]), so that a log of
//! gigabytes in a collection or a disk image costs a chunk of memory, as it does in a
//! folder, not its size. A compressed zip member is then inflated as it is read, and its
//! CRC-32 is known only at its end: the lines come first, and a mismatch is one
//! `parser:` row after them (a bit turned in transit costs the rows nothing, and the row
//! says the file's bytes are not what the archive stored).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use crate::evidence::{EntryKind, RangedFile};

pub(crate) mod rar;
pub use rar::{RAR_BUFFERED_LIMIT, RAR_DICTIONARY_LIMIT, RAR_KEY_ROUNDS};

/// The bytes of the archive, read by position: what the zip, tar and gzip readers read
/// through.
#[derive(Clone, Debug)]
pub(crate) struct Cursor {
    file: Arc<RangedFile>,
    pos: u64,
}

impl Read for Cursor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read_at(self.pos, buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Cursor {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.file.len().checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the archive",
            )
        })?;
        Ok(self.pos)
    }
}

/// The password, or the passwords, encrypted zip members, 7z blocks and RAR members
/// (or headers) are read with (ZipCrypto or AES, as the member says): a responder's `infected`, a collector's own,
/// or one per collection (Velociraptor's X.509 scheme gives each container its own).
/// Several are tried in the order given on each encrypted member or block until one
/// reads it whole. Never printed: its `Debug` says only that there are some.
#[derive(Clone)]
pub struct ArchivePassword(Arc<[Arc<[u8]>]>);

impl ArchivePassword {
    /// A password, as the bytes the archive's writer was given.
    pub fn new(password: impl AsRef<[u8]>) -> ArchivePassword {
        ArchivePassword(Arc::from([Arc::from(password.as_ref())]))
    }

    /// Several passwords, tried in this order (none gives the same as no password).
    pub fn any_of<P: AsRef<[u8]>>(passwords: impl IntoIterator<Item = P>) -> ArchivePassword {
        ArchivePassword(
            passwords
                .into_iter()
                .map(|p| Arc::from(p.as_ref()))
                .collect(),
        )
    }

    /// The passwords, in the order they are tried.
    fn candidates(&self) -> impl Iterator<Item = &[u8]> {
        self.0.iter().map(|p| &p[..])
    }
}

impl std::fmt::Debug for ArchivePassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ArchivePassword(..)")
    }
}

/// Where a member's bytes are.
#[derive(Debug)]
enum Place {
    /// A zip entry; `stored` when stored without compression or encryption, its stored
    /// length its size (read by ranges in place, its CRC-32 checked by one pass when
    /// opened).
    Zip {
        stored: bool,
        crc32: u32,
        encrypted: bool,
        /// `None` when the `zip` crate decodes it.
        packing: Option<Packing>,
        /// Deflated (method 8), without encryption: a stream this reader inflates itself
        /// where a member is read a chunk at a time ([`Archive::stream`]).
        deflated: bool,
    },
    /// A tar entry: its bytes at this offset of the (inflated) tar file; a 7z or RAR
    /// entry, at this offset of the archive's decoded entries.
    Tar { offset: u64 },
    /// A file of an NTFS volume of a virtual disk: its file record on volume `volume`
    /// of [`Archive::disk`], or why its data cannot be read as it stands.
    Ntfs {
        volume: usize,
        record: u64,
        unreadable: Option<&'static str>,
        /// A deleted file: its record no longer in use ([`crate::vdisk::deleted`]).
        deleted: bool,
    },
}

/// How a zip member is compressed, where this reader decodes it itself: the `zip`
/// crate reads stored, deflated and Deflate64 members (and every encrypted one); its
/// LZMA and xz readers take their dictionary size from the member unchecked, so bzip2,
/// LZMA, xz and zstd members (7-Zip's `-mm=`, WinZip's newer methods) are decoded here,
/// under the same memory bounds as a compressed tar's, and their CRC-32 checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Packing {
    /// Method 12.
    Bzip2,
    /// Method 14: a 4-byte header, the 5 property bytes, then a raw LZMA stream.
    Lzma,
    /// Method 93 (20 before APPNOTE 6.3.8).
    Zstd,
    /// Method 95: a whole xz stream.
    Xz,
}

impl Packing {
    /// The packing of `method`; `None` for a method the `zip` crate decodes or names.
    fn of(method: zip::CompressionMethod) -> Option<Packing> {
        use zip::CompressionMethod as M;
        [
            (M::BZIP2, Packing::Bzip2),
            (M::LZMA, Packing::Lzma),
            (M::ZSTD, Packing::Zstd),
            // the number zstd had before APPNOTE 6.3.8 gave it 93
            (M::ZSTD_DEPRECATED, Packing::Zstd),
            (M::XZ, Packing::Xz),
        ]
        .into_iter()
        .find(|(m, _)| method == *m)
        .map(|(_, p)| p)
    }
}

/// The dictionary an LZMA member may ask for: the xz bound ([`XZ_MEMORY_LIMIT`]).
fn lzma_member<'a>(mut raw: impl Read + 'a, size: u64) -> io::Result<Box<dyn Read + 'a>> {
    let mut header = [0u8; 9];
    raw.read_exact(&mut header)
        .map_err(|e| io::Error::new(e.kind(), format!("lzma: its header cut short ({e})")))?;
    let props_len = u16::from_le_bytes([header[2], header[3]]);
    if props_len != 5 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("lzma: {props_len} property bytes where 5 belong"),
        ));
    }
    let props = header[4];
    let dict = u32::from_le_bytes([header[5], header[6], header[7], header[8]]);
    // the decoder keeps no more history than the member's size
    let used = u64::from(dict).min(size.max(4096));
    let need_kb =
        lzma_rust2::lzma_get_memory_usage_by_props(u32::try_from(used).unwrap_or(u32::MAX), props)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("lzma: {e}")))?;
    if u64::from(need_kb) > XZ_MEMORY_LIMIT >> 10 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "lzma: decoding it needs {need_kb} KiB of memory, over the {} KiB this reader allows",
                XZ_MEMORY_LIMIT >> 10
            ),
        ));
    }
    let reader = lzma_rust2::LzmaReader::new_with_props(raw, size, props, dict, None)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("lzma: {e}")))?;
    Ok(Box::new(Named {
        what: "lzma",
        inner: reader,
    }))
}

/// A member's decoder over its raw bytes.
fn unpacking<'a>(
    packing: Packing,
    raw: impl Read + 'a,
    size: u64,
) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match packing {
        Packing::Bzip2 => Box::new(Named {
            what: "bzip2",
            inner: bzip2::read::BzDecoder::new(raw),
        }),
        Packing::Lzma => return lzma_member(raw, size),
        Packing::Zstd => Box::new(ZstdFrames::new(raw)),
        Packing::Xz => xz_decoder(raw),
    })
}

/// Copies a member's decoded bytes to `out`, at most `cap` of them (more is an error of
/// kind `FileTooLarge`, whatever the member declared: `declared`).
fn copy_capped(
    member: impl Read,
    out: &mut dyn io::Write,
    declared: u64,
    cap: u64,
) -> io::Result<u64> {
    let n = io::copy(&mut member.take(cap.saturating_add(1)), out)
        .map_err(|e| io::Error::new(e.kind(), format!("archive member not read whole: {e}")))?;
    if n > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            crate::evidence::Refusal::TooLarge {
                size: declared.max(n),
                cap,
            },
        ));
    }
    Ok(n)
}

/// A compressed member's decoded stream, ended by an error of kind `FileTooLarge`, in
/// the words `why`, once it passes `bound` bytes ([`Archive::zip_bomb_bound`]), as a
/// whole read of it is.
struct BombBound<R> {
    inner: R,
    bound: u64,
    why: String,
    read: u64,
}

impl<R: Read> Read for BombBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = self.bound.saturating_add(1).saturating_sub(self.read);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if self.read + n as u64 > self.bound {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                self.why.clone(),
            ));
        }
        self.read += n as u64;
        Ok(n)
    }
}

/// A reader that takes the CRC-32 of what it reads.
struct Crc<R> {
    inner: R,
    hasher: crc32fast::Hasher,
}

impl<R: Read> Read for Crc<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// A member's bytes read from start to end ([`Archive::stream`]): every error names
/// the member as not read whole, as a whole read's does, and a zip member's CRC-32 is
/// checked at the end, where the read that finds the end fails when it does not match.
struct MemberReader<R> {
    inner: R,
    /// The CRC-32 of what was read, and the one the zip's directory gives.
    crc: Option<(crc32fast::Hasher, u32)>,
    ended: bool,
}

impl<R: Read> Read for MemberReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self
            .inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("archive member not read whole: {e}")))?;
        if let Some((hasher, want)) = &mut self.crc {
            hasher.update(&buf[..n]);
            if n == 0 && !buf.is_empty() && !std::mem::replace(&mut self.ended, true) {
                let read = hasher.clone().finalize();
                if read != *want {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "archive member not read whole: its CRC-32 {want:#010x} does not match its contents ({read:#010x})"
                        ),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// A member of an archive, as its directory (zip) or its header (tar) describes it.
#[derive(Debug)]
pub(crate) struct Member {
    /// Its index among the archive's entries.
    index: usize,
    /// Its size once inflated, as declared.
    pub(crate) size: u64,
    /// A file, a symbolic or hard link (never followed), or a device or FIFO.
    pub(crate) kind: EntryKind,
    place: Place,
    /// Its modification time (UTC), read when first asked for a zip entry.
    modified: OnceLock<Option<SystemTime>>,
}

impl Member {
    /// A deleted file of a disk image's volume ([`Place::Ntfs`]).
    pub(crate) fn is_deleted(&self) -> bool {
        matches!(self.place, Place::Ntfs { deleted: true, .. })
    }

    /// Why a file of a disk image's volume cannot be read as it stands (its file record
    /// or data stream unreadable, EFS-encrypted), known from the walk.
    pub(crate) fn unreadable(&self) -> Option<&'static str> {
        match self.place {
            Place::Ntfs { unreadable, .. } => unreadable,
            _ => None,
        }
    }

    /// The CRC-32 to check a member read in place against: a stored zip entry's (a
    /// tar entry has none; the inflating zip reader checks the others).
    pub(crate) fn crc_in_place(&self) -> Option<u32> {
        match self.place {
            Place::Zip {
                stored: true,
                crc32,
                ..
            } => Some(crc32),
            _ => None,
        }
    }
}

/// The longest path a member may stand at, in bytes: what Linux allows a path
/// (`PATH_MAX`). A zip names a member in up to 65,535 bytes; a walk of a tree that deep
/// would cost the square of the name, and no system could extract it.
const MAX_PATH: usize = 4096;

/// A place in an archive's tree: a folder, or a member.
#[derive(Debug)]
struct Node {
    /// The member standing here; `None` for a folder.
    member: Option<Member>,
    /// What lies in a folder, by name: each an index of [`Archive::nodes`].
    children: BTreeMap<OsString, usize>,
}

/// A zip archive opened as evidence.
#[derive(Debug)]
pub(crate) struct Archive {
    /// The archive's path as given: its members stand below it. For a single
    /// compressed file ([`Archive::single`]), the path of the file it holds.
    pub(crate) path: PathBuf,
    /// For a single compressed file, the compressed file's own path and its
    /// compression ([`Archive::single`]).
    pub(crate) single: Option<(PathBuf, Compressed)>,
    file: Arc<RangedFile>,
    /// The zip reader of a zip archive (`None` for a tar).
    zip: Option<zip::ZipArchive<Cursor>>,
    /// The NTFS volumes of a virtual disk (`.vhdx`, `.vhd`), each with its reader.
    disk: Vec<(ntfs::Ntfs, crate::vdisk::VolumeCursor)>,
    /// The password its encrypted zip members are read with, if one was given.
    password: Option<ArchivePassword>,
    /// The tree of its members: the archive's own path is node 0, a folder. Each name is
    /// kept once, so the tree is as large as the central directory's names, however
    /// deep they nest.
    nodes: Vec<Node>,
    /// Whether reading the zip file could not change its access time.
    pub(crate) access_time_kept: bool,
    /// The bytes of evidence the archive stands on: its files as found (a compressed
    /// image's compressed bytes, a split image's parts), or, for an archive inside
    /// another, the outer one's. No member is read past
    /// [`crate::evidence::MAX_COMPRESSION_RATIO`] times them
    /// ([`Archive::bomb_bound`]).
    pub(crate) stored: u64,
}

/// What stands at a path of an archive.
pub(crate) enum Lookup<'a> {
    /// A member.
    File(&'a Member),
    /// A folder (named by the entries below it or by an entry of its own).
    Folder,
    /// Nothing.
    Missing,
}

/// A zip error in words, for the error a read returns.
fn zip_error(what: &str, e: zip::result::ZipError) -> io::Error {
    match e {
        zip::result::ZipError::Io(e) => io::Error::new(e.kind(), format!("{what}: {e}")),
        other => io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {other}")),
    }
}

/// The components of a member's name, or why it cannot stand in the archive's tree.
/// `/` separates them (and `\` in a name written on Windows, where some tools write
/// it); empty and `.` components are dropped; `..` is refused.
fn components(name: &str, windows: bool) -> Result<Vec<&str>, &'static str> {
    let mut out = Vec::new();
    for c in name.split(|ch| ch == '/' || (windows && ch == '\\')) {
        match c {
            "" | "." => {}
            ".." => return Err("its name climbs out of the archive (`..`)"),
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return Err("its name is empty");
    }
    Ok(out)
}

/// The most memory an xz stream may ask for to be decoded (its dictionary, read from
/// its block headers): 256 MiB, four times what `xz -9` and `xz -9e` use, so that a
/// hostile header cannot make the reader allocate gigabytes.
pub const XZ_MEMORY_LIMIT: u64 = 256 << 20;

/// The largest zstd window decoded: 128 MiB, what `zstd --ultra -22` uses; a frame that
/// asks for more (`--long=31`) is an error that says so, never an allocation of it.
pub const ZSTD_MAX_WINDOW: u64 = 128 << 20;

/// The frames of a zstd file one after the other (`zstd` writes one, `pzstd` and `cat
/// a.zst b.zst` several), skippable frames passed over, as `zstd -d` reads them; a
/// frame's content checksum, when it has one, is checked.
struct ZstdFrames<R> {
    input: io::BufReader<R>,
    decoder: ruzstd::decoding::FrameDecoder,
    in_frame: bool,
}

impl<R: Read> ZstdFrames<R> {
    fn new(input: R) -> ZstdFrames<R> {
        let mut decoder = ruzstd::decoding::FrameDecoder::new();
        decoder.set_max_window_size(ZSTD_MAX_WINDOW);
        ZstdFrames {
            input: io::BufReader::new(input),
            decoder,
            in_frame: false,
        }
    }
}

/// A zstd error in words.
fn zstd_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}

/// A decoder's error in words: a stream cut short (an input read that ended early,
/// however deep in the decoder's errors) says so, where the decoder's own text would
/// print its error types (`BlockContentReadError(Error { kind: UnexpectedEof, ..`).
fn zstd_decode_error(e: impl std::error::Error + 'static) -> io::Error {
    let mut cause: Option<&dyn std::error::Error> = Some(&e);
    while let Some(c) = cause {
        if c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::UnexpectedEof)
        {
            return io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "zstd: the stream is cut short (it ends inside a frame)",
            );
        }
        cause = c.source();
    }
    zstd_error(e)
}

impl<R: Read> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use io::BufRead;
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        loop {
            if self.in_frame {
                while self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                    self.decoder
                        .decode_blocks(
                            &mut self.input,
                            ruzstd::decoding::BlockDecodingStrategy::UptoBlocks(1),
                        )
                        .map_err(zstd_decode_error)?;
                }
                let n = self.decoder.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                if let (Some(written), Some(read)) = (
                    self.decoder.get_checksum_from_data(),
                    self.decoder.get_calculated_checksum(),
                ) {
                    if written != read {
                        return Err(zstd_error(format!(
                            "a frame's content checksum {written:#010x} does not match its contents ({read:#010x})"
                        )));
                    }
                }
                self.in_frame = false;
            }
            if self.input.fill_buf()?.is_empty() {
                return Ok(0);
            }
            match self.decoder.init(&mut self.input) {
                Ok(()) => self.in_frame = true,
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped = io::copy(
                        &mut (&mut self.input).take(u64::from(length)),
                        &mut io::sink(),
                    )?;
                    if skipped < u64::from(length) {
                        return Err(zstd_error("a skippable frame cut short"));
                    }
                }
                Err(e) => return Err(zstd_decode_error(e)),
            }
        }
    }
}

/// A decoder whose errors name its format.
struct Named<R> {
    what: &'static str,
    inner: R,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let words = e.to_string();
            // some errors name their format already ("bzip2: bz2 header missing")
            match words
                .strip_prefix(self.what)
                .and_then(|w| w.strip_prefix(": "))
            {
                Some(_) => io::Error::new(e.kind(), words),
                None => io::Error::new(e.kind(), format!("{}: {words}", self.what)),
            }
        })
    }
}

/// Where a compressed tar, a 7z's or a RAR's entries are decoded to: an unnamed temporary file
/// in the spill folder (with the bytes written to it) or, without one, memory.
enum Decoded {
    File(io::BufWriter<std::fs::File>, u64),
    Memory(Vec<u8>),
}

impl Decoded {
    fn new(spill: Option<&Path>) -> io::Result<Decoded> {
        Ok(match spill {
            Some(dir) => Decoded::File(io::BufWriter::new(tempfile::tempfile_in(dir)?), 0),
            None => Decoded::Memory(Vec::new()),
        })
    }

    /// What was written, to be read by ranges.
    fn into_ranged(self) -> io::Result<RangedFile> {
        let len = self.len();
        Ok(match self {
            Decoded::File(w, _) => {
                RangedFile::spilled(w.into_inner().map_err(|e| e.into_error())?, len)
            }
            Decoded::Memory(v) => RangedFile::in_memory(Arc::from(v)),
        })
    }

    /// Drops what was written past `len` bytes.
    fn truncate(&mut self, len: u64) -> io::Result<()> {
        match self {
            Decoded::File(w, written) => {
                io::Write::flush(w)?;
                let file = w.get_mut();
                file.set_len(len)?;
                io::Seek::seek(file, io::SeekFrom::Start(len))?;
                *written = len;
            }
            Decoded::Memory(v) => v.truncate(usize::try_from(len).unwrap_or(usize::MAX)),
        }
        Ok(())
    }

    /// The bytes written so far.
    fn len(&self) -> u64 {
        match self {
            Decoded::File(_, n) => *n,
            Decoded::Memory(v) => v.len() as u64,
        }
    }
}

impl io::Write for Decoded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Decoded::File(w, written) => {
                let n = w.write(buf)?;
                *written += n as u64;
                Ok(n)
            }
            Decoded::Memory(v) => v.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Decoded::File(w, _) => w.flush(),
            Decoded::Memory(_) => Ok(()),
        }
    }
}

/// A 7z error in words (the 7z reader's own `Display` is its `Debug`).
fn seven_z_words(e: &sevenz_rust2::Error) -> String {
    use sevenz_rust2::Error as E;
    let io_words = |e: &io::Error| match e.get_ref().and_then(|i| i.downcast_ref::<E>()) {
        Some(inner) => seven_z_words(inner),
        None => e.to_string(),
    };
    match e {
        E::ChecksumVerificationFailed => "a CRC-32 does not match its contents".to_string(),
        E::NextHeaderCrcMismatch => "its header's CRC-32 does not match it".to_string(),
        E::BadSignature(_) => "no 7z signature".to_string(),
        E::PasswordRequired => "encrypted, and no password was given".to_string(),
        E::MaybeBadPassword(e) => {
            format!(
                "encrypted, and not decoded with the password given: {}",
                io_words(e)
            )
        }
        E::UnsupportedCompressionMethod(m) => format!("compression method not supported: {m}"),
        E::MaxMemLimited { max_kb, actaul_kb } => format!(
            "decoding it needs {actaul_kb} KiB of memory, over the {max_kb} KiB this reader allows"
        ),
        E::Io(e, context) if context.is_empty() => io_words(e),
        E::Io(e, context) => format!("{context}: {}", io_words(e)),
        E::Other(s) | E::Unsupported(s) => s.to_string(),
        other => format!("{other:?}"),
    }
}

/// A Windows FILETIME (100 ns intervals since 1601) as a time, if after 1970.
fn nt_time(since_1601: u64) -> Option<SystemTime> {
    let unix_100ns = since_1601.checked_sub(116_444_736_000_000_000)?;
    SystemTime::UNIX_EPOCH.checked_add(Duration::from_nanos(unix_100ns.checked_mul(100)?))
}

/// The most SHA-256 rounds of AES key derivation spent on one 7z read with a password:
/// 2^26, four keys of 7-Zip's greatest work factor (2^24; it writes 2^19), a few
/// seconds. Each block may name its own salt and work factor; past this, the blocks
/// that ask for more are named not read rather than decoded for hours.
pub const SEVEN_Z_KEY_ROUNDS: u64 = 1 << 26;

/// The work factor (a power of two) and salt of a 7z AES coder's properties, as
/// 7-Zip lays them out; `None` for a raw key (power 63), which costs no derivation.
fn aes_key_of(properties: &[u8]) -> Option<(u8, Vec<u8>)> {
    let b0 = properties.first().copied().unwrap_or(0);
    let b1 = properties.get(1).copied().unwrap_or(0);
    let power = b0 & 63;
    let salt_size = usize::from((b0 >> 7) & 1) + usize::from(b1 >> 4);
    let salt = properties
        .get(2..2 + salt_size)
        .unwrap_or_default()
        .to_vec();
    (power != 63).then_some((power, salt))
}

/// The AES key derivations one 7z has cost: each distinct (password, power, salt) is
/// one of 2^power SHA-256 rounds (7-Zip writes power 19 and no salt, so one key a
/// password serves every block), at most [`SEVEN_Z_KEY_ROUNDS`] in all.
#[derive(Default)]
struct KeyBudget {
    keys: std::collections::HashSet<(usize, u8, Vec<u8>)>,
    rounds: u64,
}

impl KeyBudget {
    /// Takes a block's keys (each with the index of the password it is derived from)
    /// into the budget, or gives the rounds they would add past it.
    fn admit(&mut self, keys: impl Iterator<Item = (usize, u8, Vec<u8>)>) -> Result<(), u64> {
        let new: Vec<(usize, u8, Vec<u8>)> = keys.filter(|k| !self.keys.contains(k)).collect();
        let more = new
            .iter()
            .map(|(_, power, _)| 1u64 << (*power).min(62))
            .fold(0u64, u64::saturating_add);
        if self.rounds.saturating_add(more) > SEVEN_Z_KEY_ROUNDS {
            return Err(more);
        }
        self.rounds += more;
        self.keys.extend(new);
        Ok(())
    }
}

/// The most memory a 7z's headers or a block's decoder may ask for: 256 MiB, as for an
/// xz stream (`7z -mx9` uses a 64 MiB dictionary).
pub const SEVEN_Z_MEMORY_LIMIT: u64 = 256 << 20;

/// An xz decoder (of every stream one after the other) that may need at most
/// [`XZ_MEMORY_LIMIT`].
fn xz_decoder<'a>(input: impl Read + 'a) -> Box<dyn Read + 'a> {
    Box::new(Named {
        what: "xz",
        inner: lzma_rust2::XzReader::new_mem_limit(
            input,
            true,
            u32::try_from(XZ_MEMORY_LIMIT >> 10).unwrap_or(u32::MAX),
        ),
    })
}

/// How a tar is compressed (or not), by the archive's name.
fn decompressing(kind: ArchiveKind, input: Cursor) -> io::Result<Box<dyn Read>> {
    Ok(match kind {
        // a gzip of several members (`cat a.gz b.gz`) inflates as one stream, as `gzip
        // -d` does; so does a bzip2 of several streams (`pbzip2`) and an xz of several
        ArchiveKind::TarGz => Box::new(flate2::read::MultiGzDecoder::new(input)),
        ArchiveKind::TarXz => xz_decoder(input),
        ArchiveKind::TarBz2 => Box::new(Named {
            what: "bzip2",
            inner: bzip2::read::MultiBzDecoder::new(input),
        }),
        ArchiveKind::TarZst => Box::new(ZstdFrames::new(input)),
        ArchiveKind::Zip
        | ArchiveKind::Tar
        | ArchiveKind::SevenZ
        | ArchiveKind::Rar
        | ArchiveKind::Vhdx
        | ArchiveKind::Vhd
        | ArchiveKind::Ewf
        | ArchiveKind::Raw => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a compressed tar",
            ));
        }
    })
}

/// A compressed tar (or an archive or image under a compression of its own)
/// decompressed whole, at most `cap` bytes: into an unnamed temporary file in `spill`
/// when given, else into memory. A stream damaged or cut short is kept to the damage,
/// with the error (a tar's entries before it, a cut image's blocks, are read as they
/// stand); one of which nothing decodes, or that decodes past `cap`, is an error.
pub(crate) fn decompress(
    file: RangedFile,
    kind: ArchiveKind,
    cap: u64,
    spill: Option<&Path>,
) -> io::Result<(RangedFile, Option<io::Error>)> {
    let input = Cursor {
        file: Arc::new(file),
        pos: 0,
    };
    let decoder = decompressing(kind, input)?;
    let mut out = Decoded::new(spill)?;
    let (_, ended) = decode_capped(decoder, cap, &mut out).map_err(|e| match e {
        Capped::Over => io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "not read: it inflates to more than the {cap}-byte cap of one evidence file ({} bytes and more)",
                cap.saturating_add(1)
            ),
        ),
        Capped::Io(e) => e,
    })?;
    match ended {
        Some(e) if out.len() == 0 => {
            Err(io::Error::new(e.kind(), format!("not inflated whole: {e}")))
        }
        Some(e) => {
            let n = out.len();
            let e = io::Error::new(
                e.kind(),
                format!("inflated only to byte {n} ({e}); what lies past it is not read"),
            );
            Ok((out.into_ranged()?, Some(e)))
        }
        None => Ok((out.into_ranged()?, None)),
    }
}

/// Why [`decode_capped`] stopped without an end or a damaged stream to tell of.
enum Capped {
    /// The stream decodes past the cap.
    Over,
    /// Writing out what was decoded failed.
    Io(io::Error),
}

/// Decodes `decoder` into `out`, at most `cap` bytes: the length decoded, with the
/// error that ended a damaged or cut stream early (the bytes before it are written).
fn decode_capped(
    mut decoder: impl Read,
    cap: u64,
    out: &mut impl io::Write,
) -> Result<(u64, Option<io::Error>), Capped> {
    let mut buf = vec![0u8; 64 << 10];
    let mut len = 0u64;
    loop {
        let n = match decoder.read(&mut buf) {
            Ok(0) => return Ok((len, None)),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Ok((len, Some(e))),
        };
        if len + n as u64 > cap {
            return Err(Capped::Over);
        }
        out.write_all(&buf[..n]).map_err(Capped::Io)?;
        len += n as u64;
    }
}

/// The decoded stream of a single compressed file (`file`, of compression `kind`).
pub(crate) fn decoder(file: RangedFile, kind: Compressed) -> io::Result<Box<dyn Read>> {
    decompressing(
        kind.as_tar(),
        Cursor {
            file: Arc::new(file),
            pos: 0,
        },
    )
}

/// How many bytes a single compressed file decodes to, at most `cap`, found by decoding
/// it once and keeping nothing; with the error that ended a damaged or cut stream
/// early (the bytes before it are the file it holds: a log whose copy was cut short
/// keeps the lines before the cut, as the plain file would). A stream of which
/// nothing decodes, and one that decodes to more than `cap`, is an error.
pub(crate) fn decoded_length(
    file: RangedFile,
    kind: Compressed,
    cap: u64,
) -> io::Result<(u64, Option<io::Error>)> {
    let (len, ended) =
        decode_capped(decoder(file, kind)?, cap, &mut io::sink()).map_err(|e| match e {
            Capped::Over => io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "not read: it decompresses to more than the {cap}-byte cap of one evidence file"
                ),
            ),
            Capped::Io(e) => e,
        })?;
    let what = kind.words();
    match ended {
        // nothing decoded: no file of any length stands for it
        Some(e) if len == 0 => Err(io::Error::new(
            e.kind(),
            format!("not decompressed as {what}: {e}"),
        )),
        Some(e) => Ok((
            len,
            Some(io::Error::new(
                e.kind(),
                format!("decompressed as {what} only to byte {len}: {e}"),
            )),
        )),
        None => Ok((len, None)),
    }
}

/// A stream decoded whole, to be read by ranges: into an unnamed temporary file in
/// `spill` when given, else into memory.
pub(crate) fn decoded_to_ranged(
    mut input: impl Read,
    spill: Option<&Path>,
) -> io::Result<RangedFile> {
    let mut out = Decoded::new(spill)?;
    io::copy(&mut input, &mut out)?;
    out.into_ranged()
}

/// The tree of an archive's members as its entries are added.
struct Tree<'a> {
    root: &'a Path,
    nodes: Vec<Node>,
    problems: Vec<(PathBuf, String)>,
}

impl<'a> Tree<'a> {
    fn new(root: &'a Path) -> Tree<'a> {
        Tree {
            root,
            nodes: vec![Node {
                member: None,
                children: BTreeMap::new(),
            }],
            problems: Vec::new(),
        }
    }

    /// A problem with the archive as a whole, or with an entry that has no path.
    fn problem(&mut self, why: String) {
        self.problems.push((self.root.to_path_buf(), why));
    }

    /// Adds entry `index`, named `name`: a folder (`member` is `None`) or a member.
    fn add(&mut self, index: usize, name: &str, windows: bool, member: Option<Member>) {
        let quoted = |name: &str| serde_json::to_string(name).unwrap_or_default();
        let parts = match components(name, windows) {
            Ok(p) => p,
            Err(why) => {
                return self.problem(format!(
                    "archive entry {index} not read: {why}: {}",
                    quoted(name)
                ));
            }
        };
        let long = self.root.as_os_str().len() + parts.iter().map(|p| p.len() + 1).sum::<usize>();
        if long > MAX_PATH {
            return self.problem(format!(
                "archive entry {index} not read: its path would be {long} bytes, over the {MAX_PATH} bytes of any path it could be extracted to"
            ));
        }
        let at = |upto: usize| {
            let mut at = self.root.to_path_buf();
            at.extend(&parts[..upto]);
            at
        };
        // down the tree, making the folders on the way
        let is_dir = member.is_none();
        let nodes = &mut self.nodes;
        let mut node = 0usize;
        for (depth, part) in parts.iter().enumerate() {
            if depth + 1 == parts.len() && !is_dir {
                break;
            }
            node = match nodes[node].children.get(std::ffi::OsStr::new(part)) {
                Some(&next) => next,
                None => {
                    nodes.push(Node {
                        member: None,
                        children: BTreeMap::new(),
                    });
                    let next = nodes.len() - 1;
                    nodes[node].children.insert(OsString::from(part), next);
                    next
                }
            };
            // a file stands where a folder is needed: the folder is read
            if let Some(m) = nodes[node].member.take() {
                self.problems.push((
                    at(depth + 1),
                    format!(
                        "archive entry {} not read: a file of the archive whose name is also a folder's; the folder is read",
                        m.index
                    ),
                ));
            }
        }
        let (Some(member), Some(leaf)) = (member, parts.last()) else {
            return;
        };
        match nodes[node]
            .children
            .get(std::ffi::OsStr::new(leaf))
            .copied()
        {
            None => {
                nodes.push(Node {
                    member: Some(member),
                    children: BTreeMap::new(),
                });
                let next = nodes.len() - 1;
                nodes[node].children.insert(OsString::from(leaf), next);
            }
            Some(there) => {
                let why = match &nodes[there].member {
                    Some(first) => format!(
                        "archive entry {index} not read: its name {} names the same path as entry {}, which is read",
                        quoted(name),
                        first.index
                    ),
                    None => format!(
                        "archive entry {index} not read: a file of the archive whose name is also a folder's; the folder is read"
                    ),
                };
                self.problems.push((at(parts.len()), why));
            }
        }
    }
}

/// The kinds of archive read as folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveKind {
    /// A zip (`.zip`).
    Zip,
    /// A tar (`.tar`), read in place.
    Tar,
    /// A gzipped tar (`.tar.gz`, `.tgz`), inflated once, whole, then read as a tar.
    TarGz,
    /// A bzip2-compressed tar (`.tar.bz2`, `.tbz2`, `.tbz`), likewise.
    TarBz2,
    /// An xz-compressed tar (`.tar.xz`, `.txz`), likewise ([`XZ_MEMORY_LIMIT`]).
    TarXz,
    /// A zstd-compressed tar (`.tar.zst`, `.tzst`), likewise ([`ZSTD_MAX_WINDOW`]).
    TarZst,
    /// A 7z archive (`.7z`): its entries decoded once, in order, under the size cap,
    /// into the spill folder or memory ([`SEVEN_Z_MEMORY_LIMIT`]).
    SevenZ,
    /// A RAR archive (`.rar`, RAR 1.3 to 7): its entries decoded once, in order, under
    /// the size cap, into the spill folder or memory, as a 7z's
    /// ([`RAR_DICTIONARY_LIMIT`]); a multi-volume set (`x.part1.rar`, `x.part2.rar`,
    /// ...) read whole from its first volume.
    Rar,
    /// A VHDX virtual disk (`.vhdx`, as KAPE's `--vhdx` writes it): the files of its
    /// NTFS volume, read in place through the disk's block table.
    Vhdx,
    /// A VHD virtual disk (`.vhd`, KAPE's `--vhd`), fixed or dynamic, likewise.
    Vhd,
    /// An EWF disk image (`.E01`, as EnCase, FTK Imager, `ewfacquire` and Guymager
    /// write one), with its later segment files beside it (`.E02`, ...): likewise,
    /// through its chunk tables, each chunk inflated when read.
    Ewf,
    /// A raw disk image (`.dd`, `.raw`, `.img`): the file is the disk; likewise. Also
    /// a raw image split in parts (`.001`, with `.002` ... beside it, as FTK Imager
    /// writes one): the parts one after another.
    Raw,
}

impl ArchiveKind {
    /// The kind a file's name says, in any case ([`ArchiveKind::EXTENSIONS`]); also
    /// through one compression laid over it (`disk.dd.gz`, `WS7.zip.xz`,
    /// `image.vhdx.zst`: [`ArchiveKind::compression_of_name`]).
    pub fn of_name(name: &std::ffi::OsStr) -> Option<ArchiveKind> {
        let name = name.as_encoded_bytes();
        Self::of_bytes(name).or_else(|| Self::of_bytes(Self::without_compression(name)?))
    }

    /// The compression laid over an archive or image a name says
    /// (`disk.dd.gz`: gzip): such a file is decompressed whole, under the size cap,
    /// into the spill folder or memory, then read as the archive it holds (a compressed
    /// tar is decompressed so too). `None` for any other name, a compressed tar's
    /// (`.tar.gz`) among them.
    pub fn compression_of_name(name: &std::ffi::OsStr) -> Option<Compressed> {
        let bytes = name.as_encoded_bytes();
        if Self::of_bytes(bytes).is_some() {
            return None;
        }
        let stem = Self::without_compression(bytes)?;
        Self::of_bytes(stem)?;
        let ext = &bytes[stem.len() + 1..];
        Compressed::EXTENSIONS
            .iter()
            .find(|(e, _)| ext.eq_ignore_ascii_case(e.as_bytes()))
            .map(|&(_, c)| c)
    }

    fn of_bytes(name: &[u8]) -> Option<ArchiveKind> {
        ArchiveKind::EXTENSIONS
            .iter()
            .find(|(e, _)| {
                name.len() >= e.len()
                    && name[name.len() - e.len()..].eq_ignore_ascii_case(e.as_bytes())
            })
            .map(|&(_, kind)| kind)
            .or_else(|| Self::is_old_rar_volume(name).then_some(ArchiveKind::Rar))
    }

    /// A later volume of a RAR set in the older naming, `.r00` to `.r99` (any case): a
    /// RAR, opened as one when it is met without the first of its set. (`.s00` and
    /// after, past a hundred volumes, are read only with their first: `.z01` is also a
    /// split zip's part.)
    fn is_old_rar_volume(name: &[u8]) -> bool {
        matches!(name, [.., b'.', b'r' | b'R', a, b] if a.is_ascii_digit() && b.is_ascii_digit())
            && name.len() > 4
    }

    /// The name without a last extension of [`Compressed::EXTENSIONS`].
    pub(crate) fn without_compression(name: &[u8]) -> Option<&[u8]> {
        Compressed::EXTENSIONS.iter().find_map(|(e, _)| {
            let cut = name.len().checked_sub(e.len() + 1)?;
            (name[cut] == b'.' && name[cut + 1..].eq_ignore_ascii_case(e.as_bytes()))
                .then(|| &name[..cut])
        })
    }

    /// The extensions of the archives read as folders, in any case, each with its kind
    /// (none ends with another, so their order does not matter).
    pub const EXTENSIONS: &'static [(&'static str, ArchiveKind)] = &[
        (".zip", ArchiveKind::Zip),
        (".tar", ArchiveKind::Tar),
        (".tar.gz", ArchiveKind::TarGz),
        (".tgz", ArchiveKind::TarGz),
        (".tar.bz2", ArchiveKind::TarBz2),
        (".tbz2", ArchiveKind::TarBz2),
        (".tbz", ArchiveKind::TarBz2),
        (".tar.xz", ArchiveKind::TarXz),
        (".txz", ArchiveKind::TarXz),
        (".tar.zst", ArchiveKind::TarZst),
        (".tzst", ArchiveKind::TarZst),
        (".7z", ArchiveKind::SevenZ),
        (".rar", ArchiveKind::Rar),
        (".vhdx", ArchiveKind::Vhdx),
        (".vhd", ArchiveKind::Vhd),
        (".e01", ArchiveKind::Ewf),
        (".dd", ArchiveKind::Raw),
        (".raw", ArchiveKind::Raw),
        (".img", ArchiveKind::Raw),
        (".001", ArchiveKind::Raw),
    ];

    /// True for a tar read whole through its decompressor before it is read as a tar.
    pub fn is_compressed_tar(self) -> bool {
        matches!(
            self,
            ArchiveKind::TarGz | ArchiveKind::TarBz2 | ArchiveKind::TarXz | ArchiveKind::TarZst
        )
    }
}

/// The compressions of a single file read as the file it holds
/// ([`crate::Evidence::open_compressed`]): `gzip`, `bzip2`, `xz` and `zstd`, by the
/// name's last extension, in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compressed {
    /// `.gz` (every member of a multi-member gzip, as `gzip -d` reads it).
    Gzip,
    /// `.bz2` (every stream, as `bzip2 -d` reads it).
    Bzip2,
    /// `.xz` ([`XZ_MEMORY_LIMIT`]).
    Xz,
    /// `.zst` ([`ZSTD_MAX_WINDOW`]).
    Zstd,
}

impl Compressed {
    /// The extensions, each with its compression.
    pub const EXTENSIONS: &'static [(&'static str, Compressed)] = &[
        ("gz", Compressed::Gzip),
        ("bz2", Compressed::Bzip2),
        ("xz", Compressed::Xz),
        ("zst", Compressed::Zstd),
    ];

    /// The compression a file's name says, with the name of the file it holds (the
    /// name without its last extension, as `gzip -d` names it). `None` for any other
    /// name, for a compressed tar (`.tar.gz`: an archive, [`ArchiveKind`]) and for a
    /// name that is only the extension (`.gz`).
    pub fn of_name(name: &std::ffi::OsStr) -> Option<(Compressed, &std::ffi::OsStr)> {
        let path = Path::new(name);
        let ext = path.extension()?.as_encoded_bytes();
        let &(_, kind) = Compressed::EXTENSIONS
            .iter()
            .find(|(e, _)| ext.eq_ignore_ascii_case(e.as_bytes()))?;
        if ArchiveKind::of_name(name).is_some() {
            return None;
        }
        let held = path.file_stem()?;
        Some((kind, held))
    }

    /// The compressed tar of the same compression, whose decompressor reads it.
    pub(crate) fn as_tar(self) -> ArchiveKind {
        match self {
            Compressed::Gzip => ArchiveKind::TarGz,
            Compressed::Bzip2 => ArchiveKind::TarBz2,
            Compressed::Xz => ArchiveKind::TarXz,
            Compressed::Zstd => ArchiveKind::TarZst,
        }
    }

    /// The compression's name, as its tool is called.
    pub fn words(self) -> &'static str {
        match self {
            Compressed::Gzip => "gzip",
            Compressed::Bzip2 => "bzip2",
            Compressed::Xz => "xz",
            Compressed::Zstd => "zstd",
        }
    }
}

impl Archive {
    /// A single compressed file read as the file it holds, standing at `path`:
    /// `compressed` is the compressed file and its compression, `size` the length it
    /// decodes to ([`decoded_length`]), `modified` the file's time. Its bytes are not
    /// kept here: the evidence reader decodes the compressed file again on each read
    /// ([`crate::Evidence::open_compressed`]), so a folder of thousands holds neither
    /// their contents nor a handle each.
    pub(crate) fn single(
        path: &Path,
        compressed: (&Path, Compressed),
        size: u64,
        modified: Option<SystemTime>,
        access_time_kept: bool,
    ) -> Archive {
        let member = Member {
            index: 0,
            size,
            kind: EntryKind::File,
            place: Place::Tar { offset: 0 },
            modified: OnceLock::from(modified),
        };
        Archive {
            path: path.to_path_buf(),
            single: Some((compressed.0.to_path_buf(), compressed.1)),
            file: Arc::new(RangedFile::in_memory(Arc::from(Vec::new()))),
            zip: None,
            disk: Vec::new(),
            password: None,
            nodes: vec![Node {
                member: Some(member),
                children: BTreeMap::new(),
            }],
            access_time_kept,
            // bound when opened ([`crate::Evidence::open_compressed`])
            stored: u64::MAX,
        }
    }

    /// Refuses a member of a tar, 7z or disk image whose size passes
    /// [`crate::evidence::MAX_COMPRESSION_RATIO`] times the evidence the archive stands
    /// on ([`Archive::stored`]) and [`crate::evidence::MAX_COMPRESSION_RATIO_FROM`]: a
    /// decompression bomb's shape (a 4 GB file of zeros in a compressed tar of a few
    /// kilobytes, a sparse or zero-filled file of a small disk image), which a store
    /// reading it whole would hold in memory. A zip member's size is only what its
    /// header declares: its decoded stream is bound instead ([`Archive::zip_bomb_bound`]).
    fn bomb_bound(&self, m: &Member) -> io::Result<()> {
        if matches!(m.place, Place::Zip { .. }) {
            return Ok(());
        }
        let (bound, of) = self.ratio_bound(u64::MAX);
        if m.size <= bound {
            return Ok(());
        }
        Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "archive member not read: its {} bytes are more than {} times {of}, a decompression bomb's shape",
                m.size,
                crate::evidence::MAX_COMPRESSION_RATIO
            ),
        ))
    }

    /// The most a compressed zip member of `packed` bytes may decode to, and the words
    /// for passing it: [`crate::evidence::MAX_COMPRESSION_RATIO`] times its packed size
    /// or the evidence the archive stands on, the smaller, and at least
    /// [`crate::evidence::MAX_COMPRESSION_RATIO_FROM`].
    fn zip_bomb_bound(&self, packed: u64) -> (u64, String) {
        let (bound, of) = self.ratio_bound(packed);
        let why = format!(
            "it decompresses to more than {} times {of}, a decompression bomb's shape",
            crate::evidence::MAX_COMPRESSION_RATIO
        );
        (bound, why)
    }

    /// The bound of [`Archive::bomb_bound`] and [`Archive::zip_bomb_bound`] for a
    /// member of `own` bytes as stored, with what it is the ratio of, in words.
    fn ratio_bound(&self, own: u64) -> (u64, String) {
        use crate::evidence::{MAX_COMPRESSION_RATIO, MAX_COMPRESSION_RATIO_FROM};
        let (base, what) = if own <= self.stored {
            (own, "its packed size")
        } else {
            (self.stored, "the size of the archive that holds it")
        };
        let bound = base
            .saturating_mul(MAX_COMPRESSION_RATIO)
            .max(MAX_COMPRESSION_RATIO_FROM);
        (bound, format!("{what} ({base} bytes; past {bound} bytes)"))
    }

    /// True for a disk image read through its NTFS volumes.
    pub(crate) fn is_disk(&self) -> bool {
        !self.disk.is_empty()
    }

    /// Reads the archive's directory (a zip's central directory, a tar's headers).
    /// Returns the archive and the entries that stand nowhere in its tree, each by the
    /// path it would have had (the archive's own path when it has none) with why.
    /// `files` is the archive, then an EWF image's later segment files in order.
    pub(crate) fn open(
        path: &Path,
        files: Vec<RangedFile>,
        kind: ArchiveKind,
        access_time_kept: bool,
        password: Option<ArchivePassword>,
        cap: u64,
        spill: Option<&Path>,
    ) -> io::Result<(Archive, Vec<(PathBuf, String)>)> {
        let mut files = files.into_iter();
        let file = files
            .next()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no archive file"))?;
        let segments: Vec<RangedFile> = files.collect();
        let mut file = Arc::new(file);
        let mut tree = Tree::new(path);
        let mut disk = Vec::new();
        let zip = match kind {
            ArchiveKind::Vhdx | ArchiveKind::Vhd | ArchiveKind::Ewf | ArchiveKind::Raw => {
                disk = Self::disk_entries(&file, kind, segments, &mut tree)?;
                None
            }
            ArchiveKind::Zip => Some(Self::zip_entries(&file, &mut tree)?),
            ArchiveKind::SevenZ => {
                let decoded =
                    Self::seven_z_entries(&file, &mut tree, password.as_ref(), cap, spill)?;
                file = Arc::new(decoded);
                None
            }
            ArchiveKind::Rar => {
                let volumes: Vec<Arc<RangedFile>> = segments.into_iter().map(Arc::new).collect();
                let decoded =
                    rar::entries(&file, &volumes, &mut tree, password.as_ref(), cap, spill)?;
                file = Arc::new(decoded);
                None
            }
            ArchiveKind::Tar
            | ArchiveKind::TarGz
            | ArchiveKind::TarBz2
            | ArchiveKind::TarXz
            | ArchiveKind::TarZst => {
                Self::tar_entries(&file, &mut tree)?;
                None
            }
        };
        Ok((
            Archive {
                path: path.to_path_buf(),
                single: None,
                file,
                zip,
                disk,
                password,
                nodes: tree.nodes,
                access_time_kept,
                // as given; [`crate::Evidence::open_archive`] sets what it stands on
                stored: u64::MAX,
            },
            tree.problems,
        ))
    }

    fn zip_entries(
        file: &Arc<RangedFile>,
        tree: &mut Tree<'_>,
    ) -> io::Result<zip::ZipArchive<Cursor>> {
        let zip = zip::ZipArchive::new(Cursor {
            file: file.clone(),
            pos: 0,
        })
        .map_err(|e| zip_error("not read as a zip archive", e))?;
        if zip.has_duplicate_names() {
            tree.problem(
                "archive entries not read: the central directory names some members twice; the last entry of each name is read".to_string(),
            );
        }
        for index in 0..zip.len() {
            let entry = match zip.by_index_data(index) {
                Ok(e) => e,
                Err(e) => {
                    tree.problem(format!("archive entry {index} not read ({e})"));
                    continue;
                }
            };
            let name = match entry.name() {
                Ok(n) => n.into_owned(),
                Err(_) => String::from_utf8_lossy(entry.name_raw()).into_owned(),
            };
            let member = (!entry.is_dir()).then(|| Member {
                index,
                size: entry.size(),
                kind: if entry.is_symlink() {
                    EntryKind::Link
                } else {
                    EntryKind::File
                },
                place: Place::Zip {
                    stored: entry.compression() == zip::CompressionMethod::Stored
                        && !entry.encrypted()
                        && entry.compressed_size() == entry.size(),
                    crc32: entry.crc32(),
                    encrypted: entry.encrypted(),
                    packing: Packing::of(entry.compression()),
                    deflated: entry.compression() == zip::CompressionMethod::Deflated
                        && !entry.encrypted(),
                },
                modified: OnceLock::new(),
            });
            tree.add(index, &name, entry.system() == zip::System::Dos, member);
        }
        Ok(zip)
    }

    /// A virtual disk's files: the disk's blocks mapped, its NTFS volumes found and each
    /// walked once. A volume's files stand at the image's path, or below
    /// `partition-<n>` when the disk holds several volumes; what is not read (a
    /// partition of another file system, a folder reached twice) is a problem.
    fn disk_entries(
        file: &Arc<RangedFile>,
        kind: ArchiveKind,
        segments: Vec<RangedFile>,
        tree: &mut Tree<'_>,
    ) -> io::Result<Vec<(ntfs::Ntfs, crate::vdisk::VolumeCursor)>> {
        use crate::vdisk::{Disk, VolumeCursor};
        let image = match kind {
            ArchiveKind::Vhdx | ArchiveKind::Vhd => "a virtual disk",
            _ => "a disk image",
        };
        // what was found wrong on the way is told with the error that ends the read
        let not_read = |e: io::Error, problems: &[String]| {
            let also = match problems {
                [] => String::new(),
                p => format!(" (and: {})", p.join("; ")),
            };
            io::Error::new(e.kind(), format!("not read as {image}: {e}{also}"))
        };
        let mut problems = Vec::new();
        let disk = match kind {
            ArchiveKind::Vhdx => Disk::vhdx(file.clone(), &mut problems),
            ArchiveKind::Ewf => {
                let first = tree
                    .root
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // names for the problems: segment n is named from the first's name
                let names: Vec<String> = (1..=segments.len() as u32 + 1)
                    .map(|n| crate::ewf::segment_name(&first, n).unwrap_or_default())
                    .collect();
                let files = std::iter::once(file.clone())
                    .chain(segments.into_iter().map(Arc::new))
                    .collect();
                Disk::ewf(files, &names, &mut problems)
            }
            ArchiveKind::Raw => Disk::raw(
                std::iter::once(file.clone())
                    .chain(segments.into_iter().map(Arc::new))
                    .collect(),
            ),
            _ => Disk::vhd(file.clone()),
        }
        .map_err(|e| not_read(e, &problems))?;
        let disk = Arc::new(disk);
        let volumes = match disk.volumes(&mut problems) {
            Ok(v) => v,
            Err(e) => return Err(not_read(e, &problems)),
        };
        let mut out = Vec::new();
        let mut index = 0usize;
        for v in volumes {
            let label = v.name.clone();
            let what = label.as_deref().unwrap_or("the volume").to_string();
            let mut fs = VolumeCursor {
                disk: disk.clone(),
                start: v.start,
                len: v.len,
                pos: 0,
                mft: None,
            };
            // the NTFS reader panics when its boot sector read fails (it takes the
            // wrapped error for one that cannot happen): read the sector first
            let mut boot = [0u8; 512];
            if let Err(e) = io::Read::read_exact(&mut fs, &mut boot) {
                problems.push(format!(
                    "{what} of the virtual disk not read as NTFS: its boot sector cannot be read ({e})"
                ));
                continue;
            }
            fs.pos = 0;
            let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                ntfs::Ntfs::new(&mut fs.clone())
            }))
            .unwrap_or(Err(ntfs::NtfsError::Io(io::Error::other(
                "the NTFS reader stopped with an internal error",
            ))));
            let ntfs = match opened {
                Ok(n) => {
                    // a fragmented `$MFT` is shown to the NTFS reader whole (`whole_mft`)
                    let (n, shown) = crate::vdisk::whole_mft(n, fs, &mut problems);
                    fs = shown;
                    n
                }
                Err(e) => {
                    problems.push(format!(
                        "{what} of the virtual disk not read as NTFS: {}",
                        crate::vdisk::ntfs_error("", e)
                            .to_string()
                            .trim_start_matches(": ")
                    ));
                    continue;
                }
            };
            let walked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut fs = fs.clone();
                let mut problems = Vec::new();
                crate::vdisk::walk(&ntfs, &mut fs, &mut problems).map(|f| (f, problems))
            }))
            .unwrap_or_else(|_| {
                Err(io::Error::other(
                    "the NTFS reader stopped with an internal error",
                ))
            });
            let mut found = match walked {
                Ok((f, more)) => {
                    problems.extend(more);
                    f
                }
                Err(e) => {
                    problems.push(format!("{what} of the virtual disk not read: {e}"));
                    continue;
                }
            };
            // the volume's deleted files, from the records no longer in use
            let live = found.len();
            let more = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut fs = fs.clone();
                let mut problems = Vec::new();
                let d = crate::vdisk::deleted(&ntfs, &mut fs, &found, &mut problems);
                (d, problems)
            }));
            match more {
                Ok((d, more)) => {
                    found.extend(d);
                    problems.extend(more);
                }
                Err(_) => problems.push(format!(
                    "{what} of the virtual disk: its deleted files not looked for (the NTFS reader stopped with an internal error)"
                )),
            }
            let volume = out.len();
            for (n, f) in found.into_iter().enumerate() {
                let name = match &label {
                    Some(l) => format!("{l}/{}", f.name),
                    None => f.name,
                };
                let member = f.file.map(|d| Member {
                    index,
                    size: d.size,
                    kind: if d.link {
                        EntryKind::Link
                    } else {
                        EntryKind::File
                    },
                    place: Place::Ntfs {
                        volume,
                        record: f.record,
                        unreadable: d.unreadable,
                        deleted: n >= live,
                    },
                    modified: OnceLock::from(d.modified.and_then(nt_time)),
                });
                tree.add(index, &name, false, member);
                index += 1;
            }
            out.push((ntfs, fs));
        }
        if out.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "not read as {image}: none of its NTFS volumes could be read ({})",
                    problems.join("; ")
                ),
            ));
        }
        for p in problems {
            tree.problem(p);
        }
        Ok(out)
    }

    /// A virtual disk's file, its data stream copied to `out` (at most `cap` bytes).
    fn ntfs_copy(&self, m: &Member, cap: u64, out: &mut dyn io::Write) -> io::Result<u64> {
        let Place::Ntfs {
            volume,
            record,
            unreadable,
            ..
        } = m.place
        else {
            return Err(io::Error::other(
                "archive member not read: not a disk's file",
            ));
        };
        if let Some(why) = unreadable {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("archive member not read: {why}"),
            ));
        }
        if m.size > cap {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                crate::evidence::Refusal::TooLarge { size: m.size, cap },
            ));
        }
        let (ntfs, fs) = self
            .disk
            .get(volume)
            .ok_or_else(|| io::Error::other("archive member not read: no such volume"))?;
        let mut fs = fs.clone();
        fs.pos = 0;
        // the NTFS reader is a dependency: should it panic on a hostile volume, the
        // member is an error and the scan goes on
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::vdisk::copy_data(ntfs, &mut fs, record, cap, out)
        }))
        .unwrap_or_else(|_| {
            Err(io::Error::other(
                "archive member not read: the NTFS reader stopped with an internal error",
            ))
        })
    }

    /// A tar's entries, header by header (GNU long names and PAX paths as the `tar`
    /// crate reads them); each member's bytes stay where they lie. A header that
    /// cannot be read ends the listing, with a problem that says where.
    fn tar_entries(file: &Arc<RangedFile>, tree: &mut Tree<'_>) -> io::Result<()> {
        let mut tar = tar::Archive::new(Cursor {
            file: file.clone(),
            pos: 0,
        });
        let entries = tar
            .entries_with_seek()
            .map_err(|e| io::Error::new(e.kind(), format!("not read as a tar archive: {e}")))?;
        let mut index = 0usize;
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) if index == 0 => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("not read as a tar archive: {e}"),
                    ));
                }
                Err(e) => {
                    tree.problem(format!(
                        "archive entries from entry {index} on not read: {e}"
                    ));
                    break;
                }
            };
            let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let header = entry.header();
            use tar::EntryType as T;
            let kind = match header.entry_type() {
                T::Directory => None,
                T::Regular | T::Continuous => Some(EntryKind::File),
                T::Symlink | T::Link => Some(EntryKind::Link),
                T::Fifo => Some(EntryKind::Fifo),
                T::Char | T::Block => Some(EntryKind::Device),
                T::GNUSparse => {
                    tree.problem(format!(
                        "archive entry {index} not read: a sparse file, whose bytes are not stored as they read: {}",
                        serde_json::to_string(&name).unwrap_or_default()
                    ));
                    index += 1;
                    continue;
                }
                _ => Some(EntryKind::Other),
            };
            let modified = header
                .mtime()
                .ok()
                .and_then(|secs| SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(secs)));
            let member = kind.map(|kind| Member {
                index,
                size: entry.size(),
                kind,
                place: Place::Tar {
                    offset: entry.raw_file_position(),
                },
                modified: OnceLock::from(modified),
            });
            tree.add(index, &name, false, member);
            index += 1;
        }
        Ok(())
    }

    /// A 7z's entries, decoded block by block, in order, into one file (an unnamed
    /// temporary file in `spill`, else memory) of at most `cap` bytes, each member a
    /// range of it: a 7z's solid blocks cannot be read from the middle, so they are
    /// decoded once. A block that cannot be decoded (a damaged stream, a wrong
    /// password, a CRC that does not match) names its entries not read, and the next
    /// block is decoded; the entries before the failure stay read.
    fn seven_z_entries(
        file: &Arc<RangedFile>,
        tree: &mut Tree<'_>,
        password: Option<&ArchivePassword>,
        cap: u64,
        spill: Option<&Path>,
    ) -> io::Result<RangedFile> {
        use sevenz_rust2::{Archive as SevenZ, BlockDecoder, Password};
        // a 7z password is the UTF-16 of the text typed
        // (each with its place in the list given, which names its keys in the budget)
        let mut passwords: Vec<(usize, Password)> = password
            .into_iter()
            .flat_map(|p| p.candidates())
            .map(|p| Password::from(String::from_utf8_lossy(p).as_ref()))
            .enumerate()
            .collect();
        if passwords.is_empty() {
            passwords.push((0, Password::empty()));
        }
        let mut source = Cursor {
            file: file.clone(),
            pos: 0,
        };
        let limit_kb = usize::try_from(SEVEN_Z_MEMORY_LIMIT >> 10).unwrap_or(usize::MAX);
        // the header (encrypted by `7z -mhe`) read with the first password that opens
        // it; the password that opened the header or last decoded a block is tried
        // first on the next block
        let mut opened = None;
        let mut failed = None;
        for (i, (_, password)) in passwords.iter().enumerate() {
            source.pos = 0;
            match SevenZ::read_with_memory_limit(&mut source, password, limit_kb) {
                Ok(a) => {
                    opened = Some((a, i));
                    break;
                }
                Err(e) => failed = Some(e),
            }
        }
        let Some((archive, first)) = opened else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "not read as a 7z archive: {}",
                    failed.as_ref().map(seven_z_words).unwrap_or_default()
                ),
            ));
        };
        passwords[..=first].rotate_right(1);
        let mut out = Decoded::new(spill)?;
        // (entry index, offset, length) of each entry decoded whole and checked
        let mut decoded: Vec<(usize, u64, u64)> = Vec::new();
        let index_of: std::collections::HashMap<*const sevenz_rust2::ArchiveEntry, usize> = archive
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f as *const _, i))
            .collect();
        let mut too_large = None;
        // no entry is decoded past the ratio of a decompression bomb that every read
        // of it would refuse ([`Archive::bomb_bound`] bounds by no more than the
        // archive's size): by its header's size it is refused before it is decoded
        let bomb = file
            .len()
            .saturating_mul(crate::evidence::MAX_COMPRESSION_RATIO)
            .max(crate::evidence::MAX_COMPRESSION_RATIO_FROM);
        let mut bombed: Option<(usize, String)> = None;
        // how many of a block's entries are not among those `read` from it
        let unread_in = |block: usize, read: &[(usize, u64, u64)]| {
            let named: std::collections::HashSet<usize> = read.iter().map(|d| d.0).collect();
            archive
                .stream_map
                .file_block_index
                .iter()
                .enumerate()
                .filter(|(i, b)| **b == Some(block) && !named.contains(i))
                .map(|(i, _)| i)
                .collect::<Vec<usize>>()
        };
        // each entry of a block not read, named (after the row that says why)
        let name_each = |tree: &mut Tree<'_>, block: usize, unread: &[usize], why: &str| {
            for &i in unread {
                tree.problem(format!(
                    "archive entry {i} not read: {why} (block {block} of the 7z): {}",
                    serde_json::to_string(&archive.files[i].name).unwrap_or_default()
                ));
            }
        };
        // the AES keys a password costs (see [`KeyBudget`])
        let mut budget = KeyBudget::default();
        let entries_of = |block: usize| {
            archive
                .stream_map
                .file_block_index
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == Some(block))
                .map(|(i, _)| i)
                .collect::<Vec<usize>>()
        };
        for block in 0..archive.blocks.len() {
            let encrypted = archive.blocks[block]
                .coders
                .iter()
                .any(|c| c.encoder_method_id() == sevenz_rust2::EncoderMethod::ID_AES256_SHA256);
            // an encrypted block is tried with each password until one decodes it
            let tries = if encrypted { passwords.len() } else { 1 };
            let mut worked = None;
            for (attempt, (id, password)) in passwords.iter().take(tries).enumerate() {
                let last_try = attempt + 1 == tries;
                if !password.is_empty() {
                    let keys = archive.blocks[block]
                        .coders
                        .iter()
                        .filter(|c| {
                            c.encoder_method_id() == sevenz_rust2::EncoderMethod::ID_AES256_SHA256
                        })
                        .filter_map(|c| aes_key_of(c.properties()))
                        .map(|(power, salt)| (*id, power, salt));
                    if let Err(more) = budget.admit(keys) {
                        let unread = entries_of(block);
                        tree.problem(format!(
                        "archive entries not read: block {block} of the 7z asks for AES keys of {more} SHA-256 rounds more, over the {SEVEN_Z_KEY_ROUNDS} rounds this reader spends on one archive; {} of its entries not read",
                        unread.len()
                    ));
                        name_each(
                            tree,
                            block,
                            &unread,
                            "its block's AES keys are past the rounds this reader spends",
                        );
                        break;
                    }
                }
                let before = decoded.len();
                let mark = out.len();
                let mut in_entry = false;
                let decoder = BlockDecoder::new_with_memory_limit(
                    1,
                    limit_kb,
                    block,
                    &archive,
                    password,
                    &mut source,
                );
                let result = decoder.for_each_entries(&mut |entry, reader| {
                    in_entry = true;
                    let Some(&index) = index_of.get(&(entry as *const _)) else {
                        return Ok(false);
                    };
                    // each entry starts where the bytes so far end, whole or not (an entry
                    // whose stream fails part way leaves its first bytes behind, unnamed)
                    let start = out.len();
                    let room = cap.saturating_sub(start);
                    let past_bomb = |n: u64| {
                        format!(
                            "it decompresses to {n} bytes or more, more than {} times the size of the archive that holds it ({} bytes; past {bomb} bytes), a decompression bomb's shape",
                            crate::evidence::MAX_COMPRESSION_RATIO,
                            file.len()
                        )
                    };
                    if entry.size > bomb && bomb < room {
                        bombed = Some((index, past_bomb(entry.size)));
                        return Err(sevenz_rust2::Error::Other("a decompression bomb".into()));
                    }
                    let n = io::copy(&mut reader.take(room.min(bomb).saturating_add(1)), &mut out)?;
                    if n > bomb && bomb < room {
                        bombed = Some((index, past_bomb(n)));
                        return Err(sevenz_rust2::Error::Other("a decompression bomb".into()));
                    }
                    if n > room {
                        too_large = Some(start + n);
                        return Err(sevenz_rust2::Error::Other("over the size cap".into()));
                    }
                    decoded.push((index, start, n));
                    in_entry = false;
                    Ok(true)
                });
                if let Some(n) = too_large {
                    return Err(io::Error::new(
                        io::ErrorKind::FileTooLarge,
                        format!(
                            "not read: it decodes to more than the {cap}-byte cap of one evidence file ({n} bytes and more)"
                        ),
                    ));
                }
                if let Some((index, why)) = bombed.take() {
                    // the password decoded it: the entries before it are read, it and
                    // the entries after it in its block (their stream runs through it)
                    // are not
                    let missed = unread_in(block, &decoded[before..]);
                    tree.problem(format!(
                        "archive entries not read: block {block} of the 7z could not be decoded past entry {index} ({why}): {}; {} of its entries not read",
                        serde_json::to_string(&archive.files[index].name).unwrap_or_default(),
                        missed.len()
                    ));
                    name_each(tree, block, &[index], &why);
                    let after: Vec<usize> = missed.into_iter().filter(|&i| i != index).collect();
                    let past = format!("its block could not be decoded past entry {index}");
                    name_each(tree, block, &after, &past);
                    worked = Some(attempt);
                    break;
                }
                match result {
                    Ok(_) => {
                        worked = Some(attempt);
                        break;
                    }
                    // the next password: what this one decoded is dropped, and cut off
                    // (a wrong key's output counts against no cap)
                    Err(_) if !last_try => {
                        decoded.truncate(before);
                        out.truncate(mark)?;
                        continue;
                    }
                    Err(_) => {}
                }
                if let Err(e) = result {
                    // an error after an entry was copied is its check (its CRC, or the
                    // block's end): that entry is not read either
                    if !in_entry && decoded.len() > before {
                        decoded.pop();
                    }
                    let missed = unread_in(block, &decoded[before..]);
                    tree.problem(format!(
                    "archive entries not read: block {block} of the 7z could not be decoded ({}); {} of its entries not read",
                    seven_z_words(&e),
                    missed.len()
                ));
                    name_each(tree, block, &missed, "its block could not be decoded");
                }
            }
            if let Some(attempt) = worked {
                passwords[..=attempt].rotate_right(1);
            }
        }
        io::Write::flush(&mut out)?;
        let mut at: Vec<Option<(u64, u64)>> = vec![None; archive.files.len()];
        for (index, offset, len) in decoded {
            at[index] = Some((offset, len));
        }
        for (index, entry) in archive.files.iter().enumerate() {
            let in_block = archive.stream_map.file_block_index[index].is_some();
            if entry.is_directory || entry.is_anti_item {
                if entry.is_directory {
                    tree.add(index, &entry.name, true, None);
                }
                continue;
            }
            let (offset, size) = match (at[index], in_block) {
                (Some(place), _) => place,
                // an empty file has no stream
                (None, false) => (0, 0),
                // named in its block's problem
                (None, true) => continue,
            };
            let attributes = entry
                .has_windows_attributes
                .then_some(entry.windows_attributes);
            // a Unix mode in the high half (p7zip, 7-Zip on Linux) or a reparse point
            let link = attributes.is_some_and(|a| {
                (a & 0x8000 != 0 && (a >> 16) & 0o170000 == 0o120000) || a & 0x400 != 0
            });
            let modified = entry
                .has_last_modified_date
                .then(|| nt_time(u64::from(entry.last_modified_date)))
                .flatten();
            let member = Member {
                index,
                size,
                kind: if link {
                    EntryKind::Link
                } else {
                    EntryKind::File
                },
                place: Place::Tar { offset },
                modified: OnceLock::from(modified),
            };
            tree.add(index, &entry.name, true, Some(member));
        }
        out.into_ranged()
    }

    /// The node at `path`: the archive's own path is the top folder.
    fn node(&self, path: &Path) -> Option<&Node> {
        let rest = path.strip_prefix(&self.path).ok()?;
        let mut node = &self.nodes[0];
        for c in rest.components() {
            let std::path::Component::Normal(name) = c else {
                return None;
            };
            node = &self.nodes[*node.children.get(name)?];
        }
        Some(node)
    }

    /// What stands at `path` (below the archive's path, or the archive itself as its
    /// top folder).
    pub(crate) fn lookup(&self, path: &Path) -> Lookup<'_> {
        match self.node(path) {
            Some(Node {
                member: Some(m), ..
            }) => Lookup::File(m),
            Some(_) => Lookup::Folder,
            None => Lookup::Missing,
        }
    }

    /// What lies in a folder of the archive, sorted by name; `None` when `dir` is no
    /// folder of it.
    pub(crate) fn children(&self, dir: &Path) -> Option<Vec<(PathBuf, EntryKind)>> {
        let node = self.node(dir).filter(|n| n.member.is_none())?;
        Some(
            node.children
                .iter()
                .map(|(name, &i)| {
                    let kind = self.nodes[i]
                        .member
                        .as_ref()
                        .map_or(EntryKind::Folder, |m| m.kind);
                    (dir.join(name), kind)
                })
                .collect(),
        )
    }

    /// A member's modification time, from its extended-timestamp or NTFS extra field
    /// (both UTC). The DOS time every entry carries is local time in a zone the
    /// archive does not name: it is never taken as one.
    pub(crate) fn modified(&self, m: &Member) -> Option<SystemTime> {
        *m.modified.get_or_init(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.utc_extra_time(m)))
                .ok()
                .flatten()
        })
    }

    fn utc_extra_time(&self, m: &Member) -> Option<SystemTime> {
        {
            let mut zip = self.zip.clone()?;
            let file = zip.by_index_raw(m.index).ok()?;
            for field in file.extra_data_fields() {
                match field {
                    zip::ExtraField::ExtendedTimestamp(t) => {
                        if let Some(secs) = t.mod_time() {
                            return SystemTime::UNIX_EPOCH
                                .checked_add(Duration::from_secs(u64::from(secs)));
                        }
                    }
                    zip::ExtraField::Ntfs(t) => {
                        // 100 ns intervals since 1601-01-01
                        let since_1601 = t.mtime();
                        if since_1601 == 0 {
                            continue;
                        }
                        return nt_time(since_1601);
                    }
                    _ => {}
                }
            }
            None
        }
    }

    /// The whole of a member, inflated, at most `cap` bytes (a larger member is an
    /// error of kind `FileTooLarge`, whatever its header declared).
    pub(crate) fn read(&self, m: &Member, cap: u64) -> io::Result<Vec<u8>> {
        self.bomb_bound(m)?;
        if let Place::Ntfs { .. } = m.place {
            let mut out = Vec::with_capacity(m.size.min(cap).min(64 << 20) as usize);
            self.ntfs_copy(m, cap, &mut out)?;
            return Ok(out);
        }
        if let Place::Tar { offset } = m.place {
            if m.size > cap {
                return Err(io::Error::new(
                    io::ErrorKind::FileTooLarge,
                    crate::evidence::Refusal::TooLarge { size: m.size, cap },
                ));
            }
            let ranged = self.in_place(m, offset)?;
            let mut out = vec![0u8; m.size as usize];
            let n = ranged.read_at(0, &mut out)?;
            out.truncate(n);
            return Ok(out);
        }
        let (out, _) = self.inflate(m, cap, || {
            Ok(Vec::with_capacity(m.size.min(cap).min(64 << 20) as usize))
        })?;
        Ok(out)
    }

    /// A zip member inflated into a fresh output from `fresh`; an encrypted one tried
    /// with each password in turn, a fresh output each time, until one reads it whole
    /// (a wrong password can pass ZipCrypto's one-byte check and fail only at the
    /// CRC). The error is the last password's.
    fn inflate<W: io::Write>(
        &self,
        m: &Member,
        cap: u64,
        mut fresh: impl FnMut() -> io::Result<W>,
    ) -> io::Result<(W, u64)> {
        let encrypted = matches!(
            m.place,
            Place::Zip {
                encrypted: true,
                ..
            }
        );
        let mut passwords: Vec<Option<&[u8]>> = match (&self.password, encrypted) {
            (Some(p), true) => p.candidates().map(Some).collect(),
            _ => Vec::new(),
        };
        if passwords.is_empty() {
            // the zip crate's own words for an encrypted one ("Password required")
            passwords.push(None);
        }
        // a member packed past the ratio of a decompression bomb is refused there, as a
        // single compressed file is ([`crate::evidence::MAX_COMPRESSION_RATIO`]): read
        // whole, it would cost memory out of proportion to the archive
        let packed = match m.place {
            Place::Zip { stored: false, .. } => self.zip_data(m).ok().map(|(_, len)| len),
            _ => None,
        };
        let bomb = packed
            .map(|p| self.zip_bomb_bound(p))
            .filter(|(bound, _)| *bound < cap);
        let cap = bomb.as_ref().map_or(cap, |(bound, _)| *bound);
        let mut failed = None;
        for password in passwords {
            let mut out = fresh()?;
            match self.inflate_into(m, cap, password, &mut out) {
                Ok(n) => return Ok((out, n)),
                Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {
                    return Err(match &bomb {
                        Some((_, why)) => {
                            io::Error::new(e.kind(), format!("archive member not read: {why}"))
                        }
                        None => e,
                    });
                }
                Err(e) => failed = Some(e),
            }
        }
        Err(failed.unwrap_or_else(|| io::Error::other("archive member not read")))
    }

    /// A member's bytes where they lie: `m.size` bytes from `start`, all inside the
    /// archive.
    fn in_place(&self, m: &Member, start: u64) -> io::Result<RangedFile> {
        let end = start.checked_add(m.size).filter(|e| *e <= self.file.len());
        if end.is_none() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "archive member of {} bytes at byte {start} runs past the end of the archive ({} bytes)",
                    m.size,
                    self.file.len()
                ),
            ));
        }
        Ok(RangedFile::within(self.file.clone(), start, m.size))
    }

    fn inflate_into(
        &self,
        m: &Member,
        cap: u64,
        password: Option<&[u8]>,
        out: &mut dyn io::Write,
    ) -> io::Result<u64> {
        let Some(mut zip) = self.zip.clone() else {
            return Err(io::Error::other("archive member not read: not a zip entry"));
        };
        let (encrypted, packing, crc32) = match m.place {
            Place::Zip {
                encrypted,
                packing,
                crc32,
                ..
            } => (encrypted, packing, crc32),
            Place::Tar { .. } | Place::Ntfs { .. } => (false, None, 0),
        };
        if let (Some(packing), false) = (packing, encrypted) {
            let raw = zip
                .by_index_raw(m.index)
                .map_err(|e| zip_error("archive member not read", e))?;
            let mut decoded = Crc {
                inner: unpacking(packing, raw, m.size).map_err(|e| {
                    io::Error::new(e.kind(), format!("archive member not read: {e}"))
                })?,
                hasher: crc32fast::Hasher::new(),
            };
            let n = copy_capped(&mut decoded, out, m.size, cap)?;
            let read = decoded.hasher.finalize();
            if read != crc32 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "archive member not read whole: its CRC-32 {crc32:#010x} does not match its contents ({read:#010x})"
                    ),
                ));
            }
            return Ok(n);
        }
        let file = match (password, encrypted) {
            (Some(password), true) => zip.by_index_decrypt(m.index, password),
            _ => zip.by_index(m.index),
        }
        .map_err(|e| zip_error("archive member not read", e))?;
        copy_capped(file, out, m.size, cap)
    }

    /// Where a zip member's stored bytes begin, and how many there are.
    fn zip_data(&self, m: &Member) -> io::Result<(u64, u64)> {
        let Some(mut zip) = self.zip.clone() else {
            return Err(io::Error::other("archive member not read: not a zip entry"));
        };
        let file = zip
            .by_index_raw(m.index)
            .map_err(|e| zip_error("archive member not read", e))?;
        let start = file.data_start().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "archive member's data not found",
            )
        })?;
        Ok((start, file.compressed_size()))
    }

    /// Where an NTFS file's one non-resident data attribute lies on its volume; `None`
    /// for a resident one (small) or one spread over an attribute list, which are
    /// copied out instead.
    fn ntfs_extents(&self, volume: usize, record: u64) -> io::Result<Option<RangedFile>> {
        let Some((ntfs, fs)) = self.disk.get(volume) else {
            return Ok(None);
        };
        let mapped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::vdisk::extents(ntfs, fs, record)
        }))
        .unwrap_or_else(|_| {
            Err(io::Error::other(
                "archive member not read: the NTFS reader stopped with an internal error",
            ))
        })?;
        Ok(mapped.map(RangedFile::extents))
    }

    /// A member to read from its start to its end, a chunk at a time, without holding
    /// it: a tar or 7z entry, a stored zip entry or an NTFS file's runs where they lie,
    /// a deflated, bzip2, LZMA, xz or zstd zip entry inflated as it is read. A zip
    /// member's CRC-32 is checked when its end is read: a mismatch is the error of that
    /// last read, after its bytes were given (a whole read gives none of them). `None`
    /// for a member that can only be read whole ([`Archive::read`]): an encrypted one
    /// (each password is tried on the whole member), a Deflate64 one, a resident NTFS
    /// file or one spread over an attribute list, or one that cannot be read as it
    /// stands (which the whole read says why).
    pub(crate) fn stream(&self, m: &Member) -> io::Result<Option<Box<dyn Read>>> {
        self.bomb_bound(m)?;
        let whole = |file: RangedFile| Cursor {
            file: Arc::new(file),
            pos: 0,
        };
        let in_place = match m.place {
            Place::Tar { offset } => self.in_place(m, offset)?,
            Place::Ntfs {
                volume,
                record,
                unreadable: None,
                ..
            } => match self.ntfs_extents(volume, record)? {
                Some(file) => file,
                None => return Ok(None),
            },
            Place::Zip {
                encrypted: false,
                stored,
                crc32,
                packing,
                deflated,
            } if stored || deflated || packing.is_some() => {
                let (start, len) = self.zip_data(m)?;
                let compressed: Box<dyn Read> = if stored {
                    Box::new(whole(self.in_place(m, start)?))
                } else {
                    if start.checked_add(len).is_none_or(|e| e > self.file.len()) {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            format!(
                                "archive member's {len} compressed bytes at byte {start} run past the end of the archive ({} bytes)",
                                self.file.len()
                            ),
                        ));
                    }
                    let raw = whole(RangedFile::within(self.file.clone(), start, len));
                    let decoded = match packing {
                        Some(packing) => unpacking(packing, raw, m.size).map_err(|e| {
                            io::Error::new(e.kind(), format!("archive member not read: {e}"))
                        })?,
                        None => Box::new(flate2::read::DeflateDecoder::new(raw)),
                    };
                    let (bound, why) = self.zip_bomb_bound(len);
                    Box::new(BombBound {
                        inner: decoded,
                        bound,
                        why,
                        read: 0,
                    })
                };
                return Ok(Some(Box::new(MemberReader {
                    inner: compressed,
                    crc: Some((crc32fast::Hasher::new(), crc32)),
                    ended: false,
                })));
            }
            Place::Zip { .. } | Place::Ntfs { .. } => return Ok(None),
        };
        Ok(Some(Box::new(MemberReader {
            inner: whole(in_place),
            crc: None,
            ended: false,
        })))
    }

    /// For a file of a disk image's NTFS volume: whether its attributes are spread over
    /// an attribute list.
    #[cfg(test)]
    pub(crate) fn ntfs_attribute_list(&self, m: &Member) -> Option<bool> {
        match m.place {
            Place::Ntfs { volume, record, .. } => {
                let (ntfs, fs) = self.disk.get(volume)?;
                Some(crate::vdisk::has_attribute_list(ntfs, fs, record))
            }
            _ => None,
        }
    }

    /// For a file of a disk image's NTFS volume read where its runs lie: whether it is
    /// NTFS-compressed (decoded unit by unit as it is read).
    #[cfg(test)]
    pub(crate) fn ntfs_compressed(&self, m: &Member) -> Option<bool> {
        match m.place {
            Place::Ntfs { volume, record, .. } => self
                .ntfs_extents(volume, record)
                .ok()
                .flatten()
                .map(|f| f.is_compressed()),
            _ => None,
        }
    }

    /// A member to read by ranges: a tar entry or a stored zip entry where it lies; a
    /// compressed one inflated (at most `cap` bytes) into memory, or into an unnamed
    /// temporary file in `spill` when it is larger than `in_memory`.
    pub(crate) fn open_ranged(
        &self,
        m: &Member,
        cap: u64,
        spill: Option<&Path>,
        in_memory: u64,
    ) -> io::Result<RangedFile> {
        match m.place {
            Place::Tar { offset } => return self.in_place(m, offset),
            Place::Zip { stored: true, .. } => {
                let (start, _) = self.zip_data(m)?;
                return self.in_place(m, start);
            }
            Place::Ntfs {
                volume,
                record,
                unreadable: None,
                ..
            } => {
                // a file of one non-resident attribute is read where its runs lie;
                // a resident one (small) or one spread over an attribute list is
                // copied out below
                if let Some(file) = self.ntfs_extents(volume, record)? {
                    return Ok(file);
                }
            }
            Place::Zip { .. } | Place::Ntfs { .. } => {}
        }
        if m.size > cap {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                crate::evidence::Refusal::TooLarge { size: m.size, cap },
            ));
        }
        match spill {
            Some(dir) if m.size > in_memory => {
                let (mut tmp, n) = if let Place::Ntfs { .. } = m.place {
                    let mut tmp = tempfile::tempfile_in(dir)?;
                    let n = self.ntfs_copy(m, cap, &mut tmp)?;
                    (tmp, n)
                } else {
                    self.inflate(m, cap, || tempfile::tempfile_in(dir))?
                };
                io::Write::flush(&mut tmp)?;
                Ok(RangedFile::spilled(tmp, n))
            }
            _ => {
                let bytes = self.read(m, cap)?;
                Ok(RangedFile::in_memory(Arc::from(bytes)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A RAR's later volume in the older naming is a RAR by its name (`.r00` to `.r99`
    /// only: `.z01` is also a split zip's part); compressed, it is one too.
    #[test]
    fn an_old_rar_volume_is_named_a_rar() {
        let kind = |n: &str| ArchiveKind::of_name(std::ffi::OsStr::new(n));
        for name in ["x.r00", "X.R42", "a.b.r99", "x.r00.gz"] {
            assert_eq!(kind(name), Some(ArchiveKind::Rar), "{name}");
        }
        for name in [
            ".r00", "x.r0", "x.r000", "x.s00", "x.z01", "x.rar0", "x.r0a",
        ] {
            assert_eq!(kind(name), None, "{name}");
        }
    }

    #[test]
    fn a_7z_spends_a_bounded_work_on_its_keys() {
        // 7-Zip's own: power 19, no salt (b0 = 0x40 | 19: an IV follows)
        assert_eq!(
            aes_key_of(&[0x53, 0x07, 1, 2, 3, 4, 5, 6, 7, 8]),
            Some((19, vec![]))
        );
        // a salt of 2 + 1 bytes (b1 high nibble 2, b0 bit 7), power 24
        assert_eq!(
            aes_key_of(&[0x80 | 24, 0x20, 9, 8, 7, 0]),
            Some((24, vec![9, 8, 7]))
        );
        assert_eq!(aes_key_of(&[63, 0]), None);
        assert_eq!(aes_key_of(&[]), Some((0, vec![])));
        let mut budget = KeyBudget::default();
        let key = |password: usize, salt: u8| std::iter::once((password, 24u8, vec![salt]));
        for salt in 0..3 {
            assert_eq!(budget.admit(key(0, salt)), Ok(()));
            // the same key again costs nothing
            assert_eq!(budget.admit(key(0, salt)), Ok(()));
        }
        // the same salt and power from another password is another key
        assert_eq!(budget.admit(key(1, 0)), Ok(()));
        assert_eq!(budget.admit(key(1, 0)), Ok(()));
        assert_eq!(budget.admit(key(2, 0)), Err(1 << 24));
        assert_eq!(budget.admit(key(0, 4)), Err(1 << 24));
        assert_eq!(budget.admit(std::iter::once((0, 62, vec![]))), Err(1 << 62));
        assert_eq!(budget.rounds, SEVEN_Z_KEY_ROUNDS);
    }

    /// What a wrong 7z password decoded is cut off: the next bytes stand where it
    /// began, in a spill file and in memory alike.
    #[test]
    fn decoded_bytes_cut_off_are_written_over() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        for spill in [Some(dir.path()), None] {
            let mut out = Decoded::new(spill).unwrap();
            out.write_all(b"kept ").unwrap();
            let mark = out.len();
            out.write_all(b"garbage of a wrong key").unwrap();
            out.truncate(mark).unwrap();
            out.write_all(b"right").unwrap();
            assert_eq!(out.len(), 10);
            let ranged = out.into_ranged().unwrap();
            let mut buf = [0u8; 32];
            assert_eq!(ranged.read_at(0, &mut buf).unwrap(), 10, "{spill:?}");
            assert_eq!(&buf[..10], b"kept right");
        }
    }

    #[test]
    fn names_split_into_components() {
        assert_eq!(components("a/b/c.txt", false), Ok(vec!["a", "b", "c.txt"]));
        assert_eq!(components("/a//./b/", false), Ok(vec!["a", "b"]));
        assert_eq!(components("a\\b", false), Ok(vec!["a\\b"]));
        assert_eq!(components("a\\b", true), Ok(vec!["a", "b"]));
        assert_eq!(
            components("a/../../etc/passwd", false),
            Err("its name climbs out of the archive (`..`)")
        );
        assert_eq!(components("./", false), Err("its name is empty"));
    }
}
