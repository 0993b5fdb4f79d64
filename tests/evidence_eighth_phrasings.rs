//! Defined terms, durations and the output's own questions in the shapes the sixth and eighth
//! tuning batches missed, each rule both ways with the outcome expected of the span: flagged
//! (the source lacks it), grounded (the source has it), set aside with a named reason, or not
//! read as a claim at all. Terms: a parenthetical name after lower-case words ("the agreed
//! launch period (the \"Launch Window\")"), a quoted term used as a name without "the", a
//! plural possessive, a term repeated in its paragraph's label, a list item's "*" marker that
//! opens no emphasis, a term inside a quoted example. Durations: any hyphen, "a fortnight",
//! "5 yrs", a clause after a colon, a condition after the duration, a label's value, an
//! enumerated item. Sentences that assert nothing about the source: a question, the request's
//! question retold, an item to confirm, a remark on the law, the client's own template, a
//! request in a table cell, a fallback position; and a party's right to change a thing ("a
//! document the Supplier prepares and can revise"), which proposes nothing.

mod support;

use support::evidence::Expect::*;
use support::evidence::{ReasonRow, assert_reason_rows};

/// Real source excerpts (corpus contracts 003 and 014, as extracted).
const SRC_003: &str = "1. The Principal appoints the Distributor as a non-exclusive distributor, to sell Principal's qPCR infectious disease kits, Logix Smart COVID-19 PCR diagnostic test and Co-Dx Box\u{2122} instrument (the \"Products\"). The Products are described on Exhibit A to this Agreement. 2. The Principal grants Distributor non- exclusive rights to sell these products within the countries of Romania (the \"Territory\"), which may be amended by mutual written agreement. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause.\n";
const SRC_014: &str = "If two Qualified Experts are chosen, one by each Party, and such Qualified Experts cannot agree within thirty (30) days of the appointment of the second of such Qualified Experts, the dispute is referred to arbitration.\n";

const ENT: &str = "entities_grounded";
const REF: &str = "references_grounded";

const ROWS: &[ReasonRow] = &[
    // Terms.
    ReasonRow {
        cause: "a name in parentheses after lower-case words, absent",
        check: ENT,
        source: SRC_003,
        output: "Product launches must fall within the agreed launch period (the \u{201c}Launch Window\u{201d}), and the Distributor bears the cost of any delay.\n",
        span: "Launch Window",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a name in parentheses after lower-case words, the source's",
        check: ENT,
        source: SRC_003,
        output: "The Distributor may sell only within the agreed countries (the \"Territory\").\n",
        span: "Territory",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a short name in parentheses after a name: the output's own",
        check: ENT,
        source: SRC_003,
        output: "Precheck Health Services (the \"PHS Group\") appoints the Distributor.\n",
        span: "PHS Group",
        expect: SetAside("definition"),
    },
    ReasonRow {
        cause: "a name in parentheses in a sentence the output drafts",
        check: ENT,
        source: SRC_003,
        output: "The Distributor shall keep the launch period (the \"Launch Window\") free of competing launches.\n",
        span: "Launch Window",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a quoted term used as a name, without 'the', absent",
        check: ENT,
        source: SRC_003,
        output: "The confidentiality clause carves out **\"Residual Know-How\"**, allowing the Recipient to use what it remembers.\n",
        span: "Residual Know-How",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a quoted term used as a name, the source's",
        check: ENT,
        source: SRC_003,
        output: "Ownership of \"Logix Smart\" kits stays with the Principal.\n",
        span: "Logix Smart",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a quoted term discussed as a word",
        check: ENT,
        source: SRC_003,
        output: "The phrase \"Residual Know-How\" is vague.\n",
        span: "Residual Know-How",
        expect: SetAside("no_claim_marker"),
    },
    ReasonRow {
        cause: "a term after a plural possessive, absent",
        check: ENT,
        source: SRC_003,
        output: "The assignment is expressly subject to the Founders' Retained Rights.\n",
        span: "Retained Rights",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a term after a possessive, the source's",
        check: ENT,
        source: SRC_003,
        output: "Sales are limited to the Principal's Logix Smart kits.\n",
        span: "Logix Smart",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a party's defined one-word term after a possessive is no new term",
        check: ENT,
        source: SRC_003,
        output: "Sales outside the Distributor's Territory need the Principal's consent.\n",
        span: "Territory",
        expect: Unread,
    },
    ReasonRow {
        cause: "a term repeated in its paragraph's label, absent",
        check: ENT,
        source: SRC_003,
        output: "**Wind-Down Inventory:** The Distributor must buy back all Wind-Down Inventory at cost.\n",
        span: "all Wind-Down Inventory",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a label alone is the output's title, not a claim",
        check: ENT,
        source: SRC_003,
        output: "**Wind-Down Inventory:** the contract is silent on unsold stock.\n",
        span: "Wind-Down Inventory",
        expect: Unread,
    },
    ReasonRow {
        cause: "a list item's '*' marker opens no emphasis",
        check: ENT,
        source: SRC_003,
        output: "* The Distributor's Launch Support Credits are expressly non-binding.\n",
        span: "Launch Support Credits",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a term inside a quoted example",
        check: ENT,
        source: SRC_003,
        output: "Example: \"The Consultant retains all rights in the Consultant Toolkit and grants a licence to use it.\"\n",
        span: "Consultant Toolkit",
        expect: SetAside("inside_quote"),
    },
    // Durations.
    ReasonRow {
        cause: "a non-breaking hyphen, absent",
        check: ENT,
        source: SRC_003,
        output: "The 45\u{2011}day payment window runs from approval of the invoice.\n",
        span: "45\u{2011}day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a non-breaking hyphen, the source's thirty (30) days",
        check: ENT,
        source: SRC_014,
        output: "The experts have a 30\u{2011}day window to agree.\n",
        span: "30\u{2011}day",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a fortnight",
        check: ENT,
        source: SRC_003,
        output: "On exit, the Distributor must return all stock within a fortnight of termination.\n",
        span: "a fortnight",
        expect: Flagged,
    },
    ReasonRow {
        cause: "an abbreviated unit as a label's value",
        check: ENT,
        source: SRC_003,
        output: "- Survival: 5 yrs post-expiry for confidentiality.\n",
        span: "5 yrs",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a clause after a colon",
        check: ENT,
        source: SRC_003,
        output: "The audit clause is onerous: sales records must be kept for seven years.\n",
        span: "seven years",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a condition after the duration is the source's",
        check: ENT,
        source: SRC_003,
        output: "Holdbacks are released within 25 days of acceptance, but only if no claim is pending.\n",
        span: "25 days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a condition before the duration is a scenario",
        check: ENT,
        source: SRC_003,
        output: "If the Distributor pays late, the Principal may suspend after 25 days.\n",
        span: "25 days",
        expect: SetAside("no_claim_marker"),
    },
    ReasonRow {
        cause: "a label's whole value",
        check: ENT,
        source: SRC_003,
        output: "**Termination Without Cause: 120 days**\n",
        span: "120 days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a label's whole value, the source's",
        check: ENT,
        source: SRC_014,
        output: "**Expert deadline: thirty days**\n",
        span: "thirty days",
        expect: Grounded,
    },
    ReasonRow {
        cause: "a label naming the output's proposal",
        check: ENT,
        source: SRC_003,
        output: "**Our proposal:** a notice period of 60 days.\n",
        span: "60 days",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "an enumerated item after an item without a full stop",
        check: ENT,
        source: SRC_003,
        output: "- (a) Payment terms (Compensation)\n  (b) The 45-day payment window runs from approval of the invoice.\n",
        span: "45-day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a period opening the sentence, an adverb before its verb",
        check: ENT,
        source: SRC_003,
        output: "The six-month exclusivity period only starts once the first order is accepted.\n",
        span: "six-month",
        expect: Flagged,
    },
    ReasonRow {
        cause: "half a year after 'lasts only'",
        check: ENT,
        source: SRC_003,
        output: "The Principal's price-hold commitment lasts only half a year.\n",
        span: "half a year",
        expect: Flagged,
    },
    // Sentences that assert nothing about the source, and their statements beside them.
    ReasonRow {
        cause: "a question to the client",
        check: REF,
        source: SRC_003,
        output: "Would you like the carve-outs moved into a standalone Section 19A?\n",
        span: "Section 19A",
        expect: SetAside("open_question"),
    },
    ReasonRow {
        cause: "the request's question retold",
        check: ENT,
        source: SRC_003,
        output: "You asked whether a 3-year exclusivity period is reasonable for a first-time distributor.\n",
        span: "3-year",
        expect: SetAside("open_question"),
    },
    ReasonRow {
        cause: "an item to confirm",
        check: REF,
        source: SRC_003,
        output: "- [ ] Confirm with the business whether an Exhibit K should be prepared.\n",
        span: "Exhibit K",
        expect: SetAside("open_question"),
    },
    ReasonRow {
        cause: "'whether' in a statement about the source",
        check: ENT,
        source: SRC_003,
        output: "The Agreement does not say whether the 45-day period runs from receipt.\n",
        span: "45-day",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a remark on the law in general",
        check: ENT,
        source: SRC_003,
        output: "Courts in California generally refuse to enforce non-competes, whether they last 6 months or 2 years.\n",
        span: "6 months",
        expect: SetAside("law_discussion"),
    },
    ReasonRow {
        cause: "the courts named in a limit of the source",
        check: ENT,
        source: SRC_003,
        output: "The Distributor must sue in the courts of Bucharest within 45 days.\n",
        span: "45 days",
        expect: Flagged,
    },
    ReasonRow {
        cause: "the client's own template",
        check: REF,
        source: SRC_003,
        output: "In the client's own standard template this point is handled in Article 16.\n",
        span: "Article 16",
        expect: SetAside("other_document"),
    },
    ReasonRow {
        cause: "a request opening a table cell",
        check: ENT,
        source: SRC_003,
        output: "| Issue | Provision | Observation |\n|---|---|---|\n| Transition assistance | Not addressed | Request 6 months of transition support |\n",
        span: "6 months",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a period stated in a table cell",
        check: ENT,
        source: SRC_003,
        output: "| Issue | Provision | Observation |\n|---|---|---|\n| Transition assistance | Principal gives 6 months of support | Medium |\n",
        span: "6 months",
        expect: Flagged,
    },
    ReasonRow {
        cause: "a fallback position",
        check: ENT,
        source: SRC_003,
        output: "**Fallback Position:**\n- Accept the current mechanics, but insist on a 10-day grace period.\n",
        span: "10-day",
        expect: SetAside("drafting_section"),
    },
    ReasonRow {
        cause: "a party's right to change a thing is no proposal",
        check: ENT,
        source: SRC_003,
        output: "Renewal pricing is capped only if the Customer has complied with the Customer Success Plan, a document the Supplier prepares and can revise.\n",
        span: "Customer Success Plan",
        expect: Flagged,
    },
    ReasonRow {
        cause: "what a party should change is the output's proposal",
        check: ENT,
        source: SRC_003,
        output: "The Supplier should revise the Customer Success Plan every year.\n",
        span: "Customer Success Plan",
        expect: SetAside("drafting_sentence"),
    },
    ReasonRow {
        cause: "a market remark",
        check: ENT,
        source: SRC_003,
        output: "Most distribution agreements of this kind define a 'Minimum Annual Volume' and tie exclusivity to it.\n",
        span: "Minimum Annual Volume",
        expect: SetAside("drafting_sentence"),
    },
];

#[test]
fn eighth_rows_in_both_directions_with_their_reasons() {
    assert_reason_rows(ROWS);
}
