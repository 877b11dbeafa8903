//! The records both products hide from the conversation, and the rows they become.
//!
//! Role `user` is shared between the person at the keyboard and the client's own
//! plumbing: slash-command echoes, command output, reminders, task notifications,
//! compaction digests and teammate messages. Both apps hide them; counting them as
//! prompts would put words in the user's mouth. They are still evidence (a local
//! command ran, a compaction rewrote the history), so each becomes one system row,
//! `hidden <what it is> (<why>): <text>`. Which *flags* hide a record is each
//! decoder's (CodeBuddy's `providerData.skipRun`, Claude Code's `origin.kind`); the
//! opening tags and the texts are shared here.

/// The tags that mark a text the app hides, with what the text is.
const TAGS: [(&str, &str); 11] = [
    ("<command-name>", "local command"),
    ("<command-message>", "local command"),
    ("<command-args>", "local command"),
    ("<local-command-stdout>", "local command output"),
    ("<local-command-stderr>", "local command output"),
    ("<system-reminder>", "system reminder"),
    ("<local-command-caveat>", "system reminder"),
    ("<teammate-message", "teammate message"),
    ("<task-notification>", "task notification"),
    ("<cb_summary>", "compaction summary"),
    ("<conversation_history_summary>", "compaction summary"),
];

/// The opening tag of a text the app hides (`<teammate-message ...>` reported as
/// `<teammate-message>`) and what the text is.
pub fn tag_label(text: &str) -> Option<(&'static str, &'static str)> {
    let t = text.trim_start();
    TAGS.iter()
        .find(|(tag, _)| t.starts_with(tag))
        .map(|(tag, label)| {
            (
                if *tag == "<teammate-message" {
                    "<teammate-message>"
                } else {
                    *tag
                },
                *label,
            )
        })
}

/// `hidden <label> (<why>): <text>`, or `hidden <label>: <text>` without a reason.
pub fn hidden_text(label: &str, why: &str, text: &str) -> String {
    if why.is_empty() {
        format!("hidden {label}: {text}")
    } else {
        format!("hidden {label} ({why}): {text}")
    }
}

/// `opens with <tag>`: the reason of a text hidden by its tag.
pub fn opens_with(tag: &str) -> String {
    format!("opens with {tag}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags() {
        assert_eq!(
            tag_label("  <teammate-message from=\"a\">x"),
            Some(("<teammate-message>", "teammate message"))
        );
        assert_eq!(
            tag_label("<local-command-caveat>Caveat"),
            Some(("<local-command-caveat>", "system reminder"))
        );
        assert_eq!(tag_label("<b>"), None);
        assert_eq!(hidden_text("x", "", "t"), "hidden x: t");
        assert_eq!(
            hidden_text("x", &opens_with("<a>"), "t"),
            "hidden x (opens with <a>): t"
        );
    }
}
