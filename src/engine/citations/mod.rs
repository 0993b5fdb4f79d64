//! Locating quotes in a text (the evaluator's citations, the AI's quotes of its source).
//!
//! Evaluator quotes differ from the document in predictable ways (typographic
//! quotes and dashes, re-flowed whitespace, case, dropped markdown, `...` for
//! skipped text, the odd typo). We try, in order: exact, normalized, split at
//! ellipses, fuzzy. Matching in normalized space keeps a map from every
//! normalized byte back to the source character, so results are always
//! whole-document byte offsets on char boundaries.
use std::cell::OnceCell;

use crate::model::Located;

mod fuzzy;
mod normalize;
pub mod relocate;

pub use fuzzy::FUZZY_MIN_SIMILARITY;
use fuzzy::{FUZZY_MAX_CHARS, FUZZY_MIN_CHARS, FuzzyIndex};
use normalize::{
    Normalized, ellipsis_pieces, floor_boundary, normalize, trim_normalized, trim_quote_marks,
};

/// Where a quote was found, in whole-document byte offsets (`0,0` when unlocated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub located: Located,
    pub start: usize,
    pub end: usize,
}

impl Location {
    pub const UNLOCATED: Location = Location {
        located: Located::Unlocated,
        start: 0,
        end: 0,
    };
}

/// Find `quote` inside `text[body.0..body.1]`: exact, then normalized, then split at
/// ellipses, then fuzzy with a similarity bound.
pub fn locate(text: &str, body: (usize, usize), quote: &str) -> Location {
    Locator::new(text, body).locate(quote)
}

/// Occurrences of the first ellipsis piece tried as chain starts.
const MAX_CHAIN_STARTS: usize = 64;

/// Prepared document body, to locate many quotes in the same document cheaply.
pub struct Locator<'a> {
    text: &'a str,
    body: (usize, usize),
    norm: Normalized,
    fuzzy: OnceCell<FuzzyIndex>,
}

impl<'a> Locator<'a> {
    /// `body` is clamped to the text and to char boundaries, so bad offsets never panic.
    pub fn new(text: &'a str, body: (usize, usize)) -> Self {
        let end = floor_boundary(text, body.1.min(text.len()));
        let start = floor_boundary(text, body.0.min(end));
        Locator {
            text,
            body: (start, end),
            norm: normalize(&text[start..end], start),
            fuzzy: OnceCell::new(),
        }
    }

    pub fn locate(&self, quote: &str) -> Location {
        let cleaned = trim_quote_marks(quote);
        // Punctuation alone ("**", "...") is no evidence, wherever it occurs.
        if !cleaned.chars().any(char::is_alphanumeric) {
            return Location::UNLOCATED;
        }
        let body = &self.text[self.body.0..self.body.1];
        if let Some(i) = body.find(cleaned) {
            let start = self.body.0 + i;
            return Location {
                located: Located::Exact,
                start,
                end: start + cleaned.len(),
            };
        }
        let normalized = normalize(cleaned, 0).text;
        let q = trim_normalized(&normalized);
        if q.is_empty() {
            return Location::UNLOCATED;
        }
        if let Some((a, b)) = self.find_normalized(q, 0) {
            return self.location(Located::Normalized, a, b);
        }
        if let Some((a, b, fuzzy)) = self.find_ellipsis_pieces(q) {
            return self.location(
                if fuzzy {
                    Located::Fuzzy
                } else {
                    Located::Normalized
                },
                a,
                b,
            );
        }
        if let Some((a, b)) = self.find_fuzzy(q, 0) {
            return self.location(Located::Fuzzy, a, b);
        }
        Location::UNLOCATED
    }

    /// Normalized byte range `[a, b)` → whole-document byte offsets.
    fn location(&self, located: Located, a: usize, b: usize) -> Location {
        Location {
            located,
            start: self.norm.src[a].0,
            end: self.norm.src[b - 1].1,
        }
    }

    /// First occurrence at or after normalized byte `from`; retried without trailing
    /// sentence punctuation the evaluator may have added.
    fn find_normalized(&self, q: &str, from: usize) -> Option<(usize, usize)> {
        let hay = self.norm.text.get(from..)?;
        let found = |q: &str| hay.find(q).map(|i| (from + i, from + i + q.len()));
        found(q).or_else(|| {
            let bare = q
                .trim_end_matches(['.', ',', ';', ':', '!', '?'])
                .trim_end();
            (bare.len() < q.len() && !bare.is_empty())
                .then(|| found(bare))
                .flatten()
        })
    }

    /// A quote with `...`/`…`/`[...]` in it: each piece in order, each after the previous.
    /// Returns the span from the first piece to the last, and whether any piece was fuzzy.
    fn find_ellipsis_pieces(&self, q: &str) -> Option<(usize, usize, bool)> {
        let pieces = ellipsis_pieces(q)?;
        let first = pieces[0];
        let mut starts: Vec<(usize, usize, bool)> = Vec::new();
        let mut from = 0;
        while starts.len() < MAX_CHAIN_STARTS {
            match self.find_normalized(first, from) {
                Some((a, b)) => {
                    starts.push((a, b, false));
                    from = a + self.norm.text[a..].chars().next().map_or(1, char::len_utf8);
                }
                None => break,
            }
        }
        if starts.is_empty() {
            starts.extend(self.find_fuzzy(first, 0).map(|(a, b)| (a, b, true)));
        }
        // Of all chains, keep the tightest: a common first piece must not stretch the span.
        let mut best: Option<(usize, usize, bool)> = None;
        let mut fuzzy_tries = 4; // fuzzy is the costly step; bound it per quote
        let mut try_fuzzy = |piece: &str, from: usize| {
            if fuzzy_tries == 0 {
                return None;
            }
            fuzzy_tries -= 1;
            self.find_fuzzy(piece, from)
        };
        for (start, first_end, first_fuzzy) in starts {
            let mut end = first_end;
            let mut fuzzy = first_fuzzy;
            let mut complete = true;
            for piece in &pieces[1..] {
                let next = self.find_normalized(piece, end).map(|r| (r, false));
                match next.or_else(|| try_fuzzy(piece, end).map(|r| (r, true))) {
                    Some(((_, b), f)) => {
                        end = b;
                        fuzzy |= f;
                    }
                    None => {
                        complete = false;
                        break;
                    }
                }
            }
            if complete && best.is_none_or(|(a, b, _)| end - start < b - a) {
                best = Some((start, end, fuzzy));
            }
        }
        best
    }

    /// Best window at or after normalized byte `from` with similarity ≥ the bound.
    fn find_fuzzy(&self, q: &str, from: usize) -> Option<(usize, usize)> {
        let qc: Vec<char> = q.chars().collect();
        if !(FUZZY_MIN_CHARS..=FUZZY_MAX_CHARS).contains(&qc.len()) {
            return None;
        }
        let index = self.fuzzy.get_or_init(|| FuzzyIndex::new(&self.norm.text));
        let from_char = index.char_pos.partition_point(|&p| p < from);
        let (cs, ce) = index.best_window(&qc, from_char)?;
        Some((index.char_pos[cs], index.char_pos[ce]))
    }
}

#[cfg(test)]
mod tests;
