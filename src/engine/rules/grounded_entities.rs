//! `grounded_entities`: seed 002 §5.3: meetings, deadlines, people and organisations
//! in the plan that the notes do not mention, each a hallucination flag. Uses the
//! shared grounding engine (`engine::grounding`).

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::rule;
use crate::engine::plan::grounded::grounded_entities;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let _: Params = super::kind::params(value)?;
    Ok(rule(
        "PLAN-GROUNDING",
        "Extracts meetings, deadlines, people and organisations from the plan's tasks and reasons and grounds each in the notes (shared grounding engine); fails on any the notes do not mention.".into(),
        Box::new(grounded_entities),
    ))
}
