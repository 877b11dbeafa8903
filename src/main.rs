//! `ai-chat-forensics`: scan evidence roots and write one timeline.
#![forbid(unsafe_code)]

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ai_chat_forensics::chat_rows::when;
use ai_chat_forensics::chat_rows::write::{Format, RowWriter};
use ai_chat_forensics::chat_rows::{Timestamp, Zone};
use ai_chat_forensics::{ScanResult, Scanner};
use clap::Parser;

/// Turns the local stores of AI coding assistants (VS Code and its forks, Cody,
/// Tabby, Copilot, CodeBuddy) into one evidence timeline, without changing a byte.
#[derive(Parser, Debug)]
#[command(name = "ai-chat-forensics", version, about)]
struct Args {
    /// Evidence roots: a home, a folder of homes, or a collection tree (KAPE,
    /// Velociraptor). Default: the current user's home (live triage).
    roots: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "csv", "timesketch"])]
    format: String,
    /// Write rows to FILE instead of standard output (never inside an evidence root).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep only rows of this agent (vscode, cursor, vscodium, windsurf, cody, tabby, copilot, codebuddy ...). Repeatable.
    #[arg(long = "agent", value_name = "NAME")]
    agents: Vec<String>,
    /// Keep only rows at or after T (UTC): 2026-10-01, 2026-10-01T12:00:00Z, or epoch ms.
    #[arg(long, value_name = "T")]
    since: Option<String>,
    /// Keep only rows at or before T (UTC), same forms as --since.
    #[arg(long, value_name = "T")]
    until: Option<String>,
    /// List each file that would be read and the store that claims it; read nothing.
    #[arg(long)]
    list: bool,
    /// Write a chain-of-custody manifest (path, size, mtime, SHA-256 of every file read) as JSON.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The evidence host's UTC offset (+02:00), to convert zone-less local times to UTC.
    #[arg(long, value_name = "OFFSET")]
    host_zone: Option<String>,
    /// Never show the progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Keep secondary copies of primary rows instead of merging them away.
    #[arg(long)]
    keep_copies: bool,
}

fn parse_time(flag: &str, s: &str) -> Result<Timestamp, String> {
    let t = s.trim();
    let t_full = if t.len() == 10 && t.as_bytes().get(4) == Some(&b'-') {
        format!("{t}T00:00:00Z")
    } else {
        t.to_string()
    };
    match when::parse_any(&t_full, None) {
        Some(ts) if ts.zone() == Zone::Utc => Ok(ts),
        // a zone-less value given on the command line is read as UTC, as documented
        Some(ts) => Timestamp::from_unix_micros(ts.unix_micros(), Zone::Utc)
            .ok_or_else(|| format!("{flag}: time out of range: {s}")),
        None => Err(format!(
            "{flag}: cannot read {s:?} as a time (use 2026-10-01, 2026-10-01T12:00:00Z or epoch milliseconds)"
        )),
    }
}

fn inside_any(path: &Path, roots: &[PathBuf]) -> bool {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let target = abs(path);
    roots.iter().any(|r| target.starts_with(abs(r)))
}

fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
}

/// This machine's name, for live triage (the layout of a live home names no host).
fn this_host() -> Option<String> {
    std::env::var("COMPUTERNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("ai-chat-forensics: error: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let format: Format = match args.format.parse() {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let mut roots = args.roots.clone();
    let live = roots.is_empty();
    if live {
        match home_dir() {
            Some(h) => roots.push(h),
            None => return fail("no evidence root given and no home directory found"),
        }
    }
    for out in [&args.output, &args.manifest].into_iter().flatten() {
        if inside_any(out, &roots) {
            return fail(format!(
                "{} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
                out.display()
            ));
        }
    }
    let mut scanner = Scanner::new()
        .threads(args.threads)
        .keep_copies(args.keep_copies);
    if live {
        if let Some(h) = this_host() {
            scanner = scanner.default_host(h);
        }
    }
    for r in &roots {
        scanner = scanner.root(r);
    }
    for a in &args.agents {
        scanner = scanner.agent(a);
    }
    if let Some(s) = &args.since {
        match parse_time("--since", s) {
            Ok(t) => scanner = scanner.since(t),
            Err(e) => return fail(e),
        }
    }
    if let Some(s) = &args.until {
        match parse_time("--until", s) {
            Ok(t) => scanner = scanner.until(t),
            Err(e) => return fail(e),
        }
    }
    if let Some(z) = &args.host_zone {
        match when::parse_offset(z) {
            Some(off) => scanner = scanner.host_offset(off),
            None => {
                return fail(format!(
                    "--host-zone: cannot read {z:?} as a UTC offset (use +02:00)"
                ));
            }
        }
    }

    if args.list {
        let found = match scanner.discover() {
            Ok(f) => f,
            Err(e) => return ExitCode::from(fail_scan(e)),
        };
        let mut out: Box<dyn Write> = match open_output(args.output.as_deref()) {
            Ok(o) => o,
            Err(e) => return fail(e),
        };
        for f in &found {
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}",
                f.store,
                f.kind,
                f.attribution.host,
                f.attribution.user,
                f.product.unwrap_or("-"),
                f.path.display()
            );
        }
        let _ = out.flush();
        eprintln!("{} file(s) claimed", found.len());
        return ExitCode::SUCCESS;
    }

    let show_progress = !args.no_progress && io::stderr().is_terminal();
    let bar = if show_progress {
        let total = scanner.discover().map(|f| f.len()).unwrap_or(0);
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {msg}")
        {
            bar.set_style(style);
        }
        Some(bar)
    } else {
        None
    };
    let result = scanner.run_with_progress(|f| {
        if let Some(b) = &bar {
            b.set_message(f.store);
            b.inc(1);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let result = match result {
        Ok(r) => r,
        Err(e) => return ExitCode::from(fail_scan(e)),
    };
    let out = match open_output(args.output.as_deref()) {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let stats = match write_rows(format, out, &result) {
        Ok(s) => s,
        Err(e) => return fail(format!("writing output: {e}")),
    };
    if let Some(m) = &args.manifest {
        if let Err(e) = write_manifest(m, &roots, &result) {
            return fail(format!("writing manifest {}: {e}", m.display()));
        }
    }
    print_summary(&result, stats, format);
    ExitCode::SUCCESS
}

fn fail_scan(e: ai_chat_forensics::ScanError) -> u8 {
    eprintln!("ai-chat-forensics: error: {e}");
    1
}

fn open_output(path: Option<&Path>) -> Result<Box<dyn Write>, String> {
    match path {
        None => Ok(Box::new(io::BufWriter::new(io::stdout().lock()))),
        Some(p) => std::fs::File::create(p)
            .map(|f| Box::new(io::BufWriter::new(f)) as Box<dyn Write>)
            .map_err(|e| format!("cannot create {}: {e}", p.display())),
    }
}

fn write_rows(
    format: Format,
    out: Box<dyn Write>,
    result: &ScanResult,
) -> io::Result<ai_chat_forensics::chat_rows::write::WriteStats> {
    let mut w = RowWriter::new(format, out)?;
    for r in &result.rows {
        w.write(r)?;
    }
    w.finish()
}

fn write_manifest(path: &Path, roots: &[PathBuf], result: &ScanResult) -> io::Result<()> {
    let doc = serde_json::json!({
        "tool": concat!("ai-chat-forensics ", env!("CARGO_PKG_VERSION")),
        "generated_utc": Timestamp::from_system_time(std::time::SystemTime::now()).map(|t| t.to_string()),
        "roots": roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>(),
        "files": result.manifest,
    });
    let mut f = io::BufWriter::new(std::fs::File::create(path)?);
    serde_json::to_writer_pretty(&mut f, &doc)?;
    f.write_all(b"\n")?;
    f.flush()
}

fn print_summary(
    result: &ScanResult,
    stats: ai_chat_forensics::chat_rows::write::WriteStats,
    format: Format,
) {
    let s = result.summary();
    let mut e = io::stderr().lock();
    let _ = writeln!(
        e,
        "summary: {} file(s) read, {} row(s) written",
        result.files.len(),
        stats.written
    );
    for (store, n) in &s.files_per_store {
        let _ = writeln!(e, "  files {store}: {n}");
    }
    for (t, n) in &s.rows_per_turn_type {
        let _ = writeln!(e, "  rows {t}: {n}");
    }
    let _ = writeln!(e, "  parser rows: {}", s.parser_rows);
    let _ = writeln!(e, "  rows without a time: {}", s.untimed_rows);
    if format == Format::Timesketch && stats.untimed_left_out > 0 {
        let _ = writeln!(
            e,
            "  left out of the Timesketch file (no time): {} (use --format jsonl or csv to see them)",
            stats.untimed_left_out
        );
    }
    if result.filtered_by_time > 0 {
        let _ = writeln!(
            e,
            "  left out by --since/--until: {} ({} without a time)",
            result.filtered_by_time, result.untimed_filtered
        );
    }
    if result.merged_copies > 0 {
        let _ = writeln!(
            e,
            "  secondary copies merged away: {} (use --keep-copies to keep them)",
            result.merged_copies
        );
    }
    if result.filtered_by_agent > 0 {
        let _ = writeln!(e, "  left out by --agent: {}", result.filtered_by_agent);
    }
}
