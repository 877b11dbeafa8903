//! The formats: the event envelope shared by CLI logs and VS Code transcripts, the
//! flat `workspace.yaml`, and the helpers the mapping needs (compact JSON in file
//! order, epoch-or-ISO times).
//!
//! Why one typed pass per line: a CLI log grows to hundreds of megabytes, and the
//! mapping needs only a few fields out of each event. Each line is decoded once into
//! [`Event`]: the envelope's `type` comes first, so its `data` is decoded straight into
//! the small struct of that type ([`Data`]), its strings borrowed from the line where no
//! unescaping is needed, every field the type does not read skipped unread (a field
//! of an unexpected type that the type does not read is therefore no longer an error).
//! The private `scan` module does this by hand for every line (see its docs for why);
//! the serde derives below read the lines it gives up on, with the same results.
//! Only the rare types that become a generic `session event:` row are decoded a second
//! time (to print their data in file order). A line whose `data` does not fit its type's
//! shape (a field it reads of an unexpected type) is not lost: it becomes a
//! `session event:` row with the whole data and a `parser:` row saying what did not fit.

use std::borrow::Cow;
use std::collections::BTreeMap;

use chat_rows::Timestamp;

pub(crate) mod asset_line;
pub(crate) mod scan;
use serde::de::{self, DeserializeSeed, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// Everything that can go wrong in this crate, with where it happened.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A line of an event log is not JSON (or not UTF-8).
    #[error("unparseable line {line} at byte {offset} ({reason})")]
    Line {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A line is JSON but its `data` does not have the shape of its type.
    #[error("unexpected shape of {event_type} at byte {offset} ({reason})")]
    Shape {
        /// The event type.
        event_type: String,
        /// Byte offset of the line.
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A side file is not a JSON object.
    #[error("{what} is not a JSON object ({reason})")]
    NotObject {
        /// The file's name.
        what: String,
        /// Byte offset of the failure (0 for the whole file).
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The file, as displayed.
        path: String,
        /// Byte offset (0: the read failed as a whole).
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A SQLite store could not be opened or read.
    #[error("{file} unreadable: {message}")]
    Sqlite {
        /// `session-store.db` or `agent-traces.db`.
        file: String,
        /// Byte offset (0 when the failure is of the file as a whole).
        offset: u64,
        /// Why.
        message: String,
    },
}

/// One line of an event log: the envelope and the `data` its type needs.
///
/// Decoded in one pass: `type` comes first in every line Copilot writes, so `data` is
/// decoded straight into the type's own small struct ([`Data`]); the few fields the
/// mapping reads are borrowed from the line where they need no unescaping, every other
/// field is skipped unread. A line whose `data` comes before its `type` is decoded a
/// second time knowing its type ([`event`] does it).
#[derive(Debug, Default)]
pub struct Event<'a> {
    /// The event type (`user.message`, `tool.execution_start` ...).
    pub kind: Cow<'a, str>,
    /// The event's data, as its type reads it.
    pub data: Data<'a>,
    /// The event id.
    pub id: Option<Str<'a>>,
    /// ISO 8601 UTC time.
    pub timestamp: Option<Str<'a>>,
    /// A sub-agent instance.
    pub agent_id: Option<Str<'a>>,
    /// True for an event the schema marks as not persisted.
    pub ephemeral: Option<bool>,
}

/// A JSON string, borrowed from the line unless it had escapes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Str<'a>(pub Cow<'a, str>);

impl std::ops::Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

struct CowVisitor;

impl<'de> Visitor<'de> for CowVisitor {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_string(CowVisitor).map(Str)
    }
}

/// A JSON value as written in the line: what serde_json's `&RawValue` holds, kept as
/// its text (the scanner gives the slice it validated, without a second parse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raw<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Raw<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(d).map(|r| Raw(r.get()))
    }
}

/// A string field that may also be written as a number or boolean (kept as text).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Text<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // the same texts and errors as an untagged enum of string, i64, f64 and bool: a
        // value of another type is read whole, then refused (the error's position is
        // then set by the enclosing struct, as the untagged enum's was)
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Option<Cow<'de, str>>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string, number or boolean")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Some(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(match i64::try_from(v) {
                    Ok(i) => i.to_string(),
                    Err(_) => (v as f64).to_string(),
                })))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Some(Cow::Owned(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(None)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(None)
            }
        }
        match d.deserialize_any(V)? {
            Some(t) => Ok(Text(t)),
            None => Err(de::Error::custom(
                "data did not match any variant of untagged enum Any",
            )),
        }
    }
}

/// The `data` of an event, in the shape its type reads; [`Data::Other`] for the types
/// whose rows need none of it (generic `session event:` rows, unknown types).
#[allow(missing_docs)]
#[derive(Debug, Default)]
pub enum Data<'a> {
    #[default]
    Other,
    Start(StartData<'a>),
    Resume(ResumeData<'a>),
    User(UserData<'a>),
    TurnStart(ModelData<'a>),
    TurnEnd(ModelData<'a>),
    Reasoning(ContentData<'a>),
    Message(MessageData<'a>),
    ToolStart(ToolStartData<'a>),
    ToolComplete(ToolCompleteData<'a>),
    ModelChange(ModelChangeData<'a>),
    ModeChanged(ModeData<'a>),
    PermissionsChanged(ModeData<'a>),
    PermissionRequested(PermissionRequestedData<'a>),
    PermissionCompleted(PermissionCompletedData<'a>),
    Info(InfoData<'a>),
    Warning(InfoData<'a>),
    Error(InfoData<'a>),
    Abort(AbortData<'a>),
    Compaction(CompactionData<'a>),
    Truncation(TruncationData),
    ContextChanged(ContextChangedData<'a>),
    ContextCleared(ClearedData),
    Handoff(HandoffData<'a>),
    Subagent(SubagentData<'a>),
    HookEnd(HookData<'a>),
    Skill(SkillData<'a>),
    SystemMessage(SystemData<'a>),
    SystemNotification(SystemData<'a>),
    Shutdown(ShutdownData<'a>),
    Usage(UsageData<'a>),
    BinaryAsset(BinaryAssetData<'a>),
}

/// Which [`Data`] a type reads (a type not named here reads none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Other,
    Start,
    Resume,
    User,
    TurnStart,
    TurnEnd,
    Reasoning,
    Message,
    ToolStart,
    ToolComplete,
    ModelChange,
    ModeChanged,
    PermissionsChanged,
    PermissionRequested,
    PermissionCompleted,
    Info,
    Warning,
    Error,
    Abort,
    Compaction,
    Truncation,
    ContextChanged,
    ContextCleared,
    Handoff,
    Subagent,
    HookEnd,
    Skill,
    SystemMessage,
    SystemNotification,
    Shutdown,
    Usage,
    BinaryAsset,
}

fn shape(kind: &str) -> Shape {
    match kind {
        "session.start" => Shape::Start,
        "session.resume" => Shape::Resume,
        "user.message" => Shape::User,
        "assistant.turn_start" => Shape::TurnStart,
        "assistant.turn_end" => Shape::TurnEnd,
        "assistant.reasoning" => Shape::Reasoning,
        "assistant.message" => Shape::Message,
        "tool.execution_start" | "tool.user_requested" => Shape::ToolStart,
        "tool.execution_complete" => Shape::ToolComplete,
        "session.model_change" => Shape::ModelChange,
        "session.mode_changed" => Shape::ModeChanged,
        "session.permissions_changed" => Shape::PermissionsChanged,
        "permission.requested" => Shape::PermissionRequested,
        "permission.completed" => Shape::PermissionCompleted,
        "session.info" => Shape::Info,
        "session.warning" => Shape::Warning,
        "session.error" => Shape::Error,
        "abort" => Shape::Abort,
        "session.truncation" => Shape::Truncation,
        "session.context_changed" => Shape::ContextChanged,
        "session.context_cleared" => Shape::ContextCleared,
        "session.handoff" => Shape::Handoff,
        "hook.end" => Shape::HookEnd,
        "skill.invoked" => Shape::Skill,
        "system.message" => Shape::SystemMessage,
        "system.notification" => Shape::SystemNotification,
        "session.shutdown" => Shape::Shutdown,
        "assistant.usage" => Shape::Usage,
        "session.binary_asset" => Shape::BinaryAsset,
        k if k.starts_with("session.compaction_") => Shape::Compaction,
        k if k.starts_with("subagent.") => Shape::Subagent,
        _ => Shape::Other,
    }
}

/// Validates the `data` of a type that reads none of it (an object, as before).
#[derive(Deserialize)]
#[serde(rename = "Data", expecting = "struct Data")]
struct Empty {}

impl Shape {
    /// The data of an event that has none.
    fn empty<'a>(self) -> Data<'a> {
        match self {
            Shape::Other => Data::Other,
            Shape::Start => Data::Start(Default::default()),
            Shape::Resume => Data::Resume(Default::default()),
            Shape::User => Data::User(Default::default()),
            Shape::TurnStart => Data::TurnStart(Default::default()),
            Shape::TurnEnd => Data::TurnEnd(Default::default()),
            Shape::Reasoning => Data::Reasoning(Default::default()),
            Shape::Message => Data::Message(Default::default()),
            Shape::ToolStart => Data::ToolStart(Default::default()),
            Shape::ToolComplete => Data::ToolComplete(Default::default()),
            Shape::ModelChange => Data::ModelChange(Default::default()),
            Shape::ModeChanged => Data::ModeChanged(Default::default()),
            Shape::PermissionsChanged => Data::PermissionsChanged(Default::default()),
            Shape::PermissionRequested => Data::PermissionRequested(Default::default()),
            Shape::PermissionCompleted => Data::PermissionCompleted(Default::default()),
            Shape::Info => Data::Info(Default::default()),
            Shape::Warning => Data::Warning(Default::default()),
            Shape::Error => Data::Error(Default::default()),
            Shape::Abort => Data::Abort(Default::default()),
            Shape::Compaction => Data::Compaction(Default::default()),
            Shape::Truncation => Data::Truncation(Default::default()),
            Shape::ContextChanged => Data::ContextChanged(Default::default()),
            Shape::ContextCleared => Data::ContextCleared(Default::default()),
            Shape::Handoff => Data::Handoff(Default::default()),
            Shape::Subagent => Data::Subagent(Default::default()),
            Shape::HookEnd => Data::HookEnd(Default::default()),
            Shape::Skill => Data::Skill(Default::default()),
            Shape::SystemMessage => Data::SystemMessage(Default::default()),
            Shape::SystemNotification => Data::SystemNotification(Default::default()),
            Shape::Shutdown => Data::Shutdown(Default::default()),
            Shape::Usage => Data::Usage(Default::default()),
            Shape::BinaryAsset => Data::BinaryAsset(Default::default()),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Data<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Data<'de>, D::Error> {
        Ok(match self {
            Shape::Other => {
                Empty::deserialize(d)?;
                Data::Other
            }
            Shape::Start => Data::Start(Deserialize::deserialize(d)?),
            Shape::Resume => Data::Resume(Deserialize::deserialize(d)?),
            Shape::User => Data::User(Deserialize::deserialize(d)?),
            Shape::TurnStart => Data::TurnStart(Deserialize::deserialize(d)?),
            Shape::TurnEnd => Data::TurnEnd(Deserialize::deserialize(d)?),
            Shape::Reasoning => Data::Reasoning(Deserialize::deserialize(d)?),
            Shape::Message => Data::Message(Deserialize::deserialize(d)?),
            Shape::ToolStart => Data::ToolStart(Deserialize::deserialize(d)?),
            Shape::ToolComplete => Data::ToolComplete(Deserialize::deserialize(d)?),
            Shape::ModelChange => Data::ModelChange(Deserialize::deserialize(d)?),
            Shape::ModeChanged => Data::ModeChanged(Deserialize::deserialize(d)?),
            Shape::PermissionsChanged => Data::PermissionsChanged(Deserialize::deserialize(d)?),
            Shape::PermissionRequested => Data::PermissionRequested(Deserialize::deserialize(d)?),
            Shape::PermissionCompleted => Data::PermissionCompleted(Deserialize::deserialize(d)?),
            Shape::Info => Data::Info(Deserialize::deserialize(d)?),
            Shape::Warning => Data::Warning(Deserialize::deserialize(d)?),
            Shape::Error => Data::Error(Deserialize::deserialize(d)?),
            Shape::Abort => Data::Abort(Deserialize::deserialize(d)?),
            Shape::Compaction => Data::Compaction(Deserialize::deserialize(d)?),
            Shape::Truncation => Data::Truncation(Deserialize::deserialize(d)?),
            Shape::ContextChanged => Data::ContextChanged(Deserialize::deserialize(d)?),
            Shape::ContextCleared => Data::ContextCleared(Deserialize::deserialize(d)?),
            Shape::Handoff => Data::Handoff(Deserialize::deserialize(d)?),
            Shape::Subagent => Data::Subagent(Deserialize::deserialize(d)?),
            Shape::HookEnd => Data::HookEnd(Deserialize::deserialize(d)?),
            Shape::Skill => Data::Skill(Deserialize::deserialize(d)?),
            Shape::SystemMessage => Data::SystemMessage(Deserialize::deserialize(d)?),
            Shape::SystemNotification => Data::SystemNotification(Deserialize::deserialize(d)?),
            Shape::Shutdown => Data::Shutdown(Deserialize::deserialize(d)?),
            Shape::Usage => Data::Usage(Deserialize::deserialize(d)?),
            Shape::BinaryAsset => Data::BinaryAsset(Deserialize::deserialize(d)?),
        })
    }
}

/// The envelope's keys.
enum Key {
    Type,
    Data,
    Id,
    Timestamp,
    AgentId,
    Ephemeral,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(match v {
                    "type" => Key::Type,
                    "data" => Key::Data,
                    "id" => Key::Id,
                    "timestamp" => Key::Timestamp,
                    "agentId" => Key::AgentId,
                    "ephemeral" => Key::Ephemeral,
                    _ => Key::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// Decodes the envelope; `kind` is the type when it is known before the line is read
/// (the second pass over a line whose `data` precedes its `type`).
struct EventSeed<'k> {
    kind: Option<&'k str>,
}

/// The envelope as decoded: `deferred` when `data` came before `type` and was skipped.
struct Decoded<'a> {
    event: Event<'a>,
    deferred: bool,
}

impl<'de> DeserializeSeed<'de> for EventSeed<'_> {
    type Value = Decoded<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Decoded<'de>, D::Error> {
        const FIELDS: &[&str] = &["type", "data", "id", "timestamp", "agentId", "ephemeral"];
        d.deserialize_struct("Event", FIELDS, self)
    }
}

impl<'de> Visitor<'de> for EventSeed<'_> {
    type Value = Decoded<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("struct Event")
    }

    /// An array line, read by position as a derived struct would (never written).
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Decoded<'de>, A::Error> {
        let kind = seq.next_element::<Str<'de>>()?.unwrap_or_default().0;
        let data = match seq.next_element_seed(shape(self.kind.unwrap_or(&kind)))? {
            Some(d) => d,
            None => shape(&kind).empty(),
        };
        let id = seq.next_element::<Option<Str<'de>>>()?.flatten();
        let timestamp = seq.next_element::<Option<Str<'de>>>()?.flatten();
        let agent_id = seq.next_element::<Option<Str<'de>>>()?.flatten();
        let ephemeral = seq.next_element::<Option<bool>>()?.flatten();
        Ok(Decoded {
            event: Event {
                kind,
                data,
                id,
                timestamp,
                agent_id,
                ephemeral,
            },
            deferred: false,
        })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Decoded<'de>, A::Error> {
        let mut kind: Option<Str<'de>> = None;
        let mut data: Option<Data<'de>> = None;
        let mut deferred = false;
        let mut id: Option<Option<Str<'de>>> = None;
        let mut timestamp: Option<Option<Str<'de>>> = None;
        let mut agent_id: Option<Option<Str<'de>>> = None;
        let mut ephemeral: Option<Option<bool>> = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Type => {
                    if kind.is_some() {
                        return Err(de::Error::duplicate_field("type"));
                    }
                    kind = Some(map.next_value()?);
                }
                Key::Data => {
                    if data.is_some() || deferred {
                        return Err(de::Error::duplicate_field("data"));
                    }
                    match kind.as_deref().or(self.kind) {
                        Some(k) => data = Some(map.next_value_seed(shape(k))?),
                        None => {
                            map.next_value::<&RawValue>()?;
                            deferred = true;
                        }
                    }
                }
                Key::Id => {
                    if id.is_some() {
                        return Err(de::Error::duplicate_field("id"));
                    }
                    id = Some(map.next_value()?);
                }
                Key::Timestamp => {
                    if timestamp.is_some() {
                        return Err(de::Error::duplicate_field("timestamp"));
                    }
                    timestamp = Some(map.next_value()?);
                }
                Key::AgentId => {
                    if agent_id.is_some() {
                        return Err(de::Error::duplicate_field("agentId"));
                    }
                    agent_id = Some(map.next_value()?);
                }
                Key::Ephemeral => {
                    if ephemeral.is_some() {
                        return Err(de::Error::duplicate_field("ephemeral"));
                    }
                    ephemeral = Some(map.next_value()?);
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let kind = kind.unwrap_or_default().0;
        let data = match data {
            Some(d) => d,
            None => shape(&kind).empty(),
        };
        Ok(Decoded {
            event: Event {
                kind,
                data,
                id: id.flatten(),
                timestamp: timestamp.flatten(),
                agent_id: agent_id.flatten(),
                ephemeral: ephemeral.flatten(),
            },
            deferred,
        })
    }
}

fn decode_with<'a>(line: &'a [u8], seed: EventSeed<'_>) -> Result<Decoded<'a>, serde_json::Error> {
    // one UTF-8 check of the whole line (fast on ASCII) instead of one per string read;
    // a line that fails it is decoded as bytes, for the same errors as before
    match simdutf8::basic::from_utf8(line) {
        Ok(text) => {
            let mut de = serde_json::Deserializer::from_str(text);
            let v = seed.deserialize(&mut de)?;
            de.end()?;
            Ok(v)
        }
        Err(_) => {
            let mut de = serde_json::Deserializer::from_slice(line);
            let v = seed.deserialize(&mut de)?;
            de.end()?;
            Ok(v)
        }
    }
}

/// Decodes one line as an [`Event`] (the caller retries a line with a lone surrogate
/// escape after repairing it: JavaScript writes them, serde_json refuses them).
///
/// Lines are read by the scanner (the private `scan` module); serde_json reads the
/// lines it gives up on, for the same events and the same errors.
pub fn event(line: &[u8]) -> Result<Event<'_>, serde_json::Error> {
    if let Ok(text) = simdutf8::basic::from_utf8(line) {
        if let Some(ev) = scan::event(text) {
            return Ok(ev);
        }
    }
    serde_event(line)
}

/// True when the scanner reads `line` as serde_json does: it gives up, or it gives the
/// event serde_json gives, and the `data` serde_json finds for a generic row; and when
/// the detail row's walk gives the same whether it jumps over the long strings the
/// first read passed or not (for the fuzz target; not an API).
#[doc(hidden)]
pub fn scanner_agrees(line: &[u8]) -> bool {
    let Ok(text) = simdutf8::basic::from_utf8(line) else {
        return true;
    };
    if !crate::events::detail_jumps_agree(text) {
        return false;
    }
    if let Some(data) = scan::data_raw(text) {
        #[derive(Deserialize)]
        struct Only<'a> {
            #[serde(borrow)]
            data: Option<&'a RawValue>,
        }
        match serde_json::from_slice::<Only<'_>>(line) {
            Ok(o) if o.data.map(RawValue::get) == data => {}
            _ => return false,
        }
    }
    match scan::event(text) {
        None => true,
        Some(ev) => {
            matches!(serde_event(line), Ok(old) if format!("{ev:?}") == format!("{old:?}"))
        }
    }
}

/// [`event`] by serde_json alone (the scanner's reference in tests).
pub(crate) fn serde_event(line: &[u8]) -> Result<Event<'_>, serde_json::Error> {
    let first = decode_with(line, EventSeed { kind: None })?;
    if !first.deferred {
        return Ok(first.event);
    }
    // `data` came before `type`: read the line again knowing its type
    let kind = first.event.kind;
    let second = decode_with(line, EventSeed { kind: Some(&kind) })?;
    Ok(second.event)
}

/// `session.start`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct StartData<'a> {
    #[serde(borrow)]
    pub session_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub copilot_version: Option<Str<'a>>,
    #[serde(borrow)]
    pub vscode_version: Option<Str<'a>>,
    #[serde(borrow)]
    pub start_time: Option<Text<'a>>,
    #[serde(borrow)]
    pub selected_model: Option<Str<'a>>,
    #[serde(borrow)]
    pub context: Option<Context<'a>>,
    /// What the SDK's `SessionStartEventData` names beside the spec's fields, printed
    /// after them: the writer (`copilot-agent`), the reasoning effort, and whether
    /// another client had the session open (`alreadyInUse`) or Mission Control may
    /// steer it (`remoteSteerable`).
    #[serde(borrow)]
    pub producer: Option<Str<'a>>,
    #[serde(borrow)]
    pub reasoning_effort: Option<Str<'a>>,
    #[serde(borrow)]
    pub already_in_use: Option<Text<'a>>,
    #[serde(borrow)]
    pub remote_steerable: Option<Text<'a>>,
    /// The event log's format version (`1` in every capture), printed last as
    /// `events_version`.
    #[serde(borrow)]
    pub version: Option<Text<'a>>,
}

/// `session.resume`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ResumeData<'a> {
    pub event_count: Option<i64>,
    /// The SDK's `SessionResumeEventData` beside the spec's `eventCount`: when, with
    /// which model and effort, in which folder and git state the session was resumed.
    #[serde(borrow)]
    pub resume_time: Option<Text<'a>>,
    #[serde(borrow)]
    pub selected_model: Option<Str<'a>>,
    #[serde(borrow)]
    pub reasoning_effort: Option<Str<'a>>,
    #[serde(borrow)]
    pub context: Option<Context<'a>>,
    #[serde(borrow)]
    pub already_in_use: Option<Text<'a>>,
    #[serde(borrow)]
    pub remote_steerable: Option<Text<'a>>,
}

/// `user.message`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct UserData<'a> {
    #[serde(borrow)]
    pub content: Option<Str<'a>>,
    #[serde(borrow)]
    pub attachments: Option<Vec<Attachment<'a>>>,
    #[serde(borrow)]
    pub agent_mode: Option<Str<'a>>,
    pub is_autopilot_continuation: Option<bool>,
    /// The SDK's "origin of this message, used for timeline filtering (e.g.
    /// `skill-pdf` for skill-injected messages that should be hidden from the user)".
    #[serde(borrow)]
    pub source: Option<Str<'a>>,
}

/// `assistant.turn_start` and `assistant.turn_end`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ModelData<'a> {
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
}

/// `assistant.reasoning`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ContentData<'a> {
    #[serde(borrow)]
    pub content: Option<Str<'a>>,
}

/// `assistant.message`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct MessageData<'a> {
    #[serde(borrow)]
    pub content: Option<Str<'a>>,
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_requests: Option<Vec<ToolRequest<'a>>>,
    #[serde(borrow)]
    pub reasoning_text: Option<Str<'a>>,
    #[serde(borrow)]
    pub encrypted_content: Option<Str<'a>>,
}

/// `tool.execution_start`, `tool.user_requested`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ToolStartData<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub arguments: Option<Raw<'a>>,
    #[serde(borrow)]
    pub mcp_server_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub mcp_tool_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub shell_tool_info: Option<ShellToolInfo<'a>>,
    /// The model that called the tool (the SDK's `model`), for the row's `model` column.
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
}

/// `tool.execution_complete`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ToolCompleteData<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    pub success: Option<bool>,
    #[serde(borrow)]
    pub result: Option<ResultData<'a>>,
    #[serde(borrow)]
    pub error: Option<Raw<'a>>,
    pub shell_execution: Option<ShellExecution>,
    /// The model that called the tool (the SDK's `model`), for the row's `model` column.
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
}

/// `session.model_change`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ModelChangeData<'a> {
    #[serde(borrow)]
    pub previous_model: Option<Str<'a>>,
    #[serde(borrow)]
    pub new_model: Option<Str<'a>>,
    #[serde(borrow)]
    pub reasoning_effort: Option<Str<'a>>,
    #[serde(borrow)]
    pub source: Option<Text<'a>>,
}

/// `session.mode_changed`, `session.permissions_changed`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ModeData<'a> {
    #[serde(borrow)]
    pub new_mode: Option<Str<'a>>,
    #[serde(borrow)]
    pub previous_mode: Option<Str<'a>>,
    #[serde(borrow)]
    pub mode: Option<Str<'a>>,
}

/// `permission.requested`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct PermissionRequestedData<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub request_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub permission_request: Option<PermissionRequest<'a>>,
}

/// `permission.completed`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct PermissionCompletedData<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub request_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub result: Option<ResultData<'a>>,
}

/// `session.info`, `session.warning`, `session.error`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct InfoData<'a> {
    #[serde(borrow)]
    pub info_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub warning_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub error_type: Option<Str<'a>>,
    pub status_code: Option<i64>,
    #[serde(borrow)]
    pub message: Option<Str<'a>>,
}

/// `abort`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct AbortData<'a> {
    #[serde(borrow)]
    pub reason: Option<Str<'a>>,
}

/// `session.compaction_*`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct CompactionData<'a> {
    pub success: Option<bool>,
    #[serde(borrow)]
    pub summary_content: Option<Str<'a>>,
    #[serde(borrow)]
    pub checkpoint_number: Option<Text<'a>>,
    #[serde(borrow)]
    pub trigger: Option<Str<'a>>,
}

/// `session.truncation`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct TruncationData {
    /// The messages removed, under each of the names writers give the count (a line
    /// may hold more than one).
    pub removed_messages: Option<i64>,
    pub messages_removed_during_truncation: Option<i64>,
    pub messages_removed: Option<i64>,
    /// The tokens removed, likewise.
    pub removed_tokens: Option<i64>,
    pub tokens_removed_during_truncation: Option<i64>,
    pub tokens_removed: Option<i64>,
}

/// `session.context_changed`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ContextChangedData<'a> {
    #[serde(borrow)]
    pub cwd: Option<Str<'a>>,
    #[serde(borrow)]
    pub branch: Option<Str<'a>>,
    #[serde(borrow)]
    pub context: Option<Context<'a>>,
    /// The rest of the SDK's `SessionContextChangedEventData`, printed after the spec's
    /// text.
    #[serde(borrow)]
    pub git_root: Option<Str<'a>>,
    pub repository: Option<Value>,
    #[serde(borrow)]
    pub host_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub head_commit: Option<Str<'a>>,
    #[serde(borrow)]
    pub base_commit: Option<Str<'a>>,
}

/// `session.context_cleared`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ClearedData {
    pub message_count: Option<i64>,
    /// The other name of the count (a line may hold both).
    pub messages_cleared: Option<i64>,
}

/// `session.handoff`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct HandoffData<'a> {
    #[serde(borrow)]
    pub source_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub remote_session_id: Option<Str<'a>>,
    pub repository: Option<Value>,
}

/// `subagent.*`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct SubagentData<'a> {
    #[serde(borrow)]
    pub agent_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
    pub duration_ms: Option<i64>,
    pub total_tokens: Option<i64>,
    #[serde(borrow)]
    pub error: Option<Raw<'a>>,
}

/// `hook.end`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct HookData<'a> {
    #[serde(borrow)]
    pub hook_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub hook_invocation_id: Option<Str<'a>>,
    pub success: Option<bool>,
    #[serde(borrow)]
    pub error: Option<Raw<'a>>,
}

/// `skill.invoked`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct SkillData<'a> {
    #[serde(borrow)]
    pub name: Option<Str<'a>>,
    #[serde(borrow)]
    pub path: Option<Str<'a>>,
    #[serde(borrow)]
    pub source: Option<Text<'a>>,
}

/// `system.message`, `system.notification`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct SystemData<'a> {
    #[serde(borrow)]
    pub role: Option<Str<'a>>,
    #[serde(borrow)]
    pub kind: Option<Kind<'a>>,
    #[serde(borrow)]
    pub content: Option<Str<'a>>,
}

/// A notification's `kind`: a text, or (the SDK's shape) an object whose `type` names
/// it (`{"type": "agent_completed", "agentId": ...}`), kept as that name; an object
/// without a `type` is an empty name.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Kind<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Kind<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Kind<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an object with a type")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Kind(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Kind(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Kind(Cow::Owned(v)))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut name: Option<Option<Str<'de>>> = None;
                while let Some(k) = a.next_key::<Str<'de>>()? {
                    if &*k == "type" {
                        if name.is_some() {
                            return Err(de::Error::duplicate_field("type"));
                        }
                        name = Some(a.next_value()?);
                    } else {
                        a.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Kind(name.flatten().map(|s| s.0).unwrap_or_default()))
            }
        }
        d.deserialize_any(V)
    }
}

/// `session.shutdown`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct ShutdownData<'a> {
    #[serde(borrow)]
    pub shutdown_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub error_reason: Option<Str<'a>>,
    pub model_metrics: Option<BTreeMap<String, ModelMetric>>,
    pub code_changes: Option<CodeChanges>,
    #[serde(borrow)]
    pub current_model: Option<Str<'a>>,
    /// The session's totals, each kept as written (the SDK types most as doubles:
    /// premium requests count fractions of a request), for the `session totals:` row.
    #[serde(borrow)]
    pub total_premium_requests: Option<Raw<'a>>,
    #[serde(borrow)]
    pub total_nano_aiu: Option<Raw<'a>>,
    #[serde(borrow)]
    pub total_api_duration_ms: Option<Raw<'a>>,
    #[serde(borrow)]
    pub session_start_time: Option<Raw<'a>>,
    #[serde(borrow)]
    pub current_tokens: Option<Raw<'a>>,
    #[serde(borrow)]
    pub system_tokens: Option<Raw<'a>>,
    #[serde(borrow)]
    pub conversation_tokens: Option<Raw<'a>>,
    #[serde(borrow)]
    pub tool_definitions_tokens: Option<Raw<'a>>,
    #[serde(borrow)]
    pub events_file_size_bytes: Option<Raw<'a>>,
    #[serde(borrow)]
    pub token_details: Option<Raw<'a>>,
}

/// `assistant.usage`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct UsageData<'a> {
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub cache_read_tokens: Option<i64>,
    /// `cacheCreationInputTokens` (the VS Code transcript writer's name).
    pub cache_creation_input_tokens: Option<i64>,
    /// The SDK's name of the same count (a line may hold both).
    pub cache_write_tokens: Option<i64>,
    pub copilot_usage_nano_aiu: Option<i64>,
    #[serde(borrow)]
    pub parent_tool_call_id: Option<Str<'a>>,
    /// The SDK's `reasoningTokens` and `copilotUsage.totalNanoAiu` (its
    /// `AssistantUsageEventData`; the rest of it, `duration`, `cost`, `initiator`,
    /// `quotaSnapshots` ..., shows in the `session event detail:` row).
    pub reasoning_tokens: Option<i64>,
    pub copilot_usage: Option<CopilotUsage>,
    /// The VS Code writer's `totalTokens` (`inputTokens + outputTokens`), left out of
    /// the text; read (as written) only so that it is no unread key, which would cost
    /// every such line a second parse for its detail row.
    #[serde(borrow)]
    pub total_tokens: Option<Raw<'a>>,
}

/// `assistant.usage.data.copilotUsage` (the SDK's).
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CopilotUsage {
    pub total_nano_aiu: Option<i64>,
}

/// `session.binary_asset`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(
    rename = "Data",
    expecting = "struct Data",
    rename_all = "camelCase",
    default
)]
pub struct BinaryAssetData<'a> {
    #[serde(borrow)]
    pub mime_type: Option<Str<'a>>,
    #[serde(borrow)]
    pub data: Option<Raw<'a>>,
    pub size: Option<i64>,
}

/// `session.start.data.context`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Context<'a> {
    #[serde(borrow)]
    pub cwd: Option<Str<'a>>,
    #[serde(borrow)]
    pub git_root: Option<Str<'a>>,
    #[serde(borrow)]
    pub branch: Option<Str<'a>>,
    pub repository: Option<Value>,
    /// `github` or `ado` (the SDK's `hostType`).
    #[serde(borrow)]
    pub host_type: Option<Str<'a>>,
    /// The branch's head and base commits when the session started or resumed.
    #[serde(borrow)]
    pub head_commit: Option<Str<'a>>,
    #[serde(borrow)]
    pub base_commit: Option<Str<'a>>,
}

/// One attachment of a user message.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Attachment<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Option<Str<'a>>,
    #[serde(borrow)]
    pub path: Option<Str<'a>>,
    #[serde(borrow)]
    pub file_path: Option<Str<'a>>,
    #[serde(borrow)]
    pub display_name: Option<Str<'a>>,
}

/// One entry of `assistant.message.toolRequests`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ToolRequest<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub name: Option<Str<'a>>,
    #[serde(borrow)]
    pub arguments: Option<Raw<'a>>,
    /// The SDK's kind of call (`function`, `custom`), as written.
    #[serde(borrow, rename = "type")]
    pub kind: Option<Raw<'a>>,
}

/// `tool.execution_start.data.shellToolInfo`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ShellToolInfo<'a> {
    #[serde(borrow)]
    pub display_command: Option<Str<'a>>,
}

/// `shellExecution` (CLI 1.0.91).
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ShellExecution {
    pub exit_code: Option<i64>,
}

/// `result` of `tool.execution_complete` and of `permission.completed`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultData<'a> {
    #[serde(borrow)]
    pub content: Option<Text<'a>>,
    #[serde(borrow)]
    pub detailed_content: Option<Str<'a>>,
    pub contents: Option<Vec<ResultItem>>,
    pub shell_execution: Option<ShellExecution>,
    #[serde(borrow)]
    pub kind: Option<Str<'a>>,
    #[serde(borrow)]
    pub location_key: Option<Str<'a>>,
    pub rules: Option<Vec<Value>>,
    #[serde(borrow)]
    pub feedback: Option<Str<'a>>,
}

/// One item of `result.contents[]`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultItem {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub exit_code: Option<i64>,
}

/// `permission.requested.data.permissionRequest`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PermissionRequest<'a> {
    #[serde(borrow)]
    pub kind: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_call_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub intention: Option<Str<'a>>,
    #[serde(borrow)]
    pub full_command_text: Option<Str<'a>>,
    #[serde(borrow)]
    pub file_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub path: Option<Str<'a>>,
    #[serde(borrow)]
    pub url: Option<Str<'a>>,
    #[serde(borrow)]
    pub server_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_name: Option<Str<'a>>,
}

/// One `modelMetrics` entry of `session.shutdown`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ModelMetric {
    pub usage: MetricUsage,
    pub requests: Option<MetricRequests>,
    pub total_nano_aiu: Option<i64>,
}

/// `modelMetrics.<model>.usage`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricUsage {
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub cache_read_tokens: Option<i64>,
    pub cache_write_tokens: Option<i64>,
    pub reasoning_tokens: Option<i64>,
}

/// `modelMetrics.<model>.requests`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricRequests {
    pub count: Option<i64>,
}

/// `session.shutdown.data.codeChanges`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CodeChanges {
    pub lines_added: Option<i64>,
    pub lines_removed: Option<i64>,
    pub files_modified: Option<Value>,
}

pub use chat_rows::json::{compact as compact_json, compact_into as compact_json_into};

/// A raw JSON value as a row text: a string's contents, else compact JSON.
pub fn raw_text(raw: Raw<'_>) -> String {
    let s = raw.0;
    if s.starts_with('"') {
        if let Ok(v) = serde_json::from_str::<String>(s) {
            return v;
        }
    }
    compact_json(s)
}

/// A JSON value as a column or `k=v` value: a string as it is, null as empty, else
/// compact JSON.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// What an `error` (of a tool, a sub-agent, a hook) says, read from its text as
/// written, never as a whole tree: a 50 MB `error` object with a huge `stack` costs no
/// memory beyond its line. Its `message` (for an object; the value itself otherwise) and
/// its `code` (objects only) are read as [`scalar`] reads them: a string as is, `null`
/// empty, another value as JSON (over 1 MiB printed as written, without its blanks,
/// instead of through a tree). The last of duplicate keys counts, as in a `Value`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ErrorParts {
    /// The message (empty when there is none).
    pub message: String,
    /// The `code` of an object, `None` for an object without one or another value.
    pub code: Option<String>,
    /// True when the error is a JSON object.
    pub is_object: bool,
}

/// Reads an `error` value ([`ErrorParts`]).
pub fn error_parts(raw: Raw<'_>) -> ErrorParts {
    let text = raw.0.trim_start();
    if !text.starts_with('{') {
        return ErrorParts {
            message: raw_scalar(raw.0),
            ..ErrorParts::default()
        };
    }
    let fields: BTreeMap<Cow<'_, str>, &RawValue> = serde_json::from_str(raw.0).unwrap_or_default();
    ErrorParts {
        message: fields
            .get("message")
            .map(|v| raw_scalar(v.get()))
            .unwrap_or_default(),
        code: fields.get("code").map(|v| raw_scalar(v.get())),
        is_object: true,
    }
}

/// [`scalar`] of a value given as its JSON text.
fn raw_scalar(raw: &str) -> String {
    let t = raw.trim_start();
    if t.starts_with('"') {
        return serde_json::from_str::<String>(t).unwrap_or_default();
    }
    if t.len() > TREE_MAX {
        let mut out = String::new();
        compact_json_into(&mut out, t);
        return out;
    }
    serde_json::from_str::<Value>(t)
        .map(|v| scalar(&v))
        .unwrap_or_default()
}

/// A `session.binary_asset`'s `data` as a `session event:` row may print it: its
/// `data.data` (the asset's bytes, base64) replaced by a note of its length, for any
/// other type `data` as it is. The spec never outputs binary asset data; the row of a
/// line whose other fields do not fit their types prints the rest.
pub fn leave_out_asset_data(kind: &str, data: &mut Value) {
    if kind != "session.binary_asset" {
        return;
    }
    if let Some(v) = data.as_object_mut().and_then(|m| m.get_mut("data")) {
        let n = match &*v {
            Value::String(s) => s.chars().count(),
            other => other.to_string().chars().count(),
        };
        *v = Value::String(format!("[binary asset data left out, {n} characters]"));
    }
}

/// Values a line of another shape than an event may give as a tree ([`Value`]); a
/// larger one is printed as written (`data`) or not read (`type`, `timestamp`). A
/// `Value` costs several times its text (a 100 MB array of zeros took 800 MB).
const TREE_MAX: usize = 1 << 20;

/// The `type`, `data` and `timestamp` of a line that is a JSON object of another shape
/// than an event, each as written, every other field validated and skipped: what the
/// `session event:` row of such a line prints, read without building the line as a
/// tree (a hostile line of millions of small values would otherwise cost gigabytes).
pub(crate) struct Loose<'a> {
    kind: Option<&'a RawValue>,
    data: Option<&'a RawValue>,
    timestamp: Option<&'a RawValue>,
}

impl<'de> Deserialize<'de> for Loose<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(field_identifier, rename_all = "lowercase")]
        enum Field {
            Type,
            Data,
            Timestamp,
            #[serde(other)]
            Other,
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Loose<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Loose<'de>, A::Error> {
                let mut out = Loose {
                    kind: None,
                    data: None,
                    timestamp: None,
                };
                // a repeated key: the last one, as a `Value` would keep it
                while let Some(field) = map.next_key::<Field>()? {
                    match field {
                        Field::Type => out.kind = Some(map.next_value()?),
                        Field::Data => out.data = Some(map.next_value()?),
                        Field::Timestamp => out.timestamp = Some(map.next_value()?),
                        Field::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

impl Loose<'_> {
    /// The `type` as the row names it (a string's text; another small value as JSON).
    pub(crate) fn kind(&self) -> String {
        match self.kind {
            Some(r) if r.get().len() <= TREE_MAX => serde_json::from_str::<Value>(r.get())
                .map(|v| scalar(&v))
                .unwrap_or_default(),
            Some(r) => cut(r.get(), 400).to_string(),
            None => String::new(),
        }
    }

    /// The `data` as compact JSON (a binary asset's bytes left out); a value larger
    /// than [`TREE_MAX`] as written (the row keeps only its first 400 characters), a
    /// binary asset's only as its length.
    pub(crate) fn data(&self, kind: &str) -> String {
        match self.data {
            // as written (keys in the file's order, as the rows of well-formed lines
            // print it), a binary asset's bytes replaced by their count
            Some(r) if r.get().len() <= TREE_MAX => {
                match chat_rows::json::object_entries(r.get()) {
                    Some(entries) if kind == "session.binary_asset" => {
                        let mut out = String::from("{");
                        for (i, (k, v)) in entries.iter().enumerate() {
                            if i > 0 {
                                out.push(',');
                            }
                            out.push_str(&serde_json::to_string(k).unwrap_or_default());
                            out.push(':');
                            if k == "data" {
                                let mut d = serde_json::json!({ "data": serde_json::from_str::<Value>(v.get()).unwrap_or(Value::Null) });
                                leave_out_asset_data(kind, &mut d);
                                out.push_str(&d["data"].to_string());
                            } else {
                                chat_rows::json::compact_into(&mut out, v.get());
                            }
                        }
                        out.push('}');
                        out
                    }
                    // the asset's data as a whole (a string or an array)
                    None if kind == "session.binary_asset"
                        && matches!(r.get().as_bytes().first(), Some(b'"' | b'[')) =>
                    {
                        let mut d = serde_json::json!({ "data": serde_json::from_str::<Value>(r.get()).unwrap_or(Value::Null) });
                        leave_out_asset_data(kind, &mut d);
                        d["data"].to_string()
                    }
                    _ => chat_rows::json::compact(r.get()),
                }
            }
            Some(r) if kind == "session.binary_asset" => {
                format!("[binary asset data left out, {} bytes]", r.get().len())
            }
            Some(r) => cut(r.get(), 4096).to_string(),
            None => String::new(),
        }
    }

    /// The `data` is a string (serde's message quotes it when it does not fit).
    pub(crate) fn data_is_string(&self) -> bool {
        self.data.is_some_and(|r| r.get().starts_with('"'))
    }

    /// The `timestamp`, when it is a time.
    pub(crate) fn time(&self) -> Option<Timestamp> {
        self.timestamp
            .filter(|r| r.get().len() <= 4096)
            .and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
            .and_then(|v| time_of(&v))
    }
}

/// Cuts `s` to at most `max` characters, on a character boundary.
pub fn cut(s: &str, max: usize) -> &str {
    // no more bytes than `max`: no more characters either
    if s.len() <= max {
        return s;
    }
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// A time as the stores write it: ISO 8601 text, SQLite text, or epoch milliseconds
/// (seconds when the number is too small to be milliseconds after 1973). Zero and
/// negative numbers are no time.
pub fn time_of(v: &Value) -> Option<Timestamp> {
    match v {
        Value::String(s) => time_text(s),
        Value::Number(n) => n.as_i64().and_then(epoch),
        _ => None,
    }
}

/// A time from text: ISO 8601 (a zone-less one is flagged unknown), SQLite's form, or
/// digits read as epoch milliseconds.
pub fn time_text(s: &str) -> Option<Timestamp> {
    time_text_cached(s, &mut DayCache::default())
}

/// The day of the last time read in the events' form, for the next one: the lines of a
/// log come seconds apart, and the date's arithmetic (five divisions) was a few percent
/// of the reader's time.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DayCache {
    date: [u8; 10],
    days: Option<i64>,
}

/// [`time_text`], with the day of the last time kept in `cache`.
pub(crate) fn time_text_cached(s: &str, cache: &mut DayCache) -> Option<Timestamp> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Some(t) = utc_z(s, cache) {
        return Some(t);
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok().and_then(epoch);
    }
    chat_rows::when::parse_any(s, None)
}

/// The form every event's `timestamp` has, `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, read
/// without the general parser (which tries RFC 3339 through the `time` crate, then
/// other forms): the same time [`chat_rows::when::parse_any`] gives, `None` for
/// anything else (which then goes to it, a leap second included).
fn utc_z(s: &str, cache: &mut DayCache) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
        return None;
    }
    if b[16] != b':' || *b.last()? != b'Z' {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        b[from..to].iter().try_fold(0i64, |n, c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let micros = match &b[19..b.len() - 1] {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            let n = num(20, 20 + digits.len())?;
            // nanoseconds, truncated to microseconds as the general parser does
            const TO_NANOS: [i64; 10] = [
                0,
                100_000_000,
                10_000_000,
                1_000_000,
                100_000,
                10_000,
                1_000,
                100,
                10,
                1,
            ];
            n * TO_NANOS[digits.len()] / 1000
        }
        _ => return None,
    };
    let days = match cache.days {
        Some(days) if cache.date == b[..10] => days,
        _ => {
            let days = days_of(num(0, 4)?, num(5, 7)?, num(8, 10)?)?;
            cache.date.copy_from_slice(&b[..10]);
            cache.days = Some(days);
            days
        }
    };
    let secs = days * 86_400 + hour * 3_600 + minute * 60 + second;
    Timestamp::from_unix_micros(secs * 1_000_000 + micros, chat_rows::Zone::Utc)
}

/// The days from 1970-01-01 of a valid date (the civil-from-days inverse, proleptic
/// Gregorian).
fn days_of(year: i64, month: i64, day: i64) -> Option<i64> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day < 1 || day > month_days {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Epoch milliseconds, or seconds for values below 10^11.
pub fn epoch(n: i64) -> Option<Timestamp> {
    if n <= 0 {
        None
    } else if n < 100_000_000_000 {
        Timestamp::from_epoch_seconds(n)
    } else {
        Timestamp::from_epoch_millis(n)
    }
}

/// One `key: value` line of a flat YAML file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlEntry {
    /// The key.
    pub key: String,
    /// The value, unquoted.
    pub value: String,
    /// 1-based line.
    pub line: u64,
}

/// Reads a flat YAML mapping (`workspace.yaml`): one `key: value` per line, values
/// plain, single- or double-quoted. Block scalars (`|`, `>`) take their indented lines.
/// Returns the entries and the lines that are not of that form (1-based, with text).
pub fn flat_yaml(text: &str) -> (Vec<YamlEntry>, Vec<(u64, String)>) {
    let mut entries: Vec<YamlEntry> = Vec::new();
    let mut bad = Vec::new();
    let mut block: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i as u64 + 1;
        if let Some(e) = block {
            if raw.starts_with(' ') || raw.starts_with('\t') || raw.is_empty() {
                let v = &mut entries[e].value;
                if !v.is_empty() {
                    v.push('\n');
                }
                v.push_str(raw.trim());
                continue;
            }
            block = None;
        }
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') || line == "---" {
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            bad.push((n, line.to_string()));
            continue;
        };
        if k.starts_with(' ') || k.trim().is_empty() {
            bad.push((n, line.to_string()));
            continue;
        }
        let v = v.trim();
        let value = if v == "|" || v == ">" || v == "|-" || v == ">-" {
            block = Some(entries.len());
            String::new()
        } else if let Some(inner) = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            serde_json::from_str::<String>(&format!("\"{inner}\"")).unwrap_or(inner.to_string())
        } else if let Some(inner) = v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')) {
            inner.replace("''", "'")
        } else if v == "~" || v == "null" {
            String::new()
        } else {
            v.to_string()
        };
        entries.push(YamlEntry {
            key: k.trim().to_string(),
            value,
            line: n,
        });
    }
    (entries, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of another shape is read for its `type`, `data` and `timestamp` only:
    /// small values as before (compact JSON, a repeated key's last value, an escaped
    /// key's text), a `data` past [`TREE_MAX`] as written and never as a tree, a binary
    /// asset's as its length alone.
    #[test]
    fn a_line_of_another_shape_is_read_for_three_fields_only() {
        let loose = |line: &str| {
            serde_json::from_str::<Loose<'_>>(line).map(|l| {
                let kind = l.kind();
                let data = l.data(&kind);
                (kind, data, l.time().map(|t| t.to_string()))
            })
        };
        assert_eq!(
            loose(r#"{"type":"x","typ\u0065":"session.error","data":{ "b" : [1, 2], "a":null },"n":[[[]]],"timestamp":"2026-10-05T09:00:00.000Z"}"#).unwrap(),
            (
                "session.error".to_string(),
                r#"{"b":[1,2],"a":null}"#.to_string(),
                Some("2026-10-05T09:00:00.000000Z".to_string())
            )
        );
        let zeros = vec!["0"; TREE_MAX].join(",");
        let (kind, data, at) = loose(&format!(
            r#"{{"type":"session.error","data":{{"m":[{zeros}]}}}}"#
        ))
        .unwrap();
        assert_eq!((kind.as_str(), at), ("session.error", None));
        assert_eq!(data.len(), 4096);
        assert!(data.starts_with(r#"{"m":[0,0,"#), "{}", &data[..20]);
        let (_, data, _) = loose(&format!(
            r#"{{"type":"session.binary_asset","data":{{"data":[{zeros}]}}}}"#
        ))
        .unwrap();
        assert_eq!(
            data,
            format!("[binary asset data left out, {} bytes]", zeros.len() + 11)
        );
        assert!(loose("[1,2]").is_err());
    }

    #[test]
    fn flat_yaml_values() {
        let (e, bad) = flat_yaml(
            "id: a\nsummary: \"Fix: it\"\nname: 'it''s'\nnot yaml\nx: |\n  one\n  two\ny: 2\n",
        );
        let kv: Vec<(&str, &str)> = e
            .iter()
            .map(|e| (e.key.as_str(), e.value.as_str()))
            .collect();
        assert_eq!(
            kv,
            vec![
                ("id", "a"),
                ("summary", "Fix: it"),
                ("name", "it's"),
                ("x", "one\ntwo"),
                ("y", "2")
            ]
        );
        assert_eq!(bad, vec![(4, "not yaml".to_string())]);
    }

    /// The fast form gives what the general parser gives, and nothing where it differs.
    #[test]
    fn utc_z_is_parse_any() {
        let mut cases: Vec<String> = vec![
            "2026-10-05T09:00:00.000Z".into(),
            "2026-10-05T09:00:00Z".into(),
            "2026-10-05T09:00:00.1Z".into(),
            "2026-10-05T09:00:00.123456789Z".into(),
            "2026-10-05T09:00:00.1234567891Z".into(),
            "2026-10-05T23:59:60Z".into(),
            "2024-02-29T00:00:00Z".into(),
            "2023-02-29T00:00:00Z".into(),
            "2000-02-29T12:00:00Z".into(),
            "1900-02-29T12:00:00Z".into(),
            "1979-12-31T23:59:59.999Z".into(),
            "1980-01-01T00:00:00Z".into(),
            "9999-12-31T23:59:59.999999Z".into(),
            "2026-13-01T00:00:00Z".into(),
            "2026-00-01T00:00:00Z".into(),
            "2026-04-31T00:00:00Z".into(),
            "2026-10-05T24:00:00Z".into(),
            "2026-10-05T09:60:00Z".into(),
            "2026-10-05t09:00:00z".into(),
            "2026-10-05T09:00:00.Z".into(),
            "2026-10-05T09:00:00+02:00".into(),
            "2026-10-05 09:00:00Z".into(),
            "2026-1a-05T09:00:00Z".into(),
            "+026-10-05T09:00:00Z".into(),
        ];
        for y in [1980, 1999, 2000, 2024, 2026, 2100, 2400] {
            for m in 1..=12 {
                for d in [1, 15, 28, 29, 30, 31] {
                    cases.push(format!(
                        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
                        d % 24,
                        (d * 7) % 60,
                        (m * 5) % 60,
                        d * 31
                    ));
                }
            }
        }
        // each case read alone, and all read in turn with one cache (as the reader does)
        let mut cache = DayCache::default();
        for c in &cases {
            let general = chat_rows::when::parse_any(c, None);
            assert_eq!(time_text_cached(c, &mut cache), time_text(c), "{c}");
            assert_eq!(time_text_cached(c, &mut cache), time_text(c), "{c} again");
            match utc_z(c, &mut DayCache::default()) {
                Some(t) => assert_eq!(Some(t), general, "{c}"),
                None => assert!(
                    !c.ends_with('Z')
                        || c.len() < 20
                        || general.is_none()
                        || !c.contains('T')
                        || c.contains(":60")
                        || c.contains("00.1234567891"),
                    "{c} left to the general parser: {general:?}"
                ),
            }
        }
        assert!(utc_z("2026-10-05T09:00:00.000Z", &mut cache).is_some());
    }

    #[test]
    fn times() {
        assert_eq!(
            time_of(&Value::from(1_790_000_000_000i64)).map(|t| t.to_string()),
            Some("2026-09-21T14:13:20.000000Z".into())
        );
        assert_eq!(time_of(&Value::from(0)), None);
        assert!(time_text("2026-10-01T10:00:00.000Z").is_some());
    }

    /// What the mapping read of an `error` when it was a `Value`: the message, and the
    /// code of an object.
    fn error_parts_of_a_tree(v: &Value) -> (String, Option<String>) {
        match v {
            Value::Object(m) => (
                m.get("message").map(scalar).unwrap_or_default(),
                m.get("code").map(|c| match c {
                    Value::String(s) => s.clone(),
                    other => scalar(other),
                }),
            ),
            other => (scalar(other), None),
        }
    }

    #[test]
    fn error_parts_read_as_a_tree_would() {
        for raw in [
            r#"{"code":"E1","message":"no"}"#,
            r#"{"code":1,"message":{"b":2,"a":[1,2.50,"x"]}}"#,
            r#"{"message":"first","message":"last","code":null}"#,
            r#"{"mess\u0061ge":"escaped key","stack":[[1],[2],{"deep":"x"}]}"#,
            r#"{ "message" : "spaced\n\"quoted\"" , "code" : true }"#,
            r#"{}"#,
            r#""a plain string\u00e9""#,
            r#"42"#,
            r#"-0.5e3"#,
            r#"[1, {"message": "not read"}]"#,
            r#"true"#,
        ] {
            let tree: Value = serde_json::from_str(raw).unwrap();
            let parts = error_parts(Raw(raw));
            assert_eq!(
                (parts.message, parts.code),
                error_parts_of_a_tree(&tree),
                "{raw}"
            );
            assert_eq!(parts.is_object, tree.is_object(), "{raw}");
        }
        // a message over 1 MiB that is not a string is printed as written, blanks out
        let big = format!(r#"{{"message":[{}0]}}"#, "1, ".repeat(400_000));
        let parts = error_parts(Raw(&big));
        assert_eq!(parts.message.len(), 800_003);
        assert!(parts.message.starts_with("[1,1,1,"));
        assert!(parts.message.ends_with(",1,0]"));
    }
}
