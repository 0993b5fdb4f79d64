//! The trace of one generated output: `generate` → `extract`, `plan` (`generate` for
//! outputs that are not plans) → `llm`, `validate`, and when the strategy repaired
//! `repair` → `llm` → `validate`: the order extract → plan → validate → (repair) → validate.
//! Built after the fact from the evaluator's call records, like every other trace. A plan's
//! `extract` carries the notes' constraints (kind, window) and each `validate` the eight
//! metrics. Never the prompt or the output's text, unless the user allowed text in traces
//! (then a 200-character preview of the output's body on the root span, and the notes'
//! preview).

use std::time::SystemTime;

use opentelemetry::trace::{Span, Status, TraceContextExt, Tracer};
use opentelemetry::{Context, KeyValue};

use super::plan_trace;
use super::telemetry::{
    PREVIEW_CHARS, end_of, finish_of, leaf, llm_span, start_of, validation_attrs, with_tracer,
};
use crate::engine::document::front_matter;
use crate::engine::generate::{Outcome, Produced, Scenario, Variant, constraints_of};
use crate::evaluator::generate::GENERATE_CALL_ID;
use crate::model::{CallRecord, Validation};

/// Which generation a trace is of: the scenario, the variant, the request's id in the
/// audit log and, for a strategy that does not validate, the plan validation of what was
/// served (`byop plan` validates it anyway).
pub struct Generation<'a> {
    pub scenario: &'a Scenario,
    pub variant: &'a Variant,
    pub request_id: &'a str,
    pub served: Option<&'a Validation>,
}

fn root_attrs(g: &Generation, produced: Option<&Produced>, calls: &[CallRecord]) -> Vec<KeyValue> {
    let mut attrs = vec![
        KeyValue::new("byop.request_id", g.request_id.to_string()),
        KeyValue::new("byop.scenario", g.scenario.name.clone()),
        KeyValue::new("byop.variant", g.variant.name.clone()),
        KeyValue::new("byop.strategy", g.variant.strategy.as_str()),
        KeyValue::new(
            "byop.llm.calls",
            calls.iter().filter(|c| !c.cached).count() as i64,
        ),
    ];
    let Some(p) = produced else {
        return attrs;
    };
    let meta = &p.meta;
    attrs.extend([
        KeyValue::new("byop.generation.request_id", meta.request_id.clone()),
        KeyValue::new("byop.generation.outcome", meta.outcome.as_str()),
        KeyValue::new("gen_ai.system", meta.provider.clone()),
        KeyValue::new("gen_ai.request.model", meta.model.clone()),
    ]);
    if let Some(r) = meta.repair {
        attrs.push(KeyValue::new("byop.repair.status", r.as_str()));
    }
    if let Some(n) = meta.input_tokens {
        attrs.push(KeyValue::new("gen_ai.usage.input_tokens", n as i64));
    }
    if let Some(n) = meta.output_tokens {
        attrs.push(KeyValue::new("gen_ai.usage.output_tokens", n as i64));
    }
    attrs
}

pub fn export(
    g: &Generation,
    produced: Option<&Produced>,
    calls: &[CallRecord],
    started: SystemTime,
) {
    with_tracer(|tracer, include_text| {
        let end = end_of(started, calls);
        let mut attrs = root_attrs(g, produced, calls);
        if let (true, Some(p)) = (include_text, produced) {
            let body = front_matter::body(&p.text);
            let preview: String = body.chars().take(PREVIEW_CHARS).collect();
            attrs.push(KeyValue::new("byop.output.preview", preview));
        }
        let notes = Some(g.scenario.text.as_str());
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
        let constraints = constraints_of(g.scenario);
        let n = constraints.as_deref().map_or(0, |c| c.lines().count());
        let extract = match scenario_context(g.scenario) {
            Some(c) => plan_trace::constraint_attrs(&c),
            None => vec![KeyValue::new("byop.constraints.extracted", n as i64)],
        };
        leaf(tracer, &cx, "extract", started, started, extract);
        let is_plan = g.scenario.current_time.is_some() || constraints.is_some();
        let name = if is_plan { "plan" } else { "generate" };
        let (gen_calls, repair_calls): (Vec<&CallRecord>, Vec<&CallRecord>) =
            calls.iter().partition(|c| c.check_id == GENERATE_CALL_ID);
        let span_over = |name: &'static str, records: &[&CallRecord], attrs: Vec<KeyValue>| {
            let start = records.iter().map(|c| start_of(c)).min().unwrap_or(started);
            let stop = records.iter().map(|c| finish_of(c)).max().unwrap_or(start);
            let span = tracer
                .span_builder(name)
                .with_start_time(start)
                .with_attributes(attrs)
                .start_with_context(tracer, &cx);
            let scx = cx.with_span(span);
            for c in records {
                llm_span(tracer, &scx, c);
            }
            scx.span().end_with_timestamp(stop);
            stop
        };
        let generated_at = span_over(name, &gen_calls, vec![]);
        let Some(p) = produced.filter(|_| g.variant.strategy.validates()) else {
            // A strategy that does not validate: the validation of what was served, if any.
            if let Some(v) = g.served {
                let attrs = served_attrs(v);
                leaf(tracer, &cx, "validate", generated_at, generated_at, attrs);
            }
            cx.span().end_with_timestamp(end);
            return;
        };
        if let Some(before) = &p.validation_before {
            let attrs = with_metrics(validation_attrs(before, "before"), p.plan_before.as_ref());
            leaf(tracer, &cx, "validate", generated_at, generated_at, attrs);
        }
        if let Some(status) = p.meta.repair.filter(|_| p.meta.repair_attempted()) {
            let attrs = vec![KeyValue::new("byop.repair.status", status.as_str())];
            let repaired_at = span_over("repair", &repair_calls, attrs);
            if let Some(after) = &p.validation_after {
                let attrs = with_metrics(validation_attrs(after, "after"), p.plan_after.as_ref());
                leaf(tracer, &cx, "validate", repaired_at, repaired_at, attrs);
            }
        }
        if p.meta.outcome == Outcome::Rejected {
            cx.span()
                .set_status(Status::error("rejected: the output fails validation"));
        }
        cx.span().end_with_timestamp(end);
    });
}

/// Adds a plan's eight metrics to a `validate` span's attributes.
fn with_metrics(mut attrs: Vec<KeyValue>, plan: Option<&Validation>) -> Vec<KeyValue> {
    attrs.extend(plan.map(plan_trace::metric_attrs).unwrap_or_default());
    attrs
}

/// The `validate` span of a plan served by a strategy that does not validate.
fn served_attrs(v: &Validation) -> Vec<KeyValue> {
    let status = if v.errors.is_empty() { "pass" } else { "fail" };
    let attrs = vec![
        KeyValue::new("byop.validation.which", "served"),
        KeyValue::new("byop.validation.status", status),
        KeyValue::new("byop.validation.errors", v.errors.len() as i64),
    ];
    with_metrics(attrs, Some(v))
}

/// The notes' constraints when the scenario is a day's notes (it has a `current_time`).
fn scenario_context(scenario: &Scenario) -> Option<crate::engine::plan::Context> {
    scenario.current_time.as_ref()?;
    let text = &scenario.text;
    let body = (text.len() - scenario.notes().len(), text.len());
    crate::engine::plan::analyze(text, body, Some(text)).context
}
