//! The one sentence splitter: sentences of a block's own text.

use super::Span;

/// Sentences of `text[span]` (trimmed, none empty): a sentence ends at `.`, `!`, `?` or `;`
/// followed by white space (closing quotes, brackets and emphasis marks after the stop
/// stay with it) unless the word before is an abbreviation ("e.g.", "Sec.", "Inc.", an
/// initial); and before a line that starts a list item, heading, table row or quote
/// (in text a parser left as one paragraph, e.g. "2. …" under a line of prose); and at a
/// blank line.
pub fn split_sentences(text: &str, (lo, hi): Span) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = lo;
    let mut i = lo;
    while i < hi {
        let c = bytes[i];
        if matches!(c, b'.' | b'!' | b'?' | b';') {
            let mut end = i + 1;
            while end < hi && matches!(bytes[end], b'"' | b'\'' | b')' | b']' | b'*' | b'_') {
                end += 1;
            }
            // Curly closing quotes (3 bytes each).
            while text[end..hi].starts_with(['”', '’']) {
                end += 3;
            }
            if (end >= hi || bytes[end].is_ascii_whitespace())
                && !is_abbreviation(text, i)
                && !enumerator_before(text, lo, i)
            {
                push_trimmed(text, (start, end), &mut out);
                start = end;
                i = end;
                continue;
            }
        } else if c == b'\n' && i + 1 < hi && opens_sentence(text, (lo, hi), i + 1) {
            push_trimmed(text, (start, i), &mut out);
            start = i + 1;
        }
        i += 1;
    }
    push_trimmed(text, (start, hi), &mut out);
    out
}

/// Does a new sentence start at the line beginning at `at` (after a newline)?
fn opens_sentence(text: &str, (lo, hi): Span, at: usize) -> bool {
    let bytes = text.as_bytes();
    let blank_before = at >= lo + 2 && bytes[at - 2] == b'\n'
        || at >= lo + 3 && bytes[at - 2] == b'\r' && bytes[at - 3] == b'\n';
    blank_before || line_opens_block(text, at, hi)
}

fn push_trimmed(text: &str, (s, e): Span, out: &mut Vec<Span>) {
    let piece = &text[s..e];
    let lead = piece.len() - piece.trim_start().len();
    let body = piece.trim();
    if !body.is_empty() {
        out.push((s + lead, s + lead + body.len()));
    }
}

/// Does the line starting at `at` open a new block (heading, list item, table row, quote)?
pub fn line_opens_block(text: &str, at: usize, hi: usize) -> bool {
    let rest = text[at..hi].trim_start_matches([' ', '\t']).as_bytes();
    // An enumerator of at most 3 alphanumerics before `.` or `)`: only the first 4 bytes
    // matter, so 100 000 short lines stay linear.
    let head = &rest[..rest.len().min(4)];
    rest.first()
        .is_some_and(|c| matches!(c, b'#' | b'-' | b'*' | b'+' | b'|' | b'>'))
        || head
            .iter()
            .position(|&c| c == b'.' || c == b')')
            .is_some_and(|n| n > 0 && head[..n].iter().all(u8::is_ascii_alphanumeric))
}

/// Is the stop at `dot` the end of an enumerator that opens a line ("2." in "2. Term")?
fn enumerator_before(text: &str, lo: usize, dot: usize) -> bool {
    let bytes = text.as_bytes();
    let mut s = dot;
    while s > lo && dot - s < 4 && bytes[s - 1].is_ascii_alphanumeric() {
        s -= 1;
    }
    let mut p = s;
    while p > lo && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    s < dot && (p == lo || bytes[p - 1] == b'\n') && bytes[s..dot].iter().any(u8::is_ascii_digit)
}

/// Is the word ending at the stop at byte `dot` an abbreviation ("e.g", "Sec", "Dr", an
/// initial)?
pub fn is_abbreviation(text: &str, dot: usize) -> bool {
    // Look back at most 8 bytes: no abbreviation is longer, and a scan per stop stays O(1).
    let from = crate::model::text::floor_char_boundary(text, dot.saturating_sub(8));
    let word = text[from..dot]
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    if from > 0 && word.len() == dot - from {
        return false; // a longer word than we looked at
    }
    matches!(
        word.to_ascii_lowercase().as_str(),
        "e.g"
            | "i.e"
            | "etc"
            | "vs"
            | "sec"
            | "no"
            | "art"
            | "para"
            | "inc"
            | "ltd"
            | "co"
            | "u.s"
            | "cf"
            | "mr"
            | "mrs"
            | "ms"
            | "dr"
            | "prof"
    ) || (word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic()))
}
