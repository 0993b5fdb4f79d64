//! `byop check --fix`: the checks' declared fixes reach the command line.

mod support;

use support::workspace::{Ws, stderr, stdout};

const MISSING_SECTION: &str = "## Not checked / missing information";

#[test]
fn dry_run_prints_a_unified_diff_and_changes_nothing() {
    let ws = Ws::new();
    let before = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    assert!(
        !before.contains(MISSING_SECTION),
        "the example lacks the section"
    );
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fix",
        "--dry-run",
        "nda_review.ai.md",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "changes pending: {}", stderr(&o));
    assert!(
        out.starts_with("--- a/nda_review.ai.md\n+++ b/nda_review.ai.md\n"),
        "{out}"
    );
    assert!(out.contains(&format!("+{MISSING_SECTION}")), "{out}");
    assert!(
        !out.contains("appears to be"),
        "unsafe fixes need --unsafe-fixes: {out}"
    );
    let after = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    assert_eq!(before, after);
}

#[test]
fn fix_writes_the_safe_fixes_and_the_check_then_passes() {
    let ws = Ws::new();
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fix",
        "nda_review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("fixed"), "{}", stderr(&o));
    let fixed = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    assert!(fixed.contains(MISSING_SECTION), "{fixed}");
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "nda_review.ai.md",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let unchecked = report["byop_report"]["check_results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == "unchecked_areas_disclosure")
        .unwrap()
        .clone();
    assert_eq!(unchecked["result"], "pass", "{unchecked}");
    // Nothing left to fix.
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fix",
        "--dry-run",
        "nda_review.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn unsafe_fixes_also_qualify_flagged_terms() {
    let ws = Ws::new();
    std::fs::write(
        ws.path("memo.ai.md"),
        "# Memo\n\nThe clause is enforceable in every case. The rest is routine text that makes this memo long enough to be judged by the disclosure rule, which needs a few hundred characters of body before it decides anything at all about omissions.\n",
    )
    .unwrap();
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--fix",
        "--unsafe-fixes",
        "--dry-run",
        "memo.ai.md",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("+The clause appears to be enforceable"),
        "{out}"
    );
    assert!(out.contains(&format!("+{MISSING_SECTION}")), "{out}");
}

#[test]
fn a_users_playbook_declares_fixes_without_rust() {
    let ws = Ws::new();
    std::fs::write(
        ws.path("team.json"),
        r#"{"id":"team","version":"1","checks":[{"id":"risks","severity":"medium",
            "question":"Does the memo list its risks?",
            "detection_method":{"type":"deterministic","instructions":"A Risks heading."},
            "rules":{"kind":"required_section","headings":["^#+\\s*risks\\b"],"min_body_chars":1},
            "remediation":{"text":"Add a Risks section.",
              "fix":{"kind":"insert_section","heading":"Risks","template":"[Name the main risks.]"}}}]}"#,
    )
    .unwrap();
    std::fs::write(ws.path("memo.ai.md"), "# Memo\n\nAll fine.\n").unwrap();
    let o = ws.run(&["check", "--playbook", "team.json", "--fix", "memo.ai.md"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = std::fs::read_to_string(ws.path("memo.ai.md")).unwrap();
    assert_eq!(
        fixed,
        "# Memo\n\nAll fine.\n\n## Risks\n\n- [Name the main risks.]\n"
    );
}

#[test]
fn dry_run_and_unsafe_fixes_need_fix() {
    let ws = Ws::new();
    let o = ws.run(&["check", "--dry-run", "nda_review.ai.md"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--fix"), "{}", stderr(&o));
}
