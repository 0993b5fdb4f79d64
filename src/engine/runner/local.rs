//! Work done once per document and run: every check's rule outcome and the
//! suppression comments; results of checks decided without the evaluator.

use std::cell::OnceCell;

use crate::engine::citations::Locator;
use crate::engine::document::Document;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::rules::{RuleContext, RuleOutcome};
use crate::engine::suppress::Suppressions;
use crate::evaluator::prompt::Candidate;
use crate::model::{Check, CheckResult, Citation, DetectionType, Located, RawRun, Verdict};

pub(super) struct Prepared<'a> {
    pub doc: &'a Document,
    pub outcomes: Vec<Option<RuleOutcome>>,
    pub suppressions: Suppressions,
    /// Built on the first evaluator citation: the body normalized once per run.
    locator: OnceCell<Locator<'a>>,
}

impl<'a> Prepared<'a> {
    pub fn new(playbook: &LoadedPlaybook, doc: &'a Document) -> Self {
        let cx = RuleContext::new(&doc.text, doc.body);
        let outcomes = playbook
            .compiled
            .iter()
            .map(|r| r.as_ref().and_then(|r| r.apply(&cx)))
            .collect();
        Prepared {
            doc,
            outcomes,
            suppressions: Suppressions::parse(&doc.text, &doc.line_index),
            locator: OnceCell::new(),
        }
    }

    pub fn locator(&self) -> &Locator<'a> {
        self.locator
            .get_or_init(|| Locator::new(&self.doc.text, self.doc.body))
    }

    pub fn citation(
        &self,
        start: usize,
        end: usize,
        located: Located,
        context: String,
    ) -> Citation {
        let range = self.doc.range(start, end);
        Citation {
            span: self.doc.text[start..end].to_string(),
            location: format!("line {}", range.start.line + 1),
            located,
            range: Some(range),
            byte_range: Some((start, end)),
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context,
        }
    }

    fn hit_citations(&self, outcome: &RuleOutcome) -> Vec<Citation> {
        outcome
            .hits
            .iter()
            .map(|h| self.citation(h.start, h.end, Located::Exact, h.note.clone()))
            .collect()
    }

    /// Problem spans found locally, handed to the evaluator (hybrid/semantic checks with rules).
    pub fn candidates(&self, i: usize) -> Vec<Candidate> {
        let Some(o) = &self.outcomes[i] else {
            return Vec::new();
        };
        o.hits
            .iter()
            .map(|h| Candidate {
                text: self.doc.text[h.start..h.end].to_string(),
                note: h.note.clone(),
                line: self.doc.line_index.line_of(h.start) + 1,
            })
            .collect()
    }

    /// A check decided without the evaluator in this run; `why` says why an evaluator-backed
    /// check was not evaluated.
    pub fn local_result(&self, check: &Check, i: usize, why: &str) -> CheckResult {
        let base = |result, confidence, citations, notes: String| {
            blank_result(check, result, confidence, citations, notes)
        };
        if check.is_report_level() {
            // Filled in once the other results exist.
            return base(Verdict::Indeterminate, 0.0, vec![], String::new());
        }
        match (check.detection_method.kind, &self.outcomes[i]) {
            (DetectionType::Deterministic, Some(o)) => {
                let mut r = base(o.verdict, 1.0, self.hit_citations(o), o.notes.clone());
                r.raw_runs = vec![local_run(o.verdict)];
                r
            }
            (DetectionType::Deterministic, None) => base(
                Verdict::Indeterminate,
                0.0,
                vec![],
                "Not evaluated: this deterministic check has no machine-readable `rules`.".into(),
            ),
            (_, Some(o)) if o.hits_are_problems && !o.hits.is_empty() => base(
                Verdict::Indeterminate,
                0.0,
                self.hit_citations(o),
                format!(
                    "{why} Local rules flag {} candidate span(s): {}",
                    o.hits.len(),
                    o.notes
                ),
            ),
            (_, Some(o)) => base(
                Verdict::Indeterminate,
                0.0,
                vec![],
                format!("{why} Local rules: {}", o.notes),
            ),
            (_, None) => base(Verdict::Indeterminate, 0.0, vec![], why.to_string()),
        }
    }
}

/// A result with no runs yet.
pub(super) fn blank_result(
    check: &Check,
    result: Verdict,
    confidence: f64,
    citations: Vec<Citation>,
    notes: String,
) -> CheckResult {
    CheckResult {
        check_id: check.id.clone(),
        result,
        per_check_confidence: confidence,
        per_check_consistency: 1.0,
        evidence_citations: citations,
        notes,
        raw_runs: vec![],
        severity: check.severity,
        detection_type: check.detection_method.kind,
        assumptions: vec![],
    }
}

/// The one "run" of a local rule.
fn local_run(result: Verdict) -> RawRun {
    RawRun {
        run: 1,
        result,
        confidence: 1.0,
        notes: String::new(),
        evidence_citations: vec![],
        error: None,
        raw_response: None,
        cached: false,
    }
}
