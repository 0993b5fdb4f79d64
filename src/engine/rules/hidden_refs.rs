//! Character references and backslash escapes that change what a claim reads as. Markdown
//! shows `Section&nbsp;14.7`, `&dollar;2,500,000` and `&ldquo;…&rdquo;` as "Section 14.7",
//! "$2,500,000" and a quotation, while a rule reading the text as written sees none of
//! them; `14\.7` is shown as "14.7". So does a browser in an HTML block
//! (`<p>&#36;2,500,000</p>`, legacy `&nbsp` and `&sect` without the semicolon too). The
//! layout records each one as decoded ([`Layout::rewritten`]); this module decides which of
//! them hide text.
//!
//! Left alone, because they hide nothing a claim is made of: `&amp;`, `&lt;` and `&gt;`
//! (HTML's own escaping), a space-like reference next to white space or another one (the
//! `&nbsp;&nbsp;(a)` indentation real outputs use), and a backslash escape that does not
//! sit between two letters or digits (`\$5`, `\*`).

use crate::engine::document::Layout;
use crate::engine::document::layout::Rewrite;

/// The spans of `layout`'s rewritten text that hide what they show, in text order.
pub fn find(layout: &Layout, text: &str) -> Vec<(usize, usize)> {
    let rewrites = layout.rewritten();
    let spacing = |r: &Rewrite| !r.escape && r.shown.chars().all(char::is_whitespace);
    let mut out = Vec::new();
    for (i, r) in rewrites.iter().enumerate() {
        let (s, e) = r.span;
        let before = text[..s].chars().next_back();
        let after = text[e..].chars().next();
        let hides = if r.escape {
            before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric)
        } else if spacing(r) {
            // A space written as a reference between two visible characters separates the
            // words of a claim ("Section&nbsp;14.7"); beside white space or another space
            // reference it is layout.
            let left_space = i > 0 && rewrites[i - 1].span.1 == s && spacing(&rewrites[i - 1]);
            let right_space = rewrites
                .get(i + 1)
                .is_some_and(|n| n.span.0 == e && spacing(n));
            !left_space
                && !right_space
                && before.is_some_and(|c| !c.is_whitespace())
                && after.is_some_and(|c| !c.is_whitespace())
        } else {
            !matches!(&*r.shown, "&" | "<" | ">")
        };
        if hides {
            out.push((s, e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(s: &str) -> Vec<&str> {
        let layout = Layout::markdown(s, (0, s.len()));
        find(&layout, s)
            .into_iter()
            .map(|(a, b)| &s[a..b])
            .collect()
    }

    #[test]
    fn references_and_escapes_that_hide_a_claim_are_found_both_ways() {
        let rows: &[(&str, &[&str])] = &[
            ("Section&nbsp;14.7 caps liability.", &["&nbsp;"]),
            ("The cap is &dollar;2,500,000.", &["&dollar;"]),
            (
                "The cap is &#36;2,500,000 or &#x24;3.",
                &["&#36;", "&#x24;"],
            ),
            (
                "It says &ldquo;the fee is due&rdquo;.",
                &["&ldquo;", "&rdquo;"],
            ),
            ("It says &quot;the fee is due&quot;.", &["&quot;", "&quot;"]),
            ("A 37&percnt; fee under &sect;14.", &["&percnt;", "&sect;"]),
            ("Expires March&nbsp;3,&nbsp;2031.", &["&nbsp;", "&nbsp;"]),
            ("Under Section 14\\.7 the fee is due.", &["\\."]),
            // Left alone.
            ("&nbsp;&nbsp;&nbsp;&nbsp;(a) The discount applies.", &[]),
            ("AT&amp;T and 3 &lt; 4 &gt; 2.", &[]),
            ("The fee is \\$5 \\*per month\\*.", &[]),
            ("Text &nbsp; between spaces.", &[]),
            (
                "In code: `&dollar;5` and\n\n```\n&sect;14 14\\.7\n```\n",
                &[],
            ),
            ("An & alone and &notareference; stay.", &[]),
            // In an HTML block, as a browser reads it.
            ("<p>The cap is &#36;2,500,000.</p>\n", &["&#36;"]),
            (
                "<div>Section&nbsp41.3 and &sect41.3</div>\n",
                &["&nbsp", "&sect"],
            ),
            ("<p title=\"&quot;\">R&D, AT&amp;T &nbsp; x</p>\n", &[]),
        ];
        for (text, want) in rows {
            assert_eq!(hidden(text), *want, "{text}");
        }
    }
}
