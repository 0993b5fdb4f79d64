//! AI-output documents: front matter, companions, normalization (SPEC §2).

/// The normalized inputs that are hashed and sent to the evaluator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    pub ai_output: String,
    pub source_document: String,
    pub prompt: String,
}
