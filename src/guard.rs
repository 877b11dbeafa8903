//! The output guard: no output path may resolve into an evidence root.
//!
//! Comparing the paths as typed is not enough: `other/../ev/x`, a link to the root,
//! a root given as `ev/../ev` or through a link, and an output file that is itself a
//! dangling link into the root all name the evidence under another spelling. Both
//! sides are therefore resolved the way the operating system would resolve them when
//! the file is created: links followed, `..` applied after each link, and the part
//! of the path that does not exist yet appended to its nearest existing ancestor.

use std::path::{Component, Path, PathBuf};

/// How many links are followed at most while resolving (a loop of links ends here).
const MAX_LINKS: usize = 40;

/// Resolves `path` as creating a file there would: the longest existing ancestor is
/// canonicalized (following links), the rest is appended with `..` and `.` applied,
/// and a link at the end (even a dangling one) is followed to where it points.
pub fn resolve(path: &Path) -> PathBuf {
    resolve_depth(path, 0)
}

fn resolve_depth(path: &Path, depth: usize) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if depth < MAX_LINKS {
        if let Ok(meta) = std::fs::symlink_metadata(&abs) {
            if meta.file_type().is_symlink() {
                if let Ok(target) = std::fs::read_link(&abs) {
                    let base = abs.parent().unwrap_or(Path::new("/"));
                    return resolve_depth(&base.join(target), depth + 1);
                }
            }
        }
    }
    if let Ok(c) = std::fs::canonicalize(&abs) {
        return c;
    }
    // walk up to the nearest existing ancestor, then apply the rest lexically
    let mut rest: Vec<Component<'_>> = Vec::new();
    let mut cur: &Path = &abs;
    loop {
        match cur.parent() {
            Some(parent) => {
                if let Some(last) = cur.components().next_back() {
                    rest.push(last);
                }
                cur = parent;
                if let Ok(c) = std::fs::canonicalize(cur) {
                    let mut out = c;
                    for comp in rest.iter().rev() {
                        match comp {
                            Component::ParentDir => {
                                out.pop();
                            }
                            Component::CurDir => {}
                            other => out.push(other.as_os_str()),
                        }
                    }
                    return out;
                }
            }
            None => return abs,
        }
    }
}

/// True when `output`, resolved, lies inside (or is) any of `roots`, resolved, or is
/// one of the later segment files of a disk image given as a root (an `.E01`'s
/// `.E02` ..., a `.001`'s `.002` ...: [`chat_rows::evidence::image_segments`]), which
/// are read as part of it.
pub fn inside_any(output: &Path, roots: &[PathBuf]) -> bool {
    let target = resolve(output);
    roots.iter().any(|r| {
        target.starts_with(resolve(r))
            || chat_rows::evidence::image_segments(r)
                .iter()
                .any(|s| target.starts_with(resolve(s)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn every_spelling_of_the_evidence_is_inside() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let ev = d.path().join("ev");
        let other = d.path().join("other");
        std::fs::create_dir_all(ev.join("h/db")).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(ev.join("h/db/state.vscdb"), b"x").unwrap();
        symlink(&ev, d.path().join("evlink")).unwrap();
        symlink(ev.join("h/db/new.jsonl"), d.path().join("dangling")).unwrap();
        let roots = [ev.clone()];
        for out in [
            ev.join("h/db/state.vscdb"),
            other.join("../ev/h/db/state.vscdb"),
            d.path().join("evlink/x.jsonl"),
            d.path().join("evlink/new/deeper/x.jsonl"),
            d.path().join("dangling"),
            ev.join("not/yet/../there.jsonl"),
        ] {
            assert!(inside_any(&out, &roots), "{}", out.display());
        }
        for root in [ev.join("../ev"), d.path().join("evlink"), ev.join("h/..")] {
            assert!(
                inside_any(&ev.join("h/x"), std::slice::from_ref(&root)),
                "{}",
                root.display()
            );
            assert!(inside_any(&other.join("../ev/out"), &[root]));
        }
        for out in [
            other.join("x.jsonl"),
            ev.join("../other/x.jsonl"),
            d.path().join("evx"),
        ] {
            assert!(!inside_any(&out, &roots), "{}", out.display());
        }
    }
}
