//! placeholder until the reports branch lands
use crate::report::Report;
pub fn render(reports: &[&Report]) -> String {
    let _ = reports;
    unimplemented!()
}
