//! One plan item as written on a line, a heading, a list item or a table cell:
//! its time (a leading range or start, or a trailing range), its timebox (a duration, or
//! the range's length) and its task and why. Every time and duration is read by the time
//! grammar (`timex`); nothing here is a pattern of its own.

use super::super::clock::Found;
use super::super::timex::{self, Expr, Token};

/// What one line says about an item (offsets relative to the line).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Reading {
    /// A leading range or start time, or a range at the end.
    pub time: Option<Found>,
    /// The line starts (after its decorations) with a time.
    pub leading: bool,
    /// The timebox in minutes, and its raw text when it is not a whole number.
    pub minutes: Option<Result<i64, String>>,
    /// The timebox is set apart: a duration in parentheses or brackets ("(~45 min)"), or
    /// alone at the end of the line after a dash or colon ("— 1 hr 15").
    pub boxed: bool,
    /// The timebox is a duration written on the line, not read off its range.
    pub stated: bool,
    pub task: String,
    pub why: String,
}

impl Reading {
    /// The line carries a time or a duration.
    pub fn timed(&self) -> bool {
        self.time.is_some() || self.minutes.is_some()
    }
}

/// Characters that decorate the start of a line: markup, bullets, emoji, check boxes.
fn decoration(c: char) -> bool {
    matches!(
        c,
        '*' | '_' | '#' | '>' | '•' | '·' | '▪' | '◦' | '‣' | '-' | '+' | '|' | '[' | ']' | '`'
    ) || c.is_whitespace()
        || (!c.is_alphanumeric() && !c.is_ascii() && !matches!(c, '~' | '≈' | '½'))
}

/// Where the line's words start: after markup, bullets, emoji, a check box ("[x]") or an
/// enumerator ("1.", "2)") written as text.
pub(super) fn lead(s: &str) -> usize {
    let mut i = 0;
    loop {
        let rest = &s[i..];
        let skip: usize = rest
            .chars()
            .take_while(|&c| decoration(c))
            .map(char::len_utf8)
            .sum();
        i += skip;
        let rest = &s[i..];
        let lower = rest.get(..2).map(str::to_ascii_lowercase);
        if lower.as_deref() == Some("x]") {
            i += 2;
            continue;
        }
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let after = rest[digits..].chars().next();
        let then = rest[digits..].chars().nth(1);
        if (1..=2).contains(&digits)
            && matches!(after, Some('.' | ')'))
            && then.is_some_and(char::is_whitespace)
        {
            i += digits + 1;
            continue;
        }
        if skip == 0 {
            return i;
        }
    }
}

/// Separators between a time and its task, or a task and its why.
const SEPARATORS: &[char] = &[
    ' ', '\t', '—', '–', '-', '·', ':', '|', '*', '_', ')', ']', ',', '•', '=', '>', '→',
];

fn trim_task(s: &str) -> &str {
    let s = &s[lead(s)..];
    trim_separators(trim_separators(s).trim_end_matches(['(', '[']))
}

/// The separators at the end of a task, but not a bracket that closes one the task opened:
/// "Call with Rohan (Sharma & Co)" keeps its remark whole.
fn trim_separators(s: &str) -> &str {
    let mut t = s;
    while let Some(c) = t.chars().next_back() {
        let rest = &t[..t.len() - c.len_utf8()];
        let closes = |open: char| rest.matches(open).count() > rest.matches(c).count();
        let kept = match c {
            ')' => closes('('),
            ']' => closes('['),
            _ => !SEPARATORS.contains(&c),
        };
        if kept {
            break;
        }
        t = rest;
    }
    t
}

/// The range of a token widened over the parentheses or brackets that hold only it.
fn boxed(s: &str, at: (usize, usize)) -> Option<(usize, usize)> {
    let before = s[..at.0].trim_end();
    let after = s[at.1..].trim_start();
    let open = before.chars().next_back()?;
    let close = after.chars().next()?;
    let pair = matches!((open, close), ('(', ')') | ('[', ']'));
    pair.then(|| {
        let start = before.len() - 1;
        let end = s.len() - after.len() + 1;
        (start, end)
    })
}

/// A token sits at the end of the line (only closing marks after it).
fn at_end(s: &str, at: (usize, usize)) -> bool {
    s[at.1..]
        .chars()
        .all(|c| c.is_whitespace() || matches!(c, ')' | ']' | '*' | '_' | '.'))
}

fn found(t: &Token, leading: bool) -> Option<Found> {
    match t.expr {
        Expr::Range(a, b) => {
            let sp = timex::span(a, b);
            // "9-10 Draft": a bare range leading a plan line is a time block.
            (!sp.bare || leading).then_some(Found {
                start: sp.start,
                end: Some(sp.end),
                at: t.at,
            })
        }
        Expr::Clock(c) if c.explicit() => Some(Found {
            start: c.minute(),
            end: None,
            at: t.at,
        }),
        _ => None,
    }
}

/// Minutes of a duration token: a whole number, or the raw text when it is not one.
fn whole(m: f64, raw: &str) -> Result<i64, String> {
    if m.fract().abs() < 1e-9 && m >= 0.0 {
        Ok(m as i64)
    } else {
        Err(raw.trim().to_string())
    }
}

/// Read one item's text.
pub(super) fn read(s: &str) -> Reading {
    let start = lead(s);
    let tokens = timex::scan(s);
    let lead_tok = tokens
        .iter()
        .find(|t| t.at.0 == start)
        .and_then(|t| found(t, true).map(|f| (f, t.at)));
    let leading = lead_tok.is_some();
    // The timebox: a duration alone in parentheses first, else (without a leading range)
    // the first duration.
    let durations: Vec<&Token> = tokens
        .iter()
        .filter(|t| matches!(t.expr, Expr::Duration(_)) && t.at.0 >= start)
        .collect();
    let in_box = durations
        .iter()
        .find_map(|t| boxed(s, t.at).map(|b| (*t, b)));
    let has_range = lead_tok.is_some_and(|(f, _)| f.end.is_some());
    let dur = in_box.or_else(|| {
        durations
            .iter()
            .find(|_| !has_range)
            .map(|t| (*t, boxed(s, t.at).unwrap_or(t.at)))
    });
    // Without a leading time: a range at the end of the line, else (when no duration gives
    // the timebox) the first range after the task ("Deck — 9:45 AM - 12:45 PM. Urgent").
    let ranges = || {
        tokens
            .iter()
            .filter(|t| matches!(t.expr, Expr::Range(..)) && t.at.0 > start)
    };
    let trailing = match lead_tok {
        Some(_) => None,
        None => ranges()
            .rev()
            .find(|t| at_end(s, t.at))
            .or_else(|| ranges().find(|_| dur.is_none()))
            .and_then(|t| found(t, false).map(|f| (f, boxed(s, t.at).unwrap_or(t.at)))),
    };
    let time = lead_tok.map(|(f, _)| f).or(trailing.map(|(f, _)| f));
    let minutes = match (dur, time) {
        (Some((t, region)), _) => {
            let Expr::Duration(m) = t.expr else {
                unreachable!("a duration token")
            };
            Some(whole(m, &s[region.0..region.1]))
        }
        (
            None,
            Some(Found {
                start,
                end: Some(end),
                ..
            }),
        ) => Some(Ok(i64::from(end - start))),
        _ => None,
    };
    // Task and why: what is left after the leading time, around the timebox.
    // The separator after a leading time ("11:15pm–1:15am: Patch", "9:00 = Draft") is not
    // the task's; dashes and emoji are already decorations.
    let body_start = lead_tok.map_or(start, |(_, at)| {
        at.1 + s[at.1..].len() - s[at.1..].trim_start_matches([' ', '\t', ':', '=']).len()
    });
    let cut = dur.map(|(_, r)| r).or(trailing.map(|(_, r)| r));
    let (task, why) = match cut {
        Some((a, b)) if a >= body_start => (&s[body_start..a], &s[b..]),
        _ => (&s[body_start..], ""),
    };
    let (task, why) = split_why(trim_task(task), why);
    Reading {
        time,
        leading,
        minutes,
        // "Onboarding deck — 1 hr 15": a duration alone after a dash or colon at the end of
        // the line is set apart as a timebox, as one in parentheses is.
        boxed: in_box.is_some()
            || dur.is_some_and(|(t, _)| {
                at_end(s, t.at) && s[..t.at.0].trim_end().ends_with(['—', '–', '-', ':'])
            }),
        stated: dur.is_some(),
        task: task.to_string(),
        why: why.to_string(),
    }
}

/// "Task — why" when nothing followed the timebox.
fn split_why<'a>(task: &'a str, why: &'a str) -> (&'a str, &'a str) {
    let why = why
        .trim_start_matches(SEPARATORS)
        .trim_start_matches(['.', ';', ' '])
        .trim_end_matches(['*', '_', ' '])
        .trim();
    if !why.is_empty() {
        return (task, why);
    }
    for sep in [" — ", " – ", " - ", ": "] {
        if let Some(i) = task.find(sep) {
            // "Portfolio: Torres case study": a one-word topic before a colon opens the task.
            if sep == ": " && !task[..i].trim().contains(char::is_whitespace) {
                continue;
            }
            return (trim_task(&task[..i]), task[i + sep.len()..].trim());
        }
    }
    (task, why)
}

#[cfg(test)]
#[path = "line_tests.rs"]
mod tests;
