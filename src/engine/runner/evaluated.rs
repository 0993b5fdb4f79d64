//! Evaluator runs → one check result: the strict-majority vote, consistency, the agreeing
//! runs' confidence, located citations and notes. Errors count as indeterminate runs and
//! stay apart from fails, but a lost run never makes the result better than the answered
//! runs say (`aggregate::majority_with_lost`). Without a strict majority the check is
//! indeterminate, its notes giving the split, and no run's citations or confidence stand
//! for it.

use std::collections::HashSet;

use super::local::Prepared;
use crate::engine::aggregate;
use crate::evaluator::RunResult;
use crate::model::{Check, CheckResult, Citation, Located, RawRun, RunErrorKind, Verdict};

pub(super) fn evaluated_result(
    prepared: &Prepared,
    check: &Check,
    runs: &[(u32, RunResult)],
) -> CheckResult {
    let raw_runs: Vec<RawRun> = runs
        .iter()
        .map(|(run, r)| raw_run(prepared, *run, r))
        .collect();
    let verdicts: Vec<Verdict> = raw_runs.iter().map(|r| r.result).collect();
    let answered: Vec<Verdict> = raw_runs
        .iter()
        .filter(|r| r.error.is_none())
        .map(|r| r.result)
        .collect();
    let result = aggregate::majority_with_lost(&verdicts, &answered);
    // Decided by the answered runs: the split of all runs is not the reason.
    let split = match result == aggregate::majority(&verdicts) {
        true => aggregate::no_majority_note(&verdicts),
        false => None,
    };
    let agreeing: Vec<&RawRun> = raw_runs
        .iter()
        .filter(|r| split.is_none() && r.result == result)
        .collect();
    let mut seen = HashSet::new();
    let citations: Vec<Citation> = agreeing
        .iter()
        .flat_map(|r| r.evidence_citations.iter().cloned())
        .filter(|c| seen.insert(c.span.clone()))
        .collect();
    let notes = with_errors(split.unwrap_or_else(|| first_note(&agreeing)), &raw_runs);
    let assumptions = assumptions_of(&agreeing, runs);
    let hidden = prepared.doc.layout().unrendered();
    let (result, notes) = require_evidence(check, result, &citations, hidden, notes);
    let code = fail_closed_code(result, &raw_runs);
    let notes = match code {
        Some(code) => format!("{code}: {notes}"),
        None => notes,
    };
    CheckResult {
        code: code.map(str::to_string),
        check_id: check.id.clone(),
        result,
        per_check_confidence: mean_confidence(&agreeing),
        per_check_consistency: aggregate::consistency(&verdicts),
        evidence_citations: citations,
        notes,
        raw_runs,
        severity: check.severity,
        detection_type: check.detection_method.kind,
        assumptions,
        grounding: None,
        skipped_claims: vec![],
    }
}

fn raw_run(prepared: &Prepared, run: u32, r: &RunResult) -> RawRun {
    match &r.verdict {
        Ok(v) => RawRun {
            run,
            result: v.result,
            confidence: v.confidence,
            notes: v.notes.clone(),
            evidence_citations: v
                .evidence_citations
                .iter()
                .map(|q| locate(prepared, &q.span, &q.context))
                .collect(),
            error: None,
            raw_response: None,
            cached: r.cached,
        },
        Err(e) => RawRun {
            run,
            result: Verdict::Indeterminate,
            confidence: 0.0,
            notes: e.to_string(),
            evidence_citations: vec![],
            error: Some(e.kind()),
            raw_response: r.raw.clone(),
            cached: false,
        },
    }
}

/// The evidence contract's code for an indeterminate check the evaluator would not
/// answer: LC-005 when it refused on policy grounds in any run, else LC-006 when rate
/// limiting outlasted the retries in any run.
fn fail_closed_code(result: Verdict, raw_runs: &[RawRun]) -> Option<&'static str> {
    if result != Verdict::Indeterminate {
        return None;
    }
    let any = |kind| raw_runs.iter().any(|r| r.error == Some(kind));
    if any(RunErrorKind::Refused) {
        Some("LC-005")
    } else if any(RunErrorKind::RateLimited) {
        Some("LC-006")
    } else {
        None
    }
}

fn mean_confidence(agreeing: &[&RawRun]) -> f64 {
    if agreeing.is_empty() {
        return 0.0;
    }
    let c = agreeing.iter().map(|r| r.confidence).sum::<f64>() / agreeing.len() as f64;
    (c * 1000.0).round() / 1000.0
}

fn first_note(agreeing: &[&RawRun]) -> String {
    agreeing
        .iter()
        .map(|r| r.notes.as_str())
        .find(|n| !n.is_empty())
        .unwrap_or("")
        .to_string()
}

/// Say how many runs could not be evaluated, and why the first one failed.
fn with_errors(notes: String, raw_runs: &[RawRun]) -> String {
    let errors = raw_runs.iter().filter(|r| r.error.is_some()).count();
    if errors == 0 {
        return notes;
    }
    let first = raw_runs
        .iter()
        .find(|r| r.error.is_some())
        .map(|r| r.notes.clone())
        .unwrap_or_default();
    format!(
        "{notes} {errors} of {} run(s) could not be evaluated ({first}).",
        raw_runs.len()
    )
    .trim()
    .to_string()
}

/// A verdict of a check that requires citations must rest on located quotes: a fail on
/// enough of them, a pass on at least one that a reader sees. Otherwise it is
/// indeterminate. Text no reader sees (`hidden`: an HTML comment, a hidden element, a link
/// title, in text order) cannot show that a check passes, so a pass quoting only such text
/// has no evidence; a fail may quote it (what hides there is still in the document).
fn require_evidence(
    check: &Check,
    result: Verdict,
    citations: &[Citation],
    hidden: &[(usize, usize)],
    notes: String,
) -> (Verdict, String) {
    let reqs = &check.evidence_requirements;
    if !reqs.require_citations || result == Verdict::Indeterminate {
        return (result, notes);
    }
    let shown = |c: &&Citation| {
        result != Verdict::Pass
            || c.byte_range.is_none_or(|(s, e)| {
                // Wholly inside one unrendered span: nothing of it is shown.
                let i = hidden.partition_point(|&(_, he)| he <= s);
                !hidden.get(i).is_some_and(|&(hs, he)| hs <= s && e <= he)
            })
    };
    // A misquote (fuzzy) is shown but proves nothing.
    let located = citations
        .iter()
        .filter(|c| c.located.is_evidence())
        .filter(shown)
        .count() as u32;
    let needed = match result {
        Verdict::Fail => reqs.min_citations_per_fail.max(1),
        _ => 1,
    };
    if located >= needed {
        return (result, notes);
    }
    let notes = format!(
        "Evaluator said {}, but only {located} of {} quoted span(s) are verbatim in text the document shows (needs {needed}); treated as indeterminate. {notes}",
        result.as_str(),
        citations.len(),
    );
    (Verdict::Indeterminate, notes)
}

/// The assumptions the agreeing runs extracted, first occurrence first.
fn assumptions_of(agreeing: &[&RawRun], runs: &[(u32, RunResult)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let verdicts = agreeing
        .iter()
        .filter_map(|r| runs.iter().find(|(n, _)| *n == r.run))
        .filter_map(|(_, r)| r.verdict.as_ref().ok());
    for a in verdicts.flat_map(|v| v.assumptions.iter()) {
        if !out.contains(a) {
            out.push(a.clone());
        }
    }
    out
}

fn locate(prepared: &Prepared, span: &str, context: &str) -> Citation {
    let loc = prepared.locator().locate(span);
    if loc.located == Located::Unlocated {
        return Citation {
            source: None,
            span: span.to_string(),
            location: "unlocated".into(),
            located: Located::Unlocated,
            range: None,
            byte_range: None,
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context: context.to_string(),
        };
    }
    let mut c = prepared.citation(loc.start, loc.end, loc.located, context.to_string());
    if loc.pieces.len() > 1 {
        c.ranges = loc
            .pieces
            .iter()
            .map(|&(s, e)| prepared.doc.range(s, e))
            .collect();
        c.byte_ranges = loc.pieces;
    }
    // Keep the evaluator's own words: that is what it claimed to quote.
    c.span = span.to_string();
    c
}
