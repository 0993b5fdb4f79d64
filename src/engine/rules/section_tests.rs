use super::*;

fn rule() -> SectionRule {
    SectionRule::new(
        Some(Regex::new(r"(?i)not checked|missing information|limitations").unwrap()),
        compile_groups("statements", &[r"\b(?:I|we) did not review\b".to_string()]).unwrap(),
        20,
    )
}

fn run(t: &str) -> RuleOutcome {
    let body = (0, t.len());
    let copied = |_: usize, _: usize| false;
    rule().apply(
        t,
        body,
        &ProseMap::new(t, body),
        &Layout::markdown(t, body),
        &copied,
    )
}

#[test]
fn heading_passes_and_is_cited() {
    let t = "Analysis of the agreement in full detail.\n\n## Not checked / missing information\n- exhibits";
    let o = run(t);
    assert_eq!(o.verdict, Verdict::Pass);
    assert_eq!(
        &t[o.hits[0].start..o.hits[0].end],
        "## Not checked / missing information"
    );
}

#[test]
fn a_label_or_lead_in_over_content_counts_and_a_title_over_nothing_does_not() {
    let t = "Analysis of the agreement in full detail.\n\n**Not checked:** Exhibit C.";
    assert_eq!(run(t).verdict, Verdict::Pass);
    let t = "Analysis of the agreement in full detail.\n\nMissing information:\n\n- Exhibit C";
    assert_eq!(run(t).verdict, Verdict::Pass);
    let t = "Analysis of the agreement in full detail.\n\n## Not checked / missing information\n";
    assert_eq!(run(t).verdict, Verdict::Fail);
}

#[test]
fn a_judged_title_counts_only_over_content_that_states_a_limit() {
    let mut r = rule();
    r.headings = None;
    r.judged = Some((
        Regex::new(r"(?i)^[\W]*(?:limitations|disclaimers)\W*$").unwrap(),
        Regex::new(r"(?i)\bnot\s+provided\b").unwrap(),
    ));
    let run = |t: &str| {
        let body = (0, t.len());
        let copied = |_: usize, _: usize| false;
        let (p, l) = (ProseMap::new(t, body), Layout::markdown(t, body));
        r.apply(t, body, &p, &l, &copied).verdict
    };
    let t = "Analysis of the agreement in full detail.\n\n## Limitations\n\n- Exhibit B was not provided.\n\n## Next\n\nText.";
    assert_eq!(run(t), Verdict::Pass);
    // The limit stated under another title is not this title's content.
    let t = "Analysis of the agreement in full detail.\n\n## Limitations\n\nThe licence excludes source code.\n\n## Next\n\nExhibit B was not provided.";
    assert_eq!(run(t), Verdict::Fail);
    let t = "Analysis of the agreement in full detail.\n\n**DISCLAIMERS**\n\nLicensor makes no other warranties of any kind.";
    assert_eq!(run(t), Verdict::Fail);
}

#[test]
fn phrase_in_running_text_is_not_a_heading() {
    let t = "This clause has limitations on liability that are broad and one-sided.";
    assert_eq!(run(t).verdict, Verdict::Fail);
}

#[test]
fn statement_anywhere_passes() {
    let t = "Review of the agreement. We did not review the exhibits or schedules.";
    assert_eq!(run(t).verdict, Verdict::Pass);
}

#[test]
fn a_statement_with_bold_words_inside_is_read_as_one() {
    let t = "Review of the agreement.\n\n- **We** did not **review** the exhibits.";
    let o = run(t);
    assert_eq!(o.verdict, Verdict::Pass);
    assert_eq!(&t[o.hits[0].start..o.hits[0].end], "We** did not **review");
    let plain = "Review of the agreement.\n\n- **We** did **check** the exhibits.";
    assert_eq!(run(plain).verdict, Verdict::Fail);
}

#[test]
fn a_sentence_copied_from_the_source_is_not_the_output_speaking() {
    use crate::engine::rules::kind::Companions;
    let source = "1. Supply. We did not review the exhibits attached to this agreement, \
                  and the Buyer accepts them as is.";
    let r = rule();
    let run_with = |t: &str| {
        let cx = RuleContext::new(t, (0, t.len())).with_companions(Companions {
            source: Some(source),
            ..Companions::default()
        });
        CompiledRule::apply(&r, &cx).unwrap().verdict
    };
    let copy =
        "Redline of the agreement.\n\nWe did not review the exhibits attached to this agreement.";
    assert_eq!(run_with(copy), Verdict::Fail);
    let own = "Redline of the agreement.\n\nWe did not review the exhibits: none were provided.";
    assert_eq!(run_with(own), Verdict::Pass);
    // Too short to tell a copy from the output's own words.
    let short = "Redline of the agreement.\n\nWe did not review.";
    assert_eq!(run_with(short), Verdict::Pass);
}

#[test]
fn a_statement_a_reader_never_sees_does_not_count_and_one_beside_it_does() {
    let intro = "Analysis of the agreement in full detail.\n\n";
    for hidden in [
        "<div hidden>We did not review Section 9.</div>",
        "<div hidden>\n\nWe did not review Section 9.\n\n</div>",
        "<template>We did not review Section 9.</template>",
        "Fine. <script>We did not review Section 9.</script>",
        "<style>We did not review Section 9.</style>",
        "Fine. <span style=\"display:none\">We did not review Section 9.</span>",
        "<p style='visibility: hidden'>We did not review Section 9.</p>",
        "Fine. <![CDATA[We did not review Section 9.]]>",
        "Fine. <!-- We did not review Section 9. -->",
        "Fine. ![We did not review Section 9](x.png)",
        "Fine. <span title=\"We did not review Section 9\">ok</span>",
        "<section hidden>\n\n## Not checked\n\n- Exhibit C\n",
    ] {
        let t = format!("{intro}{hidden}");
        assert_eq!(run(&t).verdict, Verdict::Fail, "{t}");
        let beside = format!("{t}\n\nWe did not review the exhibits.");
        let want = if hidden.starts_with("<section") {
            Verdict::Fail // left open, it hides the rest
        } else {
            Verdict::Pass
        };
        assert_eq!(run(&beside).verdict, want, "{beside}");
    }
    // Ordinary inline formatting is seen.
    for seen in [
        "We did not review <b>Section 9</b>.",
        "<strong>We did not review</strong> Section 9.<br>",
        "We did not review <span>Section 9</span>.",
        "<em>We did not review Section 9</em>, <i>nor</i> 10<sup>1</sup>.",
    ] {
        let t = format!("{intro}{seen}");
        assert_eq!(run(&t).verdict, Verdict::Pass, "{t}");
    }
}

#[test]
fn absence_fails_citing_the_last_line() {
    let t = "Thorough analysis of everything here.\nFinal conclusion line.\n\n";
    let o = run(t);
    assert_eq!(o.verdict, Verdict::Fail);
    assert_eq!(&t[o.hits[0].start..o.hits[0].end], "Final conclusion line.");
}

#[test]
fn very_short_output_is_indeterminate() {
    assert_eq!(run("Too short.").verdict, Verdict::Indeterminate);
}

#[test]
fn the_copied_sentence_check_is_linear_in_a_one_line_output() {
    // One sentence holding a statement every few words: asking, for each statement, whether
    // its whole sentence is copied from the source read the sentence once per statement
    // (a 256 KB one-line output took 43 s). Counted in bytes read, not time.
    use crate::engine::rules::kind::Companions;
    let source = "1. Supply. The Buyer accepts the goods as delivered.";
    let r = rule();
    let work = |n: usize| {
        let t = format!(
            "Review: {}done",
            "we did not review the exhibits and ".repeat(n)
        );
        let cx = RuleContext::new(&t, (0, t.len())).with_companions(Companions {
            source: Some(source),
            ..Companions::default()
        });
        let before = super::work();
        let out = CompiledRule::apply(&r, &cx).unwrap();
        assert_eq!(out.verdict, Verdict::Pass);
        assert!(
            out.hits.len() >= n,
            "{} statements found of {n}",
            out.hits.len()
        );
        super::work() - before
    };
    let (one, two) = (work(1000), work(2000));
    assert!(one > 0, "the check read nothing");
    assert!(
        two <= one * 2 + one / 4,
        "1000 statements: {one} bytes read, 2000: {two}"
    );
}
