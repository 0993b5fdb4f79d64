//! Seed 000's system and user prompts, with the document fenced as untrusted data.
use super::CheckPrompt;
use crate::document::Inputs;
use crate::playbook::Check;

/// A locally found span handed to the evaluator (hybrid checks).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub text: String,
    pub note: String,
    /// 1-based line in the whole document.
    pub line: u32,
}

pub fn build(check: &Check, inputs: &Inputs, candidates: &[Candidate]) -> CheckPrompt {
    let _ = (check, inputs, candidates);
    unimplemented!()
}
