//! Writers: JSONL, CSV and Timesketch JSONL.
//!
//! Every writer formats a row straight from its borrowed fields into a byte buffer
//! ([`format_row`]): no per-row allocation, no copy of the per-file fields, which a
//! writer reads from the file's [`FileContext`] where the row leaves them empty. The
//! scanner's workers format rows in parallel this way, and one thread writes the bytes.
//!
//! All three write the same columns in the same order ([`Row::columns`]).
//! Timesketch requires a time on every event, so rows without one cannot go into a
//! Timesketch file; the writer leaves them out **visibly**: it counts them in
//! [`WriteStats::untimed_left_out`], and the CLI prints that count. Rows whose zone is
//! unknown are written at their wall-clock value with `timestamp_zone = unknown` and a
//! `timestamp_desc` that says so, never silently as UTC.

use std::io::{self, Write};

use crate::row::{Row, Zone};
use crate::store::FileContext;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per row, fixed field order.
    Jsonl,
    /// RFC 4180 CSV with a header.
    Csv,
    /// JSONL with Timesketch's `message`, `datetime`, `timestamp` and `timestamp_desc`.
    Timesketch,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "jsonl" => Ok(Format::Jsonl),
            "csv" => Ok(Format::Csv),
            "timesketch" => Ok(Format::Timesketch),
            other => Err(format!(
                "unknown format {other:?}: expected jsonl, csv or timesketch"
            )),
        }
    }
}

/// What a writer wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Rows written.
    pub written: u64,
    /// Rows without a time that a Timesketch file cannot hold, and so were left out.
    pub untimed_left_out: u64,
}

/// Writes rows in one of the [`Format`]s.
///
/// Each row is formatted by [`format_row`] into a buffer the writer keeps, so writing a
/// row allocates nothing.
pub struct RowWriter<W: Write> {
    format: Format,
    out: W,
    buf: Vec<u8>,
    ctx: FileContext,
    stats: WriteStats,
}

/// The `message` of a Timesketch event: `[agent] turn_type tool: text`.
pub fn timesketch_message(row: &Row) -> String {
    let mut m = format!("[{}] {}", row.agent, row.turn_type);
    if !row.tool_name.is_empty() {
        m.push(' ');
        m.push_str(&row.tool_name);
    }
    m.push_str(": ");
    m.push_str(&row.text);
    m
}

/// The end of a Timesketch event's `data_type` (`ai_chat:<agent>` + this): `:parser`
/// for a `parser:` row, `:system` for any other system row, `:turn` for the turns
/// (user, assistant, tool_use, tool_result, thinking), so that Timesketch analyzers can
/// select them.
pub fn timesketch_category(row: &Row) -> &'static str {
    if row.is_parser() {
        ":parser"
    } else if row.turn_type == crate::row::TurnType::System {
        ":system"
    } else {
        ":turn"
    }
}

/// Appends `s` as the contents of a JSON string (no quotes), escaped exactly as
/// serde_json escapes it: `"`, `\` and the control characters, nothing else.
pub fn escape_json_into(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 0xf) as usize],
            ]),
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

fn json_field(out: &mut Vec<u8>, key: &str, value: &str) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":\"");
    escape_json_into(out, value);
    out.extend_from_slice(b"\",");
}

/// True when a CSV cell would be read as a formula by a spreadsheet: it begins with
/// `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's list).
pub fn csv_cell_is_formula(cell: &str) -> bool {
    matches!(
        cell.as_bytes().first(),
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r')
    )
}

/// Appends one CSV cell, quoted when it holds `,`, `"`, CR or LF (RFC 4180), and
/// neutralised with a leading `'` when it would be read as a formula
/// ([`csv_cell_is_formula`]).
pub fn csv_cell_into(out: &mut Vec<u8>, cell: &str) {
    let neutralise = csv_cell_is_formula(cell);
    let quote = cell
        .as_bytes()
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'));
    if quote {
        out.push(b'"');
    }
    if neutralise {
        out.push(b'\'');
    }
    if quote {
        let bytes = cell.as_bytes();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'"' {
                out.extend_from_slice(&bytes[start..=i]);
                out.push(b'"');
                start = i + 1;
            }
        }
        out.extend_from_slice(&bytes[start..]);
        out.push(b'"');
    } else {
        out.extend_from_slice(cell.as_bytes());
    }
}

/// The CSV header line, CRLF-terminated.
pub fn csv_header_into(out: &mut Vec<u8>) {
    for (i, c) in Row::columns().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(c.as_bytes());
    }
    out.extend_from_slice(b"\r\n");
}

/// Appends one row in `format` to `out`, reading `host`, `user` and `source_file` from
/// `ctx` where the row leaves them empty. Returns false (and appends nothing) for a row
/// without a time in a Timesketch file, which cannot hold it.
pub fn format_row(format: Format, ctx: &FileContext, row: &Row, out: &mut Vec<u8>) -> bool {
    use std::io::Write as _;
    let host = ctx.host_of(row);
    let user = ctx.user_of(row);
    let source = ctx.source_of(row);
    let zone = row.zone().map(Zone::as_str).unwrap_or("");
    match format {
        Format::Csv => {
            if let Some(t) = row.timestamp {
                let _ = write!(out, "{t}");
            }
            out.push(b',');
            for cell in [
                zone,
                host,
                user,
                &row.agent,
                &row.session_id,
                &row.project_path,
                &row.git_branch,
                row.turn_type.as_str(),
                &row.model,
                &row.tool_name,
                &row.tool_use_id,
                &row.text,
                source,
            ] {
                csv_cell_into(out, cell);
                out.push(b',');
            }
            if let Some(l) = row.source_line {
                let _ = write!(out, "{l}");
            }
            out.push(b',');
            csv_cell_into(out, &row.source_locator);
            out.push(b',');
            out.extend_from_slice(row.record_state.as_str().as_bytes());
            out.extend_from_slice(if row.secondary {
                b",true\r\n"
            } else {
                b",false\r\n"
            });
            true
        }
        Format::Jsonl => {
            out.extend_from_slice(b"{\"timestamp_utc\":\"");
            if let Some(t) = row.timestamp {
                let _ = write!(out, "{t}");
            }
            out.extend_from_slice(b"\",");
            row_fields(out, row, zone, host, user, source);
            true
        }
        Format::Timesketch => {
            let Some(ts) = row.timestamp else {
                return false;
            };
            let desc = match ts.zone() {
                Zone::Utc => "Event Recorded",
                Zone::Unknown => "Event Recorded (local time, zone unknown; written as if UTC)",
            };
            out.extend_from_slice(b"{\"message\":\"[");
            escape_json_into(out, &row.agent);
            out.extend_from_slice(b"] ");
            out.extend_from_slice(row.turn_type.as_str().as_bytes());
            if !row.tool_name.is_empty() {
                out.push(b' ');
                escape_json_into(out, &row.tool_name);
            }
            out.extend_from_slice(b": ");
            escape_json_into(out, &row.text);
            out.extend_from_slice(b"\",\"datetime\":\"");
            out.extend_from_slice(ts.timesketch_datetime().as_bytes());
            let _ = write!(
                out,
                "\",\"timestamp\":{},\"timestamp_desc\":\"{desc}\",\"data_type\":\"ai_chat:",
                ts.unix_micros()
            );
            escape_json_into(out, &row.agent);
            out.extend_from_slice(timesketch_category(row).as_bytes());
            let _ = write!(out, "\",\"timestamp_utc\":\"{ts}\",");
            row_fields(out, row, zone, host, user, source);
            true
        }
    }
}

/// The JSON fields after `timestamp_utc`, closing the object and the line.
fn row_fields(out: &mut Vec<u8>, row: &Row, zone: &str, host: &str, user: &str, source: &str) {
    use std::io::Write as _;
    json_field(out, "timestamp_zone", zone);
    json_field(out, "host", host);
    json_field(out, "user", user);
    json_field(out, "agent", &row.agent);
    json_field(out, "session_id", &row.session_id);
    json_field(out, "project_path", &row.project_path);
    json_field(out, "git_branch", &row.git_branch);
    json_field(out, "turn_type", row.turn_type.as_str());
    json_field(out, "model", &row.model);
    json_field(out, "tool_name", &row.tool_name);
    json_field(out, "tool_use_id", &row.tool_use_id);
    json_field(out, "text", &row.text);
    json_field(out, "source_file", source);
    match row.source_line {
        Some(l) => {
            let _ = write!(out, "\"source_line\":{l},");
        }
        None => out.extend_from_slice(b"\"source_line\":null,"),
    }
    json_field(out, "source_locator", &row.source_locator);
    json_field(out, "record_state", row.record_state.as_str());
    out.extend_from_slice(if row.secondary {
        b"\"secondary\":true}\n"
    } else {
        b"\"secondary\":false}\n"
    });
}

impl<W: Write> RowWriter<W> {
    /// A writer of `format` over `out`. CSV writes its header at once.
    pub fn new(format: Format, out: W) -> io::Result<RowWriter<W>> {
        let mut w = RowWriter {
            format,
            out,
            buf: Vec::with_capacity(4096),
            ctx: FileContext::default(),
            stats: WriteStats::default(),
        };
        if format == Format::Csv {
            csv_header_into(&mut w.buf);
            w.out.write_all(&w.buf)?;
        }
        Ok(w)
    }

    /// Writes one row (or, for Timesketch, counts an untimed row as left out).
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        self.buf.clear();
        if format_row(self.format, &self.ctx, row, &mut self.buf) {
            self.out.write_all(&self.buf)?;
            self.stats.written += 1;
        } else {
            self.stats.untimed_left_out += 1;
        }
        Ok(())
    }

    /// Flushes and returns what was written.
    pub fn finish(mut self) -> io::Result<WriteStats> {
        self.out.flush()?;
        Ok(self.stats)
    }
}

/// Writes all rows to a `Vec<u8>` (handy in tests and small scripts).
pub fn to_bytes(format: Format, rows: &[Row]) -> io::Result<(Vec<u8>, WriteStats)> {
    let mut buf = Vec::new();
    let mut w = RowWriter::new(format, &mut buf)?;
    for r in rows {
        w.write(r)?;
    }
    let stats = w.finish()?;
    Ok((buf, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::TurnType;
    use crate::when::{Timestamp, parse_iso8601};

    fn rows() -> Vec<Row> {
        vec![
            Row::new("vscode", TurnType::User, "say \"hi\",\nplease")
                .session("s1")
                .at(Timestamp::from_epoch_millis(1_759_400_001_123))
                .file("a.jsonl")
                .line(1)
                .locator("byte 0"),
            Row::system("vscode", "parser: unparseable line (x): {")
                .file("a.jsonl")
                .line(2),
            Row::new("cody", TurnType::ToolUse, "ls")
                .tool("bash", "t1")
                .at(parse_iso8601("2024-01-31T01:06:18.524621", None)),
        ]
    }

    #[test]
    fn csv_is_rfc4180_with_header() {
        let (buf, stats) = to_bytes(Format::Csv, &rows()).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let mut lines = text.split("\r\n");
        assert_eq!(
            lines.next().unwrap(),
            "timestamp_utc,timestamp_zone,host,user,agent,session_id,project_path,git_branch,turn_type,model,tool_name,tool_use_id,text,source_file,source_line,source_locator,record_state,secondary"
        );
        assert!(text.contains(
            "2025-10-02T10:13:21.123000Z,utc,,,vscode,s1,,,user,,,,\"say \"\"hi\"\",\nplease\",a.jsonl,1,byte 0,live,false\r\n"
        ));
        assert_eq!(stats.written, 3);
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(rdr.records().count(), 3);
    }

    #[test]
    fn jsonl_one_object_per_row() {
        let (buf, _) = to_bytes(Format::Jsonl, &rows()).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.lines().count(), 3);
        let back: Row = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back, rows()[0]);
    }

    #[test]
    fn timesketch_fields_and_untimed_rows_counted() {
        let (buf, stats) = to_bytes(Format::Timesketch, &rows()).unwrap();
        assert_eq!(
            stats,
            WriteStats {
                written: 2,
                untimed_left_out: 1
            }
        );
        let text = String::from_utf8(buf).unwrap();
        let events: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(events.len(), 2);
        assert_eq!(events[0]["datetime"], "2025-10-02T10:13:21.123000+00:00");
        assert_eq!(events[0]["timestamp"], 1_759_400_001_123_000i64);
        assert_eq!(events[0]["timestamp_desc"], "Event Recorded");
        assert_eq!(events[0]["data_type"], "ai_chat:vscode:turn");
        assert_eq!(events[1]["data_type"], "ai_chat:cody:turn");
        assert_eq!(events[0]["message"], "[vscode] user: say \"hi\",\nplease");
        assert_eq!(events[0]["session_id"], "s1");
        assert_eq!(events[1]["message"], "[cody] tool_use bash: ls");
        assert_eq!(events[1]["timestamp_zone"], "unknown");
        assert_eq!(events[1]["datetime"], "2024-01-31T01:06:18.524621+00:00");
        assert_eq!(
            events[1]["timestamp_desc"],
            "Event Recorded (local time, zone unknown; written as if UTC)"
        );
    }

    #[test]
    fn format_names() {
        assert_eq!("csv".parse::<Format>(), Ok(Format::Csv));
        assert!(
            "xml"
                .parse::<Format>()
                .unwrap_err()
                .contains("expected jsonl, csv or timesketch")
        );
    }

    /// The serde form the writers had before they wrote from borrowed fields: the new
    /// writers must give the same bytes.
    fn serde_reference(format: Format, row: &Row) -> Vec<u8> {
        #[derive(serde::Serialize)]
        struct TimesketchRow<'a> {
            message: String,
            datetime: String,
            timestamp: i64,
            timestamp_desc: &'static str,
            data_type: String,
            #[serde(flatten)]
            row: &'a Row,
        }
        let mut out = Vec::new();
        match format {
            Format::Jsonl => serde_json::to_writer(&mut out, row).unwrap(),
            Format::Timesketch => {
                let ts = row.timestamp.unwrap();
                let ev = TimesketchRow {
                    message: timesketch_message(row),
                    datetime: ts.timesketch_datetime(),
                    timestamp: ts.unix_micros(),
                    timestamp_desc: match ts.zone() {
                        Zone::Utc => "Event Recorded",
                        Zone::Unknown => {
                            "Event Recorded (local time, zone unknown; written as if UTC)"
                        }
                    },
                    data_type: format!("ai_chat:{}{}", row.agent, timesketch_category(row)),
                    row,
                };
                serde_json::to_writer(&mut out, &ev).unwrap();
            }
            Format::Csv => {
                let mut c = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::CRLF)
                    .has_headers(false)
                    .from_writer(&mut out);
                c.write_record(row.values()).unwrap();
                c.flush().unwrap();
                drop(c);
                return out;
            }
        }
        out.push(b'\n');
        out
    }

    #[test]
    fn borrowed_writers_match_serde_and_csv_byte_for_byte() {
        let texts = [
            "plain",
            "quote \" backslash \\ slash / tab\t nl\n cr\r",
            "ctl \u{1} \u{8} \u{c} \u{1f} \u{7f} é 😀 \u{2028}",
            "comma, \"quoted\"",
            "",
        ];
        let mut n = 0;
        for (i, text) in texts.iter().enumerate() {
            for r in rows() {
                let mut row = r.clone();
                row.text = (*text).to_string();
                row.host = texts[(i + 1) % texts.len()].to_string();
                row.tool_name = texts[(i + 2) % texts.len()].to_string();
                for format in [Format::Jsonl, Format::Timesketch, Format::Csv] {
                    let mut got = Vec::new();
                    let wrote = format_row(format, &FileContext::default(), &row, &mut got);
                    if !wrote {
                        assert!(format == Format::Timesketch && row.timestamp.is_none());
                        continue;
                    }
                    assert_eq!(
                        String::from_utf8(got).unwrap(),
                        String::from_utf8(serde_reference(format, &row)).unwrap()
                    );
                    n += 1;
                }
            }
        }
        assert_eq!(n, 40);
    }

    #[test]
    fn csv_cells_that_a_spreadsheet_would_evaluate_are_neutralised() {
        let mut out = Vec::new();
        for cell in [
            "=HYPERLINK(\"http://x\")",
            "+1",
            "-2",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "a=b",
            "",
        ] {
            csv_cell_into(&mut out, cell);
            out.push(b'|');
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"'=HYPERLINK(\"\"http://x\"\")\"|'+1|'-2|'@SUM(A1)|'\tx|\"'\rx\"|a=b||"
        );
        let row = Row::new("vscode", TurnType::User, "=1+1").file("-x.jsonl");
        let (buf, _) = to_bytes(Format::Csv, std::slice::from_ref(&row)).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.ends_with(",user,,,,'=1+1,'-x.jsonl,,,live,false\r\n"),
            "{text}"
        );
        // JSONL stays byte-faithful
        let (buf, _) = to_bytes(Format::Jsonl, &[row]).unwrap();
        assert!(
            String::from_utf8(buf)
                .unwrap()
                .contains("\"text\":\"=1+1\"")
        );
    }

    #[test]
    fn per_file_fields_come_from_the_context() {
        let ctx = FileContext {
            host: "h1".into(),
            user: "zed".into(),
            display_path: "/ev/a.jsonl".into(),
            ..FileContext::default()
        };
        let mut out = Vec::new();
        format_row(
            Format::Jsonl,
            &ctx,
            &Row::new("vscode", TurnType::User, "x"),
            &mut out,
        );
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            (v["host"].as_str(), v["user"].as_str()),
            (Some("h1"), Some("zed"))
        );
        assert_eq!(v["source_file"], "/ev/a.jsonl");
        let mut out = Vec::new();
        let own = Row::new("vscode", TurnType::User, "x").file("other.json");
        format_row(Format::Jsonl, &ctx, &own, &mut out);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["source_file"], "other.json");
    }
}
