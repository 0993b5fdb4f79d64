//! What the user's notes (the plan's `source` companion) say: the working window and
//! hard stops, blocked windows (meetings, appointments), and the tasks, with the ones
//! that must be done today. A rule-based extractor, not a model: the same notes give
//! the same extraction on every machine.

use std::sync::LazyLock;

use regex::Regex;

use jiff::civil::Weekday;

use super::clock::Minute;
use super::timex::{self, Day};

#[path = "context_times.rs"]
mod times;
use times::constraint_line;

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub label: String,
    pub start: Minute,
    pub end: Minute,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub text: String,
    pub must: bool,
}

impl Task {
    /// The task's intent tokens, from the task itself without its reason: the text
    /// before a parenthesis or a dash ("DB migration must be done tonight (goes live
    /// tomorrow)" is the migration), all of it when that leaves no content word.
    pub fn intent(&self) -> std::collections::BTreeSet<String> {
        let t = self.text.as_str();
        let cut = [" (", " — ", " – ", " - ", " -- "]
            .iter()
            .filter_map(|sep| t.find(sep))
            .min()
            .unwrap_or(t.len());
        let core = super::intent::tokens(&t[..cut]);
        if core.is_empty() {
            super::intent::tokens(t)
        } else {
            core
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub window_start: Option<Minute>,
    /// The earliest end of the day: a hard stop or the end of the working window.
    pub window_end: Option<Minute>,
    /// Whether `window_end` came from a hard stop ("hard stop at 3 PM") rather than
    /// working hours.
    pub hard_stop: bool,
    pub blocks: Vec<Block>,
    pub tasks: Vec<Task>,
    /// "deep work", "one long block": a long block was asked for.
    pub long_block_requested: bool,
}

fn re(s: &str) -> Regex {
    crate::engine::ascii_regex::regex(s).expect("context regex")
}

static MUST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(\bmust\b|\btoday\b|\burgent|\basap\b|\beod\b|end of (?:the )?day|\bcritical\b|\bdue (?:at|by) (?:\d|noon)|non-negotiable|top priority|!!|\bno matter what\b|\bcannot slip\b|\bcan't slip\b)",
    )
});
static OPTIONAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(maybe|if (?:there'?s |i have )?time|nice to have|optional|someday|if possible|low priority)\b",
    )
});
static DEFERRED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(next week|later this week|not today|can wait|on hold|next month)\b")
});
static BULLET: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:[-*+•]|\d+[.)]|\[[ xX]?\])\s+(?:\[[ xX]\]\s+)?"));
static TASK_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\b(?:need to|needs to|have to|has to|got to|gotta|must|should|todo:?|to-do:?|want to|remember to|don'?t forget to|also)\s+)+",
    )
});
static LONG_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(deep work|long block|uninterrupted|one big block|in one go|marathon)\b")
});

/// At most this many blocks and tasks are kept (a day's notes have far fewer), so that
/// matching them against the plan stays linear in the input.
pub const MAX_EXTRACTED: usize = 1000;

/// What a heading line ("Must do today:", "## Tomorrow", "Maybe, if time:") says about
/// the tasks listed under it.
#[derive(Debug, Clone, Copy, Default)]
struct Section {
    must: bool,
    optional: bool,
    deferred: bool,
}

fn heading(content: &str, today: Option<Weekday>) -> Section {
    Section {
        must: MUST_HEADING.is_match(content),
        optional: OPTIONAL.is_match(content),
        deferred: DEFERRED.is_match(content) && !said_today(content)
            || timex::days(content).any(|(d, _)| later_day(d, today)),
    }
}

static MUST_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(\bmust\b|\burgent|\basap\b|\bcritical\b|non-negotiable|\bpriorit|!!)")
});

/// A heading: a markdown `#` line, or a line that is not a list item and ends with `:`.
fn is_heading(line: &str, is_bullet: bool) -> bool {
    let t = line.trim();
    t.starts_with('#') || !is_bullet && t.ends_with(':')
}

/// Read the notes. `today` (the weekday of `current_time`) decides whether "due Fri" is
/// today's work.
pub fn extract(notes: &str, today: Option<Weekday>) -> Context {
    let mut cx = Context {
        long_block_requested: LONG_BLOCK.is_match(notes),
        ..Context::default()
    };
    let mut section = Section::default();
    for line in notes.lines() {
        let is_bullet = BULLET.is_match(line);
        let content = BULLET.replace(line, "");
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        if is_heading(line, is_bullet) {
            section = heading(content.trim_start_matches('#').trim(), today);
            continue;
        }
        if constraint_line(&mut cx, content) {
            continue;
        }
        if is_bullet {
            task(&mut cx, content, true, section, today);
        } else {
            for sentence in content.split_inclusive(['.', ';', '?']) {
                task(&mut cx, sentence, false, section, today);
            }
        }
    }
    cx.blocks.truncate(MAX_EXTRACTED);
    cx.tasks.truncate(MAX_EXTRACTED);
    overnight(&mut cx);
    cx.blocks.sort_by_key(|b| (b.start, b.end));
    cx
}

/// A window that starts in the evening and stops in the small hours ("online from
/// 11:30pm … log off by 6am") ends on the next day; blocks in its small hours too.
fn overnight(cx: &mut Context) {
    let (Some(start), Some(end)) = (cx.window_start, cx.window_end) else {
        return;
    };
    if end > start || end >= 24 * 60 {
        return;
    }
    cx.window_end = Some(end + 24 * 60);
    for b in &mut cx.blocks {
        if b.start < start && b.start < end {
            b.start += 24 * 60;
            b.end += 24 * 60;
        }
    }
}

fn said_today(s: &str) -> bool {
    timex::days(s).any(|(d, _)| d == Day::Relative(0))
}

/// A day after today: tomorrow, or a weekday that is not today's.
fn later_day(d: Day, today: Option<Weekday>) -> bool {
    match d {
        Day::Relative(n) => n > 0,
        Day::Weekday(_) => !timex::is_today(d, today),
    }
}

static DUE_WORD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:due|by|until|till|on|do|do it|deadline)\s*:?\s*$"));
static EVENT_WORD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:goes live|go live|launch(?:es)?|ships?|is|are|starts?|happens?|lands?|for|before|ahead of)\s*$",
    )
});

/// Whether a task is for a later day: a later day as its due date ("due Fri", "by
/// tomorrow") or in the task's own first clause ("call the bank tomorrow",
/// "Tomorrow: call the bank"), not a later event the work is for ("— goes live
/// tomorrow", "(launch is Friday)", "slides for Thursday's review", "prep for Friday").
fn deferred(s: &str, today: Option<Weekday>) -> bool {
    if said_today(s) {
        return false;
    }
    if DEFERRED.is_match(s) {
        return true;
    }
    let first_clause = s
        .find([',', ';', '(', '—', '–'])
        .or_else(|| s.find(" - "))
        .unwrap_or(s.len());
    timex::days(s).any(|(d, (at, end))| {
        let before = &s[..at];
        let possessive = s[end..].starts_with("'s") || s[end..].starts_with("’s");
        later_day(d, today)
            && !possessive
            && !EVENT_WORD.is_match(before)
            && (DUE_WORD.is_match(before) || at < first_clause)
    })
}

/// A task from a bullet, or from a prose sentence with a cue ("need to …"), under the
/// heading `section`.
fn task(cx: &mut Context, s: &str, bullet: bool, section: Section, today: Option<Weekday>) {
    let s = s.trim().trim_end_matches(['.', ';']);
    if s.is_empty() || OPTIONAL.is_match(s) || section.optional {
        return;
    }
    if deferred(s, today) || section.deferred && !said_today(s) {
        return;
    }
    let text = if bullet {
        s.to_string()
    } else {
        match TASK_CUE.find(s) {
            Some(m) => s[m.end()..].to_string(),
            None => return,
        }
    };
    if super::intent::tokens(&text).is_empty() {
        return;
    }
    cx.tasks.push(Task {
        must: MUST.is_match(s) || section.must,
        text,
    });
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
