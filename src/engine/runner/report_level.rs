//! Report-level checks: `run_variance` reads the other checks' repeated runs,
//! `baseline_drift` compares with the reference report the caller passed in.
//! Neither calls the evaluator.

use super::options::DriftReference;
use crate::engine::aggregate;
use crate::model::{Check, CheckResult, Mode, Status, Verdict};

/// A check the evaluator judged in two or more runs (local rules run once and
/// report-level checks are not judged: neither can disagree with itself).
fn judged_repeatedly(r: &CheckResult, c: &Check) -> bool {
    c.needs_evaluator() && !c.is_report_level() && r.raw_runs.len() > 1
}

/// The checks the consistency score rests on: those judged repeatedly, at least one of
/// whose runs the evaluator answered.
fn consistency_basis<'r>(results: &'r [CheckResult], checks: &[Check]) -> Vec<&'r CheckResult> {
    results
        .iter()
        .zip(checks)
        .filter(|(r, c)| judged_repeatedly(r, c) && r.raw_runs.iter().any(|x| x.error.is_none()))
        .map(|(r, _)| r)
        .collect()
}

/// The severity-weighted mean of the per-check consistency of `basis`; `None` when empty.
fn score_of(basis: &[&CheckResult]) -> Option<f64> {
    let items: Vec<_> = basis
        .iter()
        .map(|c| (c.severity, c.per_check_consistency))
        .collect();
    (!items.is_empty()).then(|| aggregate::weighted_consistency(&items))
}

/// The consistency score: the severity-weighted mean of the per-check consistency of
/// the checks in `consistency_basis`; `None` when there are none.
pub(super) fn consistency_score(results: &[CheckResult], checks: &[Check]) -> Option<f64> {
    score_of(&consistency_basis(results, checks))
}

/// `run_variance`: stability of the evaluator-backed checks across runs (no evaluator call).
pub(super) fn variance_result(
    current: &CheckResult,
    results: &[CheckResult],
    checks: &[Check],
    threshold: f64,
) -> CheckResult {
    let mut r = current.clone();
    r.raw_runs = vec![];
    if !results
        .iter()
        .zip(checks)
        .any(|(r, c)| judged_repeatedly(r, c))
    {
        r.result = Verdict::Indeterminate;
        r.notes =
            "Runs cannot be compared: variance needs repeated evaluator runs (full mode).".into();
        return r;
    }
    let comparable = consistency_basis(results, checks);
    let Some(score) = score_of(&comparable) else {
        r.result = Verdict::Indeterminate;
        r.notes = "Runs cannot be compared: every evaluator run failed.".into();
        return r;
    };
    let unstable: Vec<String> = comparable
        .iter()
        .filter(|c| c.per_check_consistency < 1.0)
        .map(|c| format!("{} ({:.2})", c.check_id, c.per_check_consistency))
        .collect();
    r.per_check_confidence = 1.0;
    r.per_check_consistency = 1.0;
    if score > threshold {
        r.result = Verdict::Pass;
        r.notes = format!(
            "Consistency {score:.2} is above the {threshold:.2} threshold across {} check(s).",
            comparable.len()
        );
    } else {
        r.result = Verdict::Fail;
        r.notes = format!(
            "Consistency {score:.2} is at or below the {threshold:.2} threshold; divergent: {}.",
            unstable.join(", ")
        );
    }
    r
}

/// The state of the current run that drift compares with its reference.
pub(super) struct Current<'a> {
    pub results: &'a [CheckResult],
    pub consistency_score: f64,
    /// The overall status without drift itself.
    pub status: Status,
    pub mode: Mode,
    pub fingerprint: &'a str,
}

/// `baseline_drift`: degradation against the baseline (or the previous report).
pub(super) fn drift_result(
    current: &CheckResult,
    now: &Current,
    reference: Option<&DriftReference>,
    max_drop: f64,
) -> CheckResult {
    let (results, score, status, mode, fingerprint) = (
        now.results,
        now.consistency_score,
        now.status,
        now.mode,
        now.fingerprint,
    );
    let mut r = current.clone();
    r.raw_runs = vec![];
    let Some(DriftReference { report: base, kind }) = reference else {
        r.result = Verdict::Indeterminate;
        r.notes = "No baseline or earlier report of this document under this playbook: nothing to compare.".into();
        return r;
    };
    let mut worse = Vec::new();
    for c in results.iter().filter(|c| c.check_id != r.check_id) {
        if let Some(b) = base.check(&c.check_id)
            && b.result == Verdict::Pass
            && c.result == Verdict::Fail
        {
            worse.push(format!("{} pass → fail", c.check_id));
        }
    }
    let both_multi = base.execution_mode == Mode::Full && mode == Mode::Full;
    let delta = score - base.variance_summary.consistency_score;
    if both_multi && -delta > max_drop {
        worse.push(format!(
            "consistency {:.2} → {score:.2}",
            base.variance_summary.consistency_score
        ));
    }
    let base_status = base.summary.overall_status;
    let inputs_note = if base.integrity.inputs_fingerprint == fingerprint {
        "same inputs"
    } else {
        "the inputs have changed since"
    };
    r.per_check_confidence = 1.0;
    r.per_check_consistency = 1.0;
    let reference = format!(
        "{} {} ({}, {inputs_note})",
        kind.label(),
        short_id(&base.report_id),
        base.timestamp
    );
    if worse.is_empty() {
        r.result = Verdict::Pass;
        r.notes = format!(
            "No degradation against {reference}: status {} → {}, consistency delta {delta:+.2}.",
            base_status.as_str(),
            status.as_str()
        );
    } else {
        r.result = Verdict::Fail;
        r.notes = format!("Degraded against {reference}: {}.", worse.join("; "));
    }
    r
}

fn short_id(id: &str) -> &str {
    &id[..id.len().min(12)]
}
