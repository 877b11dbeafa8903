//! Where a session's rows come from: what every row of one file shares.

use chat_rows::{Row, Timestamp, TurnType};

/// The columns a session file's rows share, and the row builder both mappers use.
#[derive(Clone, Debug, Default)]
pub struct Place<'a> {
    /// The agent of every row.
    pub agent: &'a str,
    /// The `source_file` of every row.
    pub source_file: &'a str,
    /// The current session id.
    pub session_id: String,
    /// The current working directory (the project).
    pub cwd: String,
    /// The current git branch.
    pub branch: String,
    /// True when every row of the file is a secondary copy.
    pub secondary: bool,
}

impl Place<'_> {
    /// A row at a line: `line`, `byte <offset>`, the session, project and branch.
    pub fn row(
        &self,
        line: u64,
        offset: u64,
        ts: Option<Timestamp>,
        turn: TurnType,
        text: impl Into<String>,
    ) -> Row {
        Row::new(self.agent, turn, text)
            .at(ts)
            .session(self.session_id.clone())
            .project(self.cwd.clone())
            .branch(self.branch.clone())
            .file(self.source_file)
            .line(line)
            .locator(format!("byte {offset}"))
            .secondary(self.secondary)
    }

    /// The `parser:` row of a pass over the file that did not read it to its end
    /// ([`crate::Error::Midway`], located at the byte it failed at) or found it changed
    /// ([`crate::Error::Changed`]): after the rows of the lines before, with the session,
    /// project and branch in effect there.
    pub fn pass_failed(&self, e: crate::Error) -> Row {
        let e = e.with_display(self.source_file);
        let locator = match e.offset() {
            Some(offset) => format!("byte {offset}"),
            None => "whole file".to_string(),
        };
        Row::system(self.agent, chat_rows::system::parser(&e))
            .session(self.session_id.clone())
            .project(self.cwd.clone())
            .branch(self.branch.clone())
            .file(self.source_file)
            .locator(locator)
            .secondary(self.secondary)
    }

    /// A row of the file as a whole (a side file, a path), with the session and project.
    pub fn file_row(&self, file: &str, locator: &str, text: impl Into<String>) -> Row {
        Row::system(self.agent, text)
            .session(self.session_id.clone())
            .project(self.cwd.clone())
            .file(file)
            .locator(locator)
    }
}
