//! placeholder until the reports branch lands
use crate::{playbook::Playbook, report::Report};
pub fn render(items: &[(&Report, &Playbook)]) -> String {
    let _ = items;
    unimplemented!()
}
