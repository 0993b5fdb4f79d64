//! `run_variance` and `baseline_drift`: computed by the runner from the other checks'
//! results and the history, never from the document. Here only their thresholds.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, ReportLevel, RuleContext, RuleError, RuleOutcome, Seg};
use crate::model::STABILITY_THRESHOLD;

#[derive(Debug)]
struct ReportLevelRule(ReportLevel);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VarianceParams {
    #[serde(default = "default_threshold")]
    threshold: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DriftParams {
    #[serde(default = "default_drop")]
    max_consistency_drop: f64,
}

fn default_threshold() -> f64 {
    STABILITY_THRESHOLD
}

fn default_drop() -> f64 {
    0.15
}

pub fn compile_variance(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: VarianceParams = super::kind::params(value)?;
    let threshold = unit_interval("threshold", p.threshold)?;
    Ok(Arc::new(ReportLevelRule(ReportLevel::RunVariance {
        threshold,
    })))
}

pub fn compile_drift(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: DriftParams = super::kind::params(value)?;
    let max_consistency_drop = unit_interval("max_consistency_drop", p.max_consistency_drop)?;
    Ok(Arc::new(ReportLevelRule(ReportLevel::BaselineDrift {
        max_consistency_drop,
    })))
}

fn unit_interval(key: &str, v: f64) -> Result<f64, RuleError> {
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(RuleError::at(
            vec![Seg::key(key)],
            format!("`{key}` must be between 0 and 1, got {v}"),
        ))
    }
}

impl CompiledRule for ReportLevelRule {
    fn apply(&self, _: &RuleContext) -> Option<RuleOutcome> {
        None
    }

    fn describe(&self) -> String {
        match self.0 {
            ReportLevel::RunVariance { threshold } => format!(
                "Computed from the other checks' repeated runs (full mode): passes when the severity-weighted consistency is above {threshold:.2}. Makes no evaluator call."
            ),
            ReportLevel::BaselineDrift {
                max_consistency_drop,
            } => format!(
                "Compares with the saved baseline (else the previous report) of the same document and playbook: fails when a check went from pass to fail or consistency dropped by more than {max_consistency_drop:.2}. Makes no evaluator call."
            ),
        }
    }

    fn report_level(&self) -> Option<ReportLevel> {
        Some(self.0)
    }
}
