//! The evaluator response cache under races on both backends: many writers of one key at
//! once (the same request evaluated by several processes) all succeed and leave one
//! whole row, written by one of them, that verifies.

use super::*;

#[test]
fn racing_writers_of_one_cache_key_leave_one_whole_row_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        const WRITERS: usize = 8;
        let written = race(&place, WRITERS, |store, w| {
            store.put_cached_response_for(
                "same-key",
                "anthropic",
                "m",
                &format!("answer {w}"),
                Some("a.md"),
            )
        });
        for result in written {
            result.unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let store = place.open(KEY);
        let raw = store.cached_response("same-key").unwrap();
        let raw = raw.unwrap_or_else(|| panic!("{name}: the row verifies"));
        assert!(
            (0..WRITERS).any(|w| raw == format!("answer {w}")),
            "{name}: {raw}"
        );
        assert_eq!(store.integrity_notice(), None, "{name}");
        let rows = store
            .read("counting", |tx| {
                tx.query("SELECT count(*) FROM responses", &[])
                    .map_err(|e| store.err("counting", e))
            })
            .unwrap();
        assert_eq!(rows[0].int(0).unwrap(), 1, "{name}: one row");
    }
}
