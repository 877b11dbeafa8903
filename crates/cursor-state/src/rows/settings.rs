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

use chat_rows::jsonc::Node;
use chat_rows::{Timestamp, system};

use super::{Out, sys};

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
        Err(e) => return out.push(sys(system::file_not_json(e)).project(project)),
    };
    let v = tree.as_ref();
    let mut push = |k: String, val: String| {
        out.push(
            sys(system::permission_setting(k, val, from))
                .at(mtime)
                .project(project),
        );
    };
    for k in ["terminalAllowlist", "mcpAllowlist"] {
        for e in at(v, &[k]).map(Node::items).unwrap_or_default() {
            push(k.to_string(), as_written(e));
        }
    }
    match at(v, &["autoRun"]) {
        Some(o) if o.is_object() => {
            for (k, val) in o.members() {
                push(format!("autoRun.{k}"), as_written(val));
            }
        }
        Some(a) if !is_null(a) => push("autoRun".into(), as_written(a)),
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
        Err(e) => return out.push(sys(system::file_not_json(e)).project(project)),
    };
    let v = tree.as_ref();
    for k in ["allow", "deny"] {
        for e in at(v, &["permissions", k])
            .map(Node::items)
            .unwrap_or_default()
        {
            out.push(
                sys(system::permission_setting(
                    format!("permissions.{k}"),
                    as_written(e),
                    from,
                ))
                .at(mtime)
                .project(project),
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
            .project(project),
        );
    }
    let model = match at(v, &["model"]) {
        Some(o) if o.is_object() => o
            .get("modelId")
            .or_else(|| o.get("id"))
            .or_else(|| o.get("name"))
            .map(as_written)
            .unwrap_or_default(),
        Some(m) => as_written(m),
        None => String::new(),
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
                .project(project),
        );
    }
}

/// `mcp-approvals.json`: each leaf as `mcp-approvals.<path>=<value> location=<project>`
/// (the shape is unverified, so every leaf is kept, arrays by index-free path).
pub fn mcp_approvals(
    bytes: &[u8],
    from: &str,
    location: &str,
    mtime: Option<Timestamp>,
    out: &mut Out<'_>,
) {
    let tree = match chat_rows::jsonc::parse_tree_bytes(bytes) {
        Ok(v) => v,
        Err(e) => return out.push(sys(system::file_not_json(e))),
    };
    // iterative walk in the file's order: a deep file never exhausts the stack
    let mut stack: Vec<(String, &Node<'_>)> = tree
        .iter()
        .map(|v| ("mcp-approvals".to_string(), v))
        .collect();
    let mut leaves: Vec<(String, String)> = Vec::new();
    while let Some((path, node)) = stack.pop() {
        match node {
            Node::Object(_) => {
                for (k, c) in node.members().into_iter().rev() {
                    stack.push((format!("{path}.{k}"), c));
                }
            }
            Node::Array(a) => {
                for c in a.iter().rev() {
                    stack.push((path.clone(), c));
                }
            }
            leaf => leaves.push((path, as_written(leaf))),
        }
    }
    for (k, val) in leaves {
        out.push(
            sys(system::permission_setting(
                k,
                format!("{val} location={location}"),
                from,
            ))
            .at(mtime),
        );
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
        .at(mtime),
    );
}
