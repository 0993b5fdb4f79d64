//! The generation prompt: the variant's template with the scenario's fields in place, and
//! for every strategy but `naive` the constraints the notes reader extracts from the notes.

use super::{Scenario, Variant};
use crate::engine::plan::clock::label;
use crate::evaluator::CheckPrompt;
use crate::evaluator::generate::GENERATE_CALL_ID;

/// The system prompt when the variant gives none.
const DEFAULT_SYSTEM: &str = "You write the output the user asks for, from the material they give. Use only facts in that material: invent no meetings, deadlines, people or sources.";

pub fn build(variant: &Variant, scenario: &Scenario) -> CheckPrompt {
    let notes = scenario.notes();
    let mut user = super::variant::render(&variant.template, &|name| match name {
        "source" | "notes" => notes.to_string(),
        "prompt" => scenario.prompt.clone().unwrap_or_default(),
        "current_time" => scenario.current_time.clone().unwrap_or_default(),
        "timezone" => scenario.timezone.clone().unwrap_or_default(),
        "scenario" => scenario.name.clone(),
        _ => String::new(),
    });
    if variant.strategy.adds_constraints()
        && let Some(c) = constraints_of(scenario)
    {
        user.push_str("\n\nConstraints extracted from the notes (never violate them):\n");
        user.push_str(&c);
    }
    let system = variant.system.as_deref().unwrap_or(DEFAULT_SYSTEM);
    CheckPrompt {
        // The call id line names the call in the audit log, traces and test servers.
        check_id: GENERATE_CALL_ID.into(),
        system: format!("{}\nCheck id: {GENERATE_CALL_ID}", system.trim_end()),
        user,
        result_states: vec![],
    }
}

/// The constraints the notes reader finds (working window, hard stop, fixed blocks, tasks
/// that must be done today, every task), one per line; `None` when it finds none.
pub fn constraints_of(scenario: &Scenario) -> Option<String> {
    let text = &scenario.text;
    let body = (text.len() - scenario.notes().len(), text.len());
    let analysis = crate::engine::plan::analyze(text, body, Some(text));
    let cx = analysis.context?;
    let mut lines = Vec::new();
    match (cx.window_start, cx.window_end) {
        (Some(s), Some(e)) => lines.push(format!("- Available from {} to {}", label(s), label(e))),
        (Some(s), None) => lines.push(format!("- Available from {}", label(s))),
        (None, Some(e)) => lines.push(format!("- Available until {}", label(e))),
        (None, None) => {}
    }
    if cx.hard_stop
        && let Some(e) = cx.window_end
    {
        lines.push(format!(
            "- Hard stop at {}: plan nothing after it",
            label(e)
        ));
    }
    for b in &cx.blocks {
        lines.push(format!(
            "- Blocked {}–{}: {} (schedule no work then)",
            label(b.start),
            label(b.end),
            b.label.trim()
        ));
    }
    for r in &cx.meeting_rules {
        lines.push(format!(
            "- {} (schedule no calls or meetings then; other work is fine)",
            r.label.trim()
        ));
    }
    for t in &cx.tasks {
        let must = if t.must { " (must be done today)" } else { "" };
        lines.push(format!("- Task: {}{must}", t.text.trim()));
    }
    (!lines.is_empty()).then(|| lines.join("\n") + "\n")
}
