//! A comparison of two reports as text, JSON or HTML (`byop diff`).

use askama::Template;

use crate::engine::compare::{CheckSide, Comparison, ReportSide};
use crate::model::{Status, Verdict};

/// `+0.25`, `-0.10`, `0.00`: a signed delta for people.
pub fn signed(delta: f64) -> String {
    let rounded = (delta * 100.0).round() / 100.0;
    if rounded > 0.0 {
        format!("+{rounded:.2}")
    } else if rounded < 0.0 {
        format!("{rounded:.2}")
    } else {
        "0.00".to_string()
    }
}

fn side_cell(s: &Option<CheckSide>) -> String {
    match s {
        Some(s) => format!("{} ({:.2})", s.result.as_str(), s.consistency),
        None => "-".to_string(),
    }
}

fn report_label(s: &ReportSide) -> String {
    let id = if s.report_id.is_empty() {
        "(unsaved)"
    } else {
        &s.report_id
    };
    format!(
        "{id} {} {} [{}]",
        s.timestamp,
        s.overall_status.as_str(),
        s.execution_mode
    )
}

/// Plain text (no colour codes; the CLI adds colour).
pub fn render_text(c: &Comparison) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        // Padded table cells must not leave trailing blanks.
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(format!("A: {}", report_label(&c.a)));
    line(format!("B: {}", report_label(&c.b)));
    if c.comparable {
        line("Comparable: yes (same playbook logic hash and inputs fingerprint)".into());
    } else {
        line("Comparable: NO".into());
        for why in &c.not_comparable_because {
            line(format!("  - {why}"));
        }
    }
    let status_note = if c.status.changed {
        "changed"
    } else {
        "unchanged"
    };
    line(format!(
        "Status: {} -> {} ({status_note})",
        c.status.from.as_str(),
        c.status.to.as_str()
    ));
    line(format!(
        "Consistency: {:.2} -> {:.2} ({})",
        c.a.consistency_score,
        c.b.consistency_score,
        signed(c.consistency_delta)
    ));
    line(String::new());
    let width = c
        .checks
        .iter()
        .map(|k| k.check_id.len())
        .max()
        .unwrap_or(5)
        .max(5);
    line(format!("  {:width$}  {:24}  {:24}", "check", "A", "B"));
    for k in &c.checks {
        let mark = if k.changed() { "*" } else { " " };
        line(format!(
            "{mark} {:width$}  {:24}  {:24}",
            k.check_id,
            side_cell(&k.a),
            side_cell(&k.b)
        ));
    }
    if c.changed_checks.is_empty() {
        line("\nNo check changed.".into());
    } else {
        line(format!(
            "\nChanged checks (*): {}",
            c.changed_checks.join(", ")
        ));
    }
    for (title, sign, list) in [
        ("Citations added", '+', &c.citations_added),
        ("Citations gone", '-', &c.citations_removed),
    ] {
        if !list.is_empty() {
            line(format!("\n{title}:"));
            for cit in list {
                line(format!("  {sign} [{}] \"{}\"", cit.check_id, cit.span));
            }
        }
    }
    out
}

pub fn render_json(c: &Comparison) -> String {
    serde_json::to_string_pretty(c).expect("a comparison always serializes")
}

#[derive(Template)]
#[template(path = "compare.html")]
struct ComparePage<'a> {
    c: &'a Comparison,
    delta: String,
    from_class: &'static str,
    to_class: &'static str,
    a_label: String,
    b_label: String,
    rows: Vec<CompareRow<'a>>,
    json: String,
}

struct CompareRow<'a> {
    id: &'a str,
    a: String,
    b: String,
    a_class: &'static str,
    b_class: &'static str,
    changed: bool,
}

fn verdict_class(s: &Option<CheckSide>) -> &'static str {
    match s.as_ref().map(|s| s.result) {
        Some(Verdict::Pass) => "r-pass",
        Some(Verdict::Fail) => "r-fail",
        Some(Verdict::Indeterminate) => "r-indeterminate",
        None => "r-none",
    }
}

pub fn status_class(s: Status) -> &'static str {
    match s {
        Status::Alert => "s-alert",
        Status::Review => "s-review",
        Status::Observe => "s-observe",
        Status::Stable => "s-stable",
    }
}

/// A self-contained HTML page, same style as the report.
pub fn render_html(c: &Comparison) -> String {
    let rows = c
        .checks
        .iter()
        .map(|k| CompareRow {
            id: &k.check_id,
            a: side_cell(&k.a),
            b: side_cell(&k.b),
            a_class: verdict_class(&k.a),
            b_class: verdict_class(&k.b),
            changed: k.changed(),
        })
        .collect();
    ComparePage {
        c,
        delta: signed(c.consistency_delta),
        from_class: status_class(c.status.from),
        to_class: status_class(c.status.to),
        a_label: report_label(&c.a),
        b_label: report_label(&c.b),
        rows,
        json: render_json(c),
    }
    .render()
    .expect("compare template renders")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_delta_has_a_sign_and_no_negative_zero() {
        assert_eq!(signed(0.25), "+0.25");
        assert_eq!(signed(-0.1), "-0.10");
        assert_eq!(signed(-0.0001), "0.00");
        assert_eq!(signed(0.0), "0.00");
    }
}
