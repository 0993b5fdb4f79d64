//! `references_grounded`: sections, clauses, exhibits the output says the source has.

use super::{GroundingRule, Tally, not_asserted, states_the_source};
use crate::engine::document::layout::{BlockKind, clause_number, only_decoration};
use crate::engine::grounding::drafted::Drafted;
use crate::engine::grounding::{RefKind, Source, references};
use crate::engine::rules::claim_voice::under_analysis_label;
use crate::engine::rules::kind::{Hit, RuleContext};
use crate::engine::rules::markdown::is_heading_line;
use crate::engine::rules::skip::Skipped;
use crate::model::{ClaimKind, SetAside};

impl GroundingRule {
    pub(super) fn references(
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
        // So is one in a paragraph the output labels as its comment ("**Risk:** Under clause
        // 49, …"), even where the drafted text around it runs on.
        let stated = |(s, e): (usize, usize)| {
            states_the_source(cx, s, e) || under_analysis_label(cx.layout(), cx.text, s)
        };
        let own: std::collections::HashSet<(RefKind, String)> = all
            .iter()
            .filter(|r| {
                ((starts_line(cx.text, r.start)
                    && titles_line(cx.text, r)
                    && !in_table_cell(cx, r.start))
                    || references::introduced(cx.text, r))
                    && !stated((r.start, r.end))
                    && !cx.prose().is_hidden(r.start, r.end)
            })
            .map(|r| (r.kind, r.label.clone()))
            .chain(
                own_numbering(cx)
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
            } else if let Some(why) = not_asserted(cx, r.start, r.end) {
                Some(why)
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
                    || drafted.introduces_where(r.kind, &r.label, |at| {
                        !stated(at) && !cx.prose().is_hidden(at.0, at.1)
                    }))
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

/// Is `at` the first word of its line (after list markers, emphasis, `#`, a table cell's
/// bar, `[ADD]`)?
fn starts_line(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    only_decoration(&text[line_start..at])
}

/// Is `at` in a table cell? A reference opening a cell ("| Section 14.7 | Caps liability at
/// … |") names the contract's part the row is about; the output's own numbering of its rows
/// is an item number ("1", "Risk 1"), never a section reference.
fn in_table_cell(cx: &RuleContext, at: usize) -> bool {
    cx.layout()
        .within(at, |k| matches!(k, BlockKind::TableCell { .. }))
}

/// Numbers that start lines of the output ("8.7 Limitation of Liability", "**5.3** …"),
/// not in text a reader never sees (an HTML comment holding "41.3 x" numbers nothing).
fn own_numbering(cx: &RuleContext) -> Vec<String> {
    let (text, body) = (cx.text, cx.body);
    let mut at = body.0;
    let mut out = Vec::new();
    for line in text[body.0..body.1].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        if let Some(n) = clause_number(line)
            && !cx.prose().is_hidden(start, start + line.len())
        {
            out.push(n.to_string());
        }
    }
    out
}
