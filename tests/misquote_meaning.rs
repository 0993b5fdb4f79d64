//! A misquote that changes what the contract says — a figure, a date, an obligation or a
//! negation — fails the gate with the quotes not in the source (high severity); a misquote
//! of wording only (a word dropped or swapped) stays a medium finding.

mod support;

use support::workspace::{Ws, check};

const SOURCE: &str = "SERVICES AGREEMENT\n\
2. Term. This Agreement shall be in full force and effect commencing on January 2, 2020 and shall remain in effect for one (1) year.\n\
7. Indemnity. The Indemnifying Party shall not be liable for any claims, damages, or liabilities caused by the sole negligence of the Indemnified Party.\n\
10. Disputes. If they do not reach such solution within a period of 60 days, then, upon notice by either party to the other, all disputes shall be settled by arbitration.\n\
11. Termination. Either Party may terminate this Agreement upon thirty (30) days written notice to the other Party.\n";

/// Each quote's result in the high check (`quotes_grounded`) and the medium one
/// (`quotes_verbatim`), with the gate's exit code.
fn tiers(ws: &Ws, name: &str, sentence: &str) -> (Option<i32>, String, String) {
    let (code, v) = ws.check_evidence(name, sentence);
    let result = |id: &str| {
        check(&v, id)["result"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    (code, result("quotes_grounded"), result("quotes_verbatim"))
}

#[test]
fn a_misquote_that_changes_a_figure_a_date_or_a_negation_fails_the_gate() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let altered = [
        "Section 7 provides: \"The Indemnifying Party shall be liable for any claims, damages, or liabilities caused by the sole negligence of the Indemnified Party\".",
        "Section 10 provides: \"If they do not reach such solution within a period of 600 days, then, upon notice by either party to the other, all disputes shall be settled by arbitration\".",
        "Section 2 provides: \"This Agreement shall be in full force and effect commencing on January 2, 2030 and shall remain in effect for ten (10) years\".",
        "Section 11 provides: \"Either Party shall terminate this Agreement upon thirty (30) days written notice to the other Party\".",
    ];
    for (i, sentence) in altered.iter().enumerate() {
        let (code, high, medium) = tiers(&ws, &format!("altered{i}.ai.md"), sentence);
        assert_eq!(code, Some(1), "{sentence}");
        assert_eq!(high, "fail", "{sentence}");
        assert_eq!(medium, "pass", "{sentence}");
    }
    // Wording only: a word dropped, "will" for "shall", the number written both ways.
    let worded = [
        "Section 10 provides: \"If they do not reach such solution within a period of 60 days, upon notice by either party to the other, all disputes shall be settled by arbitration\".",
        "Section 2 provides: \"This Agreement will be in full force and effect commencing on January 2, 2020 and shall remain in effect for one (1) year\".",
    ];
    for (i, sentence) in worded.iter().enumerate() {
        let (_, high, medium) = tiers(&ws, &format!("worded{i}.ai.md"), sentence);
        assert_eq!(high, "pass", "{sentence}");
        assert_eq!(medium, "fail", "{sentence}");
    }
}
