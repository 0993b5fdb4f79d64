//! Passages an output presents as quoted: “…”, "…", «…», „…“ and the other quotation marks
//! of `closing` (paired within a line), and `>` block quotes. Whether a quote is a claim about the source (not a clause the AI drafted) is the
//! caller's decision; see `rules::grounding`. Which lines are code or a block quote is the
//! document's layout's answer, not this module's.

use crate::engine::document::Layout;
use crate::engine::document::layout::{BlockId, BlockKind};

/// A quoted passage: `start..end` covers the words inside the marks (whole-text offsets);
/// `text` is the words (a block quote's lines joined, markers dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub block: bool,
    /// A block quote whose last line names where its words are from ("— Section 5"): it
    /// quotes the source. That line is left out of `text` and the span.
    pub attributed: bool,
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

/// Quotes in `text[range]`, in order. `layout` is the document's (built over a range holding
/// `range`): it says which lines are code, which belong to a block quote and to which one, so
/// that a quote block is the marked lines a markdown renderer shows as one quote (a `>` inside
/// a code block is none).
pub fn extract_in(text: &str, range: (usize, usize), layout: &Layout) -> Vec<Quote> {
    let end = range.1.min(text.len());
    let start = range.0.min(end);
    let Some(hay) = text.get(start..end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut offset = start;
    // The open block quote and the layout's outermost block-quote node it is.
    let mut block: Option<(Quote, BlockId)> = None;
    // The lines of the open block quote, for a block that is commentary with quotes in it.
    let mut block_lines: Vec<(usize, &str)> = Vec::new();
    let mut html_block: Option<Quote> = None;
    for line in hay.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let lead = line_start + (line.len() - trimmed.len());
        let blank = trimmed.trim_end().is_empty();
        // A fenced code block holds no quotation. An indented one is read: reviews indent
        // the contract's text they reproduce, and a renderer's code box is no reason to
        // leave a quote unexamined.
        let fenced = |k: &BlockKind| matches!(k, BlockKind::CodeBlock { fenced: true, .. });
        if !blank && layout.within(lead, fenced) {
            continue;
        }
        // HTML's block quotation: the text between `<blockquote>` and `</blockquote>`, on
        // one line or several, tags left out.
        if html_block.is_some() || starts_html_blockquote(trimmed) {
            html_line(line, line_start, &mut html_block, &mut out);
            continue;
        }
        // A line of a block quote that carries its `>` marker: a lazy continuation line
        // (no marker) is shown inside the quote by a renderer, but the writer did not mark
        // it, and in reviews it is the commentary after the quote.
        let marked = trimmed.starts_with('>');
        if let Some(quote) = marked.then(|| outer_block_quote(layout, lead)).flatten() {
            if block.as_ref().is_some_and(|(_, id)| *id != quote)
                && let Some((b, _)) = block.take()
            {
                push_block(b, &block_lines, &mut out);
                block_lines.clear();
            }
            let rest = &trimmed[1..];
            let content = rest.trim();
            // A label line inside the block ("**Current:**") introduces the quote.
            let label = content.trim_matches(|c| c == '*' || c == '_').trim();
            let content = if label.ends_with(':') && label.split_whitespace().count() <= 4 {
                ""
            } else {
                content
            };
            let cstart = lead + 1 + (rest.len() - rest.trim_start().len());
            block_lines.push((line_start, line));
            let (b, _) = block.get_or_insert((
                Quote {
                    start: cstart,
                    end: cstart,
                    text: String::new(),
                    block: true,
                    attributed: false,
                },
                quote,
            ));
            if !content.is_empty() {
                if !b.text.is_empty() {
                    b.text.push(' ');
                }
                b.text.push_str(content);
                b.end = cstart + content.len();
            }
            continue;
        }
        if let Some((b, _)) = block.take() {
            push_block(b, &block_lines, &mut out);
            block_lines.clear();
        }
        inline(line, line_start, &mut out);
    }
    if let Some((b, _)) = block.take() {
        push_block(b, &block_lines, &mut out);
    }
    if let Some(b) = html_block.filter(|b| !b.text.is_empty()) {
        out.push(b);
    }
    out
}

/// The outermost block quote holding `offset`, if one does.
fn outer_block_quote(layout: &Layout, offset: usize) -> Option<BlockId> {
    let id = layout.block_at(offset)?;
    layout
        .ancestors(id)
        .filter(|(_, b)| b.kind == BlockKind::BlockQuote)
        .last()
        .map(|(id, _)| id)
}

/// One line of an HTML `<blockquote>`: its words join the open quotation (opened by this
/// line when none is), which is pushed when the line closes it.
fn html_line(line: &str, line_start: usize, html_block: &mut Option<Quote>, out: &mut Vec<Quote>) {
    let lower = line.to_ascii_lowercase();
    let from = if html_block.is_none() {
        let open = lower.find("<blockquote").unwrap_or(0);
        lower[open..].find('>').map_or(line.len(), |j| open + j + 1)
    } else {
        0
    };
    let until = lower[from..].find("</blockquote>").map(|j| from + j);
    let b = html_block.get_or_insert(Quote {
        start: line_start + from,
        end: line_start + from,
        text: String::new(),
        block: true,
        attributed: false,
    });
    let part = &line[from..until.unwrap_or(line.len())];
    let words = strip_tags(part);
    if !words.trim().is_empty() {
        if !b.text.is_empty() {
            b.text.push(' ');
        }
        b.text.push_str(words.trim());
        b.end = line_start + from + part.trim_end().len();
    }
    if until.is_some()
        && let Some(b) = html_block.take()
        && !b.text.is_empty()
    {
        out.push(b);
    }
}

/// Does this line open an HTML `<blockquote>` (any case, with attributes)?
fn starts_html_blockquote(trimmed: &str) -> bool {
    trimmed
        .get(..11)
        .is_some_and(|t| t.eq_ignore_ascii_case("<blockquote"))
        && trimmed[11..]
            .chars()
            .next()
            .is_some_and(|c| c == '>' || c.is_whitespace())
}

/// `s` without its HTML tags (`<p>`, `</em>`): the words a reader sees.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn push_block(mut b: Quote, lines: &[(usize, &str)], out: &mut Vec<Quote>) {
    attribution_after(&mut b, lines);
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

/// A block's last line that names where its words are from ("— Section 5") is left out of
/// its text and span, and marks the block as quoting the source.
fn attribution_after(b: &mut Quote, lines: &[(usize, &str)]) {
    use super::lexicon::QUOTE_ATTRIBUTION_AFTER;
    let Some(m) = QUOTE_ATTRIBUTION_AFTER.find(&b.text) else {
        return;
    };
    let content = |l: &str| {
        l.trim_start()
            .strip_prefix('>')
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let mut with_text = lines.iter().rev().filter(|(_, l)| !content(l).is_empty());
    let cut = b.text.len() - m.start();
    let end = match (with_text.next(), with_text.next()) {
        // The attribution is a line of its own: the quote ends with the line before it.
        (Some((_, last)), Some(&(at, prev))) if content(last).len() <= cut => {
            at + prev.trim_end().len()
        }
        _ => b.end.saturating_sub(cut),
    };
    b.text.truncate(m.start());
    b.text.truncate(b.text.trim_end().len());
    b.end = end.max(b.start);
    b.attributed = true;
}

/// The marks that close a quotation opened by `open`, or `None` when `open` opens none.
/// English “…” and "…", the guillemets of French, Russian and Swiss writing («…», ‹…›, and
/// the Danish and German »…«), German and Polish „…“ / „…”, fullwidth ＂…＂, 〝…〞, ❝…❞, the
/// double prime ″…″ and ʺ…ʺ, Hebrew ״…״, CJK 「…」 and 『…』, curly single ‘…’, and the
/// German and Polish single low mark ‚…‘ / ‚…’.
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
        '‚' => &['‘', '’'],
        '\'' => &['\''],
        _ => return None,
    })
}

/// Every double or angle mark that opens or closes a quotation (for a block quote's own
/// marks). Curly single marks are left out: ’ is also the apostrophe of "Consultant’s".
fn is_quote_mark(c: char) -> bool {
    (closing(c).is_some() && !matches!(c, '‘' | '\''))
        || matches!(c, '”' | '›' | '〞' | '〟' | '❞' | '」' | '』')
}

/// Quotations within one line, each closed by its own marks; straight quotes pair in order.
/// A curly ’ inside a word ("Supplier’s") is an apostrophe, not a closing mark. A mark left
/// open at the end of the line ("Home » Contracts") opens nothing: the rest of the line after
/// it is read again without that mark (at most once per kind of mark, so still linear).
fn inline(line: &str, base: usize, out: &mut Vec<Quote>) {
    html_quotes(line, base, out);
    let mut from = 0;
    let mut unpaired: Vec<char> = Vec::new();
    while let Some((s, o)) = inline_from(line, from, &unpaired, base, out) {
        unpaired.push(o);
        from = s + o.len_utf8();
    }
}

/// HTML's inline quotation, `<q>…</q>` (any case, with attributes), within one line: a
/// renderer shows it in quotation marks.
fn html_quotes(line: &str, base: usize, out: &mut Vec<Quote>) {
    if !line.contains('<') {
        return;
    }
    let lower = line.to_ascii_lowercase();
    let mut at = 0;
    while let Some(i) = lower[at..].find("<q").map(|i| at + i) {
        let after = lower[i + 2..].chars().next();
        let Some(open_end) = (after.is_some_and(|c| c == '>' || c.is_whitespace()))
            .then(|| lower[i..].find('>').map(|j| i + j + 1))
            .flatten()
        else {
            at = i + 2;
            continue;
        };
        let Some(close) = lower[open_end..].find("</q>").map(|j| open_end + j) else {
            return;
        };
        if close > open_end && close - open_end <= MAX_INLINE {
            out.push(Quote {
                start: base + open_end,
                end: base + close,
                text: line[open_end..close].to_string(),
                block: false,
                attributed: false,
            });
        }
        at = close + 4;
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
    let mut prev: Option<char> = line[..from].chars().next_back();
    while let Some((i, ch)) = chars.next() {
        let next = chars.peek().map(|&(_, c)| c);
        let before = prev.replace(ch);
        match open {
            None => {
                // A straight ' opens only at the start of a word, after a space or an
                // opening bracket or colon ("provides: 'the Supplier …'"), never inside one
                // ("Supplier's", "parties'").
                let single_opens = ch != '\''
                    || (before.is_none_or(|b| b.is_whitespace() || "([{:—–".contains(b))
                        && next.is_some_and(char::is_alphanumeric));
                if closing(ch).is_some() && !unpaired.contains(&ch) && single_opens {
                    open = Some((i, ch));
                }
            }
            Some((s, o)) => {
                let closes = closing(o).is_some_and(|c| c.contains(&ch))
                    && !(ch == '’' && next.is_some_and(char::is_alphanumeric))
                    && !(ch == '\''
                        && (next.is_some_and(char::is_alphanumeric)
                            || before.is_none_or(char::is_whitespace)));
                if closes {
                    let inner_start = s + o.len_utf8();
                    if i - inner_start <= MAX_INLINE && i > inner_start {
                        out.push(Quote {
                            start: base + inner_start,
                            end: base + i,
                            text: line[inner_start..i].to_string(),
                            block: false,
                            attributed: false,
                        });
                    }
                    open = None;
                }
            }
        }
    }
    open
}
