//! Where a database's companion files are.
//!
//! SQLite keeps a WAL-mode database's newest transactions in `<db>-wal` beside it, and
//! its shared-memory index in `<db>-shm`. This crate reads the first and never the
//! second: the `-shm` is only a cache of the WAL's index, rebuilt from the WAL itself.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The path of the database's write-ahead log: `<path>-wal`.
pub fn wal_path(db: &Path) -> PathBuf {
    suffixed(db, "-wal")
}

/// The path of the database's shared-memory index: `<path>-shm` (never read nor created).
pub fn shm_path(db: &Path) -> PathBuf {
    suffixed(db, "-shm")
}

/// The path of the database's rollback journal: `<path>-journal`.
pub fn journal_path(db: &Path) -> PathBuf {
    suffixed(db, "-journal")
}

fn suffixed(db: &Path, suffix: &str) -> PathBuf {
    let mut s: OsString = db.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companions() {
        let p = Path::new("/e/User/globalStorage/state.vscdb");
        assert_eq!(
            wal_path(p),
            Path::new("/e/User/globalStorage/state.vscdb-wal")
        );
        assert_eq!(
            shm_path(p),
            Path::new("/e/User/globalStorage/state.vscdb-shm")
        );
        assert_eq!(
            journal_path(p),
            Path::new("/e/User/globalStorage/state.vscdb-journal")
        );
    }
}
