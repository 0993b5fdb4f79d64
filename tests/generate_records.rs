//! What a generation leaves behind, end to end against the built binary and the local fake
//! LLM server: its rows in the store's hash-chained audit log (`byop log`, `--verify`), its
//! traces over OTLP (a local receiver decodes them), and the generation columns of the
//! HTML comparison.

mod support;

#[path = "support/otlp.rs"]
mod otlp_receiver;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use opentelemetry_proto::tonic::trace::v1::Span;
use otlp_receiver::{Receiver, attr, children};
use serde_json::Value;
use sha2::Digest;
use support::fake_llm::{FakeLlm, Script, Step};
use support::generation::{NAIVE, REPAIR, SCENARIOS, body, dataset, run_args, script, variant};
use support::workspace::{KEY, Ws, examples, json, stderr, stdout};

/// How each B output ends under the script: london passes as generated, school and tokyo
/// are repaired, dentist is rejected after its repair.
fn b_outcome(scenario: &str) -> &'static str {
    match scenario {
        "london_overbooked" => "passed",
        "dentist_day" => "rejected",
        _ => "repaired",
    }
}

/// `key: value` of an output's front matter (the generation block's keys are unique).
fn front(text: &str, key: &str) -> String {
    let prefix = format!("{key}: ");
    text.lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {key} in\n{text}"))
        .trim_matches('"')
        .to_string()
}

fn log(ws: &Ws) -> Vec<Value> {
    let o = ws.run(&["log", "--format", "json", "--limit", "100000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    json(&o).as_array().unwrap().clone()
}

/// The rows of every generation request, by request id, in log order.
fn generation_requests(rows: &[Value]) -> BTreeMap<String, Vec<Value>> {
    let ids: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r["state"] == "received")
        .filter(|r| {
            r["code"]
                .as_str()
                .is_some_and(|c| c.starts_with("generate: "))
        })
        .map(|r| r["request_id"].as_str().unwrap())
        .collect();
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for r in rows {
        let id = r["request_id"].as_str().unwrap();
        if ids.contains(id) {
            out.entry(id.to_string()).or_default().push(r.clone());
        }
    }
    out
}

/// The row's state, or `call:<check id>` for a call.
fn step(r: &Value) -> String {
    match r["state"].as_str().unwrap() {
        "call" => format!("call:{}", r["call"]["check_id"].as_str().unwrap()),
        s => s.to_string(),
    }
}

fn sha256(text: &str) -> String {
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

fn outputs(ws: &Ws, run: &str) -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for v in ["a_naive", "b_repair"] {
        for sc in SCENARIOS {
            let p = ws.path(&format!("exp/runs/{run}/{v}/{sc}.md"));
            out.push((v.to_string(), sc.to_string(), p));
        }
    }
    out
}

fn canonical(p: &Path) -> String {
    std::fs::canonicalize(p).unwrap().display().to_string()
}

#[test]
fn every_generation_and_repair_call_is_in_the_audit_log_and_the_log_verifies() {
    let ws = Ws::new();
    dataset(&ws, &[("a_naive", NAIVE), ("b_repair", REPAIR)]);
    let llm = FakeLlm::start_blocking(script());
    let o = ws
        .with_llm(&llm)
        .args(run_args(&["--run-id", "r1"]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = log(&ws);
    let requests = generation_requests(&rows);
    assert_eq!(requests.len(), 8, "one request per output");
    // Each output file is one request's decision: its sha256, its path, its outcome and
    // generation request id.
    for (v, sc, path) in outputs(&ws, "r1") {
        let text = std::fs::read_to_string(&path).unwrap();
        let sha = sha256(&text);
        let (id, req) = requests
            .iter()
            .find(|(_, r)| r.last().unwrap()["decision_id"] == sha.as_str())
            .unwrap_or_else(|| panic!("no request decided {v}/{sc}"));
        let outcome = if v == "a_naive" {
            "unvalidated"
        } else {
            b_outcome(&sc)
        };
        assert_eq!(front(&text, "outcome"), outcome);
        for r in req {
            assert_eq!(r["decision_id"], sha.as_str(), "every row of {id}");
            assert_eq!(r["document"], canonical(&path).as_str());
            assert!(r["playbook_logic_hash"].is_string());
        }
        assert_eq!(
            req[0]["code"],
            format!(
                "generate: {v}/{sc} ({})",
                if v == "a_naive" { "naive" } else { "repair" }
            )
        );
        let last = req.last().unwrap();
        assert_eq!(
            (last["state"].as_str(), last["code"].as_str()),
            (
                Some("generated"),
                Some(format!("{outcome}:{}", front(&text, "request_id")).as_str())
            )
        );
        let steps: Vec<String> = req.iter().map(step).collect();
        let want: Vec<&str> = match outcome {
            "unvalidated" => vec!["received", "call:generate", "generated"],
            "passed" => vec!["received", "call:generate", "validation", "generated"],
            _ => vec![
                "received",
                "call:generate",
                "validation",
                "call:repair",
                "validation",
                "generated",
            ],
        };
        assert_eq!(steps, want, "{v}/{sc}");
        if outcome != "unvalidated" {
            let before = req[2]["code"].as_str().unwrap();
            let fails = outcome != "passed";
            assert_eq!(before.starts_with("before: fail: "), fails, "{before}");
        }
        if outcome == "rejected" || outcome == "repaired" {
            let after = req[4]["code"].as_str().unwrap();
            let want = if outcome == "repaired" {
                "after: pass"
            } else {
                "after: fail: "
            };
            assert!(after.starts_with(want), "{after}");
        }
        for c in req.iter().filter(|r| r["state"] == "call") {
            let call = &c["call"];
            assert_eq!(call["outcome"], "ok");
            assert_eq!(call["cached"], false);
            assert_eq!(call["model"], front(&text, "model").as_str(), "{call}");
        }
    }
    // Every call the server answered is one call row.
    let calls = |check: &str, cached: bool| {
        requests
            .values()
            .flatten()
            .filter(|r| r["call"]["check_id"] == check && r["call"]["cached"] == cached)
            .count()
    };
    assert_eq!(calls("generate", false), llm.calls_for("generate"));
    assert_eq!(calls("repair", false), llm.calls_for("repair"));
    assert_eq!((llm.calls_for("generate"), llm.calls_for("repair")), (8, 3));
    // Another run folder: every answer from the cache, each a cached call row (attempt 0).
    let o = ws
        .with_llm(&llm)
        .args(run_args(&["--run-id", "r2"]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(llm.calls(), 11, "no call: the cache answered");
    let rows = log(&ws);
    let requests = generation_requests(&rows);
    assert_eq!(requests.len(), 16);
    let cached: Vec<&Value> = requests
        .values()
        .flatten()
        .filter(|r| r["call"]["cached"] == true)
        .collect();
    assert_eq!(cached.len(), 11);
    assert!(cached.iter().all(|r| r["call"]["attempt"] == 0));
    // The chain holds every row, and the summary counts the generations.
    let v = ws.run(&["log", "--verify"]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(
        stdout(&v).contains(&format!("audit log intact: {} row(s)", rows.len())),
        "{}",
        stdout(&v)
    );
    let st = json(&ws.run(&["log", "--stats", "--format", "json"]));
    assert_eq!(st["generated"], 16);
    assert_eq!(
        st["calls_by_status"]["ok"],
        rows.iter().filter(|r| r["state"] == "call").count()
    );
}

#[test]
fn plan_and_a_failed_generation_are_in_the_audit_log() {
    let ws = Ws::new();
    std::fs::copy(
        examples().join("planproof/scenarios/dentist_day.md"),
        ws.path("notes.md"),
    )
    .unwrap();
    let llm = FakeLlm::start_blocking(
        Script::default()
            .when(Some("generate"), "ZZ-REFUSED-CUE", vec![Step::Unauthorized])
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
    let id = p["debug"]["audit_request_id"].as_str().unwrap().to_string();
    let rows = log(&ws);
    let reqs = generation_requests(&rows);
    let req = &reqs[&id];
    let steps: Vec<String> = req.iter().map(step).collect();
    assert_eq!(
        steps,
        [
            "received",
            "call:generate",
            "validation",
            "call:repair",
            "validation",
            "generated"
        ]
    );
    assert_eq!(req[0]["code"], "generate: v4_repair/notes (repair)");
    let want = format!("repaired:{}", p["debug"]["request_id"].as_str().unwrap());
    assert_eq!(req[5]["code"], want.as_str());
    let decision = req[5]["decision_id"].as_str().unwrap();
    assert_eq!(decision.len(), 64);
    for r in req {
        assert_eq!(r["document"], canonical(&ws.path("notes.md")).as_str());
        assert_eq!(r["decision_id"], decision);
    }
    // A generation the provider refuses: the request halts with the error's kind.
    ws.write(
        "v.toml",
        "strategy = \"naive\"\ntemplate = \"ZZ-REFUSED-CUE {{notes}}\"\n",
    );
    let o = ws.run_llm(&llm, "plan notes.md --variant v.toml");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let rows = log(&ws);
    let halted: Vec<&Value> = rows.iter().filter(|r| r["state"] == "halted").collect();
    assert_eq!(halted.len(), 1, "{rows:#?}");
    assert_eq!(halted[0]["code"], "not_generated:auth");
    let reqs = generation_requests(&rows);
    let req = &reqs[halted[0]["request_id"].as_str().unwrap()];
    let steps: Vec<String> = req.iter().map(step).collect();
    assert_eq!(steps, ["received", "call:generate", "halted"]);
    assert_eq!(req[1]["call"]["outcome"], "auth");
    assert_eq!(req[1]["call"]["status"], 401);
    let v = ws.run(&["log", "--verify"]);
    assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
}

fn named<'a>(spans: &'a [Span], parent: &Span, name: &str) -> Vec<&'a Span> {
    children(spans, parent)
        .into_iter()
        .filter(|s| s.name == name)
        .collect()
}

#[test]
fn each_generated_output_is_one_trace_with_its_variant_model_outcome_and_tokens() {
    let ws = Ws::new();
    dataset(&ws, &[("a_naive", NAIVE), ("b_repair", REPAIR)]);
    let llm = FakeLlm::start_blocking(script());
    let receiver = Receiver::start();
    let o = ws
        .with_llm(&llm)
        .args(run_args(&[
            "--run-id",
            "r1",
            "--otlp-endpoint",
            &receiver.base_url,
        ]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spans = receiver.spans();
    let roots: Vec<&Span> = spans
        .iter()
        .filter(|s| s.parent_span_id.is_empty())
        .collect();
    let gens: Vec<&&Span> = roots.iter().filter(|s| s.name == "generate").collect();
    assert_eq!(gens.len(), 8, "one trace per generated output");
    let log_ids: BTreeSet<String> = generation_requests(&log(&ws)).into_keys().collect();
    let mut seen = BTreeSet::new();
    for root in gens {
        let s = |k: &str| attr(root, k).unwrap_or_else(|| panic!("no {k} on {root:?}"));
        let (v, sc) = (s("byop.variant"), s("byop.scenario"));
        let (v, sc) = (v.as_str().unwrap(), sc.as_str().unwrap());
        seen.insert(format!("{v}/{sc}"));
        let text = std::fs::read_to_string(ws.path(&format!("exp/runs/r1/{v}/{sc}.md"))).unwrap();
        assert!(log_ids.contains(s("byop.request_id").as_str().unwrap()));
        assert_eq!(
            s("byop.generation.request_id"),
            front(&text, "request_id").as_str()
        );
        let (strategy, outcome) = if v == "a_naive" {
            ("naive", "unvalidated")
        } else {
            ("repair", b_outcome(sc))
        };
        let model = front(&text, "model");
        assert_eq!(model == "planner-2", v == "b_repair");
        assert_eq!(s("byop.strategy"), strategy);
        assert_eq!(s("gen_ai.request.model"), model.as_str());
        assert_eq!(s("gen_ai.system"), "anthropic");
        assert_eq!(s("byop.generation.outcome"), outcome);
        // The fake provider reports 10 input and 10 output tokens per call.
        let calls = if matches!(outcome, "repaired" | "rejected") {
            2
        } else {
            1
        };
        assert_eq!(s("byop.llm.calls"), calls);
        assert_eq!(s("gen_ai.usage.input_tokens"), 10 * calls);
        assert_eq!(s("gen_ai.usage.output_tokens"), 10 * calls);
        assert!(attr(root, "byop.output.preview").is_none());
        // extract → plan → llm, validate, repair → llm, validate.
        let tops: BTreeSet<&str> = children(&spans, root)
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let want: &[&str] = match outcome {
            "unvalidated" => &["extract", "plan"],
            "passed" => &["extract", "plan", "validate"],
            _ => &["extract", "plan", "repair", "validate"],
        };
        let want: BTreeSet<&str> = want.iter().copied().collect();
        assert_eq!(tops, want, "{v}/{sc}");
        let extract = named(&spans, root, "extract");
        assert!(
            attr(extract[0], "byop.constraints.extracted")
                .unwrap()
                .as_i64()
                > Some(0)
        );
        let plan = named(&spans, root, "plan");
        assert_eq!(plan.len(), 1);
        let llm_spans = children(&spans, plan[0]);
        assert_eq!(llm_spans.len(), 1);
        assert_eq!(llm_spans[0].name, "llm");
        assert_eq!(attr(llm_spans[0], "byop.check.id").unwrap(), "generate");
        assert_eq!(
            attr(llm_spans[0], "gen_ai.request.model").unwrap(),
            model.as_str()
        );
        assert_eq!(
            attr(llm_spans[0], "gen_ai.usage.output_tokens").unwrap(),
            10
        );
        let validates = named(&spans, root, "validate");
        let which: BTreeMap<String, String> = validates
            .iter()
            .map(|s| {
                (
                    attr(s, "byop.validation.which")
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_string(),
                    attr(s, "byop.validation.status")
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect();
        match outcome {
            "unvalidated" => assert!(which.is_empty()),
            "passed" => {
                let want = BTreeMap::from([("before".to_string(), "pass".to_string())]);
                assert_eq!(which, want);
            }
            o => {
                let after = if o == "repaired" { "pass" } else { "fail" };
                let want = [
                    ("before".to_string(), "fail".to_string()),
                    ("after".to_string(), after.to_string()),
                ];
                assert_eq!(which, BTreeMap::from(want));
                let repair = named(&spans, root, "repair");
                let status = if o == "repaired" {
                    "repaired"
                } else {
                    "rejected"
                };
                assert_eq!(attr(repair[0], "byop.repair.status").unwrap(), status);
                let r_llm = children(&spans, repair[0]);
                assert_eq!(r_llm.len(), 1);
                assert_eq!(attr(r_llm[0], "byop.check.id").unwrap(), "repair");
            }
        }
    }
    assert_eq!(seen.len(), 8);
    // Neither the key, the notes nor the plans' text is in a trace.
    let raw = String::from_utf8_lossy(&receiver.raw()).into_owned();
    assert!(!raw.contains(KEY), "never the key");
    let notes = std::fs::read_to_string(ws.path("exp/scenarios/dentist_day.md")).unwrap();
    let plan = body("v1_naive", "dentist_day");
    for text in [&notes, &plan] {
        for line in text
            .lines()
            .filter(|l| l.len() > 24 && !l.starts_with("---"))
        {
            assert!(!raw.contains(line.trim()), "text in a trace: {line}");
        }
    }
}

#[test]
fn a_plan_trace_holds_a_preview_of_the_output_only_when_the_user_allows_text() {
    let ws = Ws::new();
    std::fs::copy(
        examples().join("planproof/scenarios/dentist_day.md"),
        ws.path("notes.md"),
    )
    .unwrap();
    let good = body("v4_repair", "dentist_day");
    let llm = FakeLlm::start_blocking(
        Script::default().check("generate", vec![Step::Generated { text: good.clone() }]),
    );
    let receiver = Receiver::start();
    let endpoint = ["--otlp-endpoint", receiver.base_url.as_str()];
    let o = ws
        .with_llm(&llm)
        .args(["plan", "notes.md", "--variant", "v3_validator"])
        .args(endpoint)
        .arg("--otlp-include-text")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = json(&o);
    let spans = receiver.spans();
    let root = spans.iter().find(|s| s.parent_span_id.is_empty()).unwrap();
    assert_eq!(root.name, "generate");
    assert_eq!(attr(root, "byop.variant").unwrap(), "v3_validator");
    assert_eq!(attr(root, "byop.strategy").unwrap(), "validate");
    assert_eq!(attr(root, "byop.generation.outcome").unwrap(), "passed");
    assert_eq!(
        attr(root, "byop.request_id").unwrap(),
        p["debug"]["audit_request_id"]
    );
    let preview = attr(root, "byop.output.preview").unwrap();
    let preview = preview.as_str().unwrap();
    let first: String = good.trim().chars().take(200).collect();
    assert_eq!(preview, first);
    let tops: Vec<&str> = children(&spans, root)
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(tops.iter().collect::<BTreeSet<_>>().len(), 3, "{tops:?}");
}

#[test]
fn the_html_comparison_shows_the_generation_columns_escaped() {
    let ws = Ws::new();
    let odd = "b<i>&repair";
    dataset(&ws, &[("a_naive", NAIVE), (odd, REPAIR)]);
    let llm = FakeLlm::start_blocking(script());
    let o = ws
        .with_llm(&llm)
        .args([
            "dataset",
            "run",
            "exp",
            "--mode",
            "deterministic",
            "--format",
            "html",
            "--input-price",
            "3",
            "--output-price",
            "15",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = stdout(&o);
    assert!(!html.contains(odd), "the variant name is escaped");
    let esc = "b&lt;i&gt;&amp;repair";
    // The same figures as the JSON comparison, which re-renders with no call.
    let j = ws.run(&[
        "dataset",
        "exp",
        "--format",
        "json",
        "--mode",
        "deterministic",
    ]);
    assert_eq!(j.status.code(), Some(0), "{}", stderr(&j));
    let j = json(&j);
    let section = &html[html.find("<h2>Generated</h2>").expect("a Generated table")..];
    let section = &section[..section.find("</table>").unwrap()];
    for (name, shown) in [("a_naive", "a_naive"), (odd, esc)] {
        let v = variant(&j, name);
        // The re-rendered comparison has no prices: the cost from its tokens and the run's.
        let tokens = |k: &str| v[k].as_u64().unwrap() as f64;
        let cost = format!(
            "${:.4}",
            (tokens("input_tokens") * 3.0 + tokens("output_tokens") * 15.0) / 1e6
        );
        let row = format!(
            "<tr><td>{shown}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{cost}</td></tr>",
            v["generated"],
            v["repair_attempted"],
            v["repaired"],
            v["rejected"],
            v["input_tokens"],
            v["output_tokens"]
        );
        assert!(section.contains(&row), "{row} not in {section}");
    }
    // Derived from the script: B made 4 generations and 3 repairs, repaired 2, rejected 1;
    // each call reports 10 + 10 tokens.
    let b = format!(
        "<tr><td>{esc}</td><td>4</td><td>3</td><td>2</td><td>1</td><td>70</td><td>70</td><td>${:.4}</td></tr>",
        (70.0 * 3.0 + 70.0 * 15.0) / 1e6
    );
    assert!(section.contains(&b), "{section}");
    // The paired comparison: three scenarios fixed, McNemar's exact p = 2 × 0.5³.
    assert!(
        html.contains("3 fixed, 0 broken, 0 both pass, 1 both fail; McNemar exact p = 0.2500."),
        "{html}"
    );
    assert!(html.contains(&format!("Paired comparison: a_naive → {esc}")));
}
