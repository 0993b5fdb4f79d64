//! A block in which the plan restates one of the notes' constraints instead of planning
//! work: the notes' meeting marked `(fixed)` (`### 9:30–9:45 · Standup (fixed)`), or the
//! stop written as a block (`**4:00 PM — Office closes (hard stop)**`,
//! `### 4:00 PM · Hard stop (school run)`). Such a block is not an item: it plans no
//! time, it cannot be scheduled over the window it is, and the 3–7 items are the work.
//! Its text is still checked against the notes (a `(fixed)` meeting the notes do not
//! have is invented like any other).

/// What a marker in parentheses says: the block is the notes' own, not work.
const MARKERS: [&str; 7] = [
    "fixed",
    "hard stop",
    "blocked",
    "immovable",
    "not movable",
    "can't move",
    "cannot move",
];

/// How a stop written as a block opens.
const STOP_OPENERS: [&str; 7] = [
    "hard stop",
    "stop work",
    "office closes",
    "log off",
    "end of day",
    "end of the working day",
    "day ends",
];

/// True when the item's line (`source`, as written) or its task restates a constraint.
pub(super) fn restates_constraint(source: &str, task: &str) -> bool {
    let lower = source.to_lowercase();
    let marked = lower.match_indices('(').any(|(i, _)| {
        let inner = &lower[i + 1..];
        let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
        let inner = inner.trim().trim_end_matches(['.', '!']);
        MARKERS.contains(&inner) || inner.starts_with("fixed ") || inner.starts_with("fixed,")
    });
    let task = task
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    marked
        || STOP_OPENERS.iter().any(|o| {
            task.strip_prefix(o)
                .is_some_and(|rest| rest.is_empty() || !rest.starts_with(char::is_alphanumeric))
        })
}

#[cfg(test)]
mod tests {
    use super::restates_constraint as r;

    #[test]
    fn fixed_blocks_and_stops_are_restated_constraints() {
        for (source, task) in [
            ("### 9:30–9:45 · Standup (fixed)", "Standup (fixed"),
            ("**11:00–11:45 AM — Client call (Fixed)**", "Client call"),
            ("**4:00 PM — Office closes (hard stop)**", "Office closes"),
            (
                "### 4:00 PM · Hard stop (school run)",
                "Hard stop (school run)",
            ),
            (
                "- 12:30–1:15 PM Lunch with Priya (fixed, from the notes)",
                "Lunch with Priya",
            ),
            ("🛑 6:00 Log off", "Log off"),
            ("| 17:00 | End of day | |", "End of day"),
        ] {
            assert!(r(source, task), "{source}");
        }
    }

    #[test]
    fn work_items_are_not() {
        for (source, task) in [
            ("### 9:00–9:30 · Book the venue", "Book the venue"),
            (
                "- 9:00 Fix the fixed-width table (30 min)",
                "Fix the fixed-width table",
            ),
            (
                "- 10:00 Stop the build flakes (45 min)",
                "Stop the build flakes",
            ),
            ("- 15:00 Log offsite costs (20 min)", "Log offsite costs"),
            (
                "- 16:00 Hard stopwatch drill (20 min)",
                "Hard stopwatch drill",
            ),
            (
                "- 11:00 Draft the brief (60 min) (focus)",
                "Draft the brief",
            ),
        ] {
            assert!(!r(source, task), "{source}");
        }
    }
}
