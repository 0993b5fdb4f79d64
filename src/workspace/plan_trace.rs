//! The attributes a PlanProof trace adds to its spans: the variant on the root, the
//! constraints extracted from the notes (kind and window, never their text) on `extract`,
//! and the eight validation metrics on each `validate`. The notes' preview only when the
//! user allows text.

use opentelemetry::trace::Span;
use opentelemetry::{Array, KeyValue, StringValue, Value};

use crate::engine::document::front_matter;
use crate::engine::plan::Context;
use crate::engine::plan::observe::constraints;
use crate::model::{PlanDebug, Validation};

/// The root's: `byop.variant` (the plan's or the generation's) and, with `include_text`,
/// `byop.context.preview` (the notes' first 200 characters).
pub(super) fn root_attrs(
    variant: Option<&str>,
    notes: Option<&str>,
    include_text: bool,
) -> Vec<KeyValue> {
    let mut attrs = Vec::new();
    if let Some(v) = variant {
        attrs.push(KeyValue::new("byop.variant", v.to_string()));
    }
    if let Some(n) = notes.filter(|_| include_text) {
        let preview = PlanDebug::preview(front_matter::body(n));
        attrs.push(KeyValue::new("byop.context.preview", preview));
    }
    attrs
}

fn strings(values: impl Iterator<Item = String>) -> Value {
    Value::Array(Array::String(values.map(StringValue::from).collect()))
}

/// The `extract` span's: `byop.constraints.extracted` and the parallel arrays
/// `byop.constraints.kind` and `byop.constraints.window`.
pub(super) fn constraint_attrs(cx: &Context) -> Vec<KeyValue> {
    let found = constraints(cx);
    vec![
        KeyValue::new("byop.constraints.extracted", found.len() as i64),
        KeyValue::new(
            "byop.constraints.kind",
            strings(found.iter().map(|c| c.kind.to_string())),
        ),
        KeyValue::new(
            "byop.constraints.window",
            strings(found.iter().map(|c| c.window.clone())),
        ),
    ]
}

/// The `validate` span's: the plan status and the eight metrics, `byop.plan.<metric>`.
pub(super) fn metric_attrs(v: &Validation) -> Vec<KeyValue> {
    let m = &v.metrics;
    let int = |k: &'static str, n: i64| KeyValue::new(k, n);
    vec![
        KeyValue::new("byop.plan.status", v.status.as_str()),
        int(
            "byop.plan.constraints_declared",
            i64::from(m.constraints_declared),
        ),
        int(
            "byop.plan.constraints_violated",
            i64::from(m.constraints_violated),
        ),
        int("byop.plan.time_available_minutes", m.time_available_minutes),
        int("byop.plan.time_planned_minutes", m.time_planned_minutes),
        int("byop.plan.time_overflow_minutes", m.time_overflow_minutes),
        int(
            "byop.plan.hallucination_flags",
            i64::from(m.hallucination_flags),
        ),
        int(
            "byop.plan.human_feasibility_flags",
            i64::from(m.human_feasibility_flags),
        ),
        KeyValue::new("byop.plan.context_coverage_ratio", m.context_coverage_ratio),
    ]
}

/// A plan's root attributes (its variant, the notes' preview with `include_text`).
pub(super) fn set_root(
    root: &mut opentelemetry_sdk::trace::Span,
    resolved: &super::Resolved,
    report: Option<&crate::model::Report>,
    include_text: bool,
) {
    let Some(r) = report.filter(|r| r.validation.is_some()) else {
        return;
    };
    let variant = r.debug.as_ref().and_then(|d| d.variant.as_deref());
    let notes = resolved.doc.source.as_ref().map(|c| c.text());
    for kv in root_attrs(variant, notes, include_text) {
        root.set_attribute(kv);
    }
}

/// The notes' constraints of a checked plan document (`None`: not a plan, or no notes).
pub(super) fn context_of(resolved: &super::Resolved) -> Option<Context> {
    let doc = &resolved.doc;
    let source = doc.source.as_ref()?;
    crate::engine::plan::analyze(&doc.text, doc.body, Some(source.text())).context
}
