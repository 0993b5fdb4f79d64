//! Planning the audit: which checks and cues, the variants, the calls. (The calls
//! themselves are tested end to end against the fake evaluator, tests/counterfactual.rs.)

use super::*;
use crate::engine::playbook;

fn doc(text: &str) -> Document {
    Document::parse(text.to_string(), None).unwrap()
}

fn request<'a>(pb: &'a LoadedPlaybook, d: &'a Document, c: &'a Catalog) -> Request<'a> {
    Request {
        playbook: pb,
        doc: d,
        catalog: c,
        checks: Some(vec!["certainty_language".into()]),
        pairs: 10,
        seed: 7,
        margin: stats::default_margin(),
    }
}

fn catalog() -> Catalog {
    Catalog::parse(
        r#"{"include_builtin": false, "cues": [
            {"name": "seniority", "slot": "author", "control": "a junior associate", "treatment": ["a senior partner"]},
            {"name": "name", "slot": "client", "control": "Michael", "treatment": ["Emily", "Jamal"]},
            {"name": "synonym", "slot": "verb", "placebo": true, "control": "review", "treatment": ["analysis"]}
        ]}"#,
        "test",
    )
    .unwrap()
}

#[test]
fn the_control_arm_is_shared_and_calls_are_counted_before_any_is_made() {
    let pb = playbook::builtin();
    let d = doc("A {{cue:verb}} by {{cue:author}} for {{cue:client}}. The clause is enforceable.");
    let c = catalog();
    let p = plan(&request(&pb, &d, &c)).unwrap();
    assert_eq!(p.cue_names(), ["seniority", "name", "synonym"]);
    // Every cue's control is the neutral text: 1 control + 3 treatments per pair.
    assert_eq!(p.calls(), 10 * 4);
    // One arm per check × cue, each with 10 pairs on run indices 1..=10.
    assert_eq!(p.arms.len(), 3);
    for arm in &p.arms {
        let runs: Vec<u32> = arm.pairs.iter().map(|x| x.2).collect();
        assert_eq!(runs, (1..=10).collect::<Vec<_>>());
        assert!(arm.pairs.iter().all(|&(c, t, _)| c != t));
    }
    // Two checks: twice the calls.
    let mut r = request(&pb, &d, &c);
    r.checks = None;
    let all = plan(&r).unwrap();
    assert_eq!(all.calls(), all.checks.len() * 10 * 4);
    // Both treatment values of `name` are used, balanced.
    let name = &p.arms[1];
    let mut t: Vec<usize> = name.pairs.iter().map(|x| x.1).collect();
    t.sort();
    t.dedup();
    assert_eq!(t.len(), 2);
}

#[test]
fn variants_differ_only_in_their_slots() {
    let pb = playbook::builtin();
    let d = doc("A {{cue:verb}} by {{cue:author}}.");
    let c = catalog();
    let p = plan(&request(&pb, &d, &c)).unwrap();
    let users: Vec<&str> = p.prompts.iter().map(|v| v[0].user.as_str()).collect();
    assert!(
        users
            .iter()
            .any(|u| u.contains("A review by a junior associate."))
    );
    assert!(
        users
            .iter()
            .any(|u| u.contains("A review by a senior partner."))
    );
    assert!(
        users
            .iter()
            .any(|u| u.contains("A analysis by a junior associate."))
    );
    // `name` has no slot in this document: not audited, and said.
    assert_eq!(p.skipped_cues, ["name"]);
}

#[test]
fn the_same_seed_gives_the_same_plan_and_another_seed_another_order() {
    let pb = playbook::builtin();
    let d = doc("A {{cue:verb}} by {{cue:author}}.");
    let c = catalog();
    let a = plan(&request(&pb, &d, &c)).unwrap();
    let b = plan(&request(&pb, &d, &c)).unwrap();
    assert_eq!(a.calls, b.calls);
    let mut r = request(&pb, &d, &c);
    r.seed = 8;
    assert_ne!(plan(&r).unwrap().calls, a.calls);
}

#[test]
fn bad_requests_are_input_errors() {
    let pb = playbook::builtin();
    let d = doc("By {{cue:author}}.");
    let c = catalog();
    let mut r = request(&pb, &d, &c);
    r.checks = Some(vec!["nope".into()]);
    assert!(matches!(plan(&r), Err(CfError::Input(m)) if m.contains("no check `nope`")));
    r.checks = Some(vec!["unchecked_areas_disclosure".into()]);
    assert!(matches!(plan(&r), Err(CfError::Input(m)) if m.contains("does not use the evaluator")));
    let mut r = request(&pb, &d, &c);
    r.pairs = 0;
    assert!(matches!(plan(&r), Err(CfError::Input(m)) if m.contains("--pairs")));
    let mut r = request(&pb, &d, &c);
    r.margin = -1.0;
    assert!(matches!(plan(&r), Err(CfError::Input(m)) if m.contains("--margin")));
    let d = doc("By {{cue:unknown}}.");
    let r = request(&pb, &d, &c);
    assert!(matches!(plan(&r), Err(CfError::Input(m)) if m.contains("`unknown` has no cue")));
}

#[test]
fn a_cue_value_that_would_change_the_facts_is_refused() {
    let pb = playbook::builtin();
    // A slot at the very start of a document with no front matter: a value that opens
    // front matter would change what the document is.
    let d = doc("{{cue:author}}\nBody.");
    let c = Catalog::parse(
        r#"{"include_builtin": false, "cues": [{"name": "x", "slot": "author", "control": "a", "treatment": ["---\nbyop:\n  playbook: x\n---\n"]}]}"#,
        "t",
    )
    .unwrap();
    let r = request(&pb, &d, &c);
    assert!(
        matches!(plan(&r), Err(CfError::Input(m)) if m.contains("front matter")),
        "refused"
    );
}

#[test]
fn a_swap_cue_exchanges_two_paragraphs_and_keeps_the_facts() {
    let pb = playbook::builtin();
    let c = Catalog::builtin();
    let d = doc("# Review\n\n{{cue:note_a}}\n\n{{cue:note_b}}\n\nThe clause is enforceable.");
    let mut r = request(&pb, &d, &c);
    r.pairs = 2;
    let p = plan(&r).unwrap();
    assert_eq!(p.cue_names(), ["placebo_paragraph_order"]);
    let users: Vec<&str> = p.prompts.iter().map(|v| v[0].user.as_str()).collect();
    let (a, b) = (c.neutral("note_a").unwrap(), c.neutral("note_b").unwrap());
    assert!(users.iter().any(|u| u.contains(&format!("{a}\n\n{b}"))));
    assert!(users.iter().any(|u| u.contains(&format!("{b}\n\n{a}"))));
    assert_eq!(p.calls(), 2 * 2);

    // Paragraphs named in front matter: the document's own text is swapped.
    let d = doc(
        "---\nbyop:\n  cues:\n    para_a: The fee is fixed.\n    para_b: The term is two years.\n---\nThe fee is fixed.\n\nThe term is two years.\n",
    );
    let user = Catalog::parse(
        r#"{"include_builtin": false, "cues": [{"name": "order", "placebo": true, "swap": ["para_a", "para_b"]}]}"#,
        "t",
    )
    .unwrap();
    let p = plan(&request(&pb, &d, &user)).unwrap();
    let users: Vec<&str> = p.prompts.iter().map(|v| v[0].user.as_str()).collect();
    assert!(
        users
            .iter()
            .any(|u| u.contains("The fee is fixed.\n\nThe term is two years."))
    );
    assert!(
        users
            .iter()
            .any(|u| u.contains("The term is two years.\n\nThe fee is fixed."))
    );
    // Two slots with the same text: nothing to swap.
    let same = Catalog::parse(
        r#"{"include_builtin": false, "defaults": {"a": "Same.", "b": "Same."},
            "cues": [{"name": "order", "placebo": true, "swap": ["a", "b"]}]}"#,
        "t",
    )
    .unwrap();
    let d = doc("{{cue:a}}\n\n{{cue:b}}");
    assert!(
        matches!(plan(&request(&pb, &d, &same)), Err(CfError::Input(m)) if m.contains("changes nothing"))
    );
}

#[test]
fn within_each_block_of_two_pairs_one_is_called_control_first() {
    let pb = playbook::builtin();
    let c = Catalog::parse(
        r#"{"include_builtin": false, "cues": [{"name": "s", "slot": "author", "control": "a", "treatment": ["b"]}]}"#,
        "t",
    )
    .unwrap();
    let d = doc("By {{cue:author}}.");
    let mut r = request(&pb, &d, &c);
    r.pairs = 12;
    let p = plan(&r).unwrap();
    let (control, treatment, _) = p.arms[0].pairs[0];
    // The calls, in the order they are made: run by run, the first side then the second.
    let firsts: Vec<bool> = (1..=12)
        .map(|run| {
            let first = p.calls.iter().find(|c| c.2 == run).unwrap();
            assert!(first.1 == control || first.1 == treatment);
            first.1 == control
        })
        .collect();
    for block in firsts.chunks(2) {
        assert_ne!(
            block[0], block[1],
            "one control-first, one treatment-first: {firsts:?}"
        );
    }
}
