//! A block's text as a reader reads it: the delimiters of emphasis, strong and
//! strike-through (`**`, `_`, `~~`) left out, every byte mapped back to the document.
//!
//! A sentence written `**Engage a Delaware attorney** to review **compliance**` reads
//! "Engage a Delaware attorney to review compliance"; patterns over words match the reading
//! and cite the document's own span.

use super::{BlockId, InlineKind, Layout, Span};

/// The reading of one block's own text.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub text: String,
    /// Document offset of each byte of `text`, and one past the last.
    map: Vec<usize>,
}

impl Reading {
    /// The document span that `text[start..end]` was read from (delimiters inside included).
    pub fn span(&self, start: usize, end: usize) -> Span {
        if end > start {
            (self.map[start], self.map[end - 1] + 1)
        } else {
            (self.map[start], self.map[start])
        }
    }
}

impl Layout {
    /// `id`'s own text without emphasis, strong and strike-through delimiters; `None` when
    /// the block has no text of its own or none to leave out (its text reads as written).
    pub fn reading(&self, text: &str, id: BlockId) -> Option<Reading> {
        let (s, e) = self.block(id).text?;
        let mut drop = vec![false; e - s];
        let mut any = false;
        for inline in self.inlines_of(id) {
            let (is, ie) = inline.span;
            let k = match inline.kind {
                InlineKind::Emphasis => 1,
                InlineKind::Strong => 2,
                InlineKind::Strikethrough => {
                    1 + usize::from(text[is..ie].starts_with("~~") && text[is..ie].ends_with("~~"))
                }
                _ => continue,
            };
            let run = &text[is..ie];
            let delim = |b: u8| matches!(b, b'*' | b'_' | b'~');
            if ie - is < 2 * k
                || is < s
                || ie > e
                || !run.bytes().take(k).all(delim)
                || !run.bytes().rev().take(k).all(delim)
            {
                continue;
            }
            for i in (is..is + k).chain(ie - k..ie) {
                drop[i - s] = true;
            }
            any = true;
        }
        if !any {
            return None;
        }
        let mut reading = Reading {
            text: String::with_capacity(e - s),
            map: Vec::with_capacity(e - s + 1),
        };
        for (i, ch) in text[s..e].char_indices() {
            if drop[i] {
                continue;
            }
            reading.text.push(ch);
            reading.map.extend((0..ch.len_utf8()).map(|j| s + i + j));
        }
        reading.map.push(e);
        Some(reading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(t: &str) -> Option<(String, Layout)> {
        let l = Layout::markdown(t, (0, t.len()));
        let (id, _) = l.blocks().find(|(_, b)| b.text.is_some())?;
        l.reading(t, id).map(|r| (r.text, l))
    }

    #[test]
    fn strong_and_emphasis_delimiters_are_left_out() {
        let t = "1. **Engage a Delaware attorney** to review _governing law_ ~~now~~ compliance.";
        assert_eq!(
            read(t).unwrap().0,
            "Engage a Delaware attorney to review governing law now compliance."
        );
        assert_eq!(read("***both*** here").unwrap().0, "both here");
    }

    #[test]
    fn plain_text_and_literal_stars_read_as_written() {
        assert!(read("No markup in this sentence.").is_none());
        assert!(read("The fee is [*****] per unit and 2 * 3 = 6.").is_none());
    }

    #[test]
    fn a_span_of_the_reading_maps_back_to_the_document() {
        let t = "- The exhibits were **not provided** to us.";
        let l = Layout::markdown(t, (0, t.len()));
        let (id, _) = l.blocks().find(|(_, b)| b.text.is_some()).unwrap();
        let r = l.reading(t, id).unwrap();
        let at = r.text.find("were not provided").unwrap();
        let (s, e) = r.span(at, at + "were not provided".len());
        assert_eq!(&t[s..e], "were **not provided");
        let end = r.text.len();
        assert_eq!(r.span(end, end), (t.len(), t.len()));
    }
}
