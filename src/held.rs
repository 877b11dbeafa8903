//! The bytes of the secondary copies a unit holds until it ends.
//!
//! # Why they leave memory
//!
//! A copy can only be merged away once every primary row of its unit has been seen, so
//! the copies of a unit are held until the unit ends (see the scanner's module docs).
//! Most secondary sources are small, but one is not bounded: a Claude Code
//! `history.jsonl` of 300 MB is 874,000 prompts, every one a copy, and the scan held
//! them as formatted rows of their own (537 MB of JSONL) beside a row-sized slot each:
//! 1.56 GB at its peak. Here a file's copies are one run of bytes (no allocation a
//! copy), and past [`HELD_BUDGET`] bytes the run goes on in an unnamed temporary file
//! in the scanner's temporary folder (`--temp-dir`), read back once, in order, when the
//! unit ends. Without a temporary folder (the library's default), or when it cannot be
//! written, the bytes stay in memory, as before.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, Write};
use std::path::Path;

/// Bytes of copies held in memory, per file being read and per unit being written,
/// before the rest goes to a temporary file.
pub const HELD_BUDGET: usize = 16 << 20;

/// Held bytes: the first `spilled` in an unnamed temporary file, the rest in memory.
#[derive(Default)]
pub(crate) struct HeldBytes {
    spill: Option<File>,
    spilled: u64,
    mem: Vec<u8>,
    /// Writing the temporary file failed once: what follows stays in memory.
    failed: bool,
}

impl HeldBytes {
    /// Where the next bytes will start.
    pub(crate) fn len(&self) -> u64 {
        self.spilled + self.mem.len() as u64
    }

    /// The bytes in memory (to append to).
    pub(crate) fn mem(&mut self) -> &mut Vec<u8> {
        &mut self.mem
    }

    /// Bytes in the temporary file.
    pub(crate) fn spilled(&self) -> u64 {
        self.spilled
    }

    /// Bytes held in memory.
    pub(crate) fn in_memory(&self) -> usize {
        self.mem.len()
    }

    /// Moves the bytes in memory to the temporary file when they pass `budget` (a
    /// `budget` of 0 moves them whatever their size). Without `dir`, or once writing
    /// failed, they stay.
    pub(crate) fn spill_over(&mut self, dir: Option<&Path>, budget: usize) {
        let Some(dir) = dir else { return };
        if self.failed || self.mem.is_empty() || self.mem.len() < budget {
            return;
        }
        let written = match &mut self.spill {
            Some(f) => f.write_all(&self.mem),
            None => tempfile::tempfile_in(dir).and_then(|mut f| {
                f.write_all(&self.mem)?;
                self.spill = Some(f);
                Ok(())
            }),
        };
        match written {
            Ok(()) => {
                self.spilled += self.mem.len() as u64;
                self.mem.clear();
            }
            // a partly written spill is never read past `spilled`; the bytes stay here
            Err(_) => self.failed = true,
        }
    }

    /// A reader of the bytes, for spans asked in the order they were written.
    pub(crate) fn reader(self) -> io::Result<HeldReader> {
        let spill = match self.spill {
            Some(mut f) => {
                f.rewind()?;
                Some(BufReader::with_capacity(1 << 16, f))
            }
            None => None,
        };
        Ok(HeldReader {
            spill,
            spilled: self.spilled,
            pos: 0,
            mem: self.mem,
            buf: Vec::new(),
        })
    }
}

/// Reads back the spans of a [`HeldBytes`], each after the one before.
pub(crate) struct HeldReader {
    spill: Option<BufReader<File>>,
    spilled: u64,
    /// Where the temporary file's reader stands.
    pos: u64,
    mem: Vec<u8>,
    buf: Vec<u8>,
}

impl HeldReader {
    /// The bytes `at..at + len`; `at` at or past the end of the span read before.
    pub(crate) fn read(&mut self, at: u64, len: u64) -> io::Result<&[u8]> {
        if at >= self.spilled {
            let start = usize::try_from(at - self.spilled).map_err(io::Error::other)?;
            let end = usize::try_from(len)
                .ok()
                .and_then(|l| start.checked_add(l))
                .filter(|&e| e <= self.mem.len())
                .ok_or_else(|| {
                    io::Error::other("a held copy's bytes are not where they were put")
                })?;
            return Ok(&self.mem[start..end]);
        }
        let (Some(spill), true) = (&mut self.spill, at >= self.pos && at + len <= self.spilled)
        else {
            return Err(io::Error::other(
                "a held copy's bytes were asked out of order",
            ));
        };
        let skip = i64::try_from(at - self.pos).map_err(io::Error::other)?;
        spill.seek_relative(skip)?;
        self.buf.clear();
        spill.by_ref().take(len).read_to_end(&mut self.buf)?;
        if self.buf.len() as u64 != len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the temporary file of held copies ended early",
            ));
        }
        self.pos = at + len;
        Ok(&self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spans written past the budget read back the same, in memory and spilled, and
    /// merged copies between them are passed over.
    #[test]
    fn held_bytes_read_back_as_written_in_memory_and_spilled() {
        let dir = tempfile::tempdir().unwrap();
        for (spill_dir, budget) in [(None, 10), (Some(dir.path()), 10), (Some(dir.path()), 0)] {
            let mut held = HeldBytes::default();
            let mut spans = Vec::new();
            for i in 0..50u64 {
                let at = held.len();
                let text = format!("copy {i} {}\n", "x".repeat(i as usize % 7));
                held.mem().extend_from_slice(text.as_bytes());
                spans.push((at, text.len() as u64, text));
                held.spill_over(spill_dir, budget);
            }
            let spilled = held.spilled;
            assert_eq!(spilled > 0, spill_dir.is_some(), "{spill_dir:?}");
            if spill_dir.is_some() {
                assert!(held.in_memory() < budget + 20, "{budget}");
            }
            let mut r = held.reader().unwrap();
            // every third span is a merged copy: never read
            for (at, len, text) in spans.iter().filter(|s| s.0 % 3 != 0) {
                assert_eq!(r.read(*at, *len).unwrap(), text.as_bytes(), "{spill_dir:?}");
            }
            if spilled > 0 {
                // the spilled part is read once, forwards
                assert_eq!(
                    r.read(0, 1).unwrap_err().to_string(),
                    "a held copy's bytes were asked out of order"
                );
            }
        }
        // nothing is left in the folder: the temporary files had no name
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
