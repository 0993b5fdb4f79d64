//! Where an insertion goes: after the title, at the end of a paragraph or sentence.

use super::target::FixTarget;

/// After a leading `# Title` line (and the blank lines that follow it), else at the body start.
pub fn after_title(t: &FixTarget) -> usize {
    let body = &t.text[t.body.0..t.body.1];
    match body.split_inclusive('\n').next() {
        Some(first) if first.starts_with("# ") && first.ends_with('\n') => {
            let rest = &body[first.len()..];
            t.body.0 + first.len() + (rest.len() - rest.trim_start_matches(['\n', '\r']).len())
        }
        _ => t.body.0,
    }
}

/// What goes before a section appended at the end, so that it starts its own block.
pub fn separator_at_end(text: &str) -> &'static str {
    match () {
        _ if text.is_empty() => "",
        _ if text.ends_with("\n\n") => "",
        _ if text.ends_with('\n') => "\n",
        _ => "\n\n",
    }
}

/// Where a sentence ends after `offset`: before its final punctuation, else at the line end.
pub fn sentence_end(t: &FixTarget, offset: usize) -> usize {
    let line = t.line_index.line_of(offset);
    let line_end = t.line_index.line_end(t.text, line);
    let rest = &t.text[offset..line_end];
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next_is_space = chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '.' | '!' | '?' | ';') && next_is_space {
            return offset + i;
        }
    }
    offset + rest.trim_end().len()
}

/// End of the paragraph containing `offset` (before the blank line), within the body.
pub fn paragraph_end(t: &FixTarget, offset: usize) -> usize {
    let (_, body_end) = t.body;
    let from = offset.clamp(t.body.0, body_end);
    let rest = &t.text[from..body_end];
    let mut pos = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim().is_empty() && pos > 0 {
            // Back off the newline that ends the paragraph's last line.
            let end = from + pos;
            return t.text[..end].trim_end_matches(['\n', '\r']).len();
        }
        pos += line.len();
    }
    body_end
}

/// Does the body already have a markdown heading with this text (any level, any case)?
pub fn has_heading(t: &FixTarget, heading: &str) -> bool {
    let wanted = heading.trim().to_lowercase();
    t.text[t.body.0..t.body.1].lines().any(|line| {
        let l = line.trim_start();
        l.starts_with('#') && l.trim_start_matches('#').trim().to_lowercase() == wanted
    })
}
