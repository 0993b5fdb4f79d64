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

/// Where the sentence holding `offset` ends (the layout's sentence): before its final
/// stop, else at its end; at the line's end when `offset` is in no sentence's text.
pub fn sentence_end(t: &FixTarget, offset: usize) -> usize {
    match t.layout().sentence_at(offset) {
        Some(s) => {
            let end = s.span.1;
            match t.text[..end].chars().next_back() {
                Some('.' | '!' | '?' | ';') => end - 1,
                _ => end,
            }
        }
        None => {
            let line = t.line_index.line_of(offset);
            let line_end = t.line_index.line_end(t.text, line);
            offset + t.text[offset..line_end].trim_end().len()
        }
    }
}

/// End of the top-level block (paragraph, list, table…) holding `offset`, or of the next
/// one when `offset` sits between blocks; the body's end when there is none.
pub fn paragraph_end(t: &FixTarget, offset: usize) -> usize {
    let layout = t.layout();
    let from = offset.clamp(t.body.0, t.body.1);
    let block = layout.block_at(from).or_else(|| {
        layout
            .blocks()
            .find(|(_, b)| b.parent.is_none() && b.span.0 >= from)
            .map(|(id, _)| id)
    });
    match block.and_then(|id| layout.ancestors(id).last()) {
        Some((_, b)) => t.text[..b.span.1].trim_end_matches(['\n', '\r']).len(),
        None => t.body.1,
    }
}

/// Does the body already have a markdown heading with this text (any level, any case)?
/// Read from the lines, not the layout: the fixes insert markdown headings into plain
/// text files too, and fixing twice must not insert one twice.
pub fn has_heading(t: &FixTarget, heading: &str) -> bool {
    let wanted = heading.trim().to_lowercase();
    t.text[t.body.0..t.body.1].lines().any(|line| {
        let l = line.trim_start();
        l.starts_with('#') && l.trim_start_matches('#').trim().to_lowercase() == wanted
    })
}
