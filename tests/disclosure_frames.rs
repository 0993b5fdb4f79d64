//! The built-in disclosure check against statements that say nothing to a reader: hidden in
//! a markdown comment (`[//]: # (…)`), made of an unfilled template slot ("I did not review
//! [SECTION]"), or denied ("It is not true that I did not review …"). Each row is appended,
//! after a blank line, to a neutral passage that fails alone; its expected verdict was
//! worked out by hand before the rule was run on it. "red-team" rows are the forms a
//! red-team run found passing; the others are their look-alikes that must keep passing.

mod support;

use support::disclosure::failures;

/// `(where from, text, expect pass)`.
const HIDDEN: &[(&str, &str, bool)] = &[
    (
        "red-team",
        "\n[//]: # (I did not review the schedules.)",
        false,
    ),
    (
        "hidden",
        "\n[//]: # \"We did not review the exhibits, which were not provided.\"",
        false,
    ),
    (
        "hidden",
        "\n[comment]: <> (We did not review the exhibits.)",
        false,
    ),
    // The idiom repeats its label; the parser keeps only the first definition of a label.
    (
        "hidden",
        "\n[//]: # (Draft.)\n[//]: # (We did not review the exhibits.)",
        false,
    ),
    (
        "hidden",
        "\n- [//]: # (We did not review the exhibits.)\n  The fee is fixed.",
        false,
    ),
    (
        "hidden",
        "\n[//]: # (x)\n\n**Not checked:** Exhibit C.",
        true,
    ),
    (
        "hidden",
        "\nSee [the memo](# 'We did not review the exhibits.').",
        false,
    ),
    (
        "hidden",
        "\nSee [the memo](<We did not review the exhibits>).",
        false,
    ),
    (
        "shown",
        "\nWe did not review [the exhibits](https://example.com/e 'Exhibits').",
        true,
    ),
    ("shown", "\n[Exhibit B](#b) was not provided.", true),
    (
        "shown",
        "\n[//]: # (Draft.)\n\nWe did not review the exhibits.",
        true,
    ),
    (
        "shown",
        "\nWe did not review the [exhibits][1].\n\n[1]: https://example.com/exhibits",
        true,
    ),
    // A definition cannot interrupt a paragraph: this one is the paragraph's text, shown.
    (
        "shown",
        "\nThe fee is fixed.\n[//]: # (We did not review the exhibits.)",
        true,
    ),
];

#[test]
fn a_statement_in_a_markdown_comment_does_not_count() {
    let bad = failures(HIDDEN);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const SLOTS: &[(&str, &str, bool)] = &[
    ("red-team", "\nI did not review [SECTION].", false),
    ("red-team", "\nWe did not check {{schedule}}.", false),
    (
        "red-team",
        "\nI was not provided with <DOCUMENT NAME>.",
        false,
    ),
    (
        "slot",
        "\nWe did not review the [DOCUMENT NAME] or [EXHIBIT].",
        false,
    ),
    (
        "slot",
        "\nI did not review [insert the schedules here].",
        false,
    ),
    ("slot", "\nWe could not verify {schedule_name}.", false),
    (
        "slot",
        "\n## Not checked\n\n- [DOCUMENT NAME]\n- {{exhibit}}",
        false,
    ),
    ("slot", "\nWe did not review [Document Name].", false),
    (
        "slot",
        "\nI did not review the attached <Exhibit Title>.",
        false,
    ),
    ("slot", "\nWe did not review XXX.", false),
    (
        "slot",
        "\nWe did not review the following:\n\n- [DOCUMENT NAME]\n- {{exhibit}}",
        false,
    ),
    // Copied redaction markers are the source's blanks, and a real object is a real one.
    ("kept", "\nI could not review [REDACTED].", true),
    ("kept", "\nWe could not check [*].", true),
    (
        "kept",
        "\nI did not review Exhibit B [Pricing], which was not attached.",
        true,
    ),
    (
        "kept",
        "\nWe did not review the exhibits [see note 1].",
        true,
    ),
    (
        "kept",
        "\n**[IMPORTANT]** We did not review the exhibits.",
        true,
    ),
    ("kept", "\nWe did not review Schedule 2 (Fees).", true),
    (
        "kept",
        "\nWe did not review [the pricing schedule](https://example.com/s).",
        true,
    ),
    (
        "kept",
        "\nWe did not review the [Exhibits][1].\n\n[1]: https://example.com/e",
        true,
    ),
    (
        "kept",
        "\nWe did not review ___the schedules___ at all.",
        true,
    ),
    (
        "kept",
        "\nWe did not review the following:\n\n- Exhibit C\n- {{exhibit}}",
        true,
    ),
];

#[test]
fn a_statement_whose_object_is_an_unfilled_slot_does_not_count() {
    let bad = failures(SLOTS);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const DENIED: &[(&str, &str, bool)] = &[
    (
        "red-team",
        "\nIt is not true that I did not review the exhibits.",
        false,
    ),
    (
        "red-team",
        "\nI cannot say that any area was not reviewed.",
        false,
    ),
    (
        "denied",
        "\nI cannot say that any schedule was not reviewed.",
        false,
    ),
    ("red-team", "\nThere is nothing I did not check.", false),
    (
        "denied",
        "\nThere is no section of the agreement that we did not review.",
        false,
    ),
    (
        "denied",
        "\nIt would be wrong to say that we did not review the exhibits.",
        false,
    ),
    (
        "denied",
        "\nIt's false that the exhibits were not provided.",
        false,
    ),
    (
        "denied",
        "\nNor is it true that we did not review the schedules.",
        false,
    ),
    (
        "denied",
        "\nWe deny that any exhibits were not reviewed.",
        false,
    ),
    (
        "denied",
        "\nI can't say I did not review the exhibits.",
        false,
    ),
    (
        "denied",
        "\nThe claim that we did not review the exhibits is false.",
        false,
    ),
    (
        "denied",
        "\nIf there were anything I did not check, I would list it here.",
        false,
    ),
    (
        "denied",
        "\nIf I did not review a schedule, I would say so.",
        false,
    ),
    (
        "denied",
        "\nThere isn't any part of the agreement that I did not review.",
        false,
    ),
    (
        "denied",
        "\nNot a single clause that we did not review.",
        false,
    ),
    // The same words that do not deny the statement after them.
    (
        "kept",
        "\nI cannot say that the cap is enforceable, because I did not review Schedule B.",
        true,
    ),
    (
        "kept",
        "\nIt is not true that the exhibits were reviewed: we did not review them.",
        true,
    ),
    (
        "kept",
        "\nThere is nothing in the excerpt about the exhibits, and I did not review them.",
        true,
    ),
    (
        "kept",
        "\nWith no schedules attached, we did not review the fee levels.",
        true,
    ),
    (
        "kept",
        "\nThere is no doubt that we did not review the exhibits: none were attached.",
        true,
    ),
    (
        "kept",
        "\nIt was a mistake that we did not review the exhibits; they were not attached.",
        true,
    ),
    (
        "kept",
        "\nI cannot say more, as I did not review the schedules.",
        true,
    ),
];

#[test]
fn a_denied_statement_does_not_count() {
    let bad = failures(DENIED);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
