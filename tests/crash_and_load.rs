//! Robustness: `kill -9` during store writes leaves a sound store; many processes on one
//! store at once lose nothing; a large full-mode batch against a rate-limiting server
//! completes with bounded retries. No timing is asserted (the kill moments are random).

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use support::fake_llm::{FakeLlm, Script, Step};
use support::sound_store;
use support::workspace::{BIN, Ws, json, stderr};

/// `n` distinct documents (distinct inputs, so each is its own report).
fn documents(ws: &Ws, n: usize, prefix: &str) -> Vec<String> {
    let text = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    (0..n)
        .map(|i| {
            let name = format!("{prefix}{i}.ai.md");
            ws.write(&name, &format!("{text}\nReviewer note {prefix}{i}.\n"));
            name
        })
        .collect()
}

fn db(ws: &Ws) -> rusqlite::Connection {
    rusqlite::Connection::open(ws.path("state.db")).unwrap()
}

/// The store is sound (see `support::sound_store`).
fn assert_sound(ws: &Ws) {
    let mut verify = ws.cmd();
    verify.args(["log", "--verify"]);
    sound_store::assert_sound(&ws.path("state.db"), verify);
}

#[test]
fn kill_9_during_store_writes_leaves_a_sound_store() {
    let ws = Ws::new();
    let docs = documents(&ws, 25, "k");
    for round in 0..12 {
        let mut args = vec!["check", "--mode", "deterministic", "--format", "json"];
        args.extend(docs.iter().map(String::as_str));
        let mut child = ws
            .cmd()
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // A random moment: before, during or after the writes.
        std::thread::sleep(Duration::from_millis(fastrand::u64(0..1500)));
        child.kill().ok(); // SIGKILL
        child.wait().unwrap();
        assert_sound(&ws);
        if round % 4 == 3 {
            // The next run works and saves.
            let o = ws.run(&args);
            assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
        }
    }
    let o = ws.run(&["history", "--format", "json", "--limit", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_sound(&ws);
}

/// A kill before the first migration committed leaves the file with no table: sound, and
/// the next run creates the schema and saves (CI once killed a run that early).
#[test]
fn a_store_killed_before_its_schema_existed_is_sound_and_the_next_run_saves() {
    let ws = Ws::new();
    let docs = documents(&ws, 2, "e");
    let empty = db(&ws);
    empty
        .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
        .unwrap();
    drop(empty);
    assert_sound(&ws);
    let mut args = vec!["check", "--mode", "deterministic", "--format", "json"];
    args.extend(docs.iter().map(String::as_str));
    let o = ws.run(&args);
    assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
    let reports: i64 = db(&ws)
        .query_row("SELECT count(*) FROM reports", [], |r| r.get(0))
        .unwrap();
    assert_eq!(reports, 2);
    assert_sound(&ws);
}

#[test]
fn twenty_processes_on_one_store_lose_nothing() {
    let ws = Ws::new();
    let docs = documents(&ws, 20, "p");
    let children: Vec<_> = docs
        .iter()
        .map(|d| {
            ws.cmd()
                .args(["check", "--mode", "deterministic", "--format", "json", d])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // A language server on the same store at the same time.
    let mut lsp = Command::new(BIN)
        .arg("lsp")
        .env("BYOP_DB", ws.path("state.db"))
        .env("BYOP_DATA_DIR", ws.home.path())
        .current_dir(ws.dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
        json(&o);
    }
    lsp.kill().ok();
    lsp.wait().unwrap();
    let n: i64 = db(&ws)
        .query_row("SELECT count(DISTINCT doc_key) FROM reports", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(n, docs.len() as i64, "one report per process");
    assert_sound(&ws);
}

#[test]
fn two_hundred_documents_in_full_mode_with_429s_all_complete() {
    let ws = Ws::new();
    let docs = documents(&ws, 200, "f");
    // Every 60th call of each check is answered 429 with retry-after 1 s.
    let mut steps = vec![Step::pass(); 59];
    steps.push(Step::RateLimited {
        retry_after_secs: 1,
    });
    let llm = FakeLlm::start_blocking(Script::always(steps));
    let o = ws.run_llm(
        &llm,
        &format!("check --mode full --format json {}", docs.join(" ")),
    );
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "every check evaluated: {}",
        stderr(&o)
    );
    let reports = json(&o);
    let reports = reports.as_array().expect("an array of reports");
    assert_eq!(reports.len(), docs.len());
    let n: i64 = db(&ws)
        .query_row("SELECT count(DISTINCT doc_key) FROM reports", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(n, docs.len() as i64, "no report lost");
    // Each 429 costs one retry, no more: at most one call in 60 is a 429.
    let calls = llm.calls();
    let answered = reports
        .iter()
        .flat_map(|r| r["byop_report"]["check_results"].as_array().unwrap())
        .map(|c| c["raw_runs"].as_array().map_or(0, Vec::len))
        .sum::<usize>();
    assert!(
        calls <= answered + answered / 59 + 8,
        "{calls} calls for {answered} answered runs"
    );
    assert!(llm.max_in_flight() <= 16, "one limit for the whole batch");
    assert_sound(&ws);
}
