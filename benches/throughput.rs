//! `cargo bench --bench throughput`: deterministic checks over the real corpus
//! (time per MB) and one full evaluation against a local server answering each
//! call after 1 s (target: under 1.5 s for the 9 calls, i.e. they overlap), and the
//! whole-corpus command (`byop check --mode deterministic --format json` over the 371
//! outputs, one process, store writes included; goal ≤ 0.15 s) on a new store and again
//! on the same store, as a user reruns it, with the built-in playbook and, in turn with it,
//! `evidence_contract_v1` (every output grounded against its source contract; goal ≤ 2×
//! the built-in playbook's time).

#[path = "../tests/support/fake_llm.rs"]
mod fake_llm;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use byop::engine::document::Document;
use byop::engine::runner::{self, RunOptions};
use byop::evaluator::{ApiKey, Evaluator, EvaluatorSettings, ProviderKind};
use byop::model::Mode;
use fake_llm::{FakeLlm, Script, Step};

fn main() {
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    let playbook = byop::engine::playbook::builtin();
    println!("| benchmark | result |\n|---|---|");

    if let Ok(entries) = std::fs::read_dir(&corpus) {
        let docs: Vec<(std::path::PathBuf, String)> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".ai.md"))
            .map(|p| {
                let t = std::fs::read_to_string(&p).unwrap();
                (p, t)
            })
            .collect();
        let bytes: usize = docs.iter().map(|(_, t)| t.len()).sum();
        let rounds = 5;
        let start = Instant::now();
        for _ in 0..rounds {
            for (p, t) in &docs {
                let d = Document::parse(t.clone(), Some(p)).unwrap();
                std::hint::black_box(runner::run_deterministic(&playbook, &d));
            }
        }
        let secs = start.elapsed().as_secs_f64() / rounds as f64;
        let mb = bytes as f64 / 1_048_576.0;
        println!(
            "| deterministic checks, {} corpus files ({mb:.2} MB) | {:.1} ms per pass, {:.1} ms/MB, {:.0} µs/file |",
            docs.len(),
            secs * 1e3,
            secs * 1e3 / mb,
            secs * 1e6 / docs.len() as f64
        );
        let big: String = docs
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<String>()
            .chars()
            .take(100_000)
            .collect();
        let d = Document::parse(big, None).unwrap();
        let start = Instant::now();
        for _ in 0..20 {
            std::hint::black_box(runner::run_deterministic(&playbook, &d));
        }
        println!(
            "| deterministic checks, one 100 KB document | {:.2} ms |",
            start.elapsed().as_secs_f64() * 1e3 / 20.0
        );
        whole_corpus_commands(&corpus, docs.iter().map(|(p, _)| p.as_path()));
    } else {
        println!(
            "| deterministic corpus run | skipped: {} not found |",
            corpus.display()
        );
    }

    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let llm =
            FakeLlm::start(Script::always(vec![Step::fail_first_sentence()]).latency_ms(1000))
                .await;
        let ev = Evaluator::new(EvaluatorSettings {
            provider: ProviderKind::Anthropic,
            model: "bench".into(),
            base_url: Some(llm.base_url.clone()),
            api_key: ApiKey::new("bench-key"),
            timeout: Duration::from_secs(30),
            max_retries: 0,
            concurrency: 16,
            max_tokens: 1024,
            backoff_base: Duration::from_millis(10),
            max_response_bytes: byop::evaluator::DEFAULT_MAX_RESPONSE_BYTES,
        })
        .unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nda_review.ai.md");
        let doc = byop::workspace::Resolver::new()
            .resolve(byop::workspace::Request {
                text: std::fs::read_to_string(&path).unwrap(),
                path: Some(&path),
                ..Default::default()
            })
            .unwrap()
            .doc;
        let start = Instant::now();
        let report = runner::run(
            &playbook,
            &doc,
            RunOptions {
                mode: Some(Mode::Full),
                evaluator: Some(ev),
                fresh: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let took = start.elapsed().as_secs_f64();
        println!(
            "| full evaluation, {} calls at 1 s latency each | {took:.2} s (status {}) |",
            llm.calls(),
            report.summary.overall_status.as_str()
        );
    });
}

/// The built `byop` over every corpus output in one process, with the default playbook and
/// with `evidence_contract_v1`, the two taken in turn so that both meet the same load: median
/// wall time of 7 runs on a new store each, and of 7 reruns on one store (the second run
/// onwards records reruns, the common case). Goals: the default playbook's run within
/// 0.15 s, the evidence playbook's within twice the default's.
fn whole_corpus_commands<'a>(outputs: &Path, docs: impl Iterator<Item = &'a Path>) {
    const PLAYBOOKS: [Option<&str>; 2] = [None, Some("evidence_contract_v1")];
    let root = outputs.parent().expect("the corpus folder");
    let mut files: Vec<PathBuf> = docs
        .map(|p| p.strip_prefix(root).expect("a corpus output").to_path_buf())
        .collect();
    files.sort();
    let dir = tempfile::tempdir().unwrap();
    let run = |db: &Path, playbook: Option<&str>| {
        let start = Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_byop"))
            .current_dir(root)
            .args([
                "check",
                "--mode",
                "deterministic",
                "--format",
                "json",
                "--fail-on",
            ])
            .arg("never")
            .args(playbook.map(|p| ["--playbook", p]).into_iter().flatten())
            .arg("--db")
            .arg(db)
            .args(&files)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        start.elapsed().as_secs_f64()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut fresh = [vec![], vec![]];
    let mut rerun = [vec![], vec![]];
    for (k, playbook) in PLAYBOOKS.into_iter().enumerate() {
        run(&dir.path().join(format!("rerun{k}.db")), playbook);
    }
    for i in 0..7 {
        for (k, playbook) in PLAYBOOKS.into_iter().enumerate() {
            fresh[k].push(run(&dir.path().join(format!("fresh{k}-{i}.db")), playbook));
            rerun[k].push(run(&dir.path().join(format!("rerun{k}.db")), playbook));
        }
    }
    let [fresh_default, fresh_evidence] = fresh.map(median);
    let [rerun_default, rerun_evidence] = rerun.map(median);
    for (what, default, evidence) in [
        ("new store", fresh_default, fresh_evidence),
        ("rerun, same store", rerun_default, rerun_evidence),
    ] {
        println!(
            "| `byop check --mode deterministic --format json`, {} files, {what} | {default:.3} s wall (goal ≤ 0.15 s: {}) |",
            files.len(),
            if default <= 0.15 { "met" } else { "NOT met" }
        );
        let ratio = evidence / default;
        println!(
            "| the same with `--playbook evidence_contract_v1`, {what} | {evidence:.3} s wall, {ratio:.2}× the default playbook's (goal ≤ 2×: {}) |",
            if ratio <= 2.0 { "met" } else { "NOT met" }
        );
    }
}
