//! Time limits, references and unquoted defined terms in the phrasings of a fifth tuning
//! writer (`scripts/tuning_evidence_fifth.py`): a duration stated as a time limit without a
//! claim marker word; a capitalised term after "a", a possessive or "the concept of", or as a
//! sentence's subject; "the Agreement uses X to mean"; a reference after "Pursuant to" or
//! with a modal verb, and a numbered sub-part read as the source's decimal ("Article V(3)" is
//! 5.3); and the real corpus sentences that must stay quiet. One table, each
//! rule both ways: the planted value the source lacks is flagged; the source's own value in
//! the same phrasing is grounded; the output's own drafting, recommendation or scenario is
//! not a claim.

mod support;

use support::evidence::{Row, assert_rows, assert_rows_without_a_finding_examine_or_skip};

// Real source excerpts (corpus contracts 005 and 003, as extracted).
const SRC_005: &str = "Article 2 COMPENSATION 2.1 Remuneration. (a) The Consultant's monthly base consulting fee shall be three thousand two hundred fifty United States dollars ($75,000 (together with any increases thereto as hereinafter provided, the \"Base Consulting Fee\") through 19 August 2020. Commencing on 20 August 2020, Consultant's Base Consulting Fee shall be increased to $8,500 per calendar month. All subsequent monthly payments of Base Consulting Fee shall be paid within the first five days of the following calendar month.\n\n2.2 Incentive Plans. The Consultant's bonus payment level will be set at a minimum of 25% of the annual gross Base Consulting Fee.\n";
const SRC_003: &str = "9. Principal will grant Distributor a discount based on the Products and Prices. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause. The Effective Date is the date of signature.\n";

// Corpus contract 017 (as extracted), Articles V to VIII.
const SRC_017: &str = "ARTICLE V RIGHTS AND OBLIGATIONS   5.1 Each of the Parties warrants that its execution and performance of this Agreement is in no violation of any third party interests or PRC laws.   5.2 Party B will be responsible for server configuration, bandwidth, operation, maintenance, users and user services management.   5.3 Party B warrants that any and all information provided or released onto the Cooperation Channel during the Cooperation is in no violation of PRC laws, and indemnify Party A for any loss incurred by Party A thereof.   5.4 Any delay of service by Party B due to any force majeure will be notified to Party A immediately.   ARTICLE VI   OWNERSHIP   Party A maintains its ownership of all rights.   ARTICLE VII EXCLUSIVITY   During the term of this Agreement, Party B and its affiliates will be the exclusive cooperator.   ARTICLE VIII CONFIDENTIALITY   8.1 Unless with express prior written consent from the other Party, none of the Parties may make any public announcement.   8.2 Subject to written consent from the other Party, any Party may make press release.   8.3 Any Party will keep in strict confidence any business secret.   8.4 The provisions under this Article VIII will have effect during and after the term of this Agreement.\n";

const ROWS: &[Row] = &[
    Row {
        cause: "a delivery time limit with 'must … within'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The supplier must deliver the goods within 75 days of an order.\n",
        span: "75 days",
        flagged: true,
    },
    Row {
        cause: "the source's own notice period in a time-limit phrasing",
        check: "entities_grounded",
        source: SRC_005,
        output: "The monthly fee must be paid within five days of the month's start.\n",
        span: "five days",
        flagged: false,
    },
    Row {
        cause: "'no later than … after'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The customer must raise any dispute no later than fifty-five days after the invoice date.\n",
        span: "fifty-five days",
        flagged: true,
    },
    Row {
        cause: "a window a party has",
        check: "entities_grounded",
        source: SRC_003,
        output: "**Risk:** The supplier has a 45-day window to fix defects.\n",
        span: "45-day",
        flagged: true,
    },
    Row {
        cause: "notice a change needs",
        check: "entities_grounded",
        source: SRC_003,
        output: "- Price changes need twenty-one months' written notice.\n",
        span: "twenty-one months",
        flagged: true,
    },
    Row {
        cause: "time a party gets to act",
        check: "entities_grounded",
        source: SRC_003,
        output: "The customer gets 19 hours to report a security incident.\n",
        span: "19 hours",
        flagged: true,
    },
    Row {
        cause: "the output's summary of its own fix (001_modify_payment_2 deepseek-chat-v3)",
        check: "entities_grounded",
        source: SRC_003,
        output: "   - Established clear quarterly deadlines (within 45 days after quarter end)\n",
        span: "45 days",
        flagged: false,
    },
    Row {
        cause: "the output's own clause, after 'Below is' (005_add_clause_1 qwen-2.5-72b)",
        check: "entities_grounded",
        source: SRC_003,
        output: "Below is the addition of a reasonable non-compete clause that restricts the consultant from working with direct competitors for 6 months post-termination within a 50-mile radius.\n",
        span: "6 months",
        flagged: false,
    },
    Row {
        cause: "a recommendation in the imperative (010_review_2 gpt-5)",
        check: "entities_grounded",
        source: SRC_003,
        output: "  - Preserve post-termination access to sales and payment records for audit/reconciliation for at least 12 months.\n",
        span: "12 months",
        flagged: false,
    },
    Row {
        cause: "a hypothetical",
        check: "entities_grounded",
        source: SRC_003,
        output: "If the buyer pays late, the supplier may suspend after 40 days.\n",
        span: "40 days",
        flagged: false,
    },
    Row {
        cause: "a term after 'a' following a verb",
        check: "entities_grounded",
        source: SRC_003,
        output: "The buyer earns a Milestone Rebate for each late delivery.\n",
        span: "Milestone Rebate",
        flagged: true,
    },
    Row {
        cause: "a term after a possessive",
        check: "entities_grounded",
        source: SRC_003,
        output: "Each party's Early Pay Incentive is capped at the fees paid in that year.\n",
        span: "Early Pay Incentive",
        flagged: true,
    },
    Row {
        cause: "a bare plural term as the sentence's subject",
        check: "entities_grounded",
        source: SRC_003,
        output: "- Hardship Events are calculated monthly and credited against the next invoice.\n",
        span: "Hardship Events",
        flagged: true,
    },
    Row {
        cause: "'the concept of' a term (read as a term, not a person's name)",
        check: "entities_grounded",
        source: SRC_003,
        output: "The concept of Rollover Allowance drives the whole pricing model.\n",
        span: "Rollover Allowance",
        flagged: true,
    },
    Row {
        cause: "'the Agreement uses X to mean' names the source as where X is defined",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement uses Service Uplift to mean the rebate owed for a missed deadline.\n",
        span: "Service Uplift",
        flagged: true,
    },
    Row {
        cause: "the source's own term after 'a'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The contract ties the start of the term to an Effective Date it leaves blank.\n",
        span: "Effective Date",
        flagged: false,
    },
    Row {
        cause: "a capitalised phrase the output also writes in lower case (010_review_2 gpt-5)",
        check: "entities_grounded",
        source: SRC_003,
        output: "  - Main Agreement (Section 10): Initial Term is a fixed 1 year. There is no at-will termination right during the initial term.\n",
        span: "Initial Term",
        flagged: false,
    },
    Row {
        cause: "a verb before a party the output names alone (005_add_clause_2 glm-4.6)",
        check: "entities_grounded",
        source: SRC_003,
        output: "3. **Moral Rights Waiver**: Ensures Company has complete control over the use and modification of work product. The Company owns it.\n",
        span: "Ensures Company",
        flagged: false,
    },
    Row {
        cause: "a reference after 'Pursuant to' in the analysis",
        check: "references_grounded",
        source: SRC_003,
        output: "Pursuant to Section 76.5, the licensee must keep the source code in escrow.\n",
        span: "Section 76.5",
        flagged: true,
    },
    Row {
        cause: "the source's own section after 'Pursuant to'",
        check: "references_grounded",
        source: SRC_003,
        output: "Pursuant to Section 10, either party may end the Agreement on notice.\n",
        span: "Section 10",
        flagged: false,
    },
    Row {
        cause: "a modal verb in the analysis does not make a reference drafted",
        check: "references_grounded",
        source: SRC_017,
        output: "Article XLVI would let Party A suspend the channel without notice.\n",
        span: "Article XLVI",
        flagged: true,
    },
    Row {
        cause: "a numbered sub-part is the source's decimal (017_review_2 o3-mini)",
        check: "references_grounded",
        source: SRC_017,
        output: "  – Although Article V(3) addresses certain indemnification issues in connection with content violations, additional detail would strengthen the contract.\n",
        span: "Article V(3)",
        flagged: false,
    },
    Row {
        cause: "a numbered sub-part the source lacks in either reading",
        check: "references_grounded",
        source: SRC_017,
        output: "Article V(9) addresses indemnification for content violations.\n",
        span: "Article V(9)",
        flagged: true,
    },
    Row {
        cause: "a duration as the subject after an opening article",
        check: "entities_grounded",
        source: SRC_003,
        output: "A 14-month exclusivity period follows launch.\n",
        span: "14-month",
        flagged: true,
    },
];

#[test]
fn fifth_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn fifth_rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}
