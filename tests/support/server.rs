//! `byop serve` started by a test: the built binary on an ephemeral port of 127.0.0.1,
//! in a scratch workspace with its own store, the evaluator's base URL pointing at the
//! test's fake server; its start-up line read for the address and the token.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::fake_llm::{Script, Step};
use super::workspace::{KEY, Ws};

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub token: String,
    pub ws: Ws,
}

impl Server {
    /// `byop serve --port 0 ARGS` with `ANTHROPIC_BASE_URL` = `llm` (no key in the
    /// environment: the key comes with the requests).
    pub fn start(llm: Option<&str>, args: &[&str]) -> Server {
        Self::start_in(Ws::new(), llm, args, &[])
    }

    /// [`Server::start`] in a workspace the test prepared, with more environment.
    pub fn start_in(ws: Ws, llm: Option<&str>, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = ws.cmd();
        cmd.envs(env.iter().copied());
        cmd.args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(ws.path("serve.stderr")).unwrap());
        if let Some(url) = llm {
            cmd.env("ANTHROPIC_BASE_URL", url);
        }
        let mut child = cmd.spawn().expect("byop serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("byop serve: ")
            .unwrap_or_else(|| {
                panic!(
                    "no start-up line: {line:?}\n{}",
                    std::fs::read_to_string(ws.path("serve.stderr")).unwrap_or_default()
                )
            })
            .to_string();
        let (base, token) = url.split_once("/?token=").expect("address with token");
        Server {
            child,
            base: base.to_string(),
            token: token.to_string(),
            ws,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The address printed at start-up (with the token).
    pub fn login_url(&self) -> String {
        format!("{}/?token={}", self.base, self.token)
    }

    /// What the server wrote on stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.ws.path("serve.stderr")).unwrap_or_default()
    }

    /// Every byte of the store's files (database, WAL), for leak checks.
    pub fn store_bytes(&self) -> Vec<u8> {
        let mut all = Vec::new();
        for f in std::fs::read_dir(self.ws.dir.path()).unwrap().flatten() {
            if f.file_name().to_string_lossy().starts_with("state.db") {
                all.extend(std::fs::read(f.path()).unwrap_or_default());
            }
        }
        all
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A short AI output the built-in playbook has findings in.
pub const OUTPUT: &str = "# NDA review\n\nThis NDA is fully enforceable and you can sign it without changes. There is no risk in the confidentiality provisions.\n";

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

pub struct Api<'a> {
    pub s: &'a Server,
    pub c: reqwest::Client,
}

impl<'a> Api<'a> {
    pub fn new(s: &'a Server) -> Self {
        Api { s, c: client() }
    }
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self
            .c
            .post(self.s.url(path))
            .bearer_auth(&self.s.token)
            .header("x-evaluator-key", KEY)
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let r = self
            .c
            .get(self.s.url(path))
            .bearer_auth(&self.s.token)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }
}

pub fn evaluate_body(document: &str) -> Value {
    json!({"output": OUTPUT, "source": "The NDA.", "prompt": "Review it.", "mode": "screening", "document": document})
}

pub fn needs_key() -> Script {
    let mut s = Script::always(vec![Step::pass()]);
    s.require_key = Some(KEY.into());
    s
}
