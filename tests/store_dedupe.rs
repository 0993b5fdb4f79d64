//! Store size: an unchanged result is stored once; each rerun is recorded (its id and
//! time) and `byop history` says so; a changed result is stored again.

mod support;

use support::workspace::{Ws, json, stderr, stdout};

fn count(ws: &Ws, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(ws.path("state.db")).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

fn check(ws: &Ws) -> serde_json::Value {
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
    json(&o)["byop_report"].clone()
}

#[test]
fn reruns_are_recorded_not_stored_again_and_history_tells_them_apart() {
    let ws = Ws::new();
    // The first run has nothing to measure drift against; the second has: a different
    // result. From then on the result repeats.
    let zeroth = check(&ws);
    let first = check(&ws);
    let second = check(&ws);
    let third = check(&ws);
    assert_ne!(
        zeroth["check_results"], first["check_results"],
        "drift had no reference the first time"
    );
    assert_eq!(
        count(&ws, "reports"),
        2,
        "one stored copy of the repeated result"
    );
    assert_eq!(count(&ws, "reruns"), 2, "two reruns recorded");

    let h = ws.run(&["history", "nda_review.ai.md", "--format", "json"]);
    let rows = json(&h);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4, "every run is in the history: {rows:#?}");
    let stored = first["report_id"].as_str().unwrap();
    assert!(
        rows[..3].iter().all(|r| r["report_id"] == stored),
        "{rows:#?}"
    );
    assert_eq!(rows[3]["report_id"], zeroth["report_id"]);
    let reruns: Vec<&str> = rows.iter().filter_map(|r| r["rerun_id"].as_str()).collect();
    // Newest first: the third run, then the second.
    assert_eq!(
        reruns,
        [
            third["report_id"].as_str().unwrap(),
            second["report_id"].as_str().unwrap()
        ]
    );
    assert_eq!(rows[0]["timestamp"], third["timestamp"]);
    let text = stdout(&ws.run(&["history", "nda_review.ai.md"]));
    assert!(text.contains("unchanged"), "{text}");

    // A rerun's id shows the report it repeated.
    let shown = ws.run(&[
        "report",
        second["report_id"].as_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert_eq!(json(&shown)["byop_report"]["report_id"], stored);

    // Another result is stored.
    let text = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    ws.write(
        "nda_review.ai.md",
        &format!("{text}\nThis clause is guaranteed to be enforceable.\n"),
    );
    check(&ws);
    assert_eq!(count(&ws, "reports"), 3);
    // Back to a stored result after a different one: stored again, so history shows
    // the change back.
    ws.write("nda_review.ai.md", &text);
    check(&ws);
    assert_eq!(count(&ws, "reports"), 4);
    assert_eq!(count(&ws, "reruns"), 2);
    let log = ws.run(&["log", "--verify"]);
    assert!(log.status.success(), "{}", stderr(&log));
}
