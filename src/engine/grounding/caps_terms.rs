//! Terms written in capitals without quotation marks ("remains liable for the RESIDUAL ROYALTY
//! FLOOR", "forfeits all prepaid fees on a FORFEITURE EVENT"): two to four words of three or
//! more capitals after an article or determiner, in a line that is not itself in capitals (a
//! heading or a copied clause in capitals is no claim), used once in the output. Such a run is
//! a claim that the source defines the term; its words are looked up in the source like any
//! other term's (case does not matter there).

use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Entity, EntityKind, words_key};
use super::names::{is_label, uses_outside_labels};
use crate::engine::ascii_regex;

/// An article or determiner, then the run (bold or not); "OF", "AND", "FOR", "TO", "THE" may
/// join its words.
static CAPS_RUN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"\b(?:[Tt]he|an?|any|all|each|every|such|its|their)\s+(?:\*\*|__)?(?P<t>[A-Z]{3,}(?:[ -](?:(?:OF|AND|FOR|TO|THE) )?[A-Z]{3,}){1,3})(?:\*\*|__)?(?:[^\w*_-]|$)",
    )
    .expect("caps-term regex")
});

/// Terms in capitals in `text[range]`, whole-text offsets.
pub fn terms_in(text: &str, range: (usize, usize)) -> Vec<Entity> {
    let Some(hay) = text.get(range.0..range.1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in CAPS_RUN.captures_iter(hay) {
        let t = c.name("t").expect("group");
        let ls = hay[..t.start()].rfind('\n').map_or(0, |i| i + 1);
        let le = hay[t.end()..].find('\n').map_or(hay.len(), |i| t.end() + i);
        let line = &hay[ls..le];
        // A line without lower-case words is a heading or a clause copied in capitals.
        let lower_words = line
            .split(|ch: char| !ch.is_alphabetic())
            .filter(|w| w.len() > 2 && w.chars().all(char::is_lowercase))
            .count();
        if lower_words < 3
            || uses_outside_labels(hay, t.as_str()) > 1
            || is_label(hay, t.start(), t.end())
        {
            continue;
        }
        out.push(Entity {
            kind: EntityKind::DefinedTerm,
            start: range.0 + t.start(),
            end: range.0 + t.end(),
            text: t.as_str().to_string(),
            normalized: words_key(t.as_str()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(s: &str) -> Vec<String> {
        terms_in(s, (0, s.len()))
            .into_iter()
            .map(|e| e.text)
            .collect()
    }

    #[test]
    fn a_run_in_capitals_after_an_article_is_a_term() {
        for (s, t) in [
            (
                "Even after termination the licensee remains liable for the RESIDUAL ROYALTY FLOOR, which is payable whether or not any further sales are made.",
                "RESIDUAL ROYALTY FLOOR",
            ),
            (
                "The licensee forfeits all prepaid fees on a FORFEITURE EVENT.",
                "FORFEITURE EVENT",
            ),
            (
                "2. **Cap on liability:** tied to the AGGREGATE RELIEF LIMIT, which does not include indemnity payments.",
                "AGGREGATE RELIEF LIMIT",
            ),
            (
                "Liability is capped at the **LIMITATION OF LIABILITY AMOUNT** for each claim.",
                "LIMITATION OF LIABILITY AMOUNT",
            ),
        ] {
            assert_eq!(terms(s), vec![t.to_string()], "{s}");
        }
    }

    #[test]
    fn headings_acronyms_and_repeated_runs_are_not() {
        for s in [
            "## THE LIMITATION OF LIABILITY CLAUSE",
            "THE SOFTWARE IS PROVIDED AS IS WITHOUT WARRANTY OF ANY KIND.",
            "The parties are in the USA and the EU under the same rules.",
            "The fee is in the CPI index.",
            "The buyer pays the RESIDUAL FEE monthly, and the RESIDUAL FEE is never refunded.",
            "The licensee pays SUNSET INVENTORY costs.",
        ] {
            assert!(terms(s).is_empty(), "{s}: {:?}", terms(s));
        }
    }
}
