//! Turning what this crate finds into rows.
//!
//! A store crate decides the agent and the exact text its specification gives a
//! damaged database (`parser: state.vscdb unreadable: <message>` for VS Code); these
//! helpers keep the location of each problem in `source_locator`, so every store
//! reports SQLite damage the same way.

use chat_rows::{Row, system};

use crate::Problem;

/// One `parser: <prefix><message>` system row per problem, located by the problem's
/// location. `prefix` is what the store's specification puts before the message
/// (for example `state.vscdb unreadable: `), or empty.
pub fn problem_rows(
    problems: &[Problem],
    agent: &str,
    source_file: &str,
    prefix: &str,
) -> Vec<Row> {
    problems
        .iter()
        .map(|p| {
            Row::system(agent, system::parser(format!("{prefix}{}", p.message)))
                .file(source_file)
                .locator(p.location.clone())
        })
        .collect()
}
