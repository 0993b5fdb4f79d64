//! Disclosure recall: the built-in playbook's rules against hand-labelled real AI outputs.
//!
//! The labels are in `tests/data/labels/*.json`; the outputs they describe are the corpus
//! `../shared/corpus/contract-reviews/outputs` (beside the repository, as in
//! `tests/starter_rules.rs`). Every row names its file, the label, the sentence that decided it
//! (verbatim) and its set: `tune` (the rules were tuned on these) or `holdout` (labelled before
//! any tuning and never looked at while tuning). The floors are set just under what the tuned
//! rules measured; the false-pass ceilings are what the rules measured before tuning.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use byop::engine::document::Document;
use byop::engine::playbook::{LoadedPlaybook, builtin};
use byop::engine::rules::{RuleContext, RuleOutcome};
use byop::model::Verdict;
use serde_json::Value;

/// `unchecked_areas_disclosure`: agreement on `yes`/`no` rows (measured 101/106 = 95.3 % tune,
/// 68/77 = 88.3 % holdout; before tuning 71.7 % and 70.1 %). Unchanged when copied redaction
/// markers stopped counting as disclosures (two rows relabelled yes -> no, one holdout output
/// that says "confidentially redacted" in its own words now missed). 103/106 = 97.2 % tune after
/// a bold "Further Review" label and "Ensure Exhibit B … are clearly defined" counted (holdout
/// unchanged). Round 3 added 40 tune rows labelled before the rule ran on them (38 `yes`/`no`):
/// about 32/38 (1 false pass) before the phrasings they show were added, 38/38 after; all
/// tune rows 141/144 = 97.9 %. Holdout 67/77 = 87.0 % after "it is unclear whether …" stopped counting
/// without a party or document named (it passed a contract ambiguity labelled `no`).
/// Round 4 added 57 tune rows labelled before the rule ran on them (53 `yes`/`no`): 44/53
/// (1 false pass, 8 missed) before any change, 52/53 after the phrasings they show were
/// generalised (missing appendices, a referenced document not attached, the parties left to
/// clarify, counsel or an adviser to assess a named question, the reading worked on, an
/// alternative reading left to the reader); all tune rows 193/197 = 98.0 %, holdout 68/77.
/// Families written from hand-made examples (material not given, redacted or cut off in the
/// output's words, what cannot be told from the text, the review's own bounds): tune
/// unchanged, holdout 69/77.
/// Round 5 added the 34 outputs no other round or held-out set held (30 `yes`/`no`), labelled
/// before the rule ran on them: 24/30 (0 false passes, 6 missed) before any change, 30/30 after
/// (a named section to check new text against, a named legal question for review, a check
/// left to the reader under a condition, a task that could not be done as asked, referenced
/// documents that should be there); all tune rows 217/227 before, 224/227 = 98.7 % after,
/// holdout 69/77 unchanged.
const UNCHECKED_FLOOR: [(&str, f64); 2] = [("tune", 0.98), ("holdout", 0.88)];
/// `unchecked_areas_disclosure`'s false-pass ceiling, per set.
const UNCHECKED_FALSE_PASSES: [(&str, usize); 2] = [("tune", 0), ("holdout", 0)];
/// `escalation_signal` (measured 104/104 tune, 75/77 = 97.4 % holdout; the rule was not changed).
const ESCALATION_FLOOR: [(&str, f64); 2] = [("tune", 0.98), ("holdout", 0.96)];
/// Outputs labelled `no` that the rule passed before tuning, per set: `escalation_signal`'s ceiling.
const BASELINE_FALSE_PASSES: [(&str, usize); 2] = [("tune", 0), ("holdout", 0)];
/// `certainty_language`: share of flagged spans that are real unqualified claims
/// (measured 8/10 tune, 6/8 holdout; 8/12 and 6/8 before tuning).
const CERTAINTY_PRECISION_FLOOR: [(&str, f64); 2] = [("tune", 0.79), ("holdout", 0.74)];

const MODELS: [&str; 10] = [
    "claude-sonnet-4.5",
    "deepseek-chat-v3",
    "gemini-2.5-flash",
    "glm-4.6",
    "gpt-5",
    "gpt-oss-120b",
    "grok-4",
    "mistral-large",
    "o3-mini",
    "qwen-2.5-72b",
];
const TASKS: [&str; 6] = [
    "add_clause",
    "modify",
    "modify_payment",
    "redline",
    "review",
    "summarize",
];

fn corpus_dir() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus folder {} is missing (CI must check out `shared` beside the repo)",
        dir.display()
    );
    eprintln!(
        "note: skipping the labelled-corpus test, {} not found",
        dir.display()
    );
    None
}

fn labels(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/labels")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    doc["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no `rows` array"))
        .clone()
}

fn field<'a>(row: &'a Value, key: &str) -> &'a str {
    row[key]
        .as_str()
        .unwrap_or_else(|| panic!("label row without `{key}`: {row}"))
}

/// `contract_004_add_clause_1__gpt-5.ai.md` → (`add_clause`, `gpt-5`).
fn task_and_model(file: &str) -> (String, String) {
    let stem = file.strip_suffix(".ai.md").expect("an .ai.md file");
    let (head, model) = stem.split_once("__").expect("`__` before the model");
    let rest = head.strip_prefix("contract_").expect("contract_ prefix");
    let rest = rest.split_once('_').expect("contract number").1;
    let task = rest.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
    (task.to_string(), model.to_string())
}

struct Corpus {
    dir: PathBuf,
    docs: BTreeMap<String, Document>,
}

impl Corpus {
    fn new(dir: PathBuf) -> Self {
        Corpus {
            dir,
            docs: BTreeMap::new(),
        }
    }

    fn doc(&mut self, file: &str) -> &Document {
        let dir = self.dir.clone();
        self.docs.entry(file.to_string()).or_insert_with(|| {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Document::parse(text, Some(Path::new(&path))).expect("corpus file parses")
        })
    }
}

fn check_index(pb: &LoadedPlaybook, id: &str) -> usize {
    pb.playbook
        .checks
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("built-in playbook has no check `{id}`"))
}

fn run(pb: &LoadedPlaybook, check: &str, doc: &Document) -> RuleOutcome {
    pb.compiled[check_index(pb, check)]
        .as_ref()
        .expect("check has a rule")
        .apply(&RuleContext::new(&doc.text, doc.body))
        .expect("document-level rule")
}

/// Every row is well formed and its deciding sentence is in its file, verbatim.
fn validate_rows(corpus: &mut Corpus, rows: &[Value], allowed: &[&str]) {
    let mut seen = BTreeSet::new();
    for row in rows {
        let file = field(row, "file");
        let (task, model) = task_and_model(file);
        assert_eq!(field(row, "task"), task, "{file}: task");
        assert_eq!(field(row, "model"), model, "{file}: model");
        assert!(allowed.contains(&field(row, "label")), "{file}: label");
        assert!(
            ["tune", "holdout"].contains(&field(row, "set")),
            "{file}: set"
        );
        let sentence = field(row, "sentence");
        let doc = corpus.doc(file);
        assert!(
            doc.body_text().contains(sentence),
            "{file}: deciding sentence not in the output: {sentence}"
        );
        seen.insert((
            file.to_string(),
            sentence.to_string(),
            row["span"].as_str().unwrap_or_default().to_string(),
        ));
    }
    assert_eq!(seen.len(), rows.len(), "duplicate label rows");
}

/// One set's count of `yes`/`no` rows, those the rule agrees with, and its false passes.
#[derive(Default, Clone, Copy)]
struct Tally {
    agree: usize,
    rows: usize,
    false_passes: usize,
}

/// Per set, plus the disagreements.
fn agreement(
    corpus: &mut Corpus,
    pb: &LoadedPlaybook,
    check: &str,
    rows: &[Value],
) -> (BTreeMap<String, Tally>, Vec<String>) {
    let mut by_set: BTreeMap<String, Tally> = BTreeMap::new();
    let mut wrong = Vec::new();
    for row in rows {
        let want = match field(row, "label") {
            "yes" => Verdict::Pass,
            "no" => Verdict::Fail,
            _ => continue,
        };
        let file = field(row, "file");
        let got = run(pb, check, corpus.doc(file)).verdict;
        let e = by_set.entry(field(row, "set").to_string()).or_default();
        e.rows += 1;
        if got == want {
            e.agree += 1;
        } else {
            if want == Verdict::Fail && got == Verdict::Pass {
                e.false_passes += 1;
            }
            wrong.push(format!(
                "  [{}] {file}: labelled {}, rule {got:?} ({})",
                field(row, "set"),
                field(row, "label"),
                field(row, "sentence")
            ));
        }
    }
    (by_set, wrong)
}

fn assert_floors(
    check: &str,
    by_set: &BTreeMap<String, Tally>,
    wrong: &[String],
    floors: &[(&str, f64)],
    ceilings: &[(&str, usize)],
) {
    let mut report = String::new();
    for (set, floor) in floors {
        let Tally {
            agree,
            rows: n,
            false_passes,
        } = by_set.get(*set).copied().unwrap_or_default();
        assert!(n > 0, "{check}: no `yes`/`no` rows in the {set} set");
        let rate = agree as f64 / n as f64;
        println!(
            "{check} {set}: {agree}/{n} = {:.1} % agree, {false_passes} false pass(es)",
            rate * 100.0
        );
        if rate < *floor {
            report.push_str(&format!(
                "{check} {set}: agreement {:.1} % under the floor {:.0} %\n",
                rate * 100.0,
                floor * 100.0
            ));
        }
        let ceiling = ceilings
            .iter()
            .find(|(s, _)| s == set)
            .map_or(0, |(_, n)| *n);
        if false_passes > ceiling {
            report.push_str(&format!(
                "{check} {set}: {false_passes} output(s) labelled `no` pass (baseline {ceiling})\n"
            ));
        }
    }
    assert!(
        report.is_empty(),
        "{report}disagreements:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn unchecked_areas_disclosure_agrees_with_the_labels() {
    let Some(dir) = corpus_dir() else { return };
    let mut corpus = Corpus::new(dir);
    let rows = labels("unchecked_areas_disclosure.json");
    validate_rows(&mut corpus, &rows, &["yes", "no", "unclear"]);
    // The sample: ≥ 120 outputs, every model and every task kind, in both sets.
    assert!(rows.len() >= 120, "only {} labelled outputs", rows.len());
    for set in ["tune", "holdout"] {
        let in_set: Vec<&Value> = rows.iter().filter(|r| field(r, "set") == set).collect();
        for model in MODELS {
            assert!(
                in_set.iter().any(|r| field(r, "model") == model),
                "{set}: no output of {model}"
            );
        }
        for task in TASKS {
            assert!(
                in_set.iter().any(|r| field(r, "task") == task),
                "{set}: no {task} output"
            );
        }
    }
    let pb = builtin();
    let (by_set, wrong) = agreement(&mut corpus, &pb, "unchecked_areas_disclosure", &rows);
    assert_floors(
        "unchecked_areas_disclosure",
        &by_set,
        &wrong,
        &UNCHECKED_FLOOR,
        &UNCHECKED_FALSE_PASSES,
    );
}

#[test]
fn escalation_signal_agrees_with_the_labels() {
    let Some(dir) = corpus_dir() else { return };
    let mut corpus = Corpus::new(dir);
    let rows = labels("escalation_signal.json");
    validate_rows(&mut corpus, &rows, &["yes", "no", "unclear"]);
    assert!(rows.len() >= 120, "only {} labelled outputs", rows.len());
    let pb = builtin();
    let (by_set, wrong) = agreement(&mut corpus, &pb, "escalation_signal", &rows);
    assert_floors(
        "escalation_signal",
        &by_set,
        &wrong,
        &ESCALATION_FLOOR,
        &BASELINE_FALSE_PASSES,
    );
}

/// Every span the certainty rule flags anywhere in the corpus is a labelled candidate; every
/// candidate labelled `real` is still flagged; the share of real claims stays above the floor.
#[test]
fn certainty_language_candidates_are_labelled_and_mostly_real() {
    let Some(dir) = corpus_dir() else { return };
    let mut corpus = Corpus::new(dir.clone());
    let rows = labels("certainty_language.json");
    validate_rows(&mut corpus, &rows, &["real", "false_alarm"]);
    let pb = builtin();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("read corpus dir")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".ai.md"))
        .collect();
    files.sort();
    // Which row (if any) each flagged span is: same file, same text, inside the row's sentence.
    let mut matched = vec![false; rows.len()];
    let mut unlabelled = Vec::new();
    let mut flagged: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for file in &files {
        let doc = corpus.doc(file);
        let out = run(&pb, "certainty_language", doc);
        for hit in &out.hits {
            let span = &doc.text[hit.start..hit.end];
            let row = rows.iter().position(|r| {
                field(r, "file") == file
                    && field(r, "span") == span
                    && doc
                        .text
                        .match_indices(field(r, "sentence"))
                        .any(|(at, s)| at <= hit.start && hit.end <= at + s.len())
            });
            match row {
                Some(i) => {
                    matched[i] = true;
                    let e = flagged
                        .entry(field(&rows[i], "set").to_string())
                        .or_default();
                    e.1 += 1;
                    e.0 += usize::from(field(&rows[i], "label") == "real");
                }
                None => unlabelled.push(format!("  {file}: `{span}`")),
            }
        }
    }
    assert!(
        unlabelled.is_empty(),
        "flagged spans with no label (label them in tests/data/labels/certainty_language.json):\n{}",
        unlabelled.join("\n")
    );
    let lost: Vec<String> = rows
        .iter()
        .zip(&matched)
        .filter(|(r, m)| !**m && field(r, "label") == "real")
        .map(|(r, _)| format!("  {}: {}", field(r, "file"), field(r, "sentence")))
        .collect();
    assert!(
        lost.is_empty(),
        "real unqualified claims no longer flagged:\n{}",
        lost.join("\n")
    );
    for (set, floor) in CERTAINTY_PRECISION_FLOOR {
        let (real, n) = flagged.get(set).copied().unwrap_or_default();
        assert!(
            n > 0,
            "certainty_language: nothing flagged in the {set} set"
        );
        let precision = real as f64 / n as f64;
        println!(
            "certainty_language {set}: {real}/{n} flagged spans are real claims ({:.1} %)",
            precision * 100.0
        );
        assert!(
            precision >= floor,
            "certainty_language {set}: precision {:.1} % under the floor {:.0} %",
            precision * 100.0,
            floor * 100.0
        );
    }
}

#[test]
fn file_names_give_task_and_model() {
    assert_eq!(
        task_and_model("contract_004_add_clause_1__gpt-5.ai.md"),
        ("add_clause".to_string(), "gpt-5".to_string())
    );
    assert_eq!(
        task_and_model("contract_001_modify_payment_2__qwen-2.5-72b.ai.md"),
        ("modify_payment".to_string(), "qwen-2.5-72b".to_string())
    );
    assert_eq!(
        task_and_model("contract_013_modify_2__glm-4.6.ai.md"),
        ("modify".to_string(), "glm-4.6".to_string())
    );
}
