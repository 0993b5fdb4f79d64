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
    cmd.env_remove("BYOP_DB").env_remove("DATABASE_URL");
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
