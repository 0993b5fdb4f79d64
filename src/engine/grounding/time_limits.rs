//! A duration stated as a time limit of the source without a claim marker word ("The supplier
//! must deliver within 45 days", "The customer gets 72 hours to report"): a subject, a
//! statement verb, and within a few words the duration, framed as a limit. The words are data
//! (`time_limits.toml`) with examples run both ways below.

use std::sync::LazyLock;

use serde::Deserialize;

use super::words::tokens;

const DATA: &str = include_str!("time_limits.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    verbs: Vec<String>,
    before: Vec<String>,
    after: Vec<String>,
    subject_stops: Vec<String>,
    sentence_stops: Vec<String>,
    max_gap: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    matches: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    not_matches: Vec<String>,
}

static WORDS: LazyLock<Words> =
    LazyLock::new(|| toml::from_str(DATA).expect("grounding/time_limits.toml is valid (tested)"));

/// Is the duration at `sentence[start..end]` stated as a time limit of the source?
pub fn states_time_limit(sentence: &str, start: usize, end: usize) -> bool {
    let w = &*WORDS;
    let has = |list: &[String], t: &str| list.iter().any(|x| x == t);
    let toks: Vec<(String, usize, usize)> = tokens(sentence).collect();
    let Some(first) = toks.iter().position(|t| t.1 >= start) else {
        return false;
    };
    let last = toks
        .iter()
        .rposition(|t| t.2 <= end)
        .unwrap_or(first)
        .max(first);
    if toks.iter().any(|t| has(&w.sentence_stops, &t.0)) {
        return false;
    }
    // A limit's word right after the duration or one word later ("a 70-day negotiation
    // period").
    let framed = (first > 0 && has(&w.before, &toks[first - 1].0))
        || toks
            .iter()
            .skip(last + 1)
            .take(2)
            .any(|t| has(&w.after, &t.0));
    // The duration as the subject, after an opening article ("A 14-month exclusivity period
    // follows launch"): a period named by the after-words, then a statement verb.
    let opens = first == 1 && matches!(toks[0].0.as_str(), "a" | "an" | "the");
    if opens
        && let Some(k) = (last + 1..(last + 3).min(toks.len())).find(|&k| has(&w.after, &toks[k].0))
    {
        return toks.get(k + 1).is_some_and(|t| has(&w.verbs, &t.0));
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
        states_time_limit(s, d.start, d.end)
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
