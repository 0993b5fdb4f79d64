//! The evidence contract's `hidden_text` check through the binary: text a reader does not
//! see as written fails the gate.

mod support;

use support::workspace::{Ws, check, json, stderr};

const SOURCE: &str = "SERVICES AGREEMENT between Acme Corporation (\"Supplier\") and Beta Holdings, LLC (\"Customer\").\n\
1. Services. Supplier shall provide the Services described in Exhibit A.\n\
2. Fees. Customer shall pay a fee of ONE MILLION DOLLARS ($1,000,000) per year.\n";

/// A claim hidden from the grounding checks by characters a reader does not see (an
/// invisible character inside a word, a Cyrillic look-alike, fullwidth digits or a
/// fullwidth dollar sign) fails the gate instead of passing unexamined; the same claims
/// written plainly fail the grounding checks. Fullwidth digits in a reference once
/// crashed the run.
#[test]
fn hidden_characters_fail_the_gate_instead_of_hiding_a_claim() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "Under Sec\u{200B}tion 99.4 of the Agreement, the Supplier must pay the fee.",
        "Under \u{0405}ection 99.4 of the Agreement, the Supplier must pay the fee.",
        "Under Section \u{FF19}\u{FF19}.\u{FF14} of the Agreement, the Supplier must pay the fee.",
        "The Customer must pay \u{FF04}4,500,000 per month under the Agreement.",
        "The Agreement expires on Ju\u{200B}ly 21, 2033.",
    ];
    for (i, sentence) in hidden.iter().enumerate() {
        let name = format!("hidden{i}.ai.md");
        ws.write(
            &name,
            &format!("---\nbyop:\n  source: contract.txt\n---\n# Review\n\n{sentence}\n"),
        );
        let o = ws.run(&[
            "check",
            "--playbook",
            "evidence_contract_v1",
            "--format",
            "json",
            &name,
        ]);
        assert_eq!(o.status.code(), Some(1), "{sentence}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(check(&v, "hidden_text")["result"], "fail", "{sentence}");
        assert_eq!(
            v["byop_report"]["summary"]["overall_status"], "ALERT",
            "{sentence}"
        );
    }
    let plain = "Under Section 99.4 of the Agreement, the Supplier must pay $4,500,000 per month.";
    ws.write(
        "plain.ai.md",
        &format!("---\nbyop:\n  source: contract.txt\n---\n# Review\n\n{plain}\n"),
    );
    let o = ws.run(&[
        "check",
        "--playbook",
        "evidence_contract_v1",
        "--format",
        "json",
        "plain.ai.md",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(check(&v, "hidden_text")["result"], "pass");
    assert_eq!(check(&v, "references_grounded")["result"], "fail");
}
