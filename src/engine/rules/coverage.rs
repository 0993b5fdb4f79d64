//! `coverage` (plan validation): tasks in the plan / tasks in the notes, on normalized
//! task intents; fails below `min_ratio` (0.7).

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, RuleError, Seg};
use super::plan_rule::rule;
use crate::engine::plan::validate::coverage;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default = "min_ratio")]
    min_ratio: f64,
}

fn min_ratio() -> f64 {
    0.7
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    if !(0.0..=1.0).contains(&p.min_ratio) {
        return Err(RuleError::at(
            vec![Seg::key("min_ratio")],
            format!("`min_ratio` must be between 0 and 1, got {}", p.min_ratio),
        ));
    }
    let min = p.min_ratio;
    Ok(rule(
        "PLAN-COVERAGE",
        format!(
            "Extracts the tasks from the notes and matches them to the plan's items on normalized intents (content words, stems, synonyms); fails when fewer than {:.0}% are covered.",
            min * 100.0
        ),
        Box::new(move |a| coverage(a, min)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_ratio_must_be_a_share() {
        let e = compile(serde_json::json!({"min_ratio": 1.5})).unwrap_err();
        assert_eq!(e.path, [Seg::key("min_ratio")]);
        assert!(
            compile(serde_json::json!({"min_ratio": 0.5}))
                .unwrap()
                .describe()
                .contains("50%")
        );
        let e = compile(serde_json::json!({"threshold": 0.5})).unwrap_err();
        assert!(
            e.message.contains("unknown field `threshold`"),
            "{}",
            e.message
        );
    }
}
