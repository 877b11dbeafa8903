//! What the scanner's bench examples (`scan_bench`, `discover_bench`) share: the load
//! average printed with each figure, and a copy of a fixture host into the generated
//! collection (the integration tests copy trees with it too). Included with `#[path]`
//! (examples and tests share no library).

use std::path::Path;

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
