//! The record of a repair (repair once, then re-validate: docs/contracts.md, Repair) in the report: the deterministic validation
//! before, the one repair attempt, and the validation of its answer.

use serde::{Deserialize, Serialize};

use super::EvaluatorInfo;
use super::validation::ValidationStatus;

/// How the repair ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairStatus {
    /// Every deterministic check already passed: no evaluator call was made.
    NotNeeded,
    /// The answer passes every deterministic check: it is offered.
    Repaired,
    /// The answer still fails a deterministic check: it is not offered.
    Rejected,
    /// No usable answer (no evaluator, provider error, unparseable, cancelled).
    Failed,
}

impl RepairStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RepairStatus::NotNeeded => "not_needed",
            RepairStatus::Repaired => "repaired",
            RepairStatus::Rejected => "rejected",
            RepairStatus::Failed => "failed",
        }
    }
}

/// One deterministic check that did not pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationIssue {
    pub check_id: String,
    pub message: String,
}

/// The deterministic checks of one text: `pass` when none is left in `errors`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationRecord {
    /// `pass` when no deterministic check is left in `errors`.
    pub status: ValidationStatus,
    pub errors: Vec<ValidationIssue>,
    /// Deterministic checks run / passed.
    pub checks_run: usize,
    pub checks_passed: usize,
    /// Of the text validated (the original, or the repaired one).
    pub inputs_fingerprint: String,
}

impl ValidationRecord {
    pub fn passed(&self) -> bool {
        self.errors.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairRecord {
    pub status: RepairStatus,
    pub before: ValidationRecord,
    /// The validation of the evaluator's answer; `None` when there was none.
    pub after: Option<ValidationRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluator: Option<EvaluatorInfo>,
    /// Why it failed (`failed`), in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// sha256 of the whole repaired document text (also when rejected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repaired_sha256: Option<String>,
}
