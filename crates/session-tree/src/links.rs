//! Links between the records of one file, checked rather than trusted.
//!
//! Records name their parent (`parentId`/`parentUuid`, `logicalParent...`) and tool
//! results name their call. A name that no record of the file has gets a `link:` row,
//! which also says when the missing record is most likely the unreadable line whose
//! own id matches. Ids repeat across record types (a file-history snapshot reuses its
//! message's id); that is normal and not flagged.

use std::collections::{HashMap, HashSet};

/// The ids the records of a file have, and those the unreadable lines most likely had.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ids {
    ids: HashSet<String>,
    broken: HashMap<String, u64>,
}

impl Ids {
    /// Adds a readable record's id.
    pub fn insert(&mut self, id: String) {
        self.ids.insert(id);
    }

    /// Adds the id an unreadable line most likely had.
    pub fn insert_broken(&mut self, id: String, line: u64) {
        self.broken.insert(id, line);
    }

    /// `link: <what> <target> is on unreadable line <n>` or `... not found in this file`,
    /// when no readable record has `target`.
    pub fn check(&self, what: &str, target: &str) -> Option<String> {
        if self.ids.contains(target) {
            return None;
        }
        Some(match self.broken.get(target) {
            Some(line) => format!("link: {what} {target} is on unreadable line {line}"),
            None => format!("link: {what} {target} not found in this file"),
        })
    }
}

/// Tool calls (with their tool names) and results of a file, readable and unreadable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calls {
    calls: HashMap<String, String>,
    results: HashSet<String>,
    broken_calls: HashMap<String, u64>,
    broken_results: HashMap<String, u64>,
}

impl Calls {
    /// Adds a call and its tool.
    pub fn call(&mut self, id: String, tool: String) {
        self.calls.insert(id, tool);
    }

    /// Adds a result.
    pub fn result(&mut self, id: String) {
        self.results.insert(id);
    }

    /// Adds a call on an unreadable line.
    pub fn broken_call(&mut self, id: String, line: u64) {
        self.broken_calls.insert(id, line);
    }

    /// Adds a result on an unreadable line.
    pub fn broken_result(&mut self, id: String, line: u64) {
        self.broken_results.insert(id, line);
    }

    /// The tool of a call, if the file has the call.
    pub fn tool(&self, id: &str) -> Option<&str> {
        self.calls.get(id).map(String::as_str)
    }

    /// True when the file has the call.
    pub fn has_call(&self, id: &str) -> bool {
        self.calls.contains_key(id)
    }

    /// The `link:` row text of a call without a readable result.
    pub fn call_link(&self, id: &str) -> Option<String> {
        if id.is_empty() || self.results.contains(id) {
            return None;
        }
        Some(match self.broken_results.get(id) {
            Some(line) => format!("link: tool call {id} has its result on unreadable line {line}"),
            None => format!("link: tool call {id} has no result in this file"),
        })
    }

    /// The `link:` row text of a result without a readable call.
    pub fn result_link(&self, id: &str) -> Option<String> {
        if id.is_empty() || self.calls.contains_key(id) {
            return None;
        }
        Some(match self.broken_calls.get(id) {
            Some(line) => format!("link: tool result {id} has its call on unreadable line {line}"),
            None => format!("link: tool result {id} has no tool call in this file"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_texts() {
        let mut ids = Ids::default();
        ids.insert("a".into());
        ids.insert_broken("b".into(), 4);
        assert_eq!(ids.check("parentId", "a"), None);
        assert_eq!(
            ids.check("parentId", "b").unwrap(),
            "link: parentId b is on unreadable line 4"
        );
        assert_eq!(
            ids.check("parentUuid", "c").unwrap(),
            "link: parentUuid c not found in this file"
        );
        let mut c = Calls::default();
        c.call("t1".into(), "Bash".into());
        c.broken_result("t1".into(), 9);
        c.result("t2".into());
        assert_eq!(
            c.call_link("t1").unwrap(),
            "link: tool call t1 has its result on unreadable line 9"
        );
        assert_eq!(
            c.result_link("t2").unwrap(),
            "link: tool result t2 has no tool call in this file"
        );
        assert_eq!(c.tool("t1"), Some("Bash"));
        assert_eq!(c.call_link(""), None);
    }
}
