//! `byop repair FILE [-o OUT]`: validate, repair once with the evaluator, re-validate.
//! Exit 0: repaired (written with `-o`, else a unified diff on stdout) or nothing to
//! repair; 1: rejected (the answer still fails, nothing written); 2: usage or input
//! error (also: no evaluator); 3: no repair came back (provider error, unparseable).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::args::{HistoryFormat, RepairArgs};
use super::check::NOT_EVALUATED;
use super::error::CliError;
use crate::model::{PlanDebug, RepairStatus, ReportEnvelope, ValidationRecord};
use crate::store::Store;
use crate::workspace::doc_key;
use crate::workspace::evaluate::record_input_error;
use crate::workspace::repair::repair_and_save;

pub async fn run(args: RepairArgs) -> Result<u8, CliError> {
    let cwd = std::env::current_dir()?;
    let workspace = super::workspace_policy(&args.trust)?;
    super::start_telemetry(&args.otlp, &workspace)?;
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let key = doc_key(&args.file);
    let resolved = super::single::resolve(doc_flags(&args), &cwd, &workspace)
        .inspect_err(|e| record_input_error(&store, &key, &e.0))?;
    let evaluator = super::single::evaluator(&args.evaluator, &workspace)?.ok();
    let outcome = repair_and_save(
        &resolved,
        Some(store),
        &key,
        evaluator.as_ref(),
        &CancellationToken::new(),
    )
    .await?;
    let record = &outcome.record;
    let label = resolved.doc.label();
    crate::render::terminal::eprint_line(&format!(
        "byop: {label}: before: {}",
        summary(&record.before)
    ));
    if let Some(after) = &record.after {
        crate::render::terminal::eprint_line(&format!(
            "byop: {label}: after repair: {}",
            summary(after)
        ));
    }
    if args.format == HistoryFormat::Json {
        let mut report = outcome.before.clone();
        if let Some(debug) = report.debug.as_mut()
            && super::text_allowed(&args.otlp)
        {
            debug.context_preview =
                resolved.doc.source.as_ref().map(|c| {
                    PlanDebug::preview(crate::engine::document::front_matter::body(c.text()))
                });
        }
        let body = serde_json::to_string_pretty(&ReportEnvelope {
            byop_report: &report,
        })?;
        super::output::write(None, &format!("{body}\n"))?;
    }
    match record.status {
        RepairStatus::NotNeeded => {
            crate::render::terminal::eprint_line(&format!(
                "byop: {label}: every deterministic check passes; nothing to repair"
            ));
            Ok(0)
        }
        RepairStatus::Failed => {
            let reason = record.reason.as_deref().unwrap_or("no answer");
            if evaluator.is_none() {
                return Err(CliError(format!(
                    "byop repair needs an evaluator: {reason}"
                )));
            }
            crate::render::terminal::eprint_line(&format!(
                "byop: {label}: repair failed: {reason}"
            ));
            Ok(NOT_EVALUATED)
        }
        RepairStatus::Rejected => {
            let after = record.after.as_ref().map(|a| a.errors.len()).unwrap_or(0);
            crate::render::terminal::eprint_line(&format!(
                "byop: {label}: repair rejected: the evaluator's answer still fails {after} deterministic check(s); nothing written"
            ));
            for e in record.after.iter().flat_map(|a| &a.errors) {
                crate::render::terminal::eprint_line(&format!(
                    "  - [{}] {}",
                    e.check_id, e.message
                ));
            }
            Ok(1)
        }
        RepairStatus::Repaired => {
            let text = outcome.repaired_text().unwrap_or_default();
            match &args.output {
                Some(out) => {
                    super::fix::write_atomically(out, text)?;
                    crate::render::terminal::eprint_line(&format!(
                        "byop: {label}: repaired; written to {}",
                        out.display()
                    ));
                }
                None if args.format == HistoryFormat::Text => {
                    let diff = super::fix::unified_diff(&resolved.doc.text, text, &label);
                    super::output::write(None, &diff)?;
                }
                None => {}
            }
            Ok(0)
        }
    }
}

fn doc_flags(args: &RepairArgs) -> super::single::DocFlags<'_> {
    super::single::DocFlags {
        file: &args.file,
        inputs: &args.inputs,
        trust: &args.trust,
    }
}

/// `pass (2 deterministic checks)` or `fail (1 error): [id] message; …`.
fn summary(v: &ValidationRecord) -> String {
    if v.passed() {
        return format!("pass ({} deterministic check(s))", v.checks_run);
    }
    let errors: Vec<String> = v
        .errors
        .iter()
        .map(|e| format!("[{}] {}", e.check_id, e.message))
        .collect();
    format!("fail ({} error(s)): {}", v.errors.len(), errors.join("; "))
}
