//! PlanProof (docs/contracts.md, Plan validation): an AI-generated daily plan checked against the user's notes
//! by deterministic validators. `parse` reads the plan, `context` the notes, `clock` the
//! times (IANA zones via jiff), `intent` normalizes tasks; `validate` has one function
//! per rule kind, each giving its `Part` of the report's `validation` object, and
//! `combine` applies the decision rule.

mod appointment;
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
    /// The grounding index of the notes as `grounded_entities` reads them, built once per
    /// notes file and shared by every plan naming it (`None`: built when needed).
    pub notes_index: Option<grounded::NotesIndex>,
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
    let (settings, now) = settings_of(text, body);
    let today = now.as_ref().map(|n| n.date().weekday());
    let mut a = Analysis {
        plan: parse::parse_with(text, body, layout),
        context: source.map(|s| context::extract(front_matter::body(s), today)),
        settings,
        notes: source.map(|s| front_matter::body(s).to_string()),
        notes_index: None,
    };
    validate::place_foreign(&mut a, now.as_ref());
    validate::real_range_minutes(&mut a, now.as_ref());
    a
}

/// [`analyze_with`] with the notes as a companion file: what is read from the notes alone
/// (their context for the plan's weekday, their grounding index) is read once per file and
/// shared by every plan naming it. The same values [`analyze_with`] computes: each is a
/// function of the notes' text (and the weekday) alone.
pub fn analyze_companion(
    text: &str,
    body: (usize, usize),
    layout: Option<&crate::engine::document::Layout>,
    source: Option<&crate::engine::document::Companion>,
) -> Analysis {
    let (settings, now) = settings_of(text, body);
    let today = now.as_ref().map(|n| n.date().weekday());
    let notes = source.map(|c| front_matter::body(c.text()));
    let mut a = Analysis {
        plan: parse::parse_with(text, body, layout),
        context: source.map(|c| {
            let readings = c.derived(|_| NotesReadings::default());
            readings.context(notes.unwrap_or_default(), today)
        }),
        settings,
        notes: notes.map(str::to_string),
        notes_index: source.map(|c| {
            c.derived(|t| grounded::NotesIndex::new(front_matter::body(t)))
                .as_ref()
                .clone()
        }),
    };
    validate::place_foreign(&mut a, now.as_ref());
    validate::real_range_minutes(&mut a, now.as_ref());
    a
}

/// The front-matter settings, and their now when it reads (for the weekday the notes are read
/// for, and the real minutes of the plan's ranges).
fn settings_of(text: &str, body: (usize, usize)) -> (Settings, Option<clock::Now>) {
    let settings = Settings::read(text, body);
    let now = settings.now().ok().flatten().map(|(n, _)| n);
    (settings, now)
}

/// The contexts read from one notes file, by the weekday they were read for.
#[derive(Default)]
struct NotesReadings(std::sync::Mutex<Vec<(Option<jiff::civil::Weekday>, Context)>>);

impl NotesReadings {
    fn context(&self, notes: &str, today: Option<jiff::civil::Weekday>) -> Context {
        let mut seen = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, cx)) = seen.iter().find(|(d, _)| *d == today) {
            return cx.clone();
        }
        let cx = context::extract(notes, today);
        seen.push((today, cx.clone()));
        cx
    }
}

/// The document's body read as a plan with its source companion as the notes: built once
/// per document version for every reader (the plan checks, the dataset comparison), on the
/// shared layout.
pub fn of_document(doc: &crate::engine::document::Document) -> &Analysis {
    doc.derived(|d| analyze_companion(&d.text, d.body, Some(d.layout()), d.source.as_ref()))
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

#[cfg(test)]
#[path = "linear_tests.rs"]
mod linear_tests;
