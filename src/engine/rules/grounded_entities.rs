//! `grounded_entities` (plan validation): meetings, deadlines, people and organisations
//! in the plan that the notes do not mention, each a hallucination flag. Uses the
//! shared grounding engine (`engine::grounding`).

use std::sync::Arc;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::without_params;
use crate::engine::plan::grounded::grounded_entities;

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    without_params(
        value,
        "PLAN-GROUNDING",
        "Extracts meetings, deadlines, people and organisations from the plan's tasks and reasons and grounds each in the notes (shared grounding engine); fails on any the notes do not mention.",
        Box::new(grounded_entities),
        false,
    )
}
