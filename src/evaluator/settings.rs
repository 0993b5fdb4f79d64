//! What an evaluator is: provider, model, where, with which key, within which limits.

use std::time::Duration;

use serde::{Deserialize, Serialize};

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
    /// Larger answers are refused (`too_large`).
    pub max_response_bytes: usize,
}

/// The default bound on an evaluator's answer.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 2 * 1024 * 1024;

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenAi => "openai",
        }
    }
}
