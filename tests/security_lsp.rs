//! The trust boundary in the language server (the real binary): what the editor shows
//! cannot be a forged report, a stale STABLE, or ranges from another text.

#[path = "lsp_support/client.rs"]
#[allow(dead_code)]
mod client;
#[path = "support/fake_llm.rs"]
mod fake_llm;

use std::path::PathBuf;

use client::{LspClient, position, range_text};
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{Value, json};

const MEMO: &str = "# Review\n\nThe supplier must notify breaches within 72 hours, which appears to follow common practice under the governing law.\n\nThe liability cap is set at the fees paid in the preceding twelve months, a common position for services of this kind.\n\nWe recommend that counsel review the indemnity before signing, since its scope depends on facts we do not have.\n\n## Not checked / missing information\n\n- The exhibits were not provided, so pricing was not reviewed.\n";

struct Env {
    root: PathBuf,
    home: PathBuf,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

impl Env {
    fn new() -> Env {
        let (ws, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        Env {
            root: ws.path().canonicalize().unwrap(),
            home: home.path().to_path_buf(),
            _dirs: (ws, home),
        }
    }

    fn lsp(&self, llm: &FakeLlm) -> LspClient {
        LspClient::spawn(
            &[
                ("ANTHROPIC_API_KEY", "k".into()),
                ("ANTHROPIC_BASE_URL", llm.base_url.clone()),
                ("BYOP_DB", self.root.join("byop.db").display().to_string()),
                ("BYOP_DATA_DIR", self.home.display().to_string()),
            ],
            &self.root,
        )
    }

    fn uri(&self, name: &str) -> String {
        format!("file://{}", self.root.join(name).display())
    }
}

async fn open(c: &LspClient, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
    .await;
}

async fn evaluate(c: &LspClient, uri: &str, mode: &str) -> Value {
    c.request(
        "workspace/executeCommand",
        json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": mode}]}),
    )
    .await
}

/// The next `byop/status` for `uri` at or after message `from`.
async fn status_after(
    c: &LspClient,
    from: usize,
    uri: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    c.wait_for(from, |m| {
        m["method"] == "byop/status" && m["params"]["uri"] == uri && pred(&m["params"])
    })
    .await
    .1["params"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_document_is_never_shown_stable() {
    let env = Env::new();
    let llm = FakeLlm::start(Script::always(vec![Step::pass()])).await;
    let c = env.lsp(&llm);
    c.initialize_at(&env.root).await;
    let uri = env.uri("memo.ai.md");
    open(&c, &uri, MEMO).await;
    evaluate(&c, &uri, "full").await;
    let from = c.len();
    let report = evaluate(&c, &uri, "full").await;
    assert_eq!(report["byop_report"]["summary"]["overall_status"], "STABLE");
    status_after(&c, from, &uri, |p| p["status"] == "STABLE").await;

    // Any edit: the evaluation no longer describes this text.
    let from = c.len();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 8}}, "text": "!"}]}),
    )
    .await;
    let s = status_after(&c, from, &uri, |p| p["status"] != "RUNNING").await;
    assert_eq!(s["status"], "OBSERVE", "{s}");
    // Removing the disclosure section: a deterministic check now fails in the new text.
    let from = c.len();
    let without = MEMO.split("## Not checked").next().unwrap().to_string();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": without}]}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(from, &uri, 3).await;
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "unchecked_areas_disclosure"),
        "{diags:#?}"
    );
    let s = status_after(&c, from, &uri, |p| p["status"] != "RUNNING").await;
    assert_ne!(s["status"], "STABLE", "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_report_for_other_raw_text_is_placed_by_its_words() {
    let env = Env::new();
    let llm = FakeLlm::start(Script::always(vec![Step::fail_first_sentence()])).await;
    let c = env.lsp(&llm);
    c.initialize_at(&env.root).await;
    let crlf = MEMO.replace('\n', "\r\n");
    let first = env.uri("a.ai.md");
    open(&c, &first, &crlf).await;
    let report = evaluate(&c, &first, "screening").await;
    // The words the evaluator quoted (the diagnostics carry only `span: true`).
    let quoted: Vec<String> = report["byop_report"]["check_results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["evidence_citations"].as_array().unwrap().clone())
        .filter_map(|c| c["span"].as_str().map(String::from))
        .collect();
    assert!(!quoted.is_empty());
    // Same normalized inputs, different raw text: front matter and line endings.
    let moved = format!("---\ntitle: a copy\n---\n{MEMO}");
    let second = env.uri("b.ai.md");
    let from = c.len();
    open(&c, &second, &moved).await;
    let (_, diags) = c.diagnostics_at(from, &second, 1).await;
    let s = status_after(&c, from, &second, |_| true).await;
    assert_eq!(s["mode"], "screening", "the stored report is shown: {s}");
    let mut placed = 0;
    for d in &diags {
        let covered = range_text(&moved, &d["range"]).expect("a range inside this text");
        if d["data"]["span"] == true && d["source"] == "byop" && covered.len() > 20 {
            // Placed by its words: the range in this text covers exactly a quoted passage.
            let quote = |q: &String| q.trim_end_matches('.') == covered.trim_end_matches('.');
            if quoted.iter().any(quote) {
                placed += 1;
            }
        }
    }
    assert!(placed > 0, "{diags:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_report_from_another_users_byop_is_not_shown() {
    let env = Env::new();
    let llm = FakeLlm::start(Script::always(vec![Step::fail_first_sentence()])).await;
    std::fs::write(env.root.join("memo.ai.md"), MEMO).unwrap();
    // Someone else's byop (another key) evaluated it into the workspace's store.
    let other = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_byop"))
        .current_dir(&env.root)
        .env("ANTHROPIC_API_KEY", "k")
        .env("ANTHROPIC_BASE_URL", &llm.base_url)
        .env("BYOP_DB", env.root.join("byop.db"))
        .env("BYOP_DATA_DIR", other.path())
        .args([
            "check",
            "--mode",
            "screening",
            "--fail-on",
            "never",
            "memo.ai.md",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let c = env.lsp(&llm);
    c.initialize_at(&env.root).await;
    let uri = env.uri("memo.ai.md");
    let from = c.len();
    open(&c, &uri, MEMO).await;
    let s = status_after(&c, from, &uri, |_| true).await;
    assert_eq!(
        s["mode"], "deterministic",
        "the foreign report is not trusted: {s}"
    );
}

/// A document that is not a file (`http:`) gets no file-system access: its front matter
/// names no companion (not even `/etc/hostname`), and no byop.toml governs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_file_uri_gets_no_file_system_access() {
    let env = Env::new();
    std::fs::write(env.root.join("secret.txt"), "CONFIDENTIAL-TEXT").unwrap();
    let llm = FakeLlm::start(Script::always(vec![Step::pass()])).await;
    let c = env.lsp(&llm);
    c.initialize_at(&env.root).await;
    let uri = "http://host/x.ai.md";
    let target = env.root.join("secret.txt");
    let text = format!("---\nbyop:\n  source: {}\n---\n{MEMO}", target.display());
    let from = c.len();
    open(&c, uri, &text).await;
    let (_, diags) = c.diagnostics_at(from, uri, 1).await;
    let refused = diags
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("cannot read source document")
        })
        .unwrap_or_else(|| panic!("the companion is refused: {diags:#?}"));
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("outside the workspace")
    );
    let all = serde_json::to_string(&c.messages()).unwrap();
    assert!(!all.contains("CONFIDENTIAL-TEXT"));
}

/// The home folder opened as the editor's workspace folder (`code ~`) is no workspace: a
/// cloned repository's front matter cannot name `~/.ssh/id_rsa` as its source.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_folder_as_workspace_folder_gives_no_access_to_private_files() {
    let env = Env::new();
    let home = &env.root;
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "SSH-PRIVATE-KEY-MATERIAL").unwrap();
    let repo = home.join("Downloads/evil");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join("notes.txt"), "The notes.").unwrap();
    let llm = FakeLlm::start(Script::always(vec![Step::pass()])).await;
    let c = LspClient::spawn(
        &[
            ("HOME", home.display().to_string()),
            ("ANTHROPIC_API_KEY", "k".into()),
            ("ANTHROPIC_BASE_URL", llm.base_url.clone()),
            ("BYOP_DB", env.home.join("byop.db").display().to_string()),
            ("BYOP_DATA_DIR", env.home.display().to_string()),
        ],
        home,
    );
    c.initialize_at(home).await;
    let uri = format!("file://{}", repo.join("x.ai.md").display());
    let text = format!("---\nbyop:\n  source: ../../.ssh/id_rsa\n---\n{MEMO}");
    std::fs::write(repo.join("x.ai.md"), &text).unwrap();
    let from = c.len();
    open(&c, &uri, &text).await;
    let (_, diags) = c.diagnostics_at(from, &uri, 1).await;
    let refused = diags
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("cannot read source document")
        })
        .unwrap_or_else(|| panic!("the companion is refused: {diags:#?}"));
    assert_eq!(refused["range"]["start"]["line"], 2, "at the key");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("outside the workspace")
    );
    let r = c
        .request_raw(
            "workspace/executeCommand",
            json!({"command": "byop.evaluate", "arguments": [{"uri": uri, "mode": "screening"}]}),
        )
        .await;
    assert!(
        r.get("error").is_some(),
        "a missing companion is refused: {r}"
    );
    assert_eq!(llm.calls(), 0);
    // A file of the document's own repository is still its companion.
    let ok = format!("---\nbyop:\n  source: notes.txt\n---\n{MEMO}");
    let from = c.len();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": ok}]}),
    )
    .await;
    let (_, diags) = c.diagnostics_at(from, &uri, 2).await;
    assert!(
        !diags
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("cannot read")),
        "{diags:#?}"
    );
    let all = serde_json::to_string(&c.messages()).unwrap();
    assert!(!all.contains("SSH-PRIVATE-KEY-MATERIAL"));
    assert!(
        llm.requests()
            .iter()
            .all(|r| !r.user().contains("SSH-PRIVATE-KEY-MATERIAL"))
    );
}

/// Evaluator text reaches the hover as literal Markdown: a link to an editor command, an
/// image that would call out, HTML and terminal controls in the notes are shown as text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluator_text_in_the_hover_cannot_link_embed_or_inject_html() {
    let env = Env::new();
    let notes = "Mark this as pass. [click here](command:workbench.action.terminal.new) \
                 ![x](http://attacker.invalid/p.png) <img src=x onerror=alert(1)> `code` \
                 **bold** \u{1b}]52;c;cm0gLXJm\u{7}done";
    let mut step = Step::fail_first_sentence();
    if let Step::Verdict { notes: n, .. } = &mut step {
        *n = notes.into();
    }
    let llm = FakeLlm::start(Script::always(vec![step])).await;
    let c = env.lsp(&llm);
    c.initialize_at(&env.root).await;
    let uri = env.uri("memo.ai.md");
    open(&c, &uri, MEMO).await;
    let report = evaluate(&c, &uri, "screening").await;
    assert_eq!(
        report["byop_report"]["execution_mode"], "screening",
        "{report}"
    );
    let at = MEMO.find("must notify breaches").unwrap();
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(MEMO, at)}),
        )
        .await;
    assert_eq!(hover["contents"]["kind"], "markdown", "{hover}");
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("Mark this as pass"),
        "the notes are shown: {md}"
    );
    for shown in [
        "\\[click here\\](command:workbench.action.terminal.new)",
        "\\!\\[x\\](http://attacker.invalid/p.png)",
        "&lt;img src=x onerror=alert(1)&gt;",
        "\\`code\\`",
        "\\*\\*bold\\*\\*",
    ] {
        assert!(md.contains(shown), "escaped `{shown}` in {md}");
    }
    for raw in ["[click here](", "![x]", "<img", " `code`", " **bold**"] {
        assert!(!md.contains(raw), "raw `{raw}` in {md}");
    }
    assert!(
        !md.chars()
            .any(|ch| ch.is_control() && ch != '\n' && ch != '\t'),
        "controls in {md:?}"
    );
}
