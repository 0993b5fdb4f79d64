//! Text in the untrusted document that addresses the evaluator (SPEC §4). OWNER: helper "evaluator".

/// A span of the document that tries to instruct the evaluator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectionHit {
    pub start: usize,
    pub end: usize,
    pub reason: String,
}

/// Scan `text[body.0..body.1]`; offsets are whole-document.
pub fn scan(text: &str, body: (usize, usize)) -> Vec<InjectionHit> {
    let _ = (text, body);
    unimplemented!("injection::scan")
}
