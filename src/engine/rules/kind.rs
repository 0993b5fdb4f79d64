//! What every rule kind shares: the trait a compiled rule implements, what it reads,
//! what it returns, and how its parameters are read.

use serde::de::DeserializeOwned;

use super::markdown::ProseMap;
use crate::engine::grounding::drafted::Drafted;
use crate::model::Verdict;

/// Which report-level computation a check asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReportLevel {
    /// Passes when the severity-weighted consistency of repeated runs is above `threshold`.
    RunVariance { threshold: f64 },
    /// Fails when a check went pass → fail, or consistency dropped by more than this.
    BaselineDrift { max_consistency_drop: f64 },
}

/// A rule with its parameters read and its regexes compiled, once per playbook load.
pub trait CompiledRule: Send + Sync + std::fmt::Debug {
    /// Hits on the document body. `None` for report-level kinds (computed by the runner).
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome>;
    /// One or two sentences for the check's documentation page.
    fn describe(&self) -> String;
    /// Report-level kinds say which, with their thresholds.
    fn report_level(&self) -> Option<ReportLevel> {
        None
    }
    /// Plan validators give their part of the report's `validation` object.
    fn validation(&self, _cx: &RuleContext) -> Option<crate::engine::plan::Part> {
        None
    }
    /// [`CompiledRule::apply`] and [`CompiledRule::validation`] together: a plan validator
    /// runs once for both.
    fn apply_and_validation(
        &self,
        cx: &RuleContext,
    ) -> (Option<RuleOutcome>, Option<crate::engine::plan::Part>) {
        (self.apply(cx), self.validation(cx))
    }
    /// Does a `fail` of this rule prove the violation (a grounding failure, a required
    /// section missing), so that no evaluator can turn it into `pass`? Kinds that only find
    /// candidates for the evaluator (patterns) suggest.
    fn proves(&self) -> bool {
        false
    }
    /// Build now what this rule reads of a document's companions and shares between
    /// documents (a source's grounding index), so that a batch can build each one ahead
    /// instead of a document's thread waiting while another builds it.
    fn prepare_companions(&self, _doc: &crate::engine::document::Document) {}
}

/// What a rule reads: the whole text, the byte range of the evaluated body, and which
/// parts of it are quotation rather than the AI's own prose ([`RuleContext::prose`]).
pub struct RuleContext<'a> {
    pub text: &'a str,
    pub body: (usize, usize),
    /// Built on first use, after the document is known, from its layout's unrendered text.
    prose: std::cell::OnceCell<ProseMap>,
    /// The document's companions and evidence policy (empty when there are none).
    pub companions: Companions<'a>,
    /// The evaluation time, against which evidence freshness (`ttl_seconds`) is judged;
    /// `None` leaves freshness unjudged (the runner always sets it).
    pub now: Option<jiff::Timestamp>,
    /// The document whose layout this is (`None`: the layout is built here on first use).
    /// Its layout is built only when a rule asks for it.
    document: Option<&'a crate::engine::document::Document>,
    own_layout: std::cell::OnceCell<crate::engine::document::Layout>,
    /// The source companion indexed once for every grounding check of a run.
    grounding: std::cell::OnceCell<Option<crate::engine::grounding::Source<'a>>>,
    /// The plan as read with its notes, once for every plan check (each reads it twice: for
    /// its outcome and for its validation part).
    plan: std::cell::OnceCell<crate::engine::plan::Analysis>,
}

/// What the output is checked against: the companions' texts (read through the workspace
/// boundary, untrusted) and the evidence policy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Companions<'a> {
    /// The source document the AI analysed (front matter `source`).
    pub source: Option<&'a str>,
    /// The prompt that produced the output (a quote of it is not a claim about the source).
    pub prompt: Option<&'a str>,
    /// The evidence set (front matter `evidence`), JSON as read.
    pub evidence: Option<&'a str>,
    /// Front matter `evidence` was named but could not be read.
    pub evidence_unreadable: bool,
    /// The as-of date for temporal validity, `YYYY-MM-DD` (front matter `as_of`, else today).
    pub as_of: Option<&'a str>,
    /// Today, `YYYY-MM-DD` (UTC), when `as_of` is not given.
    pub today: Option<&'a str>,
    /// `byop.toml` `evidence.allowed_origins`.
    pub allowed_origins: &'a [String],
    /// The source companion itself, whose layout (built on first use) every document
    /// naming it shares.
    pub source_companion: Option<&'a crate::engine::document::Companion>,
}

impl<'a> Companions<'a> {
    /// The source companion's layout, built the first time any document asks.
    pub fn source_layout(&self) -> Option<&'a crate::engine::document::Layout> {
        self.source_companion
            .map(crate::engine::document::Companion::layout)
    }
}

impl<'a> RuleContext<'a> {
    pub fn new(text: &'a str, body: (usize, usize)) -> Self {
        RuleContext {
            text,
            body,
            prose: std::cell::OnceCell::new(),
            companions: Companions::default(),
            now: None,
            document: None,
            own_layout: std::cell::OnceCell::new(),
            grounding: std::cell::OnceCell::new(),
            plan: std::cell::OnceCell::new(),
        }
    }

    /// This context, evaluated at `now`.
    pub fn at(mut self, now: jiff::Timestamp) -> Self {
        self.now = Some(now);
        self
    }

    /// Take the layout from `document` (built there once per version, on first use).
    pub fn with_document(mut self, document: &'a crate::engine::document::Document) -> Self {
        self.document = Some(document);
        self
    }

    /// The body's layout: the document's, or built once here from the text as markdown.
    pub fn layout(&self) -> &crate::engine::document::Layout {
        match self.document {
            Some(d) => d.layout(),
            None => self
                .own_layout
                .get_or_init(|| crate::engine::document::Layout::markdown(self.text, self.body)),
        }
    }

    /// Which parts of the body are quotation, hidden or unrendered, and its sentences; built
    /// on first use. The unrendered text (link reference definitions, links' destinations
    /// and titles) is the body's layout's, so the body is not parsed a second time for it.
    pub fn prose(&self) -> &ProseMap {
        self.prose.get_or_init(|| {
            let (text, body) = (self.text, self.body);
            let document_layout = self
                .document
                .filter(|d| std::ptr::eq(text, d.text.as_str()))
                .map(|d| d.layout());
            let unrendered = match document_layout {
                Some(l) if l.range() == body => l.unrendered().to_vec(),
                // Another text or range than the document's: read here, as without one.
                Some(_) => crate::engine::document::layout::unrendered(text, body),
                // No document: the own layout is built only when the body may hold
                // unrendered text (as `layout::unrendered` does), and kept for the rules.
                None if crate::engine::document::layout::may_hold_unrendered(
                    &text[body.0..body.1],
                ) =>
                {
                    self.layout().unrendered().to_vec()
                }
                None => Vec::new(),
            };
            ProseMap::with_unrendered(text, body, unrendered)
        })
    }

    /// The source companion, indexed for grounding on first use; `None` without a source.
    pub fn source(&self) -> Option<&crate::engine::grounding::Source<'a>> {
        self.grounding
            .get_or_init(|| {
                use crate::engine::grounding::{Source, SourceIndex};
                let text = self.companions.source?;
                // The index of a companion file is built once for every document naming it.
                Some(match self.companions.source_companion {
                    Some(c) if std::ptr::eq(c.text(), text) => {
                        Source::indexed(text, c.derived(SourceIndex::new))
                    }
                    _ => Source::new(text),
                })
            })
            .as_ref()
    }

    /// The body read as a plan, with the `source` companion as the user's notes; built on
    /// first use on the shared layout.
    pub fn plan(&self) -> &crate::engine::plan::Analysis {
        // The document's own reading when this context reads that same document with that
        // same source (the usual case: a run); otherwise read here.
        if let Some(d) = self.document
            && std::ptr::eq(self.text, d.text.as_str())
            && self.body == d.body
            && match (self.companions.source, d.source.as_ref()) {
                (None, None) => true,
                (Some(a), Some(b)) => std::ptr::eq(a, b.text()),
                _ => false,
            }
        {
            return crate::engine::plan::of_document(d);
        }
        self.plan.get_or_init(|| {
            crate::engine::plan::analyze_with(
                self.text,
                self.body,
                Some(self.layout()),
                self.companions.source,
            )
        })
    }

    /// A reading of this document that several rules share, kept on the document's prose map
    /// (see [`ProseMap::shared`]): the three quote tiers read every quote the same way and keep
    /// only their own tier; the grounding checks share the drafted text.
    pub fn shared<T: 'static>(&self, key: &str, build: impl FnOnce() -> T) -> std::rc::Rc<T> {
        self.prose().shared(key, build)
    }

    /// The output's drafted text as analysed under configuration `key`, built by `build` the
    /// first time a check with that configuration asks (every grounding check of a playbook
    /// usually shares one).
    pub fn drafted(&self, key: &str, build: impl FnOnce() -> Drafted) -> std::rc::Rc<Drafted> {
        self.shared(key, build)
    }

    pub fn with_companions(mut self, companions: Companions<'a>) -> Self {
        self.companions = companions;
        self
    }
}

/// Path segment into the playbook JSON, for pointing at the offending value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    pub fn key(k: &str) -> Seg {
        Seg::Key(k.to_string())
    }
}

/// A problem in a rule's parameters, with its path below `rules`.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleError {
    pub path: Vec<Seg>,
    pub message: String,
}

impl RuleError {
    pub fn at(path: Vec<Seg>, message: impl Into<String>) -> Self {
        RuleError {
            path,
            message: message.into(),
        }
    }
}

/// One place a rule matched, in whole-document byte offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub note: String,
    /// Where the claim at this hit is (or should be) in the source document.
    pub source: Option<SourceRef>,
}

/// A place in the source document a hit relates to (byte offsets into the source text).
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRef {
    pub start: usize,
    pub end: usize,
    /// The source's words there (for hover).
    pub excerpt: String,
    /// The source's exact words to put in place of the hit (a misquote's fix).
    pub replacement: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RuleOutcome {
    pub verdict: Verdict,
    /// Evidence for `verdict` (for a fail: the problem spans; for a pass: what satisfied it).
    pub hits: Vec<Hit>,
    /// Do the hits point at problems (candidates for the evaluator) or at satisfying text?
    pub hits_are_problems: bool,
    pub notes: String,
    /// Stable code of a failing or indeterminate outcome (`LC-001`, `GROUNDING-QUOTE`, …).
    pub code: Option<String>,
    /// Grounding rules: what became of every claim read (`None` for other kinds).
    pub grounding: Option<GroundingTrace>,
}

/// A grounding rule's account of the claims it read: the counts, and every claim it set aside
/// or could not resolve, with its whole-document byte range and reason.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroundingTrace {
    pub counts: crate::model::GroundingCounts,
    pub set_aside: Vec<SetAsideSpan>,
}

/// One claim not judged against the source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetAsideSpan {
    pub kind: crate::model::ClaimKind,
    pub start: usize,
    pub end: usize,
    pub reason: crate::model::SetAside,
}

/// Read a kind's parameters; an unknown or mistyped field is an error at that field.
pub fn params<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, RuleError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let message = e.inner().to_string();
        // The path names the field, also an unknown one or a value outside an enum; a missing
        // field is named only in the message, so it is added.
        let mut path: Vec<Seg> = e
            .path()
            .iter()
            .filter_map(|s| match s {
                serde_path_to_error::Segment::Map { key } => Some(Seg::key(key)),
                serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
                _ => None,
            })
            .collect();
        if message.starts_with("missing field")
            && let Some(f) = message.split('`').nth(1)
        {
            path.push(Seg::key(f));
        }
        RuleError::at(path, message)
    })
}

pub fn yes() -> bool {
    true
}

#[cfg(test)]
#[path = "kind_tests.rs"]
mod tests;
