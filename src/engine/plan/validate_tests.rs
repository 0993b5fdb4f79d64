use super::*;
use crate::engine::plan::analyze;

pub(super) const NOTES: &str = "- Standup 9:30-9:45\n- Lunch with Priya 12-1pm\n- Hard stop at 3 PM today (school pickup)\n- MUST finish the Q3 budget summary for Acme\n- Email Dana about the invoice\n- Review the vendor contract\n- Book flights for Berlin\n";

pub(super) fn doc(current: &str, plan: &str) -> String {
    format!("---\ncurrent_time: \"{current}\"\ntimezone: America/Toronto\n---\n{plan}")
}

pub(super) fn run(text: &str, notes: Option<&str>) -> Analysis {
    let start = text.find("\n---\n").map(|i| i + 5).unwrap_or(0);
    analyze(text, (start, text.len()), notes)
}

pub(super) fn json_plan(items: &[(&str, i64)]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(t, m)| format!(r#"{{"task":"{t}","timebox_minutes":{m},"why":"w"}}"#))
        .collect();
    format!(
        r#"{{"plan":[{}],"assumptions":[],"questions":[],"confidence":"high"}}"#,
        items.join(",")
    )
}

pub(super) fn all(a: &Analysis) -> Validation {
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
