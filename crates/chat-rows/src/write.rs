//! Writers: JSONL, CSV and Timesketch JSONL.
//!
//! All three write the same columns in the same order ([`Row::columns`]).
//! Timesketch requires a time on every event, so rows without one cannot go into a
//! Timesketch file; the writer leaves them out **visibly**: it counts them in
//! [`WriteStats::untimed_left_out`], and the CLI prints that count. Rows whose zone is
//! unknown are written at their wall-clock value with `timestamp_zone = unknown` and a
//! `timestamp_desc` that says so, never silently as UTC.

use std::io::{self, Write};

use serde::Serialize;

use crate::row::{Row, Zone};

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
pub struct RowWriter<W: Write> {
    format: Format,
    out: Option<csv::Writer<W>>,
    raw: Option<W>,
    stats: WriteStats,
}

#[derive(Serialize)]
struct TimesketchRow<'a> {
    message: String,
    datetime: String,
    timestamp: i64,
    timestamp_desc: &'static str,
    #[serde(flatten)]
    row: &'a Row,
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

impl<W: Write> RowWriter<W> {
    /// A writer of `format` over `out`. CSV writes its header at once.
    pub fn new(format: Format, out: W) -> io::Result<RowWriter<W>> {
        let mut w = RowWriter {
            format,
            out: None,
            raw: None,
            stats: WriteStats::default(),
        };
        match format {
            Format::Csv => {
                let mut c = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::CRLF)
                    .from_writer(out);
                c.write_record(Row::columns()).map_err(io::Error::other)?;
                w.out = Some(c);
            }
            _ => w.raw = Some(out),
        }
        Ok(w)
    }

    /// Writes one row (or, for Timesketch, counts an untimed row as left out).
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        match self.format {
            Format::Csv => {
                if let Some(c) = self.out.as_mut() {
                    c.write_record(row.values()).map_err(io::Error::other)?;
                }
            }
            Format::Jsonl => {
                if let Some(w) = self.raw.as_mut() {
                    serde_json::to_writer(&mut *w, row)?;
                    w.write_all(b"\n")?;
                }
            }
            Format::Timesketch => {
                let Some(ts) = row.timestamp else {
                    self.stats.untimed_left_out += 1;
                    return Ok(());
                };
                let desc = match ts.zone() {
                    Zone::Utc => "Event Recorded",
                    Zone::Unknown => "Event Recorded (local time, zone unknown; written as if UTC)",
                };
                let ev = TimesketchRow {
                    message: timesketch_message(row),
                    datetime: ts.timesketch_datetime(),
                    timestamp: ts.unix_micros(),
                    timestamp_desc: desc,
                    row,
                };
                if let Some(w) = self.raw.as_mut() {
                    serde_json::to_writer(&mut *w, &ev)?;
                    w.write_all(b"\n")?;
                }
            }
        }
        self.stats.written += 1;
        Ok(())
    }

    /// Flushes and returns what was written.
    pub fn finish(mut self) -> io::Result<WriteStats> {
        if let Some(c) = self.out.as_mut() {
            c.flush()?;
        }
        if let Some(w) = self.raw.as_mut() {
            w.flush()?;
        }
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
}
