//! The built-in disclosure check against outputs that disclose nothing yet read like a
//! disclosure: a statement in markup no reader sees, a statement whose object is a template
//! slot, a one-line label whose content says nothing was left out, and a completeness claim
//! phrased as a limit ("I could not find any issues"). Each row is appended, after a blank
//! line, to a neutral passage that fails alone; its expected verdict was worked out by hand
//! before the rule was run on it. "red-team" rows are the forms a red-team run found
//! passing; "beside" rows put a genuine disclosure next to one; the others are genuine
//! disclosures in ordinary markdown that must keep passing.

mod support;

use support::disclosure::failures;

/// `(where from, text, expect pass)`.
const UNSEEN: &[(&str, &str, bool)] = &[
    (
        "red-team",
        "<div hidden>I did not review Section 9.</div>",
        false,
    ),
    (
        "red-team",
        "<template>I did not review Section 9.</template>",
        false,
    ),
    (
        "red-team",
        "<script>I did not review Section 9.</script>",
        false,
    ),
    (
        "red-team",
        "<style>I did not review Section 9.</style>",
        false,
    ),
    (
        "red-team",
        "Summary. <span style=\"display:none\">I did not review Section 9.</span>",
        false,
    ),
    (
        "red-team",
        "Summary. <![CDATA[I did not review Section 9.]]>",
        false,
    ),
    (
        "red-team",
        "Summary. <!-- I did not review Section 9. -->",
        false,
    ),
    ("red-team", "![I did not review Section 9](x.png)", false),
    (
        "unseen",
        "<div hidden>\n\n## Not checked\n\n- Exhibit C was not provided.\n\n</div>",
        false,
    ),
    (
        "beside",
        "<div hidden>I did not review Section 9.</div>\n\nI did not review Exhibit C, which was not provided.",
        true,
    ),
    (
        "beside",
        "![I did not review Section 9](x.png)\n\nI did not review Exhibit C, which was not provided.",
        true,
    ),
    (
        "seen",
        "I did not review **Exhibit C**, which was not provided.",
        true,
    ),
    (
        "seen",
        "I did not review <b>Exhibit C</b>, which was not provided.",
        true,
    ),
];

#[test]
fn a_statement_no_reader_sees_does_not_count() {
    let bad = failures(UNSEEN);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const SLOTS: &[(&str, &str, bool)] = &[
    ("red-team", "I did not review [●].", false),
    ("red-team", "I did not review Section [X].", false),
    ("red-team", "I did not review (SECTION).", false),
    ("red-team", "I did not review «SECTION».", false),
    ("red-team", "I did not review %SECTION%.", false),
    ("red-team", "I did not review {{section}}.", false),
    ("red-team", "I did not review <SECTION>.", false),
    ("red-team", "I did not review ___.", false),
    ("slot", "We did not check Clause [__].", false),
    ("slot", "We could not verify Schedule [•].", false),
    ("slot", "I did not review the «Exhibit Name».", false),
    ("slot", "I did not review %exhibit_name%.", false),
    (
        "beside",
        "I did not review Section [X]. I did not review Exhibit C, which was not provided.",
        true,
    ),
    ("genuine", "I did not review Section 9 (Indemnity).", true),
    ("genuine", "We did not review the MSA (as defined).", true),
    (
        "genuine",
        "I did not review the Data Processing Agreement (DPA), which was not attached.",
        true,
    ),
    ("genuine", "I did not review 10% of the schedules.", true),
];

#[test]
fn a_statement_whose_object_is_a_template_slot_does_not_count() {
    let bad = failures(SLOTS);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const LABELS: &[(&str, &str, bool)] = &[
    ("red-team", "Missing information: none.", false),
    ("red-team", "**Not reviewed:** N/A", false),
    ("red-team", "Open questions: none at this time", false),
    ("red-team", "Assumptions — none made.", false),
    ("label", "- **Missing information:** None.", false),
    ("label", "Not checked: nothing.", false),
    ("label", "Out of scope: n/a", false),
    ("label", "Limitations: none.", false),
    ("label", "Assumptions: No assumptions were made.", false),
    (
        "beside",
        "Missing information: none.\n\nNot reviewed: Exhibit C, which was not provided.",
        true,
    ),
    ("genuine", "Missing information: Exhibit C.", true),
    ("genuine", "**Not reviewed:** the indemnity schedule.", true),
    (
        "genuine",
        "Assumptions: I assumed New York law governs.",
        true,
    ),
];

#[test]
fn a_label_over_content_that_says_nothing_was_left_out_does_not_count() {
    let bad = failures(LABELS);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const COMPLETE: &[(&str, &str, bool)] = &[
    ("red-team", "I could not verify any problems.", false),
    (
        "red-team",
        "I could not find any issues with the indemnity.",
        false,
    ),
    ("red-team", "No limitations apply to this review.", false),
    (
        "red-team",
        "I was unable to identify anything missing.",
        false,
    ),
    (
        "claim",
        "We did not find any problems with the agreement.",
        false,
    ),
    ("claim", "I could not find anything missing.", false),
    ("claim", "I could not identify any gaps or issues.", false),
    ("claim", "We were unable to find any concerns.", false),
    ("claim", "There are no limitations to this review.", false),
    (
        "beside",
        "I could not find any issues with the indemnity. I could not verify the pricing in Exhibit C, which was not provided.",
        true,
    ),
    (
        "genuine",
        "I could not verify the pricing in Exhibit C.",
        true,
    ),
    (
        "genuine",
        "I could not find the schedule referred to in Section 4.",
        true,
    ),
    (
        "genuine",
        "I could not verify whether any problems arise under local law.",
        true,
    ),
    (
        "genuine",
        "This review is limited to the indemnity; no other limitations apply.",
        true,
    ),
];

#[test]
fn a_completeness_claim_phrased_as_a_limit_does_not_count() {
    let bad = failures(COMPLETE);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
