//! Batches: the documents of one `byop check` are evaluated concurrently under
//! the evaluator's ONE concurrency limit, and saved in one store transaction. No timing
//! is asserted: the fake server counts the calls it holds at once.

mod support;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, json, stderr};

/// `n` documents that differ (so the response cache does not answer for the others).
fn documents(ws: &Ws, n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    (0..n)
        .map(|i| {
            let name = format!("doc{i}.ai.md");
            ws.write(&name, &format!("{text}\nReviewer note {i}.\n"));
            name
        })
        .collect()
}

fn reports_in_store(ws: &Ws) -> i64 {
    let conn = rusqlite::Connection::open(ws.path("state.db")).unwrap();
    conn.query_row("SELECT count(*) FROM reports", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn documents_of_a_batch_overlap_and_all_are_saved() {
    let ws = Ws::new();
    let docs = documents(&ws, 6);
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).latency_ms(300));
    let o = ws.run_llm(
        &llm,
        &format!("check --mode screening --format json {}", docs.join(" ")),
    );
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    let per_document = llm.calls() / docs.len();
    assert!(per_document >= 1, "{} calls", llm.calls());
    assert!(
        llm.max_in_flight() > per_document,
        "calls of different documents overlap: at most {} at once, {per_document} per document",
        llm.max_in_flight()
    );
    assert!(llm.max_in_flight() <= 16, "the default limit holds");
    let r = json(&o);
    let paths: Vec<&str> = r
        .as_array()
        .expect("an array of reports")
        .iter()
        .map(|e| e["byop_report"]["document"]["path"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(paths.len(), docs.len());
    for (path, doc) in paths.iter().zip(&docs) {
        assert!(
            path.ends_with(doc.as_str()),
            "reports in argument order: {paths:?}"
        );
    }
    assert_eq!(reports_in_store(&ws), docs.len() as i64);
    let log = ws.run(&["log", "--verify"]);
    assert!(log.status.success(), "audit chain intact: {}", stderr(&log));
}

#[test]
fn one_limit_for_the_whole_batch() {
    let ws = Ws::new();
    ws.write("byop.toml", "[evaluator]\nconcurrency = 3\n");
    let docs = documents(&ws, 5);
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).latency_ms(150));
    let o = ws.run_llm(
        &llm,
        &format!("check --mode screening --format json {}", docs.join(" ")),
    );
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    assert!(llm.calls() >= docs.len(), "{} calls", llm.calls());
    assert!(
        llm.max_in_flight() <= 3,
        "{} calls at once over a limit of 3",
        llm.max_in_flight()
    );
}
