//! A scratch workspace with the examples copied in, its own database, and no
//! evaluator environment leaking in; and helpers to run the built binary in it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_byop");
pub const KEY: &str = "sk-ant-test-SECRET-0123456789";

/// Copy a folder tree (an example or a data set) into a test's workspace.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// A scratch workspace with its own database, and no evaluator env leaking in.
pub struct Ws {
    pub dir: tempfile::TempDir,
    /// The user's data folder (the store key lives there): outside the workspace.
    pub home: tempfile::TempDir,
}

impl Ws {
    pub fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        for f in std::fs::read_dir(examples()).unwrap().flatten() {
            if f.path().is_file() {
                std::fs::copy(f.path(), dir.path().join(f.file_name())).unwrap();
            }
        }
        Ws {
            dir,
            home: tempfile::tempdir().unwrap(),
        }
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    pub fn cmd(&self) -> Command {
        let mut c = Command::new(BIN);
        c.current_dir(self.dir.path())
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_BASE_URL")
            .env_remove("OPENAI_API_KEY")
            .env_remove("OPENAI_BASE_URL")
            .env_remove("BYOP_TRUST_WORKSPACE_EVALUATOR")
            // Locked mode is tested on purpose, not inherited from a CI runner.
            .env_remove("CI")
            .env_remove("BYOP_LOCKED")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env("BYOP_DB", self.path("state.db"))
            .env("BYOP_DATA_DIR", self.home.path())
            .env("BYOP_BACKOFF_MS", "5")
            .env("NO_COLOR", "1");
        c
    }
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
pub fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}\n{}", stdout(o), stderr(o)))
}

impl Ws {
    pub fn with_llm(&self, llm: &super::fake_llm::FakeLlm) -> Command {
        let mut c = self.cmd();
        c.env("ANTHROPIC_API_KEY", KEY)
            .env("ANTHROPIC_BASE_URL", &llm.base_url);
        c
    }
    /// `byop ARGS` (split at spaces) with the key and base URL of `llm`.
    pub fn run_llm(&self, llm: &super::fake_llm::FakeLlm, args: &str) -> Output {
        self.with_llm(llm).args(args.split(' ')).output().unwrap()
    }
    pub fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).unwrap();
    }

    /// `body` written as `name`, a review whose `source` is `contract.txt`, checked with the
    /// evidence playbook: the exit code and the JSON report.
    #[allow(dead_code)]
    pub fn check_evidence(&self, name: &str, body: &str) -> (Option<i32>, Value) {
        self.write(
            name,
            &format!("---\nbyop:\n  source: contract.txt\n---\n# Review\n\n{body}\n"),
        );
        let o = self.run(&[
            "check",
            "--playbook",
            "evidence_contract_v1",
            "--format",
            "json",
            name,
        ]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{body}: {}",
            stderr(&o)
        );
        (o.status.code(), json(&o))
    }

    /// A counterfactual audit's inputs: `audit.ai.md` (the example NDA review) whose
    /// prompt companion is `prompt` (with `{{cue:…}}` slots), and the cue catalog
    /// `cues.json`.
    pub fn audit_inputs(&self, prompt: &str, cues: &str) {
        let review = std::fs::read_to_string(self.path("nda_review.ai.md")).unwrap();
        let review = review.replace("prompt: nda_review.prompt.txt", "prompt: audit.prompt.txt");
        self.write("audit.ai.md", &review);
        self.write("audit.prompt.txt", prompt);
        self.write("cues.json", cues);
    }
}

/// A check's result in a `{"byop_report": …}` value.
pub fn check<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["byop_report"]["check_results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == id)
        .unwrap()
}
