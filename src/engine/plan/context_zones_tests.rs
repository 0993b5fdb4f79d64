//! Table tests of the zone remarks: the writer's own time wins, another zone's time alone
//! is placed from the zone it names, and one whose zone cannot be told is left unplaced.

use super::super::{Context, extract};
use super::*;

fn spans(cx: &Context) -> Vec<(Minute, Minute)> {
    cx.blocks.iter().map(|b| (b.start, b.end)).collect()
}

#[test]
fn the_writers_own_time_wins_over_another_zones() {
    for (line, want) in [
        // Marked as ours, beside hers in a named place; the length after the remark.
        (
            "- call w/ Ifeoma at 3 (3am our time, her 10am in Lagos), 45 min, re the lab feed",
            vec![(180, 225)],
        ),
        (
            "- sync w/ Kenji 9pm my time (his 10am in Tokyo)",
            vec![(1260, 1290)],
        ),
        // Written with no zone, beside another zone's.
        ("- call w/ Dana 4pm (9pm London time)", vec![(960, 990)]),
        ("- standup 9:30-9:45 (6:30 PT)", vec![(570, 585)]),
        // A meeting's bare hour is the writer's time too.
        (
            "- call w/ Ifeoma at 3 (her 10am in Lagos)",
            vec![(900, 930)],
        ),
    ] {
        let cx = extract(line, None);
        assert_eq!(spans(&cx), want, "{line}");
        assert!(
            cx.foreign.is_empty() && cx.unread.is_empty(),
            "{line}: {cx:?}"
        );
        assert!(cx.tasks.is_empty(), "{line}: {cx:?}");
    }
}

#[test]
fn not_another_zone_where_nothing_says_so() {
    // A place that is not a time zone, and someone's time with no time of the writer's
    // beside it, stay the writer's times.
    for (line, want) in [
        ("- dentist 3pm in Brooklyn", vec![(900, 930)]),
        ("- pick up Sam from his 3:30pm practice", vec![(930, 960)]),
        ("- call w/ Ifeoma at 3am, 45 min", vec![(180, 225)]),
    ] {
        let cx = extract(line, None);
        assert_eq!(spans(&cx), want, "{line}");
        assert!(cx.foreign.is_empty(), "{line}");
    }
    assert_eq!(zoned("- dentist 3pm in Brooklyn"), None);
    assert_eq!(zoned("- call w/ Dana 4pm"), None);
}

#[test]
fn a_time_only_in_another_zone_waits_to_be_placed() {
    let cx = extract("- sync w/ the Lagos team 10am Lagos time, 45 min", None);
    assert!(cx.blocks.is_empty() && cx.tasks.is_empty(), "{cx:?}");
    let [f] = cx.foreign.as_slice() else {
        panic!("{cx:?}")
    };
    assert_eq!(f.zone.as_deref(), Some("Africa/Lagos"));
    assert_eq!((f.start, f.end), (600, 645));
    let cx = extract("- call w/ Ifeoma at 10am her time", None);
    assert_eq!(cx.foreign.len(), 1);
    assert_eq!(cx.foreign[0].zone, None);
    // A deadline in another zone is a task's, not an appointment.
    let cx = extract("- send the deck to Dana by 4pm London time", None);
    assert!(cx.foreign.is_empty() && cx.tasks.len() == 1, "{cx:?}");
}

#[test]
fn placed_on_the_day_in_the_notes_zone() {
    // Chicago's fall-back night: 10am in Lagos (UTC+1) on Nov 1 is 3am CST, inside the
    // 22:00-07:00 window, so on the next day.
    let mut cx = extract(
        "on from 10p, off at 7a\n- call w/ Ifeoma 10am in Lagos, 45 min",
        None,
    );
    let now = Now::parse("2026-10-31T22:00:00-05:00", "America/Chicago").unwrap();
    place(&mut cx, &now);
    assert_eq!(spans(&cx), [(24 * 60 + 180, 24 * 60 + 225)]);
    assert!(cx.foreign.is_empty());
    // Not named: left for the time math to fail closed on.
    let mut cx = extract("working 9-5\n- call w/ Ifeoma 10am their time", None);
    let now = Now::parse("2026-06-01T09:00", "America/New_York").unwrap();
    place(&mut cx, &now);
    assert!(cx.blocks.is_empty() && cx.foreign.len() == 1);
    // 4pm London in June is 11am in New York.
    let mut cx = extract("working 9-5\n- call w/ Dana 4pm London time", None);
    place(&mut cx, &now);
    assert_eq!(spans(&cx), [(660, 690)]);
}

#[test]
fn every_zone_name_is_in_the_database() {
    for zone in NAMES.aliases.values().chain(NAMES.abbreviations.values()) {
        assert!(TimeZone::get(zone).is_ok(), "{zone}");
    }
    assert_eq!(zone_named("Lagos").as_deref(), Some("Africa/Lagos"));
    assert_eq!(zone_named("new york").as_deref(), Some("America/New_York"));
    assert_eq!(zone_named("Mumbai").as_deref(), Some("Asia/Kolkata"));
    assert_eq!(zone_named("PT").as_deref(), Some("America/Los_Angeles"));
    assert_eq!(zone_named("Brooklyn"), None);
    assert_eq!(zone_named("DST"), None);
}

#[test]
fn a_zone_remark_alone() {
    for t in ["in London.", "London time", "her time", "(PT)"] {
        assert!(zone_remark_only(t), "{t}");
    }
    for t in ["in Brooklyn", "Call with Ana", "in London with Dana", ""] {
        assert!(!zone_remark_only(t), "{t}");
    }
}
