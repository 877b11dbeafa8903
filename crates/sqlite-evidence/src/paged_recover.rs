//! The paged mode's share of what the in-memory mode recovers beyond a live table's
//! free space: dropped tables, orphaned pages, and tables of a schema SQLite could not
//! read.
//!
//! # Why a module of its own, inside `recover`
//!
//! [`crate::paged::PagedDatabase`] reads pages on demand so that a database of any size
//! is carved in bounded memory; [`crate::Database`] also finds the tables `DROP TABLE`
//! removed (their `CREATE TABLE` text in a freed schema record), the table leaf pages no
//! b-tree and no freelist names (a page cut out of its tree, a dropped table's page),
//! and, when SQLite cannot read page 1's b-tree, the schema from any page that holds
//! schema records. The paged mode does the same here, with the same decoders (this
//! module is a child of `recover`, so it uses the carver itself, not a copy) and the
//! same memory rule: page-number sets and 64-bit fingerprints, never pages.
//!
//! Two things differ from the in-memory mode, by design. There is no SQLite to ask
//! whether the schema is readable, so the schema counts as unreadable when page 1's
//! b-tree is not whole (a child page past the end of the files, or not a b-tree page:
//! a truncated file reads as zeros there). And there are no snapshots: a dropped
//! table's pages are read where the image and the older page versions still hold them,
//! each page judged by its own cells (a page another table took since is carved only
//! in its unallocated gap, and only where its owner's shape finds no record of its own).

use std::collections::HashSet;

use super::{
    DroppedFit, DroppedList, DroppedTable, Found, Reach, RecoveredRecord, Recoverer, SchemaEntry,
    Sieve, Snapshot, Src, Strict, TableShape, add_dropped, entry_of, key, paged_older_versions,
    paged_schema, partial_key, record, status_name, stream_tree, table_owners,
};
use crate::decode::{FrameStatus, be16, be32};
use crate::paged::PageSource;

/// Whether page 1's b-tree (the schema) is whole: every page it names is in the image
/// and is a table b-tree page. A truncated file's missing pages read as zeros, which
/// is no b-tree page, so its schema is unreadable, as SQLite finds it.
pub(crate) fn schema_readable(ps: &PageSource) -> bool {
    let mut stack = vec![1u32];
    let mut visited = HashSet::new();
    while let Some(p) = stack.pop() {
        if p == 0 || p > ps.page_count() || !visited.insert(p) {
            return false;
        }
        let Some(b) = ps.page(p) else { return false };
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(0x0d) => {}
            Some(0x05) => {
                let n = be16(&b, h + 3) as usize;
                if h + 12 + 2 * n > b.len() {
                    return false;
                }
                stack.push(be32(&b, h + 8));
                for c in 0..n {
                    let ptr = be16(&b, h + 12 + 2 * c) as usize;
                    if ptr + 4 > b.len() {
                        return false;
                    }
                    stack.push(be32(&b, ptr));
                }
            }
            _ => return false,
        }
    }
    true
}

/// The schema read by hand: page 1's b-tree and, when it is not whole, the schema
/// records of every table leaf page whose cells fit `sqlite_master` (one page at a
/// time; only the records are kept).
pub(crate) fn schema_entries(ps: &PageSource, readable: bool) -> Vec<SchemaEntry> {
    let mut out = paged_schema(ps);
    if !readable {
        let mut rec = Recoverer::with_src(Src::Paged(ps), TableShape::master(), Snapshot::new());
        let none = HashSet::new();
        for p in 2..=ps.page_count() {
            let Some(b) = ps.page(p) else { continue };
            if b.first() == Some(&0x0d) && rec.may_own(&b, p, &none, &none) {
                rec.cells(&b, p, &format!("page {p}"), Strict::Carved, None);
                out.extend(
                    rec.found
                        .drain(..)
                        .filter_map(|f| entry_of(&f.values, f.location)),
                );
            }
        }
    }
    let mut seen = HashSet::new();
    out.retain(|e| seen.insert((e.kind.clone(), e.name.clone())));
    out
}

/// What is being recovered, and how its records relate to what SQLite would show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `sqlite_master` itself (freed schema records: dropped tables).
    Master,
    /// A table dropped from the schema, by its recovered `CREATE TABLE` text.
    Dropped,
    /// A table of a schema SQLite cannot read: its cells are live records it cannot
    /// reach.
    Unreadable,
}

/// The dropped tables whose `CREATE TABLE` text survives in a freed schema record (see
/// [`DroppedTable`]), as [`crate::Database::dropped_tables`] finds them.
pub(crate) fn dropped_tables(ps: &PageSource, readable: bool) -> Vec<DroppedTable> {
    let live: HashSet<String> = schema_entries(ps, readable)
        .into_iter()
        .filter(|e| e.kind == "table")
        .map(|e| e.name)
        .collect();
    let mut out = DroppedList::default();
    carve(
        ps,
        "sqlite_master",
        TableShape::master(),
        Kind::Master,
        &mut |r| add_dropped(r, &live, &mut out),
    );
    out.list
}

/// The deleted records of `table` in the paged mode: a live table's through
/// [`super::paged_deleted`], without the records that fit a dropped table of another
/// shape, then its orphaned pages; a dropped table's, by its recovered text; a table of
/// an unreadable schema, by the text read by hand, as unreachable records.
pub(crate) fn deleted(
    ps: &PageSource,
    table: &str,
    readable: bool,
    dropped: &[DroppedTable],
    each: &mut dyn FnMut(RecoveredRecord),
) -> usize {
    let is_master =
        table.eq_ignore_ascii_case("sqlite_master") || table.eq_ignore_ascii_case("sqlite_schema");
    if is_master {
        return carve(
            ps,
            "sqlite_master",
            TableShape::master(),
            Kind::Master,
            each,
        );
    }
    let live_entry = paged_schema(ps)
        .into_iter()
        .find(|e| e.kind == "table" && e.name == table);
    if readable && live_entry.is_some() {
        return live_table(ps, table, dropped, each);
    }
    if let Some(d) = dropped.iter().find(|d| d.name == table) {
        let Some(shape) = TableShape::from_sql(&d.sql, d.rootpage) else {
            return 0;
        };
        return carve(ps, table, shape, Kind::Dropped, each);
    }
    if readable {
        return 0;
    }
    let Some(e) = schema_entries(ps, readable)
        .into_iter()
        .find(|e| e.kind == "table" && e.name == table)
    else {
        return 0;
    };
    let Some(shape) = TableShape::from_sql(&e.sql, e.rootpage) else {
        return 0;
    };
    carve(ps, table, shape, Kind::Unreadable, each)
}

/// A live table: [`super::paged_deleted`]'s records (without those that fit a dropped
/// table whose columns differ: the dropped table's pages were reused), then the cells of
/// the table leaf pages no b-tree reaches and no freelist lists, which fit the table:
/// live records SQLite cannot reach.
fn live_table(
    ps: &PageSource,
    table: &str,
    dropped: &[DroppedTable],
    each: &mut dyn FnMut(RecoveredRecord),
) -> usize {
    let entry = paged_schema(ps)
        .into_iter()
        .find(|e| e.kind == "table" && e.name == table);
    // a WITHOUT ROWID table's records live in an index b-tree: its orphaned pages are
    // index leaves, and the attribution below compares rowid tables' shapes only
    let rowid_table = entry
        .as_ref()
        .is_some_and(|e| !e.sql.to_ascii_uppercase().contains("WITHOUT ROWID"));
    let shape = entry.and_then(|e| TableShape::from_sql(&e.sql, e.rootpage));
    let rowid_shape = shape.as_ref().filter(|_| rowid_table);
    let dropped_shapes: Vec<TableShape> = dropped
        .iter()
        .filter_map(|d| TableShape::from_sql(&d.sql, d.rootpage.max(1)))
        .collect();
    let mut dropped_fit = rowid_shape.map(|s| DroppedFit::new(s, &dropped_shapes));
    let alias = shape.as_ref().and_then(|s| s.alias);
    let mut emitted: HashSet<u64> = HashSet::new();
    let mut n = 0;
    // orphaned pages first: their cells are live records SQLite cannot reach, and
    // stale copies of them (a root's free space keeps its first leaf's rows from before
    // the root split) must not stand for them as deleted
    if let Some(shape) = &shape {
        for f in orphans(ps, table, shape, rowid_table) {
            if f.missing.is_empty() && emitted.insert(key(&f.values, alias)) {
                each(record(f));
                n += 1;
            }
        }
    }
    super::paged_deleted(ps, table, &mut |r| {
        if let Some(fit) = dropped_fit.as_mut() {
            if r.reach == Reach::Deleted && fit.fits(&r.values) {
                return;
            }
        }
        if !emitted.insert(key(&r.values, alias)) && r.missing.is_empty() {
            return;
        }
        each(r);
        n += 1;
    });
    n
}

/// The records of the table leaf pages that no b-tree reaches and no freelist lists and
/// that fit `shape` (one pass over the file, after the page numbers of every b-tree and
/// of the freelist): their cells as unreachable, without copies of live rows, and what
/// their free space keeps, carved as the deleted-record pass carves (primed by the live
/// rows, which are walked only when there is such a page).
fn orphans(ps: &PageSource, table: &str, shape: &TableShape, rowid_table: bool) -> Vec<Found> {
    let mut known = super::paged_tree_pages(ps);
    known.extend(freelist_pages(ps));
    let mine = super::paged_tree(ps, shape.root);
    let leaf = if rowid_table { 0x0d } else { 0x0a };
    // the pages that begin as a leaf, found once per source by their first byte alone
    // (every table's recovery asks; the file is mostly overflow pages)
    let loose = ps.loose_leaves(|| {
        (2..=ps.page_count())
            .filter(|p| !known.contains(p))
            .filter_map(|p| Some((p, ps.first_byte(p)?)))
            .filter(|&(_, t)| t == 0x0d || t == 0x0a)
            .collect()
    });
    let pages: Vec<u32> = {
        let rec = Recoverer::with_src(Src::Paged(ps), shape.clone(), Snapshot::new());
        loose
            .iter()
            .filter(|&&(_, t)| t == leaf)
            .filter(|&&(p, _)| {
                ps.page(p)
                    .is_some_and(|b| b.first() == Some(&leaf) && rec.may_own(&b, p, &mine, &known))
            })
            .map(|&(p, _)| p)
            .collect()
    };
    if pages.is_empty() {
        return Vec::new();
    }
    let (mut rec, sieve, _) = super::paged_primed(ps, table, shape.clone());
    let mut found: Vec<Found> = Vec::new();
    for p in pages {
        let Some(b) = ps.page(p) else { continue };
        let name = format!("orphan page {p}");
        rec.cells(&b, p, &name, Strict::Carved, None);
        for f in &mut rec.found {
            f.reach = Reach::Unreachable;
        }
        rec.carve_page(&b, p, &name);
        // (a WITHOUT ROWID table's records back in table order, as the live rows read)
        for mut f in std::mem::take(&mut rec.found) {
            rec.to_table_order(&mut f);
            found.push(f);
        }
    }
    // copies of live rows are no orphans' records
    found.retain(|f| f.missing.is_empty() && !sieve.is_live(&f.values));
    found
}

/// The trunk and leaf pages of the image's freelist.
fn freelist_pages(ps: &PageSource) -> HashSet<u32> {
    let mut out = HashSet::new();
    let limit = ps.page_count();
    let mut trunk = ps.header().freelist_trunk;
    while trunk != 0 && trunk <= limit && out.insert(trunk) {
        let Some(b) = ps.page(trunk) else { break };
        let count = (be32(&b, 4) as usize).min(b.len().saturating_sub(8) / 4);
        out.extend(
            (0..count)
                .map(|k| be32(&b, 8 + 4 * k))
                .filter(|&p| p != 0 && p <= limit),
        );
        trunk = be32(&b, 0);
    }
    out
}

/// Carves the image and the older page versions for a table that has no live rows the
/// paged walk could give ([`Kind`]), handing each record on as it is found; returns
/// how many. Copies of live rows (for `sqlite_master`, its live records) and repeats are
/// dropped by fingerprint; a partial record only when its surviving columns are not
/// those of a live row or of a record already returned.
fn carve(
    ps: &PageSource,
    table_name: &str,
    shape: TableShape,
    kind: Kind,
    each: &mut dyn FnMut(RecoveredRecord),
) -> usize {
    let alias = shape.alias;
    let ncols = shape.affinities.len();
    let encoding = ps.header().text_encoding;
    let root = shape.root;
    let mut rec = Recoverer::with_src(Src::Paged(ps), shape, Snapshot::new());
    // 1. The live records (the schema's own, for sqlite_master; none otherwise: SQLite
    //    shows none of a dropped table or of a table of an unreadable schema).
    let mut sieve = Sieve::new(alias, ncols, encoding);
    if kind == Kind::Master {
        stream_tree(ps, 1, &mut |page, b, leaf| {
            if !leaf {
                return;
            }
            rec.cells(b, page, "page", Strict::Known, None);
            for f in rec.found.drain(..) {
                sieve.observe_live(f.rowid, &f.values);
            }
        });
    }
    rec.max_rowid = sieve.max_rowid;
    rec.seen = sieve.seen.clone();
    // 2. The pages of the live b-trees (the table's own, for the schema and an
    //    unreadable schema's table, apart).
    let entries = match kind {
        Kind::Unreadable => schema_entries(ps, false),
        _ => paged_schema(ps),
    };
    let mut table_pages: HashSet<u32> = HashSet::new();
    let mut others: HashSet<u32> = HashSet::new();
    let own_root = match kind {
        Kind::Master => Some(1),
        Kind::Unreadable => Some(root),
        Kind::Dropped => None,
    };
    for r in entries
        .iter()
        .map(|e| e.rootpage)
        .chain([1])
        .filter(|&r| r > 0)
    {
        let set = if Some(r) == own_root {
            &mut table_pages
        } else {
            &mut others
        };
        stream_tree(ps, r, &mut |p, _, _| {
            set.insert(p);
        });
    }
    if kind == Kind::Unreadable {
        // the root's pages are the table's, not another tree's
        others.retain(|p| !table_pages.contains(p));
    }
    rec.live_trees = others.union(&table_pages).copied().collect();
    rec.free_leaves = rec.free_leaf_pages(ps.header().freelist_trunk, ps.page_count());
    // the other b-trees as the main file holds them too (see [`main_file_trees`]); a
    // dropped table's own tree there is its
    let except = match kind {
        Kind::Master => "sqlite_master".to_string(),
        Kind::Dropped | Kind::Unreadable => table_name.to_string(),
    };
    others.extend(main_file_trees(ps, &except));
    others.retain(|p| !table_pages.contains(p));

    let mut n = 0usize;
    let mut flush = |rec: &mut Recoverer<'_>| {
        for mut f in std::mem::take(&mut rec.found) {
            // a WITHOUT ROWID table's (a dropped one's) records back in table order
            rec.to_table_order(&mut f);
            if let Some(f) = sieve.admit(f) {
                each(record(f));
                n += 1;
            }
        }
    };

    // 2b. For a table of an unreadable schema, its live records before anything is
    //     carved (a stale copy met first in a page's free space would stand for the
    //     record, as deleted): the cells of its own pages (an index b-tree's interior
    //     cells hold records too), then of the table leaf pages no b-tree reaches and no
    //     freelist lists, which fit it; all live records SQLite cannot reach.
    let index = rec.shape.is_index();
    let leaf_kind = if index { 0x0a } else { 0x0d };
    if kind == Kind::Unreadable {
        let freelist = freelist_pages(ps);
        stream_tree(ps, root, &mut |page, b, leaf| {
            if leaf || index {
                rec.cells(b, page, &format!("page {page}"), Strict::Known, None);
                for f in &mut rec.found {
                    f.reach = Reach::Unreachable;
                }
                flush(&mut rec);
            }
        });
        for p in 2..=ps.page_count() {
            if table_pages.contains(&p) || freelist.contains(&p) || others.contains(&p) {
                continue;
            }
            let Some(b) = ps.page(p) else { continue };
            if b.first() != Some(&leaf_kind) || !rec.may_own(&b, p, &table_pages, &others) {
                continue;
            }
            let name = format!("orphan page {p}");
            rec.cells(&b, p, &name, Strict::Carved, None);
            for f in &mut rec.found {
                f.reach = Reach::Unreachable;
            }
            rec.carve_page(&b, p, &name);
            flush(&mut rec);
        }
    }
    // 3. The schema's older versions of page 1 first (the main file's, then each
    //    superseded frame: where the in-memory mode meets a dropped table's record
    //    first), as whole cells of the schema.
    if kind == Kind::Master {
        if ps.wal_pages().contains(&1) {
            if let Some(b) = ps.main_page(1) {
                let name = "main file page 1".to_string();
                rec.cells(&b, 1, &name, Strict::Known, None);
                rec.carve_page(&b, 1, &name);
                flush(&mut rec);
            }
        }
        for i in 0..ps.wal().frames.len() {
            let f = ps.wal().frames[i];
            if f.page != 1 || ps.is_latest(i) {
                continue;
            }
            let Some(b) = ps.frame_page(i) else { continue };
            let name = match f.status {
                FrameStatus::Committed => format!("wal frame {} (page 1)", i + 1),
                s => format!("wal frame {} (page 1, {})", i + 1, status_name(s)),
            };
            rec.cells(&b, 1, &name, Strict::Known, None);
            rec.carve_page(&b, 1, &name);
            flush(&mut rec);
        }
    }
    // 4. The table's own pages in the image: free space; for a table of an unreadable
    //    schema, its cells too (live records SQLite cannot reach).
    //    Interior pages (stale leaf content after a root split) after the leaves, as
    //    the in-memory mode reads them, so that a leaf's record is met before its copy.
    if let Some(r) = own_root {
        let mut interiors = Vec::new();
        stream_tree(ps, r, &mut |page, b, leaf| {
            if !leaf {
                interiors.push(page);
                return;
            }
            let name = format!("page {page}");
            rec.carve_page(b, page, &name);
            rec.carve_unreachable(b, page, &name);
            flush(&mut rec);
        });
        for page in interiors {
            if let Some(b) = ps.page(page) {
                let name = format!("page {page}");
                rec.carve_page(&b, page, &name);
                // an index b-tree's interior pages hold records: a cell no pointer names
                if index {
                    rec.carve_unreachable(&b, page, &name);
                }
                flush(&mut rec);
            }
        }
    }
    // 5. The freelist.
    let mut freelist = HashSet::new();
    rec.carve_freelist(
        ps.header().freelist_trunk,
        ps.page_count(),
        &table_pages,
        &others,
        &mut freelist,
        &mut flush,
    );
    // 6. Older versions of the pages the WAL rewrote (page 1's are done for the
    //    schema). A dropped table's pages were since taken by other tables: their
    //    older versions are judged by their own cells only.
    let none = HashSet::new();
    let judge = if kind == Kind::Dropped {
        &none
    } else {
        &others
    };
    if kind != Kind::Master {
        paged_older_versions(&mut rec, ps, &table_pages, judge, &mut flush);
    }
    // 7. For a dropped table, the table leaf pages no b-tree reaches and no freelist
    //    lists: their cells when they fit; and the free space of every leaf page (other
    //    tables may have taken its pages). (An unreadable schema's table had its
    //    orphaned pages read in 2b, as live records.)
    if kind == Kind::Dropped {
        // each other table's pages and a carver of its shape (see
        // [`Recoverer::carve_gap_for_dropped`])
        let (owner_of, mut owners) = table_owners(
            &entries,
            table_name,
            &mut |root, each| stream_tree(ps, root, &mut |p, _, _| each(p)),
            &mut |shape| Recoverer::with_src(Src::Paged(ps), shape, Snapshot::new()),
        );
        for p in 2..=ps.page_count() {
            if table_pages.contains(&p) || freelist.contains(&p) {
                continue;
            }
            let Some(b) = ps.page(p) else { continue };
            if b.first() != Some(&leaf_kind) {
                continue;
            }
            if !others.contains(&p) {
                if rec.may_own(&b, p, &table_pages, &others) {
                    let name = format!("orphan page {p}");
                    rec.cells(&b, p, &name, Strict::Carved, None);
                    rec.carve_page(&b, p, &name);
                }
            } else {
                let owner = owner_of.get(&p).and_then(|&i| owners.get_mut(i));
                rec.carve_gap_for_dropped(&b, p, &format!("page {p}"), owner);
            }
            flush(&mut rec);
        }
    }
    // 8. Partial records, unless their surviving columns are a returned record's (or,
    //    for the schema table, a live schema record's).
    for f in sieve.partials(|patterns, known| {
        if kind != Kind::Master {
            return;
        }
        stream_tree(ps, 1, &mut |page, b, leaf| {
            if !leaf {
                return;
            }
            rec.cells(b, page, "page", Strict::Known, None);
            for f in rec.found.drain(..) {
                for p in patterns {
                    known.insert(partial_key(&f.values, alias, p));
                }
            }
        });
    }) {
        each(record(f));
        n += 1;
    }
    n
}

/// Calls `each(page, bytes, is_leaf)` for every page of the b-tree rooted at `root` as
/// the main file holds it (the WAL's frames not laid over), one page at a time.
fn main_tree(ps: &PageSource, root: u32, each: &mut dyn FnMut(u32, &[u8], bool)) {
    let mut stack = vec![root];
    let mut visited = HashSet::new();
    while let Some(p) = stack.pop() {
        if p == 0 || p > ps.main_page_count() || !visited.insert(p) {
            continue;
        }
        let Some(b) = ps.main_page(p) else { continue };
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(0x0d | 0x0a) => each(p, &b, true),
            Some(0x05 | 0x02) => {
                let n = be16(&b, h + 3) as usize;
                stack.push(be32(&b, h + 8));
                for c in 0..n.min(b.len() / 2) {
                    let ptr = be16(&b, h + 12 + 2 * c) as usize;
                    stack.push(be32(&b, ptr));
                }
                each(p, &b, false);
            }
            _ => {}
        }
    }
}

/// The page numbers of the b-trees of the main file's own schema (read from its page
/// 1), but `except`'s (and the schema's own for `sqlite_master`); empty without a WAL,
/// where the main file is the image. A page a WAL commit freed was such a tree's: a
/// freed page without cells is judged by its number, as the in-memory mode judges it
/// against the main file's trees and the image's.
pub(crate) fn main_file_trees(ps: &PageSource, except: &str) -> HashSet<u32> {
    let mut out = HashSet::new();
    if ps.wal_pages().is_empty() {
        return out;
    }
    let master = except.eq_ignore_ascii_case("sqlite_master")
        || except.eq_ignore_ascii_case("sqlite_schema");
    let mut rec = Recoverer::with_src(Src::Paged(ps), TableShape::master(), Snapshot::new());
    let mut roots = Vec::new();
    main_tree(ps, 1, &mut |p, b, leaf| {
        if !master {
            out.insert(p);
        }
        if leaf {
            rec.cells(b, p, "main file", Strict::Known, None);
            for f in rec.found.drain(..) {
                if let Some(e) = entry_of(&f.values, String::new()) {
                    if e.rootpage > 1 && e.name != except {
                        roots.push(e.rootpage);
                    }
                }
            }
        }
    });
    for r in roots {
        main_tree(ps, r, &mut |p, _, _| {
            out.insert(p);
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::TableShape;

    /// A carved `CREATE TABLE` text whose 12th byte lies inside a character (found by
    /// the fuzz target through the paged mode's dropped tables) is refused, not a panic.
    #[test]
    fn a_create_text_cut_inside_a_character_is_refused() {
        assert!(TableShape::from_sql("CREATE TABL\u{e9} x (a)", 1).is_none());
        assert!(TableShape::from_sql("\u{e9}", 1).is_none());
        assert!(TableShape::from_sql("CREATE TABLE x (a TEXT)", 2).is_some());
    }
}
