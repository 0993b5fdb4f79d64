//! References to parts of a document: "Section 7.2(b)", "Clause 12", "Article IV",
//! "Exhibit C", "Schedule 1", "§ 4". Sections, clauses, articles, paragraphs and § share one
//! numbering (an output's "Section 5" is the source's "5." or "Article 5"); exhibits,
//! schedules, annexes and appendices each have their own.

use std::sync::LazyLock;

use regex::Regex;

use crate::engine::ascii_regex;
use crate::engine::document::layout::roman_value;
use crate::model::text::{around, floor_char_boundary};

/// Which numbering a reference points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefKind {
    /// Section, clause, article, paragraph, §.
    Numbered,
    Exhibit,
    Schedule,
    Annex,
    Appendix,
}

impl RefKind {
    fn from_word(w: &str) -> RefKind {
        let w = w.to_ascii_lowercase();
        if w.starts_with("exhibit") || w == "ex." || w == "exh." || w.starts_with("attachment") {
            RefKind::Exhibit
        } else if w.starts_with("schedule") || w == "sch." || w == "sched." {
            RefKind::Schedule
        } else if w.starts_with("annex") {
            RefKind::Annex
        } else if w.starts_with("appendi") {
            RefKind::Appendix
        } else {
            RefKind::Numbered
        }
    }
}

/// One reference, whole-text byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub kind: RefKind,
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// The top-level label, lower case, roman numerals as digits: "7.2", "c", "4".
    pub label: String,
    /// Sub-parts after it: "(b)(ii)" → ["b", "ii"].
    pub parts: Vec<String>,
}

const LABEL: &str = r"(?P<label>\d+(?:[.-]\d+)*[A-Za-z]?|[IVXLC]+\b|[A-Z]\b(?:-?\d+)?)(?P<parts>(?:\s?\([a-zA-Z0-9]{1,4}\))*)";

static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?P<word>\b(?:[Ss]ections?|SECTIONS?|[Cc]lauses?|CLAUSES?|[Aa]rticles?|ARTICLES?|[Pp]aragraphs?|PARAGRAPHS?|[Ee]xhibits?|EXHIBITS?|[Ss]chedules?|SCHEDULES?|[Aa]nnex(?:es)?|ANNEX(?:ES)?|[Aa]ppendix|APPENDIX|[Ss]ubsections?|[Aa]ttachments?|(?:Sec|Secs|Art|Cl|Para|Paras|Sch|Sched|Exh?|sec|secs|cl|para|paras|s|ss)\.)|§§?)[\s-]*{LABEL}"
    ))
    .expect("reference regex")
});

/// Numbering as a contract writes it, without a word before it: "7.2 ", "  5.  Term".
static NUMBERING: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?m)(?:^|\s{2,}|[.;:]\s|[A-Z]{3}\s)(?:\d{1,3}\s)?(?P<n>\d+(?:\.\d+)*\.?|[IVXLC]+\.)[\s)]",
    )
    .expect("numbering regex")
});
static SUBPART: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r#"(?m)\((?P<p>[a-zA-Z0-9]{1,4})\)|(?:^|\s)(?P<q>[a-z]|[ivx]+)\)|(?:^|\s{2,})(?P<r>[a-z]|[ivx]+)\.\s|(?:^|\s)(?P<s>[A-Z])\.[ \t]{0,2}["“A-Z]"#).expect("subpart regex")
});

/// Words after a reference that make it a statute's, not the document's: "Section 2-207 of
/// the UCC", "Article 28 GDPR", "Section 16600 of the California Business and Professions Code".
static STATUTE_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"^[\s,]*(?:(?:of|under|in)\s+(?:the\s+)?(?:[A-Z][\w.&'’-]*\s+|\d{4}\s+|of\s+|and\s+)*(?:Act|Code|Regulations?|Directive|GDPR|Convention|Rules?|U\.?S\.?C\.?|C\.?F\.?R\.?|UCC|Restatement|Constitution|Statute|Law|CCPA|DTSA|HIPAA|Bankruptcy)\b|(?:GDPR|U\.?S\.?C|C\.?F\.?R|UCC|CCPA|HIPAA|DTSA)\b)")
        .expect("statute regex")
});
static STATUTE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?:U\.?S\.?C\.?|C\.?F\.?R\.?|Code|GDPR|UCC|Act|Cal\.|Civ\.|Stat\.|Bus\.\s*&\s*Prof\.)\s*$",
    )
    .expect("statute-before regex")
});

/// Does this text end with a statute's name ("Business & Professions Code", "17 U.S.C.")?
pub fn statute_before(before: &str) -> bool {
    STATUTE_BEFORE.is_match(before)
}

/// Every reference to a part of a document in `text[range]`; statute references excluded.
pub fn extract_in(text: &str, range: (usize, usize)) -> Vec<Reference> {
    let end = range.1.min(text.len());
    let start = range.0.min(end);
    let Some(hay) = text.get(start..end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in REFERENCE.captures_iter(hay) {
        let m = c.get(0).expect("match");
        let word = c.name("word").expect("group").as_str();
        let kind = RefKind::from_word(word);
        let raw = c.name("label").expect("group").as_str();
        // A bare capital letter or roman numeral is only a label for lettered parts or
        // articles: "Section A" is rare, "Article I" and "Exhibit A" are common.
        let lettered = raw.chars().all(|ch| ch.is_ascii_alphabetic());
        if lettered
            && kind == RefKind::Numbered
            && !word.to_ascii_lowercase().starts_with("article")
            && !is_roman(raw)
        {
            continue;
        }
        let (before, after) = around(hay, (m.start(), m.end()), 30, 80);
        // "§ 16600", "Section 1542": four or more digits number a statute, not a contract.
        let digits = raw.chars().take_while(char::is_ascii_digit).count();
        let statute_number = digits >= 4 || (word.starts_with('§') && digits >= 3);
        // A reference does not run across lines ("payment schedules\n\n2. …").
        if m.as_str().contains('\n') {
            continue;
        }
        if statute_number
            || STATUTE_AFTER.is_match(after)
            || (word.starts_with('§') && STATUTE_BEFORE.is_match(before))
        {
            continue;
        }
        // "Sections 5 (IP)", "Article 1.33 (SITE)": a parenthetical title ends the reference;
        // sub-parts are "(a)", "(iv)", "(1)", "(A)", "(aa)".
        let mut m_end = m.end();
        let mut parts = Vec::new();
        if let Some(pg) = c.name("parts") {
            for p in SUBPART.captures_iter(pg.as_str()) {
                let Some(x) = p.name("p").or(p.name("q")) else {
                    continue;
                };
                if is_title(x.as_str()) {
                    m_end = pg.start() + p.get(0).expect("match").start();
                    break;
                }
                parts.push(x.as_str().to_ascii_lowercase());
            }
        }
        let m_text = hay[m.start()..m_end].trim_end();
        let m_end = m.start() + m_text.len();
        // "Sections 3-4" names 3 (and 4); "two Section 24s" is 24.
        let plural = word.len() > 1
            && word.to_ascii_lowercase().ends_with('s')
            && !word.eq_ignore_ascii_case("§§");
        let raw = match raw.split_once('-') {
            Some((a, b))
                if plural
                    && !a.is_empty()
                    && a.chars().all(|c| c.is_ascii_digit())
                    && b.chars().all(|c| c.is_ascii_digit()) =>
            {
                a
            }
            _ => raw,
        };
        let raw = match raw.strip_suffix('s') {
            Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => n,
            _ => raw,
        };
        out.push(Reference {
            kind,
            start: start + m.start(),
            end: start + m_end,
            text: m_text.to_string(),
            label: label_key(kind, raw),
            parts,
        });
    }
    out
}

/// The same reference with its first numbered sub-part written as a decimal: "Article V(3)",
/// "Section 12(3)" → "5.3", "12.3" (contracts number a part's paragraphs either way).
pub fn as_dotted(r: &Reference) -> Option<Reference> {
    let first = r.parts.first()?;
    (r.kind == RefKind::Numbered
        && first.chars().all(|c| c.is_ascii_digit())
        && r.label.chars().all(|c| c.is_ascii_digit() || c == '.'))
    .then(|| Reference {
        label: format!("{}.{first}", r.label),
        parts: r.parts[1..].to_vec(),
        ..r.clone()
    })
}

/// A parenthetical after a number that titles it ("(IP)", "(SITE)", "(Term)"): two or more
/// letters that are neither a roman numeral ("(iv)") nor a doubled letter ("(aa)").
fn is_title(p: &str) -> bool {
    let upper = p.to_ascii_uppercase();
    p.len() >= 2
        && p.chars().all(|c| c.is_ascii_alphabetic())
        && !is_roman(&upper)
        && !upper.chars().all(|c| upper.starts_with(c))
}

/// Words right after a reference that say the part is not there ("Article 9.6 does not
/// exist", "Section 12 is missing"), or right before it ("there is no Section 12", "a
/// non-existent Section 12"): the output denies the part exists, it does not claim it.
static DENIED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)^[\s*_”\x22)]*(?:(?:does|do|did)\s*(?:not|n[’']t)\s+exist|(?:is|are|was|were)\s+(?:missing|absent|non-?existent|not\s+(?:present|included|found|there|in\s+the\s+(?:agreement|contract|source|document)))|(?:does|do)\s*(?:not|n[’']t)\s+(?:appear|exist))\b")
        .expect("denied-after regex")
});
static DENIED_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?i)\b(?:there\s+is\s+no|there\s+are\s+no|non-?existent|missing|absent)\s*[*_“\x22]*$",
    )
    .expect("denied-before regex")
});

/// Does the text around `r` deny that the referenced part exists?
pub fn denied(text: &str, r: &Reference) -> bool {
    let (before, after) = around(text, (r.start, r.end), 30, 60);
    DENIED_AFTER.is_match(after) || DENIED_BEFORE.is_match(before)
}

/// Words right before a reference that make the part the output's own ("I've inserted as
/// Section 3", "renumbered as Section 4", "added as a new Section 12"): later references to
/// that label are to the output's numbering.
static INTRODUCED_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)\b(?:insert(?:ed)?|add(?:ed)?|creat(?:ed|e)|renumber(?:ed)?|re-numbered|numbered|label(?:l)?ed)\s+(?:it\s+|this\s+|them\s+)?as\s+(?:an?\s+)?(?:new\s+)?[*_]*$")
        .expect("introduced-before regex")
});

/// Does the output say, right before `r`, that it numbers this part itself?
pub fn introduced(text: &str, r: &Reference) -> bool {
    INTRODUCED_BEFORE.is_match(around(text, (r.start, r.end), 40, 0).0)
}

/// A line whose label names a statute ("- Companies Act, 2013: … under Section 188"): its
/// references after the label are the statute's sections, not the source's.
static STATUTE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"^[\s>*_#•+-]*(?:[A-Z][\w&.'’-]*\s+)(?:(?:[A-Z][\w&.'’-]*|of|and|the|on|for|to)\s+)*(?:Act|Code|Regulations?|Directive|Ordinance|Statute)(?:,?\s*(?:of\s+)?\d{4})?[*_]*\s*:")
        .expect("statute-label regex")
});

/// Is `r` in a line labelled with a statute's name, after that label?
pub fn under_statute_label(text: &str, r: &Reference) -> bool {
    let line_start = text[..r.start].rfind('\n').map_or(0, |i| i + 1);
    STATUTE_LABEL.find(&text[line_start..r.start]).is_some()
}

fn is_roman(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C'))
}

/// "7.2." → "7.2"; "IV" → "4" in the shared numbering; letters lower case.
pub fn label_key(kind: RefKind, raw: &str) -> String {
    let raw = raw.trim_end_matches('.');
    // A range "22.1-22.2" points at its first part ("2-207" is one label).
    let raw = match raw.split_once('-') {
        Some((a, b)) if a.contains('.') && b.contains('.') => a,
        _ => raw,
    };
    if kind == RefKind::Numbered
        && is_roman(raw)
        && let Some(v) = roman_value(raw)
    {
        return v.to_string();
    }
    raw.to_ascii_lowercase()
}

/// The parts a source numbers: every reference it makes (to itself) and every number that
/// starts a clause. Keys are `(kind, label)`; values the first place, whole-text offsets.
pub fn numbering(text: &str) -> Vec<((RefKind, String), (usize, usize))> {
    let mut out = Vec::new();
    for c in REFERENCE.captures_iter(text) {
        let m = c.get(0).expect("match");
        let kind = RefKind::from_word(c.name("word").expect("group").as_str());
        let raw = c.name("label").expect("group").as_str();
        out.push(((kind, label_key(kind, raw)), (m.start(), m.end())));
    }
    for c in NUMBERING.captures_iter(text) {
        let n = c.name("n").expect("group");
        if page_number(text, n.start(), n.end()) {
            continue;
        }
        out.push((
            (RefKind::Numbered, label_key(RefKind::Numbered, n.as_str())),
            (n.start(), n.end()),
        ));
    }
    out
}

/// Is the undotted number at `start..end` a page number of a table of contents ("1.51 JRDC
/// 13  1.52 Know-How  13  1.53 …", "Defense   46  12.9 Common …"): after a title and two or
/// more spaces, and before two or more spaces and the next entry's number (or the line's
/// end)? A contents page lists every page, so reading those as the source's parts made
/// "Article 43" a part of a contract that has 19 articles.
fn page_number(text: &str, start: usize, end: usize) -> bool {
    let n = &text[start..end];
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let before = text[..start].trim_end_matches([' ', '\t']);
    let gap_before = start - before.len();
    let after = &text[end..];
    let rest = after.trim_start_matches([' ', '\t']);
    let gap_after = after.len() - rest.len();
    let titled = before
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphabetic() || matches!(c, ')' | ']' | '.'));
    gap_before >= 2
        && titled
        && (rest.is_empty()
            || rest.starts_with(['\n', '\r'])
            || (gap_after >= 2 && rest.starts_with(|c: char| c.is_ascii_digit() || c == '*')))
}

/// Does a sub-part label "(b)" occur in `text` from `from`, within `window` bytes?
pub fn has_subpart(text: &str, from: usize, window: usize, part: &str) -> Option<(usize, usize)> {
    let lo = floor_char_boundary(text, from.min(text.len()));
    let hi = floor_char_boundary(text, from.saturating_add(window).min(text.len()));
    for c in SUBPART.captures_iter(&text[lo..hi]) {
        let p = c
            .name("p")
            .or(c.name("q"))
            .or(c.name("r"))
            .or(c.name("s"))
            .expect("group");
        if p.as_str().eq_ignore_ascii_case(part) {
            let m = c.get(0).expect("match");
            return Some((lo + m.start(), lo + m.end()));
        }
    }
    None
}
