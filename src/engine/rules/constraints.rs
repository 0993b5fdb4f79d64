//! `constraints` (plan validation): no work in a blocked window, no must-do-today task
//! left out, the stated availability not exceeded.

use std::sync::Arc;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::without_params;
use crate::engine::plan::validate::constraints;

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    without_params(
        value,
        "PLAN-CONSTRAINT",
        "Counts the notes' constraints (meetings and other blocked windows, the working window or hard stop, must-do-today tasks) and fails on each one the plan violates: work scheduled in a blocked window or after the stop, a must-do task left out, more work than the time available.",
        Box::new(constraints),
        true,
    )
}
