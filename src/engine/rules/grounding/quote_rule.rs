//! `quotes_grounded` and its tiers: quotes the output presents as the source's words.

use std::sync::LazyLock;

use regex::Regex;

use super::{GroundingRule, Tally};
use crate::engine::ascii_regex;
use crate::engine::citations::{Classified, Locator, PAGE_ARTEFACT, Tier, Tiers};
use crate::engine::grounding::drafted::Drafted;
use crate::engine::grounding::{Source, lexicon, quotes};
use crate::engine::rules::kind::{Hit, RuleContext, SourceRef};
use crate::engine::rules::skip::Skipped;
use crate::model::{ClaimKind, Located, SetAside};

/// Every quote of a document read once for all three tiers: the tally, and each quote that
/// is not the source's words with its tier and finding (a check keeps its own tier's).
pub(super) struct QuoteReading {
    pub tally: Tally,
    pub tiered: Vec<(Tier, Hit)>,
}

impl GroundingRule {
    /// What the quote reading depends on besides the document: everything but the tier flagged.
    pub(super) fn quote_reading_key(&self, min_words: usize, tiers: Tiers) -> String {
        let re = |r: &Option<Regex>| r.as_ref().map_or("", Regex::as_str).to_string();
        [
            format!("quotes {min_words} {tiers:?}"),
            re(&self.skips.sections),
            re(&self.skips.sentences),
            re(&self.lead_in),
            re(&self.attribution),
            re(&self.proposal),
            re(&self.markers),
        ]
        .join("\u{0}")
    }

    pub(super) fn quotes(
        &self,
        cx: &RuleContext,
        source: &Source,
        skipped: &Skipped,
        drafted: &Drafted,
        min_words: usize,
        tiers: Tiers,
    ) -> QuoteReading {
        let prompt = cx.companions.prompt.map(|p| Locator::new(p, (0, p.len())));
        let mut t = Tally::default();
        let mut hits = Vec::new();
        for q in quotes::extract_in(cx.text, cx.body, cx.layout()) {
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
            let attributed = q.attributed || self.attributed_by(Self::lead_in(cx, q.start));
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
            let starved = source.starved();
            let loc = source.locate(&for_locating(&q.text));
            if loc.located == Located::Unlocated && source.starved() > starved {
                t.set_aside(ClaimKind::Quote, span, SetAside::MatchingBudgetSpent);
                continue;
            }
            // The prompt is a repository file: text put there passes for nothing. A quote of
            // it is the request's only when the output gives it to the request ("You asked:
            // …"); else it is judged as any quote presented as the source's, its finding
            // saying where the words are from.
            let in_prompt = !attributed
                && matches!(loc.located, Located::Unlocated | Located::Fuzzy)
                && prompt.as_ref().is_some_and(|p| {
                    matches!(
                        p.locate(&q.text).located,
                        Located::Exact | Located::Normalized
                    )
                });
            if in_prompt && lexicon::REQUEST_ATTRIBUTION.is_match(Self::lead_in(cx, q.start)) {
                t.set_aside(ClaimKind::Quote, span, SetAside::QuotesPrompt);
                continue;
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
            // A misquote that changes a figure, a date, an obligation or a negation states
            // what the contract does not: it is reported with the quotes not in the source.
            let preceding = c.pieces.first().map_or("", |&(a, _)| {
                let from = source.text[..a]
                    .char_indices()
                    .rev()
                    .nth(PRECEDING_CHARS)
                    .map_or(0, |(i, _)| i);
                &source.text[from..a]
            });
            let altered =
                c.tier == Tier::Misquote && c.changes.iter().any(|ch| ch.alters_meaning(preceding));
            let tier = if altered { Tier::NotInSource } else { c.tier };
            match tier {
                Tier::Misquote => t.misquoted(),
                Tier::Paraphrase => t.paraphrased(),
                _ => t.not_found(),
            }
            let hit = match c.tier {
                Tier::NotInSource if in_prompt => prompt_only_hit(&q),
                _ => quote_hit(&q, &c, altered),
            };
            hits.push((tier, hit));
        }
        QuoteReading {
            tally: t,
            tiered: hits,
        }
    }
}

/// How much of the source before a misquote's passage is read for a negation the quote
/// moved into its words ("is not due to a breach" quoted as "no breach").
const PRECEDING_CHARS: usize = 40;

/// The output has the quoted words elsewhere too: it is quoting its own drafted text ("the
/// cap is set at '…'"), not the source. Words in text a reader never sees (an HTML comment)
/// are no text of the output's.
fn quotes_itself(cx: &RuleContext, q: &quotes::Quote) -> bool {
    let words = q
        .text
        .trim()
        .trim_matches(|c: char| c == '.' || c == ',' || c == '*' || c == '"');
    if words.len() < 12 {
        return false;
    }
    let body = &cx.text[cx.body.0..cx.body.1];
    body.match_indices(words).any(|(i, _)| {
        let at = cx.body.0 + i;
        (at + words.len() <= q.start || at >= q.end) && !cx.prose().is_hidden(at, at + words.len())
    })
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

/// At most ~200 characters of a passage, for notes.
fn clip(s: &str) -> String {
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// A quote found in the request (the prompt companion) and not in the source, presented
/// without saying it is the request's: a quote not in the source like any other (the high
/// tier in the built-in playbook; a prompt must not lower an invented quote's finding),
/// its note saying where the words are from.
fn prompt_only_hit(q: &quotes::Quote) -> Hit {
    Hit {
        start: q.start,
        end: q.end,
        note: "quote not in the source: it appears in the request (the prompt), not the source; say that it is the request's words (\"You asked: …\") or quote the source".into(),
        source: None,
    }
}

/// A quote's finding in its tier: a misquote shows the source's passage and the exact word
/// changes and carries the source's words for the fix (`altered`: the changes alter what it
/// says, and the finding is reported with the quotes not in the source); a paraphrase shows the passage.
fn quote_hit(q: &quotes::Quote, c: &Classified, altered: bool) -> Hit {
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
            let what = if altered {
                "misquoted in a figure, a date, an obligation or a negation, so the quote says what the contract does not"
            } else {
                "misquoted"
            };
            (
                format!(
                    "{what}: the source reads “{}”; the quote {}",
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
