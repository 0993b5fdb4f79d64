//! Making the planned calls (concurrently, through the evaluator's limit and the
//! cache) and turning the pairs' outcomes into the `byop_counterfactual` result.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures::future::join_all;
use tokio_util::sync::CancellationToken;

use super::catalog::DetectorRates;
use super::paired;
use super::stats::{self, ALPHA};
use super::trials::{self, Side};
use super::{Arm, CallKey, CfError, Plan, Request};
use crate::engine::runner::{Progress, ProgressFn};
use crate::evaluator::{Call, CallObserver, Evaluator, ResponseCache, RunResult};
use crate::model::counterfactual::{
    CallCounts, CorrectedRate, Counterfactual, CounterfactualIntegrity, CueInfo, CueResult, Design,
    Measurement, PairedDifference, Tost,
};
use crate::model::integrity::jcs_sha256;
use crate::model::{PresentationRules, SPEC_VERSION, Verdict, now_rfc3339};

/// How the calls are made.
#[derive(Clone)]
pub struct Context {
    pub evaluator: Evaluator,
    pub cache: Option<Arc<dyn ResponseCache>>,
    /// Ignore cached answers (new samples; new answers still go to the cache).
    pub fresh: bool,
    pub progress: Option<ProgressFn>,
    pub cancel: CancellationToken,
    pub observer: Option<Arc<dyn CallObserver>>,
}

/// A run's binary outcome: fail, not fail, or left out (indeterminate, error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Fail,
    NotFail,
    Excluded,
}

fn outcome(r: &RunResult) -> Outcome {
    match &r.verdict {
        Ok(v) if v.result == Verdict::Fail => Outcome::Fail,
        Ok(v) if v.result == Verdict::Pass => Outcome::NotFail,
        _ => Outcome::Excluded,
    }
}

/// Make every planned call and compute the statistics.
pub async fn execute(
    req: &Request<'_>,
    plan: &Plan,
    ctx: &Context,
) -> Result<Counterfactual, CfError> {
    let total = plan.calls.len();
    let done = AtomicUsize::new(0);
    let n_checks = plan.checks.len();
    let checks = &req.playbook.playbook.checks;
    let calls = plan.calls.iter().map(|&(check, variant, run)| {
        let done = &done;
        async move {
            let prompt = &plan.prompts[variant][check];
            let call = Call {
                prompt,
                run,
                canary: false,
                observer: ctx.observer.as_deref(),
                cancel: &ctx.cancel,
            };
            let r = ctx
                .evaluator
                .evaluate_cached(call, ctx.cache.as_deref(), ctx.fresh)
                .await;
            let n = done.fetch_add(1, Ordering::SeqCst) + 1;
            if let Some(cb) = &ctx.progress {
                cb(Progress {
                    check_id: checks[plan.checks[check]].id.clone(),
                    check_index: check + 1,
                    check_total: n_checks,
                    run,
                    runs: plan.pairs,
                    done: n,
                    total_runs: total,
                });
            }
            ((check, variant, run), r)
        }
    });
    let results = tokio::select! {
        r = join_all(calls) => r,
        _ = ctx.cancel.cancelled() => return Err(CfError::Cancelled),
    };
    if ctx.cancel.is_cancelled() {
        return Err(CfError::Cancelled);
    }
    let cached = results.iter().filter(|(_, r)| r.cached).count();
    let outcomes: HashMap<CallKey, Outcome> =
        results.iter().map(|(k, r)| (*k, outcome(r))).collect();
    let sides: HashMap<CallKey, Side> = results.iter().map(|(k, r)| (*k, Side::of(r))).collect();
    let counts = CallCounts {
        planned: total,
        made: total - cached,
        cached,
    };
    Ok(assemble(req, plan, ctx, (&outcomes, &sides), counts))
}

/// One arm's pairs: counted, excluded, b, c, and both sides failing.
#[derive(Debug, Clone, Copy)]
struct Tally {
    n: u32,
    excluded: u32,
    b: u64,
    c: u64,
    both: u64,
}

fn tally(arm: &Arm, outcomes: &HashMap<CallKey, Outcome>) -> Tally {
    let (mut n, mut excluded, mut b, mut c, mut both) = (0, 0, 0, 0, 0);
    for &(control, treatment, run) in &arm.pairs {
        let get = |v| {
            outcomes
                .get(&(arm.check, v, run))
                .copied()
                .unwrap_or(Outcome::Excluded)
        };
        match (get(control), get(treatment)) {
            (Outcome::Excluded, _) | (_, Outcome::Excluded) => excluded += 1,
            (Outcome::NotFail, Outcome::Fail) => {
                n += 1;
                b += 1
            }
            (Outcome::Fail, Outcome::NotFail) => {
                n += 1;
                c += 1
            }
            (Outcome::Fail, Outcome::Fail) => {
                n += 1;
                both += 1
            }
            _ => n += 1,
        }
    }
    Tally {
        n,
        excluded,
        b,
        c,
        both,
    }
}

/// Each side's fail rate, raw and corrected for the detector's error rates.
fn measurement(t: &Tally, rates: &DetectorRates) -> Option<Measurement> {
    let side = |fails: u64| -> Option<CorrectedRate> {
        let n = u64::from(t.n);
        let raw = if n == 0 { 0.0 } else { fails as f64 / n as f64 };
        let ci = paired::wilson(fails, n);
        let fix = |x| paired::correct_measurement(x, rates.alpha, rates.beta);
        Some(CorrectedRate {
            fails: fails as u32,
            n: t.n,
            raw,
            raw_ci95: ci,
            corrected: fix(raw)?,
            corrected_ci95: [fix(ci[0])?, fix(ci[1])?],
        })
    };
    Some(Measurement {
        alpha: rates.alpha,
        beta: rates.beta,
        source: rates.source.clone(),
        control: side(t.c + t.both)?,
        treatment: side(t.b + t.both)?,
    })
}

fn assemble(
    req: &Request<'_>,
    plan: &Plan,
    ctx: &Context,
    (outcomes, sides): (&HashMap<CallKey, Outcome>, &HashMap<CallKey, Side>),
    calls: CallCounts,
) -> Counterfactual {
    let checks = &req.playbook.playbook.checks;
    let tallies: Vec<_> = plan.arms.iter().map(|a| tally(a, outcomes)).collect();
    let exact: Vec<f64> = tallies
        .iter()
        .map(|t| stats::mcnemar_exact_p(t.b, t.c))
        .collect();
    let bh = stats::benjamini_hochberg(&exact);
    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for (i, (arm, t)) in plan.arms.iter().zip(&tallies).enumerate() {
        let (n, excluded, b, c) = (t.n, t.excluded, t.b, t.c);
        let cue = &plan.cues[arm.cue];
        let check_id = checks[plan.checks[arm.check]].id.clone();
        let boot_seed = plan.seed.wrapping_add(i as u64);
        let (difference, difference_ci) =
            paired::wild_bootstrap(b, c, u64::from(n), boot_seed, paired::BOOTSTRAP_DRAWS);
        let measured = req
            .catalog
            .detector_rates
            .get(&check_id)
            .and_then(|r| measurement(t, r));
        let (log_odds, se, ci95) = stats::log_odds(b, c);
        let tost_p = stats::tost_p(log_odds, se, plan.margin);
        let verdict = stats::equivalence_verdict(tost_p, bh[i]);
        // Each check × cue draws its own sign flips, reproducibly from the seed.
        let ri_p = stats::randomization_p(b, c, plan.seed.wrapping_add(i as u64), stats::MIN_DRAWS);
        if excluded > 0 {
            warnings.push(format!(
                "{check_id} × {}: {excluded} of {} pair(s) left out (an indeterminate verdict or a failed call).",
                cue.name, plan.pairs
            ));
        }
        results.push(CueResult {
            check_id,
            cue: cue.name.clone(),
            n_pairs: n,
            n_excluded: excluded,
            b: b as u32,
            c: c as u32,
            flip_rate: if n == 0 {
                0.0
            } else {
                (b + c) as f64 / n as f64
            },
            mcnemar_exact_p: exact[i],
            mcnemar_chi2_p: stats::mcnemar_chi2(b, c, false).1,
            log_odds,
            log_odds_se: se,
            ci95,
            bh_p: bh[i],
            tost: Tost {
                margin: plan.margin,
                p: tost_p,
                verdict,
            },
            ri_p,
            mcnemar_chi2_cc_p: stats::mcnemar_chi2(b, c, true).1,
            placebo: cue.placebo,
            significant: bh[i] < ALPHA,
            paired_difference: PairedDifference {
                estimate: difference,
                ci95: difference_ci,
                method: "wild_bootstrap_rademacher".into(),
                draws: paired::BOOTSTRAP_DRAWS,
                seed: boot_seed,
            },
            measurement: measured,
        });
    }
    let unstable: Vec<String> = results
        .iter()
        .filter(|r| r.placebo && r.significant)
        .map(|r| format!(
            "UNSTABLE EVALUATOR: the placebo cue {} moved the verdict of {} (BH-adjusted p = {:.2e}); a cue that should change nothing did, so the other results cannot be trusted.",
            r.cue, r.check_id, r.bh_p
        ))
        .collect();
    let evaluator_unstable = !unstable.is_empty();
    warnings.splice(0..0, unstable);
    if !plan.cues.iter().any(|c| c.placebo) {
        warnings.push("No placebo cue ran: nothing here checks that the evaluator is stable under changes that should not matter.".into());
    }
    if !plan.skipped_cues.is_empty() {
        warnings.push(format!(
            "Cues without a slot in this document (not audited): {}.",
            plan.skipped_cues.join(", ")
        ));
    }
    let mut out = Counterfactual {
        spec_version: SPEC_VERSION.to_string(),
        playbook_id: req.playbook.playbook.id.clone(),
        playbook_version: req.playbook.playbook.version.clone(),
        timestamp: now_rfc3339(),
        document: req.doc.label(),
        evaluator: ctx.evaluator.info(),
        seed: plan.seed,
        pairs: plan.pairs,
        facts_hash: plan.frame.facts_hash.clone(),
        cues: plan
            .cues
            .iter()
            .map(|c| {
                let (control, treatment) = trials::cue_values(c);
                CueInfo {
                    name: c.name.clone(),
                    placebo: c.placebo,
                    control,
                    treatment,
                    slot: match &c.swap {
                        Some([a, b]) => format!("{a}+{b}"),
                        None => c.slot.clone(),
                    },
                }
            })
            .collect(),
        results,
        warnings,
        integrity: CounterfactualIntegrity {
            playbook_logic_hash: req.playbook.logic_hash.clone(),
            inputs_fingerprint: req.doc.fingerprint().to_string(),
        },
        presentation_rules: PresentationRules::default(),
        audit_id: String::new(),
        evaluator_unstable,
        margin: plan.margin,
        calls,
        design: Design {
            randomization: "blocked_permutations".into(),
            block_size: 2,
            slot_sources: plan.frame.sources.clone(),
        },
        trials: Vec::new(),
    };
    let check_ids: Vec<String> = plan.checks.iter().map(|&i| checks[i].id.clone()).collect();
    let model = format!("{}/{}", out.evaluator.provider, out.evaluator.model);
    let labels = trials::Labels {
        document: &out.document,
        model: &model,
    };
    out.trials = trials::trials(plan, &check_ids, sides, &labels);
    out.audit_id = audit_id(&out);
    out
}

/// sha256 prefix of the result without its id.
pub fn audit_id(a: &Counterfactual) -> String {
    let mut copy = a.clone();
    copy.audit_id = String::new();
    jcs_sha256(&copy).trim_start_matches("sha256:")[..16].to_string()
}
