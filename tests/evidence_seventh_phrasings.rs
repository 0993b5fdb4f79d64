//! Durations and defined terms in the shapes the sixth tuning batch still missed, each rule
//! both ways with the outcome expected of the span: flagged (the source lacks it), grounded
//! (the source has it) or set aside with a named reason. Periods written as an ordinal or as
//! payment-term shorthand ("Net 55", "the 17th day", "the fifth anniversary"); a value laid
//! out as the source's in a table's body cell or under a title summing up its terms ("Key
//! dates:"); a bare term in a table cell; the long name before a short one in parentheses
//! ("the Joint Steering Board (the \"JSB\")"); drafting words that propose nothing ("any
//! proposed sale", "a negotiation period", "is drafted one-sidedly", "would seem to").

mod support;

use support::evidence::Expect::*;
use support::evidence::{ReasonRow, assert_reason_rows};

/// Real source excerpts (corpus contracts 003, 005, 012 and 014, as extracted).
const SRC_003: &str = "9. Principal will grant Distributor a discount based on the Products and Prices. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause. The Effective Date is the date of signature.\n";
const SRC_005: &str = "4.1 Term. This Warrant is exercisable in whole or in part at any time and from time to time on or before the earlier of 5:00 pm GMT on the tenth (10th) anniversary of the Issue Date. 4.2 Legends.\n";
const SRC_012: &str = "6. Governance 31 6.1 Joint Management Committee 31 6.2 JRDC 33 6.3 JOC 34 6.4 Alliance Director 34\n";
const SRC_014: &str = "If two Qualified Experts are chosen, one by each Party, and such Qualified Experts cannot agree within thirty (30) days of the appointment of the second of such Qualified Experts, the dispute is referred to arbitration.\n";

const ROWS: &[ReasonRow] = &[
    ReasonRow {
        cause: "payment-term shorthand in a table's body cell, absent",
        check: "entities_grounded",
        source: SRC_003,
        output: "| Issue | Provision | Risk |\n|---|---|---|\n| Payment window | Net 55 | Medium |\n",
        span: "Net 55",
        expect: Flagged,
    },
    ReasonRow {
        cause: "payment-term shorthand, the source's thirty (30) days",
        check: "entities_grounded",
        source: SRC_014,
        output: "| Issue | Provision | Risk |\n|---|---|---|\n| Expert deadline | Net 30 | Low |\n",
        span: "Net 30",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a cell under a column of proposals",
        check: "entities_grounded",
        source: SRC_003,
        output: "| Issue | Proposed change | Risk |\n|---|---|---|\n| Payment window | Net 55 | Medium |\n",
        span: "Net 55",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "an ordinal day as a limit",
        check: "entities_grounded",
        source: SRC_003,
        output: "Customer data must be returned or destroyed no later than the 17th day following termination.\n",
        span: "the 17th day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "an ordinal anniversary the source has as 'tenth (10th) anniversary'",
        check: "entities_grounded",
        source: SRC_005,
        output: "The Warrant can be exercised until the tenth anniversary of the Issue Date.\n",
        span: "the tenth anniversary",
        expect: Grounded,
    },
    ReasonRow {
        cause: "an ordinal anniversary, with a hedge ('would seem to') that proposes nothing",
        check: "entities_grounded",
        source: SRC_005,
        output: "The standstill obligation runs until the fifth anniversary of the Effective Date, which is longer than the commercial rationale would seem to require.\n",
        span: "the fifth anniversary",
        expect: Flagged,
    },
    ReasonRow {
        cause: "an ordinal anniversary the output recommends",
        check: "entities_grounded",
        source: SRC_005,
        output: "We recommend ending the standstill on the fifth anniversary of the Effective Date.\n",
        span: "the fifth anniversary",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "an item under a 'Key dates:' title",
        check: "entities_grounded",
        source: SRC_003,
        output: "Key dates:\n- Acceptance testing: 12 business days from delivery\n- Deemed acceptance if no rejection notice is served\n",
        span: "12 business days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "an item under a bold 'Timeline summary' title, the source's 30 days",
        check: "entities_grounded",
        source: SRC_014,
        output: "**Timeline summary**\n\n- Expert agreement: 30 days from the second appointment\n",
        span: "30 days",
        expect: Grounded,
    },
    ReasonRow {
        cause: "an item under a title that is no summary of the source",
        check: "entities_grounded",
        source: SRC_003,
        output: "Open questions:\n- Acceptance testing: 12 business days from delivery\n",
        span: "12 business days",
        expect: SetAside("no_claim_marker"),
    },
    ReasonRow {
        cause: "'negotiation period' is the source's period, not a proposal",
        check: "entities_grounded",
        source: SRC_003,
        output: "Unresolved disputes escalate to arbitration only after a 70-day negotiation period.\n",
        span: "70-day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "'negotiate' as a verb still proposes",
        check: "entities_grounded",
        source: SRC_003,
        output: "Negotiate a 70-day negotiation period before any arbitration.\n",
        span: "70-day",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a bare term in a table's body cell, absent",
        check: "entities_grounded",
        source: SRC_003,
        output: "| Issue | Provision | Observation | Risk |\n|---|---|---|---|\n| Rebates | Tiered Rebate Threshold | Rebate only payable once the threshold is reached | Medium |\n",
        span: "Tiered Rebate Threshold",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a bare term in a table's body cell, the source's",
        check: "entities_grounded",
        source: SRC_012,
        output: "| Issue | Provision | Observation | Risk |\n|---|---|---|---|\n| Governance | Joint Management Committee | Meets quarterly | Low |\n",
        span: "Joint Management Committee",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a bare term in a cell under a column of proposals",
        check: "entities_grounded",
        source: SRC_003,
        output: "| Issue | Proposed term | Risk |\n|---|---|---|\n| Rebates | Tiered Rebate Threshold | Medium |\n",
        span: "Tiered Rebate Threshold",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "the long name before a short one in parentheses, absent",
        check: "entities_grounded",
        source: SRC_012,
        output: "Governance decisions are reserved to the Joint Steering Board (the \"JSB\"), on which each party has equal representation.\n",
        span: "Joint Steering Board",
        expect: Flagged,
    },
    ReasonRow {
        cause: "the long name before a short one in curly quotes, the source's",
        check: "entities_grounded",
        source: SRC_012,
        output: "Budget approvals sit with the Joint Management Committee (the “JMC”), which decides by consensus.\n",
        span: "Joint Management Committee",
        expect: Grounded,
    },
    ReasonRow {
        cause: "the short name itself is the output's definition",
        check: "entities_grounded",
        source: SRC_012,
        output: "Governance decisions are reserved to the Joint Steering Board (the \"JSB\"), on which each party has equal representation.\n",
        span: "JSB",
        expect: SetAside("definition"),
    },
    ReasonRow {
        cause: "a long and short name the output proposes",
        check: "entities_grounded",
        source: SRC_012,
        output: "We propose a Joint Steering Board (the \"JSB\") to settle deadlocks.\n",
        span: "Joint Steering Board",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a bare term after a verb giving it",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Sponsor receives Sponsor Content Credits that can be redeemed for promotional placements.\n",
        span: "Sponsor Content Credits",
        expect: Flagged,
    },
    ReasonRow {
        cause: "the source's term after a verb giving it",
        check: "entities_grounded",
        source: SRC_012,
        output: "Each party's delegate receives Joint Management Committee minutes within a week.\n",
        span: "Joint Management Committee",
        expect: Grounded,
    },
    ReasonRow {
        cause: "'any proposed sale' is the source's subject matter",
        check: "references_grounded",
        source: SRC_003,
        output: "The Company is granted a right of first refusal over any proposed sale of the Product line under Art. 35.2.\n",
        span: "Art. 35.2",
        expect: Flagged,
    },
    ReasonRow {
        cause: "'is drafted one-sidedly' describes the source",
        check: "references_grounded",
        source: SRC_003,
        output: "The agreement excludes consequential damages in Section 21.8, but the exclusion is drafted one-sidedly in favour of the Provider.\n",
        span: "Section 21.8",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a section the output proposes to add",
        check: "references_grounded",
        source: SRC_003,
        output: "We propose adding Section 21.8 to exclude consequential damages.\n",
        span: "Section 21.8",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "'new-build' is no proposal",
        check: "entities_grounded",
        source: SRC_003,
        output: "Discounts apply only to Qualifying Refurbishment Orders, a defined category that excludes new-build equipment.\n",
        span: "Qualifying Refurbishment Orders",
        expect: Flagged,
    },
];

#[test]
fn seventh_rows_in_both_directions_with_their_reasons() {
    assert_reason_rows(ROWS);
}
