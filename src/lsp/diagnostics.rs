//! The view of a document → LSP diagnostics: one per located citation of each
//! failing or indeterminate check, plus text addressed to the evaluator.

use serde_json::json;
use tower_lsp_server::ls_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Uri,
};

use super::view::View;
use crate::engine::citations::relocate::is_located;
use crate::model::{CheckResult, Encoding, Severity, Verdict};
use crate::workspace::docs_pages::DocPages;

pub const SOURCE: &str = "byop";
/// Related locations (other pieces of an ellipsis quote) per diagnostic.
pub const MAX_RELATED: usize = 5;

pub fn severity(result: Verdict, sev: Severity) -> DiagnosticSeverity {
    match (result, sev) {
        (Verdict::Fail, Severity::High) => DiagnosticSeverity::ERROR,
        (Verdict::Fail, _) => DiagnosticSeverity::WARNING,
        _ => DiagnosticSeverity::INFORMATION,
    }
}

/// One diagnostic per located citation of each fail/indeterminate check, plus injection warnings.
pub fn to_lsp(view: &View, uri: &Uri, enc: Encoding, pages: &DocPages) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in view.results.iter().filter(|r| r.result != Verdict::Pass) {
        out.extend(findings(view, r, uri, enc, pages));
    }
    // Warnings in companions have no place in this text; the status message names them.
    for w in view
        .deterministic
        .untrusted_input_warnings
        .iter()
        .filter(|w| w.file.is_none())
    {
        let Some((s, e)) = w
            .byte_range
            .filter(|&(s, e)| s <= e && view.text.get(s..e).is_some())
        else {
            continue;
        };
        out.push(Diagnostic {
            range: view.range(s, e, enc),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String("prompt_injection".into())),
            source: Some(SOURCE.into()),
            message: format!(
                "Text addressed to the evaluator (prompt injection): {}",
                w.reason
            ),
            data: Some(
                json!({"check_id": "prompt_injection", "version": view.version, "span": true}),
            ),
            ..Default::default()
        });
    }
    out
}

/// A located citation's pieces, its own note, and where it is in the source companion.
type Quoted<'a> = (
    Vec<(usize, usize)>,
    &'a str,
    Option<&'a crate::model::SourceLocation>,
);

/// The diagnostics of one check that did not pass: one per located citation (its other
/// ellipsis pieces as related locations), else one on the first body line.
fn findings(
    view: &View,
    r: &CheckResult,
    uri: &Uri,
    enc: Encoding,
    pages: &DocPages,
) -> Vec<Diagnostic> {
    let check = view.check(&r.check_id);
    let message = if r.notes.trim().is_empty() {
        check.map(|c| c.question.clone()).unwrap_or_default()
    } else {
        r.notes.clone()
    };
    // The check's own documentation, else its page generated from the playbook.
    let code_description = check
        .and_then(|c| c.help_uri.clone().or_else(|| pages.uri(&c.id)))
        .and_then(|u| u.parse::<Uri>().ok())
        .map(|href| CodeDescription { href });
    // Each located citation: its pieces (one, or one per ellipsis piece), all in the text.
    // With its own note (the local rule's or the evaluator's word on that span).
    let quotes: Vec<Quoted> = r
        .evidence_citations
        .iter()
        .filter(|c| is_located(c))
        .filter_map(|c| {
            let pieces = if c.byte_ranges.len() > 1 {
                c.byte_ranges.clone()
            } else {
                vec![c.byte_range?]
            };
            let valid = |&(s, e): &(usize, usize)| s <= e && view.text.get(s..e).is_some();
            pieces
                .iter()
                .all(valid)
                .then_some((pieces, c.context.as_str(), c.source.as_ref()))
        })
        .collect();
    // `data` carries only what a code action needs to recompute the fix: which check,
    // which version, and whether the diagnostic sits on a span (its range says where).
    let base = |range: Range, at_span: bool, message: String, related| Diagnostic {
        range,
        severity: Some(severity(r.result, r.severity)),
        // A stable code (LC-00x, GROUNDING-*) when the check gives one, else the check id.
        code: Some(NumberOrString::String(
            r.code.clone().unwrap_or_else(|| r.check_id.clone()),
        )),
        code_description: code_description.clone(),
        source: Some(SOURCE.into()),
        message,
        related_information: related,
        tags: None,
        data: Some(if at_span {
            json!({"check_id": r.check_id, "version": view.version, "span": true})
        } else {
            json!({"check_id": r.check_id, "version": view.version})
        }),
    };
    // A finding's message is its own note when it has one; the check's notes (often a
    // paragraph) are in the hover. An unconfirmed candidate says so.
    let own_message = |note: &str| {
        let note = note.trim();
        match (note.is_empty(), r.result) {
            (true, _) => message.clone(),
            (false, Verdict::Fail) => note.to_string(),
            (false, _) => format!("{note} (unconfirmed)"),
        }
    };
    if quotes.is_empty() {
        // "Not evaluated" (no run, nothing cited) is not a finding: the status and the
        // first-line hover summary carry it, so the editor is not filled with noise.
        let observed = r.result == Verdict::Fail || !r.raw_runs.is_empty();
        if observed && !view.suppressed_checks.contains(&r.check_id) {
            return vec![base(
                view.first_body_line_range(enc),
                false,
                message.clone(),
                None,
            )];
        }
        return Vec::new();
    }
    let related_at = |(s, e): (usize, usize), message: String| DiagnosticRelatedInformation {
        location: Location::new(uri.clone(), view.range(s, e, enc)),
        message,
    };
    // The diagnostic sits on a quote's first piece; its other pieces are related
    // locations. The check's other quotes are diagnostics of their own: listing them again
    // on every one made a dense document's publish megabytes.
    quotes
        .iter()
        .map(|(pieces, note, source)| {
            let n = pieces.len();
            let own =
                pieces.iter().enumerate().skip(1).map(|(k, &p)| {
                    related_at(p, format!("piece {} of {n} of the same quote", k + 1))
                });
            // Where the claim is in the source companion (grounding checks) comes first.
            let related: Vec<DiagnosticRelatedInformation> = source
                .and_then(source_related)
                .into_iter()
                .chain(own)
                .take(MAX_RELATED)
                .collect();
            let first = pieces[0];
            base(
                view.range(first.0, first.1, enc),
                true,
                own_message(note),
                (!related.is_empty()).then_some(related),
            )
        })
        .collect()
}

/// The source companion's passage for a grounding finding, as related information.
fn source_related(src: &crate::model::SourceLocation) -> Option<DiagnosticRelatedInformation> {
    let path = std::path::absolute(&src.path).ok()?;
    let uri = crate::render::sarif::path_to_uri(&path.display().to_string())
        .parse::<Uri>()
        .ok()?;
    let r = src.range;
    let range = Range::new(
        Position::new(r.start.line, r.start.character),
        Position::new(r.end.line, r.end.character),
    );
    let words: String = src.excerpt.split_whitespace().collect::<Vec<_>>().join(" ");
    let clipped = match words.char_indices().nth(160) {
        Some((k, _)) => format!("{}…", &words[..k]),
        None => words,
    };
    Some(DiagnosticRelatedInformation {
        location: Location::new(uri, range),
        message: format!("the source: “{clipped}”"),
    })
}

/// A diagnostic for text that could not be parsed (front matter, companions).
pub fn error_at(pos: crate::model::text::Position, code: &str, message: String) -> Diagnostic {
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
