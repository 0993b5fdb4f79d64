//! Notes phrasings people type to a chat model that are neither a blocked window nor a task
//! in the line rules' sense: a rule about meetings ("no meetings after 3", "can't take
//! calls before 9"), the end of the desk day ("desk till 5"), an optional appointment
//! ("gym at 6 if time"), a part of the day kept free ("keep Friday afternoon free") and a
//! preference about how to plan ("only mornings for deep work", "avoid back-to-back
//! calls"). Each is one small rule over the shared time grammar, its words a list in
//! `notes_words.toml` with examples both ways.

use std::sync::LazyLock;

use jiff::civil::Weekday;
use regex::Regex;

use super::words::words;
use super::{Block, Context, MEETING, MUST, NO_WORK, OPTIONAL, STOP, TASK_CUE, WORK, cap_end};
use crate::engine::plan::clock::{Found, Minute, find_bare_hour, find_meeting_range, find_times};
use crate::engine::plan::timex;

/// "no meetings after 3", "can't take calls before 9": group 1 is the direction.
static MEETING_RULE: LazyLock<Regex> = LazyLock::new(|| words("meeting_rule"));
/// "only mornings for deep work", "avoid back-to-back calls".
static PREFERENCE: LazyLock<Regex> = LazyLock::new(|| words("preference"));
/// "keep Friday afternoon free": group 1 is the part of the day.
static KEEP_FREE: LazyLock<Regex> = LazyLock::new(|| words("keep_free"));
/// "desk till 5": a work word, then `till` / `until`.
static UNTIL: LazyLock<Regex> = LazyLock::new(|| words("until"));
/// "deep work 9-11", "focus block 2-4pm".
static FOCUS: LazyLock<Regex> = LazyLock::new(|| words("focus"));
/// "woke at 6 again": a remark about what already happened places nothing today.
static PAST: LazyLock<Regex> = LazyLock::new(|| words("past"));
/// "clocks go back at 3am": about the clock, not the day.
static CLOCK_WORDS: LazyLock<Regex> = LazyLock::new(|| words("clock_change"));
/// A plan item that is a meeting, for the meeting rules.
static MEETING_ITEM: LazyLock<Regex> = LazyLock::new(|| words("meeting_item"));

/// The open end of an "after" meeting rule: past any night a window can run into.
const DAY_END: Minute = 48 * 60;

/// The first time at or after byte `from`: written, else a bare hour (1–6 is afternoon).
fn time_after(s: &str, from: usize) -> Option<Found> {
    find_times(s)
        .into_iter()
        .find(|t| t.at.0 >= from)
        .or_else(|| find_bare_hour(s, from))
}

/// Whether the clause is a meeting rule with a direction and a time after it ("can't take
/// calls before 10"): a timed clause of its own on a prose line, so "I can't take calls
/// before 10, and I have to be out the door by 17:45" is a rule and a stop, not one rule.
pub fn directed_rule(s: &str) -> bool {
    MEETING_RULE.captures(s).is_some_and(|c| {
        c.get(1).is_some() && time_after(s, c.get(0).expect("match").end()).is_some()
    })
}

/// "no meetings after 3" (15:00 on), "can't take calls before 9" (up to 09:00), "no calls
/// 12-1": a window with no calls or meetings. It takes no working time and is not the
/// day's start or stop; a call or meeting item inside it breaks it.
pub fn meeting_rule(cx: &mut Context, s: &str) -> bool {
    let Some(c) = MEETING_RULE.captures(s) else {
        return false;
    };
    let m = c.get(0).expect("match");
    if c.get(1).is_none() {
        // No direction: a range must follow ("no calls 12-1"), else it is not a rule.
        let range = find_times(s)
            .into_iter()
            .find(|t| t.at.0 >= m.end() && t.end.is_some())
            .or_else(|| {
                find_meeting_range(&s[m.end()..]).map(|f| Found {
                    at: (f.at.0 + m.end(), f.at.1 + m.end()),
                    ..f
                })
            });
        let Some(r) = range else {
            return false;
        };
        cx.meeting_rules.push(Block {
            label: s[m.start()..r.at.1].trim().to_string(),
            start: r.start,
            end: r.end.unwrap_or(r.start),
        });
        return true;
    }
    let Some(t) = time_after(s, m.end()) else {
        return false;
    };
    let after = c
        .get(1)
        .is_some_and(|d| matches!(d.as_str().to_ascii_lowercase().as_str(), "after" | "past"));
    let at = t.end.unwrap_or(t.start);
    let (start, end) = if after { (at, DAY_END) } else { (0, t.start) };
    cx.meeting_rules.push(Block {
        label: s[m.start()..t.at.1].trim().to_string(),
        start,
        end,
    });
    true
}

/// "desk till 5", "at my desk until 6pm": the working day ends then (not a hard stop);
/// an activity until a time is `busy_until`'s, and a stop word's line the stop rule's.
pub fn work_until(cx: &mut Context, s: &str) -> bool {
    let Some(m) = UNTIL.find(s) else {
        return false;
    };
    let before = &s[..m.start()];
    if !WORK.is_match(before)
        || MEETING.is_match(before)
        || NO_WORK.is_match(before)
        || STOP.is_match(s)
        || !find_times(before).is_empty()
    {
        return false;
    }
    let Some(t) = time_after(s, m.end()) else {
        return false;
    };
    cap_end(cx, t.end.unwrap_or(t.start), false);
    true
}

/// "deep work 9-11", "focus block 2-4pm": a focus block at a time is how to plan, not the
/// working window, a blocked window or a task.
pub fn focus_window(s: &str) -> bool {
    FOCUS.is_match(s)
        && !MEETING.is_match(s)
        && (!find_times(s).is_empty() || find_meeting_range(s).is_some())
}

/// "gym at 6 if time", "maybe lunch w/ Sam 12:30": an optional appointment blocks
/// nothing and is not a task.
pub fn optional_appointment(s: &str) -> bool {
    OPTIONAL.is_match(s) && MEETING.is_match(s) && !STOP.is_match(s)
}

/// "keep the afternoon free" (today): the day stops at noon; "keep the morning free":
/// it starts at noon; "keep the evening free": it stops at 6 PM. A later day's ("keep
/// Friday afternoon free" on a Thursday) says nothing about today.
pub fn keep_free(cx: &mut Context, s: &str, today: Option<Weekday>) -> bool {
    let Some(c) = KEEP_FREE.captures(s) else {
        return false;
    };
    let later = timex::days(s).any(|(d, _)| super::tasks::later_day(d, today));
    if later {
        return true;
    }
    match c[1].to_ascii_lowercase().as_str() {
        "morning" => cx.window_start = Some(cx.window_start.map_or(720, |w| w.max(720))),
        "afternoon" => cap_end(cx, 720, true),
        _ => cap_end(cx, 18 * 60, true),
    }
    true
}

/// "only mornings for deep work", "avoid back-to-back calls": how to plan, not a task and
/// not a constraint the time math can check.
pub fn preference(s: &str) -> bool {
    PREFERENCE.is_match(s)
}

/// At most this many words beside its time make a prose line short enough to be an
/// appointment ("plumber 3pm", "kids 3:15") rather than a remark.
const UNREAD_WORDS: usize = 4;

/// A short prose line with one written time that no rule read and that is not a task
/// ("dinner 7pm"): whether it blocks the day cannot be told, so its time is returned for
/// the time math to fail closed on.
pub fn unread_time(s: &str) -> Option<Minute> {
    let mut times = find_times(s);
    // "swim at 4": a bare hour after `at`, `@` or `~` is a time too (1–6 is afternoon).
    // "plumber coming 10-12": a bare range no rule read is reported too.
    if times.is_empty() {
        times.extend(super::clauses::at_bare_hour(s).or_else(|| find_meeting_range(s)));
    }
    let [t] = times.as_slice() else {
        return None;
    };
    if PAST.is_match(s) {
        return None;
    }
    let t = &super::jotted::part_of_day(s, *t);
    let rest = format!("{} {}", &s[..t.at.0], &s[t.at.1..]);
    let words = rest
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    (words <= UNREAD_WORDS).then_some(t.start)
}

/// A clause beside clauses the rules read ("online 21:00, off at 03:30") with a time no rule
/// placed, that is neither a deadline nor a task: its time, for the time math to fail
/// closed on, as a short line's.
pub fn unplaced_clause(clause: &str) -> Option<Block> {
    let c = clause.trim_start_matches([',', ';', '.', ' ']);
    if MUST.is_match(c) || TASK_CUE.is_match(c) || CLOCK_WORDS.is_match(c) {
        return None;
    }
    unread_time(c).map(|at| Block {
        label: c.to_string(),
        start: at,
        end: at,
    })
}

/// Whether a line names a meeting in any word the notes reader or the meeting rules know
/// ("zoom w/ Ken 2pm", "call w/ Nani 7pm").
pub fn names_meeting(s: &str) -> bool {
    MEETING.is_match(s) || MEETING_ITEM.is_match(s)
}

/// Whether a plan item's task is a call or meeting (for the meeting rules): work about one
/// ("Prep questions for Thursday's vendor demo", "Draft the sync agenda") is not.
pub fn is_meeting_item(task: &str) -> bool {
    MEETING_ITEM
        .find_iter(task)
        .any(|m| crate::engine::plan::appointment::names_the_meeting_itself(&task[..m.start()]))
}

/// The meeting rules broken by a call or meeting item from `start` to `end`.
pub fn broken_rule<'a>(
    cx: &'a Context,
    task: &str,
    start: Minute,
    end: Minute,
) -> Option<&'a Block> {
    if !is_meeting_item(task) {
        return None;
    }
    cx.meeting_rules
        .iter()
        .find(|r| start < r.end && r.start < end)
}

#[cfg(test)]
#[path = "context_rules_tests.rs"]
mod tests;
