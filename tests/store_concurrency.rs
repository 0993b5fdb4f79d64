//! Many `byop check` processes writing one SQLite store at once, while another
//! connection holds the write lock longer than the busy timeout (committing as it goes):
//! every process succeeds, no run is lost, no unchanged result is stored twice in a row,
//! and the audit log verifies.

mod support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use byop::model::Report;
use byop::model::integrity::results_only;
use support::workspace::{Ws, json, stderr};

const PROCESSES: usize = 8;
const DOCS: usize = 10;

/// Hold the write lock in one-second transactions for `total`, each committing a row, as
/// a long stream of other writers would.
fn hold_the_write_lock(db: &std::path::Path, total: Duration) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let start = Instant::now();
    let mut i = 0;
    while start.elapsed() < total {
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        conn.execute(
            "INSERT INTO responses (cache_key, provider, model, raw_text, created_at)
             VALUES (?1, 'holder', 'holder', '', '2026-01-01T00:00:00Z')",
            [format!("holder-{i}")],
        )
        .unwrap();
        std::thread::sleep(Duration::from_secs(1));
        conn.execute_batch("COMMIT").unwrap();
        i += 1;
    }
}

#[test]
fn concurrent_processes_queue_for_the_write_lock_and_lose_nothing() {
    let ws = Ws::new();
    let base = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    let docs: Vec<String> = (0..DOCS)
        .map(|i| {
            let name = format!("doc{i}.ai.md");
            ws.write(&name, &format!("{base}\nReviewed copy {i}.\n"));
            name
        })
        .collect();
    // The store exists (schema, user key) before the lock is held.
    let o = ws.run(&["history"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = ws.path("state.db");

    let outputs = std::thread::scope(|s| {
        // Longer than the 10 s busy timeout: a process that gave up after one wait fails.
        let holder = s.spawn(|| hold_the_write_lock(&db, Duration::from_secs(12)));
        std::thread::sleep(Duration::from_millis(300));
        let runs: Vec<_> = (0..PROCESSES)
            .map(|_| {
                s.spawn(|| {
                    let mut c = ws.cmd();
                    c.args(["check", "--mode", "deterministic", "--format", "json"]);
                    c.args(["--fail-on", "never"]).args(&docs);
                    c.output().unwrap()
                })
            })
            .collect();
        holder.join().unwrap();
        runs.into_iter()
            .map(|r| r.join().unwrap())
            .collect::<Vec<_>>()
    });

    let mut printed = Vec::new();
    for o in &outputs {
        let err = stderr(o);
        assert!(o.status.success(), "a process failed: {err}");
        assert!(
            !err.contains("locked") && !err.contains("busy"),
            "a process met a busy store: {err}"
        );
        for r in json(o).as_array().unwrap() {
            printed.push(r["byop_report"]["report_id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(printed.len(), PROCESSES * DOCS);

    let conn = rusqlite::Connection::open(&db).unwrap();
    // Every run is a stored report or a rerun: none lost, none twice.
    let mut stored: Vec<String> = Vec::new();
    for sql in [
        "SELECT report_id FROM reports",
        "SELECT rerun_id FROM reruns",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let ids = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
        stored.extend(ids.map(Result::unwrap));
    }
    stored.sort();
    printed.sort();
    assert_eq!(stored, printed, "every run stored once");

    // No report repeats the one stored before it for its document: an unchanged result
    // became a rerun, whatever order the processes wrote in.
    let mut by_doc: HashMap<String, Vec<Report>> = HashMap::new();
    let mut stmt = conn
        .prepare("SELECT doc_key, report_json FROM reports ORDER BY timestamp_ns, rowid")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap();
    for row in rows {
        let (doc, json) = row.unwrap();
        by_doc
            .entry(doc)
            .or_default()
            .push(serde_json::from_str(&json).unwrap());
    }
    assert_eq!(by_doc.len(), DOCS);
    for (doc, reports) in &by_doc {
        for pair in reports.windows(2) {
            assert!(
                results_only(&pair[0]) != results_only(&pair[1]),
                "{doc}: {} stored again as {}",
                pair[0].report_id,
                pair[1].report_id
            );
        }
    }
    // Each rerun points at a report of its own document.
    let strays: i64 = conn
        .query_row(
            "SELECT count(*) FROM reruns x JOIN reports r ON r.report_id = x.report_id
             WHERE r.doc_key <> x.doc_key",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(strays, 0);

    let verify = ws.run(&["log", "--verify"]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}
