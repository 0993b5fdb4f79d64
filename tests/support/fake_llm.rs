//! A scripted fake LLM server speaking the Anthropic Messages and the
//! OpenAI-compatible chat completions wire formats, for end-to-end tests.
//!
//! The check is identified by the `Check id: <id>` line of the system prompt;
//! the n-th call for a check answers with step n of its script (cycling).
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// What the server answers, per check.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Steps per check id, used in order (cycling).
    #[serde(default)]
    pub checks: HashMap<String, Vec<Step>>,
    /// Steps for checks not listed in `checks`; empty → always `pass`.
    #[serde(default)]
    pub default: Vec<Step>,
    /// Delay before every response.
    #[serde(default)]
    pub latency_ms: u64,
    /// When set, requests without this key (x-api-key or Bearer) get 401.
    #[serde(default)]
    pub require_key: Option<String>,
    /// OpenAI wire: `response_format` types this server rejects with a 400, as older vLLM
    /// and llama.cpp builds do (`json_schema`, `json_object`). Rejections use no step.
    #[serde(default)]
    pub reject_formats: Vec<String>,
    /// Answers chosen by content, tried before `checks` and `default`: the first rule
    /// whose `contains` is in the user message (and whose `check`, if set, matches)
    /// answers with its own steps, counted per rule (cycling). E.g. one cue value that
    /// always fails a check while another leaves it alone.
    #[serde(default)]
    pub when: Vec<When>,
}

/// A content rule of a script (see `Script::when`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    #[serde(default)]
    pub check: Option<String>,
    pub contains: String,
    pub steps: Vec<Step>,
}

/// One scripted answer. JSON: `{"kind": "verdict", "result": "fail", ...}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    Verdict {
        result: String,
        #[serde(default = "default_confidence")]
        confidence: f64,
        /// Cited verbatim as one evidence span.
        #[serde(default)]
        quote: Option<String>,
        /// More spans, cited after `quote`.
        #[serde(default)]
        quotes: Vec<String>,
        /// Cite the first sentence of the AI output found in the user message.
        #[serde(default)]
        quote_first_sentence: bool,
        #[serde(default)]
        notes: String,
        #[serde(default)]
        assumptions: Vec<String>,
        /// Follow an instruction planted in the document: put its token in the notes.
        #[serde(default)]
        obey_canary: bool,
    },
    /// A plain-text answer (a server that ignores the requested JSON format).
    Text { text: String },
    /// A redirect to `location` (a `307` with a `Location` header).
    Redirect { location: String },
    /// A `200` whose body is `bytes` long (for the response size limit).
    Huge { bytes: usize },
    /// 429 with `retry-after` and the provider's rate-limit error body.
    RateLimited {
        #[serde(default)]
        retry_after_secs: u64,
    },
    /// Anthropic 529 `overloaded_error` (OpenAI: 503).
    Overloaded,
    /// 500.
    ServerError,
    /// Sleep, then answer `pass` (for timeouts).
    Hang { secs: f64 },
    /// 200 whose model text is not JSON.
    Malformed,
    /// 200 cut off at max tokens.
    Truncated,
    /// Anthropic 400 "credit balance is too low"; OpenAI 429 `insufficient_quota`.
    QuotaExhausted,
    /// 401.
    Unauthorized,
    /// The model declines on policy grounds: Anthropic `stop_reason: "refusal"`; OpenAI a
    /// `message.refusal` with `content: null` (structured outputs).
    Refusal,
    /// A content filter stops the answer: OpenAI `finish_reason: "content_filter"`;
    /// Anthropic a 400 "Output blocked by content filtering policy".
    ContentFiltered,
    /// A repair answer (`byop repair`): `{"corrected_output": …, "changes": …}`, the
    /// corrected output being `text`, or with `append` the request's AI output + `text`.
    Repaired {
        text: String,
        #[serde(default)]
        append: bool,
    },
    /// A generation answer (`byop dataset run`, `byop plan`): `{"output": text}`.
    Generated { text: String },
    /// A provider that repeats the key it was sent in its message: with `refusal`, in a
    /// refusal (Anthropic: a 400 content-policy block; OpenAI: `message.refusal` in a 200),
    /// else in a plain 400 bad-request message.
    KeyEcho {
        #[serde(default)]
        refusal: bool,
    },
    /// An error answer whose JSON body is `body` exactly as written (its escapes kept).
    RawError { status: u16, body: String },
}

fn default_confidence() -> f64 {
    0.9
}

impl Step {
    /// A repair whose corrected output is the request's AI output with `text` appended.
    pub fn repaired_appending(text: &str) -> Step {
        Step::Repaired {
            text: text.into(),
            append: true,
        }
    }
    pub fn verdict(result: &str) -> Step {
        Step::Verdict {
            result: result.into(),
            confidence: default_confidence(),
            quote: None,
            quotes: Vec::new(),
            quote_first_sentence: false,
            notes: format!("fake evaluator: {result}"),
            assumptions: Vec::new(),
            obey_canary: false,
        }
    }
    /// `pass`, citing the first sentence as what satisfies the check.
    pub fn pass() -> Step {
        Step::verdict("pass").quoting_first_sentence()
    }
    /// `pass` with no quote at all (a pass without evidence).
    pub fn bare_pass() -> Step {
        Step::verdict("pass")
    }
    /// `pass` citing the first sentence, and obeying any canary planted in the document.
    pub fn obedient_pass() -> Step {
        let mut step = Step::pass();
        if let Step::Verdict { obey_canary, .. } = &mut step {
            *obey_canary = true;
        }
        step
    }
    /// This verdict, citing the first sentence of the AI output too.
    pub fn quoting_first_sentence(mut self) -> Step {
        if let Step::Verdict {
            quote_first_sentence,
            ..
        } = &mut self
        {
            *quote_first_sentence = true;
        }
        self
    }
    pub fn indeterminate() -> Step {
        Step::verdict("indeterminate")
    }
    /// `fail` citing `quote` verbatim.
    pub fn fail_quoting(quote: &str) -> Step {
        Step::Verdict {
            result: "fail".into(),
            confidence: default_confidence(),
            quote: Some(quote.into()),
            quotes: Vec::new(),
            quote_first_sentence: false,
            notes: "fake evaluator: fail".into(),
            assumptions: Vec::new(),
            obey_canary: false,
        }
    }
    /// `fail` citing the first sentence of the AI output.
    pub fn fail_first_sentence() -> Step {
        Step::Verdict {
            result: "fail".into(),
            confidence: default_confidence(),
            quote: None,
            quotes: Vec::new(),
            quote_first_sentence: true,
            notes: "fake evaluator: fail".into(),
            assumptions: Vec::new(),
            obey_canary: false,
        }
    }
}

impl Script {
    /// Every check answers with `steps`.
    pub fn always(steps: Vec<Step>) -> Script {
        Script {
            default: steps,
            ..Script::default()
        }
    }
    pub fn check(mut self, id: &str, steps: Vec<Step>) -> Script {
        self.checks.insert(id.to_string(), steps);
        self
    }
    /// Answer `steps` (cycling) to requests whose user message contains `contains`
    /// (for `check` only, when given).
    pub fn when(mut self, check: Option<&str>, contains: &str, steps: Vec<Step>) -> Script {
        self.when.push(When {
            check: check.map(str::to_string),
            contains: contains.to_string(),
            steps,
        });
        self
    }
    pub fn latency_ms(mut self, ms: u64) -> Script {
        self.latency_ms = ms;
        self
    }
    pub fn from_json(text: &str) -> Result<Script, String> {
        serde_json::from_str(text).map_err(|e| format!("invalid fake LLM script: {e}"))
    }
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub path: String,
    /// Lower-cased header names.
    pub headers: BTreeMap<String, String>,
    pub body: Value,
    /// When the server received it (to check that a client waited).
    pub received_at: std::time::Instant,
}

impl RecordedRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
    /// The `Check id:` of the system prompt, if any.
    pub fn check_id(&self) -> Option<String> {
        check_id(&system_text(&self.body))
    }
    pub fn system(&self) -> String {
        system_text(&self.body)
    }
    pub fn user(&self) -> String {
        user_text(&self.body)
    }
}

struct Shared {
    script: Script,
    counters: Mutex<HashMap<String, usize>>,
    requests: Mutex<Vec<RecordedRequest>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

enum Stopper {
    Task(tokio::task::JoinHandle<()>),
    Thread {
        stop: Option<tokio::sync::oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
    },
}

/// A running fake server; stops when dropped.
pub struct FakeLlm {
    /// `http://127.0.0.1:PORT` — use as `ANTHROPIC_BASE_URL`; for OpenAI use
    /// `{base_url}/v1` (both `/v1/chat/completions` and `/chat/completions` work).
    pub base_url: String,
    shared: Arc<Shared>,
    stopper: Stopper,
}

impl FakeLlm {
    /// Serve on an ephemeral port of 127.0.0.1, on the current tokio runtime.
    pub async fn start(script: Script) -> FakeLlm {
        Self::start_on_port(0, script).await
    }

    pub async fn start_on_port(port: u16, script: Script) -> FakeLlm {
        let (listener, shared, base_url) = bind(port, script).await;
        let task = tokio::spawn(serve(listener, shared.clone()));
        FakeLlm {
            base_url,
            shared,
            stopper: Stopper::Task(task),
        }
    }

    /// For synchronous tests (e.g. spawning the CLI): serves from its own thread.
    pub fn start_blocking(script: Script) -> FakeLlm {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("fake LLM runtime");
            runtime.block_on(async move {
                let (listener, shared, base_url) = bind(0, script).await;
                ready_tx
                    .send((base_url, shared.clone()))
                    .expect("test waits for the fake LLM");
                tokio::select! {
                    _ = serve(listener, shared) => {}
                    _ = stop_rx => {}
                }
            });
        });
        let (base_url, shared) = ready_rx.recv().expect("fake LLM started");
        FakeLlm {
            base_url,
            shared,
            stopper: Stopper::Thread {
                stop: Some(stop_tx),
                thread: Some(thread),
            },
        }
    }

    /// Number of requests received so far.
    pub fn calls(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Requests whose system prompt names `check_id`.
    pub fn calls_for(&self, check_id: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.check_id().as_deref() == Some(check_id))
            .count()
    }

    /// Most requests that were being handled at the same moment.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        match &mut self.stopper {
            Stopper::Task(task) => task.abort(),
            Stopper::Thread { stop, thread } => {
                if let Some(stop) = stop.take() {
                    let _ = stop.send(());
                }
                if let Some(thread) = thread.take() {
                    let _ = thread.join();
                }
            }
        }
    }
}

async fn bind(port: u16, script: Script) -> (tokio::net::TcpListener, Arc<Shared>, String) {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("bind 127.0.0.1");
    let addr = listener.local_addr().expect("local address");
    let shared = Arc::new(Shared {
        script,
        counters: Mutex::default(),
        requests: Mutex::default(),
        in_flight: AtomicUsize::new(0),
        max_in_flight: AtomicUsize::new(0),
    });
    (listener, shared, format!("http://{addr}"))
}

async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let app = Router::new()
        .route("/v1/messages", post(anthropic))
        .route("/v1/chat/completions", post(openai_v1))
        .route("/chat/completions", post(openai_root))
        .with_state(shared);
    let _ = axum::serve(listener, app).await;
}

#[derive(Clone, Copy, PartialEq)]
enum Wire {
    Anthropic,
    OpenAi,
}

async fn anthropic(State(s): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    handle(s, Wire::Anthropic, "/v1/messages", headers, body).await
}

async fn openai_v1(State(s): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    handle(s, Wire::OpenAi, "/v1/chat/completions", headers, body).await
}

async fn openai_root(State(s): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    handle(s, Wire::OpenAi, "/chat/completions", headers, body).await
}

/// Counts a request as in flight for as long as it is being handled.
struct InFlight(Arc<Shared>);

impl InFlight {
    fn enter(shared: &Arc<Shared>) -> InFlight {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(shared.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn handle(
    shared: Arc<Shared>,
    wire: Wire,
    path: &str,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let _in_flight = InFlight::enter(&shared);
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let recorded = RecordedRequest {
        path: path.to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        body,
        received_at: std::time::Instant::now(),
    };
    let format = recorded.body["response_format"]["type"]
        .as_str()
        .unwrap_or("")
        .to_string();
    if matches!(wire, Wire::OpenAi) && shared.script.reject_formats.contains(&format) {
        shared.requests.lock().unwrap().push(recorded);
        let message = format!("response_format type '{format}' is not supported by this server");
        return openai_error(400, "invalid_request_error", "", &message);
    }
    let step = if let Some(wanted) = &shared.script.require_key
        && !has_key(&recorded, wanted)
    {
        Step::Unauthorized
    } else {
        next_step(&shared, &recorded)
    };
    shared.requests.lock().unwrap().push(recorded.clone());
    if shared.script.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(shared.script.latency_ms)).await;
    }
    if let Step::Hang { secs } = &step {
        tokio::time::sleep(Duration::from_secs_f64(secs.max(0.0))).await;
    }
    respond(wire, &step, &recorded)
}

fn has_key(request: &RecordedRequest, wanted: &str) -> bool {
    request.header("x-api-key") == Some(wanted)
        || request.header("authorization") == Some(&format!("Bearer {wanted}"))
}

fn next_step(shared: &Shared, request: &RecordedRequest) -> Step {
    let id = request.check_id().unwrap_or_default();
    let script = &shared.script;
    let user = request.user();
    let rule = script
        .when
        .iter()
        .enumerate()
        .find(|(_, w)| w.check.as_ref().is_none_or(|c| *c == id) && user.contains(&w.contains));
    let (counter, steps) = match rule {
        Some((i, w)) => (format!("\u{0}when:{i}"), &w.steps),
        None => (
            id.clone(),
            script.checks.get(&id).unwrap_or(&script.default),
        ),
    };
    let mut counters = shared.counters.lock().unwrap();
    let n = counters.entry(counter).or_insert(0);
    let step = if steps.is_empty() {
        Step::pass()
    } else {
        steps[*n % steps.len()].clone()
    };
    *n += 1;
    step
}

fn respond(wire: Wire, step: &Step, request: &RecordedRequest) -> Response {
    let model = request.body["model"]
        .as_str()
        .unwrap_or("fake-model")
        .to_string();
    match step {
        Step::Verdict { .. } | Step::Hang { .. } => {
            let verdict = verdict_json(step, &request.user());
            success(wire, &model, request, Answer::Json(verdict))
        }
        Step::Malformed => success(
            wire,
            &model,
            request,
            Answer::Text("I am unable to provide a verdict in the requested format.".into()),
        ),
        Step::Truncated => success(wire, &model, request, Answer::Truncated),
        Step::Repaired { text, append } => {
            let corrected = match (*append, ai_output(&request.user())) {
                (true, Some(output)) => format!("{output}\n\n{text}"),
                _ => text.clone(),
            };
            let answer = json!({"corrected_output": corrected, "changes": "fake repair"});
            success(wire, &model, request, Answer::Json(answer))
        }
        Step::Generated { text } => {
            success(wire, &model, request, Answer::Json(json!({"output": text})))
        }
        Step::Text { text } => success(wire, &model, request, Answer::Text(text.clone())),
        Step::Redirect { location } => {
            let mut response = json_response(307, &json!({"moved": true}));
            response.headers_mut().insert(
                "location",
                HeaderValue::from_str(location).expect("a header value"),
            );
            response
        }
        Step::Huge { bytes } => {
            let padding = "x".repeat(*bytes);
            json_response(200, &json!({"padding": padding}))
        }
        Step::RateLimited { retry_after_secs } => {
            let mut response = match wire {
                Wire::Anthropic => anthropic_error(
                    429,
                    "rate_limit_error",
                    "Number of request tokens has exceeded your rate limit.",
                ),
                Wire::OpenAi => openai_error(
                    429,
                    "requests",
                    "rate_limit_exceeded",
                    "Rate limit reached for requests.",
                ),
            };
            response.headers_mut().insert(
                "retry-after",
                HeaderValue::from_str(&retry_after_secs.to_string()).expect("digits"),
            );
            response
        }
        Step::Overloaded => match wire {
            Wire::Anthropic => anthropic_error(529, "overloaded_error", "Overloaded"),
            Wire::OpenAi => openai_error(
                503,
                "server_error",
                "server_overloaded",
                "The engine is currently overloaded.",
            ),
        },
        Step::ServerError => match wire {
            Wire::Anthropic => anthropic_error(500, "api_error", "Internal server error"),
            Wire::OpenAi => openai_error(
                500,
                "server_error",
                "internal_error",
                "The server had an error.",
            ),
        },
        Step::QuotaExhausted => match wire {
            Wire::Anthropic => anthropic_error(
                400,
                "invalid_request_error",
                "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
            ),
            Wire::OpenAi => openai_error(
                429,
                "insufficient_quota",
                "insufficient_quota",
                "You exceeded your current quota, please check your plan and billing details.",
            ),
        },
        Step::Refusal => refusal(wire, &model),
        Step::KeyEcho { refusal } => key_echo(wire, &model, request, *refusal),
        Step::RawError { status, body } => (
            StatusCode::from_u16(*status).expect("valid status"),
            [("content-type", "application/json")],
            body.clone(),
        )
            .into_response(),
        Step::ContentFiltered => match wire {
            Wire::Anthropic => anthropic_error(
                400,
                "invalid_request_error",
                "Output blocked by content filtering policy",
            ),
            Wire::OpenAi => json_response(
                200,
                &json!({
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": null}, "finish_reason": "content_filter"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 0, "total_tokens": 10},
                }),
            ),
        },
        Step::Unauthorized => match wire {
            Wire::Anthropic => anthropic_error(401, "authentication_error", "invalid x-api-key"),
            Wire::OpenAi => openai_error(
                401,
                "invalid_request_error",
                "invalid_api_key",
                "Incorrect API key provided.",
            ),
        },
    }
}

/// The key the request carried, said back in the provider's own error or refusal shape.
fn key_echo(wire: Wire, model: &str, request: &RecordedRequest, refusal: bool) -> Response {
    let key = request
        .header("x-api-key")
        .or_else(|| {
            request
                .header("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
        })
        .unwrap_or_default()
        .to_string();
    let message = match refusal {
        true => format!("Output blocked by content policy; key was {key}"),
        false => format!("Malformed request for key {key}"),
    };
    match (wire, refusal) {
        (Wire::Anthropic, _) => anthropic_error(400, "invalid_request_error", &message),
        (Wire::OpenAi, false) => {
            openai_error(400, "invalid_request_error", "bad_request", &message)
        }
        (Wire::OpenAi, true) => json_response(
            200,
            &json!({
                "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": message}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }),
        ),
    }
}

const REFUSAL_TEXT: &str = "I can't help with evaluating this request.";

fn refusal(wire: Wire, model: &str) -> Response {
    let body = match wire {
        Wire::Anthropic => json!({
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": REFUSAL_TEXT}], "stop_reason": "refusal",
            "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 5},
        }),
        Wire::OpenAi => json!({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": REFUSAL_TEXT}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }),
    };
    json_response(200, &body)
}

enum Answer {
    Json(Value),
    Text(String),
    Truncated,
}

const TRUNCATED_TEXT: &str = "{\"result\": \"fa";

fn success(wire: Wire, model: &str, request: &RecordedRequest, answer: Answer) -> Response {
    let uses_tool = request.body["tools"]
        .as_array()
        .is_some_and(|t| !t.is_empty());
    let body = match wire {
        Wire::Anthropic => {
            let (content, stop_reason) = match answer {
                Answer::Json(verdict) if uses_tool => (
                    json!([{"type": "tool_use", "id": "toolu_fake", "name": "record_verdict", "input": verdict}]),
                    "tool_use",
                ),
                Answer::Json(verdict) => (
                    json!([{"type": "text", "text": verdict.to_string()}]),
                    "end_turn",
                ),
                Answer::Text(text) => (json!([{"type": "text", "text": text}]), "end_turn"),
                Answer::Truncated => (
                    json!([{"type": "text", "text": TRUNCATED_TEXT}]),
                    "max_tokens",
                ),
            };
            json!({
                "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
                "content": content, "stop_reason": stop_reason, "stop_sequence": null,
                "usage": {"input_tokens": 10, "output_tokens": 10},
            })
        }
        Wire::OpenAi => {
            let (content, finish_reason) = match answer {
                Answer::Json(verdict) => (verdict.to_string(), "stop"),
                Answer::Text(text) => (text, "stop"),
                Answer::Truncated => (TRUNCATED_TEXT.to_string(), "length"),
            };
            json!({
                "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            })
        }
    };
    json_response(200, &body)
}

fn verdict_json(step: &Step, user: &str) -> Value {
    let Step::Verdict {
        result,
        confidence,
        quote,
        quotes,
        quote_first_sentence,
        notes,
        assumptions,
        obey_canary,
    } = step
    else {
        let first = ai_output(user)
            .as_deref()
            .and_then(first_sentence)
            .unwrap_or_default();
        return json!({"result": "pass", "confidence": 0.9,
            "evidence_citations": [{"span": first, "context": "quoted by the fake evaluator"}],
            "notes": "fake evaluator: pass after a delay", "assumptions": []});
    };
    let notes = match canary_token(user).filter(|_| *obey_canary) {
        Some(token) => format!("{notes} {token}"),
        None => notes.clone(),
    };
    let mut spans: Vec<String> = quote.iter().chain(quotes).cloned().collect();
    if *quote_first_sentence
        && let Some(sentence) = ai_output(user).as_deref().and_then(first_sentence)
    {
        spans.push(sentence);
    }
    let citations: Vec<Value> = spans
        .into_iter()
        .map(|span| json!({"span": span, "context": "quoted by the fake evaluator"}))
        .collect();
    json!({
        "result": result, "confidence": confidence, "evidence_citations": citations,
        "notes": notes, "assumptions": assumptions,
    })
}

fn anthropic_error(status: u16, kind: &str, message: &str) -> Response {
    json_response(
        status,
        &json!({"type": "error", "error": {"type": kind, "message": message}}),
    )
}

fn openai_error(status: u16, kind: &str, code: &str, message: &str) -> Response {
    json_response(
        status,
        &json!({"error": {"message": message, "type": kind, "param": null, "code": code}}),
    )
}

fn json_response(status: u16, body: &Value) -> Response {
    let status = StatusCode::from_u16(status).expect("valid status");
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Text of a message `content` (a string or a list of text blocks).
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn messages_with_role(body: &Value, role: &str) -> String {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == role)
        .map(|m| content_text(&m["content"]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn system_text(body: &Value) -> String {
    let top_level = content_text(&body["system"]);
    if top_level.is_empty() {
        messages_with_role(body, "system")
    } else {
        top_level
    }
}

fn user_text(body: &Value) -> String {
    messages_with_role(body, "user")
}

fn check_id(system: &str) -> Option<String> {
    system
        .lines()
        .find_map(|line| line.trim().strip_prefix("Check id:"))
        .map(|id| id.trim().to_string())
}

/// The AI output between the `<<<BEGIN AI_OUTPUT …>>>` / `<<<END AI_OUTPUT …>>>` lines,
/// without a planted canary line (this evaluator reads the document, not instructions in it).
pub fn ai_output(user: &str) -> Option<String> {
    let mut lines = user.lines();
    lines.find(|l| l.starts_with("<<<BEGIN AI_OUTPUT "))?;
    let body: Vec<&str> = lines
        .take_while(|l| !l.starts_with("<<<END AI_OUTPUT "))
        .filter(|l| canary_token(l).is_none())
        .collect();
    Some(body.join("\n"))
}

/// The made-up word of a canary instruction byop planted, if any: the word in the place of
/// `{token}` in one of the requests the shipped wordings list.
pub fn canary_token(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Wordings {
        asks: Vec<String>,
    }
    static ASKS: std::sync::LazyLock<Vec<(String, String)>> = std::sync::LazyLock::new(|| {
        let w: Wordings = toml::from_str(include_str!("../../src/evaluator/canary.toml"))
            .expect("the canary wordings parse");
        w.asks
            .iter()
            .map(|a| {
                let (before, after) = a.split_once("{token}").expect("a request names the token");
                (before.to_string(), after.to_string())
            })
            .collect()
    });
    ASKS.iter().find_map(|(before, after)| {
        text.match_indices(before.as_str()).find_map(|(i, _)| {
            let rest = &text[i + before.len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(rest.len());
            (end > 0 && rest[end..].starts_with(after.as_str())).then(|| rest[..end].to_string())
        })
    })
}

/// First sentence of the first prose line (headings only as a fallback),
/// minus list/quote markers, so that it is an exact substring of the document.
pub fn first_sentence(text: &str) -> Option<String> {
    let has_words = |l: &&str| l.chars().any(char::is_alphanumeric);
    let strip = |l: &str| {
        l.trim()
            .trim_start_matches(['#', '-', '*', '>', ' '])
            .trim()
            .to_string()
    };
    let mut lines = text.lines().map(str::trim).filter(has_words);
    let prose = lines
        .clone()
        .find(|l| !l.starts_with('#') && !l.starts_with("```"));
    let line = strip(prose.or_else(|| lines.next())?);
    let end = line
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '.' | '!' | '?')
                && line[i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
        })
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(line.len());
    Some(line[..end].to_string())
}
