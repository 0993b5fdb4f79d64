//! The live view of a document being edited: the deterministic report of its
//! current text merged with the last evaluation, whose citations are re-located in
//! the current text. What an editor shows between evaluations.

use std::collections::HashSet;
use std::sync::Arc;

use crate::engine::aggregate::{self, CheckSummary};
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
    let suppressions = Suppressions::parse(&doc.text, &doc.line_index);
    let usable = evaluation.filter(|e| {
        e.report.execution_mode != Mode::Deterministic
            && e.report.integrity.playbook_logic_hash == playbook.logic_hash
    });
    let edited = usable.as_ref().is_some_and(|e| *e.text != doc.text);
    let shift = usable
        .as_ref()
        .filter(|_| edited)
        .map(|e| (e, Shift::between(&e.text, &doc.text)));
    let results: Vec<CheckResult> = deterministic
        .check_results
        .iter()
        .map(|det| {
            let check = playbook
                .playbook
                .checks
                .iter()
                .find(|c| c.id == det.check_id);
            let evaluator_decides =
                check.is_some_and(|c| c.needs_evaluator() || c.is_report_level());
            let from_eval = usable
                .as_ref()
                .filter(|_| evaluator_decides)
                .and_then(|e| e.report.check(&det.check_id));
            match from_eval {
                Some(r) => carried_over(r, det, doc, shift.as_ref(), &suppressions),
                None => det.clone(),
            }
        })
        .collect();
    let suppressed_checks = suppressed_checks(&deterministic, usable.as_deref(), &suppressions);
    let shown = usable.as_ref().map_or(&deterministic, |e| &e.report);
    let (mode, consistency_score) = (
        shown.execution_mode,
        shown.variance_summary.consistency_score,
    );
    let evaluated = usable.is_some() && mode != Mode::Deterministic;
    let status = live_status(&results, &deterministic, edited, evaluated);
    LiveView {
        text: Arc::new(doc.text.clone()),
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

/// The status of what is shown now: recomputed from the merged results (a deterministic
/// check failing in the new text counts), at least REVIEW when the text addresses the
/// evaluator (ALERT when the evaluator answered on it), and never STABLE for text the evaluation did not see.
fn live_status(
    results: &[CheckResult],
    deterministic: &Report,
    edited: bool,
    evaluated: bool,
) -> Status {
    let summaries: Vec<CheckSummary> = results
        .iter()
        .map(|r| CheckSummary {
            severity: r.severity,
            result: r.result,
            consistency: r.per_check_consistency,
        })
        .collect();
    let mut status = aggregate::overall_status(&summaries);
    if !deterministic.untrusted_input_warnings.is_empty() {
        status = status.max(Status::Review);
        let answered = |r: &CheckResult| {
            r.detection_type != crate::model::DetectionType::Deterministic
                && r.raw_runs.iter().any(|x| x.error.is_none())
        };
        if evaluated && results.iter().any(answered) {
            status = Status::Alert;
        }
    }
    if results.iter().any(crate::model::followed_canary) {
        status = Status::Alert;
    }
    if edited && status == Status::Stable {
        status = Status::Observe;
    }
    status
}

/// An evaluated result in the current text: its citations re-located after edits
/// (`shift`), suppressed ones dropped. When every quoted passage is gone, the local
/// result is all that still holds.
fn carried_over(
    evaluated: &CheckResult,
    local: &CheckResult,
    doc: &Document,
    shift: Option<&(&Arc<Evaluation>, Shift)>,
    suppressions: &Suppressions,
) -> CheckResult {
    let mut r = evaluated.clone();
    let had_spans = r.evidence_citations.iter().any(is_located);
    if let Some((e, shift)) = shift {
        r.evidence_citations = r
            .evidence_citations
            .iter()
            .filter_map(|c| relocate(c, &e.text, doc, shift))
            .collect();
    }
    r.evidence_citations
        .retain(|c| !suppressed(c, &r.check_id, suppressions));
    if had_spans && shift.is_some() && !r.evidence_citations.iter().any(is_located) {
        return local.clone();
    }
    r
}

/// Checks whose spanless findings are hidden: suppressed in either report or file-wide.
fn suppressed_checks(
    deterministic: &Report,
    evaluation: Option<&Evaluation>,
    suppressions: &Suppressions,
) -> HashSet<String> {
    let mut out: HashSet<String> = deterministic
        .suppressed
        .iter()
        .map(|s| s.check_id.clone())
        .collect();
    for r in &deterministic.check_results {
        if suppressions.file_wide(&r.check_id) {
            out.insert(r.check_id.clone());
        }
    }
    if let Some(e) = evaluation {
        out.extend(e.report.suppressed.iter().map(|s| s.check_id.clone()));
    }
    out
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
