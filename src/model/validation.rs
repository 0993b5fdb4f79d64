//! The plan `validation` object (docs/contracts.md, Plan validation): the deterministic gates' verdict on a plan,
//! carried beside the usual report fields by playbooks with plan validators.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ValidationStatus {
    Pass,
    Fail,
}

impl ValidationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ValidationStatus::Pass => "pass",
            ValidationStatus::Fail => "fail",
        }
    }
}

/// Field names and order are part of the contract: consumers read them by position too.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Validation {
    pub status: ValidationStatus,
    pub errors: Vec<String>,
    pub metrics: ValidationMetrics,
}

/// The plan response's `debug` object: which variant wrote the plan (the front matter's
/// `variant`) and, only when the user allows text in telemetry, a short preview of the
/// notes. The report carries the variant; the preview is added by the front end that
/// prints or traces it, never stored.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PlanDebug {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_preview: Option<String>,
}

/// Characters of the notes in `debug.context_preview`.
pub const CONTEXT_PREVIEW_CHARS: usize = 200;

impl PlanDebug {
    /// The preview of `notes`: its first [`CONTEXT_PREVIEW_CHARS`] characters.
    pub fn preview(notes: &str) -> String {
        notes
            .trim_start()
            .chars()
            .take(CONTEXT_PREVIEW_CHARS)
            .collect()
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ValidationMetrics {
    pub constraints_declared: u32,
    pub constraints_violated: u32,
    pub time_available_minutes: i64,
    pub time_planned_minutes: i64,
    pub time_overflow_minutes: i64,
    pub hallucination_flags: u32,
    pub human_feasibility_flags: u32,
    pub context_coverage_ratio: f64,
}

impl ValidationMetrics {
    /// The decision rule: the plan passes only if no constraint is violated, nothing is
    /// hallucinated, the time fits where availability is known, and coverage ≥ 0.7.
    pub fn passes_decision_rule(&self) -> bool {
        self.constraints_violated == 0
            && self.hallucination_flags == 0
            && (self.time_available_minutes <= 0 || self.time_overflow_minutes == 0)
            && self.context_coverage_ratio >= 0.7
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_in_seed_order() {
        let v = Validation {
            status: ValidationStatus::Fail,
            errors: vec!["x".into()],
            metrics: ValidationMetrics::default(),
        };
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(
            s,
            r#"{"status":"fail","errors":["x"],"metrics":{"constraints_declared":0,"constraints_violated":0,"time_available_minutes":0,"time_planned_minutes":0,"time_overflow_minutes":0,"hallucination_flags":0,"human_feasibility_flags":0,"context_coverage_ratio":0.0}}"#
        );
    }

    #[test]
    fn decision_rule() {
        let ok = ValidationMetrics {
            context_coverage_ratio: 0.7,
            time_available_minutes: 100,
            time_planned_minutes: 100,
            ..Default::default()
        };
        assert!(ok.passes_decision_rule());
        assert!(
            !ValidationMetrics {
                time_overflow_minutes: 1,
                ..ok.clone()
            }
            .passes_decision_rule()
        );
        // Unknown availability: overflow cannot be judged.
        assert!(
            ValidationMetrics {
                time_available_minutes: 0,
                time_overflow_minutes: 5,
                ..ok.clone()
            }
            .passes_decision_rule()
        );
        assert!(
            !ValidationMetrics {
                context_coverage_ratio: 0.69,
                ..ok.clone()
            }
            .passes_decision_rule()
        );
        assert!(
            !ValidationMetrics {
                hallucination_flags: 1,
                ..ok.clone()
            }
            .passes_decision_rule()
        );
        assert!(
            !ValidationMetrics {
                constraints_violated: 1,
                ..ok
            }
            .passes_decision_rule()
        );
    }
}
