//! Prints the rows of a Copilot Nitrite store as JSON lines.
use copilot_nitrite::{NitriteFile, rows};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: rows <file.db> [kind]");
    let kind = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "chat-agent-sessions".into());
    let data = std::fs::read(&path).expect("read");
    let file = NitriteFile::from_bytes(&data);
    for r in rows::file_rows(&file, &path, &kind, "") {
        println!("{}", serde_json::to_string(&r).expect("json"));
    }
}
