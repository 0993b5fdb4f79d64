//! The locator on a sample review and on a large generated document.
use super::*;

const FRONT_MATTER: &str = "---\nbyop:\n  source: nda.txt\n  prompt: review-prompt.txt\n---\n";
const BODY: &str = "\
# NDA Review Summary

The **Receiving Party** shall hold all Confidential Information in strict confidence
and shall not disclose it to any third party without prior written consent.

## Term
This Agreement remains in effect for three (3) years — unless terminated earlier
by either party upon thirty (30) days’ written notice to either party.

## Risks
- The indemnification clause is uncapped.
- Governing law is the State of Delaware.
- The Discloser's remedies are limited to \"injunctive relief\" only.

Counsel should review the non-solicitation clause before signing. The fee for the café in São Paulo 🚀 is excluded.
";

fn doc() -> (String, (usize, usize)) {
    let text = format!("{FRONT_MATTER}{BODY}");
    let body = (FRONT_MATTER.len(), text.len());
    (text, body)
}

/// Locate in the sample document; returns the kind and the located text.
fn find(quote: &str) -> (Located, String) {
    let (text, body) = doc();
    let loc = locate(&text, body, quote);
    assert!(
        text.is_char_boundary(loc.start) && text.is_char_boundary(loc.end),
        "{loc:?}"
    );
    assert!(loc.start <= loc.end);
    if loc.located == Located::Unlocated {
        assert_eq!((loc.start, loc.end), (0, 0));
    } else {
        assert!(
            loc.start >= body.0 && loc.end <= body.1,
            "outside the body: {loc:?}"
        );
    }
    (loc.located, text[loc.start..loc.end].to_string())
}

#[test]
fn exact_quote_is_exact_and_first_occurrence_wins() {
    assert_eq!(
        find("shall not disclose it to any third party"),
        (
            Located::Exact,
            "shall not disclose it to any third party".into()
        )
    );
    let (text, body) = doc();
    let loc = locate(&text, body, "either party");
    assert_eq!(loc.located, Located::Exact);
    assert_eq!(loc.start, text.find("either party").unwrap());
    assert!(
        text[loc.end..].contains("either party"),
        "a later occurrence exists"
    );
}

#[test]
fn surrounding_quotation_marks_are_not_part_of_the_quote() {
    assert_eq!(
        find("“shall hold all Confidential Information”"),
        (
            Located::Exact,
            "shall hold all Confidential Information".into()
        )
    );
}

#[test]
fn straight_apostrophe_matches_curly() {
    assert_eq!(
        find("upon thirty (30) days' written notice"),
        (
            Located::Normalized,
            "upon thirty (30) days’ written notice".into()
        )
    );
}

#[test]
fn curly_quotes_in_the_quote_match_straight_ones_in_the_document() {
    assert_eq!(
        find("The Discloser’s remedies are limited to “injunctive relief” only"),
        (
            Located::Normalized,
            "The Discloser's remedies are limited to \"injunctive relief\" only".into()
        )
    );
}

#[test]
fn heading_markers_are_ignored() {
    assert_eq!(
        find("Term This Agreement remains in effect"),
        (
            Located::Normalized,
            "Term\nThis Agreement remains in effect".into()
        )
    );
    // a colon the document does not have is beyond normalization: one edit, fuzzy
    assert_eq!(
        find("Term: This Agreement remains in effect"),
        (
            Located::Fuzzy,
            "Term\nThis Agreement remains in effect".into()
        )
    );
}

#[test]
fn hyphen_matches_em_dash() {
    assert_eq!(
        find("three (3) years - unless terminated earlier"),
        (
            Located::Normalized,
            "three (3) years — unless terminated earlier".into()
        )
    );
}

#[test]
fn quote_across_a_line_break_matches_collapsed_whitespace() {
    assert_eq!(
        find("in strict confidence   and shall not\tdisclose"),
        (
            Located::Normalized,
            "in strict confidence\nand shall not disclose".into()
        )
    );
    assert_eq!(
        find("in strict\u{a0}confidence"),
        (Located::Normalized, "in strict confidence".into())
    );
}

#[test]
fn case_differences_are_normalized() {
    assert_eq!(
        find("THE INDEMNIFICATION CLAUSE IS UNCAPPED"),
        (
            Located::Normalized,
            "The indemnification clause is uncapped".into()
        )
    );
}

#[test]
fn bold_markers_in_the_document_are_ignored() {
    assert_eq!(
        find("The Receiving Party shall hold all Confidential Information"),
        (
            Located::Normalized,
            "The **Receiving Party** shall hold all Confidential Information".into()
        )
    );
}

#[test]
fn list_bullets_between_quoted_items_are_ignored() {
    assert_eq!(
        find("The indemnification clause is uncapped. Governing law is the State of Delaware."),
        (
            Located::Normalized,
            "The indemnification clause is uncapped.\n- Governing law is the State of Delaware."
                .into()
        )
    );
}

#[test]
fn trailing_punctuation_added_by_the_evaluator_is_tolerated() {
    assert_eq!(
        find("\"Counsel should review the non-solicitation clause.\""),
        (
            Located::Normalized,
            "Counsel should review the non-solicitation clause".into()
        )
    );
}

/// Locate in the sample document; returns the kind and the text of each piece.
fn find_pieces(quote: &str) -> (Located, Vec<String>) {
    let (text, body) = doc();
    let loc = locate(&text, body, quote);
    assert_eq!(
        (loc.start, loc.end),
        loc.pieces.first().copied().unwrap_or((0, 0))
    );
    let pieces = loc
        .pieces
        .iter()
        .map(|&(s, e)| text[s..e].to_string())
        .collect();
    (loc.located, pieces)
}

#[test]
fn ellipsis_gives_one_range_per_piece() {
    assert_eq!(
        find_pieces(
            "Governing law is the State of Delaware. [...] Counsel should review the non-solicitation clause"
        ),
        (
            Located::Ellipsis,
            vec![
                "Governing law is the State of Delaware.".to_string(),
                "Counsel should review the non-solicitation clause".to_string()
            ]
        )
    );
    let (kind, pieces) =
        find_pieces("shall hold all Confidential Information … without prior written consent");
    assert_eq!(kind, Located::Ellipsis);
    assert_eq!(pieces.len(), 2);
    assert!(
        pieces[0].starts_with("shall hold all Confidential"),
        "{pieces:?}"
    );
    assert_eq!(pieces[1], "without prior written consent");
}

#[test]
fn ellipsis_pieces_out_of_order_are_each_located() {
    let (kind, pieces) = find_pieces(
        "Counsel should review the non-solicitation clause ... Governing law is the State of Delaware",
    );
    assert_eq!(kind, Located::Ellipsis);
    assert_eq!(
        pieces,
        [
            "Counsel should review the non-solicitation clause",
            "Governing law is the State of Delaware"
        ]
    );
}

#[test]
fn a_repeated_piece_is_located_twice() {
    let (kind, pieces) = find_pieces(
        "Governing law is the State of Delaware ... Governing law is the State of Delaware",
    );
    assert_eq!(kind, Located::Ellipsis);
    assert_eq!(pieces[0], pieces[1]);
}

#[test]
fn ellipsis_prefers_the_next_piece_after_the_previous() {
    // "either party" occurs twice; the second piece is looked for after the first.
    let (text, body) = doc();
    let loc = locate(&text, body, "either party ... to either party");
    assert_eq!(loc.located, Located::Ellipsis);
    assert_eq!(&text[loc.pieces[1].0..loc.pieces[1].1], "to either party");
    assert!(loc.pieces[1].0 >= loc.pieces[0].1, "{loc:?}");
}

#[test]
fn ellipsis_ranges_cover_the_pieces_not_the_text_between() {
    // Two short pieces 90 KB apart: two small ranges, not one range over the gap.
    let filler = "Nothing relevant is said in this sentence. ".repeat(2_000);
    let text =
        format!("The Supplier shall deliver the goods. {filler}The Customer shall pay on time.");
    let loc = locate(
        &text,
        (0, text.len()),
        "The Supplier shall deliver … The Customer shall pay",
    );
    assert_eq!(loc.located, Located::Ellipsis);
    let covered: usize = loc.pieces.iter().map(|(s, e)| e - s).sum();
    assert_eq!(
        covered,
        "The Supplier shall deliver".len() + "The Customer shall pay".len()
    );
}

#[test]
fn leading_ellipsis_is_dropped() {
    assert_eq!(
        find("...remains in effect for three (3) years"),
        (
            Located::Normalized,
            "remains in effect for three (3) years".into()
        )
    );
}

#[test]
fn one_word_typo_is_fuzzy() {
    assert_eq!(
        find("Counsel should reveiw the non-solicitation clause before signing"),
        (
            Located::Fuzzy,
            "Counsel should review the non-solicitation clause before signing".into()
        )
    );
}

#[test]
fn ellipsis_with_a_typo_in_one_piece_is_fuzzy() {
    let (kind, pieces) =
        find_pieces("The indemnification clause is uncaped. ... Counsel should review");
    assert_eq!(kind, Located::Fuzzy);
    assert!(
        pieces[0].starts_with("The indemnification clause is uncap"),
        "{pieces:?}"
    );
    assert_eq!(pieces[1], "Counsel should review");
}

#[test]
fn fabricated_quote_is_unlocated() {
    assert_eq!(
        find("The Disclosing Party may terminate this Agreement immediately for convenience"),
        (Located::Unlocated, String::new())
    );
    assert_eq!(
        find("The Receiving Party shall indemnify the Disclosing Party for all losses"),
        (Located::Unlocated, String::new())
    );
}

#[test]
fn quote_only_in_front_matter_is_unlocated() {
    assert_eq!(find("review-prompt.txt").0, Located::Unlocated);
    assert_eq!(find("source: nda.txt").0, Located::Unlocated);
}

#[test]
fn empty_or_blank_quote_is_unlocated() {
    for q in ["", "   \n", "\"\"", "**", "..."] {
        assert_eq!(find(q).0, Located::Unlocated, "{q:?}");
    }
}

#[test]
fn multibyte_text_keeps_char_boundaries() {
    assert_eq!(
        find("café in São Paulo 🚀"),
        (Located::Exact, "café in São Paulo 🚀".into())
    );
    assert_eq!(
        find("CAFÉ IN SÃO PAULO 🚀 IS"),
        (Located::Normalized, "café in São Paulo 🚀 is".into())
    );
    assert_eq!(
        find("the fee for the cafe in Sao Paulo 🚀 is excluded"),
        (
            Located::Fuzzy,
            "The fee for the café in São Paulo 🚀 is excluded".into()
        )
    );
}

#[test]
fn offsets_outside_the_text_do_not_panic() {
    let text = "é — short";
    assert_eq!(locate(text, (1, 999), "short").located, Located::Exact);
    assert_eq!(locate(text, (50, 10), "short"), Location::UNLOCATED);
}

#[test]
fn locator_reuses_one_prepared_body() {
    let (text, body) = doc();
    let locator = Locator::new(&text, body);
    for quote in [
        "either party",
        "THE INDEMNIFICATION CLAUSE IS UNCAPPED",
        "Counsel should reveiw the",
    ] {
        assert_eq!(locator.locate(quote), locate(&text, body, quote), "{quote}");
    }
}

/// ~100 KB of numbered clauses with varied wording.
fn large_document() -> String {
    let subjects = [
        "The Supplier",
        "The Customer",
        "Each party",
        "The Licensee",
        "The Licensor",
    ];
    let verbs = [
        "shall deliver",
        "shall pay",
        "may audit",
        "shall maintain",
        "may terminate",
    ];
    let objects = [
        "the Services",
        "all invoices",
        "the records",
        "insurance coverage",
        "this Agreement",
    ];
    let mut s = String::new();
    let mut n = 0;
    while s.len() < 100_000 {
        n += 1;
        s.push_str(&format!(
            "{n}. {} {} {} within {} business days of clause {}, subject to Schedule {}.\n",
            subjects[n % 5],
            verbs[(n / 5) % 5],
            objects[(n / 25) % 5],
            n % 90 + 1,
            n * 7 % 311,
            n % 13
        ));
    }
    s
}

#[test]
fn large_document_absent_quote_returns_unlocated() {
    let text = large_document();
    assert!(text.len() >= 100_000);
    let absent = "The Customer shall indemnify the Supplier against all third-party intellectual property claims";
    assert_eq!(locate(&text, (0, text.len()), absent), Location::UNLOCATED);
    let long_absent = absent.repeat(6);
    assert_eq!(
        locate(&text, (0, text.len()), &long_absent),
        Location::UNLOCATED
    );
}

#[test]
fn large_document_typo_quote_is_found_at_the_right_clause() {
    let text = large_document();
    let line = text.lines().nth(700).unwrap();
    let clause = line.split_once(". ").unwrap().1; // without the list number
    let typo = clause
        .replacen("shall", "shal", 1)
        .replacen("within", "withn", 1);
    assert_ne!(typo, clause);
    let loc = locate(&text, (0, text.len()), &typo);
    assert_eq!(loc.located, Located::Fuzzy);
    assert_eq!(&text[loc.start..loc.end], clause);
}

#[test]
fn an_inserted_word_is_a_misquote_at_every_length() {
    // The same edit (one word inserted) in a short and in a long quote of the same
    // clauses: fuzzy both times, never unlocated because the quote is long.
    let text = large_document();
    let lines: Vec<&str> = text.lines().skip(300).take(12).collect();
    for n in [1, 12] {
        let passage = lines[..n].join("\n");
        let edited = passage.replacen(" shall ", " shall promptly ", 1);
        assert_ne!(edited, passage);
        let loc = locate(&text, (0, text.len()), &edited);
        assert_eq!(loc.located, Located::Fuzzy, "{} chars", edited.len());
        assert!(!loc.is_evidence());
        let start = text.find(lines[0]).unwrap();
        assert!(loc.start.abs_diff(start) < 40, "{loc:?} vs {start}");
    }
}
