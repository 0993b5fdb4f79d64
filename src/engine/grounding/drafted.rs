//! The output's OWN text: clauses it drafts (redlines, added sections, sample language) told
//! apart from what it says about the source, by layout and language rather than by task.
//!
//! A *drafted region* is
//! - a paragraph that opens with a drafting label (`[ADD] New Section 5(a)(iii):`, a line
//!   `Illustrative drafting suggestions (examples)`), and the clause-like paragraphs after it;
//! - a clause-like paragraph: it opens with a clause enumerator (`3.1.3`, `(k)`, `d)`,
//!   `**(ii)**`, `> (iii)`), uses drafting language outside quotation marks (shall, hereby,
//!   means, will, must, agrees) and is not the source's text (its first or last words are not
//!   in the source), unless it attributes something to the source ("Section 5 provides");
//!   paragraphs right after it that also open like clauses (sub-items, block quotes, table
//!   rows) continue it;
//! - an inline `[ADD: …]` / `[INSERT: …]` marker up to its closing bracket;
//! - any extra region the caller already knows is drafted (text under a drafting heading).
//!
//! From the regions, built once per document: their words (to recognise a quote of the
//! output's own clause elsewhere, case-insensitive, piecewise for ellipses), the enumerators and
//! references they introduce (`(k)` → "Section 12(k)", "Exhibit A"), and the terms they define.
//! Linear in the document: every paragraph is read once, each source look-up is one substring
//! search in the source's word index.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::entities::{canon_word, words_key};
use super::references::{self, RefKind};
use super::words::tokens;
use crate::engine::ascii_regex;

/// Regions and what they introduce.
#[derive(Debug, Default)]
pub struct Drafted {
    /// Sorted, non-overlapping.
    regions: Vec<(usize, usize)>,
    /// " w1 w2 … " canonical lower-case words of every region; regions separated by " | ".
    words: String,
    /// Enumerators that open lines inside regions ("k", "ii", "3.1.3", "19").
    enumerators: HashSet<String>,
    /// References made inside regions (the exhibits, sections their clauses introduce), with
    /// where each is made.
    refs: HashMap<(RefKind, String), Vec<(usize, usize)>>,
    /// Defined terms the regions define or use (words key, singular).
    terms: HashSet<String>,
    /// `words` indexed, built the first time a quote is matched loosely (few documents need it).
    index: std::sync::OnceLock<WordIndex>,
}

/// The words of `Drafted::words` in order ("|" between regions) and where each word occurs, so a
/// loose quote match starts only where its first word does.
#[derive(Debug, Default)]
struct WordIndex {
    list: Vec<String>,
    at: HashMap<String, Vec<usize>>,
}

impl WordIndex {
    fn of(words: &str) -> WordIndex {
        let mut x = WordIndex::default();
        for w in words.split(' ').filter(|w| !w.is_empty()) {
            match x.at.get_mut(w) {
                Some(v) => v.push(x.list.len()),
                None => {
                    x.at.insert(w.to_string(), vec![x.list.len()]);
                }
            }
            x.list.push(w.to_string());
        }
        x
    }
}

/// Clause enumerators at the start of a paragraph or line (after `>`, `*`, `_`, spaces).
static CLAUSE_START: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r#"^(?:\(?[a-z]\)|[a-z]\.\s|\([ivxlc]{1,6}\)|[ivxlc]{1,6}\)|\(\d{1,3}\)|\(?[A-Z]\)|\d+(?:\.\d+)+\.?(?:\s|\*|$)|\d+\.\d*\s+\*\*)"#)
        .expect("clause start regex")
});
/// A continuation of a drafted block: clause start, single-level number, block quote, table
/// row, a quoted clause.
static CONTINUES: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r#"^(?:\d{1,3}\.\s|["“]|\|)"#).expect("continuation regex")
});
static DRAFTING: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r"(?i)\b(?:shall|hereby|means|will|must|may|agrees?\s+to|acknowledges?)\b")
        .expect("drafting regex")
});
/// An inline drafting marker with its bracketed text (`[ADD … ]`), on one line. The text is
/// bounded by [`MARKED_CHARS`] after matching: a bound written in the pattern (`{0,4000}`)
/// compiled into four thousand copies of the class, a fifth of an evidence run's startup.
static INLINE_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"\[(?:ADD|ADDED|INSERT|INSERTED|NEW|REVISED|REPLACE|MODIFY|MODIFIED)\b[^\]\n]*\]",
    )
    .expect("inline marker regex")
});
/// The most characters the text after a marker's word holds.
const MARKED_CHARS: usize = 4000;
static DEFINED: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(r#"["“](?P<t>[\w'’&-]+(?:\s+[\w'’&-]+){0,3})["”]"#).expect("defined regex")
});

/// What the builder needs from the caller.
pub struct Inputs<'a> {
    /// Where a line's drafting label ends, if it opens with one (`[ADD] …`, `Proposed clause:`).
    pub label_end: &'a dyn Fn(&str) -> Option<usize>,
    /// A whole line that is a drafting label (`Illustrative drafting suggestions (examples)`).
    pub label_line: &'a dyn Fn(&str) -> bool,
    /// Is this heading line?
    pub is_heading: &'a dyn Fn(usize, usize) -> bool,
    /// Are these canonical words ("w1 w2 …") in the source?
    pub in_source: &'a dyn Fn(&str) -> bool,
    /// Does this text attribute something to the source ("Section 5 provides")?
    pub attributes: &'a dyn Fn(&str) -> bool,
    /// Regions already known to be drafted (under drafting headings).
    pub known: &'a [(usize, usize)],
}

/// Leading markup of a line: spaces, `>`, emphasis, list bullets.
fn strip_markup(line: &str) -> &str {
    &line[crate::engine::document::layout::line_lead(line).markup..]
}

/// The text with quoted passages blanked (drafting words inside a quote are the quote's).
fn unquoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut open: Option<char> = None;
    for ch in s.chars() {
        match (open, ch) {
            (None, '"' | '“') => open = Some(ch),
            (Some('"'), '"') | (Some('“'), '”' | '"') => open = None,
            (None, _) => out.push(ch),
            _ => {}
        }
    }
    out
}

impl Drafted {
    pub fn build(text: &str, body: (usize, usize), inp: &Inputs) -> Drafted {
        let body = (body.0.min(text.len()), body.1.min(text.len()));
        let mut regions: Vec<(usize, usize)> = inp.known.to_vec();
        // Paragraphs: runs of non-blank lines; a heading is a paragraph of its own.
        let mut paras: Vec<(usize, usize, bool)> = Vec::new();
        let mut cur: Option<usize> = None;
        let mut at = body.0;
        for line in text[body.0..body.1].split_inclusive('\n') {
            let ls = at;
            let le = ls + line.trim_end_matches(['\n', '\r']).len();
            at += line.len();
            if line.trim().is_empty() {
                if let Some(s) = cur.take() {
                    paras.push((s, ls, false));
                }
                continue;
            }
            if (inp.is_heading)(ls, le) {
                if let Some(s) = cur.take() {
                    paras.push((s, ls, false));
                }
                paras.push((ls, le, true));
                continue;
            }
            // A new list item or clause line inside a paragraph starts a new paragraph when
            // the lines before it were not clause lines (analysis bullets, then a clause).
            if CLAUSE_START.is_match(strip_markup(line))
                && let Some(s) = cur.take()
            {
                paras.push((s, ls, false));
            }
            cur.get_or_insert(ls);
        }
        if let Some(s) = cur {
            paras.push((s, body.1, false));
        }
        let mut open = false;
        for &(s, e, heading) in &paras {
            if heading {
                let line = &text[s..e];
                if let Some(end) = (inp.label_end)(line) {
                    // A whole bold line "**[ADD] (a) Assignment of Work Product. Consultant
                    // hereby …**" reads as a heading, but after its label it is drafted text.
                    if end < line.len() {
                        regions.push((s + end, e));
                    }
                    open = true;
                } else if (inp.label_line)(line.trim()) {
                    open = true;
                } else if !line.trim_start().starts_with('#')
                    && CLAUSE_START.is_match(strip_markup(line))
                    && !Self::sourced_title(line, inp)
                    && !line.trim_end().trim_end_matches(['*', '_']).ends_with(':')
                {
                    // A numbered bold clause title the source does not have
                    // ("**5.4 Consequences of Failure to Meet Minimum**") opens a clause; a
                    // lettered label ending in a colon ("**(b) Financial Terms:**") heads the
                    // output's own summary.
                    regions.push((s, e));
                    open = true;
                } else if line.trim_start().starts_with('#') {
                    // A markdown heading ends a drafted block; a bold clause title inside it
                    // ("**Service Level Agreement (SLA).**") does not.
                    open = false;
                } else if open {
                    regions.push((s, e));
                }
                continue;
            }
            let para = &text[s..e];
            let first = para.lines().next().unwrap_or("");
            let lead = strip_markup(first);
            // A label line opens a block: the rest of the paragraph and clause-like ones after.
            if let Some(end) = (inp.label_end)(first) {
                let rest_of_line = first[end.min(first.len())..].trim();
                let whole_line = rest_of_line.is_empty() || !para.contains('\n');
                let from = if whole_line && para.contains('\n') {
                    s + first.len()
                } else {
                    s + end.min(first.len())
                };
                regions.push((from.min(e), e));
                open = true;
                continue;
            }
            if (inp.label_line)(first.trim()) {
                regions.push(((s + first.len()).min(e), e));
                open = true;
                continue;
            }
            let clause_like = CLAUSE_START.is_match(lead);
            let plain = unquoted(para);
            let drafting = DRAFTING.is_match(&plain);
            // "1. The Agreement sets an annual minimum fee of …" after a drafted clause is the
            // output's statement of what the source says, not the clause's next item.
            let attributed = (inp.attributes)(&plain)
                || (!clause_like && super::lexicon::states_the_source(lead));
            if open
                && !attributed
                && (clause_like
                    || CONTINUES.is_match(lead)
                    || first.trim_start().starts_with(['>', '|'])
                    || drafting)
            {
                regions.push((s, e));
                continue;
            }
            open = false;
            if clause_like && drafting && !attributed && !Self::sourced(para, inp) {
                regions.push((s, e));
                open = true;
            }
        }
        for m in INLINE_MARKER.find_iter(&text[body.0..body.1]) {
            // `[`, the marker word (capitals), its text, `]`. Bytes bound characters from
            // above, so only a long text is counted.
            let marked = &m.as_str()[1..m.len() - 1];
            let words = marked.trim_start_matches(|c: char| c.is_ascii_uppercase());
            if words.len() <= MARKED_CHARS || words.chars().count() <= MARKED_CHARS {
                regions.push((body.0 + m.start(), body.0 + m.end()));
            }
        }
        regions.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(regions.len());
        for (s, e) in regions {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut d = Drafted {
            regions: merged,
            words: String::from(" "),
            ..Default::default()
        };
        for i in 0..d.regions.len() {
            let (s, e) = d.regions[i];
            let r = &text[s..e];
            for (w, _, _) in tokens(r) {
                d.words.push_str(&canon_word(w));
                d.words.push(' ');
            }
            d.words.push_str("| ");
            for line in r.lines() {
                if let Some(n) = enumerator(strip_markup(line)) {
                    d.enumerators.insert(n);
                }
            }
            for x in references::extract_in(text, (s, e)) {
                d.refs
                    .entry((x.kind, x.label))
                    .or_default()
                    .push((x.start, x.end));
            }
            for c in DEFINED.captures_iter(r) {
                d.terms.insert(singular(&words_key(&c["t"])));
            }
        }
        d
    }

    /// Does a paragraph repeat the source (its first or last eight words are both there)?
    fn sourced(para: &str, inp: &Inputs) -> bool {
        let words: Vec<String> = tokens(para).map(|(w, _, _)| canon_word(w)).collect();
        // Drop a leading enumerator ("3 1 3", "k", "ii").
        let skip = words
            .iter()
            .take_while(|w| {
                w.len() <= 4
                    && (w.chars().all(|c| c.is_ascii_digit())
                        || w.len() == 1
                        || w.chars().all(|c| "ivxlc".contains(c)))
            })
            .count()
            .min(3);
        let words = &words[skip..];
        if words.len() < 6 {
            return false;
        }
        let n = words.len().min(8);
        (inp.in_source)(&words[..n].join(" "))
            && (inp.in_source)(&words[words.len() - n..].join(" "))
    }

    /// Is a clause title the source's (its words, after the number, are there)?
    fn sourced_title(line: &str, inp: &Inputs) -> bool {
        let words: Vec<String> = tokens(line)
            .map(|(w, _, _)| canon_word(w))
            .skip_while(|w| w.chars().all(|c| c.is_ascii_digit()))
            .take(8)
            .collect();
        words.len() < 2 || (inp.in_source)(&words.join(" "))
    }

    pub fn covers(&self, start: usize, end: usize) -> bool {
        let i = self.regions.partition_point(|&(s, _)| s <= start);
        i > 0 && self.regions[i - 1].1 >= end
    }

    pub fn regions(&self) -> &[(usize, usize)] {
        &self.regions
    }

    /// Are all the pieces of this quote (split at ellipses) in the drafted text?
    pub fn has_text(&self, quote: &str) -> bool {
        let pieces: Vec<String> = quote
            .split(['…'])
            .flat_map(|p| p.split("..."))
            .flat_map(|p| p.split("[…]"))
            .map(|p| {
                tokens(p)
                    .map(|(w, _, _)| canon_word(w))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|p| !p.is_empty())
            .collect();
        let total: usize = pieces.iter().map(|p| p.split(' ').count()).sum();
        total >= 3
            && pieces
                .iter()
                .all(|p| self.words.contains(&format!(" {p} ")))
    }

    /// Is this quote the drafted text with a few words dropped ("in connection with the
    /// Consulting Services" for the drafted "in connection with the performance of the
    /// Consulting Services", "to the extent permitted" for "to the fullest extent permitted")?
    /// Four or more words, every one the drafted text's, in order, at most three dropped.
    pub fn has_text_loosely(&self, quote: &str) -> bool {
        const SLACK: usize = 3;
        let q: Vec<String> = tokens(quote).map(|(w, _, _)| canon_word(w)).collect();
        if q.len() < 4 {
            return false;
        }
        let index = self.index();
        let d = &index.list;
        let Some(starts) = index.at.get(&q[0]) else {
            return false;
        };
        starts.iter().any(|&i| {
            let (mut j, mut k, mut slack) = (1, i + 1, SLACK);
            while j < q.len() {
                match d.get(k) {
                    Some(w) if *w == q[j] => j += 1,
                    Some(w) if w != "|" && slack > 0 => slack -= 1,
                    _ => return false,
                }
                k += 1;
            }
            true
        })
    }

    /// Does one drafted region hold every content word of this short quote (3 to 8 words of
    /// four letters or more) in the quote's order, within 30 words? Then the quote sums up
    /// the output's own clause in fewer words ("No material breach, no cost" for its drafted
    /// "If the audit reveals no material breach …, Licensee shall bear no cost"); drafted
    /// words put in another order are not its clause.
    pub fn summarises(&self, quote: &str) -> bool {
        const NEAR: usize = 30;
        let content: Vec<String> = tokens(quote)
            .map(|(w, _, _)| canon_word(w))
            .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
            .collect();
        if !(3..=8).contains(&content.len()) {
            return false;
        }
        let index = self.index();
        let Some(places) = index.at.get(&content[0]) else {
            return false;
        };
        let d = &index.list;
        places.iter().take(64).any(|&i| {
            let mut rest = content[1..].iter();
            let mut want = rest.next();
            for w in d.iter().skip(i + 1).take(NEAR) {
                match want {
                    None => break,
                    Some(_) if w == "|" => return false,
                    Some(c) if c == w => want = rest.next(),
                    Some(_) => {}
                }
            }
            want.is_none()
        })
    }

    fn index(&self) -> &WordIndex {
        self.index.get_or_init(|| WordIndex::of(&self.words))
    }

    /// Do the drafted regions use these words (canonical, lower case) anywhere?
    pub fn mentions(&self, key: &str) -> bool {
        !key.is_empty() && self.words.contains(&format!(" {key} "))
    }

    /// Is `(kind, label)` a part the drafted text numbers or cites ("(k)", "Exhibit A")?
    pub fn introduces(&self, kind: RefKind, label: &str) -> bool {
        self.introduces_where(kind, label, |_| true)
    }

    /// Is `(kind, label)` a part the drafted text numbers (a line opens with it), or cites at
    /// a place `counts` accepts? A caller leaves out citations that are themselves claims
    /// about the source: a sentence stating what the source's Section 99.4 says does not
    /// make 99.4 the output's own number.
    pub fn introduces_where(
        &self,
        kind: RefKind,
        label: &str,
        counts: impl Fn((usize, usize)) -> bool,
    ) -> bool {
        (kind == RefKind::Numbered && self.enumerators.contains(label))
            || self
                .refs
                .get(&(kind, label.to_string()))
                .is_some_and(|at| at.iter().any(|&s| counts(s)))
    }

    /// Is every one of these sub-parts an enumerator the drafted text opens a line with?
    pub fn numbers_parts(&self, parts: &[String]) -> bool {
        !parts.is_empty() && parts.iter().all(|p| self.enumerators.contains(p))
    }

    /// Does the drafted text define or use this term (singular and plural alike)?
    pub fn defines(&self, key: &str) -> bool {
        self.terms.contains(&singular(key))
    }
}

/// "units" → "unit" (the last word only).
fn singular(key: &str) -> String {
    match key.strip_suffix('s') {
        Some(k) if !k.ends_with('s') && k.len() > 2 => k.to_string(),
        _ => key.to_string(),
    }
}

/// The enumerator a line opens with, lower case: "(k)" → "k", "3.1.3" → "3.1.3", "d)" → "d".
fn enumerator(line: &str) -> Option<String> {
    let l = line.trim_start_matches(['(', '*', '_']);
    let n: String = l
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect();
    let n = n.trim_end_matches('.');
    let rest = &l[n.len()..];
    let closes = rest.starts_with(')')
        || rest.starts_with(". ")
        || rest.starts_with(".*")
        || rest.starts_with(' ') && n.contains('.');
    let numeric = !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.');
    let letter = n.len() == 1 && n.chars().all(|c| c.is_ascii_alphabetic())
        || (!n.is_empty() && n.len() <= 6 && n.chars().all(|c| "ivxlc".contains(c)));
    (closes && (numeric || letter)).then(|| n.to_ascii_lowercase())
}

#[cfg(test)]
#[path = "drafted_tests.rs"]
mod tests;
