//! Evaluator providers (SPEC §4). OWNER: helper "evaluator".
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::report::{EvaluatorInfo, Verdict};

pub mod prompt;

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    #[default]
    Anthropic,
    OpenAi,
}

/// An API key: memory only, never printed.
#[derive(Clone, Default)]
pub struct ApiKey(String);
impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}
impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

#[derive(Debug, Clone)]
pub struct EvaluatorSettings {
    pub provider: ProviderKind,
    pub model: String,
    /// Without a trailing `/v1`… as the provider's env var gives it; `None` = provider default.
    pub base_url: Option<String>,
    pub api_key: ApiKey,
    pub timeout: Duration,
    pub max_retries: u32,
    pub concurrency: usize,
    pub max_tokens: u32,
    /// First backoff step; doubled per retry, with jitter. Tests shorten it.
    pub backoff_base: Duration,
}

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

pub struct RunOutcome {
    pub result: Result<EvaluatorVerdict, EvalError>,
    /// Raw model text, kept when it could not be parsed (and for the cache when it could).
    pub raw_text: Option<String>,
}

#[derive(Clone)]
pub struct Evaluator {
    _settings: EvaluatorSettings,
}

impl Evaluator {
    pub fn new(settings: EvaluatorSettings) -> Result<Self, EvalError> {
        Ok(Evaluator {
            _settings: settings,
        })
    }
    pub fn info(&self) -> EvaluatorInfo {
        unimplemented!()
    }
    /// sha256 of everything that determines a response, including the run index.
    pub fn cache_key(&self, prompt: &CheckPrompt, run: u32) -> String {
        let _ = (prompt, run);
        unimplemented!()
    }
    pub async fn evaluate(
        &self,
        prompt: &CheckPrompt,
        run: u32,
        cancel: &CancellationToken,
    ) -> RunOutcome {
        let _ = (prompt, run, cancel);
        unimplemented!()
    }
}

/// Parse the model's JSON verdict (tolerating a ```json fence).
pub fn parse_verdict(raw: &str) -> Result<EvaluatorVerdict, String> {
    let _ = raw;
    unimplemented!()
}
