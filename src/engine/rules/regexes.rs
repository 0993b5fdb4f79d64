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
    // Each pattern alone is only parsed (cheap; compiling is what costs), so an error
    // names its index; `a)|(b` must not pass by combining with its neighbour.
    for (i, p) in patterns.iter().enumerate() {
        if let Err(e) = regex_syntax::Parser::new().parse(p) {
            return Err(RuleError::at(
                vec![Seg::key(key), Seg::Index(i)],
                format!("invalid regex in `{key}`: {e}"),
            ));
        }
    }
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
}
