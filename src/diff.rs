//! Comparing two reports (`byop diff`). OWNER: helper "reports".
use serde::Serialize;

use crate::report::Report;

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {}

pub fn compare(a: &Report, b: &Report) -> Comparison {
    let _ = (a, b);
    unimplemented!()
}
pub fn render_text(c: &Comparison) -> String {
    let _ = c;
    unimplemented!()
}
pub fn render_json(c: &Comparison) -> String {
    let _ = c;
    unimplemented!()
}
pub fn render_html(c: &Comparison) -> String {
    let _ = c;
    unimplemented!()
}
