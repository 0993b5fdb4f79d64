//! Time expressions, one grammar for plans and notes: clock times (12- and 24-hour,
//! `noon`), ranges (`-`, `–`, `—`, `to`, `until`, `between … and …`, overnight),
//! durations in every common spelling (`(~45 min)`, `1.5 hours`, `1h 15m`, `(15m)`,
//! `an hour and a half`), weekday names (`Friday`, `due Fri`) and relative days
//! (`today`, `tonight`, `tomorrow`). The grammar is in `grammar.rs` (winnow); this module
//! scans text for expressions and resolves clock times to minutes after midnight.
//!
//! Resolution rules (stated in the README): `am`/`pm` as written; a two-digit hour with a
//! leading zero or an hour past 12 is 24-hour (`00:30`, `01:00`, `14:00`); a bare hour or
//! `h:mm` without am/pm from 1 to 6 is afternoon, 7–11 morning, 12 noon. In a range the
//! start takes the end's am/pm unless it would then come after the end (`2-3pm`,
//! `11-1pm`), and an end at or before its start is on the next half-day or day
//! (`9-5` is 9 AM–5 PM, `11:30pm-6am` runs past midnight).

mod grammar;
#[cfg(test)]
mod tests;

use jiff::civil::Weekday;

/// Minutes after local midnight of the day a span starts on; past 1440 is the next day.
pub type Minute = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meridiem {
    Am,
    Pm,
}

/// How a clock time was written, which decides how sure its reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `4`: an hour alone, a time only where the words around say so ("hard stop at 4").
    Bare,
    /// `4:30`, `4 o'clock`: a time, half of the day by the 1–6 afternoon rule.
    Colon,
    /// `4pm`, `4:30 a.m.`
    Meridiem,
    /// `00:30`, `09:00`, `14:00`.
    TwentyFour,
    /// `noon`, `midnight`.
    Word,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub hour: u8,
    pub minute: u8,
    pub meridiem: Option<Meridiem>,
    pub form: Form,
}

impl Clock {
    /// Written so that it is a time wherever it stands (not a bare number).
    pub fn explicit(self) -> bool {
        self.form != Form::Bare
    }

    fn with_meridiem(self, m: Meridiem) -> Clock {
        Clock {
            meridiem: Some(m),
            ..self
        }
    }

    /// Minutes after midnight, by the rules in the module comment.
    pub fn minute(self) -> Minute {
        let h = u32::from(self.hour);
        let h = match (self.meridiem, self.form) {
            (Some(Meridiem::Pm), _) if h < 12 => h + 12,
            (Some(Meridiem::Am), _) if h == 12 => 0,
            (Some(_), _) | (None, Form::TwentyFour | Form::Word) => h,
            (None, _) if (1..=6).contains(&h) => h + 12,
            (None, _) => h,
        };
        h * 60 + u32::from(self.minute)
    }
}

/// A day named in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Day {
    Weekday(Weekday),
    /// 0 today/tonight, 1 tomorrow, -1 yesterday.
    Relative(i8),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expr {
    Clock(Clock),
    Range(Clock, Clock),
    /// Minutes, possibly fractional (`1.33h`): the caller decides what a fraction means.
    Duration(f64),
    Day(Day),
}

/// One expression and its byte range in the scanned text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token {
    pub expr: Expr,
    pub at: (usize, usize),
}

/// A clock range resolved to minutes: `end` > `start`, past 1440 when it runs overnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: Minute,
    pub end: Minute,
    /// Neither side was written as a time ("9-5", "8-4"): only a working window.
    pub bare: bool,
}

/// Resolve a range by the rules in the module comment.
pub fn span(a: Clock, b: Clock) -> Span {
    let mut a = a;
    if let (None, Some(m), Form::Bare | Form::Colon) = (a.meridiem, b.meridiem, a.form) {
        a = a.with_meridiem(m);
        if a.minute() > b.minute() {
            let other = if m == Meridiem::Pm {
                Meridiem::Am
            } else {
                Meridiem::Pm
            };
            a = a.with_meridiem(other);
        }
    }
    let start = a.minute();
    let mut end = b.minute();
    // "9am-5" or "11pm-2": the end is the next half-day after the start; an end written
    // fully ("6am", "02:00") is on the next day.
    let step = if b.meridiem.is_some() || matches!(b.form, Form::TwentyFour | Form::Word) {
        24 * 60
    } else {
        12 * 60
    };
    while end <= start {
        end += step;
    }
    Span {
        start,
        end,
        bare: !a.explicit() && !b.explicit(),
    }
}

/// A word or number can start at `i`: not inside a word, a number, a date or a version.
fn starts_word(s: &str, i: usize) -> bool {
    match s[..i].chars().next_back() {
        None => true,
        // After a currency sign a number is money ("$11.30"), never a time.
        Some(c) => {
            !(c.is_alphanumeric()
                || matches!(
                    c,
                    '_' | '/' | '.' | ':' | '-' | '\'' | '$' | '€' | '£' | '₹' | '¥'
                ))
        }
    }
}

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count `bytes` of text the grammar reads (tests only): a test doubles the notes and
/// checks that the work doubles, not quadruples.
fn count_work(bytes: usize) {
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

/// The bytes of text the grammar has read on this thread so far (tests only).
#[cfg(test)]
pub fn work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Every time expression in `s`, left to right, not overlapping (at each place the
/// grammar's first reading wins: a duration, a range, a clock time, a day).
///
/// Read as a reader sees it: a character that renders as nothing (an invisible operator,
/// zero-width space, joiner, bidi mark, soft hyphen: Unicode's default-ignorable code
/// points) is read through, so "(6\u{2062}00 min)" is the 600 minutes it shows, never "00 min";
/// token ranges are ranges of `s`.
pub fn scan(s: &str) -> Vec<Token> {
    if s.is_ascii() || !s.chars().any(invisible) {
        return scan_shown(s);
    }
    // `at[i]`: the byte of `s` that byte `i` of the shown text came from.
    let (mut shown, mut at) = (String::with_capacity(s.len()), Vec::with_capacity(s.len()));
    for (i, c) in s.char_indices().filter(|&(_, c)| !invisible(c)) {
        shown.push(c);
        at.extend(i..i + c.len_utf8());
    }
    scan_shown(&shown)
        .into_iter()
        .map(|t| Token {
            expr: t.expr,
            at: (at[t.at.0], at[t.at.1 - 1] + 1),
        })
        .collect()
}

/// Renders as nothing (Unicode's Default_Ignorable_Code_Point).
fn invisible(c: char) -> bool {
    use unicode_security::GeneralSecurityProfile;
    use unicode_security::general_security_profile::IdentifierType;
    c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

fn scan_shown(s: &str) -> Vec<Token> {
    count_work(s.len());
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i..].chars().next().expect("char boundary");
        let candidate = (c.is_alphanumeric() || matches!(c, '~' | '≈' | '½')) && starts_word(s, i);
        if candidate {
            let mut rest = &s[i..];
            if let Ok(expr) = grammar::expr(&mut rest) {
                let end = s.len() - rest.len();
                // A range's trailing spaces are not part of it.
                let end = i + s[i..end].trim_end().len();
                out.push(Token { expr, at: (i, end) });
                i = end.max(i + c.len_utf8());
                continue;
            }
        }
        // Skip to the next word start.
        i += c.len_utf8();
        if c.is_alphanumeric() {
            while let Some(n) = s[i..].chars().next() {
                if !n.is_alphanumeric() {
                    break;
                }
                i += n.len_utf8();
            }
        }
    }
    out
}

/// The durations in `s` (minutes, possibly fractional) with their byte ranges.
pub fn durations(s: &str) -> impl Iterator<Item = (f64, (usize, usize))> {
    scan(s).into_iter().filter_map(|t| match t.expr {
        Expr::Duration(m) => Some((m, t.at)),
        _ => None,
    })
}

/// The days named in `s`.
pub fn days(s: &str) -> impl Iterator<Item = (Day, (usize, usize))> {
    scan(s).into_iter().filter_map(|t| match t.expr {
        Expr::Day(d) => Some((d, t.at)),
        _ => None,
    })
}

/// Whether `a` and `b` are the same day: the same words, or, when today's weekday is
/// known, the same weekday ("tomorrow" on a Thursday is "Fri").
pub fn same_day(a: Day, b: Day, today: Option<Weekday>) -> bool {
    let weekday = |d: Day| match (d, today) {
        (Day::Weekday(w), _) => Some(w),
        (Day::Relative(k), Some(t)) => Some(t.wrapping_add(k)),
        (Day::Relative(_), None) => None,
    };
    a == b || weekday(a).is_some_and(|w| weekday(b) == Some(w))
}

/// Whether `day` is the day of `today` (a weekday, or "today"/"tonight").
pub fn is_today(day: Day, today: Option<Weekday>) -> bool {
    match day {
        Day::Relative(0) => true,
        Day::Relative(_) => false,
        Day::Weekday(w) => today == Some(w),
    }
}
