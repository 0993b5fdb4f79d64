//! Progress of an evaluation, for "check 3/6, run 2/3" displays.

use std::sync::Arc;

/// One finished evaluator run.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub check_id: String,
    /// 1-based position of the check in the playbook.
    pub check_index: usize,
    pub check_total: usize,
    pub run: u32,
    pub runs: u32,
    /// Evaluator runs finished so far, of `total_runs`.
    pub done: usize,
    pub total_runs: usize,
}

impl Progress {
    pub fn message(&self) -> String {
        format!(
            "check {}/{}, run {}/{}",
            self.check_index, self.check_total, self.run, self.runs
        )
    }

    pub fn percentage(&self) -> u32 {
        ((self.done * 100) / self.total_runs.max(1)) as u32
    }
}

pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;
