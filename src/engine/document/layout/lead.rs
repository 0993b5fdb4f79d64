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

/// Spaces, list and quote markers, heading marks and emphasis.
fn is_markup(c: char) -> bool {
    c.is_whitespace() || matches!(c, '>' | '*' | '_' | '-' | '+' | '•' | '#')
}

/// After the markup, a table cell's bar and a bracketed tag (`| `, `[ADD] `): where the text
/// a line's decoration leads to starts.
fn after_tag(line: &str) -> &str {
    let rest = line.trim_start_matches(|c| is_markup(c) || c == '|');
    match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((_, tail)) => tail.trim_start(),
        None => rest,
    }
}

/// Is `prefix` (a line's start, up to some word) decoration only: markup, a table cell's
/// bar, a bracketed tag (`- `, `| **`, `[ADD] `)? Then the word after it opens the line.
pub fn only_decoration(prefix: &str) -> bool {
    after_tag(prefix).is_empty()
}

/// The dotted clause number a line opens with, after its decoration: `8.7 Limitation`,
/// `**5.3** Fees`, `[ADD] 9.1 …` → `8.7`, `5.3`, `9.1`. A number without an inner dot
/// (`12. Fees`, a list item) or after a word (`Section 8.7`) is not one.
pub fn clause_number(line: &str) -> Option<&str> {
    let rest = after_tag(line);
    let n = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let n = rest[..rest.len() - n.len()].trim_end_matches('.');
    (n.contains('.') && n.starts_with(|c: char| c.is_ascii_digit())).then_some(n)
}

/// The lead of `line` (a single line, without its line break).
pub fn line_lead(line: &str) -> LineLead {
    let markup = is_markup;
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
    use super::{clause_number, line_lead, only_decoration};

    #[test]
    fn a_line_opens_after_its_decoration_only() {
        for prefix in [
            "",
            "  ",
            "- ",
            "## ",
            "> **",
            "| ",
            "[ADD] ",
            "• [Proposed] ",
        ] {
            assert!(only_decoration(prefix), "{prefix:?}");
        }
        for prefix in ["The ", "1. ", "See ", "[ADD] new "] {
            assert!(!only_decoration(prefix), "{prefix:?}");
        }
    }

    #[test]
    fn clause_numbers_open_lines_and_list_numbers_do_not() {
        let rows = [
            ("8.7 Limitation of Liability", Some("8.7")),
            ("**5.3** Fees", Some("5.3")),
            ("## 12.1.4. Notices", Some("12.1.4")),
            ("[ADD] 9.1 Cap", Some("9.1")),
            ("| 3.2 | Term |", Some("3.2")),
            ("12. Fees", None),
            ("Section 8.7 provides", None),
            ("8 Fees", None),
            (".5 of the fee", None),
            ("", None),
        ];
        for (line, want) in rows {
            assert_eq!(clause_number(line), want, "{line}");
        }
    }

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
