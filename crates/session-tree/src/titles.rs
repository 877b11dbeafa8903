//! Session titles: several records can name a session, and the product picks one.
//!
//! Both products keep a user's `custom-title` and a model's `ai-title` (CodeBuddy also a
//! `topic`, Claude Code a legacy `summary`), and fall back to the first prompt. The
//! reader gives one `session title: <t> (from <source>)` row first, chosen in the
//! product's order: the newest candidate of the first source that has one.

use chat_rows::Timestamp;

/// The most characters of the first prompt that a `session title: ... (from first
/// prompt)` row embeds: the title is derived text, and the prompt's own `user` row
/// holds it whole (a 100 MB first line must not be copied into a second row).
pub const MAX_TITLE_PROMPT: usize = 200;

/// `text` cut to [`MAX_TITLE_PROMPT`] characters on a char boundary, with `…` appended
/// when it was cut.
pub fn cap_prompt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_TITLE_PROMPT) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}

/// The first non-blank line of a prompt, capped: the title a first prompt gives.
pub fn first_prompt_title(prompt: &str) -> Option<String> {
    prompt
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| cap_prompt(l).into_owned())
}

/// A title candidate: where it is and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct TitlePick {
    /// 1-based line.
    pub line: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// The record's time.
    pub time: Option<Timestamp>,
    /// The record's `cwd`.
    pub cwd: Option<String>,
    /// The git branch of the record (as its own rows would have it), where the product
    /// knows one ([`TitlePick::on_branch`]).
    pub branch: Option<String>,
    /// The title.
    pub text: String,
}

impl TitlePick {
    /// A candidate on `line`.
    pub fn at(
        line: &chat_rows::lines::Line<'_>,
        time: Option<Timestamp>,
        cwd: Option<&String>,
        text: String,
    ) -> TitlePick {
        TitlePick {
            line: line.number,
            offset: line.offset,
            time,
            cwd: cwd.cloned(),
            branch: None,
            text,
        }
    }

    /// The candidate with the git branch of its record.
    pub fn on_branch(mut self, branch: Option<&str>) -> TitlePick {
        self.branch = branch.map(str::to_string);
        self
    }
}

/// The candidates of each title source, in the product's order of preference.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Titles {
    sources: &'static [&'static str],
    picks: Vec<Option<TitlePick>>,
}

impl Titles {
    /// Candidates for `sources`, best first (`["custom-title", "ai-title", ...]`).
    pub fn new(sources: &'static [&'static str]) -> Titles {
        Titles {
            sources,
            picks: vec![None; sources.len()],
        }
    }

    /// Offers a candidate of `source`; a later one replaces an earlier one (the newest
    /// wins), unless `first_only`. Blank titles are not candidates.
    pub fn offer(&mut self, source: &str, mut pick: TitlePick, first_only: bool) {
        let Some(slot) = self.sources.iter().position(|s| *s == source) else {
            return;
        };
        let text = pick.text.trim();
        if text.is_empty() || (first_only && self.picks[slot].is_some()) {
            return;
        }
        pick.text = text.to_string();
        self.picks[slot] = Some(pick);
    }

    /// True when `source` has a candidate.
    pub fn has(&self, source: &str) -> bool {
        self.sources
            .iter()
            .position(|s| *s == source)
            .is_some_and(|i| self.picks[i].is_some())
    }

    /// The chosen title and its source.
    pub fn best(&self) -> Option<(&TitlePick, &'static str)> {
        self.picks
            .iter()
            .zip(self.sources)
            .find_map(|(p, s)| p.as_ref().map(|p| (p, *s)))
    }

    /// `session title: <t> (from <source>)` of the chosen title.
    pub fn row_text(&self) -> Option<String> {
        self.best()
            .map(|(p, from)| format!("session title: {} (from {from})", p.text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(text: &str, line: u64) -> TitlePick {
        TitlePick {
            line,
            offset: 0,
            time: None,
            cwd: None,
            branch: None,
            text: text.into(),
        }
    }

    #[test]
    fn order_and_newest() {
        let mut t = Titles::new(&["custom-title", "ai-title", "first prompt"]);
        assert_eq!(t.row_text(), None);
        t.offer("first prompt", pick("go", 1), true);
        t.offer("first prompt", pick("later", 5), true);
        assert_eq!(
            t.row_text().unwrap(),
            "session title: go (from first prompt)"
        );
        t.offer("ai-title", pick(" A ", 2), false);
        t.offer("ai-title", pick("B", 3), false);
        t.offer("ai-title", pick("  ", 4), false);
        assert_eq!(t.row_text().unwrap(), "session title: B (from ai-title)");
        assert!(t.has("ai-title") && !t.has("custom-title") && !t.has("x"));
        assert_eq!(first_prompt_title("\n  a\nb").as_deref(), Some("a"));
        assert_eq!(
            cap_prompt(&"é".repeat(201)),
            format!("{}…", "é".repeat(200))
        );
    }
}
