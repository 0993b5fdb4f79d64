//! One batch of prepared reports, on both backends, saved by a few shared statements:
//! each report ends where saving it alone would have put it — stored, a rerun of the
//! newest report it repeats, decided again when the newest report changed since it was
//! prepared, the second of one document compared with the first — across more reports
//! than one statement carries.

use super::*;

fn changed(r: &Report, id: &str, timestamp: &str) -> Report {
    let mut c = rerun_of(r, id, timestamp);
    c.summary.key_risks = vec![format!("a different result ({id})")];
    c
}

#[test]
fn a_prepared_batch_ends_as_each_report_saved_alone_would_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let t0 = "2026-02-01T00:00:00Z";
        let t1 = "2026-02-02T00:00:00Z";
        let t2 = "2026-02-03T00:00:00Z";
        // Already stored before the batch.
        let b0 = report("b0", t0, "sha256:in", Mode::Full);
        let c0 = report("c0", t0, "sha256:in", Mode::Full);
        let d0 = report("d0", t0, "sha256:in", Mode::Full);
        let g0 = report("shared-id", t0, "sha256:in", Mode::Full);
        for (doc, r) in [("b.md", &b0), ("c.md", &c0), ("d.md", &d0), ("g.md", &g0)] {
            store.save_report(doc, r).unwrap();
        }
        // The batch's reports, and what each saw of its document when prepared.
        let a = report("a1", t1, "sha256:in", Mode::Full);
        let b = rerun_of(&b0, "b1", t1);
        let c = changed(&c0, "c1", t1);
        let d = rerun_of(&d0, "d2", t2);
        let e1 = report("e1", t1, "sha256:in", Mode::Full);
        let e2 = rerun_of(&e1, "e2", t2);
        let f = rerun_of(&g0, "shared-id", t1);
        let many: Vec<Report> = (0..150)
            .map(|i| report(&format!("m{i:03}"), t1, "sha256:in", Mode::Full))
            .collect();
        let docs: Vec<String> = (0..150).map(|i| format!("m{i:03}.md")).collect();
        let mut prepared = vec![
            store.prepare_report("a.md", &a, Seen::Nothing).unwrap(),
            store.prepare_report("b.md", &b, Seen::Report(&b0)).unwrap(),
            store.prepare_report("c.md", &c, Seen::Report(&c0)).unwrap(),
            store.prepare_report("d.md", &d, Seen::Report(&d0)).unwrap(),
            store.prepare_report("e.md", &e1, Seen::Nothing).unwrap(),
            store.prepare_report("e.md", &e2, Seen::Nothing).unwrap(),
            store.prepare_report("f.md", &f, Seen::Nothing).unwrap(),
        ];
        for (doc, r) in docs.iter().zip(&many) {
            prepared.push(store.prepare_report(doc, r, Seen::Nothing).unwrap());
        }
        // Another process saves d.md meanwhile, with other results than `d` repeats.
        store
            .save_report("d.md", &changed(&d0, "d1", t1))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let events = [event("a.md", AuditState::Received)];
        let stored = store.save_prepared(&prepared, &events).unwrap();
        let mut expected = vec!["a1", "b0", "c1", "d2", "e1", "e1", "shared-id"];
        let many_ids: Vec<&str> = many.iter().map(|r| r.report_id.as_str()).collect();
        expected.extend(&many_ids);
        assert_eq!(stored, expected, "{name}");
        // Stored: a1, c1, d2, e1 and the 150; reruns: b1 of b0, e2 of e1.
        let rows = store.history(None, 1000).unwrap();
        let reruns: Vec<(&str, &str)> = rows
            .iter()
            .filter_map(|r| Some((r.rerun_id.as_deref()?, r.report_id.as_str())))
            .collect();
        let mut reruns = reruns;
        reruns.sort();
        assert_eq!(reruns, [("b1", "b0"), ("e2", "e1")], "{name}");
        assert_eq!(rows.len(), 5 + 4 + 150 + 2, "{name}: every report once");
        for id in ["a1", "c1", "d2", "e1", "m000", "m149"] {
            assert!(store.get_report(id).unwrap().is_some(), "{name}: {id}");
        }
        // The shared id kept its first document.
        assert_eq!(
            store.document_of("shared-id").unwrap().as_deref(),
            Some("g.md"),
            "{name}"
        );
        assert!(store.verify_audit().unwrap().is_ok(), "{name}");
    }
}
