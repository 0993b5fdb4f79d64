//! PlanProof in the language server: a plan document gets the plan checks' diagnostics
//! (on open, no evaluator; `code` is the rule's stable code, `PLAN-…`) and the exported
//! report carries the seed's `validation`.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;

use std::path::Path;

use client::{LspClient, range_text};
use serde_json::{Value, json};

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn example(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/planproof")
            .join(rel),
    )
    .unwrap()
}

#[tokio::test]
async fn a_failing_plan_gets_diagnostics_and_its_validation_is_exported() {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_io);
    tokio::spawn(byop::lsp::serve(server_read, server_write));
    let (client_read, client_write) = tokio::io::split(client_io);
    let c = LspClient::over(client_read, client_write);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("scenarios")).unwrap();
    std::fs::create_dir_all(root.join("variants/v1_naive")).unwrap();
    std::fs::write(
        root.join("scenarios/school_pickup.md"),
        example("scenarios/school_pickup.md"),
    )
    .unwrap();
    let text = example("variants/v1_naive/school_pickup.md");
    // An editor on a reviewer's machine, where the plan's front matter picks its playbook;
    // a CI runner's `CI=true` (inherited by this in-process server) would lock it.
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": format!("file://{}", root.display()),
               "initializationOptions": {"onSave": "off", "locked": false},
               "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": true}}}}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    let uri = uri_of(&root.join("variants/v1_naive/school_pickup.md"));
    let from = c.len();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
    let diags: Vec<Value> = c.diagnostics_at(from, &uri, 1).await.1;
    let find = |code: &str| {
        diags
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {diags:#?}"))
            .clone()
    };
    let time = find("PLAN-TIME");
    assert!(
        time["message"].as_str().unwrap().contains(
            "Planned 330 minutes of work but only 285 minutes available after 3 PM cutoff"
        ),
        "{time}"
    );
    let g = find("PLAN-GROUNDING");
    assert_eq!(
        range_text(&text, &g["range"]),
        Some("Sync with Marcus on the offsite agenda")
    );
    let exported = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.exportReport", "arguments": [{"uri": uri}]}),
        )
        .await;
    let v = &exported["byop_report"]["validation"];
    assert_eq!(v["status"], "fail", "{exported}");
    assert_eq!(v["metrics"]["time_overflow_minutes"], 45);
}
