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
        // A time no rule placed, with no end of the day: it may be when the day ends
        // ("boarding 1pm"), so the budget is not passed unjudged.
        if let Some(u) = unread_open(cx, now.as_ref()) {
            return unknown(metrics, vec![unread_open_error(u)], String::new());
        }
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
    if let Some(u) = unread_inside(cx, &av) {
        return unknown(metrics, vec![unread_error(u)], String::new());
    }
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

/// A notes line with a time no rule reads, inside the working day: the available time is
/// not known (it may be an appointment), so the time math fails closed on it.
fn unread_inside<'a>(cx: &'a Context, av: &Availability) -> Option<&'a Block> {
    cx.unread
        .iter()
        .find(|u| av.start < u.start && u.start < av.end)
}

/// A notes line with a time no rule reads when the notes give no end of the day: the
/// first one not before the start of the day (now, or the stated start), if any.
fn unread_open<'a>(cx: &'a Context, now: Option<&Now>) -> Option<&'a Block> {
    let start = now.map(Now::minute).max(cx.window_start);
    cx.unread.iter().find(|u| start.is_none_or(|s| u.start > s))
}

fn unread_open_error(u: &Block) -> String {
    format!(
        "Notes could not be read: “{}” gives a time ({}) that no rule reads, and the notes give no end of the day: it may be when the day ends (a flight, leaving); write the stop (“leave at 1pm”) or an appointment with a meeting word so the available time can be worked out",
        u.label.trim(),
        label(u.start)
    )
}

fn unread_error(u: &Block) -> String {
    format!(
        "Notes could not be read: “{}” gives a time ({}) inside the working day that no rule reads; write an appointment with a meeting word or a range (“dinner 7–8pm”) so the available time can be worked out",
        u.label.trim(),
        label(u.start)
    )
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
    let declared = (cx.blocks.len()
        + cx.meeting_rules.len()
        + musts.len()
        + usize::from(cx.window_end.is_some())) as u32;
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
        // An item that is the appointment itself, inside its window ("2:00–2:30 Call with
        // Nani" for "call w/ Nani 2pm-2:30"), keeps it rather than breaking it.
        let attends = |b: &Block| {
            b.start <= t.start
                && end <= b.end
                && super::appointment::is_the_appointment(&it.task, &b.label)
        };
        if let Some(b) = cx
            .blocks
            .iter()
            .find(|b| overlaps(t.start, end, b) && !attends(b))
        {
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
        } else if let Some(start) = cx.window_start.filter(|&s| t.start < s) {
            // "in at 9", "not before 10": work before the day starts is outside it too.
            availability_broken = true;
            errors.push(format!(
                "Scheduled {} at {}–{}, before the working day starts at {}",
                quote(&it.task),
                label(t.start),
                label(end),
                label(start)
            ));
            spots.push(item_spot(a, i, "scheduled outside the working window"));
        }
        if let Some(r) = super::context::rules::broken_rule(cx, &it.task, t.start, end) {
            violated += 1;
            errors.push(format!(
                "Scheduled {} at {}–{}, but the notes say “{}”",
                quote(&it.task),
                label(t.start),
                label(end),
                r.label
            ));
            spots.push(item_spot(a, i, "a call or meeting the notes rule out then"));
        }
    }
    let now = a.settings.now().ok().flatten().map(|(n, _)| n);
    let planned = a.plan.planned_minutes();
    if let Some(av) = availability(cx, now.as_ref())
        && planned > av.minutes
        && unread_inside(cx, &av).is_none()
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
#[path = "validate_tests.rs"]
mod tests;
