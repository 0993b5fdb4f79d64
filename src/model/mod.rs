//! The ground floor: plain data every layer shares, and pure functions over it
//! (positions, canonical hashes). Imports nothing else of this crate.

pub mod audit;
pub mod counterfactual;
pub mod fix;
pub mod grounding;
pub mod history;
pub mod inputs;
pub mod integrity;
pub mod jcs;
pub mod playbook;
pub mod repair;
pub mod report;
pub mod text;
pub mod validation;
pub mod verdict;

pub use audit::{AuditEvent, AuditRow, AuditState, CallOutcome, CallRecord, Usage};
pub use fix::{Edit, Fix};
pub use grounding::{ClaimKind, GroundingCounts, SetAside, SkippedClaim};
pub use history::HistoryRow;
pub use inputs::Inputs;
pub use playbook::{
    Check, DetectionMethod, EvidenceRequirements, FixSpec, Playbook, Remediation, Rule,
    SectionPlacement,
};
pub use repair::{RepairRecord, RepairStatus, ValidationIssue, ValidationRecord};
pub use report::*;
pub use text::{Encoding, LineIndex, Position, Range};
pub use validation::{PlanDebug, Validation, ValidationMetrics, ValidationStatus};
pub use verdict::{DetectionType, Mode, STABILITY_THRESHOLD, Severity, Status, Verdict};

/// Now, RFC 3339 in UTC to the second: the one clock format of reports, rows and logs.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc())
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
