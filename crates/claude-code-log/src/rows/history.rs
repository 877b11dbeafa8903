//! `history.jsonl`: every prompt typed, kept after the transcripts are gone.
//!
//! Claude Code appends `{display, pastedContents, timestamp, project, sessionId}` to
//! `history.jsonl` for each prompt. It falls under the same retention as the
//! transcripts yet usually outlives them, so for a deleted transcript it is the only
//! record of what was asked. Its rows are `secondary`: the scanner drops each one whose
//! transcript twin exists (same host, user, session, turn type and text within 2 s) and
//! keeps the rest, which are the prompts of deleted transcripts.
//!
//! For the texts to be twins, a history row says what the transcript's `user` row
//! says: `display` with each `[Pasted text #n ...]` placeholder replaced by the pasted
//! text it stands for, which is what Claude Code sends. A paste moved to
//! `paste-cache/<hash>` is not read: its placeholder stays and
//! `[pasted text #<n> in paste-cache/<hash>, not read]` is appended, so that row
//! stays (the transcript row holds the whole text).

use chat_rows::lines::{decode_line, lines};
use chat_rows::{Row, RowSink, TurnType, system};
use serde_json::{Map, Value};

use super::AGENT;
use crate::decode::parse_time;

/// The prompt a history entry stands for: `display` with inline pastes put back.
pub fn prompt_of(display: &str, pasted: Option<&Map<String, Value>>) -> String {
    let mut text = display.to_string();
    let Some(pasted) = pasted else {
        return text;
    };
    let mut entries: Vec<(u64, &Map<String, Value>)> = pasted
        .iter()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_object()?)))
        .collect();
    entries.sort_by_key(|(n, _)| *n);
    let mut notes = Vec::new();
    for (n, p) in entries {
        if p.get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t != "text")
        {
            continue;
        }
        match p.get("content").and_then(Value::as_str) {
            Some(content) => match placeholder(&text, n) {
                Some((a, b)) => text.replace_range(a..b, content),
                None => notes.push(format!("[pasted text #{n}] {content}")),
            },
            None => {
                let hash = p.get("contentHash").and_then(Value::as_str).unwrap_or("");
                notes.push(format!(
                    "[pasted text #{n} in paste-cache/{hash}, not read]"
                ));
            }
        }
    }
    for note in notes {
        text.push('\n');
        text.push_str(&note);
    }
    text
}

/// The byte range of `[Pasted text #<n>]` or `[Pasted text #<n> +<k> lines]`.
fn placeholder(text: &str, n: u64) -> Option<(usize, usize)> {
    let open = format!("[Pasted text #{n}");
    let mut from = 0;
    while let Some(i) = text[from..].find(&open) {
        let a = from + i;
        let rest = &text[a + open.len()..];
        if rest.starts_with(']') || rest.starts_with(' ') {
            let close = rest.find(']')?;
            return Some((a, a + open.len() + close + 1));
        }
        from = a + open.len();
    }
    None
}

/// The rows of `history.jsonl`: a secondary `user` row per prompt, a `parser:` row
/// per line that cannot be read.
pub fn history_rows(bytes: &[u8], source_file: &str, sink: &mut dyn RowSink) {
    for line in lines(bytes) {
        let obj = match decode_line::<Value>(&line) {
            Ok(Value::Object(o)) => o,
            Ok(_) => {
                let text = system::unparseable_line("not a JSON object", &line.text_lossy());
                sink.push(
                    Row::system(AGENT, text)
                        .file(source_file)
                        .line(line.number)
                        .locator(line.locator()),
                );
                continue;
            }
            Err(bad) => {
                sink.push(bad.row(AGENT, source_file));
                continue;
            }
        };
        let s = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
        let text = prompt_of(
            s("display"),
            obj.get("pastedContents").and_then(Value::as_object),
        );
        sink.push(
            Row::new(AGENT, TurnType::User, text)
                .at(obj.get("timestamp").and_then(parse_time))
                .session(s("sessionId"))
                .project(s("project"))
                .file(source_file)
                .line(line.number)
                .locator(line.locator())
                .secondary(true),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pastes_are_put_back() {
        let pasted: Value = serde_json::json!({
            "1": {"id": 1, "type": "text", "content": "line a\nline b"},
            "2": {"id": 2, "type": "text", "contentHash": "ab12"},
            "3": {"id": 3, "type": "image"}
        });
        assert_eq!(
            prompt_of(
                "fix [Pasted text #1 +1 lines] and [Pasted text #2 +80 lines] [Image #3]",
                pasted.as_object()
            ),
            "fix line a\nline b and [Pasted text #2 +80 lines] [Image #3]\n[pasted text #2 in paste-cache/ab12, not read]"
        );
        let lone: Value = serde_json::json!({"1": {"type": "text", "content": "x"}});
        assert_eq!(
            prompt_of("see", lone.as_object()),
            "see\n[pasted text #1] x"
        );
        assert_eq!(
            prompt_of("[Pasted text #12] [Pasted text #1]", lone.as_object()),
            "[Pasted text #12] x"
        );
    }
}
