//! Grounding: is what an AI output says about its source in that source?
//!
//! Stable API (other checks, e.g. plans, reuse it):
//! - `entities::extract(text) -> Vec<Entity{kind, start, end, text, normalized}>`
//!   (amounts, percentages, durations, dates, defined terms, organisations, people);
//! - `references::extract_in(text, range) -> Vec<Reference>` (section/clause/article/
//!   exhibit/schedule/§ references, statute references left out);
//! - `quotes::extract_in(text, range, layout) -> Vec<Quote>` (passages presented as quoted);
//! - `Source::new(text)` then `.contains(&Entity)`, `.reference(&Reference)`,
//!   `.locate(quote)`, each giving the source location when there is one.

pub mod caps_terms;
pub mod citations;
pub mod drafted;
pub mod entities;
pub mod lexicon;
pub mod names;
pub mod numbers;
mod org_names;
pub mod periods;
pub mod plan_entities;
pub mod plan_events;
pub mod quotes;
pub mod references;
mod source;
pub mod stating;
mod term_list;
pub mod term_runs;
pub mod time_limits;
pub mod words;

pub use entities::{Entity, EntityKind};
pub use quotes::Quote;
pub use references::{RefKind, Reference};
pub use source::{Source, SourceIndex, Span};

#[cfg(test)]
mod quotes_tests;
#[cfg(test)]
mod tests;
