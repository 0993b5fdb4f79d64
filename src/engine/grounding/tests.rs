use super::*;

/// The quotes of `t` from byte `from` to its end, read with the whole text's layout.
pub(super) fn quotes_of(t: &str, from: usize) -> Vec<Quote> {
    let layout = crate::engine::document::Layout::markdown(t, (0, t.len()));
    quotes::extract_in(t, (from, t.len()), &layout)
}

fn norms(text: &str) -> Vec<(EntityKind, String)> {
    entities::extract(text)
        .into_iter()
        .map(|e| (e.kind, e.normalized))
        .collect()
}

#[test]
fn money_forms_normalize_to_one_value() {
    for s in [
        "$1,000,000",
        "USD 1 million",
        "one million dollars",
        "US$1M",
        "1,000,000 dollars",
    ] {
        assert_eq!(
            norms(s),
            vec![(EntityKind::Money, "USD 1000000".to_string())],
            "{s}"
        );
    }
    assert_eq!(
        norms("One Million Dollars ($1,000,000)"),
        vec![(EntityKind::Money, "USD 1000000".to_string())]
    );
    assert_eq!(norms("€2.5 million")[0].1, "EUR 2500000");
}

#[test]
fn durations_percent_dates() {
    for s in ["90 days", "ninety (90) days", "90-day", "Ninety Days"] {
        assert_eq!(
            norms(s),
            vec![(EntityKind::Duration, "90 day".to_string())],
            "{s}"
        );
    }
    assert_eq!(norms("ten (10) business days")[0].1, "10 business day");
    assert_eq!(norms("twelve (12) months")[0].1, "12 month");
    // A quarter is three months; "three quarters of" is a share.
    for (s, want) in [("five quarters", "15 month"), ("3 quarters", "9 month")] {
        assert_eq!(norms(s), vec![(EntityKind::Duration, want.into())], "{s}");
    }
    assert!(norms("three quarters of the fee").is_empty());
    assert_eq!(norms("5%")[0], (EntityKind::Percent, "5%".into()));
    assert_eq!(
        norms("five percent (5%)"),
        vec![(EntityKind::Percent, "5%".into())]
    );
    assert_eq!(norms("1.5% per month")[0].1, "1.5%");
    for s in [
        "January 15, 2024",
        "15 January 2024",
        "2024-01-15",
        "1/15/2024",
        "the 15th day of January, 2024",
    ] {
        assert!(
            norms(s).contains(&(EntityKind::Date, "2024-01-15".into())),
            "{s}: {:?}",
            norms(s)
        );
    }
}

#[test]
fn names_and_terms() {
    let e = entities::extract(
        "The agreement between Acme Corporation and Beta, LLC defines \"Confidential Information\"; Dr. Jane Smith signs.",
    );
    let got: Vec<_> = e.iter().map(|e| (e.kind, e.normalized.as_str())).collect();
    assert!(
        got.contains(&(EntityKind::Organization, "acme corp")),
        "{got:?}"
    );
    assert!(
        got.contains(&(EntityKind::Organization, "beta llc")),
        "{got:?}"
    );
    assert!(
        got.contains(&(EntityKind::DefinedTerm, "confidential information")),
        "{got:?}"
    );
    assert!(got.contains(&(EntityKind::Person, "jane smith")), "{got:?}");
}

#[test]
fn source_contains_by_value_and_by_words() {
    let src = "The fee is ONE MILLION DOLLARS ($1,000,000). Notice within ninety (90) days. \
               ACME CORP. (\"Supplier\") and the \"Confidential Information\" of either party. \
               Term: one (1) year from March 1, 2024. Interest at 1.5% per month.";
    let s = Source::new(src);
    let out = "Supplier (Acme Corp.) owes USD 1 million within 90 days; the term is 12 months \
               from 2024-03-01 at 1.5%; \"Confidential Information\" is defined.";
    for e in entities::extract(out) {
        let at = s.contains(&e);
        assert!(at.is_some(), "{e:?} not found");
    }
    for planted in [
        "$2,000,000",
        "sixty (60) days",
        "Globex Inc.",
        "June 1, 2024",
        "7.5%",
        "\"Trade Secrets\"",
    ] {
        let e = entities::extract(planted);
        assert_eq!(e.len(), 1, "{planted}: {e:?}");
        assert_eq!(
            s.contains(&e[0]),
            None,
            "{planted} should not be in the source"
        );
    }
}

#[test]
fn references_against_numbering() {
    let src = "ARTICLE IV TERM  4.1  The term ... (a) first (b) second.  5.  Fees  Exhibit C - Pricing. \
               Section 15 of the 1933 Act applies.";
    let s = Source::new(src);
    let refs = references::extract_in(
        "See Section 4.1(b), Article 4, Clause 5, Exhibit C, Section 9.2, Exhibit D, Section 4.1(f), \
         and Section 2-207 of the UCC and Article 28 GDPR.",
        (0, 200),
    );
    let got: Vec<(String, bool)> = refs
        .iter()
        .map(|r| (r.text.clone(), s.reference(r).is_some()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Section 4.1(b)".into(), true),
            ("Article 4".into(), true),
            ("Clause 5".into(), true),
            ("Exhibit C".into(), true),
            ("Section 9.2".into(), false),
            ("Exhibit D".into(), false),
            ("Section 4.1(f)".into(), false),
        ]
    );
}

#[test]
fn lower_case_abbreviations_are_references() {
    // "cl. 28.9", "para. 14(f)", "s. 23.5", "ss. 4": how UK-style reviews cite a contract.
    let src = "4.1  The term ... (a) first (b) second.  5.  Fees.";
    let s = Source::new(src);
    let text = "Audit rights (cl. 28.9) apply. Under para. 14(f), approval is needed. A licence \
                back (s. 23.5) is limited. See cl. 4.1(b) and ss. 5. Mrs. 5 stays; vs. 4 too.";
    let got: Vec<(String, bool)> = references::extract_in(text, (0, text.len()))
        .iter()
        .map(|r| (r.text.clone(), s.reference(r).is_some()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("cl. 28.9".into(), false),
            ("para. 14(f)".into(), false),
            ("s. 23.5".into(), false),
            ("cl. 4.1(b)".into(), true),
            ("ss. 5".into(), true),
        ]
    );
}

#[test]
fn quotes_inline_and_block() {
    let t = "He said “the Fund shall pay” and \"x\".\n> Section 2.3 The Fund shall pay\n> to Integrity.\nEnd";
    let q = quotes_of(t, 0);
    let texts: Vec<&str> = q.iter().map(|q| q.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "the Fund shall pay",
            "x",
            "Section 2.3 The Fund shall pay to Integrity."
        ]
    );
    assert_eq!(&t[q[0].start..q[0].end], "the Fund shall pay");
}

/// Every quotation mark pair a review may use, both ways: the passage inside is a quote;
/// an apostrophe, a lone mark and a breadcrumb arrow are not.
#[test]
fn quotes_in_every_quotation_mark() {
    let quoted: &[&str] = &[
        "The clause «the Supplier shall pay all fees» applies.",
        "The clause „the Supplier shall pay all fees“ applies.",
        "The clause „the Supplier shall pay all fees” applies.",
        "The clause »the Supplier shall pay all fees« applies.",
        "The clause ‹the Supplier shall pay all fees› applies.",
        "The clause ＂the Supplier shall pay all fees＂ applies.",
        "The clause 〝the Supplier shall pay all fees〞 applies.",
        "The clause ❝the Supplier shall pay all fees❞ applies.",
        "The clause ″the Supplier shall pay all fees″ applies.",
        "The clause 「the Supplier shall pay all fees」 applies.",
        "The clause ‘the Supplier’s fees are due monthly’ applies.",
        "The clause ‚the Supplier shall pay all fees‘ applies.",
        "The clause ‚the Supplier shall pay all fees’ applies.",
        "Home » Contracts: the clause “the Supplier shall pay all fees” applies.",
    ];
    for t in quoted {
        let q = quotes_of(t, 0);
        let texts: Vec<&str> = q.iter().map(|q| q.text.as_str()).collect();
        let want = if t.contains("‘the") {
            "the Supplier’s fees are due monthly"
        } else {
            "the Supplier shall pay all fees"
        };
        assert_eq!(texts, [want], "{t}");
    }
    let not_quoted: &[&str] = &[
        "The Supplier’s fees and the Customer’s duties.",
        "Home » Contracts » Review",
        "A lone « mark and nothing else.",
    ];
    for t in not_quoted {
        assert_eq!(quotes_of(t, 0), [], "{t}");
    }
}

#[test]
fn bad_input_never_panics() {
    let t = "€€€ “unclosed § ... Section ½ $ 1,,, ninety-";
    for a in 0..t.len() {
        let _ = entities::extract_in(t, (a, t.len() + 5));
        let _ = references::extract_in(t, (a, t.len()));
        let _ = quotes_of(t, a);
    }
    let s = Source::new(t);
    let _ = s.locate("unclosed");
}

#[test]
fn every_grounding_rule_survives_multibyte_text_at_every_offset() {
    use crate::engine::playbook::resolve;
    use crate::engine::rules::{Companions, RuleContext};
    let pb = resolve("evidence_contract_v1", std::path::Path::new(".")).unwrap();
    let text = "──this Section 8.7 “€5 million” § 3 — this── \"Quoted words here now…\"\n> ─ block\n8.7 ─ ninety (90) days ─ Acme Inc.─";
    for a in (0..text.len()).filter(|&a| text.is_char_boundary(a)) {
        let cx = RuleContext::new(text, (a, text.len())).with_companions(Companions {
            source: Some("── Section 8 ─ Acme Inc. “€5 million”"),
            prompt: Some("─"),
            ..Default::default()
        });
        for rule in pb.compiled.iter().flatten() {
            let _ = rule.apply(&cx);
        }
    }
}

#[test]
fn organisation_names_are_cut_at_sentence_and_list_breaks() {
    let orgs = |t: &str| -> Vec<String> {
        entities::extract(t)
            .into_iter()
            .filter(|e| e.kind == EntityKind::Organization)
            .map(|e| e.text)
            .collect()
    };
    assert_eq!(
        orgs("based in Texas. If Apex Consulting Group LLC is"),
        vec!["Apex Consulting Group LLC"]
    );
    assert_eq!(
        orgs("references IMPCO Technologies Inc., Minda Industries Limited, and"),
        vec!["Minda Industries Limited"]
    );
    assert!(orgs("EITHER PARTY AND ITS AFFILIATES, OFFICERS, EMPLOYEES, AGENTS").is_empty());
    assert!(orgs("an Operating Company (Bermuda LLC) and").is_empty());
    assert_eq!(
        orgs("Acme, Inc. and U.S. Bank N.A."),
        vec!["Acme, Inc.", "U.S. Bank N.A."]
    );
}

#[test]
fn numbering_with_a_trailing_dot_at_line_start_counts() {
    let s = Source::new("4. INTERESTS.\n\n4.3. Notwithstanding the foregoing, (a) first.\n");
    let refs = references::extract_in("Article 4.3(a) and Section 4.4", (0, 30));
    let got: Vec<bool> = refs.iter().map(|r| s.reference(r).is_some()).collect();
    assert_eq!(got, vec![true, false]);
}

#[test]
fn page_numbers_of_a_contents_page_are_not_parts() {
    // Corpus contract 012's contents page, then its real numbering.
    let s = Source::new(
        "Table of Contents   1. Definitions   7  1.1 Affiliate   7  1.43 Insolvency Event  12  1.50 JOT  13\n12.8 Defense   46  12.9 Common Interest Disclosures   46\n\n  5.  Term\n  6  Payment.\n",
    );
    let t = "Article 46, Article 13, Section 12.8, Section 5 and Section 6";
    let refs = references::extract_in(t, (0, t.len()));
    let got: Vec<bool> = refs.iter().map(|r| s.reference(r).is_some()).collect();
    assert_eq!(got, vec![false, false, true, true, true]);
}

#[test]
fn ranges_statutes_and_block_labels() {
    let s = Source::new("22.1  Buy-sell.  22.2  Price.");
    let r = references::extract_in(
        "Articles 22.1-22.2 and Fla. Stat. § 542.335 apply.",
        (0, 50),
    );
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(s.reference(&r[0]).is_some());
    let t = "> **Current:**\n> \"Either party may terminate.\"\n";
    let q = quotes_of(t, 0);
    assert_eq!(q[0].text, "Either party may terminate.");
}

#[test]
fn parenthetical_titles_end_a_reference_sub_parts_do_not() {
    let t =
        "Sections 5 (IP), Article 1.33 (SITE), Section 7.2 (b)(ii), Section 3 (aa), Article 4 (IV)";
    let r = references::extract_in(t, (0, t.len()));
    let got: Vec<(&str, Vec<String>)> = r
        .iter()
        .map(|x| (x.text.as_str(), x.parts.clone()))
        .collect();
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        vec![
            ("Sections 5", p(&[])),
            ("Article 1.33", p(&[])),
            ("Section 7.2 (b)(ii)", p(&["b", "ii"])),
            ("Section 3 (aa)", p(&["aa"])),
            ("Article 4 (IV)", p(&["iv"])),
        ]
    );
}

#[test]
fn lettered_sub_part_after_two_spaces_is_numbered() {
    let s = Source::new(
        "19.   BONUSES\n      B.  The cap applies.\n      C.  In the event of insolvency.\n   20.  APPROVAL\n",
    );
    let r = references::extract_in("Section 19C and Section 19D", (0, 27));
    let got: Vec<bool> = r.iter().map(|x| s.reference(x).is_some()).collect();
    assert_eq!(got, vec![true, false]);
}

#[test]
fn denied_and_statute_labelled_references() {
    let t = "but Article 9.6 does not exist. Article 9.7 defines it.";
    let r = references::extract_in(t, (0, t.len()));
    let got: Vec<bool> = r.iter().map(|x| references::denied(t, x)).collect();
    assert_eq!(got, vec![true, false]);
    let t = "- Companies Act, 2013: related-party transactions under Section 188, quorum.\n- Board: Section 188 applies.";
    let r = references::extract_in(t, (0, t.len()));
    let got: Vec<bool> = r
        .iter()
        .map(|x| references::under_statute_label(t, x))
        .collect();
    assert_eq!(got, vec![true, false]);
    let t = "I've inserted as Section 3 for structure. Section 4 is unchanged.";
    let r = references::extract_in(t, (0, t.len()));
    let got: Vec<bool> = r.iter().map(|x| references::introduced(t, x)).collect();
    assert_eq!(got, vec![true, false]);
}

#[test]
fn a_total_of_two_source_amounts() {
    let s = Source::new(
        "cash in the amount of $91,000. T&L further agrees to pay $3,000,000. Fee: €5,000.",
    );
    let amount = |t: &str| {
        entities::extract(t)
            .into_iter()
            .find(|e| e.kind == EntityKind::Money)
            .expect("amount")
    };
    assert!(s.sum_of_two(&amount("$3,091,000")).is_some());
    assert!(s.sum_of_two(&amount("$3,092,000")).is_none());
    // Same currency only, and not one amount twice.
    assert!(s.sum_of_two(&amount("$3,005,000")).is_none());
    assert!(s.sum_of_two(&amount("$182,000")).is_none());
}

#[test]
fn a_total_names_the_first_pair_in_source_order_and_the_scan_is_bounded() {
    let amount = |t: &str| {
        entities::extract(t)
            .into_iter()
            .find(|e| e.kind == EntityKind::Money)
            .expect("amount")
    };
    // $3,000 is $1,000 + $2,000 and $500 + $2,500: always the first pair's first amount.
    let text = "Fees: $500; then $1,000; $2,000; and $2,500.";
    let s = Source::new(text);
    let at = s.sum_of_two(&amount("$3,000")).expect("a pair");
    assert_eq!(&text[at.0..at.1], "$500");
    // Beyond the first 512 distinct amounts nothing is compared with fuzzily (each such
    // claim scans them), so a total made from a later amount stays unproven.
    let many: String = (1..=600).map(|i| format!("${i}; ")).collect();
    let text = format!("{many} Late: $100,000.");
    let s = Source::new(&text);
    assert!(s.sum_of_two(&amount("$100,001")).is_none());
    assert!(
        s.sum_of_two(&amount("$510")).is_some(),
        "$10 + $500, both early"
    );
    assert!(
        s.sum_of_two(&amount("$1,110")).is_none(),
        "$600 is the 600th amount"
    );
}
