//! Where Cody's files are, decided by path alone.
//!
//! * VS Code keeps Cody's whole global state in the `sourcegraph.cody-ai` row of the
//!   editor's `state.vscdb`, so every `state.vscdb` is claimed; one without the key
//!   gives no row.
//! * The JetBrains plugin (and any other agent client) runs the agent with
//!   node-localstorage in `<data>/<IDE>-globalState/`, one file per key, where `<data>`
//!   is env-paths' `Cody-nodejs` data directory (`~/.local/share/Cody-nodejs`,
//!   `~/Library/Application Support/Cody-nodejs`, `%LOCALAPPDATA%\Cody-nodejs\Data`)
//!   or a client-supplied directory under it.
//! * The editor's `User/settings.json` (and a profile's `User/profiles/<id>/settings.json`)
//!   holds the `cody.*` permission settings.
//! * The pre-agent plugin left `<project>/.idea/cody_history.xml`.

use std::path::Path;

use chat_rows::store::paths::{component_matches, components, ends_with};

/// The kinds of file this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// An editor's `state.vscdb` (Cody's rows are in its `sourcegraph.cody-ai` row).
    StateDb,
    /// `*/Cody-nodejs/**/<IDE>-globalState/cody-local-chatHistory-v2`.
    History,
    /// `*/Cody-nodejs/**/<IDE>-globalState/cody-model-preferences`.
    ModelPreferences,
    /// `User/settings.json` (or a profile's).
    Settings,
    /// `<project>/.idea/cody_history.xml`.
    LegacyXml,
}

impl FileKind {
    /// The short description the scanner lists.
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::StateDb => "state database (Cody global state)",
            FileKind::History => "Cody chat history",
            FileKind::ModelPreferences => "Cody model preferences",
            FileKind::Settings => "editor settings (cody.*)",
            FileKind::LegacyXml => "legacy Cody chat history (secondary)",
        }
    }
}

fn in_agent_store(path: &Path) -> bool {
    let comps = components(path);
    let n = comps.len();
    n >= 3
        && component_matches(&comps[n - 2], "*-globalState")
        && comps[..n - 2].iter().any(|c| c == "Cody-nodejs")
}

/// The kind of a Cody file, or `None`.
pub fn kind(path: &Path) -> Option<FileKind> {
    let name = path.file_name()?.to_str()?;
    match name {
        "state.vscdb" => Some(FileKind::StateDb),
        "cody-local-chatHistory-v2" if in_agent_store(path) => Some(FileKind::History),
        "cody-model-preferences" if in_agent_store(path) => Some(FileKind::ModelPreferences),
        "settings.json"
            if ends_with(path, &["User", "settings.json"])
                || ends_with(path, &["User", "profiles", "*", "settings.json"]) =>
        {
            Some(FileKind::Settings)
        }
        "cody_history.xml" if ends_with(path, &[".idea", "cody_history.xml"]) => {
            Some(FileKind::LegacyXml)
        }
        _ => None,
    }
}

/// The project a `.idea/cody_history.xml` belongs to: the folder that holds `.idea`.
///
/// When the path runs through the evidence host's folder (`<root>/<host>/home/u/proj`
/// or a KAPE-style `<root>/<host>/C/Users/u/proj`), the part after it is the path on
/// that host (`/home/u/proj`, `C:\Users\u\proj`); otherwise the folder as found.
pub fn project_of(display: &str, host: &str) -> String {
    let comps = components(Path::new(display));
    let Some(idea) = comps.iter().rposition(|c| c == ".idea") else {
        return String::new();
    };
    let project = &comps[..idea];
    if !host.is_empty() {
        if let Some(h) = project.iter().rposition(|c| c == host) {
            let inner = &project[h + 1..];
            if let Some(first) = inner.first() {
                if first.len() == 1 && first.as_bytes()[0].is_ascii_alphabetic() {
                    let rest = inner[1..].join("\\");
                    return format!("{first}:\\{rest}");
                }
            }
            return format!("/{}", inner.join("/"));
        }
    }
    let parent = Path::new(display).parent().and_then(Path::parent);
    parent.map(|p| p.display().to_string()).unwrap_or_default()
}

/// The last two components of a path (`User/settings.json`), for the `(from ...)` text.
pub fn short_name(display: &str) -> String {
    let comps = components(Path::new(display));
    let n = comps.len();
    comps[n.saturating_sub(2)..].join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_by_path() {
        let k = |p: &str| kind(Path::new(p));
        assert_eq!(
            k(
                "/e/h/home/a/.local/share/Cody-nodejs/JetBrains-globalState/cody-local-chatHistory-v2"
            ),
            Some(FileKind::History)
        );
        assert_eq!(
            k(
                "/e/W/C/Users/c/AppData/Local/Cody-nodejs/Data/JetBrains-globalState/cody-model-preferences"
            ),
            Some(FileKind::ModelPreferences)
        );
        assert_eq!(
            k("/e/h/home/a/elsewhere/JetBrains-globalState/cody-local-chatHistory-v2"),
            None
        );
        assert_eq!(
            k("/e/h/home/a/.config/VSCodium/User/globalStorage/state.vscdb"),
            Some(FileKind::StateDb)
        );
        assert_eq!(
            k("/e/h/home/a/.config/Code/User/settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(
            k("/e/h/home/a/.config/Code/User/profiles/-5a1b/settings.json"),
            Some(FileKind::Settings)
        );
        assert_eq!(k("/e/h/home/a/proj/.vscode/settings.json"), None);
        assert_eq!(
            k("/e/h/home/a/proj/.idea/cody_history.xml"),
            Some(FileKind::LegacyXml)
        );
        assert_eq!(k("/e/h/home/a/proj/cody_history.xml"), None);
    }

    #[test]
    fn project_of_the_legacy_file() {
        assert_eq!(
            project_of(
                "ev/lin-ws01/home/alice/src/webapp/.idea/cody_history.xml",
                "lin-ws01"
            ),
            "/home/alice/src/webapp"
        );
        assert_eq!(
            project_of(
                "ev/WIN-DESK03/C/Users/carol/proj/.idea/cody_history.xml",
                "WIN-DESK03"
            ),
            "C:\\Users\\carol\\proj"
        );
        assert_eq!(project_of("/x/proj/.idea/cody_history.xml", ""), "/x/proj");
        assert_eq!(short_name("/a/b/User/settings.json"), "User/settings.json");
    }
}
