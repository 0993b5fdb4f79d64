//! The cue catalog: data, never code. A built-in catalog plus the user's (JSON):
//! each cue names a slot, a control value and one or more treatment values;
//! placebo cues should change nothing and serve as negative controls.

use super::template::valid_name;
use std::collections::HashSet;

use serde::Deserialize;

/// The built-in catalog (shipped in the binary).
pub const BUILTIN: &str = include_str!("builtin_cues.json");

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Cue {
    pub name: String,
    /// The slot `{{cue:<slot>}}` this cue fills (empty for a `swap` cue).
    #[serde(default)]
    pub slot: String,
    #[serde(default)]
    pub placebo: bool,
    #[serde(default)]
    pub control: String,
    #[serde(default)]
    pub treatment: Vec<String>,
    /// Instead of values: exchange the texts of these two slots (the order of two
    /// independent paragraphs). Control: each slot holds its own text; treatment: swapped.
    #[serde(default)]
    pub swap: Option<[String; 2]>,
}

impl Cue {
    /// The slots this cue changes.
    pub fn slots(&self) -> Vec<&str> {
        match &self.swap {
            Some([a, b]) => vec![a.as_str(), b.as_str()],
            None => vec![self.slot.as_str()],
        }
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Put into the prompt of a document that marks no slot.
    #[serde(default)]
    pub default_framing: Option<String>,
    pub cues: Vec<Cue>,
    /// Text of slots that no value cue fills (e.g. the two paragraphs a `swap` cue exchanges).
    #[serde(default)]
    pub defaults: std::collections::BTreeMap<String, String>,
    /// A user's catalog: also use the built-in cues (default true; same name → the user's).
    #[serde(default)]
    pub include_builtin: Option<bool>,
    /// Per check id: how often the check's outcome reader is wrong, measured against hand
    /// labels. The audit then reports each side's fail rate corrected for those errors.
    #[serde(default)]
    pub detector_rates: std::collections::BTreeMap<String, DetectorRates>,
}

/// A detector's error rates on "fail": `alpha` = P(reads fail | truly not fail), `beta` =
/// P(reads not fail | truly fail), and where they were measured.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DetectorRates {
    pub alpha: f64,
    pub beta: f64,
    pub source: String,
}

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct CatalogError(pub String);

/// Longest cue value accepted (a cue is a phrase, not a document).
pub const MAX_VALUE: usize = 2_000;
/// Most treatment values in a catalog (each is one variant of the document).
pub const MAX_VARIANTS: usize = 200;

impl Catalog {
    pub fn builtin() -> Catalog {
        Catalog::parse(BUILTIN, "built-in cue catalog").expect("the built-in catalog is valid")
    }

    /// Parse and validate a catalog; `label` names it in errors (with line:column).
    pub fn parse(text: &str, label: &str) -> Result<Catalog, CatalogError> {
        let catalog: Catalog = serde_json::from_str(text)
            .map_err(|e| CatalogError(format!("{label}:{}:{}: {e}", e.line(), e.column())))?;
        catalog.validate(label)?;
        Ok(catalog)
    }

    /// The user's catalog over the built-in one (unless it sets `include_builtin: false`):
    /// a user cue replaces the built-in cue of the same name; the user's framing wins.
    pub fn with_user(user: Catalog) -> Catalog {
        if user.include_builtin == Some(false) {
            return user;
        }
        let builtin = Catalog::builtin();
        let names: HashSet<&str> = user.cues.iter().map(|c| c.name.as_str()).collect();
        let mut cues: Vec<Cue> = builtin
            .cues
            .iter()
            .filter(|c| !names.contains(c.name.as_str()))
            .cloned()
            .collect();
        cues.extend(user.cues.iter().cloned());
        let mut defaults = builtin.defaults;
        defaults.extend(user.defaults);
        let mut detector_rates = builtin.detector_rates;
        detector_rates.extend(user.detector_rates);
        Catalog {
            default_framing: user.default_framing.or(builtin.default_framing),
            cues,
            defaults,
            include_builtin: Some(false),
            detector_rates,
        }
    }

    fn validate(&self, label: &str) -> Result<(), CatalogError> {
        let bad = |m: String| Err(CatalogError(format!("{label}: {m}")));
        if self.cues.is_empty() {
            return bad("the catalog has no cues".into());
        }
        for (check, r) in &self.detector_rates {
            let rate = |x: f64| x.is_finite() && (0.0..1.0).contains(&x);
            if !(rate(r.alpha) && rate(r.beta) && r.alpha + r.beta < 1.0) {
                return bad(format!(
                    "detector_rates.{check}: alpha and beta must be in [0, 1) with alpha + beta < 1"
                ));
            }
        }
        // Every treatment value is a copy of the document: keep the variants bounded.
        let values: usize = self.cues.iter().map(|c| c.treatment.len().max(1)).sum();
        if values > MAX_VARIANTS {
            return bad(format!(
                "the catalog has {values} treatment values; at most {MAX_VARIANTS}"
            ));
        }
        let mut seen = HashSet::new();
        for cue in &self.cues {
            if !valid_name(&cue.name) {
                return bad(format!(
                    "cue name `{}` must be 1–64 of a-z, 0-9, _ and -",
                    cue.name
                ));
            }
            if !seen.insert(cue.name.as_str()) {
                return bad(format!("cue `{}` is defined twice", cue.name));
            }
            if let Some([a, b]) = &cue.swap {
                if !cue.slot.is_empty() || !cue.control.is_empty() || !cue.treatment.is_empty() {
                    return bad(format!(
                        "cue `{}`: a `swap` cue has no slot, control or treatment of its own",
                        cue.name
                    ));
                }
                if !valid_name(a) || !valid_name(b) || a == b {
                    return bad(format!(
                        "cue `{}`: `swap` names two different slots (1–64 of a-z, 0-9, _ and -)",
                        cue.name
                    ));
                }
                continue;
            }
            if !valid_name(&cue.slot) {
                return bad(format!(
                    "cue `{}`: slot `{}` must be 1–64 of a-z, 0-9, _ and -",
                    cue.name, cue.slot
                ));
            }
            if cue.treatment.is_empty() {
                return bad(format!("cue `{}` has no treatment value", cue.name));
            }
            for v in std::iter::once(&cue.control).chain(&cue.treatment) {
                if v.contains("{{") || v.contains("}}") {
                    return bad(format!(
                        "cue `{}`: a value may not contain `{{{{` or `}}}}`",
                        cue.name
                    ));
                }
                if v.len() > MAX_VALUE {
                    return bad(format!(
                        "cue `{}`: a value is longer than {MAX_VALUE} bytes",
                        cue.name
                    ));
                }
            }
            if cue.treatment.iter().any(|t| t == &cue.control) {
                return bad(format!(
                    "cue `{}`: a treatment value equals the control value",
                    cue.name
                ));
            }
        }
        for v in self.defaults.values() {
            if v.contains("{{") || v.contains("}}") || v.len() > MAX_VALUE {
                return bad("a default slot text may not contain `{{` or `}}` nor be longer than 2000 bytes".into());
            }
        }
        if let Some(framing) = &self.default_framing {
            let slots = super::template::slot_names(framing)
                .map_err(|e| CatalogError(format!("{label}: default_framing: {e}")))?;
            if let Some(s) = slots.iter().find(|s| self.neutral(s).is_none()) {
                return bad(format!(
                    "default_framing: slot `{s}` has no cue in the catalog"
                ));
            }
        }
        Ok(())
    }

    /// The value a slot takes when its own cue is not the one toggled: the control
    /// value of the first cue of that slot, else the catalog's default text for it.
    pub fn neutral(&self, slot: &str) -> Option<&str> {
        self.cues
            .iter()
            .find(|c| c.swap.is_none() && c.slot == slot)
            .map(|c| c.control.as_str())
            .or_else(|| self.defaults.get(slot).map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalog_is_valid_and_has_placebos() {
        let c = Catalog::builtin();
        assert!(c.cues.iter().filter(|c| c.placebo).count() >= 2);
        assert!(c.cues.iter().any(|c| c.name == "author_seniority"));
        assert_eq!(c.neutral("client"), Some("Michael Thompson"));
        let order = c.cues.iter().find(|c| c.swap.is_some()).unwrap();
        assert!(order.placebo);
        for s in order.slots() {
            assert!(c.neutral(s).is_some(), "{s} has a default text");
        }
    }

    #[test]
    fn bad_catalogs_are_clear_errors() {
        let e = Catalog::parse(
            r#"{"cues": [{"name": "a", "slot": "s", "control": 5, "treatment": ["y"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.starts_with("c.json:1:"), "{e}");
        let e = Catalog::parse(
            r#"{"cues": [{"name": "a", "slot": "s", "control": "x"}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("has no treatment"), "{e}");
        let e = Catalog::parse(
            r#"{"cues": [{"name": "a", "slot": "s", "control": "x", "treatment": ["x"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("equals the control"), "{e}");
        let e = Catalog::parse(
            r#"{"cues": [{"name": "A b", "slot": "s", "control": "x", "treatment": ["y"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("cue name"), "{e}");
        let e = Catalog::parse(
            r#"{"cues": [{"name": "a", "slot": "s", "control": "{{cue:t}}", "treatment": ["y"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("may not contain"), "{e}");
        let e = Catalog::parse(
            r#"{"default_framing": "{{cue:nope}}", "cues": [{"name": "a", "slot": "s", "control": "x", "treatment": ["y"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("`nope` has no cue"), "{e}");
        let e = Catalog::parse(r#"{"cues": [{"name": "o", "swap": ["a", "a"]}]}"#, "c.json")
            .unwrap_err();
        assert!(e.0.contains("two different slots"), "{e}");
        let e = Catalog::parse(
            r#"{"cues": [{"name": "o", "slot": "x", "swap": ["a", "b"]}]}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(e.0.contains("no slot, control or treatment"), "{e}");
        let e = Catalog::parse(r#"{"cues": [], "extra": 1}"#, "c.json").unwrap_err();
        assert!(e.0.contains("unknown field"), "{e}");
    }

    #[test]
    fn user_catalog_extends_and_overrides_the_builtin() {
        let user = Catalog::parse(
            r#"{"cues": [{"name": "author_seniority", "slot": "author", "control": "an associate", "treatment": ["a partner"]},
                         {"name": "tone", "slot": "tone", "control": "polite", "treatment": ["curt"]}]}"#,
            "u.json",
        )
        .unwrap();
        let merged = Catalog::with_user(user.clone());
        let author = merged
            .cues
            .iter()
            .find(|c| c.name == "author_seniority")
            .unwrap();
        assert_eq!(author.control, "an associate");
        assert!(merged.cues.iter().any(|c| c.name == "placebo_synonym"));
        assert!(merged.cues.iter().any(|c| c.name == "tone"));
        assert!(merged.default_framing.is_some());
        let only = Catalog::with_user(Catalog {
            include_builtin: Some(false),
            ..user
        });
        assert_eq!(only.cues.len(), 2);
    }
}
