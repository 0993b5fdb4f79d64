//! The evidence contract tells the output's OWN drafted text from claims about the
//! source. A table of REAL corpus sentences (../shared/corpus/contract-reviews, with the real
//! source excerpts they are checked against), one row per false-alarm cause found by the
//! re-measurement, each in both directions: the real sentence is not flagged, and the same
//! sentence with an invention planted (or a real finding) is.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpts (the contracts of the corpus, as extracted, artefacts included).
const SRC_016: &str = "2. DEFINITIONS\nC.\"MANDATORY PRODUCTS\" shall mean golf clubs.\n3. CONSULTANT'S ENDORSEMENT\n4. EXCLUSIVITY OF ENDORSEMENT\n  11.    PROMOTIONAL APPEARANCES\n\nA.During the term of this Agreement, CONSULTANT shall use best efforts to be available for such press interviews.\n\nB.During  the term of this Agreement, CONSULTANT  shall make himself available on not more than [*****]  days.\n";
const SRC_005: &str = "7.3 Entire Agreement. This Agreement is the entire agreement of the parties hereto.\n8 7.4 Assignment. Except as herein expressly provided, the respective rights and obligations of the Consultant and the Company under this Agreement will not be assignable.\n";
const SRC_002: &str = "5. Term and Termination.\na) This Agreement shall commence on the Effective Date.\n\nb) Additionally, either party may terminate this Service Agreement in the event: i) The other party's material breach that remains not cured.\n";
const SRC_014: &str = "3.6 IMPCO shall construct the Manufacturing Facility on a turnkey basis in consideration for a payment of $21,614,000. Upon the entering into force of this Agreement.\n";
const SRC_015: &str = "16.4 Either Party may terminate if sales do not reach US$1,000,000 worth of Products in the Territory within [eighteen (18)] months from the Effective Date.\n";
const SRC_003: &str = "DISTRIBUTOR AGREEMENT Agreement made this 19t h day of March, 2020 Between: Co-Quantum Insights Corp. (herein referred to as \"Principal\")\n";
const SRC_007: &str = "6. Support. The Licensor shall respond within 48 hours.\n3. Costs. Each party bears its own costs.\n";
/// A services agreement without a Section 8 (002_add_clause_1: the output adds one).
const SRC_002B: &str = "1. Services. Company agrees to make the services available.\n2. Fees. Fees are payable monthly.\n7. Term. This Agreement continues for one year.\n";
/// An o3-mini review that drafts its own Section 8 and then explains its own numbered
/// parts in sentences that read like statements about the source (002_add_clause_1 o3-mini).
const OWN_LIST: &str = "[ADD] 8. Limitation of Liability\n\n[ADD] 8.1 Except as provided in Section 8.2 below, in no event shall either party’s aggregate liability exceed the total amount of fees paid by Customer to Company during the twelve (12) months immediately preceding the date on which the claim arose.\n\n[ADD] 8.3 In no event shall either party be liable for any indirect, incidental or consequential damages.\n\nExplanation:\n\n1. Section 8.1 limits each party’s total liability (excluding the specified exceptions) to the fees paid by the Customer in the 12 months preceding the claim.\n3. Section 8.3 provides an express disclaimer for indirect damages.\n";
const SRC_004: &str = "5. Compensation. As Consultant's entire compensation for its performance under this agreement, the Company shall pay Consultant $150,000 cash compensation. Any cash compensation paid to Consultant shall be treated as a reduction in principal to the Convertible Note (\"Note\") issued by the Company to Jetco Holdings, LLC (\"Jetco\") on November 30, 2019.\n8. Indemnification. The Company agrees to indemnify and hold harmless Consultant for any proceeding or suit which may rise out of any inaccuracy or incompleteness of any such material or written information supplied to Consultant.\n12. Confidentiality. Consultant shall keep information confidential.\n";

const ROWS: &[Row] = &[
    // 1. Drafted / proposed new language.
    Row {
        cause: "1 drafted: quote under 'Illustrative drafting suggestions (examples)' (015_review_2 gpt-5)",
        check: "quotes_grounded",
        source: SRC_015,
        output: "Illustrative drafting suggestions (examples)\n- Reserved Matters: “The following matters shall require approval of at least one IMPCO Director and one MIL/MINDA Director.”\n",
        span: "The following matters shall require approval of at least one IMPCO Director and one MIL/MINDA Director.",
        flagged: false,
    },
    Row {
        cause: "1 drafted: 'limit it to “…”' (011_review_2 gpt-5)",
        check: "quotes_grounded",
        source: SRC_002,
        output: "Remove the broad carve-out or limit it to “material breach involving fraud, willful misconduct or violation of law”.\n",
        span: "material breach involving fraud, willful misconduct or violation of law",
        flagged: false,
    },
    Row {
        cause: "1 drafted: [ADD] label line, then the clause in a bold quote (002_redline_3 claude)",
        check: "quotes_grounded",
        source: SRC_002,
        output: "[ADD] New Section 5(a)(iii) - Termination for Convenience:\n\n**\"5(a)(iii) Termination for Convenience.** Either party may terminate this Agreement for any reason upon thirty (30) days' prior written notice. Company shall refund any prepaid fees.\"\n\n**EXPLANATION:** Adds termination for convenience.\n",
        span: "Either party may terminate this Agreement for any reason upon thirty (30) days' prior written notice. Company shall refund any prepaid fees.",
        flagged: false,
    },
    Row {
        cause: "1 drafted: value in a '3.1.3 **…**' clause (008_add_clause_1 gpt-oss)",
        check: "entities_grounded",
        source: SRC_002,
        output: "3.1.3 **Force Majeure Exception**: The Distributor shall not be liable for any failure to meet the minimum purchase requirement under this Agreement. In such cases, the Distributor must notify the Supplier in writing within five (5) Business Days.\n",
        span: "five (5) Business Days",
        flagged: false,
    },
    Row {
        cause: "1 drafted: inline **[ADD: …]** marker (003_redline_3 grok)",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement continues. **[ADD: 20. Service Level Agreements (SLAs). The Principal shall provide the Products with (c) Product defect rate under this Agreement not exceeding 1%.]**\n",
        span: "1%",
        flagged: false,
    },
    Row {
        // By alignment this is a misquote of "either party may terminate this Service
        // Agreement" that adds "upon ninety days notice": a figure the source does not have,
        // so it is flagged with the quotes not in the source.
        cause: "1 planted: an invented quote attributed to the source next to the drafted clause",
        check: "quotes_grounded",
        source: SRC_002,
        output: "[ADD] New Section 5(a)(iii) - Termination for Convenience:\n\n**\"5(a)(iii) Termination for Convenience.** Either party may terminate this Agreement upon thirty (30) days' notice.\"\n\nSection 5 provides: “Either party may terminate this Agreement upon ninety days notice.”\n",
        span: "Either party may terminate this Agreement upon ninety days notice.",
        flagged: true,
    },
    Row {
        cause: "1 planted: attribution wins over a drafted clause paragraph",
        check: "quotes_grounded",
        source: SRC_002,
        output: "(c) As Section 5 currently reads: “Either party may terminate at will on one day's notice”, the Supplier shall notify Customer.\n",
        span: "Either party may terminate at will on one day's notice",
        flagged: true,
    },
    Row {
        cause: "1 planted: an example word after an attribution does not hide the quote",
        check: "quotes_grounded",
        source: SRC_002,
        output: "Section 5 provides, for example: “Either party may terminate at will on one day's notice.”\n",
        span: "Either party may terminate at will on one day's notice.",
        flagged: true,
    },
    // 2. The output referring back to its own drafted text.
    Row {
        cause: "2 self-reference: Section 12(k) is the output's own '(k) Compensation.' (004_add_clause_2 claude)",
        check: "references_grounded",
        source: SRC_004,
        output: "**(k) Compensation.** Consultant acknowledges and agrees that the compensation provided under this Agreement constitutes full consideration for all assignments in this Section 12.\n\nRisk: Section 12(k) ties IP assignment to existing compensation.\n",
        span: "Section 12(k)",
        flagged: false,
    },
    Row {
        cause: "2 planted: a sub-part neither the source nor the drafted text has",
        check: "references_grounded",
        source: SRC_004,
        output: "**(k) Compensation.** Consultant acknowledges and agrees that the compensation provided under this Agreement constitutes full consideration for all assignments in this Section 12.\n\nRisk: Section 12(m) ties IP assignment to existing compensation.\n",
        span: "Section 12(m)",
        flagged: true,
    },
    Row {
        cause: "2 self-reference: quote of its own ALL-CAPS clause (003_add_clause_1 gemini)",
        check: "quotes_grounded",
        source: SRC_003,
        output: "## Limitation of Liability\n\n19.2 **Exclusions.** THE LIMITATIONS IN SECTION 19.1 SHALL NOT APPLY TO EITHER PARTY'S INDEMNIFICATION OBLIGATIONS UNDER THIS AGREEMENT.\n\n## Notes\n\nThe cap does not limit “indemnification obligations under this Agreement”, which stay uncapped.\n",
        span: "indemnification obligations under this Agreement",
        flagged: false,
    },
    Row {
        cause: "2 self-reference: 'Units' defined by its own “Unit” means (010_add_clause_1 gpt-5)",
        check: "entities_grounded",
        source: SRC_014,
        output: "- “Unit” means one license or other discrete item of a Product. For clarity, under this Agreement recurring fees are not “Units” and are not discounted.\n",
        span: "Units",
        flagged: false,
    },
    // 3. Source numbering.
    Row {
        cause: "3 numbering: lettered sub-paragraphs 'A.During' (016_review_2 gemini)",
        check: "references_grounded",
        source: SRC_016,
        output: "Sections 11A and 11B require appearances.\n",
        span: "Sections 11A",
        flagged: false,
    },
    Row {
        cause: "3 planted: a letter the section does not have",
        check: "references_grounded",
        source: SRC_016,
        output: "Section 11F requires appearances.\n",
        span: "Section 11F",
        flagged: true,
    },
    Row {
        cause: "3 numbering: 'C.\"MANDATORY PRODUCTS\"' is 2C (016_review_2 grok)",
        check: "references_grounded",
        source: SRC_016,
        output: "Section 2C defines the mandatory products.\n",
        span: "Section 2C",
        flagged: false,
    },
    Row {
        cause: "3 numbering: range 'Sections 3-4' (016_summarize_1 grok)",
        check: "references_grounded",
        source: SRC_016,
        output: "Endorsement and exclusivity (Sections 3-4).\n",
        span: "Sections 3-4",
        flagged: false,
    },
    Row {
        cause: "3 numbering: page number before the heading '8 7.4 Assignment.' (005_review_3 glm)",
        check: "references_grounded",
        source: SRC_005,
        output: "**Clause:** Section 7.4 - Assignment\n",
        span: "Section 7.4",
        flagged: false,
    },
    Row {
        cause: "3 planted: a section the source does not number",
        check: "references_grounded",
        source: SRC_005,
        output: "**Clause:** Section 7.9 - Assignment\n",
        span: "Section 7.9",
        flagged: true,
    },
    Row {
        cause: "3 numbering: 'b)' cited as 5b (002_redline_3 glm)",
        check: "references_grounded",
        source: SRC_002,
        output: "Termination rights are in Section 5b.\n",
        span: "Section 5b",
        flagged: false,
    },
    // 4. Values.
    Row {
        cause: "4 values: rounded '$21.6M' against $21,614,000 (014_summarize_1 deepseek)",
        check: "entities_grounded",
        source: SRC_014,
        output: "The Agreement sets the facility construction price at $21.6M (Art. 3.6).\n",
        span: "$21.6M",
        flagged: false,
    },
    Row {
        cause: "4 planted: an invented amount in an attributed sentence that goes on to recommend",
        check: "entities_grounded",
        source: SRC_014,
        output: "Section 3.6 provides a facility price of $23.6M; we recommend a lower price.\n",
        span: "$23.6M",
        flagged: true,
    },
    Row {
        cause: "4 values: bracketed '[eighteen (18)] months' (015_summarize_1 grok)",
        check: "entities_grounded",
        source: SRC_015,
        output: "The Agreement allows termination for failure to reach US$1,000,000 in sales within 18 months (Art. 16.4).\n",
        span: "18 months",
        flagged: false,
    },
    Row {
        cause: "4 values: PDF split '19t h day of March, 2020' (003_redline_3 qwen)",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement is dated 19th day of March, 2020.\n",
        span: "19th day of March, 2020",
        flagged: false,
    },
    Row {
        cause: "4 planted: a date the source does not have",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement is dated 21st day of March, 2020.\n",
        span: "21st day of March, 2020",
        flagged: true,
    },
    Row {
        cause: "4 values: 'hours.\\n3. Costs' is no amount 'Rs. 3' (007_add_clause_2 o3-mini)",
        check: "entities_grounded",
        source: SRC_007,
        output: "Section 6 of the Agreement requires a response within 48 hours.\n3. Costs are borne by each party under the Agreement.\n",
        span: "rs.\n3",
        flagged: false,
    },
    // 5. Ellipses and quote marks.
    Row {
        cause: "5 verbatim: ellipses glued to words (004_review_3 grok)",
        check: "quotes_verbatim",
        source: SRC_004,
        output: "Section 5 states: \"As Consultant's entire compensation...the Company shall pay Consultant $150,000 cash compensation...Any cash compensation paid to Consultant shall be treated as a reduction in principal\".\n",
        span: "As Consultant's entire compensation...the Company shall pay Consultant $150,000 cash compensation...Any cash compensation paid to Consultant shall be treated as a reduction in principal",
        flagged: false,
    },
    Row {
        cause: "5 verbatim: 'arise' for the source's 'rise' is a real misquote (004_review_3 mistral)",
        check: "quotes_verbatim",
        source: SRC_004,
        output: "> *\"The Company agrees to indemnify and hold harmless Consultant for any proceeding or suit which may arise out of any inaccuracy or incompleteness of any such material.\"*\n",
        span: "The Company agrees to indemnify and hold harmless Consultant for any proceeding or suit which may arise out of any inaccuracy or incompleteness of any such material.",
        flagged: true,
    },
    // 6. The output's own numbered parts, explained in sentences that state what a part says.
    Row {
        cause: "6 own numbering: 'Section 8.1 limits …' explains the output's own [ADD] 8.1 (002_add_clause_1 o3-mini)",
        check: "references_grounded",
        source: SRC_002B,
        output: OWN_LIST,
        span: "Section 8.1",
        flagged: false,
    },
    Row {
        cause: "6 own numbering: 'Section 8.3 provides …' explains the output's own [ADD] 8.3 (002_add_clause_1 o3-mini)",
        check: "references_grounded",
        source: SRC_002B,
        output: OWN_LIST,
        span: "Section 8.3",
        flagged: false,
    },
    Row {
        cause: "6 own numbering planted: 'Section 8.4 provides …', a part neither the output nor the source numbers",
        check: "references_grounded",
        source: SRC_002B,
        output: concat!(
            "[ADD] 8.1 Except as provided in Section 8.2 below, in no event shall either party’s aggregate liability exceed the fees paid.\n\n",
            "Explanation:\n\n1. Section 8.1 limits each party’s total liability.\n2. Section 8.4 provides that the Customer may terminate at will.\n"
        ),
        span: "Section 8.4",
        flagged: true,
    },
    Row {
        cause: "6 own numbering planted: 'Section 99.4 provides …' under a proposal label is a claim; its own mention does not make 99.4 the output's number",
        check: "references_grounded",
        source: SRC_002B,
        output: "**Proposed Modifications:**\n\nSection 99.4 provides that the Agreement may be terminated at will.\n\n[ADD] 8.1 The Customer shall pay the fees monthly.\n",
        span: "Section 99.4",
        flagged: true,
    },
    Row {
        cause: "6 own numbering: the same label and clause without a statement of the source is the output's own text",
        check: "references_grounded",
        source: SRC_002B,
        output: "**Proposed Modifications:**\n\nWe add a termination right as Section 99.4, and Section 99.4 lets the Customer terminate at will.\n",
        span: "Section 99.4",
        flagged: false,
    },
];

#[test]
fn real_corpus_sentences_per_cause_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
