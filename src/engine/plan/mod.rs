//! PlanProof (docs/contracts.md, Plan validation): an AI-generated daily plan checked against the user's notes
//! by deterministic validators. `parse` reads the plan, `context` the notes, `clock` the
//! times (IANA zones via jiff), `intent` normalizes tasks; `validate` has one function
//! per rule kind, each giving its `Part` of the report's `validation` object, and
//! `combine` applies the decision rule.

pub mod clock;
pub mod context;
pub mod grounded;
pub mod intent;
pub mod observe;
pub mod parse;
mod settings;
pub mod timex;
pub mod validate;

use crate::engine::document::front_matter;
use crate::model::{ValidationMetrics, Verdict};

pub use context::Context;
pub use parse::Plan;
pub use settings::Settings;
pub use validate::combine;

/// What every plan validator reads, computed from the document and its `source`.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub plan: Plan,
    /// `None` without a `source` companion (the notes).
    pub context: Option<Context>,
    /// From the front matter: `current_time` and `timezone`.
    pub settings: Settings,
    /// The notes as read (without a front matter block), for grounding.
    pub notes: Option<String>,
}

pub fn analyze(text: &str, body: (usize, usize), source: Option<&str>) -> Analysis {
    analyze_with(text, body, None, source)
}

/// [`analyze`] with the body's layout when the caller has it built (a rule's context).
pub fn analyze_with(
    text: &str,
    body: (usize, usize),
    layout: Option<&crate::engine::document::Layout>,
    source: Option<&str>,
) -> Analysis {
    let settings = Settings::read(text, body);
    let today = settings
        .now()
        .ok()
        .flatten()
        .map(|(n, _)| n.date().weekday());
    Analysis {
        plan: parse::parse_with(text, body, layout),
        context: source.map(|s| context::extract(front_matter::body(s), today)),
        settings,
        notes: source.map(|s| front_matter::body(s).to_string()),
    }
}

/// One metric of `validation.metrics`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Metric {
    ConstraintsDeclared(u32),
    ConstraintsViolated(u32),
    TimeAvailable(i64),
    TimePlanned(i64),
    TimeOverflow(i64),
    HallucinationFlags(u32),
    FeasibilityFlags(u32),
    Coverage(f64),
}

impl Metric {
    pub fn set(self, m: &mut ValidationMetrics) {
        match self {
            Metric::ConstraintsDeclared(v) => m.constraints_declared = v,
            Metric::ConstraintsViolated(v) => m.constraints_violated = v,
            Metric::TimeAvailable(v) => m.time_available_minutes = v,
            Metric::TimePlanned(v) => m.time_planned_minutes = v,
            Metric::TimeOverflow(v) => m.time_overflow_minutes = v,
            Metric::HallucinationFlags(v) => m.hallucination_flags = v,
            Metric::FeasibilityFlags(v) => m.human_feasibility_flags = v,
            Metric::Coverage(v) => m.context_coverage_ratio = v,
        }
    }
}

/// A place in the document a validator points at, in whole-document byte offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct Spot {
    pub start: usize,
    pub end: usize,
    pub note: String,
}

/// One validator's verdict and its share of the `validation` object.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub verdict: Verdict,
    pub metrics: Vec<Metric>,
    /// Human-readable errors (seed style). For a gate they go into `validation.errors`.
    pub errors: Vec<String>,
    /// Advisory validators (feasibility) never fail the plan.
    pub advisory: bool,
    pub spots: Vec<Spot>,
    /// The check's notes: the errors, or what was found when there are none.
    pub notes: String,
}
