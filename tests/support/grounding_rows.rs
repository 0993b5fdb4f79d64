//! The harness of the evidence-contract sentence tables (`tests/evidence_drafted.rs`,
//! `tests/evidence_alarms.rs`): real corpus sentences against real source excerpts, each
//! row expecting a finding on its span or none.

use std::path::Path;

use byop::engine::playbook::{LoadedPlaybook, resolve};
use byop::engine::rules::{Companions, RuleContext, RuleOutcome};

pub struct Row {
    pub cause: &'static str,
    pub check: &'static str,
    pub source: &'static str,
    pub output: &'static str,
    pub span: &'static str,
    pub flagged: bool,
}

fn pb() -> LoadedPlaybook {
    resolve("evidence_contract_v1", Path::new(".")).expect("built-in evidence playbook")
}

fn apply(pb: &LoadedPlaybook, check: &str, text: &str, source: &str) -> RuleOutcome {
    let i = pb
        .playbook
        .checks
        .iter()
        .position(|c| c.id == check)
        .unwrap_or_else(|| panic!("no check {check}"));
    let allowed = Vec::new();
    let cx = RuleContext::new(text, (0, text.len())).with_companions(Companions {
        source: Some(source),
        prompt: None,
        evidence: None,
        evidence_unreadable: false,
        as_of: None,
        today: Some("2026-01-01"),
        allowed_origins: &allowed,
    });
    pb.compiled[i]
        .as_ref()
        .expect("rule")
        .apply(&cx)
        .expect("document rule")
}

/// Every row: a finding on its span exactly when it expects one.
pub fn assert_rows(rows: &[Row]) {
    let pb = pb();
    let mut failures = Vec::new();
    for row in rows {
        let o = apply(&pb, row.check, row.output, row.source);
        let spans: Vec<&str> = o.hits.iter().map(|h| &row.output[h.start..h.end]).collect();
        let hit = spans.iter().any(|s| {
            s.trim_matches(['*', '"', '“', '”', ' ']) == row.span
                || s.eq_ignore_ascii_case(row.span)
        });
        if hit != row.flagged {
            failures.push(format!(
                "{}: {} expected {} for {:?}, flagged {:?} ({})",
                row.cause,
                row.check,
                if row.flagged { "a finding" } else { "none" },
                row.span,
                spans,
                o.notes
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A row without a finding must not pass merely because nothing was looked at: its claims
/// were examined, or skipped as the output's own text.
pub fn assert_rows_without_a_finding_examine_or_skip(rows: &[Row]) {
    let pb = pb();
    for row in rows.iter().filter(|r| !r.flagged) {
        let o = apply(&pb, row.check, row.output, row.source);
        assert!(
            !o.notes
                .starts_with("0 claim(s) about the source examined, 0 grounded, 0")
                || !o.notes.contains(" 0 passage(s) not read"),
            "{}: nothing examined or skipped: {}",
            row.cause,
            o.notes
        );
    }
}
