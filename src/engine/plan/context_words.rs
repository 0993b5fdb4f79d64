//! The words the notes reader looks for, as data (`notes_words.toml`): each list a pattern,
//! what it means, and examples it must find and must not, which a test runs.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
// What the list means and its examples are read by the test of the examples.
#[cfg_attr(not(test), allow(dead_code))]
struct Entry {
    about: String,
    pattern: String,
    #[serde(default)]
    matches: Vec<String>,
    #[serde(default)]
    rejects: Vec<String>,
}

static ENTRIES: LazyLock<HashMap<String, Entry>> = LazyLock::new(|| {
    toml::from_str(include_str!("notes_words.toml")).expect("notes_words.toml parses")
});

/// The list `name` of `notes_words.toml`, compiled.
pub(in crate::engine::plan) fn words(name: &str) -> Regex {
    let entry = ENTRIES
        .get(name)
        .unwrap_or_else(|| panic!("notes_words.toml has no list `{name}`"));
    super::re(&entry.pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_finds_its_examples_and_not_its_counter_examples() {
        assert!(!ENTRIES.is_empty());
        for (name, entry) in ENTRIES.iter() {
            let re = words(name);
            assert!(
                !entry.about.trim().is_empty(),
                "`{name}` says what it means"
            );
            assert!(
                !entry.matches.is_empty() && !entry.rejects.is_empty(),
                "`{name}` needs examples both ways"
            );
            for m in &entry.matches {
                assert!(re.is_match(m), "`{name}` should find {m:?}");
            }
            for r in &entry.rejects {
                assert!(!re.is_match(r), "`{name}` should not find {r:?}");
            }
        }
    }
}
