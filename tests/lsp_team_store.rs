//! The language server on a team store whose server goes away and comes back: a real
//! PostgreSQL the test starts, stops and starts again, and `byop lsp` spoken to over
//! its protocol. While the server is down the editor keeps its diagnostics and its
//! evaluations, is told once, and what it evaluated is written to the server when it
//! answers again.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
#[path = "support/pg.rs"]
mod pg;

use std::path::Path;
use std::time::Duration;

use client::LspClient;
use serde_json::{Value, json};

const TEAM_KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const MEMO: &str = "---\ntitle: supplier memo\n---\n# Review of the supplier agreement\n\nThe agreement is compliant with the data protection rules. The supplier must notify breaches within 72 hours.\n";

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Evaluate the open document (deterministic checks: no evaluator needed); its report id.
async fn evaluate(c: &LspClient, uri: &str) -> String {
    let r = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "deterministic"}]}),
        )
        .await;
    r["byop_report"]["report_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no report: {r}"))
        .to_string()
}

/// Change the document to `text` at `version` and wait for its diagnostics.
async fn change(c: &LspClient, uri: &str, text: &str, version: i64) -> Vec<Value> {
    let from = c.len();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    )
    .await;
    c.diagnostics_at(from, uri, version).await.1
}

fn shown(c: &LspClient) -> Vec<String> {
    c.messages()
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .map(|m| m["params"]["message"].as_str().unwrap_or("").to_string())
        .collect()
}

fn on_server(server: &pg::PgServer, db: &str, id: &str) -> bool {
    server.psql(
        db,
        &format!("SELECT count(*) FROM reports WHERE report_id = '{id}'"),
    ) == "1"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_keeps_working_when_the_team_store_goes_away_and_writes_back_when_it_returns() {
    let Some(server) = pg::own_server() else {
        return;
    };
    let url = pg::fresh_database(&server);
    let db = url
        .rsplit('/')
        .next()
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let data = root.join("data");
    let doc = root.join("memo.ai.md");
    std::fs::write(&doc, MEMO).unwrap();
    let uri = uri_of(&doc);
    let c = LspClient::spawn(
        &[
            ("BYOP_DATA_DIR", data.display().to_string()),
            ("BYOP_STORE_KEY", TEAM_KEY.to_string()),
        ],
        &root,
    );
    // The team store is a user setting.
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri_of(&root),
               "initializationOptions": {"onSave": "off", "db": url},
               "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": true}}}}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": MEMO}}),
    )
    .await;
    let online = c.diagnostics_at(0, &uri, 1).await.1;
    assert!(!online.is_empty(), "the memo has findings");
    let first = evaluate(&c, &uri).await;
    assert!(on_server(&server, &db, &first), "written to the team store");

    // The server goes away: diagnostics and evaluations go on, the user is told once.
    server.stop();
    let text2 = MEMO.replace("72 hours", "48 hours");
    let diags = change(&c, &uri, &text2, 2).await;
    assert_eq!(diags.len(), online.len(), "{diags:?}");
    let second = evaluate(&c, &uri).await;
    let text3 = MEMO.replace("72 hours", "24 hours");
    change(&c, &uri, &text3, 3).await;
    let third = evaluate(&c, &uri).await;
    assert_ne!(second, third);
    let notices = shown(&c);
    let down: Vec<_> = notices
        .iter()
        .filter(|n| n.contains("cannot reach the team store"))
        .collect();
    assert_eq!(down.len(), 1, "told once: {notices:?}");
    assert!(down[0].contains("local copy"), "{}", down[0]);
    assert!(!down[0].contains(pg::ADMIN_PASSWORD), "{}", down[0]);

    // The local copy is the user's alone.
    let copies: Vec<_> = std::fs::read_dir(data.join("team-copies"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(
        copies
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "db"))
    );
    for p in &copies {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o077, 0, "{} is {mode:o}", p.display());
    }

    // The server comes back: on next use (after the retry pause), what was evaluated
    // meanwhile is written to it, and the user is told.
    server.start_again();
    assert!(!on_server(&server, &db, &second));
    tokio::time::sleep(Duration::from_millis(3_200)).await;
    let text4 = MEMO.replace("72 hours", "12 hours");
    change(&c, &uri, &text4, 4).await;
    let fourth = evaluate(&c, &uri).await;
    for id in [&first, &second, &third, &fourth] {
        assert!(on_server(&server, &db, id), "{id} is on the team store");
    }
    let notices = shown(&c);
    let back: Vec<_> = notices
        .iter()
        .filter(|n| n.contains("answers again:"))
        .collect();
    assert_eq!(back.len(), 1, "{notices:?}");
    assert!(back[0].contains("2 report(s)"), "{}", back[0]);
    let down = notices
        .iter()
        .filter(|n| n.contains("cannot reach the team store"))
        .count();
    assert_eq!(down, 1, "{notices:?}");
}
