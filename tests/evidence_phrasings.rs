//! The same invention in other writers' phrasings: a defined term given with "means" or in
//! parentheses, a company named without any marker word, a person followed by a title in
//! parentheses, a percentage in words, with a hyphen or in percentage points, a duration a
//! party "has" to act in, values in bold. One table, each rule in both directions: the planted
//! value the source lacks is flagged; the source's own value, and real corpus sentences that
//! are labels, case names, conversions or drafting, are not.

mod support;

use support::evidence::{
    Inputs, Row, apply, assert_rows, assert_rows_without_a_finding_examine_or_skip, flagged,
};

// Real source excerpts (corpus contracts 005 and 003, as extracted, artefacts included).
const SRC_005: &str = "Article 2 COMPENSATION 2.1 Remuneration. (a) The Consultant's monthly base consulting fee shall be three thousand two hundred fifty United States dollars ($75,000 (together with any increases thereto as hereinafter provided, the \"Base Consulting Fee\") through 19 August 2020. Commencing on 20 August 2020, Consultant's Base Consulting Fee shall be increased to $8,500 per calendar month. All subsequent monthly payments of Base Consulting Fee shall be paid within the first five days of the following calendar month.\n\n2.2 Incentive Plans. The Consultant's bonus payment level will be set at a minimum of 25% of the annual gross Base Consulting Fee.\n\nIN WITNESS WHEREOF, the parties hereto have executed this Agreement. TechVenture Solutions Inc. By: Title:\n";
const SRC_003: &str = "9. Principal will grant Distributor a discount based on the Products and Prices. 10. This Agreement shall be in effect until March 18. 2021, unless sooner terminated by either party upon (30) days written notice, without cause.\n";

const ROWS: &[Row] = &[
    // Defined terms.
    Row {
        cause: "term planted as a definition the Agreement is said to make ('means, under the Agreement')",
        check: "entities_grounded",
        source: SRC_003,
        output: "\"Shortfall Payment\" means, under the Agreement, the amount withheld from each payment until acceptance.\n",
        span: "Shortfall Payment",
        flagged: true,
    },
    Row {
        cause: "term planted in parentheses after what the contract appoints",
        check: "entities_grounded",
        source: SRC_003,
        output: "The contract appoints an independent party to hold the deposit (the \"Escrow Agent\").\n",
        span: "Escrow Agent",
        flagged: true,
    },
    Row {
        cause: "term planted in bold after 'the'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The customer's remedies for a missed date are tied to the **Committed Spend**.\n",
        span: "Committed Spend",
        flagged: true,
    },
    Row {
        cause: "term planted without an article, 'as defined in the Agreement'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The supplier's exposure turns on the capitalised term Excused Delay (as defined in the Agreement).\n",
        span: "Excused Delay",
        flagged: true,
    },
    Row {
        cause: "a term the source defines, said to be defined by the Agreement",
        check: "entities_grounded",
        source: SRC_005,
        output: "The Agreement defines \"Base Consulting Fee\" as the monthly fee.\n",
        span: "Base Consulting Fee",
        flagged: false,
    },
    Row {
        cause: "a section name in a recommendation (006_modify_1 gemini-2.5-flash)",
        check: "entities_grounded",
        source: SRC_003,
        output: "*   **Definition of \"Affiliates\" and \"Subsidiaries\":** While commonly understood, it would be beneficial to include formal definitions of \"Affiliate\" and \"Subsidiary\" within the \"Definitions\" section of the agreement (if one exists, or to create one) to avoid any ambiguity.\n",
        span: "Definitions",
        flagged: false,
    },
    // Parties and people.
    Row {
        cause: "company planted with no marker word around it",
        check: "entities_grounded",
        source: SRC_005,
        output: "Payments flow to Vantor Systems GmbH rather than to the licensor directly.\n",
        span: "Vantor Systems GmbH",
        flagged: true,
    },
    Row {
        cause: "the company the source names, with no marker word around it",
        check: "entities_grounded",
        source: SRC_005,
        output: "Payments flow to TechVenture Solutions Inc. rather than to the consultant.\n",
        span: "TechVenture Solutions Inc.",
        flagged: false,
    },
    Row {
        cause: "a group planted as the guarantor (no corporate suffix)",
        check: "entities_grounded",
        source: SRC_005,
        output: "The Guarantor, Corvel Group, must cover any shortfall in the fees.\n",
        span: "Corvel Group",
        flagged: true,
    },
    Row {
        cause: "person planted with a title in parentheses after the name",
        check: "entities_grounded",
        source: SRC_005,
        output: "Declan Achebe (General Counsel) is the contact for notices under the Agreement.\n",
        span: "Declan Achebe",
        flagged: true,
    },
    Row {
        cause: "person planted in bold after an honorific",
        check: "entities_grounded",
        source: SRC_005,
        output: "Mr. **Halloway** is named in the contract as the key employee.\n",
        span: "Halloway",
        flagged: true,
    },
    Row {
        cause: "a case name's first party (005_add_clause_1 mistral-large)",
        check: "entities_grounded",
        source: SRC_005,
        output: "   - The **50-mile radius** is tied to locations where the Consultant **actually worked**, which is more defensible than a blanket restriction (cf. *Loral Corp. v. Moyes* (1985) 174 Cal.App.3d 268).\n",
        span: "Loral Corp.",
        flagged: false,
    },
    Row {
        cause: "a reporter citation in a 'cf.' parenthetical (005_add_clause_1 mistral-large)",
        check: "entities_grounded",
        source: SRC_005,
        output: "   - The **50-mile radius** is tied to locations where the Consultant **actually worked**, which is more defensible than a blanket restriction (cf. *Loral Corp. v. Moyes* (1985) 174 Cal.App.3d 268).\n",
        span: "174 Cal.App.3d 268",
        flagged: false,
    },
    // Percentages.
    Row {
        cause: "percentage planted in words with the figure in parentheses",
        check: "entities_grounded",
        source: SRC_005,
        output: "The royalty rate is fifteen per cent (15%) of net sales.\n",
        span: "fifteen per cent",
        flagged: true,
    },
    Row {
        cause: "percentage planted with a hyphen",
        check: "entities_grounded",
        source: SRC_005,
        output: "The reseller earns a 12-percent discount on list prices.\n",
        span: "12-percent",
        flagged: true,
    },
    Row {
        cause: "percentage planted in percentage points",
        check: "entities_grounded",
        source: SRC_005,
        output: "Price increases are capped at 3 percentage points per year.\n",
        span: "3 percentage points",
        flagged: true,
    },
    Row {
        cause: "the percentage the source has",
        check: "entities_grounded",
        source: SRC_005,
        output: "The bonus payment level is set at a minimum of 25% of the annual fee.\n",
        span: "25%",
        flagged: false,
    },
    // Durations.
    Row {
        cause: "duration planted as the time a party has to act",
        check: "entities_grounded",
        source: SRC_005,
        output: "The licensee has 18 months to remove the software after expiry.\n",
        span: "18 months",
        flagged: true,
    },
    Row {
        cause: "duration planted as a notice period",
        check: "entities_grounded",
        source: SRC_005,
        output: "There is a 90-day notice period for non-renewal.\n",
        span: "90-day",
        flagged: true,
    },
    Row {
        cause: "the duration the source has",
        check: "entities_grounded",
        source: SRC_005,
        output: "Monthly fees are payable within five days of the month's end.\n",
        span: "five days",
        flagged: false,
    },
    // Dates and amounts.
    Row {
        cause: "date planted as the end of the term",
        check: "entities_grounded",
        source: SRC_003,
        output: "The initial term ends on March 18, 2023.\n",
        span: "March 18, 2023",
        flagged: true,
    },
    Row {
        cause: "the source's date, written 'March 18. 2021' by its conversion",
        check: "entities_grounded",
        source: SRC_003,
        output: "The initial term ends on March 18, 2021.\n",
        span: "March 18, 2021",
        flagged: false,
    },
    Row {
        cause: "the source's amount in words before 'United States dollars'",
        check: "entities_grounded",
        source: SRC_005,
        output: "The Base Consulting Fee is $3,250 per month.\n",
        span: "$3,250",
        flagged: false,
    },
    Row {
        cause: "amount planted in bold",
        check: "entities_grounded",
        source: SRC_005,
        output: "The termination fee is **$489,805**.\n",
        span: "$489,805",
        flagged: true,
    },
    Row {
        cause: "a figure restating the one before it per year (005_review_3 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_005,
        output: "- Base fee is only $8,500/month ($102,000/year), which is quite low for this level of responsibility\n",
        span: "$102,000",
        flagged: false,
    },
    // Later phrasings: single quotes, the Agreement's term, a company ending "Co.", interest,
    // "a term of", abbreviated references; a law's name and a quoted term in a
    // recommendation are not claims.
    Row {
        cause: "term planted in single quotes",
        check: "entities_grounded",
        source: SRC_003,
        output: "The contract uses the defined term ‘Holdback Amount’ for the amount withheld.\n",
        span: "Holdback Amount",
        flagged: true,
    },
    Row {
        cause: "term planted after 'the Agreement's'",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Agreement's Escrow Release Event is what triggers the buy-back.\n",
        span: "Escrow Release Event",
        flagged: true,
    },
    Row {
        cause: "term planted as the subject, with no marker word",
        check: "entities_grounded",
        source: SRC_003,
        output: "The Critical Milestone is the main protection the customer has against late delivery.\n",
        span: "Critical Milestone",
        flagged: true,
    },
    Row {
        cause: "company planted with the suffix 'Co.'",
        check: "entities_grounded",
        source: SRC_005,
        output: "The Agreement names Harwick & Sons Co. as the distributor's guarantor.\n",
        span: "Harwick & Sons Co.",
        flagged: true,
    },
    Row {
        cause: "percentage planted as an interest rate",
        check: "entities_grounded",
        source: SRC_005,
        output: "Overdue amounts bear interest at 1.5% per month.\n",
        span: "1.5%",
        flagged: true,
    },
    Row {
        cause: "duration planted as 'a term of'",
        check: "entities_grounded",
        source: SRC_005,
        output: "The licence is granted for a term of seven (7) years.\n",
        span: "seven (7) years",
        flagged: true,
    },
    Row {
        cause: "a law's name after 'the' is no term (013_modify_2 mistral-large)",
        check: "entities_grounded",
        source: SRC_005,
        output: "   - Aligns with the **Defend Trade Secrets Act (DTSA)** and **Uniform Trade Secrets Act (UTSA)**, which permit **general knowledge retention** but prohibit **misappropriation** of specific proprietary information, 25% of the time.\n",
        span: "Defend Trade Secrets Act",
        flagged: false,
    },
    Row {
        cause: "a quoted term the output asks to define (007_modify_1 mistral-large)",
        check: "entities_grounded",
        source: SRC_005,
        output: "1. **Review Definitions:** Ensure \"Affiliate\" and \"Subsidiary\" are clearly defined.\n",
        span: "Subsidiary",
        flagged: false,
    },
];

#[test]
fn phrasing_rows_in_both_directions() {
    assert_rows(ROWS);
}

#[test]
fn phrasing_rows_without_a_finding_still_examine_or_skip_their_claims() {
    assert_rows_without_a_finding_examine_or_skip(ROWS);
}

/// A bold numbered label holds no claim at all (014_review_2 gemini-2.5-flash): its words are
/// not read as a term, so nothing is flagged (and nothing is there to examine).
#[test]
fn a_bold_numbered_label_is_no_term() {
    let out = "1.  **Governing Law for the Joint Venture Entities:** While Article 20 specifies Delaware law for the Agreement itself, it does not explicitly state the governing law for the Operating Company.\n";
    let inputs = Inputs {
        source: Some(SRC_003),
        ..Default::default()
    };
    let o = apply("entities_grounded", out, &inputs);
    assert!(flagged(&o, out).is_empty(), "{:?}", flagged(&o, out));
    // The same words in running text after "the" are a term the source lacks.
    let planted = "The Agreement leaves open the law for the Joint Venture Entities.\n";
    let o = apply("entities_grounded", planted, &inputs);
    assert_eq!(flagged(&o, planted), ["Joint Venture Entities"]);
}
