//! Regex lists of rule parameters: validated one by one (so an error names the index),
//! then joined into one case-insensitive alternation with ASCII word classes.

use regex::Regex;

use super::kind::{RuleError, Seg};

/// Rule regexes read `\b \B \w \W \d \D` as ASCII (case-insensitive matching stays
/// Unicode; `\s`, `.` and negated classes still match any character).
///
/// A Unicode word boundary keeps the regex engine off its fast DFA on any non-ASCII
/// text (curly quotes are everywhere in AI output): 50–100× slower on the starter rules.
/// Unicode `\w` is a class of some 700 ranges: the lazy DFA's states for the starter
/// rules took twice the memory and time to build, once per thread per process, with
/// the same matches on all 371 corpus outputs. A pattern that needs letters beyond
/// ASCII says so (`\p{L}`).
pub fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // A nested class is valid inside a class too (`[\w'-]` → `[[0-9A-Za-z_]'-]`).
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

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
    // The lazy DFA's cache: gap patterns (`[^.\n]{0,120}?`) make many states, and with the
    // default 2 MB cache the DFA was cleared and rebuilt over and over (most of the corpus
    // run's time). The cache is per thread and grows only as states are met.
    regex::RegexBuilder::new(&format!("(?i){joined}"))
        .dfa_size_limit(DFA_CACHE_BYTES)
        .build()
        .map(Some)
        .map_err(|e| {
            RuleError::at(
                vec![Seg::key(key)],
                format!("`{key}` patterns do not combine: {e}"),
            )
        })
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
    fn word_classes_become_ascii_and_escapes_survive() {
        use super::ascii_classes as a;
        assert_eq!(a(r"\bis\b"), r"(?-u:\b)is(?-u:\b)");
        assert_eq!(a(r"\\b\Bx\d"), r"\\b(?-u:\B)x[0-9]");
        assert_eq!(a(r"[\w'-]+\W\D"), r"[[0-9A-Za-z_]'-]+[^0-9A-Za-z_][^0-9]");
        assert_eq!(a(r"\s\S\p{L}\\w"), r"\s\S\p{L}\\w");
        let re = |p: &str| regex::Regex::new(&format!("(?i){}", a(p))).unwrap();
        assert!(re(r"\bguarantee\b").is_match("“guarantee”"));
        assert!(!re(r"\bguarantee\b").is_match("guarantees"));
        // ASCII word characters; Unicode case folding, spaces and negated classes.
        assert!(re(r"^\w+$").is_match("Clause_12"));
        assert!(!re(r"^\w+$").is_match("résumé"));
        assert!(re(r"^[^\w]+$").is_match("é“”"));
        assert!(re(r"^\W$").is_match("é"));
        assert!(re(r"^\d\s\S$").is_match("7\u{a0}é"));
        assert!(!re(r"^\d$").is_match("٣"));
        assert!(re(r"^é\w$").is_match("Éx"), "case folding stays Unicode");
    }
}
