//! Replays a VS Code chat session log (`chatSessions/<id>.jsonl`) and prints the final
//! session as JSON on stdout, as VS Code would hold it, and every line it could not
//! read or apply on stderr, with whether VS Code itself would have refused the file.
//!
//! `cargo run --release --example replay -- FILE`

use std::io::Write;
use std::process::ExitCode;

use vscode_chat_log::SessionLog;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: replay FILE");
        return ExitCode::from(2);
    };
    let log = match SessionLog::from_path(&path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let replay = log.replay();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", replay.to_json());
    for e in replay.errors() {
        eprintln!("{}", e.error);
    }
    for r in replay.recovered() {
        let line = replay.line_number(r.removed_by).unwrap_or(0);
        eprintln!(
            "recovered: {} value(s) removed by line {line}",
            r.values.len()
        );
    }
    match replay.refusal() {
        Some(r) => eprintln!("VS Code would not load this file: {r}"),
        None => eprintln!("VS Code would load this file"),
    }
    ExitCode::SUCCESS
}
