//! What a misquote changed: the quoted words against the source's own, word by word, in the
//! matching space (typography, case and markdown aside). An ellipsis in the quote is an
//! omission the quote admits: the words it stands for are never blamed.

use std::sync::LazyLock;

use regex::Regex;
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::normalize::normalize;
use crate::engine::ascii_regex;

/// Page furniture a PDF conversion leaves inside a passage: a page number line ("- 51 -",
/// "Page 3 of 9"), a confidential-treatment banner. A quote that leaves it out quotes the
/// passage, so it is not a word of either.
pub static PAGE_ARTEFACT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?im)\*{3}\s*confidential\s+treatment\s+requested\s*\*{3}|^[ \t]*(?:-[ \t]*\d{1,4}[ \t]*-|\d{1,4}|page[ \t]+\d{1,4}(?:[ \t]+of[ \t]+\d{1,4})?)[ \t]*$")
        .expect("page artefact regex")
});

/// A list enumerator opening a line (`e)`, `B.`, `(iii)`, `3.1.2`): the layout's numbering,
/// not a word of the sentence (a quote of the item's text leaves it out).
static ENUMERATOR: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"^(?:\((?:[A-Za-z]|[ivxlcIVXLC]{1,6}|\d{1,3})\)|(?:[A-Za-z]|[ivxlcIVXLC]{1,6}|\d{1,3})[.)]|\d{1,3}(?:\.\d{1,3})+\.?)(?:\s|$)")
        .expect("enumerator regex")
});

/// An enumerator in parentheses standing between words (`as follows: (ii) Upon`): a list
/// marker whether it opens a line in one text or runs inline in the other.
static INLINE_ENUMERATOR: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?:^|[\s…])(\((?:[A-Za-z]|[ivxlcIVXLC]{1,6}|\d{1,3})\))(?:\s|$)")
        .expect("inline enumerator regex")
});

/// Byte ranges of `text` (relative) that hold no words of its sentences: page furniture and
/// enumerators (opening a line, or in parentheses between words). Sorted by start.
fn not_words(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = PAGE_ARTEFACT
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .chain(INLINE_ENUMERATOR.captures_iter(text).filter_map(|c| {
            let m = c.get(1)?;
            Some((m.start(), m.end()))
        }))
        .collect();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let lead = line.len()
            - line
                .trim_start_matches(|c: char| {
                    c.is_whitespace() || matches!(c, '>' | '*' | '#' | '|' | '_' | '•' | '-' | '+')
                })
                .len();
        if let Some(m) = ENUMERATOR.find(&line[lead..]) {
            out.push((at + lead, at + lead + m.end()));
        }
        at += line.len();
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
pub(super) mod not_words_tests {
    use super::*;

    /// The comparison keys of a text's words, pieces run together.
    pub(in crate::engine::citations) fn keys(text: &str) -> Vec<String> {
        words_in_pieces(text, 0)
            .into_iter()
            .flatten()
            .map(|w| w.key)
            .collect()
    }

    #[test]
    fn enumerators_and_page_furniture_are_not_words_possessives_stay_whole() {
        assert_eq!(keys("e) Is disclosed"), ["is", "disclosed"]);
        assert_eq!(
            keys("as follows: (ii) Upon a breach"),
            ["as", "follows", "upon", "a", "breach"]
        );
        assert_eq!(keys("  3.1.2 The Fund's books"), ["the", "fund's", "books"]);
        assert_eq!(
            keys("enters into ***Confidential Treatment Requested***\n\n- 12 -\n\nany composition"),
            ["enters", "into", "any", "composition"]
        );
        // Numbers that are words stay: a clause number inside a sentence, a count.
        assert_eq!(keys("Section 2(h) herein"), ["section", "2", "h", "herein"]);
        assert_eq!(
            keys("30 days after notice"),
            ["30", "days", "after", "notice"]
        );
    }
}

/// One word of a text: its matching form (lowercase, typography normalized) and its byte
/// range in the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Word {
    pub key: String,
    pub start: usize,
    pub end: usize,
}

/// The words of `text` (alphanumeric runs in matching space, a possessive `'s` part of its
/// word), with their pieces: a piece ends at each ellipsis (`...`, `…`). Page furniture and
/// line-opening enumerators are not words. Byte ranges are `base`-relative whole-text offsets.
pub(super) fn words_in_pieces(text: &str, base: usize) -> Vec<Vec<Word>> {
    let norm = normalize(text, base);
    let skip = not_words(text);
    let mut next_skip = 0;
    let mut pieces: Vec<Vec<Word>> = vec![Vec::new()];
    let t = norm.text.as_str();
    let mut i = 0;
    while i < t.len() {
        let rest = &t[i..];
        if rest.starts_with("...") {
            if !pieces.last().is_some_and(Vec::is_empty) {
                pieces.push(Vec::new());
            }
            i += rest.bytes().take_while(|&b| b == b'.').count();
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        if !c.is_alphanumeric() {
            i += c.len_utf8();
            continue;
        }
        let mut len: usize = rest
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .map(char::len_utf8)
            .sum();
        // "Company's", "B's": the possessive stays with its word.
        let after = &rest[len..];
        if after.starts_with("'s") && !after[2..].starts_with(char::is_alphanumeric) {
            len += 2;
        }
        let (a, b) = (i, i + len);
        i = b;
        let start = norm.src[a].0;
        while skip.get(next_skip).is_some_and(|&(_, e)| e + base <= start) {
            next_skip += 1;
        }
        if skip.get(next_skip).is_some_and(|&(s, _)| s + base <= start) {
            continue;
        }
        if let Some(piece) = pieces.last_mut() {
            piece.push(Word {
                key: t[a..b].to_string(),
                start,
                end: norm.src[b - 1].1,
            });
        }
    }
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// How a quote departs from the source at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Source words the quote leaves out without an ellipsis.
    Omission,
    /// Words the quote adds.
    Insertion,
    /// Source words the quote has other words for.
    Substitution,
}

/// One change: the source's words there and the quote's (either may be empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    pub source: String,
    pub quoted: String,
}

impl Change {
    /// "omits “of notice”", "adds “no”", "has “arise” for “rise”".
    pub fn describe(&self) -> String {
        match self.kind {
            ChangeKind::Omission => format!("omits “{}”", self.source),
            ChangeKind::Insertion => format!("adds “{}”", self.quoted),
            ChangeKind::Substitution => format!("has “{}” for “{}”", self.quoted, self.source),
        }
    }
}

/// The word diff of one piece: `quoted` against `source`, both as words of their texts.
pub(super) struct PieceDiff {
    pub changes: Vec<Change>,
    /// `git diff --word-diff` style: `[-source words-]`, `{+quoted words+}`.
    pub rendered: String,
    /// Words the two share in order.
    pub equal: usize,
}

pub(super) fn diff_piece(
    quoted: &[Word],
    quote_text: &str,
    source: &[Word],
    source_text: &str,
) -> PieceDiff {
    let qk: Vec<&str> = quoted.iter().map(|w| w.key.as_str()).collect();
    let sk: Vec<&str> = source.iter().map(|w| w.key.as_str()).collect();
    let shown = |words: &[Word], text: &str| {
        words
            .iter()
            .filter_map(|w| text.get(w.start..w.end))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = PieceDiff {
        changes: Vec::new(),
        rendered: String::new(),
        equal: 0,
    };
    let mut push = |s: &str| {
        if !s.is_empty() {
            if !out.rendered.is_empty() {
                out.rendered.push(' ');
            }
            out.rendered.push_str(s);
        }
    };
    let mut ops = capture_diff_slices(Algorithm::Myers, &sk, &qk);
    slide_omissions(&mut ops, source, source_text);
    for op in ops {
        let old = &source[op.old_range()];
        let new = &quoted[op.new_range()];
        let (s, q) = (shown(old, source_text), shown(new, quote_text));
        let kind = match op {
            DiffOp::Equal { len, .. } => {
                out.equal += len;
                push(&s);
                continue;
            }
            DiffOp::Delete { .. } => ChangeKind::Omission,
            DiffOp::Insert { .. } => ChangeKind::Insertion,
            DiffOp::Replace { .. } => ChangeKind::Substitution,
        };
        if !s.is_empty() {
            push(&format!("[-{s}-]"));
        }
        if !q.is_empty() {
            push(&format!("{{+{q}+}}"));
        }
        out.changes.push(Change {
            kind,
            source: s,
            quoted: q,
        });
    }
    out
}

/// An omission between two unchanged runs can often slide (`agreement (the "Agreement")` →
/// the quote's `agreement`: which `agreement` went?). Put it where the source's punctuation
/// sets the dropped words apart — a parenthetical, a clause between commas — so the diff
/// names the words the quote really left out.
fn slide_omissions(ops: &mut [DiffOp], source: &[Word], text: &str) {
    let gap = |a: usize, b: usize| text.get(source[a].end..source[b].start).unwrap_or("");
    // Punctuation before the run's first word and after its last word.
    let score = |a: usize, b: usize| {
        let before = a > 0 && gap(a - 1, a).contains(['(', ',', ';', '[']);
        let after = b < source.len() && gap(b - 1, b).contains([')', ',', ';', ']']);
        usize::from(before) + usize::from(after)
    };
    for k in 1..ops.len().saturating_sub(1) {
        let (
            DiffOp::Equal { len: before, .. },
            DiffOp::Delete {
                old_index, old_len, ..
            },
            DiffOp::Equal { len: after, .. },
        ) = (ops[k - 1], ops[k], ops[k + 1])
        else {
            continue;
        };
        let same = |x: usize, y: usize| source[x].key == source[y].key;
        let mut left = 0;
        while left < before && same(old_index - left - 1, old_index + old_len - left - 1) {
            left += 1;
        }
        let mut right = 0;
        while right < after && same(old_index + right, old_index + old_len + right) {
            right += 1;
        }
        let start = old_index - left;
        let Some(best) = (0..=left + right)
            .map(|d| start + d)
            .max_by_key(|&a| (score(a, a + old_len), a == old_index))
        else {
            continue;
        };
        if best == old_index {
            continue;
        }
        let shift = best as isize - old_index as isize;
        let moved = |op: DiffOp, by: isize, grow: isize| match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => DiffOp::Equal {
                old_index: old_index.wrapping_add_signed(by),
                new_index: new_index.wrapping_add_signed(by),
                len: len.wrapping_add_signed(grow),
            },
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => DiffOp::Delete {
                old_index: old_index.wrapping_add_signed(by),
                old_len,
                new_index: new_index.wrapping_add_signed(by),
            },
            other => other,
        };
        ops[k - 1] = moved(ops[k - 1], 0, shift);
        ops[k] = moved(ops[k], shift, 0);
        ops[k + 1] = moved(ops[k + 1], shift, -shift);
    }
}

/// A word diff in `git diff --word-diff` style: `[-words the text has-]` where the quote
/// dropped or changed them, `{+words the quote added+}`; words only (punctuation, case and
/// markdown are not changes). When the quote and the text have the same number of pieces
/// between ellipses, each piece is compared with its own, so an ellipsis is never blamed
/// for the words it stands for.
pub fn word_diff(quoted: &str, text: &str) -> String {
    let q = words_in_pieces(quoted, 0);
    let t = words_in_pieces(text, 0);
    if q.len() == t.len() {
        q.iter()
            .zip(&t)
            .map(|(qp, tp)| diff_piece(qp, quoted, tp, text).rendered)
            .collect::<Vec<_>>()
            .join(" … ")
    } else {
        let flat = |p: Vec<Vec<Word>>| p.into_iter().flatten().collect::<Vec<_>>();
        diff_piece(&flat(q), quoted, &flat(t), text).rendered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_word_and_an_inserted_word_are_marked() {
        let text = "The Supplier shall promptly notify the Customer in writing.";
        let quoted = "The Supplier shall notify the Customer immediately in writing.";
        assert_eq!(
            word_diff(quoted, text),
            "The Supplier shall [-promptly-] notify the Customer {+immediately+} in writing"
        );
    }

    #[test]
    fn identical_words_have_no_marks_whatever_the_punctuation_and_markdown() {
        let t = "no change here";
        assert_eq!(word_diff(t, t), t);
        assert_eq!(word_diff("**No** change, here.", t), "no change here");
    }

    #[test]
    fn an_ellipsis_is_not_blamed_for_the_words_it_stands_for() {
        let text = "The Company shall pay … within thirty days of the invoice";
        let quoted = "The Company shall pay ... within thirty days of invoice";
        assert_eq!(
            word_diff(quoted, text),
            "The Company shall pay … within thirty days of [-the-] invoice"
        );
    }

    #[test]
    fn a_dropped_parenthetical_is_named_as_the_source_sets_it_apart() {
        let text =
            "for the period of this agreement (the \"Agreement\"), the principal underwriter";
        let quoted = "for the period of this agreement, the principal underwriter";
        assert_eq!(
            word_diff(quoted, text),
            "for the period of this agreement [-the Agreement-] the principal underwriter"
        );
    }

    #[test]
    fn a_substitution_names_both_words() {
        let q = words_in_pieces("which may arise out of any", 0);
        let s = words_in_pieces("which may rise out of any", 0);
        let d = diff_piece(
            &q[0],
            "which may arise out of any",
            &s[0],
            "which may rise out of any",
        );
        assert_eq!(d.changes.len(), 1);
        assert_eq!(d.changes[0].describe(), "has “arise” for “rise”");
        assert_eq!(d.equal, 5);
    }
}
