//! Which checks a CI gate must not pass over.

use serde_json::json;

use super::{CheckResult, why_unevaluated};

fn check(severity: &str, result: &str, runs: &[&str], grounding: serde_json::Value) -> CheckResult {
    let raw_runs: Vec<serde_json::Value> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"run": i + 1, "result": r, "confidence": 0.9}))
        .collect();
    serde_json::from_value(json!({
        "check_id": "c",
        "result": result,
        "per_check_confidence": 0.5,
        "per_check_consistency": 0.5,
        "evidence_citations": [],
        "notes": "",
        "raw_runs": raw_runs,
        "severity": severity,
        "detection_type": "semantic",
        "grounding": grounding,
    }))
    .unwrap()
}

/// A high check whose runs split with some fail and no majority is not passed over; one
/// whose runs never failed, or a medium one, is an ordinary indeterminate (REVIEW); a
/// grounding check that ran out of its matching budget is not passed over either.
#[test]
fn no_majority_with_a_fail_and_a_spent_budget_are_not_evaluated() {
    let none = serde_json::Value::Null;
    let split = [
        "fail",
        "pass",
        "fail",
        "pass",
        "indeterminate",
        "indeterminate",
        "fail",
    ];
    assert_eq!(
        why_unevaluated(&check("high", "indeterminate", &split, none.clone())).as_deref(),
        Some("no_majority")
    );
    let no_fail = ["pass", "indeterminate", "pass", "indeterminate"];
    assert_eq!(
        why_unevaluated(&check("high", "indeterminate", &no_fail, none.clone())),
        None
    );
    assert_eq!(
        why_unevaluated(&check("medium", "indeterminate", &split, none.clone())),
        None
    );
    assert_eq!(
        why_unevaluated(&check("high", "fail", &split[..3], none.clone())),
        None
    );
    let counts = |reason: &str| {
        json!({"examined": 3, "grounded": 2, "not_found": 0, "misquoted": 0, "set_aside": 1,
               "set_aside_by_reason": {reason: 1}})
    };
    assert_eq!(
        why_unevaluated(&check(
            "high",
            "indeterminate",
            &["indeterminate"],
            counts("matching_budget_spent")
        ))
        .as_deref(),
        Some("matching_budget_spent")
    );
    assert_eq!(
        why_unevaluated(&check(
            "high",
            "indeterminate",
            &["indeterminate"],
            counts("short_quote")
        )),
        None
    );
}
