//! One function per plan rule kind, each a `Part` of the plan `validation`
//! object, and `combine`, which decides `validation.status` by the decision rule
//! (docs/contracts.md, Plan validation).

use std::collections::BTreeSet;

use super::clock::{Minute, Now, label};
use super::context::{Block, Context};
use super::intent::{covering, tokens};
use super::{Analysis, Metric, Part, Spot};
use crate::model::{Validation, ValidationMetrics, ValidationStatus, Verdict};

const NO_CONTEXT: &str = "No context to validate the plan against: name the user's notes as `source` in the front matter";

/// The part of a validator that needs the notes when there are none: fail closed.
pub(super) fn no_context() -> Part {
    part(
        Verdict::Indeterminate,
        vec![],
        vec![NO_CONTEXT.into()],
        vec![],
        String::new(),
    )
}

/// The plan could not be read: a validator that needs it is indeterminate, naming what
/// was not understood (never a confident number from a plan half read).
pub(super) fn unread(a: &Analysis) -> Option<Part> {
    if a.plan.unread.is_empty() {
        return None;
    }
    let errors = a
        .plan
        .unread
        .iter()
        .map(|u| format!("Plan could not be read: {u}"))
        .collect();
    Some(part(
        Verdict::Indeterminate,
        vec![],
        errors,
        vec![],
        String::new(),
    ))
}

fn part(
    verdict: Verdict,
    metrics: Vec<Metric>,
    errors: Vec<String>,
    spots: Vec<Spot>,
    ok: String,
) -> Part {
    let notes = if errors.is_empty() {
        ok
    } else {
        errors.join(" ")
    };
    Part {
        verdict,
        metrics,
        errors,
        advisory: false,
        spots,
        notes,
    }
}

fn quote(s: &str) -> String {
    let s = s.trim();
    let clipped: String = s.chars().take(80).collect();
    if clipped.len() < s.len() {
        format!("“{clipped}…”")
    } else {
        format!("“{clipped}”")
    }
}

fn item_spot(a: &Analysis, i: usize, note: &str) -> Spot {
    let (start, end) = a.plan.items[i].at;
    Spot {
        start,
        end,
        note: note.to_string(),
    }
}

/// `plan_schema` parameters.
#[derive(Debug, Clone)]
pub struct SchemaLimits {
    pub min_items: usize,
    pub max_items: usize,
    pub min_timebox: i64,
}

/// The self-reported confidence levels a plan may give.
pub const CONFIDENCE_LEVELS: [&str; 3] = ["low", "medium", "high"];

/// Plan schema: 3–7 items, integer timeboxes ≥ 5, `assumptions` and `questions` present,
/// `confidence` (when given) low, medium or high.
pub fn plan_schema(a: &Analysis, lim: &SchemaLimits) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let p = &a.plan;
    let mut errors: Vec<String> = p.problems.iter().map(|e| format!("Plan: {e}")).collect();
    let mut spots = Vec::new();
    let n = p.items.len();
    if n > 0 && (n < lim.min_items || n > lim.max_items) {
        errors.push(format!(
            "Plan has {n} item(s); expected {} to {}",
            lim.min_items, lim.max_items
        ));
    }
    for (i, it) in p.items.iter().enumerate() {
        let what = match (it.minutes, &it.bad_timebox) {
            (_, Some(raw)) => format!("timebox {raw} is not a whole number of minutes"),
            (None, None) => "has no timebox".to_string(),
            (Some(m), _) if m < lim.min_timebox => {
                format!(
                    "timebox {m} minutes is under the {} minute minimum",
                    lim.min_timebox
                )
            }
            _ => continue,
        };
        errors.push(format!("Item {} {} {what}", i + 1, quote(&it.task)));
        spots.push(item_spot(a, i, &what));
    }
    if let Some(c) = &p.confidence
        && !CONFIDENCE_LEVELS.contains(&c.as_str())
    {
        errors.push(format!(
            "Plan `confidence` is {}; expected low, medium or high",
            quote(c)
        ));
    }
    if p.format == super::parse::Format::Json || !p.items.is_empty() {
        for (name, present) in [
            ("assumptions", p.assumptions.is_some()),
            ("questions", p.questions.is_some()),
        ] {
            if !present {
                errors.push(format!("Plan has no `{name}` (required even if empty)"));
            }
        }
    }
    let verdict = if errors.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    part(
        verdict,
        vec![],
        errors,
        spots,
        format!("{n} items, each with a valid timebox; assumptions and questions present."),
    )
}

/// Available working minutes from now (or the window's start) to the earliest stop,
/// minus blocked windows; `None` when the notes give no end of the day or there is no
/// start to count from.
pub struct Availability {
    pub minutes: i64,
    pub start: Minute,
    pub end: Minute,
    pub blocked: i64,
    pub blocks: Vec<Block>,
}

pub fn availability(cx: &Context, now: Option<&Now>) -> Option<Availability> {
    let mut end = cx.window_end?;
    let mut now = now.cloned();
    if let Some(n) = &now {
        let m = n.minute();
        match cx.window_start {
            // 00:30 inside "online from 11:30pm … log off by 6am": count from the evening before.
            Some(ws) if end > 24 * 60 && m < ws && m + 24 * 60 <= end => {
                now = Some(n.from_day_before());
            }
            // Now 11 PM, "log off by 1am": the stop is after midnight.
            None if end < m && m - end > 12 * 60 => end += 24 * 60,
            _ => {}
        }
    }
    let start = match (now.as_ref().map(Now::minute), cx.window_start) {
        (Some(n), Some(w)) => n.max(w),
        (Some(n), None) => n,
        (None, Some(w)) => w,
        (None, None) => return None,
    };
    let clock = match now {
        Some(n) => n,
        None => Now::parse("2000-01-01T00:00", "UTC").ok()?,
    };
    let total = clock.elapsed(start, end);
    let mut blocked = 0;
    let mut covered_to = start;
    let mut inside = Vec::new();
    for b in &cx.blocks {
        let (s, e) = (b.start.max(covered_to), b.end.min(end));
        if e > s {
            blocked += clock.elapsed(s, e);
            covered_to = e;
            inside.push(b.clone());
        }
    }
    Some(Availability {
        minutes: (total - blocked).max(0),
        start,
        end,
        blocked,
        blocks: inside,
    })
}

fn cutoff_words(cx: &Context, end: Minute) -> String {
    if cx.hard_stop {
        format!("after {} cutoff", label(end))
    } else {
        format!("before the working day ends at {}", label(end))
    }
}

/// The seed's time error, shared by `time_budget` and `constraints` so it is said once.
fn overflow_error(planned: i64, av: &Availability, cx: &Context) -> String {
    if av.minutes == 0 {
        format!(
            "Planned {planned} minutes of work but no time is available {}",
            cutoff_words(cx, av.end)
        )
    } else {
        format!(
            "Planned {planned} minutes of work but only {} minutes available {}",
            av.minutes,
            cutoff_words(cx, av.end)
        )
    }
}

/// The item where the running total first goes past `available`.
fn first_over(a: &Analysis, available: i64) -> Option<usize> {
    let mut sum = 0;
    a.plan.items.iter().position(|it| {
        sum += it.minutes.unwrap_or(0).max(0);
        sum > available
    })
}

type NowResult = Result<Option<(Now, Option<String>)>, String>;

/// Time budget: planned vs available minutes; fails when availability is known and exceeded.
pub fn time_budget(a: &Analysis) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let planned = a.plan.planned_minutes();
    let mut metrics = vec![Metric::TimePlanned(planned)];
    let Some(cx) = &a.context else {
        return part(
            Verdict::Indeterminate,
            metrics,
            vec![NO_CONTEXT.into()],
            vec![],
            String::new(),
        );
    };
    let missing: Vec<&str> = [
        ("`current_time`", a.settings.current_time.is_none()),
        ("`timezone`", a.settings.timezone.is_none()),
    ]
    .into_iter()
    .filter_map(|(k, m)| m.then_some(k))
    .collect();
    // The overflow max(0, planned − available) is reported even when availability is unknown.
    let unknown = |mut metrics: Vec<Metric>, errors: Vec<String>, notes: String| {
        metrics.push(Metric::TimeAvailable(0));
        metrics.push(Metric::TimeOverflow(planned.max(0)));
        part(Verdict::Indeterminate, metrics, errors, vec![], notes)
    };
    if !missing.is_empty() {
        let err = format!(
            "Cannot do the time math: the front matter has no {} (both are required)",
            missing.join(" and ")
        );
        return unknown(metrics, vec![err], String::new());
    }
    let now: NowResult = a.settings.now();
    let (now, tz_note) = match now {
        Ok(Some((n, note))) => (Some(n), note),
        Ok(None) => (None, None),
        Err(e) => {
            return unknown(
                metrics,
                vec![format!("Cannot do the time math: {e}")],
                String::new(),
            );
        }
    };
    let Some(av) = availability(cx, now.as_ref()) else {
        let why = if cx.window_end.is_none() {
            "the notes give no working window or hard stop"
        } else {
            "there is no start of the working day"
        };
        return unknown(
            metrics,
            vec![],
            format!(
                "Available time unknown ({why}): planned {planned} minutes; overflow not judged."
            ),
        );
    };
    let overflow = (planned - av.minutes).max(0);
    metrics.push(Metric::TimeAvailable(av.minutes));
    metrics.push(Metric::TimeOverflow(overflow));
    let blocks: Vec<String> = av
        .blocks
        .iter()
        .map(|b| format!("{} {}–{}", b.label, label(b.start), label(b.end)))
        .collect();
    let mut detail = format!(
        "Available {}–{}: {} minutes, minus {} minutes blocked{} = {} minutes; planned {planned}.",
        label(av.start),
        label(av.end),
        av.minutes + av.blocked,
        av.blocked,
        if blocks.is_empty() {
            String::new()
        } else {
            format!(" ({})", blocks.join(", "))
        },
        av.minutes
    );
    if let Some(n) = tz_note {
        detail = format!("{detail} Note: {n}.");
    }
    if av.minutes > 0 && overflow > 0 {
        let err = overflow_error(planned, &av, cx);
        let spots = first_over(a, av.minutes)
            .map(|i| {
                vec![item_spot(
                    a,
                    i,
                    &format!("{err}; the plan runs out of time here"),
                )]
            })
            .unwrap_or_default();
        let mut p = part(Verdict::Fail, metrics, vec![err], spots, String::new());
        p.notes = format!("{}. {detail}", p.notes);
        return p;
    }
    part(Verdict::Pass, metrics, vec![], vec![], detail)
}

fn overlaps(s: Minute, e: Minute, b: &Block) -> bool {
    s < b.end && b.start < e
}

/// Constraints: blocked windows, must-do tasks and the stated availability.
pub fn constraints(a: &Analysis) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let Some(cx) = &a.context else {
        return part(
            Verdict::Indeterminate,
            vec![],
            vec![NO_CONTEXT.into()],
            vec![],
            String::new(),
        );
    };
    let musts: Vec<&super::context::Task> = cx.tasks.iter().filter(|t| t.must).collect();
    let declared = (cx.blocks.len() + musts.len() + usize::from(cx.window_end.is_some())) as u32;
    let mut errors = Vec::new();
    let mut spots = Vec::new();
    let mut violated = 0u32;
    let mut availability_broken = false;
    for (i, it) in a.plan.items.iter().enumerate() {
        let Some(t) = it.time else { continue };
        let end = t
            .end
            .unwrap_or(t.start + it.minutes.unwrap_or(0).max(0) as Minute);
        let shift = cx.on_the_night(t.start) - t.start;
        let t = super::clock::Found {
            start: t.start + shift,
            ..t
        };
        let end = end + shift;
        if let Some(b) = cx.blocks.iter().find(|b| overlaps(t.start, end, b)) {
            violated += 1;
            errors.push(format!(
                "Scheduled {} at {}–{}, during {} ({}–{})",
                quote(&it.task),
                label(t.start),
                label(end),
                quote(&b.label),
                label(b.start),
                label(b.end)
            ));
            spots.push(item_spot(a, i, "scheduled in a blocked window"));
        } else if let Some(stop) = cx.window_end.filter(|&s| end > s) {
            availability_broken = true;
            errors.push(format!(
                "Scheduled {} at {}–{}, {}",
                quote(&it.task),
                label(t.start),
                label(end),
                cutoff_words(cx, stop)
            ));
            spots.push(item_spot(a, i, "scheduled outside the working window"));
        }
    }
    let now = a.settings.now().ok().flatten().map(|(n, _)| n);
    let planned = a.plan.planned_minutes();
    if let Some(av) = availability(cx, now.as_ref())
        && planned > av.minutes
    {
        availability_broken = true;
        errors.push(overflow_error(planned, &av, cx));
    }
    violated += u32::from(availability_broken);
    let items: Vec<BTreeSet<String>> = a.plan.items.iter().map(|i| tokens(&i.task)).collect();
    for t in &musts {
        if covering(&tokens(&t.text), &items).is_none() {
            violated += 1;
            errors.push(format!(
                "Left out {}, which the notes say must be done today",
                quote(&t.text)
            ));
        }
    }
    let verdict = if violated == 0 {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    part(
        verdict,
        vec![
            Metric::ConstraintsDeclared(declared),
            Metric::ConstraintsViolated(violated),
        ],
        errors,
        spots,
        format!("{declared} constraint(s) in the notes, none violated."),
    )
}

/// Coverage: share of the notes' tasks the plan covers, on normalized intents.
pub fn coverage(a: &Analysis, min_ratio: f64) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let Some(cx) = &a.context else {
        return part(
            Verdict::Indeterminate,
            vec![],
            vec![NO_CONTEXT.into()],
            vec![],
            String::new(),
        );
    };
    let items: Vec<BTreeSet<String>> = a.plan.items.iter().map(|i| tokens(&i.task)).collect();
    let n = cx.tasks.len();
    if n == 0 {
        let mut p = part(
            Verdict::Indeterminate,
            vec![Metric::Coverage(1.0)],
            vec![],
            vec![],
            "No tasks found in the notes: nothing to cover.".into(),
        );
        p.verdict = Verdict::Indeterminate;
        return p;
    }
    let missing: Vec<&str> = cx
        .tasks
        .iter()
        .filter(|t| covering(&tokens(&t.text), &items).is_none())
        .map(|t| t.text.as_str())
        .collect();
    let covered = n - missing.len();
    let ratio = covered as f64 / n as f64;
    let summary = format!(
        "Plan covers {covered} of {n} tasks from the notes ({:.0}%)",
        ratio * 100.0
    );
    if ratio + 1e-9 < min_ratio {
        let list: Vec<String> = missing.iter().take(5).map(|m| quote(m)).collect();
        let err = format!(
            "{summary}, below the {:.0}% minimum; missing: {}",
            min_ratio * 100.0,
            list.join(", ")
        );
        return part(
            Verdict::Fail,
            vec![Metric::Coverage(ratio)],
            vec![err],
            vec![],
            String::new(),
        );
    }
    let tail = if missing.is_empty() {
        ".".to_string()
    } else {
        format!(
            "; not planned: {}.",
            missing
                .iter()
                .map(|m| quote(m))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    part(
        Verdict::Pass,
        vec![Metric::Coverage(ratio)],
        vec![],
        vec![],
        format!("{summary}{tail}"),
    )
}

/// `feasibility` parameters.
#[derive(Debug, Clone)]
pub struct FeasibilityLimits {
    pub max_block_minutes: i64,
    pub break_after_minutes: i64,
}

fn is_break(task: &str) -> bool {
    let t = task.to_ascii_lowercase();
    [
        "break", "lunch", "walk", "rest", "pause", "stretch", "coffee", "breather", "nap",
    ]
    .iter()
    .any(|w| t.split(|c: char| !c.is_alphanumeric()).any(|x| x == *w))
}

/// Feasibility (advisory): no block over the limit unless asked, a break in a long day.
pub fn feasibility(a: &Analysis, lim: &FeasibilityLimits) -> Part {
    if let Some(mut p) = unread(a) {
        p.advisory = true;
        return p;
    }
    let long_ok = a.context.as_ref().is_some_and(|c| c.long_block_requested);
    let mut errors = Vec::new();
    let mut spots = Vec::new();
    for (i, it) in a.plan.items.iter().enumerate() {
        match it.minutes {
            Some(m) if m > lim.max_block_minutes && !long_ok => {
                errors.push(format!(
                    "{} is one {m}-minute block, over {} minutes without a break (advisory)",
                    quote(&it.task),
                    lim.max_block_minutes
                ));
                spots.push(item_spot(a, i, "long block"));
            }
            _ => {}
        }
    }
    let planned = a.plan.planned_minutes();
    if planned >= lim.break_after_minutes && !a.plan.items.iter().any(|i| is_break(&i.task)) {
        errors.push(format!(
            "{planned} minutes planned with no break (advisory)"
        ));
    }
    let flags = errors.len() as u32;
    let verdict = if flags == 0 {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    let mut p = part(
        verdict,
        vec![Metric::FeasibilityFlags(flags)],
        errors,
        spots,
        "No humanly impossible blocks.".into(),
    );
    p.advisory = true;
    p
}

/// The `validation` object from the parts of a report's plan validators: metrics from
/// each, errors from the gates, and the decision rule's verdict (a gate that could not be evaluated
/// fails the plan: fail closed).
pub fn combine<'a>(parts: impl IntoIterator<Item = &'a Part>) -> Option<Validation> {
    let mut metrics = ValidationMetrics::default();
    let mut errors: Vec<String> = Vec::new();
    let mut any = false;
    let mut gate_failed = false;
    for p in parts {
        any = true;
        for m in &p.metrics {
            m.set(&mut metrics);
        }
        if p.advisory {
            continue;
        }
        gate_failed |= !p.errors.is_empty();
        for e in &p.errors {
            if !errors.contains(e) {
                errors.push(e.clone());
            }
        }
    }
    if !any {
        return None;
    }
    let status = if gate_failed {
        ValidationStatus::Fail
    } else {
        ValidationStatus::Pass
    };
    Some(Validation {
        status,
        errors,
        metrics,
    })
}

#[cfg(test)]
mod tests {
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
        let text = format!(
            "---\ncurrent_time: \"2026-03-08T00:00\"\ntimezone: America/Toronto\n---\n{plan}"
        );
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
}
