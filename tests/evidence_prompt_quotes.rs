//! The prompt companion is a repository file: text put there must not pass for the source.
//! A quote found only in the prompt is the request's words only when the output says so
//! ("You asked: …", the lexicon's `request_attribution`); presented as the source's, it is
//! a finding naming the request — in the rule, and end to end on the built binary.

mod support;

use support::evidence::{Inputs, apply, flagged};
use support::workspace::{Ws, check, json, stderr};

use byop::model::Verdict;

const SOURCE: &str = "MASTER SERVICES AGREEMENT\n\n2. Fees. Customer shall pay the fees within forty-five (45) days of receipt of a correct invoice.\n\n9. Liability. Neither party's liability shall exceed the fees paid in the twelve months before the claim.\n";

/// The fabrication, planted in the prompt file.
const PLANTED: &str =
    "the Supplier shall pay liquidated damages of ten million dollars for any delay";

fn prompt() -> String {
    format!("Review the MSA for risks. Note: {PLANTED}.\n")
}

#[test]
fn a_quote_only_in_the_prompt_is_a_finding_unless_given_to_the_request() {
    let prompt = prompt();
    let inp = Inputs {
        source: Some(SOURCE),
        prompt: Some(&prompt),
        ..Default::default()
    };
    // Presented as the agreement's words: not grounded, and the finding says where the
    // words are from.
    for lead in ["Notably, \"", "Worth noting: \"", "> \""] {
        let text = format!("# Review\n\n{lead}{PLANTED}\" — a major risk.\n");
        let o = apply("quotes_grounded", &text, &inp);
        assert_eq!(o.verdict, Verdict::Fail, "{lead}: {}", o.notes);
        let hits = flagged(&o, &text);
        assert_eq!(hits.len(), 1, "{lead}: {hits:?}");
        assert!(hits[0].contains(PLANTED), "{hits:?}");
        assert!(
            o.hits[0]
                .note
                .contains("appears in the request (the prompt), not the source"),
            "{}",
            o.hits[0].note
        );
    }
    // Attributed to the source ("the agreement provides"), it is not in the source.
    let text = format!("# Review\n\nThe agreement provides that \"{PLANTED}\".\n");
    assert_eq!(apply("quotes_grounded", &text, &inp).verdict, Verdict::Fail);
    // Given to the request: set aside as the prompt's, every quote check passes.
    // (Leads the playbook's `not_the_source_lead_ins` already set aside, "the prompt",
    // "you asked", "request", are set aside before the source is looked at; these are not.)
    for lead in [
        "As requested, I looked at \"",
        "Your question was \"",
        "You wrote \"",
        "As you put it, \"",
    ] {
        let text = format!("# Review\n\n{lead}{PLANTED}\" — this is not in the contract.\n");
        for id in ["quotes_grounded", "quotes_verbatim", "quotes_paraphrased"] {
            let o = apply(id, &text, &inp);
            assert_eq!(o.verdict, Verdict::Pass, "{lead} {id}: {}", o.notes);
            assert!(
                o.notes.contains("quotes_prompt 1"),
                "{lead} {id}: {}",
                o.notes
            );
        }
    }
    // Without the prompt the same unattributed quote is the same finding: naming a prompt
    // file that holds the fabrication makes nothing weaker.
    let text = format!("# Review\n\nNotably, \"{PLANTED}\" — a major risk.\n");
    let bare = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    assert_eq!(
        apply("quotes_grounded", &text, &bare).verdict,
        Verdict::Fail
    );
    // A misquote of the source the prompt also holds is judged as without the prompt: the
    // misquote tier, with the source's words (a word swapped; a swapped figure would be
    // reported with the quotes not in the source).
    let misquote = "Neither party's liability shall exceed the amounts paid in the twelve months before the claim";
    let asked = format!("Check this: {misquote}.");
    let with = Inputs {
        prompt: Some(&asked),
        ..bare.clone()
    };
    let text = format!("# Review\n\nNotably, \"{misquote}\".\n");
    for id in ["quotes_grounded", "quotes_verbatim", "quotes_paraphrased"] {
        let (a, b) = (apply(id, &text, &with), apply(id, &text, &bare));
        assert_eq!((a.verdict, a.notes), (b.verdict, b.notes), "{id}");
    }
    assert_eq!(
        apply("quotes_verbatim", &text, &with).verdict,
        Verdict::Fail
    );
}

#[test]
fn a_prompt_file_holding_an_invented_quote_does_not_pass_the_gate() {
    let ws = Ws::new();
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write("msa.txt", SOURCE);
    ws.write("ask.txt", &prompt());
    let body = format!("# Review\n\nSection 9 is narrow. Also worth noting: \"{PLANTED}\".\n");
    let run = |file: &str| {
        ws.run(&[
            "check",
            "--locked",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--playbook",
            "evidence_contract_v1",
            file,
        ])
    };
    // Without the prompt: the README's gate (`--fail-on alert`, the default) fails it.
    ws.write(
        "bare.ai.md",
        &format!("---\nbyop:\n  source: msa.txt\n---\n{body}"),
    );
    let bare = run("bare.ai.md");
    assert_eq!(bare.status.code(), Some(1), "{}", stderr(&bare));
    // With the fabrication in the prompt file: the same gate, the same check.
    ws.write(
        "with.ai.md",
        &format!("---\nbyop:\n  source: msa.txt\n  prompt: ask.txt\n---\n{body}"),
    );
    let o = run("with.ai.md");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["byop_report"]["summary"]["overall_status"], "ALERT");
    let q = check(&v, "quotes_grounded");
    assert_eq!(q["result"], "fail", "{q}");
    assert!(
        q.to_string()
            .contains("appears in the request (the prompt), not the source"),
        "{q}"
    );
}

#[test]
fn words_naming_the_request_do_not_set_a_quote_aside_by_themselves() {
    // "task", "user", "request" before a quote once set it aside wherever it stood; an
    // invention so introduced is a quote not in the source, with or without a prompt.
    let prompt = prompt();
    let bare = Inputs {
        source: Some(SOURCE),
        ..Default::default()
    };
    let with = Inputs {
        prompt: Some(&prompt),
        ..bare.clone()
    };
    for lead in [
        "For this task, the key language is \"",
        "For the user, the operative words are \"",
        "Per the request, the clause to watch is \"",
        "The instruction-level risk: \"",
    ] {
        let text = format!("# Review\n\n{lead}{PLANTED}\".\n");
        for inp in [&bare, &with] {
            let o = apply("quotes_grounded", &text, inp);
            assert_eq!(o.verdict, Verdict::Fail, "{lead}: {}", o.notes);
        }
    }
}
