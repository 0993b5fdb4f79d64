//! PlanProof (docs/contracts.md, Plan validation): the `planproof_v1` playbook over `examples/planproof`, end to end
//! through the built binary. Every scenario's expected validation (hand-worked for the
//! ten messy days, carried over by construction to their permutations) is in
//! `examples/planproof/expected.json`.

mod support;

use std::path::PathBuf;

use serde_json::Value;

use support::planproof::{METRICS, metric_mismatches};
use support::workspace::{Ws, copy_dir, examples, stderr, stdout};

fn planproof_ws() -> Ws {
    let ws = Ws::new();
    copy_dir(&examples().join("planproof"), &ws.path("planproof"));
    ws
}

fn expected() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(examples().join("planproof/expected.json")).unwrap();
    let mut v: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    v.remove("_about");
    v
}

/// Differences between a report's `validation` and the expected values, as text.
fn mismatches(name: &str, variant: &str, want: &Value, report: &Value) -> Vec<String> {
    let v = &report["byop_report"]["validation"];
    let mut out = Vec::new();
    if v["status"] != want["status"] {
        out.push(format!(
            "{variant}/{name}: status {} (want {}); errors {}",
            v["status"], want["status"], v["errors"]
        ));
    }
    let metrics: Vec<&str> = METRICS
        .into_iter()
        .chain(["human_feasibility_flags"])
        .collect();
    out.extend(metric_mismatches(
        &format!("{variant}/{name}"),
        &metrics,
        want,
        v,
    ));
    out
}

#[test]
fn every_scenario_and_variant_validates_as_expected() {
    let ws = planproof_ws();
    let want = expected();
    assert!(
        want.len() >= 60,
        "10 scenarios and 50 permutations: {}",
        want.len()
    );
    let mut files: Vec<(String, String, PathBuf)> = Vec::new();
    for (name, variants) in &want {
        for variant in variants.as_object().unwrap().keys() {
            let rel = PathBuf::from(format!("planproof/variants/{variant}/{name}.md"));
            files.push((name.clone(), variant.clone(), rel));
        }
    }
    let mut args = vec![
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "--fail-on",
        "never",
    ];
    let paths: Vec<String> = files.iter().map(|f| f.2.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let o = ws.run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let reports: Vec<Value> = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(reports.len(), files.len());
    let mut wrong = Vec::new();
    for ((name, variant, _), report) in files.iter().zip(&reports) {
        assert_eq!(report["byop_report"]["playbook_id"], "planproof_v1");
        wrong.extend(mismatches(name, variant, &want[name][variant], report));
    }
    assert!(
        wrong.is_empty(),
        "{} mismatches:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn check_prints_the_seed_style_errors_of_a_failing_plan() {
    let ws = planproof_ws();
    let o = ws.run(&["check", "planproof/variants/v1_naive/school_pickup.md"]);
    let out = stdout(&o);
    assert!(out.contains("validation: FAIL (rejected)"), "{out}");
    assert!(
        out.contains(
            "- Planned 330 minutes of work but only 285 minutes available after 3 PM cutoff"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "- Mentions a meeting not in the notes: “Sync with Marcus on the offsite agenda”"
        ),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(1), "failing plan is an ALERT: {out}");
    let o = ws.run(&["check", "planproof/variants/v4_repair/school_pickup.md"]);
    assert!(
        stdout(&o).contains("validation: PASS (recommended)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn json_report_carries_the_seed_validation_object_exactly() {
    let ws = planproof_ws();
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "planproof/variants/v1_naive/dentist_day.md",
    ]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &r["byop_report"]["validation"];
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["status", "errors", "metrics"]);
    let metric_keys: Vec<&str> = v["metrics"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        metric_keys,
        [
            "constraints_declared",
            "constraints_violated",
            "time_available_minutes",
            "time_planned_minutes",
            "time_overflow_minutes",
            "hallucination_flags",
            "human_feasibility_flags",
            "context_coverage_ratio"
        ]
    );
    let errors: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(errors.contains(&"Scheduled “Prepare slides for Thursday's review” at 9 AM–12 PM, during “Dentist” (11 AM–12 PM)"), "{errors:?}");
    assert!(errors.contains(&"Left out “Send the signed NDA to Brightline today!!”, which the notes say must be done today"), "{errors:?}");
    assert!(
        errors.contains(&"Plan has no `assumptions` (required even if empty)"),
        "{errors:?}"
    );
    // The legal report contract is still there.
    assert!(
        r["byop_report"]["integrity"]["playbook_logic_hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
}

#[test]
fn legal_playbooks_have_no_validation_object() {
    let ws = Ws::new();
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(r["byop_report"].get("validation").is_none());
}

#[test]
fn a_plan_without_its_notes_fails_closed() {
    let ws = planproof_ws();
    let text = std::fs::read_to_string(ws.path("planproof/variants/v4_repair/school_pickup.md"))
        .unwrap()
        .replace("  source: ../../scenarios/school_pickup.md\n", "");
    std::fs::write(ws.path("orphan.md"), text).unwrap();
    // The gate refuses it, naming the key and the checks that need the notes.
    let o = ws.run(&["check", "--format", "json", "orphan.md"]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(stdout(&o).is_empty());
    assert!(
        err.contains("no `source` companion") && err.contains("time_budget"),
        "{err}"
    );
}

/// A plan written as a markdown table with a Minutes column, one of the layouts chat models
/// write: 245 minutes of work and no break (an advisory flag), otherwise valid.
const TABLE_PLAN: &str = "---\ncurrent_time: \"2026-06-01T09:00:00-04:00\"\ntimezone: America/Toronto\nbyop:\n  source: planproof/scenarios/school_pickup.md\n  playbook: planproof_v1\n---\n## Today\n\n| Task | Minutes | Why |\n|---|---|---|\n| Finish the Q3 budget summary for Acme | 135 | must be done today |\n| Email Dana about the invoice | 20 | she is waiting |\n| Review the vendor contract | 60 | before signing |\n| Book flights for Berlin | 30 | prices go up |\n| **Total** | **245** | |\n\n**Assumptions:** standup and lunch are fixed\n❓ Questions: none\n\nConfidence: medium\n";

#[test]
fn a_table_plan_is_read_and_a_passing_plan_with_advisory_flags_is_not_repaired() {
    use support::fake_llm::{FakeLlm, Script, Step};
    let ws = planproof_ws();
    std::fs::write(ws.path("table_plan.md"), TABLE_PLAN).unwrap();
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "--fail-on",
        "never",
        "table_plan.md",
    ]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &r["byop_report"]["validation"];
    assert_eq!(v["status"], "pass", "{v}");
    assert_eq!(v["metrics"]["time_planned_minutes"], 245, "{v}");
    assert_eq!(v["metrics"]["time_available_minutes"], 285, "{v}");
    assert_eq!(v["metrics"]["human_feasibility_flags"], 1, "{v}");
    // Advisory flags are not errors to repair: the evaluator is never asked.
    let llm = FakeLlm::start_blocking(
        Script::default().check("repair", vec![Step::repaired_appending("x")]),
    );
    let o = ws
        .with_llm(&llm)
        .args(["repair", "table_plan.md"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing to repair"), "{}", stderr(&o));
    assert_eq!(llm.calls(), 0);
}

#[test]
fn a_plan_that_cannot_be_read_is_indeterminate_naming_what() {
    let ws = planproof_ws();
    let text = TABLE_PLAN.replace("| Task | Minutes | Why |", "| Task | Time | Why |");
    std::fs::write(ws.path("odd.md"), text).unwrap();
    let o = ws.run(&["check", "--format", "json", "--fail-on", "never", "odd.md"]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &r["byop_report"]["validation"];
    assert_eq!(v["status"], "fail", "{v}");
    assert_eq!(
        v["errors"][0], "Plan could not be read: table row 1: the time “135” could not be read",
        "{v}"
    );
    let checks = r["byop_report"]["check_results"].as_array().unwrap();
    assert!(
        checks.iter().all(|c| c["result"] == "indeterminate"),
        "{checks:?}"
    );
}

#[test]
fn an_invisible_character_inside_a_timebox_is_read_through_or_not_read() {
    let ws = planproof_ws();
    // The table plan's four items as a list (135 + 20 + 60 + 30 = 245 minutes, worked out
    // by hand), then the same list with an invisible times (U+2062), a zero-width space and
    // a soft hyphen inside its timeboxes: a reader sees the same numbers.
    let list = TABLE_PLAN
        .replace("| Task | Minutes | Why |\n|---|---|---|\n", "")
        .replace("| **Total** | **245** | |\n", "")
        .replace(
            "| Finish the Q3 budget summary for Acme | 135 | must be done today |",
            "- Finish the Q3 budget summary for Acme (135 min) — must be done today",
        )
        .replace(
            "| Email Dana about the invoice | 20 | she is waiting |",
            "- Email Dana about the invoice (20 min) — she is waiting",
        )
        .replace(
            "| Review the vendor contract | 60 | before signing |",
            "- Review the vendor contract (60 min) — before signing",
        )
        .replace(
            "| Book flights for Berlin | 30 | prices go up |",
            "- Book flights for Berlin (30 min) — prices go up",
        );
    let hidden = list
        .replace("(135 min)", "(1\u{2062}35 min)")
        .replace("(20 min)", "(2\u{200b}0 min)")
        .replace("(60 min)", "(6\u{ad}0\u{2060} min)");
    assert_ne!(list, hidden);
    let validation = |text: &str| {
        std::fs::write(ws.path("p.md"), text).unwrap();
        let o = ws.run(&["check", "--format", "json", "--fail-on", "never", "p.md"]);
        let r: Value = serde_json::from_str(&stdout(&o)).expect("a report");
        r["byop_report"]["validation"].clone()
    };
    let shown = validation(&list);
    assert_eq!(shown["metrics"]["time_planned_minutes"], 245, "{shown}");
    assert_eq!(validation(&hidden), shown, "read as shown");
    // A Minutes cell is a bare number, not an expression: with an invisible character in
    // it, the row is not read (every check indeterminate, naming it), never a wrong number.
    let cell = TABLE_PLAN.replace("| 135 |", "| 1\u{2062}35 |");
    std::fs::write(ws.path("t.md"), cell).unwrap();
    let o = ws.run(&["check", "--format", "json", "--fail-on", "never", "t.md"]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &r["byop_report"]["validation"];
    assert!(
        v["errors"][0]
            .as_str()
            .unwrap()
            .contains("could not be read"),
        "{v}"
    );
    let checks = r["byop_report"]["check_results"].as_array().unwrap();
    assert!(
        checks.iter().all(|c| c["result"] == "indeterminate"),
        "{checks:?}"
    );
}

/// A time written so that the plan reader cannot read it as a reader sees it — a character
/// reference (`11&colon;30`), an HTML comment inside it (`11<!-- -->:30`), digits of another
/// script (`١١:٣٠`) — fails `constraints` closed instead of letting a block that overlaps
/// the fixed dentist appointment (11:00, one hour) pass; the plain overlapping block fails
/// it, and the repaired plan as written passes.
#[test]
fn a_time_written_so_that_it_is_not_read_fails_constraints() {
    let ws = planproof_ws();
    let dir = "planproof/variants/v4_repair";
    let base = std::fs::read_to_string(ws.path(&format!("{dir}/dentist_day.md"))).unwrap();
    let block = "- 09:00–11:00 Prepare slides for Thursday's review (120 min)";
    assert!(base.contains(block));
    let constraints = |name: &str, line: &str| {
        let path = format!("{dir}/{name}.md");
        std::fs::write(ws.path(&path), base.replacen(block, line, 1)).unwrap();
        let o = ws.run(&["check", "--format", "json", "--fail-on", "never", &path]);
        let r: Value = serde_json::from_str(&stdout(&o)).expect("a report");
        let checks = r["byop_report"]["check_results"]
            .as_array()
            .unwrap()
            .clone();
        let c = checks
            .iter()
            .find(|c| c["check_id"] == "constraints")
            .unwrap();
        (
            c["result"].as_str().unwrap().to_string(),
            c["notes"].to_string(),
        )
    };
    assert_eq!(constraints("as_written", block).0, "pass");
    let plain = "- 09:00–11:30 Prepare slides for Thursday's review (150 min)";
    assert_eq!(constraints("plain", plain).0, "fail");
    for (i, line) in [
        "- 09:00–11&colon;30 Prepare slides for Thursday's review (150 min)",
        "- 09:00–11<!-- -->:30 Prepare slides for Thursday's review (150 min)",
        "- ٠٩:٠٠–١١:٣٠ Prepare slides for Thursday's review (150 min)",
    ]
    .iter()
    .enumerate()
    {
        let (result, notes) = constraints(&format!("hidden{i}"), line);
        assert_eq!(result, "fail", "{line}");
        assert!(
            notes.contains("may not be read as shown"),
            "{line}: {notes}"
        );
    }
}
