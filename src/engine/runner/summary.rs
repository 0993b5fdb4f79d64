//! The summary's key risks and recommended next steps, from the results.

use crate::model::{Check, CheckResult, InjectionWarning, Mode, Severity, Verdict};

pub(super) fn summarize(
    results: &[CheckResult],
    checks: &[Check],
    warnings: &[InjectionWarning],
    mode: Mode,
) -> (Vec<String>, Vec<String>) {
    let mut risks = Vec::new();
    let mut steps = Vec::new();
    let mut ordered: Vec<(&CheckResult, &Check)> = results
        .iter()
        .zip(checks)
        .filter(|(r, _)| r.result != Verdict::Pass)
        .collect();
    ordered.sort_by_key(|(r, _)| (std::cmp::Reverse(r.severity), r.result != Verdict::Fail));
    for (r, c) in &ordered {
        let first_sentence = r
            .notes
            .split(". ")
            .next()
            .unwrap_or("")
            .trim_end_matches('.');
        risks.push(format!(
            "{} ({}, {}): {}",
            r.check_id,
            r.severity.as_str(),
            r.result.as_str(),
            first_sentence
        ));
        if r.result == Verdict::Fail {
            steps.push(
                c.remediation
                    .as_ref()
                    .map(|r| r.text.clone())
                    .unwrap_or_else(|| format!("Address `{}`: {}", c.id, c.question)),
            );
        }
    }
    if !warnings.is_empty() {
        risks.push(format!(
            "The document or its companions contain {} passage(s) that address the evaluator (possible prompt injection); no evaluator pass stands.",
            warnings.len()
        ));
        steps.push(
            "Remove or review text that addresses the evaluator before trusting this report."
                .into(),
        );
    }
    let not_evaluated = ordered.iter().any(|(r, c)| {
        r.result == Verdict::Indeterminate && c.needs_evaluator() && r.raw_runs.is_empty()
    });
    if not_evaluated && mode == Mode::Deterministic {
        steps.push("Run a screening or full evaluation for the checks that need the evaluator (`byop check --mode full`).".into());
    }
    if ordered
        .iter()
        .any(|(r, _)| r.result == Verdict::Indeterminate && r.severity == Severity::High)
    {
        steps.push("Have a qualified reviewer read the output: a high-severity check could not be decided.".into());
    }
    (risks, steps)
}
