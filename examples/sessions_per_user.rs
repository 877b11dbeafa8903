//! Who used which assistant, when? One line per (host, user, agent, session): the first
//! and last time, the number of prompts, replies and tool calls, and the project.
//!
//! ```sh
//! cargo run --release --example sessions_per_user -- fixtures/evidence
//! ```

use std::collections::BTreeMap;

use ai_chat_forensics::{Scanner, TurnType};

#[derive(Default)]
struct Session {
    first: Option<String>,
    last: Option<String>,
    prompts: usize,
    replies: usize,
    tools: usize,
    project: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let roots: Vec<String> = std::env::args().skip(1).collect();
    if roots.is_empty() {
        return Err("usage: sessions_per_user ROOT [ROOT ...]".into());
    }
    let mut scanner = Scanner::new();
    for r in &roots {
        scanner = scanner.root(r);
    }
    let result = scanner.run()?;
    let mut sessions: BTreeMap<(String, String, String, String), Session> = BTreeMap::new();
    for row in result.rows.iter().filter(|r| !r.session_id.is_empty()) {
        let key = (
            row.host.clone(),
            row.user.clone(),
            row.agent.clone(),
            row.session_id.clone(),
        );
        let s = sessions.entry(key).or_default();
        if let Some(t) = row.timestamp.map(|t| t.to_string()) {
            if s.first.as_ref().is_none_or(|f| t < *f) {
                s.first = Some(t.clone());
            }
            if s.last.as_ref().is_none_or(|l| t > *l) {
                s.last = Some(t);
            }
        }
        match row.turn_type {
            TurnType::User => s.prompts += 1,
            TurnType::Assistant => s.replies += 1,
            TurnType::ToolUse => s.tools += 1,
            _ => {}
        }
        if s.project.is_empty() {
            s.project.clone_from(&row.project_path);
        }
    }
    println!("host\tuser\tagent\tsession\tfirst\tlast\tprompts\treplies\ttool_calls\tproject");
    for ((host, user, agent, session), s) in &sessions {
        println!(
            "{host}\t{user}\t{agent}\t{session}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.first.as_deref().unwrap_or("-"),
            s.last.as_deref().unwrap_or("-"),
            s.prompts,
            s.replies,
            s.tools,
            s.project
        );
    }
    Ok(())
}
