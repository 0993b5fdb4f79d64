//! Reports people read and CI consumes: HTML, SARIF, JUnit, and `diff`.
//!
//! The fixture is a realistic AI contract review (tests/data/review.ai.md,
//! with a `<script>` line) and a hand-built full-mode report over it whose
//! citations are located by searching the text, as the runner would.

use std::path::{Path, PathBuf};
use std::process::Command;

use byop::model::Severity;
use byop::model::text::{Encoding, LineIndex};
use byop::model::*;
use quick_xml::events::Event;

const DOC_PATH: &str = "tests/data/review.ai.md";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn document() -> String {
    std::fs::read_to_string(data("review.ai.md")).unwrap()
}

fn located(text: &str, span: &str) -> Citation {
    let start = text
        .find(span)
        .unwrap_or_else(|| panic!("fixture span not in document: {span}"));
    let end = start + span.len();
    let index = LineIndex::new(text);
    Citation {
        source: None,
        span: span.to_string(),
        location: format!("line {}", index.line_of(start) + 1),
        located: Located::Exact,
        range: Some(index.range(text, start, end, Encoding::Utf16)),
        byte_range: Some((start, end)),
        ranges: Vec::new(),
        byte_ranges: Vec::new(),
        context: String::new(),
    }
}

fn unlocated(span: &str) -> Citation {
    Citation {
        source: None,
        span: span.to_string(),
        location: "unlocated".into(),
        located: Located::Unlocated,
        range: None,
        byte_range: None,
        ranges: Vec::new(),
        byte_ranges: Vec::new(),
        context: String::new(),
    }
}

fn runs(results: &[Verdict]) -> Vec<RawRun> {
    results
        .iter()
        .enumerate()
        .map(|(i, &result)| RawRun {
            run: i as u32 + 1,
            result,
            confidence: 0.8,
            notes: format!("run {} said {}", i + 1, result.as_str()),
            evidence_citations: vec![],
            error: None,
            raw_response: None,
            cached: false,
        })
        .collect()
}

fn check(
    id: &str,
    result: Verdict,
    severity: Severity,
    consistency: f64,
    citations: Vec<Citation>,
    notes: &str,
    run_results: &[Verdict],
) -> CheckResult {
    CheckResult {
        code: None,
        check_id: id.into(),
        result,
        per_check_confidence: 0.8,
        per_check_consistency: consistency,
        evidence_citations: citations,
        notes: notes.into(),
        raw_runs: runs(run_results),
        severity,
        detection_type: DetectionType::Semantic,
        assumptions: vec![],
        grounding: None,
        skipped_claims: vec![],
    }
}

/// A full-mode ALERT report over the fixture document.
fn fixture_report(text: &str) -> Report {
    use Verdict::*;
    let pb = byop::engine::playbook::builtin();
    let checks = vec![
        check(
            "assumption_disclosure",
            Fail,
            Severity::High,
            1.0,
            vec![
                located(
                    text,
                    "This clause is fully enforceable under California law",
                ),
                unlocated("assumes the Consultant is an independent contractor"),
            ],
            "Conclusions rest on unstated assumptions about the Consultant's status & the clients <b>involved</b>.",
            &[Fail, Fail, Fail],
        ),
        check(
            "certainty_language",
            Fail,
            Severity::High,
            1.0,
            vec![
                located(
                    text,
                    "fully enforceable under California law and will be upheld by any court",
                ),
                located(
                    text,
                    "compliant with Business and Professions Code Section 16600",
                ),
                located(
                    text,
                    "The Agreement is now compliant and ready for signature",
                ),
            ],
            "Unqualified certainty about enforceability.",
            &[Fail, Fail, Fail],
        ),
        check(
            "escalation_signal",
            Indeterminate,
            Severity::Medium,
            0.67,
            vec![
                located(text, "no further review is needed"),
                located(
                    text,
                    "“induce” is used rather than “solicit” to stay on the safe side",
                ),
            ],
            "Runs disagreed (2 fail, 1 pass).",
            &[Fail, Fail, Pass],
        ),
        check(
            "unchecked_areas_disclosure",
            Pass,
            Severity::Medium,
            1.0,
            vec![located(
                text,
                "The clause does not address clients the Consultant brought to the engagement.",
            )],
            "States an open point.",
            &[],
        ),
        check(
            "run_variance",
            Fail,
            Severity::Medium,
            1.0,
            vec![],
            "escalation_signal diverged across runs.",
            &[],
        ),
        check(
            "drift_over_time_support",
            Indeterminate,
            Severity::Medium,
            1.0,
            vec![],
            "No baseline report for this document and playbook hash.",
            &[],
        ),
    ];
    Report {
        spec_version: SPEC_VERSION.into(),
        playbook_id: pb.playbook.id.clone(),
        playbook_version: pb.playbook.version.clone(),
        execution_mode: Mode::Full,
        timestamp: "2026-11-20T09:30:00Z".into(),
        summary: Summary {
            overall_status: Status::Alert,
            key_risks: vec![
                "certainty_language: Unqualified certainty about enforceability.".into(),
            ],
            recommended_next_steps: vec!["Have counsel review Section 12 before signature.".into()],
        },
        check_results: checks,
        variance_summary: VarianceSummary {
            num_runs: 3,
            consistency_score: 0.78,
            divergent_findings: vec!["escalation_signal: 2 fail, 1 pass".into()],
            injection_susceptible_runs: 0,
            runs_per_check: Default::default(),
        },
        integrity: Integrity {
            playbook_logic_hash: pb.logic_hash.clone(),
            inputs_fingerprint: byop::model::integrity::inputs_fingerprint(text, "", ""),
            runner_fingerprint: RUNNER_FINGERPRINT.into(),
        },
        presentation_rules: PresentationRules::default(),
        report_id: "r-7f3a9c2e41".into(),
        document: DocumentInfo {
            path: DOC_PATH.into(),
            ..Default::default()
        },
        evaluator: Some(EvaluatorInfo {
            provider: "openrouter".into(),
            model: "example/model".into(),
        }),
        suppressed: vec![],
        untrusted_input_warnings: vec![],
        notices: vec![],
        playbook_source: None,
        request_id: None,
        validation: None,
        debug: None,
        repair: None,
        locked: false,
        evidence_contract: None,
    }
}

/// An earlier report of the same inputs: escalation passed, overall REVIEW.
fn baseline_report(text: &str) -> Report {
    let mut b = fixture_report(text);
    b.report_id = "r-1b2c3d4e5f".into();
    b.timestamp = "2026-11-01T08:00:00Z".into();
    b.summary.overall_status = Status::Review;
    b.variance_summary.consistency_score = 0.9;
    let esc = b
        .check_results
        .iter_mut()
        .find(|c| c.check_id == "escalation_signal")
        .unwrap();
    esc.result = Verdict::Pass;
    esc.per_check_consistency = 1.0;
    esc.evidence_citations = vec![located(
        text,
        "The severability language in (d) protects the Company",
    )];
    b
}

fn located_count(r: &Report) -> usize {
    r.check_results
        .iter()
        .flat_map(|c| &c.evidence_citations)
        .filter(|c| c.located != Located::Unlocated && c.byte_range.is_some())
        .count()
}

// ---------------------------------------------------------------- SARIF

fn sarif_validator() -> jsonschema::Validator {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("sarif-schema-2.1.0.json")).unwrap())
            .unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

/// 1-based line and UTF-16 column of a byte offset, computed here from scratch.
fn line_col(text: &str, offset: usize) -> (u64, u64) {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..offset].matches('\n').count() + 1;
    (
        line as u64,
        text[line_start..offset].encode_utf16().count() as u64 + 1,
    )
}

#[test]
fn sarif_validates_and_places_findings_at_regions_or_file_level() {
    let text = document();
    let report = fixture_report(&text);
    let pb = byop::engine::playbook::builtin();
    let sarif = byop::render::sarif::render(&[(&report, &pb.playbook)]);
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();

    let validator = sarif_validator();
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF does not validate: {errors:#?}");

    let run = &log["runs"][0];
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), pb.playbook.checks.len());
    for (rule, check) in rules.iter().zip(&pb.playbook.checks) {
        assert_eq!(rule["id"], check.id.as_str());
        assert_eq!(rule["shortDescription"]["text"], check.question.as_str());
    }

    let results = run["results"].as_array().unwrap();
    // fail/indeterminate only: assumption 2, certainty 3, escalation 2, run_variance 1, drift 1.
    assert_eq!(results.len(), 9);
    assert!(
        results
            .iter()
            .all(|r| r["ruleId"] != "unchecked_areas_disclosure")
    );
    let level_of = |id: &str| {
        results
            .iter()
            .filter(|r| r["ruleId"] == id)
            .map(|r| r["level"].as_str().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(level_of("certainty_language"), vec!["error"; 3]);
    assert_eq!(level_of("escalation_signal"), vec!["note"; 2]);
    assert_eq!(level_of("run_variance"), vec!["warning"]);
    assert_eq!(level_of("drift_over_time_support"), vec!["note"]);

    // Every located citation is a region with 1-based UTF-16 positions.
    let mut regions = 0;
    for check in report
        .check_results
        .iter()
        .filter(|c| c.result != Verdict::Pass)
    {
        for cit in &check.evidence_citations {
            let hit = results
                .iter()
                .find(|r| {
                    r["ruleId"] == check.check_id.as_str()
                        && r["message"]["text"].as_str().unwrap().contains(&cit.span)
                })
                .unwrap_or_else(|| panic!("no result for {}", cit.span));
            let loc = &hit["locations"][0]["physicalLocation"];
            assert_eq!(loc["artifactLocation"]["uri"], DOC_PATH);
            let Some((s, e)) = cit.byte_range else {
                assert!(
                    loc.get("region").is_none(),
                    "unlocated citation must be file-level"
                );
                continue;
            };
            regions += 1;
            let region = &loc["region"];
            let ((sl, sc), (el, ec)) = (line_col(&text, s), line_col(&text, e));
            assert_eq!(
                (region["startLine"].as_u64(), region["startColumn"].as_u64()),
                (Some(sl), Some(sc)),
                "{}",
                cit.span
            );
            assert_eq!(
                (region["endLine"].as_u64(), region["endColumn"].as_u64()),
                (Some(el), Some(ec))
            );
        }
    }
    assert_eq!(regions, 6);
    let file_level = results
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]
                .get("region")
                .is_none()
        })
        .count();
    assert_eq!(file_level, 3);

    // The “induce” line sits after a 3-byte em dash: byte and UTF-16 columns differ there.
    let induce = results
        .iter()
        .find(|r| r["message"]["text"].as_str().unwrap().contains("“induce”"))
        .unwrap();
    let line_text = text.lines().find(|l| l.contains("“induce”")).unwrap();
    let byte_col = line_text.find("“induce”").unwrap() as u64 + 1;
    assert!(
        induce["locations"][0]["physicalLocation"]["region"]["startColumn"]
            .as_u64()
            .unwrap()
            < byte_col
    );

    // Fingerprints identify (check, text): distinct per finding, stable across positions.
    let fps: std::collections::HashSet<&str> = results
        .iter()
        .map(|r| r["partialFingerprints"]["byopFinding/v1"].as_str().unwrap())
        .collect();
    assert_eq!(fps.len(), results.len());
    let mut moved = report.clone();
    let text2 = format!("Preface line.\n{text}");
    moved.check_results = fixture_report(&text2).check_results;
    let moved_log: serde_json::Value =
        serde_json::from_str(&byop::render::sarif::render(&[(&moved, &pb.playbook)])).unwrap();
    let moved_fps: std::collections::HashSet<&str> = moved_log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["partialFingerprints"]["byopFinding/v1"].as_str().unwrap())
        .collect();
    assert_eq!(fps, moved_fps);
}

#[test]
fn sarif_rule_carries_help_uri_and_invalid_sarif_is_rejected() {
    let text = document();
    let report = fixture_report(&text);
    let mut pb = byop::engine::playbook::builtin().playbook.as_ref().clone();
    pb.checks[0].help_uri = Some("https://example.org/byop/checks/assumption_disclosure".into());
    let log: serde_json::Value =
        serde_json::from_str(&byop::render::sarif::render(&[(&report, &pb)])).unwrap();
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"],
        "https://example.org/byop/checks/assumption_disclosure"
    );
    assert!(
        log["runs"][0]["tool"]["driver"]["rules"][1]
            .get("helpUri")
            .is_none()
    );
    let validator = sarif_validator();
    assert!(validator.is_valid(&log));
    // The schema test has teeth: a level SARIF does not know is rejected.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

// ---------------------------------------------------------------- JUnit

#[derive(Debug, Default, PartialEq)]
struct Suite {
    name: String,
    tests: String,
    failures: String,
    skipped: String,
    cases: Vec<(String, &'static str, String)>, // name, outcome, message/text
}

fn parse_junit(xml: &str) -> (Vec<(String, String)>, Vec<Suite>) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut root_attrs = Vec::new();
    let mut suites: Vec<Suite> = Vec::new();
    let mut in_failure = false;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attrs: Vec<(String, String)> = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        let v = a
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .unwrap()
                            .to_string();
                        (a.key.as_ref().to_string(), v)
                    })
                    .collect();
                let get = |k: &str| {
                    attrs
                        .iter()
                        .find(|(n, _)| n == k)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                };
                match e.name().as_ref() {
                    "testsuites" => root_attrs = attrs.clone(),
                    "testsuite" => suites.push(Suite {
                        name: get("name"),
                        tests: get("tests"),
                        failures: get("failures"),
                        skipped: get("skipped"),
                        ..Default::default()
                    }),
                    "testcase" => {
                        suites
                            .last_mut()
                            .unwrap()
                            .cases
                            .push((get("name"), "pass", String::new()))
                    }
                    "failure" => {
                        let case = suites.last_mut().unwrap().cases.last_mut().unwrap();
                        case.1 = "failure";
                        case.2 = get("message") + "\n";
                        in_failure = true;
                    }
                    "skipped" => {
                        let case = suites.last_mut().unwrap().cases.last_mut().unwrap();
                        case.1 = "skipped";
                        case.2 = get("message");
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_failure => {
                let case = suites.last_mut().unwrap().cases.last_mut().unwrap();
                case.2.push_str(&t.xml10_content());
            }
            Event::GeneralRef(r) if in_failure => {
                // quick-xml reports entity references apart from text.
                let case = suites.last_mut().unwrap().cases.last_mut().unwrap();
                case.2.push_str(match r.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    other => panic!("unexpected entity {other}"),
                });
            }
            Event::End(e) if e.name().as_ref() == "failure" => in_failure = false,
            _ => {}
        }
    }
    (root_attrs, suites)
}

#[test]
fn junit_has_one_suite_per_document_and_one_case_per_check() {
    let text = document();
    let a = fixture_report(&text);
    let mut b = baseline_report(&text);
    b.document.path = "reviews/other & \"quoted\".md".into();
    let xml = byop::render::junit::render(&[&a, &b]);
    let (root, suites) = parse_junit(&xml);

    let root_get = |k: &str| root.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(root_get("tests"), Some("12"));
    assert_eq!(root_get("failures"), Some("6")); // 3 + 3
    assert_eq!(root_get("skipped"), Some("3")); // 2 + 1
    assert_eq!(suites.len(), 2);
    assert_eq!(suites[1].name, "reviews/other & \"quoted\".md");

    let s = &suites[0];
    assert_eq!(
        (
            s.name.as_str(),
            s.tests.as_str(),
            s.failures.as_str(),
            s.skipped.as_str()
        ),
        (DOC_PATH, "6", "3", "2")
    );
    let outcomes: Vec<(&str, &str)> = s.cases.iter().map(|c| (c.0.as_str(), c.1)).collect();
    assert_eq!(
        outcomes,
        vec![
            ("assumption_disclosure", "failure"),
            ("certainty_language", "failure"),
            ("escalation_signal", "skipped"),
            ("unchecked_areas_disclosure", "pass"),
            ("run_variance", "failure"),
            ("drift_over_time_support", "skipped"),
        ]
    );
    // Notes with markup survive escaping; citations are in the failure body.
    let assumption = &s.cases[0].2;
    assert!(
        assumption.contains("the Consultant's status & the clients <b>involved</b>"),
        "{assumption}"
    );
    assert!(
        assumption.contains("\"This clause is fully enforceable under California law\" (line 17)"),
        "{assumption}"
    );
    assert!(
        assumption.contains("\"assumes the Consultant is an independent contractor\" (unlocated)")
    );
    assert_eq!(s.cases[2].2, "Runs disagreed (2 fail, 1 pass).");
}

// ---------------------------------------------------------------- diff

#[test]
fn diff_reports_changed_results_citations_and_status() {
    let text = document();
    let (old, new) = (baseline_report(&text), fixture_report(&text));
    let c = byop::engine::compare::compare(&old, &new);
    assert!(c.comparable);
    assert!(c.not_comparable_because.is_empty());
    assert!(c.status.changed);
    assert_eq!(
        (c.status.from, c.status.to),
        (Status::Review, Status::Alert)
    );
    assert!((c.consistency_delta - (0.78 - 0.9)).abs() < 1e-12);
    assert_eq!(c.changed_checks, vec!["escalation_signal".to_string()]);
    let esc = c
        .checks
        .iter()
        .find(|k| k.check_id == "escalation_signal")
        .unwrap();
    assert!(esc.result_changed && esc.consistency_changed);
    assert_eq!(esc.a.as_ref().unwrap().result, Verdict::Pass);
    assert_eq!(esc.b.as_ref().unwrap().result, Verdict::Indeterminate);
    assert_eq!(c.checks.len(), 6);
    let spans = |v: &[byop::engine::compare::CitationChange]| {
        v.iter()
            .map(|x| (x.check_id.clone(), x.span.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        spans(&c.citations_removed),
        vec![(
            "escalation_signal".into(),
            "The severability language in (d) protects the Company".into()
        )]
    );
    assert_eq!(c.citations_added.len(), 2);
    assert!(spans(&c.citations_added).contains(&(
        "escalation_signal".into(),
        "no further review is needed".into()
    )));

    let text_out = byop::render::diff::render_text(&c);
    assert!(
        text_out.contains("Status: REVIEW -> ALERT (changed)"),
        "{text_out}"
    );
    assert!(
        text_out.contains("Consistency: 0.90 -> 0.78 (-0.12)"),
        "{text_out}"
    );
    assert!(text_out.contains(
        "- [escalation_signal] \"The severability language in (d) protects the Company\""
    ));
    assert!(
        text_out
            .lines()
            .any(|l| l.starts_with("* escalation_signal")
                && l.contains("pass (1.00)")
                && l.contains("indeterminate (0.67)"))
    );
    assert!(
        !text_out.contains('\x1b'),
        "text diff must carry no colour codes"
    );

    let json: serde_json::Value =
        serde_json::from_str(&byop::render::diff::render_json(&c)).unwrap();
    assert_eq!(json["comparable"], true);
    assert_eq!(json["status"]["from"], "REVIEW");
    assert_eq!(json["changed_checks"][0], "escalation_signal");

    let html = byop::render::diff::render_html(&c);
    assert!(html.contains("class=\"badge s-review\">REVIEW</span>"));
    assert!(html.contains("class=\"badge s-alert\">ALERT</span>"));
    assert!(html.contains("<tr class=\"changed\"><td>escalation_signal *</td>"));

    // Identical reports: nothing changed.
    let same = byop::engine::compare::compare(&new, &new);
    assert!(
        same.changed_checks.is_empty() && !same.status.changed && same.citations_added.is_empty()
    );
    assert!(byop::render::diff::render_text(&same).contains("No check changed."));
}

#[test]
fn diff_says_when_reports_are_not_comparable_and_why() {
    let text = document();
    let a = fixture_report(&text);
    let edited = text.replace("twelve (12) months", "six (6) months");
    let mut b = fixture_report(&edited);
    b.timestamp = "2026-11-21T10:00:00Z".into();
    let c = byop::engine::compare::compare(&a, &b);
    assert!(!c.comparable);
    assert_eq!(c.not_comparable_because.len(), 1);
    assert!(c.not_comparable_because[0].contains("inputs fingerprint"));
    assert!(c.not_comparable_because[0].contains(&a.integrity.inputs_fingerprint));
    assert!(
        byop::render::diff::render_text(&c)
            .contains("Comparable: NO\n  - different inputs fingerprint")
    );
    assert!(byop::render::diff::render_html(&c).contains("different inputs fingerprint"));

    b.integrity.playbook_logic_hash = "sha256:0000".into();
    let c = byop::engine::compare::compare(&a, &b);
    assert_eq!(c.not_comparable_because.len(), 2);
    assert!(c.not_comparable_because[0].starts_with("different playbook logic hash (A sha256:"));
}

// ---------------------------------------------------------------- HTML

#[test]
fn html_escapes_the_document_and_evaluator_text() {
    let text = document();
    let mut report = fixture_report(&text);
    report.check_results[0].notes = "</pre><script>window.__pwned=2</script>".into();
    report.check_results[0].check_id = "x\"><img src=x onerror=alert(1)>".into();
    let html = byop::render::html::report(&report, &text, None);
    assert!(
        !html.contains("<script>window.__pwned"),
        "document or notes script left unescaped"
    );
    assert!(!html.contains("<img src=x"));
    assert!(html.contains("&#60;script&#62;window.__pwned=1;alert(1)&#60;/script&#62;"));
    assert!(html.contains("&#60;/pre&#62;&#60;script&#62;window.__pwned=2"));
    // Exactly our one script element, and nothing fetched from anywhere.
    assert_eq!(html.matches("<script").count(), 1);
    for needle in ["http://", "https://", "src=\"", "@import", "url("] {
        assert!(
            !html.contains(needle),
            "external reference {needle:?} in the page"
        );
    }
}

#[test]
fn html_shows_every_section_and_highlights_every_located_citation() {
    let text = document();
    let report = fixture_report(&text);
    let base = baseline_report(&text);
    let html = byop::render::html::report(&report, &text, Some(&base));
    assert!(html.contains("id=\"overall-status\" class=\"badge big s-alert\">ALERT</span>"));
    for d in DISCLAIMERS {
        assert!(html.contains(d), "missing disclaimer {d}");
    }
    assert_eq!(
        html.matches("<article class=\"card\"").count(),
        report.check_results.len()
    );
    assert_eq!(
        html.matches("<mark class=\"hl\"").count(),
        located_count(&report)
    );
    assert!(html.contains(VARIANCE_NOTE));
    assert!(html.contains("id=\"threshold\" style=\"left: 85.0%\""));
    assert!(html.contains("escalation_signal: 2 fail, 1 pass"));
    assert!(html.contains("id=\"drift\""));
    assert!(
        html.contains("<tr><td>escalation_signal</td><td>pass</td><td>indeterminate</td></tr>")
    );
    assert!(html.contains(&report.integrity.inputs_fingerprint));
    // Full mode shows consistency per check; screening does not.
    assert!(html.contains("consistency 0.67"));
    let mut screening = report.clone();
    screening.execution_mode = Mode::Screening;
    assert!(!byop::render::html::report(&screening, &text, None).contains("0.80 · consistency"));
    assert!(!byop::render::html::report(&screening, &text, None).contains("id=\"drift\""));
    // Each highlighted span links to its card and back.
    for n in 1..=8 {
        let anchor_pair = html.contains(&format!("id=\"span-{n}\""))
            == html.contains(&format!("href=\"#span-{n}\""));
        assert!(anchor_pair, "citation {n} is linked one way only");
    }
    // The embedded JSON is the report envelope.
    let start =
        html.find("<pre id=\"raw-json\" hidden>").unwrap() + "<pre id=\"raw-json\" hidden>".len();
    let end = start + html[start..].find("</pre>").unwrap();
    // askama escapes with numeric character references.
    let unescaped = html[start..end]
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#38;", "&");
    let envelope: ReportEnvelope = serde_json::from_str(&unescaped).unwrap();
    assert_eq!(envelope.byop_report, report);
}

/// Drives headless Chromium over the rendered page (tests/browser/check_report.mjs).
/// Skips when node, playwright-core or chromium is missing, unless BYOP_REQUIRE_BROWSER=1.
/// BYOP_SCREENSHOT=path saves a full-page screenshot.
#[test]
fn html_report_dom_in_headless_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/browser/check_report.mjs");
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
        eprintln!("skipping browser DOM test: run `npm ci` in tests/browser and install chromium");
        return;
    }
    let text = document();
    let report = fixture_report(&text);
    let html = byop::render::html::report(&report, &text, Some(&baseline_report(&text)));
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, html).unwrap();
    let mut cmd = Command::new("node");
    cmd.arg(&script)
        .arg(&page)
        .env("CHROMIUM", &chromium)
        .env("BYOP_USER_DATA_DIR", dir.path().join("profile"));
    if let Ok(shot) = std::env::var("BYOP_SCREENSHOT") {
        cmd.env("BYOP_SCREENSHOT", root.join(shot));
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "browser checks failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The script reports what it measured; it must have seen all located citations.
    assert!(
        stdout.contains(&format!("highlights={}", located_count(&report))),
        "{stdout}"
    );
}

#[test]
fn sarif_results_carry_the_checks_fixes_when_the_document_is_given() {
    let text = "# Memo\n\nThe clause is compliant with the rules. This memo goes on long enough for the disclosure rule to judge it: it discusses the payment terms, the termination rights and the liability cap in some detail without ever saying what it did not check.\n";
    let doc = byop::engine::document::Document::parse(text.into(), None).unwrap();
    let pb = byop::engine::playbook::builtin();
    let report = byop::engine::runner::run_deterministic(&pb, &doc);
    let item = byop::render::sarif::SarifItem {
        report: &report,
        playbook: &pb.playbook,
        document: Some(&doc),
    };
    let log: serde_json::Value =
        serde_json::from_str(&byop::render::sarif::render_items(&[item])).unwrap();
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF with fixes does not validate: {errors:#?}"
    );
    let results = log["runs"][0]["results"].as_array().unwrap();
    let fix_of = |rule: &str| {
        results
            .iter()
            .find(|r| r["ruleId"] == rule)
            .and_then(|r| r["fixes"].get(0))
            .cloned()
            .unwrap_or_else(|| panic!("no fix for {rule}: {results:#?}"))
    };
    let unchecked = fix_of("unchecked_areas_disclosure");
    assert_eq!(
        unchecked["description"]["text"],
        "Insert a \"Not checked / missing information\" section"
    );
    let replacement = &unchecked["artifactChanges"][0]["replacements"][0];
    let end = line_col(text, text.len());
    assert_eq!(replacement["deletedRegion"]["startLine"], end.0);
    assert_eq!(replacement["deletedRegion"]["startColumn"], end.1);
    assert!(
        replacement["insertedContent"]["text"]
            .as_str()
            .unwrap()
            .contains("## Not checked / missing information")
    );
    let qualify = fix_of("certainty_language");
    let at = text.find("is compliant").unwrap();
    let first = &qualify["artifactChanges"][0]["replacements"][0];
    assert_eq!(first["deletedRegion"]["startColumn"], line_col(text, at).1);
    assert_eq!(first["insertedContent"]["text"], "appears to be compliant");
    // Without the document (or with other text) there is nothing to fix against.
    let bare = byop::render::sarif::render(&[(&report, &pb.playbook)]);
    assert!(!bare.contains("\"fixes\""));
}
