//! What a run takes in besides the document and the playbook.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::progress::ProgressFn;
use crate::evaluator::{CallObserver, Evaluator, ResponseCache};
use crate::model::{Mode, PlaybookSource, Report};

pub(super) const NOT_EVALUATED_NO_KEY: &str =
    "Not evaluated: needs the evaluator, and no evaluator is configured (set ANTHROPIC_API_KEY).";
pub(super) const NOT_EVALUATED_DETERMINISTIC: &str = "Not evaluated: needs the evaluator (deterministic checks only; run a screening or full evaluation).";

/// Upper bound on `full_runs`: each run is one call per evaluator-backed check.
pub const MAX_FULL_RUNS: u32 = 10;

/// The earlier report drift compares with.
#[derive(Debug, Clone)]
pub struct DriftReference {
    pub report: Report,
    pub kind: ReferenceKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceKind {
    /// The document's saved baseline.
    Baseline,
    /// The most recent earlier report of the document.
    PreviousReport,
}

impl ReferenceKind {
    pub fn label(self) -> &'static str {
        match self {
            ReferenceKind::Baseline => "baseline",
            ReferenceKind::PreviousReport => "previous report",
        }
    }
}

#[derive(Clone, Default)]
pub struct RunOptions {
    pub mode: Option<Mode>,
    /// Runs per evaluator-backed check in full mode (default 3; at least 2, at most 10).
    pub full_runs: Option<u32>,
    /// Full mode: the most runs a check whose runs disagree may get (default 7; at least
    /// `full_runs`, at most 10). Equal to `full_runs`: no extra runs.
    pub max_runs: Option<u32>,
    /// Ignore cached evaluator responses (new samples); new responses still go to the cache.
    pub fresh: bool,
    pub evaluator: Option<Evaluator>,
    pub cache: Option<Arc<dyn ResponseCache>>,
    /// What drift compares with (`None`: drift is indeterminate).
    pub reference: Option<DriftReference>,
    pub progress: Option<ProgressFn>,
    pub cancel: CancellationToken,
    /// Plant canary instructions in the evaluated text (default: in full mode only).
    pub canary: Option<bool>,
    /// Who chose the playbook (recorded in the report).
    pub playbook_source: Option<PlaybookSource>,
    /// The evaluation request in the audit log (recorded in the report).
    pub request_id: Option<String>,
    /// Receives every evaluator attempt (the audit log, traces).
    pub observer: Option<Arc<dyn CallObserver>>,
    /// Locked mode (recorded in the report).
    pub locked: bool,
    /// Notices from resolving the document (settings the trust model ignored), first in
    /// the report's notices.
    pub notices: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("evaluation cancelled")]
    Cancelled,
}
