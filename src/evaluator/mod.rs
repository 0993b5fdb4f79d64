//! The evaluator: LLM providers behind one client with a concurrency bound,
//! retries, typed errors and the response cache.

mod anthropic;
mod cache;
pub mod canary;
mod client;
pub mod generate;
mod openai;
mod pacing;
mod parse;
pub mod prompt;
pub mod repair;
pub mod retry;
pub mod schema;
pub mod scrub;
mod scrub_view;
mod settings;
mod transport;
mod types;

pub use cache::{ResponseCache, RunResult};
pub use client::{Call, Evaluator};
pub use generate::{Generated, Generation};
pub use parse::{MAX_CITATIONS_PER_RUN, parse_verdict};
pub use settings::{ApiKey, DEFAULT_MAX_RESPONSE_BYTES, EvaluatorSettings, ProviderKind};
pub use types::{
    CallObserver, CallRecord, CheckPrompt, EvalError, EvaluatorVerdict, GenParams, QuotedSpan,
    RunOutcome, Usage,
};
