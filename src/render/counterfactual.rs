//! The counterfactual audit as text (one table, significant rows first, placebo rows
//! marked) and as a standalone HTML page (the table and an inline SVG forest plot of
//! the log odds, under the disclaimer banner).

use askama::Template;

use crate::model::DISCLAIMERS;
use crate::model::counterfactual::{Counterfactual, CounterfactualEnvelope, CueResult};

/// Significant rows first (smallest BH p first), then the rest in their order.
fn ordered(a: &Counterfactual) -> Vec<&CueResult> {
    let mut rows: Vec<&CueResult> = a.results.iter().collect();
    rows.sort_by(|x, y| {
        y.significant.cmp(&x.significant).then(if x.significant {
            x.bh_p.total_cmp(&y.bh_p)
        } else {
            std::cmp::Ordering::Equal
        })
    });
    rows
}

fn p(v: f64) -> String {
    if v < 1e-4 {
        format!("{v:.1e}")
    } else {
        format!("{v:.4}")
    }
}

pub fn json(a: &Counterfactual) -> String {
    let env = CounterfactualEnvelope {
        byop_counterfactual: a.clone(),
    };
    serde_json::to_string_pretty(&env).unwrap_or_default() + "\n"
}

pub fn text(a: &Counterfactual) -> String {
    let mut out = format!(
        "BYOP counterfactual audit · {} · {} {} · {}/{}\n  {}\n",
        a.document,
        a.playbook_id,
        a.playbook_version,
        a.evaluator.provider,
        a.evaluator.model,
        DISCLAIMERS.join(" ")
    );
    out += &format!(
        "  {} pairs per check × cue, seed {}, TOST margin ±{:.3}; {} call(s) made, {} from the cache\n  facts hash {}\n\n",
        a.pairs, a.seed, a.margin, a.calls.made, a.calls.cached, a.facts_hash
    );
    out += &format!(
        "{:<44} {:>4} {:>4} {:>4} {:>4} {:>6} {:>24} {:>8} {:>8} {:>12} {:>8}\n",
        "check × cue",
        "n",
        "excl",
        "b",
        "c",
        "flips",
        "log odds [95% CI]",
        "exact p",
        "BH p",
        "TOST",
        "RI p"
    );
    for r in ordered(a) {
        let name = format!(
            "{}{} × {}{}",
            if r.significant { "* " } else { "  " },
            r.check_id,
            r.cue,
            if r.placebo { " (placebo)" } else { "" }
        );
        out += &format!(
            "{:<44} {:>4} {:>4} {:>4} {:>4} {:>6.2} {:>24} {:>8} {:>8} {:>12} {:>8}\n",
            name,
            r.n_pairs,
            r.n_excluded,
            r.b,
            r.c,
            r.flip_rate,
            format!("{:+.2} [{:+.2}, {:+.2}]", r.log_odds, r.ci95[0], r.ci95[1]),
            p(r.mcnemar_exact_p),
            p(r.bh_p),
            r.tost.verdict,
            p(r.ri_p)
        );
    }
    out += "\n  * significant after Benjamini–Hochberg (p < 0.05). b: only the treatment failed; c: only the control failed.\n";
    out += &readings(a);
    for w in &a.warnings {
        out += &format!("  ! {w}\n");
    }
    out
}

/// The paired difference with its wild bootstrap interval, and corrected fail rates.
fn readings(a: &Counterfactual) -> String {
    let mut out = String::from(
        "\n  paired difference (treatment − control fail rate) [95% wild bootstrap]:\n",
    );
    for r in ordered(a) {
        let d = &r.paired_difference;
        out += &format!(
            "    {} × {}: {:+.3} [{:+.3}, {:+.3}]\n",
            r.check_id, r.cue, d.estimate, d.ci95[0], d.ci95[1]
        );
        if let Some(m) = &r.measurement {
            for (side, x) in [("control", &m.control), ("treatment", &m.treatment)] {
                out += &format!(
                    "      {side} fail rate {:.3} [{:.3}, {:.3}] → corrected {:.3} [{:.3}, {:.3}]\n",
                    x.raw,
                    x.raw_ci95[0],
                    x.raw_ci95[1],
                    x.corrected,
                    x.corrected_ci95[0],
                    x.corrected_ci95[1]
                );
            }
            out += &format!(
                "      corrected with α = {:.4}, β = {:.4}: {}\n",
                m.alpha, m.beta, m.source
            );
        }
    }
    out
}

/// One trial per line, each with the audit's id first.
pub fn jsonl(a: &Counterfactual) -> String {
    let mut out = String::new();
    for t in &a.trials {
        let mut line = serde_json::Map::new();
        line.insert("audit_id".into(), a.audit_id.clone().into());
        if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(t) {
            line.extend(fields);
        }
        out += &serde_json::Value::Object(line).to_string();
        out.push('\n');
    }
    out
}

#[derive(Template)]
#[template(path = "counterfactual.html")]
struct Page<'a> {
    a: &'a Counterfactual,
    rows: Vec<Row<'a>>,
    plot: Plot,
    json: String,
}

struct Row<'a> {
    class: &'static str,
    check_id: &'a str,
    cue: &'a str,
    n: u32,
    excluded: u32,
    b: u32,
    c: u32,
    flip: String,
    log_odds: String,
    exact: String,
    bh: String,
    tost: String,
    ri: String,
}

struct Point {
    label: String,
    y: i64,
    x: i64,
    x_lo: i64,
    x_hi: i64,
    color: &'static str,
}

struct Plot {
    width: i64,
    height: i64,
    axis_y: i64,
    zero: i64,
    lo_margin: i64,
    hi_margin: i64,
    x_left: i64,
    x_right: i64,
    min_label: String,
    max_label: String,
    points: Vec<Point>,
}

const LEFT: f64 = 300.0;
const PLOT_W: f64 = 420.0;
const ROW_H: i64 = 24;
/// The axis never goes past ±LIMIT (an interval beyond it is cut at the edge).
const LIMIT: f64 = 8.0;

fn plot(a: &Counterfactual, rows: &[&CueResult]) -> Plot {
    let mut lo = -a.margin * 1.5;
    let mut hi = a.margin * 1.5;
    for r in rows {
        lo = lo.min(r.ci95[0]);
        hi = hi.max(r.ci95[1]);
    }
    let (lo, hi) = (lo.max(-LIMIT), hi.min(LIMIT));
    let x = |v: f64| (LEFT + (v.clamp(lo, hi) - lo) / (hi - lo) * PLOT_W).round() as i64;
    let points = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Point {
            label: format!(
                "{} × {}{}",
                r.check_id,
                r.cue,
                if r.placebo { " (placebo)" } else { "" }
            ),
            y: 24 + i as i64 * ROW_H,
            x: x(r.log_odds),
            x_lo: x(r.ci95[0]),
            x_hi: x(r.ci95[1]),
            color: if r.significant {
                "#b3261e"
            } else if r.placebo {
                "#666"
            } else {
                "#1a5fb4"
            },
        })
        .collect::<Vec<_>>();
    let axis_y = 24 + rows.len() as i64 * ROW_H;
    Plot {
        width: (LEFT + PLOT_W) as i64 + 20,
        height: axis_y + 24,
        axis_y,
        zero: x(0.0),
        lo_margin: x(-a.margin),
        hi_margin: x(a.margin),
        x_left: LEFT as i64,
        x_right: (LEFT + PLOT_W) as i64,
        min_label: format!("{lo:+.1}"),
        max_label: format!("{hi:+.1}"),
        points,
    }
}

pub fn html(a: &Counterfactual) -> String {
    let ordered = ordered(a);
    let rows = ordered
        .iter()
        .map(|r| Row {
            class: match (r.significant, r.placebo) {
                (true, true) => "significant placebo",
                (true, false) => "significant",
                (false, true) => "placebo",
                (false, false) => "",
            },
            check_id: &r.check_id,
            cue: &r.cue,
            n: r.n_pairs,
            excluded: r.n_excluded,
            b: r.b,
            c: r.c,
            flip: format!("{:.2}", r.flip_rate),
            log_odds: format!("{:+.2} [{:+.2}, {:+.2}]", r.log_odds, r.ci95[0], r.ci95[1]),
            exact: p(r.mcnemar_exact_p),
            bh: p(r.bh_p),
            tost: format!("{} (p {})", r.tost.verdict, p(r.tost.p)),
            ri: p(r.ri_p),
        })
        .collect();
    Page {
        a,
        plot: plot(a, &ordered),
        rows,
        json: json(a),
    }
    .render()
    .unwrap_or_else(|e| format!("<!DOCTYPE html><p>could not render the audit: {e}</p>"))
}
