//! The runner: playbook × document × evaluator → report.
//!
//! Deterministic checks run locally. Evaluator-backed checks run once (screening) or
//! `full_runs` times (full), all calls in flight together (the evaluator bounds
//! concurrency), each served from the response cache when possible. Report-level
//! checks (variance, drift) are computed from the other results and the reference
//! report the caller passes in. The runner reads and writes nothing itself: the
//! caller loads the history and saves the report.

mod assemble;
mod evaluated;
mod local;
mod options;
mod progress;
mod report_level;
mod summary;

use std::sync::atomic::{AtomicUsize, Ordering};

use futures::future::join_all;

use crate::engine::document::Document;
use crate::engine::playbook::LoadedPlaybook;
use crate::evaluator::CheckPrompt;
use crate::evaluator::prompt;
use crate::evaluator::{Call, Evaluator, RunResult};
use crate::model::{CheckResult, Mode, Report};

use assemble::Assembly;
use local::Prepared;

pub use crate::model::integrity::report_id;
pub use options::{DriftReference, MAX_FULL_RUNS, ReferenceKind, RunError, RunOptions};
pub use progress::{Progress, ProgressFn};

use options::{NOT_EVALUATED_DETERMINISTIC, NOT_EVALUATED_NO_KEY};

/// Local checks only: no evaluator, no history. Fast enough for every keystroke.
pub fn run_deterministic(playbook: &LoadedPlaybook, doc: &Document) -> Report {
    let prepared = Prepared::new(playbook, doc);
    let results = playbook
        .playbook
        .checks
        .iter()
        .enumerate()
        .map(|(i, check)| prepared.local_result(check, i, NOT_EVALUATED_DETERMINISTIC))
        .collect();
    Assembly {
        playbook,
        prepared: &prepared,
        results,
        mode: Mode::Deterministic,
        evaluator: None,
        reference: None,
        notices: vec![],
        playbook_source: None,
        request_id: None,
    }
    .into_report()
}

/// The evaluator prompt of each check in `checks` (indices into the playbook) for this
/// document, with the local candidates hybrid checks hand over (the counterfactual audit).
pub fn evaluator_prompts(
    playbook: &LoadedPlaybook,
    doc: &Document,
    checks: &[usize],
) -> Vec<CheckPrompt> {
    let prepared = Prepared::new(playbook, doc);
    checks
        .iter()
        .map(|&i| {
            let check = &playbook.playbook.checks[i];
            prompt::build(check, &prepared.doc.inputs, &prepared.candidates(i))
        })
        .collect()
}

/// One evaluator call to make: check index, run number, prompt.
struct Job {
    check: usize,
    run: u32,
    prompt: CheckPrompt,
}

/// The mode a run with these options will have (screening by default; deterministic when
/// there is no evaluator).
pub fn effective_mode(opts: &RunOptions) -> Mode {
    match (&opts.evaluator, opts.mode.unwrap_or(Mode::Screening)) {
        (None, _) => Mode::Deterministic,
        (_, m) => m,
    }
}

/// The full runner. Falls back to deterministic mode (with a notice) when no evaluator is set.
pub async fn run(
    playbook: &LoadedPlaybook,
    doc: &Document,
    opts: RunOptions,
) -> Result<Report, RunError> {
    let requested = opts.mode.unwrap_or(Mode::Screening);
    let mut notices = Vec::new();
    let mode = match (&opts.evaluator, requested) {
        (None, Mode::Screening | Mode::Full) => {
            notices.push(format!(
                "No evaluator configured (set ANTHROPIC_API_KEY, or OPENAI_API_KEY with --provider openai): ran deterministic checks only instead of {} mode.",
                requested.as_str()
            ));
            Mode::Deterministic
        }
        (_, m) => m,
    };
    let runs = match (mode, opts.full_runs) {
        (Mode::Full, Some(n)) => n.clamp(2, MAX_FULL_RUNS),
        _ => mode.runs(),
    };
    let evaluator = opts.evaluator.as_ref().filter(|_| runs > 0);
    let prepared = Prepared::new(playbook, doc);
    let (mut results, jobs) = plan(playbook, &prepared, evaluator, &opts, runs);
    if let Some(ev) = evaluator {
        let mut per_check = execute(ev, playbook, jobs, &opts, runs).await?;
        for (i, check) in playbook.playbook.checks.iter().enumerate() {
            if results[i].is_none() {
                per_check[i].sort_by_key(|(r, _)| *r);
                results[i] = Some(evaluated::evaluated_result(&prepared, check, &per_check[i]));
            }
        }
    }
    let results = results
        .into_iter()
        .map(|r| r.expect("every check has a result"))
        .collect();
    Ok(Assembly {
        playbook,
        prepared: &prepared,
        results,
        mode,
        evaluator: evaluator.map(Evaluator::info),
        reference: opts.reference.as_ref(),
        notices,
        playbook_source: opts.playbook_source,
        request_id: opts.request_id.clone(),
    }
    .into_report())
}

/// Local results for the checks the evaluator does not decide; one job per evaluator run.
fn plan(
    playbook: &LoadedPlaybook,
    prepared: &Prepared,
    evaluator: Option<&Evaluator>,
    opts: &RunOptions,
    runs: u32,
) -> (Vec<Option<CheckResult>>, Vec<Job>) {
    let checks = &playbook.playbook.checks;
    let mut results = vec![None; checks.len()];
    let mut jobs = Vec::new();
    for (i, check) in checks.iter().enumerate() {
        if evaluator.is_some() && check.needs_evaluator() {
            let p = prompt::build(check, &prepared.doc.inputs, &prepared.candidates(i));
            jobs.extend((1..=runs).map(|run| Job {
                check: i,
                run,
                prompt: p.clone(),
            }));
            continue;
        }
        let why = match (evaluator, &opts.evaluator) {
            (Some(_), _) => "Not evaluated by the evaluator.",
            (None, Some(_)) => NOT_EVALUATED_DETERMINISTIC,
            (None, None) => NOT_EVALUATED_NO_KEY,
        };
        results[i] = Some(prepared.local_result(check, i, why));
    }
    (results, jobs)
}

/// Run every job concurrently; the runs of each check, by check index.
async fn execute(
    ev: &Evaluator,
    playbook: &LoadedPlaybook,
    jobs: Vec<Job>,
    opts: &RunOptions,
    runs: u32,
) -> Result<Vec<Vec<(u32, RunResult)>>, RunError> {
    let checks = &playbook.playbook.checks;
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let canary = opts.canary.unwrap_or(runs > 1);
    let calls = jobs.into_iter().map(|job| {
        let done = &done;
        async move {
            let call = Call {
                prompt: &job.prompt,
                run: job.run,
                canary,
                observer: opts.observer.as_deref(),
                cancel: &opts.cancel,
            };
            let result = ev
                .evaluate_cached(call, opts.cache.as_deref(), opts.fresh)
                .await;
            let n = done.fetch_add(1, Ordering::SeqCst) + 1;
            if let Some(cb) = &opts.progress {
                cb(Progress {
                    check_id: checks[job.check].id.clone(),
                    check_index: job.check + 1,
                    check_total: checks.len(),
                    run: job.run,
                    runs,
                    done: n,
                    total_runs: total,
                });
            }
            (job.check, job.run, result)
        }
    });
    let outcomes = tokio::select! {
        o = join_all(calls) => o,
        _ = opts.cancel.cancelled() => return Err(RunError::Cancelled),
    };
    if opts.cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    let mut per_check: Vec<Vec<(u32, RunResult)>> = (0..checks.len()).map(|_| Vec::new()).collect();
    for (i, run, r) in outcomes {
        per_check[i].push((run, r));
    }
    Ok(per_check)
}

#[cfg(test)]
mod tests;
