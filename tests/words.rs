//! Words that stand on their own: the help the binary prints and the text and comments
//! of the repository never send a reader to documents they do not have (a numbered
//! issue, a section of a design document), and the contracts the program implements are
//! explained in `docs/contracts.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

const SUBCOMMANDS: [&str; 13] = [
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
    "plan",
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

/// The README's command-line synopsis: the entry of every line starting `byop WORDS`,
/// with its indented continuation lines.
fn synopsis(readme: &str, words: &str) -> String {
    let start = readme
        .find("## The command line")
        .expect("the command-line section");
    let block = &readme[start..];
    let block = &block[block.find("```\n").unwrap() + 4..];
    let block = &block[..block.find("```").unwrap()];
    let mut out = String::new();
    let mut inside = false;
    let head = format!("byop {words} ");
    for line in block.lines() {
        if line.starts_with("byop ") {
            inside = line.starts_with(&head)
                && !line[head.len()..].starts_with(|c: char| c.is_ascii_lowercase());
        }
        if inside {
            out += line;
            out += "\n";
        }
    }
    out
}

fn flags(help: &str) -> Vec<String> {
    let re = Regex::new(r"--[a-z][a-z-]+").unwrap();
    let mut v: Vec<String> = re
        .find_iter(help)
        .map(|m| m.as_str().to_string())
        .filter(|f| f != "--help" && f != "--version")
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn the_readme_synopsis_names_every_flag_of_dataset_and_plan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dataset = synopsis(&readme, "dataset");
    let run = synopsis(&readme, "dataset run");
    let plan = synopsis(&readme, "plan");
    assert!(run.contains("every `byop dataset` option"), "{run}");
    // `dataset run` takes every `dataset` option besides its own.
    let cases = [
        (vec!["dataset"], dataset.clone()),
        (vec!["dataset", "run"], format!("{dataset}{run}")),
        (vec!["plan"], plan),
    ];
    for (args, text) in cases {
        let mut a = args.clone();
        a.push("--help");
        let fl = flags(&help(&a));
        assert!(fl.len() >= 8, "{args:?}: {fl:?}");
        let missing: Vec<&String> = fl.iter().filter(|f| !text.contains(f.as_str())).collect();
        assert!(
            missing.is_empty(),
            "the README synopsis of byop {} lacks {missing:?}:\n{text}",
            args.join(" ")
        );
    }
}

/// A heading's GitHub anchor: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn every_readme_section_is_linked_from_the_contents() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let contents = &readme[readme.find("## Contents").unwrap()..];
    let contents = &contents[..contents.find("\n## ").unwrap()];
    let mut fenced = false;
    let mut missing = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(h) = line.strip_prefix("## ").filter(|_| !fenced) else {
            continue;
        };
        if h == "Contents" || h == "The two commands" {
            continue;
        }
        if !contents.contains(&format!("](#{})", anchor(h))) {
            missing.push(h.to_string());
        }
    }
    assert!(missing.is_empty(), "not in the Contents: {missing:?}");
    assert!(
        contents.contains("[Experiments](#experiments-generating-outputs-from-prompt-variants)")
    );
}
