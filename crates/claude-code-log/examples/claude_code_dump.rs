//! Prints the rows of one Claude Code file as JSONL:
//! `cargo run -p claude-code-log --example claude_code_dump -- FILE`.
use std::io::Write;
use std::path::Path;

use chat_rows::write::{Format, to_bytes};
use chat_rows::{Evidence, Row};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: claude_code_dump FILE");
        std::process::exit(2);
    };
    let mut rows: Vec<Row> = Vec::new();
    claude_code_log::read_file(Path::new(&path), &path, &Evidence::new(), &mut rows);
    match to_bytes(Format::Jsonl, &rows) {
        Ok((bytes, _)) => {
            let _ = std::io::stdout().write_all(&bytes);
        }
        Err(e) => eprintln!("cannot write the rows: {e}"),
    }
}
