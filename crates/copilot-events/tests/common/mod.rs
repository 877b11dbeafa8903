//! What the audit tests share: reading a log given as lines, and each row in full.

use chat_rows::Row;
use copilot_events::{Options, read_events};

/// The rows of a log given as its lines (session `s` when the log names none).
pub fn events(lines: &[&str]) -> Vec<Row> {
    let mut bytes = String::new();
    for l in lines {
        bytes.push_str(l);
        bytes.push('\n');
    }
    let opts = Options {
        agent: "copilot",
        fallback_session: "s",
        ..Options::default()
    };
    let mut rows = Vec::new();
    read_events(bytes.as_bytes(), &opts, &mut rows);
    rows
}

/// `turn|state|time|line|locator|model|tool|id|text` of each row.
pub fn full(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}",
                r.turn_type,
                r.record_state,
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.source_line.map(|n| n.to_string()).unwrap_or_default(),
                r.source_locator,
                r.model,
                r.tool_name,
                r.tool_use_id,
                r.text
            )
        })
        .collect()
}
