//! Writes the VS Code chat fixtures of real-file shapes into `fixtures/evidence/`
//! (run from anywhere):
//!
//! ```text
//! cargo run -p vscode-chat-log --example vscode_fixtures
//! ```
//!
//! Two sessions, in the shapes real VS Code builds write (the field names, the URI
//! objects `{$mid, fsPath, external, path, scheme}`, the parts a reply streams):
//!
//! * a 1.118-style mutation log: replies cut by inline references (a file and a
//!   symbol), a whitespace-only thinking part, an edit streamed as an opening fence, a
//!   `codeblockUri`, a `textEditGroup` and a closing fence, an agent-mode edit tool
//!   followed by its fences and a `multiDiffData`, no `responseTimestamp`, a small
//!   `timeSpentWaiting` duration, and at completion the kind-1 sets of
//!   `modelState {value, completedAt}` and `result.metadata.resolvedModel` for a
//!   request that asked for `copilot/auto`;
//! * a 1.104-style flat `.json` session (version 3), which records each request's time
//!   and no response time, with a location reference, an https reference and an
//!   edit-mode reply.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

const HOME: &str = "/home/alice";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

fn write(rel: &str, bytes: &[u8]) {
    let path = root().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    println!("wrote {}", path.display());
}

/// A file URI as VS Code serialises it.
fn file(path: &str) -> Value {
    json!({"$mid": 1, "fsPath": path, "external": format!("file://{path}"), "path": path, "scheme": "file"})
}

fn range(sl: u32, sc: u32, el: u32, ec: u32) -> Value {
    json!({"startLineNumber": sl, "startColumn": sc, "endLineNumber": el, "endColumn": ec})
}

fn md(text: &str) -> Value {
    json!({"value": text, "isTrusted": false, "supportThemeIcons": false, "supportHtml": false})
}

fn agent() -> Value {
    json!({"id": "github.copilot.editsAgent", "name": "agent", "fullName": "GitHub Copilot",
        "extensionId": {"value": "GitHub.copilot-chat", "_lower": "github.copilot-chat"}})
}

/// The 1.118-style log of `dotfiles`.
fn log_1118() -> String {
    let css = format!("{HOME}/src/dotfiles/waybar/Matugen.css");
    let toml = format!("{HOME}/src/dotfiles/matugen/colors.toml");
    let request = |id: &str, ts: u64, text: &str| {
        json!({"requestId": id, "timestamp": ts,
            "message": {"text": text, "parts": [{"kind": "text", "text": text,
                "range": {"start": 0, "endExclusive": text.len()}}]},
            "variableData": {"variables": []}, "agent": agent(), "modelId": "copilot/auto",
            "modeInfo": {"kind": "agent", "telemetryModeId": "agent", "isBuiltin": true,
                "permissionLevel": "default"},
            "response": [], "responseId": format!("response_{id}"), "modelState": {"value": 0},
            "contentReferences": [], "codeCitations": [], "timeSpentWaiting": 0})
    };
    let first_reply = json!([
        {"kind": "thinking", "value": " ", "id": "thinking_0"},
        md("The "),
        {"kind": "inlineReference", "inlineReference": file(&css)},
        md(" file takes `primary` from "),
        {"kind": "inlineReference", "inlineReference": {"name": "colors", "kind": 12,
            "containerName": "", "location": {"uri": file(&toml), "range": range(3, 1, 3, 7)}}},
        md(" and overrides it at line 12. Here is the fix:\n\n```css\n"),
        {"kind": "codeblockUri", "uri": file(&css), "isEdit": true},
        {"kind": "textEditGroup", "uri": file(&css),
            "edits": [[{"text": "  background: var(--surface);", "range": range(12, 1, 12, 30)}]],
            "done": true},
        md("\n```\n"),
        md("\nReload the theme to see it."),
    ]);
    let second_reply = json!([
        {"kind": "thinking", "value": "", "id": "thinking_1"},
        {"kind": "toolInvocationSerialized", "toolCallId": "call_e1", "toolId": "copilot_replaceString",
            "invocationMessage": {"value": format!("Editing [](file://{css})")},
            "pastTenseMessage": {"value": "Edited Matugen.css"},
            "isConfirmed": {"type": 1}, "isComplete": true,
            "toolSpecificData": {"kind": "input", "rawInput": {"filePath": css,
                "oldString": "  border: 1px solid blue;", "newString": "  border: 1px solid var(--surface);"}},
            "source": {"type": "internal", "label": "Built-In"}},
        md("\n```\n"),
        {"kind": "codeblockUri", "uri": file(&css), "isEdit": true},
        {"kind": "textEditGroup", "uri": file(&css),
            "edits": [[{"text": "  border: 1px solid var(--surface);", "range": range(20, 1, 20, 27)}], []],
            "done": true},
        md("\n```\n"),
        {"kind": "undoStop", "id": "undo_1"},
        {"kind": "multiDiffData", "multiDiffData": {"title": "Edited 1 file",
            "resources": [{"originalUri": file(&css), "modifiedUri": file(&css), "added": 1, "removed": 1}]}},
        md("Done: the border uses the surface colour too."),
    ]);
    let lines = [
        json!({"kind": 0, "v": {"version": 3, "creationDate": 1_761_900_000_000u64,
            "customTitle": "Theme colours", "initialLocation": "panel",
            "responderUsername": "GitHub Copilot", "sessionId": "a1118", "requests": [],
            "hasPendingEdits": false}}),
        json!({"kind": 2, "k": ["requests"], "v": [request("request_a1", 1_761_900_010_000, "why is the bar still blue?")]}),
        json!({"kind": 2, "k": ["requests", 0, "response"], "v": first_reply}),
        json!({"kind": 1, "k": ["requests", 0, "timeSpentWaiting"], "v": 2104}),
        json!({"kind": 1, "k": ["requests", 0, "modelState"], "v": {"value": 1, "completedAt": 1_761_900_023_512u64}}),
        json!({"kind": 1, "k": ["requests", 0, "result"], "v": {"timings": {"firstProgress": 2104, "totalElapsed": 13512},
            "metadata": {"modelMessageId": "m-1", "resolvedModel": "gpt-5-mini", "toolCallRounds": [], "toolCallResults": {}}}}),
        json!({"kind": 2, "k": ["requests"], "v": [request("request_a2", 1_761_900_060_000, "also make the border match")]}),
        json!({"kind": 2, "k": ["requests", 1, "response"], "v": second_reply}),
        json!({"kind": 1, "k": ["requests", 1, "modelState"], "v": {"value": 1, "completedAt": 1_761_900_075_940u64}}),
        json!({"kind": 1, "k": ["requests", 1, "result"], "v": {"timings": {"firstProgress": 1830, "totalElapsed": 15940},
            "metadata": {"modelMessageId": "m-2", "resolvedModel": "claude-sonnet-4.5",
                "toolCallRounds": [{"response": "", "toolCalls": [{"name": "copilot_replaceString", "id": "call_e1"}]}],
                "toolCallResults": {"call_e1": {"content": [{"value": "The file was edited"}]}}}}}),
    ];
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The 1.104-style flat session of `cli-tool`.
fn flat_1104() -> String {
    let main = format!("{HOME}/src/cli-tool/main.py");
    let util = format!("{HOME}/src/cli-tool/util.py");
    let session = json!({
        "version": 3, "requesterUsername": "alice", "responderUsername": "GitHub Copilot",
        "initialLocation": "panel", "sessionId": "f1104", "creationDate": 1_757_000_000_000u64,
        "customTitle": "parse_args", "isImported": false,
        "requests": [
            {"requestId": "request_f1", "timestamp": 1_757_000_005_000u64,
                "message": {"text": "where is parse_args used?", "parts": []},
                "variableData": {"variables": []}, "modelId": "copilot/gpt-4.1",
                "response": [
                    md("It is called from "),
                    {"kind": "inlineReference", "inlineReference": {"uri": file(&main), "range": range(41, 5, 41, 15)}},
                    md(" only; see "),
                    {"kind": "inlineReference", "inlineReference": {"$mid": 1, "scheme": "https",
                        "authority": "docs.python.org", "path": "/3/library/argparse.html",
                        "external": "https://docs.python.org/3/library/argparse.html"}},
                    md(" for the options."),
                ],
                "responseId": "response_f1", "modelState": {"value": 1}, "followups": [],
                "timeSpentWaiting": 1875, "isCanceled": false},
            {"requestId": "request_f2", "timestamp": 1_757_000_040_000u64,
                "message": {"text": "rename it to parse_cli", "parts": []},
                "variableData": {"variables": []}, "modelId": "copilot/gpt-4.1",
                "response": [
                    md("Rename the function in "),
                    {"kind": "inlineReference", "inlineReference": file(&util)},
                    md(":\n\n```python\n"),
                    {"kind": "codeblockUri", "uri": file(&util), "isEdit": true},
                    {"kind": "textEditGroup", "uri": file(&util),
                        "edits": [[{"text": "def parse_cli(argv):", "range": range(7, 1, 7, 21)},
                                   {"text": "", "range": range(30, 1, 32, 1)}]],
                        "done": true},
                    md("\n```\n"),
                    {"kind": "thinking", "value": ["  ", "\n"]},
                    md("Then update the call site."),
                ],
                "responseId": "response_f2", "modelState": {"value": 1}, "followups": [],
                "timeSpentWaiting": 2410, "isCanceled": false}
        ]
    });
    serde_json::to_string_pretty(&session).unwrap() + "\n"
}

fn main() {
    let code = "lin-ws01/home/alice/.config/Code/User/workspaceStorage";
    write(
        &format!("{code}/a11c0de5/workspace.json"),
        format!("{{\n  \"folder\": \"file://{HOME}/src/dotfiles\"\n}}\n").as_bytes(),
    );
    write(
        &format!("{code}/a11c0de5/chatSessions/a1118.jsonl"),
        log_1118().as_bytes(),
    );
    write(
        &format!("{code}/b104f1a7/workspace.json"),
        format!("{{\n  \"folder\": \"file://{HOME}/src/cli-tool\"\n}}\n").as_bytes(),
    );
    write(
        &format!("{code}/b104f1a7/chatSessions/f1104.json"),
        flat_1104().as_bytes(),
    );
}
