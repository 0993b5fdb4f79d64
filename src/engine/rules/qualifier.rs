//! `qualifier_window`: a certainty term is a hit unless a qualifier stands within
//! `window_words` words of it in the same sentence ("is compliant" vs "is likely compliant").

use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome, Seg};
use super::markdown::ProseMap;
use super::regexes::compile_all;
use super::skip::{SkipRules, compile_skips};
use crate::model::Verdict;
use crate::model::text::{ceil_char_boundary, floor_char_boundary};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    terms: Vec<String>,
    qualifiers: Vec<String>,
    #[serde(default = "default_window")]
    window_words: usize,
    #[serde(default = "super::kind::yes")]
    skip_quoted: bool,
    /// Skip hits whose sentence matches one of these (drafted clause language: "shall").
    #[serde(default)]
    skip_sentences: Vec<String>,
    /// Skip sections whose heading, and lines whose leading `Label:` or `[TAG]`, matches one
    /// of these (e.g. "Suggested Revision", "[ADD]").
    #[serde(default)]
    skip_sections: Vec<String>,
}

fn default_window() -> usize {
    12
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    let terms = compile_all("terms", &p.terms)?;
    let quals = compile_all("qualifiers", &p.qualifiers)?;
    if p.window_words == 0 {
        return Err(RuleError::at(
            vec![Seg::key("window_words")],
            "`window_words` must be at least 1",
        ));
    }
    let skips = compile_skips(&p.skip_sentences, &p.skip_sections)?;
    let mut rule =
        QualifierRule::new(terms, quals, p.window_words, p.skip_quoted).with_skips(skips);
    rule.counts = (p.terms.len(), p.qualifiers.len());
    Ok(Arc::new(rule))
}

impl CompiledRule for QualifierRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        Some(QualifierRule::apply(self, cx.text, cx.body, cx.prose()))
    }

    fn describe(&self) -> String {
        format!(
            "{} certainty pattern(s) are flagged unless one of {} qualifier pattern(s) stands within {} words in the same sentence. Quoted text is skipped.",
            self.counts.0, self.counts.1, self.window_words
        )
    }
}

#[derive(Debug, Clone)]
pub struct QualifierRule {
    terms: Option<Regex>,
    qualifiers: Option<Regex>,
    window_words: usize,
    skip_quoted: bool,
    skips: SkipRules,
    /// Term and qualifier pattern counts, for the documentation page.
    counts: (usize, usize),
}

impl QualifierRule {
    pub fn new(
        terms: Option<Regex>,
        qualifiers: Option<Regex>,
        window_words: usize,
        skip_quoted: bool,
    ) -> Self {
        QualifierRule {
            terms,
            qualifiers,
            window_words,
            skip_quoted,
            skips: SkipRules::default(),
            counts: (0, 0),
        }
    }

    /// Also skip drafted clause language (see `skip`).
    pub fn with_skips(mut self, skips: SkipRules) -> Self {
        self.skips = skips;
        self
    }

    pub fn apply(&self, text: &str, body: (usize, usize), prose: &ProseMap) -> RuleOutcome {
        let Some(terms) = &self.terms else {
            return RuleOutcome {
                code: None,
                verdict: Verdict::Pass,
                hits: vec![],
                hits_are_problems: true,
                notes: "No terms to check.".into(),
                grounding: None,
            };
        };
        let skipped = self.skips.prepare(text, prose);
        let mut hits = Vec::new();
        let mut qualified = 0usize;
        // Every qualifier in the body, found in one pass on the first hit: a hit whose window
        // meets none of them is unqualified without searching its window (most hits, and
        // the only cost that grew with the number of hits).
        let mut qualifier_spans: Option<Vec<(usize, usize)>> = None;
        for m in terms.find_iter(&text[body.0..body.1]) {
            let (start, end) = (body.0 + m.start(), body.0 + m.end());
            if self.skip_quoted && prose.is_quoted(start, end) {
                continue;
            }
            if !self.skips.is_empty() && skipped.covers(start, end) {
                continue;
            }
            let spans = qualifier_spans.get_or_insert_with(|| self.qualifier_spans(text, body));
            if self.is_qualified(text, prose, spans, start, end) {
                qualified += 1;
                continue;
            }
            hits.push(Hit {
                source: None,
                start,
                end,
                note: format!("“{}” without a qualifier nearby", &text[start..end]),
            });
        }
        let n = hits.len();
        let notes = if n == 0 {
            format!("No unqualified certainty language found ({qualified} qualified use(s)).")
        } else {
            format!("{n} unqualified certainty term(s); {qualified} qualified use(s).")
        };
        let verdict = if n == 0 { Verdict::Pass } else { Verdict::Fail };
        RuleOutcome {
            code: None,
            verdict,
            hits,
            hits_are_problems: true,
            notes,
            grounding: None,
        }
    }

    fn qualifier_spans(&self, text: &str, body: (usize, usize)) -> Vec<(usize, usize)> {
        let Some(quals) = &self.qualifiers else {
            return Vec::new();
        };
        quals
            .find_iter(&text[body.0..body.1])
            .map(|m| (body.0 + m.start(), body.0 + m.end()))
            .collect()
    }

    fn is_qualified(
        &self,
        text: &str,
        prose: &ProseMap,
        spans: &[(usize, usize)],
        start: usize,
        end: usize,
    ) -> bool {
        let Some(quals) = &self.qualifiers else {
            return false;
        };
        let (s_lo, s_hi) = prose.sentence(text, start);
        let n = self.window_words;
        // A "word" longer than MAX_WORD_BYTES (a line without white space) counts as that
        // long: the window stays bounded, so each hit costs O(window), not O(sentence).
        let reach = n.saturating_mul(MAX_WORD_BYTES);
        let lo = prose
            .words_before(text, s_lo, start, n)
            .max(floor_char_boundary(text, start.saturating_sub(reach)));
        let hi = prose
            .words_after(text, end, s_hi.max(end), n)
            .min(ceil_char_boundary(text, end.saturating_add(reach)))
            .max(end);
        // No qualifier of the whole body meets the window: nothing to search for.
        let first_ending_after_lo = spans.partition_point(|&(_, e)| e <= lo);
        if spans
            .get(first_ending_after_lo)
            .is_none_or(|&(s, _)| s >= hi)
        {
            return false;
        }
        quals.find_iter(&text[lo..hi]).any(|q| {
            let qs = lo + q.start();
            // The term itself is not its own qualifier, but one that starts before it and runs
            // into it does ("can be" before "be enforceable").
            qs < start || qs >= end
        })
    }
}

/// The most bytes one word counts for in a qualifier window.
const MAX_WORD_BYTES: usize = 64;

/// Byte offset `n` words before `pos`, not before `floor` (the reference scan the
/// precomputed [`ProseMap::words_before`] is tested against).
#[cfg(test)]
fn window_start(text: &str, floor: usize, pos: usize, n: usize) -> usize {
    let before = &text[floor..pos];
    let mut words = 0;
    let mut in_word = false;
    for (i, ch) in before.char_indices().rev() {
        if ch.is_whitespace() {
            if in_word {
                words += 1;
                if words >= n {
                    return floor + i;
                }
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    floor
}

/// Byte offset `n` words after `pos`, not after `ceil` (reference for
/// [`ProseMap::words_after`]).
#[cfg(test)]
fn window_end(text: &str, pos: usize, ceil: usize, n: usize) -> usize {
    let after = &text[pos..ceil];
    let mut words = 0;
    let mut in_word = false;
    for (i, ch) in after.char_indices() {
        if ch.is_whitespace() {
            if in_word {
                words += 1;
                if words >= n {
                    return pos + i;
                }
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    ceil
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(window: usize) -> QualifierRule {
        QualifierRule::new(
            Some(Regex::new(r"(?i)\b(?:is|are) (?:fully )?(?:compliant|legal|enforceable)\b|\bguarantee[sd]?\b").unwrap()),
            Some(Regex::new(r"(?i)\b(?:likely|may|generally|subject to|assuming|based on)\b").unwrap()),
            window,
            true,
        )
    }

    fn hits(t: &str, window: usize) -> Vec<String> {
        let p = ProseMap::new(t, (0, t.len()));
        rule(window)
            .apply(t, (0, t.len()), &p)
            .hits
            .iter()
            .map(|h| t[h.start..h.end].to_string())
            .collect()
    }

    #[test]
    fn unqualified_term_is_a_hit() {
        assert_eq!(hits("The clause is enforceable.", 12), ["is enforceable"]);
    }

    #[test]
    fn qualifier_before_or_after_in_the_same_sentence_clears_it() {
        assert!(hits("Based on Delaware law, the clause is enforceable.", 12).is_empty());
        assert!(hits("The clause is enforceable, subject to local review.", 12).is_empty());
    }

    #[test]
    fn qualifier_in_another_sentence_does_not_count() {
        assert_eq!(
            hits("This may vary. The clause is enforceable.", 12),
            ["is enforceable"]
        );
    }

    #[test]
    fn qualifier_outside_the_window_does_not_count() {
        let t = "Generally one two three four five six seven eight nine ten eleven twelve thirteen the clause is legal.";
        assert_eq!(hits(t, 5), ["is legal"]);
        assert!(hits(t, 20).is_empty());
    }

    #[test]
    fn qualifier_running_into_the_term_counts() {
        let mut r = rule(12);
        r.qualifiers = Some(Regex::new(r"(?i)\bcan be\b").unwrap());
        r.terms = Some(Regex::new(r"(?i)\bbe enforceable\b").unwrap());
        let t = "A non-compete can be enforceable.";
        let p = ProseMap::new(t, (0, t.len()));
        assert!(r.apply(t, (0, t.len()), &p).hits.is_empty());
        let t = "A non-compete will be enforceable.";
        let p = ProseMap::new(t, (0, t.len()));
        assert_eq!(r.apply(t, (0, t.len()), &p).hits.len(), 1);
    }

    #[test]
    fn quoted_contract_text_is_skipped() {
        assert!(
            hits(
                "Section 4 reads \"Vendor guarantees uptime\" which is one-sided.",
                12
            )
            .is_empty()
        );
    }

    use crate::engine::document::layout::split_sentences;

    #[test]
    fn indexed_word_windows_equal_the_scan() {
        let texts = [
            "Generally one two  three\tfour five six seven eight nine ten eleven twelve",
            "  lead é😀 word\n\nnext   line — with «quotes» end ",
            "nowhitespaceatall",
            "",
        ];
        for t in texts {
            let m = ProseMap::new(t, (0, t.len()));
            let cuts: Vec<usize> = (0..=t.len()).filter(|&p| t.is_char_boundary(p)).collect();
            for &floor in &cuts {
                for &pos in cuts.iter().filter(|&&p| p >= floor) {
                    for n in 1..5 {
                        assert_eq!(
                            m.words_before(t, floor, pos, n),
                            window_start(t, floor, pos, n),
                            "{t:?} before {pos} floor {floor} n {n}"
                        );
                        assert_eq!(
                            m.words_after(t, floor, pos, n),
                            window_end(t, floor, pos, n),
                            "{t:?} after {floor} ceil {pos} n {n}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn one_long_sentence_keeps_every_hit_and_qualifier() {
        // 2 000 hits in one sentence; every 10th clause qualified.
        let mut t = String::new();
        for i in 0..2000 {
            if i % 10 == 0 {
                t.push_str("it may be that ");
            }
            t.push_str("the clause is enforceable, ");
        }
        // The reference: the scans the index replaced, hit by hit.
        let r = rule(3);
        let (terms, quals) = (r.terms.as_ref().unwrap(), r.qualifiers.as_ref().unwrap());
        let expected = terms
            .find_iter(&t)
            .filter(|m| {
                let (lo, hi) = *split_sentences(&t, (0, t.len()))
                    .iter()
                    .find(|&&(s, e)| s <= m.start() && m.start() <= e)
                    .unwrap();
                let a = window_start(&t, lo, m.start(), 3);
                let b = window_end(&t, m.end(), hi, 3);
                !quals.is_match(&t[a..b])
            })
            .count();
        let n = hits(&t, 3).len();
        assert!(n > 1000 && n < 2000, "{n}");
        assert_eq!(n, expected);
    }
}
