//! The runner's parts on hand-made results: variance, drift, the evidence rule, the
//! summary, and a whole deterministic run.

use super::evaluated::evaluated_result;
use super::local::Prepared;
use super::report_level::{Current, drift_result, variance_result};
use super::*;
use crate::engine::playbook::builtin;
use crate::evaluator::{EvalError, EvaluatorVerdict, QuotedSpan};
use crate::model::{Located, RawRun, Status, Verdict};

fn check(id: &str) -> crate::model::Check {
    builtin()
        .playbook
        .checks
        .iter()
        .find(|c| c.id == id)
        .cloned()
        .unwrap()
}

fn result(id: &str, runs: &[Verdict], consistency: f64) -> CheckResult {
    let c = check(id);
    let mut r = local::blank_result(&c, runs[0], 0.9, vec![], String::new());
    r.per_check_consistency = consistency;
    r.raw_runs = runs
        .iter()
        .enumerate()
        .map(|(i, v)| RawRun {
            run: i as u32 + 1,
            result: *v,
            confidence: 0.9,
            notes: String::new(),
            evidence_citations: vec![],
            error: None,
            raw_response: None,
            cached: false,
        })
        .collect();
    r
}

fn checks() -> Vec<crate::model::Check> {
    builtin().playbook.checks.clone()
}

#[test]
fn variance_passes_above_the_threshold_and_names_the_unstable_checks() {
    use Verdict::*;
    let all = checks();
    let stable = vec![
        result("assumption_disclosure", &[Pass, Pass, Pass], 1.0),
        result("certainty_language", &[Fail, Fail, Fail], 1.0),
    ];
    let v = variance_result(&stable[0], &stable, &all, 0.85);
    assert_eq!(v.result, Pass, "{}", v.notes);
    let shaky = vec![
        result("assumption_disclosure", &[Pass, Fail, Pass], 0.5),
        result("certainty_language", &[Fail, Fail, Fail], 1.0),
    ];
    let v = variance_result(&shaky[0], &shaky, &all, 0.85);
    assert_eq!(v.result, Fail);
    assert!(
        v.notes.contains("assumption_disclosure (0.50)"),
        "{}",
        v.notes
    );
    let single = vec![result("assumption_disclosure", &[Pass], 1.0)];
    assert_eq!(
        variance_result(&single[0], &single, &all, 0.85).result,
        Indeterminate,
        "one run is not a measurement"
    );
}

#[test]
fn drift_fails_when_a_check_went_from_pass_to_fail() {
    use Verdict::*;
    let pb = builtin();
    let doc = crate::engine::document::Document::parse("Some text.".into(), None).unwrap();
    let mut base = run_deterministic(&pb, &doc);
    base.check_results[0] = result("assumption_disclosure", &[Pass], 1.0);
    let now = vec![result("assumption_disclosure", &[Fail], 1.0)];
    let current = Current {
        results: &now,
        consistency_score: 1.0,
        status: Status::Alert,
        mode: Mode::Screening,
        fingerprint: &base.integrity.inputs_fingerprint,
    };
    let drift = result("drift_over_time_support", &[Indeterminate], 1.0);
    let reference = DriftReference {
        report: base.clone(),
        kind: ReferenceKind::Baseline,
    };
    let r = drift_result(&drift, &current, Some(&reference), 0.15);
    assert_eq!(r.result, Fail);
    assert!(
        r.notes.contains("assumption_disclosure pass → fail"),
        "{}",
        r.notes
    );
    assert!(r.notes.contains("baseline"), "{}", r.notes);
    let r = drift_result(&drift, &current, None, 0.15);
    assert_eq!(r.result, Indeterminate, "nothing to compare with");
}

fn verdict(result: Verdict, quote: &str) -> RunResult {
    RunResult {
        verdict: Ok(EvaluatorVerdict {
            result,
            confidence: 0.8,
            evidence_citations: vec![QuotedSpan {
                span: quote.into(),
                context: String::new(),
            }],
            notes: "n".into(),
            assumptions: vec![],
        }),
        raw: None,
        cached: false,
    }
}

#[test]
fn a_fail_whose_quotes_are_not_in_the_document_is_indeterminate() {
    let pb = builtin();
    let doc =
        crate::engine::document::Document::parse("The clause is compliant.".into(), None).unwrap();
    let prepared = Prepared::new(&pb, &doc);
    let c = check("certainty_language");
    let located = evaluated_result(
        &prepared,
        &c,
        &[(1, verdict(Verdict::Fail, "is compliant"))],
    );
    assert_eq!(located.result, Verdict::Fail);
    let invented = evaluated_result(
        &prepared,
        &c,
        &[(1, verdict(Verdict::Fail, "is guaranteed to win in court"))],
    );
    assert_eq!(invented.result, Verdict::Indeterminate);
    assert!(
        invented
            .notes
            .contains("are verbatim in text the document shows"),
        "{}",
        invented.notes
    );
}

/// Text no reader sees (an HTML comment, a hidden element) cannot show that a check
/// passes: a pass quoting only it is indeterminate; a fail may quote it.
#[test]
fn a_pass_quoting_only_hidden_text_is_indeterminate() {
    let pb = builtin();
    let text = "<!-- The assumptions are stated in full below. -->\n\n<div hidden>All assumptions are listed here.</div>\n\nThe clause is compliant.\n";
    let doc = crate::engine::document::Document::parse(text.into(), None).unwrap();
    let prepared = Prepared::new(&pb, &doc);
    let c = check("certainty_language");
    for hidden in [
        "The assumptions are stated in full below",
        "All assumptions are listed here",
    ] {
        let r = evaluated_result(&prepared, &c, &[(1, verdict(Verdict::Pass, hidden))]);
        assert_eq!(r.result, Verdict::Indeterminate, "{hidden}: {}", r.notes);
        let r = evaluated_result(&prepared, &c, &[(1, verdict(Verdict::Fail, hidden))]);
        assert_eq!(r.result, Verdict::Fail, "{hidden}: {}", r.notes);
    }
    let r = evaluated_result(
        &prepared,
        &c,
        &[(1, verdict(Verdict::Pass, "The clause is compliant"))],
    );
    assert_eq!(r.result, Verdict::Pass, "{}", r.notes);
}

#[test]
fn a_misquote_is_shown_but_proves_nothing() {
    let pb = builtin();
    let text = "The Supplier shall promptly notify the Customer of any breach in writing.";
    let doc = crate::engine::document::Document::parse(text.into(), None).unwrap();
    let prepared = Prepared::new(&pb, &doc);
    let c = check("certainty_language");
    // One word dropped: found (fuzzy), pointing at the sentence, but not evidence.
    let misquoted = "The Supplier shall notify the Customer of any breach in writing";
    let r = evaluated_result(&prepared, &c, &[(1, verdict(Verdict::Fail, misquoted))]);
    assert_eq!(r.result, Verdict::Indeterminate, "{}", r.notes);
    let cit = &r.evidence_citations[0];
    assert_eq!(cit.located, Located::Fuzzy);
    assert_eq!(cit.byte_range.map(|(s, _)| s), Some(0));
    assert!(r.notes.contains("0 of 1"), "{}", r.notes);
}

#[test]
fn evaluator_errors_are_indeterminate_runs_kept_apart_from_fails() {
    let pb = builtin();
    let doc = crate::engine::document::Document::parse("Text.".into(), None).unwrap();
    let prepared = Prepared::new(&pb, &doc);
    let c = check("assumption_disclosure");
    let down = RunResult {
        verdict: Err(EvalError::Overloaded),
        raw: None,
        cached: false,
    };
    let r = evaluated_result(
        &prepared,
        &c,
        &[
            (1, verdict(Verdict::Pass, "Text")),
            (2, down.clone()),
            (3, down),
        ],
    );
    assert_eq!(r.result, Verdict::Indeterminate);
    assert_eq!(
        r.raw_runs[1].error,
        Some(crate::model::RunErrorKind::Overloaded)
    );
    assert!(
        r.notes.contains("2 of 3 run(s) could not be evaluated"),
        "{}",
        r.notes
    );
}

#[test]
fn a_deterministic_run_decides_local_checks_and_explains_the_others() {
    let pb = builtin();
    let doc = crate::engine::document::Document::parse("Too short.".into(), None).unwrap();
    let report = run_deterministic(&pb, &doc);
    assert_eq!(report.execution_mode, Mode::Deterministic);
    let unchecked = report.check("unchecked_areas_disclosure").unwrap();
    assert_eq!(unchecked.result, Verdict::Indeterminate);
    assert!(unchecked.notes.contains("too short"), "{}", unchecked.notes);
    let assumption = report.check("assumption_disclosure").unwrap();
    assert!(
        assumption.notes.starts_with("Not evaluated"),
        "{}",
        assumption.notes
    );
    assert_eq!(report.summary.overall_status, Status::Review);
    assert!(
        report
            .summary
            .recommended_next_steps
            .iter()
            .any(|s| s.contains("--mode full")),
        "{:?}",
        report.summary.recommended_next_steps
    );
    assert_eq!(report.report_id, report_id(&report));
}

/// A hybrid playbook whose local rule proves: quotes not in the source.
fn hybrid_grounding() -> crate::engine::playbook::LoadedPlaybook {
    let json = r#"{"id":"h","version":"1","metadata":{"name":"h","description":"d","spec_version":"0.1"},
        "checks":[{"id":"quotes","severity":"high","question":"q?",
          "detection_method":{"type":"hybrid","instructions":"i"},
          "rules":{"kind":"quotes_grounded"}},
          {"id":"words","severity":"high","question":"q?",
          "detection_method":{"type":"hybrid","instructions":"i"},
          "rules":{"kind":"pattern","patterns":["\\bSupplier\\b"]}}]}"#;
    let pb = crate::engine::playbook::parse(json, "h.json").expect("valid");
    crate::engine::playbook::LoadedPlaybook::from_playbook(pb)
}

#[test]
fn a_proof_by_a_deterministic_rule_outranks_the_evaluator() {
    let pb = hybrid_grounding();
    let text = "The contract says \"the Supplier may terminate at any time without notice\".";
    let mut doc = crate::engine::document::Document::parse(text.into(), None).unwrap();
    doc.attach(
        crate::engine::document::CompanionRole::Source,
        crate::engine::document::Companion::new(
            "src.txt".into(),
            "The Supplier may terminate on ninety days' notice.".into(),
        ),
    );
    let prepared = Prepared::new(&pb, &doc);
    let quotes = &pb.playbook.checks[0];
    // The evaluator says pass; the rule proved an invented quote: the result stays fail.
    let mut r = evaluated_result(
        &prepared,
        quotes,
        &[(1, verdict(Verdict::Pass, "contract says"))],
    );
    assert_eq!(r.result, Verdict::Pass);
    prepared.uphold_proof(0, &mut r);
    assert_eq!(r.result, Verdict::Fail, "{}", r.notes);
    assert_eq!(r.code.as_deref(), Some("GROUNDING-QUOTE"));
    assert!(r.notes.contains("cannot overturn a proof"), "{}", r.notes);
    assert!(
        r.evidence_citations
            .iter()
            .any(|c| c.span.contains("may terminate at any time"))
    );
    // Without an evaluator, the proof alone decides a hybrid check.
    assert_eq!(
        prepared.local_result(quotes, 0, "Not evaluated.").result,
        Verdict::Fail
    );
    // A pattern rule only suggests: the evaluator's pass stands.
    let words = &pb.playbook.checks[1];
    let mut w = evaluated_result(
        &prepared,
        words,
        &[(1, verdict(Verdict::Pass, "contract says"))],
    );
    prepared.uphold_proof(1, &mut w);
    assert_eq!(w.result, Verdict::Pass);
    assert_eq!(
        prepared.local_result(words, 1, "Not evaluated.").result,
        Verdict::Indeterminate
    );
}

#[test]
fn a_report_lists_at_most_the_cap_per_check_and_counts_the_rest() {
    // 1 500 unqualified certainty terms, the first 300 lines of them suppressed.
    let n = 1500;
    let suppressed_lines = 300;
    let mut text = String::from("<!-- byop-disable certainty_language -->\n");
    for i in 0..n {
        if i == suppressed_lines {
            text.push_str("<!-- byop-enable certainty_language -->\n");
        }
        text.push_str("The clause is enforceable.\n");
    }
    let doc = Document::parse(text, None).unwrap();
    let report = run_deterministic(&builtin(), &doc);
    let r = report
        .check_results
        .iter()
        .find(|r| r.check_id == "certainty_language")
        .unwrap();
    // A hybrid check: flagged candidates without the evaluator, never a pass.
    assert_eq!(r.result, Verdict::Indeterminate);
    assert_eq!(r.evidence_citations.len(), MAX_CITATIONS_PER_CHECK);
    let listed_unsuppressed = n - suppressed_lines;
    let left_out = listed_unsuppressed - MAX_CITATIONS_PER_CHECK;
    assert!(
        r.notes
            .contains(&format!("{left_out} more finding(s) not listed")),
        "{}",
        r.notes
    );
    // The suppressed ones are under the cap: all listed apart, none counted as left out.
    let suppressed = report
        .suppressed
        .iter()
        .filter(|s| s.check_id == "certainty_language")
        .count();
    assert_eq!(suppressed, suppressed_lines);
    assert!(
        !r.notes.contains("suppressed finding(s) not listed"),
        "{}",
        r.notes
    );
    // Listed citations are the first unsuppressed hits, in document order.
    let first_line = r.evidence_citations[0].range.unwrap().start.line;
    assert_eq!(first_line as usize, 1 + suppressed_lines + 1);
}
