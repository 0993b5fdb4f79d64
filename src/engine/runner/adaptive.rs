//! Adaptive runs in full mode. Three runs are a floor, not a measurement, when they
//! disagree. A result stands only with a strict majority (more than half) of the runs
//! drawn. The rule, in one sentence: while a check's runs disagree, more are drawn — each
//! time the fewest that could settle it — until one result holds more than half of
//! `max_runs` (no further run could take its majority away), no result can reach that any
//! more, or `max_runs` is reached.

use crate::engine::aggregate::Split;
use crate::evaluator::RunResult;
use crate::model::Verdict;

/// `evaluator.max_runs` when nothing sets it.
pub const DEFAULT_MAX_RUNS: u32 = 7;

/// A run's outcome for the vote: an evaluator error counts as `indeterminate`.
pub fn outcome(r: &RunResult) -> Verdict {
    r.verdict
        .as_ref()
        .map_or(Verdict::Indeterminate, |v| v.result)
}

/// How many more runs a check needs, given the outcomes of its runs so far (0: settled,
/// out of reach, or at `max_runs`).
pub fn more_runs(outcomes: &[Verdict], max_runs: u32) -> u32 {
    let done = outcomes.len() as u32;
    if done == 0 || done >= max_runs {
        return 0;
    }
    let split = Split::of(outcomes);
    let leader = split.pass.max(split.fail).max(split.indeterminate);
    if leader == done {
        return 0; // unanimous
    }
    let needed = max_runs / 2 + 1; // more than half of max_runs
    if leader >= needed {
        return 0; // decided: the rest of the runs could not take the majority away
    }
    let left = max_runs - done;
    if leader + left < needed {
        return 0; // no result can reach a majority any more
    }
    // The fewest runs that could settle it: every one going to the leader.
    (needed - leader).min(left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Fail as F, Indeterminate as I, Pass as P};

    #[test]
    fn unanimous_runs_are_settled() {
        assert_eq!(more_runs(&[P, P, P], 7), 0);
        assert_eq!(more_runs(&[F, F], 7), 0);
    }

    #[test]
    fn a_two_one_split_draws_the_two_runs_that_could_settle_it() {
        // 2–1 with 4 runs left: two more for the leader make 4–1 with 2 left.
        assert_eq!(more_runs(&[P, F, P], 7), 2);
        assert_eq!(more_runs(&[P, F, P, P, P], 7), 0);
    }

    #[test]
    fn a_close_race_goes_on_until_max_runs() {
        assert_eq!(more_runs(&[P, F, P, F, P], 7), 1); // 3–2, 2 left
        assert_eq!(more_runs(&[P, F, P, F, P, F], 7), 1); // 3–3, 1 left
        assert_eq!(more_runs(&[P, F, P, F, P, F, P], 7), 0); // max reached
    }

    #[test]
    fn three_way_splits_draw_what_one_result_needs() {
        // 1–1–1 with 4 left: three runs for one result make 4–1–1 with 1 left.
        assert_eq!(more_runs(&[P, F, I], 7), 3);
    }

    #[test]
    fn max_runs_at_or_below_the_runs_done_draws_nothing() {
        assert_eq!(more_runs(&[P, F, P], 3), 0);
        assert_eq!(more_runs(&[], 7), 0);
    }

    #[test]
    fn a_majority_out_of_reach_stops_early() {
        // 2–2–2 with 1 left: no result can reach 4 of 7.
        assert_eq!(more_runs(&[P, F, I, P, F, I], 7), 0);
        // 3–2–1 with 1 left: the leader can still reach 4.
        assert_eq!(more_runs(&[P, F, I, P, F, P], 7), 1);
    }

    #[test]
    fn a_split_that_stops_early_is_decided_or_out_of_reach() {
        // Every sequence of up to 7 outcomes: when runs disagree and the rule stops before
        // max_runs, either the leader keeps its strict majority whatever the remaining
        // runs say, or no result could reach a strict majority of 7.
        let mut stack: Vec<Vec<Verdict>> = vec![vec![]];
        let mut early_stops = 0;
        while let Some(seq) = stack.pop() {
            let count = |v: Verdict| seq.iter().filter(|&&o| o == v).count();
            let split = [P, F, I].iter().filter(|&&v| count(v) > 0).count() > 1;
            if split && seq.len() < 7 && more_runs(&seq, 7) == 0 {
                early_stops += 1;
                let left = 7 - seq.len();
                let best = [P, F, I].into_iter().map(count).max().unwrap();
                let decided = 2 * best > 7;
                let out_of_reach = 2 * (best + left) <= 7;
                assert!(decided || out_of_reach, "{seq:?}");
            }
            if seq.len() < 7 {
                for v in [P, F, I] {
                    let mut next = seq.clone();
                    next.push(v);
                    stack.push(next);
                }
            }
        }
        assert!(early_stops > 0);
    }
}
