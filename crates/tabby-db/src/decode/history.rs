//! The editor clients' inline-edit command histories.
//!
//! Neither history has times, and neither is on the server: they are the only trace
//! on a developer's own machine of the instructions typed into Tabby's inline edit.
//!
//! * IntelliJ: `intellij-tabby-command-history.xml`, the platform's serialisation of
//!   `CommandHistoryState.history` under the component
//!   `com.tabbyml.intellijtabby.inlineChat.CommandHistory`: an
//!   `<option name="history"><list><option value="..."/>...` list, newest first.
//! * VS Code: `edit.recentlyCommand` in the `TabbyML.vscode-tabby` row of
//!   `state.vscdb`: a list of strings, each `JSON.stringify({command, context})` or a
//!   bare command string, newest first. Only that key is read: the same row holds the
//!   per-endpoint API tokens.

use quick_xml::Reader;
use quick_xml::events::Event as XmlEvent;
use serde_json::Value;

use crate::Error;

/// The IntelliJ component that holds the history.
pub const INTELLIJ_COMPONENT: &str = "com.tabbyml.intellijtabby.inlineChat.CommandHistory";
/// The `state.vscdb` key of the VS Code extension.
pub const VSCODE_ITEM_KEY: &str = "TabbyML.vscode-tabby";
/// The key of the history inside that row.
pub const VSCODE_HISTORY_KEY: &str = "edit.recentlyCommand";

/// One remembered command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Command {
    /// 1-based position, newest first.
    pub position: u64,
    /// The instruction typed.
    pub command: String,
    /// The URIs of the files attached as context (VS Code only).
    pub context: Vec<String>,
    /// Byte offset of the entry in the file (IntelliJ only).
    pub offset: Option<u64>,
}

fn attr(e: &quick_xml::events::BytesStart<'_>, name: &str) -> Result<Option<String>, String> {
    for a in e.attributes() {
        let a = a.map_err(|e| e.to_string())?;
        if a.key.as_ref() == name {
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|e| e.to_string())?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

/// The IntelliJ history file as read: the commands, and the damage that stopped the
/// reading (a cut or malformed file), after which nothing more was read.
#[derive(Debug, Default)]
pub struct IntellijHistory {
    /// The commands read, newest first: every entry that closed before the damage.
    pub commands: Vec<Command>,
    /// Why the file is not a readable XML document ([`Error::Xml`], with the byte).
    pub damage: Option<Error>,
}

/// Decodes the IntelliJ history file. A file that is not well-formed XML is an
/// [`Error::Xml`] with the byte offset, and its commands are not returned (see
/// [`read_intellij_history`], which keeps them); a well-formed file without the
/// component yields no commands.
pub fn intellij_history(bytes: &[u8]) -> Result<Vec<Command>, Error> {
    let h = read_intellij_history(bytes);
    match h.damage {
        Some(e) => Err(e),
        None => Ok(h.commands),
    }
}

/// Reads the IntelliJ history file event by event, as the Cody legacy XML reader does:
/// a file cut or damaged in the middle keeps every command whose `<option value=...>`
/// was read before the damage, and records the damage (its byte offset and reason).
pub fn read_intellij_history(bytes: &[u8]) -> IntellijHistory {
    let mut out = IntellijHistory::default();
    if let Err(e) = read_into(bytes, &mut out.commands) {
        out.damage = Some(e);
    }
    out
}

fn read_into(bytes: &[u8], out: &mut Vec<Command>) -> Result<(), Error> {
    let xml_err = |offset: u64, reason: String| Error::Xml { offset, reason };
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    // Open elements: (name, role) where role marks the component and history option,
    // and how many of each role are open: counted, not searched for in the stack, so
    // that deep nesting (3 MB of `<a>`) stays linear.
    let mut stack: Vec<(String, u8)> = Vec::new();
    const COMPONENT: u8 = 1;
    const HISTORY: u8 = 2;
    let mut open = [0usize; 3];
    let mut saw_root = false;
    loop {
        let pos = reader.buffer_position();
        let ev = reader
            .read_event_into(&mut buf)
            .map_err(|e| xml_err(reader.error_position(), e.to_string()))?;
        let (start, empty) = match &ev {
            XmlEvent::Start(e) => (Some(e.clone()), false),
            XmlEvent::Empty(e) => (Some(e.clone()), true),
            XmlEvent::End(_) => {
                if let Some((_, role)) = stack.pop() {
                    open[role as usize] -= 1;
                }
                (None, false)
            }
            XmlEvent::Eof => break,
            _ => (None, false),
        };
        if let Some(e) = start {
            saw_root = true;
            let name = e.name().as_ref().to_string();
            let in_component = open[COMPONENT as usize] > 0;
            let in_history = open[HISTORY as usize] > 0;
            let mut role = 0;
            if name == "component"
                && attr(&e, "name").map_err(|r| xml_err(pos, r))?.as_deref()
                    == Some(INTELLIJ_COMPONENT)
            {
                role = COMPONENT;
            } else if name == "option" && in_component && !in_history {
                if attr(&e, "name").map_err(|r| xml_err(pos, r))?.as_deref() == Some("history") {
                    role = HISTORY;
                }
            } else if name == "option" && in_history {
                if let Some(v) = attr(&e, "value").map_err(|r| xml_err(pos, r))? {
                    out.push(Command {
                        position: out.len() as u64 + 1,
                        command: v,
                        context: Vec::new(),
                        offset: Some(pos),
                    });
                }
            }
            if !empty {
                open[role as usize] += 1;
                stack.push((name, role));
            }
        }
        buf.clear();
    }
    if !stack.is_empty() {
        return Err(xml_err(
            bytes.len() as u64,
            format!(
                "unexpected end of file inside <{}>",
                stack[stack.len() - 1].0
            ),
        ));
    }
    if !saw_root {
        return Err(xml_err(0, "no root element".into()));
    }
    Ok(())
}

/// Decodes the `edit.recentlyCommand` value of the VS Code extension's state. Entries
/// that are not JSON objects are bare commands, as the extension's own reader takes them.
pub fn vscode_history(value: &Value) -> Vec<Command> {
    let Some(list) = value.as_array() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in list {
        let parsed = match entry {
            Value::String(s) => match serde_json::from_str::<Value>(s) {
                Ok(v) if v.is_object() => v,
                _ => Value::String(s.clone()),
            },
            other => other.clone(),
        };
        let (command, context) = match &parsed {
            Value::String(s) => (s.clone(), Vec::new()),
            Value::Object(o) => {
                let command = o
                    .get("command")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let context = match o.get("context") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .filter_map(|c| c.get("uri").and_then(Value::as_str).map(str::to_string))
                        .collect(),
                    _ => Vec::new(),
                };
                (command, context)
            }
            other => (other.to_string(), Vec::new()),
        };
        out.push(Command {
            position: out.len() as u64 + 1,
            command,
            context,
            offset: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"<application>
  <component name="com.tabbyml.intellijtabby.inlineChat.CommandHistory">
    <option name="history">
      <list>
        <option value="add docstrings" />
        <option value="explain &quot;this&quot;" />
      </list>
    </option>
  </component>
</application>
"#;

    #[test]
    fn intellij_spec_layout() {
        let c = intellij_history(SPEC.as_bytes()).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(
            (c[0].position, c[0].command.as_str(), c[0].offset),
            (1, "add docstrings", Some(136))
        );
        assert_eq!(c[1].command, "explain \"this\"");
        assert_eq!(&SPEC[136..143], "<option");
    }

    #[test]
    fn intellij_errors_say_where() {
        let cut = &SPEC.as_bytes()[..200];
        let e = intellij_history(cut).unwrap_err();
        assert_eq!(
            e.to_string(),
            "syntax error: attribute value not closed: `\"` not found before end of input at byte 178"
        );
        assert_eq!(&SPEC[178..185], "<option");
        // the reader that keeps what came before: the entry that closed before the cut
        let h = read_intellij_history(cut);
        assert_eq!(
            h.commands,
            vec![Command {
                position: 1,
                command: "add docstrings".into(),
                context: Vec::new(),
                offset: Some(136),
            }]
        );
        assert_eq!(h.damage.unwrap().to_string(), e.to_string());
        // cut after the last entry closed: every entry, and the unclosed element
        let h = read_intellij_history(&SPEC.as_bytes()[..SPEC.find("</list>").unwrap()]);
        assert_eq!(h.commands.len(), 2);
        assert_eq!(
            h.damage.unwrap().to_string(),
            "unexpected end of file inside <list> at byte 228"
        );
        let e = intellij_history(b"<a><b></a>").unwrap_err();
        assert!(matches!(e, Error::Xml { .. }), "{e:?}");
        assert!(intellij_history(b"").is_err());
        assert_eq!(
            intellij_history(b"<application><component name=\"other\"/></application>").unwrap(),
            vec![]
        );
    }

    #[test]
    fn deep_nesting_is_linear() {
        // 3 MB of nested <a> around a real history entry: every start tag used to search
        // the whole stack of open elements (quadratic; minutes). Now counted: linear.
        let depth = 1 << 20;
        let mut xml = String::from("<application>");
        xml.push_str(&"<a>".repeat(depth));
        let entry_at = xml.len();
        xml.push_str(&SPEC["<application>".len()..SPEC.find("</application>").unwrap()]);
        xml.push_str(&"<a/>".repeat(1000));
        xml.push_str(&"</a>".repeat(depth));
        xml.push_str("</application>");
        assert!(xml.len() > 7_000_000);
        let c = intellij_history(xml.as_bytes()).unwrap();
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.position, c.command.as_str(), c.offset))
            .collect();
        let first = entry_at as u64 + 136 - "<application>".len() as u64;
        assert_eq!(
            got,
            vec![
                (1, "add docstrings", Some(first)),
                (2, "explain \"this\"", Some(first + 42)),
            ]
        );
        assert_eq!(
            &xml[first as usize..first as usize + 30],
            "<option value=\"add docstrings\""
        );
        let src = crate::rows::Source {
            file: "intellij-tabby-command-history.xml",
            secondary: true,
        };
        let rows = crate::rows::history_rows(
            &c,
            crate::rows::HistoryClient::Intellij,
            "intellij-tabby-command-history.xml",
            &|c| c.offset.map(|o| format!("byte {o}")).unwrap_or_default(),
            &src,
        );
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.turn_type.as_str(),
                    r.source_line,
                    r.source_locator.clone(),
                    r.text.clone(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                (
                    "system",
                    None,
                    String::new(),
                    "inline edit command history: 2 commands, newest first (from intellij-tabby-command-history.xml, no times)".to_string()
                ),
                ("user", Some(1), format!("byte {first}"), "add docstrings".to_string()),
                (
                    "user",
                    Some(2),
                    format!("byte {}", first + 42),
                    "explain \"this\"".to_string()
                ),
            ]
        );
        // the same entry under another component is not the history
        let outside = xml.replacen(INTELLIJ_COMPONENT, "other", 1);
        assert_eq!(intellij_history(outside.as_bytes()).unwrap(), vec![]);
    }

    #[test]
    fn vscode_entries() {
        let v: Value = serde_json::from_str(r#"["{\"command\":\"rename @file to snake case\",\"context\":[{\"referrer\":\"@file\",\"uri\":\"file:///srv/proj/app/math.py\"}]}","fix the typo",{"command":"obj"},3]"#).unwrap();
        let c = vscode_history(&v);
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.position, c.command.as_str(), c.context.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    1,
                    "rename @file to snake case",
                    vec!["file:///srv/proj/app/math.py".to_string()]
                ),
                (2, "fix the typo", vec![]),
                (3, "obj", vec![]),
                (4, "3", vec![]),
            ]
        );
        assert!(vscode_history(&Value::Null).is_empty());
    }
}
