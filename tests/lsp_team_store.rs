//! The language server on a team store whose server goes away and comes back: a real
//! PostgreSQL the test starts, stops and starts again, and `byop lsp` spoken to over
//! its protocol. While the server is down the editor keeps its diagnostics and its
//! evaluations, is told once, and what it evaluated is written to the server when it
//! answers again: its reports, and its audit rows appended to the server's keyed chain,
//! once each, the chain verifying there.

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

    // The audit rows of the evaluations made offline are on the server's keyed chain,
    // each once, and the chain verifies there.
    let copy = copies
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .unwrap()
        .clone();
    let offline_rows = audit_rows_of(&copy, &[&second, &third]);
    assert!(offline_rows >= 2, "the copy recorded the offline requests");
    assert_eq!(
        server_audit_rows(&server, &db, &[&second, &third]),
        offline_rows
    );
    // Every row the copy holds was recorded offline, and the notice counts them.
    let copied = audit_rows_of(&copy, &[]);
    assert!(
        back[0].contains(&format!("{copied} audit row(s) appended")),
        "{}",
        back[0]
    );
    assert_log_verifies(&url, &data);

    // A second outage, and the mark of what was carried over lost (as if the editor
    // stopped between the server's commit and writing the mark): every row still lands
    // once.
    server.stop();
    let text5 = MEMO.replace("72 hours", "6 hours");
    change(&c, &uri, &text5, 5).await;
    let fifth = evaluate(&c, &uri).await;
    server.start_again();
    std::fs::remove_file(copy.with_extension("audit-sent")).expect("the mark was written");
    tokio::time::sleep(Duration::from_millis(3_200)).await;
    let text6 = MEMO.replace("72 hours", "3 hours");
    change(&c, &uri, &text6, 6).await;
    let sixth = evaluate(&c, &uri).await;
    assert!(on_server(&server, &db, &fifth) && on_server(&server, &db, &sixth));
    let all_offline = [second.as_str(), third.as_str(), fifth.as_str()];
    let local = audit_rows_of(&copy, &all_offline);
    assert!(local > offline_rows);
    assert_eq!(server_audit_rows(&server, &db, &all_offline), local);
    let notices = shown(&c);
    let back: Vec<_> = notices
        .iter()
        .filter(|n| n.contains("answers again:"))
        .collect();
    assert_eq!(back.len(), 2, "{notices:?}");
    let only_new = audit_rows_of(&copy, &[]) - copied;
    assert!(
        back[1].contains(&format!("{only_new} audit row(s) appended")),
        "{}",
        back[1]
    );
    assert_log_verifies(&url, &data);
}

/// The audit rows in the local copy of the requests that decided `ids` (none: all rows).
fn audit_rows_of(copy: &Path, ids: &[&str]) -> u64 {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let c = rusqlite::Connection::open_with_flags(copy, flags).unwrap();
    if ids.is_empty() {
        let all = c.query_row("SELECT count(*) FROM audit_log", [], |r| r.get::<_, i64>(0));
        return all.unwrap() as u64;
    }
    ids.iter()
        .map(|id| {
            c.query_row(
                "SELECT count(*) FROM audit_log WHERE decision_id = ?1",
                [id],
                |r| r.get::<_, i64>(0),
            )
            .unwrap() as u64
        })
        .sum()
}

/// The same on the server.
fn server_audit_rows(server: &pg::PgServer, db: &str, ids: &[&str]) -> u64 {
    ids.iter()
        .map(|id| {
            let sql = format!("SELECT count(*) FROM audit_log WHERE decision_id = '{id}'");
            server.psql(db, &sql).parse::<u64>().unwrap()
        })
        .sum()
}

/// `byop log --verify` against the server, as the same user: intact.
fn assert_log_verifies(url: &str, data: &Path) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_byop"))
        .args(["log", "--verify", "--db", url])
        .env("BYOP_DATA_DIR", data)
        .env("BYOP_STORE_KEY", TEAM_KEY)
        .env_remove("BYOP_DB")
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("audit log intact"),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
