//! What a document may not do to its own inputs, end to end on the built binary: name
//! itself as its evidence, leave out the companion its playbook needs, hide its text where
//! nothing checks it, or carry the settings that decide how a gate judges it.

mod support;

use support::workspace::{Ws, stderr, stdout};

/// A review inventing a quote, a section and an amount the source does not have.
const INVENTED: &str = "# Review of the MSA\n\nSection 14.2 provides: \"The Supplier shall pay the Customer liquidated damages of ten million dollars for any delay whatsoever.\"\nThe Agreement expires on July 21, 2033, and the fee is $4,500,000 per month under Section 99.4.\n";

const MSA: &str = "MASTER SERVICES AGREEMENT\n\n1. Services. Provider shall perform the services described in each Statement of Work.\n\n2. Fees. Customer shall pay the fees within forty-five (45) days of receipt of a correct invoice.\n";

fn grounding(ws: &Ws, file: &str) -> std::process::Output {
    ws.run(&[
        "check",
        "--locked",
        "--mode",
        "deterministic",
        "--playbook",
        "evidence_contract_v1",
        file,
    ])
}

#[test]
fn a_document_cannot_be_its_own_source_or_prompt() {
    let ws = Ws::new();
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write("msa.txt", MSA);
    // The real source: the invented claims fail.
    ws.write("real.ai.md", &format!("---\nbyop:\n  source: msa.txt\n---\n{INVENTED}"));
    assert_eq!(grounding(&ws, "real.ai.md").status.code(), Some(1));
    std::fs::create_dir(ws.path("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(ws.path("self.ai.md"), ws.path("mirror.md")).unwrap();
    #[cfg(unix)]
    std::fs::hard_link(ws.path("real.ai.md"), ws.path("hard.md")).unwrap();
    let mut cases = vec![
        ("source", "self.ai.md"),
        ("source", "./self.ai.md"),
        ("source", "sub/../self.ai.md"),
        ("prompt", "self.ai.md"),
    ];
    #[cfg(unix)]
    cases.push(("source", "mirror.md"));
    for (key, value) in cases {
        let extra = if key == "prompt" { "  source: msa.txt\n" } else { "" };
        ws.write(
            "self.ai.md",
            &format!("---\nbyop:\n{extra}  {key}: {value}\n---\n{INVENTED}"),
        );
        let o = grounding(&ws, "self.ai.md");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{key}: {value}: {err}");
        assert!(stdout(&o).is_empty(), "{value}");
        let line = if key == "prompt" { 4 } else { 3 };
        assert!(
            err.contains(&format!("self.ai.md:{line}:3:")) && err.contains("this document itself"),
            "{key}: {value}: the key's line and column: {err}"
        );
    }
    // A hard link to the document is the same file.
    #[cfg(unix)]
    {
        ws.write(
            "real.ai.md",
            &format!("---\nbyop:\n  source: hard.md\n---\n{INVENTED}"),
        );
        let o = grounding(&ws, "real.ai.md");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    }
}
