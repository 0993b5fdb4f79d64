//! Generating outputs from prompt variants, end to end against the built binary and the
//! local fake LLM server: `byop dataset run` (figures per variant, the paired comparison, a
//! second run with no call, a killed run resuming), `byop plan`, and the trust rules of a
//! `variant.toml`.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::fake_llm::{FakeLlm, Script, Step};
use support::generation::{NAIVE, REPAIR, SCENARIOS, body, dataset, run_args, script, variant};
use support::workspace::{Ws, examples, json, stderr};

fn expected() -> Value {
    let p = examples().join("planproof/expected.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn v1(sc: &str) -> Value {
    expected()[sc]["v1_naive"].clone()
}

fn says_high(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.contains("confidence") && l.contains("high")
    })
}

#[test]
fn a_run_generates_validates_repairs_and_compares_and_a_second_run_makes_no_call() {
    let ws = Ws::new();
    dataset(&ws, &[("a_naive", NAIVE), ("b_repair", REPAIR)]);
    let llm = FakeLlm::start_blocking(script());
    let args = run_args(&["--input-price", "3", "--output-price", "15"]);
    let o = ws.with_llm(&llm).args(&args).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json(&o);
    // Calls: four generations per variant, and a repair for each failing B plan.
    let failing_b: Vec<&str> = SCENARIOS
        .iter()
        .copied()
        .filter(|s| *s != "london_overbooked")
        .collect();
    assert_eq!(llm.calls_for("generate"), 8);
    assert_eq!(llm.calls_for("repair"), failing_b.len());
    // Variant A: every naive plan, as expected.json works them out by hand.
    let a = variant(&s, "a_naive");
    let sum = |f: &dyn Fn(&Value) -> u64| SCENARIOS.iter().map(|sc| f(&v1(sc))).sum::<u64>();
    let passed_a = SCENARIOS
        .iter()
        .filter(|sc| v1(sc)["status"] == "pass")
        .count();
    assert_eq!(a["outputs"], 4);
    assert_eq!(a["passed"], passed_a as u64);
    assert_eq!(
        a["constraint_violations"],
        sum(&|v| v["constraints_violated"].as_u64().unwrap())
    );
    assert_eq!(
        a["hallucination_flags"],
        sum(&|v| v["hallucination_flags"].as_u64().unwrap())
    );
    let over = SCENARIOS
        .iter()
        .filter(|sc| {
            let v = v1(sc);
            v["time_available_minutes"].as_i64() > Some(0)
                && v["time_overflow_minutes"].as_i64() > Some(0)
        })
        .count();
    assert_eq!(a["overflow_frequency"].as_f64().unwrap(), over as f64 / 4.0);
    let high_a = SCENARIOS
        .iter()
        .filter(|sc| says_high(&body("v1_naive", sc)))
        .count();
    assert_eq!(a["confidence_mismatches"], (high_a - passed_a) as u64);
    assert_eq!(
        (a["generated"].as_u64(), a["repair_attempted"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(
        (a["repaired"].as_u64(), a["rejected"].as_u64()),
        (Some(0), Some(0))
    );
    // The fake provider reports 10 input and 10 output tokens per call.
    assert_eq!(
        (a["input_tokens"].as_u64(), a["output_tokens"].as_u64()),
        (Some(40), Some(40))
    );
    let cost = a["cost_usd"].as_f64().unwrap();
    assert!(
        (cost - (40.0 * 3.0 + 40.0 * 15.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );
    // Variant B: london good as generated, two repaired, dentist rejected after its repair.
    let b = variant(&s, "b_repair");
    assert_eq!(
        (b["outputs"].as_u64(), b["passed"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(
        b["constraint_violations"],
        v1("dentist_day")["constraints_violated"]
    );
    assert_eq!(
        b["hallucination_flags"],
        v1("dentist_day")["hallucination_flags"]
    );
    assert_eq!(
        b["confidence_mismatches"],
        says_high(&body("v1_naive", "dentist_day")) as u64
    );
    assert_eq!(
        (b["repair_attempted"].as_u64(), b["repaired"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(b["rejected"], 1);
    assert_eq!(
        (b["input_tokens"].as_u64(), b["output_tokens"].as_u64()),
        (Some(70), Some(70))
    );
    // The paired comparison names the flipped scenarios, with McNemar's exact p (3 vs 0).
    let c = &s["comparison"];
    assert_eq!(
        (c["a"].as_str(), c["b"].as_str()),
        (Some("a_naive"), Some("b_repair"))
    );
    assert_eq!(
        c["fixed"],
        serde_json::json!(["london_overbooked", "school_pickup", "tokyo_launch"])
    );
    assert_eq!(c["broken"], serde_json::json!([]));
    assert!((c["mcnemar_p"].as_f64().unwrap() - 0.25).abs() < 1e-12);
    // Each output names its scenario, variant, model, request and outcome.
    let runs = ws.path("exp/runs");
    let id = std::fs::read_to_string(runs.join("LATEST")).unwrap();
    let out =
        std::fs::read_to_string(runs.join(id.trim()).join("b_repair/dentist_day.md")).unwrap();
    for want in [
        "scenario: dentist_day",
        "variant: b_repair",
        "model: planner-2",
        "outcome: rejected",
        "repair: rejected",
        "request_id: ",
    ] {
        assert!(out.contains(want), "{want} not in\n{out}");
    }
    let sent = llm.requests();
    let b_call = sent
        .iter()
        .find(|r| r.user().contains("Variant B for"))
        .unwrap();
    assert_eq!(b_call.body["model"], "planner-2");
    assert_eq!(b_call.body["temperature"], 0.2);
    // A second run: nothing missing, no call; the same figures.
    let o2 = ws.with_llm(&llm).args(&args).output().unwrap();
    assert_eq!(o2.status.code(), Some(0), "{}", stderr(&o2));
    assert_eq!(llm.calls(), 11);
    assert_eq!(json(&o2)["variants"], s["variants"]);
    // Another run folder: every answer from the cache, still no call.
    let o3 = ws
        .with_llm(&llm)
        .args(run_args(&["--run-id", "again"]))
        .output()
        .unwrap();
    assert_eq!(o3.status.code(), Some(0), "{}", stderr(&o3));
    assert_eq!(llm.calls(), 11);
    assert!(
        ws.path("exp/runs/again/b_repair/school_pickup.md")
            .is_file()
    );
    // `byop dataset DIR` re-renders the last run without a call or a key.
    let o4 = ws.run(&[
        "dataset",
        "exp",
        "--format",
        "json",
        "--mode",
        "deterministic",
    ]);
    assert_eq!(o4.status.code(), Some(0), "{}", stderr(&o4));
    assert_eq!(json(&o4)["comparison"]["fixed"], c["fixed"]);
}

fn count_outputs(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

#[test]
fn a_killed_run_resumes_where_it_stopped() {
    let ws = Ws::new();
    dataset(&ws, &[("a_naive", NAIVE)]);
    // dentist_day's first answer takes long (the run is killed meanwhile); its second comes at once.
    let slow = "Variant A for dentist_day";
    let mut script = Script::default().when(
        Some("generate"),
        slow,
        vec![
            Step::Hang { secs: 30.0 },
            Step::Generated {
                text: body("v1_naive", "dentist_day"),
            },
        ],
    );
    for sc in &SCENARIOS[1..] {
        script = script.when(
            Some("generate"),
            &format!("Variant A for {sc}"),
            vec![Step::Generated {
                text: body("v1_naive", sc),
            }],
        );
    }
    let llm = FakeLlm::start_blocking(script);
    let args = run_args(&["--run-id", "r1"]);
    let mut child = ws.with_llm(&llm).args(&args).spawn().unwrap();
    let out = ws.path("exp/runs/r1/a_naive");
    let deadline = Instant::now() + Duration::from_secs(20);
    while count_outputs(&out) < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(count_outputs(&out), 3, "three outputs before the kill");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(llm.calls(), 4);
    let o = ws.with_llm(&llm).args(&args).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(llm.calls(), 5, "only the missing output is generated again");
    assert_eq!(count_outputs(&out), 4);
    assert_eq!(variant(&json(&o), "a_naive")["outputs"], 4);
}

#[test]
fn plan_generates_validates_repairs_once_and_prints_the_plan_json() {
    let ws = Ws::new();
    let notes = examples().join("planproof/scenarios/dentist_day.md");
    std::fs::copy(&notes, ws.path("notes.md")).unwrap();
    let llm = FakeLlm::start_blocking(
        Script::default()
            .check(
                "generate",
                vec![Step::Generated {
                    text: body("v1_naive", "dentist_day"),
                }],
            )
            .check(
                "repair",
                vec![Step::Repaired {
                    text: body("v4_repair", "dentist_day"),
                    append: false,
                }],
            ),
    );
    let o = ws.run_llm(&llm, "plan notes.md --variant v4_repair");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = json(&o);
    assert_eq!(p["validation"]["status"], "pass");
    assert_eq!(p["debug"]["variant"], "v4_repair");
    assert_eq!(p["debug"]["outcome"], "repaired");
    let plan_part = body("v4_repair", "dentist_day");
    let plan_part = plan_part.split("## Assumptions").next().unwrap();
    let items = plan_part.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(p["plan"].as_array().unwrap().len(), items);
    assert!(p["plan"][0]["timebox_minutes"].as_i64().unwrap() >= 5);
    assert!(p["assumptions"].is_array() && p["questions"].is_array());
    assert!(
        !p["debug"]["errors_before_repair"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!((llm.calls_for("generate"), llm.calls_for("repair")), (1, 1));
    // The validator variant surfaces the failing plan as rejected and repairs nothing.
    let o = ws.run_llm(&llm, "plan notes.md --variant v3_validator");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let p = json(&o);
    assert_eq!(
        (
            p["validation"]["status"].as_str(),
            p["debug"]["outcome"].as_str()
        ),
        (Some("fail"), Some("rejected"))
    );
    assert!(!p["validation"]["errors"].as_array().unwrap().is_empty());
    assert_eq!(llm.calls_for("repair"), 1);
}

#[test]
fn a_variant_cannot_choose_where_the_key_goes() {
    let ws = Ws::new();
    let redirect = format!("{NAIVE}base_url = \"http://127.0.0.1:9/steal\"\n");
    dataset(&ws, &[("a_naive", &redirect)]);
    let mut script = Script::default();
    for sc in SCENARIOS {
        script = script.when(
            Some("generate"),
            sc,
            vec![Step::Generated {
                text: body("v1_naive", sc),
            }],
        );
    }
    let llm = FakeLlm::start_blocking(script);
    let o = ws.with_llm(&llm).args(run_args(&[])).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("ignored base_url"), "{}", stderr(&o));
    assert_eq!(llm.calls(), 4, "the requests went to the user's endpoint");
    for (extra, said) in [
        ("api_key_env = \"HOME\"\n", "API key"),
        ("provider = \"openai\"\n", "provider `openai`"),
    ] {
        ws.write(
            "exp/variants/a_naive/variant.toml",
            &format!("{NAIVE}{extra}"),
        );
        let o = ws
            .with_llm(&llm)
            .args(run_args(&["--run-id", "x"]))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
    }
    assert_eq!(llm.calls(), 4);
}
