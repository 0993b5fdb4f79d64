//! The one clause-number reader: the number a heading or clause starts with.

use std::sync::LazyLock;

use regex::Regex;

use super::Span;
use crate::engine::ascii_regex;

/// A number a title starts with: "2.1", "Section 4(b)", "Article IV", "§ 3", "A.".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbering {
    /// The word before the number, lower case ("section", "article", "§"), if any.
    pub word: Option<String>,
    /// The number as written, without a trailing dot ("2.1", "IV", "4(b)").
    pub label: String,
    /// Its parts for comparison, lower case, Roman numerals as Arabic when a word
    /// ("Article IV") or a dot ("IV.") marks them as numbers: "2.1" → ["2", "1"],
    /// "4(b)" → ["4", "b"], "Article IV" → ["4"].
    pub parts: Vec<String>,
    /// The number's bytes (word included) in the whole document.
    pub span: Span,
}

static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?x)^[\s*_\#]*
        (?:(?P<word>(?i:section|sec\.|clause|article|art\.|schedule|exhibit|annex|appendix|part|paragraph|para\.)|§{1,2})\s*)?
        (?P<label>\d+(?:\.\d+)*[a-z]?(?:\([a-z0-9]{1,4}\))*|[IVXLCDM]{1,7}|[A-Za-z])
        (?P<after>[.):]|\s|$)",
    )
    .expect("numbering pattern")
});

/// The number `title` starts with (`base` = `title`'s offset in the document), if any.
/// A lone letter or Roman numeral counts only after a word or before `.`/`)`.
pub fn read_numbering(title: &str, base: usize) -> Option<Numbering> {
    let c = NUMBER.captures(title)?;
    let label = c.name("label")?;
    let word = c
        .name("word")
        .map(|w| w.as_str().trim_end_matches('.').to_ascii_lowercase());
    let after = c.name("after").map_or("", |a| a.as_str());
    let raw = label.as_str();
    let numeric = raw.starts_with(|ch: char| ch.is_ascii_digit());
    if !numeric && word.is_none() && !matches!(after, "." | ")") {
        return None;
    }
    // "Article IV", "Part II", "IV.": Roman; "Exhibit C", "Schedule D": letters.
    let roman_word = matches!(word.as_deref(), Some("article" | "art" | "part"));
    let roman = !numeric && (raw.len() > 1 || roman_word);
    let parts = if roman && let Some(v) = roman_value(raw) {
        vec![v.to_string()]
    } else if !numeric && raw.len() > 1 {
        return None;
    } else {
        raw.split(['.', '(', ')'])
            .filter(|p| !p.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let start = c.name("word").unwrap_or(label).start();
    Some(Numbering {
        word,
        label: raw.to_string(),
        parts,
        span: (base + start, base + label.end()),
    })
}

/// The value of a Roman numeral ("IV" → 4); `None` for anything else.
pub fn roman_value(s: &str) -> Option<u32> {
    let digit = |c: char| match c.to_ascii_uppercase() {
        'I' => Some(1),
        'V' => Some(5),
        'X' => Some(10),
        'L' => Some(50),
        'C' => Some(100),
        'D' => Some(500),
        'M' => Some(1000),
        _ => None,
    };
    let values: Vec<u32> = s.chars().map(digit).collect::<Option<_>>()?;
    let mut total = 0;
    for (i, &v) in values.iter().enumerate() {
        if values.get(i + 1).is_some_and(|&next| next > v) {
            total -= v as i64;
        } else {
            total += v as i64;
        }
    }
    (total > 0).then_some(total as u32)
}
