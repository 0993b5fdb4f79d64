//! The store named by a URL: `--db`, `BYOP_DB` and `DATABASE_URL` are never taken for a
//! file name. A scheme byop cannot store in is a clear error (exit 2) that creates
//! nothing and never shows the password.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use support::workspace::{Ws, stderr};

fn entries(dir: &Path) -> BTreeSet<String> {
    walk(dir, dir)
}

fn walk(root: &Path, dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        out.insert(p.strip_prefix(root).unwrap().display().to_string());
        if p.is_dir() {
            out.extend(walk(root, &p));
        }
    }
    out
}

/// Runs `byop ARGS` with the store named by `var=url` (or `--db url`), and checks it
/// failed with exit 2, said why, kept the password out and created nothing.
fn refused(ws: &Ws, how: &str, url: &str, args: &[&str], why: &str) {
    let before = entries(ws.dir.path());
    let mut cmd = ws.cmd();
    cmd.env_remove("BYOP_DB")
        .env_remove("DATABASE_URL")
        .env_remove("BYOP_STORE_KEY");
    match how {
        "--db" => {
            cmd.args(args).args(["--db", url]);
        }
        var => {
            cmd.env(var, url).args(args);
        }
    }
    let o = cmd.output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{how} {url}: {err}");
    assert!(err.contains(why), "{how} {url}: {err}");
    assert!(!err.contains("hunter2"), "the password is shown: {err}");
    assert!(!support::workspace::stdout(&o).contains("hunter2"));
    assert_eq!(
        entries(ws.dir.path()),
        before,
        "{how} {url} created files in the workspace"
    );
}

#[test]
fn a_url_the_store_cannot_use_is_an_error_that_creates_nothing() {
    let ws = Ws::new();
    let check = ["check", "--mode", "deterministic", "nda_review.ai.md"];
    let history = ["history", "nda_review.ai.md"];
    for how in ["--db", "BYOP_DB", "DATABASE_URL"] {
        refused(
            &ws,
            how,
            "mysql://root:hunter2@db.example/byop",
            &check,
            "`mysql:` URL",
        );
        refused(
            &ws,
            how,
            "redis://:hunter2@127.0.0.1:1/0",
            &history,
            "`redis:` URL",
        );
        refused(
            &ws,
            how,
            "postgres://ci:hunter2@127.0.0.1:1/byop",
            &check,
            "postgres://ci:***@127.0.0.1:1/byop",
        );
    }
}

#[test]
fn database_url_may_name_a_sqlite_file() {
    let ws = Ws::new();
    let o = ws
        .cmd()
        .env_remove("BYOP_DB")
        .env("DATABASE_URL", "sqlite:///team.db")
        .args(["check", "--mode", "deterministic", "nda_review.ai.md"])
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
    assert!(ws.path("team.db").is_file(), "no team.db: {}", stderr(&o));
    assert!(!ws.path("state.db").exists());
}

#[test]
fn a_workspace_byop_toml_cannot_point_the_store_at_a_server() {
    let ws = Ws::new();
    ws.write(
        "byop.toml",
        "db = \"postgres://ci:hunter2@db.example/byop\"\n",
    );
    let before = entries(ws.dir.path());
    let o = ws
        .cmd()
        .env_remove("BYOP_DB")
        .env_remove("DATABASE_URL")
        .args(["check", "--mode", "deterministic", "nda_review.ai.md"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("byop.toml:1:7: `db` names a URL"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
    assert_eq!(entries(ws.dir.path()), before);
}

mod pg_backend {
    use super::support::pg;
    use super::support::workspace::{Ws, json, stderr, stdout};

    const TEAM_KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn team(ws: &Ws, url: &str, args: &[&str]) -> std::process::Output {
        ws.cmd()
            .env_remove("DATABASE_URL")
            .env("BYOP_DB", url)
            .env("BYOP_STORE_KEY", TEAM_KEY)
            .args(args)
            .output()
            .unwrap()
    }

    /// Two checkouts (two workspaces, two users' data folders) share one server store:
    /// the second sees the first's history and baseline, and the audit chain verifies.
    #[test]
    fn two_checkouts_share_history_baselines_and_the_audit_log_on_the_server() {
        let Some(server) = pg::server() else {
            return;
        };
        let url = pg::fresh_database(server);
        let (alice, bob) = (Ws::new(), Ws::new());
        let check = [
            "check",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "nda_review.ai.md",
        ];
        let o = team(&alice, &url, &check);
        assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
        let id = json(&o)["byop_report"]["report_id"]
            .as_str()
            .unwrap()
            .to_string();
        let o = team(&alice, &url, &["baseline", "save", "nda_review.ai.md"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = team(
            &alice,
            &url,
            &["baseline", "show", "nda_review.ai.md", "--format", "json"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["byop_report"]["report_id"], id.as_str());
        assert!(!alice.path(".byop").exists() && !alice.path("state.db").exists());

        // Bob's checkout is another folder: documents are keyed by path, so he asks
        // for Alice's report by id and sees the shared audit log.
        let o = team(&bob, &url, &["report", &id, "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["byop_report"]["report_id"], id.as_str());
        let o = team(&bob, &url, &["log", "--verify"]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        let o = team(&bob, &url, &["history", "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!json(&o).as_array().unwrap().is_empty());

        // Without the team key, a server store is refused (its rows could not be verified).
        let o = bob
            .cmd()
            .env("BYOP_DB", &url)
            .env_remove("BYOP_STORE_KEY")
            .args(["history"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("BYOP_STORE_KEY"), "{}", stderr(&o));
        assert!(!stderr(&o).contains(pg::ADMIN_PASSWORD), "{}", stderr(&o));
    }

    /// A CI gate configured for a team store it cannot reach exits 3 (not evaluated),
    /// never with the password.
    #[test]
    fn a_gate_that_cannot_reach_its_team_store_is_not_evaluated() {
        let ws = Ws::new();
        let url = "postgres://ci:hunter2@127.0.0.1:1/byop?sslmode=disable";
        let o = team(
            &ws,
            url,
            &["check", "--mode", "deterministic", "nda_review.ai.md"],
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{err}");
        assert!(err.contains("cannot reach the team store"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
    }

    /// Local file store (the user's own key), as Ws::cmd opens it, with the team key set
    /// so exports are authenticated for the team.
    fn local(ws: &Ws, args: &[&str]) -> std::process::Output {
        ws.cmd()
            .env_remove("DATABASE_URL")
            .env("BYOP_STORE_KEY", TEAM_KEY)
            .args(args)
            .output()
            .unwrap()
    }

    /// A team seeds its server from a local store, and a teammate takes a copy offline;
    /// every line's MAC is checked on import, and an edited file imports nothing.
    #[test]
    fn export_from_a_file_import_into_the_server_and_back_verified_by_mac() {
        let Some(server) = pg::server() else {
            return;
        };
        let url = pg::fresh_database(server);
        let (alice, bob) = (Ws::new(), Ws::new());
        let check = ["check", "--mode", "deterministic", "--format", "json"];
        let o = local(&alice, &[&check[..], &["nda_review.ai.md"]].concat());
        assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
        let id = json(&o)["byop_report"]["report_id"]
            .as_str()
            .unwrap()
            .to_string();
        let o = local(&alice, &["baseline", "save", "nda_review.ai.md"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = local(&alice, &["store", "export"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("1 report(s)"), "{}", stderr(&o));
        assert!(stderr(&o).contains("1 baseline(s)"), "{}", stderr(&o));
        let export = stdout(&o);
        assert_eq!(export.lines().count(), 2, "{export}");
        alice.write("export.jsonl", &export);

        // An edited line (the report moved to another document) is refused, naming the
        // line; nothing reaches the server.
        alice.write(
            "edited.jsonl",
            &export.replacen("nda_review", "nda_reviev", 1),
        );
        let edited = alice.path("edited.jsonl");
        let o = team(&alice, &url, &["store", "import", edited.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("edited.jsonl:1:"), "{}", stderr(&o));
        assert!(stderr(&o).contains("MAC does not verify"), "{}", stderr(&o));
        let o = team(&alice, &url, &["report", &id, "--format", "json"]);
        assert_eq!(o.status.code(), Some(2), "nothing imported: {}", stdout(&o));

        let file = alice.path("export.jsonl");
        let o = team(&alice, &url, &["store", "import", file.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("1 report(s)"), "{}", stdout(&o));
        let o = team(
            &alice,
            &url,
            &["baseline", "show", "nda_review.ai.md", "--format", "json"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["byop_report"]["report_id"], id.as_str());
        // Importing again adds nothing.
        let o = team(&alice, &url, &["store", "import", file.to_str().unwrap()]);
        assert!(stdout(&o).contains("0 report(s)"), "{}", stdout(&o));

        // Bob takes the server's rows into his own file store (his own key).
        let o = team(&bob, &url, &["store", "export", "--since", "2000-01-01"]);
        assert!(o.status.success(), "{}", stderr(&o));
        bob.write("offline.jsonl", &stdout(&o));
        let offline = bob.path("offline.jsonl");
        let o = local(&bob, &["store", "import", offline.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = local(&bob, &["report", &id, "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["byop_report"]["report_id"], id.as_str());
        // Nothing from after the future.
        let o = team(&bob, &url, &["store", "export", "--since", "2200-01-01"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).trim().is_empty(), "{}", stdout(&o));
    }
}
