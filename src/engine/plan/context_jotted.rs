//! Notes as a busy person jots them: the half of the day an event's hour is in ("family
//! dinner at 7" is 19:00, "breakfast at 6" 06:00), being at work from a time ("online
//! 21:00", "in 8:30"), a deadline on today's weekday ("due Thu" on a Thursday is due
//! today) and a later day written as the remark after a dash ("reply to the auditors —
//! tomorrow morning": when it is done). Each is one small rule over the shared time
//! grammar, its words a list in `notes_words.toml` with examples both ways.

use std::sync::LazyLock;

use jiff::civil::Weekday;
use regex::Regex;

use super::tasks::DUE_WORD;
use super::words::words;
use super::{Context, MEETING, STOP, cap_end};
use crate::engine::plan::clock::Found;
use crate::engine::plan::timex::{self, Expr, Form, Minute};

/// "dinner", "drinks", "tonight": an hour from 5 to 11 without am/pm is in the evening.
static EVENING: LazyLock<Regex> = LazyLock::new(|| words("evening"));
/// "breakfast", "this morning": an hour from 1 to 6 without am/pm is in the morning.
static MORNING: LazyLock<Regex> = LazyLock::new(|| words("morning"));
/// "online", "in", "desk" alone before a single time: the day starts then.
static PRESENCE: LazyLock<Regex> = LazyLock::new(|| words("presence"));
/// "gotta bounce at", "out from", "flight at" just before a time: leaving then.
static DEPARTURE: LazyLock<Regex> = LazyLock::new(|| words("departure"));
/// "flight cancelled", "no longer leaving at 3": called off, it places nothing.
static CANCELLED: LazyLock<Regex> = LazyLock::new(|| words("cancelled"));
/// "rebook the cancelled flight": a task about a cancelled thing.
static CANCELLED_THING: LazyLock<Regex> = LazyLock::new(|| words("cancelled_thing"));
/// A later day right after a dash, parenthesis or comma: when the task is done.
static DAY_REMARK: LazyLock<Regex> = LazyLock::new(|| words("day_remark"));
/// Where a part after a line's times opens: a comma, semicolon, dash or `then`.
static PART_OPENS: LazyLock<Regex> = LazyLock::new(|| words("part_opens"));

/// Words that may follow the start time and add nothing ("in 8:30 sharp").
const START_TRAIL: &[&str] = &[
    "sharp", "ish", "latest", "earliest", "today", "tonight", "or", "so", "am", "pm",
];

/// Whether the expression at `at` in `s` is a clock or range written without am/pm and
/// not as a 24-hour time (`7`, `7:30`, `6-7`): its half of the day is a reading.
fn half_day_open(s: &str, at: (usize, usize)) -> bool {
    let open = |c: timex::Clock| c.meridiem.is_none() && matches!(c.form, Form::Bare | Form::Colon);
    timex::scan(s).iter().any(|t| {
        t.at == at
            && match t.expr {
                Expr::Clock(c) => open(c),
                Expr::Range(a, b) => open(a) && open(b),
                _ => false,
            }
    })
}

/// The time `t` of clause `s` in the half of the day its event is in: "family dinner at 7"
/// and "drinks 6:30" are in the evening, "breakfast at 6" in the morning. A time with
/// am/pm or written as 24-hour is kept as written, and so is one the event leaves open.
pub fn part_of_day(s: &str, t: Found) -> Found {
    const HALF: Minute = 12 * 60;
    if !half_day_open(s, t.at) {
        return t;
    }
    let end = t.end.unwrap_or(t.start);
    // "6am bulletin: I'm reading it live 6:00-6:10": the same hour written with am/pm on
    // the line gives this one its half of the day.
    let hour = t.start / 60 % 24;
    let written = timex::scan(s).into_iter().find_map(|x| match x.expr {
        Expr::Clock(c) if c.meridiem.is_some() && x.at != t.at => Some(c.minute() / 60),
        _ => None,
    });
    match written {
        Some(h) if h + 12 == hour => {
            return Found {
                start: t.start - HALF,
                end: t.end.map(|e| e.saturating_sub(HALF).max(t.start - HALF)),
                ..t
            };
        }
        Some(h) if hour + 12 == h => {
            return Found {
                start: t.start + HALF,
                end: t.end.map(|e| e + HALF),
                ..t
            };
        }
        _ => {}
    }
    let s = own_stretch(s, t.at);
    if EVENING.is_match(s) && (5 * 60..HALF).contains(&t.start) && end <= HALF {
        return Found {
            start: t.start + HALF,
            end: t.end.map(|e| e + HALF),
            ..t
        };
    }
    if MORNING.is_match(s) && (13 * 60..19 * 60).contains(&t.start) && !EVENING.is_match(s) {
        return Found {
            start: t.start - HALF,
            end: t.end.map(|e| e.saturating_sub(HALF).max(t.start - HALF)),
            ..t
        };
    }
    t
}

/// The stretch of `s` that speaks of the time at `at`: from the end of the clock time
/// before it to the start of the clock time after it. "in from 9:30 and out by 5:15
/// because of the recital tonight": the evening word is the 5:15's remark, not the 9:30's.
fn own_stretch(s: &str, at: (usize, usize)) -> &str {
    let clocks: Vec<(usize, usize)> = timex::scan(s)
        .into_iter()
        .filter(|t| matches!(t.expr, Expr::Clock(_) | Expr::Range(..)) && t.at != at)
        .map(|t| t.at)
        .collect();
    let from = clocks
        .iter()
        .filter(|c| c.1 <= at.0)
        .map(|c| c.1)
        .max()
        .unwrap_or(0);
    let to = clocks
        .iter()
        .filter(|c| c.0 >= at.1)
        .map(|c| c.0)
        .min()
        .unwrap_or(s.len());
    &s[from..to]
}

/// "online 21:00", "in 8:30", "desk 9", "I'm in by 8": a word of being at work alone
/// before one time starts the day then (as "start at 8:30" does). Returns whether it
/// applied.
pub fn presence_start(cx: &mut Context, s: &str) -> bool {
    if STOP.is_match(s) || MEETING.is_match(s) {
        return false;
    }
    let Some(first) = timex::scan(s)
        .into_iter()
        .find(|t| matches!(t.expr, Expr::Clock(_) | Expr::Range(..)))
    else {
        return false;
    };
    let Expr::Clock(c) = first.expr else {
        return false;
    };
    let rest_is_trail = s[first.at.1..]
        .split(|ch: char| !ch.is_alphabetic())
        .filter(|w| !w.is_empty())
        .all(|w| START_TRAIL.contains(&w.to_ascii_lowercase().as_str()));
    if !PRESENCE.is_match(&s[..first.at.0]) || !rest_is_trail {
        return false;
    }
    let at = part_of_day(
        s,
        Found {
            start: c.minute(),
            end: None,
            at: first.at,
        },
    );
    cx.window_start = Some(at.start);
    true
}

/// "gotta bounce at 1pm", "out from 1pm (flight)", "flight at 1pm": leaving at a single
/// time ends the working day then, as a hard stop ("done at 4" does the same). A range
/// after the words ("out from 12-1pm") is an absence and left to the other rules.
/// Returns whether it applied.
pub fn departure(cx: &mut Context, s: &str) -> bool {
    let Some(t) = timex::scan(s).into_iter().find(|t| {
        matches!(t.expr, Expr::Clock(_) | Expr::Range(..)) && DEPARTURE.is_match(&s[..t.at.0])
    }) else {
        return false;
    };
    let Expr::Clock(c) = t.expr else {
        return false;
    };
    let at = part_of_day(
        s,
        Found {
            start: c.minute(),
            end: None,
            at: t.at,
        },
    );
    cap_end(cx, at.start, true);
    true
}

/// "flight cancelled", "no longer leaving at 3", "the 2pm call is cancelled": a departure
/// or appointment called off places nothing today (not the end of the day, not a block)
/// and is not a task; "rebook the cancelled flight" stays a task. Returns whether it
/// applied.
pub fn cancelled(s: &str) -> bool {
    CANCELLED.is_match(s) && !CANCELLED_THING.is_match(s)
}

/// Whether a word of being at work stands alone before the clause's first time ("start
/// 9", "online 21:00"): the clause gives a time.
pub fn presence_time(s: &str) -> bool {
    timex::scan(s)
        .into_iter()
        .find(|t| matches!(t.expr, Expr::Clock(_) | Expr::Range(..)))
        .is_some_and(|t| PRESENCE.is_match(&s[..t.at.0]))
}

/// "send invoices to Brightwater — due Thu" on a Thursday: a deadline on today's weekday
/// is due today, a must-do.
pub fn due_today(s: &str, today: Option<Weekday>) -> bool {
    timex::days(s).any(|(d, (at, _))| timex::is_today(d, today) && DUE_WORD.is_match(&s[..at]))
}

/// Whether the text before a later day ends with a dash, parenthesis or comma: the day
/// is the remark's, when the task is done ("— tomorrow morning").
pub fn day_remark(before: &str) -> bool {
    DAY_REMARK.is_match(before)
}

/// The line up to where a part with no time of its own opens after its last time
/// ("desk 09:30 → 18:00 today, then dinner" → "desk 09:30 → 18:00 today"): what it says
/// comes after the window, not in it. The whole line when there is no such part.
pub fn before_after_event(s: &str) -> &str {
    let Some(last) = timex::scan(s)
        .into_iter()
        .filter(|t| matches!(t.expr, timex::Expr::Clock(_) | timex::Expr::Range(..)))
        .map(|t| t.at.1)
        .max()
    else {
        return s;
    };
    match PART_OPENS.find(&s[last..]) {
        Some(m) => &s[..last + m.start()],
        None => s,
    }
}

#[cfg(test)]
#[path = "context_jotted_tests.rs"]
mod tests;
