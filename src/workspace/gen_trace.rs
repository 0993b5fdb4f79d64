//! The trace of one generated output: `generate` → `extract`, `plan` (`generate` for
//! outputs that are not plans) → `llm`, `validate`, and when the strategy repaired
//! `repair` → `llm` → `validate`: the order extract → plan → validate → (repair) → validate.
//! Built after the fact from the evaluator's call records, like every other trace. A plan's
//! `extract` carries the notes' constraints (kind, window) and each `validate` the eight
//! metrics. Never the prompt or the output's text; the notes' preview only when the user
//! allows text.

use std::time::SystemTime;

use opentelemetry::trace::{Span, Status, TraceContextExt, Tracer};
use opentelemetry::{Context, KeyValue};

use super::plan_trace;
use super::telemetry::{end_of, finish_of, leaf, llm_span, start_of, with_tracer};
use crate::engine::generate::{Outcome, Produced, Scenario, Variant, constraints_of};
use crate::evaluator::generate::GENERATE_CALL_ID;
use crate::model::{CallRecord, Validation};

pub fn export(
    scenario: &Scenario,
    variant: &Variant,
    produced: Option<&Produced>,
    calls: &[CallRecord],
    started: SystemTime,
    served: Option<&Validation>,
) {
    with_tracer(|tracer, include_text| {
        let end = end_of(started, calls);
        let mut attrs = vec![
            KeyValue::new("byop.scenario", scenario.name.clone()),
            KeyValue::new("byop.variant", variant.name.clone()),
            KeyValue::new("byop.strategy", variant.strategy.as_str()),
            KeyValue::new(
                "byop.llm.calls",
                calls.iter().filter(|c| !c.cached).count() as i64,
            ),
        ];
        if let Some(p) = produced {
            attrs.push(KeyValue::new(
                "byop.generation.request_id",
                p.meta.request_id.clone(),
            ));
            attrs.push(KeyValue::new(
                "byop.generation.outcome",
                p.meta.outcome.as_str(),
            ));
            attrs.push(KeyValue::new("gen_ai.request.model", p.meta.model.clone()));
        }
        let notes = Some(scenario.text.as_str());
        attrs.extend(plan_trace::root_attrs(None, notes, include_text));
        let mut root = tracer
            .span_builder("generate")
            .with_start_time(started)
            .with_attributes(attrs)
            .start(tracer);
        if produced.is_none() {
            root.set_status(Status::error("no output generated"));
        }
        let cx = Context::current_with_span(root);
        let constraints = constraints_of(scenario);
        let n = constraints.as_deref().map_or(0, |c| c.lines().count());
        let extract = match scenario_context(scenario) {
            Some(c) => plan_trace::constraint_attrs(&c),
            None => vec![KeyValue::new("byop.constraints.extracted", n as i64)],
        };
        leaf(tracer, &cx, "extract", started, started, extract);
        let is_plan = scenario.current_time.is_some() || constraints.is_some();
        let name = if is_plan { "plan" } else { "generate" };
        let (gen_calls, repair_calls): (Vec<&CallRecord>, Vec<&CallRecord>) =
            calls.iter().partition(|c| c.check_id == GENERATE_CALL_ID);
        let span_over = |name: &'static str, records: &[&CallRecord]| {
            let start = records.iter().map(|c| start_of(c)).min().unwrap_or(started);
            let stop = records.iter().map(|c| finish_of(c)).max().unwrap_or(start);
            let span = tracer
                .span_builder(name)
                .with_start_time(start)
                .start_with_context(tracer, &cx);
            let scx = cx.with_span(span);
            for c in records {
                llm_span(tracer, &scx, c);
            }
            scx.span().end_with_timestamp(stop);
            stop
        };
        let generated_at = span_over(name, &gen_calls);
        let Some(p) = produced.filter(|_| variant.strategy.validates()) else {
            // A strategy that does not validate: the validation of what was served, if any.
            if let Some(v) = served {
                let errors: Vec<String> = v.errors.clone();
                let attrs = validation_attrs(&errors, Some(v), "served");
                leaf(tracer, &cx, "validate", generated_at, generated_at, attrs);
            }
            cx.span().end_with_timestamp(end);
            return;
        };
        let before = validation_attrs(&p.errors_before, p.validation_before.as_ref(), "before");
        leaf(tracer, &cx, "validate", generated_at, generated_at, before);
        if p.meta.repair.is_some() {
            let repaired_at = span_over("repair", &repair_calls);
            let after = validation_attrs(&p.errors_after, p.validation_after.as_ref(), "after");
            leaf(tracer, &cx, "validate", repaired_at, repaired_at, after);
        }
        if p.meta.outcome == Outcome::Rejected {
            cx.span()
                .set_status(Status::error("rejected: the output fails validation"));
        }
        cx.span().end_with_timestamp(end);
    });
}

/// A `validate` span's: the strategy's verdict and, for a plan, its eight metrics.
fn validation_attrs(errors: &[String], plan: Option<&Validation>, which: &str) -> Vec<KeyValue> {
    let mut attrs = vec![
        KeyValue::new("byop.validation.which", which.to_string()),
        KeyValue::new(
            "byop.validation.status",
            if errors.is_empty() { "pass" } else { "fail" },
        ),
        KeyValue::new("byop.validation.errors", errors.len() as i64),
    ];
    attrs.extend(plan.map(plan_trace::metric_attrs).unwrap_or_default());
    attrs
}

/// The notes' constraints when the scenario is a day's notes (it has a `current_time`).
fn scenario_context(scenario: &Scenario) -> Option<crate::engine::plan::Context> {
    scenario.current_time.as_ref()?;
    let text = &scenario.text;
    let body = (text.len() - scenario.notes().len(), text.len());
    crate::engine::plan::analyze(text, body, Some(text)).context
}
