//! Where a Claude-family agent keeps its sessions, decided from a path alone.
//!
//! Claude Code, CodeBuddy Code and WorkBuddy lay their homes out the same way:
//!
//! ```text
//! <home>/projects/<key>/<session-id>.jsonl                      the session
//! <home>/projects/<key>/<session-id>.meta.json                  its meta side file
//! <home>/projects/<key>/<session-id>/subagents/[<dir>/...]agent-<id>.jsonl   a sub-agent
//! <home>/projects/<key>/<session-id>/subagents/[<dir>/...]agent-<id>.meta.json
//! <home>/projects/<key>/<session-id>/tool-results/<name>        a persisted output
//! ```
//!
//! What differs is which folder names are homes and which names the product's
//! project-key rule can make, so both are a [`Family`]'s parameters. The key rule is
//! what keeps two products apart when a home is oddly named: CodeBuddy never writes a
//! leading dash, Claude Code always keeps one (or a drive's `C--`). The key is lossy, so
//! it only recognises folders: a row's project comes from its record's `cwd`.

use std::path::{Path, PathBuf};

use chat_rows::store::paths::components;

/// A product of the family: the two rules that recognise its tree.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// True for a folder name that can be the product's home (`.claude`, `.codebuddy` ...).
    pub is_home: fn(&str) -> bool,
    /// True for a folder name the product's project-key rule can make.
    pub is_project_key: fn(&str) -> bool,
    /// True when a sub-agent file may sit in folders below `subagents/`,
    /// `subagents/<dir>/.../agent-*` (at most [`MAX_SUBAGENT_FOLDERS`] of them).
    pub nested_subagents: bool,
}

/// The most folders a sub-agent file may sit in below `subagents/` (Claude Code's glob is
/// `subagents/**/agent-*.jsonl`; the bound keeps a path from being searched without end).
pub const MAX_SUBAGENT_FOLDERS: usize = 16;

/// What kind of file of the tree a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `<key>/<session-id>.jsonl`.
    Session,
    /// `<key>/<session-id>.meta.json`.
    SessionMeta,
    /// `<key>/<session-id>/subagents/agent-<id>.jsonl`.
    Subagent,
    /// `<key>/<session-id>/subagents/agent-<id>.meta.json`.
    SubagentMeta,
    /// `<key>/<session-id>/tool-results/<name>`: a persisted tool output.
    ToolResult,
}

/// A recognised file of the tree and what its path says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The kind of file.
    pub kind: FileKind,
    /// The home folder's name: `.codebuddy`, `.claude`, `.workbuddy-ai` or a configured one.
    pub home: String,
    /// The project-key folder under `projects`.
    pub project_dir: String,
    /// The (parent) session id: the file stem of a session, the folder of a sub-agent.
    pub session_id: String,
    /// The sub-agent's file id (`agent-1a2b3c4d`), for sub-agent files.
    pub agent_id: Option<String>,
    /// The folders between `subagents/` and a sub-agent file, `/`-separated
    /// (`workflows`, `workflows/run-1`), where there are any.
    pub subfolder: Option<String>,
}

impl Location {
    /// A main session named by a file stem, for a path the rules do not recognise.
    pub fn fallback(path: &Path) -> Location {
        Location {
            kind: FileKind::Session,
            home: String::new(),
            project_dir: String::new(),
            session_id: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            agent_id: None,
            subfolder: None,
        }
    }

    /// The project folder (`projects/<key>`) of the file at `path`.
    pub fn project_folder(&self, path: &Path) -> PathBuf {
        let up = match self.kind {
            FileKind::Session | FileKind::SessionMeta => 1,
            FileKind::ToolResult => 3,
            FileKind::Subagent | FileKind::SubagentMeta => 3 + self.subfolder_depth(),
        };
        let mut p = path;
        for _ in 0..up {
            p = p.parent().unwrap_or(p);
        }
        p.to_path_buf()
    }

    /// How many folders sit between `subagents/` and a sub-agent file.
    pub fn subfolder_depth(&self) -> usize {
        self.subfolder
            .as_deref()
            .map_or(0, |s| s.split('/').filter(|c| !c.is_empty()).count())
    }

    /// The file stem the session or sub-agent file of this location has.
    pub fn stem(&self) -> &str {
        self.agent_id.as_deref().unwrap_or(&self.session_id)
    }
}

fn is_agent_id(stem: &str) -> bool {
    stem.strip_prefix("agent-")
        .is_some_and(|rest| !rest.is_empty())
}

/// Splits `<stem>.meta.json` / `<stem>.jsonl` into the kind (main or sub-agent) and stem.
fn split_name(file: &str, main: bool) -> Option<(FileKind, &str)> {
    let (meta, stem) = match file.strip_suffix(".meta.json") {
        Some(stem) => (true, stem),
        None => (false, file.strip_suffix(".jsonl")?),
    };
    let kind = match (main, meta) {
        (true, true) => FileKind::SessionMeta,
        (true, false) => FileKind::Session,
        (false, true) => FileKind::SubagentMeta,
        (false, false) => FileKind::Subagent,
    };
    (!stem.is_empty()).then_some((kind, stem))
}

impl Family {
    /// True when `comps[i]` is `projects` under a home and `comps[i + 1]` a project key.
    fn tree_at(&self, comps: &[std::borrow::Cow<'_, str>], i: usize, any_home: bool) -> bool {
        i >= 1
            && comps.get(i).is_some_and(|c| c == "projects")
            && (any_home || (self.is_home)(&comps[i - 1]))
            && comps.get(i + 1).is_some_and(|k| (self.is_project_key)(k))
    }

    /// Recognises a file of the tree by its path. Never touches the file system.
    pub fn locate(&self, path: &Path) -> Option<Location> {
        self.locate_under(path, false)
    }

    /// [`Family::locate`] for a home of any name (a `$CLAUDE_CONFIG_DIR`): the layout
    /// and the project-key rule still apply, the home's name does not. For a caller
    /// that has other grounds to take the folder for a home (the files beside it).
    pub fn locate_in_any_home(&self, path: &Path) -> Option<Location> {
        self.locate_under(path, true)
    }

    fn locate_under(&self, path: &Path, any_home: bool) -> Option<Location> {
        let comps = components(path);
        let n = comps.len();
        let at = |kind, projects: usize, session: String, agent: Option<String>, sub| Location {
            kind,
            home: comps[projects - 1].to_string(),
            project_dir: comps[projects + 1].to_string(),
            session_id: session,
            agent_id: agent,
            subfolder: sub,
        };
        // session files: <home>/projects/<key>/<file>
        if n >= 4 && self.tree_at(&comps, n - 3, any_home) {
            let (kind, stem) = split_name(&comps[n - 1], true)?;
            return Some(at(kind, n - 3, stem.to_string(), None, None));
        }
        // persisted outputs: <home>/projects/<key>/<session>/tool-results/<file>
        if n >= 6
            && comps[n - 2] == "tool-results"
            && self.tree_at(&comps, n - 5, any_home)
            && !comps[n - 3].is_empty()
            && !comps[n - 1].is_empty()
        {
            return Some(at(
                FileKind::ToolResult,
                n - 5,
                comps[n - 3].to_string(),
                None,
                None,
            ));
        }
        // sub-agent files: <home>/projects/<key>/<session>/subagents/[<dir>/...]<file>,
        // the `subagents` nearest the file that sits in a tree
        let deepest = if self.nested_subagents {
            MAX_SUBAGENT_FOLDERS
        } else {
            0
        };
        let sub_at = (0..=deepest)
            .filter_map(|d| n.checked_sub(2 + d))
            .find(|&j| {
                j >= 4
                    && comps[j] == "subagents"
                    && self.tree_at(&comps, j - 3, any_home)
                    && !comps[j - 1].is_empty()
            })?;
        let folders = &comps[sub_at + 1..n - 1];
        let subfolder = (!folders.is_empty()).then(|| folders.join("/"));
        let (kind, stem) = split_name(&comps[n - 1], false)?;
        if !is_agent_id(stem) {
            return None;
        }
        Some(at(
            kind,
            sub_at - 3,
            comps[sub_at - 1].to_string(),
            Some(stem.to_string()),
            subfolder,
        ))
    }
}

/// The path of a sibling file: `path` with its last component replaced by `name`.
pub fn sibling(path: &Path, name: &str) -> PathBuf {
    path.with_file_name(name)
}

/// The display form of a sibling: `display` with its last `/`- or `\`-separated
/// component replaced by `rel` (itself `/`-separated; a `\` display keeps `\`).
pub fn sibling_display(display: &str, rel: &str) -> String {
    let display = chat_rows::evidence::plain_display(display);
    match display.rfind(['/', '\\']) {
        Some(i) => {
            let sep = &display[i..=i];
            format!("{}{}", &display[..=i], rel.replace('/', sep))
        }
        None => rel.to_string(),
    }
}

/// The display form of a path `up` components above `display`, then down `rel`
/// (`/`-separated; written with the separator `display` uses).
pub fn relative_display(display: &str, up: usize, rel: &str) -> String {
    let display = chat_rows::evidence::plain_display(display);
    let sep = display.rfind(['/', '\\']).map_or("/", |i| &display[i..=i]);
    let mut base = display;
    for _ in 0..up {
        base = base.rfind(['/', '\\']).map_or("", |i| &base[..i]);
    }
    let rel = rel.replace('/', sep);
    if base.is_empty() {
        rel
    } else {
        format!("{base}{sep}{rel}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Family = Family {
        is_home: |h| h == ".home",
        is_project_key: |k| k.starts_with('k'),
        nested_subagents: true,
    };

    #[test]
    fn the_layout_with_and_without_a_subagent_folder() {
        let l = TEST
            .locate(Path::new("/x/.home/projects/k1/s1/subagents/agent-a.jsonl"))
            .unwrap();
        assert_eq!(
            (l.kind, l.session_id.as_str(), l.subfolder),
            (FileKind::Subagent, "s1", None)
        );
        let p = Path::new("/x/.home/projects/k1/s1/subagents/workflows/agent-a.meta.json");
        let l = TEST.locate(p).unwrap();
        assert_eq!(l.kind, FileKind::SubagentMeta);
        assert_eq!(l.subfolder.as_deref(), Some("workflows"));
        assert_eq!(l.project_folder(p), Path::new("/x/.home/projects/k1"));
        assert_eq!(l.stem(), "agent-a");
        let flat = Family {
            nested_subagents: false,
            ..TEST
        };
        assert_eq!(flat.locate(p), None);
        // any depth below `subagents/`, up to the bound
        let p = Path::new("/x/.home/projects/k1/s1/subagents/workflows/run-1/step/agent-a.jsonl");
        let l = TEST.locate(p).unwrap();
        assert_eq!(
            (l.kind, l.session_id.as_str(), l.subfolder.as_deref()),
            (FileKind::Subagent, "s1", Some("workflows/run-1/step"))
        );
        assert_eq!(l.subfolder_depth(), 3);
        assert_eq!(l.project_folder(p), Path::new("/x/.home/projects/k1"));
        assert_eq!(flat.locate(p), None);
        let deep = |d: usize| {
            let dirs = vec!["d"; d].join("/");
            TEST.locate(Path::new(&format!(
                "/x/.home/projects/k1/s1/subagents/{dirs}/agent-a.jsonl"
            )))
        };
        assert_eq!(
            deep(MAX_SUBAGENT_FOLDERS).map(|l| l.subfolder_depth()),
            Some(MAX_SUBAGENT_FOLDERS)
        );
        assert_eq!(deep(MAX_SUBAGENT_FOLDERS + 1), None);
        // a `subagents` folder that is not a session's is not a sub-agent's
        assert_eq!(
            TEST.locate(Path::new("/x/.home/projects/k1/subagents/agent-a.jsonl")),
            None
        );
        assert_eq!(TEST.locate(Path::new("/x/.home/projects/z1/s.jsonl")), None);
        assert_eq!(
            TEST.locate(Path::new("/x/.other/projects/k1/s.jsonl")),
            None
        );
    }

    #[test]
    fn display_paths() {
        assert_eq!(
            relative_display("a/b/p/s/subagents/agent-1.jsonl", 3, "s.jsonl"),
            "a/b/p/s.jsonl"
        );
        assert_eq!(relative_display(r"a\p\s.jsonl", 1, "x/y"), r"a\p\x\y");
        assert_eq!(relative_display("s.jsonl", 1, "x"), "x");
    }
}
