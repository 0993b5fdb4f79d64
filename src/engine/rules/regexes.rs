//! Regex lists of rule parameters: validated one by one (so an error names the index),
//! then joined into one case-insensitive alternation with ASCII word classes and
//! boundaries (see [`ascii_classes`]).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use regex::Regex;

use crate::engine::ascii_regex::ascii_classes;

use super::kind::{RuleError, Seg};

/// Upper bound of one rule regex's lazy DFA cache (per thread).
const DFA_CACHE_BYTES: usize = 32 << 20;

pub fn compile_all(key: &str, patterns: &[String]) -> Result<Option<Regex>, RuleError> {
    parse_each(key, patterns)?;
    if patterns.is_empty() {
        return Ok(None);
    }
    let joined = patterns
        .iter()
        .map(|p| format!("(?:{})", ascii_classes(p)))
        .collect::<Vec<_>>()
        .join("|");
    let pattern = format!("(?i){joined}");
    match shared(&pattern) {
        Some(re) => Ok(Some(re)),
        None => build(&pattern).map(Some).map_err(|e| {
            RuleError::at(
                vec![Seg::key(key)],
                format!("`{key}` patterns do not combine: {e}"),
            )
        }),
    }
}

/// Patterns one alternation holds at most in [`compile_groups`].
const GROUP: usize = 17;

/// A long pattern list as several alternations searched side by side with the matches of one
/// alternation of them all (leftmost first; at one start, the pattern listed first). The lazy
/// DFA of one alternation of fifty patterns with gaps (`[^.\n]*?`, `(?:\w+\s+){0,3}?`)
/// builds states for every combination of partial matches it meets: three of seventeen each
/// built and searched in 40 ms where the one took 72 ms over the corpus, cold.
#[derive(Debug, Clone)]
pub struct Alternation(Vec<Regex>);

impl Alternation {
    /// The non-overlapping matches, as `(start, end)`, in text order.
    pub fn find_iter<'h>(&'h self, hay: &'h str) -> impl Iterator<Item = (usize, usize)> + 'h {
        let mut next: Vec<Option<(usize, usize)>> = vec![None; self.0.len()];
        let mut at = 0;
        let mut fresh = false;
        let mut last_end = None;
        std::iter::from_fn(move || {
            loop {
                if at > hay.len() {
                    return None;
                }
                for (i, re) in self.0.iter().enumerate() {
                    if !fresh || next[i].is_some_and(|(s, _)| s < at) {
                        next[i] = re.find_at(hay, at).map(|m| (m.start(), m.end()));
                    }
                }
                fresh = true;
                // Earliest start; at one start the earlier group, whose patterns come first.
                let (s, e) = next.iter().flatten().copied().min_by_key(|&(s, _)| s)?;
                at = if e > s { e } else { next_char(hay, e) };
                // As the regex crate does: no empty match right where the last one ended.
                if e == s && last_end == Some(s) {
                    continue;
                }
                last_end = Some(e);
                return Some((s, e));
            }
        })
    }
}

/// The byte after the character at `i` (an empty match moves on by one character).
fn next_char(hay: &str, i: usize) -> usize {
    i + hay[i..].chars().next().map_or(1, char::len_utf8)
}

/// [`compile_all`] for a long list: alternations of at most [`GROUP`] patterns each.
pub fn compile_groups(key: &str, patterns: &[String]) -> Result<Option<Alternation>, RuleError> {
    // Every pattern is checked first, so an error names its index in the whole list.
    parse_each(key, patterns)?;
    let groups = patterns.len().div_ceil(GROUP).max(1);
    let size = patterns.len().div_ceil(groups).max(1);
    let compiled: Result<Vec<Regex>, RuleError> = patterns
        .chunks(size)
        .filter_map(|chunk| compile_all(key, chunk).transpose())
        .collect();
    compiled.map(|v| (!v.is_empty()).then_some(Alternation(v)))
}

/// Each pattern alone is only parsed (cheap; compiling is what costs), so an error names its
/// index; `a)|(b` must not pass by combining with its neighbour.
fn parse_each(key: &str, patterns: &[String]) -> Result<(), RuleError> {
    for (i, p) in patterns.iter().enumerate() {
        if let Err(e) = regex_syntax::Parser::new().parse(p) {
            return Err(RuleError::at(
                vec![Seg::key(key), Seg::Index(i)],
                format!("invalid regex in `{key}`: {e}"),
            ));
        }
    }
    Ok(())
}

/// The lazy DFA's cache: gap patterns (`[^.\n]{0,120}?`) make many states, and with the
/// default 2 MB cache the DFA was cleared and rebuilt over and over (most of the corpus
/// run's time). The cache is per thread and grows only as states are met.
fn build(pattern: &str) -> Result<Regex, regex::Error> {
    regex::RegexBuilder::new(pattern)
        .dfa_size_limit(DFA_CACHE_BYTES)
        .build()
}

/// Alternations compiled once per process by their text: checks that share a vocabulary (or
/// repeat a list) compile it once, and a second thread asking while the first compiles waits
/// for it. A clone shares the compiled program and keeps its own match caches. `None` when the
/// pattern does not compile (the caller builds it again for the error).
fn shared(pattern: &str) -> Option<Regex> {
    /// More distinct alternations than any playbook has; an editor recompiling a playbook as
    /// it is typed starts over when they are reached.
    const KEPT: usize = 64;
    type Slot = Arc<OnceLock<Option<Regex>>>;
    static COMPILED: LazyLock<Mutex<HashMap<String, Slot>>> = LazyLock::new(Default::default);
    let slot = {
        let mut map = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= KEPT && !map.contains_key(pattern) {
            map.clear();
        }
        Arc::clone(map.entry(pattern.to_string()).or_default())
    };
    slot.get_or_init(|| build(pattern).ok()).clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bad_pattern_is_named_by_index_even_when_the_alternation_would_parse() {
        let list = |ps: &[&str]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        // `a)|(b` and its neighbour would combine into a valid `(?:a)|(b)`-like regex.
        let e = super::compile_all("patterns", &list(&["ok", "a)|(b"])).unwrap_err();
        assert_eq!(e.path.len(), 2, "{:?}", e.path);
        assert!(
            e.message.contains("invalid regex in `patterns`"),
            "{}",
            e.message
        );
        let e = super::compile_all("patterns", &list(&["(unclosed"])).unwrap_err();
        assert!(e.message.contains("unclosed group"), "{}", e.message);
        let re = super::compile_all("patterns", &list(&["alpha", r"\bbeta\b"])).unwrap();
        assert!(re.unwrap().is_match("BETA"));
    }

    #[test]
    fn groups_match_as_one_alternation_does() {
        let list = |ps: &[&str]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        // Ties at one start (the earlier pattern wins), overlaps, gaps, an empty match,
        // anchors and boundaries, over more patterns than one group holds.
        let mut ps = vec![
            r"\bnot\s+checked\b",
            r"\bnot\b",
            r"checked\s+\w+",
            r"^intro",
            r"x*",
            r"\bexhibits?\b[^.\n]*?\bnot\s+provided\b",
            r"(?m)^[-*]\s+unclear",
            r"\bprovided\b",
            r"é+",
            r"\b(?:we|I)\s+did\s+not\s+review\b",
        ];
        for i in 0..30 {
            ps.push(if i % 2 == 0 {
                "\\bword\\b"
            } else {
                "\\bother\\s+word\\b"
            });
        }
        let ps = list(&ps);
        let one = super::compile_all("p", &ps).unwrap().unwrap();
        let groups = super::compile_groups("p", &ps).unwrap().unwrap();
        assert!(groups.0.len() > 1, "the list is split");
        for hay in [
            "intro: not checked here; Exhibit A was not provided. We did not review it.",
            "- unclear whether\n* unclear which other word word é é provided",
            "",
            "xx not checked checked things not",
        ] {
            let want: Vec<(usize, usize)> =
                one.find_iter(hay).map(|m| (m.start(), m.end())).collect();
            let got: Vec<(usize, usize)> = groups.find_iter(hay).collect();
            assert_eq!(got, want, "{hay:?}");
        }
    }
}
