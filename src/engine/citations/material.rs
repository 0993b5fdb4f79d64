//! Whether a misquote's change alters what the contract says: a different figure, date,
//! obligation or negation (`material.toml`), not a slip of wording. Such a misquote is
//! reported with the quotes not in the source, at high severity: "shall not be liable"
//! quoted as "shall be liable", or "60 days" as "600 days", is a statement the contract does
//! not make.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use serde::Deserialize;

use super::misquote::{Change, ChangeKind};

#[derive(Deserialize)]
struct Words {
    number_words: Vec<String>,
    months: Vec<String>,
    negations: Vec<String>,
    modals: Vec<String>,
    #[allow(dead_code)]
    examples: Vec<Example>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Example {
    source: String,
    quoted: String,
    alters: bool,
}

static WORDS: LazyLock<Words> = LazyLock::new(|| {
    toml::from_str(include_str!("material.toml"))
        .expect("citations/material.toml is valid (tested)")
});

/// What one side of a change says that matters: its numbers (digits as written, without
/// thousands separators; number words as their words), months, negations and the kind of
/// each modal (obligation, permission, or another).
#[derive(Default, PartialEq, Eq)]
struct Said {
    numbers: BTreeSet<String>,
    months: BTreeSet<String>,
    negations: usize,
    modals: BTreeSet<&'static str>,
}

fn said(text: &str) -> Said {
    let w = &*WORDS;
    let mut out = Said::default();
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == ',' || c == '.' || c == '\'')) {
        let token = token.trim_matches([',', '.', '\'']);
        if token.is_empty() {
            continue;
        }
        if token.chars().any(|c| c.is_ascii_digit()) {
            out.numbers.insert(token.replace(',', ""));
            continue;
        }
        let lower = token.to_lowercase();
        let lower = lower.strip_suffix("n't").map_or(lower.as_str(), |_| "not");
        if w.number_words.iter().any(|n| n == lower) {
            out.numbers.insert(number_value(lower));
        } else if token.starts_with(char::is_uppercase) && w.months.iter().any(|m| m == lower) {
            out.months.insert(lower.to_string());
        } else if w.negations.iter().any(|n| n == lower) {
            out.negations += 1;
        } else if w.modals.iter().any(|m| m == lower) {
            out.modals.insert(modal_kind(lower));
        }
    }
    out
}

/// "ten" and "10" are one number: the list's first 21 words are zero to twenty in order.
fn number_value(word: &str) -> String {
    match WORDS.number_words.iter().position(|n| n == word) {
        Some(i) if i <= 20 => i.to_string(),
        _ => word.to_string(),
    }
}

/// Modals of one kind say the same in a contract: "shall", "must" and "will" oblige; "may",
/// "can", "could" and "might" permit.
fn modal_kind(modal: &str) -> &'static str {
    match modal {
        "shall" | "must" | "will" => "obliges",
        "may" | "can" | "could" | "might" => "permits",
        "should" => "advises",
        _ => "conditional",
    }
}

impl Change {
    /// Whether the change makes the quote say another figure, date, obligation or negation:
    /// the two sides' negations differ ("not" left out or added), or both sides have modals of
    /// different kinds ("may" for "shall"; "to" for "will" or a modal left out is wording);
    /// or, for words added or swapped, the numbers (neither side's a part of the other's: "ten
    /// (10)" for "10" is the same number) or the months differ. Leaving a number out asserts no other one.
    ///
    /// `preceding` is the source's text just before the passage: a negation the quote adds
    /// that the source has right there ("is not due to a breach" quoted as "no breach") is
    /// the source's own.
    pub fn alters_meaning(&self, preceding: &str) -> bool {
        let (s, q) = (said(&self.source), said(&self.quoted));
        let modals_swapped = !s.modals.is_empty() && !q.modals.is_empty() && s.modals != q.modals;
        let negation_added = q.negations > s.negations + said(preceding).negations;
        if q.negations < s.negations || negation_added || modals_swapped {
            return true;
        }
        self.kind != ChangeKind::Omission
            && ((!q.numbers.is_empty()
                && !q.numbers.is_subset(&s.numbers)
                && !s.numbers.is_subset(&q.numbers))
                || (!q.numbers.is_empty() && s.numbers.is_empty())
                || (!q.months.is_empty() && q.months != s.months))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_alter_the_meaning_as_stated() {
        for e in &WORDS.examples {
            let kind = match (e.source.is_empty(), e.quoted.is_empty()) {
                (false, true) => ChangeKind::Omission,
                (true, false) => ChangeKind::Insertion,
                _ => ChangeKind::Substitution,
            };
            let c = Change {
                kind,
                source: e.source.clone(),
                quoted: e.quoted.clone(),
            };
            assert_eq!(
                c.alters_meaning(""),
                e.alters,
                "{} → {}",
                e.source,
                e.quoted
            );
        }
    }

    #[test]
    fn a_negation_the_source_has_just_before_the_passage_is_its_own() {
        let c = Change {
            kind: ChangeKind::Substitution,
            source: "a".into(),
            quoted: "no".into(),
        };
        assert!(!c.alters_meaning("termination is not due to"));
        assert!(c.alters_meaning("termination is due to"));
    }
}
