//! The real locations of the stores, per operating system.
//!
//! The facade knows *where* stores live, never their formats. This table is what
//! `--list` and the scanner use to name the product that wrote an editor-hosted file:
//! VS Code and each fork keep the same `User/` layout under a folder of their own
//! name, so a `chatSessions/*.jsonl` under `Cursor/User` is Cursor's evidence, and a
//! responder must be told so. Store crates then claim files by their shape below
//! these folders.

use std::path::Path;

/// One known location, relative to a user's home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The product or store that writes there.
    pub product: &'static str,
    /// `linux`, `macos` or `windows`.
    pub os: &'static str,
    /// The folder, `/`-separated, relative to the home.
    pub path: &'static str,
}

/// The user data directory names (`nameShort`) of VS Code and its forks, with the
/// product id rows carry as `agent`.
pub const EDITOR_DIRS: &[(&str, &str)] = &[
    ("Code", "vscode"),
    ("Code - Insiders", "vscode-insiders"),
    ("Code - OSS", "code-oss"),
    ("VSCodium", "vscodium"),
    ("VSCodium - Insiders", "vscodium-insiders"),
    ("Cursor", "cursor"),
    ("Windsurf", "windsurf"),
    ("Devin", "devin"),
    ("Positron", "positron"),
    ("Kiro", "kiro"),
    ("Trae", "trae"),
    ("Trae CN", "trae-cn"),
    ("TRAE SOLO CN", "trae-solo-cn"),
    ("Antigravity", "antigravity"),
];

/// The remote-server data folders (`serverDataFolderName`) of VS Code and its forks.
pub const SERVER_DIRS: &[(&str, &str)] = &[
    (".vscode-server", "vscode"),
    (".vscode-server-insiders", "vscode-insiders"),
    (".vscode-server-oss", "code-oss"),
    (".vscodium-server", "vscodium"),
    (".vscodium-server-insiders", "vscodium-insiders"),
    (".cursor-server", "cursor"),
    (".windsurf-server", "windsurf"),
    (".devin-server", "devin"),
    (".positron-server", "positron"),
    (".kiro-server", "kiro"),
    (".trae-server", "trae"),
    (".trae-cn-server", "trae-cn"),
    (".antigravity-server", "antigravity"),
    // GitHub Codespaces and dev containers (`~/.vscode-remote/data/{User,Machine}`)
    (".vscode-remote", "vscode"),
];

/// Every known location, for documentation and `--list`. Editor user data directories
/// are expanded for each fork by [`all_locations`].
pub const OTHER_LOCATIONS: &[Location] = &[
    // Sourcegraph Cody's agent store (env-paths data directory).
    Location {
        product: "cody",
        os: "linux",
        path: ".local/share/Cody-nodejs",
    },
    Location {
        product: "cody",
        os: "macos",
        path: "Library/Application Support/Cody-nodejs",
    },
    Location {
        product: "cody",
        os: "windows",
        path: "AppData/Local/Cody-nodejs/Data",
    },
    // Tabby server root (TABBY_ROOT defaults to ~/.tabby; Docker volumes hold it as _data).
    Location {
        product: "tabby",
        os: "linux",
        path: ".tabby",
    },
    Location {
        product: "tabby",
        os: "macos",
        path: ".tabby",
    },
    Location {
        product: "tabby",
        os: "windows",
        path: ".tabby",
    },
    // GitHub Copilot for JetBrains (Nitrite stores).
    Location {
        product: "copilot",
        os: "linux",
        path: ".config/github-copilot",
    },
    Location {
        product: "copilot",
        os: "macos",
        path: ".config/github-copilot",
    },
    Location {
        product: "copilot",
        os: "windows",
        path: "AppData/Local/github-copilot",
    },
    // CodeBuddy Code and WorkBuddy homes.
    Location {
        product: "codebuddy",
        os: "linux",
        path: ".codebuddy",
    },
    Location {
        product: "codebuddy",
        os: "macos",
        path: ".codebuddy",
    },
    Location {
        product: "codebuddy",
        os: "windows",
        path: ".codebuddy",
    },
    Location {
        product: "codebuddy",
        os: "linux",
        path: ".workbuddy",
    },
    Location {
        product: "codebuddy",
        os: "macos",
        path: ".workbuddy",
    },
    Location {
        product: "codebuddy",
        os: "windows",
        path: ".workbuddy",
    },
    Location {
        product: "codebuddy",
        os: "linux",
        path: ".workbuddy-ai",
    },
    Location {
        product: "codebuddy",
        os: "macos",
        path: ".workbuddy-ai",
    },
    Location {
        product: "codebuddy",
        os: "windows",
        path: ".workbuddy-ai",
    },
    // Claude Code's config home (CLAUDE_CONFIG_DIR defaults to ~/.claude on every OS),
    // its global state file, and the managed settings of each OS.
    Location {
        product: "claude-code",
        os: "linux",
        path: ".claude",
    },
    Location {
        product: "claude-code",
        os: "macos",
        path: ".claude",
    },
    Location {
        product: "claude-code",
        os: "windows",
        path: ".claude",
    },
    Location {
        product: "claude-code",
        os: "any",
        path: ".claude.json",
    },
    // The GitHub Copilot CLI home ($COPILOT_HOME, else ~/.copilot on every OS) and the
    // XDG leftovers it moves in at start; the extension's transcripts, stores and
    // traces are under the editors' user data directories (see EDITOR_DIRS).
    Location {
        product: "copilot",
        os: "linux",
        path: ".copilot",
    },
    Location {
        product: "copilot",
        os: "linux",
        path: ".local/state/.copilot",
    },
    Location {
        product: "copilot",
        os: "linux",
        path: ".config/.copilot",
    },
    Location {
        product: "copilot",
        os: "macos",
        path: ".copilot",
    },
    Location {
        product: "copilot",
        os: "windows",
        path: ".copilot",
    },
    // The Cursor agent CLI (chats, transcripts, permission files); the IDE's data is
    // under the editor's user data directory (`Cursor/User`, see EDITOR_DIRS).
    Location {
        product: "cursor",
        os: "linux",
        path: ".cursor",
    },
    Location {
        product: "cursor",
        os: "macos",
        path: ".cursor",
    },
    Location {
        product: "cursor",
        os: "windows",
        path: ".cursor",
    },
    // its config root under XDG ($XDG_CONFIG_HOME/cursor: cli-config.json), lower-case,
    // beside the IDE's `.config/Cursor`
    Location {
        product: "cursor",
        os: "linux",
        path: ".config/cursor",
    },
];

/// Every known location: the editors' user data directories on each OS (and their
/// remote-server folders), then the other stores.
pub fn all_locations() -> Vec<(String, &'static str, &'static str)> {
    let mut out = Vec::new();
    for (dir, product) in EDITOR_DIRS {
        out.push((format!(".config/{dir}/User"), "linux", *product));
        out.push((
            format!("Library/Application Support/{dir}/User"),
            "macos",
            *product,
        ));
        out.push((format!("AppData/Roaming/{dir}/User"), "windows", *product));
    }
    for (dir, product) in SERVER_DIRS {
        out.push((format!("{dir}/data/User"), "linux", *product));
    }
    out.push((
        "<portable app>/data/user-data/User".to_string(),
        "any",
        "vscode",
    ));
    for l in OTHER_LOCATIONS {
        out.push((l.path.to_string(), l.os, l.product));
    }
    // outside every home: the Copilot extension's index when it has no global storage
    out.push((
        "<OS temp folder>/copilot-session-store.db".to_string(),
        "any",
        "copilot",
    ));
    out
}

/// The editor product whose user data directory holds `path`, if any: the folder above
/// `User` names it (`Cursor/User`), or the server folder (`.cursor-server/data/User`),
/// or a portable install's `data/user-data/User` (reported as `vscode`).
pub fn editor_product(path: &Path) -> Option<&'static str> {
    let names: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    // the last `User` component decides (a user-data dir is never nested in another)
    let i = names.iter().rposition(|n| n == "User")?;
    let parent = names.get(i.checked_sub(1)?)?;
    if let Some((_, p)) = EDITOR_DIRS.iter().find(|(d, _)| d == parent) {
        return Some(p);
    }
    if parent == "data" {
        let grand = names.get(i.checked_sub(2)?)?;
        if let Some((_, p)) = SERVER_DIRS.iter().find(|(d, _)| d == grand) {
            return Some(p);
        }
    }
    if parent == "user-data" {
        return Some("vscode");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_products() {
        let p = |s: &str| editor_product(Path::new(s));
        assert_eq!(
            p("h/home/a/.config/Code/User/workspaceStorage/x/chatSessions/1.jsonl"),
            Some("vscode")
        );
        assert_eq!(
            p("h/Users/b/Library/Application Support/Cursor/User/globalStorage/state.vscdb"),
            Some("cursor")
        );
        assert_eq!(
            p("h/C/Users/c/AppData/Roaming/Code - Insiders/User/settings.json"),
            Some("vscode-insiders")
        );
        assert_eq!(
            p("h/home/a/.vscode-server/data/User/globalStorage/x"),
            Some("vscode")
        );
        assert_eq!(p("h/home/a/.cursor-server/data/User/x"), Some("cursor"));
        assert_eq!(
            p("h/home/codespace/.vscode-remote/data/User/workspaceStorage/w/chatSessions/1.jsonl"),
            Some("vscode")
        );
        assert_eq!(
            p("opt/VSCode-linux-x64/data/user-data/User/settings.json"),
            Some("vscode")
        );
        assert_eq!(p("h/home/a/.tabby/ee/db.sqlite"), None);
        assert_eq!(p("User"), None);
    }

    #[test]
    fn every_editor_has_three_os_locations() {
        let all = all_locations();
        for (dir, _) in EDITOR_DIRS {
            assert_eq!(
                all.iter()
                    .filter(|(p, _, _)| p.contains(&format!("/{dir}/User")))
                    .count(),
                3,
                "{dir}"
            );
        }
    }
}
