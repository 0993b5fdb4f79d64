//! A small LSP test client: Content-Length framing over a child's stdio (or any
//! byte streams), answers the server's requests, records every notification.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Notify, oneshot};

type Writer = Arc<tokio::sync::Mutex<Pin<Box<dyn AsyncWrite + Send>>>>;

#[derive(Default)]
struct Shared {
    /// Every message from the server that is not a response, in arrival order.
    messages: Mutex<Vec<Value>>,
    pending: Mutex<HashMap<i64, oneshot::Sender<Value>>>,
    notify: Notify,
}

pub struct LspClient {
    writer: Writer,
    shared: Arc<Shared>,
    next_id: Mutex<i64>,
    pub child: Option<tokio::process::Child>,
}

pub const TIMEOUT: Duration = Duration::from_secs(60);

async fn write_frame(w: &Writer, msg: &Value) {
    let body = serde_json::to_vec(msg).unwrap();
    let mut w = w.lock().await;
    w.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes())
        .await
        .unwrap();
    w.write_all(&body).await.unwrap();
    w.flush().await.unwrap();
}

async fn read_frame<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).await.ok()?;
    serde_json::from_slice(&body).ok()
}

impl LspClient {
    /// Start `byop lsp` as a child process.
    pub fn spawn(envs: &[(&str, String)], cwd: &std::path::Path) -> LspClient {
        Self::spawn_with_stderr(envs, cwd, std::process::Stdio::inherit())
    }

    /// Start `byop lsp` with its stderr (the log) going to `stderr`.
    pub fn spawn_with_stderr(
        envs: &[(&str, String)],
        cwd: &std::path::Path,
        stderr: std::process::Stdio,
    ) -> LspClient {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_byop"));
        cmd.arg("lsp")
            .current_dir(cwd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(stderr)
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_BASE_URL")
            .env_remove("OPENAI_BASE_URL")
            .env("BYOP_LOG", "warn")
            .env_remove("CI")
            .env_remove("BYOP_LOCKED")
            .kill_on_drop(true);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start byop lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut c = LspClient::over(stdout, stdin);
        c.child = Some(child);
        c
    }

    /// Speak to a server over the given streams (e.g. an in-process `byop::lsp::serve`).
    pub fn over<R, W>(reader: R, writer: W) -> LspClient
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        let writer: Writer = Arc::new(tokio::sync::Mutex::new(Box::pin(writer)));
        let shared = Arc::new(Shared::default());
        let (w, s) = (writer.clone(), shared.clone());
        tokio::spawn(async move {
            let mut r = BufReader::new(reader);
            while let Some(msg) = read_frame(&mut r).await {
                let is_request = msg.get("method").is_some() && msg.get("id").is_some();
                if is_request {
                    // Progress tokens, configuration, registrations: all fine.
                    let result = match msg["method"].as_str() {
                        Some("workspace/configuration") => json!([]),
                        _ => Value::Null,
                    };
                    write_frame(
                        &w,
                        &json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}),
                    )
                    .await;
                }
                if msg.get("method").is_none() {
                    if let Some(id) = msg["id"].as_i64()
                        && let Some(tx) = s.pending.lock().unwrap().remove(&id)
                    {
                        let _ = tx.send(msg);
                    }
                } else {
                    s.messages.lock().unwrap().push(msg);
                    s.notify.notify_waiters();
                }
            }
            s.notify.notify_waiters();
        });
        LspClient {
            writer,
            shared,
            next_id: Mutex::new(1),
            child: None,
        }
    }

    /// Send a request; the returned receiver yields the whole response message.
    pub async fn send_request(&self, method: &str, params: Value) -> oneshot::Receiver<Value> {
        let id = {
            let mut n = self.next_id.lock().unwrap();
            *n += 1;
            *n
        };
        let (tx, rx) = oneshot::channel();
        self.shared.pending.lock().unwrap().insert(id, tx);
        write_frame(
            &self.writer,
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )
        .await;
        rx
    }

    /// Id of the last request sent.
    pub fn last_id(&self) -> i64 {
        *self.next_id.lock().unwrap()
    }

    /// Request and wait for the `result` (panics on an error response).
    pub async fn request(&self, method: &str, params: Value) -> Value {
        let resp = self.request_raw(method, params).await;
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    pub async fn request_raw(&self, method: &str, params: Value) -> Value {
        let rx = self.send_request(method, params).await;
        tokio::time::timeout(TIMEOUT, rx)
            .await
            .unwrap_or_else(|_| panic!("{method}: no response"))
            .expect("response")
    }

    /// `initialize` with `root` as the workspace (saving off, versioned diagnostics), then
    /// `initialized`: the start every end-to-end session shares.
    pub async fn initialize_at(&self, root: &std::path::Path) {
        self.request(
            "initialize",
            json!({"processId": null, "rootUri": format!("file://{}", root.display()),
                   "initializationOptions": {"onSave": "off"},
                   "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": true}}}}),
        )
        .await;
        self.notify("initialized", json!({})).await;
    }

    pub async fn notify(&self, method: &str, params: Value) {
        write_frame(
            &self.writer,
            &json!({"jsonrpc": "2.0", "method": method, "params": params}),
        )
        .await;
    }

    /// Everything received so far (notifications and server requests).
    pub fn messages(&self) -> Vec<Value> {
        self.shared.messages.lock().unwrap().clone()
    }

    /// Wait for a message (received at or after index `from`) matching `pred`; returns it and its index.
    pub async fn wait_for(&self, from: usize, pred: impl Fn(&Value) -> bool) -> (usize, Value) {
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            let notified = self.shared.notify.notified();
            {
                let msgs = self.shared.messages.lock().unwrap();
                if let Some((i, m)) = msgs.iter().enumerate().skip(from).find(|(_, m)| pred(m)) {
                    return (i, m.clone());
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!(
                    "timed out waiting; last messages: {:#?}",
                    self.messages().iter().rev().take(5).collect::<Vec<_>>()
                );
            }
        }
    }

    /// The next `publishDiagnostics` for `uri` at exactly `version`.
    pub async fn diagnostics_at(
        &self,
        from: usize,
        uri: &str,
        version: i64,
    ) -> (usize, Vec<Value>) {
        let (i, m) = self
            .wait_for(from, |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri
                    && m["params"]["version"] == version
            })
            .await;
        (
            i,
            m["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        )
    }

    pub fn len(&self) -> usize {
        self.shared.messages.lock().unwrap().len()
    }
}

/// Byte offset of an LSP position (UTF-16) in `text`.
pub fn offset(text: &str, line: u64, character: u64) -> Option<usize> {
    let mut start = 0;
    for _ in 0..line {
        start += text[start..].find('\n')? + 1;
    }
    let line_text = &text[start
        ..text[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(text.len())];
    let mut units = 0u64;
    for (i, ch) in line_text.char_indices() {
        if units == character {
            return Some(start + i);
        }
        if units > character {
            return None;
        }
        units += ch.len_utf16() as u64;
    }
    (units == character).then_some(start + line_text.len())
}

/// The text a diagnostic's range covers, or `None` when the range is invalid for `text`.
pub fn range_text<'a>(text: &'a str, range: &Value) -> Option<&'a str> {
    let s = offset(
        text,
        range["start"]["line"].as_u64()?,
        range["start"]["character"].as_u64()?,
    )?;
    let e = offset(
        text,
        range["end"]["line"].as_u64()?,
        range["end"]["character"].as_u64()?,
    )?;
    text.get(s..e)
}

/// Apply LSP text edits (non-overlapping) to `text`.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let s = offset(
                text,
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
            )
            .unwrap();
            let en = offset(
                text,
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            )
            .unwrap();
            (s, en, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, &t);
    }
    out
}

/// The LSP position of byte offset `at` (UTF-16).
pub fn position(text: &str, at: usize) -> Value {
    let before = &text[..at];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}
