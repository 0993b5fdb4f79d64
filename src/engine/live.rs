//! The live view of a document being edited: the deterministic report of its
//! current text merged with the last evaluation, whose citations are re-located in
//! the current text. What an editor shows between evaluations.

use std::collections::HashSet;
use std::sync::Arc;

use crate::engine::citations::relocate::{Shift, is_located, relocate};
use crate::engine::document::Document;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::suppress::Suppressions;
use crate::model::text::LineIndex;
use crate::model::{Check, CheckResult, Citation, Mode, Report, Status};

/// The last evaluator report and the exact text it was computed on.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub report: Report,
    pub text: Arc<String>,
}

/// The merged state of one document text.
#[derive(Debug, Clone)]
pub struct LiveView {
    pub text: Arc<String>,
    pub line_index: LineIndex,
    pub playbook: LoadedPlaybook,
    /// One per playbook check; citations' `byte_range` are valid in `text`.
    pub results: Vec<CheckResult>,
    pub body: (usize, usize),
    pub body_start_line: u32,
    /// The deterministic report of this exact text.
    pub deterministic: Report,
    /// The evaluator report merged in, if any (its text may be older).
    pub evaluation: Option<Arc<Evaluation>>,
    /// Checks whose spanless findings are suppressed.
    pub suppressed_checks: HashSet<String>,
    pub status: Status,
    pub mode: Mode,
    pub consistency_score: f64,
    /// The evaluation was made on other text (edits since).
    pub edited_since_evaluation: bool,
}

impl LiveView {
    /// The playbook's definition of a check.
    pub fn check(&self, check_id: &str) -> Option<&Check> {
        self.playbook
            .playbook
            .checks
            .iter()
            .find(|c| c.id == check_id)
    }

    pub fn result(&self, check_id: &str) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.check_id == check_id)
    }

    /// Byte range of the first body line, where findings without a span sit.
    pub fn first_body_line(&self) -> (usize, usize) {
        let line = self.body_start_line;
        (
            self.line_index.line_start(line),
            self.line_index.line_end(&self.text, line),
        )
    }
}

/// Merge: the evaluator decides the checks it evaluated (and report-level ones);
/// deterministic results cover the rest. Evaluator citations are re-located in
/// the current text; those whose text is gone are dropped.
pub fn merge(
    playbook: &LoadedPlaybook,
    doc: &Document,
    deterministic: Report,
    evaluation: Option<Arc<Evaluation>>,
) -> LiveView {
    let text = Arc::new(doc.text.clone());
    let suppressions = Suppressions::parse(&doc.text, &doc.line_index);
    let usable = evaluation.filter(|e| {
        e.report.execution_mode != Mode::Deterministic
            && e.report.integrity.playbook_logic_hash == playbook.logic_hash
    });
    let edited = usable.as_ref().is_some_and(|e| *e.text != doc.text);
    let mut results = Vec::with_capacity(deterministic.check_results.len());
    for det in &deterministic.check_results {
        let check = playbook
            .playbook
            .checks
            .iter()
            .find(|c| c.id == det.check_id);
        let evaluator_decides = check.is_some_and(|c| c.needs_evaluator() || c.is_report_level());
        let from_eval = usable
            .as_ref()
            .filter(|_| evaluator_decides)
            .and_then(|e| e.report.check(&det.check_id).map(|r| (e, r)));
        let merged = match from_eval {
            Some((e, r)) => {
                let mut r = r.clone();
                let had_spans = r.evidence_citations.iter().any(is_located);
                if edited {
                    let shift = Shift::between(&e.text, &doc.text);
                    r.evidence_citations = r
                        .evidence_citations
                        .iter()
                        .filter_map(|c| relocate(c, &e.text, doc, &shift))
                        .collect();
                }
                r.evidence_citations
                    .retain(|c| !suppressed(c, &r.check_id, &suppressions));
                if had_spans && !r.evidence_citations.iter().any(is_located) && edited {
                    // Every quoted passage is gone: the local view is all that still holds.
                    det.clone()
                } else {
                    r
                }
            }
            None => det.clone(),
        };
        results.push(merged);
    }
    let mut suppressed_checks: HashSet<String> = deterministic
        .suppressed
        .iter()
        .map(|s| s.check_id.clone())
        .collect();
    for r in &results {
        if suppressions.file_wide(&r.check_id) {
            suppressed_checks.insert(r.check_id.clone());
        }
    }
    if let Some(e) = &usable {
        suppressed_checks.extend(e.report.suppressed.iter().map(|s| s.check_id.clone()));
    }
    let (status, mode, consistency_score) = match &usable {
        Some(e) => (
            e.report.summary.overall_status,
            e.report.execution_mode,
            e.report.variance_summary.consistency_score,
        ),
        None => (
            deterministic.summary.overall_status,
            deterministic.execution_mode,
            deterministic.variance_summary.consistency_score,
        ),
    };
    LiveView {
        text,
        line_index: doc.line_index.clone(),
        playbook: playbook.clone(),
        results,
        body: doc.body,
        body_start_line: doc.body_start_line(),
        deterministic,
        evaluation: usable,
        suppressed_checks,
        status,
        mode,
        consistency_score,
        edited_since_evaluation: edited,
    }
}

fn suppressed(c: &Citation, check_id: &str, s: &Suppressions) -> bool {
    match c.byte_range {
        Some(_) if is_located(c) => {
            let line = c.range.map(|r| r.start.line).unwrap_or(0);
            s.suppressed(check_id, line).is_some()
        }
        _ => s.file_wide(check_id),
    }
}
