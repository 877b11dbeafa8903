//! Where Tabby's files are, decided from the path alone.
//!
//! The server keeps everything under one root: `TABBY_ROOT`, else `~/.tabby` (the same
//! name on every OS). The Docker images set `TABBY_ROOT=/data` and mount a volume
//! there, so a collected volume (`.../volumes/<name>/_data`) *is* the root and its
//! files arrive without the leading `.tabby/`. The editor clients keep their own
//! files on the developer's machine: the IntelliJ plugin's command history in the
//! IDE's `options/` directory, the VS Code extension's in `state.vscdb`.
//!
//! Claims never read the file. A database path (`ee/db.sqlite`, `ee/dev-db.sqlite`
//! and their `*.backup-*` copies) is specific enough to claim under any root; an
//! events file or a `config.toml` is only claimed under a root that names Tabby
//! (`.tabby`, a directory whose name contains `tabby`, or a `_data` folder of a
//! volume whose name contains `tabby`), since both names are common elsewhere.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::{component_matches, components};

/// The kind of a Tabby file, from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `ee/db.sqlite` or `ee/dev-db.sqlite`: the live database (primary).
    Database,
    /// `ee/db.backup-*.sqlite` or `ee/dev-db.backup-*.sqlite`: a pre-migration copy (secondary).
    Backup,
    /// `events/YYYY-MM-DD.json`: the daily event log (secondary).
    EventLog,
    /// `config.toml` of the server root: the configured models.
    Config,
    /// `intellij-tabby-command-history.xml`: the IntelliJ plugin's inline-edit history.
    IntellijHistory,
    /// A profile's global `state.vscdb` of VS Code or a fork (the default profile's
    /// `User/globalStorage/state.vscdb`, a named profile's
    /// `User/profiles/<id>/globalStorage/state.vscdb`, a built-in one's
    /// `User/profiles/builtin/<id>/globalStorage/state.vscdb`): the VS Code extension's
    /// history, which it keeps in its global state, one per profile.
    StateVscdb,
}

impl FileKind {
    /// The short description the scanner lists.
    pub fn describe(&self) -> &'static str {
        match self {
            FileKind::Database => "tabby server database",
            FileKind::Backup => "tabby pre-migration backup",
            FileKind::EventLog => "tabby event log",
            FileKind::Config => "tabby server config",
            FileKind::IntellijHistory => "tabby IntelliJ command history",
            FileKind::StateVscdb => "state database (tabby command history)",
        }
    }
}

/// True for `db.sqlite` / `dev-db.sqlite`.
pub fn is_live_db_name(name: &str) -> bool {
    name == "db.sqlite" || name == "dev-db.sqlite"
}

/// True for `db.backup-*.sqlite` / `dev-db.backup-*.sqlite`.
pub fn is_backup_name(name: &str) -> bool {
    (name.starts_with("db.backup-") || name.starts_with("dev-db.backup-"))
        && component_matches(name, "*.sqlite")
}

/// True for `YYYY-MM-DD.json`.
pub fn is_event_file_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 15
        && name.ends_with(".json")
        && b[..10].iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// True when a directory name marks a Tabby server root: `.tabby`, a name containing
/// `tabby`, or a volume's `_data` whose volume name contains `tabby`.
fn names_tabby_root(comps: &[std::borrow::Cow<'_, str>]) -> bool {
    let Some(last) = comps.last() else {
        return false;
    };
    if last == "_data" {
        return comps.len() >= 2
            && comps[comps.len() - 2]
                .to_ascii_lowercase()
                .contains("tabby");
    }
    last.to_ascii_lowercase().contains("tabby")
}

/// Classifies a path, or `None` when it is not one of Tabby's files.
pub fn classify(path: &Path) -> Option<FileKind> {
    let comps = components(path);
    let name = &**comps.last()?;
    let parent = comps.len().checked_sub(2).map(|i| &*comps[i]);
    if parent == Some("ee") && is_live_db_name(name) {
        return Some(FileKind::Database);
    }
    if parent == Some("ee") && is_backup_name(name) {
        return Some(FileKind::Backup);
    }
    if parent == Some("events")
        && is_event_file_name(name)
        && names_tabby_root(&comps[..comps.len() - 2])
    {
        return Some(FileKind::EventLog);
    }
    if name == "config.toml" && names_tabby_root(&comps[..comps.len() - 1]) {
        return Some(FileKind::Config);
    }
    if name == "intellij-tabby-command-history.xml" {
        return Some(FileKind::IntellijHistory);
    }
    // the extension's global state is per profile: every profile's global database
    // (not a workspace's, which holds only workspace state)
    if matches!(
        state_vscdb::locate::scope(path),
        Some(
            state_vscdb::locate::Scope::Global
                | state_vscdb::locate::Scope::Profile(_)
                | state_vscdb::locate::Scope::AgentsWindow
                | state_vscdb::locate::Scope::BuiltinProfile(_)
        )
    ) {
        return Some(FileKind::StateVscdb);
    }
    None
}

/// The server root a root file (database, backup, event log, config) belongs to.
pub fn root_of(path: &Path, kind: &FileKind) -> Option<PathBuf> {
    match kind {
        FileKind::Database | FileKind::Backup | FileKind::EventLog => {
            path.parent()?.parent().map(Path::to_path_buf)
        }
        FileKind::Config => path.parent().map(Path::to_path_buf),
        _ => None,
    }
}

/// The live database of a root: `ee/db.sqlite`, else `ee/dev-db.sqlite` (whichever exists).
/// `prefer_dev` picks the source-build name first, for `dev-db.backup-*` files.
pub fn live_db_of(root: &Path, prefer_dev: bool) -> Vec<PathBuf> {
    let ee = root.join("ee");
    let (a, b) = if prefer_dev {
        ("dev-db.sqlite", "db.sqlite")
    } else {
        ("db.sqlite", "dev-db.sqlite")
    };
    vec![ee.join(a), ee.join(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(p: &str) -> Option<FileKind> {
        classify(Path::new(p))
    }

    #[test]
    fn claims_by_shape() {
        assert_eq!(
            k("/e/tabby-srv/home/tabby/.tabby/ee/db.sqlite"),
            Some(FileKind::Database)
        );
        assert_eq!(
            k("/e/h/home/u/.tabby/ee/dev-db.sqlite"),
            Some(FileKind::Database)
        );
        assert_eq!(
            k("/e/h/home/u/.tabby/ee/db.backup-20260901.sqlite"),
            Some(FileKind::Backup)
        );
        assert_eq!(
            k("/e/h/home/u/.tabby/ee/dev-db.backup-20260901.sqlite"),
            Some(FileKind::Backup)
        );
        assert_eq!(k("/e/h/home/u/.tabby/ee/db.sqlite-wal"), None);
        assert_eq!(
            k("/e/h/home/u/.tabby/events/2026-10-01.json"),
            Some(FileKind::EventLog)
        );
        assert_eq!(k("/e/h/home/u/.tabby/events/latest.json"), None);
        assert_eq!(k("/e/h/home/u/other/events/2026-10-01.json"), None);
        assert_eq!(k("/e/h/home/u/.tabby/config.toml"), Some(FileKind::Config));
        assert_eq!(k("/e/h/home/u/.cargo/config.toml"), None);
        assert_eq!(
            k("/e/h/var/lib/docker/volumes/tabby_data/_data/ee/db.sqlite"),
            Some(FileKind::Database)
        );
        assert_eq!(
            k("/e/h/var/lib/docker/volumes/tabby_data/_data/events/2026-10-01.json"),
            Some(FileKind::EventLog)
        );
        assert_eq!(
            k("/e/h/var/lib/docker/volumes/tabby_data/_data/config.toml"),
            Some(FileKind::Config)
        );
        assert_eq!(
            k("/e/h/var/lib/docker/volumes/web_data/_data/config.toml"),
            None
        );
        assert_eq!(
            k(
                "/e/h/home/u/.config/JetBrains/IntelliJIdea2024.2/options/intellij-tabby-command-history.xml"
            ),
            Some(FileKind::IntellijHistory)
        );
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/globalStorage/state.vscdb"),
            Some(FileKind::StateVscdb)
        );
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/workspaceStorage/x/state.vscdb"),
            None
        );
        // a named profile's and a built-in profile's global state
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/profiles/5a1b/globalStorage/state.vscdb"),
            Some(FileKind::StateVscdb)
        );
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/profiles/builtin/agents/globalStorage/state.vscdb"),
            Some(FileKind::StateVscdb)
        );
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/profiles/5a1b/workspaceStorage/x/state.vscdb"),
            None
        );
        assert_eq!(
            k("/e/h/home/u/.config/Code/User/profiles/5a1b/state.vscdb"),
            None
        );
    }

    #[test]
    fn roots() {
        let p = Path::new("/r/.tabby/ee/db.backup-1.sqlite");
        assert_eq!(
            root_of(p, &FileKind::Backup).unwrap(),
            Path::new("/r/.tabby")
        );
        assert_eq!(
            root_of(Path::new("/r/.tabby/config.toml"), &FileKind::Config).unwrap(),
            Path::new("/r/.tabby")
        );
        assert_eq!(
            live_db_of(Path::new("/r"), true)[0],
            Path::new("/r/ee/dev-db.sqlite")
        );
    }
}
