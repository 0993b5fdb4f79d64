//! The response cache: unchanged content re-evaluated costs no call. Keys are hashes of
//! everything that determines a response (`Evaluator::cache_key`), run index included.

use super::client::{Call, Evaluator, allowed};
use super::parse::parse_verdict;
use super::types::{CallRecord, EvalError, EvaluatorVerdict, Usage};
use crate::model::integrity::sha256_hex;
use crate::model::{CallOutcome, now_rfc3339};

/// Where answers are kept between runs (the store implements it).
pub trait ResponseCache: Send + Sync {
    /// The raw answer cached under `key`, if any (and trustworthy).
    fn get(&self, key: &str) -> Option<String>;
    /// Keep a parsed-fine raw answer. Failing to write is logged, never fatal.
    fn put(&self, key: &str, provider: &str, model: &str, raw: &str);
}

/// One evaluator run's outcome, as the runner keeps it.
#[derive(Debug, Clone)]
pub struct RunResult {
    pub verdict: Result<EvaluatorVerdict, EvalError>,
    /// The model's text: kept when it could not be parsed.
    pub raw: Option<String>,
    /// Served from the cache instead of a new call.
    pub cached: bool,
}

impl Evaluator {
    /// One run: from the cache unless `fresh`, else a call whose good answer is cached.
    /// An answer records whether it was obtained under a canary (in its key): a call with
    /// a canary reuses only such answers; one without takes either.
    pub async fn evaluate_cached(
        &self,
        call: Call<'_>,
        cache: Option<&dyn ResponseCache>,
        fresh: bool,
    ) -> RunResult {
        let plain = self.cache_key(call.prompt, call.run);
        let guarded = canary_key(&plain);
        let key = if call.canary {
            guarded.clone()
        } else {
            plain.clone()
        };
        let lookup = |c: &dyn ResponseCache| match call.canary {
            true => c.get(&guarded),
            false => c.get(&plain).or_else(|| c.get(&guarded)),
        };
        if !fresh
            && let Some(raw) = cache.and_then(lookup)
            && let Ok(mut v) = parse_verdict(&raw)
            && let Ok(v) = {
                self.redact_verdict(&mut v);
                allowed(v, &call.prompt.result_states)
            }
        {
            self.record_cached(&call, &raw);
            return RunResult {
                verdict: Ok(v),
                raw: Some(raw),
                cached: true,
            };
        }
        let outcome = self.evaluate_call(call).await;
        if let (Ok(_), Some(raw), Some(cache)) = (&outcome.result, &outcome.raw_text, cache) {
            let info = self.info();
            cache.put(&key, &info.provider, &info.model, raw);
        }
        RunResult {
            verdict: outcome.result,
            raw: outcome.raw_text,
            cached: false,
        }
    }
}

/// The cache key of an answer obtained under a canary: apart from the plain one, so that
/// no canary-less answer ever stands in for a guarded run.
pub fn canary_key(plain: &str) -> String {
    format!("{plain}+canary")
}

impl Evaluator {
    /// An answer served from the cache is an attempt too, for the audit log (attempt 0).
    fn record_cached(&self, call: &Call<'_>, raw: &str) {
        let Some(o) = call.observer else { return };
        let info = self.info();
        o.record(CallRecord {
            provider: info.provider,
            model: info.model,
            check_id: call.prompt.check_id.clone(),
            run: call.run,
            attempt: 0,
            started_at: now_rfc3339(),
            latency_ms: 0,
            status: None,
            outcome: CallOutcome::Ok,
            cached: true,
            request_sha256: None,
            response_sha256: Some(sha256_hex(raw.as_bytes())),
            usage: Usage::default(),
        });
    }
}
