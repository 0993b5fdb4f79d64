//! The engine's regexes read word boundaries (`\b`, `\B`) as ASCII.
//!
//! A Unicode word boundary keeps the regex engine off its fast DFA on any text with a
//! non-ASCII character (curly quotes, `§` and `€` are everywhere in contracts and AI
//! output): it falls back to the PikeVM, 50–100× slower. With ASCII boundaries a
//! letter beyond ASCII next to an ASCII one counts as a boundary; case-insensitive
//! matching, `\w` (unless a playbook's classes are made ASCII too), `\s`, `.` and
//! negated classes stay Unicode.

use regex::Regex;

/// `pattern` with `\b` and `\B` as ASCII boundaries (escapes such as `\\b` survive).
pub fn ascii_boundaries(pattern: &str) -> String {
    rewrite(pattern, false)
}

/// `pattern` with ASCII boundaries and `\w \W \d \D` as ASCII classes, for playbook
/// patterns. Unicode `\w` is a class of some 700 ranges: the lazy DFA's states for the
/// starter rules took twice the memory and time to build, once per thread per process,
/// with the same matches on all 371 corpus outputs. A pattern that needs letters beyond
/// ASCII says so (`\p{L}`).
pub fn ascii_classes(pattern: &str) -> String {
    rewrite(pattern, true)
}

/// One of the engine's own patterns, compiled with ASCII word boundaries.
pub fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&ascii_boundaries(pattern))
}

fn rewrite(pattern: &str, classes: bool) -> String {
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
            Some('w') if classes => out.push_str("[0-9A-Za-z_]"),
            Some('W') if classes => out.push_str("[^0-9A-Za-z_]"),
            Some('d') if classes => out.push_str("[0-9]"),
            Some('D') if classes => out.push_str("[^0-9]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_classes_become_ascii_and_escapes_survive() {
        let a = ascii_classes;
        assert_eq!(a(r"\bis\b"), r"(?-u:\b)is(?-u:\b)");
        assert_eq!(a(r"\\b\Bx\d"), r"\\b(?-u:\B)x[0-9]");
        assert_eq!(a(r"[\w'-]+\W\D"), r"[[0-9A-Za-z_]'-]+[^0-9A-Za-z_][^0-9]");
        assert_eq!(a(r"\s\S\p{L}\\w"), r"\s\S\p{L}\\w");
        let re = |p: &str| Regex::new(&format!("(?i){}", a(p))).unwrap();
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

    #[test]
    fn boundaries_only_keep_unicode_classes() {
        assert_eq!(
            ascii_boundaries(r"\b\w+\d\\b\B"),
            r"(?-u:\b)\w+\d\\b(?-u:\B)"
        );
        let re = compile(r"\b(?P<n>\w+)\b").unwrap();
        // `\w` still takes letters beyond ASCII; only the boundary is ASCII, so a word
        // that ends with one ends at its last ASCII letter.
        assert_eq!(&re.captures("“Cafés”").unwrap()["n"], "Cafés");
        assert_eq!(&re.captures("“Société”").unwrap()["n"], "Sociét");
        assert!(compile(r"\bUSD\b").unwrap().is_match("€12 or USD 14"));
        assert!(!compile(r"\bUSD\b").unwrap().is_match("USDT"));
        assert!(compile(r"(unclosed").is_err());
    }
}
