//! Capitalised terms used once without quotation marks, read by the word around them: after
//! "a", "its" or a possessive ("earns a Milestone Rebate", "Each party's Early Pay
//! Incentive"), after "the concept of", or as the subject opening a sentence ("Hardship Events
//! are calculated monthly"). A run followed by a noun it describes ("an Intellectual Property
//! Assignment clause") or ending in a document's word ("an Internet Channel Cooperation
//! Arrangement") is a description, not a term. The words are data (`term_runs.toml`).

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::entities::{Entity, EntityKind, words_key};
use super::names::{NOT_NAME, is_label, uses_outside_labels};
use super::words::tokens;
use crate::engine::ascii_regex;

const DATA: &str = include_str!("term_runs.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    before: Vec<String>,
    verbs_before: Vec<String>,
    before_pairs: Vec<String>,
    appositions: Vec<String>,
    short_name_parens: Vec<String>,
    subject_verbs: Vec<String>,
    modified_nouns: Vec<String>,
    document_heads: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    matches: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    not_matches: Vec<String>,
}

static WORDS: LazyLock<Words> =
    LazyLock::new(|| toml::from_str(DATA).expect("grounding/term_runs.toml is valid (tested)"));

/// Capitalised words (an inner hyphen allowed), "of"/"and" joining them, single spaces.
static RUN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?: (?:of |and )?[A-Z][a-z]+(?:-[A-Z][a-z]+)?)+",
    )
    .expect("term-run regex")
});

/// Sentence openers a run may start with; the term is the words after it.
const OPENERS: &[&str] = &["A", "An", "Its", "Their"];

/// Terms in `text[range]` read by the words around them, whole-text offsets.
pub fn terms_in(text: &str, range: (usize, usize)) -> Vec<Entity> {
    let Some(hay) = text.get(range.0..range.1) else {
        return Vec::new();
    };
    let w = &*WORDS;
    let has = |list: &[String], t: &str| list.iter().any(|x| x == t);
    let mut out = Vec::new();
    for m in RUN.find_iter(hay) {
        let (mut s, e) = (m.start(), m.end());
        let mut opener = None;
        if let Some((first, rest)) = m.as_str().split_once(' ')
            && OPENERS.contains(&first)
        {
            opener = Some(first.to_ascii_lowercase());
            s = e - rest.len();
        }
        // A run the output gives a short name in parentheses ("the Joint Steering Board (the
        // \"JSB\")") is the long name of a term, also with words that are no person's name
        // ("Board"); a sentence's opening word before it is not part of it.
        let short_named = has_short_name(&hay[e..], &w.short_name_parens);
        if short_named {
            while let Some((first, rest)) = hay[s..e].split_once(' ')
                && NOT_NAME.contains(&first)
            {
                s = e - rest.len();
            }
            // The end of a longer name ("the Consumer Price Index for All Urban Consumers
            // (\"CPI-U\")"), not a name of its own.
            if continues_a_name(&hay[..s]) {
                continue;
            }
        }
        let term = &hay[s..e];
        let words: Vec<&str> = term
            .split([' ', '-'])
            .filter(|x| !matches!(*x, "of" | "and"))
            .collect();
        if !(2..=4).contains(&words.len())
            || (!short_named && term.split(' ').any(|x| NOT_NAME.contains(&x)))
            || has(&w.document_heads, term.rsplit(' ').next().unwrap_or(""))
        {
            continue;
        }
        let after = hay[e..].trim_start_matches(['*', '_']);
        let next = tokens(after).next().filter(|t| t.1 <= 1).map(|t| t.0);
        if next.as_deref().is_some_and(|n| has(&w.modified_nouns, n)) {
            continue;
        }
        let before = hay[..m.start()].trim_end_matches(['*', '_', ' ']);
        let prev: Vec<String> = {
            let from = before.len().saturating_sub(40);
            let from = (from..=before.len())
                .find(|&i| before.is_char_boundary(i))
                .unwrap_or(before.len());
            tokens(&before[from..]).map(|t| t.0).collect()
        };
        // A plural possessive ("the Founders' Retained Rights") reads as "party's" does.
        let plural_possessive = before.ends_with("s'") || before.ends_with("s’");
        let prev_word = opener.clone().or_else(|| {
            let glued = before.ends_with(char::is_alphanumeric);
            glued
                .then(|| prev.last().cloned())
                .flatten()
                .or_else(|| plural_possessive.then(|| "s".to_string()))
        });
        let pair = prev
            .len()
            .checked_sub(2)
            .map(|i| format!("{} {}", prev[i], prev[i + 1]));
        let by_word = short_named
            || prev_word.as_deref().is_some_and(|p| has(&w.before, p))
            || (prev_word
                .as_deref()
                .is_some_and(|p| has(&w.verbs_before, p))
                && !term.contains(" and "))
            || pair.as_deref().is_some_and(|p| has(&w.before_pairs, p))
            || called_a_term(after, &w.appositions);
        // A subject whose last word the output also uses alone ("Ensures Company has",
        // "Initial Term is", "Whether Consultant can") is a word before a party or term the
        // output names anyway, not a term of its own.
        let subject = opener.is_none()
            && opens_clause(before)
            && next.as_deref().is_some_and(|n| has(&w.subject_verbs, n));
        // The checks that read the whole text last, for the few runs the words around them
        // make a candidate.
        if (by_word || (subject && !used_alone(hay, term.rsplit(' ').next().unwrap_or(""))))
            && uses_outside_labels(hay, term) == 1
            // The output writes the same words in lower case elsewhere ("Initial Term is …
            // during the initial term"): an ordinary phrase capitalised, not a name.
            && !hay.contains(&term.to_lowercase())
            && !is_label(hay, s, e)
        {
            out.push(Entity {
                kind: EntityKind::DefinedTerm,
                start: range.0 + s,
                end: range.0 + e,
                text: term.to_string(),
                normalized: words_key(term),
            });
        }
    }
    out
}

/// A table cell whose whole text, markup and quotation marks aside, is a run of two to four
/// capitalised words that is no document's name ("Tiered Rebate Threshold", not "Master
/// Services Agreement" or "Section Nine"): the term it names, whole-text offsets.
pub fn cell_term(text: &str, (s, e): (usize, usize)) -> Option<Entity> {
    let cell = text.get(s..e)?;
    let marks = |c: char| c.is_whitespace() || matches!(c, '*' | '_');
    let inner = cell.trim_matches(marks);
    if inner.starts_with(['"', '“', '\'', '‘']) {
        // A quoted term is read by the quoted-term recogniser.
        return None;
    }
    let m = RUN
        .find(inner)
        .filter(|m| m.start() == 0 && m.end() == inner.len())?;
    let term = m.as_str();
    let words = term
        .split([' ', '-'])
        .filter(|x| !matches!(*x, "of" | "and"))
        .count();
    if !(2..=4).contains(&words)
        || term.split(' ').any(|x| NOT_NAME.contains(&x))
        || WORDS
            .document_heads
            .iter()
            .any(|h| h == term.rsplit(' ').next().unwrap_or(""))
    {
        return None;
    }
    let start = s + (cell.len() - cell.trim_start_matches(marks).len());
    Some(Entity {
        kind: EntityKind::DefinedTerm,
        start,
        end: start + term.len(),
        text: term.to_string(),
        normalized: words_key(term),
    })
}

/// Does a capitalised run starting after `before` continue a name written before it: a
/// capitalised word right before it other than a sentence's opening word ("for All Urban
/// Consumers"), or a capitalised word and a joining word ("Index for Urban Consumers")?
fn continues_a_name(before: &str) -> bool {
    const OPENERS: &[&str] = &[
        "The", "This", "That", "Its", "Their", "Our", "Your", "Under",
    ];
    let words: Vec<&str> = before
        .split_whitespace()
        .rev()
        .take(2)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    let capital = |w: &str| w.starts_with(|c: char| c.is_uppercase());
    match words.as_slice() {
        [w, ..] if capital(w) && !OPENERS.contains(w) => true,
        [j, w] => matches!(*j, "for" | "of" | "on" | "in" | "to" | "and" | "de") && capital(w),
        _ => false,
    }
}

/// Does the text right after a run give it a short name in parentheses (` (the "JSB")`)?
fn has_short_name(after: &str, parens: &[String]) -> bool {
    let after = after.trim_start_matches(['*', '_']);
    parens.iter().any(|p| {
        after
            .strip_prefix(p.as_str())
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase()))
    })
}

/// Does the text after a run call it a term, past a comma or an opening parenthesis
/// (", a defined term", "(as defined in the Agreement)")?
fn called_a_term(after: &str, appositions: &[String]) -> bool {
    let rest = after.trim_start_matches([',', '(', ' ']);
    (rest.len() < after.len())
        && appositions.iter().any(|a| {
            rest.get(..a.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(a))
                && !rest[a.len()..].starts_with(char::is_alphanumeric)
        })
}

/// Does `hay` use the capitalised word `w` without a name's word right before it ("the
/// Company", "The Company", "Consultant shall")?
fn used_alone(hay: &str, w: &str) -> bool {
    hay.match_indices(w).any(|(i, _)| {
        let before = &hay[..i];
        let after = &hay[i + w.len()..];
        let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-');
        if glued(before.chars().next_back()) || glued(after.chars().next()) {
            return false;
        }
        let prev = before.trim_end_matches([' ', '*', '_']);
        !prev
            .rsplit([' ', '\n', '(', '"', '“'])
            .next()
            .is_some_and(|p| p.starts_with(char::is_uppercase) && !NOT_NAME.contains(&p))
    })
}

/// Does the run after `before` open its sentence (after list markers, a label, emphasis), or
/// follow a short opening phrase and a comma ("Under this structure, …")?
fn opens_clause(before: &str) -> bool {
    let cut = before
        .rfind(['.', '!', '?', ':', '\n'])
        .map_or(0, |i| i + 1);
    let lead = before[cut..].trim_start_matches(|c: char| {
        c.is_whitespace()
            || c.is_ascii_digit()
            || matches!(c, '#' | '*' | '_' | '-' | '+' | '>' | '•' | ')' | '(')
    });
    lead.is_empty()
        || lead
            .strip_suffix(',')
            .is_some_and(|p| !p.contains(',') && tokens(p).count() <= 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_examples_hold_both_ways() {
        for s in &WORDS.matches {
            assert!(
                !terms_in(s, (0, s.len())).is_empty(),
                "should read a term: {s}"
            );
        }
        for s in &WORDS.not_matches {
            let got = terms_in(s, (0, s.len()));
            assert!(got.is_empty(), "should read no term: {s}: {got:?}");
        }
    }
}
