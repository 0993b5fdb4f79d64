//! Table tests: every spelling the grammar reads, and what it refuses.

use jiff::civil::Weekday as W;

use super::*;

/// What `scan` made of a text, in a form a table can spell.
#[derive(Debug, PartialEq)]
enum R {
    /// A clock time explicit enough to stand alone, in minutes.
    At(Minute),
    /// A bare hour ("at 4"), resolved by the 1–6 afternoon rule.
    Bare(Minute),
    /// A resolved range (end past 1440 = next day).
    Span(Minute, Minute),
    /// A range of bare hours ("9-5").
    BareSpan(Minute, Minute),
    Dur(f64),
    On(Day),
}

fn read(s: &str) -> Vec<R> {
    scan(s)
        .into_iter()
        .map(|t| match t.expr {
            Expr::Clock(c) if c.explicit() => R::At(c.minute()),
            Expr::Clock(c) => R::Bare(c.minute()),
            Expr::Range(a, b) => {
                let sp = span(a, b);
                if sp.bare {
                    R::BareSpan(sp.start, sp.end)
                } else {
                    R::Span(sp.start, sp.end)
                }
            }
            Expr::Duration(m) => R::Dur(m),
            Expr::Day(d) => R::On(d),
        })
        .collect()
}

const H: Minute = 60;

#[test]
fn clock_times_read() {
    let table: &[(&str, Minute)] = &[
        ("3 PM", 15 * H),
        ("3pm", 15 * H),
        ("3 p.m.", 15 * H),
        ("4:30pm", 16 * H + 30),
        ("9:05 AM", 9 * H + 5),
        ("9a", 9 * H),
        ("12am", 0),
        ("12 PM", 12 * H),
        ("noon", 12 * H),
        ("midday", 12 * H),
        ("midnight", 0),
        ("14:30", 14 * H + 30),
        ("00:30", 30),
        ("01:00", H),
        ("09:00", 9 * H),
        ("23:59", 23 * H + 59),
        ("10.30am", 10 * H + 30),
        ("2:30", 14 * H + 30),  // 1–6 without am/pm is afternoon
        ("9:30", 9 * H + 30),   // 7–11 morning
        ("12:15", 12 * H + 15), // 12 is noon
        ("4 o'clock", 16 * H),
        // Dotted times on a quarter hour ("11.30"); "2.10" and "3.14" stay numbers.
        ("call 11.30", 11 * H + 30),
        ("14.45", 14 * H + 45),
        // Spoken times.
        ("half nine", 9 * H + 30),
        ("half past nine", 9 * H + 30),
        ("half past 2", 14 * H + 30),
        ("quarter past two", 14 * H + 15),
        ("quarter to three", 14 * H + 45),
        ("quarter after 4pm", 16 * H + 15),
        ("quarter to one", 12 * H + 45),
    ];
    for (text, want) in table {
        assert_eq!(read(text), [R::At(*want)], "{text}");
    }
}

#[test]
fn bare_hours_are_marked_bare() {
    assert_eq!(read("hard stop at 4"), [R::Bare(16 * H)]);
    assert_eq!(read("leave at 6"), [R::Bare(18 * H)]);
    assert_eq!(read("in by 8"), [R::Bare(8 * H)]);
    assert_eq!(read("lunch at 12"), [R::Bare(12 * H)]);
}

#[test]
fn ranges_read() {
    let table: &[(&str, Minute, Minute)] = &[
        ("9:30-9:45", 9 * H + 30, 9 * H + 45),
        ("2-3pm", 14 * H, 15 * H),
        ("11-1pm", 11 * H, 13 * H),
        ("11:30am–1pm", 11 * H + 30, 13 * H),
        ("8:45 AM - 10:00 AM", 8 * H + 45, 10 * H),
        ("1:00–1:45 PM", 13 * H, 13 * H + 45),
        ("9:00–10:30", 9 * H, 10 * H + 30),
        ("9–10:30", 9 * H, 10 * H + 30),
        ("14:00 to 15:30", 14 * H, 15 * H + 30),
        ("from 9am until 5pm", 9 * H, 17 * H),
        ("10am till noon", 10 * H, 12 * H),
        ("between 2 and 4pm", 14 * H, 16 * H),
        ("9am — 12pm", 9 * H, 12 * H),
        ("01:00–03:00", H, 3 * H),
        ("00:30-02:00", 30, 2 * H),
        ("13:00→14:00", 13 * H, 14 * H),
        ("from half nine to ten", 9 * H + 30, 10 * H),
        (
            "quarter past two to quarter past three",
            14 * H + 15,
            15 * H + 15,
        ),
        // Overnight: the end is on the next day.
        ("11:30pm-6am", 23 * H + 30, 30 * H),
        ("10pm to midnight", 22 * H, 24 * H),
        ("22:00–02:00", 22 * H, 26 * H),
        ("9pm-1", 21 * H, 25 * H),
        // Solid 24-hour ends, both written the same way.
        ("0700-1930", 7 * H, 19 * H + 30),
        ("from 0930 till 1100", 9 * H + 30, 11 * H),
        ("2200–0600", 22 * H, 30 * H),
        ("9h30-11h", 9 * H + 30, 11 * H),
        ("12h–13h30", 12 * H, 13 * H + 30),
        ("from 14h to 15h", 14 * H, 15 * H),
    ];
    for (text, a, b) in table {
        assert_eq!(read(text), [R::Span(*a, *b)], "{text}");
    }
}

#[test]
fn bare_ranges_are_marked_bare() {
    assert_eq!(read("working 9-5"), [R::BareSpan(9 * H, 17 * H)]);
    assert_eq!(read("office 8-4"), [R::BareSpan(8 * H, 16 * H)]);
    assert_eq!(read("8 to 4"), [R::BareSpan(8 * H, 16 * H)]);
}

#[test]
fn durations_read() {
    let table: &[(&str, f64)] = &[
        ("(~45 min)", 45.0),
        ("45 min", 45.0),
        ("45 mins", 45.0),
        ("45 minutes", 45.0),
        ("45m", 45.0),
        ("(15m)", 15.0),
        ("1.5 hours", 90.0),
        ("1.5h", 90.0),
        ("1.5 hrs", 90.0),
        ("2 hours", 120.0),
        ("2h", 120.0),
        ("1 hr", 60.0),
        ("1h 15m", 75.0),
        ("1h15m", 75.0),
        ("1h15", 75.0),
        ("1 hr 15", 75.0),
        ("prob 1 hour 20", 80.0),
        ("1 hr 15 min", 75.0),
        ("1 hour 30 minutes", 90.0),
        ("1 hour and 30 minutes", 90.0),
        ("an hour", 60.0),
        ("one hour", 60.0),
        ("two hours", 120.0),
        ("half an hour", 30.0),
        ("half hour", 30.0),
        ("an hour and a half", 90.0),
        ("~30 min", 30.0),
        ("≈ 20 min", 20.0),
        ("1½ hours", 90.0),
    ];
    for (text, want) in table {
        assert_eq!(read(text), [R::Dur(*want)], "{text}");
    }
    // "half" before an estimate is not a spoken time: the estimate is read alone.
    assert_eq!(read("half 2 hours"), [R::Dur(120.0)]);
    // Minutes after a spelled hour only when nothing but them follows: "2 hrs 15 people"
    // is two hours, and so is "1 hr 75".
    assert_eq!(read("2 hrs 15 people"), [R::Dur(120.0)]);
    assert_eq!(read("1 hr 75"), [R::Dur(60.0)]);
    // A fraction of a minute is read; whether it is a valid timebox is the plan's call.
    assert_eq!(read("1.33h"), [R::Dur(1.33 * 60.0)]);
}

#[test]
fn days_read() {
    use Day::*;
    let table: &[(&str, Day)] = &[
        ("Friday", Weekday(W::Friday)),
        ("due Fri", Weekday(W::Friday)),
        ("fri.", Weekday(W::Friday)),
        ("by Mon", Weekday(W::Monday)),
        ("Tues", Weekday(W::Tuesday)),
        ("thurs", Weekday(W::Thursday)),
        ("wednesday", Weekday(W::Wednesday)),
        ("Sat", Weekday(W::Saturday)),
        ("Sun", Weekday(W::Sunday)),
        ("today", Relative(0)),
        ("tonight", Relative(0)),
        ("tomorrow", Relative(1)),
        ("tmrw", Relative(1)),
        ("yesterday", Relative(-1)),
        ("the day after tomorrow", Relative(2)),
    ];
    for (text, want) in table {
        assert_eq!(read(text), [R::On(*want)], "{text}");
    }
}

/// Nothing here reads as a time, a span, a duration or a day.
#[test]
fn refused() {
    let table: &[&str] = &[
        "3 tasks",
        "items 1-3 of them", // a count range without working words is kept bare, see below
        "takes 50%",
        "2026-03-10",
        "v1.5",
        "version 2.10",
        "25:00",
        "9:75",
        "13pm",
        "1:1 with Dana",
        "24/7",
        "3 a day",
        "sat on the sun deck",
        "another one",
        "monthly",
        "Wedding",
        "friday's", // a possessive is still Friday, see below
        "2-3 hours",
        "9-10 min",
        "page 12",
        "Q3",
        "0",
        "09",
        "3.14",
        "$11.30",
        "€4.15",
        "half the team",
        "a quarter of the budget",
        "ten tasks",
        "two to three people",
    ];
    for text in table {
        let got = read(text);
        let ok = match *text {
            "items 1-3 of them" => got == [R::BareSpan(13 * H, 15 * H)],
            "friday's" => got == [R::On(Day::Weekday(W::Friday))],
            // A number alone is at most a bare hour, a time only where words say so.
            _ => got.iter().all(|r| matches!(r, R::Bare(_))),
        };
        assert!(ok, "{text}: {got:?}");
    }
}

#[test]
fn scan_finds_several_with_offsets() {
    let s = "Standup 9:30-9:45, then draft (1h 15m) — due Fri by 3pm";
    let got: Vec<&str> = scan(s).iter().map(|t| &s[t.at.0..t.at.1]).collect();
    assert_eq!(got, ["9:30-9:45", "1h 15m", "Fri", "3pm"]);
    let s = "🕘 9:00 Draft brief (60 min)";
    assert_eq!(read(s), [R::At(9 * H), R::Dur(60.0)]);
    let s = "### 9:00–10:30 · Draft brief";
    assert_eq!(read(s), [R::Span(9 * H, 10 * H + 30)]);
}

#[test]
fn scanning_is_linear() {
    let long = "9:00 draft 1h ".repeat(10_000);
    assert_eq!(scan(&long).len(), 20_000);
}

#[test]
fn invisible_characters_are_read_through_with_offsets_in_the_text() {
    for hidden in [
        '\u{2062}', '\u{200b}', '\u{ad}', '\u{2060}', '\u{feff}', '\u{202e}',
    ] {
        let s = format!("Meet Bob (6{hidden}00 min) at 9{hidden}:30");
        assert_eq!(read(&s), [R::Dur(600.0), R::At(9 * H + 30)], "{hidden:?}");
        let got: Vec<&str> = scan(&s).iter().map(|t| &s[t.at.0..t.at.1]).collect();
        assert_eq!(got, [format!("6{hidden}00 min"), format!("9{hidden}:30")]);
    }
}

#[test]
fn a_solid_time_is_one_only_as_a_ranges_end() {
    // One end alone is a year, a count or a duration; two years a few apart are no range,
    // and the two ends are written the same way.
    assert_eq!(read("1h30"), [R::Dur(90.0)]);
    assert_eq!(read("(2h)"), [R::Dur(120.0)]);
    for text in [
        "2025-2026",
        "since 2019–2021",
        "0700",
        "order 1930",
        "0700-19h30",
    ] {
        assert!(
            read(text).iter().all(|r| !matches!(r, R::Span(..))),
            "{text}: {:?}",
            read(text)
        );
    }
}

#[test]
fn an_hour_said_as_a_word_reads_like_a_digit_hour() {
    assert_eq!(read("at ten"), [R::Bare(10 * H)]);
    assert_eq!(read("lunch at one"), [R::Bare(13 * H)]);
    assert_eq!(read("ten o'clock"), [R::At(10 * H)]);
    assert_eq!(read("seven pm"), [R::At(19 * H)]);
    // Not an hour: a pair of meetings, a count of a group, a number before a unit.
    for text in [
        "one-on-one with Dana",
        "one of the reports",
        "ten minutes",
        "two hours",
    ] {
        assert!(
            read(text)
                .iter()
                .all(|r| !matches!(r, R::Bare(_) | R::At(_))),
            "{text}: {:?}",
            read(text)
        );
    }
}
