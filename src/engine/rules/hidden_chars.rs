//! `hidden_characters`: text a reader does not see as written. An invisible character inside
//! a word or number ("Sec\u{200B}tion 99.4", "2\u{2062}1"), a bidirectional override, a word
//! that mixes Latin letters with look-alikes from another script ("Ѕection" with a Cyrillic
//! Ѕ), a digit that only looks like an ASCII one ("$𝟮,𝟱𝟬𝟬", "$²,⁵⁰⁰"; a unit's "m²" is
//! not one), a letter that only looks like an ASCII one ("𝐒𝐞𝐜𝐭𝐢𝐨𝐧 99.4"), or fullwidth forms of ASCII ("＄4,500,000", "９９.４") outside a run of CJK text
//! (see `hidden_forms`). Each one makes the text a reader sees differ from the text a
//! rule or an evaluator reads: a claim hidden that way is neither checked nor quoted, so the
//! check fails on it instead of passing what it could not read.
//!
//! The character classes are Unicode's own (Default_Ignorable_Code_Point and script sets
//! from UTS #39, through `unicode-security`); `examples` (data, not read by the rule) are
//! texts that must fail and pass, run by a test.

use std::sync::Arc;

use serde::Deserialize;
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::{GeneralSecurityProfile, MixedScript};

use super::hidden_forms::{
    first_look_alike_digit, first_look_alike_letter, fullwidth, in_cjk_text,
};
use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome};
use crate::model::Verdict;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    /// At most this many spans are listed (the count in the notes is always whole).
    #[serde(default = "default_max_hits")]
    max_hits: usize,
    /// Texts that must fail (`hidden`) and pass (`clean`); run by a test.
    #[serde(default)]
    #[allow(dead_code)]
    examples: Option<Examples>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Examples {
    #[serde(default)]
    #[allow(dead_code)]
    hidden: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    clean: Vec<String>,
}

fn default_max_hits() -> usize {
    20
}

#[derive(Debug)]
struct HiddenChars {
    max_hits: usize,
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    Ok(Arc::new(HiddenChars {
        max_hits: p.max_hits,
    }))
}

/// Invisible in rendered text (zero-width spaces and joiners, soft hyphen, invisible
/// operators, variation selectors, bidirectional marks, tags).
/// Bidirectional controls are invisible too, but found on their own wherever they are.
fn invisible(c: char) -> bool {
    !bidi_control(c) && c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

/// Bidirectional embeddings, overrides and isolates: they reorder what a reader sees.
fn bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// What kind of hidden text a span is, for its note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// An invisible character between two letters or digits.
    Invisible(char),
    /// A bidirectional control anywhere.
    Bidi(char),
    /// A word of Latin letters with letters of another script in it.
    MixedScript,
    /// Fullwidth forms of ASCII outside a run of CJK text.
    Fullwidth,
    /// A digit that only looks like an ASCII digit (mathematical, superscript, subscript,
    /// circled): no amount, date or reference reader takes it for a number.
    LookAlikeDigit(char),
    /// A letter that only looks like an ASCII letter (mathematical, letterlike, circled,
    /// superscript, a ligature): no word list or claim recogniser reads it as that letter.
    LookAlikeLetter(char),
    /// An HTML character reference or a backslash escape shown as another character
    /// (`&dollar;` as "$", `Section&nbsp;14.7` as "Section 14.7", `14\.7` as "14.7").
    Written,
    /// Markup inside a claim: between a reference word and its number, or inside a number
    /// (`Section **41.3**`, `4<!-- -->1.3`; see `hidden_markup`).
    Markup,
}

/// Every hidden-text span of `text[range]`, left to right, in whole-text byte offsets. One
/// pass over the text (a run of fullwidth forms also looks at its neighbours across
/// spaces), allocating nothing for text that is all ASCII (it runs on every edit of an
/// output).
pub fn find(text: &str, range: (usize, usize)) -> Vec<(usize, usize, Finding)> {
    let body = &text[range.0..range.1];
    let mut out = Vec::new();
    if body.is_ascii() {
        return out;
    }
    // The end of the run of characters from `at` that `keep` accepts.
    let run_end = |at: usize, keep: &dyn Fn(char) -> bool| {
        body[at..]
            .char_indices()
            .find(|&(_, c)| !keep(c))
            .map_or(body.len(), |(i, _)| at + i)
    };
    let mut at = 0;
    while let Some(c) = body[at..].chars().next() {
        let end = if bidi_control(c) {
            out.push((at, at + c.len_utf8(), Finding::Bidi(c)));
            at + c.len_utf8()
        } else if fullwidth(c) {
            // One span per run of fullwidth forms ("９９.４" is read with its ASCII dot).
            let end = run_end(at, &|c| fullwidth(c) || c == '.');
            if !in_cjk_text(body, at, end) {
                out.push((at, end, Finding::Fullwidth));
            }
            end
        } else if c.is_alphanumeric() || invisible(c) {
            // A word: letters, digits and the invisible characters inside it.
            let end = run_end(at, &|c| c.is_alphanumeric() || invisible(c));
            word_findings(&body[at..end], at, &mut out);
            end
        } else {
            at + c.len_utf8()
        };
        at = end;
    }
    for f in &mut out {
        f.0 += range.0;
        f.1 += range.0;
    }
    out
}

/// [`find`], and the character references and escapes of `layout` (the body's) that hide
/// what they show: every place the text read differs from the text shown, in text order.
pub fn find_in_layout(
    text: &str,
    range: (usize, usize),
    layout: &crate::engine::document::Layout,
) -> Vec<(usize, usize, Finding)> {
    let mut found = find(text, range);
    found.extend(
        super::hidden_refs::find(layout, text)
            .into_iter()
            .filter(|&(a, b)| range.0 <= a && b <= range.1)
            .map(|(a, b)| (a, b, Finding::Written)),
    );
    found.extend(
        super::hidden_markup::find(layout, text)
            .into_iter()
            .filter(|&(a, b)| range.0 <= a && b <= range.1)
            .map(|(a, b)| (a, b, Finding::Markup)),
    );
    found.sort_by_key(|f| (f.0, f.1));
    found
}

/// The findings of one word (letters, digits and invisible characters), at `base`.
fn word_findings(word: &str, base: usize, out: &mut Vec<(usize, usize, Finding)>) {
    // An ASCII word is read as it is shown.
    if word.is_ascii() {
        return;
    }
    let shown: String = word.chars().filter(|&c| !invisible(c)).collect();
    // An invisible character between two visible ones of the word.
    let first = word
        .char_indices()
        .find(|&(_, c)| !invisible(c))
        .map(|(i, _)| i);
    let last = word
        .char_indices()
        .rev()
        .find(|&(_, c)| !invisible(c))
        .map(|(i, _)| i);
    if let (Some(first), Some(last)) = (first, last) {
        // Joiners between letters of scripts that write them (Arabic, Indic) are spelling:
        // only a word with ASCII letters or digits is read for them.
        let ascii = shown.chars().any(|c| c.is_ascii_alphanumeric());
        if ascii && let Some(c) = word[first..last].chars().find(|&c| invisible(c)) {
            out.push((base, base + word.len(), Finding::Invisible(c)));
            return;
        }
    }
    if let Some(c) = first_look_alike_digit(word) {
        out.push((base, base + word.len(), Finding::LookAlikeDigit(c)));
        return;
    }
    if let Some(c) = first_look_alike_letter(word) {
        out.push((base, base + word.len(), Finding::LookAlikeLetter(c)));
        return;
    }
    if shown.chars().any(|c| c.is_ascii_alphabetic()) && !shown.as_str().is_single_script() {
        out.push((base, base + word.len(), Finding::MixedScript));
    }
}

fn describe_finding(text: &str, (s, e, f): (usize, usize, Finding)) -> String {
    let shown: String = text[s..e]
        .chars()
        .map(|c| {
            if invisible(c) || bidi_control(c) {
                format!("<U+{:04X}>", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect();
    match f {
        Finding::Invisible(c) => format!(
            "an invisible character (U+{:04X}) inside “{shown}”: the word is read as two",
            c as u32
        ),
        Finding::Bidi(c) => format!(
            "a bidirectional control (U+{:04X}): what is shown is not the order the text is read in",
            c as u32
        ),
        Finding::MixedScript => {
            format!("“{shown}” mixes Latin letters with look-alikes from another script")
        }
        Finding::Fullwidth => format!("“{shown}” is written in fullwidth forms, not ASCII"),
        Finding::LookAlikeDigit(c) => format!(
            "“{shown}” has a digit that only looks like an ASCII one (U+{:04X}): it is not read as a number",
            c as u32
        ),
        Finding::LookAlikeLetter(c) => format!(
            "“{shown}” has a letter that only looks like an ASCII one (U+{:04X}): the checks do not read it as that letter",
            c as u32
        ),
        Finding::Written => format!(
            "“{shown}” is written as markup that a reader sees as another character: the checks read what is written"
        ),
        Finding::Markup => format!(
            "markup “{shown}” stands inside a claim (between a reference word or currency sign and its number, or inside a number): a reader sees one claim, the checks read it broken"
        ),
    }
}

impl CompiledRule for HiddenChars {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        let found = find_in_layout(cx.text, cx.body, cx.layout());
        let notes = if found.is_empty() {
            "No invisible characters, bidirectional controls, mixed-script words, look-alike digits or letters, fullwidth forms, character references or markup that change a claim.".to_string()
        } else {
            format!(
                "{} place(s) where the text read differs from the text shown; the first: {}",
                found.len(),
                describe_finding(cx.text, found[0])
            )
        };
        let hits: Vec<Hit> = found
            .iter()
            .take(self.max_hits)
            .map(|&f| Hit {
                start: f.0,
                end: f.1,
                note: describe_finding(cx.text, f),
                source: None,
            })
            .collect();
        Some(RuleOutcome {
            code: (!found.is_empty()).then(|| "HIDDEN-TEXT".to_string()),
            verdict: if found.is_empty() {
                Verdict::Pass
            } else {
                Verdict::Fail
            },
            hits,
            hits_are_problems: true,
            notes,
            grounding: None,
        })
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        "Fails on text a reader does not see as written: an invisible character inside a word or number, a bidirectional control, a word mixing Latin letters with look-alikes from another script, a digit that only looks like an ASCII digit (mathematical, superscript, circled; not a unit's m² or cm³), a letter that only looks like an ASCII letter (mathematical, letterlike, circled, a ligature; not an ordinal's º after a digit), fullwidth forms of ASCII outside a run of CJK text, an HTML character reference or backslash escape shown as another character inside a claim, or markup (emphasis, a code span, a link, an HTML tag or comment) between a reference word or currency sign and its number or inside a number.".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Finding> {
        find(s, (0, s.len())).into_iter().map(|f| f.2).collect()
    }

    #[test]
    fn hidden_text_is_found_both_ways() {
        let hidden: &[(&str, Finding)] = &[
            (
                "Under Sec\u{200B}tion 99.4 the fee",
                Finding::Invisible('\u{200B}'),
            ),
            ("Sec\u{00AD}tion 99.4", Finding::Invisible('\u{00AD}')),
            ("July 2\u{2062}1, 2033", Finding::Invisible('\u{2062}')),
            ("si\u{200B}xty-one days", Finding::Invisible('\u{200B}')),
            ("the te\u{034F}rm", Finding::Invisible('\u{034F}')),
            ("fee\u{202E}dlrow", Finding::Bidi('\u{202E}')),
            ("\u{0405}ection 99.4", Finding::MixedScript),
            ("p\u{0430}y the fee", Finding::MixedScript),
            ("\u{FF04}4,500,000", Finding::Fullwidth),
            ("Section \u{FF19}\u{FF19}.\u{FF14}", Finding::Fullwidth),
            ("March 𝟯", Finding::LookAlikeDigit('𝟯')),
            ("the ⑭th day", Finding::LookAlikeDigit('⑭')),
            ("H₂O", Finding::LookAlikeDigit('₂')),
            // A power after a digit, or a footnote mark, is not a unit's.
            ("10³ units", Finding::LookAlikeDigit('³')),
            ("m²²", Finding::LookAlikeDigit('²')),
            ("the Tenant¹", Finding::LookAlikeDigit('¹')),
            ("𝐒𝐞𝐜𝐭𝐢𝐨𝐧 99.4", Finding::LookAlikeLetter('𝐒')),
            ("the 𝑇𝑒𝑟𝑚", Finding::LookAlikeLetter('𝑇')),
            ("𝕊ection", Finding::LookAlikeLetter('𝕊')),
            ("ℌours", Finding::LookAlikeLetter('ℌ')),
            ("Ⓢection 4", Finding::LookAlikeLetter('Ⓢ')),
            ("ﬁfteen days", Finding::LookAlikeLetter('ﬁ')),
            ("\u{212A}ey Personnel", Finding::LookAlikeLetter('\u{212A}')),
            // An ordinal indicator not after a digit.
            ("ºctober", Finding::LookAlikeLetter('º')),
            // Fullwidth forms next to one CJK word in Latin prose.
            ("at ＄２，５００ (責任上限)", Finding::Fullwidth),
            ("at 責＄２，５００.", Finding::Fullwidth),
            ("Section ９条", Finding::Fullwidth),
        ];
        for (text, want) in hidden {
            assert_eq!(kinds(text), [*want], "{text:?}");
        }
        let clean: &[&str] = &[
            "Under Section 99.4 the fee is $4,500,000.",
            "⚠\u{FE0F} Warning: review the indemnity",
            "👩\u{200D}⚖\u{FE0F} counsel",
            "naïve café résumé",
            "Москва and London",
            "契約書の第９条",
            "a\u{00A0}non-breaking space",
            "Straße",
            "250 m² and 40 cm³, 30 ft²",
            "½ of the fee, ¾ of the term",
            "٢٠٢٥ and २०२५",
            "第９条に基づき＄２，５００を支払う",
            "金額は＄２，５００\nThe fee",
            "本契約（Services Agreement）の条件",
            "Artigo 1º and Cláusula 5ª",
            "Ørsted, Œuvre, æsthetic, ß",
            "µg and Ω",
        ];
        for text in clean {
            assert_eq!(kinds(text), [], "{text:?}");
        }
    }

    #[test]
    fn offsets_are_whole_text_offsets() {
        let s = "front\nUnder Sec\u{200B}tion 9 and \u{FF04}5";
        let body = (6, s.len());
        let found = find(s, body);
        assert_eq!(found.len(), 2);
        assert_eq!(&s[found[0].0..found[0].1], "Sec\u{200B}tion");
        assert_eq!(&s[found[1].0..found[1].1], "\u{FF04}");
    }

    #[test]
    fn the_playbooks_examples_run() {
        for id in ["evidence_contract_v1"] {
            let pb = crate::engine::playbook::builtin_by_id(id).expect("built-in playbook");
            let rules = pb
                .playbook
                .checks
                .iter()
                .filter_map(|c| c.rules.as_ref())
                .find(|r| r.kind == "hidden_characters")
                .unwrap_or_else(|| panic!("{id} has a hidden_characters check"));
            let ex = &rules.params["examples"];
            let list = |k: &str| -> Vec<String> {
                ex[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect()
            };
            assert!(!list("hidden").is_empty() && !list("clean").is_empty());
            let found = |t: &str| {
                let layout = crate::engine::document::Layout::markdown(t, (0, t.len()));
                find_in_layout(t, (0, t.len()), &layout)
            };
            for t in list("hidden") {
                assert!(!found(&t).is_empty(), "{id}: not found in {t:?}");
            }
            for t in list("clean") {
                assert!(found(&t).is_empty(), "{id}: found in {t:?}");
            }
        }
    }
}
