//! Facts an output can state about its source: amounts, percentages, durations, dates,
//! defined terms, organisations and people, each with a normalized form so that
//! "$1,000,000" = "USD 1 million" = "one million dollars" and "90 days" = "ninety (90) days".
//!
//! `extract` is linear in its input (each regex runs once over the text).

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::numbers::{NUMBER_WORDS, fmt_value, multiplier, parse_digits, parse_number};
use super::org_names::plausible_org_name;
use super::words::tokens;
use crate::engine::ascii_regex;

/// What an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityKind {
    /// "$1,000,000", "USD 1 million", "one million dollars" → `USD 1000000`.
    Money,
    /// "5%", "five percent", "a 15-percent discount", "fifteen per cent (15%)" → `5%`.
    Percent,
    /// "90 days", "ninety (90) days", "90-day" (any hyphen), "5 yrs" → `90 day`, `5 year`;
    /// "Net 90", "the 90th day" → `90 day`, "the fifth anniversary" → `5 year`, "a fortnight"
    /// → `14 day` (`periods`).
    Duration,
    /// "January 15, 2024", "15 January 2024", "2024-01-15", "1/15/2024" → `2024-01-15`.
    Date,
    /// A capitalised term of up to four words in quotation marks (double, or single ones that
    /// are no apostrophe), emphasis inside them allowed: "Confidential Information",
    /// "**Change in Control**", ‘Holdback Amount’ → `confidential information`.
    DefinedTerm,
    /// A name with a corporate suffix ("Acme Corp." → `acme corp`) or a group word that only
    /// a company's name ends with ("Corvel Group", "Ardent Holdings").
    Organization,
    /// A name after an honorific: "Dr. Jane Smith" → `jane smith` (and, read with the texts'
    /// vocabulary, a name without one: see `names`).
    Person,
    /// A statute or case citation: "15 U.S.C. § 78j" → `15 u s c s 78j` (see `citations`).
    LegalCitation,
}

impl EntityKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Money => "amount",
            EntityKind::Percent => "percentage",
            EntityKind::Duration => "duration",
            EntityKind::Date => "date",
            EntityKind::DefinedTerm => "defined term",
            EntityKind::Organization => "organisation",
            EntityKind::Person => "person",
            EntityKind::LegalCitation => "legal citation",
        }
    }

    /// Compared by value (normalized form) rather than by words.
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            EntityKind::Money | EntityKind::Percent | EntityKind::Duration | EntityKind::Date
        )
    }
}

/// One entity, with whole-text byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    pub kind: EntityKind,
    pub start: usize,
    pub end: usize,
    /// The words as written.
    pub text: String,
    /// The comparable form (see `EntityKind`).
    pub normalized: String,
}

const MONTHS: &str = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";

fn words_re() -> String {
    format!(r"{NUMBER_WORDS}(?:[\s-]+(?:{NUMBER_WORDS}|and\s+{NUMBER_WORDS}))*")
}

static MONEY_SYMBOL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)(?P<cur>US\$|\$|USD|EUR|€|£|GBP|RMB|CNY|INR|Rs\.?|¥|JPY|CAD|AUD)\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s*(?P<mult>million|billion|thousand|mm|mn|bn|m|k)\b)?")
        .expect("money regex")
});
static MONEY_WORD: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)\b(?P<num>\d[\d,]*(?:\.\d+)?|{w})(?:\s+(?P<mult>million|billion|thousand))?\s+(?P<cur>U\.?S\.?\s+dollars|United\s+States\s+dollars|dollars|USD|euros?|EUR|pounds(?:\s+sterling)?|GBP|RMB|yuan|rupees|INR)\b",
        w = words_re()
    ))
    .expect("money words regex")
});
static PERCENT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)(?:\b(?P<num>\d+(?:\.\d+)?)\s*(?:%|[\s-](?:percent(?:age\s+points?)?|per\s+cent)\b)|\b(?P<words>{w})[\s-]+(?:percent(?:age\s+points?)?|per\s+cent)\b)",
        w = words_re()
    ))
    .expect("percent regex")
});
static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)\b(?P<num>\d+(?:\.\d+)?|{w})(?:\s*\((?P<paren>\d+)\))?[\s\-\u{{2010}}\u{{2011}}]*(?P<unit>business\s+days?|working\s+days?|calendar\s+days?|days?|weeks?|months?|quarters?|years?|hours?|yrs?|mos|mths?|wks?|hrs?)\b",
        w = words_re()
    ))
    .expect("duration regex")
});
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(&format!(
        r"(?i)\b(?:(?P<m1>{MONTHS})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?[,.]?\s+(?P<y1>(?:19|20)\d{{2}})|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?(?P<m2>{MONTHS})\.?,?\s+(?P<y2>(?:19|20)\d{{2}})|(?P<y3>(?:19|20)\d{{2}})-(?P<m3>\d{{2}})-(?P<d3>\d{{2}})|(?P<m4>\d{{1,2}})/(?P<d4>\d{{1,2}})/(?P<y4>(?:19|20)\d{{2}}))\b"
    ))
    .expect("date regex")
});
static TERM: LazyLock<Regex> = LazyLock::new(|| {
    const RUN: &str = r"[A-Z][\w'’&-]*(?:\s+(?:of|and|or|the|for|to|in|on|[A-Z][\w'’&-]*)){0,3}";
    const EM: &str = r"(?:\*\*|__|[*_])?";
    // Double quotes, or single ones opening after a space or parenthesis and closing before
    // a non-letter (so an apostrophe is neither).
    ascii_regex::compile(&format!(
        r#"["“]{EM}(?P<t>{RUN}){EM}["”]|(?:^|[\s(])['‘]{EM}(?P<s>{RUN}){EM}['’](?:[^\w'’]|$)"#
    ))
    .expect("term regex")
});
static ORG: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"\b(?P<name>(?:[A-Z][\w&'’.-]*,?\s+)(?:(?:[A-Z][\w&'’.-]*|&),?\s+){0,4})(?P<suf>Inc\.?|Incorporated|LLC|L\.L\.C\.|Ltd\.?|Limited|Corporation|Corp\.?|LLP|L\.P\.|LP|PLLC|GmbH|PLC|plc|N\.A\.|N\.V\.|S\.A\.|S\.p\.A\.|SAS|AG|AB|B\.V\.|Pty|Pte|Co\.|Holdings|Group|Partners|Ventures)")
        .expect("organisation regex")
});
static PERSON: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"\b(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+(?:\*\*|__)?(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})",
    )
    .expect("person regex")
});

/// Every entity in `text`, in text order.
pub fn extract(text: &str) -> Vec<Entity> {
    extract_in(text, (0, text.len()))
}

/// Entities inside `text[range.0..range.1]`, with whole-text offsets. A bad range is clamped.
pub fn extract_in(text: &str, range: (usize, usize)) -> Vec<Entity> {
    let end = floor(text, range.1.min(text.len()));
    let start = floor(text, range.0.min(end));
    let hay = &text[start..end];
    let mut out = Vec::new();
    let mut push = |kind, s: usize, e: usize, normalized: Option<String>| {
        if let Some(normalized) = normalized {
            out.push(Entity {
                kind,
                start: start + s,
                end: start + e,
                text: hay[s..e].to_string(),
                normalized,
            });
        }
    };
    for c in MONEY_SYMBOL.captures_iter(hay) {
        let m = c.get(0).expect("match");
        // "hours.\n3" is not "Rs. 3": a currency word must start a word.
        let cur = c.name("cur").expect("group").as_str();
        if cur.starts_with(char::is_alphabetic)
            && hay[..m.start()]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
        {
            continue;
        }
        push(EntityKind::Money, m.start(), m.end(), money(&c));
    }
    for c in MONEY_WORD.captures_iter(hay) {
        let m = c.get(0).expect("match");
        push(EntityKind::Money, m.start(), m.end(), money(&c));
    }
    for c in PERCENT.captures_iter(hay) {
        let m = c.get(0).expect("match");
        let v = c
            .name("num")
            .or(c.name("words"))
            .and_then(|n| parse_number(n.as_str()));
        push(
            EntityKind::Percent,
            m.start(),
            m.end(),
            v.map(|v| format!("{}%", fmt_value(v))),
        );
    }
    for c in DURATION.captures_iter(hay) {
        let m = c.get(0).expect("match");
        // "three quarters of the fee" is a share, not a period.
        let unit = c.name("unit").map_or("", |u| u.as_str());
        let of = hay[m.end()..].trim_start().starts_with("of ");
        if unit.to_ascii_lowercase().starts_with("quarter") && of {
            continue;
        }
        push(EntityKind::Duration, m.start(), m.end(), duration(&c));
    }
    for (s, e, norm) in super::periods::periods(hay) {
        push(EntityKind::Duration, s, e, Some(norm));
    }
    for c in DATE.captures_iter(hay) {
        let m = c.get(0).expect("match");
        push(EntityKind::Date, m.start(), m.end(), date(&c));
    }
    for c in TERM.captures_iter(hay) {
        let t = c.name("t").or(c.name("s")).expect("group");
        push(
            EntityKind::DefinedTerm,
            t.start(),
            t.end(),
            Some(words_key(t.as_str())),
        );
    }
    for c in ORG.captures_iter(hay) {
        let m = c.get(0).expect("match");
        // "AGENTS" is not "AG": the suffix must end a word.
        let glued = hay[m.end()..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric);
        let name = c.name("name").expect("group").as_str();
        // A sentence or list break inside the run starts the name after it: "Texas. If Apex
        // Consulting Group LLC" is "Apex Consulting Group LLC" ("U.S. Bank N.A." stays whole).
        let cut = name
            .char_indices()
            .rev()
            .find(|&(i, ch)| {
                let next_space = name[i + 1..].starts_with(' ') && !name[i + 1..].trim().is_empty();
                let prev_lower = name[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_lowercase);
                next_space && (ch == ',' || (ch == '.' && prev_lower))
            })
            .map_or(0, |(i, _)| i + 1);
        // A blank line ends a paragraph: the name starts after it.
        let cut = cut.max(name.rfind("\n\n").map_or(0, |i| i + 2));
        let mut cut = cut + (name[cut..].len() - name[cut..].trim_start().len());
        // Sentence words before the name: "If Apex …", "Under Acme …".
        const LEADING: &[&str] = &[
            "If ", "The ", "Under ", "When ", "While ", "As ", "By ", "Between ", "And ", "With ",
            "From ", "For ", "To ", "Of ", "Both ", "Per ", "Whereas ",
        ];
        while let Some(w) = LEADING.iter().find(|w| name[cut..].starts_with(**w)) {
            if name[cut + w.len()..].trim().is_empty() {
                break;
            }
            cut += w.len();
        }
        let s = m.start() + cut;
        if glued || !plausible_org_name(&name[cut..]) {
            continue;
        }
        push(
            EntityKind::Organization,
            s,
            m.end(),
            Some(org_key(&hay[s..m.end()])),
        );
    }
    for c in super::citations::legal_citations(hay, (0, hay.len())) {
        let key = super::citations::key(&c.text).trim().to_string();
        push(EntityKind::LegalCitation, c.start, c.end, Some(key));
    }
    for c in PERSON.captures_iter(hay) {
        let n = c.name("name").expect("group");
        push(
            EntityKind::Person,
            n.start(),
            n.end(),
            Some(words_key(n.as_str())),
        );
    }
    out.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
    dedupe(out)
}

static PDF_ORDINAL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"\b(\d{1,2})(s t|n d|r d|t h)\b").expect("ordinal split regex")
});

/// The source text as values are read from it, same length and offsets: brackets around
/// figures dropped ("[eighteen (18)] months") and ordinals split by PDF conversion rejoined
/// ("19t h day of March" → "19th  day").
pub fn clean_for_values(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if c == '[' || c == ']' { ' ' } else { c })
        .collect();
    let fixes: Vec<(usize, String)> = PDF_ORDINAL
        .captures_iter(&s)
        .map(|c| {
            let g = c.get(2).expect("group");
            (g.start(), format!("{} ", g.as_str().replace(' ', "")))
        })
        .collect();
    for (at, rep) in fixes {
        s.replace_range(at..at + rep.len(), &rep);
    }
    s
}

/// A rounded figure as written: "$21.6M" → (21.6, 1 decimal, 1e6). Only figures with at most
/// three significant digits and a multiplier suffix.
pub fn rounded_figure(text: &str) -> Option<(f64, usize, f64)> {
    static FIG: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex::compile(r"(?i)(?P<int>\d{1,3})(?:\.(?P<dec>\d{1,2}))?\s*(?P<mult>million|billion|thousand|mm|mn|bn|m|k)\b")
            .expect("figure regex")
    });
    let c = FIG.captures(text)?;
    let int = &c["int"];
    let dec = c.name("dec").map_or("", |d| d.as_str());
    let digits = format!("{int}{dec}");
    let sig = digits.trim_start_matches('0').trim_end_matches('0').len();
    if sig == 0 || sig > 3 {
        return None;
    }
    let mantissa: f64 = format!("{int}.{dec}0").parse().ok()?;
    Some((mantissa, dec.len(), multiplier(&c["mult"])?))
}

/// "One Million Dollars ($1,000,000)": the figure in parentheses repeats the words; and a
/// match inside a longer one of the same kind (a money regex overlap) is the same claim.
fn dedupe(v: Vec<Entity>) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::with_capacity(v.len());
    for e in v {
        let dup = out.iter().rev().take(4).any(|p| {
            p.kind == e.kind
                && ((e.start >= p.start && e.end <= p.end)
                    || (p.normalized == e.normalized && e.start >= p.end && e.start - p.end <= 3))
        });
        if !dup {
            out.push(e);
        }
    }
    out
}

fn currency(s: &str) -> &'static str {
    let s = s.to_ascii_lowercase();
    match s.as_str() {
        "$" | "us$" | "usd" => "USD",
        x if x.contains("dollar") => "USD",
        "€" | "eur" | "euro" | "euros" => "EUR",
        "£" | "gbp" => "GBP",
        x if x.starts_with("pound") => "GBP",
        "rmb" | "cny" | "yuan" => "CNY",
        "inr" | "rs" | "rs." | "rupees" => "INR",
        "¥" | "jpy" => "JPY",
        "cad" => "CAD",
        "aud" => "AUD",
        _ => "?",
    }
}

fn money(c: &Captures) -> Option<String> {
    let mut v = parse_number(c.name("num")?.as_str())?;
    if let Some(m) = c.name("mult") {
        v *= multiplier(m.as_str())?;
    }
    Some(format!(
        "{} {}",
        currency(c.name("cur")?.as_str()),
        fmt_value(v)
    ))
}

fn duration(c: &Captures) -> Option<String> {
    let v = match c.name("paren") {
        Some(p) => parse_digits(p.as_str())?,
        None => parse_number(c.name("num")?.as_str())?,
    };
    let unit = c.name("unit")?.as_str().to_ascii_lowercase();
    let unit = unit.split_whitespace().collect::<Vec<_>>();
    let base = unit.last()?.trim_end_matches('s');
    // Abbreviations ("5 yrs", "3 mos", "48 hrs") read as the words.
    let (v, base) = match base {
        // A quarter is three months ("five quarters" is "15 months").
        "quarter" => (v * 3.0, "month"),
        b => (v, b),
    };
    let base = match base {
        "yr" => "year",
        "mo" | "mth" => "month",
        "wk" => "week",
        "hr" => "hour",
        b => b,
    };
    let unit = match unit.first().copied() {
        Some("business" | "working") => "business day".to_string(),
        _ => base.to_string(),
    };
    Some(format!("{} {unit}", fmt_value(v)))
}

fn month_number(m: &str) -> Option<u32> {
    let m = m.to_ascii_lowercase();
    let names = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    names
        .iter()
        .position(|n| m.starts_with(n))
        .map(|i| i as u32 + 1)
}

fn date(c: &Captures) -> Option<String> {
    let g = |n: &str| c.name(n).map(|m| m.as_str());
    let (y, m, d) = if let Some(y) = g("y1") {
        (y, month_number(g("m1")?)?, g("d1")?)
    } else if let Some(y) = g("y2") {
        (y, month_number(g("m2")?)?, g("d2")?)
    } else if let Some(y) = g("y3") {
        (y, g("m3")?.parse().ok()?, g("d3")?)
    } else {
        (g("y4")?, g("m4")?.parse().ok()?, g("d4")?)
    };
    let d: u32 = d.parse().ok()?;
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| format!("{y}-{m:02}-{d:02}"))
}

/// Lower case, punctuation dropped, words single-spaced: "Confidential  Information" →
/// `confidential information`.
pub fn words_key(s: &str) -> String {
    tokens(s)
        .map(|(w, _, _)| canon_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An organisation's key: leading "The" dropped, the suffix in one spelling.
fn org_key(s: &str) -> String {
    let k = words_key(s);
    k.strip_prefix("the ").map(str::to_string).unwrap_or(k)
}

/// One spelling per corporate suffix, so "Acme Corporation" = "ACME Corp.".
pub fn canon_word(w: String) -> String {
    match w.as_str() {
        "corporation" => "corp".into(),
        "incorporated" => "inc".into(),
        "limited" => "ltd".into(),
        _ => w,
    }
}

fn floor(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
