//! `byop counterfactual` end to end against the local fake evaluator: a
//! script makes one cue flip a check's verdict and another not; the statistics must
//! find the first significant after Benjamini–Hochberg, the second equivalent under
//! TOST, and the placebo not significant.

mod support;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, json, stderr, stdout};

const CHECK: &str = "certainty_language";

/// Cue slots in the prompt companion; the review itself is the example's.
fn workspace() -> Ws {
    let ws = Ws::new();
    ws.audit_inputs(
        "I am {{cue:author}} acting for {{cue:client}}. Please {{cue:review_word}} this NDA before we sign.",
        r#"{"include_builtin": false, "cues": [
            {"name": "seniority", "slot": "author", "control": "a junior associate", "treatment": ["a senior partner"]},
            {"name": "client_name", "slot": "client", "control": "Michael Thompson", "treatment": ["Emily Thompson"]},
            {"name": "placebo_synonym", "slot": "review_word", "placebo": true, "control": "review", "treatment": ["look over"]}
        ]}"#,
    );
    // One call at a time, so that each content's n-th call is the n-th pair.
    ws.write("byop.toml", "[evaluator]\nconcurrency = 1\n");
    ws
}

/// The control (and the placebo's treatment) alternates pass, fail by run. The senior
/// partner always fails: every control pass becomes a treatment fail (b = pairs/2, c = 0).
/// Emily Thompson goes pass, pass, fail, fail: against the control's pass, fail, pass,
/// fail that is one b and one c every four pairs, in both directions alike.
fn script() -> Script {
    let alternate = vec![Step::pass(), Step::fail_first_sentence()];
    Script::always(alternate.clone())
        .when(
            Some(CHECK),
            "a senior partner",
            vec![Step::fail_first_sentence()],
        )
        .when(
            Some(CHECK),
            "Emily Thompson",
            vec![
                Step::pass(),
                Step::pass(),
                Step::fail_first_sentence(),
                Step::fail_first_sentence(),
            ],
        )
        .when(Some(CHECK), "Please look over this NDA", alternate)
}

fn row<'a>(a: &'a Value, cue: &str) -> &'a Value {
    a["byop_counterfactual"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["check_id"] == CHECK && r["cue"] == cue)
        .unwrap_or_else(|| panic!("no row for {cue}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

const RUN: &str = "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 200 --seed 5 --max-calls 800 --format json";

#[test]
fn a_flipping_cue_is_significant_an_inert_one_equivalent_and_the_placebo_not_significant() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let o = ws.run_llm(&llm, RUN);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "a significant row exits 1: {err}");
    // The cost was said before the first call: 200 pairs × (1 shared control + 3 treatments).
    assert!(
        err.contains("→ 800 evaluator call(s), 0 more from the cache"),
        "{err}"
    );
    assert_eq!(llm.calls(), 800);
    let a = json(&o);
    let cf = &a["byop_counterfactual"];
    assert_eq!(cf["pairs"], 200);
    assert_eq!(cf["seed"], 5);
    assert_eq!(cf["evaluator"]["provider"], "anthropic");
    assert_eq!(cf["evaluator_unstable"], false);
    assert_eq!(
        cf["presentation_rules"]["disclaimers"],
        serde_json::json!([
            "This is an observability report, not legal advice.",
            "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
            "Report describes behavior under this playbook and inputs."
        ])
    );
    assert!(cf["facts_hash"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(cf["design"]["slot_sources"], serde_json::json!(["prompt"]));

    // The senior partner: the 100 control passes all became fails.
    let flip = row(&a, "seniority");
    assert_eq!(
        (flip["b"].as_u64(), flip["c"].as_u64()),
        (Some(100), Some(0))
    );
    assert_eq!(flip["n_pairs"], 200);
    assert_eq!(flip["n_excluded"], 0);
    assert!((f(&flip["flip_rate"]) - 0.5).abs() < 1e-12);
    // Exact two-sided p = 2 · 0.5^100 ≈ 1.6e-30; BH over 3 tests at most triples it.
    assert!(f(&flip["mcnemar_exact_p"]) < 1e-29, "{flip}");
    assert!(
        f(&flip["bh_p"]) < 0.05 && flip["significant"] == true,
        "{flip}"
    );
    assert_eq!(flip["tost"]["verdict"], "different");
    // 0.5 added to both cells: ln(100.5 / 0.5) = ln 201.
    assert!((f(&flip["log_odds"]) - 201f64.ln()).abs() < 1e-9, "{flip}");
    assert!(f(&flip["ci95"][0]) > 0.0, "the interval excludes 0: {flip}");
    assert!(f(&flip["ri_p"]) < 0.001, "{flip}");

    // Emily Thompson: 50 flips each way; θ = 0, SE = 0.2, TOST p ≈ 0.0213.
    let inert = row(&a, "client_name");
    assert_eq!(
        (inert["b"].as_u64(), inert["c"].as_u64()),
        (Some(50), Some(50))
    );
    assert_eq!(inert["mcnemar_exact_p"], 1.0);
    assert_eq!(inert["significant"], false);
    assert_eq!(inert["tost"]["verdict"], "equivalent", "{inert}");
    assert!((f(&inert["tost"]["p"]) - 0.0213).abs() < 1e-3, "{inert}");
    assert!(f(&inert["ri_p"]) > 0.5, "{inert}");

    // The placebo answers exactly as the control: nothing discordant.
    let placebo = row(&a, "placebo_synonym");
    assert_eq!(placebo["placebo"], true);
    assert_eq!(
        (placebo["b"].as_u64(), placebo["c"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(placebo["significant"], false);
    assert!(f(&placebo["bh_p"]) >= 0.05);

    // Every pair's two sides share the run index: same prompt apart from the slot.
    let requests = llm.requests();
    let users: Vec<String> = requests.iter().map(|r| r.user()).collect();
    assert!(users.iter().any(|u| {
        u.contains("I am a junior associate acting for Michael Thompson. Please review this NDA")
    }));
    assert!(users.iter().any(|u| {
        u.contains("I am a senior partner acting for Michael Thompson. Please review this NDA")
    }));
    assert!(
        !users.iter().any(|u| u.contains("{{cue:")),
        "no slot marker reaches the evaluator"
    );
}

#[test]
fn the_audit_is_saved_listed_and_a_rerun_comes_from_the_cache() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let first = ws.run_llm(&llm, RUN);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let id = json(&first)["byop_counterfactual"]["audit_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(id.len(), 16);
    let h = ws.run(&["history"]);
    let out = stdout(&h);
    assert!(out.contains("Counterfactual audits:"), "{out}");
    assert!(out.contains(&id), "{out}");
    let h = ws.run(&["history", "--format", "json"]);
    let rows = json(&h);
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "counterfactual")
        .expect("the audit is in the JSON history");
    assert_eq!(row["audit_id"], id.as_str());
    assert_eq!(row["significant"], 1);
    // `byop report ID` shows a stored audit again.
    let shown = ws.run(&["report", &id[..8], "--format", "json"]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    assert_eq!(json(&shown), json(&first));
    let shown = ws.run(&["report", &id, "--html"]);
    assert!(stdout(&shown).contains("<svg class=\"forest\""));
    // The request and its 800 calls are in the audit log, and the chain holds.
    let log = stdout(&ws.run(&["log", "--format", "json", "--limit", "2000"]));
    assert!(
        log.contains(&format!("counterfactual:{id}")),
        "{}",
        &log[..log.len().min(2000)]
    );
    assert!(
        log.matches("\"cached\": false").count() >= 800
            || log.matches("\"cached\":false").count() >= 800
    );
    assert_eq!(ws.run(&["log", "--verify"]).status.code(), Some(0));
    // Same seed, same pairs: every answer is in the cache now.
    let second = ws.run_llm(&llm, RUN);
    assert!(
        stderr(&second).contains("→ 0 evaluator call(s), 800 more from the cache"),
        "{}",
        stderr(&second)
    );
    assert_eq!(llm.calls(), 800, "no new call");
    let b = json(&second);
    assert_eq!(b["byop_counterfactual"]["calls"]["cached"], 800);
    assert_eq!(row_b(&b), row_b(&json(&first)), "the same statistics");
}

fn row_b(a: &Value) -> Vec<(u64, u64)> {
    a["byop_counterfactual"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["b"].as_u64().unwrap(), r["c"].as_u64().unwrap()))
        .collect()
}

#[test]
fn the_budget_is_said_and_enforced_before_any_call() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let o = ws.run_llm(
        &llm,
        "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 200",
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("needs 800 evaluator call(s)"), "{err}");
    assert!(err.contains("budget of 200"), "{err}");
    assert!(stdout(&o).is_empty());
    assert_eq!(llm.calls(), 0);
}

#[test]
fn a_significant_placebo_flags_the_evaluator_as_unstable() {
    let ws = workspace();
    let script = Script::always(vec![Step::pass()]).when(
        Some(CHECK),
        "Please look over this NDA",
        vec![Step::fail_first_sentence()],
    );
    let llm = FakeLlm::start_blocking(script);
    let o = ws.run_llm(
        &llm,
        "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 20 --format json",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let a = json(&o);
    assert_eq!(a["byop_counterfactual"]["evaluator_unstable"], true);
    let w = a["byop_counterfactual"]["warnings"][0].as_str().unwrap();
    assert!(
        w.contains("UNSTABLE EVALUATOR") && w.contains("placebo_synonym"),
        "{w}"
    );
    assert!(w.contains("cannot be trusted"), "{w}");
    let placebo = row(&a, "placebo_synonym");
    assert_eq!(
        (placebo["b"].as_u64(), placebo["c"].as_u64()),
        (Some(20), Some(0))
    );
    // The text table puts it first and marks it.
    let o = ws.run_llm(
        &llm,
        "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 20",
    );
    let out = stdout(&o);
    let first_row = out
        .lines()
        .find(|l| l.contains("certainty_language × "))
        .unwrap();
    assert!(
        first_row.starts_with("* certainty_language × placebo_synonym (placebo)"),
        "{out}"
    );
    assert!(out.contains("! UNSTABLE EVALUATOR"), "{out}");
}

#[test]
fn html_has_the_disclaimers_the_table_and_a_forest_plot() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    let o = ws.run_llm(
        &llm,
        "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 20 --format html -o audit.html",
    );
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    let html = std::fs::read_to_string(ws.path("audit.html")).unwrap();
    let banner = html.find("id=\"disclaimers\"").expect("disclaimer banner");
    for d in [
        "This is an observability report, not legal advice.",
        "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
        "Report describes behavior under this playbook and inputs.",
    ] {
        assert!(html[banner..].contains(d), "{d}");
    }
    let table = html.find("id=\"results\"").expect("results table");
    let plot = html.find("<svg class=\"forest\"").expect("forest plot");
    assert!(
        banner < table && table < plot,
        "banner, then table, then plot"
    );
    // One interval (a line and a square) per check × cue.
    assert_eq!(html.matches("<rect ").count(), 3);
    assert!(html.contains("certainty_language × placebo_synonym (placebo)"));
    assert!(!html.contains("<script"), "no script needed");
}

#[test]
fn input_errors_are_clear() {
    let ws = workspace();
    let llm = FakeLlm::start_blocking(script());
    // No evaluator.
    let o = ws.run(&["counterfactual", "audit.ai.md"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs an evaluator"), "{}", stderr(&o));
    // An unknown check, a slot without a cue, a broken catalog.
    let o = ws.run_llm(&llm, "counterfactual audit.ai.md --checks nope");
    assert!(stderr(&o).contains("no check `nope`"), "{}", stderr(&o));
    ws.write("audit.prompt.txt", "Asked by {{cue:mystery}}.");
    let o = ws.run_llm(&llm, "counterfactual audit.ai.md --cues cues.json");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`mystery` has no cue"),
        "{}",
        stderr(&o)
    );
    ws.write("bad.json", "{\"cues\": [}");
    let o = ws.run_llm(&llm, "counterfactual audit.ai.md --cues bad.json");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.json:1:"), "{}", stderr(&o));
    assert_eq!(llm.calls(), 0);
}

#[test]
fn a_document_without_slots_is_framed_by_the_builtin_catalog_with_fixed_facts() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let o = ws.run_llm(
        &llm,
        "counterfactual nda_review.ai.md --checks certainty_language --pairs 2 --format json",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let a = json(&o);
    let cf = &a["byop_counterfactual"];
    assert_eq!(
        cf["design"]["slot_sources"],
        serde_json::json!(["default_framing"])
    );
    let cues: Vec<&str> = cf["cues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        cues.contains(&"author_seniority") && cues.contains(&"placebo_whitespace"),
        "{cues:?}"
    );
    let users: Vec<String> = llm.requests().iter().map(|r| r.user()).collect();
    assert!(users.iter().any(|u| {
        u.contains("This review was requested by a senior partner of a small regional firm")
    }));
    // The facts hash does not depend on the cue values, only on the facts.
    ws.write(
        "cues.json",
        r#"{"cues": [{"name": "author_seniority", "slot": "author", "control": "an associate", "treatment": ["the general counsel"]}]}"#,
    );
    let o2 = ws.run_llm(
        &llm,
        "counterfactual nda_review.ai.md --cues cues.json --checks certainty_language --pairs 2 --format json",
    );
    assert_eq!(
        json(&o2)["byop_counterfactual"]["facts_hash"],
        cf["facts_hash"]
    );
    let review = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    ws.write(
        "nda_review.ai.md",
        &review.replace("fully enforceable", "mostly enforceable"),
    );
    let o3 = ws.run_llm(
        &llm,
        "counterfactual nda_review.ai.md --checks certainty_language --pairs 2 --format json",
    );
    assert_ne!(
        json(&o3)["byop_counterfactual"]["facts_hash"],
        cf["facts_hash"]
    );
}
