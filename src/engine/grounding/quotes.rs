//! Passages an output presents as quoted: “…”, "…", «…», „…“ and the other quotation marks
//! of `closing` (paired within a line), and `>` block quotes. Whether a quote is a claim about the source (not a clause the AI drafted) is the
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
            .trim_matches(|c| is_quote_mark(c) || matches!(c, '*' | ' '));
        if inner.len() < b.text.len() && !inner.contains(is_quote_mark) {
            out.push(Quote {
                text: inner.to_string(),
                ..b
            });
        } else if inner.contains(is_quote_mark) {
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

/// The marks that close a quotation opened by `open`, or `None` when `open` opens none.
/// English “…” and "…", the guillemets of French, Russian and Swiss writing («…», ‹…›, and
/// the Danish and German »…«), German and Polish „…“ / „…”, fullwidth ＂…＂, 〝…〞, ❝…❞, the
/// double prime ″…″ and ʺ…ʺ, Hebrew ״…״, CJK 「…」 and 『…』, and curly single ‘…’.
fn closing(open: char) -> Option<&'static [char]> {
    Some(match open {
        '"' => &['"'],
        '“' => &['”', '"'],
        '«' => &['»'],
        '»' => &['«'],
        '‹' => &['›'],
        '„' => &['“', '”'],
        '＂' => &['＂'],
        '〝' => &['〞', '〟'],
        '❝' => &['❞'],
        '″' => &['″'],
        'ʺ' => &['ʺ'],
        '״' => &['״'],
        '「' => &['」'],
        '『' => &['』'],
        '‘' => &['’'],
        _ => return None,
    })
}

/// Every double or angle mark that opens or closes a quotation (for a block quote's own
/// marks). Curly single marks are left out: ’ is also the apostrophe of "Consultant’s".
fn is_quote_mark(c: char) -> bool {
    (closing(c).is_some() && c != '‘') || matches!(c, '”' | '›' | '〞' | '〟' | '❞' | '」' | '』')
}

/// Quotations within one line, each closed by its own marks; straight quotes pair in order.
/// A curly ’ inside a word ("Supplier’s") is an apostrophe, not a closing mark. A mark left
/// open at the end of the line ("Home » Contracts") opens nothing: the rest of the line after
/// it is read again without that mark (at most once per kind of mark, so still linear).
fn inline(line: &str, base: usize, out: &mut Vec<Quote>) {
    let mut from = 0;
    let mut unpaired: Vec<char> = Vec::new();
    while let Some((s, o)) = inline_from(line, from, &unpaired, base, out) {
        unpaired.push(o);
        from = s + o.len_utf8();
    }
}

/// One pass of `inline` from `from`, not opening at `unpaired` marks; the mark left open at
/// the end of the line, if one is.
fn inline_from(
    line: &str,
    from: usize,
    unpaired: &[char],
    base: usize,
    out: &mut Vec<Quote>,
) -> Option<(usize, char)> {
    let mut open: Option<(usize, char)> = None;
    let mut chars = line[from..]
        .char_indices()
        .map(|(i, c)| (from + i, c))
        .peekable();
    while let Some((i, ch)) = chars.next() {
        let next = chars.peek().map(|&(_, c)| c);
        match open {
            None => {
                if closing(ch).is_some() && !unpaired.contains(&ch) {
                    open = Some((i, ch));
                }
            }
            Some((s, o)) => {
                let closes = closing(o).is_some_and(|c| c.contains(&ch))
                    && !(ch == '’' && next.is_some_and(char::is_alphanumeric));
                if closes {
                    let inner_start = s + o.len_utf8();
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
            }
        }
    }
    open
}
