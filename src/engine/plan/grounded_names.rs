//! Which names and events of a plan the notes hold: a name written longer than the
//! notes write it, a person's name against a company's, an event on a day, and a
//! deadline on a day. Rules (README, "Grounding"):
//! - a name of several words is the notes' when the notes write it whole, or each of its
//!   words ("Sam Lee" of "Samantha Lee"); a notes name with words added ("Maya Chen",
//!   "Maya Holdings" of the notes' "Maya") is another entity, except company suffixes
//!   ("Acme Corp") added to a notes name that is not a person's there;
//! - a notes name is a person's when the notes write it after `with` / `w/` or an
//!   honorific ("coffee w/ Maya", "Dr. Lim");
//! - an event ("Friday's board review", "the Q3 audit deadline") is the notes' when a
//!   notes line names it, on the same day unless the day is today;
//! - a deadline on a day ("the Monday deadline") is the notes' when they give a deadline
//!   on that day ("due Mon", "by Monday", "Monday deadline"), not when they name the day;
//! - the plan's own schedule said again in an item's why is not an invention: "by 3:30"
//!   in the why of the item that ends at 3:30 is its end, and a meeting named by its word
//!   alone ("Recurring meeting") in the why of a block that is the notes' meeting is it;
//! - a meeting word is one meeting in every spelling ("stand-up", "1-on-1", "mtg").

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use regex::Regex;

use super::Notes;
use crate::engine::ascii_regex;
use crate::engine::grounding::plan_entities;
use crate::engine::grounding::plan_entities::PlanEntity;
use crate::engine::plan::clock::find_times;
use crate::engine::plan::timex::{self, Day};

fn re(s: &str) -> Regex {
    ascii_regex::compile(s).expect("grounding names regex")
}

/// Words that make a name a company's ("Acme Corp", "Maya Holdings"), capitalised as a
/// plan's names are read.
const COMPANY_SUFFIXES: &[&str] = &[
    "corp",
    "corporation",
    "inc",
    "incorporated",
    "ltd",
    "limited",
    "co",
    "company",
    "holdings",
    "group",
    "partners",
    "ventures",
    "plc",
    "pty",
    "industries",
    "enterprises",
    "associates",
    "labs",
];

pub(super) fn company_suffix(word: &str) -> bool {
    COMPANY_SUFFIXES.contains(&word.to_ascii_lowercase().as_str())
}

/// "coffee with Maya" (the notes' "w/" already read as "with"), "Dr. Lim".
static PERSON: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\b[Ww]ith\s+|\b(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?([A-Z][a-z]+)",
    )
});

/// The names the notes write as a person's.
pub(super) fn people(text: &str) -> BTreeSet<&str> {
    PERSON
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect()
}

/// A due word right before a day ("due Mon", "by Friday", "deadline: Monday").
static DUE_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:due|by|until|till|before|deadline(?:\s+is)?)\s*:?\s*$"));
/// "Monday deadline", "Monday's deadline".
static DEADLINE_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^(?:['’]s)?\s+deadline"));

/// Whether the day at `at` in the notes is a deadline's. Only a few bytes either side
/// are read, so the notes are read once however long.
pub(super) fn deadline_on(text: &str, at: (usize, usize)) -> bool {
    let mut from = at.0.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (at.1 + 16).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    DUE_BEFORE.is_match(&text[from..at.0]) || DEADLINE_AFTER.is_match(&text[at.1..to])
}

/// "before the release on Friday": the event a deadline on a day is.
static ON_DAY_EVENT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:the|a|our|my)\s+((?:[a-z-]+\s+){1,2})on\s+\w+"));

pub(super) fn event_of(deadline: &str) -> Option<String> {
    ON_DAY_EVENT
        .captures(deadline)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().trim().to_ascii_lowercase())
}

/// The notes' lines (lower case) by the words on them, for events: built once, the first
/// time a plan names an event, so each event is looked up, not read against every line.
#[derive(Default)]
pub(super) struct LineIndex {
    /// Byte ranges of the lines in `Notes::lower`.
    lines: Vec<(usize, usize)>,
    /// A word → the lines it is on, ascending.
    by_word: HashMap<String, Vec<usize>>,
    /// Events already looked up: (words, day) → grounded.
    seen: RefCell<HashMap<String, bool>>,
}

fn words_of(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

impl LineIndex {
    fn new(lower: &str) -> LineIndex {
        let mut index = LineIndex::default();
        let mut at = 0;
        for line in lower.split_inclusive('\n') {
            let n = index.lines.len();
            for w in words_of(line) {
                let on = index.by_word.entry(w.to_string()).or_default();
                if on.last() != Some(&n) {
                    on.push(n);
                }
            }
            index.lines.push((at, at + line.len()));
            at += line.len();
        }
        index
    }

    /// The lines with `word` or its singular or plural ("investors" for "investor").
    fn lines_with(&self, word: &str) -> BTreeSet<usize> {
        let mut forms = vec![word.to_string(), format!("{word}s"), format!("{word}es")];
        forms.extend(word.strip_suffix("es").map(str::to_string));
        forms.extend(word.strip_suffix('s').map(str::to_string));
        forms
            .iter()
            .filter_map(|f| self.by_word.get(f))
            .flatten()
            .copied()
            .collect()
    }
}

impl Notes<'_> {
    /// A meeting's words with each short form of a name written in full ("the call with
    /// Sam" → "the call with Samantha"), as the notes would write it.
    pub(super) fn in_full(&self, key: &str) -> String {
        let full = |w: &str| {
            (w.chars().count() >= 3 && self.source.find_words(w).is_none())
                .then(|| {
                    self.names.iter().find(|n| {
                        n.len() > w.len() && n.to_lowercase().starts_with(&w.to_lowercase())
                    })
                })
                .flatten()
                .map_or_else(|| w.to_string(), |n| n.to_string())
        };
        key.split(' ').map(full).collect::<Vec<_>>().join(" ")
    }

    /// Whether the notes name `word`: the word itself, or a name it is the short form of
    /// (at least three letters that open a longer capitalised word: "Sam" of "Samantha";
    /// "Nanette" is not a short form of "Nani").
    pub(super) fn names(&self, word: &str) -> bool {
        self.source.find_words(word).is_some()
            || word.chars().count() >= 3
                && word.chars().all(char::is_alphabetic)
                && self.names.iter().any(|n| {
                    n.len() > word.len() && n.to_lowercase().starts_with(&word.to_lowercase())
                })
    }

    /// Whether the notes hold the plan name `key` (canonical words), by the rules above.
    pub(super) fn grounds_name(&self, key: &str) -> bool {
        let words: Vec<&str> = key.split(' ').filter(|w| !w.is_empty()).collect();
        if words.is_empty()
            || self.source.find_words(key).is_some()
            || words.iter().all(|w| self.names(w))
        {
            return true;
        }
        // "Acme Corp": the notes' company with a suffix.
        let Some(cut) = words.iter().position(|w| company_suffix(w)) else {
            return false;
        };
        let (name, rest) = words.split_at(cut);
        !name.is_empty()
            && rest.iter().all(|w| company_suffix(w))
            && name.iter().all(|w| self.names(w))
            && !self
                .people
                .iter()
                .any(|p| name.iter().any(|w| p.eq_ignore_ascii_case(w)))
    }

    /// Whether the notes hold the plan's event `e` ("Friday's board review").
    pub(super) fn grounds_event(&self, e: &PlanEntity) -> bool {
        let day = timex::days(&e.text).next().map(|(d, _)| d);
        self.has_event(&e.key, day)
    }

    /// Whether a notes line names the event `what` (its words, in any form), on `day`
    /// when that is a day other than today.
    pub(super) fn has_event(&self, what: &str, day: Option<Day>) -> bool {
        let other_day = day.filter(|&d| !timex::is_today(d, self.today));
        let index = self.line_index.get_or_init(|| LineIndex::new(&self.lower));
        let key = format!("{what}|{other_day:?}");
        if let Some(&known) = index.seen.borrow().get(&key) {
            return known;
        }
        let mut on: Vec<BTreeSet<usize>> = words_of(what).map(|w| index.lines_with(w)).collect();
        on.sort_by_key(BTreeSet::len);
        let found = on.split_first().is_some_and(|(fewest, rest)| {
            fewest.iter().any(|&i| {
                let (a, b) = index.lines[i];
                rest.iter().all(|s| s.contains(&i))
                    && other_day.is_none_or(|d| {
                        timex::days(&self.lower[a..b])
                            .any(|(x, _)| timex::same_day(x, d, self.today))
                    })
            })
        });
        index.seen.borrow_mut().insert(key, found);
        found
    }
}

/// Whether the why's meeting `e` (in `text`) is named by its words alone: no time, no
/// person with it ("Recurring meeting", "the sync"; not "the call with Ken", "the 4pm
/// call"). In the why of an item that is a notes meeting, it is that meeting.
pub(super) fn bare_meeting(e: &PlanEntity, text: &str) -> bool {
    !e.text.chars().any(|c| c.is_ascii_digit())
        && !e
            .text
            .split_whitespace()
            .skip(1)
            .any(|w| w.starts_with(char::is_uppercase))
        && !MEETING_PERSON.is_match(&text[e.end..])
}

/// Whether the deadline `key` ("04:15", "3:30", "3 pm") is the item's own end `end` (within
/// the day): the plan's schedule said again ("Done by 04:15" for the item that ends at
/// 04:15), not a deadline. A time without am/pm is either half of the day.
pub(super) fn own_end(key: &str, end: Option<u32>) -> bool {
    let (Some(end), Some(t)) = (
        end,
        crate::engine::plan::clock::find_times(key).first().copied(),
    ) else {
        return false;
    };
    let day = 24 * 60;
    let named_half = key.contains("am") || key.contains("pm");
    t.start % day == end || !named_half && t.start % (day / 2) == end % (day / 2)
}

/// Whether the item's `task` is a meeting the notes hold ("Weekly sync (fixed)"), at the
/// item's time `slot` when the task is the meeting itself.
pub(super) fn meeting_of(task: &str, notes: &Notes, slot: Option<u32>) -> bool {
    use crate::engine::grounding::plan_entities::{self, PlanEntityKind};
    let meetings: Vec<PlanEntity> = plan_entities::extract_task(task)
        .into_iter()
        .filter(|e| e.kind == PlanEntityKind::Meeting)
        .collect();
    !meetings.is_empty()
        && meetings.iter().all(|e| {
            let own = slot.filter(|_| {
                crate::engine::plan::appointment::names_the_meeting_itself(&task[..e.start])
            });
            notes.grounds_meeting(e, task, own)
        })
}

/// One spelling for the ways a meeting word is written ("stand-up", "1-on-1", "mtg"), in
/// the notes and in the plan's meetings alike: the canonical word, then its spellings.
const MEETING_SPELLINGS: &[(&str, &str)] = &[
    ("standup", r"(?i)\bstand[- ]?ups?\b"),
    (
        "oneonone",
        r"(?i)\b(?:one[- ]on[- ]one|1[- ]on[- ]1|1:1)s?\b",
    ),
    ("meeting", r"(?i)\bmtgs?\b"),
    ("catchup", r"(?i)\bcatch[- ]?ups?\b"),
    ("checkin", r"(?i)\bcheck[- ]?ins?\b"),
    ("call", r"(?i)\bconf(?:erence)? call\b"),
];

pub(super) static SPELLINGS: std::sync::LazyLock<Vec<(&'static str, regex::Regex)>> =
    std::sync::LazyLock::new(|| {
        MEETING_SPELLINGS
            .iter()
            .map(|(w, p)| (*w, ascii_regex::compile(p).expect("meeting spelling")))
            .collect()
    });

/// `s` with each meeting word in its one spelling.
pub(super) fn meeting_spelling(s: &str) -> String {
    SPELLINGS.iter().fold(s.to_string(), |acc, (w, re)| {
        re.replace_all(&acc, *w).into_owned()
    })
}

/// The person right after a plan's meeting words ("… with Ken", "… w/ Dr. Lim"; the
/// meeting words may end at the `w` of "w/").
pub(super) static MEETING_PERSON: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| {
        ascii_regex::compile(r"^/?\s*(?:with|w/)?\s*(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?([A-Z][a-z]+)")
            .expect("meeting person regex")
    });

/// "w/", "w/o" aside: the notes' "w/" before a word.
pub(super) static W_SLASH: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| ascii_regex::compile(r"(?i)\bw/\s*").expect("w/ regex"));

/// "at 4" (or "@ 4") right after a plan's meeting words.
static AT_TIME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    ascii_regex::compile(r"(?i)^\s*(?:at|@)\s*").expect("at-time regex")
});

/// The clock time (within the day) of a plan's meeting: written in its words ("the 4pm
/// client call") or right after them ("the team standup at 4"; a bare hour 1–6 is
/// afternoon).
pub(super) fn meeting_time(e: &plan_entities::PlanEntity, text: &str) -> Option<u32> {
    if let Some(t) = find_times(&e.text).first() {
        return Some(t.start % (24 * 60));
    }
    let after = &text[e.end..];
    let lead = AT_TIME.find(after)?.end();
    let rest = &after[lead..];
    find_times(rest)
        .into_iter()
        .find(|t| t.at.0 == 0)
        .or_else(|| crate::engine::plan::clock::find_bare_hour(rest, 0).filter(|t| t.at.0 == 0))
        .map(|t| t.start % (24 * 60))
}

/// Notes words that make a deadline's day grounded: "eod" = "end of day" = "today".
pub(super) fn same_day_words(key: &str) -> &'static [&'static str] {
    match key {
        "eod" | "end of day" | "end of the day" | "today" => {
            &["eod", "end of day", "end of the day", "today"]
        }
        _ => &[],
    }
}
