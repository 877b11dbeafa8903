//! Message and page-section attachments, and the one-line summaries rows carry.
//!
//! Tabby has stored attachments in two forms. Schema levels 0035 to 0044 have three
//! per-kind JSON columns on `thread_messages` (`code_attachments`,
//! `client_code_attachments`, `doc_attachments`); level 0042 added the single
//! `attachment` object (`{code, client_code, doc, code_file_list}`) and copied the old
//! columns into it, and 0045 dropped them. A copy at 0042 to 0044 therefore holds the
//! same attachments twice: the database reader ([`crate::decode::db`]) prefers
//! `attachment` whenever it holds a value and never merges the two, so nothing is
//! rendered twice.
//!
//! `doc[]` is an untagged enum upstream, told apart by its fields, and two of its
//! variants changed shape in early 2025 (commit docs carried `git_url`, `diff` and
//! `changed_file`; page docs used `link` instead of `page_link`). The decoder works on
//! `serde_json::Value`s so that every shape, old or unknown, still yields a summary.

use chat_rows::system::key_values;
use serde_json::Value;

/// The most file names of a `code_file_list` quoted in a summary.
pub const MAX_LISTED_FILES: usize = 50;

/// One `code[]` item: code the server retrieved from an indexed repository.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code {
    /// The repository URL (the row's project).
    pub git_url: String,
    /// The commit, absent in rows written in 2024.
    pub commit: Option<String>,
    /// The language.
    pub language: Option<String>,
    /// The file path inside the repository.
    pub filepath: String,
    /// The first line; `None` means the whole file.
    pub start_line: Option<i64>,
}

/// One `client_code[]` item: code the IDE chat panel sent with the question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCode {
    /// The file path, when the client named one.
    pub filepath: Option<String>,
    /// The first line, when the client named one.
    pub start_line: Option<i64>,
}

/// The variants of a `doc[]` item, told apart by their fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A web page (`title`, `link`, `content`).
    Web,
    /// An issue (`closed`).
    Issue,
    /// A pull request (`merged`, `diff`).
    Pull,
    /// A commit (`sha`, `message`).
    Commit,
    /// A commit in the early-2025 shape (also `git_url`, `diff`, `changed_file`).
    CommitEarly,
    /// A Tabby page (`page_link`).
    Page,
    /// A Tabby page in the April-2025 shape (`link` pointing at `/pages/`).
    PageEarly,
    /// An ingested document (`id`, `body`).
    Ingested,
    /// None of the known shapes.
    Unknown,
}

/// One `doc[]` item: its kind and the raw object, for the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// The kind, from the fields present.
    pub kind: DocKind,
    /// The item as stored.
    pub value: Value,
}

/// `code_file_list`: the files the server listed for the answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileList {
    /// The file names.
    pub files: Vec<String>,
    /// True when the server cut the list (absent before March 2025: false).
    pub truncated: bool,
}

/// A decoded attachment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attachment {
    /// `code[]`.
    pub code: Vec<Code>,
    /// `client_code[]`.
    pub client_code: Vec<ClientCode>,
    /// `doc[]`.
    pub doc: Vec<Doc>,
    /// `code_file_list`.
    pub file_list: Option<FileList>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn int(v: &Value, key: &str) -> Option<i64> {
    v.get(key)?.as_i64()
}

fn items(v: Option<&Value>) -> &[Value] {
    match v {
        Some(Value::Array(a)) => a,
        _ => &[],
    }
}

fn has(v: &Value, key: &str) -> bool {
    v.get(key).is_some()
}

/// Tells a `doc[]` item's kind by its fields (see the module docs).
pub fn doc_kind(v: &Value) -> DocKind {
    if !v.is_object() {
        return DocKind::Unknown;
    }
    if has(v, "page_link") {
        DocKind::Page
    } else if has(v, "sha") {
        if has(v, "git_url") || has(v, "changed_file") || has(v, "diff") {
            DocKind::CommitEarly
        } else {
            DocKind::Commit
        }
    } else if has(v, "merged") {
        DocKind::Pull
    } else if has(v, "closed") {
        DocKind::Issue
    } else if has(v, "id") && has(v, "body") {
        DocKind::Ingested
    } else if has(v, "link") && has(v, "content") {
        let link = text(v, "link").unwrap_or_default();
        if link.contains("/pages/") {
            DocKind::PageEarly
        } else {
            DocKind::Web
        }
    } else {
        DocKind::Unknown
    }
}

impl Attachment {
    /// Decodes the `attachment` object (any key may be missing or null).
    pub fn from_object(v: &Value) -> Attachment {
        let mut a = Attachment::default();
        a.add_code(v.get("code"));
        a.add_client_code(v.get("client_code"));
        a.add_docs(v.get("doc"));
        if let Some(fl) = v.get("code_file_list").filter(|f| f.is_object()) {
            a.file_list = Some(FileList {
                files: items(fl.get("file_list"))
                    .iter()
                    .map(|f| {
                        f.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| f.to_string())
                    })
                    .collect(),
                truncated: fl
                    .get("truncated")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            });
        }
        a
    }

    /// Decodes the three per-kind columns of schema levels 0035 to 0044.
    pub fn from_legacy(
        code: Option<&Value>,
        client_code: Option<&Value>,
        doc: Option<&Value>,
    ) -> Attachment {
        let mut a = Attachment::default();
        a.add_code(code);
        a.add_client_code(client_code);
        a.add_docs(doc);
        a
    }

    fn add_code(&mut self, v: Option<&Value>) {
        for c in items(v) {
            self.code.push(Code {
                git_url: text(c, "git_url").unwrap_or_default(),
                commit: text(c, "commit"),
                language: text(c, "language"),
                filepath: text(c, "filepath").unwrap_or_default(),
                start_line: int(c, "start_line"),
            });
        }
    }

    fn add_client_code(&mut self, v: Option<&Value>) {
        for c in items(v) {
            self.client_code.push(ClientCode {
                filepath: text(c, "filepath"),
                start_line: int(c, "start_line"),
            });
        }
    }

    fn add_docs(&mut self, v: Option<&Value>) {
        for d in items(v) {
            self.doc.push(Doc {
                kind: doc_kind(d),
                value: d.clone(),
            });
        }
    }

    /// True when nothing is attached.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
            && self.client_code.is_empty()
            && self.doc.is_empty()
            && self.file_list.is_none()
    }

    /// The project of a row: the first `code[]` item's `git_url`.
    pub fn git_url(&self) -> Option<&str> {
        self.code
            .iter()
            .map(|c| c.git_url.as_str())
            .find(|u| !u.is_empty())
    }

    /// One line per attached item, in the order code, client code, docs, file list.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.code {
            let line = c.start_line.map(|l| l.to_string()).unwrap_or_default();
            out.push(format!(
                "[code: {}]",
                key_values(&[
                    ("git_url", &c.git_url),
                    ("filepath", &c.filepath),
                    ("start_line", &line),
                    ("commit", c.commit.as_deref().unwrap_or("")),
                    ("language", c.language.as_deref().unwrap_or("")),
                ])
            ));
        }
        for c in &self.client_code {
            let line = c.start_line.map(|l| l.to_string()).unwrap_or_default();
            let kv = key_values(&[
                ("filepath", c.filepath.as_deref().unwrap_or("")),
                ("start_line", &line),
            ]);
            out.push(if kv.is_empty() {
                "[client code]".to_string()
            } else {
                format!("[client code: {kv}]")
            });
        }
        for d in &self.doc {
            out.push(doc_summary(d));
        }
        if let Some(fl) = &self.file_list {
            let shown: Vec<&str> = fl
                .files
                .iter()
                .take(MAX_LISTED_FILES)
                .map(String::as_str)
                .collect();
            let more = fl.files.len().saturating_sub(MAX_LISTED_FILES);
            let mut s = format!(
                "[file list: {} files truncated={}",
                fl.files.len(),
                fl.truncated
            );
            if !shown.is_empty() {
                s.push_str(": ");
                s.push_str(&shown.join(", "));
            }
            if more > 0 {
                s.push_str(&format!(" and {more} more"));
            }
            s.push(']');
            out.push(s);
        }
        out
    }

    /// `text`, then a blank line and the summary lines when anything is attached.
    pub fn append_to(&self, text: &str) -> String {
        let lines = self.summary_lines();
        if lines.is_empty() {
            return text.to_string();
        }
        let mut s = String::from(text);
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        s.push_str(&lines.join("\n"));
        s
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn doc_summary(d: &Doc) -> String {
    let v = &d.value;
    let t = |k: &str| text(v, k).unwrap_or_default();
    let (label, kv) = match d.kind {
        DocKind::Web => (
            "web",
            key_values(&[("title", &t("title")), ("link", &t("link"))]),
        ),
        DocKind::Issue => (
            "issue",
            key_values(&[
                ("title", &t("title")),
                ("link", &t("link")),
                ("author", &t("author_user_id")),
                ("closed", &t("closed")),
            ]),
        ),
        DocKind::Pull => (
            "pull",
            key_values(&[
                ("title", &t("title")),
                ("link", &t("link")),
                ("author", &t("author_user_id")),
                ("merged", &t("merged")),
            ]),
        ),
        DocKind::Commit => {
            let msg = t("message");
            (
                "commit",
                key_values(&[
                    ("sha", &t("sha")),
                    ("message", first_line(&msg)),
                    ("author", &t("author_user_id")),
                    ("author_at", &t("author_at")),
                ]),
            )
        }
        DocKind::CommitEarly => {
            let msg = t("message");
            (
                "commit (early shape)",
                key_values(&[
                    ("sha", &t("sha")),
                    ("message", first_line(&msg)),
                    ("git_url", &t("git_url")),
                    ("changed_file", &t("changed_file")),
                    ("author", &t("author_user_id")),
                    ("committer", &t("committer_user_id")),
                    ("commit_at", &t("commit_at")),
                ]),
            )
        }
        DocKind::Page => (
            "page",
            key_values(&[("title", &t("title")), ("link", &t("page_link"))]),
        ),
        DocKind::PageEarly => (
            "page (early shape)",
            key_values(&[("title", &t("title")), ("link", &t("link"))]),
        ),
        DocKind::Ingested => (
            "ingested",
            key_values(&[
                ("title", &t("title")),
                ("link", &t("link")),
                ("id", &t("id")),
            ]),
        ),
        DocKind::Unknown => ("unknown", chat_rows::system::quote(&v.to_string())),
    };
    format!("[doc {label}: {kv}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spec_fixture_attachments() {
        let user = json!({"code":null,"client_code":[{"filepath":"src/cache.rs","start_line":10,"content":"fn clear()"}],"doc":null});
        let a = Attachment::from_object(&user);
        assert_eq!(a.git_url(), None);
        assert_eq!(
            a.append_to("Where?"),
            "Where?\n\n[client code: filepath=src/cache.rs start_line=10]"
        );
        let asst = json!({"code":[{"git_url":"https://github.com/acme/app","commit":"abc123","language":"rust","filepath":"src/cache.rs","content":"fn clear() {}","start_line":10}],"client_code":null,"doc":null});
        let a = Attachment::from_object(&asst);
        assert_eq!(a.git_url(), Some("https://github.com/acme/app"));
        assert_eq!(
            a.summary_lines(),
            vec![
                "[code: git_url=https://github.com/acme/app filepath=src/cache.rs start_line=10 commit=abc123 language=rust]"
            ]
        );
        assert_eq!(Attachment::from_object(&json!({})).append_to(""), "");
    }

    #[test]
    fn every_doc_shape() {
        let docs = json!([
            {"title":"Rust book","link":"https://doc.rust-lang.org/book/","content":"x"},
            {"title":"Crash on start","link":"https://github.com/acme/app/issues/4","author_user_id":"E16n1q","body":"b","closed":true},
            {"title":"Fix crash","link":"https://github.com/acme/app/pull/5","author_user_id":"R1AWw5","body":"b","diff":"d","merged":false},
            {"sha":"deadbeef","message":"Fix cache\n\nlong","author_user_id":"E16n1q","author_at":"2025-05-01T10:00:00Z"},
            {"sha":"cafe","message":"Old","git_url":"https://github.com/acme/app","author_user_id":"E16n1q","committer_user_id":"E16n1q","commit_at":"2025-03-04T10:00:00Z","diff":"d","changed_file":"src/a.rs"},
            {"page_link":"http://tabby/pages/cache-4","title":"Cache","content":"c"},
            {"link":"http://tabby/pages/cache-4","title":"Cache","content":"c"},
            {"id":"doc-1","title":"Runbook","body":"b","link":"https://wiki/runbook"},
            {"weird":1},
            "not an object"
        ]);
        let a = Attachment::from_legacy(None, None, Some(&docs));
        let kinds: Vec<_> = a.doc.iter().map(|d| d.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                DocKind::Web,
                DocKind::Issue,
                DocKind::Pull,
                DocKind::Commit,
                DocKind::CommitEarly,
                DocKind::Page,
                DocKind::PageEarly,
                DocKind::Ingested,
                DocKind::Unknown,
                DocKind::Unknown
            ]
        );
        assert_eq!(
            a.summary_lines(),
            vec![
                "[doc web: title=\"Rust book\" link=https://doc.rust-lang.org/book/]",
                "[doc issue: title=\"Crash on start\" link=https://github.com/acme/app/issues/4 author=E16n1q closed=true]",
                "[doc pull: title=\"Fix crash\" link=https://github.com/acme/app/pull/5 author=R1AWw5 merged=false]",
                "[doc commit: sha=deadbeef message=\"Fix cache\" author=E16n1q author_at=2025-05-01T10:00:00Z]",
                "[doc commit (early shape): sha=cafe message=Old git_url=https://github.com/acme/app changed_file=src/a.rs author=E16n1q committer=E16n1q commit_at=2025-03-04T10:00:00Z]",
                "[doc page: title=Cache link=http://tabby/pages/cache-4]",
                "[doc page (early shape): title=Cache link=http://tabby/pages/cache-4]",
                "[doc ingested: title=Runbook link=https://wiki/runbook id=doc-1]",
                "[doc unknown: {\"weird\":1}]",
                "[doc unknown: \"not an object\"]",
            ]
        );
    }

    #[test]
    fn file_list_with_and_without_truncated() {
        let a = Attachment::from_object(
            &json!({"code_file_list":{"file_list":["a.rs","b.rs"],"truncated":true}}),
        );
        assert_eq!(
            a.summary_lines(),
            vec!["[file list: 2 files truncated=true: a.rs, b.rs]"]
        );
        let a = Attachment::from_object(&json!({"code_file_list":{"file_list":[]}}));
        assert_eq!(
            a.summary_lines(),
            vec!["[file list: 0 files truncated=false]"]
        );
        let many: Vec<String> = (0..60).map(|i| format!("f{i}")).collect();
        let a = Attachment::from_object(
            &json!({"code_file_list":{"file_list":many,"truncated":false}}),
        );
        assert!(a.summary_lines()[0].ends_with(", f49 and 10 more]"));
    }
}
