use super::*;
use crate::engine::plan::analyze;

const NOTES: &str = "- Standup 9:30-9:45\n- Lunch with Priya 12-1pm\n- Hard stop at 3 PM today (school pickup)\n- MUST finish the Q3 budget summary for Acme\n- Email Dana about the invoice\n- Review the vendor contract\n- Book flights for Berlin\n";

fn doc(current: &str, plan: &str) -> String {
    format!("---\ncurrent_time: \"{current}\"\ntimezone: America/Toronto\n---\n{plan}")
}

fn run(text: &str, notes: Option<&str>) -> Analysis {
    let start = text.find("\n---\n").map(|i| i + 5).unwrap_or(0);
    analyze(text, (start, text.len()), notes)
}

fn json_plan(items: &[(&str, i64)]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(t, m)| format!(r#"{{"task":"{t}","timebox_minutes":{m},"why":"w"}}"#))
        .collect();
    format!(
        r#"{{"plan":[{}],"assumptions":[],"questions":[],"confidence":"high"}}"#,
        items.join(",")
    )
}

fn all(a: &Analysis) -> Validation {
    let parts = [
        plan_schema(
            a,
            &SchemaLimits {
                min_items: 3,
                max_items: 7,
                min_timebox: 5,
            },
        ),
        time_budget(a),
        constraints(a),
        coverage(a, 0.7),
        crate::engine::plan::grounded::grounded_entities(a),
        feasibility(
            a,
            &FeasibilityLimits {
                max_block_minutes: 180,
                break_after_minutes: 240,
            },
        ),
    ];
    combine(&parts).unwrap()
}

#[test]
fn seed_example_overflow_after_a_3_pm_cutoff() {
    // 9 AM to 3 PM is 360 minutes; standup 15 and lunch 60 leave 285.
    let plan = json_plan(&[
        ("Finish Q3 budget summary for Acme", 180),
        ("Email Dana about the invoice", 30),
        ("Review vendor contract", 60),
        ("Book Berlin flights", 30),
        ("Lunch break", 15),
    ]);
    let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), Some(NOTES));
    let v = all(&a);
    assert_eq!(v.metrics.time_planned_minutes, 315);
    assert_eq!(v.metrics.time_available_minutes, 285);
    assert_eq!(v.metrics.time_overflow_minutes, 30);
    assert_eq!(v.status, ValidationStatus::Fail);
    assert_eq!(
        v.errors,
        ["Planned 315 minutes of work but only 285 minutes available after 3 PM cutoff"]
    );
    // Availability is one declared constraint, and it is exceeded.
    assert_eq!(v.metrics.constraints_declared, 4);
    assert_eq!(v.metrics.constraints_violated, 1);
    assert_eq!(v.metrics.context_coverage_ratio, 1.0);
    assert!(!v.metrics.passes_decision_rule());
}

#[test]
fn later_start_means_less_time() {
    // From 1 PM: lunch is over, 120 minutes to the cutoff.
    let plan = json_plan(&[
        ("Q3 budget summary for Acme", 60),
        ("Email Dana invoice", 30),
        ("Review vendor contract", 30),
    ]);
    let a = run(&doc("2026-06-01T13:00:00-04:00", &plan), Some(NOTES));
    let v = all(&a);
    assert_eq!(v.metrics.time_available_minutes, 120);
    assert_eq!(v.metrics.time_overflow_minutes, 0);
    // Coverage 3/4 = 0.75 passes.
    assert!((v.metrics.context_coverage_ratio - 0.75).abs() < 1e-9);
    assert_eq!(v.status, ValidationStatus::Pass, "{:?}", v.errors);
}

#[test]
fn utc_current_time_is_read_in_the_users_zone() {
    // 13:00Z is 9 AM in Toronto in June (EDT).
    let plan = json_plan(&[
        ("Q3 budget summary for Acme", 60),
        ("Email Dana invoice", 30),
        ("Review vendor contract", 30),
    ]);
    let a = run(&doc("2026-06-01T13:00:00Z", &plan), Some(NOTES));
    assert_eq!(all(&a).metrics.time_available_minutes, 285);
}

#[test]
fn must_do_left_out_and_blocked_window_are_violations() {
    let plan = "# Plan\n- 12:00-13:00 Review vendor contract (60 min)\n- Email Dana about the invoice (30 min)\n- Book Berlin flights (30 min)\n\n## Assumptions\n- none\n## Questions\n- none\nConfidence: high\n";
    let a = run(&doc("2026-06-01T09:00:00-04:00", plan), Some(NOTES));
    let v = all(&a);
    assert_eq!(v.metrics.constraints_violated, 2);
    assert_eq!(v.status, ValidationStatus::Fail);
    assert!(
        v.errors.iter().any(|e| e == "Scheduled “Review vendor contract” at 12 PM–1 PM, during “Lunch with Priya” (12 PM–1 PM)"),
        "{:?}",
        v.errors
    );
    assert!(
        v.errors.iter().any(|e| e == "Left out “MUST finish the Q3 budget summary for Acme”, which the notes say must be done today"),
        "{:?}",
        v.errors
    );
    // 3 of 4 tasks covered: coverage alone would pass.
    assert!((v.metrics.context_coverage_ratio - 0.75).abs() < 1e-9);
}

#[test]
fn low_coverage_fails_naming_what_is_missing() {
    let plan = json_plan(&[
        ("Q3 budget summary for Acme", 60),
        ("Inbox zero", 30),
        ("Tidy desk", 15),
    ]);
    let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), Some(NOTES));
    let v = all(&a);
    assert!((v.metrics.context_coverage_ratio - 0.25).abs() < 1e-9);
    assert_eq!(
        v.errors,
        [
            "Plan covers 1 of 4 tasks from the notes (25%), below the 70% minimum; missing: “Email Dana about the invoice”, “Review the vendor contract”, “Book flights for Berlin”"
        ]
    );
}

#[test]
fn schema_errors_fail_the_plan() {
    let a = run(
        &doc(
            "2026-06-01T09:00:00-04:00",
            r#"{"plan":[{"task":"Acme Q3 budget summary","timebox_minutes":3},{"task":"Email Dana invoice","timebox_minutes":"soon"}]}"#,
        ),
        Some(NOTES),
    );
    let p = plan_schema(
        &a,
        &SchemaLimits {
            min_items: 3,
            max_items: 7,
            min_timebox: 5,
        },
    );
    assert_eq!(p.verdict, Verdict::Fail);
    assert_eq!(
        p.errors,
        [
            "Plan has 2 item(s); expected 3 to 7",
            "Item 1 “Acme Q3 budget summary” timebox 3 minutes is under the 5 minute minimum",
            "Item 2 “Email Dana invoice” timebox \"soon\" is not a whole number of minutes",
            "Plan has no `assumptions` (required even if empty)",
            "Plan has no `questions` (required even if empty)",
        ]
    );
    assert_eq!(all(&a).status, ValidationStatus::Fail);
}

#[test]
fn feasibility_is_advisory() {
    let notes = "Working 9-5\n- Write the grant proposal\n- Email Dana\n- Call the bank";
    let plan = json_plan(&[
        ("Write grant proposal", 200),
        ("Email Dana", 20),
        ("Call bank", 30),
    ]);
    let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), Some(notes));
    let v = all(&a);
    assert_eq!(v.metrics.human_feasibility_flags, 2);
    assert_eq!(v.status, ValidationStatus::Pass, "{:?}", v.errors);
    assert!(v.errors.is_empty());
    // Asked for: no flag for the long block.
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", &plan),
        Some(&format!("{notes}\nI want one long block of deep work")),
    );
    assert_eq!(all(&a).metrics.human_feasibility_flags, 1);
}

#[test]
fn unknown_availability_is_not_an_overflow() {
    let notes = "- Write the grant proposal\n- Email Dana\n- Call the bank";
    let plan = json_plan(&[
        ("Write grant proposal", 120),
        ("Email Dana", 20),
        ("Call bank", 30),
    ]);
    let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), Some(notes));
    let t = time_budget(&a);
    assert_eq!(t.verdict, Verdict::Indeterminate);
    let v = all(&a);
    assert_eq!(v.metrics.time_available_minutes, 0);
    assert_eq!(v.metrics.time_planned_minutes, 170);
    // max(0, planned − available) is reported; the decision rule does not judge it.
    assert_eq!(v.metrics.time_overflow_minutes, 170);
    assert_eq!(v.status, ValidationStatus::Pass);
}

#[test]
fn without_notes_the_plan_fails_closed() {
    let plan = json_plan(&[("A thing", 30), ("B thing", 30), ("C thing", 30)]);
    let a = run(&doc("2026-06-01T09:00:00-04:00", &plan), None);
    let v = all(&a);
    assert_eq!(v.status, ValidationStatus::Fail);
    assert!(v.errors[0].starts_with("No context"), "{:?}", v.errors);
    assert_eq!(v.errors.len(), 1, "said once: {:?}", v.errors);
}

#[test]
fn huge_inputs_are_bounded() {
    let notes: String = (0..20_000)
        .map(|i| {
            format!(
                "- Task number{i} alpha\n- Meeting {}:00-{}:30\n",
                9 + i % 8,
                9 + i % 8
            )
        })
        .collect();
    let items: Vec<(String, i64)> = (0..20_000)
        .map(|i| (format!("Task number{i} alpha"), 10))
        .collect();
    let items: Vec<(&str, i64)> = items.iter().map(|(t, m)| (t.as_str(), *m)).collect();
    let a = run(
        &doc("2026-06-01T09:00:00-04:00", &json_plan(&items)),
        Some(&notes),
    );
    assert_eq!(a.plan.items.len(), crate::engine::plan::parse::MAX_ITEMS);
    let cx = a.context.as_ref().unwrap();
    assert_eq!(cx.tasks.len(), crate::engine::plan::context::MAX_EXTRACTED);
    let v = all(&a);
    assert_eq!(v.status, ValidationStatus::Fail);
    assert!(
        v.errors
            .iter()
            .any(|e| e.starts_with("Plan has 200 item(s)")),
        "{:?}",
        &v.errors[..3]
    );
}

#[test]
fn dst_day_has_an_hour_less() {
    // 2026-03-08 in Toronto: clocks go 2 AM → 3 AM. From midnight to a 4 AM stop is 3 hours.
    let notes = "hard stop at 4am\n- Ship the release\n- Write notes\n- Email Dana";
    let plan = json_plan(&[
        ("Ship release", 120),
        ("Write notes", 45),
        ("Email Dana", 15),
    ]);
    let text =
        format!("---\ncurrent_time: \"2026-03-08T00:00\"\ntimezone: America/Toronto\n---\n{plan}");
    let a = run(&text, Some(notes));
    let v = all(&a);
    assert_eq!(v.metrics.time_available_minutes, 180);
    assert_eq!(v.metrics.time_overflow_minutes, 0);
    let text = text.replace("America/Toronto", "Asia/Tokyo");
    assert_eq!(
        all(&run(&text, Some(notes))).metrics.time_available_minutes,
        240
    );
}

#[test]
fn missing_current_time_or_timezone_fails_closed() {
    let plan = json_plan(&[
        ("Q3 budget summary for Acme", 60),
        ("Email Dana invoice", 30),
        ("Review vendor contract", 30),
    ]);
    for (head, missing) in [
        ("", "`current_time` and `timezone`"),
        ("timezone: America/Toronto\n", "`current_time`"),
        (
            "current_time: \"2026-06-01T09:00:00-04:00\"\n",
            "`timezone`",
        ),
    ] {
        let text = format!("---\n{head}x: 1\n---\n{plan}");
        let a = run(&text, Some(NOTES));
        let t = time_budget(&a);
        assert_eq!(t.verdict, Verdict::Indeterminate);
        assert_eq!(
            t.errors,
            [format!(
                "Cannot do the time math: the front matter has no {missing} (both are required)"
            )]
        );
        let v = all(&a);
        assert_eq!(v.status, ValidationStatus::Fail, "{head}");
        assert_eq!(v.metrics.time_available_minutes, 0);
        assert_eq!(v.metrics.time_overflow_minutes, 120);
    }
}

#[test]
fn confidence_is_low_medium_or_high() {
    let lim = SchemaLimits {
        min_items: 3,
        max_items: 7,
        min_timebox: 5,
    };
    let plan = json_plan(&[("A a", 30), ("B b", 30), ("C c", 30)]);
    for (level, ok) in [
        ("high", true),
        ("Medium", true),
        ("very high", false),
        ("0.9", false),
    ] {
        let text = plan.replace(
            "\"confidence\":\"high\"",
            &format!("\"confidence\":\"{level}\""),
        );
        let a = run(&doc("2026-06-01T09:00:00-04:00", &text), Some(NOTES));
        assert_eq!(
            plan_schema(&a, &lim).verdict == Verdict::Pass,
            ok,
            "{level}"
        );
    }
    let md = "- A a (30 min)\n- B b (30 min)\n- C c (30 min)\n## Assumptions\n## Questions\n**Confidence:** very high\n";
    let a = run(&doc("2026-06-01T09:00:00-04:00", md), Some(NOTES));
    assert_eq!(
        plan_schema(&a, &lim).errors,
        ["Plan `confidence` is “very high”; expected low, medium or high"]
    );
}

/// A short notes line with a time no rule reads fails the time math closed when the time
/// falls inside the working day, and names the line; outside the day it changes nothing.
#[test]
fn an_unread_notes_time_inside_the_day_fails_closed() {
    let plan = json_plan(&[
        ("Draft the brief", 60),
        ("Email Dana invoice", 30),
        ("Review vendor contract", 30),
    ]);
    let notes = |extra: &str| {
        format!(
            "working 9-5\n{extra}\n- Draft the brief\n- Email Dana about the invoice\n- Review the vendor contract\n"
        )
    };
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
    let plan = json_plan(&[
        ("Draft the brief", 60),
        ("Email Dana invoice", 120),
        ("Review vendor contract", 90),
    ]);
    let notes = |extra: &str| {
        format!(
            "working 9-5\n{extra}\n- Draft the brief\n- Email Dana about the invoice\n- Review the vendor contract\n"
        )
    };
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
}

/// With only a start of the day in the notes, a departure the reader knows ends the day;
/// a short line with a time no rule reads leaves the budget indeterminate, naming the
/// line, rather than passing it unjudged. A time before the start, a read appointment or a
/// remark about the past changes nothing (availability stays unknown, not an error).
#[test]
fn with_no_end_of_the_day_an_unread_time_fails_closed() {
    let plan = json_plan(&[
        ("Draft the brief", 60),
        ("Email Dana invoice", 120),
        ("Review vendor contract", 90),
    ]);
    let notes = |extra: &str| {
        format!(
            "in at 9\n{extra}\n- Draft the brief\n- Email Dana about the invoice\n- Review the vendor contract\n"
        )
    };
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
