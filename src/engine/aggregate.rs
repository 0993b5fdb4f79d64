//! Aggregation: strict-majority vote, per-check consistency,
//! severity-weighted consistency score, overall status.
//!
//! Cases the status rules leave open are decided here and listed in the README
//! ("Status rules"); each has a test below.

use crate::model::Severity;
use crate::model::{STABILITY_THRESHOLD, Status, Verdict};

/// How many runs gave each result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Split {
    pub pass: u32,
    pub fail: u32,
    pub indeterminate: u32,
}

impl Split {
    pub fn of(runs: &[Verdict]) -> Split {
        let count = |v| runs.iter().filter(|r| **r == v).count() as u32;
        Split {
            pass: count(Verdict::Pass),
            fail: count(Verdict::Fail),
            indeterminate: count(Verdict::Indeterminate),
        }
    }

    pub fn total(&self) -> u32 {
        self.pass + self.fail + self.indeterminate
    }

    /// Each result with its count, most first (ties: fail, pass, indeterminate).
    fn ranked(&self) -> [(Verdict, u32); 3] {
        let mut r = [
            (Verdict::Fail, self.fail),
            (Verdict::Pass, self.pass),
            (Verdict::Indeterminate, self.indeterminate),
        ];
        r.sort_by_key(|t| std::cmp::Reverse(t.1));
        r
    }

    /// The result more than half of the runs gave, if one did.
    pub fn strict_majority(&self) -> Option<Verdict> {
        let (v, n) = self.ranked()[0];
        (2 * n > self.total()).then_some(v)
    }

    /// "3 pass, 2 fail, 2 indeterminate" (results no run gave left out).
    pub fn describe(&self) -> String {
        self.ranked()
            .iter()
            .filter(|t| t.1 > 0)
            .map(|(v, n)| format!("{n} {}", v.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The result a strict majority of the runs gave (more than half of them); without one,
/// or with no runs, `indeterminate` (fail closed).
pub fn majority(runs: &[Verdict]) -> Verdict {
    Split::of(runs)
        .strict_majority()
        .unwrap_or(Verdict::Indeterminate)
}

/// The result of a check some of whose runs were lost (an evaluator error, a followed
/// canary, an answer over the size limit, a timeout): a lost run never makes the result
/// better than the answered runs say. `all` holds every run (a lost one counted as
/// `indeterminate`), `answered` only the runs the evaluator answered. When `fail` is the
/// strict majority of the answered runs the check fails, whatever the lost runs would have
/// said; otherwise the strict majority of all runs decides, as without losses.
pub fn majority_with_lost(all: &[Verdict], answered: &[Verdict]) -> Verdict {
    if answered.len() < all.len() && majority(answered) == Verdict::Fail {
        return Verdict::Fail;
    }
    majority(all)
}

/// The note of a check whose runs have no strict majority: the split, and what was needed.
pub fn no_majority_note(runs: &[Verdict]) -> Option<String> {
    let split = Split::of(runs);
    if runs.is_empty() || split.strict_majority().is_some() {
        return None;
    }
    Some(format!(
        "No majority: of {} runs, {}; a result needs more than half of the runs ({}).",
        split.total(),
        split.describe(),
        split.total() / 2 + 1
    ))
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
        // A plurality is not a majority: 3 of 7 is not more than half.
        let seven = [Pass, Pass, Pass, Fail, Fail, Indeterminate, Indeterminate];
        assert_eq!(majority(&seven), Indeterminate);
        assert_eq!(
            no_majority_note(&seven).unwrap(),
            "No majority: of 7 runs, 3 pass, 2 fail, 2 indeterminate; a result needs more than half of the runs (4)."
        );
        assert_eq!(majority(&[Pass, Pass, Fail, Fail]), Indeterminate);
        assert_eq!(majority(&[Fail, Fail, Fail, Pass, Pass]), Fail);
        assert_eq!(no_majority_note(&[Fail, Fail, Pass]), None);
    }

    #[test]
    fn lost_runs_never_improve_on_the_answered_ones() {
        let i = Indeterminate;
        // 4 of 5 lost, the one answer fails: fail, not indeterminate.
        assert_eq!(majority_with_lost(&[i, i, Fail, i, i], &[Fail]), Fail);
        // 3 of 5 lost, the answers split: all runs decide (no majority).
        assert_eq!(majority_with_lost(&[i, i, i, Fail, Pass], &[Fail, Pass]), i);
        // Answered fail ×2, pass ×1, 2 lost: fail.
        assert_eq!(
            majority_with_lost(&[Fail, Fail, Pass, i, i], &[Fail, Fail, Pass]),
            Fail
        );
        // A lost run can make a pass indeterminate (worse), never better.
        assert_eq!(majority_with_lost(&[Pass, Pass, i, i, i], &[Pass, Pass]), i);
        assert_eq!(
            majority_with_lost(&[Pass, Pass, Pass, i], &[Pass, Pass, Pass]),
            Pass
        );
        // Nothing lost: the plain strict majority, whatever the answers.
        assert_eq!(majority_with_lost(&[i, i, Fail], &[i, i, Fail]), i);
        assert_eq!(majority_with_lost(&[i, i, i], &[]), i);
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
