//! The trace of one generated output: `generate` → `extract`, `plan` (`generate` for
//! outputs that are not plans) → `llm`, `validate`, and when the strategy repaired
//! `repair` → `llm` → `validate`: the order extract → plan → validate → (repair) → validate.
//! Built after the fact from the evaluator's call records, like every other trace. Never
//! the prompt or the output's text.

use std::time::SystemTime;

use opentelemetry::trace::{Span, Status, TraceContextExt, Tracer};
use opentelemetry::{Context, KeyValue};

use super::telemetry::{end_of, finish_of, leaf, llm_span, start_of, with_tracer};
use crate::engine::generate::{Outcome, Produced, Scenario, Variant, constraints_of};
use crate::evaluator::generate::GENERATE_CALL_ID;
use crate::model::CallRecord;

pub fn export(
    scenario: &Scenario,
    variant: &Variant,
    produced: Option<&Produced>,
    calls: &[CallRecord],
    started: SystemTime,
) {
    with_tracer(|tracer, _include_text| {
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
        let extract = vec![KeyValue::new("byop.constraints.extracted", n as i64)];
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
            cx.span().end_with_timestamp(end);
            return;
        };
        let validation = |errors: &[String], which: &str| {
            vec![
                KeyValue::new("byop.validation.which", which.to_string()),
                KeyValue::new(
                    "byop.validation.status",
                    if errors.is_empty() { "pass" } else { "fail" },
                ),
                KeyValue::new("byop.validation.errors", errors.len() as i64),
            ]
        };
        let before = validation(&p.errors_before, "before");
        leaf(tracer, &cx, "validate", generated_at, generated_at, before);
        if p.meta.repair.is_some() {
            let repaired_at = span_over("repair", &repair_calls);
            let after = validation(&p.errors_after, "after");
            leaf(tracer, &cx, "validate", repaired_at, repaired_at, after);
        }
        if p.meta.outcome == Outcome::Rejected {
            cx.span()
                .set_status(Status::error("rejected: the output fails validation"));
        }
        cx.span().end_with_timestamp(end);
    });
}
