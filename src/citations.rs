//! Locating the evaluator's quotes in the document (SPEC §4). OWNER: helper "store+citations".
use crate::report::Located;

/// Where a quote was found, in whole-document byte offsets (`0,0` when unlocated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub located: Located,
    pub start: usize,
    pub end: usize,
}

/// Find `quote` inside `text[body.0..body.1]`: exact, then normalized, then split at
/// ellipses, then fuzzy with a similarity bound.
pub fn locate(text: &str, body: (usize, usize), quote: &str) -> Location {
    let _ = (text, body, quote);
    unimplemented!("citations::locate")
}
