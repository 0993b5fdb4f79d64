//! The time-expression grammar, on `winnow`: each parser reads one expression at the
//! start of its input and refuses (an error) when the text there is not one. `scan`
//! in `mod.rs` tries them at each word start.

use winnow::Result;
use winnow::ascii::{Caseless, space0, space1};
use winnow::combinator::{alt, opt, preceded};
use winnow::error::ContextError;
use winnow::prelude::*;
use winnow::token::{one_of, take_while};

use super::{Clock, Expr, Form, Meridiem};

#[path = "grammar_days.rs"]
mod days;
#[path = "grammar_solid.rs"]
mod solid;

fn fail<T>() -> Result<T> {
    Err(ContextError::new())
}

/// The next character does not continue a word or a number.
fn word_end(input: &mut &str) -> Result<()> {
    match input.chars().next() {
        Some(c) if c.is_alphanumeric() || c == '_' => fail(),
        _ => Ok(()),
    }
}

/// The longest unit word `clock_end` looks for ("minute").
const UNIT_LOOKAHEAD: usize = 6;

/// After a clock time: no unit, percent sign, or more digits (a date, a version, a
/// ratio); `-` and a digit only where a range goes on.
fn clock_end(input: &mut &str, range_start: bool) -> Result<()> {
    word_end(input)?;
    let mut chars = input.chars();
    match (chars.next(), chars.next()) {
        (Some('%' | '\''), _) => fail(),
        (Some('-'), Some(d)) if d.is_ascii_digit() && !range_start => fail(),
        (Some('/' | '.' | ':' | ','), Some(d)) if d.is_ascii_digit() => fail(),
        _ => {
            // Only the next few bytes are looked at: a copy of the rest of the text at
            // every number made a scan of long notes quadratic in their length.
            let rest = input.trim_start().as_bytes();
            super::count_work(rest.len().min(UNIT_LOOKAHEAD));
            let starts = |u: &str| {
                rest.get(..u.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(u.as_bytes()))
            };
            let unit = ["hour", "hr", "h ", "min", "minute"]
                .iter()
                .any(|u| starts(u))
                || rest.eq_ignore_ascii_case(b"h");
            if unit { fail() } else { Ok(()) }
        }
    }
}

fn number<'s>(input: &mut &'s str, max: usize) -> Result<&'s str> {
    take_while(1..=max, |c: char| c.is_ascii_digit()).parse_next(input)
}

fn two_digits<'s>(input: &mut &'s str) -> Result<&'s str> {
    number(input, 2)
}

fn three_digits<'s>(input: &mut &'s str) -> Result<&'s str> {
    number(input, 3)
}

/// The first word of `table` the input starts with (ignoring case unless `exact`), as a
/// whole word; the table lists longer spellings before their prefixes.
fn word_of<T: Copy>(input: &mut &str, table: &[(&str, T)], exact: bool) -> Result<T> {
    for (w, v) in table {
        let Some(head) = input.get(..w.len()) else {
            continue;
        };
        let same = if exact {
            head == *w
        } else {
            head.eq_ignore_ascii_case(w)
        };
        let mut rest = &input[w.len()..];
        if same && word_end(&mut rest).is_ok() {
            *input = rest;
            return Ok(*v);
        }
    }
    fail()
}

const MERIDIEM: &[(&str, Meridiem)] = &[
    ("a.m.", Meridiem::Am),
    ("a.m", Meridiem::Am),
    ("am", Meridiem::Am),
    ("p.m.", Meridiem::Pm),
    ("p.m", Meridiem::Pm),
    ("pm", Meridiem::Pm),
];

fn meridiem(input: &mut &str) -> Result<Meridiem> {
    let mut spaced = input.trim_start_matches(' ');
    if let Ok(m) = word_of(&mut spaced, MERIDIEM, false) {
        *input = spaced;
        return Ok(m);
    }
    // "9a", "5p" only written solid: "3 a day" is not 3 AM.
    word_of(input, &[("a", Meridiem::Am), ("p", Meridiem::Pm)], false)
}

/// `h:mm`, `h.mm`, `hh:mm` (24-hour with a leading zero or past 12), `h am`, a bare
/// hour 1–12, `noon`, `midday`, `midnight`; "o'clock" makes a bare hour explicit.
pub(super) fn clock(input: &mut &str) -> Result<Clock> {
    clock_in(input, false)
}

fn range_start(input: &mut &str) -> Result<Clock> {
    clock_in(input, true)
}

/// Hours as words, for spoken times ("half nine", "quarter past two").
const HOUR_WORDS: &[(&str, u8)] = &[
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
];

/// An hour 1–12 in digits or as a word, as a whole word.
fn spoken_hour(input: &mut &str) -> Result<u8> {
    if let Ok(h) = word_of(input, HOUR_WORDS, false) {
        return Ok(h);
    }
    let h: u8 = (number(input, 2)?)
        .parse()
        .map_err(|_| ContextError::new())?;
    if (1..=12).contains(&h) { Ok(h) } else { fail() }
}

/// A time said in words: "half past nine", "quarter past two", "quarter to three",
/// "quarter after four", and the British "half nine" (9:30). Read like `h:mm` (the 1–6
/// afternoon rule applies) unless am/pm follows.
fn spoken(input: &mut &str) -> Result<Clock> {
    let lead = word_of(
        input,
        &[
            ("half past", 30i8),
            ("quarter past", 15),
            ("quarter after", 15),
            ("quarter to", -15),
            ("quarter til", -15),
            ("half", 30),
        ],
        false,
    )?;
    space1.parse_next(input)?;
    let hour = spoken_hour(input)?;
    let (hour, minute) = if lead < 0 {
        (if hour == 1 { 12 } else { hour - 1 }, 45)
    } else {
        (hour, lead as u8)
    };
    let meridiem = opt(meridiem).parse_next(input)?;
    // "half 2 hours" is not a time.
    clock_end(input, true)?;
    Ok(Clock {
        hour,
        minute,
        meridiem,
        form: if meridiem.is_some() {
            Form::Meridiem
        } else {
            Form::Colon
        },
    })
}

fn clock_in(input: &mut &str, range_start: bool) -> Result<Clock> {
    if let Ok(c) = spoken(input) {
        return Ok(c);
    }
    if let Ok(w) = word_of(
        input,
        &[("noon", 12u8), ("midday", 12), ("midnight", 0)],
        false,
    ) {
        return Ok(Clock {
            hour: w,
            minute: 0,
            meridiem: None,
            form: Form::Word,
        });
    }
    let h = number(input, 2)?;
    let hour: u8 = h.parse().map_err(|_| ContextError::new())?;
    let sep = input.chars().next();
    let mins = opt(preceded(one_of([':', '.']), two_digits).verify(|m: &str| m.len() == 2))
        .parse_next(input)?;
    let dotted = mins.is_some() && sep == Some('.');
    let minute: u8 = mins.map_or(Ok(0), |m| m.parse().map_err(|_| ContextError::new()))?;
    let mer = opt(meridiem).parse_next(input)?;
    let oclock = mer.is_none()
        && opt(preceded(
            space0,
            alt((Caseless("o'clock"), Caseless("o’clock"))),
        ))
        .parse_next(input)?
        .is_some();
    clock_end(input, range_start)?;
    // "10.30am" and "11.30" are times; "2.10" or "3.14" alone is a version or a number:
    // a dotted time without am/pm needs its minutes on a quarter hour.
    let quarter = matches!(minute, 0 | 15 | 30 | 45) && hour > 0;
    if minute > 59 || hour > 23 || dotted && mer.is_none() && !quarter {
        return fail();
    }
    let twenty_four = hour == 0 || hour > 12 || (h.len() == 2 && h.starts_with('0'));
    let form = match mer {
        Some(_) if hour == 0 || hour > 12 => return fail(),
        Some(_) => Form::Meridiem,
        None if twenty_four && mins.is_some() => Form::TwentyFour,
        None if twenty_four => return fail(),
        None if mins.is_some() || oclock => Form::Colon,
        None => Form::Bare,
    };
    Ok(Clock {
        hour,
        minute,
        meridiem: mer,
        form,
    })
}

fn connector(input: &mut &str) -> Result<()> {
    let symbol = preceded(space0, alt(("->", "→", "-", "–", "—", "−", "~")).void());
    let word = preceded(
        space1,
        alt((
            Caseless("until"),
            Caseless("till"),
            Caseless("til"),
            Caseless("through"),
            Caseless("thru"),
            Caseless("to"),
        ))
        .void(),
    );
    alt((symbol, word)).parse_next(input)?;
    space0.parse_next(input)?;
    Ok(())
}

/// `from? CLOCK CONNECTOR CLOCK`, or `between CLOCK and CLOCK`; not followed by a unit
/// ("2–3 hours" is an estimate, not a time span).
pub(super) fn range(input: &mut &str) -> Result<(Clock, Clock)> {
    let between = opt(alt((Caseless("between"), Caseless("btw"))))
        .parse_next(input)?
        .is_some();
    if between {
        space1.parse_next(input)?;
        let a = range_start(input)?;
        (space1, Caseless("and"), space1).parse_next(input)?;
        let b = clock(input)?;
        return Ok((a, b));
    }
    opt((Caseless("from"), space1)).parse_next(input)?;
    let before = *input;
    let a = range_start(input)?;
    let mut probe = before;
    let said = spoken(&mut probe).is_ok();
    connector(input)?;
    // "from half nine to ten": after a time said in words, the end may be one too.
    let b = match clock(input) {
        Ok(b) => b,
        Err(_) if said => Clock {
            hour: word_of(input, HOUR_WORDS, false)?,
            minute: 0,
            meridiem: None,
            form: Form::Colon,
        },
        Err(e) => return Err(e),
    };
    Ok((a, b))
}

pub(super) fn clock_expr(input: &mut &str) -> Result<Clock> {
    clock(input).or_else(|_| hour_word(input))
}

/// An hour said as a word alone ("at ten", "ten o'clock", "seven pm"): read like a digit
/// hour, so "ten" alone is a bare hour (a time only where the words around say so). Never
/// a range's end ("two to three people"), nor "one-on-one" or "one of".
fn hour_word(input: &mut &str) -> Result<Clock> {
    let hour = word_of(input, HOUR_WORDS, false)?;
    if input.starts_with(['-', '‑'])
        || input
            .get(..3)
            .is_some_and(|w| w.eq_ignore_ascii_case(" of"))
    {
        return fail();
    }
    let mer = opt(meridiem).parse_next(input)?;
    let oclock = mer.is_none()
        && opt(preceded(
            space0,
            alt((Caseless("o'clock"), Caseless("o’clock"))),
        ))
        .parse_next(input)?
        .is_some();
    clock_end(input, false)?;
    let form = match (mer, oclock) {
        (Some(_), _) => Form::Meridiem,
        (None, true) => Form::Colon,
        (None, false) => Form::Bare,
    };
    Ok(Clock {
        hour,
        minute: 0,
        meridiem: mer,
        form,
    })
}

const SMALL_NUMBERS: &[(&str, f64)] = &[
    ("an", 1.0),
    ("a", 1.0),
    ("one", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("ten", 10.0),
    ("fifteen", 15.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty-five", 45.0),
    ("ninety", 90.0),
];

fn small_word(input: &mut &str) -> Result<f64> {
    word_of(input, SMALL_NUMBERS, false)
}

fn amount(input: &mut &str) -> Result<f64> {
    let digits = |i: &mut &str| -> Result<f64> {
        let whole = number(i, 4)?;
        let frac = opt(preceded('.', three_digits)).parse_next(i)?;
        let half = opt('½').parse_next(i)?.is_some();
        let v: f64 = match frac {
            Some(f) => format!("{whole}.{f}")
                .parse()
                .map_err(|_| ContextError::new())?,
            None => whole.parse().map_err(|_| ContextError::new())?,
        };
        Ok(v + if half { 0.5 } else { 0.0 })
    };
    alt((digits, small_word)).parse_next(input)
}

/// A unit after a number: a long spelling (maybe after a space, maybe with a dot) or a
/// one-letter one written solid ("45m", "2h").
fn unit(input: &mut &str, long: &[(&str, ())], short: &str) -> Result<()> {
    let mut spaced = input.trim_start_matches(' ');
    // A one-letter unit may be followed by the minutes ("1h15m").
    let solid = input
        .get(..short.len())
        .filter(|h| h.eq_ignore_ascii_case(short))
        .map(|_| &input[short.len()..])
        .filter(|r| !r.starts_with(|c: char| c.is_alphabetic()));
    let found = word_of(&mut spaced, long, false)
        .map(|_| spaced)
        .or_else(|e| solid.ok_or(e));
    let mut rest = found?;
    if let Some(r) = rest.strip_prefix('.') {
        rest = r;
    }
    *input = rest;
    Ok(())
}

fn hours_unit(input: &mut &str) -> Result<()> {
    unit(
        input,
        &[("hours", ()), ("hour", ()), ("hrs", ()), ("hr", ())],
        "h",
    )
}

fn minutes_unit(input: &mut &str) -> Result<()> {
    unit(
        input,
        &[("minutes", ()), ("minute", ()), ("mins", ()), ("min", ())],
        "m",
    )
}

/// `45 min`, `(~45 min)`, `1.5 hours`, `1h 15m`, `1h15`, `1 hour and 30 minutes`,
/// `an hour`, `half an hour`, `an hour and a half`… in minutes (maybe fractional).
pub(super) fn duration(input: &mut &str) -> Result<f64> {
    opt(alt(("~", "≈", "±"))).parse_next(input)?;
    space0.parse_next(input)?;
    let half = word_of(
        input,
        &[
            ("half an hour", 30.0),
            ("half hour", 30.0),
            ("a half hour", 30.0),
            ("a quarter hour", 15.0),
            ("quarter of an hour", 15.0),
        ],
        false,
    );
    if let Ok(m) = half {
        return Ok(m);
    }
    let n = amount(input)?;
    if hours_unit(input).is_ok() {
        let mut tail = input.trim_start_matches(' ');
        if word_of(&mut tail, &[("and a half", ())], false).is_ok() {
            *input = tail;
            return Ok(n * 60.0 + 30.0);
        }
        // "1h 15m", "1 hour and 30 minutes", "1 hr 15 min", or solid "1h15".
        let mut tail = *input;
        let spelled = (
            space0,
            opt((Caseless("and"), space1)),
            two_digits,
            minutes_unit,
        )
            .parse_next(&mut tail);
        if let Ok((_, _, m, _)) = spelled {
            *input = tail;
            return Ok(n * 60.0 + m.parse::<f64>().map_err(|_| ContextError::new())?);
        }
        // Solid "1h15", or the minutes alone after a spelled unit ("1 hr 15", as people
        // jot an estimate); minutes past 59 are not a duration's.
        let mut tail = *input;
        let minutes = (opt(space1), two_digits, word_end).parse_next(&mut tail);
        if let Ok((sp, m, _)) = minutes
            && m.len() == 2
            && m < "60"
            && (sp.is_none() || !tail.trim_start().starts_with(|c: char| c.is_alphabetic()))
        {
            *input = tail;
            return Ok(n * 60.0 + m.parse::<f64>().map_err(|_| ContextError::new())?);
        }
        return Ok(n * 60.0);
    }
    minutes_unit(input)?;
    Ok(n)
}

pub(super) fn expr(input: &mut &str) -> Result<Expr> {
    alt((
        solid::solid_range.map(|(a, b)| Expr::Range(a, b)),
        duration.map(Expr::Duration),
        range.map(|(a, b)| Expr::Range(a, b)),
        clock_expr.map(Expr::Clock),
        days::day.map(Expr::Day),
    ))
    .parse_next(input)
}
