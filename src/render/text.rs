//! Terminal rendering: a report per document, the history table.

use anstyle::{AnsiColor, Style};

use crate::model::{
    CheckResult, DISCLAIMERS, HistoryRow, Located, Report, Status, Validation, ValidationStatus,
    Verdict,
};

fn paint(on: bool, style: Style, s: &str) -> String {
    if on {
        format!("{}{s}{}", style.render(), style.render_reset())
    } else {
        s.to_string()
    }
}

fn status_style(s: Status) -> Style {
    let c = match s {
        Status::Alert => AnsiColor::Red,
        Status::Review => AnsiColor::Yellow,
        Status::Observe => AnsiColor::Blue,
        Status::Stable => AnsiColor::Green,
    };
    Style::new().bold().fg_color(Some(c.into()))
}

fn verdict_label(v: Verdict) -> (&'static str, Style) {
    match v {
        Verdict::Pass => (
            "✓ pass ",
            Style::new().fg_color(Some(AnsiColor::Green.into())),
        ),
        Verdict::Fail => (
            "✗ fail ",
            Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
        ),
        Verdict::Indeterminate => (
            "? indet",
            Style::new().fg_color(Some(AnsiColor::Yellow.into())),
        ),
    }
}

/// The report for a terminal; every string in it escaped (see `terminal`).
pub fn report(r: &Report, color: bool) -> String {
    report_with(r, color, false)
}

/// The report for a terminal; `verbose` also lists every claim a grounding check set aside,
/// with its place and reason.
pub fn report_with(r: &Report, color: bool, verbose: bool) -> String {
    let r = &super::terminal::escaped(r);
    let dim = Style::new().dimmed();
    let bold = Style::new().bold();
    let mut out = header(r, color);
    // The disclaimers come first, before any result, as in every view of a report.
    for d in DISCLAIMERS {
        out += &format!("  {}\n", paint(color, bold, d));
    }
    for c in &r.check_results {
        out += &check_lines(c, color);
        if verbose {
            out += &skipped_lines(c, color);
        }
    }
    if let Some(v) = &r.validation {
        out += &validation_lines(v, color);
    }
    for w in &r.untrusted_input_warnings {
        let line = w.range.map(|rg| rg.start.line + 1).unwrap_or(0);
        let magenta = Style::new()
            .bold()
            .fg_color(Some(AnsiColor::Magenta.into()));
        let place = w
            .file
            .as_deref()
            .map(|f| format!("{f} "))
            .unwrap_or_default();
        out += &format!(
            "  {} {place}line {line}: {} “{}”\n",
            paint(color, magenta, "! injection"),
            w.reason,
            clip(&w.span, 80)
        );
    }
    if !r.suppressed.is_empty() {
        let n = format!("{} finding(s) suppressed by comments", r.suppressed.len());
        out += &format!("  {}\n", paint(color, dim, &n));
    }
    out += &format!(
        "  consistency {:.2} over {} run(s) · report {}\n",
        r.variance_summary.consistency_score, r.variance_summary.num_runs, r.report_id
    );
    for d in &r.variance_summary.divergent_findings {
        out += &format!("  divergent: {d}\n");
    }
    if !r.summary.recommended_next_steps.is_empty() {
        out += &format!("  {}\n", paint(color, bold, "Next steps:"));
        for s in &r.summary.recommended_next_steps {
            out += &format!("   - {s}\n");
        }
    }
    out
}

/// The plan `validation` object: the plan's status, its errors, its metrics on one line.
fn validation_lines(v: &Validation, color: bool) -> String {
    let (word, style) = match v.status {
        ValidationStatus::Pass => ("PASS (recommended)", verdict_label(Verdict::Pass).1),
        ValidationStatus::Fail => ("FAIL (rejected)", verdict_label(Verdict::Fail).1),
    };
    let mut out = format!(
        "  validation: {}
",
        paint(color, style, word)
    );
    for e in &v.errors {
        out += &format!(
            "   - {e}
"
        );
    }
    let m = &v.metrics;
    let metrics = format!(
        "constraints {}/{} violated · time {} planned / {} available, overflow {} · hallucinations {} · feasibility flags {} · coverage {:.2}",
        m.constraints_violated,
        m.constraints_declared,
        m.time_planned_minutes,
        m.time_available_minutes,
        m.time_overflow_minutes,
        m.hallucination_flags,
        m.human_feasibility_flags,
        m.context_coverage_ratio
    );
    out += &format!("  {}\n", paint(color, Style::new().dimmed(), &metrics));
    out
}

/// `path  STATUS  mode · playbook version · time`
fn header(r: &Report, color: bool) -> String {
    let status = r.summary.overall_status;
    let chosen = r
        .playbook_source
        .map(|s| format!(" (chosen by {})", s.as_str()))
        .unwrap_or_default();
    let about = format!(
        "{} mode · {} {}{chosen} · {}",
        r.execution_mode.as_str(),
        r.playbook_id,
        r.playbook_version,
        r.timestamp
    );
    format!(
        "{}  {}  {}\n",
        paint(
            color,
            Style::new().bold(),
            &super::terminal::escape_name(&r.document.path)
        ),
        paint(color, status_style(status), status.as_str()),
        paint(color, Style::new().dimmed(), &about)
    )
}

/// Every claim a grounding check set aside or could not judge: `line:col kind “text” — reason`.
fn skipped_lines(c: &CheckResult, color: bool) -> String {
    let dim = Style::new().dimmed();
    let mut out = String::new();
    for s in &c.skipped_claims {
        let at = format!("{}:{}", s.line, s.column);
        out += &format!(
            "      {} set aside {} “{}” — {} ({})\n",
            paint(color, dim, &format!("{at:>9}")),
            s.kind.as_str(),
            clip(&s.text, 80),
            s.reason.as_str(),
            s.reason.describe()
        );
    }
    out
}

/// One line per check and, when it did not pass, up to eight of its citations.
fn check_lines(c: &CheckResult, color: bool) -> String {
    const SHOWN: usize = 8;
    let dim = Style::new().dimmed();
    let (label, style) = verdict_label(c.result);
    let mut out = format!(
        "  {} {:<6} {:<28} conf {:.2}  {}\n",
        paint(color, style, label),
        c.severity.as_str(),
        c.check_id,
        c.per_check_confidence,
        c.notes
    );
    if c.result == Verdict::Pass {
        return out;
    }
    for cit in c.evidence_citations.iter().take(SHOWN) {
        let loc = match (cit.located, cit.range) {
            (Located::Unlocated, _) | (_, None) => "unlocated".to_string(),
            (_, Some(rg)) => format!("{}:{}", rg.start.line + 1, rg.start.character + 1),
        };
        // A misquote is shown where it points, but named: it proves nothing.
        let misquote = if cit.located == Located::Fuzzy {
            "  (misquote: differs from the text)"
        } else {
            ""
        };
        out += &format!(
            "      {} “{}”{}\n",
            paint(color, dim, &format!("{loc:>9}")),
            clip(&cit.span, 100),
            misquote
        );
    }
    if c.evidence_citations.len() > SHOWN {
        let more = format!("… {} more", c.evidence_citations.len() - SHOWN);
        out += &format!("      {}\n", paint(color, dim, &more));
    }
    out
}

pub fn history(rows: &[HistoryRow], with_document: bool) -> String {
    if rows.is_empty() {
        return "No reports yet.\n".into();
    }
    let mut out = format!(
        "{:<20}  {:<8}  {:<13}  {:<7}  {:>11}  {:<16}{}\n",
        "timestamp",
        "playbook",
        "mode",
        "status",
        "consistency",
        "report id",
        if with_document { "  document" } else { "" }
    );
    for r in rows {
        out += &format!(
            "{:<20}  {:<8}  {:<13}  {:<7}  {:>11.2}  {:<16}{}{}\n",
            r.timestamp,
            r.playbook_version,
            r.mode.as_str(),
            r.status.as_str(),
            r.consistency_score,
            r.report_id,
            match (r.is_baseline, &r.rerun_id) {
                (true, _) => " (baseline)".to_string(),
                (false, Some(id)) => format!(" (rerun {id}, unchanged)"),
                (false, None) => String::new(),
            },
            if with_document {
                format!("  {}", r.document)
            } else {
                String::new()
            }
        );
    }
    out
}

fn clip(s: &str, max: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        one_line.chars().take(max).collect::<String>() + "…"
    }
}
