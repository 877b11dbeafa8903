//! The replay reads a line that starts with `{` in one pass that also finds its end
//! (`json::parse_line`), and any other line the careful way (split first, then
//! checked and parsed). JSON allows a space before a value, so indenting every line
//! by one space sends every line down the careful path without changing what the
//! lines mean: on every fixture log, and on thousands of damaged copies of them, both
//! paths must give the same state, lines, errors, recoveries and turn rows.

mod common;

use chat_rows::TurnType;
use chat_rows::dirty::Harness;
use vscode_chat_log::rows::rows_from_replay;
use vscode_chat_log::{Replay, SessionContext};

/// `input` with a space before every line that is not empty.
fn indented(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 64 + 1);
    let mut at_start = true;
    for &c in input {
        if at_start && c != b'\n' {
            out.push(b' ');
        }
        out.push(c);
        at_start = c == b'\n';
    }
    out
}

/// What both paths must agree on: the state, the line numbers, how many errors and
/// recoveries, whether VS Code would refuse the file, and every row that is not a
/// parser row (those quote the line, which differs by the space), with its line.
fn outcome(input: &[u8]) -> (String, Vec<u64>, usize, usize, bool, Vec<String>) {
    let r = Replay::from_bytes(input);
    let rows = rows_from_replay(&r, &SessionContext::new("vscode", "s.jsonl"));
    (
        r.to_json(),
        r.lines().iter().map(|l| l.number).collect(),
        r.errors().len(),
        r.recovered().len(),
        r.refusal().is_some(),
        rows.iter()
            .filter(|row| !row.is_parser())
            .map(|row| {
                format!(
                    "{:?} {:?} {:?} {}",
                    row.turn_type, row.record_state, row.source_line, row.text
                )
            })
            .collect(),
    )
}

#[test]
fn both_paths_agree_on_fixtures_and_damaged_copies() {
    let logs = common::fixture_logs();
    assert!(logs.len() >= 5, "{logs:?}");
    let harness = Harness::new().truncations(24).flips(48).splices(16);
    let mut cases = 0;
    for log in &logs {
        let input = std::fs::read(log).expect("fixture");
        let whole = outcome(&input);
        assert!(
            whole
                .5
                .iter()
                .any(|r| r.starts_with(&format!("{:?}", TurnType::User))),
            "{}: no user row",
            log.display()
        );
        assert_eq!(whole, outcome(&indented(&input)), "{}", log.display());
        for m in harness.mutations(input.len()) {
            let damaged = m.apply(&input);
            assert_eq!(
                outcome(&damaged),
                outcome(&indented(&damaged)),
                "{}: {m:?}",
                log.display()
            );
            cases += 1;
        }
    }
    assert!(cases > 500, "{cases}");
}

#[test]
fn newline_inside_a_value_splits_the_line() {
    // VS Code splits at every newline first: a value that spans two lines is two bad
    // lines, not one entry, whichever path reads it
    let log = b"{\"kind\":0,\"v\":{\"requests\":[]}}\n{\"kind\":1,\n\"k\":[\"x\"],\"v\":1}\n";
    let r = Replay::from_bytes(log);
    assert_eq!(r.lines().len(), 3);
    assert_eq!(r.errors().len(), 2);
    assert_eq!(r.to_json(), "{\"requests\":[]}");
}
