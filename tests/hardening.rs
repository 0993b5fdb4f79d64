//! Hardening against a hostile workspace, end to end on the built binary: a tamper-evident
//! audit log, escaped terminal output, keys scrubbed from evaluator text, bounded inputs.
//! `docs/security.md` maps each test to its row.

mod support;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{KEY, Ws, stderr, stdout};

fn db(ws: &Ws) -> rusqlite::Connection {
    rusqlite::Connection::open(ws.path("state.db")).unwrap()
}

/// A few audited requests (deterministic checks: no evaluator needed).
fn ws_with_log() -> Ws {
    let ws = Ws::new();
    for _ in 0..2 {
        let o = ws.run(&["check", "nda_review.ai.md"]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    }
    let verify = ws.run(&["log", "--verify"]);
    assert_eq!(verify.status.code(), Some(0), "{}", stdout(&verify));
    assert!(stdout(&verify).contains("intact"), "{}", stdout(&verify));
    ws
}

fn verify(ws: &Ws) -> (Option<i32>, String) {
    let o = ws.run(&["log", "--verify"]);
    (o.status.code(), stdout(&o) + &stderr(&o))
}

fn rows(ws: &Ws) -> i64 {
    db(ws)
        .query_row("SELECT count(*) FROM audit_log", [], |r| r.get(0))
        .unwrap()
}

// ---- the audit log proves itself ---------------------------------------------------

#[test]
fn deleting_the_last_rows_or_all_rows_is_seen() {
    let ws = ws_with_log();
    let n = rows(&ws);
    db(&ws)
        .execute("DELETE FROM audit_log WHERE id > ?1", [n - 2])
        .unwrap();
    let (code, out) = verify(&ws);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("removed") && !out.contains("intact"), "{out}");
    // A later run does not paper over the gap.
    ws.run(&["check", "nda_review.ai.md"]);
    assert_eq!(verify(&ws).0, Some(1));

    let ws = ws_with_log();
    db(&ws).execute("DELETE FROM audit_log", []).unwrap();
    let (code, out) = verify(&ws);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("every row was removed"), "{out}");
    // Nor does a whole new database in its place.
    std::fs::remove_file(ws.path("state.db")).unwrap();
    ws.run(&["check", "nda_review.ai.md"]);
    let (code, out) = verify(&ws);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("replaced"), "{out}");
}

/// The chain as a forger without the key would recompute it: sha256 of each row.
fn rewrite_with_sha256(ws: &Ws) {
    use byop::model::integrity::{canonical_json, sha256_hex};
    let conn = db(ws);
    let mut stmt = conn
        .prepare("SELECT id, request_id, at, document, state, code, inputs_fingerprint, playbook_logic_hash, call_json FROM audit_log ORDER BY id")
        .unwrap();
    let all: Vec<(i64, Value)> = stmt
        .query_map([], |r| {
            let call: Option<String> = r.get(8)?;
            let mut v = serde_json::json!({
                "request_id": r.get::<_, String>(1)?, "at": r.get::<_, String>(2)?,
                "document": r.get::<_, String>(3)?, "state": "evaluated",
            });
            for (i, k) in [
                (5, "code"),
                (6, "inputs_fingerprint"),
                (7, "playbook_logic_hash"),
            ] {
                if let Some(s) = r.get::<_, Option<String>>(i)? {
                    v[k] = s.into();
                }
            }
            if let Some(c) = call {
                v["call"] = serde_json::from_str(&c).unwrap();
            }
            Ok((r.get(0)?, v))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut prev = "0".repeat(64);
    for (id, mut v) in all {
        v["id"] = id.into();
        v["prev_hash"] = prev.clone().into();
        let hash = sha256_hex(canonical_json(&v).as_bytes());
        conn.execute(
            "UPDATE audit_log SET state = 'evaluated', prev_hash = ?1, row_hash = ?2 WHERE id = ?3",
            rusqlite::params![prev, hash, id],
        )
        .unwrap();
        prev = hash;
    }
}

#[test]
fn rewriting_every_row_with_recomputed_hashes_is_not_intact() {
    let ws = ws_with_log();
    rewrite_with_sha256(&ws);
    let (code, out) = verify(&ws);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("not this user's") && !out.contains("intact"),
        "{out}"
    );
}

#[test]
fn another_users_store_is_reported_as_such() {
    let ws = ws_with_log();
    let someone_else = tempfile::tempdir().unwrap();
    let o = ws
        .cmd()
        .env("BYOP_DATA_DIR", someone_else.path())
        .args(["log", "--verify"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("not this user's"), "{}", stdout(&o));
}

#[test]
fn a_store_carrying_a_trigger_view_or_foreign_table_is_refused() {
    let cases = [
        (
            "trigger `wipe`",
            "CREATE TRIGGER wipe AFTER INSERT ON audit_log BEGIN DELETE FROM audit_log; END;",
        ),
        ("view `v`", "CREATE VIEW v AS SELECT * FROM reports;"),
        ("table `extra`", "CREATE TABLE extra (x);"),
    ];
    for (named, sql) in cases {
        let ws = ws_with_log();
        db(&ws).execute_batch(sql).unwrap();
        let before = rows(&ws);
        for args in [&["log", "--verify"][..], &["check", "nda_review.ai.md"]] {
            let o = ws.run(args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
            assert!(
                stderr(&o).contains(named) && stderr(&o).contains("did not create"),
                "{args:?}: {}",
                stderr(&o)
            );
        }
        assert_eq!(rows(&ws), before, "nothing ran against it");
    }
    // A committed store at schema v0 is checked too: a trigger in an otherwise empty file.
    let ws = Ws::new();
    db(&ws)
        .execute_batch("CREATE TABLE audit_log (x); CREATE TRIGGER t AFTER INSERT ON audit_log BEGIN SELECT 1; END;")
        .unwrap();
    let o = ws.run(&["check", "nda_review.ai.md"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

// ---- terminal output is escaped ------------------------------------------------------

/// An answer whose notes and citation carry terminal control sequences.
fn hostile_notes(notes: &str) -> Step {
    let mut step = Step::fail_first_sentence();
    if let Step::Verdict { notes: n, .. } = &mut step {
        *n = notes.into();
    }
    step
}

const OSC52: &str = "\u{1b}]52;c;cm0gLXJmIH4=\u{7}";
const ERASE: &str = "\u{1b}[2K\u{1b}[1A\r\u{9b}0m STABLE";

fn assert_no_controls(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && c != '\t' && (c.is_control()))
        .collect();
    assert!(bad.is_empty(), "{what}: raw controls {bad:?} in\n{text}");
}

#[test]
fn evaluator_notes_file_names_and_store_rows_reach_the_terminal_escaped() {
    let ws = Ws::new();
    let name = "memo\u{1b}[2K.ai.md";
    std::fs::copy(ws.path("nda_review.ai.md"), ws.path(name)).unwrap();
    let llm = FakeLlm::start_blocking(Script::always(vec![hostile_notes(&format!(
        "{OSC52}{ERASE}"
    ))]));
    let o = ws
        .with_llm(&llm)
        .args(["check", "--mode", "screening", name])
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(1 | 3)), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("\\u001b]52;c;"), "shown, visibly: {text}");
    assert_no_controls("check text", &text);
    assert_no_controls("check stderr", &stderr(&o));
    for args in [
        &["log"][..],
        &["history"],
        &["check", "--format", "junit", name],
        &["check", "--format", "sarif", name],
    ] {
        let o = ws.with_llm(&llm).args(args).output().unwrap();
        assert_no_controls(&format!("{args:?}"), &stdout(&o));
        assert_no_controls(&format!("{args:?} stderr"), &stderr(&o));
    }
    // The JUnit XML is well-formed.
    let junit = stdout(
        &ws.with_llm(&llm)
            .args(["check", "--format", "junit", name])
            .output()
            .unwrap(),
    );
    let mut reader = quick_xml::Reader::from_str(&junit);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("ill-formed JUnit XML: {e}\n{junit}"),
        }
    }
    // An error naming the file is escaped too.
    let o = ws.run(&["check", "no\u{1b}]0;pwned\u{7}.ai.md"]);
    assert_eq!(o.status.code(), Some(2));
    assert_no_controls("error", &stderr(&o));
}

// ---- keys echoed back are scrubbed ---------------------------------------------------

#[test]
fn a_key_echoed_by_the_evaluator_is_never_stored_or_shown() {
    let ws = Ws::new();
    let other = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
    let llm = FakeLlm::start_blocking(Script::always(vec![hostile_notes(&format!(
        "the gateway saw key {KEY} and {other}"
    ))]));
    let mut outputs = String::new();
    for format in ["text", "json", "sarif", "junit", "html"] {
        let o = ws
            .with_llm(&llm)
            .args([
                "check",
                "--mode",
                "screening",
                "--format",
                format,
                "nda_review.ai.md",
            ])
            .output()
            .unwrap();
        outputs += &stdout(&o);
        outputs += &stderr(&o);
    }
    assert!(outputs.contains("[redacted]"), "{outputs}");
    for (what, text) in [
        ("outputs", outputs),
        (
            "store",
            String::from_utf8_lossy(&std::fs::read(ws.path("state.db")).unwrap()).into_owned(),
        ),
    ] {
        assert!(!text.contains(KEY), "{what} holds the key");
        assert!(!text.contains(other), "{what} holds a key-shaped string");
    }
    let wal = ws.path("state.db-wal");
    if wal.exists() {
        let wal = String::from_utf8_lossy(&std::fs::read(wal).unwrap()).into_owned();
        assert!(
            !wal.contains(KEY) && !wal.contains(other),
            "the WAL holds a key"
        );
    }
}

// ---- smaller holes --------------------------------------------------------------------

#[test]
fn a_non_ascii_request_id_does_not_crash_the_log() {
    let ws = ws_with_log();
    db(&ws)
        .execute(
            "UPDATE audit_log SET request_id = 'ééééééééé' WHERE id = 1",
            [],
        )
        .unwrap();
    let o = ws.run(&["log"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("éééééééé"), "{}", stdout(&o));
}

#[test]
fn a_crafted_report_naming_dev_zero_is_not_read() {
    let ws = Ws::new();
    let o = ws.run(&["check", "--format", "json", "nda_review.ai.md"]);
    let mut report: Value = serde_json::from_slice(&o.stdout).unwrap();
    report["byop_report"]["document"]["path"] = "/dev/zero".into();
    ws.write("crafted.json", &report.to_string());
    let mut child = ws
        .cmd()
        .args(["report", "crafted.json", "--format", "html"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded: it ends on its own (reading /dev/zero would never end).
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let done = child.try_wait().unwrap();
    if done.is_none() {
        child.kill().ok();
    }
    assert_eq!(
        done.and_then(|s| s.code()),
        Some(0),
        "byop report kept reading"
    );
}

#[test]
fn only_gitignore_with_the_users_flag_leaves_a_document_out_and_it_is_said() {
    let ws = Ws::new();
    std::fs::create_dir(ws.path("docs")).unwrap();
    for n in ["a", "b", "c"] {
        std::fs::copy(
            ws.path("nda_review.ai.md"),
            ws.path(&format!("docs/{n}.ai.md")),
        )
        .unwrap();
    }
    for companion in ["nda.txt", "nda_review.prompt.txt"] {
        if ws.path(companion).exists() {
            std::fs::copy(ws.path(companion), ws.path(&format!("docs/{companion}"))).unwrap();
        }
    }
    ws.write("docs/.ignore", "a.ai.md\n");
    ws.write("docs/.gitignore", "b.ai.md\n");
    let o = ws.run(&["check", "--format", "json", "--respect-gitignore", "docs"]);
    let paths: Vec<String> = serde_json::from_slice::<Vec<Value>>(&o.stdout)
        .unwrap()
        .iter()
        .map(|r| {
            r["byop_report"]["document"]["path"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        paths.iter().any(|p| p.ends_with("a.ai.md")),
        ".ignore is not honoured: {paths:?}"
    );
    assert!(!paths.iter().any(|p| p.ends_with("b.ai.md")), "{paths:?}");
    assert!(
        stderr(&o).contains("skipped 1 document") && stderr(&o).contains("b.ai.md"),
        "{}",
        stderr(&o)
    );
    // Without the flag every document is checked, and those a .gitignore matches named.
    let o = ws.run(&["check", "--format", "json", "docs"]);
    assert!(stdout(&o).contains("b.ai.md"), "{}", stderr(&o));
    assert!(stderr(&o).contains("checked 1 document(s) a .gitignore matches"));
}

#[test]
fn deeply_nested_or_huge_front_matter_is_an_input_error_at_a_position() {
    let ws = Ws::new();
    let body = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    let deep = format!(
        "---\nx: {}{}\n---\n{body}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    ws.write("deep.ai.md", &deep);
    let o = ws.run(&["check", "deep.ai.md"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nested") && stderr(&o).contains("deep.ai.md:2:"),
        "{}",
        stderr(&o)
    );
}

// ---- a repair cannot silence its checks ----------------------------------------------

#[test]
fn a_repair_that_adds_a_suppression_comment_is_rejected() {
    let ws = Ws::new();
    for comment in [
        "<!-- byop-disable-file unchecked_areas_disclosure -->",
        "<!-- byop-disable -->",
    ] {
        let llm = FakeLlm::start_blocking(
            Script::default().check("repair", vec![Step::repaired_appending(comment)]),
        );
        let o = ws
            .with_llm(&llm)
            .args(["repair", "nda_review.ai.md", "-o", "fixed.ai.md"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{comment}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("repair rejected") && err.contains("[suppression]"),
            "{err}"
        );
        assert!(!ws.path("fixed.ai.md").exists());
    }
}

#[test]
fn control_characters_are_stripped_from_a_repair_and_its_diff() {
    let ws = Ws::new();
    let section = "## Not checked / missing information\n\n- The governing law\u{1b}]52;c;eA==\u{7} was not reviewed.\u{1b}[2K";
    let llm = FakeLlm::start_blocking(
        Script::default().check("repair", vec![Step::repaired_appending(section)]),
    );
    let o = ws
        .with_llm(&llm)
        .args(["repair", "nda_review.ai.md"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let diff = stdout(&o);
    assert!(
        diff.contains("+- The governing law]52;c;eA== was not reviewed.[2K"),
        "{diff}"
    );
    assert_no_controls("diff", &diff);
    let o = ws
        .with_llm(&llm)
        .args(["repair", "nda_review.ai.md", "-o", "fixed.ai.md"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_no_controls(
        "file",
        &std::fs::read_to_string(ws.path("fixed.ai.md")).unwrap(),
    );
}

// ---- playbook ids and links --------------------------------------------------------------

#[test]
fn a_playbook_id_that_is_a_path_or_a_help_uri_an_editor_would_run_is_refused() {
    let ws = Ws::new();
    let builtin: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("playbooks/ai_plugin_observability_v1.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut builtin = builtin;
    builtin["id"] = "custom_pb".into();
    let mut dotdot = builtin.clone();
    dotdot["id"] = "..".into();
    let mut js = builtin.clone();
    js["checks"][0]["help_uri"] = "javascript:alert(1)".into();
    let mut command = builtin.clone();
    command["checks"][0]["help_uri"] = "command:workbench.action.terminal.new".into();
    for (pb, why) in [
        (dotdot, "playbook id `..`"),
        (js, "help_uri"),
        (command, "help_uri"),
    ] {
        ws.write("pb.json", &pb.to_string());
        let o = ws.run(&["check", "--playbook", "pb.json", "nda_review.ai.md"]);
        assert_eq!(o.status.code(), Some(2), "{why}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
    let mut fine = builtin;
    fine["checks"][0]["help_uri"] = "https://example.org/checks".into();
    ws.write("pb.json", &fine.to_string());
    let o = ws.run(&["check", "--playbook", "pb.json", "nda_review.ai.md"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
}
