//! Regex lists of rule parameters: validated one by one (so an error names the index),
//! then joined into one case-insensitive alternation with ASCII word boundaries.

use regex::Regex;

use super::kind::{RuleError, Seg};

/// Compile a list of regexes (case-insensitive unless they say otherwise) into one alternation.
/// `\b`/`\B` → their ASCII forms. A Unicode word boundary keeps the regex engine off its
/// fast DFA on any non-ASCII text (curly quotes are everywhere in AI output): 50–100× slower
/// on the starter rules, for no difference on English words.
pub fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

pub fn compile_all(key: &str, patterns: &[String]) -> Result<Option<Regex>, RuleError> {
    for (i, p) in patterns.iter().enumerate() {
        if let Err(e) = Regex::new(p) {
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
        .map(|p| format!("(?:{})", ascii_word_boundaries(p)))
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&format!("(?i){joined}")).map(Some).map_err(|e| {
        RuleError::at(
            vec![Seg::key(key)],
            format!("`{key}` patterns do not combine: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn word_boundaries_become_ascii_and_escapes_survive() {
        use super::ascii_word_boundaries as a;
        assert_eq!(a(r"\bis\b"), r"(?-u:\b)is(?-u:\b)");
        assert_eq!(a(r"\\b\Bx\d"), r"\\b(?-u:\B)x\d");
        let re = regex::Regex::new(&format!("(?i){}", a(r"\bguarantee\b"))).unwrap();
        assert!(re.is_match("“guarantee”"));
        assert!(!re.is_match("guarantees"));
    }
}
