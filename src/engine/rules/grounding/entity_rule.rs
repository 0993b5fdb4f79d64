//! `entities_grounded`: amounts, dates, terms, parties the output says the source has.

use std::sync::LazyLock;

use regex::Regex;

use super::definitions::{own_definition, source_definition, the_before_quote};
use super::params::claim_kind;
use super::{GroundingRule, Tally, not_asserted, states_the_source};
use crate::engine::ascii_regex;
use crate::engine::grounding::drafted::Drafted;
use crate::engine::grounding::{
    EntityKind, Source, caps_terms, entities, lexicon, names, term_runs, time_limits,
};
use crate::engine::rules::claim_voice::{
    cell_terms, in_label, list_title, table_cell_voice, under_skipped_lead, under_summary_title,
    whole_share,
};
use crate::engine::rules::kind::{Hit, RuleContext};
use crate::engine::rules::markdown::is_heading_line;
use crate::engine::rules::skip::Skipped;
use crate::model::SetAside;
use crate::model::text::{around, ceil_char_boundary, floor_char_boundary};

impl GroundingRule {
    pub(super) fn entities(
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
        // ("the new cap of 12 months") speaks of its proposal, not of the source. A value in
        // text a reader never sees (`<!-- [ADD: $2,500,000] -->`) drafts nothing.
        let drafted_values: std::collections::HashSet<(EntityKind, &str)> = all
            .iter()
            .filter(|e| !cx.prose().is_hidden(e.start, e.end))
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
            // Inside a quote, the quote checks speak for it.
            let quoted = inside_a_quote(cx, e);
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
            } else if let Some(why) = not_asserted(cx, e.start, e.end) {
                Some(why)
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
            } else if !names_own_vocabulary(cx, e)
                && !self.attributed(cx, e.start)
                && !time_limit(cx, e)
                && !states_the_source(cx, e.start, e.end)
                && !laid_out_as_the_sources(cx, e)
            {
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
/// (`entities::extract_in`), then capitalised terms used once after "the" (`names`), read by
/// the words around them (`term_runs`) or written in capitals (`caps_terms`), then people
/// named without an honorific (`names`, which needs the vocabulary of the output and the
/// source); each kept only where no earlier recogniser already read the words.
fn claims(cx: &RuleContext, source: &Source) -> Vec<entities::Entity> {
    let mut all = entities::extract_in(cx.text, cx.body);
    let lower = names::lower_words(&cx.text[cx.body.0..cx.body.1]);
    let common = |w: &str| names::starts_a_word(&lower, w) || source.has_lower_word(w);
    // Terms first: a run read as a term by the word before it ("the concept of Rollover
    // Allowance") is that term, not a person's name.
    let extra = names::terms_in(cx.text, cx.body)
        .into_iter()
        .chain(term_runs::terms_in(cx.text, cx.body))
        .chain(caps_terms::terms_in(cx.text, cx.body))
        .chain(cell_terms(cx.layout(), cx.text))
        .chain(names::people_in(cx.text, cx.body, &common));
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
    let (s, e) = cx.prose().sentence(cx.text, start);
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

/// A company, or a capitalised term used once without quotation marks ("tied to the
/// Holdback Amount"), named in the analysis is a claim that the source has it: the output has
/// no other source of such names. So is a quoted term used as the name of something ("carves
/// out \"Residual Know-How\"", "paid into the \"Deferred Consideration Pool\""), unless its
/// sentence discusses it as a word (`Ensure "Subsidiary" is defined`, `"Prompt" is vague`:
/// the lexicon's `term_discussion`). So is a percentage: a rate, share or discount the
/// analysis gives is the contract's (a figure the output works out itself is set aside before
/// this, as a change, a conversion or a whole share), except 100 % and 0 %, which the output
/// mostly uses for "all" and "none" ("Loss of 100% of recurring revenue"). Other facts need a
/// claim marker in their sentence.
fn names_own_vocabulary(cx: &RuleContext, e: &entities::Entity) -> bool {
    let text = cx.text;
    let quoted = text[..e.start]
        .trim_end_matches(['*', '_'])
        .ends_with(['"', '“', '\'', '‘']);
    let used_as_a_name = || {
        let (s, end) = cx.prose().sentence(text, e.start);
        let sentence = text.get(s.min(e.start)..end.max(e.end)).unwrap_or("");
        !lexicon::TERM_DISCUSSION.is_match(sentence)
    };
    e.kind == EntityKind::Organization
        || (e.kind == EntityKind::Percent && !matches!(e.normalized.as_str(), "100%" | "0%"))
        || (e.kind == EntityKind::DefinedTerm
            && (!quoted || the_before_quote(text, e.start) || used_as_a_name()))
}

/// Is the claim inside a quotation? A defined term may be quoted itself, so for it only a
/// quote opening before its own marks counts ("Example: \"Consultant retains all right … in
/// the Consultant Toolkit …\"").
fn inside_a_quote(cx: &RuleContext, e: &entities::Entity) -> bool {
    let before = cx.text[..e.start].trim_end_matches(['*', '_']);
    match before.chars().next_back() {
        Some(c @ ('"' | '“' | '\'' | '‘')) if e.kind == EntityKind::DefinedTerm => {
            let mark = before.len() - c.len_utf8();
            mark > 0 && cx.prose().is_quoted(mark - 1, e.end)
        }
        _ => cx.prose().is_quoted(e.start, e.end),
    }
}

/// Is a period or term laid out as the source's by where it stands: in a body cell of a
/// table (whose row so far and column head hold no proposal: `not_a_claim` read them
/// first), or in an item under a title summing up the source's terms ("Key dates:")? Amounts
/// in a table are as often the output's own worked figures ("Destruction fees (120,000
/// cards × $2) | $240,000"), so they still need a claim word.
fn laid_out_as_the_sources(cx: &RuleContext, e: &entities::Entity) -> bool {
    matches!(e.kind, EntityKind::Duration | EntityKind::DefinedTerm)
        && (table_cell_voice(cx.layout(), e.start).is_some()
            || under_summary_title(cx.layout(), cx.text, e.start))
}

/// A duration the sentence states as a time limit of the source ("The supplier must deliver
/// within 45 days"): a claim without a marker word (`time_limits`). A label's value
/// ("Survival: 5 yrs post-expiry") states the source's term, except in a list under a title
/// of the output's own that sums up no term of the source ("Open questions:").
fn time_limit(cx: &RuleContext, e: &entities::Entity) -> bool {
    let (s, end) = cx.prose().sentence(cx.text, e.start);
    let s = s.min(e.start);
    let labels = list_title(cx.layout(), cx.text, e.start)
        .is_none_or(|t| lexicon::SUMMARY_TITLE.is_match(t));
    e.kind == EntityKind::Duration
        && cx.text.get(s..end.max(e.end)).is_some_and(|sentence| {
            time_limits::states_time_limit(sentence, e.start - s, e.end - s, labels)
        })
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
    let (s, _) = cx.prose().sentence(cx.text, at);
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
