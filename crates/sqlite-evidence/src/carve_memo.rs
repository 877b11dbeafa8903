//! Constant-time text checks for the carving scan, so that a page is carved in time
//! linear in its size.
//!
//! # Why
//!
//! The carver tries a record at almost every byte of a free region. A candidate whose
//! header declares long columns used to cost the length of those columns before it was
//! refused (a blob copied, a text validated up to a bad byte near its end), and the
//! next byte's candidate overlaps it: on a 64 KiB page whose free space is full of bytes
//! that read as headers that was quadratic in the page size. The region's bytes are
//! now read once, backwards, into four tables; each candidate's columns are then judged
//! in constant time each (valid UTF-8, no control character, some non-blank text, some
//! non-zero blob) before anything is decoded or copied, so a refused candidate costs
//! its header only.
//!
//! The checks are those of the strict decoding (see `decode_body`), answered exactly:
//! a column the tables refuse would be refused by the decoding; one they pass is still
//! decoded in full.

/// What the bytes of `b[start..end]` are, for any column lying inside it.
pub(super) struct TextMemo {
    start: usize,
    end: usize,
    /// From each offset: where UTF-8 decoding started there meets its first invalid
    /// sequence (`end` if none).
    utf8_error: Vec<u32>,
    /// From each offset: the next control byte a carved text may not hold (below 0x20
    /// but tab, newline, carriage return and escape), or `end`.
    next_control: Vec<u32>,
    /// From each offset: the next byte that is not ASCII whitespace, or `end`.
    next_nonblank: Vec<u32>,
    /// From each offset: the next non-zero byte, or `end`.
    next_nonzero: Vec<u32>,
}

/// The length of the UTF-8 sequence at `b[i..end]` if it is valid (the rules of
/// `std::str::from_utf8`: no overlong forms, no surrogates, nothing above U+10FFFF).
fn utf8_len(b: &[u8], i: usize, end: usize) -> Option<usize> {
    let c = b[i];
    let (len, lo, hi) = match c {
        0x00..=0x7f => return Some(1),
        0xc2..=0xdf => (2, 0x80, 0xbf),
        0xe0 => (3, 0xa0, 0xbf),
        0xe1..=0xec | 0xee..=0xef => (3, 0x80, 0xbf),
        0xed => (3, 0x80, 0x9f),
        0xf0 => (4, 0x90, 0xbf),
        0xf1..=0xf3 => (4, 0x80, 0xbf),
        0xf4 => (4, 0x80, 0x8f),
        _ => return None,
    };
    if i + len > end {
        return None;
    }
    let second = b[i + 1];
    if !(lo..=hi).contains(&second) {
        return None;
    }
    if b[i + 2..i + len]
        .iter()
        .any(|&x| !(0x80..=0xbf).contains(&x))
    {
        return None;
    }
    Some(len)
}

impl TextMemo {
    /// Reads `b[start..end]` once (the region a carving scan walks).
    pub(super) fn new(b: &[u8], start: usize, end: usize) -> TextMemo {
        let end = end.min(b.len());
        let start = start.min(end);
        let n = end - start;
        let e = end as u32;
        let mut memo = TextMemo {
            start,
            end,
            utf8_error: vec![e; n + 1],
            next_control: vec![e; n + 1],
            next_nonblank: vec![e; n + 1],
            next_nonzero: vec![e; n + 1],
        };
        for k in (0..n).rev() {
            let i = start + k;
            let x = b[i];
            memo.utf8_error[k] = match utf8_len(b, i, end) {
                Some(len) => memo.utf8_error[k + len],
                None => i as u32,
            };
            memo.next_control[k] = if x < 0x20 && !matches!(x, b'\t' | b'\n' | b'\r' | 0x1b) {
                i as u32
            } else {
                memo.next_control[k + 1]
            };
            memo.next_nonblank[k] = if matches!(x, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
                memo.next_nonblank[k + 1]
            } else {
                i as u32
            };
            memo.next_nonzero[k] = if x != 0 {
                i as u32
            } else {
                memo.next_nonzero[k + 1]
            };
        }
        memo
    }

    fn covers(&self, a: usize, z: usize) -> bool {
        self.start <= a && a <= z && z <= self.end
    }

    /// `Some(false)` when `b[a..z]` is certainly no text a carved record may hold (not
    /// UTF-8, or a control character); `None` when the range is outside the region.
    pub(super) fn text_ok(&self, b: &[u8], a: usize, z: usize) -> Option<bool> {
        if !self.covers(a, z) {
            return None;
        }
        if a == z {
            return Some(true);
        }
        let k = a - self.start;
        if (self.next_control[k] as usize) < z {
            return Some(false);
        }
        let err = self.utf8_error[k] as usize;
        // decoding from `a` must reach `z` on a character boundary: where it stopped at
        // an error, or inside the valid run at a byte that starts a character
        Some(err == z || (err > z && !(0x80..=0xbf).contains(&b[z])))
    }

    /// Whether `b[a..z]` holds a byte that is not ASCII whitespace (a non-ASCII byte
    /// counts: it may be text that is not blank).
    pub(super) fn maybe_nonblank(&self, a: usize, z: usize) -> bool {
        !self.covers(a, z) || a < z && (self.next_nonblank[a - self.start] as usize) < z
    }

    /// Whether `b[a..z]` holds a non-zero byte.
    pub(super) fn nonzero(&self, a: usize, z: usize) -> bool {
        !self.covers(a, z) || a < z && (self.next_nonzero[a - self.start] as usize) < z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_the_decoding_would() {
        let text = "key.0001 é ü 日本 🙂\tend\x01tail \u{a0} ".as_bytes();
        let mut b = vec![0u8; 3];
        b.extend_from_slice(text);
        b.extend_from_slice(&[0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, b'a', 0, 0, 7]);
        let (start, end) = (2, b.len() - 1);
        let m = TextMemo::new(&b, start, end);
        for a in start..=end {
            for z in a..=end {
                let bytes = &b[a..z];
                let want = std::str::from_utf8(bytes).is_ok_and(|t| {
                    !t.chars()
                        .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r' | '\x1b'))
                });
                assert_eq!(m.text_ok(&b, a, z), Some(want), "{a}..{z}");
                if let Ok(t) = std::str::from_utf8(bytes) {
                    if !t.trim().is_empty() {
                        assert!(m.maybe_nonblank(a, z), "{a}..{z}");
                    }
                }
                assert_eq!(m.nonzero(a, z), bytes.iter().any(|&x| x != 0));
            }
        }
        assert_eq!(m.text_ok(&b, 0, 4), None);
    }
}
