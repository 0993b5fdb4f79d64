//! A team store's connections: the pool hands a connection out without testing it with a
//! round trip, so one the server closed while it sat idle (a restart, an idle timeout, an
//! administrator) must show when a transaction starts on it, and the store must take
//! another one instead of failing the read or write.

use super::*;

const CLOSE_OTHERS: &str = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()";

#[test]
fn a_connection_the_server_closed_while_idle_is_replaced_on_the_next_read_and_write() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let Place::Server(_) = place else { continue };
        let store = place.open(KEY);
        let first = report("r1", "2026-03-01T00:00:00Z", "sha256:r1", Mode::Full);
        store.save_report("a.md", &first).unwrap();
        place.tamper(CLOSE_OTHERS);
        assert_eq!(store.history(None, 10).unwrap().len(), 1, "{name}: a read");
        place.tamper(CLOSE_OTHERS);
        let second = report("r2", "2026-03-02T00:00:00Z", "sha256:r2", Mode::Full);
        store
            .save_report("a.md", &second)
            .unwrap_or_else(|e| panic!("{name}: a write: {e}"));
        assert_eq!(store.history(None, 10).unwrap().len(), 2, "{name}");
    }
}
