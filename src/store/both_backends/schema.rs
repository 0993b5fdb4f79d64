//! The store's schema on both backends: concurrent starters migrate once, and a schema
//! byop did not make (a foreign object, a table of ours with other columns) is refused.

use std::sync::{Arc, Barrier};

use super::*;

/// A trigger, view, foreign table, rule or row policy slipped into the store's schema is refused on open,
/// before anything is written, on either backend.
#[test]
fn foreign_triggers_views_and_tables_are_refused_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    let trigger = |place: &Place| match place {
        Place::File(_) => "CREATE TRIGGER spy AFTER INSERT ON reports BEGIN SELECT 1; END;",
        Place::Server(_) => {
            "CREATE FUNCTION spy() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$;
             CREATE TRIGGER spy AFTER INSERT ON reports FOR EACH ROW EXECUTE FUNCTION spy();"
        }
    };
    for (name, place) in places(&dir) {
        let mut cases = vec![
            ("spy", trigger(&place).to_string()),
            ("peek", "CREATE VIEW peek AS SELECT * FROM reports".into()),
            ("extra", "CREATE TABLE extra (x TEXT)".into()),
        ];
        if let Place::Server(_) = place {
            // A rule rewrites what a write does; a row policy hides rows from a read.
            cases.push((
                "hush",
                "CREATE RULE hush AS ON INSERT TO reports DO INSTEAD NOTHING".into(),
            ));
            cases.push(("veil", "CREATE POLICY veil ON reports USING (false)".into()));
        }
        for (object, sql) in cases {
            let fresh = match &place {
                Place::File(_) => Place::File(dir.path().join(format!("{object}.db"))),
                Place::Server(_) => {
                    Place::Server(pg_server::fresh_database(pg_server::server().unwrap()))
                }
            };
            drop(fresh.open(KEY));
            fresh.tamper(&sql);
            let err = fresh.try_open(KEY).unwrap_err().0;
            assert!(err.contains(object), "{name}: {err}");
            assert!(err.contains("did not create"), "{name}: {err}");
        }
    }
}

/// Stores opened by many processes at once on a fresh database: every migration is
/// applied once (serialised by the advisory lock on PostgreSQL), every opener succeeds.
#[test]
fn concurrent_starters_migrate_a_fresh_store_once() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        const STARTERS: usize = 6;
        let start = Arc::new(Barrier::new(STARTERS));
        let threads: Vec<_> = (0..STARTERS)
            .map(|_| {
                let (place, start) = (place.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    place.try_open(KEY).map(drop)
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        if let Place::Server(url) = &place {
            let db = url.rsplit('/').next().unwrap().split('?').next().unwrap();
            let server = pg_server::server().unwrap();
            let rows = server.psql(db, "SELECT version FROM byop_schema");
            assert_eq!(rows, SCHEMA_VERSION.to_string(), "{name}: one version row");
        }
    }
}

/// A table of ours with another column, a changed type or a dropped `NOT NULL` is
/// refused on open, naming the table (and on PostgreSQL the column), before anything is
/// written; the columns byop expects are exactly those its migrations make.
#[test]
fn a_table_with_other_columns_is_refused_naming_table_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let mut cases = vec![("ALTER TABLE reports ADD COLUMN spy TEXT", vec!["reports"])];
        if let Place::Server(url) = &place {
            // The migrations' columns, read from their SQL, are what the server holds.
            let db = url.rsplit('/').next().unwrap().split('?').next().unwrap();
            drop(place.open(KEY));
            let held = pg_server::server().unwrap().psql(
                db,
                "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
                 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
                   AND a.attnum > 0 AND NOT a.attisdropped",
            );
            let mut held: Vec<_> = held.lines().map(str::to_string).collect();
            let mut want: Vec<_> = super::pg_columns::expected_columns(SCHEMA_VERSION)
                .into_iter()
                .map(|(t, c, ty, nn)| format!("{t}|{c}|{ty}|{}", if nn { "t" } else { "f" }))
                .collect();
            held.sort();
            want.sort();
            assert_eq!(held, want, "{name}");
            cases[0].1.push("spy");
            cases.push((
                "ALTER TABLE responses ALTER COLUMN raw_text TYPE bytea USING convert_to(raw_text, 'UTF8')",
                vec!["responses.raw_text", "bytea"],
            ));
            cases.push((
                "ALTER TABLE reports ALTER COLUMN report_json DROP NOT NULL",
                vec!["reports.report_json", "nullable"],
            ));
            cases.push((
                "ALTER TABLE baselines DROP COLUMN mac",
                vec!["baselines", "lacks the column `mac`"],
            ));
        }
        for (i, (sql, named)) in cases.into_iter().enumerate() {
            let fresh = match &place {
                Place::File(_) => Place::File(dir.path().join(format!("columns{i}.db"))),
                Place::Server(_) => {
                    Place::Server(pg_server::fresh_database(pg_server::server().unwrap()))
                }
            };
            drop(fresh.open(KEY));
            fresh.tamper(sql);
            let err = fresh.try_open(KEY).unwrap_err().0;
            for word in named {
                assert!(err.contains(word), "{name}: {sql}: {err}");
            }
            assert!(err.contains("refusing to open"), "{name}: {err}");
        }
    }
}
