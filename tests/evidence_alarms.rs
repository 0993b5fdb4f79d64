//! Round 3 of the evidence false-alarm work: the false alarms left by the second re-measurement of `evidence_contract_v1`
//! (README, Evidence contract; docs/evidence-measurement.md), one general rule each. A table
//! of REAL corpus sentences (../shared/corpus/contract-reviews, checked against real excerpts
//! of their source contracts, artefacts included), each in both directions: the real sentence
//! is not flagged, and a near-identical sentence with an invention planted is.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpts (as extracted from the corpus contracts, artefacts included).
const SRC_016: &str = "19.   PERFORMANCE BONUSES AND TOTAL COMPENSATION LIMITATION\n\n      A.  CONSULTANT shall receive the bonuses set forth below.\n      B.  The total compensation shall not exceed the annual cap.\n      C.  In the event of ADAMS GOLF'S insolvency or bankruptcy, it is expressly agreed to by the parties that CONSULTANT shall not be obligated to repay any money so long as CONSULTANT continues to fully perform his obligations under this Agreement.   20.  APPROVAL OF ADVERTISING\n";
const SRC_002: &str = "(\"Customer\" or \"you\"). 1. Services Company agrees to make the services available. 2. Fees and expenses are payable monthly. 2. Customer Representations and Warranties. Customer represents that it is duly organised. 4. Returns and Reversals are handled by Company. 5. Term and Survival apply.\n";
const SRC_010: &str = "placement.\n\n5.   PROPRIETARY RIGHTS\n\n5.1 OWNERSHIP. RESELLER understands and agrees that MediaNet Group Technologies is the exclusive owner.\n\n6.   CONFIDENTIALITY\n\n7.   LIMITATION OF LIABILITY\n";
const SRC_014: &str = "1.32. \"SELLER\" means Igene.\n\n1.33. \"SITE\" is defined in Article 3.5.\n\n1.34. \"TECHNOLOGY\" is defined in Appendix 3.2.\n";
const SRC_014B: &str = "3. PARTIES' CONTRIBUTIONS TO THE JOINT VENTURE AND FINANCING.\n\n3.1. Subject to the terms and conditions of this Agreement, T&L shall contribute, or cause to be contributed, to the Operating Company cash in the amount of $91,000. Subject to the terms and conditions of this Agreement, T&L further agrees to pay to Operating Company as a contribution to capital upon Formation (as defined below) $3,000,000.\n\n4.1. The Parties agree that the contributions are of equal value.\n\n4.3. T&L may adjust its contribution.\n";
const SRC_015: &str = "10.2   Within 90 days of the end of each financial year (as defined in 9.6 below) and without any charge, the JVC will submit to IMPCO and MIL/MINDA the annual financial statement.   10.5   The financial year of the JVC shall be from 1st April to 31st March of each year.   ARTICLE - 11 SUCCESSORS & ASSIGNS   12.1 Each Party shall indemnify the other.   13.1 IMPCO owns the trademarks.   14.1   IMPCO shall not enter into another joint venture.   14.2   MINDA/MIL, since it will have access to the Technical Know-How which it would not have had otherwise, expressly agree that:\n\n(a)   during the term of the Agreement, and thereafter for a period of five (5) years after the termination of the Agreement by IMPCO, MIL/MINDA shall not compete.\n";
const SRC_011: &str = "7. TERM AND TERMINATION. This Agreement shall remain in effect for two years. AEIS may, at its option and without prior notice, terminate this Agreement upon a material breach by Schoolpop.\n";
const SRC_017: &str = "ARTICLE I DEFINITION AND INTEPRETATION   1.1 Definition   Unless otherwise defined in the context, in this Agreement:   (a) PRC Laws mean any laws, regulations, rules and regulatory documents in the PRC.   ARTICLE IV CONTENT AND SCOPE OF COOPERATION   It is agreed that the Cooperation contemplated under this Agreement will consist of:   (i) formation of the Cooperation channel;   (ii) advertising operation of the Cooperation channel.\n";
const SRC_004: &str = "3. Consulting Services. Consultant shall assist with developing business plans.\n11. Non-Circumvention. The Company shall not circumvent Consultant.\n";
const SRC_011B: &str = "15. Pricing. Quantum Insights Corp. shall purchase Cards at the wholesale price set forth in Exhibit A.\n";
const SRC_012: &str = "16.1 Non-Use and Non-Disclosure\n\nDuring the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information   ***Confidential Treatment Requested***\n\n- 51 -\n\n\n\n\n\nto Third Parties, without the Disclosing Party's prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement. If any Confidential Information is required to be disclosed by the Receiving Party or its Affiliates to comply with a court or administrative order, the Receiving Party or its Affiliates, prior to making such disclosure, shall furnish as much notice as is reasonable under the circumstances to the Disclosing Party to enable it to resist such disclosure.\n\n  16.2 Permitted Disclosure\n";
const SRC_005: &str = "(d) For the purpose of this Article 3, \"Cause\" means: (i) Breach of Agreement. Consultant's material breach of Consultant's obligations. (e) For the purpose of this Article 5, \"Good Reason\" means: (i) Breach of Agreement. The Company's material breach of this Agreement.\n";

const ROWS: &[Row] = &[
    // References: source numbering "C.  In …" (letter, dot, two spaces).
    Row {
        cause: "ref #48: 'Section 19C' where §19 has '     C.  In the event…' (016_summarize_1 grok-4)",
        check: "references_grounded",
        source: SRC_016,
        output: "No repayment is required in cases of Adams Golf's insolvency if Watson continues performing (Section 19C). Prorated repayments apply upon certain terminations.\n",
        span: "Section 19C",
        flagged: false,
    },
    Row {
        cause: "ref #49: '§19C' (016_summarize_1 mistral-large)",
        check: "references_grounded",
        source: SRC_016,
        output: "   - **No Repayment in Insolvency:** Watson’s repayment obligation waived if Adams Golf becomes insolvent, provided he continues performing (**§19C**).\n",
        span: "§19C",
        flagged: false,
    },
    Row {
        cause: "ref planted: 'Section 19D' (no D. in §19)",
        check: "references_grounded",
        source: SRC_016,
        output: "No repayment is required in cases of Adams Golf's insolvency if Watson continues performing (Section 19D). Prorated repayments apply upon certain terminations.\n",
        span: "Section 19D",
        flagged: true,
    },
    // References: a parenthetical title is not a sub-part.
    Row {
        cause: "ref #44: 'Sections 5 (IP)' is Sections 5, titled (010_review_2 mistral-large)",
        check: "references_grounded",
        source: SRC_010,
        output: "- **Survival Clauses (Section 5.1):** Sections 5 (IP), 6 (Confidentiality), 7 (Liability) survive termination.\n",
        span: "Sections 5",
        flagged: false,
    },
    Row {
        cause: "ref planted: 'Sections 15 (IP)' (no 15)",
        check: "references_grounded",
        source: SRC_010,
        output: "- **Survival Clauses (Section 5.1):** Sections 15 (IP), 6 (Confidentiality), 7 (Liability) survive termination.\n",
        span: "Sections 15",
        flagged: true,
    },
    Row {
        cause: "ref planted: 'Section 5.1 (b)' is still a sub-part the source lacks",
        check: "references_grounded",
        source: SRC_010,
        output: "- **Ownership:** Section 5.1 (b) makes MediaNet the owner.\n",
        span: "Section 5.1 (b)",
        flagged: true,
    },
    Row {
        cause: "ref #45: 'Article 1.33 (SITE)' (014_review_2 qwen-2.5-72b)",
        check: "references_grounded",
        source: SRC_014,
        output: "- **Article 1.33 (SITE):** The definition of \"Site\" is not provided. It should be clearly defined to avoid ambiguity.\n",
        span: "Article 1.33",
        flagged: false,
    },
    Row {
        cause: "ref planted: 'Article 1.36 (SITE)' (no 1.36)",
        check: "references_grounded",
        source: SRC_014,
        output: "- **Article 1.36 (SITE):** The definition of \"Site\" is not provided. It is unclear.\n",
        span: "Article 1.36",
        flagged: true,
    },
    // References: a denied reference.
    Row {
        cause: "ref #46: 'Article 9.6 does not exist' (015_review_2 gemini-2.5-flash)",
        check: "references_grounded",
        source: SRC_015,
        output: "    *   **Issue:** Article 10.2 refers to \"financial year (as defined in 9.6 below),\" but Article 9.6 does not exist. Article 10.5 defines the financial year.\n",
        span: "Article 9.6",
        flagged: false,
    },
    Row {
        cause: "ref planted: 'Article 9.6 defines the financial year'",
        check: "references_grounded",
        source: SRC_015,
        output: "    *   **Issue:** Article 10.2 refers to \"financial year\"; Article 9.6 defines the financial year.\n",
        span: "Article 9.6",
        flagged: true,
    },
    // References: a line labelled with a statute.
    Row {
        cause: "ref #47: 'Companies Act, 2013: … under Section 188' (015_review_2 gpt-5)",
        check: "references_grounded",
        source: SRC_015,
        output: "- Companies Act, 2013: Update references throughout (Board composition limits, definitions, alternate director, related-party transactions under Section 188, quorum, notice periods, director duties).\n",
        span: "Section 188",
        flagged: false,
    },
    Row {
        cause: "ref planted: same line without the statute label",
        check: "references_grounded",
        source: SRC_015,
        output: "- Board matters: Update references throughout (Board composition limits, definitions, alternate director, related-party transactions under Section 188, quorum, notice periods, director duties).\n",
        span: "Section 188",
        flagged: true,
    },
    // References: a part the output says it numbers itself.
    Row {
        cause: "ref #43: 'I've inserted as Section 3' then 'Modification in Section 3' (002_redline_3 grok-4)",
        check: "references_grounded",
        source: SRC_002,
        output: "3. Customer Representations and Warranties [Note: Original contract jumps from 2 to 4; assuming numbering error, I've inserted as Section 3 for structure.]\n\n**Brief Explanation for Modification in Section 3**: Makes warranties mutual, favoring Customer by imposing equivalent obligations on Company (original was one-sided).\n",
        span: "Section 3",
        flagged: false,
    },
    Row {
        cause: "ref planted: 'Modification in Section 3' without the output numbering it",
        check: "references_grounded",
        source: SRC_002,
        output: "3. Customer Representations and Warranties [Note: Original contract jumps from 2 to 4.]\n\n**Brief Explanation for Modification in Section 3**: Makes warranties mutual, favoring Customer by imposing equivalent obligations on Company (original was one-sided).\n",
        span: "Section 3",
        flagged: true,
    },
    // Entities: a term the output says the source lacks.
    Row {
        cause: "entity #50: 'Lack of \"No-Fault\" Termination' (011_review_2 gemini-2.5-flash)",
        check: "entities_grounded",
        source: SRC_011,
        output: "    *   **Lack of \"No-Fault\" Termination for Schoolpop:** Schoolpop cannot terminate the agreement for convenience, limiting its flexibility.\n",
        span: "No-Fault",
        flagged: false,
    },
    Row {
        cause: "entity planted: '\"No-Fault\" Termination' stated as the agreement's",
        check: "entities_grounded",
        source: SRC_011,
        output: "    *   **\"No-Fault\" Termination for Schoolpop:** Schoolpop can terminate the agreement for convenience, which gives it flexibility.\n",
        span: "No-Fault",
        flagged: true,
    },
    Row {
        cause: "entity #56: 'lack of an overarching “Recitals” section' (017_review_2 o3-mini)",
        check: "entities_grounded",
        source: SRC_017,
        output: "  – The contract contains numerous detailed subsections regarding the formation, operation, promotion, and termination of the Cooperation Channel. However, there is a lack of an overarching “Recitals” section that clearly states the overall purpose and binds disparate exhibits together.\n",
        span: "Recitals",
        flagged: false,
    },
    Row {
        cause: "entity planted: 'an overarching “Recitals” section' stated as the contract's",
        check: "entities_grounded",
        source: SRC_017,
        output: "  – The contract contains numerous detailed subsections regarding the formation, operation, promotion, and termination of the Cooperation Channel. Its overarching “Recitals” section clearly states the overall purpose and binds disparate exhibits together.\n",
        span: "Recitals",
        flagged: true,
    },
    Row {
        cause: "entity planted: the absence only covers the absent term, not the sentence's figure",
        check: "entities_grounded",
        source: SRC_017,
        output: "  – The contract lacks an overarching “Recitals” section, and the Agreement sets the channel fee at $5,000,000.\n",
        span: "$5,000,000",
        flagged: true,
    },
    // Entities: a total the output adds up from two source amounts.
    Row {
        cause: "entity #52: 'T&L contributes cash ($3,091,000 total)' = $91,000 + $3,000,000 (014_review_2 grok-4)",
        check: "entities_grounded",
        source: SRC_014B,
        output: "- **Contributions and Valuation (Articles 3 and 4)**: T&L contributes cash ($3,091,000 total), while Igene contributes assets/technology valued equally (Article 4.1), but Article 4.3 allows adjustments only if T&L's contribution is undervalued—no similar remedy for Igene.\n",
        span: "$3,091,000",
        flagged: false,
    },
    Row {
        cause: "entity planted: a total no two source amounts make ($3,092,000)",
        check: "entities_grounded",
        source: SRC_014B,
        output: "- **Contributions and Valuation (Articles 3 and 4)**: T&L contributes cash ($3,092,000 total), while Igene contributes assets/technology valued equally (Article 4.1), but Article 4.3 allows adjustments only if T&L's contribution is undervalued—no similar remedy for Igene.\n",
        span: "$3,092,000",
        flagged: true,
    },
    Row {
        cause: "entity planted: the same sum not called a total is not a source amount",
        check: "entities_grounded",
        source: SRC_014B,
        output: "- **Contributions and Valuation (Articles 3 and 4)**: T&L contributes cash of $3,091,000 at Formation under Article 3.1.\n",
        span: "$3,091,000",
        flagged: true,
    },
    // Entities: an imperative recommendation.
    Row {
        cause: "entity #53: 'Make mutual … non-solicit … for 12–24 months' (015_review_2 gpt-5)",
        check: "entities_grounded",
        source: SRC_015,
        output: "- Article 14 (non-compete): 14.1 restricts IMPCO only from entering another JV/marketing agreement for Products in the Territory; 14.2 restricts MIL/MINDA much more broadly for 5 years post-termination by IMPCO. Make mutual, reasonable, and tied to protection of IMPCO know-how: (i) restrict both Parties from competing with the JVC regarding the Products in the Territory during term; (ii) post-termination non-compete of limited duration and scope, with clear carve-outs for pre-existing MIL businesses not using IMPCO know-how; (iii) reasonable non-solicit of employees/customers for 12–24 months.\n",
        span: "24 months",
        flagged: false,
    },
    Row {
        cause: "entity planted: the same line stating 24 months (not 5 years) as 14.2's period",
        check: "entities_grounded",
        source: SRC_015,
        output: "- Article 14 (non-compete): 14.1 restricts IMPCO only from entering another JV/marketing agreement for Products in the Territory; 14.2 restricts MIL/MINDA much more broadly for 24 months post-termination by IMPCO. Make mutual, reasonable, and tied to protection of IMPCO know-how: (i) restrict both Parties from competing with the JVC regarding the Products in the Territory during term; (ii) post-termination non-compete of limited duration and scope, with clear carve-outs for pre-existing MIL businesses not using IMPCO know-how; (iii) reasonable non-solicit of employees/customers for 12–24 months.\n",
        span: "24 months",
        flagged: true,
    },
    // Quotes: near-verbatim quotes of the output's own drafted clause.
    Row {
        cause: "quote #1: 'phrased to apply \"to the extent permitted by applicable law\"' (004_add_clause_2 grok-4)",
        check: "quotes_grounded",
        source: SRC_004,
        output: concat!(
            "  - **Moral Rights Waiver**: A waiver of moral rights. This is included as requested, though moral rights are limited in U.S. law for non-artistic works; the waiver is phrased to apply \"to the extent permitted by applicable law\" to ensure enforceability.\n\n",
            "### Redlined Modifications\n\n**[ADD] 12. INTELLECTUAL PROPERTY.**\n\n**[ADD] (a) Assignment of Work Product. Consultant hereby irrevocably assigns to the Company all right, title, and interest in and to any and all inventions conceived by Consultant during the term of this Agreement and in connection with the performance of the Consulting Services (collectively, \"Work Product\").**\n\n**[ADD] (c) Moral Rights Waiver. To the fullest extent permitted by applicable law, Consultant hereby irrevocably waives any moral rights in and to the Work Product.**\n"
        ),
        span: "to the extent permitted by applicable law",
        flagged: false,
    },
    Row {
        cause: "quote #2: 'limiting it to items created \"in connection with the Consulting Services\"' (004_add_clause_2 grok-4)",
        check: "quotes_grounded",
        source: SRC_004,
        output: concat!(
            "  - **Scope of Services**: The services in Section 3 involve business development. The clause is tailored to this, defining \"Work Product\" broadly but limiting it to items created \"in connection with the Consulting Services\" to avoid overreach.\n\n",
            "### Redlined Modifications\n\n**[ADD] 12. INTELLECTUAL PROPERTY.**\n\n**[ADD] (a) Assignment of Work Product. Consultant hereby irrevocably assigns to the Company all right, title, and interest in and to any and all inventions conceived by Consultant during the term of this Agreement and in connection with the performance of the Consulting Services (collectively, \"Work Product\").**\n"
        ),
        span: "in connection with the Consulting Services",
        flagged: false,
    },
    Row {
        cause: "quote planted: a quote with words the drafted clause does not have",
        check: "quotes_grounded",
        source: SRC_004,
        output: concat!(
            "  - **Scope of Services**: The services in Section 3 involve business development. The clause is tailored to this, limiting it to items created \"in connection with the Consulting Services in Florida\" to avoid overreach.\n\n",
            "### Redlined Modifications\n\n**[ADD] 12. INTELLECTUAL PROPERTY.**\n\n**[ADD] (a) Assignment of Work Product. Consultant hereby irrevocably assigns to the Company all right, title, and interest in and to any and all inventions conceived by Consultant during the term of this Agreement and in connection with the performance of the Consulting Services (collectively, \"Work Product\").**\n"
        ),
        span: "in connection with the Consulting Services in Florida",
        flagged: true,
    },
    Row {
        cause: "quote planted: the drafted words reordered are not the drafted text",
        check: "quotes_grounded",
        source: SRC_004,
        output: concat!(
            "  - The waiver is phrased to apply \"permitted by applicable law to the fullest extent\" to ensure enforceability.\n\n",
            "### Redlined Modifications\n\n**[ADD] (c) Moral Rights Waiver. To the fullest extent permitted by applicable law, Consultant hereby irrevocably waives any moral rights in and to the Work Product.**\n"
        ),
        span: "permitted by applicable law to the fullest extent",
        flagged: true,
    },
    // Quotes: an equation the output writes.
    Row {
        cause: "quote #14: '> Final Price = Wholesale Price × (1 - 0.05)' (011_add_clause_1 claude-sonnet-4.5)",
        check: "quotes_grounded",
        source: SRC_011B,
        output: "**b. Volume Discounts**\n\nIn addition to the wholesale pricing set forth in Section 15(a) above, Quantum Insights Corp. shall be entitled to an additional volume discount of five percent (5%) on any single Order that exceeds one hundred (100) units of Cards. The discount shall be calculated as follows:\n\n> Final Price = Wholesale Price × (1 - 0.05)\n",
        span: "Final Price = Wholesale Price × (1 - 0.05)",
        flagged: false,
    },
    Row {
        cause: "quote planted: an equation attributed to the source is still a claim",
        check: "quotes_grounded",
        source: SRC_011B,
        output: "Section 15 provides: \"Final Price = Wholesale Price × (1 - 0.05)\".\n",
        span: "Final Price = Wholesale Price × (1 - 0.05)",
        flagged: true,
    },
    // Verbatim: page furniture in the source, redaction marks and placeholders in the quote.
    Row {
        cause: "verbatim #38: '[…***…]' and a page break the quote leaves out (012_redline_1 gemini-2.5-flash)",
        check: "quotes_verbatim",
        source: SRC_012,
        output: "*   **16.1 Non-Use and Non-Disclosure:** \"During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to Third Parties, without the Disclosing Party's prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement. If any Confidential Information is required to be disclosed by the Receiving Party or its Affiliates to comply with a court or administrative order, the Receiving Party or its Affiliates, prior to making such disclosure, shall furnish as much notice as is reasonable under the circumstances to the Disclosing Party to enable it to resist such disclosure.\"\n",
        span: "During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to Third Parties, without the Disclosing Party's prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement. If any Confidential Information is required to be disclosed by the Receiving Party or its Affiliates to comply with a court or administrative order, the Receiving Party or its Affiliates, prior to making such disclosure, shall furnish as much notice as is reasonable under the circumstances to the Disclosing Party to enable it to resist such disclosure.",
        flagged: false,
    },
    Row {
        cause: "verbatim planted: the same quote with 'any third party' for 'Third Parties'",
        check: "quotes_verbatim",
        source: SRC_012,
        output: "*   **16.1 Non-Use and Non-Disclosure:** \"During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to any third party, without the Disclosing Party's prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement.\"\n",
        span: "During the Agreement Term and for […***…] thereafter, a Receiving Party shall (i) treat Confidential Information provided by Disclosing Party as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to any third party, without the Disclosing Party's prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement.",
        flagged: true,
    },
    Row {
        cause: "verbatim #39: placeholders '[X years]', '[the Disclosing Party]' (012_redline_1 o3-mini)",
        check: "quotes_verbatim",
        source: SRC_012,
        output: "  “During the Agreement Term and for [X years] thereafter, a Receiving Party shall (i) treat Confidential Information provided by [the Disclosing Party] as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to Third Parties without the Disclosing Party’s prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement.”\n",
        span: "During the Agreement Term and for [X years] thereafter, a Receiving Party shall (i) treat Confidential Information provided by [the Disclosing Party] as it would treat its own information of a similar nature, (ii) take all reasonable precautions not to disclose such Confidential Information to Third Parties without the Disclosing Party’s prior written consent, and (iii) not use such Confidential Information other than for fulfilling its obligations or exercising its rights under this Agreement.",
        flagged: false,
    },
    Row {
        cause: "verbatim #33: 'Article 3/5' names Article 3 and Article 5 (005_review_3 gpt-5)",
        check: "quotes_verbatim",
        source: SRC_005,
        output: "- Clause: Section 4.2 uses “salary”; Section 4.1(d) and (e) misreference Articles (“for the purpose of this Article 3/5”)\n",
        span: "for the purpose of this Article 3/5",
        flagged: false,
    },
    Row {
        // The quote changes the source's numbers: it states what the contract does not, so
        // it is reported with the quotes not in the source (high), not as a misquote.
        cause: "verbatim planted: 'Article 4/6' (neither is in the source)",
        check: "quotes_grounded",
        source: SRC_005,
        output: "- Clause: Section 4.2 uses “salary”; Section 4.1(d) and (e) misreference Articles (“for the purpose of this Article 4/6”)\n",
        span: "for the purpose of this Article 4/6",
        flagged: true,
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
