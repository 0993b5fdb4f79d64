//! The evidence contract end to end against the built binary: the structured output's
//! field formats and schema versions, the evidence set's freshness, and the two codes of
//! an evaluator that will not answer — LC-005 (refused on policy grounds) and LC-006
//! (rate limited past the retries) — in JSON, SARIF, JUnit and the exit code, against
//! the local fake server speaking the Anthropic and OpenAI wire formats.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
mod support;

use byop::model::integrity::jcs_sha256;
use serde_json::{Value, json};
use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{KEY, Ws, check, json, stderr, stdout};

/// An RFC 3339 timestamp `secs_ago` seconds before now.
fn ago(secs_ago: i64) -> String {
    let now = jiff::Timestamp::now().as_second();
    jiff::Timestamp::from_second(now - secs_ago)
        .unwrap()
        .to_string()
}

/// An evidence set with its hash, after `mutate`.
fn evidence(mutate: impl FnOnce(&mut Value)) -> (String, String) {
    let mut v = json!({
        "source_origin": "OFFICIAL",
        "items": [{"type": "STATUTE", "ref": "USC:15 U.S.C. § 1681", "title": "Fair Credit Reporting Act", "effective_date": "1970-10-26"}],
        "missing": false,
        "evidence_hash": "",
        "retrieved_at": ago(60),
        "ttl_seconds": 600,
        "schema_version": "1.2"
    });
    mutate(&mut v);
    v.as_object_mut().unwrap().remove("evidence_hash");
    let hash = jcs_sha256(&v).trim_start_matches("sha256:").to_string();
    v["evidence_hash"] = hash.clone().into();
    (v.to_string(), hash)
}

/// A success response resting on the evidence hash `hash`, after `mutate`.
fn success(hash: &str, mutate: impl FnOnce(&mut Value)) -> String {
    let mut v = json!({
        "fail_closed": false,
        "request_id": "6f1c8a52-0d0c-4a7e-9a57-0b6f7c1d2e3f",
        "decision_token": {
            "decision_id": "d-1", "created_at": "2026-01-01T09:30:00+09:00",
            "input_hash": "a".repeat(64), "drf_evidence_hash": hash,
            "decision_graph_hash": format!("sha256:{}", "c".repeat(64)),
            "constitution_version": "2026.1", "digital_signature": "PLACEHOLDER",
            "schema_version": "1.0"
        },
        "summary": "s", "known_facts": ["k"], "unknown_facts": [],
        "evidence_citations": [{"ref": "USC:15 U.S.C. § 1681", "type": "STATUTE", "note": "n"}],
        "next_actions": ["a"], "disclaimer": "d"
    });
    mutate(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

/// `byop check --playbook evidence_contract_v1` on `output` with `evidence` as its set.
fn run_contract(ws: &Ws, evidence: &str, output: &str) -> Value {
    ws.write("evidence.json", evidence);
    ws.write(
        "answer.ai.md",
        &format!("---\nbyop:\n  evidence: evidence.json\n---\n{output}\n"),
    );
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "json",
        "--fail-on",
        "never",
        "answer.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    json(&o)
}

fn coded(report: &Value, id: &str) -> (String, String, String) {
    let c = check(report, id);
    let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
    (s("result"), s("code"), s("notes"))
}

#[test]
fn schema_versions_are_accepted_and_recorded_in_the_report() {
    let ws = Ws::new();
    let (set, hash) = evidence(|_| {});
    let r = run_contract(&ws, &set, &success(&hash, |_| {}));
    for id in ["evidence_set", "structured_output"] {
        assert_eq!(check(&r, id)["result"], "pass", "{}", check(&r, id));
    }
    assert_eq!(
        r["byop_report"]["evidence_contract"],
        json!({"evidence_set_schema_version": "1.2", "decision_token_schema_version": "1.0",
               "constitution_version": "2026.1"})
    );
}

#[test]
fn field_formats_of_the_structured_output_are_checked() {
    let ws = Ws::new();
    let (set, hash) = evidence(|_| {});
    let cases: Vec<(String, &str)> = vec![
        (
            success(&hash, |v| v["request_id"] = "not-a-uuid".into()),
            "request_id `not-a-uuid` is not a UUID",
        ),
        (
            success(&hash, |v| {
                v["decision_token"]["created_at"] = "not a date".into()
            }),
            "decision_token.created_at `not a date` is not an ISO-8601 timestamp",
        ),
        (
            success(&hash, |v| v["decision_token"]["input_hash"] = "xyz".into()),
            "decision_token.input_hash `xyz` is not a sha256",
        ),
        (
            success(&hash, |v| {
                v["decision_token"]["decision_graph_hash"] = "sha256:1234".into()
            }),
            "decision_token.decision_graph_hash `sha256:1234` is not a sha256",
        ),
        (
            success(&hash, |v| {
                v["decision_token"]["constitution_version"] = "".into()
            }),
            "decision_token.constitution_version is empty",
        ),
        (
            success(&hash, |v| {
                v["decision_token"]["schema_version"] = " ".into()
            }),
            "decision_token.schema_version is empty",
        ),
        (
            json!({"fail_closed": true, "request_id": "r-17", "code": "LC-004", "message": "m",
                   "required_user_inputs": [], "disclaimer": "d"})
            .to_string(),
            "request_id `r-17` is not a UUID",
        ),
    ];
    for (output, why) in cases {
        let r = run_contract(&ws, &set, &output);
        let (result, code, notes) = coded(&r, "structured_output");
        assert_eq!(
            (result.as_str(), code.as_str()),
            ("fail", "LC-003"),
            "{output}"
        );
        assert!(notes.contains(why), "{why}: {notes}");
    }
}

#[test]
fn retrieved_at_must_parse_and_stale_evidence_is_lc004_with_its_age() {
    let ws = Ws::new();
    let output = "The report must be accurate under 15 U.S.C. § 1681.";
    let (garbage, _) = evidence(|v| v["retrieved_at"] = "last Tuesday".into());
    let r = run_contract(&ws, &garbage, output);
    let (result, code, notes) = coded(&r, "evidence_set");
    assert_eq!(
        (result.as_str(), code.as_str()),
        ("fail", "LC-003"),
        "{notes}"
    );
    assert!(notes.contains("retrieved_at `last Tuesday`"), "{notes}");

    // Two hours old with a ten-minute TTL: stale, and the message gives the age.
    let (stale, _) = evidence(|v| v["retrieved_at"] = ago(7200).into());
    let r = run_contract(&ws, &stale, output);
    let (result, code, notes) = coded(&r, "evidence_set");
    assert_eq!(
        (result.as_str(), code.as_str()),
        ("fail", "LC-004"),
        "{notes}"
    );
    assert!(notes.contains("stale: retrieved 2 h 0 min ago"), "{notes}");
    assert!(notes.contains("past its ttl_seconds of 600"), "{notes}");

    // The same age within a longer TTL is fresh.
    let (fresh, _) = evidence(|v| {
        v["retrieved_at"] = ago(7200).into();
        v["ttl_seconds"] = 86_400.into();
    });
    let r = run_contract(&ws, &fresh, output);
    assert_eq!(check(&r, "evidence_set")["result"], "pass");
}

/// The starter playbook in screening mode against `llm` (Anthropic wire), in `format`.
fn screening(ws: &Ws, llm: &FakeLlm, format: &str) -> std::process::Output {
    ws.run_llm(
        llm,
        &format!("check --mode screening --format {format} nda_review.ai.md"),
    )
}

#[test]
fn a_refusal_is_lc005_and_rate_limiting_past_the_retries_is_lc006() {
    let ws = Ws::new();
    ws.write("byop.toml", "[evaluator]\nmax_retries = 1\n");
    let llm = FakeLlm::start_blocking(
        Script::always(vec![Step::pass()])
            .check("assumption_disclosure", vec![Step::Refusal])
            .check(
                "certainty_language",
                vec![Step::RateLimited {
                    retry_after_secs: 0,
                }],
            )
            .check("escalation_signal", vec![Step::ContentFiltered]),
    );
    let o = screening(&ws, &llm, "json");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let r = json(&o);
    for (id, code, error) in [
        ("assumption_disclosure", "LC-005", "refused"),
        ("escalation_signal", "LC-005", "refused"),
        ("certainty_language", "LC-006", "rate_limited"),
    ] {
        let c = check(&r, id);
        assert_eq!(c["result"], "indeterminate", "{c}");
        assert_eq!(c["code"], code, "{c}");
        assert_eq!(c["raw_runs"][0]["error"], error, "{c}");
        assert!(c["notes"].as_str().unwrap().starts_with(code), "{c}");
    }
    assert_eq!(
        llm.calls_for("assumption_disclosure"),
        1,
        "a refusal is not retried"
    );
    assert_eq!(
        llm.calls_for("certainty_language"),
        2,
        "one retry, then LC-006"
    );

    let sarif: Value = serde_json::from_str(&stdout(&screening(&ws, &llm, "sarif"))).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    for (id, code) in [
        ("assumption_disclosure", "LC-005"),
        ("certainty_language", "LC-006"),
    ] {
        assert!(
            results
                .iter()
                .any(|x| x["ruleId"] == id && x["properties"]["code"] == code),
            "{id} {code} in {results:#?}"
        );
    }
    let xml = stdout(&screening(&ws, &llm, "junit"));
    assert!(xml.contains("[LC-005] "), "{xml}");
    assert!(xml.contains("[LC-006] "), "{xml}");
}

#[test]
fn openai_refusals_and_content_filters_are_lc005() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(
        Script::always(vec![Step::pass()])
            .check("assumption_disclosure", vec![Step::Refusal])
            .check("certainty_language", vec![Step::ContentFiltered]),
    );
    let o = ws
        .cmd()
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base_url))
        .env("OPENAI_API_KEY", KEY)
        .args([
            "check",
            "--provider",
            "openai",
            "--mode",
            "screening",
            "--format",
            "json",
            "nda_review.ai.md",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let r = json(&o);
    for id in ["assumption_disclosure", "certainty_language"] {
        let c = check(&r, id);
        assert_eq!(
            (c["result"].as_str(), c["code"].as_str()),
            (Some("indeterminate"), Some("LC-005")),
            "{c}"
        );
        assert_eq!(c["raw_runs"][0]["error"], "refused", "{c}");
    }
    assert_eq!(check(&r, "escalation_signal")["result"], "pass");
}

/// The built `byop lsp` over stdio: an evaluation whose answer is a refusal publishes the
/// check's diagnostic with the code LC-005.
#[tokio::test]
async fn the_language_server_publishes_lc005_on_a_refusal() {
    let llm = FakeLlm::start(
        Script::always(vec![Step::pass()]).check("assumption_disclosure", vec![Step::Refusal]),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    for name in ["nda_review.ai.md", "nda.txt", "nda_review.prompt.txt"] {
        std::fs::copy(support::workspace::examples().join(name), root.join(name)).unwrap();
    }
    let path = root.join("nda_review.ai.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = format!("file://{}", path.display());
    let c = client::LspClient::spawn(
        &[
            ("ANTHROPIC_BASE_URL", llm.base_url.clone()),
            ("ANTHROPIC_API_KEY", KEY.into()),
            ("BYOP_DB", root.join("byop.db").display().to_string()),
            ("BYOP_DATA_DIR", root.join("data").display().to_string()),
        ],
        &root,
    );
    c.initialize_at(&root).await;
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
    c.diagnostics_at(0, &uri, 1).await;
    let mark = c.len();
    let report = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening"}]}),
        )
        .await;
    assert_eq!(
        check(&report, "assumption_disclosure")["code"],
        "LC-005",
        "{report}"
    );
    let (_, published) = c
        .wait_for(mark, |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|d| d["code"] == "LC-005"))
        })
        .await;
    let d = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "LC-005")
        .unwrap()
        .clone();
    assert_eq!(d["data"]["check_id"], "assumption_disclosure", "{d}");
    assert!(d["message"].as_str().unwrap().contains("refused"), "{d}");
}
