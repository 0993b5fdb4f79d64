//! Words that stand on their own: the help the binary prints and the text and comments
//! of the repository never send a reader to documents they do not have (a numbered
//! issue, a section of a design document), and the contracts the program implements are
//! explained in `docs/contracts.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

const SUBCOMMANDS: [&str; 12] = [
    "check",
    "lsp",
    "history",
    "diff",
    "baseline",
    "report",
    "log",
    "dataset",
    "store",
    "repair",
    "counterfactual",
    "playbook",
];

/// "issue 12", "Issue 14:", "seed 002", "seed §3.1", "SPEC §8": citations of
/// documents outside the repository. A legal "§ 16600" (a section sign before a statute
/// number, with a space) is text the program reads, not a citation.
fn citation() -> Regex {
    Regex::new(r"(?i)\bissue\s+#?\d|\bseed\s+(?:0\d\d|§)|\bspec\s+§").unwrap()
}

fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_byop"))
        .args(args)
        .output()
        .expect("byop runs");
    assert!(o.status.success(), "byop {args:?}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn no_help_text_cites_an_issue_or_a_design_section() {
    let re = citation();
    let mut texts = vec![("byop --help".to_string(), help(&["--help"]))];
    for sub in SUBCOMMANDS {
        texts.push((format!("byop {sub} --help"), help(&[sub, "--help"])));
    }
    for (what, text) in &texts {
        let hits: Vec<&str> = re.find_iter(text).map(|m| m.as_str()).collect();
        assert!(hits.is_empty(), "{what} cites {hits:?}:\n{text}");
    }
    assert!(texts[0].1.contains("counterfactual"), "{}", texts[0].1);
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            // Generated or installed trees, and hand labels that quote real documents.
            if !matches!(
                name.as_str(),
                "node_modules" | "target" | "out" | "labels" | "corpus"
            ) {
                walk(&p, out);
            }
        } else if [
            ".rs", ".md", ".ts", ".lua", ".json", ".html", ".py", ".sh", ".toml",
        ]
        .iter()
        .any(|x| name.ends_with(x))
        {
            out.push(p);
        }
    }
}

#[test]
fn no_text_or_comment_in_the_repository_cites_an_issue_or_a_design_section() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for d in [
        "src",
        "templates",
        "editors",
        "playbooks",
        "tests",
        "docs",
        "scripts",
        "benches",
        "examples",
        "fuzz",
        "schemas",
    ] {
        walk(&root.join(d), &mut files);
    }
    let re = citation();
    let this = root.join("tests/words.rs");
    let mut found = Vec::new();
    for f in files.iter().filter(|f| **f != this) {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if let Some(m) = re.find(line) {
                found.push(format!("{}:{}: {}", f.display(), i + 1, m.as_str()));
            }
        }
    }
    assert!(files.len() > 100, "the walk found the repository");
    assert!(
        found.is_empty(),
        "citations a reader does not have:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_contracts_are_explained_with_a_glossary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/contracts.md")).expect("docs/contracts.md");
    for heading in [
        "## Report",
        "## Playbook",
        "## Evidence set",
        "## Structured output",
        "## Plan validation",
        "## Counterfactual audit",
        "## Glossary",
    ] {
        assert!(doc.contains(heading), "docs/contracts.md lacks {heading}");
    }
    // The two names a reader meets without explanation elsewhere are defined here.
    for term in ["| **Lawmadi OS** |", "| **B.A.I.L.I.F.F.** |"] {
        assert!(doc.contains(term), "the glossary lacks {term}");
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("docs/contracts.md"),
        "the README points at the contracts"
    );
}
