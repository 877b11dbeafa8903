//! The [`Row`] and its enums.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::when::Timestamp;

/// What kind of turn a row records.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum TurnType {
    /// A prompt the user typed (or a message sent on the user's behalf).
    User,
    /// A reply of the assistant.
    Assistant,
    /// A fact about the session that is not a turn: `parser:`, `model:`, `permission ...:` rows.
    #[default]
    System,
    /// A tool call the assistant made.
    ToolUse,
    /// The result of a tool call.
    ToolResult,
    /// The assistant's reasoning, where the store keeps it.
    Thinking,
}

impl TurnType {
    /// Every turn type, in the order the summary prints them.
    pub const ALL: [TurnType; 6] = [
        TurnType::User,
        TurnType::Assistant,
        TurnType::System,
        TurnType::ToolUse,
        TurnType::ToolResult,
        TurnType::Thinking,
    ];

    /// The name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            TurnType::User => "user",
            TurnType::Assistant => "assistant",
            TurnType::System => "system",
            TurnType::ToolUse => "tool_use",
            TurnType::ToolResult => "tool_result",
            TurnType::Thinking => "thinking",
        }
    }
}

impl fmt::Display for TurnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a row is what the store shows now, or something the file still holds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum RecordState {
    /// Part of the store's current state.
    #[default]
    Live,
    /// Deleted from the store, found in freed space (old WAL frames, freelist pages, freeblocks).
    Deleted,
    /// Removed or replaced by a later write of the same file (an older log line, an older page).
    Recovered,
    /// From a secondary source (a backup, a copy, an index) that repeats a primary one.
    Secondary,
}

impl RecordState {
    /// The name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordState::Live => "live",
            RecordState::Deleted => "deleted",
            RecordState::Recovered => "recovered",
            RecordState::Secondary => "secondary",
        }
    }
}

impl fmt::Display for RecordState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a row's time is known to be UTC.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    /// The time is UTC (the store recorded a zone, or an epoch value).
    #[default]
    Utc,
    /// The store recorded a local wall-clock time without a zone and no host zone was supplied.
    /// The time is shown as written, without `Z`, and must never be read as UTC.
    Unknown,
}

impl Zone {
    /// The name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Zone::Utc => "utc",
            Zone::Unknown => "unknown",
        }
    }
}

/// One evidence row: a turn or a system fact, with the exact place it came from.
///
/// The field names are the column names of every output format; the tools that read
/// this project's output rely on them. Build rows with [`Row::new`] and the chained
/// setters; the text of system rows comes from [`crate::system`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// When the turn happened; `None` when the store recorded no time (never epoch 0).
    pub timestamp: Option<Timestamp>,
    /// The evidence host, from the collection layout (empty when unknown).
    pub host: String,
    /// The account whose home the file sits in (empty when unknown).
    pub user: String,
    /// `vscode` or the fork's id (`cursor`, `vscodium`, `windsurf`...), `cody`, `tabby`, `copilot`, `codebuddy`.
    pub agent: String,
    /// The store's session, conversation or thread id.
    pub session_id: String,
    /// The project (working directory or repository) the session ran in.
    pub project_path: String,
    /// The git branch, where recorded.
    pub git_branch: String,
    /// The kind of turn.
    pub turn_type: TurnType,
    /// The model, where recorded for the turn.
    pub model: String,
    /// The tool of a tool_use or tool_result row.
    pub tool_name: String,
    /// The id that joins a tool call to its result.
    pub tool_use_id: String,
    /// The turn's text, or the system row's text.
    pub text: String,
    /// The file the row came from, as found under the evidence root.
    pub source_file: String,
    /// The 1-based line in `source_file`, for line-oriented files.
    pub source_line: Option<u64>,
    /// The exact place: `byte 18233`, `ItemTable key=...`, `table thread_messages rowid 72`,
    /// `wal frame 12`, `chunk 3 page 0x4000122`.
    pub source_locator: String,
    /// Live, deleted, recovered or secondary.
    pub record_state: RecordState,
    /// True for rows from a secondary source.
    pub secondary: bool,
}

impl Row {
    /// A row of the given agent, turn type and text; every other field empty.
    pub fn new(agent: impl Into<String>, turn_type: TurnType, text: impl Into<String>) -> Row {
        Row {
            agent: agent.into(),
            turn_type,
            text: text.into(),
            ..Row::default()
        }
    }

    /// A system row (its text should come from [`crate::system`]).
    pub fn system(agent: impl Into<String>, text: impl Into<String>) -> Row {
        Row::new(agent, TurnType::System, text)
    }

    /// Sets the time.
    pub fn at(mut self, timestamp: Option<Timestamp>) -> Row {
        self.timestamp = timestamp;
        self
    }

    /// Sets the session id.
    pub fn session(mut self, session_id: impl Into<String>) -> Row {
        self.session_id = session_id.into();
        self
    }

    /// Sets the project path.
    pub fn project(mut self, project_path: impl Into<String>) -> Row {
        self.project_path = project_path.into();
        self
    }

    /// Sets the git branch.
    pub fn branch(mut self, git_branch: impl Into<String>) -> Row {
        self.git_branch = git_branch.into();
        self
    }

    /// Sets the model.
    pub fn model(mut self, model: impl Into<String>) -> Row {
        self.model = model.into();
        self
    }

    /// Sets the tool name and the tool-use id.
    pub fn tool(mut self, tool_name: impl Into<String>, tool_use_id: impl Into<String>) -> Row {
        self.tool_name = tool_name.into();
        self.tool_use_id = tool_use_id.into();
        self
    }

    /// Sets the source file.
    pub fn file(mut self, source_file: impl Into<String>) -> Row {
        self.source_file = source_file.into();
        self
    }

    /// Sets the 1-based source line.
    pub fn line(mut self, line: u64) -> Row {
        self.source_line = Some(line);
        self
    }

    /// Sets the source locator.
    pub fn locator(mut self, locator: impl Into<String>) -> Row {
        self.source_locator = locator.into();
        self
    }

    /// Sets the record state. [`RecordState::Secondary`] also sets `secondary`.
    pub fn state(mut self, state: RecordState) -> Row {
        self.record_state = state;
        if state == RecordState::Secondary {
            self.secondary = true;
        }
        self
    }

    /// Marks the row as coming from a secondary source. A live row becomes
    /// [`RecordState::Secondary`]; a deleted or recovered one keeps its state.
    pub fn secondary(mut self, secondary: bool) -> Row {
        self.secondary = secondary;
        if secondary && self.record_state == RecordState::Live {
            self.record_state = RecordState::Secondary;
        }
        self
    }

    /// The zone of the row's time, if it has one.
    pub fn zone(&self) -> Option<Zone> {
        self.timestamp.map(|t| t.zone())
    }

    /// True for a `parser:` system row.
    pub fn is_parser(&self) -> bool {
        self.turn_type == TurnType::System && self.text.starts_with("parser:")
    }
}

/// The flat serialized form of a row, in the fixed column order.
#[derive(Serialize, Deserialize)]
struct RowRepr {
    timestamp_utc: String,
    timestamp_zone: String,
    host: String,
    user: String,
    agent: String,
    session_id: String,
    project_path: String,
    git_branch: String,
    turn_type: TurnType,
    model: String,
    tool_name: String,
    tool_use_id: String,
    text: String,
    source_file: String,
    source_line: Option<u64>,
    source_locator: String,
    record_state: RecordState,
    secondary: bool,
}

/// The column names, in output order.
pub(crate) const COLUMNS: [&str; 18] = [
    "timestamp_utc",
    "timestamp_zone",
    "host",
    "user",
    "agent",
    "session_id",
    "project_path",
    "git_branch",
    "turn_type",
    "model",
    "tool_name",
    "tool_use_id",
    "text",
    "source_file",
    "source_line",
    "source_locator",
    "record_state",
    "secondary",
];

impl Row {
    /// The column values, in the order of [`Row::columns`], as output strings.
    pub fn values(&self) -> [String; 18] {
        [
            self.timestamp.map(|t| t.to_string()).unwrap_or_default(),
            self.zone()
                .map(|z| z.as_str().to_string())
                .unwrap_or_default(),
            self.host.clone(),
            self.user.clone(),
            self.agent.clone(),
            self.session_id.clone(),
            self.project_path.clone(),
            self.git_branch.clone(),
            self.turn_type.as_str().to_string(),
            self.model.clone(),
            self.tool_name.clone(),
            self.tool_use_id.clone(),
            self.text.clone(),
            self.source_file.clone(),
            self.source_line.map(|l| l.to_string()).unwrap_or_default(),
            self.source_locator.clone(),
            self.record_state.as_str().to_string(),
            self.secondary.to_string(),
        ]
    }

    /// The column names of every output format, in order.
    pub fn columns() -> &'static [&'static str; 18] {
        &COLUMNS
    }
}

impl Serialize for Row {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A borrowed twin of RowRepr would avoid these clones; rows are small next to
        // the cost of writing them, so the simple form wins.
        RowRepr {
            timestamp_utc: self.timestamp.map(|t| t.to_string()).unwrap_or_default(),
            timestamp_zone: self
                .zone()
                .map(|z| z.as_str().to_string())
                .unwrap_or_default(),
            host: self.host.clone(),
            user: self.user.clone(),
            agent: self.agent.clone(),
            session_id: self.session_id.clone(),
            project_path: self.project_path.clone(),
            git_branch: self.git_branch.clone(),
            turn_type: self.turn_type,
            model: self.model.clone(),
            tool_name: self.tool_name.clone(),
            tool_use_id: self.tool_use_id.clone(),
            text: self.text.clone(),
            source_file: self.source_file.clone(),
            source_line: self.source_line,
            source_locator: self.source_locator.clone(),
            record_state: self.record_state,
            secondary: self.secondary,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let r = RowRepr::deserialize(deserializer)?;
        let zone = match r.timestamp_zone.as_str() {
            "unknown" => Zone::Unknown,
            _ => Zone::Utc,
        };
        let timestamp = if r.timestamp_utc.is_empty() {
            None
        } else {
            Some(
                Timestamp::parse_output(&r.timestamp_utc, zone)
                    .ok_or_else(|| serde::de::Error::custom("bad timestamp_utc"))?,
            )
        };
        Ok(Row {
            timestamp,
            host: r.host,
            user: r.user,
            agent: r.agent,
            session_id: r.session_id,
            project_path: r.project_path,
            git_branch: r.git_branch,
            turn_type: r.turn_type,
            model: r.model,
            tool_name: r.tool_name,
            tool_use_id: r.tool_use_id,
            text: r.text,
            source_file: r.source_file,
            source_line: r.source_line,
            source_locator: r.source_locator,
            record_state: r.record_state,
            secondary: r.secondary,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_in_fixed_order_with_empty_time() {
        let row = Row::new("vscode", TurnType::User, "hi")
            .session("s1")
            .file("a.jsonl")
            .line(3)
            .locator("byte 10");
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(
            json,
            r#"{"timestamp_utc":"","timestamp_zone":"","host":"","user":"","agent":"vscode","session_id":"s1","project_path":"","git_branch":"","turn_type":"user","model":"","tool_name":"","tool_use_id":"","text":"hi","source_file":"a.jsonl","source_line":3,"source_locator":"byte 10","record_state":"live","secondary":false}"#
        );
        let back: Row = serde_json::from_str(&json).unwrap();
        assert_eq!(back, row);
    }

    #[test]
    fn secondary_marks_state() {
        let row = Row::system("tabby", "x").secondary(true);
        assert_eq!(row.record_state, RecordState::Secondary);
        let row = Row::system("tabby", "x")
            .state(RecordState::Deleted)
            .secondary(true);
        assert_eq!(row.record_state, RecordState::Deleted);
        assert!(row.secondary);
    }

    #[test]
    fn round_trips_unknown_zone() {
        let ts = crate::when::parse_iso8601("2024-01-31T01:06:18.524621", None).unwrap();
        let row = Row::new("cody", TurnType::User, "q").at(Some(ts));
        let json = serde_json::to_string(&row).unwrap();
        assert!(json.contains(
            r#""timestamp_utc":"2024-01-31T01:06:18.524621","timestamp_zone":"unknown""#
        ));
        let back: Row = serde_json::from_str(&json).unwrap();
        assert_eq!(back, row);
    }
}
