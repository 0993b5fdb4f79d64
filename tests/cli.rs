//! The built binary, end to end: deterministic runs, input errors, exit codes,
//! the store-backed commands, and evaluator runs against a local server that
//! speaks the real Anthropic / OpenAI wire formats.

mod support;

use std::path::Path;

use serde_json::Value;

use support::workspace::{KEY, Ws, check, json, stderr, stdout};

#[test]
fn deterministic_check_without_a_key_prints_a_report_and_a_notice() {
    let ws = Ws::new();
    let o = ws.run(&["check", "nda_review.ai.md"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains("No evaluator configured"), "{err}");
    assert!(out.contains("unchecked_areas_disclosure"), "{out}");
    assert!(out.contains("set ANTHROPIC_API_KEY"), "{out}");
    assert!(
        out.contains("This is an observability report, not legal advice."),
        "{out}"
    );
    // deterministic mode leaves high-severity checks undecided: REVIEW, below the default fail-on.
    assert!(out.contains("REVIEW"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}

#[test]
fn json_report_has_every_contract_field() {
    let ws = Ws::new();
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let r = &v["byop_report"];
    for key in [
        "spec_version",
        "playbook_id",
        "playbook_version",
        "execution_mode",
        "timestamp",
        "summary",
        "check_results",
        "variance_summary",
        "integrity",
        "presentation_rules",
    ] {
        assert!(!r[key].is_null(), "missing {key}");
    }
    assert_eq!(r["spec_version"], "0.1");
    assert_eq!(r["playbook_id"], "ai_plugin_observability_v1");
    assert_eq!(r["playbook_version"], "1.1.0");
    assert_eq!(r["execution_mode"], "deterministic");
    assert_eq!(
        r["presentation_rules"]["disclaimers"],
        serde_json::json!([
            "This is an observability report, not legal advice.",
            "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
            "Report describes behavior under this playbook and inputs."
        ])
    );
    assert!(
        r["integrity"]["playbook_logic_hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    assert!(
        r["integrity"]["inputs_fingerprint"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    let checks = r["check_results"].as_array().unwrap();
    assert_eq!(checks.len(), 6);
    for c in checks {
        for key in [
            "check_id",
            "result",
            "per_check_confidence",
            "per_check_consistency",
            "evidence_citations",
            "notes",
            "raw_runs",
            "severity",
        ] {
            assert!(!c[key].is_null(), "{} missing {key}", c["check_id"]);
        }
        // fail closed: nothing that needs the evaluator passes in deterministic mode
        if [
            "assumption_disclosure",
            "certainty_language",
            "escalation_signal",
        ]
        .contains(&c["check_id"].as_str().unwrap())
        {
            assert_eq!(c["result"], "indeterminate", "{c}");
        }
        for cit in c["evidence_citations"].as_array().unwrap() {
            assert!(cit["range"]["start"]["line"].is_u64(), "{cit}");
            assert!(
                ["exact", "normalized", "ellipsis", "fuzzy", "unlocated"]
                    .contains(&cit["located"].as_str().unwrap())
            );
        }
    }
}

#[test]
fn same_inputs_give_the_same_hashes_and_the_fingerprint_ignores_front_matter() {
    let ws = Ws::new();
    let a = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]));
    let b = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]));
    assert_eq!(a["byop_report"]["integrity"], b["byop_report"]["integrity"]);
    // CRLF and surrounding whitespace are normalized away.
    let text = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    std::fs::write(
        ws.path("crlf.ai.md"),
        format!("{}\n\n\n", text.replace('\n', "\r\n")),
    )
    .unwrap();
    let c = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "crlf.ai.md",
    ]));
    assert_eq!(
        a["byop_report"]["integrity"]["inputs_fingerprint"],
        c["byop_report"]["integrity"]["inputs_fingerprint"]
    );
    // A UTF-8 byte-order mark is not content.
    std::fs::write(ws.path("bom.ai.md"), format!("\u{feff}{text}")).unwrap();
    let d = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "bom.ai.md",
    ]));
    assert_eq!(
        a["byop_report"]["integrity"]["inputs_fingerprint"],
        d["byop_report"]["integrity"]["inputs_fingerprint"]
    );
}

#[test]
fn several_files_give_a_json_array_and_folders_use_the_include_globs() {
    let ws = Ws::new();
    let o = ws.run(&["check", "--mode", "deterministic", "--format", "json", "."]);
    let v = json(&o);
    let arr = v.as_array().expect("array for several documents");
    assert!(arr.len() >= 3, "{}", arr.len());
    assert!(arr.iter().all(|r| {
        r["byop_report"]["document"]["path"]
            .as_str()
            .unwrap()
            .ends_with(".ai.md")
    }));
}

#[test]
fn input_errors_exit_2_with_one_line_and_no_partial_report() {
    let ws = Ws::new();
    std::fs::write(ws.path("bin.ai.md"), b"\xff\xfe\x00binary").unwrap();
    std::fs::write(
        ws.path("fm.ai.md"),
        "---\nbyop:\n  source: [oops\n---\nBody",
    )
    .unwrap();
    std::fs::write(
        ws.path("bad.json"),
        "{\"id\": \"x\", \"version\": \"1\", \"checks\": [ {\"id\": \"a\"} ]}",
    )
    .unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["check", "missing.ai.md"], "no such file"),
        (vec!["check", "nda_review.ai.md", "bin.ai.md"], "UTF-8"),
        (vec!["check", "fm.ai.md"], "fm.ai.md:3:"),
        (
            vec!["check", "--playbook", "bad.json", "nda_review.ai.md"],
            "bad.json:1:",
        ),
        (
            vec!["check", "--playbook", "nonexistent_id", "nda_review.ai.md"],
            "unknown playbook",
        ),
        (
            vec!["check", "--mode", "turbo", "nda_review.ai.md"],
            "turbo",
        ),
        (
            vec!["playbook", "validate", "bad.json"],
            "is a required property",
        ),
    ];
    for (args, needle) in cases {
        let o = ws.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            o.stdout.is_empty(),
            "{args:?} printed a partial report: {}",
            stdout(&o)
        );
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn empty_document_is_handled() {
    // Nothing to check is an input error naming the file, never a passing report.
    let ws = Ws::new();
    std::fs::write(ws.path("empty.ai.md"), "").unwrap();
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "empty.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("empty.ai.md: nothing to check"));
    assert!(stdout(&o).is_empty());
}

#[test]
fn output_file_is_written_whole_and_fail_on_sets_the_exit_code() {
    let ws = Ws::new();
    let out = ws.path("report.json");
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
        "--fail-on",
        "review",
        "nda_review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(1), "REVIEW ≥ review: {}", stderr(&o));
    assert!(o.stdout.is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["byop_report"]["summary"]["overall_status"], "REVIEW");
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fail-on",
        "never",
        "nda_review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn history_baseline_and_diff_work_on_stored_reports() {
    let ws = Ws::new();
    let first = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]));
    let o = ws.run(&["baseline", "save", "nda_review.ai.md"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let id1 = first["byop_report"]["report_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(stdout(&o).contains(&id1), "{}", stdout(&o));
    let second = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]));
    let id2 = second["byop_report"]["report_id"]
        .as_str()
        .unwrap()
        .to_string();
    let drift = second["byop_report"]["check_results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == "drift_over_time_support")
        .unwrap()
        .clone();
    assert_eq!(drift["result"], "pass", "{drift}");
    assert!(
        drift["notes"].as_str().unwrap().contains("baseline"),
        "{drift}"
    );

    let o = ws.run(&["history", "nda_review.ai.md"]);
    let h = stdout(&o);
    assert!(h.contains(&id1[..12]) && h.contains(&id2[..12]), "{h}");
    assert!(h.contains("(baseline)"), "{h}");
    assert!(!h.contains("--all for more"), "every run shown: {h}");
    // The newest N rows and a note of how many there are; --all for every one.
    let h = stdout(&ws.run(&["history", "nda_review.ai.md", "--limit", "1"]));
    assert!(h.contains(&id2[..12]) && !h.contains(&id1[..12]), "{h}");
    assert!(
        h.contains("The newest 1 of 2 runs; --limit N or --all for more."),
        "{h}"
    );
    let h = stdout(&ws.run(&["history", "nda_review.ai.md", "--all"]));
    assert!(h.contains(&id1[..12]) && h.contains(&id2[..12]), "{h}");
    assert!(!h.contains("for more"), "{h}");
    let o = ws.run(&["history", "--all", "--limit", "3"]);
    assert_eq!(o.status.code(), Some(2), "--all and --limit together");
    let o = ws.run(&["baseline", "show", "nda_review.ai.md", "--format", "json"]);
    assert_eq!(json(&o)["byop_report"]["report_id"], id1.as_str());
    let o = ws.run(&["playbook", "hash", "ai_plugin_observability_v1"]);
    assert_eq!(
        stdout(&o).trim(),
        first["byop_report"]["integrity"]["playbook_logic_hash"]
            .as_str()
            .unwrap()
    );
}

#[test]
fn deterministic_mode_runs_over_the_whole_corpus_without_error() {
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    if !corpus.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have ../shared beside the repo: {}",
            corpus.display()
        );
        eprintln!("skipped: {} not present", corpus.display());
        return;
    }
    // Run from the corpus folder: the outputs' companions (../contracts, ../prompts) are
    // inside that workspace.
    let ws = Ws::new();
    let o = ws
        .cmd()
        .current_dir(corpus.parent().unwrap())
        .args([
            "check",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--fail-on",
            "never",
            "outputs",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v.as_array().unwrap().len(), 371);
}

// ---- against the local fake LLM server (real Anthropic / OpenAI wire formats) ----

use support::fake_llm::{FakeLlm, Script, Step};

/// The three evaluator-backed checks of the starter playbook.
const EVALUATED: [&str; 3] = [
    "assumption_disclosure",
    "certainty_language",
    "escalation_signal",
];

fn alert_script() -> Script {
    Script::always(vec![Step::pass()])
        .check("assumption_disclosure", vec![Step::fail_first_sentence()])
        .check("certainty_language", vec![Step::fail_first_sentence()])
}

#[test]
fn full_evaluation_makes_nine_concurrent_calls_and_reruns_come_from_the_cache() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(alert_script().latency_ms(150));
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    assert_eq!(
        o.status.code(),
        Some(1),
        "ALERT fails the default --fail-on: {}",
        stderr(&o)
    );
    let r = json(&o);
    assert_eq!(llm.calls(), 9, "3 checks × 3 runs");
    assert!(
        llm.max_in_flight() >= 3,
        "calls overlap (max in flight {})",
        llm.max_in_flight()
    );
    let rep = &r["byop_report"];
    assert_eq!(rep["summary"]["overall_status"], "ALERT");
    assert_eq!(rep["execution_mode"], "full");
    assert_eq!(rep["variance_summary"]["num_runs"], 3);
    assert_eq!(rep["evaluator"]["provider"], "anthropic");
    for id in EVALUATED {
        let c = check(&r, id);
        assert_eq!(c["raw_runs"].as_array().unwrap().len(), 3, "{id}");
        assert_eq!(c["per_check_consistency"], 1.0, "{id}");
    }
    let a = check(&r, "assumption_disclosure");
    assert_eq!(a["result"], "fail");
    let cit = &a["evidence_citations"][0];
    assert_eq!(cit["located"], "exact", "{cit}");
    assert!(
        cit["range"]["start"]["line"].as_u64().unwrap() > 0,
        "whole-document coordinates: {cit}"
    );
    assert_eq!(check(&r, "run_variance")["result"], "pass");
    // Every request carried the key and the fenced document.
    for req in llm.requests() {
        assert_eq!(req.header("x-api-key"), Some(KEY));
        assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(req.body["temperature"], 0.0);
    }

    // Same content again: not a single evaluator call.
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    let again = json(&o);
    assert_eq!(llm.calls(), 9, "rerun must be served from the cache");
    assert!(
        check(&again, "assumption_disclosure")["raw_runs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["cached"] == true)
    );
    assert_eq!(check(&again, "drift_over_time_support")["result"], "pass");
    // --fresh takes new samples.
    let o = ws.run_llm(
        &llm,
        "check --mode full --fresh --format json nda_review.ai.md",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(llm.calls(), 18);
}

#[test]
fn faults_are_retried_and_what_cannot_be_evaluated_is_never_pass() {
    let ws = Ws::new();
    let script = Script::always(vec![Step::pass()])
        // one 429 (retry-after honoured), then passes
        .check(
            "assumption_disclosure",
            vec![
                Step::RateLimited {
                    retry_after_secs: 1,
                },
                Step::pass(),
                Step::pass(),
                Step::pass(),
            ],
        )
        // always unparseable: one retry per run, then indeterminate with the raw text kept
        .check("certainty_language", vec![Step::Malformed])
        // always 500: bounded retries, then indeterminate
        .check("escalation_signal", vec![Step::ServerError]);
    let llm = FakeLlm::start_blocking(script);
    ws.write("byop.toml", "[evaluator]\nmax_retries = 2\n");
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    // Checks the mode needed got no answer: exit 3, "not evaluated", whatever the status.
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("not evaluated"), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(
        llm.calls_for("assumption_disclosure"),
        4,
        "one retry after the 429"
    );
    assert_eq!(check(&r, "assumption_disclosure")["result"], "pass");
    assert_eq!(
        llm.calls_for("certainty_language"),
        6,
        "malformed: exactly one retry per run"
    );
    let c = check(&r, "certainty_language");
    assert_eq!(c["result"], "indeterminate");
    for run in c["raw_runs"].as_array().unwrap() {
        assert_eq!(run["error"], "malformed");
        assert_eq!(run["notes"], "Evaluator returned unparseable response");
        assert!(
            !run["raw_response"].as_str().unwrap_or("").is_empty(),
            "raw text kept: {run}"
        );
    }
    assert_eq!(
        llm.calls_for("escalation_signal"),
        9,
        "1 + max_retries per run"
    );
    let e = check(&r, "escalation_signal");
    assert_eq!(e["result"], "indeterminate");
    assert!(
        e["raw_runs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["error"] == "server_error")
    );
    assert!(r["byop_report"]["summary"]["overall_status"] != "STABLE");
}

#[test]
fn quota_auth_timeout_and_truncation_fail_closed() {
    let ws = Ws::new();
    let script = Script::always(vec![Step::pass()])
        .check("assumption_disclosure", vec![Step::QuotaExhausted])
        .check("certainty_language", vec![Step::Hang { secs: 5.0 }])
        .check("escalation_signal", vec![Step::Truncated]);
    let llm = FakeLlm::start_blocking(script);
    ws.write(
        "byop.toml",
        "[evaluator]\nmax_retries = 1\ntimeout_secs = 1\n",
    );
    let o = ws.run_llm(
        &llm,
        "check --mode screening --format json nda_review.ai.md",
    );
    let r = json(&o);
    assert_eq!(
        llm.calls_for("assumption_disclosure"),
        1,
        "quota exhausted is never retried"
    );
    assert_eq!(
        check(&r, "assumption_disclosure")["raw_runs"][0]["error"],
        "quota_exhausted"
    );
    assert_eq!(
        check(&r, "certainty_language")["raw_runs"][0]["error"],
        "timeout"
    );
    assert_eq!(
        check(&r, "escalation_signal")["raw_runs"][0]["error"],
        "truncated"
    );
    for id in EVALUATED {
        assert_eq!(check(&r, id)["result"], "indeterminate", "{id}");
    }
    assert_eq!(r["byop_report"]["summary"]["overall_status"], "REVIEW");

    let llm = FakeLlm::start_blocking(Script::always(vec![Step::Unauthorized]));
    let o = ws.run_llm(
        &llm,
        "check --mode screening --fresh --format json nda_review.ai.md",
    );
    let r = json(&o);
    assert_eq!(llm.calls(), 3, "auth errors are not retried");
    assert_eq!(
        check(&r, "escalation_signal")["raw_runs"][0]["error"],
        "auth"
    );
}

#[test]
fn openai_compatible_provider_speaks_chat_completions() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let o = ws
        .cmd()
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base_url))
        .env("OPENAI_API_KEY", KEY)
        .args([
            "check",
            "--provider",
            "openai",
            "--model",
            "llama3",
            "--mode",
            "screening",
            "--format",
            "json",
            "msa_review.ai.md",
        ])
        .output()
        .unwrap();
    let r = json(&o);
    assert_eq!(llm.calls(), 3, "{}", stderr(&o));
    let req = &llm.requests()[0];
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(req.body["model"], "llama3");
    assert_eq!(req.body["response_format"]["type"], "json_schema");
    assert_eq!(r["byop_report"]["evaluator"]["provider"], "openai");
    assert_eq!(check(&r, "escalation_signal")["result"], "pass");
}

#[test]
fn the_key_is_never_written_and_a_workspace_cannot_redirect_it() {
    let ws = Ws::new();
    let users = FakeLlm::start_blocking(alert_script());
    let evil = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    ws.write(
        "byop.toml",
        &format!("[evaluator]\nbase_url = \"{}\"\n", evil.base_url),
    );
    let o = ws.run_llm(
        &users,
        "check --mode screening --format json nda_review.ai.md",
    );
    assert_eq!(
        evil.calls(),
        0,
        "the workspace's base URL never sees the key"
    );
    assert_eq!(users.calls(), 3);
    assert!(
        stderr(&o).contains("may not choose where your API key is sent"),
        "{}",
        stderr(&o)
    );
    for text in [stdout(&o), stderr(&o)] {
        assert!(!text.contains(KEY));
    }
    assert_no_file_holds(&ws, KEY);
}

/// No file of the workspace (the store and its WAL included) holds `secret`.
fn assert_no_file_holds(ws: &Ws, secret: &str) {
    for entry in std::fs::read_dir(ws.dir.path()).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} found in {}",
            entry.path().display()
        );
    }
}

/// A provider that says the key back — in a bad-request message, a policy block or an
/// OpenAI refusal — never gets it into any output format, the error stream or the store.
#[test]
fn a_key_the_provider_says_back_is_in_no_output_error_or_store() {
    for (openai, refusal) in [(false, false), (false, true), (true, false), (true, true)] {
        let ws = Ws::new();
        let llm = FakeLlm::start_blocking(Script::always(vec![Step::KeyEcho { refusal }]));
        for format in ["json", "sarif", "text"] {
            let mut c = ws.cmd();
            match openai {
                true => c
                    .env("OPENAI_BASE_URL", format!("{}/v1", llm.base_url))
                    .env("OPENAI_API_KEY", KEY)
                    .args(["check", "--provider", "openai", "--model", "m"]),
                false => c
                    .env("ANTHROPIC_API_KEY", KEY)
                    .env("ANTHROPIC_BASE_URL", &llm.base_url)
                    .arg("check"),
            };
            let o = c
                .args([
                    "--mode",
                    "screening",
                    "--format",
                    format,
                    "nda_review.ai.md",
                ])
                .output()
                .unwrap();
            let case = format!("openai {openai}, refusal {refusal}, {format}");
            assert_eq!(o.status.code(), Some(3), "{case}: {}", stderr(&o));
            assert!(
                stdout(&o).contains("[redacted]"),
                "{case}: the echo was reported, scrubbed"
            );
            for text in [stdout(&o), stderr(&o)] {
                assert!(!text.contains(KEY), "{case}: {text}");
            }
        }
        assert!(llm.calls() > 0);
        assert_no_file_holds(&ws, KEY);
    }
}

/// A password written into the evaluator's address is not shown when the call fails.
#[test]
fn a_password_in_the_evaluator_address_is_not_shown() {
    let ws = Ws::new();
    let o = ws
        .cmd()
        .env("ANTHROPIC_API_KEY", KEY)
        .env(
            "ANTHROPIC_BASE_URL",
            "http://user:BASEURLPASSWORD@127.0.0.1:1",
        )
        .args([
            "check",
            "--mode",
            "screening",
            "--format",
            "json",
            "nda_review.ai.md",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("127.0.0.1:1"),
        "the endpoint is still named"
    );
    for text in [stdout(&o), stderr(&o)] {
        assert!(!text.contains("BASEURLPASSWORD"), "{text}");
    }
}

#[test]
fn two_checks_writing_the_same_store_at_once_both_succeed() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(alert_script().latency_ms(100));
    let spawn = |file: &str| {
        ws.with_llm(&llm)
            .args([
                "check", "--mode", "full", "--fresh", "--format", "json", file,
            ])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn("nda_review.ai.md"), spawn("msa_review.ai.md"));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for o in [&a, &b] {
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "exit {:?}: {}",
            o.status.code(),
            stderr(o)
        );
        json(o);
    }
    let h = stdout(&ws.run(&["history"]));
    assert!(
        h.contains("nda_review.ai.md") && h.contains("msa_review.ai.md"),
        "{h}"
    );
}

#[test]
fn text_that_addresses_the_evaluator_is_fenced_and_reported() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let o = ws.run_llm(&llm, "check --mode screening --format json injection.ai.md");
    let r = json(&o);
    let warnings = r["byop_report"]["untrusted_input_warnings"]
        .as_array()
        .unwrap();
    assert!(!warnings.is_empty(), "{r}");
    assert!(warnings[0]["range"]["start"]["line"].is_u64());
    let doc = std::fs::read_to_string(ws.path("injection.ai.md")).unwrap();
    let line = doc
        .lines()
        .find(|l| l.to_lowercase().contains("ignore previous instructions"))
        .unwrap()
        .trim();
    let req = &llm.requests()[0];
    let user = req.user();
    let at = user.find(line).expect("document text is sent");
    let before = &user[..at];
    assert!(
        before.contains("AI OUTPUT UNDER EVALUATION"),
        "the document sits inside the fenced section"
    );
    assert!(
        req.system().to_lowercase().contains("untrusted"),
        "the system prompt says the document is data"
    );
}

#[test]
fn runs_per_check_in_full_mode_come_from_the_flag_or_byop_toml() {
    let ws = Ws::new();
    // 2 of 5 runs disagree: majority fail, consistency (3-1)/(5-1) = 0.5
    let script = Script::always(vec![Step::pass()]).check(
        "assumption_disclosure",
        vec![
            Step::fail_first_sentence(),
            Step::fail_first_sentence(),
            Step::fail_first_sentence(),
            Step::pass(),
            Step::pass(),
        ],
    );
    let llm = FakeLlm::start_blocking(script);
    let r = json(&ws.run_llm(
        &llm,
        "check --mode full --runs 5 --max-runs 5 --format json nda_review.ai.md",
    ));
    assert_eq!(llm.calls(), 15, "3 checks × 5 runs (no extra runs)");
    assert_eq!(r["byop_report"]["variance_summary"]["num_runs"], 5);
    let a = check(&r, "assumption_disclosure");
    assert_eq!(a["result"], "fail");
    assert_eq!(a["per_check_consistency"], 0.5);
    assert_eq!(
        check(&r, "run_variance")["result"],
        "fail",
        "0.5 is below the 0.85 threshold"
    );

    // The workspace may ask for more runs than the default, not for fewer extra ones.
    ws.write("byop.toml", "[evaluator]\nruns = 4\n");
    let r = json(&ws.run_llm(
        &llm,
        "check --mode full --fresh --max-runs 4 --format json msa_review.ai.md",
    ));
    assert_eq!(r["byop_report"]["variance_summary"]["num_runs"], 4);
    let o = ws.run(&["check", "--mode", "full", "--runs", "1", "nda_review.ai.md"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "fewer than 2 runs cannot measure variance"
    );
}

#[test]
fn stored_reports_render_with_their_own_playbook_and_only_their_own_text() {
    let ws = Ws::new();
    // A workspace playbook: the built-in one under another id.
    let builtin = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("playbooks/ai_plugin_observability_v1.json"),
    )
    .unwrap();
    std::fs::create_dir(ws.path("playbooks")).unwrap();
    std::fs::write(
        ws.path("playbooks/team.json"),
        builtin.replace("\"ai_plugin_observability_v1\"", "\"team_playbook\""),
    )
    .unwrap();
    let r = json(&ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "--playbook",
        "playbooks/team.json",
        "nda_review.ai.md",
    ]));
    let id = r["byop_report"]["report_id"].as_str().unwrap().to_string();
    let o = ws.run(&["report", &id, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sarif = json(&o);
    assert_eq!(
        sarif["runs"][0]["tool"]["driver"]["properties"]["playbook_id"],
        "team_playbook"
    );
    // Without that playbook, SARIF (which needs its rules) says so; JSON still renders.
    std::fs::remove_file(ws.path("playbooks/team.json")).unwrap();
    let o = ws.run(&["report", &id, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("team_playbook"), "{}", stderr(&o));
    assert_eq!(
        ws.run(&["report", &id, "--format", "json"]).status.code(),
        Some(0)
    );

    // HTML highlights the document only while it is the text the report was made from.
    let o = ws.run(&["report", &id, "--html"]);
    assert!(
        stdout(&o).contains("class=\"hl\""),
        "highlights for unchanged text"
    );
    let doc = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    std::fs::write(
        ws.path("nda_review.ai.md"),
        doc.replace("## Summary", "## Summary\n\nInserted paragraph."),
    )
    .unwrap();
    let o = ws.run(&["report", &id, "--html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        !stdout(&o).contains("class=\"hl\""),
        "no highlights on changed text"
    );
}

#[test]
fn split_runs_draw_more_until_the_majority_is_settled() {
    let (p, f) = (Step::pass(), Step::fail_first_sentence());
    // escalation: P F P, then two more (P P) settle it at 4–1 with 2 left;
    // certainty: P F P F P F P — a close race that goes to the 7-run limit;
    // assumptions: unanimous, three runs.
    let llm = FakeLlm::start_blocking(
        Script::always(vec![Step::pass()])
            .check(
                "escalation_signal",
                vec![p.clone(), f.clone(), p.clone(), p.clone(), p.clone()],
            )
            .check("certainty_language", vec![p.clone(), f.clone()]),
    );
    let ws = Ws::new();
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    let r = json(&o);
    let runs = |id: &str| check(&r, id)["raw_runs"].as_array().unwrap().len();
    assert_eq!(
        (
            runs("escalation_signal"),
            llm.calls_for("escalation_signal")
        ),
        (5, 5)
    );
    assert_eq!(
        (
            runs("certainty_language"),
            llm.calls_for("certainty_language")
        ),
        (7, 7)
    );
    assert_eq!(
        (
            runs("assumption_disclosure"),
            llm.calls_for("assumption_disclosure")
        ),
        (3, 3)
    );
    let per_check = &r["byop_report"]["variance_summary"]["runs_per_check"];
    assert_eq!(per_check["certainty_language"], 7);
    assert_eq!(per_check["escalation_signal"], 5);
    assert_eq!(r["byop_report"]["variance_summary"]["num_runs"], 7);
    // Consistency uses every run: 4 of 5 agree → (4 − 1) / (5 − 1).
    assert_eq!(
        check(&r, "escalation_signal")["per_check_consistency"],
        0.75
    );
    assert!(
        check(&r, "escalation_signal")["notes"]
            .as_str()
            .unwrap()
            .starts_with("5 runs: the first 3 disagreed"),
        "{}",
        check(&r, "escalation_signal")["notes"]
    );

    // The extra runs are samples of their own run index: a rerun is served whole from the cache.
    let before = llm.calls();
    let again = json(&ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md"));
    assert_eq!(llm.calls(), before);
    let runs_again = |id: &str| check(&again, id)["raw_runs"].as_array().unwrap().len();
    assert_eq!(runs_again("certainty_language"), 7);

    // --max-runs equal to --runs: no extra runs.
    let fresh = ws.run_llm(
        &llm,
        "check --mode full --fresh --runs 3 --max-runs 3 --format json nda_review.ai.md",
    );
    let fresh = json(&fresh);
    assert_eq!(
        check(&fresh, "certainty_language")["raw_runs"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn store_prune_drops_old_reports_and_deleted_documents_then_vacuum_shrinks_the_file() {
    let ws = Ws::new();
    ws.write(
        "gone.ai.md",
        &std::fs::read_to_string(ws.path("msa_review.ai.md")).unwrap(),
    );
    for (file, edits) in [("nda_review.ai.md", 3), ("gone.ai.md", 2)] {
        for i in 0..edits {
            // A changed document each time: a new report each time.
            let text = std::fs::read_to_string(ws.path(file)).unwrap();
            ws.write(file, &format!("{text}\nEdit {i}.\n"));
            let o = ws.run(&[
                "check",
                "--mode",
                "deterministic",
                "--fail-on",
                "never",
                file,
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        }
    }
    let baseline = ws.run(&["baseline", "save", "nda_review.ai.md"]);
    assert_eq!(baseline.status.code(), Some(0), "{}", stderr(&baseline));
    std::fs::remove_file(ws.path("gone.ai.md")).unwrap();
    let rows = |ws: &Ws| {
        let history = stdout(&ws.run(&["history", "--format", "json"]));
        serde_json::from_str::<Value>(&history)
            .unwrap()
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(rows(&ws), 5);

    let dry = stdout(&ws.run(&["store", "prune", "--keep-last", "1", "--dry-run"]));
    assert!(dry.starts_with("Would remove 4 report(s)"), "{dry}");
    assert_eq!(rows(&ws), 5, "a dry run changes nothing");

    // gone.ai.md: both reports go; nda_review.ai.md: the newest stays (it is also the baseline).
    let out = stdout(&ws.run(&["store", "prune", "--keep-last", "1"]));
    assert!(out.starts_with("Removed 4 report(s)"), "{out}");
    assert!(out.contains("1 document(s) no longer exist"), "{out}");
    assert_eq!(rows(&ws), 1);
    let diff = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fail-on",
        "never",
        "nda_review.ai.md",
    ]);
    assert_eq!(
        diff.status.code(),
        Some(0),
        "the store still works: {}",
        stderr(&diff)
    );

    let v = ws.run(&["store", "vacuum"]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(stdout(&v).starts_with("Vacuumed "), "{}", stdout(&v));
}
