//! Characters that look like ASCII but are read as something else, for `hidden_characters`:
//! digits that are compatibility forms of ASCII digits (mathematical bold "𝟮", superscript
//! "²", subscript "₂", circled "③"), which no amount, date or reference reader takes for a
//! number; letters that are compatibility forms of ASCII letters (mathematical bold
//! "𝐒𝐞𝐜𝐭𝐢𝐨𝐧", script "ℓ", circled "Ⓢ", ligatures "ﬁ"), which no word list or claim
//! recogniser reads as those letters; and fullwidth forms of ASCII ("＄２，５００") outside a run of CJK text, where
//! they are ordinary typesetting.
//!
//! Which digit is a compatibility form is Unicode's own decomposition (through
//! `unicode-normalization`), so a new Unicode version's forms are known without a table.

use unicode_normalization::char::decompose_compatible;

/// A digit that is not an ASCII digit but decomposes (NFKD) to ASCII digits, possibly with
/// ASCII punctuation ("⑴" is "(1)", "⒈" is "1."): mathematical, superscript, subscript,
/// circled, parenthesised forms. Fullwidth digits are left to the fullwidth rule (they are
/// ordinary in CJK text), fractions ("½" is "1⁄2", with a fraction slash) read as what they
/// show, and the digits of other scripts (Arabic-Indic "٢", Devanagari "२") decompose to
/// themselves: they are digits of their own script, not look-alikes.
pub fn look_alike_digit(c: char) -> bool {
    if c.is_ascii() || !c.is_numeric() || fullwidth(c) {
        return false;
    }
    let (mut ascii_digit, mut all_ascii) = (false, true);
    decompose_compatible(c, |d| {
        ascii_digit |= d.is_ascii_digit();
        all_ascii &= d.is_ascii();
    });
    ascii_digit && all_ascii
}

/// The first look-alike digit of `word` (letters and digits); a
/// superscript ² or ³ right after a letter is a unit's power ("m²", "cm³", "ft²": floor
/// areas and volumes in leases), shown and read the same, and not one.
pub fn first_look_alike_digit(word: &str) -> Option<char> {
    let mut prev: Option<char> = None;
    for c in word.chars() {
        let unit_power = matches!(c, '²' | '³') && prev.is_some_and(char::is_alphabetic);
        if look_alike_digit(c) && !unit_power {
            return Some(c);
        }
        prev = Some(c);
    }
    None
}

/// A letter that is not an ASCII letter but decomposes (NFKD) to ASCII letters only:
/// mathematical alphanumerics ("𝐒", "𝑺", "𝕊"), letterlike symbols ("ℌ", "ℓ", the Kelvin
/// sign), circled and parenthesised letters ("Ⓢ", "⒮"), superscript and subscript letters
/// ("ᵃ", "ₐ"), the long s ("ſ") and Latin ligatures ("ﬁ", "ĳ"). Each is shown as a letter a
/// reader knows and read by the rules as another character. Accented letters decompose to a
/// letter and a combining mark, not ASCII alone, and are spelling; fullwidth letters are left
/// to the fullwidth rule.
pub fn look_alike_letter(c: char) -> bool {
    if c.is_ascii() || !c.is_alphabetic() || fullwidth(c) {
        return false;
    }
    let (mut letters, mut only_letters) = (0, true);
    decompose_compatible(c, |d| {
        letters += usize::from(d.is_ascii_alphabetic());
        only_letters &= d.is_ascii_alphabetic() || d == '(' || d == ')';
    });
    letters > 0 && only_letters
}

/// The first look-alike letter of `word` (letters and digits); the ordinal indicators "ª" and
/// "º" right after a digit ("1º", "5ª": first, fifth in Spanish, Portuguese and Italian) are
/// how those languages write ordinals, and not one.
pub fn first_look_alike_letter(word: &str) -> Option<char> {
    let mut prev: Option<char> = None;
    for c in word.chars() {
        let ordinal = matches!(c, 'ª' | 'º') && prev.is_some_and(|p| p.is_ascii_digit());
        if look_alike_letter(c) && !ordinal {
            return Some(c);
        }
        prev = Some(c);
    }
    None
}

/// Fullwidth forms of the ASCII characters (U+FF01–U+FF5E).
pub fn fullwidth(c: char) -> bool {
    matches!(c, '\u{FF01}'..='\u{FF5E}')
}

/// Han, kana and Hangul.
fn cjk_letter(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF66}'..='\u{FF9F}')
}

/// CJK letters and CJK punctuation (ideographic full stop and comma, corner brackets, …).
fn cjk(c: char) -> bool {
    cjk_letter(c)
        || matches!(c, '\u{3000}'..='\u{303F}' | '\u{FE30}'..='\u{FE4F}' | '\u{FF5F}'..='\u{FF65}')
}

/// Whether the run of fullwidth forms `body[start..end]` is inside a run of CJK text, where
/// fullwidth forms are ordinary typesetting ("第９条", "は＄２，５００を支払う"), rather than
/// in Latin prose next to a CJK word ("at ＄２，５００ (責任上限)", where the CJK word only
/// excuses the forms). The neighbours are the nearest characters before and after the run
/// on its line, across spaces. A run with a fullwidth letter, digit or sign is in CJK text
/// when one neighbour is a CJK letter and neither is anything but CJK (or the line's end);
/// a run of fullwidth punctuation alone (brackets: "契約（Services Agreement）")
/// when either neighbour is a CJK letter. The look reaches only across spaces: linear.
pub fn in_cjk_text(body: &str, start: usize, end: usize) -> bool {
    // The ASCII dot a run is read with ("９９.４") is not part of it at its end.
    let end = start + body[start..end].trim_end_matches('.').len();
    let space = |c: char| c != '\n' && c != '\r' && c.is_whitespace();
    let before = body[..start].chars().rev().find(|&c| !space(c));
    let after = body[end..].chars().find(|&c| !space(c));
    let line = |c: Option<char>| c.filter(|&c| c != '\n' && c != '\r');
    let (before, after) = (line(before), line(after));
    let letter = |c: Option<char>| c.is_some_and(cjk_letter);
    if body[start..end]
        .chars()
        .all(|c| !fullwidth(c) || punctuation(c))
    {
        return letter(before) || letter(after);
    }
    let cjk_or_none = |c: Option<char>| c.is_none_or(cjk);
    (letter(before) || letter(after)) && cjk_or_none(before) && cjk_or_none(after)
}

/// Fullwidth brackets and punctuation, ordinary around Latin words in CJK text (quotation
/// marks are not: a quote written in them is not read as one).
fn punctuation(c: char) -> bool {
    matches!(
        c,
        '（' | '）' | '［' | '］' | '｛' | '｝' | '：' | '；' | '！' | '？' | '，' | '．' | '／'
    )
}
