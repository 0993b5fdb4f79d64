//! The daily plan as `byop plan` and `POST /api/plan` answer it: the four built-in
//! PlanProof variants, and a produced plan read back, validated by its playbook and
//! described (the plan's items, its validation, how it was made).

use serde_json::{Value, json};

use super::{Produced, Scenario, Variant, document};
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::runner::run_deterministic;
use crate::model::ValidationStatus;

/// The four PlanProof variants, built in (the same files as the example dataset's).
const BUILT_IN: [(&str, &str); 4] = [
    (
        "v1_naive",
        include_str!("../../../examples/planproof/generate/variants/v1_naive/variant.toml"),
    ),
    (
        "v2_constraints",
        include_str!("../../../examples/planproof/generate/variants/v2_constraints/variant.toml"),
    ),
    (
        "v3_validator",
        include_str!("../../../examples/planproof/generate/variants/v3_validator/variant.toml"),
    ),
    (
        "v4_repair",
        include_str!("../../../examples/planproof/generate/variants/v4_repair/variant.toml"),
    ),
];

/// Characters of the notes in `debug.context_preview`.
const PREVIEW_CHARS: usize = 200;

/// The built-in variants' names.
pub fn built_in_names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|(n, _)| *n).collect()
}

/// A built-in variant by name; `None` for any other name.
pub fn built_in(name: &str) -> Option<Result<Variant, String>> {
    let (name, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
    Some(Variant::parse(
        name,
        &format!("built-in variant {name}"),
        text,
    ))
}

/// A produced plan judged: the answer's JSON and whether the plan passes.
pub struct PlanAnswer {
    pub body: Value,
    pub passed: bool,
}

/// Read `produced` back with the scenario's notes as its source, validate it under
/// `playbook` (deterministic), and describe it.
pub fn answer(
    produced: &Produced,
    scenario: &Scenario,
    playbook: &LoadedPlaybook,
) -> Result<PlanAnswer, String> {
    let doc = document(&produced.text, scenario)?;
    let report = run_deterministic(playbook, &doc);
    let plan = crate::engine::plan::parse::parse(&doc.text, doc.body);
    let items: Vec<Value> = plan
        .items
        .iter()
        .map(|i| json!({"task": i.task, "timebox_minutes": i.minutes, "why": i.why}))
        .collect();
    let meta = &produced.meta;
    let preview: String = scenario.notes().chars().take(PREVIEW_CHARS).collect();
    let body = json!({
        "plan": items,
        "assumptions": plan.assumptions.unwrap_or_default(),
        "questions": plan.questions.unwrap_or_default(),
        "confidence": plan.confidence,
        "validation": report.validation,
        "debug": {
            "variant": meta.variant,
            "strategy": meta.strategy,
            "model": meta.model,
            "request_id": meta.request_id,
            "outcome": meta.outcome,
            "repair": meta.repair,
            "errors_before_repair": produced.errors_before,
            "context_preview": preview,
            "input_tokens": meta.input_tokens,
            "output_tokens": meta.output_tokens,
        },
    });
    let passed = report
        .validation
        .as_ref()
        .is_some_and(|v| v.status == ValidationStatus::Pass);
    Ok(PlanAnswer { body, passed })
}
