//! RAR archives (`.rar`), read through the pure-Rust `rars` reader.
//!
//! A RAR member cannot be read by ranges where it lies (it is compressed, and in a
//! solid archive each member's stream continues the one before), so, as a 7z's, the
//! members are decoded once, in order, under the size cap, into one file (an unnamed
//! temporary file in the spill folder, else memory), each member a range of it.
//!
//! Why these choices:
//!
//! * **One member's damage costs that member.** In an archive that is not solid, a
//!   member whose CRC does not match, whose stream does not decode, or whose password
//!   is not known is named not read, and the members after it are still decoded. In
//!   a solid archive every member's stream continues the one before, so the members
//!   after a failure cannot be decoded: they are named not read together.
//! * **Memory is bounded before it is spent**: a RAR5 dictionary over
//!   [`RAR_DICTIONARY_LIMIT`] is refused (RAR 7 allows up to 64 GiB), and a member is
//!   decoded a block at a time rather than buffered whole past
//!   [`RAR_BUFFERED_LIMIT`]. A member is decoded to no more than the ratio of a
//!   decompression bomb ([`crate::evidence::MAX_COMPRESSION_RATIO`] times the archive)
//!   that every read of it would refuse: past it by its header's size, it is named
//!   before any of it is decoded (1 GiB of zeros in a 43 KB RAR took 20 s before).
//! * **Times.** A RAR5 member's modification time is Unix time (UTC). RAR 1.5 to 4
//!   store a DOS time, local time in a zone the archive does not name: as a zip's,
//!   it is never taken as one, and such a member has no modification time.
//! * **A multi-volume set is read whole** from its first volume (`x.part1.rar`, with
//!   `x.part2.rar` ... beside it, taken in as an `.E01`'s segments are). The reader's
//!   volume extraction decodes a set whole and stops at its first error, so a set is
//!   decoded as a solid stream is: the members after a failure are named together. A
//!   set whose last volumes are not there is read to the last one that is, and that is
//!   named; a volume read alone (a later one given as a root, or a first without its
//!   others) names the members it holds only a part of.
//! * **A copy cut short keeps what it holds.** The reader parses every header before
//!   it decodes a member, and fails on a cut one: a RAR5 archive's block headers are
//!   walked here, each checked by its CRC-32, to the block the cut falls in, and the
//!   archive before that block is read (a solid stream's members before the cut
//!   decode). The cut is named with the entry it falls in. RAR 1.5 to 4 are walked
//!   the same way (each header by its 16-bit CRC), and RAR 1.3 by its headers' sizes
//!   alone (it has no CRC), each checked against real archives of those versions.
//!   Encrypted headers (`rar -hp`) cut short are walked with the password that opens
//!   them, each decrypted (RAR5's and RAR 3 and 4's); without it they are not.
//! * **A panic of the reader** (a young crate, on hostile bytes) is caught: the
//!   archive, or the members not yet decoded, are named not read, never the scan.

use std::cell::RefCell;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use rars::{
    ArchiveFamily, ArchiveMember, ArchiveReadOptions, ArchiveReader, ErrorKind, ExtractionDecision,
    ExtractionErrorAction,
};

use super::{ArchivePassword, Cursor, Decoded, Member, Place, Tree};
use crate::evidence::{EntryKind, RangedFile};

/// The largest RAR5 dictionary a member may ask for: the memory its decoder holds.
/// WinRAR 7 writes 32 MiB by default and allows up to 64 GiB; an archive asking for
/// more than this is named, not decoded.
pub const RAR_DICTIONARY_LIMIT: u64 = 256 << 20;

/// A RAR5 member larger than this is decoded a block at a time, not buffered whole.
pub const RAR_BUFFERED_LIMIT: u64 = 64 << 20;

/// The most rounds of key derivation spent on one RAR read with passwords: 2^28,
/// about 8,000 members encrypted as WinRAR encrypts them (2^15 rounds of
/// PBKDF2-HMAC-SHA256 each, a few milliseconds), against a hostile archive whose every
/// member asks for 2^24 rounds (seconds each). A member past it is named, not decoded.
pub const RAR_KEY_ROUNDS: u64 = 1 << 28;

/// How many times a pass over an archive that is not solid runs again past a member
/// that ended it: the members after the last are named not read together.
const MAX_RERUNS: usize = 64;

/// The decoded bytes so far, shared by the writer of the member being decoded.
#[derive(Clone)]
struct Shared(Rc<RefCell<Decoded>>);

impl io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// What became of one member of the archive.
#[derive(Clone, Debug)]
enum Fate {
    /// Not decoded yet.
    Pending,
    /// Decoded whole and checked: this range of the decoded file.
    Read(u64, u64),
    /// A folder, or a link (never followed): no bytes.
    NoBytes,
    /// Not read, and why (already named once in the tree's problems).
    Failed,
    /// Encrypted, and no password tried so far reads it.
    Locked,
}

fn is_password(kind: ErrorKind) -> bool {
    matches!(kind, ErrorKind::PasswordRequired | ErrorKind::BadPassword)
}

fn name_of(m: &ArchiveMember) -> String {
    m.meta.name_lossy()
}

fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

/// What one archive's decoding is bound by: the size cap, and, for each member, the
/// ratio of a decompression bomb.
#[derive(Clone, Copy)]
struct Bounds {
    /// The most all members decode to ([`crate::Evidence::max_size`]).
    cap: u64,
    /// The most one member decodes to: the cap, or less, past
    /// [`crate::evidence::MAX_COMPRESSION_RATIO`] times the archive's size (and
    /// [`crate::evidence::MAX_COMPRESSION_RATIO_FROM`]), which no read of the member
    /// would take ([`super::Archive::bomb_bound`] bounds by no more than the archive's
    /// size): such a member is refused by its header's size, or stopped there, not
    /// decoded whole first.
    member: u64,
    /// The archive's size.
    len: u64,
}

impl Bounds {
    fn new(cap: u64, len: u64) -> Bounds {
        use crate::evidence::{MAX_COMPRESSION_RATIO, MAX_COMPRESSION_RATIO_FROM};
        let bomb = len
            .saturating_mul(MAX_COMPRESSION_RATIO)
            .max(MAX_COMPRESSION_RATIO_FROM);
        Bounds {
            cap,
            member: cap.min(bomb),
            len,
        }
    }

    /// The options every pass reads with: the bounds, the memory bounds above, and
    /// `password`.
    fn options(self, password: Option<&[u8]>) -> ArchiveReadOptions<'_> {
        ArchiveReadOptions::with_optional_password(password)
            .with_max_member_output_bytes(self.member)
            .with_max_total_output_bytes(self.cap)
            .with_rar50_dictionary_size_limit(RAR_DICTIONARY_LIMIT)
            .with_rar50_buffered_decode_limit(RAR_BUFFERED_LIMIT)
    }

    /// A RAR error in words: the reader's, or the ratio of a decompression bomb when
    /// that is the bound a member passed. The reader names the entry (`while verifying
    /// entry '<name>': ...`); given `name`, a row that names it once, quoted, after
    /// these words, that is left out.
    fn words(self, e: &rars::Error, name: Option<&str>) -> String {
        match e.root_cause() {
            // `required`: the size its header declares, or, past a smaller one, what
            // it had decoded when it was stopped
            rars::Error::MemberOutputLimitExceeded { limit, required }
                if *limit == self.member && self.member < self.cap =>
            {
                format!(
                    "it decompresses to {required} bytes or more, more than {} times the size of the archive that holds it ({} bytes; past {} bytes), a decompression bomb's shape",
                    crate::evidence::MAX_COMPRESSION_RATIO,
                    self.len,
                    self.member
                )
            }
            _ => match name {
                Some(name) => e.to_string().replace(&format!(" entry '{name}'"), ""),
                None => e.to_string(),
            },
        }
    }
}

/// A RAR's entries, decoded in order into one file of at most `cap` bytes, each member
/// a range of it; what cannot be read is named in `tree`'s problems.
pub(super) fn entries(
    file: &Arc<RangedFile>,
    volumes: &[Arc<RangedFile>],
    tree: &mut Tree<'_>,
    password: Option<&ArchivePassword>,
    cap: u64,
    spill: Option<&Path>,
) -> io::Result<RangedFile> {
    entries_within(file, volumes, tree, password, cap, spill, RAR_KEY_ROUNDS)
}

/// [`entries`], spending at most `key_rounds` rounds of key derivation.
fn entries_within(
    file: &Arc<RangedFile>,
    volumes: &[Arc<RangedFile>],
    tree: &mut Tree<'_>,
    password: Option<&ArchivePassword>,
    cap: u64,
    spill: Option<&Path>,
    key_rounds: u64,
) -> io::Result<RangedFile> {
    let candidates: Vec<&[u8]> = password.into_iter().flat_map(|p| p.candidates()).collect();
    // the set's bytes: the ratio of a decompression bomb is of all its volumes
    let len = volumes
        .iter()
        .fold(file.len(), |sum, v| sum.saturating_add(v.len()));
    let bounds = Bounds::new(cap, len);
    let not_read = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    // the headers, read without a password unless they are encrypted (`rar -hp`)
    let open_of = |file: &Arc<RangedFile>, password: Option<&[u8]>| {
        catch_unwind(AssertUnwindSafe(|| {
            let source = Cursor {
                file: file.clone(),
                pos: 0,
            };
            ArchiveReader::read_reader_with_options(source, bounds.options(password))
        }))
        .unwrap_or_else(|_| Err(rars::Error::InvalidHeader("the reader failed (a panic)")))
    };
    let (archive, opened_with): (rars::Archive, Option<&[u8]>) = match open_of(file, None) {
        Ok(a) => {
            // the reader takes a tail shorter than a block header for the end: a cut
            // there loses what that header began, and is named
            if let Some(cut) = cut_short(file) {
                tree.problem(cut.words(file.len()));
            }
            (a, None)
        }
        Err(e) if e.kind() == ErrorKind::PasswordRequired && candidates.is_empty() => {
            return Err(not_read(
                "not read as a RAR archive: its headers are encrypted, and no password was given"
                    .into(),
            ));
        }
        Err(e) if e.kind() == ErrorKind::PasswordRequired => {
            match candidates
                .iter()
                .find_map(|p| open_of(file, Some(p)).ok().map(|a| (a, *p)))
            {
                Some((archive, p)) => {
                    // a tail shorter than a header, taken for the end, is named
                    if let Some((cut, _)) = cut_short_locked(file, &[p], key_rounds) {
                        tree.problem(cut.words(file.len()));
                    }
                    (archive, Some(p))
                }
                // a RAR cut short, its headers encrypted: its whole blocks are read,
                // walked with the password that decrypts them
                None => {
                    let Some((archive, why, p)) = cut_short_locked(file, &candidates, key_rounds)
                        .and_then(|(cut, p)| {
                            let whole = Arc::new(RangedFile::within(file.clone(), 0, cut.at));
                            let archive = open_of(&whole, Some(p)).ok()?;
                            Some((archive, cut.words(file.len()), p))
                        })
                    else {
                        return Err(not_read(
                            "not read as a RAR archive: its headers are encrypted, and none of the passwords given opens them"
                                .into(),
                        ));
                    };
                    tree.problem(why);
                    (archive, Some(p))
                }
            }
        }
        Err(e) => {
            // a RAR cut short (a copy that stopped early): its whole blocks are read
            let Some((archive, why)) = cut_short(file).and_then(|cut| {
                let whole = Arc::new(RangedFile::within(file.clone(), 0, cut.at));
                let archive = catch_unwind(AssertUnwindSafe(|| {
                    ArchiveReader::read_reader_with_options(
                        Cursor {
                            file: whole,
                            pos: 0,
                        },
                        bounds.options(None),
                    )
                }))
                .ok()?
                .ok()?;
                Some((archive, cut.words(file.len())))
            }) else {
                return Err(not_read(format!("not read as a RAR archive: {e}")));
            };
            tree.problem(why);
            (archive, None)
        }
    };
    // a multi-volume set's later volumes (`x.part2.rar` ..., `x.r00` ...), each opened
    // with the password that opened the first, to the first that cannot be; files so
    // named beside a RAR that is no volume are not its
    let volumes = if volumes.is_empty() || is_volume(&archive) {
        volumes
    } else {
        tree.problem(format!(
            "the {} beside it named as its next volume not read with it: the RAR is not a volume of a multi-volume set",
            if volumes.len() == 1 {
                "file".to_string()
            } else {
                format!("{} files", volumes.len())
            }
        ));
        &[]
    };
    let mut set = vec![archive];
    for (k, volume) in volumes.iter().enumerate() {
        match open_of(volume, opened_with) {
            Ok(a) => set.push(a),
            Err(e) => {
                tree.problem(format!(
                    "archive entries not read: volume {} of the multi-volume RAR could not be read ({e}); the set is read to the volume before it",
                    k + 2
                ));
                break;
            }
        }
    }
    // the last volume read says whether the set goes on: the volumes after it, and
    // what they hold, are not there (or not read with it)
    let goes_on = set.last().is_some_and(goes_on);
    if goes_on {
        tree.problem(match set.len() {
            1 => "archive entries not read: the RAR is one volume of a multi-volume set, read alone: what its other volumes hold is not read".to_string(),
            n => format!(
                "archive entries not read: the multi-volume RAR goes on past volume {n}, and volume {} is not there: the entries it and the volumes after it hold are not read",
                n + 1
            ),
        });
    }
    let members = catch_unwind(AssertUnwindSafe(|| match &set[..] {
        [archive] => Ok(archive.members().collect::<Vec<_>>()),
        set => rars::volume_members(set),
    }));
    let members: Vec<ArchiveMember> = match members {
        Ok(Ok(m)) => m,
        Ok(Err(e)) => return Err(not_read(format!("not read as a RAR archive: {e}"))),
        Err(_) => {
            return Err(not_read(
                "not read as a RAR archive: the reader failed (a panic)".into(),
            ));
        }
    };
    // one run of decoding: a solid stream, each member's continuing the one before;
    // and a multi-volume set, which the reader decodes whole (its volume extraction
    // has no choice of members and stops at the first error)
    let stream = members.iter().any(|m| m.is_solid());
    let solid = stream || set.len() > 1;
    let what = if set.len() > 1 {
        "multi-volume RAR"
    } else {
        "solid RAR"
    };
    let rounds = key_costs(&set, &members);
    let ctx = Ctx {
        set: &set,
        members: &members,
        solid,
        what,
        rounds: &rounds,
        spent: std::cell::Cell::new(0),
        key_rounds,
        stopped: std::cell::Cell::new(false),
        from: 0,
        bounds,
    };
    let out = Rc::new(RefCell::new(Decoded::new(spill)?));
    let mut fate = vec![Fate::Pending; members.len()];
    for (i, m) in members.iter().enumerate() {
        if m.meta.is_directory || m.meta.is_redirection {
            fate[i] = Fate::NoBytes;
        } else if set.len() > 1 && m.meta.is_split_after {
            // a set whose last volumes are not there
            tree.problem(format!(
                "archive entry {i} not read: it continues into volume {} of the multi-volume RAR, which is not there: {}",
                set.len() + 1,
                quoted(&name_of(m))
            ));
            fate[i] = Fate::Failed;
        } else if m.meta.is_split_before || m.meta.is_split_after {
            tree.problem(format!(
                "archive entry {i} not read: it continues {} another volume of a multi-volume RAR, not read with this one: {}",
                if m.meta.is_split_before { "from" } else { "into" },
                quoted(&name_of(m))
            ));
            fate[i] = Fate::Failed;
        }
    }
    // no password, then each password given, in order: a pass decodes the members
    // still locked (all of them, in a solid archive, whose stream is one)
    let mut tries: Vec<Option<&[u8]>> = vec![None];
    tries.extend(candidates.iter().map(|p| Some(*p)));
    let mut reruns = 0usize;
    let mut attempt = 0usize;
    while attempt < tries.len() {
        let retry = attempt > 0;
        let wanted = |f: &Fate| matches!(f, Fate::Pending) || (retry && matches!(f, Fate::Locked));
        if !fate.iter().any(wanted) {
            break;
        }
        let mark = out.borrow().len();
        let before = fate.clone();
        let password = tries[attempt];
        let Some((e, at)) = pass(&ctx, &mut fate, &out, password, retry, tree) else {
            if ctx.stopped.get() {
                // what is left of the stream is not decoded with any password
                for f in fate.iter_mut().filter(|f| matches!(f, Fate::Locked)) {
                    *f = Fate::Pending;
                }
                break;
            }
            attempt += 1;
            continue;
        };
        if solid && is_password(e.kind()) {
            // a solid archive's one stream: the next password decodes it anew
            fate = before
                .into_iter()
                .map(|f| match f {
                    Fate::Pending => Fate::Locked,
                    f => f,
                })
                .collect();
            out.borrow_mut().truncate(mark)?;
            attempt += 1;
            continue;
        }
        match at {
            // in an archive that is not solid, the member that ended the pass (a
            // dictionary over the bound, say) is named, and the pass runs again for
            // the members after it, a bounded number of times
            Some(i) if !solid && reruns < MAX_RERUNS => {
                fail(
                    tree,
                    &mut fate,
                    &members[i],
                    i,
                    &bounds.words(&e, Some(&name_of(&members[i]))),
                );
                reruns += 1;
            }
            // a multi-volume set that is not solid, past the member that ended its
            // decoding: each later member a volume holds whole is read from that
            // volume alone (its stream begins there)
            _ if set.len() > 1 && !stream => {
                if let Some(i) = at {
                    fail(
                        tree,
                        &mut fate,
                        &members[i],
                        i,
                        &bounds.words(&e, Some(&name_of(&members[i]))),
                    );
                }
                let past = at.or_else(|| (0..fate.len()).find(|&i| wanted(&fate[i])));
                // each pass sees only the members its volume holds whole (the others
                // stand as failed in `sub`, which each volume sets and resets for its
                // own members only: linear in the set's members)
                let mut sub = vec![Fate::Failed; fate.len()];
                for (j, held) in whole_in_volumes(&set, &members) {
                    if !held.iter().any(|&k| wanted(&fate[k])) {
                        continue;
                    }
                    for &k in &held {
                        sub[k] = fate[k].clone();
                    }
                    let alone = Ctx {
                        set: std::slice::from_ref(&set[j]),
                        solid: false,
                        spent: std::cell::Cell::new(ctx.spent.get()),
                        stopped: std::cell::Cell::new(false),
                        // the names are matched from the member the volume begins
                        // with (the part of one begun before it, or its first whole)
                        from: held[0].saturating_sub(1),
                        ..ctx
                    };
                    let _ = pass(&alone, &mut sub, &out, password, retry, tree);
                    ctx.spent.set(alone.spent.get());
                    for &k in &held {
                        fate[k] = std::mem::replace(&mut sub[k], Fate::Failed);
                    }
                }
                let left: Vec<usize> = (0..fate.len()).filter(|&i| wanted(&fate[i])).collect();
                if let (Some(past), false) = (past, left.is_empty()) {
                    tree.problem(format!(
                        "archive entries not read: the multi-volume RAR could not be decoded past entry {past}, and the entries after it that run from one volume into the next cannot be read without it (those a volume holds whole were read from that volume alone); {} of its entries not read",
                        left.len()
                    ));
                    // each named, as every entry not read is (the reader cannot
                    // begin a set at a volume that opens with the rest of an
                    // entry: "split entry is missing its first part")
                    let why = format!(
                        "it runs from one volume of the multi-volume RAR into the next, past entry {past}, which could not be decoded"
                    );
                    for i in left {
                        fail(tree, &mut fate, &members[i], i, &why);
                    }
                }
                // what is still locked is tried with the next password (the set is
                // decoded anew, the damaged member to nothing)
                attempt += 1;
            }
            _ => {
                let left: Vec<usize> = (0..fate.len()).filter(|&i| wanted(&fate[i])).collect();
                if let Some(&first) = left.first() {
                    // the entry being decoded when it failed, named
                    let name = at.map(|i| name_of(&members[i]));
                    tree.problem(format!(
                        "archive entries not read: the RAR could not be decoded past entry {first} ({}{}); {} of its entries not read",
                        name.as_deref()
                            .map(|n| format!("{}: ", quoted(n)))
                            .unwrap_or_default(),
                        bounds.words(&e, name.as_deref()),
                        left.len()
                    ));
                    // and each, by its name: the first with the reason
                    let after = format!(
                        "it follows entry {first} in the RAR's stream, which could not be decoded"
                    );
                    for i in left {
                        let why = match i == first {
                            true => bounds.words(&e, Some(&name_of(&members[i]))),
                            false => after.clone(),
                        };
                        fail(tree, &mut fate, &members[i], i, &why);
                    }
                }
                break;
            }
        }
    }
    // what a solid stream left undecoded when a member before it was not read
    let left: Vec<usize> = (0..fate.len())
        .filter(|&i| matches!(fate[i], Fate::Pending))
        .collect();
    if !left.is_empty() {
        tree.problem(format!(
            "archive entries not read: the {what}'s stream cannot be decoded past an entry not read; {} of its entries not read",
            left.len()
        ));
        let why = format!("the {what}'s stream runs through an entry before it that was not read");
        for i in left {
            fail(tree, &mut fate, &members[i], i, &why);
        }
    }
    let locked: Vec<usize> = (0..fate.len())
        .filter(|&i| matches!(fate[i], Fate::Locked))
        .collect();
    let why = if candidates.is_empty() {
        "encrypted, and no password was given"
    } else {
        "encrypted, and none of the passwords given reads it"
    };
    if solid && !locked.is_empty() {
        // one stream, one password: said once, and each entry named
        tree.problem(format!(
            "archive entries not read: the {what} is {why}; {} of its entries not read",
            locked.len()
        ));
    }
    for i in locked {
        tree.problem(format!(
            "archive entry {i} not read: {why}: {}",
            quoted(&name_of(&members[i]))
        ));
    }
    for (i, m) in members.iter().enumerate() {
        let name = name_of(m);
        let (offset, size) = match fate[i] {
            Fate::Read(offset, size) => (offset, size),
            Fate::NoBytes if m.meta.is_directory => {
                tree.add(i, &name, true, None);
                continue;
            }
            Fate::NoBytes => (0, 0),
            _ => continue,
        };
        let modified = (m.meta.family == ArchiveFamily::Rar50Plus)
            .then(|| m.meta.modification_time())
            .flatten();
        let member = Member {
            index: i,
            size,
            kind: if m.meta.is_redirection {
                EntryKind::Link
            } else {
                EntryKind::File
            },
            place: Place::Tar { offset },
            modified: OnceLock::from(modified),
        };
        tree.add(i, &name, true, Some(member));
    }
    let decoded = Rc::try_unwrap(out)
        .map_err(|_| io::Error::other("the RAR's decoded bytes are still shared"))?
        .into_inner();
    let mut decoded = decoded;
    io::Write::flush(&mut decoded)?;
    decoded.into_ranged()
}

/// The rounds of key derivation each member's decoding costs with a password: a RAR5
/// member's own count, RAR 3's fixed 2^18 (RAR 1.5 and 2's keys cost nothing); of a
/// set, each volume's members but the parts of one begun in a volume before.
fn key_costs(set: &[rars::Archive], members: &[ArchiveMember]) -> Vec<u64> {
    let mut rar50: Option<Vec<u8>> = Some(Vec::new());
    for archive in set {
        let counts: Option<Vec<u8>> = archive.as_rar50().map(|a| {
            a.files()
                .map(|f| f.encryption.as_ref().map_or(0, |e| e.kdf_count))
                .collect()
        });
        match (&mut rar50, counts) {
            (Some(all), Some(counts)) => all.extend(
                archive
                    .members()
                    .zip(counts)
                    .filter(|(m, _)| set.len() == 1 || !m.meta.is_split_before)
                    .map(|(_, c)| c),
            ),
            _ => rar50 = None,
        }
    }
    members
        .iter()
        .enumerate()
        .map(|(i, m)| match (&rar50, m.meta.is_encrypted) {
            (_, false) => 0,
            (Some(counts), true) => 1u64 << counts.get(i).copied().unwrap_or(24).min(24),
            (None, true) => 1 << 18,
        })
        .collect()
}

/// Names entry `i` (`member`) not read, for `why`, and marks it failed.
fn fail(tree: &mut Tree<'_>, fate: &mut [Fate], member: &ArchiveMember, i: usize, why: &str) {
    tree.problem(format!(
        "archive entry {i} not read: {why}: {}",
        quoted(&name_of(member))
    ));
    fate[i] = Fate::Failed;
}

/// Whether `archive` says it is a volume of a multi-volume set (its main header).
fn is_volume(archive: &rars::Archive) -> bool {
    if let Some(a) = archive.as_rar50() {
        a.main.is_volume()
    } else if let Some(a) = archive.as_rar15_40() {
        a.main.is_volume()
    } else if let Some(a) = archive.as_rar13() {
        a.main.is_volume()
    } else {
        false
    }
}

/// Whether `archive`, a volume, says the set goes on past it: RAR5's end block, or
/// RAR 1.5 to 4's (`EARC_NEXT_VOLUME`, from RAR 3); a volume of those with no end block
/// (RAR 2 wrote none) or of RAR 1.3 goes on when its last member runs on past it.
fn goes_on(archive: &rars::Archive) -> bool {
    /// RAR 1.5 to 4's end block's flag: a volume follows.
    const EARC_NEXT_VOLUME: u16 = 0x0001;
    if let Some(a) = archive.as_rar50() {
        return a.blocks.iter().rev().any(|b| match b {
            rars::rar50::Block::End(end) => end.has_next_volume(),
            _ => false,
        });
    }
    if !is_volume(archive) {
        return false;
    }
    let end = archive.as_rar15_40().and_then(|a| {
        a.blocks.iter().rev().find_map(|b| match b {
            rars::rar15_40::Block::End(end) => Some(end.flags & EARC_NEXT_VOLUME != 0),
            _ => None,
        })
    });
    end.unwrap_or_else(|| {
        archive
            .members()
            .last()
            .is_some_and(|m| m.meta.is_split_after)
    })
}

/// The members each volume of a set holds whole (begun and ended in it), by their
/// index among the set's members: `(volume, indices)` for each volume with any. A
/// set's members are its volumes' members in order, each counted in the volume it
/// begins in; a volume whose listing does not match the set's is left out.
fn whole_in_volumes(set: &[rars::Archive], members: &[ArchiveMember]) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    for (j, archive) in set.iter().enumerate() {
        let mut held = Vec::new();
        for m in archive.members() {
            if m.meta.is_split_before {
                continue;
            }
            if members.get(at).is_none_or(|x| x.meta.name != m.meta.name) {
                return out;
            }
            if !m.meta.is_split_after {
                held.push(at);
            }
            at += 1;
        }
        if !held.is_empty() {
            out.push((j, held));
        }
    }
    out
}

/// What every pass over one archive shares.
struct Ctx<'a> {
    /// The archive, or the volumes of a multi-volume set in order.
    set: &'a [rars::Archive],
    members: &'a [ArchiveMember],
    /// Whether its members' streams are one.
    solid: bool,
    /// What the stream is, in rows: `solid RAR` or `multi-volume RAR`.
    what: &'static str,
    /// The rounds of key derivation each member costs with a password.
    rounds: &'a [u64],
    /// The rounds spent so far, of `key_rounds` ([`RAR_KEY_ROUNDS`]).
    spent: std::cell::Cell<u64>,
    key_rounds: u64,
    /// Set when a solid stream was stopped at a member whose key is past the budget.
    stopped: std::cell::Cell<bool>,
    /// The member whose name a pass matches first (0; a later volume read alone
    /// begins further on), so that matching each member's name costs a step or two.
    from: usize,
    bounds: Bounds,
}

/// One pass over the archive with `password`, decoding each member `fate` marks
/// pending (and, when `retry`, locked), recording each one's fate. Returns the error
/// that ended the pass before its end, if one did, with the member it met.
fn pass(
    ctx: &Ctx<'_>,
    fate: &mut [Fate],
    out: &Rc<RefCell<Decoded>>,
    password: Option<&[u8]>,
    retry: bool,
    tree: &mut Tree<'_>,
) -> Option<(rars::Error, Option<usize>)> {
    let members = ctx.members;
    // (index, start) of the member being decoded, and the next index to match
    let current: RefCell<Option<(usize, u64)>> = RefCell::new(None);
    let next = RefCell::new(ctx.from);
    let fate = RefCell::new(fate);
    let problems: RefCell<Vec<String>> = RefCell::new(Vec::new());
    // the member just decoded, if it met no error, is read
    let settle = || {
        if let Some((i, start)) = current.borrow_mut().take() {
            let end = out.borrow().len();
            fate.borrow_mut()[i] = Fate::Read(start, end - start);
        }
    };
    // the index of the member named `name`: the next of that name from where the last
    // one was
    let index_of = |name: &[u8]| {
        let from = *next.borrow();
        let i = (from..members.len())
            .chain(0..from)
            .find(|&i| members[i].meta.name == name)?;
        *next.borrow_mut() = i + 1;
        Some(i)
    };
    let decide = |name: &[u8]| {
        settle();
        let Some(i) = index_of(name) else {
            return Ok(ExtractionDecision::Skip);
        };
        let m = &members[i];
        let f = fate.borrow()[i].clone();
        let wanted = matches!(f, Fate::Pending) || (retry && matches!(f, Fate::Locked));
        let no_bytes = m.meta.is_directory || m.meta.is_redirection;
        // the rounds its key costs, or `None` when they are past the budget
        let charge = || {
            if password.is_none() || ctx.rounds[i] == 0 {
                return Some(());
            }
            let spent = ctx.spent.get() + ctx.rounds[i];
            (spent <= ctx.key_rounds).then(|| ctx.spent.set(spent))
        };
        if !wanted || no_bytes {
            if !ctx.solid || no_bytes {
                return Ok(ExtractionDecision::Skip);
            }
            // a solid stream is decoded through every member, kept or not: a member
            // decoded again only to carry it (read on an earlier pass, or named) costs
            // its key as any other
            if charge().is_some() {
                return Ok(ExtractionDecision::Extract(Box::new(io::sink())));
            }
            let mut fate = fate.borrow_mut();
            let after: Vec<usize> = (i + 1..fate.len())
                .filter(|&k| {
                    matches!(fate[k], Fate::Pending) || (retry && matches!(fate[k], Fate::Locked))
                })
                .collect();
            for &k in &after {
                fate[k] = Fate::Failed;
            }
            let mut problems = problems.borrow_mut();
            problems.push(format!(
                "archive entries not read: the {}'s stream runs through entry {i} ({}), whose key asks for {} rounds of key derivation more, over the {} rounds this reader spends on one archive; {} of its entries not read",
                ctx.what,
                quoted(&name_of(m)),
                ctx.rounds[i],
                ctx.key_rounds,
                after.len()
            ));
            for &k in &after {
                problems.push(format!(
                    "archive entry {k} not read: the {}'s stream runs through entry {i}, whose key is past the rounds this reader spends: {}",
                    ctx.what,
                    quoted(&name_of(&members[k]))
                ));
            }
            ctx.stopped.set(true);
            return Ok(ExtractionDecision::Stop);
        }
        if charge().is_none() {
            problems.borrow_mut().push(format!(
                "archive entry {i} not read: its key asks for {} rounds of key derivation more, over the {} rounds this reader spends on one archive: {}",
                ctx.rounds[i],
                ctx.key_rounds,
                quoted(&name_of(m))
            ));
            fate.borrow_mut()[i] = Fate::Failed;
            // the rest of a solid stream cannot be decoded without it
            ctx.stopped.set(ctx.solid);
            return Ok(if ctx.solid {
                ExtractionDecision::Stop
            } else {
                ExtractionDecision::Skip
            });
        }
        *current.borrow_mut() = Some((i, out.borrow().len()));
        Ok(ExtractionDecision::Extract(Box::new(Shared(out.clone()))))
    };
    let on_error = |m: &ArchiveMember, e: &rars::Error| {
        let taken = current.borrow_mut().take();
        let i = taken
            .map(|(i, _)| i)
            .or_else(|| members.iter().position(|x| x.meta.name == m.meta.name));
        if let Some((_, start)) = taken {
            // what the member gave before it failed is dropped
            let _ = out.borrow_mut().truncate(start);
        }
        if let Some(i) = i {
            fate.borrow_mut()[i] = if is_password(e.kind()) {
                Fate::Locked
            } else {
                let name = name_of(m);
                problems.borrow_mut().push(format!(
                    "archive entry {i} not read: {}: {}",
                    ctx.bounds.words(e, Some(&name)),
                    quoted(&name)
                ));
                Fate::Failed
            };
        }
        Ok(ExtractionErrorAction::Continue)
    };
    let result = catch_unwind(AssertUnwindSafe(|| match ctx.set {
        [archive] => archive
            .extract_with_control_and_errors(
                ctx.bounds.options(password),
                |m: &ArchiveMember| decide(&m.meta.name),
                on_error,
            )
            .map(|_| ()),
        // a set is decoded whole, as a solid stream is: a member not wanted is
        // decoded to nothing, and an error ends the pass (the members after it named)
        set => rars::extract_volumes_to_with_options(
            set,
            ctx.bounds.options(password),
            |meta: &rars::ExtractedEntryMeta| match decide(&meta.name)? {
                ExtractionDecision::Extract(w) => Ok(w),
                ExtractionDecision::Skip => Ok(Box::new(io::sink())),
                ExtractionDecision::Stop => Err(rars::Error::InvalidHeader(
                    "stopped: the rest of the solid stream cannot be decoded",
                )),
            },
        ),
    }));
    let fatal = match result {
        Ok(Ok(_)) => {
            settle();
            None
        }
        // a set's decoding stopped at a key past the budget, as a solid stream's is
        Ok(Err(_)) if ctx.stopped.get() => None,
        // a set whose last volumes are not there: the reader says so once every member
        // it holds whole is decoded (the one it ends inside is already named)
        Ok(Err(e))
            if ctx.set.len() > 1
                && matches!(e.root_cause(), rars::Error::InvalidHeader(why) if why.ends_with("split entry is incomplete")) =>
        {
            settle();
            None
        }
        Ok(Err(e)) => Some(e),
        Err(_) => Some(rars::Error::InvalidHeader("the reader failed (a panic)")),
    };
    // the member being decoded when the pass ended is not read
    let mut at = None;
    if fatal.is_some() {
        if let Some((i, start)) = current.borrow_mut().take() {
            let _ = out.borrow_mut().truncate(start);
            fate.borrow_mut()[i] = Fate::Pending;
            at = Some(i);
        }
    }
    for p in problems.into_inner() {
        tree.problem(p);
    }
    fatal.map(|e| (e, at))
}

/// How the volumes of a set are named, read from one volume's name.
#[derive(Debug, PartialEq)]
enum Naming<'a> {
    /// WinRAR's naming since RAR 3, `<head>.part<number>.rar`: its head (to `.part`,
    /// included), its number as written, and its extension.
    Parts {
        head: &'a str,
        number: &'a str,
        ext: &'a str,
    },
    /// The older naming (RAR 1.5 to 4, and `-vn`): `<stem>.rar`, then `<stem>.r00` to
    /// `.r99`, `.s00` ... `.z99`. The stem; the volume's place after the first (`None`
    /// for the first); and whether its extension is written in capitals.
    Old {
        stem: &'a str,
        later: Option<u32>,
        upper: bool,
    },
}

/// The volumes after the first that the older naming can name (`.r00` to `.z99`).
const OLD_NAMES: u32 = 900;

/// How `name` names a volume of a set, if it is one a set could hold.
fn naming(name: &str) -> Option<Naming<'_>> {
    // (compared as bytes: a name's characters before the end may be of any width)
    let at = name.len().checked_sub(4)?;
    let tail = &name.as_bytes()[at..];
    if !name.is_char_boundary(at) || tail[0] != b'.' {
        return None;
    }
    let stem = &name[..at];
    if tail.eq_ignore_ascii_case(b".rar") {
        let digits = stem.len() - stem.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (head, number) = stem.split_at(digits);
        let is_part = head
            .len()
            .checked_sub(5)
            .is_some_and(|at| head.as_bytes()[at..].eq_ignore_ascii_case(b".part"));
        if is_part && !number.is_empty() {
            return Some(Naming::Parts {
                head,
                number,
                ext: &name[at..],
            });
        }
        return (!stem.is_empty()).then_some(Naming::Old {
            stem,
            later: None,
            upper: tail[1..].iter().all(u8::is_ascii_uppercase),
        });
    }
    // `.r00` ... `.z99`
    let letter = tail[1].to_ascii_lowercase();
    if !(b'r'..=b'z').contains(&letter)
        || !tail[2..].iter().all(u8::is_ascii_digit)
        || stem.is_empty()
    {
        return None;
    }
    let place =
        u32::from(letter - b'r') * 100 + u32::from(tail[2] - b'0') * 10 + u32::from(tail[3] - b'0');
    Some(Naming::Old {
        stem,
        later: Some(place),
        upper: tail[1].is_ascii_uppercase(),
    })
}

/// The name of volume `n` (from 2) of the multi-volume set whose first volume is named
/// `first`, or `None` when `first` is no first volume so named: `x.part1.rar`,
/// `x.part01.rar` ... (the number padded to the width of the first's), or, in the
/// older naming, `x.rar`, `x.r00`, `x.r01` ... (whose first is any `.rar` not named as
/// a part: a set only when the volume after it is there, and the first says it is a
/// volume).
pub(crate) fn volume_name(first: &str, n: u32) -> Option<String> {
    if n < 2 {
        return None;
    }
    match naming(first)? {
        Naming::Parts { head, number, ext } => (number.trim_start_matches('0') == "1")
            .then(|| format!("{head}{n:0width$}{ext}", width = number.len())),
        Naming::Old {
            stem,
            later: None,
            upper,
        } => {
            let place = n - 2;
            (place < OLD_NAMES).then(|| {
                let letter = char::from(b'r' + (place / 100) as u8);
                let letter = if upper {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                format!("{stem}.{letter}{:02}", place % 100)
            })
        }
        Naming::Old { later: Some(_), .. } => None,
    }
}

/// The name of the first volume of the set whose later volume is named `name`
/// (`x.part1.rar` for `x.part2.rar`, `x.rar` for `x.r00`), or `None` when `name` is no
/// later volume.
pub(crate) fn first_volume_of(name: &str) -> Option<String> {
    match naming(name)? {
        Naming::Parts { head, number, ext } => (number.trim_start_matches('0') != "1")
            .then(|| format!("{head}{:0width$}{ext}", 1, width = number.len())),
        Naming::Old {
            stem,
            later: Some(_),
            upper,
        } => Some(format!("{stem}.{}", if upper { "RAR" } else { "rar" })),
        Naming::Old { later: None, .. } => None,
    }
}

/// Where a RAR5 archive cut short stops being whole: found by walking its block
/// headers from the signature (each checked by its CRC-32), when the last one runs
/// past the end of the file.
#[derive(Debug, PartialEq)]
struct Cut {
    /// Where the block cut short starts: the archive is whole before it.
    at: u64,
    /// The entry it holds, when its header is whole and it is a file's: its index
    /// among the archive's files, and its name.
    entry: Option<(usize, String)>,
}

impl Cut {
    /// The row naming what the cut took, of an archive of `len` bytes.
    fn words(&self, len: u64) -> String {
        match &self.entry {
            Some((i, name)) => format!(
                "archive entries not read: the RAR is cut short at byte {len}, inside entry {i} (its header at byte {}): {}; that entry and any after it are not in the file",
                self.at,
                quoted(name)
            ),
            None => format!(
                "archive entries not read: the RAR is cut short at byte {len}, inside a header at byte {}; any entries from there on are not in the file",
                self.at
            ),
        }
    }
}

/// The RAR5 signature.
const RAR5_SIGNATURE: &[u8] = b"Rar!\x1a\x07\x01\x00";

/// The largest RAR5 block header (2 MiB, as the format allows).
const RAR5_MAX_HEADER: u64 = 2 << 20;

/// A RAR5 variable-length integer at `at` of `b`: its value and the index after it.
fn vint(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (k, &c) in b.get(at..)?.iter().take(10).enumerate() {
        value |= u64::from(c & 0x7f) << (7 * k);
        if c & 0x80 == 0 {
            return Some((value, at + k + 1));
        }
    }
    None
}

/// Where `file`, a RAR5 archive (with no encrypted headers), is cut short, if it is:
/// `None` when its blocks are whole to its end, or a header is damaged, or it is no
/// RAR5 (RAR 1.5 to 4 and RAR 1.3 are walked by [`cut_short_rar15`] and
/// [`cut_short_rar13`]). One read a block, each block moving forward: linear in the
/// blocks.
fn cut_short(file: &RangedFile) -> Option<Cut> {
    let len = file.len();
    let mut head = [0u8; 8];
    let got = read_full(file, 0, &mut head)?;
    if got >= 7 && head[..7] == *RAR15_SIGNATURE {
        return cut_short_rar15(file);
    }
    if got >= 4 && head[..4] == *RAR13_SIGNATURE {
        return cut_short_rar13(file);
    }
    if got != 8 || head != RAR5_SIGNATURE {
        return None;
    }
    let mut at = 8u64;
    let mut files = 0usize;
    let cut = |at: u64, entry| Some(Cut { at, entry });
    while at < len {
        // the CRC-32 and the header's size (a vint of at most 3 bytes)
        let mut start = [0u8; 7];
        let got = read_full(file, at, &mut start)?;
        let Some((size, body)) = vint(&start[..got], 4) else {
            return if got < start.len() {
                cut(at, None)
            } else {
                None
            };
        };
        if size == 0 || size > RAR5_MAX_HEADER {
            return None;
        }
        let end_of_header = at + body as u64 + size;
        if end_of_header > len {
            return cut(at, None);
        }
        let mut header = vec![0u8; body + size as usize];
        if read_full(file, at, &mut header)? != header.len() {
            return cut(at, None);
        }
        let crc = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        if crc32fast::hash(&header[4..]) != crc {
            return None;
        }
        let (kind, i) = vint(&header, body)?;
        let (flags, mut i) = vint(&header, i)?;
        if flags & 1 != 0 {
            i = vint(&header, i)?.1;
        }
        let data = if flags & 2 != 0 {
            let (data, next) = vint(&header, i)?;
            i = next;
            data
        } else {
            0
        };
        let end = end_of_header.checked_add(data)?;
        if end > len {
            // a file's header whole and its data cut: named
            let name = (kind == 2).then(|| file_name(&header, i)).flatten();
            return cut(at, name.map(|n| (files, n)));
        }
        match kind {
            2 => files += 1,
            // the archive's end, or headers encrypted from here on
            4 | 5 => return None,
            _ => {}
        }
        at = end;
    }
    None
}

/// [`cut_short`] for an archive whose headers are encrypted (`rar -hp`), walked with the
/// first of `passwords` that decrypts them: RAR5's ([`cut_short_encrypted`]) and RAR 3
/// and 4's ([`cut_short_rar15_encrypted`]).
fn cut_short_locked<'p>(
    file: &RangedFile,
    passwords: &[&'p [u8]],
    key_rounds: u64,
) -> Option<(Cut, &'p [u8])> {
    let mut head = [0u8; 7];
    if read_full(file, 0, &mut head)? == 7 && head == *RAR15_SIGNATURE {
        return cut_short_rar15_encrypted(file, passwords, key_rounds);
    }
    cut_short_encrypted(file, passwords, key_rounds)
}

/// [`cut_short`] for a RAR5 archive whose headers are encrypted (`rar -hp`): its archive
/// encryption header read (the key's salt, rounds and password check), the key derived
/// for each of `passwords` in turn (its rounds counted against `key_rounds`: none is
/// derived past it) until one passes the check and its walk, and the blocks walked as
/// [`cut_short`] walks them, each header behind its 16-byte IV decrypted (AES-256-CBC,
/// padded to 16 bytes) and checked by its CRC-32. `None` when the archive is whole, a
/// header is damaged, no password fits, or its headers are not so encrypted; else the
/// cut and the password.
fn cut_short_encrypted<'p>(
    file: &RangedFile,
    passwords: &[&'p [u8]],
    key_rounds: u64,
) -> Option<(Cut, &'p [u8])> {
    use rars::crypto::rar50::{Rar50Cipher, Rar50Keys};
    /// RAR 5's most rounds of key derivation (2^24).
    const MAX_KDF_COUNT_LOG: u8 = 24;
    let len = file.len();
    let mut head = [0u8; 8];
    if read_full(file, 0, &mut head)? != 8 || head != RAR5_SIGNATURE {
        return None;
    }
    // the archive encryption header, in the clear: CRC-32, size, type 4, flags, then
    // the version, its flags, the rounds' log, the salt and the password check
    let mut start = [0u8; 7];
    let got = read_full(file, 8, &mut start)?;
    let (size, body) = vint(&start[..got], 4)?;
    if size == 0 || size > 256 {
        return None;
    }
    let mut header = vec![0u8; body + size as usize];
    if read_full(file, 8, &mut header)? != header.len()
        || crc32fast::hash(&header[4..]) != u32::from_le_bytes(header[..4].try_into().ok()?)
    {
        return None;
    }
    let (kind, i) = vint(&header, body)?;
    let (_, i) = vint(&header, i)?; // the block's flags
    let (version, i) = vint(&header, i)?;
    let (flags, i) = vint(&header, i)?;
    if kind != 4 || version != 0 {
        return None;
    }
    let count = *header.get(i)?;
    let salt: [u8; 16] = header.get(i + 1..i + 17)?.try_into().ok()?;
    let check: Option<[u8; 12]> = if flags & 1 != 0 {
        Some(header.get(i + 17..i + 29)?.try_into().ok()?)
    } else {
        None
    };
    if count > MAX_KDF_COUNT_LOG {
        return None;
    }
    let mut spent = 0u64;
    let walk = |key: [u8; 32], checked: bool| -> Walk {
        let mut at = 8 + header.len() as u64;
        let mut files = 0usize;
        // as in RAR 3 and 4 (see `cut_short_rar15_encrypted`): without the check
        // value (or with WinRAR 5.21's zeros) no cut is named before a header passed
        let mut verified = checked;
        let cut = Walk::cut;
        while at < len {
            // the IV and the first block: the header's CRC-32 and size
            let mut first = [0u8; 32];
            match read_full(file, at, &mut first) {
                Some(32) => {}
                Some(_) => return cut(at, None, verified),
                None => return Walk::Nothing,
            }
            let mut iv = [0u8; 16];
            iv.copy_from_slice(&first[..16]);
            let mut block = [0u8; 16];
            block.copy_from_slice(&first[16..]);
            if Rar50Cipher::new(key, iv)
                .decrypt_in_place(&mut block)
                .is_err()
            {
                return Walk::Nothing;
            }
            let wrong = if verified {
                Walk::Nothing
            } else {
                Walk::WrongKey
            };
            let Some((size, body)) = vint(&block, 4) else {
                return wrong;
            };
            if size == 0 || size > RAR5_MAX_HEADER {
                return wrong;
            }
            let padded = (body as u64 + size).div_ceil(16) * 16;
            let end_of_header = at + 16 + padded;
            if end_of_header > len {
                return cut(at, None, verified);
            }
            let mut header = vec![0u8; padded as usize];
            match read_full(file, at + 16, &mut header) {
                Some(n) if n == header.len() => {}
                Some(_) => return cut(at, None, verified),
                None => return Walk::Nothing,
            }
            if Rar50Cipher::new(key, iv)
                .decrypt_in_place(&mut header)
                .is_err()
            {
                return Walk::Nothing;
            }
            header.truncate(body + size as usize);
            if crc32fast::hash(&header[4..])
                != u32::from_le_bytes([header[0], header[1], header[2], header[3]])
            {
                return wrong;
            }
            verified = true;
            let fields = || -> Option<(u64, usize, u64)> {
                let (kind, i) = vint(&header, body)?;
                let (flags, mut i) = vint(&header, i)?;
                if flags & 1 != 0 {
                    i = vint(&header, i)?.1;
                }
                if flags & 2 == 0 {
                    return Some((kind, i, 0));
                }
                let (data, next) = vint(&header, i)?;
                Some((kind, next, data))
            };
            let Some((kind, i, data)) = fields() else {
                return Walk::Nothing;
            };
            let Some(end) = end_of_header.checked_add(data) else {
                return Walk::Nothing;
            };
            if end > len {
                let name = (kind == 2).then(|| file_name(&header, i)).flatten();
                return cut(at, name.map(|n| (files, n)), verified);
            }
            match kind {
                2 => files += 1,
                5 => return Walk::Nothing,
                _ => {}
            }
            at = end;
        }
        Walk::Nothing
    };
    for &p in passwords {
        spent = spent.saturating_add(1 << count);
        if spent > key_rounds {
            return None;
        }
        let Ok(keys) = Rar50Keys::derive(p, salt, count) else {
            return None;
        };
        // WinRAR 5.21 and before wrote the check's flag and left it zero
        let checked = check.is_some_and(|c| c[..8] != [0u8; 8]);
        if checked && check.is_some_and(|c| keys.check_password(&c).is_err()) {
            continue;
        }
        match walk(keys.key, checked) {
            Walk::Cut(cut) => return Some((cut, p)),
            Walk::WrongKey => {}
            Walk::Nothing => return None,
        }
    }
    None
}

/// How a walk of encrypted headers with one password ended.
enum Walk {
    /// The archive is cut short there.
    Cut(Cut),
    /// The first header it decrypted failed its CRC, or it was cut before any passed:
    /// not this password, or not known to be.
    WrongKey,
    /// Whole, damaged, or past the key budget: nothing to name.
    Nothing,
}

impl Walk {
    /// A cut at `at`, in `entry`: named once a header has passed its CRC (`verified`)
    /// under the password, else not known to be this password's.
    fn cut(at: u64, entry: Option<(usize, String)>, verified: bool) -> Walk {
        if verified {
            Walk::Cut(Cut { at, entry })
        } else {
            Walk::WrongKey
        }
    }
}

/// [`cut_short_rar15`] for RAR 3 and 4 archives whose headers are encrypted (`rar -hp`):
/// the main header in the clear, then each block's header behind an 8-byte salt,
/// AES-128-CBC encrypted under a key and IV derived from the password and that salt
/// (2^18 rounds of SHA-1, counted against `key_rounds`; one derivation per salt, as
/// WinRAR writes one salt for all of an archive's headers) and padded to 16 bytes, its
/// data after it. A password is taken when the first header it decrypts passes its
/// CRC; the next is tried when it does not. RAR 3 and 4 keep no password check, so a
/// cut inside the first header cannot be told from a wrong password's garbage: no cut
/// is named before a header has passed its CRC (the archive is then named not read,
/// and it held nothing whole).
fn cut_short_rar15_encrypted<'p>(
    file: &RangedFile,
    passwords: &[&'p [u8]],
    key_rounds: u64,
) -> Option<(Cut, &'p [u8])> {
    use rars::crypto::rar30::Rar30Cipher;
    const ROUNDS: u64 = 1 << 18;
    let len = file.len();
    let at0 = RAR15_SIGNATURE.len() as u64;
    let mut main = [0u8; 7];
    if read_full(file, at0, &mut main)? != main.len() {
        return None;
    }
    let flags = u16::from_le_bytes([main[3], main[4]]);
    let size = u64::from(u16::from_le_bytes([main[5], main[6]]));
    if main[2] != MAIN_HEAD || flags & MHD_PASSWORD == 0 || size < 7 || at0 + size > len {
        return None;
    }
    let mut header = vec![0u8; size as usize];
    if read_full(file, at0, &mut header)? != header.len()
        || crc32fast::hash(&header[2..]) as u16 != u16::from_le_bytes([header[0], header[1]])
    {
        return None;
    }
    let first = at0 + size;
    let mut spent = 0u64;
    let mut keys: std::collections::HashMap<[u8; 8], Rar30Cipher> = Default::default();
    let mut walk = |password: &[u8], keys: &mut std::collections::HashMap<[u8; 8], Rar30Cipher>| {
        keys.clear();
        let mut at = first;
        let mut files = 0usize;
        // whether a header this password decrypted has passed its CRC: a cut before
        // one has cannot tell a wrong password's garbage from a header cut short
        let mut verified = false;
        let cut = Walk::cut;
        while at < len {
            let mut salt = [0u8; 8];
            let Some(got) = read_full(file, at, &mut salt) else {
                return Walk::Nothing;
            };
            if got < salt.len() {
                return cut(at, None, verified);
            }
            let cipher = match keys.get(&salt) {
                Some(c) => c.clone(),
                None => {
                    spent = spent.saturating_add(ROUNDS);
                    if spent > key_rounds {
                        return Walk::Nothing;
                    }
                    let Ok(c) = Rar30Cipher::new(password, Some(salt)) else {
                        return Walk::WrongKey;
                    };
                    keys.insert(salt, c.clone());
                    c
                }
            };
            let mut block = [0u8; 16];
            match read_full(file, at + 8, &mut block) {
                Some(16) => {}
                Some(_) => return cut(at, None, verified),
                None => return Walk::Nothing,
            }
            if cipher.clone().decrypt_in_place(&mut block).is_err() {
                return Walk::Nothing;
            }
            let size = usize::from(u16::from_le_bytes([block[5], block[6]]));
            let wrong = if verified {
                Walk::Nothing
            } else {
                Walk::WrongKey
            };
            if size < 7 {
                return wrong;
            }
            let padded = size.div_ceil(16) * 16;
            let end_of_header = at + 8 + padded as u64;
            if end_of_header > len {
                return cut(at, None, verified);
            }
            let mut header = vec![0u8; padded];
            match read_full(file, at + 8, &mut header) {
                Some(n) if n == padded => {}
                Some(_) => return cut(at, None, verified),
                None => return Walk::Nothing,
            }
            if cipher.clone().decrypt_in_place(&mut header).is_err() {
                return Walk::Nothing;
            }
            header.truncate(size);
            if crc32fast::hash(&header[2..]) as u16 != u16::from_le_bytes([header[0], header[1]]) {
                return wrong;
            }
            verified = true;
            let (kind, flags) = (header[2], u16::from_le_bytes([header[3], header[4]]));
            let Some(data) = rar15_data_size(&header, kind, flags) else {
                return Walk::Nothing;
            };
            let Some(end) = end_of_header.checked_add(data) else {
                return Walk::Nothing;
            };
            if end > len {
                let name = (kind == FILE_HEAD)
                    .then(|| rar15_name(&header, flags))
                    .flatten();
                return cut(at, name.map(|n| (files, n)), verified);
            }
            match kind {
                FILE_HEAD => files += 1,
                ENDARC_HEAD => return Walk::Nothing,
                _ => {}
            }
            at = end;
        }
        Walk::Nothing
    };
    for &p in passwords {
        match walk(p, &mut keys) {
            Walk::Cut(cut) => return Some((cut, p)),
            Walk::WrongKey => {}
            Walk::Nothing => return None,
        }
    }
    None
}

/// The signature of RAR 1.5 to 4 (its marker block).
const RAR15_SIGNATURE: &[u8] = b"Rar!\x1a\x07\x00";

/// RAR 1.5 to 4 block types: a file, the main header, and the archive's end.
const FILE_HEAD: u8 = 0x74;
const MAIN_HEAD: u8 = 0x73;
const ENDARC_HEAD: u8 = 0x7b;
/// The main header's flag: the headers after it are encrypted.
const MHD_PASSWORD: u16 = 0x0080;

/// The size of the data area after a RAR 1.5 to 4 block's `header` (of type `kind`,
/// with `flags`): the 32-bit size of a block that has one, with a large file's high 32
/// bits; `None` when the header is too short to hold them.
fn rar15_data_size(header: &[u8], kind: u8, flags: u16) -> Option<u64> {
    /// A block's flag: a data area follows its header (its size in the header).
    const LONG_BLOCK: u16 = 0x8000;
    /// A file header's flag: its sizes have high 32 bits.
    const LHD_LARGE: u16 = 0x0100;
    let word = |i: usize| -> Option<u64> {
        Some(u64::from(u32::from_le_bytes(
            header.get(i..i + 4)?.try_into().ok()?,
        )))
    };
    let mut data = if flags & LONG_BLOCK != 0 { word(7)? } else { 0 };
    if kind == FILE_HEAD && flags & LHD_LARGE != 0 {
        data |= word(32)? << 32;
    }
    Some(data)
}

/// [`cut_short`] for RAR 1.5 to 4 (no SFX, no encrypted headers): its blocks walked from
/// the marker, each header checked by its CRC (the low 16 bits of a CRC-32) and at most
/// 64 KiB (its size is 16 bits), each block's data skipped by its size (a file's packed
/// size, with the high 32 bits of a large one).
fn cut_short_rar15(file: &RangedFile) -> Option<Cut> {
    let len = file.len();
    let mut at = RAR15_SIGNATURE.len() as u64;
    let mut files = 0usize;
    let cut = |at: u64, entry| Some(Cut { at, entry });
    while at < len {
        let mut base = [0u8; 7];
        if read_full(file, at, &mut base)? < base.len() {
            return cut(at, None);
        }
        let kind = base[2];
        let flags = u16::from_le_bytes([base[3], base[4]]);
        let size = usize::from(u16::from_le_bytes([base[5], base[6]]));
        if size < base.len() {
            return None;
        }
        let end_of_header = at + size as u64;
        if end_of_header > len {
            return cut(at, None);
        }
        let mut header = vec![0u8; size];
        if read_full(file, at, &mut header)? != size {
            return cut(at, None);
        }
        let crc = u16::from_le_bytes([header[0], header[1]]);
        if crc32fast::hash(&header[2..]) as u16 != crc {
            return None;
        }
        let end = end_of_header.checked_add(rar15_data_size(&header, kind, flags)?)?;
        if end > len {
            // a file's header whole and its data cut: named
            let name = (kind == FILE_HEAD)
                .then(|| rar15_name(&header, flags))
                .flatten();
            return cut(at, name.map(|n| (files, n)));
        }
        match kind {
            FILE_HEAD => files += 1,
            MAIN_HEAD if flags & MHD_PASSWORD != 0 => return None,
            ENDARC_HEAD => return None,
            _ => {}
        }
        at = end;
    }
    None
}

/// The signature of RAR 1.3 (the format of RAR 1.402 and before): its main header's
/// first four bytes.
const RAR13_SIGNATURE: &[u8] = b"RE~^";

/// [`cut_short`] for RAR 1.3: the main header (its size at bytes 4 and 5, a comment
/// included), then a file header of 21 bytes and its name, and the file's packed data,
/// for each file in turn, to the end (the format has no end block). Its headers carry no
/// CRC, so a header is taken as one only when its size holds its fixed part and its
/// name; one that does not ends the walk with no row (the archive is named by the
/// reader's error, as a damaged one is).
fn cut_short_rar13(file: &RangedFile) -> Option<Cut> {
    /// A file header's fixed part: packed and unpacked sizes, CRC, header size, time,
    /// attributes, flags, version, name size, method.
    const FILE_HEAD: usize = 21;
    let len = file.len();
    let mut main = [0u8; 7];
    if read_full(file, 0, &mut main)? < main.len() {
        return None;
    }
    let mut at = u64::from(u16::from_le_bytes([main[4], main[5]]));
    if at < main.len() as u64 || at > len {
        return None;
    }
    let mut files = 0usize;
    let cut = |at: u64, entry| Some(Cut { at, entry });
    while at < len {
        let mut head = [0u8; FILE_HEAD];
        if read_full(file, at, &mut head)? < head.len() {
            return cut(at, None);
        }
        let packed = u64::from(u32::from_le_bytes([head[0], head[1], head[2], head[3]]));
        let size = usize::from(u16::from_le_bytes([head[10], head[11]]));
        let name_size = usize::from(head[19]);
        if size < FILE_HEAD + name_size {
            return None;
        }
        let end_of_header = at + size as u64;
        if end_of_header > len {
            return cut(at, None);
        }
        let end = end_of_header + packed;
        if end > len {
            // a file's header whole and its data cut: named
            let mut name = vec![0u8; name_size];
            if read_full(file, at + FILE_HEAD as u64, &mut name)? != name_size {
                return cut(at, None);
            }
            let name = String::from_utf8_lossy(&name).into_owned();
            return cut(at, Some((files, name)));
        }
        files += 1;
        at = end;
    }
    None
}

/// A RAR 1.5 to 4 file header's name, as the reader names the entry: with the Unicode
/// flag, the Unicode form (after the OEM form and a NUL, in RAR's own encoding, see
/// [`rar15_unicode_name`]; or, with no NUL, the whole field as UTF-8, as RAR 3 and 4
/// write it); else the OEM form (its bytes read as UTF-8 where they are, the code page
/// unknown).
fn rar15_name(header: &[u8], flags: u16) -> Option<String> {
    /// The file header's flag: its name has a Unicode form.
    const LHD_UNICODE: u16 = 0x0200;
    let n = usize::from(u16::from_le_bytes(header.get(26..28)?.try_into().ok()?));
    let from: usize = if flags & 0x0100 != 0 { 40 } else { 32 };
    let name = header.get(from..from.checked_add(n)?)?;
    let nul = name.iter().position(|&b| b == 0);
    if flags & LHD_UNICODE != 0 {
        match nul {
            Some(at) => return Some(rar15_unicode_name(&name[..at], &name[at + 1..])),
            None => return Some(String::from_utf8_lossy(name).into_owned()),
        }
    }
    let name = &name[..nul.unwrap_or(name.len())];
    Some(String::from_utf8_lossy(name).into_owned())
}

/// The Unicode form of a RAR 1.5 to 4 name: UTF-16 code units, each given by a two-bit
/// code of a flags byte (four codes a byte, high bits first): 0, a low byte; 1, a low
/// byte under the high byte the form begins with; 2, both bytes; 3, a run of the OEM
/// form's bytes from the same place, copied (a length byte under 0x80, the run 2 more)
/// or each moved by a correction byte under that high byte (a length byte of 0x80 and
/// more). Every step reads forward, and a run stops at the OEM form's end: linear, and
/// never more code units than the encoded bytes allow.
fn rar15_unicode_name(oem: &[u8], encoded: &[u8]) -> String {
    let Some((&high, mut rest)) = encoded.split_first() else {
        return String::from_utf8_lossy(oem).into_owned();
    };
    let high = u16::from(high) << 8;
    let mut units: Vec<u16> = Vec::with_capacity(oem.len());
    let (mut flags, mut codes) = (0u8, 0u32);
    fn next(rest: &mut &[u8]) -> Option<u8> {
        let (&b, tail) = rest.split_first()?;
        *rest = tail;
        Some(b)
    }
    while !rest.is_empty() {
        if codes == 0 {
            let Some(f) = next(&mut rest) else { break };
            (flags, codes) = (f, 4);
        }
        let code = flags >> 6;
        flags <<= 2;
        codes -= 1;
        let unit = match code {
            0 => next(&mut rest).map(u16::from),
            1 => next(&mut rest).map(|b| u16::from(b) | high),
            2 => next(&mut rest)
                .zip(next(&mut rest))
                .map(|(lo, hi)| u16::from_le_bytes([lo, hi])),
            _ => {
                let Some(len) = next(&mut rest) else { break };
                let moved = if len & 0x80 != 0 {
                    let Some(c) = next(&mut rest) else { break };
                    Some(c)
                } else {
                    None
                };
                for _ in 0..usize::from(len & 0x7f) + 2 {
                    let Some(&b) = oem.get(units.len()) else {
                        break;
                    };
                    units.push(match moved {
                        Some(c) => u16::from(b.wrapping_add(c)) | high,
                        None => u16::from(b),
                    });
                }
                continue;
            }
        };
        let Some(unit) = unit else { break };
        units.push(unit);
    }
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// A RAR5 file header's name, its fields from index `i` of `header` (after the data
/// area's size).
fn file_name(header: &[u8], i: usize) -> Option<String> {
    let (flags, i) = vint(header, i)?;
    let i = vint(header, i)?.1; // unpacked size
    let mut i = vint(header, i)?.1; // attributes
    if flags & 2 != 0 {
        i += 4; // modification time
    }
    if flags & 4 != 0 {
        i += 4; // CRC-32 of the data
    }
    let i = vint(header, i)?.1; // compression
    let i = vint(header, i)?.1; // host OS
    let (n, i) = vint(header, i)?;
    let name = header.get(i..i.checked_add(usize::try_from(n).ok()?)?)?;
    Some(String::from_utf8_lossy(name).into_owned())
}

/// Fills `buf` from `at` of `file` as far as the file goes: the bytes read.
fn read_full(file: &RangedFile, at: u64, buf: &mut [u8]) -> Option<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(at + got as u64, &mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A RAR fixture's entries read with `passwords` and a key budget of `key_rounds`:
    /// the problems named, and each member's name and decoded bytes.
    fn read(name: &str, passwords: &[&str], key_rounds: u64) -> (Vec<String>, usize) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/archives/rar")
            .join(name);
        let bytes = std::fs::read(&path).unwrap();
        let file = Arc::new(RangedFile::in_memory(Arc::from(bytes)));
        let root = PathBuf::from("/case/h.rar");
        let mut tree = Tree::new(&root);
        let password = (!passwords.is_empty()).then(|| ArchivePassword::any_of(passwords));
        let decoded = entries_within(
            &file,
            &[],
            &mut tree,
            password.as_ref(),
            1 << 30,
            None,
            key_rounds,
        )
        .unwrap();
        let problems = tree.problems.iter().map(|(_, why)| why.clone()).collect();
        (problems, decoded.len() as usize)
    }

    /// The later volumes of a set are named as WinRAR names them, padded as the first.
    #[test]
    fn volumes_are_named_as_winrar_names_them() {
        for (first, n, want) in [
            ("x.part1.rar", 2, "x.part2.rar"),
            ("x.part01.rar", 12, "x.part12.rar"),
            ("X.PART001.RAR", 3, "X.PART003.RAR"),
            ("a.b.part1.rar", 10, "a.b.part10.rar"),
            // the older naming: `.r00` after the `.rar`, `.s00` after `.r99`
            ("x.rar", 2, "x.r00"),
            ("x.rar", 12, "x.r10"),
            ("a.b.rar", 101, "a.b.r99"),
            ("a.b.rar", 102, "a.b.s00"),
            ("X.RAR", 3, "X.R01"),
            ("x.Rar", 3, "x.r01"),
            ("x.rar", 901, "x.z99"),
            // a RAR named as part 1 is read as a part, not the first of `.r00` ...
            ("x.part1.rar", 3, "x.part3.rar"),
            // (and one named as a part but not the first names none: below)
        ] {
            assert_eq!(volume_name(first, n).as_deref(), Some(want), "{first} {n}");
        }
        for not_first in [
            "x.part2.rar",
            "x.r00",
            ".rar",
            "x.part1.zip",
            "x.part1.rar.gz",
            "x.rar.gz",
        ] {
            assert_eq!(volume_name(not_first, 2), None, "{not_first}");
        }
        // past `.z99` the older naming names no more
        assert_eq!(volume_name("x.rar", 902), None);
        assert_eq!(volume_name("x.part1.rar", 1), None);
        assert_eq!(volume_name("x.rar", 1), None);
        for (later, first) in [
            ("x.part02.rar", "x.part01.rar"),
            ("x.r00", "x.rar"),
            ("x.s17", "x.rar"),
            ("X.R05", "X.RAR"),
            ("a.b.z99", "a.b.rar"),
        ] {
            assert_eq!(first_volume_of(later).as_deref(), Some(first), "{later}");
        }
        for not_later in [
            "x.part1.rar",
            "x.rar",
            "x.q00",
            "x.r0",
            "x.r0a",
            ".r00",
            "x.r000",
        ] {
            assert_eq!(first_volume_of(not_later), None, "{not_later}");
        }
        // characters of any width before the number: no cut inside one
        for name in [
            "\u{20ac}1.rar",
            "a\u{20ac}\u{20ac}.rar",
            "\u{20ac}\u{20ac}1.rar",
            "\u{20ac}\u{20ac}2.rar",
            "\u{e9}.part2.rar",
            "\u{20ac}.rar",
        ] {
            let _ = (volume_name(name, 2), first_volume_of(name));
        }
        assert_eq!(
            first_volume_of("\u{e9}.part2.rar").as_deref(),
            Some("\u{e9}.part1.rar")
        );
    }

    /// A RAR5 archive cut anywhere is whole before the block the cut falls in (the
    /// reader opens that much of it); whole, damaged, or encrypted from its headers it
    /// is not taken as cut.
    #[test]
    fn a_cut_is_found_at_the_block_it_falls_in() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/archives/rar/collection.rar");
        let bytes = std::fs::read(&path).unwrap();
        let of = |b: &[u8]| cut_short(&RangedFile::in_memory(Arc::from(b)));
        assert_eq!(of(&bytes), None);
        let opens = |len: u64| {
            let whole = Cursor {
                file: Arc::new(RangedFile::in_memory(Arc::from(&bytes[..len as usize]))),
                pos: 0,
            };
            ArchiveReader::read_reader_with_options(whole, Bounds::new(1 << 30, len).options(None))
                .is_ok()
        };
        let mut cuts = 0;
        for len in (9..bytes.len()).step_by(613) {
            match of(&bytes[..len]) {
                Some(cut) => {
                    assert!(cut.at >= 8 && cut.at < len as u64, "{len}: {cut:?}");
                    assert!(!opens(len as u64), "{len}");
                    // the signature alone (its main header cut) is not opened: the
                    // archive is named not read
                    assert_eq!(opens(cut.at), cut.at > 8, "{len}: {cut:?}");
                    cuts += 1;
                }
                // a cut at the end of a block: the archive is whole as far as it goes
                None => assert!(opens(len as u64), "{len}"),
            }
        }
        assert_eq!(cuts, 202);
        // the data of entry 2 cut: its name, from its whole header
        assert_eq!(
            of(&bytes[..3000]),
            Some(Cut {
                at: 554,
                entry: Some((
                    2,
                    "tabby-srv/var/lib/docker/volumes/tabby_data/_data/ee/db.sqlite".into()
                ))
            })
        );
        // a header's CRC turned: damage, not a cut
        let mut turned = bytes[..3000].to_vec();
        turned[554] ^= 1;
        assert_eq!(of(&turned), None);
        // encrypted headers: not walked
        let locked = std::fs::read(path.with_file_name("locked/lin-ws01.rar")).unwrap();
        assert_eq!(of(&locked[..locked.len() / 2]), None);
        assert_eq!(of(b"Rar!\x1a\x07\x00"), None);
    }

    /// Each encrypted member's key costs its rounds of the budget, wrong passwords'
    /// included; a member past it is named, and the members after it that need no key
    /// are still read. Of a solid stream, the members after it are named together.
    #[test]
    fn keys_past_the_budget_are_named_not_derived() {
        let transcript = "\"home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl\"";
        // WinRAR's 2^15 rounds a key: the history's key fits in 2^15, the transcript's not
        assert_eq!(
            read("mixed/lin-ws01.rar", &["alpha", "beta"], 1 << 15),
            (
                vec![format!(
                    "archive entry 1 not read: its key asks for 32768 rounds of key derivation more, over the 32768 rounds this reader spends on one archive: {transcript}"
                )],
                // the nine files but the transcript (22,528 bytes), the history among them
                6_565
            )
        );
        // both fit in 2^17 (each member's key derived once with the right password)
        assert_eq!(
            read("mixed/lin-ws01.rar", &["alpha", "beta"], 1 << 17).0,
            Vec::<String>::new()
        );
        // `beta` first: its key for the history (wrong) and the transcript spend the
        // budget, and `alpha` comes too late for the history
        assert_eq!(
            read("mixed/lin-ws01.rar", &["beta", "alpha"], 1 << 16).0,
            vec![
                "archive entry 0 not read: its key asks for 32768 rounds of key derivation more, over the 65536 rounds this reader spends on one archive: \"home/alice/.claude/history.jsonl\"".to_string()
            ]
        );
        // a solid stream: its first file's key is past the budget, so none is read
        let (problems, len) = read("locked/solid.rar", &["hunter2"], 0);
        assert_eq!(len, 0);
        assert_eq!(problems.len(), 11, "{problems:?}");
        assert!(problems[0].starts_with("archive entry 0 not read: its key asks for 32768 rounds of key derivation more, over the 0 rounds this reader spends on one archive: "), "{problems:?}");
        assert_eq!(
            problems[1],
            "archive entries not read: the solid RAR's stream cannot be decoded past an entry not read; 9 of its entries not read"
        );
        // and each of the nine by its name
        let named: Vec<&str> = problems[2..]
            .iter()
            .filter_map(|p| p.split_once(" not read: the solid RAR's stream runs through an entry before it that was not read: \"home/alice/.claude/"))
            .map(|(entry, _)| entry)
            .collect();
        assert_eq!(
            named,
            (1..10)
                .map(|i| format!("archive entry {i}"))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            read("locked/solid.rar", &["hunter2"], RAR_KEY_ROUNDS).0,
            Vec::<String>::new()
        );
    }

    /// A solid stream's member decoded again only to carry the stream to the members
    /// still locked (read on an earlier pass) costs its key as any other: past the
    /// budget, the stream stops there and the members after it are named, together and
    /// each.
    #[test]
    fn a_member_decoded_only_to_carry_a_stream_costs_its_key() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/archives/rar/locked/solid.rar");
        let bytes = std::fs::read(&path).unwrap();
        let file = Arc::new(RangedFile::in_memory(Arc::from(bytes)));
        let bounds = Bounds::new(1 << 30, file.len());
        let archive =
            ArchiveReader::read_reader_with_options(Cursor { file, pos: 0 }, bounds.options(None))
                .unwrap();
        let set = vec![archive];
        let members: Vec<ArchiveMember> = set[0].members().collect();
        let rounds = key_costs(&set, &members);
        let keyed: Vec<usize> = (0..members.len()).filter(|&i| rounds[i] > 0).collect();
        assert_eq!(keyed.len(), 10, "{rounds:?}");
        assert!(keyed.iter().all(|&i| rounds[i] == 1 << 15), "{rounds:?}");
        // a pass with the right password after the first file was read on an earlier
        // one: decoding the stream to the others costs all ten keys
        let run = |budget: u64| {
            let ctx = Ctx {
                set: &set,
                members: &members,
                solid: true,
                what: "solid RAR",
                rounds: &rounds,
                spent: std::cell::Cell::new(0),
                key_rounds: budget,
                stopped: std::cell::Cell::new(false),
                from: 0,
                bounds,
            };
            let mut fate: Vec<Fate> = members
                .iter()
                .map(|m| {
                    if m.meta.is_directory {
                        Fate::NoBytes
                    } else {
                        Fate::Locked
                    }
                })
                .collect();
            fate[keyed[0]] = Fate::Read(0, 0);
            let out = Rc::new(RefCell::new(Decoded::new(None).unwrap()));
            let root = PathBuf::from("/case/h.rar");
            let mut tree = Tree::new(&root);
            let ended = pass(&ctx, &mut fate, &out, Some(b"hunter2"), true, &mut tree);
            assert!(ended.is_none());
            let problems: Vec<String> = tree.problems.iter().map(|(_, w)| w.clone()).collect();
            let read = fate.iter().filter(|f| matches!(f, Fate::Read(..))).count();
            (problems, read, ctx.spent.get(), ctx.stopped.get())
        };
        // the ten keys fit: the nine locked files are read (ten with the first)
        assert_eq!(run(10 << 15), (Vec::new(), 10, 10 << 15, false));
        // nine keys (what the nine locked files alone would cost): the first file's key
        // is spent carrying the stream, and the last file's is past the budget
        let (problems, read, spent, stopped) = run(9 << 15);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(&format!(
                "archive entry {} not read: its key asks for 32768 rounds of key derivation more, over the 294912 rounds this reader spends on one archive: ",
                keyed[9]
            )),
            "{problems:?}"
        );
        assert_eq!((read, spent, stopped), (9, 9 << 15, true));
        // no key at all: the stream stops at the file read before, and the nine after it
        // are named with it
        let (problems, read, spent, stopped) = run(0);
        let mut want = vec![format!(
            "archive entries not read: the solid RAR's stream runs through entry {} ({}), whose key asks for 32768 rounds of key derivation more, over the 0 rounds this reader spends on one archive; 9 of its entries not read",
            keyed[0],
            quoted(&name_of(&members[keyed[0]]))
        )];
        for &k in &keyed[1..] {
            want.push(format!(
                "archive entry {k} not read: the solid RAR's stream runs through entry {}, whose key is past the rounds this reader spends: {}",
                keyed[0],
                quoted(&name_of(&members[k]))
            ));
        }
        assert_eq!(problems, want);
        assert_eq!((read, spent, stopped), (1, 0, true));
    }
}
