//! Events a plan names on a day ("Friday's board review", "tomorrow's investor call") or
//! by their deadline ("the Q3 audit deadline"), for the invented-entity gate: the plan
//! entity kind `Event`, whose key is the event's words ("board review", "q3 audit"). The
//! event words are a list (`plan_events.txt`); the plan validator grounds an event only
//! when a notes line names it, on the same day unless the day is today.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::words_key;
use super::plan_entities::{PlanEntity, PlanEntityKind};
use crate::engine::ascii_regex;

const DAYS: &str =
    "today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday";

static EVENT_WORDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    include_str!("plan_events.txt")
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
});

fn alternation() -> String {
    EVENT_WORDS
        .iter()
        .map(|w| regex::escape(w))
        .collect::<Vec<_>>()
        .join("|")
}

/// "Friday's board review": a day's possessive, at most two words, an event word.
static ON_DAY: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)\b(?:{DAYS})['’]s\s+((?:[a-z0-9][a-z0-9-]*\s+){{0,2}}(?:{})s?)\b",
        alternation()
    ))
    .expect("event-on-a-day regex")
});

/// "the Q3 audit deadline": a deadline named for what it is of (not for a day or a time,
/// which the deadline entities read).
static NAMED_DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?i)\bthe\s+((?:[a-z0-9][a-z0-9-]*\s+){0,2}[a-z0-9][a-z0-9-]*)\s+deadlines?\b",
    )
    .expect("named-deadline regex")
});

/// Words before "deadline" that say when or how, not what it is of.
static WHEN_OR_HOW: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)\b(?:{DAYS}|mon|tue|tues|wed|thu|thurs|fri|sat|sun|eod|cob|noon|midday|\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)?|same|hard|soft|real|original|new|actual|final|tight|next|last|internal|external|official)\b"
    ))
    .expect("deadline-modifier regex")
});

/// The events in `text` (a plan's task or reason), left to right.
pub fn extract(text: &str) -> Vec<PlanEntity> {
    let mut out = Vec::new();
    for c in ON_DAY.captures_iter(text) {
        let (m, what) = (c.get(0).expect("match"), c.get(1).expect("event").as_str());
        // "Friday's deadline", "tomorrow's EOD deadline" are deadlines on a day, read as
        // one: only when or how comes before "deadline".
        let before = what.trim_end_matches(['s', 'S']);
        if let Some(rest) = before
            .to_ascii_lowercase()
            .strip_suffix("deadline")
            .map(str::trim)
            && rest.split_whitespace().all(|w| WHEN_OR_HOW.is_match(w))
        {
            continue;
        }
        out.push(event(m, what));
    }
    for c in NAMED_DEADLINE.captures_iter(text) {
        let (m, what) = (c.get(0).expect("match"), c.get(1).expect("event").as_str());
        if WHEN_OR_HOW.is_match(what) || out.iter().any(|e| e.start < m.end() && m.start() < e.end)
        {
            continue;
        }
        out.push(event(m, what));
    }
    out
}

fn event(m: regex::Match, what: &str) -> PlanEntity {
    PlanEntity {
        kind: PlanEntityKind::Event,
        start: m.start(),
        end: m.end(),
        text: m.as_str().to_string(),
        key: words_key(what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(t: &str) -> Vec<String> {
        extract(t).into_iter().map(|e| e.key).collect()
    }

    #[test]
    fn events_on_a_day_and_named_deadlines_both_ways() {
        for (text, want) in [
            (
                "Prep slides for Friday's board review",
                vec!["board review"],
            ),
            ("Prep for tomorrow's investor call", vec!["investor call"]),
            ("for the Q3 audit deadline", vec!["q3 audit"]),
            ("before Friday's offsite", vec!["offsite"]),
            ("ahead of the filing deadline", vec!["filing"]),
            ("today's standups", vec!["standups"]),
            // A day or a time before "deadline" is a deadline, read as one; a day's plan,
            // tasks or inbox are no event.
            ("before the Monday deadline", vec![]),
            ("the 3pm deadline", vec![]),
            ("before the EOD deadline", vec![]),
            ("Friday's deadline", vec![]),
            ("tomorrow's EOD deadline", vec![]),
            ("tomorrow's grant deadline", vec!["grant deadline"]),
            ("Wednesday's pricing committee", vec!["pricing committee"]),
            ("today's tasks", vec![]),
            ("clear tomorrow's inbox", vec![]),
            ("the hard deadline", vec![]),
            ("review the board pack", vec![]),
        ] {
            assert_eq!(keys(text), want, "{text}");
        }
        assert!(EVENT_WORDS.contains(&"review"));
    }
}
