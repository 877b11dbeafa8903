//! Generators of damaged and oversized shapes for the limit tests and the bench
//! example: MVStore files of many one-block chunks (a port of the audit's
//! `mvstore_chunks.py`), and Java streams whose arrays share references (a DAG).
#![allow(dead_code)]

use copilot_nitrite::mvstore::{BLOCK_SIZE, Pos, fletcher32, length_code};

/// H2's varint.
pub fn varint(mut n: u64, out: &mut Vec<u8>) {
    loop {
        let b = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A StringDataType string (ASCII here).
pub fn h2str(s: &str, out: &mut Vec<u8>) {
    varint(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn fold(x: u32) -> u16 {
    ((x >> 16) ^ x) as u16
}

/// A page of map `map_id` at `offset` of chunk `chunk`: (bytes, position). A node when
/// `children` is not empty (each child counted as one entry).
#[allow(clippy::too_many_arguments)]
pub fn page(
    chunk: u32,
    offset: u32,
    page_no: u32,
    map_id: u32,
    n: usize,
    keys: &[u8],
    children: &[u64],
    values: &[u8],
) -> (Vec<u8>, u64) {
    let node = !children.is_empty();
    let mut body = Vec::new();
    varint(page_no as u64, &mut body);
    varint(map_id as u64, &mut body);
    varint(n as u64, &mut body);
    body.push(u8::from(node));
    for c in children {
        body.extend_from_slice(&c.to_be_bytes());
    }
    for _ in children {
        varint(1, &mut body);
    }
    body.extend_from_slice(keys);
    body.extend_from_slice(values);
    let length = 6 + body.len();
    let check = fold(chunk) ^ fold(offset) ^ fold(length as u32);
    let mut p = (length as u32).to_be_bytes().to_vec();
    p.extend_from_slice(&check.to_be_bytes());
    p.extend(body);
    let pos = Pos {
        chunk,
        offset,
        code: length_code(length),
        node,
    };
    (p, pos.to_u64())
}

/// A leaf of a String map (the layout or the meta map).
pub fn string_leaf(
    chunk: u32,
    offset: u32,
    page_no: u32,
    map_id: u32,
    kv: &[(&str, String)],
) -> (Vec<u8>, u64) {
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    for (k, v) in kv {
        h2str(k, &mut keys);
        h2str(v, &mut values);
    }
    page(
        chunk,
        offset,
        page_no,
        map_id,
        kv.len(),
        &keys,
        &[],
        &values,
    )
}

/// `line,fletcher:<sum>` as H2 writes a header or footer.
pub fn checked(line: &str) -> String {
    format!("{line},fletcher:{:x}", fletcher32(line.as_bytes()))
}

/// The width the chunk header is padded to, so the first page's offset is known.
pub const HEADER_WIDTH: u32 = 200;

/// A chunk: a padded header, the pages `pages(first page offset)` gives with the
/// layout root they name, and a footer (broken when `torn`).
pub fn chunk_bytes(
    id: u32,
    version: u64,
    torn: bool,
    pages: impl FnOnce(u32) -> (Vec<Vec<u8>>, u64),
) -> Vec<u8> {
    let (pages, root) = pages(HEADER_WIDTH);
    let body: Vec<u8> = pages.concat();
    let need = HEADER_WIDTH as usize + body.len() + 4 + 128;
    let blocks = need.div_ceil(BLOCK_SIZE).max(1);
    let mut hdr = format!(
        "chunk:{id:x},len:{blocks:x},pages:{:x},max:0,map:2,root:{root:x},time:0,version:{version:x}",
        pages.len()
    );
    while hdr.len() < HEADER_WIDTH as usize - 1 {
        hdr.push(' ');
    }
    hdr.push('\n');
    let mut buf = vec![0u8; blocks * BLOCK_SIZE];
    buf[..hdr.len()].copy_from_slice(hdr.as_bytes());
    let at = HEADER_WIDTH as usize;
    buf[at..at + body.len()].copy_from_slice(&body);
    let mut foot = checked(&format!("chunk:{id:x},len:{blocks:x},version:{version:x}"));
    if torn {
        foot = foot.replace("fletcher:", "fletcher:0");
        foot.pop();
    }
    while foot.len() < 127 {
        foot.push(' ');
    }
    foot.push('\n');
    let n = buf.len();
    buf[n - 128..].copy_from_slice(foot.as_bytes());
    buf
}

/// The two store header blocks of a format-3 store.
pub fn header_blocks() -> Vec<u8> {
    let mut hb = checked("H:2,blockSize:1000,created:1,format:3").into_bytes();
    hb.push(b'\n');
    hb.resize(BLOCK_SIZE, 0);
    hb.repeat(2)
}

/// A format-3 store of `c` one-block chunks (`c` >= 3). Chunks 1..c-1 each hold one
/// leaf of map 2 (`docs`): Int key `id % 16` → String `doc<id>`; chunk `c` holds a
/// node of map 2 over those leaves, the meta map and the layout. With `nometa`, every
/// chunk holds only a layout leaf that names no meta-map root, so no chunk is a
/// snapshot and every one is tried.
pub fn one_block_chunks(c: u32, nometa: bool) -> Vec<u8> {
    one_block_chunks_of(c, nometa, &|id| {
        let mut values = vec![0x0b]; // ObjectDataType String: tag, length, bytes
        h2str(&format!("doc{id:05}"), &mut values);
        values
    })
}

/// [`one_block_chunks`] with the stored value of chunk `id`'s entry given by `value`
/// (ObjectDataType bytes, tag first).
pub fn one_block_chunks_of(c: u32, nometa: bool, value: &dyn Fn(u32) -> Vec<u8>) -> Vec<u8> {
    let mut out = header_blocks();
    let mut leaves = Vec::new();
    let layout_only = |id: u32, first: u32| {
        let (p, pos) = string_leaf(id, first, 0, 0, &[("meta.id", "1".to_string())]);
        (vec![p], pos)
    };
    for id in 1..c {
        out.extend(chunk_bytes(id, id as u64, false, |first| {
            if nometa {
                return layout_only(id, first);
            }
            let keys = [64 + (id % 16) as u8]; // Int 0..15
            let (p, pos) = page(id, first, 0, 2, 1, &keys, &[], &value(id));
            leaves.push(pos);
            (vec![p], 0)
        }));
    }
    out.extend(chunk_bytes(c, c as u64, false, |first| {
        if nometa {
            return layout_only(c, first);
        }
        let n = leaves.len() - 1;
        let keys = vec![64u8; n];
        let mut off = first;
        let (node, node_pos) = page(c, off, 0, 2, n, &keys, &leaves, &[]);
        off += node.len() as u32;
        let (meta, meta_pos) = string_leaf(
            c,
            off,
            1,
            1,
            &[
                ("map.2", "name:docs".to_string()),
                ("name.docs", "2".to_string()),
            ],
        );
        off += meta.len() as u32;
        let (layout, layout_pos) = string_leaf(
            c,
            off,
            2,
            0,
            &[
                ("meta.id", "1".to_string()),
                ("root.1", format!("{meta_pos:x}")),
                ("root.2", format!("{node_pos:x}")),
            ],
        );
        (vec![node, meta, layout], layout_pos)
    }));
    out
}

/// A damaged store with no header and no chunk (the text scan reads all of it): `n`
/// `Markdown` records, then `n` `sessionId` Java fields (the audit's
/// `nitrite_text.py`).
pub fn markdown_records(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..n {
        out.extend_from_slice(
            format!(r#""type":"Markdown","data":"{{\"text\":\"md text {i}\"}}" "#).as_bytes(),
        );
    }
    for i in 0..n {
        let sid = format!("s{i:07}");
        out.extend_from_slice(b"\x74\x00\x09sessionId\x74\x00");
        out.push(sid.len() as u8);
        out.extend_from_slice(sid.as_bytes());
        out.push(b' ');
    }
    out
}

/// A Java stream of `k + 1` arrays: the first holds one string of `l` characters, each
/// next one the previous one twice (by reference), and an outer array holds them all
/// (the audit's `java_dag.py`): about 20 bytes a level, 2^k leaves when expanded.
pub fn dag_stream(k: u32, l: usize) -> Vec<u8> {
    let utf = |s: &str| {
        let mut v = (s.len() as u16).to_be_bytes().to_vec();
        v.extend_from_slice(s.as_bytes());
        v
    };
    let reference = |h: u32| {
        let mut v = vec![0x71];
        v.extend_from_slice(&(0x7E0000 + h).to_be_bytes());
        v
    };
    let mut b = vec![0xAC, 0xED, 0x00, 0x05];
    // the outer array, with the class descriptor (handle 0)
    b.extend_from_slice(&[0x75, 0x72]);
    b.extend(utf("[Ljava.lang.Object;"));
    b.extend_from_slice(&[0; 8]);
    b.extend_from_slice(&[0x02, 0x00, 0x00, 0x78, 0x70]);
    b.extend_from_slice(&(k as i32 + 1).to_be_bytes());
    // A0 (handle 2) and its string (handle 3)
    b.push(0x75);
    b.extend(reference(0));
    b.extend_from_slice(&1i32.to_be_bytes());
    b.push(0x74);
    b.extend(utf(&"x".repeat(l)));
    let mut prev = 2;
    for i in 1..=k {
        b.push(0x75);
        b.extend(reference(0));
        b.extend_from_slice(&2i32.to_be_bytes());
        b.extend(reference(prev));
        b.extend(reference(prev));
        prev = i + 3;
    }
    b
}

/// A stream as a stored ObjectDataType value: tag 19, its length, its bytes.
pub fn tagged(stream: &[u8]) -> Vec<u8> {
    let mut v = vec![0x13];
    varint(stream.len() as u64, &mut v);
    v.extend_from_slice(stream);
    v
}
