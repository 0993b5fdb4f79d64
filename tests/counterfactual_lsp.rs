//! `byop.counterfactual` in the language server, in process, against the
//! local fake evaluator: the audit and its HTML, work-done progress, cancellation, and
//! the budget refused before any call.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
#[path = "support/fake_llm.rs"]
mod fake_llm;

use std::path::{Path, PathBuf};

use client::LspClient;
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{Value, json};

const MEMO: &str = "Prepared by {{cue:author}}.\n\n# Review of the supplier agreement\n\nThe agreement is compliant with the data protection rules. The supplier must notify breaches within 72 hours.\n";

struct Session {
    c: LspClient,
    root: PathBuf,
    _dir: tempfile::TempDir,
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Session {
    async fn start(llm: &FakeLlm) -> Session {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_io);
        tokio::spawn(byop::lsp::serve(server_read, server_write));
        let (client_read, client_write) = tokio::io::split(client_io);
        let c = LspClient::over(client_read, client_write);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        let init = json!({"processId": null, "rootUri": uri_of(&root),
            "initializationOptions": {"onSave": "off", "baseUrl": llm.base_url, "db": "state.db"},
            "capabilities": {"window": {"workDoneProgress": true}}});
        let caps = c.request("initialize", init).await;
        let commands = caps["capabilities"]["executeCommandProvider"]["commands"].to_string();
        assert!(commands.contains("\"byop.counterfactual\""), "{commands}");
        c.notify("initialized", json!({})).await;
        c.request(
            "workspace/executeCommand",
            json!({"command": "byop.setApiKey", "arguments": [{"provider": "anthropic", "key": "sk-ant-test"}]}),
        )
        .await;
        let uri = uri_of(&root.join("memo.ai.md"));
        let from = c.len();
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": MEMO}}),
        )
        .await;
        c.diagnostics_at(from, &uri, 1).await;
        Session { c, root, _dir: dir }
    }

    fn uri(&self) -> String {
        uri_of(&self.root.join("memo.ai.md"))
    }

    async fn audit(&self, extra: Value) -> Value {
        let mut args = json!({"uri": self.uri(), "checks": ["certainty_language"], "pairs": 6});
        for (k, v) in extra.as_object().unwrap() {
            args[k] = v.clone();
        }
        self.c
            .request_raw(
                "workspace/executeCommand",
                json!({"command": "byop.counterfactual", "arguments": [args]}),
            )
            .await
    }
}

#[tokio::test]
async fn the_command_returns_the_audit_and_its_html_with_progress() {
    let llm = FakeLlm::start(
        Script::always(vec![Step::pass()])
            .when(
                Some("certainty_language"),
                "a senior partner",
                vec![Step::fail_first_sentence()],
            )
            .latency_ms(50),
    )
    .await;
    let s = Session::start(&llm).await;
    let from = s.c.len();
    let reply = s.audit(json!({})).await;
    let a = &reply["result"]["byop_counterfactual"];
    assert!(a.is_object(), "{reply}");
    let row = a["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["cue"] == "author_seniority")
        .unwrap();
    // Six pairs, each control passing and each senior-partner treatment failing:
    // exact two-sided p = 2 · 0.5^6 = 0.03125.
    assert_eq!((row["b"].as_u64(), row["c"].as_u64()), (Some(6), Some(0)));
    assert!((row["mcnemar_exact_p"].as_f64().unwrap() - 0.03125).abs() < 1e-12);
    assert_eq!(row["significant"], true);
    assert_eq!(a["design"]["slot_sources"], json!(["document"]));
    // The built-in cues without a slot in this memo are named, not audited.
    let warnings = a["warnings"].to_string();
    assert!(warnings.contains("not audited"), "{warnings}");
    let html = reply["result"]["html"].as_str().unwrap();
    assert!(html.contains("<svg class=\"forest\""));
    assert!(html.contains("This is an observability report, not legal advice."));
    assert_eq!(llm.calls(), 12, "6 pairs × (control + treatment)");
    assert!(
        llm.max_in_flight() >= 2,
        "the calls overlap: {}",
        llm.max_in_flight()
    );
    let msgs = s.c.messages();
    let progress: Vec<&Value> = msgs[from..]
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .collect();
    assert!(
        progress
            .iter()
            .any(|m| m["params"]["value"]["title"] == "byop: counterfactual audit"),
        "{progress:?}"
    );
    assert!(
        progress
            .iter()
            .any(|m| m["params"]["value"]["kind"] == "end")
    );
}

#[tokio::test]
async fn the_budget_is_refused_before_any_call() {
    let llm = FakeLlm::start(Script::always(vec![Step::pass()])).await;
    let s = Session::start(&llm).await;
    let reply = s.audit(json!({"maxCalls": 3})).await;
    let msg = reply["error"]["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("needs 12 evaluator call(s)") && msg.contains("budget of 3"),
        "{reply}"
    );
    assert_eq!(llm.calls(), 0);
}

#[tokio::test]
async fn cancelling_the_progress_stops_the_audit() {
    let llm = FakeLlm::start(Script::always(vec![Step::pass()]).latency_ms(300)).await;
    let s = Session::start(&llm).await;
    let mark = s.c.len();
    let pending = s
        .c
        .send_request(
            "workspace/executeCommand",
            json!({"command": "byop.counterfactual", "arguments": [{"uri": s.uri(), "checks": ["certainty_language"], "pairs": 40, "fresh": true}]}),
        )
        .await;
    let (_, create) =
        s.c.wait_for(mark, |m| m["method"] == "window/workDoneProgress/create")
            .await;
    s.c.notify(
        "window/workDoneProgress/cancel",
        json!({"token": create["params"]["token"]}),
    )
    .await;
    let response = tokio::time::timeout(client::TIMEOUT, pending)
        .await
        .unwrap()
        .unwrap();
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("cancelled"),
        "{response}"
    );
    assert!(llm.calls() < 80, "not every call was made: {}", llm.calls());
}
