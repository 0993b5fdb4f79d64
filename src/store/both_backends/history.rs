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

        // The first page, a page deep in the history (the next page after the 1100th
        // row) and the page just before that one: each walks the indexes from its key.
        let deep = store
            .history_page(&HistoryQuery {
                limit: 1100,
                ..one.clone()
            })
            .unwrap()
            .older
            .expect("a page after the 1100th row");
        let pages = [
            one.clone(),
            HistoryQuery {
                at: PageAt::After(deep),
                ..one.clone()
            },
            HistoryQuery {
                at: PageAt::Before(deep),
                ..one.clone()
            },
        ];
        for q in &pages {
            let lines = plan(&store, q);
            let text = lines.join("\n");
            if store.is_server() {
                assert!(
                    text.contains("using reports_history on reports"),
                    "{name}:\n{text}"
                );
                // The reruns down their document index, or (when the planner judges half
                // the rows to be the document's) down a time index in order, filtering.
                assert!(
                    ["reruns_history", "reruns_by_time", "reruns_newest"]
                        .iter()
                        .any(|i| text.contains(&format!("using {i} on reruns"))),
                    "{name}:\n{text}"
                );
                pg_walks_in_order(&text);
            } else {
                assert!(
                    text.contains("SEARCH r USING INDEX reports_history (doc_key=?"),
                    "{name}:\n{text}"
                );
                assert!(
                    text.contains("SEARCH x USING INDEX reruns_by_doc (doc_key=?"),
                    "{name}:\n{text}"
                );
                sqlite_walks_in_order(&lines);
            }
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
                text.contains(" r USING INDEX reports_by_time"),
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
/// sorts nothing inside the walks (`timed`, `untimed`, `reruns`): only the page-sized
/// merge of their results is sorted.
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
        .filter(|(_, _, d)| {
            ["timed", "untimed", "reruns"]
                .iter()
                .any(|w| *d == format!("CO-ROUTINE {w}"))
        })
        .map(|(id, _, _)| id)
        .collect();
    assert!(walks.len() >= 2, "{text}");
    for (_, parent, detail) in &nodes {
        let table = detail
            .strip_prefix("SCAN ")
            .and_then(|d| d.split(' ').next());
        assert!(
            !matches!(table, Some("r" | "x")) || detail.contains("USING INDEX"),
            "a table read without an index:\n{text}"
        );
        assert!(
            !(detail.starts_with("USE TEMP B-TREE") && walks.contains(&parent)),
            "a walk sorted instead of read in order:\n{text}"
        );
    }
}

/// The id a history row is shown under.
fn shown(r: &HistoryRow) -> String {
    r.rerun_id.clone().unwrap_or_else(|| r.report_id.clone())
}

/// Paging by key visits every row of the document once, in the order of the whole
/// history, forwards (`older`) and backwards (`newer`), on both backends — across ties
/// at one time (two reports; a rerun and its report), untimed reports (last) and rows of
/// another document (left out); each page knows its position and the last one has no
/// next page.
#[test]
fn paging_by_key_visits_every_row_once_both_ways_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let at = |m: u32| format!("2026-01-01T00:{m:02}:00Z");
        let mut saves: Vec<(&str, Report)> = (0..6)
            .map(|i| {
                let id = format!("r{i}");
                (
                    "p.md",
                    report(&id, &at(i), &format!("sha256:{id}"), Mode::Full),
                )
            })
            .collect();
        let r5 = saves[5].1.clone();
        // A rerun at its report's own time, then another report at that time too.
        saves.push(("p.md", rerun_of(&r5, "rr1", &at(5))));
        let t1 = report("t1", &at(5), "sha256:t1", Mode::Full);
        saves.push(("p.md", t1.clone()));
        saves.push(("p.md", rerun_of(&t1, "rr2", &at(9))));
        for u in ["u1", "u2"] {
            saves.push((
                "p.md",
                report(u, "not a time", &format!("sha256:{u}"), Mode::Full),
            ));
        }
        for i in 0..4 {
            let id = format!("o{i}");
            let r = report(&id, &at(i * 2 + 1), &format!("sha256:{id}"), Mode::Full);
            saves.push(("other.md", r));
        }
        for (doc, r) in &saves {
            store.save_batch(&[(doc, r)], &[]).unwrap();
        }
        let whole = HistoryQuery {
            document: Some("p.md"),
            limit: 100,
            ..Default::default()
        };
        let all: Vec<String> = store
            .history_page(&whole)
            .unwrap()
            .rows
            .iter()
            .map(shown)
            .collect();
        assert_eq!(all.len(), 11, "{name}: {all:?}");
        assert_eq!(all[0], "rr2", "{name}: the newest first: {all:?}");
        assert_eq!(&all[9..], ["u2", "u1"], "{name}: untimed last: {all:?}");
        let tie: Vec<&str> = all
            .iter()
            .map(String::as_str)
            .filter(|s| ["rr1", "t1", "r5"].contains(s))
            .collect();
        assert_eq!(
            tie,
            ["rr1", "t1", "r5"],
            "{name}: a rerun before the reports of its time, then by insertion"
        );

        for size in [1, 2, 3, 4, 11] {
            let q = |at: PageAt| HistoryQuery {
                at,
                limit: size,
                ..whole.clone()
            };
            let mut pages = vec![store.history_page(&q(PageAt::Newest)).unwrap()];
            assert!(pages[0].newer.is_none(), "{name}");
            while let Some(key) = pages.last().unwrap().older {
                pages.push(store.history_page(&q(PageAt::After(key))).unwrap());
                assert!(pages.len() <= 11, "{name}: paging ends");
            }
            let mut seen = Vec::new();
            for p in &pages {
                assert_eq!(
                    (p.position, p.total),
                    (seen.len(), 11),
                    "{name}, {size} a page"
                );
                seen.extend(p.rows.iter().map(shown));
            }
            assert_eq!(seen, all, "{name}: forwards, {size} a page");
            assert_eq!(
                pages.len(),
                all.len().div_ceil(size),
                "{name}, {size} a page"
            );
            // Back from the last page, each previous page is the one seen going forwards.
            let mut back = pages.pop().unwrap();
            while let Some(key) = back.newer {
                back = store.history_page(&q(PageAt::Before(key))).unwrap();
                let forwards = pages.pop().expect("no page before the first");
                let ids = |p: &HistoryPage| p.rows.iter().map(shown).collect::<Vec<_>>();
                assert_eq!(
                    ids(&back),
                    ids(&forwards),
                    "{name}: backwards, {size} a page"
                );
                assert_eq!(back.position, forwards.position, "{name}");
            }
            assert!(pages.is_empty(), "{name}: back to the first page");
        }
    }
}
