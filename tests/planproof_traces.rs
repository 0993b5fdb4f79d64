//! A PlanProof plan's `debug` (its variant; the notes' preview only when the user allows
//! text) and its traces: `extract` with the constraints found in the notes (kind, window),
//! `validate` with the eight metrics, `repair` and `validate` again, `plan` when byop
//! generated it. Real binary, the local fake evaluator and the local OTLP receiver.

mod support;

#[path = "support/otlp.rs"]
mod otlp_receiver;

use opentelemetry_proto::tonic::trace::v1::Span;
use otlp_receiver::{Receiver, attr, children, root};
use serde_json::{Value, json};
use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{KEY, Ws, examples, json, stderr};

const METRICS: [&str; 8] = [
    "constraints_declared",
    "constraints_violated",
    "time_available_minutes",
    "time_planned_minutes",
    "time_overflow_minutes",
    "hallucination_flags",
    "human_feasibility_flags",
    "context_coverage_ratio",
];

/// The notes of the dentist day: `work 8:30-17:00` (the working window), the dentist
/// 11:00 for an hour and the call at 14:00 for 30 min (blocked), and the NDA marked
/// `today!!` (a must-do), in the order `constraints_declared` counts them.
const CONSTRAINTS: [(&str, &str); 4] = [
    ("working_window", "08:30–17:00"),
    ("blocked", "11:00–12:00"),
    ("blocked", "14:00–14:30"),
    ("must_do", "today"),
];

fn example(path: &str) -> String {
    std::fs::read_to_string(examples().join(path)).unwrap()
}

/// The hand-written plan's body (front matter removed).
fn body(variant: &str) -> String {
    let text = example(&format!("planproof/variants/{variant}/dentist_day.md"));
    let rest = text.strip_prefix("---\n").unwrap();
    rest[rest.find("\n---\n").unwrap() + 5..].to_string()
}

/// `notes.md` (the dentist day) and `plan.md` (the variant's plan, its front matter
/// declaring `declared` as its variant, its source `notes.md`).
fn plan_ws(variant: &str, declared: &str) -> Ws {
    let ws = Ws::new();
    ws.write("notes.md", &example("planproof/scenarios/dentist_day.md"));
    let head = format!(
        "---\ncurrent_time: \"2026-06-02T08:30:00+02:00\"\ntimezone: Europe/Berlin\nvariant: {declared}\nbyop:\n  source: notes.md\n  playbook: planproof_v1\n---\n"
    );
    ws.write("plan.md", &(head + &body(variant)));
    ws
}

/// The hand-worked metrics of the dentist day's plan (examples/planproof/expected.json).
fn expected(variant: &str) -> Value {
    let all: Value = serde_json::from_str(&example("planproof/expected.json")).unwrap();
    all["dentist_day"][variant].clone()
}

/// The notes without their front matter, as the preview starts.
fn notes_preview() -> String {
    let notes = example("planproof/scenarios/dentist_day.md");
    let rest = notes.strip_prefix("---\n").unwrap();
    let body = &rest[rest.find("\n---\n").unwrap() + 5..];
    body.trim_start().chars().take(200).collect()
}

/// The span's eight metrics against the hand-worked ones (`coverage` as covered/tasks).
fn assert_metrics(span: &Span, want: &Value) {
    for m in METRICS {
        let got = attr(span, &format!("byop.plan.{m}")).unwrap_or_else(|| panic!("{m}"));
        let want = match m {
            "context_coverage_ratio" => {
                let c = want["coverage"].as_array().unwrap();
                json!(c[0].as_f64().unwrap() / c[1].as_f64().unwrap())
            }
            _ => want[m].clone(),
        };
        assert_eq!(got, want, "{m} on {}", span.name);
    }
    assert_eq!(attr(span, "byop.plan.status").unwrap(), want["status"]);
}

fn assert_constraints(extract: &Span) {
    let kinds: Vec<Value> = CONSTRAINTS.iter().map(|(k, _)| json!(k)).collect();
    let windows: Vec<Value> = CONSTRAINTS.iter().map(|(_, w)| json!(w)).collect();
    assert_eq!(attr(extract, "byop.constraints.extracted").unwrap(), 4);
    assert_eq!(
        attr(extract, "byop.constraints.kind").unwrap(),
        json!(kinds)
    );
    assert_eq!(
        attr(extract, "byop.constraints.window").unwrap(),
        json!(windows)
    );
}

fn names(spans: &[&Span]) -> Vec<String> {
    spans.iter().map(|s| s.name.clone()).collect()
}

#[test]
fn a_plan_report_carries_its_variant_and_the_notes_preview_only_when_the_user_allows_text() {
    let ws = plan_ws("v4_repair", "v7_mine");
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "--mode",
        "deterministic",
        "plan.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = &json(&o)["byop_report"];
    assert_eq!(report["validation"]["status"], "pass");
    assert_eq!(report["debug"], json!({"variant": "v7_mine"}));
    // A legal document has no plan validation, so no debug.
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "--mode",
        "deterministic",
        "nda_review.ai.md",
    ]);
    assert!(json(&o)["byop_report"].get("debug").is_none());
    // `byop repair --format json`: the variant; the preview only when the user allows it.
    let repair = |extra: &[&str], env: Option<(&str, &str)>| {
        let mut c = ws.cmd();
        c.args(["repair", "--format", "json", "plan.md"])
            .args(extra);
        if let Some((k, v)) = env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        json(&o)["byop_report"]["debug"].clone()
    };
    assert_eq!(repair(&[], None), json!({"variant": "v7_mine"}));
    let with_text = json!({"variant": "v7_mine", "context_preview": notes_preview()});
    assert_eq!(repair(&["--otlp-include-text"], None), with_text);
    assert_eq!(
        repair(&[], Some(("BYOP_OTLP_INCLUDE_TEXT", "1"))),
        with_text
    );
    // The workspace cannot allow text on the user's behalf.
    ws.write("byop.toml", "[telemetry]\ninclude_text = true\n");
    assert_eq!(repair(&[], None), json!({"variant": "v7_mine"}));
}

#[test]
fn a_checked_plan_traces_its_variant_constraints_and_metrics() {
    let ws = plan_ws("v1_naive", "v1_naive");
    let receiver = Receiver::start();
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "--mode",
        "deterministic",
        "--fail-on",
        "never",
        "--otlp-endpoint",
        &receiver.base_url,
        "plan.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spans = receiver.spans();
    let root = root(&spans);
    assert_eq!(attr(root, "byop.variant").unwrap(), "v1_naive");
    assert!(attr(root, "byop.context.preview").is_none());
    let top = children(&spans, root);
    assert_eq!(names(&top), ["extract", "validate"]);
    assert_constraints(top[0]);
    assert_metrics(top[1], &expected("v1_naive"));
    // With the user's leave, the notes' preview is on the root.
    let receiver = Receiver::start();
    let o = ws
        .cmd()
        .args(["check", "--mode", "deterministic", "--fail-on", "never"])
        .args(["--otlp-include-text", "--otlp-endpoint", &receiver.base_url])
        .arg("plan.md")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spans = receiver.spans();
    assert_eq!(
        attr(otlp_receiver::root(&spans), "byop.context.preview").unwrap(),
        notes_preview()
    );
}

#[test]
fn a_repaired_plan_traces_extract_validate_repair_validate_with_both_metrics() {
    let ws = plan_ws("v1_naive", "v1_naive");
    let llm = FakeLlm::start_blocking(Script::default().check(
        "repair",
        vec![Step::Repaired {
            text: body("v4_repair"),
            append: false,
        }],
    ));
    let receiver = Receiver::start();
    let o = ws
        .with_llm(&llm)
        .args([
            "repair",
            "-o",
            "fixed.md",
            "--otlp-endpoint",
            &receiver.base_url,
        ])
        .arg("plan.md")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spans = receiver.spans();
    let root = root(&spans);
    assert_eq!(attr(root, "byop.variant").unwrap(), "v1_naive");
    let top = children(&spans, root);
    assert_eq!(names(&top), ["extract", "validate", "repair", "validate"]);
    assert_constraints(top[0]);
    assert_metrics(top[1], &expected("v1_naive"));
    assert_eq!(names(&children(&spans, top[2])), ["llm"]);
    assert_metrics(top[3], &expected("v4_repair"));
    let raw = String::from_utf8_lossy(&receiver.raw()).into_owned();
    assert!(!raw.contains(KEY));
    assert!(!raw.contains("Prepare slides"), "no plan or notes text");
}

#[test]
fn a_generated_plan_traces_extract_plan_validate_repair_validate() {
    let ws = Ws::new();
    ws.write("notes.md", &example("planproof/scenarios/dentist_day.md"));
    let llm = FakeLlm::start_blocking(
        Script::default()
            .check(
                "generate",
                vec![Step::Generated {
                    text: body("v1_naive"),
                }],
            )
            .check(
                "repair",
                vec![Step::Repaired {
                    text: body("v4_repair"),
                    append: false,
                }],
            ),
    );
    let run = |variant: &str, text: bool| {
        let receiver = Receiver::start();
        let mut c = ws.with_llm(&llm);
        c.args(["plan", "notes.md", "--variant", variant, "--fresh"])
            .args(["--otlp-endpoint", &receiver.base_url]);
        if text {
            c.arg("--otlp-include-text");
        }
        let o = c.output().unwrap();
        (o, receiver.spans())
    };
    let (o, spans) = run("v4_repair", false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = json(&o);
    assert!(
        p["debug"].get("context_preview").is_none(),
        "no text unasked"
    );
    let root = root(&spans);
    assert_eq!(root.name, "generate");
    assert_eq!(attr(root, "byop.variant").unwrap(), "v4_repair");
    let top = children(&spans, root);
    assert_eq!(
        names(&top),
        ["extract", "plan", "validate", "repair", "validate"]
    );
    assert_constraints(top[0]);
    assert_metrics(top[2], &expected("v1_naive"));
    assert_metrics(top[4], &expected("v4_repair"));
    for m in METRICS {
        assert_eq!(
            attr(top[4], &format!("byop.plan.{m}")).unwrap(),
            p["validation"]["metrics"][m],
            "the trace's last validation is the served plan's"
        );
    }
    // A naive variant does not validate; the plan served is validated all the same, and
    // the user's leave puts the notes' preview in the response and the trace.
    let (o, spans) = run("v1_naive", true);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let p = json(&o);
    assert_eq!(p["debug"]["context_preview"], notes_preview());
    let root = otlp_receiver::root(&spans);
    assert_eq!(attr(root, "byop.context.preview").unwrap(), notes_preview());
    let top = children(&spans, root);
    assert_eq!(names(&top), ["extract", "plan", "validate"]);
    assert_eq!(attr(top[2], "byop.validation.which").unwrap(), "served");
    assert_metrics(top[2], &expected("v1_naive"));
}
