//! The evaluator client: one provider behind a concurrency bound and a shared pause,
//! with retries, typed errors, canaries, and every attempt reported to an observer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::canary::{self, Canary};
use super::pacing::Pacing;
use super::parse::parse_verdict;
use super::settings::{EvaluatorSettings, ProviderKind};
use super::transport::Transport;
use super::types::{
    CallObserver, CallRecord, CheckPrompt, EvalError, EvaluatorVerdict, GenParams, ModelReply,
    RunOutcome, Usage,
};
use super::{anthropic, openai, retry, schema};
use crate::model::integrity::{canonical_json, sha256_hex};
use crate::model::{CallOutcome, EvaluatorInfo, now_rfc3339};

/// Calls one provider; cheap to clone (shares the HTTP client, the permits, the pause).
#[derive(Clone)]
pub struct Evaluator {
    inner: Arc<Inner>,
}

struct Inner {
    settings: EvaluatorSettings,
    endpoint: String,
    transport: Transport,
    permits: Semaphore,
    pacing: Pacing,
    /// OpenAI-compatible: index into `ResponseFormat::ALL` of the first format the server
    /// has not rejected. Shared, so one rejection moves every later call on.
    format: AtomicUsize,
}

/// One run of one check, and what to do around it.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    pub prompt: &'a CheckPrompt,
    pub run: u32,
    /// Plant a canary instruction in the document and watch for it in the answer.
    pub canary: bool,
    pub observer: Option<&'a dyn CallObserver>,
    pub cancel: &'a CancellationToken,
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
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("byop/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| EvalError::Network(format!("could not build HTTP client: {e}")))?;
        let transport = Transport {
            client,
            base_url,
            key: settings.api_key.expose().to_string(),
            max_body: settings.max_response_bytes,
        };
        Ok(Evaluator {
            inner: Arc::new(Inner {
                permits: Semaphore::new(settings.concurrency.min(Semaphore::MAX_PERMITS)),
                settings,
                endpoint,
                transport,
                pacing: Pacing::default(),
                format: AtomicUsize::new(0),
            }),
        })
    }

    pub fn info(&self) -> EvaluatorInfo {
        let settings = &self.inner.settings;
        EvaluatorInfo {
            provider: settings.provider.as_str().to_string(),
            model: settings.model.clone(),
        }
    }

    /// Where requests go (without the endpoint's path).
    pub(super) fn base_url(&self) -> &str {
        &self.inner.transport.base_url
    }

    /// sha256 of everything that determines a response, including the run index.
    pub fn cache_key(&self, prompt: &CheckPrompt, run: u32) -> String {
        let inner = &self.inner;
        let identity = serde_json::json!({
            "provider": self.info().provider,
            "model": inner.settings.model,
            "base_url": inner.transport.base_url,
            "system": prompt.system,
            "user": prompt.user,
            "temperature": 0,
            "max_tokens": inner.settings.max_tokens,
            "response_schema": schema::verdict_schema(&prompt.result_states),
            "run": run,
        });
        sha256_hex(canonical_json(&identity).as_bytes())
    }

    /// One run without canary or observer (see `evaluate_call`).
    pub async fn evaluate(
        &self,
        prompt: &CheckPrompt,
        run: u32,
        cancel: &CancellationToken,
    ) -> RunOutcome {
        self.evaluate_call(Call {
            prompt,
            run,
            canary: false,
            observer: None,
            cancel,
        })
        .await
    }

    /// A parsed verdict's strings scrubbed of the key and key shapes.
    pub(super) fn redact_verdict(&self, verdict: &mut EvaluatorVerdict) {
        self.inner.transport.redact_verdict(verdict);
    }

    /// One run of one check: waits for a permit and any pause, calls, retries, parses.
    pub async fn evaluate_call(&self, call: Call<'_>) -> RunOutcome {
        let format = std::sync::Mutex::new(self.response_format());
        let shape = Shape {
            schema: schema::verdict_schema(&call.prompt.result_states),
            names: (schema::TOOL_NAME, schema::OPENAI_SCHEMA_NAME),
            description: "Record the verdict of this check.",
            judge,
            params: None,
        };
        let (mut result, raw_text) = self.drive(&call, &shape, &format).await;
        if let Ok(verdict) = &mut result {
            self.inner.transport.redact_verdict(verdict);
        }
        let outcome = RunOutcome { result, raw_text };
        let used = *format.lock().unwrap_or_else(|e| e.into_inner());
        match &outcome.result {
            Ok(_) => self.noted(outcome, used),
            Err(_) => outcome,
        }
    }

    /// The one repair call (there is never a second): the corrected output, with the same permits,
    /// retries, limits and observer as a check's run. Never cached, never with a canary.
    pub async fn repair_call(&self, call: Call<'_>) -> (Result<String, EvalError>, Option<String>) {
        self.repair_call_with(call, None).await
    }

    /// [`Self::repair_call`] with the model and sampling parameters of a generation variant
    /// instead of the evaluator's.
    pub(super) async fn repair_call_with(
        &self,
        call: Call<'_>,
        params: Option<GenParams>,
    ) -> (Result<String, EvalError>, Option<String>) {
        let format = std::sync::Mutex::new(self.response_format());
        let shape = Shape {
            schema: super::repair::repair_schema(),
            names: (super::repair::REPAIR_TOOL, super::repair::REPAIR_TOOL),
            description: "Record the corrected output.",
            judge: |reply, _, _| super::repair::judge(reply),
            params,
        };
        let call = Call {
            canary: false,
            ..call
        };
        self.drive(&call, &shape, &format).await
    }

    /// Wait for a permit and any pause, then call, retry and judge until an answer or a
    /// final error; `format` ends as the response format of the last attempt.
    pub(super) async fn drive<T>(
        &self,
        call: &Call<'_>,
        shape: &Shape<T>,
        format: &std::sync::Mutex<openai::ResponseFormat>,
    ) -> (Result<T, EvalError>, Option<String>) {
        let _permit = tokio::select! {
            _ = call.cancel.cancelled() => return (Err(EvalError::Cancelled), None),
            permit = self.inner.permits.acquire() => match permit {
                Ok(permit) => permit,
                Err(_) => return (Err(EvalError::Cancelled), None),
            },
        };
        let settings = &self.inner.settings;
        let (mut transient_retries, mut answer_retried, mut attempt) = (0, false, 0);
        let mut last_raw: Option<String> = None;
        loop {
            attempt += 1;
            let now = self.response_format();
            *format.lock().unwrap_or_else(|e| e.into_inner()) = now;
            let reply = tokio::select! {
                _ = call.cancel.cancelled() => return (Err(EvalError::Cancelled), last_raw),
                reply = self.attempt(call, attempt, shape, now) => reply,
            };
            let error = match reply {
                Ok((answer, raw)) => return (Ok(answer), Some(raw)),
                // Not retried: a second canary would be followed just the same.
                Err((EvalError::InjectionSusceptible, raw)) => {
                    return (Err(EvalError::InjectionSusceptible), raw.or(last_raw));
                }
                Err((error, raw)) => {
                    last_raw = raw.or(last_raw);
                    error
                }
            };
            if self.fall_back(&error) {
                continue;
            }
            if retry::is_bad_answer(&error) && !answer_retried {
                answer_retried = true;
                continue;
            }
            if !retry::is_transient(&error) || transient_retries >= settings.max_retries {
                return (Err(error), last_raw);
            }
            let wait = retry::backoff(&error, transient_retries, settings.backoff_base);
            if matches!(
                error,
                EvalError::RateLimited {
                    retry_after: Some(_)
                }
            ) {
                self.inner.pacing.pause_for(wait);
            }
            tracing::debug!(?error, ?wait, "retrying evaluator call");
            transient_retries += 1;
            tokio::select! {
                _ = call.cancel.cancelled() => return (Err(EvalError::Cancelled), last_raw),
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// One HTTP attempt (with a fresh canary when asked), reported to the observer: the
    /// judged answer and the raw text, or the error and whatever text came back.
    async fn attempt<T>(
        &self,
        call: &Call<'_>,
        attempt: u32,
        shape: &Shape<T>,
        format: openai::ResponseFormat,
    ) -> Result<(T, String), (EvalError, Option<String>)> {
        self.inner.pacing.ready().await;
        let canary = call.canary.then(Canary::fresh);
        let planted;
        let prompt = match &canary {
            Some(c) => {
                planted = canary::plant(call.prompt, c);
                &planted
            }
            None => call.prompt,
        };
        let started = Instant::now();
        let started_at = now_rfc3339();
        let (request_sha, exchange) = self.call(prompt, format, shape).await;
        let record =
            |status: Option<u16>, outcome: CallOutcome, response: Option<&str>, usage: Usage| {
                if let Some(o) = call.observer {
                    o.record(CallRecord {
                        provider: self.info().provider,
                        model: shape
                            .params
                            .as_ref()
                            .map_or_else(|| self.inner.settings.model.clone(), |p| p.model.clone()),
                        check_id: call.prompt.check_id.clone(),
                        run: call.run,
                        attempt,
                        started_at: started_at.clone(),
                        latency_ms: started.elapsed().as_millis() as u64,
                        status,
                        outcome,
                        cached: false,
                        request_sha256: Some(request_sha.clone()),
                        response_sha256: response.map(|r| sha256_hex(r.as_bytes())),
                        usage,
                    });
                }
            };
        let (status, reply) = match exchange {
            Ok(ok) => ok,
            Err(e) => {
                record(e.1, CallOutcome::Failed(e.0.kind()), None, Usage::default());
                return Err((e.0, None));
            }
        };
        let answer = (shape.judge)(&reply, call.prompt, canary.as_ref());
        let outcome = answer
            .as_ref()
            .err()
            .map_or(CallOutcome::Ok, |e| CallOutcome::Failed(e.kind()));
        record(Some(status), outcome, Some(&reply.raw), reply.usage);
        match answer {
            Ok(v) => Ok((v, reply.raw)),
            Err(e) => Err((e, Some(reply.raw))),
        }
    }

    /// Build, send and interpret one request. Returns the request body's hash and either
    /// (HTTP status, the model's reply) or (the error, the HTTP status if one came).
    async fn call<T>(
        &self,
        prompt: &CheckPrompt,
        format: openai::ResponseFormat,
        shape: &Shape<T>,
    ) -> (String, Result<(u16, ModelReply), (EvalError, Option<u16>)>) {
        let inner = &self.inner;
        let settings = &inner.settings;
        let key = settings.api_key.expose();
        let client = &inner.transport.client;
        let body = match settings.provider {
            ProviderKind::Anthropic => anthropic::body_with(
                &settings.model,
                settings.max_tokens,
                prompt,
                &shape.schema,
                (shape.names.0, shape.description),
            ),
            ProviderKind::OpenAi => openai::body_with(
                &settings.model,
                settings.max_tokens,
                prompt,
                format,
                (&shape.schema, shape.names.1),
            ),
        };
        let mut body = body;
        if let Some(p) = &shape.params {
            p.apply(&mut body);
        }
        let request_sha = sha256_hex(body.to_string().as_bytes());
        let request = match settings.provider {
            ProviderKind::Anthropic => anthropic::request(client, &inner.endpoint, key, &body),
            ProviderKind::OpenAi => openai::request(client, &inner.endpoint, key, &body),
        };
        let reply = match inner.transport.send(request).await {
            Ok(r) => r,
            Err(e) => return (request_sha, Err((e, None))),
        };
        let status = reply.status.as_u16();
        let interpreted = match settings.provider {
            ProviderKind::Anthropic => anthropic::interpret(reply),
            ProviderKind::OpenAi => openai::interpret(reply),
        };
        // Everything read from the answer (verdict, notes, the cache, raw_response)
        // comes from the scrubbed text.
        let result = interpreted
            .map(|mut r| {
                r.raw = inner.transport.redact(&r.raw);
                (status, r)
            })
            .map_err(|e| (inner.transport.redact_error(e), Some(status)));
        (request_sha, result)
    }
}

impl Evaluator {
    /// The response format an OpenAI-compatible call uses now.
    pub(super) fn response_format(&self) -> openai::ResponseFormat {
        let i = self.inner.format.load(Ordering::SeqCst);
        openai::ResponseFormat::ALL[i.min(openai::ResponseFormat::ALL.len() - 1)]
    }

    /// The server rejected the response format: move on to the next one (true: try again).
    fn fall_back(&self, error: &EvalError) -> bool {
        if self.inner.settings.provider != ProviderKind::OpenAi || !openai::rejects_format(error) {
            return false;
        }
        let last = openai::ResponseFormat::ALL.len() - 1;
        let current = self.inner.format.load(Ordering::SeqCst);
        if current >= last {
            return false;
        }
        // Another call may have moved on already; either way there is a next format to try.
        let _ = self.inner.format.compare_exchange(
            current,
            current + 1,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        tracing::info!(
            format = ?self.response_format(),
            "OpenAI-compatible server rejected the response format; falling back"
        );
        true
    }

    /// Say in the verdict's notes when the answer was asked for without a JSON schema.
    fn noted(&self, mut outcome: RunOutcome, format: openai::ResponseFormat) -> RunOutcome {
        if self.inner.settings.provider == ProviderKind::OpenAi
            && let Some(note) = format.note()
            && let Ok(v) = &mut outcome.result
        {
            v.notes = format!("{note} {}", v.notes).trim_end().to_string();
        }
        outcome
    }
}

/// What an answer is asked for as, and how a reply is judged.
pub(super) struct Shape<T> {
    pub schema: serde_json::Value,
    /// (Anthropic tool name, OpenAI json_schema name).
    pub names: (&'static str, &'static str),
    pub description: &'static str,
    pub judge: fn(&ModelReply, &CheckPrompt, Option<&Canary>) -> Result<T, EvalError>,
    /// A generation's model and sampling parameters in place of the evaluator's.
    pub params: Option<GenParams>,
}

/// The verdict of a reply: not cut off, parseable, within the check's result states, and
/// not following a planted canary.
fn judge(
    reply: &ModelReply,
    prompt: &CheckPrompt,
    canary: Option<&Canary>,
) -> Result<EvaluatorVerdict, EvalError> {
    if canary.is_some_and(|c| c.tripped_by(&reply.raw)) {
        return Err(EvalError::InjectionSusceptible);
    }
    if reply.truncated {
        return Err(EvalError::Truncated);
    }
    let verdict = parse_verdict(&reply.raw).map_err(|reason| {
        tracing::debug!(%reason, "unparseable evaluator response");
        EvalError::Malformed
    })?;
    allowed(verdict, &prompt.result_states)
}

/// A verdict the check does not allow is no verdict.
pub fn allowed(
    verdict: EvaluatorVerdict,
    states: &[crate::model::Verdict],
) -> Result<EvaluatorVerdict, EvalError> {
    if states.is_empty() || states.contains(&verdict.result) {
        Ok(verdict)
    } else {
        tracing::debug!(
            result = verdict.result.as_str(),
            "answer outside the check's result states"
        );
        Err(EvalError::Malformed)
    }
}
