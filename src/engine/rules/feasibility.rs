//! `feasibility` (advisory plan validation): no block over 180 minutes unless the notes
//! ask for one, a break when 240 minutes or more are planned. Never fails the plan's
//! `validation`; the check itself reports the flags.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::rule;
use crate::engine::plan::validate::{FeasibilityLimits, feasibility};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default = "max_block")]
    max_block_minutes: i64,
    #[serde(default = "break_after")]
    break_after_minutes: i64,
}

fn max_block() -> i64 {
    180
}
fn break_after() -> i64 {
    240
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    let lim = FeasibilityLimits {
        max_block_minutes: p.max_block_minutes,
        break_after_minutes: p.break_after_minutes,
    };
    let text = format!(
        "Advisory: flags any block over {} minutes (unless the notes ask for deep work or one long block) and {}+ planned minutes without a break. Never fails the plan's validation.",
        lim.max_block_minutes, lim.break_after_minutes
    );
    Ok(rule(
        "PLAN-FEASIBILITY",
        text,
        Box::new(move |a| feasibility(a, &lim)),
    ))
}
