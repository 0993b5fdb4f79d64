//! Traces over OTLP/HTTP: a local receiver decodes the protobuf the CLI
//! exports and checks the span tree, the attributes, the headers, and that neither the
//! key nor the document text is in it.

mod support;

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;

#[path = "support/otlp.rs"]
mod otlp_receiver;

use opentelemetry_proto::tonic::trace::v1::Span;
use otlp_receiver::{Receiver, attr, children, root};
use serde_json::Value;
use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{KEY, Ws, json, stderr};

const DOC: &str = "nda_review.ai.md";
/// A sentence of the document body: never in a trace unless include_text.
const BODY_TEXT: &str = "NDA Review: Northwind Lattice";

#[test]
fn a_screening_check_exports_one_trace_with_the_span_tree_and_no_secrets() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let receiver = Receiver::start();
    let o = ws
        .with_llm(&llm)
        .env(
            "OTEL_EXPORTER_OTLP_HEADERS",
            "Authorization=Bearer otlp-token,Comet-Workspace=my-ws,projectName=byop-test",
        )
        .args([
            "check",
            "--mode",
            "screening",
            "--format",
            "json",
            "--fail-on",
            "never",
        ])
        .args(["--otlp-endpoint", &receiver.base_url, DOC])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json(&o);
    let r = &report["byop_report"];
    let spans = receiver.spans();
    let root = root(&spans);
    assert_eq!(root.name, "check");
    assert_eq!(
        attr(root, "byop.playbook.hash").unwrap(),
        r["integrity"]["playbook_logic_hash"]
    );
    assert_eq!(
        attr(root, "byop.inputs.fingerprint").unwrap(),
        r["integrity"]["inputs_fingerprint"]
    );
    assert_eq!(attr(root, "byop.request_id").unwrap(), r["request_id"]);
    assert_eq!(
        attr(root, "byop.status").unwrap(),
        r["summary"]["overall_status"]
    );
    assert_eq!(attr(root, "byop.mode").unwrap(), "screening");
    assert!(attr(root, "byop.input.preview").is_none());

    let top: Vec<&str> = children(&spans, root)
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(top[..2], ["extract", "validate"], "{top:?}");
    let evaluates: Vec<&Span> = children(&spans, root)
        .into_iter()
        .filter(|s| s.name == "evaluate")
        .collect();
    // One `evaluate` per check that called the evaluator, each with its attempts.
    let called: std::collections::BTreeSet<String> =
        llm.requests().iter().filter_map(|q| q.check_id()).collect();
    let traced: std::collections::BTreeSet<String> = evaluates
        .iter()
        .map(|s| {
            attr(s, "byop.check.id")
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(traced, called);
    let llm_spans: Vec<&Span> = evaluates.iter().flat_map(|e| children(&spans, e)).collect();
    assert_eq!(llm_spans.len(), llm.calls(), "one llm span per attempt");
    for s in &llm_spans {
        assert_eq!(s.name, "llm");
        assert_eq!(attr(s, "gen_ai.system").unwrap(), "anthropic");
        assert_eq!(attr(s, "http.response.status_code").unwrap(), 200);
        assert_eq!(attr(s, "byop.llm.cached").unwrap(), false);
        assert_eq!(attr(s, "byop.llm.outcome").unwrap(), "ok");
        assert_eq!(attr(s, "gen_ai.usage.input_tokens").unwrap(), 10);
    }
    for e in &evaluates {
        let id = attr(e, "byop.check.id").unwrap();
        let result = r["check_results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check_id"] == id)
            .unwrap()["result"]
            .clone();
        assert_eq!(attr(e, "byop.check.result").unwrap(), result);
    }
    let raw = String::from_utf8_lossy(&receiver.raw()).into_owned();
    assert!(!raw.contains(KEY), "never the key");
    assert!(!raw.contains(BODY_TEXT), "never the document text");
    let got = receiver.got.lock().unwrap();
    assert!(
        got.paths.iter().all(|p| p == "/v1/traces"),
        "{:?}",
        got.paths
    );
    let h = &got.headers[0];
    assert_eq!(
        h.get("authorization").map(String::as_str),
        Some("Bearer otlp-token")
    );
    assert_eq!(h.get("comet-workspace").map(String::as_str), Some("my-ws"));
    assert_eq!(h.get("projectname").map(String::as_str), Some("byop-test"));
    assert_eq!(
        h.get("content-type").map(String::as_str),
        Some("application/x-protobuf")
    );
}

#[test]
fn only_the_user_puts_text_in_traces_and_chooses_where_they_go() {
    let ws = Ws::new();
    let receiver = Receiver::start();
    let run = |env: &[(&str, String)]| {
        let mut c = ws.cmd();
        for (k, v) in env {
            c.env(k, v);
        }
        let args = [
            "check",
            "--mode",
            "deterministic",
            "--fail-on",
            "never",
            DOC,
        ];
        let o = c.args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        o
    };
    // A workspace endpoint with include_text: nothing is sent, and the notices say why.
    ws.write(
        "byop.toml",
        &format!(
            "[telemetry]\nendpoint = \"{}\"\ninclude_text = true\n",
            receiver.base_url
        ),
    );
    let o = run(&[]);
    assert!(
        stderr(&o).contains("only you choose where traces go"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("ignored telemetry.include_text"),
        "{}",
        stderr(&o)
    );
    assert!(
        receiver.spans().is_empty(),
        "nothing went to the workspace's endpoint"
    );
    // The user's own endpoint (the same one): traces, but the workspace's include_text
    // does not put text in them.
    let endpoint = (
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        format!("{}/", receiver.base_url),
    );
    run(std::slice::from_ref(&endpoint));
    let spans = receiver.spans();
    assert_eq!(root(&spans).name, "check");
    assert!(attr(root(&spans), "byop.input.preview").is_none());
    // The user asks for the preview.
    let receiver2 = Receiver::start();
    ws.write("byop.toml", "");
    run(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver2.base_url.clone()),
        ("BYOP_OTLP_INCLUDE_TEXT", "1".into()),
    ]);
    let spans = receiver2.spans();
    let root = root(&spans);
    let preview = attr(root, "byop.input.preview").unwrap();
    let preview = preview.as_str().unwrap();
    assert!(preview.starts_with(&format!("# {BODY_TEXT}")), "{preview}");
    assert_eq!(preview.chars().count(), 200);
    // Deterministic: no evaluator, so no evaluate or llm spans.
    assert!(
        spans
            .iter()
            .all(|s| s.name != "llm" && s.name != "evaluate")
    );
}

#[test]
fn a_repair_exports_check_validate_repair_llm_validate() {
    let ws = Ws::new();
    let section = "## Not checked / missing information\n\n- The governing law was not reviewed.";
    let llm = FakeLlm::start_blocking(
        Script::default().check("repair", vec![Step::repaired_appending(section)]),
    );
    let receiver = Receiver::start();
    let o = ws
        .with_llm(&llm)
        .args([
            "repair",
            "--format",
            "json",
            "--otlp-endpoint",
            &receiver.base_url,
            DOC,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json(&o);
    let spans = receiver.spans();
    let root = root(&spans);
    assert_eq!(
        attr(root, "byop.request_id").unwrap(),
        report["byop_report"]["request_id"]
    );
    assert_eq!(attr(root, "byop.repair.status").unwrap(), "repaired");
    let top = children(&spans, root);
    let names: Vec<&str> = top.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["extract", "validate", "repair", "validate"]);
    let (before, repair, after) = (top[1], top[2], top[3]);
    assert_eq!(attr(before, "byop.validation.status").unwrap(), "fail");
    assert_eq!(
        attr(before, "byop.validation.failed_checks").unwrap(),
        "unchecked_areas_disclosure"
    );
    assert_eq!(attr(after, "byop.validation.status").unwrap(), "pass");
    assert_eq!(attr(after, "byop.validation.errors").unwrap(), 0);
    let calls = children(&spans, repair);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "llm");
    assert_eq!(attr(calls[0], "byop.check.id").unwrap(), "repair");
    assert!(after.start_time_unix_nano >= repair.start_time_unix_nano);
    let raw = String::from_utf8_lossy(&receiver.raw()).into_owned();
    assert!(!raw.contains(KEY));
    assert!(!raw.contains("The governing law was not reviewed."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_server_exports_a_trace_per_evaluation_and_flushes_at_exit() {
    let llm = FakeLlm::start(Script::always(vec![Step::pass()])).await;
    let receiver = Receiver::start();
    let dir = tempfile::tempdir().unwrap();
    let ws_root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(ws_root.join(".git")).unwrap();
    let data = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(support::workspace::examples().join(DOC)).unwrap();
    let body = text.splitn(3, "---\n").nth(2).unwrap().to_string();
    let c = client::LspClient::spawn(
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.base_url.clone()),
            ("ANTHROPIC_API_KEY", KEY.to_string()),
            ("ANTHROPIC_BASE_URL", llm.base_url.clone()),
            ("BYOP_DB", ws_root.join("state.db").display().to_string()),
            ("BYOP_DATA_DIR", data.path().display().to_string()),
        ],
        &ws_root,
    );
    let uri = format!("file://{}", ws_root.join("memo.ai.md").display());
    c.request(
        "initialize",
        serde_json::json!({"processId": null, "rootUri": format!("file://{}", ws_root.display()),
            "initializationOptions": {"onSave": "off"}, "capabilities": {}}),
    )
    .await;
    c.notify("initialized", serde_json::json!({})).await;
    c.notify(
        "textDocument/didOpen",
        serde_json::json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": body}}),
    )
    .await;
    let report = c
        .request(
            "workspace/executeCommand",
            serde_json::json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening"}]}),
        )
        .await;
    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
    let mut child = c.child.unwrap();
    let status = tokio::time::timeout(client::TIMEOUT, child.wait())
        .await
        .expect("server exits")
        .unwrap();
    assert!(status.success());
    let spans = receiver.spans();
    let root_span = root(&spans);
    assert_eq!(
        attr(root_span, "byop.request_id").unwrap(),
        report["byop_report"]["request_id"]
    );
    assert_eq!(attr(root_span, "byop.mode").unwrap(), "screening");
    let llm_spans = spans.iter().filter(|s| s.name == "llm").count();
    assert_eq!(llm_spans, llm.calls());
    assert!(llm_spans > 0);
    let raw = String::from_utf8_lossy(&receiver.raw()).into_owned();
    assert!(!raw.contains(KEY));
    assert!(!raw.contains(BODY_TEXT));
}

#[test]
fn an_endpoint_that_is_not_an_http_url_is_a_usage_error() {
    let ws = Ws::new();
    for bad in ["not a url", "ftp://collector:4318"] {
        let o = ws.run(&[
            "check",
            "--mode",
            "deterministic",
            "--otlp-endpoint",
            bad,
            DOC,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("must be an http:// or https:// URL"),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
    }
}
