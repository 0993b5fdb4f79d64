//! Plan-specific entities (for the invented-entity gate of plan validation): names of people and organisations written as
//! proper nouns, meetings ("sync with Marcus", "1:1"), and deadlines ("due at noon",
//! "by Friday"), with keys that `Source::find_words` compares. Additive to the shared
//! entity kinds in `entities`; the plan validator grounds both against the user's notes.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::words_key;
use crate::engine::ascii_regex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlanEntityKind {
    /// A capitalised name that does not start a sentence: "Marcus", "Brightline".
    Name,
    /// A meeting word: "sync", "standup", "1:1", "call with", a meal with someone ("lunch
    /// with", "coffee w/").
    Meeting,
    /// A due time or day: "due at noon", "by 3 PM", "before Friday".
    Deadline,
    /// An event on a day or by its deadline: "Friday's board review", "the Q3 audit
    /// deadline" (`plan_events`).
    Event,
}

impl PlanEntityKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanEntityKind::Name => "person or organisation",
            PlanEntityKind::Meeting => "meeting",
            PlanEntityKind::Deadline => "deadline",
            PlanEntityKind::Event => "event",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanEntity {
    pub kind: PlanEntityKind,
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// Names and meetings: canonical words (`words_key`). Deadlines: the "when" part,
    /// lower-cased ("noon", "3 pm", "friday").
    pub key: String,
}

static CAPITALISED: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex::compile(r"\b[A-Z][a-z]+(?:['’]s)?\b").expect("name regex"));
static MEETING: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)\b(meeting|sync|standup|stand-up|1:1|one-on-one|check-in|huddle|interview|demo|(?:call|lunch|dinner|breakfast|brunch|coffee|drinks)\s+(?:with|w/?)|catch-up|catch up with|offsite|all-hands|\d{1,2}(?::\d{2})?\s*(?:am|pm)\s+(?:[a-z]+\s+)?(?:call|review|meeting|sync|conference|briefing|presentation|hearing)|(?:the|a|my|our|this)\s+(?:[a-z][a-z-]*\s+)?call)\b")
        .expect("meeting regex")
});
/// Right after a meeting word: a time with no meetings ("meeting-free", "call-free").
static NOT_A_MEETING_AFTER: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex::compile(r"(?i)^[- ]free\b").expect("meeting-free regex"));
/// Right before "catch-up": a thing one works through, so the catch-up is work, not a
/// meeting ("Inbox catch-up", "email catch-up"; "team catch-up" stays a meeting).
static WORK_CATCH_UP: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?i)\b(?:inbox|e-?mails?|mail|admin|slack|messages?|reading|paperwork|backlog|tickets?|queue|notes|news)\s*$",
    )
    .expect("work catch-up regex")
});
static DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)\b(?:(?:due|deadline(?:\s+is)?|by|before)\s+(?:at\s+)?(?:(?:tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+(?:at\s+)?)?(\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|eod|end of (?:the )?day|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:the\s+)?(tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:['’]s)?\s+(?:(?:eod|cob|noon|end[- ]of[- ]day)\s+)?deadline|(?:the\s+)?(\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|eod)\s+deadline|(?:before|by|ahead of|for)\s+(?:the|a|our|my)\s+(?:[a-z-]+\s+){1,2}on\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:before|by|ahead of)\s+the\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})\s+[a-z]+)\b")
        .expect("deadline regex")
});

/// Words that are capitalised in plans without naming anyone.
const NOT_NAMES: &[&str] = &[
    "i",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "today",
    "tomorrow",
    "morning",
    "afternoon",
    "evening",
    "plan",
    "break",
    "lunch",
    "the",
    "a",
    "an",
    "and",
    "or",
    "for",
    "with",
    "to",
    "of",
    "on",
    "in",
    "at",
    "by",
    "before",
    "after",
    "from",
    "then",
    "also",
    "if",
    "this",
    "that",
    "my",
    "your",
    "our",
    "am",
    "pm",
    "eod",
    "asap",
    "buffer",
    "focus",
    "admin",
    "wrap",
    "quick",
    "short",
    "final",
    "notes",
    "deep",
    "work",
    "walk",
    "coffee",
    "stretch",
    "rest",
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
];

/// Start of a sentence or list item: capitalised for grammar, not for a name.
fn sentence_start(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches([' ', '\t', '*', '_', '"', '“', '(']);
    before.is_empty()
        || before.ends_with(['.', '!', '?', ':', ';', '\n', '-', '—', '–', '•'])
        || before.ends_with(char::is_numeric) && before.len() + 3 >= at
}

static OPENERS: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("plan_openers.txt")
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
});

/// Where a capitalised word opening a sentence may still be a name: a possessive
/// ("Globex's deck") anywhere, or any word after a dash, colon or semicolon inside the
/// text ("Draft the deck — Globex wants it"); the first word of a task, a reason or a
/// sentence is read as an ordinary word.
fn may_name_at_start(text: &str, at: usize, word: &str) -> bool {
    let before = text[..at].trim_end_matches([' ', '\t', '*', '_', '"', '“', '(']);
    word.ends_with("'s")
        || word.ends_with("’s")
        || !before.trim().is_empty() && before.ends_with([':', ';', '—', '–'])
        || before.ends_with(" -")
}

/// A request verb after a reason's first word ("Kowalski in accounts asked for it",
/// "Contoso wants it Monday"), at most three lower-case words on: that word is who asks,
/// so it is read as a name unless it is an ordinary word ("Client asked", "She wants").
static REQUESTER: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"^(?:['’]s)?\s+(?:[a-z]+\s+){0,3}?(?:asked|asks|wants|wanted|needs|expects|expected|requested|requests|promised|is waiting|is expecting|has asked|said|says|owes|signs off)\b")
        .expect("requester regex")
});

/// What follows a verb opening a task, not a name: a determiner or a particle ("Nudge the
/// landlord", "Touch base with Jo", "Loop in Jo", "Kick off the audit").
static VERB_NEXT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"^\s+(?:the|a|an|my|our|your|his|her|their|this|that|these|those|all|some|any|off|out|in|back|up|down|over|through|base|around)\b")
        .expect("verb-next regex")
});

/// "Dr. Chen": the shared person entities read a name after an honorific.
fn after_honorific(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end().trim_end_matches('.');
    let word = before
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .unwrap_or("");
    matches!(
        word.to_ascii_lowercase().as_str(),
        "dr" | "mr" | "mrs" | "ms" | "prof"
    )
}

/// A capitalised word opening a clause is an ordinary word, not a name: one of the
/// openers (`plan_openers.txt`) or a form of one ("Drafting", "Reviews"), a short word, a
/// word with an ending names do not have ("Reconciliation", "Finalizing"), or one the text
/// also writes in lower case.
fn ordinary_opener(lower: &str, text: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "ing", "ion", "ions", "ment", "ments", "ize", "ise", "ate", "ates", "ify", "ly", "ness",
        "ed", "er", "ers", "al", "ity", "ance", "ence", "ive", "ure", "age", "ful",
    ];
    let stems = ["s", "es", "ing", "ed", "d"]
        .iter()
        .filter_map(|suf| lower.strip_suffix(suf));
    lower.chars().count() <= 3
        || OPENERS.contains(lower)
        || stems
            .into_iter()
            .any(|st| OPENERS.contains(st) || OPENERS.contains(format!("{st}e").as_str()))
        || ENDINGS.iter().any(|e| lower.ends_with(e))
        || text
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == lower)
}

/// Meals a plan's meeting may be ("lunch with Carmen").
const MEALS: &[&str] = &["lunch", "dinner", "breakfast", "brunch", "coffee", "drinks"];

/// "4pm investor call", "the client call" are calls: the meeting word is the key.
pub fn meeting_key(s: &str) -> String {
    let key = words_key(s);
    // "call w/" is "call with".
    let key = match key.strip_suffix(" w") {
        Some(k) => format!("{k} with"),
        None => key,
    };
    // "lunch with the team" is the notes' lunch, whoever it is with: the meal is the key.
    if let Some(meal) = key.strip_suffix(" with")
        && MEALS.contains(&meal)
    {
        return meal.to_string();
    }
    if key.starts_with(|c: char| c.is_ascii_digit()) || key.ends_with(" call") {
        key.rsplit(' ').next().unwrap_or("").to_string()
    } else {
        key
    }
}

/// The plan entities in `text`, left to right; names next to each other join ("Acme Health").
pub fn extract(text: &str) -> Vec<PlanEntity> {
    extract_with(text, false)
}

/// The plan entities of an item's task: as `extract`, and the task's first word is a
/// name too when it is not an ordinary word ("Globex draft review" names an organisation;
/// "Tighten the story", "Vendor proposal" do not): a task opens with a verb or a common
/// noun, which `plan_openers.txt` and its forms cover.
pub fn extract_task(text: &str) -> Vec<PlanEntity> {
    extract_with(text, true)
}

fn extract_with(text: &str, task: bool) -> Vec<PlanEntity> {
    let mut out: Vec<PlanEntity> = Vec::new();
    let mut last_end: Option<usize> = None;
    let opening = text.len() - text.trim_start_matches(['*', '_', ' ', '"', '“']).len();
    for m in CAPITALISED.find_iter(text) {
        let word = m.as_str().trim_end_matches("'s").trim_end_matches("’s");
        let lower = word.to_ascii_lowercase();
        let opens_task = task && m.start() == opening && !VERB_NEXT.is_match(&text[m.end()..]);
        let asks = REQUESTER.is_match(&text[m.end()..]);
        if NOT_NAMES.contains(&lower.as_str())
            || sentence_start(text, m.start())
                && (!(opens_task || asks || may_name_at_start(text, m.start(), m.as_str()))
                    || ordinary_opener(&lower, text)
                    || after_honorific(text, m.start()))
        {
            last_end = None;
            continue;
        }
        let end = m.start() + word.len();
        match (last_end, out.last_mut()) {
            (Some(e), Some(prev))
                if prev.kind == PlanEntityKind::Name && text[e..m.start()].trim().is_empty() =>
            {
                prev.end = end;
                prev.text = text[prev.start..end].to_string();
                prev.key = words_key(&prev.text);
            }
            _ => out.push(PlanEntity {
                kind: PlanEntityKind::Name,
                start: m.start(),
                end,
                text: word.to_string(),
                key: words_key(word),
            }),
        }
        last_end = Some(end);
    }
    for m in MEETING.find_iter(text) {
        // "Meeting-free from 16:00" is a time without meetings; "Inbox catch-up" is work.
        if NOT_A_MEETING_AFTER.is_match(&text[m.end()..])
            || m.as_str().to_ascii_lowercase().starts_with("catch")
                && WORK_CATCH_UP.is_match(&text[..m.start()])
        {
            continue;
        }
        out.push(PlanEntity {
            kind: PlanEntityKind::Meeting,
            start: m.start(),
            end: m.end(),
            text: m.as_str().to_string(),
            key: meeting_key(m.as_str()),
        });
    }
    for c in DEADLINE.captures_iter(text) {
        let m = c.get(0).expect("match");
        out.push(PlanEntity {
            kind: PlanEntityKind::Deadline,
            start: m.start(),
            end: m.end(),
            text: m.as_str().to_string(),
            key: c
                .get(1)
                .or_else(|| c.get(2))
                .or_else(|| c.get(3))
                .or_else(|| c.get(4))
                .or_else(|| c.get(5))
                .map_or("", |k| k.as_str())
                .to_ascii_lowercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        });
    }
    out.sort_by_key(|e| (e.start, e.kind));
    out
}

#[cfg(test)]
#[path = "plan_entities_tests.rs"]
mod tests;
