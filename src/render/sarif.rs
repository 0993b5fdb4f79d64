//! SARIF 2.1.0 (`--format sarif`) for code scanning.
//!
//! One run per distinct playbook, one rule per check, one result per cited
//! span of a failing or indeterminate check. Columns are UTF-16 code units
//! (the SARIF default, stated explicitly) because citations carry LSP ranges.

use serde_json::{Value, json};

use crate::engine::document::Document;
use crate::engine::fixes::{self, FixTarget};
use crate::model::integrity::sha256_hex;
use crate::model::{Check, Playbook, Severity};
use crate::model::{CheckResult, Citation, Report, Verdict};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// Key of our `partialFingerprints` entry; bump the suffix if the hashing changes.
pub const FINGERPRINT_KEY: &str = "byopFinding/v1";

fn level(result: Verdict, severity: Severity) -> Option<&'static str> {
    match (result, severity) {
        (Verdict::Pass, _) => None,
        (Verdict::Indeterminate, _) => Some("note"),
        (Verdict::Fail, Severity::High) => Some("error"),
        (Verdict::Fail, Severity::Medium | Severity::Low) => Some("warning"),
    }
}

fn default_level(severity: Severity) -> &'static str {
    level(Verdict::Fail, severity).unwrap_or("warning")
}

/// A stable identity for a finding: the check and the quoted text (whitespace-normalized),
/// not its position, so the finding survives edits around it.
pub fn fingerprint(check_id: &str, span: &str) -> String {
    let normalized = span.split_whitespace().collect::<Vec<_>>().join(" ");
    sha256_hex(format!("{check_id}\n{normalized}").as_bytes())
}

/// A URI reference for the document path: relative paths stay relative
/// (code scanning resolves them against the repository), absolute ones become `file://`.
pub fn path_to_uri(path: &str) -> String {
    if path.contains("://") || path.starts_with("untitled:") {
        return path.to_string();
    }
    if path.is_empty() {
        return "untitled".to_string();
    }
    let path = path.replace('\\', "/");
    let mut encoded = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            encoded.push(b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    if encoded.starts_with('/') {
        format!("file://{encoded}")
    } else if encoded.as_bytes().get(1) == Some(&b'%') && path.as_bytes().get(1) == Some(&b':') {
        // Windows drive letter, `C:/x` → `file:///C:/x`.
        format!("file:///{}:{}", &path[..1], &encoded[4..])
    } else {
        encoded
    }
}

fn rule(check: &crate::model::Check) -> Value {
    let mut rule = json!({
        "id": check.id,
        "shortDescription": { "text": check.question },
        "fullDescription": { "text": check.detection_method.instructions },
        "defaultConfiguration": { "level": default_level(check.severity) },
        "properties": {
            "severity": check.severity.as_str(),
            "detection_type": check.detection_method.kind.as_str(),
            "tags": ["byop", check.severity.as_str()],
        },
    });
    if let Some(uri) = &check.help_uri {
        rule["helpUri"] = json!(uri);
    }
    rule
}

fn message(check: &CheckResult, citation: Option<&Citation>) -> String {
    let mut text = format!("{} ({}): ", check.check_id, check.result.as_str());
    text.push_str(if check.notes.trim().is_empty() {
        "no notes"
    } else {
        check.notes.trim()
    });
    if let Some(c) = citation {
        text.push_str(&format!(" Cited: \"{}\"", c.span));
    }
    text
}

fn location(uri: &str, citation: Option<&Citation>) -> Value {
    let mut physical = json!({ "artifactLocation": { "uri": uri } });
    if let Some(range) = citation.and_then(|c| c.range) {
        physical["region"] = json!({
            "startLine": range.start.line + 1,
            "startColumn": range.start.character + 1,
            "endLine": range.end.line + 1,
            "endColumn": range.end.character + 1,
            "snippet": { "text": citation.map(|c| c.span.as_str()).unwrap_or_default() },
        });
    }
    json!({ "physicalLocation": physical })
}

/// Where a grounding finding's claim is (or should be) in the source companion.
fn source_location(src: &crate::model::SourceLocation) -> Value {
    let r = src.range;
    json!({
        "id": 0,
        "message": { "text": format!("source: {}", src.excerpt) },
        "physicalLocation": {
            "artifactLocation": { "uri": path_to_uri(&src.path) },
            "region": {
                "startLine": r.start.line + 1,
                "startColumn": r.start.character + 1,
                "endLine": r.end.line + 1,
                "endColumn": r.end.character + 1,
                "snippet": { "text": src.excerpt },
            },
        },
    })
}

/// The rule of text addressed to the evaluator (not a playbook check).
pub const INJECTION_RULE: &str = "prompt_injection";

fn injection_rule() -> Value {
    json!({
        "id": INJECTION_RULE,
        "shortDescription": { "text": "Text in the document or a companion addresses the evaluator (possible prompt injection)." },
        "fullDescription": { "text": "byop fences the document as data, scans it for text that instructs an evaluator, and lets no evaluator pass stand when it finds any: the affected checks are indeterminate and the status is at least REVIEW." },
        "defaultConfiguration": { "level": "warning" },
        "properties": { "tags": ["byop", "security"] },
    })
}

/// One result per passage addressed to the evaluator, in the document or a companion.
fn injection_results(report: &Report, rule_index: Option<usize>, out: &mut Vec<Value>) {
    let doc_uri = path_to_uri(&report.document.path);
    for w in &report.untrusted_input_warnings {
        let uri = w
            .file
            .as_deref()
            .map(path_to_uri)
            .unwrap_or_else(|| doc_uri.clone());
        let mut physical = json!({ "artifactLocation": { "uri": uri } });
        if let Some(r) = w.range {
            physical["region"] = json!({
                "startLine": r.start.line + 1,
                "startColumn": r.start.character + 1,
                "endLine": r.end.line + 1,
                "endColumn": r.end.character + 1,
                "snippet": { "text": w.span },
            });
        }
        let mut result = json!({
            "ruleId": INJECTION_RULE,
            "level": "warning",
            "message": { "text": format!("{}: \"{}\"", w.reason, w.span) },
            "locations": [{ "physicalLocation": physical }],
            "partialFingerprints": { FINGERPRINT_KEY: fingerprint(INJECTION_RULE, &w.span) },
            "properties": { "report_id": report.report_id },
        });
        if let Some(i) = rule_index {
            result["ruleIndex"] = json!(i);
        }
        out.push(result);
    }
}

/// A report to render, with its playbook and, for `fixes`, the document it was made from.
pub struct SarifItem<'a> {
    pub report: &'a Report,
    pub playbook: &'a Playbook,
    pub document: Option<&'a Document>,
}

/// The check's own fix for a finding, as a SARIF `fix` (1-based UTF-16 regions).
fn sarif_fix(
    uri: &str,
    doc: &Document,
    check: &Check,
    result: &CheckResult,
    span: Option<(usize, usize)>,
) -> Option<Value> {
    let fix = fixes::for_finding(&FixTarget::of(doc), Some(check), result, span)
        .into_iter()
        .find(|f| f.preferred)?;
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            let r = doc.range(e.start, e.end);
            json!({
                "deletedRegion": {
                    "startLine": r.start.line + 1,
                    "startColumn": r.start.character + 1,
                    "endLine": r.end.line + 1,
                    "endColumn": r.end.character + 1,
                },
                "insertedContent": { "text": e.new_text },
            })
        })
        .collect();
    Some(json!({
        "description": { "text": fix.title },
        "artifactChanges": [{ "artifactLocation": { "uri": uri }, "replacements": replacements }],
    }))
}

fn results_for(item: &SarifItem, rule_index: &dyn Fn(&str) -> Option<usize>, out: &mut Vec<Value>) {
    let report = item.report;
    // Fixes only for the text the report was made from.
    let doc = item
        .document
        .filter(|d| d.fingerprint() == report.integrity.inputs_fingerprint);
    let uri = path_to_uri(&report.document.path);
    for check in &report.check_results {
        let Some(level) = level(check.result, check.severity) else {
            continue;
        };
        // A check without citations is still a finding, at file level.
        let citations: Vec<Option<&Citation>> = if check.evidence_citations.is_empty() {
            vec![None]
        } else {
            check.evidence_citations.iter().map(Some).collect()
        };
        for citation in citations {
            let located = citation
                .filter(|c| c.range.is_some() && c.located != crate::model::Located::Unlocated);
            let mut result = json!({
                "ruleId": check.check_id,
                "level": level,
                "message": { "text": message(check, citation) },
                "locations": [location(&uri, located)],
                "partialFingerprints": {
                    FINGERPRINT_KEY: fingerprint(&check.check_id, citation.map_or("", |c| c.span.as_str())),
                },
                "properties": {
                    "result": check.result.as_str(),
                    "severity": check.severity.as_str(),
                    "confidence": check.per_check_confidence,
                    "consistency": check.per_check_consistency,
                    "located": citation.map_or("none", |c| c.located.as_str()),
                    "report_id": report.report_id,
                },
            });
            if let Some(code) = &check.code {
                result["properties"]["code"] = json!(code);
            }
            if let Some(src) = citation.and_then(|c| c.source.as_ref()) {
                result["relatedLocations"] = json!([source_location(src)]);
            }
            if let Some(i) = rule_index(&check.check_id) {
                result["ruleIndex"] = json!(i);
            }
            let definition = item.playbook.checks.iter().find(|c| c.id == check.check_id);
            if let (Some(doc), Some(def)) = (doc, definition)
                && let Some(fix) =
                    sarif_fix(&uri, doc, def, check, located.and_then(|c| c.byte_range))
            {
                result["fixes"] = json!([fix]);
            }
            out.push(result);
        }
    }
}

/// One SARIF log for several (report, playbook) pairs, without fixes.
pub fn render(items: &[(&Report, &Playbook)]) -> String {
    let items: Vec<SarifItem> = items
        .iter()
        .map(|(report, playbook)| SarifItem {
            report,
            playbook,
            document: None,
        })
        .collect();
    render_items(&items)
}

/// One SARIF log; the document URI is `report.document.path`. Results carry the checks'
/// fixes where the item has its document.
pub fn render_items(items: &[SarifItem]) -> String {
    // Group by playbook (id, version, logic hash) keeping first-seen order: one run each.
    let mut groups: Vec<(&Playbook, String, Vec<&SarifItem>)> = Vec::new();
    for item in items {
        let hash = crate::model::integrity::playbook_logic_hash(item.playbook);
        match groups.iter_mut().find(|(_, h, _)| *h == hash) {
            Some(group) => group.2.push(item),
            None => groups.push((item.playbook, hash, vec![item])),
        }
    }
    let runs: Vec<Value> = groups
        .iter()
        .map(|(playbook, hash, items)| {
            let rule_index = |id: &str| playbook.checks.iter().position(|c| c.id == id);
            let injected = items
                .iter()
                .any(|i| !i.report.untrusted_input_warnings.is_empty());
            let mut rules: Vec<Value> = playbook.checks.iter().map(rule).collect();
            let injection_index = injected.then(|| {
                rules.push(injection_rule());
                rules.len() - 1
            });
            let mut results = Vec::new();
            for item in items {
                results_for(item, &rule_index, &mut results);
                injection_results(item.report, injection_index, &mut results);
            }
            let reports: Vec<&Report> = items.iter().map(|i| i.report).collect();
            json!({
                "tool": { "driver": {
                    "name": "byop",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                    "properties": {
                        "playbook_id": playbook.id,
                        "playbook_version": playbook.version,
                        "playbook_logic_hash": hash,
                    },
                }},
                "columnKind": "utf16CodeUnits",
                "results": results,
                "properties": {
                    "reports": reports.iter().map(|r| json!({
                        "report_id": r.report_id,
                        "document": r.document.path,
                        "overall_status": r.summary.overall_status.as_str(),
                        "execution_mode": r.execution_mode.as_str(),
                        "timestamp": r.timestamp,
                        "inputs_fingerprint": r.integrity.inputs_fingerprint,
                    })).collect::<Vec<_>>(),
                    "disclaimers": crate::model::DISCLAIMERS,
                },
            })
        })
        .collect();
    let log = json!({ "$schema": SCHEMA_URI, "version": "2.1.0", "runs": runs });
    serde_json::to_string_pretty(&log).expect("SARIF value serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_result_and_severity() {
        assert_eq!(level(Verdict::Fail, Severity::High), Some("error"));
        assert_eq!(level(Verdict::Fail, Severity::Medium), Some("warning"));
        assert_eq!(level(Verdict::Fail, Severity::Low), Some("warning"));
        assert_eq!(level(Verdict::Indeterminate, Severity::High), Some("note"));
        assert_eq!(level(Verdict::Pass, Severity::High), None);
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(path_to_uri("docs/review one.md"), "docs/review%20one.md");
        assert_eq!(path_to_uri("/tmp/a#b.md"), "file:///tmp/a%23b.md");
        assert_eq!(path_to_uri(r"C:\work\r.md"), "file:///C:/work/r.md");
        assert_eq!(path_to_uri("file:///x.md"), "file:///x.md");
        assert_eq!(path_to_uri("résumé.md"), "r%C3%A9sum%C3%A9.md");
    }

    #[test]
    fn fingerprint_ignores_whitespace_but_not_check_or_text() {
        let f = fingerprint("certainty_language", "is  fully\ncompliant");
        assert_eq!(f, fingerprint("certainty_language", "is fully compliant"));
        assert_ne!(f, fingerprint("escalation_signal", "is fully compliant"));
        assert_ne!(f, fingerprint("certainty_language", "is compliant"));
    }
}
