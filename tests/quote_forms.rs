//! Quotations a renderer shows as such, in the forms outputs write them, are examined by
//! the evidence contract's quote check through the binary: straight single quotes, HTML's
//! `<q>` and `<blockquote>`, and a `>` block whose last line names the section it is from
//! (even after a sentence offering drafted text). An invented quote in any of them fails
//! the gate; the source's own words in the same forms pass.

mod support;

use support::workspace::{Ws, check};

const SOURCE: &str = "CONSULTING AGREEMENT between Acme Corporation and Beta Holdings, LLC.\n\
1. Services. The Consultant shall provide the services described in Exhibit A.\n\
5. Fees. The Company shall pay the Consultant a monthly fee within thirty days of each invoice.\n";

const INVENTED: &str =
    "the Consultant shall receive a termination bonus upon any change of control of the Company";
const REAL: &str =
    "The Company shall pay the Consultant a monthly fee within thirty days of each invoice";

fn forms(q: &str) -> Vec<String> {
    vec![
        format!("Section 5 provides: '{q}'."),
        format!("Section 5 provides: <q>{q}</q>."),
        format!("Section 5 provides:\n\n<blockquote>{q}</blockquote>"),
        format!(
            "If you'd like, I can turn these into proposed revisions or a redlined draft.\n\n> {q}\n>\n> — Section 5"
        ),
    ]
}

fn run(ws: &Ws, name: &str, body: &str) -> serde_json::Value {
    ws.check_evidence(name, &format!("The fee terms are short.\n\n{body}"))
        .1
}

#[test]
fn quotes_in_every_rendered_form_are_examined() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    for (i, body) in forms(INVENTED).iter().enumerate() {
        let v = run(&ws, &format!("invented{i}.ai.md"), body);
        assert_eq!(check(&v, "quotes_grounded")["result"], "fail", "{body}");
        assert_eq!(
            v["byop_report"]["summary"]["overall_status"], "ALERT",
            "{body}"
        );
    }
    for (i, body) in forms(REAL).iter().enumerate() {
        let v = run(&ws, &format!("real{i}.ai.md"), body);
        assert_eq!(check(&v, "quotes_grounded")["result"], "pass", "{body}");
    }
}
