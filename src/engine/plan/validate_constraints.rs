//! `constraints` (work in a blocked window, before the start or after the stop, a
//! must-do left out, availability exceeded) and `coverage` (the notes' tasks the plan
//! covers, on normalized intents).

use std::collections::BTreeSet;

use super::super::Analysis;
use super::super::clock::{Minute, label};
use super::super::context::Block;
use super::super::intent::{covering, tokens};
use super::super::{Metric, Part};
use super::time::{availability, cutoff_words, overflow_error, unread_inside};
use super::{item_spot, no_context, part, quote, unread};
use crate::model::Verdict;

fn overlaps(s: Minute, e: Minute, b: &Block) -> bool {
    s < b.end && b.start < e
}

/// Constraints: blocked windows, must-do tasks and the stated availability.
pub fn constraints(a: &Analysis) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let Some(cx) = &a.context else {
        return no_context();
    };
    let musts: Vec<&super::super::context::Task> = cx.tasks.iter().filter(|t| t.must).collect();
    let declared = (cx.blocks.len()
        + cx.meeting_rules.len()
        + musts.len()
        + usize::from(cx.window_end.is_some())) as u32;
    let mut errors = Vec::new();
    let mut spots = Vec::new();
    let mut violated = 0u32;
    let mut availability_broken = false;
    let mut broken_windows: Vec<usize> = Vec::new();
    for (i, it) in a.plan.items.iter().enumerate() {
        let Some(t) = it.time else { continue };
        let end = t
            .end
            .unwrap_or(t.start + it.minutes.unwrap_or(0).max(0) as Minute);
        let shift = cx.on_the_night(t.start) - t.start;
        let t = super::super::clock::Found {
            start: t.start + shift,
            ..t
        };
        let end = end + shift;
        // An item that is the appointment itself, inside its window ("2:00–2:30 Call with
        // Nani" for "call w/ Nani 2pm-2:30"), keeps it rather than breaking it.
        let attends = |b: &Block| {
            b.start <= t.start
                && end <= b.end
                && super::super::appointment::is_the_appointment(&it.task, &b.label)
        };
        if let Some((k, b)) = cx
            .blocks
            .iter()
            .enumerate()
            .find(|(_, b)| overlaps(t.start, end, b) && !attends(b))
        {
            // One per window scheduled over, however many items run into it.
            if !broken_windows.contains(&k) {
                broken_windows.push(k);
                violated += 1;
            }
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
        if let Some(r) = super::super::context::rules::broken_rule(cx, &it.task, t.start, end) {
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
        return no_context();
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
