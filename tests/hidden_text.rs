//! The evidence contract's `hidden_text` check through the binary: text a reader does not
//! see as written fails the gate.

mod support;

use support::workspace::{Ws, check};

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
        let (code, v) = ws.check_evidence(&format!("hidden{i}.ai.md"), sentence);
        assert_eq!(code, Some(1), "{sentence}");
        assert_eq!(check(&v, "hidden_text")["result"], "fail", "{sentence}");
        assert_eq!(
            v["byop_report"]["summary"]["overall_status"], "ALERT",
            "{sentence}"
        );
    }
    let plain = "Under Section 99.4 of the Agreement, the Supplier must pay $4,500,000 per month.";
    let (code, v) = ws.check_evidence("plain.ai.md", plain);
    assert_eq!(code, Some(1));
    assert_eq!(check(&v, "hidden_text")["result"], "pass");
    assert_eq!(check(&v, "references_grounded")["result"], "fail");
}

/// Claims written with HTML character references or a backslash escape inside them are
/// shown by every markdown renderer as the plain claim but read by the grounding checks as
/// written: the gate fails on them instead of passing what it could not read. The
/// `&nbsp;` indentation real outputs use, and HTML's own `&amp;`, pass.
#[test]
fn character_references_that_hide_a_claim_fail_the_gate() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "Under Section&nbsp;14.7 of the Agreement, the Supplier must pay the fee.",
        "The Customer must pay &dollar;2,500,000 per month under the Agreement.",
        "The Customer must pay &#36;2,500,000 per month under the Agreement.",
        "The Agreement expires on March&nbsp;3, 2031.",
        "The Agreement provides a 37&percnt; success fee.",
        "Section 1 states: &ldquo;the Supplier shall receive a termination bonus upon any change of control&rdquo;.",
        "Under Section 14\\.7 of the Agreement, the Supplier must pay the fee.",
    ];
    for (i, sentence) in hidden.iter().enumerate() {
        let (code, result) = hidden_text_of(&ws, &format!("ref{i}.ai.md"), sentence);
        assert_eq!(code, Some(1), "{sentence}");
        assert_eq!(result, "fail", "{sentence}");
    }
    let layout = "Under Section 1, AT&amp;T provides the Services:\n\n&nbsp;&nbsp;&nbsp;&nbsp;(a) Supplier shall provide the Services described in Exhibit A.\n";
    let (_, result) = hidden_text_of(&ws, "layout.ai.md", layout);
    assert_eq!(result, "pass");
}

/// A browser shows the character references of an HTML block decoded (in raw HTML even the
/// legacy ones without a semicolon), while the grounding checks read its text as written:
/// a claim written with them inside `<p>…</p>` or `<div>…</div>` fails the gate as it does
/// in a paragraph. The same claim in the block written plainly is read, and fails
/// entities_grounded; HTML's own `&amp;`, references inside a tag or a comment, and a
/// `&nbsp;` beside white space pass hidden_text.
#[test]
fn character_references_in_an_html_block_fail_the_gate() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "<p>The Customer must pay &#36;2,500,000 per month under the Agreement.</p>",
        "<div>The Customer must pay &dollar;2,500,000 per month under the Agreement.</div>",
        "<p>The Customer must pay &#x24;2,500,000 per month under the Agreement.</p>",
        "<p>The Agreement expires on March&nbsp;3, 2031.</p>",
        "<p>Section&nbsp41.3 of the Agreement caps the Supplier's liability.</p>",
        "<p>&sect41.3 of the Agreement caps the Supplier's liability.</p>",
        "<p>Section 1 states: &quotthe Supplier shall receive a termination bonus upon any change of control&quot.</p>",
    ];
    let clean = [
        "<p title=\"&quot;Fees&quot;\">AT&amp;T and R&D review the fees. &nbsp; <!-- &sect;2 --></p>",
    ];
    gate_fails_on_hidden_and_passes_clean(&ws, "html_refs", &hidden, &clean);
    let plain = "<p>The Customer must pay $2,500,000 per month under the Agreement.</p>";
    let (code, v) = ws.check_evidence("html_plain.ai.md", plain);
    assert_eq!(code, Some(1));
    assert_eq!(check(&v, "hidden_text")["result"], "pass");
    assert_eq!(check(&v, "entities_grounded")["result"], "fail");
}

/// `hidden_text` of the evidence playbook on `sentence` written as a review of SOURCE,
/// with the gate's exit code.
fn hidden_text_of(ws: &Ws, name: &str, sentence: &str) -> (Option<i32>, serde_json::Value) {
    let (code, v) = ws.check_evidence(name, sentence);
    (code, check(&v, "hidden_text")["result"].clone())
}

/// Amounts and dates written with digits that only look like ASCII digits (mathematical
/// bold or sans-serif, superscript, subscript, circled) are not read as numbers by the
/// grounding checks: the gate fails on them. So do fullwidth forms in Latin prose next to
/// one CJK word. A unit's ² or ³ after a letter ("m²") and fullwidth forms inside a run of
/// CJK text are what they show, and pass.
#[test]
fn look_alike_digits_fail_the_gate_and_units_and_cjk_typesetting_pass() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "The Agreement caps the Supplier's liability at $𝟮,𝟱𝟬𝟬,𝟬𝟬𝟬 and expires on March 𝟯, 𝟮𝟬𝟯𝟭.",
        "The Agreement caps the Supplier's liability at $𝟤,𝟧𝟢𝟢,𝟢𝟢𝟢.",
        "The Agreement caps the Supplier's liability at ＄２，５００，０００ (責任上限).",
        "The Agreement caps the Supplier's liability at $²,⁵⁰⁰,⁰⁰⁰.",
        "The Agreement expires on March ③, 2031.",
    ];
    let clean = [
        "The Supplier leases 250 m² of office space and 40 m³ of storage.",
        "本契約の第２条に基づき、顧客は＄１，０００，０００を支払う。",
    ];
    gate_fails_on_hidden_and_passes_clean(&ws, "digits", &hidden, &clean);
}

/// A reference or a defined term written in letters that only look like ASCII letters
/// (mathematical bold or italic, circled, a ligature) is not read by the reference
/// recogniser or any word list: the gate fails on it. Ordinals written the Romance way ("1º")
/// and accented letters pass.
#[test]
fn look_alike_letters_fail_the_gate_and_ordinals_and_accents_pass() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "Under 𝐒𝐞𝐜𝐭𝐢𝐨𝐧 99.4 of the Agreement, the Supplier must pay the fee.",
        "Under 𝑺𝒆𝒄𝒕𝒊𝒐𝒏 99.4 of the Agreement, the Supplier must pay the fee.",
        "Under Ⓢection 99.4 of the Agreement, the Supplier must pay the fee.",
        "Notice must be given within ﬁfteen days under the Agreement.",
    ];
    let clean = [
        "O Artigo 1º do Contrato obriga o Supplier; Société Générale e Ørsted não são partes.",
        "Supplier shall provide the Services described in Exhibit A.",
    ];
    gate_fails_on_hidden_and_passes_clean(&ws, "letters", &hidden, &clean);
}

/// Each of `hidden`, written as a review of SOURCE, fails `hidden_text` and the gate (exit
/// 1); each of `clean` passes `hidden_text`.
fn gate_fails_on_hidden_and_passes_clean(ws: &Ws, tag: &str, hidden: &[&str], clean: &[&str]) {
    for (i, sentence) in hidden.iter().enumerate() {
        let (code, result) = hidden_text_of(ws, &format!("{tag}{i}.ai.md"), sentence);
        assert_eq!(code, Some(1), "{sentence}");
        assert_eq!(result, "fail", "{sentence}");
    }
    for (i, sentence) in clean.iter().enumerate() {
        let (_, result) = hidden_text_of(ws, &format!("{tag}_clean{i}.ai.md"), sentence);
        assert_eq!(result, "pass", "{sentence}");
    }
}

/// Markup between a reference word and its number, or inside a number, is shown by every
/// renderer as the plain claim ("Section 41.3") but splits it for the claim checks, which
/// read it as written and found no reference (or "Section 4", which the source has): the
/// gate fails on it. Formatting a whole claim (`**Section 2**`, a code span alone, a bold
/// label) splits nothing and passes; the plain invented claim fails references_grounded.
#[test]
fn markup_that_splits_a_claim_fails_the_gate_and_whole_claim_formatting_passes() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let hidden = [
        "Section **41.3** of the Agreement caps the Supplier's liability.",
        "Section <b>41.3</b> of the Agreement caps the Supplier's liability.",
        "Section `41.3` of the Agreement caps the Supplier's liability.",
        "Section [41.3](#x) of the Agreement caps the Supplier's liability.",
        "Section 4<!-- -->1.3 of the Agreement caps the Supplier's liability.",
        "Section 4*1*.3 of the Agreement caps the Supplier's liability.",
    ];
    let clean = [
        "**Section 2** of the Agreement sets a fee of **$1,000,000** per year.",
        "**Fees**: the fee under Section 2 is `$1,000,000` per year.",
    ];
    gate_fails_on_hidden_and_passes_clean(&ws, "markup", &hidden, &clean);
    let plain = "Section 41.3 of the Agreement caps the Supplier's liability.";
    let (code, v) = ws.check_evidence("markup_plain.ai.md", plain);
    assert_eq!(code, Some(1));
    assert_eq!(check(&v, "hidden_text")["result"], "pass");
    assert_eq!(check(&v, "references_grounded")["result"], "fail");
}

/// Text a reader never sees excuses no visible claim: a value drafted inside an HTML
/// comment (`<!-- [ADD: $2,500,000] -->`), a comment holding a quote's words, or a comment
/// numbering a section leaves the visible statement of the contract a claim, which fails
/// the grounding checks. The same drafting written visibly still excuses it.
#[test]
fn hidden_text_excuses_no_visible_claim() {
    let ws = Ws::new();
    ws.write("contract.txt", SOURCE);
    let cases = [
        (
            "<!-- [ADD: $2,500,000] -->\nThe Agreement caps the Supplier's liability at $2,500,000.",
            "entities_grounded",
        ),
        (
            "<!-- the Supplier shall receive a termination bonus upon any change of control -->\nThe Agreement, in its own words: \"the Supplier shall receive a termination bonus upon any change of control\".",
            "quotes_grounded",
        ),
        (
            "<!-- [ADD: Section 41.3] -->\nSection 41.3 of the Agreement caps the Supplier's liability.",
            "references_grounded",
        ),
        (
            "<!--\n41.3 Cap\n-->\nSection 41.3 of the Agreement caps the Supplier's liability.",
            "references_grounded",
        ),
    ];
    for (i, (text, failing)) in cases.iter().enumerate() {
        let (code, v) = ws.check_evidence(&format!("excuse{i}.ai.md"), text);
        assert_eq!(code, Some(1), "{text}");
        assert_eq!(check(&v, failing)["result"], "fail", "{text}");
    }
    let visible =
        "[ADD: Section 41.3 Cap]\n\nSection 41.3 of the Agreement caps the Supplier's liability.";
    let (_, v) = ws.check_evidence("excuse_visible.ai.md", visible);
    assert_eq!(check(&v, "references_grounded")["result"], "pass");
}
