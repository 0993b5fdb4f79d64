//! The store after a crash is sound: SQLite's own check, every stored report whole (its
//! JSON parses and names its own id), the audit chain intact (`byop log --verify`, run by
//! the caller's command so it sees the same store and key).

use std::path::Path;
use std::process::Command;

/// Panics unless the store at `db` is sound; the number of stored reports.
pub fn assert_sound(db: &Path, mut log_verify: Command) -> usize {
    let conn = rusqlite::Connection::open(db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    // Killed before the first migration committed: the file is there, with no table at all
    // (each migration is one transaction). The next `byop` creates the schema.
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    if version == 0 {
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0, "a store at schema v0 has no table");
    }
    let rows: Vec<(String, String)> = if version == 0 {
        Vec::new()
    } else {
        let mut stmt = conn
            .prepare("SELECT report_id, report_json FROM reports")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    for (id, body) in &rows {
        let report: serde_json::Value = serde_json::from_str(body).expect("a whole report");
        assert_eq!(report["report_id"], id.as_str());
    }
    let log = log_verify.output().unwrap();
    assert!(
        log.status.success(),
        "audit chain: {}",
        String::from_utf8_lossy(&log.stderr)
    );
    rows.len()
}
