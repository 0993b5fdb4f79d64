//! `quotes_grounded`, `references_grounded`, `entities_grounded`: what the output presents as
//! the source's (quotes, section references, amounts, dates, names) must be in the source
//! companion. Deterministic; without a source they are `indeterminate` (LC-001), never pass.
//!
//! Which text is a claim about the source is data: `skip_sections` / `skip_sentences` (drafted
//! clauses, redlines, recommendations) and `not_source_lead_in` (a quote introduced as new
//! language: "replace with", "add:"). A quote of the prompt is not about the source either.

use std::sync::{Arc, LazyLock};

use regex::Regex;
use serde::Deserialize;

use super::claim_voice::{in_label, under_skipped_lead, whole_share};
use super::kind::{
    CompiledRule, GroundingTrace, Hit, RuleContext, RuleError, RuleOutcome, SetAsideSpan, SourceRef,
};
use super::markdown::is_heading_line;
use super::regexes::compile_all;
use super::skip::{SkipRules, Skipped, compile_skips, label_end, label_line};
use crate::engine::ascii_regex;
use crate::engine::citations::{Classified, Locator, PAGE_ARTEFACT, Tier, Tiers};
use crate::engine::grounding::drafted::{self, Drafted};
use crate::engine::grounding::{
    EntityKind, RefKind, Source, entities, lexicon, names, quotes, references,
};
use crate::model::text::{around, ceil_char_boundary, floor_char_boundary};
use crate::model::{ClaimKind, Located, SetAside, Verdict};

pub const CODE_QUOTE: &str = "GROUNDING-QUOTE";
pub const CODE_REF: &str = "GROUNDING-REF";
pub const CODE_ENTITY: &str = "GROUNDING-ENTITY";
pub const CODE_NO_EVIDENCE: &str = "LC-001";

/// Parameters every grounding kind shares.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default)]
    skip_sentences: Vec<String>,
    #[serde(default)]
    skip_sections: Vec<String>,
    /// Text just before a quote that makes it new language, not the source's.
    #[serde(default)]
    not_source_lead_in: Vec<String>,
    /// quotes: shorter quotes are terms, not passages (default 4 words).
    #[serde(default)]
    min_words: Option<usize>,
    /// quotes: which tier this check reports: `unlocated` (not in the source), `misquoted`
    /// or `paraphrased`.
    #[serde(default)]
    flag: Option<FlagName>,
    /// quotes: where the tiers part (the same for every quote check of a playbook).
    #[serde(default)]
    tiers: Option<TierParams>,
    /// entities: a stated fact is a claim about the source only when its sentence (or line)
    /// also points at the source ("Section 4 provides", "the Agreement", "currently").
    #[serde(default)]
    claim_markers: Vec<String>,
    /// entities: which kinds to check (default all): amount, percentage, duration, date,
    /// defined_term, organisation, person.
    #[serde(default)]
    kinds: Vec<KindName>,
    /// Words that attribute what follows to the source ("Section 5 provides", "Current:").
    /// Attribution wins over drafted-ness: such a quote or value is always a claim, unless a
    /// proposal (`proposal_after`) comes between the attribution and it.
    #[serde(default)]
    source_attribution: Vec<String>,
    #[serde(default)]
    proposal_after: Vec<String>,
}

/// The quote tier a quote check reports, as a playbook names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum FlagName {
    Unlocated,
    Misquoted,
    Paraphrased,
}

impl FlagName {
    fn tier(self) -> Tier {
        match self {
            FlagName::Unlocated => Tier::NotInSource,
            FlagName::Misquoted => Tier::Misquote,
            FlagName::Paraphrased => Tier::Paraphrase,
        }
    }
}

/// An entity kind as a playbook names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum KindName {
    Amount,
    Percentage,
    Duration,
    Date,
    DefinedTerm,
    #[serde(alias = "organization")]
    Organisation,
    Person,
    LegalCitation,
}

impl KindName {
    fn entity(self) -> EntityKind {
        match self {
            KindName::Amount => EntityKind::Money,
            KindName::Percentage => EntityKind::Percent,
            KindName::Duration => EntityKind::Duration,
            KindName::Date => EntityKind::Date,
            KindName::DefinedTerm => EntityKind::DefinedTerm,
            KindName::Organisation => EntityKind::Organization,
            KindName::Person => EntityKind::Person,
            KindName::LegalCitation => EntityKind::LegalCitation,
        }
    }
}

/// The claim kind of an entity.
fn claim_kind(k: EntityKind) -> ClaimKind {
    match k {
        EntityKind::Money => ClaimKind::Amount,
        EntityKind::Percent => ClaimKind::Percentage,
        EntityKind::Duration => ClaimKind::Duration,
        EntityKind::Date => ClaimKind::Date,
        EntityKind::DefinedTerm => ClaimKind::DefinedTerm,
        EntityKind::Organization => ClaimKind::Organisation,
        EntityKind::Person => ClaimKind::Person,
        EntityKind::LegalCitation => ClaimKind::LegalCitation,
    }
}

/// The thresholds between a quote's tiers (see `citations::Tiers`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TierParams {
    misquote_min_similarity: f64,
    paraphrase_min_shared: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum What {
    Quotes {
        min_words: usize,
        flag: Tier,
        tiers: Tiers,
    },
    References,
    Entities,
}

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

fn compile_with(value: serde_json::Value, what: What) -> Result<GroundingRule, RuleError> {
    let p: Params = super::kind::params(value)?;
    let what = match what {
        What::Quotes { .. } => {
            let flag = p.flag.map_or(Tier::NotInSource, FlagName::tier);
            let tiers = match &p.tiers {
                None => Tiers::DEFAULT,
                Some(t) => {
                    let unit = |v: f64| (0.0..=1.0).contains(&v);
                    if !unit(t.misquote_min_similarity) || !unit(t.paraphrase_min_shared) {
                        return Err(RuleError::at(
                            vec![super::kind::Seg::key("tiers")],
                            "tier thresholds are shares between 0 and 1",
                        ));
                    }
                    Tiers {
                        misquote_min: t.misquote_min_similarity,
                        paraphrase_min: t.paraphrase_min_shared,
                    }
                }
            };
            What::Quotes {
                min_words: p.min_words.unwrap_or(4).max(1),
                flag,
                tiers,
            }
        }
        w => w,
    };
    let kinds = p.kinds.iter().map(|k| k.entity()).collect();
    Ok(GroundingRule {
        what,
        skips: compile_skips(&p.skip_sentences, &p.skip_sections)?,
        lead_in: compile_all("not_source_lead_in", &p.not_source_lead_in)?,
        markers: compile_all("claim_markers", &p.claim_markers)?,
        kinds,
        attribution: compile_all("source_attribution", &p.source_attribution)?,
        proposal: compile_all("proposal_after", &p.proposal_after)?,
    })
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
#[derive(Default)]
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
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        let Some(source) = cx.source() else {
            return Some(RuleOutcome {
                verdict: Verdict::Indeterminate,
                hits: vec![],
                hits_are_problems: false,
                notes: "No evidence to check against: the document names no readable `source` companion (front matter `byop: source:`).".into(),
                code: Some(CODE_NO_EVIDENCE.into()),
                grounding: None,
            });
        };
        let skipped = self.skips.prepare(cx.text, &cx.prose);
        let drafted = cx.drafted(&self.drafted_key(), || self.drafted(cx, source, &skipped));
        let (hits, tally, code) = match self.what {
            What::Quotes {
                min_words,
                flag,
                tiers,
            } => {
                let (h, t) = self.quotes(cx, source, &skipped, &drafted, min_words, (flag, tiers));
                (h, t, CODE_QUOTE)
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
            notes += &format!(
                " {unresolved} claim(s) could not be judged: the source's section numbering could not be read."
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
            What::Quotes { min_words, .. } => format!("Aligns every passage of {min_words}+ words the output quotes from the source with the source's words; fails on quotes whose content the source does not have (misquotes and paraphrases are other checks' tiers). Proves a violation."),
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
        let (s, _) = cx.prose.sentence(cx.text, at);
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
        let why = skipped.why(start, end).or_else(|| {
            drafted
                .covers(start, end)
                .then_some(SetAside::DraftedClause)
        })?;
        // The output's own statement of what the source says is analysis wherever it stands.
        if why != SetAside::DraftingSentence && states_the_source(cx, start, end) {
            return None;
        }
        Some(why)
    }

    /// Does the sentence or line around `at` point at the source (when markers are given)?
    fn attributed(&self, cx: &RuleContext, at: usize) -> bool {
        let Some(re) = &self.markers else {
            return true;
        };
        let (s, e) = cx.prose.sentence(cx.text, at);
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

    fn quotes(
        &self,
        cx: &RuleContext,
        source: &Source,
        skipped: &Skipped,
        drafted: &Drafted,
        min_words: usize,
        (flag, tiers): (Tier, Tiers),
    ) -> (Vec<Hit>, Tally) {
        let prompt = cx.companions.prompt.map(|p| Locator::new(p, (0, p.len())));
        let mut t = Tally::default();
        let mut hits = Vec::new();
        for q in quotes::extract_in(cx.text, cx.body) {
            let span = (q.start, q.end);
            if q.words() < min_words {
                t.set_aside(ClaimKind::Quote, span, SetAside::ShortQuote);
                continue;
            }
            if q.text.trim_start().starts_with('[') {
                // "[ADD] …": the output quoting its own redline.
                t.set_aside(ClaimKind::Quote, span, SetAside::QuotesOwnText);
                continue;
            }
            // Attribution wins: "Section 5 provides: “…”" is a claim wherever it stands.
            let attributed = self.attributed_by(Self::lead_in(cx, q.start));
            // "> Final Price = Wholesale Price × (1 - 0.05)": an equation the output writes.
            if !attributed && is_equation(&q.text) {
                t.set_aside(ClaimKind::Quote, span, SetAside::Equation);
                continue;
            }
            if !attributed
                && let Some(reason) = self.not_a_claim(cx, skipped, drafted, span).or_else(|| {
                    self.lead_in_says_new(cx, q.start)
                        .then_some(SetAside::NewLanguageLeadIn)
                })
            {
                t.set_aside(ClaimKind::Quote, span, reason);
                continue;
            }
            let loc = source.locate(&for_locating(&q.text));
            if !attributed && matches!(loc.located, Located::Unlocated | Located::Fuzzy) {
                let in_prompt = prompt.as_ref().is_some_and(|p| {
                    matches!(
                        p.locate(&q.text).located,
                        Located::Exact | Located::Normalized
                    )
                });
                if in_prompt {
                    t.set_aside(ClaimKind::Quote, span, SetAside::QuotesPrompt);
                    continue;
                }
            }
            // The output quoting its own drafted clause (any case, piecewise for ellipses).
            if !attributed
                && !loc.is_evidence()
                && (quotes_itself(cx, &q)
                    || drafted.has_text(&q.text)
                    || drafted.has_text_loosely(&q.text))
            {
                t.set_aside(ClaimKind::Quote, span, SetAside::QuotesOwnText);
                continue;
            }
            let c = source.classify(&for_locating(&q.text), &tiers);
            // Differing only in page furniture, brackets or a slashed number is verbatim.
            let raw = || {
                c.pieces
                    .iter()
                    .filter_map(|&(a, b)| source.text.get(a..b))
                    .collect::<Vec<_>>()
                    .join(" … ")
            };
            if c.tier == Tier::Verbatim
                || (c.tier == Tier::Misquote && same_words_but_artefacts(&q.text, &raw()))
            {
                t.grounded();
                continue;
            }
            // Not the source's words at all, but the output's own drafted clause summed up.
            if c.tier == Tier::NotInSource && !attributed && drafted.summarises(&q.text) {
                t.set_aside(ClaimKind::Quote, span, SetAside::QuotesOwnText);
                continue;
            }
            match c.tier {
                Tier::Misquote => t.misquoted(),
                Tier::Paraphrase => t.paraphrased(),
                _ => t.not_found(),
            }
            if c.tier == flag {
                hits.push(quote_hit(&q, &c));
            }
        }
        (hits, t)
    }

    fn references(
        &self,
        cx: &RuleContext,
        source: &Source,
        skipped: &Skipped,
        drafted: &Drafted,
    ) -> (Vec<Hit>, Tally) {
        let mut t = Tally::default();
        let mut hits = Vec::new();
        let all = references::extract_in(cx.text, cx.body);
        // Parts the output numbers itself (a line that starts with "Section 8.7 …" or "8.7 …"):
        // references to them are to the output's own drafted text. A reference inside a
        // sentence stating what the source says ("Section 99.4 provides that …") is a claim,
        // never evidence of the output's own numbering; but it may speak of a number the
        // output gave elsewhere ("1. Section 8.1 limits …" after its drafted "8.1 …").
        let stated = |(s, e): (usize, usize)| states_the_source(cx, s, e);
        let own: std::collections::HashSet<(RefKind, String)> = all
            .iter()
            .filter(|r| {
                ((starts_line(cx.text, r.start) && titles_line(cx.text, r))
                    || references::introduced(cx.text, r))
                    && !stated((r.start, r.end))
            })
            .map(|r| (r.kind, r.label.clone()))
            .chain(
                own_numbering(cx.text, cx.body)
                    .into_iter()
                    .map(|l| (RefKind::Numbered, l)),
            )
            .collect();
        for r in all {
            let this = cx.text[..r.start].trim_end_matches([' ', '*', '_']);
            let self_ref = this
                .len()
                .checked_sub(4)
                .and_then(|i| Some((this.get(i..)?, &this[..i])))
                .is_some_and(|(w, rest)| {
                    w.eq_ignore_ascii_case("this") && !rest.ends_with(char::is_alphanumeric)
                });
            // "Article 9.6 does not exist" denies the part; "Companies Act, 2013: … Section
            // 188" is the statute's section. Neither is a claim that the source has it.
            let span = (r.start, r.end);
            let reason = if self_ref {
                Some(SetAside::SelfReference)
            } else if references::denied(cx.text, &r) {
                Some(SetAside::SaidAbsent)
            } else if references::under_statute_label(cx.text, &r) {
                Some(SetAside::Statute)
            } else {
                self.not_a_claim(cx, skipped, drafted, span)
            };
            if let Some(reason) = reason {
                t.set_aside(ClaimKind::Reference, span, reason);
                continue;
            }
            match source.reference(&r) {
                Some(_) => t.grounded(),
                None if ((own.contains(&(r.kind, r.label.clone()))
                    || drafted.introduces_where(r.kind, &r.label, |at| !stated(at)))
                    && (r.parts.is_empty() || drafted.numbers_parts(&r.parts)))
                    || (drafted.numbers_parts(&r.parts)
                        && source
                            .reference(&references::Reference {
                                parts: vec![],
                                ..r.clone()
                            })
                            .is_some()) =>
                {
                    t.set_aside(ClaimKind::Reference, span, SetAside::OwnNumbering)
                }
                // A numbering the source does not show cannot be told apart from one it lacks.
                None if r.kind == RefKind::Numbered && !source.numbering_readable() => t.set_aside(
                    ClaimKind::Reference,
                    span,
                    SetAside::SourceNumberingUnreadable,
                ),
                None => {
                    t.not_found();
                    hits.push(Hit {
                        start: r.start,
                        end: r.end,
                        note: format!("the source has no {}", r.text.trim()),
                        source: None,
                    });
                }
            }
        }
        (hits, t)
    }

    fn entities(
        &self,
        cx: &RuleContext,
        source: &Source,
        skipped: &Skipped,
        drafted: &Drafted,
    ) -> (Vec<Hit>, Tally) {
        let mut t = Tally::default();
        let mut hits = Vec::new();
        let all = claims(cx, source);
        // Values the output itself drafts (in skipped text): its explanation repeating them
        // ("the new cap of 12 months") speaks of its proposal, not of the source.
        let drafted_values: std::collections::HashSet<(EntityKind, &str)> = all
            .iter()
            .filter(|e| {
                self.not_a_claim(cx, skipped, drafted, (e.start, e.end))
                    .is_some_and(|r| r != SetAside::DraftingSentence || !source_definition(cx, e))
                    || own_definition(cx, e)
            })
            .map(|e| (e.kind, e.normalized.as_str()))
            .collect();
        for e in &all {
            if !self.kinds.is_empty() && !self.kinds.contains(&e.kind) {
                continue;
            }
            // Inside a quote, the quote checks speak for it; a defined term is itself quoted.
            let quoted = e.kind != EntityKind::DefinedTerm && cx.prose.is_quoted(e.start, e.end);
            // Attribution wins: "Section 2 provides that the fee is $3,000,000" is a claim
            // even in a sentence that goes on to recommend something.
            let strong = self.attributed_by(self.sentence_lead(cx, e.start));
            let (kind, span) = (claim_kind(e.kind), (e.start, e.end));
            let reason = if quoted {
                Some(SetAside::InsideQuote)
            } else if case_name(cx.text, e) {
                Some(SetAside::CaseName)
            } else if own_definition(cx, e) {
                Some(SetAside::Definition)
            } else if said_absent(cx.text, e) {
                Some(SetAside::SaidAbsent)
            } else if restates_previous(cx.text, &all, e) {
                Some(SetAside::Conversion)
            } else if strong {
                None
            } else if e.kind == EntityKind::LegalCitation && discusses_law(cx, e.start, e.end) {
                Some(SetAside::LawDiscussion)
            } else if let Some(r) = self
                .not_a_claim(cx, skipped, drafted, span)
                // "\"X\" means, under the Agreement, …": the word "means" made the sentence
                // read as drafting, but it names the source as where X is defined.
                .filter(|r| *r != SetAside::DraftingSentence || !source_definition(cx, e))
            {
                Some(r)
            } else if list_lead_skipped(cx, skipped, e.start) {
                Some(SetAside::RecommendationList)
            } else if !names_own_vocabulary(cx.text, e) && !self.attributed(cx, e.start) {
                Some(SetAside::NoClaimMarker)
            } else {
                None
            };
            if let Some(reason) = reason {
                t.set_aside(kind, span, reason);
                continue;
            }
            let found = source
                .contains(e)
                .or_else(|| {
                    called_total(cx.text, e)
                        .then(|| source.sum_of_two(e))
                        .flatten()
                })
                .or_else(|| whole_share(cx.text, e, source));
            match found {
                Some(_) => t.grounded(),
                None if !strong
                    && (drafted_values.contains(&(e.kind, e.normalized.as_str()))
                        || (e.kind == EntityKind::DefinedTerm
                            && (drafted.defines(&e.normalized)
                                || drafted.mentions(&e.normalized)
                                || e.normalized
                                    .strip_suffix('s')
                                    .is_some_and(|k| drafted_values.contains(&(e.kind, k)))))) =>
                {
                    t.set_aside(kind, span, SetAside::DraftedValue)
                }
                // A term the source lacks, in the output's own heading or label: its title
                // for the point (the text under it makes the claims).
                None if !strong
                    && e.kind == EntityKind::DefinedTerm
                    && in_label(cx.layout(), cx.text, span) =>
                {
                    t.set_aside(kind, span, SetAside::Label)
                }
                // A value the source lacks in an item of a list led in by a proposal ("The
                // proposed clause attempts to … by:"): the output describing its proposal.
                None if !strong
                    && under_skipped_lead(cx.layout(), cx.text, e.start, |c| {
                        skipped.covers(c, c + 1)
                    }) =>
                {
                    t.set_aside(kind, span, SetAside::RecommendationList)
                }
                None => {
                    t.not_found();
                    hits.push(Hit {
                        start: e.start,
                        end: e.end,
                        note: format!("{} not in the source: {}", e.kind.as_str(), e.text.trim()),
                        source: None,
                    });
                }
            }
        }
        (hits, t)
    }
}

/// Every fact the output states, in text order: the context-free recognisers
/// (`entities::extract_in`), then people named without an honorific and capitalised terms
/// used once after "the" (`names`), which need the vocabulary of the output and the source
/// and are kept only where no other recogniser already read the words.
fn claims(cx: &RuleContext, source: &Source) -> Vec<entities::Entity> {
    let mut all = entities::extract_in(cx.text, cx.body);
    let lower = names::lower_words(&cx.text[cx.body.0..cx.body.1]);
    let common = |w: &str| names::starts_a_word(&lower, w) || source.has_lower_word(w);
    let extra = names::people_in(cx.text, cx.body, &common)
        .into_iter()
        .chain(names::terms_in(cx.text, cx.body));
    let mut more: Vec<entities::Entity> = Vec::new();
    for e in extra {
        let taken = |o: &entities::Entity| o.start < e.end && e.start < o.end;
        if !all.iter().any(taken) && !more.iter().any(taken) && !in_heading(cx.text, e.start) {
            more.push(e);
        }
    }
    all.extend(more);
    all.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
    all
}

/// Is `at` on a markdown heading line?
fn in_heading(text: &str, at: usize) -> bool {
    let s = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let e = text[at..].find('\n').map_or(text.len(), |i| at + i);
    is_heading_line(text, s, e)
}

/// Is the sentence holding this citation a discussion of the law rather than a statement of
/// what the source says?
fn discusses_law(cx: &RuleContext, start: usize, end: usize) -> bool {
    let (s, e) = cx.prose.sentence(cx.text, start);
    // A citation inside a parenthetical is read with the whole parenthetical, which the
    // sentence splitter may have cut at an abbreviation: "(cf. *Loral Corp. v. Moyes* (1985)
    // 174 Cal.App.3d 268)".
    let s = open_paren(cx.text, start).map_or(s, |p| p.min(s));
    lexicon::LAW_DISCUSSION.is_match(cx.text.get(s.min(start)..e.max(end)).unwrap_or(""))
}

/// The unclosed opening parenthesis before `at` on its line, if any.
fn open_paren(text: &str, at: usize) -> Option<usize> {
    let ls = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut depth = 0usize;
    for (i, c) in text[ls..at].char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => return Some(ls + i),
            '(' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Is the sentence holding `start..end` the output's own statement of what the source says
/// ("Section 9 provides …", "The Agreement expires on …")?
fn states_the_source(cx: &RuleContext, start: usize, end: usize) -> bool {
    let (s, e) = cx.prose.sentence(cx.text, start);
    lexicon::states_the_source(cx.text.get(s..e.max(end)).unwrap_or(""))
}

/// The output has the quoted words elsewhere too: it is quoting its own drafted text ("the
/// cap is set at '…'"), not the source.
fn quotes_itself(cx: &RuleContext, q: &quotes::Quote) -> bool {
    let words = q
        .text
        .trim()
        .trim_matches(|c: char| c == '.' || c == ',' || c == '*' || c == '"');
    if words.len() < 12 {
        return false;
    }
    let body = &cx.text[cx.body.0..cx.body.1];
    body.match_indices(words)
        .any(|(i, _)| cx.body.0 + i + words.len() <= q.start || cx.body.0 + i >= q.end)
}

/// Is this line-opening reference a title ("### Section 19 Limitation of Liability",
/// "**Section 19.** …", "Section 8.7:") rather than the subject of a sentence ("Section 5
/// provides …", which is a claim about the source)?
fn titles_line(text: &str, r: &references::Reference) -> bool {
    let line_start = text[..r.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[r.end..].find('\n').map_or(text.len(), |i| r.end + i);
    if is_heading_line(text, line_start, line_end) {
        return true;
    }
    let after = text[r.end..line_end].trim_start_matches(['*', '_', ' ']);
    // "Section 8.7 Limitation of Liability. …": a capitalised clause title, then a full stop.
    let title = after.split_once('.').is_some_and(|(t, _)| {
        t.len() <= 80
            && t.split_whitespace().all(|w| {
                w.starts_with(|c: char| c.is_uppercase())
                    || matches!(
                        w,
                        "of" | "and" | "or" | "to" | "for" | "the" | "on" | "in" | "&" | ";"
                    )
            })
    });
    title || after.is_empty() || after.starts_with(['.', ':', '-', '–', '—', '|'])
}

/// Is `at` the first word of its line (after list markers, emphasis, `#`, `[ADD]`)?
fn starts_line(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..at];
    let lead = lead.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '#' | '*' | '_' | '-' | '+' | '>' | '•' | '|')
    });
    lead.is_empty() || (lead.starts_with('[') && lead.trim_end().ends_with(']'))
}

/// Numbers that start lines of the output ("8.7 Limitation of Liability", "**5.3** …").
fn own_numbering(text: &str, body: (usize, usize)) -> Vec<String> {
    let mut out = Vec::new();
    for line in text[body.0..body.1].lines() {
        let l = line.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '#' | '*' | '_' | '>' | '|')
        });
        let l = l
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .map_or(l, |(_, r)| r.trim_start());
        let n: String = l
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let n = n.trim_end_matches('.');
        if n.contains('.') && n.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            out.push(n.to_string());
        }
    }
    out
}

/// A company, or a capitalised term used once without quotation marks ("tied to the
/// Holdback Amount"), named in the analysis is a claim that the source has it: the output has
/// no other source of such names. Other facts (and a quoted term, which the output may be
/// discussing: `Ensure "Subsidiary" is defined`) need a claim marker in their sentence.
fn names_own_vocabulary(text: &str, e: &entities::Entity) -> bool {
    let quoted = text[..e.start]
        .trim_end_matches(['*', '_'])
        .ends_with(['"', '“', '\'', '‘']);
    e.kind == EntityKind::Organization || (e.kind == EntityKind::DefinedTerm && !quoted)
}

/// A definition the output drafts itself: the shape of one (`is_definition`) in a sentence
/// that does not name the source as where the term is defined ("the Agreement defines
/// \"X\" as …", "(the \"X\") as the contract calls it" are claims about the source).
fn own_definition(cx: &RuleContext, e: &entities::Entity) -> bool {
    is_definition(cx.text, e) && !names_the_source(cx, e)
}

/// `"X" means …` in a sentence that names the source as where X is defined and has no
/// other drafting or proposal word: the word "means" alone made it read as drafting.
fn source_definition(cx: &RuleContext, e: &entities::Entity) -> bool {
    let after = cx.text[e.end..].trim_start_matches(['"', '”', '*', '_', ' ']);
    let (s, end) = cx.prose.sentence(cx.text, e.start);
    let sentence = cx.text.get(s.min(e.start)..end.max(e.end)).unwrap_or("");
    e.kind == EntityKind::DefinedTerm
        && after.starts_with("means")
        && lexicon::NAMES_THE_SOURCE.is_match(sentence)
        && !lexicon::DRAFTING_WORDS.is_match(sentence)
}

fn names_the_source(cx: &RuleContext, e: &entities::Entity) -> bool {
    let (s, end) = cx.prose.sentence(cx.text, e.start);
    let sentence = cx.text.get(s.min(e.start)..end.max(e.end)).unwrap_or("");
    lexicon::NAMES_THE_SOURCE.is_match(sentence)
}

/// A figure in parentheses right after a figure of the same kind ("$8,500/month
/// ($102,000/year)", "RMB 200 million (≈$29M)"): the output restating it in other units.
fn restates_previous(text: &str, all: &[entities::Entity], e: &entities::Entity) -> bool {
    if !e.kind.is_numeric() {
        return false;
    }
    let Some(open) = text[..e.start]
        .trim_end_matches(['≈', '~', ' ', '*'])
        .strip_suffix('(')
    else {
        return false;
    };
    all.iter().any(|p| {
        p.kind == e.kind
            && p.end <= open.len()
            && text[p.end..open.len()]
                .trim_matches(|c: char| c == ' ' || c == '*' || c == '/' || c.is_alphabetic())
                .is_empty()
            && open.len() - p.end <= 12
    })
}

/// A defined term being defined (`(the "Audit Notice")`, `"Cure Period" means`): the output
/// drafting a definition, not quoting one.
fn is_definition(text: &str, e: &entities::Entity) -> bool {
    if e.kind != EntityKind::DefinedTerm {
        return false;
    }
    // An unquoted term ("the Holdback Amount") follows "the" by how it was read: only the
    // words after it can make it a definition.
    let quoted = text[..e.start]
        .trim_end_matches(['*', '_'])
        .ends_with(['"', '“']);
    let before = text[..e.start].trim_end_matches(['"', '“', '*', '_', ' ']);
    let b = ceil_char_boundary(before, before.len().saturating_sub(24));
    let before = before[b..].to_ascii_lowercase();
    let after = text[e.end..].trim_start_matches(['"', '”', '*', '_', ' ']);
    let a = floor_char_boundary(after, after.len().min(24));
    let after = after[..a].to_ascii_lowercase();
    (quoted
        && (before.ends_with('(')
            || before.ends_with("(the")
            || before.ends_with("the")
            || before.ends_with(" a")
            || before.ends_with(" an")
            || before.ends_with("each,")
            || before.ends_with("collectively,")))
        || after.starts_with("means")
        || after.starts_with("shall mean")
        || after.starts_with("shall have")
        || after.starts_with("has the meaning")
        || after.starts_with(')')
}

/// A quote as the source would have it: markdown emphasis inside it dropped (`**bold**`),
/// an ellipsis glued to a word spaced ("compensation...the" → "compensation … the"), and an
/// editorial insertion in brackets ("[MediaNet]", "[and]") read as an ellipsis.
fn for_locating(q: &str) -> String {
    let mut out = String::with_capacity(q.len() + 8);
    let mut bracket = false;
    let mut chars = q.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {}
            '_' if chars.peek() == Some(&'_') => {
                chars.next();
            }
            '[' if !bracket => {
                bracket = true;
                out.push_str(" … ");
            }
            ']' if bracket => bracket = false,
            _ if bracket => {}
            '.' if chars.peek() == Some(&'.') => {
                while chars.peek() == Some(&'.') {
                    chars.next();
                }
                out.push_str(" … ");
            }
            '…' => out.push_str(" … "),
            _ => out.push(c),
        }
    }
    if bracket {
        return q.to_string();
    }
    out
}

/// An amount the output calls a total ("$3,091,000 total", "a combined $3,091,000", "in
/// aggregate $3,091,000"): the word right before or after it.
fn called_total(text: &str, e: &entities::Entity) -> bool {
    static BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex::compile(r"(?i)\b(?:total(?:ing|ling|s)?|combined|aggregate|in\s+all|sum\s+of|together)\s*(?:of\s+)?[:(]?\s*$")
            .expect("total-before regex")
    });
    static AFTER: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex::compile(
            r"(?i)^\s*(?:in\s+)?(?:total|combined|aggregate|in\s+all|altogether)\b",
        )
        .expect("total-after regex")
    });
    if e.kind != EntityKind::Money {
        return false;
    }
    let (before, after) = around(text, (e.start, e.end), 30, 20);
    BEFORE.is_match(before) || AFTER.is_match(after)
}

/// An enumerated item ("(iii) reasonable non-solicit … for 12–24 months") of a list whose
/// lead-in on the same line is a skipped sentence ("Make mutual, reasonable …: (i) …; (ii) …"):
/// the items are the recommendation's, not claims about the source.
fn list_lead_skipped(cx: &RuleContext, skipped: &Skipped, at: usize) -> bool {
    let (s, _) = cx.prose.sentence(cx.text, at);
    let item = cx.text[s.min(at)..at].trim_start();
    let enumerated = item.strip_prefix('(').is_some_and(|r| {
        r.split_once(')').is_some_and(|(n, _)| {
            !n.is_empty() && n.len() <= 4 && n.chars().all(|c| c.is_ascii_alphanumeric())
        })
    });
    if !enumerated {
        return false;
    }
    let ls = cx.text[..s].rfind('\n').map_or(cx.body.0, |i| i + 1);
    match cx.text.get(ls..s).and_then(|l| l.rfind(':')) {
        Some(c) => skipped.covers(ls + c, ls + c + 1),
        None => false,
    }
}

/// An equation ("Final Price = Wholesale Price × (1 - 0.05)"): a formula the output writes,
/// not a passage of prose it quotes.
fn is_equation(q: &str) -> bool {
    q.split_once('=').is_some_and(|(l, r)| {
        l.trim_end().ends_with(char::is_alphanumeric)
            && r.trim_start()
                .starts_with(|c: char| c.is_alphanumeric() || c == '(')
    })
}

/// Does the quote have the source's words (case, spacing and punctuation aside) where the
/// locator found it, once page furniture is dropped from the source's passage, a bracketed
/// editorial mark or placeholder ("[…***…]", "[X years]") in the quote is read as an
/// omission, and "3/5" is read as either number? Every piece, in order, must be there.
fn same_words_but_artefacts(quote: &str, found: &str) -> bool {
    static SLASHED: LazyLock<Regex> =
        LazyLock::new(|| ascii_regex::compile(r"\b(\d+)/(\d+)\b").expect("slashed numbers regex"));
    let letters = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let found = letters(&PAGE_ARTEFACT.replace_all(found, " "));
    let in_order = |q: &str| {
        let mut at = 0;
        let mut any = false;
        for piece in for_locating(q).split('…') {
            let p = letters(piece);
            if p.is_empty() {
                continue;
            }
            match found[at..].find(&p) {
                Some(i) => at += i + p.len(),
                None => return false,
            }
            any = true;
        }
        any
    };
    if SLASHED.is_match(quote) {
        in_order(&SLASHED.replace_all(quote, "$1")) || in_order(&SLASHED.replace_all(quote, "$2"))
    } else {
        in_order(quote)
    }
}

/// A defined term the output says the source lacks ("Lack of “No-Fault” Termination", "there
/// is a lack of an overarching “Recitals” section", "“Cure Period” is not defined", "No
/// order-of-precedence clause between the Agreement and Schedules"; the words are the
/// lexicon's `absent_before` / `absent_after`): only that term is skipped, the sentence's
/// other values are still claims.
fn said_absent(text: &str, e: &entities::Entity) -> bool {
    if e.kind != EntityKind::DefinedTerm {
        return false;
    }
    let marks = |c: char| matches!(c, '"' | '“' | '”' | '*' | '_' | '\'' | '‘' | '’');
    let before = text[..e.start].trim_end_matches(marks);
    let b = ceil_char_boundary(before, before.len().saturating_sub(60));
    let after = text[e.end..].trim_start_matches(marks).trim_start();
    let a = floor_char_boundary(after, after.len().min(60));
    lexicon::ABSENT_BEFORE.is_match(&before[b..]) || lexicon::ABSENT_AFTER.is_match(&after[..a])
}

/// A party to a court case ("Edwards v. Arthur Andersen LLP"), not to the source.
fn case_name(text: &str, e: &entities::Entity) -> bool {
    if e.kind != EntityKind::Organization {
        return false;
    }
    let (before, after) = around(text, (e.start, e.end), 60, 8);
    let after = after.trim_start_matches(['*', '_', ' ']);
    before.contains(" v. ")
        || before.contains(" vs. ")
        || before.trim_end().ends_with(" v")
        || after.starts_with("v. ")
        || after.starts_with("vs. ")
}

/// At most ~200 characters of a passage, for notes.
fn clip(s: &str) -> String {
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// A quote's finding in its tier: a misquote shows the source's passage and the exact word
/// changes and carries the source's words for the fix; a paraphrase shows the passage.
fn quote_hit(q: &quotes::Quote, c: &Classified) -> Hit {
    let (start, end) = (
        c.pieces.first().map_or(0, |p| p.0),
        c.pieces.last().map_or(0, |p| p.1),
    );
    let source = |replacement: Option<String>| {
        (!c.pieces.is_empty()).then(|| SourceRef {
            start,
            end,
            excerpt: c.passage.clone(),
            replacement,
        })
    };
    let (note, source) = match c.tier {
        Tier::Misquote => {
            let changes: Vec<String> = c.changes.iter().map(|ch| ch.describe()).collect();
            (
                format!(
                    "misquoted: the source reads “{}”; the quote {}",
                    clip(&c.passage),
                    clip(&changes.join("; "))
                ),
                source((!q.block).then(|| c.passage.clone())),
            )
        }
        Tier::Paraphrase => (
            format!(
                "paraphrase in quotation marks: the source has this in other words: “{}”",
                clip(&c.passage)
            ),
            source(None),
        ),
        _ => ("quote not in the source".into(), None),
    };
    Hit {
        start: q.start,
        end: q.end,
        note,
        source,
    }
}
