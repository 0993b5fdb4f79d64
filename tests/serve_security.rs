//! `byop serve`'s guard and trust decisions: the token, host, origin and CSRF checks,
//! the bind address, a pasted text's lack of file access, and the OpenAPI document
//! against the routes.

mod support;

use reqwest::StatusCode;
use serde_json::{Value, json};

use support::fake_llm::FakeLlm;
use support::server::{Api, OUTPUT, Server, client, needs_key};
use support::workspace::KEY;

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
    // The login goes on to a path of this server only: `//host/` would be another host.
    for (path, to) in [
        ("//evil.example/", "/"),
        ("/%5Cevil.example/", "/%5Cevil.example/"),
        ("/history", "/history"),
    ] {
        let r = c
            .get(format!("{}{path}?token={}", s.base, s.token))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{path}");
        assert_eq!(r.headers()["location"], to, "{path}");
    }
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
        "/api/session/forget-key",
        "/api/validate-plan",
        "/api/plan",
        "/api/datasets",
        "/api/datasets/{name}",
        "/api/openapi.json",
    ] {
        assert!(paths.contains_key(p), "{p} undocumented");
    }
    // Every documented operation is routed: none answers 404 for "no such route" or 405.
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            let concrete: String = path
                .split('/')
                .map(|part| if part.starts_with('{') { "x" } else { part })
                .collect::<Vec<_>>()
                .join("/");
            let url = s.url(&concrete);
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

/// A browser session: its cookie and CSRF token, from the start-up address.
async fn login(s: &Server, c: &reqwest::Client) -> (String, String) {
    let r = c.get(s.login_url()).send().await.unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let html = c
        .get(s.url("/"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let csrf = html
        .split("name=\"byop-csrf\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    (cookie, csrf)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_sessions_key_is_forgotten_and_forget_key_drops_it() {
    let llm = FakeLlm::start(needs_key()).await;
    let s = Server::start(Some(&llm.base_url), &["--key-idle", "1"]);
    let c = client();
    let (cookie, csrf) = login(&s, &c).await;
    let own = s.base.clone();
    // As the page does: the cookie, the CSRF token, this origin; the key when given.
    let evaluate = |key: Option<&str>| {
        let mut q = c
            .post(s.url("/api/evaluate"))
            .header("cookie", &cookie)
            .header("origin", &own)
            .header("x-byop-csrf", &csrf)
            .json(&json!({"output": OUTPUT, "mode": "screening"}));
        if let Some(k) = key {
            q = q.header("x-evaluator-key", k);
        }
        async move { q.send().await.unwrap().status() }
    };
    let held = || async {
        let page = c
            .get(s.url("/"))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        page.text().await.unwrap().contains("id=\"key-held\"")
    };
    assert_eq!(evaluate(Some(KEY)).await, StatusCode::OK);
    assert!(held().await, "the session holds the key");
    assert_eq!(evaluate(None).await, StatusCode::OK, "the held key is used");
    // Idle longer than --key-idle: the key is gone.
    tokio::time::sleep(std::time::Duration::from_millis(1600)).await;
    assert!(!held().await, "an idle session's key is forgotten");
    let calls = llm.calls();
    assert_eq!(evaluate(None).await, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(llm.calls(), calls, "no request without a key");

    // Forget key: refused without the CSRF token or from the API; then the key is gone.
    assert_eq!(evaluate(Some(KEY)).await, StatusCode::OK);
    let forget = |csrf: Option<&str>| {
        let mut q = c
            .post(s.url("/api/session/forget-key"))
            .header("cookie", &cookie)
            .header("origin", &own)
            .json(&json!({}));
        if let Some(t) = csrf {
            q = q.header("x-byop-csrf", t);
        }
        q.send()
    };
    assert_eq!(forget(None).await.unwrap().status(), StatusCode::FORBIDDEN);
    assert!(held().await, "a refused request forgets nothing");
    let r = forget(Some(&csrf)).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.json::<Value>().await.unwrap()["forgotten"], true);
    assert!(!held().await, "the key is gone after Forget key");
    assert_eq!(evaluate(None).await, StatusCode::SERVICE_UNAVAILABLE);
    let (status, e) = Api::new(&s)
        .post("/api/session/forget-key", json!({}))
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request"))
    );
    assert!(!s.stderr().contains(KEY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dataset_named_at_start_up_opens_as_its_html_view_and_nothing_else_is_read() {
    let dir = support::workspace::examples().join("planproof");
    let d = dir.display().to_string();
    let s = Server::start(None, &["--dataset", &d]);
    let api = Api::new(&s);
    let (status, list) = api.get("/api/datasets").await;
    assert_eq!(
        (status, list),
        (StatusCode::OK, json!({"datasets": ["planproof"]}))
    );
    // The same comparison `byop dataset DIR` prints, as JSON and as its HTML view.
    let cli = |format: &str| {
        let o = s.ws.run(&["dataset", &d, "--format", format]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            support::workspace::stderr(&o)
        );
        support::workspace::stdout(&o)
    };
    let (status, summary) = api.get("/api/datasets/planproof").await;
    assert_eq!(status, StatusCode::OK, "{summary}");
    let want: Value = serde_json::from_str(&cli("json")).unwrap();
    assert_eq!(summary, want);
    assert!(
        summary["variants"].as_array().unwrap().len() >= 2,
        "{summary}"
    );
    let r = api
        .c
        .get(s.url("/api/datasets/planproof?format=html"))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let csp = r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.starts_with("sandbox ") && csp.contains("default-src 'none'"),
        "{csp}"
    );
    assert_eq!(r.text().await.unwrap(), cli("html"));
    // The page frames it; the list links it.
    let page = |path: &str| {
        let q = api.c.get(s.url(path)).bearer_auth(&s.token);
        async move {
            let r = q.send().await.unwrap();
            (r.status(), r.text().await.unwrap())
        }
    };
    let (status, html) = page("/datasets").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("href=\"/datasets/planproof\""), "{html}");
    let (status, html) = page("/datasets/planproof").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("src=\"/api/datasets/planproof?format=html\""),
        "{html}"
    );
    // A request names an offered dataset, never a folder: anything else is not found.
    for name in [
        "scenarios",
        "..%2Fplanproof",
        "%2e%2e%2fplanproof",
        "%2Fetc",
        "nope",
    ] {
        assert_eq!(
            api.get(&format!("/api/datasets/{name}")).await.0,
            StatusCode::NOT_FOUND,
            "{name}"
        );
        assert_eq!(
            page(&format!("/datasets/{name}")).await.0,
            StatusCode::NOT_FOUND,
            "{name}"
        );
    }
    let (status, e) = api.get("/api/datasets/planproof?format=pdf").await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("format"))
    );
    // Without the token, nothing.
    let r = client()
        .get(s.url("/api/datasets/planproof"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    // A folder that is not a dataset is refused at start-up, before listening.
    let ws = support::workspace::Ws::new();
    std::fs::create_dir(ws.path("empty")).unwrap();
    let o = ws.run(&["serve", "--port", "0", "--dataset", "empty"]);
    assert_eq!(o.status.code(), Some(2));
    let err = support::workspace::stderr(&o);
    assert!(
        err.contains("--dataset") && err.contains("not a dataset"),
        "{err}"
    );
}
