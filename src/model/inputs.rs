//! The three normalized texts an evaluation is about, and their fingerprint.

use std::sync::Arc;

/// The normalized inputs that are hashed and sent to the evaluator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    pub ai_output: String,
    /// Shared with the companion file's text: every document naming it holds the same copy.
    pub source_document: Arc<str>,
    pub prompt: Arc<str>,
}

impl Inputs {
    pub fn fingerprint(&self) -> String {
        super::integrity::inputs_fingerprint(&self.ai_output, &self.source_document, &self.prompt)
    }
}

/// Trim, line endings to `\n`, everything else verbatim (quotes, clause numbers, disclaimers).
pub fn normalize(text: &str) -> String {
    // Trimming first is the same: both line endings are whitespace either way.
    let text = text.trim();
    if !text.contains('\r') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('\r') {
        out.push_str(&rest[..i]);
        out.push('\n');
        rest = &rest[i + 1..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;

    /// The definition, written the slow way: three copies of the text.
    fn by_definition(text: &str) -> String {
        text.replace("\r\n", "\n")
            .replace('\r', "\n")
            .trim()
            .to_string()
    }

    #[test]
    fn one_pass_matches_the_definition() {
        for t in [
            "",
            "plain",
            "  a\r\nb\rc\n\r d \r\n",
            "\r\r\n\r",
            "x\r\r\ny",
            "\u{a0}é\r\n“q”\r",
            "a\n\rb",
            "\r\n\r\n Title \r\n\r\nBody\r\n",
        ] {
            assert_eq!(normalize(t), by_definition(t), "{t:?}");
        }
        assert_eq!(normalize(" a\r\nb\rc "), "a\nb\nc");
    }
}
