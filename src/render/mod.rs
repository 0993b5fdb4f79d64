//! Reports as people and tools read them: text, SARIF, JUnit, HTML, comparisons.
pub mod counterfactual;
pub mod dataset;
pub mod diff;
pub mod html;
pub mod junit;
pub mod sarif;
pub mod terminal;
pub mod text;
