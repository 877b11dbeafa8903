//! Every input in `../shared/fuzz-findings/` (issue 12) read without a panic, with its
//! outcome pinned. The inputs are not copied into the repository: when `../shared` is
//! absent, each test says so and passes.
//!
//! * `mvstore_page/`: whole files that panicked the MVStore header parser (character
//!   and byte offsets mixed in `parse_checked`), driven as the `mvstore_page` fuzz
//!   target does: the page decoder on the raw bytes, then the whole-store reader.
//! * `java_serialization/`: streams that panicked the Java decoder (a handle index into
//!   the handle table a nested `TC_RESET` had emptied), driven as the
//!   `java_serialization` fuzz target does.
//! * `cli/`: small `copilot-*-nitrite.db` files that panicked the scanner, read as the
//!   store reads a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use copilot_nitrite::mvstore::{DataType, parse_page};
use copilot_nitrite::{JavaError, NitriteFile, javaser, rows};

const FINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fuzz-findings");

/// The files of one findings folder, sorted; `None` (after saying so) when absent.
fn inputs(folder: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = Path::new(FINDINGS).join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "SKIPPED: ../shared/fuzz-findings absent ({} not found)",
            dir.display()
        );
        return None;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    Some(
        paths
            .into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect(),
    )
}

/// A message with its numbers replaced by `N`, so that messages can be counted by kind.
fn shape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('N') {
                out.push('N');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// (turn type, locator, text) of a row.
type Brief = (String, String, String);

/// Reads a whole file as the store does (decode, project name, rows).
fn store_rows(bytes: &[u8], shown: &str, kind: &str) -> Vec<chat_rows::Row> {
    let file = NitriteFile::from_bytes(bytes);
    let project = rows::project_name(&file).unwrap_or_default();
    rows::file_rows(&file, shown, kind, &project)
}

#[test]
fn mvstore_page_findings_read_without_panic() {
    let Some(files) = inputs("mvstore_page") else {
        return;
    };
    let mut pages_ok = 0;
    let mut headers = 0;
    let mut rows_total = 0;
    let mut parser: BTreeMap<String, usize> = BTreeMap::new();
    for (_, data) in &files {
        // as fuzz/fuzz_targets/mvstore_page.rs
        let (chunk, offset) = match data.as_slice() {
            [a, b, ..] => (*a as u32, *b as u32 * 7),
            _ => (1, 0),
        };
        pages_ok += usize::from(
            parse_page(data, chunk, offset, DataType::String, DataType::String, 0).is_ok(),
        );
        pages_ok += usize::from(
            parse_page(data, chunk, offset, DataType::Object, DataType::Object, 0).is_ok(),
        );
        let file = NitriteFile::from_bytes(data);
        headers += usize::from(!file.header.is_empty());
        let rows = rows::file_rows(&file, "fuzz.db", "chat-agent-sessions", "");
        rows_total += rows.len();
        for r in rows.iter().filter(|r| r.text.starts_with("parser:")) {
            *parser.entry(shape(&r.text)).or_default() += 1;
        }
    }
    assert_eq!(files.len(), 48);
    assert_eq!(pages_ok, 0);
    assert_eq!(headers, 2);
    // 63 of them are texts of the fragments that only the final text scanner reads;
    // 2 `turn deleted:` rows (the generated store's turn E, carved in two findings),
    // 1 `file referenced:` row (a carved copy of the reference store's turn) and 1
    // `parser:` row for a request.contents the damage cut (both 267 since 263)
    assert_eq!(rows_total, 267);
    let expected: BTreeMap<String, usize> = [
        ("parser: file of N bytes is too short for an MVStore header", 9),
        ("parser: no valid chunk found", 48),
        ("parser: no valid store header in blocks N and N", 46),
        (
            "parser: request.contents is not readable (expected `,` or `}` at line N column N)",
            1,
        ),
        (
            "parser: response.contents is not readable (control character (\\uN-\\uNF) found while parsing a string at line N column N)",
            1,
        ),
        (
            "parser: response.contents is not readable (expected `,` or `}` at line N column N)",
            2,
        ),
        (
            "parser: response.contents is not readable (invalid escape at line N column N)",
            1,
        ),
        (
            "parser: store header names chunk N at block N, which is missing or torn",
            2,
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(parser, expected);
}

#[test]
fn java_serialization_findings_are_errors_not_panics() {
    let Some(files) = inputs("java_serialization") else {
        return;
    };
    let mut prefixed: BTreeMap<String, usize> = BTreeMap::new();
    let mut raw: BTreeMap<String, usize> = BTreeMap::new();
    for (_, data) in &files {
        // as fuzz/fuzz_targets/java_serialization.rs
        let mut stream = vec![0xAC, 0xED, 0x00, 0x05];
        stream.extend_from_slice(data);
        let outcome = match javaser::parse(&stream) {
            Ok((content, used)) => {
                assert!(used <= stream.len());
                let _ = javaser::content_json(&content, 0);
                "ok".to_string()
            }
            Err(e) => shape(&e.to_string()),
        };
        *prefixed.entry(outcome).or_default() += 1;
        let outcome = match javaser::to_json(data) {
            Ok(_) => "ok".to_string(),
            Err(JavaError::NoMagic) => "no magic".to_string(),
            Err(e) => shape(&e.to_string()),
        };
        *raw.entry(outcome).or_default() += 1;
    }
    assert_eq!(files.len(), 103);
    // every one is a reset inside an object (which panicked), now refused as Java does
    assert_eq!(
        prefixed,
        BTreeMap::from([("reset inside an object at byte N".to_string(), 103)])
    );
    assert_eq!(raw, BTreeMap::from([("no magic".to_string(), 103)]));
}

#[test]
fn cli_findings_give_parser_rows() {
    let Some(files) = inputs("cli") else {
        return;
    };
    let got: Vec<(String, Vec<Brief>)> = files
        .iter()
        .map(|(name, data)| {
            let rows = store_rows(data, name, "chat-sessions");
            let brief = rows
                .iter()
                .map(|r| {
                    (
                        r.turn_type.as_str().to_string(),
                        r.source_locator.clone(),
                        r.text.clone(),
                    )
                })
                .collect();
            (name.clone(), brief)
        })
        .collect();
    let parser = |text: &str| ("system".to_string(), "file".to_string(), text.to_string());
    assert_eq!(
        got,
        vec![
            (
                "cli-repro-javaser-copilot-chat-nitrite.db".to_string(),
                vec![
                    parser("parser: file of 33 bytes is too short for an MVStore header"),
                    parser("parser: no valid store header in blocks 0 and 1"),
                    parser("parser: no valid chunk found"),
                ]
            ),
            (
                "cli-repro-mvstore-copilot-chat-nitrite.db".to_string(),
                vec![
                    parser("parser: file of 6653 bytes is too short for an MVStore header"),
                    parser(
                        "parser: store header names chunk 1 at block 2, which is missing or torn"
                    ),
                    parser("parser: no valid chunk found"),
                ]
            ),
            (
                "cli-repro-mvstore-minimal-copilot-chat-nitrite.db".to_string(),
                vec![
                    parser("parser: file of 117 bytes is too short for an MVStore header"),
                    parser("parser: no valid store header in blocks 0 and 1"),
                    parser("parser: no valid chunk found"),
                ]
            ),
        ]
    );
}
