//! Standalone fake LLM server for manual and cross-process tests:
//! `cargo run --example fake_llm -- --port 0 --script script.json`
//! prints `listening http://127.0.0.1:PORT` first, then serves until killed.
#[path = "../tests/support/fake_llm.rs"]
mod fake_llm;

use std::io::Write;

use fake_llm::{FakeLlm, Script};

fn usage() -> ! {
    eprintln!("usage: fake_llm [--port PORT] [--script FILE.json]");
    std::process::exit(2);
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut port = 0u16;
    let mut script = Script::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                port = args
                    .next()
                    .and_then(|p| p.parse().ok())
                    .unwrap_or_else(|| usage());
            }
            "--script" => {
                let path = args.next().unwrap_or_else(|| usage());
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                    eprintln!("fake_llm: cannot read {path}: {e}");
                    std::process::exit(2);
                });
                script = Script::from_json(&text).unwrap_or_else(|e| {
                    eprintln!("fake_llm: {path}: {e}");
                    std::process::exit(2);
                });
            }
            _ => usage(),
        }
    }
    let server = FakeLlm::start_on_port(port, script).await;
    println!("listening {}", server.base_url);
    let _ = std::io::stdout().flush();
    std::future::pending::<()>().await;
}
