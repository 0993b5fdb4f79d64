//! Verdicts that mean what the report contract says, end to end against the built
//! binary and the local fake evaluator: a result stands only with a strict majority of
//! its runs, and the consistency score is one figure wherever it is shown.

mod support;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, check, json, stderr, stdout};

fn runs(report: &serde_json::Value, id: &str) -> usize {
    check(report, id)["raw_runs"].as_array().unwrap().len()
}

#[test]
fn a_plurality_of_runs_is_not_a_majority() {
    let (p, f, i) = (
        Step::pass(),
        Step::fail_first_sentence(),
        Step::indeterminate(),
    );
    // Waves of 3, 2, 2 runs: {P P F}, then {F I}, then {I P} — 3 pass, 2 fail,
    // 2 indeterminate at the 7-run limit. Pass leads but has no majority.
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).check(
        "assumption_disclosure",
        vec![p.clone(), p.clone(), f.clone(), f, i.clone(), i, p],
    ));
    let ws = Ws::new();
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    let r = json(&o);
    assert_eq!(runs(&r, "assumption_disclosure"), 7, "{}", stderr(&o));
    let a = check(&r, "assumption_disclosure");
    assert_eq!(a["result"], "indeterminate", "{a}");
    let notes = a["notes"].as_str().unwrap();
    assert!(
        notes.contains(
            "No majority: of 7 runs, 3 pass, 2 fail, 2 indeterminate; a result needs more than half of the runs (4)."
        ),
        "{notes}"
    );
    assert!(
        a["evidence_citations"].as_array().unwrap().is_empty(),
        "no run's citations stand for a split: {a}"
    );
    // A high-severity check without a majority is indeterminate: REVIEW, not OBSERVE.
    assert_eq!(r["byop_report"]["summary"]["overall_status"], "REVIEW");
    // Some runs failed and none of the results has a majority: a document that makes the
    // evaluator waver does not pass the gate (exit 3, whatever `--fail-on` says).
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("assumption_disclosure (no_majority)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn adaptive_runs_stop_when_no_result_can_reach_a_majority() {
    let (p, f, i) = (
        Step::pass(),
        Step::fail_first_sentence(),
        Step::indeterminate(),
    );
    // 1–1–1, then three more 1–1–1: 2–2–2 after six runs, and one run left cannot give
    // any result the 4 of 7 it needs.
    let llm = FakeLlm::start_blocking(
        Script::always(vec![Step::pass()]).check("escalation_signal", vec![p, f, i]),
    );
    let ws = Ws::new();
    let r = json(&ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md"));
    assert_eq!(llm.calls_for("escalation_signal"), 6);
    assert_eq!(runs(&r, "escalation_signal"), 6);
    let e = check(&r, "escalation_signal");
    assert_eq!(e["result"], "indeterminate");
    assert!(
        e["notes"].as_str().unwrap().contains("of 6 runs, 2 "),
        "{e}"
    );
    // An even split at the limit is no majority either.
    let even = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).check(
        "certainty_language",
        vec![Step::pass(), Step::fail_first_sentence()],
    ));
    let r = json(&ws.run_llm(
        &even,
        "check --mode full --fresh --runs 2 --max-runs 2 --format json nda_review.ai.md",
    ));
    assert_eq!(check(&r, "certainty_language")["result"], "indeterminate");
}

#[test]
fn max_runs_help_states_the_majority_rule() {
    let ws = Ws::new();
    let help = stdout(&ws.run(&["check", "--help"]));
    assert!(help.contains("strict majority"), "{help}");
}

/// The consistency score by its one definition, from the report alone: the
/// severity-weighted mean (high 2, medium 1, low 0.5) of the per-check consistency of the
/// checks judged in two or more evaluator runs, at least one of them answered.
fn consistency_by_definition(report: &serde_json::Value) -> f64 {
    let (mut sum, mut weight) = (0.0, 0.0);
    for c in report["byop_report"]["check_results"].as_array().unwrap() {
        let runs = c["raw_runs"].as_array().unwrap();
        if runs.len() < 2 || runs.iter().all(|r| !r["error"].is_null()) {
            continue;
        }
        let w = match c["severity"].as_str().unwrap() {
            "high" => 2.0,
            "medium" => 1.0,
            _ => 0.5,
        };
        sum += w * c["per_check_consistency"].as_f64().unwrap();
        weight += w;
    }
    sum / weight
}

#[test]
fn the_consistency_score_is_one_figure() {
    // Escalation splits 4–1 over five runs (consistency 0.75); the deterministic check
    // `unchecked_areas_disclosure` has a single local run and is no part of the score.
    let (p, f) = (Step::pass(), Step::fail_first_sentence());
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).check(
        "escalation_signal",
        vec![p.clone(), f, p.clone(), p.clone(), p],
    ));
    let ws = Ws::new();
    let r = json(&ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md"));
    assert_eq!(runs(&r, "unchecked_areas_disclosure"), 1);
    let score = r["byop_report"]["variance_summary"]["consistency_score"]
        .as_f64()
        .unwrap();
    // high 1.0 ×2, high 1.0 ×2, medium 0.75 ×1 → 4.75 / 5.
    assert_eq!(score, 0.95);
    assert!((consistency_by_definition(&r) - score).abs() < 1e-4);
    let variance = check(&r, "run_variance");
    assert!(
        variance["notes"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Consistency {score:.2} ")),
        "{variance}"
    );
}

#[test]
fn a_deterministic_baseline_is_not_the_drift_reference_of_a_full_run() {
    let ws = Ws::new();
    // No key: a deterministic report, saved as the baseline.
    let o = ws.run(&["check", "--save-baseline", "nda_review.ai.md"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let first = json(&ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md"));
    let drift = check(&first, "drift_over_time_support");
    assert_eq!(drift["result"], "indeterminate", "{drift}");
    assert!(
        drift["notes"]
            .as_str()
            .unwrap()
            .contains("nothing to compare"),
        "{drift}"
    );
    // Its HTML shows no drift section against the deterministic baseline either.
    let html = stdout(&ws.run_llm(&llm, "check --mode full --format html nda_review.ai.md"));
    assert!(
        !html.contains("<section id=\"drift\""),
        "drift section shown"
    );
    // The next full run measures drift against the previous full report.
    let second = json(&ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md"));
    let drift = check(&second, "drift_over_time_support");
    assert!(
        drift["notes"].as_str().unwrap().contains("previous report"),
        "{drift}"
    );
    // A deterministic run still uses its deterministic baseline.
    let det = json(&ws.run(&["check", "--format", "json", "nda_review.ai.md"]));
    let drift = check(&det, "drift_over_time_support");
    assert!(
        drift["notes"].as_str().unwrap().contains("baseline"),
        "{drift}"
    );
}

#[test]
fn the_html_variance_section_is_for_full_mode_only() {
    let ws = Ws::new();
    let det = stdout(&ws.run(&["check", "--format", "html", "nda_review.ai.md"]));
    assert!(det.contains("id=\"disclaimers\""));
    assert!(
        !det.contains("<section id=\"variance\""),
        "variance shown in deterministic mode"
    );
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let screening = stdout(&ws.run_llm(&llm, "check --format html nda_review.ai.md"));
    assert!(screening.contains("screening"));
    assert!(
        !screening.contains("<section id=\"variance\""),
        "variance shown in screening mode"
    );
    let full = stdout(&ws.run_llm(&llm, "check --mode full --format html nda_review.ai.md"));
    assert!(full.contains("<section id=\"variance\""));
}

#[test]
fn the_text_report_starts_with_the_three_disclaimers() {
    let ws = Ws::new();
    let out = stdout(&ws.run(&["check", "nda_review.ai.md"]));
    let first_check = out.find("assumption_disclosure").expect("a check line");
    let mut last = 0;
    for d in [
        "This is an observability report, not legal advice.",
        "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
        "Report describes behavior under this playbook and inputs.",
    ] {
        let at = out.find(d).unwrap_or_else(|| panic!("{d} missing:\n{out}"));
        assert!(at < first_check && at >= last, "{d} not at the top:\n{out}");
        last = at;
    }
}
