//! Read-only access to evidence files, with a chain-of-custody manifest.
//!
//! Every byte a store crate reads from evidence goes through an [`Evidence`]. It only
//! ever opens files for reading (`std::fs::read` opens read-only, takes no lock and
//! creates nothing), and it records the path, size, modification time and SHA-256 of
//! each file it read, so the CLI can write a manifest (`--manifest FILE`) that proves
//! which bytes the timeline came from.
//!
//! The hash is of the bytes actually read, which is what the rows were built from.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::when::Timestamp;

/// One file read, for the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ManifestEntry {
    /// The path as given to [`Evidence::read`].
    pub path: String,
    /// Size in bytes of what was read.
    pub size: u64,
    /// The file's modification time (UTC), when the file system gives one.
    pub mtime_utc: String,
    /// SHA-256 of the bytes read, lower-case hex.
    pub sha256: String,
}

/// The read-only gateway to evidence files. Cheap to share between threads.
#[derive(Debug, Default)]
pub struct Evidence {
    manifest: Mutex<BTreeMap<PathBuf, ManifestEntry>>,
}

impl Evidence {
    /// A new gateway with an empty manifest.
    pub fn new() -> Evidence {
        Evidence::default()
    }

    /// Reads a whole file, read-only, and records it in the manifest.
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let bytes = std::fs::read(path)?;
        self.record(path, &bytes);
        Ok(bytes)
    }

    /// Like [`Evidence::read`], but a missing file is `Ok(None)`.
    pub fn read_optional(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match self.read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The file's modification time, UTC, if the file system records one.
    pub fn modified(&self, path: &Path) -> Option<Timestamp> {
        let m = std::fs::metadata(path).ok()?.modified().ok()?;
        Timestamp::from_system_time(m)
    }

    fn record(&self, path: &Path, bytes: &[u8]) {
        let entry = ManifestEntry {
            path: path.display().to_string(),
            size: bytes.len() as u64,
            mtime_utc: self
                .modified(path)
                .map(|t| t.to_string())
                .unwrap_or_default(),
            sha256: hex::encode(Sha256::digest(bytes)),
        };
        if let Ok(mut m) = self.manifest.lock() {
            m.insert(path.to_path_buf(), entry);
        }
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
}
