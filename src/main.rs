//! `ai-chat-forensics`: scan evidence roots and write one timeline.
#![forbid(unsafe_code)]

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ai_chat_forensics::chat_rows::when;
use ai_chat_forensics::chat_rows::write::{Format, RowWriter};
use ai_chat_forensics::chat_rows::{Timestamp, Zone};
use ai_chat_forensics::sort::TimeSorter;
use ai_chat_forensics::{ArchivesMet, ScanError, ScanReport, Scanner, guard};
use clap::Parser;

/// Turns the local stores of AI coding assistants (VS Code and its forks, Cody,
/// Tabby, Copilot, CodeBuddy) into one evidence timeline, without changing a byte.
#[derive(Parser, Debug)]
#[command(name = "ai-chat-forensics", version, about)]
struct Args {
    /// Evidence roots: a home, a folder of homes, a collection tree (KAPE,
    /// Velociraptor, UAC) or a folder of collections, on disk or archived (`*.zip`,
    /// `*.7z`, `*.rar` (a multi-volume set from its first volume, `*.part1.rar` or `*.rar` with its `.r00` ...), `*.tar`, `*.tar.gz`, `*.tgz`, `*.tar.bz2`, `*.tar.xz`, `*.tar.zst`, KAPE's `*.vhdx`, `*.vhd`, or a disk image `*.E01` (with its `.E02` ...), `*.dd`, `*.raw`, `*.img`, `*.001` (with its `.002` ...), read without extracting; an archive met under a
    /// root is read when UAC or Velociraptor named it or it lies at the top of an
    /// opened archive: see --open-archives). Any of these under a compression of its
    /// own (`*.dd.gz`, `*.img.xz`, `*.zip.zst`, `.bz2`; a split image's parts each
    /// compressed, `*.001.gz` with its `.002.gz` ...) is decompressed whole, under
    /// the size cap, then read as it; a store file compressed on its own
    /// (`history.jsonl.gz`, `.bz2`, `.xz`, `.zst`) is read as the file it holds.
    /// Default: the current user's home (live triage).
    roots: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "csv", "timesketch"])]
    format: String,
    /// Write rows to FILE instead of standard output (`-` is standard output). Refused
    /// when FILE resolves inside an evidence root, under any spelling or link.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep only rows of this agent (vscode, cursor, vscodium, windsurf, cody, tabby, copilot, codebuddy ...). Repeatable.
    #[arg(long = "agent", value_name = "NAME")]
    agents: Vec<String>,
    /// Keep only rows at or after T (UTC): 2026-10-01, 2026-10-01T12:00:00Z, or epoch ms.
    #[arg(long, value_name = "T")]
    since: Option<String>,
    /// Keep only rows at or before T (UTC), same forms as --since; a bare date means the
    /// end of that day (2026-10-01 keeps everything up to 2026-10-01T23:59:59.999999Z).
    #[arg(long, value_name = "T")]
    until: Option<String>,
    /// List each file that would be read and the store that claims it; read nothing.
    #[arg(long)]
    list: bool,
    /// Write a chain-of-custody manifest (path, size, mtime, SHA-256 of every file read) as JSON.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Worker threads (0: one per core; at most 4 per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The evidence host's UTC offset (+02:00, -05:00), to convert zone-less local
    /// times to UTC; at most ±14:00.
    #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
    host_zone: Option<String>,
    /// Output order: `scan` (by host, file and session, sorted by time within each
    /// session; streaming) or `time` (one global timeline, through a bounded-memory
    /// external sort that spills to --temp-dir).
    #[arg(long, default_value = "scan", value_parser = ["scan", "time"])]
    sort: String,
    /// Names the host of every file under the roots (a job that hands one host's folder
    /// to each task). Without it, the host comes from the layout, and a root that is
    /// itself a host folder (`<host>/home/...`, `<host>/C/Users/...`) names its host.
    #[arg(long, value_name = "NAME")]
    host: Option<String>,
    /// Write one file per host into DIR (`<host>.jsonl`, `.csv` or `.timesketch.jsonl`;
    /// `_no-host` when the host is unknown) instead of one output. Refused inside an
    /// evidence root.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "list", "sort"])]
    output_dir: Option<PathBuf>,
    /// When the evidence was collected (same forms as --since): rows that count a
    /// retention period back from the collection (Claude Code transcripts past
    /// `cleanupPeriodDays`) need it. Live triage uses the time of the scan.
    #[arg(long, value_name = "T")]
    collected_at: Option<String>,
    /// Where `--sort time` spills its runs, and where a zipped root's compressed
    /// members over 256 MiB and a gzipped tar are inflated to be read (unnamed files,
    /// gone when read);
    /// default: the system's temporary folder. Refused inside an evidence root.
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    /// Never show the progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Keep secondary copies of primary rows instead of merging them away.
    #[arg(long)]
    keep_copies: bool,
    /// Which archives met under a root are opened and read as folders: `collections`
    /// (named by UAC or Velociraptor, at the top of an opened archive, or an EWF disk
    /// image `*.E01`), `all` (every
    /// archive met, a user's own zips too), `none` (only archives and compressed
    /// store files given as roots). The summary names those not opened.
    #[arg(long, value_name = "WHICH", default_value = "collections", value_parser = ["collections", "all", "none"])]
    open_archives: String,
    /// The password of encrypted zip members, 7z blocks and RAR members or headers
    /// (ZipCrypto or AES: `zip -P`, 7-Zip, WinRAR, a collector's); give it again for each other password (one per
    /// line in the environment variable), tried in turn on each encrypted member. Best
    /// given in the environment, out of the process list. Never written to any output.
    #[arg(
        long,
        value_name = "PASSWORD",
        env = "AI_CHAT_FORENSICS_ARCHIVE_PASSWORD",
        hide_env_values = true,
        value_delimiter = '\n',
        action = clap::ArgAction::Append
    )]
    archive_password: Vec<String>,
    /// The size cap of one evidence file, archive member or decompressed archive
    /// (bytes, or with K, M, G, T: KiB to TiB; default 4G). A larger one is one parser
    /// row. Raise it for a collection over 4 GiB held whole in one archive member (a
    /// Velociraptor secured container's `data.zip`). Apart from the cap, a file that
    /// decompresses past 64 MiB and 1,000 times the bytes it comes from (a compressed
    /// store file, a zip member, a member of a compressed tar or a small image) is one
    /// parser row: a decompression bomb's shape.
    #[arg(long, value_name = "SIZE")]
    max_file_size: Option<String>,
}

fn parse_time(flag: &str, s: &str, end_of_day: bool) -> Result<Timestamp, String> {
    let t = s.trim();
    let bare_date = t.len() == 10 && t.as_bytes().get(4) == Some(&b'-');
    let t_full = match (bare_date, end_of_day) {
        (true, false) => format!("{t}T00:00:00Z"),
        (true, true) => format!("{t}T23:59:59.999999Z"),
        _ => t.to_string(),
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

/// A size as `--max-file-size` takes it: bytes, or a number with K, M, G or T (KiB to
/// TiB; `KiB`, `KB` and `k` read alike), more than 0.
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => u32::MAX,
    };
    number
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0 && shift != u32::MAX)
        .and_then(|n| n.checked_mul(1u64.checked_shl(shift)?))
        .ok_or_else(|| {
            format!("--max-file-size: cannot read {s:?} as a size (use 8G, 500M or a number of bytes, more than 0)")
        })
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

fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
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
    // everything an analyst typed is checked before the scan starts, and before any
    // output file is created
    let known = ai_chat_forensics::stores::known_agents();
    for a in &args.agents {
        if !known.contains(&a.as_str()) {
            return fail(format!(
                "--agent: unknown agent {a:?}; known agents: {}",
                known.join(", ")
            ));
        }
    }
    if args.list && args.manifest.is_some() {
        return fail(
            "--manifest cannot be used with --list: --list reads no file, so there is nothing to hash",
        );
    }
    for out in [&args.output, &args.manifest].into_iter().flatten() {
        // inside a root by any spelling, a link, or a file of several hard links
        if let Some(why) = (!is_stdout(out))
            .then(|| guard::refused(out, &roots))
            .flatten()
        {
            return fail(why);
        }
    }
    if let Some(d) = &args.output_dir {
        if guard::inside_any(d, &roots) {
            return fail(format!(
                "--output-dir {} is inside an evidence root; write output elsewhere so the evidence stays unchanged",
                d.display()
            ));
        }
    }
    if args.manifest.as_deref().is_some_and(is_stdout) {
        return fail("--manifest needs a file; standard output carries the rows");
    }
    let sort_time = args.sort == "time";
    let temp_dir = args.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    if sort_time && guard::inside_any(&temp_dir, &roots) {
        return fail(format!(
            "--temp-dir {} is inside an evidence root; --sort time must spill elsewhere (give --temp-dir)",
            temp_dir.display()
        ));
    }
    // a zipped root's compressed members over 256 MiB, and a gzipped tar, inflate into
    // unnamed temporary files there; inside the evidence they inflate in memory instead
    let archives = roots.iter().any(|r| ai_chat_forensics::is_archive_root(r));
    let temp_dir_inside = guard::inside_any(&temp_dir, &roots);
    if archives && args.temp_dir.is_some() && temp_dir_inside {
        return fail(format!(
            "--temp-dir {} is inside an evidence root; an archived root's members must inflate elsewhere",
            temp_dir.display()
        ));
    }
    let threads = ai_chat_forensics::effective_threads(args.threads);
    if args.threads != 0 && threads != args.threads {
        eprintln!(
            "ai-chat-forensics: --threads {} capped at {threads} ({} per core on {} core(s))",
            args.threads,
            ai_chat_forensics::MAX_THREADS_PER_CORE,
            ai_chat_forensics::cores()
        );
    }
    let archives_met: ArchivesMet = match args.open_archives.parse() {
        Ok(w) => w,
        Err(e) => return fail(e),
    };
    let mut scanner = Scanner::new()
        .threads(threads)
        .keep_copies(args.keep_copies)
        .open_archives(archives_met)
        .hash_files(args.manifest.is_some());
    if !temp_dir_inside {
        scanner = scanner.temp_dir(&temp_dir);
    }
    if let Some(size) = &args.max_file_size {
        match parse_size(size) {
            Ok(n) => scanner = scanner.max_file_size(n),
            Err(e) => return fail(e),
        }
    }
    if !args.archive_password.is_empty() {
        // a list written on Windows ends its lines with CR LF: the CR is no part of it
        let passwords = args
            .archive_password
            .iter()
            .map(|p| p.strip_suffix('\r').unwrap_or(p));
        scanner = scanner.archive_password(ai_chat_forensics::chat_rows::ArchivePassword::any_of(
            passwords,
        ));
    }
    if live {
        if let Some(h) = this_host() {
            scanner = scanner.default_host(h);
        }
    }
    if let Some(h) = &args.host {
        scanner = scanner.host(h);
    }
    match &args.collected_at {
        Some(t) => match parse_time("--collected-at", t, true) {
            Ok(t) => scanner = scanner.collected_at(t),
            Err(e) => return fail(e),
        },
        None if live => {
            if let Some(now) = Timestamp::from_system_time(std::time::SystemTime::now()) {
                scanner = scanner.collected_at(now);
            }
        }
        None => {}
    }
    for r in &roots {
        scanner = scanner.root(r);
    }
    for a in &args.agents {
        scanner = scanner.agent(a);
    }
    if let Some(s) = &args.since {
        match parse_time("--since", s, false) {
            Ok(t) => scanner = scanner.since(t),
            Err(e) => return fail(e),
        }
    }
    if let Some(s) = &args.until {
        match parse_time("--until", s, true) {
            Ok(t) => scanner = scanner.until(t),
            Err(e) => return fail(e),
        }
    }
    if let Some(z) = &args.host_zone {
        match when::parse_offset(z) {
            Some(off) if off.whole_minutes().unsigned_abs() <= 14 * 60 => {
                scanner = scanner.host_offset(off)
            }
            Some(_) => {
                return fail(format!(
                    "--host-zone: {z:?} is beyond ±14:00, the widest offset in use"
                ));
            }
            None => {
                return fail(format!(
                    "--host-zone: cannot read {z:?} as a UTC offset (use +02:00)"
                ));
            }
        }
    }

    if args.list {
        let (found, not_opened) = match scanner.discover_listing() {
            Ok(f) => f,
            Err(e) => return ExitCode::from(fail_scan(e)),
        };
        let mut out: Box<dyn Write> = match open_output(args.output.as_deref(), &roots) {
            Ok(o) => o,
            Err(e) => return fail(e),
        };
        let mut written = 0;
        for f in &found {
            let r = writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}",
                f.store,
                f.problem.as_deref().unwrap_or(f.kind),
                f.attribution.host,
                f.attribution.user,
                f.product.unwrap_or("-"),
                f.shown()
            );
            match r {
                Ok(()) => written += 1,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
                Err(e) => return fail(format!("writing output: {e}")),
            }
        }
        if let Err(e) = out.flush() {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
            return fail(format!("writing output: {e}"));
        }
        let problems = found.iter().filter(|f| f.problem.is_some()).count();
        eprintln!(
            "{} file(s) claimed, {problems} path(s) not read",
            written - problems
        );
        if let Some(first) = not_opened.first() {
            eprintln!("{}", not_opened_line(not_opened.len(), first, archives_met));
        }
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
    let progress = |f: &ai_chat_forensics::FoundFile| {
        if let Some(b) = &bar {
            b.set_message(f.store);
            b.inc(1);
        }
    };
    let result = if let Some(dir) = &args.output_dir {
        scanner
            .write_per_host(format, dir, progress)
            .map(|(report, files)| {
                eprintln!("wrote {} file(s) into {}", files.len(), dir.display());
                report
            })
    } else {
        let mut out = match open_output(args.output.as_deref(), &roots) {
            Ok(o) => o,
            Err(e) => return fail(e),
        };
        if sort_time {
            run_sorted(&scanner, format, &mut out, &temp_dir, progress)
        } else {
            scanner.write_to_with_progress(format, &mut out, progress)
        }
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = match result {
        Ok(r) => r,
        Err(ScanError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            // the reader went away (`| head`): a normal end, not an error
            return ExitCode::SUCCESS;
        }
        Err(ScanError::Output(e)) => return fail(format!("writing output: {e}")),
        Err(e) => return ExitCode::from(fail_scan(e)),
    };
    if let Some(m) = &args.manifest {
        if let Err(e) = write_manifest(m, &roots, &report) {
            return fail(format!("writing manifest {}: {e}", m.display()));
        }
    }
    print_summary(&report, format, archives_met);
    ExitCode::SUCCESS
}

/// `--sort time`: the rows stream into a bounded-memory external sort, then out.
fn run_sorted(
    scanner: &Scanner,
    format: Format,
    out: &mut Box<dyn Write>,
    temp_dir: &Path,
    progress: impl FnMut(&ai_chat_forensics::FoundFile),
) -> Result<ScanReport, ScanError> {
    let mut sorter = TimeSorter::new(temp_dir).map_err(ScanError::Output)?;
    let mut failed: Option<io::Error> = None;
    let mut report = scanner.for_each_row_with_progress(
        |ctx, row| {
            if failed.is_none() {
                if let Err(e) = sorter.push(ctx, row) {
                    failed = Some(e);
                }
            }
        },
        progress,
    )?;
    if let Some(e) = failed {
        return Err(ScanError::Output(e));
    }
    let mut w = RowWriter::new(format, out).map_err(ScanError::Output)?;
    sorter.finish(&mut w).map_err(ScanError::Output)?;
    report.write = w.finish().map_err(ScanError::Output)?;
    Ok(report)
}

fn fail_scan(e: ScanError) -> u8 {
    eprintln!("ai-chat-forensics: error: {e}");
    1
}

fn open_output(path: Option<&Path>, roots: &[PathBuf]) -> Result<Box<dyn Write>, String> {
    match path.filter(|p| !is_stdout(p)) {
        None => Ok(Box::new(io::BufWriter::with_capacity(
            1 << 16,
            io::stdout().lock(),
        ))),
        Some(p) => guard::create_output(p, roots, false)
            .map(|f| Box::new(io::BufWriter::with_capacity(1 << 16, f)) as Box<dyn Write>)
            .map_err(|e| format!("cannot create {}: {e}", p.display())),
    }
}

fn write_manifest(path: &Path, roots: &[PathBuf], report: &ScanReport) -> io::Result<()> {
    let doc = serde_json::json!({
        "tool": concat!("ai-chat-forensics ", env!("CARGO_PKG_VERSION")),
        "generated_utc": Timestamp::from_system_time(std::time::SystemTime::now()).map(|t| t.to_string()),
        "roots": roots.iter().map(|r| ai_chat_forensics::chat_rows::display_path(r)).collect::<Vec<_>>(),
        "files": report.manifest,
        "not_read": report.problems.iter().map(|(p, why)| serde_json::json!({"path": p, "why": why})).collect::<Vec<_>>(),
    });
    let mut f = io::BufWriter::new(guard::create_output(path, roots, false)?);
    serde_json::to_writer_pretty(&mut f, &doc)?;
    f.write_all(b"\n")?;
    f.flush()
}

/// The summary's (and `--list`'s) line on the archives a walk met and did not open.
fn not_opened_line(n: usize, first: &Path, which: ArchivesMet) -> String {
    let why = match which {
        ArchivesMet::None => "--open-archives none: only an archive given as a root is read",
        _ => {
            "only an archive given as a root, named as UAC or Velociraptor name their output, at the top of an opened archive, or an EWF image (.E01) is read; --open-archives all opens every one"
        }
    };
    format!(
        "archives met and not opened: {n} ({why}; give one as a root to read it), the first {}",
        ai_chat_forensics::chat_rows::display_path(first)
    )
}

fn print_summary(report: &ScanReport, format: Format, archives_met: ArchivesMet) {
    let s = report.summary();
    let stats = report.write;
    let mut e = io::stderr().lock();
    let read: Vec<&Path> = report
        .files
        .iter()
        .filter(|f| f.store != ai_chat_forensics::SCANNER_AGENT)
        .map(|f| f.path.as_path())
        .collect();
    let readings = read.len();
    let files = read.iter().collect::<std::collections::HashSet<_>>().len();
    // a file several stores read (a VS Code `state.vscdb`) is one file
    let by_stores = if readings == files {
        String::new()
    } else {
        format!(" ({readings} readings by stores)")
    };
    let _ = writeln!(
        e,
        "summary: {files} file(s) read{by_stores}, {} row(s) written",
        stats.written
    );
    for (store, n) in &s.files_per_store {
        let _ = writeln!(e, "  files {store}: {n}");
    }
    for (t, n) in &s.rows_per_turn_type {
        let _ = writeln!(e, "  rows {t}: {n}");
    }
    let _ = writeln!(e, "  parser rows: {}", s.parser_rows);
    if report.repeated_parser_rows > 0 {
        let _ = writeln!(
            e,
            "  parser rows another store gave for the same file, written once: {}",
            report.repeated_parser_rows
        );
    }
    let _ = writeln!(e, "  rows without a time: {}", s.untimed_rows);
    let (files_at, folders_at) = (
        report.files_access_time_not_kept(),
        report.folders_access_time_not_kept,
    );
    if files_at + folders_at > 0 {
        let why = if cfg!(any(target_os = "linux", target_os = "android")) {
            "the kernel allows O_NOATIME only to a file's owner and to root"
        } else {
            "this system cannot open a file without setting its access time"
        };
        let _ = writeln!(
            e,
            "  access times may have changed: {files_at} of the manifest's {} file(s) and {folders_at} folder(s) were read without O_NOATIME ({why}; none changes on a read-only or noatime mount; the manifest says which files)",
            report.manifest.len()
        );
    }
    if let Some(first) = report.archives_not_opened.first() {
        let _ = writeln!(
            e,
            "  {}",
            not_opened_line(report.archives_not_opened.len(), first, archives_met)
        );
    }
    if !report.problems.is_empty() {
        let _ = writeln!(
            e,
            "  paths not read: {} (each is a parser row)",
            report.problems.len()
        );
        for (p, why) in &report.problems {
            let _ = writeln!(e, "    {p}: {why}");
        }
    }
    if report.panics > 0 {
        let _ = writeln!(
            e,
            "  files on which a reader failed: {} (each is a parser row; the scan went on)",
            report.panics
        );
    }
    for r in &report.overlapping_roots {
        let _ = writeln!(
            e,
            "  root {} lies inside another root: its files were read once, under the outer root",
            r.display()
        );
    }
    if format == Format::Timesketch && stats.untimed_left_out > 0 {
        let _ = writeln!(
            e,
            "  left out of the Timesketch file (no time): {} (use --format jsonl or csv to see them)",
            stats.untimed_left_out
        );
    }
    if report.filtered_by_time > 0 {
        let _ = writeln!(
            e,
            "  left out by --since/--until: {} ({} without a time)",
            report.filtered_by_time, report.untimed_filtered
        );
    }
    if report.merged_copies > 0 {
        let _ = writeln!(
            e,
            "  secondary copies merged away: {} (use --keep-copies to keep them)",
            report.merged_copies
        );
    }
    if report.filtered_by_agent > 0 {
        let _ = writeln!(e, "  left out by --agent: {}", report.filtered_by_agent);
    }
    if report.held_bytes_spilled > 0 {
        let _ = writeln!(
            e,
            "  secondary copies held in --temp-dir until their host ended: {} bytes (unnamed files, gone)",
            report.held_bytes_spilled
        );
    }
}
