//! Report renderers: `text` for terminals, `html` for people, `sarif` and `junit` for CI.
pub mod html;
pub mod junit;
pub mod sarif;
pub mod text;
