use super::*;
use crate::model::Mode;

const MINUTE: i64 = 60_000_000_000;

fn run(i: usize, status: Status, consistency: f64) -> Run {
    let ns = 1_767_225_600_000_000_000 + i as i64 * MINUTE;
    Run {
        ns: Some(ns),
        row: HistoryRow {
            report_id: format!("r{i:05}"),
            timestamp: format!("minute {i}"),
            document: "d.md".into(),
            playbook_id: "p".into(),
            playbook_version: "1".into(),
            mode: Mode::Full,
            status,
            consistency_score: consistency,
            is_baseline: false,
            rerun_id: None,
        },
    }
}

#[test]
fn a_short_history_is_a_point_a_run() {
    let mut runs: Vec<Run> = (0..MAX_POINTS)
        .map(|i| run(i, Status::Stable, 1.0))
        .collect();
    runs[3].row.is_baseline = true;
    let c = drift(&runs);
    assert_eq!(c.points.len(), MAX_POINTS);
    assert!(c.points.iter().all(|p| p.runs == 1));
    assert!(c.caption.is_none());
    let baselines: Vec<&str> = c
        .points
        .iter()
        .filter(|p| p.baseline)
        .map(|p| p.report_id.as_str())
        .collect();
    assert_eq!(baselines, ["r00003"]);
}

/// 10 000 runs a minute apart: at most `MAX_POINTS` points, which together stand for every
/// run once, each for the runs of one time bucket (consecutive, within one bucket's
/// width); a point shows its runs' worst status and lowest consistency and links to the
/// run that is both; the baseline report and the latest run are points of their own.
#[test]
fn a_long_history_is_thinned_by_time_and_each_point_says_what_it_stands_for() {
    let n = 10_000;
    let mut runs: Vec<Run> = (0..n).map(|i| run(i, Status::Stable, 0.95)).collect();
    runs[4321].row.status = Status::Alert;
    runs[4322].row.consistency_score = 0.40;
    runs[7000].row.status = Status::Review;
    runs[7001].row.status = Status::Review;
    runs[7001].row.consistency_score = 0.5;
    runs[5000].row.is_baseline = true;
    // A rerun of the baseline report is an ordinary run of its bucket.
    runs[5500].row.is_baseline = true;
    runs[5500].row.rerun_id = Some("again".into());
    let c = drift(&runs);
    assert!(c.points.len() <= MAX_POINTS, "{}", c.points.len());
    assert!(c.points.len() > MAX_POINTS / 2, "{}", c.points.len());
    assert_eq!(c.points.iter().map(|p| p.runs).sum::<usize>(), n);
    let caption = c.caption.as_deref().unwrap();
    assert!(
        caption.starts_with(&format!("10000 runs drawn as {} points", c.points.len())),
        "{caption}"
    );
    assert!(
        caption.contains("worst status and lowest consistency"),
        "{caption}"
    );

    // Each point's runs are consecutive and within one bucket: recover them from the
    // points' run counts and check their time spread against the caption's bucket.
    let (groups, width) = groups(&runs);
    let width = width.expect("thinned");
    let whole = 9_999 * i128::from(MINUTE);
    assert!(
        width * MAX_POINTS as i128 > whole && width < whole / 100,
        "{width}"
    );
    let mut at = 0;
    for (g, p) in groups.iter().zip(&c.points) {
        assert_eq!(g.runs.len(), p.runs);
        assert!(std::ptr::eq(g.runs[0], &runs[at]), "consecutive runs");
        at += p.runs;
        let (lo, hi) = (g.runs[0].ns.unwrap(), g.runs[p.runs - 1].ns.unwrap());
        assert!(
            i128::from(hi - lo) < width,
            "one bucket: {lo}..{hi} over {width}"
        );
        assert!(
            p.title.starts_with(&format!("{} run", p.runs)) || p.runs == 1,
            "{}",
            p.title
        );
    }

    let holding = |id: &str| {
        let i: usize = id[1..].parse().unwrap();
        let mut seen = 0;
        c.points
            .iter()
            .find(|p| {
                seen += p.runs;
                seen > i
            })
            .unwrap()
    };
    let alert = holding("r04321");
    assert_eq!(
        (alert.class, alert.report_id.as_str()),
        ("s-alert", "r04321")
    );
    assert_eq!(
        alert.y,
        format!("{:.1}", y_of(0.40)),
        "the lowest consistency of its runs"
    );
    assert!(
        alert
            .title
            .contains("worst ALERT (1 of them) · lowest consistency 0.40"),
        "{}",
        alert.title
    );
    let review = holding("r07000");
    assert_eq!(
        (review.class, review.report_id.as_str()),
        ("s-review", "r07001")
    );
    let base = holding("r05000");
    assert_eq!(
        (base.runs, base.baseline, base.report_id.as_str()),
        (1, true, "r05000")
    );
    assert_eq!(c.points.iter().filter(|p| p.baseline).count(), 1);
    let last = c.points.last().unwrap();
    assert_eq!((last.runs, last.report_id.as_str()), (1, "r09999"));
    let quiet = holding("r00100");
    assert_eq!(
        (quiet.class, quiet.y.clone()),
        ("s-stable", format!("{:.1}", y_of(0.95)))
    );
}

#[test]
fn untimed_runs_share_the_first_point() {
    let mut runs: Vec<Run> = (0..1000).map(|i| run(i, Status::Stable, 1.0)).collect();
    for r in &mut runs[..3] {
        r.ns = None;
    }
    let c = drift(&runs);
    assert_eq!(c.points[0].runs, 3);
    assert_eq!(c.points.iter().map(|p| p.runs).sum::<usize>(), 1000);
    let none: Vec<Run> = (0..1000)
        .map(|i| Run {
            ns: None,
            ..run(i, Status::Observe, 0.9)
        })
        .collect();
    let c = drift(&none);
    assert_eq!(
        c.points.iter().map(|p| p.runs).collect::<Vec<_>>(),
        [999, 1]
    );
}
