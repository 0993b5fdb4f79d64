//! Notes jotted as a busy person writes them, as tables both ways: each row is a notes text
//! and what the reader must (and must not) make of it.

use jiff::civil::Weekday;

use crate::engine::plan::context::{Context, extract};
use crate::engine::plan::timex::Minute;

fn spans(bs: &[super::super::Block]) -> Vec<(Minute, Minute)> {
    bs.iter().map(|b| (b.start, b.end)).collect()
}

fn read(notes: &str) -> Context {
    extract(notes, Some(Weekday::Thursday))
}

/// An event's hour without am/pm is in the event's half of the day; every "<event> at
/// <hour>" is a fixed-time commitment.
#[test]
fn events_at_a_bare_hour_both_ways() {
    let table: &[(&str, &[(Minute, Minute)])] = &[
        ("family dinner at 7", &[(1140, 1170)]),
        ("dinner 7:30", &[(1170, 1200)]),
        ("drinks w/ Sam 6:30", &[(1110, 1140)]),
        ("dinner 7-9", &[(1140, 1260)]),
        ("date night at 8", &[(1200, 1230)]),
        ("breakfast meeting at 6", &[(360, 390)]),
        ("pick up kids 3:15", &[(915, 945)]),
        ("gym 6-7", &[(1080, 1140)]),
        ("soccer practice 5:30", &[(1050, 1080)]),
        ("piano lesson at 4", &[(960, 990)]),
        ("1:1 w/ boss 10", &[(600, 630)]),
        ("movie at 9", &[(1260, 1290)]),
        ("coffee w/ Li 10:30", &[(630, 660)]),
        ("kids' recital 6:30pm", &[(1110, 1140)]),
        // Written with am/pm or as 24-hour: as written.
        ("dinner 7am", &[(420, 450)]),
        ("dinner at 08:00", &[(480, 510)]),
        ("dinner at 11:00", &[(1380, 1410)]),
        ("breakfast at 16:00", &[(960, 990)]),
        // Not an evening event: the 7–11 morning rule stands.
        ("standup at 9", &[(540, 570)]),
        ("lunch at 1", &[(780, 810)]),
    ];
    for (notes, blocks) in table {
        let cx = read(notes);
        assert_eq!(spans(&cx.blocks), *blocks, "{notes}");
        assert!(cx.tasks.is_empty(), "{notes}: {:?}", cx.tasks);
    }
    // An evening stop: "bed by 11" is 23:00, not 11 AM.
    assert_eq!(read("bed by 11").window_end, Some(1380));
}

/// Every "<verb of finishing or leaving> at/by <hour>" is the end of the day.
#[test]
fn ends_of_the_day_both_ways() {
    let table: &[(&str, Option<Minute>, Option<Minute>)] = &[
        ("in at 8:30, done at 4", Some(510), Some(960)),
        ("desk from 9, finish by 6", Some(540), Some(1080)),
        ("off at 5", None, Some(1020)),
        ("online 21:00, off at 03:30", Some(1260), Some(1650)),
        ("I'm off at 5:30", None, Some(1050)),
        ("knock off at 4", None, Some(960)),
        ("heading out by 5", None, Some(1020)),
        ("quit at 5:30", None, Some(1050)),
        ("close the laptop by 6", None, Some(1080)),
        ("airport by 4", None, Some(960)),
        ("start 9, call it a day at 5", Some(540), Some(1020)),
        ("finished by 5:30 latest", None, Some(1050)),
        // Not the end of the day: a task's deadline, a drop-off, a kickoff.
        ("drop off at 8:15", None, None),
        ("kick off at 9", None, None),
    ];
    for (notes, start, end) in table {
        let cx = read(notes);
        assert_eq!(cx.window_start, *start, "{notes}: start");
        assert_eq!(cx.window_end, *end, "{notes}: end");
    }
    // A meeting word in a parenthesised remark does not make two windows a meeting.
    let cx = read("available 8-12 and again 14:00-18:00 (recital in between)");
    assert_eq!((cx.window_start, cx.window_end), (Some(480), Some(1080)));
    assert_eq!(spans(&cx.blocks), [(720, 840)]);
    let cx = read("- finish the deck by 3");
    assert_eq!(cx.window_end, None);
    assert!(cx.tasks[0].must);
}

/// A word of being at work alone before one time starts the day.
#[test]
fn presence_starts_the_day_both_ways() {
    let table: &[(&str, Option<Minute>)] = &[
        ("online 21:00", Some(1260)),
        ("in 8:30", Some(510)),
        ("desk 9", Some(540)),
        ("at my desk by 8:45 sharp", Some(525)),
        ("online tonight from 9", Some(1260)),
        // Not a start: a meeting, a task, the office's range is the window.
        ("in court 9:30", None),
        ("in 8:30 to prep the deck", None),
    ];
    for (notes, start) in table {
        assert_eq!(read(notes).window_start, *start, "{notes}");
    }
    let cx = read("office 8-4");
    assert_eq!((cx.window_start, cx.window_end), (Some(480), Some(960)));
}

/// Priorities: P1, high priority, urgent, ASAP are must-dos; P2, nice to have are not.
#[test]
fn priorities_both_ways() {
    for (line, task, must) in [
        ("- P1: finish the Halvorsen proposal", true, true),
        ("- call Priya re the lease (high priority)", true, true),
        ("- URGENT: patch the billing job", true, true),
        ("- write up INC-2207 — ASAP", true, true),
        ("- fix the export (priority: high)", true, true),
        ("- fix the expense export (P2)", true, false),
        ("- review the budget — medium priority", true, false),
        ("- update the onboarding doc — nice to have", false, false),
        ("- tidy the runbook — low priority", false, false),
    ] {
        let cx = read(line);
        assert_eq!(cx.tasks.len(), usize::from(task), "{line}");
        if task {
            assert_eq!(cx.tasks[0].must, must, "{line}");
        }
    }
}

/// Days: due on today's weekday is due today; a later day as the remark after a dash is
/// when the task is done; a later event the work is for keeps it today's.
#[test]
fn days_both_ways() {
    // Today is Thursday. (line, today's task, must-do)
    for (line, task, must) in [
        ("- send invoices to Brightwater — due Thu", true, true),
        ("- send invoices by Thursday", true, true),
        ("- send invoices — due Fri", false, false),
        ("- reply to the auditors — tomorrow morning", false, false),
        ("- reply to the auditors (tomorrow)", false, false),
        ("- book the venue, Monday", false, false),
        ("- prep slides for Friday's board review", true, false),
        ("- finish the page — goes live tomorrow", true, false),
        ("- finish the page — tomorrow's launch", true, false),
    ] {
        let cx = read(line);
        assert_eq!(cx.tasks.len(), usize::from(task), "{line}");
        if task {
            assert_eq!(cx.tasks[0].must, must, "{line}");
        }
    }
}

/// Fail closed: a time no rule places is reported, not dropped; a remark about the past
/// and a deadline are not.
#[test]
fn unplaced_times_both_ways() {
    let table: &[(&str, &[Minute])] = &[
        ("report at 4", &[960]),
        ("plumber coming 10-12", &[600]),
        ("plumber 3pm", &[900]),
        ("plumber 7pm", &[1140]),
        ("online 21:00, plumber 22:30", &[1350]),
        ("in 8:30, kids 3:15", &[915]),
        // Beside a meeting, a single time is the meeting's.
        ("standup 9:15-9:30, kids 3:15", &[]),
        // Read by a rule, or not an appointment.
        ("family dinner at 7", &[]),
        ("yoga 6pm", &[]),
        ("kids' recital 3pm", &[]),
        ("woke at 6 again", &[]),
        ("standup 9:15-9:30, send the deck by 3pm", &[]),
        ("online 21:00, clocks go back at 3am", &[]),
    ];
    for (notes, unread) in table {
        let cx = read(notes);
        let got: Vec<Minute> = cx.unread.iter().map(|b| b.start).collect();
        assert_eq!(got, *unread, "{notes}");
    }
}

/// Leaving at a single time, said informally or as the trip itself, ends the working
/// window as a hard stop; an arrival, an absence with an end, or a task is not a departure.
#[test]
fn departures_end_the_day_both_ways() {
    type Row<'a> = (
        &'a str,
        Option<Minute>,
        Option<Minute>,
        &'a [(Minute, Minute)],
    );
    let table: &[Row] = &[
        ("Gotta bounce at 1pm", None, Some(780), &[]),
        ("gotta bounce at 1", None, Some(780), &[]),
        ("Out from 1pm (flight)", None, Some(780), &[]),
        ("Flight at 1pm", None, Some(780), &[]),
        ("head out at 3", None, Some(900), &[]),
        ("leaving around 4:30", None, Some(990), &[]),
        ("gone from 2pm", None, Some(840), &[]),
        ("gone after 3", None, Some(900), &[]),
        ("out after 4", None, Some(960), &[]),
        ("catch the train at 5:40", None, Some(1060), &[]),
        ("my flight to Denver at 6pm", None, Some(1080), &[]),
        ("train to Boston 5:40pm", None, Some(1060), &[]),
        ("in at 8:30, duck out at 3:30", Some(510), Some(930), &[]),
        ("working 9-5, out from 1pm", Some(540), Some(780), &[]),
        ("My flight is at 1pm", None, Some(780), &[]),
        ("my flight's at 1pm", None, Some(780), &[]),
        ("Boarding at 1pm", None, Some(780), &[]),
        ("boarding starts at 12:40pm", None, Some(760), &[]),
        ("Gotta run at 1pm", None, Some(780), &[]),
        ("in at 9:00, have to dash by 3pm", Some(540), Some(900), &[]),
        // Called off: no end of the day, no block.
        ("flight cancelled", None, None, &[]),
        ("no longer leaving at 3", None, None, &[]),
        ("the 3pm flight is cancelled", None, None, &[]),
        ("gotta bounce at 1pm — cancelled", None, None, &[]),
        // Not a departure: an absence with an end, an arrival, a pickup.
        ("out from 12-1pm", None, None, &[(720, 780)]),
        ("flight lands at 3pm", None, None, &[(900, 930)]),
        (
            "pick up Dad from his flight at 3",
            None,
            None,
            &[(900, 930)],
        ),
    ];
    for (notes, start, end, blocks) in table {
        let cx = read(notes);
        assert_eq!(cx.window_start, *start, "{notes}: start");
        assert_eq!(cx.window_end, *end, "{notes}: end");
        assert_eq!(spans(&cx.blocks), *blocks, "{notes}: blocks");
        assert!(cx.tasks.is_empty(), "{notes}: {:?}", cx.tasks);
        assert_eq!(cx.hard_stop, end.is_some(), "{notes}: hard stop");
    }
    // Tasks stay tasks.
    for notes in [
        "- Book the train to Munich",
        "- bounce the idea off Dana",
        "- need to run the numbers at 3",
        "- rebook the cancelled flight",
    ] {
        let cx = read(notes);
        assert_eq!(cx.window_end, None, "{notes}");
        assert_eq!(cx.tasks.len(), 1, "{notes}");
    }
}

/// A not-before limit in a task's remark is when that task may start: the task stays a
/// task (not a must-do) and the day's start does not move; said of the day, it starts it.
#[test]
fn a_task_limit_is_not_the_start_of_the_day_both_ways() {
    // (notes, start of the day, tasks)
    let table: &[(&str, Option<Minute>, usize)] = &[
        (
            "- [ ] Run the payroll export (can't start before 13:30, bank file lands then)",
            None,
            1,
        ),
        ("- run the payroll export — not before 2pm", None, 1),
        ("- run the payroll export (can't before 2)", None, 1),
        ("not before 10", Some(600), 0),
        ("I'm not starting before 9", Some(540), 0),
        ("can't start before 8:30", Some(510), 0),
    ];
    for (notes, start, tasks) in table {
        let cx = read(notes);
        assert_eq!(cx.window_start, *start, "{notes}");
        assert_eq!(cx.tasks.len(), *tasks, "{notes}: {:?}", cx.tasks);
        assert!(cx.tasks.iter().all(|t| !t.must), "{notes}: {:?}", cx.tasks);
    }
}
