//! `cargo bench --bench generate`: `byop dataset run` (the built binary) over 100 PlanProof
//! scenarios (the 60 shipped ones and copies of them under other names) × the four shipped variants (naive, constraints, validate, repair) against a
//! local fake server answering each call after 1 s. Prints the wall time of the first run
//! beside the ideal `⌈calls / concurrency⌉ × latency` (goal: within 1.2×), the same run again
//! (every output there: no call) and `byop dataset DIR` re-rendering the comparison of the
//! finished run with no call and no key (goal: under 0.5 s).

#[path = "../tests/support/fake_llm.rs"]
mod fake_llm;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use fake_llm::{FakeLlm, Script, Step};

const LATENCY_MS: u64 = 1000;
/// Scenarios in the experiment: the shipped ones, then copies of them.
const SCENARIOS: usize = 100;
/// The evaluator's default bound on calls in flight.
const CONCURRENCY: usize = 16;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/planproof")
}

/// The body of a file (its front matter removed).
fn body(text: &str) -> String {
    match text
        .strip_prefix("---\n")
        .and_then(|r| r.find("\n---\n").map(|i| (r, i)))
    {
        Some((rest, i)) => rest[i + 5..].to_string(),
        None => text.to_string(),
    }
}

/// The scenarios (name → notes), each answered with its hand-written naive plan, and repaired
/// with its hand-written v4 plan (matched on a line of its notes no other scenario has).
fn scenarios_and_script() -> (BTreeMap<String, String>, Script) {
    let mut notes = BTreeMap::new();
    for e in std::fs::read_dir(examples().join("scenarios"))
        .unwrap()
        .flatten()
    {
        let name = e.path().file_stem().unwrap().to_string_lossy().into_owned();
        notes.insert(name, std::fs::read_to_string(e.path()).unwrap());
    }
    let mut line_count: BTreeMap<String, usize> = BTreeMap::new();
    for text in notes.values() {
        for l in body(text).lines().map(str::trim).filter(|l| l.len() > 12) {
            *line_count.entry(l.to_string()).or_default() += 1;
        }
    }
    let plan = |variant: &str, name: &str| {
        let p = examples().join(format!("variants/{variant}/{name}.md"));
        body(&std::fs::read_to_string(p).unwrap())
    };
    let mut script = Script::default().latency_ms(LATENCY_MS);
    for (name, text) in &notes {
        let cue = format!("Scenario {name}.\n");
        let generated = vec![Step::Generated {
            text: plan("v1_naive", name),
        }];
        script = script.when(Some("generate"), &cue, generated);
        let unique = body(text)
            .lines()
            .map(str::trim)
            .filter(|l| line_count.get(*l) == Some(&1))
            .max_by_key(|l| l.len())
            .map(str::to_string);
        if let Some(line) = unique {
            let repaired = vec![Step::Repaired {
                text: plan("v4_repair", name),
                append: false,
            }];
            script = script.when(Some("repair"), &line, repaired);
        }
    }
    // Up to SCENARIOS with copies of the shipped ones under other names: a copy's plan is
    // its original's, and its repair request carries its original's notes (and cue).
    let originals: Vec<(String, String)> = notes.clone().into_iter().collect();
    for (i, (name, text)) in originals.iter().cycle().enumerate() {
        if notes.len() >= SCENARIOS {
            break;
        }
        let copy = format!("{name}__copy{i}");
        let generated = vec![Step::Generated {
            text: plan("v1_naive", name),
        }];
        script = script.when(Some("generate"), &format!("Scenario {copy}.\n"), generated);
        notes.insert(copy, text.clone());
    }
    (notes, script)
}

/// The dataset: the scenarios, and the shipped variants with a first line naming the
/// scenario (so the fake server knows which plan to answer).
fn dataset(dir: &Path, notes: &BTreeMap<String, String>) {
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    for (name, text) in notes {
        std::fs::write(dir.join(format!("scenarios/{name}.md")), text).unwrap();
    }
    std::fs::write(dir.join("dataset.toml"), "playbook = \"planproof_v1\"\n").unwrap();
    for v in ["v1_naive", "v2_constraints", "v3_validator", "v4_repair"] {
        let spec = examples().join(format!("generate/variants/{v}/variant.toml"));
        let text = std::fs::read_to_string(spec).unwrap();
        let text = text.replacen(
            "template = \"\"\"\n",
            "template = \"\"\"\nScenario {{scenario}}.\n",
            1,
        );
        assert!(text.contains("Scenario {{scenario}}."), "{v}: a template");
        std::fs::create_dir_all(dir.join(format!("variants/{v}"))).unwrap();
        std::fs::write(dir.join(format!("variants/{v}/variant.toml")), text).unwrap();
    }
}

fn byop(work: &Path, llm: Option<&FakeLlm>, args: &[&str]) -> (f64, Output) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_byop"));
    c.current_dir(work)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("CI")
        .env("BYOP_DB", work.join("state.db"))
        .env("BYOP_DATA_DIR", work.join("home"))
        .env("NO_COLOR", "1")
        .args(args);
    if let Some(llm) = llm {
        c.env("ANTHROPIC_API_KEY", "bench-key")
            .env("ANTHROPIC_BASE_URL", &llm.base_url);
    }
    let start = Instant::now();
    let out = c.output().unwrap();
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "byop {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (secs, out)
}

fn main() {
    let (notes, script) = scenarios_and_script();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("exp");
    dataset(&dir, &notes);
    let llm = FakeLlm::start_blocking(script);
    let run = [
        "dataset",
        "run",
        "exp",
        "--mode",
        "deterministic",
        "--format",
        "json",
    ];
    let (first, out) = byop(work.path(), Some(&llm), &run);
    let calls = llm.calls();
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let generated: u64 = summary["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["generated"].as_u64().unwrap())
        .sum();
    let ideal = calls.div_ceil(CONCURRENCY) as f64 * LATENCY_MS as f64 / 1000.0;
    println!("| benchmark | result |\n|---|---|");
    println!(
        "| `byop dataset run`, {} scenarios × 4 variants ({generated} outputs, {calls} calls: {} generations, {} repairs) at 1 s latency, concurrency {CONCURRENCY} | {first:.2} s wall; ideal ⌈calls / concurrency⌉ × latency = {ideal:.0} s; ratio {:.2} (goal ≤ 1.2: {}) |",
        notes.len(),
        llm.calls_for("generate"),
        llm.calls_for("repair"),
        first / ideal,
        if first / ideal <= 1.2 {
            "met"
        } else {
            "NOT met"
        }
    );
    let (again, _) = byop(work.path(), Some(&llm), &run);
    assert_eq!(llm.calls(), calls, "the second run makes no call");
    println!(
        "| the same run again (every output there, no call), comparison included | {again:.2} s wall |"
    );
    let render = [
        "dataset",
        "exp",
        "--mode",
        "deterministic",
        "--format",
        "json",
    ];
    let mut times: Vec<f64> = (0..5).map(|_| byop(work.path(), None, &render).0).collect();
    times.sort_by(f64::total_cmp);
    println!(
        "| `byop dataset DIR` re-rendering the finished run's comparison ({generated} outputs, no call, no key) | {:.3} s wall, median of 5 (goal < 0.5 s: {}) |",
        times[2],
        if times[2] < 0.5 { "met" } else { "NOT met" }
    );
}
