//! The JSON Schemas published in `schemas/` describe what the program really writes and
//! reads: reports and counterfactual audits from the built binary validate against them,
//! so do the built-in playbooks, the README's `byop.toml` and an evidence set the
//! evidence contract accepts; what the program rejects, the schemas reject too.
//! `byop playbook validate` reports the playbook schema's own messages.

mod support;

use std::path::Path;

use serde_json::{Value, json};

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, json as stdout_json, stderr, stdout};

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let value: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft7::new(&value).unwrap_or_else(|e| panic!("{name} is not a schema: {e}"))
}

fn assert_valid(v: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path().as_str()))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn reports_from_the_binary_validate_against_the_report_schema() {
    let v = schema("report.schema.json");
    let ws = Ws::new();
    let o = ws.run(&["check", "--format", "json", "nda_review.ai.md"]);
    assert_valid(&v, &stdout_json(&o), "deterministic report");
    let o = ws.run(&[
        "check",
        "--format",
        "json",
        "--playbook",
        "evidence_contract_v1",
        "msa_review.ai.md",
    ]);
    let evidence = stdout_json(&o);
    assert_valid(&v, &evidence, "evidence contract report");
    // Grounding counts are fields with a published shape; a reason outside the list is not.
    let grounding = evidence["byop_report"]["check_results"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["grounding"].is_object())
        .expect("a grounding check reports its counts");
    let mut bad = evidence.clone();
    bad["byop_report"]["check_results"][grounding]["grounding"]["set_aside_by_reason"]["looked_tired"] =
        1.into();
    assert!(!v.is_valid(&bad));
    // A full-mode report with evaluator runs.
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let o = ws.run_llm(&llm, "check --mode full --format json nda_review.ai.md");
    let report = stdout_json(&o);
    assert!(report["byop_report"]["check_results"][0]["raw_runs"].is_array());
    assert_valid(&v, &report, "full-mode report");
    // The schema holds the contract: a wrong status or a lost disclaimer is caught.
    let mut bad = report.clone();
    bad["byop_report"]["summary"]["overall_status"] = "FINE".into();
    assert!(!v.is_valid(&bad));
    let mut bad = report;
    bad["byop_report"]["presentation_rules"]["disclaimers"][1] = "Pass = safe.".into();
    assert!(!v.is_valid(&bad));
    // A repair's record: its status and both validations' statuses are the schema's words.
    let llm = FakeLlm::start_blocking(
        Script::default().check("repair", vec![Step::repaired_appending("Nothing to add.")]),
    );
    let o = ws
        .with_llm(&llm)
        .args(["repair", "--format", "json", "nda_review.ai.md"])
        .output()
        .unwrap();
    let repaired = stdout_json(&o);
    assert_eq!(repaired["byop_report"]["repair"]["after"]["status"], "fail");
    assert_valid(&v, &repaired, "repair report");
    let mut bad = repaired;
    bad["byop_report"]["repair"]["before"]["status"] = "failed".into();
    assert!(!v.is_valid(&bad));
}

#[test]
fn a_counterfactual_audit_and_its_trials_validate_against_their_schema() {
    let v = schema("counterfactual.schema.json");
    let ws = Ws::new();
    ws.audit_inputs(
        "I am {{cue:author}}. Please review this NDA.",
        r#"{"include_builtin": false, "cues": [{"name": "seniority", "slot": "author", "control": "a junior associate", "treatment": ["a senior partner"]}]}"#,
    );
    let llm = FakeLlm::start_blocking(Script::always(vec![
        Step::pass(),
        Step::fail_first_sentence(),
    ]));
    let args = "counterfactual audit.ai.md --cues cues.json --checks certainty_language --pairs 4";
    let o = ws.run_llm(&llm, &format!("{args} --format json"));
    let audit = stdout_json(&o);
    assert_eq!(
        audit["byop_counterfactual"]["trials"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert_valid(&v, &audit, "counterfactual result");
    // Each JSON line is a trial as the schema defines it.
    let o = ws.run_llm(&llm, &format!("{args} --format jsonl"));
    let trial_schema = json!({
        "$ref": "#/definitions/trial",
        "definitions": serde_json::from_str::<Value>(
            &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/counterfactual.schema.json")).unwrap()
        ).unwrap()["definitions"].clone()
    });
    let trial = jsonschema::draft7::new(&trial_schema).unwrap();
    let lines = stdout(&o);
    assert_eq!(lines.lines().count(), 8, "{}", stderr(&o));
    for line in lines.lines() {
        assert_valid(&trial, &serde_json::from_str(line).unwrap(), line);
    }
}

#[test]
fn the_built_in_playbooks_conform_and_validate_gives_the_schema_messages() {
    let v = schema("playbook.schema.json");
    for f in [
        "ai_plugin_observability_v1",
        "evidence_contract_v1",
        "planproof_v1",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("playbooks/{f}.json"));
        let pb: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_valid(&v, &pb, f);
    }
    let ws = Ws::new();
    ws.write(
        "bad.playbook.json",
        "{\n  \"id\": \"x\",\n  \"version\": \"1\",\n  \"checks\": [\n    {\"id\": \"a\", \"severity\": \"urgent\", \"question\": \"q\",\n     \"detection_method\": {\"type\": \"semantic\"}}\n  ]\n}\n",
    );
    let o = ws.run(&["playbook", "validate", "bad.playbook.json"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    // Both objections, each where it is, in the validator's words.
    assert!(
        err.contains("bad.playbook.json:5:29: \"urgent\" is not one of"),
        "{err}"
    );
    assert!(err.contains("(at /checks/0/severity)"), "{err}");
    assert!(
        err.contains("\"instructions\" is a required property (at /checks/0/detection_method)"),
        "{err}"
    );
    let ok = ws.run(&["playbook", "validate", "nda_review.ai.md"]);
    assert_eq!(ok.status.code(), Some(2), "not a playbook");
}

#[test]
fn the_readme_configuration_conforms_and_unknown_keys_are_refused_by_both() {
    let v = schema("byop-toml.schema.json");
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = &readme[readme.find("## Configuration").unwrap()..];
    let start = section.find("```toml\n").unwrap() + 8;
    let toml_text = &section[start..start + section[start..].find("```").unwrap()];
    let config: Value = toml::from_str(toml_text).unwrap();
    assert_valid(&v, &config, "README byop.toml");
    // A key byop does not know: the schema says so, and byop refuses the file.
    let ws = Ws::new();
    ws.write("byop.toml", "[evaluator]\nconcurency = 4\n");
    let o = ws.run(&["check", "nda_review.ai.md"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let bad: Value = toml::from_str("[evaluator]\nconcurency = 4\n").unwrap();
    assert!(!v.is_valid(&bad));
    // The VS Code extension ships the same files.
    for f in ["playbook.schema.json", "byop-toml.schema.json"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            std::fs::read(root.join("schemas").join(f)).unwrap(),
            std::fs::read(root.join("editors/vscode/schemas").join(f)).unwrap(),
            "editors/vscode/schemas/{f} is a copy of schemas/{f}"
        );
    }
    let pkg: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode/package.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let jv = &pkg["contributes"]["jsonValidation"][0];
    assert_eq!(jv["url"], "./schemas/playbook.schema.json");
    let globs: Vec<&str> = jv["fileMatch"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert!(globs.contains(&"*.playbook.json") && globs.contains(&"playbooks/*.json"));
}

#[test]
fn an_evidence_set_the_contract_accepts_conforms_and_extra_fields_do_not() {
    let v = schema("evidence_set.schema.json");
    let set = json!({
        "source_origin": "OFFICIAL",
        "items": [
            {"type": "STATUTE", "ref": "USC:15 U.S.C. § 1681", "title": "Fair Credit Reporting Act", "effective_date": "1970-10-26"},
            {"type": "CASE", "ref": "CASE:Smith v. Jones", "effective_date": "2019-05-01", "status": "IN_FORCE"}
        ],
        "missing": false,
        "evidence_hash": "0".repeat(64),
        "retrieved_at": "2025-12-31T10:00:00Z",
        "ttl_seconds": 600
    });
    assert_valid(&v, &set, "evidence set");
    for (field, value) in [
        ("note", json!("x")),
        ("ttl_seconds", json!(-1)),
        ("missing", json!("no")),
        ("evidence_hash", json!("xyz")),
    ] {
        let mut bad = set.clone();
        bad[field] = value;
        assert!(!v.is_valid(&bad), "{field}");
    }
    let mut bad = set;
    bad["items"][0]["type"] = "OPINION".into();
    assert!(!v.is_valid(&bad));
}
