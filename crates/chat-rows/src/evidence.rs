//! Read-only access to evidence files, with a chain-of-custody manifest.
//!
//! Every byte a store crate reads from evidence goes through an [`Evidence`], so the
//! rules of the evidence are kept in one place rather than in every parser:
//!
//! * **Regular files only.** The entry is examined with `symlink_metadata` before it
//!   is opened: a FIFO, socket or device is never opened (opening a FIFO blocks for
//!   ever, reading `/dev/zero` never ends), and the opened handle is checked again.
//! * **No link followed out of the root.** A symbolic link is followed only when its
//!   target, fully resolved, lies inside one of the evidence roots; the manifest then
//!   names the link and its target. With no roots set (a library user reading one
//!   file), the root is the folder that holds the path given. The path is resolved
//!   before the open and the open handle placed again after it, by the kernel, so
//!   a folder above the file swapped for a link in between does not lead out.
//! * **A size cap** ([`Evidence::max_size`]): a larger file is refused with an error
//!   that says its size, before anything is allocated.
//! * **The manifest entry is for the file actually read**: its size, modification time
//!   and, when hashing is on ([`Evidence::hashing`]), the SHA-256 of the bytes the rows
//!   were built from, computed from the same read.
//!
//! * **No access time set** where the kernel allows it: files are opened and folders
//!   listed with `O_NOATIME` on Linux ([`open_read_only`], [`list_folder`]); the
//!   manifest says, per file, whether it was ([`ManifestEntry::access_time_kept`]).
//!
//! Opening read-only takes no lock and creates nothing; nothing here writes.
//!
//! Paths are shown with [`display_path`]: UTF-8 as it is, except that `%` and every
//! byte that is not UTF-8 are percent-encoded, so two different files never print the
//! same and the exact bytes can be recovered by percent-decoding.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::archive::{Archive, ArchiveKind, Lookup};
use crate::when::Timestamp;

/// The later segment files of a disk image on disk: for an EWF image `x.E01`, the
/// `x.E02`, `x.E03` ... beside it (then `x.EAA` ...), for a split raw image `x.001`, the
/// `x.002` ... beside it, each a regular file (not a link), up to the first missing
/// (for a first part under a compression of its own, `x.001.gz`, the later ones under
/// the same: `x.002.gz` ...); likewise the later volumes of a multi-volume RAR
/// (`x.part2.rar` ... beside `x.part1.rar`); empty for any other path. They are part of
/// the image or archive: read with it ([`Evidence::roots`] takes them in with one given
/// as a root), and an output path must no more resolve to one of them than to the
/// first itself.
pub fn image_segments(image: &Path) -> Vec<PathBuf> {
    let Some(first) = image.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for n in 2.. {
        let Some(name) = part_name(&first, n) else {
            break;
        };
        let sibling = image.with_file_name(name);
        if !std::fs::symlink_metadata(&sibling).is_ok_and(|m| m.is_file()) {
            break;
        }
        out.push(sibling);
    }
    out
}

/// The name of part `n` (from 2) of the image or RAR set whose first part is named
/// `first`: an EWF segment, a split raw image's part, a RAR volume.
fn part_name(first: &str, n: u32) -> Option<String> {
    crate::ewf::segment_name(first, n).or_else(|| crate::archive::rar::volume_name(first, n))
}

/// How many archives deep [`Evidence::open_archive`] opens one inside another (a case
/// archive of hosts' collections is two deep).
pub const MAX_ARCHIVE_DEPTH: usize = 4;

/// The default size cap of one evidence file: 4 GiB.
pub const DEFAULT_MAX_SIZE: u64 = 4 << 30;

/// How many times its own size a single compressed store file
/// ([`Evidence::open_compressed`]) may decompress to, past
/// [`MAX_COMPRESSION_RATIO_FROM`]. Logs and databases compress 3 to 30 times, and a
/// database of free pages a few hundred; a decompression bomb thousands of times
/// (4 GB of zeros is a 123 KB zstd file). A store reads some files whole, so without
/// this bound a file of a few kilobytes could take gigabytes of memory and minutes;
/// with it, what a compressed file costs stays in proportion to its own size. One
/// that decompresses past it is one `parser:` row, not read. The same bound holds
/// for a member of an archive or disk image, against its packed size (a zip member)
/// or the archive's bytes as found (a member of a tar, 7z or image). An archive or
/// image under a compression of its own is not bound so as a whole (an image of an
/// empty disk compresses tens of thousands of times): it is decompressed into the
/// spill folder, under the size cap, and read by ranges.
pub const MAX_COMPRESSION_RATIO: u64 = 1000;

/// The size up to which a single compressed store file is read whatever its
/// compression ratio ([`MAX_COMPRESSION_RATIO`]): 64 MiB.
pub const MAX_COMPRESSION_RATIO_FROM: u64 = 64 << 20;

/// One file read, for the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ManifestEntry {
    /// The path as given to [`Evidence::read`], shown with [`display_path`].
    pub path: String,
    /// When `path` is a symbolic link inside the root: the file actually read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_target: Option<String>,
    /// Size in bytes of what was read.
    pub size: u64,
    /// The file's modification time (UTC), when the file system gives one.
    pub mtime_utc: String,
    /// SHA-256 of the bytes read, lower-case hex; empty when hashing is off.
    pub sha256: String,
    /// True when the file was opened so that reading it could not change its access
    /// time (Linux `O_NOATIME`, which the kernel allows the file's owner and root);
    /// false where the kernel refused it or the system has no such flag: the access
    /// time may then have changed, unless the file system is mounted read-only or
    /// `noatime`.
    pub access_time_kept: bool,
}

/// Why an evidence file was not read: the rules above, in words an analyst can quote.
#[derive(Debug)]
pub enum Refusal {
    /// Not a regular file.
    NotRegular {
        /// `a directory`, `a FIFO`, `a socket`, `a device` ...
        what: &'static str,
    },
    /// A link whose target lies outside every evidence root, or cannot be resolved.
    LinkOutside {
        /// The resolved target, or the link's text when it resolves to nothing.
        target: String,
    },
    /// A path that resolves (through a linked folder) outside every evidence root.
    OutsideRoot {
        /// The resolved path.
        resolved: String,
    },
    /// Larger than the cap.
    TooLarge {
        /// The file's size.
        size: u64,
        /// The cap.
        cap: u64,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotRegular { what } => {
                write!(f, "not a regular file ({what}); left unread")
            }
            Refusal::LinkOutside { target } => write!(
                f,
                "a symbolic link to {target}, outside the evidence root; not followed"
            ),
            Refusal::OutsideRoot { resolved } => write!(
                f,
                "resolves to {resolved}, outside the evidence root; not followed"
            ),
            Refusal::TooLarge { size, cap } => {
                write!(
                    f,
                    "{size} bytes, over the {cap}-byte cap of one evidence file"
                )
            }
        }
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    fn into_io(self) -> io::Error {
        let kind = match self {
            Refusal::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, self)
    }
}

/// The refusal inside an error of [`Evidence::read`], if it was one.
pub fn refusal(e: &io::Error) -> Option<&Refusal> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Refusal>())
}

/// An evidence file read from start to end by [`Evidence::read_lines`]: hashed as it
/// is read, under the size cap, and recorded in the manifest at its end or when dropped.
struct Recorded<'e> {
    evidence: &'e Evidence,
    path: PathBuf,
    checked: Checked,
    atime_kept: bool,
    /// The file, or an archive member's bytes as they are decoded.
    file: Box<dyn Read + 'e>,
    /// The size when opened (what a refusal past the cap names, if larger).
    size: u64,
    /// No byte at or past this offset is read ([`Evidence::read_lines_to`]).
    end: u64,
    read: u64,
    sha: Option<Sha256>,
    recorded: bool,
}

impl Recorded<'_> {
    fn record(&mut self) {
        if std::mem::replace(&mut self.recorded, true) {
            return;
        }
        let sha256 = self
            .sha
            .take()
            .map(|h| hex::encode(h.finalize()))
            .unwrap_or_default();
        self.evidence.record_entry(
            &self.path,
            &self.checked,
            self.read,
            sha256,
            self.atime_kept,
        );
    }
}

impl Read for Recorded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let cap = self.evidence.max_size;
        // one byte past the cap is asked for, to tell a file that grew past it
        let room = cap
            .saturating_add(1)
            .min(self.end)
            .saturating_sub(self.read);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        if self.read + n as u64 > cap {
            return Err(Refusal::TooLarge {
                size: self.size.max(self.read + n as u64),
                cap,
            }
            .into_io());
        }
        if let Some(h) = &mut self.sha {
            h.update(&buf[..n]);
        }
        self.read += n as u64;
        if n == 0 && !buf.is_empty() {
            self.record();
        }
        Ok(n)
    }
}

impl Drop for Recorded<'_> {
    fn drop(&mut self) {
        self.record();
    }
}

/// What [`Evidence::check`] found: a regular file that may be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The file that a read opens (the link's target for a link).
    pub target: PathBuf,
    /// True when the path given is a symbolic link.
    pub via_link: bool,
    /// Its size.
    pub size: u64,
    /// Its modification time.
    pub modified: Option<std::time::SystemTime>,
}

/// A read-only handle on an evidence file opened by [`Evidence::open_ranged`]: bytes
/// are read where they are asked for, so a file of any size costs only the ranges read.
#[derive(Debug)]
pub struct RangedFile {
    file: Backing,
    size: u64,
    /// Where reads must seek first (no positional read): one seek and read at a time.
    #[cfg(not(any(unix, windows)))]
    seeking: Mutex<()>,
}

/// Where a [`RangedFile`]'s bytes are.
#[derive(Debug)]
enum Backing {
    Disk(std::fs::File),
    Memory(std::sync::Arc<[u8]>),
    /// A stored member of a zip archive: its bytes where they lie in the zip file.
    Within {
        file: std::sync::Arc<RangedFile>,
        start: u64,
    },
    /// A file of a virtual disk's NTFS volume: its data runs where they lie.
    Extents(crate::vdisk::Extents),
    /// A VHDX image read through the writes its log holds, replayed in memory.
    Replayed(crate::vhdx_log::Replayed),
}

impl RangedFile {
    fn with(file: Backing, size: u64) -> RangedFile {
        RangedFile {
            file,
            size,
            #[cfg(not(any(unix, windows)))]
            seeking: Mutex::new(()),
        }
    }

    /// True for an NTFS-compressed file of a disk image read where its runs lie.
    #[cfg(test)]
    pub(crate) fn is_compressed(&self) -> bool {
        matches!(&self.file, Backing::Extents(e) if e.is_compressed())
    }

    /// Bytes held in memory.
    pub(crate) fn in_memory(bytes: std::sync::Arc<[u8]>) -> RangedFile {
        let size = bytes.len() as u64;
        RangedFile::with(Backing::Memory(bytes), size)
    }

    /// `size` bytes of another at `start` (a stored member of a zip archive).
    pub(crate) fn within(file: std::sync::Arc<RangedFile>, start: u64, size: u64) -> RangedFile {
        RangedFile::with(Backing::Within { file, start }, size)
    }

    /// A file of a virtual disk, read through its data runs where they lie.
    pub(crate) fn extents(extents: crate::vdisk::Extents) -> RangedFile {
        let size = extents.len();
        RangedFile::with(Backing::Extents(extents), size)
    }

    /// A VHDX image with its log replayed in memory.
    pub(crate) fn replayed(replayed: crate::vhdx_log::Replayed) -> RangedFile {
        let size = replayed.len();
        RangedFile::with(Backing::Replayed(replayed), size)
    }

    /// A temporary file holding `size` bytes (an inflated member of a zip archive).
    pub(crate) fn spilled(file: std::fs::File, size: u64) -> RangedFile {
        RangedFile::with(Backing::Disk(file), size)
    }

    /// The file's size when it was opened.
    pub fn len(&self) -> u64 {
        self.size
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Reads up to `buf.len()` bytes at `offset`; returns how many were read (fewer
    /// only at the end of the file). One positional read per call on Unix and Windows
    /// (`pread`, `ReadFile` at an offset): no seek, and no lock, so threads sharing
    /// the handle do not wait on each other. The paged SQLite reader asks a page at a
    /// time; a seek and a read under a lock were two system calls a page.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let mut done = 0;
        while done < buf.len() {
            let at = offset + done as u64;
            let got = match &self.file {
                Backing::Disk(file) => self.read_once(file, at, &mut buf[done..]),
                Backing::Memory(bytes) => {
                    let from = usize::try_from(at).unwrap_or(usize::MAX).min(bytes.len());
                    let n = (bytes.len() - from).min(buf.len() - done);
                    buf[done..done + n].copy_from_slice(&bytes[from..from + n]);
                    Ok(n)
                }
                Backing::Within { file, start } => {
                    // never past the member's end, into the next one
                    let left = self.size.saturating_sub(at);
                    let n = usize::try_from(left)
                        .unwrap_or(usize::MAX)
                        .min(buf.len() - done);
                    if n == 0 {
                        Ok(0)
                    } else {
                        file.read_at(start + at, &mut buf[done..done + n])
                    }
                }
                Backing::Extents(extents) => extents.read_at(at, &mut buf[done..]),
                Backing::Replayed(replayed) => replayed.read_at(at, &mut buf[done..]),
            };
            match got {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }

    #[cfg(unix)]
    fn read_once(&self, file: &std::fs::File, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(file, buf, offset)
    }

    #[cfg(windows)]
    fn read_once(&self, file: &std::fs::File, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(file, buf, offset)
    }

    #[cfg(not(any(unix, windows)))]
    fn read_once(
        &self,
        mut file: &std::fs::File,
        offset: u64,
        buf: &mut [u8],
    ) -> io::Result<usize> {
        use std::io::Seek;
        let _one = self
            .seeking
            .lock()
            .map_err(|_| io::Error::other("evidence file handle poisoned"))?;
        file.seek(io::SeekFrom::Start(offset))?;
        file.read(buf)
    }
}

/// The read-only gateway to evidence files. Cheap to share between threads.
#[derive(Debug)]
pub struct Evidence {
    roots: Vec<PathBuf>,
    max_size: u64,
    hashing: bool,
    manifest: Mutex<BTreeMap<PathBuf, ManifestEntry>>,
    /// The files a read of was refused or failed, with why ([`Evidence::not_read`]).
    not_read: Mutex<BTreeMap<PathBuf, String>>,
    remembered: Mutex<HashMap<String, Remembered>>,
    /// The SHA-256 of each file [`Evidence::open_ranged`] streamed, by the file it
    /// resolved to, with what identified that file then ([`Identity`]).
    streamed: Mutex<HashMap<PathBuf, (Identity, String)>>,
    /// How many files [`Evidence::open_ranged`] streamed to hash them.
    streams: std::sync::atomic::AtomicUsize,
    /// The files of [`Evidence::in_memory`], by the path each stood at; nothing on disk
    /// is read when set.
    memory: Option<BTreeMap<PathBuf, MemoryFile>>,
    /// The folders [`Evidence::read_dir`] listed without `O_NOATIME`.
    folders_atime_not_kept: Mutex<std::collections::BTreeSet<PathBuf>>,
    /// The zip archives opened as folders ([`Evidence::open_archive`]).
    archives: std::sync::RwLock<Vec<std::sync::Arc<Archive>>>,
    /// The single compressed files opened ([`Evidence::open_compressed`]), found by
    /// hash: a folder may hold thousands, and every read asks.
    singles: std::sync::RwLock<Singles>,
    /// Where a large compressed member of an archive is inflated ([`Evidence::spill_dir`]).
    spill: Option<PathBuf>,
    /// The size above which a compressed member is inflated there rather than in memory.
    spill_above: u64,
    /// The password of encrypted zip members ([`Evidence::archive_password`]).
    archive_password: Option<crate::ArchivePassword>,
}

/// The single compressed files an [`Evidence`] opened, each found by the path of the
/// file it holds, by its own path, and by its folder.
#[derive(Debug, Default)]
struct Singles {
    /// The file each holds, by the path it stands at.
    by_path: HashMap<PathBuf, std::sync::Arc<Archive>>,
    /// Where the file each holds stands, by the compressed file's path.
    by_compressed: HashMap<PathBuf, PathBuf>,
    /// Each compressed file of a folder with where its file stands, by the folder.
    in_folder: HashMap<PathBuf, Vec<(PathBuf, PathBuf)>>,
}

/// What tells one state of a file from another without reading it: its size, its
/// modification time and, on Unix, its device, inode and status-change time. Two stores that read one
/// database (VS Code's state store and Cursor's store both read Cursor's global
/// `state.vscdb`, tens of GB) each open it by ranges; with hashing on, the second open
/// takes the first's SHA-256 when the file is still the same by these marks, instead of
/// streaming the whole file again.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    size: u64,
    modified: Option<std::time::SystemTime>,
    /// Device, inode and status-change time (which any write sets, and which a user
    /// cannot set back as they can the modification time).
    #[cfg(unix)]
    unix: (u64, u64, i64, i64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Identity {
            size: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            unix: (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// A value [`Evidence::remember`] keeps.
struct Remembered(Box<dyn std::any::Any + Send + Sync>);

impl std::fmt::Debug for Remembered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remembered")
    }
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence::new()
    }
}

/// The display form of the plain file a display names, for a store that names the
/// files beside it by their display: the file a single compressed file holds is shown
/// as a member of it (`dir/history.jsonl.gz/history.jsonl`, [`Evidence::shown`]) but
/// stands beside it (`dir/history.jsonl`), where its siblings are. Any other display is
/// given back as it is. (A folder named as a compressed file holding a file of that
/// name without the extension would read so too; no store keeps one.)
pub fn plain_display(display: &str) -> &str {
    let Some(i) = display.rfind(['/', '\\']) else {
        return display;
    };
    let (outer, name) = (&display[..i], &display[i + 1..]);
    let folder = outer.rfind(['/', '\\']).map_or(outer, |j| &outer[j + 1..]);
    let held = folder
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|ext| {
            !name.is_empty()
                && crate::Compressed::EXTENSIONS
                    .iter()
                    .any(|(e, _)| ext.eq_ignore_ascii_case(e))
        });
    if held {
        &outer[..outer.len() - (folder.len() - name.len())]
    } else {
        display
    }
}

/// Shows a path losslessly: UTF-8 as it is, `%` and every byte that is not UTF-8 as
/// `%XX`. Percent-decoding the result gives the path's exact bytes (on Windows, its
/// WTF-8 bytes).
pub fn display_path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if let Ok(s) = std::str::from_utf8(bytes) {
        if !s.contains('%') {
            return s.to_string();
        }
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' {
                out.push_str("%25");
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Opens `target` for reading and refuses it when what was opened is not a regular file
/// (the check is on the opened handle, so a file swapped after [`Evidence::check`] is
/// caught too). The third value is true when the read cannot change the file's access
/// time ([`open_read_only`]).
fn open_regular(target: &Path) -> io::Result<(std::fs::File, std::fs::Metadata, bool)> {
    let (file, kept) = open_read_only(target, Opening::File)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular {
            what: kind_of(&meta.file_type()),
        }
        .into_io());
    }
    // `O_NONBLOCK` was for the open only: a file system that honours it on a regular
    // file (some FUSE ones) could otherwise answer a read with `EAGAIN`
    #[cfg(unix)]
    {
        let flags = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK)?;
    }
    Ok((file, meta, kept))
}

/// Where the kernel says an open handle's file stands now: on Linux the link
/// `/proc/self/fd/<n>` (a file unlinked since it was opened ends in ` (deleted)`,
/// taken off). `None` where the system does not say (no `/proc` mounted) and on other
/// systems: the path checked before the open stands. macOS could say (`F_GETPATH`),
/// but whether it names a file behind a firmlink (`/Users` is
/// `/System/Volumes/Data/Users`) as `realpath` names the roots is not verified on a
/// Mac, and a mismatch would refuse every file, so it is not asked.
fn opened_path(file: &std::fs::File) -> Option<PathBuf> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let link = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()?;
        // a path the kernel cannot name from this process's root (another mount
        // namespace) is not absolute: it says nothing about the roots
        if !link.is_absolute() {
            return None;
        }
        Some(
            match link.as_os_str().as_bytes().strip_suffix(b" (deleted)") {
                Some(rest) => PathBuf::from(std::ffi::OsStr::from_bytes(rest)),
                None => link,
            },
        )
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = file;
        None
    }
}

/// What [`open_read_only`] opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// A file (checked as a regular file by the caller, on the handle). A symbolic
    /// link at the path is refused (`O_NOFOLLOW`): the path is where
    /// [`Evidence::check`] found a regular file, or the fully resolved target of a link
    /// it allowed, so a link there was swapped in after the check.
    File,
    /// A folder, for listing; with `follow_link` false a folder that is a symbolic
    /// link is refused (`O_NOFOLLOW`: a folder a walk listed as a folder and swapped
    /// for a link before it is entered is not followed out of the root).
    Folder {
        /// Whether a link at the path itself is followed.
        follow_link: bool,
    },
}

/// Opens a file or a folder ([`Opening`]) read-only, the way every evidence read
/// opens: on Linux with `O_NOATIME`, so that reading does not set the
/// access time a responder may need, where the kernel permits it (the owner of the
/// file, or a process with `CAP_FOWNER` such as root; for anyone else the open is
/// refused with `EPERM` and is made again without it); and on Unix with `O_NONBLOCK`
/// and `O_NOCTTY`, so that a FIFO or terminal swapped in after [`Evidence::check`]
/// neither blocks the open for ever nor becomes the scanner's terminal (the handle is
/// then refused as not a regular file). Returns the handle and whether the access
/// time is kept (always false where there is no `O_NOATIME`).
pub fn open_read_only(path: &Path, what: Opening) -> io::Result<(std::fs::File, bool)> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        let mut flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
        match what {
            // the path is the one [`Evidence::check`] found a regular file at, or the
            // resolved target of a link: a link there now was swapped in since
            Opening::File => flags |= OFlags::NOFOLLOW,
            Opening::Folder { follow_link } => {
                flags |= OFlags::DIRECTORY;
                if !follow_link {
                    flags |= OFlags::NOFOLLOW;
                }
            }
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        match rustix::fs::open(path, flags | OFlags::NOATIME, Mode::empty()) {
            Ok(fd) => return Ok((std::fs::File::from(fd), true)),
            Err(rustix::io::Errno::PERM) => {}
            Err(e) => return Err(e.into()),
        }
        let fd = rustix::fs::open(path, flags, Mode::empty())?;
        Ok((std::fs::File::from(fd), false))
    }
    #[cfg(not(unix))]
    {
        let _ = what;
        Ok((std::fs::File::open(path)?, false))
    }
}

/// What a folder entry is, as its folder lists it (a link is a link, not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A folder.
    Folder,
    /// A regular file.
    File,
    /// A symbolic link.
    Link,
    /// A FIFO.
    Fifo,
    /// A socket.
    Socket,
    /// A block or character device.
    Device,
    /// Anything else (a door, a whiteout).
    Other,
}

impl EntryKind {
    /// The kind of a file type.
    pub fn of(ft: &std::fs::FileType) -> EntryKind {
        if ft.is_symlink() {
            return EntryKind::Link;
        }
        if ft.is_dir() {
            return EntryKind::Folder;
        }
        if ft.is_file() {
            return EntryKind::File;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if ft.is_fifo() {
                return EntryKind::Fifo;
            }
            if ft.is_socket() {
                return EntryKind::Socket;
            }
            if ft.is_block_device() || ft.is_char_device() {
                return EntryKind::Device;
            }
        }
        EntryKind::Other
    }

    /// Its words in a refusal or a `parser:` row, as [`kind_of`] says them.
    pub fn words(self) -> &'static str {
        match self {
            EntryKind::Folder => "a directory",
            EntryKind::Fifo => "a FIFO",
            EntryKind::Socket => "a socket",
            EntryKind::Device => "a device",
            EntryKind::Link => "a symbolic link",
            EntryKind::File | EntryKind::Other => "not a file",
        }
    }
}

/// A folder's entries, as [`list_folder`] reads them.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// Each entry's path (the folder joined with its name) and kind, sorted by name.
    pub entries: Vec<(PathBuf, EntryKind)>,
    /// True when listing could not change the folder's access time (see
    /// [`open_read_only`]).
    pub access_time_kept: bool,
    /// The status of the folder listed, from its open handle (on Unix): what tells
    /// this folder from another, with no second look up of its path that a swap could
    /// answer for another folder.
    pub status: Option<std::fs::Metadata>,
}

/// Lists a folder, opened as [`open_read_only`] opens (on Linux with `O_NOATIME` where
/// permitted: `std::fs::read_dir` sets a folder's access time, as `ls` does, which
/// would leave the scan's time on every folder of a live system it walked). Names only,
/// sorted; `.` and `..` are left out; a link in the folder is not followed, and `dir`
/// itself is followed if it is a link only with `follow_link` (a walk gives false for
/// every folder below its root: one swapped for a link after it was listed is an
/// error, not a way out of the root). The kind comes from the listing where the file
/// system gives it and from the entry's status otherwise.
pub fn list_folder(dir: &Path, follow_link: bool) -> io::Result<Listing> {
    list_folder_kept(dir, follow_link, &|_| Ok(()))
}

/// [`list_folder`], keeping the opened folder only if `keep` accepts its handle (on
/// Unix; [`Evidence::confine`]).
fn list_folder_kept(
    dir: &Path,
    follow_link: bool,
    keep: &dyn Fn(&std::fs::File) -> io::Result<()>,
) -> io::Result<Listing> {
    let mut out = Listing::default();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (file, kept) = open_read_only(dir, Opening::Folder { follow_link })?;
        keep(&file)?;
        out.access_time_kept = kept;
        out.status = file.metadata().ok();
        let mut listing = rustix::fs::Dir::new(std::os::fd::OwnedFd::from(file))?;
        while let Some(entry) = listing.read() {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let path = dir.join(std::ffi::OsStr::from_bytes(name));
            use rustix::fs::FileType as T;
            let kind = match entry.file_type() {
                T::Directory => EntryKind::Folder,
                T::RegularFile => EntryKind::File,
                T::Symlink => EntryKind::Link,
                T::Fifo => EntryKind::Fifo,
                T::Socket => EntryKind::Socket,
                T::CharacterDevice | T::BlockDevice => EntryKind::Device,
                // the file system does not say (some network and FUSE ones): ask
                _ => std::fs::symlink_metadata(&path)
                    .map(|m| EntryKind::of(&m.file_type()))
                    .unwrap_or(EntryKind::Other),
            };
            out.entries.push((path, kind));
        }
    }
    #[cfg(not(unix))]
    {
        let _ = keep;
        // no open flag here: the link is refused by its status (a narrower window)
        if !follow_link && std::fs::symlink_metadata(dir)?.file_type().is_symlink() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "a symbolic link, not followed",
            ));
        }
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let kind = entry
                .file_type()
                .map(|t| EntryKind::of(&t))
                .unwrap_or(EntryKind::Other);
            out.entries.push((entry.path(), kind));
        }
    }
    out.entries
        .sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    Ok(out)
}

/// A file of [`Evidence::in_memory`].
#[derive(Debug)]
struct MemoryFile {
    bytes: std::sync::Arc<[u8]>,
    modified: Option<std::time::SystemTime>,
}

/// The files held in memory below `path`, in order: paths sort component by
/// component, so those under a folder follow it together (one lookup, not a pass over
/// every file).
fn memory_below<'a>(
    memory: &'a BTreeMap<PathBuf, MemoryFile>,
    path: &'a Path,
) -> impl Iterator<Item = &'a PathBuf> + 'a {
    use std::ops::Bound::{Excluded, Unbounded};
    memory
        .range::<Path, _>((Excluded(path), Unbounded))
        .map(|(p, _)| p)
        .take_while(move |p| p.starts_with(path))
}

/// True when `path` is a folder of the files held in memory: some file lies below it.
fn memory_folder(memory: &BTreeMap<PathBuf, MemoryFile>, path: &Path) -> bool {
    memory_below(memory, path).next().is_some()
}

/// What a file type is, in the words of a refusal: `a directory`, `a FIFO`, `a socket`,
/// `a device`, `a symbolic link` (discovery names a claimed path that is no regular
/// file the same way the reader would).
pub fn kind_of(ft: &std::fs::FileType) -> &'static str {
    EntryKind::of(ft).words()
}

impl Evidence {
    /// A gateway with no roots (a link is followed only within its own folder), the
    /// default size cap, hashing on, and an empty manifest.
    pub fn new() -> Evidence {
        Evidence {
            roots: Vec::new(),
            max_size: DEFAULT_MAX_SIZE,
            hashing: true,
            manifest: Mutex::new(BTreeMap::new()),
            not_read: Mutex::new(BTreeMap::new()),
            remembered: Mutex::new(HashMap::new()),
            streamed: Mutex::new(HashMap::new()),
            streams: Default::default(),
            folders_atime_not_kept: Default::default(),
            memory: None,
            archives: Default::default(),
            singles: Default::default(),
            spill: None,
            spill_above: 256 << 20,
            archive_password: None,
        }
    }

    /// Opens the archive at `path` as a folder of evidence: a zip, a tar or a compressed
    /// tar, by its name ([`ArchiveKind::of_name`]; a collection as KAPE, Velociraptor or
    /// UAC writes it, read without extracting it). From now on its members stand at
    /// `path` joined with their names, and every method of this reader reads, lists and
    /// checks them there as files on disk (a tar member or a stored zip member by ranges
    /// in place; a compressed zip member inflated under the size cap; a compressed tar
    /// decompressed once, whole, under the size cap, into the spill folder or memory). The
    /// archive itself is read as any evidence file first (checked, and in the manifest
    /// with its SHA-256); each member read gets its own manifest entry, with the SHA-256
    /// of its bytes. A member's modification time is a tar header's, or a zip member's
    /// UTC extra field (extended timestamp or NTFS), never the DOS time of unknown zone.
    /// Returns the entries that stand nowhere in the tree, by path, with why: a name
    /// with `..`, a name given twice, a file whose name is also a folder's, a path over
    /// 4,096 bytes, a tar's sparse file or damaged header. Opening one archive twice
    /// opens it once. `path` may be a member of an archive opened before (a case
    /// archive of hosts' collections): it is read as that member is read, and its
    /// own members stand below it in turn, [`MAX_ARCHIVE_DEPTH`] archives deep at most.
    pub fn open_archive(&self, path: &Path) -> io::Result<Vec<(PathBuf, String)>> {
        if self.archive_at(path).is_some_and(|a| a.path == path) {
            return Ok(Vec::new());
        }
        let kind = path
            .file_name()
            .and_then(ArchiveKind::of_name)
            .ok_or_else(|| {
                let names: Vec<&str> = ArchiveKind::EXTENSIONS.iter().map(|(e, _)| *e).collect();
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("not an archive this reader opens ({})", names.join(", ")),
                )
            })?;
        self.within_depth(path, "an archive")?;
        let mut file = self.open_ranged(path)?;
        // the evidence it stands on: its bytes as found (and its later parts'), or the
        // outer archive's when it lies in one ([`crate::archive::Archive::stored`])
        let mut stored = file.len();
        let outer_stored = self.archive_of(path).map_or(u64::MAX, |a| a.stored);
        // what a damaged or cut stream left out, named with the archive's problems
        // (`archive read in part: ...`)
        let mut cut = Vec::new();
        // an archive or image under a compression of its own (`disk.dd.gz`) is
        // decompressed whole first, as a compressed tar is
        let outer = path.file_name().and_then(ArchiveKind::compression_of_name);
        if let Some(outer) = outer {
            let (decoded, ended) = crate::archive::decompress(
                file,
                outer.as_tar(),
                self.max_size,
                self.spill.as_deref(),
            )
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", outer.words())))?;
            file = decoded;
            cut.extend(ended.map(|e| format!("{}: {e}", outer.words())));
        }
        if kind.is_compressed_tar() {
            let (decoded, ended) =
                crate::archive::decompress(file, kind, self.max_size, self.spill.as_deref())?;
            file = decoded;
            cut.extend(ended.map(|e| e.to_string()));
        }
        // an EWF image's later segment files stand beside its `.E01` (a split raw
        // image's parts beside its `.001`), each read as any evidence file is
        // (checked, and in the manifest), until one is not there
        let mut segments = Vec::new();
        let mut unread = Vec::new();
        // (under the first's compression, each part decompressed on its own; a part
        // cut short ends the image there, as a cut image file would, and the parts
        // after it are named, not read)
        if matches!(kind, ArchiveKind::Ewf | ArchiveKind::Raw | ArchiveKind::Rar) {
            let first = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut ended = !cut.is_empty();
            let mut decompressed = file.len();
            for n in 2.. {
                let Some(name) = part_name(&first, n) else {
                    break;
                };
                let sibling = path.with_file_name(&name);
                if ended {
                    if self.status(&sibling, false).is_some() {
                        let why = "segment file not read (a part before it is cut short, so where its bytes stand in the image is not known)";
                        unread.push((sibling, why.to_string()));
                    }
                    break;
                }
                // the parts decompressed are one image under the cap, not one each
                // (a folder of small bombs must not fill the spill folder)
                let left = self.max_size.saturating_sub(decompressed);
                let part = self.open_ranged(&sibling).inspect(|f| {
                    stored = stored.saturating_add(f.len());
                });
                let part = part.and_then(|f| match outer {
                    None => Ok((f, None)),
                    Some(outer) => crate::archive::decompress(
                        f,
                        outer.as_tar(),
                        left,
                        self.spill.as_deref(),
                    )
                    .map_err(|e| match e.kind() {
                        io::ErrorKind::FileTooLarge => io::Error::new(
                            e.kind(),
                            format!(
                                "{}: the image's parts decompress to more than the {}-byte cap of one evidence file",
                                outer.words(),
                                self.max_size
                            ),
                        ),
                        _ => io::Error::new(e.kind(), format!("{}: {e}", outer.words())),
                    }),
                });
                if let Ok((f, _)) = &part {
                    decompressed += f.len();
                }
                match part {
                    Ok((f, None)) => segments.push(f),
                    Ok((f, Some(e))) => {
                        segments.push(f);
                        let words = outer
                            .map(crate::archive::Compressed::words)
                            .unwrap_or_default();
                        cut.push(format!("{name}: {words}: {e}"));
                        ended = true;
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                    Err(e) => {
                        let part = match kind {
                            ArchiveKind::Rar => "volume",
                            _ => "segment file",
                        };
                        unread.push((sibling, format!("{part} not read ({e})")));
                        break;
                    }
                }
            }
        }
        let kept = self.access_time_kept(path);
        // the zip and tar readers are dependencies: should one panic on a hostile
        // directory, the archive is unread and the scan goes on
        let (mut archive, problems) =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Archive::open(
                    path,
                    std::iter::once(file).chain(segments).collect(),
                    kind,
                    kept,
                    self.archive_password.clone(),
                    self.max_size,
                    self.spill.as_deref(),
                )
            }))
            .map_err(|_| {
                io::Error::other(
                    "not read as an archive: its reader stopped with an internal error",
                )
            })?
            .map_err(|e| {
                // what was cut short or left out may be why it could not be read: told too
                let told: Vec<String> = cut
                    .iter()
                    .cloned()
                    .chain(unread.iter().map(|(p, why)| {
                        let name = p.file_name().unwrap_or_default().to_string_lossy();
                        format!("{name}: {why}")
                    }))
                    .collect();
                match told.is_empty() {
                    true => e,
                    false => io::Error::new(e.kind(), format!("{e}; {}", told.join("; "))),
                }
            })?;
        archive.stored = stored.min(outer_stored);
        if let Ok(mut list) = self.archives.write() {
            list.push(std::sync::Arc::new(archive));
        }
        let mut problems = problems;
        problems.extend(
            cut.into_iter()
                .map(|why| (path.to_path_buf(), format!("archive read in part: {why}"))),
        );
        problems.extend(unread);
        Ok(problems)
    }

    /// Opens a single compressed file (`history.jsonl.gz`, [`crate::Compressed`]) as
    /// the file it holds, and returns the path that file now stands at: beside it,
    /// named as `gzip -d` would name it (`history.jsonl`). Every method of this reader
    /// reads, checks and lists it there as a file on disk, so a store claims and reads
    /// it where it would the plain file, and finds the files beside it. It is
    /// decoded once here, keeping nothing, for its length (under the size cap), and
    /// again at each read, as a compressed zip member is inflated: a line reader
    /// streams it, a whole read holds it, a read by ranges decodes it into memory, or
    /// the spill folder when over 256 MiB. A folder of thousands of compressed logs so
    /// costs neither their contents in memory nor an open handle each. Its time is the
    /// compressed file's (which `gzip` sets to the original's). The compressed file is read as any evidence file is (checked,
    /// and in the manifest with its SHA-256); the file it holds, when read, has its own
    /// entry, named as a member of it ([`Evidence::shown`]:
    /// `history.jsonl.gz/history.jsonl`). Nothing is written.
    ///
    /// A stream damaged or cut short is read in part: the file it holds is what was
    /// decoded before the damage (a log keeps its lines to there, the last one torn),
    /// and the error that ended it is returned beside the path
    /// (`decompressed as gzip only to byte 108588: incomplete deflate stream`).
    ///
    /// Refused, with an error that says why: a name of no such compression, or of a
    /// compressed tar (an archive: [`Evidence::open_archive`]); a file already standing
    /// where the one it holds would (`history.jsonl` beside `history.jsonl.gz`, or a
    /// second compression of it): that file is read, and the compressed one is not; a
    /// compressed file inside [`MAX_ARCHIVE_DEPTH`] archives; and what
    /// [`Evidence::open_ranged`] refuses, or a stream that cannot be decompressed
    /// whole under the cap. Opening one file twice opens it once.
    pub fn open_compressed(&self, path: &Path) -> io::Result<(PathBuf, Option<io::Error>)> {
        let (kind, held) = path
            .file_name()
            .and_then(crate::Compressed::of_name)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a single compressed file this reader opens (.gz, .bz2, .xz, .zst)",
                )
            })?;
        let at = path.with_file_name(held);
        if let Some(at) = self
            .singles
            .read()
            .ok()
            .and_then(|s| s.by_compressed.get(path).cloned())
        {
            return Ok((at, None));
        }
        if let Some(there) = self.status(&at, false) {
            let what = match self.archive_of(&at).and_then(|a| a.single.clone()) {
                Some((other, _)) => format!("the file that {} holds", display_path(&other)),
                None if there == EntryKind::File => "a file".to_string(),
                None => there.words().to_string(),
            };
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "the file it holds would stand at {}, where {what} stands: that one is read",
                    display_path(&at)
                ),
            ));
        }
        self.within_depth(path, "a compressed file")?;
        let modified = self.check(path)?.modified;
        let file = self.open_ranged(path)?;
        let kept = self.access_time_kept(path);
        // decoded no further than the ratio allows: a bomb costs in proportion to its size
        // inside an archive, the evidence it stands on is the outer one's at most (a
        // bomb inside a bomb multiplies no further)
        let (own, of) = match self.archive_of(path) {
            Some(a) if a.stored < file.len() => (a.stored, "the size of the archive that holds it"),
            _ => (file.len(), "its own size"),
        };
        let ratio_cap = own
            .saturating_mul(MAX_COMPRESSION_RATIO)
            .max(MAX_COMPRESSION_RATIO_FROM);
        let cap = self.max_size.min(ratio_cap);
        let (size, ended) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::archive::decoded_length(file, kind, cap)
        }))
        .map_err(|_| {
            io::Error::other(format!(
                "not decompressed as {}: its decoder stopped with an internal error",
                kind.words()
            ))
        })?
        .map_err(|e| match e.kind() {
            io::ErrorKind::FileTooLarge if cap < self.max_size => io::Error::new(
                e.kind(),
                format!(
                    "not read: it decompresses to more than {MAX_COMPRESSION_RATIO} times {of} ({own} bytes; past {cap} bytes), a decompression bomb's shape; decompressed elsewhere, the copy reads as any file"
                ),
            ),
            _ => e,
        })?;
        let archive = Archive::single(&at, (path, kind), size, modified, kept);
        if let Ok(mut singles) = self.singles.write() {
            singles
                .by_path
                .insert(at.clone(), std::sync::Arc::new(archive));
            singles.by_compressed.insert(path.to_path_buf(), at.clone());
            if let Some(folder) = path.parent() {
                singles
                    .in_folder
                    .entry(folder.to_path_buf())
                    .or_default()
                    .push((path.to_path_buf(), at.clone()));
            }
        }
        Ok((at, ended))
    }

    /// The single compressed file whose file stands at `path`
    /// ([`Evidence::open_compressed`]): its archive, its path and compression, and the
    /// file's length.
    #[allow(clippy::type_complexity)]
    fn compressed_at(
        &self,
        path: &Path,
    ) -> Option<(std::sync::Arc<Archive>, PathBuf, crate::Compressed, u64)> {
        let a = self.single_at(path)?;
        let (compressed, kind) = a.single.clone()?;
        let size = match a.lookup(path) {
            Lookup::File(m) => m.size,
            _ => 0,
        };
        Some((a, compressed, kind, size))
    }

    /// The file a compressed file holds, decoded again from the compressed file (read
    /// as any evidence file is), to the length first decoded: the bytes a damaged
    /// stream gave before its damage, no more.
    fn decompressed(
        &self,
        compressed: &Path,
        kind: crate::Compressed,
        size: u64,
    ) -> io::Result<impl Read + use<>> {
        let file = self.open_ranged(compressed)?;
        Ok(crate::archive::decoder(file, kind)?.take(size))
    }

    /// An error when a compressed file decoded again gave fewer bytes than when it was
    /// opened (it changed, or its decoder stopped early this time).
    fn decoded_whole(bytes: &[u8], size: u64) -> io::Result<()> {
        Self::decoded_whole_len(bytes.len() as u64, size)
    }

    fn decoded_whole_len(len: u64, size: u64) -> io::Result<()> {
        if len < size {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the compressed file decoded to {len} bytes, not to the {size} it decoded to when opened"
                ),
            ));
        }
        Ok(())
    }

    /// How a path is named in rows and the manifest: [`display_path`], but the file a
    /// single compressed file holds ([`Evidence::open_compressed`]) as a member of it
    /// (`.../history.jsonl.gz/history.jsonl`), for the path it stands at is no file on
    /// disk.
    pub fn shown(&self, path: &Path) -> String {
        display_path(&self.shown_path(path))
    }

    /// [`Evidence::shown`] as a path (the manifest's key).
    fn shown_path(&self, path: &Path) -> PathBuf {
        let single = self
            .single_at(path)
            .and_then(|a| a.single.clone())
            .map(|(c, _)| c);
        match (single, path.file_name()) {
            (Some(compressed), Some(name)) => compressed.join(name),
            _ => path.to_path_buf(),
        }
    }

    /// An error when `path` lies inside [`MAX_ARCHIVE_DEPTH`] open archives (`what`
    /// names it).
    fn within_depth(&self, path: &Path, what: &str) -> io::Result<()> {
        let depth = self
            .archives
            .read()
            .map(|l| l.iter().filter(|a| path.starts_with(&a.path)).count())
            .unwrap_or(0);
        if depth >= MAX_ARCHIVE_DEPTH {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{what} inside {depth} archives; archives are opened {MAX_ARCHIVE_DEPTH} deep at most"
                ),
            ));
        }
        Ok(())
    }

    /// Whether the read of `path` recorded in the manifest kept its access time.
    fn access_time_kept(&self, path: &Path) -> bool {
        self.manifest
            .lock()
            .ok()
            .and_then(|m| m.get(path).map(|e| e.access_time_kept))
            .unwrap_or(false)
    }

    /// The password encrypted zip members are read with (ZipCrypto or AES-encrypted, as
    /// `zip -P`, 7-Zip and collectors write them: a responder's `infected`). Without
    /// one, or with a wrong one, each such member is an error that says so when read
    /// (`archive member not read: unsupported Zip archive: Password required to decrypt
    /// file`, `... provided password is incorrect`); a ZipCrypto password checks one
    /// byte only, so a wrong one may pass it and be told by the member's CRC-32
    /// (`Invalid checksum`). Several passwords ([`crate::ArchivePassword::any_of`]) are
    /// tried in turn on each encrypted member, 7z header and 7z block until one reads
    /// it whole; with none right, the error is the last one's. A RAR's headers are
    /// opened with the first that opens them, and its encrypted members (its one
    /// stream, when solid) decoded with each in turn. The password is never
    /// in the manifest, a row or an error.
    pub fn archive_password(mut self, password: crate::ArchivePassword) -> Evidence {
        self.archive_password = Some(password);
        self
    }

    /// Where a compressed zip member larger than 256 MiB, and a whole gzipped tar, are
    /// inflated: an unnamed temporary file in `dir`, gone when it is closed (without it,
    /// into memory, still under the size cap). The caller keeps
    /// `dir` out of the evidence roots.
    pub fn spill_dir(mut self, dir: impl Into<PathBuf>) -> Evidence {
        self.spill = Some(dir.into());
        self
    }

    /// The innermost open archive `path` lies strictly below (an archive's members may
    /// themselves be archives, opened in their turn), or the single compressed file
    /// whose file stands at `path` ([`Evidence::open_compressed`]).
    fn archive_of(&self, path: &Path) -> Option<std::sync::Arc<Archive>> {
        if let Some(a) = self.single_at(path) {
            return Some(a);
        }
        let list = self.archives.read().ok()?;
        list.iter()
            .filter(|a| path != a.path && path.starts_with(&a.path))
            .max_by_key(|a| a.path.as_os_str().len())
            .cloned()
    }

    /// The single compressed file whose file stands at `path`.
    fn single_at(&self, path: &Path) -> Option<std::sync::Arc<Archive>> {
        let singles = self.singles.read().ok()?;
        if singles.by_path.is_empty() {
            return None;
        }
        singles.by_path.get(path).cloned()
    }

    /// The innermost open archive `path` is, or lies below (or the single compressed
    /// file whose file stands at `path`).
    fn archive_at(&self, path: &Path) -> Option<std::sync::Arc<Archive>> {
        if let Some(a) = self.single_at(path) {
            return Some(a);
        }
        let list = self.archives.read().ok()?;
        list.iter()
            .filter(|a| path.starts_with(&a.path))
            .max_by_key(|a| a.path.as_os_str().len())
            .cloned()
    }

    /// True when `path` is an archive this reader opened ([`Evidence::open_archive`]).
    pub fn is_open_archive(&self, path: &Path) -> bool {
        self.archive_at(path)
            .is_some_and(|a| a.path == path && a.single.is_none())
    }

    /// True when `path` stands inside an archive this reader opened
    /// ([`Evidence::open_archive`]): a member or a folder of one, not a file on disk.
    pub fn is_archived(&self, path: &Path) -> bool {
        self.archive_of(path).is_some()
    }

    /// True when `path` stands on a disk image's NTFS volume (of a VHDX, VHD, EWF or raw
    /// image opened as an archive): a file system of Windows, whatever its folders look
    /// like (an image of a C: drive holds `Users/<user>` at its top, as a Mac does).
    pub fn in_disk_image(&self, path: &Path) -> bool {
        self.archive_of(path).is_some_and(|a| a.is_disk())
    }

    /// True when `path` is a deleted file of a disk image's NTFS volume: a file whose
    /// record is no longer in use, standing at `<image>/$Deleted/<its path>`. What a
    /// store reads from it is deleted evidence (the scanner marks its rows so).
    pub fn is_deleted_file(&self, path: &Path) -> bool {
        self.archive_of(path).is_some_and(|a| match &a.single {
            // the file a deleted compressed file holds is deleted evidence too
            Some((compressed, _)) => self.is_deleted_file(compressed),
            None => matches!(a.lookup(path), Lookup::File(m) if m.is_deleted()),
        })
    }

    /// Whether `path` names a later volume of a multi-volume RAR (`x.part2.rar` ...)
    /// whose first volume (`x.part1.rar`) stands beside it as a regular file: read with
    /// the first ([`Evidence::open_archive`]), not alone.
    pub fn is_later_volume(&self, path: &Path) -> bool {
        let first = path
            .file_name()
            .and_then(|n| crate::archive::rar::first_volume_of(&n.to_string_lossy()));
        first.is_some_and(|first| {
            self.status(&path.with_file_name(first), false) == Some(EntryKind::File)
        })
    }

    /// Lists a folder for a walk: a folder of an archive or of the files held in
    /// memory from what this reader holds, and one on disk by [`list_folder`] (with
    /// `follow_link` as there). Unlike [`Evidence::read_dir`] it does not check the
    /// folder against the roots: a walk lists the folders it met, none through a link.
    pub fn list(&self, dir: &Path, follow_link: bool) -> io::Result<Listing> {
        if let Some(a) = self.archive_at(dir) {
            return match a.children(dir) {
                Some(entries) => Ok(Listing {
                    entries,
                    access_time_kept: true,
                    status: None,
                }),
                None => Err(Self::not_in_archive(&a, dir)),
            };
        }
        if self.memory.is_some() {
            let entries = self
                .read_dir(dir)?
                .into_iter()
                .map(|p| {
                    let kind = self.status(&p, false).unwrap_or(EntryKind::Other);
                    (p, kind)
                })
                .collect();
            return Ok(Listing {
                entries,
                access_time_kept: true,
                status: None,
            });
        }
        list_folder_kept(dir, follow_link, &|f| self.confine(f, dir, false))
    }

    fn not_in_archive(a: &Archive, path: &Path) -> io::Error {
        match a.lookup(path) {
            Lookup::File(_) => io::Error::new(
                io::ErrorKind::NotADirectory,
                "a member of the archive, not a folder",
            ),
            _ => io::Error::new(io::ErrorKind::NotFound, "not in the archive"),
        }
    }

    /// A fact derived from evidence files, computed once per key for the life of this
    /// reader (one scan): what a store needs from one file for each of thousands of
    /// others (Claude Code's retention period, from a home's settings, for each of its
    /// transcripts) is read and parsed once, not once per file. `compute` runs without
    /// any lock held (it reads through this reader); two threads asking at once may
    /// both compute, and the first value stored is kept. Keys are namespaced by the
    /// caller (`"<store>: <what> <path>"`).
    pub fn remember<T: Clone + Send + Sync + 'static>(
        &self,
        key: &str,
        compute: impl FnOnce() -> T,
    ) -> T {
        let known = |map: &HashMap<String, Remembered>| {
            map.get(key).and_then(|v| v.0.downcast_ref::<T>()).cloned()
        };
        if let Some(v) = known(&self.remembered.lock().unwrap_or_else(|e| e.into_inner())) {
            return v;
        }
        let value = compute();
        let mut map = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = known(&map) {
            return v;
        }
        map.insert(key.to_string(), Remembered(Box::new(value.clone())));
        value
    }

    /// A reader over files held in memory instead of on disk: a file object in Python,
    /// a member of a zip, bytes fetched from a share. Each file is given with the path
    /// it stood at in the evidence, which is what a store recognises it by and what
    /// its rows name (`.../chatSessions/<id>.jsonl`, `.../state.vscdb` with its
    /// `state.vscdb-wal` beside it), and its modification time where known (a zip
    /// member's; rows placed at a file's modification time have no time without it).
    /// Nothing on disk is read or listed: a path not given is missing, and a folder is
    /// any path above a given one. The other rules hold: the size cap, and a manifest
    /// entry for each file read (its SHA-256 when hashing is on, and `access_time_kept`
    /// true: no file was opened).
    pub fn in_memory(
        files: impl IntoIterator<Item = (PathBuf, Vec<u8>, Option<std::time::SystemTime>)>,
    ) -> Evidence {
        let mut ev = Evidence::new();
        ev.memory = Some(
            files
                .into_iter()
                .map(|(p, b, modified)| {
                    (
                        p,
                        MemoryFile {
                            bytes: std::sync::Arc::from(b),
                            modified,
                        },
                    )
                })
                .collect(),
        );
        ev
    }

    /// Sets the evidence roots: no link is followed, and no path resolved, outside them.
    /// An EWF image (`.E01`) given as a root brings its later segment files (`.E02`, ...,
    /// each a regular file beside it) in with it, and a split raw image (`.001`) its
    /// later parts (`.002`, ...).
    pub fn roots<P: AsRef<Path>>(mut self, roots: impl IntoIterator<Item = P>) -> Evidence {
        self.roots = roots
            .into_iter()
            .map(|r| {
                let r = r.as_ref();
                std::fs::canonicalize(r)
                    .or_else(|_| std::path::absolute(r))
                    .unwrap_or_else(|_| r.to_path_buf())
            })
            .collect();
        // an EWF image given as a root is all its segment files: `.E02` ... beside it
        // are read as part of it (a split raw image's `.002` ... beside its `.001`)
        let segments: Vec<PathBuf> = self.roots.iter().flat_map(|r| image_segments(r)).collect();
        self.roots.extend(segments);
        self
    }

    /// Sets the size cap of one file (default [`DEFAULT_MAX_SIZE`]).
    pub fn max_size(mut self, bytes: u64) -> Evidence {
        self.max_size = bytes;
        self
    }

    /// Turns the SHA-256 of each file read on or off (on by default). The scanner turns
    /// it on only when a manifest is asked for; the hash is then taken from the same read.
    pub fn hashing(mut self, on: bool) -> Evidence {
        self.hashing = on;
        self
    }

    /// The size cap of one file.
    pub fn size_cap(&self) -> u64 {
        self.max_size
    }

    fn inside_roots(&self, resolved: &Path, given: &Path) -> bool {
        if self.roots.is_empty() {
            let parent = match given.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            return std::fs::canonicalize(parent).is_ok_and(|p| resolved.starts_with(p));
        }
        self.roots.iter().any(|r| resolved.starts_with(r))
    }

    /// Refuses a handle whose file stands outside every root now that it is open.
    /// [`Evidence::check`] resolved the path before the open; a folder above it
    /// swapped for a link in between would otherwise lead the open out of the root
    /// (`O_NOFOLLOW` guards the last component only). The kernel names the file the
    /// handle holds ([`opened_path`]), so no later swap can change what is read.
    /// Checked when roots are set or the path was a link (as [`Evidence::check`]).
    fn confine(&self, file: &std::fs::File, given: &Path, via_link: bool) -> io::Result<()> {
        if self.roots.is_empty() && !via_link {
            return Ok(());
        }
        match opened_path(file) {
            Some(at) if !self.inside_roots(&at, given) => Err(Refusal::OutsideRoot {
                resolved: display_path(&at),
            }
            .into_io()),
            _ => Ok(()),
        }
    }

    /// Opens the file [`Evidence::check`] allowed ([`open_regular`]) and keeps it only
    /// if it is still inside the roots ([`Evidence::confine`]).
    fn open_checked(
        &self,
        path: &Path,
        checked: &Checked,
    ) -> io::Result<(std::fs::File, std::fs::Metadata, bool)> {
        let opened = open_regular(&checked.target)?;
        self.confine(&opened.0, path, checked.via_link)?;
        Ok(opened)
    }

    /// Checks that `path` may be read under the rules in the module docs, without
    /// opening it. A missing file is an error of kind `NotFound`; a refusal is an error
    /// whose [`refusal`] says why.
    pub fn check(&self, path: &Path) -> io::Result<Checked> {
        if let Some(a) = self.archive_of(path) {
            return match a.lookup(path) {
                // a file the walk found unreadable: its length (0, unknown) is no
                // length to report, so every check says why instead
                Lookup::File(m) if m.kind == EntryKind::File && m.unreadable().is_some() => {
                    Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "archive member not read: {}",
                            m.unreadable().unwrap_or_default()
                        ),
                    ))
                }
                Lookup::File(m) if m.kind == EntryKind::File => Ok(Checked {
                    target: path.to_path_buf(),
                    via_link: false,
                    size: m.size,
                    modified: a.modified(m),
                }),
                Lookup::File(m) => Err(Refusal::NotRegular {
                    what: m.kind.words(),
                }
                .into_io()),
                Lookup::Folder => Err(Refusal::NotRegular {
                    what: EntryKind::Folder.words(),
                }
                .into_io()),
                Lookup::Missing => Err(Self::not_in_archive(&a, path)),
            };
        }
        if let Some(memory) = &self.memory {
            return match memory.get(path) {
                Some(file) => Ok(Checked {
                    target: path.to_path_buf(),
                    via_link: false,
                    size: file.bytes.len() as u64,
                    modified: file.modified,
                }),
                None if memory_folder(memory, path) => Err(Refusal::NotRegular {
                    what: EntryKind::Folder.words(),
                }
                .into_io()),
                None => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    "not among the files given in memory",
                )),
            };
        }
        let meta = std::fs::symlink_metadata(path)?;
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = match std::fs::canonicalize(path) {
                Ok(t) => t,
                Err(_) => {
                    let text = std::fs::read_link(path)
                        .map(|t| display_path(&t))
                        .unwrap_or_default();
                    return Err(Refusal::LinkOutside {
                        target: format!("{text} (which resolves to nothing)"),
                    }
                    .into_io());
                }
            };
            if !self.inside_roots(&target, path) {
                return Err(Refusal::LinkOutside {
                    target: display_path(&target),
                }
                .into_io());
            }
            let tmeta = std::fs::metadata(&target)?;
            if !tmeta.is_file() {
                return Err(Refusal::NotRegular {
                    what: kind_of(&tmeta.file_type()),
                }
                .into_io());
            }
            return Ok(Checked {
                target,
                via_link: true,
                size: tmeta.len(),
                modified: tmeta.modified().ok(),
            });
        }
        if !ft.is_file() {
            return Err(Refusal::NotRegular { what: kind_of(&ft) }.into_io());
        }
        if !self.roots.is_empty() {
            // a folder on the way may be a link out of the root
            let resolved = std::fs::canonicalize(path)?;
            if !self.inside_roots(&resolved, path) {
                return Err(Refusal::OutsideRoot {
                    resolved: display_path(&resolved),
                }
                .into_io());
            }
        }
        Ok(Checked {
            target: path.to_path_buf(),
            via_link: false,
            size: meta.len(),
            modified: meta.modified().ok(),
        })
    }

    /// [`Evidence::check`], and a file whose first `end` bytes are over the size cap
    /// refused before it is opened.
    fn check_under_cap(&self, path: &Path, end: u64) -> io::Result<Checked> {
        let checked = self.check(path)?;
        // the cap bounds what is read: a file grown past it after `end` is read to `end`
        if checked.size.min(end) > self.max_size {
            return Err(Refusal::TooLarge {
                size: checked.size,
                cap: self.max_size,
            }
            .into_io());
        }
        Ok(checked)
    }

    /// Reads a whole file, read-only, under the rules in the module docs, and records
    /// it in the manifest.
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let read = self.read_whole(path);
        self.note(path, read.as_ref().err());
        read
    }

    /// Records a failed read of `path` for [`Evidence::not_read`]: any error but a file
    /// that is not there (stores ask for side files that may not exist).
    fn note(&self, path: &Path, error: Option<&io::Error>) {
        if let Some(e) = error.filter(|e| e.kind() != io::ErrorKind::NotFound)
            && let Ok(mut m) = self.not_read.lock()
        {
            m.entry(path.to_path_buf()).or_insert_with(|| e.to_string());
        }
    }

    /// The files a read was asked of and that could not be read, whole or from the
    /// start (refused: not a regular file, over the cap, a link out of the root; or
    /// failed: permission denied, an I/O error), each with the first error's text, in
    /// path order. A file that is not there is not in it. The scanner names each in its
    /// summary and the manifest's `not_read` (since 2026-12-05; before, only the store's
    /// `parser:` row named such a file).
    pub fn not_read(&self) -> Vec<(PathBuf, String)> {
        self.not_read
            .lock()
            .map(|m| m.iter().map(|(p, w)| (p.clone(), w.clone())).collect())
            .unwrap_or_default()
    }

    fn read_whole(&self, path: &Path) -> io::Result<Vec<u8>> {
        let checked = self.check_under_cap(path, u64::MAX)?;
        if let Some((a, compressed, kind, size)) = self.compressed_at(path) {
            let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            self.decompressed(&compressed, kind, size)?
                .read_to_end(&mut bytes)?;
            Self::decoded_whole(&bytes, size)?;
            self.record(path, &checked, &bytes, a.access_time_kept);
            return Ok(bytes);
        }
        if let Some(a) = self.archive_of(path) {
            if let Lookup::File(m) = a.lookup(path) {
                let bytes = a.read(m, self.max_size)?;
                self.record(path, &checked, &bytes, a.access_time_kept);
                return Ok(bytes);
            }
        }
        if let Some(file) = self.memory.as_ref().and_then(|m| m.get(path)) {
            let bytes = file.bytes.to_vec();
            self.record(path, &checked, &bytes, true);
            return Ok(bytes);
        }
        let (mut file, meta, atime_kept) = self.open_checked(path, &checked)?;
        let cap = self.max_size;
        let mut bytes = Vec::with_capacity(meta.len().min(cap) as usize);
        (&mut file)
            .take(cap.saturating_add(1))
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > cap {
            return Err(Refusal::TooLarge {
                size: meta.len().max(bytes.len() as u64),
                cap,
            }
            .into_io());
        }
        self.record(path, &checked, &bytes, atime_kept);
        Ok(bytes)
    }

    /// Opens a line-oriented file (JSONL) to be read a chunk at a time under the same
    /// rules and cap as [`Evidence::read`]: only the longest line and a chunk are held,
    /// not the file. The manifest entry is recorded once the reader has read the file
    /// to its end, or is dropped: the size and SHA-256 of the bytes read (so of the
    /// bytes the rows were built from, even of a file that grew or failed mid-read). A
    /// file that grows past the cap while it is read fails there, with the lines before
    /// it given.
    ///
    /// A file in an archive is read the same way, decoded as it is read: a tar or 7z
    /// entry, a stored zip member or a file of a disk image's NTFS volume where its
    /// bytes lie, a deflated, bzip2, LZMA, xz or zstd zip member inflated a chunk at a
    /// time. A zip member's CRC-32 is checked at its end: a mismatch fails the last read,
    /// after the lines before it were given (the manifest entry is of the bytes read).
    /// An encrypted or Deflate64 zip member, a resident NTFS file (at most about 700
    /// bytes) and a file in memory are read whole first, as by [`Evidence::read`]
    /// ([`Evidence::is_held`]).
    pub fn read_lines(&self, path: &Path) -> io::Result<crate::lines::LineReader<'_>> {
        let lines = self.open_lines(path, u64::MAX, true);
        self.note(path, lines.as_ref().err());
        lines
    }

    /// A second read of a file [`Evidence::read_lines`] read (under the same checks),
    /// reading no byte at or past offset `end`, the first read's
    /// [`crate::lines::LineReader::bytes_read`]: a second pass that must see what the
    /// first saw, even of a live file appended to in between. It is neither hashed nor
    /// recorded again: the first read's manifest entry stands, and the caller checks that
    /// this read gives the lines the first gave (as `session-tree` does, hashing their
    /// numbers, offsets and bytes), so the entry is of the bytes the rows come from. A
    /// file [`Evidence::is_held`] names is read whole, as by [`Evidence::read`].
    pub fn read_lines_to(&self, path: &Path, end: u64) -> io::Result<crate::lines::LineReader<'_>> {
        self.open_lines(path, end, false)
    }

    /// A line reader on a file, to byte `end`, hashed and recorded or neither.
    fn open_lines(
        &self,
        path: &Path,
        end: u64,
        record: bool,
    ) -> io::Result<crate::lines::LineReader<'_>> {
        let checked = self.check_under_cap(path, end)?;
        let recorded = |file: Box<dyn Read>, size: u64, atime_kept: bool| Recorded {
            evidence: self,
            path: path.to_path_buf(),
            checked: checked.clone(),
            atime_kept,
            file,
            size,
            end,
            read: 0,
            sha: (record && self.hashing).then(Sha256::new),
            // a read not to be recorded counts as recorded already
            recorded: !record,
        };
        if let Some((a, compressed, kind, size)) = self.compressed_at(path) {
            let stream = self.decompressed(&compressed, kind, size)?;
            return Ok(crate::lines::LineReader::from_read_sized(
                recorded(Box::new(stream), size, a.access_time_kept),
                size.min(end),
            ));
        }
        if let Some(a) = self.archive_of(path) {
            if let Lookup::File(m) = a.lookup(path) {
                if let Some(member) = a.stream(m)? {
                    return Ok(crate::lines::LineReader::from_read_sized(
                        recorded(member, m.size, a.access_time_kept),
                        m.size.min(end),
                    ));
                }
            }
        }
        if self.is_held(path) {
            let mut bytes = self.read(path)?;
            bytes.truncate(usize::try_from(end).unwrap_or(usize::MAX));
            let size = bytes.len() as u64;
            return Ok(crate::lines::LineReader::from_read_sized(
                io::Cursor::new(bytes),
                size,
            ));
        }
        let (file, meta, atime_kept) = self.open_checked(path, &checked)?;
        Ok(crate::lines::LineReader::from_read_sized(
            recorded(Box::new(file), meta.len(), atime_kept),
            meta.len().min(end),
        ))
    }

    /// True for a file held in memory, or in an archive that can only be read whole
    /// (an encrypted or Deflate64 zip member, a resident NTFS file: see
    /// [`Evidence::read_lines`]): every read of it, by [`Evidence::read_lines`] too,
    /// reads it whole (decoded from its archive, or copied), so a reader that would pass
    /// over it twice reads it once with [`Evidence::read`] and keeps the bytes.
    pub fn is_held(&self, path: &Path) -> bool {
        if self.compressed_at(path).is_some() {
            return false;
        }
        self.archive_of(path).is_some_and(|a| match a.lookup(path) {
            Lookup::File(m) => !matches!(a.stream(m), Ok(Some(_))),
            _ => false,
        }) || self.memory.as_ref().is_some_and(|m| m.get(path).is_some())
    }

    /// Opens a file for reading by ranges ([`RangedFile::read_at`]), read-only, after
    /// the same checks as [`Evidence::read`] (regular file, no link out of the root),
    /// and records it in the manifest: its size and modification time and, when
    /// hashing is on, the SHA-256 of its bytes, streamed once through a 1 MiB buffer
    /// (once per file for the life of this reader: a second open of the same file, still
    /// of the same size, modification time and, on Unix, inode and status-change time,
    /// takes the hash streamed before).
    /// For a file too large to hold in memory (a SQLite database of tens of GB): the
    /// size cap, which bounds whole-file reads, does not apply.
    pub fn open_ranged(&self, path: &Path) -> io::Result<RangedFile> {
        let ranged = self.open_ranged_checked(path);
        self.note(path, ranged.as_ref().err());
        ranged
    }

    fn open_ranged_checked(&self, path: &Path) -> io::Result<RangedFile> {
        let checked = self.check(path)?;
        if let Some(a) = self.archive_of(path) {
            if let Lookup::File(m) = a.lookup(path) {
                let ranged = match self.compressed_at(path) {
                    Some((_, compressed, kind, size)) => {
                        let spill = self.spill.as_deref().filter(|_| size > self.spill_above);
                        let stream = self.decompressed(&compressed, kind, size)?;
                        let ranged = crate::archive::decoded_to_ranged(stream, spill)?;
                        Self::decoded_whole_len(ranged.len(), size)?;
                        ranged
                    }
                    None => {
                        a.open_ranged(m, self.max_size, self.spill.as_deref(), self.spill_above)?
                    }
                };
                // one pass for the hash and, for a member read in place (the inflating
                // reader checks the others), its CRC-32
                let mut sha = self.hashing.then(Sha256::new);
                let mut crc = m.crc_in_place().map(|_| crc32fast::Hasher::new());
                if sha.is_some() || crc.is_some() {
                    let mut buf = vec![0u8; 1 << 20];
                    let mut at = 0u64;
                    loop {
                        let n = ranged.read_at(at, &mut buf)?;
                        if n == 0 {
                            break;
                        }
                        if let Some(h) = &mut sha {
                            h.update(&buf[..n]);
                        }
                        if let Some(h) = &mut crc {
                            h.update(&buf[..n]);
                        }
                        at += n as u64;
                    }
                }
                if crc.is_some_and(|h| Some(h.finalize()) != m.crc_in_place()) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "archive member not read whole: Invalid checksum",
                    ));
                }
                let sha256 = sha.map(|h| hex::encode(h.finalize())).unwrap_or_default();
                self.record_entry(path, &checked, ranged.len(), sha256, a.access_time_kept);
                return Ok(ranged);
            }
        }
        if let Some(file) = self.memory.as_ref().and_then(|m| m.get(path)) {
            // hashed as a whole read is (the bytes are at hand)
            self.record(path, &checked, &file.bytes, true);
            return Ok(RangedFile {
                file: Backing::Memory(file.bytes.clone()),
                size: file.bytes.len() as u64,
                #[cfg(not(any(unix, windows)))]
                seeking: Mutex::new(()),
            });
        }
        let (mut file, meta, atime_kept) = self.open_checked(path, &checked)?;
        let size = meta.len();
        let identity = Identity::of(&meta);
        let known = || {
            let m = self.streamed.lock().ok()?;
            let (was, sha) = m.get(&checked.target)?;
            (*was == identity).then(|| sha.clone())
        };
        let sha256 = if !self.hashing {
            String::new()
        } else if let Some(sha) = known() {
            sha
        } else {
            self.streams
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut hasher = Sha256::new();
            let mut buf = vec![0u8; 1 << 20];
            loop {
                let n = file.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
            }
            let sha = hex::encode(hasher.finalize());
            if let Ok(mut m) = self.streamed.lock() {
                m.insert(checked.target.clone(), (identity, sha.clone()));
            }
            sha
        };
        let entry = ManifestEntry {
            path: self.shown(path),
            link_target: checked.via_link.then(|| display_path(&checked.target)),
            size,
            mtime_utc: checked
                .modified
                .and_then(Timestamp::from_system_time)
                .map(|t| t.to_string())
                .unwrap_or_default(),
            sha256,
            access_time_kept: atime_kept,
        };
        let key = self.shown_path(path);
        if let Ok(mut m) = self.manifest.lock() {
            m.insert(key, entry);
        }
        Ok(RangedFile {
            file: Backing::Disk(file),
            size,
            #[cfg(not(any(unix, windows)))]
            seeking: Mutex::new(()),
        })
    }

    /// Like [`Evidence::read`], but a missing file is `Ok(None)`.
    pub fn read_optional(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match self.read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The entries of a folder, sorted, under the same rules (a linked folder is listed
    /// only when it resolves inside the root). Lists names only; reads no file. The
    /// file a single compressed file of the folder holds, once opened
    /// ([`Evidence::open_compressed`]), is listed in its place, as it stands there: a
    /// store that lists a folder (a session's `tool-results/`) finds the plain file,
    /// and never reads the compressed bytes as the file's.
    pub fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let mut out = self.read_dir_as_found(dir)?;
        let held: Vec<(PathBuf, PathBuf)> = self
            .singles
            .read()
            .ok()
            .and_then(|s| s.in_folder.get(dir).cloned())
            .unwrap_or_default();
        if !held.is_empty() {
            out.retain(|p| !held.iter().any(|(compressed, _)| compressed == p));
            out.extend(held.into_iter().map(|(_, at)| at));
            out.sort();
        }
        Ok(out)
    }

    /// [`Evidence::read_dir`] without the files compressed files hold.
    fn read_dir_as_found(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        if let Some(a) = self.archive_at(dir) {
            return match a.children(dir) {
                Some(entries) => Ok(entries.into_iter().map(|(p, _)| p).collect()),
                None => Err(Self::not_in_archive(&a, dir)),
            };
        }
        if let Some(memory) = &self.memory {
            if memory.contains_key(dir) {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "a file given in memory, not a folder",
                ));
            }
            // the files and folders just below `dir` (a folder is named by its files)
            let below: std::collections::BTreeSet<PathBuf> = memory_below(memory, dir)
                .filter_map(|p| p.strip_prefix(dir).ok())
                .filter_map(|rest| rest.components().next())
                .map(|first| dir.join(first))
                .collect();
            if below.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    "no file given in memory lies in this folder",
                ));
            }
            return Ok(below.into_iter().collect());
        }
        let meta = std::fs::symlink_metadata(dir)?;
        let via_link = meta.file_type().is_symlink();
        if via_link {
            let target = std::fs::canonicalize(dir)?;
            if !self.inside_roots(&target, dir) {
                return Err(Refusal::LinkOutside {
                    target: display_path(&target),
                }
                .into_io());
            }
        } else if !meta.is_dir() {
            return Err(Refusal::NotRegular {
                what: kind_of(&meta.file_type()),
            }
            .into_io());
        }
        let listing = list_folder_kept(dir, true, &|f| self.confine(f, dir, via_link))?;
        if !listing.access_time_kept {
            if let Ok(mut set) = self.folders_atime_not_kept.lock() {
                set.insert(dir.to_path_buf());
            }
        }
        let mut out: Vec<PathBuf> = listing.entries.into_iter().map(|(p, _)| p).collect();
        out.sort();
        Ok(out)
    }

    /// What is at `path`, as this reader sees it, without reading it: on disk its
    /// status (of the link's target with `follow_link`, of the link itself without);
    /// for [`Evidence::in_memory`], a file given or a folder above one. `None` when
    /// nothing is there. Stores ask this, never the file system, whether a companion
    /// or a sibling is there, so a tree held in memory answers as it would on disk.
    pub fn status(&self, path: &Path, follow_link: bool) -> Option<EntryKind> {
        if let Some(a) = self.archive_of(path) {
            // a link member is never followed
            return match a.lookup(path) {
                Lookup::File(m) => Some(m.kind),
                Lookup::Folder => Some(EntryKind::Folder),
                Lookup::Missing => None,
            };
        }
        if let Some(memory) = &self.memory {
            return if memory.contains_key(path) {
                Some(EntryKind::File)
            } else if memory_folder(memory, path) {
                Some(EntryKind::Folder)
            } else {
                None
            };
        }
        let meta = if follow_link {
            std::fs::metadata(path)
        } else {
            std::fs::symlink_metadata(path)
        };
        meta.ok().map(|m| EntryKind::of(&m.file_type()))
    }

    /// The file's modification time, UTC, if the rules allow the file and the file
    /// system records one.
    pub fn modified(&self, path: &Path) -> Option<Timestamp> {
        Timestamp::from_system_time(self.check(path).ok()?.modified?)
    }

    fn record(&self, path: &Path, checked: &Checked, bytes: &[u8], access_time_kept: bool) {
        let sha256 = if self.hashing {
            hex::encode(Sha256::digest(bytes))
        } else {
            String::new()
        };
        self.record_entry(path, checked, bytes.len() as u64, sha256, access_time_kept);
    }

    fn record_entry(
        &self,
        path: &Path,
        checked: &Checked,
        size: u64,
        sha256: String,
        access_time_kept: bool,
    ) {
        let entry = ManifestEntry {
            path: self.shown(path),
            link_target: checked.via_link.then(|| display_path(&checked.target)),
            size,
            mtime_utc: checked
                .modified
                .and_then(Timestamp::from_system_time)
                .map(|t| t.to_string())
                .unwrap_or_default(),
            sha256,
            access_time_kept,
        };
        let key = self.shown_path(path);
        if let Ok(mut m) = self.manifest.lock() {
            m.insert(key, entry);
        }
    }

    /// The folders [`Evidence::read_dir`] listed in a way that may have set their
    /// access time (see [`open_read_only`]; a file's own is in its [`ManifestEntry`]),
    /// each once however often it was listed.
    pub fn folders_access_time_not_kept(&self) -> std::collections::BTreeSet<PathBuf> {
        self.folders_atime_not_kept
            .lock()
            .map(|set| set.clone())
            .unwrap_or_default()
    }

    /// Every file read so far, sorted by path.
    pub fn manifest(&self) -> Vec<ManifestEntry> {
        self.manifest
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }
}

/// What [`snapshot_tree`] records of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryState {
    /// A directory.
    Dir,
    /// A file: its size, SHA-256 and modification time.
    File {
        /// Size in bytes.
        len: u64,
        /// SHA-256 of the content.
        sha256: [u8; 32],
        /// Modification time, when the file system gives one.
        modified: Option<std::time::SystemTime>,
    },
    /// A symbolic link, not followed: its target.
    Link(PathBuf),
}

/// The state of every entry below `root` (paths relative to it), for tests that prove a
/// read left evidence unchanged: equal snapshots before and after mean no byte, no
/// modification time and no directory entry changed, and no file (`-shm`, `-journal`,
/// lock) was created.
pub fn snapshot_tree(root: &Path) -> io::Result<BTreeMap<PathBuf, EntryState>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, EntryState>) -> io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            let ft = entry.file_type()?;
            if ft.is_symlink() {
                out.insert(rel, EntryState::Link(std::fs::read_link(&path)?));
            } else if ft.is_dir() {
                out.insert(rel, EntryState::Dir);
                walk(root, &path, out)?;
            } else {
                let bytes = std::fs::read(&path)?;
                out.insert(
                    rel,
                    EntryState::File {
                        len: bytes.len() as u64,
                        sha256: Sha256::digest(&bytes).into(),
                        modified: entry.metadata()?.modified().ok(),
                    },
                );
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod remember_tests {
    use super::Evidence;
    use std::cell::Cell;

    #[test]
    fn a_fact_is_computed_once_per_key_and_reader() {
        let ev = Evidence::new();
        let runs = Cell::new(0);
        let compute = |v: u64| {
            runs.set(runs.get() + 1);
            Some(v)
        };
        assert_eq!(ev.remember("s: a", || compute(7)), Some(7));
        assert_eq!(ev.remember("s: a", || compute(9)), Some(7));
        assert_eq!(ev.remember("s: b", || compute(9)), Some(9));
        assert_eq!(runs.get(), 2);
        // another type under a key already used is computed, not mistaken for it
        assert_eq!(ev.remember("s: a", || "text".to_string()), "text");
        // another reader (another scan) remembers nothing
        assert_eq!(Evidence::new().remember("s: a", || compute(1)), Some(1));
        assert_eq!(runs.get(), 3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_size_and_hash() {
        let dir = std::env::temp_dir().join(format!("chat-rows-evidence-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, b"abc").unwrap();
        let ev = Evidence::new();
        assert_eq!(ev.read(&f).unwrap(), b"abc");
        assert_eq!(ev.read_optional(&dir.join("missing")).unwrap(), None);
        let m = ev.manifest();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].size, 3);
        assert_eq!(
            m[0].sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(m[0].mtime_utc.ends_with('Z'));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder lists by name, `.` and `..` left out, each entry with its kind from
    /// the listing (a link not followed), names that are not UTF-8 kept exactly.
    #[cfg(unix)]
    #[test]
    fn a_folder_lists_by_name_with_each_entrys_kind() {
        use std::os::unix::ffi::OsStrExt;
        let tmp = tempfile_dir("listing");
        std::fs::create_dir(tmp.join("b-folder")).unwrap();
        std::fs::write(tmp.join("c.json"), b"{}").unwrap();
        std::os::unix::fs::symlink("c.json", tmp.join("a-link")).unwrap();
        std::os::unix::fs::symlink("/nowhere", tmp.join("d-dangling")).unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"e-\xff.json");
        std::fs::write(tmp.join(odd), b"").unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(tmp.join("f-fifo"))
            .status()
            .is_ok_and(|s| s.success());
        let listing = list_folder(&tmp, false).unwrap();
        let mut want = vec![
            (tmp.join("a-link"), EntryKind::Link),
            (tmp.join("b-folder"), EntryKind::Folder),
            (tmp.join("c.json"), EntryKind::File),
            (tmp.join("d-dangling"), EntryKind::Link),
            (tmp.join(odd), EntryKind::File),
        ];
        if fifo {
            want.push((tmp.join("f-fifo"), EntryKind::Fifo));
        } else {
            eprintln!("mkfifo failed: the FIFO is not listed");
        }
        assert_eq!(listing.entries, want);
        assert_eq!(
            list_folder(&tmp.join("c.json"), true).unwrap_err().kind(),
            io::ErrorKind::NotADirectory
        );
        // a link to a folder is listed only when asked to follow it
        std::os::unix::fs::symlink("b-folder", tmp.join("g-link-to-folder")).unwrap();
        assert_eq!(
            list_folder(&tmp.join("g-link-to-folder"), true)
                .unwrap()
                .entries
                .len(),
            0
        );
        let refused = list_folder(&tmp.join("g-link-to-folder"), false).unwrap_err();
        let errno = refused.raw_os_error();
        assert!(
            errno == Some(rustix::io::Errno::NOTDIR.raw_os_error())
                || errno == Some(rustix::io::Errno::LOOP.raw_os_error()),
            "{refused}: ENOTDIR or ELOOP"
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A FIFO swapped in after the check is opened without waiting for a writer (a
    /// plain open would block for ever) and refused as what it is; a link swapped in
    /// is not followed.
    #[cfg(unix)]
    #[test]
    fn a_fifo_opened_in_place_of_a_file_is_refused_at_once() {
        let tmp = tempfile_dir("fifo");
        let fifo = tmp.join("state.vscdb-wal");
        if !std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            eprintln!("skipped: mkfifo failed");
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let f = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(open_regular(&f).map(|_| ()).map_err(|e| e.to_string()));
        });
        let outcome = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("opening a FIFO blocked");
        assert_eq!(
            outcome,
            Err("not a regular file (a FIFO); left unread".to_string()),
            "{fifo:?}"
        );
        // a link swapped in for a checked file is not followed (the target is outside)
        std::fs::write(tmp.join("outside.json"), b"{}").unwrap();
        std::os::unix::fs::symlink(tmp.join("outside.json"), tmp.join("swapped.json")).unwrap();
        let refused = open_regular(&tmp.join("swapped.json"))
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            refused.raw_os_error(),
            Some(rustix::io::Errno::LOOP.raw_os_error()),
            "{refused}"
        );
        // a regular file's handle is left blocking, as reads expect
        let file = tmp.join("state.vscdb");
        std::fs::write(&file, b"x").unwrap();
        let (handle, _, _) = open_regular(&file).unwrap();
        let flags = rustix::fs::fcntl_getfl(&handle).unwrap();
        assert!(!flags.contains(rustix::fs::OFlags::NONBLOCK), "{flags:?}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// Reading, reading by ranges and listing set no access time (on Linux, where the
    /// file system sets them at all), and the manifest says the files' were kept.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn reading_and_listing_set_no_access_time() {
        let tmp = tempfile_dir("atime");
        for d in ["evidence/sub", "control/sub"] {
            std::fs::create_dir_all(tmp.join(d)).unwrap();
            std::fs::write(tmp.join(d).join("a.json"), b"{\"a\":1}").unwrap();
        }
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3 * 86_400);
        let paths = |top: &str| [tmp.join(top).join("sub"), tmp.join(top).join("sub/a.json")];
        for p in paths("evidence").iter().chain(&paths("control")) {
            std::fs::File::open(p)
                .unwrap()
                .set_times(std::fs::FileTimes::new().set_accessed(old))
                .unwrap();
        }
        let atimes = |top: &str| {
            paths(top).map(|p| std::fs::symlink_metadata(p).unwrap().accessed().unwrap())
        };
        std::fs::read(tmp.join("control/sub/a.json")).unwrap();
        std::fs::read_dir(tmp.join("control/sub")).unwrap().count();
        if atimes("control").contains(&old) {
            eprintln!("skipped: this file system sets no access time on a read");
            return;
        }
        let ev = Evidence::new().roots([tmp.join("evidence")]);
        assert_eq!(
            ev.read(&tmp.join("evidence/sub/a.json")).unwrap(),
            b"{\"a\":1}"
        );
        let ranged = ev.open_ranged(&tmp.join("evidence/sub/a.json")).unwrap();
        let mut buf = [0u8; 4];
        assert_eq!(ranged.read_at(2, &mut buf).unwrap(), 4);
        assert_eq!(
            ev.read_dir(&tmp.join("evidence/sub")).unwrap(),
            vec![tmp.join("evidence/sub/a.json")]
        );
        assert_eq!(atimes("evidence"), [old, old]);
        assert!(ev.manifest()[0].access_time_kept);
        assert!(ev.folders_access_time_not_kept().is_empty());
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// Writes a zip of the members `build` adds.
    fn zip_at(path: &Path, build: impl FnOnce(&mut zip::ZipWriter<std::fs::File>)) {
        let mut w = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        build(&mut w);
        w.finish().unwrap();
    }

    /// An archive that is a member of an open archive opens in its turn (stored or
    /// deflated, zip or gzipped tar): its members stand below it, are read whole and by
    /// ranges, and each read has its manifest entry; archives nest four deep at most.
    #[test]
    fn an_archive_inside_an_archive_opens_in_its_turn() {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        let tmp = tempfile_dir("archive-nested");
        let zip_bytes = |members: &[(&str, &[u8], bool)]| {
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (name, body, stored) in members {
                let o = if *stored {
                    SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored)
                } else {
                    SimpleFileOptions::default()
                };
                w.start_file(*name, o).unwrap();
                w.write_all(body).unwrap();
            }
            w.finish().unwrap().into_inner()
        };
        let inner = zip_bytes(&[("C/Users/dave/a.json", b"{\"a\":1}", false)]);
        let mut tar = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(5);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        tar.append_data(&mut h, "home/erin/b.txt", &b"hello"[..])
            .unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&tar.into_inner().unwrap()).unwrap();
        let tgz = gz.finish().unwrap();
        let outer = tmp.join("case.zip");
        std::fs::write(
            &outer,
            zip_bytes(&[("WS7.zip", &inner, true), ("hosts/web.tgz", &tgz, false)]),
        )
        .unwrap();
        let ev = Evidence::new().roots([&tmp]);
        assert!(ev.open_archive(&outer).unwrap().is_empty());
        let ws7 = outer.join("WS7.zip");
        assert!(ev.is_archived(&ws7) && !ev.is_archived(&outer));
        assert!(ev.open_archive(&ws7).unwrap().is_empty());
        let web = outer.join("hosts/web.tgz");
        assert!(!ev.is_open_archive(&web) && ev.is_open_archive(&ws7));
        assert!(ev.open_archive(&web).unwrap().is_empty());
        assert!(ev.is_open_archive(&web) && !ev.is_open_archive(&outer.join("hosts")));
        assert_eq!(
            ev.read(&ws7.join("C/Users/dave/a.json")).unwrap(),
            b"{\"a\":1}"
        );
        let ranged = ev.open_ranged(&web.join("home/erin/b.txt")).unwrap();
        let mut buf = [0u8; 3];
        assert_eq!(ranged.read_at(2, &mut buf).unwrap(), 3);
        assert_eq!(&buf, b"llo");
        assert_eq!(
            ev.list(&ws7.join("C/Users"), false).unwrap().entries,
            [(ws7.join("C/Users/dave"), EntryKind::Folder)]
        );
        assert_eq!(
            ev.status(&web.join("home/erin"), false),
            Some(EntryKind::Folder)
        );
        let paths: Vec<String> = ev.manifest().into_iter().map(|m| m.path).collect();
        let shown = |p: &Path| display_path(p);
        assert_eq!(
            paths,
            [
                shown(&outer),
                shown(&ws7),
                shown(&ws7.join("C/Users/dave/a.json")),
                shown(&web),
                shown(&web.join("home/erin/b.txt")),
            ]
        );
        // five deep: the fifth is not opened
        let mut bytes = zip_bytes(&[("x.txt", b"x", true)]);
        for _ in 0..4 {
            bytes = zip_bytes(&[("n.zip", &bytes, true)]);
        }
        let deep = tmp.join("deep.zip");
        std::fs::write(&deep, bytes).unwrap();
        let mut at = deep.clone();
        for _ in 0..4 {
            ev.open_archive(&at).unwrap();
            at = at.join("n.zip");
        }
        assert_eq!(
            ev.open_archive(&at).unwrap_err().to_string(),
            "an archive inside 4 archives; archives are opened 4 deep at most"
        );
        // it is still a member, read as one
        assert!(ev.read(&at).unwrap().starts_with(b"PK\x03\x04"));
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A zip opened as evidence is a folder of its members: listed, checked, read whole
    /// and by ranges (stored in place, deflated inflated), with a manifest entry for the
    /// zip and for each member read; what cannot stand in the tree is named.
    #[test]
    fn a_compressed_file_reads_as_the_file_it_holds_beside_it() {
        use std::io::Write;
        let tmp = tempfile_dir("compressed");
        let dir = tmp.join("home");
        std::fs::create_dir_all(&dir).unwrap();
        let text: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("{{\"n\":{i}}}\n").into_bytes())
            .collect();
        let gzip = |bytes: &[u8]| {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        };
        let xz = {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1))
                    .unwrap();
            w.write_all(b"xz\n").unwrap();
            w.finish().unwrap()
        };
        let gz = gzip(&text);
        let at_time = |name: &str, bytes: &[u8]| {
            let f = dir.join(name);
            std::fs::write(&f, bytes).unwrap();
            let file = std::fs::File::options().write(true).open(&f).unwrap();
            file.set_modified(
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000),
            )
            .unwrap();
            f
        };
        let log = at_time("log.jsonl.gz", &gz);
        at_time("plain.jsonl", b"plain\n");
        let plain_gz = at_time("plain.jsonl.gz", &gzip(b"older\n"));
        let other_xz = at_time("other.jsonl.XZ", &xz);
        let other_gz = at_time("other.jsonl.gz", &gzip(b"again\n"));
        let cut = at_time("cut.jsonl.gz", &gz[..gz.len() / 2]);
        let bad = at_time("bad.jsonl.bz2", b"BZh9 and nothing");
        let before = snapshot_tree(&tmp).unwrap();
        let ev = Evidence::new().roots([&tmp]);

        // the file stands beside it, and reads as a file on disk by every method
        let (at, ended) = ev.open_compressed(&log).unwrap();
        assert_eq!((at.clone(), ended.is_none()), (dir.join("log.jsonl"), true));
        assert_eq!(ev.read(&at).unwrap(), text);
        let mut lines = ev.read_lines(&at).unwrap();
        let mut n = 0;
        while let Some(line) = lines.next_line() {
            assert_eq!(line.unwrap().bytes, format!("{{\"n\":{n}}}").as_bytes());
            n += 1;
        }
        drop(lines);
        assert_eq!(n, 20_000);
        assert_eq!(ev.open_ranged(&at).unwrap().len(), text.len() as u64);
        assert_eq!(ev.status(&at, false), Some(EntryKind::File));
        assert_eq!(
            ev.modified(&at).map(|t| t.to_string()).as_deref(),
            Some("2023-11-14T22:13:20.000000Z")
        );
        assert_eq!(ev.shown(&at), display_path(&log.join("log.jsonl")));
        assert!(!ev.is_open_archive(&at) && ev.is_archived(&at) && !ev.is_deleted_file(&at));
        // opened once
        assert_eq!(ev.open_compressed(&log).unwrap().0, at);
        // a listing shows it in the compressed file's place
        let names = |ev: &Evidence| -> Vec<String> {
            ev.read_dir(&dir)
                .unwrap()
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            names(&ev),
            [
                "bad.jsonl.bz2",
                "cut.jsonl.gz",
                "log.jsonl",
                "other.jsonl.XZ",
                "other.jsonl.gz",
                "plain.jsonl",
                "plain.jsonl.gz"
            ]
        );
        // the manifest: the compressed file as read, and the file it holds
        let sha = |b: &[u8]| hex::encode(Sha256::digest(b));
        let entries: Vec<(String, u64, String)> = ev
            .manifest()
            .into_iter()
            .map(|e| (e.path, e.size, e.sha256))
            .collect();
        assert_eq!(
            entries,
            [
                (display_path(&log), gz.len() as u64, sha(&gz)),
                (
                    display_path(&log.join("log.jsonl")),
                    text.len() as u64,
                    sha(&text)
                ),
            ]
        );

        // a file of its name beside it, or a second compression of it, is read instead
        let e = ev.open_compressed(&plain_gz).unwrap_err();
        assert_eq!(
            (e.kind(), e.to_string()),
            (
                io::ErrorKind::AlreadyExists,
                format!(
                    "the file it holds would stand at {}, where a file stands: that one is read",
                    display_path(&dir.join("plain.jsonl"))
                )
            )
        );
        let (other, _) = ev.open_compressed(&other_xz).unwrap();
        assert_eq!(ev.read(&other).unwrap(), b"xz\n");
        assert_eq!(
            ev.open_compressed(&other_gz).unwrap_err().to_string(),
            format!(
                "the file it holds would stand at {}, where the file that {} holds stands: that one is read",
                display_path(&other),
                display_path(&other_xz)
            )
        );

        // a stream cut short gives what was decoded to the cut, and says where
        let (part, ended) = ev.open_compressed(&cut).unwrap();
        let kept = ev.read(&part).unwrap();
        assert!(
            kept.len() > 50_000 && text.starts_with(&kept),
            "{}",
            kept.len()
        );
        assert_eq!(
            ended.map(|e| e.to_string()),
            Some(format!(
                "decompressed as gzip only to byte {}: incomplete deflate stream",
                kept.len()
            ))
        );
        // a stream that is no stream of its kind
        assert_eq!(
            ev.open_compressed(&bad).unwrap_err().to_string(),
            "not decompressed as bzip2: bzip2: invalid data"
        );
        // a stream that decodes past the cap (a gzip bomb) is refused, whole
        let capped = Evidence::new().roots([&tmp]).max_size(100_000);
        assert_eq!(
            capped.open_compressed(&log).unwrap_err().to_string(),
            "not read: it decompresses to more than the 100000-byte cap of one evidence file"
        );
        // a bomb under the cap but past the ratio: refused once its output passes 1,000
        // times its size and the 64 MiB floor (bzip2 streams of 1 MiB of zeros, one
        // after another: 69 MiB from a few kilobytes); one under the floor is read
        let member = {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
            w.write_all(&vec![0u8; 1 << 20]).unwrap();
            w.finish().unwrap()
        };
        let bomb = at_time("bomb.jsonl.bz2", &member.repeat(69));
        let own = member.len() * 69;
        assert_eq!(
            ev.open_compressed(&bomb).unwrap_err().to_string(),
            format!(
                "not read: it decompresses to more than 1000 times its own size ({own} bytes; past 67108864 bytes), a decompression bomb's shape; decompressed elsewhere, the copy reads as any file"
            )
        );
        let small = at_time("small.jsonl.bz2", &member.repeat(63));
        let (held, ended) = ev.open_compressed(&small).unwrap();
        assert!(ended.is_none());
        assert_eq!(ev.read(&held).unwrap().len(), 63 << 20);
        for f in [&bomb, &small] {
            std::fs::remove_file(f).unwrap();
        }
        // names of no single compressed file
        for name in ["plain.jsonl", "c.tar.gz", ".gz"] {
            assert_eq!(
                ev.open_compressed(&dir.join(name)).unwrap_err().kind(),
                io::ErrorKind::InvalidInput,
                "{name}"
            );
        }
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
    }

    #[test]
    fn a_compressed_name_says_its_compression_and_the_file_it_holds() {
        use crate::Compressed;
        let of = |n: &str| {
            Compressed::of_name(std::ffi::OsStr::new(n))
                .map(|(k, held)| (k, held.to_string_lossy().into_owned()))
        };
        assert_eq!(
            of("history.jsonl.gz"),
            Some((Compressed::Gzip, "history.jsonl".into()))
        );
        assert_eq!(
            of("state.vscdb.BZ2"),
            Some((Compressed::Bzip2, "state.vscdb".into()))
        );
        assert_eq!(of("a.xz"), Some((Compressed::Xz, "a".into())));
        assert_eq!(
            of("events.jsonl.zst"),
            Some((Compressed::Zstd, "events.jsonl".into()))
        );
        for name in [
            "x.tar.gz",
            "x.tgz",
            "x.tar.zst",
            ".gz",
            "x.zip",
            "x.gzip",
            "x.jsonl",
        ] {
            assert_eq!(of(name), None, "{name}");
        }
        // the display of the plain file, for a store naming the files beside it
        for (shown, plain) in [
            ("/e/h/history.jsonl.gz/history.jsonl", "/e/h/history.jsonl"),
            (r"C:\h\s.jsonl.XZ\s.jsonl", r"C:\h\s.jsonl"),
            ("s.jsonl.zst/s.jsonl", "s.jsonl"),
            ("/e/h/history.jsonl", "/e/h/history.jsonl"),
            ("/e/h.gz/h", "/e/h"),
            ("/e/a.gz/b", "/e/a.gz/b"),
            ("/e/a.tar/a", "/e/a.tar/a"),
            ("/e/.gz/", "/e/.gz/"),
            ("x", "x"),
            ("/e/é.jsonl.gz/é.jsonl", "/e/é.jsonl"),
            ("/e/€.GZ/€", "/e/€"),
            ("/a.gz/", "/a.gz/"),
            ("a.gz/a", "a"),
            (".gz/", ".gz/"),
            ("/", "/"),
            ("", ""),
        ] {
            assert_eq!(plain_display(shown), plain, "{shown}");
        }
    }

    #[test]
    fn an_archive_reads_as_a_folder_of_its_members() {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        let tmp = tempfile_dir("archive");
        let z = tmp.join("HOST1.zip");
        let stored =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        let deflated =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        let big: Vec<u8> = (0..100_000u32)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        zip_at(&z, |w| {
            let o = stored
                .with_extended_timestamp(Some(1_700_000_000), None, None)
                .unwrap();
            w.start_file("home/alice/a.txt", o).unwrap();
            w.write_all(b"hello").unwrap();
            w.start_file("home/alice/b.jsonl", deflated).unwrap();
            w.write_all(&big).unwrap();
            w.add_directory("home/bob/", stored).unwrap();
            w.start_file("../evil.txt", stored).unwrap();
            w.write_all(b"out").unwrap();
            w.start_file("home//alice/./a.txt", stored).unwrap();
            w.write_all(b"again").unwrap();
            w.start_file("home/carol", stored).unwrap();
            w.write_all(b"file").unwrap();
            w.start_file("home/carol/x.txt", stored).unwrap();
            w.write_all(b"x").unwrap();
            w.add_symlink("home/alice/link", "a.txt", stored).unwrap();
        });
        let before = snapshot_tree(&tmp).unwrap();
        let ev = Evidence::new().roots([&tmp]);
        let problems = ev.open_archive(&z).unwrap();
        let shown: Vec<(String, String)> = problems
            .iter()
            .map(|(p, why)| (display_path(p.strip_prefix(&tmp).unwrap()), why.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "HOST1.zip".to_string(),
                    "archive entry 3 not read: its name climbs out of the archive (`..`): \"../evil.txt\"".to_string()
                ),
                (
                    "HOST1.zip/home/alice/a.txt".to_string(),
                    "archive entry 4 not read: its name \"home//alice/./a.txt\" names the same path as entry 0, which is read".to_string()
                ),
                (
                    "HOST1.zip/home/carol".to_string(),
                    "archive entry 5 not read: a file of the archive whose name is also a folder's; the folder is read".to_string()
                ),
            ]
        );
        // opening it again opens it once
        assert!(ev.open_archive(&z).unwrap().is_empty());
        let at = |p: &str| z.join(p);
        assert_eq!(ev.read_dir(&z).unwrap(), [at("home")]);
        assert_eq!(
            ev.read_dir(&at("home")).unwrap(),
            [at("home/alice"), at("home/bob"), at("home/carol")]
        );
        let listing = ev.list(&at("home/alice"), false).unwrap();
        assert_eq!(
            listing.entries,
            [
                (at("home/alice/a.txt"), EntryKind::File),
                (at("home/alice/b.jsonl"), EntryKind::File),
                (at("home/alice/link"), EntryKind::Link),
            ]
        );
        assert!(ev.read_dir(&at("home/bob")).unwrap().is_empty());
        assert_eq!(ev.status(&at("home/carol"), true), Some(EntryKind::Folder));
        assert_eq!(
            ev.status(&at("home/carol/x.txt"), true),
            Some(EntryKind::File)
        );
        assert_eq!(ev.status(&at("home/nobody"), true), None);
        assert_eq!(
            ev.read_dir(&at("home/alice/a.txt"))
                .unwrap_err()
                .to_string(),
            "a member of the archive, not a folder"
        );
        assert_eq!(
            ev.read(&at("home/alice/link")).unwrap_err().to_string(),
            "not a regular file (a symbolic link); left unread"
        );
        assert_eq!(
            ev.read(&at("home/bob")).unwrap_err().to_string(),
            "not a regular file (a directory); left unread"
        );
        let missing = ev.read(&at("home/alice/c.txt")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(missing.to_string(), "not in the archive");
        assert_eq!(ev.read(&at("home/alice/a.txt")).unwrap(), b"hello");
        assert_eq!(ev.read(&at("home/alice/b.jsonl")).unwrap(), big);
        assert_eq!(
            ev.modified(&at("home/alice/a.txt")).map(|t| t.to_string()),
            Some("2023-11-14T22:13:20.000000Z".to_string())
        );
        // no UTC extra field: the DOS time's zone is unknown, so no time
        assert_eq!(ev.modified(&at("home/alice/b.jsonl")), None);
        let r = ev.open_ranged(&at("home/alice/a.txt")).unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(r.len(), 5);
        assert_eq!(r.read_at(1, &mut buf).unwrap(), 4);
        assert_eq!(&buf[..4], b"ello");
        assert_eq!(r.read_at(5, &mut buf).unwrap(), 0);
        let r = ev.open_ranged(&at("home/alice/b.jsonl")).unwrap();
        assert_eq!(r.len(), big.len() as u64);
        assert_eq!(r.read_at(10, &mut buf[..3]).unwrap(), 3);
        assert_eq!(&buf[..3], &big[10..13]);
        let manifest: Vec<(String, u64, String, String)> = ev
            .manifest()
            .into_iter()
            .map(|e| {
                (
                    e.path
                        .strip_prefix(&display_path(&tmp))
                        .unwrap()
                        .to_string(),
                    e.size,
                    e.mtime_utc,
                    e.sha256,
                )
            })
            .collect();
        let zip_bytes = std::fs::read(&z).unwrap();
        assert_eq!(
            manifest,
            [
                (
                    "/HOST1.zip".to_string(),
                    zip_bytes.len() as u64,
                    ev.modified(&z).unwrap().to_string(),
                    hex::encode(Sha256::digest(&zip_bytes)),
                ),
                (
                    "/HOST1.zip/home/alice/a.txt".to_string(),
                    5,
                    "2023-11-14T22:13:20.000000Z".to_string(),
                    "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824".to_string(),
                ),
                (
                    "/HOST1.zip/home/alice/b.jsonl".to_string(),
                    big.len() as u64,
                    String::new(),
                    hex::encode(Sha256::digest(&big)),
                ),
            ]
        );
        // the size cap holds for a member however it is read
        // (the zip itself is read by ranges, which no cap bounds)
        let small = Evidence::new().roots([&tmp]).max_size(1000);
        small.open_archive(&z).unwrap();
        for err in [
            small.read(&at("home/alice/b.jsonl")).unwrap_err(),
            small.open_ranged(&at("home/alice/b.jsonl")).unwrap_err(),
        ] {
            assert_eq!(
                err.to_string(),
                "588890 bytes, over the 1000-byte cap of one evidence file"
            );
        }
        // a large member inflates into an unnamed file of the spill folder, not beside
        let spill = tempfile_dir("archive-spill");
        let spilling = Evidence {
            spill_above: 1000,
            ..Evidence::new().roots([&tmp]).spill_dir(spill.as_path())
        };
        spilling.open_archive(&z).unwrap();
        let r = spilling.open_ranged(&at("home/alice/b.jsonl")).unwrap();
        let mut all = vec![0u8; big.len() + 1];
        assert_eq!(r.read_at(0, &mut all).unwrap(), big.len());
        assert_eq!(&all[..big.len()], &big[..]);
        assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
        std::fs::remove_dir_all(&spill).unwrap();
    }

    /// Encrypted zip members (AES-256 as 7-Zip writes them, ZipCrypto as `zip -P`
    /// does) read with the password given, whole and by ranges, stored or deflated; without it, or with a wrong one,
    /// each is an exact error and the plain members read; the password is in no error,
    /// manifest entry or `Debug`.
    #[test]
    fn encrypted_zip_members_read_with_the_archives_password() {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        let tmp = tempfile_dir("archive-password");
        let z = tmp.join("c.zip");
        let secret = "infected-3f9a";
        // the encryption headers are random: a wrong password passes ZipCrypto's one-byte
        // check once in 256 (see below), so the zip is written until "not it" fails it,
        // and the words asserted for it are always the same
        loop {
            zip_at(&z, |w| {
                let o = SimpleFileOptions::default();
                w.start_file("a.txt", o.with_aes_encryption(zip::AesMode::Aes256, secret))
                    .unwrap();
                w.write_all(b"hello aes").unwrap();
                let stored = o.compression_method(zip::CompressionMethod::Stored);
                let zipcrypto = zip::unstable::write::FileOptionsExt::with_deprecated_encryption(
                    stored,
                    secret.as_bytes(),
                )
                .unwrap();
                w.start_file("b.txt", zipcrypto).unwrap();
                w.write_all(b"hello zipcrypto").unwrap();
                w.start_file("c.txt", o).unwrap();
                w.write_all(b"hello plain").unwrap();
            });
            let mut a = zip::ZipArchive::new(std::fs::File::open(&z).unwrap()).unwrap();
            if (0..2).all(|i| {
                matches!(
                    a.by_index_decrypt(i, b"not it").map(|_| ()),
                    Err(zip::result::ZipError::InvalidPassword)
                )
            }) {
                break;
            }
        }
        let before = snapshot_tree(&tmp).unwrap();
        let read = |ev: &Evidence, name: &str| ev.read(&z.join(name)).map_err(|e| e.to_string());
        // no password
        let ev = Evidence::new().roots([&tmp]);
        ev.open_archive(&z).unwrap();
        let required =
            "archive member not read: unsupported Zip archive: Password required to decrypt file";
        assert_eq!(read(&ev, "a.txt"), Err(required.to_string()));
        assert_eq!(read(&ev, "b.txt"), Err(required.to_string()));
        assert_eq!(read(&ev, "c.txt"), Ok(b"hello plain".to_vec()));
        // the right one
        let ev = Evidence::new()
            .roots([&tmp])
            .archive_password(crate::ArchivePassword::new(secret));
        ev.open_archive(&z).unwrap();
        assert_eq!(read(&ev, "a.txt"), Ok(b"hello aes".to_vec()));
        assert_eq!(read(&ev, "b.txt"), Ok(b"hello zipcrypto".to_vec()));
        assert_eq!(read(&ev, "c.txt"), Ok(b"hello plain".to_vec()));
        let r = ev.open_ranged(&z.join("b.txt")).unwrap();
        let mut buf = [0u8; 9];
        assert_eq!(r.read_at(6, &mut buf).unwrap(), 9);
        assert_eq!(&buf, b"zipcrypto");
        let manifest = format!("{:?} {:?}", ev.manifest(), ev);
        assert!(manifest.contains("ArchivePassword(..)"));
        assert!(!manifest.contains(secret), "{manifest}");
        // the decrypted bytes' hash (`printf 'hello aes' | sha256sum`)
        assert_eq!(
            ev.manifest()[1].sha256,
            "b9df281d14922cb6bbdb6253e515c1c866bf4cdfc5d32b4d208fe882d0d375d5"
        );
        // several, the right one among them; none of them; an empty list (as none)
        let ev = Evidence::new()
            .roots([&tmp])
            .archive_password(crate::ArchivePassword::any_of([
                "not it", secret, "nor this",
            ]));
        ev.open_archive(&z).unwrap();
        assert_eq!(read(&ev, "a.txt"), Ok(b"hello aes".to_vec()));
        assert_eq!(read(&ev, "b.txt"), Ok(b"hello zipcrypto".to_vec()));
        let ev = Evidence::new()
            .roots([&tmp])
            .archive_password(crate::ArchivePassword::any_of::<&str>([]));
        ev.open_archive(&z).unwrap();
        assert_eq!(read(&ev, "b.txt"), Err(required.to_string()));
        // ZipCrypto checks a password by one byte: about one wrong password in 256
        // passes it and fails only at the CRC; the next password is tried then
        let passing = (0..100_000)
            .map(|i| format!("guess-{i}"))
            .find(|guess| {
                let ev = Evidence::new()
                    .roots([&tmp])
                    .archive_password(crate::ArchivePassword::new(guess));
                ev.open_archive(&z).unwrap();
                read(&ev, "b.txt")
                    .is_err_and(|e| e != "archive member not read: provided password is incorrect")
            })
            .unwrap();
        let ev = Evidence::new()
            .roots([&tmp])
            .archive_password(crate::ArchivePassword::any_of([passing.as_str(), secret]));
        ev.open_archive(&z).unwrap();
        assert_eq!(read(&ev, "b.txt"), Ok(b"hello zipcrypto".to_vec()));
        // a wrong one
        let ev = Evidence::new()
            .roots([&tmp])
            .archive_password(crate::ArchivePassword::new("not it"));
        ev.open_archive(&z).unwrap();
        assert_eq!(
            read(&ev, "a.txt"),
            Err("archive member not read: provided password is incorrect".to_string())
        );
        assert_eq!(
            read(&ev, "b.txt"),
            Err("archive member not read: provided password is incorrect".to_string())
        );
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A member whose bytes do not match the CRC of its header is an error, not rows;
    /// a file that is no zip cannot be opened as one.
    #[test]
    fn a_damaged_archive_is_an_error_that_says_so() {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        let tmp = tempfile_dir("archive-damaged");
        let z = tmp.join("c.zip");
        let stored =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        zip_at(&z, |w| {
            w.start_file("a.txt", stored).unwrap();
            w.write_all(b"hello world").unwrap();
        });
        let mut bytes = std::fs::read(&z).unwrap();
        let at = memchr::memmem::find(&bytes, b"hello world").unwrap();
        bytes[at] = b'j';
        std::fs::write(&z, &bytes).unwrap();
        let ev = Evidence::new().roots([&tmp]);
        ev.open_archive(&z).unwrap();
        assert_eq!(
            ev.read(&z.join("a.txt")).unwrap_err().to_string(),
            "archive member not read whole: Invalid checksum"
        );
        // a stored member is read in place by ranges: its CRC is checked when opened
        assert_eq!(
            ev.open_ranged(&z.join("a.txt")).unwrap_err().to_string(),
            "archive member not read whole: Invalid checksum"
        );
        // a method this reader does not inflate (PPMd, patched into both headers),
        // and a name too long for any path
        let other = tmp.join("other.zip");
        zip_at(&other, |w| {
            w.start_file("b.txt", stored).unwrap();
            w.write_all(b"ppmd?").unwrap();
            w.start_file("a/".repeat(2100), stored).unwrap();
            w.write_all(b"deep").unwrap();
        });
        let mut bytes = std::fs::read(&other).unwrap();
        let local = memchr::memmem::find(&bytes, b"PK\x03\x04").unwrap();
        bytes[local + 8] = 98;
        let central = memchr::memmem::find(&bytes, b"PK\x01\x02").unwrap();
        bytes[central + 10] = 98;
        std::fs::write(&other, &bytes).unwrap();
        let problems = ev.open_archive(&other).unwrap();
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].1,
            format!(
                "archive entry 1 not read: its path would be {} bytes, over the 4096 bytes of any path it could be extracted to",
                other.as_os_str().len() + 4200
            )
        );
        assert_eq!(
            ev.read(&other.join("b.txt")).unwrap_err().to_string(),
            "archive member not read whole: compression method not supported: 98"
        );
        // a stored member whose central directory declares another size than it
        // stores: read whole and by ranges alike (found by the fuzz target)
        let sized = tmp.join("sized.zip");
        zip_at(&sized, |w| {
            w.start_file("f.g", stored).unwrap();
            w.write_all(b"under").unwrap();
        });
        let mut bytes = std::fs::read(&sized).unwrap();
        let central = memchr::memmem::find(&bytes, b"PK\x01\x02").unwrap();
        bytes[central + 24] = 47;
        std::fs::write(&sized, &bytes).unwrap();
        ev.open_archive(&sized).unwrap();
        assert_eq!(ev.read(&sized.join("f.g")).unwrap(), b"under");
        let r = ev.open_ranged(&sized.join("f.g")).unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(r.read_at(0, &mut buf).unwrap(), 5);
        assert_eq!(&buf[..5], b"under");
        let not = tmp.join("not.zip");
        std::fs::write(&not, b"PK but no zip").unwrap();
        assert_eq!(
            ev.open_archive(&not).unwrap_err().to_string(),
            "not read as a zip archive: invalid Zip archive: Could not find EOCD"
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A zip of members whose bytes are given as they are compressed: each written
    /// stored, then its method, CRC-32 (of `plain`) and size patched into both headers.
    fn packed_zip(path: &Path, members: &[(&str, u16, &[u8], &[u8])]) {
        use std::io::Write;
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        zip_at(path, |w| {
            for (name, _, raw, _) in members {
                w.start_file(*name, stored).unwrap();
                w.write_all(raw).unwrap();
            }
        });
        let mut bytes = std::fs::read(path).unwrap();
        let put = |bytes: &mut Vec<u8>, at: usize, v: &[u8]| {
            bytes[at..at + v.len()].copy_from_slice(v);
        };
        let locals: Vec<usize> = memchr::memmem::find_iter(&bytes, b"PK\x03\x04").collect();
        let centrals: Vec<usize> = memchr::memmem::find_iter(&bytes, b"PK\x01\x02").collect();
        assert_eq!(
            (locals.len(), centrals.len()),
            (members.len(), members.len())
        );
        for (i, (_, method, _, plain)) in members.iter().enumerate() {
            let crc = crc32fast::hash(plain).to_le_bytes();
            let size = u32::try_from(plain.len()).unwrap().to_le_bytes();
            for (at, (m, c, z)) in [(locals[i], (8, 14, 22)), (centrals[i], (10, 16, 24))] {
                put(&mut bytes, at + m, &method.to_le_bytes());
                put(&mut bytes, at + c, &crc);
                put(&mut bytes, at + z, &size);
            }
        }
        std::fs::write(path, bytes).unwrap();
    }

    /// A zip member that decompresses past 64 MiB and 1,000 times its packed size is
    /// refused there, whole or a chunk at a time: read whole, a bomb of a few kilobytes
    /// would take its gigabytes of memory. One of the same ratio under 64 MiB is read.
    #[test]
    fn a_zip_member_packed_as_a_bomb_is_refused_past_the_ratio() {
        let tmp = tempfile_dir("archive-bomb");
        // zstd frames of 1 MiB of zeros, one after another
        let zeros = vec![0u8; 1 << 20];
        let frame = ruzstd::encoding::compress_to_vec(
            &zeros[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let (bomb, fine) = (frame.repeat(70), frame.repeat(63));
        // a stored member of 100 KB makes the zip large enough that the member's own
        // ratio, not the archive's, is what refuses it
        let pad = vec![b'x'; 100_000];
        let z = tmp.join("m.zip");
        packed_zip(
            &z,
            &[
                ("bomb.jsonl", 93, &bomb, &zeros.repeat(70)),
                ("fine.jsonl", 93, &fine, &zeros.repeat(63)),
                ("pad.bin", 0, &pad, &pad),
            ],
        );
        let ev = Evidence::new().roots([&tmp]);
        assert_eq!(ev.open_archive(&z).unwrap().len(), 0);
        let why = format!(
            "it decompresses to more than 1000 times its packed size ({} bytes; past 67108864 bytes), a decompression bomb's shape",
            bomb.len()
        );
        assert_eq!(
            ev.read(&z.join("bomb.jsonl")).unwrap_err().to_string(),
            format!("archive member not read: {why}")
        );
        let mut lines = ev.read_lines(&z.join("bomb.jsonl")).unwrap();
        let failed = loop {
            match lines.next_line() {
                Some(Ok(_)) => continue,
                None => break None,
                Some(Err(e)) => break Some(e.to_string()),
            }
        };
        assert_eq!(
            failed,
            Some(format!("archive member not read whole: {why}"))
        );
        assert_eq!(ev.read(&z.join("fine.jsonl")).unwrap().len(), 63 << 20);
    }

    /// A member of a compressed tar (or of any archive or image) larger than 64 MiB and
    /// 1,000 times the archive's own bytes is refused, whole or a chunk at a time: a
    /// tar.zst of a few kilobytes holding 70 MiB of zeros. The same tar plain is read,
    /// and so is a bomb under the floor.
    #[test]
    fn a_member_past_the_ratio_of_its_archive_is_refused() {
        let tmp = tempfile_dir("archive-tar-bomb");
        let tar_of = |len: usize| {
            let mut b = tar::Builder::new(Vec::new());
            let mut h = tar::Header::new_gnu();
            h.set_size(len as u64);
            h.set_mode(0o644);
            b.append_data(&mut h, "home/z.jsonl", std::io::repeat(0).take(len as u64))
                .unwrap();
            b.into_inner().unwrap()
        };
        // zstd frames of 1 MiB of the tar each (the zeros' frame made once)
        let zstd_frames = |bytes: &[u8]| {
            let zeros = ruzstd::encoding::compress_to_vec(
                &vec![0u8; 1 << 20][..],
                ruzstd::encoding::CompressionLevel::Fastest,
            );
            let mut out = Vec::new();
            for chunk in bytes.chunks(1 << 20) {
                if chunk.len() == 1 << 20 && chunk.iter().all(|&b| b == 0) {
                    out.extend_from_slice(&zeros);
                } else {
                    out.extend(ruzstd::encoding::compress_to_vec(
                        chunk,
                        ruzstd::encoding::CompressionLevel::Fastest,
                    ));
                }
            }
            out
        };
        let big = tar_of(70 << 20);
        let bomb = tmp.join("bomb.tar.zst");
        std::fs::write(&bomb, zstd_frames(&big)).unwrap();
        let plain = tmp.join("plain.tar");
        std::fs::write(&plain, &big).unwrap();
        let small = tmp.join("small.tar.zst");
        std::fs::write(&small, zstd_frames(&tar_of(63 << 20))).unwrap();
        let ev = Evidence::new().roots([&tmp]);
        for a in [&bomb, &plain, &small] {
            assert_eq!(ev.open_archive(a).unwrap().len(), 0);
        }
        let own = std::fs::metadata(&bomb).unwrap().len();
        let why = format!(
            "archive member not read: its 73400320 bytes are more than 1000 times the size of the archive that holds it ({own} bytes; past 67108864 bytes), a decompression bomb's shape"
        );
        let member = bomb.join("home/z.jsonl");
        assert_eq!(ev.read(&member).unwrap_err().to_string(), why);
        assert_eq!(
            ev.read_lines(&member).err().map(|e| e.to_string()),
            Some(why)
        );
        assert_eq!(
            ev.read(&plain.join("home/z.jsonl")).unwrap().len(),
            70 << 20
        );
        assert_eq!(
            ev.read(&small.join("home/z.jsonl")).unwrap().len(),
            63 << 20
        );
    }

    /// Zip members in the methods the `zip` crate is not asked to decode (bzip2, LZMA
    /// with and without its end marker, zstd under both its numbers, xz) read as their
    /// plain bytes, whole and by ranges;
    /// a CRC-32 that does not match, a stream cut short and an LZMA dictionary over the
    /// bound are errors that say so, and a method nothing here decodes (PPMd) is named.
    #[test]
    fn zip_members_in_other_methods_read_as_their_bytes() {
        use std::io::Write;
        let tmp = tempfile_dir("archive-methods");
        let plain: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("line {i} of the log\n").into_bytes())
            .collect();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&plain).unwrap();
        let bz = bz.finish().unwrap();
        // APPNOTE 5.8: version 2 bytes, property length 2 bytes, the properties, then
        // the raw stream (here with an end marker, as Python's zipfile writes it)
        let options = lzma_rust2::LzmaOptions::with_preset(1);
        let mut raw = lzma_rust2::LzmaWriter::new_no_header(Vec::new(), &options, true).unwrap();
        raw.write_all(&plain).unwrap();
        let props = raw.props();
        let mut lzma = vec![9, 20, 5, 0, props];
        lzma.extend_from_slice(&options.dict_size.to_le_bytes());
        lzma.extend_from_slice(&raw.finish().unwrap());
        // and without the end marker (7-Zip's default), its end told by the size
        let mut raw = lzma_rust2::LzmaWriter::new(
            Vec::new(),
            &options,
            false,
            false,
            Some(plain.len() as u64),
        )
        .unwrap();
        raw.write_all(&plain).unwrap();
        let mut lzma_sized = lzma[..9].to_vec();
        lzma_sized.extend_from_slice(&raw.finish().unwrap());
        let zst = ruzstd::encoding::compress_to_vec(
            &plain[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let mut xz =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
        xz.write_all(&plain).unwrap();
        let xz = xz.finish().unwrap();
        // an LZMA member asking for a 3 GiB dictionary (and as large a size)
        let mut huge = lzma.clone();
        huge[5..9].copy_from_slice(&(3u32 << 30).to_le_bytes());
        let z = tmp.join("m.zip");
        packed_zip(
            &z,
            &[
                ("a.txt", 12, &bz, &plain),
                ("b.txt", 14, &lzma, &plain),
                ("c.txt", 93, &zst, &plain),
                ("d.txt", 20, &zst, &plain),
                ("e.txt", 95, &xz, &plain),
                ("f.txt", 98, &bz, &plain),
                ("g.txt", 12, &bz, b"another text"),
                ("h.txt", 93, &zst[..zst.len() / 2], &plain),
                ("i.txt", 14, &huge, &plain),
                ("j.txt", 12, b"not bzip2 at all", &plain),
                ("k.txt", 14, &lzma_sized, &plain),
            ],
        );
        // ... and as large a size (3.75 GiB): a dictionary is never larger than the size
        let mut bytes = std::fs::read(&z).unwrap();
        let ninth = |sig: &[u8]| memchr::memmem::find_iter(&bytes, sig).nth(8).unwrap();
        let (local, central) = (ninth(b"PK\x03\x04"), ninth(b"PK\x01\x02"));
        let size = 0xF000_0000u32.to_le_bytes();
        bytes[local + 22..local + 26].copy_from_slice(&size);
        bytes[central + 24..central + 28].copy_from_slice(&size);
        std::fs::write(&z, bytes).unwrap();
        let before = snapshot_tree(&tmp).unwrap();
        let ev = Evidence::new().roots([&tmp]);
        assert_eq!(ev.open_archive(&z).unwrap().len(), 0);
        let read = |name: &str| ev.read(&z.join(name)).map_err(|e| e.to_string());
        for name in ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "k.txt"] {
            let bytes = read(name);
            assert!(
                bytes.as_deref() == Ok(&plain[..]),
                "{name}: {:?}",
                bytes.map(|b| b.len())
            );
            let r = ev.open_ranged(&z.join(name)).unwrap();
            let mut buf = [0u8; 19];
            assert_eq!(r.read_at(19 * 10 - 10, &mut buf).unwrap(), 19);
            assert_eq!(&buf, b"line 10 of the log\n", "{name}");
        }
        assert_eq!(
            read("f.txt").map(|b| b.len()),
            Err("archive member not read whole: compression method not supported: 98".to_string())
        );
        assert_eq!(
            read("g.txt").map(|b| b.len()),
            Err(format!(
                "archive member not read whole: its CRC-32 {:#010x} does not match its contents ({:#010x})",
                crc32fast::hash(b"another text"),
                crc32fast::hash(&plain)
            ))
        );
        assert_eq!(
            read("h.txt").map(|b| b.len()),
            Err("archive member not read whole: zstd: the stream is cut short (it ends inside a frame)".to_string())
        );
        assert_eq!(
            read("i.txt").map(|b| b.len()),
            Err("archive member not read: lzma: decoding it needs 3145750 KiB of memory, over the 262144 KiB this reader allows".to_string())
        );
        // an error that names its format already is not named twice
        assert_eq!(
            read("j.txt").map(|b| b.len()),
            Err("archive member not read whole: bzip2: bz2 header missing".to_string())
        );
        // what was read is in the manifest, hashed as read (the plain bytes)
        let sha = ev
            .manifest()
            .into_iter()
            .filter(|m| m.path.ends_with("a.txt") || m.path.ends_with("e.txt"))
            .map(|m| m.sha256)
            .collect::<Vec<_>>();
        assert_eq!(sha.len(), 2);
        assert_eq!(sha[0], sha[1]);
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A tar, and the same tar gzipped, are folders of their members as a zip is: read
    /// in place (the gzip inflated once), each member with its header's time, a long
    /// name whole, a link not followed, what cannot stand in a tree named, a damaged
    /// header ending the listing with a problem, and a gzip bomb stopped at the cap.
    #[test]
    fn a_tar_and_its_compressed_forms_read_as_folders() {
        let tmp = tempfile_dir("archive-tar");
        let long = format!("home/alice/{}/deep.jsonl", "n".repeat(150));
        let mut b = tar::Builder::new(Vec::new());
        let mut add = |name: &str, body: &[u8], kind: tar::EntryType| {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(kind);
            h.set_size(body.len() as u64);
            h.set_mtime(1_700_000_000);
            h.set_mode(0o644);
            if kind == tar::EntryType::Symlink {
                h.set_link_name("a.txt").unwrap();
            }
            b.append_data(&mut h, name, body).unwrap();
        };
        add("home/alice/a.txt", b"hello", tar::EntryType::Regular);
        add(&long, b"{}\n", tar::EntryType::Regular);
        add("home/alice/link", b"", tar::EntryType::Symlink);
        add("home/bob/", b"", tar::EntryType::Directory);
        add("home/alice/a.txt", b"again", tar::EntryType::Regular);
        let bytes = b.into_inner().unwrap();
        // `..` cannot be written by the builder: patched into a copy of the first header
        let mut evil = bytes[..1024].to_vec();
        evil[..16].copy_from_slice(b"../../etc/passwd");
        evil[16..100].fill(0);
        let sum: u32 = evil[..512]
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    u32::from(*b)
                }
            })
            .sum();
        evil[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        let mut all = evil;
        all.extend_from_slice(&bytes);
        let t = tmp.join("uac-web-01-linux-20261201120000.tar");
        std::fs::write(&t, &all).unwrap();
        let tgz = tmp.join("c.tar.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &all).unwrap();
        std::fs::write(&tgz, gz.finish().unwrap()).unwrap();
        // the same tar compressed as responders compress one: bzip2, xz, and zstd in
        // two frames with a skippable frame between them (as `pzstd` writes it)
        let tbz = tmp.join("c.tar.bz2");
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        std::io::Write::write_all(&mut bz, &all).unwrap();
        std::fs::write(&tbz, bz.finish().unwrap()).unwrap();
        let txz = tmp.join("c.TXZ");
        std::fs::write(&txz, xz_bytes(&all)).unwrap();
        let tzst = tmp.join("c.tar.zst");
        let half = all.len() / 2;
        let mut zst = zstd_bytes(&all[..half]);
        zst.extend_from_slice(b"\x50\x2a\x4d\x18\x03\x00\x00\x00abc");
        zst.extend(zstd_bytes(&all[half..]));
        std::fs::write(&tzst, zst).unwrap();
        let before = snapshot_tree(&tmp).unwrap();
        for archive in [&t, &tgz, &tbz, &txz, &tzst] {
            let ev = Evidence::new().roots([&tmp]);
            let problems: Vec<String> = ev
                .open_archive(archive)
                .unwrap()
                .into_iter()
                .map(|(p, why)| format!("{} {why}", display_path(p.strip_prefix(&tmp).unwrap())))
                .collect();
            let name = display_path(archive.strip_prefix(&tmp).unwrap());
            assert_eq!(
                problems,
                [
                    format!(
                        "{name} archive entry 0 not read: its name climbs out of the archive (`..`): \"../../etc/passwd\""
                    ),
                    format!(
                        "{name}/home/alice/a.txt archive entry 5 not read: its name \"home/alice/a.txt\" names the same path as entry 1, which is read"
                    ),
                ]
            );
            let at = |p: &str| archive.join(p);
            assert_eq!(ev.read(&at("home/alice/a.txt")).unwrap(), b"hello");
            assert_eq!(ev.read(&at(&long)).unwrap(), b"{}\n");
            assert_eq!(
                ev.modified(&at("home/alice/a.txt")).map(|t| t.to_string()),
                Some("2023-11-14T22:13:20.000000Z".to_string())
            );
            assert_eq!(
                ev.status(&at("home/alice/link"), true),
                Some(EntryKind::Link)
            );
            assert_eq!(ev.status(&at("home/bob"), true), Some(EntryKind::Folder));
            let r = ev.open_ranged(&at("home/alice/a.txt")).unwrap();
            let mut buf = [0u8; 8];
            assert_eq!(r.read_at(1, &mut buf).unwrap(), 4);
            assert_eq!(&buf[..4], b"ello");
            let m = ev.manifest();
            assert_eq!(m[0].path, display_path(archive));
            assert_eq!(
                m[1].sha256,
                "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
            );
        }
        // a damaged header after the first entries: those are read, the rest named
        let mut cut = all.clone();
        let third = 1024 + 1024 + 512 + 512;
        cut[third..third + 8].copy_from_slice(b"\xff\xff\xff\xff\xff\xff\xff\xff");
        let damaged = tmp.join("damaged.tar");
        std::fs::write(&damaged, &cut).unwrap();
        let ev = Evidence::new().roots([&tmp]);
        let problems = ev.open_archive(&damaged).unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[1]
                .1
                .starts_with("archive entries from entry 2 on not read: "),
            "{problems:?}"
        );
        assert_eq!(
            ev.read(&damaged.join("home/alice/a.txt")).unwrap(),
            b"hello"
        );
        // a gzip that inflates past the cap is refused, not inflated on
        let bomb = tmp.join("bomb.tgz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, &vec![0u8; 1 << 20]).unwrap();
        std::fs::write(&bomb, gz.finish().unwrap()).unwrap();
        let small = Evidence::new().roots([&tmp]).max_size(1000);
        assert_eq!(
            small.open_archive(&bomb).unwrap_err().to_string(),
            "not read: it inflates to more than the 1000-byte cap of one evidence file (1001 bytes and more)"
        );
        assert_eq!(
            small
                .open_archive(&tmp.join("x.arj"))
                .unwrap_err()
                .to_string(),
            "not an archive this reader opens (.zip, .tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tbz, .tar.xz, .txz, .tar.zst, .tzst, .7z, .rar, .vhdx, .vhd, .e01, .dd, .raw, .img, .001)"
        );
        // decoders never allocate what a hostile header asks for: an xz block whose
        // LZMA2 dictionary is 4 GiB, a zstd frame whose window is 2 TiB
        let mut huge = xz_bytes(b"hello");
        let header = 12;
        let size = (usize::from(huge[header]) + 1) * 4;
        let props = memchr::memmem::find(&huge[header..header + size], &[0x21, 0x01])
            .map(|i| header + i + 2)
            .unwrap();
        huge[props] = 40;
        let crc = crc32fast::hash(&huge[header..header + size - 4]);
        huge[header + size - 4..header + size].copy_from_slice(&crc.to_le_bytes());
        let hostile_xz = tmp.join("dict.tar.xz");
        std::fs::write(&hostile_xz, &huge).unwrap();
        assert_eq!(
            ev_of(&tmp)
                .open_archive(&hostile_xz)
                .unwrap_err()
                .to_string(),
            "not inflated whole: xz: needed memory too big for mem_limit_kb"
        );
        let hostile_zst = tmp.join("window.tzst");
        std::fs::write(&hostile_zst, b"\x28\xb5\x2f\xfd\x00\xf8").unwrap();
        assert_eq!(
            ev_of(&tmp)
                .open_archive(&hostile_zst)
                .unwrap_err()
                .to_string(),
            format!(
                "not inflated whole: zstd: Specified window_size is too big; Requested: 2199023255552, Max: {}",
                crate::ZSTD_MAX_WINDOW
            )
        );
        // a cut stream, and one whose checksum does not match its contents
        let cut_bz = tmp.join("cut.tar.bz2");
        let bytes = std::fs::read(&tbz).unwrap();
        std::fs::write(&cut_bz, &bytes[..bytes.len() / 2]).unwrap();
        assert!(
            ev_of(&tmp)
                .open_archive(&cut_bz)
                .unwrap_err()
                .to_string()
                .starts_with("not inflated whole: bzip2: "),
        );
        let cut_zst = tmp.join("cut.tar.zst");
        let bytes = std::fs::read(&tzst).unwrap();
        std::fs::write(&cut_zst, &bytes[..bytes.len() / 2]).unwrap();
        assert_eq!(
            ev_of(&tmp).open_archive(&cut_zst).unwrap_err().to_string(),
            "not inflated whole: zstd: the stream is cut short (it ends inside a frame)"
        );
        // a stream damaged after some of it decoded is read to the damage, and named:
        // here the second frame's checksum, so every byte decoded before it
        let bad_sum = tmp.join("sum.tar.zst");
        let mut bytes = std::fs::read(&tzst).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&bad_sum, &bytes).unwrap();
        let ev = ev_of(&tmp);
        let problems = ev.open_archive(&bad_sum).unwrap();
        let (at, why) = problems.last().unwrap();
        assert_eq!(at, &bad_sum);
        let want = format!(
            "archive read in part: inflated only to byte {} (zstd: a frame's content checksum 0x",
            all.len()
        );
        assert!(why.starts_with(&want), "{why}");
        assert!(why.ends_with("); what lies past it is not read"), "{why}");
        ev.open_archive(&tgz).unwrap();
        let names = |a: &Path| -> Vec<PathBuf> {
            ev.read_dir(a)
                .unwrap()
                .iter()
                .map(|p| p.strip_prefix(a).unwrap().to_path_buf())
                .collect()
        };
        assert_eq!(names(&bad_sum), names(&tgz));
        for f in [
            &damaged,
            &bomb,
            &hostile_xz,
            &hostile_zst,
            &cut_bz,
            &bad_sum,
            &cut_zst,
        ] {
            std::fs::remove_file(f).unwrap();
        }
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A 7z of `files` (name, bytes; a name ending in `/` a folder), solid (one
    /// LZMA2 block) or one block a file, AES-256-encrypted with `password` if given;
    /// its names too when asked (`7z -mhe`); every file modified at 2023-11-14T22:13:20Z.
    fn seven_z_bytes(
        files: &[(&str, &[u8])],
        solid: bool,
        password: Option<(&str, bool)>,
    ) -> Vec<u8> {
        use sevenz_rust2::{ArchiveEntry, ArchiveWriter, NtTime, SourceReader};
        let mut w = ArchiveWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
        if let Some((p, names_too)) = password {
            w.set_content_methods(vec![
                sevenz_rust2::encoder_options::AesEncoderOptions::new(p.into()).into(),
                sevenz_rust2::EncoderMethod::LZMA2.into(),
            ]);
            w.set_encrypt_header(names_too);
        }
        let entry = |name: &str| {
            let mut e = match name.strip_suffix('/') {
                Some(dir) => ArchiveEntry::new_directory(dir),
                None => ArchiveEntry::new_file(name),
            };
            e.has_last_modified_date = true;
            e.last_modified_date =
                NtTime::from(116_444_736_000_000_000 + 1_700_000_000 * 10_000_000);
            e
        };
        if solid {
            let (entries, readers): (Vec<_>, Vec<_>) = files
                .iter()
                .filter(|(n, _)| !n.ends_with('/'))
                .map(|(n, b)| (entry(n), SourceReader::from(*b)))
                .unzip();
            w.push_archive_entries(entries, readers).unwrap();
            for (n, _) in files.iter().filter(|(n, _)| n.ends_with('/')) {
                w.push_archive_entry::<&[u8]>(entry(n), None).unwrap();
            }
        } else {
            for (n, b) in files {
                let reader = (!n.ends_with('/')).then_some(*b);
                w.push_archive_entry(entry(n), reader).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    /// A 7z reads as a folder of its entries, solid or not, each decoded once (whole
    /// and by ranges, its time the entry's, in the manifest); an encrypted one with
    /// the password only; a damaged block names its entries and the others read.
    #[test]
    fn a_7z_reads_as_a_folder_of_its_entries() {
        let tmp = tempfile_dir("archive-7z");
        let files: &[(&str, &[u8])] = &[
            ("home/alice/a.txt", b"hello seven"),
            ("home/alice/.claude/history.jsonl", b"{}\n"),
            ("home/alice/empty.txt", b""),
            ("home/bob/", b""),
        ];
        let solid = tmp.join("c.7z");
        std::fs::write(&solid, seven_z_bytes(files, true, None)).unwrap();
        let apart = tmp.join("d.7Z");
        std::fs::write(&apart, seven_z_bytes(files, false, None)).unwrap();
        let before = snapshot_tree(&tmp).unwrap();
        for archive in [&solid, &apart] {
            let ev = ev_of(&tmp);
            assert_eq!(ev.open_archive(archive).unwrap(), []);
            let at = |p: &str| archive.join(p);
            assert_eq!(ev.read(&at("home/alice/a.txt")).unwrap(), b"hello seven");
            assert_eq!(ev.read(&at("home/alice/empty.txt")).unwrap(), b"");
            assert_eq!(
                ev.read(&at("home/alice/.claude/history.jsonl")).unwrap(),
                b"{}\n"
            );
            assert_eq!(ev.status(&at("home/bob"), true), Some(EntryKind::Folder));
            assert_eq!(
                ev.modified(&at("home/alice/a.txt")).map(|t| t.to_string()),
                Some("2023-11-14T22:13:20.000000Z".to_string())
            );
            let r = ev.open_ranged(&at("home/alice/a.txt")).unwrap();
            let mut buf = [0u8; 5];
            assert_eq!(r.read_at(6, &mut buf).unwrap(), 5);
            assert_eq!(&buf, b"seven");
            let m = ev.manifest();
            assert_eq!(m[0].path, display_path(archive));
            assert_eq!(m[0].size, std::fs::metadata(archive).unwrap().len());
        }
        // decoded into the spill folder: the same, and nothing left there
        let spill = tempfile_dir("archive-7z-spill");
        let ev = ev_of(&tmp).spill_dir(spill.as_path());
        ev.open_archive(&solid).unwrap();
        assert_eq!(
            ev.read(&solid.join("home/alice/a.txt")).unwrap(),
            b"hello seven"
        );
        assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
        std::fs::remove_dir_all(&spill).unwrap();
        // encrypted: read with the password; without it (or with a wrong one) the block
        // is named, and its entries are not there; with its names encrypted too (`7z
        // -mhe`), without the password nothing of it can be read
        let hidden = tmp.join("hidden.7z");
        std::fs::write(
            &hidden,
            seven_z_bytes(files, true, Some(("inf3cted", true))),
        )
        .unwrap();
        assert_eq!(
            ev_of(&tmp).open_archive(&hidden).unwrap_err().to_string(),
            "not read as a 7z archive: encrypted, and no password was given"
        );
        // one password, or several of which one is right (the header and the block
        // each tried with them in turn)
        for password in [
            crate::ArchivePassword::new("inf3cted"),
            crate::ArchivePassword::any_of(["wrong", "also wrong", "inf3cted"]),
        ] {
            let ev = ev_of(&tmp).archive_password(password);
            assert_eq!(ev.open_archive(&hidden).unwrap(), []);
            assert_eq!(
                ev.read(&hidden.join("home/alice/a.txt")).unwrap(),
                b"hello seven"
            );
        }
        assert_eq!(
            ev_of(&tmp)
                .archive_password(crate::ArchivePassword::any_of(["wrong", "also wrong"]))
                .open_archive(&hidden)
                .unwrap_err()
                .to_string()
                .split(':')
                .take(2)
                .collect::<Vec<_>>(),
            [
                "not read as a 7z archive",
                " encrypted, and not decoded with the password given"
            ]
        );
        let locked = tmp.join("locked.7z");
        std::fs::write(
            &locked,
            seven_z_bytes(files, true, Some(("inf3cted", false))),
        )
        .unwrap();
        // a block a file, each tried with the passwords in turn (the one that decoded
        // the block before first)
        let blocks = tmp.join("blocks.7z");
        std::fs::write(
            &blocks,
            seven_z_bytes(files, false, Some(("inf3cted", false))),
        )
        .unwrap();
        // (decoded in memory and into a spill file: what a wrong password decoded is
        // cut off, and the entries after it stand where they are)
        let spill = tempfile_dir("archive-7z-passwords");
        for password in [
            crate::ArchivePassword::new("inf3cted"),
            crate::ArchivePassword::any_of(["wrong", "inf3cted"]),
            crate::ArchivePassword::any_of(["wrong", "also wrong", "inf3cted", "wrong"]),
        ] {
            for ev in [ev_of(&tmp), ev_of(&tmp).spill_dir(spill.as_path())] {
                let ev = ev.archive_password(password.clone());
                for archive in [&locked, &blocks] {
                    assert_eq!(ev.open_archive(archive).unwrap(), []);
                    for (name, body) in files.iter().filter(|f| !f.0.ends_with('/')) {
                        assert_eq!(&ev.read(&archive.join(name)).unwrap(), body, "{name}");
                    }
                }
            }
        }
        assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
        std::fs::remove_dir_all(&spill).unwrap();
        std::fs::remove_file(&blocks).unwrap();
        for ev in [
            ev_of(&tmp),
            ev_of(&tmp).archive_password(crate::ArchivePassword::new("wrong")),
            ev_of(&tmp).archive_password(crate::ArchivePassword::any_of(["wrong", "nope"])),
        ] {
            let problems = ev.open_archive(&locked).unwrap();
            assert_eq!(problems.len(), 4, "{problems:?}");
            assert_eq!(problems[0].0, locked);
            assert!(
                problems[0].1.starts_with(
                    "archive entries not read: block 0 of the 7z could not be decoded ("
                ),
                "{problems:?}"
            );
            // (the solid block holds the empty file's stream too)
            assert!(
                problems[0].1.ends_with("); 3 of its entries not read"),
                "{problems:?}"
            );
            // and each of the three by its name
            let named: Vec<&str> = problems[1..]
                .iter()
                .filter_map(|(_, p)| {
                    p.split_once(" not read: its block could not be decoded (block 0 of the 7z): ")
                })
                .map(|(_, name)| name)
                .collect();
            assert_eq!(
                named,
                [
                    "\"home/alice/a.txt\"",
                    "\"home/alice/.claude/history.jsonl\"",
                    "\"home/alice/empty.txt\""
                ]
            );
            assert!(ev.read(&locked.join("home/alice/a.txt")).is_err());
            assert!(ev.read(&locked.join("home/alice/empty.txt")).is_err());
        }
        // a damaged block (a byte of a.txt changed where LZMA2 stored it as it is): its
        // entries named, together and each, the other blocks read
        let mut bytes = seven_z_bytes(files, false, None);
        let at = memchr::memmem::find(&bytes, b"hello seven").unwrap();
        bytes[at] = b'j';
        let damaged = tmp.join("damaged.7z");
        std::fs::write(&damaged, &bytes).unwrap();
        let ev = ev_of(&tmp);
        let problems = ev.open_archive(&damaged).unwrap();
        assert_eq!(
            problems,
            [(
                damaged.clone(),
                "archive entries not read: block 0 of the 7z could not be decoded (a CRC-32 does not match its contents); 1 of its entries not read".to_string()
            ), (
                damaged.clone(),
                "archive entry 0 not read: its block could not be decoded (block 0 of the 7z): \"home/alice/a.txt\"".to_string()
            )]
        );
        assert!(ev.read(&damaged.join("home/alice/a.txt")).is_err());
        assert_eq!(
            ev.read(&damaged.join("home/alice/.claude/history.jsonl"))
                .unwrap(),
            b"{}\n"
        );
        // over the cap; no 7z at all
        let small = ev_of(&tmp).max_size(5);
        assert_eq!(
            small.open_archive(&solid).unwrap_err().to_string(),
            "not read: it decodes to more than the 5-byte cap of one evidence file (6 bytes and more)"
        );
        let not = tmp.join("not.7z");
        std::fs::write(&not, b"7z? no").unwrap();
        assert!(
            ev_of(&tmp)
                .open_archive(&not)
                .unwrap_err()
                .to_string()
                .starts_with("not read as a 7z archive: "),
        );
        for f in [&hidden, &locked, &damaged, &not] {
            std::fs::remove_file(f).unwrap();
        }
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// `bytes` as an xz stream (preset 1, a CRC64 check).
    fn xz_bytes(bytes: &[u8]) -> Vec<u8> {
        let mut w =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
        std::io::Write::write_all(&mut w, bytes).unwrap();
        w.finish().unwrap()
    }

    /// `bytes` as one zstd frame, with its content checksum.
    fn zstd_bytes(bytes: &[u8]) -> Vec<u8> {
        ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
    }

    /// A file read by lines is recorded as a whole read records it, once it has been
    /// read to its end (the same size and SHA-256), and only then; a reader dropped
    /// early records the bytes it read; the cap and the rules apply at the open; a file
    /// that grew past the cap fails where it passes it; files in memory read by lines.
    #[test]
    fn a_file_read_by_lines_is_recorded_as_a_whole_read_records_it() {
        fn collect(mut lines: crate::lines::LineReader<'_>) -> (Vec<String>, Option<String>) {
            let mut got = Vec::new();
            while let Some(l) = lines.next_line() {
                match l {
                    Ok(l) => got.push(String::from_utf8_lossy(l.bytes).into_owned()),
                    Err(e) => return (got, Some(e.to_string())),
                }
            }
            (got, None)
        }
        let tmp = tempfile_dir("read-lines");
        let f = tmp.join("history.jsonl");
        std::fs::write(&f, b"\xEF\xBB\xBF{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":").unwrap();
        let whole = ev_of(&tmp);
        whole.read(&f).unwrap();
        let ev = ev_of(&tmp);
        let mut lines = ev.read_lines(&f).unwrap();
        assert!(lines.next_line().unwrap().is_ok());
        assert_eq!(ev.manifest(), [], "recorded before its end");
        drop(lines);
        assert_eq!(ev.manifest(), whole.manifest(), "a read that ended");
        let ev = ev_of(&tmp);
        assert_eq!(
            collect(ev.read_lines(&f).unwrap()),
            (
                vec!["{\"a\":1}".into(), "{\"b\":2}".into(), "{\"c\":".into()],
                None
            )
        );
        assert_eq!(ev.manifest(), whole.manifest());
        assert_eq!(ev.manifest()[0].size, 26);

        // dropped after a line of a file of several chunks: the bytes read, hashed
        let big = tmp.join("big.jsonl");
        let bytes = b"{\"n\":1}\n".repeat(1 << 18);
        std::fs::write(&big, &bytes).unwrap();
        let ev = ev_of(&tmp);
        let mut lines = ev.read_lines(&big).unwrap();
        assert_eq!(lines.next_line().unwrap().unwrap().bytes, b"{\"n\":1}");
        assert_eq!(lines.bytes_read(), 4096);
        drop(lines);
        let m = ev.manifest();
        assert_eq!(
            (m[0].size, m[0].sha256.clone()),
            (4096, hex::encode(Sha256::digest(&bytes[..4096])))
        );
        let ev = ev_of(&tmp);
        let (got, err) = collect(ev.read_lines(&big).unwrap());
        assert_eq!((got.len(), err), (1 << 18, None));
        assert_eq!(ev.manifest()[0].sha256, hex::encode(Sha256::digest(&bytes)));

        // the rules and the cap, at the open
        assert_eq!(
            ev_of(&tmp)
                .max_size(25)
                .read_lines(&f)
                .unwrap_err()
                .to_string(),
            "26 bytes, over the 25-byte cap of one evidence file"
        );
        assert_eq!(
            ev_of(&tmp).read_lines(&tmp).unwrap_err().to_string(),
            "not a regular file (a directory); left unread"
        );
        // a file that grows past the cap once opened fails there, nothing read past it
        let ev = ev_of(&tmp).max_size(26);
        let lines = ev.read_lines(&f).unwrap();
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(&f).unwrap(),
            b"1}\n",
        )
        .unwrap();
        assert_eq!(
            collect(lines),
            (
                vec![],
                Some("27 bytes, over the 26-byte cap of one evidence file".into())
            )
        );
        assert_eq!(ev.manifest()[0].size, 0);

        // held in memory
        let at = PathBuf::from("/case/home/alice/.claude/history.jsonl");
        let ev = Evidence::in_memory([(at.clone(), b"x\n\ny".to_vec(), None)]);
        assert_eq!(
            collect(ev.read_lines(&at).unwrap()),
            (vec!["x".into(), "y".into()], None)
        );
        assert_eq!(ev.manifest()[0].size, 4);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A log in an archive is read by lines a chunk at a time, as one in a folder is:
    /// a deflated, a bzip2 and a stored zip member and a tar member give their lines
    /// with only the first chunk read for the first line, and the manifest entry a
    /// whole read gives; a deflated member whose CRC-32 fails gives its lines, then the
    /// error; an encrypted member is held (read whole).
    #[test]
    fn an_archive_member_is_read_by_lines_a_chunk_at_a_time() {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        fn collect(mut lines: crate::lines::LineReader<'_>) -> (usize, Option<String>) {
            let mut n = 0;
            while let Some(l) = lines.next_line() {
                match l {
                    Ok(_) => n += 1,
                    Err(e) => return (n, Some(e.to_string())),
                }
            }
            (n, None)
        }
        let tmp = tempfile_dir("archive-lines");
        // 1.75 MiB of lines: many chunks, and deflated to much less
        let log: Vec<u8> = (0..(1u32 << 17))
            .flat_map(|i| format!("{{\"n\":{:07}}}\n", i % 10_000_000).into_bytes())
            .collect();
        let lines = 1usize << 17;
        let deflate = |plain: &[u8]| {
            let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            d.write_all(plain).unwrap();
            d.finish().unwrap()
        };
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&log).unwrap();
        let bz = bz.finish().unwrap();
        let mut turned = log.clone();
        turned[log.len() / 2] = b'7';
        let z = tmp.join("c.zip");
        packed_zip(
            &z,
            &[
                ("deflated.jsonl", 8, &deflate(&log), &log),
                ("bzip2.jsonl", 12, &bz, &log),
                ("stored.jsonl", 0, &log, &log),
                // its directory's CRC-32 is the log's; its bytes have one digit turned
                ("turned.jsonl", 8, &deflate(&turned), &log),
            ],
        );
        let e = tmp.join("e.zip");
        zip_at(&e, |w| {
            let o = SimpleFileOptions::default();
            w.start_file("a.jsonl", o.with_aes_encryption(zip::AesMode::Aes256, "pw"))
                .unwrap();
            w.write_all(b"{}\n").unwrap();
        });
        let t = tmp.join("t.tar");
        let mut b = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(log.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, "home/a.jsonl", &log[..]).unwrap();
        std::fs::write(&t, b.into_inner().unwrap()).unwrap();
        let before = snapshot_tree(&tmp).unwrap();

        let sha = hex::encode(Sha256::digest(&log));
        for at in [
            z.join("deflated.jsonl"),
            z.join("bzip2.jsonl"),
            z.join("stored.jsonl"),
            t.join("home/a.jsonl"),
        ] {
            let ev = ev_of(&tmp).archive_password(crate::ArchivePassword::new("pw"));
            ev.open_archive(&z).unwrap();
            ev.open_archive(&t).unwrap();
            assert!(!ev.is_held(&at), "{}", at.display());
            let mut reader = ev.read_lines(&at).unwrap();
            assert_eq!(
                reader.next_line().unwrap().unwrap().bytes,
                b"{\"n\":0000000}",
                "{}",
                at.display()
            );
            assert_eq!(reader.bytes_read(), 4096, "{}", at.display());
            assert_eq!(collect(reader), (lines - 1, None), "{}", at.display());
            let entry = |ev: &Evidence| ev.manifest().into_iter().find(|m| m.path == at);
            let m = entry(&ev).unwrap();
            assert_eq!(
                (m.size, m.sha256.as_str()),
                (log.len() as u64, sha.as_str()),
                "{}",
                at.display()
            );
            // the entry a whole read gives
            let whole = ev_of(&tmp);
            whole.open_archive(&z).unwrap();
            whole.open_archive(&t).unwrap();
            assert_eq!(whole.read(&at).unwrap(), log);
            assert_eq!(entry(&whole), Some(m), "{}", at.display());
        }

        // one digit turned: every line, then the CRC-32's words; the bytes read are
        // the ones hashed
        let ev = ev_of(&tmp);
        ev.open_archive(&z).unwrap();
        let at = z.join("turned.jsonl");
        assert_eq!(
            collect(ev.read_lines(&at).unwrap()),
            (
                lines,
                Some(format!(
                    "archive member not read whole: its CRC-32 {:#010x} does not match its contents ({:#010x})",
                    crc32fast::hash(&log),
                    crc32fast::hash(&turned)
                ))
            )
        );
        assert_eq!(
            ev.manifest()
                .into_iter()
                .find(|m| m.path == at)
                .map(|m| m.sha256),
            Some(hex::encode(Sha256::digest(&turned)))
        );
        // a whole read gives no bytes of it (the zip crate's words)
        assert_eq!(
            ev.read(&at).unwrap_err().to_string(),
            "archive member not read whole: Invalid checksum"
        );

        // an encrypted member is read whole, with the password
        let ev = ev_of(&tmp).archive_password(crate::ArchivePassword::new("pw"));
        ev.open_archive(&e).unwrap();
        let at = e.join("a.jsonl");
        assert!(ev.is_held(&at));
        assert_eq!(collect(ev.read_lines(&at).unwrap()), (1, None));
        assert_eq!(snapshot_tree(&tmp).unwrap(), before);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// The `compressed/` fixture image is what it says: of the 19 files of its
    /// `Users` folder, those too large for their record are NTFS-compressed, and read
    /// (whole, by ranges and by lines) as the files of the tree they were copied from.
    #[test]
    fn an_ntfs_compressed_file_reads_as_its_bytes() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let image = repo.join("fixtures/disks/compressed/WIN-DESK03.E01");
        let host = repo.join("fixtures/evidence/WIN-DESK03/C");
        let ev = Evidence::new().roots([&image]);
        assert_eq!(
            ev.open_archive(&image).unwrap().len(),
            1,
            "the EFI partition"
        );
        let mut compressed = 0;
        let mut files = 0;
        let mut pending = vec![image.clone()];
        while let Some(dir) = pending.pop() {
            for (p, kind) in ev.list(&dir, false).unwrap().entries {
                if kind == EntryKind::Folder {
                    pending.push(p);
                    continue;
                }
                files += 1;
                let a = ev.archive_of(&p).unwrap();
                let Lookup::File(m) = a.lookup(&p) else {
                    panic!("{}", p.display())
                };
                let want = std::fs::read(host.join(p.strip_prefix(&image).unwrap())).unwrap();
                if a.ntfs_compressed(m) == Some(true) {
                    compressed += 1;
                    assert!(ev.open_ranged(&p).unwrap().is_compressed());
                    assert!(!ev.is_held(&p));
                }
                assert!(ev.read(&p).unwrap() == want, "{}", p.display());
                let mut lines = ev.read_lines(&p).unwrap();
                let mut got = Vec::new();
                while let Some(l) = lines.next_line() {
                    got.push(l.unwrap().bytes.to_vec());
                }
                let whole: Vec<Vec<u8>> = crate::lines::lines(&want)
                    .map(|l| l.bytes.to_vec())
                    .collect();
                assert!(got == whole, "{}", p.display());
            }
        }
        assert_eq!((files, compressed), (19, 10));
    }

    /// The `fragmented/` fixture image is what it says: its history's attributes are
    /// spread over an attribute list (the `ntfs` crate's own view of its data stream
    /// starts at its second attribute and reads as empty), and it is read from all of
    /// them, in cluster order, to its 363,000 bytes.
    #[test]
    fn a_file_spread_over_an_attribute_list_is_read_from_all_its_attributes() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let image = repo.join("fixtures/disks/fragmented/WS-FRAG01.E01");
        let history = image.join("Users/erin/.claude/history.jsonl");
        let ev = Evidence::new().roots([&image]);
        assert_eq!(ev.open_archive(&image).unwrap(), []);
        let a = ev.archive_of(&history).unwrap();
        let Lookup::File(m) = a.lookup(&history) else {
            panic!("no history")
        };
        assert_eq!(a.ntfs_attribute_list(m), Some(true));
        assert_eq!(m.size, 363_000);
        let bytes = ev.read(&history).unwrap();
        assert_eq!(bytes.len(), 363_000);
        assert!(bytes.starts_with(b"{\"display\":\"fragmented prompt 0000\""));
        assert!(bytes.ends_with(b"fragmented prompt 2999\",\"pastedContents\":{},\"timestamp\":1796042999000,\"project\":\"C:\\\\Users\\\\erin\\\\src\\\\app\"}\n"));
        // the files that hold no list are the others
        assert_eq!(
            a.ntfs_attribute_list(match a.lookup(&image.join("filler/h0000")) {
                Lookup::File(m) => m,
                _ => panic!("no filler"),
            }),
            Some(false)
        );
    }

    /// A second pass reads no further than the first did: the lines before the end it
    /// is given, a line cut there as the first pass saw it, and the first read's
    /// manifest entry left as it was; a file in memory is held, one on
    /// disk is not.
    #[test]
    fn a_file_read_to_an_end_gives_the_lines_before_it() {
        let tmp = tempfile_dir("read-lines-to");
        let f = tmp.join("session.jsonl");
        std::fs::write(&f, b"{\"a\":1}\n{\"b\":").unwrap();
        let ev = ev_of(&tmp);
        assert!(!ev.is_held(&f));
        let mut first = ev.read_lines(&f).unwrap();
        while first.next_line().is_some() {}
        let end = first.bytes_read();
        drop(first);
        assert_eq!(end, 13);
        let before = ev.manifest();
        // the writer finishes the line and writes another
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(&f).unwrap(),
            b"2}\n{\"c\":3}\n",
        )
        .unwrap();
        let mut again = ev.read_lines_to(&f, end).unwrap();
        let mut got = Vec::new();
        while let Some(Ok(l)) = again.next_line() {
            got.push((
                String::from_utf8_lossy(l.bytes).into_owned(),
                l.last,
                l.terminated,
            ));
        }
        drop(again);
        assert_eq!(
            got,
            [
                ("{\"a\":1}".to_string(), false, true),
                ("{\"b\":".to_string(), true, false)
            ]
        );
        // not recorded again: the first read's entry, of the same 13 bytes
        assert_eq!(ev.manifest(), before);
        assert_eq!(
            before[0].sha256,
            hex::encode(Sha256::digest(b"{\"a\":1}\n{\"b\":"))
        );

        // the cap bounds the bytes read: grown past it after the end, it is read
        let capped = ev_of(&tmp).max_size(13);
        let mut lines = capped.read_lines_to(&f, end).unwrap();
        assert_eq!(lines.next_line().unwrap().unwrap().bytes, b"{\"a\":1}");
        assert_eq!(
            capped.read_lines(&f).unwrap_err().to_string(),
            "24 bytes, over the 13-byte cap of one evidence file"
        );

        let at = PathBuf::from("/case/home/alice/.claude/projects/p/s.jsonl");
        let ev = Evidence::in_memory([(at.clone(), b"x\ny\n".to_vec(), None)]);
        assert!(ev.is_held(&at));
        let mut lines = ev.read_lines_to(&at, 2).unwrap();
        assert_eq!(lines.next_line().unwrap().unwrap().bytes, b"x");
        assert!(lines.next_line().is_none());
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// A reader of the evidence under `root`.
    fn ev_of(root: &Path) -> Evidence {
        Evidence::new().roots([root])
    }

    /// Files held in memory read as files on disk do, and nothing else is there: a
    /// path not given is missing, a folder is any path above a given one, and each
    /// file read has its manifest entry.
    #[test]
    fn files_in_memory_read_as_on_disk_and_nothing_else_is_there() {
        let at = |p: &str| PathBuf::from(format!("/case/home/alice/{p}"));
        let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_790_000_000);
        let ev = Evidence::in_memory([
            (at("s/state.vscdb"), b"main bytes".to_vec(), Some(when)),
            (at("s/state.vscdb-wal"), b"wal".to_vec(), None),
            (at("s/deep/x.json"), b"{}".to_vec(), None),
        ])
        .max_size(9);
        assert_eq!(ev.read(&at("s/state.vscdb-wal")).unwrap(), b"wal");
        assert_eq!(
            ev.read(&at("s/state.vscdb")).unwrap_err().to_string(),
            "10 bytes, over the 9-byte cap of one evidence file"
        );
        let ranged = ev.open_ranged(&at("s/state.vscdb")).unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(ranged.read_at(5, &mut buf).unwrap(), 5);
        assert_eq!(&buf[..5], b"bytes");
        assert_eq!(ranged.read_at(40, &mut buf).unwrap(), 0);
        assert_eq!(ranged.len(), 10);
        assert_eq!(
            ev.read(&at("s/missing.json")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            ev.read(&at("s/deep")).unwrap_err().to_string(),
            "not a regular file (a directory); left unread"
        );
        assert_eq!(
            ev.read_dir(&at("s")).unwrap(),
            [at("s/deep"), at("s/state.vscdb"), at("s/state.vscdb-wal")]
        );
        assert_eq!(
            ev.read_dir(&at("t")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(ev.status(&at("s/deep"), false), Some(EntryKind::Folder));
        assert_eq!(ev.status(&at("s/deep/x.json"), true), Some(EntryKind::File));
        assert_eq!(ev.status(&at("s/dee"), true), None);
        assert_eq!(
            ev.modified(&at("s/state.vscdb")),
            Timestamp::from_system_time(when)
        );
        assert_eq!(ev.modified(&at("s/state.vscdb-wal")), None);
        let m = ev.manifest();
        assert_eq!(
            m.iter()
                .map(|e| (e.path.as_str(), e.size))
                .collect::<Vec<_>>(),
            [
                ("/case/home/alice/s/state.vscdb", 10),
                ("/case/home/alice/s/state.vscdb-wal", 3)
            ]
        );
        assert_eq!(m[0].mtime_utc, "2026-09-21T14:13:20.000000Z");
        assert_eq!(
            m[1].sha256,
            "27a75a1c9d8f31b0bc4ca4889e25fe6413f00d78d8578a36e4cce1c38c452e45"
        );
        assert!(m.iter().all(|e| e.access_time_kept));
    }

    /// A file opened by ranges twice through one reader (two stores reading one
    /// database) is streamed for its hash once; a file changed since, even to the same
    /// size with its modification time put back, is streamed again and gets its new
    /// hash; so does a file of another path.
    #[test]
    fn a_file_opened_by_ranges_twice_is_hashed_once_unless_it_changed() {
        use std::sync::atomic::Ordering;
        let dir = std::env::temp_dir().join(format!("chat-rows-streamed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (f, g) = (dir.join("state.vscdb"), dir.join("other.vscdb"));
        std::fs::write(&f, b"abc").unwrap();
        std::fs::write(&g, b"abc").unwrap();
        let ev = Evidence::new();
        let sha = |ev: &Evidence, p: &Path| {
            let m = ev.manifest();
            m.iter()
                .find(|e| e.path == display_path(p))
                .map(|e| e.sha256.clone())
                .unwrap()
        };
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        ev.open_ranged(&f).unwrap();
        ev.open_ranged(&f).unwrap();
        assert_eq!(ev.streams.load(Ordering::Relaxed), 1);
        assert_eq!(sha(&ev, &f), abc);
        ev.open_ranged(&g).unwrap();
        assert_eq!(ev.streams.load(Ordering::Relaxed), 2);
        // the same size, the modification time put back: the status-change time (Unix)
        // tells it changed
        let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&f, b"abd").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().modified().unwrap(), mtime);
        let r = ev.open_ranged(&f).unwrap();
        let mut b = [0u8; 3];
        r.read_at(0, &mut b).unwrap();
        assert_eq!(&b, b"abd");
        #[cfg(unix)]
        {
            assert_eq!(ev.streams.load(Ordering::Relaxed), 3);
            assert_eq!(
                sha(&ev, &f),
                "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9"
            );
        }
        // hashing off: nothing streamed
        let quiet = Evidence::new().hashing(false);
        quiet.open_ranged(&f).unwrap();
        assert_eq!(quiet.streams.load(Ordering::Relaxed), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn snapshots_see_new_files_and_changed_bytes() {
        let dir = std::env::temp_dir().join(format!("chat-rows-snapshot-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.db"), b"abc").unwrap();
        let before = snapshot_tree(&dir).unwrap();
        assert_eq!(before.len(), 2);
        Evidence::new().read(&dir.join("sub/a.db")).unwrap();
        assert_eq!(snapshot_tree(&dir).unwrap(), before);
        std::fs::write(dir.join("sub/a.db-shm"), b"").unwrap();
        assert_ne!(snapshot_tree(&dir).unwrap(), before);
        std::fs::remove_file(dir.join("sub/a.db-shm")).unwrap();
        std::fs::write(dir.join("sub/a.db"), b"abd").unwrap();
        assert_ne!(snapshot_tree(&dir).unwrap(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn refuses_what_is_not_a_regular_file_inside_the_root() {
        use std::os::unix::fs::symlink;
        let d = tempfile_dir("refusals");
        let root = d.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(d.join("outside.txt"), b"secret").unwrap();
        std::fs::write(root.join("sub/real.db"), b"inside").unwrap();
        symlink(d.join("outside.txt"), root.join("out-link")).unwrap();
        symlink(root.join("sub/real.db"), root.join("in-link")).unwrap();
        symlink("/dev/zero", root.join("zero-link")).unwrap();
        symlink(&d, root.join("up")).unwrap();
        assert!(
            std::process::Command::new("mkfifo")
                .arg(root.join("fifo"))
                .status()
                .unwrap()
                .success()
        );
        let ev = Evidence::new().roots([&root]).max_size(4);
        let err = |p: &str| ev.read(&root.join(p)).unwrap_err().to_string();
        assert_eq!(
            err("out-link"),
            format!(
                "a symbolic link to {}, outside the evidence root; not followed",
                std::fs::canonicalize(d.join("outside.txt"))
                    .unwrap()
                    .display()
            )
        );
        assert_eq!(
            err("zero-link"),
            "a symbolic link to /dev/zero, outside the evidence root; not followed"
        );
        assert_eq!(err("fifo"), "not a regular file (a FIFO); left unread");
        assert_eq!(err("sub"), "not a regular file (a directory); left unread");
        assert!(err("up/outside.txt").starts_with("resolves to "));
        assert_eq!(
            err("in-link"),
            "6 bytes, over the 4-byte cap of one evidence file"
        );
        assert_eq!(
            refusal(&ev.read(&root.join("fifo")).unwrap_err()).map(|r| r.to_string()),
            Some("not a regular file (a FIFO); left unread".to_string())
        );
        let ev = Evidence::new().roots([&root]).hashing(false);
        assert_eq!(ev.read(&root.join("in-link")).unwrap(), b"inside");
        let m = ev.manifest();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].path, root.join("in-link").display().to_string());
        assert_eq!(
            m[0].link_target.as_deref(),
            Some(
                std::fs::canonicalize(root.join("sub/real.db"))
                    .unwrap()
                    .display()
                    .to_string()
                    .as_str()
            )
        );
        assert_eq!(m[0].sha256, "");
        assert!(ev.read_dir(&root.join("up")).is_err());
        assert_eq!(
            ev.read_dir(&root.join("sub")).unwrap(),
            [root.join("sub/real.db")]
        );
        // without roots, the folder holding the link is the root
        assert!(Evidence::new().read(&root.join("out-link")).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A folder above a checked file, or above a folder a walk met, swapped for a link
    /// out of the root between the check and the open: the open follows the link (only
    /// the last component is opened without following one), and the handle is then
    /// refused because the kernel places its file outside the root.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_folder_swapped_for_a_link_after_the_check_is_not_followed_out() {
        use std::os::unix::fs::symlink;
        let d = tempfile_dir("swap-above");
        let root = d.join("root");
        let outside = d.join("outside");
        for top in [&root, &outside] {
            std::fs::create_dir_all(top.join("a/b")).unwrap();
        }
        std::fs::write(root.join("a/f.json"), b"inside").unwrap();
        std::fs::write(outside.join("a/f.json"), b"outside").unwrap();
        std::fs::write(outside.join("a/b/g.json"), b"x").unwrap();
        let ev = Evidence::new().roots([&root]).hashing(false);
        let file = root.join("a/f.json");
        let checked = ev.check(&file).unwrap();
        std::fs::rename(root.join("a"), root.join("a-was")).unwrap();
        symlink(outside.join("a"), root.join("a")).unwrap();
        let beyond = std::fs::canonicalize(outside.join("a/f.json")).unwrap();
        let refused = ev.open_checked(&file, &checked).map(|_| ()).unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "resolves to {}, outside the evidence root; not followed",
                beyond.display()
            )
        );
        // a walk's folder below the swapped one, listed without following a link
        let refused = ev.list(&root.join("a/b"), false).map(|_| ()).unwrap_err();
        assert!(
            refused.to_string().starts_with("resolves to ")
                && refused
                    .to_string()
                    .ends_with("/outside/a/b, outside the evidence root; not followed"),
            "{refused}"
        );
        assert!(ev.read_dir(&root.join("a/b")).is_err());
        // nothing read: no manifest entry
        assert!(ev.manifest().is_empty());
        // put back, the same reader reads and lists it
        std::fs::remove_file(root.join("a")).unwrap();
        std::fs::rename(root.join("a-was"), root.join("a")).unwrap();
        assert_eq!(ev.read(&file).unwrap(), b"inside");
        assert_eq!(ev.list(&root.join("a"), false).unwrap().entries.len(), 2);
        // a file unlinked after it was opened is still named by its place
        let (handle, _, _) = open_regular(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        assert_eq!(
            opened_path(&handle),
            Some(
                std::fs::canonicalize(root.join("a"))
                    .unwrap()
                    .join("f.json")
            )
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn display_path_is_lossless() {
        use std::os::unix::ffi::OsStrExt;
        let p = |b: &[u8]| display_path(Path::new(std::ffi::OsStr::from_bytes(b)));
        assert_eq!(p(b"/a/b c.db"), "/a/b c.db");
        assert_eq!(p(b"/a/\xff\x80.db"), "/a/%FF%80.db");
        assert_eq!(p(b"/a/%FF.db"), "/a/%25FF.db");
        assert_ne!(p(b"/a/\xe9"), p(b"/a/\xc3\xa9"));
        assert_eq!(p("/a/é".as_bytes()), "/a/é");
    }

    /// A test's own folder under the system's temporary folder, removed when the test ends,
    /// whether it passes or fails (a failed assertion unwinds through the drop).
    #[cfg(unix)]
    struct Scratch(PathBuf);

    #[cfg(unix)]
    impl std::ops::Deref for Scratch {
        type Target = PathBuf;
        fn deref(&self) -> &PathBuf {
            &self.0
        }
    }

    #[cfg(unix)]
    impl AsRef<Path> for Scratch {
        fn as_ref(&self) -> &Path {
            &self.0
        }
    }

    #[cfg(unix)]
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[cfg(unix)]
    fn tempfile_dir(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("chat-rows-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}
