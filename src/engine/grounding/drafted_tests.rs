//! Tests of the drafted-text analysis.

use super::*;

fn build(text: &str, source_words: &str) -> Drafted {
    let src = format!(" {source_words} ");
    let in_source = |w: &str| src.contains(&format!(" {w} "));
    let label = Regex::new(r"(?i)^\[(?:ADD)\b|^illustrative\b.{0,60}$").unwrap();
    let label_end = |line: &str| {
        let l = strip_markup(line);
        if l.starts_with('[') {
            return label.find(l).map(|m| line.len() - l.len() + m.end());
        }
        None
    };
    let label_line = |l: &str| label.is_match(strip_markup(l));
    let is_heading = |s: usize, e: usize| text[s..e].trim_start().starts_with('#');
    let attributes = |t: &str| t.contains("provides");
    Drafted::build(
        text,
        (0, text.len()),
        &Inputs {
            label_end: &label_end,
            label_line: &label_line,
            is_heading: &is_heading,
            in_source: &in_source,
            attributes: &attributes,
            known: &[],
        },
    )
}

fn covered(d: &Drafted, text: &str, w: &str) -> bool {
    let s = text.find(w).unwrap();
    d.covers(s, s + w.len())
}

#[test]
fn clause_paragraphs_labels_and_markers_are_drafted_analysis_is_not() {
    let text = "## Analysis\nThe cap in Section 8 is low and 30 days is short.\n\n\
        3.1.3 **Force Majeure Exception**: The Distributor shall notify within five (5) Business Days.\n\n\
        > **(ii)** Remedy the breach within thirty (30) days.\n\n\
        Our note: this protects the Distributor.\n\n\
        [ADD] New Section 5(a)(iii):\n\n**\"5(a)(iii) Termination.** Either party may terminate on 30 days.\"\n\n\
        **EXPLANATION:** Adds termination for convenience.\n\n\
        Intro text **[ADD: 20. SLAs. defect rate not exceeding 1%.]** more.\n\n\
        Then **[MODIFY: X may change prices. -> X may change prices on 60 days' notice.]** more.\n\n\
        Illustrative drafting suggestions (examples)\n- Reserved: \"The following matters need approval.\"\n\n\
        (b) Section 5 provides that Licensee shall pay within 10 days.\n";
    let d = build(text, "licensee shall pay within ten days");
    assert!(!covered(&d, text, "The cap in Section 8"));
    assert!(covered(&d, text, "five (5) Business Days"));
    assert!(covered(&d, text, "Remedy the breach"));
    assert!(!covered(&d, text, "Our note"));
    assert!(covered(&d, text, "Either party may terminate"));
    assert!(!covered(&d, text, "Adds termination"));
    assert!(covered(&d, text, "1%"));
    assert!(covered(&d, text, "60 days' notice"));
    assert!(!covered(&d, text, "Then"));
    assert!(!covered(&d, text, "Intro text"));
    assert!(covered(&d, text, "The following matters"));
    // Attribution wins: a paragraph that says what the source provides is a claim.
    assert!(!covered(&d, text, "Licensee shall pay within 10"));
    assert!(d.has_text("THE DISTRIBUTOR SHALL NOTIFY"));
    assert!(d.has_text("Remedy the breach … thirty (30) days"));
    assert!(!d.has_text("The cap in Section 8 is low"));
    assert!(d.numbers_parts(&["ii".into()]));
    assert!(d.introduces(RefKind::Numbered, "3.1.3"));
}

#[test]
fn a_clause_paragraph_that_repeats_the_source_is_not_drafted() {
    let text = "(a) Licensee shall pay all fees within thirty days of invoice date.\n";
    let d = build(
        text,
        "a licensee shall pay all fees within thirty days of invoice date",
    );
    assert!(!covered(&d, text, "Licensee shall pay"));
}

#[test]
fn defined_terms_and_exhibits_of_drafted_text() {
    let text = "- (c) \"Unit\" means one license, listed in Exhibit A.\n\nUnits are discounted.\n";
    let d = build(text, "");
    assert!(d.defines("units"));
    assert!(d.introduces(RefKind::Exhibit, "a"));
    assert!(!covered(&d, text, "Units are"));
}

#[test]
fn an_inline_marker_holds_up_to_four_thousand_characters_on_its_line() {
    // "é" is two bytes: the bound counts characters, as the pattern's did.
    for (n, drafted) in [(4000, true), (4001, false)] {
        let text = format!("Prose here. [INSERT {}] after.\n", "é".repeat(n - 1));
        let d = build(&text, "");
        assert_eq!(covered(&d, &text, "[INSERT"), drafted, "{n} characters");
        assert!(!covered(&d, &text, "Prose here"));
    }
    let text = "Prose [ADD the cap\nnext line] more.\n";
    assert!(!covered(&build(text, ""), text, "[ADD"));
}
