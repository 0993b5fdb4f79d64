//! The evaluator: LLM providers behind one client with a concurrency bound,
//! retries, typed errors and the response cache.

mod anthropic;
mod cache;
mod client;
mod openai;
mod parse;
pub mod prompt;
pub mod retry;
pub mod schema;
mod settings;
mod types;

pub use cache::{ResponseCache, RunResult};
pub use client::Evaluator;
pub use parse::parse_verdict;
pub use settings::{ApiKey, EvaluatorSettings, ProviderKind};
pub use types::{CheckPrompt, EvalError, EvaluatorVerdict, QuotedSpan, RunOutcome};
