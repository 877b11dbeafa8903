//! Replays a VS Code chat session log (`chatSessions/<id>.jsonl`) and prints the final
//! session as JSON on stdout, as VS Code would hold it, and every line it could not
//! read or apply on stderr, with whether VS Code itself would have refused the file.
//!
//! `cargo run --release --example replay -- [--timings] FILE`
//!
//! The project's headline benchmark (`examples/replay_vs_node.rs` runs it against a
//! Node stand-in for VS Code's reader followed by `JSON.stringify`). The state is
//! written as it is walked, 64 KiB at a time, never built as one text; and the process
//! exits without freeing the tree node by node. `--timings` prints the seconds spent
//! reading, replaying and writing on stderr.
//!
//! The file is read (after the evidence reader's checks: a regular file, no link out of
//! its folder, under the size cap) into anonymous memory advised for transparent huge
//! pages (`memmap2`'s safe anonymous map): reading 100 MB into fresh 4 KiB pages costs
//! 25,600 page faults, about half the time of the whole replay of a streaming log here.
//! Where the kernel gives no huge pages the read is the same as before.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use vscode_chat_log::Replay;

/// Standard output without its line buffer: `Stdout` searches every write for its last
/// newline (a fifth of the writing time for 100 MB of JSON, which has none), and the
/// writer already hands it 64 KiB at a time.
#[cfg(unix)]
fn raw_stdout() -> Box<dyn Write> {
    use std::os::fd::AsFd;
    match std::io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(std::fs::File::from(fd)),
        Err(_) => Box::new(std::io::stdout().lock()),
    }
}

#[cfg(not(unix))]
fn raw_stdout() -> Box<dyn Write> {
    Box::new(std::io::stdout().lock())
}

/// The file's bytes, in memory of their own: an anonymous map advised for huge pages.
fn read_log(path: &Path) -> std::io::Result<memmap2::MmapMut> {
    let checked = chat_rows::Evidence::new().check(path)?;
    let mut file = std::fs::File::open(&checked.target)?;
    let len = usize::try_from(file.metadata()?.len())
        .map_err(|_| std::io::Error::other("the file does not fit in memory"))?;
    // one byte more than the file, so that an empty file maps too and a file that grew
    // since is seen to
    let mut map = memmap2::MmapOptions::new().len(len + 1).map_anon()?;
    // only advice: without huge pages the read is as before
    let _ = map.advise(memmap2::Advice::HugePage);
    let mut at = 0;
    while at < map.len() {
        match file.read(&mut map[at..]) {
            Ok(0) => break,
            Ok(n) => at += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if at != len {
        return Err(std::io::Error::other(
            "the file changed size while it was read",
        ));
    }
    Ok(map)
}

fn main() -> ExitCode {
    let mut args: Vec<_> = std::env::args_os().skip(1).collect();
    let timings = args.first().is_some_and(|a| a == "--timings");
    if timings {
        args.remove(0);
    }
    let Some(path) = args.first() else {
        eprintln!("usage: replay [--timings] FILE");
        return ExitCode::from(2);
    };
    let t0 = Instant::now();
    let map = match read_log(Path::new(path)) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot read {}: {e}", Path::new(path).display());
            return ExitCode::from(1);
        }
    };
    let bytes = &map[..map.len() - 1];
    let t1 = Instant::now();
    let replay = Replay::from_bytes(bytes);
    let t2 = Instant::now();
    let mut out = raw_stdout();
    let written = replay
        .write_json(&mut out)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    let t3 = Instant::now();
    if let Err(e) = written {
        eprintln!("cannot write the state: {e}");
        return ExitCode::from(1);
    }
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
    if timings {
        let s = |a: Instant, b: Instant| (b - a).as_secs_f64();
        eprintln!(
            "rust: read {:.3} s, replay {:.3} s, write {:.3} s",
            s(t0, t1),
            s(t1, t2),
            s(t2, t3)
        );
    }
    // the tree and the file's bytes go with the process, not one node at a time
    std::process::exit(0)
}
