//! The evaluator against the fake LLM server, over real HTTP.
mod support;

use std::time::Duration;

use byop::evaluator::prompt::{self, Candidate};
use byop::evaluator::{
    ApiKey, CheckPrompt, EvalError, Evaluator, EvaluatorSettings, ProviderKind, RunOutcome, schema,
};
use byop::model::Check;
use byop::model::Inputs;
use byop::model::Verdict;
use serde_json::json;
use support::fake_llm::{FakeLlm, Script, Step};
use tokio_util::sync::CancellationToken;

const KEY: &str = "sk-test-SECRET-0123456789";
const OUTPUT: &str = "# Advice\n\nThe notice period is always 30 days. Nothing else applies.";

fn settings(provider: ProviderKind, base_url: &str) -> EvaluatorSettings {
    EvaluatorSettings {
        provider,
        model: "test-model".into(),
        base_url: Some(format!("{base_url}/")),
        api_key: ApiKey::new(KEY),
        timeout: Duration::from_secs(10),
        max_retries: 3,
        concurrency: 16,
        max_tokens: 1024,
        backoff_base: Duration::from_millis(10),
        max_response_bytes: byop::evaluator::DEFAULT_MAX_RESPONSE_BYTES,
    }
}

fn anthropic(fake: &FakeLlm) -> EvaluatorSettings {
    settings(ProviderKind::Anthropic, &fake.base_url)
}

fn openai(fake: &FakeLlm) -> EvaluatorSettings {
    settings(ProviderKind::OpenAi, &format!("{}/v1", fake.base_url))
}

fn check(id: &str) -> Check {
    serde_json::from_value(json!({
        "id": id,
        "severity": "high",
        "question": "Does the output avoid unqualified certainty?",
        "detection_method": {"type": "semantic", "instructions": "Look for absolute language."},
    }))
    .expect("test check")
}

fn check_prompt(id: &str) -> CheckPrompt {
    let inputs = Inputs {
        ai_output: OUTPUT.into(),
        source_document: "".into(),
        prompt: "How long is the notice period?".into(),
    };
    prompt::build(&check(id), &inputs, &[])
}

async fn run(settings: EvaluatorSettings, id: &str) -> RunOutcome {
    let evaluator = Evaluator::new(settings).expect("valid settings");
    evaluator
        .evaluate(&check_prompt(id), 0, &CancellationToken::new())
        .await
}

#[tokio::test]
async fn anthropic_request_shape_and_tool_verdict() {
    let mut fail = Step::fail_first_sentence();
    if let Step::Verdict { assumptions, .. } = &mut fail {
        assumptions.push("Jurisdiction is England".into());
    }
    let fake = FakeLlm::start(Script::default().check("certainty", vec![fail])).await;
    let settings = anthropic(&fake);
    let outcome = run(settings.clone(), "certainty").await;

    let verdict = outcome.result.expect("verdict");
    assert_eq!(verdict.result, Verdict::Fail);
    assert_eq!(verdict.confidence, 0.9);
    assert_eq!(
        verdict.evidence_citations[0].span,
        "The notice period is always 30 days."
    );
    assert_eq!(
        verdict.assumptions,
        vec!["Jurisdiction is England".to_string()]
    );
    assert!(outcome.raw_text.is_some());

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    let sent = check_prompt("certainty");
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("authorization"), None);
    let body = &request.body;
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(body["temperature"], 0);
    assert_eq!(body["system"], sent.system.as_str());
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": sent.user}])
    );
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": "record_verdict"})
    );
    assert_eq!(body["tools"][0]["name"], "record_verdict");
    assert_eq!(
        body["tools"][0]["input_schema"],
        schema::verdict_schema(&[])
    );

    // The key is sent, but never shown.
    let evaluator = Evaluator::new(settings.clone()).unwrap();
    for shown in [format!("{settings:?}"), format!("{evaluator:?}")] {
        assert!(!shown.contains(KEY), "key leaked in {shown}");
    }
    let info = evaluator.info();
    assert_eq!(
        (info.provider.as_str(), info.model.as_str()),
        ("anthropic", "test-model")
    );
}

#[tokio::test]
async fn openai_request_shape_and_content_verdict() {
    let fake = FakeLlm::start(Script::always(vec![Step::fail_quoting("always 30 days")])).await;
    let outcome = run(openai(&fake), "certainty").await;
    let verdict = outcome.result.expect("verdict");
    assert_eq!(verdict.result, Verdict::Fail);
    assert_eq!(verdict.evidence_citations[0].span, "always 30 days");

    let request = &fake.requests()[0];
    let sent = check_prompt("certainty");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(request.header("x-api-key"), None);
    let body = &request.body;
    assert_eq!(body["temperature"], 0);
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(
        body["messages"],
        json!([{"role": "system", "content": sent.system}, {"role": "user", "content": sent.user}])
    );
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(
        body["response_format"]["json_schema"]["name"],
        "byop_verdict"
    );
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    assert_eq!(
        body["response_format"]["json_schema"]["schema"],
        schema::verdict_schema(&[])
    );
}

#[tokio::test]
async fn local_openai_compatible_server_needs_no_key() {
    let fake = FakeLlm::start(Script::default()).await;
    let mut local = settings(ProviderKind::OpenAi, &fake.base_url);
    local.api_key = ApiKey::new("");
    let outcome = run(local, "c").await;
    assert_eq!(outcome.result.unwrap().result, Verdict::Pass);
    let request = &fake.requests()[0];
    assert_eq!(request.path, "/chat/completions");
    assert_eq!(request.header("authorization"), None);

    // The hosted API does need one, and Anthropic always does.
    let mut hosted = settings(ProviderKind::OpenAi, "https://api.openai.com/v1");
    hosted.api_key = ApiKey::new(" ");
    assert_eq!(Evaluator::new(hosted).unwrap_err(), EvalError::Auth);
    let mut keyless = settings(ProviderKind::Anthropic, &fake.base_url);
    keyless.api_key = ApiKey::new("");
    assert_eq!(Evaluator::new(keyless).unwrap_err(), EvalError::Auth);
    let mut no_permits = settings(ProviderKind::Anthropic, &fake.base_url);
    no_permits.concurrency = 0;
    assert!(matches!(
        Evaluator::new(no_permits),
        Err(EvalError::InvalidRequest(_))
    ));
}

#[tokio::test]
async fn rate_limit_waits_for_retry_after_then_succeeds() {
    for provider in [ProviderKind::Anthropic, ProviderKind::OpenAi] {
        let script = Script::always(vec![
            Step::RateLimited {
                retry_after_secs: 1,
            },
            Step::pass(),
        ]);
        let fake = FakeLlm::start(script).await;
        let config = match provider {
            ProviderKind::Anthropic => anthropic(&fake),
            ProviderKind::OpenAi => openai(&fake),
        };
        let outcome = run(config, "c").await;
        assert_eq!(
            outcome.result.unwrap().result,
            Verdict::Pass,
            "{provider:?}"
        );
        let requests = fake.requests();
        assert_eq!(requests.len(), 2);
        // The 10 ms backoff would retry at once; retry-after asked for 1 s.
        let waited = requests[1].received_at - requests[0].received_at;
        assert!(
            waited >= Duration::from_secs(1),
            "{provider:?} retried after {waited:?}"
        );
    }
}

#[tokio::test]
async fn overloaded_then_success() {
    let fake = FakeLlm::start(Script::always(vec![Step::Overloaded, Step::pass()])).await;
    assert_eq!(
        run(anthropic(&fake), "c").await.result.unwrap().result,
        Verdict::Pass
    );
    assert_eq!(fake.calls(), 2);
}

#[tokio::test]
async fn server_errors_exhaust_the_retries() {
    let fake = FakeLlm::start(Script::always(vec![Step::ServerError])).await;
    let mut config = anthropic(&fake);
    config.max_retries = 2;
    assert_eq!(
        run(config, "c").await.result.unwrap_err(),
        EvalError::Server(500)
    );
    assert_eq!(fake.calls(), 3);
}

#[tokio::test]
async fn hanging_server_times_out_and_is_retried() {
    let fake = FakeLlm::start(Script::always(vec![Step::Hang { secs: 30.0 }])).await;
    let mut config = anthropic(&fake);
    config.timeout = Duration::from_millis(200);
    config.max_retries = 1;
    assert_eq!(
        run(config.clone(), "c").await.result.unwrap_err(),
        EvalError::Timeout
    );
    assert_eq!(fake.calls(), 2);

    let fake = FakeLlm::start(Script::always(vec![
        Step::Hang { secs: 30.0 },
        Step::pass(),
    ]))
    .await;
    let config = EvaluatorSettings {
        base_url: Some(fake.base_url.clone()),
        ..config
    };
    assert_eq!(run(config, "c").await.result.unwrap().result, Verdict::Pass);
}

#[tokio::test]
async fn malformed_twice_keeps_the_raw_text() {
    let fake = FakeLlm::start(Script::always(vec![Step::Malformed])).await;
    let outcome = run(anthropic(&fake), "c").await;
    let error = outcome.result.unwrap_err();
    assert_eq!(error, EvalError::Malformed);
    assert_eq!(error.to_string(), "Evaluator returned unparseable response");
    assert!(
        outcome
            .raw_text
            .unwrap()
            .contains("unable to provide a verdict")
    );
    assert_eq!(fake.calls(), 2);
}

#[tokio::test]
async fn malformed_once_then_valid() {
    let fake = FakeLlm::start(Script::always(vec![Step::Malformed, Step::indeterminate()])).await;
    let outcome = run(openai(&fake), "c").await;
    assert_eq!(outcome.result.unwrap().result, Verdict::Indeterminate);
    assert_eq!(fake.calls(), 2);
}

#[tokio::test]
async fn truncated_answers_are_retried_once() {
    for provider in [ProviderKind::Anthropic, ProviderKind::OpenAi] {
        let fake = FakeLlm::start(Script::always(vec![Step::Truncated])).await;
        let config = match provider {
            ProviderKind::Anthropic => anthropic(&fake),
            ProviderKind::OpenAi => openai(&fake),
        };
        let outcome = run(config, "c").await;
        assert_eq!(
            outcome.result.unwrap_err(),
            EvalError::Truncated,
            "{provider:?}"
        );
        assert!(outcome.raw_text.unwrap().starts_with("{\"result\""));
        assert_eq!(fake.calls(), 2);
    }
}

#[tokio::test]
async fn quota_and_auth_errors_are_never_retried() {
    for provider in [ProviderKind::Anthropic, ProviderKind::OpenAi] {
        for (step, expected) in [
            (Step::QuotaExhausted, EvalError::QuotaExhausted),
            (Step::Unauthorized, EvalError::Auth),
        ] {
            let fake = FakeLlm::start(Script::always(vec![step])).await;
            let config = match provider {
                ProviderKind::Anthropic => anthropic(&fake),
                ProviderKind::OpenAi => openai(&fake),
            };
            let error = run(config, "c").await.result.unwrap_err();
            assert_eq!(error, expected, "{provider:?}");
            assert!(!format!("{error:?} {error}").contains(KEY));
            assert_eq!(fake.calls(), 1, "{provider:?} {expected:?}");
        }
    }
}

#[tokio::test]
async fn wrong_key_is_an_auth_error() {
    let script = Script {
        require_key: Some("sk-the-right-one".into()),
        ..Script::default()
    };
    let fake = FakeLlm::start(script).await;
    assert_eq!(
        run(anthropic(&fake), "c").await.result.unwrap_err(),
        EvalError::Auth
    );
    assert_eq!(fake.calls(), 1);
}

#[tokio::test]
async fn unreachable_server_is_a_network_error_without_the_key() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut config = settings(ProviderKind::Anthropic, &base);
    config.max_retries = 1;
    match run(config, "c").await.result {
        Err(EvalError::Network(message)) => {
            assert!(!message.contains(KEY), "{message}");
            assert!(message.contains("127.0.0.1"), "{message}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
}

#[tokio::test]
async fn cancellation_interrupts_calls_and_queued_runs() {
    let fake = FakeLlm::start(Script::always(vec![Step::Hang { secs: 60.0 }])).await;
    let mut config = anthropic(&fake);
    config.timeout = Duration::from_secs(120);
    config.concurrency = 1;
    let evaluator = Evaluator::new(config).unwrap();
    let cancel = CancellationToken::new();
    let in_call = tokio::spawn({
        let (evaluator, cancel) = (evaluator.clone(), cancel.clone());
        async move { evaluator.evaluate(&check_prompt("a"), 0, &cancel).await }
    });
    // The second run waits for the only permit.
    let queued = tokio::spawn({
        let (evaluator, cancel) = (evaluator.clone(), cancel.clone());
        async move { evaluator.evaluate(&check_prompt("b"), 0, &cancel).await }
    });
    while fake.calls() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cancel.cancel();
    for task in [in_call, queued] {
        // The guard only stops a broken test from hanging; it asserts nothing.
        let outcome = tokio::time::timeout(Duration::from_secs(20), task)
            .await
            .expect("evaluate returned after cancellation")
            .unwrap();
        assert_eq!(outcome.result.unwrap_err(), EvalError::Cancelled);
    }
    assert_eq!(fake.calls(), 1);

    // Cancellation also cuts a backoff sleep short.
    let fake = FakeLlm::start(Script::always(vec![Step::RateLimited {
        retry_after_secs: 60,
    }]))
    .await;
    let evaluator = Evaluator::new(anthropic(&fake)).unwrap();
    let cancel = CancellationToken::new();
    let waiting = tokio::spawn({
        let cancel = cancel.clone();
        async move { evaluator.evaluate(&check_prompt("a"), 0, &cancel).await }
    });
    while fake.calls() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cancel.cancel();
    let outcome = tokio::time::timeout(Duration::from_secs(20), waiting)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(outcome.result.unwrap_err(), EvalError::Cancelled);
}

async fn run_many(evaluator: &Evaluator, count: usize) -> Vec<RunOutcome> {
    let cancel = CancellationToken::new();
    let prompts: Vec<CheckPrompt> = (0..count)
        .map(|i| check_prompt(&format!("check_{i}")))
        .collect();
    futures::future::join_all(prompts.iter().map(|p| evaluator.evaluate(p, 0, &cancel))).await
}

#[tokio::test]
async fn calls_run_concurrently_within_the_bound() {
    let fake = FakeLlm::start(Script::default().latency_ms(300)).await;
    let evaluator = Evaluator::new(anthropic(&fake)).unwrap();
    let outcomes = run_many(&evaluator, 9).await;
    assert!(outcomes.iter().all(|o| o.result.is_ok()));
    assert_eq!(fake.calls(), 9);
    assert!(
        fake.max_in_flight() >= 2,
        "max in flight {}",
        fake.max_in_flight()
    );

    let fake = FakeLlm::start(Script::default().latency_ms(100)).await;
    let mut bounded = anthropic(&fake);
    bounded.concurrency = 2;
    let evaluator = Evaluator::new(bounded).unwrap();
    let outcomes = run_many(&evaluator, 6).await;
    assert!(outcomes.iter().all(|o| o.result.is_ok()));
    assert!(
        fake.max_in_flight() <= 2,
        "max in flight {}",
        fake.max_in_flight()
    );
}

#[tokio::test]
async fn cache_key_covers_the_request_but_not_the_key() {
    let fake = FakeLlm::start(Script::default()).await;
    let base = Evaluator::new(anthropic(&fake)).unwrap();
    let prompt = check_prompt("c");
    let key = base.cache_key(&prompt, 0);
    assert_eq!(key.len(), 64);
    assert_eq!(key, base.cache_key(&check_prompt("c"), 0));
    assert_ne!(key, base.cache_key(&prompt, 1));
    assert_ne!(key, base.cache_key(&check_prompt("d"), 0));

    let mut other_key = anthropic(&fake);
    other_key.api_key = ApiKey::new("sk-another-key");
    assert_eq!(
        key,
        Evaluator::new(other_key).unwrap().cache_key(&prompt, 0)
    );
    let mut other_model = anthropic(&fake);
    other_model.model = "other-model".into();
    assert_ne!(
        key,
        Evaluator::new(other_model).unwrap().cache_key(&prompt, 0)
    );
    assert_ne!(
        key,
        Evaluator::new(openai(&fake)).unwrap().cache_key(&prompt, 0)
    );
    assert_eq!(fake.calls(), 0);
}

#[tokio::test]
async fn hybrid_candidates_reach_the_server_inside_the_user_message() {
    let fake = FakeLlm::start(Script::default()).await;
    let inputs = Inputs {
        ai_output: OUTPUT.into(),
        ..Inputs::default()
    };
    let candidates = [Candidate {
        text: "always".into(),
        note: "certainty word".into(),
        line: 3,
    }];
    let prompt = prompt::build(&check("certainty"), &inputs, &candidates);
    let evaluator = Evaluator::new(anthropic(&fake)).unwrap();
    evaluator
        .evaluate(&prompt, 0, &CancellationToken::new())
        .await
        .result
        .unwrap();
    let request = &fake.requests()[0];
    assert_eq!(request.check_id().as_deref(), Some("certainty"));
    assert!(request.user().contains("(line 3): \"always\""));
    assert_eq!(
        support::fake_llm::ai_output(&request.user()).as_deref(),
        Some(OUTPUT)
    );
}

#[test]
fn blocking_server_serves_synchronous_callers() {
    let fake = FakeLlm::start_blocking(Script::always(vec![Step::fail_first_sentence()]));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(run(anthropic(&fake), "c"));
    assert_eq!(outcome.result.unwrap().result, Verdict::Fail);
    assert_eq!(fake.calls(), 1);
}

#[test]
fn scripts_load_from_json() {
    let script = Script::from_json(
        r#"{
            "latency_ms": 1000,
            "default": [{"kind": "verdict", "result": "pass"}],
            "checks": {
                "assumption_disclosure": [
                    {"kind": "rate_limited", "retry_after_secs": 1},
                    {"kind": "verdict", "result": "fail", "confidence": 0.8, "quote_first_sentence": true,
                     "notes": "n", "assumptions": ["a"]}
                ],
                "escalation": [{"kind": "hang", "secs": 2.5}, {"kind": "malformed"}, {"kind": "truncated"},
                               {"kind": "overloaded"}, {"kind": "server_error"}, {"kind": "quota_exhausted"},
                               {"kind": "unauthorized"}]
            }
        }"#,
    )
    .unwrap();
    assert_eq!(script.latency_ms, 1000);
    assert_eq!(script.checks["escalation"].len(), 7);
    assert!(Script::from_json(r#"{"default": [{"kind": "explode"}]}"#).is_err());
}

/// An OpenAI-compatible server rejecting `formats`; the outcome of two runs in turn and
/// the `response_format` of every request it saw.
async fn with_rejected_formats(formats: &[&str]) -> (Vec<RunOutcome>, Vec<Option<String>>) {
    let fake = FakeLlm::start(Script {
        default: vec![Step::fail_first_sentence()],
        reject_formats: formats.iter().map(|f| f.to_string()).collect(),
        ..Default::default()
    })
    .await;
    let evaluator = Evaluator::new(openai(&fake)).unwrap();
    let mut outcomes = Vec::new();
    for run in 1..=2 {
        outcomes.push(
            evaluator
                .evaluate(&check_prompt("certainty"), run, &CancellationToken::new())
                .await,
        );
    }
    let seen = fake
        .requests()
        .iter()
        .map(|r| r.body["response_format"]["type"].as_str().map(String::from))
        .collect();
    (outcomes, seen)
}

#[tokio::test]
async fn a_server_without_json_schema_gets_json_object_and_the_note_says_so() {
    let (outcomes, seen) = with_rejected_formats(&["json_schema"]).await;
    // One rejection, then every call (this one and the next) asks for json_object.
    assert_eq!(
        seen,
        [
            Some("json_schema".into()),
            Some("json_object".into()),
            Some("json_object".into())
        ]
    );
    for o in outcomes {
        let v = o.result.expect("verdict after the fallback");
        assert_eq!(v.result, Verdict::Fail);
        assert!(
            v.notes.starts_with(
                "[The server rejected response_format json_schema; asked with json_object"
            ),
            "{}",
            v.notes
        );
    }
}

#[tokio::test]
async fn a_server_without_any_response_format_gets_the_schema_in_words() {
    let (outcomes, seen) = with_rejected_formats(&["json_schema", "json_object"]).await;
    assert_eq!(
        seen,
        [
            Some("json_schema".into()),
            Some("json_object".into()),
            None,
            None
        ]
    );
    let v = outcomes[0]
        .result
        .as_ref()
        .expect("verdict from a plain prompt");
    assert_eq!(v.result, Verdict::Fail);
    assert!(
        v.notes.contains("asked with the schema in words only"),
        "{}",
        v.notes
    );
}

#[tokio::test]
async fn the_plain_prompt_carries_the_schema() {
    let fake = FakeLlm::start(Script {
        reject_formats: vec!["json_schema".into(), "json_object".into()],
        ..Default::default()
    })
    .await;
    run(openai(&fake), "certainty")
        .await
        .result
        .expect("verdict");
    let last = fake.requests().pop().unwrap();
    assert!(last.body.get("response_format").is_none());
    let system = last.body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("Respond with only a JSON object"),
        "{system}"
    );
    assert!(system.contains("\"evidence_citations\""), "{system}");
}

#[tokio::test]
async fn a_schema_server_is_asked_with_json_schema_and_no_note() {
    let (outcomes, seen) = with_rejected_formats(&[]).await;
    assert_eq!(
        seen,
        [Some("json_schema".into()), Some("json_schema".into())]
    );
    let v = outcomes[0].result.as_ref().unwrap();
    assert!(!v.notes.contains("rejected response_format"), "{}", v.notes);
}
