//! `plan_schema` (plan validation): 3–7 items, integer timeboxes ≥ 5 minutes,
//! `assumptions` and `questions` present.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, RuleError, Seg};
use super::plan_rule::rule;
use crate::engine::plan::validate::{SchemaLimits, plan_schema};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default = "min_items")]
    min_items: usize,
    #[serde(default = "max_items")]
    max_items: usize,
    #[serde(default = "min_timebox")]
    min_timebox_minutes: i64,
}

fn min_items() -> usize {
    3
}
fn max_items() -> usize {
    7
}
fn min_timebox() -> i64 {
    5
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    if p.min_items > p.max_items {
        return Err(RuleError::at(
            vec![Seg::key("min_items")],
            format!(
                "`min_items` ({}) is above `max_items` ({})",
                p.min_items, p.max_items
            ),
        ));
    }
    let lim = SchemaLimits {
        min_items: p.min_items,
        max_items: p.max_items,
        min_timebox: p.min_timebox_minutes.max(1),
    };
    let text = format!(
        "Reads the plan (seed JSON or a markdown list with timeboxes): passes with {} to {} items, each with a whole-number timebox of at least {} minutes, and `assumptions` and `questions` present.",
        lim.min_items, lim.max_items, lim.min_timebox
    );
    Ok(rule(
        "PLAN-SCHEMA",
        text,
        Box::new(move |a| plan_schema(a, &lim)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::RuleContext;
    use crate::model::Verdict;

    #[test]
    fn limits_are_checked_and_applied() {
        let e = compile(serde_json::json!({"min_items": 8})).unwrap_err();
        assert_eq!(e.path, [Seg::key("min_items")]);
        let rule = compile(serde_json::json!({"min_items": 1, "max_items": 2})).unwrap();
        let t = r#"{"plan":[{"task":"A","timebox_minutes":10},{"task":"B","timebox_minutes":10},{"task":"C","timebox_minutes":10}],"assumptions":[],"questions":[]}"#;
        let o = rule.apply(&RuleContext::new(t, (0, t.len()))).unwrap();
        assert_eq!(o.verdict, Verdict::Fail);
        assert!(
            o.notes.contains("Plan has 3 item(s); expected 1 to 2"),
            "{}",
            o.notes
        );
        assert_eq!(o.code.as_deref(), Some("PLAN-SCHEMA"));
        let part = rule.validation(&RuleContext::new(t, (0, t.len()))).unwrap();
        assert_eq!(part.errors.len(), 1);
    }
}
