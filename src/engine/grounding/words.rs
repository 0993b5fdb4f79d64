//! The word tokens every grounding step compares: one tokenizer for output and source.

/// Alphanumeric runs of `s`, lower-cased, with their byte offsets. "L.L.C." gives l, l, c:
/// callers compare word sequences, so the same spelling on both sides matches.
pub fn tokens(s: &str) -> impl Iterator<Item = (String, usize, usize)> + '_ {
    let mut it = s.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some(&(_, c)) = it.peek() {
            if c.is_alphanumeric() {
                break;
            }
            it.next();
        }
        let &(start, _) = it.peek()?;
        let mut end = start;
        let mut w = String::new();
        while let Some(&(i, c)) = it.peek() {
            if !c.is_alphanumeric() {
                break;
            }
            w.extend(c.to_lowercase());
            end = i + c.len_utf8();
            it.next();
        }
        Some((w, start, end))
    })
}
