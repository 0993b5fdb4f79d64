//! What a misquote changed: the quoted words against the text's own, word by word.

use similar::{ChangeTag, TextDiff};

/// A word diff in `git diff --word-diff` style: `[-words the text has-]` where the quote
/// dropped or changed them, `{+words the quote added+}`. Whitespace differences are not
/// shown; unchanged words stay as they are.
pub fn word_diff(quoted: &str, text: &str) -> String {
    let diff = TextDiff::from_words(text, quoted);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let value = change.value();
        match change.tag() {
            ChangeTag::Equal => out.push_str(value),
            _ if value.trim().is_empty() => out.push_str(value),
            ChangeTag::Delete => {
                out.push_str("[-");
                out.push_str(value);
                out.push_str("-]");
            }
            ChangeTag::Insert => {
                out.push_str("{+");
                out.push_str(value);
                out.push_str("+}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_word_and_an_inserted_word_are_marked() {
        let text = "The Supplier shall promptly notify the Customer in writing.";
        let quoted = "The Supplier shall notify the Customer immediately in writing.";
        assert_eq!(
            word_diff(quoted, text),
            "The Supplier shall [-promptly-] notify the Customer {+immediately+} in writing."
        );
    }

    #[test]
    fn identical_text_has_no_marks() {
        let t = "no change here";
        assert_eq!(word_diff(t, t), t);
    }
}
