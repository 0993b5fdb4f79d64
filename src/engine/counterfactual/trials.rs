//! One record per pair and side of an audit: the cue, its condition and value, the run
//! index, the seed, the evaluator's verdict and a hash of its notes. The statistics sum
//! the pairs up; these records keep them, so a reader can analyse them again.

use std::collections::HashMap;

use super::{Arm, CallKey, Cue, Plan};
use crate::evaluator::RunResult;
use crate::model::Verdict;
use crate::model::counterfactual::{CueCondition, Trial};
use crate::model::integrity::sha256_hex;

/// What one call answered, as a trial records it.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub verdict: Verdict,
    pub error: Option<String>,
    pub notes_sha256: Option<String>,
    pub cached: bool,
}

impl Side {
    pub fn of(r: &RunResult) -> Side {
        match &r.verdict {
            Ok(v) => Side {
                verdict: v.result,
                error: None,
                notes_sha256: Some(format!("sha256:{}", sha256_hex(v.notes.as_bytes()))),
                cached: r.cached,
            },
            Err(e) => Side {
                verdict: Verdict::Indeterminate,
                error: Some(e.kind_name().to_string()),
                notes_sha256: None,
                cached: r.cached,
            },
        }
    }
}

/// A cue's control value and its treatment values, as the result names them (a swap
/// cue's two orders).
pub(crate) fn cue_values(cue: &Cue) -> (String, Vec<String>) {
    match &cue.swap {
        Some([a, b]) => (
            format!("{a}, {b} (in order)"),
            vec![format!("{b}, {a} (swapped)")],
        ),
        None => (cue.control.clone(), cue.treatment.clone()),
    }
}

/// Who is being audited, for every trial of the audit.
pub(crate) struct Labels<'a> {
    pub document: &'a str,
    pub model: &'a str,
}

/// The two trials of every pair of every arm, in arm order, pair order, control first.
pub(crate) fn trials(
    plan: &Plan,
    check_ids: &[String],
    sides: &HashMap<CallKey, Side>,
    labels: &Labels<'_>,
) -> Vec<Trial> {
    let mut out = Vec::with_capacity(plan.arms.len() * plan.pairs as usize * 2);
    for arm in &plan.arms {
        arm_trials(plan, arm, &check_ids[arm.check], sides, labels, &mut out);
    }
    out
}

fn arm_trials(
    plan: &Plan,
    arm: &Arm,
    check_id: &str,
    sides: &HashMap<CallKey, Side>,
    labels: &Labels<'_>,
    out: &mut Vec<Trial>,
) {
    let cue = &plan.cues[arm.cue];
    let (control, treatments) = cue_values(cue);
    for (k, (&(cv, tv, run), &value)) in arm.pairs.iter().zip(&arm.values).enumerate() {
        let pair = k as u32 + 1;
        for (condition, variant, cue_value) in [
            (CueCondition::Control, cv, control.clone()),
            (CueCondition::Treatment, tv, treatments[value].clone()),
        ] {
            let side = sides
                .get(&(arm.check, variant, run))
                .cloned()
                .unwrap_or(Side {
                    verdict: Verdict::Indeterminate,
                    error: Some("not_called".into()),
                    notes_sha256: None,
                    cached: false,
                });
            let name = match condition {
                CueCondition::Control => "control",
                CueCondition::Treatment => "treatment",
            };
            out.push(Trial {
                trial_id: format!("{check_id}/{}/{pair}/{name}", cue.name),
                case_identifier: labels.document.to_string(),
                model_identifier: labels.model.to_string(),
                check_id: check_id.to_string(),
                cue_name: cue.name.clone(),
                cue_condition: condition,
                cue_value,
                placebo: cue.placebo,
                pair,
                run,
                seed: plan.seed,
                verdict: side.verdict,
                error: side.error,
                notes_sha256: side.notes_sha256,
                cached: side.cached,
            });
        }
    }
}
