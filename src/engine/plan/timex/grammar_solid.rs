//! Solid 24-hour times ("0700", "9h30", "14h"), read only as both ends of a range.

use winnow::Result;
use winnow::ascii::{Caseless, space1};
use winnow::combinator::opt;
use winnow::prelude::*;
use winnow::token::{one_of, take_while};

use super::super::{Clock, Form};
use super::{clock_end, connector, fail, number, two_digits};

/// One end of a solid range: four digits ("0700", "1930") or an hour with an `h` and
/// maybe its minutes ("9h30", "14h"), as 24-hour times.
fn solid_end(input: &mut &str, with_h: bool) -> Result<Clock> {
    let (h, m) = if with_h {
        let h = number(input, 2)?;
        one_of(['h', 'H']).parse_next(input)?;
        let m = opt(two_digits.verify(|m: &str| m.len() == 2)).parse_next(input)?;
        (h, m.unwrap_or("0"))
    } else {
        let d = take_while(4..=4, |c: char| c.is_ascii_digit()).parse_next(input)?;
        (&d[..2], &d[2..])
    };
    let digit_next = input.starts_with(|c: char| c.is_ascii_digit());
    let (Ok(hour), Ok(minute)) = (h.parse::<u8>(), m.parse::<u8>()) else {
        return fail();
    };
    if digit_next || hour > 23 || minute > 59 {
        return fail();
    }
    Ok(Clock {
        hour,
        minute,
        meridiem: None,
        form: Form::TwentyFour,
    })
}

/// A range whose ends are written solid, both the same way: "0700-1930", "on shift
/// 0700 till 1930", "9h30-11h", "12h–13h30". An end alone is no time: "2026" is as often a
/// year and "1h30" a duration. Two years a few apart ("2025-2026") are no range.
pub(super) fn solid_range(input: &mut &str) -> Result<(Clock, Clock)> {
    opt((Caseless("from"), space1)).parse_next(input)?;
    let with_h = input
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .starts_with(['h', 'H']);
    let a = solid_end(input, with_h)?;
    connector(input)?;
    let b = solid_end(input, with_h)?;
    clock_end(input, false)?;
    let (x, y) = (
        u32::from(a.hour) * 100 + u32::from(a.minute),
        u32::from(b.hour) * 100 + u32::from(b.minute),
    );
    if !with_h && (1900..2100).contains(&x) && y > x && y - x <= 10 {
        return fail();
    }
    Ok((a, b))
}
