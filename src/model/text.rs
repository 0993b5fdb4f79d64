//! Byte offsets ⇄ line/character positions, in UTF-16 (LSP default) or UTF-8.
//!
//! The engine works in byte offsets; front ends convert at the edge.

use serde::{Deserialize, Serialize};

#[derive(
    Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    Utf16,
    Utf8,
}

/// Line starts of a text, for O(log n) conversions, whatever the length of a line.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
    /// Each non-ASCII character: its byte offset and the running total, up to and including
    /// it, of (UTF-8 bytes − UTF-16 units). A UTF-16 column is then bytes minus the deficit
    /// between two offsets, found by binary search (no scan of the line per conversion).
    non_ascii: Vec<(usize, usize)>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut deficit = 0;
        let non_ascii = text
            .char_indices()
            .filter(|(_, c)| !c.is_ascii())
            .map(|(i, c)| {
                deficit += c.len_utf8() - c.len_utf16();
                (i, deficit)
            })
            .collect();
        LineIndex {
            line_starts,
            len: text.len(),
            non_ascii,
        }
    }

    /// Total (UTF-8 bytes − UTF-16 units) of the characters starting before `offset`.
    fn deficit(&self, offset: usize) -> usize {
        let i = self.non_ascii.partition_point(|&(p, _)| p < offset);
        if i == 0 { 0 } else { self.non_ascii[i - 1].1 }
    }

    /// UTF-16 units of `text[start..offset]` (both character boundaries).
    fn utf16_len(&self, start: usize, offset: usize) -> usize {
        (offset - start) - (self.deficit(offset) - self.deficit(start))
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where `line` starts (clamped to the end of the text).
    pub fn line_start(&self, line: u32) -> usize {
        self.line_starts
            .get(line as usize)
            .copied()
            .unwrap_or(self.len)
    }

    /// Byte offset where `line` ends, excluding its `\n` (and a `\r` before it).
    pub fn line_end(&self, text: &str, line: u32) -> usize {
        let next = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.len);
        let mut end = next;
        if end > self.line_start(line) && text.as_bytes().get(end - 1) == Some(&b'\n') {
            end -= 1;
            // `\r\n` ends the line; a lone `\r` (even the text's last byte) is text, as
            // for the language server's rope (found by the `incremental_edits` fuzzer).
            if end > self.line_start(line) && text.as_bytes().get(end - 1) == Some(&b'\r') {
                end -= 1;
            }
        }
        end
    }

    pub fn line_of(&self, offset: usize) -> u32 {
        (self.line_starts.partition_point(|&s| s <= offset) - 1) as u32
    }

    /// Position of a byte offset. An offset inside a character snaps back to its start.
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let character = match enc {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => self.utf16_len(start, offset),
        } as u32;
        Position { line, character }
    }

    pub fn range(&self, text: &str, start: usize, end: usize, enc: Encoding) -> Range {
        Range {
            start: self.position(text, start, enc),
            end: self.position(text, end, enc),
        }
    }

    /// Byte offset of a position; positions past the end of a line clamp to it (LSP rule).
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> usize {
        if pos.line as usize >= self.line_starts.len() {
            return self.len;
        }
        let start = self.line_start(pos.line);
        let end = self.line_end(text, pos.line);
        let c = pos.character as usize;
        let b = match enc {
            // The first character boundary at or after `c` bytes.
            Encoding::Utf8 => ceil_char_boundary(text, start.saturating_add(c).min(end)),
            Encoding::Utf16 => self.utf16_offset(text, start, end, c),
        };
        b.min(end)
    }

    /// The first character boundary `b` in the line `start..end` with at least `c` UTF-16
    /// units in `start..b` (or `end`), in O(log n): binary search over the line's non-ASCII
    /// characters, then plain arithmetic over the ASCII run that follows.
    fn utf16_offset(&self, text: &str, start: usize, end: usize, c: usize) -> usize {
        let lo = self.non_ascii.partition_point(|&(p, _)| p < start);
        let hi = self.non_ascii.partition_point(|&(p, _)| p < end);
        let line = &self.non_ascii[lo..hi];
        // Non-ASCII characters of the line that start before `c` units.
        let j = line.partition_point(|&(q, _)| self.utf16_len(start, q) < c);
        if j == 0 {
            return start.saturating_add(c);
        }
        let q = line[j - 1].0;
        let ch = text[q..]
            .chars()
            .next()
            .expect("a character at a recorded offset");
        let after = q + ch.len_utf8();
        let units = self.utf16_len(start, q) + ch.len_utf16();
        if units >= c {
            after
        } else {
            after + (c - units)
        }
    }

    /// The conversion by a plain scan of the line: the reference the indexed one is
    /// tested against.
    #[doc(hidden)]
    pub fn offset_by_scan(&self, text: &str, pos: Position, enc: Encoding) -> usize {
        if pos.line as usize >= self.line_starts.len() {
            return self.len;
        }
        let start = self.line_start(pos.line);
        let end = self.line_end(text, pos.line);
        let mut units = 0u32;
        for (i, ch) in text[start..end].char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += match enc {
                Encoding::Utf8 => ch.len_utf8() as u32,
                Encoding::Utf16 => ch.len_utf16() as u32,
            };
        }
        end
    }

    /// [`LineIndex::position`] by a plain scan of the line (test reference).
    #[doc(hidden)]
    pub fn position_by_scan(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let segment = &text[self.line_start(line)..offset];
        let character = match enc {
            Encoding::Utf8 => segment.len(),
            Encoding::Utf16 => segment.chars().map(char::len_utf16).sum(),
        } as u32;
        Position { line, character }
    }
}

pub fn ceil_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

pub fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The text up to `before` bytes ahead of `text[start..end]` and up to `after` bytes behind
/// it, each cut at a character boundary inside the window.
pub fn around(
    text: &str,
    (start, end): (usize, usize),
    before: usize,
    after: usize,
) -> (&str, &str) {
    let b = ceil_char_boundary(text, start.saturating_sub(before));
    let a = floor_char_boundary(text, end.saturating_add(after).min(text.len()));
    (&text[b..start], &text[end..a])
}

#[cfg(test)]
mod tests {

    #[test]
    fn around_cuts_its_windows_inside_characters() {
        let t = "é€ Section 5 ü€";
        let s = t.find("Section").unwrap();
        let e = s + "Section 5".len();
        // 4 bytes ahead reach into 'é' (2 bytes) + '€' (3) + ' ': the window starts at '€'.
        assert_eq!(around(t, (s, e), 5, 4), ("€ ", " ü"));
        assert_eq!(around(t, (s, e), 100, 100), ("é€ ", " ü€"));
        assert_eq!(around(t, (0, 2), 10, 0), ("", ""));
    }

    #[test]
    fn a_lone_cr_is_text_even_at_the_end() {
        for (text, end) in [("a\r", 2), ("a\r\n", 1), ("a\n", 1), ("\r", 1), ("a\rb", 3)] {
            let idx = LineIndex::new(text);
            assert_eq!(idx.line_end(text, 0), end, "{text:?}");
        }
    }

    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        let text = "a😀b\nçd";
        let idx = LineIndex::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(
            idx.position(text, b, Encoding::Utf16),
            Position {
                line: 0,
                character: 3
            }
        );
        assert_eq!(
            idx.position(text, b, Encoding::Utf8),
            Position {
                line: 0,
                character: 5
            }
        );
        let d = text.find('d').unwrap();
        assert_eq!(
            idx.position(text, d, Encoding::Utf16),
            Position {
                line: 1,
                character: 1
            }
        );
        assert_eq!(
            idx.position(text, d, Encoding::Utf8),
            Position {
                line: 1,
                character: 2
            }
        );
    }

    #[test]
    fn offset_round_trips_and_clamps() {
        let text = "first line\r\nsé😀cond\nthird";
        let idx = LineIndex::new(text);
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            for (i, ch) in text.char_indices() {
                let p = idx.position(text, i, enc);
                let back = idx.offset(text, p, enc);
                // \r and \n sit past the line end, where positions clamp
                if ch != '\r' && ch != '\n' {
                    assert_eq!(back, i, "offset {i} via {p:?} in {enc:?}");
                }
            }
        }
        // past the end of line 0 clamps to before \r\n
        assert_eq!(
            idx.offset(
                text,
                Position {
                    line: 0,
                    character: 99
                },
                Encoding::Utf16
            ),
            10
        );
        // past the last line clamps to the end of the text
        assert_eq!(
            idx.offset(
                text,
                Position {
                    line: 9,
                    character: 0
                },
                Encoding::Utf16
            ),
            text.len()
        );
    }

    #[test]
    fn offset_inside_a_character_snaps_back() {
        let text = "é";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 1, Encoding::Utf8).character, 0);
    }

    #[test]
    fn indexed_conversions_equal_the_line_scan() {
        let text = "ab\u{e9}\u{1F600}c\r\n\u{1F600}\u{1F600}\nplain ascii line\n\u{ab}x\u{bb} \u{2014} y\n\n";
        let idx = LineIndex::new(text);
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            for off in 0..=text.len() + 2 {
                assert_eq!(
                    idx.position(text, off, enc),
                    idx.position_by_scan(text, off, enc),
                    "offset {off} {enc:?}"
                );
            }
            for line in 0..7 {
                for character in 0..30 {
                    let p = Position { line, character };
                    assert_eq!(
                        idx.offset(text, p, enc),
                        idx.offset_by_scan(text, p, enc),
                        "{p:?} {enc:?}"
                    );
                }
            }
        }
    }
}
