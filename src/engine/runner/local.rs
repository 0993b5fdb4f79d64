//! Work done once per document and run: every check's rule outcome and the
//! suppression comments; results of checks decided without the evaluator.

use std::cell::OnceCell;

use crate::engine::citations::Locator;
use crate::engine::document::{Companion, Document};
use crate::engine::plan::Part;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::rules::{Companions, RuleContext, RuleOutcome, SourceRef};
use crate::engine::suppress::Suppressions;
use crate::evaluator::prompt::Candidate;
use crate::model::SourceLocation;
use crate::model::text::{Encoding, LineIndex};
use crate::model::{
    Check, CheckResult, Citation, DetectionType, Located, RawRun, SkippedClaim, Verdict,
};

/// At most this many findings of one check are listed in a report (and as many suppressed
/// ones); the rest are counted in the result's notes. The verdict does not change.
pub const MAX_CITATIONS_PER_CHECK: usize = 1000;

pub(super) struct Prepared<'a> {
    pub doc: &'a Document,
    pub outcomes: Vec<Option<RuleOutcome>>,
    /// Plan validators' parts of the plan `validation` object, by check.
    pub parts: Vec<Option<Part>>,
    pub suppressions: Suppressions,
    /// Built on the first evaluator citation: the body normalized once per run.
    locator: OnceCell<Locator<'a>>,
    /// Line index of the source companion, built on the first grounding citation.
    source_index: OnceCell<LineIndex>,
    /// Per check: does its rule's `fail` prove the violation?
    proves: Vec<bool>,
}

impl<'a> Prepared<'a> {
    pub fn new(playbook: &LoadedPlaybook, doc: &'a Document) -> Self {
        let today = today_utc();
        let source = doc.source.as_ref().filter(|s| !s.is_blank());
        let cx = RuleContext::new(&doc.text, doc.body)
            .with_document(doc)
            .with_companions(Companions {
                // An empty source is no source: its checks say so (LC-001), never "grounded".
                source: source.map(Companion::text),
                prompt: doc.prompt.as_ref().map(Companion::text),
                evidence: doc.evidence.as_ref().map(Companion::text),
                evidence_unreadable: doc.evidence_unreadable,
                as_of: doc.front_matter.as_of.as_deref(),
                today: Some(&today),
                allowed_origins: &doc.allowed_origins,
                source_companion: source,
            })
            .at(jiff::Timestamp::now());
        // Each rule once: a plan validator's outcome and its part of `validation` are one run.
        let (outcomes, parts) = playbook
            .compiled
            .iter()
            .map(|r| {
                r.as_ref()
                    .map_or((None, None), |r| r.apply_and_validation(&cx))
            })
            .unzip();
        Prepared {
            doc,
            outcomes,
            parts,
            suppressions: Suppressions::parse(&doc.text, &doc.line_index),
            locator: OnceCell::new(),
            source_index: OnceCell::new(),
            proves: playbook
                .compiled
                .iter()
                .map(|r| r.as_ref().is_some_and(|r| r.proves()))
                .collect(),
        }
    }

    pub fn locator(&self) -> &Locator<'a> {
        self.locator
            .get_or_init(|| Locator::new(&self.doc.text, self.doc.body))
    }

    pub fn citation(
        &self,
        start: usize,
        end: usize,
        located: Located,
        context: String,
    ) -> Citation {
        let range = self.doc.range(start, end);
        Citation {
            source: None,
            span: self.doc.text[start..end].to_string(),
            location: format!("line {}", range.start.line + 1),
            located,
            range: Some(range),
            byte_range: Some((start, end)),
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context,
        }
    }

    /// The citations of a rule's hits, at most [`MAX_CITATIONS_PER_CHECK`] listed and as many
    /// suppressed ones (the suppressed are moved out later, so they are capped apart). A
    /// document with 100 000 hits still fails the same way; building, hashing and publishing
    /// every one of them is what made such documents slow. Returns the citations
    /// and the note saying how many were left out, empty when none were.
    fn hit_citations(
        &self,
        check_id: &str,
        verdict: Verdict,
        outcome: &RuleOutcome,
    ) -> (Vec<Citation>, String) {
        // Counted apart, [listed, suppressed]: the suppressed are moved out later.
        let (mut kept, mut left_out) = ([0usize; 2], [0usize; 2]);
        let mut cites = Vec::with_capacity(outcome.hits.len().min(2 * MAX_CITATIONS_PER_CHECK));
        for h in &outcome.hits {
            // As `Assembly::suppress` will decide: a pass's citations are evidence, not findings.
            let line = self.doc.line_index.line_of(h.start);
            let k = usize::from(
                verdict != Verdict::Pass
                    && self.suppressions.finding(check_id, Some(line)).is_some(),
            );
            if kept[k] >= MAX_CITATIONS_PER_CHECK {
                left_out[k] += 1;
                continue;
            }
            kept[k] += 1;
            let mut c = self.citation(h.start, h.end, Located::Exact, h.note.clone());
            c.source = h.source.as_ref().and_then(|s| self.source_location(s));
            cites.push(c);
        }
        let [left_out, suppressed_left_out] = left_out;
        let mut note = String::new();
        if left_out > 0 {
            note = format!(
                " {left_out} more finding(s) not listed: a report lists at most {MAX_CITATIONS_PER_CHECK} per check."
            );
        }
        if suppressed_left_out > 0 {
            note.push_str(&format!(
                " {suppressed_left_out} more suppressed finding(s) not listed."
            ));
        }
        (cites, note)
    }

    /// A hit's place in the source companion, with its range in the source's own lines.
    fn source_location(&self, s: &SourceRef) -> Option<SourceLocation> {
        let src = self.doc.source.as_ref()?;
        let text = src.text();
        if s.start > s.end || s.end > text.len() {
            return None;
        }
        let index = self.source_index.get_or_init(|| LineIndex::new(text));
        Some(SourceLocation {
            path: src.path.display().to_string(),
            range: index.range(text, s.start, s.end, Encoding::Utf16),
            byte_range: (s.start, s.end),
            excerpt: s.excerpt.clone(),
            replacement: s.replacement.clone(),
        })
    }

    /// Problem spans found locally, handed to the evaluator (hybrid/semantic checks with rules).
    pub fn candidates(&self, i: usize) -> Vec<Candidate> {
        let Some(o) = &self.outcomes[i] else {
            return Vec::new();
        };
        o.hits
            .iter()
            .map(|h| Candidate {
                text: self.doc.text[h.start..h.end].to_string(),
                note: h.note.clone(),
                line: self.doc.line_index.line_of(h.start) + 1,
            })
            .collect()
    }

    /// The local outcome of check `i` when its rule proved a violation.
    fn proven(&self, i: usize) -> Option<&RuleOutcome> {
        let o = self.outcomes.get(i)?.as_ref()?;
        (self.proves.get(i) == Some(&true) && o.verdict == Verdict::Fail).then_some(o)
    }

    /// Deterministic validators are authoritative (a rule's proof outranks the evaluator's judgement): when check `i`'s rule
    /// proved a violation, its result stays `fail` whatever the evaluator said; the
    /// evaluator's findings are added and its notes kept as explanation.
    pub fn uphold_proof(&self, i: usize, r: &mut CheckResult) {
        let Some(o) = self.proven(i) else {
            return;
        };
        let (mut cites, left_out) = self.hit_citations(&r.check_id, Verdict::Fail, o);
        let seen: std::collections::HashSet<Option<(usize, usize)>> =
            cites.iter().map(|c| c.byte_range).collect();
        cites.extend(
            r.evidence_citations
                .drain(..)
                .filter(|c| !seen.contains(&c.byte_range)),
        );
        if r.result != Verdict::Fail {
            r.notes = format!(
                "Proved by the local rule: {} The evaluator's `{}` cannot overturn a proof. Evaluator: {}",
                o.notes,
                r.result.as_str(),
                r.notes
            );
        }
        r.evidence_citations = cites;
        r.notes.push_str(&left_out);
        r.result = Verdict::Fail;
        r.code = o.code.clone();
    }

    /// A grounding rule's counts and set-aside claims, placed by line and column.
    fn grounding_fields(&self, o: &RuleOutcome, r: &mut CheckResult) {
        let Some(g) = &o.grounding else {
            return;
        };
        let text = &self.doc.text;
        r.grounding = Some(g.counts.clone());
        r.skipped_claims = g
            .set_aside
            .iter()
            .filter(|s| s.start <= s.end && s.end <= text.len())
            .map(|s| {
                let at = self.doc.line_index.position(text, s.start, Encoding::Utf8);
                let line = &text[self.doc.line_index.line_start(at.line)..s.start];
                SkippedClaim {
                    kind: s.kind,
                    text: clip_claim(&text[s.start..s.end]),
                    byte_range: (s.start, s.end),
                    line: at.line as usize + 1,
                    column: line.chars().count() + 1,
                    reason: s.reason,
                }
            })
            .collect();
    }

    /// A check decided without the evaluator in this run; `why` says why an evaluator-backed
    /// check was not evaluated.
    pub fn local_result(&self, check: &Check, i: usize, why: &str) -> CheckResult {
        let base = |result, confidence, citations, notes: String| {
            blank_result(check, result, confidence, citations, notes)
        };
        if check.is_report_level() {
            // Filled in once the other results exist.
            return base(Verdict::Indeterminate, 0.0, vec![], String::new());
        }
        match (check.detection_method.kind, &self.outcomes[i]) {
            (DetectionType::Deterministic, Some(o)) => {
                let (cites, left_out) = self.hit_citations(&check.id, o.verdict, o);
                let mut r = base(o.verdict, 1.0, cites, format!("{}{left_out}", o.notes));
                r.raw_runs = vec![local_run(o.verdict)];
                r.code = o.code.clone();
                self.grounding_fields(o, &mut r);
                r
            }
            (DetectionType::Deterministic, None) => base(
                Verdict::Indeterminate,
                0.0,
                vec![],
                "Not evaluated: this deterministic check has no machine-readable `rules`.".into(),
            ),
            (_, Some(o)) if self.proven(i).is_some() => {
                let (cites, left_out) = self.hit_citations(&check.id, Verdict::Fail, o);
                let mut r = base(Verdict::Fail, 1.0, cites, format!("{}{left_out}", o.notes));
                r.raw_runs = vec![local_run(o.verdict)];
                r.code = o.code.clone();
                self.grounding_fields(o, &mut r);
                r
            }
            (_, Some(o)) if o.hits_are_problems && !o.hits.is_empty() => {
                let (cites, left_out) = self.hit_citations(&check.id, Verdict::Indeterminate, o);
                base(
                    Verdict::Indeterminate,
                    0.0,
                    cites,
                    format!(
                        "{why} Local rules flag {} candidate span(s): {}{left_out}",
                        o.hits.len(),
                        o.notes
                    ),
                )
            }
            (_, Some(o)) => base(
                Verdict::Indeterminate,
                0.0,
                vec![],
                format!("{why} Local rules: {}", o.notes),
            ),
            (_, None) => base(Verdict::Indeterminate, 0.0, vec![], why.to_string()),
        }
    }
}

/// A result with no runs yet.
pub(super) fn blank_result(
    check: &Check,
    result: Verdict,
    confidence: f64,
    citations: Vec<Citation>,
    notes: String,
) -> CheckResult {
    CheckResult {
        code: None,
        check_id: check.id.clone(),
        result,
        per_check_confidence: confidence,
        per_check_consistency: 1.0,
        evidence_citations: citations,
        notes,
        raw_runs: vec![],
        severity: check.severity,
        detection_type: check.detection_method.kind,
        assumptions: vec![],
        grounding: None,
        skipped_claims: vec![],
    }
}

/// The one "run" of a local rule.
fn local_run(result: Verdict) -> RawRun {
    RawRun {
        run: 1,
        result,
        confidence: 1.0,
        notes: String::new(),
        evidence_citations: vec![],
        error: None,
        raw_response: None,
        cached: false,
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`: the default as-of date for evidence.
fn today_utc() -> String {
    let d = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

/// A claim's text on one line, at most 120 characters.
fn clip_claim(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}
