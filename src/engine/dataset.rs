//! Variants compared on a dataset (which prompt or model does better on the same scenarios): one report per (scenario,
//! variant) in, per-variant rates, per-check fail rates, the per-scenario table and a
//! paired comparison of two variants out. Pure: the caller runs the reports.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::counterfactual::stats::mcnemar_exact_p;
use crate::engine::generate::{GenerationMeta, Outcome};
use crate::engine::plan::observe::{FailureModes, FailureTally, PlanFacts};
use crate::model::{RepairStatus, Report, Status, ValidationMetrics, ValidationStatus, Verdict};

/// One evaluated output: which scenario and variant it is, its report, and the plan's
/// self-reported confidence when it has one.
pub struct Row {
    pub scenario: String,
    pub variant: String,
    pub report: Report,
    pub confidence: Option<String>,
    /// How the output was generated, when `byop dataset run` made it.
    pub generation: Option<GenerationMeta>,
    /// A plan output's notes length and timing facts (for the failure modes).
    pub facts: Option<PlanFacts>,
}

impl Row {
    /// A plan passes by its `validation`; any other output when no check failed.
    pub fn passed(&self) -> bool {
        match &self.report.validation {
            Some(v) => v.status == ValidationStatus::Pass,
            None => !self
                .report
                .check_results
                .iter()
                .any(|c| c.result == Verdict::Fail),
        }
    }

    /// A plan output's failure modes (`None`: not a plan).
    pub fn failure_modes(&self) -> Option<(FailureModes, &ValidationMetrics, PlanFacts)> {
        let m = &self.report.validation.as_ref()?.metrics;
        let facts = self.facts.unwrap_or_default();
        let f = FailureModes::of(m, &facts, self.confidence.as_deref(), self.passed());
        Some((f, m, facts))
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VariantStats {
    pub variant: String,
    pub outputs: usize,
    pub passed: usize,
    pub pass_rate: f64,
    /// Sum of `constraints_violated` (plan playbooks).
    pub constraint_violations: u64,
    /// Share of outputs whose planned time overflows known availability.
    pub overflow_frequency: f64,
    pub hallucination_flags: u64,
    pub mean_coverage: Option<f64>,
    /// Outputs that said `confidence: high` and failed.
    pub confidence_mismatches: usize,
    /// Outputs with a check that could not be decided.
    pub indeterminate: usize,
    /// Outputs `byop dataset run` generated (the rest were written elsewhere).
    pub generated: usize,
    /// Generated outputs whose repair call was made / that it made pass.
    pub repair_attempted: usize,
    pub repaired: usize,
    /// Generated outputs the strategy surfaced as rejected (failing after validation, and
    /// after the repair when there was one).
    pub rejected: usize,
    /// Tokens the provider reported for the generated outputs (`None`: it reported none).
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// Estimated from the tokens and the prices the user gave.
    pub cost_usd: Option<f64>,
    /// The known failure modes of plan outputs (`None`: no plan outputs).
    pub failure_modes: Option<FailureTally>,
}

/// US dollars per million tokens, as the user gave them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Prices {
    pub input: Option<f64>,
    pub output: Option<f64>,
}

/// The estimated cost per variant, where tokens and a price are known.
pub fn price(summary: &mut DatasetSummary, prices: Prices) {
    for v in &mut summary.variants {
        let part = |tokens: Option<u64>, price: Option<f64>| Some(tokens? as f64 * price? / 1e6);
        v.cost_usd = match (
            part(v.input_tokens, prices.input),
            part(v.output_tokens, prices.output),
        ) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
    }
}

fn token_sum(rows: &[&Row], f: fn(&GenerationMeta) -> Option<u64>) -> Option<u64> {
    rows.iter()
        .filter_map(|r| r.generation.as_ref().and_then(f))
        .fold(None, |acc, n| Some(acc.unwrap_or(0) + n))
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CheckRate {
    pub check_id: String,
    /// Per variant (in `variants` order): fails / outputs.
    pub fail_rate: Vec<f64>,
    pub fails: Vec<usize>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Cell {
    pub passed: bool,
    pub status: Status,
    pub failed_checks: Vec<String>,
    pub errors: Vec<String>,
    pub confidence: Option<String>,
    /// The plan's failure modes (`time_hallucination`, `overconfidence`,
    /// `impossible_schedule`, `context_collapse`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failure_modes: Vec<&'static str>,
    /// The variant the plan's front matter declares, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_variant: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScenarioRow {
    pub scenario: String,
    /// Per variant, in `variants` order; `None` when that variant has no output for it.
    pub cells: Vec<Option<Cell>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    /// Scenarios both variants have.
    pub paired: usize,
    pub both_pass: usize,
    pub both_fail: usize,
    /// Failed under `a`, passed under `b`.
    pub fixed: Vec<String>,
    /// Passed under `a`, failed under `b`.
    pub broken: Vec<String>,
    /// McNemar's exact two-sided p over the flipped scenarios (1 when none flipped).
    pub mcnemar_p: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DatasetSummary {
    pub playbook_id: String,
    pub variants: Vec<VariantStats>,
    pub checks: Vec<CheckRate>,
    pub scenarios: Vec<ScenarioRow>,
    pub comparison: Option<Comparison>,
}

fn stats(variant: &str, rows: &[&Row]) -> VariantStats {
    let n = rows.len();
    let passed = rows.iter().filter(|r| r.passed()).count();
    let metrics: Vec<_> = rows
        .iter()
        .filter_map(|r| r.report.validation.as_ref().map(|v| &v.metrics))
        .collect();
    let overflow = metrics
        .iter()
        .filter(|m| m.time_available_minutes > 0 && m.time_overflow_minutes > 0)
        .count();
    let rate = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let gens: Vec<&GenerationMeta> = rows.iter().filter_map(|r| r.generation.as_ref()).collect();
    VariantStats {
        variant: variant.to_string(),
        outputs: n,
        passed,
        pass_rate: rate(passed),
        constraint_violations: metrics
            .iter()
            .map(|m| u64::from(m.constraints_violated))
            .sum(),
        overflow_frequency: rate(overflow),
        hallucination_flags: metrics
            .iter()
            .map(|m| u64::from(m.hallucination_flags))
            .sum(),
        mean_coverage: (!metrics.is_empty()).then(|| {
            metrics
                .iter()
                .map(|m| m.context_coverage_ratio)
                .sum::<f64>()
                / metrics.len() as f64
        }),
        confidence_mismatches: rows
            .iter()
            .filter(|r| r.confidence.as_deref() == Some("high") && !r.passed())
            .count(),
        indeterminate: rows
            .iter()
            .filter(|r| {
                r.report
                    .check_results
                    .iter()
                    .any(|c| c.result == Verdict::Indeterminate)
            })
            .count(),
        generated: gens.len(),
        repair_attempted: gens.iter().filter(|g| g.repair_attempted()).count(),
        repaired: gens
            .iter()
            .filter(|g| g.repair == Some(RepairStatus::Repaired))
            .count(),
        rejected: gens
            .iter()
            .filter(|g| g.outcome == Outcome::Rejected)
            .count(),
        input_tokens: token_sum(rows, |g| g.input_tokens),
        output_tokens: token_sum(rows, |g| g.output_tokens),
        cost_usd: None,
        failure_modes: rows
            .iter()
            .any(|r| r.report.validation.is_some())
            .then(|| FailureTally::of(rows.iter().filter_map(|r| r.failure_modes()))),
    }
}

fn cell(r: &Row) -> Cell {
    Cell {
        passed: r.passed(),
        status: r.report.summary.overall_status,
        failed_checks: r
            .report
            .check_results
            .iter()
            .filter(|c| c.result == Verdict::Fail)
            .map(|c| c.check_id.clone())
            .collect(),
        errors: r
            .report
            .validation
            .as_ref()
            .map(|v| v.errors.clone())
            .unwrap_or_default(),
        confidence: r.confidence.clone(),
        failure_modes: r
            .failure_modes()
            .map(|(f, ..)| f.names())
            .unwrap_or_default(),
        declared_variant: r.report.debug.as_ref().and_then(|d| d.variant.clone()),
    }
}

/// Summarize rows; `variants` fixes the order (else first seen), `compare` the pair
/// (else the first two variants).
pub fn summarize(rows: &[Row], compare: Option<(&str, &str)>) -> DatasetSummary {
    let mut variants: Vec<String> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant) {
            variants.push(r.variant.clone());
        }
    }
    let by_variant: Vec<Vec<&Row>> = variants
        .iter()
        .map(|v| rows.iter().filter(|r| &r.variant == v).collect())
        .collect();
    let mut check_ids: Vec<String> = Vec::new();
    for r in rows {
        for c in &r.report.check_results {
            if !check_ids.contains(&c.check_id) {
                check_ids.push(c.check_id.clone());
            }
        }
    }
    let checks = check_ids
        .iter()
        .map(|id| {
            let fails: Vec<usize> = by_variant
                .iter()
                .map(|rs| {
                    rs.iter()
                        .filter(|r| {
                            r.report
                                .check(id)
                                .is_some_and(|c| c.result == Verdict::Fail)
                        })
                        .count()
                })
                .collect();
            let fail_rate = fails
                .iter()
                .zip(&by_variant)
                .map(|(f, rs)| {
                    if rs.is_empty() {
                        0.0
                    } else {
                        *f as f64 / rs.len() as f64
                    }
                })
                .collect();
            CheckRate {
                check_id: id.clone(),
                fail_rate,
                fails,
            }
        })
        .collect();
    let mut table: BTreeMap<&str, Vec<Option<Cell>>> = BTreeMap::new();
    for r in rows {
        let i = variants
            .iter()
            .position(|v| v == &r.variant)
            .expect("known");
        table
            .entry(&r.scenario)
            .or_insert_with(|| vec![None; variants.len()])[i] = Some(cell(r));
    }
    let scenarios: Vec<ScenarioRow> = table
        .into_iter()
        .map(|(s, cells)| ScenarioRow {
            scenario: s.to_string(),
            cells,
        })
        .collect();
    let pair = match compare {
        Some((a, b)) => Some((a.to_string(), b.to_string())),
        None if variants.len() >= 2 => Some((variants[0].clone(), variants[1].clone())),
        None => None,
    };
    let comparison = pair.and_then(|(a, b)| {
        let ia = variants.iter().position(|v| *v == a)?;
        let ib = variants.iter().position(|v| *v == b)?;
        Some(compare_pair(&scenarios, (ia, a), (ib, b)))
    });
    DatasetSummary {
        playbook_id: rows
            .first()
            .map(|r| r.report.playbook_id.clone())
            .unwrap_or_default(),
        variants: variants
            .iter()
            .zip(&by_variant)
            .map(|(v, rs)| stats(v, rs))
            .collect(),
        checks,
        scenarios,
        comparison,
    }
}

fn compare_pair(
    scenarios: &[ScenarioRow],
    (ia, a): (usize, String),
    (ib, b): (usize, String),
) -> Comparison {
    let mut c = Comparison {
        a,
        b,
        paired: 0,
        both_pass: 0,
        both_fail: 0,
        fixed: vec![],
        broken: vec![],
        mcnemar_p: 1.0,
    };
    for s in scenarios {
        let (Some(x), Some(y)) = (&s.cells[ia], &s.cells[ib]) else {
            continue;
        };
        c.paired += 1;
        match (x.passed, y.passed) {
            (true, true) => c.both_pass += 1,
            (false, false) => c.both_fail += 1,
            (false, true) => c.fixed.push(s.scenario.clone()),
            (true, false) => c.broken.push(s.scenario.clone()),
        }
    }
    c.mcnemar_p = mcnemar_exact_p(c.fixed.len() as u64, c.broken.len() as u64);
    c
}

#[cfg(test)]
#[path = "dataset_tests.rs"]
mod tests;
