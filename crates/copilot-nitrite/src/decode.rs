//! The Nitrite layer: from an MVStore to documents, live and carved.
//!
//! Nitrite keeps each collection or repository in one MVStore map whose name is the
//! entity class (`...entity.NtAgentTurn`), keyed by a Java-serialized `NitriteId`,
//! with a Java-serialized `NitriteDocument` as value. This module opens every map of
//! the newest readable snapshot and decodes every document to JSON.
//!
//! Why carving lives here: MVStore is copy-on-write. Every commit writes changed pages
//! into a new chunk and leaves the old pages where they were until the chunk is reused.
//! So the chunks of older versions still hold earlier revisions of documents and
//! documents that were later removed. [`NitriteFile::carved`] walks every page of every
//! chunk (by its table of contents, else page by page from the chunk header) and keeps
//! each document version that the live snapshot does not hold. When the file is damaged
//! beyond that, a raw scan looks for tag-19 Java streams (`13 <varint> AC ED 00 05`).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::Error;
use crate::javaser::{self, FileBudget, JavaError};
use crate::mvstore::{self, MvError, MvStore, MvValue, Pos};
use crate::textscan::{self, RecoveredText};

/// Where a document came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A page of a chunk: chunk id, page position, entry index.
    Page {
        /// The chunk id.
        chunk: u32,
        /// The page position.
        page: u64,
        /// The entry's index in the page.
        entry: usize,
    },
    /// A raw scan hit at this file offset.
    Byte(usize),
}

impl Place {
    /// The row locator: `chunk 4 page 0x1000007a91e entry 0` or `byte 18233`.
    pub fn locator(&self) -> String {
        match self {
            Place::Page { chunk, page, entry } => {
                format!("chunk {chunk} page {page:#x} entry {entry}")
            }
            Place::Byte(b) => format!("byte {b}"),
        }
    }
}

/// One document (a map entry whose value decoded).
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The map's name (`com.github...NtAgentTurn`), or `` when unknown.
    pub map: String,
    /// The map id.
    pub map_id: u32,
    /// The key, as JSON (a NitriteId is its id string).
    pub key: Value,
    /// The value, as JSON.
    pub value: Value,
    /// Where it was found.
    pub place: Place,
    /// The version of the chunk it was found in (0 for a raw scan hit).
    pub version: u64,
    /// False for a document carved from a page the newest snapshot no longer uses.
    pub live: bool,
}

impl Document {
    /// The Nitrite `_id`, else the key as text.
    pub fn id(&self) -> String {
        match self.value.get("_id") {
            Some(Value::String(s)) => s.clone(),
            Some(v) if !v.is_null() => v.to_string(),
            _ => match &self.key {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            },
        }
    }
    /// `_revision`, or 0.
    pub fn revision(&self) -> i64 {
        self.value
            .get("_revision")
            .and_then(Value::as_i64)
            .unwrap_or(0)
    }
    /// The map name's last dotted part: `NtAgentTurn`.
    pub fn entity(&self) -> &str {
        self.map.rsplit('.').next().unwrap_or(&self.map)
    }
}

/// A map of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInfo {
    /// The map id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Entries read from the newest snapshot.
    pub entries: usize,
}

/// Damage found while reading, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where: `chunk 3 page 0x...`, `map 7`, `byte 8192`, or `file`.
    pub locator: String,
    /// What, with the layer's error and its context.
    pub error: Error,
}

impl Problem {
    /// A problem at `locator`.
    pub fn new(locator: impl Into<String>, error: Error) -> Problem {
        Problem {
            locator: locator.into(),
            error,
        }
    }

    /// The text of its `parser:` row (without the `parser: ` prefix).
    pub fn message(&self) -> String {
        self.error.to_string()
    }
}

/// A Nitrite store file, decoded.
#[derive(Clone, Debug, Default)]
pub struct NitriteFile {
    /// The MVStore format (2 or 3).
    pub format: u64,
    /// The store header's fields (empty when neither header block is valid).
    pub header: BTreeMap<String, String>,
    /// Chunks found (id, version, valid footer).
    pub chunks: Vec<(u32, u64, bool)>,
    /// The chunk whose state is live, and its version.
    pub snapshot: Option<(u32, u64)>,
    /// Every map of the snapshot.
    pub maps: Vec<MapInfo>,
    /// Every live document of every map (system maps included), in map order.
    pub documents: Vec<Document>,
    /// Document versions carved from dead pages and raw scans, not in the live state.
    pub carved: Vec<Document>,
    /// Texts the final fallback found in bytes that no decoded page and no raw-scan
    /// stream covers ([`crate::textscan`]), in file order.
    pub texts: Vec<RecoveredText>,
    /// Damage, in the order found.
    pub problems: Vec<Problem>,
    /// The maps of the snapshot whose live entries are not all known: the map could not
    /// be walked, or an entry's key or value did not decode. None of their documents is
    /// known removed from the store (`rows::LiveDocs`).
    pub unread_maps: Vec<u32>,
}

/// A stored value as JSON; Java streams draw on the file's budget.
fn value_json(v: &MvValue, budget: &mut FileBudget) -> Result<Value, JavaError> {
    Ok(match v {
        MvValue::Null => Value::Null,
        MvValue::Bool(b) => Value::Bool(*b),
        MvValue::Int(i) => Value::from(*i),
        MvValue::Float(f) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        MvValue::Big(s) | MvValue::Str(s) | MvValue::Uuid(s) => Value::String(s.clone()),
        MvValue::Date(ms) => Value::from(*ms),
        MvValue::Bytes(b) => Value::Array(b.iter().map(|x| Value::from(*x)).collect()),
        MvValue::Array(a) => Value::Array(
            a.iter()
                .map(|x| value_json(x, budget))
                .collect::<Result<_, _>>()?,
        ),
        MvValue::Java(bytes) => javaser::to_json_within(bytes, budget)?,
    })
}

/// True for Nitrite's own maps (catalog, meta, indexes, store info).
pub fn is_system_map(name: &str) -> bool {
    name.starts_with("$nitrite")
}

impl NitriteFile {
    /// Reads a store file (read-only, in one go) through the evidence reader: a regular
    /// file only, no link followed out of its folder, under the size cap.
    pub fn from_path(path: &Path) -> std::io::Result<NitriteFile> {
        Ok(NitriteFile::from_bytes(
            &chat_rows::Evidence::new().read(path)?,
        ))
    }

    /// Decodes a store from the bytes of the whole file. Never fails: damage is listed
    /// in [`NitriteFile::problems`].
    pub fn from_bytes(data: &[u8]) -> NitriteFile {
        let mut mv = MvStore::from_bytes(data);
        let mut f = NitriteFile {
            format: mv.format,
            header: mv
                .header
                .as_ref()
                .map(|h| h.fields.clone())
                .unwrap_or_default(),
            chunks: mv
                .chunks
                .iter()
                .map(|c| (c.id, c.version, c.footer_ok))
                .collect(),
            snapshot: mv.snapshot.as_ref().map(|s| (s.chunk, s.version)),
            ..NitriteFile::default()
        };
        for p in &mv.problems {
            f.problems.push(Problem::new("file", Error::Mv(p.clone())));
        }
        let mut names: BTreeMap<u32, String> = BTreeMap::new();
        let mut live_pages: HashSet<u64> = HashSet::new();
        let mut live_raw: HashSet<u64> = HashSet::new();
        let meta_id = mv
            .snapshot
            .as_ref()
            .and_then(|s| s.layout.get("meta.id"))
            .and_then(|v| u32::from_str_radix(v, 16).ok())
            .unwrap_or(1);
        let mut damaged = mv.snapshot.is_none();
        // the JSON every Java stream of the file expands to, together
        let mut budget = FileBudget::for_file(data.len());
        if let Some((maps, version)) = mv.snapshot.as_ref().map(|s| (s.maps(), s.version)) {
            names = maps;
            for (&id, name) in &names {
                match mv.take_map(id) {
                    Ok(entries) => {
                        f.maps.push(MapInfo {
                            id,
                            name: name.clone(),
                            entries: entries.len(),
                        });
                        for e in entries {
                            live_pages.insert(e.page);
                            live_raw.insert(raw_hash(id, &e.value));
                            let place = Place::Page {
                                chunk: e.chunk,
                                page: e.page,
                                entry: e.index,
                            };
                            match (
                                value_json(&e.key, &mut budget),
                                value_json(&e.value, &mut budget),
                            ) {
                                (Ok(key), Ok(value)) => f.documents.push(Document {
                                    map: name.clone(),
                                    map_id: id,
                                    key,
                                    value,
                                    place,
                                    version: mv.chunk_version(e.chunk).unwrap_or(version),
                                    live: true,
                                }),
                                (Err(e), _) | (_, Err(e)) => {
                                    if f.unread_maps.last() != Some(&id) {
                                        f.unread_maps.push(id);
                                    }
                                    f.problems.push(Problem::new(
                                        place.locator(),
                                        Error::Java {
                                            map: name.clone(),
                                            source: e,
                                        },
                                    ))
                                }
                            }
                        }
                    }
                    Err(e) => {
                        damaged = true;
                        f.unread_maps.push(id);
                        f.maps.push(MapInfo {
                            id,
                            name: name.clone(),
                            entries: 0,
                        });
                        f.problems.push(Problem::new(
                            format!("map {id:x}"),
                            Error::Map {
                                map: name.clone(),
                                source: e,
                            },
                        ));
                    }
                }
            }
        }
        f.carve(
            &mv,
            &mut names,
            meta_id,
            &live_pages,
            &live_raw,
            damaged,
            &mut budget,
        );
        f
    }

    #[allow(clippy::too_many_arguments)]
    fn carve(
        &mut self,
        mv: &MvStore<'_>,
        names: &mut BTreeMap<u32, String>,
        meta_id: u32,
        live_pages: &HashSet<u64>,
        live_raw: &HashSet<u64>,
        damaged: bool,
        budget: &mut FileBudget,
    ) {
        // the same stored bytes as a live document, or as one already carved, say nothing
        // new: skip them before decoding (most dead pages are copies)
        let mut seen_raw: HashSet<u64> = HashSet::new();
        // map names from every readable meta page of every chunk (old names, damaged files)
        let mut pages_by_chunk = Vec::new();
        let mut limit_told = false;
        // the bytes of every page that decoded, and of every raw-scan stream
        let mut covered: Vec<std::ops::Range<usize>> = Vec::new();
        for chunk in &mv.chunks {
            let (pages, errors) = mv.chunk_pages(chunk, meta_id);
            for e in errors {
                if let MvError::WorkLimit { .. } = e {
                    // said once for the file, not once per chunk
                    if !std::mem::replace(&mut limit_told, true) {
                        self.problems.push(Problem::new("file", Error::Page(e)));
                    }
                } else {
                    // torn chunks too: a page that does not decode is never dropped silently
                    self.problems
                        .push(Problem::new(format!("chunk {}", chunk.id), Error::Page(e)));
                }
            }
            for (pos, p) in &pages {
                let at = chunk
                    .start()
                    .saturating_add(Pos::from_u64(*pos).offset as usize);
                covered.push(at..at.saturating_add(p.length));
            }
            for (_, p) in &pages {
                if p.map_id == meta_id && p.children.is_empty() {
                    for (k, v) in p.keys.iter().zip(&p.values) {
                        if let (MvValue::Str(k), MvValue::Str(v)) = (k, v) {
                            if let (Some(name), Ok(id)) =
                                (k.strip_prefix("name."), u32::from_str_radix(v, 16))
                            {
                                names.entry(id).or_insert_with(|| name.to_string());
                            }
                        }
                    }
                }
            }
            pages_by_chunk.push((chunk.id, chunk.version, chunk.footer_ok, pages));
        }
        let live: HashSet<(u32, String, String)> = self
            .documents
            .iter()
            .map(|d| (d.map_id, d.id(), d.value.to_string()))
            .collect();
        let mut seen: HashSet<(u32, String, String)> = HashSet::new();
        let mut carved = Vec::new();
        for (chunk, version, _ok, pages) in pages_by_chunk {
            for (pos, page) in pages {
                if page.map_id == 0
                    || page.map_id == meta_id
                    || !page.children.is_empty()
                    || live_pages.contains(&pos)
                {
                    continue;
                }
                let name = names.get(&page.map_id).cloned().unwrap_or_default();
                if is_system_map(&name) {
                    continue;
                }
                for (entry, (k, v)) in page.keys.iter().zip(&page.values).enumerate() {
                    let raw = raw_hash(page.map_id, v);
                    if live_raw.contains(&raw) || !seen_raw.insert(raw) {
                        continue;
                    }
                    let place = Place::Page {
                        chunk,
                        page: pos,
                        entry,
                    };
                    let (key, value) = match (value_json(k, budget), value_json(v, budget)) {
                        (Ok(k), Ok(v)) => (k, v),
                        (Err(m), _) | (_, Err(m)) => {
                            self.problems.push(Problem::new(
                                place.locator(),
                                Error::Java {
                                    map: name.clone(),
                                    source: m,
                                },
                            ));
                            continue;
                        }
                    };
                    if name.is_empty() && value.get("_id").is_none() {
                        continue;
                    }
                    let map = if name.is_empty() {
                        guess_entity(&value)
                    } else {
                        name.clone()
                    };
                    let doc = Document {
                        map,
                        map_id: page.map_id,
                        key,
                        value,
                        place,
                        version,
                        live: false,
                    };
                    let sig = (doc.map_id, doc.id(), doc.value.to_string());
                    if live.contains(&sig) || !seen.insert(sig) {
                        continue;
                    }
                    carved.push(doc);
                }
            }
        }
        if damaged {
            // by (id, value) in a set: a scan of every document for each raw find would
            // be quadratic in a file packed with small streams
            let mut known: HashSet<(String, String)> = self
                .documents
                .iter()
                .chain(&carved)
                .map(|d| (d.id(), d.value.to_string()))
                .collect();
            let scan = raw_scan_spans(mv.data(), budget);
            for (doc, span) in scan.found {
                covered.push(span);
                if known.insert((doc.id(), doc.value.to_string())) {
                    carved.push(doc);
                }
            }
            if let Some((at, e)) = scan.over_budget {
                self.problems.push(Problem::new(
                    format!("byte {at}"),
                    Error::Java {
                        map: String::new(),
                        source: e,
                    },
                ));
            }
            if let Some(at) = scan.stopped {
                self.problems.push(Problem::new(
                    format!("byte {at}"),
                    Error::Mv(MvError::WorkLimit {
                        limit: mv.data().len().saturating_mul(8).saturating_add(64 << 20),
                    }),
                ));
            }
        }
        // newest first within a document: by chunk version
        carved.sort_by_key(|d| std::cmp::Reverse(d.version));
        self.carved = carved;
        // the final fallback, on what nothing above decoded
        let gaps = uncovered(covered, mv.data().len());
        let (texts, stopped) = textscan::scan(mv.data(), &gaps);
        self.texts = texts;
        if let Some(at) = stopped {
            self.problems.push(Problem::new(
                format!("byte {at}"),
                Error::Mv(MvError::WorkLimit {
                    limit: mv.data().len().saturating_mul(8).saturating_add(64 << 20),
                }),
            ));
        }
    }

    /// The map id → name of the entity maps (user repositories and collections).
    pub fn entity_maps(&self) -> Vec<&MapInfo> {
        self.maps
            .iter()
            .filter(|m| !is_system_map(&m.name))
            .collect()
    }

    /// The live documents of the entity maps.
    pub fn entity_documents(&self) -> impl Iterator<Item = &Document> {
        self.documents.iter().filter(|d| !is_system_map(&d.map))
    }
}

/// The byte ranges of `0..len` that no range of `covered` touches, in order.
fn uncovered(mut covered: Vec<std::ops::Range<usize>>, len: usize) -> Vec<std::ops::Range<usize>> {
    covered.sort_unstable_by_key(|r| r.start);
    let mut out = Vec::new();
    let mut at = 0;
    for r in covered {
        if r.start > at {
            out.push(at..r.start.min(len));
        }
        at = at.max(r.end);
    }
    if at < len {
        out.push(at..len);
    }
    out.retain(|r| r.start < r.end);
    out
}

/// A hash of a map id and a stored value's bytes (for Java values) or its debug form.
fn raw_hash(map_id: u32, v: &MvValue) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    map_id.hash(&mut h);
    match v {
        MvValue::Java(b) => b.hash(&mut h),
        other => format!("{other:?}").hash(&mut h),
    }
    h.finish()
}

/// The entity a document's fields suggest, for pages whose map name is lost.
pub fn guess_entity(v: &Value) -> String {
    if v.get("request").is_some() || v.get("response").is_some() {
        "NtAgentTurn".into()
    } else if v.get("turns").is_some() || v.get("name").is_some() {
        "NtAgentSession".into()
    } else {
        String::new()
    }
}

/// Scans raw bytes for tag-19 Java streams (`13 <varint L> AC ED 00 05`) whose parse
/// ends exactly at `L`, and keeps those that are Nitrite entity documents.
/// Gives up (see [`raw_scan_bounded`]) once the streams it tried add up to eight times
/// the file plus 64 MiB.
pub fn raw_scan(data: &[u8]) -> Vec<Document> {
    raw_scan_bounded(data).0
}

/// [`raw_scan`], and the offset at which it gave up, if it did. Streams may overlap (a
/// magic inside a long string inside another stream), so the bytes parsed are counted:
/// past eight times the file plus 64 MiB, the scan stops.
pub fn raw_scan_bounded(data: &[u8]) -> (Vec<Document>, Option<usize>) {
    let scan = raw_scan_spans(data, &mut FileBudget::for_file(data.len()));
    (
        scan.found.into_iter().map(|(d, _)| d).collect(),
        scan.stopped,
    )
}

/// What [`raw_scan_spans`] found.
struct RawScan {
    /// The documents, with the bytes each stream (from its tag) takes.
    found: Vec<(Document, std::ops::Range<usize>)>,
    /// Where it gave up for its work limit, if it did.
    stopped: Option<usize>,
    /// The first stream refused for the file's JSON budget (later ones are not said).
    over_budget: Option<(usize, JavaError)>,
}

/// [`raw_scan_bounded`], with the bytes each stream (from its tag) takes; the JSON of
/// the streams draws on the file's budget.
fn raw_scan_spans(data: &[u8], json_budget: &mut FileBudget) -> RawScan {
    let mut budget = data.len().saturating_mul(8).saturating_add(64 << 20);
    let mut out = Vec::new();
    let mut over_budget = None;
    let magic = [0xAC, 0xED, 0x00, 0x05];
    let mut i = 0;
    while i + 4 <= data.len() {
        let Some(rel) = data[i..].windows(4).position(|w| w == magic) else {
            break;
        };
        let at = i + rel;
        i = at + 1;
        // the varint before the magic: 1 to 5 bytes, preceded by tag 19
        for vlen in 1..=5usize {
            let Some(tag_at) = at.checked_sub(vlen + 1) else {
                break;
            };
            if data[tag_at] != 0x13 {
                continue;
            }
            let mut c = mvstore::Cursor::new(&data[tag_at + 1..at]);
            let Ok(len) = c.varint() else { continue };
            if c.remaining() != 0 || len <= 4 || at + len as usize > data.len() {
                continue;
            }
            let stream = &data[at..at + len as usize];
            if stream.len() > budget {
                return RawScan {
                    found: out,
                    stopped: Some(at),
                    over_budget,
                };
            }
            budget -= stream.len();
            let Ok((content, used)) = javaser::parse(stream) else {
                continue;
            };
            if used != stream.len() {
                continue;
            }
            let value = match javaser::try_content_json_within(&content, json_budget) {
                Ok(v) => v,
                Err(e @ JavaError::FileExpansion { .. }) => {
                    over_budget.get_or_insert((tag_at, e));
                    continue;
                }
                Err(_) => continue,
            };
            if value.get("_id").is_none() {
                break;
            }
            out.push((
                Document {
                    map: guess_entity(&value),
                    map_id: 0,
                    key: value.get("_id").cloned().unwrap_or(Value::Null),
                    value,
                    place: Place::Byte(tag_at),
                    version: 0,
                    live: false,
                },
                tag_at..at + len as usize,
            ));
            i = at + len as usize;
            break;
        }
    }
    RawScan {
        found: out,
        stopped: None,
        over_budget,
    }
}

/// A record of a Copilot `contents` value: `Markdown`, `AgentRound`, `Thinking`...
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The record type.
    pub kind: String,
    /// Its data, decoded from its JSON string where it is one.
    pub data: Value,
}

/// Entries of a JSON object in file order, duplicates kept (the redacted reference
/// files repeat one UUID key; real ones may too).
struct Ordered(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Ordered, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = m.next_entry::<String, Value>()? {
                    v.push((k, val));
                }
                Ok(Ordered(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// The entries of a JSON object text in the order written (a later duplicate key kept
/// beside the first); None when the text is no JSON object.
pub(crate) fn ordered_entries(text: &str) -> Option<Vec<(String, Value)>> {
    chat_rows::json::from_str::<Ordered>(text).ok().map(|o| o.0)
}

/// Decodes a `contents` string into its records, in order, descending into `Subgraph`
/// values. Returns an error text when the string is not the expected JSON.
pub fn records(contents: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    collect_records(contents, 0, &mut out)?;
    Ok(out)
}

fn collect_records(text: &str, depth: usize, out: &mut Vec<Record>) -> Result<(), String> {
    if depth > 16 {
        return Err("records nested too deep".into());
    }
    let entries: Ordered = chat_rows::json::from_str(text).map_err(|e| e.to_string())?;
    for (_, v) in entries.0 {
        record_from_entry(&v, depth, out)?;
    }
    Ok(())
}

fn record_from_entry(v: &Value, depth: usize, out: &mut Vec<Record>) -> Result<(), String> {
    let ty = v.get("type").and_then(Value::as_str).unwrap_or("");
    let inner = v.get("value");
    match (ty, inner) {
        ("Subgraph", Some(Value::String(s))) => collect_records(s, depth + 1, out),
        ("Value", Some(Value::String(s))) => {
            let rec: Value = chat_rows::json::from_str(s).map_err(|e| e.to_string())?;
            push_record(&rec, depth, out)
        }
        ("Value", Some(rec @ Value::Object(_))) => push_record(rec, depth, out),
        _ => push_record(v, depth, out),
    }
}

fn push_record(rec: &Value, depth: usize, out: &mut Vec<Record>) -> Result<(), String> {
    let kind = rec
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let data = match rec.get("data") {
        Some(Value::String(s)) => {
            chat_rows::json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        Some(v) => v.clone(),
        None => rec.get("content").cloned().unwrap_or(Value::Null),
    };
    if kind == "Subgraph" {
        if let Some(Value::String(s)) = rec.get("value") {
            return collect_records(s, depth + 1, out);
        }
    }
    out.push(Record { kind, data });
    Ok(())
}

/// Chunk id → position map of a store, for tests and tools: every page of every chunk
/// by its TOC, as (map id, position).
pub fn toc_pages(data: &[u8]) -> Vec<(u32, u64)> {
    let mv = MvStore::from_bytes(data);
    let mut out = Vec::new();
    for c in &mv.chunks {
        if let Some(toc) = mv.toc(c) {
            out.extend(
                toc.into_iter()
                    .map(|el| (el.chunk, Pos { chunk: c.id, ..el }.to_u64())),
            );
        }
    }
    out
}

/// Decodes the records of one entry value (`{"type":"Value"|"Subgraph","value":...}`).
pub fn records_from_value(v: &Value, out: &mut Vec<Record>) -> Result<(), String> {
    record_from_entry(v, 0, out)
}
