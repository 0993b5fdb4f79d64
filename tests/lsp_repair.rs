//! The "Repair with the evaluator" code action and the `byop.repair` command,
//! in process, against the local fake evaluator.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
#[path = "support/fake_llm.rs"]
mod fake_llm;

use std::path::PathBuf;

use client::{LspClient, apply_edits};
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{Value, json};

const MEMO: &str = "# Review of the supplier agreement\n\nThe agreement is compliant with the data protection rules. The supplier must notify breaches within 72 hours.\n\nThe indemnity clause caps liability at the fees paid in the preceding twelve months, which is a common market position for services of this kind. The termination clause allows either party to end the contract on ninety days notice, and the confidentiality obligations survive termination for five years.\n";
const SECTION: &str =
    "## Not checked / missing information\n\n- The data processing annex was not provided.";
const CHECK: &str = "unchecked_areas_disclosure";

struct Session {
    c: LspClient,
    root: PathBuf,
    _dir: tempfile::TempDir,
}

impl Session {
    /// A server with the fake evaluator's URL, and a key when `key`.
    async fn start(llm: &FakeLlm, key: bool) -> Session {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_io);
        tokio::spawn(byop::lsp::serve(server_read, server_write));
        let (client_read, client_write) = tokio::io::split(client_io);
        let c = LspClient::over(client_read, client_write);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        let caps = json!({"textDocument": {"publishDiagnostics": {"versionSupport": true}},
                          "workspace": {"workspaceEdit": {"documentChanges": true,
                              "changeAnnotationSupport": {"groupsOnLabel": true}}}});
        let init = json!({"processId": null, "rootUri": format!("file://{}", root.display()),
            "initializationOptions": {"onSave": "off", "baseUrl": llm.base_url,
                                      "db": root.join("state.db")},
            "capabilities": caps});
        c.request("initialize", init).await;
        c.notify("initialized", json!({})).await;
        if key {
            c.request("workspace/executeCommand",
                json!({"command": "byop.setApiKey", "arguments": [{"provider": "anthropic", "key": "sk-ant-lsp-test"}]}))
                .await;
        }
        Session { c, root, _dir: dir }
    }

    fn uri(&self) -> String {
        format!("file://{}", self.root.join("memo.ai.md").display())
    }

    /// Open the memo; the diagnostic of the failing deterministic check.
    async fn open(&self) -> Value {
        let from = self.c.len();
        self.c
            .notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": self.uri(), "languageId": "markdown", "version": 1, "text": MEMO}}),
            )
            .await;
        let diags = self.c.diagnostics_at(from, &self.uri(), 1).await.1;
        diags
            .iter()
            .find(|d| d["code"] == CHECK)
            .unwrap_or_else(|| panic!("no {CHECK} diagnostic in {diags:#?}"))
            .clone()
    }

    async fn actions(&self, d: &Value) -> Vec<Value> {
        let a = self
            .c
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": self.uri()}, "range": d["range"],
                       "context": {"diagnostics": [d], "only": ["quickfix"]}}),
            )
            .await;
        a.as_array().cloned().unwrap_or_default()
    }

    async fn repair(&self) -> Value {
        self.c
            .request(
                "workspace/executeCommand",
                json!({"command": "byop.repair", "arguments": [{"uri": self.uri()}]}),
            )
            .await
    }

    fn apply_edit_requests(&self) -> Vec<Value> {
        self.c
            .messages()
            .into_iter()
            .filter(|m| m["method"] == "workspace/applyEdit")
            .collect()
    }
}

fn script(step: Step) -> Script {
    Script::default().check("repair", vec![step])
}

#[tokio::test]
async fn the_action_runs_the_command_whose_passing_repair_is_a_confirmed_edit() {
    let llm = FakeLlm::start(script(Step::repaired_appending(SECTION))).await;
    let s = Session::start(&llm, true).await;
    let d = s.open().await;
    let actions = s.actions(&d).await;
    let repair = actions
        .iter()
        .find(|a| a["title"] == "Repair with the evaluator")
        .unwrap_or_else(|| panic!("no repair action in {actions:#?}"));
    assert_eq!(repair["kind"], "quickfix");
    assert_eq!(repair["command"]["command"], "byop.repair");
    assert_eq!(repair["command"]["arguments"][0]["uri"], s.uri());
    assert_eq!(llm.calls(), 0, "offering the action calls nobody");

    let reply = s.repair().await;
    assert_eq!(reply["status"], "repaired", "{reply}");
    assert_eq!(reply["before"]["errors"][0]["check_id"], CHECK);
    assert_eq!(reply["after"]["status"], "pass");
    let edit = &reply["edit"];
    let doc_edit = &edit["documentChanges"][0];
    assert_eq!(doc_edit["textDocument"]["version"], 1);
    let text_edit = &doc_edit["edits"][0];
    assert_eq!(text_edit["annotationId"], "byop.repair");
    assert_eq!(
        edit["changeAnnotations"]["byop.repair"]["needsConfirmation"],
        true
    );
    let repaired = apply_edits(MEMO, std::slice::from_ref(text_edit));
    assert!(repaired.starts_with(MEMO.trim_end()), "{repaired}");
    assert!(
        repaired.trim_end().ends_with("was not provided."),
        "{repaired}"
    );
    // The server asked the client to apply it (with the preview annotation).
    let asked = s.apply_edit_requests();
    assert_eq!(asked.len(), 1);
    assert_eq!(&asked[0]["params"]["edit"], edit);
    assert_eq!(llm.calls_for("repair"), 1);
}

#[tokio::test]
async fn a_rejected_repair_offers_no_edit_and_says_what_still_fails() {
    let llm = FakeLlm::start(script(Step::repaired_appending("All good."))).await;
    let s = Session::start(&llm, true).await;
    s.open().await;
    let reply = s.repair().await;
    assert_eq!(reply["status"], "rejected", "{reply}");
    assert!(reply["edit"].is_null());
    assert_eq!(reply["after"]["errors"][0]["check_id"], CHECK);
    assert!(s.apply_edit_requests().is_empty());
    assert_eq!(llm.calls_for("repair"), 1, "exactly one attempt");
}

#[tokio::test]
async fn without_an_evaluator_the_action_is_not_offered() {
    let llm = FakeLlm::start(script(Step::repaired_appending(SECTION))).await;
    let s = Session::start(&llm, false).await;
    let d = s.open().await;
    let actions = s.actions(&d).await;
    assert!(
        actions
            .iter()
            .all(|a| a["title"] != "Repair with the evaluator"),
        "{actions:#?}"
    );
}

fn planproof_example(rel: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/planproof")
            .join(rel),
    )
    .unwrap()
}

/// The built `byop lsp`, over stdio: a check with a stable code (`PLAN-TIME`) publishes
/// that code, and the repair action still finds its check through `data.check_id`.
#[tokio::test]
async fn repair_is_offered_on_a_coded_check_over_the_real_protocol() {
    let llm = FakeLlm::start(script(Step::repaired_appending(SECTION))).await;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("scenarios")).unwrap();
    std::fs::create_dir_all(root.join("variants/v1_naive")).unwrap();
    std::fs::write(
        root.join("scenarios/school_pickup.md"),
        planproof_example("scenarios/school_pickup.md"),
    )
    .unwrap();
    let text = planproof_example("variants/v1_naive/school_pickup.md");
    let c = LspClient::spawn(
        &[
            ("ANTHROPIC_BASE_URL", llm.base_url.clone()),
            ("ANTHROPIC_API_KEY", "sk-ant-lsp-test".into()),
            ("BYOP_DB", root.join("state.db").display().to_string()),
        ],
        &root,
    );
    c.initialize_at(&root).await;
    let uri = format!(
        "file://{}",
        root.join("variants/v1_naive/school_pickup.md").display()
    );
    let from = c.len();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
    let diags = c.diagnostics_at(from, &uri, 1).await.1;
    let d = diags
        .iter()
        .find(|d| d["code"] == "PLAN-TIME")
        .unwrap_or_else(|| panic!("no PLAN-TIME diagnostic in {diags:#?}"))
        .clone();
    let check_id = d["data"]["check_id"].as_str().unwrap();
    assert_ne!(check_id, "PLAN-TIME", "the code is not the check id: {d}");
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": d["range"],
                   "context": {"diagnostics": [d], "only": ["quickfix"]}}),
        )
        .await;
    let actions = actions.as_array().cloned().unwrap_or_default();
    let repair = actions
        .iter()
        .find(|a| a["title"] == "Repair with the evaluator")
        .unwrap_or_else(|| panic!("no repair action on PLAN-TIME in {actions:#?}"));
    assert_eq!(repair["command"]["command"], "byop.repair");
    assert_eq!(repair["diagnostics"][0]["code"], "PLAN-TIME");
    assert_eq!(llm.calls(), 0, "offering the action calls nobody");
}
