//! `<persisted-output>` stubs and the `tool-results/` files they point to.
//!
//! A tool result too large for the transcript is written to
//! `<key>/<session>/tool-results/<name>` and the transcript keeps a stub that says
//! `Full output saved to: <path on the original host>`. The path is the writer's, not
//! the evidence's, so it is mapped into the evidence by its components after
//! `projects/<key>/`; a `..` in it is refused, and a path that does not resolve inside
//! the session's own `<session>/tool-results/` (another session's outputs, a file of
//! the project folder) is kept as a pointer and never read, so a stub can never make
//! the reader leave the session folder. [`Resolver`] reads what stubs point to and remembers
//! which files it read, so that the outputs no readable line points to (the stub's
//! line is damaged, or only a sub-agent points to it) are still read as rows.

use std::cell::RefCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chat_rows::Evidence;

/// A `<persisted-output>` pointer found in a tool result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistedPointer {
    /// The path as the pointer writes it (on the original host).
    pub written: String,
    /// The path relative to the project folder, `/`-separated:
    /// `<session-id>/tool-results/<name>`.
    pub relative: String,
    /// Why the pointer is not followed, when its path does not resolve inside the
    /// session's own `tool-results/` folder (the file is then never read).
    pub refused: Option<String>,
}

/// What became of a `<persisted-output>` pointer's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Persisted {
    /// The file was read: its text replaces the pointer.
    Found {
        /// The persisted output.
        text: String,
    },
    /// The file is not in the evidence (or could not be read): the pointer is kept.
    Missing {
        /// Why, for the row.
        reason: String,
    },
}

/// Finds a `<persisted-output>` pointer and the file it names. The path is taken from
/// the pointer's `saved to:` phrase, else from any token that holds a `tool-results`
/// component; it is mapped into the evidence by its components after
/// `projects/<key>/` (or `<session>/tool-results/...` when the pointer has no
/// `projects` component). A path with `..` is not a pointer. A path that does not
/// resolve inside `<session_id>/tool-results/` is a pointer with a
/// [`refused`](PersistedPointer::refused) reason, which [`Resolver::lookup`] does not read.
pub fn persisted_pointer(output: &str, session_id: &str) -> Option<PersistedPointer> {
    // the stub is the whole output: a tag quoted inside other text (a command's output
    // that names a stub) is no pointer (since 2026-12-05; before, the result's own text
    // was replaced by the file it quoted)
    let body = output.trim_start().strip_prefix("<persisted-output>")?;
    let body = body.split("</persisted-output>").next().unwrap_or(body);
    let written = body
        .lines()
        .find_map(|l| {
            let i = l.find("saved to:")?;
            Some(l[i + "saved to:".len()..].trim().to_string())
        })
        .filter(|p| p.contains("tool-results"))
        .or_else(|| {
            body.split_whitespace()
                .find(|t| t.contains("tool-results/") || t.contains("tool-results\\"))
                .map(str::to_string)
        })?;
    let written = written.trim_end_matches(['.', ',', ')']).to_string();
    let comps: Vec<&str> = written
        .split(['/', '\\'])
        .filter(|c| !c.is_empty())
        .collect();
    if comps.iter().any(|c| *c == ".." || *c == ".") {
        return None;
    }
    // the `projects` folder of the home: the one whose key folder holds the session's
    // (a project key may itself be `projects`), else the last
    let home_projects = comps
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, c)| **c == "projects")
        .map(|(i, _)| i)
        .find(|&p| comps.get(p + 2) == Some(&session_id))
        .or_else(|| comps.iter().rposition(|c| *c == "projects"));
    let rel: Vec<&str> = if let Some(p) = home_projects {
        comps.get(p + 2..)?.to_vec()
    } else {
        let t = comps.iter().position(|c| *c == "tool-results")?;
        let mut v = vec![session_id];
        v.extend_from_slice(&comps[t..]);
        v
    };
    if rel.len() < 2 || !rel.contains(&"tool-results") {
        return None;
    }
    let inside = rel.len() >= 3 && rel[0] == session_id && rel[1] == "tool-results";
    Some(PersistedPointer {
        relative: rel.join("/"),
        written,
        refused: (!inside).then(|| outside_reason(session_id)),
    })
}

/// `outside the session's folder <session>/tool-results`: why a pointer to another
/// session's outputs, or to a file of the project folder, is not read.
pub fn outside_reason(session_id: &str) -> String {
    format!("outside the session's folder {session_id}/tool-results")
}

/// `persisted output <rel> not read (<reason>); the result keeps the pointer`.
pub fn missing_text(relative: &str, reason: &str) -> String {
    format!("persisted output {relative} not read ({reason}); the result keeps the pointer")
}

/// `byte <n>, output from <rel>`: the locator of a result whose stub was resolved.
pub fn resolved_locator(offset: u64, relative: &str) -> String {
    format!("byte {offset}, output from {relative}")
}

/// Why a pointer to a file an earlier pointer already resolved is not read again.
pub const REPEATED_REASON: &str = "given in full with an earlier result of this file";

/// Reads the files stubs point to, under one project folder, and remembers them.
pub struct Resolver<'a> {
    folder: PathBuf,
    evidence: &'a Evidence,
    resolved: RefCell<HashSet<String>>,
}

impl<'a> Resolver<'a> {
    /// A resolver for the project folder `folder` (`projects/<key>`).
    pub fn new(folder: PathBuf, evidence: &'a Evidence) -> Resolver<'a> {
        Resolver {
            folder,
            evidence,
            resolved: RefCell::new(HashSet::new()),
        }
    }

    /// The project folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Reads the file a pointer names (and remembers that a line pointed to it). A
    /// [`refused`](PersistedPointer::refused) pointer is not read, nor is a file an
    /// earlier pointer of the same file already gave in full ([`REPEATED_REASON`]): a
    /// line of 2,000 stubs naming one 1.6 MB output wrote 3.5 GB when each was read.
    pub fn lookup(&self, p: &PersistedPointer) -> Persisted {
        if let Some(reason) = &p.refused {
            return Persisted::Missing {
                reason: reason.clone(),
            };
        }
        if !self.resolved.borrow_mut().insert(p.relative.clone()) {
            return Persisted::Missing {
                reason: REPEATED_REASON.to_string(),
            };
        }
        let file = p
            .relative
            .split('/')
            .fold(self.folder.clone(), |acc, c| acc.join(c));
        match self.evidence.read_optional(&file) {
            Ok(Some(bytes)) => Persisted::Found {
                text: String::from_utf8_lossy(&bytes).into_owned(),
            },
            Ok(None) => Persisted::Missing {
                reason: "not in the evidence".to_string(),
            },
            Err(e) => Persisted::Missing {
                reason: e.to_string(),
            },
        }
    }

    /// True when a line pointed to `relative` (`<session>/tool-results/<name>`).
    pub fn was_pointed_to(&self, relative: &str) -> bool {
        self.resolved.borrow().contains(relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers() {
        let out = "<persisted-output>\nOutput too large (52.3KB). Full output saved to: /home/a/.claude/projects/-home-a/s1/tool-results/toolu_1.txt\n\nPreview (first 2KB):\nx\n</persisted-output>";
        assert_eq!(
            persisted_pointer(out, "s1").unwrap().relative,
            "s1/tool-results/toolu_1.txt"
        );
        let out = r"<persisted-output>Full output saved to: C:\Users\c\.claude\projects\C--Users-c\s2\tool-results\b.txt</persisted-output>";
        assert_eq!(
            persisted_pointer(out, "s2").unwrap().relative,
            "s2/tool-results/b.txt"
        );
        assert_eq!(
            persisted_pointer(
                "<persisted-output>saved to: /p/projects/d/../tool-results/x</persisted-output>",
                "s"
            ),
            None
        );
        assert_eq!(persisted_pointer("plain", "s"), None);
    }

    /// Two defects of 2026-12-05: a stub quoted inside other text (a command's output
    /// that shows one) is no pointer, and a project key that is itself `projects` (the
    /// cwd `/projects`) does not hide the home's `projects` folder.
    #[test]
    fn a_quoted_stub_is_no_pointer_and_a_key_named_projects_is_one_folder() {
        let quoted = "Command: grep ...\nStdout: 7:<persisted-output>Full output saved to: /home/u/.codebuddy/projects/home-u-p/s2/tool-results/call_1.txt</persisted-output>\nExit Code: 3";
        assert_eq!(persisted_pointer(quoted, "s2"), None);
        // leading white space is still a stub
        let stub = "\n <persisted-output>Full output saved to: /home/u/.codebuddy/projects/home-u-p/s2/tool-results/call_1.txt</persisted-output>";
        assert_eq!(
            persisted_pointer(stub, "s2").unwrap().relative,
            "s2/tool-results/call_1.txt"
        );
        let key = "<persisted-output>\nFull output saved to: /root/.codebuddy/projects/projects/s3/tool-results/call_1.txt\n</persisted-output>";
        let p = persisted_pointer(key, "s3").unwrap();
        assert_eq!(
            (p.relative.as_str(), p.refused),
            ("s3/tool-results/call_1.txt", None)
        );
    }

    #[test]
    fn a_pointer_outside_the_sessions_own_tool_results_is_refused() {
        let stub = |path: &str| {
            format!("<persisted-output>\nFull output saved to: {path}\n</persisted-output>")
        };
        let refused = |path: &str| {
            let p = persisted_pointer(&stub(path), "s1").unwrap();
            (p.relative, p.refused)
        };
        let outside = Some("outside the session's folder s1/tool-results".to_string());
        assert_eq!(
            refused("/home/u/.claude/projects/-home-u-p/s2/tool-results/secret.txt"),
            ("s2/tool-results/secret.txt".to_string(), outside.clone())
        );
        assert_eq!(
            refused("/home/u/.claude/projects/-home-u-p/tool-results/x.txt"),
            ("tool-results/x.txt".to_string(), outside.clone())
        );
        assert_eq!(
            refused("/home/u/.claude/projects/-home-u-p/s1/sub/tool-results/x.txt"),
            ("s1/sub/tool-results/x.txt".to_string(), outside.clone())
        );
        assert_eq!(
            refused("/home/u/.claude/projects/-home-u-p/s1/tool-results/x.txt"),
            ("s1/tool-results/x.txt".to_string(), None)
        );
        // the resolver reads nothing for a refused pointer, and does not count it as
        // pointed to
        let evidence = Evidence::new();
        let r = Resolver::new(std::env::temp_dir(), &evidence);
        let p =
            persisted_pointer(&stub("/h/.claude/projects/-k/s2/tool-results/a.txt"), "s1").unwrap();
        assert_eq!(
            r.lookup(&p),
            Persisted::Missing {
                reason: "outside the session's folder s1/tool-results".into()
            }
        );
        assert!(!r.was_pointed_to("s2/tool-results/a.txt"));
    }

    #[test]
    fn a_file_pointed_to_again_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("s1/tool-results");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("t.txt"), "the whole output").unwrap();
        let evidence = Evidence::new();
        let r = Resolver::new(dir.path().to_path_buf(), &evidence);
        let p = persisted_pointer(
            "<persisted-output>\nFull output saved to: /h/.claude/projects/-k/s1/tool-results/t.txt\n</persisted-output>",
            "s1",
        )
        .unwrap();
        assert_eq!(
            r.lookup(&p),
            Persisted::Found {
                text: "the whole output".into()
            }
        );
        assert_eq!(
            r.lookup(&p),
            Persisted::Missing {
                reason: REPEATED_REASON.into()
            }
        );
        assert!(r.was_pointed_to("s1/tool-results/t.txt"));
    }
}
