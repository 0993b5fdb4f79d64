//! A duration stated as a time limit of the source without a claim marker word ("The supplier
//! must deliver within 45 days", "The customer gets 72 hours to report"): a subject, a
//! statement verb, and within a few words the duration, framed as a limit. The words are data
//! (`time_limits.toml`) with examples run both ways below.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::words::tokens;
use crate::engine::ascii_regex;

const DATA: &str = include_str!("time_limits.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    verbs: Vec<String>,
    before: Vec<String>,
    after: Vec<String>,
    subject_stops: Vec<String>,
    sentence_stops: Vec<String>,
    adverbs: Vec<String>,
    max_gap: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    matches: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    not_matches: Vec<String>,
}

/// A line opening with an enumerator: "(b) ", "  ii) ", "- (c) ".
static ENUMERATOR: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?m)^[ \t]*(?:[-*+][ \t]+)?\(?[a-z0-9]{1,4}\)[ \t]+")
        .expect("enumerator regex")
});

static WORDS: LazyLock<Words> =
    LazyLock::new(|| toml::from_str(DATA).expect("grounding/time_limits.toml is valid (tested)"));

/// Is the duration at `sentence[start..end]` stated as a time limit of the source? With
/// `labels`, a label before a colon may stand for the subject.
pub fn states_time_limit(sentence: &str, start: usize, end: usize, labels: bool) -> bool {
    let w = &*WORDS;
    let has = |list: &[String], t: &str| list.iter().any(|x| x == t);
    // A bold label closed before a dash ("**Audit notice** – only 4 business days") is read
    // as one closed by a colon (the same length, so offsets hold).
    let dashed = ["** \u{2013} ", "** \u{2014} "].iter().fold(
        std::borrow::Cow::Borrowed(sentence),
        |s, d| {
            if s.contains(d) {
                s.replace(d, "**:    ").into()
            } else {
                s
            }
        },
    );
    let sentence = dashed.as_ref();
    // A clause after a colon or semicolon is read on its own ("The audit clause is onerous:
    // records must be kept for seven years"); what comes before a colon may be a label
    // naming the provision ("**Non-solicitation of staff:** limited to two months").
    let cut = sentence[..start].rfind([':', ';']).map_or(0, |i| i + 1);
    // An enumerated item opening a line ("(b) The 45-day payment window runs …") starts a
    // sentence of its own, also when the item before it ends without a full stop.
    let cut = ENUMERATOR
        .find_iter(&sentence[..start])
        .last()
        .map_or(cut, |m| cut.max(m.end()));
    let label = (labels && cut > 0 && colon_label(sentence, cut))
        .then(|| &sentence[..cut - 1])
        // A label names a provision; a clause with a verb before the colon is a sentence,
        // and a capitalised sentence after the colon has its own subject ("**Frequency and
        // Notice**: Limits audits to once per calendar year with 30 days' notice").
        .filter(|l| !tokens(l).any(|t| has(&w.verbs, &t.0)))
        .filter(|_| {
            let rest = sentence[cut..start].trim_start_matches(|c: char| !c.is_alphanumeric());
            !rest.starts_with(char::is_uppercase)
        });
    let toks: Vec<(String, usize, usize)> = tokens(sentence).filter(|t| t.1 >= cut).collect();
    let Some(first) = toks.iter().position(|t| t.1 >= start) else {
        return false;
    };
    let last = toks
        .iter()
        .rposition(|t| t.2 <= end)
        .unwrap_or(first)
        .max(first);
    // A condition or example before the duration makes it hypothetical ("If the buyer pays
    // late, …"); one after it is the source's condition ("… within 25 days, but only if no
    // claim is pending").
    if tokens(&sentence[..start]).any(|t| has(&w.sentence_stops, &t.0)) {
        return false;
    }
    // Adverbs between a limit's word and the duration ("lasts only half a year").
    let mut b = first;
    while b > 0 && has(&w.adverbs, &toks[b - 1].0) {
        b -= 1;
    }
    // A limit's word right after the duration or one word later ("a 70-day negotiation
    // period").
    let framed = (b > 0 && has(&w.before, &toks[b - 1].0))
        || toks
            .iter()
            .skip(last + 1)
            .take(2)
            .any(|t| has(&w.after, &t.0));
    // The duration as the subject, after an opening article ("A 14-month exclusivity period
    // follows launch", "The six-month exclusivity period only starts …"): a period named by
    // the after-words, then a statement verb past any adverb.
    let opens = first == 1 && matches!(toks[0].0.as_str(), "a" | "an" | "the");
    if opens
        && let Some(k) = (last + 1..(last + 3).min(toks.len())).find(|&k| has(&w.after, &toks[k].0))
    {
        return toks
            .iter()
            .skip(k + 1)
            .find(|t| !has(&w.adverbs, &t.0))
            .is_some_and(|t| has(&w.verbs, &t.0));
    }
    // After a label naming the provision, the label is the subject: a framed duration, or
    // the duration as the label's whole value ("**Termination Without Cause: 120 days**").
    if let Some(l) = label {
        let stated = toks[..first].iter().all(|t| has(&w.adverbs, &t.0));
        return (framed || stated)
            && !tokens(l)
                .chain(toks[..first].iter().cloned())
                .any(|t| has(&w.subject_stops, &t.0));
    }
    // The first statement verb before the duration, with a subject before it that is not the
    // output's own voice, and the duration close after it.
    let Some(verb) = toks[..first].iter().position(|t| has(&w.verbs, &t.0)) else {
        return false;
    };
    framed
        && verb > 0
        && first - verb <= w.max_gap
        && !toks[..verb].iter().any(|t| has(&w.subject_stops, &t.0))
}

/// Is the text before the colon ending at `cut` (list markers and emphasis aside) a label of
/// one to six words with no sentence break in it ("- **Non-solicitation of staff:**", "1.
/// **Cure period:**", "**Termination Without Cause:")?
fn colon_label(text: &str, cut: usize) -> bool {
    let head = text[..cut - 1].trim_start_matches(|c: char| {
        c.is_whitespace()
            || c.is_ascii_digit()
            || matches!(c, '#' | '*' | '_' | '-' | '+' | '>' | '•' | '.' | ')' | '(')
    });
    let n = tokens(head).count();
    text[cut - 1..].starts_with(':')
        && !head.contains(['.', '!', '?', ';', ':'])
        && (1..=6).contains(&n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grounding::entities::{EntityKind, extract};

    /// The first duration of `s`, by the entity recogniser the rule runs after.
    fn limit(s: &str) -> bool {
        let d = extract(s)
            .into_iter()
            .find(|e| e.kind == EntityKind::Duration)
            .unwrap_or_else(|| panic!("no duration in {s}"));
        states_time_limit(s, d.start, d.end, true)
    }

    #[test]
    fn the_data_examples_hold_both_ways() {
        for s in &WORDS.matches {
            assert!(limit(s), "should be a time limit: {s}");
        }
        for s in &WORDS.not_matches {
            assert!(!limit(s), "should not be a time limit: {s}");
        }
    }
}
