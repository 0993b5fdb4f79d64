//! The response cache: unchanged content re-evaluated costs no call. Keys are hashes of
//! everything that determines a response (`Evaluator::cache_key`), run index included.

use tokio_util::sync::CancellationToken;

use super::client::Evaluator;
use super::parse::parse_verdict;
use super::types::{CheckPrompt, EvalError, EvaluatorVerdict};

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
    pub async fn evaluate_cached(
        &self,
        prompt: &CheckPrompt,
        run: u32,
        cache: Option<&dyn ResponseCache>,
        fresh: bool,
        cancel: &CancellationToken,
    ) -> RunResult {
        let key = self.cache_key(prompt, run);
        if !fresh
            && let Some(raw) = cache.and_then(|c| c.get(&key))
            && let Ok(v) = parse_verdict(&raw)
        {
            return RunResult {
                verdict: Ok(v),
                raw: Some(raw),
                cached: true,
            };
        }
        let outcome = self.evaluate(prompt, run, cancel).await;
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
