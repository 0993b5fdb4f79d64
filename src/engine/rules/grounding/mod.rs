//! `quotes_grounded`, `references_grounded`, `entities_grounded`: what the output presents as
//! the source's (quotes, section references, amounts, dates, names) must be in the source
//! companion. Deterministic; without a source they are `indeterminate` (LC-001), never pass.
//!
//! Here: what every kind shares (the verdict and notes, who is speaking: drafted text,
//! attribution, lead-ins); `params` (the playbook's parameters), `quote_rule`,
//! `reference_rule` and `entity_rule` (each kind's claims and why one is set aside).
//!
//! Which text is a claim about the source is data: `skip_sections` / `skip_sentences` (drafted
//! clauses, redlines, recommendations) and `not_source_lead_in` (a quote introduced as new
//! language: "replace with", "add:"). A quote of the prompt is not about the source either,
//! when the output says it is the request's ("You asked: …"; `request_attribution`); found
//! only in the prompt without that, it is a quote not in the source, saying where it is.

mod definitions;
mod entity_rule;
mod params;
mod quote_rule;
mod reference_rule;

use std::sync::Arc;

use regex::Regex;

use self::params::{What, compile_with};
use super::claim_voice::{table_cell_voice, under_analysis_label};
use super::kind::{
    CompiledRule, GroundingTrace, RuleContext, RuleError, RuleOutcome, SetAsideSpan,
};
use super::markdown::is_heading_line;
use super::skip::{SkipRules, Skipped, label_end, label_line};
use crate::engine::citations::{Tier, Tiers};
use crate::engine::grounding::drafted::{self, Drafted};
use crate::engine::grounding::{EntityKind, Source, lexicon, references, stating};
use crate::model::text::ceil_char_boundary;
use crate::model::{ClaimKind, SetAside, Verdict};

pub const CODE_QUOTE: &str = "GROUNDING-QUOTE";
pub const CODE_REF: &str = "GROUNDING-REF";
pub const CODE_ENTITY: &str = "GROUNDING-ENTITY";
pub const CODE_NO_EVIDENCE: &str = "LC-001";

#[derive(Debug)]
struct GroundingRule {
    what: What,
    skips: SkipRules,
    lead_in: Option<Regex>,
    markers: Option<Regex>,
    kinds: Vec<EntityKind>,
    attribution: Option<Regex>,
    proposal: Option<Regex>,
}

pub fn compile_quotes(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let w = What::Quotes {
        min_words: 4,
        flag: Tier::NotInSource,
        tiers: Tiers::DEFAULT,
    };
    Ok(Arc::new(compile_with(value, w)?))
}

pub fn compile_references(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    Ok(Arc::new(compile_with(value, What::References)?))
}

pub fn compile_entities(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    Ok(Arc::new(compile_with(value, What::Entities)?))
}

/// What every claim read came to: counted, and each set-aside claim kept with its reason.
#[derive(Default, Clone)]
struct Tally(GroundingTrace);

impl Tally {
    fn grounded(&mut self) {
        self.0.counts.examined += 1;
        self.0.counts.grounded += 1;
    }
    fn not_found(&mut self) {
        self.0.counts.examined += 1;
        self.0.counts.not_found += 1;
    }
    fn paraphrased(&mut self) {
        self.0.counts.examined += 1;
        self.0.counts.paraphrased += 1;
    }
    fn misquoted(&mut self) {
        self.0.counts.examined += 1;
        self.0.counts.misquoted += 1;
    }
    fn set_aside(&mut self, kind: ClaimKind, span: (usize, usize), reason: SetAside) {
        self.0.counts.set_aside += 1;
        *self.0.counts.set_aside_by_reason.entry(reason).or_default() += 1;
        self.0.set_aside.push(SetAsideSpan {
            kind,
            start: span.0,
            end: span.1,
            reason,
        });
    }
}

impl CompiledRule for GroundingRule {
    fn prepare_companions(&self, doc: &crate::engine::document::Document) {
        if let Some(source) = &doc.source {
            source.derived(crate::engine::grounding::SourceIndex::new);
        }
    }

    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        let Some(source) = cx.source() else {
            return Some(RuleOutcome {
                verdict: Verdict::Indeterminate,
                hits: vec![],
                hits_are_problems: false,
                notes: "No evidence to check against: the document names no readable `source` companion with text in it (front matter `byop: source:`).".into(),
                code: Some(CODE_NO_EVIDENCE.into()),
                grounding: None,
            });
        };
        let skipped = self.skips.prepare(cx.text, cx.prose());
        let drafted = cx.drafted(&self.drafted_key(), || self.drafted(cx, source, &skipped));
        let (hits, tally, code) = match self.what {
            What::Quotes {
                min_words,
                flag,
                tiers,
            } => {
                let key = self.quote_reading_key(min_words, tiers);
                let read = cx.shared(&key, || {
                    self.quotes(cx, source, &skipped, &drafted, min_words, tiers)
                });
                let h = read
                    .tiered
                    .iter()
                    .filter(|(t, _)| *t == flag)
                    .map(|(_, h)| h.clone())
                    .collect();
                (h, read.tally.clone(), CODE_QUOTE)
            }
            What::References => {
                let (h, t) = self.references(cx, source, &skipped, &drafted);
                (h, t, CODE_REF)
            }
            What::Entities => {
                let (h, t) = self.entities(cx, source, &skipped, &drafted);
                (h, t, CODE_ENTITY)
            }
        };
        let noun = match self.what {
            What::Quotes {
                flag: Tier::Misquote,
                ..
            } => "quote(s) misquoted",
            What::Quotes {
                flag: Tier::Paraphrase,
                ..
            } => "paraphrase(s) in quotation marks",
            What::Quotes { .. } => "quote(s) not in the source",
            What::References => "reference(s) to parts the source does not have",
            What::Entities => "fact(s) not in the source",
        };
        let c = &tally.0.counts;
        let mut notes = format!(
            "{} claim(s) about the source examined, {} grounded, {} {noun}; {} set aside",
            c.examined,
            c.grounded,
            hits.len(),
            c.set_aside,
        );
        if c.set_aside > 0 {
            notes += &format!(" ({})", c.reasons_line());
        }
        notes.push('.');
        let unresolved = c.unresolved();
        if unresolved > 0 {
            let why: Vec<&str> = (c.set_aside_by_reason.keys())
                .filter(|r| r.unresolved())
                .map(|r| r.describe())
                .collect();
            notes += &format!(
                " {unresolved} claim(s) could not be judged: {}.",
                why.join("; ")
            );
        }
        // Fail closed: a claim that could not be judged is not a pass.
        let verdict = if !hits.is_empty() {
            Verdict::Fail
        } else if unresolved > 0 {
            Verdict::Indeterminate
        } else {
            Verdict::Pass
        };
        Some(RuleOutcome {
            verdict,
            hits_are_problems: true,
            code: (verdict != Verdict::Pass).then(|| code.to_string()),
            hits,
            notes,
            grounding: Some(tally.0),
        })
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        match self.what {
            What::Quotes { flag: Tier::Misquote, .. } => "Fails on misquotes: quotes whose words largely align with a source passage but drop, add or swap words; the finding shows the passage and the exact word changes, the fix restores the source's words. Proves a violation.".into(),
            What::Quotes { flag: Tier::Paraphrase, .. } => "Fails on paraphrases in quotation marks: quotes whose content words are in one source passage but whose wording is not. Proves a violation.".into(),
            What::Quotes { min_words, .. } => format!("Aligns every passage of {min_words}+ words the output quotes from the source with the source's words; fails on quotes whose content the source does not have, also those only in the request (the prompt) not given to it (misquotes and paraphrases are other checks' tiers). Proves a violation."),
            What::References => "Every section, clause, article, paragraph, §, exhibit, schedule, annex or appendix reference must exist in the source's numbering and headings. Proves a violation.".into(),
            What::Entities => "Amounts, percentages, durations, dates, defined terms, organisations and people the output states must appear in the source (compared by value: \"$1,000,000\" = \"one million dollars\"). Proves a violation.".into(),
        }
    }
}

impl GroundingRule {
    /// What the drafted-text analysis depends on besides the document and its source: the
    /// drafting headings and labels, and the attribution words. Checks that agree share one
    /// analysis per document version.
    fn drafted_key(&self) -> String {
        let sections = self.skips.sections.as_ref().map_or("", Regex::as_str);
        let attribution = self.attribution.as_ref().map_or("", Regex::as_str);
        format!("{sections}\u{0}{attribution}")
    }

    /// The output's own drafted text (linear in the text; see `drafted_key`).
    fn drafted(&self, cx: &RuleContext, source: &Source, skipped: &Skipped) -> Drafted {
        let sections = self.skips.sections.as_ref();
        let label_end = |line: &str| sections.and_then(|re| label_end(re, line));
        let label_line = |line: &str| sections.is_some_and(|re| label_line(re, line));
        let is_heading = |s: usize, e: usize| is_heading_line(cx.text, s, e);
        let in_source = |w: &str| source.find_words(w).is_some();
        let attributes = |t: &str| self.attribution.as_ref().is_some_and(|re| re.is_match(t));
        Drafted::build(
            cx.text,
            cx.body,
            &drafted::Inputs {
                label_end: &label_end,
                label_line: &label_line,
                is_heading: &is_heading,
                in_source: &in_source,
                attributes: &attributes,
                known: skipped.regions(),
            },
        )
    }

    /// Does `lead` (the words before a claim) attribute it to the source, with no proposal
    /// between the attribution and the claim?
    fn attributed_by(&self, lead: &str) -> bool {
        let Some(re) = &self.attribution else {
            return false;
        };
        // "We would include the following text: Section 9 provides …" drafts the attribution.
        if lexicon::PROPOSED_TEXT_LEAD.is_match(lead) {
            return false;
        }
        let Some(m) = re.find_iter(lead).last() else {
            return false;
        };
        // "Business & Professions Code § 16600 provides" attributes to a statute.
        if references::statute_before(&lead[..m.start()]) {
            return false;
        }
        !self
            .proposal
            .as_ref()
            .is_some_and(|p| p.is_match(&lead[m.end()..]))
    }

    /// The sentence up to `at` (within its line or sentence), for attribution of values.
    fn sentence_lead<'t>(&self, cx: &RuleContext<'t>, at: usize) -> &'t str {
        let (s, _) = cx.prose().sentence(cx.text, at);
        let ls = cx.text[..at].rfind('\n').map_or(cx.body.0, |i| i + 1);
        cx.text.get(s.max(ls).min(at)..at).unwrap_or("")
    }
    /// Why this span is not a claim about the source, when it is drafted or proposed text:
    /// under a drafting heading or label, in a drafting sentence, inside a drafted clause.
    fn not_a_claim(
        &self,
        cx: &RuleContext,
        skipped: &Skipped,
        drafted: &Drafted,
        (start, end): (usize, usize),
    ) -> Option<SetAside> {
        // In a table, the claim's cell is read with the row up to it and its column's head,
        // not with the comment cells after it; a column headed "Proposed change" holds the
        // output's proposals.
        let cell = table_cell_voice(cx.layout(), start);
        let why = skipped
            .why(start, end)
            .filter(|w| {
                *w != SetAside::DraftingSentence
                    || cell.is_none_or(|pieces| skipped.drafting_words_in(&pieces))
            })
            .or_else(|| {
                // The claim's own cell, up to its sentence ("| Request 6 months of support;
                // negotiate down |" reads "Request 6 months of support").
                let (ss, se) = cx.prose().sentence(cx.text, start);
                cell.is_some_and(|[_, head, (cs, ce)]| {
                    skipped.drafting_words_in(&[head, (cs.max(ss), ce.min(se.max(end)))])
                })
                .then_some(SetAside::DraftingSentence)
            })
            .or_else(|| {
                drafted
                    .covers(start, end)
                    .then_some(SetAside::DraftedClause)
            })?;
        // A paragraph the output labels as its comment ("**Risk:** …") is its analysis, also
        // between the clauses it drafts or under a heading for its proposed text; drafting
        // words in its sentence still make that sentence a proposal.
        let why = if why != SetAside::DraftingSentence
            && under_analysis_label(cx.layout(), cx.text, start)
        {
            if !skipped.in_drafting_sentence(start, end) {
                return None;
            }
            SetAside::DraftingSentence
        } else {
            why
        };
        // The output's own statement of what the source says is analysis wherever it stands,
        // also when a word of the check's drafting list is in it ("The contract sets a cap of
        // …": "cap of" reads as a proposal elsewhere); the lexicon's drafting words still
        // make it a proposal.
        if states_the_source(cx, start, end) {
            return None;
        }
        Some(why)
    }

    /// Does the sentence or line around `at` point at the source (when markers are given)?
    fn attributed(&self, cx: &RuleContext, at: usize) -> bool {
        let Some(re) = &self.markers else {
            return true;
        };
        let (s, e) = cx.prose().sentence(cx.text, at);
        let ls = cx.text[..at]
            .rfind('\n')
            .map_or(cx.body.0, |i| i + 1)
            .max(cx.body.0);
        let le = cx.text[at..]
            .find('\n')
            .map_or(cx.body.1, |i| at + i)
            .min(cx.body.1);
        re.is_match(&cx.text[s.min(ls)..e.max(le)])
    }

    /// The words leading into a quote: the sentence so far on its line, or the previous
    /// non-blank line when the quote opens its line (a block quote, a quoted clause).
    fn lead_in_says_new(&self, cx: &RuleContext, start: usize) -> bool {
        let Some(re) = &self.lead_in else {
            return false;
        };
        re.is_match(Self::lead_in(cx, start))
    }

    fn lead_in<'t>(cx: &RuleContext<'t>, start: usize) -> &'t str {
        let before = cx.text.get(cx.body.0..start).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let on_line = &before[line_start..];
        let bare = |t: &str| {
            t.trim_matches(|c: char| {
                c.is_whitespace() || matches!(c, '>' | '*' | '_' | '-' | '"' | '“' | '(' | '[')
            })
            .is_empty()
        };
        if bare(on_line) {
            let prev = before[..line_start].trim_end();
            &prev[prev.rfind('\n').map_or(0, |i| i + 1)..]
        } else {
            let from = on_line
                .rfind(". ")
                .map_or(0, |i| i + 2)
                .max(on_line.len().saturating_sub(160));
            let from = ceil_char_boundary(on_line, from);
            &on_line[from..]
        }
    }
}

/// Is the claim at `start..end` the output's own statement of what the source says, by its
/// sentence ("Section 9 provides …", "The Agreement expires on …") or by the clause holding
/// it ("Consider that Section 14.7 caps liability at $2,500,000, which should be raised")?
fn states_the_source(cx: &RuleContext, start: usize, end: usize) -> bool {
    let (s, e) = cx.prose().sentence(cx.text, start);
    let s = s.min(start);
    let sentence = cx.text.get(s..e.max(end)).unwrap_or("");
    stating::states_the_source_at(sentence, start - s)
}

/// Does the sentence holding the claim at `start..end` assert nothing about the source: a
/// question (`open_question`), a remark on the law in general (`law_remark`), or a part of
/// another document (`other_document`)? The reason it is set aside, if so.
fn not_asserted(cx: &RuleContext, start: usize, end: usize) -> Option<SetAside> {
    let (s, e) = cx.prose().sentence(cx.text, start);
    let sentence = cx.text.get(s.min(start)..e.max(end)).unwrap_or("");
    if lexicon::OPEN_QUESTION.is_match(sentence) {
        Some(SetAside::OpenQuestion)
    } else if lexicon::LAW_REMARK.is_match(sentence) {
        Some(SetAside::LawDiscussion)
    } else if lexicon::OTHER_DOCUMENT.is_match(sentence) {
        Some(SetAside::OtherDocument)
    } else {
        None
    }
}
