//! Proving a secondary row's primary twin, by the spec's prefix rule.
//!
//! Why here and not in the scanner: the scanner merges a secondary row only with a
//! primary row of the same session, turn type and *exact* text within 2 s. Copilot's
//! stores and debug logs cut texts (1,000/5,000 or 100/1,000 characters, `...` or
//! `...[truncated` appended, by version) and write them late, so their copies would
//! never merge and every turn would appear twice. This module reads the primary log
//! of the same session and proves a twin by the rule of `copilot-events.md`:
//!
//! * same `session_id` and `turn_type`, and
//! * (a) tool rows with the same `tool_use_id` once a trailing `__vscode-<n>` is
//!   removed, or (b) the secondary text, without a trailing `...` or
//!   `...[truncated...`, is a prefix of the primary's (the cut part must keep at least
//!   one character; the spec's rule is about cut copies, and a secondary text longer
//!   than its primary is no cut copy of it: it stays, with its own text), and
//! * (c) the secondary time falls inside the primary's turn (its user row's time to
//!   2 s after the turn's last row) or is empty.
//!
//! A proven twin is given the primary row's text and time, so the scanner's exact
//! merge drops it (and `--keep-copies` shows it beside its primary, its own locator
//! saying where it came from). A row without a proven twin keeps its own text and
//! time: it is what outlived a delete.

use std::collections::HashMap;

use chat_rows::{Row, Timestamp, TurnType};

const SLACK_MICROS: i64 = 2_000_000;

#[derive(Clone, Debug)]
struct Primary {
    turn: TurnType,
    text: String,
    tool_id: String,
    time: Option<Timestamp>,
    window: (Option<i64>, Option<i64>),
}

/// At most this many primary rows are looked at for one secondary row: the rows of its
/// turn type whose turn windows open nearest before its time (for an untimed row, the
/// first of its turn type), plus those with its tool-call id. A session of 40,000 turns
/// took 1.6 s to prove 40,000 copies when each was compared with every primary row.
const MAX_CANDIDATES: usize = 1024;

/// Turn windows as (start, end, row index), sorted, and the latest end of each prefix.
type Windows = (Vec<(i64, i64, usize)>, Vec<i64>);

/// The primary rows of one session, in file order, indexed by turn type.
#[derive(Clone, Debug, Default)]
struct Session {
    rows: Vec<Primary>,
    /// Per turn type: the rows whose turn window has a start, as (start, end, index),
    /// sorted, with the latest end of each prefix (an interval query stops where no
    /// earlier window reaches the time).
    by_start: HashMap<TurnType, Windows>,
    /// Per turn type: every row's index, in file order (for untimed copies).
    by_turn: HashMap<TurnType, Vec<usize>>,
    /// Tool rows by tool-call id (`__vscode-<n>` removed).
    by_tool_id: HashMap<String, Vec<usize>>,
}

impl Session {
    fn extend(&mut self, more: Vec<Primary>) {
        for p in more {
            let i = self.rows.len();
            if let Some(lo) = p.window.0 {
                let hi = p.window.1.unwrap_or(i64::MIN);
                self.by_start.entry(p.turn).or_default().0.push((lo, hi, i));
            }
            self.by_turn.entry(p.turn).or_default().push(i);
            if !p.tool_id.is_empty() {
                self.by_tool_id
                    .entry(p.tool_id.clone())
                    .or_default()
                    .push(i);
            }
            self.rows.push(p);
        }
        for (list, reach) in self.by_start.values_mut() {
            list.sort_unstable();
            reach.clear();
            let mut max = i64::MIN;
            reach.extend(list.iter().map(|(_, hi, _)| {
                max = max.max(*hi);
                max
            }));
        }
    }

    /// The indexes of the rows `row` is compared with (see [`MAX_CANDIDATES`]).
    fn candidates(&self, turn: TurnType, time: Option<i64>, tool_id: &str) -> Vec<usize> {
        let mut out: Vec<usize> = match time {
            // the windows that open at or before `t` and reach it: nearest first, no
            // further back than where no earlier window reaches `t`, and no more than
            // MAX_CANDIDATES looked at (a window stretched by a far-off time reaches
            // every later time)
            Some(t) => match self.by_start.get(&turn) {
                Some((list, reach)) => {
                    let end = list.partition_point(|(lo, _, _)| *lo <= t);
                    (0..end)
                        .rev()
                        .take_while(|&j| reach[j] >= t)
                        .take(MAX_CANDIDATES)
                        .filter(|&j| list[j].1 >= t)
                        .map(|j| list[j].2)
                        .collect()
                }
                None => Vec::new(),
            },
            None => self
                .by_turn
                .get(&turn)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .take(MAX_CANDIDATES)
                .copied()
                .collect(),
        };
        if !tool_id.is_empty() {
            out.extend(self.by_tool_id.get(tool_id).into_iter().flatten());
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The primary rows of some sessions, indexed for [`Twins::prove`].
#[derive(Clone, Debug, Default)]
pub struct Twins {
    sessions: HashMap<String, Session>,
    untimed_users: HashMap<String, (String, Option<Timestamp>, String)>,
    /// The account whose logs hold each session, for primary files added with an owner
    /// ([`Twins::add_file_of`]).
    owners: HashMap<String, String>,
}

/// Removes a trailing `__vscode-<n>` from a tool-call id.
pub fn strip_vscode_suffix(id: &str) -> &str {
    if let Some(i) = id.rfind("__vscode-") {
        let tail = &id[i + "__vscode-".len()..];
        if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
            return &id[..i];
        }
    }
    id
}

/// Removes a cut marker: a trailing `...[truncated...` (whatever follows it) or `...`.
pub fn strip_cut_marker(text: &str) -> &str {
    if let Some(i) = text.rfind("...[truncated") {
        return &text[..i];
    }
    text.strip_suffix("...")
        .or_else(|| text.strip_suffix('…'))
        .unwrap_or(text)
}

fn is_turn(t: TurnType) -> bool {
    matches!(
        t,
        TurnType::User
            | TurnType::Assistant
            | TurnType::ToolUse
            | TurnType::ToolResult
            | TurnType::Thinking
    )
}

impl Twins {
    /// An empty index.
    pub fn new() -> Twins {
        Twins::default()
    }

    /// True when no primary row is indexed.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Adds the rows of one primary file, in file order (secondary rows are skipped).
    pub fn add_file(&mut self, rows: &[Row]) {
        let mut by_session: HashMap<&str, Vec<&Row>> = HashMap::new();
        for r in rows.iter().filter(|r| !r.secondary && is_turn(r.turn_type)) {
            by_session.entry(r.session_id.as_str()).or_default().push(r);
        }
        for (session, list) in by_session {
            // turns: from a user row to the row before the next user row
            let mut out: Vec<Primary> = Vec::with_capacity(list.len());
            let mut start = 0;
            while start < list.len() {
                let mut end = start + 1;
                while end < list.len() && list[end].turn_type != TurnType::User {
                    end += 1;
                }
                let times: Vec<i64> = list[start..end]
                    .iter()
                    .filter_map(|r| r.timestamp.map(|t| t.unix_micros()))
                    .collect();
                let window = (
                    times.iter().min().copied(),
                    times.iter().max().map(|m| m + SLACK_MICROS),
                );
                for r in &list[start..end] {
                    if r.turn_type == TurnType::User {
                        // a prompt as typed: without the attachment lines the log adds
                        let typed = r.text.split("\n[attachment ").next().unwrap_or("");
                        self.untimed_users
                            .entry(typed.to_string())
                            .or_insert_with(|| (r.session_id.clone(), r.timestamp, r.text.clone()));
                    }
                    out.push(Primary {
                        turn: r.turn_type,
                        text: r.text.clone(),
                        tool_id: strip_vscode_suffix(&r.tool_use_id).to_string(),
                        time: r.timestamp,
                        window,
                    });
                }
                start = end;
            }
            self.sessions
                .entry(session.to_string())
                .or_default()
                .extend(out);
        }
    }

    /// Adds the rows of one primary file that belongs to the account `owner` (a home's
    /// folder name): as [`Twins::add_file`], and each of its sessions is then known as
    /// `owner`'s ([`Twins::owner_of`]). The first owner named for a session stays.
    pub fn add_file_of(&mut self, rows: &[Row], owner: &str) {
        self.add_file(rows);
        if owner.is_empty() {
            return;
        }
        for r in rows.iter().filter(|r| !r.secondary && is_turn(r.turn_type)) {
            if !self.owners.contains_key(&r.session_id) {
                self.owners.insert(r.session_id.clone(), owner.to_string());
            }
        }
    }

    /// The account whose primary logs hold `session`, when a file was added with one.
    pub fn owner_of(&self, session: &str) -> Option<&str> {
        self.owners.get(session).map(String::as_str)
    }

    /// True when some file was added with an owner.
    pub fn has_owners(&self) -> bool {
        !self.owners.is_empty()
    }

    /// Looks for `row`'s primary twin; when proven, gives `row` the twin's text and
    /// time (see the module docs) and returns true.
    pub fn prove(&self, row: &mut Row) -> bool {
        let Some(session) = self.sessions.get(&row.session_id) else {
            return false;
        };
        let t = row.timestamp.map(|t| t.unix_micros());
        let own_id = strip_vscode_suffix(&row.tool_use_id);
        let own = strip_cut_marker(&row.text);
        let tool_id = if matches!(row.turn_type, TurnType::ToolUse | TurnType::ToolResult) {
            own_id
        } else {
            ""
        };
        // in file order, as a scan of the whole session would meet them
        for i in session.candidates(row.turn_type, t, tool_id) {
            let p = &session.rows[i];
            if p.turn != row.turn_type {
                continue;
            }
            let in_turn = match (t, p.window) {
                (None, _) => true,
                (Some(t), (Some(lo), Some(hi))) => t >= lo && t <= hi,
                (Some(_), _) => false,
            };
            if !in_turn {
                continue;
            }
            let by_id = matches!(row.turn_type, TurnType::ToolUse | TurnType::ToolResult)
                && !own_id.is_empty()
                && own_id == p.tool_id;
            // the copy is the cut text: its own text (without its marker) begins the
            // primary's. A copy longer than its primary holds what the primary does
            // not, and is no twin (since 2026-12-05; before, either way round, so a
            // store's `ok, now delete the production database` took the log's `ok`)
            let by_prefix = !own.is_empty() && p.text.starts_with(own);
            if by_id || by_prefix {
                row.text.clone_from(&p.text);
                row.timestamp = p.time;
                return true;
            }
        }
        false
    }

    /// For a time-less secondary `user` row with no session (command history): the
    /// primary user row with the same typed text (attachment lines aside), as
    /// (session, time, full text), when one exists.
    pub fn user_with_text(&self, text: &str) -> Option<&(String, Option<Timestamp>, String)> {
        self.untimed_users.get(text)
    }
}

/// Characters of a text's start that [`CellTwins`] indexes it by.
const KEY_CHARS: usize = 32;

/// At most this many indexed texts are compared with one search-index cell.
const MAX_CELL_CANDIDATES: usize = 64;

/// At most this many places in a cell are tried as the start of a turn's answer.
const MAX_ANSWER_STARTS: usize = 8;

/// A text as the prefix rule compares it: without its cut marker, and whether it had
/// one.
#[derive(Clone, Debug)]
struct Part {
    text: String,
    cut: bool,
}

impl Part {
    fn of(text: &str) -> Part {
        let stripped = strip_cut_marker(text);
        Part {
            cut: stripped.len() != text.len(),
            text: stripped.to_string(),
        }
    }
}

/// `x` (cut when `x_cut`) and `p` are copies of one text by the prefix rule: equal, or
/// the cut one, without its marker, a prefix of the other.
fn part_twin(x: &str, x_cut: bool, p: &Part) -> bool {
    x == p.text || (p.cut && x.starts_with(&p.text)) || (x_cut && p.text.starts_with(x))
}

/// The start of `s`, at most [`KEY_CHARS`] characters.
fn key(s: &str) -> &str {
    match s.char_indices().nth(KEY_CHARS) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[derive(Clone, Debug)]
struct Indexed {
    session: String,
    first: Part,
    /// For a turn's prompt, its answer: the cell may hold both, joined by a newline.
    answer: Option<Part>,
}

/// The texts of a store's `turns` (and checkpoint sections), indexed to tell whether a
/// `search_index_content` cell repeats one of them: the same text, or by the prefix
/// rule (one text, without its trailing `...` or `...[truncated...`, a prefix of the
/// other, where the shorter is the cut one) a prompt, an answer, or the prompt and the
/// answer of one turn joined by a newline (what the writer indexes for a turn), each
/// part compared by that rule. The turns may be cut (100/1,000 characters in one
/// version) and the index not, or the other way round. A match by prefix needs the
/// same session when both name one; an exact match does not. Texts are indexed by
/// their first 32 characters, and a cell is compared with at most 64 of them.
#[derive(Clone, Debug, Default)]
pub struct CellTwins {
    exact: std::collections::HashSet<String>,
    texts: Vec<Indexed>,
    /// Sorted, so that a short cut cell finds the texts it begins.
    by_key: std::collections::BTreeMap<String, Vec<usize>>,
}

impl CellTwins {
    /// An empty index.
    pub fn new() -> CellTwins {
        CellTwins::default()
    }

    fn index(&mut self, session: &str, first: &str, answer: Option<&str>) {
        let first = Part::of(first);
        if first.text.is_empty() {
            return;
        }
        let at = self.texts.len();
        self.by_key
            .entry(key(&first.text).to_string())
            .or_default()
            .push(at);
        self.texts.push(Indexed {
            session: session.to_string(),
            first,
            answer: answer.map(Part::of).filter(|a| !a.text.is_empty()),
        });
    }

    /// Adds a turn's prompt and answer (either may be absent or empty).
    pub fn add_turn(&mut self, session: &str, prompt: Option<&str>, answer: Option<&str>) {
        let prompt = prompt.filter(|t| !t.is_empty());
        let answer = answer.filter(|t| !t.is_empty());
        if let (Some(u), Some(a)) = (prompt, answer) {
            self.exact.insert(format!("{u}\n{a}"));
        }
        if let Some(u) = prompt {
            self.exact.insert(u.to_string());
            self.index(session, u, answer);
        }
        if let Some(a) = answer {
            self.exact.insert(a.to_string());
            self.index(session, a, None);
        }
    }

    /// Adds another text the index may repeat (a checkpoint's section).
    pub fn add_text(&mut self, session: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        self.exact.insert(text.to_string());
        self.index(session, text, None);
    }

    /// Whether the cell `cell` of session `session` (empty when unknown) repeats an
    /// indexed text.
    pub fn holds(&self, session: &str, cell: &str) -> bool {
        if self.exact.contains(cell) {
            return true;
        }
        let c = strip_cut_marker(cell);
        let c_cut = c.len() != cell.len();
        if c.is_empty() {
            return false;
        }
        // the indexed texts whose key is a start of the cell: a text shorter than the
        // key is its own key; a longer one shares the cell's first KEY_CHARS
        let ends = c
            .char_indices()
            .map(|(i, _)| i)
            .skip(1)
            .chain(std::iter::once(c.len()))
            .take(KEY_CHARS);
        let lists = ends.filter_map(|end| self.by_key.get(&c[..end]));
        // a cell cut shorter than the key: the texts that begin with it
        let short_cut = (c_cut && key(c).len() == c.len()).then(|| {
            self.by_key
                .range::<str, _>((std::ops::Bound::Excluded(c), std::ops::Bound::Unbounded))
                .take_while(|(k, _)| k.starts_with(c))
                .map(|(_, v)| v)
        });
        let mut looked = 0;
        for list in lists.chain(short_cut.into_iter().flatten()) {
            for &i in list {
                if looked == MAX_CELL_CANDIDATES {
                    return false;
                }
                looked += 1;
                let t = &self.texts[i];
                if !session.is_empty() && !t.session.is_empty() && t.session != session {
                    continue;
                }
                if part_twin(c, c_cut, &t.first)
                    || t.answer
                        .as_ref()
                        .is_some_and(|a| joined_twin(c, c_cut, &t.first, a))
                {
                    return true;
                }
            }
        }
        false
    }
}

/// The cell `c` (cut when `c_cut`) is a prompt and its answer joined by a newline, each
/// part a copy of `prompt` and `answer` by the prefix rule.
fn joined_twin(c: &str, c_cut: bool, prompt: &Part, answer: &Part) -> bool {
    // a cell cut inside the prompt is the prompt's copy (`part_twin`)
    let Some(rest) = c.strip_prefix(prompt.text.as_str()) else {
        return false;
    };
    let from = prompt.text.len();
    let answer_at = |nl: usize| part_twin(&c[nl + 1..], c_cut, answer);
    if !prompt.cut {
        return rest.starts_with('\n') && answer_at(from);
    }
    // a cut prompt: the whole prompt runs on to a newline before the answer
    let head = format!("\n{}", key(&answer.text));
    if memchr::memmem::find_iter(rest.as_bytes(), head.as_bytes())
        .take(MAX_ANSWER_STARTS)
        .any(|i| answer_at(from + i))
    {
        return true;
    }
    // a cell cut inside the answer's first characters
    c_cut && rest.rfind('\n').is_some_and(|i| answer_at(from + i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(turn: TurnType, text: &str, ms: Option<i64>, secondary: bool) -> Row {
        Row::new("copilot", turn, text)
            .session("s")
            .at(ms.and_then(Timestamp::from_epoch_millis))
            .secondary(secondary)
    }

    #[test]
    fn cells_by_the_prefix_rule() {
        let mut tw = CellTwins::new();
        tw.add_turn(
            "s",
            Some("Fix the build on line one..."),
            Some("It was the cache..."),
        );
        tw.add_turn("s", Some("short"), Some("ok"));
        tw.add_text("s", "a checkpoint section");
        for cell in [
            "Fix the build on line one\nand line two\nIt was the cache, cleared.",
            "Fix the build on line one and two",
            "It was the cache, cleared.",
            "Fix the build on line one\nand two\nIt was...",
            "Fix the build on line one\nand two\nIt w...",
            "Fix the bu...",
            "short\nok",
            "short",
            "a checkpoint section",
        ] {
            assert!(tw.holds("s", cell), "{cell}");
        }
        for cell in [
            "short and more",
            "shortly\nok",
            "short\nokay",
            "a checkpoint section, longer",
        ] {
            assert!(!tw.holds("s", cell), "{cell}");
        }
        assert!(!tw.holds("t", "Fix the build on line one and two"));
        assert!(tw.holds("t", "short"));
    }

    #[test]
    fn prefix_rule() {
        let t = 1_790_000_000_000;
        let mut tw = Twins::new();
        tw.add_file(&[
            row(TurnType::User, "Please fix the flaky test", Some(t), false),
            row(
                TurnType::Assistant,
                "Done, it was a race.",
                Some(t + 5000),
                false,
            ),
            row(TurnType::User, "thanks", Some(t + 60_000), false),
        ]);
        // cut with `...`, written 6 s after the prompt: inside the turn (+2 s)
        let mut cut = row(TurnType::User, "Please fix...", Some(t + 6000), true);
        assert!(tw.prove(&mut cut));
        assert_eq!(cut.text, "Please fix the flaky test");
        assert_eq!(
            cut.timestamp,
            Some(Timestamp::from_epoch_millis(t).unwrap())
        );
        // before the turn's user row: outside it (the window opens at the user row)
        let mut early = row(TurnType::User, "Please fix...", Some(t - 1000), true);
        assert!(!tw.prove(&mut early));
        assert_eq!(early.text, "Please fix...");
        // outside the turn: kept as it is
        let mut late = row(TurnType::User, "Please fix...", Some(t + 8000), true);
        assert!(!tw.prove(&mut late));
        assert_eq!(late.text, "Please fix...");
        // a text that is no prefix: kept
        let mut other = row(TurnType::Assistant, "Something else", None, true);
        assert!(!tw.prove(&mut other));
        // untimed: matched on text alone
        let mut untimed = row(TurnType::Assistant, "Done, it", None, true);
        assert!(tw.prove(&mut untimed));
        // other turn type: no
        let mut wrong = row(TurnType::Thinking, "thanks", None, true);
        assert!(!tw.prove(&mut wrong));
        assert_eq!(strip_cut_marker("abc...[truncated 300 chars]"), "abc");
        assert_eq!(strip_vscode_suffix("call_1__vscode-12"), "call_1");
        assert_eq!(strip_vscode_suffix("call_1__vscode-x"), "call_1__vscode-x");
    }

    /// [`Twins::prove`] as it was, comparing the row with every primary row of its
    /// session in file order: the reference the index must agree with.
    fn prove_by_scan(tw: &Twins, row: &mut Row) -> bool {
        let Some(session) = tw.sessions.get(&row.session_id) else {
            return false;
        };
        let t = row.timestamp.map(|t| t.unix_micros());
        let own_id = strip_vscode_suffix(&row.tool_use_id);
        let own = strip_cut_marker(&row.text);
        for p in session.rows.iter().filter(|p| p.turn == row.turn_type) {
            let in_turn = match (t, p.window) {
                (None, _) => true,
                (Some(t), (Some(lo), Some(hi))) => t >= lo && t <= hi,
                (Some(_), _) => false,
            };
            let by_id = matches!(row.turn_type, TurnType::ToolUse | TurnType::ToolResult)
                && !own_id.is_empty()
                && own_id == p.tool_id;
            // (the copy the cut text, since 2026-12-05)
            let by_prefix = !own.is_empty() && p.text.starts_with(own);
            if in_turn && (by_id || by_prefix) {
                row.text.clone_from(&p.text);
                row.timestamp = p.time;
                return true;
            }
        }
        false
    }

    #[test]
    fn the_index_proves_what_a_scan_of_the_session_proves() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let t0 = 1_790_000_000_000_i64;
        let turns = [
            TurnType::User,
            TurnType::Assistant,
            TurnType::ToolUse,
            TurnType::ToolResult,
        ];
        let texts = ["fix it", "fix it now", "done", "done, it was", "run", "ok"];
        let mut outcomes = [0; 2];
        for _ in 0..300 {
            let mut tw = Twins::new();
            // two primary files, rows a few seconds apart, some untimed, some tools
            for _ in 0..2 {
                let mut rows = Vec::new();
                for _ in 0..next(12) {
                    let turn = turns[next(4) as usize];
                    let ms = (next(6) != 0).then(|| t0 + next(30) as i64 * 1000);
                    let mut r = Row::new("copilot", turn, texts[next(6) as usize])
                        .session(if next(5) == 0 { "other" } else { "s" })
                        .at(ms.and_then(Timestamp::from_epoch_millis));
                    if matches!(turn, TurnType::ToolUse | TurnType::ToolResult) {
                        r.tool_use_id = format!("call_{}__vscode-{}", next(3), next(9));
                    }
                    rows.push(r);
                }
                tw.add_file(&rows);
            }
            for _ in 0..20 {
                let turn = turns[next(4) as usize];
                let ms = (next(4) != 0).then(|| t0 + next(34) as i64 * 1000);
                let text = format!(
                    "{}{}",
                    &texts[next(6) as usize][..2],
                    ["", "...", " it"][next(3) as usize]
                );
                let mut row = Row::new("copilot", turn, text)
                    .session("s")
                    .at(ms.and_then(Timestamp::from_epoch_millis))
                    .secondary(true);
                if next(2) == 0 {
                    row.tool_use_id = format!("call_{}", next(3));
                }
                let mut by_scan = row.clone();
                let proven = tw.prove(&mut row);
                assert_eq!(proven, prove_by_scan(&tw, &mut by_scan));
                assert_eq!(row, by_scan);
                outcomes[usize::from(proven)] += 1;
            }
        }
        // both outcomes are exercised
        assert!(outcomes[0] > 1000 && outcomes[1] > 1000, "{outcomes:?}");
    }

    #[test]
    fn a_long_session_is_proven_copy_by_copy() {
        // 5,000 turns 10 s apart, a cut copy of each answer 1 s after it: every copy
        // finds its own turn (the index looks only at the windows reaching its time)
        let t0 = 1_790_000_000_000_i64;
        let at = |ms: i64| Timestamp::from_epoch_millis(t0 + ms);
        let mut rows = Vec::new();
        for i in 0..5_000_i64 {
            rows.push(row(TurnType::User, &format!("prompt {i}"), None, false).at(at(i * 10_000)));
            rows.push(
                row(
                    TurnType::Assistant,
                    &format!("answer {i} in full"),
                    None,
                    false,
                )
                .at(at(i * 10_000 + 3_000)),
            );
        }
        let mut tw = Twins::new();
        tw.add_file(&rows);
        for i in 0..5_000_i64 {
            let mut copy = row(
                TurnType::Assistant,
                &format!("answer {i} in..."),
                None,
                true,
            )
            .at(at(i * 10_000 + 4_000));
            assert!(tw.prove(&mut copy), "{i}");
            assert_eq!(copy.text, format!("answer {i} in full"));
        }
    }
}
