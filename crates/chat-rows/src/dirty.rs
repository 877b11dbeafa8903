//! The dirty-input harness every store crate runs on its fixtures.
//!
//! Real evidence is cut off mid-write, bit-rotted or spliced together by carving
//! tools. A parser that panics or allocates gigabytes on such input loses the whole
//! file. The harness derives many damaged variants of a good input (truncated at many
//! offsets, bytes flipped, regions spliced and duplicated), runs the parser on each,
//! and reports per case whether it panicked and how many `parser:` rows it produced.
//! A store crate's test then asserts: no panic, bounded memory, and a `parser:` row
//! for each case that certainly damaged the input (for JSONL, a cut inside a line).
//!
//! The mutations are deterministic (a fixed-seed xorshift), so a failure reproduces.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::row::Row;

/// One way of damaging the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// Keep only the first `n` bytes.
    Truncate(usize),
    /// XOR the byte at `offset` with `mask`.
    Flip {
        /// Byte offset.
        offset: usize,
        /// Non-zero XOR mask.
        mask: u8,
    },
    /// Copy `len` bytes from `from` over the bytes at `to`.
    Splice {
        /// Source offset.
        from: usize,
        /// Length.
        len: usize,
        /// Destination offset.
        to: usize,
    },
    /// Duplicate the bytes `start..end` right after themselves.
    Duplicate {
        /// Start offset.
        start: usize,
        /// End offset.
        end: usize,
    },
}

impl Mutation {
    /// Applies the mutation to `input`.
    pub fn apply(&self, input: &[u8]) -> Vec<u8> {
        let mut v = input.to_vec();
        match *self {
            Mutation::Truncate(n) => v.truncate(n),
            Mutation::Flip { offset, mask } => {
                if let Some(b) = v.get_mut(offset) {
                    *b ^= mask;
                }
            }
            Mutation::Splice { from, len, to } => {
                let len = len
                    .min(input.len().saturating_sub(from))
                    .min(v.len().saturating_sub(to));
                v[to..to + len].copy_from_slice(&input[from..from + len]);
            }
            Mutation::Duplicate { start, end } => {
                let end = end.min(input.len());
                let start = start.min(end);
                let chunk = input[start..end].to_vec();
                v.splice(end..end, chunk);
            }
        }
        v
    }
}

/// The outcome of one damaged variant.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The damage applied.
    pub mutation: Mutation,
    /// Rows produced (0 when it panicked).
    pub rows: usize,
    /// `parser:` rows among them.
    pub parser_rows: usize,
    /// The panic message, if the parser panicked.
    pub panicked: Option<String>,
}

/// Settings: how many variants of each kind to try.
#[derive(Clone, Debug)]
pub struct Harness {
    truncations: usize,
    flips: usize,
    splices: usize,
    seed: u64,
}

impl Default for Harness {
    fn default() -> Self {
        Harness {
            truncations: 64,
            flips: 64,
            splices: 32,
            seed: 0x9E37_79B9_7F4A_7C15,
        }
    }
}

impl Harness {
    /// The default harness: 64 truncations, 64 flips, 32 splices and duplications.
    pub fn new() -> Harness {
        Harness::default()
    }

    /// Sets the number of truncation offsets (spread over the file, plus the last bytes).
    pub fn truncations(mut self, n: usize) -> Harness {
        self.truncations = n;
        self
    }

    /// Sets the number of byte flips.
    pub fn flips(mut self, n: usize) -> Harness {
        self.flips = n;
        self
    }

    /// Sets the number of splices (and as many duplications).
    pub fn splices(mut self, n: usize) -> Harness {
        self.splices = n;
        self
    }

    /// Sets the seed of the deterministic random offsets.
    pub fn seed(mut self, seed: u64) -> Harness {
        self.seed = seed.max(1);
        self
    }

    /// The mutations this harness applies to an input of `len` bytes.
    pub fn mutations(&self, len: usize) -> Vec<Mutation> {
        let mut out = Vec::new();
        if len == 0 {
            return out;
        }
        let mut next = xorshift(self.seed);
        let mut rand = |n: usize| (next() % n.max(1) as u64) as usize;
        for i in 0..self.truncations {
            out.push(Mutation::Truncate(len * i / self.truncations.max(1)));
        }
        for k in 1..=8usize.min(len) {
            out.push(Mutation::Truncate(len - k));
        }
        for _ in 0..self.flips {
            let offset = rand(len);
            let mask = 1u8 << rand(8);
            out.push(Mutation::Flip { offset, mask });
        }
        for _ in 0..self.splices {
            let from = rand(len);
            let to = rand(len);
            let l = 1 + rand(64);
            out.push(Mutation::Splice { from, len: l, to });
            let start = rand(len);
            let end = start + 1 + rand(len - start);
            out.push(Mutation::Duplicate { start, end });
        }
        out.dedup();
        out
    }

    /// Runs `parse` on every damaged variant of `input`.
    pub fn run(&self, input: &[u8], parse: impl Fn(&[u8]) -> Vec<Row>) -> Report {
        let mut cases = Vec::new();
        for m in self.mutations(input.len()) {
            let damaged = m.apply(input);
            let outcome = catch(|| parse(&damaged));
            cases.push(case(m, outcome));
        }
        Report { cases }
    }

    /// Like [`Harness::run`] for parsers that read from a path: each variant is written
    /// as `file_name` into a fresh private temporary directory (never beside evidence),
    /// together with the unchanged `siblings` (name, bytes), and `parse` gets its path.
    pub fn run_files(
        &self,
        input: &[u8],
        file_name: &str,
        siblings: &[(&str, &[u8])],
        parse: impl Fn(&Path) -> Vec<Row>,
    ) -> Report {
        let mut cases = Vec::new();
        for m in self.mutations(input.len()) {
            let dir = scratch_dir();
            let path = dir.join(file_name);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            for (name, bytes) in siblings {
                let p = dir.join(name);
                if let Some(parent) = p.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                let _ = std::fs::write(p, bytes);
            }
            let _ = std::fs::write(&path, m.apply(input));
            let outcome = catch(|| parse(&path));
            let _ = std::fs::remove_dir_all(&dir);
            cases.push(case(m, outcome));
        }
        Report { cases }
    }
}

fn scratch_dir() -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("chat-rows-dirty-{}-{n}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn catch(f: impl FnOnce() -> Vec<Row>) -> Result<Vec<Row>, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".to_string())
    })
}

fn case(mutation: Mutation, outcome: Result<Vec<Row>, String>) -> CaseResult {
    match outcome {
        Ok(rows) => CaseResult {
            mutation,
            parser_rows: rows.iter().filter(|r| r.is_parser()).count(),
            rows: rows.len(),
            panicked: None,
        },
        Err(msg) => CaseResult {
            mutation,
            rows: 0,
            parser_rows: 0,
            panicked: Some(msg),
        },
    }
}

/// The outcomes of a harness run.
#[derive(Clone, Debug)]
pub struct Report {
    /// One result per damaged variant.
    pub cases: Vec<CaseResult>,
}

impl Report {
    /// Panics (failing the test) if any variant made the parser panic.
    pub fn assert_no_panics(&self) {
        let panics: Vec<_> = self.cases.iter().filter(|c| c.panicked.is_some()).collect();
        assert!(
            panics.is_empty(),
            "{} of {} damaged inputs panicked: {:?}",
            panics.len(),
            self.cases.len(),
            panics
        );
    }

    /// Panics if the process's peak resident memory exceeds `limit_bytes` (Linux only;
    /// elsewhere nothing is checked).
    pub fn assert_peak_memory_below(&self, limit_bytes: u64) {
        if let Some(peak) = peak_rss_bytes() {
            assert!(
                peak <= limit_bytes,
                "peak RSS {peak} bytes exceeds {limit_bytes}"
            );
        }
    }

    /// Panics unless every case for which `damaged(mutation)` holds gave a `parser:` row.
    pub fn assert_damage_reported(&self, damaged: impl Fn(&Mutation) -> bool) {
        let silent: Vec<_> = self
            .cases
            .iter()
            .filter(|c| c.panicked.is_none() && damaged(&c.mutation) && c.parser_rows == 0)
            .map(|c| &c.mutation)
            .collect();
        assert!(
            silent.is_empty(),
            "damage without a parser: row: {silent:?}"
        );
    }

    /// How many cases produced at least one `parser:` row.
    pub fn reported(&self) -> usize {
        self.cases.iter().filter(|c| c.parser_rows > 0).count()
    }
}

/// For line-oriented input: true when `m` truncates `input` inside a non-blank line,
/// which must always give a `parser:` row (a torn last line).
pub fn cuts_inside_a_line(input: &[u8], m: &Mutation) -> bool {
    match *m {
        Mutation::Truncate(n) if n > 0 && n < input.len() => {
            // the kept part ends inside a line when the byte before the cut is not a
            // newline and the cut line has non-whitespace content before the cut
            let line_start = input[..n]
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |p| p + 1);
            let kept = &input[line_start..n];
            let rest_of_line_end = input[n..]
                .iter()
                .position(|b| *b == b'\n')
                .map_or(input.len(), |p| n + p);
            let rest = &input[n..rest_of_line_end];
            !kept.iter().all(u8::is_ascii_whitespace) && !rest.iter().all(u8::is_ascii_whitespace)
        }
        _ => false,
    }
}

/// Every regular file under `root` that `keep` accepts, sorted (for tests that run a
/// store over a fixture tree). Links are not followed; a folder that cannot be listed
/// is passed over.
pub fn files_under(root: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            let p = e.path();
            if kind.is_dir() {
                walk(&p, keep, out);
            } else if kind.is_file() && keep(&p) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &keep, &mut out);
    out.sort();
    out
}

/// The process's peak resident set size in bytes (Linux `VmHWM`), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Marsaglia's xorshift64 from `state` (not 0): the harness's mutations, and the crate's
/// randomized tests, the same for a seed on every machine.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::json_lines;
    use crate::row::Row;

    fn parse_jsonl(bytes: &[u8]) -> Vec<Row> {
        json_lines::<serde_json::Value>(bytes)
            .map(|(line, r)| match r {
                Ok(_) => Row::system("t", "ok").line(line.number),
                Err(bad) => bad.row("t", "f.jsonl"),
            })
            .collect()
    }

    #[test]
    fn harness_finds_reported_damage_for_jsonl() {
        let input = b"{\"a\":1}\n{\"b\":[1,2,3]}\n{\"c\":\"text\"}\n";
        let report = Harness::new().run(input, parse_jsonl);
        report.assert_no_panics();
        report.assert_damage_reported(|m| cuts_inside_a_line(input, m));
        report.assert_peak_memory_below(4 << 30);
        assert!(report.reported() > 10);
    }

    #[test]
    #[should_panic(expected = "damage without a parser: row")]
    fn a_silent_parser_fails_the_harness() {
        let input = b"{\"a\":1}\n{\"b\":2}\n";
        let report = Harness::new().run(input, |_| vec![]);
        report.assert_damage_reported(|m| cuts_inside_a_line(input, m));
    }

    #[test]
    fn a_panicking_parser_is_caught() {
        let report = Harness::new()
            .truncations(2)
            .flips(0)
            .splices(0)
            .run(b"abc", |b| {
                assert!(b.len() > 2, "short");
                vec![]
            });
        assert!(
            report
                .cases
                .iter()
                .any(|c| c.panicked.as_deref() == Some("short"))
        );
    }

    #[test]
    fn cut_detection() {
        let input = b"{\"a\":1}\n{\"b\":2}\n";
        assert!(cuts_inside_a_line(input, &Mutation::Truncate(3)));
        assert!(!cuts_inside_a_line(input, &Mutation::Truncate(8)));
        assert!(!cuts_inside_a_line(input, &Mutation::Truncate(0)));
        assert!(cuts_inside_a_line(input, &Mutation::Truncate(14)));
        assert!(!cuts_inside_a_line(input, &Mutation::Truncate(15)));
        assert!(!cuts_inside_a_line(input, &Mutation::Truncate(16)));
    }

    #[test]
    fn mutations_apply_within_bounds() {
        let input = b"0123456789";
        for m in Harness::new().mutations(input.len()) {
            let _ = m.apply(input);
        }
        assert_eq!(
            Mutation::Duplicate { start: 2, end: 4 }.apply(input),
            b"012323456789"
        );
        assert_eq!(
            Mutation::Splice {
                from: 0,
                len: 2,
                to: 8
            }
            .apply(input),
            b"0123456701"
        );
    }
}
