//! The global database read page by page, for files too large to load whole.
//!
//! # Why
//!
//! Cursor's global `state.vscdb` is never vacuumed and reaches tens of gigabytes.
//! [`sqlite_evidence::Database`] holds the main file, the WAL and SQLite's copy of the
//! image (about three times the file), so above [`Paging::from_bytes`] (or above the
//! evidence size cap, which `Database` cannot pass) the database is read through
//! [`sqlite_evidence::paged::PagedDatabase`] instead: pages read on demand, live records
//! walked in rowid order, deleted records carved a page at a time, each handed to a
//! callback. SQLite is not involved, so there is no key index to look a key up in.
//!
//! The rows must still be the ones the in-memory path gives, in the same order, while
//! never holding the key space: composers one at a time, each with its bubbles. So the
//! table is read in passes:
//!
//! 1. a census walk of the live records and one carve of the deleted ones, keeping only
//!    per-composer byte counts and the composer keys (one entry per composer, never per
//!    bubble), and the keys of the carved checkpoints and request contexts (whose time
//!    is that of the live bubble naming them, seen in pass 2);
//! 2. the composers, in the in-memory path's order (composers by key, `task-` sub-agents
//!    after them, then composer ids that only bubbles name), cut into batches of at
//!    most [`Paging::batch_bytes`] of records (more when that would make more than
//!    [`Paging::max_walks`] batches); each batch is one walk of the live
//!    records keeping only the batch's composers' records (`composerData`, `bubbleId`,
//!    `checkpointId`, `messageRequestContext` keys), which then serve the same key
//!    lookups and key ranges the index serves in the in-memory path;
//! 3. the `agentKv:blob:` records (one walk);
//! 4. the deleted records: kept from the census carve when they fit in one batch (then
//!    one live walk for the live `composerData` of their composers), else grouped by
//!    composer id in batches (one carve and one live walk each), then the ungrouped ones.
//!
//! Memory is bounded by one batch (a composer larger than the batch is a batch of its
//! own) plus the per-composer census; time is one walk of the table per batch, so at
//! most [`Paging::max_walks`] walks (twice that when the deleted records do not fit in
//! one batch) plus the census, linear in the table. The
//! key and value are the table's first two columns (as Cursor creates it).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use chat_rows::Evidence;
use sqlite_evidence::paged::PagedDatabase;
use sqlite_evidence::rusqlite::types::{Value as SqlValue, ValueRef};
use state_vscdb::Item;

use super::{
    APP_STATE_KEY, Deleted, HEADERS_KEY, KV, Kv, Reader, grouped_cid, item_rows_global, problems,
    split_key, unreadable, workspace_index,
};
use crate::rows::Out;

/// Databases (main file and WAL together) larger than this are read page by page:
/// 512 MiB, which the in-memory path holds in about 1.5 GB.
pub const PAGED_FROM_BYTES: u64 = sqlite_evidence::any::PAGED_FROM_BYTES;

/// The records of one batch of composers read into memory on the paged path: 128 MiB.
pub const PAGED_BATCH_BYTES: u64 = 128 << 20;

/// The most batches (walks of the table) the composers take on the paged path by
/// default: 32. Batches of [`PAGED_BATCH_BYTES`] reach it at 2 GiB of composer records;
/// beyond, the batch grows with the table instead (see [`Paging::max_walks`]).
pub const PAGED_MAX_WALKS: u64 = 32;

/// When the global database is read page by page, and how much of it a batch holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paging {
    /// Read page by page above this size (main file plus WAL), or when either file is
    /// over the evidence size cap.
    pub from_bytes: u64,
    /// The record bytes (keys and values) of the composers read in one walk, at least.
    pub batch_bytes: u64,
    /// The most batches the composers are cut into (each one walk of the table; the
    /// deleted records, when they do not fit in one batch, take as many again): when
    /// batches of `batch_bytes` would be more, the batch grows to twice the composers'
    /// record bytes over `max_walks`, which packed in order never makes more. Time then
    /// stays linear in the table (`max_walks` walks), memory one batch, a
    /// `2 / max_walks` share of the table. `u64::MAX`: batches of exactly `batch_bytes`.
    pub max_walks: u64,
}

impl Default for Paging {
    fn default() -> Paging {
        Paging {
            from_bytes: PAGED_FROM_BYTES,
            batch_bytes: PAGED_BATCH_BYTES,
            max_walks: PAGED_MAX_WALKS,
        }
    }
}

impl Paging {
    /// Every non-empty database page by page, in batches of exactly `batch_bytes`
    /// however many (tests, bench).
    pub fn always(batch_bytes: u64) -> Paging {
        Paging {
            from_bytes: 0,
            batch_bytes,
            max_walks: u64::MAX,
        }
    }

    /// The batch for `total` record bytes: `batch_bytes` (at least 1), grown to
    /// `2 * total / max_walks` (rounded up) when that is more.
    pub fn batch_for(&self, total: u64) -> u64 {
        let grown = total.saturating_mul(2).div_ceil(self.max_walks.max(1));
        self.batch_bytes.max(grown).max(1)
    }
}

/// Whether `path` is read page by page. A file that cannot be checked goes to the
/// in-memory path, which reports why.
pub(super) fn use_paged(path: &Path, evidence: &Evidence, paging: Paging) -> bool {
    sqlite_evidence::any::use_paged(path, evidence, paging.from_bytes)
}

/// A value as text, the way `state-vscdb` decodes it.
fn text(v: &SqlValue) -> String {
    state_vscdb::decode::value_text(ValueRef::from(v))
}

/// A live record as an item (`<table> rowid <n>`, as `KvTable` gives it); secrets never.
fn live_item(table: &str, rowid: i64, values: Vec<SqlValue>) -> Option<Item> {
    let mut v = values.into_iter();
    let key = text(&v.next()?);
    if state_vscdb::is_secret_key(&key) {
        return None;
    }
    let (value, raw) = v
        .next()
        .map(|x| state_vscdb::decode::value_text_and_raw(ValueRef::from(&x)))
        .unwrap_or_default();
    Some(Item {
        key,
        value,
        raw,
        rowid: Some(rowid),
        state: chat_rows::RecordState::Live,
        location: format!("{table} rowid {rowid}"),
        wal: None,
    })
}

/// The records of one batch, in key order: they answer the lookups the key index
/// answers in the in-memory path.
#[derive(Default)]
struct Batch(BTreeMap<String, Item>);

impl Kv for Batch {
    fn get(&self, key: &str) -> Result<Option<Item>, state_vscdb::Error> {
        Ok(self.0.get(key).cloned())
    }
    fn for_each_prefix(
        &self,
        prefix: &str,
        each: &mut dyn FnMut(Item),
    ) -> Result<usize, state_vscdb::Error> {
        let mut n = 0;
        for (k, item) in self.0.range(prefix.to_string()..) {
            if !k.starts_with(prefix) {
                break;
            }
            each(item.clone());
            n += 1;
        }
        Ok(n)
    }
}

/// One step of the live phase, in the in-memory path's order.
enum Step {
    /// A `composerData:` key.
    Composer(String),
    /// A composer id that only bubbles name.
    Orphan(String),
}

/// Cuts `units` (composer id, bytes) into batches of at most `budget` bytes, in order.
fn batches<T>(units: Vec<(T, String, u64)>, budget: u64) -> Vec<(Vec<T>, HashSet<String>)> {
    let mut out = Vec::new();
    let mut cur: (Vec<T>, HashSet<String>) = (Vec::new(), HashSet::new());
    let mut bytes = 0u64;
    for (t, cid, b) in units {
        let add = if cur.1.contains(&cid) { 0 } else { b };
        if !cur.0.is_empty() && bytes.saturating_add(add) > budget {
            out.push(std::mem::take(&mut cur));
            bytes = 0;
        }
        if cur.1.insert(cid) {
            bytes = bytes.saturating_add(b);
        }
        cur.0.push(t);
    }
    if !cur.0.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether a `CREATE TABLE` text's first two columns are `key` and `value`.
fn kv_columns(sql: &str) -> bool {
    let Some(open) = sql.find('(') else {
        return false;
    };
    let cols: Vec<String> = sql[open + 1..]
        .split(',')
        .take(2)
        .map(|c| {
            c.split_whitespace()
                .next()
                .unwrap_or("")
                .trim_matches(|ch| matches!(ch, '"' | '`' | '[' | ']'))
                .to_ascii_lowercase()
        })
        .collect();
    cols.len() == 2 && cols[0] == "key" && cols[1] == "value"
}

/// Reads the global database (or its `.backup`) page by page (see the module docs).
pub(super) fn read_global_paged(
    path: &Path,
    evidence: &Evidence,
    out: &mut Out<'_>,
    paging: Paging,
) {
    let db = match PagedDatabase::open(path, evidence) {
        Ok(db) => db,
        Err(e) => return unreadable(&e, out),
    };
    problems(db.problems(), out);
    let mtime = evidence.modified(path);
    let mut projects = workspace_index(path, evidence);
    let schema = db.schema_entries();
    let table = |name: &str| {
        schema
            .iter()
            .find(|e| e.kind == "table" && e.name == name)
            .cloned()
    };
    if table("ItemTable").is_some() {
        let (mut headers, mut app_state) = (None, None);
        let wanted = |k: &SqlValue| {
            let key = text(k);
            key == HEADERS_KEY || key == APP_STATE_KEY
        };
        // the items read from the `-wal` (as `StateDb` places them in memory)
        let mut in_wal = db.wal_places("ItemTable");
        db.live_records_where("ItemTable", &mut |k, _| wanted(k), &mut |rowid, values| {
            let Some(mut item) = live_item("ItemTable", rowid, values) else {
                return;
            };
            item.wal = in_wal.remove(&rowid);
            if item.key == HEADERS_KEY {
                headers = Some(item);
            } else if item.key == APP_STATE_KEY {
                app_state = Some(item);
            }
        });
        // the carved values of those keys: one carve of the ItemTable
        let mut carved = Vec::new();
        db.deleted_records("ItemTable", &mut |rec| {
            if let Some(super::Carved::Item(item)) = super::carved(rec) {
                if item.key == HEADERS_KEY || item.key == APP_STATE_KEY {
                    carved.push(item);
                }
            }
        });
        let mut items: Vec<Item> = headers.into_iter().chain(app_state).collect();
        items.extend(super::carved_items(carved, &[HEADERS_KEY, APP_STATE_KEY]));
        item_rows_global(&items, mtime, &mut projects, path, out);
    }
    if !table(KV).is_some_and(|e| kv_columns(&e.sql)) {
        return;
    }
    let limit = super::timing_limit(path, evidence);
    read_kv_paged(&db, limit, &projects, out, paging);
}

fn read_kv_paged(
    db: &PagedDatabase,
    limit: Option<chat_rows::Timestamp>,
    projects: &HashMap<String, String>,
    out: &mut Out<'_>,
    paging: Paging,
) {
    // where the `-wal` holds the live records (as `KvTable::with_wal_places` in memory)
    let wal = db.wal_places(KV);
    let wal = &wal;
    // 1. census: per-composer bytes, composer keys, bubble composer ids
    let mut bytes: HashMap<String, u64> = HashMap::new();
    let mut composers: BTreeSet<String> = BTreeSet::new();
    let mut live_cids: HashSet<String> = HashSet::new();
    let mut bubble_cids: BTreeSet<String> = BTreeSet::new();
    // composers that checkpoints or request contexts name
    let mut extra_cids: BTreeSet<String> = BTreeSet::new();
    let mut agent_blobs = false;
    // keys and stored lengths only: every record is refused once its key is seen, so no
    // value and no overflow page is read (a table of 20 KB bubbles: four pages in five)
    db.live_records_where(
        KV,
        &mut |k, stored| {
            let key = text(k);
            if state_vscdb::is_secret_key(&key) {
                return false;
            }
            if let Some(cid) = grouped_cid(&key) {
                *bytes.entry(cid.to_string()).or_default() += stored as u64;
            }
            if let Some((cid, _)) = split_key(&key, "composerData") {
                live_cids.insert(cid.to_string());
                composers.insert(key.clone());
            } else if let Some((cid, _)) = split_key(&key, "bubbleId") {
                if !bubble_cids.contains(cid) {
                    bubble_cids.insert(cid.to_string());
                }
            } else if let Some((cid, _)) =
                split_key(&key, "checkpointId").or_else(|| split_key(&key, "messageRequestContext"))
            {
                if !extra_cids.contains(cid) {
                    extra_cids.insert(cid.to_string());
                }
            } else if key.starts_with("agentKv:blob:") {
                agent_blobs = true;
            }
            false
        },
        &mut |_, _| {},
    );
    // the batch: grown with the table when batches of `batch_bytes` would be more than
    // `max_walks` walks
    let budget = paging.batch_for(bytes.values().fold(0u64, |a, b| a.saturating_add(*b)));
    // the deleted records are kept from this carve while they fit in one batch (the
    // usual case: one carve in all), else counted and carved again batch by batch
    let mut del_bytes: BTreeMap<String, u64> = BTreeMap::new();
    let mut del_others = false;
    let mut kept: Option<Vec<Item>> = Some(Vec::new());
    let mut kept_bytes = 0u64;
    let mut incomplete = Vec::new();
    // the keys of the deleted checkpoints and request contexts: the live bubbles naming
    // them give them their time
    let mut del_extras: Vec<String> = Vec::new();
    // the calls of carved bubbles that name a live sub-agent
    let mut calls = super::CarvedCalls::default();
    // the `agentKv` roots carved composers name (as in memory)
    let mut carved_roots: Vec<(String, String)> = Vec::new();
    db.deleted_records(KV, &mut |rec| {
        let item = match super::carved(rec) {
            Some(super::Carved::Item(item)) => item,
            Some(super::Carved::Incomplete(row)) => return incomplete.push(*row),
            None => return,
        };
        calls.note(&item, |k| composers.contains(k));
        carved_roots.extend(super::carved_roots(&item));
        if split_key(&item.key, "checkpointId")
            .or_else(|| split_key(&item.key, "messageRequestContext"))
            .is_some()
        {
            del_extras.push(item.key.clone());
        }
        let n = (item.key.len() + item.value.len()) as u64;
        match grouped_cid(&item.key) {
            Some(cid) => *del_bytes.entry(cid.to_string()).or_default() += n,
            None => del_others = true,
        }
        kept_bytes = kept_bytes.saturating_add(n);
        if kept_bytes > budget {
            kept = None;
        } else if let Some(k) = kept.as_mut() {
            k.push(item);
        }
    });

    let mut r = Reader {
        kv: Box::new(Batch::default()),
        limit,
        projects,
        tool_calls: HashMap::new(),
        live_cids: HashSet::new(),
        orphan_bubbles: HashMap::new(),
        with_bubbles: HashSet::new(),
        root_refs: HashMap::new(),
        deleted_extras: HashMap::new(),
    };
    r.expect_deleted_extras(del_extras.iter().map(String::as_str));
    drop(del_extras);

    // 2. composers (parents, then `task-` sub-agents), then bubbles without composerData
    let (tasks, parents): (Vec<String>, Vec<String>) = composers
        .into_iter()
        .partition(|k| k.starts_with("composerData:task-"));
    let cid_of = |k: &str| grouped_cid(k).unwrap_or_default().to_string();
    let size = |cid: &str| bytes.get(cid).copied().unwrap_or(0);
    let mut steps: Vec<(Step, String, u64)> = Vec::new();
    for key in parents.into_iter().chain(tasks) {
        let cid = cid_of(&key);
        let b = size(&cid);
        steps.push((Step::Composer(key), cid, b));
    }
    // the composers only checkpoints or request contexts name (as in memory)
    let lone: Vec<(String, String, u64)> = extra_cids
        .into_iter()
        .filter(|c| !live_cids.contains(c) && !bubble_cids.contains(c))
        .map(|c| (c.clone(), c.clone(), size(&c)))
        .collect();
    for cid in bubble_cids {
        if !live_cids.contains(&cid) {
            let b = size(&cid);
            steps.push((Step::Orphan(cid.clone()), cid, b));
        }
    }
    drop(live_cids);
    // sub-agents whose parent's call is not known when they come up (as in memory)
    let mut deferred: Vec<((String, String, u64), String, u64)> = Vec::new();
    let mut calls = Some(calls);
    for (steps, cids) in batches(steps, budget) {
        r.kv = Box::new(gather_live(db, wal, |key| {
            grouped_cid(key).is_some_and(|c| cids.contains(c))
        }));
        for step in steps {
            match step {
                Step::Composer(key) => {
                    let task = key.starts_with("composerData:task-");
                    if task {
                        // the parents are read: the carved calls fill the gaps
                        if let Some(c) = calls.take() {
                            r.note_carved_calls(c);
                        }
                        if !r.call_known(&key) {
                            let cid = cid_of(&key);
                            let b = size(&cid);
                            deferred.push(((key, cid.clone(), b), cid, b));
                            continue;
                        }
                    }
                    if let Ok(Some(item)) = r.kv.get(&key) {
                        r.composer(&item, out);
                    }
                }
                Step::Orphan(cid) => {
                    let mut bubbles = Vec::new();
                    let _ =
                        r.kv.for_each_prefix(&format!("bubbleId:{cid}:"), &mut |b| bubbles.push(b));
                    r.orphan(&cid, bubbles, out);
                }
            }
        }
    }

    if let Some(c) = calls.take() {
        r.note_carved_calls(c);
    }
    // the deferred sub-agents, as in memory: their parents from their own records
    // first, in one walk ([`super::DeferredCalls`]), then each in key order
    if !deferred.is_empty() {
        let keys = || deferred.iter().map(|(u, _, _)| u.0.as_str());
        let wanted = super::DeferredCalls::new(keys());
        let mut calls = super::DeferredCalls::new(keys());
        db.live_records_where(
            KV,
            &mut |k, _| wanted.wants(&text(k)),
            &mut |rowid, values| {
                if let Some(mut item) = live_item(KV, rowid, values) {
                    item.wal = wal.get(&rowid).cloned();
                    calls.note(&item);
                }
            },
        );
        r.note_deferred_calls(calls);
    }
    for (batch, cids) in batches(deferred, budget) {
        r.kv = Box::new(gather_live(db, wal, |key| {
            grouped_cid(key).is_some_and(|c| cids.contains(c))
        }));
        for u in batch {
            if let Ok(Some(item)) = r.kv.get(&u.0) {
                r.composer(&item, out);
            }
        }
    }
    for (batch, cids) in batches(lone, budget) {
        r.kv = Box::new(gather_live(db, wal, |key| {
            grouped_cid(key).is_some_and(|c| cids.contains(c))
        }));
        for cid in batch {
            r.lone_extras(&cid, out);
        }
    }

    // 3. agentKv blobs
    r.kv = Box::new(if agent_blobs {
        gather_live(db, wal, |key| key.starts_with("agentKv:blob:"))
    } else {
        Batch::default()
    });
    // in composer id order, as in memory
    carved_roots.sort_by(|a, b| a.1.cmp(&b.1));
    r.note_carved_roots(std::mem::take(&mut carved_roots));
    r.agent_kv(out);
    for row in incomplete {
        out.push(row);
    }

    // 4. deleted records, grouped by composer, then the others
    let del_budget = paging.batch_for(del_bytes.values().fold(0u64, |a, b| a.saturating_add(*b)));
    let units: Vec<(String, String, u64)> = del_bytes
        .into_iter()
        .map(|(cid, b)| (cid.clone(), cid, b))
        .collect();
    if let Some(items) = kept {
        if items.is_empty() {
            return;
        }
        let cids: HashSet<String> = units.into_iter().map(|u| u.1).collect();
        r.kv = Box::new(live_for_deleted(db, wal, &cids));
        r.deleted(Deleted::from(items), out);
        return;
    }
    for (_, cids) in batches(units, del_budget) {
        let mut items = Vec::new();
        db.deleted_records(KV, &mut |rec| {
            if let Some(super::Carved::Item(item)) = super::carved(rec) {
                if grouped_cid(&item.key).is_some_and(|c| cids.contains(c)) {
                    items.push(item);
                }
            }
        });
        r.kv = Box::new(live_for_deleted(db, wal, &cids));
        r.deleted(Deleted::from(items), out);
    }
    if del_others {
        let mut items = Vec::new();
        db.deleted_records(KV, &mut |rec| {
            if let Some(super::Carved::Item(item)) = super::carved(rec) {
                if grouped_cid(&item.key).is_none() {
                    items.push(item);
                }
            }
        });
        r.kv = Box::new(Batch::default());
        r.deleted(Deleted::from(items), out);
    }
}

/// What the deleted records of a batch look up: the live `composerData` of their
/// composers (header order, model), as the key index answers in memory.
fn live_for_deleted(
    db: &PagedDatabase,
    wal: &HashMap<i64, String>,
    cids: &HashSet<String>,
) -> Batch {
    gather_live(db, wal, |key| {
        split_key(key, "composerData").is_some_and(|(c, rest)| rest.is_empty() && cids.contains(c))
    })
}

/// One walk of the live records, keeping those whose key `keep` accepts.
fn gather_live(
    db: &PagedDatabase,
    wal: &HashMap<i64, String>,
    keep: impl Fn(&str) -> bool,
) -> Batch {
    let mut batch = Batch::default();
    // the key is asked before the value is read: the walk reads the table's leaf pages
    // and the overflow pages of the batch's records only
    db.live_records_where(KV, &mut |k, _| keep(&text(k)), &mut |rowid, values| {
        if let Some(mut item) = live_item(KV, rowid, values) {
            item.wal = wal.get(&rowid).cloned();
            batch.0.insert(item.key.clone(), item);
        }
    });
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Composers of generated sizes (some far above the batch, some empty), cut with
    /// the batch `Paging::batch_for` gives: never more batches than `max_walks`, each
    /// within the batch unless it is one composer, every composer once and in order; and
    /// with `max_walks` `u64::MAX` the batch is exactly `batch_bytes`.
    #[test]
    fn the_batch_grows_so_the_walks_stay_within_max_walks() {
        let mut seed: u64 = 0x853c_49e6_748f_ea9b;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let mut grown = 0;
        for case in 0..2000 {
            let n = 1 + next(300) as usize;
            let units: Vec<(usize, String, u64)> = (0..n)
                .map(|i| {
                    let b = match next(50) {
                        0..5 => 0,
                        5 => next(1 << 30),
                        _ => next(1 << 20),
                    };
                    (i, format!("c{i}"), b)
                })
                .collect();
            let total: u64 = units.iter().map(|u| u.2).sum();
            let paging = Paging {
                from_bytes: 0,
                batch_bytes: 1 + next(64 << 20),
                max_walks: 1 + next(400),
            };
            let budget = paging.batch_for(total);
            assert!(budget >= paging.batch_bytes, "case {case}");
            grown += usize::from(budget > paging.batch_bytes);
            let sizes: HashMap<usize, u64> = units.iter().map(|u| (u.0, u.2)).collect();
            let cut = batches(units, budget);
            assert!(
                cut.len() as u64 <= paging.max_walks,
                "case {case}: {} batches",
                cut.len()
            );
            for (members, _) in &cut {
                let bytes: u64 = members.iter().map(|m| sizes[m]).sum();
                assert!(members.len() == 1 || bytes <= budget, "case {case}");
            }
            let order: Vec<usize> = cut.into_iter().flat_map(|(m, _)| m).collect();
            assert_eq!(order, (0..n).collect::<Vec<_>>(), "case {case}");
        }
        // both sides of the rule were reached
        assert!((200..1800).contains(&grown), "{grown}");
        assert_eq!(Paging::always(4096).batch_for(u64::MAX), 4096);
        assert_eq!(Paging::always(0).batch_for(0), 1);
        let default = Paging::default();
        assert_eq!(default.batch_for(2 << 30), PAGED_BATCH_BYTES);
        assert_eq!(default.batch_for(20 << 30), (20 << 30) / 16);
    }
}
