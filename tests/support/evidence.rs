//! The evidence-contract harness: one grounding check of `evidence_contract_v1` run on a
//! text with its companions (`tests/evidence_contract.rs`), and the sentence tables of
//! `tests/evidence_drafted.rs` and `tests/evidence_alarms.rs` (real corpus sentences against
//! real source excerpts, each row expecting a finding on its span or none).

use std::path::Path;
use std::process::Output;

use byop::engine::playbook::resolve;
use byop::engine::rules::{Companions, RuleContext, RuleOutcome};

use super::workspace::Ws;

/// The arguments of `byop check` on `file` with the evidence playbook, deterministic checks
/// only, never failing on findings, reported in `format`.
pub fn check_args<'a>(format: &'a str, file: &'a str) -> Vec<&'a str> {
    vec![
        "check",
        "--mode",
        "deterministic",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        format,
        "--fail-on",
        "never",
        file,
    ]
}

/// `byop check` of `file` in `ws` with the evidence playbook (see `check_args`).
pub fn check_in(ws: &Ws, format: &str, file: &str) -> Output {
    ws.run(&check_args(format, file))
}

pub struct Row {
    pub cause: &'static str,
    pub check: &'static str,
    pub source: &'static str,
    pub output: &'static str,
    pub span: &'static str,
    pub flagged: bool,
}

/// What a check sees beside the text.
#[derive(Default, Clone)]
pub struct Inputs<'a> {
    pub source: Option<&'a str>,
    pub prompt: Option<&'a str>,
    pub evidence: Option<&'a str>,
    pub as_of: Option<&'a str>,
    pub allowed: Vec<String>,
}

/// The outcome of `check`'s rule on `text` (as of 2026-01-01).
pub fn apply(check: &str, text: &str, inp: &Inputs) -> RuleOutcome {
    let pb = resolve("evidence_contract_v1", Path::new(".")).expect("built-in evidence playbook");
    let i = pb
        .playbook
        .checks
        .iter()
        .position(|c| c.id == check)
        .unwrap_or_else(|| panic!("no check {check}"));
    let cx = RuleContext::new(text, (0, text.len())).with_companions(Companions {
        source: inp.source,
        prompt: inp.prompt,
        evidence: inp.evidence,
        evidence_unreadable: false,
        as_of: inp.as_of,
        today: Some("2026-01-01"),
        allowed_origins: &inp.allowed,
        source_companion: None,
    });
    pb.compiled[i]
        .as_ref()
        .expect("rule")
        .apply(&cx)
        .expect("document rule")
}

/// The texts of the outcome's hits.
pub fn flagged<'t>(o: &RuleOutcome, text: &'t str) -> Vec<&'t str> {
    o.hits.iter().map(|h| &text[h.start..h.end]).collect()
}

fn apply_row(row: &Row) -> RuleOutcome {
    let inputs = Inputs {
        source: Some(row.source),
        ..Default::default()
    };
    apply(row.check, row.output, &inputs)
}

/// Every row: a finding on its span exactly when it expects one.
pub fn assert_rows(rows: &[Row]) {
    let mut failures = Vec::new();
    for row in rows {
        let o = apply_row(row);
        let spans = flagged(&o, row.output);
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
    for row in rows.iter().filter(|r| !r.flagged) {
        let o = apply_row(row);
        let c = &o
            .grounding
            .as_ref()
            .expect("a grounding check counts its claims")
            .counts;
        assert!(
            c.examined + c.set_aside > 0,
            "{}: nothing examined or skipped: {}",
            row.cause,
            o.notes
        );
    }
}

/// What a row expects of its span: a finding, a grounded claim, a set-aside reason, or no
/// claim read at all (nothing examined, nothing set aside on it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expect {
    Flagged,
    Grounded,
    SetAside(&'static str),
    Unread,
}

/// A row of a table read both ways with the outcome expected of its span.
pub struct ReasonRow {
    pub cause: &'static str,
    pub check: &'static str,
    pub source: &'static str,
    pub output: &'static str,
    pub span: &'static str,
    pub expect: Expect,
}

/// What the check did with the row's span.
fn outcome(row: &ReasonRow) -> Expect {
    let o = apply(
        row.check,
        row.output,
        &Inputs {
            source: Some(row.source),
            ..Default::default()
        },
    );
    let at = row.output.find(row.span).expect("span in output");
    let (s, e) = (at, at + row.span.len());
    let overlaps = |a: usize, b: usize| a < e && s < b;
    if o.hits.iter().any(|h| overlaps(h.start, h.end)) {
        return Expect::Flagged;
    }
    let g = o
        .grounding
        .as_ref()
        .expect("a grounding check counts its claims");
    if let Some(x) = g.set_aside.iter().find(|x| overlaps(x.start, x.end)) {
        return Expect::SetAside(x.reason.as_str());
    }
    if g.counts.examined == 0 {
        return Expect::Unread;
    }
    assert!(
        g.counts.grounded > 0,
        "{}: neither flagged, set aside nor grounded ({}; flagged {:?})",
        row.cause,
        o.notes,
        flagged(&o, row.output)
    );
    Expect::Grounded
}

/// Every row: its span flagged, grounded or set aside with the reason it expects.
pub fn assert_reason_rows(rows: &[ReasonRow]) {
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|row| {
            let got = outcome(row);
            (got != row.expect).then(|| {
                format!(
                    "{}: {} on {:?}: expected {:?}, got {:?}",
                    row.cause, row.check, row.span, row.expect, got
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
