//! A deadline or an event on a day, grounded by the notes on the same day however either
//! names it: "tomorrow" on a Thursday is the notes' "Fri", and the reverse.

use super::*;
use crate::engine::plan::analyze;

/// The flags of one item whose why is `why`, against `notes`, on the date `date`.
fn flags_on(date: &str, notes: &str, why: &str) -> (u32, Vec<String>) {
    let plan = format!(
        "---\ncurrent_time: \"{date}T09:00:00+10:00\"\ntimezone: Australia/Sydney\n---\n{{\"plan\":[{{\"task\":\"Outline the slides\",\"timebox_minutes\":45,\"why\":\"{why}\"}}],\"assumptions\":[],\"questions\":[]}}"
    );
    let start = plan.find("\n---\n").map_or(0, |i| i + 5);
    let a = analyze(&plan, (start, plan.len()), Some(notes));
    let p = grounded_entities(&a);
    let n = match p.metrics[0] {
        Metric::HallucinationFlags(n) => n,
        _ => unreachable!(),
    };
    (n, p.errors)
}

const THU: &str = "2026-07-16";
const WED: &str = "2026-07-15";

#[test]
fn a_day_is_grounded_by_the_same_day_however_it_is_named() {
    // (today, notes, why, flags)
    let rows: &[(&str, &str, &str, u32)] = &[
        (
            THU,
            "- board pack slides — due Fri",
            "Due tomorrow, so get the skeleton down now.",
            0,
        ),
        (WED, "- board pack slides — due Fri", "Due tomorrow.", 1),
        (THU, "- board pack slides — due Fri", "Due Monday.", 1),
        (THU, "- essay due tomorrow", "before the Friday deadline", 0),
        (WED, "- essay due tomorrow", "before the Friday deadline", 1),
        // An event on a day: the notes name it on that day, or the day is today.
        (
            THU,
            "- board review Fri 10am",
            "ready before tomorrow's board review",
            0,
        ),
        (
            WED,
            "- board review Fri 10am",
            "ready before tomorrow's board review",
            1,
        ),
        (
            THU,
            "- board review 10am",
            "ready before Thursday's board review",
            0,
        ),
        (
            WED,
            "- board review 10am",
            "ready before Thursday's board review",
            1,
        ),
    ];
    for (date, notes, why, want) in rows {
        let (n, errors) = flags_on(date, notes, why);
        assert_eq!(n, *want, "{date} {notes:?} / {why:?}: {errors:?}");
    }
}

#[test]
fn the_same_day_is_read_through_todays_weekday() {
    use jiff::civil::Weekday::{Friday, Thursday, Wednesday};
    use timex::{Day, same_day};
    assert!(same_day(
        Day::Relative(1),
        Day::Weekday(Friday),
        Some(Thursday)
    ));
    assert!(same_day(
        Day::Relative(0),
        Day::Weekday(Thursday),
        Some(Thursday)
    ));
    assert!(same_day(Day::Relative(1), Day::Relative(1), None));
    assert!(!same_day(
        Day::Relative(1),
        Day::Weekday(Friday),
        Some(Wednesday)
    ));
    assert!(!same_day(Day::Relative(1), Day::Weekday(Friday), None));
    assert!(!same_day(
        Day::Weekday(Friday),
        Day::Weekday(Thursday),
        Some(Thursday)
    ));
}
