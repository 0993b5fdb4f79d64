//! Report → LSP diagnostics (SPEC §8), merging the keystroke-fast deterministic
//! report with the last evaluator report re-located in the current text.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::json;
use tower_lsp_server::ls_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Uri,
};

use super::code_actions;
use super::documents::Evaluation;
use crate::document::Document;
use crate::playbook::{LoadedPlaybook, Severity};
use crate::report::{CheckResult, Citation, Located, Mode, Report, Status, Verdict};
use crate::suppress::Suppressions;
use crate::text::{Encoding, LineIndex};

pub const SOURCE: &str = "byop";
/// Related locations per diagnostic: a check citing hundreds of spans must not make
/// every publish quadratic.
pub const MAX_RELATED: usize = 5;

/// The merged state of one document version: what diagnostics, hover and code actions show.
#[derive(Debug, Clone)]
pub struct View {
    pub version: i32,
    pub text: Arc<String>,
    pub line_index: LineIndex,
    pub playbook: LoadedPlaybook,
    /// One per playbook check; citations' `byte_range` are valid in `text`.
    pub results: Vec<CheckResult>,
    pub body: (usize, usize),
    pub body_start_line: u32,
    /// The deterministic report of this exact text.
    pub deterministic: Report,
    /// The evaluator report merged in, if any (its text may be older).
    pub evaluation: Option<Arc<Evaluation>>,
    /// Checks whose spanless findings are suppressed.
    pub suppressed_checks: HashSet<String>,
    pub status: Status,
    pub mode: Mode,
    pub consistency_score: f64,
    /// The evaluation was made on other text (edits since).
    pub edited_since_evaluation: bool,
}

impl View {
    /// The playbook's definition of a check.
    pub fn check(&self, check_id: &str) -> Option<&crate::playbook::Check> {
        self.playbook
            .playbook
            .checks
            .iter()
            .find(|c| c.id == check_id)
    }

    pub fn result(&self, check_id: &str) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.check_id == check_id)
    }

    pub fn range(&self, start: usize, end: usize, enc: Encoding) -> Range {
        lsp_range(self.line_index.range(&self.text, start, end, enc))
    }

    /// The first body line, where findings without a span sit.
    pub fn first_body_line(&self, enc: Encoding) -> Range {
        let line = self.body_start_line;
        let end = self.line_index.line_end(&self.text, line);
        let start = self.line_index.line_start(line);
        self.range(start, end, enc)
    }
}

pub fn lsp_range(r: crate::text::Range) -> Range {
    Range::new(
        Position::new(r.start.line, r.start.character),
        Position::new(r.end.line, r.end.character),
    )
}

pub fn text_position(p: Position) -> crate::text::Position {
    crate::text::Position {
        line: p.line,
        character: p.character,
    }
}

/// Merge: the evaluator decides the checks it evaluated (and report-level ones);
/// deterministic results cover the rest. Evaluator citations are re-located in
/// the current text; those whose text is gone are dropped.
pub fn merge(
    playbook: &LoadedPlaybook,
    doc: &Document,
    version: i32,
    deterministic: Report,
    evaluation: Option<Arc<Evaluation>>,
) -> View {
    let text = Arc::new(doc.text.clone());
    let suppressions = Suppressions::parse(&doc.text, &doc.line_index);
    let usable = evaluation.filter(|e| {
        e.report.execution_mode != Mode::Deterministic
            && e.report.integrity.playbook_logic_hash == playbook.logic_hash
    });
    let edited = usable.as_ref().is_some_and(|e| *e.text != doc.text);
    let mut results = Vec::with_capacity(deterministic.check_results.len());
    for det in &deterministic.check_results {
        let check = playbook
            .playbook
            .checks
            .iter()
            .find(|c| c.id == det.check_id);
        let evaluator_decides = check.is_some_and(|c| {
            c.needs_evaluator() || c.rules.as_ref().is_some_and(|r| r.is_report_level())
        });
        let from_eval = usable
            .as_ref()
            .filter(|_| evaluator_decides)
            .and_then(|e| e.report.check(&det.check_id).map(|r| (e, r)));
        let merged = match from_eval {
            Some((e, r)) => {
                let mut r = r.clone();
                let had_spans = r.evidence_citations.iter().any(is_located);
                if edited {
                    let shift = Shift::between(&e.text, &doc.text);
                    r.evidence_citations = r
                        .evidence_citations
                        .iter()
                        .filter_map(|c| relocate(c, &e.text, doc, &shift))
                        .collect();
                }
                r.evidence_citations
                    .retain(|c| !suppressed(c, &r.check_id, &suppressions));
                if had_spans && !r.evidence_citations.iter().any(is_located) && edited {
                    // Every quoted passage is gone: the local view is all that still holds.
                    det.clone()
                } else {
                    r
                }
            }
            None => det.clone(),
        };
        results.push(merged);
    }
    let mut suppressed_checks: HashSet<String> = deterministic
        .suppressed
        .iter()
        .map(|s| s.check_id.clone())
        .collect();
    for r in &results {
        if suppressions.file_wide(&r.check_id) {
            suppressed_checks.insert(r.check_id.clone());
        }
    }
    if let Some(e) = &usable {
        suppressed_checks.extend(e.report.suppressed.iter().map(|s| s.check_id.clone()));
    }
    let (status, mode, consistency_score) = match &usable {
        Some(e) => (
            e.report.summary.overall_status,
            e.report.execution_mode,
            e.report.variance_summary.consistency_score,
        ),
        None => (
            deterministic.summary.overall_status,
            deterministic.execution_mode,
            deterministic.variance_summary.consistency_score,
        ),
    };
    View {
        version,
        text,
        line_index: doc.line_index.clone(),
        playbook: playbook.clone(),
        results,
        body: doc.body,
        body_start_line: doc.body_start_line(),
        deterministic,
        evaluation: usable,
        suppressed_checks,
        status,
        mode,
        consistency_score,
        edited_since_evaluation: edited,
    }
}

fn is_located(c: &Citation) -> bool {
    c.located != Located::Unlocated && c.byte_range.is_some()
}

fn suppressed(c: &Citation, check_id: &str, s: &Suppressions) -> bool {
    match c.byte_range {
        Some(_) if is_located(c) => {
            let line = c.range.map(|r| r.start.line).unwrap_or(0);
            s.suppressed(check_id, line).is_some()
        }
        _ => s.file_wide(check_id),
    }
}

/// How the text changed: a shared prefix and suffix around the edited region.
#[derive(Debug, Clone, Copy)]
pub struct Shift {
    prefix: usize,
    suffix: usize,
    old_len: usize,
    new_len: usize,
}

impl Shift {
    pub fn between(old: &str, new: &str) -> Shift {
        let prefix = old
            .bytes()
            .zip(new.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let suffix = old
            .bytes()
            .rev()
            .zip(new.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count()
            .min(old.len() - prefix)
            .min(new.len() - prefix);
        Shift {
            prefix,
            suffix,
            old_len: old.len(),
            new_len: new.len(),
        }
    }

    /// Where an old offset most likely is now: offsets after the edit move with it.
    fn expected(&self, offset: usize) -> usize {
        if offset <= self.prefix {
            offset
        } else if offset >= self.old_len - self.suffix {
            offset + self.new_len - self.old_len
        } else {
            offset.min(self.new_len)
        }
    }
}

/// Find the exact text a citation pointed at in the new text, nearest where it should be.
pub fn relocate(c: &Citation, old_text: &str, doc: &Document, shift: &Shift) -> Option<Citation> {
    if !is_located(c) {
        return Some(c.clone());
    }
    let (s, e) = c.byte_range?;
    let needle = old_text.get(s..e)?;
    if needle.is_empty() {
        return None;
    }
    let expected = shift.expected(s);
    let (b0, b1) = doc.body;
    let body = &doc.text[b0..b1];
    let best = body
        .match_indices(needle)
        .map(|(i, _)| b0 + i)
        .min_by_key(|&i| i.abs_diff(expected))?;
    let end = best + needle.len();
    let mut moved = c.clone();
    moved.byte_range = Some((best, end));
    moved.range = Some(doc.range(best, end));
    moved.location = format!("line {}", doc.line_index.line_of(best) + 1);
    Some(moved)
}

pub fn severity(result: Verdict, sev: Severity) -> DiagnosticSeverity {
    match (result, sev) {
        (Verdict::Fail, Severity::High) => DiagnosticSeverity::ERROR,
        (Verdict::Fail, _) => DiagnosticSeverity::WARNING,
        _ => DiagnosticSeverity::INFORMATION,
    }
}

/// One diagnostic per located citation of each fail/indeterminate check, plus injection warnings.
pub fn to_lsp(view: &View, uri: &Uri, enc: Encoding) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in &view.results {
        if r.result == Verdict::Pass {
            continue;
        }
        let check = view.check(&r.check_id);
        let message = if r.notes.trim().is_empty() {
            check.map(|c| c.question.clone()).unwrap_or_default()
        } else {
            r.notes.clone()
        };
        // The check's own documentation, else its page generated from the playbook.
        let code_description = check
            .and_then(|c| {
                c.help_uri.clone().or_else(|| {
                    crate::docs::page_path(&view.playbook, &c.id)
                        .map(|p| format!("file://{}", p.display()))
                })
            })
            .and_then(|u| u.parse::<Uri>().ok())
            .map(|href| CodeDescription { href });
        let spans: Vec<(usize, usize)> = r
            .evidence_citations
            .iter()
            .filter(|c| is_located(c))
            .filter_map(|c| c.byte_range)
            .filter(|&(s, e)| s <= e && e <= view.text.len())
            .collect();
        let base = |range: Range, span: Option<(usize, usize)>, related| Diagnostic {
            range,
            severity: Some(severity(r.result, r.severity)),
            code: Some(NumberOrString::String(r.check_id.clone())),
            code_description: code_description.clone(),
            source: Some(SOURCE.into()),
            message: message.clone(),
            related_information: related,
            tags: None,
            data: Some(json!({
                "check_id": r.check_id,
                "result": r.result.as_str(),
                "span": span.map(|(s, e)| &view.text[s..e]),
                "version": view.version,
                "fixes": code_actions::fixes(view, r, span, enc),
            })),
        };
        if spans.is_empty() {
            // "Not evaluated" (no run, nothing cited) is not a finding: the status and the
            // first-line hover summary carry it, so the editor is not filled with noise.
            let observed = r.result == Verdict::Fail || !r.raw_runs.is_empty();
            if observed && !view.suppressed_checks.contains(&r.check_id) {
                out.push(base(view.first_body_line(enc), None, None));
            }
            continue;
        }
        for (i, &(s, e)) in spans.iter().enumerate() {
            let related: Vec<DiagnosticRelatedInformation> = spans
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .take(MAX_RELATED)
                .map(|(_, &(s2, e2))| DiagnosticRelatedInformation {
                    location: Location::new(uri.clone(), view.range(s2, e2, enc)),
                    message: format!("also cited for {}", r.check_id),
                })
                .collect();
            out.push(base(
                view.range(s, e, enc),
                Some((s, e)),
                (!related.is_empty()).then_some(related),
            ));
        }
    }
    for w in &view.deterministic.untrusted_input_warnings {
        let Some((s, e)) = w.byte_range else { continue };
        out.push(Diagnostic {
            range: view.range(s, e, enc),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String("prompt_injection".into())),
            source: Some(SOURCE.into()),
            message: format!("Text addressed to the evaluator (prompt injection): {}", w.reason),
            data: Some(json!({"check_id": "prompt_injection", "span": &view.text[s.min(e)..e], "version": view.version, "fixes": []})),
            ..Default::default()
        });
    }
    out
}

/// A diagnostic for text that could not be parsed (front matter, companions).
pub fn error_at(pos: crate::text::Position, code: &str, message: String) -> Diagnostic {
    let p = Position::new(pos.line, pos.character);
    Diagnostic {
        range: Range::new(p, p),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(code.into())),
        source: Some(SOURCE.into()),
        message,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Located;

    fn citation(doc: &Document, start: usize, end: usize) -> Citation {
        Citation {
            span: doc.text[start..end].to_string(),
            location: String::new(),
            located: Located::Exact,
            range: Some(doc.range(start, end)),
            byte_range: Some((start, end)),
            context: String::new(),
        }
    }

    #[test]
    fn relocate_follows_the_nearest_copy_and_drops_vanished_text() {
        let old = Document::parse("A is compliant. B.\n\nC is compliant.".into(), None).unwrap();
        let second = old.text.rfind("is compliant").unwrap();
        let c = citation(&old, second, second + "is compliant".len());
        let new = Document::parse(
            "New line.\nA is compliant. B.\n\nC is compliant.".into(),
            None,
        )
        .unwrap();
        let moved = relocate(&c, &old.text, &new, &Shift::between(&old.text, &new.text)).unwrap();
        let (s, e) = moved.byte_range.unwrap();
        assert_eq!(
            s,
            new.text.rfind("is compliant").unwrap(),
            "nearest copy, not the first"
        );
        assert_eq!(&new.text[s..e], "is compliant");
        assert_eq!(moved.range.unwrap().start.line, 3);
        let gone = Document::parse("A appears compliant.".into(), None).unwrap();
        assert!(relocate(&c, &old.text, &gone, &Shift::between(&old.text, &gone.text)).is_none());
    }

    #[test]
    fn severity_follows_result_and_check_severity() {
        assert_eq!(
            severity(Verdict::Fail, Severity::High),
            DiagnosticSeverity::ERROR
        );
        assert_eq!(
            severity(Verdict::Fail, Severity::Medium),
            DiagnosticSeverity::WARNING
        );
        assert_eq!(
            severity(Verdict::Fail, Severity::Low),
            DiagnosticSeverity::WARNING
        );
        assert_eq!(
            severity(Verdict::Indeterminate, Severity::High),
            DiagnosticSeverity::INFORMATION
        );
    }
}
