//! A quote that is not verbatim, classified by alignment rather than by where a locator gave
//! up: each piece of the quote (between ellipses) is aligned word by word, in order, against
//! the source passage it matches best. Words that largely align are a **misquote** (the
//! passage, and exactly which words were dropped, added or swapped); the quote's content words
//! found together in one passage in other words are a **paraphrase** in quotation marks;
//! otherwise the quote is **not in the source**. The thresholds are the playbook's.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::fuzzy::anchored_regions;
use super::misquote::{Change, PAGE_ARTEFACT, Word, diff_piece, words_in_pieces};
use super::{Location, Locator};

/// Where one tier ends and the next begins (playbook data: `tiers` of a quote check).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tiers {
    /// A misquote from this word similarity up: 2 × words aligned in order / (quote words +
    /// passage words), per piece and over the whole quote.
    pub misquote_min: f64,
    /// A paraphrase from this share up of the quote's content words found in one passage.
    pub paraphrase_min: f64,
}

impl Tiers {
    pub const DEFAULT: Tiers = Tiers {
        misquote_min: 0.6,
        paraphrase_min: 0.75,
    };
}

/// What a quote is, compared with the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// The source's words (up to typography, case, markdown, admitted omissions).
    Verbatim,
    /// The source's passage with words dropped, added or swapped.
    Misquote,
    /// The source's content in other words, inside quotation marks.
    Paraphrase,
    /// Content the source does not have.
    NotInSource,
}

/// A quote's tier, the source passage it is compared with and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Classified {
    pub tier: Tier,
    /// Source byte ranges of the passage, one per piece of the quote.
    pub pieces: Vec<(usize, usize)>,
    /// The source's words there (whitespace collapsed), pieces joined by ` … `.
    pub passage: String,
    /// Omissions, insertions and substitutions (a misquote's; empty otherwise).
    pub changes: Vec<Change>,
    /// The word diff, pieces joined by ` … ` (a misquote's; empty otherwise).
    pub diff: String,
    /// Word similarity over the whole quote.
    pub similarity: f64,
    /// Share of the quote's content words found in one passage.
    pub shared: f64,
}

/// Caps that bound the work per piece on a large source.
const MAX_OCCURRENCES: usize = 200;
const MAX_REGIONS: usize = 24;
const MAX_CELLS: usize = 8_000_000;
/// How far past a region, within its source sentence, a paraphrase's content words are looked
/// for.
const WIDE: usize = 40;
/// Pieces shorter than this decide the tier only together with the rest of the quote.
const SUBSTANTIAL_WORDS: usize = 3;

/// Short words that carry no content of their own: never anchors, never content words.
const FUNCTION_WORDS: &[&str] = &[
    "the", "and", "for", "with", "any", "all", "its", "are", "was", "were", "shall", "will", "may",
    "that", "this", "which", "such", "their", "his", "her", "from", "than", "not", "has", "have",
    "been", "into", "upon", "under", "other", "each", "who", "whom", "whose",
];

/// A content word's first five letters: "terminable" and "terminated" share content.
fn stem(key: &str) -> &str {
    key.char_indices().nth(5).map_or(key, |(i, _)| &key[..i])
}

const EQUIVALENTS: &str = include_str!("equivalents.toml");

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Equivalents {
    groups: Vec<Vec<String>>,
    /// Paraphrase and source pairs the test below runs.
    #[cfg_attr(not(test), allow(dead_code))]
    examples: Vec<(String, String)>,
}

fn equivalents() -> Equivalents {
    toml::from_str(EQUIVALENTS).expect("citations/equivalents.toml is valid (tested)")
}

/// Each word of an equivalents group → the group's first word.
static SAME_AS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let mut out = HashMap::new();
    for g in equivalents().groups {
        for w in &g {
            out.insert(w.clone(), g[0].clone());
        }
    }
    out
});

/// What a word counts as when a paraphrase's content is looked for: its equivalents group
/// (`equivalents.toml`), else its stem.
fn sense(key: &str) -> &str {
    SAME_AS.get(key).map_or_else(|| stem(key), String::as_str)
}

/// An acronym in the quote ("FMV"): 3 to 5 capital letters, found in a passage as the
/// initials of consecutive words ("fair market value").
fn is_acronym(word: &str) -> bool {
    (3..=5).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_uppercase())
}

fn is_content(key: &str) -> bool {
    (key.chars().count() >= 3 || key.chars().any(|c| c.is_ascii_digit()))
        && !FUNCTION_WORDS.contains(&key)
}

/// The source's words with an index from each word to where it occurs, built on first use.
pub(super) struct WordIndex {
    words: Vec<Word>,
    at: HashMap<String, Vec<usize>>,
}

/// The best passage for one piece: source word ranges for the closest alignment and for the
/// passage sharing most content words.
struct PieceMatch {
    aligned: (usize, usize),
    equal: usize,
    similarity: f64,
    covering: (usize, usize),
    shared: usize,
    content: usize,
}

impl WordIndex {
    pub fn new(text: &str, body: (usize, usize)) -> Self {
        let words: Vec<Word> = words_in_pieces(&text[body.0..body.1], body.0)
            .into_iter()
            .flatten()
            .collect();
        let mut at: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            at.entry(w.key.clone()).or_default().push(i);
        }
        WordIndex { words, at }
    }

    /// Anchor on the piece's rarest content words: each occurrence implies where the piece
    /// would start; align the piece around those places only.
    fn regions(&self, keys: &[&str], from: usize) -> Vec<(usize, usize)> {
        let mut anchors: Vec<(&str, usize, usize)> = Vec::new(); // word, offset, frequency
        for (offset, k) in keys.iter().enumerate() {
            let freq = self.at.get(*k).map_or(0, Vec::len);
            if freq > 0 && !anchors.iter().any(|a| a.0 == *k) {
                anchors.push((k, offset, freq));
            }
        }
        let content: Vec<_> = anchors
            .iter()
            .filter(|a| is_content(a.0))
            .copied()
            .collect();
        if !content.is_empty() {
            anchors = content;
        }
        anchors.sort_by_key(|a| a.2);
        let mut starts = Vec::new();
        for (k, offset, _) in anchors.iter().take(6) {
            for &at in &self.at[*k] {
                if at >= from && starts.len() < MAX_OCCURRENCES {
                    starts.push(at.saturating_sub(*offset).max(from));
                }
            }
        }
        let slack = keys.len() / 2 + 3;
        let mut regions = anchored_regions(starts, keys.len(), slack, 3, from, self.words.len());
        regions.truncate(MAX_REGIONS);
        regions
    }

    /// Where `keys` occur word for word at or after source word `from`, first place.
    fn exact(&self, keys: &[&str], from: usize) -> Option<(usize, usize)> {
        let (offset, places) = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (i, self.at.get(*k)))
            .min_by_key(|(_, p)| p.map_or(0, Vec::len))?;
        let m = keys.len();
        places?.iter().find_map(|&at| {
            let start = at.checked_sub(offset).filter(|&s| s >= from)?;
            let words = self.words.get(start..start + m)?;
            words
                .iter()
                .zip(keys)
                .all(|(w, k)| w.key == *k)
                .then_some((start, start + m))
        })
    }

    /// The closest passage for `piece` (words of `quote`) at or after source word `from`.
    fn best(&self, piece: &[Word], quote: &str, source: &str, from: usize) -> Option<PieceMatch> {
        let keys: Vec<&str> = piece.iter().map(|w| w.key.as_str()).collect();
        let acronyms: HashSet<&str> = piece
            .iter()
            .filter(|w| quote.get(w.start..w.end).is_some_and(is_acronym))
            .map(|w| w.key.as_str())
            .collect();
        let content: HashSet<&str> = keys.iter().copied().filter(|k| is_content(k)).collect();
        let m = keys.len();
        if let Some(aligned) = self.exact(&keys, from) {
            // Word for word (a short piece may also be near-matched earlier: this one wins).
            return Some(PieceMatch {
                aligned,
                equal: m,
                similarity: 1.0,
                covering: aligned,
                shared: content.len(),
                content: content.len(),
            });
        }
        let mut budget = MAX_CELLS;
        let mut best: Option<PieceMatch> = None;
        let mut cover: Option<((usize, usize), usize)> = None;
        for (r0, r1) in self.regions(&keys, from) {
            let cost = 2 * m * (r1 - r0);
            if cost > budget {
                continue;
            }
            budget -= cost;
            let window: Vec<&str> = self.words[r0..r1].iter().map(|w| w.key.as_str()).collect();
            let Some((a, b)) = fitting_alignment(&keys, &window) else {
                continue;
            };
            let (a, b) = self.trim_edges(&keys, (r0 + a, r0 + b), source);
            let (a, b) = (a - r0, b - r0);
            let equal = equal_words(&window[a..b], &keys);
            let similarity = 2.0 * equal as f64 / (m + b - a) as f64;
            let (c0, c1) = self.content_window((r0, r1), m, source);
            let near = &self.words[c0..c1];
            let present: HashSet<&str> = near.iter().map(|w| sense(&w.key)).collect();
            let initials: String = near.iter().filter_map(|w| w.key.chars().next()).collect();
            let shared = content
                .iter()
                .filter(|k| {
                    present.contains(sense(k)) || (acronyms.contains(*k) && initials.contains(**k))
                })
                .count();
            if cover.is_none_or(|(_, s)| shared > s) {
                cover = Some(((r0 + a, r0 + b), shared));
            }
            if best.as_ref().is_none_or(|p| similarity > p.similarity) {
                best = Some(PieceMatch {
                    aligned: (r0 + a, r0 + b),
                    equal,
                    similarity,
                    covering: (r0 + a, r0 + b),
                    shared: 0,
                    content: content.len(),
                });
            }
        }
        let (covering, shared) = cover?;
        best.map(|p| PieceMatch {
            covering,
            shared,
            ..p
        })
    }

    /// The source words whose content a paraphrase of a region may draw on: `m` words on
    /// either side, and on (up to [`WIDE`] words) while the source's sentence goes on, since a
    /// short quote may sum up a long clause ("lower of FMV or regulatory price" for a
    /// 60-word price clause ending "whichever is lower").
    fn content_window(&self, (r0, r1): (usize, usize), m: usize, source: &str) -> (usize, usize) {
        let n = self.words.len();
        let breaks = |k: usize| {
            source
                .get(self.words[k - 1].end..self.words[k].start)
                .is_some_and(|gap| gap.contains(['.', ';']) || gap.contains("\n\n"))
        };
        let mut c0 = r0.saturating_sub(m);
        while c0 > 0 && r0 - c0 < WIDE && !breaks(c0) {
            c0 -= 1;
        }
        let mut c1 = (r1 + m).min(n);
        while c1 < n && c1 - r1 < WIDE && !breaks(c1) {
            c1 += 1;
        }
        (c0, c1)
    }

    /// Source words at either edge of an alignment that the quote has other words for (or
    /// none), set off from the rest by the end of a sentence, clause or line (`; or\n\n(b)
    /// not use` for the quote's `It will not use`): not the passage. The quote's words there
    /// are its own additions, not a substitution of the neighbouring text.
    fn trim_edges(&self, keys: &[&str], (a, b): (usize, usize), source: &str) -> (usize, usize) {
        let window: Vec<&str> = self.words[a..b].iter().map(|w| w.key.as_str()).collect();
        let ops = capture_diff_slices(Algorithm::Myers, &window, keys);
        let broken = |k: usize| {
            source
                .get(self.words[k - 1].end..self.words[k].start)
                .is_some_and(|gap| gap.contains(['.', ';', ':', '\n']))
        };
        let (mut a2, mut b2) = (a, b);
        if let Some(DiffOp::Replace { old_len, .. } | DiffOp::Delete { old_len, .. }) = ops.first()
        {
            let k = a + old_len;
            if k < b && broken(k) {
                a2 = k;
            }
        }
        if ops.len() > 1
            && let Some(DiffOp::Replace { old_len, .. } | DiffOp::Delete { old_len, .. }) =
                ops.last()
        {
            let k = b - old_len;
            if k > a2 && broken(k) {
                b2 = k;
            }
        }
        (a2, b2)
    }

    fn range(&self, (a, b): (usize, usize)) -> (usize, usize) {
        (self.words[a].start, self.words[b - 1].end)
    }
}

/// The passage `t[a..b]` that aligns best with the whole of `p`, word by word (a fitting
/// alignment: every quote word is aligned, the passage starts and ends freely; a shared word
/// scores 3, a changed, dropped or added word costs 1). Unlike an edit distance, a phrase the
/// quote drops costs less than the words around it gain, so such a quote is aligned with the
/// whole passage, not with the half after the gap; a changed first word is a substitution of
/// the source's word, not an addition.
fn fitting_alignment(p: &[&str], t: &[&str]) -> Option<(usize, usize)> {
    const SHARED: i64 = 3;
    const CHANGED: i64 = -1;
    const GAP: i64 = -1;
    // col[i]: score of the best alignment of the quote's first i words ending at the current
    // source word, and the source word it starts at.
    let mut col: Vec<(i64, usize)> = (0..=p.len()).map(|i| (-(i as i64), 0)).collect();
    let mut best: Option<(i64, usize, usize)> = None; // score, start, end
    for (j, tw) in t.iter().enumerate() {
        let mut diag = col[0];
        col[0] = (0, j + 1);
        for i in 1..=p.len() {
            let left = col[i];
            let step = if p[i - 1] == *tw { SHARED } else { CHANGED };
            let mut cell = (diag.0 + step, diag.1);
            if left.0 + GAP > cell.0 {
                cell = (left.0 + GAP, left.1);
            }
            if col[i - 1].0 + GAP > cell.0 {
                cell = (col[i - 1].0 + GAP, col[i - 1].1);
            }
            diag = left;
            col[i] = cell;
        }
        let end = col[p.len()];
        if best.is_none_or(|b| end.0 > b.0) {
            best = Some((end.0, end.1, j + 1));
        }
    }
    best.map(|(_, a, b)| (a, b)).filter(|(a, b)| a < b)
}

/// Words two sequences share in order.
fn equal_words(a: &[&str], b: &[&str]) -> usize {
    capture_diff_slices(Algorithm::Myers, a, b)
        .iter()
        .map(|op| match op {
            DiffOp::Equal { len, .. } => *len,
            _ => 0,
        })
        .sum()
}

fn tier_of(similarity: f64, shared: usize, content: usize, t: &Tiers) -> Tier {
    if similarity >= t.misquote_min {
        Tier::Misquote
    } else if content >= 2 && shared as f64 / content as f64 >= t.paraphrase_min {
        Tier::Paraphrase
    } else {
        Tier::NotInSource
    }
}

impl Locator<'_> {
    /// Classify `quote` (whose location `loc` the caller already has): verbatim when the
    /// locator found it as evidence, else by aligning each piece's words with the source.
    pub fn classify(&self, quote: &str, loc: &Location, tiers: &Tiers) -> Classified {
        if loc.is_evidence() {
            return Classified {
                tier: Tier::Verbatim,
                passage: self.passage(&loc.pieces),
                pieces: loc.pieces.clone(),
                changes: Vec::new(),
                diff: String::new(),
                similarity: 1.0,
                shared: 1.0,
            };
        }
        let index = self
            .words
            .get_or_init(|| WordIndex::new(self.text, self.body));
        let pieces = words_in_pieces(quote, 0);
        let mut from = 0;
        let mut matched: Vec<(&[Word], Option<PieceMatch>)> = Vec::new();
        for piece in &pieces {
            // Preferably after the previous piece; anywhere when that aligns better.
            let after = index.best(piece, quote, self.text, from);
            let good = after
                .as_ref()
                .is_some_and(|p| p.similarity >= tiers.misquote_min);
            let m = if good || from == 0 {
                after
            } else {
                let anywhere = index.best(piece, quote, self.text, 0);
                match (after, anywhere) {
                    (Some(a), Some(b)) if a.similarity >= b.similarity => Some(a),
                    (a, b) => b.or(a),
                }
            };
            if let Some(p) = &m {
                from = p.aligned.1;
            }
            matched.push((piece, m));
        }
        self.settle(index, quote, &matched, tiers)
    }

    /// The quote's tier from its pieces', the passage and the word diff.
    fn settle(
        &self,
        index: &WordIndex,
        quote: &str,
        matched: &[(&[Word], Option<PieceMatch>)],
        tiers: &Tiers,
    ) -> Classified {
        let (mut equal, mut words, mut shared, mut content) = (0, 0, 0, 0);
        let mut worst: Option<Tier> = None;
        for (piece, m) in matched {
            let (e, n, s, c) = m.as_ref().map_or((0, 0, 0, 0), |p| {
                (p.equal, p.aligned.1 - p.aligned.0, p.shared, p.content)
            });
            equal += e;
            words += piece.len() + n;
            shared += s;
            content += c;
            if piece.len() >= SUBSTANTIAL_WORDS {
                let sim = if n == 0 {
                    0.0
                } else {
                    2.0 * e as f64 / (piece.len() + n) as f64
                };
                let t = tier_of(sim, s, c, tiers);
                worst = Some(worst.map_or(t, |w| w.max(t)));
            }
        }
        let similarity = if words == 0 {
            0.0
        } else {
            2.0 * equal as f64 / words as f64
        };
        let whole = tier_of(similarity, shared, content, tiers);
        let mut tier = worst.map_or(whole, |w| w.max(whole));
        let range = |p: &PieceMatch| {
            if tier == Tier::Paraphrase {
                p.covering
            } else {
                p.aligned
            }
        };
        let mut ranges: Vec<(usize, usize)> = matched
            .iter()
            .filter_map(|(_, m)| m.as_ref().map(|p| index.range(range(p))))
            .collect();
        // The sentence's closing mark, when the quote has it too (so the fix keeps it).
        if let (Some(last), Some(mark)) = (ranges.last_mut(), quote.trim_end().chars().last())
            && ".;:,!?".contains(mark)
            && self.text[last.1..self.body.1].starts_with(mark)
        {
            last.1 += mark.len_utf8();
        }
        let (mut changes, mut diffs) = (Vec::new(), Vec::new());
        if tier == Tier::Misquote {
            for (piece, m) in matched {
                let Some(p) = m else { continue };
                let d = diff_piece(
                    piece,
                    quote,
                    &index.words[p.aligned.0..p.aligned.1],
                    self.text,
                );
                changes.extend(d.changes);
                diffs.push(d.rendered);
            }
            if changes.is_empty() {
                tier = Tier::Verbatim;
            }
        }
        Classified {
            tier,
            passage: self.passage(&ranges),
            pieces: ranges,
            changes,
            diff: diffs.join(" … "),
            similarity,
            shared: if content == 0 {
                0.0
            } else {
                shared as f64 / content as f64
            },
        }
    }

    /// The text at `ranges`, page furniture dropped, whitespace collapsed, joined by ` … `.
    fn passage(&self, ranges: &[(usize, usize)]) -> String {
        ranges
            .iter()
            .filter_map(|&(a, b)| self.text.get(a..b))
            .map(|s| {
                PAGE_ARTEFACT
                    .replace_all(s, " ")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" … ")
    }
}

#[cfg(test)]
mod tests {
    use super::super::misquote::not_words_tests::keys;
    use super::*;

    #[test]
    fn every_equivalents_example_is_found_through_its_groups_and_not_without() {
        let eq = equivalents();
        assert!(!eq.examples.is_empty());
        for (para, src) in &eq.examples {
            let src = keys(src);
            let senses: HashSet<&str> = src.iter().map(|k| sense(k)).collect();
            let stems: HashSet<&str> = src.iter().map(|k| stem(k)).collect();
            let content: Vec<String> = keys(para).into_iter().filter(|k| is_content(k)).collect();
            for k in &content {
                assert!(
                    senses.contains(sense(k)),
                    "{para}: “{k}” not found in {src:?}"
                );
            }
            assert!(
                content.iter().any(|k| !stems.contains(stem(k))),
                "{para}: needs no equivalents"
            );
        }
    }

    #[test]
    fn an_acronym_is_capital_letters_only() {
        assert!(is_acronym("FMV"));
        assert!(!is_acronym("Fmv"));
        assert!(!is_acronym("IP"));
        assert!(!is_acronym("SOFTWARE"));
    }
}
