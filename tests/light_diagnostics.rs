//! A dense document's diagnostics stay light (no precomputed fixes, related
//! information only for the other pieces of one quote), and the quick fixes are still
//! offered for them. No timing is asserted.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;

use client::LspClient;
use serde_json::{Value, json};

async fn session() -> (LspClient, tempfile::TempDir, std::path::PathBuf) {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_io);
    tokio::spawn(byop::lsp::serve(server_read, server_write));
    let (client_read, client_write) = tokio::io::split(client_io);
    let c = LspClient::over(client_read, client_write);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let init = json!({"processId": null, "rootUri": format!("file://{}", root.display()),
        "initializationOptions": {"onSave": "off", "db": root.join("byop.db")},
        "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": true}}}});
    c.request("initialize", init).await;
    c.notify("initialized", json!({})).await;
    (c, dir, root)
}

#[tokio::test]
async fn a_dense_document_publishes_under_400_bytes_per_diagnostic() {
    let (c, _dir, root) = session().await;
    let mut text = String::from("# Review\n\n");
    while text.len() < 100_000 {
        text.push_str("The clause is enforceable. The policy is compliant. It is legal.\n");
    }
    let uri = format!("file://{}/dense.ai.md", root.display());
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(0, &uri, 1).await;
    assert!(
        diags.len() > 1000,
        "a dense document: {} findings",
        diags.len()
    );
    let bytes = serde_json::to_vec(&diags).unwrap().len();
    let average = bytes / diags.len();
    eprintln!(
        "{} diagnostics, {bytes} bytes, {average} bytes each",
        diags.len()
    );
    assert!(
        average < 400,
        "{average} bytes per diagnostic: {:#}",
        diags[5]
    );
    for d in &diags {
        assert!(
            d["data"].get("fixes").is_none(),
            "fixes are computed on request"
        );
        assert!(
            d.get("relatedInformation").is_none_or(Value::is_null),
            "a single-piece quote has no related information: {d:#}"
        );
    }

    // The fix is computed when asked, for the diagnostic the editor sends back.
    let certainty = diags
        .iter()
        .find(|d| d["code"] == "certainty_language")
        .expect("a certainty finding");
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": certainty["range"],
                   "context": {"diagnostics": [certainty]}}),
        )
        .await;
    let actions = actions.as_array().cloned().unwrap_or_default();
    assert!(
        actions
            .iter()
            .any(|a| a["kind"] == "quickfix" && a["edit"]["changes"].is_object()),
        "{actions:#?}"
    );
}
