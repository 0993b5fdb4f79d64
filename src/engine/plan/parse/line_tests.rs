//! The task text of a plan line, both ways: what ends the task and what stays in it.

use super::super::{Plan, parse};

fn tasks(t: &str) -> Vec<(String, Option<i64>)> {
    let plan: Plan = parse(t, (0, t.len()));
    assert!(plan.unread.is_empty(), "{:?}", plan.unread);
    plan.items
        .iter()
        .map(|i| (i.task.clone(), i.minutes))
        .collect()
}

/// A remark in brackets at the end of a task is kept whole; a closing bracket that closes
/// nothing the task opened, and a timebox in brackets, are not the task's.
#[test]
fn a_bracketed_remark_stays_in_the_task() {
    let rows: &[(&str, &str, i64)] = &[
        (
            "1. 10:00–10:45 — Call with Rohan (Sharma & Co)\n   Already on the calendar.\n",
            "Call with Rohan (Sharma & Co)",
            45,
        ),
        (
            "- Reply to HDFC [settlement file] (15 min)\n",
            "Reply to HDFC [settlement file]",
            15,
        ),
        (
            "- **Review the deck (v2)** — 30 min\n",
            "Review the deck (v2)",
            30,
        ),
        // Not the task's: a stray closing bracket, a timebox in brackets.
        (
            "- 11:00–11:30 — Update the sprint board)\n",
            "Update the sprint board",
            30,
        ),
        ("- Draft brief (45 min)\n", "Draft brief", 45),
    ];
    for (text, task, minutes) in rows {
        assert_eq!(tasks(text), [(task.to_string(), Some(*minutes))], "{text}");
    }
}
