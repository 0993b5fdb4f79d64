//! The runner: playbook × document × evaluator → report.
//!
//! Deterministic checks run locally. Evaluator-backed checks run once (screening) or
//! `full_runs` times (full), all calls in flight together (the evaluator bounds
//! concurrency), each served from the response cache when possible. In full mode a check
//! whose runs disagree gets more runs, up to `max_runs` (see `adaptive`). Report-level
//! checks (variance, drift) are computed from the other results and the reference
//! report the caller passes in. The runner reads and writes nothing itself: the
//! caller loads the history and saves the report.

mod adaptive;
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
pub use adaptive::DEFAULT_MAX_RUNS;
pub use local::MAX_CITATIONS_PER_CHECK;
pub use options::{DriftReference, MAX_FULL_RUNS, ReferenceKind, RunError, RunOptions};
pub use progress::{Progress, ProgressFn};

use options::{NOT_EVALUATED_DETERMINISTIC, NOT_EVALUATED_NO_KEY};

/// Local checks only: no evaluator, no history. Fast enough for every keystroke.
/// Build the indexes `playbook`'s rules read of `doc`'s companions and share with every
/// document naming the same files; a batch calls this once per distinct companion, ahead of
/// its documents.
pub fn prepare_companions(playbook: &LoadedPlaybook, doc: &Document) {
    for rule in playbook.compiled.iter().flatten() {
        rule.prepare_companions(doc);
    }
}

pub fn run_deterministic(playbook: &LoadedPlaybook, doc: &Document) -> Report {
    identify(run_deterministic_unidentified(playbook, doc))
}

/// [`run_deterministic`] without the report's id. The id is a hash of the whole report's
/// canonical JSON: an editor recomputing the checks on every keystroke shows the findings
/// and needs an id only when the report leaves it (export, save), where [`identify`]
/// gives it one. On a dense document the id was a sixth of a keystroke's work.
pub fn run_deterministic_unidentified(playbook: &LoadedPlaybook, doc: &Document) -> Report {
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
        locked: false,
    }
    .into_report_unidentified()
}

/// The report with its id (the hash of its content), unless it has one.
pub fn identify(mut report: Report) -> Report {
    if report.report_id.is_empty() {
        report.report_id = crate::model::integrity::report_id(&report);
    }
    report
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

/// One evaluator call to make: check index, run number (of `of` planned), prompt.
struct Job {
    check: usize,
    run: u32,
    of: u32,
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
    let mut notices = opts.notices.clone();
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
    let max_runs = match mode {
        Mode::Full => opts
            .max_runs
            .unwrap_or(DEFAULT_MAX_RUNS)
            .clamp(runs, MAX_FULL_RUNS),
        _ => runs,
    };
    let evaluator = opts.evaluator.as_ref().filter(|_| runs > 0);
    let prepared = Prepared::new(playbook, doc);
    let (mut results, prompts) = plan(playbook, &prepared, evaluator, &opts);
    if let Some(ev) = evaluator {
        let mut per_check = evaluate_all(ev, playbook, &prompts, &opts, runs, max_runs).await?;
        for (i, check) in playbook.playbook.checks.iter().enumerate() {
            if results[i].is_none() {
                per_check[i].sort_by_key(|(r, _)| *r);
                let mut r = evaluated::evaluated_result(&prepared, check, &per_check[i]);
                prepared.uphold_proof(i, &mut r);
                let used = per_check[i].len() as u32;
                if used > runs {
                    r.notes = format!(
                        "{used} runs: the first {runs} disagreed, so more were drawn until a strict majority was settled or out of reach (at most {max_runs}). {}",
                        r.notes
                    );
                }
                results[i] = Some(r);
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
        locked: opts.locked,
    }
    .into_report())
}

/// Local results for the checks the evaluator does not decide; the prompt of each check
/// it does.
fn plan(
    playbook: &LoadedPlaybook,
    prepared: &Prepared,
    evaluator: Option<&Evaluator>,
    opts: &RunOptions,
) -> (Vec<Option<CheckResult>>, Vec<Option<CheckPrompt>>) {
    let checks = &playbook.playbook.checks;
    let mut results = vec![None; checks.len()];
    let mut prompts = vec![None; checks.len()];
    for (i, check) in checks.iter().enumerate() {
        if evaluator.is_some() && check.needs_evaluator() {
            prompts[i] = Some(prompt::build(
                check,
                &prepared.doc.inputs,
                &prepared.candidates(i),
            ));
            continue;
        }
        let why = match (evaluator, &opts.evaluator) {
            (Some(_), _) => "Not evaluated by the evaluator.",
            (None, Some(_)) => NOT_EVALUATED_DETERMINISTIC,
            (None, None) => NOT_EVALUATED_NO_KEY,
        };
        results[i] = Some(prepared.local_result(check, i, why));
    }
    (results, prompts)
}

/// `runs` runs of every evaluated check, all at once; then, while some check's runs
/// disagree, the next wave of extra runs (up to `max_runs`). The runs of each check, by index.
async fn evaluate_all(
    ev: &Evaluator,
    playbook: &LoadedPlaybook,
    prompts: &[Option<CheckPrompt>],
    opts: &RunOptions,
    runs: u32,
    max_runs: u32,
) -> Result<Vec<Vec<(u32, RunResult)>>, RunError> {
    let mut per_check: Vec<Vec<(u32, RunResult)>> = prompts.iter().map(|_| Vec::new()).collect();
    let mut wave: Vec<Job> = prompts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().map(|p| (i, p)))
        .flat_map(|(i, p)| (1..=runs).map(move |run| (i, run, p)))
        .map(|(check, run, p)| Job {
            check,
            run,
            of: runs,
            prompt: p.clone(),
        })
        .collect();
    let counter = Counter::default();
    while !wave.is_empty() {
        for (i, run, r) in execute(ev, playbook, wave, opts, &counter).await? {
            per_check[i].push((run, r));
        }
        wave = Vec::new();
        for (i, done) in per_check.iter().enumerate() {
            let outcomes: Vec<_> = done.iter().map(|(_, r)| adaptive::outcome(r)).collect();
            let more = adaptive::more_runs(&outcomes, max_runs);
            let next = done.len() as u32 + 1;
            wave.extend((next..next + more).map(|run| Job {
                check: i,
                run,
                of: max_runs,
                prompt: prompts[i].clone().expect("only evaluated checks have runs"),
            }));
        }
    }
    Ok(per_check)
}

/// Runs finished and planned so far, across waves, for the progress display.
#[derive(Default)]
struct Counter {
    done: AtomicUsize,
    total: AtomicUsize,
}

/// Run one wave of jobs concurrently.
async fn execute(
    ev: &Evaluator,
    playbook: &LoadedPlaybook,
    jobs: Vec<Job>,
    opts: &RunOptions,
    counter: &Counter,
) -> Result<Vec<(usize, u32, RunResult)>, RunError> {
    let checks = &playbook.playbook.checks;
    counter.total.fetch_add(jobs.len(), Ordering::SeqCst);
    let full = jobs.iter().any(|j| j.of > 1);
    let canary = opts.canary.unwrap_or(full);
    // Full mode never reuses an answer obtained without a canary (see `evaluate_cached`).
    let fresh = opts.fresh || (full && !canary);
    let calls = jobs.into_iter().map(|job| async move {
        let call = Call {
            prompt: &job.prompt,
            run: job.run,
            canary,
            observer: opts.observer.as_deref(),
            cancel: &opts.cancel,
        };
        let result = ev.evaluate_cached(call, opts.cache.as_deref(), fresh).await;
        let n = counter.done.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(cb) = &opts.progress {
            cb(Progress {
                check_id: checks[job.check].id.clone(),
                check_index: job.check + 1,
                check_total: checks.len(),
                run: job.run,
                runs: job.of,
                done: n,
                total_runs: counter.total.load(Ordering::SeqCst),
            });
        }
        (job.check, job.run, result)
    });
    let outcomes = tokio::select! {
        o = join_all(calls) => o,
        _ = opts.cancel.cancelled() => return Err(RunError::Cancelled),
    };
    if opts.cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests;
