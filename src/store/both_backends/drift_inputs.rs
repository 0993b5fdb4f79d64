//! What a batch of runs compares with, read for all documents at once, on both backends:
//! each document gets what reading it alone gives — the newest report of its playbook
//! and mode that verifies (an edited newest row passed over for the one before it), its
//! baseline when the baseline row and its report verify — across more documents than
//! one statement carries.

use super::*;

#[test]
fn a_batch_reads_what_each_document_alone_would_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let hash = hash();
        let at = |day: u32| format!("2026-04-{day:02}T00:00:00Z");
        let full1 = report("a-full-1", &at(1), "sha256:a1", Mode::Full);
        let full2 = report("a-full-2", &at(2), "sha256:a2", Mode::Full);
        let det = report("a-det", &at(3), "sha256:a3", Mode::Deterministic);
        let b1 = report("b-1", &at(1), "sha256:b1", Mode::Full);
        let b2 = report("b-2", &at(2), "sha256:b2", Mode::Full);
        let c1 = report("c-1", &at(1), "sha256:c1", Mode::Full);
        for (doc, r) in [
            ("a.md", &full1),
            ("a.md", &full2),
            ("a.md", &det),
            ("b.md", &b1),
            ("b.md", &b2),
            ("c.md", &c1),
        ] {
            store.save_report(doc, r).unwrap();
        }
        store.save_baseline("a.md", "a-full-1").unwrap();
        store.save_baseline("c.md", "c-1").unwrap();
        // b.md's newest row edited: passed over for the one before it. c.md's baseline
        // row edited: no baseline.
        place.tamper("UPDATE reports SET status = 'PASS' WHERE report_id = 'b-2'");
        place.tamper(
            "UPDATE baselines SET saved_at = '2000-01-01T00:00:00Z' WHERE doc_key = 'c.md'",
        );
        let mut series: Vec<(String, Mode)> = vec![
            ("a.md".into(), Mode::Full),
            ("a.md".into(), Mode::Deterministic),
            ("b.md".into(), Mode::Full),
            ("c.md".into(), Mode::Full),
            ("none.md".into(), Mode::Full),
        ];
        series.extend((0..120).map(|i| (format!("new-{i}.md"), Mode::Full)));
        series.push(("a.md".into(), Mode::Full));
        let asked: Vec<Series> = series
            .iter()
            .map(|(doc, mode)| (doc.as_str(), hash.as_str(), *mode))
            .collect();
        let many = store.drift_inputs_many(&asked).unwrap();
        assert_eq!(many.len(), asked.len(), "{name}");
        let id = |r: &Option<Report>| r.as_ref().map(|r| r.report_id.clone());
        let got: Vec<(Option<String>, Option<String>)> = many
            .iter()
            .map(|i| (id(&i.latest), id(&i.baseline)))
            .collect();
        let s = |v: &str| Some(v.to_string());
        assert_eq!(got[0], (s("a-full-2"), s("a-full-1")), "{name}");
        assert_eq!(got[1], (s("a-det"), s("a-full-1")), "{name}");
        assert_eq!(got[2], (s("b-1"), None), "{name}");
        assert_eq!(got[3], (s("c-1"), None), "{name}");
        assert_eq!(got[4], (None, None), "{name}");
        assert!(got[5..125].iter().all(|g| *g == (None, None)), "{name}");
        assert_eq!(got[125], got[0], "{name}: the same series twice");
        for (one, (doc, hash, mode)) in many.iter().zip(&asked) {
            assert_eq!(
                *one,
                store.drift_inputs(doc, hash, *mode).unwrap(),
                "{name}: {doc}"
            );
        }
    }
}
