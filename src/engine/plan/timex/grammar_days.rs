//! Weekday names and relative days.

use jiff::civil::Weekday;
use winnow::Result;

use super::super::Day;
use super::word_of;

/// Weekday names (full anywhere; "Mon", "Tue(s)", "Wed", "Thu(r)(s)", "Fri" anywhere;
/// "Sat", "Sun" only capitalised) and relative days.
const DAY_WORDS: &[(&str, Day)] = &[
    ("day after tomorrow", Day::Relative(2)),
    ("tomorrow", Day::Relative(1)),
    ("tmrw", Day::Relative(1)),
    ("tmr", Day::Relative(1)),
    ("tmw", Day::Relative(1)),
    ("tonight", Day::Relative(0)),
    ("today", Day::Relative(0)),
    ("yesterday", Day::Relative(-1)),
    ("monday", Day::Weekday(Weekday::Monday)),
    ("tuesday", Day::Weekday(Weekday::Tuesday)),
    ("wednesday", Day::Weekday(Weekday::Wednesday)),
    ("thursday", Day::Weekday(Weekday::Thursday)),
    ("friday", Day::Weekday(Weekday::Friday)),
    ("saturday", Day::Weekday(Weekday::Saturday)),
    ("sunday", Day::Weekday(Weekday::Sunday)),
    ("mon", Day::Weekday(Weekday::Monday)),
    ("tues", Day::Weekday(Weekday::Tuesday)),
    ("tue", Day::Weekday(Weekday::Tuesday)),
    ("wed", Day::Weekday(Weekday::Wednesday)),
    ("thurs", Day::Weekday(Weekday::Thursday)),
    ("thur", Day::Weekday(Weekday::Thursday)),
    ("thu", Day::Weekday(Weekday::Thursday)),
    ("fri", Day::Weekday(Weekday::Friday)),
];

/// "Sat" and "Sun" are days only capitalised ("sat on the sun deck" is not).
const CAPITAL_DAYS: &[(&str, Day)] = &[
    ("Sat", Day::Weekday(Weekday::Saturday)),
    ("Sun", Day::Weekday(Weekday::Sunday)),
];

/// Weekday names (full or short, "Fri."), relative days ("tomorrow", "tonight").
pub(super) fn day(input: &mut &str) -> Result<Day> {
    let with_dot = |i: &mut &str, table: &[(&str, Day)], exact: bool| -> Result<Day> {
        // "Fri." is Friday: try the word with its dot first.
        let before = *i;
        let d = word_of(i, table, exact)?;
        if matches!(d, Day::Weekday(_)) && i.starts_with('.') {
            *i = &i[1..];
        }
        let _ = before;
        Ok(d)
    };
    with_dot(input, DAY_WORDS, false).or_else(|_| with_dot(input, CAPITAL_DAYS, true))
}
