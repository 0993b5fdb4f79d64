//! Quotation forms beyond the marks: straight single quotes, HTML and attribution lines.

use super::tests::quotes_of;

/// Straight single quotes, HTML's `<q>` and `<blockquote>`, and a `>` block followed by an
/// attribution line are quotations a renderer shows as such, both ways: apostrophes,
/// plural possessives and unclosed marks are not.
#[test]
fn quotes_in_straight_single_marks_and_html_both_ways() {
    let quoted: &[(&str, &str)] = &[
        (
            "Section 5 provides: 'the Consultant shall receive a bonus'.",
            "the Consultant shall receive a bonus",
        ),
        (
            "It reads ('the Consultant's bonus is payable on demand') in full.",
            "the Consultant's bonus is payable on demand",
        ),
        (
            "Section 5 provides: <q>the Consultant shall receive a bonus</q>.",
            "the Consultant shall receive a bonus",
        ),
        (
            "Section 5 provides: <Q class=note>the Consultant shall receive a bonus</Q>.",
            "the Consultant shall receive a bonus",
        ),
        (
            "Section 5 provides:\n\n<blockquote>the Consultant shall receive a bonus</blockquote>\n",
            "the Consultant shall receive a bonus",
        ),
        (
            "Section 5 provides:\n\n<blockquote>\n<p>the Consultant shall\nreceive a bonus</p>\n</blockquote>\n",
            "the Consultant shall receive a bonus",
        ),
    ];
    for (t, want) in quoted {
        let q = quotes_of(t, 0);
        let texts: Vec<&str> = q.iter().map(|q| q.text.as_str()).collect();
        assert_eq!(texts, [*want], "{t}");
    }
    let not_quoted: &[&str] = &[
        "The Supplier's fees and the parties' duties are set out in the Consultant's letter.",
        "The '90s pricing applies.",
        "A <quote>tag</quote> and <qux>x</qux> are not HTML quotations.",
    ];
    for t in not_quoted {
        assert_eq!(quotes_of(t, 0), [], "{t}");
    }
    // An attribution line after a block quote: the block quotes the source, and the line
    // is not part of the quoted words or the span.
    let t = "Intro.\n\n> the Consultant shall receive a bonus\n>\n> — Section 5\n\nAfter.";
    let q = quotes_of(t, 0);
    assert_eq!(q.len(), 1);
    assert!(q[0].attributed);
    assert_eq!(q[0].text, "the Consultant shall receive a bonus");
    assert_eq!(
        &t[q[0].start..q[0].end],
        "the Consultant shall receive a bonus"
    );
    let t = "> the Consultant shall receive a bonus under Section 5\n";
    let q = quotes_of(t, 0);
    assert!(
        !q[0].attributed,
        "a reference inside the words is no attribution"
    );
}

/// Which lines are code and which block quote a line belongs to come from the layout: a `>`
/// line inside a fenced code block is no quote (an unclosed fence runs to the end), a quote
/// nested in a list item is one, two quotes parted by a blank line are two, an unmarked line
/// after a quote is commentary, and text indented as a code block is still read.
#[test]
fn block_quotes_and_code_follow_the_layout() {
    let texts = |t: &str| -> Vec<String> { quotes_of(t, 0).into_iter().map(|q| q.text).collect() };
    assert_eq!(
        texts("Draft:\n\n```\n> the Supplier shall pay\n\"a bonus\"\n```\nAfter."),
        Vec::<String>::new()
    );
    assert_eq!(
        texts("Draft:\n\n```text\n> the Supplier shall pay\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        texts("1. Payment:\n   > the Supplier shall pay all fees\n2. Next item."),
        ["the Supplier shall pay all fees"]
    );
    assert_eq!(
        texts("> the Supplier shall pay\n\n> the Customer shall accept\n"),
        ["the Supplier shall pay", "the Customer shall accept"]
    );
    assert_eq!(
        texts("> the Supplier shall pay all fees\nThis is one-sided.\n"),
        ["the Supplier shall pay all fees"]
    );
    assert_eq!(
        texts(
            "The copy reads:\n\n     11.6. The Agreement says \"the Supplier shall pay all fees\".\n"
        ),
        ["the Supplier shall pay all fees"]
    );
}
