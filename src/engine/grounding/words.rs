//! The word tokens every grounding step compares: one tokenizer for output and source.

/// Alphanumeric runs of `s`, lower-cased, with their byte offsets. "L.L.C." gives l, l, c:
/// callers compare word sequences, so the same spelling on both sides matches.
pub fn tokens(s: &str) -> impl Iterator<Item = (String, usize, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + s[at..].find(char::is_alphanumeric)?;
        let end = s[start..]
            .find(|c: char| !c.is_alphanumeric())
            .map_or(s.len(), |i| start + i);
        at = end;
        let word = &s[start..end];
        // Most words are ASCII lower case already: one copy, no per-character case mapping.
        let w = if word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            word.to_string()
        } else {
            word.chars().flat_map(char::to_lowercase).collect()
        };
        Some((w, start, end))
    })
}

#[cfg(test)]
mod tests {
    use super::tokens;

    #[test]
    fn words_are_lower_cased_runs_with_their_offsets() {
        let got: Vec<_> = tokens("L.L.C. — Straße 5a, ÉTÉ").collect();
        assert_eq!(
            got,
            vec![
                ("l".to_string(), 0, 1),
                ("l".to_string(), 2, 3),
                ("c".to_string(), 4, 5),
                ("straße".to_string(), 11, 18),
                ("5a".to_string(), 19, 21),
                ("été".to_string(), 23, 28),
            ]
        );
        assert_eq!(tokens(" ,. ").count(), 0);
    }
}
