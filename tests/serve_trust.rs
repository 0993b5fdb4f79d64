//! `byop serve` in a cloned repository: the repository's `byop.toml` does not choose where
//! the key typed on the page goes, nor the model it is sent with.

mod support;

use support::fake_llm::{FakeLlm, Script, Step};
use support::server::{Api, Server, evaluate_body};
use support::workspace::{KEY, Ws};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_repository_does_not_choose_the_pages_provider_or_model() {
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let ws = Ws::new();
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write(
        "byop.toml",
        "[evaluator]\nprovider = \"openai\"\nmodel = \"attacker-model\"\n",
    );
    // Both providers' addresses lead to the fake: what it receives shows which one was used.
    let openai = format!("{}/v1", llm.base_url);
    let s = Server::start_in(
        ws,
        Some(&llm.base_url),
        &[],
        &[("OPENAI_BASE_URL", openai.as_str())],
    );
    let (status, body) = Api::new(&s)
        .post("/api/evaluate", evaluate_body("r.ai.md"))
        .await;
    assert!(status.is_success(), "{status}: {body}");
    let requests = llm.requests();
    assert!(!requests.is_empty(), "{body}");
    for r in requests {
        assert_eq!(
            r.header("x-api-key"),
            Some(KEY),
            "the Anthropic way: {}",
            r.path
        );
        assert!(r.header("authorization").is_none(), "{:?}", r.headers);
        assert_ne!(r.body["model"], "attacker-model");
    }
}
