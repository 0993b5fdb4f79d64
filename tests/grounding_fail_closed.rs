//! Grounding fails closed and says why, end to end against the built binary: an invention
//! planted in a real review's own analysis is a finding (it is not set aside as drafted
//! text), every claim a check does not judge is listed with its place and typed reason in
//! the JSON report and `--format text --verbose`, the counts are report fields, and
//! references against a source whose numbering cannot be read are `indeterminate`.
//!
//! The review (Gemini 2.5 Flash asked to move a services agreement's payments to quarterly
//! invoicing) and its source are copied from the corpus into `tests/data/grounding/`.

mod support;

use serde_json::Value;
use support::evidence::{check_args, check_in};
use support::workspace::{Ws, check, json, stdout};

const REVIEW: &str = "contract_001_modify_payment_2__gemini-2.5-flash.ai.md";
const SOURCE: &str = "contract_001_services_agreement_filled.txt";
/// A bold label the review's own analysis sits under ("To change from monthly to
/// quarterly invoicing, the following modifications are necessary. …").
const LABEL: &str = "**Proposed Modifications for Quarterly Invoicing:**\n\n";

fn data(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/grounding");
    std::fs::read_to_string(p.join(name)).unwrap()
}

/// The review with `paragraph` added to its analysis, right under the label, checked with
/// the evidence contract (JSON).
fn planted(paragraph: &str) -> (Ws, String, Value) {
    let ws = Ws::new();
    let review = data(REVIEW);
    assert!(review.contains(LABEL), "the review still has its label");
    let text = if paragraph.is_empty() {
        review
    } else {
        review.replacen(LABEL, &format!("{LABEL}{paragraph}\n\n"), 1)
    };
    ws.write(SOURCE, &data(SOURCE));
    ws.write("review.ai.md", &text);
    let out = check_in(&ws, "json", "review.ai.md");
    let report = json(&out);
    (ws, text, report)
}

/// The spans a check cites.
fn cited(c: &Value) -> Vec<String> {
    c["evidence_citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["span"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn an_invented_expiry_date_in_the_analysis_is_a_finding_not_drafted_text() {
    let (_ws, _, report) = planted("The Agreement expires on July 21, 2033.");
    let c = check(&report, "entities_grounded");
    assert_eq!(c["result"], "fail", "{}", c["notes"]);
    assert_eq!(c["code"], "GROUNDING-ENTITY");
    assert!(
        cited(c).iter().any(|s| s.contains("July 21, 2033")),
        "{:?}",
        cited(c)
    );
    assert_eq!(c["grounding"]["not_found"], 1, "{}", c["grounding"]);
}

#[test]
fn an_invented_section_in_the_analysis_is_a_finding_not_drafted_text() {
    let (_ws, _, report) =
        planted("Section 99.4 provides that the Agreement may be terminated at will.");
    let c = check(&report, "references_grounded");
    assert_eq!(c["result"], "fail", "{}", c["notes"]);
    assert_eq!(c["code"], "GROUNDING-REF");
    assert!(
        cited(c).iter().any(|s| s.contains("Section 99.4")),
        "{:?}",
        cited(c)
    );
}

#[test]
fn every_claim_not_judged_is_listed_with_its_place_and_reason_and_counted_as_fields() {
    let (_ws, text, report) = planted("");
    for id in [
        "quotes_grounded",
        "quotes_verbatim",
        "references_grounded",
        "entities_grounded",
    ] {
        let c = check(&report, id);
        // Planting nothing changes nothing: the review passes as before.
        assert_eq!(c["result"], "pass", "{id}: {}", c["notes"]);
        let g = &c["grounding"];
        let n = |k: &str| {
            g[k].as_u64()
                .unwrap_or_else(|| panic!("{id}: no {k} in {g}"))
        };
        assert_eq!(
            n("examined"),
            n("grounded") + n("not_found") + n("misquoted") + n("paraphrased"),
            "{id}: {g}"
        );
        let skipped = c["skipped_claims"].as_array().cloned().unwrap_or_default();
        assert_eq!(skipped.len() as u64, n("set_aside"), "{id}: {g}");
        let by_reason = g["set_aside_by_reason"].as_object().unwrap();
        assert_eq!(
            by_reason.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
            n("set_aside"),
            "{id}"
        );
        for s in &skipped {
            let reason = s["reason"].as_str().unwrap();
            assert!(by_reason.contains_key(reason), "{id}: {reason} not counted");
            // The notes say the same count per reason.
            let said = format!("{reason} {}", by_reason[reason]);
            assert!(c["notes"].as_str().unwrap().contains(&said), "{id}: {said}");
            // The place is the claim's: its byte range holds its text, at its line:column.
            let (a, b) = (
                s["byte_range"][0].as_u64().unwrap() as usize,
                s["byte_range"][1].as_u64().unwrap() as usize,
            );
            let at = &text[a..b];
            let shown = s["text"].as_str().unwrap().trim_end_matches('…');
            assert!(
                at.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .starts_with(shown),
                "{id}: {at:?} vs {shown:?}"
            );
            let line = text[..a].matches('\n').count() + 1;
            let column = text[..a].rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!(s["line"], line as u64, "{id}: {s}");
            assert_eq!(s["column"], column as u64, "{id}: {s}");
            assert!(s["kind"].is_string());
        }
    }
    let refs = check(&report, "references_grounded");
    assert!(
        refs["grounding"]["set_aside"].as_u64().unwrap() > 0,
        "this review drafts redlines: some references are its own"
    );
}

#[test]
fn references_are_indeterminate_when_the_source_numbering_cannot_be_read() {
    let ws = Ws::new();
    ws.write(
        "plain.txt",
        "SERVICES AGREEMENT\n\nAcme Corp will provide the services. Beta LLC will pay the fees \
         within thirty days. Either party may end this agreement on written notice.\n",
    );
    ws.write(
        "review.ai.md",
        "---\nbyop:\n  source: plain.txt\n---\n# Review\n\nSection 4 provides that either party \
         may end the agreement on written notice.\n",
    );
    let out = check_in(&ws, "json", "review.ai.md");
    let report = json(&out);
    let c = check(&report, "references_grounded");
    assert_eq!(c["result"], "indeterminate", "{}", c["notes"]);
    assert!(
        c["notes"]
            .as_str()
            .unwrap()
            .contains("numbering could not be read"),
        "{}",
        c["notes"]
    );
    let s = &c["skipped_claims"][0];
    assert_eq!(s["reason"], "source_numbering_unreadable");
    assert_eq!(s["kind"], "reference");
    assert_eq!(s["text"], "Section 4");
    assert_eq!(
        (s["line"].as_u64(), s["column"].as_u64()),
        (Some(7), Some(1))
    );
}

#[test]
fn verbose_text_lists_the_claims_set_aside_and_plain_text_does_not() {
    let (ws, _, report) = planted("");
    let args = check_args("text", "review.ai.md");
    let plain = stdout(&ws.run(&args));
    assert!(!plain.contains("set aside reference"), "{plain}");
    let mut verbose = args.clone();
    verbose.push("--verbose");
    let v = stdout(&ws.run(&verbose));
    let line = v
        .lines()
        .find(|l| l.contains("set aside reference"))
        .unwrap_or_else(|| panic!("no set-aside reference listed:\n{v}"));
    // `line:col kind “text” — reason (what it means)`, the JSON report's first reference
    // set aside, written for a reader.
    let c = check(&report, "references_grounded");
    let s = c["skipped_claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "reference")
        .expect("the JSON report sets a reference aside too");
    let (text, reason) = (s["text"].as_str().unwrap(), s["reason"].as_str().unwrap());
    let place = format!("{}:{} ", s["line"], s["column"]);
    assert!(line.trim_start().starts_with(&place), "{line} / {place}");
    assert!(line.contains(&format!("“{text}”")), "{line} / {text}");
    assert!(
        line.contains(&format!(" — {reason} (")),
        "{line} / {reason}"
    );
    assert!(reason.starts_with("drafting_"), "{reason}");
}
