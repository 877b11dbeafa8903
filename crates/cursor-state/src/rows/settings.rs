//! Grants and settings of the CLI and of projects: `permissions.json`,
//! `cli-config.json` / `.cursor/cli.json`, `mcp-approvals.json`, `.workspace-trusted`.
//!
//! These say what the agent was allowed to do without asking, which is what a
//! responder weighs an agent's actions against. Each becomes a `permission setting:`
//! (or `model setting:`) row at the file's modification time, the time it was last
//! written; no session. `authInfo` in `cli-config.json` is never read out.
//!
//! The files are read as a [`Node`] tree, not a decoded map: rows follow the file's
//! order (allow lists, `autoRun` entries, approval leaves) and print each value as
//! written (an object's keys in their order, escapes and numbers untouched).
//!
//! Each row's locator names the key it reads, as the VS Code settings rows do: `key
//! terminalAllowlist[0]`, `key autoRun.enabled`, `key permissions.allow[1]`, `key
//! approvalMode`, `key model` (`key model.modelId` when the model is an object), `key
//! gh.tools[0]` in `mcp-approvals.json`; a row of the whole file (`.workspace-trusted`,
//! which is a marker, or a file that is not JSON) has `whole file`.

use chat_rows::jsonc::Node;
use chat_rows::{Timestamp, system};

use super::{Out, sys};

/// The locator of the rows of a whole file.
const WHOLE_FILE: &str = "whole file";

/// The locator of a key path (`autoRun.enabled`, `terminalAllowlist[0]`).
fn key(path: &str) -> String {
    format!("key {path}")
}

/// A setting's text: a string as is, `null` empty, anything else compact as written.
fn as_written(v: &Node<'_>) -> String {
    v.text()
}

/// The value at `path` under `v`.
fn at<'t, 'a>(v: Option<&'t Node<'a>>, path: &[&str]) -> Option<&'t Node<'a>> {
    path.iter().try_fold(v?, |n, k| n.get(k))
}

fn is_null(v: &Node<'_>) -> bool {
    matches!(
        v,
        Node::Scalar {
            value: serde_json::Value::Null,
            ..
        }
    )
}

/// `permissions.json` (JSONC): terminal and MCP allow lists and `autoRun`.
pub fn permissions(
    bytes: &[u8],
    from: &str,
    project: &str,
    mtime: Option<Timestamp>,
    out: &mut Out<'_>,
) {
    let tree = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(v) => v,
        Err(e) => {
            return out.push(
                sys(system::file_not_json(e))
                    .project(project)
                    .locator(WHOLE_FILE),
            );
        }
    };
    let v = tree.as_ref();
    let mut push = |k: String, val: String, locator: String| {
        out.push(
            sys(system::permission_setting(k, val, from))
                .at(mtime)
                .project(project)
                .locator(locator),
        );
    };
    for k in ["terminalAllowlist", "mcpAllowlist"] {
        for (i, e) in at(v, &[k])
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            push(k.to_string(), as_written(e), key(&format!("{k}[{i}]")));
        }
    }
    match at(v, &["autoRun"]) {
        Some(o) if o.is_object() => {
            for (k, val) in o.members() {
                let path = format!("autoRun.{k}");
                push(path.clone(), as_written(val), key(&path));
            }
        }
        Some(a) if !is_null(a) => push("autoRun".into(), as_written(a), key("autoRun")),
        _ => {}
    }
}

/// `cli-config.json` or a project's `.cursor/cli.json`: `permissions.allow` / `deny`,
/// `approvalMode`, and the configured model.
pub fn cli_config(
    bytes: &[u8],
    from: &str,
    project: &str,
    mtime: Option<Timestamp>,
    out: &mut Out<'_>,
) {
    let tree = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(v) => v,
        Err(e) => {
            return out.push(
                sys(system::file_not_json(e))
                    .project(project)
                    .locator(WHOLE_FILE),
            );
        }
    };
    let v = tree.as_ref();
    for k in ["allow", "deny"] {
        for (i, e) in at(v, &["permissions", k])
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            out.push(
                sys(system::permission_setting(
                    format!("permissions.{k}"),
                    as_written(e),
                    from,
                ))
                .at(mtime)
                .project(project)
                .locator(key(&format!("permissions.{k}[{i}]"))),
            );
        }
    }
    if let Some(m) = at(v, &["approvalMode"]).filter(|m| !is_null(m)) {
        out.push(
            sys(system::permission_setting(
                "approvalMode",
                as_written(m),
                from,
            ))
            .at(mtime)
            .project(project)
            .locator(key("approvalMode")),
        );
    }
    let (model, model_key) = match at(v, &["model"]) {
        Some(o) if o.is_object() => ["modelId", "id", "name"]
            .into_iter()
            .find_map(|k| o.get(k).map(|m| (as_written(m), format!("model.{k}"))))
            .unwrap_or_default(),
        Some(m) => (as_written(m), "model".to_string()),
        None => Default::default(),
    };
    if !model.is_empty() {
        let max = at(v, &["maxMode"])
            .or_else(|| at(v, &["model", "maxMode"]))
            .map(as_written)
            .unwrap_or_default();
        let detail = if max.is_empty() {
            format!("model={model}")
        } else {
            format!("model={model} maxMode={max}")
        };
        out.push(
            sys(system::model_setting(detail, from))
                .model(&model)
                .at(mtime)
                .project(project)
                .locator(key(&model_key)),
        );
    }
}

/// `mcp-approvals.json`: each leaf as `mcp-approvals.<path>=<value> location=<project>`
/// (the shape is unverified, so every leaf is kept, arrays by index-free path in the
/// text and by index in the locator: `key gh.tools[0]`). An empty array or object is a
/// leaf too, its value as written (`mcp-approvals.gh.tools=[] location=<project>`): an
/// approval list that was emptied is evidence as much as a full one.
pub fn mcp_approvals(
    bytes: &[u8],
    from: &str,
    location: &str,
    mtime: Option<Timestamp>,
    out: &mut Out<'_>,
) {
    let tree = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(v) => v,
        Err(e) => return out.push(sys(system::file_not_json(e)).locator(WHOLE_FILE)),
    };
    // iterative walk in the file's order: a deep file never exhausts the stack; each
    // entry is (the path the text names, the key path the locator names, the node)
    let mut stack: Vec<(String, String, &Node<'_>)> = tree
        .iter()
        .map(|v| ("mcp-approvals".to_string(), String::new(), v))
        .collect();
    while let Some((path, at, node)) = stack.pop() {
        let members = node.members();
        match node {
            Node::Object(_) if !members.is_empty() => {
                for (k, c) in members.into_iter().rev() {
                    let at = if at.is_empty() {
                        k.to_string()
                    } else {
                        format!("{at}.{k}")
                    };
                    stack.push((format!("{path}.{k}"), at, c));
                }
            }
            Node::Array(a) if !a.is_empty() => {
                for (i, c) in a.iter().enumerate().rev() {
                    stack.push((path.clone(), format!("{at}[{i}]"), c));
                }
            }
            leaf => out.push(
                sys(system::permission_setting(
                    path,
                    format!("{} location={location}", as_written(leaf)),
                    from,
                ))
                .at(mtime)
                .locator(if at.is_empty() {
                    WHOLE_FILE.to_string()
                } else {
                    key(&at)
                }),
            ),
        }
    }
}

/// `.workspace-trusted`: the project folder was trusted.
pub fn workspace_trusted(from: &str, location: &str, mtime: Option<Timestamp>, out: &mut Out<'_>) {
    out.push(
        sys(system::permission_setting(
            "workspace_trusted",
            format!("true location={location}"),
            from,
        ))
        .at(mtime)
        .locator(WHOLE_FILE),
    );
}
