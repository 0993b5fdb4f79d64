//! Fuzzy location: approximate substring matching anchored on the quote's rarest words,
//! so a 100 KB body costs a few small alignments.

use std::collections::HashMap;

/// Fuzzy matches must be at least this similar (normalized Levenshtein).
pub const FUZZY_MIN_SIMILARITY: f64 = 0.85;
/// Quotes (normalized) shorter than this are too ambiguous for fuzzy matching,
/// longer ones too costly.
pub const FUZZY_MIN_CHARS: usize = 8;
pub const FUZZY_MAX_CHARS: usize = 600;
/// Caps that bound fuzzy work on large documents.
const MAX_ANCHOR_OCCURRENCES: usize = 200;
const MAX_REGIONS: usize = 32;
const MAX_DP_CELLS: usize = 20_000_000;

/// What one fuzzy search found and cost.
pub(super) struct Search {
    pub window: Option<(usize, usize)>,
    /// Alignment cells spent.
    pub cells: usize,
    /// The document's budget, not this quote's cap, left a place unsearched.
    pub starved: bool,
}

/// Char-level view of the normalized body with a word index, built on first fuzzy use.
pub(super) struct FuzzyIndex {
    pub chars: Vec<char>,
    /// Normalized byte offset of each char, plus one past the end.
    pub char_pos: Vec<usize>,
    /// Word → char indices where it starts.
    words: HashMap<String, Vec<usize>>,
}

/// Windows of the quote's length plus `slack` either side around each implied start (at or
/// after `from`, within `len`), merged when they overlap as long as a merged window stays
/// under `spread` × its unmerged size, so repetitive text cannot make one huge alignment.
/// The most anchored windows come first, then the leftmost.
pub(super) fn anchored_regions(
    mut starts: Vec<usize>,
    m: usize,
    slack: usize,
    spread: usize,
    from: usize,
    len: usize,
) -> Vec<(usize, usize)> {
    starts.sort_unstable();
    let max_region = spread * (m + 2 * slack);
    let mut regions: Vec<(usize, usize, usize)> = Vec::new(); // start, end, anchors
    for s in starts {
        let (r0, r1) = (s.saturating_sub(slack).max(from), (s + m + slack).min(len));
        match regions.last_mut() {
            Some(last) if r0 <= last.1 && r1 - last.0 <= max_region => {
                last.1 = last.1.max(r1);
                last.2 += 1;
            }
            _ => regions.push((r0, r1, 1)),
        }
    }
    regions.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    regions.into_iter().map(|(a, b, _)| (a, b)).collect()
}

impl FuzzyIndex {
    pub fn new(norm: &str) -> Self {
        let mut chars = Vec::with_capacity(norm.len());
        let mut char_pos = Vec::with_capacity(norm.len() + 1);
        for (i, c) in norm.char_indices() {
            chars.push(c);
            char_pos.push(i);
        }
        char_pos.push(norm.len());
        let mut words: HashMap<String, Vec<usize>> = HashMap::new();
        for (word, at) in words_of(&chars) {
            words.entry(word).or_default().push(at);
        }
        FuzzyIndex {
            chars,
            char_pos,
            words,
        }
    }

    /// Anchor on the quote's rarest words that occur in the body: each occurrence
    /// implies where the quote would start. Align the quote around those places only
    /// (approximate substring matching), so a 100 KB body costs a few small alignments.
    /// `limit` is what is left of the document's alignment budget: the search returns its
    /// window, the cells it aligned, and whether that limit (not this quote's own cap) left
    /// a place unsearched.
    pub fn best_window(&self, q: &[char], from: usize, limit: usize) -> Search {
        let m = q.len();
        let mut anchors: Vec<(String, usize, usize)> = Vec::new(); // word, offset in quote, frequency
        for (word, offset) in words_of(q) {
            let freq = self.words.get(&word).map_or(0, Vec::len);
            if freq > 0 && !anchors.iter().any(|(w, ..)| *w == word) {
                anchors.push((word, offset, freq));
            }
        }
        let long: Vec<_> = anchors
            .iter()
            .filter(|(w, ..)| w.chars().count() >= 3)
            .cloned()
            .collect();
        if !long.is_empty() {
            anchors = long;
        }
        anchors.sort_by(|a, b| a.2.cmp(&b.2).then(b.0.len().cmp(&a.0.len())));

        let mut implied: Vec<usize> = Vec::new();
        for (word, offset, _) in anchors.iter().take(4) {
            for &at in &self.words[word] {
                if at >= from && implied.len() < MAX_ANCHOR_OCCURRENCES {
                    implied.push(at.saturating_sub(*offset).max(from));
                }
            }
        }
        // Windows around each implied start, merged when they overlap; the most anchored first.
        // Merged regions stay bounded so repetitive text cannot make one huge alignment.
        let slack = m / 5 + 4;
        let regions = anchored_regions(implied, m, slack, 4, from, self.chars.len());

        let quote: String = q.iter().collect();
        let mut budget = MAX_DP_CELLS.min(limit);
        let mut best: Option<(f64, usize, usize)> = None;
        let mut starved = false;
        for &(r0, r1) in regions.iter().take(MAX_REGIONS) {
            let cost = 2 * m * (r1 - r0);
            if cost > budget {
                starved |= limit < MAX_DP_CELLS;
                continue;
            }
            budget -= cost;
            let Some((a, b)) = align(q, &self.chars[r0..r1]) else {
                continue;
            };
            let window: String = self.chars[r0 + a..r0 + b].iter().collect();
            let score = strsim::normalized_levenshtein(&window, &quote);
            let better = best.is_none_or(|(s, bs, _)| score > s || (score == s && r0 + a < bs));
            if score >= FUZZY_MIN_SIMILARITY && better {
                best = Some((score, r0 + a, r0 + b));
            }
        }
        Search {
            window: best.map(|(_, a, b)| (a, b)),
            cells: MAX_DP_CELLS.min(limit) - budget,
            starved,
        }
    }
}

/// Alphanumeric runs of `chars` with their char index.
fn words_of(chars: &[char]) -> Vec<(String, usize)> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_alphanumeric() {
            let start = i;
            while i < chars.len() && chars[i].is_alphanumeric() {
                i += 1;
            }
            words.push((chars[start..i].iter().collect(), start));
        } else {
            i += 1;
        }
    }
    words
}

/// The substring `t[a..b]` closest to `p` in edit distance (Sellers' algorithm: free
/// start and end in `t`). A forward pass finds the end, a backward pass from that end
/// finds the start.
fn align(p: &[char], t: &[char]) -> Option<(usize, usize)> {
    let end = best_end(p, t)?;
    let reversed = |s: &[char]| s.iter().rev().copied().collect::<Vec<char>>();
    let rev_len = best_end(&reversed(p), &reversed(&t[..end]))?;
    (rev_len > 0).then(|| (end - rev_len, end))
}

/// Length of the prefix of `t` whose best-matching suffix is closest to `p`.
fn best_end(p: &[char], t: &[char]) -> Option<usize> {
    let m = p.len();
    let mut col: Vec<usize> = (0..=m).collect();
    let mut best: Option<(usize, usize)> = None;
    for (j, tc) in t.iter().enumerate() {
        let mut diag = col[0];
        col[0] = 0;
        for i in 1..=m {
            let up = col[i];
            let substitute = diag + usize::from(p[i - 1] != *tc);
            col[i] = substitute.min(up + 1).min(col[i - 1] + 1);
            diag = up;
        }
        if best.is_none_or(|(d, _)| col[m] < d) {
            best = Some((col[m], j + 1));
        }
    }
    best.map(|(_, end)| end)
}
