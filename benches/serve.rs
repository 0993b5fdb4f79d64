//! `cargo bench --bench serve`: `byop serve` (the built binary) on 127.0.0.1 over a store
//! holding 10 000 reports of one document, the evaluator a local fake server answering at
//! once. Prints: the page's first paint in headless Chromium (goal < 200 ms; skipped without
//! node, playwright-core and chromium); `POST /api/evaluate` in screening mode beside the
//! engine's own time for the same kind of document, in process (goal: adds < 20 ms); and
//! the history pages (goal < 300 ms each, 50 rows a page).

#[path = "../tests/support/fake_llm.rs"]
mod fake_llm;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use byop::engine::document::{Companion, CompanionRole};
use byop::engine::runner::RunOptions;
use byop::evaluator::{ApiKey, Evaluator, EvaluatorSettings, ProviderKind};
use byop::model::{Mode, Report};
use byop::store::Store;
use byop::workspace::evaluate::evaluate_and_save;
use byop::workspace::{Request, Resolver};
use fake_llm::{FakeLlm, Script, Step};

const OUTPUT: &str = "# NDA review\n\nThis NDA is fully enforceable and you can sign it without changes. There is no risk in the confidentiality provisions.\n";
const SOURCE: &str =
    "The NDA between the parties. Confidential information is kept secret for two years.";
const STORED: u32 = 10_000;
const DOC: &str = "web:bench";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn byop(work: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_byop"));
    c.current_dir(work)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("DATABASE_URL")
        .env_remove("CI")
        .env("BYOP_DB", work.join("state.db"))
        .env("BYOP_DATA_DIR", work.join("home"))
        .env("BYOP_LOG", "error")
        .env("NO_COLOR", "1");
    c
}

/// The store with 10 000 reports of one document (each its own inputs and time), written
/// under the per-user key `byop check` created; the key, for the engine's own store.
fn seed(work: &Path) -> [u8; 32] {
    let o = byop(work)
        .args(["check", "--mode", "deterministic", "--format", "json"])
        .args(["--fail-on", "never"])
        .arg(root().join("examples/nda_review.ai.md"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let report: Report = serde_json::from_value(v["byop_report"].clone()).unwrap();
    let key = std::fs::read_to_string(work.join("home/store-key")).expect("the per-user key");
    let key: [u8; 32] = hex::decode(key.trim()).unwrap().try_into().unwrap();
    let store = Store::open_with_key(&work.join("state.db"), key).unwrap();
    let many: Vec<Report> = (0..STORED)
        .map(|i| {
            let mut r = report.clone();
            r.report_id = format!("bench-{i:05}-{}", &report.report_id);
            r.integrity.inputs_fingerprint = format!("sha256:{i:064}");
            r.timestamp = format!(
                "2026-01-01T{:02}:{:02}:{:02}Z",
                i / 3600,
                (i / 60) % 60,
                i % 60
            );
            r
        })
        .collect();
    for chunk in many.chunks(500) {
        let batch: Vec<(&str, &Report)> = chunk.iter().map(|r| (DOC, r)).collect();
        store.save_batch(&batch, &[]).unwrap();
    }
    key
}

struct Served {
    child: Child,
    base: String,
    token: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(work: &Path, llm: &str) -> Served {
    let mut child = byop(work)
        .args(["serve", "--port", "0"])
        .env("ANTHROPIC_API_KEY", "bench-key")
        .env("ANTHROPIC_BASE_URL", llm)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("byop serve: ")
        .expect("start-up line");
    let (base, token) = url.split_once("/?token=").unwrap();
    Served {
        base: base.to_string(),
        token: token.to_string(),
        child,
    }
}

/// Median first paint and first contentful paint of `/`, in ms, from Chromium.
fn first_paint(login: &str) -> Option<String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let script = root().join("tests/browser/first_paint.mjs");
    let ready = root()
        .join("tests/browser/node_modules/playwright-core")
        .exists()
        && Path::new(&chromium).exists();
    if !ready {
        return None;
    }
    let o = Command::new("node")
        .arg(script)
        .arg(login)
        .env("CHROMIUM", chromium)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn engine() -> impl Fn(&str) -> EvaluatorSettings {
    |url: &str| EvaluatorSettings {
        provider: ProviderKind::Anthropic,
        model: "claude-sonnet-4-5".into(),
        base_url: Some(url.to_string()),
        api_key: ApiKey::new("bench-key"),
        timeout: Duration::from_secs(30),
        max_retries: 0,
        concurrency: 16,
        max_tokens: 1024,
        backoff_base: Duration::from_millis(10),
        max_response_bytes: byop::evaluator::DEFAULT_MAX_RESPONSE_BYTES,
    }
}

/// The engine's own time for one screening run of `text` (resolve, run, save), in process.
async fn engine_run(ev: &Evaluator, store: &Arc<Store>, text: String) -> f64 {
    let start = Instant::now();
    let mut resolved = Resolver::new()
        .resolve(Request {
            text,
            ..Default::default()
        })
        .unwrap();
    resolved.doc.attach(
        CompanionRole::Source,
        Companion::new(PathBuf::from("<source>"), SOURCE.to_string()),
    );
    resolved.doc.path = Some(PathBuf::from("web:engine"));
    let opts = RunOptions {
        mode: Some(Mode::Screening),
        evaluator: Some(ev.clone()),
        ..Default::default()
    };
    let r = evaluate_and_save(&resolved, Some(store.clone()), "web:engine", opts)
        .await
        .unwrap();
    assert!(r.unevaluated().is_empty(), "every check evaluated");
    start.elapsed().as_secs_f64()
}

async fn timed_get(c: &reqwest::Client, s: &Served, path: &str) -> (f64, usize) {
    let start = Instant::now();
    let r = c
        .get(format!("{}{path}", s.base))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{path}: {}", r.status());
    let n = r.bytes().await.unwrap().len();
    (start.elapsed().as_secs_f64(), n)
}

fn main() {
    let work = tempfile::tempdir().unwrap();
    let key = seed(work.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let llm = rt.block_on(FakeLlm::start(Script::always(vec![Step::pass()])));
    let s = serve(work.path(), &llm.base_url);
    println!("| benchmark | result |\n|---|---|");
    match first_paint(&format!("{}/?token={}", s.base, s.token)) {
        Some(line) => println!(
            "| the page (`/`) in headless Chromium, median of 9 loads | {line} (goal: first paint < 200 ms) |"
        ),
        None => println!(
            "| first paint | skipped: node, tests/browser/node_modules or chromium missing |"
        ),
    }
    let ev = Evaluator::new(engine()(&llm.base_url)).unwrap();
    let own = Arc::new(Store::open_with_key(&work.path().join("engine.db"), key).unwrap());
    let c = reqwest::Client::new();
    let (mut http, mut eng) = (Vec::new(), Vec::new());
    rt.block_on(async {
        for i in 0..33 {
            // A new text each time: a real run on both sides (no cached answer).
            let text = format!("{OUTPUT}\nNote {i} on the schedules.\n");
            let e = engine_run(&ev, &own, format!("{text}(engine)\n")).await;
            let body = serde_json::json!({"output": text, "source": SOURCE, "mode": "screening", "document": "bench-eval"});
            let start = Instant::now();
            let r = c.post(format!("{}/api/evaluate", s.base)).bearer_auth(&s.token).json(&body).send().await.unwrap();
            assert_eq!(r.status(), reqwest::StatusCode::OK);
            let _ = r.bytes().await.unwrap();
            let h = start.elapsed().as_secs_f64();
            if i >= 3 {
                eng.push(e);
                http.push(h);
            }
        }
    });
    let (h, e) = (median(http), median(eng));
    println!(
        "| `POST /api/evaluate`, screening, 6 checks, the evaluator answering at once, median of 30 | {:.1} ms over HTTP; the engine's own time in process {:.1} ms: **adds {:.1} ms** (goal < 20 ms: {}) |",
        h * 1e3,
        e * 1e3,
        (h - e) * 1e3,
        if h - e < 0.02 { "met" } else { "NOT met" }
    );
    rt.block_on(async {
        // The last page as a reader reaches it: the `older` key of each page in turn.
        let mut key: Option<String> = None;
        let mut last = String::new();
        loop {
            let path = match &key {
                Some(k) => format!("/api/history?after={k}"),
                None => "/api/history".to_string(),
            };
            let r = c.get(format!("{}{path}", s.base)).bearer_auth(&s.token).send().await.unwrap();
            let page: serde_json::Value = r.json().await.unwrap();
            match page["older"].as_str() {
                Some(k) => {
                    last = format!("/history?after={k}");
                    key = Some(k.to_string());
                }
                None => break,
            }
        }
        for (what, path) in [
            ("`/history`, the first page", "/history".to_string()),
            ("`/history`, the last page", last.clone()),
            ("`/history?document=…`, the document's page with its drift chart", format!("/history?document={}", DOC.replace(':', "%3A"))),
            ("`GET /api/history`", "/api/history".to_string()),
        ] {
            let mut times = Vec::new();
            let mut size = 0;
            for _ in 0..7 {
                let (t, n) = timed_get(&c, &s, &path).await;
                times.push(t);
                size = n;
            }
            let t = median(times);
            println!(
                "| {what}, {STORED} stored reports, 50 rows a page, median of 7 | **{:.1} ms**, {} KB (goal < 300 ms: {}) |",
                t * 1e3,
                size / 1024,
                if t < 0.3 { "met" } else { "NOT met" }
            );
        }
    });
}
