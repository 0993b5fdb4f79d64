//! `byop log --stats`: the audit log summed up, end to end against the built binary and
//! the local fake evaluator; every figure is checked against the rows `byop log --format
//! json` prints, counted here independently. Every row of a request that produced a
//! report names it (`decision_id`).

mod support;

use std::collections::BTreeMap;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{Ws, json, stderr, stdout};

fn rows(ws: &Ws) -> Vec<Value> {
    let o = ws.run(&["log", "--format", "json", "--limit", "100000"]);
    json(&o).as_array().unwrap().clone()
}

#[test]
fn the_summary_counts_what_the_log_holds_and_rows_name_their_decision() {
    let ws = Ws::new();
    // 1: deterministic, no evaluator: a report.
    assert_eq!(
        ws.run(&["check", "nda_review.ai.md"]).status.code(),
        Some(0)
    );
    // 2: the evaluator refuses the key: not evaluated, the request halts (exit 3).
    let refused = FakeLlm::start_blocking(Script::always(vec![Step::Unauthorized]));
    let o = ws.run_llm(&refused, "check --mode screening msa_review.ai.md");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // 3: rate limited once per call, then answered; 4: the same again, from the cache.
    let llm = FakeLlm::start_blocking(Script::always(vec![
        Step::RateLimited {
            retry_after_secs: 0,
        },
        Step::pass(),
    ]));
    let o = ws.run_llm(&llm, "check --mode screening nda_review.ai.md");
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    ws.run_llm(&llm, "check --mode screening nda_review.ai.md");

    let log = rows(&ws);
    let o = ws.run(&["log", "--stats", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let st = json(&o);

    // Counted here from the rows.
    let state = |r: &Value| r["state"].as_str().unwrap().to_string();
    let count = |s: &str| log.iter().filter(|r| state(r) == s).count();
    assert_eq!(st["rows"], log.len());
    assert_eq!(st["evaluations"], count("received"));
    assert_eq!(st["evaluations"], 4);
    assert_eq!(st["evaluated"], count("evaluated"));
    assert_eq!(st["fail_closed"], count("halted"));
    assert!(st["fail_closed"].as_u64().unwrap() >= 1, "{st}");
    let by_code = st["fail_closed_by_code"].as_object().unwrap();
    assert!(
        by_code.keys().any(|k| k.starts_with("not_evaluated:")),
        "{st}"
    );
    // The refused request had reached the evaluation when it halted.
    assert!(
        st["fail_closed_by_stage"]["evaluating"].as_u64().unwrap() >= 1,
        "{st}"
    );

    let calls: Vec<&Value> = log.iter().filter(|r| r["call"].is_object()).collect();
    let mut by_status: BTreeMap<String, u64> = BTreeMap::new();
    for c in &calls {
        *by_status
            .entry(c["call"]["outcome"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(
        st["calls_by_status"],
        serde_json::to_value(&by_status).unwrap()
    );
    assert!(
        by_status.contains_key("rate_limited") && by_status.contains_key("ok"),
        "{by_status:?}"
    );
    let cached = calls.iter().filter(|c| c["call"]["cached"] == true).count();
    assert!(cached > 0, "the rerun came from the cache");
    assert_eq!(st["calls"], calls.len());
    assert_eq!(st["cached_calls"], cached);
    let rate = st["cache_hit_rate"].as_f64().unwrap();
    assert!((rate - cached as f64 / calls.len() as f64).abs() < 1e-12);
    // Latency per provider: the calls that went out, median and p95 of their latency_ms.
    let mut ms: Vec<f64> = calls
        .iter()
        .filter(|c| c["call"]["cached"] == false)
        .map(|c| c["call"]["latency_ms"].as_f64().unwrap())
        .collect();
    ms.sort_by(f64::total_cmp);
    let p = &st["latency_per_provider"]["anthropic"];
    assert_eq!(p["n"], ms.len());
    let rank = ((0.95 * ms.len() as f64).ceil() as usize).max(1);
    assert_eq!(p["p95"].as_f64().unwrap(), ms[rank - 1]);
    assert!(
        st["latency_per_state"]["evaluating"]["n"].as_u64().unwrap() >= 3,
        "{st}"
    );

    // decision_id: every row of a request that produced a report names it.
    let history = json(&ws.run(&["history", "--format", "json"]));
    let report_ids: Vec<String> = history
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| [h["report_id"].as_str(), h["rerun_id"].as_str()])
        .flatten()
        .map(String::from)
        .collect();
    let evaluated: Vec<&Value> = log.iter().filter(|r| state(r) == "evaluated").collect();
    assert!(!evaluated.is_empty());
    for e in evaluated {
        let id = e["code"].as_str().unwrap();
        assert!(report_ids.iter().any(|r| r == id), "{id} {report_ids:?}");
        for r in log.iter().filter(|r| r["request_id"] == e["request_id"]) {
            assert_eq!(r["decision_id"], id, "{r}");
            assert!(
                r["inputs_fingerprint"]
                    .as_str()
                    .unwrap()
                    .starts_with("sha256:")
            );
        }
    }

    // Text; --since in the future counts nothing; a bad date is a usage error.
    let text = stdout(&ws.run(&["log", "--stats"]));
    assert!(text.contains("cache hit rate"), "{text}");
    assert!(text.contains("provider anthropic:"), "{text}");
    let later = json(&ws.run(&[
        "log",
        "--stats",
        "--since",
        "2999-01-01",
        "--format",
        "json",
    ]));
    assert_eq!(
        (later["rows"].as_u64(), later["evaluations"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(later["since"], "2999-01-01T00:00:00Z");
    let bad = ws.run(&["log", "--stats", "--since", "yesterday"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("--since"), "{}", stderr(&bad));
}
