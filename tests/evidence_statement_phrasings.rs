//! Plain statements of what the source says, in the phrasings a third writer used: a party's
//! price right with "may raise", a time limit with "must be raised within", a cure period a
//! party "has", obligations that "survive for", an initial term, deliveries "made within", a liability "limited to", the contract that
//! "sets a cap of" after an analysis label, and defined terms in a list, after "the term" or
//! after "if a", "each" or "all"; a percentage needs no marker word. One table, each rule both ways: the planted value the source lacks is
//! flagged; real corpus sentences that describe the output's own changes, its own drafting or
//! a figure it computed are not.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpts (corpus contracts 005 and 003, as extracted).
const SRC_005: &str = "Article 2 COMPENSATION 2.1 Remuneration. (a) The Consultant's monthly base consulting fee shall be three thousand two hundred fifty United States dollars ($75,000 (together with any increases thereto as hereinafter provided, the \"Base Consulting Fee\") through 19 August 2020. Commencing on 20 August 2020, Consultant's Base Consulting Fee shall be increased to $8,500 per calendar month. All subsequent monthly payments of Base Consulting Fee shall be paid within the first five days of the following calendar month.\n\n2.2 Incentive Plans. The Consultant's bonus payment level will be set at a minimum of 25% of the annual gross Base Consulting Fee.\n";
const SRC_003: &str = "9. Principal will grant Distributor a discount based on the Products and Prices. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause. The Effective Date is the date of signature.\n";

const ROWS: &[Row] = &[
    Row {
        cause: "a price right with 'may raise' states the source",
        check: "entities_grounded",
        source: SRC_005,
        output: "The supplier may raise its prices by 21.5 per cent each year.\n",
        span: "21.5 per cent",
        flagged: true,
    },
    Row {
        cause: "the source's own percentage in the same phrasing",
        check: "entities_grounded",
        source: SRC_005,
        output: "The supplier may raise its prices by 25% each year.\n",
        span: "25%",
        flagged: false,
    },
    Row {
        cause: "an imperative 'Raise' is a proposal (the old reading kept)",
        check: "entities_grounded",
        source: SRC_005,
        output: "- Raise the bonus floor to 40% of the fee.\n",
        span: "40%",
        flagged: false,
    },
    Row {
        cause: "a time limit with 'must be raised within'",
        check: "entities_grounded",
        source: SRC_005,
        output: "**Why it matters:** Claims must be raised within 27 days after delivery.\n",
        span: "27 days",
        flagged: true,
    },
    Row {
        cause: "a cure period a party has, with no other marker word",
        check: "entities_grounded",
        source: SRC_005,
        output: "The supplier has a 19-day cure period for any material breach.\n",
        span: "19-day",
        flagged: true,
    },
    Row {
        cause: "obligations that survive for a time",
        check: "entities_grounded",
        source: SRC_005,
        output: "**Note:** Confidentiality obligations survive for 55 months after expiry.\n",
        span: "55 months",
        flagged: true,
    },
    Row {
        cause: "a liability 'limited to' a share",
        check: "entities_grounded",
        source: SRC_005,
        output: "Liability for data loss is limited to up to 17.5 per cent of the fees paid.\n",
        span: "17.5 per cent",
        flagged: true,
    },
    Row {
        cause: "'the contract sets a cap of' after an analysis label",
        check: "entities_grounded",
        source: SRC_005,
        output: "**Why it matters:** The contract sets a cap of £288,264 on the supplier's liability.\n",
        span: "£288,264",
        flagged: true,
    },
    Row {
        cause: "a defined term at the end of a list of defined terms",
        check: "entities_grounded",
        source: SRC_003,
        output: "Key defined terms include Effective Date, Services and Transition Fee.\n",
        span: "Transition Fee",
        flagged: true,
    },
    Row {
        cause: "the source's own term in the same list",
        check: "entities_grounded",
        source: SRC_003,
        output: "Key defined terms include Effective Date, Services and Transition Fee.\n",
        span: "Effective Date",
        flagged: false,
    },
    Row {
        cause: "a defined term after 'the term'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement relies on the term Deemed Acceptance Date to decide when the deposit is returned.\n",
        span: "Deemed Acceptance Date",
        flagged: true,
    },
    Row {
        cause: "a defined event after 'if a'",
        check: "entities_grounded",
        source: SRC_003,
        output: "**Issue:** If a Peak Season Surcharge occurs, the supplier can stop deliveries.\n",
        span: "Peak Season Surcharge",
        flagged: true,
    },
    Row {
        cause: "a yearly increase the source lacks ('increase' states the source)",
        check: "entities_grounded",
        source: SRC_005,
        output: "Fees increase by 14% annually.\n",
        span: "14%",
        flagged: true,
    },
    Row {
        cause: "a cut the output asks for ('Reduce' opens the sentence)",
        check: "entities_grounded",
        source: SRC_005,
        output: "- Reduce the bonus floor to 14% of the fee.\n",
        span: "14%",
        flagged: false,
    },
    Row {
        cause: "a discount rate with no marker word",
        check: "entities_grounded",
        source: SRC_005,
        output: "The buyer receives a 14% discount on all orders.\n",
        span: "14%",
        flagged: true,
    },
    Row {
        cause: "a defined term after 'all'",
        check: "entities_grounded",
        source: SRC_003,
        output: "All Milestone Credits lapse on termination.\n",
        span: "Milestone Credits",
        flagged: true,
    },
    Row {
        cause: "an initial term the source lacks",
        check: "entities_grounded",
        source: SRC_005,
        output: "The initial term is 47 months.\n",
        span: "47 months",
        flagged: true,
    },
    Row {
        cause: "a delivery time limit ('made within')",
        check: "entities_grounded",
        source: SRC_005,
        output: "Deliveries are made within 47 business days.\n",
        span: "47 business days",
        flagged: true,
    },
    Row {
        cause: "the source's own time limit in the same phrasing",
        check: "entities_grounded",
        source: SRC_005,
        output: "Payments are made within five days of the following month.\n",
        span: "five days",
        flagged: false,
    },
    // Real corpus sentences that must stay quiet.
    Row {
        cause: "a hypothetical with a duration and no marker (010_review_2 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_005,
        output: "**SCENARIO**: Reseller sells 3-year hosting contract on Day 1\n\nThe fee is $8,500 per calendar month.\n",
        span: "3-year",
        flagged: false,
    },
    Row {
        cause: "100% as 'all' in a risk table (010_review_2 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_005,
        output: "| 30-day commission cutoff | **CRITICAL** | Loss of 100% of recurring revenue streams |\n",
        span: "100%",
        flagged: false,
    },
    Row {
        cause: "a change log of the output's own edits (002_modify_payment_2 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_005,
        output: "- Extended late payment threshold from 30 to 45 days to align with quarterly billing and provide reasonable payment window\n",
        span: "45 days",
        flagged: false,
    },
    Row {
        cause: "a capitalised description after 'an' is no term (017_summarize_1 o3-mini)",
        check: "entities_grounded",
        source: SRC_003,
        output: " The agreement establishes an Internet Channel Cooperation Arrangement that leverages Party A’s dominant search platform. The Agreement is in effect until March 18, 2021.\n",
        span: "Internet Channel Cooperation Arrangement",
        flagged: false,
    },
    Row {
        cause: "a clause the output adds, named after 'an' (004_add_clause_2 qwen-2.5-72b)",
        check: "entities_grounded",
        source: SRC_003,
        output: "Certainly! Below is the modified contract with the addition of an Intellectual Property Assignment clause, including provisions for pre-existing IP. The Agreement is in effect until March 18, 2021.\n",
        span: "Intellectual Property Assignment",
        flagged: false,
    },
    Row {
        cause: "a computed change (005_review_3 mistral-large)",
        check: "entities_grounded",
        source: SRC_005,
        output: "1. **Typographical error**: The initial fee is likely **$75,000/month**, but the subsequent drop to **$8,500/month** is **drastically lower** (a **~89% reduction**).\n",
        span: "89%",
        flagged: false,
    },
    Row {
        cause: "the output's own drafted section (003_redline_3 gpt-5)",
        check: "references_grounded",
        source: SRC_003,
        output: "- Agreement scope: SLAs typically apply to hosted services. Section 20 is drafted to apply to any services/portals/instrument-connected features provided by Principal.\n",
        span: "Section 20",
        flagged: false,
    },
];

#[test]
fn statement_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn statement_rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
