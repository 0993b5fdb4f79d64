//! `time_budget`: seed 002 §5.2: minutes planned vs minutes available from
//! `current_time` to the notes' earliest stop, minus meetings, in the user's time zone.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::rule;
use crate::engine::plan::validate::time_budget;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let _: Params = super::kind::params(value)?;
    Ok(rule(
        "PLAN-TIME",
        "Sums the plan's timeboxes and the minutes available from the front matter's `current_time` (IANA `timezone`, DST-correct) to the notes' hard stop or end of the working day, minus meetings; fails when availability is known and exceeded. Unknown availability is `indeterminate`.".into(),
        Box::new(time_budget),
    ))
}
