//! A dataset comparison (`byop dataset`) as text and as one self-contained HTML page
//! with an inline SVG bar chart per metric (no scripts, no network).

use crate::engine::dataset::{DatasetSummary, VariantStats};

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn yes_no(passed: bool) -> &'static str {
    if passed { "pass" } else { "FAIL" }
}

/// Whether the playbook validates plans (a plan `validation` object and its metrics).
fn has_plan_metrics(s: &DatasetSummary) -> bool {
    s.variants.iter().any(|v| v.mean_coverage.is_some())
}

pub fn text(s: &DatasetSummary) -> String {
    let mut out = format!("Dataset · playbook {}\n\n", s.playbook_id);
    if !has_plan_metrics(s) {
        out += &format!(
            "{:<16} {:>7} {:>9} {:>14}\n",
            "variant", "outputs", "pass rate", "indeterminate"
        );
        for v in &s.variants {
            out += &format!(
                "{:<16} {:>7} {:>9} {:>14}\n",
                v.variant,
                v.outputs,
                pct(v.pass_rate),
                v.indeterminate
            );
        }
        out += "\n(pass: no check failed; indeterminate: outputs with a check not decided)\n";
        return out + &tables(s);
    }
    out += &format!(
        "{:<16} {:>7} {:>9} {:>11} {:>9} {:>14} {:>9} {:>11}\n",
        "variant",
        "outputs",
        "pass rate",
        "violations",
        "overflow",
        "hallucinations",
        "coverage",
        "mismatches"
    );
    for v in &s.variants {
        out += &format!(
            "{:<16} {:>7} {:>9} {:>11} {:>9} {:>14} {:>9} {:>11}\n",
            v.variant,
            v.outputs,
            pct(v.pass_rate),
            v.constraint_violations,
            pct(v.overflow_frequency),
            v.hallucination_flags,
            v.mean_coverage
                .map(|c| format!("{c:.2}"))
                .unwrap_or_else(|| "-".into()),
            v.confidence_mismatches
        );
    }
    out += "\n(violations: constraints violated; overflow: share of outputs over the available time; mismatches: confidence high on a failed output)\n";
    out += &failure_modes(s);
    out + &tables(s)
}

/// The known failure modes per variant, counted over its plan outputs.
fn failure_modes(s: &DatasetSummary) -> String {
    let opt = |c: Option<f64>| c.map_or_else(|| "-".into(), |c| format!("{c:.2}"));
    let mut out = format!(
        "\nFailure modes (plans):\n  {:<16} {:>6} {:>10} {:>14} {:>11} {:>9} {:>11} {:>15}\n",
        "variant",
        "plans",
        "time hall.",
        "overconfident",
        "impossible",
        "collapse",
        "long notes",
        "coverage s/l"
    );
    for v in &s.variants {
        let Some(f) = &v.failure_modes else { continue };
        out += &format!(
            "  {:<16} {:>6} {:>10} {:>14} {:>11} {:>9} {:>11} {:>15}\n",
            v.variant,
            f.plans,
            f.time_hallucination,
            f.overconfidence,
            f.impossible_schedule,
            f.context_collapse,
            f.long_notes,
            format!(
                "{}/{}",
                opt(f.coverage_short_notes),
                opt(f.coverage_long_notes)
            ),
        );
    }
    out += "  (time hall.: planned past the available time or the day's stop; overconfident: confidence high, validation failed; impossible: a human-feasibility flag; collapse: long notes covered below 0.7; coverage s/l: mean coverage on short/long notes)\n";
    let names: Vec<&str> = s.variants.iter().map(|v| v.variant.as_str()).collect();
    for row in &s.scenarios {
        for (cell, n) in row.cells.iter().zip(&names) {
            if let Some(d) = cell.as_ref().and_then(|c| c.declared_variant.as_deref())
                && d != *n
            {
                out += &format!(
                    "  note: {}/{n} declares variant `{d}` in its front matter\n",
                    row.scenario
                );
            }
        }
    }
    out
}

/// Generation columns per variant: repairs and tokens (only when a variant was generated).
fn generation(s: &DatasetSummary) -> String {
    if s.variants.iter().all(|v| v.generated == 0) {
        return String::new();
    }
    let opt = |n: Option<u64>| n.map_or_else(|| "-".into(), |n| n.to_string());
    let mut out = format!(
        "\nGenerated:\n  {:<16} {:>9} {:>9} {:>9} {:>9} {:>13} {:>13} {:>10}\n",
        "variant",
        "generated",
        "repairs",
        "repaired",
        "rejected",
        "input tokens",
        "output tokens",
        "cost"
    );
    for v in s.variants.iter().filter(|v| v.generated > 0) {
        out += &format!(
            "  {:<16} {:>9} {:>9} {:>9} {:>9} {:>13} {:>13} {:>10}\n",
            v.variant,
            v.generated,
            v.repair_attempted,
            v.repaired,
            v.rejected,
            opt(v.input_tokens),
            opt(v.output_tokens),
            v.cost_usd
                .map_or_else(|| "-".into(), |c| format!("${c:.4}"))
        );
    }
    out + "  (repairs: repair calls made; rejected: failing after the strategy's validation and repair; cost: from --input-price/--output-price)\n"
}

/// The generation columns of `generation`, as an HTML table (only when a variant was generated).
fn generation_html(s: &DatasetSummary) -> String {
    if s.variants.iter().all(|v| v.generated == 0) {
        return String::new();
    }
    let opt = |n: Option<u64>| n.map_or_else(|| "-".into(), |n| n.to_string());
    let mut out = "<h2>Generated</h2><table><tr><th>variant</th><th>generated</th><th>repairs</th><th>repaired</th><th>rejected</th><th>input tokens</th><th>output tokens</th><th>cost</th></tr>".to_string();
    for v in s.variants.iter().filter(|v| v.generated > 0) {
        out += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&v.variant),
            v.generated,
            v.repair_attempted,
            v.repaired,
            v.rejected,
            opt(v.input_tokens),
            opt(v.output_tokens),
            v.cost_usd
                .map_or_else(|| "-".into(), |c| format!("${c:.4}"))
        );
    }
    out + "</table><p>repairs: repair calls made; rejected: failing after the strategy's validation and repair; cost: from --input-price/--output-price (US dollars per million tokens).</p>"
}

/// Per-check fail rates, the per-scenario table and the paired comparison.
fn tables(s: &DatasetSummary) -> String {
    let mut out = generation(s);
    out += "\nFail rate per check:\n";
    let names: Vec<&str> = s.variants.iter().map(|v| v.variant.as_str()).collect();
    out += &format!("  {:<28}", "check");
    for n in &names {
        out += &format!(" {n:>14}");
    }
    out += "\n";
    for c in &s.checks {
        out += &format!("  {:<28}", c.check_id);
        for (r, f) in c.fail_rate.iter().zip(&c.fails) {
            out += &format!(" {:>14}", format!("{} ({f})", pct(*r)));
        }
        out += "\n";
    }
    out += "\nPer scenario:\n";
    out += &format!("  {:<34}", "scenario");
    for n in &names {
        out += &format!(" {n:>14}");
    }
    out += "  failed checks\n";
    for row in &s.scenarios {
        out += &format!("  {:<34}", row.scenario);
        let mut failed: Vec<String> = Vec::new();
        for (cell, n) in row.cells.iter().zip(&names) {
            match cell {
                Some(c) => {
                    out += &format!(" {:>14}", yes_no(c.passed));
                    if !c.failed_checks.is_empty() || !c.failure_modes.is_empty() {
                        let modes = c.failure_modes.iter().map(|m| format!("[{m}]"));
                        let all: Vec<String> =
                            c.failed_checks.iter().cloned().chain(modes).collect();
                        failed.push(format!("{n}: {}", all.join(",")));
                    }
                }
                None => out += &format!(" {:>14}", "-"),
            }
        }
        out += &format!("  {}\n", failed.join("; "));
    }
    if let Some(c) = &s.comparison {
        out += &format!(
            "\nPaired {} → {} on {} scenario(s): {} fixed, {} broken, {} both pass, {} both fail\n",
            c.a,
            c.b,
            c.paired,
            c.fixed.len(),
            c.broken.len(),
            c.both_pass,
            c.both_fail
        );
        out += &format!("  McNemar exact p = {:.4}\n", c.mcnemar_p);
        if !c.fixed.is_empty() {
            out += &format!("  fixed (fail → pass): {}\n", c.fixed.join(", "));
        }
        if !c.broken.is_empty() {
            out += &format!("  broken (pass → fail): {}\n", c.broken.join(", "));
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One horizontal bar per variant; `max` scales the bars (a rate's max is 1).
fn chart(title: &str, values: &[(String, f64)], max: f64, label: impl Fn(f64) -> String) -> String {
    let row_h = 22.0;
    let h = 28.0 + row_h * values.len() as f64;
    let mut svg = format!(
        r#"<figure><svg xmlns="http://www.w3.org/2000/svg" width="360" height="{h}" role="img" aria-label="{t}"><text x="0" y="14" font-size="13" font-weight="bold">{t}</text>"#,
        t = esc(title)
    );
    for (i, (name, v)) in values.iter().enumerate() {
        let y = 24.0 + row_h * i as f64;
        let w = if max > 0.0 {
            200.0 * (v / max).clamp(0.0, 1.0)
        } else {
            0.0
        };
        svg += &format!(
            r##"<text x="0" y="{ty}" font-size="12">{n}</text><rect x="110" y="{y}" width="{w:.1}" height="14" fill="#4a7bd0"/><text x="{lx:.1}" y="{ty}" font-size="12">{l}</text>"##,
            ty = y + 12.0,
            n = esc(name),
            lx = 114.0 + w,
            l = esc(&label(*v))
        );
    }
    svg + "</svg></figure>"
}

fn series(s: &DatasetSummary, f: impl Fn(&VariantStats) -> f64) -> Vec<(String, f64)> {
    s.variants
        .iter()
        .map(|v| (v.variant.clone(), f(v)))
        .collect()
}

pub fn html(s: &DatasetSummary) -> String {
    let count_max = |f: &dyn Fn(&VariantStats) -> f64| {
        s.variants.iter().map(f).fold(0.0_f64, f64::max).max(1.0)
    };
    let violations = |v: &VariantStats| v.constraint_violations as f64;
    let halluc = |v: &VariantStats| v.hallucination_flags as f64;
    let mism = |v: &VariantStats| v.confidence_mismatches as f64;
    let plan_charts = [
        chart("Pass rate", &series(s, |v| v.pass_rate), 1.0, pct),
        chart(
            "Constraint violations",
            &series(s, violations),
            count_max(&violations),
            |x| format!("{x:.0}"),
        ),
        chart(
            "Time overflow frequency",
            &series(s, |v| v.overflow_frequency),
            1.0,
            pct,
        ),
        chart(
            "Hallucination flags",
            &series(s, halluc),
            count_max(&halluc),
            |x| format!("{x:.0}"),
        ),
        chart(
            "Mean coverage",
            &series(s, |v| v.mean_coverage.unwrap_or(0.0)),
            1.0,
            |x| format!("{x:.2}"),
        ),
        chart(
            "Confidence vs accuracy mismatches",
            &series(s, mism),
            count_max(&mism),
            |x| format!("{x:.0}"),
        ),
    ];
    let charts: Vec<String> = if has_plan_metrics(s) {
        plan_charts.to_vec()
    } else {
        // Legal playbooks: the pass rate and each check's fail rate per variant.
        std::iter::once(plan_charts[0].clone())
            .chain(s.checks.iter().map(|c| {
                let values: Vec<(String, f64)> = s
                    .variants
                    .iter()
                    .zip(&c.fail_rate)
                    .map(|(v, r)| (v.variant.clone(), *r))
                    .collect();
                chart(&format!("Fail rate: {}", c.check_id), &values, 1.0, pct)
            }))
            .collect()
    };
    let names: Vec<&str> = s.variants.iter().map(|v| v.variant.as_str()).collect();
    let head: String = names
        .iter()
        .map(|n| format!("<th>{}</th>", esc(n)))
        .collect();
    let mut checks = String::new();
    for c in &s.checks {
        checks += &format!("<tr><td>{}</td>", esc(&c.check_id));
        for (r, f) in c.fail_rate.iter().zip(&c.fails) {
            checks += &format!("<td>{} ({f})</td>", pct(*r));
        }
        checks += "</tr>";
    }
    let mut rows = String::new();
    for r in &s.scenarios {
        rows += &format!("<tr><td>{}</td>", esc(&r.scenario));
        for c in &r.cells {
            rows += &match c {
                Some(c) => format!(
                    r#"<td class="{}" title="{}">{}</td>"#,
                    if c.passed { "pass" } else { "fail" },
                    esc(&c.errors.join("\n")),
                    yes_no(c.passed)
                ),
                None => "<td>-</td>".into(),
            };
        }
        rows += "</tr>";
    }
    let comparison = s
        .comparison
        .as_ref()
        .map(|c| {
            format!(
                "<h2>Paired comparison: {} → {}</h2><p>{} paired scenario(s): {} fixed, {} broken, {} both pass, {} both fail; McNemar exact p = {:.4}.</p><p>Fixed: {}</p><p>Broken: {}</p>",
                esc(&c.a),
                esc(&c.b),
                c.paired,
                c.fixed.len(),
                c.broken.len(),
                c.both_pass,
                c.both_fail,
                c.mcnemar_p,
                esc(&c.fixed.join(", ")),
                esc(&c.broken.join(", "))
            )
        })
        .unwrap_or_default();
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>byop dataset · {pb}</title><style>body{{font-family:sans-serif;margin:2em}}figure{{display:inline-block;margin:0 1em 1em 0}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px}}td.pass{{background:#e6f4ea}}td.fail{{background:#fce8e6}}.banner{{background:#fff4ce;padding:.5em}}</style></head><body><p class="banner">This is an observability report, not legal advice. Pass ≠ safe. Fail ≠ wrong.</p><h1>Dataset · {pb}</h1>{charts}{generated}{failures}<h2>Fail rate per check</h2><table><tr><th>check</th>{head}</tr>{checks}</table><h2>Per scenario</h2><table><tr><th>scenario</th>{head}</tr>{rows}</table>{comparison}</body></html>"#,
        pb = esc(&s.playbook_id),
        charts = charts.join(""),
        generated = generation_html(s),
        failures = failure_table(s),
    )
}

/// The failure modes per variant as an HTML table (plan playbooks only).
fn failure_table(s: &DatasetSummary) -> String {
    let mut rows = String::new();
    for v in &s.variants {
        let Some(f) = &v.failure_modes else { continue };
        let opt = |c: Option<f64>| c.map_or_else(|| "-".into(), |c| format!("{c:.2}"));
        rows += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&v.variant),
            f.plans,
            f.time_hallucination,
            f.overconfidence,
            f.impossible_schedule,
            f.context_collapse,
            f.long_notes,
            opt(f.coverage_short_notes),
            opt(f.coverage_long_notes)
        );
    }
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "<h2>Failure modes</h2><table><tr><th>variant</th><th>plans</th><th>time hallucination</th><th>overconfidence</th><th>impossible schedule</th><th>context collapse</th><th>long notes</th><th>coverage, short notes</th><th>coverage, long notes</th></tr>{rows}</table>"
    )
}
