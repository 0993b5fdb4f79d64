//! Markup that splits a claim. A reader of the rendered page sees "Section 41.3" in
//! `Section **41.3**`, `Section <b>41.3</b>`, `` Section `41.3` ``, `Section [41.3](#x)`,
//! `**Section** 41.3`, `Section 4<!-- -->1.3` and `Section 4*1*.3`; the claim readers read
//! the text as written, where the markup stands between the word and its number or inside
//! the number, and see no reference (or "Section 4"). Rather than reading every way of
//! writing one, hidden_text fails on the markup, so the claim cannot pass unread.
//!
//! A run of markup (emphasis, strong and strike-through delimiters, a code span's
//! backticks, a link's brackets and destination, inline HTML tags and comments, touching
//! runs joined) splits a claim when:
//! - it stands inside a number: a digit on one side, a digit (or a `.`, `,` or `:` then a
//!   digit) on the other ("4<!-- -->1.3", "4*1*.3", "2,<b>500</b>,000");
//! - it stands between a reference word ("Section", "Clause", "Article", "§", …) or a
//!   currency sign and the number after it, white space allowed on either side.
//!
//! Formatting of a whole claim (`**Section 14.2**`, `` `14.2` `` alone, `**Clause**: …`)
//! splits nothing and is left alone.

use std::sync::LazyLock;

use regex::Regex;

use crate::engine::document::Layout;
use crate::engine::document::layout::InlineKind;

/// A reference word or currency sign at the end of the text before a run of markup.
static CLAIM_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:\b(?:sections?|sec|secs|subsections?|clauses?|articles?|paragraphs?|exhibits?|schedules?|annex(?:es)?|appendix|appendices|attachments?|parts?)\.?|§§?|[$€£¥])[ \t]*$",
    )
    .expect("claim word regex")
});

/// The runs of markup in `layout`'s running text that split a claim, in text order.
pub fn find(layout: &Layout, text: &str) -> Vec<(usize, usize)> {
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for inline in layout.inlines() {
        let (is, ie) = inline.span;
        let run = &text[is..ie];
        let delim: &dyn Fn(char) -> bool = match inline.kind {
            InlineKind::Emphasis | InlineKind::Strong | InlineKind::Strikethrough => {
                &|c| matches!(c, '*' | '_' | '~')
            }
            InlineKind::Code => &|c| c == '`',
            InlineKind::Link { .. } => {
                // The destination after the shown text is unrendered (below).
                if run.starts_with('[') {
                    marks.push((is, is + 1));
                }
                continue;
            }
            InlineKind::Image { .. } => continue,
        };
        let open = run.len() - run.trim_start_matches(delim).len();
        let close = run.len() - run.trim_end_matches(delim).len();
        if open > 0 && open < run.len() {
            marks.push((is, is + open));
            marks.push((ie - close, ie));
        }
    }
    marks.extend(layout.unrendered().iter().copied());
    marks.sort_unstable();
    // Touching or overlapping marks make one run ("<span></span>", "**`").
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(marks.len());
    for (s, e) in marks {
        match runs.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => runs.push((s, e)),
        }
    }
    runs.into_iter()
        .filter(|&(s, e)| splits(&text[..s], &text[e..]))
        .collect()
}

/// Does markup between `before` and `after` split a claim?
fn splits(before: &str, after: &str) -> bool {
    let digit_before = {
        let mut b = before.chars().rev();
        match b.next() {
            Some(c) if c.is_ascii_digit() => true,
            Some('.' | ',' | ':') => b.next().is_some_and(|c| c.is_ascii_digit()),
            _ => false,
        }
    };
    let mut a = after.chars();
    let digit_after = match a.next() {
        Some(c) if c.is_ascii_digit() => true,
        Some('.' | ',' | ':') => digit_before && a.next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    };
    if digit_before && digit_after {
        return true;
    }
    // Only spaces and tabs may stand beside the markup (a line break ends the claim).
    let number_next = after
        .trim_start_matches([' ', '\t'])
        .starts_with(|c: char| c.is_ascii_digit());
    number_next && CLAIM_WORD.is_match(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<&str> {
        let layout = Layout::markdown(s, (0, s.len()));
        find(&layout, s)
            .into_iter()
            .map(|(a, b)| &s[a..b])
            .collect()
    }

    #[test]
    fn markup_inside_a_claim_is_found_and_formatting_of_a_whole_claim_is_not() {
        let rows: &[(&str, &[&str])] = &[
            ("Section **41.3** caps liability.", &["**"]),
            ("Section <b>41.3</b> caps liability.", &["<b>"]),
            ("Section `41.3` caps liability.", &["`"]),
            ("Section [41.3](#x) caps liability.", &["["]),
            ("Section 4<!-- -->1.3 caps liability.", &["<!-- -->"]),
            ("Section 4<span></span>1.3 caps it.", &["<span></span>"]),
            ("Section 4*1*.3 caps liability.", &["*", "*"]),
            ("**Section** 41.3 caps liability.", &["**"]),
            ("§ *41.3* caps liability.", &["*"]),
            ("A cap of $**2,500,000** applies.", &["**"]),
            ("A cap of $2,<b>500</b>,000 applies.", &["<b>", "</b>"]),
            // Left alone.
            ("**Section 14.2** caps liability.", &[]),
            ("See `14.2` and **14.2**.", &[]),
            ("**Clause**: the fee is due.", &[]),
            ("The **Section 3** and *section (h)* rules.", &[]),
            ("A fee of **$2,500,000** applies.", &[]),
            ("Under Section 14.2 <!-- note --> the fee", &[]),
            ("Read **Section**\n\n4 items follow.", &[]),
        ];
        for (text, want) in rows {
            assert_eq!(split(text), *want, "{text}");
        }
    }
}
