//! The tasks in the user's notes: list items and prose sentences with a cue, which are
//! today's (not a later day's, not optional) and which must be done today (a must word,
//! a must heading, a deadline today).

use std::sync::LazyLock;

use jiff::civil::Weekday;
use regex::Regex;

use super::timex::{self, Day};
use super::words::words;
use super::{Context, DEFERRED, MUST, OPTIONAL, STOP, TASK_CUE, Task, jotted};
use crate::engine::plan::clock::find_times;

/// What a heading line ("Must do today:", "## Tomorrow", "Maybe, if time:") says about
/// the tasks listed under it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Section {
    must: bool,
    optional: bool,
    deferred: bool,
}

pub(super) fn heading(content: &str, today: Option<Weekday>) -> Section {
    Section {
        must: MUST_HEADING.is_match(content),
        optional: OPTIONAL.is_match(content),
        deferred: DEFERRED.is_match(content) && !said_today(content)
            || timex::days(content).any(|(d, _)| later_day(d, today)),
    }
}

/// "can't before 2": a limit on when a task may start, not a deadline.
static NOT_A_DEADLINE: LazyLock<Regex> = LazyLock::new(|| words("not_a_deadline"));
static MUST_HEADING: LazyLock<Regex> = LazyLock::new(|| words("must_heading"));

/// A heading: a markdown `#` line, or a line that is not a list item and ends with `:`.
pub(super) fn is_heading(line: &str, is_bullet: bool) -> bool {
    let t = line.trim();
    t.starts_with('#') || !is_bullet && t.ends_with(':')
}

/// Whether `s` says today ("today", "tonight"), not "not today" / "not tonight".
fn said_today(s: &str) -> bool {
    timex::days(s).any(|(d, (at, _))| d == Day::Relative(0) && !NOT_DAY.is_match(&s[..at]))
}

/// "so not today", "due Monday, not tonight": the day is denied, not said.
static NOT_DAY: LazyLock<Regex> = LazyLock::new(|| words("not_day"));

/// A day after today: tomorrow, or a weekday that is not today's.
pub(super) fn later_day(d: Day, today: Option<Weekday>) -> bool {
    match d {
        Day::Relative(n) => n > 0,
        Day::Weekday(_) => !timex::is_today(d, today),
    }
}

/// Whether every clock time of `s` (at least one) is written beside a later day ("due
/// tomorrow 9am", "the field trip from 7:30 tomorrow", "Fri 3pm" on a Thursday): the clause
/// places nothing today, neither a block nor the day's start. A stop is left to the stop
/// rules ("off at 6am sun" ends a night), and so is a time before 06:00 tomorrow, which
/// may be the small hours of tonight's work ("check-in 5am tomorrow").
pub(super) fn later_day_times(s: &str, today: Option<Weekday>) -> bool {
    if STOP.is_match(s) {
        return false;
    }
    let tomorrow = |d: Day| match d {
        Day::Relative(n) => n == 1,
        Day::Weekday(w) => today.is_some_and(|t| t.next() == w),
    };
    let later: Vec<(Day, (usize, usize))> = timex::days(s)
        .filter(|(d, _)| later_day(*d, today) && (today.is_some() || matches!(d, Day::Relative(_))))
        .collect();
    let beside = |a: usize, b: usize| {
        a <= b
            && s[a..b]
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | '@'))
                .all(|w| {
                    matches!(
                        w.to_ascii_lowercase().as_str(),
                        "" | "at" | "from" | "by" | "on"
                    )
                })
    };
    let times = find_times(s);
    !times.is_empty()
        && times.iter().all(|t| {
            later.iter().any(|(d, at)| {
                (beside(at.1, t.at.0) || beside(t.at.1, at.0))
                    && !(tomorrow(*d) && t.start < 6 * 60)
            })
        })
}

pub(super) static DUE_WORD: LazyLock<Regex> = LazyLock::new(|| words("due_word"));
static EVENT_WORD: LazyLock<Regex> = LazyLock::new(|| words("event_word"));

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
            && (DUE_WORD.is_match(before) || jotted::day_remark(before) || at < first_clause)
    })
}

/// A bullet's task before the reason or remark that follows a dash or a parenthesis
/// ("Finish the incident report — goes live tomorrow, must be done"), when that part has
/// words of its own; the whole line still decides whether the task is a must-do.
fn intent_part(s: &str) -> &str {
    let cut = [" — ", " – ", " - ", " ("]
        .iter()
        .filter_map(|sep| s.find(sep))
        .min();
    match cut {
        Some(i) if !super::super::intent::tokens(&s[..i]).is_empty() => s[..i].trim(),
        _ => s,
    }
}

/// A task from a bullet, or from a prose sentence with a cue ("need to …"), under the
/// heading `section`.
pub(super) fn task(
    cx: &mut Context,
    s: &str,
    bullet: bool,
    section: Section,
    today: Option<Weekday>,
) {
    let s = s.trim().trim_end_matches(['.', ';']);
    if s.is_empty() || OPTIONAL.is_match(s) || section.optional {
        return;
    }
    if deferred(s, today) || section.deferred && !said_today(s) {
        return;
    }
    if bullet {
        push(cx, s, intent_part(s), section, today);
        return;
    }
    for (whole, text) in prose_tasks(s) {
        push(cx, whole, text, section, today);
    }
}

/// One task: `text` its words, `whole` the words that decide whether it is a must-do.
fn push(cx: &mut Context, whole: &str, text: &str, section: Section, today: Option<Weekday>) {
    if super::super::intent::tokens(text).is_empty() {
        return;
    }
    cx.tasks.push(Task {
        must: MUST.is_match(&NOT_A_DEADLINE.replace_all(whole, " "))
            || section.must
            || jotted::due_today(whole, today),
        text: text.to_string(),
    });
}

/// A clause boundary a prose task may open after: a semicolon, or a comma or dash and
/// joining words ("and", "but", "then", "I").
static OPENS_CLAUSE: LazyLock<Regex> = LazyLock::new(|| words("opens_clause"));

/// The tasks of a prose sentence with a cue, each as (the words that decide whether it
/// is a must-do, its own words): a clause that opens with a cue after a clause boundary
/// is a task of its own ("I should review the Q3 budget numbers, and I need to call the
/// accountant" is two), and a task's words end where a remark of its own clause starts
/// (`remark_cut`).
fn prose_tasks(s: &str) -> Vec<(&str, &str)> {
    let cues: Vec<regex::Match> = TASK_CUE.find_iter(s).collect();
    let Some(first) = cues.first() else {
        return Vec::new();
    };
    // The cues that open a clause of their own (the first always opens the task).
    let mut opens: Vec<(usize, usize)> = vec![(0, first.end())];
    for m in &cues[1..] {
        let before = &s[opens.last().map_or(0, |o| o.1)..m.start()];
        if let Some(b) = OPENS_CLAUSE.find(before) {
            let at = opens.last().map_or(0, |o| o.1) + b.start();
            opens.push((at, m.end()));
        }
    }
    opens
        .iter()
        .enumerate()
        .map(|(i, &(from, cue_end))| {
            let to = opens.get(i + 1).map_or(s.len(), |o| o.0);
            let whole = if opens.len() == 1 { s } else { &s[from..to] };
            (whole, remark_cut(s[cue_end..to].trim()))
        })
        .collect()
}

/// A prose task's words before a remark of its own after a comma ("send the Ferraz
/// proposal today, no matter what, Beatriz is waiting on it" is "send the Ferraz proposal
/// today"), as a bullet's stop at its dash; a list after the comma ("email Dana, Sam and
/// Lee", "buy milk, eggs or bread") stays in the task.
fn remark_cut(s: &str) -> &str {
    let Some(i) = s.find(", ") else {
        return s;
    };
    let rest = &s[i + 2..];
    let segment = rest.split([',', ';']).next().unwrap_or(rest);
    let list = segment.split_whitespace().count() <= 4
        && segment
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case("and") || w.eq_ignore_ascii_case("or"));
    if list || super::super::intent::tokens(&s[..i]).is_empty() {
        s
    } else {
        s[..i].trim()
    }
}
