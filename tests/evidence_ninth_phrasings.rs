//! Durations, defined terms and references in the shapes the ninth tuning batch missed, each
//! rule both ways with the outcome expected of the span: flagged (the source lacks it), set
//! aside with a named reason, or not read as a claim at all. Durations: a period in quarters
//! ("five quarters"), "two and a half years", "unless either side objects at least seven
//! months before expiry". Drafting words that propose nothing: a sentence opening on
//! "Instead,", "any proposed sublicence", fees "added to the debt", "order amendments", "every
//! change to the plan", "than the headline term suggests", "in this market", a party's right
//! to add to a list written in lower case ("the supplier may add to that list"). Terms:
//! "designated as" / "treated as" a capitalised run. References: an appendix "to this memo" is
//! the output's own attachment; a part assigned "on creation" or "drafted so widely" is the
//! source's. Also: a bold label's value after a dash, a list under a title naming one of the
//! source's periods ("**Warranty period**"), "longer than any interest would justify", a
//! term written in capitals after an article ("the RESIDUAL ROYALTY FLOOR"); an offer to the
//! client ("If helpful, I can prepare a short definition of …") asks, it does not state; a
//! bold term opening a bullet and running on in lower case ("**Grandfathered Pricing**
//! applies only …") is its sentence's subject, not a title.

mod support;

use support::evidence::Expect::*;
use support::evidence::{ReasonRow, assert_reason_rows};

/// A real source excerpt (corpus contract 003, as extracted).
const SRC_003: &str = "1. The Principal appoints the Distributor as a non-exclusive distributor, to sell Principal's qPCR infectious disease kits, Logix Smart COVID-19 PCR diagnostic test and Co-Dx Box\u{2122} instrument (the \"Products\"). The Products are described on Exhibit A to this Agreement. 2. The Principal grants Distributor non- exclusive rights to sell these products within the countries of Romania (the \"Territory\"), which may be amended by mutual written agreement. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause.\n";

const ENT: &str = "entities_grounded";
const REF: &str = "references_grounded";

const ROWS: &[ReasonRow] = &[
    // Durations.
    ReasonRow {
        cause: "a period in quarters, absent",
        check: ENT,
        source: SRC_003,
        output: "The rebate holdback is released only after five quarters have elapsed, so the distributor is effectively financing the supplier's promotional spend in the meantime.\n",
        span: "five quarters",
        expect: Flagged,
    },
    ReasonRow {
        cause: "three quarters of a thing is a share, not a period",
        check: ENT,
        source: SRC_003,
        output: "The Distributor keeps three quarters of the margin on each sale.\n",
        span: "three quarters",
        expect: Unread,
    },
    ReasonRow {
        cause: "a period and a half, absent",
        check: ENT,
        source: SRC_003,
        output: "The consultant is tied in for two and a half years before the first break point arises.\n",
        span: "two and a half years",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a time limit to object",
        check: ENT,
        source: SRC_003,
        output: "**Renewal**\nThe term rolls over unless either side objects at least seven months before expiry.\nThis is easy to miss without a diary system.\n",
        span: "seven months",
        expect: Flagged,
    },
    // Drafting words that propose nothing, and the same words proposing.
    ReasonRow {
        cause: "a label's value after a dash",
        check: ENT,
        source: SRC_003,
        output: "The audit regime is the main operational concern for the distributor in this agreement.\n\n2. **Audit notice** \u{2013} only 4 business days, which is impractical for a finance team that is also running its own period-end close.\n",
        span: "4 business days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a value after a dash under the output's own proposal",
        check: ENT,
        source: SRC_003,
        output: "The audit regime is the main operational concern for the distributor in this agreement.\n\n**Our proposal** \u{2013} a notice period of 60 days.\n",
        span: "60 days",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a label's value under a title naming the source's period",
        check: ENT,
        source: SRC_003,
        output: "The supply terms are mostly standard for a distributor of diagnostic kits.\n\n**Warranty period**\n- Duration: 17 weeks from delivery\n- Remedy: repair or replacement only, at the supplier's option\n",
        span: "17 weeks",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a label's value under the output's own title",
        check: ENT,
        source: SRC_003,
        output: "The supply terms are mostly standard for a distributor of diagnostic kits.\n\n**Points to raise with the client**\n- Duration: 17 weeks from delivery\n",
        span: "17 weeks",
        expect: SetAside("no_claim_marker"),
    },
    ReasonRow {
        cause: "a comparison with what an interest would justify",
        check: ENT,
        source: SRC_003,
        output: "That restriction also continues for three (3) quarters after the relationship ends, which is longer than any legitimate business interest would justify.\n",
        span: "three (3) quarters",
        expect: Flagged,
    },
    ReasonRow {
        cause: "what the output would accept",
        check: ENT,
        source: SRC_003,
        output: "A restriction of three (3) quarters would be acceptable to the client.\n",
        span: "three (3) quarters",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a sentence opening on 'Instead,' contrasts",
        check: ENT,
        source: SRC_003,
        output: "Payment is not due on invoice. Instead, the buyer pays thirty-seven (37) days after the end of the month in which the goods were accepted, which stretches the seller's working capital considerably.\n",
        span: "thirty-seven (37) days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "'Instead,' before a proposal",
        check: ENT,
        source: SRC_003,
        output: "Instead, we propose that the buyer pays within 37 days.\n",
        span: "37 days",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a proposed sublicence is the source's subject matter",
        check: ENT,
        source: SRC_003,
        output: "The licensor also reserves a 43-day review period for any proposed sublicence, during which the licensee cannot close the downstream deal.\n",
        span: "43-day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a period the output proposes for a sublicence",
        check: ENT,
        source: SRC_003,
        output: "We propose a 43-day review period for any sublicence.\n",
        span: "43-day",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "fees the source adds to the debt",
        check: ENT,
        source: SRC_003,
        output: "Unpaid balances are handed to a collection agency after 53 days, and the agency's fees are then added to the debt.\n",
        span: "53 days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "fees the output would add",
        check: ENT,
        source: SRC_003,
        output: "Late fees should be added to the debt after 53 days.\n",
        span: "53 days",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "order amendments are the source's subject matter",
        check: ENT,
        source: SRC_003,
        output: "That is made worse by an 18-hour cut-off for order amendments, after which any change is treated as a fresh order at current prices.\n",
        span: "18-hour",
        expect: Flagged,
    },
    ReasonRow {
        cause: "every change to the plan is the source's subject matter",
        check: ENT,
        source: SRC_003,
        output: "Every change to the marketing plan needs the Steering Panel's sign-off, and the licensor appoints a majority of its members.\n",
        span: "Steering Panel",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a change the output suggests",
        check: ENT,
        source: SRC_003,
        output: "We suggest a change to the Steering Panel's remit.\n",
        span: "Steering Panel",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "what a headline term suggests",
        check: ENT,
        source: SRC_003,
        output: "Neither party may issue a termination notice during a Blackout Interval, so the practical window for exit is much narrower than the headline term suggests.\n",
        span: "Blackout Interval",
        expect: Flagged,
    },
    ReasonRow {
        cause: "what the output suggests",
        check: ENT,
        source: SRC_003,
        output: "This suggests a Blackout Interval for both parties.\n",
        span: "Blackout Interval",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a party's right to add to a list, in lower case",
        check: ENT,
        source: SRC_003,
        output: "* The reseller's territory excludes all Strategic Carve-Out Regions, and the supplier may add to that list at will.\n",
        span: "Strategic Carve-Out Regions",
        expect: Flagged,
    },
    ReasonRow {
        cause: "what a party should add",
        check: ENT,
        source: SRC_003,
        output: "The supplier should add the Strategic Carve-Out Regions to Exhibit A.\n",
        span: "Strategic Carve-Out Regions",
        expect: SetAside("drafting_sentence"),
    },
    // Terms.
    ReasonRow {
        cause: "a run designated as a term, absent",
        check: ENT,
        source: SRC_003,
        output: "* Key staff are designated as Ring-Fenced Personnel and cannot be moved to other projects without consent.\n",
        span: "Ring-Fenced Personnel",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a run the output would designate",
        check: ENT,
        source: SRC_003,
        output: "Key staff should be designated as Ring-Fenced Personnel.\n",
        span: "Ring-Fenced Personnel",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a term in capitals after an article, absent",
        check: ENT,
        source: SRC_003,
        output: "Even after termination the licensee remains liable for the RESIDUAL ROYALTY FLOOR, which is payable whether or not any further sales are made.\n",
        span: "RESIDUAL ROYALTY FLOOR",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a line in capitals is a heading or a copied clause",
        check: ENT,
        source: SRC_003,
        output: "THE DISTRIBUTOR BEARS THE RESIDUAL ROYALTY FLOOR.\n",
        span: "RESIDUAL ROYALTY FLOOR",
        expect: Unread,
    },
    ReasonRow {
        cause: "a run a party may reclaim, absent",
        check: ENT,
        source: SRC_003,
        output: "| Topic | Term | Comment |\n|---|---|---|\n| Inventory | Supplier may reclaim Consignment Buffer Stock at any time | Medium |\n",
        span: "Consignment Buffer Stock",
        expect: Flagged,
    },
    ReasonRow {
        cause: "an offer to the client is a question in other words",
        check: ENT,
        source: SRC_003,
        output: "If helpful, I can prepare a short definition of \"Qualifying Outage\" so that the credit regime has an objective trigger.\n",
        span: "Qualifying Outage",
        expect: SetAside("open_question"),
    },
    ReasonRow {
        cause: "what a party can prepare is the source's",
        check: ENT,
        source: SRC_003,
        output: "The Principal can prepare a Qualifying Outage Report only after 30 days.\n",
        span: "30 days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a bold term opening a bullet as its sentence's subject",
        check: ENT,
        source: SRC_003,
        output: "- **Grandfathered Pricing** applies only to orders placed before the first price review, after which list prices apply across the board.\n",
        span: "Grandfathered Pricing",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a bold label before a colon is the output's title",
        check: ENT,
        source: SRC_003,
        output: "- **Grandfathered Pricing:** applies only to orders placed before the first price review.\n",
        span: "Grandfathered Pricing",
        expect: Unread,
    },
    // References.
    ReasonRow {
        cause: "an appendix to the output's own memo",
        check: REF,
        source: SRC_003,
        output: "- The full tracked-changes version is set out in Appendix C to this memo.\n",
        span: "Appendix C",
        expect: SetAside("other_document"),
    },
    ReasonRow {
        cause: "an appendix stated as the source's, absent",
        check: REF,
        source: SRC_003,
        output: "The tracked-changes version is set out in Appendix C.\n",
        span: "Appendix C",
        expect: Flagged,
    },
    ReasonRow {
        cause: "work product assigned on creation",
        check: REF,
        source: SRC_003,
        output: "Under \u{a7} 44.7 the consultant assigns all work product on creation, including pre-existing tools that are merely used on the engagement.\n",
        span: "\u{a7} 44.7",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a part drafted too widely",
        check: REF,
        source: SRC_003,
        output: "1. Sub-clause 48.3 is drafted so widely that almost any customer complaint could be treated as a breach.\n",
        span: "Sub-clause 48.3",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a part the output has drafted",
        check: REF,
        source: SRC_003,
        output: "I have drafted a new Sub-clause 48.3 on complaints.\n",
        span: "Sub-clause 48.3",
        expect: SetAside("drafting_sentence"),
    },
];

#[test]
fn ninth_rows_in_both_directions_with_their_reasons() {
    assert_reason_rows(ROWS);
}
