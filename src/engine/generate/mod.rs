//! Generating outputs from prompt variants (the experiment loop): a variant's template and a
//! scenario make a prompt; the evaluator's provider writes the output; by the variant's
//! strategy the deterministic checks validate it and one repair with their errors follows
//! (the existing repair step). The engine knows nothing of files: the caller reads the
//! scenarios and variants and writes what comes out.

pub mod daily;
pub mod output;
mod prompt;
pub mod variant;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::engine::document::{Companion, CompanionRole, Document, front_matter};
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::repair::{self, RepairContext};
use crate::evaluator::{Call, CallObserver, EvalError, Evaluator, ResponseCache};
use crate::model::{CallRecord, Usage, ValidationRecord};
use std::sync::Mutex;

pub use output::{GenerationMeta, compose, meta_of};
pub use prompt::{build as build_prompt, constraints_of};
pub use variant::{Strategy, Variant, VariantKeys};

/// One scenario: the notes (or the contract) and the request's fields.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    /// Where it was read (the source companion's path).
    pub path: std::path::PathBuf,
    /// The whole file, front matter included.
    pub text: String,
    pub current_time: Option<String>,
    pub timezone: Option<String>,
    /// The front matter's top-level `prompt` (the user's original request), if any.
    pub prompt: Option<String>,
}

impl Scenario {
    pub fn new(name: &str, path: std::path::PathBuf, text: String) -> Scenario {
        let fm = output::top_level(&text);
        Scenario {
            name: name.to_string(),
            path,
            current_time: fm.get("current_time").cloned(),
            timezone: fm.get("timezone").cloned(),
            prompt: fm.get("prompt").cloned(),
            text,
        }
    }

    /// The text without its front matter block.
    pub fn notes(&self) -> &str {
        front_matter::body(&self.text)
    }
}

/// How a generated output ended under its strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Not validated by the strategy (naive, constraints).
    Unvalidated,
    /// Validated and passed as generated.
    Passed,
    /// Validated, failed, and surfaced as rejected (validate; repair when the repair failed
    /// or was itself rejected).
    Rejected,
    /// Failed, repaired once, passes.
    Repaired,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Unvalidated => "unvalidated",
            Outcome::Passed => "passed",
            Outcome::Rejected => "rejected",
            Outcome::Repaired => "repaired",
        }
    }
}

/// What the generation of one output needs besides the scenario and the variant.
pub struct GenContext<'a> {
    pub evaluator: &'a Evaluator,
    pub playbook: &'a LoadedPlaybook,
    pub cache: Option<&'a dyn ResponseCache>,
    pub observer: Option<&'a dyn CallObserver>,
    pub cancel: &'a CancellationToken,
    /// Never reuse a cached answer.
    pub fresh: bool,
}

/// One produced output: the whole document (front matter naming scenario, variant, model,
/// request and outcome, then the body) and its record.
#[derive(Debug, Clone)]
pub struct Produced {
    pub text: String,
    pub meta: GenerationMeta,
    /// The validation errors of the original output when the strategy validated it.
    pub errors_before: Vec<String>,
    /// The errors left after a repair that did not pass.
    pub errors_after: Vec<String>,
    /// The deterministic validation of the output as generated, and of the repair's
    /// answer, when the strategy ran them (the audit log records both).
    pub validation_before: Option<ValidationRecord>,
    pub validation_after: Option<ValidationRecord>,
    /// The plan `validation` (the eight metrics) of the output as generated and of the
    /// repair's answer, when the strategy validated (and repaired) a plan.
    pub plan_before: Option<crate::model::Validation>,
    pub plan_after: Option<crate::model::Validation>,
    /// Why the repair brought no usable answer, when it failed.
    pub repair_reason: Option<String>,
}

/// Generate one output for `scenario` with `variant`, validate and repair by its strategy.
/// A generation that brings no output is the error; a failed repair is an outcome.
pub async fn produce(
    scenario: &Scenario,
    variant: &Variant,
    cx: GenContext<'_>,
) -> Result<Produced, EvalError> {
    let params = variant.params(&cx.evaluator.info().model);
    let prompt = build_prompt(variant, scenario);
    let tally = Tally {
        inner: cx.observer,
        usage: Mutex::default(),
    };
    let generation = cx
        .evaluator
        .generate(
            Call {
                prompt: &prompt,
                run: 1,
                canary: false,
                observer: Some(&tally),
                cancel: cx.cancel,
            },
            &params,
            cx.cache,
            cx.fresh,
        )
        .await;
    let generated = generation.result?;
    let mut meta = GenerationMeta {
        scenario: scenario.name.clone(),
        variant: variant.name.clone(),
        strategy: variant.strategy,
        provider: cx.evaluator.info().provider,
        model: params.model.clone(),
        request_id: generation.request_id,
        outcome: Outcome::Unvalidated,
        repair: None,
        input_tokens: None,
        output_tokens: None,
    };
    let mut body = generated.text.clone();
    let mut produced = Produced {
        text: String::new(),
        meta: meta.clone(),
        errors_before: vec![],
        errors_after: vec![],
        validation_before: None,
        validation_after: None,
        plan_before: None,
        plan_after: None,
        repair_reason: None,
    };
    if variant.strategy.validates() {
        let doc = document(&compose(scenario, &meta, &body), scenario)
            .map_err(EvalError::InvalidRequest)?;
        let (before_report, before) = repair::validate(cx.playbook, &doc);
        produced.errors_before = messages(&before);
        produced.validation_before = Some(before.clone());
        produced.plan_before = before_report.validation;
        meta.outcome = if before.passed() {
            Outcome::Passed
        } else {
            Outcome::Rejected
        };
        if !before.passed() && variant.strategy == Strategy::Repair {
            let outcome = repair::repair(
                cx.playbook,
                &doc,
                RepairContext {
                    evaluator: Some(cx.evaluator),
                    observer: Some(&tally),
                    cancel: cx.cancel,
                    generation: Some((&params, cx.cache)),
                },
            )
            .await;
            meta.repair = Some(outcome.record.status);
            if let Some(after) = &outcome.record.after {
                produced.errors_after = messages(after);
            }
            produced.validation_after = outcome.record.after.clone();
            produced.plan_after = outcome.after_validation.clone();
            produced.repair_reason = outcome.record.reason.clone();
            // The best available result: the repaired text only when it passes; else the
            // original, surfaced as rejected.
            if let Some(repaired) = outcome.repaired_text() {
                meta.outcome = Outcome::Repaired;
                body = front_matter::body(repaired).to_string();
            }
        }
    }
    let usage = *tally.usage.lock().unwrap_or_else(|e| e.into_inner());
    meta.input_tokens = usage.input_tokens;
    meta.output_tokens = usage.output_tokens;
    produced.text = compose(scenario, &meta, &body);
    produced.meta = meta;
    Ok(produced)
}

/// Passes every attempt on and adds up the tokens the provider reported.
struct Tally<'a> {
    inner: Option<&'a dyn CallObserver>,
    usage: Mutex<Usage>,
}

impl CallObserver for Tally<'_> {
    fn record(&self, record: CallRecord) {
        {
            let mut u = self.usage.lock().unwrap_or_else(|e| e.into_inner());
            let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
            };
            u.input_tokens = add(u.input_tokens, record.usage.input_tokens);
            u.output_tokens = add(u.output_tokens, record.usage.output_tokens);
        }
        if let Some(o) = self.inner {
            o.record(record);
        }
    }
}

/// The output as a document with the scenario as its source companion.
pub fn document(text: &str, scenario: &Scenario) -> Result<Document, String> {
    let mut doc = Document::parse(text.to_string(), None).map_err(|e| e.to_string())?;
    doc.attach(
        CompanionRole::Source,
        Companion::new(scenario.path.clone(), scenario.text.clone()),
    );
    Ok(doc)
}

fn messages(v: &ValidationRecord) -> Vec<String> {
    v.errors
        .iter()
        .map(|e| format!("[{}] {}", e.check_id, e.message))
        .collect()
}
