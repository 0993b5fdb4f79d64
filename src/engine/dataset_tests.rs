use super::*;
use crate::model::{Validation, ValidationMetrics};

fn report(pass: bool, metrics: ValidationMetrics, failed: &[&str]) -> Report {
    let pb = crate::engine::playbook::builtin_by_id("planproof_v1").unwrap();
    let doc = crate::engine::document::Document::parse("x".into(), None).unwrap();
    let mut r = crate::engine::runner::run_deterministic(&pb, &doc);
    for c in r.check_results.iter_mut() {
        c.result = if failed.contains(&c.check_id.as_str()) {
            Verdict::Fail
        } else {
            Verdict::Pass
        };
    }
    r.validation = Some(Validation {
        status: if pass {
            ValidationStatus::Pass
        } else {
            ValidationStatus::Fail
        },
        errors: vec![],
        metrics,
    });
    r
}

fn row(s: &str, v: &str, pass: bool, m: ValidationMetrics, failed: &[&str], conf: &str) -> Row {
    Row {
        scenario: s.into(),
        variant: v.into(),
        report: report(pass, m, failed),
        confidence: Some(conf.into()),
        generation: None,
        facts: None,
    }
}

#[test]
fn rates_mismatches_and_flips() {
    let over = ValidationMetrics {
        time_available_minutes: 100,
        time_overflow_minutes: 20,
        constraints_violated: 1,
        context_coverage_ratio: 0.5,
        ..Default::default()
    };
    let ok = ValidationMetrics {
        time_available_minutes: 100,
        context_coverage_ratio: 1.0,
        ..Default::default()
    };
    let halluc = ValidationMetrics {
        hallucination_flags: 2,
        context_coverage_ratio: 1.0,
        ..Default::default()
    };
    let rows = vec![
        row("a", "v1", false, over.clone(), &["time_budget"], "high"),
        row("b", "v1", true, ok.clone(), &[], "high"),
        row("c", "v1", false, halluc, &["grounded_entities"], "low"),
        row("a", "v4", true, ok.clone(), &[], "medium"),
        row("b", "v4", false, over, &["time_budget"], "high"),
        row("c", "v4", true, ok, &[], "high"),
    ];
    let s = summarize(&rows, None);
    let v1 = &s.variants[0];
    assert_eq!((v1.outputs, v1.passed), (3, 1));
    assert!((v1.pass_rate - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(v1.constraint_violations, 1);
    assert!((v1.overflow_frequency - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(v1.hallucination_flags, 2);
    assert!((v1.mean_coverage.unwrap() - 2.5 / 3.0).abs() < 1e-9);
    assert_eq!(v1.confidence_mismatches, 1);
    assert_eq!(s.variants[1].confidence_mismatches, 1);
    let c = s.comparison.unwrap();
    assert_eq!((c.a.as_str(), c.b.as_str(), c.paired), ("v1", "v4", 3));
    assert_eq!(c.fixed, ["a", "c"]);
    assert_eq!(c.broken, ["b"]);
    let tb = s
        .checks
        .iter()
        .find(|c| c.check_id == "time_budget")
        .unwrap();
    assert_eq!(tb.fails, [1, 1]);
    assert_eq!(s.scenarios.len(), 3);
    assert_eq!(
        s.scenarios[0].cells[0].as_ref().unwrap().failed_checks,
        ["time_budget"]
    );
}

#[test]
fn compare_names_a_pair_and_missing_outputs_are_unpaired() {
    let ok = ValidationMetrics::default();
    let rows = vec![
        row("a", "v1", true, ok.clone(), &[], "low"),
        row("a", "v2", false, ok.clone(), &["constraints"], "low"),
        row("b", "v2", true, ok.clone(), &[], "low"),
        row("a", "v3", true, ok, &[], "low"),
    ];
    let s = summarize(&rows, Some(("v2", "v3")));
    let c = s.comparison.unwrap();
    assert_eq!((c.paired, c.fixed.len(), c.broken.len()), (1, 1, 0));
    assert!(s.scenarios[1].cells[0].is_none());
    assert!(summarize(&rows, Some(("v2", "nope"))).comparison.is_none());
}
