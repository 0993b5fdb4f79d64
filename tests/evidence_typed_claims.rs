//! The typed claim kinds that held-out recall found weakest: legal citations, people named
//! without an honorific, capitalised terms without quotation marks, parties introduced as the
//! counterparty, terms the Agreement is said to define. One table, each rule in both
//! directions: an invention the source lacks is flagged; the same kind of words that the
//! source has, or that are the output's own discussion of the law or its own labels (real
//! corpus sentences), are not.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpts (corpus contracts 008, 002 and 001, shortened).
const SRC_008: &str = "24.1 This agreement shall be governed by and construed in accordance with the law of the State of Ohio.\n\n24.2 The parties irrevocably agree that the courts of Ohio shall have non-exclusive jurisdiction to settle any dispute.\n\n25.1 Liquidated damages of ten percent of the order value apply to late delivery.\n";
const SRC_002: &str = "1. Services. Company agrees to make the services available. 4. Returns and Reversals. User transactions debited from bank accounts via ACH are subject to returns and reversals per the Electronic Fund Transfer Act (15 U.S.C. 1693 et seq.). 5. Notices. Notices shall be sent to the attention of Jane Okoro, General Counsel. 6. Acceptance. Payment is due after the Acceptance Date.\n";
const SRC_001: &str = "This Services Agreement is entered into between NexGen Analytics Inc. and Velocity Software Inc.\n\n1. Services. Velocity shall provide the services.\n\n2. Fees. NexGen shall pay the fees.\n";

const ROWS: &[Row] = &[
    // Legal citations: the output's legal analysis is not a claim about the source.
    Row {
        cause: "citation in a discussion of the law (008_add_clause_1 mistral-large)",
        check: "entities_grounded",
        source: SRC_008,
        output: "   - Liquidated damages are enforceable if they represent a **reasonable pre-estimate of damages** (Ohio Rev. Code § 1302.88). The 10% rate is justified by the Supplier’s lost production costs.\n",
        span: "Ohio Rev. Code § 1302.88",
        flagged: false,
    },
    Row {
        cause: "citation planted: the Agreement said to incorporate a statute it does not cite",
        check: "entities_grounded",
        source: SRC_008,
        output: "- The Agreement incorporates Ohio Rev. Code § 1302.88 for liquidated damages.\n",
        span: "Ohio Rev. Code § 1302.88",
        flagged: true,
    },
    Row {
        cause: "citation planted: disputes said to be subject to an EU directive",
        check: "entities_grounded",
        source: SRC_008,
        output: "The Agreement states that disputes are subject to Directive 2006/123/EC.\n",
        span: "Directive 2006/123/EC",
        flagged: true,
    },
    Row {
        cause: "citation the source has (002: the Electronic Fund Transfer Act)",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement states that ACH returns are handled per the Electronic Fund Transfer Act (15 U.S.C. 1693).\n",
        span: "15 U.S.C. 1693",
        flagged: false,
    },
    // People without an honorific.
    Row {
        cause: "person planted: a signatory the source does not name",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement was signed for the Company by Tobias Wrenfield, its finance director.\n",
        span: "Tobias Wrenfield",
        flagged: true,
    },
    Row {
        cause: "person the source names (002: the notice contact)",
        check: "entities_grounded",
        source: SRC_002,
        output: "Notices under the Agreement go to the attention of Jane Okoro.\n",
        span: "Jane Okoro",
        flagged: false,
    },
    Row {
        cause: "a bold label is not a person (001_redline_3 glm-4.6)",
        check: "entities_grounded",
        source: SRC_001,
        output: "**Initial Observation:** There appears to be a significant discrepancy in this document. The header indicates this is a Services Agreement between NexGen Analytics Inc. and Velocity Software Inc.\n",
        span: "Initial Observation",
        flagged: false,
    },
    // Capitalised terms without quotation marks.
    Row {
        cause: "term planted: the Agreement said to rely on a term it does not use",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement ties the release of funds to the Escrow Release Event, which neither party controls.\n",
        span: "Escrow Release Event",
        flagged: true,
    },
    Row {
        cause: "term the source uses (002: the Acceptance Date)",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement ties payment to the Acceptance Date, which neither party controls.\n",
        span: "Acceptance Date",
        flagged: false,
    },
    Row {
        cause: "a term the output keeps using is its own vocabulary",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement should add a Holdback clause. Under it, the Escrow Release Event occurs on acceptance, and the Escrow Release Event ends the holdback after the Acceptance Date.\n",
        span: "Escrow Release Event",
        flagged: false,
    },
    // Terms the Agreement is said to define, parties introduced as the counterparty.
    Row {
        cause: "defined term planted after 'The Agreement defines', despite 'must'",
        check: "entities_grounded",
        source: SRC_002,
        output: "The Agreement defines \"Revenue Holdback Amount\" as the sum the customer must retain.\n",
        span: "Revenue Holdback Amount",
        flagged: true,
    },
    Row {
        cause: "party planted as the counterparty",
        check: "entities_grounded",
        source: SRC_001,
        output: "Notably, the counterparty is Brightwater Analytics Inc., so any assignment needs its consent.\n",
        span: "Brightwater Analytics Inc.",
        flagged: true,
    },
    Row {
        cause: "the counterparty the source names",
        check: "entities_grounded",
        source: SRC_001,
        output: "Notably, the counterparty is Velocity Software Inc., so any assignment needs its consent.\n",
        span: "Velocity Software Inc.",
        flagged: false,
    },
];

#[test]
fn typed_claim_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
