//! `evidence_set`: the evidence set named in front matter (`byop: evidence:`, docs/contracts.md "Evidence set")
//! is schema-valid (LC-003), intact (`evidence_hash` over the RFC 8785 canonical JSON of every
//! other field, LC-002), from an allowed origin (LC-002), complete (`missing`, LC-001) and in
//! force at the as-of date (LC-004), fresh (`retrieved_at` no longer ago than `ttl_seconds` at
//! evaluation time, LC-004); every statute or case the output cites is one of its
//! `items[].ref` (LC-002). Without an evidence set, an output that cites statutes or cases is
//! `indeterminate` (LC-001); one that cites none has nothing to check.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome};
use crate::engine::grounding::citations::{LegalCitation, legal_citations};
use crate::model::Verdict;
use crate::model::integrity::jcs_sha256;

/// Origins accepted when `byop.toml` names none: only official sources count as evidence.
pub const DEFAULT_ORIGINS: &[&str] = &["OFFICIAL", "OFFICIAL_API"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let _: Params = super::kind::params(value)?;
    Ok(Arc::new(EvidenceRule))
}

#[derive(Debug)]
struct EvidenceRule;

/// The evidence set's fields, strictly (unknown fields rejected).
#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceSet {
    pub source_origin: String,
    pub items: Vec<EvidenceItem>,
    pub missing: bool,
    pub evidence_hash: String,
    pub retrieved_at: String,
    pub ttl_seconds: u64,
    /// The evidence-set schema's version (optional; non-empty when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_version: Option<String>,
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceItem {
    #[serde(rename = "type")]
    pub kind: ItemType,
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effective_date: Option<String>,
    /// Beyond the minimum fields; for expired items: the date the item stops being in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiry_date: Option<String>,
    /// `IN_FORCE`, `REPEALED`, `EXPIRED`, `INVALIDATED` or `UNKNOWN` (only `IN_FORCE` is in force).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ItemStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_excerpt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ItemType {
    Statute,
    Case,
    Guidance,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ItemStatus {
    InForce,
    Repealed,
    Expired,
    Invalidated,
    Unknown,
}

/// One problem found, in the order codes are reported.
struct Problem {
    code: &'static str,
    message: String,
    span: Option<(usize, usize)>,
}

/// The hash the set must carry: sha256 hex of the JCS of every field but `evidence_hash`.
pub fn expected_hash(raw: &serde_json::Value) -> String {
    let mut v = raw.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("evidence_hash");
    }
    jcs_sha256(&v)
}

/// `YYYY-MM-DD` → comparable triple.
pub fn parse_date(s: &str) -> Option<(i32, u8, u8)> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let d = time::Date::parse(s.trim(), &fmt).ok()?;
    Some((d.year(), u8::from(d.month()), d.day()))
}

impl CompiledRule for EvidenceRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        let c = &cx.companions;
        let cites = all_citations(cx.text, cx.body);
        let fm_at = {
            let o = crate::engine::document::front_matter::key_offset(cx.text, "evidence");
            let end = cx.text[o..].find('\n').map_or(cx.text.len(), |i| o + i);
            (o, end)
        };
        let Some(raw) = c.evidence else {
            if c.evidence_unreadable {
                return Some(outcome(Verdict::Indeterminate, "LC-001", "No evidence to check against: the evidence set named in front matter could not be read.".into(), vec![hit(fm_at, "evidence set unreadable")]));
            }
            if cites.is_empty() {
                return Some(RuleOutcome {
                    verdict: Verdict::Pass,
                    hits: vec![],
                    hits_are_problems: false,
                    notes: "No evidence set named and no statute or case cited: nothing to verify."
                        .into(),
                    code: None,
                    grounding: None,
                });
            }
            let hits = cites
                .iter()
                .map(|l| hit((l.start, l.end), "cited without an evidence set"))
                .collect();
            return Some(outcome(
                Verdict::Indeterminate,
                "LC-001",
                format!(
                    "No evidence to check against: the output cites {} statute(s) or case(s) but names no evidence set (front matter `byop: evidence:`).",
                    cites.len()
                ),
                hits,
            ));
        };
        let problems = check_set(raw, c, cx.now, &cites, fm_at);
        if problems.is_empty() {
            return Some(RuleOutcome {
                verdict: Verdict::Pass,
                hits: vec![],
                hits_are_problems: false,
                notes: format!(
                    "Evidence set intact, authoritative, complete and in force; {} citation(s) all in the set.",
                    cites.len()
                ),
                code: None,
                grounding: None,
            });
        }
        let code = problems[0].code;
        let notes = problems
            .iter()
            .map(|p| format!("{}: {}", p.code, p.message))
            .collect::<Vec<_>>()
            .join(" ");
        let hits = problems
            .iter()
            .map(|p| {
                hit(
                    p.span.unwrap_or(fm_at),
                    &format!("{}: {}", p.code, p.message),
                )
            })
            .collect();
        Some(outcome(Verdict::Fail, code, notes, hits))
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        "Verifies the evidence set named in front matter: schema (LC-003), evidence_hash and allowed source_origin (LC-002), missing (LC-001), temporal validity at as_of (LC-004), and that every statute or case the output cites is in the set (LC-002). Proves a violation.".into()
    }
}

fn outcome(verdict: Verdict, code: &str, notes: String, hits: Vec<Hit>) -> RuleOutcome {
    RuleOutcome {
        verdict,
        hits,
        hits_are_problems: true,
        notes,
        code: Some(code.into()),
        grounding: None,
    }
}

fn hit((start, end): (usize, usize), note: &str) -> Hit {
    Hit {
        start,
        end,
        note: note.into(),
        source: None,
    }
}

/// Every problem of the set, most fundamental first (a set that does not parse has no hash).
fn check_set(
    raw: &str,
    c: &super::kind::Companions,
    now: Option<jiff::Timestamp>,
    cites: &[LegalCitation],
    fm_at: (usize, usize),
) -> Vec<Problem> {
    let p = |code, message: String| Problem {
        code,
        message,
        span: Some(fm_at),
    };
    let value: serde_json::Value = match serde_json::from_str(raw) {
        Ok(v) => v,
        Err(e) => return vec![p("LC-003", format!("the evidence set is not JSON ({e})"))],
    };
    let set: EvidenceSet = match serde_json::from_value(value.clone()) {
        Ok(s) => s,
        Err(e) => {
            return vec![p(
                "LC-003",
                format!("the evidence set does not follow the schema: {e}"),
            )];
        }
    };
    let mut out = Vec::new();
    let given = set
        .evidence_hash
        .trim()
        .trim_start_matches("sha256:")
        .to_ascii_lowercase();
    let want = expected_hash(&value);
    let want = want.trim_start_matches("sha256:");
    if given != want {
        out.push(p("LC-002", format!("evidence_hash does not match the set's content (integrity failure; expected sha256 {want})")));
    }
    let allowed: Vec<&str> = if c.allowed_origins.is_empty() {
        DEFAULT_ORIGINS.to_vec()
    } else {
        c.allowed_origins.iter().map(String::as_str).collect()
    };
    if !allowed.contains(&set.source_origin.as_str()) {
        out.push(p("LC-002", format!("source_origin `{}` is not an allowed origin ({}; byop.toml `evidence.allowed_origins`)", set.source_origin, allowed.join(", "))));
    }
    if set.missing {
        out.push(p(
            "LC-001",
            "the evidence set says evidence is missing (`missing: true`)".into(),
        ));
    }
    if set
        .schema_version
        .as_deref()
        .is_some_and(|v| v.trim().is_empty())
    {
        out.push(p("LC-003", "schema_version is empty".into()));
    }
    if let Some(problem) = freshness(&set, now) {
        out.push(Problem {
            span: Some(fm_at),
            ..problem
        });
    }
    temporal(&set, c, &mut out, fm_at);
    for l in cites {
        if !set
            .items
            .iter()
            .any(|i| l.matches(&i.reference, i.title.as_deref()))
        {
            out.push(Problem {
                code: "LC-002",
                message: format!("citation outside the evidence set: {}", l.text),
                span: Some((l.start, l.end)),
            });
        }
    }
    let rank = |code: &str| match code {
        "LC-003" => 0,
        "LC-002" => 1,
        "LC-001" => 2,
        _ => 3,
    };
    out.sort_by_key(|p| rank(p.code));
    out
}

/// `retrieved_at` must parse; evidence retrieved longer ago than `ttl_seconds` at `now` is
/// stale (a cache must fetch it again).
fn freshness(set: &EvidenceSet, now: Option<jiff::Timestamp>) -> Option<Problem> {
    let problem = |code, message| Problem {
        code,
        message,
        span: None,
    };
    let Some(at) = super::lawmadi::parse_timestamp(&set.retrieved_at) else {
        return Some(problem(
            "LC-003",
            format!(
                "retrieved_at `{}` is not an ISO-8601 timestamp with an offset (e.g. 2026-01-01T10:00:00Z)",
                set.retrieved_at
            ),
        ));
    };
    let age = now?.as_second() - at.as_second();
    let ttl = i64::try_from(set.ttl_seconds).unwrap_or(i64::MAX);
    (age > ttl).then(|| {
        problem(
            "LC-004",
            format!(
                "the evidence is stale: retrieved {} ago ({age} s, at {}), past its ttl_seconds of {ttl}; fetch it again",
                human_age(age),
                set.retrieved_at.trim()
            ),
        )
    })
}

/// `3 d 4 h`, `2 h 5 min`, `7 min 30 s`, `42 s`.
fn human_age(secs: i64) -> String {
    let (d, h, m, s) = (
        secs / 86_400,
        secs % 86_400 / 3600,
        secs % 3600 / 60,
        secs % 60,
    );
    match (d, h, m) {
        (0, 0, 0) => format!("{s} s"),
        (0, 0, _) => format!("{m} min {s} s"),
        (0, _, _) => format!("{h} h {m} min"),
        _ => format!("{d} d {h} h"),
    }
}

fn temporal(
    set: &EvidenceSet,
    c: &super::kind::Companions,
    out: &mut Vec<Problem>,
    fm_at: (usize, usize),
) {
    let p = |code, message: String| Problem {
        code,
        message,
        span: Some(fm_at),
    };
    let as_of_text = c.as_of.or(c.today).unwrap_or("");
    let Some(as_of) = parse_date(as_of_text) else {
        out.push(p(
            "LC-003",
            format!("as_of `{as_of_text}` is not a YYYY-MM-DD date"),
        ));
        return;
    };
    for item in &set.items {
        if let Some(eff) = &item.effective_date {
            match parse_date(eff) {
                Some(d) if d > as_of => out.push(p(
                    "LC-004",
                    format!(
                        "{} is not yet in force at {as_of_text} (effective {eff})",
                        item.reference
                    ),
                )),
                Some(_) => {}
                None => out.push(p(
                    "LC-003",
                    format!(
                        "{}: effective_date `{eff}` is not YYYY-MM-DD",
                        item.reference
                    ),
                )),
            }
        }
        if let Some(exp) = &item.expiry_date {
            match parse_date(exp) {
                Some(d) if d <= as_of => out.push(p(
                    "LC-004",
                    format!("{} expired on {exp}, before {as_of_text}", item.reference),
                )),
                Some(_) => {}
                None => out.push(p(
                    "LC-003",
                    format!("{}: expiry_date `{exp}` is not YYYY-MM-DD", item.reference),
                )),
            }
        }
        match item.status {
            Some(ItemStatus::Repealed | ItemStatus::Expired | ItemStatus::Invalidated) => {
                out.push(p(
                    "LC-004",
                    format!(
                        "{} is marked {:?}",
                        item.reference,
                        item.status.expect("some")
                    ),
                ))
            }
            Some(ItemStatus::Unknown) => out.push(p(
                "LC-004",
                format!("{}: temporal status unknown (fail closed)", item.reference),
            )),
            _ => {}
        }
    }
}

/// Citations in prose, or a structured output's `evidence_citations[].ref` (then only those).
fn all_citations(text: &str, body: (usize, usize)) -> Vec<LegalCitation> {
    if super::lawmadi::json_body(text, body).is_none() {
        return legal_citations(text, body);
    }
    let mut out = Vec::new();
    let mut from = body.0;
    for r in super::lawmadi::json_citation_refs(text, body) {
        let at = text[from..body.1].find(&r).map_or(from, |i| from + i);
        let end = if at == from && !text[from..].starts_with(&r) {
            at
        } else {
            at + r.len()
        };
        from = end.min(body.1);
        out.push(LegalCitation {
            start: at,
            end,
            text: r,
            exact: true,
        });
    }
    out
}
