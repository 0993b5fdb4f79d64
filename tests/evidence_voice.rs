//! The voice of a claim, clause by clause and cell by cell (`scripts/tuning_evidence_voice.py`):
//! an assertion about what the contract says (provides, caps, sets, requires, is …) is the
//! output's analysis even in a sentence that also proposes something ("Consider that Section
//! 14.7 caps liability at $2,500,000, which should be raised"); only the text being proposed
//! is drafting (after "Consider adding:", a new section, what a section "should" say, a
//! block-quoted clause after "We propose the following clause:"). A reference in a table cell
//! names the contract's part; only a part the output numbers itself is its own numbering. A
//! paragraph the output labels as its comment ("**Risk:** …") is analysis between the clauses
//! it drafts.
//! Each rule both ways: the invented value is flagged, the source's own value grounded, the
//! proposed value set aside.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Corpus contract 005 (as extracted), Article 2.
const SRC_005: &str = "Article 2 COMPENSATION 2.1 Remuneration. (a) The Consultant's monthly base consulting fee shall be three thousand two hundred fifty United States dollars ($75,000 (together with any increases thereto as hereinafter provided, the \"Base Consulting Fee\") through 19 August 2020. Commencing on 20 August 2020, Consultant's Base Consulting Fee shall be increased to $8,500 per calendar month.\n\n2.2 Incentive Plans. The Consultant's bonus payment level will be set at a minimum of 25% of the annual gross Base Consulting Fee.\n";

const ROWS: &[Row] = &[
    Row {
        cause: "an assertion after 'Consider that', the proposal after ', which should'",
        check: "references_grounded",
        source: SRC_005,
        output: "Consider that Section 14.7 caps liability at $2,500,000, which should be raised.\n",
        span: "Section 14.7",
        flagged: true,
    },
    Row {
        cause: "the amount of that assertion",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider that Section 14.7 caps liability at $2,500,000, which should be raised.\n",
        // The amount's span takes the comma after it.
        span: "$2,500,000,",
        flagged: true,
    },
    Row {
        cause: "a relative clause after 'We propose revisiting'",
        check: "references_grounded",
        source: SRC_005,
        output: "We propose revisiting Section 14.7, which sets the fee at $2,500,000.\n",
        span: "Section 14.7",
        flagged: true,
    },
    Row {
        cause: "the amount of that relative clause",
        check: "entities_grounded",
        source: SRC_005,
        output: "We propose revisiting Section 14.7, which sets the fee at $2,500,000.\n",
        span: "$2,500,000",
        flagged: true,
    },
    Row {
        cause: "a relative clause inside an open question still asserts",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider whether Section 14.7, which requires a deposit of $2,500,000, is workable.\n",
        // The amount's span takes the comma after it.
        span: "$2,500,000,",
        flagged: true,
    },
    Row {
        cause: "'the cap in Section N is' before ', which should be raised'",
        check: "entities_grounded",
        source: SRC_005,
        output: "The cap in Section 14.7 is $2,500,000, which should be raised.\n",
        // The amount's span takes the comma after it.
        span: "$2,500,000,",
        flagged: true,
    },
    Row {
        cause: "the source's own fee in the same proposal sentence",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider that Section 2.1 sets the fee at $8,500, which should be raised.\n",
        span: "$8,500",
        flagged: false,
    },
    Row {
        cause: "the source's own section in the same proposal sentence",
        check: "references_grounded",
        source: SRC_005,
        output: "Consider that Section 2.1 sets the fee at $8,500, which should be raised.\n",
        span: "Section 2.1",
        flagged: false,
    },
    Row {
        cause: "the value proposed after the stating clause",
        check: "entities_grounded",
        source: SRC_005,
        output: "Section 2.1 sets the fee at $8,500, which should be raised to $12,000.\n",
        span: "$12,000",
        flagged: false,
    },
    Row {
        cause: "a reference opening a table cell is the contract's part",
        check: "references_grounded",
        source: SRC_005,
        output: "| Clause | What it says | Risk |\n|---|---|---|\n| Section 14.7 | Caps liability at $2,500,000 | High |\n",
        span: "Section 14.7",
        flagged: true,
    },
    Row {
        cause: "an amount in that table row",
        check: "entities_grounded",
        source: SRC_005,
        output: "| Clause | What it says | Risk |\n|---|---|---|\n| Section 14.7 | Caps liability at $2,500,000 | High |\n",
        span: "$2,500,000",
        flagged: true,
    },
    Row {
        cause: "a reference after an item-number column",
        check: "references_grounded",
        source: SRC_005,
        output: "| # | Clause | Finding |\n|---|---|---|\n| 1 | Section 14.7 | Limits liability to $2,500,000 |\n",
        span: "Section 14.7",
        flagged: true,
    },
    Row {
        cause: "a cell stating what a section does",
        check: "entities_grounded",
        source: SRC_005,
        output: "| Area | Finding | Risk |\n|---|---|---|\n| Liability | Section 14.7 caps liability at $2,500,000 | High |\n",
        span: "$2,500,000",
        flagged: true,
    },
    Row {
        cause: "a table row naming a section the output drafted itself",
        check: "references_grounded",
        source: SRC_005,
        output: "14.7 Limitation of Liability. The Supplier's liability shall not exceed the fees paid.\n\n| Section | Change |\n|---|---|\n| Section 14.7 | Added a liability cap |\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "text after 'Consider adding:' is proposed",
        check: "references_grounded",
        source: SRC_005,
        output: "Consider adding: Section 14.7 sets the cap at $2,500,000.\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "its amount",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider adding: Section 14.7 sets the cap at $2,500,000.\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "a new section the output would create",
        check: "references_grounded",
        source: SRC_005,
        output: "Consider adding a new Section 14.7 that caps liability at $2,500,000.\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "its amount",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider adding a new Section 14.7 that caps liability at $2,500,000.\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "what the output wants a section to say",
        check: "entities_grounded",
        source: SRC_005,
        output: "We propose that Section 14.7 should cap liability at $2,500,000.\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "a proposed value alone",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider raising the cap to $2,500,000.\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "a block-quoted clause after 'We propose the following clause:'",
        check: "references_grounded",
        source: SRC_005,
        output: "We propose the following clause:\n\n> Section 14.7 Termination Fee. The Customer shall pay a termination fee of $2,500,000.\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "a quoted clause after 'Consider adding:'",
        check: "entities_grounded",
        source: SRC_005,
        output: "Consider adding: \"The Supplier's aggregate liability under Section 14.7 shall not exceed $2,500,000.\"\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "a comment cell after the claim's cell does not make it proposed",
        check: "entities_grounded",
        source: SRC_005,
        output: "| # | Provision | Current position | Recommendation |\n|---|---|---|---|\n| 3 | Section 14.7 | Caps the indemnity at $2,500,000 | Seek a higher cap |\n",
        span: "$2,500,000",
        flagged: true,
    },
    Row {
        cause: "a cell under a 'Proposed change' head is proposed",
        check: "entities_grounded",
        source: SRC_005,
        output: "| Clause | Proposed change |\n|---|---|\n| Section 2.1 | Raise the fee to $2,500,000 |\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "a row opening with a new section is proposed",
        check: "entities_grounded",
        source: SRC_005,
        output: "| Clause | Change |\n|---|---|\n| New Section 14.7 | Cap liability at $2,500,000 |\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "an attribution after 'the following text:' is drafted",
        check: "entities_grounded",
        source: SRC_005,
        output: "We would include the following text: Section 14.7 provides that liability is capped at $2,500,000.\n",
        span: "$2,500,000",
        flagged: false,
    },
    Row {
        cause: "its reference",
        check: "references_grounded",
        source: SRC_005,
        output: "We would include the following text: Section 14.7 provides that liability is capped at $2,500,000.\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "a quoted clause after 'Replace the current text with:'",
        check: "references_grounded",
        source: SRC_005,
        output: "Replace the current text with: \"Section 14.7. The Customer shall pay $2,500,000 on signing.\"\n",
        span: "Section 14.7",
        flagged: false,
    },
    Row {
        cause: "a comment the output labels 'Risk:' between the clauses it drafts",
        check: "references_grounded",
        source: SRC_005,
        output: "17.2 Failure to Meet Minimum. WLI may take one or more of the following steps:\n\n   a. Notice of Default. WLI may issue a written notice of default.\n\n**Risk:** Under clause 49, either party may terminate for insolvency.\n\n   b. Suspension of Rights. WLI may suspend the rights of Power2Ship.\n",
        span: "clause 49",
        flagged: true,
    },
    Row {
        cause: "the drafted clause's own text around it stays drafted",
        check: "entities_grounded",
        source: SRC_005,
        output: "17.2 Failure to Meet Minimum. WLI may take one or more of the following steps:\n\n   a. Notice of Default. WLI may issue a written notice of default within 45 days.\n\n**Risk:** Under clause 49, either party may terminate for insolvency.\n",
        span: "45 days",
        flagged: false,
    },
];

#[test]
fn voice_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn voice_rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
