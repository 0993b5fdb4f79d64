//! End-to-end tests of `byop lsp`: a JSON-RPC client against the real binary (and
//! one in-process server), with the fake Anthropic server as the evaluator.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
#[path = "support/fake_llm.rs"]
mod fake_llm;
#[path = "support/sound_store.rs"]
mod sound_store;

use std::collections::HashMap;
use std::path::Path;

use client::{LspClient, apply_edits, position, range_text};
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{Value, json};

const MEMO: &str = "---\ntitle: supplier memo\n---\n# Review of the supplier agreement\n\nThe agreement is compliant with the data protection rules. The supplier must notify breaches within 72 hours.\n\nThe indemnity clause caps liability at the fees paid in the preceding twelve months, which is a common market position for services of this kind. The termination clause allows either party to end the contract on ninety days notice, and the confidentiality obligations survive termination for five years.\n";
const FIRST_SENTENCE: &str = "The agreement is compliant with the data protection rules.";

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn codes(diags: &[Value]) -> Vec<String> {
    let mut c: Vec<String> = diags
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect();
    c.sort();
    c
}

fn find<'a>(diags: &'a [Value], code: &str) -> Option<&'a Value> {
    diags.iter().find(|d| d["code"] == code)
}

async fn initialize(c: &LspClient, root: &Path, options: Value, encodings: &[&str]) -> Value {
    let result = c
        .request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri_of(root),
                "initializationOptions": options,
                "capabilities": {
                    "general": {"positionEncodings": encodings},
                    "window": {"workDoneProgress": true},
                    "textDocument": {"publishDiagnostics": {"versionSupport": true}}
                }
            }),
        )
        .await;
    c.notify("initialized", json!({})).await;
    result
}

async fn open(c: &LspClient, uri: &str, text: &str, version: i64) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": version, "text": text}}),
    )
    .await;
}

/// Every diagnostic's range is valid for the text of the version it claims, and quotes match.
fn assert_consistent(msgs: &[Value], uri: &str, texts: &HashMap<i64, String>) -> usize {
    let mut checked = 0;
    for m in msgs {
        if m["method"] != "textDocument/publishDiagnostics" || m["params"]["uri"] != uri {
            continue;
        }
        let Some(version) = m["params"]["version"].as_i64() else {
            continue;
        };
        let text = texts
            .get(&version)
            .unwrap_or_else(|| panic!("diagnostics for a version never sent: {version}"));
        for d in m["params"]["diagnostics"].as_array().unwrap() {
            let covered = range_text(text, &d["range"])
                .unwrap_or_else(|| panic!("range invalid for version {version}: {d}"));
            if let Some(span) = d["data"]["span"].as_str() {
                assert_eq!(covered, span, "quote does not match version {version}: {d}");
            }
            checked += 1;
        }
    }
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_session_over_the_real_binary() {
    let fake = FakeLlm::start(
        Script::default()
            .check("certainty_language", vec![Step::fail_first_sentence()])
            .check(
                "assumption_disclosure",
                vec![Step::Verdict {
                    result: "fail".into(),
                    confidence: 0.8,
                    quote: None,
                    quotes: vec![],
                    quote_first_sentence: false,
                    notes: "States no assumptions.".into(),
                    obey_canary: false,
                    assumptions: vec!["The agreement is governed by English law.".into()],
                }],
            ),
    )
    .await;
    // A workspace byop.toml pointing the evaluator elsewhere must not receive the key.
    let trap = FakeLlm::start(Script::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(
        root.join("byop.toml"),
        format!("[evaluator]\nbase_url = \"{}\"\n", trap.base_url),
    )
    .unwrap();
    let path = root.join("memo.ai.md");
    std::fs::write(&path, MEMO).unwrap();
    let uri = uri_of(&path);
    let log_path = root.join("server.log");
    let c = LspClient::spawn_with_stderr(
        &[
            ("ANTHROPIC_BASE_URL", fake.base_url.clone()),
            ("ANTHROPIC_API_KEY", "test-key-e2e".into()),
            ("BYOP_DB", root.join("byop.db").display().to_string()),
            ("BYOP_BACKOFF_MS", "1".into()),
            ("BYOP_LOG", "trace".into()),
        ],
        &root,
        std::fs::File::create(&log_path).unwrap().into(),
    );

    let init = initialize(
        &c,
        &root,
        json!({"byop": {"logLevel": "info"}}),
        &["utf-16"],
    )
    .await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert!(
        init["capabilities"]["executeCommandProvider"]["commands"]
            .as_array()
            .unwrap()
            .contains(&json!("byop.evaluate"))
    );

    // Open: deterministic diagnostics at once.
    open(&c, &uri, MEMO, 1).await;
    let (_, diags) = c.diagnostics_at(0, &uri, 1).await;
    let certainty = find(&diags, "certainty_language").expect("candidate span");
    assert_eq!(range_text(MEMO, &certainty["range"]), Some("is compliant"));
    assert_eq!(certainty["severity"], 3, "indeterminate → Information");
    let unchecked = find(&diags, "unchecked_areas_disclosure").expect("missing section");
    assert_eq!(unchecked["severity"], 2, "fail+medium → Warning");
    assert_eq!(unchecked["source"], "byop");
    // codeDescription links to the check's documentation page, which exists.
    let href = unchecked["codeDescription"]["href"]
        .as_str()
        .expect("codeDescription");
    let page =
        std::fs::read_to_string(href.trim_start_matches("file://")).expect("doc page exists");
    assert!(page.contains("# `unchecked_areas_disclosure`"), "{page}");
    assert_eq!(fake.calls(), 0, "no evaluator call before save");

    // Save: screening (a key is available) → evaluator diagnostics at the quoted range.
    let mark = c.len();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    )
    .await;
    let (_, status) = c
        .wait_for(mark, |m| {
            m["method"] == "byop/status"
                && m["params"]["mode"] == "screening"
                && m["params"]["status"] != "RUNNING"
        })
        .await;
    assert_eq!(status["params"]["status"], "ALERT", "{status}");
    let (_, diags) = c.diagnostics_at(mark, &uri, 1).await;
    let certainty = find(&diags, "certainty_language").expect("evaluator finding");
    assert_eq!(range_text(MEMO, &certainty["range"]), Some(FIRST_SENTENCE));
    assert_eq!(certainty["severity"], 1, "fail+high → Error");
    assert!(find(&diags, "assumption_disclosure").is_some());
    assert!(
        fake.calls() >= 3,
        "screening calls the evaluator once per semantic check"
    );
    assert_eq!(
        trap.calls(),
        0,
        "the workspace base_url never receives the key"
    );
    assert!(
        fake.requests()
            .iter()
            .all(|r| r.header("x-api-key") == Some("test-key-e2e"))
    );
    assert!(
        c.messages()
            .iter()
            .any(|m| m["method"] == "byop/status" && m["params"]["status"] == "RUNNING")
    );

    // Hover on the quoted span: question, result, evaluator.
    let at = MEMO.find(FIRST_SENTENCE).unwrap() + 5;
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(MEMO, at)}),
        )
        .await;
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("certainty_language") && md.contains("fail"),
        "{md}"
    );
    assert!(md.contains("anthropic"), "{md}");
    assert!(md.contains("run 1: fail"), "{md}");
    // Elsewhere: nothing.
    let far = MEMO.find("must notify").unwrap();
    let none = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(MEMO, far)}),
        )
        .await;
    assert!(none.is_null(), "{none}");

    // Code actions: the assumptions fix uses the evaluator's assumptions.
    let assumption = find(&diags, "assumption_disclosure").unwrap().clone();
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": assumption["range"],
                   "context": {"diagnostics": [assumption]}}),
        )
        .await;
    let first = &actions[0];
    assert_eq!(first["title"], "Insert an Assumptions section");
    assert_eq!(first["isPreferred"], true);
    let edits = first["edit"]["changes"][&uri].as_array().unwrap();
    let with_assumptions = apply_edits(MEMO, edits);
    assert!(
        with_assumptions
            .contains("## Assumptions\n\n- The agreement is governed by English law.\n")
    );

    // Apply the "Not checked" section fix: its diagnostic goes away.
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": unchecked["range"],
                   "context": {"diagnostics": [unchecked]}}),
        )
        .await;
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Insert a \"Not checked / missing information\" section",
            "Suppress unchecked_areas_disclosure on this line",
            "Suppress unchecked_areas_disclosure in this file",
            // A deterministic check fails and an evaluator is configured.
            "Repair with the evaluator"
        ]
    );
    let edits = actions[0]["edit"]["changes"][&uri]
        .as_array()
        .unwrap()
        .clone();
    let v2 = apply_edits(MEMO, &edits);
    let mark = c.len();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": edits.iter().map(|e| json!({"range": e["range"], "text": e["newText"]})).collect::<Vec<_>>()}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(mark, &uri, 2).await;
    assert!(
        find(&diags, "unchecked_areas_disclosure").is_none(),
        "{:?}",
        codes(&diags)
    );
    // The evaluator's finding survives the edit elsewhere, still on its sentence.
    let certainty = find(&diags, "certainty_language").expect("kept after an unrelated edit");
    assert_eq!(range_text(&v2, &certainty["range"]), Some(FIRST_SENTENCE));
    std::fs::write(&path, &v2).unwrap();

    // Full evaluation by command, with progress.
    let mark = c.len();
    let full = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "full"}]}),
        )
        .await;
    let report = &full["byop_report"];
    assert_eq!(report["execution_mode"], "full");
    let progress: Vec<Value> = c.messages()[mark..]
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .map(|m| m["params"]["value"].clone())
        .collect();
    assert_eq!(progress.first().unwrap()["kind"], "begin");
    assert_eq!(progress.first().unwrap()["cancellable"], true);
    assert_eq!(progress.last().unwrap()["kind"], "end");
    assert!(
        progress.iter().any(|p| p["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("check ") && m.ends_with("/3"))),
        "{progress:?}"
    );
    assert!(
        c.messages()[mark..]
            .iter()
            .any(|m| m["method"] == "window/workDoneProgress/create")
    );

    // Export, baseline, history.
    let exported = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.exportReport", "arguments": [{"uri": uri}]}),
        )
        .await;
    assert_eq!(exported["byop_report"]["report_id"], report["report_id"]);
    let baseline = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.saveBaseline", "arguments": [{"uri": uri}]}),
        )
        .await;
    assert_eq!(baseline["report_id"], report["report_id"]);
    let history = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.history", "arguments": [{"uri": uri}]}),
        )
        .await;
    let rows = history["rows"].as_array().unwrap();
    assert!(rows.len() >= 2, "{history}");
    let modes: Vec<&str> = rows.iter().map(|r| r["mode"].as_str().unwrap()).collect();
    assert!(
        modes.contains(&"full") && modes.contains(&"screening"),
        "{modes:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r["is_baseline"] == true && r["report_id"] == report["report_id"])
    );
    assert_eq!(trap.calls(), 0);

    let screening_id = rows.iter().find(|r| r["mode"] == "screening").unwrap()["report_id"].clone();
    let cmp = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.compare", "arguments": [{"a": screening_id, "b": report["report_id"]}]}),
        )
        .await;
    assert_eq!(cmp["b"]["report_id"], report["report_id"], "{cmp}");
    assert_eq!(
        cmp["comparable"], false,
        "the text changed between the two: {cmp}"
    );
    let html = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.renderHtml", "arguments": [{"uri": uri}]}),
        )
        .await;
    let html = html["html"].as_str().unwrap();
    assert!(
        html.contains("<html") && html.contains("not legal advice"),
        "{}",
        &html[..200.min(html.len())]
    );

    // Opting in (a user-level setting) lets the workspace evaluator receive the key.
    let mark = c.len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"byop": {"trustWorkspaceEvaluator": true, "onSave": "off"}}}),
    )
    .await;
    c.diagnostics_at(mark, &uri, 2).await;
    c.request(
        "workspace/executeCommand",
        json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening", "fresh": true}]}),
    )
    .await;
    assert!(trap.calls() > 0, "trusted workspace evaluator is used");

    // A key set by command is used (for OpenAI here: no call needed) and never logged.
    let set = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.setApiKey", "arguments": [{"provider": "openai", "key": "sk-memory-only-key"}]}),
        )
        .await;
    assert_eq!(set["ok"], true);

    // Unknown commands are errors, not crashes.
    let bad = c
        .request_raw(
            "workspace/executeCommand",
            json!({"command": "byop.nope", "arguments": [{}]}),
        )
        .await;
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("byop.nope")
    );

    // Shutdown and exit with code 0.
    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
    let mut child = c.child.unwrap();
    let status = tokio::time::timeout(client::TIMEOUT, child.wait())
        .await
        .expect("server exits")
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.contains("evaluation"), "the log is written: {log}");
    assert!(
        !log.contains("test-key-e2e") && !log.contains("sk-memory-only-key"),
        "a key leaked into the log"
    );
    assert!(
        !log.contains(FIRST_SENTENCE),
        "document text leaked into the log"
    );

    // A new session opening identical content shows the stored full report at once.
    let calls = fake.calls();
    let c = LspClient::spawn(
        &[
            ("ANTHROPIC_BASE_URL", fake.base_url.clone()),
            ("ANTHROPIC_API_KEY", "test-key-e2e".into()),
            ("BYOP_DB", root.join("byop.db").display().to_string()),
        ],
        &root,
    );
    initialize(&c, &root, json!({}), &["utf-16"]).await;
    open(&c, &uri, &v2, 1).await;
    let (_, diags) = c.diagnostics_at(0, &uri, 1).await;
    let certainty = find(&diags, "certainty_language").expect("stored finding");
    assert_eq!(certainty["severity"], 1);
    assert_eq!(range_text(&v2, &certainty["range"]), Some(FIRST_SENTENCE));
    let (_, status) = c
        .wait_for(0, |m| {
            m["method"] == "byop/status" && m["params"]["uri"] == uri.as_str()
        })
        .await;
    assert_eq!(status["params"]["mode"], "full");
    assert_eq!(fake.calls(), calls, "no evaluator call on open");
    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_during_an_evaluation_never_publishes_stale_diagnostics() {
    let fake =
        FakeLlm::start(Script::always(vec![Step::fail_first_sentence()]).latency_ms(1000)).await;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let path = root.join("memo.ai.md");
    std::fs::write(&path, MEMO).unwrap();
    let uri = uri_of(&path);
    let c = LspClient::spawn(
        &[
            ("ANTHROPIC_BASE_URL", fake.base_url.clone()),
            ("ANTHROPIC_API_KEY", "k".into()),
            ("BYOP_DB", root.join("byop.db").display().to_string()),
        ],
        &root,
    );
    initialize(&c, &root, json!({"byop": {"onSave": "off"}}), &["utf-16"]).await;
    let mut texts = HashMap::from([(1, MEMO.to_string())]);
    open(&c, &uri, MEMO, 1).await;
    c.diagnostics_at(0, &uri, 1).await;

    // An evaluation, then typing while it runs: it is cancelled, nothing stale shows.
    let pending = c
        .send_request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening"}]}),
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let mut text = MEMO.to_string();
    let mut version = 1;
    for i in 0..40 {
        // Type at the start of the second paragraph (before the quoted sentence), sometimes delete.
        let at = text.find("The indemnity").unwrap();
        version += 1;
        let change = if i % 5 == 4 {
            // Delete the character typed just before.
            let start = at - text[..at].chars().last().unwrap().len_utf8();
            let change = json!({"range": {"start": position(&text, start), "end": position(&text, at)}, "text": ""});
            text.replace_range(start..at, "");
            change
        } else {
            let ch = ["é", "x", "😀", " "][i % 4];
            let change = json!({"range": {"start": position(&text, at), "end": position(&text, at)}, "text": ch});
            text.insert_str(at, ch);
            change
        };
        texts.insert(version, text.clone());
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(if i % 10 == 9 {
            250
        } else {
            15
        }))
        .await;
    }
    let response = tokio::time::timeout(client::TIMEOUT, pending)
        .await
        .unwrap()
        .unwrap();
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("cancelled"),
        "an edit cancels the running evaluation: {response}"
    );
    let (_, final_diags) = c.diagnostics_at(0, &uri, version).await;
    assert!(assert_consistent(&c.messages(), &uri, &texts) > 0);
    assert!(
        range_text(
            &text,
            &find(&final_diags, "certainty_language").unwrap()["range"]
        )
        .is_some()
    );

    // Evaluate the settled text, then keep typing elsewhere: the evaluator's finding
    // follows its sentence and never points into text that changed.
    let done = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening"}]}),
        )
        .await;
    assert_eq!(done["byop_report"]["execution_mode"], "screening");
    let (_, diags) = c.diagnostics_at(0, &uri, version).await;
    let _ = diags;
    let mark = c.len();
    let pending = c
        .send_request("workspace/executeCommand", json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening", "fresh": true}]}))
        .await;
    for _ in 0..15 {
        let at = text.find("# Review").unwrap();
        version += 1;
        let change = json!({"range": {"start": position(&text, at), "end": position(&text, at)}, "text": "ab"});
        text.insert_str(at, "ab");
        texts.insert(version, text.clone());
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let _ = tokio::time::timeout(client::TIMEOUT, pending).await;
    let (_, final_diags) = c.diagnostics_at(mark, &uri, version).await;
    assert!(assert_consistent(&c.messages(), &uri, &texts) > 0);
    let certainty = final_diags
        .iter()
        .find(|d| d["code"] == "certainty_language" && d["severity"] == 1)
        .expect("the earlier evaluation's finding survives edits elsewhere");
    assert_eq!(range_text(&text, &certainty["range"]), Some(FIRST_SENTENCE));

    // The client cancels through the progress token: the evaluation stops.
    let mark = c.len();
    let pending = c
        .send_request("workspace/executeCommand", json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "full", "fresh": true}]}))
        .await;
    let (_, create) = c
        .wait_for(mark, |m| m["method"] == "window/workDoneProgress/create")
        .await;
    c.notify(
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

    // Cancelling the request itself ($/cancelRequest) stops the evaluation too.
    let mark = c.len();
    let pending = c
        .send_request("workspace/executeCommand", json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "full", "fresh": true}]}))
        .await;
    let id = c.last_id();
    c.wait_for(mark, |m| {
        m["method"] == "byop/status" && m["params"]["status"] == "RUNNING"
    })
    .await;
    c.notify("$/cancelRequest", json!({"id": id})).await;
    let response = tokio::time::timeout(client::TIMEOUT, pending)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(response["error"]["code"], -32800, "{response}");
    let (_, status) = c
        .wait_for(mark, |m| {
            m["method"] == "byop/status"
                && m["params"]["status"] != "RUNNING"
                && m["params"]["uri"] == uri.as_str()
        })
        .await;
    assert_eq!(
        status["params"]["mode"], "screening",
        "the last finished evaluation stays: {status}"
    );
    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
}

/// In-process server over an in-memory pipe: UTF-8 positions, playbook files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn utf8_positions_and_playbook_diagnostics_in_process() {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_io);
    tokio::spawn(byop::lsp::serve(server_read, server_write));
    let (client_read, client_write) = tokio::io::split(client_io);
    let c = LspClient::over(client_read, client_write);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // The front matter below requests a playbook file: allowed by the user, and outside
    // locked mode (which CI=true switches on in this in-process server).
    let init = initialize(
        &c,
        &root,
        json!({"onSave": "off", "locked": false, "allowedPlaybooks": [root.join("custom.json")]}),
        &["utf-8", "utf-16"],
    )
    .await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");

    let text = "Résumé — naïve: the clause is compliant.\n";
    let uri = uri_of(&root.join("x.ai.md"));
    open(&c, &uri, text, 1).await;
    let (_, diags) = c.diagnostics_at(0, &uri, 1).await;
    let d = find(&diags, "certainty_language").unwrap();
    let start = text.find("is compliant").unwrap();
    assert_eq!(
        d["range"]["start"]["character"], start,
        "UTF-8 columns are bytes"
    );

    // source.fixAll.byop inserts the missing sections; "suppress on this line" hides a finding.
    let memo_uri = uri_of(&root.join("memo.ai.md"));
    open(&c, &memo_uri, MEMO, 1).await;
    let (_, diags) = c.diagnostics_at(0, &memo_uri, 1).await;
    let all = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": memo_uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                   "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
        )
        .await;
    assert_eq!(all[0]["kind"], "source.fixAll.byop");
    let fixed = apply_edits(
        MEMO,
        all[0]["edit"]["changes"][&memo_uri].as_array().unwrap(),
    );
    assert!(fixed.ends_with("## Not checked / missing information\n\n- [List what was not reviewed and the information that would change the analysis.]\n"), "{fixed}");
    let certainty = find(&diags, "certainty_language").unwrap().clone();
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": memo_uri}, "range": certainty["range"],
                   "context": {"diagnostics": [certainty], "only": ["quickfix"]}}),
        )
        .await;
    let qualify = &actions[0];
    assert!(
        qualify["title"].as_str().unwrap().starts_with("Qualify"),
        "{actions}"
    );
    let qualified = apply_edits(
        MEMO,
        qualify["edit"]["changes"][&memo_uri].as_array().unwrap(),
    );
    assert!(qualified.contains("The agreement appears to be compliant with the data protection rules, subject to [conditions]. The supplier"), "{qualified}");
    let suppress = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Suppress certainty_language on this line")
        .unwrap();
    let edits = suppress["edit"]["changes"][&memo_uri].as_array().unwrap();
    let suppressed = apply_edits(MEMO, edits);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": memo_uri, "version": 2}, "contentChanges": [{"text": suppressed}]}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(0, &memo_uri, 2).await;
    assert!(
        find(&diags, "certainty_language").is_none(),
        "{:?}",
        codes(&diags)
    );
    assert!(find(&diags, "unchecked_areas_disclosure").is_some());
    // Hover on the first body line: a one-line summary.
    let line = suppressed[..suppressed.find("# Review").unwrap()]
        .matches('\n')
        .count();
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": memo_uri}, "position": {"line": line, "character": 2}}),
        )
        .await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("deterministic mode"),
        "{hover}"
    );

    // A playbook named in the front matter (relative to the document) is the one applied.
    let builtin = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("playbooks/ai_plugin_observability_v1.json"),
    )
    .unwrap();
    let mut custom: Value = serde_json::from_str(&builtin).unwrap();
    custom["id"] = json!("only_certainty");
    custom["checks"]
        .as_array_mut()
        .unwrap()
        .retain(|c| c["id"] == "certainty_language");
    std::fs::write(root.join("custom.json"), custom.to_string()).unwrap();
    let with_fm = format!(
        "---\nbyop:\n  playbook: custom.json\n---\n{}",
        &MEMO[MEMO.find("# Review").unwrap()..]
    );
    let fm_uri = uri_of(&root.join("custom.ai.md"));
    open(&c, &fm_uri, &with_fm, 1).await;
    let (_, diags) = c.diagnostics_at(0, &fm_uri, 1).await;
    assert_eq!(codes(&diags), ["certainty_language"], "{diags:?}");

    // A playbook JSON gets its own errors at the offending field.
    let pb = "{\n  \"id\": \"p\",\n  \"version\": \"1\",\n  \"checks\": [\n    {\"id\": \"c\", \"severity\": \"urgent\", \"question\": \"q\", \"detection_method\": {\"type\": \"semantic\", \"instructions\": \"i\"}}\n  ]\n}\n";
    let pb_uri = uri_of(&root.join("playbook.json"));
    open(&c, &pb_uri, pb, 1).await;
    let (_, diags) = c.diagnostics_at(0, &pb_uri, 1).await;
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "playbook_error");
    assert_eq!(diags[0]["range"]["start"]["line"], 4);
    let fixed = pb.replace("urgent", "high");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": pb_uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(0, &pb_uri, 2).await;
    assert!(diags.is_empty(), "{diags:?}");
    c.request("shutdown", Value::Null).await;
}

/// `kill -9` of the language server at random moments while evaluations run and
/// their reports are saved — evaluations on save (`didSave` with `onSave` screening or
/// full) and on command — leaves a sound store (SQLite's check, every report whole and
/// named by its own id, the keyed audit chain intact against its head in the user's data
/// folder), and the next session's evaluation works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_language_server_during_evaluations_leaves_a_sound_store() {
    let fake =
        FakeLlm::start(Script::always(vec![Step::fail_first_sentence()]).latency_ms(30)).await;
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let db = root.join("byop.db");
    let env = [
        ("ANTHROPIC_BASE_URL", fake.base_url.clone()),
        ("ANTHROPIC_API_KEY", "k".to_string()),
        ("BYOP_DB", db.display().to_string()),
        ("BYOP_DATA_DIR", home.path().display().to_string()),
    ];
    let uris: Vec<String> = (0..4)
        .map(|i| {
            let path = root.join(format!("memo{i}.ai.md"));
            std::fs::write(&path, format!("{MEMO}\nNote {i}.\n")).unwrap();
            uri_of(&path)
        })
        .collect();
    let sound = || {
        let mut verify = std::process::Command::new(env!("CARGO_BIN_EXE_byop"));
        verify
            .args(["log", "--verify", "--db", &db.display().to_string()])
            .env("BYOP_DATA_DIR", home.path());
        sound_store::assert_sound(&db, verify)
    };
    for round in 0..10 {
        let mut c = LspClient::spawn_with_stderr(&env, &root, std::process::Stdio::null());
        let on_save = ["screening", "full"][round % 2];
        initialize(&c, &root, json!({"byop": {"onSave": on_save}}), &["utf-16"]).await;
        for (i, uri) in uris.iter().enumerate() {
            open(&c, uri, &format!("{MEMO}\nNote {i}.\n"), 1).await;
            if i % 2 == 0 {
                // Saved: the on-save evaluation runs and stores its report.
                c.notify(
                    "textDocument/didSave",
                    json!({"textDocument": {"uri": uri}}),
                )
                .await;
                continue;
            }
            let mode = ["screening", "full"][(round + i / 2) % 2];
            // Not awaited: the kill comes while some run, some write, some are done.
            drop(
                c.send_request(
                    "workspace/executeCommand",
                    json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": mode}]}),
                )
                .await,
            );
        }
        // The kill comes at a random moment after an evaluation has started (however slow
        // the machine is), so it lands while some run, some write, some are done; every
        // fifth round does not wait, to kill before anything started.
        if round % 5 != 0 {
            c.wait_for(0, |m| {
                m["method"] == "byop/status" && m["params"]["status"] == "RUNNING"
            })
            .await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(fastrand::u64(0..900))).await;
        let mut child = c.child.take().unwrap();
        child.start_kill().unwrap(); // SIGKILL
        child.wait().await.unwrap();
        if db.exists() {
            sound();
        }
    }
    // The next session evaluates and stores as usual.
    let before = if db.exists() { sound() } else { 0 };
    assert!(
        before > 0,
        "no round lived long enough to store a report: the kills proved nothing"
    );
    let c = LspClient::spawn_with_stderr(&env, &root, std::process::Stdio::null());
    initialize(&c, &root, json!({"byop": {"onSave": "off"}}), &["utf-16"]).await;
    let fresh = root.join("fresh.ai.md");
    std::fs::write(&fresh, format!("{MEMO}\nA fresh one.\n")).unwrap();
    open(&c, &uri_of(&fresh), &format!("{MEMO}\nA fresh one.\n"), 1).await;
    let report = c
        .request(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri_of(&fresh), "mode": "screening"}]}),
        )
        .await;
    assert_eq!(
        report["byop_report"]["execution_mode"], "screening",
        "{report}"
    );
    c.request("shutdown", Value::Null).await;
    c.notify("exit", Value::Null).await;
    assert!(sound() > before, "the fresh evaluation was stored");
    // The chain was checked against a head kept outside the database.
    let heads = std::fs::read_dir(home.path().join("audit-heads")).unwrap();
    assert_eq!(heads.count(), 1, "one head, for this store");
}
