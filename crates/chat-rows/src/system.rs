//! The texts of the system rows the store specifications define.
//!
//! Responders grep these texts (`parser:`, `model:`, `permission decision:` ...) across
//! stores, so their exact form is part of the output contract. Every crate builds them
//! here; none formats them by hand.
//!
//! The quoted line or record in a `parser:` row is cut to [`MAX_QUOTED`] characters, so
//! a 100 MB broken line does not become a 100 MB row; the cut says how long the
//! original was.

use std::fmt::{self, Display};

use crate::secrets::withhold_raw;

/// The most characters of a broken line or record quoted in a `parser:` row.
pub const MAX_QUOTED: usize = 400;

/// Cuts `text` to [`MAX_QUOTED`] characters, saying how many bytes were left out, with
/// the secrets of the quoted part withheld ([`withhold_raw`]: a quote is of a record or
/// line as written, whatever it holds).
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        None => withhold_raw(text).into_owned(),
        Some((cut, _)) => format!(
            "{}… [{} bytes in all]",
            withhold_raw(&text[..cut]),
            text.len()
        ),
    }
}

/// What [`quote`] gives for a text of `len` bytes of which `head` is the start, cut
/// to [`MAX_QUOTED`] characters or whole ([`crate::lines::Line::quoted`]): `head`
/// when it is the whole text, else `head… [<len> bytes in all]`.
pub fn quote_cut(head: &str, len: usize) -> String {
    if head.len() >= len {
        withhold_raw(head).into_owned()
    } else {
        cut_quote(head, len)
    }
}

/// `head… [<len> bytes in all]`, a quote said to be cut whatever the lengths: for a
/// quote of a text rewritten before quoting (a line with a binary asset's data replaced
/// by a note that may be longer than the data), whose cut head can be longer than the
/// line itself.
pub fn cut_quote(head: &str, len: usize) -> String {
    format!("{}… [{len} bytes in all]", withhold_raw(head))
}

/// The start of `bytes` as text (invalid UTF-8 replaced), to [`MAX_QUOTED`]
/// characters, reading only a bounded prefix; and whether that is the whole text.
pub fn quoted_start(bytes: &[u8]) -> (String, bool) {
    let head = &bytes[..bytes.len().min(MAX_QUOTED * 4 + 4)];
    let text = String::from_utf8_lossy(head);
    match text.char_indices().nth(MAX_QUOTED) {
        None => {
            let whole = head.len() == bytes.len();
            (text.into_owned(), whole)
        }
        Some((cut, _)) => (text[..cut].to_string(), false),
    }
}

/// Like [`quote`] for raw bytes (invalid UTF-8 replaced), reading only a bounded
/// prefix, so quoting a 100 MB broken line costs no more than quoting a short one.
/// The cut states the length of the whole input in bytes.
pub fn quote_bytes(bytes: &[u8]) -> String {
    match quoted_start(bytes) {
        (text, true) => withhold_raw(&text).into_owned(),
        (text, false) => format!("{}… [{} bytes in all]", withhold_raw(&text), bytes.len()),
    }
}

/// `parser: unparseable line (<reason>): <line>` for a line given as bytes (see [`quote_bytes`]).
pub fn unparseable_line_bytes(reason: impl Display, line: &[u8]) -> String {
    format!("parser: unparseable line ({reason}): {}", quote_bytes(line))
}

/// `parser: mutation not applied (<why>): <line>` for a line given as bytes (see [`quote_bytes`]).
pub fn mutation_not_applied_bytes(why: impl Display, line: &[u8]) -> String {
    format!(
        "parser: mutation not applied ({why}): {}",
        quote_bytes(line)
    )
}

/// `parser: <message>`: the generic form, for damage the specs name only by file.
pub fn parser(message: impl Display) -> String {
    format!("parser: {message}")
}

/// `parser: unparseable line (<reason>): <line>`, the line cut to a bounded length.
pub fn unparseable_line(reason: impl Display, line: &str) -> String {
    format!("parser: unparseable line ({reason}): {}", quote(line))
}

/// `parser: unparseable line (<reason>): <quoted>` for a line already quoted
/// ([`quote_cut`], [`crate::lines::BadLine::quote`]).
pub fn unparseable_line_quoted(reason: impl Display, quoted: &str) -> String {
    format!("parser: unparseable line ({reason}): {quoted}")
}

/// `parser: mutation not applied (<why>): <line>`.
pub fn mutation_not_applied(why: impl Display, line: &str) -> String {
    format!("parser: mutation not applied ({why}): {}", quote(line))
}

/// `parser: unparseable record <N> (<reason>): <record>`.
pub fn unparseable_record(n: impl Display, reason: impl Display, record: &str) -> String {
    format!(
        "parser: unparseable record {n} ({reason}): {}",
        quote(record)
    )
}

/// `parser: file is not valid JSON (<reason>)`.
pub fn file_not_json(reason: impl Display) -> String {
    format!("parser: file is not valid JSON ({reason})")
}

/// `parser: <what> is not a JSON object`, for example `state.json`.
pub fn not_json_object(what: impl Display) -> String {
    format!("parser: {what} is not a JSON object")
}

/// `parser: <what> is not a JSON object (<reason>)`, for example `User/settings.json`.
pub fn not_json_object_because(what: impl Display, reason: impl Display) -> String {
    format!("parser: {what} is not a JSON object ({reason})")
}

/// `parser: ItemTable value for <key> is not valid JSON (<reason>)`.
pub fn value_not_json(key: impl Display, reason: impl Display) -> String {
    format!("parser: ItemTable value for {key} is not valid JSON ({reason})")
}

/// `parser: ItemTable value for <key> is not a JSON object or array`.
pub fn value_not_object_or_array(key: impl Display) -> String {
    format!("parser: ItemTable value for {key} is not a JSON object or array")
}

/// `(from <source>, <time source>)`, the provenance suffix of setting and sync rows.
pub fn from(source: impl Display, time_source: impl Display) -> String {
    format!("(from {source}, {time_source})")
}

/// A model as the model rows print it: the id, then its options as sorted `key=value` pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelSpec {
    /// The model id.
    pub id: String,
    /// The options (context size, reasoning effort ...), sorted by key.
    pub options: Vec<(String, String)>,
}

impl ModelSpec {
    /// A model without options.
    pub fn new(id: impl Into<String>) -> ModelSpec {
        ModelSpec {
            id: id.into(),
            options: Vec::new(),
        }
    }

    /// A model with options; they are sorted by key.
    pub fn with_options(id: impl Into<String>, mut options: Vec<(String, String)>) -> ModelSpec {
        options.sort();
        ModelSpec {
            id: id.into(),
            options,
        }
    }
}

impl Display for ModelSpec {
    /// The id, then ` key=value` per option, a value quoted as [`key_values`] quotes
    /// it (only when it needs quotes: `effort="very high"`, `ctx="{\"size\":128000}"`,
    /// `reasoningEffort=high`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        for (k, v) in &self.options {
            write!(f, " {k}=")?;
            if needs_quotes(v) {
                f.write_str(&serde_json::to_string(v).unwrap_or_default())?;
            } else {
                f.write_str(v)?;
            }
        }
        Ok(())
    }
}

/// `model: <id>`.
pub fn model(spec: impl Display) -> String {
    format!("model: {spec}")
}

/// `model: <old> -> <new>`.
pub fn model_change(old: impl Display, new: impl Display) -> String {
    format!("model: {old} -> {new}")
}

/// Emits `<prefix>: <v>` for the first value seen and `<prefix>: <old> -> <new>` for
/// each change, as the model, permission mode and permission level rows require.
#[derive(Clone, Debug)]
pub struct ChangeTracker<T> {
    prefix: &'static str,
    last: Option<T>,
}

impl<T: PartialEq + Display + Clone> ChangeTracker<T> {
    /// A tracker for `model`, `permission mode`, `permission level` ...
    pub fn new(prefix: &'static str) -> ChangeTracker<T> {
        ChangeTracker { prefix, last: None }
    }

    /// A tracker for `model:` rows.
    pub fn model() -> ChangeTracker<T> {
        ChangeTracker::new("model")
    }

    /// Records a value; returns the row text when it is the first value or a change.
    pub fn observe(&mut self, value: T) -> Option<String> {
        let text = match &self.last {
            None => format!("{}: {value}", self.prefix),
            Some(old) if *old != value => format!("{}: {old} -> {value}", self.prefix),
            Some(_) => return None,
        };
        self.last = Some(value);
        Some(text)
    }

    /// [`ChangeTracker::observe`] writing its text, byte for byte, at the end of `out`
    /// instead of allocating it; true when it wrote one (`out` is left as it was
    /// otherwise).
    pub fn observe_into(&mut self, value: T, out: &mut String) -> bool {
        use std::fmt::Write as _;
        let _ = match &self.last {
            None => write!(out, "{}: {value}", self.prefix),
            Some(old) if *old != value => write!(out, "{}: {old} -> {value}", self.prefix),
            Some(_) => return false,
        };
        self.last = Some(value);
        true
    }

    /// The last value seen.
    pub fn last(&self) -> Option<&T> {
        self.last.as_ref()
    }
}

/// `permission mode: <mode>` / `permission mode: <old> -> <new>` tracker.
pub fn permission_mode_tracker<T: PartialEq + Display + Clone>() -> ChangeTracker<T> {
    ChangeTracker::new("permission mode")
}

/// `permission level: <level>` / `permission level: <old> -> <new>` tracker.
pub fn permission_level_tracker<T: PartialEq + Display + Clone>() -> ChangeTracker<T> {
    ChangeTracker::new("permission level")
}

/// `permission decision: <detail>`.
pub fn permission_decision(detail: impl Display) -> String {
    format!("permission decision: {detail}")
}

/// `permission setting: <key>=<value> (from <file>, <time source>)`.
pub fn permission_setting(key: impl Display, value: impl Display, from_: &str) -> String {
    format!("permission setting: {key}={value} {from_}")
}

/// `model setting: <detail> (from ...)`: a configured default, not a record of use.
pub fn model_setting(detail: impl Display, from_: &str) -> String {
    format!("model setting: {detail} {from_}")
}

/// `model configured: <detail> (from ...)`: a model a server's configuration names.
pub fn model_configured(detail: impl Display, from_: &str) -> String {
    format!("model configured: {detail} {from_}")
}

/// `session start: key=value ...`. Values that hold spaces, `=` or quotes are JSON-quoted;
/// empty values are left out.
pub fn session_start(fields: &[(&str, &str)]) -> String {
    let mut out = String::new();
    session_start_into(&mut out, fields);
    out
}

/// [`session_start`]'s text written into `out` (cleared first), for readers that write
/// their rows' texts into a reused buffer.
pub fn session_start_into(out: &mut String, fields: &[(&str, &str)]) {
    out.clear();
    out.push_str("session start: ");
    key_values_into(out, fields);
}

/// `session synced: <detail> (from ...)`.
pub fn session_synced(detail: impl Display, from_: &str) -> String {
    format!("session synced: {detail} {from_}")
}

/// `session origin: <detail> (from ...)`.
pub fn session_origin(detail: impl Display, from_: &str) -> String {
    format!("session origin: {detail} {from_}")
}

/// `session index: key=value ...`: a session as an index lists it (VS Code's
/// `chat.ChatSessionStore.index`), a secondary source of titles and times. Values are
/// quoted as in [`session_start`]; empty values are left out.
pub fn session_index(fields: &[(&str, &str)]) -> String {
    format!("session index: {}", key_values(fields))
}

/// `source host: <detail> (from ...)`.
pub fn source_host(detail: impl Display, from_: &str) -> String {
    format!("source host: {detail} {from_}")
}

/// `source host repository: <detail> (from ...)`.
pub fn source_host_repository(detail: impl Display, from_: &str) -> String {
    format!("source host repository: {detail} {from_}")
}

/// `page start | title <title> | author <email (name)> | code_source <id>` (Tabby pages).
pub fn page_start(title: &str, author: &str, code_source: &str) -> String {
    format!("page start | title {title} | author {author} | code_source {code_source}")
}

/// `inline edit command history: <N> commands, newest first (from <source>, no times)`.
pub fn command_history(commands: usize, source: impl Display) -> String {
    format!(
        "inline edit command history: {commands} commands, newest first (from {source}, no times)"
    )
}

/// `parser: <file> is not valid TOML (<reason>)`; the reason never quotes the file.
pub fn not_valid_toml(file: impl Display, reason: impl Display) -> String {
    format!("parser: {file} is not valid TOML ({reason})")
}

/// `parser: not a readable XML document (<reason>)`.
pub fn not_readable_xml(reason: impl Display) -> String {
    format!("parser: not a readable XML document ({reason})")
}

/// `edit state: <state> <path> request=<id> model=<id>[ deleted=true] (from ...)`; absent values print `-`.
pub fn edit_state(
    state: &str,
    path: &str,
    request: Option<&str>,
    model: Option<&str>,
    deleted: bool,
    from_: &str,
) -> String {
    let dash = |v: Option<&str>| v.filter(|s| !s.is_empty()).unwrap_or("-").to_string();
    format!(
        "edit state: {state} {path} request={} model={}{} {from_}",
        dash(request),
        dash(model),
        if deleted { " deleted=true" } else { "" }
    )
}

/// Formats `key=value` pairs separated by spaces, quoting values that need it and
/// leaving out empty values.
pub fn key_values(fields: &[(&str, &str)]) -> String {
    let mut out = String::new();
    key_values_into(&mut out, fields);
    out
}

/// [`key_values`] appended to `out`.
pub fn key_values_into(out: &mut String, fields: &[(&str, &str)]) {
    let start = out.len();
    for (k, v) in fields {
        if v.is_empty() {
            continue;
        }
        if out.len() > start {
            out.push(' ');
        }
        out.push_str(k);
        out.push('=');
        if needs_quotes(v) {
            out.push_str(&serde_json::to_string(v).unwrap_or_default());
        } else {
            out.push_str(v);
        }
    }
}

/// True when a `key=value` value must be JSON-quoted to read back unambiguously: it
/// holds a space, `=`, a quote, a newline or a tab ([`key_values`], [`ModelSpec`]).
fn needs_quotes(v: &str) -> bool {
    // bytes, not a pattern of chars (which searches for each character in turn)
    v.bytes()
        .any(|b| matches!(b, b' ' | b'=' | b'"' | b'\n' | b'\t'))
}

/// `chat: <internalId> | account=<accountId> | messages=<n> (legacy JetBrains history)`:
/// one chat of a legacy JetBrains `cody_history.xml`.
pub fn legacy_chat(internal_id: &str, account: &str, messages: usize) -> String {
    format!(
        "chat: {internal_id} | account={account} | messages={messages} (legacy JetBrains history)"
    )
}

/// Token usage of one model call or one session, as every store prints it (see [`usage`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Usage<'a> {
    /// The model the counts belong to.
    pub model: &'a str,
    /// Input tokens.
    pub input: Option<i64>,
    /// Output tokens.
    pub output: Option<i64>,
    /// Cache-read tokens.
    pub cache_read: Option<i64>,
    /// Cache-write (cache creation) tokens.
    pub cache_write: Option<i64>,
    /// Reasoning tokens.
    pub reasoning: Option<i64>,
    /// Billing units (nano AIU), when known.
    pub nano_aiu: Option<i64>,
    /// Number of requests, when known.
    pub requests: Option<i64>,
    /// Duration in milliseconds, when known.
    pub duration_ms: Option<i64>,
    /// Finish reason, when known.
    pub finish: Option<&'a str>,
    /// Turn index, when known.
    pub turn: Option<i64>,
    /// `call` or `session`.
    pub scope: &'a str,
}

/// `usage: model=<m> input=<n> output=<n> cache_read=<n> cache_write=<n> reasoning=<n>`,
/// then ` nano_aiu=<n> requests=<n> duration_ms=<n> finish=<reason> turn=<n>` where
/// known, and last ` scope=<scope>`. An absent count prints `-`, a stored 0 prints `0`;
/// one text for every store, so copies of the same usage can merge.
pub fn usage(u: &Usage<'_>) -> String {
    let n = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    let mut out = format!(
        "usage: model={} input={} output={} cache_read={} cache_write={} reasoning={}",
        if u.model.is_empty() { "-" } else { u.model },
        n(u.input),
        n(u.output),
        n(u.cache_read),
        n(u.cache_write),
        n(u.reasoning)
    );
    let known = [
        ("nano_aiu", u.nano_aiu),
        ("requests", u.requests),
        ("duration_ms", u.duration_ms),
    ];
    for (k, v) in known {
        if let Some(v) = v {
            out.push_str(&format!(" {k}={v}"));
        }
    }
    if let Some(f) = u.finish.filter(|f| !f.is_empty()) {
        out.push_str(&format!(" finish={f}"));
    }
    if let Some(t) = u.turn {
        out.push_str(&format!(" turn={t}"));
    }
    out.push_str(&format!(" scope={}", u.scope));
    out
}

/// Appends `n` in decimal without the formatting machinery (for readers that write
/// numbers into a reused buffer for every row).
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits: the check cannot fail and costs less than pushing them one
    // `char` at a time (which was a thirtieth of the Copilot event reader's time)
    out.push_str(std::str::from_utf8(&digits[i..]).unwrap_or_default());
}

/// [`usage`]'s text, byte for byte, appended to `out` without allocating (for readers
/// that write a usage row per event into a reused buffer).
pub fn write_usage(out: &mut String, u: &Usage<'_>) {
    fn int(out: &mut String, v: i64) {
        if v < 0 {
            out.push('-');
        }
        push_u64(out, v.unsigned_abs());
    }
    fn opt(out: &mut String, key: &str, v: Option<i64>) {
        out.push_str(key);
        match v {
            Some(v) => int(out, v),
            None => out.push('-'),
        }
    }
    out.push_str("usage: model=");
    out.push_str(if u.model.is_empty() { "-" } else { u.model });
    opt(out, " input=", u.input);
    opt(out, " output=", u.output);
    opt(out, " cache_read=", u.cache_read);
    opt(out, " cache_write=", u.cache_write);
    opt(out, " reasoning=", u.reasoning);
    for (k, v) in [
        (" nano_aiu=", u.nano_aiu),
        (" requests=", u.requests),
        (" duration_ms=", u.duration_ms),
    ] {
        if let Some(v) = v {
            out.push_str(k);
            int(out, v);
        }
    }
    if let Some(f) = u.finish.filter(|f| !f.is_empty()) {
        out.push_str(" finish=");
        out.push_str(f);
    }
    if let Some(t) = u.turn {
        out.push_str(" turn=");
        int(out, t);
    }
    out.push_str(" scope=");
    out.push_str(u.scope);
}

/// `parser: <file> did not parse; read <n> chat(s) (<error>)`: a file read
/// incrementally that stopped at damage, after `n` chats.
pub fn did_not_parse(file: &str, chats: usize, error: impl Display) -> String {
    format!("parser: {file} did not parse; read {chats} chat(s) ({error})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_start_text() {
        let fields = [
            ("copilot", "1.0.91"),
            ("empty", ""),
            ("cwd", "/home/alice/my src"),
            ("title", "a=b"),
            ("quote", "say \"hi\"\n"),
            ("tab", "a\tb"),
        ];
        let want = "session start: copilot=1.0.91 cwd=\"/home/alice/my src\" title=\"a=b\" quote=\"say \\\"hi\\\"\\n\" tab=\"a\\tb\"";
        assert_eq!(session_start(&fields), want);
        // the buffer version clears what was there first
        let mut out = "old".to_string();
        session_start_into(&mut out, &fields);
        assert_eq!(out, want);
        // the first field left out: no leading blank
        assert_eq!(key_values(&[("a", ""), ("b", "1")]), "b=1");
        let mut out = "x ".to_string();
        key_values_into(&mut out, &[("a", ""), ("b", "1")]);
        assert_eq!(out, "x b=1");
    }

    #[test]
    fn session_index_text() {
        assert_eq!(
            session_index(&[
                ("title", "Fix the build"),
                ("external", "true"),
                ("empty", "")
            ]),
            "session index: title=\"Fix the build\" external=true"
        );
    }

    #[test]
    fn parser_texts() {
        assert_eq!(
            unparseable_line("EOF while parsing an object at line 1 column 5", "{\"a\":"),
            "parser: unparseable line (EOF while parsing an object at line 1 column 5): {\"a\":"
        );
        assert_eq!(
            mutation_not_applied("path [requests, 9] not found", "{}"),
            "parser: mutation not applied (path [requests, 9] not found): {}"
        );
        assert_eq!(file_not_json("x"), "parser: file is not valid JSON (x)");
        assert_eq!(
            not_json_object("state.json"),
            "parser: state.json is not a JSON object"
        );
        assert_eq!(
            value_not_json("chat/autoconfirm", "expected value at line 1 column 1"),
            "parser: ItemTable value for chat/autoconfirm is not valid JSON (expected value at line 1 column 1)"
        );
        assert_eq!(
            unparseable_record(3, "missing field", "{}"),
            "parser: unparseable record 3 (missing field): {}"
        );
    }

    #[test]
    fn byte_quotes_match_text_quotes() {
        let line = "x".repeat(10_000);
        assert_eq!(quote_bytes(line.as_bytes()), quote(&line));
        assert_eq!(quote_bytes(b"{\"a\":"), "{\"a\":");
        assert_eq!(quote_bytes(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(
            unparseable_line_bytes("r", b"{"),
            "parser: unparseable line (r): {"
        );
        assert_eq!(
            mutation_not_applied_bytes("w", b"{}"),
            "parser: mutation not applied (w): {}"
        );
    }

    #[test]
    fn long_lines_are_cut() {
        let line = "x".repeat(10_000);
        let text = unparseable_line("r", &line);
        assert!(text.len() < 500, "{}", text.len());
        assert!(text.ends_with("… [10000 bytes in all]"));
        // multi-byte characters are cut on a boundary
        let line = "é".repeat(1000);
        assert!(quote(&line).starts_with("éé"));
    }

    /// A model option is quoted as `key_values` quotes a value: only when it needs
    /// quotes (the audit's t7: `effort` "very high" and `ctx` {"size":128000} were
    /// printed bare, `effort=very high`, which reads as two options).
    #[test]
    fn model_options_are_quoted_only_when_they_need_it() {
        let spec = ModelSpec::with_options(
            "m",
            vec![
                ("effort".into(), "very high".into()),
                ("ctx".into(), "{\"size\":128000}".into()),
                ("reasoningEffort".into(), "high".into()),
                ("tab".into(), "a\tb=c".into()),
                ("empty".into(), String::new()),
            ],
        );
        assert_eq!(
            spec.to_string(),
            r#"m ctx="{\"size\":128000}" effort="very high" empty= reasoningEffort=high tab="a\tb=c""#
        );
        // the same quoting as key_values, value for value
        for (k, v) in spec.options.iter().filter(|(_, v)| !v.is_empty()) {
            let one = ModelSpec::with_options("m", vec![(k.clone(), v.clone())]);
            assert_eq!(one.to_string(), format!("m {}", key_values(&[(k, v)])));
        }
    }

    #[test]
    fn model_and_permission_trackers() {
        let mut t = ChangeTracker::model();
        assert_eq!(
            t.observe(ModelSpec::new("gpt-4.1")).as_deref(),
            Some("model: gpt-4.1")
        );
        assert_eq!(t.observe(ModelSpec::new("gpt-4.1")), None);
        let spec = ModelSpec::with_options(
            "gpt-4.1",
            vec![
                ("z".into(), "1".into()),
                ("reasoningEffort".into(), "high".into()),
            ],
        );
        assert_eq!(
            t.observe(spec).as_deref(),
            Some("model: gpt-4.1 -> gpt-4.1 reasoningEffort=high z=1")
        );
        let mut p = permission_mode_tracker::<String>();
        assert_eq!(
            p.observe("ask".into()).as_deref(),
            Some("permission mode: ask")
        );
        assert_eq!(
            p.observe("agent".into()).as_deref(),
            Some("permission mode: ask -> agent")
        );
        let mut l = permission_level_tracker::<&str>();
        assert_eq!(
            l.observe("autoApprove").as_deref(),
            Some("permission level: autoApprove")
        );
    }

    #[test]
    fn setting_and_session_texts() {
        let f = from("User/settings.json", "file mtime");
        assert_eq!(
            permission_setting("chat.permissions.default", "autoApprove", &f),
            "permission setting: chat.permissions.default=autoApprove (from User/settings.json, file mtime)"
        );
        assert_eq!(
            session_start(&[
                ("title", "Fix the tests"),
                ("responder", "Copilot"),
                ("workspace", "")
            ]),
            "session start: title=\"Fix the tests\" responder=Copilot"
        );
        assert_eq!(
            edit_state(
                "Accepted",
                "/srv/proj/old.py",
                Some("request_1"),
                None,
                true,
                "(from chatEditingSessions state.json, file mtime)"
            ),
            "edit state: Accepted /srv/proj/old.py request=request_1 model=- deleted=true (from chatEditingSessions state.json, file mtime)"
        );
        assert_eq!(
            session_synced("remote session c1 task t1", "(from x, file mtime)"),
            "session synced: remote session c1 task t1 (from x, file mtime)"
        );
        assert_eq!(
            session_origin("remote GitHub cloud agent", "(from y, recordedAt)"),
            "session origin: remote GitHub cloud agent (from y, recordedAt)"
        );
        assert_eq!(
            source_host("github.com account octocat", "(from z, lastUsed)"),
            "source host: github.com account octocat (from z, lastUsed)"
        );
        assert_eq!(
            model_setting("chat.defaultModel=gpt-5", "(from s, file mtime)"),
            "model setting: chat.defaultModel=gpt-5 (from s, file mtime)"
        );
        assert_eq!(
            permission_decision("confirmed=true"),
            "permission decision: confirmed=true"
        );
    }

    #[test]
    fn legacy_history_texts() {
        assert_eq!(
            legacy_chat("0f8b", "VXNl", 3),
            "chat: 0f8b | account=VXNl | messages=3 (legacy JetBrains history)"
        );
        assert_eq!(
            did_not_parse(
                "cody_history.xml",
                1,
                "file ends at line 9 (byte 310) inside <messages>"
            ),
            "parser: cody_history.xml did not parse; read 1 chat(s) (file ends at line 9 (byte 310) inside <messages>)"
        );
    }

    #[test]
    fn tabby_texts() {
        assert_eq!(
            page_start("Cache", "a@example.com (A)", "-"),
            "page start | title Cache | author a@example.com (A) | code_source -"
        );
        assert_eq!(
            command_history(2, "state.vscdb TabbyML.vscode-tabby edit.recentlyCommand"),
            "inline edit command history: 2 commands, newest first (from state.vscdb TabbyML.vscode-tabby edit.recentlyCommand, no times)"
        );
        assert_eq!(
            not_valid_toml("config.toml", "invalid key at byte 3"),
            "parser: config.toml is not valid TOML (invalid key at byte 3)"
        );
        assert_eq!(
            not_readable_xml("no root element at byte 0"),
            "parser: not a readable XML document (no root element at byte 0)"
        );
    }
    /// `write_usage` appends exactly `usage`'s text, over every field present or not,
    /// negative, zero and extreme counts, empty model and finish.
    #[test]
    fn write_usage_is_usage() {
        let vals = [
            None,
            Some(0),
            Some(7),
            Some(-42),
            Some(i64::MAX),
            Some(i64::MIN),
        ];
        let mut n = 0usize;
        for (k, model) in ["", "claude-sonnet-4.5", "gpt \"x\""].iter().enumerate() {
            for (j, finish) in [None, Some(""), Some("stop")].iter().enumerate() {
                for a in vals {
                    for b in vals {
                        let c = vals[(n + k) % vals.len()];
                        let d = vals[(n / 3 + j) % vals.len()];
                        n += 1;
                        let u = Usage {
                            model,
                            input: a,
                            output: b,
                            cache_read: c,
                            cache_write: d,
                            reasoning: vals[n % vals.len()],
                            nano_aiu: vals[(n * 5) % vals.len()],
                            requests: b,
                            duration_ms: a,
                            finish: *finish,
                            turn: c,
                            scope: if n % 2 == 0 { "call" } else { "session" },
                        };
                        let mut out = String::from("prefix ");
                        write_usage(&mut out, &u);
                        assert_eq!(out, format!("prefix {}", usage(&u)), "{u:?}");
                    }
                }
            }
        }
    }
    /// `observe_into` writes what `observe` returns and records the same values.
    #[test]
    fn observe_into_is_observe() {
        let seq = ["a", "a", "b", "", "", "c d", "b", "b", "a"];
        let mut a = permission_mode_tracker::<String>();
        let mut b = permission_mode_tracker::<String>();
        for v in seq {
            let mut out = String::from("x");
            let wrote = b.observe_into(v.to_string(), &mut out);
            match a.observe(v.to_string()) {
                Some(t) => assert_eq!((wrote, out), (true, format!("x{t}"))),
                None => assert_eq!((wrote, out.as_str()), (false, "x")),
            }
            assert_eq!(a.last(), b.last());
        }
        let mut a = ChangeTracker::<ModelSpec>::model();
        let mut b = ChangeTracker::<ModelSpec>::model();
        for spec in [
            ModelSpec::new("m"),
            ModelSpec::with_options(
                "m",
                vec![("z".into(), "1".into()), ("a".into(), "2".into())],
            ),
            ModelSpec::new("m"),
            ModelSpec::new("n"),
        ] {
            let mut out = String::new();
            let wrote = b.observe_into(spec.clone(), &mut out);
            assert_eq!(a.observe(spec), wrote.then_some(out));
        }
    }
}
