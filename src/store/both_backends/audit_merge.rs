//! Audit rows recorded in another store (the language server's offline copy) appended
//! to a store's chain on both backends: once each, however often or however many at
//! once carry them, and the chain verifies afterwards.

use super::*;

fn offline(request: &str, state: AuditState, at: &str) -> AuditEvent {
    AuditEvent {
        request_id: request.into(),
        at: at.into(),
        ..event("offline.md", state)
    }
}

#[test]
fn rows_from_elsewhere_are_appended_once_and_the_chain_verifies_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let mut store = place.open(KEY);
        store.head_path = Some(dir.path().join(format!("{name}-merge-head.json")));
        store
            .append_audit(&[event("online.md", AuditState::Received)])
            .unwrap();
        // Two identical rows of one request are two rows, kept as two.
        let carried = vec![
            offline("off-1", AuditState::Received, "2026-01-01T00:00:01Z"),
            offline("off-1", AuditState::Evaluated, "2026-01-01T00:00:02Z"),
            offline("off-1", AuditState::Evaluated, "2026-01-01T00:00:02Z"),
            offline("off-2", AuditState::Received, "2026-01-01T00:00:03Z"),
        ];
        // Two processes carrying the same rows at once: each row lands once.
        let appended: usize = std::thread::scope(|s| {
            let runs: Vec<_> = (0..2)
                .map(|_| {
                    let (place, carried) = (place.clone(), carried.clone());
                    s.spawn(move || place.open(KEY).append_audit_once(&carried).unwrap())
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).sum()
        });
        assert_eq!(appended, 4, "{name}");
        // Carried again (a mark lost after the commit): nothing new.
        assert_eq!(store.append_audit_once(&carried).unwrap(), 0, "{name}");
        // A row added to the copy later is the only one appended.
        let mut more = carried.clone();
        more.push(offline("off-2", AuditState::Halted, "2026-01-01T00:00:04Z"));
        assert_eq!(store.append_audit_once(&more).unwrap(), 1, "{name}");
        let log = store.audit_log(None, 100).unwrap();
        assert_eq!(log.len(), 6, "{name}");
        let events: Vec<AuditEvent> = log[1..].iter().map(|r| r.event.clone()).collect();
        assert_eq!(events, more, "{name}: in order, content unchanged");
        assert_eq!(
            store.verify_audit().unwrap().map(|v| v.rows),
            Ok(6),
            "{name}"
        );
        assert_eq!(store.audit_after(4).unwrap().len(), 2, "{name}");
        assert_eq!(
            store.audit_row(6).unwrap().unwrap().event,
            more[4],
            "{name}"
        );
    }
}
