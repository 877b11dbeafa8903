//! The files around a session: meta side files, persisted outputs, and what remains
//! when the session file itself is gone.
//!
//! A session is one `.jsonl` with side files beside and below it. The reader reads the
//! side files *with* the session (a meta file gives the first row, a persisted output
//! replaces its stub), and reads them *alone* only when their session file is not in
//! the evidence: then they are all that remains of the session, and a row says so.

use std::path::{Path, PathBuf};

use chat_rows::evidence::EntryKind;
use chat_rows::system::{self, key_values};
use chat_rows::{Evidence, Row, TurnType};
use serde_json::{Map, Value};

use crate::locate::{FileKind, Location, relative_display, sibling, sibling_display};
use crate::log::{Error, meta_object, scalar};
use crate::persisted::Resolver;
use crate::secret;

/// One file of a session tree, with what its path says and how it is shown.
pub struct SessionFiles<'a> {
    /// The file.
    pub path: &'a Path,
    /// What its path says.
    pub loc: Location,
    /// Its `source_file`.
    pub display: &'a str,
    /// The gateway every read goes through.
    pub evidence: &'a Evidence,
    /// The agent of its rows.
    pub agent: &'a str,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A meta object's top-level fields as `key=value` pairs, sorted by key, without its
/// secrets: a key that names one (`apiKey`, `authToken`, `env`, `headers` ... see
/// [`secret::names_secret`]) prints `key=[withheld]`, and inside an object or array
/// value such keys and token-like texts are withheld the same way
/// ([`secret::withhold`]).
pub fn flatten(map: &Map<String, Value>) -> String {
    let pairs: Vec<(String, String)> = map
        .iter()
        .map(|(k, v)| {
            let value = if secret::withholds(k) {
                secret::WITHHELD.to_string()
            } else {
                scalar(&secret::withhold(v))
            };
            (secret::shown_key(k).to_string(), value)
        })
        .collect();
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    key_values(&refs)
}

/// `session start: parent=<folder> agent_file=<agent> parent_from=path`: a sub-agent
/// whose meta file is not there, linked by its folder only.
pub fn subagent_start_from_path(folder_session: &str, agent_file: &str) -> String {
    system::session_start(&[
        ("parent", folder_session),
        ("agent_file", agent_file),
        ("parent_from", "path"),
    ])
}

impl<'a> SessionFiles<'a> {
    /// The file at `path` as `family` recognises it, or a main session named by its stem.
    pub fn new(
        path: &'a Path,
        loc: Option<Location>,
        display: &'a str,
        evidence: &'a Evidence,
        agent: &'a str,
    ) -> SessionFiles<'a> {
        SessionFiles {
            path,
            loc: loc.unwrap_or_else(|| Location::fallback(path)),
            display,
            evidence,
            agent,
        }
    }

    /// The project folder (`projects/<key>`).
    pub fn folder(&self) -> PathBuf {
        self.loc.project_folder(self.path)
    }

    /// A resolver of persisted outputs under the project folder.
    pub fn resolver(&self) -> Resolver<'a> {
        Resolver::new(self.folder(), self.evidence)
    }

    /// The `parser:` row of a session file that cannot be read, naming the display path.
    pub fn unreadable(&self, e: Error, session_id: &str) -> Row {
        let e = e.with_display(self.display);
        let row = Row::system(self.agent, system::parser(&e))
            .session(session_id)
            .file(self.display);
        match e {
            Error::Midway { offset, .. } => row.locator(format!("byte {offset}")),
            _ => row,
        }
    }

    /// The name of the session's or sub-agent's meta side file.
    pub fn meta_name(&self) -> String {
        format!("{}.meta.json", self.loc.stem())
    }

    /// The meta side file's display path.
    pub fn meta_display(&self) -> String {
        sibling_display(self.display, &self.meta_name())
    }

    /// Reads the meta side file beside a session file: `None` when absent,
    /// `Err(row)` for a `parser:` row.
    pub fn session_meta(&self) -> Option<Result<Map<String, Value>, Row>> {
        let path = sibling(self.path, &self.meta_name());
        read_meta(&path, &self.meta_display(), self.evidence, self.agent)
    }

    /// True when the parent session file of a sub-agent (`<folder>/<session>.jsonl`)
    /// is in the evidence.
    pub fn parent_session_exists(&self) -> bool {
        let file = self.folder().join(format!("{}.jsonl", self.loc.session_id));
        self.evidence.status(&file, true).is_some()
    }

    /// The display path of the parent session file of a sub-agent.
    pub fn parent_display(&self) -> String {
        let up = 3 + self.loc.subfolder_depth();
        relative_display(self.display, up, &format!("{}.jsonl", self.loc.session_id))
    }

    /// The persisted outputs of a main session that no readable line pointed to (a
    /// damaged stub line, or a sub-agent's output): a `tool_result` row each, then
    /// `persisted output <rel> is not pointed to by any readable line of the session file`.
    /// The call id is the file's stem; `tool` names its tool.
    pub fn unreferenced_outputs(
        &self,
        resolver: &Resolver<'_>,
        session_id: &str,
        cwd: &str,
        tool: &dyn Fn(&str) -> Option<String>,
        sink: &mut dyn FnMut(Row),
    ) {
        let dir = self
            .folder()
            .join(&self.loc.session_id)
            .join("tool-results");
        for name in list_files(&dir, self.evidence) {
            let rel = format!("{}/tool-results/{name}", self.loc.session_id);
            if resolver.was_pointed_to(&rel) {
                continue;
            }
            let file_display = sibling_display(self.display, &rel);
            let call_id = name.split('.').next().unwrap_or("");
            let tool = tool(call_id);
            let tool = tool.as_deref();
            sink(self.output_row(
                &dir.join(&name),
                &name,
                &file_display,
                session_id,
                cwd,
                tool,
            ));
            sink(
                Row::system(
                    self.agent,
                    format!("persisted output {rel} is not pointed to by any readable line of the session file"),
                )
                .tool(tool.unwrap_or(""), call_id)
                .session(session_id)
                .project(cwd)
                .file(&file_display)
                .locator("path"),
            );
        }
    }

    /// A persisted output read on its own: one `tool_result` row (the call id is the
    /// file's stem), or a `parser:` row when it cannot be read.
    fn output_row(
        &self,
        path: &Path,
        name: &str,
        display: &str,
        session_id: &str,
        cwd: &str,
        tool: Option<&str>,
    ) -> Row {
        let call_id = name.split('.').next().unwrap_or(name);
        match self.evidence.read(path) {
            Ok(bytes) => Row::new(
                self.agent,
                TurnType::ToolResult,
                String::from_utf8_lossy(&bytes).into_owned(),
            )
            .tool(tool.unwrap_or(""), call_id)
            .session(session_id)
            .project(cwd)
            .file(display)
            .locator("whole file"),
            Err(e) => Row::system(
                self.agent,
                system::parser(Error::Io {
                    path: PathBuf::from(display),
                    reason: e.to_string(),
                }),
            )
            .session(session_id)
            .project(cwd)
            .file(display),
        }
    }

    /// A persisted output whose session file is gone: its `tool_result` row and
    /// `session file missing: <id>.jsonl (only its persisted tool output <name> remains)`.
    /// Nothing when the session file is there (it reads the output).
    pub fn orphan_tool_result(&self) -> Vec<Row> {
        let session_file = format!("{}.jsonl", self.loc.session_id);
        if self
            .evidence
            .status(&self.folder().join(&session_file), true)
            .is_some()
        {
            return Vec::new();
        }
        let name = file_name(self.path);
        let sid = &self.loc.session_id;
        vec![
            self.output_row(self.path, &name, self.display, sid, "", None),
            Row::system(
                self.agent,
                format!("session file missing: {session_file} (only its persisted tool output {name} remains)"),
            )
            .session(sid.clone())
            .file(self.display)
            .locator("path"),
        ]
    }

    /// A meta side file whose session file is gone: its own row (`text` of the object)
    /// and `session file missing: <stem>.jsonl (only its meta file remains)`, both with
    /// the file stem as their session. Nothing when the session file is there (it reads
    /// the meta file).
    pub fn orphan_meta(&self, text: &dyn Fn(&Map<String, Value>) -> String) -> Vec<Row> {
        self.orphan_meta_of(self.loc.stem(), text)
    }

    /// [`SessionFiles::orphan_meta`] with the rows' session given: the session id the
    /// rows of the missing file would have had (Claude Code names a sub-agent's rows
    /// `<parent session>:agent-<id>`).
    pub fn orphan_meta_of(
        &self,
        session_id: &str,
        text: &dyn Fn(&Map<String, Value>) -> String,
    ) -> Vec<Row> {
        let session_file = format!("{}.jsonl", self.loc.stem());
        if self
            .evidence
            .status(&sibling(self.path, &session_file), true)
            .is_some()
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        match read_meta(self.path, self.display, self.evidence, self.agent) {
            None => {}
            Some(Err(row)) => out.push(row.session(session_id)),
            Some(Ok(map)) => out.push(
                Row::system(self.agent, text(&map))
                    .session(session_id)
                    .file(self.display)
                    .locator("whole file"),
            ),
        }
        out.push(
            Row::new(
                self.agent,
                TurnType::System,
                format!("session file missing: {session_file} (only its meta file remains)"),
            )
            .session(session_id)
            .file(self.display)
            .locator("path"),
        );
        out
    }

    /// Whether the file is a meta file, a persisted output, or a session or sub-agent.
    pub fn kind(&self) -> FileKind {
        self.loc.kind
    }
}

/// The names of the plain files in `dir`, sorted (none when it does not exist).
pub fn list_files(dir: &Path, evidence: &Evidence) -> Vec<String> {
    let Ok(entries) = evidence.read_dir(dir) else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter(|p| evidence.status(p, false) == Some(EntryKind::File))
        .map(|p| file_name(&p))
        .collect()
}

/// Reads a JSON side file that must be an object: `None` when absent, `Err(row)` for
/// its `parser:` row (`parser: <name> is not a JSON object (<reason>)`).
pub fn read_meta(
    path: &Path,
    display: &str,
    evidence: &Evidence,
    agent: &str,
) -> Option<Result<Map<String, Value>, Row>> {
    match evidence.read_optional(path) {
        Ok(None) => None,
        Ok(Some(bytes)) => Some(meta_object(&bytes, path).map_err(|e| {
            let reason = match e {
                Error::Sidecar { reason, .. } => reason,
                other => other.to_string(),
            };
            Row::system(
                agent,
                system::not_json_object_because(file_name(path), reason),
            )
            .file(display)
            .locator("whole file")
        })),
        Err(e) => Some(Err(Row::system(
            agent,
            system::parser(Error::Io {
                path: PathBuf::from(display),
                reason: e.to_string(),
            }),
        )
        .file(display))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flatten_withholds_secret_keys_at_any_depth() {
        let map = serde_json::from_str::<Value>(
            r#"{"permissionMode":"default","apiKey":"sk-live-SECRET123","authToken":"ghp_SECRETTOKEN",
                "env":{"A":"planted-1"},"mcp":{"env":{"X":"planted-DoNotEmit"},"name":"srv"},
                "note":"sk-planted-2","tags":["checkout"]}"#,
        )
        .unwrap();
        let Value::Object(map) = map else {
            unreachable!()
        };
        assert_eq!(
            flatten(&map),
            r#"apiKey=[withheld] authToken=[withheld] env=[withheld] mcp="{\"env\":\"[withheld]\",\"name\":\"srv\"}" note=[withheld] permissionMode=default tags="[\"checkout\"]""#
        );
    }
}
