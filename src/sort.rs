//! `--sort time`: one global timeline in bounded memory.
//!
//! The scanner's own order is by host, file and session (see [`crate::Scanner`]),
//! which is what streaming can give without holding the case. An analyst who wants
//! one timeline across every host gets it from an external merge sort: rows are
//! gathered into runs of at most [`TimeSorter::run_rows`] rows, each run is sorted by
//! time and spilled to a temporary folder as JSONL, and the runs are merged at the end.
//! The folder is made inside a directory the caller chooses, which the CLI checks lies
//! outside every evidence root, and is removed afterwards. Rows without a time come
//! last, in scan order; rows with equal times keep scan order, so the output is the
//! same for every thread count.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use chat_rows::write::RowWriter;
use chat_rows::{FileContext, Row};

/// Rows per run by default (a run of chat rows takes a few hundred MB at most).
pub const DEFAULT_RUN_ROWS: usize = 200_000;

type Key = (i64, u64);

fn key_of(row: &Row, seq: u64) -> Key {
    (row.timestamp.map_or(i64::MAX, |t| t.unix_micros()), seq)
}

/// An external merge sort of rows by time.
pub struct TimeSorter {
    dir: tempfile::TempDir,
    run_rows: usize,
    buf: Vec<(Key, Row)>,
    runs: Vec<std::path::PathBuf>,
    seq: u64,
}

impl TimeSorter {
    /// A sorter that spills into a new temporary folder inside `parent`.
    pub fn new(parent: &Path) -> io::Result<TimeSorter> {
        Ok(TimeSorter {
            dir: tempfile::Builder::new()
                .prefix("ai-chat-forensics-sort-")
                .tempdir_in(parent)?,
            run_rows: DEFAULT_RUN_ROWS,
            buf: Vec::new(),
            runs: Vec::new(),
            seq: 0,
        })
    }

    /// Sets the rows per run (mostly for tests).
    pub fn run_rows(mut self, n: usize) -> TimeSorter {
        self.run_rows = n.max(1);
        self
    }

    /// How many runs were spilled so far.
    pub fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    /// Adds a row, with its per-file fields filled from `ctx`.
    pub fn push(&mut self, ctx: &FileContext, row: &Row) -> io::Result<()> {
        let mut row = row.clone();
        ctx.fill(&mut row);
        let key = key_of(&row, self.seq);
        self.seq += 1;
        self.buf.push((key, row));
        if self.buf.len() >= self.run_rows {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        self.buf.sort_by_key(|(k, _)| *k);
        let path = self
            .dir
            .path()
            .join(format!("run-{}.jsonl", self.runs.len()));
        let mut w = BufWriter::new(File::create(&path)?);
        for (k, row) in self.buf.drain(..) {
            writeln!(w, "{} {}", k.1, serde_json::to_string(&row)?)?;
        }
        w.flush()?;
        self.runs.push(path);
        Ok(())
    }

    /// Writes every row in time order to `out`, and removes the temporary folder.
    pub fn finish<W: Write>(mut self, out: &mut RowWriter<W>) -> io::Result<()> {
        if self.runs.is_empty() {
            self.buf.sort_by_key(|(k, _)| *k);
            for (_, row) in &self.buf {
                out.write(row)?;
            }
            return Ok(());
        }
        if !self.buf.is_empty() {
            self.spill()?;
        }
        let mut readers: Vec<std::io::Lines<BufReader<File>>> = self
            .runs
            .iter()
            .map(|p| File::open(p).map(|f| BufReader::new(f).lines()))
            .collect::<io::Result<_>>()?;
        let next = |r: &mut std::io::Lines<BufReader<File>>| -> io::Result<Option<(Key, Row)>> {
            let Some(line) = r.next().transpose()? else {
                return Ok(None);
            };
            let (seq, json) = line
                .split_once(' ')
                .ok_or_else(|| io::Error::other("damaged sort run"))?;
            let seq: u64 = seq.parse().map_err(io::Error::other)?;
            let row: Row = serde_json::from_str(json)?;
            Ok(Some((key_of(&row, seq), row)))
        };
        let mut heap = BinaryHeap::new();
        let mut heads: Vec<Option<Row>> = Vec::with_capacity(readers.len());
        for (i, r) in readers.iter_mut().enumerate() {
            match next(r)? {
                Some((k, row)) => {
                    heap.push(Reverse((k, i)));
                    heads.push(Some(row));
                }
                None => heads.push(None),
            }
        }
        while let Some(Reverse((_, i))) = heap.pop() {
            if let Some(row) = heads[i].take() {
                out.write(&row)?;
            }
            if let Some((k, row)) = next(&mut readers[i])? {
                heap.push(Reverse((k, i)));
                heads[i] = Some(row);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chat_rows::write::{Format, RowWriter};
    use chat_rows::{Timestamp, TurnType};

    #[test]
    fn merges_spilled_runs_by_time_with_untimed_rows_last() {
        let d = tempfile::tempdir().unwrap();
        let ctx = FileContext {
            host: "h".into(),
            ..FileContext::default()
        };
        let times = [5, 3, 9, 0, 1, 7, 3, 0, 2];
        let rows: Vec<Row> = times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                Row::new("x", TurnType::User, format!("r{i}")).at((t > 0)
                    .then(|| Timestamp::from_epoch_millis(1_700_000_000_000 + t))
                    .flatten())
            })
            .collect();
        let sorted = |run_rows: usize| {
            let mut s = TimeSorter::new(d.path()).unwrap().run_rows(run_rows);
            for r in &rows {
                s.push(&ctx, r).unwrap();
            }
            let spilled = s.spilled_runs();
            let mut buf = Vec::new();
            let mut w = RowWriter::new(Format::Jsonl, &mut buf).unwrap();
            s.finish(&mut w).unwrap();
            w.finish().unwrap();
            let texts: Vec<String> = String::from_utf8(buf)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Row>(l).unwrap())
                .map(|r| format!("{}@{}", r.text, r.host))
                .collect();
            (texts.join(" "), spilled)
        };
        let expect = "r4@h r8@h r1@h r6@h r0@h r5@h r2@h r3@h r7@h";
        assert_eq!(sorted(100), (expect.to_string(), 0));
        assert_eq!(sorted(2), (expect.to_string(), 4));
        // the temporary folders are gone
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
