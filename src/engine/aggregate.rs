//! Aggregation: majority vote, per-check consistency,
//! severity-weighted consistency score, overall status.
//!
//! Cases the status rules leave open are decided here and listed in the README
//! ("Status rules"); each has a test below.

use crate::model::Severity;
use crate::model::{STABILITY_THRESHOLD, Status, Verdict};

/// Majority (plurality) verdict of the runs; a tie or no runs is `indeterminate` (fail closed).
pub fn majority(runs: &[Verdict]) -> Verdict {
    let count = |v| runs.iter().filter(|r| **r == v).count();
    let tallies = [
        (Verdict::Fail, count(Verdict::Fail)),
        (Verdict::Pass, count(Verdict::Pass)),
        (Verdict::Indeterminate, count(Verdict::Indeterminate)),
    ];
    let best = tallies.iter().map(|t| t.1).max().unwrap_or(0);
    let leaders: Vec<_> = tallies.iter().filter(|t| t.1 == best && best > 0).collect();
    match leaders.as_slice() {
        [(v, _)] => *v,
        _ => Verdict::Indeterminate,
    }
}

/// 1.0 if all runs agree, 0.5 if 2 of 3, 0.0 if all differ. Generalized as
/// (largest agreeing group − 1) / (runs − 1); a single run is 1.0.
pub fn consistency(runs: &[Verdict]) -> f64 {
    if runs.len() <= 1 {
        return 1.0;
    }
    let largest = [Verdict::Pass, Verdict::Fail, Verdict::Indeterminate]
        .iter()
        .map(|v| runs.iter().filter(|r| *r == v).count())
        .max()
        .unwrap_or(0);
    (largest as f64 - 1.0) / (runs.len() as f64 - 1.0)
}

/// Severity-weighted mean (high = 2, medium = 1, low = 0.5). Empty → 1.0.
pub fn weighted_consistency(items: &[(Severity, f64)]) -> f64 {
    let total: f64 = items.iter().map(|(s, _)| s.weight()).sum();
    if total == 0.0 {
        return 1.0;
    }
    let score = items.iter().map(|(s, c)| s.weight() * c).sum::<f64>() / total;
    (score * 10_000.0).round() / 10_000.0
}

/// What the status rules need to know of one check.
#[derive(Debug, Clone, Copy)]
pub struct CheckSummary {
    pub severity: Severity,
    pub result: Verdict,
    pub consistency: f64,
}

/// Overall status, with the cases the BYOP rules leave open decided:
/// - ALERT: a high-severity check fails (by majority vote).
/// - REVIEW: a high-severity check is indeterminate, or two or more medium-severity checks fail.
/// - OBSERVE: anything else short of STABLE: one medium fail, any medium/low indeterminate,
///   any low fail, or every check passing with some consistency at or below 0.85.
/// - STABLE: every check passes with consistency above 0.85.
pub fn overall_status(checks: &[CheckSummary]) -> Status {
    let high = |v| {
        checks
            .iter()
            .any(|c| c.severity == Severity::High && c.result == v)
    };
    let medium_fails = checks
        .iter()
        .filter(|c| c.severity == Severity::Medium && c.result == Verdict::Fail)
        .count();
    if high(Verdict::Fail) {
        Status::Alert
    } else if high(Verdict::Indeterminate) || medium_fails >= 2 {
        Status::Review
    } else if checks
        .iter()
        .all(|c| c.result == Verdict::Pass && c.consistency > STABILITY_THRESHOLD)
    {
        Status::Stable
    } else {
        Status::Observe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn majority_vote() {
        assert_eq!(majority(&[Fail, Fail, Pass]), Fail);
        assert_eq!(majority(&[Pass]), Pass);
        assert_eq!(majority(&[Pass, Fail, Indeterminate]), Indeterminate);
        assert_eq!(majority(&[Pass, Fail]), Indeterminate, "a tie fails closed");
        assert_eq!(majority(&[]), Indeterminate, "no runs fails closed");
        assert_eq!(
            majority(&[Indeterminate, Indeterminate, Pass]),
            Indeterminate
        );
    }

    #[test]
    fn consistency_matches_the_seed() {
        assert_eq!(consistency(&[Pass, Pass, Pass]), 1.0);
        assert_eq!(consistency(&[Pass, Fail, Pass]), 0.5);
        assert_eq!(consistency(&[Pass, Fail, Indeterminate]), 0.0);
        assert_eq!(consistency(&[Fail]), 1.0);
    }

    #[test]
    fn weighting_is_high_two_medium_one() {
        let s = weighted_consistency(&[(Severity::High, 0.5), (Severity::Medium, 1.0)]);
        assert!((s - (2.0 * 0.5 + 1.0) / 3.0).abs() < 1e-4);
        assert_eq!(weighted_consistency(&[]), 1.0);
    }

    fn c(severity: Severity, result: Verdict, consistency: f64) -> CheckSummary {
        CheckSummary {
            severity,
            result,
            consistency,
        }
    }

    #[test]
    fn status_rules_and_open_cases() {
        use Severity::*;
        assert_eq!(
            overall_status(&[c(High, Fail, 1.0), c(Medium, Pass, 1.0)]),
            Status::Alert
        );
        assert_eq!(
            overall_status(&[c(High, Indeterminate, 1.0)]),
            Status::Review
        );
        assert_eq!(
            overall_status(&[
                c(High, Pass, 1.0),
                c(Medium, Fail, 1.0),
                c(Medium, Fail, 1.0)
            ]),
            Status::Review
        );
        assert_eq!(
            overall_status(&[c(High, Pass, 1.0), c(Medium, Fail, 1.0)]),
            Status::Observe
        );
        assert_eq!(
            overall_status(&[c(High, Pass, 1.0), c(Medium, Indeterminate, 1.0)]),
            Status::Observe
        );
        assert_eq!(
            overall_status(&[c(High, Pass, 1.0), c(Low, Fail, 1.0), c(Low, Fail, 1.0)]),
            Status::Observe
        );
        assert_eq!(
            overall_status(&[c(High, Pass, 0.5), c(Medium, Pass, 1.0)]),
            Status::Observe,
            "unstable passes"
        );
        assert_eq!(
            overall_status(&[c(High, Pass, 1.0), c(Medium, Pass, 1.0)]),
            Status::Stable
        );
        // ALERT wins over REVIEW conditions.
        assert_eq!(
            overall_status(&[c(High, Fail, 0.5), c(High, Indeterminate, 1.0)]),
            Status::Alert
        );
    }
}
