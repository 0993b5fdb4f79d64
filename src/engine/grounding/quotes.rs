//! Passages an output presents as quoted: “…”, "…" (paired within a line) and `>` block
//! quotes. Whether a quote is a claim about the source (not a clause the AI drafted) is the
//! caller's decision; see `rules::grounding`.

/// A quoted passage: `start..end` covers the words inside the marks (whole-text offsets);
/// `text` is the words (a block quote's lines joined, markers dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub block: bool,
}

impl Quote {
    pub fn words(&self) -> usize {
        self.text
            .split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .count()
    }
}

/// Longer "quotes" are unbalanced quotation marks.
const MAX_INLINE: usize = 2000;

/// Quotes in `text[range]`, in order.
pub fn extract_in(text: &str, range: (usize, usize)) -> Vec<Quote> {
    let end = range.1.min(text.len());
    let start = range.0.min(end);
    let Some(hay) = text.get(start..end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut offset = start;
    let mut block: Option<Quote> = None;
    // The lines of the open block quote, for a block that is commentary with quotes in it.
    let mut block_lines: Vec<(usize, &str)> = Vec::new();
    let mut in_fence = false;
    for line in hay.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('>') {
            let content = rest.trim();
            // A label line inside the block ("**Current:**") introduces the quote.
            let label = content.trim_matches(|c| c == '*' || c == '_').trim();
            let content = if label.ends_with(':') && label.split_whitespace().count() <= 4 {
                ""
            } else {
                content
            };
            let cstart = line_start
                + (line.len() - trimmed.len())
                + 1
                + (rest.len() - rest.trim_start().len());
            block_lines.push((line_start, line));
            let b = block.get_or_insert(Quote {
                start: cstart,
                end: cstart,
                text: String::new(),
                block: true,
            });
            if !content.is_empty() {
                if !b.text.is_empty() {
                    b.text.push(' ');
                }
                b.text.push_str(content);
                b.end = cstart + content.len();
            }
            continue;
        }
        if let Some(b) = block.take() {
            push_block(b, &block_lines, &mut out);
            block_lines.clear();
        }
        inline(line, line_start, &mut out);
    }
    if let Some(b) = block.take() {
        push_block(b, &block_lines, &mut out);
    }
    out
}

fn push_block(b: Quote, lines: &[(usize, &str)], out: &mut Vec<Quote>) {
    // A block quote that itself is one quoted passage is handled as inline quotes.
    if !b.text.is_empty() {
        let inner = b
            .text
            .trim_matches(|c| matches!(c, '"' | '“' | '”' | '*' | ' '));
        if inner.len() < b.text.len() && !inner.contains(['"', '“', '”']) {
            out.push(Quote {
                text: inner.to_string(),
                ..b
            });
        } else if inner.contains(['"', '“', '”']) {
            // Commentary in a block quote that quotes inside it: its inline quotes are the
            // quoted passages, not the whole block.
            for &(at, line) in lines {
                inline(line, at, out);
            }
        } else {
            out.push(b);
        }
    }
}

/// “…” and "…" within one line; straight quotes pair in order.
fn inline(line: &str, base: usize, out: &mut Vec<Quote>) {
    let mut open: Option<(usize, char)> = None;
    for (i, ch) in line.char_indices() {
        match (open, ch) {
            (None, '"' | '“') => open = Some((i, ch)),
            (Some((s, '"')), '"') | (Some((s, '“')), '”' | '"') => {
                let inner_start = s + line[s..].chars().next().map_or(1, char::len_utf8);
                if i - inner_start <= MAX_INLINE && i > inner_start {
                    out.push(Quote {
                        start: base + inner_start,
                        end: base + i,
                        text: line[inner_start..i].to_string(),
                        block: false,
                    });
                }
                open = None;
            }
            _ => {}
        }
    }
}
