//! The decoration a line opens with, for the readers that judge a line by its first words
//! (a drafting label, a clause that starts with a number): one reading of list and quote
//! markers, heading marks, emphasis and clause numbering for all of them.

/// Where a line's own words start, in bytes from the line's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineLead {
    /// After spaces, list and quote markers, heading marks and emphasis (`> **`, `- `, `## `,
    /// `• `); a clause number after them is kept (`**3.1 Term**` → `3.1 Term**`).
    pub markup: usize,
    /// After the clause numbering as well (`3.3 `, `(c) `, `iv) `, `2) `).
    pub words: usize,
}

/// The lead of `line` (a single line, without its line break).
pub fn line_lead(line: &str) -> LineLead {
    let markup =
        |c: char| c.is_whitespace() || matches!(c, '>' | '*' | '_' | '-' | '+' | '•' | '#');
    let numbering = |c: char| markup(c) || c.is_ascii_digit() || matches!(c, '.' | ')');
    let mut rest = line.trim_start_matches(numbering);
    // "(c) " / "c) " / "(iv) " enumerators.
    if let Some((n, tail)) = rest.strip_prefix('(').unwrap_or(rest).split_once(')')
        && !n.is_empty()
        && n.len() <= 4
        && n.chars().all(|c| c.is_ascii_alphanumeric())
    {
        rest = tail.trim_start_matches(numbering);
    }
    LineLead {
        markup: line.len() - line.trim_start_matches(markup).len(),
        words: line.len() - rest.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::line_lead;

    #[test]
    fn markers_emphasis_and_numbering_are_the_lead() {
        // (line, its text after the markup, its words)
        let rows = [
            ("## 3.3 Term", "3.3 Term", "Term"),
            (
                "> **(c) Notice.** Either party",
                "(c) Notice.** Either party",
                "Notice.** Either party",
            ),
            ("- iv) Remedy", "iv) Remedy", "Remedy"),
            (
                "• Suggested Revision: add",
                "Suggested Revision: add",
                "Suggested Revision: add",
            ),
            ("   12. **Fees**", "12. **Fees**", "Fees**"),
            ("[ADD] 5.4 Cap", "[ADD] 5.4 Cap", "[ADD] 5.4 Cap"),
            ("(Optional) note", "(Optional) note", "(Optional) note"),
            ("", "", ""),
            ("***", "", ""),
        ];
        for (line, after_markup, words) in rows {
            let lead = line_lead(line);
            assert_eq!(&line[lead.markup..], after_markup, "{line}");
            assert_eq!(&line[lead.words..], words, "{line}");
        }
    }
}
