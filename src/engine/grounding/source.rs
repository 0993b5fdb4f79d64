//! A source document prepared once for many questions: is this entity in it, does this
//! section exist, where is this quote.

use std::collections::{HashMap, HashSet};
use std::ops::Deref;
use std::sync::Arc;

use super::entities::{self, Entity, EntityKind, canon_word};
use super::references::{self, RefKind, Reference};
use super::words::tokens;
use crate::engine::citations::{Classified, Location, Locator, LocatorIndex, Tiers};

/// How many distinct source amounts rounded figures and totals are compared with: each
/// such claim scans them, so this bounds the work per claim whatever the source holds.
const MAX_FUZZY_AMOUNTS: usize = 512;

/// How many distinct numbered parts (sections, clauses, articles) a source must show for its
/// numbering to count as read.
pub const MIN_NUMBERED_PARTS: usize = 2;

fn in_cents(v: f64) -> i64 {
    (v * 100.0).round() as i64
}

/// Where a claim was found in the source, byte offsets into the source text.
pub type Span = (usize, usize);

/// The source text with its entities, numbering and words indexed (linear in its length).
/// The index is the text's alone ([`SourceIndex`]): many documents quoting one contract
/// share it; what is asked per document (quotes located) is kept here.
pub struct Source<'a> {
    pub text: &'a str,
    index: Arc<SourceIndex>,
    locator: Locator<'a>,
    /// Quotes already located (two checks ask about the same quotes).
    located: std::cell::RefCell<HashMap<String, Location>>,
}

/// What a [`Source`] derives from its text alone, built once per text and shared.
pub struct SourceIndex {
    values: HashMap<(EntityKind, String), Span>,
    /// Distinct amounts, the first [`MAX_FUZZY_AMOUNTS`] in source order: currency, value,
    /// place (for rounded figures, "$21.6M", and totals). Exact values are in `values`.
    money: Vec<(String, f64, Span)>,
    /// The same amounts in cents, by currency.
    cents: HashMap<String, HashSet<i64>>,
    /// Up to 8 places per numbered part (the first may be a cross-reference).
    numbering: HashMap<(RefKind, String), Vec<Span>>,
    /// " w1 w2 … " (canonical lower-case words) and each word's source span.
    joined: String,
    word_at: Vec<(usize, Span)>,
    /// Each word's places (indices into `word_at`, ascending): a run of words is looked up
    /// from its rarest word instead of searching the whole source for every question.
    places: HashMap<String, Vec<u32>>,
    /// Words the source writes in lower case somewhere (ordinary words, not names).
    lower: super::names::LowerWords<'static>,
    quotes: Arc<LocatorIndex>,
}

impl Deref for Source<'_> {
    type Target = SourceIndex;

    fn deref(&self) -> &SourceIndex {
        &self.index
    }
}

impl SourceIndex {
    pub fn new(text: &str) -> Self {
        let mut values = HashMap::new();
        let mut money = Vec::new();
        let mut cents: HashMap<String, HashSet<i64>> = HashMap::new();
        // Values are read from a copy without PDF artefacts, same byte offsets.
        for e in entities::extract(&entities::clean_for_values(text)) {
            if e.kind == EntityKind::Money
                && money.len() < MAX_FUZZY_AMOUNTS
                && let Some((cur, v)) = e.normalized.split_once(' ')
                && let Ok(v) = v.parse::<f64>()
                && v > 0.0
                && cents
                    .entry(cur.to_string())
                    .or_default()
                    .insert(in_cents(v))
            {
                money.push((cur.to_string(), v, (e.start, e.end)));
            }
            values
                .entry((e.kind, e.normalized))
                .or_insert((e.start, e.end));
        }
        let mut numbering = HashMap::new();
        for (k, span) in references::numbering(text) {
            let v: &mut Vec<Span> = numbering.entry(k).or_default();
            if v.len() < 8 {
                v.push(span);
            }
        }
        let mut joined = String::with_capacity(text.len() + 2);
        let mut word_at = Vec::new();
        let mut places: HashMap<String, Vec<u32>> = HashMap::new();
        joined.push(' ');
        for (w, s, e) in tokens(text) {
            let w = canon_word(w);
            let i = word_at.len() as u32;
            word_at.push((joined.len(), (s, e)));
            joined.push_str(&w);
            joined.push(' ');
            match places.get_mut(&w) {
                Some(v) => v.push(i),
                None => {
                    places.insert(w, vec![i]);
                }
            }
        }
        SourceIndex {
            values,
            money,
            cents,
            numbering,
            joined,
            word_at,
            places,
            lower: super::names::lower_words(text).into_owned(),
            quotes: LocatorIndex::whole(text),
        }
    }
}

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Self {
        Self::indexed(text, Arc::new(SourceIndex::new(text)))
    }

    /// `text` with the index built earlier from that same text.
    pub fn indexed(text: &'a str, index: Arc<SourceIndex>) -> Self {
        Source {
            text,
            locator: Locator::whole(text, index.quotes.clone()),
            index,
            located: Default::default(),
        }
    }

    /// Where the source states this entity (same value, or same words), if it does.
    pub fn contains(&self, e: &Entity) -> Option<Span> {
        if let Some(span) = self.values.get(&(e.kind, e.normalized.clone())) {
            return Some(*span);
        }
        match e.kind {
            EntityKind::Duration => self.duration_equivalent(&e.normalized),
            EntityKind::Money => self.rounded_money(e),
            EntityKind::Organization => self.org_words(&e.normalized),
            EntityKind::DefinedTerm => self.find_words(&e.normalized),
            EntityKind::LegalCitation => self.find_words(&entities::words_key(&e.text)),
            // "Jane Okoro" for the source's "J. Okoro" or "Jane A. Okoro": the surname.
            EntityKind::Person => self.find_words(&e.normalized).or_else(|| {
                let last = e.normalized.rsplit(' ').next().filter(|w| w.len() >= 3)?;
                self.find_words(last)
            }),
            _ => None,
        }
    }

    /// Does the source write a word starting with this (lower-case) stem in lower case?
    pub fn has_lower_word(&self, stem: &str) -> bool {
        super::names::starts_a_word(&self.lower, stem)
    }

    /// Where the source has these words in this order (canonical lower-case words).
    pub fn find_words(&self, key: &str) -> Option<Span> {
        let key = key.trim();
        let n = key.split(' ').count();
        let i = self.runs(key).next()?;
        let first = self.word_at.get(i)?.1;
        let last = self.word_at.get(i + n - 1)?.1;
        Some((first.0, last.1))
    }

    /// The places (indices into `word_at`, ascending) where the source has the words of `key`
    /// (canonical lower-case words, single spaces) in this order: the places of its rarest
    /// word, each checked against the joined words.
    fn runs<'k>(&'k self, key: &'k str) -> impl Iterator<Item = usize> + 'k {
        let words: Vec<&str> = key.split(' ').collect();
        let rarest = (!key.is_empty())
            .then(|| {
                words
                    .iter()
                    .enumerate()
                    .map(|(j, w)| (j, self.places.get(*w).map_or(&[][..], Vec::as_slice)))
                    .min_by_key(|(_, p)| p.len())
            })
            .flatten();
        let (j, places) = rarest.unwrap_or((0, &[]));
        places.iter().filter_map(move |&p| {
            let start = (p as usize).checked_sub(j)?;
            let at = self.word_at.get(start)?.0;
            let rest = self.joined.get(at..)?;
            (rest.starts_with(key) && rest[key.len()..].starts_with(' ')).then_some(start)
        })
    }

    /// Where the source has `word` (canonical lower case) with `words` words on either side
    /// that `near` accepts (the window as " w1 w2 … "). At most 64 places are looked at.
    pub fn word_near(&self, word: &str, words: usize, near: impl Fn(&str) -> bool) -> Option<Span> {
        let word = word.trim();
        for i in self.runs(word).take(64) {
            let (a, b) = (
                i.saturating_sub(words),
                (i + words + 1).min(self.word_at.len()),
            );
            let from = self.word_at.get(a).map_or(0, |w| w.0);
            let to = self.word_at.get(b).map_or(self.joined.len(), |w| w.0);
            if near(&self.joined[from..to]) {
                return self.word_at.get(i).map(|w| w.1);
            }
        }
        None
    }

    /// "Under Acme Corp" is "Acme Corp": leading sentence words are dropped; then the whole
    /// name, or the name without its suffix ("Acme" defined as "Acme, Inc."), must be there.
    fn org_words(&self, key: &str) -> Option<Span> {
        const LEAD: &[&str] = &[
            "the",
            "under",
            "between",
            "and",
            "by",
            "with",
            "from",
            "for",
            "to",
            "of",
            "a",
            "an",
            "per",
            "via",
            "including",
            "both",
            "if",
            "when",
            "while",
            "as",
            "in",
            "on",
            "at",
        ];
        let mut words: Vec<&str> = key.split(' ').collect();
        while words.len() > 2 && LEAD.contains(&words[0]) {
            words.remove(0);
        }
        self.find_words(&words.join(" ")).or_else(|| {
            (words.len() >= 2)
                .then(|| self.find_words(&words[..words.len() - 1].join(" ")))
                .flatten()
        })
    }

    /// "$21.6M" is "$21,614,000" rounded: a stated figure with at most three significant
    /// digits and a million/thousand/billion suffix grounds against a source amount in the
    /// same currency that rounds to it.
    fn rounded_money(&self, e: &Entity) -> Option<Span> {
        let (mantissa, decimals, mult) = entities::rounded_figure(&e.text)?;
        let cur = e.normalized.split_once(' ')?.0;
        let scale = 10f64.powi(decimals as i32);
        let want = (mantissa * scale).round();
        self.money.iter().find_map(|(c, v, span)| {
            (c == cur && ((v / mult) * scale).round() == want && *v > 0.0).then_some(*span)
        })
    }

    /// A total the output adds up ("cash ($3,091,000 total)" for the source's $91,000 and
    /// $3,000,000): where two source amounts in the same currency sum to it, the first of them.
    /// Only for an amount the output calls a total (the caller decides); linear in the
    /// source's amounts.
    pub fn sum_of_two(&self, e: &Entity) -> Option<Span> {
        if e.kind != EntityKind::Money {
            return None;
        }
        let (cur, v) = e.normalized.split_once(' ')?;
        let want = in_cents(v.parse::<f64>().ok()?);
        let same = self.cents.get(cur)?;
        // In source order, so the place named is the same on every run.
        self.money.iter().find_map(|(c, v, span)| {
            let (a, b) = (in_cents(*v), want - in_cents(*v));
            (c == cur && b > 0 && b != a && same.contains(&b)).then_some(*span)
        })
    }

    /// "12 months" = "1 year", "2 weeks" = "14 days".
    fn duration_equivalent(&self, norm: &str) -> Option<Span> {
        let (v, unit) = norm.split_once(' ')?;
        let v: f64 = v.parse().ok()?;
        let alts: Vec<(f64, &str)> = match unit {
            "month" => vec![(v / 12.0, "year")],
            "year" => vec![(v * 12.0, "month")],
            "week" => vec![(v * 7.0, "day")],
            "day" => vec![(v / 7.0, "week")],
            _ => vec![],
        };
        alts.into_iter()
            .filter(|(a, _)| (a - a.round()).abs() < 1e-9 && *a >= 1.0)
            .find_map(|(a, u)| {
                let key = format!("{} {u}", super::numbers::fmt_value(a));
                self.values.get(&(EntityKind::Duration, key)).copied()
            })
    }

    /// Where the referenced part is numbered or named in the source; a numbered sub-part may
    /// be the source's decimal ("Article V(3)" is its 5.3).
    pub fn reference(&self, r: &Reference) -> Option<Span> {
        self.reference_as_written(r)
            .or_else(|| references::as_dotted(r).and_then(|d| self.reference_as_written(&d)))
    }

    /// `reference` without the decimal reading of a numbered sub-part.
    fn reference_as_written(&self, r: &Reference) -> Option<Span> {
        let Some(places) = self.numbering.get(&(r.kind, r.label.clone())) else {
            // "Section 11A", "Section 5b": sub-paragraph A of 11 ("A.During…", "b) …").
            // Split off the last character, wherever its bytes start ("９９.４" is not ASCII).
            let cut = r.label.char_indices().last().map_or(0, |(i, _)| i);
            let (num, letter) = r.label.split_at(cut);
            if r.kind == RefKind::Numbered
                && !num.is_empty()
                && num.chars().all(|c| c.is_ascii_digit() || c == '.')
                && letter.chars().all(|c| c.is_ascii_alphabetic())
            {
                let mut parts = vec![letter.to_string()];
                parts.extend(r.parts.iter().cloned());
                return self.reference_as_written(&Reference {
                    label: num.trim_end_matches('.').to_string(),
                    parts,
                    ..r.clone()
                });
            }
            return None;
        };
        places.iter().find_map(|&span| {
            let mut end = span;
            for part in &r.parts {
                end = references::has_subpart(self.text, end.1, 20_000, part)?;
            }
            Some((span.0, end.1.max(span.1)))
        })
    }

    /// Can the source's section numbering be read at all? Fewer than [`MIN_NUMBERED_PARTS`]
    /// distinct numbered parts means a "Section 9" it lacks may be a part its numbering hides,
    /// so an unmatched numbered reference cannot be judged.
    pub fn numbering_readable(&self) -> bool {
        self.numbering
            .keys()
            .filter(|(k, _)| *k == RefKind::Numbered)
            .take(MIN_NUMBERED_PARTS)
            .count()
            >= MIN_NUMBERED_PARTS
    }

    /// The citation locator over the whole source (exact → normalized → ellipsis → fuzzy).
    pub fn locate(&self, quote: &str) -> Location {
        if let Some(l) = self.located.borrow().get(quote) {
            return l.clone();
        }
        let before = self.locator.starved();
        let l = self.locator.locate(quote);
        // An answer the budget cut short is not kept: it is no answer.
        if self.locator.starved() == before {
            self.located
                .borrow_mut()
                .insert(quote.to_string(), l.clone());
        }
        l
    }

    /// Fuzzy searches this document's alignment budget has cut short so far (see
    /// [`crate::engine::citations::Locator::starved`]).
    pub fn starved(&self) -> usize {
        self.locator.starved()
    }

    /// A quote's tier (verbatim, misquote, paraphrase, not in the source), its passage and
    /// word diff: the same answer for every check that asks.
    pub fn classify(&self, quote: &str, tiers: &Tiers) -> Classified {
        self.locator.classify(quote, &self.locate(quote), tiers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of one to four words, present or not, is found where a search of the whole
    /// joined source finds it first: the index of each word's places changes no answer.
    #[test]
    fn word_runs_are_found_where_a_whole_text_search_finds_them() {
        let text = "The Supplier shall pay the fee. The fee is due on the 1st day; the \
            Supplier's fee, the Supplier — Corporation and Incorporated Limited. pay the fee";
        let source = Source::new(text);
        let index: &SourceIndex = &source;
        let words: Vec<&str> = index.joined.split(' ').filter(|w| !w.is_empty()).collect();
        let naive = |key: &str| {
            let at = index.joined.find(&format!(" {key} "))? + 1;
            let i = index.word_at.partition_point(|(p, _)| *p < at);
            let n = key.split(' ').count();
            Some((index.word_at[i].1.0, index.word_at[i + n - 1].1.1))
        };
        let mut keys: Vec<String> =
            vec!["fee the".into(), "corp and inc ltd".into(), "absent".into()];
        for n in 1..=4 {
            keys.extend(words.windows(n).map(|w| w.join(" ")));
        }
        let mut found = 0;
        for key in &keys {
            assert_eq!(source.find_words(key), naive(key), "{key}");
            found += usize::from(naive(key).is_some());
        }
        assert!(found > 40 && found < keys.len());
        assert_eq!(source.find_words(""), None);
        assert_eq!(source.find_words("the  fee"), None);
    }
}
