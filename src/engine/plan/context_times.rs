//! The notes' lines about time, read clause by clause: working windows, hard stops and
//! blocked windows (meetings, appointments), every time from the shared time grammar.

use std::sync::LazyLock;

use regex::Regex;

use super::super::clock::{Found, Minute, find_bare_hour, find_bare_range, find_times};
use super::super::timex::{self, Expr, Form};
use super::{Block, Context, TASK_CUE, re};
static STOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(hard stop|cut-?off|leave (?:at|by)|leaving (?:at|by)|have to leave|need to leave|must leave|stop (?:at|by)|stop working|log(?:ging)? off|offline (?:at|from|after)|done by|out (?:at|by)|wrap up by|finish(?:ing)? (?:work|the day) (?:at|by)|end (?:my|the) day|until|(?:back|home) (?:by|at))\b",
    )
});
static ENDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:ends?|finish(?:es)?|over) (?:at|by)\b"));
static START: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(start(?:ing)? (?:at|around)|in at|begin(?:ning)? at|online (?:at|from)|from)\b")
});
static WORK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(work(?:ing)?(?: hours| day)?|available|availability|at my desk|at the desk|in the office|office(?: hours)?|free|stud(?:y|ying)|online|on shift|shift)\b",
    )
});
static MEETING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(meeting|meet|call|sync|standup|stand-up|1:1|1-on-1|one-on-one|interview|demo|lunch|appointment|appt|dentist|doctor|pickup|pick up|drop-?off|class|gym|workshop|presentation|webinar|review session|check-in|huddle|training|session|dinner|breakfast|brunch|study group|group)\b",
    )
});
/// A line about time, read clause by clause (split at `,`, `;`, `. `, ` but `, ` then `):
/// "studying 9am-9pm, lunch 1-2" is a working window and a blocked window. Returns
/// whether any clause was about time.
pub(super) fn constraint_line(cx: &mut Context, line: &str) -> bool {
    let mut any = false;
    let mut label_before = "";
    for (from, to) in clauses(line) {
        let clause = &line[from..to];
        // A duration for a time in this clause may follow in the next one ("at 11am, 45 min").
        // "dinner with family 7pm" after "lunch 1-2pm,": a time on a meeting line is a
        // meeting unless its own clause is about work.
        let meeting = MEETING.is_match(clause) || MEETING.is_match(line) && !WORK.is_match(clause);
        if constraint_clause(cx, clause, meeting, &line[to..], label_before) {
            any = true;
        }
        if !clause.trim().is_empty() {
            label_before = clause;
        }
    }
    any
}

static CLAUSE_BREAK: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)[,;]\s*|\.\s+|\s+(?:but|then)\s+"));

/// The byte ranges of `line`'s clauses.
fn clauses(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    for m in CLAUSE_BREAK.find_iter(line) {
        // "9 a.m. standup": the dot of a.m. does not end a clause.
        let word_before = line[..m.start()].rsplit(' ').next().unwrap_or("");
        if m.as_str().starts_with('.') && word_before.len() <= 3 && word_before.contains('.') {
            continue;
        }
        out.push((from, m.start()));
        from = m.end();
    }
    out.push((from, line.len()));
    out
}

/// The bare times a meeting clause makes times: "1:1 with Dana at 11" (after `at`/`@`),
/// "lunch 1-2" (a range); 1–6 is afternoon.
fn meeting_bare_times(s: &str) -> Vec<Found> {
    timex::scan(s)
        .into_iter()
        .filter_map(|t| match t.expr {
            Expr::Range(a, b) => {
                let sp = timex::span(a, b);
                let ok = sp.bare && sp.end - sp.start <= 6 * 60 && !counts_things(&s[t.at.1..]);
                ok.then_some(Found {
                    start: sp.start,
                    end: Some(sp.end),
                    at: t.at,
                })
            }
            Expr::Clock(c) if c.form == Form::Bare && AT_WORD.is_match(&s[..t.at.0]) => {
                Some(Found {
                    start: c.minute(),
                    end: None,
                    at: t.at,
                })
            }
            _ => None,
        })
        .collect()
}

/// "2-3 interviews": a range followed by a noun counts things, it is not a time.
fn counts_things(after: &str) -> bool {
    let next = after
        .trim_start()
        .split(|c: char| !c.is_alphanumeric() && c != '/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    !next.is_empty()
        && !matches!(
            next.as_str(),
            "with" | "w/" | "w" | "for" | "at" | "in" | "on" | "and" | "today" | "tonight"
        )
}

static AT_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:\bat|@)\s*$"));

/// One clause of a line about time, `meeting` when it names one. `rest` is the line
/// after it (for a duration);
/// `label_before` the clause before it (a label for a time standing alone).
fn constraint_clause(
    cx: &mut Context,
    s: &str,
    meeting: bool,
    rest: &str,
    label_before: &str,
) -> bool {
    let mut times = find_times(s);
    let work = WORK.is_match(s) && !meeting;
    if times.is_empty()
        && work
        && let Some(b) = find_bare_range(s)
    {
        times.push(b);
    }
    if times.is_empty() && meeting {
        times = meeting_bare_times(s);
    }
    // "hard stop at 4": a bare hour after the stop words is a time (1–6 is afternoon).
    // "shift ends at 6am": the end of the user's own day, not of a meeting.
    let stop_at = STOP.find(s).or_else(|| ENDS.find(s).filter(|_| !meeting));
    if let Some(stop) = stop_at
        && !times.iter().any(|t| t.at.0 >= stop.end())
        && let Some(h) = find_bare_hour(s, stop.end())
    {
        times.push(h);
        times.sort_by_key(|t| t.at.0);
    }
    if times.is_empty() {
        return false;
    }
    if let Some(stop) = stop_at {
        // "hard stop at 3 PM": the first time after the words (else the last one).
        let t = times
            .iter()
            .find(|t| t.at.0 >= stop.end())
            .or(times.last())
            .copied()
            .expect("non-empty");
        cap_end(cx, t.end.unwrap_or(t.start), true);
        // "study from 8am until 8pm": the start before the stop words.
        if t.end.is_some() {
            cx.window_start = Some(t.start);
        } else if START.is_match(&s[..stop.start()])
            && let Some(first) = times.iter().find(|t| t.at.1 <= stop.start())
        {
            cx.window_start = Some(first.start);
        }
        return true;
    }
    let first = times[0];
    if work {
        if let Some(end) = first.end {
            cx.window_start = Some(cx.window_start.map_or(first.start, |s| s.max(first.start)));
            cap_end(cx, end, false);
            return true;
        }
        if START.is_match(s) {
            cx.window_start = Some(first.start);
            return true;
        }
    }
    if !meeting && first.end.is_none() {
        if START.is_match(s) && !TASK_CUE.is_match(s) {
            cx.window_start = Some(first.start);
            return true;
        }
        // "report due at 2 PM": a task with a deadline, not a block.
        return false;
    }
    for t in times {
        let end = t
            .end
            .unwrap_or_else(|| t.start + duration_after(&s[t.at.1..], rest).unwrap_or(30));
        let mut label = label_of(s, t);
        if label.is_empty() {
            label = clean_label(label_before);
        }
        cx.blocks.push(Block {
            label,
            start: t.start,
            end,
        });
    }
    true
}

fn cap_end(cx: &mut Context, end: Minute, hard: bool) {
    match cx.window_end {
        Some(e) if e < end => {}
        Some(e) if e == end => cx.hard_stop |= hard,
        _ => {
            cx.window_end = Some(end);
            cx.hard_stop = hard;
        }
    }
}

/// The duration of a time ("at 11am (45 min)", "at 2:30 for an hour", "at 11am, 45
/// min"): the first duration after it in its clause, else in the rest of the line before
/// another time.
fn duration_after(after: &str, rest: &str) -> Option<Minute> {
    let first = |s: &str| {
        timex::scan(s)
            .into_iter()
            .take_while(|t| !matches!(t.expr, Expr::Clock(_) | Expr::Range(..)))
            .find_map(|t| match t.expr {
                Expr::Duration(m) => Some(m.round().max(0.0) as Minute),
                _ => None,
            })
    };
    first(after).or_else(|| first(rest))
}

fn clean_label(x: &str) -> String {
    let words: Vec<&str> = x
        .split_whitespace()
        .filter(|w| {
            !matches!(
                w.to_ascii_lowercase().as_str(),
                "at" | "from" | "-" | "–" | "—" | "@"
            )
        })
        .collect();
    words
        .join(" ")
        .trim_matches([',', ';', '.', ':', ' ', '-', '–', '—', '(', ')'])
        .to_string()
}

/// The block's name: the words before its time in the same clause ("Lunch with Priya
/// 12-1pm"), else the words after it.
fn label_of(s: &str, t: Found) -> String {
    let label = clean_label(&s[..t.at.0]);
    if !label.is_empty() {
        return label;
    }
    let after = &s[t.at.1..];
    clean_label(after.split(['.', ';', ',', '(']).next().unwrap_or(""))
}
