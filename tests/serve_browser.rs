//! `byop serve` in a real browser: headless Chromium drives the page against the built
//! binary and the local fake evaluator (tests/browser/check_serve.mjs). Skips when node,
//! playwright-core or chromium is missing, unless BYOP_REQUIRE_BROWSER=1.
//! BYOP_SCREENSHOT_DIR=docs saves the page, history and dataset screenshots.

mod support;

use std::path::Path;
use std::process::Command;

use support::fake_llm::{FakeLlm, Script, Step};
use support::server::Server;
use support::workspace::KEY;

#[test]
fn the_page_runs_saves_a_baseline_compares_charts_drift_and_forgets_the_key_in_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let ready = root
        .join("tests/browser/node_modules/playwright-core")
        .exists()
        && Path::new(&chromium).exists()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !ready {
        assert!(
            std::env::var("BYOP_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "browser test required but node, tests/browser/node_modules or {chromium} is missing"
        );
        eprintln!(
            "skipping the serve browser test: run `npm ci` in tests/browser and install chromium"
        );
        return;
    }
    let mut script = Script::always(vec![Step::pass()]).latency_ms(200);
    script.require_key = Some(KEY.into());
    let llm = FakeLlm::start_blocking(script);
    // A dataset named at start-up: the page opens its comparison.
    let dataset = root.join("examples/planproof").display().to_string();
    let server = Server::start(Some(&llm.base_url), &["--dataset", &dataset]);
    let mut cmd = Command::new("node");
    cmd.arg(root.join("tests/browser/check_serve.mjs"))
        .arg(server.login_url())
        .env("BYOP_KEY", KEY)
        .env("CHROMIUM", &chromium)
        .env("BYOP_USER_DATA_DIR", server.ws.path("profile"));
    if let Ok(dir) = std::env::var("BYOP_SCREENSHOT_DIR") {
        cmd.env("BYOP_SCREENSHOT_DIR", root.join(dir));
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "browser checks failed:\n{stdout}\n{}\nserver: {}",
        String::from_utf8_lossy(&out.stderr),
        server.stderr()
    );
    assert!(stdout.contains("all serve checks passed"), "{stdout}");
    assert!(llm.calls() > 0, "the evaluator was called");
    // The key reached the evaluator and nothing the server wrote.
    assert!(!server.stderr().contains(KEY));
    let store = server.store_bytes();
    assert!(
        !store.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
        "key in the store"
    );
}
