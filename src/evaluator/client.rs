//! The evaluator client: one provider behind a concurrency bound, with retries,
//! typed errors and redaction of the key from anything it reports.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::parse::parse_verdict;
use super::settings::{EvaluatorSettings, ProviderKind};
use super::types::{CheckPrompt, EvalError, HttpReply, ModelReply, RunOutcome};
use super::{anthropic, openai, retry, schema};
use crate::model::EvaluatorInfo;
use crate::model::integrity::{canonical_json, sha256_hex};

/// Calls one provider; cheap to clone (shares the HTTP client and the permits).
#[derive(Clone)]
pub struct Evaluator {
    inner: Arc<Inner>,
}

struct Inner {
    settings: EvaluatorSettings,
    /// Base URL without trailing `/`.
    base_url: String,
    endpoint: String,
    client: reqwest::Client,
    permits: Semaphore,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("settings", &self.inner.settings)
            .field("endpoint", &self.inner.endpoint)
            .finish()
    }
}

impl Evaluator {
    pub fn new(settings: EvaluatorSettings) -> Result<Self, EvalError> {
        if settings.concurrency == 0 {
            return Err(EvalError::InvalidRequest(
                "evaluator concurrency must be at least 1".into(),
            ));
        }
        if settings.model.trim().is_empty() {
            return Err(EvalError::InvalidRequest(
                "no evaluator model configured".into(),
            ));
        }
        let default_base = match settings.provider {
            ProviderKind::Anthropic => anthropic::DEFAULT_BASE_URL,
            ProviderKind::OpenAi => openai::DEFAULT_BASE_URL,
        };
        let base_url = settings
            .base_url
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .unwrap_or(default_base)
            .trim_end_matches('/')
            .to_string();
        let key_required = match settings.provider {
            ProviderKind::Anthropic => true,
            ProviderKind::OpenAi => openai::requires_key(&base_url),
        };
        if key_required && settings.api_key.is_empty() {
            // No key: the caller reports the check as indeterminate (fail closed).
            return Err(EvalError::Auth);
        }
        let endpoint = match settings.provider {
            ProviderKind::Anthropic => anthropic::endpoint(&base_url),
            ProviderKind::OpenAi => openai::endpoint(&base_url),
        };
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(30)))
            .user_agent(concat!("byop/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| EvalError::Network(format!("could not build HTTP client: {e}")))?;
        Ok(Evaluator {
            inner: Arc::new(Inner {
                permits: Semaphore::new(settings.concurrency.min(Semaphore::MAX_PERMITS)),
                settings,
                base_url,
                endpoint,
                client,
            }),
        })
    }

    pub fn info(&self) -> EvaluatorInfo {
        let settings = &self.inner.settings;
        EvaluatorInfo {
            provider: match settings.provider {
                ProviderKind::Anthropic => "anthropic",
                ProviderKind::OpenAi => "openai",
            }
            .to_string(),
            model: settings.model.clone(),
        }
    }

    /// sha256 of everything that determines a response, including the run index.
    pub fn cache_key(&self, prompt: &CheckPrompt, run: u32) -> String {
        let inner = &self.inner;
        let identity = serde_json::json!({
            "provider": self.info().provider,
            "model": inner.settings.model,
            "base_url": inner.base_url,
            "system": prompt.system,
            "user": prompt.user,
            "temperature": 0,
            "max_tokens": inner.settings.max_tokens,
            "response_schema": schema::verdict_schema(),
            "run": run,
        });
        sha256_hex(canonical_json(&identity).as_bytes())
    }

    /// One run of one check: waits for a permit, calls, retries, parses.
    pub async fn evaluate(
        &self,
        prompt: &CheckPrompt,
        run: u32,
        cancel: &CancellationToken,
    ) -> RunOutcome {
        let _ = run; // The run index only separates cache entries; the request is the same.
        let cancelled = || RunOutcome {
            result: Err(EvalError::Cancelled),
            raw_text: None,
        };
        let _permit = tokio::select! {
            _ = cancel.cancelled() => return cancelled(),
            permit = self.inner.permits.acquire() => match permit {
                Ok(permit) => permit,
                Err(_) => return cancelled(),
            },
        };
        let settings = &self.inner.settings;
        let mut transient_retries = 0;
        let mut answer_retried = false;
        let mut last_raw: Option<String> = None;
        loop {
            let attempt = tokio::select! {
                _ = cancel.cancelled() => return cancelled(),
                reply = self.call(prompt) => reply,
            };
            let error = match attempt {
                Ok(reply) => {
                    let outcome = if reply.truncated {
                        Err(EvalError::Truncated)
                    } else {
                        parse_verdict(&reply.raw).map_err(|reason| {
                            tracing::debug!(%reason, "unparseable evaluator response");
                            EvalError::Malformed
                        })
                    };
                    match outcome {
                        Ok(verdict) => {
                            return RunOutcome {
                                result: Ok(verdict),
                                raw_text: Some(reply.raw),
                            };
                        }
                        Err(error) => {
                            last_raw = Some(reply.raw);
                            error
                        }
                    }
                }
                Err(error) => error,
            };
            if retry::is_bad_answer(&error) && !answer_retried {
                answer_retried = true;
                continue;
            }
            if !retry::is_transient(&error) || transient_retries >= settings.max_retries {
                return RunOutcome {
                    result: Err(error),
                    raw_text: last_raw,
                };
            }
            let wait = retry::backoff(&error, transient_retries, settings.backoff_base);
            tracing::debug!(?error, ?wait, "retrying evaluator call");
            transient_retries += 1;
            tokio::select! {
                _ = cancel.cancelled() => return cancelled(),
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }

    async fn call(&self, prompt: &CheckPrompt) -> Result<ModelReply, EvalError> {
        let inner = &self.inner;
        let settings = &inner.settings;
        let key = settings.api_key.expose();
        let request = match settings.provider {
            ProviderKind::Anthropic => {
                let body = anthropic::body(&settings.model, settings.max_tokens, prompt);
                anthropic::request(&inner.client, &inner.endpoint, key, &body)
            }
            ProviderKind::OpenAi => {
                let body = openai::body(&settings.model, settings.max_tokens, prompt);
                openai::request(&inner.client, &inner.endpoint, key, &body)
            }
        };
        let reply = self.send(request).await?;
        match settings.provider {
            ProviderKind::Anthropic => anthropic::interpret(reply),
            ProviderKind::OpenAi => openai::interpret(reply),
        }
        .map_err(|e| self.redact_error(e))
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<HttpReply, EvalError> {
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(retry::parse_retry_after);
        let body = response.text().await.map_err(|e| self.transport_error(e))?;
        Ok(HttpReply {
            status,
            retry_after,
            body,
        })
    }

    /// Timeouts and connection failures, described without headers or key.
    fn transport_error(&self, error: reqwest::Error) -> EvalError {
        if error.is_timeout() {
            return EvalError::Timeout;
        }
        let what = if error.is_connect() {
            "could not connect"
        } else if error.is_body() || error.is_decode() {
            "connection broken while reading the response"
        } else {
            "request failed"
        };
        // The innermost cause ("Connection refused") says the most.
        let mut cause: Option<&dyn std::error::Error> = std::error::Error::source(&error);
        while let Some(deeper) = cause.and_then(|c| c.source()) {
            cause = Some(deeper);
        }
        let detail = self.redact(&cause.map(|c| c.to_string()).unwrap_or_default());
        let host = &self.inner.base_url;
        EvalError::Network(if detail.is_empty() {
            format!("{what} to {host}")
        } else {
            format!("{what} to {host}: {detail}")
        })
    }

    fn redact_error(&self, error: EvalError) -> EvalError {
        match error {
            EvalError::InvalidRequest(message) => EvalError::InvalidRequest(self.redact(&message)),
            other => other,
        }
    }

    /// Providers sometimes echo the key back in messages; never pass it on.
    fn redact(&self, text: &str) -> String {
        let key = self.inner.settings.api_key.expose().trim();
        if key.len() >= 4 {
            text.replace(key, "[redacted]")
        } else {
            text.to_string()
        }
    }
}
