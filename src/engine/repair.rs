//! Repair once, then re-validate (docs/contracts.md, Repair), for every playbook: the deterministic
//! checks decide; when one does not pass, the evaluator gets the output, its companions
//! and the errors, and answers with a corrected output once; every deterministic check
//! runs again on the answer, which is offered only if all pass.

use tokio_util::sync::CancellationToken;

use crate::engine::document::Document;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::runner::run_deterministic;
use crate::evaluator::repair::{self as prompt, REPAIR_CALL_ID, ValidationError};
use crate::evaluator::{Call, CallObserver, Evaluator, GenParams, ResponseCache};
use crate::model::integrity::sha256_hex;
use crate::model::{
    DetectionType, RepairRecord, RepairStatus, Report, ValidationIssue, ValidationRecord,
    ValidationStatus, Verdict,
};

/// A repair's result: the record for the report, the deterministic report of the original,
/// and the repaired document's whole text when it passed (and, rejected, for inspection).
#[derive(Debug, Clone)]
pub struct RepairOutcome {
    pub record: RepairRecord,
    pub before: Report,
    /// The whole repaired document (front matter kept); offered only when `repaired`.
    pub candidate: Option<String>,
    /// The plan `validation` of the repaired text, for plan playbooks.
    pub after_validation: Option<crate::model::Validation>,
}

impl RepairOutcome {
    /// The repaired text, only when every deterministic check passes on it.
    pub fn repaired_text(&self) -> Option<&str> {
        (self.record.status == RepairStatus::Repaired)
            .then_some(self.candidate.as_deref())
            .flatten()
    }
}

/// The deterministic checks of a document and the ones that did not pass. A deterministic
/// check that could not decide (indeterminate) is not a pass; a finding suppressed by a
/// comment is not an error. Checks of other detection types are not part of it.
pub fn validate(playbook: &LoadedPlaybook, doc: &Document) -> (Report, ValidationRecord) {
    let report = run_deterministic(playbook, doc);
    let record = validation_of(playbook, &report);
    (report, record)
}

pub fn validation_of(playbook: &LoadedPlaybook, report: &Report) -> ValidationRecord {
    validation_ignoring(playbook, report, &[])
}

/// [`validation_of`], where a suppression comment does not excuse the checks in `strict`.
fn validation_ignoring(
    playbook: &LoadedPlaybook,
    report: &Report,
    strict: &[&str],
) -> ValidationRecord {
    let deterministic: Vec<_> = playbook
        .playbook
        .checks
        .iter()
        .filter(|c| c.detection_method.kind == DetectionType::Deterministic)
        .filter(|c| !c.is_report_level())
        .filter_map(|c| Some((c, report.check(&c.id)?)))
        .collect();
    let suppressed =
        |id: &str| !strict.contains(&id) && report.suppressed.iter().any(|s| s.check_id == id);
    let errors: Vec<ValidationIssue> = deterministic
        .iter()
        .filter(|(_, r)| r.result != Verdict::Pass)
        .filter(|(c, r)| !plan_not_an_error(c, r, report.validation.as_ref()))
        .filter(|(c, r)| !(suppressed(&c.id) && r.evidence_citations.is_empty()))
        .map(|(c, r)| ValidationIssue {
            check_id: c.id.clone(),
            message: message(&r.notes, &c.question),
        })
        .collect();
    ValidationRecord {
        status: if errors.is_empty() {
            ValidationStatus::Pass
        } else {
            ValidationStatus::Fail
        },
        checks_run: deterministic.len(),
        checks_passed: deterministic.len() - errors.len(),
        errors,
        inputs_fingerprint: report.integrity.inputs_fingerprint.clone(),
    }
}

/// A plan check the plan `validation` does not count as an error to repair: any plan
/// check when the validation passed, the advisory feasibility flags, and a check that
/// could not decide without reporting an error (a time budget with availability unknown).
fn plan_not_an_error(
    check: &crate::model::Check,
    result: &crate::model::CheckResult,
    validation: Option<&crate::model::Validation>,
) -> bool {
    const PLAN_KINDS: [&str; 6] = [
        "plan_schema",
        "time_budget",
        "constraints",
        "grounded_entities",
        "coverage",
        "feasibility",
    ];
    let kind = check.rules.as_ref().map_or("", |r| r.kind.as_str());
    let Some(v) = validation.filter(|_| PLAN_KINDS.contains(&kind)) else {
        return false;
    };
    if v.status == crate::model::ValidationStatus::Pass || kind == "feasibility" {
        return true;
    }
    result.result != Verdict::Fail && !v.errors.iter().any(|e| result.notes.contains(e.as_str()))
}

fn message(notes: &str, question: &str) -> String {
    let notes = notes.trim();
    if notes.is_empty() {
        format!("Fails: {}", question.trim())
    } else {
        notes.to_string()
    }
}

/// What the repair needs besides the document.
pub struct RepairContext<'a> {
    pub evaluator: Option<&'a Evaluator>,
    pub observer: Option<&'a dyn CallObserver>,
    pub cancel: &'a CancellationToken,
    /// A generation variant's repair: its model and parameters, and the cache that keeps
    /// answers by the exact request. `None`: the evaluator's own, never cached.
    pub generation: Option<(&'a GenParams, Option<&'a dyn ResponseCache>)>,
}

/// Validate, repair once when needed, re-validate.
pub async fn repair(
    playbook: &LoadedPlaybook,
    doc: &Document,
    cx: RepairContext<'_>,
) -> RepairOutcome {
    let (before_report, before) = validate(playbook, doc);
    let mut record = RepairRecord {
        status: RepairStatus::NotNeeded,
        before,
        after: None,
        evaluator: cx.evaluator.map(Evaluator::info),
        reason: None,
        repaired_sha256: None,
    };
    let mut outcome = RepairOutcome {
        record: RepairRecord {
            evaluator: None,
            ..record.clone()
        },
        before: before_report,
        candidate: None,
        after_validation: None,
    };
    if record.before.passed() {
        return outcome;
    }
    let Some(evaluator) = cx.evaluator else {
        record.status = RepairStatus::Failed;
        record.reason = Some(
            "no evaluator configured (set ANTHROPIC_API_KEY, or OPENAI_API_KEY with --provider openai)"
                .into(),
        );
        outcome.record = record;
        return outcome;
    };
    let errors: Vec<ValidationError> = record
        .before
        .errors
        .iter()
        .map(|e| ValidationError {
            check_id: e.check_id.clone(),
            message: e.message.clone(),
        })
        .collect();
    let request = prompt::build(&doc.inputs, &errors);
    let call = Call {
        prompt: &request,
        run: 1,
        canary: false,
        observer: cx.observer,
        cancel: cx.cancel,
    };
    let answer = match cx.generation {
        Some((params, cache)) => evaluator.repair_generated(call, params, cache).await,
        None => evaluator.repair_call(call).await.0,
    };
    let corrected = match answer {
        Ok(text) => text,
        Err(e) => {
            record.status = RepairStatus::Failed;
            record.reason = Some(format!("the evaluator gave no repair: {e}"));
            outcome.record = record;
            return outcome;
        }
    };
    // Control characters in an answer are never wanted in a legal text (nor on a terminal
    // showing the diff): newline and tab stay, the rest go.
    let corrected: String = corrected
        .chars()
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .collect();
    let candidate = splice(doc, &corrected);
    record.repaired_sha256 = Some(format!("sha256:{}", sha256_hex(candidate.as_bytes())));
    let after = match reparse(doc, &candidate) {
        Ok(repaired) => {
            let report = run_deterministic(playbook, &repaired);
            outcome.after_validation = report.validation.clone();
            // A suppression comment cannot clear an error the repair was asked to fix.
            let repairing: Vec<&str> = errors.iter().map(|e| e.check_id.as_str()).collect();
            let mut after = validation_ignoring(playbook, &report, &repairing);
            distrust_new_instructions(&outcome.before, &report, &mut after);
            distrust_new_suppressions(doc, &repaired, &mut after);
            after
        }
        Err(e) => {
            record.status = RepairStatus::Failed;
            record.reason = Some(format!("the repaired text is not a document: {e}"));
            outcome.record = record;
            return outcome;
        }
    };
    record.status = if after.passed() {
        RepairStatus::Repaired
    } else {
        RepairStatus::Rejected
    };
    record.after = Some(after);
    outcome.record = record;
    outcome.candidate = Some(candidate);
    outcome
}

/// Text addressed to the evaluator that the answer brought in (more than the original had)
/// is an error of the repaired text: it is not offered.
fn distrust_new_instructions(before: &Report, after_report: &Report, after: &mut ValidationRecord) {
    let seen = |span: &str| {
        before
            .untrusted_input_warnings
            .iter()
            .any(|w| w.span == span)
    };
    let new: Vec<&str> = after_report
        .untrusted_input_warnings
        .iter()
        .filter(|w| w.file.is_none() && !seen(&w.span))
        .map(|w| w.span.as_str())
        .collect();
    if let Some(first) = new.first() {
        after.errors.push(ValidationIssue {
            check_id: UNTRUSTED_INPUT.into(),
            message: format!(
                "The repaired text addresses the evaluator ({} span(s), e.g. \"{first}\").",
                new.len()
            ),
        });
        after.status = ValidationStatus::Fail;
    }
}

/// An answer that adds, removes or changes a suppression comment silences checks instead
/// of repairing the text: it is an error of the repaired text.
fn distrust_new_suppressions(doc: &Document, repaired: &Document, after: &mut ValidationRecord) {
    let before = crate::engine::suppress::comments(&doc.text);
    let now = crate::engine::suppress::comments(&repaired.text);
    if before != now {
        let added: Vec<&String> = now.iter().filter(|c| !before.contains(c)).collect();
        let example = added
            .first()
            .map(|c| format!(", e.g. {c}"))
            .unwrap_or_default();
        after.errors.push(ValidationIssue {
            check_id: SUPPRESSION.into(),
            message: format!(
                "The repaired text adds or changes suppression comments{example}; a repair fixes the text, it does not silence checks."
            ),
        });
        after.status = ValidationStatus::Fail;
    }
}

/// The validation error of a repaired text that adds or changes suppression comments.
pub const SUPPRESSION: &str = "suppression";

/// The validation error of a repaired text that addresses the evaluator.
pub const UNTRUSTED_INPUT: &str = "untrusted_input";

/// The corrected body in place of the old one; the front matter and the text around the
/// body stay as they were.
fn splice(doc: &Document, corrected: &str) -> String {
    let (start, end) = doc.body;
    let mut text = String::with_capacity(start + corrected.len() + 1);
    text.push_str(&doc.text[..start]);
    text.push_str(corrected.trim());
    let tail = &doc.text[end..];
    text.push_str(if tail.is_empty() { "\n" } else { tail });
    text
}

/// The repaired text as a document with the same companions. An answer that brings its
/// own front matter would change what is evaluated: it is not a repair.
fn reparse(doc: &Document, text: &str) -> Result<Document, String> {
    let mut repaired =
        Document::parse(text.to_string(), doc.path.as_deref()).map_err(|e| e.to_string())?;
    if repaired.body.0 != doc.body.0 || repaired.front_matter != doc.front_matter {
        return Err("the answer changes the front matter".into());
    }
    use crate::engine::document::CompanionRole;
    if let Some(s) = &doc.source {
        repaired.attach(CompanionRole::Source, s.clone());
    }
    if let Some(p) = &doc.prompt {
        repaired.attach(CompanionRole::Prompt, p.clone());
    }
    Ok(repaired)
}

/// The call id of the repair in the audit log and traces.
pub const CALL_ID: &str = REPAIR_CALL_ID;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playbook::builtin;

    const BODY: &str = "# Review\n\nThe supplier agreement caps liability at the fees paid in the preceding twelve months. The termination clause allows either party to end the contract on ninety days notice. The confidentiality obligations survive termination for five years, and the data protection schedule names the supplier as processor for the customer data it handles.\n";
    const SECTION: &str =
        "\n## Not checked / missing information\n\n- The data processing annex was not provided.\n";

    fn doc(text: &str) -> Document {
        Document::parse(text.to_string(), None).unwrap()
    }

    #[test]
    fn only_the_deterministic_checks_are_the_validation() {
        let playbook = builtin();
        let (report, v) = validate(&playbook, &doc(BODY));
        let deterministic = playbook
            .playbook
            .checks
            .iter()
            .filter(|c| c.detection_method.kind == DetectionType::Deterministic)
            .count();
        assert_eq!(v.checks_run, deterministic);
        assert_eq!(v.status, ValidationStatus::Fail);
        let ids: Vec<&str> = v.errors.iter().map(|e| e.check_id.as_str()).collect();
        assert_eq!(ids, ["unchecked_areas_disclosure"]);
        assert_eq!(v.inputs_fingerprint, report.integrity.inputs_fingerprint);
        let (_, v) = validate(&playbook, &doc(&format!("{BODY}{SECTION}")));
        assert!(v.passed(), "{v:?}");
        assert_eq!(v.checks_passed, v.checks_run);
    }

    #[test]
    fn a_suppressed_finding_is_not_an_error() {
        let text = format!("<!-- byop-disable-file unchecked_areas_disclosure -->\n{BODY}");
        let (_, v) = validate(&builtin(), &doc(&text));
        assert!(v.passed(), "{v:?}");
    }

    #[test]
    fn the_corrected_body_replaces_the_old_one_and_the_front_matter_stays() {
        let text = format!("---\nbyop:\n  playbook: ai_plugin_observability_v1\n---\n\n{BODY}\n\n");
        let d = doc(&text);
        let out = splice(&d, &format!("  {BODY}{SECTION}  "));
        assert!(
            out.starts_with("---\nbyop:\n  playbook: ai_plugin_observability_v1\n---\n\n# Review")
        );
        assert!(out.ends_with("was not provided.\n\n\n"), "{out:?}");
        let re = reparse(&d, &out).unwrap();
        assert_eq!(re.body.0, d.body.0);
        assert!(re.body_text().ends_with("was not provided."));
    }

    #[tokio::test]
    async fn without_an_evaluator_a_failing_text_is_a_failed_repair_and_a_passing_one_needs_none() {
        let cancel = CancellationToken::new();
        let cx = || RepairContext {
            evaluator: None,
            observer: None,
            cancel: &cancel,
            generation: None,
        };
        let out = repair(&builtin(), &doc(BODY), cx()).await;
        assert_eq!(out.record.status, RepairStatus::Failed);
        assert!(
            out.record
                .reason
                .as_deref()
                .unwrap()
                .contains("no evaluator")
        );
        assert!(out.repaired_text().is_none());
        let out = repair(&builtin(), &doc(&format!("{BODY}{SECTION}")), cx()).await;
        assert_eq!(out.record.status, RepairStatus::NotNeeded);
        assert!(out.record.after.is_none());
    }
}
