//! Dumps every map and document of an MVStore file as JSON lines (a debugging aid).
use copilot_nitrite::{javaser, mvstore};

fn main() {
    let path = std::env::args().nth(1).expect("usage: dump <file.db>");
    let data = std::fs::read(&path).expect("read");
    let store = mvstore::MvStore::from_bytes(&data);
    println!("header: {:?}", store.header);
    for c in &store.chunks {
        println!("chunk: {c:?}");
    }
    println!("problems: {:?}", store.problems);
    let Some(snap) = &store.snapshot else { return };
    println!("snapshot chunk {} version {}", snap.chunk, snap.version);
    for (k, v) in &snap.layout {
        println!("layout {k} = {v}");
    }
    for (id, name) in snap.maps() {
        println!("== map {id:x} {name}");
        match store.read_map(id) {
            Ok(entries) => {
                for e in entries {
                    let show = |v: &mvstore::MvValue| match v {
                        mvstore::MvValue::Java(b) => javaser::to_json(b)
                            .map(|j| j.to_string())
                            .unwrap_or_else(|e| format!("ERR {e}")),
                        other => format!("{other:?}"),
                    };
                    println!(
                        "  [{} {:#x} {}] {} => {}",
                        e.chunk,
                        e.page,
                        e.index,
                        show(&e.key),
                        show(&e.value)
                    );
                }
            }
            Err(e) => println!("  error {e}"),
        }
    }
}
