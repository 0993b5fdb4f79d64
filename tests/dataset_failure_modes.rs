//! `byop dataset` tallies the known failure modes of plans: time hallucination,
//! overconfidence, humanly impossible schedules and context collapse (coverage against the
//! notes' length). The dataset is written here; each plan is built to show the modes
//! listed beside it, and the expected counts are summed from those lists.

mod support;

use serde_json::{Value, json};
use support::workspace::{Ws, stderr, stdout};

/// Notes of at least this many words are long (README, Datasets: failure modes).
const LONG_NOTES_WORDS: usize = 300;

const HEAD: &str =
    "---\ncurrent_time: \"2026-06-02T09:00:00+02:00\"\ntimezone: Europe/Berlin\n---\n";
const TASKS3: &str =
    "- Draft the quarterly report\n- Review the vendor contract\n- Update the project wiki\n";

/// Background prose with no task, time or meeting in it: it only makes the notes long.
const PROSE: [&str; 6] = [
    "The garden behind the house looks lovely this season and the neighbours keep asking about the roses by the fence.",
    "Last year the roses were planted in rows along the path, and the gravel was raked into neat patterns every weekend.",
    "The cat sleeps on the warm bricks near the kitchen window and ignores the birds that gather on the old cherry tree.",
    "My sister writes long letters about her travels through the mountains, the small villages and the slow trains between them.",
    "The bakery on the corner sells bread with seeds and honey, and the smell reaches the bus stop across the square.",
    "Rain fell softly over the roofs and the river rose a little, carrying leaves past the stone bridge near the market.",
];

fn notes(kind: &str) -> String {
    match kind {
        "short" => format!("{HEAD}work 9:00-17:00\n{TASKS3}"),
        // A hard stop at noon: 180 minutes from 9:00.
        "tight" => format!("{HEAD}work 9:00-17:00\nhard stop at 12:00\n{TASKS3}"),
        _ => {
            let mut n = format!(
                "{HEAD}work 9:00-17:00\n{TASKS3}- Renew the parking permit\n- Archive the old invoices\n\n"
            );
            for _ in 0..4 {
                n += &PROSE.join(" ");
                n += "\n\n";
            }
            n
        }
    }
}

/// One plan output: where it goes, what its front matter declares, its items
/// (`(time range, task, minutes)`), its confidence, and the modes it was built to show.
struct Output {
    scenario: &'static str,
    variant: &'static str,
    declared: &'static str,
    items: &'static [(&'static str, &'static str, u32)],
    confidence: &'static str,
    modes: &'static [&'static str],
}

const OUTPUTS: [Output; 6] = [
    Output {
        scenario: "short",
        variant: "careful",
        declared: "careful",
        items: &[
            ("09:00–10:00", "Draft the quarterly report", 60),
            ("10:00–10:45", "Review the vendor contract", 45),
            ("10:45–11:15", "Update the project wiki", 30),
        ],
        confidence: "high",
        // Inside the day, every task, 135 minutes: it passes, so high confidence is earned.
        modes: &[],
    },
    Output {
        scenario: "tight",
        variant: "careful",
        declared: "careful",
        items: &[
            ("", "Draft the quarterly report", 50),
            ("", "Review the vendor contract", 45),
            ("", "Update the project wiki", 30),
        ],
        confidence: "high",
        // 125 of the 180 minutes before the noon stop.
        modes: &[],
    },
    Output {
        scenario: "long",
        variant: "careful",
        declared: "careful",
        items: &[
            ("", "Draft the quarterly report", 45),
            ("", "Review the vendor contract", 45),
            ("", "Update the project wiki", 30),
            ("", "Renew the parking permit", 20),
            ("", "Archive the old invoices", 20),
        ],
        confidence: "medium",
        // Long notes, all five tasks covered.
        modes: &[],
    },
    Output {
        scenario: "short",
        variant: "sloppy",
        declared: "sloppy",
        items: &[
            ("15:30–17:30", "Draft the quarterly report", 120),
            ("09:00–09:45", "Review the vendor contract", 45),
            ("09:45–10:15", "Update the project wiki", 30),
        ],
        confidence: "high",
        // The report runs past the 17:00 end of the day (a violated constraint: it fails),
        // said with high confidence.
        modes: &["time_hallucination", "overconfidence"],
    },
    Output {
        scenario: "tight",
        variant: "sloppy",
        // Mislabelled: its front matter claims the other variant.
        declared: "careful",
        items: &[
            ("", "Draft the quarterly report", 70),
            ("", "Review the vendor contract", 70),
            ("", "Update the project wiki", 70),
        ],
        confidence: "medium",
        // 210 minutes planned, 180 available before the noon stop.
        modes: &["time_hallucination"],
    },
    Output {
        scenario: "long",
        variant: "sloppy",
        declared: "sloppy",
        items: &[
            ("", "Draft the quarterly report", 200),
            ("", "Lunch break", 30),
            ("", "Review the vendor contract", 30),
        ],
        confidence: "low",
        // One 200-minute block (over 180), and 2 of the long notes' 5 tasks (0.4).
        modes: &["impossible_schedule", "context_collapse"],
    },
];

fn plan_text(o: &Output) -> String {
    let head = HEAD.replace("---\n", "");
    let mut t = format!("---\n{head}variant: {}\n---\n# Plan\n", o.declared);
    for (time, task, minutes) in o.items {
        let time = if time.is_empty() {
            String::new()
        } else {
            format!("{time} ")
        };
        t += &format!("- {time}{task} ({minutes} min) — planned\n");
    }
    t + &format!(
        "\n## Assumptions\n- None\n\n## Questions\n- None\n\nConfidence: {}\n",
        o.confidence
    )
}

fn write_dataset(ws: &Ws) {
    std::fs::create_dir_all(ws.path("days/scenarios")).unwrap();
    for kind in ["short", "tight", "long"] {
        ws.write(&format!("days/scenarios/{kind}.md"), &notes(kind));
    }
    for o in &OUTPUTS {
        std::fs::create_dir_all(ws.path(&format!("days/variants/{}", o.variant))).unwrap();
        ws.write(
            &format!("days/variants/{}/{}.md", o.variant, o.scenario),
            &plan_text(o),
        );
    }
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// The tallies the outputs were built for, per variant.
fn expected(variant: &str) -> Value {
    let mine: Vec<&Output> = OUTPUTS.iter().filter(|o| o.variant == variant).collect();
    let count = |m: &str| mine.iter().filter(|o| o.modes.contains(&m)).count();
    json!({
        "plans": mine.len(),
        "time_hallucination": count("time_hallucination"),
        "overconfidence": count("overconfidence"),
        "impossible_schedule": count("impossible_schedule"),
        "context_collapse": count("context_collapse"),
        "long_notes": mine.iter().filter(|o| o.scenario == "long").count(),
    })
}

#[test]
fn failure_modes_are_tallied_per_variant_and_named_per_plan() {
    let long = notes("long");
    let body = &long[HEAD.len()..];
    assert!(words(body) >= LONG_NOTES_WORDS, "{} words", words(body));
    assert!(words(&notes("short")[HEAD.len()..]) < LONG_NOTES_WORDS);
    let ws = Ws::new();
    write_dataset(&ws);
    let run = |format: &str| {
        let o = ws.run(&[
            "dataset",
            "days",
            "--playbook",
            "planproof_v1",
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let s: Value = serde_json::from_str(&run("json")).unwrap();
    for (i, variant) in ["careful", "sloppy"].into_iter().enumerate() {
        let v = &s["variants"][i];
        assert_eq!(v["variant"], variant);
        let f = &v["failure_modes"];
        for (k, want) in expected(variant).as_object().unwrap() {
            assert_eq!(&f[k], want, "{variant}: {k}");
        }
    }
    // Coverage against the notes' length: every task of the short notes covered by both;
    // on the long notes all 5 by `careful`, 2 of 5 by `sloppy`.
    let f = |i: usize, k: &str| s["variants"][i]["failure_modes"][k].as_f64().unwrap();
    assert_eq!(f(0, "coverage_short_notes"), 1.0);
    assert_eq!(f(0, "coverage_long_notes"), 1.0);
    assert!((f(1, "coverage_long_notes") - 2.0 / 5.0).abs() < 1e-9);
    // Each cell names its plan's modes and the variant its front matter declares.
    for row in s["scenarios"].as_array().unwrap() {
        for (i, variant) in ["careful", "sloppy"].into_iter().enumerate() {
            let o = OUTPUTS
                .iter()
                .find(|o| o.scenario == row["scenario"] && o.variant == variant)
                .unwrap();
            let cell = &row["cells"][i];
            let modes = cell.get("failure_modes").cloned().unwrap_or(json!([]));
            assert_eq!(modes, json!(o.modes), "{}/{variant}", o.scenario);
            assert_eq!(cell["declared_variant"], o.declared);
        }
    }
    let text = run("text");
    assert!(text.contains("Failure modes (plans):"), "{text}");
    let sloppy = text
        .lines()
        .skip_while(|l| !l.starts_with("Failure modes"))
        .find(|l| l.trim_start().starts_with("sloppy"))
        .unwrap();
    let cols: Vec<&str> = sloppy.split_whitespace().collect();
    let e = expected("sloppy");
    let want: Vec<String> = [
        "plans",
        "time_hallucination",
        "overconfidence",
        "impossible_schedule",
        "context_collapse",
        "long_notes",
    ]
    .iter()
    .map(|k| e[k].to_string())
    .collect();
    assert_eq!(cols[1..7], want[..], "{sloppy}");
    assert!(
        text.contains("tight/sloppy declares variant `careful`"),
        "{text}"
    );
    let html = run("html");
    assert!(html.contains("<h2>Failure modes</h2>"));
}
