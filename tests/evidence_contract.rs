//! The evidence contract (docs/contracts.md): grounding checks against the source companion and the
//! evidence set's LC codes, on real corpus outputs (`../shared/corpus/contract-reviews`) and on
//! copies with planted inventions.

mod support;

use std::path::{Path, PathBuf};

use support::evidence::{Inputs, apply, flagged};
use support::workspace::{Ws, check, json, stderr, stdout};

use byop::engine::rules::RuleOutcome;
use byop::model::Verdict;
use byop::model::integrity::jcs_sha256;

const GROUNDING: [&str; 4] = [
    "quotes_grounded",
    "quotes_verbatim",
    "references_grounded",
    "entities_grounded",
];

#[test]
fn without_a_source_every_grounding_check_is_indeterminate_lc001() {
    let text =
        "Section 4.1 provides that \"the Fund shall indemnify Integrity in full\" for $5,000,000.";
    for check in GROUNDING {
        let o = apply(check, text, &Inputs::default());
        assert_eq!(o.verdict, Verdict::Indeterminate, "{check}");
        assert_eq!(o.code.as_deref(), Some("LC-001"), "{check}");
        assert!(
            o.notes.contains("No evidence to check against"),
            "{check}: {}",
            o.notes
        );
    }
}

const SOURCE: &str = "SERVICES AGREEMENT between Acme Corporation (\"Supplier\") and Beta Holdings, LLC (\"Customer\"), dated March 1, 2024.\n\
1. Services. Supplier shall provide the Services described in Exhibit A.\n\
2. Fees. Customer shall pay a fee of ONE MILLION DOLLARS ($1,000,000) per year. Late amounts bear interest at 1.5% per month.\n\
3. Term. This Agreement continues for twelve (12) months. Either party may terminate on ninety (90) days' written notice.\n\
4. Liability. 4.1 In no event shall either party be liable for indirect or consequential damages. (a) This limit does not apply to fraud. (b) Nor to breach of Section 5.\n\
5. Confidentiality. Each party shall keep the other's \"Confidential Information\" secret for five (5) years.\n";

#[test]
fn grounded_claims_pass_with_normalization() {
    let text = "## Review\n\nUnder Section 4.1(a), the cap does not apply to fraud. Section 4.1 states: \"In no event shall either party be liable for indirect or consequential damages.\" \
                The fee is USD 1 million per year with 1.5% monthly interest; termination needs 90 days' notice and the term is 1 year. \
                Acme Corp. provides the services in Exhibit A; \"Confidential Information\" is protected for 5 years from March 1, 2024.";
    let inp = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    for check in GROUNDING {
        let o = apply(check, text, &inp);
        assert_eq!(
            o.verdict,
            Verdict::Pass,
            "{check}: {:?} {}",
            flagged(&o, text),
            o.notes
        );
        assert_eq!(o.code, None);
    }
}

#[test]
fn planted_inventions_in_a_synthetic_review_are_all_caught() {
    let inp = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    let cases: &[(&str, &str, &str)] = &[
        (
            "quotes_grounded",
            "Section 4.1 provides: \"Supplier's aggregate liability shall not exceed the fees paid.\"",
            "Supplier's aggregate liability shall not exceed the fees paid.",
        ),
        (
            "quotes_verbatim",
            "Clause 4.1 reads: \"In no event shall either party be liable for direct or consequential damages.\"",
            "In no event shall either party be liable for direct or consequential damages.",
        ),
        (
            "references_grounded",
            "Termination is governed by Section 14.3.",
            "Section 14.3",
        ),
        (
            "references_grounded",
            "Pricing is in Exhibit C.",
            "Exhibit C",
        ),
        (
            "references_grounded",
            "See Section 4.1(d) on carve-outs.",
            "Section 4.1(d)",
        ),
        (
            "entities_grounded",
            "Section 2 sets the annual fee at $2,500,000.",
            "$2,500,000",
        ),
        (
            "entities_grounded",
            "Either party may terminate on sixty (60) days' notice.",
            "sixty (60) days",
        ),
        (
            "entities_grounded",
            "Under the Agreement, late amounts bear interest at 2% per month.",
            "2%",
        ),
        (
            "entities_grounded",
            "The Agreement is dated June 15, 2023.",
            "June 15, 2023",
        ),
        (
            "entities_grounded",
            "The Agreement names the customer as Globex Industries Inc.",
            "Globex Industries Inc.",
        ),
        (
            "entities_grounded",
            "Section 5 protects \"Trade Secrets\" too.",
            "Trade Secrets",
        ),
    ];
    for (check, text, planted) in cases {
        let o = apply(check, text, &inp);
        assert_eq!(
            o.verdict,
            Verdict::Fail,
            "{check} missed {planted}: {}",
            o.notes
        );
        assert!(
            flagged(&o, text).contains(planted),
            "{check}: {:?} lacks {planted}",
            flagged(&o, text)
        );
        let code = match *check {
            "references_grounded" => "GROUNDING-REF",
            "entities_grounded" => "GROUNDING-ENTITY",
            _ => "GROUNDING-QUOTE",
        };
        assert_eq!(o.code.as_deref(), Some(code));
    }
}

#[test]
fn a_misquote_carries_the_source_words_as_its_fix() {
    let text = "Clause 4.1 reads: \"In no event shall either party be liable for direct or consequential damages.\"";
    let inp = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    let o = apply("quotes_verbatim", text, &inp);
    let src = o.hits[0].source.as_ref().expect("source location");
    assert_eq!(&SOURCE[src.start..src.end], src.excerpt);
    assert!(
        src.excerpt.contains("indirect or consequential"),
        "{}",
        src.excerpt
    );
    assert_eq!(src.replacement.as_deref(), Some(src.excerpt.as_str()));
    // The not-in-source check does not also report it: a misquote is not an invention.
    assert_eq!(apply("quotes_grounded", text, &inp).verdict, Verdict::Pass);
}

#[test]
fn drafted_language_and_quotes_of_the_prompt_are_not_claims_about_the_source() {
    let inp = Inputs {
        source: Some(SOURCE),
        prompt: Some("Add a clause that says the Supplier must respond within two business days."),
        ..Default::default()
    };
    let text = "## Proposed Clause\n\n**Section 4.2 Limitation of Liability.** Liability is capped at $500,000 over \"the twelve months before the claim arises and shall exclude gross negligence\".\n\n\
                ## Analysis\n\nWe recommend replacing it with \"each party's liability shall be limited to the fees paid in the prior year\".\n\
                You asked: \"Add a clause that says the Supplier must respond within two business days.\"\n\
                The new cap is \"the twelve months before the claim arises and shall exclude gross negligence\", as drafted above.\n";
    for check in GROUNDING {
        let o = apply(check, text, &inp);
        assert_eq!(o.verdict, Verdict::Pass, "{check}: {:?}", flagged(&o, text));
    }
}

// ---- the evidence set ----

fn evidence(mutate: impl FnOnce(&mut serde_json::Value), rehash: bool) -> String {
    let mut v = serde_json::json!({
        "source_origin": "OFFICIAL",
        "items": [
            {"type": "STATUTE", "ref": "USC:15 U.S.C. § 1681", "title": "Fair Credit Reporting Act", "effective_date": "1970-10-26"},
            {"type": "CASE", "ref": "CASE:Smith v. Jones", "effective_date": "2019-05-01", "text_excerpt": "…"}
        ],
        "missing": false,
        "evidence_hash": "",
        "retrieved_at": "2025-12-31T10:00:00Z",
        "ttl_seconds": 600
    });
    mutate(&mut v);
    if rehash {
        let mut h = v.clone();
        h.as_object_mut().unwrap().remove("evidence_hash");
        v["evidence_hash"] =
            serde_json::Value::String(jcs_sha256(&h).trim_start_matches("sha256:").into());
    }
    v.to_string()
}

const CITING: &str = "Under 15 U.S.C. § 1681 and Smith v. Jones, the report must be accurate.";

fn evidence_outcome(text: &str, ev: &str, as_of: Option<&str>) -> RuleOutcome {
    let inp = Inputs {
        evidence: Some(ev),
        as_of,
        source: Some(SOURCE),
        ..Default::default()
    };
    apply("evidence_set", text, &inp)
}

#[test]
fn an_intact_current_set_citing_only_its_items_passes() {
    let o = evidence_outcome(CITING, &evidence(|_| {}, true), None);
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.notes);
}

#[test]
fn hash_tampering_is_lc002() {
    // Content changed after hashing.
    let ev = evidence(|_| {}, true).replace("Fair Credit Reporting Act", "Fair Credit Act");
    let o = evidence_outcome(CITING, &ev, None);
    assert_eq!(
        (o.verdict, o.code.as_deref()),
        (Verdict::Fail, Some("LC-002")),
        "{}",
        o.notes
    );
    assert!(
        o.notes.contains("evidence_hash does not match"),
        "{}",
        o.notes
    );
}

#[test]
fn an_origin_outside_the_allowed_list_is_lc002() {
    let ev = evidence(|v| v["source_origin"] = "BLOG".into(), true);
    let o = evidence_outcome(CITING, &ev, None);
    assert_eq!(o.code.as_deref(), Some("LC-002"), "{}", o.notes);
    // byop.toml can allow it.
    let inp = Inputs {
        evidence: Some(&ev),
        source: Some(SOURCE),
        allowed: vec!["BLOG".into()],
        ..Default::default()
    };
    assert_eq!(apply("evidence_set", CITING, &inp).verdict, Verdict::Pass);
    // …and a workspace list replaces the default one.
    let ok = evidence(|_| {}, true);
    let inp = Inputs {
        evidence: Some(&ok),
        source: Some(SOURCE),
        allowed: vec!["DRF".into()],
        ..Default::default()
    };
    assert_eq!(
        apply("evidence_set", CITING, &inp).code.as_deref(),
        Some("LC-002")
    );
}

#[test]
fn missing_evidence_is_lc001() {
    let o = evidence_outcome(
        CITING,
        &evidence(|v| v["missing"] = true.into(), true),
        None,
    );
    assert_eq!(
        (o.verdict, o.code.as_deref()),
        (Verdict::Fail, Some("LC-001")),
        "{}",
        o.notes
    );
    // And citing statutes with no evidence set at all is indeterminate, LC-001.
    let o = apply(
        "evidence_set",
        CITING,
        &Inputs {
            source: Some(SOURCE),
            ..Default::default()
        },
    );
    assert_eq!(
        (o.verdict, o.code.as_deref()),
        (Verdict::Indeterminate, Some("LC-001"))
    );
    // An output that cites nothing and names no set has nothing to verify.
    let o = apply("evidence_set", "A plain summary.", &Inputs::default());
    assert_eq!(o.verdict, Verdict::Pass);
}

#[test]
fn a_future_effective_date_is_lc004() {
    let ev = evidence(
        |v| v["items"][0]["effective_date"] = "2027-01-01".into(),
        true,
    );
    let o = evidence_outcome(CITING, &ev, Some("2026-06-30"));
    assert_eq!(
        (o.verdict, o.code.as_deref()),
        (Verdict::Fail, Some("LC-004")),
        "{}",
        o.notes
    );
    assert!(o.notes.contains("not yet in force"), "{}", o.notes);
    // The same set is fine as of a later date.
    assert_eq!(
        evidence_outcome(CITING, &ev, Some("2027-02-01")).verdict,
        Verdict::Pass
    );
}

#[test]
fn an_expired_or_repealed_item_is_lc004() {
    let ev = evidence(|v| v["items"][1]["expiry_date"] = "2025-01-01".into(), true);
    let o = evidence_outcome(CITING, &ev, Some("2025-06-01"));
    assert_eq!(o.code.as_deref(), Some("LC-004"), "{}", o.notes);
    assert!(o.notes.contains("expired"), "{}", o.notes);
    assert_eq!(
        evidence_outcome(CITING, &ev, Some("2024-12-31")).verdict,
        Verdict::Pass
    );
    let ev = evidence(|v| v["items"][0]["status"] = "REPEALED".into(), true);
    assert_eq!(
        evidence_outcome(CITING, &ev, None).code.as_deref(),
        Some("LC-004")
    );
}

#[test]
fn a_citation_outside_the_set_is_lc002_at_the_citation() {
    let text = format!("{CITING} See also 42 U.S.C. § 1983 and Doe v. Roe.");
    let o = evidence_outcome(&text, &evidence(|_| {}, true), None);
    assert_eq!(
        (o.verdict, o.code.as_deref()),
        (Verdict::Fail, Some("LC-002")),
        "{}",
        o.notes
    );
    let spans = flagged(&o, &text);
    assert!(spans.contains(&"42 U.S.C. § 1983"), "{spans:?}");
    assert!(spans.iter().any(|s| s.contains("Doe v. Roe")), "{spans:?}");
    assert!(
        o.notes.contains("citation outside the evidence set"),
        "{}",
        o.notes
    );
}

#[test]
fn a_schema_invalid_set_is_lc003() {
    for ev in [
        "not json".to_string(),
        evidence(|v| v["items"][0]["type"] = "BLOGPOST".into(), true),
        evidence(
            |v| {
                v.as_object_mut().unwrap().remove("retrieved_at");
            },
            true,
        ),
        evidence(|v| v["extra"] = 1.into(), true),
        evidence(
            |v| v["items"][0]["effective_date"] = "01/02/2020".into(),
            true,
        ),
    ] {
        let o = evidence_outcome(CITING, &ev, None);
        assert_eq!(
            (o.verdict, o.code.as_deref()),
            (Verdict::Fail, Some("LC-003")),
            "{ev}: {}",
            o.notes
        );
    }
}

// ---- structured JSON outputs (success / fail-closed) ----

fn success(mutate: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = serde_json::json!({
        "fail_closed": false,
        "request_id": "6f1c8a52-0d0c-4a7e-9a57-0b6f7c1d2e3f",
        "decision_token": {
            "decision_id": "d-1", "created_at": "2026-01-01T00:00:00Z",
            "input_hash": "a".repeat(64), "drf_evidence_hash": "b".repeat(64),
            "decision_graph_hash": "c".repeat(64), "constitution_version": "1.0",
            "digital_signature": "PLACEHOLDER"
        },
        "summary": "s", "known_facts": ["k"], "unknown_facts": [],
        "evidence_citations": [{"ref": "USC:15 U.S.C. § 1681", "type": "STATUTE", "note": "n"}],
        "next_actions": ["a"], "disclaimer": "d"
    });
    mutate(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn structured_outputs_follow_the_strict_schema() {
    let ok = success(|_| {});
    assert_eq!(
        apply("structured_output", &ok, &Inputs::default()).verdict,
        Verdict::Pass
    );
    let fenced = format!("```json\n{ok}\n```");
    assert_eq!(
        apply("structured_output", &fenced, &Inputs::default()).verdict,
        Verdict::Pass
    );
    let closed = r#"{"fail_closed": true, "request_id": "0b9e3c1e-7c2a-4f5e-8d7b-2a6c9e4f1d30", "code": "LC-004", "message": "m", "required_user_inputs": [], "disclaimer": "d"}"#;
    assert_eq!(
        apply("structured_output", closed, &Inputs::default()).verdict,
        Verdict::Pass
    );
    for (bad, why) in [
        (
            success(|v| {
                v.as_object_mut().unwrap().remove("decision_token");
            }),
            "decision_token",
        ),
        (
            success(|v| v["decision_token"]["drf_evidence_hash"] = "".into()),
            "evidence hash",
        ),
        (success(|v| v["summary"] = 3.into()), "schema"),
        (success(|v| v["surprise"] = true.into()), "schema"),
        (closed.replace("LC-004", "E42"), "LC-001"),
        ("{\"fail_closed\": false,".to_string(), "not valid JSON"),
    ] {
        let o = apply("structured_output", &bad, &Inputs::default());
        assert_eq!(
            (o.verdict, o.code.as_deref()),
            (Verdict::Fail, Some("LC-003")),
            "{bad}"
        );
        assert!(o.notes.contains(why), "{why}: {}", o.notes);
    }
    // A success whose evidence hash is not the set's is LC-002.
    let ev = evidence(|_| {}, true);
    let inp = Inputs {
        evidence: Some(&ev),
        ..Default::default()
    };
    assert_eq!(
        apply("structured_output", &ok, &inp).code.as_deref(),
        Some("LC-002")
    );
    // Its citations are checked against the set by exact ref.
    let outside = success(|v| v["evidence_citations"][0]["ref"] = "USC:42 U.S.C. § 1983".into());
    assert_eq!(
        apply("evidence_set", &outside, &inp).code.as_deref(),
        Some("LC-002")
    );
    assert_eq!(apply("evidence_set", &ok, &inp).verdict, Verdict::Pass);
}

// ---- real corpus outputs ----

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus missing: {}",
        dir.display()
    );
    None
}

/// An output's body and its source contract's text.
fn corpus_pair(dir: &Path, name: &str) -> (String, String) {
    let text = std::fs::read_to_string(dir.join("outputs").join(name)).unwrap();
    let doc = byop::engine::document::Document::parse(text, None).unwrap();
    let src = doc
        .front_matter
        .source
        .clone()
        .expect("source in front matter");
    let src = std::fs::read_to_string(dir.join("outputs").join(src)).unwrap();
    (doc.body_text().to_string(), src)
}

/// Inventions planted (at the top, before any heading) in copies of real reviews and
/// summaries: every one is caught, and the
/// copy's other findings are the original's (planting adds exactly the planted findings).
#[test]
fn planted_inventions_in_real_outputs_are_all_caught() {
    let Some(dir) = corpus() else { return };
    let outputs = [
        "contract_004_review_3__claude-sonnet-4.5.ai.md",
        "contract_005_review_3__gpt-5.ai.md",
        "contract_010_review_2__claude-sonnet-4.5.ai.md",
        "contract_011_review_2__gemini-2.5-flash.ai.md",
        "contract_014_review_2__deepseek-chat-v3.ai.md",
        "contract_015_summarize_1__gpt-5.ai.md",
        "contract_016_review_2__grok-4.ai.md",
        "contract_017_summarize_1__mistral-large.ai.md",
    ];
    let planted: &[(&str, &str, &str)] = &[
        (
            "references_grounded",
            "Termination for convenience is governed by Section 47.3 of the Agreement.",
            "Section 47.3",
        ),
        (
            "references_grounded",
            "The pricing schedule is in Exhibit Q.",
            "Exhibit Q",
        ),
        (
            "entities_grounded",
            "Section 1 of the Agreement caps liability at $7,654,321.",
            "$7,654,321",
        ),
        (
            "entities_grounded",
            "The Agreement requires notice of seventy-seven (77) days.",
            "seventy-seven (77) days",
        ),
        (
            "entities_grounded",
            "The Agreement is dated February 29, 2012.",
            "February 29, 2012",
        ),
        (
            "entities_grounded",
            "The Agreement sets a late fee of 13.7%.",
            "13.7%",
        ),
        (
            "entities_grounded",
            "The Agreement is between the parties and Zyxwv Holdings LLC.",
            "Zyxwv Holdings LLC",
        ),
        (
            "quotes_grounded",
            "The Agreement states: \"the Licensor shall refund all fees within three hours of any complaint\".",
            "the Licensor shall refund all fees within three hours of any complaint",
        ),
    ];
    let mut found_any = 0;
    for name in outputs {
        if !dir.join("outputs").join(name).exists() {
            continue;
        }
        found_any += 1;
        let (body, src) = corpus_pair(&dir, name);
        let inp = Inputs {
            source: Some(&src),
            ..Default::default()
        };
        for (check, sentence, span) in planted {
            let before = apply(check, &body, &inp).hits.len();
            let copy = format!("{sentence}\n\n{body}");
            let o = apply(check, &copy, &inp);
            let spans = flagged(&o, &copy);
            assert!(
                spans.contains(span),
                "{name}: {check} missed planted {span}: {spans:?}"
            );
            assert_eq!(
                o.hits.len(),
                before + 1,
                "{name}: {check}: planting changed other findings"
            );
        }
        // A misquote planted from the source's own words (one word changed) is caught too.
        let all: Vec<&str> = src.split_whitespace().collect();
        let plain =
            |w: &&str| w.chars().all(|c| c.is_alphabetic() || ",.;'".contains(c)) && w.len() >= 2;
        let at = (200..all.len() - 14)
            .find(|&i| all[i..i + 14].iter().all(plain))
            .expect("a plain 14-word run");
        let words: Vec<&str> = all[at..at + 14].to_vec();
        let mut changed = words.clone();
        changed[6] = "zebra";
        let copy = format!("The Agreement reads: \"{}\".\n\n{body}", changed.join(" "));
        let o = apply("quotes_verbatim", &copy, &inp);
        assert!(
            o.hits
                .iter()
                .any(|h| copy[h.start..h.end].contains("zebra")),
            "{name}: misquote missed ({:?}; not-in-source: {:?}; {})",
            flagged(&o, &copy),
            flagged(&apply("quotes_grounded", &copy, &inp), &copy),
            o.notes
        );
    }
    assert!(found_any >= 6, "corpus outputs missing");
}

// ---- from the command line: report codes, SARIF, JUnit ----

#[test]
fn byop_check_with_the_evidence_playbook_reports_codes_and_source_locations() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    ws.write(
        "review.ai.md",
        "---\nbyop:\n  source: contract.txt\n---\n# Review\n\nClause 4.1 reads: \"In no event shall either party be liable for direct or consequential damages.\"\n\n\
         Termination is governed by Section 14.3 of the Agreement.\n",
    );
    ws.write(
        "bare.ai.md",
        "# Review\n\nSection 4.1 caps liability at $5,000,000.\n",
    );
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "json",
        "--fail-on",
        "never",
        "review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let by_id = |id: &str| check(&v, id);
    let verbatim = by_id("quotes_verbatim");
    assert_eq!(verbatim["result"], "fail");
    assert_eq!(verbatim["code"], "GROUNDING-QUOTE");
    let src = &verbatim["evidence_citations"][0]["source"];
    assert_eq!(
        src["path"].as_str().map(|p| p.ends_with("contract.txt")),
        Some(true),
        "{src}"
    );
    assert!(
        src["excerpt"]
            .as_str()
            .unwrap()
            .contains("indirect or consequential"),
        "{src}"
    );
    assert_eq!(src["range"]["start"]["line"], 4, "{src}");
    let refs = by_id("references_grounded");
    assert_eq!(
        (refs["result"].as_str(), refs["code"].as_str()),
        (Some("fail"), Some("GROUNDING-REF"))
    );
    assert!(
        by_id("entities_grounded").get("code").is_none(),
        "a pass has no code"
    );

    // No source: never a pass. With nothing in its place the gate refuses the document
    // (exit 2 naming the key); the indeterminate LC-001 results themselves are in
    // tests/trust_inputs.rs (a document naming an evidence set instead).
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "json",
        "--fail-on",
        "never",
        "bare.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no `source` companion"),
        "{}",
        stderr(&o)
    );

    // SARIF: the code in properties, the source passage as a related location.
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "sarif",
        "--fail-on",
        "never",
        "review.ai.md",
    ]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif json");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let misquote = results
        .iter()
        .find(|x| x["ruleId"] == "quotes_verbatim")
        .expect("sarif result");
    assert_eq!(misquote["properties"]["code"], "GROUNDING-QUOTE");
    let related = &misquote["relatedLocations"][0]["physicalLocation"];
    assert!(
        related["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("contract.txt"),
        "{related}"
    );
    assert_eq!(related["region"]["startLine"], 5);
    assert!(results.iter().any(
        |x| x["ruleId"] == "references_grounded" && x["properties"]["code"] == "GROUNDING-REF"
    ));

    // JUnit: the code leads the failure message.
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "junit",
        "--fail-on",
        "never",
        "review.ai.md",
    ]);
    let xml = stdout(&o);
    assert!(xml.contains("message=\"[GROUNDING-REF] "), "{xml}");
    assert!(xml.contains("message=\"[GROUNDING-QUOTE] "), "{xml}");
}

#[test]
fn a_misquote_in_pieces_shows_and_fixes_every_piece() {
    // Two pieces joined by "…": the second says "direct" where the source says "indirect".
    let text = "Clause 4.1 reads: \"Supplier shall provide the Services … In no event shall either party be liable for direct or consequential damages.\"";
    let inp = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    let o = apply("quotes_verbatim", text, &inp);
    assert_eq!(o.hits.len(), 1, "{:?} {}", flagged(&o, text), o.notes);
    let src = o.hits[0].source.as_ref().expect("source location");
    assert_eq!(
        src.excerpt,
        "Supplier shall provide the Services … In no event shall either party be liable for indirect or consequential damages."
    );
    assert_eq!(src.replacement.as_deref(), Some(src.excerpt.as_str()));
    assert!(
        o.hits[0].note.contains("has “direct” for “indirect”"),
        "{}",
        o.hits[0].note
    );
}

#[test]
fn a_quote_in_verbatim_pieces_is_grounded() {
    let text = "Clause 4.1 reads: \"Supplier shall provide the Services … In no event shall either party be liable for indirect or consequential damages.\"";
    let inp = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    for check in ["quotes_verbatim", "quotes_grounded"] {
        let o = apply(check, text, &inp);
        assert_eq!(o.verdict, Verdict::Pass, "{check}: {:?}", flagged(&o, text));
    }
}
