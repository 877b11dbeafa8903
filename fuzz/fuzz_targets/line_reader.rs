#![no_main]
//! The line reader and its bad-line rows must never panic, whatever the bytes; the
//! chunked reader (`LineReader`) must give exactly the lines of the whole-file splitter,
//! however its source splits the bytes and whatever size it is told the source has
//! (`LineReader::from_read_sized`); a bad line's row quotes the whole line as
//! `system::unparseable_line` would, though the bad line holds only its start.
use libfuzzer_sys::fuzz_target;

/// Gives `bytes` in pieces of 1 to 16 bytes, their sizes drawn from the bytes.
struct Pieces<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let step = 1 + usize::from(self.bytes.get(self.at).copied().unwrap_or(0) & 15);
        let n = step.min(buf.len()).min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    for (line, result) in chat_rows::lines::json_lines::<serde_json::Value>(data) {
        assert!(line.offset as usize <= data.len());
        if let Err(bad) = result {
            let row = bad.row("fuzz", "fuzz.jsonl");
            assert!(row.is_parser());
            assert!(row.text.len() < 4 * chat_rows::system::MAX_QUOTED + 200);
            assert_eq!(
                row.text,
                chat_rows::system::unparseable_line(&bad.reason, &line.text_lossy())
            );
        }
    }
    let n = data.len() as u64;
    let told = u64::from(data.first().copied().unwrap_or(0));
    for size in [None, Some(n), Some(n / 2), Some(told), Some(n + told)] {
        let pieces = Pieces { bytes: data, at: 0 };
        let mut chunked = match size {
            None => chat_rows::lines::LineReader::from_read(pieces),
            Some(size) => chat_rows::lines::LineReader::from_read_sized(pieces, size),
        };
        let mut whole = chat_rows::lines::lines(data);
        while let Some(line) = chunked.next_line() {
            assert_eq!(Some(line.unwrap()), whole.next());
        }
        assert_eq!(whole.next(), None);
    }
});
