//! The document's fuzzy-matching budget.

use super::*;

/// The fuzzy-matching budget is the document's, not each quote's: once spent, a quote not
/// found is counted as cut short (so the quote check does not call it absent), and the
/// same quotes under the default budget are searched in full, with the same answers.
#[test]
fn the_documents_fuzzy_budget_bounds_many_quotes_and_says_when_it_ran_out() {
    let para = "The Supplier shall deliver the Goods to the Customer at the agreed place within thirty days of each order, and the Customer shall pay every invoice within sixty days of its date. ";
    let text = para.repeat(40);
    let invented: Vec<String> = (0..12)
        .map(|i| format!("The Supplier shall deliver the Goods {i} times over to the Customer's warehouse at its own risk and expense"))
        .collect();
    let full = Locator::new(&text, (0, text.len()));
    let answers: Vec<Located> = invented.iter().map(|q| full.locate(q).located).collect();
    assert_eq!(
        full.starved(),
        0,
        "the default budget covers a dozen quotes"
    );
    let tight = Locator::new(&text, (0, text.len())).with_fuzzy_budget(200_000);
    let mut cut_short = 0;
    for (q, full_answer) in invented.iter().zip(&answers) {
        let before = tight.starved();
        let got = tight.locate(q).located;
        if tight.starved() > before {
            cut_short += 1;
            assert_eq!(got, Located::Unlocated, "{q}");
        } else {
            assert_eq!(
                got, *full_answer,
                "an answer within budget is the full search's: {q}"
            );
        }
    }
    assert!(
        cut_short >= 6,
        "only {cut_short} of 12 searches ran out of budget"
    );
    // A quote found before fuzzy matching costs nothing, budget or not.
    assert_eq!(tight.locate(&para[..60]).located, Located::Exact);
}
