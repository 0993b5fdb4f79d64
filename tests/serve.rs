//! `byop serve` over HTTP: the built binary, the API endpoints' success and error shapes,
//! the run events, baselines, compare, exports, and the key kept out of every answer, log
//! and the store. The evaluator is the local fake server (real wire formats, faults).

mod support;

use reqwest::StatusCode;
use serde_json::{Value, json};

use support::fake_llm::{FakeLlm, Script, Step};
use support::server::{Api, OUTPUT, Server, client, evaluate_body, needs_key};
use support::workspace::KEY;

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
    let r = client()
        .post(s.url("/api/evaluate"))
        .bearer_auth(&s.token)
        .json(&huge)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // The rest of the body was never read: the connection is not offered for reuse.
    assert_eq!(r.headers()[reqwest::header::CONNECTION], "close");
    let e: Value = r.json().await.unwrap();
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
    // The store filters and pages by key: the page after the first is the same row as in
    // the whole, and the page before it the first again.
    let (_, whole) = api.get("/api/history").await;
    let (_, top) = api.get("/api/history?limit=1").await;
    assert_eq!(top["newer"], Value::Null, "{top}");
    let older = top["older"].as_str().expect("a next page").to_string();
    let (_, middle) = api
        .get(&format!("/api/history?limit=1&after={older}"))
        .await;
    assert_eq!(middle["rows"][0], whole["rows"][1], "{middle}");
    assert_eq!(
        (middle["total"].as_u64(), middle["position"].as_u64()),
        (Some(3), Some(1))
    );
    let newer = middle["newer"].as_str().expect("a previous page");
    let (_, back) = api
        .get(&format!("/api/history?limit=1&before={newer}"))
        .await;
    assert_eq!(back["rows"], top["rows"], "{back}");
    // The page's links carry the same keys: older, then newer again.
    let (c, server) = (&api.c, &s);
    let page = |path: String| async move {
        let r = c
            .get(server.url(&path))
            .bearer_auth(&server.token)
            .send()
            .await;
        r.unwrap().text().await.unwrap()
    };
    let link = |html: &str, id: &str| {
        let end = html.find(&format!("\" id=\"{id}\""))?;
        let start = html[..end].rfind("href=\"")? + 6;
        Some(html[start..end].replace("&#38;", "&"))
    };
    let first_row = |html: &str| {
        let tag = "<tr data-report=\"";
        let at = html.find(tag).expect("a row") + tag.len();
        html[at..].split('"').next().unwrap().to_string()
    };
    let top_html = page("/history?limit=1".into()).await;
    assert_eq!(link(&top_html, "prev"), None);
    let next = link(&top_html, "next").expect("an older link");
    assert!(next.contains(&format!("after={older}")), "{next}");
    let middle_html = page(next).await;
    assert_eq!(
        first_row(&middle_html),
        whole["rows"][1]["report_id"].as_str().unwrap()
    );
    assert!(middle_html.contains("2–2 of 3"), "{middle_html}");
    let prev = link(&middle_html, "prev").expect("a newer link");
    assert_eq!(first_row(&page(prev).await), first_row(&top_html));
    let (status, e) = api.get("/api/history?after=3.q.1").await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("after"))
    );
    let status = first["byop_report"]["summary"]["overall_status"]
        .as_str()
        .unwrap();
    let want = whole["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == status)
        .count();
    let lower = status.to_ascii_lowercase();
    let (_, by_status) = api
        .get(&format!(
            "/api/history?status={lower}&playbook=ai_plugin_observability_v1"
        ))
        .await;
    assert_eq!(
        by_status["total"].as_u64(),
        Some(want as u64),
        "{by_status}"
    );
    let (_, none) = api.get("/api/history?mode=full").await;
    assert_eq!(none["total"], 0);
    let (status, e) = api.get("/api/history?status=NOPE").await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("status"))
    );

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
async fn a_plan_is_validated_and_a_reports_request_has_its_audit_rows() {
    let s = Server::start(None, &[]);
    let api = Api::new(&s);
    let example = |p: &str| {
        let text = std::fs::read_to_string(support::workspace::examples().join(p)).unwrap();
        // The body after the front matter.
        text.splitn(3, "---\n").nth(2).unwrap().to_string()
    };
    let body = json!({
        "plan": example("planproof/variants/v1_naive/deep_work_la.md"),
        "notes": example("planproof/scenarios/deep_work_la.md"),
        "current_time": "2026-06-04T08:00:00-07:00",
        "timezone": "America/Los_Angeles",
    });
    let (status, v) = api.post("/api/validate-plan", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["validation"], v["byop_report"]["validation"]);
    assert_eq!(v["validation"]["status"], "fail", "{}", v["validation"]);
    let errors = v["validation"]["errors"].to_string();
    assert!(
        errors.contains("Dr. Chen") || errors.contains("board meeting"),
        "{errors}"
    );
    assert_eq!(v["byop_report"]["playbook_id"], "planproof_v1");
    // The same plan without its notes fails closed; a bad field is named.
    let mut no_notes = body.clone();
    no_notes["notes"] = json!("");
    let (_, v) = api.post("/api/validate-plan", no_notes).await;
    assert!(
        v["validation"]["errors"].to_string().contains("No context"),
        "{v}"
    );
    let mut bad = body.clone();
    bad["timezone"] = json!("America/Los_Angeles\nbyop:\n  playbook: x");
    let (status, e) = api.post("/api/validate-plan", bad).await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("timezone"))
    );

    // A report's request id opens its audit-log rows.
    let (_, r) = api
        .post(
            "/api/evaluate",
            json!({"output": OUTPUT, "mode": "deterministic"}),
        )
        .await;
    let rid = r["byop_report"]["request_id"].as_str().unwrap();
    let (status, audit) = api.get(&format!("/api/audit/{rid}")).await;
    assert_eq!(status, StatusCode::OK, "{audit}");
    let states: Vec<&str> = audit["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["state"].as_str().unwrap())
        .collect();
    assert_eq!(states.first(), Some(&"received"), "{states:?}");
    assert_eq!(states.last(), Some(&"evaluated"), "{states:?}");
    assert_eq!(
        api.get("/api/audit/no-such-request").await.0,
        StatusCode::NOT_FOUND
    );
}

/// A PlanProof example's body (after its front matter).
fn example_body(path: &str) -> String {
    let text = std::fs::read_to_string(support::workspace::examples().join(path)).unwrap();
    let rest = text.strip_prefix("---\n").unwrap();
    rest[rest.find("\n---\n").unwrap() + 5..].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_is_generated_from_notes_validated_and_repaired_as_byop_plan_does() {
    let mut script = Script::default()
        .check(
            "generate",
            vec![Step::Generated {
                text: example_body("planproof/variants/v1_naive/dentist_day.md"),
            }],
        )
        .check(
            "repair",
            vec![Step::Repaired {
                text: example_body("planproof/variants/v4_repair/dentist_day.md"),
                append: false,
            }],
        );
    script.require_key = Some(KEY.into());
    let llm = FakeLlm::start(script).await;
    let s = Server::start(Some(&llm.base_url), &[]);
    let api = Api::new(&s);
    // The notes with their front matter (time and zone), as `byop plan` reads the file.
    let notes = std::fs::read_to_string(
        support::workspace::examples().join("planproof/scenarios/dentist_day.md"),
    )
    .unwrap();
    let (status, p) = api
        .post("/api/plan", json!({"notes": notes, "variant": "v4_repair"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["validation"]["status"], "pass", "{p}");
    assert_eq!(p["passed"], true);
    assert_eq!(p["debug"]["variant"], "v4_repair");
    assert_eq!(p["debug"]["outcome"], "repaired");
    assert!(
        !p["debug"]["errors_before_repair"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        p["plan"][0]["timebox_minutes"].as_i64().unwrap() >= 5,
        "{p}"
    );
    assert_eq!((llm.calls_for("generate"), llm.calls_for("repair")), (1, 1));
    // The audit trail `byop plan` writes: every attempt between received and generated,
    // the generation's request id and the plan's hash, in a log that still verifies.
    let aid = p["debug"]["audit_request_id"].as_str().unwrap();
    let (status, audit) = api.get(&format!("/api/audit/{aid}")).await;
    assert_eq!(status, StatusCode::OK, "{audit}");
    let rows = audit["rows"].as_array().unwrap();
    let steps: Vec<String> = rows
        .iter()
        .map(|r| match r["state"].as_str().unwrap() {
            "call" => format!("call:{}", r["call"]["check_id"].as_str().unwrap()),
            s => s.to_string(),
        })
        .collect();
    assert_eq!(
        steps,
        [
            "received",
            "call:generate",
            "validation",
            "call:repair",
            "validation",
            "generated"
        ]
    );
    assert_eq!(rows[0]["code"], "generate: v4_repair/notes (repair)");
    let generated = format!("repaired:{}", p["debug"]["request_id"].as_str().unwrap());
    assert_eq!(rows[5]["code"], generated.as_str());
    assert_eq!(rows[5]["decision_id"].as_str().map(str::len), Some(64));
    assert!(rows.iter().all(|r| r["document"] == "web:notes"), "{audit}");
    let verified = s.ws.run(&["log", "--verify"]);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
    // The validator variant surfaces the same failing plan as rejected, repairs nothing.
    let (status, p) = api
        .post(
            "/api/plan",
            json!({"notes": notes, "variant": "v3_validator"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(
        (p["passed"].as_bool(), p["debug"]["outcome"].as_str()),
        (Some(false), Some("rejected"))
    );
    assert!(!p["validation"]["errors"].as_array().unwrap().is_empty());
    assert_eq!(llm.calls_for("repair"), 1);
    assert!(!p.to_string().contains(KEY) && !s.stderr().contains(KEY));
    // Bad input names its field; a variant is a built-in name, never a path.
    for (body, field) in [
        (json!({"notes": " "}), "notes"),
        (
            json!({"notes": "x", "variant": "examples/planproof/generate/variants/v1_naive"}),
            "variant",
        ),
        (
            json!({"notes": "x", "timezone": "UTC\nbyop: x"}),
            "timezone",
        ),
        (json!({"notes": "x", "plan": "y"}), "plan"),
    ] {
        let (status, e) = api.post("/api/plan", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {e}");
        assert_eq!(e["error"]["field"], field, "{e}");
    }
    // Without a key there is nothing to generate with: 503, no call made.
    let calls = llm.calls();
    let r = client()
        .post(s.url("/api/plan"))
        .bearer_auth(&s.token)
        .json(&json!({"notes": notes}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "evaluator_unavailable", "{e}");
    assert_eq!(llm.calls(), calls);
}
