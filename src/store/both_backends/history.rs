//! The history query on both backends: a document's page is read down the history
//! indexes newest first, never by reading and sorting every row of the document; what
//! the planner chose is read back with `EXPLAIN` (a property of the plan, not a time).

use super::super::history::page_query;
use super::*;

/// `EXPLAIN` of the page query under `q`, one line per plan node: PostgreSQL's text;
/// SQLite's `EXPLAIN QUERY PLAN` as `id parent detail`.
fn plan(store: &Store, q: &HistoryQuery) -> Vec<String> {
    let (sql, params) = page_query(q);
    store
        .read("explaining", |tx| {
            let lines = if store.is_server() {
                tx.query(&format!("EXPLAIN {sql}"), &params)
                    .unwrap()
                    .iter()
                    .map(|r| r.text(0).unwrap())
                    .collect()
            } else {
                tx.query(&format!("EXPLAIN QUERY PLAN {sql}"), &params)
                    .unwrap()
                    .iter()
                    .map(|r| {
                        format!(
                            "{} {} {}",
                            r.int(0).unwrap(),
                            r.int(1).unwrap(),
                            r.text(3).unwrap()
                        )
                    })
                    .collect()
            };
            Ok(lines)
        })
        .unwrap()
}

/// Many reports (and reruns) of one document among others: the page of that document
/// is found down `reports_history` (SQLite, PostgreSQL) and the reruns' document index,
/// with no full scan and no sort of either table; the whole history by the time indexes.
#[test]
fn the_history_page_walks_the_history_indexes_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let reports: Vec<(String, Report)> = (0..4000)
            .map(|i| {
                let ts = format!(
                    "2026-01-01T{:02}:{:02}:{:02}Z",
                    i / 3600,
                    (i / 60) % 60,
                    i % 60
                );
                // One report in twenty is the long document's, the rest spread over 19
                // others: walking every document's newest rows would read twenty times
                // the page.
                let doc = match i % 20 {
                    0 => "long.md".to_string(),
                    n => format!("other{n}.md"),
                };
                (
                    doc.to_string(),
                    report(&format!("h{i:05}"), &ts, &format!("sha256:{i}"), Mode::Full),
                )
            })
            .collect();
        let batch: Vec<(&str, &Report)> = reports.iter().map(|(d, r)| (d.as_str(), r)).collect();
        store.save_batch(&batch, &[]).unwrap();
        // 1000 reruns of the long document's newest report, 1000 of another's.
        let (last, other) = (&reports[3980].1, &reports[3999]);
        let again: Vec<(&str, Report)> = (0..2000)
            .map(|i| {
                let ts = format!(
                    "2026-01-02T{:02}:{:02}:{:02}Z",
                    i / 3600,
                    (i / 60) % 60,
                    i % 60
                );
                match i % 2 {
                    0 => ("long.md", rerun_of(last, &format!("again{i}"), &ts)),
                    _ => (
                        other.0.as_str(),
                        rerun_of(&other.1, &format!("other{i}"), &ts),
                    ),
                }
            })
            .collect();
        let batch: Vec<(&str, &Report)> = again.iter().map(|(d, r)| (*d, r)).collect();
        store.save_batch(&batch, &[]).unwrap();
        // What a server's autovacuum does for a table this size; SQLite plans without it.
        if store.is_server() {
            store
                .write("analyzing", true, |tx| {
                    tx.execute("ANALYZE reports", &[]).unwrap();
                    tx.execute("ANALYZE reruns", &[]).unwrap();
                    Ok(())
                })
                .unwrap();
        }

        let one = HistoryQuery {
            document: Some("long.md"),
            limit: 50,
            ..Default::default()
        };
        let rows = store.history_page(&one).unwrap();
        assert_eq!(rows.total, 200 + 1000, "{name}");
        assert_eq!(rows.rows.len(), 50, "{name}");
        assert_eq!(
            rows.rows[0].rerun_id.as_deref(),
            Some("again1998"),
            "{name}"
        );

        let lines = plan(&store, &one);
        let text = lines.join("\n");
        if store.is_server() {
            assert!(
                text.contains("Index Scan using reports_history on reports"),
                "{name}:\n{text}"
            );
            // The reruns down their document index, or (when the planner judges half the
            // rows to be the document's) down the time index newest first, filtering.
            assert!(
                [
                    "Index Scan using reruns_history on reruns",
                    "Index Scan Backward using reruns_by_time on reruns",
                    "Index Scan using reruns_newest on reruns"
                ]
                .iter()
                .any(|walk| text.contains(walk)),
                "{name}:\n{text}"
            );
            pg_walks_in_order(&text);
        } else {
            assert!(
                text.contains("SEARCH r USING INDEX reports_history (doc_key=?)"),
                "{name}:\n{text}"
            );
            assert!(
                text.contains("SEARCH x USING INDEX reruns_by_doc (doc_key=?)"),
                "{name}:\n{text}"
            );
            sqlite_walks_in_order(&lines);
        }

        let all = HistoryQuery {
            limit: 50,
            ..Default::default()
        };
        let lines = plan(&store, &all);
        let text = lines.join("\n");
        if store.is_server() {
            assert!(
                text.contains("Index Scan using reports_newest on reports"),
                "{name}:\n{text}"
            );
            assert!(
                text.contains("Index Scan using reruns_newest on reruns"),
                "{name}:\n{text}"
            );
            assert!(!text.contains("Seq Scan on re"), "{name}:\n{text}");
        } else {
            assert!(
                text.contains("SCAN r USING INDEX reports_by_time"),
                "{name}:\n{text}"
            );
            assert!(
                text.contains("SCAN x USING INDEX reruns_by_time"),
                "{name}:\n{text}"
            );
            sqlite_walks_in_order(&lines);
        }
    }
}

/// PostgreSQL's plan reads neither table whole (no sequential or bitmap scan, which
/// would sort what it read).
fn pg_walks_in_order(text: &str) {
    for whole in ["Seq Scan on re", "Bitmap Heap Scan on re"] {
        assert!(!text.contains(whole), "{text}");
    }
}

/// SQLite's plan (`id parent detail` lines) reads neither table without an index, and
/// sorts nothing inside the two walks (`a`, `b`): only the page-sized merge of their
/// results is sorted.
fn sqlite_walks_in_order(lines: &[String]) {
    let text = lines.join("\n");
    let node = |l: &String| {
        let mut parts = l.splitn(3, ' ');
        let id = parts.next().unwrap().to_string();
        let parent = parts.next().unwrap().to_string();
        (id, parent, parts.next().unwrap_or("").to_string())
    };
    let nodes: Vec<_> = lines.iter().map(node).collect();
    let walks: Vec<&String> = nodes
        .iter()
        .filter(|(_, _, d)| d == "CO-ROUTINE a" || d == "CO-ROUTINE b")
        .map(|(id, _, _)| id)
        .collect();
    assert_eq!(walks.len(), 2, "{text}");
    for (_, parent, detail) in &nodes {
        assert!(
            !(detail.starts_with("SCAN r") || detail.starts_with("SCAN x"))
                || detail.contains("USING INDEX"),
            "a table read without an index:\n{text}"
        );
        assert!(
            !(detail.starts_with("USE TEMP B-TREE") && walks.contains(&parent)),
            "a walk sorted instead of read in order:\n{text}"
        );
    }
}
