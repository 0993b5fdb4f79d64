//! Report renderers. `text` is the CLI's; html/sarif/junit OWNER: helper "reports".
pub mod html;
pub mod junit;
pub mod sarif;
pub mod text;
