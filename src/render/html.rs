//! Self-contained HTML report (`--format html`).
//!
//! Everything from the document or the evaluator goes through askama's HTML
//! escaping; the page loads nothing (a CSP forbids it) and its only script is
//! ours, allowed by a per-page nonce, so injected markup stays inert text.

use askama::Template;

use super::diff;
use crate::engine::compare::{self, Comparison};
use crate::model::{
    CheckResult, Citation, Integrity, Located, Mode, Report, ReportEnvelope, STABILITY_THRESHOLD,
    VARIANCE_NOTE, VarianceSummary, Verdict,
};

#[derive(Template)]
#[template(path = "report.html")]
struct ReportPage<'a> {
    r: &'a Report,
    nonce: String,
    status_class: &'static str,
    evaluator: Option<String>,
    cards: Vec<Card<'a>>,
    segments: Vec<Segment<'a>>,
    located_count: usize,
    /// Full mode only: one run per check has no variance to show.
    variance: Option<VarianceView<'a>>,
    drift: Option<DriftView>,
    integrity: &'a Integrity,
    json: String,
    json_filename: String,
}

struct Card<'a> {
    id: &'a str,
    result: &'static str,
    severity: &'static str,
    confidence: String,
    /// Shown in full mode only, where it is meaningful (several runs).
    consistency: Option<String>,
    detection_type: &'a str,
    notes: &'a str,
    citations: Vec<CiteView<'a>>,
    runs: Vec<RunView<'a>>,
    assumptions: &'a [String],
}

struct CiteView<'a> {
    /// Global citation number; anchors `cite-N` (card) and `span-N` (document).
    n: usize,
    span: &'a str,
    location: &'a str,
    located: &'static str,
    highlighted: bool,
}

struct RunView<'a> {
    run: u32,
    result: &'static str,
    confidence: String,
    notes: &'a str,
    error: Option<&'a str>,
    cached: bool,
}

/// A stretch of the document covered by the same set of citations.
struct Segment<'a> {
    text: &'a str,
    /// Outermost first; each becomes a `<mark>` around `text`.
    marks: Vec<Mark<'a>>,
    /// Citations ending here: a back-link to their card follows the text.
    refs: Vec<usize>,
}

struct Mark<'a> {
    n: usize,
    check_id: &'a str,
    /// The first segment of a citation carries its `id` and counts as its highlight.
    first: bool,
}

struct VarianceView<'a> {
    num_runs: u32,
    score: String,
    score_pct: String,
    threshold: String,
    threshold_pct: String,
    below_threshold: bool,
    divergent: &'a [String],
    note: &'static str,
}

struct DriftView {
    comparable: bool,
    not_comparable_because: Vec<String>,
    baseline_status: &'static str,
    baseline_class: &'static str,
    baseline_label: String,
    current_status: &'static str,
    current_class: &'static str,
    delta: String,
    changed: Vec<(String, String, String)>,
}

fn verdict_str(v: Verdict) -> &'static str {
    v.as_str()
}

fn pct(x: f64) -> String {
    format!("{:.1}", (x.clamp(0.0, 1.0) * 100.0))
}

/// A citation the page can highlight: non-empty, in bounds, on char boundaries.
fn highlight_range(c: &Citation, text: &str) -> Option<(usize, usize)> {
    let (s, e) = c.byte_range?;
    let ok = c.located != Located::Unlocated
        && s < e
        && e <= text.len()
        && text.is_char_boundary(s)
        && text.is_char_boundary(e);
    ok.then_some((s, e))
}

/// Split the document at every citation boundary so overlapping and nested
/// citations become properly nested `<mark>`s, never crossing tags.
fn segments<'a>(text: &'a str, spans: &[(usize, usize, usize, &'a str)]) -> Vec<Segment<'a>> {
    let mut cuts: Vec<usize> = vec![0, text.len()];
    for &(_, s, e, _) in spans {
        cuts.extend([s, e]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2)
        .map(|w| {
            let (b0, b1) = (w[0], w[1]);
            let mut covering: Vec<_> = spans
                .iter()
                .filter(|&&(_, s, e, _)| s <= b0 && e >= b1)
                .collect();
            // Outer (earlier start, later end) first, so nesting reads naturally.
            covering.sort_by_key(|&&(n, s, e, _)| (s, std::cmp::Reverse(e), n));
            Segment {
                text: &text[b0..b1],
                marks: covering
                    .iter()
                    .map(|&&(n, s, _, id)| Mark {
                        n,
                        check_id: id,
                        first: s == b0,
                    })
                    .collect(),
                refs: spans
                    .iter()
                    .filter(|&&(_, _, e, _)| e == b1)
                    .map(|&(n, ..)| n)
                    .collect(),
            }
        })
        .collect()
}

fn drift_view(c: &Comparison) -> DriftView {
    DriftView {
        comparable: c.comparable,
        not_comparable_because: c.not_comparable_because.clone(),
        baseline_status: c.status.from.as_str(),
        baseline_class: diff::status_class(c.status.from),
        baseline_label: format!("{} {}", c.a.report_id, c.a.timestamp)
            .trim()
            .to_string(),
        current_status: c.status.to.as_str(),
        current_class: diff::status_class(c.status.to),
        delta: diff::signed(c.consistency_delta),
        changed: c
            .checks
            .iter()
            .filter(|k| k.result_changed || k.a.is_none() || k.b.is_none())
            .map(|k| {
                let show = |s: &Option<compare::CheckSide>| {
                    s.as_ref().map_or("-", |s| s.result.as_str()).to_string()
                };
                (k.check_id.clone(), show(&k.a), show(&k.b))
            })
            .collect(),
    }
}

/// A random token for the CSP nonce (not a secret; it only has to be unguessable by the document).
fn nonce() -> String {
    (0..4)
        .map(|_| format!("{:08x}", fastrand::u32(..)))
        .collect()
}

/// The report as one self-contained HTML page. `document_text` is the whole
/// file the citations' byte ranges point into.
pub fn report(report: &Report, document_text: &str, baseline: Option<&Report>) -> String {
    let mut n = 0;
    let mut spans = Vec::new();
    let cards = report
        .check_results
        .iter()
        .map(|c| card(report, c, document_text, &mut n, &mut spans))
        .collect();
    let envelope = ReportEnvelope {
        byop_report: report,
    };
    let id = if report.report_id.is_empty() {
        "report"
    } else {
        &report.report_id
    };
    ReportPage {
        r: report,
        nonce: nonce(),
        status_class: diff::status_class(report.summary.overall_status),
        evaluator: report
            .evaluator
            .as_ref()
            .map(|e| format!("{} / {}", e.provider, e.model)),
        located_count: spans.len(),
        segments: segments(document_text, &spans),
        cards,
        variance: (report.execution_mode == Mode::Full)
            .then(|| variance_view(&report.variance_summary)),
        drift: baseline
            .filter(|b| report.execution_mode.may_drift_from(b.execution_mode))
            .map(|b| drift_view(&compare::compare(b, report))),
        integrity: &report.integrity,
        json: serde_json::to_string_pretty(&envelope).expect("a report always serializes"),
        json_filename: format!("byop-{id}.json"),
    }
    .render()
    .expect("report template renders")
}

/// One check's card; its citations get global numbers (`n`), the highlighted ones a span.
fn card<'a>(
    report: &Report,
    c: &'a CheckResult,
    document_text: &str,
    n: &mut usize,
    spans: &mut Vec<(usize, usize, usize, &'a str)>,
) -> Card<'a> {
    let citations = c
        .evidence_citations
        .iter()
        .map(|cit| {
            *n += 1;
            let range = highlight_range(cit, document_text);
            if let Some((s, e)) = range {
                spans.push((*n, s, e, c.check_id.as_str()));
            }
            CiteView {
                n: *n,
                span: &cit.span,
                location: &cit.location,
                located: cit.located.as_str(),
                highlighted: range.is_some(),
            }
        })
        .collect();
    Card {
        id: &c.check_id,
        result: verdict_str(c.result),
        severity: c.severity.as_str(),
        confidence: format!("{:.2}", c.per_check_confidence),
        consistency: (report.execution_mode == Mode::Full)
            .then(|| format!("{:.2}", c.per_check_consistency)),
        detection_type: c.detection_type.as_str(),
        notes: &c.notes,
        citations,
        runs: c
            .raw_runs
            .iter()
            .map(|r| RunView {
                run: r.run,
                result: verdict_str(r.result),
                confidence: format!("{:.2}", r.confidence),
                notes: &r.notes,
                error: r.error.map(|e| e.as_str()),
                cached: r.cached,
            })
            .collect(),
        assumptions: &c.assumptions,
    }
}

fn variance_view(v: &VarianceSummary) -> VarianceView<'_> {
    VarianceView {
        num_runs: v.num_runs,
        score: format!("{:.2}", v.consistency_score),
        score_pct: pct(v.consistency_score),
        threshold: format!("{STABILITY_THRESHOLD:.2}"),
        threshold_pct: pct(STABILITY_THRESHOLD),
        below_threshold: v.consistency_score <= STABILITY_THRESHOLD,
        divergent: &v.divergent_findings,
        note: VARIANCE_NOTE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, [(citation, first)], refs) per segment.
    type Flat = (String, Vec<(usize, bool)>, Vec<usize>);

    fn flat(segs: &[Segment]) -> Vec<Flat> {
        segs.iter()
            .map(|s| {
                (
                    s.text.to_string(),
                    s.marks.iter().map(|m| (m.n, m.first)).collect(),
                    s.refs.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn overlapping_citations_split_into_properly_nested_segments() {
        // 1 = "abcd", 2 = "cdef" (crossing), 3 = "b" (nested in 1).
        let text = "abcdefg";
        let spans = [(1, 0, 4, "x"), (2, 2, 6, "y"), (3, 1, 2, "z")];
        let got = flat(&segments(text, &spans));
        let want = vec![
            ("a".to_string(), vec![(1, true)], vec![]),
            ("b".to_string(), vec![(1, false), (3, true)], vec![3]),
            ("cd".to_string(), vec![(1, false), (2, true)], vec![1]),
            ("ef".to_string(), vec![(2, false)], vec![2]),
            ("g".to_string(), vec![], vec![]),
        ];
        assert_eq!(got, want);
        // Every citation has exactly one first segment.
        let firsts: usize = got.iter().map(|s| s.1.iter().filter(|m| m.1).count()).sum();
        assert_eq!(firsts, 3);
    }

    #[test]
    fn out_of_bounds_and_split_char_ranges_are_not_highlighted() {
        let text = "é and more";
        let cit = |r: Option<(usize, usize)>, located| Citation {
            source: None,
            span: "x".into(),
            location: "line 1".into(),
            located,
            range: None,
            byte_range: r,
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context: String::new(),
        };
        assert_eq!(
            highlight_range(&cit(Some((0, 2)), Located::Exact), text),
            Some((0, 2))
        );
        assert_eq!(
            highlight_range(&cit(Some((1, 3)), Located::Exact), text),
            None
        ); // inside 'é'
        assert_eq!(
            highlight_range(&cit(Some((3, 99)), Located::Exact), text),
            None
        );
        assert_eq!(
            highlight_range(&cit(Some((3, 3)), Located::Exact), text),
            None
        );
        assert_eq!(
            highlight_range(&cit(Some((0, 2)), Located::Unlocated), text),
            None
        );
        assert_eq!(highlight_range(&cit(None, Located::Fuzzy), text), None);
    }
}
