//! Locating quotes in a text (the evaluator's citations, the AI's quotes of its source).
//!
//! Evaluator quotes differ from the document in predictable ways (typographic
//! quotes and dashes, re-flowed whitespace, case, dropped markdown, `...` for
//! skipped text, the odd typo). We try, in order: exact, normalized, split at
//! ellipses (each piece on its own), fuzzy (a misquote: shown, never evidence). A quote that
//! is not verbatim is then classified by aligning its words with the source (`classify`):
//! misquote, paraphrase or not in the source. Matching
//! in normalized space keeps a map from every
//! normalized byte back to the source character, so results are always
//! whole-document byte offsets on char boundaries.
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::model::Located;

mod classify;
mod fuzzy;
mod material;
mod misquote;
mod normalize;
pub mod relocate;

use classify::WordIndex;
pub use classify::{Classified, Tier, Tiers};
pub use fuzzy::FUZZY_MIN_SIMILARITY;
use fuzzy::{FUZZY_MAX_CHARS, FUZZY_MIN_CHARS, FuzzyIndex};
pub use misquote::{Change, ChangeKind, PAGE_ARTEFACT, word_diff};
use normalize::{
    Normalized, ellipsis_pieces, floor_boundary, normalize, trim_normalized, trim_quote_marks,
};

/// Where a quote was found, in whole-document byte offsets (`0,0` when unlocated). A quote
/// with ellipses has one range per piece (`pieces`); `start..end` is the first piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub located: Located,
    pub start: usize,
    pub end: usize,
    pub pieces: Vec<(usize, usize)>,
}

impl Location {
    pub const UNLOCATED: Location = Location {
        located: Located::Unlocated,
        start: 0,
        end: 0,
        pieces: Vec::new(),
    };

    fn one(located: Located, start: usize, end: usize) -> Location {
        Location {
            located,
            start,
            end,
            pieces: vec![(start, end)],
        }
    }

    /// Verbatim (up to typography, whitespace and case): evidence. A fuzzy match is a
    /// misquote — shown where it points, but proving nothing.
    pub fn is_evidence(&self) -> bool {
        self.located.is_evidence()
    }
}

/// Find `quote` inside `text[body.0..body.1]`: exact, then normalized, then each
/// ellipsis piece on its own, then fuzzy (a misquote) with a similarity bound.
pub fn locate(text: &str, body: (usize, usize), quote: &str) -> Location {
    Locator::new(text, body).locate(quote)
}

/// More ellipsis pieces than this is not a quote.
const MAX_PIECES: usize = 32;
/// Fuzzy attempts per quote: the costly step, bounded.
const MAX_FUZZY_TRIES: usize = 4;
/// Long quotes are matched fuzzily in chunks of about this many characters, so the
/// length changes the cost, not the outcome.
const CHUNK_CHARS: usize = 300;

/// Alignment cells one document's quotes may spend on fuzzy matching together: each quote
/// is capped on its own, and this bounds a document of hundreds of long invented quotes
/// against a large source (seconds, not minutes). A quote the budget left unsearched is
/// not called absent: see [`Locator::starved`].
const DOC_FUZZY_CELLS: usize = 400_000_000;

/// Prepared document body, to locate many quotes in the same document cheaply.
pub struct Locator<'a> {
    text: &'a str,
    body: (usize, usize),
    index: Arc<LocatorIndex>,
    /// What is left of [`DOC_FUZZY_CELLS`] for this document.
    fuzzy_left: AtomicUsize,
    /// Fuzzy searches the budget cut short so far.
    starved: AtomicUsize,
}

/// What a [`Locator`] derives from its text alone (the normalized copy, then on first use
/// the fuzzy and word indexes): built once and shared by every document that quotes the
/// same source, across threads.
pub struct LocatorIndex {
    norm: Normalized,
    fuzzy: OnceLock<FuzzyIndex>,
    words: OnceLock<WordIndex>,
}

impl LocatorIndex {
    /// The index of `text[body.0..body.1]`; `body` must be clamped (see [`Locator::new`]).
    fn of(text: &str, body: (usize, usize)) -> Self {
        LocatorIndex {
            norm: normalize(&text[body.0..body.1], body.0),
            fuzzy: OnceLock::new(),
            words: OnceLock::new(),
        }
    }

    /// The index of a whole text, for [`Locator::whole`].
    pub fn whole(text: &str) -> Arc<Self> {
        Arc::new(Self::of(text, (0, text.len())))
    }
}

impl Deref for Locator<'_> {
    type Target = LocatorIndex;

    fn deref(&self) -> &LocatorIndex {
        &self.index
    }
}

impl<'a> Locator<'a> {
    /// `body` is clamped to the text and to char boundaries, so bad offsets never panic.
    pub fn new(text: &'a str, body: (usize, usize)) -> Self {
        let end = floor_boundary(text, body.1.min(text.len()));
        let start = floor_boundary(text, body.0.min(end));
        Locator {
            text,
            body: (start, end),
            index: Arc::new(LocatorIndex::of(text, (start, end))),
            fuzzy_left: AtomicUsize::new(DOC_FUZZY_CELLS),
            starved: AtomicUsize::new(0),
        }
    }

    /// A locator over the whole of `text` with an index built earlier from that same text
    /// ([`LocatorIndex::whole`]).
    pub fn whole(text: &'a str, index: Arc<LocatorIndex>) -> Self {
        Locator {
            text,
            body: (0, text.len()),
            index,
            fuzzy_left: AtomicUsize::new(DOC_FUZZY_CELLS),
            starved: AtomicUsize::new(0),
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
            return Location::one(Located::Exact, start, start + cleaned.len());
        }
        let normalized = normalize(cleaned, 0).text;
        let q = trim_normalized(&normalized);
        if q.is_empty() {
            return Location::UNLOCATED;
        }
        if let Some((a, b)) = self.find_normalized(q, 0) {
            return self.location(Located::Normalized, &[(a, b)]);
        }
        if let Some(pieces) = ellipsis_pieces(q) {
            return self.locate_pieces(&pieces);
        }
        match self.find_fuzzy_any_length(q) {
            Some(range) => self.location(Located::Fuzzy, &[range]),
            None => Location::UNLOCATED,
        }
    }

    /// Normalized byte ranges → whole-document byte offsets; the first is `start..end`.
    fn location(&self, located: Located, ranges: &[(usize, usize)]) -> Location {
        let pieces: Vec<(usize, usize)> = ranges
            .iter()
            .map(|&(a, b)| (self.norm.src[a].0, self.norm.src[b - 1].1))
            .collect();
        Location {
            located,
            start: pieces[0].0,
            end: pieces[0].1,
            pieces,
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

    /// A quote with `...`/`…`/`[...]` in it: each piece located on its own, preferably after
    /// the previous one, else anywhere (pieces may come out of order or repeat). All pieces
    /// verbatim: `ellipsis`; any piece only approximately: a misquote (`fuzzy`).
    fn locate_pieces(&self, pieces: &[&str]) -> Location {
        if pieces.len() > MAX_PIECES {
            return Location::UNLOCATED;
        }
        let mut fuzzy_tries = MAX_FUZZY_TRIES;
        let mut found = Vec::with_capacity(pieces.len());
        let mut fuzzy = false;
        let mut end = 0;
        for piece in pieces {
            let exact = self
                .find_normalized(piece, end)
                .or_else(|| self.find_normalized(piece, 0));
            let range = match exact {
                Some(r) => r,
                None if fuzzy_tries > 0 => {
                    fuzzy_tries -= 1;
                    fuzzy = true;
                    match self.find_fuzzy_any_length(piece) {
                        Some(r) => r,
                        None => return Location::UNLOCATED,
                    }
                }
                None => return Location::UNLOCATED,
            };
            end = range.1;
            found.push(range);
        }
        // A leading or trailing `...` leaves one piece: an ordinary normalized quote.
        let located = match (fuzzy, found.len()) {
            (true, _) => Located::Fuzzy,
            (false, 1) => Located::Normalized,
            _ => Located::Ellipsis,
        };
        self.location(located, &found)
    }

    /// The closest passage, at any length: short quotes in one alignment, long ones chunk
    /// by chunk, each chunk after the previous, the passage from the first to the last.
    fn find_fuzzy_any_length(&self, q: &str) -> Option<(usize, usize)> {
        if q.chars().count() <= FUZZY_MAX_CHARS {
            return self.find_fuzzy(q, 0);
        }
        let chunks = chunks(q, CHUNK_CHARS);
        if chunks.len() > MAX_PIECES {
            return None;
        }
        let mut from = 0;
        let mut span: Option<(usize, usize)> = None;
        for chunk in chunks {
            let (a, b) = self
                .find_normalized(chunk, from)
                .or_else(|| self.find_fuzzy(chunk, from))?;
            span = Some(span.map_or((a, b), |(s, _)| (s, b)));
            from = b;
        }
        span
    }

    /// Best window at or after normalized byte `from` with similarity ≥ the bound.
    fn find_fuzzy(&self, q: &str, from: usize) -> Option<(usize, usize)> {
        let qc: Vec<char> = q.chars().collect();
        if !(FUZZY_MIN_CHARS..=FUZZY_MAX_CHARS).contains(&qc.len()) {
            return None;
        }
        let index = self.fuzzy.get_or_init(|| FuzzyIndex::new(&self.norm.text));
        let from_char = index.char_pos.partition_point(|&p| p < from);
        let left = self.fuzzy_left.load(Ordering::Relaxed);
        let found = index.best_window(&qc, from_char, left);
        self.fuzzy_left
            .store(left.saturating_sub(found.cells), Ordering::Relaxed);
        if found.starved {
            self.starved.fetch_add(1, Ordering::Relaxed);
        }
        let (cs, ce) = found.window?;
        Some((index.char_pos[cs], index.char_pos[ce]))
    }

    /// This locator with `cells` of fuzzy-matching budget instead of the default.
    #[cfg(test)]
    fn with_fuzzy_budget(self, cells: usize) -> Self {
        self.fuzzy_left.store(cells, Ordering::Relaxed);
        self
    }

    /// How many fuzzy searches the document's alignment budget has cut short: a quote not
    /// found while this grew was not searched everywhere, so it is not shown absent.
    pub fn starved(&self) -> usize {
        self.starved.load(Ordering::Relaxed)
    }
}

/// `q` cut at spaces into pieces of about `size` characters.
fn chunks(q: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut count = 0;
    for (i, c) in q.char_indices() {
        count += 1;
        if count >= size && c == ' ' {
            out.push(q[start..i].trim());
            start = i + 1;
            count = 0;
        }
    }
    let rest = q[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out.into_iter().filter(|c| !c.is_empty()).collect()
}

#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod tests;
