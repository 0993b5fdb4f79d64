//! A repository's files steering byop's own file-system actions, end to end against the
//! built binary in locked mode (`CI=true`): a committed folder that looks like a git
//! repository, a committed `.byop` link, a committed `runs` link, and front matter naming
//! git's configuration.

mod support;

use std::path::Path;

use support::fake_llm::{FakeLlm, Script, Step};
use support::generation::{NAIVE, dataset, run_args, script};
use support::workspace::{Ws, stderr};

fn empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

/// `docs/` holding the example review (a document the default playbook fails) as
/// `bad.ai.md`, with its companions.
fn docs_with_bad_document(ws: &Ws) {
    std::fs::create_dir(ws.path("docs")).unwrap();
    std::fs::copy(ws.path("nda_review.ai.md"), ws.path("docs/bad.ai.md")).unwrap();
    for companion in ["nda.txt", "nda_review.prompt.txt"] {
        std::fs::copy(ws.path(companion), ws.path(&format!("docs/{companion}"))).unwrap();
    }
    ws.write("docs/.gitignore", "bad.ai.md\n");
}

#[test]
fn a_committed_fake_git_repository_runs_nothing_and_hides_no_document() {
    let ws = Ws::new();
    docs_with_bad_document(&ws);
    // The folder is also a bare-looking git repository whose configuration would run a
    // command (writing a marker) and report the document as untracked.
    let marker = ws.path("fsmonitor-ran");
    for d in ["docs/objects", "docs/refs/heads"] {
        std::fs::create_dir_all(ws.path(d)).unwrap();
    }
    ws.write("docs/HEAD", "ref: refs/heads/main\n");
    ws.write(
        "docs/config",
        &format!(
            "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch {}; false\"\n",
            marker.display()
        ),
    );
    let o = ws
        .cmd()
        .env("CI", "true")
        .args([
            "check",
            "--mode",
            "deterministic",
            "--fail-on",
            "review",
            "docs",
        ])
        .output()
        .unwrap();
    assert!(!marker.exists(), "a repository-controlled git command ran");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checked 1 document(s) a .gitignore matches")
            && stderr(&o).contains("bad.ai.md"),
        "{}",
        stderr(&o)
    );
    // Only the user's flag leaves it out, and says so.
    let o = ws
        .cmd()
        .env("CI", "true")
        .args([
            "check",
            "--fail-on",
            "review",
            "--respect-gitignore",
            "docs",
        ])
        .output()
        .unwrap();
    assert!(!marker.exists());
    assert!(
        stderr(&o).contains("skipped 1 document(s)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn without_git_a_gitignored_document_is_still_checked() {
    let ws = Ws::new();
    docs_with_bad_document(&ws);
    // No git at all (as in a container where git refuses the checkout's owner).
    let no_git = tempfile::tempdir().unwrap();
    let o = ws
        .cmd()
        .env("CI", "true")
        .env("PATH", no_git.path())
        .args([
            "check",
            "--mode",
            "deterministic",
            "--fail-on",
            "review",
            "docs",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.ai.md"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_committed_byop_link_cannot_move_the_default_store() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let outside = tempfile::tempdir().unwrap();
    let run = |ws: &Ws| {
        ws.cmd()
            .env("CI", "true")
            .env_remove("BYOP_DB")
            .args([
                "check",
                "--mode",
                "deterministic",
                "--fail-on",
                "review",
                "nda_review.ai.md",
            ])
            .output()
            .unwrap()
    };
    // `.byop` itself a link to a folder outside.
    let ws = Ws::new();
    symlink(outside.path(), ws.path(".byop")).unwrap();
    let o = run(&ws);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(empty(outside.path()), "the store was created outside");
    // `.byop/byop.db` a dangling link to a file outside.
    let ws = Ws::new();
    std::fs::create_dir(ws.path(".byop")).unwrap();
    symlink(outside.path().join("new.db"), ws.path(".byop/byop.db")).unwrap();
    let o = run(&ws);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(empty(outside.path()), "the store was created outside");
    // Without links the store is made inside, private.
    let ws = Ws::new();
    let o = run(&ws);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let mode = std::fs::metadata(ws.path(".byop/byop.db"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[cfg(unix)]
#[test]
fn a_dataset_run_never_writes_through_a_committed_link() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    let llm = FakeLlm::start_blocking(script());
    let args = run_args(&["--run-id", "r1"]);
    // `runs` a link outside, then (with a real `runs`) the predictable run folder a link.
    for link in ["exp/runs", "exp/runs/r1"] {
        let ws = Ws::new();
        dataset(&ws, &[("a_naive", NAIVE)]);
        std::fs::create_dir_all(ws.path(link).parent().unwrap()).unwrap();
        symlink(outside.path(), ws.path(link)).unwrap();
        let o = ws
            .with_llm(&llm)
            .env("CI", "true")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{link}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("refused") && stderr(&o).contains("symbolic link"),
            "{link}: {}",
            stderr(&o)
        );
        assert!(empty(outside.path()), "{link}: written outside");
    }
    assert_eq!(
        llm.calls(),
        0,
        "nothing is generated before the folders are checked"
    );
}

#[test]
fn front_matter_cannot_name_git_or_store_files_as_companions() {
    let ws = Ws::new();
    let llm = FakeLlm::start_blocking(Script::always(vec![Step::pass()]));
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write(
        ".git/config",
        "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic CHECKOUT-SECRET\n",
    );
    std::fs::create_dir(ws.path(".byop")).unwrap();
    ws.write(".byop/notes.txt", "STORE-SECRET\n");
    let review = std::fs::read_to_string(ws.path("nda_review.ai.md")).unwrap();
    for source in [".git/config", "./.git/../.git/config", ".byop/notes.txt"] {
        ws.write(
            "doc.ai.md",
            &review.replace("source: nda.txt", &format!("source: {source}")),
        );
        let o = ws
            .with_llm(&llm)
            .env("CI", "true")
            .args(["check", "--mode", "full", "doc.ai.md"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{source}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("never a companion"),
            "{source}: {}",
            stderr(&o)
        );
    }
    assert_eq!(llm.calls(), 0, "nothing was sent to the evaluator");
}
