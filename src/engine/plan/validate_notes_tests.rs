//! The time budget and constraints against notes the readers fail closed on or read as
//! the day's shape: a time no rule reads, a departure, the appointment itself in its
//! window, no end of the day, work before the start.

use super::tests::{NOTES, all, doc, json_plan, run};
use super::*;

/// The plan these tests share: the notes' three tasks with the given minutes each.
fn three_tasks(minutes: [i64; 3]) -> String {
    json_plan(&[
        ("Draft the brief", minutes[0]),
        ("Email Dana invoice", minutes[1]),
        ("Review vendor contract", minutes[2]),
    ])
}

/// Notes with the day's shape on the first line, one line under test, and three tasks.
fn three_task_notes(day: &str, extra: &str) -> String {
    format!(
        "{day}\n{extra}\n- Draft the brief\n- Email Dana about the invoice\n- Review the vendor contract\n"
    )
}

/// A short notes line with a time no rule reads fails the time math closed when the time
/// falls inside the working day, and names the line; outside the day it changes nothing.
#[test]
fn an_unread_notes_time_inside_the_day_fails_closed() {
    let plan = three_tasks([60, 30, 30]);
    let notes = |extra: &str| three_task_notes("working 9-5", extra);
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", &plan),
        Some(&notes("plumber 3pm")),
    );
    let t = time_budget(&a);
    assert_eq!(t.verdict, Verdict::Indeterminate);
    assert_eq!(
        t.errors,
        [
            "Notes could not be read: “plumber 3pm” gives a time (3 PM) inside the working day that no rule reads; write an appointment with a meeting word or a range (“dinner 7–8pm”) so the available time can be worked out"
        ]
    );
    let v = all(&a);
    assert_eq!(v.status, ValidationStatus::Fail);
    assert_eq!(v.metrics.time_available_minutes, 0);
    // Read, or outside the day: the time math goes ahead.
    for extra in [
        "plumber 7pm",
        "recital 3-4pm",
        "dentist 3pm",
        "so tired, slept badly, woke at 6am again",
    ] {
        let a = run(
            &doc("2026-06-01T09:00:00-04:00", &plan),
            Some(&notes(extra)),
        );
        assert_eq!(time_budget(&a).verdict, Verdict::Pass, "{extra}");
    }
}

/// Leaving at a time ends the day, however informally said: a plan that overruns it
/// fails its time budget. An arrival, an absence with an end, or a later departure does
/// not shorten the day that much.
#[test]
fn a_departure_ends_the_time_budget() {
    // 270 minutes of work from 9:00: over the 240 before 1 PM, inside the 480 before 5 PM.
    let plan = three_tasks([60, 120, 90]);
    let notes = |extra: &str| three_task_notes("working 9-5", extra);
    let table = [
        ("Gotta bounce at 1pm", Verdict::Fail, 240),
        ("- Out from 1pm (flight)", Verdict::Fail, 240),
        ("Flight at 1pm", Verdict::Fail, 240),
        ("heading out at 1", Verdict::Fail, 240),
        ("gotta bounce at 5pm", Verdict::Pass, 480),
        ("flight lands at 3pm", Verdict::Pass, 450),
        ("out from 12-1pm", Verdict::Pass, 420),
        ("My flight is at 1pm", Verdict::Fail, 240),
        ("Boarding at 1pm", Verdict::Fail, 240),
        ("Gotta run at 1pm", Verdict::Fail, 240),
        // Called off: the day keeps its end.
        ("flight cancelled", Verdict::Pass, 480),
        ("no longer leaving at 1", Verdict::Pass, 480),
        ("the 1pm flight is cancelled", Verdict::Pass, 480),
    ];
    for (extra, verdict, available) in table {
        let a = run(
            &doc("2026-06-01T09:00:00-04:00", &plan),
            Some(&notes(extra)),
        );
        let t = time_budget(&a);
        assert_eq!(t.verdict, verdict, "{extra}: {:?}", t.errors);
        assert_eq!(all(&a).metrics.time_available_minutes, available, "{extra}");
    }
}

/// An item that is the appointment itself, inside its window, keeps it; work during it, work
/// about it, or the appointment spilling past its window breaks it.
#[test]
fn the_appointment_itself_in_its_window_is_not_a_violation() {
    let violated = |item: &str| {
        let plan = format!(
            "# Plan\n- {item}\n- Email Dana about the invoice (30 min)\n\n## Assumptions\n- none\n## Questions\n- none\nConfidence: high\n"
        );
        let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), Some(NOTES));
        all(&a).metrics.constraints_violated
    };
    // The must-do is left out in every row: one violation is the floor.
    assert_eq!(violated("12:00-13:00 Lunch with Priya (60 min)"), 1);
    assert_eq!(violated("12:00-12:45 Quick lunch with Priya (45 min)"), 1);
    assert_eq!(violated("9:30-9:45 Standup (15 min)"), 1);
    assert_eq!(violated("12:00-13:00 Review vendor contract (60 min)"), 2);
    assert_eq!(
        violated("12:00-12:30 Prep for the lunch with Priya (30 min)"),
        2
    );
    assert_eq!(violated("12:00-13:30 Lunch with Priya (90 min)"), 2);
    assert_eq!(violated("9:30-9:45 Lunch with Priya (15 min)"), 2);
    // Work beside the appointment, in its window, breaks it.
    assert_eq!(
        violated("12:00-13:00 Lunch with Priya + book flights for Berlin (60 min)"),
        2
    );
    assert_eq!(
        violated("9:30-9:45 Standup / review the vendor contract (15 min)"),
        2
    );
    assert_eq!(
        violated("12:00-13:00 Working lunch — review the vendor contract (60 min)"),
        2
    );
}

#[test]
fn the_appointment_words_are_read_at_their_offsets() {
    use super::super::appointment::is_the_appointment;
    assert!(is_the_appointment(
        "Quick lunch with Priya",
        "Lunch with Priya"
    ));
    assert!(is_the_appointment("“Lunch” — Priya", "Lunch with Priya"));
    assert!(!is_the_appointment(
        "Prep for the lunch with Priya",
        "Lunch with Priya"
    ));
    assert!(!is_the_appointment(
        "Read the new privacy guidance",
        "between the working windows"
    ));
    assert!(!is_the_appointment(
        "Café’s menu — über review",
        "Lunch with Priya"
    ));
    // The remark in the appointment's name is its own: the plan may copy it.
    assert!(is_the_appointment(
        "Call with Rohan (Sharma & Co)",
        "call with Rohan (Sharma & Co)"
    ));
    assert!(!is_the_appointment(
        "Call with Rohan (Sharma & Co)",
        "call with Rohan"
    ));
    assert!(!is_the_appointment(
        "Call with Rohan (draft the Sharma contract)",
        "call with Rohan (Sharma & Co)"
    ));
}

/// With only a start of the day in the notes, a departure the reader knows ends the day;
/// a short line with a time no rule reads leaves the budget indeterminate, naming the
/// line, rather than passing it unjudged. A time before the start, a read appointment or a
/// remark about the past changes nothing (availability stays unknown, not an error).
#[test]
fn with_no_end_of_the_day_an_unread_time_fails_closed() {
    let plan = three_tasks([60, 120, 90]);
    let notes = |extra: &str| three_task_notes("in at 9", extra);
    // (extra line, verdict, available, whether the budget names an unread line)
    let table = [
        ("My flight is at 1pm", Verdict::Fail, 240, false),
        ("Boarding at 1pm", Verdict::Fail, 240, false),
        ("Gotta run at 1pm", Verdict::Fail, 240, false),
        ("Boarding gate 1pm", Verdict::Indeterminate, 0, true),
        ("plumber 3pm", Verdict::Indeterminate, 0, true),
        ("plumber 7am", Verdict::Indeterminate, 0, false),
        ("dentist 3pm", Verdict::Indeterminate, 0, false),
        (
            "so tired, woke at 6am again",
            Verdict::Indeterminate,
            0,
            false,
        ),
    ];
    for (extra, verdict, available, named) in table {
        let a = run(
            &doc("2026-06-01T08:00:00-04:00", &plan),
            Some(&notes(extra)),
        );
        let t = time_budget(&a);
        assert_eq!(t.verdict, verdict, "{extra}: {:?}", t.errors);
        let v = all(&a);
        assert_eq!(v.metrics.time_available_minutes, available, "{extra}");
        let unread = t.errors.iter().any(|e| {
            e.starts_with("Notes could not be read: ")
                && e.contains(extra)
                && e.contains("no end of the day")
        });
        assert_eq!(unread, named, "{extra}: {:?}", t.errors);
        if named {
            assert_eq!(v.status, ValidationStatus::Fail, "{extra}");
        }
    }
}

/// Work scheduled before the notes' start of the day is outside the working window, as
/// work after the stop is: one availability violation, naming the item.
#[test]
fn work_before_the_start_of_the_day_breaks_availability() {
    let plan = "- 9:00–10:00 Draft the brief\n- 10:00–11:00 Email Dana about the invoice\n- 11:00–11:30 Review the vendor contract\n\nAssumptions: none\nQuestions: none\n";
    let notes = |start: &str| {
        format!(
            "{start}\nhard stop at 5pm\n- Draft the brief\n- Email Dana about the invoice\n- Review the vendor contract\n"
        )
    };
    for (start, violated) in [
        ("in at 10", 1),
        ("not before 9:30", 1),
        ("working 9:15-5", 1),
        ("in at 9", 0),
        ("working 8-5", 0),
        ("in at 8:30", 0),
    ] {
        let a = run(&doc("2026-06-01T08:00:00-04:00", plan), Some(&notes(start)));
        let c = constraints(&a);
        assert_eq!(
            all(&a).metrics.constraints_violated,
            violated,
            "{start}: {:?}",
            c.errors
        );
        assert_eq!(
            c.errors
                .iter()
                .any(|e| e.contains("“Draft the brief”")
                    && e.contains("before the working day starts")),
            violated == 1,
            "{start}: {:?}",
            c.errors
        );
    }
}

/// An item timed by its range alone lasts the real minutes between its ends on a night the
/// clocks change, as the working window does; a duration the plan states apart from the
/// range is kept, and on an ordinary night the range is its wall-clock length.
#[test]
fn a_range_across_a_clock_change_lasts_its_real_minutes() {
    let notes = "online from 11pm, log off by 6am\n- Draft the brief\n- Review the contract\n";
    let minutes = |current: &str, line: &str| {
        let plan = format!(
            "## Plan\n\n- {line}\n- 04:00–04:30 Review the contract\n\n**Assumptions:** none\n\n**Questions:** none\n\n**Confidence:** medium\n"
        );
        let a = run(&doc(current, &plan), Some(notes));
        a.plan.items.first().and_then(|i| i.minutes)
    };
    // Toronto falls back at 2 AM on 2026-11-01: 01:45 to 03:00 holds the repeated hour.
    let fall = "2026-10-31T23:00:00-04:00";
    assert_eq!(minutes(fall, "01:45–03:00 Draft the brief"), Some(135));
    // It springs forward at 2 AM on 2026-03-08: 1:45 to 3:30 AM is 45 real minutes.
    let spring = "2026-03-07T23:00:00-05:00";
    assert_eq!(minutes(spring, "01:45–03:30 Draft the brief"), Some(45));
    // A duration of its own is kept; an ordinary night keeps the wall clock.
    assert_eq!(
        minutes(fall, "01:45–03:00 Draft the brief (60 min)"),
        Some(60)
    );
    let ordinary = "2026-06-01T23:00:00-04:00";
    assert_eq!(minutes(ordinary, "01:45–03:00 Draft the brief"), Some(75));
}

/// An appointment given only in another zone is placed in the notes' zone (4pm London in
/// June is 11am in Toronto); one whose zone the notes do not name fails the time math
/// closed, naming the line.
#[test]
fn a_time_in_another_zone_is_converted_or_fails_closed() {
    let plan = three_tasks([60, 30, 30]);
    let notes = |extra: &str| three_task_notes("working 9-5", extra);
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", &plan),
        Some(&notes("- call w/ Dana 4pm London time")),
    );
    let t = time_budget(&a);
    assert_eq!(t.verdict, Verdict::Pass, "{:?}", t.errors);
    assert_eq!(all(&a).metrics.time_available_minutes, 480 - 30);
    let cx = a.context.as_ref().unwrap();
    assert_eq!((cx.blocks[0].start, cx.blocks[0].end), (660, 690));
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", &plan),
        Some(&notes("- call w/ Dana at 4pm her time")),
    );
    let t = time_budget(&a);
    assert_eq!(t.verdict, Verdict::Indeterminate);
    assert!(
        t.errors[0].contains("“call w/ Dana” gives its time only in another zone (“4pm her time”)"),
        "{:?}",
        t.errors
    );
}

/// Two items run into one blocked window: one window broken, one violation.
#[test]
fn a_blocked_window_counts_once_however_many_items_run_into_it() {
    let plan = "- 11:00-12:30 Draft the brief (90 min)\n- 12:30-13:30 Email Dana about the invoice (60 min)\n- 13:30-14:00 Review the vendor contract (30 min)\n\n## Assumptions\n- none\n## Questions\n- none\nConfidence: high\n";
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", plan),
        Some(&three_task_notes("working 9-5", "- lunch 12-1pm")),
    );
    let c = constraints(&a);
    assert_eq!(c.errors.len(), 2, "{:?}", c.errors);
    assert_eq!(c.metrics[1], Metric::ConstraintsViolated(1));
}
