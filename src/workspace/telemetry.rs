//! Traces over OTLP/HTTP (protobuf): one trace per evaluation request,
//! `check` → `extract`, `validate` → `evaluate` (per check and run) → `llm` (per
//! attempt), and for a repair `repair` → `llm` → `validate`. Built after the request from
//! its report and the evaluator's call records (the same ones the audit log keeps), so
//! tracing adds no path of its own. Never the key; never the document text, unless
//! `telemetry.include_text` (then a short preview of the AI output only).
//!
//! Installed once per process by a front end (`install`), flushed by `shutdown`.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use opentelemetry::trace::{Span, SpanKind, Status, TraceContextExt, Tracer, TracerProvider};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};

use super::{Resolved, plan_trace};
use crate::engine::repair::RepairOutcome;
use crate::model::{CallRecord, Report, ValidationRecord};

/// Characters of the AI output in `byop.input.preview` (with `include_text`).
pub const PREVIEW_CHARS: usize = 200;

pub use super::telemetry_choice::{
    ENDPOINT_ENV, HEADERS_ENV, INCLUDE_TEXT_ENV, TelemetrySettings, UserTelemetry, settings,
    traces_url, user_allows_text,
};

struct Installed {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
    include_text: bool,
}

fn slot() -> &'static Mutex<Option<Installed>> {
    static SLOT: OnceLock<Mutex<Option<Installed>>> = OnceLock::new();
    SLOT.get_or_init(Mutex::default)
}

/// Start exporting (batched, in the background). Headers come from
/// `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key=value`, e.g. Opik's `Authorization`,
/// `Comet-Workspace`, `projectName`).
pub fn install(settings: &TelemetrySettings) -> Result<(), String> {
    let url = &settings.traces_url;
    let scheme_ok = url.starts_with("http://") || url.starts_with("https://");
    if !scheme_ok || url.contains(char::is_whitespace) {
        return Err(format!(
            "telemetry: the OTLP endpoint must be an http:// or https:// URL, not `{url}`"
        ));
    }
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(settings.traces_url.clone())
        .with_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| format!("telemetry: {e}"))?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(
            Resource::builder()
                .with_service_name("byop")
                .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
                .build(),
        )
        .build();
    let tracer = provider.tracer("byop");
    let old = slot()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .replace(Installed {
            provider,
            tracer,
            include_text: settings.include_text,
        });
    if let Some(old) = old {
        let _ = old.provider.shutdown();
    }
    Ok(())
}

/// Export what is pending and stop (the CLI, before it exits). Blocks up to a few seconds.
pub fn shutdown() {
    let installed = slot().lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(i) = installed {
        if let Err(e) = i.provider.force_flush() {
            crate::render::terminal::eprint_line(&format!(
                "byop: telemetry: could not export traces: {e}"
            ));
        }
        let _ = i.provider.shutdown();
    }
}

/// What every trace of a request says about it.
struct Request<'a> {
    resolved: &'a Resolved,
    request_id: &'a str,
    started: SystemTime,
    calls: &'a [CallRecord],
}

/// The trace of one evaluation (`byop check`, the editor's evaluations).
pub fn export_check(
    resolved: &Resolved,
    report: Option<&Report>,
    calls: &[CallRecord],
    request_id: &str,
    started: SystemTime,
) {
    with_tracer(|tracer, include_text| {
        let req = Request {
            resolved,
            request_id,
            started,
            calls,
        };
        let end = end_of(started, calls);
        let mut root = root_span(tracer, &req, include_text, report);
        plan_trace::set_root(&mut root, resolved, report, include_text);
        let cx = Context::current_with_span(root);
        leaf(
            tracer,
            &cx,
            "extract",
            started,
            started,
            extract_attrs(resolved, report),
        );
        if let Some(r) = report {
            let v = crate::engine::repair::validation_of(&resolved.playbook, r);
            let mut attrs = validation_attrs(&v, "before");
            attrs.extend(
                r.validation
                    .as_ref()
                    .map(plan_trace::metric_attrs)
                    .unwrap_or_default(),
            );
            leaf(tracer, &cx, "validate", started, started, attrs);
        }
        evaluate_spans(
            tracer,
            &cx,
            report,
            calls
                .iter()
                .filter(|c| c.check_id != crate::engine::repair::CALL_ID),
        );
        cx.span().end_with_timestamp(end);
    });
}

/// The trace of one repair: `check` → `extract`, `validate` → `repair` → `llm` → `validate`.
pub fn export_repair(
    resolved: &Resolved,
    outcome: &RepairOutcome,
    calls: &[CallRecord],
    request_id: &str,
    started: SystemTime,
) {
    with_tracer(|tracer, include_text| {
        let req = Request {
            resolved,
            request_id,
            started,
            calls,
        };
        let end = end_of(started, calls);
        let before = Some(&outcome.before);
        let mut root = root_span(tracer, &req, include_text, before);
        plan_trace::set_root(&mut root, resolved, before, include_text);
        let record = &outcome.record;
        root.set_attribute(KeyValue::new("byop.repair.status", record.status.as_str()));
        let cx = Context::current_with_span(root);
        leaf(
            tracer,
            &cx,
            "extract",
            started,
            started,
            extract_attrs(resolved, before),
        );
        let mut attrs = validation_attrs(&record.before, "before");
        let plan_before = outcome.before.validation.as_ref();
        attrs.extend(
            plan_before
                .map(plan_trace::metric_attrs)
                .unwrap_or_default(),
        );
        leaf(tracer, &cx, "validate", started, started, attrs);
        if record.status == crate::model::RepairStatus::NotNeeded {
            cx.span().end_with_timestamp(end);
            return;
        }
        let mut attrs = vec![KeyValue::new("byop.repair.status", record.status.as_str())];
        if let Some(r) = &record.reason {
            attrs.push(KeyValue::new("byop.repair.reason", r.clone()));
        }
        if let Some(h) = &record.repaired_sha256 {
            attrs.push(KeyValue::new("byop.repair.output_sha256", h.clone()));
        }
        let repair = tracer
            .span_builder("repair")
            .with_start_time(started)
            .with_attributes(attrs)
            .start_with_context(tracer, &cx);
        let rcx = cx.with_span(repair);
        for c in calls {
            llm_span(tracer, &rcx, c);
        }
        if record.status == crate::model::RepairStatus::Failed {
            rcx.span()
                .set_status(Status::error(record.reason.clone().unwrap_or_default()));
        }
        rcx.span().end_with_timestamp(end);
        if let Some(after) = &record.after {
            let mut attrs = validation_attrs(after, "after");
            let plan_after = outcome.after_validation.as_ref();
            attrs.extend(plan_after.map(plan_trace::metric_attrs).unwrap_or_default());
            leaf(tracer, &cx, "validate", end, end, attrs);
        }
        cx.span().end_with_timestamp(end);
    });
}

pub(super) fn with_tracer(f: impl FnOnce(&SdkTracer, bool)) {
    let guard = slot().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = guard.as_ref() {
        f(&i.tracer, i.include_text);
    }
}

fn root_span(
    tracer: &SdkTracer,
    req: &Request<'_>,
    include_text: bool,
    report: Option<&Report>,
) -> opentelemetry_sdk::trace::Span {
    let doc = &req.resolved.doc;
    let mut attrs = vec![
        KeyValue::new("byop.request_id", req.request_id.to_string()),
        KeyValue::new(
            "byop.playbook.id",
            req.resolved.playbook.playbook.id.clone(),
        ),
        KeyValue::new(
            "byop.playbook.hash",
            req.resolved.playbook.logic_hash.clone(),
        ),
        KeyValue::new("byop.inputs.fingerprint", doc.fingerprint().to_string()),
        KeyValue::new("byop.document", doc.label()),
        KeyValue::new("byop.llm.calls", req.calls.len() as i64),
    ];
    if let Some(r) = report {
        attrs.push(KeyValue::new("byop.mode", r.execution_mode.as_str()));
        attrs.push(KeyValue::new(
            "byop.status",
            r.summary.overall_status.as_str(),
        ));
        attrs.push(KeyValue::new("byop.report_id", r.report_id.clone()));
        attrs.push(KeyValue::new(
            "byop.consistency_score",
            r.variance_summary.consistency_score,
        ));
        let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
        for c in &r.check_results {
            *counts.entry(c.result.as_str()).or_default() += 1;
        }
        for (verdict, n) in counts {
            attrs.push(KeyValue::new(format!("byop.results.{verdict}"), n));
        }
    }
    if include_text {
        let preview: String = doc.inputs.ai_output.chars().take(PREVIEW_CHARS).collect();
        attrs.push(KeyValue::new("byop.input.preview", preview));
    }
    tracer
        .span_builder("check")
        .with_kind(SpanKind::Internal)
        .with_start_time(req.started)
        .with_attributes(attrs)
        .start(tracer)
}

/// Sizes and companions; for a plan, the constraints extracted from its notes.
fn extract_attrs(resolved: &Resolved, report: Option<&Report>) -> Vec<KeyValue> {
    let doc = &resolved.doc;
    let plan = report.is_some_and(|r| r.validation.is_some());
    let constraints = plan
        .then(|| plan_trace::context_of(resolved))
        .flatten()
        .map(|cx| plan_trace::constraint_attrs(&cx))
        .unwrap_or_default();
    let mut attrs = vec![
        KeyValue::new(
            "byop.ai_output.chars",
            doc.inputs.ai_output.chars().count() as i64,
        ),
        KeyValue::new("byop.source.present", doc.source.is_some()),
        KeyValue::new("byop.prompt.present", doc.prompt.is_some()),
    ];
    attrs.extend(constraints);
    attrs
}

pub(super) fn validation_attrs(v: &ValidationRecord, which: &str) -> Vec<KeyValue> {
    let ids: Vec<String> = v.errors.iter().map(|e| e.check_id.clone()).collect();
    vec![
        KeyValue::new("byop.validation.which", which.to_string()),
        KeyValue::new("byop.validation.status", v.status.as_str()),
        KeyValue::new("byop.validation.errors", v.errors.len() as i64),
        KeyValue::new("byop.validation.failed_checks", ids.join(",")),
        KeyValue::new("byop.validation.checks_run", v.checks_run as i64),
        KeyValue::new("byop.validation.checks_passed", v.checks_passed as i64),
        KeyValue::new("byop.inputs.fingerprint", v.inputs_fingerprint.clone()),
    ]
}

pub(super) fn leaf(
    tracer: &SdkTracer,
    cx: &Context,
    name: &'static str,
    start: SystemTime,
    end: SystemTime,
    attrs: Vec<KeyValue>,
) {
    let mut span = tracer
        .span_builder(name)
        .with_start_time(start)
        .with_attributes(attrs)
        .start_with_context(tracer, cx);
    span.end_with_timestamp(end);
}

/// One `evaluate` span per check and run that made calls, with its `llm` attempts.
fn evaluate_spans<'a>(
    tracer: &SdkTracer,
    cx: &Context,
    report: Option<&Report>,
    calls: impl Iterator<Item = &'a CallRecord>,
) {
    let mut groups: BTreeMap<(String, u32), Vec<&CallRecord>> = BTreeMap::new();
    for c in calls {
        groups
            .entry((c.check_id.clone(), c.run))
            .or_default()
            .push(c);
    }
    for ((check_id, run), attempts) in groups {
        let start = attempts
            .iter()
            .map(|c| start_of(c))
            .min()
            .unwrap_or(SystemTime::now());
        let end = attempts.iter().map(|c| finish_of(c)).max().unwrap_or(start);
        let mut attrs = vec![
            KeyValue::new("byop.check.id", check_id.clone()),
            KeyValue::new("byop.run", i64::from(run)),
            KeyValue::new("byop.attempts", attempts.len() as i64),
        ];
        if let Some(r) = report.and_then(|r| r.check(&check_id)) {
            attrs.push(KeyValue::new("byop.check.result", r.result.as_str()));
            if let Some(raw) = r.raw_runs.iter().find(|x| x.run == run) {
                attrs.push(KeyValue::new("byop.run.result", raw.result.as_str()));
                attrs.push(KeyValue::new("byop.run.confidence", raw.confidence));
            }
        }
        let span = tracer
            .span_builder("evaluate")
            .with_start_time(start)
            .with_attributes(attrs)
            .start_with_context(tracer, cx);
        let ecx = cx.with_span(span);
        for c in attempts {
            llm_span(tracer, &ecx, c);
        }
        ecx.span().end_with_timestamp(end);
    }
}

pub(super) fn llm_span(tracer: &SdkTracer, cx: &Context, c: &CallRecord) {
    let mut attrs = vec![
        KeyValue::new("gen_ai.system", c.provider.clone()),
        KeyValue::new("gen_ai.request.model", c.model.clone()),
        KeyValue::new("byop.check.id", c.check_id.clone()),
        KeyValue::new("byop.run", i64::from(c.run)),
        KeyValue::new("byop.attempt", i64::from(c.attempt)),
        KeyValue::new("byop.llm.latency_ms", c.latency_ms as i64),
        KeyValue::new("byop.llm.cached", c.cached),
        KeyValue::new("byop.llm.outcome", c.outcome.as_str()),
    ];
    if let Some(s) = c.status {
        attrs.push(KeyValue::new("http.response.status_code", i64::from(s)));
    }
    if let Some(n) = c.usage.input_tokens {
        attrs.push(KeyValue::new("gen_ai.usage.input_tokens", n as i64));
    }
    if let Some(n) = c.usage.output_tokens {
        attrs.push(KeyValue::new("gen_ai.usage.output_tokens", n as i64));
    }
    let mut span = tracer
        .span_builder("llm")
        .with_kind(SpanKind::Client)
        .with_start_time(start_of(c))
        .with_attributes(attrs)
        .start_with_context(tracer, cx);
    if !c.outcome.is_ok() {
        span.set_status(Status::error(c.outcome.as_str()));
    }
    span.end_with_timestamp(finish_of(c));
}

pub(super) fn start_of(c: &CallRecord) -> SystemTime {
    time::OffsetDateTime::parse(
        &c.started_at,
        &time::format_description::well_known::Rfc3339,
    )
    .map(SystemTime::from)
    .unwrap_or_else(|_| SystemTime::now())
}

pub(super) fn finish_of(c: &CallRecord) -> SystemTime {
    start_of(c) + Duration::from_millis(c.latency_ms)
}

/// The request's end: now, or the last call's end if later (call times are to the second).
pub(super) fn end_of(started: SystemTime, calls: &[CallRecord]) -> SystemTime {
    calls
        .iter()
        .map(finish_of)
        .chain([SystemTime::now(), started])
        .max()
        .unwrap_or(started)
}

#[cfg(test)]
#[path = "telemetry_tests.rs"]
mod tests;
