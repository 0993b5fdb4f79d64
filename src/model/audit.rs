//! The audit trail: what happened to an evaluation request, step by step, and every
//! evaluator call it made, as data. The store chains the rows by hash.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::report::RunErrorKind;

/// Tokens the provider says the call used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

/// One attempt at one evaluator call, for the audit log and traces: what was sent and
/// received, as hashes, never the bodies or the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    pub provider: String,
    pub model: String,
    pub check_id: String,
    pub run: u32,
    /// 1-based; 0 for an answer served from the cache.
    pub attempt: u32,
    /// RFC 3339, when the attempt started.
    pub started_at: String,
    pub latency_ms: u64,
    /// HTTP status, when a response arrived.
    pub status: Option<u16>,
    /// `ok`, or the error kind.
    pub outcome: CallOutcome,
    pub cached: bool,
    pub request_sha256: Option<String>,
    pub response_sha256: Option<String>,
    pub usage: Usage,
}

/// How an evaluator call ended: written `ok`, or the error kind's name (`rate_limited`,
/// `timeout`, … as in a report's `raw_runs[].error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallOutcome {
    Ok,
    Failed(RunErrorKind),
}

impl CallOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            CallOutcome::Ok => "ok",
            CallOutcome::Failed(kind) => kind.as_str(),
        }
    }
    pub fn is_ok(self) -> bool {
        self == CallOutcome::Ok
    }
}

impl std::fmt::Display for CallOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for CallOutcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for CallOutcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == "ok" {
            return Ok(CallOutcome::Ok);
        }
        let kind = serde::de::value::StrDeserializer::<serde::de::value::Error>::new(&name);
        RunErrorKind::deserialize(kind)
            .map(CallOutcome::Failed)
            .map_err(|_| serde::de::Error::custom(format!("unknown call outcome `{name}`")))
    }
}

/// A state an evaluation request passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditState {
    /// A document was handed in.
    Received,
    /// It resolved: companions inside the workspace, playbook loaded.
    Validated,
    /// Checks are running.
    Evaluating,
    /// One evaluator call (attempt), with its record.
    Call,
    /// A report was produced (and saved).
    Evaluated,
    /// Stopped, with a code saying why.
    Halted,
    /// A deterministic validation (repair): `before: pass|fail[: ids]`, `after: …`.
    Validation,
    /// A repair whose answer passed every deterministic check (code: its sha256).
    Repaired,
    /// A repair whose answer still fails (code: the remaining check ids).
    Rejected,
    /// An output was generated and written (code: its outcome and generation request id;
    /// the decision id: the sha256 of the document written).
    Generated,
}

impl AuditState {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditState::Received => "received",
            AuditState::Validated => "validated",
            AuditState::Evaluating => "evaluating",
            AuditState::Call => "call",
            AuditState::Evaluated => "evaluated",
            AuditState::Halted => "halted",
            AuditState::Validation => "validation",
            AuditState::Repaired => "repaired",
            AuditState::Rejected => "rejected",
            AuditState::Generated => "generated",
        }
    }
}

/// One step, as appended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub request_id: String,
    /// RFC 3339.
    pub at: String,
    pub document: String,
    pub state: AuditState,
    /// Why it halted (`input_error`, `not_evaluated`, `cancelled`, …), or the report id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs_fingerprint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playbook_logic_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<CallRecord>,
    /// The id of what the request decided (the report, or the counterfactual audit), on
    /// every row of a request that produced one; absent on rows written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_id: Option<String>,
}

/// A stored step: its place in the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    pub id: i64,
    #[serde(flatten)]
    pub event: AuditEvent,
    /// The previous row's hash (zeros for the first row).
    pub prev_hash: String,
    /// sha256 of this row's canonical JSON (without `row_hash`).
    pub row_hash: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_outcome_is_written_as_before_and_read_back() {
        for (outcome, name) in [
            (CallOutcome::Ok, "ok"),
            (
                CallOutcome::Failed(RunErrorKind::RateLimited),
                "rate_limited",
            ),
            (CallOutcome::Failed(RunErrorKind::Refused), "refused"),
        ] {
            let json = serde_json::to_value(outcome).unwrap();
            assert_eq!(json, name);
            assert_eq!(
                serde_json::from_value::<CallOutcome>(json).unwrap(),
                outcome
            );
        }
        let err = serde_json::from_str::<CallOutcome>("\"exploded\"").unwrap_err();
        assert!(
            err.to_string().contains("unknown call outcome `exploded`"),
            "{err}"
        );
    }
}
