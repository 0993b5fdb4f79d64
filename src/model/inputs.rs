//! The three normalized texts an evaluation is about, and their fingerprint.

/// The normalized inputs that are hashed and sent to the evaluator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    pub ai_output: String,
    pub source_document: String,
    pub prompt: String,
}

impl Inputs {
    pub fn fingerprint(&self) -> String {
        super::integrity::inputs_fingerprint(&self.ai_output, &self.source_document, &self.prompt)
    }
}

/// Trim, line endings to `\n`, everything else verbatim (quotes, clause numbers, disclaimers).
pub fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .trim()
        .to_string()
}
