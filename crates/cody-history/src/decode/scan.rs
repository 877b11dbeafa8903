//! A structural JSON scanner that finds the byte span of each value without
//! decoding it.
//!
//! The history value holds every chat of every account in one JSON object, and one
//! damaged byte would make a strict decoder refuse all of them. The scanner walks only
//! the outer levels (accounts, chats, interactions), so each chat (and inside a damaged
//! chat, each interaction) is decoded on its own and damage stays local. It never
//! recurses: nesting is counted, so a deeply nested or hostile value cannot overflow
//! the stack, and it never allocates more than the key strings it returns.

use super::Error;

/// A cursor over JSON bytes. Offsets in errors are absolute (into `bytes`).
pub(crate) struct Scan<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Scan<'a> {
    pub(crate) fn new(bytes: &'a [u8], pos: usize) -> Scan<'a> {
        Scan { bytes, pos }
    }

    pub(crate) fn ws(&mut self) {
        while let Some(b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes.get(self.pos).copied()
    }

    fn unexpected(&self, expected: &'static str) -> Error {
        match self.bytes.get(self.pos) {
            None => Error::Cut {
                offset: self.pos,
                inside: expected,
            },
            Some(&b) => Error::Unexpected {
                offset: self.pos,
                found: if b.is_ascii_graphic() {
                    (b as char).to_string()
                } else {
                    format!("byte 0x{b:02x}")
                },
                expected,
            },
        }
    }

    /// Consumes `c` (after whitespace) or fails saying what was expected.
    pub(crate) fn expect(&mut self, c: u8, expected: &'static str) -> Result<(), Error> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// True when `self.bytes` is one JSON value once every string in it is emptied:
    /// whatever does not decode in it is inside string values (a bad escape, a control
    /// character, invalid UTF-8), and the structure around them (brackets, commas,
    /// colons, literals) is intact, so the value's span is exactly where the scanner
    /// found it. One pass and one copy of the bytes.
    pub(crate) fn intact_but_for_strings(&self) -> bool {
        let mut out = Vec::with_capacity(self.bytes.len());
        let mut i = 0;
        while let Some(rel) = memchr::memchr(b'"', &self.bytes[i..]) {
            let at = i + rel;
            out.extend_from_slice(&self.bytes[i..at]);
            let Some(end) = self.string_end(at) else {
                return false;
            };
            out.extend_from_slice(b"\"\"");
            i = end;
        }
        out.extend_from_slice(&self.bytes[i..]);
        chat_rows::json::from_slice::<serde_json::Value>(&out).is_ok()
    }

    /// The end (exclusive) of the string starting at `start` (which holds `"`).
    fn string_end(&self, start: usize) -> Option<usize> {
        let mut i = start + 1;
        loop {
            let rel = memchr2(b'"', b'\\', &self.bytes[i.min(self.bytes.len())..])?;
            let at = i + rel;
            if self.bytes[at] == b'\\' {
                i = at + 2;
            } else {
                return Some(at + 1);
            }
        }
    }

    /// Reads a string (after whitespace) and decodes it.
    pub(crate) fn string(&mut self, what: &'static str) -> Result<String, Error> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(what));
        }
        let start = self.pos;
        let end = self.string_end(start).ok_or(Error::Cut {
            offset: self.bytes.len(),
            inside: what,
        })?;
        self.pos = end;
        chat_rows::json::from_slice::<String>(&self.bytes[start..end]).map_err(|e| Error::Json {
            offset: start,
            message: chat_rows::json::reason(&e),
        })
    }

    /// Skips one value (after whitespace); returns its span. A value that runs off the
    /// end of the input is [`Error::Cut`], with the span up to the end in `partial`.
    pub(crate) fn skip_value(&mut self, what: &'static str) -> Result<(usize, usize), Error> {
        let Some(first) = self.peek() else {
            return Err(self.unexpected(what));
        };
        let start = self.pos;
        match first {
            b'"' => match self.string_end(start) {
                Some(end) => self.pos = end,
                None => {
                    self.pos = self.bytes.len();
                    return Err(Error::Cut {
                        offset: self.bytes.len(),
                        inside: what,
                    });
                }
            },
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut i = start;
                loop {
                    let Some(&b) = self.bytes.get(i) else {
                        self.pos = self.bytes.len();
                        return Err(Error::Cut {
                            offset: self.bytes.len(),
                            inside: what,
                        });
                    };
                    match b {
                        b'"' => {
                            i = match self.string_end(i) {
                                Some(e) => e,
                                None => {
                                    self.pos = self.bytes.len();
                                    return Err(Error::Cut {
                                        offset: self.bytes.len(),
                                        inside: what,
                                    });
                                }
                            };
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.pos = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'}' | b']' | b',' | b':' => return Err(self.unexpected(what)),
            _ => {
                let mut i = start;
                while let Some(&b) = self.bytes.get(i) {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    i += 1;
                }
                self.pos = i;
            }
        }
        Ok((start, self.pos))
    }

    /// After a member or element: consumes `,` (returning true) or the closing `close`
    /// (returning false).
    pub(crate) fn next_or_close(
        &mut self,
        close: u8,
        expected: &'static str,
    ) -> Result<bool, Error> {
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected(expected)),
        }
    }

    /// At the start of an object's members (just after `{`): true when the object is empty
    /// (and consumes the `}`).
    pub(crate) fn empty_close(&mut self, close: u8) -> bool {
        if self.peek() == Some(close) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads `"key" :` and returns the key.
    pub(crate) fn key(&mut self) -> Result<String, Error> {
        let k = self.string("an object key")?;
        self.expect(b':', "':' after an object key")?;
        Ok(k)
    }
}

fn memchr2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr2(a, b, hay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_nested_values() {
        let s = br#" {"a":[1,{"b":"}\"]"}],"c":tru}"#;
        let mut sc = Scan::new(s, 0);
        sc.expect(b'{', "{").unwrap();
        assert_eq!(sc.key().unwrap(), "a");
        let (a, b) = sc.skip_value("v").unwrap();
        assert_eq!(&s[a..b], br#"[1,{"b":"}\"]"}]"#);
        assert!(sc.next_or_close(b'}', ", or }").unwrap());
        assert_eq!(sc.key().unwrap(), "c");
        let (a, b) = sc.skip_value("v").unwrap();
        assert_eq!(&s[a..b], b"tru");
        assert!(!sc.next_or_close(b'}', ", or }").unwrap());
    }

    #[test]
    fn cut_values_say_where() {
        let s = br#"{"a":{"b":[1,2"#;
        let mut sc = Scan::new(s, 0);
        sc.expect(b'{', "{").unwrap();
        sc.key().unwrap();
        assert_eq!(
            sc.skip_value("a chat").unwrap_err(),
            Error::Cut {
                offset: 14,
                inside: "a chat"
            }
        );
        let mut sc = Scan::new(br#"{"a"#, 0);
        sc.expect(b'{', "{").unwrap();
        assert_eq!(
            sc.key().unwrap_err(),
            Error::Cut {
                offset: 3,
                inside: "an object key"
            }
        );
        let mut sc = Scan::new(br#"{ ]"#, 0);
        sc.expect(b'{', "{").unwrap();
        assert_eq!(
            sc.key().unwrap_err(),
            Error::Unexpected {
                offset: 2,
                found: "]".into(),
                expected: "an object key"
            }
        );
    }
}
