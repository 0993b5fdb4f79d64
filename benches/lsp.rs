//! `cargo bench --bench lsp`: the language server as an editor feels it, over the
//! real binary. Prints a table; no thresholds (timings depend on the machine).
//! `cargo bench --bench lsp --profile dev` avoids a release build on shared machines.
//!
//! - didChange → publishDiagnostics for a 100 KB document (debounce scaled to the check time)
//! - hover latency on a cited span
//! - server RSS with 50 open documents, then with a dense document (thousands of findings)
//! - keystroke on that dense document against a one-paragraph one, both checked against a
//!   170 KB source contract

#[path = "../tests/lsp_support/client.rs"]
#[allow(dead_code)]
mod client;

use std::time::{Duration, Instant};

use client::{LspClient, position};
use serde_json::{Value, json};

const PARAGRAPH: &str = "The supplier agreement is compliant with the applicable data protection rules, and the indemnity clause caps liability at the fees paid in the preceding twelve months. Either party may terminate on ninety days notice; confidentiality survives for five years.\n\n";

fn document(bytes: usize) -> String {
    let mut text = String::from("# Review of the supplier agreement\n\n");
    while text.len() < bytes {
        text.push_str(PARAGRAPH);
    }
    text
}

/// A source contract of about `bytes` bytes: numbered clauses with parties, amounts and
/// periods, as the contracts reviews are checked against.
fn contract(bytes: usize) -> String {
    let mut text = String::from("SUPPLY AGREEMENT\n\n");
    let mut n = 1;
    while text.len() < bytes {
        text.push_str(&format!(
            "{n}. Obligations {n}\n\n{n}.1 The Supplier shall deliver the Goods described in Schedule {n} within thirty (30) days of each order, at a price of $ {n},500.00 per unit.\n\n{n}.2 The Customer may terminate this Section {n} on ninety (90) days' written notice; confidentiality survives for five (5) years.\n\n"
        ));
        n += 1;
    }
    text
}

fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.1} ms, p90 {:.1} ms, n={}",
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 9 / 10]),
        samples.len()
    )
}

/// Type `x` in the middle of `text` (open as version 1) for versions 2..=`last`; the time
/// from each `didChange` to the diagnostics of that version.
async fn keystrokes(c: &LspClient, uri: &str, text: &mut String, last: i64) -> Vec<Duration> {
    let mut samples = Vec::new();
    for version in 2..=last {
        let at = text.len() / 2;
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap();
        let change =
            json!({"range": {"start": position(text, at), "end": position(text, at)}, "text": "x"});
        text.insert(at, 'x');
        let mark = c.len();
        let start = Instant::now();
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        )
        .await;
        c.diagnostics_at(mark, uri, version).await;
        samples.push(start.elapsed());
    }
    samples
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let c = LspClient::spawn(
        &[("BYOP_DB", root.join("byop.db").display().to_string())],
        &root,
    );
    let pid = c.child.as_ref().and_then(|ch| ch.id()).unwrap_or(0);
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {}, "initializationOptions": {"onSave": "off"}}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    println!("| benchmark | result |\n|---|---|");

    // 1. Keystroke → diagnostics, 100 KB.
    let mut text = document(100_000);
    let uri = format!("file://{}/big.ai.md", root.display());
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
    c.diagnostics_at(0, &uri, 1).await;
    let samples = keystrokes(&c, &uri, &mut text, 16).await;
    println!(
        "| didChange → diagnostics, {} KB (15 ms debounce) | {} |",
        text.len() / 1000,
        summary(samples)
    );

    // For comparison: the deterministic checks alone, in this process.
    let playbook = byop::engine::playbook::builtin();
    let doc = byop::engine::document::Document::parse(text.clone(), None).unwrap();
    let mut samples = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let report = byop::engine::runner::run_deterministic(&playbook, &doc);
        samples.push(start.elapsed());
        std::hint::black_box(report);
    }
    println!(
        "| run_deterministic alone, same document | {} |",
        summary(samples)
    );

    // 2. Hover on a cited span.
    let at = text.find("is compliant").unwrap() + 3;
    let mut samples = Vec::new();
    for _ in 0..50 {
        let start = Instant::now();
        let h: Value = c
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": position(&text, at)}),
            )
            .await;
        samples.push(start.elapsed());
        assert!(!h.is_null(), "hover on a cited span");
    }
    println!(
        "| hover on a cited span (100 KB doc) | {} |",
        summary(samples)
    );

    // 3. Memory with 50 open documents (10 KB each, plus the 100 KB one).
    let before = rss_kb(pid);
    for i in 0..50 {
        let u = format!("file://{}/doc{i}.ai.md", root.display());
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": "markdown", "version": 1, "text": document(10_000)}}),
        )
        .await;
        c.diagnostics_at(0, &u, 1).await;
    }
    let after = rss_kb(pid);
    match (before, after) {
        (Some(b), Some(a)) => println!(
            "| server RSS: 1 doc → 51 docs | {:.1} MB → {:.1} MB |",
            b as f64 / 1024.0,
            a as f64 / 1024.0
        ),
        _ => println!("| server RSS | unavailable (no /proc) |"),
    }

    // 4. A dense document (100 KB, thousands of findings): keystroke cost against a
    // one-paragraph document (goal: at most 50 ms more), then memory with it open too.
    // Both are checked against the same 170 KB source contract, as a review is.
    std::fs::write(root.join("contract.txt"), contract(170_000)).unwrap();
    let head = "---\nbyop:\n  source: contract.txt\n---\n";
    let mut dense = format!("{head}# Review\n\n");
    while dense.len() < 100_000 {
        dense.push_str("The clause is enforceable. The policy is compliant. It is legal.\n");
    }
    let small = format!("{head}{}", document(300));
    let mut medians = Vec::new();
    for (name, mut text) in [("small", small), ("dense", dense)] {
        let uri = format!("file://{}/{name}.ai.md", root.display());
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
        )
        .await;
        let (_, diags) = c.diagnostics_at(0, &uri, 1).await;
        let mut samples = keystrokes(&c, &uri, &mut text, 12).await;
        samples.sort();
        medians.push(samples[samples.len() / 2]);
        println!(
            "| didChange → diagnostics, {name} document ({} diagnostics) | {} |",
            diags.len(),
            summary(samples)
        );
    }
    let extra = medians[1].as_secs_f64() * 1e3 - medians[0].as_secs_f64() * 1e3;
    println!(
        "| dense minus small, median keystroke | {extra:.1} ms (goal ≤ 50 ms: {}) |",
        if extra <= 50.0 { "met" } else { "NOT met" }
    );
    if let Some(kb) = rss_kb(pid) {
        let mb = kb as f64 / 1024.0;
        println!(
            "| server RSS: 51 docs + the dense one | {mb:.1} MB (goal < 80 MB: {}) |",
            if mb < 80.0 { "met" } else { "NOT met" }
        );
    }

    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
}
