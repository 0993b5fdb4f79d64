//! Who may set what, end to end on the built binary: the repository (documents, front
//! matter, byop.toml, dataset.toml) may make checks stricter, never weaker; it never
//! chooses where data goes; in locked mode it never chooses the rules. One test per
//! reproduced attack; `docs/security.md` opens with the table they prove.

mod support;

use serde_json::Value;

use support::fake_llm::{FakeLlm, Script, Step, canary_token};
use support::workspace::{Ws, json, stderr, stdout};

fn memo(front_matter: &str) -> String {
    format!(
        "---\n{front_matter}---\n# Review\n\nThe supplier must notify breaches within 72 hours, which appears to follow common practice under the governing law.\n\nThe liability cap is set at the fees paid in the preceding twelve months, a common position for services of this kind.\n\nWe recommend that counsel review the indemnity before signing, since its scope depends on facts we do not have.\n\n## Not checked / missing information\n\n- The exhibits were not provided, so pricing was not reviewed.\n"
    )
}

/// A one-check playbook that passes anything, carrying the built-in's id and version.
const ALWAYS_PASS: &str = r#"{"id":"ai_plugin_observability_v1","version":"1.0.0","checks":[{"id":"anything","severity":"low",
  "question":"Anything?","detection_method":{"type":"deterministic","instructions":"I"},
  "rules":{"kind":"pattern","patterns":["."],"match_means":"pass"}}]}"#;

/// `byop check` with the local checks only, as JSON.
const CHECK_JSON: [&str; 5] = ["check", "--mode", "deterministic", "--format", "json"];

fn check_json(ws: &Ws, doc: &str) -> std::process::Output {
    ws.cmd().args(CHECK_JSON).arg(doc).output().unwrap()
}

fn report(o: &std::process::Output) -> Value {
    json(o)["byop_report"].clone()
}

// ---- 1. a document cannot pick its own playbook ----------------------------------

#[test]
fn a_document_cannot_choose_an_always_pass_playbook() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    std::fs::create_dir(ws.path("pb")).unwrap();
    ws.write("pb/p.json", ALWAYS_PASS);
    ws.write("doc.ai.md", &memo("byop:\n  playbook: pb/p.json\n"));
    // The README's CI recipe without --locked: refused, nothing sent.
    let o = ws.run_llm(&llm, "check --mode full --format json doc.ai.md");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("may only request a built-in playbook"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    assert_eq!(llm.calls(), 0);
    // Allowed by byop.toml, it still may not carry the built-in's id with other logic.
    ws.write("byop.toml", "allowed_playbooks = [\"pb/p.json\"]\n");
    let o = ws.run_llm(&llm, "check --mode full --format json doc.ai.md");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("carries the built-in playbook id"), "{err}");
    assert_eq!(err.matches("sha256:").count(), 2, "both hashes: {err}");
    // Locked mode (CI=true): the front matter's playbook is ignored with a notice; the
    // built-in judges the document, and the report says locked.
    let o = ws
        .with_llm(&llm)
        .env("CI", "true")
        .args(["check", "--mode", "full", "--format", "json", "doc.ai.md"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(err.contains("locked mode is on because CI=true"), "{err}");
    assert!(err.contains("ignored allowed_playbooks"), "{err}");
    let r = report(&o);
    assert_eq!(r["locked"], true);
    assert_eq!(r["playbook_source"], "default");
    assert!(r["check_results"].as_array().unwrap().len() > 1);
    assert!(llm.calls() > 0, "the built-in's evaluator checks ran");
    // Only the command line switches it off.
    let o = ws
        .cmd()
        .env("CI", "true")
        .env("BYOP_LOCKED", "0")
        .args([
            "check",
            "--no-locked",
            "--mode",
            "deterministic",
            "doc.ai.md",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "unlocked: the impostor is refused again"
    );
}

/// A file named with a built-in id before an `@` is a file, not the built-in; and in
/// locked mode the document picks no playbook at all, not even another built-in (one made
/// for other documents can pass this one).
#[test]
fn a_document_cannot_pick_a_weaker_built_in_or_a_file_dressed_as_one() {
    let ws = Ws::new();
    ws.write(
        "ai_plugin_observability_v1@evil.json",
        ALWAYS_PASS
            .replace("ai_plugin_observability_v1", "evil")
            .as_str(),
    );
    ws.write(
        "dressed.ai.md",
        &memo("byop:\n  playbook: ai_plugin_observability_v1@evil.json\n"),
    );
    // Outside locked mode the file is refused like any file no one allowed.
    let o = check_json(&ws, "dressed.ai.md");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("may only request a built-in playbook"),
        "{}",
        stderr(&o)
    );
    // Locked: both the file and another built-in are ignored with a notice; the default judges.
    ws.write("src.txt", "The source.");
    ws.write(
        "other.ai.md",
        &memo("byop:\n  playbook: evidence_contract_v1\n  source: src.txt\n"),
    );
    for doc in ["dressed.ai.md", "other.ai.md"] {
        let o = ws
            .cmd()
            .env("CI", "true")
            .args(CHECK_JSON)
            .arg(doc)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(err.contains("is ignored in locked mode"), "{doc}: {err}");
        let r = report(&o);
        assert_eq!(r["playbook_source"], "default", "{doc}");
        assert_eq!(r["playbook_id"], "ai_plugin_observability_v1", "{doc}");
    }
    // Outside locked mode a built-in the document names is still honoured.
    let o = check_json(&ws, "other.ai.md");
    let r = report(&o);
    assert_eq!(r["playbook_source"], "front_matter");
    assert_eq!(r["playbook_id"], "evidence_contract_v1");
}

/// Text a reader never sees (an HTML comment) cannot satisfy a check: a disclosure section
/// hidden in a comment is no disclosure; the same words visible are.
#[test]
fn hidden_text_is_no_evidence_that_a_check_passes() {
    let ws = Ws::new();
    let full = memo("byop: {}\n");
    let (shown, disclosure) = full.split_at(full.find("## Not checked").unwrap());
    ws.write("hidden.ai.md", &format!("{shown}<!--\n{disclosure}-->\n"));
    ws.write("shown.ai.md", &full);
    let status = |doc: &str| {
        let o = check_json(&ws, doc);
        report(&o)["check_results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check_id"] == "unchecked_areas_disclosure")
            .map(|c| c["result"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(status("hidden.ai.md"), "fail");
    assert_eq!(status("shown.ai.md"), "pass");
}

#[test]
fn a_pinned_playbook_must_have_the_pinned_hash() {
    let ws = Ws::new();
    ws.write("doc.ai.md", &memo(""));
    let hash = stdout(&ws.run(&["playbook", "hash", "ai_plugin_observability_v1"]));
    let hash = hash
        .split_whitespace()
        .find(|w| w.starts_with("sha256:"))
        .unwrap();
    let pin = format!("ai_plugin_observability_v1@{hash}");
    let o = ws.run(&[
        "check",
        "--locked",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "--playbook",
        &pin,
        "doc.ai.md",
    ]);
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    assert_eq!(report(&o)["locked"], true);
    let wrong = "ai_plugin_observability_v1@sha256:0000";
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--playbook",
        wrong,
        "doc.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not the pinned sha256:0000"),
        "{}",
        stderr(&o)
    );
}

// ---- 2. canaries: off only from the user; full mode never reuses a canary-less answer

#[test]
fn the_workspace_cannot_switch_canaries_off_and_full_mode_never_reuses_unguarded_answers() {
    let ws = Ws::new();
    ws.write("doc.ai.md", &memo(""));
    ws.write("byop.toml", "[evaluator]\ncanary = false\n");
    let obedient = FakeLlm::start_blocking(Script::always(vec![Step::obedient_pass()]));
    let o = ws.run_llm(&obedient, "check --mode full --format json doc.ai.md");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("only you may switch canaries off"),
        "{}",
        stderr(&o)
    );
    assert!(report(&o)["variance_summary"]["injection_susceptible_runs"].as_u64() > Some(0));
    // A screening run caches answers obtained without a canary ...
    std::fs::remove_file(ws.path("byop.toml")).unwrap();
    ws.write("doc2.ai.md", &memo("title: two\n"));
    let o = ws.run_llm(&obedient, "check --mode screening doc2.ai.md");
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    // ... which a full run does not reuse: it asks again, with canaries, and is caught.
    let before = obedient.calls();
    let o = ws.run_llm(&obedient, "check --mode full --format json doc2.ai.md");
    assert_eq!(
        o.status.code(),
        Some(3),
        "as a fresh full run: {}",
        stderr(&o)
    );
    let asked = &obedient.requests()[before..];
    assert!(asked.len() >= 3, "runs 0.. asked again");
    assert!(asked.iter().all(|r| canary_token(&r.user()).is_some()));
    // The user may switch them off.
    let plain = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    ws.run_llm(&plain, "check --mode full --fresh --no-canary doc.ai.md");
    assert!(plain.calls() > 0);
    assert!(
        plain
            .requests()
            .iter()
            .all(|r| canary_token(&r.user()).is_none())
    );
}

// ---- 4. dataset paths stay inside the dataset and the workspace --------------------

#[test]
fn a_dataset_cannot_read_files_outside_its_folder() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(outside.path().join("x")).unwrap();
    std::fs::write(
        outside.path().join("x/secret.ai.md"),
        memo("title: secret\n"),
    )
    .unwrap();
    std::fs::create_dir_all(ws.path("ds/variants/a")).unwrap();
    ws.write("ds/variants/a/one.ai.md", &memo(""));
    let abs = outside.path().join("x");
    let hostile = [
        format!(
            "scenarios = \"{}\"\n[variants]\na = \"variants/a\"\n",
            abs.display()
        ),
        format!("[variants]\na = \"{}\"\n", abs.display()),
        "[variants]\na = \"../../../../../../../../tmp\"\n".to_string(),
    ];
    for toml in &hostile {
        ws.write("ds/dataset.toml", toml);
        let o = ws.run_llm(&llm, "dataset ds --mode screening");
        assert_eq!(o.status.code(), Some(2), "{toml}: {}", stderr(&o));
        assert!(stderr(&o).contains("refused"), "{toml}: {}", stderr(&o));
        assert!(stderr(&o).contains("outside"), "{toml}: {}", stderr(&o));
    }
    std::fs::remove_file(ws.path("ds/dataset.toml")).unwrap();
    #[cfg(unix)]
    {
        let link = ws.path("ds/variants/a/two.ai.md");
        std::os::unix::fs::symlink(outside.path().join("x/secret.ai.md"), &link).unwrap();
        let o = ws.run_llm(&llm, "dataset ds --mode screening");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("two.ai.md: refused"), "{}", stderr(&o));
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(outside.path().join("x"), ws.path("ds/variants/b")).unwrap();
        let o = ws.run_llm(&llm, "dataset ds --mode screening");
        assert_eq!(
            o.status.code(),
            Some(2),
            "a linked variant folder: {}",
            stderr(&o)
        );
    }
    assert_eq!(llm.calls(), 0, "nothing was sent");
}

// ---- 7. byop.toml discovery stops at the repository; never someone else's file ------

#[test]
fn a_byop_toml_above_the_repository_or_writable_by_others_does_not_govern() {
    let ws = Ws::new();
    ws.write(
        "byop.toml",
        "include = [\"nothing/*.md\"]\n[evaluator]\nmax_retries = 0\n",
    );
    std::fs::create_dir_all(ws.path("clone/.git")).unwrap();
    std::fs::write(ws.path("clone/r.ai.md"), memo("")).unwrap();
    let o = ws
        .cmd()
        .current_dir(ws.path("clone"))
        .args(["check", "--mode", "deterministic", "."])
        .output()
        .unwrap();
    assert_ne!(
        o.status.code(),
        Some(2),
        "the planted include is not used: {}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("r.ai.md"), "{}", stdout(&o));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = ws.path("byop.toml");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o666)).unwrap();
        let o = ws.run(&["check", "--mode", "deterministic", "nda_review.ai.md"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("others may write"), "{}", stderr(&o));
    }
}

// ---- 8. no workspace: the document's own folder only ------------------------------

/// A review saved in the home folder, checked from there: no byop.toml or .git marks a
/// workspace, and the home folder is none.
#[test]
fn without_a_workspace_a_document_names_only_files_beside_it() {
    let ws = Ws::new();
    let run = |args: &[&str]| {
        ws.cmd()
            .env("HOME", ws.dir.path())
            .args(args)
            .output()
            .unwrap()
    };
    std::fs::create_dir(ws.path(".ssh")).unwrap();
    ws.write(".ssh/id_ed25519", "PRIVATE KEY");
    ws.write("doc.ai.md", &memo("byop:\n  source: .ssh/id_ed25519\n"));
    let o = run(&["check", "--mode", "deterministic", "doc.ai.md"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("its own files only"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("PRIVATE KEY"));
    // A file beside it is fine; a marker makes the folder a workspace.
    ws.write("doc.ai.md", &memo("byop:\n  source: nda.txt\n"));
    assert_ne!(
        run(&["check", "--mode", "deterministic", "doc.ai.md"])
            .status
            .code(),
        Some(2)
    );
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write("doc.ai.md", &memo("byop:\n  source: .ssh/id_ed25519\n"));
    let o = run(&["check", "--mode", "deterministic", "doc.ai.md"]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
}

// ---- 9. the workspace keeps its store inside itself ------------------------------

#[test]
fn the_workspace_cannot_place_the_store_elsewhere() {
    let ws = Ws::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("planted.db");
    std::fs::write(ws.path("empty.db"), "").unwrap();
    for db in [
        target.display().to_string(),
        "../elsewhere.db".into(),
        "postgres://attacker/db".into(),
        "empty.db".into(),
    ] {
        ws.write("byop.toml", &format!("db = \"{db}\"\n"));
        let o = ws
            .cmd()
            .env_remove("BYOP_DB")
            .args(["check", "--mode", "deterministic", "nda_review.ai.md"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{db}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("refused") || err.contains("names a URL"),
            "{db}: {err}"
        );
    }
    assert!(!target.exists());
    assert_eq!(
        std::fs::read(ws.path("empty.db")).unwrap().len(),
        0,
        "not overwritten"
    );
    ws.write("byop.toml", "db = \"state/in.db\"\n");
    let o = ws
        .cmd()
        .env_remove("BYOP_DB")
        .args(["check", "--mode", "deterministic", "nda_review.ai.md"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(ws.path("state/in.db").exists());
}

/// `path`'s permission bits.
#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The store, its folder, the per-user key and its folder are created private to the user;
/// a key that others may read is refused, naming the file and the fix, and nothing runs.
#[cfg(unix)]
#[test]
fn stores_and_their_key_are_created_private_and_a_shared_key_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::new();
    let data = ws.home.path().join("user/byop");
    let db = ws.path("fresh/.byop/byop.db");
    let run = |args: &[&str]| {
        ws.cmd()
            .env("BYOP_DATA_DIR", &data)
            .env("BYOP_DB", &db)
            .args(args)
            .output()
            .unwrap()
    };
    let check = ["check", "--mode", "deterministic", "nda_review.ai.md"];
    let o = run(&check);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let key = data.join("store-key");
    assert_eq!(mode(&key), 0o600, "the key");
    for dir in [&data, data.parent().unwrap(), &data.join("audit-heads")] {
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
    }
    for dir in [db.parent().unwrap(), &ws.path("fresh")] {
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
    }
    for f in std::fs::read_dir(db.parent().unwrap()).unwrap().flatten() {
        // the database and whichever of its -wal/-shm files are left
        assert_eq!(mode(&f.path()), 0o600, "{}", f.path().display());
    }
    for f in std::fs::read_dir(data.join("audit-heads"))
        .unwrap()
        .flatten()
    {
        assert_eq!(mode(&f.path()), 0o600, "{}", f.path().display());
    }
    let o = run(&["log", "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A key others may read: refused with the file and the fix, for every command that
    // opens the store, and no row is written under it.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let rows = || -> i64 {
        rusqlite::Connection::open(&db)
            .unwrap()
            .query_row("SELECT count(*) FROM audit_log", [], |r| r.get(0))
            .unwrap()
    };
    let before = rows();
    for args in [&check[..], &["log", "--verify"][..]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&key.display().to_string()), "{err}");
        assert!(err.contains("chmod 600"), "{err}");
        assert!(err.contains("not private"), "{err}");
    }
    assert_eq!(rows(), before, "nothing stored under a shared key");
    // Fixed as the error says: used again, and the log still verifies under it.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = run(&check);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let o = run(&["log", "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
