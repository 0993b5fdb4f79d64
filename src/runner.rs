//! The runner: playbook × document × evaluator → report (seed 000 §3).
//!
//! Deterministic checks run locally. Evaluator-backed checks run `mode.runs()`
//! times each, all calls in flight together (the evaluator bounds concurrency),
//! each served from the response cache when possible. Report-level checks
//! (`run_variance`, `baseline_drift`) are computed from the other results and
//! the store, never by the evaluator.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures::future::join_all;
use tokio_util::sync::CancellationToken;

use crate::aggregate::{self, CheckSummary};
use crate::citations;
use crate::document::Document;
use crate::evaluator::prompt::{self, Candidate};
use crate::evaluator::{EvalError, Evaluator, EvaluatorVerdict, parse_verdict};
use crate::injection;
use crate::playbook::{Check, DetectionType, LoadedPlaybook};
use crate::report::*;
use crate::rules::{CompiledRule, ProseMap, Rule, RuleOutcome};
use crate::store::Store;
use crate::suppress::Suppressions;

const NOT_EVALUATED_NO_KEY: &str =
    "Not evaluated: needs the evaluator, and no evaluator is configured (set ANTHROPIC_API_KEY).";
const NOT_EVALUATED_DETERMINISTIC: &str = "Not evaluated: needs the evaluator (deterministic checks only; run a screening or full evaluation).";

/// Upper bound on `full_runs`: each run is one call per evaluator-backed check.
pub const MAX_FULL_RUNS: u32 = 10;

/// One step of progress, for "check 3/6, run 2/3" displays.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub check_id: String,
    /// 1-based position of the check in the playbook.
    pub check_index: usize,
    pub check_total: usize,
    pub run: u32,
    pub runs: u32,
    /// Evaluator runs finished so far, of `total_runs`.
    pub done: usize,
    pub total_runs: usize,
}

impl Progress {
    pub fn message(&self) -> String {
        format!(
            "check {}/{}, run {}/{}",
            self.check_index, self.check_total, self.run, self.runs
        )
    }
    pub fn percentage(&self) -> u32 {
        ((self.done * 100) / self.total_runs.max(1)) as u32
    }
}

pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

#[derive(Clone, Default)]
pub struct RunOptions {
    pub mode: Option<Mode>,
    /// Runs per evaluator-backed check in full mode (default 3; at least 2, at most 10).
    pub full_runs: Option<u32>,
    /// Ignore cached evaluator responses (new samples); new responses still go to the cache.
    pub fresh: bool,
    pub evaluator: Option<Evaluator>,
    pub store: Option<Arc<Store>>,
    /// Identifies the document in the store (canonical path or URI).
    pub doc_key: String,
    /// Save the finished report to the store.
    pub save: bool,
    pub progress: Option<ProgressFn>,
    pub cancel: CancellationToken,
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("evaluation cancelled")]
    Cancelled,
    #[error("store: {0}")]
    Store(String),
}

/// Local checks only: no evaluator, no store. Fast enough for every keystroke.
pub fn run_deterministic(playbook: &LoadedPlaybook, doc: &Document) -> Report {
    let prepared = Prepared::new(playbook, doc);
    let mut results: Vec<CheckResult> = playbook
        .playbook
        .checks
        .iter()
        .enumerate()
        .map(|(i, check)| prepared.local_result(check, i, NOT_EVALUATED_DETERMINISTIC))
        .collect();
    finish(
        playbook,
        doc,
        &prepared,
        &mut results,
        Mode::Deterministic,
        None,
        None,
        &[],
    )
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
    let prepared = Prepared::new(playbook, doc);
    let checks = &playbook.playbook.checks;
    let runs = match (mode, opts.full_runs) {
        (Mode::Full, Some(n)) => n.clamp(2, MAX_FULL_RUNS),
        _ => mode.runs(),
    };
    let evaluator = opts.evaluator.as_ref().filter(|_| runs > 0);

    let mut results: Vec<Option<CheckResult>> = vec![None; checks.len()];
    let mut jobs = Vec::new();
    for (i, check) in checks.iter().enumerate() {
        match evaluator {
            Some(ev) if check.needs_evaluator() => {
                let candidates = prepared.candidates(i);
                let p = prompt::build(check, &doc.inputs, &candidates);
                for run in 1..=runs {
                    jobs.push((i, run, p.clone(), ev.clone()));
                }
            }
            _ => {
                let why = match (evaluator, &opts.evaluator) {
                    (Some(_), _) => "Not evaluated by the evaluator.",
                    (None, Some(_)) => NOT_EVALUATED_DETERMINISTIC,
                    (None, None) => NOT_EVALUATED_NO_KEY,
                };
                results[i] = Some(prepared.local_result(check, i, why))
            }
        }
    }

    let total = jobs.len();
    let done = Arc::new(AtomicUsize::new(0));
    let futures = jobs.into_iter().map(|(i, run, p, ev)| {
        let store = opts.store.clone();
        let cancel = opts.cancel.clone();
        let progress = opts.progress.clone();
        let done = done.clone();
        let check_id = checks[i].id.clone();
        let fresh = opts.fresh;
        async move {
            let raw = evaluate_once(&ev, store.as_deref(), &p, run, fresh, &cancel).await;
            let n = done.fetch_add(1, Ordering::SeqCst) + 1;
            if let Some(cb) = &progress {
                cb(Progress {
                    check_id,
                    check_index: i + 1,
                    check_total: checks.len(),
                    run,
                    runs,
                    done: n,
                    total_runs: total,
                });
            }
            (i, run, raw)
        }
    });
    let outcomes = tokio::select! {
        o = join_all(futures) => o,
        _ = opts.cancel.cancelled() => return Err(RunError::Cancelled),
    };
    if opts.cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }

    let mut per_check: Vec<Vec<(u32, RunResult)>> = vec![Vec::new(); checks.len()];
    for (i, run, r) in outcomes {
        per_check[i].push((run, r));
    }
    for (i, check) in checks.iter().enumerate() {
        if results[i].is_none() {
            let mut runs = std::mem::take(&mut per_check[i]);
            runs.sort_by_key(|(r, _)| *r);
            results[i] = Some(prepared.evaluated_result(check, runs));
        }
    }
    let mut results: Vec<CheckResult> = results
        .into_iter()
        .map(|r| r.expect("every check has a result"))
        .collect();
    let history = HistoryContext::load(opts.store.as_deref(), &opts.doc_key, &playbook.logic_hash)?;
    let info = evaluator.map(Evaluator::info);
    let report = finish(
        playbook,
        doc,
        &prepared,
        &mut results,
        mode,
        info,
        Some(&history),
        &notices,
    );
    if opts.save
        && let Some(store) = &opts.store
    {
        store
            .save_report(&opts.doc_key, &report)
            .map_err(|e| RunError::Store(e.to_string()))?;
    }
    Ok(report)
}

/// One evaluator run's outcome, as the runner keeps it.
#[derive(Debug, Clone)]
struct RunResult {
    verdict: Result<EvaluatorVerdict, EvalError>,
    raw: Option<String>,
    cached: bool,
}

async fn evaluate_once(
    ev: &Evaluator,
    store: Option<&Store>,
    p: &crate::evaluator::CheckPrompt,
    run: u32,
    fresh: bool,
    cancel: &CancellationToken,
) -> RunResult {
    let key = ev.cache_key(p, run);
    if !fresh
        && let Some(store) = store
        && let Ok(Some(raw)) = store.cached_response(&key)
        && let Ok(v) = parse_verdict(&raw)
    {
        return RunResult {
            verdict: Ok(v),
            raw: Some(raw),
            cached: true,
        };
    }
    let outcome = ev.evaluate(p, run, cancel).await;
    if let (Ok(_), Some(raw), Some(store)) = (&outcome.result, &outcome.raw_text, store) {
        let info = ev.info();
        if let Err(e) = store.put_cached_response(&key, &info.provider, &info.model, raw) {
            tracing::warn!("could not cache evaluator response: {e}");
        }
    }
    RunResult {
        verdict: outcome.result,
        raw: outcome.raw_text,
        cached: false,
    }
}

/// Per-document work done once per run: rule outcomes, prose map, suppressions.
struct Prepared<'a> {
    doc: &'a Document,
    outcomes: Vec<Option<RuleOutcome>>,
    suppressions: Suppressions,
}

impl<'a> Prepared<'a> {
    fn new(playbook: &LoadedPlaybook, doc: &'a Document) -> Self {
        let prose = ProseMap::new(&doc.text, doc.body);
        let outcomes = playbook
            .compiled
            .iter()
            .map(|r| {
                r.as_ref()
                    .and_then(|r: &CompiledRule| r.apply(&doc.text, doc.body, &prose))
            })
            .collect();
        let suppressions = Suppressions::parse(&doc.text, &doc.line_index);
        Prepared {
            doc,
            outcomes,
            suppressions,
        }
    }

    fn citation(&self, start: usize, end: usize, located: Located, context: String) -> Citation {
        let range = self.doc.range(start, end);
        Citation {
            span: self.doc.text[start..end].to_string(),
            location: format!("line {}", range.start.line + 1),
            located,
            range: Some(range),
            byte_range: Some((start, end)),
            context,
        }
    }

    fn hit_citations(&self, outcome: &RuleOutcome) -> Vec<Citation> {
        outcome
            .hits
            .iter()
            .map(|h| self.citation(h.start, h.end, Located::Exact, h.note.clone()))
            .collect()
    }

    /// Problem spans found locally, handed to the evaluator (hybrid/semantic checks with rules).
    fn candidates(&self, i: usize) -> Vec<Candidate> {
        match &self.outcomes[i] {
            Some(o) => o
                .hits
                .iter()
                .map(|h| Candidate {
                    text: self.doc.text[h.start..h.end].to_string(),
                    note: h.note.clone(),
                    line: self.doc.line_index.line_of(h.start) + 1,
                })
                .collect(),
            None => Vec::new(),
        }
    }

    /// A check decided without the evaluator in this run; `why` says why an evaluator-backed
    /// check was not evaluated.
    fn local_result(&self, check: &Check, i: usize, why: &str) -> CheckResult {
        let base = |result, confidence, citations, notes: String| CheckResult {
            check_id: check.id.clone(),
            result,
            per_check_confidence: confidence,
            per_check_consistency: 1.0,
            evidence_citations: citations,
            notes,
            raw_runs: vec![],
            severity: check.severity,
            detection_type: check.detection_method.kind.as_str().to_string(),
            assumptions: vec![],
        };
        if check.rules.as_ref().is_some_and(Rule::is_report_level) {
            // Filled in by `finish` once the other results exist.
            return base(Verdict::Indeterminate, 0.0, vec![], String::new());
        }
        match (check.detection_method.kind, &self.outcomes[i]) {
            (DetectionType::Deterministic, Some(o)) => {
                let mut r = base(o.verdict, 1.0, self.hit_citations(o), o.notes.clone());
                r.raw_runs = vec![RawRun {
                    run: 1,
                    result: o.verdict,
                    confidence: 1.0,
                    notes: String::new(),
                    evidence_citations: vec![],
                    error: None,
                    raw_response: None,
                    cached: false,
                }];
                r
            }
            (DetectionType::Deterministic, None) => base(
                Verdict::Indeterminate,
                0.0,
                vec![],
                "Not evaluated: this deterministic check has no machine-readable `rules`.".into(),
            ),
            (_, outcome) => match outcome {
                Some(o) if o.hits_are_problems && !o.hits.is_empty() => base(
                    Verdict::Indeterminate,
                    0.0,
                    self.hit_citations(o),
                    format!(
                        "{why} Local rules flag {} candidate span(s): {}",
                        o.hits.len(),
                        o.notes
                    ),
                ),
                Some(o) => base(
                    Verdict::Indeterminate,
                    0.0,
                    vec![],
                    format!("{why} Local rules: {}", o.notes),
                ),
                None => base(Verdict::Indeterminate, 0.0, vec![], why.to_string()),
            },
        }
    }

    /// Majority vote over the runs; errors count as indeterminate runs and stay apart from fails.
    fn evaluated_result(&self, check: &Check, runs: Vec<(u32, RunResult)>) -> CheckResult {
        let mut raw_runs = Vec::new();
        for (run, r) in &runs {
            raw_runs.push(match &r.verdict {
                Ok(v) => RawRun {
                    run: *run,
                    result: v.result,
                    confidence: v.confidence,
                    notes: v.notes.clone(),
                    evidence_citations: v
                        .evidence_citations
                        .iter()
                        .map(|q| self.locate(&q.span, &q.context))
                        .collect(),
                    error: None,
                    raw_response: None,
                    cached: r.cached,
                },
                Err(e) => RawRun {
                    run: *run,
                    result: Verdict::Indeterminate,
                    confidence: 0.0,
                    notes: e.to_string(),
                    evidence_citations: vec![],
                    error: Some(error_kind(e).to_string()),
                    raw_response: r.raw.clone(),
                    cached: false,
                },
            });
        }
        let verdicts: Vec<Verdict> = raw_runs.iter().map(|r| r.result).collect();
        let mut result = aggregate::majority(&verdicts);
        let consistency = aggregate::consistency(&verdicts);
        let agreeing: Vec<&RawRun> = raw_runs.iter().filter(|r| r.result == result).collect();
        let confidence = if agreeing.is_empty() {
            0.0
        } else {
            let c = agreeing.iter().map(|r| r.confidence).sum::<f64>() / agreeing.len() as f64;
            (c * 1000.0).round() / 1000.0
        };
        let mut seen = HashSet::new();
        let citations: Vec<Citation> = agreeing
            .iter()
            .flat_map(|r| r.evidence_citations.iter().cloned())
            .filter(|c| seen.insert(c.span.clone()))
            .collect();
        let mut notes = agreeing
            .iter()
            .map(|r| r.notes.as_str())
            .find(|n| !n.is_empty())
            .unwrap_or("")
            .to_string();
        let errors: Vec<&str> = raw_runs.iter().filter_map(|r| r.error.as_deref()).collect();
        if !errors.is_empty() {
            let first = raw_runs
                .iter()
                .find(|r| r.error.is_some())
                .map(|r| r.notes.clone())
                .unwrap_or_default();
            notes = format!(
                "{notes} {} of {} run(s) could not be evaluated ({first}).",
                errors.len(),
                raw_runs.len()
            )
            .trim()
            .to_string();
        }
        // Evidence rule: a fail must rest on enough located quotes.
        let located = citations
            .iter()
            .filter(|c| c.located != Located::Unlocated)
            .count() as u32;
        let needed = check.evidence_requirements.min_citations_per_fail;
        if result == Verdict::Fail
            && check.evidence_requirements.require_citations
            && located < needed.max(1)
        {
            result = Verdict::Indeterminate;
            notes = format!(
                "Evaluator said fail, but only {located} of {} quoted span(s) could be found in the document (needs {}); treated as indeterminate. {notes}",
                citations.len(),
                needed.max(1)
            );
        }
        let assumptions = agreeing
            .iter()
            .filter_map(|r| runs.iter().find(|(n, _)| *n == r.run))
            .filter_map(|(_, r)| r.verdict.as_ref().ok())
            .flat_map(|v| v.assumptions.iter().cloned())
            .fold(Vec::<String>::new(), |mut acc, a| {
                if !acc.contains(&a) {
                    acc.push(a);
                }
                acc
            });
        CheckResult {
            check_id: check.id.clone(),
            result,
            per_check_confidence: confidence,
            per_check_consistency: consistency,
            evidence_citations: citations,
            notes,
            raw_runs,
            severity: check.severity,
            detection_type: check.detection_method.kind.as_str().to_string(),
            assumptions,
        }
    }

    fn locate(&self, span: &str, context: &str) -> Citation {
        let loc = citations::locate(&self.doc.text, self.doc.body, span);
        if loc.located == Located::Unlocated {
            return Citation {
                span: span.to_string(),
                location: "unlocated".into(),
                located: Located::Unlocated,
                range: None,
                byte_range: None,
                context: context.to_string(),
            };
        }
        let mut c = self.citation(loc.start, loc.end, loc.located, context.to_string());
        // Keep the evaluator's own words: that is what it claimed to quote.
        c.span = span.to_string();
        c
    }
}

fn error_kind(e: &EvalError) -> &'static str {
    match e {
        EvalError::RateLimited { .. } => "rate_limited",
        EvalError::Overloaded => "overloaded",
        EvalError::QuotaExhausted => "quota_exhausted",
        EvalError::Auth => "auth",
        EvalError::InvalidRequest(_) => "invalid_request",
        EvalError::Server(_) => "server_error",
        EvalError::Timeout => "timeout",
        EvalError::Network(_) => "network",
        EvalError::Malformed => "malformed",
        EvalError::Truncated => "truncated",
        EvalError::Cancelled => "cancelled",
    }
}

/// Earlier reports the drift check compares against.
#[derive(Default)]
struct HistoryContext {
    reference: Option<(Report, &'static str)>,
}

impl HistoryContext {
    fn load(store: Option<&Store>, doc_key: &str, playbook_hash: &str) -> Result<Self, RunError> {
        let Some(store) = store else {
            return Ok(HistoryContext::default());
        };
        let err = |e: crate::store::StoreError| RunError::Store(e.to_string());
        if let Some(b) = store.baseline(doc_key, playbook_hash).map_err(err)? {
            return Ok(HistoryContext {
                reference: Some((b, "baseline")),
            });
        }
        let prev = store
            .latest_report(doc_key, playbook_hash, None)
            .map_err(err)?;
        Ok(HistoryContext {
            reference: prev.map(|r| (r, "previous report")),
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn finish(
    playbook: &LoadedPlaybook,
    doc: &Document,
    prepared: &Prepared,
    results: &mut [CheckResult],
    mode: Mode,
    evaluator: Option<EvaluatorInfo>,
    history: Option<&HistoryContext>,
    notices: &[String],
) -> Report {
    let checks = &playbook.playbook.checks;
    let is_report_level = |i: usize| checks[i].rules.as_ref().is_some_and(Rule::is_report_level);
    let num_runs = results
        .iter()
        .map(|r| r.raw_runs.len() as u32)
        .max()
        .unwrap_or(0)
        .max(1);
    let evaluated: Vec<(crate::playbook::Severity, f64)> = results
        .iter()
        .enumerate()
        .filter(|(i, r)| !is_report_level(*i) && !r.raw_runs.is_empty())
        .map(|(_, r)| (r.severity, r.per_check_consistency))
        .collect();
    let consistency_score = aggregate::weighted_consistency(&evaluated);
    let divergent: Vec<String> = results
        .iter()
        .filter(|r| r.raw_runs.len() > 1 && r.per_check_consistency < 1.0)
        .map(|r| {
            let runs: Vec<&str> = r.raw_runs.iter().map(|x| x.result.as_str()).collect();
            format!(
                "{}: runs disagree ({}); majority {}",
                r.check_id,
                runs.join(", "),
                r.result.as_str()
            )
        })
        .collect();

    // Report-level checks: variance first, then drift (which compares statuses).
    for (i, check) in checks.iter().enumerate() {
        if let Some(Rule::RunVariance { threshold }) = &check.rules {
            results[i] = variance_result(&results[i], results, checks, *threshold);
        }
    }
    let pre_drift_status = status_of(results, checks, true);
    let fingerprint = doc.inputs.fingerprint();
    for (i, check) in checks.iter().enumerate() {
        if let Some(Rule::BaselineDrift {
            max_consistency_drop,
        }) = &check.rules
        {
            let current = (
                &*results,
                consistency_score,
                pre_drift_status,
                mode,
                fingerprint.as_str(),
            );
            results[i] = drift_result(&results[i], current, history, *max_consistency_drop);
        }
    }
    let status = status_of(results, checks, false);

    let mut suppressed = Vec::new();
    for r in results.iter_mut() {
        r.evidence_citations.retain(|c| {
            let line = c.range.map(|rg| rg.start.line);
            let scope = match line {
                Some(l) => prepared.suppressions.suppressed(&r.check_id, l),
                None => prepared
                    .suppressions
                    .file_wide(&r.check_id)
                    .then_some(crate::suppress::Scope::File),
            };
            match scope {
                Some(s) if r.result != Verdict::Pass => {
                    suppressed.push(SuppressedFinding {
                        check_id: r.check_id.clone(),
                        span: c.span.clone(),
                        range: c.range,
                        scope: s.as_str().into(),
                    });
                    false
                }
                _ => true,
            }
        });
    }

    let untrusted_input_warnings: Vec<InjectionWarning> = injection::scan(&doc.text, doc.body)
        .into_iter()
        .map(|h| InjectionWarning {
            span: doc.text[h.start..h.end].to_string(),
            range: Some(doc.range(h.start, h.end)),
            byte_range: Some((h.start, h.end)),
            reason: h.reason,
        })
        .collect();

    let (key_risks, next_steps) = summarize(results, checks, &untrusted_input_warnings, mode);
    let mut report = Report {
        spec_version: SPEC_VERSION.into(),
        playbook_id: playbook.playbook.id.clone(),
        playbook_version: playbook.playbook.version.clone(),
        execution_mode: mode,
        timestamp: now_rfc3339(),
        summary: Summary {
            overall_status: status,
            key_risks,
            recommended_next_steps: next_steps,
        },
        check_results: results.to_vec(),
        variance_summary: VarianceSummary {
            num_runs,
            consistency_score,
            divergent_findings: divergent,
        },
        integrity: Integrity {
            playbook_logic_hash: playbook.logic_hash.clone(),
            inputs_fingerprint: fingerprint,
            runner_fingerprint: RUNNER_FINGERPRINT.into(),
        },
        presentation_rules: PresentationRules::default(),
        report_id: String::new(),
        document: DocumentInfo {
            path: doc.label(),
            source_path: doc.source_path.as_ref().map(|p| p.display().to_string()),
            prompt_path: doc.prompt_path.as_ref().map(|p| p.display().to_string()),
            body_start_line: doc.body_start_line(),
        },
        evaluator,
        suppressed,
        untrusted_input_warnings,
        notices: notices.to_vec(),
    };
    report.report_id = report_id(&report);
    report
}

fn status_of(results: &[CheckResult], checks: &[Check], skip_drift: bool) -> Status {
    let summaries: Vec<CheckSummary> = results
        .iter()
        .zip(checks)
        .filter(|(_, c)| !(skip_drift && matches!(c.rules, Some(Rule::BaselineDrift { .. }))))
        .map(|(r, _)| CheckSummary {
            severity: r.severity,
            result: r.result,
            consistency: r.per_check_consistency,
        })
        .collect();
    aggregate::overall_status(&summaries)
}

/// `run_variance`: stability of the evaluator-backed checks across runs (no evaluator call).
fn variance_result(
    current: &CheckResult,
    results: &[CheckResult],
    checks: &[Check],
    threshold: f64,
) -> CheckResult {
    let multi: Vec<&CheckResult> = results
        .iter()
        .zip(checks)
        .filter(|(r, c)| c.needs_evaluator() && r.raw_runs.len() > 1)
        .map(|(r, _)| r)
        .collect();
    let mut r = current.clone();
    r.raw_runs = vec![];
    if multi.is_empty() {
        r.result = Verdict::Indeterminate;
        r.notes =
            "Runs cannot be compared: variance needs repeated evaluator runs (full mode).".into();
        return r;
    }
    let comparable: Vec<&&CheckResult> = multi
        .iter()
        .filter(|c| c.raw_runs.iter().any(|x| x.error.is_none()))
        .collect();
    if comparable.is_empty() {
        r.result = Verdict::Indeterminate;
        r.notes = "Runs cannot be compared: every evaluator run failed.".into();
        return r;
    }
    let score = aggregate::weighted_consistency(
        &comparable
            .iter()
            .map(|c| (c.severity, c.per_check_consistency))
            .collect::<Vec<_>>(),
    );
    let unstable: Vec<String> = comparable
        .iter()
        .filter(|c| c.per_check_consistency < 1.0)
        .map(|c| format!("{} ({:.2})", c.check_id, c.per_check_consistency))
        .collect();
    r.per_check_confidence = 1.0;
    r.per_check_consistency = 1.0;
    if score > threshold {
        r.result = Verdict::Pass;
        r.notes = format!(
            "Consistency {score:.2} is above the {threshold:.2} threshold across {} check(s).",
            comparable.len()
        );
    } else {
        r.result = Verdict::Fail;
        r.notes = format!(
            "Consistency {score:.2} is at or below the {threshold:.2} threshold; divergent: {}.",
            unstable.join(", ")
        );
    }
    r
}

/// `baseline_drift`: degradation against the baseline (or the previous report).
fn drift_result(
    current: &CheckResult,
    now: (&[CheckResult], f64, Status, Mode, &str),
    history: Option<&HistoryContext>,
    max_drop: f64,
) -> CheckResult {
    let (results, score, status, mode, fingerprint) = now;
    let mut r = current.clone();
    r.raw_runs = vec![];
    let Some((base, label)) = history.and_then(|h| h.reference.as_ref()) else {
        r.result = Verdict::Indeterminate;
        r.notes = "No baseline or earlier report of this document under this playbook: nothing to compare.".into();
        return r;
    };
    let mut worse = Vec::new();
    for c in results.iter().filter(|c| c.check_id != r.check_id) {
        if let Some(b) = base.check(&c.check_id)
            && b.result == Verdict::Pass
            && c.result == Verdict::Fail
        {
            worse.push(format!("{} pass → fail", c.check_id));
        }
    }
    let both_multi = base.execution_mode == Mode::Full && mode == Mode::Full;
    let delta = score - base.variance_summary.consistency_score;
    if both_multi && -delta > max_drop {
        worse.push(format!(
            "consistency {:.2} → {score:.2}",
            base.variance_summary.consistency_score
        ));
    }
    let base_status = base.summary.overall_status;
    let inputs_note = if base.integrity.inputs_fingerprint == fingerprint {
        "same inputs"
    } else {
        "the inputs have changed since"
    };
    r.per_check_confidence = 1.0;
    r.per_check_consistency = 1.0;
    let reference = format!(
        "{label} {} ({}, {inputs_note})",
        short_id(&base.report_id),
        base.timestamp
    );
    if worse.is_empty() {
        r.result = Verdict::Pass;
        r.notes = format!(
            "No degradation against {reference}: status {} → {}, consistency delta {delta:+.2}.",
            base_status.as_str(),
            status.as_str()
        );
    } else {
        r.result = Verdict::Fail;
        r.notes = format!("Degraded against {reference}: {}.", worse.join("; "));
    }
    r
}

fn short_id(id: &str) -> &str {
    &id[..id.len().min(12)]
}

fn summarize(
    results: &[CheckResult],
    checks: &[Check],
    warnings: &[InjectionWarning],
    mode: Mode,
) -> (Vec<String>, Vec<String>) {
    let mut risks = Vec::new();
    let mut steps = Vec::new();
    let mut ordered: Vec<(&CheckResult, &Check)> = results
        .iter()
        .zip(checks)
        .filter(|(r, _)| r.result != Verdict::Pass)
        .collect();
    ordered.sort_by_key(|(r, _)| (std::cmp::Reverse(r.severity), r.result != Verdict::Fail));
    for (r, c) in &ordered {
        let first_sentence = r
            .notes
            .split(". ")
            .next()
            .unwrap_or("")
            .trim_end_matches('.');
        risks.push(format!(
            "{} ({}, {}): {}",
            r.check_id,
            r.severity.as_str(),
            r.result.as_str(),
            first_sentence
        ));
        if r.result == Verdict::Fail {
            steps.push(
                c.remediation
                    .clone()
                    .unwrap_or_else(|| format!("Address `{}`: {}", c.id, c.question)),
            );
        }
    }
    if !warnings.is_empty() {
        risks.push(format!(
            "The document contains {} passage(s) that address the evaluator (possible prompt injection).",
            warnings.len()
        ));
        steps.push(
            "Remove or review text that addresses the evaluator before trusting this report."
                .into(),
        );
    }
    let not_evaluated = ordered.iter().any(|(r, c)| {
        r.result == Verdict::Indeterminate && c.needs_evaluator() && r.raw_runs.is_empty()
    });
    if not_evaluated && mode == Mode::Deterministic {
        steps.push("Run a screening or full evaluation for the checks that need the evaluator (`byop check --mode full`).".into());
    }
    if ordered.iter().any(|(r, _)| {
        r.result == Verdict::Indeterminate && r.severity == crate::playbook::Severity::High
    }) {
        steps.push("Have a qualified reviewer read the output: a high-severity check could not be decided.".into());
    }
    (risks, steps)
}

pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc())
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// Content id: sha256 of the report's canonical JSON (id field empty), first 16 hex digits.
pub fn report_id(report: &Report) -> String {
    let mut copy = report.clone();
    copy.report_id = String::new();
    let hash = crate::integrity::jcs_sha256(&copy);
    hash.trim_start_matches("sha256:")[..16].to_string()
}
