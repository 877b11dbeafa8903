//! `history.jsonl`: every prompt typed, kept after the transcripts are gone.
//!
//! Claude Code appends `{display, pastedContents, timestamp, project, sessionId}` to
//! `history.jsonl` for each prompt. It falls under the same retention as the
//! transcripts yet usually outlives them, so for a deleted transcript it is the only
//! record of what was asked. Its rows are `secondary`: the scanner drops each one whose
//! transcript twin exists (same host, user, session, turn type and text within 2 s) and
//! keeps the rest, which are the prompts of deleted transcripts.
//!
//! A history row's text is `display` as written (its `[Pasted text #n +k lines]` and
//! `[Image #n]` placeholders kept), then each paste appended: an inline one as
//! `[pasted text #<n>] <content>`, one moved to `paste-cache/<hash>` (not read) as
//! `[pasted text #<n> in paste-cache/<hash>, not read]`. A row with a paste or an image
//! cannot be a twin by its text (the transcript holds the paste in place, the image as
//! `[image …]`), so it is proven by the spec's prefix rule instead: a transcript
//! `user` row of the same session within 2 s whose text starts with `display` cut at
//! its first `[Pasted text` placeholder (or `[Image`, our extension of the rule) is
//! its twin, and the history row is given that row's text (the scanner's exact merge
//! then drops it; `--keep-copies` shows it with its own locator). Without a proven twin
//! (the transcript deleted, or no prompt in the window) it keeps its own text and
//! stays.

use std::collections::{HashMap, HashSet};

use chat_rows::lines::{LineReader, decode_line};
use chat_rows::{Row, RowSink, Timestamp, TurnType, system};
use serde_json::{Map, Value};

use super::AGENT;
use crate::decode::parse_time;

/// The text of a history entry: `display` as written, then each paste of
/// `pastedContents` in number order, an inline one as `[pasted text #<n>] <content>`
/// and one moved to `paste-cache/` as `[pasted text #<n> in paste-cache/<hash>, not
/// read]` (the spec's texts). Images are left out: their `[Image #n]` placeholder stays
/// in `display` and the image is only in the transcript.
pub fn prompt_of(display: &str, pasted: Option<&Map<String, Value>>) -> String {
    let Some(pasted) = pasted else {
        return display.to_string();
    };
    let mut entries: Vec<(u64, &Map<String, Value>)> = pasted
        .iter()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_object()?)))
        .collect();
    entries.sort_by_key(|(n, _)| *n);
    let mut text = display.to_string();
    for (n, p) in entries {
        if p.get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t != "text")
        {
            continue;
        }
        text.push('\n');
        match p.get("content").and_then(Value::as_str) {
            Some(content) => text.push_str(&format!("[pasted text #{n}] {content}")),
            None => {
                let hash = p.get("contentHash").and_then(Value::as_str).unwrap_or("");
                text.push_str(&format!(
                    "[pasted text #{n} in paste-cache/{hash}, not read]"
                ));
            }
        }
    }
    text
}

/// The window within which a history row and its transcript twin are the same prompt.
const TWIN_MICROS: i64 = 2_000_000;

/// The `user` rows of a session's transcript as (time in microseconds, text), sorted
/// by time (rows without a time cannot be twins and are left out), which a history row
/// holding a paste kept elsewhere is proven against; empty when the session has no
/// readable transcript. Shared, not copied, between the rows of one session.
pub type Prompts = std::rc::Rc<Vec<(i64, String)>>;

/// Gives the [`Prompts`] of a session.
pub type SessionPrompts<'a> = dyn FnMut(&str) -> Prompts + 'a;

/// At most this many prompts of the window are compared with one history row (nearest
/// in time first): a hostile transcript of thousands of prompts at one instant costs a
/// bounded amount per row, not the whole window.
const MAX_CANDIDATES: usize = 64;

/// The text a history row with a paste it does not hold must start with to be a twin:
/// its text cut at the first `[Pasted text #` or `[Image #` placeholder left in it,
/// without the white space before it.
fn cut_at_placeholder(text: &str) -> &str {
    let at = ["[Pasted text #", "[Image #"]
        .iter()
        .filter_map(|p| text.find(p))
        .min();
    // the space before a placeholder is not in the transcript when the paste is a block
    // of its own (an image follows the text on a line of its own)
    at.map_or(text, |i| text[..i].trim_end())
}

/// The transcript prompt that `text` (a history `display`, at `time`) is a cut copy of: the
/// nearest in time of the prompts within 2 s that start with the cut text (and hold
/// more than it), looking at no more than [`MAX_CANDIDATES`] of them.
fn proven_twin(
    text: &str,
    time: Option<Timestamp>,
    prompts: &[(i64, String)],
    used: &HashSet<usize>,
) -> Option<usize> {
    let time = time?.unix_micros();
    let prefix = cut_at_placeholder(text);
    let fits = |i: usize| {
        let (t, p) = &prompts[i];
        ((t - time).abs() <= TWIN_MICROS
            && !used.contains(&i)
            && p.starts_with(prefix)
            && p.len() > prefix.len())
        .then_some(i)
    };
    // outward from the row's time, nearest first
    let mut after = prompts.partition_point(|(t, _)| *t < time);
    let mut before = after;
    for _ in 0..MAX_CANDIDATES {
        let gap_after = prompts.get(after).map(|(t, _)| t - time);
        let gap_before = before.checked_sub(1).map(|i| time - prompts[i].0);
        let (i, gap) = match (gap_before, gap_after) {
            (Some(b), Some(a)) if b <= a => {
                before -= 1;
                (before, b)
            }
            (Some(b), None) => {
                before -= 1;
                (before, b)
            }
            (_, Some(a)) => {
                after += 1;
                (after - 1, a)
            }
            (None, None) => return None,
        };
        if gap > TWIN_MICROS {
            return None;
        }
        if let Some(p) = fits(i) {
            return Some(p);
        }
    }
    None
}

/// True when `pastedContents` has an entry: a text pasted inline, one kept in
/// `paste-cache/`, or an image. The history's text then differs from the transcript's
/// prompt, which holds the paste in place.
fn has_paste(pasted: Option<&Map<String, Value>>) -> bool {
    pasted.is_some_and(|p| p.values().any(Value::is_object))
}

/// The rows of `history.jsonl`: a secondary `user` row per prompt, a `parser:` row
/// per line that cannot be read. A row with a paste is proven against the `user` rows
/// `prompts` gives for its session (see the module docs).
/// Lines are read from `lines` until it ends or fails; a failure is returned, after the
/// rows of the lines before it.
pub fn history_rows(
    lines: &mut LineReader<'_>,
    source_file: &str,
    prompts: &mut SessionPrompts<'_>,
    sink: &mut dyn RowSink,
) -> std::io::Result<()> {
    let mut used: HashMap<String, HashSet<usize>> = HashMap::new();
    while let Some(line) = lines.next_line() {
        let line = line?;
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
        let pasted = obj.get("pastedContents").and_then(Value::as_object);
        let mut text = prompt_of(s("display"), pasted);
        let time = obj.get("timestamp").and_then(parse_time);
        if has_paste(pasted) && !s("sessionId").is_empty() {
            let session = s("sessionId");
            let of_session = prompts(session);
            let taken = used.entry(session.to_string()).or_default();
            if let Some(i) = proven_twin(s("display"), time, &of_session, taken) {
                // one history entry per prompt: a prompt proves one row, so the text
                // copied into proven rows never exceeds the transcript's prompts
                taken.insert(i);
                text.clone_from(&of_session[i].1);
            }
        }
        sink.push(
            Row::new(AGENT, TurnType::User, text)
                .at(time)
                .session(s("sessionId"))
                .project(s("project"))
                .file(source_file)
                .line(line.number)
                .locator(line.locator())
                .secondary(true),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pastes_are_appended_after_the_display() {
        let pasted: Value = serde_json::json!({
            "2": {"id": 2, "type": "text", "contentHash": "ab12"},
            "1": {"id": 1, "type": "text", "content": "line a\nline b"},
            "3": {"id": 3, "type": "image"}
        });
        assert_eq!(
            prompt_of(
                "fix [Pasted text #1 +1 lines] and [Pasted text #2 +80 lines] [Image #3]",
                pasted.as_object()
            ),
            "fix [Pasted text #1 +1 lines] and [Pasted text #2 +80 lines] [Image #3]\n[pasted text #1] line a\nline b\n[pasted text #2 in paste-cache/ab12, not read]"
        );
        let lone: Value = serde_json::json!({"1": {"type": "text", "content": "x"}});
        assert_eq!(
            prompt_of("see", lone.as_object()),
            "see\n[pasted text #1] x"
        );
        assert_eq!(prompt_of("see", None), "see");
    }

    /// 2026-06-21T14:00:00Z plus `ms`.
    /// The rows of a history at hand.
    fn rows_of(log: &str, prompts: &mut SessionPrompts<'_>) -> Vec<Row> {
        let mut rows: Vec<Row> = Vec::new();
        let mut lines = LineReader::from_bytes(log.as_bytes());
        history_rows(&mut lines, "history.jsonl", prompts, &mut rows).unwrap();
        rows
    }

    fn at(ms: i64) -> Option<Timestamp> {
        Timestamp::from_epoch_millis(1_782_050_400_000 + ms)
    }

    /// The text of the prompt [`proven_twin`] proves, none used yet.
    fn twin<'p>(
        text: &str,
        time: Option<Timestamp>,
        prompts: &'p [(i64, String)],
    ) -> Option<&'p str> {
        proven_twin(text, time, prompts, &HashSet::new()).map(|i| prompts[i].1.as_str())
    }

    /// A prompt of a transcript at `ms`.
    fn prompt(ms: i64, text: &str) -> (i64, String) {
        (at(ms).unwrap().unix_micros(), text.to_string())
    }

    #[test]
    fn a_cached_paste_is_proven_by_the_prefix_rule() {
        let prompts = vec![
            prompt(1_000, "other prompt"),
            prompt(9_000, "check these: a\nb"),
            prompt(10_500, "check these: x\ny"),
            prompt(30_000, "check these: far"),
        ];
        let text =
            "check these: [Pasted text #1 +1 lines]\n[pasted text #1 in paste-cache/ab, not read]";
        // the nearest of the two within 2 s
        assert_eq!(twin(text, at(10_000), &prompts), Some("check these: x\ny"));
        // none within 2 s; no time at all; a prefix no prompt starts with
        assert_eq!(twin(text, at(20_000), &prompts), None);
        assert_eq!(twin(text, None, &prompts), None);
        assert_eq!(twin("see: [Pasted text #1]", at(10_000), &prompts), None);
        // an image placeholder cuts the same way
        let image = vec![prompt(10_000, "Start it\n[image image/png, 70 bytes]")];
        assert_eq!(
            twin("Start it [Image #1]", at(10_100), &image),
            Some("Start it\n[image image/png, 70 bytes]")
        );
        // a thousand prompts at one instant: no more than 64 are compared, so the
        // twin at the 65th place is not found (a bounded cost per row, not quadratic)
        let mut crowd: Vec<(i64, String)> = (0..1000).map(|_| prompt(10_000, "x")).collect();
        crowd.push(prompt(10_001, "check these: z"));
        assert_eq!(twin(text, at(10_000), &crowd), None);
        crowd.truncate(63);
        crowd.push(prompt(10_001, "check these: z"));
        assert_eq!(twin(text, at(10_000), &crowd), Some("check these: z"));
        // the paste must add something: a prompt that is the cut text alone is no twin
        let bare = vec![prompt(10_000, "check these:")];
        assert_eq!(twin(text, at(10_000), &bare), None);
    }

    #[test]
    fn only_rows_with_a_paste_look_for_their_transcript() {
        let log = concat!(
            r#"{"display":"plain","pastedContents":{},"timestamp":1782050410000,"sessionId":"s1"}"#,
            "\n",
            r#"{"display":"fix [Pasted text #1 +9 lines]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"ab"}},"timestamp":1782050410000,"sessionId":"s1"}"#,
            "\n",
            r#"{"display":"fix [Pasted text #1 +9 lines]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"ab"}},"timestamp":1782050410000,"sessionId":"gone"}"#,
            "\n",
            // the same entry again: its prompt already proved a row, so it stays as it is
            r#"{"display":"fix [Pasted text #1 +9 lines]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"ab"}},"timestamp":1782050410000,"sessionId":"s1"}"#,
            "\n",
        );
        let mut asked = Vec::new();
        let mut prompts = |session: &str| {
            asked.push(session.to_string());
            Prompts::new(if session == "s1" {
                vec![prompt(10_400, "fix this\nand that")]
            } else {
                Vec::new()
            })
        };
        let rows = rows_of(log, &mut prompts);
        assert_eq!(asked, ["s1", "gone", "s1"]);
        let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "plain",
                "fix this\nand that",
                "fix [Pasted text #1 +9 lines]\n[pasted text #1 in paste-cache/ab, not read]",
                "fix [Pasted text #1 +9 lines]\n[pasted text #1 in paste-cache/ab, not read]"
            ]
        );
        // the proven copy keeps its own time and place: it is still the history line
        assert_eq!(rows[1].timestamp, at(10_000));
        assert_eq!(rows[1].source_locator, "byte 83");
    }

    /// An inline paste is appended as the spec has it, and the row is proven by the
    /// prefix rule, so it is given its transcript prompt's text (and merges away); a
    /// row of a deleted transcript keeps `display` and the appended paste.
    #[test]
    fn an_inline_paste_is_appended_and_proven_by_the_prefix_rule() {
        let log = concat!(
            r#"{"display":"fix this [Pasted text #1 +3 lines]","pastedContents":{"1":{"id":1,"type":"text","content":"line1\nline2\nline3"}},"timestamp":1782050410000,"sessionId":"s1"}"#,
            "\n",
            r#"{"display":"fix this [Pasted text #1 +3 lines]","pastedContents":{"1":{"id":1,"type":"text","content":"line1\nline2\nline3"}},"timestamp":1782050410000,"sessionId":"gone"}"#,
            "\n",
        );
        let mut prompts = |session: &str| {
            Prompts::new(if session == "s1" {
                vec![prompt(10_500, "fix this\nline1\nline2\nline3")]
            } else {
                Vec::new()
            })
        };
        let rows = rows_of(log, &mut prompts);
        let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "fix this\nline1\nline2\nline3",
                "fix this [Pasted text #1 +3 lines]\n[pasted text #1] line1\nline2\nline3",
            ]
        );
    }
}
