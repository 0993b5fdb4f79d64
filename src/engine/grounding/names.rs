//! Names written without a marker a pattern can key on: people without an honorific
//! ("signed by Jane Okoro") and capitalised terms without quotation marks ("the Holdback
//! Amount"). A run of capitalised words is only a candidate here; whether it is a name is
//! decided with the vocabulary of both texts (a word that also appears in lower case, such as
//! "Key" or "Financial", is an ordinary word, not a name).
//!
//! Both recognisers are linear in their input (one regex pass each).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Entity, EntityKind, words_key};
use crate::engine::ascii_regex;

/// Two or three capitalised words, each a letter run (an inner hyphen allowed), joined by
/// single spaces, not glued to a word, quote or other capitalised word before or after.
static NAME_RUN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?P<n>[A-Z][a-z]{1,20}(?:-[A-Z][a-z]{1,20})?(?: [A-Z][a-z]{1,20}(?:-[A-Z][a-z]{1,20})?){1,2})")
        .expect("name-run regex")
});

/// "the", "any", "all", "each", "every", "such" (capitalised only opening a sentence: "for All
/// Urban Consumers" is a name's own word) (or "a"/"an" after a condition: "if a Transition Fee
/// occurs", an event the source defines) followed by two to four capitalised words ("of"/"and"
/// may join them), in bold or not; or such words after "the Agreement's", "defined term",
/// "defined as", "definition of", "the term", or followed by "(as defined in …)", "is a defined term", "to
/// mean", without the article.
static TERM_RUN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?:\b(?:the|The|any|all|each|every|such)|(?m:^)[\s>*_•+-]*(?:Any|All|Each|Every|Such)|[.!?:]\s+(?:Any|All|Each|Every|Such)|\b(?:[Ii]f|[Ww]hen|[Uu]pon|[Uu]nless|[Uu]ntil|[Oo]nce|[Aa]fter|[Bb]efore)\s+an?)\s+(?:\*\*|__)?(?P<t>[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:\s+(?:of\s+|and\s+)?[A-Z][a-z]+(?:-[A-Z][a-z]+)?){1,3})\b|\b(?:(?:agreement|contract|Agreement|Contract)['’]s|defined\s+terms?|defined\s+as|definition\s+of|the\s+term)\s+(?:\*\*|__)?(?P<e>[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:\s+(?:of\s+|and\s+)?[A-Z][a-z]+(?:-[A-Z][a-z]+)?){1,3})\b|\b(?P<d>[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:\s+(?:of\s+|and\s+)?[A-Z][a-z]+(?:-[A-Z][a-z]+)?){1,3})(?:\*\*|__)?(?:\s+\((?:as\s+)?defined\s+(?:in|by|under)\b|\s+(?:is|are)\s+(?:a\s+)?(?:defined|capitali[sz]ed)\s+terms?\b|\s+to\s+mean\b)")
        .expect("term-run regex")
});

/// Words that open a sentence or name a month, day or title: never part of a person's name.
pub(super) const NOT_NAME: &[&str] = &[
    "The",
    "This",
    "That",
    "These",
    "Those",
    "Under",
    "Per",
    "If",
    "When",
    "While",
    "As",
    "By",
    "And",
    "Or",
    "But",
    "For",
    "To",
    "Of",
    "In",
    "On",
    "At",
    "With",
    "From",
    "Each",
    "Either",
    "Neither",
    "Both",
    "Any",
    "All",
    "No",
    "Not",
    "Its",
    "Their",
    "Our",
    "Your",
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "Prof",
    "Sir",
    "Dear",
    "Note",
    "Notably",
    "See",
    "Also",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Section",
    "Clause",
    "Article",
    "Exhibit",
    "Schedule",
    "Annex",
    "Appendix",
    "Agreement",
    "Contract",
    // Institutions and places, not people: "United States Bureau", "Consumer Price Index".
    "United",
    "States",
    "Kingdom",
    "Republic",
    "Union",
    "European",
    "American",
    "Federal",
    "National",
    "International",
    "Bureau",
    "Department",
    "Agency",
    "Commission",
    "Office",
    "Court",
    "Council",
    "Board",
    "Authority",
    "Institute",
    "University",
    "Bank",
    "Association",
    "Index",
    "Consumer",
    "Treasury",
    "Ministry",
    "County",
    "City",
    "State",
    "New",
];

/// The words a text writes in lower case somewhere (lower-cased), sorted and without
/// repeats, so that a word's derived forms can be found by prefix (`starts_a_word`). A word
/// already in lower case is borrowed from the text, not copied.
#[derive(Debug, Default)]
pub struct LowerWords<'a>(Vec<Cow<'a, str>>);

impl LowerWords<'_> {
    /// The same words, owning their text.
    pub fn into_owned(self) -> LowerWords<'static> {
        LowerWords(
            self.0
                .into_iter()
                .map(|w| Cow::Owned(w.into_owned()))
                .collect(),
        )
    }
}

/// Does a word of `words` start with `w` ("quarter" → "quarterly")?
pub fn starts_a_word(words: &LowerWords, w: &str) -> bool {
    let i = words.0.partition_point(|x| x.as_ref() < w);
    words.0.get(i).is_some_and(|x| x.starts_with(w))
}

/// Is `w` an ordinary word of the texts: `common(stem)` says whether a lower-case word starts
/// with the stem (the word itself, or its singular: "Quarters" → "quarterly")?
fn ordinary(w: &str, common: &dyn Fn(&str) -> bool) -> bool {
    let w = w.to_lowercase();
    let stem = w.strip_suffix('s').filter(|s| s.len() >= 4).unwrap_or(&w);
    common(stem)
}

/// Is `at..end` a title or label rather than running text: inside `**bold**` or `*italic*`
/// on its line, or opening its line (after list markers) as a heading-like label?
pub(super) fn is_label(text: &str, at: usize, end: usize) -> bool {
    let ls = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[ls..at];
    // A list item's marker ("* The Licensor's …") opens no emphasis.
    let marks = list_item_body(before);
    let emphasised = marks.matches("**").count() % 2 == 1
        || marks.matches('*').count() % 2 == 1
        || marks.matches('_').count() % 2 == 1;
    let lead = before.trim_start_matches(|c: char| {
        c.is_whitespace()
            || c.is_ascii_digit()
            || matches!(
                c,
                '#' | '*' | '_' | '-' | '+' | '>' | '•' | '.' | ')' | '(' | '|'
            )
    });
    let opens_line = lead.is_empty() || lead.chars().all(|c| !c.is_alphanumeric());
    let after = text[end..].trim_start_matches(['*', '_', ' ']);
    // "Term Sheet (Exhibit A):" is a label; "Jane Roe (General Counsel) is the contact" is
    // a sentence about her.
    let label_paren = after.strip_prefix('(').is_some_and(|r| {
        let rest = r.split_once(')').map_or("", |(_, rest)| rest);
        let rest = rest.trim_start_matches(['*', '_', ' ']);
        rest.is_empty() || rest.starts_with([':', '\n', '–', '—', '|'])
    });
    // Emphasis marks a title when it opens the line ("**Initial Observation:** …", "1.
    // **Governing Law for the Joint Venture Entities:**"); a word in bold inside a sentence
    // ("tied to the **Holdback Amount**") is still the sentence's word.
    let before_emphasis = &marks[..marks.find(['*', '_']).unwrap_or(0)];
    let emphasis_opens_line = before_emphasis
        .chars()
        .all(|c| !c.is_alphanumeric() || c.is_ascii_digit());
    // "**Grandfathered Pricing** applies only to …": the bold closes on the term and the
    // sentence runs on in lower case, so the term is its subject, not a title.
    let bold_subject = text[end..].starts_with(['*', '_']) && after.starts_with(char::is_lowercase);
    (emphasised && emphasis_opens_line && !bold_subject)
        || (opens_line
            && (after.starts_with([':', '–', '—', '-', '|'])
                || label_paren
                || after.is_empty()
                || after.starts_with('\n')))
}

/// A line's text after its list item marker ("* ", "- ", "+ ", "1. ", "2) "), if it has one.
fn list_item_body(line: &str) -> &str {
    let t = line.trim_start();
    if let Some(rest) = ["* ", "- ", "+ "].iter().find_map(|m| t.strip_prefix(m)) {
        return rest;
    }
    let n = t.trim_start_matches(|c: char| c.is_ascii_digit());
    match (n.len() < t.len()).then(|| n.strip_prefix(". ").or_else(|| n.strip_prefix(") "))) {
        Some(Some(rest)) => rest,
        _ => line,
    }
}

/// How many times `term` appears in `hay` other than in the output's own headings or
/// labels: a term a paragraph is labelled with ("**Wind-Down Inventory:** … all Wind-Down
/// Inventory") is used once in the text under it.
pub(super) fn uses_outside_labels(hay: &str, term: &str) -> usize {
    hay.match_indices(term)
        .filter(|(i, _)| !is_label(hay, *i, i + term.len()))
        .take(2)
        .count()
}

/// The words of a text that appear in lower case somewhere in it (lower-cased), sorted so that
/// a word's derived forms can be found (`starts_a_word`).
pub fn lower_words(text: &str) -> LowerWords<'_> {
    let mut words: Vec<Cow<str>> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.starts_with(|c: char| c.is_lowercase()))
        .map(|w| {
            if w.chars()
                .any(|c| !c.is_lowercase() && c.to_lowercase().ne([c]))
            {
                Cow::Owned(w.to_lowercase())
            } else {
                Cow::Borrowed(w)
            }
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    LowerWords(words)
}

fn char_before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

/// People named without an honorific in `text[range]`: runs of two or three capitalised words
/// in which no word is an ordinary word (`common(word)`, given lower case) or a sentence or
/// calendar word, standing alone (no capitalised word, digit or quotation mark glued on
/// either side, no corporate suffix after). Whole-text offsets.
pub fn people_in(text: &str, range: (usize, usize), common: &dyn Fn(&str) -> bool) -> Vec<Entity> {
    let Some(hay) = text.get(range.0..range.1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in NAME_RUN.captures_iter(hay) {
        let m = c.name("n").expect("group");
        let (s, e) = (m.start(), m.end());
        let before = char_before(hay, s);
        let after = hay[e..].chars().next();
        let glued_before = before.is_some_and(|ch| {
            ch.is_alphanumeric() || matches!(ch, '"' | '“' | '\'' | '’' | '-' | '&')
        }) || hay[..s].trim_end().rsplit(' ').next().is_some_and(|w| {
            w.starts_with(|ch: char| ch.is_uppercase()) && w.chars().all(char::is_alphanumeric)
        }) && hay[..s].ends_with(' ');
        let glued_after = after
            .is_some_and(|ch| ch.is_alphanumeric() || matches!(ch, '"' | '”' | '-' | '&'))
            || hay[e..]
                .trim_start_matches([',', ' '])
                .starts_with(|ch: char| ch.is_uppercase())
                && hay[e..].starts_with(' ');
        // "the Escrow Release Event": a term (see `terms_in`); people take no article.
        let article = hay[..s]
            .trim_end()
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| {
                matches!(w, "the" | "The" | "a" | "A" | "an" | "An" | "this" | "This")
            });
        // "Bureau of Labor Statistics": the tail of an institution's longer name.
        let of_name = {
            let mut back = hay[..s].trim_end().rsplit(' ');
            matches!(back.next(), Some("of" | "and" | "for" | "on"))
                && back
                    .next()
                    .is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()))
        };
        if glued_before || glued_after || article || of_name {
            continue;
        }
        let words: Vec<&str> = m.as_str().split(' ').collect();
        let name_like =
            |w: &str| !NOT_NAME.contains(&w) && w.split('-').all(|p| !ordinary(p, common));
        if words.iter().all(|w| name_like(w)) && !is_label(hay, s, e) {
            out.push(Entity {
                kind: EntityKind::Person,
                start: range.0 + s,
                end: range.0 + e,
                text: m.as_str().to_string(),
                normalized: words_key(m.as_str()),
            });
        }
    }
    out
}

/// Capitalised terms after "the" ("the Holdback Amount") in `text[range]` that the output
/// uses once only: a term the output keeps using is its own vocabulary (a clause it drafts,
/// a label it coins), a term used once in a statement about the source is a claim that the
/// source defines it. Whole-text offsets.
pub fn terms_in(text: &str, range: (usize, usize)) -> Vec<Entity> {
    let Some(hay) = text.get(range.0..range.1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in TERM_RUN.captures_iter(hay) {
        let t = c.name("t").or(c.name("d")).or(c.name("e")).expect("group");
        let after = hay[t.end()..].trim_start_matches(',').trim_start();
        // "the Acme Widget Corp.": an organisation, read as one.
        if after.starts_with(|ch: char| ch.is_uppercase()) {
            continue;
        }
        // "the Acme Widget Corp.": an organisation, read as one.
        let last = t.as_str().rsplit(' ').next().unwrap_or("");
        if matches!(
            last,
            "Corp"
                | "Inc"
                | "Ltd"
                | "Co"
                | "Corporation"
                | "Incorporated"
                | "Limited"
                | "Company"
                | "Group"
                | "Holdings"
                | "Partners"
                // A law's name ("the Defend Trade Secrets Act") is no term of the contract.
                | "Act"
                | "Code"
                | "Directive"
                | "Regulation"
                | "Convention"
        ) {
            continue;
        }
        let mut words = t.as_str().split_whitespace();
        if words.any(|w| NOT_NAME.contains(&w) && !matches!(w, "Agreement" | "Contract")) {
            continue;
        }
        if uses_outside_labels(hay, t.as_str()) > 1 || is_label(hay, t.start(), t.end()) {
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
    out.extend(super::term_list::listed_terms(hay, range.0));
    out.sort_by_key(|e| e.start);
    out.dedup_by_key(|e| e.start);
    out
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
