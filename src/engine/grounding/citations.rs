//! Statute and case citations in an output: "15 U.S.C. § 1681", "Cal. Civ. Code § 1542",
//! "Section 16600 of the California Business and Professions Code", "Article 28 GDPR",
//! "Regulation (EU) 2016/679", "Smith v. Jones", "123 F.3d 456". For `evidence_set`.

use std::sync::LazyLock;

use regex::Regex;

use super::words::tokens;
use crate::engine::ascii_regex;

#[derive(Debug, Clone, PartialEq)]
pub struct LegalCitation {
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// A structured output's `evidence_citations[].ref`: must equal an item's `ref`.
    pub exact: bool,
}

static CITATION: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(concat!(
        r"\b\d+\s+U\.?\s?S\.?\s?C\.?\s*(?:§§?|[Ss]ec(?:tion|\.)?)?\s*\d+[\w.()-]*",
        r"|\b\d+\s+C\.?\s?F\.?\s?R\.?\s*(?:§§?|[Pp]art|[Ss]ec(?:tion|\.)?)?\s*\d+[\w.()-]*",
        r"|\b(?:[A-Z][a-z]+\.\s+){1,3}Code\s*§§?\s*\d+[\w.()-]*",
        r"|\b(?:[Ss]ection|§)\s*\d+[\w.()-]*\s+of\s+the\s+(?:[A-Z][\w.&'’-]*\s+|of\s+|and\s+|\d{4}\s+)*(?:Act|Code|Regulations?|Directive)\b",
        r"|\b[Aa]rt(?:icle|\.)\s*\d+(?:\(\d+\))*\s+(?:of\s+the\s+)?(?:GDPR|UK\s+GDPR)\b",
        r"|\bGDPR\s+[Aa]rt(?:icle|\.)\s*\d+(?:\(\d+\))*",
        r"|\bRegulation\s+\(EU\)\s+(?:No\s+)?\d{2,4}/\d+",
        r"|\bDirective\s+(?:\(?EU\)?\s*)?(?:No\.?\s+)?\d{2,4}/\d+(?:/E[CU])?",
        r"|\b\d+\s+(?:[A-Z][a-z]*\.\s*){1,3}C\.\s*§§?\s*\d+[\w.()-]*",
        r"|\b(?:[A-Z][a-z]+\.?,?\s+(?:&\s+)?){1,5}(?:Code|Act|Law)\s*§§?\s*\d+[\w.()-]*",
        r"|\b\d+\s+(?:F\.(?:\s?(?:2d|3d|4th))?|F\.\s?Supp\.(?:\s?(?:2d|3d))?|U\.S\.|S\.\s?Ct\.|Cal\.(?:\s?App\.)?(?:\s?(?:2d|3d|4th|5th))?|N\.E\.(?:2d|3d)?|A\.(?:2d|3d)?)\s+\d+",
        r"|\b[A-Z][\w.&'’-]+(?:\s+[A-Z][\w.&'’-]+){0,3}\s+v\.\s+[A-Z][\w.&'’-]+(?:\s+[A-Z][\w.&'’-]+){0,3}",
    ))
    .expect("legal citation regex")
});

/// Statute and case citations in `text[range]`.
pub fn legal_citations(text: &str, range: (usize, usize)) -> Vec<LegalCitation> {
    let end = range.1.min(text.len());
    let start = range.0.min(end);
    let Some(hay) = text.get(start..end) else {
        return Vec::new();
    };
    CITATION
        .find_iter(hay)
        .map(|m| LegalCitation {
            start: start + m.start(),
            end: start + m.end(),
            text: m.as_str().to_string(),
            exact: false,
        })
        .collect()
}

/// Lower-case words with "section"/"sec"/"§" as `s`, for comparing citations with refs.
pub fn key(s: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for (w, _, _) in tokens(&s.replace('§', " s ")) {
        let w = match w.as_str() {
            "section" | "sec" | "sections" | "ss" => "s".to_string(),
            "article" | "art" => "art".to_string(),
            _ => w,
        };
        out.push(w);
    }
    format!(" {} ", out.join(" "))
}

impl LegalCitation {
    /// Is this citation the item with this `ref` (with or without its `ORIGIN:` prefix) or title?
    pub fn matches(&self, reference: &str, title: Option<&str>) -> bool {
        if self.exact {
            return self.text == reference;
        }
        let me = key(&self.text);
        let id = reference.split_once(':').map_or(reference, |(_, id)| id);
        [Some(reference), Some(id), title]
            .into_iter()
            .flatten()
            .map(key)
            .filter(|k| k.trim().len() >= 2)
            .any(|k| me.contains(&k) || k.contains(&me))
    }
}
