//! The store's behaviour, each test body run on both backends: a SQLite file and a real
//! PostgreSQL server the tests start (see `tests/support/pg.rs`).

mod audit_merge;
mod batch;
mod cache;
mod connection;
mod drift;
mod drift_inputs;
mod history;
#[path = "../../tests/support/pg.rs"]
mod pg_server;
mod schema;

use std::path::PathBuf;
use std::sync::{Arc, Barrier};

use super::test_support::*;
use super::*;
use crate::model::*;

const KEY: [u8; 32] = [7; 32];

/// Where a store lives, so several "processes" can open it.
#[derive(Clone)]
enum Place {
    File(PathBuf),
    Server(String),
}

impl Place {
    fn open(&self, key: [u8; 32]) -> Store {
        match self {
            Place::File(p) => Store::open_with_key(p, key).unwrap(),
            Place::Server(url) => Store::open_postgres(url, key).unwrap(),
        }
    }
}

/// A fresh SQLite file and, when PostgreSQL is installed, a fresh database on the server.
fn places(dir: &tempfile::TempDir) -> Vec<(&'static str, Place)> {
    let mut out = vec![("sqlite", Place::File(dir.path().join("byop.db")))];
    if let Some(server) = pg_server::server() {
        out.push(("postgres", Place::Server(pg_server::fresh_database(server))));
    }
    out
}

fn event(document: &str, state: AuditState) -> AuditEvent {
    AuditEvent {
        request_id: "req-1".into(),
        at: "2026-01-01T00:00:00Z".into(),
        document: document.into(),
        state,
        code: None,
        inputs_fingerprint: Some("sha256:in".into()),
        playbook_logic_hash: None,
        call: None,
        decision_id: None,
    }
}

/// Another run of `report`'s inputs with the same results.
fn rerun_of(report: &Report, id: &str, timestamp: &str) -> Report {
    let mut again = report.clone();
    again.report_id = id.into();
    again.timestamp = timestamp.into();
    again
}

#[test]
fn reports_reruns_baselines_cache_audit_and_pruning_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let first = report("r1", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        let again = rerun_of(&first, "r2", "2026-01-02T00:00:00Z");
        let other = report("x9", "2026-01-03T00:00:00Z", "sha256:other", Mode::Full);
        let ids = store
            .save_batch(
                &[("a.md", &first), ("a.md", &again), ("a.md", &other)],
                &[event("a.md", AuditState::Received)],
            )
            .unwrap();
        assert_eq!(ids, ["r1", "r1", "x9"], "{name}: the repeat is a rerun");
        let history = store.history(Some("a.md"), 10).unwrap();
        assert_eq!(history.len(), 3, "{name}: {history:?}");
        assert_eq!(history[0].report_id, "x9", "{name}");
        assert_eq!(history[1].rerun_id.as_deref(), Some("r2"), "{name}");
        assert_eq!(store.get_report("r2").unwrap().unwrap().report_id, "r1");
        assert_eq!(store.get_report("x").unwrap().unwrap().report_id, "x9");
        assert!(store.get_report("a%").unwrap().is_none(), "{name}");
        assert!(store.get_report("").is_err());
        let latest = store.latest_report("a.md", &hash(), Some("x9")).unwrap();
        assert_eq!(latest.unwrap().report_id, "r1", "{name}");
        let found = store
            .find_by_inputs("sha256:other", &hash(), "full")
            .unwrap();
        assert_eq!(found.unwrap().report_id, "x9", "{name}");

        store.save_baseline("a.md", "r1").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r1"
        );
        store.save_baseline("a.md", "x9").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "x9"
        );
        let history = store.history(Some("a.md"), 10).unwrap();
        assert!(history[0].is_baseline, "{name}: {history:?}");

        store
            .put_cached_response("k", "anthropic", "m", "one")
            .unwrap();
        store
            .put_cached_response("k", "anthropic", "m", "two")
            .unwrap();
        assert_eq!(store.cached_response("k").unwrap().as_deref(), Some("two"));
        assert_eq!(store.cached_response("nope").unwrap(), None);

        store
            .append_audit(&[event("a.md", AuditState::Evaluated)])
            .unwrap();
        assert_eq!(
            store.verify_audit().unwrap().map(|v| v.rows),
            Ok(2),
            "{name}"
        );
        assert_eq!(store.audit_log(Some("a.md"), 1).unwrap().len(), 1);

        store
            .save_report(
                "/gone/b.md",
                &report("b1", "2026-01-01T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        let pruned = store
            .prune(&PruneRules::default(), &|k: &str| !k.starts_with("/gone/"))
            .unwrap();
        assert_eq!((pruned.gone_documents, pruned.reports), (1, 1), "{name}");
        assert!(store.get_report("b1").unwrap().is_none());
        let kept = store
            .prune(
                &PruneRules {
                    keep_last: Some(1),
                    ..PruneRules::default()
                },
                &|_: &str| true,
            )
            .unwrap();
        assert_eq!(kept.reports, 1, "{name}: r1 goes, x9 is the baseline");
        store.vacuum().unwrap();

        // Another key (a teammate without the team key, a forger) verifies nothing.
        let stranger = place.open([9; 32]);
        assert!(stranger.get_report("x9").unwrap().is_none(), "{name}");
        assert!(stranger.integrity_notice().is_some(), "{name}");
    }
}

/// Writers opened on `place` at once (migrated once before), each running `op` with its
/// own store and its number after they all stand ready; their results in order.
fn race<T: Send + 'static>(
    place: &Place,
    writers: usize,
    op: impl Fn(&Store, usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    drop(place.open(KEY));
    let start = Arc::new(Barrier::new(writers));
    let op = Arc::new(op);
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let (place, start, op) = (place.clone(), start.clone(), op.clone());
            std::thread::spawn(move || {
                let store = place.open(KEY);
                start.wait();
                op(&store, w)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn concurrent_writers_lose_nothing_and_count_each_rerun_once() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        const WRITERS: usize = 8;
        race(&place, WRITERS, |store, w| {
            // The same result of one document, at once: one stored, the rest reruns.
            let base = report("s", "2026-01-01T00:00:00Z", "i", Mode::Full);
            let ts = format!("2026-01-01T00:00:{w:02}Z");
            store
                .save_report("shared.md", &rerun_of(&base, &format!("s{w}"), &ts))
                .unwrap();
            for i in 0..10 {
                let ts = format!("2026-01-02T00:{i:02}:00Z");
                let r = report(&format!("w{w}-{i}"), &ts, &format!("in{i}"), Mode::Full);
                store.save_report(&format!("doc{w}.md"), &r).unwrap();
            }
        });
        let store = place.open(KEY);
        let shared = store.history(Some("shared.md"), 100).unwrap();
        assert_eq!(shared.len(), WRITERS, "{name}: {shared:?}");
        let stored = shared.iter().filter(|r| r.rerun_id.is_none()).count();
        assert_eq!(stored, 1, "{name}: one stored copy, the rest reruns");
        for w in 0..WRITERS {
            let rows = store.history(Some(&format!("doc{w}.md")), 100).unwrap();
            assert_eq!(rows.len(), 10, "{name}: writer {w}");
        }
    }
}

/// The database's own roles make the audit log append-only: a writer role granted
/// INSERT (not UPDATE or DELETE) on `audit_log` appends through byop and cannot rewrite.
#[test]
fn a_writer_role_cannot_update_or_delete_audit_rows() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let admin_url = pg_server::fresh_database(server);
    let db = admin_url
        .rsplit('/')
        .next()
        .unwrap()
        .split('?')
        .next()
        .unwrap();
    drop(Store::open_postgres(&admin_url, KEY).unwrap()); // the owner migrates
    let role = format!("writer_{db}");
    server.psql(
        db,
        &format!(
            "CREATE ROLE {role} LOGIN PASSWORD 'writer-pw';
             GRANT SELECT, INSERT, UPDATE, DELETE ON reports, reruns, baselines, responses,
               counterfactual_audits TO {role};
             GRANT SELECT ON byop_schema TO {role};
             GRANT SELECT, INSERT ON audit_log TO {role};
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role};"
        ),
    );
    let writer = Store::open_postgres(&server.url_for(&role, "writer-pw", db), KEY).unwrap();
    writer
        .append_audit(&[event("a.md", AuditState::Received)])
        .unwrap();
    writer
        .save_report(
            "a.md",
            &report("r1", "2026-01-01T00:00:00Z", "i", Mode::Full),
        )
        .unwrap();
    assert_eq!(writer.verify_audit().unwrap().map(|v| v.rows), Ok(1));
    for sql in [
        "UPDATE audit_log SET state = 'evaluated' WHERE id = 1",
        "DELETE FROM audit_log WHERE id = 1",
    ] {
        let err = writer
            .write("tampering", true, |tx| {
                tx.execute(sql, &[]).map_err(|e| writer.err("tampering", e))
            })
            .unwrap_err()
            .0;
        assert!(err.contains("permission denied"), "{sql}: {err}");
    }
    assert_eq!(writer.verify_audit().unwrap().map(|v| v.rows), Ok(1));
}

impl Place {
    /// Run `sql` on the store's database behind byop's back (a person with the file or
    /// the server's admin role).
    fn tamper(&self, sql: &str) {
        match self {
            Place::File(p) => rusqlite::Connection::open(p)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Place::Server(url) => {
                let db = url.rsplit('/').next().unwrap().split('?').next().unwrap();
                pg_server::server().unwrap().psql(db, sql);
            }
        }
    }

    fn try_open(&self, key: [u8; 32]) -> Result<Store, StoreError> {
        match self {
            Place::File(p) => Store::open_with_key(p, key),
            Place::Server(url) => Store::open_postgres(url, key),
        }
    }
}

/// The audit chain is keyed on both backends: an edited row breaks it there, a log
/// written under another key is foreign, and rows removed at the end are seen against
/// the head this user keeps.
#[test]
fn the_keyed_audit_chain_and_its_head_hold_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let mut store = place.open(KEY);
        store.head_path = Some(dir.path().join(format!("{name}-head.json")));
        let events: Vec<_> = ["a.md", "b.md", "c.md"]
            .iter()
            .map(|d| event(d, AuditState::Received))
            .collect();
        store.append_audit(&events).unwrap();
        assert_eq!(
            store.verify_audit().unwrap().map(|v| v.rows),
            Ok(3),
            "{name}"
        );
        let stranger = place.open([9; 32]);
        assert!(
            stranger.verify_audit().unwrap().unwrap_err().foreign,
            "{name}"
        );

        place.tamper("UPDATE audit_log SET document = 'z.md' WHERE id = 2");
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 2, "{name}: {broken:?}");
        place.tamper("UPDATE audit_log SET document = 'b.md' WHERE id = 2");
        assert!(store.verify_audit().unwrap().is_ok(), "{name}");

        place.tamper("DELETE FROM audit_log WHERE id = 3");
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert!(broken.reason.contains("removed"), "{name}: {broken:?}");
    }
}

/// The history page is filtered and paged by the database, reruns included, on both
/// backends: each filter alone and together, with the total (paging: see `history`).
#[test]
fn the_history_is_filtered_and_paged_by_the_query_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let a1 = report("a1", "2026-01-01T00:00:00Z", "sha256:a", Mode::Full);
        let a2 = rerun_of(&a1, "a2", "2026-01-02T00:00:00Z");
        let mut b1 = report("b1", "2026-01-03T00:00:00Z", "sha256:b", Mode::Screening);
        b1.summary.overall_status = Status::Alert;
        let mut c1 = report(
            "c1",
            "2026-01-04T00:00:00Z",
            "sha256:c",
            Mode::Deterministic,
        );
        c1.summary.overall_status = Status::Stable;
        c1.playbook_id = "other_v1".into();
        store
            .save_batch(
                &[("a.md", &a1), ("a.md", &a2), ("b.md", &b1), ("a.md", &c1)],
                &[],
            )
            .unwrap();
        let page = |q: HistoryQuery| {
            let p = store
                .history_page(&HistoryQuery {
                    limit: q.limit.max(1),
                    ..q
                })
                .unwrap();
            let ids: Vec<String> = p
                .rows
                .iter()
                .map(|r| r.rerun_id.clone().unwrap_or(r.report_id.clone()))
                .collect();
            (ids, p.total)
        };
        let all = HistoryQuery {
            limit: 10,
            ..Default::default()
        };
        let (ids, total) = page(all.clone());
        assert_eq!(
            (ids, total),
            (
                vec!["c1", "b1", "a2", "a1"]
                    .into_iter()
                    .map(String::from)
                    .collect::<Vec<_>>(),
                4
            ),
            "{name}"
        );
        let cases: [(HistoryQuery, &[&str], usize); 5] = [
            (
                HistoryQuery {
                    document: Some("a.md"),
                    ..all.clone()
                },
                &["c1", "a2", "a1"],
                3,
            ),
            (
                HistoryQuery {
                    status: Some(Status::Review),
                    ..all.clone()
                },
                &["a2", "a1"],
                2,
            ),
            (
                HistoryQuery {
                    mode: Some(Mode::Screening),
                    ..all.clone()
                },
                &["b1"],
                1,
            ),
            (
                HistoryQuery {
                    playbook: Some("other_v1"),
                    ..all.clone()
                },
                &["c1"],
                1,
            ),
            (
                HistoryQuery {
                    document: Some("b.md"),
                    status: Some(Status::Review),
                    ..all.clone()
                },
                &[],
                0,
            ),
        ];
        for (q, want, want_total) in cases {
            let shown = format!("{q:?}");
            let (ids, total) = page(q);
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            assert_eq!(
                (ids.as_slice(), total),
                (want, want_total),
                "{name}: {shown}"
            );
        }
        // The rerun row carries its own id and time, the report's status.
        let rows = store.history(Some("a.md"), 2).unwrap();
        assert_eq!(rows.len(), 2, "{name}");
        assert_eq!(rows[1].rerun_id.as_deref(), Some("a2"), "{name}");
        assert_eq!(
            (rows[1].report_id.as_str(), rows[1].timestamp.as_str()),
            ("a1", "2026-01-02T00:00:00Z")
        );
        assert_eq!(
            store.document_of("b1").unwrap().as_deref(),
            Some("b.md"),
            "{name}"
        );
        assert_eq!(store.document_of("zz").unwrap(), None, "{name}");
    }
}

/// A server store whose version table holds a second row is refused, by the quick
/// read-only open as by the migration path: one version, or no reading at all.
#[test]
fn a_second_schema_version_row_is_refused_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let Place::Server(_) = place else { continue };
        drop(place.open(KEY));
        place.tamper("INSERT INTO byop_schema VALUES (3)");
        assert!(place.try_open(KEY).is_err(), "{name}");
    }
}
