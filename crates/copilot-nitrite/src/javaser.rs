//! A Java Object Serialization Stream decoder (Oracle's protocol, chapter 6) that maps
//! the classes Nitrite writes to `serde_json::Value`.
//!
//! Why our own: the `jaded` crate fails on real Nitrite data (it reads declared fields
//! before the `writeObject` annotations, which breaks on `NitriteId`, and it rejects
//! supplementary characters), and `java-serialization` returns a raw tree that needs the
//! same class mapping anyway. The protocol part is small; the value here is in knowing
//! what each `writeObject` class writes:
//!
//! * `HashMap`/`LinkedHashMap`/`NitriteDocument`: a block with capacity and size, then
//!   key/value pairs. `NitriteDocument` then repeats every entry as `Pair` objects; only
//!   the first copy is read.
//! * `ConcurrentHashMap` (Java 7 form with `segments`): key/value pairs ended by two nulls.
//! * `ArrayList`, `CopyOnWriteArrayList`, `HashSet`: a block with the size, then elements.
//! * `NitriteId`: declares a `String` field but writes only `writeUTF` in a block.
//! * boxed primitives, `Date`, `UUID`, enums, arrays.
//! * any other class: a JSON object of its fields (with `@class`).
//!
//! Strings are modified UTF-8 (`C0 80` for U+0000, surrogates as 3-byte halves), decoded
//! through UTF-16 so that lone surrogates become U+FFFD instead of an error.
//!
//! Every length is checked against the bytes that remain, and nesting is bounded, so
//! hostile input gives a [`JavaError`], never a panic or a huge allocation.

use std::rc::Rc;

use serde_json::{Map, Value};

const MAX_DEPTH: usize = 200;
const BASE_HANDLE: u32 = 0x7E0000;

/// What went wrong, and at which byte of the stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JavaError {
    /// The stream does not start with `AC ED 00 05`.
    #[error("not a Java serialization stream (no AC ED 00 05 magic)")]
    NoMagic,
    /// The stream ended early.
    #[error("stream ends at byte {at}, {wanted} more bytes wanted")]
    Eof {
        /// The offset.
        at: usize,
        /// Bytes wanted.
        wanted: usize,
    },
    /// A type code that is not allowed here.
    #[error("unexpected type code 0x{code:02x} at byte {at}")]
    UnexpectedCode {
        /// The offset.
        at: usize,
        /// The code.
        code: u8,
    },
    /// A reference to a handle that does not exist, or to the wrong kind of handle.
    #[error("bad handle 0x{handle:x} at byte {at}")]
    BadHandle {
        /// The offset.
        at: usize,
        /// The handle.
        handle: u32,
    },
    /// A field type character that is not one of `BCDFIJSZL[`.
    #[error("bad field type '{ty}' at byte {at}")]
    BadFieldType {
        /// The offset.
        at: usize,
        /// The type character.
        ty: char,
    },
    /// A length that does not fit what remains.
    #[error("length {len} at byte {at} exceeds the stream")]
    BadLength {
        /// The offset.
        at: usize,
        /// The length.
        len: i64,
    },
    /// Objects nested deeper than any real document.
    #[error("nesting deeper than {MAX_DEPTH} at byte {at}")]
    TooDeep {
        /// The offset.
        at: usize,
    },
    /// An exception was serialized in place of the object (`TC_EXCEPTION`).
    #[error("serialized exception at byte {at}")]
    Exception {
        /// The offset.
        at: usize,
    },
    /// A `TC_RESET` inside an object, array or class descriptor (Java refuses it too).
    #[error("reset inside an object at byte {at}")]
    NestedReset {
        /// The offset.
        at: usize,
    },
    /// Back-references make the JSON form of the stream larger than any real document
    /// (a reference to an object repeated inside itself, level after level).
    #[error("references expand to more than {limit} JSON values or bytes of text")]
    Expansion {
        /// The limit that was reached.
        limit: usize,
    },
    /// The streams of one file together expand beyond what its size allows
    /// ([`FileBudget`]): this stream is not decoded.
    #[error(
        "the file's Java streams together expand to more than {values} JSON values or {text} bytes of text; this one is not decoded"
    )]
    FileExpansion {
        /// The file's limit of JSON values.
        values: usize,
        /// The file's limit of bytes of text.
        text: usize,
    },
    /// An Externalizable class written without block data (protocol 1): unreadable.
    #[error("externalizable class {class} without block data at byte {at}")]
    Externalizable {
        /// The offset.
        at: usize,
        /// The class name.
        class: String,
    },
}

/// A field of a class descriptor.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The type character.
    pub ty: u8,
    /// The field name.
    pub name: String,
}

/// A class descriptor.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassDesc {
    /// The class name.
    pub name: String,
    /// The flags (0x01 WRITE_METHOD, 0x02 SERIALIZABLE, 0x04 EXTERNALIZABLE, 0x08 BLOCK_DATA, 0x10 ENUM).
    pub flags: u8,
    /// The serialized fields.
    pub fields: Vec<Field>,
    /// The superclass.
    pub superclass: Option<Rc<ClassDesc>>,
}

impl ClassDesc {
    /// The class and its superclasses, topmost first.
    pub fn hierarchy(self: &Rc<Self>) -> Vec<Rc<ClassDesc>> {
        let mut v = vec![self.clone()];
        let mut cur = self.superclass.clone();
        while let Some(c) = cur {
            if v.len() > MAX_DEPTH {
                break;
            }
            cur = c.superclass.clone();
            v.push(c);
        }
        v.reverse();
        v
    }
}

/// One item of a stream: what the protocol calls content.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// null (also a reference to an object still being read, i.e. a cycle).
    Null,
    /// A string.
    Str(Rc<str>),
    /// An object.
    Object(Rc<Object>),
    /// An array.
    Array(Rc<Vec<Content>>),
    /// An enum constant: class name, constant name.
    Enum(Rc<str>, Rc<str>),
    /// A `Class` object: its name.
    Class(Rc<str>),
    /// Primitive data written by a `writeObject` (consecutive block records joined).
    Block(Vec<u8>),
    /// A primitive field value.
    Prim(Prim),
}

/// A primitive field value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Prim {
    /// byte, short, int, long, char.
    Int(i64),
    /// float, double.
    Float(f64),
    /// boolean.
    Bool(bool),
}

/// The data one class of an object's hierarchy wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassData {
    /// The class.
    pub class: Rc<ClassDesc>,
    /// Its field values, in descriptor order.
    pub fields: Vec<(String, Content)>,
    /// What its `writeObject` wrote after the fields.
    pub annotations: Vec<Content>,
}

/// An object: its class and the data of each class of its hierarchy, topmost first.
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// The object's class.
    pub class: Rc<ClassDesc>,
    /// Per-class data.
    pub data: Vec<ClassData>,
}

impl Object {
    fn class_data(&self, name: &str) -> Option<&ClassData> {
        self.data.iter().find(|d| d.class.name == name)
    }
    fn is_a(&self, name: &str) -> bool {
        self.data.iter().any(|d| d.class.name == name)
    }
    fn field(&self, name: &str) -> Option<&Content> {
        self.data
            .iter()
            .rev()
            .flat_map(|d| d.fields.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

enum Handle {
    Class(Rc<ClassDesc>),
    Value(Option<Content>),
}

struct Parser<'a> {
    buf: &'a [u8],
    pos: usize,
    handles: Vec<Handle>,
}

/// Parses a whole stream: the magic, then the first content item. Returns the item and
/// the number of bytes consumed.
pub fn parse(buf: &[u8]) -> Result<(Content, usize), JavaError> {
    if buf.len() < 4 || buf[..4] != [0xAC, 0xED, 0x00, 0x05] {
        return Err(JavaError::NoMagic);
    }
    let mut p = Parser {
        buf,
        pos: 4,
        handles: Vec::new(),
    };
    let c = p.content(0)?;
    // a trailing reset is harmless
    while p.buf.get(p.pos) == Some(&0x79) {
        p.pos += 1;
    }
    Ok((c, p.pos))
}

/// Parses a stream and maps its first item to JSON (see the module docs).
pub fn to_json(buf: &[u8]) -> Result<Value, JavaError> {
    parse(buf).and_then(|(c, _)| try_content_json(&c))
}

/// [`to_json`], drawing on the budget of the file the stream is part of.
pub fn to_json_within(buf: &[u8], file: &mut FileBudget) -> Result<Value, JavaError> {
    parse(buf).and_then(|(c, _)| try_content_json_within(&c, file))
}

impl<'a> Parser<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], JavaError> {
        if n > self.buf.len() - self.pos {
            return Err(JavaError::Eof {
                at: self.pos,
                wanted: n - (self.buf.len() - self.pos),
            });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, JavaError> {
        Ok(self.take(1)?[0])
    }
    fn peek(&self) -> Result<u8, JavaError> {
        self.buf.get(self.pos).copied().ok_or(JavaError::Eof {
            at: self.pos,
            wanted: 1,
        })
    }
    fn u16(&mut self) -> Result<u16, JavaError> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn i32(&mut self) -> Result<i32, JavaError> {
        let b = self.take(4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i64(&mut self) -> Result<i64, JavaError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(i64::from_be_bytes(a))
    }
    fn utf(&mut self) -> Result<String, JavaError> {
        let n = self.u16()? as usize;
        Ok(modified_utf8(self.take(n)?))
    }
    /// Fills a handle taken earlier (`new_handle`); never indexes out of the table.
    fn set_handle(&mut self, idx: usize, h: Handle) -> Result<(), JavaError> {
        match self.handles.get_mut(idx) {
            Some(slot) => {
                *slot = h;
                Ok(())
            }
            None => Err(JavaError::BadHandle {
                at: self.pos,
                handle: BASE_HANDLE.wrapping_add(idx as u32),
            }),
        }
    }
    fn new_handle(&mut self, h: Handle) -> usize {
        self.handles.push(h);
        self.handles.len() - 1
    }
    fn handle(&mut self) -> Result<(usize, u32), JavaError> {
        let at = self.pos;
        let h = self.i32()? as u32;
        let idx = h.wrapping_sub(BASE_HANDLE) as usize;
        if idx >= self.handles.len() {
            return Err(JavaError::BadHandle { at, handle: h });
        }
        Ok((idx, h))
    }

    fn content(&mut self, depth: usize) -> Result<Content, JavaError> {
        if depth > MAX_DEPTH {
            return Err(JavaError::TooDeep { at: self.pos });
        }
        let at = self.pos;
        let code = self.u8()?;
        match code {
            0x70 => Ok(Content::Null),
            0x71 => {
                let (idx, _handle) = self.handle()?;
                Ok(match &self.handles[idx] {
                    Handle::Value(Some(c)) => c.clone(),
                    Handle::Value(None) => Content::Null,
                    Handle::Class(c) => Content::Class(c.name.as_str().into()),
                })
            }
            0x72 | 0x7D => {
                self.pos = at;
                let c = self.class_desc(depth)?;
                Ok(Content::Class(
                    c.map(|c| c.name.as_str().into())
                        .unwrap_or_else(|| "".into()),
                ))
            }
            0x73 => self.object(depth),
            0x74 => {
                let s: Rc<str> = self.utf()?.into();
                self.new_handle(Handle::Value(Some(Content::Str(s.clone()))));
                Ok(Content::Str(s))
            }
            0x7C => {
                let len = self.i64()?;
                if len < 0 || len as u64 > (self.buf.len() - self.pos) as u64 {
                    return Err(JavaError::BadLength { at, len });
                }
                let s: Rc<str> = modified_utf8(self.take(len as usize)?).into();
                self.new_handle(Handle::Value(Some(Content::Str(s.clone()))));
                Ok(Content::Str(s))
            }
            0x75 => self.array(depth),
            0x76 => {
                let c = self.class_desc(depth)?;
                let v = Content::Class(
                    c.map(|c| c.name.as_str().into())
                        .unwrap_or_else(|| "".into()),
                );
                self.new_handle(Handle::Value(Some(v.clone())));
                Ok(v)
            }
            0x7E => {
                let c = self.class_desc(depth)?;
                let h = self.new_handle(Handle::Value(None));
                let name = match self.content(depth + 1)? {
                    Content::Str(s) => s,
                    _ => return Err(JavaError::UnexpectedCode { at, code }),
                };
                let v = Content::Enum(
                    c.map(|c| c.name.as_str().into())
                        .unwrap_or_else(|| "".into()),
                    name,
                );
                self.set_handle(h, Handle::Value(Some(v.clone())))?;
                Ok(v)
            }
            0x77 | 0x7A => {
                self.pos = at;
                Ok(Content::Block(self.blocks()?))
            }
            0x79 if depth == 0 => {
                // TC_RESET between top-level items: forget every handle. Java refuses a
                // reset inside an object ("unexpected reset; recursion depth"): handles
                // taken by the objects still open would dangle.
                self.handles.clear();
                while self.peek()? == 0x79 {
                    self.pos += 1;
                }
                self.content(depth)
            }
            0x79 => Err(JavaError::NestedReset { at }),
            0x7B => Err(JavaError::Exception { at }),
            _ => Err(JavaError::UnexpectedCode { at, code }),
        }
    }

    /// Reads consecutive block-data records into one byte string.
    fn blocks(&mut self) -> Result<Vec<u8>, JavaError> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Ok(0x77) => {
                    self.pos += 1;
                    let n = self.u8()? as usize;
                    out.extend_from_slice(self.take(n)?);
                }
                Ok(0x7A) => {
                    self.pos += 1;
                    let at = self.pos;
                    let n = self.i32()?;
                    if n < 0 {
                        return Err(JavaError::BadLength { at, len: n as i64 });
                    }
                    out.extend_from_slice(self.take(n as usize)?);
                }
                _ => return Ok(out),
            }
        }
    }

    fn class_desc(&mut self, depth: usize) -> Result<Option<Rc<ClassDesc>>, JavaError> {
        if depth > MAX_DEPTH {
            return Err(JavaError::TooDeep { at: self.pos });
        }
        let at = self.pos;
        match self.u8()? {
            0x70 => Ok(None),
            0x71 => {
                let (idx, handle) = self.handle()?;
                match &self.handles[idx] {
                    Handle::Class(c) => Ok(Some(c.clone())),
                    _ => Err(JavaError::BadHandle { at, handle }),
                }
            }
            0x72 => {
                let name = self.utf()?;
                let _suid = self.i64()?;
                let h = self.new_handle(Handle::Value(None));
                let flags = self.u8()?;
                let n = self.u16()? as usize;
                let mut fields = Vec::with_capacity(n.min(self.buf.len() - self.pos));
                for _ in 0..n {
                    let fat = self.pos;
                    let ty = self.u8()?;
                    let fname = self.utf()?;
                    match ty {
                        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => {}
                        b'L' | b'[' => {
                            // the type signature: a string or a reference to one
                            let _sig = self.content(depth + 1)?;
                        }
                        _ => {
                            return Err(JavaError::BadFieldType {
                                at: fat,
                                ty: ty as char,
                            });
                        }
                    }
                    fields.push(Field { ty, name: fname });
                }
                self.skip_annotation(depth)?;
                let superclass = self.class_desc(depth + 1)?;
                let desc = Rc::new(ClassDesc {
                    name,
                    flags,
                    fields,
                    superclass,
                });
                self.set_handle(h, Handle::Class(desc.clone()))?;
                Ok(Some(desc))
            }
            0x7D => {
                let h = self.new_handle(Handle::Value(None));
                let n = self.i32()?;
                if n < 0 || n as usize > self.buf.len() - self.pos {
                    return Err(JavaError::BadLength { at, len: n as i64 });
                }
                let mut names = Vec::with_capacity((n as usize).min(64));
                for _ in 0..n {
                    names.push(self.utf()?);
                }
                self.skip_annotation(depth)?;
                let superclass = self.class_desc(depth + 1)?;
                let desc = Rc::new(ClassDesc {
                    name: format!("$Proxy({})", names.join(",")),
                    flags: 0x02,
                    fields: Vec::new(),
                    superclass,
                });
                self.set_handle(h, Handle::Class(desc.clone()))?;
                Ok(Some(desc))
            }
            code => Err(JavaError::UnexpectedCode { at, code }),
        }
    }

    fn skip_annotation(&mut self, depth: usize) -> Result<(), JavaError> {
        self.annotation(depth).map(|_| ())
    }

    /// Content items up to and including `TC_ENDBLOCKDATA`.
    fn annotation(&mut self, depth: usize) -> Result<Vec<Content>, JavaError> {
        let mut out = Vec::new();
        loop {
            if self.peek()? == 0x78 {
                self.pos += 1;
                return Ok(out);
            }
            out.push(self.content(depth + 1)?);
        }
    }

    fn object(&mut self, depth: usize) -> Result<Content, JavaError> {
        let at = self.pos;
        let class = self
            .class_desc(depth + 1)?
            .ok_or(JavaError::UnexpectedCode { at, code: 0x70 })?;
        let h = self.new_handle(Handle::Value(None));
        let mut data = Vec::new();
        for cd in class.hierarchy() {
            let mut fields = Vec::new();
            let mut annotations = Vec::new();
            if cd.flags & 0x04 != 0 {
                if cd.flags & 0x08 == 0 {
                    return Err(JavaError::Externalizable {
                        at: self.pos,
                        class: cd.name.clone(),
                    });
                }
                annotations = self.annotation(depth)?;
            } else if cd.flags & 0x02 != 0 {
                let write_method = cd.flags & 0x01 != 0;
                let skip_fields = write_method && self.no_default_fields(&cd)?;
                if !skip_fields {
                    for f in &cd.fields {
                        let v = self.field_value(f.ty, depth)?;
                        fields.push((f.name.clone(), v));
                    }
                }
                if write_method {
                    annotations = self.annotation(depth)?;
                }
            }
            data.push(ClassData {
                class: cd.clone(),
                fields,
                annotations,
            });
        }
        let obj = Content::Object(Rc::new(Object { class, data }));
        self.set_handle(h, Handle::Value(Some(obj.clone())))?;
        Ok(obj)
    }

    /// True when a `writeObject` class wrote no default fields: NitriteId (known), or
    /// any class whose first field is an object but whose data starts with block data
    /// or its end marker.
    fn no_default_fields(&self, cd: &ClassDesc) -> Result<bool, JavaError> {
        if cd.name == "org.dizitart.no2.collection.NitriteId" {
            return Ok(true);
        }
        match cd.fields.first() {
            None => Ok(false),
            Some(f) if f.ty == b'L' || f.ty == b'[' => {
                Ok(matches!(self.peek()?, 0x77 | 0x7A | 0x78))
            }
            Some(_) => Ok(false),
        }
    }

    fn field_value(&mut self, ty: u8, depth: usize) -> Result<Content, JavaError> {
        Ok(match ty {
            b'B' => Content::Prim(Prim::Int(self.u8()? as i8 as i64)),
            b'C' => Content::Prim(Prim::Int(self.u16()? as i64)),
            b'S' => Content::Prim(Prim::Int(self.u16()? as i16 as i64)),
            b'I' => Content::Prim(Prim::Int(self.i32()? as i64)),
            b'J' => Content::Prim(Prim::Int(self.i64()?)),
            b'F' => Content::Prim(Prim::Float(f32::from_bits(self.i32()? as u32) as f64)),
            b'D' => Content::Prim(Prim::Float(f64::from_bits(self.i64()? as u64))),
            b'Z' => Content::Prim(Prim::Bool(self.u8()? != 0)),
            _ => self.content(depth + 1)?,
        })
    }

    fn array(&mut self, depth: usize) -> Result<Content, JavaError> {
        let at = self.pos;
        let class = self
            .class_desc(depth + 1)?
            .ok_or(JavaError::UnexpectedCode { at, code: 0x70 })?;
        let h = self.new_handle(Handle::Value(None));
        let lat = self.pos;
        let n = self.i32()?;
        let elem = class.name.as_bytes().get(1).copied().unwrap_or(b'L');
        let unit = match elem {
            b'B' | b'Z' => 1,
            b'C' | b'S' => 2,
            b'I' | b'F' => 4,
            b'J' | b'D' => 8,
            _ => 1,
        };
        if n < 0 || (n as usize).saturating_mul(unit) > self.buf.len() - self.pos {
            return Err(JavaError::BadLength {
                at: lat,
                len: n as i64,
            });
        }
        // capacity by what is read, not by what the length claims: nested arrays each
        // claiming the whole rest of the stream would reserve it again at every level
        let mut items = Vec::with_capacity((n as usize).min(1024));
        for _ in 0..n {
            items.push(self.field_value(elem, depth)?);
        }
        let v = Content::Array(Rc::new(items));
        self.set_handle(h, Handle::Value(Some(v.clone())))?;
        Ok(v)
    }
}

/// Decodes modified UTF-8 (Java's `writeUTF` coding) through UTF-16, lossily.
pub fn modified_utf8(bytes: &[u8]) -> String {
    if bytes.is_ascii() && !bytes.contains(&0) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut units = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i] as u32;
        let cont = |k: usize| {
            bytes
                .get(i + k)
                .map(|x| *x as u32)
                .filter(|x| x & 0xC0 == 0x80)
        };
        if b < 0x80 {
            units.push(b as u16);
            i += 1;
        } else if b & 0xE0 == 0xC0 {
            match cont(1) {
                Some(c1) => {
                    units.push((((b & 0x1F) << 6) | (c1 & 0x3F)) as u16);
                    i += 2;
                }
                None => {
                    units.push(0xFFFD);
                    i += 1;
                }
            }
        } else if b & 0xF0 == 0xE0 {
            match (cont(1), cont(2)) {
                (Some(c1), Some(c2)) => {
                    units.push((((b & 0x0F) << 12) | ((c1 & 0x3F) << 6) | (c2 & 0x3F)) as u16);
                    i += 3;
                }
                _ => {
                    units.push(0xFFFD);
                    i += 1;
                }
            }
        } else {
            units.push(0xFFFD);
            i += 1;
        }
    }
    String::from_utf16_lossy(&units)
}

fn prim_json(p: Prim) -> Value {
    match p {
        Prim::Int(i) => Value::from(i),
        Prim::Float(f) => serde_json::Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Prim::Bool(b) => Value::Bool(b),
    }
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Pairs of content items as a JSON object (keys as text).
fn pairs_json(items: &[Content], depth: usize, b: &mut Budget) -> Value {
    let mut m = Map::new();
    for kv in items.chunks(2) {
        if let [k, v] = kv {
            if matches!(k, Content::Null) && matches!(v, Content::Null) {
                break;
            }
            m.insert(key_text(&json(k, depth + 1, b)), json(v, depth + 1, b));
        }
    }
    Value::Object(m)
}

/// The annotation items after the leading block of primitives.
fn after_block(items: &[Content]) -> &[Content] {
    match items.first() {
        Some(Content::Block(_)) => &items[1..],
        _ => items,
    }
}

/// The most JSON values one stream is mapped to: far above any real document.
const MAX_JSON_VALUES: usize = 1 << 21;
/// The most bytes of text (strings, hex blocks) one stream is mapped to.
const MAX_JSON_TEXT: usize = 64 << 20;

/// JSON values the streams of one file may expand to, per byte of the file, on top of
/// [`MAX_JSON_VALUES`]. Real stores use below 0.02 (the reference and fixture stores:
/// at most 0.04 per byte of a stream, and a stream takes at most the file).
const FILE_VALUES_PER_BYTE: usize = 16;
/// Bytes of text the streams of one file may expand to, per byte of the file, on top of
/// [`MAX_JSON_TEXT`]: the real stores use at most 1 (a long reply), and compressed pages
/// hold a few times their stored size.
const FILE_TEXT_PER_BYTE: usize = 64;

/// What is left of the JSON form's size. A back-reference (`TC_REFERENCE`) costs five
/// bytes of stream but repeats a whole object, so a stream of references to references
/// would otherwise expand exponentially.
struct Budget {
    values: usize,
    text: usize,
    hit: Option<Limit>,
}

/// Which part of a [`Budget`] ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limit {
    Values,
    Text,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            values: MAX_JSON_VALUES,
            text: MAX_JSON_TEXT,
            hit: None,
        }
    }
    /// Spends one value with `text` bytes of text; false once the budget is gone.
    fn spend(&mut self, text: usize) -> bool {
        if self.hit.is_some() {
            return false;
        }
        if self.values == 0 {
            self.hit = Some(Limit::Values);
            return false;
        }
        if text > self.text {
            self.hit = Some(Limit::Text);
            return false;
        }
        self.values -= 1;
        self.text -= text;
        true
    }
}

/// What is left of the JSON form's size for all the streams of one file: the limit of
/// one stream (2,097,152 values, 64 MiB of text) plus 16 values and 64 bytes of text
/// per byte of the file. Each stream may spend at most the limit of one stream and what
/// the file has left, and what it spends is gone, also when it fails: without it, a
/// file of many small streams of references to references cost two million values each
/// (200 streams, 110 KB: 52 s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileBudget {
    values: usize,
    text: usize,
    limit_values: usize,
    limit_text: usize,
}

impl FileBudget {
    /// The budget of a file of `len` bytes.
    pub fn for_file(len: usize) -> FileBudget {
        let values = MAX_JSON_VALUES.saturating_add(len.saturating_mul(FILE_VALUES_PER_BYTE));
        let text = MAX_JSON_TEXT.saturating_add(len.saturating_mul(FILE_TEXT_PER_BYTE));
        FileBudget {
            values,
            text,
            limit_values: values,
            limit_text: text,
        }
    }

    /// JSON values still allowed.
    pub fn values_left(&self) -> usize {
        self.values
    }

    /// Bytes of text still allowed.
    pub fn text_left(&self) -> usize {
        self.text
    }
}

/// Maps a content item to JSON (see the module docs for the class mapping). Bounded:
/// past `MAX_DEPTH` levels, or once back-references have expanded the result beyond
/// two million values or 64 MiB of text, the rest is `null`; [`try_content_json`] says
/// so instead.
pub fn content_json(c: &Content, depth: usize) -> Value {
    json(c, depth, &mut Budget::new())
}

/// Maps a content item to JSON, or [`JavaError::Expansion`] when its back-references
/// expand beyond two million values or 64 MiB of text (see [`content_json`]).
pub fn try_content_json(c: &Content) -> Result<Value, JavaError> {
    let mut b = Budget::new();
    let v = json(c, 0, &mut b);
    if b.hit.is_some() {
        return Err(JavaError::Expansion {
            limit: MAX_JSON_VALUES,
        });
    }
    Ok(v)
}

/// [`try_content_json`] within what the file's budget has left, which it charges: an
/// error is [`JavaError::Expansion`] when the stream reached the limit of one stream,
/// [`JavaError::FileExpansion`] when it reached what the file had left.
pub fn try_content_json_within(c: &Content, file: &mut FileBudget) -> Result<Value, JavaError> {
    let values = MAX_JSON_VALUES.min(file.values);
    let text = MAX_JSON_TEXT.min(file.text);
    let mut b = Budget {
        values,
        text,
        hit: None,
    };
    let v = json(c, 0, &mut b);
    file.values -= values - b.values;
    file.text -= text - b.text;
    match b.hit {
        None => Ok(v),
        Some(Limit::Values) if values < MAX_JSON_VALUES => Err(file.exceeded()),
        Some(Limit::Text) if text < MAX_JSON_TEXT => Err(file.exceeded()),
        Some(_) => Err(JavaError::Expansion {
            limit: MAX_JSON_VALUES,
        }),
    }
}

impl FileBudget {
    fn exceeded(&self) -> JavaError {
        JavaError::FileExpansion {
            values: self.limit_values,
            text: self.limit_text,
        }
    }
}

fn json(c: &Content, depth: usize, b: &mut Budget) -> Value {
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    let text = match c {
        Content::Str(s) | Content::Class(s) | Content::Enum(_, s) => s.len(),
        Content::Block(x) => x.len().saturating_mul(2),
        _ => 0,
    };
    if !b.spend(text) {
        return Value::Null;
    }
    match c {
        Content::Null => Value::Null,
        Content::Str(s) => Value::String(s.to_string()),
        Content::Enum(_, name) => Value::String(name.to_string()),
        Content::Class(name) => Value::String(name.to_string()),
        Content::Prim(p) => prim_json(*p),
        Content::Block(b) => Value::String(b.iter().map(|x| format!("{x:02x}")).collect()),
        Content::Array(items) => {
            Value::Array(items.iter().map(|i| json(i, depth + 1, b)).collect())
        }
        Content::Object(o) => object_json(o, depth, b),
    }
}

fn object_json(o: &Object, depth: usize, b: &mut Budget) -> Value {
    let name = o.class.name.as_str();
    if let Some(d) = o
        .class_data("java.util.HashMap")
        .or_else(|| o.class_data("java.util.TreeMap"))
    {
        return pairs_json(after_block(&d.annotations), depth, b);
    }
    if let Some(d) = o.class_data("java.util.concurrent.ConcurrentHashMap") {
        return pairs_json(after_block(&d.annotations), depth, b);
    }
    if let Some(d) = o.class_data("java.util.Hashtable") {
        return pairs_json(after_block(&d.annotations), depth, b);
    }
    for list in [
        "java.util.ArrayList",
        "java.util.concurrent.CopyOnWriteArrayList",
        "java.util.HashSet",
        "java.util.LinkedList",
        "java.util.ArrayDeque",
        "java.util.TreeSet",
        "java.util.Vector",
    ] {
        if let Some(d) = o.class_data(list) {
            if list == "java.util.Vector" {
                if let Some(Content::Array(a)) = o.field("elementData") {
                    let n = match o.field("elementCount") {
                        Some(Content::Prim(Prim::Int(n))) => (*n).max(0) as usize,
                        _ => a.len(),
                    };
                    return Value::Array(a.iter().take(n).map(|i| json(i, depth + 1, b)).collect());
                }
            }
            return Value::Array(
                after_block(&d.annotations)
                    .iter()
                    .map(|i| json(i, depth + 1, b))
                    .collect(),
            );
        }
    }
    if name == "org.dizitart.no2.collection.NitriteId" {
        if let Some(Content::Block(block)) = o.data.last().and_then(|d| d.annotations.first()) {
            if let [hi, lo, rest @ ..] = block.as_slice() {
                let n = u16::from_be_bytes([*hi, *lo]) as usize;
                if let Some(s) = rest.get(..n) {
                    if !b.spend(n) {
                        return Value::Null;
                    }
                    return Value::String(modified_utf8(s));
                }
            }
        }
        if let Some(v) = o.field("idValue").or_else(|| o.field("_idValue")) {
            return json(v, depth + 1, b);
        }
    }
    if o.is_a("java.lang.Number") || o.is_a("java.lang.Boolean") || o.is_a("java.lang.Character") {
        if let Some(v) = o.field("value") {
            return json(v, depth + 1, b);
        }
    }
    if name == "java.util.Date" {
        if let Some(Content::Block(b)) = o.data.last().and_then(|d| d.annotations.first()) {
            if let Ok(a) = <[u8; 8]>::try_from(b.get(..8).unwrap_or(&[])) {
                return Value::from(i64::from_be_bytes(a));
            }
        }
    }
    if name == "java.util.UUID" {
        if let (Some(Content::Prim(Prim::Int(hi))), Some(Content::Prim(Prim::Int(lo)))) =
            (o.field("mostSigBits"), o.field("leastSigBits"))
        {
            return Value::String(crate::mvstore::uuid_text(*hi as u64, *lo as u64));
        }
    }
    // the class and field names are copied for every reference to the object: count them
    let names = name.len()
        + o.data
            .iter()
            .flat_map(|d| d.fields.iter())
            .map(|(k, _)| k.len())
            .sum::<usize>();
    if !b.spend(names) {
        return Value::Null;
    }
    let mut m = Map::new();
    m.insert("@class".into(), Value::String(name.to_string()));
    let mut extra = Vec::new();
    for d in &o.data {
        for (k, v) in &d.fields {
            m.insert(k.clone(), json(v, depth + 1, b));
        }
        extra.extend(d.annotations.iter().map(|a| json(a, depth + 1, b)));
    }
    if !extra.is_empty() {
        m.insert("@annotations".into(), Value::Array(extra));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_utf8_nul_and_surrogates() {
        // C0 80 = U+0000; ED A0 BD ED B8 80 = U+1F600 as two 3-byte halves
        let s = modified_utf8(&[b'a', 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(s, "a\u{0}\u{1F600}");
        // a lone high surrogate becomes U+FFFD
        assert_eq!(modified_utf8(&[0xED, 0xA0, 0xBD, b'x']), "\u{FFFD}x");
    }

    #[test]
    fn nitrite_id_writes_only_utf() {
        // sr NitriteId, SUID, flags 03, 1 field L idValue t Ljava/lang/String; x p, then 77 block, 78
        let mut b = vec![0xAC, 0xED, 0x00, 0x05, 0x73, 0x72];
        let name = b"org.dizitart.no2.collection.NitriteId";
        b.extend_from_slice(&(name.len() as u16).to_be_bytes());
        b.extend_from_slice(name);
        b.extend_from_slice(&0x58104967u64.to_be_bytes());
        b.extend_from_slice(&[0x03, 0x00, 0x01, b'L', 0x00, 0x07]);
        b.extend_from_slice(b"idValue");
        b.extend_from_slice(&[0x74, 0x00, 0x12]);
        b.extend_from_slice(b"Ljava/lang/String;");
        b.extend_from_slice(&[0x78, 0x70, 0x77, 0x15, 0x00, 0x13]);
        b.extend_from_slice(b"2002125108750815232");
        b.push(0x78);
        let (c, used) = parse(&b).unwrap();
        assert_eq!(used, b.len());
        assert_eq!(
            content_json(&c, 0),
            Value::String("2002125108750815232".into())
        );
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse(b"\xAC\xED\x00\x04"), Err(JavaError::NoMagic));
        assert_eq!(
            parse(b"\xAC\xED\x00\x05\x74\x00\x09abc"),
            Err(JavaError::Eof { at: 7, wanted: 6 })
        );
        assert_eq!(
            parse(b"\xAC\xED\x00\x05\x71\x00\x7E\x00\x00"),
            Err(JavaError::BadHandle {
                at: 5,
                handle: 0x7E0000
            })
        );
        assert_eq!(
            parse(b"\xAC\xED\x00\x05\x7F"),
            Err(JavaError::UnexpectedCode { at: 4, code: 0x7F })
        );
        assert_eq!(
            parse(b"\xAC\xED\x00\x05\x7C\x7F\x00\x00\x00\x00\x00\x00\x00"),
            Err(JavaError::BadLength {
                at: 4,
                len: 0x7F00_0000_0000_0000
            })
        );
    }

    /// `sr`-less class descriptor of `name` (flags SERIALIZABLE, no fields, no annotation).
    fn class_desc(name: &str) -> Vec<u8> {
        let mut b = vec![0x72];
        b.extend_from_slice(&(name.len() as u16).to_be_bytes());
        b.extend_from_slice(name.as_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[0x02, 0x00, 0x00, 0x78]);
        b
    }

    fn reference(handle: u32) -> [u8; 5] {
        let h = (BASE_HANDLE + handle).to_be_bytes();
        [0x71, h[0], h[1], h[2], h[3]]
    }

    #[test]
    fn deep_nesting_is_refused() {
        // top-level resets are skipped in a loop (no recursion): 10 000 of them, then the end
        let mut b = vec![0xAC, 0xED, 0x00, 0x05];
        b.extend(std::iter::repeat_n(0x79, 10_000));
        assert_eq!(
            parse(&b),
            Err(JavaError::Eof {
                at: 10_004,
                wanted: 1
            })
        );
        // a class whose superclass chain is 10 000 descriptors long
        let mut b = vec![0xAC, 0xED, 0x00, 0x05, 0x76];
        for i in 0..10_000 {
            b.extend(class_desc(&format!("C{i}")));
        }
        b.push(0x70);
        assert!(matches!(parse(&b), Err(JavaError::TooDeep { .. })));
    }

    #[test]
    fn a_reset_inside_an_object_is_refused() {
        // an enum constant whose name is preceded by a reset: the enum's handle would
        // dangle (this panicked with an index into the emptied handle table)
        let mut b = vec![0xAC, 0xED, 0x00, 0x05, 0x7E];
        b.extend(class_desc("E"));
        b.push(0x70);
        let at = b.len();
        b.extend_from_slice(&[0x79, 0x74, 0x00, 0x01, b'A']);
        assert_eq!(parse(&b), Err(JavaError::NestedReset { at }));
        // a reset inside a class descriptor's field signature (the other panic)
        let mut b = vec![0xAC, 0xED, 0x00, 0x05, 0x73, 0x72, 0x00, 0x01, b'C'];
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[0x02, 0x00, 0x01, b'L', 0x00, 0x01, b'f']);
        let at = b.len();
        b.extend_from_slice(&[0x79, 0x74, 0x00, 0x01, b'x', 0x78, 0x70]);
        assert_eq!(parse(&b), Err(JavaError::NestedReset { at }));
    }

    #[test]
    fn references_cannot_expand_without_bound() {
        // 40 nested arrays, each holding the next one and a reference to it: 2^40 leaves
        let k = 40u32;
        let mut b = vec![0xAC, 0xED, 0x00, 0x05];
        for i in 1..=k {
            b.push(0x75);
            if i == 1 {
                b.extend(class_desc("[Ljava.lang.Object;"));
                b.push(0x70);
            } else {
                b.extend(reference(0));
            }
            b.extend_from_slice(&2i32.to_be_bytes());
        }
        b.extend_from_slice(&[0x74, 0x00, 0x01, b'x']);
        b.extend(reference(k + 1));
        for i in (1..k).rev() {
            b.extend(reference(i + 1));
        }
        let (c, used) = parse(&b).unwrap();
        assert_eq!(used, b.len());
        assert_eq!(
            to_json(&b),
            Err(JavaError::Expansion {
                limit: MAX_JSON_VALUES
            })
        );
        // the plain mapping stays bounded: the first leaf is there, the rest is null
        let v = content_json(&c, 0);
        let mut leaf = &v;
        for _ in 0..k {
            leaf = &leaf[0];
        }
        assert_eq!(leaf, "x");
        // two levels expand as they should
        let small = [
            &[0xAC, 0xED, 0x00, 0x05, 0x75][..],
            &class_desc("[Ljava.lang.Object;"),
            &[0x70, 0, 0, 0, 2, 0x74, 0x00, 0x01, b'x'],
            &reference(2),
        ]
        .concat();
        assert_eq!(to_json(&small), Ok(serde_json::json!(["x", "x"])));
    }
}
