//! The formats: Cody's history value, its model preferences, the `cody.*` settings and
//! the legacy JetBrains `cody_history.xml`.
//!
//! Everything here works on bytes and returns typed records next to the errors met on
//! the way; nothing fails as a whole. Mapping to rows is [`crate::rows`]' job.
//!
//! The message types are built from `serde_json::Value`s field by field rather than by
//! a strict `Deserialize`: Cody's serialiser drops undefined fields, older builds left
//! fields that later ones removed (`chatModel`, `enhancedContext`, `scope`), and a field
//! of an unexpected type must cost that field, not the whole interaction.

mod scan;
pub mod xml;

use std::collections::HashSet;
use std::ops::Range;

use chat_rows::jsonc::Node;
use serde_json::Value;

use scan::Scan;

/// The key of the chat history inside the `sourcegraph.cody-ai` value, and the name of
/// the JetBrains file that holds it.
pub const HISTORY_KEY: &str = "cody-local-chatHistory-v2";
/// The key (and JetBrains file name) of the model preferences.
pub const MODEL_PREFERENCES_KEY: &str = "cody-model-preferences";

/// Everything that can go wrong reading Cody's files. Each variant says where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input ends inside a value.
    #[error("input ends at byte {offset} inside {inside}")]
    Cut {
        /// Where the input ends.
        offset: usize,
        /// What was being read.
        inside: &'static str,
    },
    /// A byte that the JSON structure does not allow there.
    #[error("unexpected {found} at byte {offset}, expected {expected}")]
    Unexpected {
        /// Where.
        offset: usize,
        /// What was found.
        found: String,
        /// What the structure needed.
        expected: &'static str,
    },
    /// A value that serde_json refuses.
    #[error("{message} (value at byte {offset})")]
    Json {
        /// Where the value starts.
        offset: usize,
        /// serde_json's message, with its line and column inside the value.
        message: String,
    },
    /// One interaction of a chat that does not decode.
    #[error("interaction {index} at byte {offset}: {source}")]
    Interaction {
        /// 0-based index in the chat's `interactions`.
        index: usize,
        /// Where the interaction starts.
        offset: usize,
        /// Why it does not decode.
        source: Box<Error>,
    },
    /// A value that must be a JSON object is not.
    #[error("{what} at byte {offset} is not a JSON object")]
    NotObject {
        /// What was expected to be an object.
        what: &'static str,
        /// Where it starts.
        offset: usize,
    },
    /// A file that could not be read.
    #[error("{path} could not be read ({message})")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// JSONC (settings.json) that does not decode.
    #[error("{0}")]
    Jsonc(String),
    /// XML that does not parse.
    #[error("{message} at line {line} (byte {offset})")]
    Xml {
        /// Where the damage was found.
        offset: u64,
        /// The 1-based line of that byte.
        line: u64,
        /// quick-xml's message.
        message: String,
    },
    /// XML with content but no complete root element.
    #[error("file ends at line {line} (byte {offset}) before any element")]
    XmlNoRoot {
        /// Where the input ends.
        offset: u64,
        /// The 1-based line there.
        line: u64,
    },
    /// XML that ends before its elements are closed.
    #[error("file ends at line {line} (byte {offset}) inside <{element}>")]
    XmlCut {
        /// Where the input ends.
        offset: u64,
        /// The 1-based line there.
        line: u64,
        /// The innermost open element.
        element: String,
    },
}

/// A ChatError (or a ProcessingStep's error): its name and message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatError {
    /// `Error`, `RateLimitError` ...
    pub name: Option<String>,
    /// The message, for example `Command rejected`.
    pub message: Option<String>,
}

impl ChatError {
    fn from_value(v: &Value) -> Option<ChatError> {
        match v {
            Value::Null => None,
            Value::String(s) => Some(ChatError {
                name: None,
                message: Some(s.clone()),
            }),
            Value::Object(_) => Some(ChatError {
                name: str_field(v, "name"),
                message: str_field(v, "message"),
            }),
            other => Some(ChatError {
                name: None,
                message: Some(other.to_string()),
            }),
        }
    }
}

/// One `processes[]` step (ProcessingStep).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Process {
    /// `tool`, `confirmation` or `step` (Cody's default when absent is `step`).
    pub kind: Option<String>,
    /// The step id (`TOOLCLI-<uuid>`, `deep-cody`, `toolu_...`).
    pub id: String,
    /// The title (`Terminal`, the tool's name).
    pub title: Option<String>,
    /// The description.
    pub description: Option<String>,
    /// The content (the command, for a terminal confirmation).
    pub content: Option<String>,
    /// `pending`, `success` or `error`, as recorded.
    pub state: Option<String>,
    /// The step's error, if any.
    pub error: Option<ChatError>,
}

impl Process {
    fn from_value(v: &Value) -> Process {
        Process {
            kind: str_field(v, "type"),
            id: str_field(v, "id").unwrap_or_default(),
            title: str_field(v, "title"),
            description: text_field(v, "description"),
            content: text_field(v, "content"),
            state: str_field(v, "state"),
            error: v.get("error").and_then(ChatError::from_value),
        }
    }
}

/// One `content[]` part (MessagePart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// `{type:"text", text}`.
    Text(String),
    /// `{type:"tool_call", tool_call:{id, name, arguments}}` (arguments as recorded, a JSON string).
    ToolCall {
        /// Joins the call to its result.
        id: String,
        /// The tool.
        name: String,
        /// The arguments.
        arguments: String,
    },
    /// `{type:"tool_result", tool_result:{id, content}}`.
    ToolResult {
        /// Joins the result to its call.
        id: String,
        /// The result.
        content: String,
    },
    /// Any other part (`context_file`, `context_repo`, `image_url` ...), by its type.
    Other(String),
}

impl Part {
    fn from_value(v: &Value) -> Part {
        match v.get("type").and_then(Value::as_str).unwrap_or("") {
            "text" => Part::Text(text_field(v, "text").unwrap_or_default()),
            "tool_call" => {
                let c = v.get("tool_call").unwrap_or(&Value::Null);
                Part::ToolCall {
                    id: str_field(c, "id").unwrap_or_default(),
                    name: str_field(c, "name").unwrap_or_default(),
                    arguments: text_field(c, "arguments").unwrap_or_default(),
                }
            }
            "tool_result" => {
                let r = v.get("tool_result").unwrap_or(&Value::Null);
                Part::ToolResult {
                    id: str_field(r, "id").unwrap_or_default(),
                    content: text_field(r, "content").unwrap_or_default(),
                }
            }
            other => Part::Other(other.to_string()),
        }
    }
}

/// One SerializedChatMessage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// `human`, `assistant` or `system`.
    pub speaker: Option<String>,
    /// The text.
    pub text: Option<String>,
    /// The model (on assistant messages; the JetBrains migration puts it on both).
    pub model: Option<String>,
    /// `chat`, `search`, `edit`, `insert`, `agentic`.
    pub intent: Option<String>,
    /// The chat agent (`deep-cody`).
    pub agent: Option<String>,
    /// The local file paths of `contextFiles[].uri`: `file` URIs only (a tool-state
    /// item's `cody:/tools/...`, a remote search result's `https:` and an openctx item
    /// name no folder of the project; since 2026-12-05, before which their paths made
    /// the chat's project `/`).
    pub context_paths: Vec<String>,
    /// The error, if the message carries one.
    pub error: Option<ChatError>,
    /// `processes[]`.
    pub processes: Vec<Process>,
    /// `content[]`.
    pub content: Vec<Part>,
    /// The texts of `subMessages[]` (the pieces of an agentic reply).
    pub sub_texts: Vec<String>,
}

/// True for a URI of a local file: a `file:` URI string or a plain path, or a VS Code
/// URI object whose `scheme` is `file` (or that names none).
fn is_local_file(u: &Value) -> bool {
    match u {
        Value::String(s) => {
            let b = s.as_bytes();
            s.starts_with("file:")
                || s.starts_with('/')
                || (b.len() > 2
                    && b[0].is_ascii_alphabetic()
                    && b[1] == b':'
                    && matches!(b[2], b'\\' | b'/'))
        }
        Value::Object(o) => o.get("scheme").and_then(Value::as_str).unwrap_or("file") == "file",
        _ => false,
    }
}

impl Message {
    /// Builds a message from its JSON form; fields of an unexpected type are left out.
    pub fn from_value(v: &Value) -> Message {
        let context_paths = v
            .get("contextFiles")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i.get("uri").filter(|u| is_local_file(u)))
                    .filter_map(chat_rows::uri::value_to_path)
                    .collect()
            })
            .unwrap_or_default();
        let list = |k: &str| {
            v.get(k)
                .and_then(Value::as_array)
                .map(|a| a.as_slice())
                .unwrap_or_default()
        };
        let subs = list("subMessages");
        let mut processes: Vec<Process> = list("processes")
            .iter()
            .filter(|p| p.is_object())
            .map(Process::from_value)
            .collect();
        // a sub-message's step is a processing step too, unless it repeats one by id
        // (a set of the listed non-empty ids beside the list: one look-up per step)
        let mut listed: HashSet<String> = processes
            .iter()
            .filter(|p| !p.id.is_empty())
            .map(|p| p.id.clone())
            .collect();
        for step in subs
            .iter()
            .filter_map(|m| m.get("step"))
            .filter(|p| p.is_object())
        {
            let step = Process::from_value(step);
            if step.id.is_empty() || listed.insert(step.id.clone()) {
                processes.push(step);
            }
        }
        Message {
            speaker: str_field(v, "speaker"),
            text: str_field(v, "text"),
            model: str_field(v, "model"),
            intent: str_field(v, "intent"),
            agent: str_field(v, "agent"),
            context_paths,
            error: v.get("error").and_then(ChatError::from_value),
            processes,
            content: list("content")
                .iter()
                .filter(|p| p.is_object())
                .map(Part::from_value)
                .collect(),
            sub_texts: subs.iter().filter_map(|m| str_field(m, "text")).collect(),
        }
    }

    /// The text, or else the text parts of `content[]` joined, or else the texts of
    /// `subMessages[]` joined.
    pub fn display_text(&self) -> Option<String> {
        if let Some(t) = &self.text {
            return Some(t.clone());
        }
        let parts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|p| match p {
                Part::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        if !parts.is_empty() {
            return Some(parts.join("\n"));
        }
        (!self.sub_texts.is_empty()).then(|| self.sub_texts.join("\n"))
    }
}

/// One SerializedChatInteraction: a human message and its reply (`None` when the
/// stored `assistantMessage` is `null` or absent: a prompt that got no saved reply).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interaction {
    /// Where the interaction starts in the value.
    pub offset: usize,
    /// The human message.
    pub human: Option<Message>,
    /// The assistant message.
    pub assistant: Option<Message>,
}

impl Interaction {
    fn from_value(v: &Value, offset: usize) -> Result<Interaction, Error> {
        if !v.is_object() {
            return Err(Error::NotObject {
                what: "an interaction",
                offset,
            });
        }
        let msg = |k: &str| v.get(k).filter(|m| m.is_object()).map(Message::from_value);
        Ok(Interaction {
            offset,
            human: msg("humanMessage"),
            assistant: msg("assistantMessage"),
        })
    }
}

/// Why a chat (record) did not decode fully, and the text quoted in its `parser:` row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatDamage {
    /// What went wrong, and where.
    pub error: Error,
    /// The beginning of the chat's raw text (enough to quote).
    pub record: String,
}

/// One chat of the history (a SerializedChatTranscript), with its place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chat {
    /// 1-based number of the chat in the value, in document order.
    pub number: usize,
    /// The account key: `<endpoint>-<username>`.
    pub account: String,
    /// The chat id (the key in the account's `chat` map).
    pub id: String,
    /// Where the chat's value starts.
    pub offset: usize,
    /// `chatTitle`, present when the chat was renamed.
    pub title: Option<String>,
    /// `lastInteractionTimestamp` (the creation time, despite the name).
    pub last_interaction: Option<String>,
    /// The interactions that decoded, in order.
    pub interactions: Vec<Interaction>,
    /// The first part of the chat that did not decode, if any. Interactions before it
    /// are kept, and so are those after it when the reading could go on (see
    /// [`Chat::more_damage`]).
    pub damage: Option<ChatDamage>,
    /// Interactions after the first damage that did not decode either, when the reading
    /// went on past each (an interaction whose structure is intact but for its string
    /// values, or one that is not an object): each is reported, none is dropped.
    pub more_damage: Vec<ChatDamage>,
}

/// How many bytes of a broken chat are kept for quoting (the quote itself is cut shorter).
const RECORD_QUOTE_BYTES: usize = 4096;

impl Chat {
    fn decode(bytes: &[u8], span: Range<usize>, complete: bool, base: Chat) -> Chat {
        let raw = &bytes[span.clone()];
        let mut chat = base;
        if complete {
            match chat_rows::json::from_slice::<Value>(raw) {
                Ok(v) if v.is_object() => {
                    chat.fill_from_value(&v, bytes, span.start);
                    return chat;
                }
                Ok(_) => {
                    chat.damage = Some(ChatDamage {
                        error: Error::NotObject {
                            what: "a chat",
                            offset: span.start,
                        },
                        record: quote_bytes(raw),
                    });
                    return chat;
                }
                Err(e) => {
                    // recover interaction by interaction; if the structure reads fine the
                    // damage is in a field the structural pass skips, and serde's error says where
                    let mut skipped = Vec::new();
                    let stop = chat.fill_structurally(bytes, span.clone(), &mut skipped);
                    let stop = stop.or_else(|| {
                        skipped.is_empty().then(|| Error::Json {
                            offset: span.start,
                            message: chat_rows::json::reason(&e),
                        })
                    });
                    chat.set_damage(skipped, stop, bytes, span.clone());
                    return chat;
                }
            }
        }
        let mut skipped = Vec::new();
        let stop = chat.fill_structurally(bytes, span.clone(), &mut skipped);
        let stop = stop.unwrap_or(Error::Cut {
            offset: span.end,
            inside: "a chat",
        });
        chat.set_damage(skipped, Some(stop), bytes, span.clone());
        chat
    }

    /// Records the damage of a chat read structurally: the interactions skipped (in
    /// order, with their spans), then the error that stopped the reading. The first is
    /// the chat's [`Chat::damage`] (quoting the chat, as before), the others
    /// [`Chat::more_damage`] (quoting their own interaction; the stop, from its
    /// interaction to the chat's end).
    fn set_damage(
        &mut self,
        skipped: Vec<(Error, Range<usize>)>,
        stop: Option<Error>,
        bytes: &[u8],
        chat: Range<usize>,
    ) {
        let raw = &bytes[chat.clone()];
        // the stop is quoted from the interaction it stopped in to the chat's end
        let stop = stop.map(|e| {
            let from = match &e {
                Error::Interaction { offset, .. } => (*offset).clamp(chat.start, chat.end),
                _ => chat.start,
            };
            (e, from..chat.end)
        });
        let all = skipped.into_iter().chain(stop);
        for (error, span) in all {
            if self.damage.is_none() {
                self.damage = Some(ChatDamage {
                    error,
                    record: quote_bytes(raw),
                });
            } else {
                self.more_damage.push(ChatDamage {
                    error,
                    record: quote_bytes(bytes.get(span).unwrap_or_default()),
                });
            }
        }
    }

    fn fill_from_value(&mut self, v: &Value, bytes: &[u8], start: usize) {
        self.title = str_field(v, "chatTitle");
        self.last_interaction = str_field(v, "lastInteractionTimestamp");
        if let Some(items) = v.get("interactions").and_then(Value::as_array) {
            // Offsets of the interactions need the raw bytes; a second structural pass
            // over the (valid) chat finds them cheaply.
            let offsets = interaction_offsets(bytes, start);
            for (i, item) in items.iter().enumerate() {
                let off = offsets.get(i).copied().unwrap_or(start);
                match Interaction::from_value(item, off) {
                    Ok(it) => self.interactions.push(it),
                    Err(e) => {
                        let d = ChatDamage {
                            error: Error::Interaction {
                                index: i,
                                offset: off,
                                source: Box::new(e),
                            },
                            record: quote_bytes(
                                &bytes[off..bytes.len().min(off + RECORD_QUOTE_BYTES)],
                            ),
                        };
                        if self.damage.is_none() {
                            self.damage = Some(d);
                        } else {
                            self.more_damage.push(d);
                        }
                    }
                }
            }
        }
    }

    /// Reads a chat that serde_json refused, member by member and interaction by
    /// interaction; returns the error that stopped it (or `None` if it read to the end).
    /// An interaction that does not decode but whose structure is intact but for its
    /// string values ([`Scan::intact_but_for_strings`]) ends where the scanner found it:
    /// its error goes to `skipped` and the reading goes on with the next interaction.
    fn fill_structurally(
        &mut self,
        bytes: &[u8],
        span: Range<usize>,
        skipped: &mut Vec<(Error, Range<usize>)>,
    ) -> Option<Error> {
        let mut sc = Scan::new(&bytes[..span.end], span.start);
        let result = (|| -> Result<(), Error> {
            sc.expect(b'{', "'{' opening a chat")?;
            if sc.empty_close(b'}') {
                return Ok(());
            }
            loop {
                let key = sc.key()?;
                match key.as_str() {
                    "chatTitle" | "lastInteractionTimestamp" => {
                        let (a, b) = sc.skip_value("a chat field")?;
                        let s = decode_value(bytes, a..b)?;
                        let s = s.as_str().map(str::to_string);
                        if key == "chatTitle" {
                            self.title = s;
                        } else {
                            self.last_interaction = s;
                        }
                    }
                    "interactions" => {
                        sc.expect(b'[', "'[' opening interactions")?;
                        if !sc.empty_close(b']') {
                            let mut index = 0;
                            loop {
                                sc.ws();
                                let at = sc.pos;
                                let wrap = |e: Error| Error::Interaction {
                                    index,
                                    offset: at,
                                    source: Box::new(e),
                                };
                                let (a, b) = sc.skip_value("an interaction").map_err(wrap)?;
                                match decode_value(bytes, a..b)
                                    .and_then(|v| Interaction::from_value(&v, at))
                                {
                                    Ok(item) => self.interactions.push(item),
                                    Err(e) => {
                                        if !Scan::new(&bytes[a..b], 0).intact_but_for_strings() {
                                            return Err(wrap(e));
                                        }
                                        skipped.push((wrap(e), a..b));
                                    }
                                }
                                index += 1;
                                if !sc.next_or_close(b']', "',' or ']' after an interaction")? {
                                    break;
                                }
                            }
                        }
                    }
                    _ => {
                        sc.skip_value("a chat field")?;
                    }
                }
                if !sc.next_or_close(b'}', "',' or '}' after a chat field")? {
                    return Ok(());
                }
            }
        })();
        result.err()
    }
}

/// The offsets of the elements of a valid chat's `interactions` array.
fn interaction_offsets(bytes: &[u8], start: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut sc = Scan::new(bytes, start);
    let _ = (|| -> Result<(), Error> {
        sc.expect(b'{', "{")?;
        if sc.empty_close(b'}') {
            return Ok(());
        }
        loop {
            let key = sc.key()?;
            if key == "interactions" && sc.peek() == Some(b'[') {
                sc.pos += 1;
                if sc.empty_close(b']') {
                    return Ok(());
                }
                loop {
                    sc.ws();
                    out.push(sc.pos);
                    sc.skip_value("v")?;
                    if !sc.next_or_close(b']', "]")? {
                        return Ok(());
                    }
                }
            }
            sc.skip_value("v")?;
            if !sc.next_or_close(b'}', "}")? {
                return Ok(());
            }
        }
    })();
    out
}

fn decode_value(bytes: &[u8], span: Range<usize>) -> Result<Value, Error> {
    chat_rows::json::from_slice::<Value>(&bytes[span.clone()]).map_err(|e| Error::Json {
        offset: span.start,
        message: chat_rows::json::reason(&e),
    })
}

fn quote_bytes(raw: &[u8]) -> String {
    String::from_utf8_lossy(&raw[..raw.len().min(RECORD_QUOTE_BYTES)]).into_owned()
}

/// Whether reading goes on after a part (`Stop`: a chat ran off the end of the input,
/// and that chat's damage already reports it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

/// The AccountKeyedChatHistory: every chat of every account, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatHistory {
    /// The chats, including damaged ones (see [`Chat::damage`]).
    pub chats: Vec<Chat>,
    /// Damage outside any chat (in the accounts' structure), after which nothing more was read.
    pub damage: Option<Error>,
}

impl ChatHistory {
    /// Decodes a history value (the JetBrains file's content, or the value of
    /// `cody-local-chatHistory-v2`). Never fails: damage is recorded in the result.
    pub fn from_bytes(bytes: &[u8]) -> ChatHistory {
        let mut h = ChatHistory::default();
        let mut sc = Scan::new(bytes, 0);
        match h.read_at(&mut sc) {
            Err(e) => h.damage = Some(e),
            Ok(Flow::Go) => {
                if let Some(b) = sc.peek() {
                    h.damage = Some(Error::Unexpected {
                        offset: sc.pos,
                        found: (b as char).to_string(),
                        expected: "the end of the history",
                    });
                }
            }
            Ok(Flow::Stop) => {}
        }
        h
    }

    /// Reads a JetBrains `cody-local-chatHistory-v2` file through `evidence`.
    pub fn from_path(
        path: &std::path::Path,
        evidence: &chat_rows::Evidence,
    ) -> Result<ChatHistory, Error> {
        Ok(ChatHistory::from_bytes(&read(path, evidence)?))
    }

    /// The number of chats, damaged ones included.
    pub fn len(&self) -> usize {
        self.chats.len()
    }

    /// True when the value holds no chat.
    pub fn is_empty(&self) -> bool {
        self.chats.is_empty()
    }

    /// Reads the history object at the scanner's position. A chat that runs off the end
    /// is recorded as a damaged chat, not as history damage.
    fn read_at(&mut self, sc: &mut Scan<'_>) -> Result<Flow, Error> {
        if sc.peek() == Some(b'"') {
            // A history stored as a JSON string (JSON.stringify twice): decode the string
            // and read the inner value; offsets are then inside the decoded string.
            let s = sc.string("the history")?;
            let inner = ChatHistory::from_bytes(s.as_bytes());
            self.chats = inner.chats;
            return match inner.damage {
                Some(e) => Err(e),
                None => Ok(Flow::Go),
            };
        }
        if sc.peek() == Some(b'n') {
            // `null`: the key exists and holds nothing.
            let (a, b) = sc.skip_value("the history")?;
            return if &sc.bytes[a..b] == b"null" {
                Ok(Flow::Go)
            } else {
                Err(Error::NotObject {
                    what: "the history",
                    offset: a,
                })
            };
        }
        if sc.peek() != Some(b'{') {
            sc.ws();
            return Err(Error::NotObject {
                what: "the history",
                offset: sc.pos,
            });
        }
        sc.pos += 1;
        if sc.empty_close(b'}') {
            return Ok(Flow::Go);
        }
        loop {
            let account = sc.key()?;
            if sc.peek() == Some(b'{') {
                sc.pos += 1;
                if !sc.empty_close(b'}') {
                    loop {
                        let key = sc.key()?;
                        if key == "chat" && sc.peek() == Some(b'{') {
                            if self.read_chats(sc, &account)? == Flow::Stop {
                                return Ok(Flow::Stop);
                            }
                        } else {
                            sc.skip_value("an account field")?;
                        }
                        if !sc.next_or_close(b'}', "',' or '}' after an account field")? {
                            break;
                        }
                    }
                }
            } else {
                sc.skip_value("an account")?;
            }
            if !sc.next_or_close(b'}', "',' or '}' after an account")? {
                return Ok(Flow::Go);
            }
        }
    }

    fn read_chats(&mut self, sc: &mut Scan<'_>, account: &str) -> Result<Flow, Error> {
        sc.expect(b'{', "'{' opening the chat map")?;
        if sc.empty_close(b'}') {
            return Ok(Flow::Go);
        }
        loop {
            let id = sc.key()?;
            sc.ws();
            let start = sc.pos;
            let skipped = sc.skip_value("a chat");
            let base = Chat {
                number: self.chats.len() + 1,
                account: account.to_string(),
                id,
                offset: start,
                ..Chat::default()
            };
            match skipped {
                Ok((a, b)) => self.chats.push(Chat::decode(sc.bytes, a..b, true, base)),
                Err(Error::Cut { .. }) if start < sc.bytes.len() => {
                    // The chat runs off the end: recover what it holds, and stop.
                    self.chats
                        .push(Chat::decode(sc.bytes, start..sc.bytes.len(), false, base));
                    return Ok(Flow::Stop);
                }
                Err(e) => return Err(e),
            }
            if !sc.next_or_close(b'}', "',' or '}' after a chat")? {
                return Ok(Flow::Go);
            }
        }
    }
}

/// The endpoint and username of an account key `<endpoint>-<username>`.
///
/// The endpoint ends in `/`, and both hosts and usernames may contain `-`, so the key
/// is split at the last `/-`. In a key without `/-` (an endpoint written without its
/// slash, as in Cody's own unit tests) no `-` can be told from one of a hyphenated
/// host or username, so the key is returned whole as the endpoint, with no username.
pub fn split_account_key(key: &str) -> (&str, &str) {
    match key.rfind("/-") {
        Some(i) => (&key[..=i], &key[i + 2..]),
        None => (key, ""),
    }
}

/// One endpoint's model preferences: the user's `selected` and the server's `defaults`,
/// each a list of `(usage, model id)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointModels {
    /// The endpoint URL.
    pub endpoint: String,
    /// The user's choices.
    pub selected: Vec<(String, String)>,
    /// The server's defaults.
    pub defaults: Vec<(String, String)>,
}

/// `cody-model-preferences`: per endpoint, the selected and default model per usage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelPreferences {
    /// One entry per endpoint.
    pub endpoints: Vec<EndpointModels>,
}

impl ModelPreferences {
    /// Reads a JetBrains `cody-model-preferences` file through `evidence`.
    pub fn from_path(
        path: &std::path::Path,
        evidence: &chat_rows::Evidence,
    ) -> Result<ModelPreferences, Error> {
        ModelPreferences::from_bytes(&read(path, evidence)?)
    }

    /// Decodes the JetBrains file (or the key's value). Not JSON, or not an object, is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<ModelPreferences, Error> {
        let v = decode_value(bytes, 0..bytes.len())?;
        let v = match v {
            Value::String(s) => decode_value(s.as_bytes(), 0..s.len())?,
            v => v,
        };
        ModelPreferences::from_value(&v)
    }

    /// Builds the preferences from their JSON value.
    pub fn from_value(v: &Value) -> Result<ModelPreferences, Error> {
        let Some(map) = v.as_object() else {
            return Err(Error::NotObject {
                what: "cody-model-preferences",
                offset: 0,
            });
        };
        let pairs = |v: Option<&Value>| -> Vec<(String, String)> {
            v.and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                        .collect()
                })
                .unwrap_or_default()
        };
        Ok(ModelPreferences {
            endpoints: map
                .iter()
                .map(|(endpoint, prefs)| EndpointModels {
                    endpoint: endpoint.clone(),
                    selected: pairs(prefs.get("selected")),
                    defaults: pairs(prefs.get("defaults")),
                })
                .collect(),
        })
    }
}

/// The parts of the `sourcegraph.cody-ai` value (VS Code's globalState of the extension)
/// that this crate reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtensionState {
    /// `cody-local-chatHistory-v2`, when the value holds it.
    pub history: Option<ChatHistory>,
    /// `cody-model-preferences`, when the value holds it (or why it did not decode).
    pub model_preferences: Option<Result<ModelPreferences, Error>>,
    /// Damage in the value outside those two keys, after which nothing more was read.
    pub damage: Option<Error>,
}

impl ExtensionState {
    /// Decodes the value. Never fails: damage is recorded in the result.
    pub fn from_bytes(bytes: &[u8]) -> ExtensionState {
        let mut st = ExtensionState::default();
        let mut sc = Scan::new(bytes, 0);
        if let Err(e) = st.read(&mut sc) {
            st.damage = Some(e);
        }
        st
    }

    fn read(&mut self, sc: &mut Scan<'_>) -> Result<(), Error> {
        if sc.peek() != Some(b'{') {
            sc.ws();
            return Err(Error::NotObject {
                what: "the sourcegraph.cody-ai value",
                offset: sc.pos,
            });
        }
        sc.pos += 1;
        if sc.empty_close(b'}') {
            return Ok(());
        }
        loop {
            let key = sc.key()?;
            match key.as_str() {
                HISTORY_KEY => {
                    let mut h = ChatHistory::default();
                    let r = h.read_at(sc);
                    match r {
                        Err(e) => {
                            // the value's structure is broken inside the history: the
                            // history's damage reports it, and nothing after it can be found
                            h.damage = Some(e);
                            self.history = Some(h);
                            return Ok(());
                        }
                        Ok(Flow::Stop) => {
                            // the history ran off the end: its damaged chat already says so
                            self.history = Some(h);
                            return Ok(());
                        }
                        Ok(Flow::Go) => self.history = Some(h),
                    }
                }
                MODEL_PREFERENCES_KEY => {
                    let (a, b) = sc.skip_value("cody-model-preferences")?;
                    let prefs = decode_value(sc.bytes, a..b).and_then(|v| match v {
                        Value::String(s) => decode_value(s.as_bytes(), 0..s.len()),
                        v => Ok(v),
                    });
                    self.model_preferences = Some(prefs.and_then(|v| {
                        ModelPreferences::from_value(&v).map_err(|_| Error::NotObject {
                            what: "cody-model-preferences",
                            offset: a,
                        })
                    }));
                }
                _ => {
                    sc.skip_value("a value")?;
                }
            }
            if !sc.next_or_close(b'}', "',' or '}' after a key")? {
                return Ok(());
            }
        }
    }
}

/// One `cody.*` setting that the permission rows report, as `key` and printed value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The full key, leaf path included: `cody.agentic.context.experimentalOptions.shell.allow`.
    pub key: String,
    /// The top-level settings key it sits under (to find its line).
    pub top_key: String,
    /// The value: a string as written, anything else as compact JSON.
    pub value: String,
}

/// Decodes a `settings.json` (JSONC) and returns the permission settings of Cody:
/// every leaf of `cody.agentic.context.experimentalOptions`, `cody.agentic.context.experimentalShell`,
/// `cody.chat.agenticContext`, and `disabled` / `disabledTools` of each `cody.mcpServers`
/// server. A server's `headers`, `env`, `url`, `command` and `args` are never read.
/// An empty document gives no setting.
pub fn permission_settings(bytes: &[u8]) -> Result<Vec<Setting>, Error> {
    // a tree, not a decoded map: the settings come out in the file's order, each value
    // as written (a map would sort the keys)
    let tree =
        chat_rows::jsonc::parse_tree_bytes(bytes).map_err(|e| Error::Jsonc(e.to_string()))?;
    let map = match tree {
        None
        | Some(Node::Scalar {
            value: Value::Null, ..
        }) => return Ok(Vec::new()),
        Some(m) if m.is_object() => m,
        _ => {
            return Err(Error::NotObject {
                what: "settings.json",
                offset: 0,
            });
        }
    };
    let mut out = Vec::new();
    const OPTIONS: &str = "cody.agentic.context.experimentalOptions";
    for (key, value) in map.members() {
        match key {
            OPTIONS => leaves(OPTIONS, OPTIONS, value, &mut out),
            "cody.agentic.context.experimentalShell" | "cody.chat.agenticContext" => {
                out.push(Setting {
                    key: key.to_string(),
                    top_key: key.to_string(),
                    value: shown(value),
                })
            }
            "cody.mcpServers" => {
                for (name, server) in value.members() {
                    for field in ["disabled", "disabledTools"] {
                        if let Some(v) = server.get(field) {
                            out.push(Setting {
                                key: format!("{key}.{name}.{field}"),
                                top_key: key.to_string(),
                                value: shown(v),
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The leaves under `v` in the file's order (the parser bounds the nesting at 512).
fn leaves(top: &str, path: &str, v: &Node<'_>, out: &mut Vec<Setting>) {
    let members = v.members();
    if members.is_empty() {
        out.push(Setting {
            key: path.to_string(),
            top_key: top.to_string(),
            value: shown(v),
        });
    }
    for (k, child) in members {
        leaves(top, &format!("{path}.{k}"), child, out);
    }
}

/// [`display`] of a value as written: a string as is, anything else as compact JSON
/// with its keys in the file's order and its escapes and numbers as written.
fn shown(v: &Node<'_>) -> String {
    v.as_str()
        .map_or_else(|| v.compact(|_| false), str::to_string)
}

/// A value as setting rows print it: a string as written, anything else as compact JSON.
pub fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads a file through the evidence gateway (read-only, recorded in its manifest).
pub(crate) fn read(
    path: &std::path::Path,
    evidence: &chat_rows::Evidence,
) -> Result<Vec<u8>, Error> {
    evidence.read(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

fn str_field(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

/// A field that should be text: a string as is, any other non-null value as compact JSON.
fn text_field(v: &Value, k: &str) -> Option<String> {
    match v.get(k)? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_keys_split_at_the_last_slash_dash() {
        assert_eq!(
            split_account_key("https://sourcegraph.com/-jane-doe-dev"),
            ("https://sourcegraph.com/", "jane-doe-dev")
        );
        assert_eq!(
            split_account_key("https://sg-internal.example-corp.com/-bob"),
            ("https://sg-internal.example-corp.com/", "bob")
        );
        assert_eq!(
            split_account_key("https://x.example-corp.com/a/-b-c"),
            ("https://x.example-corp.com/a/", "b-c")
        );
        assert_eq!(split_account_key("nokey"), ("nokey", ""));
    }

    #[test]
    fn history_in_document_order_with_a_cut_chat() {
        let v = br#"{"e/-u":{"chat":{"b":{"id":"b","interactions":[{"humanMessage":{"text":"one"},"assistantMessage":null}]},"a":{"id":"a","interactions":[{"humanMessage":{"text":"two"}},{"humanMessage":{"te"#;
        let h = ChatHistory::from_bytes(v);
        assert_eq!(h.damage, None);
        assert_eq!(h.chats.len(), 2);
        assert_eq!((h.chats[0].id.as_str(), h.chats[0].number), ("b", 1));
        assert_eq!(
            h.chats[0].interactions[0]
                .human
                .as_ref()
                .unwrap()
                .text
                .as_deref(),
            Some("one")
        );
        assert_eq!(h.chats[0].interactions[0].assistant, None);
        assert_eq!(h.chats[0].damage, None);
        let a = &h.chats[1];
        assert_eq!(a.interactions.len(), 1);
        let d = a.damage.as_ref().unwrap();
        assert_eq!(
            d.error.to_string(),
            "interaction 1 at byte 167: input ends at byte 187 inside an interaction"
        );
    }

    #[test]
    fn damage_between_chats_stops_with_history_damage() {
        let v = br#"{"e/-u":{"chat":{"b":{"id":"b"} x "a":{}}}}"#;
        let h = ChatHistory::from_bytes(v);
        assert_eq!(h.chats.len(), 1);
        assert_eq!(
            h.damage.unwrap().to_string(),
            "unexpected x at byte 32, expected ',' or '}' after a chat"
        );
        let h = ChatHistory::from_bytes(b"[1]");
        assert_eq!(
            h.damage.unwrap().to_string(),
            "the history at byte 0 is not a JSON object"
        );
        assert_eq!(ChatHistory::from_bytes(b"{}"), ChatHistory::default());
    }

    #[test]
    fn a_chat_with_a_broken_interaction_keeps_the_others_before_it() {
        let v = br#"{"e/-u":{"chat":{"c":{"id":"c","interactions":[{"humanMessage":{"text":"ok"}},{"humanMessage":{"text":tru}},{"humanMessage":{"text":"after"}}],"lastInteractionTimestamp":"c"}}}}"#;
        let h = ChatHistory::from_bytes(v);
        assert_eq!(h.damage, None);
        let c = &h.chats[0];
        assert_eq!(c.interactions.len(), 1);
        assert_eq!(
            c.damage.as_ref().unwrap().error.to_string(),
            "interaction 1 at byte 78: expected ident at line 1 column 28 (value at byte 78)"
        );
    }

    #[test]
    fn settings_never_read_server_secrets() {
        let s = br#"// comment
        {"cody.mcpServers":{"gh":{"command":"npx","env":{"T":"tok_123"},"disabledTools":["x"]},"web":{"url":"https://u","headers":{"Authorization":"Bearer tok_456"},"disabled":true}},
         "cody.agentic.context.experimentalOptions":{"shell":{"allow":["git","ls"],"block":["sudo"]}},"cody.chat.agenticContext":false,"editor.fontSize":12,}"#;
        let got: Vec<(String, String)> = permission_settings(s)
            .unwrap()
            .into_iter()
            .map(|s| (s.key, s.value))
            .collect();
        assert_eq!(
            got,
            // in the file's order
            vec![
                ("cody.mcpServers.gh.disabledTools".into(), r#"["x"]"#.into()),
                ("cody.mcpServers.web.disabled".into(), "true".into()),
                (
                    "cody.agentic.context.experimentalOptions.shell.allow".into(),
                    r#"["git","ls"]"#.into()
                ),
                (
                    "cody.agentic.context.experimentalOptions.shell.block".into(),
                    r#"["sudo"]"#.into()
                ),
                ("cody.chat.agenticContext".into(), "false".into()),
            ]
        );
        assert_eq!(permission_settings(b"  ").unwrap(), vec![]);
        assert_eq!(
            permission_settings(b"[1]").unwrap_err().to_string(),
            "settings.json at byte 0 is not a JSON object"
        );
    }

    #[test]
    fn sub_messages_give_text_and_steps() {
        let v: Value = serde_json::from_str(
            r#"{"speaker":"assistant","processes":[{"type":"tool","id":"a","title":"T"}],
                "subMessages":[{"text":"first"},{"step":{"type":"tool","id":"a"}},{"text":"second","step":{"type":"confirmation","id":"b","state":"pending"}}]}"#,
        )
        .unwrap();
        let m = Message::from_value(&v);
        assert_eq!(m.display_text().as_deref(), Some("first\nsecond"));
        let ids: Vec<&str> = m.processes.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, vec!["a", "b"]);
    }

    #[test]
    fn model_preferences() {
        let p = ModelPreferences::from_bytes(br#"{"https://sourcegraph.com/":{"defaults":{"chat":"d","edit":"e"},"selected":{"chat":"s"}}}"#).unwrap();
        assert_eq!(
            p.endpoints[0].selected,
            vec![("chat".to_string(), "s".to_string())]
        );
        assert_eq!(p.endpoints[0].defaults.len(), 2);
        assert_eq!(
            ModelPreferences::from_bytes(b"[]").unwrap_err().to_string(),
            "cody-model-preferences at byte 0 is not a JSON object"
        );
        assert!(ModelPreferences::from_bytes(b"{").is_err());
    }

    #[test]
    fn extension_state_finds_both_keys() {
        let v = br#"{"other":[1,{"x":"}"}],"cody-model-preferences":{"e/":{"selected":{"chat":"m"}}},"cody-local-chatHistory-v2":{"e/-u":{"chat":{"i":{"interactions":[]}}}}}"#;
        let st = ExtensionState::from_bytes(v);
        assert_eq!(st.damage, None);
        assert_eq!(st.history.unwrap().chats[0].id, "i");
        assert_eq!(
            st.model_preferences.unwrap().unwrap().endpoints[0].endpoint,
            "e/"
        );
        let st = ExtensionState::from_bytes(
            br#"{"cody-local-chatHistory-v2":"{\"e/-u\":{\"chat\":{\"j\":{}}}}"}"#,
        );
        assert_eq!(st.history.unwrap().chats[0].id, "j");
    }
}
