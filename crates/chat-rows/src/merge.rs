//! Primary/secondary de-duplication.
//!
//! Several stores keep the same turn twice: a live database and its pre-migration
//! backup, a chat file and its legacy copy, a database table and an event log. The
//! specs make one source primary and the others secondary. A secondary row is dropped
//! when a primary row of the same host and user has the same session, turn type and
//! text at a time within a window (default [`DEFAULT_WINDOW_MICROS`], 2 s). Everything else is kept: a
//! secondary row with no primary twin is exactly the evidence that outlived a delete.

use std::collections::HashMap;

use crate::row::{Row, TurnType};

/// The default matching window: 2 seconds, as the specs give it.
pub const DEFAULT_WINDOW_MICROS: i64 = 2_000_000;

fn micros(row: &Row) -> Option<i64> {
    row.timestamp.map(|t| t.unix_micros())
}

/// True when two rows' times (µs) are twins: both within `window_micros` of each
/// other, or both absent. The one time rule of every merge here.
pub fn within_window(a: Option<i64>, b: Option<i64>, window_micros: i64) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= window_micros,
        (None, None) => true,
        _ => false,
    }
}

/// Drops each secondary row whose primary twin exists (see the module docs), keeping
/// the order of everything else. Rows without a time match only rows without a time.
/// Returns the kept rows and how many were dropped. The same rule and index as the
/// scanner's merge ([`TwinIndex`]), for rows already held together.
pub fn merge_secondary(rows: Vec<Row>, window_micros: i64) -> (Vec<Row>, usize) {
    let key = |r: &Row| fingerprint(&r.host, &r.user, &r.session_id, r.turn_type, &r.text);
    let mut index = TwinIndex::default();
    for r in rows.iter().filter(|r| !r.secondary) {
        index.insert(key(r), micros(r));
    }
    index.seal();
    let mut dropped = 0;
    let kept = rows
        .into_iter()
        .filter(|r| {
            let twin = r.secondary && index.has_twin(key(r), micros(r), window_micros);
            dropped += usize::from(twin);
            !twin
        })
        .collect();
    (kept, dropped)
}

/// The primary rows of other files, to check secondary rows against when the two are
/// read separately (a backup or a log read after the live database): the same rule
/// as [`merge_secondary`] (session, turn type, text, time within a window), without
/// holding the primary rows themselves.
#[derive(Clone, Debug, Default)]
pub struct PrimaryIndex {
    index: TwinIndex,
}

impl PrimaryIndex {
    fn key(row: &Row) -> u128 {
        fingerprint("", "", &row.session_id, row.turn_type, &row.text)
    }

    /// An index of `rows`, all taken as primary whatever their `secondary` flag.
    pub fn new<'a>(rows: impl IntoIterator<Item = &'a Row>) -> PrimaryIndex {
        let mut index = PrimaryIndex::default();
        index.extend(rows);
        index
    }

    /// Adds rows, taken as primary.
    pub fn extend<'a>(&mut self, rows: impl IntoIterator<Item = &'a Row>) {
        for r in rows {
            self.index.insert(PrimaryIndex::key(r), micros(r));
        }
        self.index.seal();
    }

    /// True when an indexed row has `row`'s session, turn type and text at a time
    /// within `window_micros` (rows without a time match only rows without a time).
    pub fn has_twin(&self, row: &Row, window_micros: i64) -> bool {
        self.index
            .has_twin(PrimaryIndex::key(row), micros(row), window_micros)
    }
}

/// A 128-bit fingerprint of what makes two rows twins: the user, the session, the
/// turn type and the text (the host is the unit's). Two independent 64-bit hashes
/// make a false match (which would drop a secondary row) vanishingly unlikely.
pub fn twin_key(user: &str, row: &Row) -> u128 {
    twin_key_of(user, &row.session_id, row.turn_type, &row.text)
}

/// [`twin_key`] from its parts (an empty `session` for the session-less key of
/// [`TwinIndex`]'s loose match).
pub fn twin_key_of(user: &str, session: &str, turn: TurnType, text: &str) -> u128 {
    fingerprint("", user, session, turn, text)
}

/// The key of a prompt by its text alone, for a copy that kept neither its session nor
/// its time (a legacy prompt list): the user, the agent, the turn type and the text.
/// The agent is part of it (the specs match such a copy against a prompt "of the same
/// host, user and agent"), so that one assistant's prompt list never merges away
/// against another assistant's prompt of the same text.
pub fn loose_key(user: &str, agent: &str, turn: TurnType, text: &str) -> u128 {
    // the agent takes the host's place, which is empty in every other key
    fingerprint(agent, user, "", turn, text)
}

/// Two independent 64-bit hashes of a row's twin fields.
fn fingerprint(host: &str, user: &str, session: &str, turn: TurnType, text: &str) -> u128 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let hash = |seed: u64| {
        let mut h = foldhash::quality::FixedState::with_seed(seed).build_hasher();
        host.hash(&mut h);
        user.hash(&mut h);
        session.hash(&mut h);
        (turn as u8).hash(&mut h);
        text.hash(&mut h);
        h.finish()
    };
    (u128::from(hash(0x243F_6A88_85A3_08D3)) << 64) | u128::from(hash(0x1319_8A2E_0370_7344))
}

/// The primary rows of a unit (a host, or a root whose hosts are unknown) as twin keys
/// and times: what a secondary row is checked against, without holding the rows.
///
/// Lookups are logarithmic in the number of primary rows that share a key (a session
/// may repeat "continue" thousands of times): call [`TwinIndex::seal`] after the last
/// insert, which sorts each key's times once.
#[derive(Clone, Debug, Default)]
pub struct TwinIndex {
    keys: HashMap<u128, Times>,
}

#[derive(Clone, Debug, Default)]
struct Times {
    untimed: bool,
    times: Vec<i64>,
    sorted: bool,
}

impl TwinIndex {
    /// Adds a primary row's key and time (µs).
    pub fn insert(&mut self, key: u128, time: Option<i64>) {
        let e = self.keys.entry(key).or_default();
        match time {
            Some(t) => {
                e.sorted &= e.times.last().is_none_or(|l| *l <= t);
                if e.times.is_empty() {
                    e.sorted = true;
                }
                e.times.push(t);
            }
            None => e.untimed = true,
        }
    }

    /// Sorts every key's times, so that [`TwinIndex::has_twin`] is logarithmic.
    pub fn seal(&mut self) {
        for e in self.keys.values_mut() {
            if !e.sorted {
                e.times.sort_unstable();
                e.sorted = true;
            }
        }
    }

    /// True when a primary row with `key` lies within `window_micros` of `time` (rows
    /// without a time match only rows without a time), as [`merge_secondary`] decides.
    pub fn has_twin(&self, key: u128, time: Option<i64>, window_micros: i64) -> bool {
        let Some(e) = self.keys.get(&key) else {
            return false;
        };
        let Some(t) = time else {
            return e.untimed;
        };
        let lo = t.saturating_sub(window_micros);
        let hi = t.saturating_add(window_micros);
        if e.sorted {
            let i = e.times.partition_point(|p| *p < lo);
            e.times.get(i).is_some_and(|p| *p <= hi)
        } else {
            e.times.iter().any(|p| (lo..=hi).contains(p))
        }
    }

    /// True when a primary row with `key` was inserted, at any time or none: what a
    /// copy that kept its session but no time is matched by (the Copilot and Cursor
    /// specs: times are compared only when both rows have one).
    pub fn has_key(&self, key: u128) -> bool {
        self.keys.contains_key(&key)
    }

    /// How many primary rows it holds.
    pub fn len(&self) -> usize {
        self.keys
            .values()
            .map(|e| e.times.len() + usize::from(e.untimed))
            .sum()
    }

    /// True when it holds no row.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::when::Timestamp;

    fn row(session: &str, text: &str, ms: Option<i64>, secondary: bool) -> Row {
        Row::new("tabby", TurnType::User, text)
            .session(session)
            .at(ms.and_then(Timestamp::from_epoch_millis))
            .secondary(secondary)
    }

    #[test]
    fn drops_only_twins_within_the_window() {
        let t = 1_700_000_000_000;
        let rows = vec![
            row("s", "hello", Some(t), false),
            row("s", "hello", Some(t + 1500), true), // twin: dropped
            row("s", "hello", Some(t + 2500), true), // outside window: kept
            row("s", "gone", Some(t), true),         // no primary: kept
            row("other", "hello", Some(t), true),    // other session: kept
            row("s", "untimed", None, false),
            row("s", "untimed", None, true), // both untimed: dropped
            row("s", "untimed", Some(t), true), // one untimed: kept
        ];
        let (kept, dropped) = merge_secondary(rows, DEFAULT_WINDOW_MICROS);
        assert_eq!(dropped, 2);
        let texts: Vec<_> = kept
            .iter()
            .map(|r| (r.text.as_str(), r.secondary))
            .collect();
        assert_eq!(
            texts,
            vec![
                ("hello", false),
                ("hello", true),
                ("gone", true),
                ("hello", true),
                ("untimed", false),
                ("untimed", true)
            ]
        );
    }

    #[test]
    fn primary_index_matches_like_merge() {
        let t = 1_700_000_000_000;
        let index = PrimaryIndex::new(&[
            row("s", "hello", Some(t), false),
            row("s", "untimed", None, true),
        ]);
        let w = DEFAULT_WINDOW_MICROS;
        assert!(index.has_twin(&row("s", "hello", Some(t + 2000), true), w));
        assert!(!index.has_twin(&row("s", "hello", Some(t + 2001), true), w));
        assert!(!index.has_twin(&row("other", "hello", Some(t), true), w));
        assert!(index.has_twin(&row("s", "untimed", None, true), w));
        assert!(!index.has_twin(&row("s", "untimed", Some(t), true), w));
    }

    #[test]
    fn host_and_user_must_match() {
        let t = 1_700_000_000_000;
        let mut other_user = row("s", "x", Some(t), true);
        other_user.user = "bob".into();
        let mut primary = row("s", "x", Some(t), false);
        primary.user = "alice".into();
        let mut twin = row("s", "x", Some(t), true);
        twin.user = "alice".into();
        let (kept, dropped) =
            merge_secondary(vec![primary, other_user, twin], DEFAULT_WINDOW_MICROS);
        assert_eq!(dropped, 1);
        assert_eq!(kept[1].user, "bob");
    }

    #[test]
    fn turn_type_must_match() {
        let t = 1_700_000_000_000;
        let mut a = row("s", "x", Some(t), true);
        a.turn_type = TurnType::Assistant;
        let (kept, dropped) = merge_secondary(
            vec![row("s", "x", Some(t), false), a],
            DEFAULT_WINDOW_MICROS,
        );
        assert_eq!((kept.len(), dropped), (2, 0));
    }

    #[test]
    fn twin_index_decides_like_merge() {
        let t = 1_700_000_000_000;
        let rows = [
            row("s", "hello", Some(t), false),
            row("s", "hello", Some(t + 1500), true),
            row("s", "hello", Some(t + 2500), true),
            row("s", "gone", Some(t), true),
            row("other", "hello", Some(t), true),
            row("s", "untimed", None, false),
            row("s", "untimed", None, true),
            row("s", "untimed", Some(t), true),
        ];
        let mut index = TwinIndex::default();
        for r in rows.iter().filter(|r| !r.secondary) {
            index.insert(twin_key("", r), r.timestamp.map(|t| t.unix_micros()));
        }
        let kept: Vec<bool> = rows
            .iter()
            .filter(|r| r.secondary)
            .map(|r| {
                !index.has_twin(
                    twin_key("", r),
                    r.timestamp.map(|t| t.unix_micros()),
                    DEFAULT_WINDOW_MICROS,
                )
            })
            .collect();
        assert_eq!(kept, [false, true, true, true, false, true]);
        assert_eq!(index.len(), 2);
        assert_ne!(twin_key("alice", &rows[0]), twin_key("bob", &rows[0]));
    }

    #[test]
    fn twin_index_is_logarithmic_and_exact_with_many_repeats() {
        let mut index = TwinIndex::default();
        let k = 7u128;
        // 100k primaries of the same text, every 10 s, inserted out of order
        for i in (0..100_000i64).rev() {
            index.insert(k, Some(i * 10_000_000));
        }
        index.seal();
        let w = DEFAULT_WINDOW_MICROS;
        assert!(index.has_twin(k, Some(50_000 * 10_000_000 + 2_000_000), w));
        assert!(!index.has_twin(k, Some(50_000 * 10_000_000 + 2_000_001), w));
        assert!(index.has_twin(k, Some(-2_000_000), w));
        assert!(!index.has_twin(k, Some(-2_000_001), w));
        assert!(!index.has_twin(k, None, w));
        assert!(!index.has_twin(8, Some(0), w));
        let hits = (0..100_000i64)
            .filter(|i| index.has_twin(k, Some(i * 10_000_000 + 1_000_000), w))
            .count();
        assert_eq!(hits, 100_000);
        assert_eq!(index.len(), 100_000);
    }
}
