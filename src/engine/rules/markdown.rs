//! Just enough markdown structure for the rules: which bytes are quoted
//! material (the AI quoting a contract, not asserting), where sentences end,
//! and which lines are headings.

use crate::engine::document::layout::{split_sentences, unrendered};
use std::sync::OnceLock;

/// Regions of the body that are quotation, block quote or code; and, built on first use,
/// the sentence and word boundaries of the body, so that every lookup is O(log n) and a
/// rule's pass over a document stays linear whatever its shape (one 1 MB sentence included).
#[derive(Debug, Clone, Default)]
pub struct ProseMap {
    quoted: Vec<(usize, usize)>,
    /// `quoted_max_end[i]` = the largest end among `quoted[..=i]` (spans may nest).
    quoted_max_end: Vec<usize>,
    /// HTML comments (`<!-- … -->`, or to the end when unterminated): text a reader of the
    /// rendered output never sees, so it may not count as evidence that a check passes.
    hidden: Vec<(usize, usize)>,
    /// What the layout finds unrendered (link reference definitions, `[//]: # (note)`, a
    /// link's destination and title), in text order and disjoint: a match that starts or
    /// ends inside one is hidden ("[Exhibit B](url) was not provided" is not: it only
    /// crosses a link's destination).
    unrendered: Vec<(usize, usize)>,
    body: (usize, usize),
    bounds: OnceLock<Bounds>,
    /// Readings of this document that several rules share, by key and type (see `shared`).
    shared: std::cell::RefCell<Vec<(String, std::rc::Rc<dyn std::any::Any>)>>,
}

/// The body's sentences and word boundaries, computed once on first use.
#[derive(Debug, Clone, Default)]
struct Bounds {
    /// The body's sentences from the one sentence splitter, in order and disjoint.
    sentences: Vec<(usize, usize)>,
    /// `(i, next)`: a white-space character at `i` followed by a word character at `next`.
    ws_before_word: Vec<(usize, usize)>,
    /// `(i, prev)`: a white-space character at `i` preceded by a word character at `prev`.
    ws_after_word: Vec<(usize, usize)>,
}

/// Quotations longer than this are treated as unbalanced quote marks, not quotes.
const MAX_QUOTE_LEN: usize = 1500;

impl ProseMap {
    /// A reading of this document that several rules share (the regions under drafting
    /// headings, the quote tiers' reading), built by `build` the first time a rule asks with
    /// this `key` for this type. The key must name everything the reading depends on.
    pub fn shared<T: 'static>(&self, key: &str, build: impl FnOnce() -> T) -> std::rc::Rc<T> {
        let found = self
            .shared
            .borrow()
            .iter()
            .filter(|(k, _)| k == key)
            .find_map(|(_, v)| std::rc::Rc::clone(v).downcast::<T>().ok());
        if let Some(v) = found {
            return v;
        }
        let built = std::rc::Rc::new(build());
        self.shared.borrow_mut().push((
            key.to_string(),
            std::rc::Rc::clone(&built) as std::rc::Rc<dyn std::any::Any>,
        ));
        built
    }

    /// Map `text[body.0..body.1]`; offsets are whole-document. Reads the body as markdown
    /// for its unrendered text when it may hold any; a reader with the body's layout at hand
    /// passes its spans to [`ProseMap::with_unrendered`] instead.
    pub fn new(text: &str, body: (usize, usize)) -> Self {
        Self::with_unrendered(text, body, unrendered(text, body))
    }

    /// [`ProseMap::new`] with the body's unrendered spans already found (those of the body's
    /// [`crate::engine::document::Layout`], built over the same `body`): in text order and
    /// disjoint, whole-document offsets.
    pub fn with_unrendered(
        text: &str,
        body: (usize, usize),
        unrendered: Vec<(usize, usize)>,
    ) -> Self {
        let mut quoted = Vec::new();
        let mut offset = body.0;
        let mut in_fence = false;
        for line in text[body.0..body.1].split_inclusive('\n') {
            let trimmed = line.trim_start();
            let start = offset;
            offset += line.len();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                in_fence = !in_fence;
                quoted.push((start, offset));
                continue;
            }
            if in_fence || trimmed.starts_with('>') {
                quoted.push((start, offset));
                continue;
            }
            quoted_spans(line, start, &mut quoted);
        }
        quoted.sort_unstable();
        let quoted_max_end = quoted
            .iter()
            .scan(0, |max, &(_, e)| {
                *max = e.max(*max);
                Some(*max)
            })
            .collect();
        ProseMap {
            shared: Default::default(),
            quoted,
            quoted_max_end,
            hidden: html_comments(text, body),
            unrendered,
            body,
            bounds: OnceLock::new(),
        }
    }

    /// The body this map covers.
    pub fn body(&self) -> (usize, usize) {
        self.body
    }

    /// Is `start..end` inside one quoted region?
    pub fn is_quoted(&self, start: usize, end: usize) -> bool {
        let i = self.quoted.partition_point(|&(s, _)| s <= start);
        i > 0 && self.quoted_max_end[i - 1] >= end
    }

    /// Is `start..end` text hidden from a reader: does it overlap an HTML comment, or start
    /// or end inside unrendered text?
    pub fn is_hidden(&self, start: usize, end: usize) -> bool {
        let i = self.hidden.partition_point(|&(_, e)| e <= start);
        let around = |pos: usize| {
            let k = self.unrendered.partition_point(|&(_, e)| e <= pos);
            self.unrendered.get(k).filter(|&&(s, _)| s <= pos)
        };
        // A match running to the end of unrendered text holds all of it: a title that is a
        // link ("## [Not checked](#nc)") is seen.
        self.hidden
            .get(i)
            .is_some_and(|&(s, _)| s < end.max(start + 1))
            || around(start).is_some()
            || around(end.saturating_sub(1).max(start)).is_some_and(|&(_, e)| end < e)
    }

    /// The text this map was built on must be passed back (the same `text` as in `new`).
    fn bounds(&self, text: &str) -> &Bounds {
        self.bounds.get_or_init(|| Bounds::new(text, self.body))
    }

    /// The sentence holding `pos` (the layout's sentence splitter run over the body), in
    /// O(log n) after one linear pass; `(pos, pos)` between sentences.
    pub fn sentence(&self, text: &str, pos: usize) -> (usize, usize) {
        let sentences = &self.bounds(text).sentences;
        let i = sentences.partition_point(|&(s, _)| s <= pos);
        match i.checked_sub(1).map(|k| sentences[k]) {
            Some((s, e)) if pos <= e => (s, e),
            _ => (pos, pos),
        }
    }

    /// Byte offset `n` words before `pos`, not before `floor` (`floor` ≥ the body start).
    pub fn words_before(&self, text: &str, floor: usize, pos: usize, n: usize) -> usize {
        let w = &self.bounds(text).ws_before_word;
        let idx = w.partition_point(|&(_, next)| next < pos);
        match idx.checked_sub(n) {
            Some(k) if w[k].0 >= floor => w[k].0,
            _ => floor,
        }
    }

    /// Byte offset `n` words after `pos`, not after `ceil` (`ceil` ≤ the body end).
    pub fn words_after(&self, text: &str, pos: usize, ceil: usize, n: usize) -> usize {
        let w = &self.bounds(text).ws_after_word;
        let idx = w.partition_point(|&(_, prev)| prev < pos);
        match w.get(idx + n.max(1) - 1) {
            Some(&(i, _)) if i < ceil => i,
            _ => ceil,
        }
    }
}

impl Bounds {
    /// One pass over the body: its sentences and its word boundaries.
    fn new(text: &str, (lo, hi): (usize, usize)) -> Bounds {
        let mut b = Bounds {
            sentences: split_sentences(text, (lo, hi)),
            ..Bounds::default()
        };
        let mut prev: Option<(usize, bool)> = None;
        for (i, ch) in text[lo..hi].char_indices() {
            let (i, ws) = (lo + i, ch.is_whitespace());
            if let Some((p, p_ws)) = prev {
                if p_ws && !ws {
                    b.ws_before_word.push((p, i));
                }
                if !p_ws && ws {
                    b.ws_after_word.push((i, p));
                }
            }
            prev = Some((i, ws));
        }
        b
    }
}

/// Quoted spans within one line: "…", “…”, `…`. Straight quotes pair in order.
fn quoted_spans(line: &str, base: usize, out: &mut Vec<(usize, usize)>) {
    let mut open: Option<(usize, char)> = None;
    for (i, ch) in line.char_indices() {
        match (open, ch) {
            (None, '"' | '“' | '`') => open = Some((i, ch)),
            (Some((s, '"')), '"') | (Some((s, '“')), '”' | '"') | (Some((s, '`')), '`') => {
                if i - s <= MAX_QUOTE_LEN {
                    out.push((base + s, base + i + ch.len_utf8()));
                }
                open = None;
            }
            _ => {}
        }
    }
}

/// The HTML comments of `text[body]`, in order and disjoint, in one pass.
fn html_comments(text: &str, body: (usize, usize)) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = body.0;
    while let Some(i) = text[at..body.1].find("<!--") {
        let start = at + i;
        let end = text[start + 4..body.1]
            .find("-->")
            .map_or(body.1, |j| start + 4 + j + 3);
        out.push((start, end));
        at = end;
    }
    out
}

/// Is the line `line_start..line_end` a markdown heading or a line that is all bold?
pub fn is_heading_line(text: &str, line_start: usize, line_end: usize) -> bool {
    let line = text[line_start..line_end].trim();
    line.starts_with('#')
        || (line.len() > 4 && line.starts_with("**") && line.trim_end_matches(':').ends_with("**"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_comments_are_hidden_and_nothing_else_is() {
        let text = "seen <!-- a\nhidden --> seen <!-- open to the end";
        let p = ProseMap::new(text, (0, text.len()));
        let at = |w: &str| text.find(w).unwrap();
        assert!(!p.is_hidden(0, 4));
        assert!(p.is_hidden(at("hidden"), at("hidden") + 6));
        assert!(!p.is_hidden(at(" seen"), at(" seen") + 5));
        assert!(p.is_hidden(at("open"), text.len()));
    }

    #[test]
    fn link_reference_definitions_are_hidden_and_a_look_alike_in_a_paragraph_is_not() {
        let text = "Seen.\n\n[//]: # (one note)\n[//]: # (two <!-- x --> note)\n\n- [c]: <> \"three\"\n  shown\n\nfour\n[//]: # (five)\n";
        let p = ProseMap::new(text, (0, text.len()));
        let hidden = |w: &str| {
            let s = text.find(w).unwrap();
            p.is_hidden(s, s + w.len())
        };
        assert!(!hidden("Seen"));
        assert!(hidden("one"));
        // The second definition of a label, an HTML comment inside one, a list item's.
        assert!(hidden("two"));
        assert!(hidden("note)\n\n"));
        assert!(hidden("three"));
        assert!(!hidden("shown"));
        // A definition cannot interrupt a paragraph: it is the paragraph's text, shown.
        assert!(!hidden("five"));
        // A link's destination and title are hidden; a match crossing one is not.
        let text = "[Exhibit B](# 'not provided') was not provided.";
        let p = ProseMap::new(text, (0, text.len()));
        let at = |w: &str| text.find(w).unwrap();
        assert!(p.is_hidden(at("not provided"), at("not provided") + 12));
        assert!(p.is_hidden(at("B]"), at("not provided") + 3));
        assert!(!p.is_hidden(0, text.len()));
        assert!(!p.is_hidden(at(" was"), text.len()));
        let text = "## [Not checked](#nc)\n\nExhibit C.";
        let p = ProseMap::new(text, (0, text.len()));
        assert!(!p.is_hidden(0, text.find('\n').unwrap()));
    }

    #[test]
    fn quotes_block_quotes_and_code_are_quoted() {
        let text = "He said \"it is always legal\" here.\n> never ever\n```\nguarantee\n```\nplain `code` text";
        let m = ProseMap::new(text, (0, text.len()));
        let q = |w: &str| {
            let s = text.find(w).unwrap();
            m.is_quoted(s, s + w.len())
        };
        assert!(q("always"));
        assert!(q("never"));
        assert!(q("guarantee"));
        assert!(q("code"));
        assert!(!q("He said"));
        assert!(!q("here"));
        assert!(!q("plain"));
    }

    #[test]
    fn curly_quotes_pair() {
        let text = "The clause “is always enforceable” says so.";
        let m = ProseMap::new(text, (0, text.len()));
        let s = text.find("always").unwrap();
        assert!(m.is_quoted(s, s + 6));
        let s = text.find("says").unwrap();
        assert!(!m.is_quoted(s, s + 4));
    }

    #[test]
    fn sentences_split_at_stops_and_list_items_not_abbreviations() {
        let text = "First one.  Second, e.g. with Sec. 4 inside, ends here. Third\n- item one\n- item two\n\nNext \"quoted.\" After";
        let m = ProseMap::new(text, (0, text.len()));
        let at = |w: &str| {
            let (s, e) = m.sentence(text, text.find(w).unwrap());
            &text[s..e]
        };
        assert_eq!(at("inside"), "Second, e.g. with Sec. 4 inside, ends here.");
        assert_eq!(at("two"), "- item two");
        assert_eq!(at("Third"), "Third");
        assert_eq!(at("Next"), "Next \"quoted.\"");
        assert_eq!(at("After"), "After");
        // Between two sentences a position belongs to neither.
        let gap = text.find(" Second").unwrap(); // the second of two spaces
        assert_eq!(m.sentence(text, gap), (gap, gap));
    }

    #[test]
    fn headings_and_bold_lines() {
        let t = "## Title\n**Bold Heading:**\nnot **a** heading";
        assert!(is_heading_line(t, 0, 8));
        assert!(is_heading_line(t, 9, 26));
        assert!(!is_heading_line(t, 27, t.len()));
    }

    /// Texts whose every position exercises the stop conditions: abbreviations, list
    /// items, numbered lines, blank lines, multi-byte characters, CRLF.
    const SHAPES: [&str; 5] = [
        "First one. Second, e.g. with Sec. 4 inside, ends here. Third\n- item one\n- item two",
        "Intro\n\n1. one; two! three?\n  a) nested é item.\r\nplain line\n# Heading\n> quote",
        "one long sentence, with commas, and no stop at all, going on and on",
        "x.\ny.\n\n\n12) z. «é» — 😀. i.e. more.\n|a|b|\n+ plus",
        "",
    ];

    #[test]
    fn the_sentence_of_a_position_is_the_splitters_sentence_that_holds_it() {
        for t in SHAPES {
            for (lo, hi) in [(0, t.len()), (t.len() / 3, t.len()), (0, t.len() * 2 / 3)] {
                let (lo, hi) = (
                    crate::model::text::floor_char_boundary(t, lo),
                    crate::model::text::floor_char_boundary(t, hi),
                );
                let m = ProseMap::new(t, (lo, hi));
                let all = split_sentences(t, (lo, hi));
                for pos in (lo..=hi).filter(|&p| t.is_char_boundary(p)) {
                    let got = m.sentence(t, pos);
                    match all.iter().find(|&&(s, e)| s <= pos && pos <= e) {
                        Some(&want) => assert_eq!(got, want, "{t:?} body {lo}..{hi} at {pos}"),
                        None => assert_eq!(got, (pos, pos), "{t:?} body {lo}..{hi} at {pos}"),
                    }
                }
            }
        }
    }

    #[test]
    fn nested_quotes_count_by_the_outer_span() {
        // A fenced line holding a `code` span: the later, shorter span must not hide the
        // longer one that starts before it.
        let t = "> he said `x` and \"always legal\" there\n";
        let m = ProseMap::new(t, (0, t.len()));
        let s = t.find("there").unwrap();
        assert!(m.is_quoted(s, s + 5));
    }
}
