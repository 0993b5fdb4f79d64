//! The small vocabularies every layer shares: verdicts, severities, statuses, modes.

use serde::{Deserialize, Serialize};

/// STABLE needs every check to pass with a consistency above this.
pub const STABILITY_THRESHOLD: f64 = 0.85;

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Deterministic,
    Screening,
    Full,
}

impl Mode {
    /// Evaluator runs per evaluator-backed check.
    pub fn runs(self) -> u32 {
        match self {
            Mode::Deterministic => 0,
            Mode::Screening => 1,
            Mode::Full => 3,
        }
    }
    /// Whether a report made in `reference` mode may be what a run in this mode measures
    /// its drift against: a deterministic report says nothing about how an evaluation
    /// drifted, so it serves deterministic runs only.
    pub fn may_drift_from(self, reference: Mode) -> bool {
        reference != Mode::Deterministic || self == Mode::Deterministic
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Deterministic => "deterministic",
            Mode::Screening => "screening",
            Mode::Full => "full",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "deterministic" => Ok(Mode::Deterministic),
            "screening" => Ok(Mode::Screening),
            "full" => Ok(Mode::Full),
            other => Err(format!(
                "unknown mode `{other}` (expected deterministic, screening or full)"
            )),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Indeterminate,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Indeterminate => "indeterminate",
        }
    }
}

/// Overall status, ordered from least to most severe so `max` picks the worst.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    Stable,
    Observe,
    Review,
    Alert,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Stable => "STABLE",
            Status::Observe => "OBSERVE",
            Status::Review => "REVIEW",
            Status::Alert => "ALERT",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [
            Status::Stable,
            Status::Observe,
            Status::Review,
            Status::Alert,
        ]
        .into_iter()
        .find(|status| status.as_str() == s)
        .ok_or_else(|| format!("unknown status `{s}` (expected STABLE, OBSERVE, REVIEW or ALERT)"))
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
    /// Weight in the consistency score: high = 2, medium = 1, low = 0.5.
    pub fn weight(self) -> f64 {
        match self {
            Severity::High => 2.0,
            Severity::Medium => 1.0,
            Severity::Low => 0.5,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum DetectionType {
    #[default]
    Deterministic,
    Semantic,
    Hybrid,
}

impl DetectionType {
    pub fn as_str(self) -> &'static str {
        match self {
            DetectionType::Deterministic => "deterministic",
            DetectionType::Semantic => "semantic",
            DetectionType::Hybrid => "hybrid",
        }
    }
}
