//! Notes written as prose put several constraints on one line ("in court until 11, then
//! calls; must leave by 5:30 for pickup, can't do anything after 9pm"). Such a line is cut
//! into clauses, each read by the whole-line rules; a line with fewer than two clauses
//! that carry a time is read whole, as before. Also here: the rules for prose phrasings
//! of the day's shape (`not before 10`, `free after the 2pm standup`, `back at 10:15`,
//! `in court until 11`, two working windows on one line, a clock change).

use std::sync::LazyLock;

use regex::Regex;

use super::{Block, Context, MEETING, NO_WORK, STOP, WORK, cap_end, duration, label_of, re};
use crate::engine::plan::clock::{
    Found, Minute, find_bare_hour, find_bare_range, find_ranges, find_times,
};
use crate::engine::plan::timex;

/// "not before 10", "no earlier than 9:30": the day starts then.
static NOT_BEFORE: LazyLock<Regex> = LazyLock::new(|| super::words::words("not_before"));
/// "Run the payroll export (": a limit in a task's remark is the task's.
static TASK_LIMIT: LazyLock<Regex> = LazyLock::new(|| super::words::words("task_limit"));
/// "back at 10:15": the end of an absence, not a stop ("home by 4" stays a stop).
static BACK: LazyLock<Regex> = LazyLock::new(|| super::words::words("back"));
/// "free after the 2pm standup", "available after 1pm".
static AFTER: LazyLock<Regex> = LazyLock::new(|| super::words::words("after"));
/// "in court until 11", "busy till 10": an activity until a time.
static UNTIL: LazyLock<Regex> = LazyLock::new(|| super::words::words("until"));
/// "clocks go back an hour at 3am": about the clock, not about the day.
static CLOCK_CHANGE: LazyLock<Regex> = LazyLock::new(|| super::words::words("clock_change"));
/// A clause boundary: `;`, a comma or a sentence's full stop before a space, or `then`.
static BOUNDARY: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(;\s*|,\s+|\.\s+|\s+(?:and )?then\s+)"));
/// Nothing, or the person a meeting is with ("w/ boss", "with Dr. Lim"), between a
/// meeting word and its bare hour.
static WITH_WHOM: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^\s*(?:(?:w/|with)\s*(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?[a-z]+(?:\s+[a-z]+)?\s*)?$")
});
/// A parenthesised remark.
static PARENS: LazyLock<Regex> = LazyLock::new(|| re(r"\([^()]*\)"));
/// Words before a full stop that do not end a sentence ("Dr. Chen at 3pm").
static ABBREV: LazyLock<Regex> = LazyLock::new(|| super::words::words("abbrev"));
/// Words a clause may have beside its times and still not say anything of its own.
static FILLER: LazyLock<Regex> = LazyLock::new(|| super::words::words("filler"));
/// "at", "@", "~" just before a bare hour: a meeting's time ("call with Dr. Lim at 11").
static AT_HOUR: LazyLock<Regex> = LazyLock::new(|| super::words::words("at_hour"));

/// A meeting's bare hour ("quick call with Dr. Lim at 11", "lunch @ 1"): the first bare
/// hour written after `at`, `@` or `~` in a clause that names a meeting (1–6 is afternoon).
pub fn meeting_hour(s: &str) -> Option<Found> {
    if !MEETING.is_match(s) {
        return None;
    }
    let mut from = 0;
    while let Some(h) = find_bare_hour(s, from) {
        // "standup 9", "1:1 w/ boss 10": right after the meeting word or the person it is
        // with, and nothing but punctuation after it.
        let right_after = MEETING
            .find_iter(&s[..h.at.0])
            .any(|m| WITH_WHOM.is_match(&s[m.end()..h.at.0]))
            && !s[h.at.1..].contains(char::is_alphanumeric);
        if AT_HOUR.is_match(&s[..h.at.0]) || right_after {
            return Some(h);
        }
        from = h.at.1;
    }
    None
}

/// "swim at 4", "kids ~3": the first bare hour written after `at`, `@` or `~`.
pub fn at_bare_hour(s: &str) -> Option<Found> {
    let mut from = 0;
    while let Some(h) = find_bare_hour(s, from) {
        if AT_HOUR.is_match(&s[..h.at.0]) {
            return Some(h);
        }
        from = h.at.1;
    }
    None
}

/// Whether the clause gives a time the notes rules read: a written time, a bare hour after
/// a stop, start or return word, or a bare range beside a work or meeting word.
fn timed(s: &str) -> bool {
    let bare_after = |r: &Regex| {
        r.find(s)
            .is_some_and(|m| find_bare_hour(s, m.end()).is_some())
    };
    !find_times(s).is_empty()
        || return_at(s).is_some_and(|m| find_bare_hour(s, m.end()).is_some())
        || [&*STOP, &*NOT_BEFORE, &*UNTIL].into_iter().any(bare_after)
        || (WORK.is_match(s) || MEETING.is_match(s)) && find_bare_range(s).is_some()
        || meeting_hour(s).is_some()
        || super::jotted::presence_time(s)
        || super::rules::directed_rule(s)
}

/// Whether the clause has words of its own beside its times ("12-1pm" alone has none).
fn has_words(s: &str) -> bool {
    let mut rest = s.to_string();
    for t in timex::scan(s).iter().rev() {
        rest.replace_range(t.at.0..t.at.1, " ");
    }
    rest.split(|c: char| !c.is_alphanumeric() && c != '.' && c != '&')
        .map(|w| w.trim_end_matches('.'))
        .any(|w| w.chars().any(char::is_alphabetic) && !FILLER.is_match(w))
}

/// "back at 10:15" (not "call back at 3"): a return, `None` when there is none.
fn return_at(s: &str) -> Option<regex::Match<'_>> {
    BACK.captures(s)
        .filter(|c| c.get(1).is_none())
        .and_then(|c| c.get(0))
}

/// A clause that opens with a return belongs to the absence before it.
fn returns(part: &str) -> bool {
    let p = part.trim_start_matches([',', ';', '.', ' ']);
    return_at(p).is_some_and(|m| m.start() == 0)
}

/// The clauses of a line, as byte ranges. A clause without a time, one with no words of its
/// own, and a return ("…, back at 10:15") belong to the clause before them; a line with
/// fewer than two timed clauses is one clause.
pub fn clauses(line: &str) -> Vec<(usize, usize)> {
    let mut cuts = vec![0];
    for m in BOUNDARY.find_iter(line) {
        if m.as_str().starts_with('.') && ABBREV.is_match(&line[..m.start()]) {
            continue;
        }
        cuts.push(m.start());
    }
    cuts.push(line.len());
    let mut out: Vec<(usize, usize)> = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let part = &line[a..b];
        let joins = !timed(part) || !has_words(part) || returns(part);
        match out.last_mut() {
            Some(last) if joins => last.1 = b,
            _ => out.push((a, b)),
        }
    }
    if out.iter().filter(|(a, b)| timed(&line[*a..*b])).count() < 2 {
        return vec![(0, line.len())];
    }
    out
}

/// The prose rules of one clause; returns whether one applied.
pub fn prose_rule(cx: &mut Context, s: &str) -> bool {
    if CLOCK_CHANGE.is_match(s) {
        return true;
    }
    not_before(cx, s) || windows(cx, s) || back(cx, s) || busy_until(cx, s) || free_after(cx, s)
}

/// The first time at or after byte `from`: written, else a bare hour.
fn time_after(s: &str, from: usize) -> Option<Found> {
    find_times(s)
        .into_iter()
        .find(|t| t.at.0 >= from)
        .or_else(|| find_bare_hour(s, from))
}

/// "not before 10": the day starts at 10 (a later start wins). A limit in a task's remark
/// ("Run the payroll export (can't start before 13:30, …)") is when that task may start,
/// not the day's start: the line is left to the task rules.
fn not_before(cx: &mut Context, s: &str) -> bool {
    let Some(m) = NOT_BEFORE.find(s) else {
        return false;
    };
    if TASK_LIMIT.is_match(&s[..m.start()]) {
        return false;
    }
    let Some(t) = time_after(s, m.end()) else {
        return false;
    };
    cx.window_start = Some(cx.window_start.map_or(t.start, |w| w.max(t.start)));
    true
}

/// "available 8-12 and again 14:00-18:00": two working windows are one day from the first
/// start to the last end, with the time between them blocked.
fn windows(cx: &mut Context, s: &str) -> bool {
    // A remark in parentheses ("(recital in between)") is not what the line is about.
    let outside = PARENS.replace_all(s, " ");
    if !WORK.is_match(s) || MEETING.is_match(&outside) || NO_WORK.is_match(s) {
        return false;
    }
    let mut spans: Vec<(Minute, Minute)> = find_ranges(s)
        .iter()
        .filter_map(|f| Some((f.start, f.end?)))
        .collect();
    if spans.len() < 2 {
        return false;
    }
    spans.sort();
    let (first, last) = (spans[0].0, spans.iter().map(|s| s.1).max().unwrap_or(0));
    cx.window_start = Some(cx.window_start.map_or(first, |w| w.max(first)));
    cap_end(cx, last, false);
    let mut covered = spans[0].1;
    for &(a, b) in &spans[1..] {
        if a > covered {
            cx.blocks.push(Block {
                label: "between the working windows".into(),
                start: covered,
                end: a,
            });
        }
        covered = covered.max(b);
    }
    true
}

/// "dentist at 9am, back at 10:15": the absence runs from the time before to the return;
/// "back at 3" alone is away from the start of the day until 3.
fn back(cx: &mut Context, s: &str) -> bool {
    let Some(m) = return_at(s) else {
        return false;
    };
    let Some(until) = time_after(s, m.end()) else {
        return false;
    };
    let before = &s[..m.start()];
    let from = find_times(before)
        .first()
        .copied()
        .or_else(|| find_bare_hour(before, 0));
    let label = match from {
        Some(f) => label_of(s, f),
        None => label_of(s, until),
    };
    let start = from.map_or(0, |f| f.start);
    if until.start > start {
        cx.blocks.push(Block {
            label,
            start,
            end: until.start,
        });
    }
    true
}

/// "in court until 11", "busy till 10": an activity (a meeting or busy word, no work word)
/// until a time blocks the day up to it; it is not the stop.
fn busy_until(cx: &mut Context, s: &str) -> bool {
    let Some(m) = UNTIL.find(s) else {
        return false;
    };
    let before = &s[..m.start()];
    let busy = (MEETING.is_match(before) || NO_WORK.is_match(before)) && !WORK.is_match(before);
    if !busy || !find_times(before).is_empty() {
        return false;
    }
    let Some(t) = time_after(s, m.end()) else {
        return false;
    };
    cx.blocks.push(Block {
        label: label_of(s, t),
        start: 0,
        end: t.start,
    });
    true
}

/// "free after the 2pm standup": the meeting is blocked (30 minutes when no length is
/// given) and the day starts when it ends; "available after 1pm" starts the day at 1 PM.
fn free_after(cx: &mut Context, s: &str) -> bool {
    let Some(m) = AFTER.find(s) else {
        return false;
    };
    if !WORK.is_match(&s[..m.start()]) || NO_WORK.is_match(s) || STOP.is_match(s) {
        return false;
    }
    let Some(t) = time_after(s, m.end()) else {
        return false;
    };
    let mut start = t.end.unwrap_or(t.start);
    if MEETING.is_match(&s[m.end()..]) {
        let end = t.end.unwrap_or_else(|| t.start + duration(s).unwrap_or(30));
        cx.blocks.push(Block {
            label: label_of(s, t),
            start: t.start,
            end,
        });
        start = end;
    }
    cx.window_start = Some(cx.window_start.map_or(start, |w| w.max(start)));
    true
}
