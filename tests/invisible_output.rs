//! Invisible format characters in file names and cited text (a bidi override shows text
//! reversed, a zero-width space makes two names look alike) reach the human-facing
//! outputs escaped (`\u202e`), the machine-read ones (JSON, SARIF) as the exact text.

mod support;

use support::workspace::{Ws, json, stderr, stdout};

/// Every character a reader of a CI log would not see (or see reorder the text).
const HIDDEN: &[char] = &[
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}', '\u{200b}', '\u{2062}',
];

const SOURCE: &str = "MASTER SERVICES AGREEMENT\n\n2. Fees. Customer shall pay the fees within forty-five (45) days of receipt of a correct invoice.\n";

fn raw_hidden(text: &str) -> Vec<char> {
    text.chars().filter(|c| HIDDEN.contains(c)).collect()
}

#[test]
fn file_names_and_cited_text_show_invisible_characters_escaped() {
    let ws = Ws::new();
    ws.write("msa.txt", SOURCE);
    // The name shows as "memo_dm.ai.md" reversed after the override; the quote invents
    // text the source does not have, with an override and an isolate inside it.
    let name = "memo\u{202e}dm.exe\u{202c}\u{200b}.ai.md";
    ws.write(
        name,
        "---\nbyop:\n  source: msa.txt\n---\n# Review\n\nSection 2 provides: \"Customer shall pay \u{202e}the fees within ninety days\u{202c} of \u{2066}receipt\u{2069} of any invoice.\"\n",
    );
    let run = |format: &str| {
        let args = ["check", "--mode", "deterministic", "--fail-on", "never"];
        ws.run(
            &[
                &args[..],
                &[
                    "--playbook",
                    "evidence_contract_v1",
                    "--format",
                    format,
                    name,
                ],
            ]
            .concat(),
        )
    };
    for format in ["text", "junit"] {
        let o = run(format);
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{format}: {err}");
        assert!(
            raw_hidden(&out).is_empty() && raw_hidden(&err).is_empty(),
            "{format}: {out}{err}"
        );
        assert!(
            out.contains("memo\\u202edm.exe\\u202c\\u200b.ai.md"),
            "{format}: the name, visibly: {out}"
        );
        assert!(
            out.contains("\\u202ethe fees within ninety days\\u202c"),
            "{format}: the cited text: {out}"
        );
    }
    // JSON and SARIF keep the exact text (written with JSON's own escapes).
    let report = json(&run("json"));
    // "ninety days" for the source's figure: a changed figure is a quote not in the source.
    let q = support::workspace::check(&report, "quotes_grounded");
    assert_eq!(q["result"], "fail", "{q}");
    let exact = |v: &serde_json::Value| {
        let mut found = (false, false);
        walk(v, &mut |s| {
            found.0 |= s.contains(name);
            found.1 |= s.contains("\u{202e}the fees within ninety days\u{202c}");
        });
        found
    };
    assert_eq!(exact(&report), (true, true), "json: exact name and quote");
    let sarif = json(&run("sarif"));
    assert_eq!(exact(&sarif), (true, true), "sarif: exact name and quote");
}

fn walk(v: &serde_json::Value, f: &mut dyn FnMut(&str)) {
    match v {
        serde_json::Value::String(s) => f(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, f)),
        serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, f)),
        _ => {}
    }
}

#[test]
fn a_file_name_cannot_print_a_status_line_of_its_own() {
    let ws = Ws::new();
    ws.write("msa.txt", SOURCE);
    // A committed name holding a newline: "x.ai.md  STABLE …" would head a line of its own
    // above the real status (this document fails: its quote is not in the source).
    let name = "x.ai.md  STABLE  deterministic mode\nreal.ai.md";
    ws.write(
        name,
        "---\nbyop:\n  source: msa.txt\n---\n# Review\n\nNotably, \"the Supplier shall pay liquidated damages of ten million dollars for any delay\".\n",
    );
    let o = ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--playbook",
        "evidence_contract_v1",
        name,
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("x.ai.md  STABLE  deterministic mode\\u000areal.ai.md  ALERT"),
        "{first}"
    );
    assert!(!out.lines().any(|l| l.starts_with("real.ai.md")), "{out}");
}
