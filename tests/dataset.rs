//! `byop dataset DIR` end to end: the PlanProof examples (two variants, 60 scenarios),
//! a legal dataset (per-check fail rates), formats, layout errors, and evaluator calls
//! made concurrently and served from the cache on a rerun (local fake server).

mod support;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, copy_dir, examples, stderr, stdout};

fn planproof_ws() -> Ws {
    let ws = Ws::new();
    copy_dir(&examples().join("planproof"), &ws.path("planproof"));
    ws
}

/// The hand-worked expectations: per variant, (outputs, passes, violations, overflows,
/// hallucination flags, coverage sum).
fn expected_totals(variant: &str) -> (usize, usize, u64, usize, u64, f64) {
    let text = std::fs::read_to_string(examples().join("planproof/expected.json")).unwrap();
    let v: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let mut t = (0, 0, 0, 0, 0, 0.0);
    for (k, s) in v.iter().filter(|(k, _)| !k.starts_with('_')) {
        let e = &s[variant];
        assert!(e.is_object(), "{k}");
        t.0 += 1;
        t.1 += usize::from(e["status"] == "pass");
        t.2 += e["constraints_violated"].as_u64().unwrap();
        t.3 += usize::from(
            e["time_available_minutes"].as_i64().unwrap() > 0
                && e["time_overflow_minutes"].as_i64().unwrap() > 0,
        );
        t.4 += e["hallucination_flags"].as_u64().unwrap();
        t.5 += e["coverage"][0].as_f64().unwrap() / e["coverage"][1].as_f64().unwrap();
    }
    t
}

fn json_of(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(o), stderr(o)))
}

#[test]
fn planproof_variants_are_compared_on_the_same_scenarios() {
    let ws = planproof_ws();
    let o = ws.run(&["dataset", "planproof", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json_of(&o);
    assert_eq!(s["playbook_id"], "planproof_v1");
    let names: Vec<&str> = s["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["v1_naive", "v4_repair"]);
    for (i, name) in names.iter().enumerate() {
        let v = &s["variants"][i];
        let (n, pass, viol, over, hall, cov) = expected_totals(name);
        assert_eq!(v["outputs"], n as u64, "{name}");
        assert_eq!(v["passed"], pass as u64, "{name}");
        assert_eq!(v["constraint_violations"], viol, "{name}");
        assert!(
            (v["overflow_frequency"].as_f64().unwrap() - over as f64 / n as f64).abs() < 1e-9,
            "{name}"
        );
        assert_eq!(v["hallucination_flags"], hall, "{name}");
        assert!(
            (v["mean_coverage"].as_f64().unwrap() - cov / n as f64).abs() < 1e-9,
            "{name}"
        );
    }
    // Every v1_naive plan but fall_back_deploy's (no confidence line) says "high" and fails.
    assert_eq!(s["variants"][0]["confidence_mismatches"], 54);
    assert_eq!(s["variants"][1]["confidence_mismatches"], 0);
    let c = &s["comparison"];
    assert_eq!(
        (c["a"].as_str(), c["b"].as_str()),
        (Some("v1_naive"), Some("v4_repair"))
    );
    assert_eq!(c["paired"], 60);
    assert_eq!(c["fixed"].as_array().unwrap().len(), 60);
    assert_eq!(c["broken"].as_array().unwrap().len(), 0);
    assert_eq!(s["scenarios"].as_array().unwrap().len(), 60);
    // Per-check fail rates: the repaired plans fail nothing.
    for check in s["checks"].as_array().unwrap() {
        assert_eq!(check["fails"][1], 0, "{check}");
    }
}

#[test]
fn text_and_html_show_the_variant_table_and_charts() {
    let ws = planproof_ws();
    let o = ws.run(&["dataset", "planproof"]);
    let out = stdout(&o);
    assert!(
        out.contains("v1_naive") && out.contains("v4_repair"),
        "{out}"
    );
    assert!(
        out.contains("Paired v1_naive → v4_repair on 60 scenario(s): 60 fixed, 0 broken"),
        "{out}"
    );
    assert!(out.contains("school_pickup__shift"), "{out}");
    let o = ws.run(&["dataset", "planproof", "--format", "html", "-o", "ds.html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(ws.path("ds.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 6, "one chart per metric");
    assert!(html.contains("Pass rate") && html.contains("Confidence vs accuracy mismatches"));
    assert!(
        !html.contains("<script") && !html.contains("https://"),
        "self-contained"
    );
    // Compare in the other direction: the flips are now breakages.
    let o = ws.run(&[
        "dataset",
        "planproof",
        "--format",
        "json",
        "--compare",
        "v4_repair",
        "v1_naive",
    ]);
    assert_eq!(
        json_of(&o)["comparison"]["broken"]
            .as_array()
            .unwrap()
            .len(),
        60
    );
    let o = ws.run(&["dataset", "planproof", "--compare", "v4_repair", "v9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no variant `v9`"), "{}", stderr(&o));
}

/// Two "models" reviewing the same two contracts; model_b dropped the disclosure of what
/// it did not check from the MSA review.
fn legal_dataset(ws: &Ws, toml: bool) {
    let body = |f: &str| {
        let t = std::fs::read_to_string(examples().join(f)).unwrap();
        let end = t[4..].find("\n---\n").unwrap() + 4 + 5;
        t[end..].to_string()
    };
    let msa = body("msa_review.ai.md");
    // Without its assumptions and its not-checked list (both are disclosures).
    let (a, k, i) = (
        msa.find("## Assumptions").unwrap(),
        msa.find("## Key Risks").unwrap(),
        msa.find("## Items That Need Legal Review").unwrap(),
    );
    let cut = format!("{}{}", &msa[..a], &msa[k..i]);
    std::fs::create_dir_all(ws.path("legal/contracts")).unwrap();
    std::fs::copy(
        examples().join("nda.txt"),
        ws.path("legal/contracts/nda.txt"),
    )
    .unwrap();
    std::fs::copy(
        examples().join("msa.txt"),
        ws.path("legal/contracts/msa.txt"),
    )
    .unwrap();
    for (v, msa_text) in [("model_a", msa.as_str()), ("model_b", cut.as_str())] {
        std::fs::create_dir_all(ws.path(&format!("legal/out/{v}"))).unwrap();
        ws.write(
            &format!("legal/out/{v}/nda.ai.md"),
            &body("nda_review.ai.md"),
        );
        ws.write(&format!("legal/out/{v}/msa.ai.md"), msa_text);
    }
    if toml {
        ws.write(
            "legal/dataset.toml",
            "playbook = \"ai_plugin_observability_v1\"\nscenarios = \"contracts\"\n[variants]\nmodel_a = \"out/model_a\"\nmodel_b = \"out/model_b\"\n",
        );
    }
}

#[test]
fn legal_reviews_give_each_checks_fail_rate_per_variant() {
    let ws = Ws::new();
    legal_dataset(&ws, true);
    let o = ws.run(&[
        "dataset",
        "legal",
        "--mode",
        "deterministic",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json_of(&o);
    assert_eq!(s["playbook_id"], "ai_plugin_observability_v1");
    let rate = s["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == "unchecked_areas_disclosure")
        .unwrap();
    // The NDA review has no "not checked" disclosure in either; model_b's MSA lost it.
    assert_eq!(rate["fails"], serde_json::json!([1, 2]));
    assert_eq!(rate["fail_rate"], serde_json::json!([0.5, 1.0]));
    let c = &s["comparison"];
    assert_eq!(c["paired"], 2);
    assert_eq!(c["broken"], serde_json::json!(["msa"]));
    // No validation object for legal playbooks: no plan metrics.
    assert!(s["variants"][0]["mean_coverage"].is_null());
    let o = ws.run(&["dataset", "legal", "--mode", "deterministic"]);
    let out = stdout(&o);
    assert!(!out.contains("hallucinations"), "no plan columns: {out}");
    assert!(
        out.contains("unchecked_areas_disclosure")
            && out.contains("50% (1)")
            && out.contains("100% (2)"),
        "{out}"
    );
    assert!(out.contains("broken (pass → fail): msa"), "{out}");
    let o = ws.run(&[
        "dataset",
        "legal",
        "--mode",
        "deterministic",
        "--format",
        "html",
    ]);
    let html = stdout(&o);
    assert!(
        html.contains("Fail rate: unchecked_areas_disclosure"),
        "a chart per check"
    );
    // Without dataset.toml the layout must be scenarios/ + variants/.
    let ws = Ws::new();
    legal_dataset(&ws, false);
    let o = ws.run(&["dataset", "legal"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a dataset"), "{}", stderr(&o));
}

#[test]
fn evaluator_calls_run_concurrently_and_a_rerun_is_served_from_the_cache() {
    let ws = Ws::new();
    legal_dataset(&ws, true);
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]).latency_ms(100));
    let o = ws.run_llm(&llm, "dataset legal --mode screening --format json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first = llm.calls();
    // 4 outputs × the evaluator-backed checks of the starter playbook, one run each.
    assert!(first >= 4 && first.is_multiple_of(4), "{first}");
    assert!(
        llm.max_in_flight() >= 4,
        "documents overlap: {}",
        llm.max_in_flight()
    );
    let s = json_of(&o);
    assert_eq!(s["variants"][0]["outputs"], 2);
    let o = ws.run_llm(&llm, "dataset legal --mode screening --format json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        llm.calls(),
        first,
        "identical outputs: no new evaluator call"
    );
    // --fresh asks again.
    let o = ws.run_llm(&llm, "dataset legal --mode screening --fresh --format json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(llm.calls(), 2 * first);
}

#[test]
fn bare_outputs_inherit_the_scenarios_front_matter() {
    let ws = Ws::new();
    let body = |rel: &str| {
        let t = std::fs::read_to_string(examples().join("planproof").join(rel)).unwrap();
        let end = t[4..].find("\n---\n").unwrap() + 4 + 5;
        t[end..].to_string()
    };
    std::fs::create_dir_all(ws.path("mini/scenarios")).unwrap();
    std::fs::create_dir_all(ws.path("mini/variants/naive")).unwrap();
    std::fs::copy(
        examples().join("planproof/scenarios/school_pickup.md"),
        ws.path("mini/scenarios/school_pickup.md"),
    )
    .unwrap();
    ws.write(
        "mini/variants/naive/school_pickup.json",
        &body("variants/v1_naive/school_pickup.md"),
    );
    let o = ws.run(&[
        "dataset",
        "mini",
        "--playbook",
        "planproof_v1",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json_of(&o);
    // The hand-worked values of school_pickup/v1_naive: 285 available, one violation.
    assert_eq!(s["variants"][0]["constraint_violations"], 1);
    assert_eq!(s["variants"][0]["overflow_frequency"], 1.0);
    assert_eq!(s["variants"][0]["hallucination_flags"], 1);
    assert!(s["comparison"].is_null(), "one variant: nothing to pair");
}
