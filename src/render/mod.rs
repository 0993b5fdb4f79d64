//! Report renderers. `text` is the CLI's; html/sarif/junit OWNER: helper "reports".
pub mod text;
