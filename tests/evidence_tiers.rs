//! A misquote is not a fabrication: every quote that is not verbatim lands in exactly one tier
//! (misquote → `quotes_verbatim`, medium; paraphrase → `quotes_paraphrased`, low; not in the
//! source → `quotes_grounded`, high), whichever check looks at it. Rows are real corpus quotes
//! (`../shared/corpus/contract-reviews`, checked against the whole source contract), each run
//! both ways: the real quote is grounded by every check, the altered one lands in its tier with
//! the exact words named, and the fix restores the source's words.

mod support;

use std::path::PathBuf;

use support::evidence::{Inputs, apply, check_in, flagged};
use support::workspace::{Ws, check, json, stderr};

const QUOTE_CHECKS: [(&str, &str); 3] = [
    ("misquote", "quotes_verbatim"),
    ("paraphrase", "quotes_paraphrased"),
    ("not_in_source", "quotes_grounded"),
];

struct Row {
    /// Where the real quote comes from (corpus output) and its source contract.
    origin: &'static str,
    contract: &'static str,
    /// The real quote, verbatim in the source.
    real: &'static str,
    /// The same quote altered, its tier, and the changes the finding must name.
    altered: &'static str,
    tier: &'static str,
    changes: &'static [&'static str],
}

const ROWS: &[Row] = &[
    Row {
        origin: "contract_001_modify_payment_2__mistral-large",
        contract: "contract_001_services_agreement_filled.txt",
        real: "The Fund shall pay to Integrity, as set forth in the Registration Statement, any distribution and service fee authorized by the Plan.",
        altered: "The Fund shall pay to Integrity any distribution and service fee authorized by the Plan.",
        tier: "misquote",
        changes: &["omits “as set forth in the Registration Statement”"],
    },
    Row {
        origin: "contract_001_modify_payment_2__mistral-large (an ellipsis admits the omission)",
        contract: "contract_001_services_agreement_filled.txt",
        real: "The Fund shall pay to Integrity … any distribution and service fee authorized by the Plan.",
        altered: "The Fund shall pay to Integrity … any distribution and service fee approved by the Plan.",
        tier: "misquote",
        changes: &["has “approved” for “authorized”"],
    },
    Row {
        origin: "contract_001_add_clause_1__gemini-2.5-flash (defined-term parentheticals dropped without an ellipsis)",
        contract: "contract_001_services_agreement_filled.txt",
        real: "Integrity Funds Distributor, LLC, (\"Integrity\"), shall be, for the period of this distribution agreement (the \"Agreement\"), the principal underwriter of shares issued by the Fund",
        altered: "Integrity Funds Distributor, LLC, shall be, for the period of this distribution agreement, the principal underwriter of shares issued by the Fund",
        tier: "misquote",
        changes: &["omits “Integrity”", "omits “the Agreement”"],
    },
    Row {
        origin: "contract_008_modify_2__mistral-large",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "Notwithstanding 2.1 and 2.2, the Supplier may sell or supply the Products to end users within USA at anytime.",
        altered: "Notwithstanding 2.1 and 2.2, the Supplier may sell or supply the Products to distributors within USA at anytime.",
        tier: "misquote",
        changes: &["has “distributors” for “end users”"],
    },
    Row {
        origin: "contract_008_modify_2__mistral-large (a word added)",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "the Supplier may sell or supply the Products to end users within USA at anytime.",
        // A word that changes no figure, date, obligation or negation: "not" added would be
        // reported with the quotes not in the source (tests/misquote_meaning.rs).
        altered: "the Supplier may sell or supply the Products directly to end users within USA at anytime.",
        tier: "misquote",
        changes: &["adds “directly”"],
    },
    Row {
        origin: "contract_010_review_2__o3-mini (its content reworded in quotation marks)",
        contract: "contract_010_reseller_agreement_filled.txt",
        real: "the Reseller Agreement can be terminated at any time at the discretion of either party.",
        altered: "termination at either party's discretion, at any time, of the Reseller Agreement",
        tier: "paraphrase",
        changes: &[],
    },
    Row {
        origin: "contract_008_modify_2__mistral-large (an invented sentence in its place)",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "Notwithstanding 2.1 and 2.2, the Supplier may sell or supply the Products to end users within USA at anytime.",
        altered: "the Supplier shall pay the Distributor a marketing allowance of five percent of net sales each quarter",
        tier: "not_in_source",
        changes: &[],
    },
    Row {
        origin: "contract_008_distributor_agreement_filled (a list item quoted without its enumerator, words added)",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "not use any promotional or advertising material for the Products not approved by the Supplier",
        altered: "It will not use any promotional or advertising material for the Products not approved by the Supplier",
        tier: "misquote",
        changes: &["adds “It will”"],
    },
    Row {
        origin: "contract_001_services_agreement_filled (three words dropped, one a possessive)",
        contract: "contract_001_services_agreement_filled.txt",
        real: "annual audits of the Fund's books and accounts made by independent public accountants regularly retained by the Fund",
        altered: "annual audits of the books and accounts made by public accountants retained by the Fund",
        tier: "misquote",
        changes: &["omits “Fund's”", "omits “independent”", "omits “regularly”"],
    },
    Row {
        origin: "contract_012_nda_filled (a passage across a page break, a word dropped)",
        contract: "contract_012_nda_filled.txt",
        real: "a court makes an order for administration (or any equivalent order in any jurisdiction); (iii) enters into any composition or arrangement with its creditors (other than relating to a solvent restructuring)",
        altered: "a court makes an order for administration (or any equivalent order in any jurisdiction); (iii) enters into any composition or arrangement with its creditors (other than relating to a restructuring)",
        tier: "misquote",
        changes: &["omits “solvent”"],
    },
    Row {
        origin: "contract_012_nda_filled (a short first piece whose words recur earlier in the source)",
        contract: "contract_012_nda_filled.txt",
        real: "During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature",
        altered: "During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own confidential information of a similar nature",
        tier: "misquote",
        changes: &["adds “confidential”"],
    },
    Row {
        origin: "contract_008_distributor_agreement_filled (a paraphrase in the source's sense, other words)",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "Any notice required to be given under this agreement, shall be in writing",
        altered: "all notices under the agreement must be in written form",
        tier: "paraphrase",
        changes: &[],
    },
    Row {
        origin: "contract_004_consulting_agreement_filled (a paraphrase using an acronym)",
        contract: "contract_004_consulting_agreement_filled.txt",
        real: "all disputes, claims, questions, or differences shall be finally settled by arbitration administered by the American Arbitration Association",
        altered: "AAA arbitration for all disputes",
        tier: "paraphrase",
        changes: &[],
    },
    Row {
        origin: "contract_004_consulting_agreement_filled (an invented obligation in the clause's words)",
        contract: "contract_004_consulting_agreement_filled.txt",
        real: "Neither Party shall delegate the performance of its duties under this Agreement without the prior written consent of the other Party.",
        altered: "the Consultant must obtain written approval before filing any patent application on the Opportunity",
        tier: "not_in_source",
        changes: &[],
    },
    Row {
        origin: "contract_008_distributor_agreement_filled (an invented payment term)",
        contract: "contract_008_distributor_agreement_filled.txt",
        real: "Any notice required to be given under this agreement, shall be in writing",
        altered: "the Supplier must pay the Distributor a quarterly rebate on every shipment delivered late",
        tier: "not_in_source",
        changes: &[],
    },
];

/// The changes a misquote's note names, in order ("…; the quote omits “x”; has “y” for “z”").
fn named_changes(note: &str) -> Vec<String> {
    note.split_once("”; the quote ")
        .map(|(_, c)| c.split("; ").map(str::to_string).collect())
        .unwrap_or_default()
}

fn contract(name: &str) -> Option<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/contract-reviews/contracts");
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus folder {} is missing (CI must check out `shared` beside the repo)",
            dir.display()
        );
        eprintln!("note: skipping corpus test, {} not found", dir.display());
        return None;
    }
    Some(std::fs::read_to_string(dir.join(name)).expect("source contract"))
}

fn review(quote: &str) -> String {
    format!("## Analysis\n\nSection 3 of the Agreement provides: \"{quote}\" This matters.\n")
}

#[test]
fn every_quote_lands_in_one_tier_whichever_check_sees_it_both_ways() {
    let mut failures = Vec::new();
    for row in ROWS {
        let Some(src) = contract(row.contract) else {
            return;
        };
        let inp = Inputs {
            source: Some(&src),
            ..Default::default()
        };
        // The real quote: grounded by every quote check.
        let text = review(row.real);
        for (_, check) in QUOTE_CHECKS {
            let o = apply(check, &text, &inp);
            if !o.hits.is_empty() || o.notes.starts_with("0 claim") {
                failures.push(format!("{}: real quote, {check}: {}", row.origin, o.notes));
            }
        }
        // The altered quote: flagged by its tier's check only, naming the changes.
        let text = review(row.altered);
        for (tier, check) in QUOTE_CHECKS {
            let o = apply(check, &text, &inp);
            let hit = flagged(&o, &text).contains(&row.altered);
            if hit != (tier == row.tier) {
                failures.push(format!(
                    "{}: altered quote ({}), {check} flagged {:?}: {}",
                    row.origin,
                    row.tier,
                    flagged(&o, &text),
                    o.notes
                ));
                continue;
            }
            if !hit || tier != "misquote" {
                continue;
            }
            // Exactly the right words: every change named, no other.
            let note = &o.hits[0].note;
            if named_changes(note) != row.changes {
                failures.push(format!(
                    "{}: note names {:?}, not {:?}: {note}",
                    row.origin,
                    named_changes(note),
                    row.changes
                ));
            }
            // The fix restores the source's words: the fixed quote is grounded.
            let words = o.hits[0]
                .source
                .as_ref()
                .and_then(|s| s.replacement.clone());
            let Some(words) = words else {
                failures.push(format!("{}: a misquote without a fix", row.origin));
                continue;
            };
            let fixed = review(&words);
            for (_, check) in QUOTE_CHECKS {
                let o = apply(check, &fixed, &inp);
                if !o.hits.is_empty() {
                    failures.push(format!(
                        "{}: fixed quote {words:?}, {check}: {}",
                        row.origin, o.notes
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The built binary on a review of a real contract: each tier in its check with its severity,
/// the misquote's finding showing the source passage, the dropped words and the fix's words.
#[test]
fn byop_check_reports_each_tier_in_its_check() {
    let Some(src) = contract("contract_001_services_agreement_filled.txt") else {
        return;
    };
    let ws = Ws::new();
    ws.write("contract.txt", &src);
    ws.write(
        "review.ai.md",
        "---\nbyop:\n  source: contract.txt\n---\n# Review\n\n\
         Section 3 of the Agreement provides: \"The Fund shall pay to Integrity any distribution and service fee authorized by the Plan.\"\n\n\
         Section 1 of the Agreement provides: \"Integrity Funds Distributor, LLC, (\"Integrity\"), shall be, for the period of this distribution agreement (the \"Agreement\"), the principal underwriter of shares issued by the Fund\".\n\n\
         The Agreement states: \"the Fund shall reimburse Integrity for all marketing costs within thirty days of each invoice\".\n",
    );
    let o = check_in(&ws, "json", "review.ai.md");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let by_id = |id: &str| check(&v, id);
    let spans = |id: &str| -> Vec<String> {
        by_id(id)["evidence_citations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["span"].as_str().unwrap().to_string())
            .collect()
    };
    let misquote = by_id("quotes_verbatim");
    assert_eq!(misquote["result"], "fail");
    assert_eq!(
        spans("quotes_verbatim"),
        [
            "The Fund shall pay to Integrity any distribution and service fee authorized by the Plan."
        ]
    );
    let c = &misquote["evidence_citations"][0];
    let note = c["context"].as_str().unwrap();
    assert!(
        note.contains("omits “as set forth in the Registration Statement”"),
        "{note}"
    );
    assert_eq!(
        c["source"]["replacement"],
        "The Fund shall pay to Integrity, as set forth in the Registration Statement, any distribution and service fee authorized by the Plan."
    );
    assert_eq!(
        spans("quotes_grounded"),
        [
            "the Fund shall reimburse Integrity for all marketing costs within thirty days of each invoice"
        ]
    );
    assert_eq!(by_id("quotes_grounded")["result"], "fail");
    assert_eq!(by_id("quotes_paraphrased")["result"], "pass");
}
