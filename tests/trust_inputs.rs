//! What a document may not do to its own inputs, end to end on the built binary: name
//! itself as its evidence, leave out the companion its playbook needs, hide its text where
//! nothing checks it, or carry the settings that decide how a gate judges it.

mod support;

use support::workspace::{Ws, stderr, stdout};

/// A review inventing a quote, a section and an amount the source does not have.
const INVENTED: &str = "# Review of the MSA\n\nSection 14.2 provides: \"The Supplier shall pay the Customer liquidated damages of ten million dollars for any delay whatsoever.\"\nThe Agreement expires on July 21, 2033, and the fee is $4,500,000 per month under Section 99.4.\n";

/// A valid evidence set (its hash computed over the other fields) whose one statute expired in 2020.
const EVIDENCE: &str = r#"{"source_origin": "OFFICIAL", "items": [{"type": "STATUTE", "ref": "Cal. Civ. Code \u00a7 1671", "expiry_date": "2020-01-01", "status": "IN_FORCE"}], "missing": false, "retrieved_at": "2026-11-29T10:04:02Z", "ttl_seconds": 999999999, "evidence_hash": "771ac703e0778e4a5826ae89aeb02b088b60f1974d843a55da6e7bb103021ebe"}"#;

const MSA: &str = "MASTER SERVICES AGREEMENT\n\n1. Services. Provider shall perform the services described in each Statement of Work.\n\n2. Fees. Customer shall pay the fees within forty-five (45) days of receipt of a correct invoice.\n";

fn grounding(ws: &Ws, file: &str) -> std::process::Output {
    ws.run(&[
        "check",
        "--locked",
        "--mode",
        "deterministic",
        "--playbook",
        "evidence_contract_v1",
        file,
    ])
}

/// A workspace that is a repository's checkout (what locked mode and the trust rules see).
fn repository() -> Ws {
    let ws = Ws::new();
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws
}

#[test]
fn a_document_cannot_be_its_own_source_or_prompt() {
    let ws = repository();
    ws.write("msa.txt", MSA);
    // The real source: the invented claims fail.
    ws.write(
        "real.ai.md",
        &format!("---\nbyop:\n  source: msa.txt\n---\n{INVENTED}"),
    );
    assert_eq!(grounding(&ws, "real.ai.md").status.code(), Some(1));
    std::fs::create_dir(ws.path("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(ws.path("self.ai.md"), ws.path("mirror.md")).unwrap();
    #[cfg(unix)]
    std::fs::hard_link(ws.path("real.ai.md"), ws.path("hard.md")).unwrap();
    let mut cases = vec![
        ("source", "self.ai.md"),
        ("source", "./self.ai.md"),
        ("source", "sub/../self.ai.md"),
        ("prompt", "self.ai.md"),
    ];
    #[cfg(unix)]
    cases.push(("source", "mirror.md"));
    for (key, value) in cases {
        let extra = if key == "prompt" {
            "  source: msa.txt\n"
        } else {
            ""
        };
        ws.write(
            "self.ai.md",
            &format!("---\nbyop:\n{extra}  {key}: {value}\n---\n{INVENTED}"),
        );
        let o = grounding(&ws, "self.ai.md");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{key}: {value}: {err}");
        assert!(stdout(&o).is_empty(), "{value}");
        let line = if key == "prompt" { 4 } else { 3 };
        assert!(
            err.contains(&format!("self.ai.md:{line}:3:")) && err.contains("this document itself"),
            "{key}: {value}: the key's line and column: {err}"
        );
    }
    // A hard link to the document is the same file.
    #[cfg(unix)]
    {
        ws.write(
            "real.ai.md",
            &format!("---\nbyop:\n  source: hard.md\n---\n{INVENTED}"),
        );
        let o = grounding(&ws, "real.ai.md");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    }
}

#[test]
fn a_playbook_that_reads_the_source_does_not_pass_without_one() {
    let ws = repository();
    ws.write("msa.txt", MSA);
    ws.write(
        "with.ai.md",
        &format!("---\nbyop:\n  source: msa.txt\n---\n{INVENTED}"),
    );
    assert_eq!(grounding(&ws, "with.ai.md").status.code(), Some(1));
    // The same fabrications with the source left out: an input error naming the key,
    // at the README's gate level and at every other.
    ws.write("without.ai.md", INVENTED);
    for fail_on in ["alert", "review", "never"] {
        let o = ws.run(&[
            "check",
            "--mode",
            "deterministic",
            "--fail-on",
            fail_on,
            "--playbook",
            "evidence_contract_v1",
            "without.ai.md",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{fail_on}: {err}");
        assert!(
            err.contains("without.ai.md: no `source` companion") && err.contains("quotes_grounded"),
            "{err}"
        );
    }
    // Naming an evidence set instead (a structured answer resting on it): the report keeps
    // the grounding checks `indeterminate` with their reason, and the gate says "not
    // evaluated" (exit 3) at any level but `never`.
    ws.write("ev.json", EVIDENCE);
    ws.write(
        "evonly.ai.md",
        &format!("---\nbyop:\n  evidence: ev.json\n---\n{INVENTED}"),
    );
    for (fail_on, code) in [("alert", 3), ("review", 3), ("never", 0)] {
        let o = ws.run(&[
            "check",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--fail-on",
            fail_on,
            "--playbook",
            "evidence_contract_v1",
            "evonly.ai.md",
        ]);
        assert_eq!(o.status.code(), Some(code), "{fail_on}: {}", stderr(&o));
        let v = support::workspace::json(&o);
        let q = support::workspace::check(&v, "quotes_grounded");
        assert_eq!(
            (q["result"].as_str(), q["code"].as_str()),
            (Some("indeterminate"), Some("LC-001"))
        );
        if code == 3 {
            assert!(
                stderr(&o).contains("no `source` companion for quotes_grounded"),
                "{}",
                stderr(&o)
            );
        }
    }
    // A plan without the notes it is judged against.
    ws.write(
        "plan.ai.md",
        "---\ncurrent_time: \"2026-03-02T09:00:00Z\"\n---\n- 09:00 Draft the memo (120 min)\n- 11:00 Call Acme about the NDA (60 min)\n- 13:00 Review the lease (90 min)\n",
    );
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--playbook",
        "planproof_v1",
        "plan.ai.md",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no `source` companion") && err.contains("time_budget"),
        "{err}"
    );
    // --source on the command line counts; the default playbook needs no source.
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--playbook",
        "evidence_contract_v1",
        "--source",
        "msa.txt",
        "without.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = ws.run(&["check", "--mode", "deterministic", "without.ai.md"]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn text_only_in_front_matter_or_after_a_dots_line_is_not_passed_over() {
    let ws = Ws::new();
    let check = |file: &str| ws.run(&["check", "--mode", "deterministic", file]);
    // A memo written entirely in front matter, and an empty or blank file.
    ws.write(
        "fm.ai.md",
        "---\ntitle: Review of the NDA\nmemo: |\n  This contract is fully compliant and enforceable. There are no risks.\n---\n",
    );
    ws.write("blank.ai.md", " \n\n\t\n");
    ws.write("empty.ai.md", "");
    // A body of markup no reader sees is no text either.
    ws.write(
        "comment.ai.md",
        "---\nmemo: |\n  This contract is fully compliant. There are no risks.\n---\n<!-- reviewed -->\n\n<div hidden>Not checked: nothing.</div>\n",
    );
    for file in ["fm.ai.md", "blank.ai.md", "empty.ai.md", "comment.ai.md"] {
        let o = check(file);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(&format!("{file}: nothing to check")), "{err}");
        assert!(stdout(&o).is_empty(), "{file}");
    }
    // The same with the evidence playbook and its source: no pass on zero claims.
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write("msa.txt", MSA);
    ws.write(
        "fmec.ai.md",
        &format!(
            "---\nbyop:\n  source: msa.txt\nreview: |\n{}---\n",
            INVENTED
                .lines()
                .map(|l| format!("  {l}\n"))
                .collect::<String>()
        ),
    );
    assert_eq!(grounding(&ws, "fmec.ai.md").status.code(), Some(2));
    // Front matter "closed" by `...`: refused at that line, not read as a short body.
    ws.write(
        "dots.ai.md",
        "---\nSummary: This contract is fully compliant and enforceable.\nRecommendation: You should sign it immediately.\n...\n# Review notes\n",
    );
    let o = check("dots.ai.md");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("dots.ai.md:4:1") && err.contains("`...`"),
        "{err}"
    );
}

#[test]
fn locked_mode_ignores_the_workspaces_evaluator_limits() {
    use support::fake_llm::{FakeLlm, Script, Step};
    use support::workspace::json;
    let ws = repository();
    // Limits no answer fits: every run would be lost and the gate decided by the repository.
    ws.write(
        "byop.toml",
        "[evaluator]\nmax_response_bytes = 10\nmax_tokens = 1\ntimeout_secs = 1\nmax_retries = 0\n",
    );
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let o = ws.run_llm(
        &llm,
        "check --locked --mode screening --format json --fail-on never nda_review.ai.md",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let notices = v["byop_report"]["notices"].to_string();
    for key in [
        "evaluator.max_response_bytes",
        "evaluator.max_tokens",
        "evaluator.timeout_secs",
        "evaluator.max_retries",
    ] {
        assert!(
            notices.contains(&format!("ignored {key}")),
            "{key}: {notices}"
        );
    }
    let runs = v["byop_report"]["check_results"].to_string();
    assert!(!runs.contains("larger than 10 bytes"), "{runs}");
    // Unlocked, the workspace's limit applies: a larger answer is refused (not evaluated).
    let o = ws.run_llm(
        &llm,
        "check --no-locked --mode screening --fresh nda_review.ai.md",
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

#[test]
fn locked_mode_ignores_the_front_matters_as_of() {
    use support::workspace::{check, json};
    let ws = repository();
    ws.write("msa.txt", MSA);
    ws.write("ev.json", EVIDENCE);
    // The statute expired in 2020; the document asks to be judged in 2019.
    ws.write(
        "asof.ai.md",
        "---\nbyop:\n  source: msa.txt\n  evidence: ev.json\n  as_of: \"2019-06-01\"\n---\n# Review of the MSA\n\nLiquidated damages are governed by Cal. Civ. Code § 1671 under California law.\n",
    );
    let run = |lock: &str| {
        ws.run(&[
            "check",
            lock,
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--fail-on",
            "never",
            "--playbook",
            "evidence_contract_v1",
            "asof.ai.md",
        ])
    };
    let v = json(&run("--no-locked"));
    assert_eq!(
        check(&v, "evidence_set")["result"],
        "pass",
        "unlocked: the document's date"
    );
    let o = run("--locked");
    let v = json(&o);
    let ev = check(&v, "evidence_set");
    assert_eq!(ev["result"], "fail", "{ev}");
    assert!(ev.to_string().contains("expired"), "{ev}");
    let notices = v["byop_report"]["notices"].to_string();
    assert!(notices.contains("ignored as_of"), "{notices}");
}

#[cfg(unix)]
#[test]
fn locked_mode_refuses_document_paths_that_are_links_or_lead_outside() {
    use std::os::unix::fs::symlink;
    let ws = Ws::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("secret.ai.md"),
        "# Secret\n\nRUNNER-SECRET-TEXT\n",
    )
    .unwrap();
    std::fs::create_dir(ws.path(".git")).unwrap();
    std::fs::write(
        ws.path(".git/config"),
        "[http]\n\textraheader = AUTHORIZATION: basic TOKEN\n",
    )
    .unwrap();
    symlink(".git/config", ws.path("notes.ai.md")).unwrap();
    symlink(outside.path().join("secret.ai.md"), ws.path("leak.ai.md")).unwrap();
    symlink(outside.path(), ws.path("docs")).unwrap();
    ws.write(
        "own.ai.md",
        "# Review\n\nThe liability cap is twelve months of fees.\n",
    );
    let locked = |file: &str| ws.run(&["check", "--locked", "--mode", "deterministic", file]);
    for (file, why) in [
        ("notes.ai.md", "symbolic link"),
        ("leak.ai.md", "symbolic link"),
        ("docs/secret.ai.md", "outside the workspace"),
    ] {
        let o = locked(file);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert!(
            err.contains("refused in locked mode") && err.contains(why),
            "{file}: {err}"
        );
        assert!(stdout(&o).is_empty() && !err.contains("TOKEN") && !err.contains("RUNNER-SECRET"));
    }
    // CI=true is locked mode too; the folder search skips the links and checks the rest.
    let o = ws
        .cmd()
        .env("CI", "true")
        .args([
            "check",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--fail-on",
            "never",
            "leak.ai.md",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = ws.run(&[
        "check",
        "--locked",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "--fail-on",
        "never",
        ".",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("own.ai.md") && !out.contains("RUNNER-SECRET") && !out.contains("TOKEN"),
        "{out}"
    );
    // Unlocked, a path you type is your choice.
    assert_ne!(
        ws.run(&[
            "check",
            "--no-locked",
            "--mode",
            "deterministic",
            "leak.ai.md"
        ])
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn an_empty_source_is_refused_like_a_missing_one() {
    let ws = repository();
    ws.write("ev.json", EVIDENCE);
    let check = |file: &str, format: &str| {
        let args = ["check", "--mode", "deterministic", "--format", format];
        ws.run(&[&args[..], &["--playbook", "evidence_contract_v1", file]].concat())
    };
    // 0 bytes, blank lines, a byte-order mark, spaces, zero-width characters: no source,
    // named as empty.
    for (i, empty) in [
        "",
        "\n\n  \t\n",
        "\u{feff}",
        "\u{feff} \r\n\u{a0}\n",
        "\u{200b}\u{2060}\n\u{feff}",
    ]
    .iter()
    .enumerate()
    {
        ws.write(&format!("e{i}.txt"), empty);
        let doc = format!("d{i}.ai.md");
        ws.write(
            &doc,
            &format!("---\nbyop:\n  source: e{i}.txt\n---\n{INVENTED}"),
        );
        let (o, err) = (check(&doc, "text"), stderr(&check(&doc, "text")));
        assert_eq!(o.status.code(), Some(2), "{empty:?}: {err}");
        assert!(
            err.contains(&format!("e{i}.txt is empty")),
            "{empty:?}: {err}"
        );
        assert!(stdout(&o).is_empty(), "no report for {empty:?}");
        // Naming an evidence set too: the missing source's path (the grounding checks
        // `indeterminate`, LC-001; the gate says "not evaluated", exit 3).
        ws.write(
            &doc,
            &format!("---\nbyop:\n  source: e{i}.txt\n  evidence: ev.json\n---\n{INVENTED}"),
        );
        let o = check(&doc, "json");
        assert_eq!(o.status.code(), Some(3), "{empty:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("e{i}.txt is empty, for quotes_grounded")));
        let v = support::workspace::json(&o);
        let q = support::workspace::check(&v, "quotes_grounded");
        assert_eq!(
            (q["result"].as_str(), q["code"].as_str()),
            (Some("indeterminate"), Some("LC-001"))
        );
    }
    // One visible character is a source (a short one: the invented claims fail on it).
    ws.write("one.txt", "\u{feff}x\n");
    ws.write(
        "d.ai.md",
        &format!("---\nbyop:\n  source: one.txt\n---\n{INVENTED}"),
    );
    assert_eq!(check("d.ai.md", "text").status.code(), Some(1));
}
