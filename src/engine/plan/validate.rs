//! One function per plan rule kind, each a `Part` of the plan `validation`
//! object, and `combine`, which decides `validation.status` by the decision rule
//! (docs/contracts.md, Plan validation). Here: the shared helpers, `plan_schema`,
//! `feasibility` and `combine`; `time_budget` is in `validate_time.rs`, `constraints`
//! and `coverage` in `validate_constraints.rs`.

use super::{Analysis, Metric, Part, Spot};
use crate::model::{Validation, ValidationMetrics, ValidationStatus, Verdict};

#[path = "validate_constraints.rs"]
mod constraints;
#[path = "validate_time.rs"]
mod time;
pub use constraints::{constraints, coverage};
pub use time::{Availability, availability, place_foreign, real_range_minutes, time_budget};

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
#[path = "validate_notes_tests.rs"]
mod notes_tests;
#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
