//! Where evidence sits: homes, hosts and users in collection layouts.
//!
//! Responders point the tool at very different trees: one live home, a folder of
//! homes (`home/*`, `Users/*`, `C/Users/*`), or a whole collection of hosts as KAPE
//! (`<host>/C/Users/<user>/...`), Velociraptor (`<host>/uploads/auto/C%3A/Users/...`)
//! or UAC (`uac-<host>-<os>-<timestamp>/[root]/home/<user>/...`) lays it out. Every row must still say which host and which account it came from,
//! so the scanner reads them off the path: the account is the folder after the OS's
//! home marker (`home/<user>`, `Users/<user>`, `root`), and the host is the nearest
//! folder above the OS root that is not a collection tool's own container folder.
//! A collection tool's default name for that folder gives the host in it (UAC's
//! `uac-<host>-...`, Velociraptor's `Collection-<host>-<timestamp>`). One source is
//! better than any path: a Velociraptor collection's own `client_info.json`, which the
//! scanner reads when it is there ([`velociraptor_collection`],
//! [`host_of_client_info`]), since responders rename folders and the collector's name
//! has lost the FQDN's dots.

use std::path::{Component, Path};

/// The operating system a path's layout names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Os {
    /// `home/<user>` or `root`.
    Linux,
    /// `Users/<user>` without a drive folder (but on a disk image's NTFS volume, an
    /// image of a C: drive: [`Os::Windows`]).
    MacOs,
    /// `<drive>/Users/<user>`.
    Windows,
}

/// Host, user and OS read off a path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    /// The host (empty when the layout does not name one).
    pub host: String,
    /// The account (empty when the path is not under a home).
    pub user: String,
    /// The OS the layout names.
    pub os: Option<Os>,
}

/// Folder names that collection tools put between the host folder and the OS root.
const CONTAINERS: &[&str] = &[
    "uploads",
    "auto",
    "ntfs",
    "file",
    "mft",
    "collection",
    "evidence",
    "triage",
    // UAC puts the files it collects under `[root]`
    "[root]",
    // a disk image's deleted files stand at `<image>/$Deleted/<their path>` (see
    // `is_container`: `$Deleted-<record>/` too)
    "$deleted",
    // a Velociraptor secured container holds the collection as `data.zip`, itself an
    // encrypted member (`Collection-<host>-<timestamp>.zip/data.zip/uploads/...`)
    "data.zip",
];

/// The operating systems UAC names in its output (`uac-<host>-<os>-<timestamp>`).
const UAC_OS: &[&str] = &[
    "aix",
    "android",
    "esxi",
    "freebsd",
    "linux",
    "macos",
    "netbsd",
    "netscaler",
    "openbsd",
    "solaris",
];

/// The host in the name Velociraptor's offline collector gives its zip by default,
/// `Collection-%FQDN%-%TIMESTAMP%` with every byte but `0-9A-Za-z-` made `_`
/// (`Server.Utils.CreateCollector`): `Collection-ws7_corp_example-2026-12-01T10_00_00Z`
/// gives `ws7_corp_example` (the FQDN's dots stay `_`: the name cannot tell them from
/// underscores). The timestamp is Go's RFC 3339 text so sanitized: `YYYY-MM-DDThh_mm_ss`,
/// maybe `_<fraction>`, then `Z` or an offset `[_-]hh_mm`.
fn velociraptor_host(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("Collection-")?;
    // the timestamp begins at the last `-YYYY-MM-DDT` that is followed by a whole one
    let bytes = rest.as_bytes();
    let stamp_ok = |t: &[u8]| -> bool {
        let digits =
            |r: std::ops::Range<usize>| t.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
        let fixed = digits(0..4)
            && t.get(4) == Some(&b'-')
            && digits(5..7)
            && t.get(7) == Some(&b'-')
            && digits(8..10)
            && t.get(10) == Some(&b'T')
            && digits(11..13)
            && t.get(13) == Some(&b'_')
            && digits(14..16)
            && t.get(16) == Some(&b'_')
            && digits(17..19);
        if !fixed {
            return false;
        }
        let zone = |z: &[u8]| {
            z == b"Z"
                || (z.len() == 6
                    && matches!(z[0], b'_' | b'-')
                    && z[1..3].iter().all(u8::is_ascii_digit)
                    && z[3] == b'_'
                    && z[4..6].iter().all(u8::is_ascii_digit))
        };
        let tail = &t[19..];
        let fraction = tail.strip_prefix(b"_").is_some_and(|f| {
            let n = f.iter().take_while(|b| b.is_ascii_digit()).count();
            (1..=9).contains(&n) && zone(&f[n..])
        });
        fraction || zone(tail)
    };
    let at = (1..bytes.len())
        .rev()
        .find(|&i| bytes[i - 1] == b'-' && stamp_ok(&bytes[i..]))?;
    let host = &rest[..at - 1];
    (!host.is_empty()).then_some(host)
}

/// UAC's default output name, `uac-<host>-<os>-<timestamp>` (the timestamp
/// `YYYYMMDDhhmmss`, the OS one UAC names): its `<host>`.
fn uac_host(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("uac-")?;
    let (rest, stamp) = rest.rsplit_once('-')?;
    let (host, os) = rest.rsplit_once('-')?;
    (stamp.len() == 14
        && stamp.bytes().all(|b| b.is_ascii_digit())
        && UAC_OS.contains(&os)
        && !host.is_empty())
    .then_some(host)
}

/// `name` without the extension of an archive read as a folder (`.zip`, `.tar`,
/// `.tar.gz`, `.tgz`, `.tar.xz` ...: [`chat_rows::ArchiveKind::EXTENSIONS`], in any
/// case), if it has one and more; also through one compression laid over the archive
/// (`WIN-DESK03.dd.gz`, `WS7.zip.xz`: [`chat_rows::ArchiveKind::compression_of_name`]).
fn without_archive_extension(name: &str) -> &str {
    let strip = |name: &'_ str| -> Option<usize> {
        let bytes = name.as_bytes();
        chat_rows::ArchiveKind::EXTENSIONS
            .iter()
            .map(|(e, _)| e.as_bytes())
            .find(|e| {
                bytes.len() > e.len() && bytes[bytes.len() - e.len()..].eq_ignore_ascii_case(e)
            })
            .map(|e| name.len() - e.len())
    };
    if let Some(end) = strip(name) {
        return &name[..end];
    }
    if chat_rows::ArchiveKind::compression_of_name(std::ffi::OsStr::new(name)).is_some() {
        if let Some((rest, _)) = name.rsplit_once('.') {
            if let Some(end) = strip(rest) {
                return &name[..end];
            }
        }
    }
    name
}

/// True for an archive named as a collection tool names its output by default
/// (UAC's `uac-<host>-<os>-<timestamp>.tar.gz`, Velociraptor's
/// `Collection-<host>-<timestamp>.zip`, with any archive extension): the scanner
/// opens such an archive wherever its walk meets it.
pub fn is_collection_archive(name: &str) -> bool {
    let stem = without_archive_extension(name);
    stem.len() < name.len() && (uac_host(stem).is_some() || velociraptor_host(stem).is_some())
}

/// The host a collection folder names (an archive read as a folder names it without
/// its extension): UAC's `uac-<host>-<os>-<timestamp>` gives `<host>`, and so does
/// Velociraptor's `Collection-<host>-<timestamp>` ([`velociraptor_host`]); any other
/// name is the host itself.
fn host_of_folder(name: &str) -> String {
    let name = without_archive_extension(name);
    uac_host(name)
        .or_else(|| velociraptor_host(name))
        .unwrap_or(name)
        .to_string()
}

fn is_drive_folder(c: &str) -> bool {
    let decoded = c.replace("%3A", ":").replace("%3a", ":");
    let decoded = decoded
        .trim_start_matches("%5C%5C.%5C")
        .trim_start_matches("\\\\.\\");
    let b = decoded.as_bytes();
    (b.len() == 1 && b[0].is_ascii_alphabetic())
        || (b.len() == 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// True for a folder a collection or image puts around a host's files
/// ([`CONTAINERS`], in any case), or a disk image's `$Deleted-<record>` folder.
fn is_container(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    CONTAINERS.contains(&lower.as_str())
        || lower
            .strip_prefix("$deleted-")
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
}

fn names(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            // a name that is not UTF-8 is shown losslessly, as paths are (`%` and its
            // bytes that are not UTF-8 as `%XX`): two hosts or users whose names differ
            // only in such bytes stay two (before 2026-12-05 both read `w\u{fffd}` and
            // their rows merged as copies). A UTF-8 name stays as written: collection
            // layouts spell folders with `%` (KAPE's `C%3A`)
            Component::Normal(s) => Some(match s.to_str() {
                Some(name) => name.to_string(),
                None => chat_rows::display_path(Path::new(s)),
            }),
            _ => None,
        })
        .collect()
}

/// Reads host, user and OS off `rel`, a path relative to an evidence root.
pub fn attribute(rel: &Path) -> Attribution {
    let c = names(rel);
    let host_before = |marker: usize| -> String {
        let mut i = marker;
        while i > 0 {
            i -= 1;
            let name = &c[i];
            if !is_container(name) {
                return host_of_folder(name);
            }
        }
        String::new()
    };
    for i in 0..c.len() {
        // Windows: <drive>/Users/<user>
        if is_drive_folder(&c[i])
            && c.get(i + 1)
                .is_some_and(|n| n.eq_ignore_ascii_case("Users"))
        {
            return Attribution {
                host: host_before(i),
                user: c.get(i + 2).cloned().unwrap_or_default(),
                os: Some(Os::Windows),
            };
        }
    }
    for i in 0..c.len() {
        let name = &*c[i];
        let next = c.get(i + 1);
        match name {
            "home" if next.is_some() => {
                return Attribution {
                    host: host_before(i),
                    user: next.cloned().unwrap_or_default(),
                    os: Some(Os::Linux),
                };
            }
            // /root as the super-user's home: only when it holds a dot folder.
            "root"
                if (i == 0 || c[i - 1] != "home") && next.is_some_and(|n| n.starts_with('.')) =>
            {
                return Attribution {
                    host: host_before(i),
                    user: "root".into(),
                    os: Some(Os::Linux),
                };
            }
            "Users" if next.is_some() => {
                return Attribution {
                    host: host_before(i),
                    user: next.cloned().unwrap_or_default(),
                    os: Some(Os::MacOs),
                };
            }
            _ => {}
        }
    }
    // No home: a server path such as <host>/var/lib/docker/volumes/... or the shared
    // temporary folder <host>/tmp/... names a host only. macOS keeps /var, /tmp and /etc
    // under /private (the root's entries are links to them): <host>/private/var/...
    // names the host, not `private`.
    for (i, name) in c.iter().enumerate() {
        if matches!(
            name.as_str(),
            "var" | "srv" | "opt" | "data" | "etc" | "tmp"
        ) && i > 0
        {
            let marker = if c[i - 1] == "private" && matches!(name.as_str(), "var" | "tmp" | "etc")
            {
                i - 1
            } else {
                i
            };
            return Attribution {
                host: host_before(marker),
                user: String::new(),
                os: None,
            };
        }
    }
    Attribution::default()
}

/// True when `rel` begins (after collection containers) at an OS root folder: the
/// root it is relative to is then a host folder.
fn starts_at_os_root(rel: &Path) -> bool {
    let c = names(rel);
    let first = c.iter().find(|n| !is_container(n));
    first.is_some_and(|n| {
        is_drive_folder(n)
            || matches!(
                n.as_str(),
                "home"
                    | "Users"
                    | "root"
                    | "var"
                    | "srv"
                    | "opt"
                    | "data"
                    | "etc"
                    | "tmp"
                    | "private"
            )
    }) && c.len() > 1
}

/// The Velociraptor collection `file` lies in, if any: the folder (the root or one
/// below it) whose `uploads` folder is on the file's path and which holds the
/// collection's `client_info.json` beside it (as the offline collector and a
/// server's export write them). Returns the folder and the path of its
/// `client_info.json`, for the caller to ask the evidence reader whether it is there.
pub fn velociraptor_collection(
    root: &Path,
    file: &Path,
) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let rel = file.strip_prefix(root).ok()?;
    let mut folder = root.to_path_buf();
    let mut parts = rel.components().peekable();
    while let Some(Component::Normal(name)) = parts.next() {
        // `uploads` with something below it
        if name == "uploads" && parts.peek().is_some() {
            let info = folder.join("client_info.json");
            return Some((folder, info));
        }
        folder.push(name);
    }
    None
}

/// The host a Velociraptor collection's `client_info.json` names: its `Hostname`,
/// else its `Fqdn` (keys matched without regard to case, as Velociraptor's own
/// `import_collection` reads them). `None` for a file that is no JSON object or names
/// neither.
pub fn host_of_client_info(bytes: &[u8]) -> Option<String> {
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(bytes).ok()?;
    ["hostname", "fqdn"].iter().find_map(|want| {
        map.iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(want))
            .filter_map(|(_, v)| v.as_str())
            .map(str::trim)
            .find(|h| !h.is_empty())
            .map(str::to_string)
    })
}

/// Attribution for a file: from its path relative to the root, else (for the user
/// only) from its absolute path, so a root that *is* a home or a folder of homes still
/// names the account.
pub fn attribute_file(root: &Path, file: &Path) -> Attribution {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let mut a = attribute(rel);
    if a.host.is_empty() && starts_at_os_root(rel) {
        // the layout starts at the root (`home/<user>`, `C/Users/<user>` ...): the root
        // is a host folder, as a distributed job hands one host to each task, and the
        // host is the folder above the OS marker in the full path
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        // (an archived host folder, `HOST1.zip/C/Users/...`, names the host without
        // the archive's extension: [`host_of_folder`])
        a.host = attribute(&abs).host;
    }
    if a.user.is_empty() && a.os.is_none() {
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let b = attribute(&abs);
        a.user = b.user;
        a.os = b.os;
    }
    if a.host.is_empty() {
        // no OS folder on the path (a secured Velociraptor container's `data.zip`
        // that cannot be opened, a collection's own metadata): the collection whose
        // name a collection tool gave it names the host, the innermost if nested
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        if let Some(host) = names(&abs).iter().rev().find_map(|n| {
            let stem = without_archive_extension(n);
            uac_host(stem).or_else(|| velociraptor_host(stem))
        }) {
            a.host = host.to_string();
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn at(p: &str) -> (String, String, Option<Os>) {
        let a = attribute(Path::new(p));
        (a.host, a.user, a.os)
    }

    #[test]
    fn kape_and_velociraptor_windows() {
        assert_eq!(
            at("WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/settings.json"),
            ("WIN-DESK03".into(), "carol".into(), Some(Os::Windows))
        );
        assert_eq!(
            at("WS7/uploads/auto/C%3A/Users/dave/AppData/x"),
            ("WS7".into(), "dave".into(), Some(Os::Windows))
        );
        assert_eq!(
            at("WS7/uploads/ntfs/%5C%5C.%5CC%3A/Users/dave/x"),
            ("WS7".into(), "dave".into(), Some(Os::Windows))
        );
        assert_eq!(
            at("C/Users/erin/x"),
            ("".into(), "erin".into(), Some(Os::Windows))
        );
    }

    /// A disk image's deleted files stand at `<image>/$Deleted/<path>`, or
    /// `$Deleted-<record>/<path>` for a second one of a path: host and user as at
    /// `<path>`; a folder merely like it is a host of that name.
    #[test]
    fn the_deleted_files_of_an_image_keep_their_host_and_user() {
        assert_eq!(
            at("LAPTOP-7.E01/$Deleted/Users/dave/.claude/history.jsonl"),
            ("LAPTOP-7".into(), "dave".into(), Some(Os::MacOs))
        );
        assert_eq!(
            at("LAPTOP-7.E01/$Deleted-4711/Users/dave/.claude/history.jsonl"),
            ("LAPTOP-7".into(), "dave".into(), Some(Os::MacOs))
        );
        assert_eq!(
            at("$DELETED-12/Users/dave/x"),
            ("".into(), "dave".into(), Some(Os::MacOs))
        );
        assert_eq!(
            at("$Deleted-old/Users/dave/x"),
            ("$Deleted-old".into(), "dave".into(), Some(Os::MacOs))
        );
    }

    /// Velociraptor's offline collector names its zip `Collection-<FQDN>-<timestamp>`,
    /// every byte but `0-9A-Za-z-` made `_`: the host is what stands between; a name
    /// merely like it is a host of that name.
    #[test]
    fn velociraptor_collections_name_their_host() {
        for (name, host) in [
            ("Collection-WS7-2026-12-01T10_00_00Z", "WS7"),
            (
                "Collection-DESKTOP-AB12-2026-12-01T10_00_00_123456789Z",
                "DESKTOP-AB12",
            ),
            (
                "Collection-ws7_corp_example-2026-12-01T10_00_00_10_00",
                "ws7_corp_example",
            ),
            ("Collection-lap-9-2026-12-01T10_00_00_5-05_00", "lap-9"),
            // not the collector's name: the folder is the host
            ("Collection-WS7", "Collection-WS7"),
            (
                "Collection--2026-12-01T10_00_00Z",
                "Collection--2026-12-01T10_00_00Z",
            ),
            (
                "Collection-WS7-2026-12-01T10_00_00",
                "Collection-WS7-2026-12-01T10_00_00",
            ),
            (
                "Collection-WS7-2026-12-01T10_00_00Zx",
                "Collection-WS7-2026-12-01T10_00_00Zx",
            ),
            (
                "Collection-WS7-2026-12-01T10_00_00_Z",
                "Collection-WS7-2026-12-01T10_00_00_Z",
            ),
            (
                "collection-WS7-2026-12-01T10_00_00Z",
                "collection-WS7-2026-12-01T10_00_00Z",
            ),
        ] {
            assert_eq!(
                at(&format!("{name}/uploads/auto/C%3A/Users/dave/x")),
                (host.into(), "dave".into(), Some(Os::Windows)),
                "{name}"
            );
        }
        let zip = Path::new("/cases/Collection-WS7-2026-12-01T10_00_00Z.zip");
        assert_eq!(
            attribute_file(zip, &zip.join("uploads/auto/C%3A/Users/dave/x")).host,
            "WS7"
        );
        // the folder whose `uploads` is on the path, and its `client_info.json`
        assert_eq!(
            velociraptor_collection(Path::new("/c"), Path::new("/c/H/uploads/auto/x")),
            Some((
                PathBuf::from("/c/H"),
                PathBuf::from("/c/H/client_info.json")
            ))
        );
        assert_eq!(
            velociraptor_collection(zip, &zip.join("uploads/auto/x")),
            Some((zip.to_path_buf(), zip.join("client_info.json")))
        );
        assert_eq!(
            velociraptor_collection(Path::new("/c"), Path::new("/c/H/uploads")),
            None
        );
        assert_eq!(
            velociraptor_collection(Path::new("/c"), Path::new("/c/H/home/x")),
            None
        );
        assert_eq!(
            velociraptor_collection(Path::new("/c"), Path::new("/d/uploads/x")),
            None
        );
    }

    /// `client_info.json` names the host by `Hostname`, else `Fqdn`, in any case.
    #[test]
    fn client_info_names_the_host() {
        let host = |j: &str| host_of_client_info(j.as_bytes());
        assert_eq!(
            host(r#"{"client_id":"C.1","Hostname":"WS7","Fqdn":"ws7.corp.example"}"#),
            Some("WS7".into())
        );
        assert_eq!(
            host(r#"{"hostname":" ","fqdn":"ws7.corp"}"#),
            Some("ws7.corp".into())
        );
        assert_eq!(host(r#"{"HOSTNAME":"a","HostName":"b"}"#), Some("a".into()));
        assert_eq!(host(r#"{"Hostname":5}"#), None);
        assert_eq!(host(r#"["WS7"]"#), None);
        assert_eq!(host("{\"Hostname\":\"WS7\""), None);
        assert_eq!(host(""), None);
    }

    /// UAC's output (`uac-<host>-<os>-<timestamp>`, files under `[root]`), extracted
    /// or zipped, names its host; a folder merely like it is a host of that name.
    #[test]
    fn uac_collections_name_their_host() {
        assert_eq!(
            at("uac-web-01-linux-20261201120000/[root]/home/alice/.claude/history.jsonl"),
            ("web-01".into(), "alice".into(), Some(Os::Linux))
        );
        assert_eq!(
            at("cases/uac-mbp7-macos-20261130081500/[root]/Users/bob/.copilot/x"),
            ("mbp7".into(), "bob".into(), Some(Os::MacOs))
        );
        assert_eq!(
            at("uac-web-01-linux-2026/[root]/home/alice/x").0,
            "uac-web-01-linux-2026"
        );
        assert_eq!(
            at("uac-web-01-beos-20261201120000/home/alice/x").0,
            "uac-web-01-beos-20261201120000"
        );
        // the collection given as the root, extracted or as its zip
        for root in [
            "/cases/uac-web-01-linux-20261201120000",
            "/cases/uac-web-01-linux-20261201120000.zip",
            "/cases/uac-web-01-linux-20261201120000.tar.gz",
            "/cases/uac-web-01-linux-20261201120000.TAR",
            "/cases/uac-web-01-linux-20261201120000.tar.xz",
            "/cases/uac-web-01-linux-20261201120000.tbz2",
            "/cases/uac-web-01-linux-20261201120000.Tar.Zst",
        ] {
            let file = Path::new(root).join("[root]/home/alice/.claude/history.jsonl");
            let a = attribute_file(Path::new(root), &file);
            assert_eq!(
                (a.host.as_str(), a.user.as_str()),
                ("web-01", "alice"),
                "{root}"
            );
        }
    }

    #[test]
    fn a_path_without_an_os_folder_takes_its_collections_host() {
        let at = |root: &str, file: &str| {
            let a = attribute_file(Path::new(root), &Path::new(root).join(file));
            (a.host, a.user)
        };
        assert_eq!(
            at("/cases", "Collection-WS7-2026-12-01T10_00_00Z.zip/data.zip"),
            ("WS7".into(), "".into())
        );
        assert_eq!(
            at("/cases/uac-web-01-linux-20261201120000.tar.gz", "uac.log"),
            ("web-01".into(), "".into())
        );
        // the innermost collection names it; a folder of another name names none
        assert_eq!(
            at(
                "/cases/uac-a-linux-20261201120000",
                "Collection-B-2026-12-01T10_00_00Z/metadata.json"
            ),
            ("B".into(), "".into())
        );
        assert_eq!(at("/cases/WS9", "notes/x.json"), ("".into(), "".into()));
    }

    #[test]
    fn collection_archives_are_known_by_their_names() {
        for name in [
            "uac-web-01-linux-20261201120000.tar.gz",
            "uac-web-01-linux-20261201120000.tar.xz",
            "uac-web-01-macos-20261201120000.ZIP",
            "Collection-WS7-2026-12-01T10_00_00Z.zip",
            "Collection-WS7-2026-12-01T10_00_00Z.tar.zst",
            "Collection-WS7-2026-12-01T10_00_00Z.7z",
            "Collection-WS7-2026-12-01T10_00_00Z.rar",
        ] {
            assert!(is_collection_archive(name), "{name}");
        }
        for name in [
            // no archive extension, or nothing before it
            "uac-web-01-linux-20261201120000",
            "Collection-WS7-2026-12-01T10_00_00Z.arj",
            ".tar.gz",
            // an archive, but not named by a collection tool
            "WS9.zip",
            "uac-web-01-linux-2026.tar.gz",
            "backup.tar.bz2",
        ] {
            assert!(!is_collection_archive(name), "{name}");
        }
    }

    #[test]
    fn linux_and_macos_homes() {
        assert_eq!(
            at("lin-ws01/home/alice/.config/Code"),
            ("lin-ws01".into(), "alice".into(), Some(Os::Linux))
        );
        assert_eq!(
            at("home/alice/.codebuddy"),
            ("".into(), "alice".into(), Some(Os::Linux))
        );
        assert_eq!(
            at("mac-lt02/Users/bob/Library"),
            ("mac-lt02".into(), "bob".into(), Some(Os::MacOs))
        );
        assert_eq!(
            at("srv1/root/.tabby/ee/db.sqlite"),
            ("srv1".into(), "root".into(), Some(Os::Linux))
        );
    }

    #[test]
    fn server_paths_name_a_host_only() {
        assert_eq!(
            at("tabby-srv/var/lib/docker/volumes/tabby_data/_data/ee/db.sqlite"),
            ("tabby-srv".into(), "".into(), None)
        );
        assert_eq!(
            at(".config/Code/User/settings.json"),
            ("".into(), "".into(), None)
        );
        // the shared temporary folder, and macOS's /private/var and /private/tmp
        assert_eq!(
            at("lin-ws01/tmp/copilot-session-store.db"),
            ("lin-ws01".into(), "".into(), None)
        );
        assert_eq!(
            at("mac-lt02/private/var/folders/x1/abc/T/copilot-session-store.db"),
            ("mac-lt02".into(), "".into(), None)
        );
        assert_eq!(
            at("mac-lt02/private/tmp/copilot-session-store.db"),
            ("mac-lt02".into(), "".into(), None)
        );
    }

    #[test]
    fn a_root_that_is_a_home_still_names_the_user() {
        let a = attribute_file(
            Path::new("/x/home/alice"),
            Path::new("/x/home/alice/.codebuddy/a.jsonl"),
        );
        assert_eq!((a.host.as_str(), a.user.as_str()), ("", "alice"));
    }

    #[cfg(unix)]
    #[test]
    fn hosts_and_users_not_utf8_stay_apart() {
        use std::os::unix::ffi::OsStrExt;
        let at = |host: &[u8], user: &[u8]| {
            let mut p = host.to_vec();
            p.extend_from_slice(b"/home/");
            p.extend_from_slice(user);
            p.extend_from_slice(b"/.claude/history.jsonl");
            let a = attribute(Path::new(std::ffi::OsStr::from_bytes(&p)));
            (a.host, a.user)
        };
        assert_eq!(
            at(b"w\xff", b"u\xfe"),
            ("w%FF".to_string(), "u%FE".to_string())
        );
        assert_eq!(at(b"w\xfe", b"u"), ("w%FE".to_string(), "u".to_string()));
        // a UTF-8 name keeps its `%` as written
        assert_eq!(at(b"w%FF", b"u"), ("w%FF".to_string(), "u".to_string()));
    }

    #[test]
    fn a_root_that_is_a_host_folder_names_the_host() {
        for (root, file, host, user) in [
            (
                "/cases/c1/lin-ws01",
                "/cases/c1/lin-ws01/home/alice/.codebuddy/a.jsonl",
                "lin-ws01",
                "alice",
            ),
            (
                "/cases/c1/WIN-DESK03",
                "/cases/c1/WIN-DESK03/C/Users/carol/.claude/x.jsonl",
                "WIN-DESK03",
                "carol",
            ),
            // a collection tool's container folder between the host and the OS root
            (
                "/cases/HOST9/uploads/auto",
                "/cases/HOST9/uploads/auto/C%3A/Users/dan/.copilot/e.jsonl",
                "HOST9",
                "dan",
            ),
            // a home given as the root names no host (live triage names it instead)
            (
                "/x/home/alice",
                "/x/home/alice/.codebuddy/a.jsonl",
                "",
                "alice",
            ),
        ] {
            let a = attribute_file(Path::new(root), Path::new(file));
            assert_eq!((a.host.as_str(), a.user.as_str()), (host, user), "{root}");
        }
    }
}
