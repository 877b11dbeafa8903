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
///
/// Paths are not the only spelling: a bind mount shows the same folder at a second path
/// (either the root or the output may be given through it). So the folder or file
/// each root resolves to is also compared, by device and inode, with the output and
/// every existing folder above it (since 2026-12-05).
pub fn inside_any(output: &Path, roots: &[PathBuf]) -> bool {
    let target = resolve(output);
    let mut root_paths: Vec<PathBuf> = Vec::new();
    for r in roots {
        root_paths.push(resolve(r));
        root_paths.extend(
            chat_rows::evidence::image_segments(r)
                .iter()
                .map(|s| resolve(s)),
        );
    }
    if root_paths.iter().any(|r| target.starts_with(r)) {
        return true;
    }
    let ids: Vec<(u64, u64)> = root_paths.iter().filter_map(|r| identity(r)).collect();
    target
        .ancestors()
        .filter_map(identity)
        .any(|id| ids.contains(&id))
}

/// The device and inode of what `path` names (links followed); `None` where it does not
/// exist or the system has no such numbers.
fn identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Why an output file may not be written at `path`, or `None`: it resolves into an
/// evidence root ([`inside_any`]); or it exists and is a link to a file or to nothing
/// (a link already in an output folder may point at evidence: it is never followed;
/// a link to a device or pipe, `/dev/stdout`, is), or a file with more than one hard
/// link (another of its names may be evidence; a path cannot tell). A device or pipe
/// (`/dev/null`) is written to.
pub fn refused(path: &Path, roots: &[PathBuf]) -> Option<String> {
    if inside_any(path, roots) {
        return Some(format!(
            "{} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
            path.display()
        ));
    }
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() && !to_stream(path) {
        return Some(format!(
            "{} is a link; an output file is never written through a link (it may point at evidence): remove it or write elsewhere",
            path.display()
        ));
    }
    if !meta.is_file() {
        // a device or a pipe (`/dev/null`, a FIFO, `/dev/stdout`'s link): no evidence
        // is read from one (the evidence reader reads regular files only)
        return None;
    }
    match links(&meta) {
        n if n > 1 => Some(format!(
            "{} has {n} hard links; another of its names may be evidence: remove it or write elsewhere",
            path.display()
        )),
        _ => None,
    }
}

/// True when `path` is a link to an existing device, pipe or socket (`/dev/stdout`), which
/// may be written through: it is not a file.
fn to_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn links(meta: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// Creates (or, with `append`, opens to add to) an output file: the one way the CLI and
/// the library create one. Refused as [`refused`] says, with the error's text; the file
/// is opened without following a link at its name, and emptied only after the opened
/// file is checked again (a name swapped for a link or a second hard link after the
/// check is not written).
pub fn create_output(
    path: &Path,
    roots: &[PathBuf],
    append: bool,
) -> std::io::Result<std::fs::File> {
    if let Some(why) = refused(path, roots) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            why,
        ));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).append(append);
    #[cfg(unix)]
    if !to_stream(path) {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    let file = opts.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        // a device or a pipe, as [`refused`] allows
        return Ok(file);
    }
    if links(&meta) > 1 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "{} changed while it was opened (not a regular file of one link); nothing was written",
                path.display()
            ),
        ));
    }
    if !append {
        file.set_len(0)?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_and_hard_links_at_an_output_name_are_refused() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let ev = d.path().join("ev");
        let out = d.path().join("out");
        std::fs::create_dir_all(ev.join("h")).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        let evidence = ev.join("h/history.jsonl");
        std::fs::write(&evidence, b"evidence").unwrap();
        let roots = [ev.clone()];
        // a link already in the output folder, pointing at evidence: its path resolves
        // into the root
        symlink(&evidence, out.join("h.jsonl")).unwrap();
        // a link pointing out of the root is refused too (never written through)
        std::fs::write(d.path().join("elsewhere"), b"x").unwrap();
        symlink(d.path().join("elsewhere"), out.join("other.jsonl")).unwrap();
        // a hard link to evidence: its path is outside the root
        std::fs::hard_link(&evidence, out.join("hard.jsonl")).unwrap();
        let why = |p: &str| refused(&out.join(p), &roots).unwrap_or_default();
        assert!(
            why("h.jsonl").ends_with(
                "is inside an evidence root; write output elsewhere so the evidence stays unchanged"
            ),
            "{}",
            why("h.jsonl")
        );
        assert!(why("other.jsonl").ends_with("other.jsonl is a link; an output file is never written through a link (it may point at evidence): remove it or write elsewhere"), "{}", why("other.jsonl"));
        assert!(why("hard.jsonl").ends_with("hard.jsonl has 2 hard links; another of its names may be evidence: remove it or write elsewhere"), "{}", why("hard.jsonl"));
        for p in ["h.jsonl", "other.jsonl", "hard.jsonl"] {
            let e = create_output(&out.join(p), &roots, false).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{p}");
        }
        assert_eq!(std::fs::read(&evidence).unwrap(), b"evidence");
        assert_eq!(std::fs::read(d.path().join("elsewhere")).unwrap(), b"x");
        // a device, and a link to one, are written to
        assert_eq!(refused(Path::new("/dev/null"), &roots), None);
        symlink("/dev/null", out.join("null")).unwrap();
        assert_eq!(refused(&out.join("null"), &roots), None);
        create_output(&out.join("null"), &roots, false).unwrap();
        // a plain file of one name (an earlier run's output) is emptied and written
        std::fs::write(out.join("old.jsonl"), b"old rows").unwrap();
        assert_eq!(refused(&out.join("old.jsonl"), &roots), None);
        use std::io::Write;
        create_output(&out.join("old.jsonl"), &roots, false)
            .unwrap()
            .write_all(b"new")
            .unwrap();
        assert_eq!(std::fs::read(out.join("old.jsonl")).unwrap(), b"new");
        // appended to when asked
        create_output(&out.join("old.jsonl"), &roots, true)
            .unwrap()
            .write_all(b"+")
            .unwrap();
        assert_eq!(std::fs::read(out.join("old.jsonl")).unwrap(), b"new+");
    }

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
