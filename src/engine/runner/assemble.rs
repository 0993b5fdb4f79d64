//! Every check has a result: compute the report-level checks, apply suppressions,
//! scan for text addressed to the evaluator, summarize, and build the report.

use super::local::Prepared;
use super::options::DriftReference;
use super::report_level::{Current, consistency_score, drift_result, variance_result};
use super::summary::summarize;
use crate::engine::aggregate::{self, CheckSummary};
use crate::engine::document::Document;
use crate::engine::injection;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::rules::ReportLevel;
use crate::model::*;

/// What the report is made of, once every check has a (preliminary) result.
pub(super) struct Assembly<'a> {
    pub playbook: &'a LoadedPlaybook,
    pub prepared: &'a Prepared<'a>,
    pub results: Vec<CheckResult>,
    pub mode: Mode,
    pub evaluator: Option<EvaluatorInfo>,
    pub reference: Option<&'a DriftReference>,
    pub notices: Vec<String>,
    pub playbook_source: Option<PlaybookSource>,
    pub request_id: Option<String>,
    pub locked: bool,
}

impl Assembly<'_> {
    /// The report, with its id (the hash of its content).
    pub fn into_report(self) -> Report {
        super::identify(self.into_report_unidentified())
    }

    /// The report with an empty id (see `run_deterministic_unidentified`).
    pub fn into_report_unidentified(mut self) -> Report {
        let doc = self.prepared.doc;
        let warnings = injection_warnings(doc);
        self.distrust_passes(&warnings);
        let variance = variance_summary(self.playbook, &self.results);
        self.report_level_checks(variance.consistency_score);
        let mut status = status_of(&self.results, self.playbook, false);
        if !warnings.is_empty() {
            // Text addressed to the evaluator: at least a human's look; and when the
            // evaluator read it, none of its answers is trusted (steered to pass, to
            // indeterminate or to a fail without quotes alike): ALERT.
            status = status.max(Status::Review);
            if self.mode != Mode::Deterministic && self.results.iter().any(evaluator_answered) {
                status = Status::Alert;
            }
        }
        if self.results.iter().any(followed_canary) {
            // The evaluator obeyed the document in some run: its answers are not trusted.
            status = Status::Alert;
        }
        let suppressed = self.suppress();
        let checks = &self.playbook.playbook.checks;
        let (key_risks, next_steps) = summarize(&self.results, checks, &warnings, self.mode);
        let mut report = Report {
            spec_version: SPEC_VERSION.into(),
            playbook_id: self.playbook.playbook.id.clone(),
            playbook_version: self.playbook.playbook.version.clone(),
            execution_mode: self.mode,
            timestamp: now_rfc3339(),
            summary: Summary {
                overall_status: status,
                key_risks,
                recommended_next_steps: next_steps,
            },
            check_results: self.results,
            variance_summary: variance,
            integrity: Integrity {
                playbook_logic_hash: self.playbook.logic_hash.clone(),
                inputs_fingerprint: doc.fingerprint().to_string(),
                runner_fingerprint: RUNNER_FINGERPRINT.into(),
            },
            presentation_rules: PresentationRules::default(),
            report_id: String::new(),
            document: DocumentInfo {
                path: doc.label(),
                source_path: doc.source_path().map(|p| p.display().to_string()),
                prompt_path: doc.prompt_path().map(|p| p.display().to_string()),
                body_start_line: doc.body_start_line(),
            },
            evaluator: self.evaluator,
            suppressed,
            untrusted_input_warnings: warnings,
            notices: self.notices,
            playbook_source: self.playbook_source,
            request_id: self.request_id,
            validation: crate::engine::plan::combine(self.prepared.parts.iter().flatten()),
            debug: None,
            repair: None,
            locked: self.locked,
            evidence_contract: crate::engine::rules::contract_versions(
                &doc.text,
                doc.body,
                doc.evidence
                    .as_ref()
                    .map(crate::engine::document::Companion::text),
            ),
        };
        if report.validation.is_some() {
            report.debug = Some(crate::model::PlanDebug {
                variant: crate::engine::plan::Settings::read(&doc.text, doc.body).variant,
                context_preview: None,
            });
        }
        report
    }

    /// The evaluator was addressed by the text it judged: none of its passes stands.
    fn distrust_passes(&mut self, warnings: &[InjectionWarning]) {
        let checks = &self.playbook.playbook.checks;
        let Some(warning) = warnings.first() else {
            return;
        };
        let place = warning.file.as_deref().unwrap_or("document");
        let quoted: Vec<String> = warnings
            .iter()
            .take(3)
            .map(|w| format!("“{}”", w.span))
            .collect();
        for (r, c) in self.results.iter_mut().zip(checks) {
            let evaluated = c.needs_evaluator() && evaluator_answered(r);
            if evaluated && r.result == Verdict::Pass {
                r.result = Verdict::Indeterminate;
                r.notes = format!(
                    "Not trusted: the {place} addresses the evaluator ({}), so the evaluator's pass does not stand. {}",
                    quoted.join(", "),
                    r.notes
                )
                .trim_end()
                .to_string();
            }
        }
    }

    /// Variance first, then drift (which compares statuses without drift itself).
    fn report_level_checks(&mut self, consistency_score: f64) {
        let levels: Vec<Option<ReportLevel>> = self
            .playbook
            .compiled
            .iter()
            .map(|r| r.as_ref().and_then(|r| r.report_level()))
            .collect();
        let checks = &self.playbook.playbook.checks;
        for (i, level) in levels.iter().enumerate() {
            if let Some(ReportLevel::RunVariance { threshold }) = level {
                self.results[i] =
                    variance_result(&self.results[i], &self.results, checks, *threshold);
            }
        }
        let pre_drift = status_of(&self.results, self.playbook, true);
        let fingerprint = self.prepared.doc.fingerprint().to_string();
        for (i, level) in levels.iter().enumerate() {
            if let Some(ReportLevel::BaselineDrift {
                max_consistency_drop,
            }) = level
            {
                let now = Current {
                    results: &self.results,
                    consistency_score,
                    status: pre_drift,
                    mode: self.mode,
                    fingerprint: &fingerprint,
                };
                self.results[i] = drift_result(
                    &self.results[i],
                    &now,
                    self.reference,
                    *max_consistency_drop,
                );
            }
        }
    }

    /// Suppressed findings leave the results' citations and are listed apart. The
    /// results themselves, and so the status, do not change.
    fn suppress(&mut self) -> Vec<SuppressedFinding> {
        let suppressions = &self.prepared.suppressions;
        let mut suppressed = Vec::new();
        for r in self.results.iter_mut() {
            let (check_id, result) = (r.check_id.clone(), r.result);
            r.evidence_citations.retain(|c| {
                match suppressions.finding(&check_id, c.range.map(|rg| rg.start.line)) {
                    Some(scope) if result != Verdict::Pass => {
                        suppressed.push(SuppressedFinding {
                            check_id: check_id.clone(),
                            span: c.span.clone(),
                            range: c.range,
                            scope,
                        });
                        false
                    }
                    _ => true,
                }
            });
        }
        suppressed
    }
}

/// Runs behind the score, the consistency score (`consistency_score`: the same figure
/// `run_variance` judges; 1.0 when no check was judged in repeated runs), and the checks
/// whose runs disagree.
fn variance_summary(playbook: &LoadedPlaybook, results: &[CheckResult]) -> VarianceSummary {
    let checks = &playbook.playbook.checks;
    let num_runs = results
        .iter()
        .map(|r| r.raw_runs.len() as u32)
        .max()
        .unwrap_or(0)
        .max(1);
    let divergent_findings = results
        .iter()
        .filter(|r| r.raw_runs.len() > 1 && r.per_check_consistency < 1.0)
        .map(|r| {
            let runs: Vec<&str> = r.raw_runs.iter().map(|x| x.result.as_str()).collect();
            format!(
                "{}: runs disagree ({}); result {}",
                r.check_id,
                runs.join(", "),
                r.result.as_str()
            )
        })
        .collect();
    let injection_susceptible_runs = results
        .iter()
        .flat_map(|r| &r.raw_runs)
        .filter(|r| r.error == Some(RunErrorKind::InjectionSusceptible))
        .count() as u32;
    let runs_per_check = results
        .iter()
        .filter(|r| !r.raw_runs.is_empty())
        .map(|r| (r.check_id.clone(), r.raw_runs.len() as u32))
        .collect();
    VarianceSummary {
        runs_per_check,
        num_runs,
        consistency_score: consistency_score(results, checks).unwrap_or(1.0),
        divergent_findings,
        injection_susceptible_runs,
    }
}

pub(super) fn status_of(
    results: &[CheckResult],
    playbook: &LoadedPlaybook,
    skip_drift: bool,
) -> Status {
    let is_drift = |i: usize| {
        playbook.compiled[i]
            .as_ref()
            .and_then(|r| r.report_level())
            .is_some_and(|l| matches!(l, ReportLevel::BaselineDrift { .. }))
    };
    let summaries: Vec<CheckSummary> = results
        .iter()
        .enumerate()
        .filter(|(i, _)| !(skip_drift && is_drift(*i)))
        .map(|(_, r)| CheckSummary {
            severity: r.severity,
            result: r.result,
            consistency: r.per_check_consistency,
        })
        .collect();
    aggregate::overall_status(&summaries)
}

/// Text addressed to the evaluator, in the document and in its companions (they are
/// fenced into the same prompt).
fn injection_warnings(doc: &Document) -> Vec<InjectionWarning> {
    let mut out: Vec<InjectionWarning> = injection::scan(&doc.text, doc.body)
        .into_iter()
        .map(|h| InjectionWarning {
            span: doc.text[h.start..h.end].to_string(),
            range: Some(doc.range(h.start, h.end)),
            byte_range: Some((h.start, h.end)),
            reason: h.reason,
            file: None,
        })
        .collect();
    for c in [&doc.source, &doc.prompt].into_iter().flatten() {
        let file = c.path.display().to_string();
        out.extend(c.injection_warnings().iter().map(|w| InjectionWarning {
            file: Some(file.clone()),
            ..w.clone()
        }));
    }
    out
}

/// Whether the evaluator answered any run of this check (local checks have no evaluator
/// runs: their single run has no model behind it).
fn evaluator_answered(r: &CheckResult) -> bool {
    r.detection_type != DetectionType::Deterministic && r.raw_runs.iter().any(|x| x.error.is_none())
}
