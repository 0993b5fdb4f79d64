//! The counterfactual audit keeps its pairs: one record per pair and side, in the JSON
//! result and as JSON lines (`--format jsonl`); reads the paired difference with a seeded
//! wild bootstrap interval; and corrects each side's fail rate for a detector's known
//! error rates when the cue catalog gives them. End to end against the local fake
//! evaluator, with the expected figures worked out by hand.

mod support;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, json, stderr, stdout};

const CHECK: &str = "certainty_language";

fn workspace() -> Ws {
    let ws = Ws::new();
    ws.audit_inputs(
        "I am {{cue:author}}. Please {{cue:review_word}} this NDA before we sign.",
        r#"{"include_builtin": false,
            "detector_rates": {"certainty_language": {"alpha": 0.1, "beta": 0.2, "source": "hand labels, test set"}},
            "cues": [
            {"name": "seniority", "slot": "author", "control": "a junior associate", "treatment": ["a senior partner"]},
            {"name": "placebo_synonym", "slot": "review_word", "placebo": true, "control": "review", "treatment": ["look over"]}
        ]}"#,
    );
    ws.write("byop.toml", "[evaluator]\nconcurrency = 1\n");
    ws
}

/// The control alternates pass, fail by run; the senior partner always fails: b = 10,
/// c = 0 and both sides fail in the other 10 of 20 pairs.
fn script() -> Script {
    let alternate = vec![Step::pass(), Step::fail_first_sentence()];
    Script::always(alternate.clone())
        .when(
            Some(CHECK),
            "a senior partner",
            vec![Step::fail_first_sentence()],
        )
        .when(Some(CHECK), "Please look over this NDA", alternate)
}

const RUN: &str = "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 20 --seed 9 --max-calls 100";

fn close(v: &Value, x: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - x).abs() <= tol, "{got} vs {x}");
}

fn seniority(a: &Value) -> &Value {
    a["byop_counterfactual"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["cue"] == "seniority")
        .unwrap()
}

#[test]
fn every_pair_side_is_kept_and_exported_one_per_line() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let o = ws.run_llm(&llm, &format!("{RUN} --format jsonl"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    // 2 cues × 20 pairs × 2 sides.
    assert_eq!(lines.len(), 80);
    let audit_id = lines[0]["audit_id"].as_str().unwrap().to_string();
    assert_eq!(audit_id.len(), 16);
    for t in &lines {
        assert_eq!(t["audit_id"], audit_id.as_str());
        assert_eq!(t["check_id"], CHECK);
        assert_eq!(t["seed"], 9);
        assert!(
            t["model_identifier"]
                .as_str()
                .unwrap()
                .starts_with("anthropic/"),
            "{t}"
        );
        assert!(
            t["case_identifier"]
                .as_str()
                .unwrap()
                .ends_with("audit.ai.md")
        );
        assert!(
            ["pass", "fail"].contains(&t["verdict"].as_str().unwrap()),
            "{t}"
        );
        assert!(
            t["notes_sha256"].as_str().unwrap().starts_with("sha256:"),
            "{t}"
        );
    }
    // Both sides of every pair share its run index; the values are the cue's.
    let side = |cue: &str, cond: &str| -> Vec<&Value> {
        lines
            .iter()
            .filter(|t| t["cue_name"] == cue && t["cue_condition"] == cond)
            .collect()
    };
    let (control, treatment) = (side("seniority", "control"), side("seniority", "treatment"));
    assert_eq!((control.len(), treatment.len()), (20, 20));
    assert!(
        control
            .iter()
            .all(|t| t["cue_value"] == "a junior associate")
    );
    assert!(
        treatment
            .iter()
            .all(|t| t["cue_value"] == "a senior partner")
    );
    let (mut b, mut c) = (0, 0);
    for (x, y) in control.iter().zip(&treatment) {
        assert_eq!(x["run"], y["run"]);
        assert_eq!(x["pair"], y["pair"]);
        match (
            x["verdict"].as_str().unwrap(),
            y["verdict"].as_str().unwrap(),
        ) {
            ("pass", "fail") => b += 1,
            ("fail", "pass") => c += 1,
            _ => {}
        }
    }
    // The totals re-computed from the kept pairs are the result's.
    assert_eq!((b, c), (10, 0));
    let again = ws.run_llm(&llm, &format!("{RUN} --format json"));
    let a = json(&again);
    let row = seniority(&a);
    assert_eq!((row["b"].as_u64(), row["c"].as_u64()), (Some(10), Some(0)));
    let trials = a["byop_counterfactual"]["trials"].as_array().unwrap();
    assert_eq!(trials.len(), 80, "the JSON result keeps them too");
    assert_eq!(
        trials[0]["trial_id"],
        "certainty_language/seniority/1/control"
    );
    // The stored audit keeps them: `byop report` shows the same trials.
    let id = a["byop_counterfactual"]["audit_id"].as_str().unwrap();
    let shown = json(&ws.run(&["report", id, "--format", "json"]));
    assert_eq!(
        shown["byop_counterfactual"]["trials"]
            .as_array()
            .unwrap()
            .len(),
        80
    );
}

#[test]
fn the_paired_difference_has_a_seeded_bootstrap_interval_and_rates_are_corrected() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let first = json(&ws.run_llm(&llm, &format!("{RUN} --format json")));
    let row = seniority(&first);
    // d̄ = (b − c)/n = 10/20; residuals ±0.5 give sd √5/20 ≈ 0.112, so the interval is
    // about 0.5 ± 0.22.
    let d = &row["paired_difference"];
    close(&d["estimate"], 0.5, 1e-12);
    close(&d["ci95"][0], 0.281, 0.05);
    close(&d["ci95"][1], 0.719, 0.05);
    assert_eq!(d["method"], "wild_bootstrap_rademacher");
    // The same seed gives the same interval (the rerun comes from the cache).
    let second = json(&ws.run_llm(&llm, &format!("{RUN} --format json")));
    assert_eq!(seniority(&second)["paired_difference"], *d);

    // Control: 10 fails of 20 → 0.5, Wilson [0.2993, 0.7007]; corrected with α = 0.1,
    // β = 0.2: (0.5 − 0.1)/0.7 = 0.5714, interval [0.2847, 0.8581].
    let m = &row["measurement"];
    assert_eq!(m["alpha"], 0.1);
    assert_eq!(m["beta"], 0.2);
    assert_eq!(m["source"], "hand labels, test set");
    close(&m["control"]["raw"], 0.5, 1e-12);
    close(&m["control"]["raw_ci95"][0], 0.2993, 1e-4);
    close(&m["control"]["raw_ci95"][1], 0.7007, 1e-4);
    close(&m["control"]["corrected"], 0.571_428_6, 1e-6);
    close(&m["control"]["corrected_ci95"][0], 0.2847, 1e-4);
    close(&m["control"]["corrected_ci95"][1], 0.8581, 1e-4);
    // Treatment: 20 of 20; (1 − 0.1)/0.7 > 1 is kept at 1.
    close(&m["treatment"]["raw"], 1.0, 1e-12);
    close(&m["treatment"]["corrected"], 1.0, 1e-12);

    let text = stdout(&ws.run_llm(&llm, RUN));
    assert!(text.contains("paired difference"), "{text}");
    assert!(
        text.contains("corrected with α = 0.1000, β = 0.2000: hand labels, test set"),
        "{text}"
    );
}
