//! Terms an output lists as the source's defined terms ("Key defined terms include Effective
//! Date, Services and Transition Fee"): each item of two to four capitalised words is a claim
//! that the source defines it. One regex pass for the lead, then a split of the list.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Entity, EntityKind, words_key};
use crate::engine::ascii_regex;

/// A list of terms the output says the source defines ("Key defined terms include Effective
/// Date, Services and Transition Fee"): the text after the lead, up to the sentence's end.
static TERM_LIST: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i:defined\s+terms|definitions)\s+(?:include|includes|are|cover|such\s+as)\s*:?\s+(?P<l>[^.;:\n]{1,300})")
        .expect("term-list regex")
});

/// The items of a list "A, B and C" that are two to four capitalised words (a one-word item
/// such as "Services" is too often an ordinary word), as offsets into `list`.
fn list_items(list: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = 0;
    list.split(',').flat_map(move |piece| {
        let base = at;
        at += piece.len() + 1;
        let mut parts = Vec::new();
        let mut from = 0;
        while let Some((i, sep)) = [" and ", " or "]
            .iter()
            .filter_map(|sep| piece[from..].find(sep).map(|i| (from + i, sep.len())))
            .min()
        {
            parts.push((from, i));
            from = i + sep;
        }
        parts.push((from, piece.len()));
        parts.into_iter().filter_map(move |(s, e)| {
            let raw = piece[s..e].trim_end();
            let item = raw.trim_start();
            let item = item.strip_prefix("the ").unwrap_or(item);
            let s = s + raw.len() - item.len();
            let words: Vec<&str> = item.split(' ').collect();
            let capital = |w: &&str| {
                w.starts_with(|c: char| c.is_ascii_uppercase())
                    && w.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
            };
            ((2..=4).contains(&words.len()) && words.iter().all(capital))
                .then(|| (base + s, base + s + item.len()))
        })
    })
}

/// The listed terms in `hay` that it names once only (a term it keeps using is its own
/// vocabulary), with offsets shifted by `base`.
pub fn listed_terms(hay: &str, base: usize) -> Vec<Entity> {
    let mut out = Vec::new();
    for c in TERM_LIST.captures_iter(hay) {
        let l = c.name("l").expect("group");
        for (s, e) in list_items(l.as_str()) {
            let t = &l.as_str()[s..e];
            if hay.matches(t).take(2).count() == 1 {
                out.push(Entity {
                    kind: EntityKind::DefinedTerm,
                    start: base + l.start() + s,
                    end: base + l.start() + e,
                    text: t.to_string(),
                    normalized: words_key(t),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_to_four_word_items_of_a_defined_terms_list() {
        let t = "Key defined terms include Effective Date, Services, the Look-Back Period or Transition Fee.";
        let got: Vec<_> = listed_terms(t, 0).into_iter().map(|e| e.text).collect();
        assert_eq!(
            got,
            ["Effective Date", "Look-Back Period", "Transition Fee"]
        );
        let mixed = "Its definitions include Late Fee or Grace Period and Cure Notice.";
        let got: Vec<_> = listed_terms(mixed, 0).into_iter().map(|e| e.text).collect();
        assert_eq!(got, ["Late Fee", "Grace Period", "Cure Notice"]);
        let plain = "The defined terms are clear and the Services are broad.";
        assert!(listed_terms(plain, 0).is_empty());
    }
}
