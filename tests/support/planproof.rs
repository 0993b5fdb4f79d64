//! Comparing a report's PlanProof `validation` with hand-worked values.

use serde_json::Value;

/// The metrics both hand-worked sets state, compared exactly.
pub const METRICS: [&str; 6] = [
    "constraints_declared",
    "constraints_violated",
    "time_available_minutes",
    "time_planned_minutes",
    "time_overflow_minutes",
    "hallucination_flags",
];

/// Differences between `validation`'s metrics (`metrics`, then the coverage ratio, given
/// as `[covered, of]` in `want`) and the hand-worked values, each named by `label`.
pub fn metric_mismatches(
    label: &str,
    metrics: &[&str],
    want: &Value,
    validation: &Value,
) -> Vec<String> {
    let mut out = Vec::new();
    for m in metrics {
        if validation["metrics"][m] != want[m] {
            out.push(format!(
                "{label}: {m} {} (want {})",
                validation["metrics"][m], want[m]
            ));
        }
    }
    let cov = &want["coverage"];
    let ratio = cov[0].as_f64().unwrap() / cov[1].as_f64().unwrap();
    let got = validation["metrics"]["context_coverage_ratio"]
        .as_f64()
        .unwrap_or(-1.0);
    if (got - ratio).abs() > 1e-9 {
        out.push(format!("{label}: coverage {got} (want {ratio})"));
    }
    out
}
