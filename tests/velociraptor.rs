//! The Velociraptor artifact (`contrib/velociraptor/`): its YAML parses, the argument
//! vector its query builds runs against the fixtures with the built binary, and the
//! columns it declares are the row model's, in order.
//!
//! The artifact's `LET Argv <= (...) + Options + Roots` line is evaluated here with the
//! values the endpoint would give (the tool's path, temporary files, the host name, the
//! user homes), token by token: a token this test does not know fails it, so the
//! vector run here is the one the artifact builds.

use std::path::{Path, PathBuf};
use std::process::Command;

use ai_chat_forensics::Row;
use yaml_rust2::{Yaml, YamlLoader};

/// The keys of a JSON object, in the order of the text.
struct OrderedKeys(Vec<String>);

impl<'de> serde::Deserialize<'de> for OrderedKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<OrderedKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, _)) = m.next_entry::<String, serde::de::IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(OrderedKeys(keys))
            }
        }
        d.deserialize_map(V)
    }
}

const ARTIFACT: &str = "contrib/velociraptor/Custom.Forensics.AIChatForensics.yaml";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn artifact() -> Yaml {
    let text = std::fs::read_to_string(repo().join(ARTIFACT)).unwrap();
    let mut docs = YamlLoader::load_from_str(&text).unwrap();
    assert_eq!(docs.len(), 1);
    docs.remove(0)
}

fn query(doc: &Yaml) -> String {
    let sources = doc["sources"].as_vec().unwrap();
    assert_eq!(sources.len(), 1);
    sources[0]["query"].as_str().unwrap().to_string()
}

/// Splits `a, "b, c", f(x=1)` at top-level commas.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quoted) = (Vec::new(), String::new(), 0i32, false);
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' if !quoted => depth += 1,
            ')' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Evaluates the artifact's `LET Argv <= (...) + A + B` with `vars`.
fn argv(query: &str, vars: &[(&str, Vec<String>)]) -> Vec<String> {
    let line = query
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("LET Argv <="))
        .expect("the artifact builds its argument vector in one `LET Argv <=` line");
    let expr = line["LET Argv <=".len()..].trim();
    let close = expr.rfind(')').unwrap();
    assert!(expr.starts_with('('));
    let lookup = |name: &str| -> Vec<String> {
        vars.iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("the artifact's argv uses {name:?}, unknown to this test"))
            .1
            .clone()
    };
    let mut out = Vec::new();
    for token in split_top(&expr[1..close]) {
        if let Some(lit) = token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            out.push(lit.to_string());
        } else {
            let v = lookup(&token);
            assert_eq!(v.len(), 1, "{token} is one value");
            out.extend(v);
        }
    }
    for list in expr[close + 1..]
        .split('+')
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        out.extend(lookup(list));
    }
    out
}

fn column_names(doc: &Yaml) -> Vec<String> {
    doc["column_types"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

/// The output names of the final SELECT, in order (`x AS y` gives `y`).
fn select_names(query: &str) -> Vec<String> {
    let last = query.rfind("SELECT ").unwrap();
    let from = query[last..].find("FROM parse_jsonl(").unwrap();
    split_top(&query[last + "SELECT ".len()..last + from])
        .into_iter()
        .map(|c| c.rsplit(" AS ").next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn declared_columns_are_the_row_models_in_order() {
    let doc = artifact();
    let columns: Vec<String> = Row::columns().iter().map(|c| c.to_string()).collect();
    assert_eq!(column_names(&doc), columns);
    assert_eq!(select_names(&query(&doc)), columns);
    // typed where Velociraptor has a type for it
    let types: Vec<(String, String)> = doc["column_types"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["type"].as_str().unwrap().to_string(),
            )
        })
        .filter(|(_, t)| t != "string")
        .collect();
    assert_eq!(
        types,
        [
            ("timestamp_utc".to_string(), "timestamp".to_string()),
            ("source_line".to_string(), "int".to_string()),
            ("secondary".to_string(), "bool".to_string()),
        ]
    );
}

#[test]
fn the_artifact_declares_a_tool_per_os_and_uploads_rows_and_manifest() {
    let doc = artifact();
    assert_eq!(
        doc["name"].as_str(),
        Some("Custom.Forensics.AIChatForensics")
    );
    let tools: Vec<&str> = doc["tools"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for os in ["linux", "windows", "darwin"] {
        assert!(
            tools.iter().any(|t| t.contains(os)),
            "{os} tool in {tools:?}"
        );
    }
    let q = query(&doc);
    for needle in [
        "Artifact.Generic.Utils.FetchBinary(ToolName=ToolName)",
        "execve(argv=Argv",
        "upload(file=OutputFile",
        "upload(file=ManifestFile",
        "parse_jsonl(filename=OutputFile)",
        "tempdir()",
    ] {
        assert!(q.contains(needle), "{needle}");
    }
}

#[test]
fn the_artifacts_argv_runs_against_the_fixtures() {
    let doc = artifact();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ai-chat-forensics.jsonl");
    let manifest = tmp.path().join("ai-chat-forensics-manifest.json");
    let ev = repo().join("fixtures/evidence");
    let homes: Vec<PathBuf> = [
        "lin-ws01/home/alice",
        "mac-lt02/Users/bob",
        "WIN-DESK03/C/Users/carol",
    ]
    .iter()
    .map(|h| ev.join(h))
    .collect();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let vars = [
        (
            "Tool",
            vec![env!("CARGO_BIN_EXE_ai-chat-forensics").to_string()],
        ),
        ("OutputFile", vec![s(&out)]),
        ("ManifestFile", vec![s(&manifest)]),
        ("Hostname", vec!["ENDPOINT01".to_string()]),
        ("Threads", vec!["1".to_string()]),
        ("Options", Vec::new()),
        ("Roots", homes.iter().map(|h| s(h)).collect()),
    ];
    let argv = argv(&query(&doc), &vars);
    assert_eq!(argv[1..5], ["--format", "jsonl", "--output", &s(&out)]);
    let status = Command::new(&argv[0]).args(&argv[1..]).status().unwrap();
    assert!(status.success());

    // the rows, as parse_jsonl reads them: one object per line, the row model's keys
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<serde_json::Map<String, serde_json::Value>> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let columns: Vec<&str> = Row::columns().to_vec();
    for (r, line) in rows.iter().zip(text.lines()) {
        let keys: OrderedKeys = serde_json::from_str(line).unwrap();
        assert_eq!(keys.0, columns);
        assert_eq!(r["host"], "ENDPOINT01");
    }
    assert!(rows.len() > 100);
    // every user's rows, as a scan of the whole tree gives them for that home
    let whole = ai_chat_forensics::Scanner::new()
        .root(&ev)
        .threads(1)
        .run()
        .unwrap();
    for (host, user) in [
        ("lin-ws01", "alice"),
        ("mac-lt02", "bob"),
        ("WIN-DESK03", "carol"),
    ] {
        let expected = whole
            .rows
            .iter()
            .filter(|r| r.host == host && r.user == user)
            .count();
        let got = rows.iter().filter(|r| r["user"] == user).count();
        assert!(expected > 0);
        assert_eq!(got, expected, "{user}");
    }
    assert_eq!(
        rows.iter()
            .filter(|r| !["alice", "bob", "carol"].contains(&r["user"].as_str().unwrap()))
            .count(),
        0
    );

    // the manifest beside it: every file read, hashed
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let files = m["files"].as_array().or_else(|| m.as_array()).unwrap();
    assert!(!files.is_empty());
    for f in files {
        assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
    }
}
