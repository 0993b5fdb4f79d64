//! `cargo bench --bench pathological`: the deterministic checks (built-in playbook, the
//! whole pipeline from parse to report, suppressions and citations included) on input
//! shapes that used to be quadratic. Goal: any document up to 1 MB, whatever
//! its shape, in under 100 ms. Prints each figure next to its goal; asserts nothing.

use std::time::Instant;

use byop::engine::document::Document;
use byop::engine::runner;

/// The pathological shapes, each about `size` bytes.
fn shapes(size: usize) -> Vec<(&'static str, String)> {
    let rep = |unit: &str| unit.repeat(size / unit.len());
    let mut nested = String::new();
    while nested.len() < size {
        for depth in 0..200 {
            nested.push_str(&"  ".repeat(depth));
            nested.push_str("- the clause is enforceable\n");
        }
    }
    let mut suppress = String::new();
    let mut i = 0;
    while suppress.len() < size {
        suppress.push_str(&format!(
            "<!-- byop-disable check_{i} -->\nThe clause is enforceable.\n<!-- byop-enable other_{i} -->\n"
        ));
        i += 1;
    }
    vec![
        ("one sentence", rep("the clause is enforceable, ")),
        (
            "one line, no white space",
            rep("guaranteed,is,legal,\"x\",e.g.,"),
        ),
        (
            "one line of sentences",
            rep("The clause is enforceable. It is legal; "),
        ),
        ("short lines (100 000 per 900 KB)", rep("is legal\n")),
        ("deep list nesting", nested),
        (
            "10 000 quotes",
            rep("He said \"it is always legal\" and “it is guaranteed” here, "),
        ),
        ("10 000 suppression comments", suppress),
        (
            "multi-byte one line",
            rep("la clause «est légale» — it is enforceable 😀 "),
        ),
    ]
}

fn main() {
    let playbook = byop::engine::playbook::builtin();
    if cfg!(debug_assertions) {
        println!(
            "(unoptimized build: figures far above a release build's; the goal is for release)"
        );
    }
    // Warm up: the first run in a process compiles the engine's lazily built regexes once
    // (a few ms); a language server pays that once, not per document.
    let warm =
        Document::parse("# Review\nThe clause is enforceable.\n".into(), None).expect("parses");
    runner::run_deterministic(&playbook, &warm);
    // BYOP_BENCH_REPEAT times each shape that many times and prints the fastest.
    let repeat: usize = std::env::var("BYOP_BENCH_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    println!(
        "| shape | size | findings listed | deterministic check | goal |\n|---|---|---|---|---|"
    );
    // BYOP_BENCH_BYTES scales the shapes (e.g. to compare two sizes for linearity).
    let size = std::env::var("BYOP_BENCH_BYTES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    // BYOP_BENCH_SHAPE runs only the shapes whose name contains it (e.g. for a profiler).
    let only = std::env::var("BYOP_BENCH_SHAPE").unwrap_or_default();
    for (name, text) in shapes(size).into_iter().filter(|(n, _)| n.contains(&only)) {
        let len = text.len();
        let mut took = f64::INFINITY;
        let mut report = None;
        for _ in 0..repeat {
            let start = Instant::now();
            let doc = Document::parse(text.clone(), None).expect("parses");
            let r = runner::run_deterministic(&playbook, &doc);
            took = took.min(start.elapsed().as_secs_f64() * 1e3);
            report = Some(r);
        }
        let report = report.expect("at least one run");
        let hits: usize = report
            .check_results
            .iter()
            .map(|r| r.evidence_citations.len())
            .sum::<usize>()
            + report.suppressed.len();
        let verdict = if took < 100.0 { "met" } else { "NOT met" };
        println!(
            "| {name} | {:.0} KB | {hits} | {took:.1} ms | < 100 ms ({verdict}) |",
            len as f64 / 1024.0
        );
    }
}
