//! Comparing two reports (`byop diff`, drift in the HTML report). Rendering is in `render::diff`.
//!
//! `a` is the earlier (or baseline) report, `b` the later one; deltas are `b - a`.
use std::collections::BTreeSet;

use serde::Serialize;

use crate::model::{CheckResult, Report, Status, Verdict};

/// Consistency values closer than this are the same (they come from ratios of small counts).
const CONSISTENCY_EPSILON: f64 = 1e-9;

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: ReportSide,
    pub b: ReportSide,
    /// Same playbook logic hash and same inputs fingerprint.
    pub comparable: bool,
    /// Why the two are not comparable (empty when they are).
    pub not_comparable_because: Vec<String>,
    pub status: StatusChange,
    /// `b.consistency_score - a.consistency_score`.
    pub consistency_delta: f64,
    /// Every check of either report, side by side, in `a`'s order then `b`'s new ones.
    pub checks: Vec<CheckComparison>,
    /// Ids of checks whose result or consistency changed, or that exist on one side only.
    pub changed_checks: Vec<String>,
    pub citations_added: Vec<CitationChange>,
    pub citations_removed: Vec<CitationChange>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportSide {
    pub report_id: String,
    pub timestamp: String,
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub execution_mode: String,
    pub overall_status: Status,
    pub consistency_score: f64,
    pub playbook_logic_hash: String,
    pub inputs_fingerprint: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct StatusChange {
    pub from: Status,
    pub to: Status,
    pub changed: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckComparison {
    pub check_id: String,
    pub a: Option<CheckSide>,
    pub b: Option<CheckSide>,
    pub result_changed: bool,
    pub consistency_changed: bool,
}

impl CheckComparison {
    pub fn changed(&self) -> bool {
        self.result_changed || self.consistency_changed || self.a.is_none() || self.b.is_none()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckSide {
    pub result: Verdict,
    pub consistency: f64,
    pub confidence: f64,
    pub citations: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CitationChange {
    pub check_id: String,
    pub span: String,
}

pub fn compare(a: &Report, b: &Report) -> Comparison {
    let mut not_comparable_because = Vec::new();
    if a.integrity.playbook_logic_hash != b.integrity.playbook_logic_hash {
        not_comparable_because.push(format!(
            "different playbook logic hash (A {}, B {})",
            a.integrity.playbook_logic_hash, b.integrity.playbook_logic_hash
        ));
    }
    if a.integrity.inputs_fingerprint != b.integrity.inputs_fingerprint {
        not_comparable_because.push(format!(
            "different inputs fingerprint (A {}, B {})",
            a.integrity.inputs_fingerprint, b.integrity.inputs_fingerprint
        ));
    }

    let mut ids: Vec<&str> = a
        .check_results
        .iter()
        .map(|c| c.check_id.as_str())
        .collect();
    for c in &b.check_results {
        if !ids.contains(&c.check_id.as_str()) {
            ids.push(&c.check_id);
        }
    }

    let mut checks = Vec::new();
    let mut citations_added = Vec::new();
    let mut citations_removed = Vec::new();
    for id in ids {
        let (ca, cb) = (a.check(id), b.check(id));
        let (sa, sb) = (cited_spans(ca), cited_spans(cb));
        citations_added.extend(sb.difference(&sa).map(|s| change(id, s)));
        citations_removed.extend(sa.difference(&sb).map(|s| change(id, s)));
        let result_changed = matches!((ca, cb), (Some(x), Some(y)) if x.result != y.result);
        let consistency_changed = matches!((ca, cb),
            (Some(x), Some(y)) if (x.per_check_consistency - y.per_check_consistency).abs() > CONSISTENCY_EPSILON);
        checks.push(CheckComparison {
            check_id: id.to_string(),
            a: ca.map(side),
            b: cb.map(side),
            result_changed,
            consistency_changed,
        });
    }
    let changed_checks = checks
        .iter()
        .filter(|c| c.changed())
        .map(|c| c.check_id.clone())
        .collect();

    let (from, to) = (a.summary.overall_status, b.summary.overall_status);
    Comparison {
        a: report_side(a),
        b: report_side(b),
        comparable: not_comparable_because.is_empty(),
        not_comparable_because,
        status: StatusChange {
            from,
            to,
            changed: from != to,
        },
        consistency_delta: b.variance_summary.consistency_score
            - a.variance_summary.consistency_score,
        checks,
        changed_checks,
        citations_added,
        citations_removed,
    }
}

fn change(check_id: &str, span: &str) -> CitationChange {
    CitationChange {
        check_id: check_id.to_string(),
        span: span.to_string(),
    }
}

/// Cited spans of a check, whitespace-normalized so re-wrapping is not a change.
fn cited_spans(check: Option<&CheckResult>) -> BTreeSet<String> {
    check
        .map(|c| {
            c.evidence_citations
                .iter()
                .map(|cit| cit.span.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn side(c: &CheckResult) -> CheckSide {
    CheckSide {
        result: c.result,
        consistency: c.per_check_consistency,
        confidence: c.per_check_confidence,
        citations: c.evidence_citations.len(),
    }
}

fn report_side(r: &Report) -> ReportSide {
    ReportSide {
        report_id: r.report_id.clone(),
        timestamp: r.timestamp.clone(),
        document: r.document.path.clone(),
        playbook_id: r.playbook_id.clone(),
        playbook_version: r.playbook_version.clone(),
        execution_mode: r.execution_mode.as_str().to_string(),
        overall_status: r.summary.overall_status,
        consistency_score: r.variance_summary.consistency_score,
        playbook_logic_hash: r.integrity.playbook_logic_hash.clone(),
        inputs_fingerprint: r.integrity.inputs_fingerprint.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_compared_with_normalized_whitespace() {
        let cit = |s: &str| crate::model::Citation {
            source: None,
            span: s.into(),
            location: "line 1".into(),
            located: crate::model::Located::Exact,
            range: None,
            byte_range: None,
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context: String::new(),
        };
        let check = CheckResult {
            code: None,
            check_id: "x".into(),
            result: Verdict::Fail,
            per_check_confidence: 1.0,
            per_check_consistency: 1.0,
            evidence_citations: vec![cit("a  b\nc"), cit("a b c"), cit("  ")],
            notes: String::new(),
            raw_runs: vec![],
            severity: crate::model::Severity::High,
            detection_type: Default::default(),
            assumptions: vec![],
            grounding: None,
            skipped_claims: vec![],
        };
        let spans = cited_spans(Some(&check));
        assert_eq!(
            spans.into_iter().collect::<Vec<_>>(),
            vec!["a b c".to_string()]
        );
    }
}
