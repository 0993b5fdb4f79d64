//! A document's runs for its drift chart, and its history page, on both backends: read
//! without the reports' JSON, each verified by its summary MAC (or, written before there
//! was one, by its whole row's MAC); an edited summary column is never shown.

use super::*;

fn ids(runs: &[Run]) -> Vec<String> {
    runs.iter()
        .map(|r| {
            r.row
                .rerun_id
                .clone()
                .unwrap_or_else(|| r.row.report_id.clone())
        })
        .collect()
}

fn ids_of(rows: &[HistoryRow]) -> Vec<String> {
    rows.iter()
        .map(|r| r.rerun_id.clone().unwrap_or_else(|| r.report_id.clone()))
        .collect()
}

#[test]
fn a_documents_runs_are_read_oldest_first_and_each_verified_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for (name, place) in places(&dir) {
        let store = place.open(KEY);
        let d1 = report("d1", "2026-01-01T00:00:00Z", "sha256:d1", Mode::Full);
        let d2 = report("d2", "2026-01-02T00:00:00Z", "sha256:d2", Mode::Full);
        let again = rerun_of(&d2, "d2-again", "2026-01-03T00:00:00Z");
        let d3 = report("d3", "2026-01-04T00:00:00Z", "sha256:d3", Mode::Full);
        let untimed = report("u", "no time", "sha256:u", Mode::Full);
        let other = report("o", "2026-01-02T12:00:00Z", "sha256:o", Mode::Full);
        for (doc, r) in [
            ("d.md", &d1),
            ("d.md", &d2),
            ("d.md", &again),
            ("d.md", &d3),
            ("d.md", &untimed),
            ("o.md", &other),
        ] {
            store.save_batch(&[(doc, r)], &[]).unwrap();
        }
        store.save_baseline("d.md", "d2").unwrap();
        let runs = store.document_runs("d.md").unwrap();
        assert_eq!(ids(&runs), ["u", "d1", "d2", "d2-again", "d3"], "{name}");
        assert_eq!(runs[0].ns, None, "{name}");
        assert_eq!(runs[1].ns, timestamp_ns("2026-01-01T00:00:00Z"), "{name}");
        let base: Vec<bool> = runs.iter().map(|r| r.row.is_baseline).collect();
        assert_eq!(base, [false, false, true, true, false], "{name}");
        assert_eq!(
            runs[3].row.timestamp, "2026-01-03T00:00:00Z",
            "{name}: the rerun's own time"
        );
        assert_eq!(
            (runs[3].row.status, runs[3].row.consistency_score),
            (
                d2.summary.overall_status,
                d2.variance_summary.consistency_score
            ),
            "{name}: the rerun shows its report's results"
        );

        // A row written before summary MACs is verified by its whole row.
        place.tamper("UPDATE reports SET summary_mac = NULL WHERE report_id = 'd1'");
        assert_eq!(
            ids(&store.document_runs("d.md").unwrap()).len(),
            5,
            "{name}"
        );
        let history = |store: &Store| ids_of(&store.history(Some("d.md"), 10).unwrap());
        assert_eq!(
            history(&store),
            ["d3", "d2-again", "d2", "d1", "u"],
            "{name}"
        );
        // An edited status is never drawn, whichever MAC the row has; nor is a rerun of
        // an edited report.
        place.tamper("UPDATE reports SET status = 'STABLE' WHERE report_id IN ('d1', 'd3')");
        place.tamper("UPDATE reports SET consistency_score = 0.01 WHERE report_id = 'd2'");
        assert_eq!(ids(&store.document_runs("d.md").unwrap()), ["u"], "{name}");
        assert_eq!(
            history(&store),
            ["u"],
            "{name}: the history reads the same columns"
        );
        place.tamper("UPDATE reports SET consistency_score = 0.0 WHERE report_id = 'u'");
        assert!(store.document_runs("d.md").unwrap().is_empty(), "{name}");
    }
}
