//! What crosses the evaluator's boundary: the prompt in; a verdict, a typed error
//! and the raw text out; and, inside, an HTTP reply before interpretation.

use std::time::Duration;

use reqwest::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub use crate::model::{CallRecord, Usage};
use crate::model::{RunErrorKind, Verdict};

#[derive(Debug, Clone)]
pub struct CheckPrompt {
    pub check_id: String,
    pub system: String,
    pub user: String,
    /// What the check allows the evaluator to answer.
    pub result_states: Vec<Verdict>,
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
    #[error(
        "the evaluator answered with a redirect to {0}; byop does not follow redirects (the key would go along)"
    )]
    Redirected(String),
    #[error("the response is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the evaluator followed an instruction planted in the document (canary)")]
    InjectionSusceptible,
    /// The provider or model declined on policy grounds (a refusal stop reason, a content
    /// filter, a content-policy error). Not retried: the same request gets the same answer.
    #[error("the evaluator refused on policy grounds ({0})")]
    Refused(String),
}

impl EvalError {
    /// The kind recorded in reports (`raw_runs[].error`).
    pub fn kind(&self) -> RunErrorKind {
        match self {
            EvalError::RateLimited { .. } => RunErrorKind::RateLimited,
            EvalError::Overloaded => RunErrorKind::Overloaded,
            EvalError::QuotaExhausted => RunErrorKind::QuotaExhausted,
            EvalError::Auth => RunErrorKind::Auth,
            EvalError::InvalidRequest(_) => RunErrorKind::InvalidRequest,
            EvalError::Server(_) => RunErrorKind::ServerError,
            EvalError::Timeout => RunErrorKind::Timeout,
            EvalError::Network(_) => RunErrorKind::Network,
            EvalError::Malformed => RunErrorKind::Malformed,
            EvalError::Truncated => RunErrorKind::Truncated,
            EvalError::Cancelled => RunErrorKind::Cancelled,
            EvalError::Redirected(_) => RunErrorKind::Redirected,
            EvalError::TooLarge(_) => RunErrorKind::TooLarge,
            EvalError::InjectionSusceptible => RunErrorKind::InjectionSusceptible,
            EvalError::Refused(_) => RunErrorKind::Refused,
        }
    }

    pub fn kind_name(&self) -> &'static str {
        self.kind().as_str()
    }
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
    pub usage: Usage,
}

/// Receives every attempt of every call (the audit log, traces).
pub trait CallObserver: Send + Sync {
    fn record(&self, record: CallRecord);
}

/// A variant's model and sampling parameters, sent in place of the evaluator's.
#[derive(Debug, Clone, PartialEq)]
pub struct GenParams {
    pub model: String,
    pub temperature: f64,
    pub max_tokens: u32,
}

impl GenParams {
    /// Put the parameters in a request body of either wire format.
    pub(super) fn apply(&self, body: &mut Value) {
        body["model"] = json!(self.model);
        body["temperature"] = json!(self.temperature);
        body["max_tokens"] = json!(self.max_tokens);
    }
}
