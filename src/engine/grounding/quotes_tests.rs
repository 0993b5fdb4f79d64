//! Quotation forms beyond the marks: straight single quotes, HTML and attribution lines.

use super::quotes;

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
        let q = quotes::extract_in(t, (0, t.len()));
        let texts: Vec<&str> = q.iter().map(|q| q.text.as_str()).collect();
        assert_eq!(texts, [*want], "{t}");
    }
    let not_quoted: &[&str] = &[
        "The Supplier's fees and the parties' duties are set out in the Consultant's letter.",
        "The '90s pricing applies.",
        "A <quote>tag</quote> and <qux>x</qux> are not HTML quotations.",
    ];
    for t in not_quoted {
        assert_eq!(quotes::extract_in(t, (0, t.len())), [], "{t}");
    }
    // An attribution line after a block quote: the block quotes the source, and the line
    // is not part of the quoted words or the span.
    let t = "Intro.\n\n> the Consultant shall receive a bonus\n>\n> — Section 5\n\nAfter.";
    let q = quotes::extract_in(t, (0, t.len()));
    assert_eq!(q.len(), 1);
    assert!(q[0].attributed);
    assert_eq!(q[0].text, "the Consultant shall receive a bonus");
    assert_eq!(
        &t[q[0].start..q[0].end],
        "the Consultant shall receive a bonus"
    );
    let t = "> the Consultant shall receive a bonus under Section 5\n";
    let q = quotes::extract_in(t, (0, t.len()));
    assert!(
        !q[0].attributed,
        "a reference inside the words is no attribution"
    );
}
