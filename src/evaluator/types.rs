//! What crosses the evaluator's boundary: the prompt in; a verdict, a typed error
//! and the raw text out; and, inside, an HTTP reply before interpretation.

use std::time::Duration;

use reqwest::StatusCode;
use serde::{Deserialize, Serialize};

use crate::model::Verdict;

#[derive(Debug, Clone)]
pub struct CheckPrompt {
    pub system: String,
    pub user: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuotedSpan {
    pub span: String,
    #[serde(default)]
    pub context: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EvaluatorVerdict {
    pub result: Verdict,
    pub confidence: f64,
    pub evidence_citations: Vec<QuotedSpan>,
    pub notes: String,
    pub assumptions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    #[error("rate limited")]
    RateLimited { retry_after: Option<Duration> },
    #[error("provider overloaded")]
    Overloaded,
    #[error("quota exhausted")]
    QuotaExhausted,
    #[error("authentication failed")]
    Auth,
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    #[error("server error (HTTP {0})")]
    Server(u16),
    #[error("timed out")]
    Timeout,
    #[error("network error: {0}")]
    Network(String),
    #[error("Evaluator returned unparseable response")]
    Malformed,
    #[error("response truncated (max_tokens reached)")]
    Truncated,
    #[error("cancelled")]
    Cancelled,
}

#[derive(Debug)]
pub struct RunOutcome {
    pub result: Result<EvaluatorVerdict, EvalError>,
    /// Raw model text, kept when it could not be parsed (and for the cache when it could).
    pub raw_text: Option<String>,
}

/// An HTTP answer, before provider-specific interpretation.
pub(crate) struct HttpReply {
    pub status: StatusCode,
    pub retry_after: Option<Duration>,
    pub body: String,
}

/// What the model said: its raw verdict text, and whether it was cut off.
pub(crate) struct ModelReply {
    pub raw: String,
    pub truncated: bool,
}
