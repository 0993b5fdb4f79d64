//! `byop serve` over HTTP: the built binary, every API endpoint's success and error
//! shapes, the token, host and CSRF checks, the run events, and the key kept out of every
//! answer, log and the store. The evaluator is the local fake server (real wire formats).

mod support;

use reqwest::StatusCode;
use serde_json::{Value, json};

use support::fake_llm::{FakeLlm, Script, Step};
use support::server::Server;
use support::workspace::KEY;

const OUTPUT: &str = "# NDA review\n\nThis NDA is fully enforceable and you can sign it without changes. There is no risk in the confidentiality provisions.\n";

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

struct Api<'a> {
    s: &'a Server,
    c: reqwest::Client,
}

impl<'a> Api<'a> {
    fn new(s: &'a Server) -> Self {
        Api { s, c: client() }
    }
    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
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
    async fn get(&self, path: &str) -> (StatusCode, Value) {
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

fn evaluate_body(document: &str) -> Value {
    json!({"output": OUTPUT, "source": "The NDA.", "prompt": "Review it.", "mode": "screening", "document": document})
}

fn needs_key() -> Script {
    let mut s = Script::always(vec![Step::pass()]);
    s.require_key = Some(KEY.into());
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluate_runs_the_playbook_saves_the_report_and_never_echoes_the_key() {
    let llm = FakeLlm::start(needs_key()).await;
    let s = Server::start(Some(&llm.base_url), &[]);
    let api = Api::new(&s);
    let (status, body) = api.post("/api/evaluate", evaluate_body("memo")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let r = &body["byop_report"];
    assert_eq!(r["execution_mode"], "screening");
    assert_eq!(r["document"]["path"], "web:memo");
    assert!(llm.calls() > 0, "the evaluator was called");
    let id = r["report_id"].as_str().unwrap().to_string();
    // The stored report is the one answered; the history lists it under the document.
    let (status, stored) = api.get(&format!("/api/reports/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored["byop_report"], *r);
    let (_, history) = api.get("/api/history?document=web:memo").await;
    assert_eq!(history["total"], 1, "{history}");
    assert_eq!(history["rows"][0]["report_id"], id.as_str());
    // The key was sent to the evaluator, and nowhere else.
    assert!(
        llm.requests()
            .iter()
            .all(|q| q.header("x-api-key") == Some(KEY))
    );
    let everything = format!("{body}{stored}{history}");
    assert!(!everything.contains(KEY));
    assert!(!s.stderr().contains(KEY), "{}", s.stderr());
    let store = s.store_bytes();
    assert!(!store.is_empty());
    assert!(
        !store.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
        "key in the store"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unavailable_evaluator_answers_503_with_the_fail_closed_report() {
    // No key anywhere: the semantic checks are not evaluated.
    let llm = FakeLlm::start(needs_key()).await;
    let s = Server::start(Some(&llm.base_url), &[]);
    let r = client()
        .post(s.url("/api/evaluate"))
        .bearer_auth(&s.token)
        .json(&evaluate_body("nokey"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "evaluator_unavailable", "{body}");
    let results = body["byop_report"]["check_results"].as_array().unwrap();
    assert!(
        results.iter().any(|c| c["result"] == "indeterminate"),
        "{body}"
    );
    assert!(
        results
            .iter()
            .all(|c| c["result"] != "pass" || c["detection_type"] != "semantic")
    );
    assert_eq!(llm.calls(), 0);

    // An overloaded evaluator (529 on every attempt): fail-closed, 503.
    let overloaded = FakeLlm::start(Script::always(vec![Step::Overloaded])).await;
    let s = Server::start(Some(&overloaded.base_url), &[]);
    let (status, body) = Api::new(&s)
        .post("/api/evaluate", evaluate_body("busy"))
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "evaluator_unavailable");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("overloaded"),
        "{body}"
    );
    assert!(body["byop_report"]["report_id"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_name_the_field_and_keep_the_error_shape() {
    let s = Server::start(None, &[]);
    let api = Api::new(&s);
    let cases = [
        (json!({"output": "  "}), "output"),
        (json!({"output": "x", "mode": "quick"}), "mode"),
        (
            json!({"output": "x", "playbook": "../../etc/passwd"}),
            "playbook",
        ),
        (json!({"output": "x", "colour": "red"}), "colour"),
        (json!({"source": "x"}), "output"),
        (json!({"output": "x", "document": "a\u{7}b"}), "document"),
    ];
    for (body, field) in cases {
        let (status, e) = api.post("/api/evaluate", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {e}");
        assert_eq!(e["error"]["code"], "bad_request");
        assert_eq!(e["error"]["field"], field, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    // Not JSON, too large, unknown report, unknown route, unknown format.
    let r = client()
        .post(s.url("/api/evaluate"))
        .bearer_auth(&s.token)
        .body("output=x")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let huge = json!({"output": "x".repeat(9 * 1024 * 1024)});
    let (status, e) = api.post("/api/evaluate", huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    assert_eq!(e["error"]["code"], "too_large");
    let (status, e) = api.get("/api/reports/0123456789abcdef").await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, e) = api
        .post("/api/compare", json!({"a": "feedbeef", "b": ""}))
        .await;
    assert!(
        status == StatusCode::NOT_FOUND || status == StatusCode::BAD_REQUEST,
        "{e}"
    );
    assert!(
        e["error"]["field"] == "a" || e["error"]["field"] == "b",
        "{e}"
    );
    let (status, e) = api.post("/api/baseline", json!({})).await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("report_id"))
    );
    let (status, _) = api.get("/api/nothing-here").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_host_origin_and_csrf_are_checked() {
    let s = Server::start(None, &[]);
    let c = client();
    // No token, a wrong token.
    let r = c.get(s.url("/api/history")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "unauthorized");
    let r = c
        .get(s.url("/api/history"))
        .bearer_auth("nope")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = c.get(s.url("/")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = c
        .get(format!("{}/?token=wrong", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    // A rebinding attacker's host name, even with the token.
    let r = c
        .get(s.url("/api/history"))
        .bearer_auth(&s.token)
        .header("host", "attacker.example:80")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // The token opens a session: a cookie, and the page without the token in its address.
    let r = c.get(s.login_url()).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(r.headers()["location"], "/");
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let cookie = cookie.split(';').next().unwrap().to_string();
    let page = c
        .get(s.url("/"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    let html = page.text().await.unwrap();
    let csrf = html
        .split("name=\"byop-csrf\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    assert_eq!(csrf.len(), 64);
    assert!(
        !html.contains(&s.token),
        "the page does not carry the token"
    );
    // A state change with the cookie: refused without the CSRF header or from another origin.
    let run = |csrf: Option<&str>, origin: &str| {
        let mut q = c
            .post(s.url("/api/evaluate"))
            .header("cookie", &cookie)
            .header("origin", origin)
            .json(&json!({"output": OUTPUT, "mode": "deterministic"}));
        if let Some(t) = csrf {
            q = q.header("x-byop-csrf", t);
        }
        q.send()
    };
    let own = s.base.clone();
    assert_eq!(
        run(None, &own).await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        run(Some("0000"), &own).await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    let r = run(Some(&csrf), "http://evil.example").await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = run(Some(&csrf), &own).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_stream_progress_then_the_report_and_can_be_cancelled() {
    let llm = FakeLlm::start(needs_key().latency_ms(150)).await;
    let s = Server::start(Some(&llm.base_url), &[]);
    let api = Api::new(&s);
    let (status, started) = api.post("/api/runs", evaluate_body("streamed")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    let events = api
        .c
        .get(s.url(started["events"].as_str().unwrap()))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert!(
        events.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let text = events.text().await.unwrap();
    assert!(text.contains("event: progress"), "{text}");
    assert!(text.contains("check 1/"), "{text}");
    let done = text
        .split("event: done\ndata: ")
        .nth(1)
        .expect("a done event");
    let done: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    let id = done["report_id"].as_str().unwrap();
    assert_eq!(
        api.get(&format!("/api/reports/{id}")).await.0,
        StatusCode::OK
    );

    // A slow evaluator, cancelled: the run ends `cancelled`.
    let slow = FakeLlm::start(Script::always(vec![Step::Hang { secs: 30.0 }])).await;
    let s = Server::start(Some(&slow.base_url), &[]);
    let api = Api::new(&s);
    let (_, started) = api.post("/api/runs", evaluate_body("slow")).await;
    let run = started["run_id"].as_str().unwrap();
    let (status, _) = api
        .post(&format!("/api/runs/{run}/cancel"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let text = api
        .c
        .get(s.url(&format!("/api/runs/{run}/events")))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("event: cancelled"), "{text}");
    let (status, _) = api.post("/api/runs/unknown/cancel", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn baseline_compare_history_filters_and_exports() {
    let llm = FakeLlm::start(needs_key()).await;
    let s = Server::start(Some(&llm.base_url), &[]);
    let api = Api::new(&s);
    let (_, first) = api.post("/api/evaluate", evaluate_body("contract")).await;
    let a = first["byop_report"]["report_id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, saved) = api.post("/api/baseline", json!({"report_id": a})).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["document"], "web:contract");
    let mut second = evaluate_body("contract");
    second["output"] = json!(format!("{OUTPUT}\nWe did not review the schedules."));
    let (_, second) = api.post("/api/evaluate", second).await;
    let b = second["byop_report"]["report_id"]
        .as_str()
        .unwrap()
        .to_string();
    api.post("/api/evaluate", evaluate_body("other")).await;

    let (_, h) = api.get("/api/history?document=web:contract").await;
    assert_eq!(h["total"], 2, "{h}");
    let baseline_rows: Vec<&Value> = h["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["is_baseline"] == true)
        .collect();
    assert_eq!(baseline_rows.len(), 1);
    assert_eq!(baseline_rows[0]["report_id"], a.as_str());
    let (_, all) = api.get("/api/history?mode=SCREENING&limit=1").await;
    assert_eq!(
        (all["total"].as_u64(), all["rows"].as_array().unwrap().len()),
        (Some(3), 1)
    );
    let (_, none) = api.get("/api/history?status=NOPE").await;
    assert_eq!(none["total"], 0);

    let (status, diff) = api.post("/api/compare", json!({"a": a, "b": b})).await;
    assert_eq!(status, StatusCode::OK, "{diff}");
    assert_eq!(diff["a"]["report_id"], a.as_str(), "{diff}");

    let r = api
        .c
        .get(s.url(&format!("/api/reports/{b}?format=sarif&download=1")))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(
        r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("byop-{b}.sarif"))
    );
    let sarif: Value = r.json().await.unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let r = api
        .c
        .get(s.url(&format!("/api/reports/{b}?format=html")))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    let csp = r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.starts_with("sandbox") && csp.contains("frame-ancestors 'self'"),
        "{csp}"
    );
    let html = r.text().await.unwrap();
    assert!(
        html.contains("id=\"drift\""),
        "the baseline's drift is shown"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_lists_every_route_and_each_answers() {
    let s = Server::start(None, &[]);
    let api = Api::new(&s);
    let (status, doc) = api.get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/api/evaluate",
        "/api/runs",
        "/api/runs/{id}/events",
        "/api/runs/{id}/cancel",
        "/api/history",
        "/api/reports/{id}",
        "/api/compare",
        "/api/baseline",
        "/api/playbooks",
        "/api/openapi.json",
    ] {
        assert!(paths.contains_key(p), "{p} undocumented");
    }
    // Every documented operation is routed: none answers 404 for "no such route" or 405.
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            let url = s.url(&path.replace("{id}", "x"));
            let q = match method.as_str() {
                "get" => api.c.get(url),
                "post" => api.c.post(url).json(&json!({})),
                m => panic!("undocumented method {m}"),
            };
            let r = q.bearer_auth(&s.token).send().await.unwrap();
            let status = r.status();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                !body["error"]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("no such API route"),
                "{method} {path}"
            );
        }
    }
    let (_, p) = api.get("/api/playbooks").await;
    let ids: Vec<&str> = p["playbooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"ai_plugin_observability_v1") && ids.contains(&"planproof_v1"),
        "{ids:?}"
    );
}

#[test]
fn a_non_loopback_address_needs_allow_remote() {
    let ws = support::workspace::Ws::new();
    let o = ws.run(&["serve", "--host", "0.0.0.0", "--port", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let err = support::workspace::stderr(&o);
    assert!(
        err.contains("not a loopback address") && err.contains("--allow-remote"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pasted_text_reads_no_files_and_chooses_no_playbook() {
    let s = Server::start(None, &[]);
    s.ws.write(
        "lenient.json",
        r#"{"id":"lenient","version":"1","checks":[]}"#,
    );
    let output = format!(
        "---\nbyop:\n  source: /etc/passwd\n  prompt: nda_review.prompt.txt\n  playbook: lenient.json\n---\n{OUTPUT}"
    );
    let (status, body) = Api::new(&s)
        .post(
            "/api/evaluate",
            json!({"output": output, "mode": "deterministic"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let r = &body["byop_report"];
    assert_eq!(r["playbook_id"], "ai_plugin_observability_v1");
    assert!(r["document"]["source_path"].is_null(), "{r}");
    let notices = r["notices"].to_string();
    assert!(notices.contains("were not read"), "{notices}");
    assert!(
        !body.to_string().contains("root:x:0"),
        "nothing of /etc/passwd"
    );
    // A playbook path is not an offered playbook.
    let (status, e) = Api::new(&s)
        .post(
            "/api/evaluate",
            json!({"output": OUTPUT, "playbook": "lenient.json"}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("playbook"))
    );
}
