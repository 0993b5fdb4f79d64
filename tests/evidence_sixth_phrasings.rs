//! References, durations and defined terms in the phrasings of a sixth tuning batch written
//! blind (`scripts/tuning_evidence_sixth.py`) and the misses the earlier batches still had: a
//! quoted term after "the" is the source's term in use, not a definition the output drafts; a
//! heading for the output's further notes ("Additional Considerations", "Final Notes") is its
//! analysis, not proposed text; an `[END ADD]` marker closes the drafted text instead of
//! opening more; "cl. 28.9", "para. 14(f)" and "s. 23.5" are references. One table, each rule
//! both ways: the planted value the source lacks is flagged; the source's own value is
//! grounded; the output's own definition, proposal or drafted clause is not a claim.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpt (corpus contract 003, as extracted).
const SRC_003: &str = "9. Principal will grant Distributor a discount based on the Products and Prices. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause. The Effective Date is the date of signature.\n";

const ROWS: &[Row] = &[
    Row {
        cause: "a quoted term after 'the', in use",
        check: "entities_grounded",
        source: SRC_003,
        output: "Part of the price is paid into the \"Deferred Consideration Pool\", from which the Buyer can recover indemnity claims.\n",
        span: "Deferred Consideration Pool",
        flagged: true,
    },
    Row {
        cause: "a quoted term after 'the', bold, followed by an apposition",
        check: "entities_grounded",
        source: SRC_003,
        output: "- **Exclusivity:** The grant is limited to the **\"Exclusivity Corridor\"**, a defined subset of the Territory.\n",
        span: "Exclusivity Corridor",
        flagged: true,
    },
    Row {
        cause: "the source's own term quoted after 'the'",
        check: "entities_grounded",
        source: SRC_003,
        output: "Payment runs from the \"Effective Date\", which the Principal cannot move.\n",
        span: "Effective Date",
        flagged: false,
    },
    Row {
        cause: "a definition the output drafts, in parentheses",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Distributor shall keep a reserve of stock (the \"Safety Stock\") at all times.\n",
        span: "Safety Stock",
        flagged: false,
    },
    Row {
        cause: "a definition the output drafts, after 'referred to as'",
        check: "entities_grounded",
        source: SRC_003,
        output: "Acme Holdings, referred to as \"Guarantor\", shall guarantee the payments.\n",
        span: "Guarantor",
        flagged: false,
    },
    Row {
        cause: "a quote of a formulation the output proposes ('would read:')",
        check: "quotes_grounded",
        source: SRC_003,
        output: "A typical formulation would read: \"'Exit Assistance Period' means the period during which the Provider supplies transition services.\"\n",
        span: "'Exit Assistance Period' means the period during which the Provider supplies transition services.",
        flagged: false,
    },
    Row {
        cause: "a quote the output says the source has ('reads:')",
        check: "quotes_grounded",
        source: SRC_003,
        output: "Section 10 reads: \"'Exit Assistance Period' means the period during which the Provider supplies transition services.\"\n",
        span: "'Exit Assistance Period' means the period during which the Provider supplies transition services.",
        flagged: true,
    },
    Row {
        cause: "a quoted term after 'as the', in use",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Vendor must treat the Customer's systems as the \"Golden Source Records\" and reconcile its data against them.\n",
        span: "Golden Source Records",
        flagged: true,
    },
    Row {
        cause: "analysis after an [END ADD] marker",
        check: "references_grounded",
        source: SRC_003,
        output: "**[ADD]**\n\n**10.1 Renewal.** This Agreement shall renew for one year.\n\n**[END ADD]**\n\nThis addition keeps the contract balanced.\n\nSection 92 lets the supplier suspend performance without notice.\n",
        span: "Section 92",
        flagged: true,
    },
    Row {
        cause: "the drafted clause between [ADD] and [END ADD]",
        check: "references_grounded",
        source: SRC_003,
        output: "**[ADD]**\n\n**10.1 Renewal.** Either party may terminate under Section 92 on notice.\n\n**[END ADD]**\n\nThis addition keeps the contract balanced.\n",
        span: "Section 92",
        flagged: false,
    },
    Row {
        cause: "a heading for the output's further notes",
        check: "entities_grounded",
        source: SRC_003,
        output: "### Additional Considerations:\n\n- **Audit Rights**: The existing Section 9 already covers audits.\n\nThe reseller loses its Exit Support Window if it misses a payment.\n",
        span: "Exit Support Window",
        flagged: true,
    },
    Row {
        cause: "a heading for the output's further proposals",
        check: "entities_grounded",
        source: SRC_003,
        output: "### Additional Recommendations\n\nThe reseller loses its Exit Support Window if it misses a payment.\n",
        span: "Exit Support Window",
        flagged: false,
    },
    Row {
        cause: "a heading for the output's full revised text",
        check: "references_grounded",
        source: SRC_003,
        output: "### Full Revised Text of Section 10\n\nSection 92 lets the supplier suspend performance without notice.\n",
        span: "Section 92",
        flagged: false,
    },
    Row {
        cause: "'cl.' in a bullet's parenthesis",
        check: "references_grounded",
        source: SRC_003,
        output: "- Audit rights (cl. 28.9): the Licensor may audit the Licensee's books once per year.\n",
        span: "cl. 28.9",
        flagged: true,
    },
    Row {
        cause: "'para.' after 'Under'",
        check: "references_grounded",
        source: SRC_003,
        output: "Under para. 14(f), the Distributor must obtain written approval before using the marks.\n",
        span: "para. 14(f)",
        flagged: true,
    },
    Row {
        cause: "the source's own clause as 'cl.'",
        check: "references_grounded",
        source: SRC_003,
        output: "Under cl. 10, either party may terminate on notice.\n",
        span: "cl. 10",
        flagged: false,
    },
];

#[test]
fn sixth_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn sixth_rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
