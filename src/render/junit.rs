//! JUnit XML (`--format junit`) for CI test views.
//!
//! One `<testsuite>` per document, one `<testcase>` per check: fail →
//! `<failure>`, indeterminate → `<skipped>` (not a failure: it is expected).
//! quick-xml does the escaping.

use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::model::{CheckResult, Report, Verdict};

/// Checks with this result; text addressed to the evaluator counts as one more failure.
fn count(report: &Report, v: Verdict) -> usize {
    let checks = report
        .check_results
        .iter()
        .filter(|c| c.result == v)
        .count();
    let injection = usize::from(v == Verdict::Fail && !report.untrusted_input_warnings.is_empty());
    checks + injection
}

fn cases(report: &Report) -> usize {
    report.check_results.len() + usize::from(!report.untrusted_input_warnings.is_empty())
}

/// The warnings as one failed test case: a CI view must show them.
fn write_injection_case(w: &mut Writer<Vec<u8>>, report: &Report) -> io::Result<()> {
    let warnings = &report.untrusted_input_warnings;
    if warnings.is_empty() {
        return Ok(());
    }
    let text: String = warnings
        .iter()
        .map(|x| {
            let place = x.file.as_deref().unwrap_or("document");
            let line = x.range.map(|r| r.start.line + 1).unwrap_or(0);
            format!("{place} line {line}: {}: \"{}\"\n", x.reason, x.span)
        })
        .collect();
    let message = format!(
        "{} passage(s) address the evaluator (possible prompt injection); no evaluator pass stands",
        warnings.len()
    );
    w.create_element("testcase")
        .with_attributes([
            ("name", "prompt_injection"),
            ("classname", report.playbook_id.as_str()),
        ])
        .write_inner_content(|w| {
            w.create_element("failure")
                .with_attributes([("message", message.as_str()), ("type", "warning")])
                .write_text_content(BytesText::new(&text))?;
            Ok(())
        })?;
    Ok(())
}

fn failure_text(check: &CheckResult) -> String {
    let mut text = String::new();
    if !check.notes.trim().is_empty() {
        text.push_str(check.notes.trim());
        text.push('\n');
    }
    text.push_str(&format!(
        "severity: {}, confidence: {:.2}, consistency: {:.2}\n",
        check.severity.as_str(),
        check.per_check_confidence,
        check.per_check_consistency
    ));
    if !check.evidence_citations.is_empty() {
        text.push_str("citations:\n");
        for c in &check.evidence_citations {
            text.push_str(&format!("  - \"{}\" ({})\n", c.span, c.location));
        }
    }
    text
}

fn first_line(s: &str, fallback: &str) -> String {
    let line = s.trim().lines().next().unwrap_or("").trim();
    if line.is_empty() {
        fallback.to_string()
    } else {
        line.to_string()
    }
}

fn write_suite(w: &mut Writer<Vec<u8>>, report: &Report) -> io::Result<()> {
    let name = if report.document.path.is_empty() {
        "document"
    } else {
        &report.document.path
    };
    let tests = cases(report).to_string();
    let failures = count(report, Verdict::Fail).to_string();
    let skipped = count(report, Verdict::Indeterminate).to_string();
    w.create_element("testsuite")
        .with_attributes([
            ("name", name),
            ("tests", &tests),
            ("failures", &failures),
            ("errors", "0"),
            ("skipped", &skipped),
            ("timestamp", &report.timestamp),
        ])
        .write_inner_content(|w| {
            w.create_element("properties").write_inner_content(|w| {
                let props = [
                    ("playbook_id", report.playbook_id.as_str()),
                    ("playbook_version", &report.playbook_version),
                    ("execution_mode", report.execution_mode.as_str()),
                    ("overall_status", report.summary.overall_status.as_str()),
                    ("report_id", &report.report_id),
                    ("inputs_fingerprint", &report.integrity.inputs_fingerprint),
                ];
                for (name, value) in props {
                    w.create_element("property")
                        .with_attributes([("name", name), ("value", value)])
                        .write_empty()?;
                }
                Ok(())
            })?;
            for check in &report.check_results {
                let case = w.create_element("testcase").with_attributes([
                    ("name", check.check_id.as_str()),
                    ("classname", &report.playbook_id),
                ]);
                match check.result {
                    Verdict::Pass => {
                        case.write_empty()?;
                    }
                    Verdict::Fail => {
                        case.write_inner_content(|w| {
                            w.create_element("failure")
                                .with_attributes([
                                    (
                                        "message",
                                        coded(check, first_line(&check.notes, "check failed"))
                                            .as_str(),
                                    ),
                                    ("type", check.severity.as_str()),
                                ])
                                .write_text_content(BytesText::new(&failure_text(check)))?;
                            Ok(())
                        })?;
                    }
                    Verdict::Indeterminate => {
                        case.write_inner_content(|w| {
                            let reason = coded(
                                check,
                                first_line(
                                    &check.notes,
                                    "indeterminate: no determination was possible",
                                ),
                            );
                            w.create_element("skipped")
                                .with_attribute(("message", reason.as_str()))
                                .write_empty()?;
                            Ok(())
                        })?;
                    }
                }
            }
            write_injection_case(w, report)
        })?;
    Ok(())
}

/// XML 1.0 forbids most control characters even as references: every string of the
/// reports is escaped first (`terminal::escaped`), so the document stays well-formed.
pub fn render(reports: &[&Report]) -> String {
    let escaped: Vec<Report> = reports
        .iter()
        .map(|r| super::terminal::escaped(*r))
        .collect();
    let reports: Vec<&Report> = escaped.iter().collect();
    let reports = reports.as_slice();
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let total = |v: Option<Verdict>| {
        reports
            .iter()
            .map(|r| v.map_or(cases(r), |v| count(r, v)))
            .sum::<usize>()
            .to_string()
    };
    let (tests, failures, skipped) = (
        total(None),
        total(Some(Verdict::Fail)),
        total(Some(Verdict::Indeterminate)),
    );
    let written: io::Result<()> = (|| {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        w.create_element("testsuites")
            .with_attributes([
                ("name", "byop"),
                ("tests", tests.as_str()),
                ("failures", &failures),
                ("errors", "0"),
                ("skipped", &skipped),
            ])
            .write_inner_content(|w| {
                for report in reports {
                    write_suite(w, report)?;
                }
                Ok(())
            })?;
        Ok(())
    })();
    written.expect("writing XML to memory cannot fail");
    let mut xml = String::from_utf8(w.into_inner()).expect("quick-xml writes the UTF-8 we give it");
    xml.push('\n');
    xml
}

/// A message with the check's stable code in front: `[GROUNDING-QUOTE] …`.
fn coded(check: &CheckResult, message: String) -> String {
    match &check.code {
        Some(code) => format!("[{code}] {message}"),
        None => message,
    }
}
