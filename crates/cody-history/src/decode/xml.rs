//! The legacy JetBrains history, `<project>/.idea/cody_history.xml`.
//!
//! The pre-agent plugin kept its chats in a project-level persistent component. The
//! IntelliJ serialiser writes every scalar as an element named for the field with a
//! `value` attribute (`<text value="hi"/>`) and every list as the field's element
//! around `<list>`. Later builds name the component `ChatHistory` and group chats
//! under `accountData > list > AccountData`; older ones name it
//! `com.sourcegraph.cody.history.HistoryService` and keep a top-level `chats` list with
//! the account on each chat. Both are read, and `<option name="x" value="v"/>` is read
//! as `<x value="v"/>` in case a build serialised a field that way.
//!
//! The file is read with quick-xml event by event, so a file cut off or damaged in the
//! middle still gives every chat that closed before the damage.

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use super::Error;

/// One `<message>` of a legacy chat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegacyMessage {
    /// `HUMAN` or `ASSISTANT`.
    pub speaker: Option<String>,
    /// The text (the serialiser writes newlines as `&#10;`; they are decoded).
    pub text: Option<String>,
    /// Byte offset of the `<message>` element.
    pub offset: u64,
    /// Its 1-based line.
    pub line: u64,
}

/// One `<chat>` of the legacy history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegacyChat {
    /// `internalId` (a UUID).
    pub internal_id: Option<String>,
    /// `updatedAt`: host-local time without a zone, the migrated chat's id.
    pub updated_at: Option<String>,
    /// The account id: the enclosing `AccountData`'s, else the chat's own (deprecated) one.
    pub account_id: Option<String>,
    /// The first `model` value anywhere under `llm`.
    pub llm_model: Option<String>,
    /// The deprecated `model` child of the chat.
    pub deprecated_model: Option<String>,
    /// The messages, in order.
    pub messages: Vec<LegacyMessage>,
    /// True for a chat of the account list (`accountData > list > AccountData`), false
    /// for one of the deprecated top-level `chats` list.
    pub in_account_list: bool,
    /// Byte offset of the `<chat>` element.
    pub offset: u64,
    /// Its 1-based line.
    pub line: u64,
}

impl LegacyChat {
    /// The chat's model: the `llm` model, else the deprecated `model`.
    pub fn model(&self) -> Option<&str> {
        self.llm_model
            .as_deref()
            .or(self.deprecated_model.as_deref())
    }
}

/// What a `cody_history.xml` holds: the chats read before any damage, and the damage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegacyHistory {
    /// The component name found (`ChatHistory` or `com.sourcegraph.cody.history.HistoryService`).
    pub component: Option<String>,
    /// Every chat that closed before the damage, once: a chat of the deprecated
    /// top-level list that the account list also holds is in [`LegacyHistory::folded`]
    /// instead.
    pub chats: Vec<LegacyChat>,
    /// How many chats of the top-level list were the account list's chats again (same
    /// `internalId`, every message also in the account list's copy) and are not
    /// repeated in [`LegacyHistory::chats`].
    pub folded: usize,
    /// The damage that stopped reading, if any.
    pub damage: Option<Error>,
}

struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
}

impl LineCounter<'_> {
    fn line_of(&mut self, offset: u64) -> u64 {
        let offset = (offset as usize).min(self.bytes.len());
        if offset < self.at {
            self.at = 0;
            self.line = 1;
        }
        self.line += memchr::memchr_iter(b'\n', &self.bytes[self.at..offset]).count() as u64;
        self.at = offset;
        self.line
    }
}

fn name_of(e: &BytesStart<'_>) -> Result<String, quick_xml::Error> {
    let local = e.local_name().as_ref().to_string();
    if local == "option" {
        if let Some(a) = e.try_get_attribute("name")? {
            return Ok(a.normalized_value(XmlVersion::Implicit1_0)?.into_owned());
        }
    }
    Ok(local)
}

fn value_of(e: &BytesStart<'_>) -> Result<Option<String>, quick_xml::Error> {
    match e.try_get_attribute("value")? {
        Some(a) => Ok(Some(
            a.normalized_value(XmlVersion::Implicit1_0)?.into_owned(),
        )),
        None => Ok(None),
    }
}

impl LegacyHistory {
    /// Reads a `cody_history.xml` through `evidence`; only an unreadable file is an error.
    pub fn from_path(
        path: &std::path::Path,
        evidence: &chat_rows::Evidence,
    ) -> Result<LegacyHistory, Error> {
        Ok(LegacyHistory::from_bytes(&super::read(path, evidence)?))
    }

    /// Reads a `cody_history.xml`. Never fails: damage is recorded in the result.
    ///
    /// Real plugin files keep the deprecated top-level `chats` list beside
    /// `accountData`, holding the same chats again; each chat is given once. The
    /// account list wins (it is what the plugin read and wrote last); a top-level chat
    /// is kept when the account list has no chat of its `internalId`, or when it holds a
    /// message (speaker and text) that the account list's copy lacks.
    pub fn from_bytes(bytes: &[u8]) -> LegacyHistory {
        let mut out = LegacyHistory::read(bytes);
        out.fold_top_level();
        out
    }

    /// Drops the top-level chats that repeat an account-list chat (see
    /// [`LegacyHistory::from_bytes`]); linear in the chats and messages.
    fn fold_top_level(&mut self) {
        use std::collections::{HashMap, HashSet};
        if self.chats.iter().all(|c| c.in_account_list)
            || self.chats.iter().all(|c| !c.in_account_list)
        {
            return;
        }
        // a message as (speaker, text)
        type Said<'a> = (Option<&'a str>, Option<&'a str>);
        let mut listed: HashMap<&str, HashSet<Said<'_>>> = HashMap::new();
        for c in self.chats.iter().filter(|c| c.in_account_list) {
            if let Some(id) = c.internal_id.as_deref() {
                listed.entry(id).or_default().extend(
                    c.messages
                        .iter()
                        .map(|m| (m.speaker.as_deref(), m.text.as_deref())),
                );
            }
        }
        let repeats: Vec<bool> = self
            .chats
            .iter()
            .map(|c| {
                !c.in_account_list
                    && c.internal_id
                        .as_deref()
                        .and_then(|id| listed.get(id))
                        .is_some_and(|msgs| {
                            c.messages
                                .iter()
                                .all(|m| msgs.contains(&(m.speaker.as_deref(), m.text.as_deref())))
                        })
            })
            .collect();
        let folded = repeats.iter().filter(|r| **r).count();
        if folded > 0 {
            let mut it = repeats.into_iter();
            self.chats.retain(|_| !it.next().unwrap_or(false));
            self.folded = folded;
        }
    }

    /// Every chat of the file as written, both lists, in file order.
    fn read(bytes: &[u8]) -> LegacyHistory {
        let mut out = LegacyHistory::default();
        let mut lines = LineCounter {
            bytes,
            at: 0,
            line: 1,
        };
        let mut reader = Reader::from_reader(bytes);
        reader.config_mut().check_end_names = true;
        let mut stack: Vec<String> = Vec::new();
        // the stack positions of the open <llm> elements, so that "inside an <llm> of
        // the chat" is one look at the innermost, not a scan of the stack at every
        // <model> (quadratic in nesting depth)
        let mut llms: Vec<usize> = Vec::new();
        let mut account: Option<String> = None;
        // the stack position of the open <AccountData>: a chat inside it belongs to
        // the account list, and its account ends when the element closes (a top-level
        // chat after the account list must not inherit the last account's id)
        let mut account_at: Option<usize> = None;
        let mut chat: Option<(usize, LegacyChat)> = None;
        let mut message: Option<(usize, LegacyMessage)> = None;
        let mut saw_element = false;
        loop {
            let start = reader.buffer_position();
            let event = match reader.read_event() {
                Ok(ev) => ev,
                Err(e) => {
                    let offset = reader.error_position();
                    out.damage = Some(Error::Xml {
                        offset,
                        line: lines.line_of(offset),
                        message: e.to_string(),
                    });
                    return out;
                }
            };
            let step = (|| -> Result<bool, quick_xml::Error> {
                match &event {
                    Event::Start(e) | Event::Empty(e) => {
                        saw_element = true;
                        let name = name_of(e)?;
                        let value = value_of(e)?;
                        let empty = matches!(event, Event::Empty(_));
                        let parent = stack.last().map(String::as_str).unwrap_or("");
                        if name == "component" {
                            if let Some(a) = e.try_get_attribute("name")? {
                                out.component.get_or_insert(
                                    a.normalized_value(XmlVersion::Implicit1_0)?.into_owned(),
                                );
                            }
                        }
                        if name == "AccountData" {
                            account = None;
                            if !empty {
                                account_at = Some(stack.len());
                            }
                        }
                        match (&mut chat, value) {
                            (Some((depth, c)), Some(v)) => {
                                let direct = stack.len() == *depth + 1;
                                if let Some((_, m)) = &mut message {
                                    if parent == "message" {
                                        match name.as_str() {
                                            "speaker" => m.speaker = Some(v),
                                            "text" => m.text = Some(v),
                                            _ => {}
                                        }
                                    }
                                } else if direct {
                                    match name.as_str() {
                                        "internalId" => c.internal_id = Some(v),
                                        "updatedAt" => c.updated_at = Some(v),
                                        "accountId" => {
                                            c.account_id.get_or_insert(v);
                                        }
                                        "model" => c.deprecated_model = Some(v),
                                        _ => {}
                                    }
                                } else if name == "model"
                                    && llms.last().is_some_and(|&at| at > *depth)
                                {
                                    c.llm_model.get_or_insert(v);
                                }
                            }
                            (None, Some(v)) if name == "accountId" && parent == "AccountData" => {
                                account = Some(v)
                            }
                            _ => {}
                        }
                        let offset = start;
                        if !empty {
                            if name == "chat" && chat.is_none() {
                                let c = LegacyChat {
                                    account_id: account.clone(),
                                    in_account_list: account_at.is_some(),
                                    offset,
                                    line: lines.line_of(offset),
                                    ..LegacyChat::default()
                                };
                                chat = Some((stack.len(), c));
                            } else if name == "message" && chat.is_some() && message.is_none() {
                                let m = LegacyMessage {
                                    offset,
                                    line: lines.line_of(offset),
                                    ..LegacyMessage::default()
                                };
                                message = Some((stack.len(), m));
                            }
                            if name == "llm" {
                                llms.push(stack.len());
                            }
                            stack.push(name);
                        }
                    }
                    Event::End(_) => {
                        stack.pop();
                        if llms.last() == Some(&stack.len()) {
                            llms.pop();
                        }
                        if account_at == Some(stack.len()) {
                            account_at = None;
                            account = None;
                        }
                        if message.as_ref().is_some_and(|(d, _)| *d == stack.len()) {
                            if let (Some((_, m)), Some((_, c))) = (message.take(), &mut chat) {
                                c.messages.push(m);
                            }
                        } else if chat.as_ref().is_some_and(|(d, _)| *d == stack.len()) {
                            if let Some((_, c)) = chat.take() {
                                out.chats.push(c);
                            }
                        }
                    }
                    Event::Eof => return Ok(true),
                    _ => {}
                }
                Ok(false)
            })();
            match step {
                Ok(false) => {}
                Ok(true) => {
                    let offset = bytes.len() as u64;
                    if let Some(element) = stack.last() {
                        out.damage = Some(Error::XmlCut {
                            offset,
                            line: lines.line_of(offset),
                            element: element.clone(),
                        });
                    } else if !saw_element && !bytes.iter().all(u8::is_ascii_whitespace) {
                        out.damage = Some(Error::XmlNoRoot {
                            offset,
                            line: lines.line_of(offset),
                        });
                    }
                    return out;
                }
                Err(e) => {
                    out.damage = Some(Error::Xml {
                        offset: start,
                        line: lines.line_of(start),
                        message: e.to_string(),
                    });
                    return out;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CURRENT: &str = r#"<project version="4">
  <component name="ChatHistory">
    <accountData><list><AccountData>
      <accountId value="VXNlkjoxEFU3NjE=" />
      <chats><list><chat>
        <internalId value="0f8b7034" />
        <llm><llm><model value="anthropic/claude-3-sonnet" /><provider value="Anthropic" /></llm></llm>
        <messages><list>
          <message><speaker value="HUMAN" /><text value="line1&#10;line2" /></message>
          <message><speaker value="ASSISTANT" /><text value="hello" /></message>
        </list></messages>
        <model value="old-model" />
        <updatedAt value="2024-01-31T01:06:18.524621" />
      </chat></list></chats>
    </AccountData></list></accountData>
  </component>
</project>
"#;

    #[test]
    fn reads_the_account_data_form() {
        let h = LegacyHistory::from_bytes(CURRENT.as_bytes());
        assert_eq!(h.damage, None);
        assert_eq!(h.component.as_deref(), Some("ChatHistory"));
        assert_eq!(h.chats.len(), 1);
        let c = &h.chats[0];
        assert_eq!(c.internal_id.as_deref(), Some("0f8b7034"));
        assert_eq!(c.account_id.as_deref(), Some("VXNlkjoxEFU3NjE="));
        assert_eq!(c.model(), Some("anthropic/claude-3-sonnet"));
        assert_eq!(c.deprecated_model.as_deref(), Some("old-model"));
        assert_eq!(c.updated_at.as_deref(), Some("2024-01-31T01:06:18.524621"));
        assert_eq!(c.line, 5);
        assert_eq!(c.messages.len(), 2);
        assert_eq!(c.messages[0].text.as_deref(), Some("line1\nline2"));
        assert_eq!(
            (c.messages[1].speaker.as_deref(), c.messages[1].line),
            (Some("ASSISTANT"), 10)
        );
    }

    #[test]
    fn deep_nesting_is_linear() {
        // inside a chat, 3 MB of nested <a> holding 10 000 <model> elements outside any
        // <llm> and one inside: each <model> used to scan the whole stack for an <llm>
        let depth = 1 << 20;
        let inner = format!(
            "{}<llm><model value=\"deep-model\"/></llm>{}{}",
            "<a>".repeat(depth),
            "<model value=\"not-llm\"/>".repeat(10_000),
            "</a>".repeat(depth)
        );
        let xml = CURRENT.replace(
            "<llm><llm><model value=\"anthropic/claude-3-sonnet\" /><provider value=\"Anthropic\" /></llm></llm>",
            &inner,
        );
        assert!(xml.len() > 7_000_000);
        let h = LegacyHistory::from_bytes(xml.as_bytes());
        assert_eq!(h.damage, None);
        assert_eq!(h.chats.len(), 1);
        let c = &h.chats[0];
        assert_eq!(c.llm_model.as_deref(), Some("deep-model"));
        assert_eq!(c.deprecated_model.as_deref(), Some("old-model"));
        assert_eq!(c.messages.len(), 2);
        assert_eq!(c.messages[0].text.as_deref(), Some("line1\nline2"));
        // a <model> after the <llm> closed is not the chat's model
        let after = CURRENT.replace(
            "<llm><llm><model value=\"anthropic/claude-3-sonnet\" /><provider value=\"Anthropic\" /></llm></llm>",
            "<x><llm></llm><model value=\"no\"/></x>",
        );
        let h = LegacyHistory::from_bytes(after.as_bytes());
        assert_eq!(h.chats[0].llm_model, None);
    }

    #[test]
    fn reads_the_old_top_level_chats_form() {
        let x = r#"<project version="4"><component name="com.sourcegraph.cody.history.HistoryService"><chats><list>
<chat><accountId value="acc-old"/><internalId value="u1"/><messages><list><message><speaker value="HUMAN"/><text value="q"/></message></list></messages><model value="gpt-4"/></chat>
</list></chats></component></project>"#;
        let h = LegacyHistory::from_bytes(x.as_bytes());
        assert_eq!(h.damage, None);
        assert_eq!(
            h.component.as_deref(),
            Some("com.sourcegraph.cody.history.HistoryService")
        );
        let c = &h.chats[0];
        assert_eq!(
            (c.account_id.as_deref(), c.model(), c.updated_at.as_deref()),
            (Some("acc-old"), Some("gpt-4"), None)
        );
    }

    /// The real plugin files' shape: the account list, then the deprecated top-level
    /// list holding the same chat again, one chat only it holds, and one whose copy
    /// has a message the account list's lacks.
    const BOTH_LISTS: &str = r#"<project version="4"><component name="ChatHistory">
<accountData><list><AccountData><accountId value="acc-new"/><chats><list>
<chat><internalId value="c1"/><messages><list><message><speaker value="HUMAN"/><text value="q1"/></message><message><speaker value="ASSISTANT"/><text value="a1"/></message></list></messages><updatedAt value="2024-02-01T10:00:00"/></chat>
<chat><internalId value="c3"/><messages><list><message><speaker value="HUMAN"/><text value="q3"/></message></list></messages></chat>
</list></chats></AccountData></list></accountData>
<chats><list>
<chat><accountId value="acc-old"/><internalId value="c1"/><messages><list><message><speaker value="HUMAN"/><text value="q1"/></message><message><speaker value="ASSISTANT"/><text value="a1"/></message></list></messages><updatedAt value="2024-02-01T10:00:00"/></chat>
<chat><accountId value="acc-old"/><internalId value="c2"/><messages><list><message><speaker value="HUMAN"/><text value="only top"/></message></list></messages></chat>
<chat><accountId value="acc-old"/><internalId value="c3"/><messages><list><message><speaker value="HUMAN"/><text value="q3"/></message><message><speaker value="ASSISTANT"/><text value="a3 only here"/></message></list></messages></chat>
</list></chats>
</component></project>"#;

    #[test]
    fn both_lists_give_each_chat_once() {
        let h = LegacyHistory::from_bytes(BOTH_LISTS.as_bytes());
        assert_eq!(h.damage, None);
        assert_eq!(h.folded, 1);
        let got: Vec<_> = h
            .chats
            .iter()
            .map(|c| {
                (
                    c.internal_id.as_deref().unwrap(),
                    c.account_id.as_deref().unwrap(),
                    c.in_account_list,
                    c.messages.len(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("c1", "acc-new", true, 2),
                ("c3", "acc-new", true, 1),
                // the top-level chats keep their own account, not the last AccountData's
                ("c2", "acc-old", false, 1),
                ("c3", "acc-old", false, 2),
            ]
        );
        // read as written, both lists are there
        assert_eq!(LegacyHistory::read(BOTH_LISTS.as_bytes()).chats.len(), 5);
        // one list alone folds nothing
        let h = LegacyHistory::from_bytes(CURRENT.as_bytes());
        assert_eq!((h.chats.len(), h.folded), (1, 0));
    }

    #[test]
    fn a_cut_file_keeps_the_chats_before_the_cut() {
        let two = CURRENT.replace("</chat></list></chats>", "</chat><chat><internalId value=\"second\"/><messages><list><message><speaker value=\"HUMAN\"/></message></list></messages></chat></list></chats>");
        let at = two.find("second").unwrap();
        let cut = &two.as_bytes()[..at + 20];
        let h = LegacyHistory::from_bytes(cut);
        assert_eq!(h.chats.len(), 1);
        assert_eq!(
            h.damage.unwrap().to_string(),
            format!(
                "syntax error: tag not closed: `>` not found before end of input at line 14 (byte {})",
                at + 19
            )
        );
        let cut = &two.as_bytes()[..at + 19];
        let h = LegacyHistory::from_bytes(cut);
        assert_eq!(
            h.damage.unwrap().to_string(),
            format!("file ends at line 14 (byte {}) inside <messages>", at + 19)
        );
        let bad = CURRENT.replace("</chats>", "</chatz>");
        let h = LegacyHistory::from_bytes(bad.as_bytes());
        assert_eq!(h.chats.len(), 1);
        assert!(h.damage.unwrap().to_string().starts_with(
            "ill-formed document: expected `</chats>`, but `</chatz>` was found at line 14"
        ));
    }
}
