//! What the audit log says in sum: how many evaluation requests, how many ended fail
//! closed (by code and by the stage they had reached), evaluator calls by outcome, the
//! cache hit rate, and latencies — per state of a request and per provider of a call —
//! as median and 95th percentile. Pure: the rows come from the store.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{AuditRow, AuditState};

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AuditStats {
    /// The earliest row counted (`--since`), when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Rows counted.
    pub rows: usize,
    /// Requests received (evaluations, repairs, counterfactual audits, generations).
    pub evaluations: usize,
    /// Requests that produced a report.
    pub evaluated: usize,
    /// Generation requests that produced an output (`byop dataset run`, `byop plan`).
    pub generated: usize,
    /// Requests that halted (fail closed).
    pub fail_closed: usize,
    /// Halted requests by their code (`not_evaluated:<kind>`, `input_error`, …).
    pub fail_closed_by_code: BTreeMap<String, usize>,
    /// Halted requests by the last state they reached before halting.
    pub fail_closed_by_stage: BTreeMap<String, usize>,
    /// Evaluator calls (attempts, cache hits included) by outcome (`ok` or the error kind).
    pub calls_by_status: BTreeMap<String, usize>,
    pub calls: usize,
    pub cached_calls: usize,
    /// cached_calls / calls (0 when there were none).
    pub cache_hit_rate: f64,
    /// Seconds spent in each state, from entering it to the request's next state (the
    /// log's times are to the second).
    pub latency_per_state: BTreeMap<String, Latency>,
    /// Milliseconds per evaluator call that went out (cache hits aside), by provider.
    pub latency_per_provider: BTreeMap<String, Latency>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Latency {
    pub n: usize,
    pub median: f64,
    pub p95: f64,
}

/// Median and 95th percentile (nearest rank) of `values`.
pub fn latency(mut values: Vec<f64>) -> Latency {
    if values.is_empty() {
        return Latency::default();
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    // Nearest rank: the smallest value with at least 95 % of the values at or below it.
    let rank = ((0.95 * n as f64).ceil() as usize).clamp(1, n);
    Latency {
        n,
        median,
        p95: values[rank - 1],
    }
}

fn seconds(at: &str) -> Option<i64> {
    time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
        .ok()
        .map(|t| t.unix_timestamp())
}

/// Sum up `rows` (oldest first), keeping those at or after `since` (an RFC 3339 time or
/// a date, compared as UTC text, as the log writes it).
pub fn summarise(rows: &[AuditRow], since: Option<&str>) -> AuditStats {
    let rows: Vec<&AuditRow> = rows
        .iter()
        .filter(|r| since.is_none_or(|s| r.event.at.as_str() >= s))
        .collect();
    let mut st = AuditStats {
        since: since.map(str::to_string),
        rows: rows.len(),
        ..Default::default()
    };
    let mut per_state: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut per_provider: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    // Per request: the last state entered (not a call) and when.
    let mut open: BTreeMap<&str, (AuditState, Option<i64>)> = BTreeMap::new();
    for r in &rows {
        let e = &r.event;
        if let Some(c) = &e.call {
            st.calls += 1;
            *st.calls_by_status
                .entry(c.outcome.as_str().to_string())
                .or_default() += 1;
            if c.cached {
                st.cached_calls += 1;
            } else {
                per_provider
                    .entry(c.provider.clone())
                    .or_default()
                    .push(c.latency_ms as f64);
            }
            continue;
        }
        let now = seconds(&e.at);
        if let Some((state, Some(t0))) = open.get(e.request_id.as_str())
            && let Some(t1) = now
        {
            per_state
                .entry(state.as_str().to_string())
                .or_default()
                .push((t1 - t0).max(0) as f64);
        }
        match e.state {
            AuditState::Received => st.evaluations += 1,
            AuditState::Evaluated => st.evaluated += 1,
            AuditState::Generated => st.generated += 1,
            AuditState::Halted => {
                st.fail_closed += 1;
                let code = e.code.clone().unwrap_or_else(|| "unknown".into());
                *st.fail_closed_by_code.entry(code).or_default() += 1;
                let stage = open
                    .get(e.request_id.as_str())
                    .map_or("none", |(s, _)| s.as_str());
                *st.fail_closed_by_stage
                    .entry(stage.to_string())
                    .or_default() += 1;
            }
            _ => {}
        }
        open.insert(&e.request_id, (e.state, now));
    }
    st.cache_hit_rate = if st.calls == 0 {
        0.0
    } else {
        st.cached_calls as f64 / st.calls as f64
    };
    st.latency_per_state = per_state
        .into_iter()
        .map(|(k, v)| (k, latency(v)))
        .collect();
    st.latency_per_provider = per_provider
        .into_iter()
        .map(|(k, v)| (k, latency(v)))
        .collect();
    st
}

/// The summary as text, one figure per line.
pub fn text(st: &AuditStats) -> String {
    let mut out = format!(
        "audit log{}: {} row(s)\nevaluations {} · evaluated {} · generated {} · fail closed {}\n",
        st.since
            .as_ref()
            .map(|s| format!(" since {s}"))
            .unwrap_or_default(),
        st.rows,
        st.evaluations,
        st.evaluated,
        st.generated,
        st.fail_closed
    );
    let counts = |m: &BTreeMap<String, usize>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    out += &format!("fail closed by code: {}\n", counts(&st.fail_closed_by_code));
    out += &format!(
        "fail closed by stage: {}\n",
        counts(&st.fail_closed_by_stage)
    );
    out += &format!(
        "evaluator calls {} ({}) · cache hit rate {:.1} %\n",
        st.calls,
        counts(&st.calls_by_status),
        st.cache_hit_rate * 100.0
    );
    for (k, l) in &st.latency_per_state {
        out += &format!(
            "state {k}: n {} · median {} s · p95 {} s\n",
            l.n, l.median, l.p95
        );
    }
    for (k, l) in &st.latency_per_provider {
        out += &format!(
            "provider {k}: n {} · median {} ms · p95 {} ms\n",
            l.n, l.median, l.p95
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AuditEvent, CallOutcome, CallRecord, RunErrorKind, Usage};

    fn row(id: i64, req: &str, at: &str, state: AuditState, code: Option<&str>) -> AuditRow {
        AuditRow {
            id,
            event: AuditEvent {
                request_id: req.into(),
                at: at.into(),
                document: "/d".into(),
                state,
                code: code.map(Into::into),
                inputs_fingerprint: None,
                playbook_logic_hash: None,
                call: None,
                decision_id: None,
            },
            prev_hash: String::new(),
            row_hash: String::new(),
        }
    }

    fn call(
        id: i64,
        req: &str,
        provider: &str,
        ms: u64,
        outcome: CallOutcome,
        cached: bool,
    ) -> AuditRow {
        let mut r = row(id, req, "2026-01-01T00:00:01Z", AuditState::Call, None);
        r.event.call = Some(CallRecord {
            provider: provider.into(),
            model: "m".into(),
            check_id: "c".into(),
            run: 1,
            attempt: 1,
            started_at: "2026-01-01T00:00:01Z".into(),
            latency_ms: ms,
            status: Some(200),
            outcome,
            cached,
            request_sha256: None,
            response_sha256: None,
            usage: Usage::default(),
        });
        r
    }

    #[test]
    fn percentiles_by_hand() {
        // 1..=20: median (10 + 11)/2 = 10.5; nearest rank 95 % of 20 = 19th value = 19.
        let l = latency((1..=20).map(f64::from).collect());
        assert_eq!((l.n, l.median, l.p95), (20, 10.5, 19.0));
        let l = latency(vec![5.0, 1.0, 3.0]);
        assert_eq!((l.median, l.p95), (3.0, 5.0));
        assert_eq!(latency(vec![]), Latency::default());
    }

    #[test]
    fn a_summary_worked_out_by_hand() {
        let rows = vec![
            row(1, "a", "2026-01-01T00:00:00Z", AuditState::Received, None),
            row(2, "a", "2026-01-01T00:00:00Z", AuditState::Validated, None),
            row(3, "a", "2026-01-01T00:00:01Z", AuditState::Evaluating, None),
            call(4, "a", "anthropic", 100, CallOutcome::Ok, false),
            call(
                5,
                "a",
                "anthropic",
                300,
                CallOutcome::Failed(RunErrorKind::RateLimited),
                false,
            ),
            call(6, "a", "anthropic", 0, CallOutcome::Ok, true),
            row(
                7,
                "a",
                "2026-01-01T00:00:04Z",
                AuditState::Evaluated,
                Some("r1"),
            ),
            row(8, "b", "2026-01-02T00:00:00Z", AuditState::Received, None),
            row(
                9,
                "b",
                "2026-01-02T00:00:02Z",
                AuditState::Halted,
                Some("input_error"),
            ),
        ];
        let st = summarise(&rows, None);
        assert_eq!((st.evaluations, st.evaluated, st.fail_closed), (2, 1, 1));
        assert_eq!(st.fail_closed_by_code["input_error"], 1);
        assert_eq!(st.fail_closed_by_stage["received"], 1);
        assert_eq!((st.calls, st.cached_calls), (3, 1));
        assert!((st.cache_hit_rate - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(st.calls_by_status["ok"], 2);
        // Evaluating lasted 00:00:01 → 00:00:04; received: 0 s (a) and 2 s (b).
        assert_eq!(st.latency_per_state["evaluating"].median, 3.0);
        assert_eq!(st.latency_per_state["received"].n, 2);
        assert_eq!(st.latency_per_state["received"].median, 1.0);
        // Calls that went out: 100 and 300 ms.
        let p = &st.latency_per_provider["anthropic"];
        assert_eq!((p.n, p.median, p.p95), (2, 200.0, 300.0));
        // Since the second day: request b only.
        let st = summarise(&rows, Some("2026-01-02"));
        assert_eq!((st.rows, st.evaluations, st.calls), (2, 1, 0));
    }
}
