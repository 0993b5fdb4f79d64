//! What the plan rule kinds share: reading the plan and its notes, and
//! turning a validator's `Part` into the check's outcome. Each kind's own file reads
//! its parameters and picks its validator.

use std::sync::Arc;

use super::kind::{CompiledRule, Hit, RuleContext, RuleOutcome};
use crate::engine::plan::{Analysis, Part};
use crate::model::Verdict;

/// A validator over the analysed plan.
pub(super) type Validator = Box<dyn Fn(&Analysis) -> Part + Send + Sync>;

pub(super) struct PlanRule {
    validator: Validator,
    description: String,
    /// Stable code of a failing or indeterminate outcome (`PLAN-TIME`, …).
    code: &'static str,
}

impl std::fmt::Debug for PlanRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanRule")
            .field("description", &self.description)
            .finish()
    }
}

pub(super) fn rule(
    code: &'static str,
    description: String,
    validator: Validator,
) -> Arc<dyn CompiledRule> {
    Arc::new(PlanRule {
        validator,
        description,
        code,
    })
}

/// A plan kind that takes no parameters (`{}`, or an unknown key is an error).
pub(super) fn without_params(
    value: serde_json::Value,
    code: &'static str,
    description: &str,
    validator: Validator,
) -> Result<Arc<dyn CompiledRule>, super::kind::RuleError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoParams {}
    let _: NoParams = super::kind::params(value)?;
    Ok(rule(code, description.into(), validator))
}

impl CompiledRule for PlanRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        self.validation(cx).map(|p| outcome(p, self.code))
    }

    fn describe(&self) -> String {
        self.description.clone()
    }

    /// Plan validators are deterministic and authoritative, no evaluator overrides them.
    fn proves(&self) -> bool {
        true
    }

    fn validation(&self, cx: &RuleContext) -> Option<Part> {
        Some((self.validator)(cx.plan()))
    }

    fn apply_and_validation(&self, cx: &RuleContext) -> (Option<RuleOutcome>, Option<Part>) {
        let part = (self.validator)(cx.plan());
        (Some(outcome(part.clone(), self.code)), Some(part))
    }
}

fn outcome(p: Part, code: &str) -> RuleOutcome {
    let problems = p.verdict != Verdict::Pass;
    RuleOutcome {
        verdict: p.verdict,
        hits: p
            .spots
            .into_iter()
            .map(|s| Hit {
                start: s.start,
                end: s.end,
                note: s.note,
                source: None,
            })
            .collect(),
        hits_are_problems: problems,
        notes: p.notes,
        code: problems.then(|| code.to_string()),
        grounding: None,
    }
}
