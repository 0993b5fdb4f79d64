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

/// Line starts of a text, for O(log n) conversions.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            line_starts,
            len: text.len(),
        }
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
        }
        if end > self.line_start(line) && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
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
        let segment = &text[start..offset];
        let character = match enc {
            Encoding::Utf8 => segment.len(),
            Encoding::Utf16 => segment.chars().map(char::len_utf16).sum(),
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
        let line = &text[start..end];
        let mut units = 0u32;
        for (i, ch) in line.char_indices() {
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
}

pub fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
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
}
