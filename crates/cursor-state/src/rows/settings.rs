//! Grants and settings of the CLI and of projects: `permissions.json`,
//! `cli-config.json` / `.cursor/cli.json`, `mcp-approvals.json`, `.workspace-trusted`.
//!
//! These say what the agent was allowed to do without asking, which is what a
//! responder weighs an agent's actions against. Each becomes a `permission setting:`
//! (or `model setting:`) row at the file's modification time, the time it was last
//! written; no session. `authInfo` in `cli-config.json` is never read out.

use chat_rows::{Timestamp, system};
use serde_json::Value;

use super::{Out, sys};
use crate::decode::as_written;

/// `permissions.json` (JSONC): terminal and MCP allow lists and `autoRun`.
pub fn permissions(
    bytes: &[u8],
    from: &str,
    project: &str,
    mtime: Option<Timestamp>,
    out: &mut Out<'_>,
) {
    let v = match chat_rows::jsonc::parse_bytes(bytes) {
        Ok(v) => v,
        Err(e) => return out.push(sys(system::file_not_json(e)).project(project)),
    };
    let mut push = |k: String, val: String| {
        out.push(
            sys(system::permission_setting(k, val, from))
                .at(mtime)
                .project(project),
        );
    };
    for k in ["terminalAllowlist", "mcpAllowlist"] {
        for e in v.get(k).and_then(Value::as_array).into_iter().flatten() {
            push(k.to_string(), as_written(e));
        }
    }
    if let Some(o) = v.get("autoRun").and_then(Value::as_object) {
        for (k, val) in o {
            push(format!("autoRun.{k}"), as_written(val));
        }
    } else if let Some(a) = v.get("autoRun").filter(|a| !a.is_null()) {
        push("autoRun".into(), as_written(a));
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
    let v = match chat_rows::jsonc::parse_bytes(bytes) {
        Ok(v) => v,
        Err(e) => return out.push(sys(system::file_not_json(e)).project(project)),
    };
    for k in ["allow", "deny"] {
        for e in v
            .pointer(&format!("/permissions/{k}"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
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
    if let Some(m) = v.get("approvalMode").filter(|m| !m.is_null()) {
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
    let model = match v.get("model") {
        Some(Value::Object(o)) => o
            .get("modelId")
            .or_else(|| o.get("id"))
            .or_else(|| o.get("name"))
            .map(as_written)
            .unwrap_or_default(),
        Some(m) => as_written(m),
        None => String::new(),
    };
    if !model.is_empty() {
        let max = v
            .get("maxMode")
            .or_else(|| v.pointer("/model/maxMode"))
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
    let v: Value = match chat_rows::jsonc::parse_bytes(bytes) {
        Ok(v) => v,
        Err(e) => return out.push(sys(system::file_not_json(e))),
    };
    // iterative walk: a deep file never exhausts the stack
    let mut stack: Vec<(String, &Value)> = vec![("mcp-approvals".into(), &v)];
    let mut leaves: Vec<(String, String)> = Vec::new();
    while let Some((path, node)) = stack.pop() {
        match node {
            Value::Object(o) => {
                for (k, c) in o.iter().rev() {
                    stack.push((format!("{path}.{k}"), c));
                }
            }
            Value::Array(a) => {
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
