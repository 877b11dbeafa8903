//! Every store reads files held in memory (`Evidence::in_memory`: a file object in
//! Python, a member of a zip) exactly as it reads them on disk. The whole fixture tree
//! is loaded under a prefix that exists nowhere on disk, so a store that looked past
//! the evidence reader at the file system (for a companion, a sibling, a folder) would
//! find nothing there and give other rows.

mod common;

use std::path::{Path, PathBuf};

use ai_chat_forensics::chat_rows::{Evidence, FileContext, display_path};
use ai_chat_forensics::{layout, locations, stores};

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

/// Where the tree stands in memory: a folder no disk has.
const NOWHERE: &str = "/nowhere-on-disk-ai-chat-forensics";

#[test]
fn every_store_reads_the_fixture_tree_from_memory_as_from_disk() {
    let root = evidence();
    let files = common::files_under(&root);
    let virt = |p: &Path| Path::new(NOWHERE).join(p.strip_prefix(&root).unwrap());
    assert!(!Path::new(NOWHERE).exists());
    let memory = Evidence::in_memory(files.iter().map(|p| {
        let modified = std::fs::metadata(p).unwrap().modified().ok();
        (virt(p), std::fs::read(p).unwrap(), modified)
    }))
    .roots([Path::new(NOWHERE)]);
    let disk = Evidence::new().roots([&root]);
    let (real, fake) = (display_path(&root), NOWHERE.to_string());

    let mut readings = 0;
    let mut rows = 0;
    let mut differ = Vec::new();
    for store in stores::all() {
        for file in &files {
            if store.claim(file).is_none() {
                continue;
            }
            let attribution = layout::attribute_file(&root, file);
            let ctx = FileContext {
                host: attribution.host,
                user: attribution.user,
                product: locations::editor_product(file).map(str::to_string),
                display_path: display_path(file.strip_prefix(&root).unwrap()),
                ..FileContext::default()
            };
            let from_disk: Vec<String> = store
                .read(file, &ctx, &disk)
                .iter()
                .map(|r| serde_json::to_string(r).unwrap().replace(&real, &fake))
                .collect();
            let from_memory: Vec<String> = store
                .read(&virt(file), &ctx, &memory)
                .iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect();
            readings += 1;
            rows += from_disk.len();
            if from_disk != from_memory {
                let first = from_disk
                    .iter()
                    .zip(&from_memory)
                    .find(|(a, b)| a != b)
                    .map(|(a, b)| format!("disk {a}\nmemory {b}"))
                    .unwrap_or_else(|| {
                        format!(
                            "{} rows on disk, {} in memory",
                            from_disk.len(),
                            from_memory.len()
                        )
                    });
                differ.push(format!("{} {}: {first}", store.name(), display_path(file)));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
    // every reading the scan makes of the tree, and its rows before the scanner's merge
    assert_eq!((readings, rows), (151, 932));
    // each file was read from memory (none from disk): the same manifest, but for where
    let manifest = |ev: &Evidence, at: &str| -> Vec<String> {
        ev.manifest()
            .iter()
            .map(|m| serde_json::to_string(m).unwrap().replace(at, NOWHERE))
            .collect()
    };
    assert_eq!(manifest(&memory, NOWHERE), manifest(&disk, &real));
}
