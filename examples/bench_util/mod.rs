//! What the scanner's bench examples (`scan_bench`, `discover_bench`) share: the load
//! average printed with each figure, a copy of a fixture host into the generated
//! collection, and a tree zipped (the integration tests copy and zip trees with them
//! too). Included with `#[path]` (examples and tests share no library).

use std::path::{Path, PathBuf};

/// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them (empty
/// elsewhere).
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Copies the regular files and folders under `from` to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &t);
        } else if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// The regular files under `root`, sorted.
#[allow(dead_code)] // not every includer lists or zips a tree
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

/// A file's modification time in whole seconds since the epoch.
#[allow(dead_code)] // not every includer zips a tree
pub fn mtime_secs(f: &Path) -> u64 {
    std::fs::metadata(f)
        .unwrap()
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Zips the files under `root` to `zip`, named by their paths below it, each with its
/// modification time (Info-ZIP's extended timestamp); `stored` says which members are
/// stored rather than deflated.
#[allow(dead_code)] // not every includer zips a tree
pub fn zip_tree(root: &Path, zip: &Path, stored: impl Fn(&Path) -> bool) {
    use std::io::Write;
    std::fs::create_dir_all(zip.parent().unwrap()).unwrap();
    let mut w = zip::ZipWriter::new(std::io::BufWriter::new(std::fs::File::create(zip).unwrap()));
    for f in files_under(root) {
        let name = f
            .strip_prefix(root)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        let method = if stored(&f) {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .large_file(std::fs::metadata(&f).unwrap().len() >= u32::MAX as u64)
            .with_extended_timestamp(Some(mtime_secs(&f) as u32), None, None)
            .unwrap();
        w.start_file(name, options).unwrap();
        w.write_all(&std::fs::read(&f).unwrap()).unwrap();
    }
    w.finish().unwrap();
}
